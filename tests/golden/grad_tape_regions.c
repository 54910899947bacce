int f(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img)
{
    if (h < 0) return ft__raise(FT_ERR_SIZE, 1, h, 0);
    if (w < 0) return ft__raise(FT_ERR_SIZE, 2, w, 0);
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 3, n_faces, 0);
    if (!z && n_faces > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!img && h > 0 && w > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Li: */
    #pragma omp parallel
    {
        void *ft__h4 = NULL; size_t ft__h4_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < h; i++) {
            for (int64_t j = 0; j < w; j++) {
                {
                    if (!ft__grow(&ft__h4, &ft__h4_n, ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)), 0); goto ft__end2; }
                    float *d = (float *)ft__h4;
                    /* L_f: */
                    {
                        const int64_t ft__n6 = n_faces > 0 ? n_faces : 0;
                        const int64_t ft__m6 = ft__n6 & ~(int64_t)7;
                        for (int64_t ft__j6 = 0; ft__j6 < ft__m6; ft__j6 += 8) {
                            #pragma omp simd
                            for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                const int64_t f = ft__j6 + ft__l6;
                                d[f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                            }
                        }
                        if (ft__n6 & 7) {
                            #pragma omp simd
                            for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                const int64_t f = ft__m6 + ft__l6;
                                if (f < n_faces) {
                                    d[f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                                }
                            }
                        }
                    }
                    {
                        float s = 0;
                        s = 0.0f;
                        /* L_f_1: */
                        {
                            const int64_t ft__n8 = n_faces > 0 ? n_faces : 0;
                            const int64_t ft__m8 = ft__n8 & ~(int64_t)15;
                            float ft__v8_0_0[8] = {0};
                            float ft__v8_0_1[8] = {0};
                            for (int64_t ft__j8 = 0; ft__j8 < ft__m8; ft__j8 += 16) {
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t f = ft__j8 + ft__l8;
                                    ft__v8_0_0[ft__l8] += d[f] * d[f];
                                }
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t f = ft__j8 + 8 + ft__l8;
                                    ft__v8_0_1[ft__l8] += d[f] * d[f];
                                }
                            }
                            if (ft__n8 & 15) {
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t f = ft__m8 + ft__l8;
                                    ft__v8_0_0[ft__l8] += f < n_faces ? (d[f] * d[f]) : 0;
                                }
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t f = ft__m8 + 8 + ft__l8;
                                    ft__v8_0_1[ft__l8] += f < n_faces ? (d[f] * d[f]) : 0;
                                }
                            }
                            #pragma omp simd
                            for (int ft__l8 = 0; ft__l8 < 8; ft__l8++)
                                ft__v8_0_0[ft__l8] += ft__v8_0_1[ft__l8];
                            #pragma omp simd
                            for (int ft__l8 = 0; ft__l8 < 4; ft__l8++)
                                ft__v8_0_0[ft__l8] += ft__v8_0_0[ft__l8 + 4];
                            s += (ft__v8_0_0[0] + ft__v8_0_0[2]) + (ft__v8_0_0[1] + ft__v8_0_0[3]);
                        }
                        img[i * w + j] = s;
                    }
                }
            }
ft__end2:;
        }
        free(ft__h4);
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
}

static const char *const ft__shape_f_3[] = {"n_faces"};
static const char *const ft__shape_f_4[] = {"h", "w"};
static const ft_param_desc ft__params_f[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_3, NULL, 1, ft__shape_f_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_4, NULL, 2, ft__shape_f_4},
};

