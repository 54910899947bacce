/* sched_fission.c - fission(L, after=S) / fission(L, before=S): one loop
 * into two.
 *
 * Requires: f's AST.
 * Provides: L over the statements of its body up to S (after=) or up to the
 * statement before S (before=), followed by a copy of L over the rest.
 *
 * When S is inside locals of L's body (L's body is `var t: ...` whose body
 * holds S, the normal form of `for i: var acc = 0; for p: acc += ..;
 * c[i] = acc`), each such local is first expanded over L: it moves around
 * L with a new first dimension of L's trip count, indexed by `i - begin`,
 * so that every iteration keeps its own element (FreeTensor's fission
 * does the same).  That is what lets a scalar accumulator become a block
 * of accumulators kept across an inner loop (register blocking).
 *
 * Legality: running every instance of the first part before any of the
 * second keeps every dependence (xf_check_order, on the expanded locals).
 * On a refusal the function is left as it was (the expansion undone).
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

/* The index of s among items, or -1. */
static int item_index(int n, ast_stmt **items, const ast_stmt *s)
{
    for (int i = 0; i < n; i++)
        if (items[i] == s)
            return i;
    return -1;
}

/* Check the split order; 1 when it would reverse a dependence. */
static int fission_illegal(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int n, ast_stmt **items,
                           int at, const char *what, ft_loc loc)
{
    int k = xf_loop_depth_of(ctx, f, loop);
    an_deps *d = an_region_deps(ctx, f, loop);   /* only its instances move */
    if (!d)
        return 1;
    int64_t c, hi;
    xf_time_range(d, loop, k + 1, 2 * k, &c, &hi);
    const char **out = ft_alloc(ctx, sizeof(char *) * (size_t)d->acc->sched_dims);
    out[2 * k] = ft_fmt(ctx, "%lld", (long long)c + 1);
    const char *tmap = xf_time_map(ctx, d->acc->sched_dims, out);
    xf_remap *maps = ft_alloc(ctx, sizeof(xf_remap) * (size_t)n);
    int m = 0;
    for (int i = at + 1; i < n; i++)
        maps[m++] = (xf_remap){items[i], k, tmap};
    int bad = xf_check_order(ctx, d, m, maps, what, loc);
    an_deps_free(d);
    return bad;
}

/* The index of s among the items of the sequence that holds it inside
 * loop's body, looking through the locals that make up the body (pushed on
 * defs, outermost first); -1 when s is not there.  *items and *n receive
 * the sequence (*items NULL when the body is the one statement s). */
static int find_item(ft_ctx *ctx, ast_stmt *loop, const ast_stmt *s, ft_vec *defs,
                     ast_stmt ***items, int *n)
{
    ast_stmt *body = loop->u.loop.body;
    *items = NULL;
    *n = 1;
    for (;;) {
        if (body == s)
            return 0;
        int seq = body->kind == AST_SEQ && !body->label;
        if (seq && body->u.seq.n == 1) {
            body = body->u.seq.stmts[0];
        } else if (body->kind == AST_VARDEF) {
            ft_vec_push(ctx, defs, body);
            body = body->u.def.body;
        } else if (seq) {
            *items = body->u.seq.stmts;
            *n = body->u.seq.n;
            return item_index(*n, *items, s);
        } else {
            return -1;
        }
    }
}

/* Whether local def can be expanded over loop (its shape does not use the
 * iterator, the range does not read a tensor of its name); reports. */
static int expandable(ft_ctx *ctx, const ast_stmt *loop, const ast_stmt *def, const char *what,
                      ft_loc loc)
{
    const char *x = loop->u.loop.iter, *t = def->u.def.name;
    for (int k = 0; k < def->u.def.ndim; k++)
        if (xf_expr_uses_var(def->u.def.shape[k], x)) {
            ft_error(ctx, loc, "cannot %s: the shape of local '%s' depends on '%s', so it "
                     "cannot be expanded over %s", what, t, x, xf_sched_name(ctx, loop));
            return 0;
        }
    if (xf_expr_reads(loop->u.loop.begin, t) || xf_expr_reads(loop->u.loop.end, t) ||
        xf_expr_reads(loop->u.loop.step, t)) {
        ft_error(ctx, loc, "cannot %s: the range of %s reads another tensor named '%s'", what,
                 xf_sched_name(ctx, loop), t);
        return 0;
    }
    return 1;
}

/* Give local def a new first dimension of size trip, every access indexed
 * by pos first. */
static void expand_local(ft_ctx *ctx, ast_stmt *def, ast_expr *trip, const ast_expr *pos)
{
    int nd = def->u.def.ndim;
    ast_expr **shape = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(nd + 1));
    shape[0] = trip;
    for (int k = 0; k < nd; k++)
        shape[k + 1] = def->u.def.shape[k];
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *a = acc.items[i];
        ast_expr **idx = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(*a->n + 1));
        idx[0] = ast_clone_expr(ctx, pos);
        for (int k = 0; k < *a->n; k++)
            idx[k + 1] = (*a->idx)[k];
        *a->idx = idx;
        *a->n += 1;
    }
    def->u.def.shape = shape;
    def->u.def.ndim = nd + 1;
}

