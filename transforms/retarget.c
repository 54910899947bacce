/* retarget.c - xf_retarget: compute a local where it is copied to.
 *
 * Requires: a lowered program.
 * Provides: locals whose whole life ends in a copy-out to a visible tensor
 * removed: their accesses use the destination, the copy and the VarDef are
 * gone ("destination passing" after the fact); the normal form of
 * xf_normalize.
 *
 * The front end lowers `c = matmul(a, b)` (any `y = f(...)` whose result is
 * a fresh local) to `var t`, loops computing t, then the copy-out
 *     for i in range(n): for j in range(m): c[i, j] = t[i, j]
 * A local t qualifies when the last item of its scope list that accesses it
 * (so not a statement inside a loop of the scope) is such a copy-out:
 *   - a nest of t.ndim loops from 0 with step 1 that no label or schedule
 *     names (xf_kept), each holding
 *     only the next, around one unlabelled Store `dst[g...] = t[v...]`
 *     whose t indices are the nest's iterators (each once), the loop of the
 *     iterator indexing dimension k running to t.shape[k];
 *   - dst is not t, has t's dtype (no conversion) and is declared outside
 *     t's scope;
 *   - each index of dst uses at most one of the nest's iterators, every
 *     iterator is used by exactly one index, as `v`, `v + e`, `e + v` or
 *     `v - e`, and e and the other indices have no loads and none of the
 *     nest's iterators (an injective map: views, slices, transposes; a
 *     gather is refused);
 * and
 *   - dst is not accessed by any item before the copy-out (nobody sees dst
 *     early), nor t after it;
 *   - no loop before the copy-out rebinds a name the dst indices use;
 *   - no access of t has an index depending on loaded data (checked against
 *     t's bounds, it would be checked against dst's);
 *   - when dst is a parameter, no item from the first access of t on may
 *     stop the function (the caller would see dst partly written where it
 *     saw it untouched).
 * Every access t[idx] becomes dst[g(idx)]; the copy-out and the VarDef go.
 * Labelled VarDefs are left alone, and so are 0-D locals: the C backend
 * keeps them in registers, where an accumulation is cheaper than in dst's
 * memory (which the C compiler must assume may alias the inputs), and
 * their copy-out is a single store.
 */
#include "cleanup.h"

#include <string.h>

#include "visit.h"
#include "xf_util.h"

/* A copy-out of a local t: dst[g(v...)] = t[v...]. */
typedef struct copy_out {
    ast_stmt *item;        /* the outermost loop */
    ast_stmt *store;
    const char **iters;    /* the iterator indexing each dimension of t */
} copy_out;

/* The loop among loops[0..n) whose iterator is name, or NULL. */
static ast_stmt *loop_of(ast_stmt **loops, int n, const char *name)
{
    for (int l = 0; l < n; l++)
        if (strcmp(loops[l]->u.loop.iter, name) == 0)
            return loops[l];
    return NULL;
}

/* Whether the t indices of c's Store are the nest's iterators, each once,
 * over full ranges; fills c->iters. */
static int full_range_read(ft_ctx *ctx, ast_stmt *vardef, ast_stmt **loops, copy_out *c)
{
    int nd = vardef->u.def.ndim;
    const ast_expr *v = c->store->u.store.value;
    c->iters = ft_alloc(ctx, sizeof *c->iters * (size_t)(nd ? nd : 1));
    for (int k = 0; k < nd; k++) {
        const ast_expr *ix = v->u.load.idx[k];
        if (ix->kind != AST_VAR)
            return 0;
        ast_stmt *loop = loop_of(loops, nd, ix->u.name);
        if (!loop || !ast_expr_equal(loop->u.loop.end, vardef->u.def.shape[k]))
            return 0;
        for (int j = 0; j < k; j++)
            if (strcmp(c->iters[j], ix->u.name) == 0)
                return 0;
        c->iters[k] = ix->u.name;
    }
    return 1;
}

/* Whether item is a copy-out of vardef's local (the shape, not yet the
 * destination's indices); fills c. */
static int match_copy_out(ft_ctx *ctx, ast_stmt *vardef, ast_stmt *item, copy_out *c)
{
    int nd = vardef->u.def.ndim;
    ast_stmt **loops = ft_alloc(ctx, sizeof *loops * (size_t)(nd ? nd : 1));
    c->item = item;
    for (int k = 0; k < nd; k++) {
        if (!item || item->kind != AST_FOR || xf_kept(item) || !xf_loop_from_zero(item))
            return 0;
        loops[k] = item;
        item = xf_only_stmt(item->u.loop.body);
    }
    if (!item || item->kind != AST_STORE || item->label)
        return 0;
    const ast_expr *v = item->u.store.value;
    if (v->kind != AST_LOAD || strcmp(v->u.load.var, vardef->u.def.name) != 0 ||
        v->u.load.n != nd || strcmp(item->u.store.var, vardef->u.def.name) == 0)
        return 0;
    c->store = item;
    return full_range_read(ctx, vardef, loops, c);
}

