/* mm_bench.c - the timing driver of bench/matmul_run: ftc's matmul
 * libraries against OpenBLAS's cblas_sgemm, in one process.
 *
 *     mm_bench M N K ROUNDS DIR NAME=LIB.so ... [NAME=openblas]
 *
 * Reads DIR/a.bin (M x K) and DIR/b.bin (K x N), row-major float32.  Each
 * contender is either a library built by `ftc build` (its exported
 * `int matmul(int64_t m, int64_t n, int64_t k, const float *a,
 * const float *b, float *c)`, loaded with dlopen) or `openblas`
 * (cblas_sgemm, row-major, alpha 1, beta 0).  Every contender runs once
 * and writes its c to DIR/c_NAME.bin (the caller checks them).  With
 * ROUNDS > 0 it then times: one warm-up call each, then ROUNDS rounds, each
 * calling every contender once in an order rotated from round to round,
 * with a pause before each call so that the other library's idle threads
 * (OpenMP and OpenBLAS spin after a call) have gone to sleep.  Prints one
 * line per contender: `NAME median_s min_s`.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_CONTENDERS = 8, MAX_ROUNDS = 1000 };

typedef int (*matmul_fn)(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         float *c);

/* One contender: a name and the ftc function (NULL for OpenBLAS). */
typedef struct contender {
    const char *name;
    matmul_fn fn;
    double times[MAX_ROUNDS];
} contender;

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sleep for s seconds (lets other thread pools' spinning threads sleep). */
static void pause_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Read count floats from path into a new buffer (the caller frees it);
 * exits with a message on failure. */
static float *read_floats(const char *path, size_t count)
{
    float *p = malloc(count * sizeof(float));
    FILE *fp = fopen(path, "rb");
    if (!p || !fp || fread(p, sizeof(float), count, fp) != count) {
        fprintf(stderr, "mm_bench: cannot read %zu floats from %s\n", count, path);
        exit(2);
    }
    fclose(fp);
    return p;
}

/* Write count floats to path; exits with a message on failure. */
static void write_floats(const char *path, const float *p, size_t count)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(p, sizeof(float), count, fp) != count || fclose(fp) != 0) {
        fprintf(stderr, "mm_bench: cannot write %s\n", path);
        exit(2);
    }
}

/* Parse NAME=LIB.so or NAME=openblas into *c; exits on failure. */
static void load_contender(const char *arg, contender *c)
{
    const char *eq = strchr(arg, '=');
    if (!eq) {
        fprintf(stderr, "mm_bench: expected NAME=LIB.so or NAME=openblas, got %s\n", arg);
        exit(2);
    }
    c->name = strndup(arg, (size_t)(eq - arg));
    c->fn = NULL;
    if (strcmp(eq + 1, "openblas") == 0)
        return;
    void *h = dlopen(eq + 1, RTLD_NOW | RTLD_LOCAL);
    if (!h || !(c->fn = (matmul_fn)(uintptr_t)dlsym(h, "matmul"))) {
        fprintf(stderr, "mm_bench: cannot load matmul from %s: %s\n", eq + 1, dlerror());
        exit(2);
    }
}

/* One call of contender c: c = a @ b; returns its wall time in seconds. */
static double run_one(const contender *c, int64_t m, int64_t n, int64_t k, const float *a,
                      const float *b, float *out)
{
    double t0 = now();
    if (c->fn) {
        int rc = c->fn(m, n, k, a, b, out);
        if (rc != 0) {
            fprintf(stderr, "mm_bench: %s returned %d\n", c->name, rc);
            exit(1);
        }
    } else {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
                    (int)k, b, (int)n, 0.0f, out, (int)n);
    }
    return now() - t0;
}

/* qsort order of doubles. */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: mm_bench M N K ROUNDS DIR NAME=LIB.so|NAME=openblas ...\n");
        return 2;
    }
    int64_t m = atoll(argv[1]), n = atoll(argv[2]), k = atoll(argv[3]);
    int rounds = atoi(argv[4]), nc = argc - 6;
    const char *dir = argv[5];
    if (m <= 0 || n <= 0 || k <= 0 || rounds < 0 || rounds > MAX_ROUNDS || nc > MAX_CONTENDERS) {
        fprintf(stderr, "mm_bench: bad sizes, rounds or too many contenders\n");
        return 2;
    }
    static contender cs[MAX_CONTENDERS];
    for (int i = 0; i < nc; i++)
        load_contender(argv[6 + i], &cs[i]);
    char path[4096];
    snprintf(path, sizeof path, "%s/a.bin", dir);
    float *a = read_floats(path, (size_t)(m * k));
    snprintf(path, sizeof path, "%s/b.bin", dir);
    float *b = read_floats(path, (size_t)(k * n));
    float *out = malloc((size_t)(m * n) * sizeof(float));
    for (int i = 0; i < nc; i++) {
        memset(out, 0xff, (size_t)(m * n) * sizeof(float));   /* NaNs: unwritten shows */
        run_one(&cs[i], m, n, k, a, b, out);
        snprintf(path, sizeof path, "%s/c_%s.bin", dir, cs[i].name);
        write_floats(path, out, (size_t)(m * n));
    }
    if (rounds == 0)
        return 0;
    for (int i = 0; i < nc; i++) {                            /* warm-up */
        pause_s(0.2);
        run_one(&cs[i], m, n, k, a, b, out);
    }
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < nc; j++) {
            contender *c = &cs[(r + j) % nc];
            pause_s(0.2);
            c->times[r] = run_one(c, m, n, k, a, b, out);
        }
    for (int i = 0; i < nc; i++) {
        qsort(cs[i].times, (size_t)rounds, sizeof(double), cmp_double);
        double med = rounds % 2 ? cs[i].times[rounds / 2]
                                : 0.5 * (cs[i].times[rounds / 2 - 1] + cs[i].times[rounds / 2]);
        printf("%s %.6f %.6f\n", cs[i].name, med, cs[i].times[0]);
    }
    free(a);
    free(b);
    free(out);
    return 0;
}