int g_fwd(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img, void *tape__bytes)
{
    if (h < 0) return ft__raise(FT_ERR_SIZE, 1, h, 0);
    if (w < 0) return ft__raise(FT_ERR_SIZE, 2, w, 0);
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 3, n_faces, 0);
    if (!z && n_faces > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!img && h > 0 && w > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!tape__bytes && ((h * w) * n_faces) > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    float *tape = (float *)tape__bytes;
    float *tape_d = tape + (0);
    int ft__err = FT_OK;
    (void)tape;
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < h; i++) {
            for (int64_t j = 0; j < w; j++) {
                /* L_f: */
                {
                    const int64_t ft__n14 = n_faces > 0 ? n_faces : 0;
                    const int64_t ft__m14 = ft__n14 & ~(int64_t)7;
                    for (int64_t ft__j14 = 0; ft__j14 < ft__m14; ft__j14 += 8) {
                        #pragma omp simd
                        for (int64_t ft__l14 = 0; ft__l14 < 8; ft__l14++) {
                            const int64_t f = ft__j14 + ft__l14;
                            tape_d[(i * w + j) * n_faces + f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                        }
                    }
                    if (ft__n14 & 7) {
                        #pragma omp simd
                        for (int64_t ft__l14 = 0; ft__l14 < 8; ft__l14++) {
                            const int64_t f = ft__m14 + ft__l14;
                            if (f < n_faces) {
                                tape_d[(i * w + j) * n_faces + f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                            }
                        }
                    }
                }
                {
                    float s = 0;
                    s = 0.0f;
                    /* L_f_1: */
                    {
                        const int64_t ft__n16 = n_faces > 0 ? n_faces : 0;
                        const int64_t ft__m16 = ft__n16 & ~(int64_t)15;
                        float ft__v16_0_0[8] = {0};
                        float ft__v16_0_1[8] = {0};
                        for (int64_t ft__j16 = 0; ft__j16 < ft__m16; ft__j16 += 16) {
                            #pragma omp simd
                            for (int64_t ft__l16 = 0; ft__l16 < 8; ft__l16++) {
                                const int64_t f = ft__j16 + ft__l16;
                                ft__v16_0_0[ft__l16] += tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f];
                            }
                            #pragma omp simd
                            for (int64_t ft__l16 = 0; ft__l16 < 8; ft__l16++) {
                                const int64_t f = ft__j16 + 8 + ft__l16;
                                ft__v16_0_1[ft__l16] += tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f];
                            }
                        }
                        if (ft__n16 & 15) {
                            #pragma omp simd
                            for (int64_t ft__l16 = 0; ft__l16 < 8; ft__l16++) {
                                const int64_t f = ft__m16 + ft__l16;
                                ft__v16_0_0[ft__l16] += f < n_faces ? (tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f]) : 0;
                            }
                            #pragma omp simd
                            for (int64_t ft__l16 = 0; ft__l16 < 8; ft__l16++) {
                                const int64_t f = ft__m16 + 8 + ft__l16;
                                ft__v16_0_1[ft__l16] += f < n_faces ? (tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f]) : 0;
                            }
                        }
                        #pragma omp simd
                        for (int ft__l16 = 0; ft__l16 < 8; ft__l16++)
                            ft__v16_0_0[ft__l16] += ft__v16_0_1[ft__l16];
                        #pragma omp simd
                        for (int ft__l16 = 0; ft__l16 < 4; ft__l16++)
                            ft__v16_0_0[ft__l16] += ft__v16_0_0[ft__l16 + 4];
                        s += (ft__v16_0_0[0] + ft__v16_0_0[2]) + (ft__v16_0_0[1] + ft__v16_0_0[3]);
                    }
                    img[i * w + j] = s;
                }
            }
        }
    }
    return ft__err;
}

static int ft__call_g_fwd(void *const *ft__args)
{
    return g_fwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = (h * w) * n_faces;
}

static void ft__lshapes_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = (h * w) * n_faces;
}

static const char *const ft__shape_g_fwd_3[] = {"n_faces"};
static const char *const ft__shape_g_fwd_4[] = {"h", "w"};
static const char *const ft__shape_g_fwd_5[] = {"h * w * n_faces"};
static const ft_param_desc ft__params_g_fwd[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_fwd_3, NULL, 1, ft__shape_g_fwd_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_fwd_4, NULL, 2, ft__shape_g_fwd_4},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_fwd_5, NULL, 1, ft__shape_g_fwd_5},
};

