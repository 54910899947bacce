/* test_cg.c - the C backend end to end: build ASTs with the constructors,
 * emit C, compile a library with cg_build_library, dlopen it and call the
 * functions both through the description table and by name, comparing with
 * plain C references.  Every library is compiled with -Wall -Wextra -Werror,
 * so generated code must be warning-free. */
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast.h"
#include "cg.h"
#include "ft_abi.h"

#ifndef CFLAGS
#define CFLAGS "-O2 -fopenmp -Wall -Wextra -Werror"
#endif
#define LOC ((ft_loc){0})

/* The context the constructors below allocate from (one per test). */
static ft_ctx *C;

/* ------------------------------------------------------ AST shorthands */

static ast_expr *V(const char *n) { return ast_var(C, LOC, n); }
static ast_expr *I(int64_t v) { return ast_int(C, LOC, v); }
static ast_expr *F32(double v) { return ast_float(C, LOC, v, FT_F32); }
static ast_expr *B(ast_binop op, ast_expr *a, ast_expr *b) { return ast_binary(C, LOC, op, a, b); }

/* Collect n expression arguments from a va_list. */
static ast_expr **exprs(int n, va_list ap)
{
    ast_expr **v = ft_alloc(C, sizeof *v * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = va_arg(ap, ast_expr *);
    return v;
}

/* var[idx...] of dtype t */
static ast_expr *LD(const char *var, ft_dtype t, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ast_expr **idx = exprs(n, ap);
    va_end(ap);
    return ast_load(C, LOC, var, t, n, idx);
}

/* var[idx...] = value */
static ast_stmt *ST(const char *var, ast_expr *value, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ast_expr **idx = exprs(n, ap);
    va_end(ap);
    return ast_store(C, LOC, var, n, idx, value);
}

/* var[idx...] op= value */
static ast_stmt *RED(ast_reduce_op op, const char *var, ast_expr *value, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ast_expr **idx = exprs(n, ap);
    va_end(ap);
    return ast_reduce(C, LOC, op, var, n, idx, value);
}

static ast_stmt *SEQ(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ast_stmt **v = ft_alloc(C, sizeof *v * (size_t)n);
    for (int i = 0; i < n; i++)
        v[i] = va_arg(ap, ast_stmt *);
    va_end(ap);
    return ast_seq(C, LOC, n, v);
}

/* for it in range(begin, end) */
static ast_stmt *FOR(const char *it, ast_expr *b, ast_expr *e, ast_stmt *body)
{
    return ast_for(C, LOC, it, b, e, I(1), body);
}

/* The same loop, OpenMP-parallel. */
static ast_stmt *PFOR(const char *it, ast_expr *b, ast_expr *e, ast_stmt *body)
{
    ast_stmt *s = FOR(it, b, e, body);
    s->u.loop.par = AST_OPENMP;
    return s;
}

static ast_param PSIZE(const char *name)
{
    return (ast_param){.name = name, .is_size = 1, .dtype = FT_I64};
}

/* name: t[shape...] acc */
static ast_param PT(const char *name, ft_dtype t, ft_access acc, int ndim, ...)
{
    va_list ap;
    va_start(ap, ndim);
    ast_expr **shape = exprs(ndim, ap);
    va_end(ap);
    return (ast_param){.name = name, .dtype = t, .ndim = ndim, .shape = shape,
                       .access = acc, .mtype = FT_MT_CPU};
}

static ast_func *FUNC(const char *name, int n, const ast_param *params, ast_stmt *body)
{
    ast_func *f = ft_alloc(C, sizeof *f);
    f->name = name;
    f->nparams = n;
    f->params = ft_alloc(C, sizeof *params * (size_t)(n ? n : 1));
    if (n)
        memcpy(f->params, params, sizeof *params * (size_t)n);
    f->body = body;
    return f;
}

static ast_program *PROG(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ast_program *p = ft_alloc(C, sizeof *p);
    p->nfuncs = n;
    p->funcs = ft_alloc(C, sizeof *p->funcs * (size_t)n);
    for (int i = 0; i < n; i++)
        p->funcs[i] = va_arg(ap, ast_func *);
    va_end(ap);
    return p;
}

/* ------------------------------------------------------------- harness */

static char dir[256];
static void *lib;

/* A fresh context and temporary folder for each test. */
static void setup(void)
{
    C = ft_ctx_new();
    C->opts.cflags = CFLAGS;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_cg-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    lib = NULL;
}

/* Number of entries in dir (besides . and ..). */
static int dir_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static void teardown(void)
{
    if (lib)
        dlclose(lib);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    ft_ctx_free(C);
}

/* Build p into dir/libt.so and dlopen it. */
static void build(const ast_program *p)
{
    char so[300];
    snprintf(so, sizeof so, "%s/libt.so", dir);
    int rc = cg_build_library(C, p, so);
    if (rc || getenv("TEST_CG_DUMP"))   /* show the C text when it fails */
        cg_emit_c(C, p, stderr);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(C->nerrors, 0);
    lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(lib != NULL, "dlopen: %s", dlerror());
}

/* A function of the library by name. */
static void *sym(const char *name)
{
    void *f = dlsym(lib, name);
    ck_assert_msg(f != NULL, "no symbol %s", name);
    return f;
}

/* The description of function name in the library's table. */
static const ft_func_desc *desc(const char *name)
{
    const ft_module_desc *m = sym(FT_MODULE_SYMBOL);
    ck_assert_int_eq(m->abi_version, FT_ABI_VERSION);
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return &m->funcs[i];
    ck_abort_msg("no description of %s", name);
    return NULL;
}

/* ------------------------------------------------------------- tests */

/* c[i, j] = sum_p a[i, p] * b[p, j] */
static ast_program *matmul_prog(void)
{
    ast_stmt *inner = FOR("p", I(0), V("k"),
        RED(AST_RED_ADD, "c", B(AST_MUL, LD("a", FT_F32, 2, V("i"), V("p")),
                                LD("b", FT_F32, 2, V("p"), V("j"))), 2, V("i"), V("j")));
    ast_stmt *body = FOR("i", I(0), V("n"), FOR("j", I(0), V("m"),
        SEQ(2, ST("c", F32(0), 2, V("i"), V("j")), inner)));
    ast_param ps[] = {PSIZE("n"), PSIZE("m"), PSIZE("k"),
                      PT("a", FT_F32, FT_ACC_IN, 2, V("n"), V("k")),
                      PT("b", FT_F32, FT_ACC_IN, 2, V("k"), V("m")),
                      PT("c", FT_F32, FT_ACC_OUT, 2, V("n"), V("m"))};
    return PROG(1, FUNC("mm", 6, ps, body));
}

START_TEST(test_matmul)
{
    build(matmul_prog());
    enum { N = 13, M = 7, K = 9 };
    float a[N * K], b[K * M], c[N * M], c2[N * M], ref[N * M];
    for (int i = 0; i < N * K; i++)
        a[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < K * M; i++)
        b[i] = (float)((i * 3) % 13) * 0.25f;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            double s = 0;
            for (int p = 0; p < K; p++)
                s += (double)a[i * K + p] * b[p * M + j];
            ref[i * M + j] = (float)s;
        }
    int (*mm)(int64_t, int64_t, int64_t, const float *, const float *, float *) = sym("mm");
    ck_assert_int_eq(mm(N, M, K, a, b, c), FT_OK);
    const ft_func_desc *d = desc("mm");
    ck_assert_int_eq(d->nparams, 6);
    ck_assert_str_eq(d->params[3].name, "a");
    ck_assert_int_eq(d->params[3].kind, FT_PARAM_TENSOR);
    ck_assert_int_eq(d->params[3].dtype, FT_ABI_F32);
    ck_assert_int_eq(d->params[5].access, FT_ABI_OUT);
    ck_assert_int_eq(d->params[4].ndim, 2);
    ck_assert_str_eq(d->params[4].shape_text[0], "k");
    ck_assert_str_eq(d->params[4].shape_text[1], "m");
    ck_assert_int_eq(d->params[0].kind, FT_PARAM_SIZE);
    int64_t sizes[] = {N, M, K}, dims[6];
    d->shapes(sizes, dims);
    int64_t want[] = {N, K, K, M, N, M};
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(dims[i], want[i]);
    int64_t n = N, m = M, k = K;
    void *args[] = {&n, &m, &k, a, b, c2};
    ck_assert_int_eq(d->call(args), FT_OK);
    for (int i = 0; i < N * M; i++) {
        ck_assert_float_eq_tol(c[i], ref[i], 1e-4f * (1 + fabsf(ref[i])));
        ck_assert_float_eq(c[i], c2[i]);
    }
    /* the header is beside the library */
    char h[300];
    snprintf(h, sizeof h, "%s/libt.h", dir);
    FILE *f = fopen(h, "r");
    ck_assert_ptr_nonnull(f);
    char text[8192] = {0};
    fread(text, 1, sizeof text - 1, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "int mm(int64_t n, int64_t m, int64_t k, const float *a, "
                                       "const float *b, float *c);"));
    ck_assert_ptr_nonnull(strstr(text, "c: f32[n, m] out"));
}
END_TEST

