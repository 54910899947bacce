

int hist(int64_t n, int64_t nb, const float *x, const int32_t *bin, float *y, float *h, double *total)
{
    if (n < 0) return FT_ERR_SIZE;
    if (nb < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    *total = 0.0;
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            if (!(x[i] >= 0.0f)) { __atomic_store_n(&ft__err, FT_ERR_ASSERT, __ATOMIC_RELAXED); goto ft__end2; }
            y[i] = sqrtf(x[i]);
            if ((uint64_t)bin[i] >= (uint64_t)nb) { __atomic_store_n(&ft__err, FT_ERR_INDEX, __ATOMIC_RELAXED); goto ft__end2; }
            #pragma omp atomic
            h[(int64_t)bin[i]] += 1.0f;
            #pragma omp atomic
            *total += (double)x[i];
ft__end2:;
        }
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    return ft__err;
}

static int ft__call_hist(void *const *ft__args)
{
    return hist(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const int32_t *)ft__args[3],
        (float *)ft__args[4],
        (float *)ft__args[5],
        (double *)ft__args[6]);
}

static void ft__shapes_hist(const int64_t *ft__sizes, int64_t *ft__dims)
{
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t nb = ft__sizes[1];
    (void)nb;
    ft__dims[0] = n;
    ft__dims[1] = n;
    ft__dims[2] = n;
    ft__dims[3] = nb;
}

static const char *const ft__shape_hist_2[] = {"n"};
static const char *const ft__shape_hist_3[] = {"n"};
static const char *const ft__shape_hist_4[] = {"n"};
static const char *const ft__shape_hist_5[] = {"nb"};
static const ft_param_desc ft__params_hist[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"nb", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_hist_2},
    {"bin", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_hist_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_hist_4},
    {"h", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_hist_5},
    {"total", FT_PARAM_TENSOR, FT_ABI_F64, FT_ABI_OUT, 0, 0, NULL},
};

static const ft_func_desc ft__funcs[] = {
    {"hist", 7, ft__params_hist, ft__call_hist, ft__shapes_hist},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs
};