/* Move the locals defs (loop's body, outermost first) around loop, each
 * expanded over its iterations; returns the loop (same ID, new node: the
 * old node now holds the outermost local), NULL after an error. */
static ast_stmt *expand_locals(ft_ctx *ctx, ast_stmt *loop, ft_vec *defs, const char *what,
                               ft_loc loc)
{
    const ast_expr *step = loop->u.loop.step;
    if (step->kind != AST_INT || step->u.ival != 1) {
        ft_error(ctx, loc, "cannot %s: expanding a local over a loop whose step is not 1 "
                 "(not supported yet)", what);
        return NULL;
    }
    for (int i = 0; i < defs->len; i++)
        if (!expandable(ctx, loop, defs->items[i], what, loc))
            return NULL;
    ast_expr *pos = ast_var(ctx, loop->loc, loop->u.loop.iter);
    if (!xf_loop_from_zero(loop))
        pos = ast_binary(ctx, loop->loc, AST_SUB, pos, ast_clone_expr(ctx, loop->u.loop.begin));
    ast_stmt *inner = defs->items[defs->len - 1];
    ast_stmt *nl = ft_alloc(ctx, sizeof *nl);
    *nl = *loop;
    nl->u.loop.body = inner->u.def.body;
    inner->u.def.body = nl;
    for (int i = 0; i < defs->len; i++)
        expand_local(ctx, defs->items[i], xf_trip_count(ctx, loop), pos);
    *loop = *(ast_stmt *)defs->items[0];
    return nl;
}

int xf_fission(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_stmt *at_stmt, int before,
               const char *name1, const char *name2, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "fission %s %s %s", xf_sched_name(ctx, loop),
                              before ? "before" : "after", xf_sched_name(ctx, at_stmt));
    if (xf_sched_pinned(ctx, loop, what, loc))
        return 1;
    ast_stmt **items;
    int n;
    ft_vec defs = {0};
    int at = find_item(ctx, loop, at_stmt, &defs, &items, &n);
    if (at < 0) {
        ft_error(ctx, loc, "cannot %s: %s is not a statement directly in the body of %s "
                 "(or in the locals that make up its body)", what,
                 xf_sched_name(ctx, at_stmt), xf_sched_name(ctx, loop));
        return 1;
    }
    at -= before;
    if (at < 0 || at == n - 1) {
        ft_error(ctx, loc, "cannot %s: nothing %s %s in the loop", what,
                 before ? "precedes" : "follows", xf_sched_name(ctx, at_stmt));
        return 1;
    }
    if (defs.len && xf_inside_vectorized(ctx, f, loop)) {
        ft_error(ctx, loc, "cannot %s: the locals of %s's body would be expanded over it "
                 "inside a vectorized loop, which cannot hold their allocation; fission "
                 "before vectorizing", what, xf_sched_name(ctx, loop));
        return 1;
    }
    ast_stmt *saved = defs.len ? ast_clone_stmt(ctx, f->body, AST_CLONE_SAME) : NULL;
    if (defs.len && !(loop = expand_locals(ctx, loop, &defs, what, loc)))
        return 1;
    if (fission_illegal(ctx, f, loop, n, items, at, what, loc)) {
        if (saved)
            f->body = saved;                   /* undo the expansion */
        return 1;
    }
    int i0;
    ast_stmt *parent = xf_parent_seq(ctx, f->body, loop, &i0);
    ast_stmt *second = ast_for(ctx, loop->loc, loop->u.loop.iter,
                               ast_clone_expr(ctx, loop->u.loop.begin),
                               ast_clone_expr(ctx, loop->u.loop.end),
                               ast_clone_expr(ctx, loop->u.loop.step),
                               ast_seq(ctx, loop->loc, n - at - 1, items + at + 1));
    second->u.loop.par = loop->u.loop.par;
    loop->u.loop.body = ast_seq(ctx, loop->loc, at + 1, items);
    ast_stmt *copy = ft_alloc(ctx, sizeof *copy);
    *copy = *loop;                            /* the first loop keeps L's ID */
    ast_stmt *pair[2] = {copy, second};
    ast_stmt *seq = ast_seq(ctx, loop->loc, 2, pair);
    if (parent)
        parent->u.seq.stmts[i0] = seq;
    else
        *loop = *seq;                          /* not in a sequence: replace in place */
    if (name1)
        copy->label = name1;
    if (name2)
        second->label = name2;
    xf_sched_finish(ctx, f);
    return 0;
}
