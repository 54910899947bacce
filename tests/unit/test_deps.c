/* test_deps.c - the dependence analysis (analysis/access.c, deps.c).
 *
 * The figures of the FreeTensor paper through the queries transforms use,
 * every isl object compared with isl_*_is_equal; then random affine loop
 * nests, built with the ast.h constructors, whose dependences must equal
 * those found by running the nest and comparing every pair of accesses.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <isl/union_map.h>

#include "ast.h"
#include "deps.h"
#include "driver.h"
#include "visit.h"

/* ------------------------------------------------------------ helpers */

/* The only function of text, compiled in ctx (diagnostics to stderr). */
static ast_func *compile(ft_ctx *ctx, const char *text)
{
    ft_source *src = ft_source_from_string(ctx, "t.ft", text);
    ast_program *p = ft_compile(ctx, src, NULL, NULL);
    ck_assert_msg(p && p->nfuncs == 1, "the test program does not compile");
    return p->funcs[0];
}

typedef struct label_find {
    ast_visitor v;
    const char *label;
    ast_stmt *found;
} label_find;

static int label_visit(ast_visitor *v, ast_stmt *s)
{
    label_find *st = (label_find *)v;
    if (s->label && strcmp(s->label, st->label) == 0)
        st->found = s;
    return 1;
}

/* The statement of f labelled label. */
static ast_stmt *labelled(ast_func *f, const char *label)
{
    label_find st = {.v.stmt = label_visit, .label = label};
    ast_visit(f->body, &st.v);
    ck_assert_msg(st.found, "no statement labelled %s", label);
    return st.found;
}

/* isl text with each `@LABEL` replaced by the statement's tuple. */
static char *with_names(ft_ctx *ctx, ast_func *f, const char *text)
{
    char *out = ft_strdup(ctx, "");
    for (const char *p = text; *p;) {
        if (*p != '@') {
            size_t n = strcspn(p, "@");
            out = ft_fmt(ctx, "%s%.*s", out, (int)n, p);
            p += n;
            continue;
        }
        size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        char *label = ft_strndup(ctx, p + 1, n);
        out = ft_fmt(ctx, "%s%s", out, an_stmt_tuple(ctx, labelled(f, label)));
        p += 1 + n;
    }
    return out;
}

/* Whether the deps of kind equal the relation in text (labels with @). */
static int deps_equal(ft_ctx *ctx, an_deps *d, ast_func *f, an_dep_kind k, const char *text)
{
    isl_union_map *want = isl_union_map_read_from_str(ft_isl(ctx), with_names(ctx, f, text));
    isl_union_map *got = an_deps_untagged(d, k);
    isl_set *ctxs = isl_set_copy(d->acc->context);
    want = isl_union_map_intersect_params(want, isl_set_copy(ctxs));
    got = isl_union_map_intersect_params(got, ctxs);
    isl_bool eq = isl_union_map_is_equal(want, got);
    if (eq != isl_bool_true) {
        fprintf(stderr, "%s differs:\n  want ", an_dep_kind_name(k));
        isl_union_map_dump(want);
        fprintf(stderr, "  got  ");
        isl_union_map_dump(got);
    }
    isl_union_map_free(want);
    isl_union_map_free(got);
    return eq == isl_bool_true;
}

/* Whether the kind has no dependence. */
static int no_deps(an_deps *d, an_dep_kind k)
{
    isl_union_map *u = an_deps_untagged(d, k);
    int r = isl_union_map_is_empty(u) == isl_bool_true;
    isl_union_map_free(u);
    return r;
}

/* an_order_reverses_dep for a schedule in isl text (labels with @). */
static int reverses(ft_ctx *ctx, an_deps *d, ast_func *f, const char *sched, char **w)
{
    isl_union_map *s = isl_union_map_read_from_str(ft_isl(ctx), with_names(ctx, f, sched));
    int r = an_order_reverses_dep(d, s, w);
    isl_union_map_free(s);
    return r;
}

/* ------------------------------------------------------------ figures */

