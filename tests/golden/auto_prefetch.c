int gather(int64_t n, int64_t nnz, int64_t f, const int32_t *ptr, const int32_t *idx, const float *x, const float *c, float *y, float *d)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 2, n, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 3, nnz, 0);
    if (f < 0) return ft__raise(FT_ERR_SIZE, 4, f, 0);
    if (!ptr && (n + 1) > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!idx && nnz > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!x && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!c && n > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    if (!y && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!d && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h2 = NULL; size_t ft__h2_n = 0;
    int64_t ft__pn2 = 1;
    ft__pn2 *= (n) > 0 ? (n) : 0;
    ft__pn2 *= (f) > 0 ? (f) : 0;
    if (!ft__grow(&ft__h2, &ft__h2_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn2}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn2}, sizeof(float)), 0); goto ft__end0; }
    #pragma omp parallel
    {
        float *ft__pv2 = d;
        if (ft__thread() > 0) {
            ft__pv2 = (float *)ft__h2 + (ft__thread() - 1) * ft__pn2;
            memset(ft__pv2, 0, sizeof(float) * (size_t)ft__pn2);
        }
        #pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < n; i++) {
            /* L_j: */
            {
                const int64_t ft__n5 = f > 0 ? f : 0;
                const int64_t ft__m5 = ft__n5 & ~(int64_t)7;
                for (int64_t ft__j5 = 0; ft__j5 < ft__m5; ft__j5 += 8) {
                    #pragma omp simd
                    for (int64_t ft__l5 = 0; ft__l5 < 8; ft__l5++) {
                        const int64_t j = ft__j5 + ft__l5;
                        y[i * f + j] = 0.0f;
                    }
                }
                if (ft__n5 & 7) {
                    #pragma omp simd
                    for (int64_t ft__l5 = 0; ft__l5 < 8; ft__l5++) {
                        const int64_t j = ft__m5 + ft__l5;
                        if (j < f) {
                            y[i * f + j] = 0.0f;
                        }
                    }
                }
            }
            /* Lk: */
            {
                const int64_t ft__e6 = ptr[i + 1];
                for (int64_t k = ptr[i]; k < ft__e6; k++) {
                    if (4 * n >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n) {
                        __builtin_prefetch(&c[(int64_t)idx[k + 16]], 0, 3);
                    }
                    if (4 * n * f >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n && (uint64_t)0 < (uint64_t)f) {
                        const uintptr_t ft__pf7 = (uintptr_t)&x[(int64_t)idx[k + 16] * f + 0];
                        const int64_t ft__pb7 = f * 4;
                        const uintptr_t ft__pe7 = ft__pf7 + (uintptr_t)(ft__pb7 < 0 ? 0 : ft__pb7 < 512 ? ft__pb7 : 512);
                        for (uintptr_t ft__pq7 = ft__pf7 & ~(uintptr_t)63; ft__pq7 < ft__pe7; ft__pq7 += 64)
                            __builtin_prefetch((const void *)ft__pq7, 0, 3);
                    }
                    if (4 * n * f >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n && (uint64_t)0 < (uint64_t)f) {
                        const uintptr_t ft__pf8 = (uintptr_t)&ft__pv2[(int64_t)idx[k + 16] * f + 0];
                        const int64_t ft__pb8 = f * 4;
                        const uintptr_t ft__pe8 = ft__pf8 + (uintptr_t)(ft__pb8 < 0 ? 0 : ft__pb8 < 512 ? ft__pb8 : 512);
                        for (uintptr_t ft__pq8 = ft__pf8 & ~(uintptr_t)63; ft__pq8 < ft__pe8; ft__pq8 += 64)
                            __builtin_prefetch((const void *)ft__pq8, 1, 3);
                    }
                    /* L_j_1: */
                    const int32_t ft__ix10 = 0 < f ? idx[k] : 0;
                    if (0 < f) {
                        if ((uint64_t)ft__ix10 >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)ft__ix10, n); goto ft__end3; }
                    }
                    {
                        const int64_t ft__n11 = f > 0 ? f : 0;
                        const int64_t ft__m11 = ft__n11 & ~(int64_t)7;
                        for (int64_t ft__j11 = 0; ft__j11 < ft__m11; ft__j11 += 8) {
                            #pragma omp simd
                            for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                const int64_t j = ft__j11 + ft__l11;
                                y[i * f + j] += c[(int64_t)ft__ix10] * x[(int64_t)ft__ix10 * f + j];
                                ft__pv2[(int64_t)ft__ix10 * f + j] += x[i * f + j];
                            }
                        }
                        if (ft__n11 & 7) {
                            #pragma omp simd
                            for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                const int64_t j = ft__m11 + ft__l11;
                                if (j < f) {
                                    y[i * f + j] += c[(int64_t)ft__ix10] * x[(int64_t)ft__ix10 * f + j];
                                    ft__pv2[(int64_t)ft__ix10 * f + j] += x[i * f + j];
                                }
                            }
                        }
                    }
                }
            }
