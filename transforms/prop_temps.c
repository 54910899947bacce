/* prop_temps.c - xf_propagate_temps: substitute single-use temporaries.
 *
 * Requires: a lowered program.
 * Provides: locals whose only write was a propagated Store are left
 * declared but unaccessed (xf_remove_dead then drops their VarDef); the
 * normal form of xf_normalize.
 *
 * A local t qualifies when its single definition (xf_find_def: one Store
 * `t[i...] = v` covering every element before any read) has a value v that
 *   - has no index depending on loaded data (those are checked at run time:
 *     moving them would move or lose an FT_ERR_INDEX),
 *   - reads no tensor that is written between the definition and the last
 *     read (the statement holding the last read may write it when it is a
 *     single Store or Reduce: the value is read before the write),
 *   - reads no tensor declared inside the loops of the definition, and uses
 *     no iterator that a loop around a read rebinds,
 * and when v is not cheap (a literal, a size or iterator, a load with
 * affine indices, or a cast or negation of one; not a transposing load
 * whose forwarding would stride where t's reads did not:
 * xf_def_forward_strides), t is read exactly once,
 * and not inside a loop whose iterator the read's indices do not use (so
 * the value is not computed more often than before).  Every read
 * t[e...] becomes v with the definition's iterators replaced by e..., and
 * the Store becomes empty.  Labelled Stores are left alone, and so are
 * values of more than --max-expr-size nodes: a chain of temporaries, each
 * read once by the next, would otherwise become one expression as deep as
 * the chain is long.
 */
#include "cleanup.h"

#include <string.h>

#include "xf_util.h"
#include "../ast/visit.h"

/* An affine-looking index: iterators, sizes and literals under + - *. */
static int simple_index(const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT: case AST_VAR: return 1;
    case AST_BINARY:
        return (e->u.bin.op == AST_ADD || e->u.bin.op == AST_SUB || e->u.bin.op == AST_MUL) &&
               simple_index(e->u.bin.a) && simple_index(e->u.bin.b);
    default: return 0;
    }
}

/* Whether v costs no more to recompute at each read than to load t. */
static int cheap(const ast_expr *v)
{
    switch (v->kind) {
    case AST_INT: case AST_FLOAT: case AST_BOOLC: case AST_VAR: return 1;
    case AST_LOAD:
        for (int k = 0; k < v->u.load.n; k++)
            if (!simple_index(v->u.load.idx[k]))
                return 0;
        return 1;
    case AST_CAST: return cheap(v->u.cast.a);
    case AST_UNARY: return v->u.un.op == AST_NEG && cheap(v->u.un.a);
    default: return 0;
    }
}

/* Whether s is a single statement that evaluates its operands and then
 * writes (so it may write what the propagated value reads). */
static int single_write(const ast_stmt *s)
{
    return s->kind == AST_STORE || s->kind == AST_REDUCE;
}

/* Whether every read of d's local, in the items after the definition, may
 * take the value instead (see the file comment). */
static int reads_ok(ft_ctx *ctx, ast_func *f, const xf_def *d, ft_vec *items)
{
    const char *t = d->vardef->u.def.name;
    const ast_expr *v = d->store->u.store.value;
    ft_vec R = {0};
    xf_expr_loaded(ctx, v, &R);
    if (R.len && xf_item_writes_any(items->items[d->top], &R))
        return 0;
    int last = -1, nreads = 0;
    for (int i = d->top + 1; i < items->len; i++)
        if (((ast_stmt *)items->items[i])->kind != AST_VARDEF && xf_reads(items->items[i], t)) {
            last = i;
            nreads += xf_count_uses(items->items[i], t).loads;
        }
    for (int i = d->top + 1; i <= last && R.len; i++) {
        ast_stmt *it = items->items[i];
        if (xf_item_writes_any(it, &R) && !(i == last && single_write(it)))
            return 0;
    }
    int repeats = xf_def_reads_repeat(d, items);
    if (cheap(v) && !(repeats && xf_def_reorders(d) && xf_def_forward_strides(ctx, f, d, items)))
        return 1;
    return nreads == 1 && !repeats;
}

static ast_expr *value_at(ft_ctx *ctx, ast_expr *load, void *data)
{
    return xf_def_value_at(ctx, data, load);
}

/* Propagate the local of vardef when it qualifies; returns 1 if it did. */
static int propagate(ft_ctx *ctx, ast_func *f, ast_stmt *vardef)
{
    ft_vec items = {0};
    xf_scope_list(ctx, vardef->u.def.body, &items);
    xf_def d;
    int64_t max = ctx->opts.budget.expr_size;
    if (xf_kept(vardef) || !xf_find_def(ctx, vardef, &items, &d) || d.store->label ||
        ast_expr_size(d.store->u.store.value, max) > max ||
        xf_expr_checked(d.store->u.store.value) || !xf_def_value_movable(ctx, &d, &items) ||
        !reads_ok(ctx, f, &d, &items))
        return 0;
    xf_replace_loads(ctx, vardef->u.def.body, vardef->u.def.name, value_at, &d);
    xf_make_empty(d.store);
    return 1;
}

void xf_propagate_temps(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "prop_temps")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        for (int round = 0; round < 8; round++) {
            ft_vec defs = {0};
            xf_collect_vardefs(ctx, f->body, &defs);
            int changed = 0;
            for (int k = 0; k < defs.len; k++)
                changed += propagate(ctx, f, defs.items[k]);
            f->body = xf_normalize(ctx, f->body);
            if (!changed)
                break;
        }
    }
}
