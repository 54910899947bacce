/* sched_cache.c - cache(S, var, mtype) and cache_reduce(S, var, mtype):
 * accesses of a tensor inside a statement go through a local buffer.
 *
 * Requires: f's AST.
 * Provides, in place of S (FreeTensor's Figure 14 caches `a[i:i+m]`):
 *
 *     var a_c: f32[ext_0, ...]           # the region S touches
 *         fill:  a_c[c...] = a[lo + c...]          (cache: always)
 *                a_c[c...] = identity               (cache_reduce)
 *         S, with a[x...] read and written as a_c[x - lo...]
 *         flush: a[lo + c...] = a_c[c...]           (cache: when S writes a)
 *                a[lo + c...] op= a_c[c...]         (cache_reduce)
 *
 * The region is a box: per dimension, lo and hi are bounds of the indices
 * of every access in terms of what is fixed while S runs (sizes and the
 * iterators around S), from analysis/bounds.h over S's loops and guards;
 * a dimension whose indices have no such bounds (a data-dependent index)
 * is cached whole.  A box not proven inside the tensor is clamped to it.
 * The fill covers the whole box even when S only writes, so elements of
 * the box that S does not write are flushed back unchanged.  The fill and
 * flush Stores are labelled (`a_c_fill`, `a_c_flush`, or the names the
 * schedule gives them), which names them for later lines and keeps the
 * cleanup passes from undoing the cache when the dump is compiled again;
 * their loops are named by their iterators (`a_c_i0`, ...).
 *
 * Legality: on one thread the buffer holds exactly the values the tensor
 * would, so the result is the same.  Inside a parallel loop a flush could
 * overwrite elements of the box that other iterations write: `cache` of a
 * tensor S writes is refused there (cache before parallelizing; parallelize
 * then checks the fill and flush with the dependence analysis), and the
 * flush of `cache_reduce` is atomic.  cache_reduce needs every access of
 * var in S to be a reduction with one operator.  Only mtype cpu is built.
 */
#include "schedule.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../analysis/bounds.h"
#include "sched_util.h"
#include "xf_util.h"

/* The box S touches: per dimension the chosen bounds so far. */
typedef struct cache_box {
    ft_ctx *ctx;
    an_bounds *b;
    int scope;                 /* variables fixed while S runs */
    const char *var;
    int ndim;
    int *has, *whole;          /* a bound chosen / the dimension cached whole */
    ast_expr **lo, **hi;
    int loads, stores, reduces, ops_mixed;
    ast_reduce_op op;
} cache_box;

/* a - b as a constant in *c; 0 when it is not one. */
static int const_diff(ft_ctx *ctx, const ast_expr *a, const ast_expr *b, int64_t *c)
{
    an_lin l;
    ast_expr *d = ast_binary(ctx, a->loc, AST_SUB, (ast_expr *)a, (ast_expr *)b);
    if (!an_lin_of(ctx, d, &l))
        return 0;
    for (int i = 0; i < l.n; i++)
        if (l.coef[i] != 0)
            return 0;
    *c = l.c;
    return 1;
}

/* A linear form as an expression (its atoms are iterators and sizes). */
static ast_expr *lin_expr(ft_ctx *ctx, ft_loc loc, const an_lin *l)
{
    ast_expr *e = ast_int(ctx, loc, 0);
    for (int i = 0; i < l->n; i++) {
        if (l->coef[i] == 0)
            continue;
        ast_expr *t = xf_mul(ctx, ast_int(ctx, loc, l->coef[i]), ast_clone_expr(ctx, l->atom[i]));
        e = l->coef[i] < 0 && !(e->kind == AST_INT && e->u.ival == 0)
                ? ast_binary(ctx, loc, AST_SUB, e,
                             xf_mul(ctx, ast_int(ctx, loc, -l->coef[i]),
                                    ast_clone_expr(ctx, l->atom[i])))
                : xf_add(ctx, e, t);
    }
    return xf_add(ctx, e, ast_int(ctx, loc, l->c));
}

/* Pick bounds lo <= x <= hi of one index: the pair of candidates whose
 * difference is the smallest constant, else the first of each; 0 when
 * either side has none. */