ft__end3:;
        }
        const int64_t ft__pt12 = ft__team() - 1;
        if (ft__pt12 > 0) {
            #pragma omp for
            for (int64_t ft__pe12 = 0; ft__pe12 < ft__pn2; ft__pe12++) {
                float ft__ps12 = 0;
                for (int64_t ft__pk12 = 0; ft__pk12 < ft__pt12; ft__pk12++)
                    ft__ps12 += ((const float *)ft__h2)[ft__pk12 * ft__pn2 + ft__pe12];
                d[ft__pe12] += ft__ps12;
            }
        }
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    free(ft__h2);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_gather(void *const *ft__args)
{
    return gather(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const int32_t *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (float *)ft__args[7],
        (float *)ft__args[8]);
}

static void ft__shapes_gather(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = n;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = n;
    ft__dims[6] = f;
    ft__dims[7] = n;
    ft__dims[8] = f;
}

static void ft__lshapes_gather(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = n;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = n;
    ft__dims[6] = f;
    ft__dims[7] = n;
    ft__dims[8] = f;
}

static const char *const ft__shape_gather_3[] = {"n + 1"};
static const char *const ft__shape_gather_4[] = {"nnz"};
static const char *const ft__shape_gather_5[] = {"n", "f"};
static const char *const ft__shape_gather_6[] = {"n"};
static const char *const ft__shape_gather_7[] = {"n", "f"};
static const char *const ft__shape_gather_8[] = {"n", "f"};
static const ft_param_desc ft__params_gather[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"f", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"ptr", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_gather_3, NULL, 1, ft__shape_gather_3},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_gather_4, NULL, 1, ft__shape_gather_4},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_gather_5, NULL, 2, ft__shape_gather_5},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_gather_6, NULL, 1, ft__shape_gather_6},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_gather_7, NULL, 2, ft__shape_gather_7},
    {"d", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 2, ft__shape_gather_8, NULL, 2, ft__shape_gather_8},
};

int backwards(int64_t n, int64_t nnz, const int32_t *idx, const float *x, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 12, n, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 13, nnz, 0);
    if (!idx && nnz > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 15, 0, 0);
    if (!s) return ft__raise(FT_ERR_NULL, 16, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    s[0] = 0.0f;
    /* Lb: */
    for (int64_t k = nnz - 1; k > (-1); k += (-1)) {
        if (4 * n >= 65536 && (uint64_t)(k + (-16)) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + (-16)] < (uint64_t)n) {
            __builtin_prefetch(&x[(int64_t)idx[k + (-16)]], 0, 3);
        }
        if ((uint64_t)idx[k] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 11, (int64_t)idx[k], n); goto ft__end13; }
        s[0] = (s[0] * 0.5f) + x[(int64_t)idx[k]];
    }
