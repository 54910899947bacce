int f(int64_t n, const float *x, const float *ka, const float *kb, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 1, 0, 0);
    if (!ka) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!kb) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    int ft__err = FT_OK;
    /* L_conv_n: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t n_1 = 0; n_1 < n; n_1++) {
            /* L_conv_h: */
            for (int64_t oh = 0; oh < 4; oh++) {
                /* L_conv_w: */
                for (int64_t ow = 0; ow < 4; ow++) {
                    /* L_conv_o: */
                    for (int64_t o = 0; o < 16; o++) {
                        {
                            float y_r = 0;
                            y_r = 0.0f;
                            {
                                const int64_t ft__n7 = 16 > 0 ? 16 : 0;
                                const int64_t ft__m7 = ft__n7 & ~(int64_t)15;
                                float ft__v7_0_0[8] = {0};
                                float ft__v7_0_1[8] = {0};
                                for (int64_t ft__j7 = 0; ft__j7 < ft__m7; ft__j7 += 16) {
                                    #pragma omp simd
                                    for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                        const int64_t coci = ft__j7 + ft__l7;
                                        ft__v7_0_0[ft__l7] += x[((n_1 * 4 + oh) * 4 + ow) * 16 + coci] * ka[((o * 16 + coci) * 1 + 0) * 1 + 0];
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                        const int64_t coci = ft__j7 + 8 + ft__l7;
                                        ft__v7_0_1[ft__l7] += x[((n_1 * 4 + oh) * 4 + ow) * 16 + coci] * ka[((o * 16 + coci) * 1 + 0) * 1 + 0];
                                    }
                                }
                                if (ft__n7 & 15) {
                                    #pragma omp simd
                                    for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                        const int64_t coci = ft__m7 + ft__l7;
                                        ft__v7_0_0[ft__l7] += coci < 16 ? (x[((n_1 * 4 + oh) * 4 + ow) * 16 + coci] * ka[((o * 16 + coci) * 1 + 0) * 1 + 0]) : 0;
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                                        const int64_t coci = ft__m7 + 8 + ft__l7;
                                        ft__v7_0_1[ft__l7] += coci < 16 ? (x[((n_1 * 4 + oh) * 4 + ow) * 16 + coci] * ka[((o * 16 + coci) * 1 + 0) * 1 + 0]) : 0;
                                    }
                                }
                                #pragma omp simd
                                for (int ft__l7 = 0; ft__l7 < 8; ft__l7++)
                                    ft__v7_0_0[ft__l7] += ft__v7_0_1[ft__l7];
                                #pragma omp simd
                                for (int ft__l7 = 0; ft__l7 < 4; ft__l7++)
                                    ft__v7_0_0[ft__l7] += ft__v7_0_0[ft__l7 + 4];
                                y_r += (ft__v7_0_0[0] + ft__v7_0_0[2]) + (ft__v7_0_0[1] + ft__v7_0_0[3]);
                            }
                            y[((n_1 * 4 + oh) * 4 + ow) * 48 + o] = y_r;
                            {
                                float y_r_h1 = 0;
                                y_r_h1 = 0.0f;
                                /* L_conv_c_1: */
                                {
                                    const int64_t ft__n9 = 16 > 0 ? 16 : 0;
                                    const int64_t ft__m9 = ft__n9 & ~(int64_t)15;
                                    float ft__v9_0_0[8] = {0};
                                    float ft__v9_0_1[8] = {0};
                                    for (int64_t ft__j9 = 0; ft__j9 < ft__m9; ft__j9 += 16) {
                                        #pragma omp simd
                                        for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                            const int64_t c = ft__j9 + ft__l9;
                                            ft__v9_0_0[ft__l9] += x[((n_1 * 4 + oh) * 4 + ow) * 16 + c] * kb[((o * 16 + c) * 1 + 0) * 1 + 0];
                                        }
                                        #pragma omp simd
                                        for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                            const int64_t c = ft__j9 + 8 + ft__l9;
                                            ft__v9_0_1[ft__l9] += x[((n_1 * 4 + oh) * 4 + ow) * 16 + c] * kb[((o * 16 + c) * 1 + 0) * 1 + 0];
                                        }
                                    }
                                    if (ft__n9 & 15) {
                                        #pragma omp simd
                                        for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                            const int64_t c = ft__m9 + ft__l9;
                                            ft__v9_0_0[ft__l9] += c < 16 ? (x[((n_1 * 4 + oh) * 4 + ow) * 16 + c] * kb[((o * 16 + c) * 1 + 0) * 1 + 0]) : 0;
                                        }
                                        #pragma omp simd
                                        for (int64_t ft__l9 = 0; ft__l9 < 8; ft__l9++) {
                                            const int64_t c = ft__m9 + 8 + ft__l9;
                                            ft__v9_0_1[ft__l9] += c < 16 ? (x[((n_1 * 4 + oh) * 4 + ow) * 16 + c] * kb[((o * 16 + c) * 1 + 0) * 1 + 0]) : 0;
                                        }
                                    }
                                    #pragma omp simd
                                    for (int ft__l9 = 0; ft__l9 < 8; ft__l9++)
                                        ft__v9_0_0[ft__l9] += ft__v9_0_1[ft__l9];
                                    #pragma omp simd
                                    for (int ft__l9 = 0; ft__l9 < 4; ft__l9++)
                                        ft__v9_0_0[ft__l9] += ft__v9_0_0[ft__l9 + 4];
                                    y_r_h1 += (ft__v9_0_0[0] + ft__v9_0_0[2]) + (ft__v9_0_0[1] + ft__v9_0_0[3]);
                                }
                                y[((n_1 * 4 + oh) * 4 + ow) * 48 + (16 + o)] = y_r_h1;
                            }
                        }
                    }
                    #pragma omp simd
                    for (int64_t i_1 = 0; i_1 < 16; i_1++) {
                        y[((n_1 * 4 + oh) * 4 + ow) * 48 + (32 + i_1)] = ft__max_f32(x[((n_1 * 4 + oh) * 4 + ow) * 16 + i_1], 0.0f);
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
        (const float *)ft__args[1],
        (const float *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 4;
    ft__dims[2] = 4;
    ft__dims[3] = 16;
    ft__dims[4] = 16;
    ft__dims[5] = 16;
    ft__dims[6] = 1;
    ft__dims[7] = 1;
    ft__dims[8] = 16;
    ft__dims[9] = 16;
    ft__dims[10] = 1;
    ft__dims[11] = 1;
    ft__dims[12] = n;
    ft__dims[13] = 4;
    ft__dims[14] = 4;
    ft__dims[15] = 48;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 16;
    ft__dims[2] = 4;
    ft__dims[3] = 4;
    ft__dims[4] = 16;
    ft__dims[5] = 16;
    ft__dims[6] = 1;
    ft__dims[7] = 1;
    ft__dims[8] = 16;
    ft__dims[9] = 16;
    ft__dims[10] = 1;
    ft__dims[11] = 1;
    ft__dims[12] = n;
    ft__dims[13] = 48;
    ft__dims[14] = 4;
    ft__dims[15] = 4;
}

static const char *const ft__shape_f_1[] = {"n", "4", "4", "16"};
static const char *const ft__lshape_f_1[] = {"n", "16", "4", "4"};
static const char *const ft__shape_f_2[] = {"16", "16", "1", "1"};
static const char *const ft__shape_f_3[] = {"16", "16", "1", "1"};
static const char *const ft__shape_f_4[] = {"n", "4", "4", "48"};
static const char *const ft__lshape_f_4[] = {"n", "48", "4", "4"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_1, "NCHW->NHWC", 4, ft__lshape_f_1},
    {"ka", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_2, NULL, 4, ft__shape_f_2},
    {"kb", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_3, NULL, 4, ft__shape_f_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 4, ft__shape_f_4, "NCHW->NHWC", 4, ft__lshape_f_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "layouts_concat_pw.ft:20:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_NULL, "layouts_concat_pw.ft:20:24", "null pointer: tensor parameter `x` (f32[n, 4, 4, 16]) is NULL but has elements", {0, 0}},   /* 1 */
    {FT_ERR_NULL, "layouts_concat_pw.ft:21:15", "null pointer: tensor parameter `ka` (f32[16, 16, 1, 1]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "layouts_concat_pw.ft:21:41", "null pointer: tensor parameter `kb` (f32[16, 16, 1, 1]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "layouts_concat_pw.ft:22:15", "null pointer: tensor parameter `y` (f32[n, 4, 4, 48]) is NULL but has elements", {0, 0}},   /* 4 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 5 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int layouts_concat_pw_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 5, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 5, ft__sites, ft__last_error
};