/* s = sum x; q = sum x*x through a local scalar; mx = max x (a reduction),
 * mn = min over a local stack array and a local heap array. */
START_TEST(test_reduce_scalar)
{
    ast_expr *xi = LD("x", FT_F64, 1, V("i"));
    ast_stmt *body = SEQ(6,
        ST("s", ast_float(C, LOC, 0, FT_F64), 0),
        FOR("i", I(0), V("n"), RED(AST_RED_ADD, "s", xi, 0)),
        ast_vardef(C, LOC, "t", FT_F64, 0, NULL, FT_ACC_CACHE, FT_MT_CPU, SEQ(2,
            FOR("i", I(0), V("n"), RED(AST_RED_ADD, "t", B(AST_MUL, xi, xi), 0)),
            ST("q", LD("t", FT_F64, 0), 0))),
        ST("mx", ast_float(C, LOC, -INFINITY, FT_F64), 0),
        FOR("i", I(0), V("n"), RED(AST_RED_MAX, "mx", xi, 0)),
        /* var h: f64[n]; var u: f64[4]: h[i] = x[i]; u[i % 4] = h[n - 1 - i] */
        ast_vardef(C, LOC, "h", FT_F64, 1, (ast_expr *[]){V("n")}, FT_ACC_CACHE, FT_MT_CPU,
            ast_vardef(C, LOC, "u", FT_F64, 1, (ast_expr *[]){I(4)}, FT_ACC_CACHE, FT_MT_CPU,
                SEQ(4,
                    FOR("i", I(0), V("n"), ST("h", xi, 1, V("i"))),
                    FOR("i", I(0), I(4), ST("u", ast_float(C, LOC, INFINITY, FT_F64), 1, V("i"))),
                    FOR("i", I(0), V("n"), RED(AST_RED_MIN, "u",
                        LD("h", FT_F64, 1, B(AST_SUB, B(AST_SUB, V("n"), I(1)), V("i"))),
                        1, B(AST_MOD, V("i"), I(4)))),
                    ST("mn", B(AST_MIN, B(AST_MIN, LD("u", FT_F64, 1, I(0)), LD("u", FT_F64, 1, I(1))),
                               B(AST_MIN, LD("u", FT_F64, 1, I(2)), LD("u", FT_F64, 1, I(3)))), 0)))));
    ast_param ps[] = {PSIZE("n"), PT("x", FT_F64, FT_ACC_IN, 1, V("n")),
                      PT("s", FT_F64, FT_ACC_OUT, 0), PT("q", FT_F64, FT_ACC_OUT, 0),
                      PT("mx", FT_F64, FT_ACC_OUT, 0), PT("mn", FT_F64, FT_ACC_OUT, 0)};
    build(PROG(1, FUNC("stats", 6, ps, body)));
    enum { N = 1000 };
    double x[N], s, q, mx, mn, rs = 0, rq = 0, rmx = -INFINITY, rmn = INFINITY;
    for (int i = 0; i < N; i++) {
        x[i] = (double)((i * 37) % 101) - 50;
        rs += x[i];
        rq += x[i] * x[i];
        rmx = fmax(rmx, x[i]);
        rmn = fmin(rmn, x[i]);
    }
    int (*f)(int64_t, const double *, double *, double *, double *, double *) = sym("stats");
    ck_assert_int_eq(f(N, x, &s, &q, &mx, &mn), FT_OK);
    ck_assert_double_eq(s, rs);
    ck_assert_double_eq(q, rq);
    ck_assert_double_eq(mx, rmx);
    ck_assert_double_eq(mn, rmn);
    /* the same through the table; 0-D tensors are data pointers */
    int64_t n = N;
    s = q = mx = mn = 0;
    void *args[] = {&n, x, &s, &q, &mx, &mn};
    ck_assert_int_eq(desc("stats")->call(args), FT_OK);
    ck_assert_double_eq(s, rs);
    ck_assert_double_eq(mn, rmn);
    ck_assert_int_eq(f(-1, x, &s, &q, &mx, &mn), FT_ERR_SIZE);
}
END_TEST

