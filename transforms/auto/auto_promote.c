/* auto_promote.c - register promotion: a tensor element that one iteration
 * of a loop only accumulates into, at an index that does not change in the
 * iteration, summed in a scalar and added to the element once.
 *
 * Requires: f's AST after auto_zero_init (the reductions that
 * auto_parallelize made atomic, auto_red_cache's domain, and the scalar
 * sums of auto_red_scalar and auto_vectorize are settled); the C target (on
 * CUDA the pass does nothing).
 * Provides: for each loop L not vectorized, and each tensor a that L's body
 * B accesses only by reductions `a[idx] op= v` with one op and one idx,
 * when
 *   - idx reads no tensor and mentions no iterator of a loop inside B (the
 *     element is the same for the whole iteration),
 *   - there are at least two of them, or one inside a loop of B (else there
 *     is nothing to keep in a register),
 *   - none is atomic, none sits in a vectorized loop (a 0-D sum there would
 *     need auto_vectorize's reduction clause), and B does not declare a,
 * B rewritten as
 *
 *     var a_p: T                   (0-D, T a's dtype)
 *     a_p = identity(op)
 *     B, each `a[idx] op= v` as `a_p op= v`
 *     a[idx] op= a_p               (plain or per-thread copy, as they were)
 *
 * auto_red_scalar does this for one reduction of an innermost loop (to make
 * it vectorizable); this pass is the general case, in outer loops too, and
 * works for the C compiler: an element of a tensor behind a pointer is
 * loaded and stored at every update, since a store to any other float
 * array may alias it, while a 0-D local is a register.  GAT's backward
 * pass adds into d_el[i] six times per edge, in three loops over node i's
 * edges, between scatters into d_er and d_hf.
 * Legal without the dependence analysis: nothing in B reads or stores a,
 * and reductions with one op may be reordered (the language's rule, as for
 * every reduction transform); the other iterations of L see a's element as
 * before, since the flush ends each iteration.  The flush adds the
 * identity when no update ran (an empty edge range), which leaves every
 * element as it was (up to the sign of a zero).
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_promote";

/* The reductions into one tensor found under a loop body. */
typedef struct promo {
    const char *var;
    ft_vec reds;         /* the AST_REDUCE statements (ast_stmt *) */
    int in_loop;         /* one of them sits in a loop of the body */
    int in_simd;         /* one of them sits in a vectorized loop */
} promo;

/* The walk over one loop body B. */
typedef struct promo_walk {
    ft_ctx *ctx;
    ft_vec found;        /* promo * */
    int depth;           /* loops of B around the statement */
    int simd;            /* a vectorized loop of B is around it */
} promo_walk;

/* The entry of var in w->found, created when missing. */
static promo *entry(promo_walk *w, const char *var)
{
    for (int i = 0; i < w->found.len; i++) {
        promo *p = w->found.items[i];
        if (strcmp(p->var, var) == 0)
            return p;
    }
    promo *p = ft_alloc(w->ctx, sizeof *p);
    p->var = var;
    ft_vec_push(w->ctx, &w->found, p);
    return p;
}

/* Collect the reductions into tensors (with at least one index) under s. */
static void collect(promo_walk *w, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            collect(w, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: collect(w, s->u.def.body); break;
    case AST_IF:
        collect(w, s->u.branch.then);
        collect(w, s->u.branch.other);
        break;
    case AST_FOR: {
        int simd = w->simd;
        w->depth++;
        w->simd |= s->u.loop.par == AST_VECTORIZE || s->u.loop.par == AST_LIB;
        collect(w, s->u.loop.body);
        w->simd = simd;
        w->depth--;
        break;
    }
    case AST_REDUCE:
        if (s->u.red.n > 0) {
            promo *p = entry(w, s->u.red.var);
            ft_vec_push(w->ctx, &p->reds, s);
            p->in_loop |= w->depth > 0;
            p->in_simd |= w->simd;
        }
        break;
    default: break;
    }
}

/* Whether e mentions the iterator of a loop under s. */
static int uses_inner_iter(const ast_stmt *s, const ast_expr *e)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (uses_inner_iter(s->u.seq.stmts[i], e))
                return 1;
        return 0;
    case AST_VARDEF: return uses_inner_iter(s->u.def.body, e);
    case AST_IF: return uses_inner_iter(s->u.branch.then, e) ||
                        uses_inner_iter(s->u.branch.other, e);
    case AST_FOR:
        return xf_expr_uses_var(e, s->u.loop.iter) || uses_inner_iter(s->u.loop.body, e);
    default: return 0;
    }
}