/* How many of c's iterators e uses; *which is the last one. */
static int iters_used(const copy_out *c, int nd, const ast_expr *e, int *which)
{
    int n = 0;
    for (int k = 0; k < nd; k++)
        if (xf_expr_uses_var(e, c->iters[k]))
            n++, *which = k;
    return n;
}

/* Whether e is an offset: no load and none of c's iterators. */
static int is_offset(const copy_out *c, int nd, const ast_expr *e)
{
    int which;
    return !xf_expr_has_load(e) && iters_used(c, nd, e, &which) == 0;
}

/* Whether ix is `v`, `v + e`, `e + v` or `v - e` for c's iterator v. */
static int is_shifted_iter(const copy_out *c, int nd, const ast_expr *ix, const char *v)
{
    if (ix->kind == AST_VAR)
        return strcmp(ix->u.name, v) == 0;
    if (ix->kind != AST_BINARY || (ix->u.bin.op != AST_ADD && ix->u.bin.op != AST_SUB))
        return 0;
    const ast_expr *a = ix->u.bin.a, *b = ix->u.bin.b;
    if (a->kind == AST_VAR && strcmp(a->u.name, v) == 0 && is_offset(c, nd, b))
        return 1;
    return ix->u.bin.op == AST_ADD && b->kind == AST_VAR && strcmp(b->u.name, v) == 0 &&
           is_offset(c, nd, a);
}

/* Whether the destination indices map t's elements one to one. */
static int injective_target(const copy_out *c, int nd)
{
    const ast_stmt *st = c->store;
    int count[64] = {0};
    if (nd > 64)
        return 0;
    for (int d = 0; d < st->u.store.n; d++) {
        const ast_expr *ix = st->u.store.idx[d];
        int k = -1, n = iters_used(c, nd, ix, &k);
        if (n == 0 && xf_expr_has_load(ix))
            return 0;
        if (n > 1 || (n == 1 && !is_shifted_iter(c, nd, ix, c->iters[k])))
            return 0;
        if (n == 1)
            count[k]++;
    }
    for (int k = 0; k < nd; k++)
        if (count[k] != 1)
            return 0;
    return 1;
}

/* dst's dtype, and whether it is a parameter; 0 when dst is unknown or
 * declared more than once with different dtypes. */
static int dst_decl(ft_ctx *ctx, const ast_func *f, const char *dst, ft_dtype *t,
                    int *is_param)
{
    int found = 0;
    *is_param = 0;
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].is_size && strcmp(f->params[i].name, dst) == 0)
            *t = f->params[i].dtype, *is_param = found = 1;
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    for (int i = 0; i < defs.len; i++) {
        const ast_stmt *d = defs.items[i];
        if (strcmp(d->u.def.name, dst) != 0)
            continue;
        if ((found && d->u.def.dtype != *t) || *is_param)
            return 0;
        *t = d->u.def.dtype, found = 1;
    }
    return found;
}

/* The index of the last item of items accessing var, or -1. */
static int last_access(ft_vec *items, const char *var)
{
    for (int i = items->len - 1; i >= 0; i--)
        if (xf_item_accesses(items->items[i], var))
            return i;
    return -1;
}

/* The index of the first item of items accessing var, or -1. */
static int first_access(ft_vec *items, const char *var)
{
    for (int i = 0; i < items->len; i++)
        if (xf_item_accesses(items->items[i], var))
            return i;
    return -1;
}

/* Whether no access of var under s has an index depending on loaded data. */
static int affine_accesses(ft_ctx *ctx, ast_stmt *s, const char *var)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, var, &acc);
    for (int i = 0; i < acc.len; i++) {
        const xf_access *a = acc.items[i];
        for (int k = 0; k < *a->n; k++)
            if (xf_expr_has_load((*a->idx)[k]))
                return 0;
    }
    return 1;
}

/* The names (iterators, sizes) an expression uses. */
typedef struct vars_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *names;
} vars_state;

static void vars_cb(ast_visitor *v, ast_expr *e)
{
    vars_state *st = (vars_state *)v;
    if (e->kind == AST_VAR && !xf_has_name(st->names, e->u.name))
        ft_vec_push(st->ctx, st->names, (void *)e->u.name);
}

/* Whether a loop in items[0..at) rebinds a name the dst indices use
 * (other than the copy-out's own iterators, which are substituted). */
static int indices_rebound(ft_ctx *ctx, const copy_out *c, int nd, ft_vec *items, int at)
{
    ft_vec names = {0};
    vars_state vs = {.v.expr = vars_cb, .ctx = ctx, .names = &names};
    for (int d = 0; d < c->store->u.store.n; d++)
        ast_visit_expr(c->store->u.store.idx[d], &vs.v);
    for (int k = 0; k < names.len; k++) {
        int own = 0;
        for (int j = 0; j < nd; j++)
            own |= strcmp(names.items[k], c->iters[j]) == 0;
        for (int i = 0; i < at && !own; i++)
            if (((ast_stmt *)items->items[i])->kind != AST_VARDEF &&
                xf_binds_iter(items->items[i], names.items[k]))
                return 1;
    }
    return 0;
}

