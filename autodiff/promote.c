/* promote.c - --promote-f64: the same program computing in f64.
 *
 * `ftc gradcheck` compares gradients with finite differences, which need
 * f64 to be accurate: every f32 parameter, local and value becomes f64
 * (f16 too).  Requires: the lowered AST.  Leaves: no f32 left.
 */
#include "ad.h"

#include "../ast/visit.h"

/* f64 for the float dtypes narrower than it. */
static ft_dtype widen(ft_dtype t)
{
    return t == FT_F32 || t == FT_F16 ? FT_F64 : t;
}

/* Widen an expression node. */
static void widen_expr(ast_visitor *v, ast_expr *e)
{
    e->dtype = widen(e->dtype);
}

/* Widen a VarDef's dtype. */
static int widen_stmt(ast_visitor *v, ast_stmt *s)
{
    if (s->kind == AST_VARDEF)
        s->u.def.dtype = widen(s->u.def.dtype);
    return 1;
}

void ad_promote_f64(ft_ctx *ctx, ast_program *p)
{
    ast_visitor v = {.stmt = widen_stmt, .expr = widen_expr};
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        for (int k = 0; k < f->nparams; k++)
            f->params[k].dtype = widen(f->params[k].dtype);
        ast_visit(f->body, &v);
    }
}
