int locals(int64_t n, int64_t s, const int32_t *x, int32_t *y, int32_t *m)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (s < 0) return ft__raise(FT_ERR_SIZE, 2, s, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!m) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h1 = NULL; size_t ft__h1_n = 0;
    {
        if (!ft__grow(&ft__h1, &ft__h1_n, ft__nbytes(1, (const int64_t[]){n}, sizeof(int32_t)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(1, (const int64_t[]){n}, sizeof(int32_t)), 0); goto ft__end0; }
        int32_t *big = (int32_t *)ft__h1;
        *m = 2147483647;
        for (int64_t i = n - 1; i > (-1); i += (-1)) {
            big[i] = ft__floordiv_i32(x[i], 3) + ft__mod_i32(x[i], 3);
        }
        {
            const int64_t ft__b3 = 0;
            const int64_t ft__s3 = s;
            const int64_t ft__n3 = ft__trip(ft__b3, n, ft__s3);
            for (int64_t ft__k3 = 0; ft__k3 < ft__n3; ft__k3++) {
                const int64_t i = (int64_t)((uint64_t)ft__b3 + (uint64_t)ft__k3 * (uint64_t)ft__s3);
                y[i] = big[i] + ((int32_t)ft__mod_i64(i, 4));
                *m = ft__min_i32(*m, y[i]);
            }
        }
    }
ft__end0:;
    free(ft__h1);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_locals(void *const *ft__args)
{
    return locals(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (int32_t *)ft__args[3],
        (int32_t *)ft__args[4]);
}

static void ft__shapes_locals(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t s = ft__sizes[1]; (void)s;
    ft__dims[0] = n;
    ft__dims[1] = n;
}

static void ft__lshapes_locals(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t s = ft__sizes[1]; (void)s;
    ft__dims[0] = n;
    ft__dims[1] = n;
}

static const char *const ft__shape_locals_2[] = {"n"};
static const char *const ft__shape_locals_3[] = {"n"};
static const ft_param_desc ft__params_locals[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"s", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_locals_2, NULL, 1, ft__shape_locals_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_OUT, 0, 1, ft__shape_locals_3, NULL, 1, ft__shape_locals_3},
    {"m", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_OUT, 0, 0, NULL, NULL, 0, NULL},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cg_locals_and_loops.ft:7:9", "out of memory: cannot allocate %0 bytes for local tensor `big`", {5, 0}},   /* 0 */
    {FT_ERR_SIZE, "cg_locals_and_loops.ft:5:20", "negative size: n = %0", {1, 0}},   /* 1 */
    {FT_ERR_SIZE, "cg_locals_and_loops.ft:5:29", "negative size: s = %0", {1, 0}},   /* 2 */
    {FT_ERR_NULL, "cg_locals_and_loops.ft:5:38", "null pointer: tensor parameter `x` (i32[n]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "cg_locals_and_loops.ft:5:52", "null pointer: tensor parameter `y` (i32[n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_locals_and_loops.ft:5:67", "null pointer: tensor parameter `m` (i32) is NULL but has elements", {0, 0}},   /* 5 */
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
int cg_locals_and_loops_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"locals", 5, ft__params_locals, ft__call_locals, ft__shapes_locals, ft__lshapes_locals},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 6, ft__sites, ft__last_error
};
