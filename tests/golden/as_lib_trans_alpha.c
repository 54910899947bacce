
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };
void cblas_sgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, float, const float *, int, const float *, int, float, float *, int);
void cblas_dgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, double, const double *, int, const double *, int, double, double *, int);

int f(int64_t m, int64_t n, int64_t k, const float *s, const float *a, const float *b, float *c)
{
    if (m < 0) return FT_ERR_SIZE;
    if (n < 0) return FT_ERR_SIZE;
    if (k < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    for (int64_t i0 = 0; i0 < m; i0++) {
        for (int64_t j0_ftk = 0; j0_ftk < n; j0_ftk++) {
            c[i0 * n + j0_ftk] = 1.0f;
        }
    }
    /* Lp: */
    {
        /* as_lib(Lp): c += s[0] * a^T @ b^T (BLAS) */
        {
            const int64_t ft__m3 = m, ft__n3 = n, ft__k3 = k;
            if (ft__m3 > 0 && ft__n3 > 0)
                cblas_sgemm(CblasRowMajor, CblasTrans, CblasTrans, (int)ft__m3, (int)ft__n3, (int)(ft__k3 > 0 ? ft__k3 : 0), s[0], a, (int)(m > 1 ? m : 1), b, (int)(k > 1 ? k : 1), 1.0f, c, (int)(n > 1 ? n : 1));
        }
    }
    return ft__err;
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    const int64_t m = ft__sizes[0];
    (void)m;
    const int64_t n = ft__sizes[1];
    (void)n;
    const int64_t k = ft__sizes[2];
    (void)k;
    ft__dims[0] = 1;
    ft__dims[1] = k;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = k;
    ft__dims[5] = m;
    ft__dims[6] = n;
}

static const char *const ft__shape_f_3[] = {"1"};
static const char *const ft__shape_f_4[] = {"k", "m"};
static const char *const ft__shape_f_5[] = {"n", "k"};
static const char *const ft__shape_f_6[] = {"m", "n"};
static const ft_param_desc ft__params_f[] = {
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_3},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_4},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_5},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_6},
};

static const ft_func_desc ft__funcs[] = {
    {"f", 7, ft__params_f, ft__call_f, ft__shapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