/* Parallel loops with atomic reductions into shared scalars: += on f64
 * (omp atomic), max on f32 and += on i64 (CAS and omp atomic), and a
 * heap-allocated local tensor inside the parallel body. */
START_TEST(test_openmp_atomic)
{
    ast_expr *xi = LD("x", FT_F64, 1, V("i"));
    ast_stmt *r1 = RED(AST_RED_ADD, "s", xi, 0);
    ast_stmt *r2 = RED(AST_RED_MAX, "mx", ast_cast(C, LOC, FT_F32, xi), 0);
    ast_stmt *r3 = RED(AST_RED_ADD, "cnt", ast_cast(C, LOC, FT_I64, B(AST_GT, xi, ast_float(C, LOC, 500, FT_F64))), 0);
    ast_stmt *r4 = RED(AST_RED_MUL, "p", ast_float(C, LOC, 1.0, FT_F32), 0);
    r1->u.red.atomic = r2->u.red.atomic = r3->u.red.atomic = r4->u.red.atomic = 1;
    /* var w: f64[m]; w[j] = x[i]; s2[i] = sum_j w[j] (m large: heap) */
    ast_stmt *heap = ast_vardef(C, LOC, "w", FT_F64, 1, (ast_expr *[]){V("m")}, FT_ACC_CACHE,
        FT_MT_CPU, SEQ(3,
            FOR("j", I(0), V("m"), ST("w", xi, 1, V("j"))),
            ST("s2", ast_float(C, LOC, 0, FT_F64), 1, V("i")),
            FOR("j", I(0), V("m"), RED(AST_RED_ADD, "s2", LD("w", FT_F64, 1, V("j")), 1, V("i")))));
    ast_stmt *body = SEQ(4, ST("s", ast_float(C, LOC, 0, FT_F64), 0),
                         ST("cnt", I(0), 0),
                         ST("p", F32(1), 0),
                         PFOR("i", I(0), V("n"), SEQ(5, r1, r2, r3, r4, heap)));
    ast_param ps[] = {PSIZE("n"), PSIZE("m"), PT("x", FT_F64, FT_ACC_IN, 1, V("n")),
                      PT("s", FT_F64, FT_ACC_OUT, 0), PT("mx", FT_F32, FT_ACC_INOUT, 0),
                      PT("cnt", FT_I64, FT_ACC_OUT, 0), PT("p", FT_F32, FT_ACC_OUT, 0),
                      PT("s2", FT_F64, FT_ACC_OUT, 1, V("n"))};
    build(PROG(1, FUNC("psum", 8, ps, body)));
    enum { N = 200000, M = 1000 };
    double *x = malloc(sizeof *x * N), *s2 = malloc(sizeof *s2 * N), s, rs = 0;
    int64_t cnt, rcnt = 0;
    float mx = -1, p;
    for (int i = 0; i < N; i++) {
        x[i] = (double)((i * 7919) % 1000);
        rs += x[i];
        rcnt += x[i] > 500;
    }
    int (*f)(int64_t, int64_t, const double *, double *, float *, int64_t *, float *, double *) =
        sym("psum");
    ck_assert_int_eq(f(N, M, x, &s, &mx, &cnt, &p, s2), FT_OK);
    ck_assert_double_eq(s, rs);
    ck_assert_float_eq(mx, 999.0f);
    ck_assert_int_eq(cnt, rcnt);
    ck_assert_float_eq(p, 1.0f);
    for (int i = 0; i < N; i += 997)
        ck_assert_double_eq(s2[i], x[i] * M);
    free(x);
    free(s2);
}
END_TEST

