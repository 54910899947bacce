/* auto_jam.c - unroll-and-jam of a reduction nest (register blocking).
 *
 * Requires: f's AST after auto_parallelize.
 * Provides: every nest
 *
 *     for k in range(b, e):              (serial, step 1)
 *         for j in range(bj, ej):        (serial or vectorized)
 *             t[..] op= value            (one reduction)
 *
 * whose reduction target does not use k but has an index `j (+ c)` (each
 * j its own element), and whose value, indices and bounds do not read t,
 * becomes
 *
 *     for k_o in range(max(e - b, 0) // 4):
 *         for j in range(bj, ej):        (kind kept)
 *             t[..] op= value(k = b + 4 k_o)
 *             ... (k = b + 4 k_o + 1, + 2, + 3)
 *     for k in range(b + max(e - b, 0) // 4 * 4, e):   (the rest, as before)
 *         ...
 *
 * so that the C compiler loads and stores t[j] once per four products
 * instead of once per product (the matrix-vector products of SubdivNet and
 * GAT rows: `t[j] += x[k] * w[k, j]`).
 *
 * Legal without a dependence analysis: the nest writes only t, and nothing
 * in it reads t except the reduction itself, so the only order that matters
 * is the order of the updates of each element of t, which stays k = b, b +
 * 1, ... (for one j, the four statements run in k order, and the rest runs
 * after the blocks): the results are bit for bit the same.
 *
 * Left alone: constant k ranges of fewer than MIN_TRIPS iterations, nests
 * with anything else in them, and everything on the CUDA target.
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"

/* MIN_TRIPS: a shorter constant range is left to auto_unroll and gcc (with
 * at most 4 blocks, auto_unroll would copy the jammed loops). */
enum { JAM = 4, MIN_TRIPS = 5 * JAM };

static const char *const PASS = "auto_jam";

/* The only statement of a loop body (through one-item sequences), or NULL. */
static ast_stmt *only_stmt(ast_stmt *body)
{
    while (body && body->kind == AST_SEQ && body->u.seq.n == 1)
        body = body->u.seq.stmts[0];
    return body && body->kind != AST_SEQ ? body : NULL;
}

/* Whether an expression reads tensor var or uses iterator iter. */
static int uses(const ast_expr *e, const char *var, const char *iter)
{
    return e && ((var && xf_expr_reads(e, var)) || (iter && xf_expr_uses_var(e, iter)));
}

/* Whether index e is `j`, `j + c`, `c + j` or `j - c` (c without j):
 * different iterations of j touch different elements. */
static int walks(const ast_expr *e, const char *j)
{
    if (e->kind == AST_VAR)
        return strcmp(e->u.name, j) == 0;
    if (e->kind != AST_BINARY || (e->u.bin.op != AST_ADD && e->u.bin.op != AST_SUB))
        return 0;
    const ast_expr *x = e->u.bin.a, *c = e->u.bin.b;
    if (e->u.bin.op == AST_ADD && !(x->kind == AST_VAR && strcmp(x->u.name, j) == 0)) {
        x = e->u.bin.b;
        c = e->u.bin.a;
    }
    return x->kind == AST_VAR && strcmp(x->u.name, j) == 0 && !xf_expr_uses_var(c, j);
}

/* The inner loop of a nest k -> j -> reduction that may be jammed, or NULL;
 * *why: why not (for the log) when the shape is right but a rule fails. */
static ast_stmt *jam_inner(xf_auto *a, ast_stmt *k, const char **why)
{
    *why = NULL;
    ast_stmt *j = only_stmt(k->u.loop.body);
    if (k->u.loop.par != AST_SERIAL || !j || j->kind != AST_FOR ||
        (j->u.loop.par != AST_SERIAL && j->u.loop.par != AST_VECTORIZE))
        return NULL;
    ast_stmt *r = only_stmt(j->u.loop.body);
    if (!r || r->kind != AST_REDUCE)
        return NULL;
    const ast_expr *ks = k->u.loop.step, *js = j->u.loop.step;
    if ((ks && !(ks->kind == AST_INT && ks->u.ival == 1)) || (js && js->kind != AST_INT)) {
        *why = "a step is not a constant 1";
        return NULL;
    }
    const char *t = r->u.red.var, *ki = k->u.loop.iter;
    int bad = uses(r->u.red.value, t, NULL) || uses(j->u.loop.begin, t, ki) ||
              uses(j->u.loop.end, t, ki) || uses(k->u.loop.begin, t, NULL) ||
              uses(k->u.loop.end, t, NULL);
    for (int d = 0; d < r->u.red.n; d++)
        bad |= uses(r->u.red.idx[d], t, ki);
    if (bad) {
        *why = "the target is read in the nest or indexed by the outer iterator";
        return NULL;
    }
    int walk = 0;
    for (int d = 0; d < r->u.red.n; d++)
        walk |= walks(r->u.red.idx[d], j->u.loop.iter);
    if (!walk) {
        *why = "the inner loop's iterations update the same element (its order would change)";
        return NULL;
    }
    int64_t n;
    if (xf_auto_const_trips(a->ctx, k, &n) && n < MIN_TRIPS) {
        *why = ft_fmt(a->ctx, "%lld iterations", (long long)n);
        return NULL;
    }
    return j;
}

