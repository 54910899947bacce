/* cg_facts.c - invariant indices and the ranges an `if` guarantees, for
 * the C backend's bounds checks; invariant index loads of vectorized loops
 * (cg_facts.h). */
#include "cg_facts.h"

#include <string.h>

#include "../ast/visit.h"
#include "../transforms/xf_util.h"


/* Whether e is the integer constant v. */
static int is_int(const ast_expr *e, int64_t v)
{
    return e->kind == AST_INT && e->u.ival == v;
}

/* Record one conjunct c: a lower bound 0 <= x (lo) or an upper bound
 * x < d (xs_hi, ds_hi). */
static void conjunct(ft_ctx *ctx, const ast_expr *c, ft_vec *lo, ft_vec *xs_hi, ft_vec *ds_hi)
{
    if (c->kind != AST_BINARY)
        return;
    const ast_expr *a = c->u.bin.a, *b = c->u.bin.b;
    if (ft_dtype_is_float(a->dtype) || ft_dtype_is_float(b->dtype))
        return;
    switch (c->u.bin.op) {
    case AST_AND:
        conjunct(ctx, a, lo, xs_hi, ds_hi);
        conjunct(ctx, b, lo, xs_hi, ds_hi);
        return;
    case AST_GE: /* a >= 0 */
        if (is_int(b, 0))
            ft_vec_push(ctx, lo, (void *)a);
        return;
    case AST_GT: /* a > -1, d > x */
        if (is_int(b, -1))
            ft_vec_push(ctx, lo, (void *)a);
        ft_vec_push(ctx, xs_hi, (void *)b);
        ft_vec_push(ctx, ds_hi, (void *)a);
        return;
    case AST_LE: /* 0 <= b */
        if (is_int(a, 0))
            ft_vec_push(ctx, lo, (void *)b);
        return;
    case AST_LT: /* -1 < b, a < d */
        if (is_int(a, -1))
            ft_vec_push(ctx, lo, (void *)b);
        ft_vec_push(ctx, xs_hi, (void *)a);
        ft_vec_push(ctx, ds_hi, (void *)b);
        return;
    default:
        return;
    }
}

/* Whether two expressions are the same text. */
static int same_expr(ft_ctx *ctx, const ast_expr *a, const ast_expr *b)
{
    return strcmp(ast_expr_text(ctx, a), ast_expr_text(ctx, b)) == 0;
}

void cg_range_facts(ft_ctx *ctx, const ast_expr *cond, ft_vec *xs, ft_vec *ds)
{
    ft_vec lo = {0}, xs_hi = {0}, ds_hi = {0};
    if (cond->kind == AST_BINARY && cond->u.bin.op == AST_AND)
        conjunct(ctx, cond, &lo, &xs_hi, &ds_hi);
    for (int i = 0; i < xs_hi.len; i++)
        for (int k = 0; k < lo.len; k++)
            if (same_expr(ctx, xs_hi.items[i], lo.items[k])) {
                ft_vec_push(ctx, xs, xs_hi.items[i]);
                ft_vec_push(ctx, ds, ds_hi.items[i]);
                break;
            }
}

/* What cg_invariant_index_loads gathers for one loop. */
typedef struct ix_walk {
    ast_visitor v;
    ft_ctx *ctx;
    const ast_stmt *loop;
    ft_vec *loads;
} ix_walk;

/* Add index e when it is a load that may be read before the loop (its
 * own indices read no tensor; invariant in the loop) and not added yet. */
static void ix_index(ix_walk *w, const ast_expr *e)
{
    if (e->kind != AST_LOAD || e->u.load.n == 0)
        return;
    for (int k = 0; k < e->u.load.n; k++)
        if (xf_expr_has_load(e->u.load.idx[k]))
            return;
    if (!xf_expr_invariant_in(w->ctx, w->loop, e))
        return;
    for (int i = 0; i < w->loads->len; i++)
        if (ast_expr_equal(w->loads->items[i], e))
            return;
    ft_vec_push(w->ctx, w->loads, (void *)e);
}

/* The indices of every load under the loop. */
static void ix_expr_cb(ast_visitor *v, ast_expr *e)
{
    for (int k = 0; e->kind == AST_LOAD && k < e->u.load.n; k++)
        ix_index((ix_walk *)v, e->u.load.idx[k]);
}

/* The indices of every store and reduction under the loop. */
static int ix_stmt_cb(ast_visitor *v, ast_stmt *s)
{
    int n = s->kind == AST_STORE ? s->u.store.n : s->kind == AST_REDUCE ? s->u.red.n : 0;
    ast_expr **idx = s->kind == AST_STORE ? s->u.store.idx : s->u.red.idx;
    for (int k = 0; k < n; k++)
        ix_index((ix_walk *)v, idx[k]);
    return 1;
}

void cg_invariant_index_loads(ft_ctx *ctx, const ast_stmt *loop, ft_vec *out)
{
    ix_walk w = {.v = {.stmt = ix_stmt_cb, .expr = ix_expr_cb}, .ctx = ctx, .loop = loop,
                 .loads = out};
    ast_visit(loop->u.loop.body, &w.v);
}
