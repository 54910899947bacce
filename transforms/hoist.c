/* hoist.c - xf_hoist_invariants: compute loop-invariant locals once.
 *
 * Requires: a lowered program.
 * Provides: locals that every iteration of a loop would compute alike are
 * declared and computed before the loop; the normal form of xf_normalize.
 *
 * In the scope list of a loop L's body, a local t (VarDef item) moves out
 * of L together with the statements C right after its declaration that
 * compute it, when
 *   - each statement of C writes only t or locals declared inside it, has
 *     no assert and no index depending on loaded data (nothing in C can end
 *     the function with an error), and does not use L's iterator,
 *   - C reads only t, locals declared inside C, and tensors that nothing in
 *     L writes and that are not declared in L before t,
 *   - nothing in L after C writes t, and t's shape does not use L's
 *     iterator.
 * When C loads an element of a tensor other than its own locals (0-D
 * tensors aside), the loads must not run
 * where the original did not: unless L's constant bounds show at least one
 * iteration, the moved code goes under `if begin < end:` (`>` for a
 * negative step; a loop with a step that is not a literal is refused).
 * The moved local is renamed (NAME_h1, ...) when its name is declared
 * elsewhere in the function, so names in scope stay unique.  Nothing that
 * a label or a schedule names moves (xf_kept): the local, and C with every
 * statement under it, stay where the program wrote them.
 */
#include "cleanup.h"

#include <string.h>

#include "visit.h"
#include "xf_util.h"

/* Whether item may move out of loop with the local t declared at items[p]. */
static int computes_only(ft_ctx *ctx, const ast_stmt *loop, ft_vec *items, int p,
                         const ast_stmt *item, const char *t)
{
    if (item->kind == AST_VARDEF || xf_any_kept(item) || xf_stmt_checked(item) ||
        xf_stmt_uses_var(item, loop->u.loop.iter))
        return 0;
    ft_vec written = {0}, loaded = {0};
    xf_stmt_written(ctx, item, &written);
    for (int i = 0; i < written.len; i++)
        if (strcmp(written.items[i], t) && !xf_defines(item, written.items[i]))
            return 0;
    xf_stmt_loaded(ctx, item, &loaded);
    for (int i = 0; i < loaded.len; i++) {
        const char *r = loaded.items[i];
        if (!strcmp(r, t) || xf_defines(item, r))
            continue;
        if (xf_writes(loop->u.loop.body, r))
            return 0;
        for (int k = 0; k < p; k++) {
            const ast_stmt *d = items->items[k];
            if (d->kind == AST_VARDEF && !strcmp(d->u.def.name, r))
                return 0;
        }
    }
    return 1;
}

/* Finding a load that may be out of range where the loop would not run. */
typedef struct outside_state {
    ast_visitor v;
    const ast_stmt *item;
    const char *t;
    int found;
} outside_state;

static void outside_cb(ast_visitor *v, ast_expr *e)
{
    outside_state *st = (outside_state *)v;
    if (e->kind == AST_LOAD && e->u.load.n > 0 && strcmp(e->u.load.var, st->t) &&
        !xf_defines(st->item, e->u.load.var))
        st->found = 1;
}

/* Whether item loads an element of a tensor other than t and its own
 * locals (0-D tensors always have their one element). */
static int loads_outside(const ast_stmt *item, const char *t)
{
    outside_state st = {.v.expr = outside_cb, .item = item, .t = t};
    ast_visit((ast_stmt *)item, &st.v);
    return st.found;
}

/* The condition under which loop runs at least once: NULL when its
 * literal bounds show it always does, a comparison of its bounds, or
 * *refused = 1 when the step is not a literal. */
static ast_expr *runs_once_guard(ft_ctx *ctx, const ast_stmt *loop, int *refused)
{
    const ast_expr *b = loop->u.loop.begin, *e = loop->u.loop.end, *st = loop->u.loop.step;
    *refused = st->kind != AST_INT || st->u.ival == 0 || xf_expr_checked(b) ||
               xf_expr_checked(e);
    if (*refused)
        return NULL;
    int up = st->u.ival > 0;
    if (b->kind == AST_INT && e->kind == AST_INT && (up ? b->u.ival < e->u.ival
                                                        : b->u.ival > e->u.ival))
        return NULL;
    return ast_binary(ctx, loop->loc, up ? AST_LT : AST_GT, ast_clone_expr(ctx, b),
                      ast_clone_expr(ctx, e));
}

