/* sched_blend.c - blend(L): unroll a short constant loop and interleave the
 * statements of its iterations.
 *
 * Requires: f's AST.
 * Provides, for `for i in range(2): f(i); g(i)`, `f(0); f(1); g(0); g(1)`;
 * a statement of the body that is a loop whose range does not use i is kept
 * once and blended inside (`for i in range(2): for j in range(4): f(i, j)`
 * becomes `for j in range(4): f(0, j); f(1, j)`), down to the statements
 * that are not such loops, which are copied once per iteration (new IDs, no
 * labels, locals renamed as by unroll).
 *
 * Legality: a statement reached through m kept loops runs, in the new
 * order, with L's iterator moved after its position in the innermost kept
 * loop (time coordinates (i, k0, j1, k1, .., jm, km) become (k0, j1, .., km,
 * i)), and that order must keep every dependence (xf_check_order).  The
 * range must be constant, of at most 64 iterations.
 */
#include "schedule.h"

#include "sched_util.h"
#include "xf_util.h"

enum { BLEND_MAX = 64 };

typedef struct blend_state {
    ft_ctx *ctx;
    ast_func *f;
    const char *iter;
    int64_t begin, step, cnt;
    int depth;               /* loops around L */
    int dims;                /* time dimensions of the analysis */
    ft_vec maps;             /* xf_remap *, one per copied statement */
} blend_state;

/* Give the locals declared in copy k names of their own (as unroll). */
static void rename_locals(ft_ctx *ctx, ast_func *f, ast_stmt *copy, int64_t k)
{
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, copy, &defs);
    for (int i = 0; i < defs.len; i++) {
        ast_stmt *d = defs.items[i];
        const char *to = ft_fmt(ctx, "%s_b%lld", d->u.def.name, (long long)k);
        while (xf_defines(f->body, to))
            to = ft_fmt(ctx, "%s_", to);
        xf_rename_tensor(ctx, d->u.def.body, d->u.def.name, to);
        d->u.def.name = to;
    }
}

/* Note the new order of the statements inside item, reached through m
 * kept loops. */
static void add_remap(blend_state *st, ast_stmt *item, int m)
{
    const char **out = ft_alloc(st->ctx, sizeof(char *) * (size_t)(st->dims + 1));
    int p = 2 * st->depth + 1;
    for (int q = 0; q <= 2 * m && p + 1 + q < st->dims; q++)
        out[p + q] = ft_fmt(st->ctx, "t%d", p + 1 + q);
    if (p + 2 * m + 1 < st->dims)
        out[p + 2 * m + 1] = ft_fmt(st->ctx, "t%d", p);
    xf_remap *r = ft_alloc(st->ctx, sizeof *r);
    *r = (xf_remap){item, st->depth + m, xf_time_map(st->ctx, st->dims, out)};
    ft_vec_push(st->ctx, &st->maps, r);
}

/* Whether item is a loop kept once and blended inside. */
static int kept(const blend_state *st, const ast_stmt *item)
{
    return item->kind == AST_FOR && !xf_expr_uses_var(item->u.loop.begin, st->iter) &&
           !xf_expr_uses_var(item->u.loop.end, st->iter) &&
           !xf_expr_uses_var(item->u.loop.step, st->iter);
}

/* The blended form of body, m kept loops below L. */
static ast_stmt *blend_body(blend_state *st, ast_stmt *body, int m)
{
    ast_stmt **items;
    int n = xf_body_items(&body, &items);
    ft_vec out = {0};
    for (int i = 0; i < n; i++) {
        ast_stmt *it = items[i];
        if (kept(st, it)) {
            ast_stmt *l = ft_alloc(st->ctx, sizeof *l);
            *l = *it;
            l->u.loop.body = blend_body(st, it->u.loop.body, m + 1);
            ft_vec_push(st->ctx, &out, l);
            continue;
        }
        add_remap(st, it, m);
        for (int64_t k = 0; k < st->cnt; k++) {
            ast_stmt *c = ast_clone_stmt(st->ctx, it, AST_CLONE_NEW);
            ast_expr *v = ast_int(st->ctx, it->loc, st->begin + k * st->step);
            ast_subst_stmt(st->ctx, c, 1, &st->iter, &v);
            rename_locals(st->ctx, st->f, c, k);
            ft_vec_push(st->ctx, &out, c);
        }
    }
    return ast_seq(st->ctx, body->loc, out.len, (ast_stmt **)out.items);
}

int xf_blend(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "blend %s", xf_sched_name(ctx, loop));
    if (xf_sched_pinned(ctx, loop, what, loc))
        return 1;
    ast_expr *n = xf_trip_count(ctx, loop);
    const ast_expr *b = loop->u.loop.begin;
    if (!n || n->kind != AST_INT || b->kind != AST_INT) {
        ft_error(ctx, loc, "cannot %s: its range is not constant", what);
        return 1;
    }
    if (n->u.ival > BLEND_MAX) {
        ft_error(ctx, loc, "cannot %s: it runs %lld iterations (at most %d)", what,
                 (long long)n->u.ival, BLEND_MAX);
        return 1;
    }
    if (loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot %s: it is parallel", what);
        return 1;
    }
    if (!xf_sched_growth_ok(ctx, f, loop, n->u.ival - 1, "blend", loc))
        return 1;
    an_deps *d = an_func_deps(ctx, f);
    if (!d)
        return 1;
    blend_state st = {.ctx = ctx, .f = f, .iter = loop->u.loop.iter, .begin = b->u.ival,
                      .step = loop->u.loop.step->u.ival, .cnt = n->u.ival > 0 ? n->u.ival : 0,
                      .depth = xf_loop_depth_of(ctx, f, loop), .dims = d->acc->sched_dims};
    ast_stmt *seq = blend_body(&st, loop->u.loop.body, 0);
    xf_remap *maps = ft_alloc(ctx, sizeof(xf_remap) * (size_t)(st.maps.len + 1));
    for (int i = 0; i < st.maps.len; i++)
        maps[i] = *(xf_remap *)st.maps.items[i];
    int bad = xf_check_order(ctx, d, st.maps.len, maps, what, loc);
    an_deps_free(d);
    if (bad)
        return 1;
    seq->id = loop->id;
    *loop = *seq;
    xf_sched_finish(ctx, f);
    return 0;
}
