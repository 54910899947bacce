
__global__ void ft__krownorm_0(int *ft__derr, int64_t n, int64_t m, const float *x, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    /* Li: */
    {
        const int64_t ft__b2 = 0;
        const int64_t ft__s2 = 1;
        const int64_t ft__n2 = ft__trip(ft__b2, n, ft__s2);
        for (int64_t ft__k2 = blockIdx.x; ft__k2 < ft__n2; ft__k2 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b2 + (uint64_t)ft__k2 * (uint64_t)ft__s2);
            {
                __shared__ float s[1];
                if (ft__tid0) {
                    if (!ft__bad)
                        (*s) = 0.0f;
                }
                if (__syncthreads_or(ft__bad)) return;
                /* Lj: */
                {
                    const int64_t ft__b3 = 0;
                    const int64_t ft__s3 = 1;
                    const int64_t ft__n3 = ft__trip(ft__b3, m, ft__s3);
                    float ft__r3 = ft__red_init<float>(0);
                    __shared__ float ft__w3[32];
                    for (int64_t ft__k3 = threadIdx.x; ft__k3 < ft__n3 && !ft__bad; ft__k3 += blockDim.x) {
                        const int64_t j = (int64_t)((uint64_t)ft__b3 + (uint64_t)ft__k3 * (uint64_t)ft__s3);
                        if (!ft__bad)
                            ft__r3 = ft__op_add()(ft__r3, (float)(x[(int64_t)i * m + (int64_t)j] * x[(int64_t)i * m + (int64_t)j]));
                    }
                    ft__r3 = ft__block_reduce<float>(ft__r3, ft__op_add(), ft__w3);
                    if (ft__tid0) (*s) = ft__op_add()((*s), ft__r3);
                }
                if (__syncthreads_or(ft__bad)) return;
                /* Lk: */
                {
                    const int64_t ft__b4 = 0;
                    const int64_t ft__s4 = 1;
                    const int64_t ft__n4 = ft__trip(ft__b4, m, ft__s4);
                    for (int64_t ft__k4 = threadIdx.x; ft__k4 < ft__n4 && !ft__bad; ft__k4 += blockDim.x) {
                        const int64_t k = (int64_t)((uint64_t)ft__b4 + (uint64_t)ft__k4 * (uint64_t)ft__s4);
                        if (!ft__bad)
                            y[(int64_t)i * m + (int64_t)k] = x[(int64_t)i * m + (int64_t)k] / ((*s) + 1.0f);
                    }
                }
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

extern "C" __attribute__((visibility("default"))) int rownorm(int64_t n, int64_t m, const float *x, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 6, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 7, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 10, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n, m};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z0, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(2, ft__z0, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {n, m};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z1, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        /* Li: */
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__krownorm_0), &ft__grid, &ft__block);
            ft__krownorm_0<<<ft__grid, ft__block>>>(ft__derr, n, m, ft__dev_x, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 4);
        const int64_t ft__z5[] = {n, m};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z5, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_rownorm(void *const *ft__args)
{
    return rownorm(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_rownorm(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static void ft__lshapes_rownorm(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static const char *const ft__shape_rownorm_2[] = {"n", "m"};
static const char *const ft__shape_rownorm_3[] = {"n", "m"};
static const ft_param_desc ft__params_rownorm[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_rownorm_2, NULL, 2, ft__shape_rownorm_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_rownorm_3, NULL, 2, ft__shape_rownorm_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:39", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:39", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:56", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_bind_shared_sync.ft:7:56", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 5 */
    {FT_ERR_SIZE, "cuda_bind_shared_sync.ft:7:21", "negative size: n = %0", {1, 0}},   /* 6 */
    {FT_ERR_SIZE, "cuda_bind_shared_sync.ft:7:30", "negative size: m = %0", {1, 0}},   /* 7 */
    {FT_ERR_NULL, "cuda_bind_shared_sync.ft:7:39", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NULL, "cuda_bind_shared_sync.ft:7:56", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NODEVICE, "cuda_bind_shared_sync.ft:7:13", "no usable CUDA device", {0, 0}},   /* 10 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 11 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_bind_shared_sync_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"rownorm", 4, ft__params_rownorm, ft__call_rownorm, ft__shapes_rownorm, ft__lshapes_rownorm},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 11, ft__sites, ft__last_error
};
