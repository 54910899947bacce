/* shrink_vars.c - xf_shrink_vars: give locals the smallest shape they need.
 *
 * Requires: a lowered program.
 * Provides: locals declared in the innermost loop or branch holding all
 * their accesses, without the dimensions that were one slice per
 * iteration, and with windows instead of whole dimensions; the normal form
 * of xf_normalize.
 *
 * Two rewrites, repeated until neither applies:
 *   - sink: when every access of local t sits in one statement X of t's
 *     scope list (so X runs once while t lives) and X is
 *       * a loop whose iterator i is the index of dimension d of t at every
 *         access (iteration i touches only slice d = i, so nothing flows
 *         between iterations): t moves into the loop body without d;
 *       * a branch holding every access in one side: t moves into it;
 *   - window: when the index of dimension d at every access is the same
 *     expression b plus a literal c (b without loads and without iterators
 *     bound inside t's scope, so b is fixed while t lives), the dimension
 *     shrinks to max c - min c + 1 elements indexed c - min c, or goes away
 *     when that is 1 (b is dropped; only when smaller than before).
 * A row per face becomes one row; a row per face used element by element
 * becomes a scalar.  Labelled VarDefs are left alone.
 */
#include "cleanup.h"

#include <string.h>

#include "visit.h"
#include "xf_util.h"

/* Remove index d from every access in acc, and dimension d from t. */
static void drop_dim(ast_stmt *vardef, ft_vec *acc, int d)
{
    for (int i = 0; i < acc->len; i++) {
        xf_access *a = acc->items[i];
        for (int k = d; k + 1 < *a->n; k++)
            (*a->idx)[k] = (*a->idx)[k + 1];
        (*a->n)--;
    }
    for (int k = d; k + 1 < vardef->u.def.ndim; k++)
        vardef->u.def.shape[k] = vardef->u.def.shape[k + 1];
    vardef->u.def.ndim--;
}

/* Whether the index of dimension d is the iterator iter at every access. */
static int indexed_by(ft_vec *acc, int d, const char *iter)
{
    for (int i = 0; i < acc->len; i++) {
        xf_access *a = acc->items[i];
        const ast_expr *ix = (*a->idx)[d];
        if (*a->n <= d || ix->kind != AST_VAR || strcmp(ix->u.name, iter))
            return 0;
    }
    return 1;
}

/* Replace, in place, the VarDef vardef by its body. */
static void unwrap(ast_stmt *vardef)
{
    ast_stmt *body = vardef->u.def.body;
    *vardef = *body;
}

/* A copy of vardef's declaration over body. */
static ast_stmt *redeclare(ft_ctx *ctx, const ast_stmt *vardef, ast_stmt *body)
{
    const typeof(vardef->u.def) *d = &vardef->u.def;
    return ast_vardef(ctx, vardef->loc, d->name, d->dtype, d->ndim, d->shape, d->access,
                      d->mtype, body);
}

/* The one item of vardef's scope list that accesses its local, or NULL. */
static ast_stmt *only_user(ft_ctx *ctx, ast_stmt *vardef)
{
    ft_vec items = {0};
    xf_scope_list(ctx, vardef->u.def.body, &items);
    ast_stmt *user = NULL;
    for (int i = 0; i < items.len; i++) {
        if (!xf_item_accesses(items.items[i], vardef->u.def.name))
            continue;
        if (user)
            return NULL;
        user = items.items[i];
    }
    return user;
}

/* Sink vardef into its only user when legal; returns 1 if it did. */
static int sink(ft_ctx *ctx, ast_stmt *vardef)
{
    const char *t = vardef->u.def.name;
    ast_stmt *x = only_user(ctx, vardef);
    if (!x || xf_kept(vardef))
        return 0;
    if (x->kind == AST_IF && !xf_expr_reads(x->u.branch.cond, t)) {
        int in_then = xf_accesses(x->u.branch.then, t);
        int in_other = x->u.branch.other && xf_accesses(x->u.branch.other, t);
        if (in_then == in_other)
            return 0;
        ast_stmt **side = in_then ? &x->u.branch.then : &x->u.branch.other;
        *side = redeclare(ctx, vardef, *side);
        unwrap(vardef);
        return 1;
    }
    if (x->kind != AST_FOR)
        return 0;
    ft_vec acc = {0};
    xf_collect_accesses(ctx, x, t, &acc);
    for (int d = 0; d < vardef->u.def.ndim; d++) {
        if (!indexed_by(&acc, d, x->u.loop.iter))
            continue;
        ast_stmt *inner = redeclare(ctx, vardef, x->u.loop.body);
        inner->u.def.shape = ft_alloc(ctx, sizeof *inner->u.def.shape *
                                               (size_t)vardef->u.def.ndim);
        memcpy(inner->u.def.shape, vardef->u.def.shape,
               sizeof *inner->u.def.shape * (size_t)vardef->u.def.ndim);
        drop_dim(inner, &acc, d);
        x->u.loop.body = inner;
        unwrap(vardef);
        return 1;
    }
    return 0;
}

