int mesh_scatter(int64_t n, int64_t f, const int32_t *adj, const float *g, float *d, float *s)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 3, n, 0);
    if (f < 0) return ft__raise(FT_ERR_SIZE, 4, f, 0);
    if (!adj && n > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!g && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    if (!d && n > 0 && f > 0) return ft__raise(FT_ERR_NULL, 7, 0, 0);
    if (!s && n > 0) return ft__raise(FT_ERR_NULL, 8, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h2 = NULL; size_t ft__h2_n = 0;
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
        #pragma omp for
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < 3; j++) {
                const int32_t ft__ix6 = 0 < f ? adj[i * 3 + j] : 0;
                if (0 < f) {
                    if ((uint64_t)ft__ix6 >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)ft__ix6, n); goto ft__end3; }
                }
                {
                    const int64_t ft__n7 = f > 0 ? f : 0;
                    const int64_t ft__m7 = ft__n7 & ~(int64_t)7;
                    for (int64_t ft__j7 = 0; ft__j7 < ft__m7; ft__j7 += 8) {
                        #pragma omp simd
                        for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                            const int64_t k = ft__j7 + ft__l7;
                            ft__pv2[(int64_t)ft__ix6 * f + k] += g[i * f + k];
                            ft__pv2[i * f + k] += g[i * f + k] * j;
                        }
                    }
                    if (ft__n7 & 7) {
                        #pragma omp simd
                        for (int64_t ft__l7 = 0; ft__l7 < 8; ft__l7++) {
                            const int64_t k = ft__m7 + ft__l7;
                            if (k < f) {
                                ft__pv2[(int64_t)ft__ix6 * f + k] += g[i * f + k];
                                ft__pv2[i * f + k] += g[i * f + k] * j;
                            }
                        }
                    }
                }
                if ((uint64_t)adj[i * 3 + j] >= (uint64_t)n) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 2, (int64_t)adj[i * 3 + j], n); goto ft__end3; }
                #pragma omp atomic
                s[(int64_t)adj[i * 3 + j]] += 1.0f;
            }
ft__end3:;
        }
        const int64_t ft__pt8 = ft__team() - 1;
        if (ft__pt8 > 0) {
            #pragma omp for
            for (int64_t ft__pe8 = 0; ft__pe8 < ft__pn2; ft__pe8++) {
                float ft__ps8 = 0;
                for (int64_t ft__pk8 = 0; ft__pk8 < ft__pt8; ft__pk8++)
                    ft__ps8 += ((const float *)ft__h2)[ft__pk8 * ft__pn2 + ft__pe8];
                d[ft__pe8] += ft__ps8;
            }
        }
    }
    if (ft__err) goto ft__end0;
ft__end0:;
    free(ft__h2);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_mesh_scatter(void *const *ft__args)
{
    return mesh_scatter(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_mesh_scatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t f = ft__sizes[1]; (void)f;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = f;
    ft__dims[6] = n;
}

static void ft__lshapes_mesh_scatter(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t f = ft__sizes[1]; (void)f;
    ft__dims[0] = n;
    ft__dims[1] = 3;
    ft__dims[2] = n;
    ft__dims[3] = f;
    ft__dims[4] = n;
    ft__dims[5] = f;
    ft__dims[6] = n;
}

static const char *const ft__shape_mesh_scatter_2[] = {"n", "3"};
static const char *const ft__shape_mesh_scatter_3[] = {"n", "f"};
static const char *const ft__shape_mesh_scatter_4[] = {"n", "f"};
static const char *const ft__shape_mesh_scatter_5[] = {"n"};
static const ft_param_desc ft__params_mesh_scatter[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"f", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_mesh_scatter_2, NULL, 2, ft__shape_mesh_scatter_2},
    {"g", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_mesh_scatter_3, NULL, 2, ft__shape_mesh_scatter_3},
    {"d", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 2, ft__shape_mesh_scatter_4, NULL, 2, ft__shape_mesh_scatter_4},
    {"s", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_mesh_scatter_5, NULL, 1, ft__shape_mesh_scatter_5},
};

