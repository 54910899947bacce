
static inline float ft__sigmoid_f32(float a) { return (float)(1 / (1 + expf(-a))); }
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
/* Make a region's heap buffer (*cap bytes) hold n bytes: reallocated
 * only to grow (a loop's iterations reuse it); on failure *p is kept
 * (and freed later). */
static inline void *ft__grow(void **p, size_t *cap, size_t n)
{
    if (*p && n <= *cap) return *p;
    void *q = realloc(*p, n ? n : 1);
    if (q) { *p = q; *cap = n; }
    return q;
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

int f(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img)
{
    if (h < 0) return FT_ERR_SIZE;
    if (w < 0) return FT_ERR_SIZE;
    if (n_faces < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    /* Li: */
    #pragma omp parallel
    {
        void *ft__h4 = NULL; size_t ft__h4_n = 0;
        #pragma omp for
        for (int64_t i = 0; i < h; i++) {
            for (int64_t j = 0; j < w; j++) {
                {
                    if (!ft__grow(&ft__h4, &ft__h4_n, ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end2; }
                    float *d = (float *)ft__h4;
                    /* L_f: */
                    #pragma omp simd
                    for (int64_t f = 0; f < n_faces; f++) {
                        d[f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                    }
                    {
                        float s = 0;
                        s = 0.0f;
                        /* L_f_1: */
                        #pragma omp simd reduction(+: s)
                        for (int64_t f = 0; f < n_faces; f++) {
                            s += d[f] * d[f];
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
    return ft__err;
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
    const int64_t h = ft__sizes[0];
    (void)h;
    const int64_t w = ft__sizes[1];
    (void)w;
    const int64_t n_faces = ft__sizes[2];
    (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
}

static const char *const ft__shape_f_3[] = {"n_faces"};
static const char *const ft__shape_f_4[] = {"h", "w"};
static const ft_param_desc ft__params_f[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_f_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_f_4},
};

int g_fwd(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img, void *tape__bytes)
{
    if (h < 0) return FT_ERR_SIZE;
    if (w < 0) return FT_ERR_SIZE;
    if (n_faces < 0) return FT_ERR_SIZE;
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
                #pragma omp simd
                for (int64_t f = 0; f < n_faces; f++) {
                    tape_d[(i * w + j) * n_faces + f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                }
                {
                    float s = 0;
                    s = 0.0f;
                    /* L_f_1: */
                    #pragma omp simd reduction(+: s)
                    for (int64_t f = 0; f < n_faces; f++) {
                        s += tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f];
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
    const int64_t h = ft__sizes[0];
    (void)h;
    const int64_t w = ft__sizes[1];
    (void)w;
    const int64_t n_faces = ft__sizes[2];
    (void)n_faces;
    ft__dims[0] = n_faces;
    ft__dims[1] = h;
    ft__dims[2] = w;
    ft__dims[3] = (h * w) * n_faces;
}

static const char *const ft__shape_g_fwd_3[] = {"n_faces"};
static const char *const ft__shape_g_fwd_4[] = {"h", "w"};
static const char *const ft__shape_g_fwd_5[] = {"h * w * n_faces"};
static const ft_param_desc ft__params_g_fwd[] = {
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_fwd_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_fwd_4},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_fwd_5},
};

int g_bwd(int64_t h, int64_t w, int64_t n_faces, const float *z, const float *img, const float *d_img, float *d_z, const void *tape__bytes)
{
    if (h < 0) return FT_ERR_SIZE;
    if (w < 0) return FT_ERR_SIZE;
    if (n_faces < 0) return FT_ERR_SIZE;
    const float *tape = (const float *)tape__bytes;
    const float *tape_d = tape + (0);
    int ft__err = FT_OK;
    (void)img;
    (void)tape;
    void *ft__h17 = NULL; size_t ft__h17_n = 0;
    #pragma omp parallel
    {
        #pragma omp for
        for (int64_t ad_i0_1 = 0; ad_i0_1 < n_faces; ad_i0_1++) {
            d_z[ad_i0_1] = 0.0f;
        }
    }
    int64_t ft__pn17 = 1;
    ft__pn17 *= (n_faces) > 0 ? (n_faces) : 0;
    if (!ft__grow(&ft__h17, &ft__h17_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn17}, sizeof(float)))) { ft__err = FT_ERR_NOMEM; goto ft__end13; }
    #pragma omp parallel
    {
        void *ft__h20 = NULL; size_t ft__h20_n = 0;
        float *ft__pv17 = d_z;
        if (ft__thread() > 0) {
            ft__pv17 = (float *)ft__h17 + (ft__thread() - 1) * ft__pn17;
            memset(ft__pv17, 0, sizeof(float) * (size_t)ft__pn17);
        }
        #pragma omp for
        for (int64_t i = 0; i < h; i++) {
            for (int64_t j = 0; j < w; j++) {
                {
                    if (!ft__grow(&ft__h20, &ft__h20_n, ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end18; }
                    float *d_d = (float *)ft__h20;
                    #pragma omp simd
                    for (int64_t ad_i0 = 0; ad_i0 < n_faces; ad_i0++) {
                        d_d[ad_i0] = 0.0f;
                    }
                    {
                        float d_s = 0;
                        d_s = 0.0f;
                        d_s += d_img[i * w + j];
                        #pragma omp simd
                        for (int64_t f = 0; f < n_faces; f++) {
                            d_d[f] += d_s * tape_d[(i * w + j) * n_faces + f];
                            d_d[f] += tape_d[(i * w + j) * n_faces + f] * d_s;
                            {
                                float ad_adj_2 = 0;
                                ad_adj_2 = d_d[f];
                                d_d[f] = 0.0f;
                                ft__pv17[f] += ((ad_adj_2 * ft__sigmoid_f32(z[f] * ((float)(i - j)))) * (1.0f - ft__sigmoid_f32(z[f] * ((float)(i - j))))) * ((float)(i - j));
                            }
                        }
                    }
                }
            }
ft__end18:;
        }
        const int64_t ft__pt23 = ft__team() - 1;
        if (ft__pt23 > 0) {
            #pragma omp for
            for (int64_t ft__pe23 = 0; ft__pe23 < ft__pn17; ft__pe23++) {
                float ft__ps23 = 0;
                for (int64_t ft__pk23 = 0; ft__pk23 < ft__pt23; ft__pk23++)
                    ft__ps23 += ((const float *)ft__h17)[ft__pk23 * ft__pn17 + ft__pe23];
                d_z[ft__pe23] += ft__ps23;
            }
        }
        free(ft__h20);
    }
    if (ft__err) goto ft__end13;
ft__end13:;
    free(ft__h17);
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
        (float *)ft__args[6],
        (const float *)ft__args[7]);
}

static void ft__shapes_g_bwd(const int64_t *ft__sizes, int64_t *ft__dims)
{
    const int64_t h = ft__sizes[0];
    (void)h;
    const int64_t w = ft__sizes[1];
    (void)w;
    const int64_t n_faces = ft__sizes[2];
    (void)n_faces;
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
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_4},
    {"d_img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_bwd_5},
    {"d_z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_bwd_6},
    {"tape", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_bwd_7},
};

int g(int64_t h, int64_t w, int64_t n_faces, const float *z, float *img, const float *d_img, float *d_z)
{
    if (h < 0) return FT_ERR_SIZE;
    if (w < 0) return FT_ERR_SIZE;
    if (n_faces < 0) return FT_ERR_SIZE;
    int ft__err = FT_OK;
    void *ft__h25 = NULL; size_t ft__h25_n = 0;
    void *ft__h34 = NULL; size_t ft__h34_n = 0;
    {
        if (!ft__grow(&ft__h25, &ft__h25_n, ft__nbytes(3, (const int64_t[]){h, w, n_faces}, sizeof(float)))) { ft__err = FT_ERR_NOMEM; goto ft__end24; }
        float *tape_d = (float *)ft__h25;
        #pragma omp parallel
        {
            #pragma omp for
            for (int64_t i = 0; i < h; i++) {
                for (int64_t j = 0; j < w; j++) {
                    #pragma omp simd
                    for (int64_t f = 0; f < n_faces; f++) {
                        tape_d[(i * w + j) * n_faces + f] = ft__sigmoid_f32(z[f] * ((float)(i - j)));
                    }
                    {
                        float s = 0;
                        s = 0.0f;
                        #pragma omp simd reduction(+: s)
                        for (int64_t f = 0; f < n_faces; f++) {
                            s += tape_d[(i * w + j) * n_faces + f] * tape_d[(i * w + j) * n_faces + f];
                        }
                        img[i * w + j] = s;
                    }
                }
            }
        }
        #pragma omp parallel
        {
            #pragma omp for
            for (int64_t ad_i0_1 = 0; ad_i0_1 < n_faces; ad_i0_1++) {
                d_z[ad_i0_1] = 0.0f;
            }
        }
        int64_t ft__pn34 = 1;
        ft__pn34 *= (n_faces) > 0 ? (n_faces) : 0;
        if (!ft__grow(&ft__h34, &ft__h34_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn34}, sizeof(float)))) { ft__err = FT_ERR_NOMEM; goto ft__end24; }
        #pragma omp parallel
        {
            void *ft__h37 = NULL; size_t ft__h37_n = 0;
            float *ft__pv34 = d_z;
            if (ft__thread() > 0) {
                ft__pv34 = (float *)ft__h34 + (ft__thread() - 1) * ft__pn34;
                memset(ft__pv34, 0, sizeof(float) * (size_t)ft__pn34);
            }
            #pragma omp for
            for (int64_t i = 0; i < h; i++) {
                for (int64_t j = 0; j < w; j++) {
                    {
                        if (!ft__grow(&ft__h37, &ft__h37_n, ft__nbytes(1, (const int64_t[]){n_faces}, sizeof(float)))) { __atomic_store_n(&ft__err, FT_ERR_NOMEM, __ATOMIC_RELAXED); goto ft__end35; }
                        float *d_d = (float *)ft__h37;
                        #pragma omp simd
                        for (int64_t ad_i0 = 0; ad_i0 < n_faces; ad_i0++) {
                            d_d[ad_i0] = 0.0f;
                        }
                        {
                            float d_s = 0;
                            d_s = 0.0f;
                            d_s += d_img[i * w + j];
                            #pragma omp simd
                            for (int64_t f = 0; f < n_faces; f++) {
                                d_d[f] += d_s * tape_d[(i * w + j) * n_faces + f];
                                d_d[f] += tape_d[(i * w + j) * n_faces + f] * d_s;
                                {
                                    float ad_adj_2 = 0;
                                    ad_adj_2 = d_d[f];
                                    d_d[f] = 0.0f;
                                    ft__pv34[f] += ((ad_adj_2 * ft__sigmoid_f32(z[f] * ((float)(i - j)))) * (1.0f - ft__sigmoid_f32(z[f] * ((float)(i - j))))) * ((float)(i - j));
                                }
                            }
                        }
                    }
                }
ft__end35:;
            }
            const int64_t ft__pt40 = ft__team() - 1;
            if (ft__pt40 > 0) {
                #pragma omp for
                for (int64_t ft__pe40 = 0; ft__pe40 < ft__pn34; ft__pe40++) {
                    float ft__ps40 = 0;
                    for (int64_t ft__pk40 = 0; ft__pk40 < ft__pt40; ft__pk40++)
                        ft__ps40 += ((const float *)ft__h34)[ft__pk40 * ft__pn34 + ft__pe40];
                    d_z[ft__pe40] += ft__ps40;
                }
            }
            free(ft__h37);
        }
        if (ft__err) goto ft__end24;
    }
ft__end24:;
    free(ft__h25);
    free(ft__h34);
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
    const int64_t h = ft__sizes[0];
    (void)h;
    const int64_t w = ft__sizes[1];
    (void)w;
    const int64_t n_faces = ft__sizes[2];
    (void)n_faces;
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
    {"h", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"w", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL},
    {"z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 1, ft__shape_g_3},
    {"img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_g_4},
    {"d_img", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_g_5},
    {"d_z", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_g_6},
};

size_t g_tape_bytes(int64_t h, int64_t w, int64_t n_faces)
{
    if (h < 0) return 0;
    if (w < 0) return 0;
    if (n_faces < 0) return 0;
    return (size_t)(((h * w) * n_faces) * 4);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 5, ft__params_f, ft__call_f, ft__shapes_f},
    {"g_fwd", 6, ft__params_g_fwd, ft__call_g_fwd, ft__shapes_g_fwd},
    {"g_bwd", 8, ft__params_g_bwd, ft__call_g_bwd, ft__shapes_g_bwd},
    {"g", 7, ft__params_g, ft__call_g, ft__shapes_g},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 4, ft__funcs
};
