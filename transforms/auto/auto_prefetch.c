/* auto_prefetch.c - software prefetch of the rows that a loop reaches
 * through indices it loads (gathers and scatters at idx[k]), DIST
 * iterations ahead.
 *
 * Requires: f's AST after every other auto pass (the prefetches are hints
 * recorded on the loops, ast_prefetch, which no later pass would rewrite;
 * autodiff/compose.c's clones keep them); the C target (on CUDA the pass
 * does nothing).
 * Provides: on each serial loop L (iterator k, a constant step, not inside
 * a vectorized loop, not a constant range of at most DIST iterations)
 * whose body accesses T[e0, ..., en] where an index reads a tensor at an
 * index that mentions k (GAT: `hf[idx[k], j]` in the
 * forward pass; `tape_hf[idx[k], j]`, `d_hf[idx[k], j] += ...` and
 * `tape_er[idx[k]]` in the backward pass), a prefetch of that access as
 * iteration k + DIST * step reaches it: k replaced by k + DIST * step, the
 * iterator of each loop between L and the access by its first value, and,
 * when the last index is the iterator of such a loop with step 1 (and no
 * other index changes in those loops), the elements that loop walks (a
 * row: span = its trip count).  At most MAX_PF per loop, the first in
 * program order; one per cache line (a read and a write of an element,
 * or of elements whose last indices are constants less than 16 apart:
 * one prefetch, for writing if either writes).
 * Neither T nor a tensor read in its indices may be declared under L (the
 * prefetch is issued at the top of L's body).  Issued at run time only
 * when T holds at least MIN_BYTES.
 * Why: the hardware prefetcher follows strides, not indices read from
 * memory, so each such row is a cache (and often a TLB) miss, and an
 * out-of-order core overlaps only the misses of the next iteration or two.
 * GAT (100,000 nodes, 1M edges, feat_len 32, 2 threads): the backward
 * pass spent about half its samples on the loads and stores of those rows;
 * prefetches 8 or 16 edges ahead took forward + backward from 98 to 67 ms
 * (hand-edited C, alternating in one process); this pass, 0.56-0.63 of
 * the time without it (load average 4-14), the forward alone 0.62.  The
 * C backend guards each
 * prefetch with bounds checks of its indices (cg_c.c), so that a prefetch
 * past the end of the edges (idx[k + DIST], k near nnz) is skipped rather
 * than read; across the end of one CSR row it fetches the next row's
 * edges, which the same thread usually runs next.
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_prefetch";

/* How many iterations ahead (GAT: 8 and 16 alike, 4 slower), at most how
 * many prefetches one loop issues per iteration, and the size a tensor
 * must have at run time for its prefetches to be issued: larger than a
 * core's L1 data cache (SoftRas's vertices, a few KiB read through
 * faces[f, j] for every pixel, would pay the prefetches for nothing).  Not
 * the L2's size: GAT's er, 400 KB at idx[k], gained from them too (with
 * 1 MiB, forward + backward took 0.71 of the time without prefetches
 * instead of 0.62, alternating in one process, load average 4.4). */
enum { DIST = 16, MAX_PF = 4, MIN_BYTES = 1 << 16 };

/* The walk under one loop L. */
typedef struct pf_walk {
    xf_auto *a;
    const ast_stmt *loop;    /* L */
    ast_expr *ahead;         /* k + DIST * step */
    ft_vec inner;            /* the loops between L and the statement (ast_stmt *) */
    ft_vec locals;           /* names declared under L */
    int n;
    ast_prefetch pf[MAX_PF];
} pf_walk;

/* Whether e reads a tensor at an index that mentions iterator it. */
static int reads_through(const ast_expr *e, const char *it)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case AST_LOAD:
        for (int d = 0; d < e->u.load.n; d++)
            if (xf_expr_uses_var(e->u.load.idx[d], it) || reads_through(e->u.load.idx[d], it))
                return 1;
        return 0;
    case AST_BINARY: return reads_through(e->u.bin.a, it) || reads_through(e->u.bin.b, it);
    case AST_UNARY: return reads_through(e->u.un.a, it);
    case AST_CAST: return reads_through(e->u.cast.a, it);
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (reads_through(e->u.call.args[i], it))
                return 1;
        return 0;
    case AST_IFEXPR:
        return reads_through(e->u.ife.cond, it) || reads_through(e->u.ife.then, it) ||
               reads_through(e->u.ife.other, it);
    default: return 0;
    }
}

/* e as the iteration DIST ahead reaches it: the iterators of the inner
 * loops replaced by their first values (innermost first: a begin may
 * mention an outer one), then k by k + DIST * step; NULL when an inner
 * iterator is left or a tensor declared under L is read. */