/* Fig. 11: (i, j) -> (i - 2, j + 1) from (2) back to (1), and nothing else. */
START_TEST(fig11_exact_dependence)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx,
        "export func fig11(n: size, m: size, b: f32[n, m] in, a: f32[n, m] out,\n"
        "                  c: f32[n, m] out):\n"
        "    Li: for i in range(n):\n"
        "        for j in range(m):\n"
        "            L1: a[i, j] = b[i, j]\n"
        "            if i >= 2 and j + 1 < m:\n"
        "                L2: c[i, j] = a[i - 2, j + 1]\n");
    an_deps *d = an_func_deps(ctx, f);
    ck_assert_ptr_nonnull(d);
    /* the paper's direction: sink (2) at (i, j) -> source (1) at (i-2, j+1) */
    isl_union_map *back = isl_union_map_reverse(an_deps_untagged(d, AN_RAW));
    isl_union_map *paper = isl_union_map_read_from_str(ft_isl(ctx), with_names(ctx, f,
        "[n, m] -> { @L2[i, j] -> @L1[i - 2, j + 1] : 2 <= i < n and 0 <= j < m - 1 }"));
    ck_assert(isl_union_map_is_equal(back, paper) == isl_bool_true);
    isl_union_map_free(back);
    isl_union_map_free(paper);
    ck_assert(no_deps(d, AN_WAR) && no_deps(d, AN_WAW) && no_deps(d, AN_RED));
    ast_stmt *li = labelled(f, "Li");
    char *w = NULL;
    ck_assert_int_eq(an_loop_carries_dep(d, li, &w), 1);
    ck_assert_ptr_nonnull(strstr(w, "'a'"));
    an_between b;
    ck_assert_int_eq(an_deps_between(d, labelled(f, "L1"), labelled(f, "L2"), &b), 1);
    ck_assert(b.forward && !b.backward && b.ntensors == 1);
    ck_assert_str_eq(b.tensors[0], "a");
    ck_assert_ptr_nonnull(b.witness);
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Fig. 12(a): no dependence, interchange allowed. */
START_TEST(fig12a_reorderable)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx,
        "export func f(n: size, m: size, x: f32[n, m] in, y: f32[n, m] out):\n"
        "    Li: for i in range(n):\n"
        "        Lj: for j in range(m):\n"
        "            S: y[i, j] = x[i, j] * 2\n");
    an_deps *d = an_func_deps(ctx, f);
    ck_assert(no_deps(d, AN_RAW) && no_deps(d, AN_WAR) && no_deps(d, AN_WAW));
    ck_assert_int_eq(reverses(ctx, d, f, "[n, m] -> { @S[i, j] -> [j, i] }", NULL), 0);
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Fig. 12(b): distance (1, -1): interchange reverses it. */
START_TEST(fig12b_interchange_forbidden)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx,
        "export func f(n: size, m: size, a: f32[n, m] inout):\n"
        "    Li: for i in range(1, n):\n"
        "        Lj: for j in range(m - 1):\n"
        "            S: a[i, j] = a[i - 1, j + 1] + 1\n");
    an_deps *d = an_func_deps(ctx, f);
    ck_assert(deps_equal(ctx, d, f, AN_RAW,
        "[n, m] -> { @S[i, j] -> @S[i + 1, j - 1] : 1 <= i < n - 1 and 1 <= j < m - 1 }"));
    char *w = NULL;
    ck_assert_int_eq(reverses(ctx, d, f, "[n, m] -> { @S[i, j] -> [j, i] }", &w), 1);
    ck_assert_ptr_nonnull(strstr(w, "read-after-write"));
    ck_assert_int_eq(reverses(ctx, d, f, "[n, m] -> { @S[i, j] -> [i, j] }", NULL), 0);
    ck_assert_int_eq(an_loop_carries_dep(d, labelled(f, "Li"), NULL), 1);
    ck_assert_int_eq(an_loop_carries_dep(d, labelled(f, "Lj"), NULL), 0);
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Fig. 12(c): same-operator reductions into one element: reorderable. */
START_TEST(fig12c_reductions_reorderable)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx,
        "export func f(n: size, m: size, x: f32[n, m] in, s: f32 out):\n"
        "    Li: for i in range(n):\n"
        "        Lj: for j in range(m):\n"
        "            S: s += x[i, j]\n");
    an_deps *d = an_func_deps(ctx, f);
    ck_assert(no_deps(d, AN_RAW) && no_deps(d, AN_WAR) && no_deps(d, AN_WAW));
    ck_assert(!no_deps(d, AN_RED));
    ck_assert_int_eq(reverses(ctx, d, f, "[n, m] -> { @S[i, j] -> [j, i] }", NULL), 0);
    ck_assert_int_eq(an_loop_carries_dep(d, labelled(f, "Li"), NULL), 0);
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Fig. 12(d): a temporary inside Lj depends only within one (i, j); the
 * same temporary declared outside the loops forbids the interchange. */
