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

#include <string.h>

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

/* What the body of a candidate pair makes of the iterators o and i: every
 * use of either inside a linear expression with o's coefficient B times
 * i's, else `mixed` (a merge keeps a division: m // B or m % B). */
typedef struct uses {
    ast_visitor v;
    ft_ctx *ctx;
    const char *o, *i;
    int64_t b;
    int64_t total, in_roots;  /* uses of o and i: all, inside checked roots */
    int mixed;
} uses;

/* Counting the uses of o and i in an expression (count_uses). */
typedef struct counter {
    ast_visitor v;
    const char *o, *i;
    int64_t n;
} counter;

static void counter_expr(ast_visitor *v, ast_expr *e)
{
    counter *c = (counter *)v;
    c->n += e->kind == AST_VAR && (!strcmp(e->u.name, c->o) || !strcmp(e->u.name, c->i));
}

/* The uses of o and i in e. */
static int64_t count_uses(const uses *u, const ast_expr *e)
{
    counter c = {.v.expr = counter_expr, .o = u->o, .i = u->i};
    ast_visit_expr((ast_expr *)e, &c.v);
    return c.n;
}

/* An index, a bound or a side of a comparison: o and i in it as plain
 * terms of a linear form, o's coefficient B times i's, or it is mixed. */
static void check_root(uses *u, const ast_expr *e)
{
    int64_t n = count_uses(u, e), co = 0, ci = 0;
    an_lin l;
    if (!n)
        return;
    u->in_roots += n;
    if (!an_lin_of(u->ctx, e, &l))
        return;                 /* not an integer: the total tells */
    for (int k = 0; k < l.n; k++) {
        const ast_expr *a = l.atom[k];
        int is_o = a->kind == AST_VAR && !strcmp(a->u.name, u->o);
        int is_i = a->kind == AST_VAR && !strcmp(a->u.name, u->i);
        if (is_o || is_i)
            *(is_o ? &co : &ci) += l.coef[k];
        else if (count_uses(u, a))
            u->in_roots = -1;   /* under a nonlinear atom: not judged */
    }
    u->mixed |= co != u->b * ci;
}

static void uses_expr(ast_visitor *v, ast_expr *e)
{
    uses *u = (uses *)v;
    if (e->kind == AST_VAR)
        u->total += count_uses(u, e);
    else if (e->kind == AST_LOAD)
        for (int k = 0; k < e->u.load.n; k++)
            check_root(u, e->u.load.idx[k]);
    else if (e->kind == AST_BINARY && e->u.bin.op >= AST_LT && e->u.bin.op <= AST_NE) {
        check_root(u, e->u.bin.a);
        check_root(u, e->u.bin.b);
    }
}

static int uses_stmt(ast_visitor *v, ast_stmt *s)
{
    uses *u = (uses *)v;
    if (s->kind == AST_STORE || s->kind == AST_REDUCE) {
        int n = s->kind == AST_STORE ? s->u.store.n : s->u.red.n;
        ast_expr **idx = s->kind == AST_STORE ? s->u.store.idx : s->u.red.idx;
        for (int k = 0; k < n; k++)
            check_root(u, idx[k]);
    } else if (s->kind == AST_FOR) {
        check_root(u, s->u.loop.begin);
        check_root(u, s->u.loop.end);
        check_root(u, s->u.loop.step);
    }
    return 1;
}

/* Whether merging o with i (of b iterations) would certainly leave a
 * division of the merged iterator, so that the merge (a simplification of
 * the whole function) need not be tried: every use of o and i is judged
 * (inside indices, bounds and comparisons, as plain terms) and one of them
 * is not B*o + i times a constant; and o runs more than once (else m // B
 * is 0 and m % B is m). */
static int certainly_divided(xf_auto *a, const ast_stmt *o, ast_stmt *i)
{
    int64_t b, trips;
    if (!xf_auto_const_trips(a->ctx, i, &b) ||
        (xf_auto_const_trips(a->ctx, o, &trips) && trips <= 1))
        return 0;
    uses u = {.v = {.stmt = uses_stmt, .expr = uses_expr}, .ctx = a->ctx,
              .o = o->u.loop.iter, .i = i->u.loop.iter, .b = b};
    ast_visit(i, &u.v);
    return u.mixed && u.in_roots == u.total;
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
        if (certainly_divided(a, o, i))
            continue;
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
