/* sched_var_attach.c - var_attach(t, u, dim): local tensor t stored inside
 * local u, after u's elements in dimension dim (ALT's store_at: a conv's
 * bias kept in the rows of its packed weights, one stream instead of two).
 *
 * Requires: f's AST.
 * Provides: u's dimension dim, of size m, grows by t's size there (by 1
 * when t has no such dimension: t's shape is u's without dim); every
 * access t[.., i, ..] becomes u[.., m + i, ..] (t[a..] becomes u[.., m,
 * ..] in the second case), and t's declaration goes (its body stays).
 *
 * Always legal otherwise: t's elements get places no access of u reaches
 * (u's own indices stay below m), and t lived inside u's scope, so the
 * storage outlives every access.
 * Refused (the program unchanged): t or u a parameter, t == u, other
 * dtypes or memory types, t not declared inside u's scope or declared
 * under a loop inside it (one t per iteration: a parallel loop's private
 * copies would become one shared array), shapes that differ outside dim
 * (or are not proven equal), and a size of t in dim that reads data.
 */
#include "schedule.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "sched_util.h"
#include "xf_util.h"

/* The index of u's VarDef among t's ancestors anc (-1 when t is not in u's
 * scope). */
static int host_at(const ft_vec *anc, const ast_stmt *udef)
{
    for (int i = 0; i < anc->len; i++)
        if (anc->items[i] == udef)
            return i;
    return -1;
}

/* Whether sizes x and y are equal where b holds: equal expressions,
 * or proven equal. */
static int same_size(ft_ctx *ctx, an_bounds *b, ast_expr *x, ast_expr *y)
{
    return ast_expr_equal(x, y) || an_bounds_prove(b, ast_binary(ctx, x->loc, AST_EQ, x, y));
}

/* Why t cannot live in u along dim, or NULL; *lacks: t has that
 * dimension (0) or not (1: t's shape is u's without it). */
static const char *fit(ft_ctx *ctx, ast_func *f, ast_stmt *tdef, const ast_stmt *udef,
                       int dim, int *lacks)
{
    int tn = tdef->u.def.ndim, un = udef->u.def.ndim;
    if (tdef->u.def.dtype != udef->u.def.dtype)
        return "their element types differ";
    if (tdef->u.def.mtype != udef->u.def.mtype)
        return "their memory types differ";
    *lacks = tn == un - 1;
    if (tn != un && !*lacks)
        return "their ranks differ by more than the dimension";
    an_bounds *b = an_bounds_new(ctx, f);
    xf_bounds_around(ctx, f, tdef, b, NULL);
    for (int k = 0, j = 0; k < un; k++) {
        if (k == dim) {
            if (!*lacks && xf_expr_has_load(tdef->u.def.shape[j++]))
                return "the attached tensor's size in the dimension reads data";
            continue;
        }
        if (!same_size(ctx, b, tdef->u.def.shape[j++], udef->u.def.shape[k]))
            return "their shapes differ outside the dimension (or are not proven equal)";
    }
    return NULL;
}

int xf_var_attach(ft_ctx *ctx, ast_func *f, const char *t, const char *u, int dim, ft_loc loc)
{
    ast_stmt *tdef = xf_find_local(ctx, f, t, "var_attach", loc);
    ast_stmt *udef = tdef ? xf_find_local(ctx, f, u, "var_attach", loc) : NULL;
    if (!udef)
        return 1;
    const char *why = NULL;
    int un = udef->u.def.ndim, lacks = 0;
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, tdef, &anc);
    int at = host_at(&anc, udef);
    if (tdef == udef)
        why = "a tensor cannot hold itself";
    else if (dim < 0 || dim >= un)
        why = ft_fmt(ctx, "'%s' has %d dimension%s, not a dimension %d", u, un,
                     un == 1 ? "" : "s", dim);
    else if (at < 0)
        why = ft_fmt(ctx, "'%s' is not declared inside the scope of '%s'", t, u);
    for (int i = at + 1; !why && i < anc.len; i++)
        if (((ast_stmt *)anc.items[i])->kind == AST_FOR)
            why = ft_fmt(ctx, "'%s' is declared under a loop inside the scope of '%s' (one "
                         "copy per iteration)", t, u);
    if (!why)
        why = fit(ctx, f, tdef, udef, dim, &lacks);
    if (why) {
        ft_error(ctx, loc, "cannot var_attach '%s' to '%s': %s", t, u, why);
        return 1;
    }
    ast_expr *m = udef->u.def.shape[dim];
    xf_layout_step(ctx, udef, (ast_lstep){.kind = AST_LSTEP_ATTACH, .dim = dim,
                                          .a = m->kind == AST_INT ? m->u.ival : -1});
    ft_vec acc = {0};
    xf_collect_accesses(ctx, tdef->u.def.body, tdef->u.def.name, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        ast_expr **idx = ft_alloc(ctx, sizeof *idx * (size_t)un);
        for (int k = 0, j = 0; k < un; k++)
            idx[k] = k != dim ? (*a->idx)[j++]
                   : lacks    ? ast_clone_expr(ctx, m)
                              : xf_add(ctx, ast_clone_expr(ctx, m), (*a->idx)[j++]);
        *a->idx = idx;
        *a->n = un;
    }
    xf_rename_tensor(ctx, tdef->u.def.body, tdef->u.def.name, udef->u.def.name);
    ast_expr *grow = lacks ? ast_int(ctx, loc, 1) : ast_clone_expr(ctx, tdef->u.def.shape[dim]);
    ast_expr **shape = ft_alloc(ctx, sizeof *shape * (size_t)un);
    memcpy(shape, udef->u.def.shape, sizeof *shape * (size_t)un);
    shape[dim] = xf_add(ctx, ast_clone_expr(ctx, m), grow);
    udef->u.def.shape = shape;
    *tdef = *tdef->u.def.body;
    xf_sched_finish(ctx, f);
    return 0;
}
