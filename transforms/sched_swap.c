/* sched_swap.c - swap(S1, S2, ...): reorder neighbouring statements.
 *
 * Requires: f's AST.
 * Provides: the statements listed, which must be the consecutive items of
 * one sequence (in any order), placed in the order given.
 *
 * Legality: each statement's instances move to its new place among the
 * others (their sequence time coordinates are shifted as blocks), and the
 * new order must keep every dependence (xf_check_order).
 */
#include "schedule.h"

#include "sched_util.h"

/* Whether the listed statements are items start..start+n-1 of one
 * sequence; reports if not. */
static ast_stmt *find_block(ft_ctx *ctx, ast_func *f, int n, ast_stmt **stmts, int *start,
                            const char *what, ft_loc loc)
{
    int lo = -1, hi = -1;
    ast_stmt *parent = NULL;
    for (int i = 0; i < n; i++) {
        int at = -1;
        ast_stmt *p = xf_parent_seq(ctx, f->body, stmts[i], &at);
        if (!p || (parent && p != parent)) {
            ft_error(ctx, loc, "cannot %s: they are not statements of one sequence", what);
            return NULL;
        }
        for (int j = 0; j < i; j++)
            if (stmts[j] == stmts[i]) {
                ft_error(ctx, loc, "cannot %s: %s is listed twice", what,
                         xf_sched_name(ctx, stmts[i]));
                return NULL;
            }
        parent = p;
        lo = lo < 0 || at < lo ? at : lo;
        hi = at > hi ? at : hi;
    }
    if (hi - lo + 1 != n) {
        ft_error(ctx, loc, "cannot %s: they are not neighbours (list every statement "
                 "between them)", what);
        return NULL;
    }
    *start = lo;
    return parent;
}

/* The new order of the block keeps every dependence (sched_util.h). */
int xf_check_permutation(ft_ctx *ctx, ast_func *f, ast_stmt *parent, int start, int n,
                         ast_stmt **order, const char *what, ft_loc loc)
{
    int k = xf_loop_depth_of(ctx, f, parent);
    an_deps *d = an_items_deps(ctx, f, parent, start, start + n - 1);   /* only they move */
    if (!d)
        return 1;
    int64_t base = -1;
    xf_remap *maps = ft_alloc(ctx, sizeof(xf_remap) * (size_t)n);
    int64_t *lo = ft_alloc(ctx, sizeof(int64_t) * (size_t)n), *hi = ft_alloc(ctx, sizeof(int64_t) * (size_t)n);
    int *has = ft_alloc(ctx, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        ast_stmt *s = parent->u.seq.stmts[start + i];
        has[i] = xf_time_range(d, s, k, 2 * k, &lo[i], &hi[i]);
        if (has[i] && (base < 0 || lo[i] < base))
            base = lo[i];
    }
    int m = 0;
    int64_t next = base;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (parent->u.seq.stmts[start + j] != order[i])
            j++;
        if (!has[j])
            continue;
        const char **out = ft_alloc(ctx, sizeof(char *) * (size_t)d->acc->sched_dims);
        out[2 * k] = ft_fmt(ctx, "t%d + %lld", 2 * k, (long long)(next - lo[j]));
        maps[m++] = (xf_remap){order[i], k - 1, xf_time_map(ctx, d->acc->sched_dims, out)};
        next += hi[j] - lo[j] + 1;
    }
    int bad = xf_check_order(ctx, d, m, maps, what, loc);
    an_deps_free(d);
    return bad;
}

int xf_swap(ft_ctx *ctx, ast_func *f, int n, ast_stmt **order, ft_loc loc)
{
    const char *what = "swap";
    for (int i = 0; i < n; i++)
        what = ft_fmt(ctx, "%s%s%s", what, i ? ", " : " ", xf_sched_name(ctx, order[i]));
    for (int i = 0; i < n; i++)
        if (xf_sched_pinned(ctx, order[i], what, loc))
            return 1;
    int start;
    ast_stmt *parent = find_block(ctx, f, n, order, &start, what, loc);
    if (!parent || xf_check_permutation(ctx, f, parent, start, n, order, what, loc))
        return 1;
    for (int i = 0; i < n; i++)
        parent->u.seq.stmts[start + i] = order[i];
    xf_sched_finish(ctx, f);
    return 0;
}
