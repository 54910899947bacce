/* Python's // and %: towards -inf, the sign of the divisor; by 0 gives 0. */
template <typename T> FT_HD T ft__floordiv(T a, T b)
{
    if (b == 0) return 0;
    if (b == -1) return (T)(0 - (uint64_t)a);
    T q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <> FT_HD float ft__floordiv<float>(float a, float b) { return floorf(a / b); }
template <> FT_HD double ft__floordiv<double>(double a, double b) { return floor(a / b); }
template <> FT_HD __half ft__floordiv<__half>(__half a, __half b) { return (__half)floorf((float)a / (float)b); }
template <typename T> FT_HD T ft__mod(T a, T b)
{
    if (b == 0 || b == -1) return 0;
    T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <> FT_HD float ft__mod<float>(float a, float b) { return a - floorf(a / b) * b; }
template <> FT_HD double ft__mod<double>(double a, double b) { return a - floor(a / b) * b; }
template <> FT_HD __half ft__mod<__half>(__half a, __half b) { return (__half)((float)a - floorf((float)a / (float)b) * (float)b); }
/* min and max: a NaN operand makes the result NaN, in either order */
template <typename T> FT_HD T ft__min(T a, T b) { return (a < b || a != a) ? a : b; }
template <typename T> FT_HD T ft__max(T a, T b) { return (a > b || a != a) ? a : b; }
/* Bytes of a dynamic shared local of n elements of elem bytes, rounded up to
 * 16 (the next one's alignment). */
FT_HD size_t ft__dsz(size_t elem, int64_t n) { return ((size_t)n * elem + 15) & ~(size_t)15; }
template <typename T> FT_HD T ft__abs(T a) { return a < 0 ? (T)(0 - (uint64_t)a) : a; }
template <typename T> FT_HD T ft__square(T a) { return (T)(a * a); }
template <typename T> FT_HD T ft__sigmoid(T a) { return (T)(1.0 / (1.0 + exp(-(double)a))); }
template <> FT_HD float ft__sigmoid<float>(float a) { return ft__sigmoid_f32(a); }
template <> FT_HD __half ft__sigmoid<__half>(__half a) { return (__half)(1.0f / (1.0f + expf(-(float)a))); }
/* Integer power by squaring; a negative exponent gives 0 unless |a| is 1. */
template <typename T> FT_HD T ft__ipow(T a, T b)
{
    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    uint64_t r = 1, x = (uint64_t)a;
    for (; b; b >>= 1, x *= x) if (b & 1) r *= x;
    return (T)r;
}
/* Iterations of range(b, e, s); 0 for s == 0; unsigned, so that no bounds
 * overflow; more than INT64_MAX counts INT64_MAX (as the C target's). */
FT_HD int64_t ft__trip(int64_t b, int64_t e, int64_t s)
{
    uint64_t n = 0;
    if (s > 0 && e > b) n = ((uint64_t)e - (uint64_t)b - 1) / (uint64_t)s + 1;
    if (s < 0 && b > e) n = ((uint64_t)b - (uint64_t)e - 1) / -(uint64_t)s + 1;
    return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}
/* Bytes of a tensor: negative dims count as 0; SIZE_MAX on overflow. */
FT_HD size_t ft__nbytes(int n, const int64_t *dims, size_t elem)
{
    size_t r = elem;
    for (int k = 0; k < n; k++) {
        size_t d = dims[k] < 0 ? 0 : (size_t)dims[k];
        if (d && r > SIZE_MAX / d) return SIZE_MAX;
        r *= d;
    }
    return r;
}
/* *p = op(*p, v) atomically: compare-and-swap on the element's aligned
 * 64-bit (8-byte types) or 32-bit word (the others; little-endian). */
template <typename T, typename Op> __device__ void ft__atomic_op(T *p, T v, Op op)
{
    if (sizeof(T) == 8) {
        unsigned long long *w = (unsigned long long *)p, old = *w, seen;
        do {
            seen = old;
            T cur, nw;
            memcpy(&cur, &seen, 8);
            nw = op(cur, v);
            unsigned long long bits;
            memcpy(&bits, &nw, 8);
            if (bits == seen) return;
            old = atomicCAS(w, seen, bits);
        } while (old != seen);
        return;
    }
    uintptr_t a = (uintptr_t)p;
    unsigned *w = (unsigned *)(a & ~(uintptr_t)3), shift = (unsigned)(a & 3) * 8;
    unsigned mask = (sizeof(T) == 4 ? 0xffffffffu : ((1u << (8 * sizeof(T))) - 1)) << shift;
    unsigned old = *w, seen;
    do {
        seen = old;
        unsigned bits = seen >> shift, nb = 0;
        T cur, nw;
        memcpy(&cur, &bits, sizeof(T));
        nw = op(cur, v);
        memcpy(&nb, &nw, sizeof(T));
        unsigned n = (seen & ~mask) | ((nb << shift) & mask);
        if (n == seen) return;
        old = atomicCAS(w, seen, n);
    } while (old != seen);
}
struct ft__op_add { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a + b); } };
struct ft__op_mul { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a * b); } };
struct ft__op_min { template <typename T> __device__ T operator()(T a, T b) const { return (a < b || a != a) ? a : b; } };
struct ft__op_max { template <typename T> __device__ T operator()(T a, T b) const { return (a > b || a != a) ? a : b; } };
template <typename T> __device__ void ft__atomic_add(T *p, T v) { ft__atomic_op(p, v, ft__op_add()); }
template <> __device__ void ft__atomic_add<float>(float *p, float v) { atomicAdd(p, v); }
template <> __device__ void ft__atomic_add<double>(double *p, double v) { atomicAdd(p, v); }
template <> __device__ void ft__atomic_add<int32_t>(int32_t *p, int32_t v) { atomicAdd((int *)p, (int)v); }
template <> __device__ void ft__atomic_add<int64_t>(int64_t *p, int64_t v) { atomicAdd((unsigned long long *)p, (unsigned long long)v); }
template <typename T> __device__ void ft__atomic_mul(T *p, T v) { ft__atomic_op(p, v, ft__op_mul()); }
template <typename T> __device__ void ft__atomic_min(T *p, T v) { ft__atomic_op(p, v, ft__op_min()); }
template <typename T> __device__ void ft__atomic_max(T *p, T v) { ft__atomic_op(p, v, ft__op_max()); }
template <> __device__ void ft__atomic_min<int32_t>(int32_t *p, int32_t v) { atomicMin((int *)p, (int)v); }
template <> __device__ void ft__atomic_max<int32_t>(int32_t *p, int32_t v) { atomicMax((int *)p, (int)v); }
template <> __device__ void ft__atomic_min<int64_t>(int64_t *p, int64_t v) { atomicMin((long long *)p, (long long)v); }
template <> __device__ void ft__atomic_max<int64_t>(int64_t *p, int64_t v) { atomicMax((long long *)p, (long long)v); }
/* The identity of reduction op (0 add, 1 mul, 2 min, 3 max) on T. */
template <typename T> struct ft__lim;
template <> struct ft__lim<bool> { static FT_HD bool lo() { return false; } static FT_HD bool hi() { return true; } };
template <> struct ft__lim<int32_t> { static FT_HD int32_t lo() { return INT32_MIN; } static FT_HD int32_t hi() { return INT32_MAX; } };
template <> struct ft__lim<int64_t> { static FT_HD int64_t lo() { return INT64_MIN; } static FT_HD int64_t hi() { return INT64_MAX; } };
template <> struct ft__lim<float> { static FT_HD float lo() { return -INFINITY; } static FT_HD float hi() { return INFINITY; } };
template <> struct ft__lim<double> { static FT_HD double lo() { return -INFINITY; } static FT_HD double hi() { return INFINITY; } };
template <> struct ft__lim<__half> { static FT_HD __half lo() { return (__half)(-INFINITY); } static FT_HD __half hi() { return (__half)INFINITY; } };
template <typename T> FT_HD T ft__red_init(int op)
{
    return op == 0 ? (T)0 : op == 1 ? (T)1 : op == 2 ? ft__lim<T>::hi() : ft__lim<T>::lo();
}
/* v of the lane d above, among the lanes of mask (any type of at most 8 bytes). */
template <typename T> __device__ T ft__shfl_down(unsigned mask, T v, unsigned d)
{
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof(T));
    b = __shfl_down_sync(mask, b, d);
    memcpy(&v, &b, sizeof(T));
    return v;
}
/* Reduce v over the threads of the block with op: a shuffle tree in each
 * warp (lanes past the end of a partial warp take no part), then warp 0
 * reduces the warps' results, passed through scratch (32 slots of shared
 * memory).  Every thread of the block calls it; thread 0 gets the total. */
