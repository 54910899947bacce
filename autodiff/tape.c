/* tape.c - versions of the locals and the layout of the tape.
 *
 * A local t declared inside loops L1..Lk of f lives for one iteration of
 * them (the AST is stack-scoped), so it has one version per instance of its
 * scope: versions(t) = trip(L1) * ... * trip(Lk), a symbolic expression of
 * the size parameters, and the version of the scope instance being run is
 * the iteration vector linearised: ((n1 * trip(L2) + n2) * trip(L3) + ...),
 * with nj = (ij - begin_j) / step_j.  Within one version t is written before
 * it is read and never written after a read (grad.c checks that with the WAR
 * dependences of isl), so its value at the end of the scope is the value
 * every read saw: that is what the tape holds.
 *
 * The tape is one tensor parameter carved into consecutive regions, one per
 * saved local: region(t) = versions(t) * size(t) elements from offset(t).
 * Until the backend, each region is a tensor of its own (tape_t, a
 * parameter of g_fwd and g_bwd, a local of g) shaped [trip(L1), ...,
 * trip(Lk), t's shape...] and indexed [n1, ..., nk, t's index...]: affine
 * where t's accesses are, so that isl tells the versions apart (one flat
 * index (n1 * trip(L2) + n2) * size(t) + ... is not affine when a trip
 * count or a size is a size parameter); autodiff/pack.c then makes the
 * regions pointers into the tape.  Its dtype is f32 when every saved local
 * and overwritten value is f32, else f64 (which holds f32, i32 and bool
 * values exactly).
 */
#include "ad.h"

#include <string.h>

#include "../transforms/xf_util.h"

static ft_loc noloc;

/* a * b, folding ones. */
ast_expr *ad_mul(ft_ctx *ctx, ast_expr *a, ast_expr *b)
{
    if ((a->kind == AST_INT && a->u.ival == 0) || (b->kind == AST_INT && b->u.ival == 1))
        return a;
    if (b->kind == AST_INT && b->u.ival == 0)
        return b;
    if (a->kind == AST_INT && a->u.ival == 1)
        return b;
    if (b->kind == AST_INT && b->u.ival == 1)
        return a;
    return ast_binary(ctx, noloc, AST_MUL, a, b);
}

/* a + b, folding zeros. */
ast_expr *ad_add(ft_ctx *ctx, ast_expr *a, ast_expr *b)
{
    if (a->kind == AST_INT && a->u.ival == 0)
        return b;
    if (b->kind == AST_INT && b->u.ival == 0)
        return a;
    return ast_binary(ctx, noloc, AST_ADD, a, b);
}

/* Whether every name e uses is a size parameter of f (no loads, no
 * iterators): e is then the same everywhere in f. */
static int only_sizes(const ast_func *f, const ast_expr *e)
{
    if (!e)
        return 1;
    switch (e->kind) {
    case AST_INT: case AST_FLOAT: case AST_BOOLC: return 1;
    case AST_VAR:
        for (int i = 0; i < f->nparams; i++)
            if (f->params[i].is_size && !strcmp(f->params[i].name, e->u.name))
                return 1;
        return 0;
    case AST_BINARY: return only_sizes(f, e->u.bin.a) && only_sizes(f, e->u.bin.b);
    case AST_UNARY: return only_sizes(f, e->u.un.a);
    case AST_CAST: return only_sizes(f, e->u.cast.a);
    case AST_IFEXPR:
        return only_sizes(f, e->u.ife.cond) && only_sizes(f, e->u.ife.then) &&
               only_sizes(f, e->u.ife.other);
    default: return 0;
    }
}

/* The number of iterations of a loop with a constant step (NULL when the
 * step is not constant, or is -2^63). */
ast_expr *ad_trip_count(ft_ctx *ctx, const ast_stmt *loop)
{
    const ast_expr *st = loop->u.loop.step;
    if (st && st->kind != AST_INT)
        return NULL;
    int64_t k = st ? st->u.ival : 1;
    if (k == INT64_MIN)
        return NULL;    /* -k is no int64 */
    ast_expr *b = ast_clone_expr(ctx, loop->u.loop.begin);
    ast_expr *e = ast_clone_expr(ctx, loop->u.loop.end);
    if (k == 1 && b->kind == AST_INT && b->u.ival == 0 &&
        ((e->kind == AST_INT && e->u.ival >= 0) || e->kind == AST_VAR))
        return e;    /* sizes are >= 0 */
    ast_expr *span = k > 0 ? ast_binary(ctx, noloc, AST_SUB, e, b)
                           : ast_binary(ctx, noloc, AST_SUB, b, e);
    int64_t ak = k > 0 ? k : -k;
    if (ak != 1)
        span = ast_binary(ctx, noloc, AST_FLOORDIV,
                          ast_binary(ctx, noloc, AST_ADD, span, ast_int(ctx, noloc, ak - 1)),
                          ast_int(ctx, noloc, ak));
    return ast_binary(ctx, noloc, AST_MAX, span, ast_int(ctx, noloc, 0));
}