START_TEST(fig12d_local_scope_projected)
{
    const char *fmt =
        "export func f(n: size, m: size, x: f32[n, m] in, y: f32[n, m] out):\n"
        "%s"
        "    Li: for i in range(n):\n"
        "        Lj: for j in range(m):\n"
        "%s"
        "            S1: t = x[i, j] * 2\n"
        "            S2: y[i, j] = t + 1\n";
    const char *sched = "[n, m] -> { @S1[i, j] -> [j, i, 0]; @S2[i, j] -> [j, i, 1] }";
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx, ft_fmt(ctx, fmt, "", "            var t: f32\n"));
    an_deps *d = an_func_deps(ctx, f);
    ck_assert(deps_equal(ctx, d, f, AN_RAW,
        "[n, m] -> { @S1[i, j] -> @S2[i, j] : 0 <= i < n and 0 <= j < m }"));
    ck_assert(no_deps(d, AN_WAR) && no_deps(d, AN_WAW));
    ck_assert_int_eq(reverses(ctx, d, f, sched, NULL), 0);
    an_deps_free(d);
    ft_ctx_free(ctx);

    ctx = ft_ctx_new();
    f = compile(ctx, ft_fmt(ctx, fmt, "    var t: f32\n", ""));
    d = an_func_deps(ctx, f);
    char *w = NULL;
    ck_assert_int_eq(reverses(ctx, d, f, sched, &w), 1);
    ck_assert_ptr_nonnull(strstr(w, "'t'"));
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Fig. 13: what parallelizing Li needs. */
static an_par par_of(const char *text)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx, text);
    an_deps *d = an_func_deps(ctx, f);
    char *w = NULL;
    an_par p = an_loop_parallel(d, labelled(f, "Li"), &w);
    if (p == AN_PAR_NO)
        ck_assert_ptr_nonnull(w);
    an_deps_free(d);
    ft_ctx_free(ctx);
    return p;
}

START_TEST(fig13_parallel_kinds)
{
    ck_assert_int_eq(par_of("export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
                            "    Li: for i in range(n):\n"
                            "        y[i] = x[i] + 1\n"), AN_PAR_OK);
    ck_assert_int_eq(par_of("export func f(n: size, x: f32[n] in, y: f32[n] inout):\n"
                            "    Li: for i in range(1, n):\n"
                            "        y[i] = y[i - 1] + x[i]\n"), AN_PAR_NO);
    ck_assert_int_eq(par_of("export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
                            "    Li: for i in range(n):\n"
                            "        var t: f32[2]\n"
                            "        t[0] = x[i] * 2\n"
                            "        t[1] = x[i] + 1\n"
                            "        y[i] = t[0] * t[1]\n"), AN_PAR_OK);
    ck_assert_int_eq(par_of("export func f(n: size, x: f32[n] in, s: f32 out):\n"
                            "    Li: for i in range(n):\n"
                            "        s += x[i]\n"), AN_PAR_REDUCTION);
    ck_assert_int_eq(par_of("export func f(n: size, m: size, idx: i32[n] in, x: f32[n] in,\n"
                            "              y: f32[m] inout):\n"
                            "    Li: for i in range(n):\n"
                            "        y[idx[i]] += x[i]\n"), AN_PAR_ATOMIC);
    /* a reduction that is also read is a dependence */
    ck_assert_int_eq(par_of("export func f(n: size, x: f32[n] in, s: f32 out, y: f32[n] out):\n"
                            "    Li: for i in range(n):\n"
                            "        s += x[i]\n"
                            "        y[i] = s\n"), AN_PAR_NO);
}
END_TEST

