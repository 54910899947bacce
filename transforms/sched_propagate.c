/* sched_propagate.c - propagate(t): t's layout carried to its element-wise
 * neighbours, whose loops are rebuilt to follow it.
 *
 * Requires: f's AST; t a local whose layout schedule lines changed
 * (var_split, var_reorder, var_merge: ast_stmt's def.lsteps).
 * Provides: every local u that a Store reads from t element-wise (a
 * consumer: `u[i, j, ...] = g(t[i, j, ...], ...)`) or that a Store into t
 * reads element-wise (a producer), of t's shape before its layout changed,
 * gets t's layout steps replayed (the same primitives, so every access of u
 * is rewritten), and the loop nest of that Store follows the layout
 * (follow_layout), as does the nest that first writes t: producer,
 * t and consumers then walk their elements in one order and the
 * auto-scheduler's fusion can join them.  It goes on from each neighbour
 * that took the layout.  conv -> bias -> relu, with the conv's output in
 * NHWC (`var_reorder(a, [0, 2, 3, 1])`): the bias and relu locals take
 * NHWC too and their nests run n, h, w, c, with no conversion between.
 *
 * It stops, and says so with -v, at: a parameter (its layout is the ABI:
 * the accesses convert there), a reduction (`+=`), another shape (a
 * broadcast), a local with a layout of its own, a Store that does not read
 * the neighbour at the element it writes (after replaying, the two index
 * lists differ), a nest that follow_layout refuses; and it does nothing
 * for a layout with var_pad or var_unfold in it or a tensor attached to
 * it (padding and overlapping tiles are properties of one tensor's reads,
 * not of its neighbours).  Each stop leaves that neighbour as it
 * was.  Refused: t not a local, or a local without layout steps.
 */
#include "schedule.h"

#include <stdio.h>
#include <string.h>

#include "sched_util.h"
#include "visit.h"
#include "xf_util.h"

/* Diagnostics of primitives tried on the way, kept out of the output. */
typedef struct quiet {
    FILE *saved, *sink;
    char *buf;
    size_t len;
    int nerrors;
} quiet;

static void quiet_begin(ft_ctx *ctx, quiet *q)
{
    q->saved = ctx->diag_out;
    q->nerrors = ctx->nerrors;
    q->buf = NULL;
    q->sink = open_memstream(&q->buf, &q->len);
    if (q->sink)
        ctx->diag_out = q->sink;
}

/* End quiet_begin: 1 when no error came in between. */
static int quiet_end(ft_ctx *ctx, quiet *q)
{
    int ok = ctx->nerrors == q->nerrors;
    if (q->sink)
        fclose(q->sink);
    free(q->buf);
    ctx->diag_out = q->saved;
    ctx->nerrors = q->nerrors;
    return ok;
}

/* Replay steps on local name; 0 after a refusal. */
static int replay(ft_ctx *ctx, ast_func *f, const char *name, int n, const ast_lstep *steps,
                  ft_loc loc)
{
    for (int i = 0; i < n; i++) {
        const ast_lstep *s = &steps[i];
        int r = s->kind == AST_LSTEP_SPLIT ? xf_var_split(ctx, f, name, s->dim, s->a, s->b, loc)
              : s->kind == AST_LSTEP_REORDER ? xf_var_reorder(ctx, f, name, s->n, s->perm, loc)
              : s->kind == AST_LSTEP_MERGE ? xf_var_merge(ctx, f, name, s->dim, loc) : 1;
        if (r)
            return 0;
    }
    return 1;
}

/* The Stores of f that read and write two tensors (one of them t). */
typedef struct pairs {
    ast_visitor v;
    ft_ctx *ctx;
    const char *t;
    ft_vec stmts;
} pairs;

static int pairs_cb(ast_visitor *v, ast_stmt *s)
{
    pairs *p = (pairs *)v;
    if (s->kind == AST_STORE || s->kind == AST_REDUCE) {
        const char *w = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
        const ast_expr *val = s->kind == AST_STORE ? s->u.store.value : s->u.red.value;
        if (!strcmp(w, p->t) || xf_expr_reads(val, p->t))
            ft_vec_push(p->ctx, &p->stmts, s);
    }
    return 1;
}