int backwards(int64_t np, int64_t nf, const int32_t *faces, const float *x, float *dv)
{
    if (np < 0) return ft__raise(FT_ERR_SIZE, 11, np, 0);
    if (nf < 0) return ft__raise(FT_ERR_SIZE, 12, nf, 0);
    if (!faces && nf > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!x && np > 0 && nf > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!dv && nf > 0) return ft__raise(FT_ERR_NULL, 15, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h11 = NULL; size_t ft__h11_n = 0;
    /* Lp: */
    int64_t ft__pn11 = 1;
    ft__pn11 *= (nf) > 0 ? (nf) : 0;
    if (!ft__grow(&ft__h11, &ft__h11_n, ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn11}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, (int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - 1, ft__pn11}, sizeof(float)), 0); goto ft__end9; }
    #pragma omp parallel
    {
        float *ft__pv11 = dv;
        if (ft__thread() > 0) {
            ft__pv11 = (float *)ft__h11 + (ft__thread() - 1) * ft__pn11;
            memset(ft__pv11, 0, sizeof(float) * (size_t)ft__pn11);
        }
        #pragma omp for
        for (int64_t p = 0; p < np; p++) {
            {
                float keep = 0;
                keep = 1.0f;
                for (int64_t f = nf - 1; f > (-1); f += (-1)) {
                    if (4 * nf >= 65536 && (uint64_t)(f + (-16)) < (uint64_t)nf && (uint64_t)(int64_t)faces[f + (-16)] < (uint64_t)nf) {
                        __builtin_prefetch(&ft__pv11[(int64_t)faces[f + (-16)]], 1, 3);
                    }
                    {
                        float x_v = 0;
                        /* x_v_load: */
                        x_v = x[p * nf + f];
                        if ((uint64_t)faces[f] >= (uint64_t)nf) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 10, (int64_t)faces[f], nf); goto ft__end12; }
                        ft__pv11[(int64_t)faces[f]] += keep * x_v;
                        keep *= x_v;
                    }
                }
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
                dv[ft__pe14] += ft__ps14;
            }
        }
    }
    if (ft__err) goto ft__end9;
ft__end9:;
    free(ft__h11);
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
    const int64_t np = ft__sizes[0]; (void)np;
    const int64_t nf = ft__sizes[1]; (void)nf;
    ft__dims[0] = nf;
    ft__dims[1] = np;
    ft__dims[2] = nf;
    ft__dims[3] = nf;
}

static void ft__lshapes_backwards(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t np = ft__sizes[0]; (void)np;
    const int64_t nf = ft__sizes[1]; (void)nf;
    ft__dims[0] = nf;
    ft__dims[1] = np;
    ft__dims[2] = nf;
    ft__dims[3] = nf;
}

static const char *const ft__shape_backwards_2[] = {"nf"};
static const char *const ft__shape_backwards_3[] = {"np", "nf"};
static const char *const ft__shape_backwards_4[] = {"nf"};
static const ft_param_desc ft__params_backwards[] = {
    {"np", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"nf", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"faces", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 1, ft__shape_backwards_2, NULL, 1, ft__shape_backwards_2},
    {"x", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_backwards_3, NULL, 2, ft__shape_backwards_3},
    {"dv", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_backwards_4, NULL, 1, ft__shape_backwards_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "auto_privatize_dense.ft:9:9", "out of memory: cannot allocate %0 bytes for the per-thread copies of `d`", {5, 0}},   /* 0 */
    {FT_ERR_INDEX, "auto_privatize_dense.ft:12:19", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of d)", {1, 1}},   /* 1 */
    {FT_ERR_INDEX, "auto_privatize_dense.ft:14:15", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of s)", {1, 1}},   /* 2 */
    {FT_ERR_SIZE, "auto_privatize_dense.ft:7:26", "negative size: n = %0", {1, 0}},   /* 3 */
    {FT_ERR_SIZE, "auto_privatize_dense.ft:7:35", "negative size: f = %0", {1, 0}},   /* 4 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:7:44", "null pointer: tensor parameter `adj` (i32[n, 3]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:7:63", "null pointer: tensor parameter `g` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:8:26", "null pointer: tensor parameter `d` (f32[n, f]) is NULL but has elements", {0, 0}},   /* 7 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:8:46", "null pointer: tensor parameter `s` (f32[n]) is NULL but has elements", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "auto_privatize_dense.ft:22:9", "out of memory: cannot allocate %0 bytes for the per-thread copies of `dv`", {5, 0}},   /* 9 */
    {FT_ERR_INDEX, "auto_privatize_dense.ft:25:16", "index out of bounds: `faces[f]` = %0 is outside [0, %1) (dimension 0 of dv)", {1, 1}},   /* 10 */
    {FT_ERR_SIZE, "auto_privatize_dense.ft:20:23", "negative size: np = %0", {1, 0}},   /* 11 */
    {FT_ERR_SIZE, "auto_privatize_dense.ft:20:33", "negative size: nf = %0", {1, 0}},   /* 12 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:20:43", "null pointer: tensor parameter `faces` (i32[nf]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:20:62", "null pointer: tensor parameter `x` (f32[np, nf]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NULL, "auto_privatize_dense.ft:21:23", "null pointer: tensor parameter `dv` (f32[nf]) is NULL but has elements", {0, 0}},   /* 15 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 16 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int auto_privatize_dense_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"mesh_scatter", 6, ft__params_mesh_scatter, ft__call_mesh_scatter, ft__shapes_mesh_scatter, ft__lshapes_mesh_scatter},
    {"backwards", 5, ft__params_backwards, ft__call_backwards, ft__shapes_backwards, ft__lshapes_backwards},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 2, ft__funcs, 16, ft__sites, ft__last_error
};
