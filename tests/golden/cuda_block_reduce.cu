
__global__ void ft__kspmv_0(int *ft__derr, int64_t nr, int64_t nnz, int64_t n, const int32_t *ptr, const int32_t *col, const float *val, const float *x, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    /* Lr: */
    {
        const int64_t ft__b5 = 0;
        const int64_t ft__s5 = 1;
        const int64_t ft__n5 = ft__trip(ft__b5, nr, ft__s5);
        for (int64_t ft__k5 = blockIdx.x; ft__k5 < ft__n5; ft__k5 += gridDim.x) {
            const int64_t r = (int64_t)((uint64_t)ft__b5 + (uint64_t)ft__k5 * (uint64_t)ft__s5);
            if (ft__tid0) {
                if (!ft__bad)
                    y[(int64_t)r] = 0.0f;
            }
            if (__syncthreads_or(ft__bad)) return;
            /* Lk: */
            {
                const int64_t ft__b6 = ptr[(int64_t)r];
                const int64_t ft__s6 = 1;
                const int64_t ft__n6 = ft__trip(ft__b6, ptr[(int64_t)(r + 1)], ft__s6);
                float ft__r6 = ft__red_init<float>(0);
                __shared__ float ft__w6[32];
                for (int64_t ft__k6 = threadIdx.x; ft__k6 < ft__n6 && !ft__bad; ft__k6 += blockDim.x) {
                    const int64_t k = (int64_t)((uint64_t)ft__b6 + (uint64_t)ft__k6 * (uint64_t)ft__s6);
                    if (!ft__bad && (uint64_t)col[(int64_t)k] >= (uint64_t)n) { ft__dfail(ft__derr, FT_ERR_INDEX, 10, (int64_t)col[(int64_t)k], n); ft__bad = true; goto ft__rdone6; }
                    if (!ft__bad)
                        ft__r6 = ft__op_add()(ft__r6, (float)(val[(int64_t)k] * x[(int64_t)col[(int64_t)k]]));
                }
                ft__rdone6: ;
                ft__r6 = ft__block_reduce<float>(ft__r6, ft__op_add(), ft__w6);
                if (ft__tid0) ft__atomic_add<float>(&y[(int64_t)r], ft__r6);
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

__global__ void ft__khist_0(int *ft__derr, int64_t n, int64_t nb, const int32_t *v, int32_t *h)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    /* Li: */
    {
        const int64_t ft__b10 = 0;
        const int64_t ft__s10 = 1;
        const int64_t ft__n10 = ft__trip(ft__b10, n, ft__s10);
        for (int64_t ft__k10 = threadIdx.x; ft__k10 < ft__n10 && !ft__bad; ft__k10 += blockDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b10 + (uint64_t)ft__k10 * (uint64_t)ft__s10);
            if (!ft__bad && (uint64_t)v[(int64_t)i] >= (uint64_t)nb) { ft__dfail(ft__derr, FT_ERR_INDEX, 27, (int64_t)v[(int64_t)i], nb); ft__bad = true; }
            if (!ft__bad)
                ft__atomic_add<int32_t>(&h[(int64_t)v[(int64_t)i]], (int32_t)(1));
        }
    }
}

__global__ void ft__kxy_0(int *ft__derr, int64_t n, int64_t m, const float *x, float *y, float *s)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    /* Li: */
    {
        const int64_t ft__b15 = 0;
        const int64_t ft__s15 = 1;
        const int64_t ft__n15 = ft__trip(ft__b15, n, ft__s15);
        for (int64_t ft__k15 = blockIdx.x; ft__k15 < ft__n15; ft__k15 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b15 + (uint64_t)ft__k15 * (uint64_t)ft__s15);
            if (ft__tid0) {
                if (!ft__bad)
                    s[(int64_t)i] = 0.0f;
            }
            /* Lj: */
            {
                const int64_t ft__b16 = 0;
                const int64_t ft__s16 = 1;
                const int64_t ft__n16 = ft__trip(ft__b16, m, ft__s16);
                for (int64_t ft__k16 = (threadIdx.x == 0 ? (int64_t)threadIdx.y : ft__n16); ft__k16 < ft__n16 && !ft__bad; ft__k16 += blockDim.y) {
                    const int64_t j = (int64_t)((uint64_t)ft__b16 + (uint64_t)ft__k16 * (uint64_t)ft__s16);
                    if (!ft__bad)
                        y[(int64_t)i * m + (int64_t)j] = x[(int64_t)i * m + (int64_t)j] * 2.0f;
                }
            }
            if (__syncthreads_or(ft__bad)) return;
            /* Lk: */
            {
                const int64_t ft__b17 = 0;
                const int64_t ft__s17 = 1;
                const int64_t ft__n17 = ft__trip(ft__b17, m, ft__s17);
                float ft__r17 = ft__red_init<float>(0);
                __shared__ float ft__w17[32];
                for (int64_t ft__k17 = (threadIdx.y == 0 ? (int64_t)threadIdx.x : ft__n17); ft__k17 < ft__n17 && !ft__bad; ft__k17 += blockDim.x) {
                    const int64_t k = (int64_t)((uint64_t)ft__b17 + (uint64_t)ft__k17 * (uint64_t)ft__s17);
                    if (!ft__bad)
                        ft__r17 = ft__op_add()(ft__r17, (float)(x[(int64_t)i * m + (int64_t)k]));
                }
                ft__r17 = ft__block_reduce<float>(ft__r17, ft__op_add(), ft__w17);
                if (ft__tid0) ft__atomic_add<float>(&s[(int64_t)i], ft__r17);
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

extern "C" __attribute__((visibility("default"))) int spmv(int64_t nr, int64_t nnz, int64_t n, const int32_t *ptr, const int32_t *col, const float *val, const float *x, float *y)
{
    if (nr < 0) return ft__raise(FT_ERR_SIZE, 13, nr, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 14, nnz, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 15, n, 0);
    if (!ptr && (nr + 1) > 0) return ft__raise(FT_ERR_NULL, 16, 0, 0);
    if (!col && nnz > 0) return ft__raise(FT_ERR_NULL, 17, 0, 0);
    if (!val && nnz > 0) return ft__raise(FT_ERR_NULL, 18, 0, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 19, 0, 0);
    if (!y && nr > 0) return ft__raise(FT_ERR_NULL, 20, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 21, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {nr + 1};
        int32_t *ft__dev_ptr = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z0, sizeof(int32_t)));
        if (!ft__dev_ptr) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_ptr, ptr, ft__nbytes(1, ft__z0, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {nnz};
        int32_t *ft__dev_col = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z1, sizeof(int32_t)));
        if (!ft__dev_col) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_col, col, ft__nbytes(1, ft__z1, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        const int64_t ft__z2[] = {nnz};
        float *ft__dev_val = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z2, sizeof(float)));
        if (!ft__dev_val) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_val, val, ft__nbytes(1, ft__z2, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        const int64_t ft__z3[] = {n};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z3, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(1, ft__z3, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0); goto ft__end; }
        const int64_t ft__z4[] = {nr};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z4, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, 0, 0); goto ft__end; }
        /* Lr: */
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, nr, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], 256);
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__kspmv_0), &ft__grid, &ft__block);
            ft__kspmv_0<<<ft__grid, ft__block>>>(ft__derr, nr, nnz, n, ft__dev_ptr, ft__dev_col, ft__dev_val, ft__dev_x, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 11);
        const int64_t ft__z7[] = {nr};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(1, ft__z7, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_spmv(void *const *ft__args)
{
    return spmv(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const int32_t *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (float *)ft__args[7]);
}

static void ft__shapes_spmv(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t nr = ft__sizes[0]; (void)nr;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t n = ft__sizes[2]; (void)n;
    ft__dims[0] = nr + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = n;
    ft__dims[4] = nr;
}

static void ft__lshapes_spmv(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t nr = ft__sizes[0]; (void)nr;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t n = ft__sizes[2]; (void)n;
    ft__dims[0] = nr + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = n;
    ft__dims[4] = nr;
}

static const char *const ft__shape_spmv_3[] = {"nr + 1"};
static const char *const ft__shape_spmv_4[] = {"nnz"};
static const char *const ft__shape_spmv_5[] = {"nnz"};
static const char *const ft__shape_spmv_6[] = {"n"};
static const char *const ft__shape_spmv_7[] = {"nr"};
static const ft_param_desc ft__params_spmv[] = {
    {"nr", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"ptr", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_spmv_3, NULL, 1, ft__shape_spmv_3},
    {"col", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_spmv_4, NULL, 1, ft__shape_spmv_4},
    {"val", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_spmv_5, NULL, 1, ft__shape_spmv_5},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_spmv_6, NULL, 1, ft__shape_spmv_6},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_spmv_7, NULL, 1, ft__shape_spmv_7},
};