ft__end13:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_backwards(void *const *ft__args)
{
    return backwards(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_backwards(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    ft__dims[0] = nnz;
    ft__dims[1] = n;
    ft__dims[2] = 1;
}

static void ft__lshapes_backwards(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    ft__dims[0] = nnz;
    ft__dims[1] = n;
    ft__dims[2] = 1;
}

static const char *const ft__shape_backwards_2[] = {"nnz"};
static const char *const ft__shape_backwards_3[] = {"n"};
static const char *const ft__shape_backwards_4[] = {"1"};
static const ft_param_desc ft__params_backwards[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_backwards_2, NULL, 1, ft__shape_backwards_2},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_backwards_3, NULL, 1, ft__shape_backwards_3},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_backwards_4, NULL, 1, ft__shape_backwards_4},
};

int ten(int64_t n, const int32_t *adj, const float *x, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 18, n, 0);
    if (!adj && n > 0) return ft__raise(FT_ERR_NULL, 19, 0, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 20, 0, 0);
    if (!s && n > 0) return ft__raise(FT_ERR_NULL, 21, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            s[i] = 0.0f;
            for (int64_t j = 0; j < 10; j++) {
                if ((uint64_t)adj[i * 10 + j] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 17, (int64_t)adj[i * 10 + j], n); goto ft__end17; }
                s[i] = (s[i] * 0.5f) + x[(int64_t)adj[i * 10 + j]];
            }
ft__end17:;
        }
    }
    if (ft__err) goto ft__end15;
ft__end15:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_ten(void *const *ft__args)
{
    return ten(*(const int64_t *)ft__args[0],
        (const int32_t *)ft__args[1],
        (const float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_ten(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 10;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static void ft__lshapes_ten(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    ft__dims[0] = n;
    ft__dims[1] = 10;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static const char *const ft__shape_ten_1[] = {"n", "10"};
static const char *const ft__shape_ten_2[] = {"n"};
static const char *const ft__shape_ten_3[] = {"n"};
static const ft_param_desc ft__params_ten[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_ten_1, NULL, 2, ft__shape_ten_1},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_ten_2, NULL, 1, ft__shape_ten_2},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_ten_3, NULL, 1, ft__shape_ten_3},
};

int local(int64_t n, int64_t m, const int32_t *idx, const float *x, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 24, n, 0);
    if (m < 0) return ft__raise(FT_ERR_SIZE, 25, m, 0);
    if (!idx && n > 0 && m > 0) return ft__raise(FT_ERR_NULL, 26, 0, 0);
    if (!x && n > 0) return ft__raise(FT_ERR_NULL, 27, 0, 0);
    if (!s && n > 0) return ft__raise(FT_ERR_NULL, 28, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Lo: */
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            s[i] = 0.0f;
            /* Lt: */
            for (int64_t j = 0; j < m; j++) {
                if (4 * n >= 65536 && (uint64_t)0 < (uint64_t)n && (uint64_t)(j + 16) < (uint64_t)m && (uint64_t)(int64_t)idx[0 * m + (j + 16)] < (uint64_t)n) {
                    __builtin_prefetch(&x[(int64_t)idx[0 * m + (j + 16)]], 0, 3);
                }
                {
                    int32_t t[1];
                    t[0] = idx[i * m + j];
                    if ((uint64_t)t[0] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 22, (int64_t)t[0], n); goto ft__end21; }
                    if ((uint64_t)idx[0 * m + j] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 23, (int64_t)idx[0 * m + j], n); goto ft__end21; }
                    s[i] = ((s[i] * 0.5f) + x[(int64_t)t[0]]) + x[(int64_t)idx[0 * m + j]];
                }
            }
ft__end21:;
        }
    }
    if (ft__err) goto ft__end19;
