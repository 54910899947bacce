/* sched_fission.c - fission(L, after=S): one loop into two.
 *
 * Requires: f's AST.
 * Provides: L over the statements of its body up to S (an item of L's
 * body), followed by a copy of L over the rest.
 *
 * Legality: running every instance of the first part before any of the
 * second keeps every dependence (xf_check_order).  A local defined in
 * L's body before S and used after it cannot be split (normal form puts
 * the statements after a VarDef inside it, so S is never past one).
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

/* The index of s among items, or -1. */
static int item_index(int n, ast_stmt **items, const ast_stmt *s)
{
    for (int i = 0; i < n; i++)
        if (items[i] == s)
            return i;
    return -1;
}

/* Check the split order; 1 when it would reverse a dependence. */
static int fission_illegal(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int n, ast_stmt **items,
                           int at, const char *what, ft_loc loc)
{
    int k = xf_loop_depth_of(ctx, f, loop);
    an_deps *d = an_func_deps(ctx, f);
    if (!d)
        return 1;
    int64_t c, hi;
    xf_time_range(d, loop, k + 1, 2 * k, &c, &hi);
    const char **out = ft_alloc(ctx, sizeof(char *) * (size_t)d->acc->sched_dims);
    out[2 * k] = ft_fmt(ctx, "%lld", (long long)c + 1);
    const char *tmap = xf_time_map(ctx, d->acc->sched_dims, out);
    xf_remap *maps = ft_alloc(ctx, sizeof(xf_remap) * (size_t)n);
    int m = 0;
    for (int i = at + 1; i < n; i++)
        maps[m++] = (xf_remap){items[i], k, tmap};
    int bad = xf_check_order(ctx, d, m, maps, what, loc);
    an_deps_free(d);
    return bad;
}

int xf_fission(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_stmt *after, const char *name1,
               const char *name2, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "fission %s after %s", xf_sched_name(ctx, loop),
                              xf_sched_name(ctx, after));
    ast_stmt **items;
    int n = xf_body_items(loop->u.loop.body, &items);
    int at = item_index(n, items, after);
    if (at < 0) {
        ft_error(ctx, loc, "cannot %s: %s is not a statement directly in the body of %s",
                 what, xf_sched_name(ctx, after), xf_sched_name(ctx, loop));
        return 1;
    }
    if (at == n - 1) {
        ft_error(ctx, loc, "cannot %s: nothing follows %s in the loop", what,
                 xf_sched_name(ctx, after));
        return 1;
    }
    if (fission_illegal(ctx, f, loop, n, items, at, what, loc))
        return 1;
    int i0;
    ast_stmt *parent = xf_parent_seq(ctx, f->body, loop, &i0);
    ast_stmt *second = ast_for(ctx, loop->loc, loop->u.loop.iter,
                               xf_clone_expr(ctx, loop->u.loop.begin),
                               xf_clone_expr(ctx, loop->u.loop.end),
                               xf_clone_expr(ctx, loop->u.loop.step),
                               ast_seq(ctx, loop->loc, n - at - 1, items + at + 1));
    second->u.loop.par = loop->u.loop.par;
    loop->u.loop.body = ast_seq(ctx, loop->loc, at + 1, items);
    ast_stmt *copy = ft_alloc(ctx, sizeof *copy);
    *copy = *loop;                            /* the first loop keeps L's ID */
    ast_stmt *pair[2] = {copy, second};
    ast_stmt *seq = ast_seq(ctx, loop->loc, 2, pair);
    if (parent)
        parent->u.seq.stmts[i0] = seq;
    else
        *loop = *seq;                          /* not in a sequence: replace in place */
    if (name1)
        copy->label = name1;
    if (name2)
        second->label = name2;
    xf_sched_finish(ctx, f);
    return 0;
}
