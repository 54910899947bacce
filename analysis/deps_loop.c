/* deps_loop.c - the dependences inside one statement, without those of
 * the whole function (deps.h: an_loop_deps, an_region_deps).
 *
 * Requires: a lowered function and one of its loops L (or any statement R).
 * Provides: an an_deps holding, per (kind, source, sink, tensor), the pairs
 * of instances inside L that run in different iterations of L within one
 * iteration of the loops around it (the "carried" pairs of an_carried_at
 * at L's level), and nothing else; or every dependence between instances
 * inside R in one iteration of the loops around R (an_region_deps: what a
 * transform that reorders instances inside R only must keep; pairs in
 * different iterations of an enclosing loop stay in order).
 *
 * Why: the whole function's dependences come from isl's flow computation
 * over every statement and every schedule level (0.5-2 s for a big
 * backward function), and the auto-scheduler asks about one loop at a time,
 * after each change.  The dependences here are memory-based and have no
 * kills (deps.h), so the pairs L carries from an access x of S to an
 * access y of T on one tensor (not both reads) are simply
 *
 *     { S[i] -> T[j] : x(i) = y(j), i = j on the loops around L,
 *                      i < j on L's iterator (i > j if L runs down) }
 *
 * (the 2d+1 schedules of two statements inside L agree on their constants
 * up to L's level).  One emptiness test per pair of accesses, over the
 * statements inside L only (an_collect_accesses_in), and none for a
 * tensor defined inside L or for L's bounds.  The result is the same set
 * of pairs as the whole function's dependences restricted by
 * an_carried_at (tests/unit/test_deps_loop.c checks that on the golden and
 * bench programs).  In a region the order is the schedules' lexicographic
 * one (isl_map_lex_lt_map) after the dimensions of the loops around it.
 */
#include "deps.h"

#include <stdlib.h>
#include <string.h>

/* The kinds a source access x and a sink access y on one tensor give, as a
 * bit set of 1 << an_dep_kind (the sinks and sources of an_raw, an_war,
 * an_waw; a same-operator reduction pair is AN_RED only). */
static unsigned pair_kinds(const an_access *x, const an_access *y)
{
    if (x->kind == AN_ACC_REDUCE && y->kind == AN_ACC_REDUCE && x->op == y->op)
        return 1u << AN_RED;
    unsigned k = 0;
    if (x->kind != AN_ACC_READ && y->kind != AN_ACC_WRITE)
        k |= 1u << AN_RAW;
    if (x->kind != AN_ACC_WRITE && y->kind != AN_ACC_READ)
        k |= 1u << AN_WAR;
    if (x->kind != AN_ACC_READ && y->kind != AN_ACC_READ)
        k |= 1u << AN_WAW;
    return k;
}

/* The statement of L's own instances (its bounds) in a, or NULL. */
static const an_stmt_info *loop_info(const an_accesses *a, const ast_stmt *loop)
{
    for (int i = 0; i < a->nstmts; i++)
        if (a->stmts[i]->stmt == loop)
            return a->stmts[i];
    return NULL;
}

/* The loop the question is about, or the region. */
typedef struct loop_q {
    const an_accesses *a;
    int region;              /* 1: every pair in order (an_region_deps) */
    int across;              /* region: only pairs of two different items */
    int depth;               /* L's iterator is dimension `depth` */
    int down;                /* L runs downwards (its schedule is -i) */
} loop_q;

/* The constant of s's schedule at dimension 2k (its item's position in
 * the region's sequence), or -1 when it is not one constant. */
static int item_of(const an_stmt_info *s, unsigned k)
{
    isl_val *v = isl_map_plain_get_val_if_fixed(s->schedule, isl_dim_out, 2 * k);
    int r = v && isl_val_is_int(v) ? (int)isl_val_get_num_si(v) : -1;
    isl_val_free(v);
    return r;
}

/* Whether loop runs downwards in the schedules (access.c: a constant
 * negative step). */
static int runs_down(const ast_stmt *loop)
{
    const ast_expr *step = loop->u.loop.step;
    return step->kind == AST_INT && step->u.ival < 0;
}

/* The pairs of same (instances of s -> instances of t, the iterators of
 * the first k loops equal) in which s's runs first, from the loops s and t
 * share: at the first shared loop from k on whose iterators differ, in its
 * direction, or, when they agree on all, in the order of the two
 * statements' positions after them (their schedules' constants).  The
 * same pairs as the lexicographic order of their 2d+1 schedules, without
 * building it (one piece per shared loop).  same is taken when the result
 * is not NULL; NULL: not known here (no AST loops, or two statements at
 * one position), same left to the caller. */
