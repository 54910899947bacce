/* cg_facts.c - invariant indices and the ranges an `if` guarantees, for
 * the C backend's bounds checks (cg_facts.h). */
#include "cg_facts.h"

#include <string.h>


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
