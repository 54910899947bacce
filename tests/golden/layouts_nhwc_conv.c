int f(int64_t n, const float *x, const float *w, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 0, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 1, 0, 0);
    if (!w) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    int ft__err = FT_OK;
    /* L_conv_n: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t n_1 = 0; n_1 < n; n_1++) {
            /* L_conv_h: */
            for (int64_t oh = 0; oh < 6; oh++) {
                /* L_conv_w: */
                for (int64_t ow = 0; ow < 6; ow++) {
                    {
                        float t[8];
                        /* L_conv_o: */
                        #pragma omp simd
                        for (int64_t o = 0; o < 8; o++) {
                            t[o] = 0.0f;
                        }
                        /* L_conv_kh: */
                        for (int64_t kh = 0; kh < 3; kh++) {
                            /* L_conv_kw: */
                            for (int64_t kw = 0; kw < 3; kw++) {
                                if ((((((oh - 1) + kh) >= 0) && (((oh - 1) + kh) < 6)) && (((ow - 1) + kw) >= 0)) && (((ow - 1) + kw) < 6)) {
                                    /* L_conv_c: */
                                    for (int64_t c = 0; c < 8; c++) {
                                        /* L_conv_o_f: */
                                        #pragma omp simd
                                        for (int64_t o = 0; o < 8; o++) {
                                            t[o] += x[((n_1 * 6 + ((oh - 1) + kh)) * 6 + ((ow - 1) + kw)) * 8 + c] * w[((kh * 3 + kw) * 8 + c) * 8 + o];
                                        }
                                    }
                                }
                            }
                        }
                        #pragma omp simd
                        for (int64_t i_1 = 0; i_1 < 8; i_1++) {
                            y[((n_1 * 6 + oh) * 6 + ow) * 8 + i_1] = ft__max_f32(t[i_1], 0.0f);
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
        (const float *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 6;
    ft__dims[2] = 6;
    ft__dims[3] = 8;
    ft__dims[4] = 3;
    ft__dims[5] = 3;
    ft__dims[6] = 8;
    ft__dims[7] = 8;
    ft__dims[8] = n;
    ft__dims[9] = 6;
    ft__dims[10] = 6;
    ft__dims[11] = 8;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 8;
    ft__dims[2] = 6;
    ft__dims[3] = 6;
    ft__dims[4] = 8;
    ft__dims[5] = 8;
    ft__dims[6] = 3;
    ft__dims[7] = 3;
    ft__dims[8] = n;
    ft__dims[9] = 8;
    ft__dims[10] = 6;
    ft__dims[11] = 6;
}

static const char *const ft__shape_f_1[] = {"n", "6", "6", "8"};
static const char *const ft__lshape_f_1[] = {"n", "8", "6", "6"};
static const char *const ft__shape_f_2[] = {"3", "3", "8", "8"};
static const char *const ft__lshape_f_2[] = {"8", "8", "3", "3"};
static const char *const ft__shape_f_3[] = {"n", "6", "6", "8"};
static const char *const ft__lshape_f_3[] = {"n", "8", "6", "6"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_1, "NCHW->NHWC", 4, ft__lshape_f_1},
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 4, ft__shape_f_2, "OIHW->HWIO", 4, ft__lshape_f_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 4, ft__shape_f_3, "NCHW->NHWC", 4, ft__lshape_f_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_SIZE, "layouts_nhwc_conv.ft:8:15", "negative size: n = %0", {1, 0}},   /* 0 */
    {FT_ERR_NULL, "layouts_nhwc_conv.ft:8:24", "null pointer: tensor parameter `x` (f32[n, 6, 6, 8]) is NULL but has elements", {0, 0}},   /* 1 */
    {FT_ERR_NULL, "layouts_nhwc_conv.ft:9:15", "null pointer: tensor parameter `w` (f32[3, 3, 8, 8]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "layouts_nhwc_conv.ft:10:15", "null pointer: tensor parameter `y` (f32[n, 6, 6, 8]) is NULL but has elements", {0, 0}},   /* 3 */
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
int layouts_nhwc_conv_last_error(char *buf, size_t size)
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
