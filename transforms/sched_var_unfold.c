/* sched_var_unfold.c - var_unfold(t, dim, tile, stride): one dimension of
 * a local tensor stored as overlapping tiles (ALT's unfold: a convolution
 * window's rows kept together).
 *
 * Requires: f's AST.
 * Provides: dimension dim of local t, of size n, as [T, tile] with
 * T = ceil(n / stride): tile j holds the elements [j * stride, j * stride +
 * tile) (those past n are never accessed), so with tile > stride an element
 * lives in up to ceil(tile / stride) tiles.
 * - A read t[.., e, ..] goes to the tile that holds its whole window: where
 *   e = p + (w - lo) with w the iterator of a loop around it ranging over
 *   [lo, hi] and hi - lo <= tile - stride (a convolution's kh in `h + kh`),
 *   it reads t[.., p // stride, p % stride + w - lo, ..], so the window of
 *   one p stays in one tile; otherwise t[.., e // stride, e % stride, ..].
 * - A write t[.., i, ..] = v (or op= v) writes every tile holding i: the
 *   copy u (0 <= u < ceil(tile / stride)) writes t[.., i // stride - u,
 *   i % stride + u * stride, ..] where that index is inside the tile (a
 *   guard for u >= 1).  All copies of an element are written by the same
 *   statement, one after the other, so every read sees the value the one
 *   array would have held: always legal, no dependence changes (two
 *   iterations writing different elements write different tiles' slots).
 * Every rewritten index is proven in range (analysis/bounds.h): e in
 * [0, n) and p >= 0 at each access.
 *
 * Refused (the program unchanged): parameters (their layout is the ABI:
 * cache first), a dimension out of range, tile < stride (an element in no
 * tile) or stride < 1, more than 16 copies of an element, an access whose
 * index in dim reads data or whose index is not proven inside [0, n), an
 * index of t that reads t, and a write whose value reads t itself (its
 * copies would see each other's writes).
 */
#include "schedule.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "sched_util.h"
#include "xf_util.h"

enum { MAX_COPIES = 16 };

/* One access of t and its index in dim after the unfold. */
typedef struct unfold_site {
    ast_expr *load;          /* a read, or NULL */
    ast_stmt *write;         /* a Store/Reduce into t, or NULL */
    ast_expr *tile, *off;    /* a read's new pair of indices */
} unfold_site;

/* What var_unfold knows while it walks t's scope. */
typedef struct unfold_walk {
    ft_ctx *ctx;
    ast_func *f;
    an_bounds *b;
    const char *var;
    int dim;
    int64_t tile, stride;
    ast_expr *n;             /* the dimension's size */
    ft_vec loops;            /* the loops around the current point, outer first */
    ft_vec sites;            /* unfold_site * */
    const char *why;         /* the first refusal, or NULL */
    ft_loc why_loc;
} unfold_walk;

/* Refuse the unfold (the first reason is kept). */
static void refuse(unfold_walk *uw, ft_loc l, const char *why)
{
    if (!uw->why) {
        uw->why = why;
        uw->why_loc = l;
    }
}

/* Whether 0 <= e < n holds at the current point. */
static int in_dim(unfold_walk *uw, ast_expr *e)
{
    ft_ctx *ctx = uw->ctx;
    return an_bounds_prove(uw->b, ast_binary(ctx, e->loc, AST_GE, e, ast_int(ctx, e->loc, 0))) &&
           an_bounds_prove(uw->b, ast_binary(ctx, e->loc, AST_LT, e, uw->n));
}

/* The coefficient of iterator v in the linear form of e (0 when e is not
 * linear or has no such term). */
static int64_t coef_of(ft_ctx *ctx, const ast_expr *e, const char *v)
{
    an_lin lin;
    if (!an_lin_of(ctx, e, &lin))
        return 0;
    for (int k = 0; k < lin.n; k++)
        if (lin.atom[k]->kind == AST_VAR && strcmp(lin.atom[k]->u.name, v) == 0)
            return lin.coef[k];
    return 0;
}

/* The new indices of a read with index e: the innermost window iterator
 * that fits the tile's overlap, else none (see the header). */