/* Whether the accesses of t in items[0..at) may move to dst: every one
 * indexed without loads, and (dst a parameter) nothing from the first
 * access of t to the copy-out may stop the function. */
static int accesses_movable(ft_ctx *ctx, const char *t, ft_vec *items, int at,
                            int dst_is_param)
{
    for (int i = first_access(items, t); i < at; i++) {
        ast_stmt *it = items->items[i];
        if (it->kind == AST_VARDEF)
            continue;
        if (!affine_accesses(ctx, it, t) || (dst_is_param && xf_stmt_checked(it)))
            return 0;
    }
    return 1;
}

/* Whether vardef's local may be retargeted to the copy-out c, items[at]. */
static int legal(ft_ctx *ctx, const ast_func *f, ast_stmt *vardef, ft_vec *items, int at,
                 const copy_out *c)
{
    const char *t = vardef->u.def.name, *dst = c->store->u.store.var;
    int nd = vardef->u.def.ndim, is_param;
    ft_dtype dt;
    if (!dst_decl(ctx, f, dst, &dt, &is_param) || dt != vardef->u.def.dtype ||
        xf_defines(vardef->u.def.body, dst) || xf_defines(vardef->u.def.body, t) ||
        !injective_target(c, nd))
        return 0;
    for (int i = 0; i < at; i++)
        if (xf_item_accesses(items->items[i], dst))
            return 0;
    return !indices_rebound(ctx, c, nd, items, at) &&
           accesses_movable(ctx, t, items, at, is_param);
}

/* ------------------------------------------------------------- rewriting */

/* dst's indices for the access t[idx...]: g with the iterators replaced. */
static ast_expr **dst_index(ft_ctx *ctx, const copy_out *c, int nd, ast_expr **idx)
{
    const ast_stmt *st = c->store;
    int n = st->u.store.n;
    ast_expr **out = ft_alloc(ctx, sizeof *out * (size_t)(n ? n : 1));
    for (int d = 0; d < n; d++)
        out[d] = ast_subst_vars(ctx, st->u.store.idx[d], nd, c->iters, idx);
    return out;
}

typedef struct retarget {
    const copy_out *c;
    int nd;
} retarget;

static ast_expr *load_dst(ft_ctx *ctx, ast_expr *load, void *data)
{
    const retarget *r = data;
    load->u.load.idx = dst_index(ctx, r->c, r->nd, load->u.load.idx);
    load->u.load.n = r->c->store->u.store.n;
    load->u.load.var = r->c->store->u.store.var;
    return load;
}

/* Make every access of t under s an access of dst. */
static void rewrite_accesses(ft_ctx *ctx, ast_stmt *s, const char *t, const retarget *r)
{
    const char *dst = r->c->store->u.store.var;
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, t, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        if (!a->stmt)
            continue;
        *a->idx = dst_index(ctx, r->c, r->nd, *a->idx);
        *a->n = r->c->store->u.store.n;
        if (a->stmt->kind == AST_STORE)
            a->stmt->u.store.var = dst;
        else
            a->stmt->u.red.var = dst;
    }
    xf_replace_loads(ctx, s, t, load_dst, (void *)r);
}

/* Turn vardef, in place, into a sequence holding its body. */
static void unwrap_vardef(ft_ctx *ctx, ast_stmt *vardef)
{
    ast_stmt *body = vardef->u.def.body;
    vardef->kind = AST_SEQ;
    vardef->u.seq.n = 1;
    vardef->u.seq.stmts = ft_alloc(ctx, sizeof *vardef->u.seq.stmts);
    vardef->u.seq.stmts[0] = body;
}

/* Retarget vardef's local to its copy-out when it qualifies; returns 1 if
 * it did. */
static int retarget_local(ft_ctx *ctx, const ast_func *f, ast_stmt *vardef)
{
    const char *t = vardef->u.def.name;
    ft_vec items = {0};
    xf_scope_list(ctx, vardef->u.def.body, &items);
    int at = last_access(&items, t);
    copy_out c;
    if (xf_kept(vardef) || vardef->u.def.ndim == 0 || at < 0 ||
        !match_copy_out(ctx, vardef, items.items[at], &c) || !legal(ctx, f, vardef, &items, at, &c))
        return 0;
    retarget r = {&c, vardef->u.def.ndim};
    for (int i = 0; i < at; i++)
        if (((ast_stmt *)items.items[i])->kind != AST_VARDEF)
            rewrite_accesses(ctx, items.items[i], t, &r);
    xf_make_empty(c.item);
    unwrap_vardef(ctx, vardef);
    return 1;
}

void xf_retarget(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "retarget")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        for (int round = 0; round < 8; round++) {
            ft_vec defs = {0};
            xf_collect_vardefs(ctx, f->body, &defs);
            int changed = 0;
            for (int k = 0; k < defs.len; k++)
                if (((ast_stmt *)defs.items[k])->kind == AST_VARDEF)
                    changed += retarget_local(ctx, f, defs.items[k]);
            f->body = xf_normalize(ctx, f->body);
            if (!changed)
                break;
        }
    }
}