template <typename T, typename Op> __device__ T ft__block_reduce(T v, Op op, T *scratch)
{
    const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned lane = tid & 31, warp = tid >> 5, nw = (nt + 31) >> 5;
    const unsigned count = nt - warp * 32 < 32 ? nt - warp * 32 : 32;
    const unsigned mask = count == 32 ? 0xffffffffu : (1u << count) - 1;
    for (unsigned d = 16; d; d >>= 1) {
        T o = ft__shfl_down(mask, v, d);
        if (lane + d < count) v = op(v, o);
    }
    if (nw == 1) return v;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nw ? scratch[lane] : v;
        for (unsigned d = 16; d; d >>= 1) {
            T o = ft__shfl_down(0xffffffffu, v, d);
            if (lane + d < nw) v = op(v, o);
        }
    }
    __syncthreads();   /* scratch is free again */
    return v;
}
/* Blocks of `threads` threads covering n iterations (grid-stride beyond). */
FT_HOST unsigned ft__blocks(int64_t n, int threads)
{
    int64_t b = (n + threads - 1) / threads;
    return (unsigned)(b > 1048576 ? 1048576 : b);
}
/* The most threads a block of kernel k can have (1024 at most): its
 * registers decide, e.g. 512 for 117 registers a thread, and a launch of
 * more fails. */
