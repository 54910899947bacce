
static inline float ft__max_f32(float a, float b) { return a > b ? a : b; }
/* Bytes of a local tensor: negative dims count as 0; SIZE_MAX on overflow. */
static inline size_t ft__nbytes(int n, const int64_t *dims, size_t elem)
{
    size_t r = elem;
    for (int k = 0; k < n; k++) {
        size_t d = dims[k] < 0 ? 0 : (size_t)dims[k];
        if (__builtin_mul_overflow(r, d, &r)) return SIZE_MAX;
    }
    return r;
}
/* A heap buffer of n bytes (free() releases it); one of 4 MiB or more
 * is 2 MiB-aligned, whole 2 MiB pages, and asks for huge pages (fewer
 * page faults and TLB misses). */
#ifdef __linux__
int posix_memalign(void **, size_t, size_t);
int madvise(void *, size_t, int);
#endif
static inline void *ft__alloc(size_t n)
{
#ifdef __linux__
    const size_t huge = (size_t)2 << 20;
    if (n >= 2 * huge && n <= SIZE_MAX - huge) {
        const size_t r = (n + huge - 1) & ~(huge - 1);
        void *q = NULL;
        if (posix_memalign(&q, huge, r) != 0) return NULL;
        madvise(q, r, 14 /* MADV_HUGEPAGE */);
        return q;
    }
#endif
    return malloc(n ? n : 1);
}
/* Make a region's heap buffer (*cap bytes) hold n bytes: replaced only
 * to grow (a loop's iterations reuse it; a new instance of the region
 * starts with undefined contents, so nothing is copied); on failure *p
 * is NULL. */
static inline void *ft__grow(void **p, size_t *cap, size_t n)
{
    if (*p && n <= *cap) return *p;
    free(*p);
    *p = ft__alloc(n);
    *cap = *p ? n : 0;
    return *p;
}
/* The most threads a parallel region gets, this thread's number and
 * its team's size (1, 0, 1 without OpenMP). */
#ifdef _OPENMP
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
static inline int64_t ft__max_threads(void) { return omp_get_max_threads(); }
static inline int64_t ft__thread(void) { return omp_get_thread_num(); }
static inline int64_t ft__team(void) { return omp_get_num_threads(); }
#else
static inline int64_t ft__max_threads(void) { return 1; }
static inline int64_t ft__thread(void) { return 0; }
static inline int64_t ft__team(void) { return 1; }
#endif

