/* sched_var_split.c - var_split(t, dim, factor) / var_split(t, dim,
 * nparts=P): one dimension of a local tensor becomes two.
 *
 * Requires: f's AST.
 * Provides: dimension dim of local t, of size n, as [ceil(n / F), F]
 * (by nparts, F = ceil(n / P)); every access t[.., e, ..] becomes
 * t[.., e // F, e % F, ..].  The new shape may hold a few padding
 * elements that nothing accesses.
 *
 * Always legal: a layout change, every access rewritten.  Parameters are
 * refused (their layout is the function's ABI).
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

int xf_var_split(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t factor,
                 int64_t nparts, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "var_split", loc);
    if (!def)
        return 1;
    int nd = def->u.def.ndim;
    if (dim < 0 || dim >= nd) {
        ft_error(ctx, loc, "cannot var_split '%s': it has %d dimension%s, not a dimension %d",
                 var, nd, nd == 1 ? "" : "s", dim);
        return 1;
    }
    xf_layout_step(ctx, def, (ast_lstep){.kind = AST_LSTEP_SPLIT, .dim = dim, .a = factor,
                                         .b = nparts});
    ast_expr *n = def->u.def.shape[dim];
    ft_loc l = n->loc;
    ast_expr *fac = factor > 0 ? ast_int(ctx, l, factor) : xf_ceildiv(ctx, ast_clone_expr(ctx, n), nparts);
    ast_expr **shape = xf_index_pair(ctx, nd, def->u.def.shape, dim,
                                     factor > 0 ? xf_ceildiv(ctx, ast_clone_expr(ctx, n), factor)
                                                : ast_int(ctx, l, nparts),
                                     ast_clone_expr(ctx, fac));
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);   /* var may be a label */
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        ast_expr *e = (*a->idx)[dim];
        *a->idx = xf_index_pair(ctx, nd, *a->idx, dim,
                                ast_binary(ctx, e->loc, AST_FLOORDIV, e, ast_clone_expr(ctx, fac)),
                                ast_binary(ctx, e->loc, AST_MOD, ast_clone_expr(ctx, e),
                                           ast_clone_expr(ctx, fac)));
        *a->n = nd + 1;
    }
    def->u.def.shape = shape;
    def->u.def.ndim = nd + 1;
    xf_sched_finish(ctx, f);
    return 0;
}
