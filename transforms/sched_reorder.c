/* sched_reorder.c - reorder(L1, L2, ...): permute a perfect loop nest.
 *
 * Requires: f's AST.
 * Provides: the loops listed, which must form a perfect nest (each one's
 * body is only the next), nested in the order given, outermost first.
 *
 * Legality: the inner loops' bounds must not use the outer iterators of
 * the nest, and running the instances of the innermost body with their
 * iterator time coordinates permuted must keep every dependence
 * (xf_check_order), e.g. FreeTensor Fig. 12(b) is refused.
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "xf_util.h"

/* "Li and Lj", "Li, Lj and Lk". */
static const char *loop_list(ft_ctx *ctx, int n, ast_stmt **loops)
{
    const char *s = xf_sched_name(ctx, loops[0]);
    for (int i = 1; i < n; i++)
        s = ft_fmt(ctx, "%s%s%s", s, i == n - 1 ? " and " : ", ", xf_sched_name(ctx, loops[i]));
    return s;
}

static int index_of(int n, ast_stmt **loops, const ast_stmt *s)
{
    for (int i = 0; i < n; i++)
        if (loops[i] == s)
            return i;
    return -1;
}

/* Fill chain with the nest, outermost first; 0 after an error. */
static int find_nest(ft_ctx *ctx, ast_func *f, int n, ast_stmt **order, ast_stmt **chain,
                     const char *what, ft_loc loc)
{
    ast_stmt *top = NULL;
    for (int i = 0; i < n && !top; i++) {
        ft_vec anc = {0};
        xf_ancestors(ctx, f->body, order[i], &anc);
        int inner = 0;
        for (int k = 0; k < anc.len; k++)
            inner |= index_of(n, order, anc.items[k]) >= 0;
        if (!inner)
            top = order[i];
    }
    chain[0] = top;
    for (int p = 1; p < n; p++) {
        ast_stmt **items;
        int m = xf_body_items(&chain[p - 1]->u.loop.body, &items);
        if (m != 1 || items[0]->kind != AST_FOR || index_of(n, order, items[0]) < 0) {
            ft_error(ctx, loc, "cannot %s: they are not a perfect nest (the body of %s is "
                     "not only one of the other loops)", what, xf_sched_name(ctx, chain[p - 1]));
            return 0;
        }
        chain[p] = items[0];
    }
    return 1;
}

/* Whether the bounds of chain[p] use an iterator of chain[0..p-1]; reports. */
static int not_rectangular(ft_ctx *ctx, int n, ast_stmt **chain, const char *what, ft_loc loc)
{
    for (int p = 1; p < n; p++)
        for (int q = 0; q < p; q++) {
            const char *it = chain[q]->u.loop.iter;
            const ast_stmt *l = chain[p];
            if (xf_expr_uses_var(l->u.loop.begin, it) || xf_expr_uses_var(l->u.loop.end, it) ||
                xf_expr_uses_var(l->u.loop.step, it)) {
                ft_error(ctx, loc, "cannot %s: the range of %s depends on '%s'", what,
                         xf_sched_name(ctx, l), it);
                return 1;
            }
        }
    return 0;
}

/* Whether the new order (outermost first) puts a parallel loop (openmp,
 * blocks, threads) inside a vectorized one, which C cannot express (no
 * `omp parallel` inside `omp simd`); reports. */
static int parallel_in_simd(ft_ctx *ctx, int n, ast_stmt **order, const char *what, ft_loc loc)
{
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n && order[p]->u.loop.par == AST_VECTORIZE; q++)
            if (order[q]->u.loop.par != AST_SERIAL && order[q]->u.loop.par != AST_VECTORIZE) {
                ft_error(ctx, loc, "cannot %s: the parallel loop %s would be inside the "
                         "vectorized loop %s", what, xf_sched_name(ctx, order[q]),
                         xf_sched_name(ctx, order[p]));
                return 1;
            }
    return 0;
}

int xf_reorder(ft_ctx *ctx, ast_func *f, int n, ast_stmt **order, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "reorder %s", loop_list(ctx, n, order));
    for (int i = 0; i < n; i++)
        if (xf_sched_pinned(ctx, order[i], what, loc))
            return 1;
    for (int i = 0; i < n; i++)
        if (index_of(i, order, order[i]) >= 0) {
            ft_error(ctx, loc, "cannot %s: %s is listed twice", what, xf_sched_name(ctx, order[i]));
            return 1;
        }
    ast_stmt **chain = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)n);
    if (!find_nest(ctx, f, n, order, chain, what, loc) || not_rectangular(ctx, n, chain, what, loc))
        return 1;
    if (parallel_in_simd(ctx, n, order, what, loc))
        return 1;
    int k0 = xf_loop_depth_of(ctx, f, chain[0]);
    an_deps *d = an_region_deps(ctx, f, chain[0]);   /* only its instances move */
    if (!d)
        return 1;
    const char **out = ft_alloc(ctx, sizeof(char *) * (size_t)d->acc->sched_dims);
    for (int p = 0; p < n; p++)
        out[2 * (k0 + p) + 1] = ft_fmt(ctx, "t%d", 2 * (k0 + index_of(n, chain, order[p])) + 1);
    xf_remap m = {chain[n - 1], k0 + n - 1, xf_time_map(ctx, d->acc->sched_dims, out)};
    int bad = xf_check_order(ctx, d, 1, &m, what, loc);
    an_deps_free(d);
    if (bad)
        return 1;
    ast_stmt *hdr = ft_alloc(ctx, sizeof(ast_stmt) * (size_t)n);
    for (int p = 0; p < n; p++)
        hdr[p] = *chain[p];
    for (int p = 0; p < n; p++) {
        ast_stmt *h = &hdr[index_of(n, chain, order[p])];
        ast_stmt *body = chain[p]->u.loop.body;
        *chain[p] = *h;
        chain[p]->u.loop.body = body;
    }
    xf_sched_finish(ctx, f);
    return 0;
}