static isl_map *in_order(const an_stmt_info *s, const an_stmt_info *t, int k, isl_map *same)
{
    if (!s->loops || !t->loops)
        return NULL;
    int c = k;                 /* the loops s and t share */
    while (c < s->depth && c < t->depth && s->loops[c] == t->loops[c])
        c++;
    int ps = item_of(s, (unsigned)c), pt = item_of(t, (unsigned)c);
    if (ps < 0 || pt < 0 || (ps == pt && s != t))
        return NULL;
    isl_map *r = isl_map_empty(isl_map_get_space(same));
    for (int l = k; l < c; l++) {
        unsigned u = (unsigned)l;
        isl_map *m = isl_map_copy(same);
        m = runs_down(s->loops[l]) ? isl_map_order_gt(m, isl_dim_in, u, isl_dim_out, u)
                                   : isl_map_order_lt(m, isl_dim_in, u, isl_dim_out, u);
        r = isl_map_union(r, m);
        same = isl_map_equate(same, isl_dim_in, u, isl_dim_out, u);
    }
    if (ps < pt)
        return isl_map_union(r, same);
    isl_map_free(same);
    return r;
}

/* The pairs of x's and y's instances carried by L: the same element, the
 * same iterators of the loops around L, and x's earlier in L (the 2d+1
 * schedules of two statements inside L agree on the constants up to L's
 * level, so this is the carried_time order without composing them). */
static isl_map *carried_pairs(const loop_q *q, const an_access *x, const an_access *y)
{
    isl_map *same = isl_map_apply_range(isl_map_copy(x->rel), isl_map_reverse(isl_map_copy(y->rel)));
    if (q->region) {
        const an_stmt_info *s = an_find_stmt(q->a, x->stmt_name);
        const an_stmt_info *t = an_find_stmt(q->a, y->stmt_name);
        unsigned k = (unsigned)q->depth;
        for (unsigned d = 0; d < k; d++)
            same = isl_map_equate(same, isl_dim_in, d, isl_dim_out, d);
        int sx = item_of(s, k), sy = item_of(t, k);
        if (sx >= 0 && sy >= 0 && sx != sy) {
            /* different items of the region's sequence: in their order */
            return sx < sy ? same : isl_map_subtract(isl_map_copy(same), same);
        }
        isl_map *r = in_order(s, t, (int)k, same);
        if (r)
            return r;
        /* the times agree up to the region's level (2k dims) */
        isl_map *ss = isl_map_project_out(isl_map_copy(s->schedule), isl_dim_out, 0, 2 * k);
        isl_map *ts = isl_map_project_out(isl_map_copy(t->schedule), isl_dim_out, 0, 2 * k);
        return isl_map_intersect(same, isl_map_lex_lt_map(ss, ts));
    }
    isl_map *order = isl_map_universe(isl_map_get_space(same));
    for (int k = 0; k < q->depth; k++)
        order = isl_map_equate(order, isl_dim_in, (unsigned)k, isl_dim_out, (unsigned)k);
    unsigned l = (unsigned)q->depth;
    order = q->down ? isl_map_order_gt(order, isl_dim_in, l, isl_dim_out, l)
                    : isl_map_order_lt(order, isl_dim_in, l, isl_dim_out, l);
    return isl_map_intersect(order, same);
}

/* Whether x can be in a pair L carries: its statement is inside L's
 * iterations (not L's bounds), and its tensor is not one defined inside L
 * (each iteration of L has its own copy; access.h). */
static int in_iterations(const loop_q *q, const an_access *x)
{
    const an_stmt_info *s = an_find_stmt(q->a, x->stmt_name);
    return s && (q->region || (s->depth > q->depth && x->scope_depth <= q->depth));
}

/* Whether x and y are accesses of statements in one item of the region's
 * sequence (an_items_across_deps leaves their pairs out). */
static int one_item(const loop_q *q, const an_access *x, const an_access *y)
{
    unsigned k = (unsigned)q->depth;
    int sx = item_of(an_find_stmt(q->a, x->stmt_name), k);
    return sx >= 0 && sx == item_of(an_find_stmt(q->a, y->stmt_name), k);
}

/* Add rel (taken) to the entry of (kind, x's statement, y's statement,
 * tensor) in list, or start one. */
static void add_dep(ft_ctx *ctx, ft_vec *list, an_dep_kind kind, const an_access *x,
                    const an_access *y, isl_map *rel)
{
    for (int i = 0; i < list->len; i++) {
        an_dep *e = list->items[i];
        if (e->kind == kind && strcmp(e->src->stmt_name, x->stmt_name) == 0 &&
            strcmp(e->snk->stmt_name, y->stmt_name) == 0 && strcmp(e->var, x->var) == 0) {
            e->rel = isl_map_union(e->rel, rel);
            e->exact &= x->exact && y->exact;
            return;
        }
    }
    an_dep *e = ft_alloc(ctx, sizeof *e);
    *e = (an_dep){kind, x, y, x->var, x->exact && y->exact, rel};
    ft_vec_push(ctx, list, e);
}

/* Compare every ordered pair of accesses of q->a on one tensor, not both
 * reads; the pairs L carries, when there are some, into list.  -1 on isl
 * errors. */