/* The instances of a statement inside loops (product of their trip
 * counts); NULL when not an expression of the sizes. */
ast_expr *ad_loops_versions(ad_grad *g, int nloops, ast_stmt **loops)
{
    ast_expr *v = ast_int(g->ctx, noloc, 1);
    for (int i = 0; v && i < nloops; i++) {
        const ast_stmt *L = loops[i];
        ast_expr *t = ad_trip_count(g->ctx, L);
        if (!t || !only_sizes(g->f, L->u.loop.begin) || !only_sizes(g->f, L->u.loop.end))
            v = NULL;
        else
            v = ad_mul(g->ctx, v, t);
    }
    return v;
}

/* Fill l->versions and l->size (NULL where not symbolic in the sizes). */
void ad_local_shape(ad_grad *g, ad_local *l)
{
    ast_expr *v = ad_loops_versions(g, l->nloops, l->loops);
    ast_expr *s = ast_int(g->ctx, noloc, 1);
    for (int k = 0; s && k < l->def->u.def.ndim; k++) {
        ast_expr *d = l->def->u.def.shape[k];
        s = only_sizes(g->f, d) ? ad_mul(g->ctx, s, ast_clone_expr(g->ctx, d)) : NULL;
    }
    l->versions = v;
    l->size = s;
}

/* The iteration number of loop L: (i - begin) // step. */
static ast_expr *iteration(ft_ctx *ctx, const ast_stmt *L)
{
    ast_expr *i = ast_var(ctx, noloc, L->u.loop.iter);
    const ast_expr *b = L->u.loop.begin, *st = L->u.loop.step;
    int64_t k = st ? st->u.ival : 1;
    if (!(b->kind == AST_INT && b->u.ival == 0))
        i = ast_binary(ctx, noloc, AST_SUB, i, ast_clone_expr(ctx, b));
    if (k != 1)
        i = ast_binary(ctx, noloc, AST_FLOORDIV, i, ast_int(ctx, noloc, k));
    return i;
}

/* Fresh iterators for a nest over ndim dimensions. */
static const char **nest_iters(ad_grad *g, int ndim)
{
    const char **its = ft_alloc(g->ctx, sizeof *its * (size_t)(ndim + 1));
    for (int k = 0; k < ndim; k++)
        its[k] = ad_fresh(g, ft_fmt(g->ctx, "ad_i%d", k));
    return its;
}

/* Loads of the iterators its. */
static ast_expr **iter_vars(ft_ctx *ctx, int ndim, const char **its)
{
    ast_expr **v = ft_alloc(ctx, sizeof *v * (size_t)(ndim + 1));
    for (int k = 0; k < ndim; k++)
        v[k] = ast_var(ctx, noloc, its[k]);
    return v;
}

/* `for its in shape: body`. */
static ast_stmt *nest(ft_ctx *ctx, int ndim, ast_expr **shape, const char **its, ast_stmt *body)
{
    for (int k = ndim - 1; k >= 0; k--)
        body = ast_for(ctx, noloc, its[k], ast_int(ctx, noloc, 0),
                       ast_clone_expr(ctx, shape[k]), ast_int(ctx, noloc, 1), body);
    return body;
}

ast_stmt *ad_fill(ad_grad *g, const char *var, ft_dtype t, int ndim, ast_expr **shape,
                  const char *src)
{
    const char **its = nest_iters(g, ndim);
    ast_expr *v = src ? ast_load(g->ctx, noloc, src, t, ndim, iter_vars(g->ctx, ndim, its))
                      : ast_float(g->ctx, noloc, 0, t);
    ast_stmt *st = ast_store(g->ctx, noloc, var, ndim, iter_vars(g->ctx, ndim, its), v);
    return nest(g->ctx, ndim, shape, its, st);
}

/* The shape of the region of l (a saved local or an overwrite): one
 * dimension per loop around it (its trip count), then the local's shape;
 * [1] when that leaves none.  Returns the number of dimensions. */