int g_bwd(int64_t h, int64_t w, int64_t n_faces, const float *z, const float *img, const float *d_img, float *d_z, const void *tape__bytes)
{
    if (h < 0) return ft__raise(FT_ERR_SIZE, 1, h, 0);
    if (w < 0) return ft__raise(FT_ERR_SIZE, 2, w, 0);
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 3, n_faces, 0);
    if (!z && n_faces > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!img && h > 0 && w > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!d_img && h > 0 && w > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!d_z && n_faces > 0) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    if (!tape__bytes && ((h * w) * n_faces) > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    const float *tape = (const float *)tape__bytes;
    const float *tape_d = tape + (0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    (void)img;
    (void)tape;
    void *ft__h21 = NULL; size_t ft__h21_n = 0;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_1 = 0; ad_i0_1 < n_faces; ad_i0_1++) {
            d_z[ad_i0_1] = 0.0f;
        }
    }
    int64_t ft__pn21 = 1;
    ft__pn21 *= (n_faces) > 0 ? (n_faces) : 0;
    if (!ft__grow(&ft__h21, &ft__h21_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn21}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn21}, sizeof(float)), 0); goto ft__end17; }
    #pragma omp parallel
    {
        void *ft__h24 = NULL; size_t ft__h24_n = 0;
        float *ft__pv21 = d_z;
        if (ft__thread() > 0) {
            ft__pv21 = (float *)ft__h21 + (ft__thread() - 1) * ft__pn21;
            memset(ft__pv21, 0, sizeof(float) * (size_t)ft__pn21);
        }
        #pragma omp for
        for (int64_t i = 0; i < h; i++) {
            for (int64_t j = 0; j < w; j++) {
                {
                    if (!ft__grow(&ft__h24, &ft__h24_n, ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, (int64_t)ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)), 0); goto ft__end22; }
                    float *d_d = (float *)ft__h24;
                    {
                        const int64_t ft__n26 = n_faces > 0 ? n_faces : 0;
                        const int64_t ft__m26 = ft__n26 & ~(int64_t)7;
                        for (int64_t ft__j26 = 0; ft__j26 < ft__m26; ft__j26 += 8) {
                            #pragma omp simd
                            for (int64_t ft__l26 = 0; ft__l26 < 8; ft__l26++) {
                                const int64_t ad_i0 = ft__j26 + ft__l26;
                                d_d[ad_i0] = 0.0f;
                            }
                        }
                        if (ft__n26 & 7) {
                            #pragma omp simd
                            for (int64_t ft__l26 = 0; ft__l26 < 8; ft__l26++) {
                                const int64_t ad_i0 = ft__m26 + ft__l26;
                                if (ad_i0 < n_faces) {
                                    d_d[ad_i0] = 0.0f;
                                }
                            }
                        }
                    }
                    {
                        float d_s = 0;
                        d_s = 0.0f;
                        d_s += d_img[i * w + j];
                        #pragma omp simd
                        for (int64_t f = 0; f < n_faces; f++) {
                            d_d[f] += (d_s * tape_d[(i * w + j) * n_faces + f]) + (tape_d[(i * w + j) * n_faces + f] * d_s);
                            {
                                float cse = 0;
                                cse = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                                ft__pv21[f] += ((d_d[f] * cse) * (1.0f - cse)) * ((float)(i - j));
                            }
                        }
                    }
                }
            }
ft__end22:;
        }
        const int64_t ft__pt28 = ft__team() - 1;
        if (ft__pt28 > 0) {
            #pragma omp for
            for (int64_t ft__pe28 = 0; ft__pe28 < ft__pn21; ft__pe28++) {
                float ft__ps28 = 0;
                for (int64_t ft__pk28 = 0; ft__pk28 < ft__pt28; ft__pk28++)
                    ft__ps28 += ((const float *)ft__h21)[ft__pk28 * ft__pn21 + ft__pe28];
                d_z[ft__pe28] += ft__ps28;
            }
        }
        free(ft__h24);
    }
    if (ft__err) goto ft__end17;
ft__end17:;
    free(ft__h21);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_g_bwd(void *const *ft__args)
{
    return g_bwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6],
        (const float *)ft__args[7]);
}

static void ft__shapes_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = h;
    ft__dims[4] = w;
    ft__dims[5] = n_faces;
    ft__dims[6] = (h * w) * n_faces;
}

static void ft__lshapes_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = h;
    ft__dims[4] = w;
    ft__dims[5] = n_faces;
    ft__dims[6] = (h * w) * n_faces;
}

