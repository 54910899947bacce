
__global__ void ft__krowsum_0(int *ft__derr, int64_t n, int64_t m, int64_t k, const float *a, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    {
        const int64_t ft__b2 = 0;
        const int64_t ft__s2 = 1;
        const int64_t ft__n2 = ft__trip(ft__b2, n, ft__s2);
        for (int64_t ft__k2 = blockIdx.x; ft__k2 < ft__n2; ft__k2 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b2 + (uint64_t)ft__k2 * (uint64_t)ft__s2);
            {
                const int64_t ft__b3 = 0;
                const int64_t ft__s3 = 1;
                const int64_t ft__n3 = ft__trip(ft__b3, ft__floordiv<int64_t>(m - 1, 128) + 1, ft__s3);
                for (int64_t ft__k3 = blockIdx.y; ft__k3 < ft__n3; ft__k3 += gridDim.y) {
                    const int64_t jo = (int64_t)((uint64_t)ft__b3 + (uint64_t)ft__k3 * (uint64_t)ft__s3);
                    {
                        const int64_t ft__b4 = 0;
                        const int64_t ft__s4 = 1;
                        const int64_t ft__n4 = ft__trip(ft__b4, 128, ft__s4);
                        for (int64_t ft__k4 = threadIdx.x; ft__k4 < ft__n4 && !ft__bad; ft__k4 += blockDim.x) {
                            const int64_t ji = (int64_t)((uint64_t)ft__b4 + (uint64_t)ft__k4 * (uint64_t)ft__s4);
                            if (!ft__bad && ((128 * jo) + ji) < m) {
                                {
                                    float t = 0;
                                    if (!ft__bad)
                                        t = 0.0f;
                                    /* L_reduce: */
                                    {
                                        const int64_t ft__b5 = 0;
                                        const int64_t ft__s5 = 1;
                                        const int64_t ft__n5 = ft__trip(ft__b5, k, ft__s5);
                                        for (int64_t ft__k5 = 0; ft__k5 < ft__n5 && !ft__bad; ft__k5++) {
                                            const int64_t i_1 = (int64_t)((uint64_t)ft__b5 + (uint64_t)ft__k5 * (uint64_t)ft__s5);
                                            if (!ft__bad)
                                                t = (float)(t + (a[((int64_t)i * m + (int64_t)((128 * jo) + ji)) * k + (int64_t)i_1]));
                                        }
                                    }
                                    if (!ft__bad)
                                        y[(int64_t)i * m + (int64_t)((128 * jo) + ji)] = t;
                                }
                            }
                        }
                    }
                    if (__syncthreads_or(ft__bad)) return;
                }
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

__global__ void ft__kshort_rows_0(int *ft__derr, int64_t n, int64_t k, const float *a, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    {
        const int64_t ft__b9 = 0;
        const int64_t ft__s9 = 1;
        const int64_t ft__n9 = ft__trip(ft__b9, n, ft__s9);
        for (int64_t ft__k9 = blockIdx.x; ft__k9 < ft__n9; ft__k9 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b9 + (uint64_t)ft__k9 * (uint64_t)ft__s9);
            {
                const int64_t ft__b10 = 0;
                const int64_t ft__s10 = 1;
                const int64_t ft__n10 = ft__trip(ft__b10, 64, ft__s10);
                for (int64_t ft__k10 = threadIdx.x; ft__k10 < ft__n10 && !ft__bad; ft__k10 += blockDim.x) {
                    const int64_t j = (int64_t)((uint64_t)ft__b10 + (uint64_t)ft__k10 * (uint64_t)ft__s10);
                    {
                        float t = 0;
                        if (!ft__bad)
                            t = 0.0f;
                        /* L_reduce: */
                        {
                            const int64_t ft__b11 = 0;
                            const int64_t ft__s11 = 1;
                            const int64_t ft__n11 = ft__trip(ft__b11, k, ft__s11);
                            for (int64_t ft__k11 = 0; ft__k11 < ft__n11 && !ft__bad; ft__k11++) {
                                const int64_t i_1 = (int64_t)((uint64_t)ft__b11 + (uint64_t)ft__k11 * (uint64_t)ft__s11);
                                if (!ft__bad)
                                    t = (float)(t + (a[((int64_t)i * 64 + (int64_t)j) * k + (int64_t)i_1]));
                            }
                        }
                        if (!ft__bad)
                            y[(int64_t)i * 64 + (int64_t)j] = t;
                    }
                }
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

extern "C" __attribute__((visibility("default"))) int rowsum(int64_t n, int64_t m, int64_t k, const float *a, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 6, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 7, m, 0);
    if (k < 0) return ft__raise(FT_ERR_SIZE, 8, k, 0);
    if (!a && n > 0 && m > 0 && k > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 11, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n, m, k};
        float *ft__dev_a = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z0, sizeof(float)));
        if (!ft__dev_a) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_a, a, ft__nbytes(3, ft__z0, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {n, m};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z1, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n, 1));
            ft__ext[1] = ft__max<int64_t>(ft__ext[1], ft__trip(0, ft__floordiv<int64_t>(m - 1, 128) + 1, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, 128, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__krowsum_0), &ft__grid, &ft__block);
            ft__krowsum_0<<<ft__grid, ft__block>>>(ft__derr, n, m, k, ft__dev_a, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 4);
        const int64_t ft__z6[] = {n, m};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z6, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_rowsum(void *const *ft__args)
{
    return rowsum(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_rowsum(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static void ft__lshapes_rowsum(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static const char *const ft__shape_rowsum_3[] = {"n", "m", "k"};
static const char *const ft__shape_rowsum_4[] = {"n", "m"};
static const ft_param_desc ft__params_rowsum[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_rowsum_3, NULL, 3, ft__shape_rowsum_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_rowsum_4, NULL, 2, ft__shape_rowsum_4},
};

extern "C" __attribute__((visibility("default"))) int short_rows(int64_t n, int64_t k, const float *a, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 18, n, 0);
    if (k < 0) return ft__raise(FT_ERR_SIZE, 19, k, 0);
    if (!a && n > 0 && k > 0) return ft__raise(FT_ERR_NULL, 20, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 21, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 22, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z7[] = {n, 64, k};
        float *ft__dev_a = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z7, sizeof(float)));
        if (!ft__dev_a) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_a, a, ft__nbytes(3, ft__z7, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 13, 0, 0); goto ft__end; }
        const int64_t ft__z8[] = {n, 64};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z8, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 14, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 15, 0, 0); goto ft__end; }
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, 64, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__kshort_rows_0), &ft__grid, &ft__block);
            ft__kshort_rows_0<<<ft__grid, ft__block>>>(ft__derr, n, k, ft__dev_a, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 16);
        const int64_t ft__z12[] = {n, 64};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z12, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 17, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_short_rows(void *const *ft__args)
{
    return short_rows(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_short_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t k = ft__sizes[1]; (void)k;
    ft__dims[0] = n;
    ft__dims[1] = 64;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = 64;
}

static void ft__lshapes_short_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t k = ft__sizes[1]; (void)k;
    ft__dims[0] = n;
    ft__dims[1] = 64;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = 64;
}

