
__global__ void ft__krows_0(int *ft__derr, int64_t n, int64_t m, const int32_t *adj, const float *x, float *y, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        {
            const int64_t ft__d3_0 = m;
            const int64_t ft__z4[] = {ft__d3_0};
            float *t = (float *)malloc(ft__nbytes(1, ft__z4, sizeof(float)));
            if (!t) { ft__dfail(ft__derr, FT_ERR_NOMEM, 6, (int64_t)(ft__nbytes(1, ft__z4, sizeof(float))), 0); return; }
            {
                const int64_t ft__b5 = 0;
                const int64_t ft__s5 = 1;
                const int64_t ft__n5 = ft__trip(ft__b5, m, ft__s5);
                for (int64_t ft__k5 = 0; ft__k5 < ft__n5; ft__k5++) {
                    const int64_t i_1 = (int64_t)((uint64_t)ft__b5 + (uint64_t)ft__k5 * (uint64_t)ft__s5);
                    t[(int64_t)i_1] = 0.0f;
                }
            }
            {
                const int64_t ft__b6 = 0;
                const int64_t ft__s6 = 1;
                const int64_t ft__n6 = ft__trip(ft__b6, 3, ft__s6);
                for (int64_t ft__k6 = 0; ft__k6 < ft__n6; ft__k6++) {
                    const int64_t k = (int64_t)((uint64_t)ft__b6 + (uint64_t)ft__k6 * (uint64_t)ft__s6);
                    {
                        const int64_t ft__b7 = 0;
                        const int64_t ft__s7 = 1;
                        const int64_t ft__n7 = ft__trip(ft__b7, m, ft__s7);
                        for (int64_t ft__k7 = 0; ft__k7 < ft__n7; ft__k7++) {
                            const int64_t i_1 = (int64_t)((uint64_t)ft__b7 + (uint64_t)ft__k7 * (uint64_t)ft__s7);
                            if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)k] >= (uint64_t)n) { ft__dfail(ft__derr, FT_ERR_INDEX, 7, (int64_t)adj[(int64_t)i * 3 + (int64_t)k], n); return; }
                            t[(int64_t)i_1] = (float)(t[(int64_t)i_1] + (x[(int64_t)adj[(int64_t)i * 3 + (int64_t)k] * m + (int64_t)i_1]));
                        }
                    }
                }
            }
            {
                float t_1 = 0;
                t_1 = 0.0f;
                /* L_reduce: */
                {
                    const int64_t ft__b8 = 0;
                    const int64_t ft__s8 = 1;
                    const int64_t ft__n8 = ft__trip(ft__b8, m, ft__s8);
                    for (int64_t ft__k8 = 0; ft__k8 < ft__n8; ft__k8++) {
                        const int64_t i_1 = (int64_t)((uint64_t)ft__b8 + (uint64_t)ft__k8 * (uint64_t)ft__s8);
                        t_1 = (float)(t_1 + (t[(int64_t)i_1] * t[(int64_t)i_1]));
                    }
                }
                y[(int64_t)i] = t_1;
            }
            free(t);
        }
    }
}

extern "C" __attribute__((visibility("default"))) int rows(int64_t n, int64_t m, const int32_t *adj, const float *x, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 10, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 11, m, 0);
    if (!adj && n > 0) return ft__raise(FT_ERR_NULL, 12, 0, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 15, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n, 3};
        int32_t *ft__dev_adj = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z0, sizeof(int32_t)));
        if (!ft__dev_adj) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_adj, adj, ft__nbytes(2, ft__z0, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {n, m};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z1, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(2, ft__z1, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        const int64_t ft__z2[] = {n};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z2, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        /* Li: */
        ft__heap_reserve();
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n, ft__s);
            if (ft__n > 0)
                ft__krows_0<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, m, ft__dev_adj, ft__dev_x, ft__dev_y, ft__b, ft__s, ft__n);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 8);
        const int64_t ft__z9[] = {n};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(1, ft__z9, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_rows(void *const *ft__args)
{
    return rows(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = m;
    ft__dims[4] = n;
}

static void ft__lshapes_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = m;
    ft__dims[4] = n;
}

static const char *const ft__shape_rows_2[] = {"n", "3"};
static const char *const ft__shape_rows_3[] = {"n", "m"};
static const char *const ft__shape_rows_4[] = {"n"};
static const ft_param_desc ft__params_rows[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_rows_2, NULL, 2, ft__shape_rows_2},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_rows_3, NULL, 2, ft__shape_rows_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_rows_4, NULL, 1, ft__shape_rows_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:36", "CUDA runtime failure: cannot allocate the device copy of `adj`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:36", "CUDA runtime failure: cannot copy `adj` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:55", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:55", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:72", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:9:13", "out of memory: cannot allocate %0 bytes for local tensor `t`", {5, 0}},   /* 6 */
    {FT_ERR_INDEX, "cuda_heap_local.ft:12:20", "index out of bounds: `adj[i, k]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "cuda_heap_local.ft:7:72", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 9 */
    {FT_ERR_SIZE, "cuda_heap_local.ft:7:18", "negative size: n = %0", {1, 0}},   /* 10 */
    {FT_ERR_SIZE, "cuda_heap_local.ft:7:27", "negative size: m = %0", {1, 0}},   /* 11 */
    {FT_ERR_NULL, "cuda_heap_local.ft:7:36", "null pointer: tensor parameter `adj` (i32[n, 3]) is NULL but has elements", {0, 0}},   /* 12 */
    {FT_ERR_NULL, "cuda_heap_local.ft:7:55", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NULL, "cuda_heap_local.ft:7:72", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NODEVICE, "cuda_heap_local.ft:7:13", "no usable CUDA device", {0, 0}},   /* 15 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 16 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_heap_local_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"rows", 5, ft__params_rows, ft__call_rows, ft__shapes_rows, ft__lshapes_rows},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 16, ft__sites, ft__last_error
};
