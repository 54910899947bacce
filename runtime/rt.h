/* rt.h - the runtime: loading built libraries, .npy I/O and `ftc run`.
 *
 * Errors are returned as non-zero codes with a message written into the
 * caller's buffer (err, errlen); nothing here exits or prints on its own
 * except rt_run, which prints its results and errors to the given streams.
 */
#ifndef FT_RT_H
#define FT_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ft_abi.h"
#include "stage.h"

#define RT_MAX_DIMS 16

/* printf into the caller's error buffer err[errlen] (nothing when err is
 * NULL or errlen 0): how every runtime function reports what went wrong. */
void rt_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A host array: dtype is an FT_ABI_* code; data is malloc-owned. */
typedef struct rt_array {
    int dtype;
    int ndim;
    int64_t dims[RT_MAX_DIMS];
    void *data;
    size_t nbytes;
} rt_array;

/* A decimal or 0x-hexadecimal 64-bit integer with an optional sign, the
 * whole of s (no space, no octal): 0 and *v set, else 1.  The one reader
 * of integers typed by a user (ftc's flags and -D, ftc run's sizes). */
int rt_parse_i64(const char *s, int64_t *v);

size_t rt_dtype_size(int dtype);
const char *rt_dtype_name(int dtype);            /* "f32" */
const char *rt_dtype_numpy_name(int dtype);      /* "float32" (for hints) */

/* .npy files, format versions 1.0 to 3.0, C order, little-endian dtypes
 * <f2 <f4 <f8 <i4 <i8 |b1 (also |u1/?-style bool).  Read allocates
 * out->data (free with rt_array_free). */
int rt_npy_read(const char *path, rt_array *out, char *err, size_t errlen);
int rt_npy_write(const char *path, const rt_array *a, char *err, size_t errlen);
/* Write a as .npy to f (closed, whatever happens); name: f's path for the
 * messages.  rt_npy_write is this through a temporary renamed into place. */
int rt_npy_write_stream(FILE *f, const char *name, const rt_array *a, char *err,
                        size_t errlen);
/* Write a as .npy to a temporary for path (rt_stage_open), to be renamed
 * by rt_stage_commit; st is set (for rt_stage_free) whatever happens. */
int rt_npy_stage(rt_stage *st, const char *path, const rt_array *a, char *err, size_t errlen);
void rt_array_free(rt_array *a);
/* An array's buffer of n bytes (at least 1), aligned to 64 bytes (a cache
 * line: the kernels' vector loads of a row never straddle two lines; with
 * malloc's 16 the same kernel ran up to 40% slower, depending on where
 * its inputs fell), zeroed when zero is set; free() releases it.  NULL
 * when out of memory. */
void *rt_array_alloc(size_t n, int zero);

/* A loaded library.  rt_open pins libgomp first (dlclose of the last kernel
 * library otherwise crashes in idle OpenMP threads) and checks the
 * description's ABI version. */
typedef struct rt_lib rt_lib;
rt_lib *rt_open(const char *so_path, char *err, size_t errlen);
void rt_close(rt_lib *lib);
/* The same checks on a description table in memory (no library loaded:
 * rt_symbol finds nothing); for tests and the fuzzer (tests/fuzz/). */
rt_lib *rt_open_desc(const ft_module_desc *m, char *err, size_t errlen);
const ft_module_desc *rt_module(const rt_lib *lib);
const ft_func_desc *rt_find(const rt_lib *lib, const char *name);
/* A symbol as the library resolves it (itself first, then its
 * dependencies, e.g. its OpenMP runtime's omp_set_num_threads), or NULL. */
void *rt_symbol(const rt_lib *lib, const char *name);

/* The meaning of a function's return code, in words ("index out of
 * bounds"). */
const char *rt_code_text(int code);

/* Report that function fname of lib returned code (non-zero) to err:
 * "FILE:LINE:COL: error: MESSAGE" of the check that failed, read from the
 * library's error record of this thread (ft_module.last_error), with the
 * source line and a caret when the file can be read, then a note with the
 * function and code ("failed with code 3"); just the code's meaning when the record does not describe
 * this failure. */
void rt_report_failure(const rt_lib *lib, const char *fname, int code, FILE *err);

/* Device memory through the CUDA runtime, loaded at run time
 * (runtime/device.c; no link-time dependency).  rt_cuda_open fails with a
 * message starting "no CUDA device: " when libcudart cannot be loaded or
 * finds no device. */
typedef struct rt_cuda rt_cuda;
rt_cuda *rt_cuda_open(char *err, size_t errlen);
void rt_cuda_close(rt_cuda *cu);
int rt_cuda_alloc(rt_cuda *cu, size_t n, void **out, char *err, size_t errlen);
void rt_cuda_free(rt_cuda *cu, void *d);
int rt_cuda_copy(rt_cuda *cu, void *dst, const void *src, size_t n, int to_device, char *err,
                 size_t errlen);