static int carried_list(const loop_q *q, ft_vec *list)
{
    const an_accesses *a = q->a;
    char *keep = calloc((size_t)a->n + 1, 1);
    for (int i = 0; keep && i < a->n; i++)
        keep[i] = (char)in_iterations(q, a->acc[i]);
    int r = keep ? 0 : -1;
    for (int i = 0; i < a->n && r == 0; i++) {
        const an_access *x = a->acc[i];
        for (int j = 0; j < a->n && r == 0 && keep[i]; j++) {
            const an_access *y = a->acc[j];
            if (!keep[j] || (x->kind == AN_ACC_READ && y->kind == AN_ACC_READ) ||
                strcmp(x->var, y->var) || (q->across && one_item(q, x, y)))
                continue;
            isl_map *c = carried_pairs(q, x, y);
            isl_bool empty = isl_map_is_empty(c);
            if (empty != isl_bool_false) {
                r = empty < 0 ? -1 : 0;
                isl_map_free(c);
                continue;
            }
            unsigned kinds = pair_kinds(x, y);
            for (int k = 0; k < AN_DEP_KINDS; k++)
                if (kinds & (1u << k))
                    add_dep(a->ctx, list, (an_dep_kind)k, x, y, isl_map_copy(c));
            isl_map_free(c);
        }
    }
    free(keep);
    return r;
}

/* The result: the pairs of list (sorted), a taken. */
static an_deps *new_deps(ft_ctx *ctx, an_accesses *a, ft_vec list, const ast_stmt *loop,
                         const ast_stmt *region)
{
    an_deps *d = ft_alloc(ctx, sizeof *d);
    d->acc = a;
    d->owns_acc = 1;
    d->loop = loop;
    d->region = region;
    d->n = list.len;
    d->deps = (an_dep **)list.items;
    for (int i = 0; i < d->n; i++)
        d->deps[i]->rel = isl_map_coalesce(d->deps[i]->rel);
    if (d->n)
        qsort(d->deps, (size_t)d->n, sizeof *d->deps, an_dep_cmp);
    return d;
}

/* an_loop_deps without the cache. */
static an_deps *compute_loop_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *loop)
{
    an_accesses *a = loop && loop->kind == AST_FOR ? an_collect_accesses_carried(ctx, f, loop)
                                                   : NULL;
    const an_stmt_info *info = a ? loop_info(a, loop) : NULL;
    ft_vec list = {0};
    const ast_expr *step = loop->u.loop.step;
    loop_q q = {a, 0, 0, info ? info->depth : 0, step->kind == AST_INT && step->u.ival < 0};
    if (!info || carried_list(&q, &list) < 0) {
        for (int i = 0; i < list.len; i++)
            isl_map_free(((an_dep *)list.items[i])->rel);
        an_accesses_free(a);
        ft_error(ctx, loop ? loop->loc : f->loc, "internal error: the dependence analysis "
                 "of a loop of '%s' failed", f->name);
        return NULL;
    }
    return new_deps(ctx, a, list, loop, NULL);
}

an_deps *an_loop_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *loop)
{
    char *key;
    size_t len = 0;
    an_deps *d = an_deps_cache_find_loop(ctx, f, loop, &key, &len);
    if (d)
        return d;
    d = compute_loop_deps(ctx, f, loop);
    an_deps_cache_store_loop(ctx, f, loop, d, key, len);
    return d;
}

/* an_items_deps without the cache (across: an_items_across_deps). */
static an_deps *compute_items_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *seq, int lo,
                                   int hi, int across)
{
    const ast_stmt *region = seq;
    an_accesses *a = an_collect_accesses_items(ctx, f, region, lo, hi);
    loop_q q = {a, 1, across, a->root_depth, 0};
    ft_vec list = {0};
    if (carried_list(&q, &list) < 0) {
        for (int i = 0; i < list.len; i++)
            isl_map_free(((an_dep *)list.items[i])->rel);
        an_accesses_free(a);
        ft_error(ctx, region->loc, "internal error: the dependence analysis of a part of "
                 "'%s' failed", f->name);
        return NULL;
    }
    an_deps *d = new_deps(ctx, a, list, NULL, region);
    d->across = across;
    return d;
}

an_deps *an_items_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *seq, int lo, int hi)
{
    char *key;
    size_t len = 0;
    an_deps *d = an_deps_cache_find_items(ctx, f, seq, lo, hi, &key, &len);
    if (d)
        return d;
    d = compute_items_deps(ctx, f, seq, lo, hi, 0);
    an_deps_cache_store_items(ctx, f, seq, lo, hi, d, key, len);
    return d;
}

an_deps *an_items_across_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *seq, int lo, int hi)
{
    if (seq->kind != AST_SEQ || lo < 0)
        return an_items_deps(ctx, f, seq, lo, hi);    /* one item, or all */
    return compute_items_deps(ctx, f, seq, lo, hi, 1);
}

an_deps *an_region_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *region)
{
    return an_items_deps(ctx, f, region, -1, -1);
}

/* The whole function as one region: every pair of instances in the
 * schedules' order (deps.h). */
an_deps *an_pairwise_deps(ft_ctx *ctx, an_accesses *a)
{
    loop_q q = {a, 1, 0, a->root_depth, 0};
    ft_vec list = {0};
    if (carried_list(&q, &list) < 0) {
        for (int i = 0; i < list.len; i++)
            isl_map_free(((an_dep *)list.items[i])->rel);
        return NULL;
    }
    return new_deps(ctx, a, list, NULL, NULL);
}
