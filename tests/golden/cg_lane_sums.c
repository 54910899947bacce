int f(int64_t n, int64_t m, const float *a, const double *v, float *y, double *z, float *h, float *c, float *g)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 1, m, 0);
    if (!a && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!v && m > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!z && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!h && n > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!c && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!g && n > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    int ft__err = FT_OK;
    /* Li: */
    for (int64_t i = 0; i < n; i++) {
        {
            float s = 0;
            s = 0.0f;
            /* Lj: */
            {
                const int64_t ft__n3 = m > 0 ? m : 0;
                const int64_t ft__m3 = ft__n3 & ~(int64_t)15;
                float ft__v3_0_0[8] = {0};
                float ft__v3_0_1[8] = {0};
                for (int64_t ft__j3 = 0; ft__j3 < ft__m3; ft__j3 += 16) {
                    #pragma omp simd
                    for (int64_t ft__l3 = 0; ft__l3 < 8; ft__l3++) {
                        const int64_t j = ft__j3 + ft__l3;
                        ft__v3_0_0[ft__l3] += a[i * m + j] * 2.0f;
                    }
                    #pragma omp simd
                    for (int64_t ft__l3 = 0; ft__l3 < 8; ft__l3++) {
                        const int64_t j = ft__j3 + 8 + ft__l3;
                        ft__v3_0_1[ft__l3] += a[i * m + j] * 2.0f;
                    }
                }
                if (ft__n3 & 15) {
                    #pragma omp simd
                    for (int64_t ft__l3 = 0; ft__l3 < 8; ft__l3++) {
                        const int64_t j = ft__m3 + ft__l3;
                        ft__v3_0_0[ft__l3] += j < m ? (a[i * m + j] * 2.0f) : 0;
                    }
                    #pragma omp simd
                    for (int64_t ft__l3 = 0; ft__l3 < 8; ft__l3++) {
                        const int64_t j = ft__m3 + 8 + ft__l3;
                        ft__v3_0_1[ft__l3] += j < m ? (a[i * m + j] * 2.0f) : 0;
                    }
                }
                #pragma omp simd
                for (int ft__l3 = 0; ft__l3 < 8; ft__l3++)
                    ft__v3_0_0[ft__l3] += ft__v3_0_1[ft__l3];
                #pragma omp simd
                for (int ft__l3 = 0; ft__l3 < 4; ft__l3++)
                    ft__v3_0_0[ft__l3] += ft__v3_0_0[ft__l3 + 4];
                s += (ft__v3_0_0[0] + ft__v3_0_0[2]) + (ft__v3_0_0[1] + ft__v3_0_0[3]);
            }
            y[i] = s;
            {
                float t = 0;
                t = 0.0f;
                {
                    double u = 0;
                    u = 0.0;
                    /* Lq: */
                    {
                        const int64_t ft__n5 = m > 1 ? m - 1 : 0;
                        const int64_t ft__m5 = 1 + (ft__n5 & ~(int64_t)7);
                        float ft__v5_0_0[4] = {0};
                        float ft__v5_0_1[4] = {0};
                        double ft__v5_1_0[4] = {0};
                        double ft__v5_1_1[4] = {0};
                        for (int64_t ft__j5 = 1; ft__j5 < ft__m5; ft__j5 += 8) {
                            #pragma omp simd
                            for (int64_t ft__l5 = 0; ft__l5 < 4; ft__l5++) {
                                const int64_t q = ft__j5 + ft__l5;
                                ft__v5_0_0[ft__l5] += a[i * m + q];
                                ft__v5_1_0[ft__l5] += v[q];
                            }
                            #pragma omp simd
                            for (int64_t ft__l5 = 0; ft__l5 < 4; ft__l5++) {
                                const int64_t q = ft__j5 + 4 + ft__l5;
                                ft__v5_0_1[ft__l5] += a[i * m + q];
                                ft__v5_1_1[ft__l5] += v[q];
                            }
                        }
                        if (ft__n5 & 7) {
                            #pragma omp simd
                            for (int64_t ft__l5 = 0; ft__l5 < 4; ft__l5++) {
                                const int64_t q = ft__m5 + ft__l5;
                                ft__v5_0_0[ft__l5] += q < m ? a[i * m + q] : 0;
                                ft__v5_1_0[ft__l5] += q < m ? v[q] : 0;
                            }
                            #pragma omp simd
                            for (int64_t ft__l5 = 0; ft__l5 < 4; ft__l5++) {
                                const int64_t q = ft__m5 + 4 + ft__l5;
                                ft__v5_0_1[ft__l5] += q < m ? a[i * m + q] : 0;
                                ft__v5_1_1[ft__l5] += q < m ? v[q] : 0;
                            }
                        }
                        #pragma omp simd
                        for (int ft__l5 = 0; ft__l5 < 4; ft__l5++)
                            ft__v5_0_0[ft__l5] += ft__v5_0_1[ft__l5];
                        t += (ft__v5_0_0[0] + ft__v5_0_0[2]) + (ft__v5_0_0[1] + ft__v5_0_0[3]);
                        #pragma omp simd
                        for (int ft__l5 = 0; ft__l5 < 4; ft__l5++)
                            ft__v5_1_0[ft__l5] += ft__v5_1_1[ft__l5];
                        u += (ft__v5_1_0[0] + ft__v5_1_0[2]) + (ft__v5_1_0[1] + ft__v5_1_0[3]);
                    }
                    z[i] = u + t;
                    {
                        float w = 0;
                        w = 0.0f;
                        /* Lc: */
                        {
                            const int64_t ft__n7 = m > 0 ? m : 0;
                            const int64_t ft__m7 = ft__n7 & ~(int64_t)15;
                            float ft__v7_0_0[8] = {0};
                            float ft__v7_0_1[8] = {0};
                            for (int64_t ft__j7 = 0; ft__j7 < ft__m7; ft__j7 += 16) {
                                #pragma omp simd
                                for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                    const int64_t j = ft__j7 + ft__l7;
                                    c[i * m + j] = a[i * m + j] + 1.0f;
                                    ft__v7_0_0[ft__l7] += a[i * m + j];
                                }
                                #pragma omp simd
                                for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                    const int64_t j = ft__j7 + 8 + ft__l7;
                                    c[i * m + j] = a[i * m + j] + 1.0f;
                                    ft__v7_0_1[ft__l7] += a[i * m + j];
                                }
                            }
                            #pragma omp simd
                            for (int ft__l7 = 0; ft__l7 < 8; ft__l7++)
                                ft__v7_0_0[ft__l7] += ft__v7_0_1[ft__l7];
                            #pragma omp simd
                            for (int ft__l7 = 0; ft__l7 < 4; ft__l7++)
                                ft__v7_0_0[ft__l7] += ft__v7_0_0[ft__l7 + 4];
                            w += (ft__v7_0_0[0] + ft__v7_0_0[2]) + (ft__v7_0_0[1] + ft__v7_0_0[3]);
                            for (int64_t ft__t7 = 0; ft__t7 < (ft__n7 & 15); ft__t7++) {
                                const int64_t j = ft__m7 + ft__t7;
                                c[i * m + j] = a[i * m + j] + 1.0f;
                                w += a[i * m + j];
                            }
                        }
                        y[i] += w;
                        {
                            float g0 = 0;
                            g0 = 0.0f;
                            {
                                float g1 = 0;
                                g1 = 0.0f;
                                {
                                    float g2 = 0;
                                    g2 = 0.0f;
                                    /* L3: */
                                    {
                                        const int64_t ft__n9 = m > 0 ? m : 0;
                                        const int64_t ft__m9 = ft__n9 & ~(int64_t)7;
                                        float ft__v9_0_0[8] = {0};
                                        float ft__v9_1_0[8] = {0};
                                        float ft__v9_2_0[8] = {0};
                                        for (int64_t ft__j9 = 0; ft__j9 < ft__m9; ft__j9 += 8) {
                                            #pragma omp simd
                                            for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                                const int64_t j = ft__j9 + ft__l9;
                                                ft__v9_0_0[ft__l9] += a[i * m + j];
                                                ft__v9_1_0[ft__l9] += a[i * m + j] * a[i * m + j];
                                                ft__v9_2_0[ft__l9] += a[i * m + j] * 3.0f;
                                            }
                                        }
                                        if (ft__n9 & 7) {
                                            #pragma omp simd
                                            for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                                const int64_t j = ft__m9 + ft__l9;
                                                ft__v9_0_0[ft__l9] += j < m ? a[i * m + j] : 0;
                                                ft__v9_1_0[ft__l9] += j < m ? (a[i * m + j] * a[i * m + j]) : 0;
                                                ft__v9_2_0[ft__l9] += j < m ? (a[i * m + j] * 3.0f) : 0;
                                            }
                                        }
                                        #pragma omp simd
                                        for (int ft__l9 = 0; ft__l9 < 4; ft__l9++)
                                            ft__v9_0_0[ft__l9] += ft__v9_0_0[ft__l9 + 4];
                                        g0 += (ft__v9_0_0[0] + ft__v9_0_0[2]) + (ft__v9_0_0[1] + ft__v9_0_0[3]);
                                        #pragma omp simd
                                        for (int ft__l9 = 0; ft__l9 < 4; ft__l9++)
                                            ft__v9_1_0[ft__l9] += ft__v9_1_0[ft__l9 + 4];
                                        g1 += (ft__v9_1_0[0] + ft__v9_1_0[2]) + (ft__v9_1_0[1] + ft__v9_1_0[3]);
                                        #pragma omp simd
                                        for (int ft__l9 = 0; ft__l9 < 4; ft__l9++)
                                            ft__v9_2_0[ft__l9] += ft__v9_2_0[ft__l9 + 4];
                                        g2 += (ft__v9_2_0[0] + ft__v9_2_0[2]) + (ft__v9_2_0[1] + ft__v9_2_0[3]);
                                    }
                                    g[i] = g0 + (g1 * g2);
                                    {
                                        float mx = 0;
                                        mx = (-INFINITY);
                                        /* Lm: */
                                        #pragma omp simd reduction(ft__red_max_f32: mx)
                                        for (int64_t p = 0; p < m; p++) {
                                            mx = ft__max_f32(mx, a[i * m + p]);
                                        }
                                        h[i] = mx;
                                    }
                                }
                            }
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
        (const double *)ft__args[3],
        (float *)ft__args[4],
        (double *)ft__args[5],
        (float *)ft__args[6],
        (float *)ft__args[7],
        (float *)ft__args[8]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = n;
    ft__dims[6] = n;
    ft__dims[7] = m;
    ft__dims[8] = n;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = m;
    ft__dims[3] = n;
    ft__dims[4] = n;
    ft__dims[5] = n;
    ft__dims[6] = n;
    ft__dims[7] = m;
    ft__dims[8] = n;
}

static const char *const ft__shape_f_2[] = {"n", "m"};
static const char *const ft__shape_f_3[] = {"m"};
static const char *const ft__shape_f_4[] = {"n"};
static const char *const ft__shape_f_5[] = {"n"};
static const char *const ft__shape_f_6[] = {"n"};
static const char *const ft__shape_f_7[] = {"n", "m"};
static const char *const ft__shape_f_8[] = {"n"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_2, NULL, 2, ft__shape_f_2},
    {"v", FT_PARAM_TENSOR, FT_ABI_F64, FT_ABI_IN, 0, 1, ft__shape_f_3, NULL, 1, ft__shape_f_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_4, NULL, 1, ft__shape_f_4},
    {"z", FT_PARAM_TENSOR, FT_ABI_F64, FT_ABI_OUT, 0, 1, ft__shape_f_5, NULL, 1, ft__shape_f_5},
    {"h", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_6, NULL, 1, ft__shape_f_6},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_7, NULL, 2, ft__shape_f_7},
    {"g", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_f_8, NULL, 1, ft__shape_f_8},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "cg_lane_sums.ft:11:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_SIZE, "cg_lane_sums.ft:11:24", "negative size: m = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "cg_lane_sums.ft:11:33", "null pointer: tensor parameter `a` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "cg_lane_sums.ft:11:50", "null pointer: tensor parameter `v` (f64[m]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "cg_lane_sums.ft:11:64", "null pointer: tensor parameter `y` (f32[n]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "cg_lane_sums.ft:11:79", "null pointer: tensor parameter `z` (f64[n]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "cg_lane_sums.ft:12:15", "null pointer: tensor parameter `h` (f32[n]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "cg_lane_sums.ft:12:30", "null pointer: tensor parameter `c` (f32[n, m]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "cg_lane_sums.ft:12:48", "null pointer: tensor parameter `g` (f32[n]) is NULL but has elements", {0, 0}},   /* 8 */
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
int cg_lane_sums_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 9, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 9, ft__sites, ft__last_error
};
