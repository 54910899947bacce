int f(int64_t m, int64_t n, int64_t k, const float *s, const float *a, const float *b, float *c)
{
    if (m < 0) return ft__raise(FT_ERR_SIZE, 0, m, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (k < 0) return ft__raise(FT_ERR_SIZE, 2, k, 0);
    if (!s) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!a && k > 0 && m > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!b && n > 0 && k > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!c && m > 0 && n > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    int ft__err = FT_OK;
    for (int64_t i0 = 0; i0 < m; i0++) {
        for (int64_t j0_ftk = 0; j0_ftk < n; j0_ftk++) {
            c[i0 * n + j0_ftk] = 1.0f;
        }
    }
    /* Lp: */
    {
        /* as_lib(Lp): c += s[0] * a^T @ b^T (BLAS) */
        (void)ft__gemm_f32(NULL, 1, 1, m, n, k, s[0], a, m, b, k, 1.0f, c, n);
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
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = 1;
    ft__dims[1] = k;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = k;
    ft__dims[5] = m;
    ft__dims[6] = n;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
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
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_3, NULL, 1, ft__shape_f_3},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_4, NULL, 2, ft__shape_f_4},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_5, NULL, 2, ft__shape_f_5},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_6, NULL, 2, ft__shape_f_6},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "as_lib_trans_alpha.ft:5:15", "negative size: m = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "as_lib_trans_alpha.ft:5:24", "negative size: n = %0", {1, 0}},   /* 1 */
    {FT_ERR_SIZE, "as_lib_trans_alpha.ft:5:33", "negative size: k = %0", {1, 0}},   /* 2 */
    {FT_ERR_NULL, "as_lib_trans_alpha.ft:5:42", "null pointer: tensor parameter `s` (f32[1]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "as_lib_trans_alpha.ft:5:56", "null pointer: tensor parameter `a` (f32[k, m]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "as_lib_trans_alpha.ft:6:15", "null pointer: tensor parameter `b` (f32[n, k]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "as_lib_trans_alpha.ft:6:32", "null pointer: tensor parameter `c` (f32[m, n]) is NULL but has elements", {0, 0}},   /* 6 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 7 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int as_lib_trans_alpha_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 7, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 7, ft__sites, ft__last_error
};
