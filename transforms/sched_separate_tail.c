/* sched_separate_tail.c - separate_tail(L): split off the iterations where
 * the guards inside a loop are not all true.
 *
 * Requires: f's AST.
 * Provides: L (which keeps its ID and label) over the middle range where
 * every guard it could analyse is proven true, with those guards replaced
 * by their then-branch; copies of L (new IDs, no labels, the iterators of
 * L and of the loops inside renamed x_head and x_tail) over the iterations before and after, guards
 * kept (and dropped when the simplifier proves them false there):
 *
 *     for o in range(ceil(n / 4)):          for o in range(n // 4):
 *         for i in range(4):                    for i in range(4):
 *             if o * 4 + i < n:       ->            body
 *                 body                      for o in range(n // 4, ceil(n / 4)):
 *                                               for i in range(4):
 *                                                   if o * 4 + i < n: body
 *
 * A guard is an If under L whose condition is a conjunction of comparisons,
 * those that use L's iterator x linear in it; the conjuncts free of x (a
 * padded window's test of another loop: `oh + kh >= 1 and ow + kw >= 1`)
 * stay in the middle's guard, the others go.  Each becomes h <= K with h linear; an
 * upper bound of h over the loops between L and the guard (an_upper_bounds,
 * analysis/bounds.h), c * x + R with R free of x, gives the range of x where
 * the comparison holds at every inner iteration (x <= (K - R) // c for
 * c > 0, x >= ceil((R - K) / -c) for c < 0).  The middle range is the
 * intersection, clamped into L's range so that the three parts partition
 * it.
 *
 * Always legal: the same instances run in the same order.  Refused for a
 * step other than 1, or when no guard under L depends on x.
 */
#include "schedule.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "cleanup.h"
#include "sched_util.h"
#include "visit.h"
#include "xf_util.h"

/* The guards found and the range of x where they all hold. */
typedef struct tail_state {
    ft_ctx *ctx;
    an_bounds *b;
    int scope;                 /* variables up to and including x */
    const char *x;
    ast_expr *lo, *hi;         /* x >= lo, x < hi (NULL: no bound) */
    ft_vec guards;             /* ast_stmt *: the Ifs proven in the middle */
    ft_vec rests;              /* ast_expr *: per guard, its conjuncts free of x (or NULL) */
} tail_state;

/* The coefficient of x in l; its other terms in *rest. */
static int64_t split_x(ft_ctx *ctx, const an_lin *l, const char *x, an_lin *rest)
{
    int64_t c = 0;
    *rest = (an_lin){l->c, 0, ft_alloc(ctx, sizeof(int64_t) * (size_t)(l->n + 1)),
                     ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(l->n + 1))};
    for (int i = 0; i < l->n; i++) {
        if (l->atom[i]->kind == AST_VAR && strcmp(l->atom[i]->u.name, x) == 0) {
            c += l->coef[i];
            continue;
        }
        rest->coef[rest->n] = l->coef[i];
        rest->atom[rest->n++] = l->atom[i];
    }
    return c;
}

/* A linear form as an expression. */
static ast_expr *lin_expr(ft_ctx *ctx, ft_loc loc, const an_lin *l)
{
    ast_expr *e = ast_int(ctx, loc, 0);
    for (int i = 0; i < l->n; i++) {
        if (l->coef[i] == 0)
            continue;
        if (l->coef[i] < 0 && !(e->kind == AST_INT && e->u.ival == 0))
            e = ast_binary(ctx, loc, AST_SUB, e, xf_mul(ctx, ast_int(ctx, loc, -l->coef[i]),
                                                        ast_clone_expr(ctx, l->atom[i])));
        else
            e = xf_add(ctx, e, xf_mul(ctx, ast_int(ctx, loc, l->coef[i]),
                                      ast_clone_expr(ctx, l->atom[i])));
    }
    return xf_add(ctx, e, ast_int(ctx, loc, l->c));
}

/* Floor division by a positive constant, folded for literals. */
static ast_expr *floordiv(ft_ctx *ctx, ast_expr *a, int64_t c)
{
    if (c == 1)
        return a;
    if (a->kind == AST_INT) {
        int64_t q = a->u.ival / c;
        return ast_int(ctx, a->loc, q * c > a->u.ival ? q - 1 : q);
    }
    return ast_binary(ctx, a->loc, AST_FLOORDIV, a, ast_int(ctx, a->loc, c));
}

/* Narrow the middle range by x-bound e (an upper bound x < e when upper). */
static void narrow(tail_state *st, ast_expr *e, int upper)
{
    ast_expr **slot = upper ? &st->hi : &st->lo;
    *slot = *slot ? ast_binary(st->ctx, e->loc, upper ? AST_MIN : AST_MAX, *slot, e) : e;
}

