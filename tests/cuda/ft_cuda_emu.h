/* ft_cuda_emu.h - just enough of the CUDA runtime to run the CUDA that ftc
 * emits on the CPU (tests/cuda/fake_nvcc), so that CI without a GPU checks
 * the numbers of the CUDA target: host code, copies, kernels, barriers,
 * warp shuffles, atomics.  Device memory is host memory.  A launch runs its blocks one
 * after another; a kernel without __syncthreads runs its threads one after
 * another too, a kernel with barriers runs the threads of a block as
 * std::threads meeting at a generation barrier (__shared__ variables are
 * statics, one instance for the block running; a thread leaving the kernel
 * while others of its block wait at a barrier, or before they reach one,
 * aborts: "barrier divergence", a hang on a GPU); a shuffle is a barrier of
 * the lanes in its mask around an exchange of their values.  Not a model of CUDA's
 * memory consistency or timing: a test of what the code computes.
 */
#ifndef FT_CUDA_EMU_H
#define FT_CUDA_EMU_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

/* f16: stored and computed in float here (not rounded to half). */
struct __half {
    float v;
    __half(double x = 0) : v((float)x) {}
    operator float() const { return v; }
};

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
static thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorNoDevice = 100 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
enum cudaLimit { cudaLimitMallocHeapSize };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
/* Any amount of dynamic shared memory is fine here. */
template <typename F> static inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int)
{
    return cudaSuccess;
}
/* A kernel's limits: $FT_EMU_MAX_THREADS threads a block (1024 unless set),
 * to run the launches of kernels whose registers allow fewer threads. */
struct cudaFuncAttributes { int maxThreadsPerBlock; };
template <typename F> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F)
{
    const char *e = getenv("FT_EMU_MAX_THREADS");
    a->maxThreadsPerBlock = e ? atoi(e) : 1024;
    return cudaSuccess;
}

static inline cudaError_t cudaMalloc(void *p, size_t n)
{
    void *q = malloc(n ? n : 1);
    memcpy(p, &q, sizeof q);
    return q ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind)
{
    memmove(d, s, n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return cudaSuccess; }
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }
/* One device, or none when FT_EMU_NO_DEVICE is set (tests of the error). */
static inline cudaError_t cudaGetDeviceCount(int *n)
{
    *n = getenv("FT_EMU_NO_DEVICE") ? 0 : 1;
    return *n ? cudaSuccess : cudaErrorNoDevice;
}
static inline cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
static inline cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit)
{
    *v = (size_t)8 << 20;
    return cudaSuccess;
}
static inline cudaError_t cudaMemGetInfo(size_t *avail, size_t *total)
{
    *avail = *total = (size_t)16 << 30;
    return cudaSuccess;
}