int ad_region_shape(ad_grad *g, const ad_local *l, ast_expr ***shape)
{
    ft_ctx *c = g->ctx;
    int nd = l->def->kind == AST_VARDEF ? l->def->u.def.ndim : 0;
    int n = l->nloops + nd;
    ast_expr **sh = ft_alloc(c, sizeof *sh * (size_t)(n + 1));
    for (int i = 0; i < l->nloops; i++)
        sh[i] = ad_trip_count(c, l->loops[i]);
    for (int k = 0; k < nd; k++)
        sh[l->nloops + k] = ast_clone_expr(c, l->def->u.def.shape[k]);
    if (n == 0)
        sh[n++] = ast_int(c, noloc, 1);
    *shape = sh;
    return n;
}

/* The element of l's region for the version being run and the element
 * idx (nidx indices, of the local's shape) of that version: a load. */
ast_expr *ad_region_load(ad_grad *g, const ad_local *l, int nidx, ast_expr **idx)
{
    ft_ctx *c = g->ctx;
    int n = l->nloops + nidx;
    ast_expr **at = ft_alloc(c, sizeof *at * (size_t)(n + 1));
    for (int i = 0; i < l->nloops; i++)
        at[i] = iteration(c, l->loops[i]);
    for (int k = 0; k < nidx; k++)
        at[l->nloops + k] = idx[k];
    if (n == 0)
        at[n++] = ast_int(c, noloc, 0);
    return ast_load(c, noloc, l->region, g->tape_dtype, n, at);
}

/* Copy local l to its region of the tape (to_tape) or back. */
ast_stmt *ad_tape_copy(ad_grad *g, const ad_local *l, int to_tape)
{
    ft_ctx *c = g->ctx;
    const ast_stmt *d = l->def;
    int nd = d->u.def.ndim;
    const char **its = nest_iters(g, nd);
    ast_expr *tv = ad_region_load(g, l, nd, iter_vars(c, nd, its));
    ast_expr *lv = ast_load(c, noloc, d->u.def.name, d->u.def.dtype, nd, iter_vars(c, nd, its));
    ast_stmt *st = to_tape
        ? ast_store(c, noloc, l->region, tv->u.load.n, tv->u.load.idx,
                    xf_convert(c, lv, g->tape_dtype))
        : ast_store(c, noloc, d->u.def.name, nd, iter_vars(c, nd, its),
                    xf_convert(c, tv, d->u.def.dtype));
    return nest(c, nd, d->u.def.shape, its, st);
}

/* The tape's dtype: f64 when wide or when an overwritten tensor is not
 * f32, else f32 (grad.c builds again with wide set when a saved local
 * turns out not to be f32); and the regions of the overwritten values
 * (one element per instance of each overwriting Store), first on the
 * tape. */
void ad_layout_overs(ad_grad *g, int wide)
{
    ft_ctx *c = g->ctx;
    ast_expr *total = ast_int(c, noloc, 0);
    g->tape_dtype = wide ? FT_F64 : FT_F32;
    for (int i = 0; i < g->overs.len; i++) {
        ad_local *o = g->overs.items[i];
        o->versions = ad_loops_versions(g, o->nloops, o->loops);
        o->size = ast_int(c, noloc, 1);
        if (!o->versions) {
            ft_unsupported(c, o->def->loc, "a gradient through a value overwritten in a "
                           "loop whose trip count is not an expression of the sizes");
            continue;
        }
        if (ad_tensor_dtype(g, o->def->u.store.var) != FT_F32)
            g->tape_dtype = FT_F64;
    }
    for (int i = 0; i < g->overs.len; i++) {
        ad_local *o = g->overs.items[i];
        if (!o->versions)
            continue;
        o->offset = ast_clone_expr(c, total);
        o->region = ad_fresh(g, ft_fmt(c, "tape_%s", o->def->u.store.var));
        total = ad_add(c, total, ast_clone_expr(c, o->versions));
    }
    g->tape_elems = total;
}

/* Give each saved local its region, after the overwritten values. */
void ad_layout_tape(ad_grad *g)
{
    ft_ctx *c = g->ctx;
    ast_expr *total = g->tape_elems;
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        if (l->decision != AD_SAVE)
            continue;
        l->offset = ast_clone_expr(c, total);
        l->region = ad_fresh(g, ft_fmt(c, "tape_%s", l->def->u.def.name));
        total = ad_add(c, total, ad_mul(c, ast_clone_expr(c, l->versions),
                                        ast_clone_expr(c, l->size)));
    }
    g->tape_elems = total;
}