static void plan_read(unfold_walk *uw, unfold_site *s, ast_expr *e)
{
    ft_ctx *ctx = uw->ctx;
    ft_loc l = e->loc;
    ast_expr *p = e, *w = NULL;
    for (int i = uw->loops.len - 1; i >= 0 && !w; i--) {
        const char *v = ((ast_stmt *)uw->loops.items[i])->u.loop.iter;
        if (coef_of(ctx, e, v) != 1)
            continue;
        an_range r = an_range_of(uw->b, ast_var(ctx, l, v));
        if (!r.has_lo || !r.has_hi || r.hi - r.lo > uw->tile - uw->stride)
            continue;
        ast_expr *wv = xf_add(ctx, ast_var(ctx, l, v), ast_int(ctx, l, -r.lo));
        ast_expr *pv = ast_binary(ctx, l, AST_SUB, ast_clone_expr(ctx, e), wv);
        if (an_bounds_prove(uw->b, ast_binary(ctx, l, AST_GE, pv, ast_int(ctx, l, 0)))) {
            p = pv;
            w = ast_clone_expr(ctx, wv);
        }
    }
    ast_expr *st = ast_int(ctx, l, uw->stride);
    s->tile = ast_binary(ctx, l, AST_FLOORDIV, ast_clone_expr(ctx, p), st);
    s->off = ast_binary(ctx, l, AST_MOD, ast_clone_expr(ctx, p), ast_clone_expr(ctx, st));
    if (w)
        s->off = xf_add(ctx, s->off, w);
}

/* Record an access of t (idx: its indices) at the current point, or
 * refuse it. */
static void site(unfold_walk *uw, ast_expr *load, ast_stmt *write, int n, ast_expr **idx,
                 ft_loc l)
{
    for (int k = 0; k < n; k++)
        if (xf_expr_reads(idx[k], uw->var)) {
            refuse(uw, l, "an index of it reads it");
            return;
        }
    ast_expr *e = idx[uw->dim];
    if (xf_expr_has_load(e)) {
        refuse(uw, l, "its index in the dimension reads data (checked at run time against "
               "the folded shape)");
        return;
    }
    if (!in_dim(uw, e)) {
        refuse(uw, l, "an index in the dimension is not proven inside it");
        return;
    }
    for (int i = 0; load && i < uw->sites.len; i++)
        if (((unfold_site *)uw->sites.items[i])->load == load)
            return;    /* a node shared by two expressions */
    unfold_site *s = ft_alloc(uw->ctx, sizeof *s);
    *s = (unfold_site){.load = load, .write = write};
    if (load)
        plan_read(uw, s, e);
    ft_vec_push(uw->ctx, &uw->sites, s);
}

/* Record one access of t (xf_walk_accesses), or refuse it: a write whose
 * value reads t. */
static void take_access(void *data, ast_expr *load, ast_stmt *write, int n, ast_expr **idx)
{
    unfold_walk *uw = data;
    if (uw->why)
        return;
    if (write && xf_expr_reads(write->kind == AST_STORE ? write->u.store.value
                                                        : write->u.red.value, uw->var)) {
        refuse(uw, write->loc, "a write into it reads it (each of its copies would see the "
               "others' writes)");
        return;
    }
    site(uw, load, write, n, idx, load ? load->loc : write->loc);
}

/* Copy u of write s (a Store or Reduce into t, index i in dim): the slot of
 * tile i // stride - u that holds i, guarded where that tile may not
 * exist or not hold i. */
static ast_stmt *write_copy(unfold_walk *uw, const ast_stmt *s, int64_t u)
{
    ft_ctx *ctx = uw->ctx;
    ft_loc l = s->loc;
    int n;
    ast_expr *const *idx;
    xf_written_tensor(s, &n, &idx);
    ast_expr *i = idx[uw->dim];
    ast_expr *j = xf_add(ctx, ast_binary(ctx, l, AST_FLOORDIV, ast_clone_expr(ctx, i),
                                         ast_int(ctx, l, uw->stride)),
                         ast_int(ctx, l, -u));
    ast_expr *off = xf_add(ctx, ast_binary(ctx, l, AST_MOD, ast_clone_expr(ctx, i),
                                           ast_int(ctx, l, uw->stride)),
                           ast_int(ctx, l, u * uw->stride));
    ast_stmt *c = ft_alloc(ctx, sizeof *c);
    *c = *s;
    ast_expr **ni = xf_index_pair(ctx, n, idx, uw->dim, j, off);
    if (u)
        for (int k = 0; k < n + 1; k++)
            ni[k] = ast_clone_expr(ctx, ni[k]);
    if (s->kind == AST_STORE) {
        c->u.store.idx = ni;
        c->u.store.n = n + 1;
        c->u.store.value = u ? ast_clone_expr(ctx, s->u.store.value) : s->u.store.value;
    } else {
        c->u.red.idx = ni;
        c->u.red.n = n + 1;
        c->u.red.value = u ? ast_clone_expr(ctx, s->u.red.value) : s->u.red.value;
    }
    if (!u)
        return c;
    c->label = NULL;
    c->id = ctx->next_stmt_id++;
    ast_expr *cond = ast_binary(ctx, l, AST_GE, ast_binary(ctx, l, AST_FLOORDIV,
                                                           ast_clone_expr(ctx, i),
                                                           ast_int(ctx, l, uw->stride)),
                                ast_int(ctx, l, u));
    if ((u + 1) * uw->stride > uw->tile)
        cond = ast_binary(ctx, l, AST_AND, cond,
                          ast_binary(ctx, l, AST_LT, ast_clone_expr(ctx, off),
                                     ast_int(ctx, l, uw->tile)));
    return ast_if(ctx, l, cond, c, NULL);
}