ft__end19:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_local(void *const *ft__args)
{
    return local(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_local(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static void ft__lshapes_local(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t m = ft__sizes[1]; (void)m;
    ft__dims[0] = n;
    ft__dims[1] = m;
    ft__dims[2] = n;
    ft__dims[3] = n;
}

static const char *const ft__shape_local_2[] = {"n", "m"};
static const char *const ft__shape_local_3[] = {"n"};
static const char *const ft__shape_local_4[] = {"n"};
static const ft_param_desc ft__params_local[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_local_2, NULL, 2, ft__shape_local_2},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_local_3, NULL, 1, ft__shape_local_3},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_local_4, NULL, 1, ft__shape_local_4},
};

int rows(int64_t n, int64_t nnz, const int32_t *idx, const float *v, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 30, n, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 31, nnz, 0);
    if (!idx && nnz > 0) return ft__raise(FT_ERR_NULL, 32, 0, 0);
    if (!v && n > 0) return ft__raise(FT_ERR_NULL, 33, 0, 0);
    if (!s) return ft__raise(FT_ERR_NULL, 34, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    s[0] = 0.0f;
    for (int64_t k = 0; k < nnz; k++) {
        if (4 * n * 3 >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n) {
            __builtin_prefetch(&v[(int64_t)idx[k + 16] * 3 + 0], 0, 3);
        }
        if ((uint64_t)idx[k] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 29, (int64_t)idx[k], n); goto ft__end23; }
        s[0] = ((s[0] * 0.5f) + (v[(int64_t)idx[k] * 3 + 0] * v[(int64_t)idx[k] * 3 + 1])) + v[(int64_t)idx[k] * 3 + 2];
    }
ft__end23:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_rows(void *const *ft__args)
{
    return rows(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    ft__dims[0] = nnz;
    ft__dims[1] = n;
    ft__dims[2] = 3;
    ft__dims[3] = 1;
}

static void ft__lshapes_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    ft__dims[0] = nnz;
    ft__dims[1] = n;
    ft__dims[2] = 3;
    ft__dims[3] = 1;
}

