
__global__ void ft__khist_0(int *ft__derr, int64_t n, int64_t nb, const int32_t *v, float *h, int32_t *m, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t b = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        h[(int64_t)b] = 0.0f;
    }
}

__global__ void ft__khist_1(int *ft__derr, int64_t n, int64_t nb, const int32_t *v, float *h, int32_t *m)
{
    if (*(volatile int *)ft__derr) return;
    (*m) = 0;
}

__global__ void ft__khist_2(int *ft__derr, int64_t n, int64_t nb, const int32_t *v, float *h, int32_t *m, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        if ((uint64_t)v[(int64_t)i] >= (uint64_t)nb) { ft__dfail(ft__derr, FT_ERR_INDEX, 5, (int64_t)v[(int64_t)i], nb); return; }
        ft__atomic_add<float>(&h[(int64_t)v[(int64_t)i]], (float)(1.0f));
        ft__atomic_max<int32_t>(&(*m), (int32_t)(v[(int64_t)i]));
    }
}

extern "C" __attribute__((visibility("default"))) int hist(int64_t n, int64_t nb, const int32_t *v, float *h, int32_t *m)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 9, n, 0);
    if (nb < 0) return ft__raise(FT_ERR_SIZE, 10, nb, 0);
    if (!v && n > 0) return ft__raise(FT_ERR_NULL, 11, 0, 0);
    if (!h && nb > 0) return ft__raise(FT_ERR_NULL, 12, 0, 0);
    if (!m) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 14, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n};
        int32_t *ft__dev_v = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z0, sizeof(int32_t)));
        if (!ft__dev_v) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_v, v, ft__nbytes(1, ft__z0, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {nb};
        float *ft__dev_h = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z1, sizeof(float)));
        if (!ft__dev_h) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        int32_t *ft__dev_m = (int32_t *)ft__dev_alloc(&ft__pool, sizeof(int32_t));
        if (!ft__dev_m) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, nb, ft__s);
            if (ft__n > 0)
                ft__khist_0<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, nb, ft__dev_v, ft__dev_h, ft__dev_m, ft__b, ft__s, ft__n);
        }
        ft__khist_1<<<1, 1>>>(ft__derr, n, nb, ft__dev_v, ft__dev_h, ft__dev_m);
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n, ft__s);
            if (ft__n > 0)
                ft__khist_2<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, nb, ft__dev_v, ft__dev_h, ft__dev_m, ft__b, ft__s, ft__n);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 6);
        const int64_t ft__z2[] = {nb};
        if (!ft__err && cudaMemcpy(h, ft__dev_h, ft__nbytes(1, ft__z2, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0);
        if (!ft__err && cudaMemcpy(m, ft__dev_m, sizeof(int32_t), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_hist(void *const *ft__args)
{
    return hist(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (float *)ft__args[3],
        (int32_t *)ft__args[4]);
}

static void ft__shapes_hist(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nb = ft__sizes[1]; (void)nb;
    ft__dims[0] = n;
    ft__dims[1] = nb;
}

static void ft__lshapes_hist(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nb = ft__sizes[1]; (void)nb;
    ft__dims[0] = n;
    ft__dims[1] = nb;
}

static const char *const ft__shape_hist_2[] = {"n"};
static const char *const ft__shape_hist_3[] = {"nb"};
static const ft_param_desc ft__params_hist[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nb", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"v", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_hist_2, NULL, 1, ft__shape_hist_2},
    {"h", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_hist_3, NULL, 1, ft__shape_hist_3},
    {"m", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_OUT, 0, 0, NULL, NULL, 0, NULL},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:37", "CUDA runtime failure: cannot allocate the device copy of `v`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:37", "CUDA runtime failure: cannot copy `v` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:51", "CUDA runtime failure: cannot allocate the device copy of `h`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:67", "CUDA runtime failure: cannot allocate the device copy of `m`", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 4 */
    {FT_ERR_INDEX, "cuda_atomic_histogram.ft:10:11", "index out of bounds: `v[i]` = %0 is outside [0, %1) (dimension 0 of h)", {1, 1}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:51", "CUDA runtime failure: cannot copy `h` back from the device", {0, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_atomic_histogram.ft:5:67", "CUDA runtime failure: cannot copy `m` back from the device", {0, 0}},   /* 8 */
    {FT_ERR_SIZE, "cuda_atomic_histogram.ft:5:18", "negative size: n = %0", {1, 0}},   /* 9 */
    {FT_ERR_SIZE, "cuda_atomic_histogram.ft:5:27", "negative size: nb = %0", {1, 0}},   /* 10 */
    {FT_ERR_NULL, "cuda_atomic_histogram.ft:5:37", "null pointer: tensor parameter `v` (i32[n]) is NULL but has elements", {0, 0}},   /* 11 */
    {FT_ERR_NULL, "cuda_atomic_histogram.ft:5:51", "null pointer: tensor parameter `h` (f32[nb]) is NULL but has elements", {0, 0}},   /* 12 */
    {FT_ERR_NULL, "cuda_atomic_histogram.ft:5:67", "null pointer: tensor parameter `m` (i32) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NODEVICE, "cuda_atomic_histogram.ft:5:13", "no usable CUDA device", {0, 0}},   /* 14 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 15 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_atomic_histogram_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"hist", 5, ft__params_hist, ft__call_hist, ft__shapes_hist, ft__lshapes_hist},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 15, ft__sites, ft__last_error
};