/* Rewrite the recorded sites: reads to their tile, writes into every tile
 * holding their element (the statement becomes a sequence of copies; the
 * first keeps its ID and label). */
static void apply(unfold_walk *uw, int64_t copies)
{
    ft_ctx *ctx = uw->ctx;
    for (int i = 0; i < uw->sites.len; i++) {
        unfold_site *s = uw->sites.items[i];
        if (s->load) {
            ast_expr *ld = s->load;
            ld->u.load.idx = xf_index_pair(ctx, ld->u.load.n, ld->u.load.idx, uw->dim, s->tile, s->off);
            ld->u.load.n++;
            continue;
        }
        ast_stmt **items = ft_alloc(ctx, sizeof *items * (size_t)copies);
        for (int64_t u = 0; u < copies; u++)
            items[u] = write_copy(uw, s->write, u);
        if (copies == 1) {
            *s->write = *items[0];
            continue;
        }
        ast_stmt *seq = ast_seq(ctx, s->write->loc, (int)copies, items);
        *s->write = *seq;
    }
}

int xf_var_unfold(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t tile,
                  int64_t stride, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "var_unfold", loc);
    if (!def)
        return 1;
    int nd = def->u.def.ndim;
    if (dim < 0 || dim >= nd) {
        ft_error(ctx, loc, "cannot var_unfold '%s': it has %d dimension%s, not a dimension %d",
                 var, nd, nd == 1 ? "" : "s", dim);
        return 1;
    }
    if (stride < 1 || tile < stride) {
        ft_error(ctx, loc, "cannot var_unfold '%s': the tile must be at least the stride, and "
                 "the stride at least 1 (got tile %lld, stride %lld: %s)", var, (long long)tile,
                 (long long)stride, stride < 1 ? "no stride" : "elements between the tiles");
        return 1;
    }
    int64_t copies = (tile + stride - 1) / stride;
    if (copies > MAX_COPIES) {
        ft_error(ctx, loc, "cannot var_unfold '%s': each element would be stored %lld times "
                 "(at most %d: a larger stride)", var, (long long)copies, MAX_COPIES);
        return 1;
    }
    unfold_walk uw = {.ctx = ctx, .f = f, .b = an_bounds_new(ctx, f), .var = def->u.def.name,
                      .dim = dim, .tile = tile, .stride = stride, .n = def->u.def.shape[dim]};
    xf_bounds_around(ctx, f, def, uw.b, &uw.loops);
    xf_walk_accesses(ctx, def->u.def.body, uw.var, uw.b, &uw.loops, take_access, &uw);
    if (uw.why) {
        ft_error(ctx, loc, "cannot var_unfold '%s': %s (the access at line %d)", var, uw.why,
                 uw.why_loc.line);
        return 1;
    }
    xf_layout_step(ctx, def, (ast_lstep){.kind = AST_LSTEP_UNFOLD, .dim = dim, .a = tile,
                                         .b = stride});
    apply(&uw, copies);
    ast_expr *n = def->u.def.shape[dim];
    def->u.def.shape = xf_index_pair(ctx, nd, def->u.def.shape, dim,
                             xf_ceildiv(ctx, ast_clone_expr(ctx, n), stride),
                             ast_int(ctx, n->loc, tile));
    def->u.def.ndim = nd + 1;
    xf_sched_finish(ctx, f);
    return 0;
}