/* Options of `ftc run` after the library is built. */
typedef struct rt_run_opts {
    const char *out_dir;     /* --out-dir: write each out/inout as NAME.npy */
    int random;              /* --random: random data for unset in/inout */
    uint64_t seed;           /* --seed */
    int bench;               /* --bench N: run N timed repeats (0: once) */
    int print;               /* print outputs (small ones whole, big ones summarised) */
    int64_t default_size;    /* > 0: a size neither given nor inferred (gradcheck: 4) */
    int logical_out;         /* --logical-out: laid-out outputs written logical */
} rt_run_opts;

/* The arguments of one call of fn, prepared as `ftc run` prepares them
 * (runtime/run.c, steps 1 to 5): "name=value" arguments parsed, the .npy
 * of every given in/inout tensor read and its dtype and rank checked,
 * sizes not given inferred from those shapes (else opts->default_size,
 * else an error), every shape evaluated and each file's checked against
 * it, `out` tensors zero-filled and, with opts->random, the in/inout
 * tensors not given random.  NULL after printing why to err. */
typedef struct rt_call rt_call;
rt_call *rt_prepare(const rt_lib *lib, const ft_func_desc *fn, int nargs, char **args,
                    const rt_run_opts *opts, FILE *out, FILE *err);
int64_t rt_call_size(const rt_call *c, int k);    /* size parameter k */
rt_array *rt_call_array(rt_call *c, int k);       /* tensor parameter k */
const int64_t *rt_call_ldims(const rt_call *c, int k);   /* k's logical shape */
int rt_call_given(const rt_call *c, int k);       /* whether k was given */
void rt_call_free(rt_call *c);
/* Call c's function (host memory only) from the inputs rt_prepare made:
 * inouts put back to their first data before each call, and outs to zero
 * when zero_outs is set (a timing loop leaves them: the zeroing would be
 * timed too).  The tuner calls one function many times.  Its return code,
 * or -1 when out of memory. */
int rt_call_again(rt_call *c, int zero_outs);
/* Seconds on the monotonic clock (--bench's and the tuner's timings). */
double rt_now(void);

/* Random data as `ftc run --random` makes it: a's elements from the
 * splitmix64 stream of state (floats uniform in [-1, 1), ints in [0, m),
 * bools 0/1); rt_param_seed gives a parameter's state from the seed and
 * its name. */
void rt_fill_random(rt_array *a, uint64_t state, int64_t m);
uint64_t rt_param_seed(uint64_t seed, const char *name);

/* Run function fname of the loaded library with arguments "name=value"
 * (value: an integer for sizes, a .npy path for tensors).  Sizes not given
 * are inferred from .npy shapes; every shape is checked against the
 * description, and a mismatch names the parameter, the expected and the
 * given shape.  Prints results/timings to out and errors to err.
 * Returns 0 on success, 1 on a usage/data error, 2 when the function
 * itself returned a non-zero code. */
int rt_run(rt_lib *lib, const char *fname, int nargs, char **args,
           const rt_run_opts *opts, FILE *out, FILE *err);

/* Options of `ftc gradcheck`. */
#define RT_GC_TOL 1e-6       /* the default --tol */
typedef struct rt_gc_opts {
    uint64_t seed;           /* --seed: the inputs' and the output weights' */
    double tol;              /* --tol: the largest relative error allowed */
    int threads;             /* --threads: > 0, the OpenMP threads of every call */
} rt_gc_opts;

/* `ftc gradcheck` (runtime/gradcheck.c): in a library built in f64 holding
 * f and its gradient gname with respect to wrt, compare the gradient with
 * central differences.  The arguments (name=value in args) are prepared
 * as rt_prepare prepares them, with random data for the in/inout tensors
 * not given and 4 for the sizes neither given nor inferred.  Prints per
 * wrt tensor the largest relative error and its element (index, analytic
 * and numeric values) to out, and warnings for elements where the
 * difference crosses a non-differentiable point to err.  Returns 0, 1 on
 * a usage error or a failed call, 2 when an error exceeds opts->tol. */
int rt_gradcheck(rt_lib *lib, const char *fname, const char *gname, int nwrt,
                 const char *const *wrt, int nargs, char **args, const rt_gc_opts *opts,
                 FILE *out, FILE *err);

/* What the finite differences of one element say (rt_gc_verdict). */
typedef enum rt_gc_verdict_kind { RT_GC_OK, RT_GC_KINK, RT_GC_FAIL } rt_gc_verdict_kind;

/* The verdict on one element whose analytic derivative is g and whose
 * central difference (the check's estimate) is fd: RT_GC_OK when
 * rel(fd, g) <= tol; else RT_GC_KINK when the step crossed a
 * non-differentiable point: the re-evaluations at n decreasing steps
 * (central[s], forward[s], backward[s], each extrapolated; step 0 is fd's)
 * show a derivative that changes with the step (a central difference away
 * from central[0], or forward and backward apart) and g agrees with a
 * one-sided difference; else RT_GC_FAIL.  rel(a, b) = |a - b| /
 * max(|a|, |b|, floor) > tol means apart; NaN never agrees. */
rt_gc_verdict_kind rt_gc_verdict(double g, double fd, int n, const double *central,
                                 const double *forward, const double *backward,
                                 double floor, double tol);

#endif