/* Python's floor division and modulo. */
static int64_t py_floordiv(int64_t a, int64_t b) { return (int64_t)floor((double)a / (double)b); }
static int64_t py_mod(int64_t a, int64_t b) { return a - py_floordiv(a, b) * b; }

START_TEST(test_floordiv_mod)
{
    ast_expr *ai = LD("a", FT_I64, 1, V("i")), *bi = LD("b", FT_I64, 1, V("i"));
    ast_expr *a32 = ast_cast(C, LOC, FT_I32, ai), *b32 = ast_cast(C, LOC, FT_I32, bi);
    ast_expr *af = ast_cast(C, LOC, FT_F64, ai);
    ast_expr *bf = B(AST_ADD, ast_cast(C, LOC, FT_F64, bi), ast_float(C, LOC, 0.5, FT_F64));
    ast_stmt *body = FOR("i", I(0), V("n"), SEQ(6,
        ST("q", B(AST_FLOORDIV, ai, bi), 1, V("i")),
        ST("r", B(AST_MOD, ai, bi), 1, V("i")),
        ST("q32", B(AST_FLOORDIV, a32, b32), 1, V("i")),
        ST("r32", B(AST_MOD, a32, b32), 1, V("i")),
        ST("qf", B(AST_FLOORDIV, af, bf), 1, V("i")),
        ST("rf", B(AST_MOD, af, bf), 1, V("i"))));
    ast_param ps[] = {PSIZE("n"), PT("a", FT_I64, FT_ACC_IN, 1, V("n")),
                      PT("b", FT_I64, FT_ACC_IN, 1, V("n")),
                      PT("q", FT_I64, FT_ACC_OUT, 1, V("n")), PT("r", FT_I64, FT_ACC_OUT, 1, V("n")),
                      PT("q32", FT_I32, FT_ACC_OUT, 1, V("n")), PT("r32", FT_I32, FT_ACC_OUT, 1, V("n")),
                      PT("qf", FT_F64, FT_ACC_OUT, 1, V("n")), PT("rf", FT_F64, FT_ACC_OUT, 1, V("n"))};
    build(PROG(1, FUNC("fdm", 9, ps, body)));
    enum { N = 41 * 20 };
    int64_t a[N], b[N], q[N], r[N];
    int32_t q32[N], r32[N];
    double qf[N], rf[N];
    int n = 0;
    for (int x = -20; x <= 20; x++)
        for (int y = -10; y <= 10; y++)
            if (y != 0) {
                a[n] = x;
                b[n++] = y;
            }
    int (*f)(int64_t, const int64_t *, const int64_t *, int64_t *, int64_t *, int32_t *,
             int32_t *, double *, double *) = sym("fdm");
    ck_assert_int_eq(f(n, a, b, q, r, q32, r32, qf, rf), FT_OK);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(q[i], py_floordiv(a[i], b[i]));
        ck_assert_int_eq(r[i], py_mod(a[i], b[i]));
        ck_assert_int_eq(q32[i], py_floordiv(a[i], b[i]));
        ck_assert_int_eq(r32[i], py_mod(a[i], b[i]));
        double bb = (double)b[i] + 0.5;
        ck_assert_double_eq(qf[i], floor((double)a[i] / bb));
        ck_assert_double_eq_tol(rf[i], (double)a[i] - floor((double)a[i] / bb) * bb, 1e-12);
        /* the sign of the divisor */
        ck_assert(r[i] == 0 || (r[i] < 0) == (b[i] < 0));
    }
}
END_TEST

