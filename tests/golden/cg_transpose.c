int f(const float *w, float *y)
{
    if (!w) return ft__raise(FT_ERR_NULL, 1, 0, 0);
    if (!y) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Lb: */
    #pragma omp parallel
    {
        void *ft__h3 = NULL; size_t ft__h3_n = 0;
        #pragma omp for
        for (int64_t ob = 0; ob < 2; ob++) {
            {
                if (!ft__grow(&ft__h3, &ft__h3_n, ft__nbytes(4, (const int64_t[]){8, 3, 3, 17}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(4, (const int64_t[]){8, 3, 3, 17}, sizeof(float)), 0); goto ft__end2; }
                float *t = (float *)ft__h3;
                ft__transpose_f32(&t[((0 * 3 + 0) * 3 + 0) * 17 + 0], 17, &w[(((16 * ob) * 8 + 0) * 3 + 0) * 3 + 0], 72, 72, 16);
                for (int64_t c2 = 0; c2 < 8; c2++) {
                    for (int64_t kh2 = 0; kh2 < 3; kh2++) {
                        for (int64_t kw2 = 0; kw2 < 3; kw2++) {
                            for (int64_t oi2 = 0; oi2 < 16; oi2++) {
                                y[(((ob * 8 + c2) * 3 + kh2) * 3 + kw2) * 16 + oi2] = t[((c2 * 3 + kh2) * 3 + kw2) * 17 + oi2];
                            }
                        }
                    }
                }
            }
ft__end2:;
        }
        free(ft__h3);
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_f(void *const *ft__args)
{
    return f((const float *)ft__args[0],
        (float *)ft__args[1]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    ft__dims[0] = 32;
    ft__dims[1] = 8;
    ft__dims[2] = 3;
    ft__dims[3] = 3;
    ft__dims[4] = 2;
    ft__dims[5] = 8;
    ft__dims[6] = 3;
    ft__dims[7] = 3;
    ft__dims[8] = 16;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    ft__dims[0] = 32;
    ft__dims[1] = 8;
    ft__dims[2] = 3;
    ft__dims[3] = 3;
    ft__dims[4] = 2;
    ft__dims[5] = 8;
    ft__dims[6] = 3;
    ft__dims[7] = 3;
    ft__dims[8] = 16;
}

static const char *const ft__shape_f_0[] = {"32", "8", "3", "3"};
static const char *const ft__shape_f_1[] = {"2", "8", "3", "3", "16"};
static const ft_param_desc ft__params_f[] = {
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_0, NULL, 4, ft__shape_f_0},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 5, ft__shape_f_1, NULL, 5, ft__shape_f_1},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cg_transpose.ft:8:13", "out of memory: cannot allocate %0 bytes for local tensor `t`", {5, 0}},   /* 0 */
    {FT_ERR_NULL, "cg_transpose.ft:6:15", "null pointer: tensor parameter `w` (f32[32, 8, 3, 3]) is NULL but has elements", {0, 0}},   /* 1 */
    {FT_ERR_NULL, "cg_transpose.ft:6:39", "null pointer: tensor parameter `y` (f32[2, 8, 3, 3, 16]) is NULL but has elements", {0, 0}},   /* 2 */
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
int cg_transpose_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 2, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 3, ft__sites, ft__last_error
};
