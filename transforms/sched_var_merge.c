/* sched_var_merge.c - var_merge(t, dim): two dimensions of a local tensor
 * become one.
 *
 * Requires: f's AST.
 * Provides: dimensions dim and dim + 1 of local t, of sizes n and m, as one
 * of size n * m; every access t[.., a, b, ..] becomes t[.., a * m + b, ..].
 *
 * Always legal: a layout change, every access rewritten.  Parameters are
 * refused (their layout is the function's ABI).
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

int xf_var_merge(ft_ctx *ctx, ast_func *f, const char *var, int dim, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "var_merge", loc);
    if (!def)
        return 1;
    int nd = def->u.def.ndim;
    if (dim < 0 || dim + 1 >= nd) {
        ft_error(ctx, loc, "cannot var_merge '%s': it has %d dimension%s, so there are no "
                 "dimensions %d and %d to merge", var, nd, nd == 1 ? "" : "s", dim, dim + 1);
        return 1;
    }
    xf_layout_step(ctx, def, (ast_lstep){.kind = AST_LSTEP_MERGE, .dim = dim});
    ast_expr **shape = def->u.def.shape, *m = shape[dim + 1];
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);   /* var may be a label */
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        ast_expr **idx = *a->idx;
        idx[dim] = xf_add(ctx, xf_mul(ctx, idx[dim], ast_clone_expr(ctx, m)), idx[dim + 1]);
        for (int k = dim + 1; k + 1 < nd; k++)
            idx[k] = idx[k + 1];
        *a->n = nd - 1;
    }
    shape[dim] = xf_mul(ctx, shape[dim], m);
    for (int k = dim + 1; k + 1 < nd; k++)
        shape[k] = shape[k + 1];
    def->u.def.ndim = nd - 1;
    xf_sched_finish(ctx, f);
    return 0;
}
