/* test_loader.c - rt_open/rt_find and rt_run end to end.
 *
 * The test writes a small C library with a hand-written ft_module_desc
 * table (runtime/ft_abi.h, found through $FTC_SOURCE_ROOT), compiles it with
 * `cc -shared -fPIC`, and runs its functions through rt_run, capturing what
 * rt_run prints with open_memstream.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

/* The hand-written library.  Functions:
 *   add(n, x: f32[n] in, y: f32[n] in, z: f32[n] out)      z = x + y
 *   rows(n, a: f32[n, 4] in, s: f64[n] out)                  row sums
 *   fail(n, x: f32[n] in)                                    FT_ERR_ASSERT
 *   gather(n, m, idx: i32[m] in, v: f64[n] in, o: f64[m] out)  FT_ERR_INDEX if idx >= n
 *   acc(n, x: i64[n] inout)                                  x += 1
 *   shift(n, y: f32[n - 1] out)                              y = 1
 *   total(n, x: f32[n] in, t: f32 out)                       t = sum(x)
 *   flags(n, b: bool[n] in, c: i64 out)                      c = count(b) */
static const char lib_src[] =
    "#include \"ft_abi.h\"\n"
    "#include <stddef.h>\n"
    "#define SZ(k) (*(const int64_t *)a[k])\n"
    "static const char *const t_n[] = {\"n\"}, *const t_m[] = {\"m\"};\n"
    "static const char *const t_n4[] = {\"n\", \"4\"}, *const t_n1[] = {\"n - 1\"};\n"
    "#define SIZE(nm) {nm, FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL}\n"
    "#define TEN(nm, dt, acc, nd, sh) {nm, FT_PARAM_TENSOR, dt, acc, 0, nd, sh, NULL, nd, sh}\n"
    "static int add_c(void *const *a) { const float *x = a[1], *y = a[2]; float *z = a[3];\n"
    "  for (int64_t i = 0; i < SZ(0); i++) z[i] = x[i] + y[i]; return 0; }\n"
    "static void add_s(const int64_t *s, int64_t *d) { d[0] = d[1] = d[2] = s[0]; }\n"
    "static const ft_param_desc add_p[] = {SIZE(\"n\"), TEN(\"x\", FT_ABI_F32, FT_ABI_IN, 1, t_n),\n"
    "  TEN(\"y\", FT_ABI_F32, FT_ABI_IN, 1, t_n), TEN(\"z\", FT_ABI_F32, FT_ABI_OUT, 1, t_n)};\n"
    "static int rows_c(void *const *a) { const float *x = a[1]; double *s = a[2];\n"
    "  for (int64_t i = 0; i < SZ(0); i++) for (int j = 0; j < 4; j++) s[i] += x[i * 4 + j]; return 0; }\n"
    "static void rows_s(const int64_t *s, int64_t *d) { d[0] = s[0]; d[1] = 4; d[2] = s[0]; }\n"
    "static const ft_param_desc rows_p[] = {SIZE(\"n\"), TEN(\"a\", FT_ABI_F32, FT_ABI_IN, 2, t_n4),\n"
    "  TEN(\"s\", FT_ABI_F64, FT_ABI_OUT, 1, t_n)};\n"
    "static int fail_c(void *const *a) { (void)a; return FT_ERR_ASSERT; }\n"
    "static void fail_s(const int64_t *s, int64_t *d) { d[0] = s[0]; }\n"
    "static const ft_param_desc fail_p[] = {SIZE(\"n\"), TEN(\"x\", FT_ABI_F32, FT_ABI_IN, 1, t_n)};\n"
    "static int gather_c(void *const *a) { const int *idx = a[2]; const double *v = a[3]; double *o = a[4];\n"
    "  for (int64_t i = 0; i < SZ(1); i++) { if (idx[i] < 0 || idx[i] >= SZ(0)) return FT_ERR_INDEX;\n"
    "    o[i] = v[idx[i]]; } return 0; }\n"
    "static void gather_s(const int64_t *s, int64_t *d) { d[0] = s[1]; d[1] = s[0]; d[2] = s[1]; }\n"
    "static const ft_param_desc gather_p[] = {SIZE(\"n\"), SIZE(\"m\"),\n"
    "  TEN(\"idx\", FT_ABI_I32, FT_ABI_IN, 1, t_m), TEN(\"v\", FT_ABI_F64, FT_ABI_IN, 1, t_n),\n"
    "  TEN(\"o\", FT_ABI_F64, FT_ABI_OUT, 1, t_m)};\n"
    "static int acc_c(void *const *a) { int64_t *x = a[1];\n"
    "  for (int64_t i = 0; i < SZ(0); i++) x[i] += 1; return 0; }\n"
    "static const ft_param_desc acc_p[] = {SIZE(\"n\"), TEN(\"x\", FT_ABI_I64, FT_ABI_INOUT, 1, t_n)};\n"
    "static int shift_c(void *const *a) { float *y = a[1];\n"
    "  for (int64_t i = 0; i + 1 < SZ(0); i++) y[i] = 1; return 0; }\n"
    "static void shift_s(const int64_t *s, int64_t *d) { d[0] = s[0] - 1; }\n"
    "static const ft_param_desc shift_p[] = {SIZE(\"n\"), TEN(\"y\", FT_ABI_F32, FT_ABI_OUT, 1, t_n1)};\n"
    "static int total_c(void *const *a) { const float *x = a[1]; float *t = a[2];\n"
    "  for (int64_t i = 0; i < SZ(0); i++) *t += x[i]; return 0; }\n"
    "static const ft_param_desc total_p[] = {SIZE(\"n\"), TEN(\"x\", FT_ABI_F32, FT_ABI_IN, 1, t_n),\n"
    "  TEN(\"t\", FT_ABI_F32, FT_ABI_OUT, 0, NULL)};\n"
    "static int flags_c(void *const *a) { const unsigned char *b = a[1]; int64_t *c = a[2];\n"
    "  for (int64_t i = 0; i < SZ(0); i++) *c += b[i]; return 0; }\n"
    "static const ft_param_desc flags_p[] = {SIZE(\"n\"), TEN(\"b\", FT_ABI_BOOL, FT_ABI_IN, 1, t_n),\n"
    "  TEN(\"c\", FT_ABI_I64, FT_ABI_OUT, 0, NULL)};\n"
    "static const ft_func_desc funcs[] = {\n"
    "  {\"add\", 4, add_p, add_c, add_s, add_s}, {\"rows\", 3, rows_p, rows_c, rows_s, rows_s},\n"
    "  {\"fail\", 2, fail_p, fail_c, fail_s, fail_s}, {\"gather\", 5, gather_p, gather_c, gather_s, gather_s},\n"
    "  {\"acc\", 2, acc_p, acc_c, fail_s, fail_s}, {\"shift\", 2, shift_p, shift_c, shift_s, shift_s},\n"
    "  {\"total\", 3, total_p, total_c, fail_s, fail_s}, {\"flags\", 3, flags_p, flags_c, fail_s, fail_s}};\n"
    "static int last_err(ft_error_rec *r, char *b, size_t n) { (void)r; (void)b; (void)n;\n"
    "  return FT_OK; }\n"
    "const ft_module_desc ft_module = {ABI, 8, funcs, 0, NULL, last_err};\n";