/* assert x[i] >= 0, serial and in a parallel loop */
START_TEST(test_assert)
{
    ast_stmt *chk = ast_assert(C, LOC, B(AST_GE, LD("x", FT_F32, 1, V("i")), F32(0)));
    ast_stmt *chk2 = ast_assert(C, LOC, B(AST_GE, LD("x", FT_F32, 1, V("i")), F32(0)));
    ast_param ps[] = {PSIZE("n"), PT("x", FT_F32, FT_ACC_IN, 1, V("n")),
                      PT("y", FT_F32, FT_ACC_OUT, 1, V("n"))};
    ast_stmt *body = SEQ(2, FOR("i", I(0), V("n"), chk),
                         ST("y", F32(1), 1, I(0)));
    ast_stmt *pbody = PFOR("i", I(0), V("n"), SEQ(2, chk2, ST("y", F32(1), 1, V("i"))));
    build(PROG(2, FUNC("chk", 3, ps, body), FUNC("pchk", 3, ps, pbody)));
    float x[100], y[100] = {0};
    for (int i = 0; i < 100; i++)
        x[i] = (float)i;
    int (*f)(int64_t, const float *, float *) = sym("chk");
    int (*pf)(int64_t, const float *, float *) = sym("pchk");
    ck_assert_int_eq(f(100, x, y), FT_OK);
    ck_assert_float_eq(y[0], 1.0f);
    ck_assert_int_eq(pf(100, x, y), FT_OK);
    x[57] = -1;
    y[0] = 0;
    ck_assert_int_eq(f(100, x, y), FT_ERR_ASSERT);
    ck_assert_float_eq(y[0], 0.0f);   /* stopped at the assert */
    ck_assert_int_eq(pf(100, x, y), FT_ERR_ASSERT);
    ck_assert_int_eq(f(-3, x, y), FT_ERR_SIZE);
}
END_TEST

/* y[i] = e[idx[i]] (and a guarded form, and a parallel one): a bad index
 * returns FT_ERR_INDEX instead of reading out of bounds. */
