/* sched_unroll.c - unroll(L): a loop with a constant trip count becomes its
 * iterations, one copy of the body each.
 *
 * Requires: f's AST.
 * Provides: the copies in a sequence in place of L, the iterator replaced by
 * its value; copies get new IDs, no labels, and their locals new names.
 *
 * Always legal (the same instances in the same order); refused for a range
 * that is not constant or longer than 1024 iterations.
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

enum { UNROLL_MAX = 1024 };

/* Give the locals declared in copy k of a body names of their own. */
static void rename_locals(ft_ctx *ctx, ast_func *f, ast_stmt *copy, int k)
{
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, copy, &defs);
    for (int i = 0; i < defs.len; i++) {
        ast_stmt *d = defs.items[i];
        const char *to = ft_fmt(ctx, "%s_u%d", d->u.def.name, k);
        while (xf_defines(f->body, to))
            to = ft_fmt(ctx, "%s_", to);
        xf_rename_tensor(ctx, d->u.def.body, d->u.def.name, to);
        d->u.def.name = to;
    }
}

int xf_unroll(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (xf_sched_pinned(ctx, loop, ft_fmt(ctx, "unroll %s", lname), loc))
        return 1;
    ast_expr *n = xf_trip_count(ctx, loop);
    const ast_expr *b = loop->u.loop.begin;
    if (!n || n->kind != AST_INT || b->kind != AST_INT) {
        ft_error(ctx, loc, "cannot unroll %s: its range is not constant", lname);
        return 1;
    }
    if (n->u.ival > UNROLL_MAX) {
        ft_error(ctx, loc, "cannot unroll %s: it runs %lld iterations (at most %d)", lname,
                 (long long)n->u.ival, UNROLL_MAX);
        return 1;
    }
    int64_t cnt = n->u.ival > 0 ? n->u.ival : 0, step = loop->u.loop.step->u.ival;
    if (!xf_sched_growth_ok(ctx, f, loop, cnt - 1, "unroll", loc))
        return 1;
    ast_stmt **copies = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(cnt ? cnt : 1));
    const char *iter = loop->u.loop.iter;
    for (int64_t k = 0; k < cnt; k++) {
        ast_stmt *c = ast_clone_stmt(ctx, loop->u.loop.body, AST_CLONE_NEW);
        ast_expr *v = ast_int(ctx, loop->loc, b->u.ival + k * step);
        ast_subst_stmt(ctx, c, 1, &iter, &v);
        rename_locals(ctx, f, c, (int)k);
        copies[k] = c;
    }
    ast_stmt *seq = ast_seq(ctx, loop->loc, (int)cnt, copies);
    seq->id = loop->id;
    *loop = *seq;
    xf_sched_finish(ctx, f);
    return 0;
}
