int hist(int64_t n, int64_t nb, const float *x, const int32_t *bin, float *y, float *h, double *total)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (nb < 0) return ft__raise(FT_ERR_SIZE, 3, nb, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!bin && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!h && nb > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!total) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    *total = 0.0;
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            if (!(x[i] >= 0.0f)) { ft__fail(&ft__err, &ft__er, FT_ERR_ASSERT, 0, ft__fbits((double)(x[i])), 0); goto ft__end2; }
            y[i] = sqrtf(x[i]);
            if ((uint64_t)bin[i] >= (uint64_t)nb) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)bin[i], nb); goto ft__end2; }
            #pragma omp atomic
            h[(int64_t)bin[i]] += 1.0f;
            #pragma omp atomic
            *total += (double)x[i];
ft__end2:;
        }
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    return ft__done(ft__err, &ft__er);
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
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nb = ft__sizes[1]; (void)nb;
    ft__dims[0] = n;
    ft__dims[1] = n;
    ft__dims[2] = n;
    ft__dims[3] = nb;
}

static void ft__lshapes_hist(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nb = ft__sizes[1]; (void)nb;
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
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nb", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_hist_2, NULL, 1, ft__shape_hist_2},
    {"bin", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_hist_3, NULL, 1, ft__shape_hist_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_hist_4, NULL, 1, ft__shape_hist_4},
    {"h", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_hist_5, NULL, 1, ft__shape_hist_5},
    {"total", FT_PARAM_TENSOR, FT_ABI_F64, FT_ABI_OUT, 0, 0, NULL, NULL, 0, NULL},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_ASSERT, "cg_parallel_atomic.ft:8:9", "assert `x[i] >= 0` failed: x[i] = %0", {2, 0}},   /* 0 */
    {FT_ERR_INDEX, "cg_parallel_atomic.ft:10:11", "index out of bounds: `bin[i]` = %0 is outside [0, %1) (dimension 0 of h)", {1, 1}},   /* 1 */
    {FT_ERR_SIZE, "cg_parallel_atomic.ft:4:18", "negative size: n = %0", {1, 0}},   /* 2 */
    {FT_ERR_SIZE, "cg_parallel_atomic.ft:4:27", "negative size: nb = %0", {1, 0}},   /* 3 */
    {FT_ERR_NULL, "cg_parallel_atomic.ft:4:37", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_parallel_atomic.ft:4:51", "null pointer: tensor parameter `bin` (i32[n]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "cg_parallel_atomic.ft:5:18", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "cg_parallel_atomic.ft:5:33", "null pointer: tensor parameter `h` (f32[nb]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "cg_parallel_atomic.ft:5:51", "null pointer: tensor parameter `total` (f64) is NULL but has elements", {0, 0}},   /* 8 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 9 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int cg_parallel_atomic_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"hist", 7, ft__params_hist, ft__call_hist, ft__shapes_hist, ft__lshapes_hist},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 9, ft__sites, ft__last_error
};
