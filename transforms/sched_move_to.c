/* sched_move_to.c - move_to(S, before=T) / move_to(S, after=T): move a
 * statement next to another one.
 *
 * Requires: f's AST.
 * Provides: S placed right before (or right after) T; the statements
 * between them keep their order.
 *
 * Legality: within one sequence, the block of items from S to T is
 * permuted, and the new order must keep every dependence
 * (xf_check_permutation, the isl analysis of swap).
 *
 * When T's sequence encloses S through loops (and locals S does not
 * touch), S first leaves those loops one at a time, innermost first:
 * before its loop when T comes before it, after it otherwise.  Leaving
 * loop L runs S once instead of once per iteration, guarded by L's range
 * being non-empty (`if begin < end:`, dropped when the simplifier proves
 * it); that is the same when S is invariant: it does not use L's iterator,
 * reduces nothing, reads nothing it writes, nothing else in L writes what
 * S reads or writes, L's range does not read what S writes, and no other
 * statement of L reads what S writes before S in an iteration (hoisting)
 * or at all (sinking).  Then S moves within T's sequence as above.
 * Moving a statement into a loop or a branch is refused.  On a refusal f
 * is left as it was (the body saved before the first step is put back).
 */
#include "schedule.h"

#include "sched_util.h"
#include "visit.h"
#include "xf_util.h"

/* The new order of items lo..hi of parent when the item at `from` moves to
 * just before (after = 0) or after (after = 1) the item at `to`. */
static ast_stmt **moved_order(ft_ctx *ctx, ast_stmt *parent, int from, int to, int after,
                              int *start, int *n)
{
    int lo = from < to ? from : to, hi = from < to ? to : from;
    ast_stmt **items = parent->u.seq.stmts, *s = items[from];
    ast_stmt **order = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(hi - lo + 1));
    int m = 0;
    for (int i = lo; i <= hi; i++) {
        if (i == from)
            continue;
        if (i == to && !after)
            order[m++] = s;
        order[m++] = items[i];
        if (i == to && after)
            order[m++] = s;
    }
    *start = lo;
    *n = hi - lo + 1;
    return order;
}

/* Move s, an item of ps at from, before (after = 0) or after the item at
 * to; dependence-checked. */
static int move_in_seq(ft_ctx *ctx, ast_func *f, ast_stmt *ps, int from, int to, int after,
                       const char *what, ft_loc loc)
{
    if (to == from + (after ? -1 : 1) || to == from)
        return 0;                                 /* already there */
    int start, n;
    ast_stmt **order = moved_order(ctx, ps, from, to, after, &start, &n);
    if (xf_check_permutation(ctx, f, ps, start, n, order, what, loc))
        return 1;
    for (int i = 0; i < n; i++)
        ps->u.seq.stmts[start + i] = order[i];
    return 0;
}

typedef struct kinds_state {
    ast_visitor v;
    int other;            /* a reduction, an assert or an evaluation */
} kinds_state;

static int kinds_visit(ast_visitor *v, ast_stmt *s)
{
    kinds_state *st = (kinds_state *)v;
    st->other |= s->kind == AST_REDUCE || s->kind == AST_ASSERT || s->kind == AST_EVAL;
    return 1;
}

/* The first name of a that is in b, or NULL. */
static const char *common_name(const ft_vec *a, const ft_vec *b)
{
    for (int i = 0; i < a->len; i++)
        if (xf_has_name(b, a->items[i]))
            return a->items[i];
    return NULL;
}

/* Why s, which writes w and reads r, cannot leave a loop whose body holds
 * item x (before s when before); NULL when x does not stop it. */
static const char *item_blocks(ft_ctx *ctx, ast_stmt *x, int before, int sink,
                               const ft_vec *w, const ft_vec *r)
{
    ft_vec xw = {0}, xr = {0};
    xf_stmt_written(ctx, x, &xw);
    xf_stmt_loaded(ctx, x, &xr);
    const char *t;
    if ((t = common_name(&xw, r)))
        return ft_fmt(ctx, "%s writes '%s', which it reads", xf_sched_name(ctx, x), t);
    if ((t = common_name(&xw, w)))
        return ft_fmt(ctx, "%s also writes '%s'", xf_sched_name(ctx, x), t);
    if ((before || sink) && (t = common_name(&xr, w)))
        return ft_fmt(ctx, "%s reads '%s' %s", xf_sched_name(ctx, x), t,
                      sink ? "in the loop" : "before it in an iteration");
    return NULL;
}

/* Why s cannot leave c, a loop or a local (path: the unlabelled
 * sequences from c's body down to s's parent); NULL when it can. */
