int f(int64_t n, int64_t m, const float *x, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    int ft__err = FT_OK;
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            /* Lj: */
            {
                const int64_t ft__n4 = m > 0 ? m : 0;
                const int64_t ft__m4 = ft__n4 & ~(int64_t)7;
                for (int64_t ft__j4 = 0; ft__j4 < ft__m4; ft__j4 += 8) {
                    #pragma omp simd
                    for (int64_t ft__l4 = 0; ft__l4 < 8; ft__l4++) {
                        const int64_t j = ft__j4 + ft__l4;
                        y[i * m + j] = x[i * m + j] * 3.0f;
                    }
                }
                if (ft__n4 & 7) {
                    #pragma omp simd
                    for (int64_t ft__l4 = 0; ft__l4 < 8; ft__l4++) {
                        const int64_t j = ft__m4 + ft__l4;
                        if (j < m) {
                            y[i * m + j] = x[i * m + j] * 3.0f;
                        }
                    }
                }
            }
        }
    }
    return ft__err;
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = m;
}

static const char *const ft__shape_f_2[] = {"n", "m"};
static const char *const ft__shape_f_3[] = {"n", "m"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_2, NULL, 2, ft__shape_f_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_3, NULL, 2, ft__shape_f_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "sched_vectorize_emit_c.ft:3:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "sched_vectorize_emit_c.ft:3:24", "negative size: m = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "sched_vectorize_emit_c.ft:3:33", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "sched_vectorize_emit_c.ft:3:50", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 3 */
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
int sched_vectorize_emit_c_last_error(char *buf, size_t size)
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
