/* sched_move_to.c - move_to(S, before=T) / move_to(S, after=T): move a
 * statement next to another one.
 *
 * Requires: f's AST.
 * Provides: S, an item of the same sequence as T, placed right before (or
 * right after) T; the statements between them keep their order.
 *
 * Legality: the block of items from S to T is permuted, and the new order
 * must keep every dependence (xf_check_permutation, the isl analysis of
 * swap).  Moving a statement across loop boundaries is refused (fission the
 * loop first).
 */
#include "schedule.h"

#include "sched_util.h"

/* The new order of items lo..hi of parent when the item at `from` moves to
 * just before (after = 0) or after (after = 1) the item at `to`. */
static ast_stmt **moved_order(ft_ctx *ctx, ast_stmt *parent, int from, int to, int after,
                              int *start, int *n)
{
    int lo = from < to ? from : to, hi = from < to ? to : from;
    ast_stmt **items = parent->u.seq.stmts, *s = items[from];
    ast_stmt **order = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(hi - lo + 1));
    int m = 0;
    for (int i = lo; i <= hi; i++) {
        if (i == from)
            continue;
        if (i == to && !after)
            order[m++] = s;
        order[m++] = items[i];
        if (i == to && after)
            order[m++] = s;
    }
    *start = lo;
    *n = hi - lo + 1;
    return order;
}

int xf_move_to(ft_ctx *ctx, ast_func *f, ast_stmt *s, ast_stmt *t, int after, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "move %s %s %s", xf_sched_name(ctx, s),
                              after ? "after" : "before", xf_sched_name(ctx, t));
    if (s == t) {
        ft_error(ctx, loc, "cannot %s: they are the same statement", what);
        return 1;
    }
    int from = -1, to = -1;
    ast_stmt *ps = xf_parent_seq(ctx, f->body, s, &from);
    ast_stmt *pt = xf_parent_seq(ctx, f->body, t, &to);
    if (!ps || ps != pt) {
        ft_error(ctx, loc, "cannot %s: they are not statements of one sequence (moving "
                 "across loops is not supported yet; fission the loop first)", what);
        return 1;
    }
    if (to == from + (after ? -1 : 1))
        return 0;                                 /* already there */
    int start, n;
    ast_stmt **order = moved_order(ctx, ps, from, to, after, &start, &n);
    if (xf_check_permutation(ctx, f, ps, start, n, order, what, loc))
        return 1;
    for (int i = 0; i < n; i++)
        ps->u.seq.stmts[start + i] = order[i];
    xf_sched_finish(ctx, f);
    return 0;
}