static int index_bounds(cache_box *bx, const ast_expr *x, ast_expr **lo, ast_expr **hi)
{
    an_lin *ls, *us;
    int nl = an_lower_bounds(bx->b, x, bx->scope, &ls);
    int nu = an_upper_bounds(bx->b, x, bx->scope, &us);
    if (nl == 0 || nu == 0)
        return 0;
    *lo = lin_expr(bx->ctx, x->loc, &ls[0]);
    *hi = lin_expr(bx->ctx, x->loc, &us[0]);
    int64_t best = INT64_MAX;
    for (int i = 0; i < nl; i++)
        for (int j = 0; j < nu; j++) {
            ast_expr *l = lin_expr(bx->ctx, x->loc, &ls[i]), *u = lin_expr(bx->ctx, x->loc, &us[j]);
            int64_t c;
            if (const_diff(bx->ctx, u, l, &c) && c >= 0 && c < best) {
                best = c;
                *lo = l;
                *hi = u;
            }
        }
    return 1;
}

/* Widen dimension d of the box by one access's bounds lo..hi. */
static void widen(cache_box *bx, int d, ast_expr *lo, ast_expr *hi)
{
    int64_t c;
    if (!bx->has[d]) {
        bx->has[d] = 1;
        bx->lo[d] = lo;
        bx->hi[d] = hi;
        return;
    }
    if (!const_diff(bx->ctx, lo, bx->lo[d], &c))
        bx->lo[d] = ast_binary(bx->ctx, lo->loc, AST_MIN, bx->lo[d], lo);
    else if (c < 0)
        bx->lo[d] = lo;
    if (!const_diff(bx->ctx, hi, bx->hi[d], &c))
        bx->hi[d] = ast_binary(bx->ctx, hi->loc, AST_MAX, bx->hi[d], hi);
    else if (c > 0)
        bx->hi[d] = hi;
}

/* Take one access var[idx] into the box. */
static void add_access(cache_box *bx, int n, ast_expr **idx)
{
    for (int d = 0; d < n && d < bx->ndim; d++) {
        ast_expr *lo, *hi;
        if (bx->whole[d])
            continue;
        if (!index_bounds(bx, idx[d], &lo, &hi))
            bx->whole[d] = 1;
        else
            widen(bx, d, lo, hi);
    }
}

/* Take one access of var into the box (xf_walk_accesses). */
static void take_access(void *data, ast_expr *load, ast_stmt *write, int n, ast_expr **idx)
{
    cache_box *bx = data;
    if (load) {
        bx->loads++;
    } else if (write->kind == AST_STORE) {
        bx->stores++;
    } else {
        bx->ops_mixed |= bx->reduces && bx->op != write->u.red.op;
        bx->op = write->u.red.op;
        bx->reduces++;
    }
    add_access(bx, n, idx);
}

/* The outermost parallel loop among loops (outer first), or NULL. */
static const ast_stmt *first_parallel(const ft_vec *loops)
{
    for (int i = 0; i < loops->len; i++) {
        const ast_stmt *l = loops->items[i];
        if (l->u.loop.par != AST_SERIAL)
            return l;
    }
    return NULL;
}

/* Close the box: whole dimensions, clamping to the tensor where the
 * bounds are not proven inside it; the extents in ext. */
static void close_box(cache_box *bx, ast_expr **shape, ast_expr **ext)
{
    ft_ctx *ctx = bx->ctx;
    for (int d = 0; d < bx->ndim; d++) {
        ft_loc l = shape[d]->loc;
        ast_expr *last = xf_add(ctx, ast_clone_expr(ctx, shape[d]), ast_int(ctx, l, -1));
        if (bx->whole[d] || !bx->has[d]) {
            bx->lo[d] = ast_int(ctx, l, 0);
            bx->hi[d] = last;
        }
        if (!an_bounds_prove(bx->b, ast_binary(ctx, l, AST_GE, bx->lo[d], ast_int(ctx, l, 0))))
            bx->lo[d] = ast_binary(ctx, l, AST_MAX, bx->lo[d], ast_int(ctx, l, 0));
        if (!an_bounds_prove(bx->b, ast_binary(ctx, l, AST_LE, bx->hi[d], last)))
            bx->hi[d] = ast_binary(ctx, l, AST_MIN, bx->hi[d], ast_clone_expr(ctx, last));
        int64_t c;
        if (const_diff(ctx, bx->hi[d], bx->lo[d], &c)) {
            ext[d] = ast_int(ctx, l, c + 1 > 0 ? c + 1 : 0);
            continue;
        }
        ext[d] = ast_binary(ctx, l, AST_SUB, xf_add(ctx, ast_clone_expr(ctx, bx->hi[d]),
                            ast_int(ctx, l, 1)), ast_clone_expr(ctx, bx->lo[d]));
        if (!an_bounds_prove(bx->b, ast_binary(ctx, l, AST_GE, ext[d], ast_int(ctx, l, 0))))
            ext[d] = ast_binary(ctx, l, AST_MAX, ext[d], ast_int(ctx, l, 0));
    }
}