/* Why p's reductions under body may not share a scalar (NULL: they may). */
static const char *why_not(const ast_stmt *body, const promo *p)
{
    const ast_stmt *r0 = p->reds.items[0];
    if (p->reds.len < 2 && !p->in_loop)
        return "one update, in no loop";
    if (p->in_simd)
        return "in a vectorized loop";    /* auto_vectorize's (not logged) */
    xf_uses u = xf_count_uses(body, p->var);
    if (u.loads || u.stores)
        return "the body also reads or stores it";
    if (xf_defines(body, p->var))
        return "the body declares it";
    for (int i = 0; i < p->reds.len; i++) {
        const ast_stmt *r = p->reds.items[i];
        if (r->u.red.atomic == AST_RED_ATOMIC || r->u.red.atomic != r0->u.red.atomic)
            return "an update is atomic";
        if (r->u.red.op != r0->u.red.op)
            return "updates with different operators";
        for (int k = 0; k < r->u.red.n; k++)
            if (!ast_expr_equal(r->u.red.idx[k], r0->u.red.idx[k]))
                return "updates of different elements";
    }
    for (int k = 0; k < r0->u.red.n; k++) {
        if (xf_expr_has_load(r0->u.red.idx[k]))
            return "its index reads a tensor";
        if (uses_inner_iter(body, r0->u.red.idx[k]))
            return "its element changes in an inner loop";
    }
    return NULL;
}

/* Promote p's element in the body of loop l (why_not said yes). */
static void promote(xf_auto *a, ast_stmt *l, const promo *p, ft_dtype dt)
{
    ft_ctx *ctx = a->ctx;
    ast_stmt *r0 = p->reds.items[0];
    ft_loc loc = r0->loc;
    const char *acc = xf_free_name(ctx, a->f, ft_fmt(ctx, "%s_p", p->var));
    ast_stmt *flush = ast_reduce(ctx, loc, r0->u.red.op, p->var, r0->u.red.n, r0->u.red.idx,
                                 ast_load(ctx, loc, acc, dt, 0, NULL));
    flush->u.red.atomic = r0->u.red.atomic;
    ast_reduce_op op = r0->u.red.op;
    for (int i = 0; i < p->reds.len; i++) {
        ast_stmt *r = p->reds.items[i];
        r->u.red.var = acc;
        r->u.red.n = 0;
        r->u.red.idx = NULL;
        r->u.red.atomic = AST_RED_PLAIN;
    }
    ast_stmt *items[3] = {ast_store(ctx, loc, acc, 0, NULL, xf_red_identity(ctx, loc, op, dt)),
                          l->u.loop.body, flush};
    l->u.loop.body = ast_vardef(ctx, loc, acc, dt, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                                ast_seq(ctx, loc, 3, items));
    xf_auto_log(a, PASS, xf_auto_name(a, l), "%d updates of an element of %s summed in the "
                "scalar %s, added to it once per iteration", p->reds.len, p->var, acc);
}

/* Promote what qualifies in the body of loop l; the number promoted. */
static int promote_loop(xf_auto *a, ast_stmt *l)
{
    promo_walk w = {.ctx = a->ctx};
    collect(&w, l->u.loop.body);
    int n = 0;
    for (int i = 0; i < w.found.len; i++) {
        promo *p = w.found.items[i];
        const char *why = why_not(l->u.loop.body, p);
        ft_dtype dt;
        if (why || !xf_find_decl(a->ctx, a->f, l, p->var, &dt, NULL, NULL)) {
            if (why && (p->reds.len >= 2 || p->in_loop) && !p->in_simd &&
                strcmp(why, "its index reads a tensor") != 0)   /* a scatter: common */
                xf_auto_log(a, PASS, xf_auto_name(a, l), "%s not promoted: %s", p->var, why);
            continue;
        }
        promote(a, l, p, dt);
        n++;
    }
    return n;
}

/* The pass (see the file comment); the number of elements promoted. */
int xf_auto_promote(xf_auto *a)
{
    /* outer loops first: an element promoted in an outer loop's body is a
     * 0-D local in the inner ones */
    int n = xf_auto_each_loop(a, a->f->body, promote_loop);
    if (n)
        xf_sched_finish(a->ctx, a->f);
    return n;
}
