/* bench_time.h - what the C benchmarks (bench/analysis.c, bench/
 * layout_solve.c) share: a monotonic clock and the median of samples. */
#ifndef FT_BENCH_TIME_H
#define FT_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

/* Milliseconds of a monotonic clock. */
static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* qsort order of doubles, ascending. */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the n samples in t (sorted in place). */
static inline double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return t[n / 2];
}

#endif
