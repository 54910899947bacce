
__global__ void ft__kdot_gather_0(int *ft__derr, int64_t n, int64_t m, const int32_t *idx, const float *x, const float *y, float *s, float *h)
{
    if (*(volatile int *)ft__derr) return;
    (*s) = 0.0f;
}

__global__ void ft__kdot_gather_1(int *ft__derr, int64_t n, int64_t m, const int32_t *idx, const float *x, const float *y, float *s, float *h, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    float ft__r1 = ft__red_init<float>(0);
    __shared__ float ft__w1[32];
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        if (!ft__bad && (uint64_t)idx[(int64_t)i] >= (uint64_t)m) { ft__dfail(ft__derr, FT_ERR_INDEX, 9, (int64_t)idx[(int64_t)i], m); ft__bad = true; goto ft__rdone1; }
        if (!ft__bad)
            ft__r1 = ft__op_add()(ft__r1, (float)(x[(int64_t)idx[(int64_t)i]] * y[(int64_t)i]));
    }
    ft__rdone1: ;
    ft__r1 = ft__block_reduce<float>(ft__r1, ft__op_add(), ft__w1);
    if (ft__tid0) ft__atomic_add<float>(&(*s), ft__r1);
}

__global__ void ft__kdot_gather_2(int *ft__derr, int64_t n, int64_t m, const int32_t *idx, const float *x, const float *y, float *s, float *h, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        h[(int64_t)i] = 0.0f;
    }
}

__global__ void ft__kdot_gather_3(int *ft__derr, int64_t n, int64_t m, const int32_t *idx, const float *x, const float *y, float *s, float *h, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        if ((uint64_t)idx[(int64_t)i] >= (uint64_t)m) { ft__dfail(ft__derr, FT_ERR_INDEX, 10, (int64_t)idx[(int64_t)i], m); return; }
        ft__atomic_add<float>(&h[(int64_t)idx[(int64_t)i]], (float)(y[(int64_t)i]));
    }
}