/* Take h <= k (h linear) into the range; 0 when it cannot. */
static int take_le(tail_state *st, const ast_expr *h, int64_t k)
{
    an_lin *us;
    int nu = an_upper_bounds(st->b, h, st->scope, &us);
    for (int i = 0; i < nu; i++) {
        an_lin rest;
        int64_t c = split_x(st->ctx, &us[i], st->x, &rest);
        if (c == 0)
            continue;
        /* c * x + rest <= k */
        rest.c -= k;
        ast_expr *r = lin_expr(st->ctx, h->loc, &rest);     /* c * x <= -r */
        ast_expr *neg = ast_unary(st->ctx, h->loc, AST_NEG, r);
        if (c > 0)                                            /* x < (-r) // c + 1 */
            narrow(st, floordiv(st->ctx, xf_add(st->ctx, neg, ast_int(st->ctx, h->loc, c)), c), 1);
        else                                                  /* x >= ceil(r / -c) */
            narrow(st, floordiv(st->ctx, xf_add(st->ctx, r, ast_int(st->ctx, h->loc, -c - 1)), -c), 0);
        return 1;
    }
    return 0;
}

/* Whether e uses x. */
static int uses_x(const tail_state *st, const ast_expr *e)
{
    return xf_expr_uses_var(e, st->x);
}

/* Take one comparison into the range; 0 when it is not one we can use. */
static int take_cmp(tail_state *st, const ast_expr *c)
{
    if (c->kind != AST_BINARY || !ft_dtype_is_int(c->u.bin.a->dtype) ||
        !ft_dtype_is_int(c->u.bin.b->dtype) || xf_expr_has_load(c))
        return 0;
    ast_expr *a = c->u.bin.a, *b = c->u.bin.b;
    ft_loc l = c->loc;
    switch (c->u.bin.op) {
    case AST_LT: return take_le(st, ast_binary(st->ctx, l, AST_SUB, a, b), -1);
    case AST_LE: return take_le(st, ast_binary(st->ctx, l, AST_SUB, a, b), 0);
    case AST_GT: return take_le(st, ast_binary(st->ctx, l, AST_SUB, b, a), -1);
    case AST_GE: return take_le(st, ast_binary(st->ctx, l, AST_SUB, b, a), 0);
    default: return 0;
    }
}

/* Take a conjunction of comparisons; its conjuncts that do not use x
 * (a padded window's test of another loop) are anded into *rest, which the
 * guard keeps in the middle.  0 (the range and *rest unchanged) when a
 * conjunct that uses x cannot be used. */
static int take_cond(tail_state *st, ast_expr *c, ast_expr **rest)
{
    if (!uses_x(st, c)) {
        *rest = *rest ? ast_binary(st->ctx, c->loc, AST_AND, *rest, c) : c;
        return 1;
    }
    ast_expr *lo = st->lo, *hi = st->hi, *r = *rest;
    int ok = c->kind == AST_BINARY && c->u.bin.op == AST_AND
                 ? take_cond(st, c->u.bin.a, rest) && take_cond(st, c->u.bin.b, rest)
                 : take_cmp(st, c);
    if (!ok) {
        st->lo = lo;
        st->hi = hi;
        *rest = r;
    }
    return ok;
}

/* Find the guards under s that depend on x. */
static void find_guards(tail_state *st, ast_stmt *s)
{
    int mark;
    ast_expr *rest;
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            find_guards(st, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: find_guards(st, s->u.def.body); break;
    case AST_FOR:
        if (strcmp(s->u.loop.iter, st->x) == 0)
            break;                                  /* x rebound inside */
        mark = an_bounds_mark(st->b);
        an_bounds_push_loop(st->b, s);
        find_guards(st, s->u.loop.body);
        an_bounds_pop(st->b, mark);
        break;
    case AST_IF:
        rest = NULL;
        if (!s->u.branch.other && uses_x(st, s->u.branch.cond) &&
            take_cond(st, s->u.branch.cond, &rest)) {
            ft_vec_push(st->ctx, &st->guards, s);
            ft_vec_push(st->ctx, &st->rests, rest);
        }
        mark = an_bounds_mark(st->b);
        an_bounds_push_cond(st->b, s->u.branch.cond, 1);
        find_guards(st, s->u.branch.then);
        an_bounds_pop(st->b, mark);
        an_bounds_push_cond(st->b, s->u.branch.cond, 0);
        find_guards(st, s->u.branch.other);
        an_bounds_pop(st->b, mark);
        break;
    default: break;
    }
}

/* Enter the loops and branches of f around s, then s itself (a loop). */
static void enter(ft_ctx *ctx, ast_func *f, an_bounds *b, ast_stmt *s)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = 0; i < anc.len; i++) {
        ast_stmt *a = anc.items[i];
        const ast_stmt *next = i + 1 < anc.len ? anc.items[i + 1] : s;
        if (a->kind == AST_FOR)
            an_bounds_push_loop(b, a);
        else if (a->kind == AST_IF)
            an_bounds_push_cond(b, a->u.branch.cond, a->u.branch.then == next);
    }
    an_bounds_push_loop(b, s);
}