static const char *leave_blocker(ft_ctx *ctx, ast_stmt *c, ast_stmt **path, int npath,
                                 ast_stmt *s, int sink)
{
    const char *C = xf_sched_name(ctx, c);
    if (c->kind == AST_VARDEF && xf_accesses(s, c->u.def.name))
        return ft_fmt(ctx, "it uses '%s', a local declared there", c->u.def.name);
    if (c->kind == AST_FOR && xf_stmt_uses_var(s, c->u.loop.iter))
        return ft_fmt(ctx, "it uses the iterator '%s'", c->u.loop.iter);
    kinds_state ks = {.v.stmt = kinds_visit};
    ast_visit(s, &ks.v);
    if (ks.other && c->kind == AST_FOR)
        return "it holds a reduction, an assert or an evaluation, which would not run as "
               "often";
    ft_vec w = {0}, r = {0};
    xf_stmt_written(ctx, s, &w);
    xf_stmt_loaded(ctx, s, &r);
    const char *t = common_name(&w, &r);
    if (t && c->kind == AST_FOR)
        return ft_fmt(ctx, "it reads '%s', which it writes", t);
    for (int i = 0; c->kind == AST_FOR && i < w.len; i++)
        if (xf_expr_reads(c->u.loop.begin, w.items[i]) ||
            xf_expr_reads(c->u.loop.end, w.items[i]) ||
            xf_expr_reads(c->u.loop.step, w.items[i]))
            return ft_fmt(ctx, "the range of %s reads '%s'", C, (const char *)w.items[i]);
    for (int k = 0; k < npath; k++) {
        ast_stmt *p = path[k], *next = k + 1 < npath ? path[k + 1] : s;
        if (p->kind != AST_SEQ || p->label)
            return ft_fmt(ctx, "it is under %s inside %s", p->kind == AST_IF ? "a branch"
                          : xf_sched_name(ctx, p), C);
        int before = 1;
        for (int i = 0; i < p->u.seq.n; i++) {
            ast_stmt *it = p->u.seq.stmts[i];
            if (it == next) {
                before = 0;
                continue;
            }
            /* a loop's other items all matter; a local's only those crossed */
            if (c->kind == AST_VARDEF && before == sink)
                continue;
            const char *why = item_blocks(ctx, it, before, sink, &w, &r);
            if (why)
                return why;
        }
    }
    return NULL;
}

/* Replace the child old of parent (or f's body when parent is NULL) by new. */
static void replace_child(ast_func *f, ast_stmt *parent, ast_stmt *old, ast_stmt *new)
{
    if (!parent) {
        f->body = new;
        return;
    }
    switch (parent->kind) {
    case AST_SEQ:
        for (int i = 0; i < parent->u.seq.n; i++)
            if (parent->u.seq.stmts[i] == old)
                parent->u.seq.stmts[i] = new;
        break;
    case AST_VARDEF: parent->u.def.body = new; break;
    case AST_FOR: parent->u.loop.body = new; break;
    case AST_IF:
        if (parent->u.branch.then == old)
            parent->u.branch.then = new;
        else
            parent->u.branch.other = new;
        break;
    default: break;
    }
}

/* s guarded by loop's range being non-empty (s alone for a constant
 * positive trip count); NULL when the step is not a constant. */
static ast_stmt *guarded(ft_ctx *ctx, const ast_stmt *loop, ast_stmt *s)
{
    const ast_expr *b = loop->u.loop.begin, *e = loop->u.loop.end, *st = loop->u.loop.step;
    if (st->kind != AST_INT || st->u.ival == 0)
        return NULL;
    if (b->kind == AST_INT && e->kind == AST_INT &&
        (st->u.ival > 0 ? b->u.ival < e->u.ival : b->u.ival > e->u.ival))
        return s;
    ast_expr *cond = ast_binary(ctx, s->loc, st->u.ival > 0 ? AST_LT : AST_GT,
                                ast_clone_expr(ctx, b), ast_clone_expr(ctx, e));
    return ast_if(ctx, s->loc, cond, s, NULL);
}

/* Move unit out of the innermost loop or local enclosing it, before it
 * (or after it when sink); *unit becomes the moved statement (guarded when
 * it left a loop).  name: S's name for messages.  Returns 0, or 1 after an
 * error (f may be half changed: the caller puts the saved body back). */
