int csr_scatter(int64_t n, int64_t nnz, int64_t f, const int32_t *ptr, const int32_t *idx, const float *w, const float *g, float *own, float *d, float *e)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 4, n, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 5, nnz, 0);
    if (f < 0) return ft__raise(FT_ERR_SIZE, 6, f, 0);
    if (!ptr && (n + 1) > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!idx && nnz > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    if (!w && nnz > 0) return ft__raise(FT_ERR_NULL, 9, 0, 0);
    if (!g && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    if (!own && n > 0) return ft__raise(FT_ERR_NULL, 11, 0, 0);
    if (!d && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 12, 0, 0);
    if (!e && n > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h2 = NULL; size_t ft__h2_n = 0;
    void *ft__h11 = NULL; size_t ft__h11_n = 0;
    /* Li: */
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
            own[i] = 0.0f;
            {
                const int64_t ft__e4 = ptr[i + 1];
                for (int64_t k = ptr[i]; k < ft__e4; k++) {
                    if (4 * n * f >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n && (uint64_t)0 < (uint64_t)f) {
                        const uintptr_t ft__pf5 = (uintptr_t)&ft__pv2[(int64_t)idx[k + 16] * f + 0];
                        const int64_t ft__pb5 = f * 4;
                        const uintptr_t ft__pe5 = ft__pf5 + (uintptr_t)(ft__pb5 < 0 ? 0 : ft__pb5 < 512 ? ft__pb5 : 512);
                        for (uintptr_t ft__pq5 = ft__pf5 & ~(uintptr_t)63; ft__pq5 < ft__pe5; ft__pq5 += 64)
                            __builtin_prefetch((const void *)ft__pq5, 1, 3);
                    }
                    {
                        float w_v = 0;
                        /* w_v_load: */
                        w_v = w[k];
                        own[i] += w_v;
                        /* L_j: */
                        const int32_t ft__ix7 = 0 < f ? idx[k] : 0;
                        if (0 < f) {
                            if ((uint64_t)ft__ix7 >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)ft__ix7, n); goto ft__end3; }
                        }
                        {
                            const int64_t ft__n8 = f > 0 ? f : 0;
                            const int64_t ft__m8 = ft__n8 & ~(int64_t)7;
                            for (int64_t ft__j8 = 0; ft__j8 < ft__m8; ft__j8 += 8) {
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t j = ft__j8 + ft__l8;
                                    ft__pv2[(int64_t)ft__ix7 * f + j] += w_v * g[i * f + j];
                                }
                            }
                            if (ft__n8 & 7) {
                                #pragma omp simd
                                for (int64_t ft__l8 = 0; ft__l8 < 8; ft__l8++) {
                                    const int64_t j = ft__m8 + ft__l8;
                                    if (j < f) {
                                        ft__pv2[(int64_t)ft__ix7 * f + j] += w_v * g[i * f + j];
                                    }
                                }
                            }
                        }
                    }
                }
            }
ft__end3:;
        }
        const int64_t ft__pt9 = ft__team() - 1;
        if (ft__pt9 > 0) {
            #pragma omp for
            for (int64_t ft__pe9 = 0; ft__pe9 < ft__pn2; ft__pe9++) {
                float ft__ps9 = 0;
                for (int64_t ft__pk9 = 0; ft__pk9 < ft__pt9; ft__pk9++)
                    ft__ps9 += ((const float *)ft__h2)[ft__pk9 * ft__pn2 + ft__pe9];
                d[ft__pe9] += ft__ps9;
            }
        }
    }
    if (ft__err) goto ft__end0;
    /* Lj: */
    int64_t ft__pn11 = 1;
    ft__pn11 *= (n) > 0 ? (n) : 0;
    if (!ft__grow(&ft__h11, &ft__h11_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn11}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn11}, sizeof(float)), 0); goto ft__end0; }
    #pragma omp parallel
    {
        float *ft__pv11 = e;
        if (ft__thread() > 0) {
            ft__pv11 = (float *)ft__h11 + (ft__thread() - 1) * ft__pn11;
            memset(ft__pv11, 0, sizeof(float) * (size_t)ft__pn11);
        }
        #pragma omp for
        for (int64_t j = 0; j < f; j++) {
            for (int64_t k = 0; k < nnz; k++) {
                if (4 * n >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n) {
                    __builtin_prefetch(&ft__pv11[(int64_t)idx[k + 16]], 1, 3);
                }
                if ((uint64_t)idx[k] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 3, (int64_t)idx[k], n); goto ft__end12; }
                ft__pv11[(int64_t)idx[k]] += w[k] * g[0 * f + j];
            }
ft__end12:;
        }
        const int64_t ft__pt14 = ft__team() - 1;
        if (ft__pt14 > 0) {
            #pragma omp for
            for (int64_t ft__pe14 = 0; ft__pe14 < ft__pn11; ft__pe14++) {
                float ft__ps14 = 0;
                for (int64_t ft__pk14 = 0; ft__pk14 < ft__pt14; ft__pk14++)
                    ft__ps14 += ((const float *)ft__h11)[ft__pk14 * ft__pn11 + ft__pe14];
                e[ft__pe14] += ft__ps14;
            }
        }
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    free(ft__h2);
    free(ft__h11);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_csr_scatter(void *const *ft__args)
{
    return csr_scatter(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const int32_t *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (float *)ft__args[7],
        (float *)ft__args[8],
        (float *)ft__args[9]);
}