/* Whether Li carries a reduction pair at affine indices. */
static int affine_collisions_of(const char *text)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx, text);
    an_deps *d = an_func_deps(ctx, f);
    int r = an_loop_affine_collisions(d, labelled(f, "Li"));
    an_deps_free(d);
    ft_ctx_free(ctx);
    return r;
}

/* Random-access collisions only (a gradient's scatter) against affine ones
 * (every iteration hits one element), which auto_parallelize tells apart. */
START_TEST(affine_collisions)
{
    ck_assert_int_eq(affine_collisions_of(
        "export func f(n: size, m: size, idx: i32[n] in, x: f32[n] in, y: f32[m] inout):\n"
        "    Li: for i in range(n):\n"
        "        y[idx[i]] += x[i]\n"), 0);
    ck_assert_int_eq(affine_collisions_of(
        "export func f(n: size, m: size, idx: i32[n] in, x: f32[n] in, y: f32[m] inout,\n"
        "              s: f32 inout):\n"
        "    Li: for i in range(n):\n"
        "        y[idx[i]] += x[i]\n"
        "        s += x[i]\n"), 1);
    /* reductions of one iteration at affine indices do not collide across Li */
    ck_assert_int_eq(affine_collisions_of(
        "export func f(n: size, x: f32[n, 4] in, y: f32[n] inout):\n"
        "    Li: for i in range(n):\n"
        "        for j in range(4):\n"
        "            y[i] += x[i, j]\n"), 0);
}
END_TEST