static const char *const ft__shape_rows_2[] = {"nnz"};
static const char *const ft__shape_rows_3[] = {"n", "3"};
static const char *const ft__shape_rows_4[] = {"1"};
static const ft_param_desc ft__params_rows[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_rows_2, NULL, 1, ft__shape_rows_2},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_rows_3, NULL, 2, ft__shape_rows_3},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_rows_4, NULL, 1, ft__shape_rows_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "auto_prefetch.ft:18:5", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d`", {5, 0}},   /* 0 */
    {FT_ERR_INDEX, "auto_prefetch.ft:23:30", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of c)", {1, 1}},   /* 1 */
    {FT_ERR_SIZE, "auto_prefetch.ft:16:20", "negative size: n = %0", {1, 0}},   /* 2 */
    {FT_ERR_SIZE, "auto_prefetch.ft:16:29", "negative size: nnz = %0", {1, 0}},   /* 3 */
    {FT_ERR_SIZE, "auto_prefetch.ft:16:40", "negative size: f = %0", {1, 0}},   /* 4 */
    {FT_ERR_NULL, "auto_prefetch.ft:16:49", "null pointer: tensor parameter `ptr` (i32[n + 1]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "auto_prefetch.ft:16:69", "null pointer: tensor parameter `idx` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "auto_prefetch.ft:17:20", "null pointer: tensor parameter `x` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "auto_prefetch.ft:17:37", "null pointer: tensor parameter `c` (f32[n]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NULL, "auto_prefetch.ft:17:51", "null pointer: tensor parameter `y` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NULL, "auto_prefetch.ft:17:69", "null pointer: tensor parameter `d` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_INDEX, "auto_prefetch.ft:29:31", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 11 */
    {FT_ERR_SIZE, "auto_prefetch.ft:26:23", "negative size: n = %0", {1, 0}},   /* 12 */
    {FT_ERR_SIZE, "auto_prefetch.ft:26:32", "negative size: nnz = %0", {1, 0}},   /* 13 */
    {FT_ERR_NULL, "auto_prefetch.ft:26:43", "null pointer: tensor parameter `idx` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NULL, "auto_prefetch.ft:26:61", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 15 */
    {FT_ERR_NULL, "auto_prefetch.ft:26:75", "null pointer: tensor parameter `s` (f32[1]) is NULL but has elements", {0, 0}},   /* 16 */
    {FT_ERR_INDEX, "auto_prefetch.ft:35:35", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 17 */
    {FT_ERR_SIZE, "auto_prefetch.ft:31:17", "negative size: n = %0", {1, 0}},   /* 18 */
    {FT_ERR_NULL, "auto_prefetch.ft:31:26", "null pointer: tensor parameter `adj` (i32[n, 10]) is NULL but has elements", {0, 0}},   /* 19 */
    {FT_ERR_NULL, "auto_prefetch.ft:31:46", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 20 */
    {FT_ERR_NULL, "auto_prefetch.ft:31:60", "null pointer: tensor parameter `s` (f32[n]) is NULL but has elements", {0, 0}},   /* 21 */
    {FT_ERR_INDEX, "auto_prefetch.ft:46:35", "index out of bounds: `t[0]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 22 */
    {FT_ERR_INDEX, "auto_prefetch.ft:40:16", "index out of bounds: `idx[0, j]` = %0 is outside [0, %1) (dimension 0 of x)", {1, 1}},   /* 23 */
    {FT_ERR_SIZE, "auto_prefetch.ft:37:19", "negative size: n = %0", {1, 0}},   /* 24 */
    {FT_ERR_SIZE, "auto_prefetch.ft:37:28", "negative size: m = %0", {1, 0}},   /* 25 */
    {FT_ERR_NULL, "auto_prefetch.ft:37:37", "null pointer: tensor parameter `idx` (i32[n, m]) is NULL but has elements", {0, 0}},   /* 26 */
    {FT_ERR_NULL, "auto_prefetch.ft:37:56", "null pointer: tensor parameter `x` (f32[n]) is NULL but has elements", {0, 0}},   /* 27 */
    {FT_ERR_NULL, "auto_prefetch.ft:37:70", "null pointer: tensor parameter `s` (f32[n]) is NULL but has elements", {0, 0}},   /* 28 */
    {FT_ERR_INDEX, "auto_prefetch.ft:51:31", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of v)", {1, 1}},   /* 29 */
    {FT_ERR_SIZE, "auto_prefetch.ft:48:18", "negative size: n = %0", {1, 0}},   /* 30 */
    {FT_ERR_SIZE, "auto_prefetch.ft:48:27", "negative size: nnz = %0", {1, 0}},   /* 31 */
    {FT_ERR_NULL, "auto_prefetch.ft:48:38", "null pointer: tensor parameter `idx` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 32 */
    {FT_ERR_NULL, "auto_prefetch.ft:48:56", "null pointer: tensor parameter `v` (f32[n, 3]) is NULL but has elements", {0, 0}},   /* 33 */
    {FT_ERR_NULL, "auto_prefetch.ft:48:73", "null pointer: tensor parameter `s` (f32[1]) is NULL but has elements", {0, 0}},   /* 34 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 35 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int auto_prefetch_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"gather", 9, ft__params_gather, ft__call_gather, ft__shapes_gather, ft__lshapes_gather},
    {"backwards", 5, ft__params_backwards, ft__call_backwards, ft__shapes_backwards, ft__lshapes_backwards},
    {"ten", 4, ft__params_ten, ft__call_ten, ft__shapes_ten, ft__lshapes_ten},
    {"local", 5, ft__params_local, ft__call_local, ft__shapes_local, ft__lshapes_local},
    {"rows", 5, ft__params_rows, ft__call_rows, ft__shapes_rows, ft__lshapes_rows},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 5, ft__funcs, 35, ft__sites, ft__last_error
};
