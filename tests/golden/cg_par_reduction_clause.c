int f(int64_t steps, int64_t n, const float *x, const float *a, float *y)
{
    if (steps < 0) return ft__raise(FT_ERR_SIZE, 0, steps, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!a) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    int ft__err = FT_OK;
    /* L_i_1: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            y[i] = x[i];
        }
    }
    {
        float a_v = 0;
        /* a_v_load: */
        a_v = a[0];
        for (int64_t t = 0; t < steps; t++) {
            /* L_i: */
            #pragma omp parallel
            {
                #pragma omp for
                for (int64_t i = 0; i < n; i++) {
                    {
                        float t_1 = 0;
                        t_1 = y[i] + (a_v * sinf(y[i]));
                        y[i] = t_1;
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
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
}

static const char *const ft__shape_f_2[] = {"n"};
static const char *const ft__shape_f_3[] = {"1"};
static const char *const ft__shape_f_4[] = {"n"};
static const ft_param_desc ft__params_f[] = {
    {"steps", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_2, NULL, 1, ft__shape_f_2},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_3, NULL, 1, ft__shape_f_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_4, NULL, 1, ft__shape_f_4},
};

int f_grad_fwd(int64_t steps, int64_t n, const float *x, const float *a, float *y, void *tape__bytes)
{
    if (steps < 0) return ft__raise(FT_ERR_SIZE, 0, steps, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!a) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!tape__bytes && (steps * n) > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    float *tape = (float *)tape__bytes;
    float *tape_y = tape + (0);
    int ft__err = FT_OK;
    (void)tape;
    /* L_i_1: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            y[i] = x[i];
        }
    }
    {
        float a_v = 0;
        /* a_v_load: */
        a_v = a[0];
        for (int64_t t = 0; t < steps; t++) {
            /* L_i: */
            #pragma omp parallel
            {
                #pragma omp for
                for (int64_t i = 0; i < n; i++) {
                    {
                        float t_1 = 0;
                        {
                            float y_v = 0;
                            /* y_v_load: */
                            y_v = y[i];
                            t_1 = y_v + (a_v * sinf(y_v));
                            tape_y[t * n + i] = y_v;
                            y[i] = t_1;
                        }
                    }
                }
            }
        }
    }
    return ft__err;
}

static int ft__call_f_grad_fwd(void *const *ft__args)
{
    return f_grad_fwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_f_grad_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = steps * n;
}

static void ft__lshapes_f_grad_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = steps * n;
}

static const char *const ft__shape_f_grad_fwd_2[] = {"n"};
static const char *const ft__shape_f_grad_fwd_3[] = {"1"};
static const char *const ft__shape_f_grad_fwd_4[] = {"n"};
static const char *const ft__shape_f_grad_fwd_5[] = {"steps * n"};
static const ft_param_desc ft__params_f_grad_fwd[] = {
    {"steps", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_fwd_2, NULL, 1, ft__shape_f_grad_fwd_2},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_fwd_3, NULL, 1, ft__shape_f_grad_fwd_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_grad_fwd_4, NULL, 1, ft__shape_f_grad_fwd_4},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_grad_fwd_5, NULL, 1, ft__shape_f_grad_fwd_5},
};

