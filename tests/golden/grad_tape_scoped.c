int f(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 3, m, 0);
    if (l < 0) return ft__raise(FT_ERR_SIZE, 4, l, 0);
    if (!q && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!k && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!v && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!y && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    #pragma omp parallel
    {
        void *ft__h3 = NULL; size_t ft__h3_n = 0;
        void *ft__h7 = NULL; size_t ft__h7_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                if (!ft__grow(&ft__h3, &ft__h3_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end2; }
                float *dot = (float *)ft__h3;
                for (int64_t j = 0; j < m; j++) {
                    {
                        float t = 0;
                        t = 0.0f;
                        /* L_c: */
                        {
                            const int64_t ft__n6 = l > 0 ? l : 0;
                            const int64_t ft__m6 = ft__n6 & ~(int64_t)15;
                            float ft__v6_0_0[8] = {0};
                            float ft__v6_0_1[8] = {0};
                            for (int64_t ft__j6 = 0; ft__j6 < ft__m6; ft__j6 += 16) {
                                #pragma omp simd
                                for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                    const int64_t c = ft__j6 + ft__l6;
                                    ft__v6_0_0[ft__l6] += q[i * l + c] * k[j * l + c];
                                }
                                #pragma omp simd
                                for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                    const int64_t c = ft__j6 + 8 + ft__l6;
                                    ft__v6_0_1[ft__l6] += q[i * l + c] * k[j * l + c];
                                }
                            }
                            if (ft__n6 & 15) {
                                #pragma omp simd
                                for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                    const int64_t c = ft__m6 + ft__l6;
                                    ft__v6_0_0[ft__l6] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                                }
                                #pragma omp simd
                                for (int64_t ft__l6 = 0; ft__l6 < 8; ft__l6++) {
                                    const int64_t c = ft__m6 + 8 + ft__l6;
                                    ft__v6_0_1[ft__l6] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                                }
                            }
                            #pragma omp simd
                            for (int ft__l6 = 0; ft__l6 < 8; ft__l6++)
                                ft__v6_0_0[ft__l6] += ft__v6_0_1[ft__l6];
                            #pragma omp simd
                            for (int ft__l6 = 0; ft__l6 < 4; ft__l6++)
                                ft__v6_0_0[ft__l6] += ft__v6_0_0[ft__l6 + 4];
                            t += (ft__v6_0_0[0] + ft__v6_0_0[2]) + (ft__v6_0_0[1] + ft__v6_0_0[3]);
                        }
                        dot[j] = t;
                    }
                }
                {
                    if (!ft__grow(&ft__h7, &ft__h7_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end2; }
                    float *t = (float *)ft__h7;
                    {
                        float t_1 = 0;
                        t_1 = (-INFINITY);
                        /* L_reduce: */
                        #pragma omp simd reduction(ft__red_max_f32: t_1)
                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                            t_1 = ft__max_f32(t_1, dot[i_1]);
                        }
                        /* L_softmax_exp: */
                        {
                            const int64_t ft__n10 = m > 0 ? m : 0;
                            const int64_t ft__m10 = ft__n10 & ~(int64_t)7;
                            for (int64_t ft__j10 = 0; ft__j10 < ft__m10; ft__j10 += 8) {
                                #pragma omp simd
                                for (int64_t ft__l10 = 0; ft__l10 < 8; ft__l10++) {
                                    const int64_t k_1 = ft__j10 + ft__l10;
                                    t[k_1] = expf(dot[k_1] - t_1);
                                }
                            }
                            if (ft__n10 & 7) {
                                #pragma omp simd
                                for (int64_t ft__l10 = 0; ft__l10 < 8; ft__l10++) {
                                    const int64_t k_1 = ft__m10 + ft__l10;
                                    if (k_1 < m) {
                                        t[k_1] = expf(dot[k_1] - t_1);
                                    }
                                }
                            }
                        }
                        {
                            float t_2 = 0;
                            t_2 = 0.0f;
                            /* L_reduce_1: */
                            {
                                const int64_t ft__n12 = m > 0 ? m : 0;
                                const int64_t ft__m12 = ft__n12 & ~(int64_t)15;
                                float ft__v12_0_0[8] = {0};
                                float ft__v12_0_1[8] = {0};
                                for (int64_t ft__j12 = 0; ft__j12 < ft__m12; ft__j12 += 16) {
                                    #pragma omp simd
                                    for (int64_t ft__l12 = 0; ft__l12 < 8; ft__l12++) {
                                        const int64_t i_1 = ft__j12 + ft__l12;
                                        ft__v12_0_0[ft__l12] += t[i_1];
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l12 = 0; ft__l12 < 8; ft__l12++) {
                                        const int64_t i_1 = ft__j12 + 8 + ft__l12;
                                        ft__v12_0_1[ft__l12] += t[i_1];
                                    }
                                }
                                if (ft__n12 & 15) {
                                    #pragma omp simd
                                    for (int64_t ft__l12 = 0; ft__l12 < 8; ft__l12++) {
                                        const int64_t i_1 = ft__m12 + ft__l12;
                                        ft__v12_0_0[ft__l12] += i_1 < m ? t[i_1] : 0;
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l12 = 0; ft__l12 < 8; ft__l12++) {
                                        const int64_t i_1 = ft__m12 + 8 + ft__l12;
                                        ft__v12_0_1[ft__l12] += i_1 < m ? t[i_1] : 0;
                                    }
                                }
                                #pragma omp simd
                                for (int ft__l12 = 0; ft__l12 < 8; ft__l12++)
                                    ft__v12_0_0[ft__l12] += ft__v12_0_1[ft__l12];
                                #pragma omp simd
                                for (int ft__l12 = 0; ft__l12 < 4; ft__l12++)
                                    ft__v12_0_0[ft__l12] += ft__v12_0_0[ft__l12 + 4];
                                t_2 += (ft__v12_0_0[0] + ft__v12_0_0[2]) + (ft__v12_0_0[1] + ft__v12_0_0[3]);
                            }
                            /* L_softmax_div: */
                            {
                                const int64_t ft__n14 = m > 0 ? m : 0;
                                const int64_t ft__m14 = ft__n14 & ~(int64_t)7;
                                for (int64_t ft__j14 = 0; ft__j14 < ft__m14; ft__j14 += 8) {
                                    #pragma omp simd
                                    for (int64_t ft__l14 = 0; ft__l14 < 8; ft__l14++) {
                                        const int64_t k_1 = ft__j14 + ft__l14;
                                        t[k_1] = t[k_1] / t_2;
                                    }
                                }
                                if (ft__n14 & 7) {
                                    #pragma omp simd
                                    for (int64_t ft__l14 = 0; ft__l14 < 8; ft__l14++) {
                                        const int64_t k_1 = ft__m14 + ft__l14;
                                        if (k_1 < m) {
                                            t[k_1] = t[k_1] / t_2;
                                        }
                                    }
                                }
                            }
                            for (int64_t c = 0; c < l; c++) {
                                y[i * l + c] = 0.0f;
                                {
                                    float y_r = 0;
                                    y_r = 0.0f;
                                    for (int64_t j = 0; j < m; j++) {
                                        y_r += t[j] * v[j * l + c];
                                    }
                                    if (m > 0) {
                                        y[i * l + c] += y_r;
                                    }
                                }
                            }
                        }
                    }
                }
            }
