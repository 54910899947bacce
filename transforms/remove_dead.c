/* remove_dead.c - xf_remove_dead: drop what computes nothing that is read.
 *
 * Requires: a lowered program (any of the cleanup passes may run before).
 * Provides: no store to a local that is never read afterwards, no
 * declaration of an unused local, no empty loop or branch; the normal form
 * of xf_normalize.
 *
 * Removed:
 *   - every write of a local that is never read (then its VarDef);
 *   - writes of a local after its last read (statements of its scope list
 *     that come after every statement reading it);
 *   - a plain store to an element that the next store of the scope list
 *     overwrites before any read (`s = 0.0` then `s = x[i]`);
 *   - loops with an empty body, branches whose two sides are empty.
 * Refused (kept): labelled statements and the loops and locals a schedule
 * names (xf_kept; a kept local keeps all its writes), and writes,
 * loops and branches that may end the function with an error (an index
 * that depends on loaded data is checked at run time).
 */
#include "cleanup.h"

#include <string.h>

#include "xf_util.h"

/* Whether the write w (a Store or Reduce) may be dropped. */
static int removable_write(const ast_stmt *w)
{
    return !w->label && !xf_stmt_checked(w);
}

/* Drop the removable writes of var under s (counting them in *changed);
 * returns how many writes stay. */
static int drop_writes(ft_ctx *ctx, ast_stmt *s, const char *var, int *changed)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, var, &acc);
    int kept = 0;
    for (int i = 0; i < acc.len; i++) {
        ast_stmt *w = ((xf_access *)acc.items[i])->stmt;
        if (!w)
            continue;
        if (removable_write(w)) {
            xf_make_empty(w);
            (*changed)++;
        } else
            kept++;
    }
    return kept;
}

/* The writes of var after the last item of items reading it. */
static void drop_trailing_writes(ft_ctx *ctx, ft_vec *items, const char *var,
                                 int *changed)
{
    int last = -1;
    for (int i = 0; i < items->len; i++)
        if (((ast_stmt *)items->items[i])->kind != AST_VARDEF &&
            xf_reads(items->items[i], var))
            last = i;
    for (int i = last + 1; i < items->len; i++)
        if (((ast_stmt *)items->items[i])->kind != AST_VARDEF)
            drop_writes(ctx, items->items[i], var, changed);
}

/* Whether two stores write the same element, fixed for the whole scope
 * list (indices of literals and of names bound outside it). */
static int same_element(const ast_stmt *a, const ast_stmt *b)
{
    if (a->u.store.n != b->u.store.n)
        return 0;
    for (int k = 0; k < a->u.store.n; k++)
        if (xf_expr_has_load(a->u.store.idx[k]) ||
            !ast_expr_equal(a->u.store.idx[k], b->u.store.idx[k]))
            return 0;
    return 1;
}

/* Plain stores of var that a later plain store of the same element
 * overwrites before anything reads var. */
static void drop_overwritten(ft_vec *items, const char *var, int *changed)
{
    for (int i = 0; i < items->len; i++) {
        ast_stmt *a = items->items[i];
        if (a->kind != AST_STORE || strcmp(a->u.store.var, var) || !removable_write(a))
            continue;
        for (int k = i + 1; k < items->len; k++) {
            ast_stmt *b = items->items[k];
            if (b->kind == AST_STORE && !strcmp(b->u.store.var, var) &&
                !xf_expr_reads(b->u.store.value, var) && same_element(a, b)) {
                xf_make_empty(a);
                (*changed)++;
                break;
            }
            if (b->kind != AST_VARDEF && xf_accesses(b, var))
                break;
        }
    }
}

/* A VarDef: drop dead writes of its local, and the declaration itself when
 * nothing accesses the local any more.  Returns the statement to keep. */
static ast_stmt *dead_vardef(ft_ctx *ctx, ast_stmt *s, int *changed)
{
    const char *t = s->u.def.name;
    if (xf_kept(s))
        return s;
    if (!xf_reads(s->u.def.body, t)) {
        if (drop_writes(ctx, s->u.def.body, t, changed) == 0) {
            (*changed)++;
            return s->u.def.body;
        }
        return s;
    }
    ft_vec items = {0};
    xf_scope_list(ctx, s->u.def.body, &items);
    drop_trailing_writes(ctx, &items, t, changed);
    drop_overwritten(&items, t, changed);
    return s;
}

/* Remove dead code under s, inner statements first. */
static ast_stmt *dead_stmt(ft_ctx *ctx, ast_stmt *s, int *changed)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            s->u.seq.stmts[i] = dead_stmt(ctx, s->u.seq.stmts[i], changed);
        return s;
    case AST_VARDEF:
        s->u.def.body = dead_stmt(ctx, s->u.def.body, changed);
        return dead_vardef(ctx, s, changed);
    case AST_FOR: {
        s->u.loop.body = xf_normalize(ctx, dead_stmt(ctx, s->u.loop.body, changed));
        const ast_stmt *l = s;
        if (xf_is_empty(l->u.loop.body) && !xf_kept(s) &&
            !xf_expr_checked(l->u.loop.begin) && !xf_expr_checked(l->u.loop.end) &&
            !xf_expr_checked(l->u.loop.step)) {
            xf_make_empty(s);
            (*changed)++;
        }
        return s;
    }
    case AST_IF: {
        ast_stmt *then = xf_normalize(ctx, dead_stmt(ctx, s->u.branch.then, changed));
        ast_stmt *other = xf_normalize(ctx, dead_stmt(ctx, s->u.branch.other, changed));
        s->u.branch.then = then;
        s->u.branch.other = xf_is_empty(other) ? NULL : other;
        if (xf_is_empty(then) && !other && !s->label &&
            !xf_expr_checked(s->u.branch.cond)) {
            xf_make_empty(s);
            (*changed)++;
        } else if (xf_is_empty(then) && other && s->u.branch.cond->dtype == FT_BOOL) {
            (*changed)++;
            s->u.branch.cond = ast_unary(ctx, s->loc, AST_NOT, s->u.branch.cond);
            s->u.branch.then = other;
            s->u.branch.other = NULL;
        }
        return s;
    }
    default: return s;
    }
}

void xf_remove_dead(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "remove_dead")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        /* removing one local may leave another unread: repeat (bounded) */
        for (int round = 0; round < 8; round++) {
            int changed = 0;
            f->body = xf_normalize(ctx, dead_stmt(ctx, f->body, &changed));
            if (!changed)
                break;
        }
    }
}
