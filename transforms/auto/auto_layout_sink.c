/* auto_layout_sink.c - the block loops of laid-out tensors brought inward.
 *
 * Requires: f's AST with the block loops the layout pass split off marked
 * (loop.layout_block: 1 of a tensor only read, 2 of one written), and the
 * loops over a permuted layout's innermost physical dimension (NHWC's C)
 * marked alike.
 * Provides: each marked loop moved below the loops nested perfectly in it
 * (a reorder), and where its body is then several statements (`y[o] = 0`
 * then the sum) split by fission and each part moved inward in turn; the
 * blocks only read first, so that a written block ends innermost
 * (`y[.., o] += x[.., c] * w[.., c, o]`: o contiguous in y and w), as a
 * hand-written blocked kernel has it, and the vectorizer takes it.  On
 * its way a loop goes below a guard that is all of its body when the
 * guard is pure index arithmetic free of its iterator (lift_guard: a
 * padded convolution's window test stays outside the channel loops).  A
 * refused reorder or fission (a dependence) leaves the loop where it is,
 * and so does a loop that would stride through accesses that the nest's
 * innermost loop walks contiguously (worth_sinking).
 *
 * The legality checks run outside the function's budget of analyses
 * (XF_AUTO_ANALYSES): they concern only these loops, and the later passes
 * still need theirs.
 */
#include "auto_util.h"

#include "../schedule.h"
#include "../sched_util.h"
#include "../xf_util.h"
#include "../../ast/visit.h"

static const char *const PASS = "auto_layout_sink";

/* Whether block loop b should go innermost around the body of loop in
 * (the innermost of its perfect nest, a body without loops): not when in
 * already walks every access of the body contiguously or not at all while
 * b would walk some with a stride (a 1x1 conv on NHWC with OIHW weights:
 * its channel sum reads x and w contiguously, while the output's channel
 * loop would stride through w).  Logged when not. */
static int worth_sinking(xf_auto *a, const ast_stmt *b, const ast_stmt *in)
{
    ast_stmt *body = in->u.loop.body;
    if (xf_auto_has_loop(body))
        return 1;
    xf_walks wb = xf_walks_along(a->ctx, a->f, in, body, b->u.loop.iter);
    xf_walks wi = xf_walks_along(a->ctx, a->f, in, body, in->u.loop.iter);
    if (!wb.strided || wi.strided || !wi.contiguous)
        return 1;
    xf_auto_log(a, PASS, xf_sched_name(a->ctx, b), "left in place: %s walks the accesses "
                "contiguously, %s would walk %d with a stride", in->u.loop.iter,
                b->u.loop.iter, wb.strided);
    return 0;
}

/* Move loop b inward below the loops nested perfectly inside it (each
 * one's body is only the next); whether it moved. */
static int sink_chain(xf_auto *a, ast_stmt *b)
{
    ast_stmt *chain[64], *s = b, **items;
    int n = 0;
    while (n < 64) {
        chain[n++] = s;
        if (xf_body_items(&s->u.loop.body, &items) != 1 || items[0]->kind != AST_FOR)
            break;
        s = items[0];
    }
    if (n < 2 || n == 64 || !worth_sinking(a, b, chain[n - 1]))
        return 0;
    ast_stmt *order[64];
    for (int i = 1; i < n; i++)
        order[i - 1] = chain[i];
    order[n - 1] = chain[0];
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_reorder(a->ctx, a->f, n, order, b->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    if (bad)
        xf_auto_log(a, PASS, xf_sched_name(a->ctx, b), "left in place: %s",
                    why ? why : "the reorder was refused");
    return !bad;
}

/* Whether e can be evaluated anywhere without effect: iterators, sizes
 * and constants only, no load and no division by a non-literal (which
 * could fail where the loop around it ran no iteration). */
static int pure_index(const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT: case AST_BOOLC: case AST_VAR: return 1;
    case AST_UNARY: return pure_index(e->u.un.a);
    case AST_BINARY:
        if ((e->u.bin.op == AST_FLOORDIV || e->u.bin.op == AST_MOD || e->u.bin.op == AST_DIV) &&
            e->u.bin.b->kind != AST_INT)
            return 0;
        return pure_index(e->u.bin.a) && pure_index(e->u.bin.b);
    default: return 0;
    }
}

