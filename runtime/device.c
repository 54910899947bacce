/* device.c - device memory for `ftc run`: the CUDA runtime, loaded at run
 * time.
 *
 * Requires: nothing at link time.  libcudart is dlopen'ed on first need
 * ("libcudart.so", then versioned names), so ftc and the CPU-only runtime
 * keep working on machines without CUDA; only a call with `@ gpu`
 * parameters needs it.
 * Provides: rt_cuda_open / rt_cuda_close, rt_cuda_alloc / rt_cuda_free,
 * rt_cuda_copy (see rt.h).  Errors name the cause: "no CUDA device: ..."
 * when the runtime cannot be loaded or finds no device.
 *
 * Device pointers from this runtime are valid in the module's kernels:
 * both CUDA runtimes of the process (this one, and the one nvcc linked
 * into the module) use the device's primary context.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* cudaMemcpyKind values (driver_types.h). */
enum { RT_CUDA_H2D = 1, RT_CUDA_D2H = 2 };

struct rt_cuda {
    void *handle;                                        /* dlopen handle */
    int (*get_count)(int *);                             /* cudaGetDeviceCount */
    int (*malloc_)(void **, size_t);                     /* cudaMalloc */
    int (*free_)(void *);                                /* cudaFree */
    int (*memcpy_)(void *, const void *, size_t, int);   /* cudaMemcpy */
    const char *(*errstr)(int);                          /* cudaGetErrorString */
};

/* The text of CUDA error code e. */
static const char *rt_cuda_text(const rt_cuda *cu, int e)
{
    const char *s = cu->errstr ? cu->errstr(e) : NULL;
    return s ? s : "unknown CUDA error";
}

/* dlopen the first CUDA runtime found; the message of the first failure
 * goes to err.  Kept mapped for the process (the runtime registers exit
 * handlers). */
static void *rt_cuda_dlopen(char *err, size_t errlen)
{
    static const char *const names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                        "libcudart.so.11.0"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (h)
            return h;
        if (i == 0) {
            const char *why = dlerror();
            rt_errf(err, errlen, "no CUDA device: cannot load the CUDA runtime "
                         "(%s); install the CUDA toolkit or put libcudart.so on "
                         "LD_LIBRARY_PATH", why ? why : "libcudart.so");
        }
    }
    return NULL;
}

/* Look up symbol name of h into *fn; 0 on success. */
static int rt_cuda_sym(void *h, const char *name, void *fn, size_t size, char *err,
                       size_t errlen)
{
    void *p = dlsym(h, name);
    if (!p) {
        rt_errf(err, errlen, "no CUDA device: the CUDA runtime lacks %s", name);
        return 1;
    }
    memcpy(fn, &p, size);   /* object pointer to function pointer, as POSIX allows */
    return 0;
}

/* Load the CUDA runtime and check that it finds a device.  Returns a
 * caller-owned handle (free with rt_cuda_close) or NULL with a message
 * starting "no CUDA device: ". */
rt_cuda *rt_cuda_open(char *err, size_t errlen)
{
    void *h = rt_cuda_dlopen(err, errlen);
    if (!h)
        return NULL;
    rt_cuda *cu = calloc(1, sizeof *cu);
    if (!cu) {
        rt_errf(err, errlen, "out of memory");
        dlclose(h);
        return NULL;
    }
    cu->handle = h;
    if (rt_cuda_sym(h, "cudaGetDeviceCount", &cu->get_count, sizeof cu->get_count, err,
                    errlen) ||
        rt_cuda_sym(h, "cudaMalloc", &cu->malloc_, sizeof cu->malloc_, err, errlen) ||
        rt_cuda_sym(h, "cudaFree", &cu->free_, sizeof cu->free_, err, errlen) ||
        rt_cuda_sym(h, "cudaMemcpy", &cu->memcpy_, sizeof cu->memcpy_, err, errlen) ||
        rt_cuda_sym(h, "cudaGetErrorString", &cu->errstr, sizeof cu->errstr, err, errlen)) {
        rt_cuda_close(cu);
        return NULL;
    }
    int n = 0, e = cu->get_count(&n);
    if (e != 0 || n <= 0) {
        rt_errf(err, errlen, "no CUDA device: %s", e ? rt_cuda_text(cu, e)
                     : "the CUDA runtime finds none");
        rt_cuda_close(cu);
        return NULL;
    }
    return cu;
}

/* Drop the handle (the library stays mapped); NULL is allowed. */
void rt_cuda_close(rt_cuda *cu)
{
    if (!cu)
        return;
    dlclose(cu->handle);
    free(cu);
}

/* Allocate n bytes (at least 1) of device memory into *out; 0 on success. */
int rt_cuda_alloc(rt_cuda *cu, size_t n, void **out, char *err, size_t errlen)
{
    *out = NULL;
    int e = cu->malloc_(out, n ? n : 1);
    if (e != 0 || !*out) {
        rt_errf(err, errlen, "cannot allocate %zu bytes of device memory: %s", n,
                     rt_cuda_text(cu, e));
        *out = NULL;
        return 1;
    }
    return 0;
}

/* Free device memory from rt_cuda_alloc; NULL is allowed. */
void rt_cuda_free(rt_cuda *cu, void *d)
{
    if (d)
        cu->free_(d);
}

/* Copy n bytes host to device (to_device) or device to host; 0 on success. */
int rt_cuda_copy(rt_cuda *cu, void *dst, const void *src, size_t n, int to_device, char *err,
                 size_t errlen)
{
    if (!n)
        return 0;
    int e = cu->memcpy_(dst, src, n, to_device ? RT_CUDA_H2D : RT_CUDA_D2H);
    if (e != 0) {
        rt_errf(err, errlen, "cannot copy %zu bytes %s the device: %s", n,
                     to_device ? "to" : "from", rt_cuda_text(cu, e));
        return 1;
    }
    return 0;
}
