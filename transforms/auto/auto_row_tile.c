/* auto_row_tile.c - a row that an inner loop walks and an outer loop
 * accumulates into, kept in a local one tile at a time.
 *
 * Requires: f's AST after auto_red_scalar, before auto_vectorize (the tile
 * loop it makes is vectorized there); the C target (on CUDA the pass does
 * nothing).
 * Provides: for each serial loop P whose body reaches a serial innermost
 * loop I `for i in range(N)` (from 0, step 1, N the same in every
 * iteration of P) through locals, sequences and branches only, where
 *   - every access in I of a tensor that I writes has the index `i` last
 *     and mentions i nowhere else (I writes no 0-D tensor), so instances
 *     of I's body at different i never write one element that another
 *     reads or writes;
 *   - the other statements of P's body (the prefix: `pos = j + ...`,
 *     `d_t = d_dot[p]`) hold no loop, write only locals declared in P's
 *     body and access no tensor that I writes, so they compute the same
 *     values when run again;
 *   - some tensor written in I has every index but the last the same in
 *     all of P (a row accumulated across P: Longformer's
 *     `d_q[h, j, i] += d_t * k[h, pos, i]` over the window p) and some
 *     access in I does change with P (a streamed row);
 *   - P's trip count is a constant of at least MIN_TRIPS (each tile is
 *     filled and flushed once per run of P: few or unknown iterations, a
 *     matrix product's k over in_feats or a CSR row's edges, would not
 *     repay that, and those nests belong to auto_use_lib, auto_jam and
 *     auto_promote), and N is not a constant below 2 TILE;
 * the nest becomes
 *
 *     for i_t in range(N // TILE):
 *         P, with I over range(TILE) (iterator i_i, i = i_t * TILE + i_i)
 *     P, with I over range(N // TILE * TILE, N)      (a copy: the rest)
 *
 * and, in the first, each tensor all of whose accesses in P are in I,
 * with every index but the last the same in all of P, is cached over P (xf_cache: a local of
 * TILE elements filled before P and, when written, flushed after it).
 * Legal: instances at different i never touch one element, and those of
 * one tile keep their order; the prefix is recomputed per tile.  Index
 * checks in I must not depend on i (xf_loop_checks_hoistable, as for
 * vectorizing I): the first failing check is then the same one, though
 * the elements written before it differ (the other tiles of the earlier
 * iterations of P have not run).
 * Why: the accumulated row then stays in a local (registers and L1) while
 * P streams the other rows; Longformer's backward (2 of every 3 stores of
 * its window loop went to d_q's row) and forward (y's row) ran 1.20x and
 * 1.03x faster (CPU time, 2 threads, bench size); tiles of 512 B and 2 KB
 * gained less (1.02x to 1.14x single-threaded against 1.14x to 1.19x).
 */
#include "auto_util.h"

#include <string.h>

#include "../schedule.h"
#include "../sched_util.h"
#include "../xf_checks.h"
#include "../xf_util.h"

enum { TILE_BYTES = 1024, MIN_TRIPS = 16 };

static const char *const PASS = "auto_row_tile";

/* What try_loop learns about a candidate nest. */
typedef struct rt_nest {
    ast_stmt *p;          /* the outer loop P */
    ast_stmt *inner;      /* the innermost loop I */
    ft_vec written;       /* tensors written in I */
    ft_vec fixed;         /* tensors whose every access in P is in I, fixed in P */
    int acc_row;          /* some tensor written in I is in fixed */
    int streamed;         /* some access in I changes with P */
} rt_nest;

/* Whether every access under I's body of a tensor that I writes has index
 * `i` last and i nowhere else (0-D tensors are only read there); *why says
 * what is not so. */
static int accesses_by_last(xf_auto *a, ast_stmt *inner, const char **why)
{
    ft_ctx *ctx = a->ctx;
    const char *it = inner->u.loop.iter;
    ft_vec names = {0};
    xf_stmt_written(ctx, inner->u.loop.body, &names);
    for (int t = 0; t < names.len; t++) {
        const char *var = names.items[t];
        ft_vec acc = {0};
        xf_collect_accesses(ctx, inner->u.loop.body, var, &acc);
        for (int k = 0; k < acc.len; k++) {
            xf_access *x = acc.items[k];
            int n = *x->n;
            if (n == 0) {
                *why = ft_fmt(ctx, "it writes the scalar %s", var);
                return 0;
            }
            ast_expr **idx = *x->idx;
            int ok = idx[n - 1]->kind == AST_VAR && strcmp(idx[n - 1]->u.name, it) == 0;
            for (int d = 0; d < n - 1 && ok; d++)
                ok = !xf_expr_uses_var(idx[d], it);
            if (!ok) {
                *why = ft_fmt(ctx, "an access of %s does not have %s as its last index only",
                              var, it);
                return 0;
            }
        }
    }
    return 1;
}

