/* sched_inline.c - inline(t): recompute a local at its uses.
 *
 * Requires: f's AST.
 * Provides: every read t[e...] of local t replaced by the value of its one
 * definition with the definition's iterators replaced by e...; the
 * definition and t's VarDef removed.
 *
 * Legality: t has a single definition (xf_find_def: one Store covering
 * every element before any read), whose value has no data-dependent index
 * (a checked access, which would move an FT_ERR_INDEX), reads no tensor
 * declared inside the definition's loops and no iterator that a loop
 * around a read rebinds (xf_def_value_movable), and reads no tensor that is
 * written from the definition up to the last read of t (the statement
 * holding the last read may write it when it is one Store or Reduce: its
 * value is read before the write).  Parameters are refused.
 */
#include "schedule.h"

#include <string.h>

#include "cleanup.h"
#include "sched_util.h"
#include "xf_util.h"

/* The first item of items[from..to] writing a tensor of R (a Store or
 * Reduce `last` item excepted), or NULL. */
static ast_stmt *writer_between(ft_vec *items, int from, int to, const ft_vec *R)
{
    for (int i = from; i <= to; i++) {
        ast_stmt *it = items->items[i];
        int single = it->kind == AST_STORE || it->kind == AST_REDUCE;
        if (xf_item_writes_any(it, R) && !(i == to && i > from && single))
            return it;
    }
    return NULL;
}

/* The index of the last item after top that reads t (-1: none). */
static int last_read(ft_vec *items, int top, const char *t)
{
    int last = -1;
    for (int i = top + 1; i < items->len; i++) {
        ast_stmt *it = items->items[i];
        if (it->kind != AST_VARDEF && xf_reads(it, t))
            last = i;
    }
    return last;
}

static ast_expr *value_at(ft_ctx *ctx, ast_expr *load, void *data)
{
    return xf_def_value_at(ctx, data, load);
}

/* Why d's value cannot be recomputed at the reads, or NULL. */
static const char *why_not(ft_ctx *ctx, const xf_def *d, ft_vec *items)
{
    const char *t = d->vardef->u.def.name;
    const ast_expr *v = d->store->u.store.value;
    if (xf_expr_checked(v))
        return "its value has an index that depends on loaded data (checked at run time)";
    if (!xf_def_value_movable(ctx, d, items))
        return "its value reads a tensor declared inside its definition's loops or an "
               "iterator that a loop around a read rebinds";
    ft_vec R = {0};
    xf_expr_loaded(ctx, v, &R);
    int last = last_read(items, d->top, t);
    for (int i = 0; i < R.len && last >= 0; i++) {
        ft_vec one = {0};
        ft_vec_push(ctx, &one, R.items[i]);
        ast_stmt *w = writer_between(items, d->top, last, &one);
        if (w)
            return ft_fmt(ctx, "its value reads '%s', which %s writes before the last read "
                          "of '%s'", (const char *)R.items[i], xf_sched_name(ctx, w), t);
    }
    return NULL;
}

int xf_inline(ft_ctx *ctx, ast_func *f, const char *var, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "inline", loc);
    if (!def)
        return 1;
    ft_vec items = {0};
    xf_scope_list(ctx, def->u.def.body, &items);
    xf_def d;
    if (!xf_find_def(ctx, def, &items, &d)) {
        ft_error(ctx, loc, "cannot inline '%s': it is not written once by a single Store "
                 "covering every element before it is read", var);
        return 1;
    }
    const char *why = why_not(ctx, &d, &items);
    if (why) {
        ft_error(ctx, loc, "cannot inline '%s': %s", var, why);
        return 1;
    }
    xf_replace_loads(ctx, def->u.def.body, def->u.def.name, value_at, &d);   /* var may be a label */
    xf_make_empty(d.store);
    d.store->label = NULL;
    ast_stmt *body = def->u.def.body;
    *def = *body;
    xf_sched_finish(ctx, f);
    ast_program one = {.nfuncs = 1, .funcs = &f};
    xf_remove_dead(ctx, &one);            /* the definition's empty loops */
    return 0;
}
