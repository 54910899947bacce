/* sched_var_reorder.c - var_reorder(t, [d0, d1, ...]): permute the
 * dimensions of a local tensor.
 *
 * Requires: f's AST.
 * Provides: local t with dimension k of the new layout being dimension
 * order[k] of the old one; every access's indices permuted alike.
 *
 * Always legal: a layout change, every access rewritten.  Parameters are
 * refused (their layout is the function's ABI).
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

/* Whether order is a permutation of 0..n-1. */
static int is_permutation(int n, const int *order)
{
    for (int k = 0; k < n; k++) {
        if (order[k] < 0 || order[k] >= n)
            return 0;
        for (int j = 0; j < k; j++)
            if (order[j] == order[k])
                return 0;
    }
    return 1;
}

/* es permuted: out[k] = es[order[k]]. */
static ast_expr **permuted(ft_ctx *ctx, int n, ast_expr **es, const int *order)
{
    ast_expr **out = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        out[k] = es[order[k]];
    return out;
}

int xf_var_reorder(ft_ctx *ctx, ast_func *f, const char *var, int n, const int *order,
                   ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "var_reorder", loc);
    if (!def)
        return 1;
    int nd = def->u.def.ndim;
    if (n != nd || !is_permutation(n, order)) {
        ft_error(ctx, loc, "cannot var_reorder '%s': the order must list each of its %d "
                 "dimensions once (e.g. [1, 0])", var, nd);
        return 1;
    }
    xf_layout_step(ctx, def, (ast_lstep){.kind = AST_LSTEP_REORDER, .n = n, .perm = order});
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);   /* var may be a label */
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        *a->idx = permuted(ctx, nd, *a->idx, order);
    }
    def->u.def.shape = permuted(ctx, nd, def->u.def.shape, order);
    xf_sched_finish(ctx, f);
    return 0;
}