/* Whether the statements of s outside inner (the prefix) hold no loop,
 * write only locals declared under p's body and access nothing of
 * written; *why says what is not so. */
static int prefix_ok(xf_auto *a, ast_stmt *p, ast_stmt *s, const ast_stmt *inner,
                     const ft_vec *written, const char **why)
{
    if (!s || s == inner)
        return 1;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (!prefix_ok(a, p, s->u.seq.stmts[i], inner, written, why))
                return 0;
        return 1;
    case AST_VARDEF: return prefix_ok(a, p, s->u.def.body, inner, written, why);
    case AST_IF:
        for (int t = 0; t < written->len; t++)
            if (xf_expr_reads(s->u.branch.cond, written->items[t])) {
                *why = ft_fmt(a->ctx, "a condition reads %s, which the inner loop writes",
                              (const char *)written->items[t]);
                return 0;
            }
        return prefix_ok(a, p, s->u.branch.then, inner, written, why) &&
               prefix_ok(a, p, s->u.branch.other, inner, written, why);
    case AST_FOR: *why = "another loop is in its body"; return 0;
    case AST_ASSERT: *why = "its body holds an assert"; return 0;
    default: break;
    }
    for (int t = 0; t < written->len; t++)
        if (xf_accesses(s, written->items[t])) {
            *why = ft_fmt(a->ctx, "a statement besides the inner loop accesses %s",
                          (const char *)written->items[t]);
            return 0;
        }
    ft_vec w = {0};
    xf_stmt_written(a->ctx, s, &w);
    for (int t = 0; t < w.len; t++)
        if (!xf_defines(p->u.loop.body, w.items[t])) {
            *why = ft_fmt(a->ctx, "a statement besides the inner loop writes %s, declared "
                          "outside it", (const char *)w.items[t]);
            return 0;
        }
    return 1;
}

/* Whether every access of var under s (in loop inner) is a row element
 * var[..., i] (i, inner's iterator, last and nowhere else). */
static int by_row(const ast_stmt *inner, ft_ctx *ctx, ast_stmt *s, const char *var)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, var, &acc);
    for (int k = 0; k < acc.len; k++) {
        xf_access *x = acc.items[k];
        int n = *x->n;
        ast_expr **idx = *x->idx;
        if (n == 0 || idx[n - 1]->kind != AST_VAR || strcmp(idx[n - 1]->u.name, inner->u.loop.iter))
            return 0;
        for (int d = 0; d < n - 1; d++)
            if (xf_expr_uses_var(idx[d], inner->u.loop.iter))
                return 0;
    }
    return 1;
}

/* Whether every index but the last of every access of var under s is the
 * same in all iterations of p. */
static int fixed_in(xf_auto *a, ast_stmt *p, ast_stmt *s, const char *var)
{
    ft_vec acc = {0};
    xf_collect_accesses(a->ctx, s, var, &acc);
    for (int k = 0; k < acc.len; k++) {
        xf_access *x = acc.items[k];
        for (int d = 0; d < *x->n - 1; d++)
            if (!xf_expr_invariant_in(a->ctx, p, (*x->idx)[d]))
                return 0;
    }
    return 1;
}

/* Classify the rows that I's body walks (see rt_nest). */
static void classify(xf_auto *a, rt_nest *n)
{
    ft_vec names = {0};
    xf_stmt_loaded(a->ctx, n->inner->u.loop.body, &names);
    xf_stmt_written(a->ctx, n->inner->u.loop.body, &names);
    for (int t = 0; t < names.len; t++) {
        const char *var = names.items[t];
        xf_uses in = xf_count_uses(n->inner->u.loop.body, var);
        xf_uses all = xf_count_uses(n->p->u.loop.body, var);
        int only_here = in.loads == all.loads && in.stores == all.stores &&
                        in.reduces == all.reduces;
        if (in.loads + in.stores + in.reduces == 0)
            continue;
        int ndim = 0;
        if (!xf_find_decl(a->ctx, a->f, n->inner, var, NULL, &ndim, NULL) || ndim == 0 ||
            !by_row(n->inner, a->ctx, n->inner->u.loop.body, var))
            continue;          /* not a row walked by i (t[p]): neither kind */
        if (fixed_in(a, n->p, n->inner->u.loop.body, var)) {
            if (only_here && !xf_defines(n->p, var)) {
                ft_vec_push(a->ctx, &n->fixed, (void *)var);
                if (xf_has_name(&n->written, var))
                    n->acc_row = 1;
            }
        } else
            n->streamed = 1;
    }
}

