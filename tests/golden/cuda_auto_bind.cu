
__global__ void ft__krownorm_0(int *ft__derr, int64_t n, int64_t m, const float *x, float *y)
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
                __shared__ float s[1];
                if (ft__tid0) {
                    if (!ft__bad)
                        (*s) = 0.0f;
                }
                if (__syncthreads_or(ft__bad)) return;
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

__global__ void ft__kgather3_0(int *ft__derr, int64_t n, const int32_t *adj, const float *e, float *y, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)0] >= (uint64_t)n) { ft__dfail(ft__derr, FT_ERR_INDEX, 17, (int64_t)adj[(int64_t)i * 3 + (int64_t)0], n); return; }
        if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)1] >= (uint64_t)n) { ft__dfail(ft__derr, FT_ERR_INDEX, 18, (int64_t)adj[(int64_t)i * 3 + (int64_t)1], n); return; }
        if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)2] >= (uint64_t)n) { ft__dfail(ft__derr, FT_ERR_INDEX, 19, (int64_t)adj[(int64_t)i * 3 + (int64_t)2], n); return; }
        y[(int64_t)i] = (float)(y[(int64_t)i] + ((e[(int64_t)adj[(int64_t)i * 3 + (int64_t)0]] + e[(int64_t)adj[(int64_t)i * 3 + (int64_t)1]]) + e[(int64_t)adj[(int64_t)i * 3 + (int64_t)2]]));
    }
}