/* The shared folder holding the libraries (made once, before the tests). */
static char dir[64];

/* path of name in the folder (a ring of 16 static buffers). */
static const char *dpath(const char *name)
{
    static char buf[16][256];
    static int next;
    char *b = buf[next++ % 16];
    snprintf(b, 256, "%s/%s", dir, name);
    return b;
}

/* Compile src into DIR/so with -DABI=abi. */
static void compile_lib(const char *src, const char *so, int abi)
{
    const char *root = getenv("FTC_SOURCE_ROOT");
    char cmd[1024];
    FILE *f = fopen(dpath("lib.c"), "w");
    ck_assert_ptr_nonnull(f);
    fputs(src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -shared -fPIC -DABI=%d -I'%s/runtime' -o '%s' '%s'", abi,
             root ? root : ".", dpath(so), dpath("lib.c"));
    ck_assert_msg(system(cmd) == 0, "compiling the test library failed: %s", cmd);
}

static void make_libs(void)
{
    strcpy(dir, "/tmp/ftc-test-loader-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    compile_lib(lib_src, "libok.so", FT_ABI_VERSION);
    compile_lib(lib_src, "libold.so", 99);
    compile_lib("int nothing_here;\n", "libnone.so", 0);
}

static void remove_libs(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* What one rt_run printed and returned. */
typedef struct result {
    int rc;
    char *out, *err;
    size_t outlen, errlen;
} result;

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

/* Run fname of libok.so with opts and the NULL-terminated arguments. */
static result run_v(const char *fname, const rt_run_opts *opts, va_list ap)
{
    char *args[32];
    int n = 0;
    for (const char *a; (a = va_arg(ap, const char *));)
        args[n++] = (char *)a;
    char msg[512] = "";
    rt_lib *lib = rt_open(dpath("libok.so"), msg, sizeof msg);
    ck_assert_msg(lib != NULL, "%s", msg);
    result r = {0};
    FILE *out = open_memstream(&r.out, &r.outlen), *err = open_memstream(&r.err, &r.errlen);
    r.rc = rt_run(lib, fname, n, args, opts, out, err);
    fclose(out);
    fclose(err);
    rt_close(lib);
    return r;
}

static result run(const char *fname, const rt_run_opts *opts, ...)
{
    va_list ap;
    va_start(ap, opts);
    result r = run_v(fname, opts, ap);
    va_end(ap);
    return r;
}

/* Run expecting failure code rc and a message containing want. */
static void expect_error(int rc, const char *want, const char *fname, ...)
{
    rt_run_opts o = {.print = 1};
    va_list ap;
    va_start(ap, fname);
    result r = run_v(fname, &o, ap);
    va_end(ap);
    ck_assert_msg(r.rc == rc, "%s: rc %d, want %d; err: %s", fname, r.rc, rc, r.err);
    ck_assert_msg(strstr(r.err, want), "message '%s' lacks '%s'", r.err, want);
    result_free(&r);
}

/* Write a .npy of dtype with the given dims and data into the folder;
 * returns "name=PATH" in a static buffer (as an rt_run argument). */
static const char *npy_arg(const char *param, const char *file, int dtype, int ndim,
                           const int64_t *dims, const void *data)
{
    static char buf[4][300];
    static int next;
    rt_array a = {.dtype = dtype, .ndim = ndim, .data = (void *)data};
    size_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= (size_t)(a.dims[i] = dims[i]);
    a.nbytes = n * rt_dtype_size(dtype);
    char err[512];
    ck_assert_msg(rt_npy_write(dpath(file), &a, err, sizeof err) == 0, "%s", err);
    char *b = buf[next++ % 4];
    snprintf(b, 300, "%s=%s", param, dpath(file));
    return b;
}

/* Read DIR/file, check its dtype and element count, return its data. */
static void *read_npy(const char *file, int dtype, size_t count, rt_array *a)
{
    char err[512];
    ck_assert_msg(rt_npy_read(file, a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(a->dtype, dtype);
    ck_assert_uint_eq(a->nbytes, count * rt_dtype_size(dtype));
    return a->data;
}

/* ------------------------------------------------------------ loader */

START_TEST(test_open_find)
{
    char err[512] = "";
    rt_lib *lib = rt_open(dpath("libok.so"), err, sizeof err);
    ck_assert_msg(lib != NULL, "%s", err);
    ck_assert_int_eq(rt_module(lib)->nfuncs, 8);
    const ft_func_desc *f = rt_find(lib, "gather");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->nparams, 5);
    ck_assert_ptr_null(rt_find(lib, "nope"));
    rt_close(lib);
    rt_close(NULL);
}
END_TEST

START_TEST(test_open_errors)
{
    char err[512] = "";
    ck_assert_ptr_null(rt_open(dpath("missing.so"), err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "cannot load"));
    ck_assert_ptr_null(rt_open(dpath("libnone.so"), err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, FT_MODULE_SYMBOL));
    ck_assert_ptr_null(rt_open(dpath("libold.so"), err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "version 99"));
}
END_TEST

/* A path without '/' is relative to the current folder, not the library path. */
/* last_error of the table below: no failure recorded. */
static int no_last_error(ft_error_rec *rec, char *buf, size_t size)
{
    (void)rec, (void)buf, (void)size;
    return FT_OK;
}

/* A description table in memory (rt_open_desc): a valid one is opened; one
 * whose run-time check lacks its where or its message is refused (it used
 * to be accepted, then rt_report_failure read the NULL; found by
 * tests/fuzz/fuzz_loader, regress/fuzz_loader/site_where_null). */
START_TEST(test_open_desc_sites)
{
    ft_site_desc site = {FT_ERR_ASSERT, "p.ft:1:1", "assert failed", {0, 0}};
    ft_module_desc m = {FT_ABI_VERSION, 0, NULL, 1, &site, no_last_error};
    char err[256] = "";
    rt_lib *lib = rt_open_desc(&m, err, sizeof err);
    ck_assert_msg(lib != NULL, "%s", err);
    ck_assert_ptr_null(rt_symbol(lib, "malloc"));     /* no library behind it */
    rt_close(lib);
    for (int k = 0; k < 2; k++) {
        ft_site_desc bad = site;
        if (k)
            bad.msg = NULL;
        else
            bad.where = NULL;
        m.sites = &bad;
        err[0] = '\0';
        ck_assert_ptr_null(rt_open_desc(&m, err, sizeof err));
        ck_assert_msg(strstr(err, "run-time check 0 is corrupt"), "%s", err);
    }
}
END_TEST

START_TEST(test_open_relative)
{
    char err[512] = "", cwd[512];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    rt_lib *lib = rt_open("libok.so", err, sizeof err);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_msg(lib != NULL, "%s", err);
    rt_close(lib);
}
END_TEST

/* --------------------------------------------------------------- run */

START_TEST(test_run_add_infer_and_out_dir)
{
    float x[3] = {1, 2, 3}, y[3] = {4, 5, 6};
    int64_t d[1] = {3};
    rt_run_opts o = {.print = 1, .out_dir = dpath("out/sub")};
    result r = run("add", &o, npy_arg("x", "x.npy", FT_ABI_F32, 1, d, x),
                   npy_arg("y", "y.npy", FT_ABI_F32, 1, d, y), NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "z: f32[3] = [5, 7, 9]"), "%s", r.out);
    rt_array a;
    float *z = read_npy(dpath("out/sub/z.npy"), FT_ABI_F32, 3, &a);
    ck_assert(z[0] == 5 && z[1] == 7 && z[2] == 9);
    ck_assert_int_eq(a.ndim, 1);
    rt_array_free(&a);
    ck_assert_int_ne(access(dpath("out/sub/x.npy"), F_OK), 0);    /* inputs not written */
    result_free(&r);
}
END_TEST

START_TEST(test_run_out_given_path_and_no_print)
{
    float x[2] = {1, 2}, y[2] = {3, 4};
    int64_t d[1] = {2};
    char zarg[300];
    snprintf(zarg, sizeof zarg, "z=%s", dpath("zz.npy"));
    rt_run_opts o = {.print = 0};
    result r = run("add", &o, "n=2", npy_arg("x", "x.npy", FT_ABI_F32, 1, d, x),
                   npy_arg("y", "y.npy", FT_ABI_F32, 1, d, y), zarg, NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_uint_eq(r.outlen, 0);
    rt_array a;
    float *z = read_npy(dpath("zz.npy"), FT_ABI_F32, 2, &a);
    ck_assert(z[0] == 4 && z[1] == 6);
    rt_array_free(&a);
    result_free(&r);
}
END_TEST

START_TEST(test_run_shape_mismatch)
{
    float a[50] = {0};
    int64_t d[2] = {10, 5};
    expect_error(1, "parameter 'a': expected shape [n, 4] = [10, 4], got [10, 5]", "rows",
                 npy_arg("a", "a.npy", FT_ABI_F32, 2, d, a), NULL);
    expect_error(1, "parameter 'a': expected a 2-D shape [n, 4], got [10]", "rows",
                 npy_arg("a", "a.npy", FT_ABI_F32, 1, d, a), NULL);
    /* an explicit size that disagrees with the file */
    float x[3] = {0};
    int64_t d3[1] = {3};
    expect_error(1, "parameter 'x': expected shape [n] = [4], got [3]", "add", "n=4",
                 npy_arg("x", "x.npy", FT_ABI_F32, 1, d3, x),
                 npy_arg("y", "y.npy", FT_ABI_F32, 1, d3, x), NULL);
    /* two files that disagree on n */
    float y[4] = {0};
    int64_t d4[1] = {4};
    expect_error(1, "size 'n' is 3 from dimension 0 of 'x' but 4 from dimension 0 of 'y'",
                 "add", npy_arg("x", "x.npy", FT_ABI_F32, 1, d3, x),
                 npy_arg("y", "y.npy", FT_ABI_F32, 1, d4, y), NULL);
    /* a shape that is negative for the given sizes */
    expect_error(1, "parameter 'y': shape [n - 1] = [-1]", "shift", "n=0", NULL);
}
END_TEST

START_TEST(test_run_rows_2d)
{
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int64_t d[2] = {2, 4};
    rt_run_opts o = {.print = 1};
    result r = run("rows", &o, npy_arg("a", "a.npy", FT_ABI_F32, 2, d, a), NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "s: f64[2] = [10, 26]"), "%s", r.out);
    result_free(&r);
}
END_TEST

START_TEST(test_run_dtype_mismatch)
{
    double x[3] = {0};
    float y[3] = {0};
    int64_t d[1] = {3};
    expect_error(1, "parameter 'x': expected dtype f32, got f64", "add",
                 npy_arg("x", "x.npy", FT_ABI_F64, 1, d, x),
                 npy_arg("y", "y.npy", FT_ABI_F32, 1, d, y), NULL);
}
END_TEST

START_TEST(test_run_argument_errors)
{
    float x[3] = {0};
    int64_t d[1] = {3};
    const char *xa = npy_arg("x", "x.npy", FT_ABI_F32, 1, d, x);
    expect_error(1, "parameter 'y' (in) needs data: pass y=FILE.npy, or use --random", "add",
                 xa, NULL);
    expect_error(1, "size 'n' was not given and cannot be inferred", "shift", NULL);
    expect_error(1, "function 'add' has no parameter 'q'", "add", xa, "q=3", NULL);
    expect_error(1, "parameter 'x' is given twice", "add", xa, xa, NULL);
    expect_error(1, "is not of the form name=value", "add", "x", NULL);
    expect_error(1, "has no value", "add", "x=", NULL);
    expect_error(1, "parameter 'n' is a size: give an integer", "add", "n=x.npy", NULL);
    expect_error(1, "parameter 'n' is a size: give an integer", "add", "n=3.5", NULL);
    expect_error(1, "size 'n' must be >= 0", "add", "n=-2", NULL);
    expect_error(1, "parameter 'x' is a tensor (f32): give a .npy file", "add", "x=3", NULL);
    expect_error(1, "parameter 'x': cannot open", "add", "x=/nonexistent.npy", NULL);
    expect_error(1, "exports no function 'nope'; it exports: add, rows", "nope", NULL);
}
END_TEST

START_TEST(test_run_assert_code)
{
    float x[3] = {0};
    int64_t d[1] = {3};
    expect_error(2, "function 'fail' failed: assertion failed (code 2)", "fail",
                 npy_arg("x", "x.npy", FT_ABI_F32, 1, d, x), NULL);
    int32_t idx[2] = {0, 9};
    double v[3] = {0};
    int64_t di[1] = {2};
    expect_error(2, "index out of bounds", "gather", npy_arg("idx", "i.npy", FT_ABI_I32, 1, di, idx),
                 npy_arg("v", "v.npy", FT_ABI_F64, 1, d, v), NULL);
}
END_TEST

/* --random: same seed, same data; another seed, other data; ints in
 * [0, smallest size) so that gather's indices are in bounds. */
START_TEST(test_run_random)
{
    rt_run_opts o = {.print = 0, .random = 1, .seed = 7, .out_dir = dpath("r1")};
    result r = run("gather", &o, "n=5", "m=200", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    result_free(&r);
    o.out_dir = dpath("r2");
    r = run("gather", &o, "m=200", "n=5", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    result_free(&r);
    o.seed = 8;
    o.out_dir = dpath("r3");
    r = run("gather", &o, "n=5", "m=200", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    result_free(&r);
    rt_array a1, a2, a3;
    double *o1 = read_npy(dpath("r1/o.npy"), FT_ABI_F64, 200, &a1);
    double *o2 = read_npy(dpath("r2/o.npy"), FT_ABI_F64, 200, &a2);
    double *o3 = read_npy(dpath("r3/o.npy"), FT_ABI_F64, 200, &a3);
    ck_assert_int_eq(memcmp(o1, o2, 200 * sizeof(double)), 0);
    ck_assert_int_ne(memcmp(o1, o3, 200 * sizeof(double)), 0);
    int distinct = 0;
    for (int i = 0; i < 200; i++) {
        ck_assert(o1[i] >= -1 && o1[i] < 1);
        distinct += i && o1[i] != o1[0];
    }
    ck_assert_int_gt(distinct, 0);
    rt_array_free(&a1);
    rt_array_free(&a2);
    rt_array_free(&a3);
}
END_TEST

/* A big output prints as shape and summary; random floats lie in [-1, 1). */
START_TEST(test_run_random_summary)
{
    rt_run_opts o = {.print = 1, .random = 1, .seed = 1, .out_dir = dpath("big")};
    result r = run("add", &o, "n=1000", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "z: f32[1000]: sum "), "%s", r.out);
    ck_assert_msg(strstr(r.out, ", min ") && strstr(r.out, ", first ["), "%s", r.out);
    rt_array a;
    float *z = read_npy(dpath("big/z.npy"), FT_ABI_F32, 1000, &a);
    for (int i = 0; i < 1000; i++)
        ck_assert(z[i] >= -2 && z[i] < 2);
    rt_array_free(&a);
    result_free(&r);
    r = run("flags", &o, "n=50", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "c: i64 = "), "%s", r.out);
    result_free(&r);
}
END_TEST

/* --bench: every timed call starts from the same inout data. */
START_TEST(test_run_bench)
{
    int64_t x[3] = {1, 2, 3}, d[1] = {3};
    rt_run_opts o = {.print = 1, .bench = 5};
    result r = run("acc", &o, npy_arg("x", "x.npy", FT_ABI_I64, 1, d, x), NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "acc: 5 runs: min ") && strstr(r.out, " ms, median "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "x: i64[3] = [2, 3, 4]"), "%s", r.out);
    result_free(&r);
    /* an out that the function accumulates into is zeroed before each call */
    float v[3] = {1, 2, 3};
    r = run("total", &o, npy_arg("x", "x.npy", FT_ABI_F32, 1, d, v), NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "t: f32 = 6\n"), "%s", r.out);
    result_free(&r);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("loader");
    tcase_add_unchecked_fixture(tc, make_libs, remove_libs);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_open_find);
    tcase_add_test(tc, test_open_errors);
    tcase_add_test(tc, test_open_relative);
    tcase_add_test(tc, test_open_desc_sites);
    tcase_add_test(tc, test_run_add_infer_and_out_dir);
    tcase_add_test(tc, test_run_out_given_path_and_no_print);
    tcase_add_test(tc, test_run_shape_mismatch);
    tcase_add_test(tc, test_run_rows_2d);
    tcase_add_test(tc, test_run_dtype_mismatch);
    tcase_add_test(tc, test_run_argument_errors);
    tcase_add_test(tc, test_run_assert_code);
    tcase_add_test(tc, test_run_random);
    tcase_add_test(tc, test_run_random_summary);
    tcase_add_test(tc, test_run_bench);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(loader_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
