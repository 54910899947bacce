/* fake_cudart.c - a stand-in libcudart.so for tests of `ftc run` without a
 * GPU (tests/cuda/device_run.py builds it and puts it first on
 * LD_LIBRARY_PATH).
 *
 * FAKE_CUDART_DEVICES: how many devices cudaGetDeviceCount reports (default
 * 0: cudaErrorNoDevice, as the real runtime on a machine without a GPU).
 * "Device" memory is host memory, filled with 0xff bytes when allocated so
 * that data never copied in shows; with FAKE_CUDART_LOG=PATH each copy
 * appends "h2d BYTES" or "d2h BYTES" to PATH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append one line to the copy log, when there is one. */
static void fake_log(const char *what, size_t n)
{
    const char *path = getenv("FAKE_CUDART_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%s %zu\n", what, n);
    fclose(f);
}

/* The number of devices of FAKE_CUDART_DEVICES; 100 (no device) for 0. */
int cudaGetDeviceCount(int *n)
{
    const char *e = getenv("FAKE_CUDART_DEVICES");
    *n = e ? atoi(e) : 0;
    return *n > 0 ? 0 : 100;
}

/* Host memory standing for device memory, 0xff-filled. */
int cudaMalloc(void **p, size_t n)
{
    *p = malloc(n ? n : 1);
    if (!*p)
        return 2;
    memset(*p, 0xff, n);
    return 0;
}

int cudaFree(void *p)
{
    free(p);
    return 0;
}

/* kind 1: host to device, 2: device to host (logged). */
int cudaMemcpy(void *d, const void *s, size_t n, int kind)
{
    memcpy(d, s, n);
    fake_log(kind == 1 ? "h2d" : kind == 2 ? "d2h" : "other", n);
    return 0;
}

const char *cudaGetErrorString(int e)
{
    return e == 100 ? "no CUDA-capable device is detected (fake runtime)" : "fake CUDA error";
}