template <typename K> FT_HOST int64_t ft__max_threads(K k)
{
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, k) != cudaSuccess || a.maxThreadsPerBlock < 1) return 1024;
    return a.maxThreadsPerBlock < 1024 ? a.maxThreadsPerBlock : 1024;
}
/* Device malloc's heap (local tensors sized at run time, one for each
 * thread: thousands at once) is 8 MiB by default, which 12,288 threads of
 * 7 locals of 256 bytes exceed.  Its size can only change before the
 * process first launches a kernel that mallocs, so the first launch of
 * one of ours asks for a 16th of the device's memory (at most 4 GiB); when
 * that is refused (another library's kernel malloc'ed first) the heap
 * stays as it is and a failed malloc still reports FT_ERR_NOMEM at the
 * local's line.  Once a process (C++ initialises the static once, also
 * when threads race), for the device current then. */
FT_HOST void ft__heap_reserve(void)
{
    static const bool done = [] {
        size_t now = 0, avail = 0, total = 0;
        if (cudaDeviceGetLimit(&now, cudaLimitMallocHeapSize) == cudaSuccess &&
            cudaMemGetInfo(&avail, &total) == cudaSuccess) {
            size_t want = total / 16 < ((size_t)4 << 30) ? total / 16 : ((size_t)4 << 30);
            if (want > now) cudaDeviceSetLimit(cudaLimitMallocHeapSize, want);
        }
        cudaGetLastError();   /* a refusal is not the next launch's failure */
        return true;
    }();
    (void)done;
}
/* Grid and block sizes from the extents of blockIdx.x..z, threadIdx.x..z,
 * clamped to CUDA's limits and to lim threads a block (bound loops are
 * stride loops: any size works). */