ft__end2:;
        }
        free(ft__h3);
        free(ft__h7);
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
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
}

static const char *const ft__shape_f_3[] = {"n", "l"};
static const char *const ft__shape_f_4[] = {"m", "l"};
static const char *const ft__shape_f_5[] = {"m", "l"};
static const char *const ft__shape_f_6[] = {"n", "l"};
static const ft_param_desc ft__params_f[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_3, NULL, 2, ft__shape_f_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_4, NULL, 2, ft__shape_f_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_5, NULL, 2, ft__shape_f_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_6, NULL, 2, ft__shape_f_6},
};

int g_fwd(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y, void *tape__bytes)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 3, m, 0);
    if (l < 0) return ft__raise(FT_ERR_SIZE, 4, l, 0);
    if (!q && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!k && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!v && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!y && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    if (!tape__bytes && ((((n * m) + (n * m)) + n) + n) > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    float *tape = (float *)tape__bytes;
    float *tape_t_ftk = tape + (0);
    float *tape_dot = tape + (n * m);
    float *tape_t_1 = tape + ((n * m) + (n * m));
    float *tape_t_2 = tape + (((n * m) + (n * m)) + n);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    (void)tape;
    #pragma omp parallel
    {
        void *ft__h23 = NULL; size_t ft__h23_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < m; j++) {
                {
                    float t = 0;
                    t = 0.0f;
                    /* L_c: */
                    {
                        const int64_t ft__n22 = l > 0 ? l : 0;
                        const int64_t ft__m22 = ft__n22 & ~(int64_t)15;
                        float ft__v22_0_0[8] = {0};
                        float ft__v22_0_1[8] = {0};
                        for (int64_t ft__j22 = 0; ft__j22 < ft__m22; ft__j22 += 16) {
                            #pragma omp simd
                            for (int64_t ft__l22 = 0; ft__l22 < 8; ft__l22++) {
                                const int64_t c = ft__j22 + ft__l22;
                                ft__v22_0_0[ft__l22] += q[i * l + c] * k[j * l + c];
                            }
                            #pragma omp simd
                            for (int64_t ft__l22 = 0; ft__l22 < 8; ft__l22++) {
                                const int64_t c = ft__j22 + 8 + ft__l22;
                                ft__v22_0_1[ft__l22] += q[i * l + c] * k[j * l + c];
                            }
                        }
                        if (ft__n22 & 15) {
                            #pragma omp simd
                            for (int64_t ft__l22 = 0; ft__l22 < 8; ft__l22++) {
                                const int64_t c = ft__m22 + ft__l22;
                                ft__v22_0_0[ft__l22] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                            }
                            #pragma omp simd
                            for (int64_t ft__l22 = 0; ft__l22 < 8; ft__l22++) {
                                const int64_t c = ft__m22 + 8 + ft__l22;
                                ft__v22_0_1[ft__l22] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                            }
                        }
                        #pragma omp simd
                        for (int ft__l22 = 0; ft__l22 < 8; ft__l22++)
                            ft__v22_0_0[ft__l22] += ft__v22_0_1[ft__l22];
                        #pragma omp simd
                        for (int ft__l22 = 0; ft__l22 < 4; ft__l22++)
                            ft__v22_0_0[ft__l22] += ft__v22_0_0[ft__l22 + 4];
                        t += (ft__v22_0_0[0] + ft__v22_0_0[2]) + (ft__v22_0_0[1] + ft__v22_0_0[3]);
                    }
                    tape_dot[i * m + j] = t;
                }
            }
            {
                if (!ft__grow(&ft__h23, &ft__h23_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end19; }
                float *t = (float *)ft__h23;
                {
                    float t_1 = 0;
                    t_1 = (-INFINITY);
                    /* L_reduce: */
                    #pragma omp simd reduction(ft__red_max_f32: t_1)
                    for (int64_t i_1 = 0; i_1 < m; i_1++) {
                        t_1 = ft__max_f32(t_1, tape_dot[i * m + i_1]);
                    }
                    /* L_softmax_exp: */
                    {
                        const int64_t ft__n26 = m > 0 ? m : 0;
                        const int64_t ft__m26 = ft__n26 & ~(int64_t)7;
                        for (int64_t ft__j26 = 0; ft__j26 < ft__m26; ft__j26 += 8) {
                            #pragma omp simd
                            for (int64_t ft__l26 = 0; ft__l26 < 8; ft__l26++) {
                                const int64_t k_1 = ft__j26 + ft__l26;
                                t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                            }
                        }
                        if (ft__n26 & 7) {
                            #pragma omp simd
                            for (int64_t ft__l26 = 0; ft__l26 < 8; ft__l26++) {
                                const int64_t k_1 = ft__m26 + ft__l26;
                                if (k_1 < m) {
                                    t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                                }
                            }
                        }
                    }
                    {
                        float t_2 = 0;
                        t_2 = 0.0f;
                        /* L_reduce_1: */
                        {
                            const int64_t ft__n28 = m > 0 ? m : 0;
                            const int64_t ft__m28 = ft__n28 & ~(int64_t)15;
                            float ft__v28_0_0[8] = {0};
                            float ft__v28_0_1[8] = {0};
                            for (int64_t ft__j28 = 0; ft__j28 < ft__m28; ft__j28 += 16) {
                                #pragma omp simd
                                for (int64_t ft__l28 = 0; ft__l28 < 8; ft__l28++) {
                                    const int64_t i_1 = ft__j28 + ft__l28;
                                    ft__v28_0_0[ft__l28] += t[i_1];
                                }
                                #pragma omp simd
                                for (int64_t ft__l28 = 0; ft__l28 < 8; ft__l28++) {
                                    const int64_t i_1 = ft__j28 + 8 + ft__l28;
                                    ft__v28_0_1[ft__l28] += t[i_1];
                                }
                            }
                            if (ft__n28 & 15) {
                                #pragma omp simd
                                for (int64_t ft__l28 = 0; ft__l28 < 8; ft__l28++) {
                                    const int64_t i_1 = ft__m28 + ft__l28;
                                    ft__v28_0_0[ft__l28] += i_1 < m ? t[i_1] : 0;
                                }
                                #pragma omp simd
                                for (int64_t ft__l28 = 0; ft__l28 < 8; ft__l28++) {
                                    const int64_t i_1 = ft__m28 + 8 + ft__l28;
                                    ft__v28_0_1[ft__l28] += i_1 < m ? t[i_1] : 0;
                                }
                            }
                            #pragma omp simd
                            for (int ft__l28 = 0; ft__l28 < 8; ft__l28++)
                                ft__v28_0_0[ft__l28] += ft__v28_0_1[ft__l28];
                            #pragma omp simd
                            for (int ft__l28 = 0; ft__l28 < 4; ft__l28++)
                                ft__v28_0_0[ft__l28] += ft__v28_0_0[ft__l28 + 4];
                            t_2 += (ft__v28_0_0[0] + ft__v28_0_0[2]) + (ft__v28_0_0[1] + ft__v28_0_0[3]);
                        }
                        /* L_softmax_div: */
                        {
                            const int64_t ft__n30 = m > 0 ? m : 0;
                            const int64_t ft__m30 = ft__n30 & ~(int64_t)7;
                            for (int64_t ft__j30 = 0; ft__j30 < ft__m30; ft__j30 += 8) {
                                #pragma omp simd
                                for (int64_t ft__l30 = 0; ft__l30 < 8; ft__l30++) {
                                    const int64_t k_1 = ft__j30 + ft__l30;
                                    tape_t_ftk[i * m + k_1] = t[k_1];
                                    t[k_1] = t[k_1] / t_2;
                                }
                            }
                            if (ft__n30 & 7) {
                                #pragma omp simd
                                for (int64_t ft__l30 = 0; ft__l30 < 8; ft__l30++) {
                                    const int64_t k_1 = ft__m30 + ft__l30;
                                    if (k_1 < m) {
                                        tape_t_ftk[i * m + k_1] = t[k_1];
                                        t[k_1] = t[k_1] / t_2;
                                    }
                                }
                            }
                        }
                        for (int64_t c = 0; c < l; c++) {
                            y[i * l + c] = 0.0f;
                            {
                                float y_r = 0;
                                y_r = 0.0f;
                                for (int64_t j = 0; j < m; j++) {
                                    y_r += t[j] * v[j * l + c];
                                }
                                if (m > 0) {
                                    y[i * l + c] += y_r;
                                }
                            }
                        }
                        tape_t_2[i] = t_2;
                        tape_t_1[i] = t_1;
                    }
                }
            }
ft__end19:;
        }
        free(ft__h23);
    }
    if (ft__err) goto ft__end17;
ft__end17:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_g_fwd(void *const *ft__args)
{
    return g_fwd(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6],
        (float *)ft__args[7]);
}

