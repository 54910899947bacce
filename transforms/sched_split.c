/* sched_split.c - split(L, factor) / split(L, nparts=P): one loop into two.
 *
 * Requires: f's AST.
 * Provides: `for o in range(ceil(n / F)): for i in range(F):` around the
 * body, which reads the old iterator as begin + (o * F + i) * step; a guard
 * `if o * F + i < n` that the simplifier drops when F divides the trip
 * count n.  By nparts, F is ceil(n / P) and the outer loop runs P times.
 *
 * With shift=s (xf_split_shift) the iterations are numbered as if s of them
 * came first: k = o * F + i - s over ceil((n + s) / F) outer iterations,
 * guarded by 0 <= k < n (so with s = 1 the first block holds F - 1).
 *
 * Always legal: the instances run in the same order.  Refused only for a
 * step that is not a constant.
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "xf_util.h"

int xf_split(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor, int64_t nparts,
             const char *outer_name, const char *inner_name, ft_loc loc)
{
    return xf_split_shift(ctx, f, loop, factor, nparts, 0, outer_name, inner_name, loc);
}

/* The guard of iteration k of n: k < n, and 0 <= k when shifted right. */
static ast_expr *split_guard(ft_ctx *ctx, ft_loc l, ast_expr *k, ast_expr *n, int64_t shift)
{
    ast_expr *g = ast_binary(ctx, l, AST_LT, k, n);
    if (shift <= 0)
        return g;
    ast_expr *lo = ast_binary(ctx, l, AST_GE, ast_clone_expr(ctx, k), ast_int(ctx, l, 0));
    return ast_binary(ctx, l, AST_AND, lo, g);
}

int xf_split_shift(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor, int64_t nparts,
                   int64_t shift, const char *outer_name, const char *inner_name, ft_loc loc)
{
    if (xf_split_unfinished(ctx, f, loop, factor, nparts, shift, outer_name, inner_name, loc))
        return 1;
    xf_sched_finish(ctx, f);
    return 0;
}

int xf_split_unfinished(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor,
                        int64_t nparts, int64_t shift, const char *outer_name,
                        const char *inner_name, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (xf_sched_pinned(ctx, loop, ft_fmt(ctx, "split %s", lname), loc))
        return 1;
    ast_expr *n = xf_trip_count(ctx, loop);
    if (!n) {
        ft_error(ctx, loc, "cannot split %s: its step is not a constant", lname);
        return 1;
    }
    if (loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot split %s: it is already parallel; split before "
                 "parallelizing", lname);
        return 1;
    }
    if (!xf_sched_depth_ok(ctx, f, loop, "split", loc))
        return 1;
    ft_loc l = loop->loc;
    ast_expr *total = xf_add(ctx, ast_clone_expr(ctx, n), ast_int(ctx, l, shift));
    ast_expr *inner_n = factor > 0 ? ast_int(ctx, l, factor) : xf_ceildiv(ctx, total, nparts);
    ast_expr *outer_n = factor > 0 ? xf_ceildiv(ctx, total, factor) : ast_int(ctx, l, nparts);
    const char *iter = loop->u.loop.iter;
    const char *o = xf_new_loop_name(ctx, f, outer_name, iter, "o");
    const char *i = xf_new_loop_name(ctx, f, inner_name, iter, "i");
    if (strcmp(o, i) == 0) {
        ft_error(ctx, loc, "cannot split %s: both loops would be named '%s'", lname, o);
        return 1;
    }
    /* k = o * F + i - shift; the old iterator is begin + k * step */
    ast_expr *k = xf_add(ctx, xf_add(ctx, xf_mul(ctx, ast_var(ctx, l, o), ast_clone_expr(ctx, inner_n)),
                         ast_var(ctx, l, i)), ast_int(ctx, l, -shift));
    ast_expr *old = xf_add(ctx, ast_clone_expr(ctx, loop->u.loop.begin),
                           xf_mul(ctx, ast_clone_expr(ctx, k), ast_clone_expr(ctx, loop->u.loop.step)));
    ast_stmt *body = loop->u.loop.body;
    ast_subst_stmt(ctx, body, 1, &iter, &old);
    body = ast_if(ctx, l, split_guard(ctx, l, k, n, shift), body, NULL);
    ast_stmt *inner = ast_for(ctx, l, i, ast_int(ctx, l, 0), inner_n, ast_int(ctx, l, 1), body);
    xf_name_loop(inner, inner_name);
    loop->label = NULL;
    loop->u.loop.iter = o;
    loop->u.loop.begin = ast_int(ctx, l, 0);
    loop->u.loop.end = outer_n;
    loop->u.loop.step = ast_int(ctx, l, 1);
    loop->u.loop.body = inner;
    xf_name_loop(loop, outer_name);
    return 0;
}