/* What one copy loop nest does with buffer element c and tensor element
 * lo + c. */
typedef enum copy_kind { COPY_FILL, COPY_INIT, COPY_FLUSH, COPY_FLUSH_REDUCE } copy_kind;

/* The loop nest copying between the box of var and buffer buf. */
static ast_stmt *copy_nest(ft_ctx *ctx, ast_func *f, const cache_box *bx, ft_dtype dt,
                           const char *buf, ast_expr **ext, copy_kind kind, int atomic, ft_loc l)
{
    int n = bx->ndim;
    const char **it = ft_alloc(ctx, sizeof(char *) * (size_t)(n + 1));
    ast_expr **bi = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(n + 1));
    ast_expr **ti = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(n + 1));
    for (int d = 0; d < n; d++) {
        it[d] = xf_free_name(ctx, f, ft_fmt(ctx, "%s_i%d", buf, d));
        bi[d] = ast_var(ctx, l, it[d]);
        ti[d] = xf_add(ctx, ast_clone_expr(ctx, bx->lo[d]), ast_var(ctx, l, it[d]));
    }
    ast_stmt *s;
    if (kind == COPY_FILL)
        s = ast_store(ctx, l, buf, n, bi, ast_load(ctx, l, bx->var, dt, n, ti));
    else if (kind == COPY_INIT)
        s = ast_store(ctx, l, buf, n, bi, xf_red_identity(ctx, l, bx->op, dt));
    else if (kind == COPY_FLUSH)
        s = ast_store(ctx, l, bx->var, n, ti, ast_load(ctx, l, buf, dt, n, bi));
    else {
        s = ast_reduce(ctx, l, bx->op, bx->var, n, ti, ast_load(ctx, l, buf, dt, n, bi));
        s->u.red.atomic = atomic;
    }
    for (int d = n - 1; d >= 0; d--)
        s = ast_for(ctx, l, it[d], ast_int(ctx, l, 0), ast_clone_expr(ctx, ext[d]),
                    ast_int(ctx, l, 1), s);
    return s;
}

/* The Store or Reduce of a copy nest. */
static ast_stmt *innermost(ast_stmt *nest)
{
    while (nest->kind == AST_FOR)
        nest = nest->u.loop.body;
    return nest;
}

/* Rewrite S's accesses of var into buffer buf, indexed from the box. */
static void redirect(ft_ctx *ctx, ast_stmt *s, const cache_box *bx, const char *buf)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, bx->var, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        for (int d = 0; d < *a->n && d < bx->ndim; d++)
            (*a->idx)[d] = ast_binary(ctx, (*a->idx)[d]->loc, AST_SUB, (*a->idx)[d],
                                      ast_clone_expr(ctx, bx->lo[d]));
    }
    xf_rename_tensor(ctx, s, bx->var, buf);
}

/* The checks before caching; 0 after an error. */
static int cache_ok(ft_ctx *ctx, const cache_box *bx, int reduce, int in_par,
                    const ast_stmt *par, const char *what, const char *sname, ft_loc loc)
{
    if (bx->loads + bx->stores + bx->reduces == 0) {
        ft_error(ctx, loc, "cannot %s: %s does not access '%s'", what, sname, bx->var);
        return 0;
    }
    if (reduce && (bx->loads || bx->stores || bx->ops_mixed)) {
        ft_error(ctx, loc, "cannot %s: %s %s '%s'; cache_reduce needs every access to be a "
                 "reduction with one operator (use cache)", what, sname,
                 bx->ops_mixed ? "reduces with two operators into"
                 : bx->loads ? "reads" : "stores to", bx->var);
        return 0;
    }
    if (!reduce && in_par && (bx->stores || bx->reduces)) {
        ft_error(ctx, loc, "cannot %s: %s writes '%s' inside the parallel loop %s, whose other "
                 "iterations the flush could overwrite; cache before parallelizing", what,
                 sname, bx->var, xf_sched_name(ctx, par));
        return 0;
    }
    return 1;
}

