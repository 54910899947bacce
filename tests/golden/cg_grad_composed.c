int f(int64_t n, int64_t m, const float *x, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    int ft__err = FT_OK;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                float s = 0;
                s = 1.0f;
                for (int64_t j = 0; j < m; j++) {
                    s = (s * x[i * m + j]) + 1.0f;
                }
                y[i] = s;
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
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
}

static const char *const ft__shape_f_2[] = {"n", "m"};
static const char *const ft__shape_f_3[] = {"n"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_2, NULL, 2, ft__shape_f_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_3, NULL, 1, ft__shape_f_3},
};

int f_g_fwd(int64_t n, int64_t m, const float *x, float *y, void *tape__bytes)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!tape__bytes && ((n * m) + n) > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    float *tape = (float *)tape__bytes;
    float *tape_s = tape + (0);
    float *tape_s_1 = tape + (n * m);
    int ft__err = FT_OK;
    (void)tape;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                float s = 0;
                s = 1.0f;
                for (int64_t j = 0; j < m; j++) {
                    tape_s[i * m + j] = s;
                    s = (s * x[i * m + j]) + 1.0f;
                }
                y[i] = s;
                tape_s_1[i] = s;
            }
        }
    }
    return ft__err;
}

static int ft__call_f_g_fwd(void *const *ft__args)
{
    return f_g_fwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_f_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = (n * m) + n;
}

static void ft__lshapes_f_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = (n * m) + n;
}

static const char *const ft__shape_f_g_fwd_2[] = {"n", "m"};
static const char *const ft__shape_f_g_fwd_3[] = {"n"};
static const char *const ft__shape_f_g_fwd_4[] = {"n * m + n"};
static const ft_param_desc ft__params_f_g_fwd[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_g_fwd_2, NULL, 2, ft__shape_f_g_fwd_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_g_fwd_3, NULL, 1, ft__shape_f_g_fwd_3},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_g_fwd_4, NULL, 1, ft__shape_f_g_fwd_4},
};

int f_g_bwd(int64_t n, int64_t m, const float *x, const float *y, const float *d_y, float *d_x, const void *tape__bytes)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!d_y && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!d_x && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!tape__bytes && ((n * m) + n) > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    const float *tape = (const float *)tape__bytes;
    const float *tape_s = tape + (0);
    const float *tape_s_1 = tape + (n * m);
    int ft__err = FT_OK;
    (void)y;
    (void)tape;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0 = 0; ad_i0 < n; ad_i0++) {
            {
                float s = 0;
                s = tape_s_1[ad_i0];
                {
                    float d_s = 0;
                    d_s = 0.0f;
                    d_s += d_y[ad_i0];
                    for (int64_t j = m - 1; j > (-1); j += (-1)) {
                        {
                            float ad_adj_1 = 0;
                            ad_adj_1 = d_s;
                            d_s = 0.0f;
                            s = tape_s[ad_i0 * m + j];
                            d_s += ad_adj_1 * x[ad_i0 * m + j];
                            d_x[ad_i0 * m + j] = s * ad_adj_1;
                        }
                    }
                }
            }
        }
    }
    return ft__err;
}

static int ft__call_f_g_bwd(void *const *ft__args)
{
    return f_g_bwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5],
        (const float *)ft__args[6]);
}

static void ft__shapes_f_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = m;
    ft__dims[6] = (n * m) + n;
}

static void ft__lshapes_f_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = m;
    ft__dims[6] = (n * m) + n;
}

static const char *const ft__shape_f_g_bwd_2[] = {"n", "m"};
static const char *const ft__shape_f_g_bwd_3[] = {"n"};
static const char *const ft__shape_f_g_bwd_4[] = {"n"};
static const char *const ft__shape_f_g_bwd_5[] = {"n", "m"};
static const char *const ft__shape_f_g_bwd_6[] = {"n * m + n"};
static const ft_param_desc ft__params_f_g_bwd[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_g_bwd_2, NULL, 2, ft__shape_f_g_bwd_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_g_bwd_3, NULL, 1, ft__shape_f_g_bwd_3},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_g_bwd_4, NULL, 1, ft__shape_f_g_bwd_4},
    {"d_x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_g_bwd_5, NULL, 2, ft__shape_f_g_bwd_5},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_g_bwd_6, NULL, 1, ft__shape_f_g_bwd_6},
};

int f_g(int64_t n, int64_t m, const float *x, float *y, const float *d_y, float *d_x)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    /* f_g_fwd then f_g_bwd, through a tape on the heap */
    const size_t ft__tb = ft__nbytes(1, (const int64_t[]){(n * m) + n}, 4);
    void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;
    if (ft__tb && !ft__tape) return ft__raise(FT_ERR_NOMEM, 7, (int64_t)ft__tb, 0);
    int ft__err = f_g_fwd(n, m, x, y, ft__tape);
    if (ft__err == FT_OK)
        ft__err = f_g_bwd(n, m, x, y, d_y, d_x, ft__tape);
    free(ft__tape);
    return ft__err;
}

static int ft__call_f_g(void *const *ft__args)
{
    return f_g(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_f_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = m;
}

static void ft__lshapes_f_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = m;
}

static const char *const ft__shape_f_g_2[] = {"n", "m"};
static const char *const ft__shape_f_g_3[] = {"n"};
static const char *const ft__shape_f_g_4[] = {"n"};
static const char *const ft__shape_f_g_5[] = {"n", "m"};
static const ft_param_desc ft__params_f_g[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_g_2, NULL, 2, ft__shape_f_g_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_g_3, NULL, 1, ft__shape_f_g_3},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_g_4, NULL, 1, ft__shape_f_g_4},
    {"d_x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_g_5, NULL, 2, ft__shape_f_g_5},
};

size_t f_g_tape_bytes(int64_t n, int64_t m)
{
    if (n < 0) return 0;
    if (m < 0) return 0;
    return (size_t)(((n * m) + n) * 4);
}

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "cg_grad_composed.ft:6:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "cg_grad_composed.ft:6:24", "negative size: m = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "cg_grad_composed.ft:6:33", "null pointer: tensor parameter `x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "cg_grad_composed.ft:6:50", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "cg_grad_composed.ft:6:13", "null pointer: tensor parameter `tape` (f32[n * m + n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_grad_composed.ft:6:50", "null pointer: tensor parameter `d_y` (f32[n]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "cg_grad_composed.ft:6:33", "null pointer: tensor parameter `d_x` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cg_grad_composed.ft:6:13", "out of memory: cannot allocate %0 bytes for the tape of f_g", {5, 0}},   /* 7 */
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
int cg_grad_composed_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 4, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
    {"f_g_fwd", 5, ft__params_f_g_fwd, ft__call_f_g_fwd, ft__shapes_f_g_fwd, ft__lshapes_f_g_fwd},
    {"f_g_bwd", 7, ft__params_f_g_bwd, ft__call_f_g_bwd, ft__shapes_f_g_bwd, ft__lshapes_f_g_bwd},
    {"f_g", 6, ft__params_f_g, ft__call_f_g, ft__shapes_f_g, ft__lshapes_f_g},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs, 8, ft__sites, ft__last_error
};