extern "C" __attribute__((visibility("default"))) int hist(int64_t n, int64_t nb, const int32_t *v, int32_t *h)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 30, n, 0);
    if (nb < 0) return ft__raise(FT_ERR_SIZE, 31, nb, 0);
    if (!v && n > 0) return ft__raise(FT_ERR_NULL, 32, 0, 0);
    if (!h && nb > 0) return ft__raise(FT_ERR_NULL, 33, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 34, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z8[] = {n};
        int32_t *ft__dev_v = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z8, sizeof(int32_t)));
        if (!ft__dev_v) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 22, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_v, v, ft__nbytes(1, ft__z8, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 23, 0, 0); goto ft__end; }
        const int64_t ft__z9[] = {nb};
        int32_t *ft__dev_h = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z9, sizeof(int32_t)));
        if (!ft__dev_h) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 24, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_h, h, ft__nbytes(1, ft__z9, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 25, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 26, 0, 0); goto ft__end; }
        /* Li: */
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, n, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__khist_0), &ft__grid, &ft__block);
            ft__khist_0<<<ft__grid, ft__block>>>(ft__derr, n, nb, ft__dev_v, ft__dev_h);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 28);
        const int64_t ft__z11[] = {nb};
        if (!ft__err && cudaMemcpy(h, ft__dev_h, ft__nbytes(1, ft__z11, sizeof(int32_t)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 29, 0, 0);
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
        (int32_t *)ft__args[3]);
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
    {"h", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_INOUT, 0, 1, ft__shape_hist_3, NULL, 1, ft__shape_hist_3},
};