/* Atomics on host memory (GCC builtins). */
template <typename T> static inline T atomicCAS(T *p, T expect, T desired)
{
    __atomic_compare_exchange_n(p, &expect, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expect;   /* the old value either way */
}
template <typename T, typename F> static inline T ft__emu_rmw(T *p, T v, F f)
{
    T old, nw;
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    do {
        nw = f(old, v);
    } while (!__atomic_compare_exchange(p, &old, &nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}
template <typename T> static inline T atomicAdd(T *p, T v)
{
    return ft__emu_rmw(p, v, [](T a, T b) { return (T)(a + b); });
}
template <typename T> static inline T atomicMin(T *p, T v)
{
    return ft__emu_rmw(p, v, [](T a, T b) { return a < b ? a : b; });
}
template <typename T> static inline T atomicMax(T *p, T v)
{
    return ft__emu_rmw(p, v, [](T a, T b) { return a > b ? a : b; });
}

/* The barrier of the block running (threads of one block only). */
struct ft__emu_barrier {
    std::mutex m;
    std::condition_variable cv;
    unsigned count = 0, n = 1, gen = 0;
    unsigned ended = 0;      /* threads of the block that left the kernel */
    int acc = 0, vote = 0;   /* __syncthreads_or: the OR so far, the last result */
};

/* A thread left the kernel while others of its block wait at a barrier, or
 * reached one after another left: on a GPU the block may hang there (CUDA
 * wants every thread of the block at each __syncthreads).  Stop loudly. */
static inline void ft__emu_divergence(void)
{
    fprintf(stderr, "ft_cuda_emu: barrier divergence in block (%u, %u, %u): a thread left the "
            "kernel while others of its block wait at __syncthreads (a hang on a GPU)\n",
            blockIdx.x, blockIdx.y, blockIdx.z);
    fflush(stderr);
    abort();
}
static ft__emu_barrier ft__emu_bar;

/* The barrier's completion (under its lock): publish the vote, wake all. */
static inline void ft__emu_bar_done(ft__emu_barrier &b)
{
    b.count = 0;
    b.vote = b.acc;
    b.acc = 0;
    b.gen++;
    b.cv.notify_all();
}

/* __syncthreads that also ORs v over the block's threads.  In a kernel
 * run without threads (no barrier in its text) the thread alone votes. */
static inline int __syncthreads_or(int v)
{
    ft__emu_barrier &b = ft__emu_bar;
    std::unique_lock<std::mutex> lk(b.m);
    unsigned g = b.gen;
    if (b.ended && b.n > 1)
        ft__emu_divergence();
    b.acc |= v != 0;
    if (++b.count >= b.n) {
        ft__emu_bar_done(b);
        return b.vote;
    }
    b.cv.wait(lk, [&] { return b.gen != g; });
    return b.vote;
}

static inline void __syncthreads(void)
{
    (void)__syncthreads_or(0);
}

/* The block's dynamic shared memory (extern __shared__, rewritten by
 * fake_nvcc into a pointer to it): one buffer, the blocks run one by one. */
static unsigned char *ft__emu_dsmem;

/* One warp's exchange slots and barrier (warp w: threads 32w..32w+31 of
 * the block, by linear thread index). */
struct ft__emu_warp {
    std::mutex m;
    std::condition_variable cv;
    unsigned count = 0, gen = 0;
    unsigned long long val[32];
};
static ft__emu_warp ft__emu_warps[32];

/* Wait until the n lanes taking part in warp w's exchange arrived. */
static inline void ft__emu_warp_wait(ft__emu_warp &w, unsigned n)
{
    std::unique_lock<std::mutex> lk(w.m);
    unsigned g = w.gen;
    if (++w.count == n) {
        w.count = 0;
        w.gen++;
        w.cv.notify_all();
        return;
    }
    w.cv.wait(lk, [&] { return w.gen != g; });
}

/* v of the lane d above the caller's (the caller's own v when that lane
 * is past the warp or not in mask); every lane of mask calls it. */
static inline unsigned long long __shfl_down_sync(unsigned mask, unsigned long long v, unsigned d)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned lane = tid & 31, n = (unsigned)__builtin_popcount(mask);
    ft__emu_warp &w = ft__emu_warps[tid >> 5];
    {
        std::lock_guard<std::mutex> lk(w.m);
        w.val[lane] = v;
    }
    ft__emu_warp_wait(w, n);
    unsigned long long r = v;
    if (lane + d < 32 && ((mask >> (lane + d)) & 1)) {
        std::lock_guard<std::mutex> lk(w.m);
        r = w.val[lane + d];
    }
    ft__emu_warp_wait(w, n);
    return r;
}

/* Set the indices of the calling thread. */
static inline void ft__emu_set(dim3 g, dim3 bd, dim3 b, dim3 t)
{
    gridDim = g;
    blockDim = bd;
    blockIdx = b;
    threadIdx = t;
}

/* Run kernel k over grid g of blocks b with smem bytes of dynamic shared
 * memory; threaded: barriers inside. */
static inline void ft__emu_launch(dim3 g, dim3 bd, size_t smem, bool threaded,
                                  const std::function<void()> &k)
{
    unsigned nt = bd.x * bd.y * bd.z;
    std::vector<unsigned char> dsmem(smem + 16);
    ft__emu_dsmem = dsmem.data();
    ft__emu_bar.n = 1;
    for (unsigned bz = 0; bz < g.z; bz++)
        for (unsigned by = 0; by < g.y; by++)
            for (unsigned bx = 0; bx < g.x; bx++) {
                dim3 b(bx, by, bz);
                if (!threaded || nt == 1) {
                    for (unsigned t = 0; t < nt; t++) {
                        ft__emu_set(g, bd, b, dim3(t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)));
                        k();
                    }
                    continue;
                }
                ft__emu_bar.n = nt;
                ft__emu_bar.count = 0;
                ft__emu_bar.ended = 0;
                std::vector<std::thread> ts;
                for (unsigned t = 0; t < nt; t++)
                    ts.emplace_back([=, &k] {
                        ft__emu_set(g, bd, b, dim3(t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)));
                        k();
                        /* no other thread of the block may wait at a barrier */
                        std::unique_lock<std::mutex> lk(ft__emu_bar.m);
                        if (ft__emu_bar.count)
                            ft__emu_divergence();
                        ft__emu_bar.ended++;
                    });
                for (auto &th : ts)
                    th.join();
            }
}

/* cuBLAS (as_lib): the column-major gemm of the reference BLAS, on the
 * emulated device memory (host memory); C is not read when beta is 0. */
typedef struct ft__emu_cublas *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;

static inline cublasStatus_t cublasCreate(cublasHandle_t *h)
{
    static int one;
    *h = (cublasHandle_t)(void *)&one;
    return CUBLAS_STATUS_SUCCESS;
}

template <typename T>
static cublasStatus_t ft__emu_gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                   int k, const T *alpha, const T *a, int lda, const T *b,
                                   int ldb, const T *beta, T *c, int ldc)
{
    /* tests/numeric/gemm_chunk_run.py: a cuBLAS whose int holds at most
     * $FT_EMU_BLAS_INT_MAX (sizes) and $FT_EMU_BLAS_LD_MAX (leading
     * dimensions) refuses larger ones, as the real one does past INT_MAX */
    const char *lim_s = getenv("FT_EMU_BLAS_INT_MAX"), *ldl_s = getenv("FT_EMU_BLAS_LD_MAX");
    const long lim = lim_s ? atol(lim_s) : 2147483647L, ldl = ldl_s ? atol(ldl_s) : 2147483647L;
    if (m > lim || n > lim || k > lim || lda > ldl || ldb > ldl || ldc > ldl)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            T s = 0;
            for (int p = 0; p < k; p++)
                s += (ta == CUBLAS_OP_N ? a[i + (int64_t)p * lda] : a[p + (int64_t)i * lda]) *
                     (tb == CUBLAS_OP_N ? b[p + (int64_t)j * ldb] : b[j + (int64_t)p * ldb]);
            T *e = &c[i + (int64_t)j * ldc];
            *e = *alpha * s + (*beta == 0 ? T(0) : *beta * *e);
        }
    return CUBLAS_STATUS_SUCCESS;
}

static inline cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const float *alpha, const float *a, int lda,
                                         const float *b, int ldb, const float *beta, float *c,
                                         int ldc)
{
    return ft__emu_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static inline cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const double *alpha, const double *a, int lda,
                                         const double *b, int ldb, const double *beta,
                                         double *c, int ldc)
{
    return ft__emu_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#endif
