int matmul(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    if (m < 0) return ft__raise(FT_ERR_SIZE, 0, m, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (k < 0) return ft__raise(FT_ERR_SIZE, 2, k, 0);
    if (!a && m > 0 && k > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!b && k > 0 && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!c && m > 0 && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    int ft__err = FT_OK;
    /* Li: */
    {
        /* as_lib(Li): c = a @ b (BLAS) */
        (void)ft__gemm_f32(NULL, 0, 0, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
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
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = m;
    ft__dims[1] = k;
    ft__dims[2] = k;
    ft__dims[3] = n;
    ft__dims[4] = m;
    ft__dims[5] = n;
}

static void ft__lshapes_matmul(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
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
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_matmul_3, NULL, 2, ft__shape_matmul_3},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_matmul_4, NULL, 2, ft__shape_matmul_4},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_matmul_5, NULL, 2, ft__shape_matmul_5},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "as_lib_acc.ft:4:20", "negative size: m = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "as_lib_acc.ft:4:29", "negative size: n = %0", {1, 0}},   /* 1 */
    {FT_ERR_SIZE, "as_lib_acc.ft:4:38", "negative size: k = %0", {1, 0}},   /* 2 */
    {FT_ERR_NULL, "as_lib_acc.ft:4:47", "null pointer: tensor parameter `a` (f32[m, k]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "as_lib_acc.ft:4:64", "null pointer: tensor parameter `b` (f32[k, n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "as_lib_acc.ft:5:20", "null pointer: tensor parameter `c` (f32[m, n]) is NULL but has elements", {0, 0}},   /* 5 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 6 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int as_lib_acc_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"matmul", 6, ft__params_matmul, ft__call_matmul, ft__shapes_matmul, ft__lshapes_matmul},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 6, ft__sites, ft__last_error
};