static ast_expr *ahead_of(pf_walk *w, const ast_expr *e)
{
    ft_ctx *ctx = w->a->ctx;
    ast_expr *r = ast_clone_expr(ctx, e);
    for (int i = w->inner.len - 1; i >= 0; i--) {
        const ast_stmt *l = w->inner.items[i];
        const char *name = l->u.loop.iter;
        ast_expr *b = l->u.loop.begin;
        r = ast_subst_vars(ctx, r, 1, &name, &b);
    }
    for (int i = 0; i < w->inner.len; i++)
        if (xf_expr_uses_var(r, ((const ast_stmt *)w->inner.items[i])->u.loop.iter))
            return NULL;
    const char *k = w->loop->u.loop.iter;
    r = ast_subst_vars(ctx, r, 1, &k, &w->ahead);
    ft_vec read = {0};
    xf_expr_loaded(ctx, r, &read);
    for (int i = 0; i < read.len; i++)
        if (xf_has_name(&w->locals, read.items[i]))
            return NULL;
    return r;
}

/* The number of elements of the row that the access walks (the trip count
 * of the inner loop whose iterator is its last index, as the iteration
 * DIST ahead has it), or NULL: no such loop, another index changes in the
 * inner loops too, or the count reads a tensor (it is not guarded). */
static ast_expr *row_span(pf_walk *w, int n, ast_expr **idx)
{
    if (n == 0 || idx[n - 1]->kind != AST_VAR)
        return NULL;
    const ast_stmt *row = NULL;
    for (int i = 0; i < w->inner.len; i++) {
        const ast_stmt *l = w->inner.items[i];
        if (strcmp(l->u.loop.iter, idx[n - 1]->u.name) == 0)
            row = l;
        for (int d = 0; d + 1 < n; d++)
            if (xf_expr_uses_var(idx[d], l->u.loop.iter))
                return NULL;
    }
    const ast_expr *st = row ? row->u.loop.step : NULL;
    if (!row || (st && (st->kind != AST_INT || st->u.ival != 1)))
        return NULL;
    ft_ctx *ctx = w->a->ctx;
    ast_expr *count = ast_binary(ctx, row->loc, AST_SUB, row->u.loop.end, row->u.loop.begin);
    ast_expr *r = ahead_of(w, count);
    return r && !xf_expr_has_load(r) ? r : NULL;
}

/* Whether prefetches a and b (AST_LOADs) fetch the same cache line: equal,
 * or equal but for last indices that are constants less than 16 apart
 * (verts[faces[f, 0], 0] and verts[faces[f, 0], 1]: one row). */
static int same_line(const ast_expr *a, const ast_expr *b)
{
    int n = a->u.load.n;
    if (strcmp(a->u.load.var, b->u.load.var) != 0 || n != b->u.load.n || n == 0)
        return 0;
    for (int d = 0; d + 1 < n; d++)
        if (!ast_expr_equal(a->u.load.idx[d], b->u.load.idx[d]))
            return 0;
    const ast_expr *x = a->u.load.idx[n - 1], *y = b->u.load.idx[n - 1];
    if (x->kind == AST_INT && y->kind == AST_INT)
        return x->u.ival - y->u.ival < 16 && y->u.ival - x->u.ival < 16;
    return ast_expr_equal(x, y);
}

/* Record the prefetch of access var[idx] (write: a store or reduction)
 * when its indices read through k (see the file comment). */
static void consider(pf_walk *w, const char *var, int n, ast_expr **idx, ft_dtype t,
                     ft_loc loc, int write)
{
    const char *k = w->loop->u.loop.iter;
    int through = 0;
    for (int d = 0; d < n; d++)
        through |= reads_through(idx[d], k);
    if (!through || xf_has_name(&w->locals, var))
        return;
    ft_ctx *ctx = w->a->ctx;
    ast_expr **at = ft_alloc(ctx, sizeof *at * (size_t)n);
    for (int d = 0; d < n; d++)
        if (!(at[d] = ahead_of(w, idx[d])))
            return;
    ast_expr *e = ast_load(ctx, loc, var, t, n, at);
    ast_expr *span = row_span(w, n, idx);
    for (int i = 0; i < w->n; i++)
        if (same_line(w->pf[i].at, e)) {
            w->pf[i].write |= write;
            if (!w->pf[i].span)
                w->pf[i].span = span;
            return;
        }
    if (w->n < MAX_PF)
        w->pf[w->n++] = (ast_prefetch){e, span, write, MIN_BYTES};
}

static void walk_expr(pf_walk *w, const ast_expr *e);

/* Consider every index of a list. */
static void walk_list(pf_walk *w, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++)
        walk_expr(w, es[i]);
}

/* Consider every load in e (outer accesses first, then those in their
 * indices). */