static void ft__shapes_csr_scatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = n;
    ft__dims[4] = f;
    ft__dims[5] = n;
    ft__dims[6] = n;
    ft__dims[7] = f;
    ft__dims[8] = n;
}

static void ft__lshapes_csr_scatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = n;
    ft__dims[4] = f;
    ft__dims[5] = n;
    ft__dims[6] = n;
    ft__dims[7] = f;
    ft__dims[8] = n;
}

static const char *const ft__shape_csr_scatter_3[] = {"n + 1"};
static const char *const ft__shape_csr_scatter_4[] = {"nnz"};
static const char *const ft__shape_csr_scatter_5[] = {"nnz"};
static const char *const ft__shape_csr_scatter_6[] = {"n", "f"};
static const char *const ft__shape_csr_scatter_7[] = {"n"};
static const char *const ft__shape_csr_scatter_8[] = {"n", "f"};
static const char *const ft__shape_csr_scatter_9[] = {"n"};
static const ft_param_desc ft__params_csr_scatter[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"f", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"ptr", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_3, NULL, 1, ft__shape_csr_scatter_3},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_4, NULL, 1, ft__shape_csr_scatter_4},
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_csr_scatter_5, NULL, 1, ft__shape_csr_scatter_5},
    {"g", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_csr_scatter_6, NULL, 2, ft__shape_csr_scatter_6},
    {"own", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_csr_scatter_7, NULL, 1, ft__shape_csr_scatter_7},
    {"d", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 2, ft__shape_csr_scatter_8, NULL, 2, ft__shape_csr_scatter_8},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_csr_scatter_9, NULL, 1, ft__shape_csr_scatter_9},
};

int csr_scale(int64_t n, int64_t nnz, int64_t f, const int32_t *ptr, const int32_t *idx, const float *w, const float *g, float *d, float *m)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 16, n, 0);
    if (nnz < 0) return ft__raise(FT_ERR_SIZE, 17, nnz, 0);
    if (f < 0) return ft__raise(FT_ERR_SIZE, 18, f, 0);
    if (!ptr && (n + 1) > 0) return ft__raise(FT_ERR_NULL, 19, 0, 0);
    if (!idx && nnz > 0) return ft__raise(FT_ERR_NULL, 20, 0, 0);
    if (!w && nnz > 0) return ft__raise(FT_ERR_NULL, 21, 0, 0);
    if (!g && f > 0) return ft__raise(FT_ERR_NULL, 22, 0, 0);
    if (!d && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 23, 0, 0);
    if (!m && n > 0) return ft__raise(FT_ERR_NULL, 24, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Li: */
    #pragma omp parallel
    {
        #pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < n; i++) {
            {
                const int64_t ft__e18 = ptr[i + 1];
                for (int64_t k = ptr[i]; k < ft__e18; k++) {
                    if (4 * n * f >= 65536 && (uint64_t)(k + 16) < (uint64_t)nnz && (uint64_t)(int64_t)idx[k + 16] < (uint64_t)n && (uint64_t)0 < (uint64_t)f) {
                        const uintptr_t ft__pf19 = (uintptr_t)&d[(int64_t)idx[k + 16] * f + 0];
                        const int64_t ft__pb19 = f * 4;
                        const uintptr_t ft__pe19 = ft__pf19 + (uintptr_t)(ft__pb19 < 0 ? 0 : ft__pb19 < 512 ? ft__pb19 : 512);
                        for (uintptr_t ft__pq19 = ft__pf19 & ~(uintptr_t)63; ft__pq19 < ft__pe19; ft__pq19 += 64)
                            __builtin_prefetch((const void *)ft__pq19, 1, 3);
                    }
                    /* L_j: */
                    const int32_t ft__ix21 = 0 < f ? idx[k] : 0;
                    if (0 < f) {
                        if ((uint64_t)ft__ix21 >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 14, (int64_t)ft__ix21, n); goto ft__end17; }
                    }
                    /* vectorize: no `omp simd`, the body has atomic updates */
                    for (int64_t j = 0; j < f; j++) {
                        #pragma omp atomic
                        d[(int64_t)ft__ix21 * f + j] *= w[k];
                    }
                }
            }
ft__end17:;
        }
    }
    if (ft__err) goto ft__end15;
    /* Lm: */
    for (int64_t j = 0; j < f; j++) {
        {
            float g_v = 0;
            /* g_v_load: */
            g_v = g[j];
            /* L_k: */
            #pragma omp parallel
            {
                #pragma omp for
                for (int64_t k = 0; k < nnz; k++) {
                    if ((uint64_t)idx[k] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 15, (int64_t)idx[k], n); goto ft__end24; }
                    ft__atomic_max_f32(&m[(int64_t)idx[k]], w[k] * g_v);
ft__end24:;
                }
            }
            if (ft__err) goto ft__end15;
        }
    }
