/* sched_set_mtype.c - set_mtype(var, mtype): where a local tensor lives.
 *
 * Requires: f's AST.
 * Provides: the VarDef of the local var (named by its tensor name, which
 * must be declared once in f, or by its label) with memory type mtype.
 *
 * Always legal where built: only `cpu` is, on the C target (the gpu kinds
 * are "not supported yet" errors).  A parameter is refused: its memory type
 * is part of the function's ABI.
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "visit.h"

/* The VarDefs of f declaring or labelled name. */
typedef struct def_find {
    ast_visitor v;
    const char *name;
    ast_stmt *by_label, *by_name;
    int n_name;
} def_find;

static int def_find_cb(ast_visitor *v, ast_stmt *s)
{
    def_find *st = (def_find *)v;
    if (s->kind != AST_VARDEF)
        return 1;
    if (s->label && strcmp(s->label, st->name) == 0)
        st->by_label = s;
    if (strcmp(s->u.def.name, st->name) == 0) {
        st->by_name = s;
        st->n_name++;
    }
    return 1;
}

ast_stmt *xf_find_local(ft_ctx *ctx, ast_func *f, const char *name, const char *prim, ft_loc loc)
{
    for (int i = 0; i < f->nparams; i++)
        if (strcmp(f->params[i].name, name) == 0) {
            ft_error(ctx, loc, "cannot %s '%s': it is a parameter of '%s', whose layout and "
                     "memory type are the function's ABI", prim, name, f->name);
            return NULL;
        }
    def_find st = {.v.stmt = def_find_cb, .name = name};
    ast_visit(f->body, &st.v);
    if (st.by_label)
        return st.by_label;
    if (st.n_name == 1)
        return st.by_name;
    if (st.n_name > 1)
        ft_error(ctx, loc, "cannot %s '%s': %d locals of '%s' have that name; label the one "
                 "you mean (`L: var %s ...`)", prim, name, st.n_name, f->name, name);
    else
        ft_error(ctx, loc, "cannot %s '%s': '%s' has no local tensor of that name", prim, name,
                 f->name);
    return NULL;
}

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