/* min(max(e, lo), hi). */
static ast_expr *clamp(ft_ctx *ctx, ast_expr *e, const ast_expr *lo, const ast_expr *hi)
{
    ast_expr *m = ast_binary(ctx, e->loc, AST_MAX, e, ast_clone_expr(ctx, lo));
    return ast_binary(ctx, e->loc, AST_MIN, m, ast_clone_expr(ctx, hi));
}

/* Renames the iterators of the loops met by a walk over a copy. */
typedef struct rename_state {
    ast_visitor v;
    ft_ctx *ctx;
    ast_func *f;
    const char *suffix;
} rename_state;

/* Rename loop s's iterator x to x + suffix (kept free) in s and its body,
 * so that the names of the loops inside L keep naming L's own loops. */
static int rename_visit(ast_visitor *v, ast_stmt *s)
{
    rename_state *st = (rename_state *)v;
    if (s->kind != AST_FOR)
        return 1;
    const char *x = s->u.loop.iter;
    const char *y = xf_free_name(st->ctx, st->f, ft_fmt(st->ctx, "%s%s", x, st->suffix));
    ast_expr *e = ast_var(st->ctx, s->loc, y);
    ast_subst_stmt(st->ctx, s->u.loop.body, 1, &x, &e);
    s->u.loop.iter = y;
    return 1;
}

/* A copy of loop (new IDs, no labels) over begin..end, the iterators of it
 * and of every loop inside renamed base + suffix (kept free) so that the
 * iterators of L and of its inner loops name them alone. */
static ast_stmt *part(ft_ctx *ctx, ast_func *f, const ast_stmt *loop, ast_expr *begin,
                      ast_expr *end, const char *suffix)
{
    ast_stmt *c = ast_clone_stmt(ctx, loop, AST_CLONE_NEW);
    rename_state st = {.v.stmt = rename_visit, .ctx = ctx, .f = f, .suffix = suffix};
    ast_visit(c, &st.v);
    c->u.loop.begin = begin;
    c->u.loop.end = end;
    return c;
}

int xf_separate_tail(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (xf_sched_pinned(ctx, loop, ft_fmt(ctx, "separate the tail of %s", lname), loc))
        return 1;
    const ast_expr *step = loop->u.loop.step;
    if (step->kind != AST_INT || step->u.ival != 1) {
        ft_error(ctx, loc, "cannot separate the tail of %s: its step is not 1 (not supported "
                 "yet)", lname);
        return 1;
    }
    tail_state st = {.ctx = ctx, .b = an_bounds_new(ctx, f), .x = loop->u.loop.iter};
    enter(ctx, f, st.b, loop);
    st.scope = an_bounds_depth(st.b);
    find_guards(&st, loop->u.loop.body);
    if (st.guards.len == 0) {
        ft_error(ctx, loc, "cannot separate the tail of %s: no guard under it is a linear "
                 "comparison on '%s'", lname, st.x);
        return 1;
    }
    if (!xf_sched_growth_ok(ctx, f, loop, (st.lo != NULL) + (st.hi != NULL),
                            "separate the tail of", loc))
        return 1;
    ast_expr *b = loop->u.loop.begin, *e = loop->u.loop.end;
    ast_expr *m1 = st.lo ? clamp(ctx, st.lo, b, e) : ast_clone_expr(ctx, b);
    ast_expr *m2 = st.hi ? clamp(ctx, st.hi, m1, e) : ast_clone_expr(ctx, e);
    ast_stmt *head = st.lo ? part(ctx, f, loop, ast_clone_expr(ctx, b), ast_clone_expr(ctx, m1), "_head") : NULL;
    ast_stmt *tail = st.hi ? part(ctx, f, loop, ast_clone_expr(ctx, m2), ast_clone_expr(ctx, e), "_tail") : NULL;
    for (int i = 0; i < st.guards.len; i++) {
        ast_stmt *g = st.guards.items[i];
        if (st.rests.items[i])
            g->u.branch.cond = ast_clone_expr(ctx, st.rests.items[i]);
        else
            *g = *g->u.branch.then;
    }
    ast_stmt *main = ft_alloc(ctx, sizeof *main);
    *main = *loop;
    main->u.loop.begin = m1;
    main->u.loop.end = m2;
    ast_stmt *parts[3];
    int n = 0;
    if (head)
        parts[n++] = head;
    parts[n++] = main;
    if (tail)
        parts[n++] = tail;
    ast_stmt *seq = ast_seq(ctx, loop->loc, n, parts);
    *loop = *seq;
    xf_sched_finish(ctx, f);
    ast_program one = {.nfuncs = 1, .funcs = &f};
    xf_remove_dead(ctx, &one);            /* parts whose guards are false */
    return 0;
}