/* Non-affine indices are over-approximated within the tensor's bounds. */
START_TEST(nonaffine_over_approximated)
{
    ft_ctx *ctx = ft_ctx_new();
    ast_func *f = compile(ctx,
        "export func f(n: size, idx: i32[n] in, x: f32[n] inout):\n"
        "    Li: for i in range(n):\n"
        "        S1: x[idx[i]] = 1\n"
        "        S2: x[i * i] = x[i] + 1\n"
        "        S3: x[(i + 5) % 4] = x[i // 2]\n");
    an_deps *d = an_func_deps(ctx, f);
    int found = 0;
    for (int i = 0; i < d->acc->n; i++) {
        const an_access *a = d->acc->acc[i];
        if (strcmp(a->var, "x") || a->kind != AN_ACC_WRITE)
            continue;
        isl_map *want = isl_map_read_from_str(ft_isl(ctx), with_names(ctx, f,
            a->stmt == labelled(f, "S3")
                ? "[n] -> { @S3[i] -> x[(i + 5) mod 4] : 0 <= i < n and (i + 5) mod 4 < n }"
                : a->stmt == labelled(f, "S1")
                ? "[n] -> { @S1[i] -> x[k] : 0 <= i < n and 0 <= k < n }"
                : "[n] -> { @S2[i] -> x[k] : 0 <= i < n and 0 <= k < n }"));
        ck_assert_int_eq(a->exact, a->stmt == labelled(f, "S3"));
        ck_assert(isl_map_is_equal(a->rel, want) == isl_bool_true);
        isl_map_free(want);
        found++;
    }
    ck_assert_int_eq(found, 3);
    ck_assert_int_eq(an_loop_carries_dep(d, labelled(f, "Li"), NULL), 1);
    an_deps_free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------- random nests, brute force */

enum { NT = 2, EXT = 6, MAXD = 3 };
static const char *const tnames[NT] = {"A", "B"};

typedef struct rng { uint64_t s; } rng;

static int rnd(rng *r, int n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((r->s >> 33) % (uint64_t)n);
}

/* c0 + sum c_k * i_k over the first depth iterators, c_k in {-1, 0, 1}. */
static ast_expr *rand_affine(ft_ctx *ctx, rng *r, int depth)
{
    ft_loc loc = {0};
    ast_expr *e = ast_int(ctx, loc, rnd(r, 4));
    for (int k = 0; k < depth; k++) {
        int c = rnd(r, 4) - 1;      /* -1, 0, 1, 2 */
        if (c == 0)
            continue;
        ast_expr *v = ast_var(ctx, loc, ft_fmt(ctx, "i%d", k));
        if (c != 1)
            v = ast_binary(ctx, loc, AST_MUL, ast_int(ctx, loc, c), v);
        e = ast_binary(ctx, loc, AST_ADD, e, v);
    }
    return e;
}

/* Indices of tensor t (A is 1-D, B 2-D). */
static ast_expr **rand_idx(ft_ctx *ctx, rng *r, int t, int depth, int *n)
{
    *n = t + 1;
    ast_expr **idx = ft_alloc(ctx, sizeof *idx * 2);
    for (int d = 0; d < *n; d++)
        idx[d] = rand_affine(ctx, r, depth);
    return idx;
}

/* A Store or an add-Reduce of random loads, maybe under an affine `if`. */
static ast_stmt *rand_leaf(ft_ctx *ctx, rng *r, int depth)
{
    ft_loc loc = {0};
    ast_expr *v = ast_float(ctx, loc, 1.0, FT_F32);
    for (int k = rnd(r, 3); k > 0; k--) {
        int t = rnd(r, NT), n;
        ast_expr **idx = rand_idx(ctx, r, t, depth, &n);
        v = ast_binary(ctx, loc, AST_ADD, v, ast_load(ctx, loc, tnames[t], FT_F32, n, idx));
    }
    int t = rnd(r, NT), n;
    ast_expr **idx = rand_idx(ctx, r, t, depth, &n);
    ast_stmt *s = rnd(r, 5) < 3 ? ast_store(ctx, loc, tnames[t], n, idx, v)
                                : ast_reduce(ctx, loc, AST_RED_ADD, tnames[t], n, idx, v);
    if (depth > 0 && rnd(r, 4) == 0) {
        ast_expr *c = ast_binary(ctx, loc, AST_LT, rand_affine(ctx, r, depth),
                                 ast_int(ctx, loc, 3 + rnd(r, 3)));
        s = ast_if(ctx, loc, c, s, NULL);
    }
    return s;
}

/* Loop k (iterator i<k>): step 1, 2 or -1 over a few values. */
static ast_stmt *rand_loop(ft_ctx *ctx, rng *r, int k, ast_stmt *body)
{
    ft_loc loc = {0};
    int b = rnd(r, 2), cnt = 2 + rnd(r, 3), kind = rnd(r, 4);
    int step = kind == 2 ? 2 : kind == 3 ? -1 : 1;
    int begin = step > 0 ? b : b + cnt - 1;
    int end = step == 1 ? b + cnt : step == 2 ? b + 2 * cnt - 1 : b - 1;
    return ast_for(ctx, loc, ft_fmt(ctx, "i%d", k), ast_int(ctx, loc, begin),
                   ast_int(ctx, loc, end), ast_int(ctx, loc, step), body);
}

/* The body at depth k of a nest max deep: leaves around the next loop. */
static ast_stmt *rand_body(ft_ctx *ctx, rng *r, int k, int max)
{
    ast_stmt *items[4];
    int n = 0;
    if (k == max || rnd(r, 2))
        items[n++] = rand_leaf(ctx, r, k);
    if (k < max)
        items[n++] = rand_loop(ctx, r, k, rand_body(ctx, r, k + 1, max));
    if (k == max ? rnd(r, 2) : rnd(r, 3) == 0)
        items[n++] = rand_leaf(ctx, r, k);
    return ast_seq(ctx, (ft_loc){0}, n, items);
}

/* A random function with tensors A[EXT] and B[EXT, EXT]. */
static ast_func *rand_func(ft_ctx *ctx, rng *r)
{
    ast_func *f = ft_alloc(ctx, sizeof *f);
    f->name = "nest";
    f->nparams = NT;
    f->params = ft_alloc(ctx, sizeof(ast_param) * NT);
    for (int t = 0; t < NT; t++) {
        ast_expr **shape = ft_alloc(ctx, sizeof *shape * 2);
        shape[0] = shape[1] = ast_int(ctx, (ft_loc){0}, EXT);
        f->params[t] = (ast_param){.name = tnames[t], .dtype = FT_F32, .ndim = t + 1,
                                   .shape = shape, .access = FT_ACC_INOUT};
    }
    f->body = rand_body(ctx, r, 0, 1 + rnd(r, MAXD));
    return f;
}

/* One access as it happened. */
typedef struct event {
    int stmt, nit, it[MAXD];
    an_acc_kind kind;
    int elem;                /* tensor * EXT * EXT + flat index */
} event;

typedef struct trace {
    event *ev;
    int n, cap;
    int it[MAXD];
} trace;

/* Integer value of an affine expression at the current iterators. */
static int64_t eval(const ast_expr *e, const trace *t)
{
    switch (e->kind) {
    case AST_INT: return e->u.ival;
    case AST_VAR: return t->it[atoi(e->u.name + 1)];
    case AST_BINARY: {
        int64_t a = eval(e->u.bin.a, t), b = eval(e->u.bin.b, t);
        return e->u.bin.op == AST_ADD ? a + b : e->u.bin.op == AST_MUL ? a * b
             : e->u.bin.op == AST_LT ? a < b : a - b;
    }
    default: ck_abort_msg("unexpected expression"); return 0;
    }
}

/* Record an access of var[idx] by s (ignored when out of bounds, as the
 * analysis bounds every access by its tensor's shape). */
static void record(trace *t, const ast_stmt *s, int depth, an_acc_kind k, const char *var,
                   int n, ast_expr **idx)
{
    int tn = var[0] - 'A', flat = 0;
    for (int d = 0; d < n; d++) {
        int64_t x = eval(idx[d], t);
        if (x < 0 || x >= EXT)
            return;
        flat = flat * EXT + (int)x;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->ev = realloc(t->ev, sizeof *t->ev * (size_t)t->cap);
    }
    event *e = &t->ev[t->n++];
    *e = (event){.stmt = s->id, .nit = depth, .kind = k, .elem = tn * EXT * EXT + flat};
    memcpy(e->it, t->it, sizeof e->it);
}

/* Run s at loop depth `depth`, recording accesses in execution order. */
static void run(const ast_stmt *s, int depth, trace *t)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            run(s->u.seq.stmts[i], depth, t);
        break;
    case AST_FOR: {
        int64_t b = eval(s->u.loop.begin, t), e = eval(s->u.loop.end, t);
        int64_t st = s->u.loop.step->u.ival;
        for (int64_t i = b; st > 0 ? i < e : i > e; i += st) {
            t->it[depth] = (int)i;
            run(s->u.loop.body, depth + 1, t);
        }
        break;
    }
    case AST_IF:
        if (eval(s->u.branch.cond, t))
            run(s->u.branch.then, depth, t);
        break;
    case AST_STORE:
    case AST_REDUCE: {
        const ast_expr *v = s->kind == AST_STORE ? s->u.store.value : s->u.red.value;
        while (v->kind == AST_BINARY) {         /* the loads of 1 + A[..] + B[..] */
            const ast_expr *l = v->u.bin.b;
            record(t, s, depth, AN_ACC_READ, l->u.load.var, l->u.load.n, l->u.load.idx);
            v = v->u.bin.a;
        }
        if (s->kind == AST_STORE)
            record(t, s, depth, AN_ACC_WRITE, s->u.store.var, s->u.store.n, s->u.store.idx);
        else
            record(t, s, depth, AN_ACC_REDUCE, s->u.red.var, s->u.red.n, s->u.red.idx);
        break;
    }
    default: break;
    }
}