/* The innermost loop under p's body that the path from p reaches through
 * locals, sequences and branches only, when there is exactly one loop
 * under p's body; else NULL. */
static ast_stmt *only_inner(ast_stmt *s, int *nloops)
{
    if (!s)
        return NULL;
    ast_stmt *r = NULL, *x;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if ((x = only_inner(s->u.seq.stmts[i], nloops)))
                r = x;
        return r;
    case AST_VARDEF: return only_inner(s->u.def.body, nloops);
    case AST_IF:
        r = only_inner(s->u.branch.then, nloops);
        x = only_inner(s->u.branch.other, nloops);
        return r ? r : x;
    case AST_FOR: (*nloops)++; return s;
    default: return NULL;
    }
}

/* Give the loops of the flush of buf (under s, the loops of buf's
 * iterators that write var) iterators of their own: the fill's loops have
 * the same names, and the printed `schedule` block must name each loop
 * (a label given now would not survive the removal of the one-iteration
 * loops of buf's unit dimensions). */
static void rename_flush(xf_auto *a, ast_stmt *s, const char *var, const char *buf)
{
    ft_vec loops = {0}, up = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    size_t nb = strlen(buf);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *l = loops.items[i];
        up.len = 0;
        if (strncmp(l->u.loop.iter, buf, nb) != 0 || !xf_writes(l, var) ||
            !xf_ancestors(a->ctx, s, l, &up))
            continue;
        const char *old = l->u.loop.iter;
        const char *nw = xf_free_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_w", old));
        ast_expr *e = ast_var(a->ctx, l->loc, nw);
        ast_subst_stmt(a->ctx, l->u.loop.body, 1, &old, &e);
        l->u.loop.iter = nw;
    }
}

/* Rewrite the nest (see the file comment): P becomes the loop over whole
 * tiles, in which the rows of n->fixed are cached, followed by a copy of
 * P over the rest of I's range (their IDs in ids); 1 when done. */
static int rewrite(xf_auto *a, rt_nest *n, int64_t tile, int ids[2])
{
    ft_ctx *ctx = a->ctx;
    ast_stmt *inner = n->inner, *p = n->p;
    ft_loc loc = inner->loc;
    ast_expr *end = inner->u.loop.end;
    ast_expr *whole = ast_binary(ctx, loc, AST_FLOORDIV, ast_clone_expr(ctx, end),
                                 ast_int(ctx, loc, tile));
    ast_stmt *rest = ast_clone_stmt(ctx, p, AST_CLONE_NEW);
    int nloops = 0;
    ast_stmt *rest_inner = only_inner(rest->u.loop.body, &nloops);
    rest_inner->u.loop.begin = xf_mul(ctx, ast_clone_expr(ctx, whole), ast_int(ctx, loc, tile));
    const char *io = xf_new_loop_name(ctx, a->f, NULL, inner->u.loop.iter, "_t");
    const char *ii = xf_new_loop_name(ctx, a->f, NULL, inner->u.loop.iter, "_i");
    const char *iter = inner->u.loop.iter;
    ast_expr *at = xf_add(ctx, xf_mul(ctx, ast_var(ctx, loc, io), ast_int(ctx, loc, tile)),
                          ast_var(ctx, loc, ii));
    ast_subst_stmt(ctx, inner->u.loop.body, 1, &iter, &at);
    inner->u.loop.iter = ii;       /* a constant range: vectorized whole */
    inner->u.loop.begin = ast_int(ctx, loc, 0);
    inner->u.loop.end = ast_int(ctx, loc, tile);
    ast_stmt *moved = ft_alloc(ctx, sizeof *moved);
    *moved = *p;
    ast_stmt *items[2] = {ast_for(ctx, p->loc, io, ast_int(ctx, loc, 0), whole,
                                  ast_int(ctx, loc, 1), moved), rest};
    *p = *ast_seq(ctx, p->loc, 2, items);
    ids[0] = items[0]->id;
    ids[1] = rest->id;
    for (int t = 0; t < n->fixed.len; t++) {
        const char *var = n->fixed.items[t];
        const char *buf = xf_fresh_name(ctx, a->f, ft_fmt(ctx, "%s_c", var));
        xf_quiet q;
        xf_auto_quiet_begin(ctx, &q);
        int bad = xf_cache(ctx, a->f, moved, var, FT_MT_CPU, 0, NULL, NULL, buf, moved->loc);
        const char *why = xf_auto_quiet_end(ctx, &q);
        if (bad) {
            xf_auto_log(a, PASS, xf_auto_name(a, moved), "%s not cached: %s", var, why);
            return 0;
        }
        rename_flush(a, items[0], var, buf);
    }
    return 1;
}

