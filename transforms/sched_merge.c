/* sched_merge.c - merge(L1, L2): a loop and the loop nested in it into one.
 *
 * Requires: f's AST.
 * Provides: `for m in range(n1 * n2)` over L2's body, which reads L1's
 * iterator as begin1 + (m // n2) * step1 and L2's as begin2 + (m % n2) *
 * step2.
 *
 * Always legal when L2 is all of L1's body and L2's range does not depend on
 * L1's iterator: the instances run in the same order.
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

/* begin + e * step of loop l. */
static ast_expr *iter_at(ft_ctx *ctx, const ast_stmt *l, ast_expr *e)
{
    return xf_add(ctx, ast_clone_expr(ctx, l->u.loop.begin),
                  xf_mul(ctx, e, ast_clone_expr(ctx, l->u.loop.step)));
}

int xf_merge(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, const char *name, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "merge %s and %s", xf_sched_name(ctx, l1), xf_sched_name(ctx, l2));
    if (xf_sched_pinned(ctx, l1, what, loc) || xf_sched_pinned(ctx, l2, what, loc))
        return 1;
    ast_stmt **items;
    if (xf_body_items(&l1->u.loop.body, &items) != 1 || items[0] != l2) {
        ft_error(ctx, loc, "cannot %s: %s is not all of the body of %s", what,
                 xf_sched_name(ctx, l2), xf_sched_name(ctx, l1));
        return 1;
    }
    const char *i1 = l1->u.loop.iter, *i2 = l2->u.loop.iter;
    if (xf_expr_uses_var(l2->u.loop.begin, i1) || xf_expr_uses_var(l2->u.loop.end, i1) ||
        xf_expr_uses_var(l2->u.loop.step, i1)) {
        ft_error(ctx, loc, "cannot %s: the range of %s depends on '%s'", what,
                 xf_sched_name(ctx, l2), i1);
        return 1;
    }
    ast_expr *n1 = xf_trip_count(ctx, l1), *n2 = xf_trip_count(ctx, l2);
    if (!n1 || !n2 || l1->u.loop.par != AST_SERIAL || l2->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot %s: %s", what, !n1 || !n2 ? "a step is not a constant"
                 : "merge loops before parallelizing them");
        return 1;
    }
    ft_loc l = l1->loc;
    ast_expr *zero = ast_int(ctx, l, 0);
    if (n1->kind != AST_INT)
        n1 = ast_binary(ctx, l, AST_MAX, n1, zero);
    if (n2->kind != AST_INT)
        n2 = ast_binary(ctx, l, AST_MAX, n2, zero);
    const char *m = xf_new_loop_name(ctx, f, name, ft_fmt(ctx, "%s%s", i1, i2), "");
    ast_expr *mv = ast_var(ctx, l, m);
    ast_expr *repl[2] = {
        iter_at(ctx, l1, ast_binary(ctx, l, AST_FLOORDIV, mv, ast_clone_expr(ctx, n2))),
        iter_at(ctx, l2, ast_binary(ctx, l, AST_MOD, mv, ast_clone_expr(ctx, n2)))};
    const char *names[2] = {i1, i2};
    ast_subst_stmt(ctx, l2->u.loop.body, 2, names, repl);
    l1->u.loop.iter = m;
    l1->u.loop.begin = ast_int(ctx, l, 0);
    l1->u.loop.end = xf_mul(ctx, n1, n2);
    l1->u.loop.step = ast_int(ctx, l, 1);
    l1->u.loop.body = l2->u.loop.body;
    l1->label = NULL;
    xf_name_loop(l1, name);
    xf_sched_finish(ctx, f);
    return 0;
}
