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
 * A j loop whose body is several reductions of one element (auto_fuse's
 * fused row reductions: SubdivNet's `y[i, j] += e[i, k] * w0[k, j]`, `+=
 * f1[k] * w1[k, j]`, ... after auto_sum_dest) is blocked by fewer k
 * (jam_factor: at most MAX_UPDATES updates per element in a block), and
 * its updates, in the blocks and in the rest, go through a 0-D local:
 * `acc = t[..]`, the updates of acc in their order, `t[..] = acc`.  The
 * same values in the same order (bit for bit as the loop was), but the C
 * compiler keeps acc in a register, where it stored t[..] after every
 * update: t, a parameter, may alias the tensors the updates read.  Legal
 * as above, as the statements of one k keep their order too.  So do the
 * blocks of a single reduction into a parameter (use_acc).
 *
 * The same blocking applies to the sums that auto_red_scalar accumulates in
 * scalars (a mat-vec of the transposed matrix, `d_f[k] += d_t[j] * w[k,
 * j]`, SubdivNet's backward): a nest whose k body is a list of groups
 *
 *     var r: T                           (0-D)
 *     r = init
 *     for j in range(bj, ej):            (serial or vectorized, bounds
 *         r op= value                     without k)
 *     if cond: t[..] op= r               (an index `k (+ c)`; the `if` may
 *                                         be gone: cond known to hold)
 *
 * becomes, per block of four k, per group, the four accumulators r_0 ..
 * r_3 summed in one j loop (each value(k = b + 4 k_o + u) loaded once for
 * the four) and flushed in k order, then the rest as before.  The C backend
 * sums such a loop in SIMD lanes (cg_c.c, "lane sums") and pays the sum of
 * the lanes once per k as before, but the loop's loads of the values that
 * do not depend on k (d_t[j]) and its overhead are shared by four k.
 * Legal when no value, bound or condition reads a target t, the targets
 * of the groups differ and each flush's index walks k: each element of a t
 * gets its updates in the same order (k = b, b + 1, ...; one group's
 * updates for one k), and each accumulator sums the same terms in the same
 * order.
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
/* MAX_UPDATES: a block of a nest with several updates per iteration of
 * k (auto_fuse's fused matrix-vector products into one row) jams at most
 * that many updates per element (SubdivNet, 4 products: 2 iterations of k
 * per block ran as fast as 4 or faster, a chain of 16 dependent FMAs per
 * element being long). */
enum { JAM = 4, MIN_TRIPS = 5 * JAM, MAX_UPDATES = 8 };

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

/* The reductions of j's body into *reds (arena): its statements when they
 * all are Reduces, else none; their number. */
static int body_reduces(ft_ctx *ctx, ast_stmt *j, ast_stmt ***reds)
{
    ast_stmt *one = only_stmt(j->u.loop.body), **items = &one;
    int n = 1;
    if (!one) {
        if (j->u.loop.body->kind != AST_SEQ || j->u.loop.body->label)
            return 0;
        n = xf_body_items(&j->u.loop.body, &items);
    }
    *reds = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (items[i]->kind != AST_REDUCE)
            return 0;
        (*reds)[i] = items[i];
    }
    return n;
}

/* Whether reductions r and r0 update the same element the same way: one
 * tensor, operator and index, both plain (not atomic or private). */
static int same_update(const ast_stmt *r, const ast_stmt *r0)
{
    if (strcmp(r->u.red.var, r0->u.red.var) != 0 || r->u.red.op != r0->u.red.op ||
        r->u.red.n != r0->u.red.n || r->u.red.atomic || r0->u.red.atomic)
        return 0;
    for (int d = 0; d < r->u.red.n; d++)
        if (!ast_expr_equal(r->u.red.idx[d], r0->u.red.idx[d]))
            return 0;
    return 1;
}

/* The inner loop of a nest k -> j -> reductions that may be jammed, or
 * NULL; its nred reductions in *reds.  *why: why not (for the log) when
 * the shape is right but a rule fails. */
static ast_stmt *jam_inner(xf_auto *a, ast_stmt *k, ast_stmt ***reds, int *nred,
                           const char **why)
{
    *why = NULL;
    ast_stmt *j = only_stmt(k->u.loop.body);
    if (k->u.loop.par != AST_SERIAL || !j || j->kind != AST_FOR ||
        (j->u.loop.par != AST_SERIAL && j->u.loop.par != AST_VECTORIZE))
        return NULL;
    if (k->pinned || j->pinned) {
        *why = "a loop the schedule block set before `auto`";
        return NULL;
    }
    int n = body_reduces(a->ctx, j, reds);
    if (n == 0)
        return NULL;
    ast_stmt *r = (*reds)[0];
    const ast_expr *ks = k->u.loop.step, *js = j->u.loop.step;
    if ((ks && !(ks->kind == AST_INT && ks->u.ival == 1)) || (js && js->kind != AST_INT)) {
        *why = "a step is not a constant 1";
        return NULL;
    }
    for (int i = 1; i < n; i++)
        if (!same_update((*reds)[i], r))
            return NULL;      /* several elements: left alone, as before */
    const char *t = r->u.red.var, *ki = k->u.loop.iter;
    int bad = uses(j->u.loop.begin, t, ki) || uses(j->u.loop.end, t, ki) ||
              uses(k->u.loop.begin, t, NULL) || uses(k->u.loop.end, t, NULL);
    for (int i = 0; i < n; i++)
        bad |= uses((*reds)[i]->u.red.value, t, NULL);
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
    int64_t trips;
    if (n == 1 && xf_auto_const_trips(a->ctx, k, &trips) && trips < MIN_TRIPS) {
        *why = ft_fmt(a->ctx, "%lld iterations", (long long)trips);
        return NULL;
    }
    *nred = n;
    return j;
}

/* How many iterations of k one block jams for n updates per iteration:
 * JAM for one, fewer for more (at most MAX_UPDATES updates per element
 * in a block, at least two iterations), 1 (no blocking, the accumulator
 * only) past that or for a short constant range. */
static int jam_factor(xf_auto *a, const ast_stmt *k, int n)
{
    int64_t trips;
    if (n == 1)
        return JAM;
    if (xf_auto_const_trips(a->ctx, k, &trips) && trips < MIN_TRIPS)
        return 1;
    int f = MAX_UPDATES / n;
    return f > JAM ? JAM : f < 2 ? 1 : f;
}

/* The nred reductions reds (of j's body) copied for k = b + f * k_o + u,
 * u = 0 .. f - 1 (k_o NULL: k itself, f 1) into out; their number. */
static int jam_copies(xf_auto *a, const ast_stmt *k, ast_stmt **reds, int nred, int f,
                      const char *ko, ast_stmt **out)
{
    ft_ctx *ctx = a->ctx;
    const char *ki = k->u.loop.iter;
    int n = 0;
    for (int u = 0; u < f; u++) {
        ast_expr *v = ko ? ast_binary(ctx, k->loc, AST_ADD, ast_clone_expr(ctx, k->u.loop.begin),
                                      ast_binary(ctx, k->loc, AST_ADD,
                                                 ast_binary(ctx, k->loc, AST_MUL,
                                                            ast_int(ctx, k->loc, f),
                                                            ast_var(ctx, k->loc, ko)),
                                                 ast_int(ctx, k->loc, u)))
                         : NULL;
        for (int m = 0; m < nred; m++) {
            out[n] = ast_clone_stmt(ctx, reds[m], AST_CLONE_NEW);
            if (v)
                ast_subst_stmt(ctx, out[n], 1, &ki, &v);
            n++;
        }
    }
    return n;
}

/* The n updates ups of one element t[idx] (several per iteration of the
 * inner loop) through a 0-D local: `acc = t[idx]`, the updates of acc in
 * their order, `t[idx] = acc`.  The same values in the same order, but the
 * C compiler keeps acc in a register where it would store t[idx] after
 * every update (t may alias the tensors the updates read). */
static ast_stmt *through_acc(xf_auto *a, ast_stmt **ups, int n)
{
    ft_ctx *ctx = a->ctx;
    const ast_stmt *r = ups[0];
    const char *var = r->u.red.var;
    int nidx = r->u.red.n;
    ast_expr **tidx = r->u.red.idx;
    ft_loc loc = r->loc;
    ft_dtype dt;
    if (!xf_find_decl(ctx, a->f, r, r->u.red.var, &dt, NULL, NULL))
        dt = r->u.red.value->dtype;
    const char *acc = xf_fresh_name(ctx, a->f, ft_fmt(ctx, "%s_acc", r->u.red.var));
    ast_stmt **items = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(n + 2));
    ast_expr **idx = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(r->u.red.n ? r->u.red.n : 1));
    for (int d = 0; d < r->u.red.n; d++)
        idx[d] = ast_clone_expr(ctx, r->u.red.idx[d]);
    items[0] = ast_store(ctx, loc, acc, 0, NULL,
                         ast_load(ctx, loc, r->u.red.var, dt, r->u.red.n, idx));
    for (int i = 0; i < n; i++) {
        items[i + 1] = ups[i];
        ups[i]->u.red.var = acc;
        ups[i]->u.red.n = 0;
        ups[i]->u.red.idx = NULL;
    }
    items[n + 1] = ast_store(ctx, loc, var, nidx, tidx, ast_load(ctx, loc, acc, dt, 0, NULL));
    return ast_vardef(ctx, loc, acc, dt, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                      ast_seq(ctx, loc, n + 2, items));
}

/* Whether the updates of a jammed block (reds, nred of them per k) go
 * through a 0-D local: when there are several per k, or when their target
 * is a parameter (the C compiler keeps a local's element in a register
 * itself: it knows a heap buffer of its own aliases no parameter). */
static int use_acc(const xf_auto *a, ast_stmt *const *reds, int nred)
{
    if (nred > 1)
        return 1;
    for (int p = 0; p < a->f->nparams; p++)
        if (strcmp(a->f->params[p].name, reds[0]->u.red.var) == 0)
            return !reds[0]->u.red.atomic;
    return 0;
}

/* k_o's block: the inner loop j with its reductions copied for
 * k = b + f * k_o + u, u = 0 .. f - 1 (through an accumulator when there
 * are several per iteration). */
static ast_stmt *jam_block(xf_auto *a, ast_stmt *k, ast_stmt *j, ast_stmt **reds, int nred,
                           int f, const char *ko)
{
    ft_ctx *ctx = a->ctx;
    ast_stmt **copies = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(f * nred));
    int n = jam_copies(a, k, reds, nred, f, ko, copies);
    ast_stmt *body = use_acc(a, reds, nred) ? through_acc(a, copies, n)
                                            : ast_seq(ctx, j->loc, n, copies);
    ast_stmt *inner = ast_for(ctx, j->loc, j->u.loop.iter, ast_clone_expr(ctx, j->u.loop.begin),
                              ast_clone_expr(ctx, j->u.loop.end),
                              j->u.loop.step ? ast_clone_expr(ctx, j->u.loop.step)
                                             : ast_int(ctx, j->loc, 1),
                              body);
    inner->u.loop.par = j->u.loop.par;
    return inner;
}

/* Replace loop k, in place, by `for ko in range(trips(k) // f): body`
 * followed by k from the first iteration those blocks do not run (the
 * rest keeps k's ID and label). */
static void blocks_then_rest(ft_ctx *ctx, ast_stmt *k, const char *ko, int f, ast_stmt *body)
{
    ft_loc loc = k->loc;
    ast_expr *trips = ast_binary(ctx, loc, AST_MAX,
                                 ast_binary(ctx, loc, AST_SUB, ast_clone_expr(ctx, k->u.loop.end),
                                            ast_clone_expr(ctx, k->u.loop.begin)),
                                 ast_int(ctx, loc, 0));
    ast_expr *blocks = ast_binary(ctx, loc, AST_FLOORDIV, trips, ast_int(ctx, loc, f));
    ast_stmt *outer = ast_for(ctx, loc, ko, ast_int(ctx, loc, 0), blocks, ast_int(ctx, loc, 1),
                              body);
    ast_stmt *rest = ft_alloc(ctx, sizeof *rest);
    *rest = *k;
    rest->u.loop.begin = ast_binary(ctx, loc, AST_ADD, ast_clone_expr(ctx, k->u.loop.begin),
                                    ast_binary(ctx, loc, AST_MUL, ast_clone_expr(ctx, blocks),
                                               ast_int(ctx, loc, f)));
    ast_stmt **two = ft_alloc(ctx, sizeof(ast_stmt *) * 2);
    two[0] = outer;
    two[1] = rest;
    *k = *ast_seq(ctx, loc, 2, two);
}

/* Jam the nest at k (inner loop j, its nred reductions reds) by f (see
 * jam_factor); the loop keeps its ID as the rest, whose updates go through
 * an accumulator too when there are several.  f 1: the accumulator only. */
static void jam(xf_auto *a, ast_stmt *k, ast_stmt *j, ast_stmt **reds, int nred, int f)
{
    ft_ctx *ctx = a->ctx;
    if (f > 1) {
        const char *ko = xf_fresh_name(ctx, a->f, ft_fmt(ctx, "%s_o", k->u.loop.iter));
        ast_stmt *inner = jam_block(a, k, j, reds, nred, f, ko);
        blocks_then_rest(ctx, k, ko, f, inner);
        if (inner->u.loop.par == AST_VECTORIZE) {
            xf_auto_label_later(a, inner);
            xf_auto_label_later(a, j);
        }
    }
    if (nred > 1)
        j->u.loop.body = through_acc(a, reds, nred);
}

/* ------------------------------------------------- scalar-sum groups */

/* One group of a k body: see the file comment. */
typedef struct jam_group {
    ast_stmt *def;           /* var r (0-D) */
    ast_stmt *init;          /* r = init */
    ast_stmt *loop;          /* for j: r op= value */
    ast_stmt *flush;         /* if cond: t[idx] op= r */
} jam_group;

/* The flush of group g: `if cond: t[..] op= r` or, where the simplifier
 * knew cond to hold, the reduction alone; its condition in *cond (NULL for
 * none).  NULL when it is neither. */
static ast_stmt *flush_red(const jam_group *g, const ast_expr **cond)
{
    *cond = NULL;
    if (g->flush->kind == AST_REDUCE)
        return g->flush;
    if (g->flush->kind != AST_IF || g->flush->u.branch.other)
        return NULL;
    *cond = g->flush->u.branch.cond;
    return only_stmt(g->flush->u.branch.then);
}

/* Whether group g's statements have the shape of the file comment (the
 * rules across groups are checked by sum_groups). */
static int group_shape(const jam_group *g, const char *ki)
{
    if (g->def->kind != AST_VARDEF)
        return 0;
    const char *r = g->def->u.def.name;
    if (g->def->u.def.ndim != 0 || g->init->kind != AST_STORE ||
        strcmp(g->init->u.store.var, r) != 0 || g->init->u.store.n != 0 ||
        xf_expr_has_load(g->init->u.store.value) || g->loop->kind != AST_FOR ||
        (g->loop->u.loop.par != AST_SERIAL && g->loop->u.loop.par != AST_VECTORIZE))
        return 0;
    const ast_expr *cond;
    ast_stmt *red = only_stmt(g->loop->u.loop.body), *f = flush_red(g, &cond);
    const ast_stmt *j = g->loop;
    if (!red || red->kind != AST_REDUCE || strcmp(red->u.red.var, r) != 0 || red->u.red.n != 0 ||
        red->u.red.atomic || uses(red->u.red.value, r, NULL) || uses(j->u.loop.begin, r, ki) ||
        uses(j->u.loop.end, r, ki) || uses(j->u.loop.step, r, ki))
        return 0;
    if (!f || f->kind != AST_REDUCE || f->u.red.n == 0 || f->u.red.op != red->u.red.op ||
        f->u.red.atomic == AST_RED_ATOMIC || f->u.red.value->kind != AST_LOAD ||
        strcmp(f->u.red.value->u.load.var, r) != 0 || uses(cond, r, NULL))
        return 0;
    int walk = 0;
    for (int d = 0; d < f->u.red.n; d++)
        walk |= walks(f->u.red.idx[d], ki);
    return walk;
}

/* Whether any group's value, bounds or condition reads tensor t. */
static int groups_read(const jam_group *g, int n, const char *t)
{
    for (int i = 0; i < n; i++) {
        const ast_stmt *j = g[i].loop, *red = only_stmt(j->u.loop.body);
        const ast_expr *cond;
        flush_red(&g[i], &cond);
        if (uses(red->u.red.value, t, NULL) || uses(j->u.loop.begin, t, NULL) ||
            uses(j->u.loop.end, t, NULL) || uses(j->u.loop.step, t, NULL) || uses(cond, t, NULL))
            return 1;
    }
    return 0;
}

/* The groups of loop k's body (see the file comment) in *out (arena); their
 * number, or 0 when the body is not such a list or a rule fails (*why: the
 * rule, when the list has the right shape). */
static int sum_groups(xf_auto *a, ast_stmt *k, jam_group **out, const char **why)
{
    *why = NULL;
    ft_vec items = {0};
    const ast_expr *ks = k->u.loop.step;
    if (k->u.loop.par != AST_SERIAL || (ks && !(ks->kind == AST_INT && ks->u.ival == 1)))
        return 0;
    xf_scope_list(a->ctx, k->u.loop.body, &items);
    if (items.len == 0 || items.len % 4)
        return 0;
    int n = items.len / 4;
    jam_group *g = ft_alloc(a->ctx, sizeof *g * (size_t)n);
    for (int i = 0; i < n; i++) {
        ast_stmt **it = (ast_stmt **)items.items + 4 * i;
        g[i] = (jam_group){it[0], it[1], it[2], it[3]};
        if (!group_shape(&g[i], k->u.loop.iter))
            return 0;
    }
    const ast_expr *cond;
    for (int i = 0; i < n; i++) {
        const char *t = flush_red(&g[i], &cond)->u.red.var;
        if (groups_read(g, n, t) || uses(k->u.loop.begin, t, NULL) ||
            uses(k->u.loop.end, t, NULL)) {
            *why = ft_fmt(a->ctx, "a sum, bound or condition reads %s, which a sum updates", t);
            return 0;
        }
        for (int i2 = 0; i2 < i; i2++)
            if (strcmp(flush_red(&g[i2], &cond)->u.red.var, t) == 0) {
                *why = ft_fmt(a->ctx, "two sums update %s", t);
                return 0;
            }
    }
    *out = g;
    return n;
}

/* A name for accumulator u of r, free in f and not among the names taken. */
static const char *acc_name(xf_auto *a, const char *r, int u, ft_vec *taken)
{
    const char *name = xf_free_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_%d", r, u));
    while (xf_has_name(taken, name))
        name = xf_free_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_j", name));
    ft_vec_push(a->ctx, taken, (void *)name);
    return name;
}

/* A copy of s for block item u: k replaced by kv[u], accumulator r by
 * accs[u]. */
static ast_stmt *for_item(xf_auto *a, const ast_stmt *s, const char *ki, ast_expr *kv,
                          const char *r, const char *acc)
{
    ast_stmt *c = ast_clone_stmt(a->ctx, s, AST_CLONE_NEW);
    ast_subst_stmt(a->ctx, c, 1, &ki, &kv);
    xf_rename_tensor(a->ctx, c, r, acc);
    return c;
}

/* The statements of group g in k_o's block, wrapped in its accumulators'
 * VarDefs around rest (the next groups' block statements, or NULL). */
static ast_stmt *group_block(xf_auto *a, const jam_group *g, const char *ki, ast_expr **kv,
                             ft_vec *taken, ast_stmt *rest)
{
    ft_ctx *ctx = a->ctx;
    const char *r = g->def->u.def.name, *accs[JAM];
    ast_stmt **items = ft_alloc(ctx, sizeof(ast_stmt *) * (2 * JAM + 2));
    ast_stmt **sums = ft_alloc(ctx, sizeof(ast_stmt *) * JAM);
    const ast_stmt *red = only_stmt(g->loop->u.loop.body);
    for (int u = 0; u < JAM; u++) {
        accs[u] = acc_name(a, r, u, taken);
        items[u] = for_item(a, g->init, ki, kv[u], r, accs[u]);
        sums[u] = for_item(a, red, ki, kv[u], r, accs[u]);
        items[JAM + 1 + u] = for_item(a, g->flush, ki, kv[u], r, accs[u]);
    }
    const ast_stmt *j = g->loop;
    ast_stmt *loop = ast_for(ctx, j->loc, j->u.loop.iter, ast_clone_expr(ctx, j->u.loop.begin),
                             ast_clone_expr(ctx, j->u.loop.end),
                             j->u.loop.step ? ast_clone_expr(ctx, j->u.loop.step)
                                            : ast_int(ctx, j->loc, 1),
                             ast_seq(ctx, j->loc, JAM, sums));
    loop->u.loop.par = j->u.loop.par;
    if (loop->u.loop.par == AST_VECTORIZE)
        xf_auto_label_later(a, loop);
    items[JAM] = loop;
    int n = 2 * JAM + 1;
    if (rest)
        items[n++] = rest;
    ast_stmt *body = ast_seq(ctx, g->def->loc, n, items);
    for (int u = JAM - 1; u >= 0; u--)
        body = ast_vardef(ctx, g->def->loc, accs[u], g->def->u.def.dtype, 0, NULL,
                          g->def->u.def.access, g->def->u.def.mtype, body);
    return body;
}

/* Jam the nest at k made of n groups g (sum_groups); as jam(). */
static void jam_groups(xf_auto *a, ast_stmt *k, const jam_group *g, int n)
{
    ft_ctx *ctx = a->ctx;
    ft_loc loc = k->loc;
    const char *ki = k->u.loop.iter;
    const char *ko = xf_fresh_name(ctx, a->f, ft_fmt(ctx, "%s_o", ki));
    ast_expr *kv[JAM];
    for (int u = 0; u < JAM; u++)
        kv[u] = ast_binary(ctx, loc, AST_ADD, ast_clone_expr(ctx, k->u.loop.begin),
                           ast_binary(ctx, loc, AST_ADD,
                                      ast_binary(ctx, loc, AST_MUL, ast_int(ctx, loc, JAM),
                                                 ast_var(ctx, loc, ko)),
                                      ast_int(ctx, loc, u)));
    ft_vec taken = {0};
    ast_stmt *body = NULL;
    for (int i = n - 1; i >= 0; i--)
        body = group_block(a, &g[i], ki, kv, &taken, body);
    blocks_then_rest(ctx, k, ko, JAM, body);
}

/* Jam loop k when it is a nest of scalar-sum groups (see the file comment);
 * whether it was.  Logs why a list of sums was left. */
static int try_groups(xf_auto *a, ast_stmt *k)
{
    jam_group *g;
    const char *why;
    int n = sum_groups(a, k, &g, &why);
    for (int i = 0; i < n && !why; i++)
        if (k->pinned || g[i].loop->pinned)
            why = "a loop the schedule block set before `auto`";
    int64_t trips;
    if (n && xf_auto_const_trips(a->ctx, k, &trips) && trips < MIN_TRIPS)
        why = ft_fmt(a->ctx, "%lld iterations", (long long)trips);
    if (why)
        xf_auto_log(a, PASS, xf_auto_name(a, k), "sums not jammed: %s", why);
    if (!n || why)
        return 0;
    const char *kname = xf_auto_name(a, k), *jname = xf_auto_name(a, g[0].loop);
    jam_groups(a, k, g, n);
    if (n == 1)
        xf_auto_log(a, PASS, kname, "unrolled by %d and jammed into %s (%d sums in one loop)",
                    JAM, jname, JAM);
    else
        xf_auto_log(a, PASS, kname, "unrolled by %d and jammed into the sum loops %s and %d "
                    "more (%d sums per loop)", JAM, jname, n - 1, JAM);
    return 1;
}

int xf_auto_jam(xf_auto *a)
{
    ft_vec loops = {0};
    int n = 0;
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *k = loops.items[i];
        const char *why;
        ast_stmt **reds = NULL;
        int nred = 0;
        ast_stmt *j = jam_inner(a, k, &reds, &nred, &why);
        if (!j && !why && try_groups(a, k)) {
            n++;
            continue;
        }
        if (!j) {
            if (why)
                xf_auto_log(a, PASS, xf_auto_name(a, k), "not jammed: %s", why);
            continue;
        }
        const char *kname = xf_auto_name(a, k), *jname = xf_auto_name(a, j);
        int f = jam_factor(a, k, nred);
        jam(a, k, j, reds, nred, f);
        n++;
        if (nred == 1)
            xf_auto_log(a, PASS, kname, "unrolled by %d and jammed into %s", f, jname);
        else if (f > 1)
            xf_auto_log(a, PASS, kname, "unrolled by %d and jammed into %s (%d updates of "
                        "one element per iteration: %d per block, through a local)", f, jname,
                        nred, f * nred);
        else
            xf_auto_log(a, PASS, kname, "not jammed (%d updates of one element per "
                        "iteration); %s updates it through a local", nred, jname);
    }
    if (n)
        xf_sched_finish(a->ctx, a->f);
    return n;
}