/* When loop b's body is only `if cond: T` (no else) with cond pure and
 * free of b's iterator, swap them: `if cond: for ..: T`, so that b can
 * sink on into T (the guard of a padded convolution's window stays
 * outside the block loops).  The loop keeps its node's id.  Whether it
 * swapped. */
static int lift_guard(ast_stmt *b)
{
    ast_stmt *g = xf_only_stmt(b->u.loop.body);
    if (!g || g->kind != AST_IF || g->u.branch.other || !pure_index(g->u.branch.cond) ||
        xf_expr_uses_var(g->u.branch.cond, b->u.loop.iter))
        return 0;
    ast_stmt loop = *b, guard = *g;
    *b = guard;           /* b's node becomes the guard, g's the loop */
    b->u.branch.then = g;
    *g = loop;
    g->u.loop.body = guard.u.branch.then;
    return 1;
}

/* Bring the block loop with statement id `id` innermost where legal
 * (sink_chain), and when its body is then several statements, split it
 * (fission) and bring each part inward in turn.  By id: two nests may
 * both have a loop `i_1`. */
static int sink(xf_auto *a, int id, int depth)
{
    ast_stmt *b = xf_auto_loop_by_id(a->ctx, a->f, id);
    if (!b || depth > 4)
        return 0;
    int done = sink_chain(a, b);
    for (b = xf_auto_loop_by_id(a->ctx, a->f, id); b && lift_guard(b);
         b = xf_auto_loop_by_id(a->ctx, a->f, id)) {
        done = 1;
        sink_chain(a, xf_auto_loop_by_id(a->ctx, a->f, id));
    }
    b = xf_auto_loop_by_id(a->ctx, a->f, id);
    ast_stmt **items;
    int m = b ? xf_body_items(&b->u.loop.body, &items) : 0;
    if (m < 2)
        return done;
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    const char *second = xf_free_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_f", xf_sched_name(a->ctx, b)));
    int bad = xf_fission(a->ctx, a->f, b, items[0], 0, NULL, second, b->loc);
    ast_stmt *c = bad ? NULL : xf_find_loop(a->ctx, a->f, second, a->f->loc);
    xf_auto_quiet_end(a->ctx, &q);
    if (bad)
        return done;
    return 1 + sink(a, id, depth + 1) + (c ? sink(a, c->id, depth + 1) : 0);
}

/* Visitor: the marked loops (ids), by kind. */
typedef struct marked {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec ids[2];           /* blocks only read, blocks written */
} marked;

static int visit_marked(ast_visitor *v, ast_stmt *s)
{
    marked *m = (marked *)v;
    if (s->kind == AST_FOR && s->u.loop.layout_block)
        ft_vec_push(m->ctx, &m->ids[s->u.loop.layout_block - 1], (void *)(intptr_t)s->id);
    return 1;
}

int xf_auto_layout_sink(xf_auto *a)
{
    marked m = {{visit_marked, NULL}, a->ctx, {{0}, {0}}};
    ast_visit(a->f->body, &m.v);
    if (!m.ids[0].len && !m.ids[1].len)
        return 0;
    int budget = a->ctx->deps_budget, done = 0;
    a->ctx->deps_budget = -1;   /* outside the function's budget (above) */
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < m.ids[w].len; i++) {
            int id = (int)(intptr_t)m.ids[w].items[i];
            ast_stmt *b = xf_auto_loop_by_id(a->ctx, a->f, id);
            const char *name = b ? xf_sched_name(a->ctx, b) : NULL;
            if (sink(a, id, 0)) {
                done++;
                xf_auto_log(a, PASS, name, "block loop brought inward");
            }
        }
    a->ctx->deps_budget = budget;
    return done;
}
