
#include <cublas_v2.h>

static cublasHandle_t ft__cublas(void)
{
    static cublasHandle_t h = [] {
        cublasHandle_t x = NULL;
        return cublasCreate(&x) == CUBLAS_STATUS_SUCCESS ? x : NULL;
    }();
    return h;
}

#ifndef FT__GEMM_CHUNK
#define FT__GEMM_CHUNK 2147483647   /* BLAS's int: rows, columns, depth a call */
#endif
#ifndef FT__GEMM_LD_LIMIT
#define FT__GEMM_LD_LIMIT 2147483647   /* ... and leading dimensions */
#endif
/* C[m, n] = alpha * op(A) @ op(B) + beta * C (row-major; op transposes
 * when ta / tb) through BLAS calls whose sizes fit its int (backend/
 * cg_gemm.c): blocks of C, the depth summed block by block; an operand
 * whose leading dimension does not fit goes one stored row a call.
 * Returns 0, or non-zero when a call failed. */
static int ft__gemm_f32(void *h, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
    const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    const int64_t lim = FT__GEMM_CHUNK, ldl = FT__GEMM_LD_LIMIT;
    const int64_t cm = ldc > ldl || (!ta && lda > ldl) ? 1 : lim;
    const int64_t cn = tb && ldb > ldl ? 1 : lim;
    const int64_t ck = (ta && lda > ldl) || (!tb && ldb > ldl) ? 1 : lim;
    (void)h;
    if (k < 0) k = 0;
    for (int64_t i = 0; i < m; i += cm) {
        const int64_t mi = m - i < cm ? m - i : cm;
        for (int64_t j = 0; j < n; j += cn) {
            const int64_t nj = n - j < cn ? n - j : cn;
            int64_t p = 0;
            do {
                const int64_t kp = k - p < ck ? k - p : ck;
                const float *ap = ta ? a + p * lda + i : a + i * lda + p;
                const float *bp = tb ? b + j * ldb + p : b + p * ldb + j;
                float *cp = c + i * ldc + j;
                const int64_t ra = ta ? mi : kp, rb = tb ? kp : nj;
                const int la = (int)(lda > ldl ? (ra > 1 ? ra : 1) : lda > 1 ? lda : 1);
                const int lb = (int)(ldb > ldl ? (rb > 1 ? rb : 1) : ldb > 1 ? ldb : 1);
                const int lc = (int)(ldc > ldl ? (nj > 1 ? nj : 1) : ldc > 1 ? ldc : 1);
                const float be = p ? (float)1 : beta;
                if (cublasSgemm((cublasHandle_t)h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)nj, (int)mi, (int)kp, &alpha, bp, lb, ap, la, &be, cp, lc) != CUBLAS_STATUS_SUCCESS) return 1;
                p += kp;
            } while (p < k);
        }
    }
    return 0;
}
extern "C" __attribute__((visibility("default"))) int f(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    if (m < 0) return ft__raise(FT_ERR_SIZE, 10, m, 0);
    if (n < 0) return ft__raise(FT_ERR_SIZE, 11, n, 0);
    if (k < 0) return ft__raise(FT_ERR_SIZE, 12, k, 0);
    if (!a && m > 0 && k > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!b && n > 0 && k > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!c && m > 0 && n > 0) return ft__raise(FT_ERR_NULL, 15, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 16, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {4, m, k};
        float *ft__dev_a = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z0, sizeof(float)));
        if (!ft__dev_a) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_a, a, ft__nbytes(3, ft__z0, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {4, n, k};
        float *ft__dev_b = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z1, sizeof(float)));
        if (!ft__dev_b) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_b, b, ft__nbytes(3, ft__z1, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        const int64_t ft__z2[] = {4, m, n};
        float *ft__dev_c = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(3, ft__z2, sizeof(float)));
        if (!ft__dev_c) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        /* Lb: */
        /* as_lib(Lb): c = a @ b^T (cuBLAS) */
        {
            const int64_t ft__e3 = 4;
            for (int64_t q = 0; q < ft__e3; q++) {
                {
                    cublasHandle_t ft__h4 = ft__cublas();
                    if (!ft__h4) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, 0, 0); goto ft__end; }
                    if (ft__gemm_f32(ft__h4, 0, 1, m, n, k, 1, (ft__dev_a + ((int64_t)q * m + (int64_t)0) * k + (int64_t)0), k, (ft__dev_b + ((int64_t)q * n + (int64_t)0) * k + (int64_t)0), k, 0, (ft__dev_c + ((int64_t)q * m + (int64_t)0) * n + (int64_t)0), n)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0); goto ft__end; }
                }
            }
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 8);
        const int64_t ft__z5[] = {4, m, n};
        if (!ft__err && cudaMemcpy(c, ft__dev_c, ft__nbytes(3, ft__z5, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_f(void *const *ft__args)
{
    return f(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const float *)ft__args[3],
        (const float *)ft__args[4],
        (float *)ft__args[5]);
}

static void ft__shapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = 4;
    ft__dims[1] = m;
    ft__dims[2] = k;
    ft__dims[3] = 4;
    ft__dims[4] = n;
    ft__dims[5] = k;
    ft__dims[6] = 4;
    ft__dims[7] = m;
    ft__dims[8] = n;
}

static void ft__lshapes_f(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t m = ft__sizes[0]; (void)m;
    const int64_t n = ft__sizes[1]; (void)n;
    const int64_t k = ft__sizes[2]; (void)k;
    ft__dims[0] = 4;
    ft__dims[1] = m;
    ft__dims[2] = k;
    ft__dims[3] = 4;
    ft__dims[4] = n;
    ft__dims[5] = k;
    ft__dims[6] = 4;
    ft__dims[7] = m;
    ft__dims[8] = n;
}

static const char *const ft__shape_f_3[] = {"4", "m", "k"};
static const char *const ft__shape_f_4[] = {"4", "n", "k"};
static const char *const ft__shape_f_5[] = {"4", "m", "n"};
static const ft_param_desc ft__params_f[] = {
    {"m", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"k", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_3, NULL, 3, ft__shape_f_3},
    {"b", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 3, ft__shape_f_4, NULL, 3, ft__shape_f_4},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 3, ft__shape_f_5, NULL, 3, ft__shape_f_5},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:42", "CUDA runtime failure: cannot allocate the device copy of `a`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:42", "CUDA runtime failure: cannot copy `a` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:62", "CUDA runtime failure: cannot allocate the device copy of `b`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:62", "CUDA runtime failure: cannot copy `b` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:6:15", "CUDA runtime failure: cannot allocate the device copy of `c`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:7:9", "CUDA runtime failure: cannot create a cuBLAS handle", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:7:9", "CUDA runtime failure: a cuBLAS gemm call failed", {0, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:5:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "cuda_as_lib.ft:6:15", "CUDA runtime failure: cannot copy `c` back from the device", {0, 0}},   /* 9 */
    {FT_ERR_SIZE, "cuda_as_lib.ft:5:15", "negative size: m = %0", {1, 0}},   /* 10 */
    {FT_ERR_SIZE, "cuda_as_lib.ft:5:24", "negative size: n = %0", {1, 0}},   /* 11 */
    {FT_ERR_SIZE, "cuda_as_lib.ft:5:33", "negative size: k = %0", {1, 0}},   /* 12 */
    {FT_ERR_NULL, "cuda_as_lib.ft:5:42", "null pointer: tensor parameter `a` (f32[4, m, k]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NULL, "cuda_as_lib.ft:5:62", "null pointer: tensor parameter `b` (f32[4, n, k]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NULL, "cuda_as_lib.ft:6:15", "null pointer: tensor parameter `c` (f32[4, m, n]) is NULL but has elements", {0, 0}},   /* 15 */
    {FT_ERR_NODEVICE, "cuda_as_lib.ft:5:13", "no usable CUDA device", {0, 0}},   /* 16 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 17 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_as_lib_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"f", 6, ft__params_f, ft__call_f, ft__shapes_f, ft__lshapes_f},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 17, ft__sites, ft__last_error
};
