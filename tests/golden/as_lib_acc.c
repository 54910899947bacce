
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };
void cblas_sgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, float, const float *, int, const float *, int, float, float *, int);
void cblas_dgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, double, const double *, int, const double *, int, double, double *, int);

int matmul(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    if (m < 0) return FT_ERR_SIZE;
    if (n < 0) return FT_ERR_SIZE;
    if (k < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    /* Li: */
    {
        /* as_lib(Li): c = a @ b (BLAS) */
        {
            const int64_t ft__m1 = m, ft__n1 = n, ft__k1 = k;
            if (ft__m1 > 0 && ft__n1 > 0)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)ft__m1, (int)ft__n1, (int)(ft__k1 > 0 ? ft__k1 : 0), 1.0f, a, (int)(k > 1 ? k : 1), b, (int)(n > 1 ? n : 1), 0.0f, c, (int)(n > 1 ? n : 1));
        }
    }
    return ft__err;
}

static int ft__call_matmul(void *const *ft__args)
{
    return matmul(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_matmul(const int64_t *ft__sizes, int64_t *ft__dims)
{
    const int64_t m = ft__sizes[0];
    (void)m;
    const int64_t n = ft__sizes[1];
    (void)n;
    const int64_t k = ft__sizes[2];
    (void)k;
    ft__dims[0] = m;
    ft__dims[1] = k;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = m;
    ft__dims[5] = n;
}

static const char *const ft__shape_matmul_3[] = {"m", "k"};
static const char *const ft__shape_matmul_4[] = {"k", "n"};
static const char *const ft__shape_matmul_5[] = {"m", "n"};
static const ft_param_desc ft__params_matmul[] = {
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_matmul_3},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_matmul_4},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_matmul_5},
};

static const ft_func_desc ft__funcs[] = {
    {"matmul", 6, ft__params_matmul, ft__call_matmul, ft__shapes_matmul},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