/* Whether Store s accesses a and b at the same index list. */
static int same_element(const ast_stmt *s, const char *a, const char *b)
{
    const char *w = s->u.store.var;
    const char *other = !strcmp(w, a) ? b : a;
    const ast_expr *l = xf_expr_find_load(s->u.store.value, other);
    if (!l || l->u.load.n != s->u.store.n)
        return 0;
    for (int k = 0; k < l->u.load.n; k++)
        if (!ast_expr_equal(l->u.load.idx[k], s->u.store.idx[k]))
            return 0;
    return 1;
}

/* The outermost loop of f around s, or NULL. */
static ast_stmt *outer_loop(ft_ctx *ctx, ast_func *f, const ast_stmt *s)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = 0; i < anc.len; i++)
        if (((ast_stmt *)anc.items[i])->kind == AST_FOR)
            return anc.items[i];
    return NULL;
}

/* Say with -v why propagation (of origin's layout) stops at u. */
static void stop(ft_ctx *ctx, const char *origin, const char *u, const char *why)
{
    if (ctx->opts.verbose)
        fprintf(ctx->diag_out, "ftc: propagate(%s): stops at %s: %s\n", origin, u, why);
}

/* Whether follow_layout(l, t) is accepted (l NULL: nothing to follow),
 * its diagnostics kept out of the output; the caller restores f when
 * not. */
static int follows(ft_ctx *ctx, ast_func *f, ast_stmt *l, const char *t, ft_loc loc)
{
    quiet q;
    quiet_begin(ctx, &q);
    int ok = !l || !xf_follow_layout(ctx, f, l, t, loc);
    return quiet_end(ctx, &q) && ok;
}

/* Whether two shapes are the same expressions. */
static int same_shape(int n, ast_expr **a, int m, ast_expr **b)
{
    if (n != m)
        return 0;
    for (int k = 0; k < n; k++)
        if (!ast_expr_equal(a[k], b[k]))
            return 0;
    return 1;
}

/* Give neighbour u (seen through Store s from t, whose steps and original
 * shape come from def) t's layout; 1 when it took it. */
static int carry(ft_ctx *ctx, ast_func *f, const ast_stmt *def, const char *t, const char *u,
                 ast_stmt *s, ft_loc loc)
{
    ast_expr **shape;
    int nd;
    if (s->kind == AST_REDUCE) {
        stop(ctx, def->u.def.name, u, "a reduction");
        return 0;
    }
    ast_stmt *udef = NULL;
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    for (int i = 0; i < defs.len; i++)
        if (!strcmp(((ast_stmt *)defs.items[i])->u.def.name, u))
            udef = defs.items[i];
    if (!udef) {
        stop(ctx, def->u.def.name, u,
             "a parameter (its layout is the ABI: the accesses convert there)");
        return 0;
    }
    shape = udef->u.def.shape;
    nd = udef->u.def.ndim;
    if (udef->u.def.nlsteps) {
        stop(ctx, def->u.def.name, u, "it has a layout of its own");
        return 0;
    }
    if (!same_shape(nd, shape, def->u.def.orig_ndim, def->u.def.orig_shape)) {
        stop(ctx, def->u.def.name, u, "another shape (a broadcast)");
        return 0;
    }
    ast_stmt *before = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
    quiet q;
    quiet_begin(ctx, &q);
    int ok = replay(ctx, f, u, def->u.def.nlsteps, def->u.def.lsteps, loc);
    ok = quiet_end(ctx, &q) && ok;
    if (ok && !same_element(s, t, u)) {
        stop(ctx, def->u.def.name, u,
             "the Store between it and its neighbour does not read the element it writes");
        ok = 0;
    } else if (ok) {
        ok = follows(ctx, f, outer_loop(ctx, f, s), t, loc);
        if (!ok)
            stop(ctx, def->u.def.name, u, "follow_layout refuses the nest between them");
    }
    if (!ok) {
        f->body = before;
        return 0;
    }
    if (ctx->opts.verbose)
        fprintf(ctx->diag_out, "ftc: propagate(%s): %s takes its layout (through %s)\n",
                def->u.def.name, u, t);
    return 1;
}