ft__end15:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_csr_scale(void *const *ft__args)
{
    return csr_scale(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const int32_t *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (float *)ft__args[7],
        (float *)ft__args[8]);
}

static void ft__shapes_csr_scale(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = f;
    ft__dims[6] = n;
}

static void ft__lshapes_csr_scale(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t nnz = ft__sizes[1]; (void)nnz;
    const int64_t f = ft__sizes[2]; (void)f;
    ft__dims[0] = n + 1;
    ft__dims[1] = nnz;
    ft__dims[2] = nnz;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = f;
    ft__dims[6] = n;
}

static const char *const ft__shape_csr_scale_3[] = {"n + 1"};
static const char *const ft__shape_csr_scale_4[] = {"nnz"};
static const char *const ft__shape_csr_scale_5[] = {"nnz"};
static const char *const ft__shape_csr_scale_6[] = {"f"};
static const char *const ft__shape_csr_scale_7[] = {"n", "f"};
static const char *const ft__shape_csr_scale_8[] = {"n"};
static const ft_param_desc ft__params_csr_scale[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nnz", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"f", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"ptr", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scale_3, NULL, 1, ft__shape_csr_scale_3},
    {"idx", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_csr_scale_4, NULL, 1, ft__shape_csr_scale_4},
    {"w", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_csr_scale_5, NULL, 1, ft__shape_csr_scale_5},
    {"g", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_csr_scale_6, NULL, 1, ft__shape_csr_scale_6},
    {"d", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 2, ft__shape_csr_scale_7, NULL, 2, ft__shape_csr_scale_7},
    {"m", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_csr_scale_8, NULL, 1, ft__shape_csr_scale_8},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "auto_parallelize_csr_atomic.ft:21:9", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d`", {5, 0}},   /* 0 */
    {FT_ERR_INDEX, "auto_parallelize_csr_atomic.ft:26:19", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of d)", {1, 1}},   /* 1 */
    {FT_ERR_NOMEM, "auto_parallelize_csr_atomic.ft:27:9", "out of memory: cannot allocate %0 bytes for the per-thread copies of `e`", {5, 0}},   /* 2 */
    {FT_ERR_INDEX, "auto_parallelize_csr_atomic.ft:29:15", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 3 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:17:25", "negative size: n = %0", {1, 0}},   /* 4 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:17:34", "negative size: nnz = %0", {1, 0}},   /* 5 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:17:45", "negative size: f = %0", {1, 0}},   /* 6 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:18:25", "null pointer: tensor parameter `ptr` (i32[n + 1]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:18:45", "null pointer: tensor parameter `idx` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:19:25", "null pointer: tensor parameter `w` (f32[nnz]) is NULL but has elements", {0, 0}},   /* 9 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:19:41", "null pointer: tensor parameter `g` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:20:25", "null pointer: tensor parameter `own` (f32[n]) is NULL but has elements", {0, 0}},   /* 11 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:20:42", "null pointer: tensor parameter `d` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 12 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:20:62", "null pointer: tensor parameter `e` (f32[n]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_INDEX, "auto_parallelize_csr_atomic.ft:38:19", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of d)", {1, 1}},   /* 14 */
    {FT_ERR_INDEX, "auto_parallelize_csr_atomic.ft:41:15", "index out of bounds: `idx[k]` = %0 is outside [0, %1) (dimension 0 of m)", {1, 1}},   /* 15 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:31:23", "negative size: n = %0", {1, 0}},   /* 16 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:31:32", "negative size: nnz = %0", {1, 0}},   /* 17 */
    {FT_ERR_SIZE, "auto_parallelize_csr_atomic.ft:31:43", "negative size: f = %0", {1, 0}},   /* 18 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:32:23", "null pointer: tensor parameter `ptr` (i32[n + 1]) is NULL but has elements", {0, 0}},   /* 19 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:32:43", "null pointer: tensor parameter `idx` (i32[nnz]) is NULL but has elements", {0, 0}},   /* 20 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:33:23", "null pointer: tensor parameter `w` (f32[nnz]) is NULL but has elements", {0, 0}},   /* 21 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:33:39", "null pointer: tensor parameter `g` (f32[f]) is NULL but has elements", {0, 0}},   /* 22 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:33:53", "null pointer: tensor parameter `d` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 23 */
    {FT_ERR_NULL, "auto_parallelize_csr_atomic.ft:34:23", "null pointer: tensor parameter `m` (f32[n]) is NULL but has elements", {0, 0}},   /* 24 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 25 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int auto_parallelize_csr_atomic_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"csr_scatter", 10, ft__params_csr_scatter, ft__call_csr_scatter, ft__shapes_csr_scatter, ft__lshapes_csr_scatter},
    {"csr_scale", 9, ft__params_csr_scale, ft__call_csr_scale, ft__shapes_csr_scale, ft__lshapes_csr_scale},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 2, ft__funcs, 25, ft__sites, ft__last_error
};
