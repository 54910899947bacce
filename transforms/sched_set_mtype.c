/* sched_set_mtype.c - set_mtype(var, mtype): where a local tensor lives.
 *
 * Requires: f's AST.
 * Provides: the VarDef of the local var (xf_find_local: its label, or a
 * name one local of f has) with memory type mtype.
 *
 * Always legal where built: only `cpu` is, on the C target (the gpu kinds
 * are "not supported yet" errors).  A parameter is refused: its memory type
 * is part of the function's ABI.
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "visit.h"

int xf_set_mtype(ft_ctx *ctx, ast_func *f, const char *var, ft_mtype mt, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "set_mtype of", loc);
    if (!def)
        return 1;
    if (mt != FT_MT_CPU) {
        ft_unsupported(ctx, loc, ft_fmt(ctx, "set_mtype to %s on the C target", ft_mtype_name(mt)));
        return 1;
    }
    def->u.def.mtype = mt;
    return 0;
}