static const char *const ft__shape_short_rows_2[] = {"n", "64", "k"};
static const char *const ft__shape_short_rows_3[] = {"n", "64"};
static const ft_param_desc ft__params_short_rows[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_short_rows_2, NULL, 3, ft__shape_short_rows_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_short_rows_3, NULL, 2, ft__shape_short_rows_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:47", "CUDA runtime failure: cannot allocate the device copy of `a`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:47", "CUDA runtime failure: cannot copy `a` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:67", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:7:67", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 5 */
    {FT_ERR_SIZE, "cuda_spread_blocks.ft:7:20", "negative size: n = %0", {1, 0}},   /* 6 */
    {FT_ERR_SIZE, "cuda_spread_blocks.ft:7:29", "negative size: m = %0", {1, 0}},   /* 7 */
    {FT_ERR_SIZE, "cuda_spread_blocks.ft:7:38", "negative size: k = %0", {1, 0}},   /* 8 */
    {FT_ERR_NULL, "cuda_spread_blocks.ft:7:47", "null pointer: tensor parameter `a` (f32[n, m, k]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NULL, "cuda_spread_blocks.ft:7:67", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_NODEVICE, "cuda_spread_blocks.ft:7:13", "no usable CUDA device", {0, 0}},   /* 11 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:42", "CUDA runtime failure: cannot allocate the device copy of `a`", {0, 0}},   /* 12 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:42", "CUDA runtime failure: cannot copy `a` to the device", {0, 0}},   /* 13 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:63", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 14 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 15 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 16 */
    {FT_ERR_NOMEM, "cuda_spread_blocks.ft:12:63", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 17 */
    {FT_ERR_SIZE, "cuda_spread_blocks.ft:12:24", "negative size: n = %0", {1, 0}},   /* 18 */
    {FT_ERR_SIZE, "cuda_spread_blocks.ft:12:33", "negative size: k = %0", {1, 0}},   /* 19 */
    {FT_ERR_NULL, "cuda_spread_blocks.ft:12:42", "null pointer: tensor parameter `a` (f32[n, 64, k]) is NULL but has elements", {0, 0}},   /* 20 */
    {FT_ERR_NULL, "cuda_spread_blocks.ft:12:63", "null pointer: tensor parameter `y` (f32[n, 64]) is NULL but has elements", {0, 0}},   /* 21 */
    {FT_ERR_NODEVICE, "cuda_spread_blocks.ft:12:13", "no usable CUDA device", {0, 0}},   /* 22 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 23 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_spread_blocks_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"rowsum", 5, ft__params_rowsum, ft__call_rowsum, ft__shapes_rowsum, ft__lshapes_rowsum},
    {"short_rows", 4, ft__params_short_rows, ft__call_short_rows, ft__shapes_short_rows, ft__lshapes_short_rows},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 2, ft__funcs, 23, ft__sites, ft__last_error
};