/* "S3[1, 0]" */
static char *inst_text(ft_ctx *ctx, const event *e)
{
    char *s = ft_fmt(ctx, "S%d[", e->stmt);
    for (int k = 0; k < e->nit; k++)
        s = ft_fmt(ctx, "%s%s%d", s, k ? ", " : "", e->it[k]);
    return ft_fmt(ctx, "%s]", s);
}

/* Which kind the ordered pair (a before b, same element) is, or -1. */
static int pair_kind(const event *a, const event *b, int kind)
{
    if (a->kind == AN_ACC_REDUCE && b->kind == AN_ACC_REDUCE)
        return 0;          /* same operator (add) into one tensor */
    int aw = a->kind != AN_ACC_READ, ar = a->kind != AN_ACC_WRITE;
    int bw = b->kind != AN_ACC_READ, br = b->kind != AN_ACC_WRITE;
    return kind == AN_RAW ? aw && br : kind == AN_WAR ? ar && bw : aw && bw;
}

/* The dependences of one kind by comparing every ordered pair of events. */
static isl_union_map *brute_deps(ft_ctx *ctx, const trace *t, int kind)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    len += (size_t)sprintf(buf, "{ ");
    for (int i = 0; i < t->n; i++)
        for (int j = i + 1; j < t->n; j++) {
            const event *a = &t->ev[i], *b = &t->ev[j];
            if (a->elem != b->elem || !pair_kind(a, b, kind) ||
                (a->stmt == b->stmt && !memcmp(a->it, b->it, sizeof(int) * (size_t)a->nit)))
                continue;
            char *p = ft_fmt(ctx, "%s -> %s; ", inst_text(ctx, a), inst_text(ctx, b));
            size_t n = strlen(p);
            if (len + n + 4 > cap)
                buf = realloc(buf, cap *= 2);
            memcpy(buf + len, p, n + 1);
            len += n;
        }
    strcpy(buf + len, "}");
    isl_union_map *u = isl_union_map_read_from_str(ft_isl(ctx), buf);
    free(buf);
    return u;
}