/* The nest that first writes local u (t or a neighbour that took its
 * layout) made to follow it, when follow_layout accepts (-v says when
 * not); a parameter's is left alone. */
static void follow_writer(ft_ctx *ctx, ast_func *f, const char *t, const char *u, ft_loc loc)
{
    pairs p = {.v.stmt = pairs_cb, .ctx = ctx, .t = u};
    ast_visit(f->body, &p.v);
    for (int i = 0; i < p.stmts.len; i++) {
        ast_stmt *s = p.stmts.items[i];
        if (s->kind != AST_STORE || strcmp(s->u.store.var, u))
            continue;
        ast_stmt *before = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
        if (!follows(ctx, f, outer_loop(ctx, f, s), u, loc)) {
            f->body = before;
            stop(ctx, t, u, "follow_layout refuses the nest that writes it");
        }
        return;
    }
}

/* The next neighbour of t not in done: a tensor *u that Store or Reduce
 * *at writes from t or reads into t; 0 when there is none.  Found anew
 * each time: carrying a layout rewrites (or restores) f's statements. */
static int next_neighbour(ft_ctx *ctx, ast_func *f, const char *t, const ft_vec *done,
                          ast_stmt **at, const char **u)
{
    pairs p = {.v.stmt = pairs_cb, .ctx = ctx, .t = t};
    ast_visit(f->body, &p.v);
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    for (int i = 0; i < p.stmts.len; i++) {
        ast_stmt *s = p.stmts.items[i];
        const char *w = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
        const ast_expr *val = s->kind == AST_STORE ? s->u.store.value : s->u.red.value;
        for (int d = -1; d < defs.len; d++) {
            const char *c = d < 0 ? w : ((ast_stmt *)defs.items[d])->u.def.name;
            if (d >= 0 && (strcmp(w, t) || !xf_expr_reads(val, c)))
                continue;
            int seen = !strcmp(c, t);
            for (int k = 0; k < done->len; k++)
                seen |= !strcmp(done->items[k], c);
            if (!seen) {
                *at = s;
                *u = c;
                return 1;
            }
        }
    }
    return 0;
}

int xf_propagate(ft_ctx *ctx, ast_func *f, const char *var, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "propagate", loc);
    if (!def)
        return 1;
    if (!def->u.def.nlsteps) {
        ft_error(ctx, loc, "cannot propagate '%s': no schedule line changed its layout "
                 "(var_split, var_reorder, var_merge first)", var);
        return 1;
    }
    for (int i = 0; i < def->u.def.nlsteps; i++) {
        ast_lstep_kind k = def->u.def.lsteps[i].kind;
        if (k == AST_LSTEP_PAD || k == AST_LSTEP_UNFOLD || k == AST_LSTEP_ATTACH) {
            stop(ctx, var, "every neighbour",
                 k == AST_LSTEP_PAD ? "its layout has var_pad in it"
                 : k == AST_LSTEP_UNFOLD ? "its layout has var_unfold in it"
                                         : "another tensor is attached to it");
            return 0;
        }
    }
    ft_vec todo = {0}, done = {0};
    ft_vec_push(ctx, &todo, (void *)def->u.def.name);
    ft_vec_push(ctx, &done, (void *)def->u.def.name);
    while (todo.len) {
        const char *t = todo.items[--todo.len], *u = NULL;
        ast_stmt *at = NULL;
        while (next_neighbour(ctx, f, t, &done, &at, &u)) {
            ft_vec_push(ctx, &done, (void *)u);
            if (carry(ctx, f, def, t, u, at, loc))
                ft_vec_push(ctx, &todo, (void *)u);
        }
    }
    for (int d = 0; d < done.len; d++)
        follow_writer(ctx, f, var, done.items[d], loc);
    return 0;
}