int f_grad_bwd(int64_t steps, int64_t n, const float *x, const float *a, const float *y, const float *d_y, float *d_a, const void *tape__bytes)
{
    if (steps < 0) return ft__raise(FT_ERR_SIZE, 0, steps, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!a) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!d_y && n > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!d_a) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    if (!tape__bytes && (steps * n) > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    const float *tape = (const float *)tape__bytes;
    const float *tape_y = tape + (0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    (void)x;
    (void)tape;
    void *ft__h13 = NULL; size_t ft__h13_n = 0;
    void *ft__h16 = NULL; size_t ft__h16_n = 0;
    void *ft__h20 = NULL; size_t ft__h20_n = 0;
    {
        if (!ft__grow(&ft__h13, &ft__h13_n, ft__nbytes(1, (const int64_t[]){n}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, (int64_t)ft__nbytes(1, (const int64_t[]){n}, sizeof(float)), 0); goto ft__end12; }
        float *d_y_1 = (float *)ft__h13;
        #pragma omp parallel
        {
            #pragma omp for
            for (int64_t ad_i0_3 = 0; ad_i0_3 < n; ad_i0_3++) {
                d_y_1[ad_i0_3] = d_y[ad_i0_3];
            }
        }
        d_a[0] = 0.0f;
        {
            if (!ft__grow(&ft__h16, &ft__h16_n, ft__nbytes(1, (const int64_t[]){n}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, (int64_t)ft__nbytes(1, (const int64_t[]){n}, sizeof(float)), 0); goto ft__end12; }
            float *y_r = (float *)ft__h16;
            #pragma omp parallel
            {
                #pragma omp for
                for (int64_t ad_i0_2 = 0; ad_i0_2 < n; ad_i0_2++) {
                    y_r[ad_i0_2] = y[ad_i0_2];
                }
            }
            {
                float a_v = 0;
                /* a_v_load: */
                a_v = a[0];
                for (int64_t t = steps - 1; t > (-1); t += (-1)) {
                    {
                        float d_a_p = 0;
                        d_a_p = 0.0f;
                        {
                            if (!ft__grow(&ft__h20, &ft__h20_n, ft__nbytes(1, (const int64_t[]){n}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, (int64_t)ft__nbytes(1, (const int64_t[]){n}, sizeof(float)), 0); goto ft__end12; }
                            float *d_t_1 = (float *)ft__h20;
                            #pragma omp parallel
                            {
                                #pragma omp for
                                for (int64_t ad_i0 = 0; ad_i0 < n; ad_i0++) {
                                    {
                                        float ad_adj = 0;
                                        ad_adj = d_y_1[ad_i0];
                                        d_y_1[ad_i0] = 0.0f;
                                        y_r[ad_i0] = tape_y[t * n + ad_i0];
                                        d_t_1[ad_i0] = ad_adj;
                                    }
                                }
                            }
                            #pragma omp parallel
                            {
                                #pragma omp for reduction(+: d_a_p)
                                for (int64_t i = 0; i < n; i++) {
                                    {
                                        float d_y_1_p = 0;
                                        d_y_1_p = 0.0f;
                                        d_y_1_p += d_t_1[i];
                                        {
                                            float y_r_v = 0;
                                            /* y_r_v_load: */
                                            y_r_v = y_r[i];
                                            d_a_p += d_t_1[i] * sinf(y_r_v);
                                            d_y_1_p += (a_v * d_t_1[i]) * cosf(y_r_v);
                                            d_y_1[i] += d_y_1_p;
                                        }
                                    }
                                }
                            }
                            d_a[0] += d_a_p;
                        }
                    }
                }
            }
        }
    }
ft__end12:;
    free(ft__h13);
    free(ft__h16);
    free(ft__h20);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_f_grad_bwd(void *const *ft__args)
{
    return f_grad_bwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6],
        (const float *)ft__args[7]);
}

static void ft__shapes_f_grad_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = 1;
    ft__dims[5] = steps * n;
}

static void ft__lshapes_f_grad_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = 1;
    ft__dims[5] = steps * n;
}

static const char *const ft__shape_f_grad_bwd_2[] = {"n"};
static const char *const ft__shape_f_grad_bwd_3[] = {"1"};
static const char *const ft__shape_f_grad_bwd_4[] = {"n"};
static const char *const ft__shape_f_grad_bwd_5[] = {"n"};
static const char *const ft__shape_f_grad_bwd_6[] = {"1"};
static const char *const ft__shape_f_grad_bwd_7[] = {"steps * n"};
static const ft_param_desc ft__params_f_grad_bwd[] = {
    {"steps", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_bwd_2, NULL, 1, ft__shape_f_grad_bwd_2},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_bwd_3, NULL, 1, ft__shape_f_grad_bwd_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_bwd_4, NULL, 1, ft__shape_f_grad_bwd_4},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_bwd_5, NULL, 1, ft__shape_f_grad_bwd_5},
    {"d_a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_grad_bwd_6, NULL, 1, ft__shape_f_grad_bwd_6},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_bwd_7, NULL, 1, ft__shape_f_grad_bwd_7},
};

