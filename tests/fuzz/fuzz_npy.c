/* fuzz_npy.c - libFuzzer harness (c): the .npy reader (runtime/npy.c).
 *
 * The input is a .npy file's bytes, read through rt_npy_read as `ftc run`
 * reads an argument: the bytes go into a memory file (memfd) read by its
 * /proc/self/fd path, so the reader's own fopen/fseek/fread run.  An array
 * read must be consistent (dtype known, 0 <= ndim <= RT_MAX_DIMS, dims >=
 * 0, nbytes = the element count times the element size, bools 0 or 1); a
 * refusal must say why.  Findings: crashes, sanitizer reports, leaks, an
 * inconsistent array, a refusal without a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with a finding about the array read (libFuzzer keeps the input). */
static void npy_finding(const char *why)
{
    fprintf(stderr, "fz: FINDING: %s\n", why);
    abort();
}

/* Check what an accepted file gave. */
static void npy_check_array(const rt_array *a)
{
    size_t esz = rt_dtype_size(a->dtype);
    if (!esz || a->ndim < 0 || a->ndim > RT_MAX_DIMS || !a->data)
        npy_finding("an array with a bad dtype, rank or no data");
    unsigned __int128 n = esz;
    int empty = 0;                      /* a 0 dimension: no elements at all */
    for (int d = 0; d < a->ndim; d++) {
        if (a->dims[d] < 0)
            npy_finding("a negative dimension");
        empty |= a->dims[d] == 0;
    }
    for (int d = 0; d < a->ndim && !empty; d++) {
        n *= (uint64_t)a->dims[d];
        if (n > (unsigned __int128)SIZE_MAX)
            npy_finding("a byte count past SIZE_MAX accepted");
    }
    if (empty)
        n = 0;
    if (n != a->nbytes)
        npy_finding("nbytes differs from the shape's byte count");
    if (a->dtype == FT_ABI_BOOL)
        for (size_t k = 0; k < a->nbytes; k++)
            if (((const unsigned char *)a->data)[k] > 1)
                npy_finding("a bool other than 0 or 1");
}

/* One run: the bytes as a file, read, checked, freed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz.npy", 0);
    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
        abort();
    char path[64], err[512] = "";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    rt_array a;
    if (rt_npy_read(path, &a, err, sizeof err) == 0)
        npy_check_array(&a);
    else if (!err[0] || a.data)
        npy_finding("a refusal without a message, or with data left");
    rt_array_free(&a);
    close(fd);
    return 0;
}