extern "C" __attribute__((visibility("default"))) int dot_gather(int64_t n, int64_t m, const int32_t *idx, const float *x, const float *y, float *s, float *h)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 14, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 15, m, 0);
    if (!idx && n > 0) return ft__raise(FT_ERR_NULL, 16, 0, 0);
    if (!x && m > 0) return ft__raise(FT_ERR_NULL, 17, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 18, 0, 0);
    if (!s) return ft__raise(FT_ERR_NULL, 19, 0, 0);
    if (!h && m > 0) return ft__raise(FT_ERR_NULL, 20, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 21, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n};
        int32_t *ft__dev_idx = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z0, sizeof(int32_t)));
        if (!ft__dev_idx) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_idx, idx, ft__nbytes(1, ft__z0, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {m};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z1, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(1, ft__z1, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        const int64_t ft__z2[] = {n};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z2, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_y, y, ft__nbytes(1, ft__z2, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        float *ft__dev_s = (float *)ft__dev_alloc(&ft__pool, sizeof(float));
        if (!ft__dev_s) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, 0, 0); goto ft__end; }
        const int64_t ft__z3[] = {m};
        float *ft__dev_h = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z3, sizeof(float)));
        if (!ft__dev_h) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, 0, 0); goto ft__end; }
        ft__kdot_gather_0<<<1, 1>>>(ft__derr, n, m, ft__dev_idx, ft__dev_x, ft__dev_y, ft__dev_s, ft__dev_h);
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n, ft__s);
            if (ft__n > 0)
                ft__kdot_gather_1<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, m, ft__dev_idx, ft__dev_x, ft__dev_y, ft__dev_s, ft__dev_h, ft__b, ft__s, ft__n);
        }
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, m, ft__s);
            if (ft__n > 0)
                ft__kdot_gather_2<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, m, ft__dev_idx, ft__dev_x, ft__dev_y, ft__dev_s, ft__dev_h, ft__b, ft__s, ft__n);
        }
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n, ft__s);
            if (ft__n > 0)
                ft__kdot_gather_3<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, m, ft__dev_idx, ft__dev_x, ft__dev_y, ft__dev_s, ft__dev_h, ft__b, ft__s, ft__n);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 11);
        if (!ft__err && cudaMemcpy(s, ft__dev_s, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, 0, 0);
        const int64_t ft__z4[] = {m};
        if (!ft__err && cudaMemcpy(h, ft__dev_h, ft__nbytes(1, ft__z4, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 13, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_dot_gather(void *const *ft__args)
{
    return dot_gather(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5],
        (float *)ft__args[6]);
}

static void ft__shapes_dot_gather(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static void ft__lshapes_dot_gather(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static const char *const ft__shape_dot_gather_2[] = {"n"};
static const char *const ft__shape_dot_gather_3[] = {"m"};
static const char *const ft__shape_dot_gather_4[] = {"n"};
static const char *const ft__shape_dot_gather_6[] = {"m"};
static const ft_param_desc ft__params_dot_gather[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_dot_gather_2, NULL, 1, ft__shape_dot_gather_2},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_dot_gather_3, NULL, 1, ft__shape_dot_gather_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_dot_gather_4, NULL, 1, ft__shape_dot_gather_4},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 0, NULL, NULL, 0, NULL},
    {"h", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_dot_gather_6, NULL, 1, ft__shape_dot_gather_6},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:42", "CUDA runtime failure: cannot allocate the device copy of `idx`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:42", "CUDA runtime failure: cannot copy `idx` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:58", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:58", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:72", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:72", "CUDA runtime failure: cannot copy `y` to the device", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:8:24", "CUDA runtime failure: cannot allocate the device copy of `s`", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:8:36", "CUDA runtime failure: cannot allocate the device copy of `h`", {0, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 8 */
    {FT_ERR_INDEX, "cuda_flat_reduce.ft:11:16", "index out of bounds: `idx[i]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 9 */
    {FT_ERR_INDEX, "cuda_flat_reduce.ft:14:11", "index out of bounds: `idx[i]` = %0 is outside [0, %1) (dimension 0 of h)", {1, 1}},   /* 10 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:7:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 11 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:8:24", "CUDA runtime failure: cannot copy `s` back from the device", {0, 0}},   /* 12 */
    {FT_ERR_NOMEM, "cuda_flat_reduce.ft:8:36", "CUDA runtime failure: cannot copy `h` back from the device", {0, 0}},   /* 13 */
    {FT_ERR_SIZE, "cuda_flat_reduce.ft:7:24", "negative size: n = %0", {1, 0}},   /* 14 */
    {FT_ERR_SIZE, "cuda_flat_reduce.ft:7:33", "negative size: m = %0", {1, 0}},   /* 15 */
    {FT_ERR_NULL, "cuda_flat_reduce.ft:7:42", "null pointer: tensor parameter `idx` (i32[n]) is NULL but has elements", {0, 0}},   /* 16 */
    {FT_ERR_NULL, "cuda_flat_reduce.ft:7:58", "null pointer: tensor parameter `x` (f32[m]) is NULL but has elements", {0, 0}},   /* 17 */
    {FT_ERR_NULL, "cuda_flat_reduce.ft:7:72", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 18 */
    {FT_ERR_NULL, "cuda_flat_reduce.ft:8:24", "null pointer: tensor parameter `s` (f32) is NULL but has elements", {0, 0}},   /* 19 */
    {FT_ERR_NULL, "cuda_flat_reduce.ft:8:36", "null pointer: tensor parameter `h` (f32[m]) is NULL but has elements", {0, 0}},   /* 20 */
    {FT_ERR_NODEVICE, "cuda_flat_reduce.ft:7:13", "no usable CUDA device", {0, 0}},   /* 21 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 22 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_flat_reduce_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"dot_gather", 7, ft__params_dot_gather, ft__call_dot_gather, ft__shapes_dot_gather, ft__lshapes_dot_gather},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 22, ft__sites, ft__last_error
};