__global__ void ft__krowscatter_0(int *ft__derr, int64_t n, int64_t m, const float *x, const int32_t *p, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    {
        const int64_t ft__b13 = 0;
        const int64_t ft__s13 = 1;
        const int64_t ft__n13 = ft__trip(ft__b13, n, ft__s13);
        for (int64_t ft__k13 = blockIdx.x; ft__k13 < ft__n13; ft__k13 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b13 + (uint64_t)ft__k13 * (uint64_t)ft__s13);
            {
                extern __shared__ __align__(16) unsigned char ft__dsmem[];
                float *const t = (float *)(ft__dsmem + 0);
                /* L_j: */
                {
                    const int64_t ft__b14 = 0;
                    const int64_t ft__s14 = 1;
                    const int64_t ft__n14 = ft__trip(ft__b14, m, ft__s14);
                    for (int64_t ft__k14 = threadIdx.x; ft__k14 < ft__n14 && !ft__bad; ft__k14 += blockDim.x) {
                        const int64_t j = (int64_t)((uint64_t)ft__b14 + (uint64_t)ft__k14 * (uint64_t)ft__s14);
                        if (!ft__bad)
                            t[(int64_t)j] = 0.0f;
                    }
                }
                if (__syncthreads_or(ft__bad)) return;
                /* L_j_2: */
                {
                    const int64_t ft__b15 = 0;
                    const int64_t ft__s15 = 1;
                    const int64_t ft__n15 = ft__trip(ft__b15, m, ft__s15);
                    for (int64_t ft__k15 = threadIdx.x; ft__k15 < ft__n15 && !ft__bad; ft__k15 += blockDim.x) {
                        const int64_t j = (int64_t)((uint64_t)ft__b15 + (uint64_t)ft__k15 * (uint64_t)ft__s15);
                        if (!ft__bad && (uint64_t)p[(int64_t)j] >= (uint64_t)m) { ft__dfail(ft__derr, FT_ERR_INDEX, 33, (int64_t)p[(int64_t)j], m); ft__bad = true; }
                        if (!ft__bad)
                            ft__atomic_add<float>(&t[(int64_t)p[(int64_t)j]], (float)(x[(int64_t)i * m + (int64_t)j]));
                    }
                }
                if (__syncthreads_or(ft__bad)) return;
                /* L_j_1: */
                {
                    const int64_t ft__b16 = 0;
                    const int64_t ft__s16 = 1;
                    const int64_t ft__n16 = ft__trip(ft__b16, m, ft__s16);
                    for (int64_t ft__k16 = threadIdx.x; ft__k16 < ft__n16 && !ft__bad; ft__k16 += blockDim.x) {
                        const int64_t j = (int64_t)((uint64_t)ft__b16 + (uint64_t)ft__k16 * (uint64_t)ft__s16);
                        if (!ft__bad)
                            y[(int64_t)i * m + (int64_t)j] = t[(int64_t)j] * t[(int64_t)j];
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

extern "C" __attribute__((visibility("default"))) int gather3(int64_t n, const int32_t *adj, const float *e, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 22, n, 0);
    if (!adj && n > 0) return ft__raise(FT_ERR_NULL, 23, 0, 0);
    if (!e && n > 0) return ft__raise(FT_ERR_NULL, 24, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 25, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 26, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z6[] = {n, 3};
        int32_t *ft__dev_adj = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z6, sizeof(int32_t)));
        if (!ft__dev_adj) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 11, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_adj, adj, ft__nbytes(2, ft__z6, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, 0, 0); goto ft__end; }
        const int64_t ft__z7[] = {n};
        float *ft__dev_e = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z7, sizeof(float)));
        if (!ft__dev_e) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 13, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_e, e, ft__nbytes(1, ft__z7, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 14, 0, 0); goto ft__end; }
        const int64_t ft__z8[] = {n};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z8, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 15, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 16, 0, 0); goto ft__end; }
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n, ft__s);
            if (ft__n > 0)
                ft__kgather3_0<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, ft__dev_adj, ft__dev_e, ft__dev_y, ft__b, ft__s, ft__n);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 20);
        const int64_t ft__z9[] = {n};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(1, ft__z9, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 21, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_gather3(void *const *ft__args)
{
    return gather3(*(const int64_t *)ft__args[0],
        (const int32_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_gather3(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static void ft__lshapes_gather3(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static const char *const ft__shape_gather3_1[] = {"n", "3"};
static const char *const ft__shape_gather3_2[] = {"n"};
static const char *const ft__shape_gather3_3[] = {"n"};
static const ft_param_desc ft__params_gather3[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_gather3_1, NULL, 2, ft__shape_gather3_1},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_gather3_2, NULL, 1, ft__shape_gather3_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_gather3_3, NULL, 1, ft__shape_gather3_3},
};

extern "C" __attribute__((visibility("default"))) int rowscatter(int64_t n, int64_t m, const float *x, const int32_t *p, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 36, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 37, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 38, 0, 0);
    if (!p && m > 0) return ft__raise(FT_ERR_NULL, 39, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 40, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 41, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z10[] = {n, m};
        float *ft__dev_x = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z10, sizeof(float)));
        if (!ft__dev_x) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 27, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_x, x, ft__nbytes(2, ft__z10, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 28, 0, 0); goto ft__end; }
        const int64_t ft__z11[] = {m};
        int32_t *ft__dev_p = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z11, sizeof(int32_t)));
        if (!ft__dev_p) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 29, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_p, p, ft__nbytes(1, ft__z11, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 30, 0, 0); goto ft__end; }
        const int64_t ft__z12[] = {n, m};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z12, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 31, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 32, 0, 0); goto ft__end; }
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, m, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__krowscatter_0), &ft__grid, &ft__block);
            const size_t ft__smem = ft__dsz(sizeof(float), ft__max<int64_t>(0, m));
            if (ft__smem > 48 * 1024)   /* past the default: opt in (or the launch fails) */
                cudaFuncSetAttribute(ft__krowscatter_0, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)ft__min<size_t>(ft__smem, 2147483647));
            ft__krowscatter_0<<<ft__grid, ft__block, ft__smem>>>(ft__derr, n, m, ft__dev_x, ft__dev_p, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 34);
        const int64_t ft__z17[] = {n, m};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z17, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 35, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_rowscatter(void *const *ft__args)
{
    return rowscatter(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const int32_t *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_rowscatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static void ft__lshapes_rowscatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static const char *const ft__shape_rowscatter_2[] = {"n", "m"};
static const char *const ft__shape_rowscatter_3[] = {"m"};
static const char *const ft__shape_rowscatter_4[] = {"n", "m"};
static const ft_param_desc ft__params_rowscatter[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_rowscatter_2, NULL, 2, ft__shape_rowscatter_2},
    {"p", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_rowscatter_3, NULL, 1, ft__shape_rowscatter_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_rowscatter_4, NULL, 2, ft__shape_rowscatter_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:39", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:39", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:56", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:9:56", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 5 */
    {FT_ERR_SIZE, "cuda_auto_bind.ft:9:21", "negative size: n = %0", {1, 0}},   /* 6 */
    {FT_ERR_SIZE, "cuda_auto_bind.ft:9:30", "negative size: m = %0", {1, 0}},   /* 7 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:9:39", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:9:56", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NODEVICE, "cuda_auto_bind.ft:9:13", "no usable CUDA device", {0, 0}},   /* 10 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:30", "CUDA runtime failure: cannot allocate the device copy of `adj`", {0, 0}},   /* 11 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:30", "CUDA runtime failure: cannot copy `adj` to the device", {0, 0}},   /* 12 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:49", "CUDA runtime failure: cannot allocate the device copy of `e`", {0, 0}},   /* 13 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:49", "CUDA runtime failure: cannot copy `e` to the device", {0, 0}},   /* 14 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:63", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 15 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 16 */
    {FT_ERR_INDEX, "cuda_auto_bind.ft:20:23", "index out of bounds: `adj[i, 0]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 17 */
    {FT_ERR_INDEX, "cuda_auto_bind.ft:20:23", "index out of bounds: `adj[i, 1]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 18 */
    {FT_ERR_INDEX, "cuda_auto_bind.ft:20:23", "index out of bounds: `adj[i, 2]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 19 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 20 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:17:63", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 21 */
    {FT_ERR_SIZE, "cuda_auto_bind.ft:17:21", "negative size: n = %0", {1, 0}},   /* 22 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:17:30", "null pointer: tensor parameter `adj` (i32[n, 3]) is NULL but has elements", {0, 0}},   /* 23 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:17:49", "null pointer: tensor parameter `e` (f32[n]) is NULL but has elements", {0, 0}},   /* 24 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:17:63", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 25 */
    {FT_ERR_NODEVICE, "cuda_auto_bind.ft:17:13", "no usable CUDA device", {0, 0}},   /* 26 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:42", "CUDA runtime failure: cannot allocate the device copy of `x`", {0, 0}},   /* 27 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:42", "CUDA runtime failure: cannot copy `x` to the device", {0, 0}},   /* 28 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:59", "CUDA runtime failure: cannot allocate the device copy of `p`", {0, 0}},   /* 29 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:59", "CUDA runtime failure: cannot copy `p` to the device", {0, 0}},   /* 30 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:73", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 31 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 32 */
    {FT_ERR_INDEX, "cuda_auto_bind.ft:28:15", "index out of bounds: `p[j]` = %0 is outside [0, %1) (dimension 0 of t)", {1, 1}},   /* 33 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 34 */
    {FT_ERR_NOMEM, "cuda_auto_bind.ft:22:73", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 35 */
    {FT_ERR_SIZE, "cuda_auto_bind.ft:22:24", "negative size: n = %0", {1, 0}},   /* 36 */
    {FT_ERR_SIZE, "cuda_auto_bind.ft:22:33", "negative size: m = %0", {1, 0}},   /* 37 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:22:42", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 38 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:22:59", "null pointer: tensor parameter `p` (i32[m]) is NULL but has elements", {0, 0}},   /* 39 */
    {FT_ERR_NULL, "cuda_auto_bind.ft:22:73", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 40 */
    {FT_ERR_NODEVICE, "cuda_auto_bind.ft:22:13", "no usable CUDA device", {0, 0}},   /* 41 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 42 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_auto_bind_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"rownorm", 4, ft__params_rownorm, ft__call_rownorm, ft__shapes_rownorm, ft__lshapes_rownorm},
    {"gather3", 4, ft__params_gather3, ft__call_gather3, ft__shapes_gather3, ft__lshapes_gather3},
    {"rowscatter", 5, ft__params_rowscatter, ft__call_rowscatter, ft__shapes_rowscatter, ft__lshapes_rowscatter},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 3, ft__funcs, 42, ft__sites, ft__last_error
};