FT_HOST void ft__launch_dims(const int64_t *e, int64_t lim, dim3 *g, dim3 *b)
{
    int64_t c[6];
    for (int k = 0; k < 6; k++) c[k] = e[k] < 1 ? 1 : e[k];
    c[0] = c[0] > 2147483647 ? 2147483647 : c[0];
    c[1] = c[1] > 65535 ? 65535 : c[1];
    c[2] = c[2] > 65535 ? 65535 : c[2];
    c[3] = c[3] > lim ? lim : c[3];
    c[4] = c[4] > lim / c[3] ? lim / c[3] : c[4];
    c[5] = c[5] > lim / (c[3] * c[4]) ? lim / (c[3] * c[4]) : c[5];
    c[5] = c[5] > 64 ? 64 : c[5];
    *g = dim3((unsigned)c[0], (unsigned)c[1], (unsigned)c[2]);
    *b = dim3((unsigned)c[3], (unsigned)c[4], (unsigned)c[5]);
}
/* The device buffers of one call, freed together at its end. */
typedef struct ft__pool_t { void *p[64]; int n; void **more; int nmore, cap; } ft__pool_t;
FT_HOST void *ft__dev_alloc(ft__pool_t *pool, size_t n)
{
    void *d = NULL;
    if (n == SIZE_MAX || cudaMalloc(&d, n ? n : 1) != cudaSuccess) return NULL;
    if (pool->n < 64) { pool->p[pool->n++] = d; return d; }
    if (pool->nmore == pool->cap) {
        int cap = pool->cap ? 2 * pool->cap : 64;
        void **m = (void **)realloc(pool->more, sizeof *m * (size_t)cap);
        if (!m) { cudaFree(d); return NULL; }
        pool->more = m;
        pool->cap = cap;
    }
    pool->more[pool->nmore++] = d;
    return d;
}
/* Free one buffer of the pool now (the end of its scope). */
FT_HOST void ft__dev_free(ft__pool_t *pool, void *d)
{
    for (int i = 0; i < pool->n; i++) if (pool->p[i] == d) { pool->p[i] = NULL; break; }
    for (int i = 0; i < pool->nmore; i++) if (pool->more[i] == d) { pool->more[i] = NULL; break; }
    cudaFree(d);
}
FT_HOST void ft__pool_free(ft__pool_t *pool)
{
    for (int i = 0; i < pool->n; i++) if (pool->p[i]) cudaFree(pool->p[i]);
    for (int i = 0; i < pool->nmore; i++) if (pool->more[i]) cudaFree(pool->more[i]);
    free(pool->more);
}
/* Whether the CUDA runtime finds a device. */
FT_HOST int ft__have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}
/* The device error record of one call, zeroed: int code, int site, then
 * two int64_t values (ft__dfail). */
FT_HOST int ft__err_init(ft__pool_t *pool, int **derr)
{
    *derr = (int *)ft__dev_alloc(pool, 6 * sizeof(int));
    return !*derr || cudaMemset(*derr, 0, 6 * sizeof(int)) != cudaSuccess;
}
/* A failing check of a kernel: the first code stored wins, and its thread
 * then stores its site and values. */
__device__ __forceinline__ void ft__dfail(int *d, int code, int site, int64_t a, int64_t b)
{
    if (atomicCAS(d, 0, code) == 0) {
        d[1] = site;
        ((long long *)d)[1] = (long long)a;
        ((long long *)d)[2] = (long long)b;
    }
}
/* Wait for the device and copy the kernels' first failure into the call's
 * record (ft__fail; site_dev: the site of a failed launch or device). */
FT_HOST void ft__err_fetch(int *derr, int *err, ft_error_rec *r, int site_dev)
{
    int e[6] = {0, 0, 0, 0, 0, 0};
    if (cudaGetLastError() != cudaSuccess ||
        cudaMemcpy(e, derr, sizeof e, cudaMemcpyDeviceToHost) != cudaSuccess) {
        ft__fail(err, r, FT_ERR_NOMEM, site_dev, 0, 0);
        return;
    }
    if (e[0] != FT_OK) {
        long long v[2];
        memcpy(v, e + 2, sizeof v);
        ft__fail(err, r, e[0], e[1], (int64_t)v[0], (int64_t)v[1]);
    }
}
/* end of the prelude */