/* Label loop id and every loop under it (the tile loop with the cache's
 * fill and flush loops, or the copy for the rest), once the pass has
 * simplified the function, when its iterator names other loops too, so that the printed
 * `schedule` block names each one (the fill and flush loops of a cache
 * share their iterator's name). */
static void label_loops(xf_auto *a, int id)
{
    ast_stmt *s = xf_auto_loop_by_id(a->ctx, a->f, id);
    if (!s)
        return;
    ft_vec loops = {0}, up = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        up.len = 0;
        if (loops.items[i] == s || xf_ancestors(a->ctx, s, loops.items[i], &up))
            xf_auto_label(a, loops.items[i]);
    }
}

/* Try loop p as P; 1 when its nest was rewritten (the IDs of the tile
 * loop and of the copy for the rest pushed on made).  Logs a refusal only for
 * a nest whose inner loop accumulates a row fixed in p (the interesting
 * ones). */
static int try_loop(xf_auto *a, ast_stmt *p, ft_vec *made)
{
    ft_ctx *ctx = a->ctx;
    int nloops = 0, deeper = 0;
    ast_stmt *inner = only_inner(p->u.loop.body, &nloops);
    if (inner)
        only_inner(inner->u.loop.body, &deeper);
    int64_t c;
    if (p->u.loop.par != AST_SERIAL || nloops != 1 || !inner || deeper ||
        inner->u.loop.par != AST_SERIAL ||
        !xf_loop_from_zero(inner) ||
        (xf_stmt_checked(inner->u.loop.body) && !xf_loop_checks_hoistable(ctx, inner)))
        return 0;
    rt_nest n = {p, inner, {0}, {0}, 0, 0};
    xf_stmt_written(ctx, inner->u.loop.body, &n.written);
    classify(a, &n);
    if (!n.acc_row)
        return 0;
    const char *name = xf_auto_name(a, p), *why = NULL;
    ft_dtype dt = FT_F32;
    xf_find_decl(ctx, a->f, inner, n.fixed.items[0], &dt, NULL, NULL);
    int64_t tile = TILE_BYTES / (dt == FT_F64 || dt == FT_I64 ? 8 : 4);
    int64_t pc;
    if (!n.streamed)
        why = "no access in the inner loop changes with it (nothing streams past the row)";
    else if (!xf_auto_const_trips(ctx, p, &pc) || pc < MIN_TRIPS)
        why = ft_fmt(ctx, "its trip count is not a constant of at least %d (a tile's fill "
                     "and flush would not be repaid)", MIN_TRIPS);
    else if (xf_auto_const_trips(ctx, inner, &c) && c < 2 * tile)
        why = ft_fmt(ctx, "the inner loop's %lld iterations are fewer than two tiles of %lld",
                     (long long)c, (long long)tile);
    else if (!xf_expr_invariant_in(ctx, p, inner->u.loop.end))
        why = "the inner loop's range changes with it";
    else if (accesses_by_last(a, inner, &why) &&
             prefix_ok(a, p, p->u.loop.body, inner, &n.written, &why))
        why = NULL;
    if (why) {
        xf_auto_log(a, PASS, name, "not tiled: %s", why);
        return 0;
    }
    ast_stmt *snap = xf_auto_snapshot(a);
    const char *iname = xf_auto_name(a, inner);
    int ids[2];
    if (!rewrite(a, &n, tile, ids)) {
        xf_auto_restore(a, snap);
        return 0;
    }
    ft_vec_push(ctx, made, (void *)(intptr_t)ids[0]);
    ft_vec_push(ctx, made, (void *)(intptr_t)ids[1]);
    const char *rows = "";
    for (int t = 0; t < n.fixed.len; t++)
        rows = ft_fmt(ctx, "%s%s%s", rows, t ? ", " : "", (const char *)n.fixed.items[t]);
    xf_auto_log(a, PASS, name, "%s tiled by %lld outside it; rows of %s cached per tile",
                iname, (long long)tile, rows);
    return 1;
}

/* The pass (see the file comment); the number of nests tiled. */
int xf_auto_row_tile(xf_auto *a)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    ft_vec ids = {0}, made = {0};
    for (int i = 0; i < loops.len; i++)
        ft_vec_push(a->ctx, &ids, (void *)(intptr_t)((ast_stmt *)loops.items[i])->id);
    int n = 0;
    for (int i = 0; i < ids.len; i++) {
        ast_stmt *l = xf_auto_loop_by_id(a->ctx, a->f, (int)(intptr_t)ids.items[i]);
        if (l && try_loop(a, l, &made))
            n++;
    }
    if (n)
        xf_sched_finish(a->ctx, a->f);
    for (int i = 0; i < made.len; i++)
        label_loops(a, (int)(intptr_t)made.items[i]);
    return n;
}