static void walk_expr(pf_walk *w, const ast_expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case AST_LOAD:
        consider(w, e->u.load.var, e->u.load.n, e->u.load.idx, e->dtype, e->loc, 0);
        walk_list(w, e->u.load.n, e->u.load.idx);
        break;
    case AST_BINARY:
        walk_expr(w, e->u.bin.a);
        walk_expr(w, e->u.bin.b);
        break;
    case AST_UNARY: walk_expr(w, e->u.un.a); break;
    case AST_CAST: walk_expr(w, e->u.cast.a); break;
    case AST_CALL: walk_list(w, e->u.call.n, e->u.call.args); break;
    case AST_IFEXPR:
        walk_expr(w, e->u.ife.cond);
        walk_expr(w, e->u.ife.then);
        walk_expr(w, e->u.ife.other);
        break;
    default: break;
    }
}

/* The dtype of tensor var as declared where loop L sees it (FT_F32 when
 * not found: a prefetch only needs the element size for its address). */
static ft_dtype dtype_of(pf_walk *w, const char *var)
{
    ft_dtype t;
    return xf_find_decl(w->a->ctx, w->a->f, w->loop, var, &t, NULL, NULL) ? t : FT_F32;
}

/* Consider every access under s, in program order. */
static void walk_stmt(pf_walk *w, const ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            walk_stmt(w, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: walk_stmt(w, s->u.def.body); break;
    case AST_FOR:
        walk_expr(w, s->u.loop.begin);
        walk_expr(w, s->u.loop.end);
        ft_vec_push(w->a->ctx, &w->inner, (void *)s);
        walk_stmt(w, s->u.loop.body);
        w->inner.len--;
        break;
    case AST_IF:
        walk_expr(w, s->u.branch.cond);
        walk_stmt(w, s->u.branch.then);
        walk_stmt(w, s->u.branch.other);
        break;
    case AST_STORE:
        walk_list(w, s->u.store.n, s->u.store.idx);
        walk_expr(w, s->u.store.value);
        consider(w, s->u.store.var, s->u.store.n, s->u.store.idx,
                 dtype_of(w, s->u.store.var), s->loc, 1);
        break;
    case AST_REDUCE:
        walk_list(w, s->u.red.n, s->u.red.idx);
        walk_expr(w, s->u.red.value);
        consider(w, s->u.red.var, s->u.red.n, s->u.red.idx, dtype_of(w, s->u.red.var),
                 s->loc, 1);
        break;
    case AST_ASSERT: walk_expr(w, s->u.cond); break;
    case AST_EVAL: walk_expr(w, s->u.expr); break;
    }
}

/* The text of one prefetch for the log. */
static const char *pf_text(xf_auto *a, const ast_prefetch *p)
{
    const char *at = ast_expr_text(a->ctx, p->at);
    const char *what = p->write ? " (for writing)" : "";
    if (!p->span)
        return ft_fmt(a->ctx, "%s%s", at, what);
    return ft_fmt(a->ctx, "%s and the %s elements from it%s", at, ast_expr_text(a->ctx, p->span),
                  what);
}

/* Give loop l its prefetches when it is serial; their number. */
static int prefetch_loop(xf_auto *a, ast_stmt *l)
{
    if (l->u.loop.par != AST_SERIAL)
        return 0;
    const ast_expr *st = l->u.loop.step;
    if (st && st->kind != AST_INT)
        return 0;
    int64_t step = st ? st->u.ival : 1, trips, dist;
    if (xf_auto_const_trips(a->ctx, l, &trips) && trips <= DIST)
        return 0;   /* k + DIST * step is past its range */
    if (__builtin_mul_overflow(step, DIST, &dist))
        return 0;   /* so is a step that large */
    ft_ctx *ctx = a->ctx;
    pf_walk w = {.a = a, .loop = l};
    w.ahead = ast_binary(ctx, l->loc, AST_ADD, ast_var(ctx, l->loc, l->u.loop.iter),
                         ast_int(ctx, l->loc, dist));
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, l->u.loop.body, &defs);
    for (int i = 0; i < defs.len; i++)
        ft_vec_push(ctx, &w.locals, (void *)((ast_stmt *)defs.items[i])->u.def.name);
    walk_stmt(&w, l->u.loop.body);
    if (w.n == 0)
        return 0;
    l->u.loop.npf = w.n;
    l->u.loop.pf = ft_alloc(ctx, sizeof *l->u.loop.pf * (size_t)w.n);
    for (int i = 0; i < w.n; i++) {
        l->u.loop.pf[i] = w.pf[i];
        xf_auto_log(a, PASS, xf_auto_name(a, l), "prefetch %s, %d iterations ahead",
                    pf_text(a, &w.pf[i]), DIST);
    }
    return w.n;
}

/* The pass (see the file comment); the number of prefetches. */
int xf_auto_prefetch(xf_auto *a)
{
    return xf_auto_each_loop(a, a->f->body, prefetch_loop);
}