/* Whether the local t needs a new name once its scope covers more. */
static int name_shared(ft_ctx *ctx, const ast_func *f, const char *t)
{
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    int n = 0;
    for (int i = 0; i < defs.len; i++)
        n += !strcmp(((ast_stmt *)defs.items[i])->u.def.name, t);
    return n > 1 || xf_binds_iter(f->body, t);
}

/* A new node with the contents of s (s itself is then reused in place). */
static ast_stmt *moved(ft_ctx *ctx, const ast_stmt *s)
{
    ast_stmt *c = ft_alloc(ctx, sizeof *c);
    *c = *s;
    return c;
}

/* Move the local declared at items[p] of loop's body and its k computing
 * statements before loop (in place), under guard when not NULL. */
static void hoist_out(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_vec *items, int p,
                      int k, ast_expr *guard)
{
    ast_stmt *def = items->items[p];
    ft_vec body = {0};
    for (int i = p + 1; i <= p + k; i++) {
        ft_vec_push(ctx, &body, moved(ctx, items->items[i]));
        xf_make_empty(items->items[i]);
    }
    const typeof(def->u.def) *d = &def->u.def;
    ast_stmt *out = ast_vardef(ctx, def->loc, d->name, d->dtype, d->ndim, d->shape,
                               d->access, d->mtype, NULL);
    int rename = name_shared(ctx, f, d->name);
    *def = *def->u.def.body;               /* the declaration leaves the loop */
    ft_vec_push(ctx, &body, moved(ctx, loop));
    out->u.def.body = ast_seq(ctx, loop->loc, body.len, (ast_stmt **)body.items);
    if (rename) {
        const char *fresh = xf_fresh_name(ctx, f, out->u.def.name);
        xf_rename_tensor(ctx, out->u.def.body, out->u.def.name, fresh);
        out->u.def.name = fresh;
    }
    *loop = *(guard ? ast_if(ctx, loop->loc, guard, out, NULL) : out);
}

/* Hoist the first local of loop's body that qualifies; returns 1 if any. */
static int hoist_loop(ft_ctx *ctx, ast_func *f, ast_stmt *loop)
{
    ft_vec items = {0};
    xf_scope_list(ctx, loop->u.loop.body, &items);
    for (int p = 0; p < items.len; p++) {
        ast_stmt *def = items.items[p];
        if (def->kind != AST_VARDEF || xf_kept(def))
            continue;
        const char *t = def->u.def.name;
        int k = 0, outside = 0;
        while (p + 1 + k < items.len &&
               computes_only(ctx, loop, &items, p, items.items[p + 1 + k], t)) {
            outside |= loads_outside(items.items[p + 1 + k], t);
            k++;
        }
        int ok = 0;   /* something to move: C writes t */
        for (int i = p + 1; i <= p + k; i++)
            ok |= xf_writes(items.items[i], t);
        for (int i = p + 1 + k; i < items.len && ok; i++)
            ok = !xf_item_accesses(items.items[i], t) || !xf_writes(items.items[i], t);
        for (int i = 0; i < def->u.def.ndim && ok; i++)
            ok = !xf_expr_uses_var(def->u.def.shape[i], loop->u.loop.iter);
        if (!ok)
            continue;
        int refused = 0;
        ast_expr *guard = outside ? runs_once_guard(ctx, loop, &refused) : NULL;
        if (refused)
            continue;
        hoist_out(ctx, f, loop, &items, p, k, guard);
        return 1;
    }
    return 0;
}

typedef struct loops_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec loops;
} loops_state;

static int loops_cb(ast_visitor *v, ast_stmt *s)
{
    loops_state *st = (loops_state *)v;
    if (s->kind == AST_FOR)
        ft_vec_push(st->ctx, &st->loops, s);
    return 1;
}

void xf_hoist_invariants(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (!xf_cleanup_affordable(ctx, f, "hoist")) {
            f->body = xf_normalize(ctx, f->body);
            continue;
        }
        for (int round = 0; round < 10000; round++) {   /* one hoist per round */
            loops_state st = {.v.stmt = loops_cb, .ctx = ctx};
            ast_visit(f->body, &st.v);
            int changed = 0;
            for (int k = st.loops.len - 1; k >= 0 && !changed; k--)   /* inner first */
                changed = hoist_loop(ctx, f, st.loops.items[k]);
            f->body = xf_normalize(ctx, f->body);
            if (!changed)
                break;
        }
    }
}
