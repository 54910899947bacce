int net(int64_t n, const float *x, const float *w, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 1, n, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 2, 0, 0);
    if (!w) return ft__raise(FT_ERR_NULL, 3, 0, 0);
    if (!y && n > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h1 = NULL; size_t ft__h1_n = 0;
    {
        if (!ft__grow(&ft__h1, &ft__h1_n, ft__nbytes(5, (const int64_t[]){n, 4, 28, 28, 8}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(5, (const int64_t[]){n, 4, 28, 28, 8}, sizeof(float)), 0); goto ft__end0; }
        float *t = (float *)ft__h1;
        /* L_conv_n: */
        for (int64_t n_1 = 0; n_1 < n; n_1++) {
            for (int64_t oo = 0; oo < 4; oo++) {
                for (int64_t oi = 0; oi < 8; oi++) {
                    /* L_conv_h: */
                    for (int64_t oh = 0; oh < 28; oh++) {
                        /* L_conv_w: */
                        for (int64_t ow = 0; ow < 28; ow++) {
                            t[(((n_1 * 4 + oo) * 28 + oh) * 28 + ow) * 8 + oi] = 0.0f;
                            for (int64_t co = 0; co < 4; co++) {
                                for (int64_t ci = 0; ci < 8; ci++) {
                                    /* L_conv_kh: */
                                    for (int64_t kh = 0; kh < 3; kh++) {
                                        /* L_conv_kw: */
                                        for (int64_t kw = 0; kw < 3; kw++) {
                                            if ((((((oh - 1) + kh) >= 0) && (((oh - 1) + kh) < 28)) && (((ow - 1) + kw) >= 0)) && (((ow - 1) + kw) < 28)) {
                                                t[(((n_1 * 4 + oo) * 28 + oh) * 28 + ow) * 8 + oi] += x[(((n_1 * 4 + co) * 28 + ((oh - 1) + kh)) * 28 + ((ow - 1) + kw)) * 8 + ci] * w[((((oo * 4 + co) * 3 + kh) * 3 + kw) * 8 + ci) * 8 + oi];
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for (int64_t i = 0; i < n; i++) {
            for (int64_t i_1o = 0; i_1o < 4; i_1o++) {
                for (int64_t i_1i = 0; i_1i < 8; i_1i++) {
                    for (int64_t i_2 = 0; i_2 < 28; i_2++) {
                        for (int64_t i_3 = 0; i_3 < 28; i_3++) {
                            y[(((i * 4 + i_1o) * 28 + i_2) * 28 + i_3) * 8 + i_1i] = ft__max_f32(t[(((i * 4 + i_1o) * 28 + i_2) * 28 + i_3) * 8 + i_1i], 0.0f);
                        }
                    }
                }
            }
        }
    }
ft__end0:;
    free(ft__h1);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_net(void *const *ft__args)
{
    return net(*(const int64_t *)ft__args[0],
        (const float *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_net(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 4;
    ft__dims[2] = 28;
    ft__dims[3] = 28;
    ft__dims[4] = 8;
    ft__dims[5] = 4;
    ft__dims[6] = 4;
    ft__dims[7] = 3;
    ft__dims[8] = 3;
    ft__dims[9] = 8;
    ft__dims[10] = 8;
    ft__dims[11] = n;
    ft__dims[12] = 4;
    ft__dims[13] = 28;
    ft__dims[14] = 28;
    ft__dims[15] = 8;
}

static void ft__lshapes_net(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 32;
    ft__dims[2] = 28;
    ft__dims[3] = 28;
    ft__dims[4] = 32;
    ft__dims[5] = 32;
    ft__dims[6] = 3;
    ft__dims[7] = 3;
    ft__dims[8] = n;
    ft__dims[9] = 32;
    ft__dims[10] = 28;
    ft__dims[11] = 28;
}

static const char *const ft__shape_net_1[] = {"n", "4", "28", "28", "8"};
static const char *const ft__lshape_net_1[] = {"n", "32", "28", "28"};
static const char *const ft__shape_net_2[] = {"4", "4", "3", "3", "8", "8"};
static const char *const ft__lshape_net_2[] = {"32", "32", "3", "3"};
static const char *const ft__shape_net_3[] = {"n", "4", "28", "28", "8"};
static const char *const ft__lshape_net_3[] = {"n", "32", "28", "28"};
static const ft_param_desc ft__params_net[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 5, ft__shape_net_1, "NCHW->NCHW8c", 4, ft__lshape_net_1},
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 6, ft__shape_net_2, "OIHW->OIHW8i8o", 4, ft__lshape_net_2},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 5, ft__shape_net_3, "NCHW->NCHW8c", 4, ft__lshape_net_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "layout_conv_nchw8c.ft:10:38", "out of memory: cannot allocate %0 bytes for local tensor `t` in conv2d() (stdlib/creation.ft:24:16)", {5, 0}},   /* 0 */
    {FT_ERR_SIZE, "layout_conv_nchw8c.ft:7:17", "negative size: n = %0", {1, 0}},   /* 1 */
    {FT_ERR_NULL, "layout_conv_nchw8c.ft:7:26", "null pointer: tensor parameter `x` (f32[n, 4, 28, 28, 8]) is NULL but has elements", {0, 0}},   /* 2 */
    {FT_ERR_NULL, "layout_conv_nchw8c.ft:8:17", "null pointer: tensor parameter `w` (f32[4, 4, 3, 3, 8, 8]) is NULL but has elements", {0, 0}},   /* 3 */
    {FT_ERR_NULL, "layout_conv_nchw8c.ft:9:17", "null pointer: tensor parameter `y` (f32[n, 4, 28, 28, 8]) is NULL but has elements", {0, 0}},   /* 4 */
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
int layout_conv_nchw8c_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"net", 4, ft__params_net, ft__call_net, ft__shapes_net, ft__lshapes_net},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 5, ft__sites, ft__last_error
};