static void ft__shapes_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = (((n * m) + (n * m)) + n) + n;
}

static void ft__lshapes_g_fwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = (((n * m) + (n * m)) + n) + n;
}

static const char *const ft__shape_g_fwd_3[] = {"n", "l"};
static const char *const ft__shape_g_fwd_4[] = {"m", "l"};
static const char *const ft__shape_g_fwd_5[] = {"m", "l"};
static const char *const ft__shape_g_fwd_6[] = {"n", "l"};
static const char *const ft__shape_g_fwd_7[] = {"n * m + n * m + n + n"};
static const ft_param_desc ft__params_g_fwd[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_3, NULL, 2, ft__shape_g_fwd_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_4, NULL, 2, ft__shape_g_fwd_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_5, NULL, 2, ft__shape_g_fwd_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_fwd_6, NULL, 2, ft__shape_g_fwd_6},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_fwd_7, NULL, 1, ft__shape_g_fwd_7},
};

int g_bwd(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, const float *y, const float *d_y, float *d_q, float *d_k, float *d_v, const void *tape__bytes)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 3, m, 0);
    if (l < 0) return ft__raise(FT_ERR_SIZE, 4, l, 0);
    if (!q && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!k && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!v && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!y && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    if (!d_y && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!d_q && n > 0 && l > 0) return ft__raise(FT_ERR_NULL, 15, 0, 0);
    if (!d_k && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 16, 0, 0);
    if (!d_v && m > 0 && l > 0) return ft__raise(FT_ERR_NULL, 17, 0, 0);
    if (!tape__bytes && ((((n * m) + (n * m)) + n) + n) > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    const float *tape = (const float *)tape__bytes;
    const float *tape_t_ftk = tape + (0);
    const float *tape_dot = tape + (n * m);
    const float *tape_t_1 = tape + ((n * m) + (n * m));
    const float *tape_t_2 = tape + (((n * m) + (n * m)) + n);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    (void)y;
    (void)tape;
    void *ft__h43 = NULL; size_t ft__h43_n = 0;
    void *ft__h44 = NULL; size_t ft__h44_n = 0;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_2 = 0; ad_i0_2 < n; ad_i0_2++) {
            {
                const int64_t ft__n37 = l > 0 ? l : 0;
                const int64_t ft__m37 = ft__n37 & ~(int64_t)7;
                for (int64_t ft__j37 = 0; ft__j37 < ft__m37; ft__j37 += 8) {
                    #pragma omp simd
                    for (int64_t ft__l37 = 0; ft__l37 < 8; ft__l37++) {
                        const int64_t ad_i1 = ft__j37 + ft__l37;
                        d_q[ad_i0_2 * l + ad_i1] = 0.0f;
                    }
                }
                if (ft__n37 & 7) {
                    #pragma omp simd
                    for (int64_t ft__l37 = 0; ft__l37 < 8; ft__l37++) {
                        const int64_t ad_i1 = ft__m37 + ft__l37;
                        if (ad_i1 < l) {
                            d_q[ad_i0_2 * l + ad_i1] = 0.0f;
                        }
                    }
                }
            }
        }
    }
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_3 = 0; ad_i0_3 < m; ad_i0_3++) {
            {
                const int64_t ft__n41 = l > 0 ? l : 0;
                const int64_t ft__m41 = ft__n41 & ~(int64_t)7;
                for (int64_t ft__j41 = 0; ft__j41 < ft__m41; ft__j41 += 8) {
                    #pragma omp simd
                    for (int64_t ft__l41 = 0; ft__l41 < 8; ft__l41++) {
                        const int64_t ad_i1_1 = ft__j41 + ft__l41;
                        d_k[ad_i0_3 * l + ad_i1_1] = 0.0f;
                        d_v[ad_i0_3 * l + ad_i1_1] = 0.0f;
                    }
                }
                if (ft__n41 & 7) {
                    #pragma omp simd
                    for (int64_t ft__l41 = 0; ft__l41 < 8; ft__l41++) {
                        const int64_t ad_i1_1 = ft__m41 + ft__l41;
                        if (ad_i1_1 < l) {
                            d_k[ad_i0_3 * l + ad_i1_1] = 0.0f;
                            d_v[ad_i0_3 * l + ad_i1_1] = 0.0f;
                        }
                    }
                }
            }
        }
    }
    int64_t ft__pn43 = 1;
    ft__pn43 *= (m) > 0 ? (m) : 0;
    ft__pn43 *= (l) > 0 ? (l) : 0;
    if (!ft__grow(&ft__h43, &ft__h43_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn43}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 10, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn43}, sizeof(float)), 0); goto ft__end33; }
    int64_t ft__pn44 = 1;
    ft__pn44 *= (m) > 0 ? (m) : 0;
    ft__pn44 *= (l) > 0 ? (l) : 0;
    if (!ft__grow(&ft__h44, &ft__h44_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn44}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 11, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn44}, sizeof(float)), 0); goto ft__end33; }
    #pragma omp parallel
    {
        void *ft__h46 = NULL; size_t ft__h46_n = 0;
        void *ft__h49 = NULL; size_t ft__h49_n = 0;
        void *ft__h55 = NULL; size_t ft__h55_n = 0;
        float *ft__pv43 = d_v;
        if (ft__thread() > 0) {
            ft__pv43 = (float *)ft__h43 + (ft__thread() - 1) * ft__pn43;
            memset(ft__pv43, 0, sizeof(float) * (size_t)ft__pn43);
        }
        float *ft__pv44 = d_k;
        if (ft__thread() > 0) {
            ft__pv44 = (float *)ft__h44 + (ft__thread() - 1) * ft__pn44;
            memset(ft__pv44, 0, sizeof(float) * (size_t)ft__pn44);
        }
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                if (!ft__grow(&ft__h46, &ft__h46_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end45; }
                float *d_dot = (float *)ft__h46;
                {
                    const int64_t ft__n48 = m > 0 ? m : 0;
                    const int64_t ft__m48 = ft__n48 & ~(int64_t)7;
                    for (int64_t ft__j48 = 0; ft__j48 < ft__m48; ft__j48 += 8) {
                        #pragma omp simd
                        for (int64_t ft__l48 = 0; ft__l48 < 8; ft__l48++) {
                            const int64_t ad_i0_1 = ft__j48 + ft__l48;
                            d_dot[ad_i0_1] = 0.0f;
                        }
                    }
                    if (ft__n48 & 7) {
                        #pragma omp simd
                        for (int64_t ft__l48 = 0; ft__l48 < 8; ft__l48++) {
                            const int64_t ad_i0_1 = ft__m48 + ft__l48;
                            if (ad_i0_1 < m) {
                                d_dot[ad_i0_1] = 0.0f;
                            }
                        }
                    }
                }
                {
                    if (!ft__grow(&ft__h49, &ft__h49_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end45; }
                    float *t = (float *)ft__h49;
                    {
                        float t_1 = 0;
                        t_1 = (-INFINITY);
                        /* L_i_1: */
                        #pragma omp simd reduction(ft__red_max_f32: t_1)
                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                            t_1 = ft__max_f32(t_1, tape_dot[i * m + i_1]);
                        }
                        /* L_k_1: */
                        {
                            const int64_t ft__n52 = m > 0 ? m : 0;
                            const int64_t ft__m52 = ft__n52 & ~(int64_t)7;
                            for (int64_t ft__j52 = 0; ft__j52 < ft__m52; ft__j52 += 8) {
                                #pragma omp simd
                                for (int64_t ft__l52 = 0; ft__l52 < 8; ft__l52++) {
                                    const int64_t k_1 = ft__j52 + ft__l52;
                                    t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                                }
                            }
                            if (ft__n52 & 7) {
                                #pragma omp simd
                                for (int64_t ft__l52 = 0; ft__l52 < 8; ft__l52++) {
                                    const int64_t k_1 = ft__m52 + ft__l52;
                                    if (k_1 < m) {
                                        t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                                    }
                                }
                            }
                        }
                        {
                            float t_2 = 0;
                            t_2 = 0.0f;
                            /* L_i_1_1: */
                            {
                                const int64_t ft__n54 = m > 0 ? m : 0;
                                const int64_t ft__m54 = ft__n54 & ~(int64_t)15;
                                float ft__v54_0_0[8] = {0};
                                float ft__v54_0_1[8] = {0};
                                for (int64_t ft__j54 = 0; ft__j54 < ft__m54; ft__j54 += 16) {
                                    #pragma omp simd
                                    for (int64_t ft__l54 = 0; ft__l54 < 8; ft__l54++) {
                                        const int64_t i_1 = ft__j54 + ft__l54;
                                        ft__v54_0_0[ft__l54] += t[i_1];
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l54 = 0; ft__l54 < 8; ft__l54++) {
                                        const int64_t i_1 = ft__j54 + 8 + ft__l54;
                                        ft__v54_0_1[ft__l54] += t[i_1];
                                    }
                                }
                                if (ft__n54 & 15) {
                                    #pragma omp simd
                                    for (int64_t ft__l54 = 0; ft__l54 < 8; ft__l54++) {
                                        const int64_t i_1 = ft__m54 + ft__l54;
                                        ft__v54_0_0[ft__l54] += i_1 < m ? t[i_1] : 0;
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l54 = 0; ft__l54 < 8; ft__l54++) {
                                        const int64_t i_1 = ft__m54 + 8 + ft__l54;
                                        ft__v54_0_1[ft__l54] += i_1 < m ? t[i_1] : 0;
                                    }
                                }
                                #pragma omp simd
                                for (int ft__l54 = 0; ft__l54 < 8; ft__l54++)
                                    ft__v54_0_0[ft__l54] += ft__v54_0_1[ft__l54];
                                #pragma omp simd
                                for (int ft__l54 = 0; ft__l54 < 4; ft__l54++)
                                    ft__v54_0_0[ft__l54] += ft__v54_0_0[ft__l54 + 4];
                                t_2 += (ft__v54_0_0[0] + ft__v54_0_0[2]) + (ft__v54_0_0[1] + ft__v54_0_0[3]);
                            }
                            {
                                if (!ft__grow(&ft__h55, &ft__h55_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 13, (int64_t)ft__nbytes(1, (const int64_t[]){m}, sizeof(float)), 0); goto ft__end45; }
                                float *d_t_ftk = (float *)ft__h55;
                                /* L_k_1_1: */
                                {
                                    const int64_t ft__n57 = m > 0 ? m : 0;
                                    const int64_t ft__m57 = ft__n57 & ~(int64_t)7;
                                    for (int64_t ft__j57 = 0; ft__j57 < ft__m57; ft__j57 += 8) {
                                        #pragma omp simd
                                        for (int64_t ft__l57 = 0; ft__l57 < 8; ft__l57++) {
                                            const int64_t k_1 = ft__j57 + ft__l57;
                                            t[k_1] = t[k_1] / t_2;
                                            d_t_ftk[k_1] = 0.0f;
                                        }
                                    }
                                    if (ft__n57 & 7) {
                                        #pragma omp simd
                                        for (int64_t ft__l57 = 0; ft__l57 < 8; ft__l57++) {
                                            const int64_t k_1 = ft__m57 + ft__l57;
                                            if (k_1 < m) {
                                                t[k_1] = t[k_1] / t_2;
                                                d_t_ftk[k_1] = 0.0f;
                                            }
                                        }
                                    }
                                }
                                {
                                    float d_t_1 = 0;
                                    d_t_1 = 0.0f;
                                    {
                                        float d_t_2 = 0;
                                        d_t_2 = 0.0f;
                                        for (int64_t c = 0; c < l; c++) {
                                            {
                                                float d_y_v = 0;
                                                /* d_y_v_load: */
                                                d_y_v = d_y[i * l + c];
                                                for (int64_t j = 0; j < m; j++) {
                                                    d_t_ftk[j] += d_y_v * v[j * l + c];
                                                    ft__pv43[j * l + c] += t[j] * d_y_v;
                                                }
                                            }
                                        }
                                        {
                                            float tape_t_2_v = 0;
                                            /* tape_t_2_v_load: */
                                            tape_t_2_v = tape_t_2[i];
                                            for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                                t[k_1] = tape_t_ftk[i * m + k_1];
                                                {
                                                    float cse = 0;
                                                    cse = d_t_ftk[k_1] / tape_t_2_v;
                                                    d_t_ftk[k_1] = cse;
                                                    d_t_2 += -(cse * (t[k_1] / tape_t_2_v));
                                                }
                                            }
                                            /* L_i_1_2: */
                                            {
                                                const int64_t ft__n62 = m > 0 ? m : 0;
                                                const int64_t ft__m62 = ft__n62 & ~(int64_t)7;
                                                for (int64_t ft__j62 = 0; ft__j62 < ft__m62; ft__j62 += 8) {
                                                    #pragma omp simd
                                                    for (int64_t ft__l62 = 0; ft__l62 < 8; ft__l62++) {
                                                        const int64_t i_1 = ft__j62 + ft__l62;
                                                        d_t_ftk[i_1] += d_t_2;
                                                    }
                                                }
                                                if (ft__n62 & 7) {
                                                    #pragma omp simd
                                                    for (int64_t ft__l62 = 0; ft__l62 < 8; ft__l62++) {
                                                        const int64_t i_1 = ft__m62 + ft__l62;
                                                        if (i_1 < m) {
                                                            d_t_ftk[i_1] += d_t_2;
                                                        }
                                                    }
                                                }
                                            }
                                            {
                                                float tape_t_1_v = 0;
                                                /* tape_t_1_v_load: */
                                                tape_t_1_v = tape_t_1[i];
                                                /* L_k_1_2: */
                                                #pragma omp simd reduction(+: d_t_1)
                                                for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                                    {
                                                        float ad_adj_3 = 0;
                                                        ad_adj_3 = d_t_ftk[k_1];
                                                        d_t_ftk[k_1] = 0.0f;
                                                        {
                                                            float cse_h1 = 0;
                                                            cse_h1 = ad_adj_3 * expf(tape_dot[i * m + k_1] - tape_t_1_v);
                                                            d_dot[k_1] += cse_h1;
                                                            d_t_1 += -cse_h1;
                                                        }
                                                    }
                                                }
                                                for (int64_t i_1 = m - 1; i_1 > (-1); i_1 += (-1)) {
                                                    if (tape_dot[i * m + i_1] == tape_t_1_v) {
                                                        d_dot[i_1] += d_t_1;
                                                        d_t_1 = 0.0f;
                                                    }
                                                }
                                                for (int64_t j = 0; j < m; j++) {
                                                    {
                                                        float d_t_ftk = 0;
                                                        d_t_ftk = 0.0f;
                                                        d_t_ftk += d_dot[j];
                                                        /* L_c: */
                                                        {
                                                            const int64_t ft__n67 = l > 0 ? l : 0;
                                                            const int64_t ft__m67 = ft__n67 & ~(int64_t)7;
                                                            for (int64_t ft__j67 = 0; ft__j67 < ft__m67; ft__j67 += 8) {
                                                                #pragma omp simd
                                                                for (int64_t ft__l67 = 0; ft__l67 < 8; ft__l67++) {
                                                                    const int64_t c = ft__j67 + ft__l67;
                                                                    d_q[i * l + c] += d_t_ftk * k[j * l + c];
                                                                    ft__pv44[j * l + c] += q[i * l + c] * d_t_ftk;
                                                                }
                                                            }
                                                            if (ft__n67 & 7) {
                                                                #pragma omp simd
                                                                for (int64_t ft__l67 = 0; ft__l67 < 8; ft__l67++) {
                                                                    const int64_t c = ft__m67 + ft__l67;
                                                                    if (c < l) {
                                                                        d_q[i * l + c] += d_t_ftk * k[j * l + c];
                                                                        ft__pv44[j * l + c] += q[i * l + c] * d_t_ftk;
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
                            }
                        }
                    }
                }
            }
ft__end45:;
        }
        const int64_t ft__pt68 = ft__team() - 1;
        if (ft__pt68 > 0) {
            #pragma omp for
            for (int64_t ft__pe68 = 0; ft__pe68 < ft__pn43; ft__pe68++) {
                float ft__ps68 = 0;
                for (int64_t ft__pk68 = 0; ft__pk68 < ft__pt68; ft__pk68++)
                    ft__ps68 += ((const float *)ft__h43)[ft__pk68 * ft__pn43 + ft__pe68];
                d_v[ft__pe68] += ft__ps68;
            }
        }
        const int64_t ft__pt69 = ft__team() - 1;
        if (ft__pt69 > 0) {
            #pragma omp for
            for (int64_t ft__pe69 = 0; ft__pe69 < ft__pn44; ft__pe69++) {
                float ft__ps69 = 0;
                for (int64_t ft__pk69 = 0; ft__pk69 < ft__pt69; ft__pk69++)
                    ft__ps69 += ((const float *)ft__h44)[ft__pk69 * ft__pn44 + ft__pe69];
                d_k[ft__pe69] += ft__ps69;
            }
        }
        free(ft__h46);
        free(ft__h49);
        free(ft__h55);
    }
    if (ft__err) goto ft__end33;
ft__end33:;
    free(ft__h43);
    free(ft__h44);
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
        (const float *)ft__args[6],
        (const float *)ft__args[7],
        (float *)ft__args[8],
        (float *)ft__args[9],
        (float *)ft__args[10],
        (const float *)ft__args[11]);
}

static void ft__shapes_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = n;
    ft__dims[9] = l;
    ft__dims[10] = n;
    ft__dims[11] = l;
    ft__dims[12] = m;
    ft__dims[13] = l;
    ft__dims[14] = m;
    ft__dims[15] = l;
    ft__dims[16] = (((n * m) + (n * m)) + n) + n;
}

static void ft__lshapes_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = n;
    ft__dims[9] = l;
    ft__dims[10] = n;
    ft__dims[11] = l;
    ft__dims[12] = m;
    ft__dims[13] = l;
    ft__dims[14] = m;
    ft__dims[15] = l;
    ft__dims[16] = (((n * m) + (n * m)) + n) + n;
}

static const char *const ft__shape_g_bwd_3[] = {"n", "l"};
static const char *const ft__shape_g_bwd_4[] = {"m", "l"};
static const char *const ft__shape_g_bwd_5[] = {"m", "l"};
static const char *const ft__shape_g_bwd_6[] = {"n", "l"};
static const char *const ft__shape_g_bwd_7[] = {"n", "l"};
static const char *const ft__shape_g_bwd_8[] = {"n", "l"};
static const char *const ft__shape_g_bwd_9[] = {"m", "l"};
static const char *const ft__shape_g_bwd_10[] = {"m", "l"};
static const char *const ft__shape_g_bwd_11[] = {"n * m + n * m + n + n"};
static const ft_param_desc ft__params_g_bwd[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_3, NULL, 2, ft__shape_g_bwd_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_4, NULL, 2, ft__shape_g_bwd_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_5, NULL, 2, ft__shape_g_bwd_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_6, NULL, 2, ft__shape_g_bwd_6},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_7, NULL, 2, ft__shape_g_bwd_7},
    {"d_q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_8, NULL, 2, ft__shape_g_bwd_8},
    {"d_k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_9, NULL, 2, ft__shape_g_bwd_9},
    {"d_v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_10, NULL, 2, ft__shape_g_bwd_10},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_11, NULL, 1, ft__shape_g_bwd_11},
};

int g(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y, const float *d_y, float *d_q, float *d_k, float *d_v)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 3, m, 0);
    if (l < 0) return ft__raise(FT_ERR_SIZE, 4, l, 0);
    /* g_fwd then g_bwd, through a tape on the heap */
    const size_t ft__tb = ft__nbytes(1, (const int64_t[]){(((n * m) + (n * m)) + n) + n}, 4);
    void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;
    if (ft__tb && !ft__tape) return ft__raise(FT_ERR_NOMEM, 18, (int64_t)ft__tb, 0);
    int ft__err = g_fwd(n, m, l, q, k, v, y, ft__tape);
    if (ft__err == FT_OK)
        ft__err = g_bwd(n, m, l, q, k, v, y, d_y, d_q, d_k, d_v, ft__tape);
    free(ft__tape);
    return ft__err;
}

static int ft__call_g(void *const *ft__args)
{
    return g(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (float *)ft__args[6],
        (const float *)ft__args[7],
        (float *)ft__args[8],
        (float *)ft__args[9],
        (float *)ft__args[10]);
}

static void ft__shapes_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = n;
    ft__dims[9] = l;
    ft__dims[10] = n;
    ft__dims[11] = l;
    ft__dims[12] = m;
    ft__dims[13] = l;
    ft__dims[14] = m;
    ft__dims[15] = l;
}

static void ft__lshapes_g(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    const int64_t l = ft__sizes[2]; (void)l;
    ft__dims[0] = n;
    ft__dims[1] = l;
    ft__dims[2] = m;
    ft__dims[3] = l;
    ft__dims[4] = m;
    ft__dims[5] = l;
    ft__dims[6] = n;
    ft__dims[7] = l;
    ft__dims[8] = n;
    ft__dims[9] = l;
    ft__dims[10] = n;
    ft__dims[11] = l;
    ft__dims[12] = m;
    ft__dims[13] = l;
    ft__dims[14] = m;
    ft__dims[15] = l;
}

static const char *const ft__shape_g_3[] = {"n", "l"};
static const char *const ft__shape_g_4[] = {"m", "l"};
static const char *const ft__shape_g_5[] = {"m", "l"};
static const char *const ft__shape_g_6[] = {"n", "l"};
static const char *const ft__shape_g_7[] = {"n", "l"};
static const char *const ft__shape_g_8[] = {"n", "l"};
static const char *const ft__shape_g_9[] = {"m", "l"};
static const char *const ft__shape_g_10[] = {"m", "l"};
static const ft_param_desc ft__params_g[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_3, NULL, 2, ft__shape_g_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_4, NULL, 2, ft__shape_g_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_5, NULL, 2, ft__shape_g_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_6, NULL, 2, ft__shape_g_6},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_7, NULL, 2, ft__shape_g_7},
    {"d_q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_8, NULL, 2, ft__shape_g_8},
    {"d_k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_9, NULL, 2, ft__shape_g_9},
    {"d_v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_10, NULL, 2, ft__shape_g_10},
};

size_t g_tape_bytes(int64_t n, int64_t m, int64_t l)
{
    if (n < 0) return 0;
    if (m < 0) return 0;
    if (l < 0) return 0;
    return (size_t)(((((n * m) + (n * m)) + n) + n) * 4);
}

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:11:13", "out of memory: cannot allocate %0 bytes for local tensor `dot`", {5, 0}},   /* 0 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:17:17", "out of memory: cannot allocate %0 bytes for local tensor `t` in softmax() (stdlib/creation.ft:18:16)", {5, 0}},   /* 1 */
    {FT_ERR_SIZE, "grad_tape_scoped.ft:8:15", "negative size: n = %0", {1, 0}},   /* 2 */
    {FT_ERR_SIZE, "grad_tape_scoped.ft:8:24", "negative size: m = %0", {1, 0}},   /* 3 */
    {FT_ERR_SIZE, "grad_tape_scoped.ft:8:33", "negative size: l = %0", {1, 0}},   /* 4 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:8:42", "null pointer: tensor parameter `q` (f32[n, l]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:8:59", "null pointer: tensor parameter `k` (f32[m, l]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:9:15", "null pointer: tensor parameter `v` (f32[m, l]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:9:32", "null pointer: tensor parameter `y` (f32[n, l]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:8:13", "null pointer: tensor parameter `tape` (f32[n * m + n * m + n + n]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:10:5", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d_v`", {5, 0}},   /* 10 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:10:5", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d_k`", {5, 0}},   /* 11 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:11:13", "out of memory: cannot allocate %0 bytes for local tensor `d_dot`", {5, 0}},   /* 12 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:17:17", "out of memory: cannot allocate %0 bytes for local tensor `d_t` in softmax() (stdlib/creation.ft:18:16)", {5, 0}},   /* 13 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:9:32", "null pointer: tensor parameter `d_y` (f32[n, l]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:8:42", "null pointer: tensor parameter `d_q` (f32[n, l]) is NULL but has elements", {0, 0}},   /* 15 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:8:59", "null pointer: tensor parameter `d_k` (f32[m, l]) is NULL but has elements", {0, 0}},   /* 16 */
    {FT_ERR_NULL, "grad_tape_scoped.ft:9:15", "null pointer: tensor parameter `d_v` (f32[m, l]) is NULL but has elements", {0, 0}},   /* 17 */
    {FT_ERR_NOMEM, "grad_tape_scoped.ft:8:13", "out of memory: cannot allocate %0 bytes for the tape of g", {5, 0}},   /* 18 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 19 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int grad_tape_scoped_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 7, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
    {"g_fwd", 8, ft__params_g_fwd, ft__call_g_fwd, ft__shapes_g_fwd, ft__lshapes_g_fwd},
    {"g_bwd", 12, ft__params_g_bwd, ft__call_g_bwd, ft__shapes_g_bwd, ft__lshapes_g_bwd},
    {"g", 11, ft__params_g, ft__call_g, ft__shapes_g, ft__lshapes_g},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs, 19, ft__sites, ft__last_error
};