static int leave_loop(ft_ctx *ctx, ast_func *f, ast_stmt **unit, int sink, const char *name,
                      const char *what, ft_loc loc)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, *unit, &anc);
    int l = anc.len - 1;
    ast_stmt *c = NULL;
    for (; l >= 0 && !c; l--) {
        ast_stmt *a = anc.items[l];
        if (a->kind == AST_FOR || a->kind == AST_VARDEF)
            c = a;
        else if (a->kind != AST_SEQ || a->label) {
            ft_error(ctx, loc, "cannot %s: %s is under %s (moving out of a branch is not "
                     "supported)", what, name, a->kind == AST_IF ? "a branch"
                     : xf_sched_name(ctx, a));
            return 1;
        }
    }
    l++;
    if (!c) {
        ft_error(ctx, loc, "cannot %s: internal error: no loop around %s", what, name);
        return 1;
    }
    ast_stmt *s = *unit;
    const char *why = leave_blocker(ctx, c, (ast_stmt **)anc.items + l + 1, anc.len - l - 1,
                                    s, sink);
    ast_stmt *g = why || c->kind != AST_FOR ? s : guarded(ctx, c, s);
    if (!why && !g)
        why = ft_fmt(ctx, "the step of %s is not a constant", xf_sched_name(ctx, c));
    if (why) {
        ft_error(ctx, loc, "cannot %s: %s cannot leave %s: %s", what, name,
                 xf_sched_name(ctx, c), why);
        return 1;
    }
    ast_stmt *ps = anc.items[anc.len - 1];
    if (ps == c) {
        replace_child(f, c, s, ast_seq(ctx, s->loc, 0, NULL));
    } else {
        int k = 0;
        for (int i = 0; i < ps->u.seq.n; i++)
            if (ps->u.seq.stmts[i] != s)
                ps->u.seq.stmts[k++] = ps->u.seq.stmts[i];
        ps->u.seq.n = k;
    }
    ast_stmt *up = l > 0 ? anc.items[l - 1] : NULL;
    *unit = g;
    if (up && up->kind == AST_SEQ && !up->label) {
        /* g becomes an item of c's sequence, right before or after c */
        ast_stmt **items = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(up->u.seq.n + 1));
        int k = 0;
        for (int i = 0; i < up->u.seq.n; i++) {
            if (up->u.seq.stmts[i] == c && !sink)
                items[k++] = g;
            items[k++] = up->u.seq.stmts[i];
            if (up->u.seq.stmts[i] == c && sink)
                items[k++] = g;
        }
        up->u.seq.stmts = items;
        up->u.seq.n = k;
        return 0;
    }
    ast_stmt **two = ft_alloc(ctx, sizeof(ast_stmt *) * 2);
    two[sink] = g;
    two[!sink] = c;
    replace_child(f, up, c, ast_seq(ctx, c->loc, 2, two));
    return 0;
}

/* move_to across loops: s leaves the loops between it and pt (t's
 * sequence, at index to), then moves within pt. */
static int move_out(ft_ctx *ctx, ast_func *f, ast_stmt *s, ast_stmt *t, ast_stmt *pt, int after,
                    const char *what, ft_loc loc)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    int at = -1;
    for (int i = 0; i < anc.len && at < 0; i++)
        if (anc.items[i] == pt)
            at = i;
    if (at < 0 || at + 1 >= anc.len) {
        ft_error(ctx, loc, "cannot %s: %s's sequence does not enclose %s (moving a statement "
                 "into a loop or a branch is not supported)", what, xf_sched_name(ctx, t),
                 xf_sched_name(ctx, s));
        return 1;
    }
    ast_stmt *item = anc.items[at + 1];          /* the item of pt holding s */
    int from = -1, to = -1;
    for (int i = 0; i < pt->u.seq.n; i++) {
        from = pt->u.seq.stmts[i] == item ? i : from;
        to = pt->u.seq.stmts[i] == t ? i : to;
    }
    int sink = item == t ? after : to > from;   /* move_to(S, after=L): sink out of L */
    ast_stmt *unit = s;
    int bad = 0, idx = -1;
    while (!bad && xf_parent_seq(ctx, f->body, unit, &idx) != pt)
        bad = leave_loop(ctx, f, &unit, sink, xf_sched_name(ctx, s), what, loc);
    if (!bad) {
        for (int i = 0; i < pt->u.seq.n; i++) {
            from = pt->u.seq.stmts[i] == unit ? i : from;
            to = pt->u.seq.stmts[i] == t ? i : to;
        }
        bad = move_in_seq(ctx, f, pt, from, to, after, what, loc);
    }
    if (bad)
        return 1;                 /* the caller puts the saved body back */
    xf_sched_finish(ctx, f);
    return 0;
}

int xf_move_to(ft_ctx *ctx, ast_func *f, ast_stmt *s, ast_stmt *t, int after, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "move %s %s %s", xf_sched_name(ctx, s),
                              after ? "after" : "before", xf_sched_name(ctx, t));
    if (s == t) {
        ft_error(ctx, loc, "cannot %s: they are the same statement", what);
        return 1;
    }
    if (xf_sched_pinned(ctx, s, what, loc))
        return 1;
    int from = -1, to = -1;
    ast_stmt *ps = xf_parent_seq(ctx, f->body, s, &from);
    ast_stmt *pt = xf_parent_seq(ctx, f->body, t, &to);
    if (ps != pt || !pt) {
        ast_stmt *saved = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
        if (!pt) {
            /* t alone in a body (a function of one loop): make it an item */
            ft_vec anc = {0};
            xf_ancestors(ctx, f->body, t, &anc);
            pt = ast_seq(ctx, t->loc, 1, &t);
            replace_child(f, anc.len ? anc.items[anc.len - 1] : NULL, t, pt);
        }
        if (move_out(ctx, f, s, t, pt, after, what, loc)) {
            f->body = saved;
            return 1;
        }
        return 0;
    }
    if (move_in_seq(ctx, f, ps, from, to, after, what, loc))
        return 1;
    xf_sched_finish(ctx, f);
    return 0;
}
