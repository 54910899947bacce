

int csr_scatter(int64_t n, int64_t nnz, int64_t f, const int32_t *ptr, const int32_t *idx, const float *w, const float *g, float *own, float *d, float *e)
{
    if (n < 0) return FT_ERR_SIZE;
    if (nnz < 0) return FT_ERR_SIZE;
    if (f < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            own[i] = 0.0f;
            {
                const int64_t ft__e3 = ptr[i + 1];
                for (int64_t k = ptr[i]; k < ft__e3; k++) {
                    own[i] += w[k];
                    /* L_j: */
                    if (0 < f) {
                        if ((uint64_t)idx[k] >= (uint64_t)n) { __atomic_store_n(&ft__err, FT_ERR_INDEX, __ATOMIC_RELAXED); goto ft__end2; }
                    }
                    /* vectorize: no `omp simd`, the body has atomic updates */
                    for (int64_t j = 0; j < f; j++) {
                        #pragma omp atomic
                        d[(int64_t)idx[k] * f + j] += w[k] * g[i * f + j];
                    }
                }
            }
ft__end2:;
        }
    }
    if (ft__err) goto ft__end0;
    /* Lj: */
    for (int64_t j = 0; j < f; j++) {
        /* L_k: */
        #pragma omp parallel
        {
            #pragma omp for
            for (int64_t k = 0; k < nnz; k++) {
                if ((uint64_t)idx[k] >= (uint64_t)n) { __atomic_store_n(&ft__err, FT_ERR_INDEX, __ATOMIC_RELAXED); goto ft__end7; }
                #pragma omp atomic
                e[(int64_t)idx[k]] += w[k] * g[0 * f + j];
ft__end7:;
            }
        }
        if (ft__err) goto ft__end0;
    }
ft__end0:;
    return ft__err;
}

static int ft__call_csr_scatter(void *const *ft__args)
{
    return csr_scatter(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const int32_t *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (float *)ft__args[7],
        (float *)ft__args[8],
        (float *)ft__args[9]);
}

static void ft__shapes_csr_scatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t nnz = ft__sizes[1];
    (void)nnz;
    const int64_t f = ft__sizes[2];
    (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = n;
    ft__dims[4] = f;
    ft__dims[5] = n;
    ft__dims[6] = n;
    ft__dims[7] = f;
    ft__dims[8] = n;
}

static const char *const ft__shape_csr_scatter_3[] = {"n + 1"};
static const char *const ft__shape_csr_scatter_4[] = {"nnz"};
static const char *const ft__shape_csr_scatter_5[] = {"nnz"};
static const char *const ft__shape_csr_scatter_6[] = {"n", "f"};
static const char *const ft__shape_csr_scatter_7[] = {"n"};
static const char *const ft__shape_csr_scatter_8[] = {"n", "f"};
static const char *const ft__shape_csr_scatter_9[] = {"n"};
static const ft_param_desc ft__params_csr_scatter[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"f", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"ptr", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_3},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_4},
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_5},
    {"g", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_csr_scatter_6},
    {"own", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_csr_scatter_7},
    {"d", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 2, ft__shape_csr_scatter_8},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_csr_scatter_9},
};

static const ft_func_desc ft__funcs[] = {
    {"csr_scatter", 10, ft__params_csr_scatter, ft__call_csr_scatter, ft__shapes_csr_scatter},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
