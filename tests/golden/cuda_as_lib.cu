
#include <cublas_v2.h>

static cublasHandle_t ft__cublas(void)
{
    static cublasHandle_t h = [] {
        cublasHandle_t x = NULL;
        return cublasCreate(&x) == CUBLAS_STATUS_SUCCESS ? x : NULL;
    }();
    return h;
}

extern "C" __attribute__((visibility("default"))) int f(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    if (m < 0) return FT_ERR_SIZE;
    if (n < 0) return FT_ERR_SIZE;
    if (k < 0) return FT_ERR_SIZE;
    if (!ft__have_device()) return FT_ERR_NODEVICE;
    int ft__err = FT_OK;
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {4, m, k};
        float *ft__dev_a = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z0, sizeof(float)));
        if (!ft__dev_a) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        if (cudaMemcpy(ft__dev_a, a, ft__nbytes(3, ft__z0, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        const int64_t ft__z1[] = {4, n, k};
        float *ft__dev_b = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z1, sizeof(float)));
        if (!ft__dev_b) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        if (cudaMemcpy(ft__dev_b, b, ft__nbytes(3, ft__z1, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        const int64_t ft__z2[] = {4, m, n};
        float *ft__dev_c = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z2, sizeof(float)));
        if (!ft__dev_c) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__err = FT_ERR_NOMEM; goto ft__end; }
        /* Lb: */
        /* as_lib(Lb): c = a @ b^T (cuBLAS) */
        {
            const int64_t ft__e3 = 4;
            for (int64_t q = 0; q < ft__e3; q++) {
                {
                    const int64_t ft__m4 = m, ft__n4 = n, ft__k4 = k;
                    const float ft__alpha4 = 1, ft__beta4 = 0;
                    cublasHandle_t ft__h4 = ft__cublas();
                    if (!ft__h4) { ft__err = FT_ERR_NOMEM; goto ft__end; }
                    if (ft__m4 > 0 && ft__n4 > 0 && cublasSgemm(ft__h4, CUBLAS_OP_T, CUBLAS_OP_N, (int)ft__n4, (int)ft__m4, (int)(ft__k4 > 0 ? ft__k4 : 0), &ft__alpha4, (ft__dev_b + ((int64_t)q * n + (int64_t)0) * k + (int64_t)0), (int)(k > 1 ? k : 1), (ft__dev_a + ((int64_t)q * m + (int64_t)0) * k + (int64_t)0), (int)(k > 1 ? k : 1), &ft__beta4, (ft__dev_c + ((int64_t)q * m + (int64_t)0) * n + (int64_t)0), (int)(n > 1 ? n : 1)) != CUBLAS_STATUS_SUCCESS) { ft__err = FT_ERR_NOMEM; goto ft__end; }
                }
            }
        }
        ft__err = ft__err_fetch(ft__derr);
        const int64_t ft__z5[] = {4, m, n};
        if (!ft__err && cudaMemcpy(c, ft__dev_c, ft__nbytes(3, ft__z5, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__err = FT_ERR_NOMEM;
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__err;
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = 4;
    ft__dims[1] = m;
    ft__dims[2] = k;
    ft__dims[3] = 4;
    ft__dims[4] = n;
    ft__dims[5] = k;
    ft__dims[6] = 4;
    ft__dims[7] = m;
    ft__dims[8] = n;
}

static const char *const ft__shape_f_3[] = {"4", "m", "k"};
static const char *const ft__shape_f_4[] = {"4", "n", "k"};
static const char *const ft__shape_f_5[] = {"4", "m", "n"};
static const ft_param_desc ft__params_f[] = {
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_3},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_4},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 3, ft__shape_f_5},
};

static const ft_func_desc ft__funcs[] = {
    {"f", 6, ft__params_f, ft__call_f, ft__shapes_f},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
