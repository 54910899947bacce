/* remove_copies.c - xf_remove_copies: read the source instead of a copy.
 *
 * Requires: a lowered program.
 * Provides: copies replaced by their sources; the copied locals are left
 * declared but unaccessed (xf_remove_dead drops them); the normal form of
 * xf_normalize.
 *
 * A local t qualifies when its single definition (xf_find_def) is a plain
 * copy `t[i, j, ...] = a[f(i, j), g(...), ...]` of another tensor a of the
 * same dtype, and
 *   - a is not written from the copy to the end of t's scope (so every
 *     read of t sees what a holds at that time),
 *   - the indices f, g, ... do not depend on loaded data (a gather's index
 *     is checked at run time; reading it only where t is read would lose
 *     the error for elements never read),
 *   - a is not declared inside the copy's loops and no loop around a read
 *     rebinds a name the indices use.
 * Every read t[e, ...] becomes a[f(e, ...), ...], however many reads there
 * are and wherever they are; the copy's Store becomes empty.  Labelled
 * copies are left alone, and so is a copy that reorders (a transposition,
 * a layout conversion: xf_def_reorders), is read repeatedly (inside a loop
 * its indices ignore) and would leave a read without a loop along which
 * its statement walks cleanly (xf_def_forward_strides): its source would
 * be read again and again across its rows where t is read along them
 * (bench/layout's W4 spent 0.8 ms where the copy once and contiguous
 * reads take 0.4).
 */
#include "cleanup.h"

#include <string.h>

#include "xf_util.h"

/* Whether the single definition d is a copy we may forward. */
static int is_removable_copy(const xf_def *d, ft_vec *items)
{
    const ast_stmt *def = d->vardef;
    const ast_expr *v = d->store->u.store.value;
    if (d->store->label || xf_kept(def) || v->kind != AST_LOAD || v->dtype != def->u.def.dtype ||
        strcmp(v->u.load.var, def->u.def.name) == 0)
        return 0;
    for (int k = 0; k < v->u.load.n; k++)
        if (xf_expr_has_load(v->u.load.idx[k]))
            return 0;
    for (int i = d->top; i < items->len; i++)
        if (xf_item_accesses(items->items[i], v->u.load.var) &&
            xf_writes(items->items[i], v->u.load.var))
            return 0;
    return 1;
}

static ast_expr *source_at(ft_ctx *ctx, ast_expr *load, void *data)
{
    return xf_def_value_at(ctx, data, load);
}

/* Forward the copy held by vardef when it qualifies; returns 1 if it did. */
static int remove_copy(ft_ctx *ctx, ast_func *f, ast_stmt *vardef)
{
    ft_vec items = {0};
    xf_scope_list(ctx, vardef->u.def.body, &items);
    xf_def d;
    if (!xf_find_def(ctx, vardef, &items, &d) || !is_removable_copy(&d, &items) ||
        !xf_def_value_movable(ctx, &d, &items) ||
        (xf_def_reorders(&d) && xf_def_reads_repeat(&d, &items) &&
         xf_def_forward_strides(ctx, f, &d, &items)))
        return 0;
    xf_replace_loads(ctx, vardef->u.def.body, vardef->u.def.name, source_at, &d);
    xf_make_empty(d.store);
    return 1;
}

void xf_remove_copies(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "remove_copies")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        for (int round = 0; round < 8; round++) {
            ft_vec defs = {0};
            xf_collect_vardefs(ctx, f->body, &defs);
            int changed = 0;
            for (int k = 0; k < defs.len; k++)
                changed += remove_copy(ctx, f, defs.items[k]);
            f->body = xf_normalize(ctx, f->body);
            if (!changed)
                break;
        }
    }
}
