int f(int64_t n, int64_t m, const int32_t *idx, const float *a, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 3, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 4, m, 0);
    if (!idx && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!a && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!y && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Li: */
    for (int64_t i = 0; i < n; i++) {
        /* Lj: */
        const int32_t ft__ix3 = 0 < m ? idx[i] : 0;
        if (0 < m) {
            if ((uint64_t)ft__ix3 >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 0, (int64_t)ft__ix3, n); goto ft__end0; }
        }
        {
            const int64_t ft__n4 = m > 0 ? m : 0;
            const int64_t ft__m4 = ft__n4 & ~(int64_t)7;
            for (int64_t ft__j4 = 0; ft__j4 < ft__m4; ft__j4 += 8) {
                #pragma omp simd
                for (int64_t ft__l4 = 0; ft__l4 < 8; ft__l4++) {
                    const int64_t j = ft__j4 + ft__l4;
                    y[i * m + j] = (2.0f * a[(int64_t)ft__ix3 * m + j]) + a[(int64_t)ft__ix3 * m + 0];
                }
            }
            if (ft__n4 & 7) {
                #pragma omp simd
                for (int64_t ft__l4 = 0; ft__l4 < 8; ft__l4++) {
                    const int64_t j = ft__m4 + ft__l4;
                    if (j < m) {
                        y[i * m + j] = (2.0f * a[(int64_t)ft__ix3 * m + j]) + a[(int64_t)ft__ix3 * m + 0];
                    }
                }
            }
        }
        {
            int64_t p = 0;
            p = i + idx[0];
            if ((p >= 0) && (p < n)) {
                /* Lk: */
                {
                    const int64_t ft__n6 = m > 0 ? m : 0;
                    const int64_t ft__m6 = ft__n6 & ~(int64_t)7;
                    for (int64_t ft__j6 = 0; ft__j6 < ft__m6; ft__j6 += 8) {
                        #pragma omp simd
                        for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                            const int64_t k = ft__j6 + ft__l6;
                            y[i * m + k] += a[p * m + k];
                        }
                    }
                    if (ft__n6 & 7) {
                        #pragma omp simd
                        for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                            const int64_t k = ft__m6 + ft__l6;
                            if (k < m) {
                                y[i * m + k] += a[p * m + k];
                            }
                        }
                    }
                }
            }
            /* Lg: */
            for (int64_t g = 0; g < m; g++) {
                if ((a[i * m + g] > 0.0f) && (uint64_t)idx[ft__mod_i64(g, n)] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)idx[ft__mod_i64(g, n)], n); goto ft__end0; }
                y[i * m + g] += (a[i * m + g] > 0.0f) ? a[(int64_t)idx[ft__mod_i64(g, n)] * m + g] : 0.0f;
            }
            /* Lr: */
            for (int64_t r = 0; r < m; r++) {
                if ((uint64_t)idx[ft__mod_i64(r, n)] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 2, (int64_t)idx[ft__mod_i64(r, n)], n); goto ft__end0; }
                y[i * m + r] += a[(int64_t)idx[ft__mod_i64(r, n)] * m + r] * a[(int64_t)idx[ft__mod_i64(r, n)] * m + 0];
            }
        }
    }
ft__end0:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = n;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = n;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = m;
}

static const char *const ft__shape_f_2[] = {"n"};
static const char *const ft__shape_f_3[] = {"n", "m"};
static const char *const ft__shape_f_4[] = {"n", "m"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_f_2, NULL, 1, ft__shape_f_2},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_3, NULL, 2, ft__shape_f_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_4, NULL, 2, ft__shape_f_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_INDEX, "cg_index_checks_hoisted.ft:12:29", "index out of bounds: `idx[i]` = %0 is outside [0, %1) (dimension 0 of a)", {1, 1}},   /* 0 */
    {FT_ERR_INDEX, "cg_index_checks_hoisted.ft:18:26", "index out of bounds: `idx[g %% n]` = %0 is outside [0, %1) (dimension 0 of a)", {1, 1}},   /* 1 */
    {FT_ERR_INDEX, "cg_index_checks_hoisted.ft:20:26", "index out of bounds: `idx[r %% n]` = %0 is outside [0, %1) (dimension 0 of a)", {1, 1}},   /* 2 */
    {FT_ERR_SIZE, "cg_index_checks_hoisted.ft:9:15", "negative size: n = %0", {1, 0}},   /* 3 */
    {FT_ERR_SIZE, "cg_index_checks_hoisted.ft:9:24", "negative size: m = %0", {1, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_index_checks_hoisted.ft:9:33", "null pointer: tensor parameter `idx` (i32[n]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "cg_index_checks_hoisted.ft:9:49", "null pointer: tensor parameter `a` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "cg_index_checks_hoisted.ft:9:66", "null pointer: tensor parameter `y` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 7 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 8 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int cg_index_checks_hoisted_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 5, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 8, ft__sites, ft__last_error
};