extern "C" __attribute__((visibility("default"))) int xy(int64_t n, int64_t m, const float *x, float *y, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 43, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 44, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 45, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 46, 0, 0);
    if (!s && n > 0) return ft__raise(FT_ERR_NULL, 47, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 48, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z12[] = {n, m};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z12, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 35, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(2, ft__z12, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 36, 0, 0); goto ft__end; }
        const int64_t ft__z13[] = {n, m};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z13, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 37, 0, 0); goto ft__end; }
        const int64_t ft__z14[] = {n};
        float *ft__dev_s = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z14, sizeof(float)));
        if (!ft__dev_s) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 38, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 39, 0, 0); goto ft__end; }
        /* Li: */
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n, 1));
            ft__ext[4] = ft__max<int64_t>(ft__ext[4], ft__trip(0, m, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__kxy_0), &ft__grid, &ft__block);
            ft__kxy_0<<<ft__grid, ft__block>>>(ft__derr, n, m, ft__dev_x, ft__dev_y, ft__dev_s);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 40);
        const int64_t ft__z18[] = {n, m};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z18, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 41, 0, 0);
        const int64_t ft__z19[] = {n};
        if (!ft__err && cudaMemcpy(s, ft__dev_s, ft__nbytes(1, ft__z19, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 42, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_xy(void *const *ft__args)
{
    return xy(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_xy(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
    ft__dims[4] = n;
}

static void ft__lshapes_xy(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
    ft__dims[4] = n;
}

static const char *const ft__shape_xy_2[] = {"n", "m"};
static const char *const ft__shape_xy_3[] = {"n", "m"};
static const char *const ft__shape_xy_4[] = {"n"};
static const ft_param_desc ft__params_xy[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_xy_2, NULL, 2, ft__shape_xy_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_xy_3, NULL, 2, ft__shape_xy_3},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_xy_4, NULL, 1, ft__shape_xy_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:48", "CUDA runtime failure: cannot allocate the device copy of `ptr`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:48", "CUDA runtime failure: cannot copy `ptr` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:69", "CUDA runtime failure: cannot allocate the device copy of `col`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:69", "CUDA runtime failure: cannot copy `col` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:18", "CUDA runtime failure: cannot allocate the device copy of `val`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:18", "CUDA runtime failure: cannot copy `val` to the device", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:36", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:36", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:50", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 9 */
    {FT_ERR_INDEX, "cuda_block_reduce.ft:15:32", "index out of bounds: `col[k]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 10 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:10:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 11 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:11:50", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 12 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:10:18", "negative size: nr = %0", {1, 0}},   /* 13 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:10:28", "negative size: nnz = %0", {1, 0}},   /* 14 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:10:39", "negative size: n = %0", {1, 0}},   /* 15 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:10:48", "null pointer: tensor parameter `ptr` (i32[nr + 1]) is NULL but has elements", {0, 0}},   /* 16 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:10:69", "null pointer: tensor parameter `col` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 17 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:11:18", "null pointer: tensor parameter `val` (f32[nnz]) is NULL but has elements", {0, 0}},   /* 18 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:11:36", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 19 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:11:50", "null pointer: tensor parameter `y` (f32[nr]) is NULL but has elements", {0, 0}},   /* 20 */
    {FT_ERR_NODEVICE, "cuda_block_reduce.ft:10:13", "no usable CUDA device", {0, 0}},   /* 21 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:37", "CUDA runtime failure: cannot allocate the device copy of `v`", {0, 0}},   /* 22 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:37", "CUDA runtime failure: cannot copy `v` to the device", {0, 0}},   /* 23 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:51", "CUDA runtime failure: cannot allocate the device copy of `h`", {0, 0}},   /* 24 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:51", "CUDA runtime failure: cannot copy `h` to the device", {0, 0}},   /* 25 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 26 */
    {FT_ERR_INDEX, "cuda_block_reduce.ft:19:11", "index out of bounds: `v[i]` = %0 is outside [0, %1) (dimension 0 of h)", {1, 1}},   /* 27 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 28 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:17:51", "CUDA runtime failure: cannot copy `h` back from the device", {0, 0}},   /* 29 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:17:18", "negative size: n = %0", {1, 0}},   /* 30 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:17:27", "negative size: nb = %0", {1, 0}},   /* 31 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:17:37", "null pointer: tensor parameter `v` (i32[n]) is NULL but has elements", {0, 0}},   /* 32 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:17:51", "null pointer: tensor parameter `h` (i32[nb]) is NULL but has elements", {0, 0}},   /* 33 */
    {FT_ERR_NODEVICE, "cuda_block_reduce.ft:17:13", "no usable CUDA device", {0, 0}},   /* 34 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:34", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 35 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:34", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 36 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:51", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 37 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:69", "CUDA runtime failure: cannot allocate the device copy of `s`", {0, 0}},   /* 38 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 39 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 40 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:51", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 41 */
    {FT_ERR_NOMEM, "cuda_block_reduce.ft:21:69", "CUDA runtime failure: cannot copy `s` back from the device", {0, 0}},   /* 42 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:21:16", "negative size: n = %0", {1, 0}},   /* 43 */
    {FT_ERR_SIZE, "cuda_block_reduce.ft:21:25", "negative size: m = %0", {1, 0}},   /* 44 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:21:34", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 45 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:21:51", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 46 */
    {FT_ERR_NULL, "cuda_block_reduce.ft:21:69", "null pointer: tensor parameter `s` (f32[n]) is NULL but has elements", {0, 0}},   /* 47 */
    {FT_ERR_NODEVICE, "cuda_block_reduce.ft:21:13", "no usable CUDA device", {0, 0}},   /* 48 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 49 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_block_reduce_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"spmv", 8, ft__params_spmv, ft__call_spmv, ft__shapes_spmv, ft__lshapes_spmv},
    {"hist", 4, ft__params_hist, ft__call_hist, ft__shapes_hist, ft__lshapes_hist},
    {"xy", 5, ft__params_xy, ft__call_xy, ft__shapes_xy, ft__lshapes_xy},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 3, ft__funcs, 49, ft__sites, ft__last_error
};