int xf_cache(ft_ctx *ctx, ast_func *f, ast_stmt *s, const char *var, ft_mtype mt, int reduce,
             const char *fill_name, const char *flush_name, const char *buf_name, ft_loc loc)
{
    const char *sname = xf_sched_name(ctx, s);
    const char *what = ft_fmt(ctx, "%s '%s' in %s", reduce ? "cache_reduce" : "cache", var, sname);
    ft_dtype dt;
    int ndim;
    ast_expr **shape;
    const char *t = xf_visible_tensor(ctx, f, s, var);   /* var may be a label */
    if (!t || !xf_find_decl(ctx, f, s, t, &dt, &ndim, &shape)) {
        ft_error(ctx, loc, "cannot %s: no tensor '%s' is visible there", what, var);
        return 1;
    }
    var = t;                                   /* the AST name from here */
    cache_box bx = {.ctx = ctx, .b = an_bounds_new(ctx, f), .var = var, .ndim = ndim};
    bx.has = ft_alloc(ctx, sizeof(int) * (size_t)(ndim + 1));
    bx.whole = ft_alloc(ctx, sizeof(int) * (size_t)(ndim + 1));
    bx.lo = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(ndim + 1));
    bx.hi = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(ndim + 1));
    ft_vec around = {0};
    xf_bounds_around(ctx, f, s, bx.b, &around);
    const ast_stmt *par = first_parallel(&around);
    int in_par = par != NULL;
    bx.scope = an_bounds_depth(bx.b);
    xf_walk_accesses(ctx, s, var, bx.b, NULL, take_access, &bx);
    if (!cache_ok(ctx, &bx, reduce, in_par, par, what, sname, loc))
        return 1;
    if (xf_inside_vectorized(ctx, f, s)) {
        ft_error(ctx, loc, "cannot %s: %s is inside a vectorized loop, whose body cannot "
                 "hold the local's allocation and fill loops; cache before vectorizing", what,
                 sname);
        return 1;
    }
    if (mt != FT_MT_CPU) {
        ft_unsupported(ctx, loc, ft_fmt(ctx, "caching in %s memory on the C target",
                                        ft_mtype_name(mt)));
        return 1;
    }
    if (buf_name && strcmp(xf_free_name(ctx, f, buf_name), buf_name) != 0) {
        ft_error(ctx, loc, "cannot %s: the name '%s' is taken", what, buf_name);
        return 1;
    }
    ast_expr **ext = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(ndim + 1));
    close_box(&bx, shape, ext);
    const char *buf = buf_name ? buf_name : xf_free_name(ctx, f, ft_fmt(ctx, "%s_c", var));
    ft_loc l = s->loc;
    ast_stmt *inner = ft_alloc(ctx, sizeof *inner);
    *inner = *s;                               /* S keeps its ID and label */
    redirect(ctx, inner, &bx, buf);
    ast_stmt *fill = copy_nest(ctx, f, &bx, dt, buf, ext, reduce ? COPY_INIT : COPY_FILL, 0, l);
    ast_stmt *flush = NULL;
    if (reduce || bx.stores || bx.reduces)
        flush = copy_nest(ctx, f, &bx, dt, buf, ext, reduce ? COPY_FLUSH_REDUCE : COPY_FLUSH,
                          in_par, l);
    innermost(fill)->label = fill_name ? fill_name : ft_fmt(ctx, "%s_fill", buf);
    if (flush)
        innermost(flush)->label = flush_name ? flush_name : ft_fmt(ctx, "%s_flush", buf);
    ast_stmt *items[3] = {fill, inner, flush};
    ast_stmt *def = ast_vardef(ctx, l, buf, dt, ndim, ext, FT_ACC_CACHE, mt,
                               ast_seq(ctx, l, flush ? 3 : 2, items));
    *s = *def;
    xf_sched_finish(ctx, f);
    return 0;
}
