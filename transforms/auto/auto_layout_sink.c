/* auto_layout_sink.c - the block loops of laid-out tensors brought inward.
 *
 * Requires: f's AST with the block loops the layout pass split off marked
 * (loop.layout_block: 1 of a tensor only read, 2 of one written).
 * Provides: each marked loop moved below the loops nested perfectly in it
 * (a reorder), and where its body is then several statements (`y[o] = 0`
 * then the sum) split by fission and each part moved inward in turn; the
 * blocks only read first, so that a written block ends innermost
 * (`y[.., o] += x[.., c] * w[.., c, o]`: o contiguous in y and w), as a
 * hand-written blocked kernel has it, and the vectorizer takes it.  A
 * refused reorder or fission (a dependence) leaves the loop where it is.
 *
 * The legality checks run outside the function's budget of analyses
 * (XF_AUTO_ANALYSES): they concern only these loops, and the later passes
 * still need theirs.
 */
#include "auto_util.h"

#include "../schedule.h"
#include "../sched_util.h"
#include "../../ast/visit.h"

static const char *const PASS = "auto_layout_sink";

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
    if (n < 2 || n == 64)
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

/* Bring the block loop named name innermost where legal (sink_chain),
 * and when its body is then several statements, split it (fission) and
 * bring each part inward in turn. */
static int sink(xf_auto *a, const char *name, int depth)
{
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    ast_stmt *b = xf_find_loop(a->ctx, a->f, name, a->f->loc);
    xf_auto_quiet_end(a->ctx, &q);
    if (!b || depth > 4)
        return 0;
    int done = sink_chain(a, b);
    xf_auto_quiet_begin(a->ctx, &q);
    b = xf_find_loop(a->ctx, a->f, name, a->f->loc);
    ast_stmt **items;
    int m = b ? xf_body_items(&b->u.loop.body, &items) : 0;
    const char *second = xf_free_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_f", name));
    int bad = m < 2 || xf_fission(a->ctx, a->f, b, items[0], 0, NULL, second, b->loc);
    xf_auto_quiet_end(a->ctx, &q);
    if (bad)
        return done;
    return 1 + sink(a, name, depth + 1) + sink(a, second, depth + 1);
}

/* Visitor: the names of the marked loops, by kind. */
typedef struct marked {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names[2];         /* blocks only read, blocks written */
} marked;

static int visit_marked(ast_visitor *v, ast_stmt *s)
{
    marked *m = (marked *)v;
    if (s->kind == AST_FOR && s->u.loop.layout_block)
        ft_vec_push(m->ctx, &m->names[s->u.loop.layout_block - 1],
                    (void *)xf_sched_name(m->ctx, s));
    return 1;
}

int xf_auto_layout_sink(xf_auto *a)
{
    marked m = {{visit_marked, NULL}, a->ctx, {{0}, {0}}};
    ast_visit(a->f->body, &m.v);
    if (!m.names[0].len && !m.names[1].len)
        return 0;
    int budget = a->ctx->deps_budget, done = 0;
    a->ctx->deps_budget = -1;   /* outside the function's budget (above) */
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < m.names[w].len; i++)
            if (sink(a, m.names[w].items[i], 0)) {
                done++;
                xf_auto_log(a, PASS, m.names[w].items[i], "block loop brought inward");
            }
    a->ctx->deps_budget = budget;
    return done;
}