/* k_o's block: the inner loop j with its reduction copied for
 * k = b + JAM * k_o + u, u = 0 .. JAM - 1. */
static ast_stmt *jam_block(xf_auto *a, ast_stmt *k, ast_stmt *j, const char *ko)
{
    ft_ctx *ctx = a->ctx;
    ast_stmt *r = only_stmt(j->u.loop.body);
    ast_stmt **copies = ft_alloc(ctx, sizeof(ast_stmt *) * JAM);
    const char *ki = k->u.loop.iter;
    for (int u = 0; u < JAM; u++) {
        ast_expr *v = ast_binary(ctx, k->loc, AST_ADD, xf_clone_expr(ctx, k->u.loop.begin),
                                 ast_binary(ctx, k->loc, AST_ADD,
                                            ast_binary(ctx, k->loc, AST_MUL,
                                                       ast_int(ctx, k->loc, JAM),
                                                       ast_var(ctx, k->loc, ko)),
                                            ast_int(ctx, k->loc, u)));
        copies[u] = xf_clone_stmt(ctx, r, 0);
        xf_subst_stmt(ctx, copies[u], 1, &ki, &v);
    }
    ast_stmt *inner = ast_for(ctx, j->loc, j->u.loop.iter, xf_clone_expr(ctx, j->u.loop.begin),
                              xf_clone_expr(ctx, j->u.loop.end),
                              j->u.loop.step ? xf_clone_expr(ctx, j->u.loop.step)
                                             : ast_int(ctx, j->loc, 1),
                              ast_seq(ctx, j->loc, JAM, copies));
    inner->u.loop.par = j->u.loop.par;
    return inner;
}

/* Jam the nest at k (inner loop j); the loop keeps its ID as the rest. */
static void jam(xf_auto *a, ast_stmt *k, ast_stmt *j)
{
    ft_ctx *ctx = a->ctx;
    ft_loc loc = k->loc;
    const char *ko = xf_fresh_name(ctx, a->f, ft_fmt(ctx, "%s_o", k->u.loop.iter));
    ast_expr *trips = ast_binary(ctx, loc, AST_MAX,
                                 ast_binary(ctx, loc, AST_SUB, xf_clone_expr(ctx, k->u.loop.end),
                                            xf_clone_expr(ctx, k->u.loop.begin)),
                                 ast_int(ctx, loc, 0));
    ast_expr *blocks = ast_binary(ctx, loc, AST_FLOORDIV, trips, ast_int(ctx, loc, JAM));
    ast_stmt *inner = jam_block(a, k, j, ko);
    ast_stmt *outer = ast_for(ctx, loc, ko, ast_int(ctx, loc, 0), blocks, ast_int(ctx, loc, 1),
                              inner);
    ast_stmt *rest = ft_alloc(ctx, sizeof *rest);
    *rest = *k;
    rest->u.loop.begin = ast_binary(ctx, loc, AST_ADD, xf_clone_expr(ctx, k->u.loop.begin),
                                    ast_binary(ctx, loc, AST_MUL, xf_clone_expr(ctx, blocks),
                                               ast_int(ctx, loc, JAM)));
    ast_stmt **two = ft_alloc(ctx, sizeof(ast_stmt *) * 2);
    two[0] = outer;
    two[1] = rest;
    ast_stmt *seq = ast_seq(ctx, loc, 2, two);
    *k = *seq;              /* in place; the rest keeps k's ID and label */
    if (inner->u.loop.par == AST_VECTORIZE) {
        xf_auto_label_later(a, inner);
        xf_auto_label_later(a, j);
    }
}

int xf_auto_jam(xf_auto *a)
{
    if (a->ctx->opts.target_cuda)
        return 0;
    ft_vec loops = {0};
    int n = 0;
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *k = loops.items[i];
        const char *why;
        ast_stmt *j = jam_inner(a, k, &why);
        if (!j) {
            if (why)
                xf_auto_log(a, PASS, xf_auto_name(a, k), "not jammed: %s", why);
            continue;
        }
        const char *kname = xf_auto_name(a, k), *jname = xf_auto_name(a, j);
        jam(a, k, j);
        n++;
        xf_auto_log(a, PASS, kname, "unrolled by %d and jammed into %s", JAM, jname);
    }
    if (n)
        xf_sched_finish(a->ctx, a->f);
    return n;
}
