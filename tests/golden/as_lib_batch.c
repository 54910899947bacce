
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };
void cblas_sgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, float, const float *, int, const float *, int, float, float *, int);
void cblas_dgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, double, const double *, int, const double *, int, double, double *, int);

int f(const float *a, const float *b, float *c)
{
    int ft__err = FT_OK;
    /* L_matmul_batch: */
    {
        /* as_lib(L_matmul_batch): c = a @ b (BLAS) */
        const int64_t ft__e1 = 4;
        for (int64_t i = 0; i < ft__e1; i++) {
            {
                const int64_t ft__m2 = 8, ft__n2 = 8, ft__k2 = 16;
                if (ft__m2 > 0 && ft__n2 > 0)
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)ft__m2, (int)ft__n2, (int)(ft__k2 > 0 ? ft__k2 : 0), 1.0f, a, 16, &b[(i * 16 + 0) * 8 + 0], 8, 0.0f, &c[(i * 8 + 0) * 8 + 0], 8);
            }
        }
    }
    return ft__err;
}

static int ft__call_f(void *const *ft__args)
{
    return f((const float *)ft__args[0],
        (const float *)ft__args[1],
        (float *)ft__args[2]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes;
    ft__dims[0] = 8;
    ft__dims[1] = 16;
    ft__dims[2] = 4;
    ft__dims[3] = 16;
    ft__dims[4] = 8;
    ft__dims[5] = 4;
    ft__dims[6] = 8;
    ft__dims[7] = 8;
}

static const char *const ft__shape_f_0[] = {"8", "16"};
static const char *const ft__shape_f_1[] = {"4", "16", "8"};
static const char *const ft__shape_f_2[] = {"4", "8", "8"};
static const ft_param_desc ft__params_f[] = {
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_0},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_1},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 3, ft__shape_f_2},
};

static const ft_func_desc ft__funcs[] = {
    {"f", 3, ft__params_f, ft__call_f, ft__shapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