/* e as base + c with c a literal (base NULL when e is a literal). */
static const ast_expr *split_offset(const ast_expr *e, int64_t *c)
{
    const int64_t lim = (int64_t)1 << 40;
    *c = 0;
    if (e->kind == AST_INT && e->u.ival > -lim && e->u.ival < lim) {
        *c = e->u.ival;
        return NULL;
    }
    if (e->kind == AST_BINARY && (e->u.bin.op == AST_ADD || e->u.bin.op == AST_SUB)) {
        int64_t ca, cb;
        const ast_expr *ba = split_offset(e->u.bin.a, &ca);
        const ast_expr *bb = split_offset(e->u.bin.b, &cb);
        if (!bb && ca > -lim && ca < lim) {
            *c = e->u.bin.op == AST_ADD ? ca + cb : ca - cb;
            return ba;
        }
        if (!ba && e->u.bin.op == AST_ADD && cb > -lim && cb < lim) {
            *c = ca + cb;
            return bb;
        }
    }
    return e;
}

/* Names of the iterators and sizes an expression uses. */
typedef struct names_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names;
} names_state;

static void names_cb(ast_visitor *v, ast_expr *e)
{
    names_state *st = (names_state *)v;
    if (e->kind == AST_VAR)
        ft_vec_push(st->ctx, &st->names, (void *)e->u.name);
}

/* Whether base stays the same while vardef's body runs. */
static int fixed_in_scope(ft_ctx *ctx, const ast_stmt *vardef, const ast_expr *base)
{
    if (!base)
        return 1;
    if (xf_expr_has_load(base))
        return 0;
    names_state st = {.v.expr = names_cb, .ctx = ctx};
    ast_visit_expr((ast_expr *)base, &st.v);
    for (int i = 0; i < st.names.len; i++)
        if (xf_binds_iter(vardef->u.def.body, st.names.items[i]))
            return 0;
    return 1;
}

/* Shrink dimension d of vardef to the window its accesses use; returns 1
 * if it did. */
static int window(ft_ctx *ctx, ast_stmt *vardef, int d, ft_vec *acc)
{
    if (acc->len == 0)
        return 0;
    const ast_expr *base = NULL;
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < acc->len; i++) {
        xf_access *a = acc->items[i];
        int64_t c;
        const ast_expr *b = split_offset((*a->idx)[d], &c);
        if (i == 0) {
            base = b;
            lo = hi = c;
        } else if ((!b) != (!base) || (b && !ast_expr_equal(b, base))) {
            return 0;
        }
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    int64_t size = hi - lo + 1;
    const ast_expr *old = vardef->u.def.shape[d];
    if ((old->kind == AST_INT && old->u.ival <= size) || !fixed_in_scope(ctx, vardef, base))
        return 0;
    if (size == 1) {
        drop_dim(vardef, acc, d);
        return 1;
    }
    for (int i = 0; i < acc->len; i++) {
        xf_access *a = acc->items[i];
        int64_t c;
        split_offset((*a->idx)[d], &c);
        (*a->idx)[d] = ast_int(ctx, (*a->idx)[d]->loc, c - lo);
    }
    vardef->u.def.shape[d] = ast_int(ctx, old->loc, size);
    return 1;
}

/* Try the window rewrite on every dimension of vardef. */
static int shrink_windows(ft_ctx *ctx, ast_stmt *vardef)
{
    if (xf_kept(vardef))
        return 0;
    int changed = 0;
    for (int d = vardef->u.def.ndim - 1; d >= 0; d--) {
        ft_vec acc = {0};
        xf_collect_accesses(ctx, vardef->u.def.body, vardef->u.def.name, &acc);
        changed += window(ctx, vardef, d, &acc);
    }
    return changed;
}

void xf_shrink_vars(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "shrink_vars")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        for (int round = 0; round < 10000; round++) {   /* one rewrite per round */
            ft_vec defs = {0};
            xf_collect_vardefs(ctx, f->body, &defs);
            int changed = 0;
            for (int k = 0; k < defs.len && !changed; k++)
                changed = sink(ctx, defs.items[k]);
            for (int k = 0; k < defs.len && !changed; k++)
                changed = shrink_windows(ctx, defs.items[k]);
            f->body = xf_normalize(ctx, f->body);
            if (!changed)
                break;
        }
    }
}
