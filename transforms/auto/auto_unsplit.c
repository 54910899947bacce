/* auto_unsplit.c - a loop and the loop in it merged back into one where
 * the body sees the two only as one index.
 *
 * Requires: f's AST (after auto_layout_sink, which moves block loops).
 * Provides: every serial loop O whose body is only a serial loop I of a
 * constant number B of iterations, both counting from 0 by 1, merged with
 * I (xf_merge) when afterwards the body no longer divides the merged
 * iterator m: the simplifier turns each `B*(m // B) + m % B` back into m,
 * so this holds exactly when the body used the two iterators only as
 * B*o + i.  The layout pass splits the loop over a blocked dimension in
 * two (a conv's channel sum reads x_nchw8c[n, co, h, w, ci]); where the
 * cleanups then fold the conversion away (the conv reads x[n, h, w,
 * 8*co + ci] in its place), the split only cut the channel sum into sums
 * of 8, each vectorized on its own with a horizontal add.
 * Always legal: the merged loop runs the same instances in the same order
 * (xf_merge's own check); a merge that leaves a division is undone.
 */
#include "auto_util.h"

#include "../schedule.h"
#include "../sched_util.h"
#include "../xf_util.h"
#include "../../ast/visit.h"

static const char *const PASS = "auto_unsplit";

/* Visitor: whether an expression divides iterator iter (`// c`, `% c`). */
typedef struct divides {
    ast_visitor v;
    const char *iter;
    int found;
} divides;

static void divides_expr(ast_visitor *v, ast_expr *e)
{
    divides *d = (divides *)v;
    if (e->kind == AST_BINARY && (e->u.bin.op == AST_FLOORDIV || e->u.bin.op == AST_MOD) &&
        xf_expr_uses_var(e->u.bin.a, d->iter))
        d->found = 1;
}

/* Whether loop o and the loop i that is all of its body are candidates:
 * both serial, from 0 by 1, i of constant trips. */
static int candidate(xf_auto *a, ast_stmt *o, ast_stmt **inner)
{
    ast_stmt **items;
    int64_t n;
    if (o->u.loop.par != AST_SERIAL || xf_body_items(&o->u.loop.body, &items) != 1 ||
        items[0]->kind != AST_FOR)
        return 0;
    ast_stmt *i = items[0];
    for (int k = 0; k < 2; k++) {
        const ast_stmt *l = k ? i : o;
        if (l->u.loop.par != AST_SERIAL || !xf_is_zero(l->u.loop.begin) ||
            l->u.loop.step->kind != AST_INT || l->u.loop.step->u.ival != 1)
            return 0;
    }
    *inner = i;
    return xf_auto_const_trips(a->ctx, i, &n) && n > 1;
}

/* Try the first candidate pair of f not tried yet (done: the outer loops
 * tried): 1 when merged, 2 when the merge left a division and was undone
 * (the loops found before it are then stale), 0 when none is left. */
static int unsplit_one(xf_auto *a, ft_vec *done)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int k = 0; k < loops.len; k++) {
        ast_stmt *o = loops.items[k], *i;
        if (ft_vec_has(done, (void *)(intptr_t)o->id) || !candidate(a, o, &i))
            continue;
        ft_vec_push(a->ctx, done, (void *)(intptr_t)o->id);
        const char *names = ft_fmt(a->ctx, "%s and %s", xf_auto_name(a, o), xf_auto_name(a, i));
        int id = o->id;
        ast_stmt *snap = xf_auto_snapshot(a);
        xf_quiet q;
        xf_auto_quiet_begin(a->ctx, &q);
        int bad = xf_merge(a->ctx, a->f, o, i, NULL, o->loc);
        xf_auto_quiet_end(a->ctx, &q);
        ast_stmt *m = bad ? NULL : xf_auto_loop_by_id(a->ctx, a->f, id);
        divides d = {.v.expr = divides_expr, .iter = m ? m->u.loop.iter : NULL};
        if (m)
            ast_visit(m->u.loop.body, &d.v);
        if (!m || d.found) {
            xf_auto_restore(a, snap);
            return 2;
        }
        xf_auto_log(a, PASS, names, "merged into %s (the body reads them as one index)",
                    m->u.loop.iter);
        return 1;
    }
    return 0;
}

int xf_auto_unsplit(xf_auto *a)
{
    ft_vec done = {0};
    int n = 0, r;
    for (int tries = 0; tries < 1024 && (r = unsplit_one(a, &done)); tries++)
        n += r == 1;
    return n;
}