int f(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y)
{
    if (n < 0) return FT_ERR_SIZE;
    if (m < 0) return FT_ERR_SIZE;
    if (l < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    #pragma omp parallel
    {
        void *ft__h3 = NULL; size_t ft__h3_n = 0;
        void *ft__h7 = NULL; size_t ft__h7_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                if (!ft__grow(&ft__h3, &ft__h3_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end2; }
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
                    if (!ft__grow(&ft__h7, &ft__h7_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end2; }
                    float *t = (float *)ft__h7;
                    {
                        float t_1 = 0;
                        t_1 = (-INFINITY);
                        /* L_reduce: */
                        #pragma omp simd reduction(max: t_1)
                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                            t_1 = ft__max_f32(t_1, dot[i_1]);
                        }
                        /* L_softmax_exp: */
                        #pragma omp simd
                        for (int64_t k_1 = 0; k_1 < m; k_1++) {
                            t[k_1] = expf(dot[k_1] - t_1);
                        }
                        {
                            float t_2 = 0;
                            t_2 = 0.0f;
                            /* L_reduce_1: */
                            {
                                const int64_t ft__n11 = m > 0 ? m : 0;
                                const int64_t ft__m11 = ft__n11 & ~(int64_t)15;
                                float ft__v11_0_0[8] = {0};
                                float ft__v11_0_1[8] = {0};
                                for (int64_t ft__j11 = 0; ft__j11 < ft__m11; ft__j11 += 16) {
                                    #pragma omp simd
                                    for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                        const int64_t i_1 = ft__j11 + ft__l11;
                                        ft__v11_0_0[ft__l11] += t[i_1];
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                        const int64_t i_1 = ft__j11 + 8 + ft__l11;
                                        ft__v11_0_1[ft__l11] += t[i_1];
                                    }
                                }
                                if (ft__n11 & 15) {
                                    #pragma omp simd
                                    for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                        const int64_t i_1 = ft__m11 + ft__l11;
                                        ft__v11_0_0[ft__l11] += i_1 < m ? t[i_1] : 0;
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l11 = 0; ft__l11 < 8; ft__l11++) {
                                        const int64_t i_1 = ft__m11 + 8 + ft__l11;
                                        ft__v11_0_1[ft__l11] += i_1 < m ? t[i_1] : 0;
                                    }
                                }
                                #pragma omp simd
                                for (int ft__l11 = 0; ft__l11 < 8; ft__l11++)
                                    ft__v11_0_0[ft__l11] += ft__v11_0_1[ft__l11];
                                #pragma omp simd
                                for (int ft__l11 = 0; ft__l11 < 4; ft__l11++)
                                    ft__v11_0_0[ft__l11] += ft__v11_0_0[ft__l11 + 4];
                                t_2 += (ft__v11_0_0[0] + ft__v11_0_0[2]) + (ft__v11_0_0[1] + ft__v11_0_0[3]);
                            }
                            /* L_softmax_div: */
                            #pragma omp simd
                            for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                t[k_1] = t[k_1] / t_2;
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
    return ft__err;
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
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t m = ft__sizes[1];
    (void)m;
    const int64_t l = ft__sizes[2];
    (void)l;
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
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_f_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_6},
};

int g_fwd(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y, void *tape__bytes)
{
    if (n < 0) return FT_ERR_SIZE;
    if (m < 0) return FT_ERR_SIZE;
    if (l < 0) return FT_ERR_SIZE;
    float *tape = (float *)tape__bytes;
    float *tape_t_ftk = tape + (0);
    float *tape_dot = tape + (n * m);
    float *tape_t_1 = tape + ((n * m) + (n * m));
    float *tape_t_2 = tape + (((n * m) + (n * m)) + n);
    int ft__err = FT_OK;
    (void)tape;
    #pragma omp parallel
    {
        void *ft__h21 = NULL; size_t ft__h21_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < m; j++) {
                {
                    float t = 0;
                    t = 0.0f;
                    /* L_c: */
                    {
                        const int64_t ft__n20 = l > 0 ? l : 0;
                        const int64_t ft__m20 = ft__n20 & ~(int64_t)15;
                        float ft__v20_0_0[8] = {0};
                        float ft__v20_0_1[8] = {0};
                        for (int64_t ft__j20 = 0; ft__j20 < ft__m20; ft__j20 += 16) {
                            #pragma omp simd
                            for (int64_t ft__l20 = 0; ft__l20 < 8; ft__l20++) {
                                const int64_t c = ft__j20 + ft__l20;
                                ft__v20_0_0[ft__l20] += q[i * l + c] * k[j * l + c];
                            }
                            #pragma omp simd
                            for (int64_t ft__l20 = 0; ft__l20 < 8; ft__l20++) {
                                const int64_t c = ft__j20 + 8 + ft__l20;
                                ft__v20_0_1[ft__l20] += q[i * l + c] * k[j * l + c];
                            }
                        }
                        if (ft__n20 & 15) {
                            #pragma omp simd
                            for (int64_t ft__l20 = 0; ft__l20 < 8; ft__l20++) {
                                const int64_t c = ft__m20 + ft__l20;
                                ft__v20_0_0[ft__l20] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                            }
                            #pragma omp simd
                            for (int64_t ft__l20 = 0; ft__l20 < 8; ft__l20++) {
                                const int64_t c = ft__m20 + 8 + ft__l20;
                                ft__v20_0_1[ft__l20] += c < l ? (q[i * l + c] * k[j * l + c]) : 0;
                            }
                        }
                        #pragma omp simd
                        for (int ft__l20 = 0; ft__l20 < 8; ft__l20++)
                            ft__v20_0_0[ft__l20] += ft__v20_0_1[ft__l20];
                        #pragma omp simd
                        for (int ft__l20 = 0; ft__l20 < 4; ft__l20++)
                            ft__v20_0_0[ft__l20] += ft__v20_0_0[ft__l20 + 4];
                        t += (ft__v20_0_0[0] + ft__v20_0_0[2]) + (ft__v20_0_0[1] + ft__v20_0_0[3]);
                    }
                    tape_dot[i * m + j] = t;
                }
            }
            {
                if (!ft__grow(&ft__h21, &ft__h21_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end17; }
                float *t = (float *)ft__h21;
                {
                    float t_1 = 0;
                    t_1 = (-INFINITY);
                    /* L_reduce: */
                    #pragma omp simd reduction(max: t_1)
                    for (int64_t i_1 = 0; i_1 < m; i_1++) {
                        t_1 = ft__max_f32(t_1, tape_dot[i * m + i_1]);
                    }
                    /* L_softmax_exp: */
                    #pragma omp simd
                    for (int64_t k_1 = 0; k_1 < m; k_1++) {
                        t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                    }
                    {
                        float t_2 = 0;
                        t_2 = 0.0f;
                        /* L_reduce_1: */
                        {
                            const int64_t ft__n25 = m > 0 ? m : 0;
                            const int64_t ft__m25 = ft__n25 & ~(int64_t)15;
                            float ft__v25_0_0[8] = {0};
                            float ft__v25_0_1[8] = {0};
                            for (int64_t ft__j25 = 0; ft__j25 < ft__m25; ft__j25 += 16) {
                                #pragma omp simd
                                for (int64_t ft__l25 = 0; ft__l25 < 8; ft__l25++) {
                                    const int64_t i_1 = ft__j25 + ft__l25;
                                    ft__v25_0_0[ft__l25] += t[i_1];
                                }
                                #pragma omp simd
                                for (int64_t ft__l25 = 0; ft__l25 < 8; ft__l25++) {
                                    const int64_t i_1 = ft__j25 + 8 + ft__l25;
                                    ft__v25_0_1[ft__l25] += t[i_1];
                                }
                            }
                            if (ft__n25 & 15) {
                                #pragma omp simd
                                for (int64_t ft__l25 = 0; ft__l25 < 8; ft__l25++) {
                                    const int64_t i_1 = ft__m25 + ft__l25;
                                    ft__v25_0_0[ft__l25] += i_1 < m ? t[i_1] : 0;
                                }
                                #pragma omp simd
                                for (int64_t ft__l25 = 0; ft__l25 < 8; ft__l25++) {
                                    const int64_t i_1 = ft__m25 + 8 + ft__l25;
                                    ft__v25_0_1[ft__l25] += i_1 < m ? t[i_1] : 0;
                                }
                            }
                            #pragma omp simd
                            for (int ft__l25 = 0; ft__l25 < 8; ft__l25++)
                                ft__v25_0_0[ft__l25] += ft__v25_0_1[ft__l25];
                            #pragma omp simd
                            for (int ft__l25 = 0; ft__l25 < 4; ft__l25++)
                                ft__v25_0_0[ft__l25] += ft__v25_0_0[ft__l25 + 4];
                            t_2 += (ft__v25_0_0[0] + ft__v25_0_0[2]) + (ft__v25_0_0[1] + ft__v25_0_0[3]);
                        }
                        /* L_softmax_div: */
                        #pragma omp simd
                        for (int64_t k_1 = 0; k_1 < m; k_1++) {
                            tape_t_ftk[i * m + k_1] = t[k_1];
                            t[k_1] = t[k_1] / t_2;
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
ft__end17:;
        }
        free(ft__h21);
    }
    if (ft__err) goto ft__end15;
ft__end15:;
    return ft__err;
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
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t m = ft__sizes[1];
    (void)m;
    const int64_t l = ft__sizes[2];
    (void)l;
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
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_fwd_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_fwd_6},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_fwd_7},
};

int g_bwd(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, const float *y, const float *d_y, float *d_q, float *d_k, float *d_v, const void *tape__bytes)
{
    if (n < 0) return FT_ERR_SIZE;
    if (m < 0) return FT_ERR_SIZE;
    if (l < 0) return FT_ERR_SIZE;
    const float *tape = (const float *)tape__bytes;
    const float *tape_t_ftk = tape + (0);
    const float *tape_dot = tape + (n * m);
    const float *tape_t_1 = tape + ((n * m) + (n * m));
    const float *tape_t_2 = tape + (((n * m) + (n * m)) + n);
    int ft__err = FT_OK;
    (void)y;
    (void)tape;
    void *ft__h37 = NULL; size_t ft__h37_n = 0;
    void *ft__h38 = NULL; size_t ft__h38_n = 0;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_2 = 0; ad_i0_2 < n; ad_i0_2++) {
            #pragma omp simd
            for (int64_t ad_i1 = 0; ad_i1 < l; ad_i1++) {
                d_q[ad_i0_2 * l + ad_i1] = 0.0f;
            }
        }
    }
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_3 = 0; ad_i0_3 < m; ad_i0_3++) {
            #pragma omp simd
            for (int64_t ad_i1_1 = 0; ad_i1_1 < l; ad_i1_1++) {
                d_k[ad_i0_3 * l + ad_i1_1] = 0.0f;
                d_v[ad_i0_3 * l + ad_i1_1] = 0.0f;
            }
        }
    }
    int64_t ft__pn37 = 1;
    ft__pn37 *= (m) > 0 ? (m) : 0;
    ft__pn37 *= (l) > 0 ? (l) : 0;
    if (!ft__grow(&ft__h37, &ft__h37_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn37}, sizeof(float)))) { ft__err = FT_ERR_NOMEM; goto ft__end29; }
    int64_t ft__pn38 = 1;
    ft__pn38 *= (m) > 0 ? (m) : 0;
    ft__pn38 *= (l) > 0 ? (l) : 0;
    if (!ft__grow(&ft__h38, &ft__h38_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn38}, sizeof(float)))) { ft__err = FT_ERR_NOMEM; goto ft__end29; }
    #pragma omp parallel
    {
        void *ft__h40 = NULL; size_t ft__h40_n = 0;
        void *ft__h42 = NULL; size_t ft__h42_n = 0;
        void *ft__h47 = NULL; size_t ft__h47_n = 0;
        float *ft__pv37 = d_v;
        if (ft__thread() > 0) {
            ft__pv37 = (float *)ft__h37 + (ft__thread() - 1) * ft__pn37;
            memset(ft__pv37, 0, sizeof(float) * (size_t)ft__pn37);
        }
        float *ft__pv38 = d_k;
        if (ft__thread() > 0) {
            ft__pv38 = (float *)ft__h38 + (ft__thread() - 1) * ft__pn38;
            memset(ft__pv38, 0, sizeof(float) * (size_t)ft__pn38);
        }
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            {
                if (!ft__grow(&ft__h40, &ft__h40_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end39; }
                float *d_dot = (float *)ft__h40;
                #pragma omp simd
                for (int64_t ad_i0_1 = 0; ad_i0_1 < m; ad_i0_1++) {
                    d_dot[ad_i0_1] = 0.0f;
                }
                {
                    if (!ft__grow(&ft__h42, &ft__h42_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end39; }
                    float *t = (float *)ft__h42;
                    {
                        float t_1 = 0;
                        t_1 = (-INFINITY);
                        /* L_i_1: */
                        #pragma omp simd reduction(max: t_1)
                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                            t_1 = ft__max_f32(t_1, tape_dot[i * m + i_1]);
                        }
                        /* L_k_1: */
                        #pragma omp simd
                        for (int64_t k_1 = 0; k_1 < m; k_1++) {
                            t[k_1] = expf(tape_dot[i * m + k_1] - t_1);
                        }
                        {
                            float t_2 = 0;
                            t_2 = 0.0f;
                            /* L_i_1_1: */
                            {
                                const int64_t ft__n46 = m > 0 ? m : 0;
                                const int64_t ft__m46 = ft__n46 & ~(int64_t)15;
                                float ft__v46_0_0[8] = {0};
                                float ft__v46_0_1[8] = {0};
                                for (int64_t ft__j46 = 0; ft__j46 < ft__m46; ft__j46 += 16) {
                                    #pragma omp simd
                                    for (int64_t ft__l46 = 0; ft__l46 < 8; ft__l46++) {
                                        const int64_t i_1 = ft__j46 + ft__l46;
                                        ft__v46_0_0[ft__l46] += t[i_1];
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l46 = 0; ft__l46 < 8; ft__l46++) {
                                        const int64_t i_1 = ft__j46 + 8 + ft__l46;
                                        ft__v46_0_1[ft__l46] += t[i_1];
                                    }
                                }
                                if (ft__n46 & 15) {
                                    #pragma omp simd
                                    for (int64_t ft__l46 = 0; ft__l46 < 8; ft__l46++) {
                                        const int64_t i_1 = ft__m46 + ft__l46;
                                        ft__v46_0_0[ft__l46] += i_1 < m ? t[i_1] : 0;
                                    }
                                    #pragma omp simd
                                    for (int64_t ft__l46 = 0; ft__l46 < 8; ft__l46++) {
                                        const int64_t i_1 = ft__m46 + 8 + ft__l46;
                                        ft__v46_0_1[ft__l46] += i_1 < m ? t[i_1] : 0;
                                    }
                                }
                                #pragma omp simd
                                for (int ft__l46 = 0; ft__l46 < 8; ft__l46++)
                                    ft__v46_0_0[ft__l46] += ft__v46_0_1[ft__l46];
                                #pragma omp simd
                                for (int ft__l46 = 0; ft__l46 < 4; ft__l46++)
                                    ft__v46_0_0[ft__l46] += ft__v46_0_0[ft__l46 + 4];
                                t_2 += (ft__v46_0_0[0] + ft__v46_0_0[2]) + (ft__v46_0_0[1] + ft__v46_0_0[3]);
                            }
                            {
                                if (!ft__grow(&ft__h47, &ft__h47_n, ft__nbytes(1, (const int64_t[]){m}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end39; }
                                float *d_t_ftk = (float *)ft__h47;
                                /* L_k_1_1: */
                                #pragma omp simd
                                for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                    t[k_1] = t[k_1] / t_2;
                                    d_t_ftk[k_1] = 0.0f;
                                }
                                {
                                    float d_t_1 = 0;
                                    d_t_1 = 0.0f;
                                    {
                                        float d_t_2 = 0;
                                        d_t_2 = 0.0f;
                                        for (int64_t c = 0; c < l; c++) {
                                            for (int64_t j = 0; j < m; j++) {
                                                d_t_ftk[j] += d_y[i * l + c] * v[j * l + c];
                                                ft__pv37[j * l + c] += t[j] * d_y[i * l + c];
                                            }
                                        }
                                        for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                            {
                                                float ad_adj_1 = 0;
                                                ad_adj_1 = d_t_ftk[k_1];
                                                d_t_ftk[k_1] = 0.0f;
                                                t[k_1] = tape_t_ftk[i * m + k_1];
                                                {
                                                    float cse = 0;
                                                    cse = ad_adj_1 / tape_t_2[i];
                                                    d_t_ftk[k_1] += cse;
                                                    d_t_2 += -(cse * (t[k_1] / tape_t_2[i]));
                                                }
                                            }
                                        }
                                        /* L_i_1_2: */
                                        #pragma omp simd
                                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                                            d_t_ftk[i_1] += d_t_2;
                                        }
                                        /* L_k_1_2: */
                                        #pragma omp simd reduction(+: d_t_1)
                                        for (int64_t k_1 = 0; k_1 < m; k_1++) {
                                            {
                                                float ad_adj_3 = 0;
                                                ad_adj_3 = d_t_ftk[k_1];
                                                d_t_ftk[k_1] = 0.0f;
                                                {
                                                    float cse_h1 = 0;
                                                    cse_h1 = ad_adj_3 * expf(tape_dot[i * m + k_1] - tape_t_1[i]);
                                                    d_dot[k_1] += cse_h1;
                                                    d_t_1 += -cse_h1;
                                                }
                                            }
                                        }
                                        /* L_i_1_3: */
                                        #pragma omp simd
                                        for (int64_t i_1 = 0; i_1 < m; i_1++) {
                                            d_dot[i_1] += (tape_dot[i * m + i_1] == tape_t_1[i]) ? d_t_1 : 0.0f;
                                        }
                                        for (int64_t j = 0; j < m; j++) {
                                            {
                                                float d_t_ftk = 0;
                                                d_t_ftk = 0.0f;
                                                {
                                                    float ad_adj_5 = 0;
                                                    ad_adj_5 = d_dot[j];
                                                    d_t_ftk += ad_adj_5;
                                                    /* L_c: */
                                                    #pragma omp simd
                                                    for (int64_t c = 0; c < l; c++) {
                                                        d_q[i * l + c] += d_t_ftk * k[j * l + c];
                                                        ft__pv38[j * l + c] += q[i * l + c] * d_t_ftk;
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
ft__end39:;
        }
        const int64_t ft__pt57 = ft__team() - 1;
        if (ft__pt57 > 0) {
            #pragma omp for
            for (int64_t ft__pe57 = 0; ft__pe57 < ft__pn37; ft__pe57++) {
                float ft__ps57 = 0;
                for (int64_t ft__pk57 = 0; ft__pk57 < ft__pt57; ft__pk57++)
                    ft__ps57 += ((const float *)ft__h37)[ft__pk57 * ft__pn37 + ft__pe57];
                d_v[ft__pe57] += ft__ps57;
            }
        }
        const int64_t ft__pt58 = ft__team() - 1;
        if (ft__pt58 > 0) {
            #pragma omp for
            for (int64_t ft__pe58 = 0; ft__pe58 < ft__pn38; ft__pe58++) {
                float ft__ps58 = 0;
                for (int64_t ft__pk58 = 0; ft__pk58 < ft__pt58; ft__pk58++)
                    ft__ps58 += ((const float *)ft__h38)[ft__pk58 * ft__pn38 + ft__pe58];
                d_k[ft__pe58] += ft__ps58;
            }
        }
        free(ft__h40);
        free(ft__h42);
        free(ft__h47);
    }
    if (ft__err) goto ft__end29;
ft__end29:;
    free(ft__h37);
    free(ft__h38);
    return ft__err;
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
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t m = ft__sizes[1];
    (void)m;
    const int64_t l = ft__sizes[2];
    (void)l;
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
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_6},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_7},
    {"d_q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_8},
    {"d_k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_9},
    {"d_v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_bwd_10},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_11},
};

int g(int64_t n, int64_t m, int64_t l, const float *q, const float *k, const float *v, float *y, const float *d_y, float *d_q, float *d_k, float *d_v)
{
    if (n < 0) return FT_ERR_SIZE;
    if (m < 0) return FT_ERR_SIZE;
    if (l < 0) return FT_ERR_SIZE;
    /* g_fwd then g_bwd, through a tape on the heap */
    const size_t ft__tb = ft__nbytes(1, (const int64_t[]){(((n * m) + (n * m)) + n) + n}, 4);
    void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;
    if (ft__tb && !ft__tape) return FT_ERR_NOMEM;
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
    const int64_t n = ft__sizes[0];
    (void)n;
    const int64_t m = ft__sizes[1];
    (void)m;
    const int64_t l = ft__sizes[2];
    (void)l;
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
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"l", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_3},
    {"k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_4},
    {"v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_5},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_6},
    {"d_y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_7},
    {"d_q", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_8},
    {"d_k", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_9},
    {"d_v", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_10},
};

size_t g_tape_bytes(int64_t n, int64_t m, int64_t l)
{
    if (n < 0) return 0;
    if (m < 0) return 0;
    if (l < 0) return 0;
    return (size_t)(((((n * m) + (n * m)) + n) + n) * 4);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 7, ft__params_f, ft__call_f, ft__shapes_f},
    {"g_fwd", 8, ft__params_g_fwd, ft__call_g_fwd, ft__shapes_g_fwd},
    {"g_bwd", 12, ft__params_g_bwd, ft__call_g_bwd, ft__shapes_g_bwd},
    {"g", 11, ft__params_g, ft__call_g, ft__shapes_g},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs
};
