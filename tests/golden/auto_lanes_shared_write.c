int f(int64_t n, int64_t m, float *y, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!s) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    int ft__err = FT_OK;
    for (int64_t i = 0; i < n; i++) {
        {
            float y_r = 0;
            y_r = 0.0f;
            for (int64_t j = 0; j < m; j++) {
                y_r += 0.25f;
            }
            if (m > 0) {
                y[i] += y_r;
            }
            *s = ft__max_f32(*s, 3.0f);
        }
    }
    return ft__err;
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
}

static const char *const ft__shape_f_2[] = {"n"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_f_2, NULL, 1, ft__shape_f_2},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 0, NULL, NULL, 0, NULL},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "auto_lanes_shared_write.ft:8:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "auto_lanes_shared_write.ft:8:24", "negative size: m = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "auto_lanes_shared_write.ft:8:33", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "auto_lanes_shared_write.ft:8:50", "null pointer: tensor parameter `s` (f32) is NULL but has elements", {0, 0}},   /* 3 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 4 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int auto_lanes_shared_write_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 4, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 4, ft__sites, ft__last_error
};