START_TEST(test_indirect_index)
{
    ast_expr *ii = LD("idx", FT_I32, 1, V("i"));
    ast_expr *gather = LD("e", FT_F32, 2, ii, V("j"));
    ast_stmt *body = FOR("i", I(0), V("n"), FOR("j", I(0), I(3), ST("y", gather, 2, V("i"), V("j"))));
    ast_expr *guarded = ast_ifexpr(C, LOC, B(AST_GE, ii, I(0)), LD("e", FT_F32, 2, ii, I(0)), F32(-7));
    ast_stmt *gbody = FOR("i", I(0), V("n"), ST("y", guarded, 2, V("i"), I(0)));
    ast_stmt *pbody = PFOR("i", I(0), V("n"), FOR("j", I(0), I(3), ST("y", gather, 2, V("i"), V("j"))));
    /* a store through an index array: y[idx[i], 0] = 1 */
    ast_stmt *sbody = FOR("i", I(0), V("n"), ST("y", F32(1), 2, ii, I(0)));
    ast_param ps[] = {PSIZE("n"), PSIZE("m"), PT("idx", FT_I32, FT_ACC_IN, 1, V("n")),
                      PT("e", FT_F32, FT_ACC_IN, 2, V("m"), I(3)),
                      PT("y", FT_F32, FT_ACC_OUT, 2, V("n"), I(3))};
    build(PROG(4, FUNC("gat", 5, ps, body), FUNC("ggat", 5, ps, gbody),
               FUNC("pgat", 5, ps, pbody), FUNC("scat", 5, ps, sbody)));
    enum { N = 50, M = 20 };
    int32_t idx[N];
    float e[M * 3], y[N * 3];
    for (int i = 0; i < M * 3; i++)
        e[i] = (float)i;
    for (int i = 0; i < N; i++)
        idx[i] = (i * 7) % M;
    typedef int (*fn)(int64_t, int64_t, const int32_t *, const float *, float *);
    fn g = (fn)sym("gat"), gg = (fn)sym("ggat"), pg = (fn)sym("pgat"), sc = (fn)sym("scat");
    ck_assert_int_eq(g(N, M, idx, e, y), FT_OK);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(y[i * 3 + j], e[idx[i] * 3 + j]);
    ck_assert_int_eq(pg(N, M, idx, e, y), FT_OK);
    idx[13] = M;
    ck_assert_int_eq(g(N, M, idx, e, y), FT_ERR_INDEX);
    ck_assert_int_eq(pg(N, M, idx, e, y), FT_ERR_INDEX);
    idx[13] = -1;
    ck_assert_int_eq(g(N, M, idx, e, y), FT_ERR_INDEX);
    ck_assert_int_eq(gg(N, M, idx, e, y), FT_OK);   /* guarded by idx >= 0 */
    ck_assert_float_eq(y[13 * 3], -7.0f);
    ck_assert_int_eq(sc(N, M, idx, e, y), FT_ERR_INDEX);
    idx[13] = 1000000;
    ck_assert_int_eq(gg(N, M, idx, e, y), FT_ERR_INDEX);
}
END_TEST

/* Loops with a negative constant step and a step given at run time (0 runs
 * no iteration); builtins, pow, casts, if-expressions, an integer power;
 * user names that are C keywords. */
START_TEST(test_loops_builtins_names)
{
    ast_expr *xi = LD("float", FT_F32, 1, V("for"));
    ast_stmt *rev = ast_for(C, LOC, "for", B(AST_SUB, V("int"), I(1)), I(-1), I(-1),
        ST("y", xi, 1, B(AST_SUB, B(AST_SUB, V("int"), I(1)), V("for"))));
    ast_stmt *stepped = ast_for(C, LOC, "i", I(0), V("int"), B(AST_SUB, V("st"), I(1)),
        ST("z", I(1), 1, V("i")));
    xi = LD("float", FT_F32, 1, V("i"));
    ast_expr *args1[] = {xi};
    ast_expr *sig = ast_call(C, LOC, AST_SIGMOID, 1, args1);
    ast_expr *sq = ast_call(C, LOC, AST_SQUARE, 1, args1);
    ast_expr *absx = ast_call(C, LOC, AST_ABS, 1, args1);
    ast_expr *sqrtabs = ast_call(C, LOC, AST_SQRT, 1, (ast_expr *[]){absx});
    ast_expr *pw = B(AST_POW, xi, I(2));
    ast_expr *pw3 = B(AST_POW, absx, F32(1.5));
    ast_expr *ipw = ast_cast(C, LOC, FT_F32, B(AST_POW, ast_cast(C, LOC, FT_I64, xi), I(3)));
    ast_expr *ife = ast_ifexpr(C, LOC, B(AST_AND, B(AST_GT, xi, F32(0)), ast_unary(C, LOC, AST_NOT, ast_boolc(C, LOC, 0))),
                               ast_unary(C, LOC, AST_NEG, xi), F32(0.1));
    ast_stmt *math = FOR("i", I(0), V("int"), SEQ(7,
        ST("w", sig, 2, V("i"), I(0)),
        ST("w", B(AST_SUB, sq, pw), 2, V("i"), I(1)),
        ST("w", sqrtabs, 2, V("i"), I(2)),
        ST("w", pw3, 2, V("i"), I(3)),
        ST("w", ipw, 2, V("i"), I(4)),
        ST("w", ife, 2, V("i"), I(5)),
        ST("w", ast_cast(C, LOC, FT_F32, ast_call(C, LOC, AST_ABS, 1,
            (ast_expr *[]){ast_cast(C, LOC, FT_I32, xi)})), 2, V("i"), I(6))));
    ast_stmt *body = SEQ(3, rev, stepped, math);
    ast_param ps[] = {PSIZE("int"), PSIZE("st"), PT("float", FT_F32, FT_ACC_IN, 1, V("int")),
                      PT("y", FT_F32, FT_ACC_OUT, 1, V("int")),
                      PT("z", FT_I32, FT_ACC_INOUT, 1, V("int")),
                      PT("w", FT_F32, FT_ACC_OUT, 2, V("int"), I(7))};
    build(PROG(1, FUNC("misc", 6, ps, body)));
    enum { N = 10 };
    float x[N], y[N], w[N * 7];
    int32_t z[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i - 4.5f;
    int (*f)(int64_t, int64_t, const float *, float *, int32_t *, float *) = sym("misc");
    memset(z, 0, sizeof z);
    ck_assert_int_eq(f(N, 4, x, y, z, w), FT_OK);   /* step 3 */
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(y[i], x[N - 1 - i]);
        ck_assert_int_eq(z[i], i % 3 == 0);
        const float *r = &w[i * 7];
        ck_assert_float_eq_tol(r[0], 1 / (1 + expf(-x[i])), 1e-6f);
        ck_assert_float_eq(r[1], 0.0f);
        ck_assert_float_eq_tol(r[2], sqrtf(fabsf(x[i])), 1e-6f);
        ck_assert_float_eq_tol(r[3], powf(fabsf(x[i]), 1.5f), 1e-5f);
        int64_t xi64 = (int64_t)x[i];
        ck_assert_float_eq(r[4], (float)(xi64 * xi64 * xi64));
        ck_assert_float_eq(r[5], x[i] > 0 ? -x[i] : 0.1f);
        ck_assert_float_eq(r[6], (float)abs((int32_t)x[i]));
    }
    memset(z, 0, sizeof z);
    ck_assert_int_eq(f(N, 1, x, y, z, w), FT_OK);   /* zero step: no iteration */
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(z[i], 0);
    memset(z, 0, sizeof z);
    ck_assert_int_eq(f(N, 0, x, y, z, w), FT_OK);   /* range(0, n, -1) is empty */
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(z[i], 0);
    ck_assert_int_eq(f(N, -2, x, y, z, w), FT_ERR_SIZE);
    ck_assert_int_eq(f(-1, 1, x, y, z, w), FT_ERR_SIZE);
}
END_TEST