int f_grad(int64_t steps, int64_t n, const float *x, const float *a, float *y, const float *d_y, float *d_a)
{
    if (steps < 0) return ft__raise(FT_ERR_SIZE, 0, steps, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    /* f_grad_fwd then f_grad_bwd, through a tape on the heap */
    const size_t ft__tb = ft__nbytes(1, (const int64_t[]){steps * n}, 4);
    void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;
    if (ft__tb && !ft__tape) return ft__raise(FT_ERR_NOMEM, 11, (int64_t)ft__tb, 0);
    int ft__err = f_grad_fwd(steps, n, x, a, y, ft__tape);
    if (ft__err == FT_OK)
        ft__err = f_grad_bwd(steps, n, x, a, y, d_y, d_a, ft__tape);
    free(ft__tape);
    return ft__err;
}

static int ft__call_f_grad(void *const *ft__args)
{
    return f_grad(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const float *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6]);
}

static void ft__shapes_f_grad(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = 1;
}

static void ft__lshapes_f_grad(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t steps = ft__sizes[0]; (void)steps;
    const int64_t n = ft__sizes[1]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 1;
    ft__dims[2] = n;
    ft__dims[3] = n;
    ft__dims[4] = 1;
}

static const char *const ft__shape_f_grad_2[] = {"n"};
static const char *const ft__shape_f_grad_3[] = {"1"};
static const char *const ft__shape_f_grad_4[] = {"n"};
static const char *const ft__shape_f_grad_5[] = {"n"};
static const char *const ft__shape_f_grad_6[] = {"1"};
static const ft_param_desc ft__params_f_grad[] = {
    {"steps", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_2, NULL, 1, ft__shape_f_grad_2},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_3, NULL, 1, ft__shape_f_grad_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_grad_4, NULL, 1, ft__shape_f_grad_4},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_grad_5, NULL, 1, ft__shape_f_grad_5},
    {"d_a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_grad_6, NULL, 1, ft__shape_f_grad_6},
};

size_t f_grad_tape_bytes(int64_t steps, int64_t n)
{
    if (steps < 0) return 0;
    if (n < 0) return 0;
    return (size_t)((steps * n) * 4);
}

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "cg_par_reduction_clause.ft:5:15", "negative size: steps = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "cg_par_reduction_clause.ft:5:28", "negative size: n = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:37", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:51", "null pointer: tensor parameter `a` (f32[1]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:65", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:13", "null pointer: tensor parameter `tape` (f32[steps * n]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cg_par_reduction_clause.ft:5:13", "out of memory: cannot allocate %0 bytes for local tensor `d_y_1`", {5, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cg_par_reduction_clause.ft:5:13", "out of memory: cannot allocate %0 bytes for local tensor `y_r`", {5, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cg_par_reduction_clause.ft:8:15", "out of memory: cannot allocate %0 bytes for local tensor `d_t_1`", {5, 0}},   /* 8 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:65", "null pointer: tensor parameter `d_y` (f32[n]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NULL, "cg_par_reduction_clause.ft:5:51", "null pointer: tensor parameter `d_a` (f32[1]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_NOMEM, "cg_par_reduction_clause.ft:5:13", "out of memory: cannot allocate %0 bytes for the tape of f_grad", {5, 0}},   /* 11 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 12 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int cg_par_reduction_clause_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 5, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
    {"f_grad_fwd", 6, ft__params_f_grad_fwd, ft__call_f_grad_fwd, ft__shapes_f_grad_fwd, ft__lshapes_f_grad_fwd},
    {"f_grad_bwd", 8, ft__params_f_grad_bwd, ft__call_f_grad_bwd, ft__shapes_f_grad_bwd, ft__lshapes_f_grad_bwd},
    {"f_grad", 7, ft__params_f_grad, ft__call_f_grad, ft__shapes_f_grad, ft__lshapes_f_grad},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs, 12, ft__sites, ft__last_error
};
