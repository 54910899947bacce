int f(const float *a, const float *b, float *c)
{
    if (!a) return ft__raise(FT_ERR_NULL, 0, 0, 0);
    if (!b) return ft__raise(FT_ERR_NULL, 1, 0, 0);
    if (!c) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    int ft__err = FT_OK;
    /* L_matmul_batch: */
    {
        /* as_lib(L_matmul_batch): c = a @ b (BLAS) */
        const int64_t ft__e1 = 4;
        for (int64_t i = 0; i < ft__e1; i++) {
            (void)ft__gemm_f32(NULL, 0, 0, 8, 8, 16, 1.0f, a, 16, &b[(i * 16 + 0) * 8 + 0], 8, 0.0f, &c[(i * 8 + 0) * 8 + 0], 8);
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
    (void)ft__sizes; (void)ft__dims;
    ft__dims[0] = 8;
    ft__dims[1] = 16;
    ft__dims[2] = 4;
    ft__dims[3] = 16;
    ft__dims[4] = 8;
    ft__dims[5] = 4;
    ft__dims[6] = 8;
    ft__dims[7] = 8;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
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
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_0, NULL, 2, ft__shape_f_0},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_1, NULL, 3, ft__shape_f_1},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 3, ft__shape_f_2, NULL, 3, ft__shape_f_2},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NULL, "as_lib_batch.ft:4:15", "null pointer: tensor parameter `a` (f32[8, 16]) is NULL but has elements", {0, 0}},   /* 0 */
    {FT_ERR_NULL, "as_lib_batch.ft:4:33", "null pointer: tensor parameter `b` (f32[4, 16, 8]) is NULL but has elements", {0, 0}},   /* 1 */
    {FT_ERR_NULL, "as_lib_batch.ft:4:54", "null pointer: tensor parameter `c` (f32[4, 8, 8]) is NULL but has elements", {0, 0}},   /* 2 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 3 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int as_lib_batch_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 3, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 3, ft__sites, ft__last_error
};