/* f16 and bool tensors (CAS atomics), nested parallel loops whose inner
 * assert fails, a function without parameters, a doubly indirect index. */
START_TEST(test_f16_bool_nested)
{
    ast_expr *hi = LD("h", FT_F16, 1, V("i"));
    ast_stmt *r1 = RED(AST_RED_ADD, "hs", hi, 0);
    ast_stmt *r2 = RED(AST_RED_MAX, "any", B(AST_GT, hi, ast_float(C, LOC, 2.5, FT_F16)), 0);
    r1->u.red.atomic = r2->u.red.atomic = 1;
    ast_expr *sig[] = {hi};
    ast_stmt *body = SEQ(3, ST("hs", ast_float(C, LOC, 0, FT_F16), 0),
        ST("any", ast_boolc(C, LOC, 0), 0),
        PFOR("i", I(0), V("n"), SEQ(3, r1, r2,
            ST("g", ast_call(C, LOC, AST_SIGMOID, 1, sig), 1, V("i")))));
    ast_param ps[] = {PSIZE("n"), PT("h", FT_F16, FT_ACC_IN, 1, V("n")),
                      PT("hs", FT_F16, FT_ACC_OUT, 0), PT("any", FT_BOOL, FT_ACC_OUT, 0),
                      PT("g", FT_F16, FT_ACC_OUT, 1, V("n"))};
    /* for i (parallel): for j (parallel): assert x[i, j] >= 0 */
    ast_stmt *nest = PFOR("i", I(0), V("n"), PFOR("j", I(0), I(4),
        ast_assert(C, LOC, B(AST_GE, LD("x", FT_I32, 2, V("i"), V("j")), I(0)))));
    ast_param ps2[] = {PSIZE("n"), PT("x", FT_I32, FT_ACC_IN, 2, V("n"), I(4))};
    /* y[i] = e[a[b[i]]] */
    ast_stmt *ind = FOR("i", I(0), V("n"), ST("y", LD("e", FT_F32, 1,
        LD("a", FT_I64, 1, LD("b", FT_I64, 1, V("i")))), 1, V("i")));
    ast_param ps3[] = {PSIZE("n"), PT("b", FT_I64, FT_ACC_IN, 1, V("n")),
                       PT("a", FT_I64, FT_ACC_IN, 1, I(3)), PT("e", FT_F32, FT_ACC_IN, 1, I(2)),
                       PT("y", FT_F32, FT_ACC_OUT, 1, V("n"))};
    build(PROG(4, FUNC("half", 5, ps, body), FUNC("nest", 2, ps2, nest),
               FUNC("nothing", 0, NULL, SEQ(0)), FUNC("ind2", 5, ps3, ind)));
    enum { N = 64 };
    _Float16 h[N], hs, g[N];
    bool any = true;
    for (int i = 0; i < N; i++)
        h[i] = (_Float16)((i % 5) * 0.5);
    int (*f)(int64_t, const _Float16 *, _Float16 *, bool *, _Float16 *) = sym("half");
    ck_assert_int_eq(f(N, h, &hs, &any, g), FT_OK);
    ck_assert_float_eq((float)hs, 63.0f);   /* 12 * 5 + 3, exact in f16 */
    ck_assert(!any);
    ck_assert_float_eq_tol((float)g[3], 1 / (1 + expf(-1.5f)), 2e-3f);
    h[7] = (_Float16)3;
    ck_assert_int_eq(f(N, h, &hs, &any, g), FT_OK);
    ck_assert(any);
    int32_t x[N * 4] = {0};
    int (*nf)(int64_t, const int32_t *) = sym("nest");
    ck_assert_int_eq(nf(N, x), FT_OK);
    x[4 * 9 + 2] = -1;
    ck_assert_int_eq(nf(N, x), FT_ERR_ASSERT);
    int (*nothing)(void) = sym("nothing");
    ck_assert_int_eq(nothing(), FT_OK);
    ck_assert_int_eq(desc("nothing")->call(NULL), FT_OK);
    int64_t b[3] = {0, 1, 2}, a[3] = {1, 0, 1};
    float e[2] = {10, 20}, y[3];
    int (*i2)(int64_t, const int64_t *, const int64_t *, const float *, float *) = sym("ind2");
    ck_assert_int_eq(i2(3, b, a, e, y), FT_OK);
    ck_assert_float_eq(y[0], 20.0f);
    ck_assert_float_eq(y[1], 10.0f);
    b[1] = 3;   /* inner index out of a's bounds */
    ck_assert_int_eq(i2(3, b, a, e, y), FT_ERR_INDEX);
    b[1] = 1;
    a[0] = 2;   /* outer index out of e's bounds */
    ck_assert_int_eq(i2(3, b, a, e, y), FT_ERR_INDEX);
}
END_TEST