START_TEST(random_nests_match_brute_force)
{
    rng r = {12345};
    for (int n = 0; n < 30; n++) {
        ft_ctx *ctx = ft_ctx_new();
        ast_func *f = rand_func(ctx, &r);
        an_deps *d = an_func_deps(ctx, f);
        ck_assert_ptr_nonnull(d);
        trace t = {0};
        run(f->body, 0, &t);
        an_accesses *fa = an_collect_accesses(ctx, f);
        an_deps *flow = an_compute_deps(fa);      /* isl's flow, not pairwise */
        ck_assert_ptr_nonnull(flow);
        flow->owns_acc = 1;
        for (int k = AN_RAW; k <= AN_WAW; k++) {
            isl_union_map *want = brute_deps(ctx, &t, k);
            isl_union_map *got = an_deps_untagged(d, k);
            isl_union_map *by_flow = an_deps_untagged(flow, k);
            ck_assert_msg(isl_union_map_is_equal(want, by_flow) == isl_bool_true,
                          "nest %d: the flow's %s differs", n, an_dep_kind_name(k));
            isl_union_map_free(by_flow);
            isl_bool eq = isl_union_map_is_equal(want, got);
            if (eq != isl_bool_true) {
                fprintf(stderr, "nest %d, %s:\n", n, an_dep_kind_name(k));
                ast_print_func(stderr, f);
                isl_union_map_dump(want);
                isl_union_map_dump(got);
            }
            ck_assert_msg(eq == isl_bool_true, "nest %d: %s differs", n, an_dep_kind_name(k));
            isl_union_map_free(want);
            isl_union_map_free(got);
        }
        free(t.ev);
        an_deps_free(d);
        an_deps_free(flow);
        ft_ctx_free(ctx);
    }
}
END_TEST

static Suite *deps_suite(void)
{
    Suite *s = suite_create("deps");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fig11_exact_dependence);
    tcase_add_test(tc, fig12a_reorderable);
    tcase_add_test(tc, fig12b_interchange_forbidden);
    tcase_add_test(tc, fig12c_reductions_reorderable);
    tcase_add_test(tc, fig12d_local_scope_projected);
    tcase_add_test(tc, fig13_parallel_kinds);
    tcase_add_test(tc, affine_collisions);
    tcase_add_test(tc, nonaffine_over_approximated);
    tcase_add_test(tc, random_nests_match_brute_force);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(deps_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