static const char *const ft__shape_g_bwd_3[] = {"n_faces"};
static const char *const ft__shape_g_bwd_4[] = {"h", "w"};
static const char *const ft__shape_g_bwd_5[] = {"h", "w"};
static const char *const ft__shape_g_bwd_6[] = {"n_faces"};
static const char *const ft__shape_g_bwd_7[] = {"h * w * n_faces"};
static const ft_param_desc ft__params_g_bwd[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_3, NULL, 1, ft__shape_g_bwd_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_4, NULL, 2, ft__shape_g_bwd_4},
    {"d_img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_5, NULL, 2, ft__shape_g_bwd_5},
    {"d_z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_bwd_6, NULL, 1, ft__shape_g_bwd_6},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_7, NULL, 1, ft__shape_g_bwd_7},
};

int g(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img, const float *d_img, float *d_z)
{
    if (h < 0) return ft__raise(FT_ERR_SIZE, 1, h, 0);
    if (w < 0) return ft__raise(FT_ERR_SIZE, 2, w, 0);
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 3, n_faces, 0);
    /* g_fwd then g_bwd, through a tape on the heap */
    const size_t ft__tb = ft__nbytes(1, (const int64_t[]){(h * w) * n_faces}, 4);
    void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;
    if (ft__tb && !ft__tape) return ft__raise(FT_ERR_NOMEM, 11, (int64_t)ft__tb, 0);
    int ft__err = g_fwd(h, w, n_faces, z, img, ft__tape);
    if (ft__err == FT_OK)
        ft__err = g_bwd(h, w, n_faces, z, img, d_img, d_z, ft__tape);
    free(ft__tape);
    return ft__err;
}

static int ft__call_g(void *const *ft__args)
{
    return g(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6]);
}

static void ft__shapes_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = h;
    ft__dims[4] = w;
    ft__dims[5] = n_faces;
}

static void ft__lshapes_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t h = ft__sizes[0]; (void)h;
    const int64_t w = ft__sizes[1]; (void)w;
    const int64_t n_faces = ft__sizes[2]; (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = h;
    ft__dims[4] = w;
    ft__dims[5] = n_faces;
}

static const char *const ft__shape_g_3[] = {"n_faces"};
static const char *const ft__shape_g_4[] = {"h", "w"};
static const char *const ft__shape_g_5[] = {"h", "w"};
static const char *const ft__shape_g_6[] = {"n_faces"};
static const ft_param_desc ft__params_g[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_3, NULL, 1, ft__shape_g_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_4, NULL, 2, ft__shape_g_4},
    {"d_img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_5, NULL, 2, ft__shape_g_5},
    {"d_z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_6, NULL, 1, ft__shape_g_6},
};

size_t g_tape_bytes(int64_t h, int64_t w, int64_t n_faces)
{
    if (h < 0) return 0;
    if (w < 0) return 0;
    if (n_faces < 0) return 0;
    return (size_t)(((h * w) * n_faces) * 4);
}

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "grad_tape_regions.ft:15:17", "out of memory: cannot allocate %0 bytes for local tensor `d`", {5, 0}},   /* 0 */
    {FT_ERR_SIZE, "grad_tape_regions.ft:11:15", "negative size: h = %0", {1, 0}},   /* 1 */
    {FT_ERR_SIZE, "grad_tape_regions.ft:11:24", "negative size: w = %0", {1, 0}},   /* 2 */
    {FT_ERR_SIZE, "grad_tape_regions.ft:11:33", "negative size: n_faces = %0", {1, 0}},   /* 3 */
    {FT_ERR_NULL, "grad_tape_regions.ft:11:48", "null pointer: tensor parameter `z` (f32[n_faces]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "grad_tape_regions.ft:12:15", "null pointer: tensor parameter `img` (f32[h, w]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "grad_tape_regions.ft:11:13", "null pointer: tensor parameter `tape` (f32[h * w * n_faces]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "grad_tape_regions.ft:13:9", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d_z`", {5, 0}},   /* 7 */
    {FT_ERR_NOMEM, "grad_tape_regions.ft:15:17", "out of memory: cannot allocate %0 bytes for local tensor `d_d`", {5, 0}},   /* 8 */
    {FT_ERR_NULL, "grad_tape_regions.ft:12:15", "null pointer: tensor parameter `d_img` (f32[h, w]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NULL, "grad_tape_regions.ft:11:48", "null pointer: tensor parameter `d_z` (f32[n_faces]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_NOMEM, "grad_tape_regions.ft:11:13", "out of memory: cannot allocate %0 bytes for the tape of g", {5, 0}},   /* 11 */
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
int grad_tape_regions_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 5, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
    {"g_fwd", 6, ft__params_g_fwd, ft__call_g_fwd, ft__shapes_g_fwd, ft__lshapes_g_fwd},
    {"g_bwd", 8, ft__params_g_bwd, ft__call_g_bwd, ft__shapes_g_bwd, ft__lshapes_g_bwd},
    {"g", 7, ft__params_g, ft__call_g, ft__shapes_g, ft__lshapes_g},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs, 12, ft__sites, ft__last_error
};