/* A failing compile reports the compiler's output and leaves nothing. */
START_TEST(test_compile_failure)
{
    char *buf = NULL;
    size_t len = 0;
    C->diag_out = open_memstream(&buf, &len);
    C->opts.cflags = "-DNONSENSE -fnot-a-flag";
    char so[300];
    snprintf(so, sizeof so, "%s/libbad.so", dir);
    ck_assert_int_ne(cg_build_library(C, matmul_prog(), so), 0);
    fclose(C->diag_out);
    C->diag_out = stderr;
    ck_assert_int_gt(C->nerrors, 0);
    ck_assert_ptr_nonnull(strstr(buf, "fnot-a-flag"));
    free(buf);
    ck_assert_int_eq(dir_entries(), 0);
    /* a compiler that does not exist */
    C->opts.cc = "ftc-no-such-compiler";
    C->diag_out = fopen("/dev/null", "w");
    ck_assert_int_ne(cg_build_library(C, matmul_prog(), so), 0);
    fclose(C->diag_out);
    C->diag_out = stderr;
    ck_assert_int_eq(dir_entries(), 0);
}
END_TEST

/* Emitted text: the ABI pasted in, a reserved exported name refused. */
START_TEST(test_emit_text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(cg_emit_c(C, matmul_prog(), f), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "typedef struct ft_module_desc"));
    ck_assert_ptr_nonnull(strstr(buf, "int mm(int64_t n, int64_t m, int64_t k, const float *a"));
    ck_assert_ptr_nonnull(strstr(buf, "c[i * m + j] += a[i * k + p] * b[p * m + j];"));
    free(buf);
    f = fopen("/dev/null", "w");
    C->diag_out = f;
    ast_param ps[] = {PSIZE("n")};
    ck_assert_int_ne(cg_emit_c(C, PROG(1, FUNC("sqrt", 1, ps, SEQ(0))), f), 0);
    fclose(f);
    C->diag_out = stderr;
}
END_TEST

static Suite *cg_suite(void)
{
    Suite *s = suite_create("cg");
    TCase *tc = tcase_create("c");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_matmul);
    tcase_add_test(tc, test_reduce_scalar);
    tcase_add_test(tc, test_openmp_atomic);
    tcase_add_test(tc, test_floordiv_mod);
    tcase_add_test(tc, test_assert);
    tcase_add_test(tc, test_indirect_index);
    tcase_add_test(tc, test_loops_builtins_names);
    tcase_add_test(tc, test_f16_bool_nested);
    tcase_add_test(tc, test_compile_failure);
    tcase_add_test(tc, test_emit_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* Keep libgomp loaded for the whole run: a kernel's OpenMP threads must
     * not outlive an unloaded libgomp when its library is dlclose'd. */
    if (!dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
        fprintf(stderr, "test_cg: cannot pin libgomp: %s\n", dlerror());
    SRunner *sr = srunner_create(cg_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
