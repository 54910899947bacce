/* auto_lanes.c - vectorize across the iterations of the loop around a
 * serial reduction loop (SIMD lanes over pixels, faces loop outside them).
 *
 * Requires: f's AST after auto_vectorize (the innermost loops it could not
 * vectorize are still serial); the C target.
 * Provides: for a serial innermost loop F (not a constant range of fewer
 * than MIN_INNER iterations) that auto_vectorize left alone, and the loop J
 * right around it (step 1, F its only loop, reached from J's body through
 * locals and sequences only, F's range the same for every J iteration, not
 * a constant range of fewer than LANES iterations), whose iterations are
 * independent or collide only in reductions into one element per F
 * iteration (the same for every J iteration: a gradient's scatter into
 * the vertices of face f), and whose body is mostly computation (at most
 * one access per LEAVES_PER_GATHER statements whose index uses J's
 * iterator: gathers and scatters across lanes):
 *
 *     jo, ji = split(J, LANES)            (separate_tail(jo) for the rest)
 *     var t: T[LANES]                     (J's locals as lane arrays)
 *     for ji: the statements before F
 *     F: var r = 0                        (one per colliding reduction)
 *        for ji: F's body                 (vectorized; r += v for the
 *        x[idx] += r                       collision x[idx] += v)
 *     for ji: the statements after F
 *
 * so that `for j: acc = 1; for f: acc *= g(j, f); out[j] = acc` runs
 * LANES values of j per SIMD instruction with f outside them: the per-j
 * accumulators become `acc[LANES]` (their `+=` / `*=` stores, which
 * xf_vectorize takes) and the branches of F's body selects in `omp simd`
 * (SoftRas's pixels x faces: its faces loop is a product with
 * min/max/sigmoid gates, nothing the faces loop could vectorize; its
 * gradient's faces loop adds into d_verts[faces[f, k]]).  The split and
 * separate_tail are the primitives; the distribution and interchange are
 * done here without their checks (an_region_deps of a gradient's body of
 * 200 statements took a second each): J's independent iterations (checked
 * first, an_loop_parallel) may run in any order and a local of J's body is
 * private to its iteration as its lane's element is.  The lane loops are
 * vectorized by xf_vectorize_independent (the checks but the dependence
 * analysis, J's covering the lanes); when the one in F is refused the
 * function is restored and the refusal logged.  A colliding reduction under
 * a branch is summed only when an unguarded read checks its index already
 * (its check moves after the lanes, where it runs every iteration).
 *
 * Left alone: J whose iterations depend on each other otherwise, F inside a
 * branch of J, several loops under J, CUDA (threads, not lanes).
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../schedule.h"
#include "../xf_checks.h"
#include "../xf_util.h"
#include "visit.h"

/* LANES: 64 bytes of f32, two AVX2 vectors (or one AVX-512 one) per
 * operation: SoftRas took 0.56 (forward) and 0.80 (forward + backward) of
 * the time of 8 lanes with 16, and 1.25 and 1.03 of 16's with 32 (one run
 * each, alternating, load 8, AVX-512 machine, gcc -march=native).
 * LEAVES_PER_GATHER: statements of the inner loop's body per access that
 * differs between lanes, at least (gathers and scatters across lanes cost
 * one element each: a body of them gains nothing from lanes). */
enum { LANES = 16, MIN_INNER = 64, LEAVES_PER_GATHER = 4 };

static const char *const PASS = "auto_lanes";

/* The loops under s (s excluded), counted; *first: the first one. */
static int count_loops(ast_stmt *s, ast_stmt **first)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ: {
        int n = 0;
        for (int i = 0; i < s->u.seq.n; i++)
            n += count_loops(s->u.seq.stmts[i], first);
        return n;
    }
    case AST_VARDEF: return count_loops(s->u.def.body, first);
    case AST_IF: return count_loops(s->u.branch.then, first) + count_loops(s->u.branch.other, first);
    case AST_FOR:
        if (!*first)
            *first = s;
        return 1 + count_loops(s->u.loop.body, first);
    default: return 0;
    }
}

/* The one loop under s, or NULL when there is none or several. */
static ast_stmt *only_loop(ast_stmt *s)
{
    ast_stmt *first = NULL;
    return count_loops(s, &first) == 1 ? first : NULL;
}

/* Whether s holds inner (s itself counts). */
static int holds(const ast_stmt *s, const ast_stmt *inner)
{
    if (!s)
        return 0;
    if (s == inner)
        return 1;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (holds(s->u.seq.stmts[i], inner))
                return 1;
        return 0;
    case AST_VARDEF: return holds(s->u.def.body, inner);
    case AST_IF: return holds(s->u.branch.then, inner) || holds(s->u.branch.other, inner);
    case AST_FOR: return holds(s->u.loop.body, inner);
    default: return 0;
    }
}

/* Whether inner is reached from s through locals and sequences only (no
 * branch, no loop between). */
static int reached_plainly(const ast_stmt *s, const ast_stmt *inner)
{
    if (s == inner)
        return 1;
    if (s->kind == AST_VARDEF)
        return reached_plainly(s->u.def.body, inner);
    if (s->kind == AST_SEQ)
        for (int i = 0; i < s->u.seq.n; i++)
            if (holds(s->u.seq.stmts[i], inner))
                return reached_plainly(s->u.seq.stmts[i], inner);
    return 0;
}

/* The lane loop's body cut at F: the locals on the way (outermost first),
 * the statements before F and those after it (in the order they run). */
typedef struct lane_cut {
    ft_vec defs, pre, post;
} lane_cut;

/* Cut body (holding F through locals and sequences only) into *c; 0 with
 * *why when F is inside something else. */
static int cut_at(xf_auto *a, ast_stmt *body, const ast_stmt *f, lane_cut *c, const char **why)
{
    ft_vec after = {0};        /* post items, outer levels first */
    ft_vec level = {0};        /* where each level's post items start */
    ast_stmt *cur = body;
    while (cur != f) {
        if (cur->kind == AST_VARDEF) {
            ft_vec_push(a->ctx, &c->defs, cur);
            cur = cur->u.def.body;
            continue;
        }
        if (cur->kind != AST_SEQ) {
            *why = "the inner loop sits inside a branch";
            return 0;
        }
        int k = 0, n = cur->u.seq.n;
        while (k < n && !holds(cur->u.seq.stmts[k], f))
            k++;
        if (k == n) {
            *why = "the inner loop is not under the lanes' body";
            return 0;
        }
        for (int i = 0; i < k; i++)
            ft_vec_push(a->ctx, &c->pre, cur->u.seq.stmts[i]);
        ft_vec_push(a->ctx, &level, (void *)(intptr_t)after.len);
        for (int i = k + 1; i < n; i++)
            ft_vec_push(a->ctx, &after, cur->u.seq.stmts[i]);
        cur = cur->u.seq.stmts[k];
    }
    for (int l = level.len - 1; l >= 0; l--) {     /* inner levels' items run first */
        int from = (int)(intptr_t)level.items[l];
        int to = l + 1 < level.len ? (int)(intptr_t)level.items[l + 1] : after.len;
        for (int i = from; i < to; i++)
            ft_vec_push(a->ctx, &c->post, after.items[i]);
    }
    return 1;
}

/* Whether the locals of c can become lane arrays around the lane loop:
 * shapes that do not use its iterator, and no statement outside a
 * local's scope (the statements it will enclose) naming it. */
static int expandable(xf_auto *a, const lane_cut *c, const char *x, const char **why)
{
    for (int d = 0; d < c->defs.len; d++) {
        const ast_stmt *def = c->defs.items[d];
        for (int k = 0; k < def->u.def.ndim; k++)
            if (xf_expr_uses_var(def->u.def.shape[k], x)) {
                *why = ft_fmt(a->ctx, "the shape of local %s changes with the lanes",
                              def->u.def.name);
                return 0;
            }
        const ft_vec *lists[2] = {&c->pre, &c->post};
        for (int l = 0; l < 2; l++)
            for (int i = 0; i < lists[l]->len; i++) {
                const ast_stmt *s = lists[l]->items[i];
                if (!holds(def, s) && (xf_accesses(s, def->u.def.name) ||
                                       xf_defines(s, def->u.def.name))) {
                    *why = ft_fmt(a->ctx, "a statement outside local %s names a tensor %s",
                                  def->u.def.name, def->u.def.name);
                    return 0;
                }
            }
    }
    return 1;
}

/* Give local def a first dimension of LANES, every access indexed by the
 * lane iterator x first. */
static void to_lanes(ft_ctx *ctx, ast_stmt *def, const char *x)
{
    int nd = def->u.def.ndim;
    ast_expr **shape = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(nd + 1));
    shape[0] = ast_int(ctx, def->loc, LANES);
    for (int k = 0; k < nd; k++)
        shape[k + 1] = def->u.def.shape[k];
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *ac = acc.items[i];
        ast_expr **idx = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(*ac->n + 1));
        idx[0] = ast_var(ctx, def->loc, x);
        for (int k = 0; k < *ac->n; k++)
            idx[k + 1] = (*ac->idx)[k];
        *ac->idx = idx;
        *ac->n += 1;
    }
    def->u.def.shape = shape;
    def->u.def.ndim = nd + 1;
}

/* A lane loop like lane (iterator, range) over the statements items. */
static ast_stmt *lane_loop(ft_ctx *ctx, const ast_stmt *lane, const ft_vec *items)
{
    ast_stmt *body = ast_seq(ctx, lane->loc, items->len, (ast_stmt **)items->items);
    return ast_for(ctx, lane->loc, lane->u.loop.iter, ast_clone_expr(ctx, lane->u.loop.begin),
                   ast_clone_expr(ctx, lane->u.loop.end), ast_clone_expr(ctx, lane->u.loop.step),
                   body);
}

/* Distribute lane loop `lane` (its body holding F) over its statements:
 *
 *     locals of the body, as lane arrays (t -> t[LANES], t[ji])
 *         for ji: the statements before F
 *         F: for ji: F's body
 *         for ji: the statements after F
 *
 * No legality check here: the caller checked that J's iterations are
 * independent (or collide only in reductions whose updates commute), and
 * then every order of them is one J could run in, and a local of J's body
 * is private to its iteration, as its lane's element is.  The IDs of the
 * other lane loops are pushed on others; 0 with *why (nothing changed)
 * when it cannot. */
static int distribute(xf_auto *a, ast_stmt *lane, ast_stmt *f, ft_vec *others, const char **why)
{
    ft_ctx *ctx = a->ctx;
    lane_cut c = {{0}, {0}, {0}};
    if (!cut_at(a, lane->u.loop.body, f, &c, why) ||
        !expandable(a, &c, lane->u.loop.iter, why))
        return 0;
    for (int d = 0; d < c.defs.len; d++)
        to_lanes(ctx, c.defs.items[d], lane->u.loop.iter);
    ast_stmt *fl = ft_alloc(ctx, sizeof *fl);
    *fl = *lane;                           /* keeps the lane loop's ID */
    fl->u.loop.body = f->u.loop.body;
    f->u.loop.body = fl;
    ft_vec seq = {0};
    if (c.pre.len)
        ft_vec_push(ctx, &seq, lane_loop(ctx, lane, &c.pre));
    ft_vec_push(ctx, &seq, f);
    if (c.post.len)
        ft_vec_push(ctx, &seq, lane_loop(ctx, lane, &c.post));
    for (int i = 0; i < seq.len; i++)
        if (seq.items[i] != f)
            ft_vec_push(ctx, others, (void *)(intptr_t)((ast_stmt *)seq.items[i])->id);
    ast_stmt *top = ast_seq(ctx, lane->loc, seq.len, (ast_stmt **)seq.items);
    for (int d = c.defs.len - 1; d >= 0; d--) {
        ast_stmt *def = c.defs.items[d];
        def->u.def.body = top;
        top = def;
    }
    *lane = *top;
    xf_sched_finish(ctx, a->f);
    return 1;
}

/* A primitive run quietly: run_begin before it, run_end after it returns
 * NULL when it was done, else its refusal (the message it reported). */
typedef struct lanes_run {
    xf_auto *a;
    xf_quiet q;
} lanes_run;

static void run_begin(lanes_run *r)
{
    xf_auto_quiet_begin(r->a->ctx, &r->q);
}

static const char *run_end(lanes_run *r, int bad)
{
    const char *why = xf_auto_quiet_end(r->a->ctx, &r->q);
    return bad ? (why ? why : "refused") : NULL;
}

/* Split loop J by LANES (the rest in a loop of its own); the ID of the
 * lane loop of the whole blocks, or -1 with *why. */
static int strip_mine(xf_auto *a, int jid, const char **why)
{
    lanes_run r = {.a = a};
    ast_stmt *j = xf_auto_loop_by_id(a->ctx, a->f, jid);
    run_begin(&r);
    int bad = xf_split(a->ctx, a->f, j, LANES, 0, NULL, NULL, j->loc);
    if ((*why = run_end(&r, bad)))
        return -1;
    j = xf_auto_loop_by_id(a->ctx, a->f, jid);
    ast_stmt *lane = NULL;
    if (!j || count_loops(j->u.loop.body, &lane) < 1) {
        *why = "the split loops were not found";
        return -1;
    }
    int lane_id = lane->id;
    if (lane->u.loop.body->kind == AST_IF) {
        run_begin(&r);
        bad = xf_separate_tail(a->ctx, a->f, j, j->loc);
        if ((*why = run_end(&r, bad)))
            return -1;
    }
    if (!xf_auto_loop_by_id(a->ctx, a->f, lane_id)) {
        *why = "the lane loop was not found after separating the tail";
        return -1;
    }
    return lane_id;
}

/* Vectorize lane loop id quietly (its lanes are J's iterations, which
 * unfit checked independent but for the collisions lift_collisions sums
 * in 0-D locals: no second dependence analysis); NULL when done, else why
 * not. */
static const char *vectorize_id(xf_auto *a, int id)
{
    lanes_run r = {.a = a};
    ast_stmt *l = xf_auto_loop_by_id(a->ctx, a->f, id);
    if (!l)
        return "the loop was not found";
    run_begin(&r);
    int bad = xf_vectorize_independent(a->ctx, l, l->loc);
    return run_end(&r, bad);
}

/* The reductions under the lane loop into one element for every lane,
 * and the loads of unguarded statements (whose index checks run for every
 * iteration). */
typedef struct lift_scan {
    ft_ctx *ctx;
    const ast_stmt *lane;
    ft_vec reds;             /* ast_stmt * of the collisions */
    ft_vec loads;            /* ast_expr * of unguarded statements */
} lift_scan;

/* Pushes the loads it visits on sc->loads. */
typedef struct load_walk {
    ast_visitor v;
    lift_scan *sc;
} load_walk;

/* The load_walk callback: collect e when it is a load. */
static void push_load(ast_visitor *v, ast_expr *e)
{
    load_walk *w = (load_walk *)v;
    if (e->kind == AST_LOAD)
        ft_vec_push(w->sc->ctx, &w->sc->loads, e);
}

/* Whether reduction s under the lane loop updates one element for all
 * lanes (indices that do not change inside it, a tensor declared outside
 * it). */
static int collides(lift_scan *sc, const ast_stmt *s)
{
    if (xf_defines(sc->lane->u.loop.body, s->u.red.var))
        return 0;
    for (int k = 0; k < s->u.red.n; k++)
        if (!xf_expr_invariant(sc->ctx, s->u.red.idx[k], sc->lane))
            return 0;
    return 1;
}

/* Collect from s (guarded: under a branch of the lane loop's body). */
static void scan(lift_scan *sc, ast_stmt *s, int guarded)
{
    load_walk w = {.v.expr = push_load, .sc = sc};
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            scan(sc, s->u.seq.stmts[i], guarded);
        return;
    case AST_VARDEF: scan(sc, s->u.def.body, guarded); return;
    case AST_IF:
        scan(sc, s->u.branch.then, 1);
        if (s->u.branch.other)
            scan(sc, s->u.branch.other, 1);
        return;
    case AST_REDUCE:
        if (collides(sc, s))
            ft_vec_push(sc->ctx, &sc->reds, s);
        if (!guarded)
            ast_visit(s, &w.v);
        return;
    case AST_STORE:
        if (!guarded)
            ast_visit(s, &w.v);
        return;
    default: return;
    }
}

/* Whether the index checks of guarded reduction r (into a tensor of
 * shape tshape) already run unguarded: a load of a tensor of the same
 * shape at the same indices, so that flushing r after the lanes, where
 * its check runs every iteration, reports no error the loop did not. */
static int checks_covered(xf_auto *a, lift_scan *sc, const ast_stmt *r, int nd,
                          ast_expr **tshape)
{
    int dd = 0;
    for (int k = 0; k < r->u.red.n; k++)
        dd |= xf_expr_has_load(r->u.red.idx[k]);
    if (!dd)
        return 1;
    for (int i = 0; i < sc->loads.len; i++) {
        const ast_expr *e = sc->loads.items[i];
        int und;
        ast_expr **ush;
        if (e->u.load.n != r->u.red.n ||
            !xf_find_decl(a->ctx, a->f, sc->lane, e->u.load.var, NULL, &und, &ush) ||
            und != nd)
            continue;
        int same = 1;
        for (int k = 0; k < nd && same; k++)
            same = ast_expr_equal(e->u.load.idx[k], r->u.red.idx[k]) &&
                   ast_expr_equal(ush[k], tshape[k]);
        if (same)
            return 1;
    }
    return 0;
}

/* Rewrite the sums and products under s into elements of one lane
 * (an index that uses lane iterator x) as stores, `t[x] = t[x] + v`: the
 * same in one lane, and no reduction for xf_vectorize to refuse (it takes
 * only 0-D accumulators and scatters to one element per lane that nothing
 * else reads; a lane's accumulator of a gradient is read too). */
static void lane_sums_as_stores(xf_auto *a, ast_stmt *s, const char *x)
{
    ft_ctx *ctx = a->ctx;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            lane_sums_as_stores(a, s->u.seq.stmts[i], x);
        return;
    case AST_VARDEF: lane_sums_as_stores(a, s->u.def.body, x); return;
    case AST_IF:
        lane_sums_as_stores(a, s->u.branch.then, x);
        if (s->u.branch.other)
            lane_sums_as_stores(a, s->u.branch.other, x);
        return;
    case AST_REDUCE: break;
    default: return;
    }
    int lane = 0;
    for (int k = 0; k < s->u.red.n; k++)
        lane |= xf_expr_uses_var(s->u.red.idx[k], x);
    ast_reduce_op op = s->u.red.op;
    ft_dtype dt;
    if (!lane || s->u.red.atomic || (op != AST_RED_ADD && op != AST_RED_MUL) ||
        !xf_find_decl(ctx, a->f, s, s->u.red.var, &dt, NULL, NULL))
        return;
    int n = s->u.red.n;
    ast_expr **idx = s->u.red.idx;
    ast_expr **ld = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)n);
    for (int k = 0; k < n; k++)
        ld[k] = ast_clone_expr(ctx, idx[k]);
    ast_expr *old = ast_load(ctx, s->loc, s->u.red.var, dt, n, ld);
    ast_expr *v = ast_binary(ctx, s->loc, op == AST_RED_ADD ? AST_ADD : AST_MUL, old,
                             xf_convert(ctx, s->u.red.value, dt));
    *s = *ast_store(ctx, s->loc, s->u.red.var, n, idx, v);
}

/* Sum the colliding reductions under lane loop l in 0-D accumulators (the
 * `omp simd reduction` clauses), each added to its element after the
 * lanes; the number lifted, -1 (nothing changed) with *why when one cannot
 * be. */
static int lift_collisions(xf_auto *a, ast_stmt *l, const char **why)
{
    ft_ctx *ctx = a->ctx;
    lift_scan sc = {.ctx = ctx, .lane = l};
    scan(&sc, l->u.loop.body, 0);
    ft_dtype *dts = ft_alloc(ctx, sizeof(ft_dtype) * (size_t)(sc.reds.len + 1));
    for (int i = 0; i < sc.reds.len; i++) {
        ast_stmt *r = sc.reds.items[i];
        int nd;
        ast_expr **sh;
        if (!xf_find_decl(ctx, a->f, l, r->u.red.var, &dts[i], &nd, &sh) ||
            !checks_covered(a, &sc, r, nd, sh)) {
            *why = ft_fmt(ctx, "the index of the update of %s that every lane makes is "
                          "checked only under a branch", r->u.red.var);
            return -1;
        }
    }
    for (int i = 0; i < sc.reds.len; i++) {
        ast_stmt *r = sc.reds.items[i];
        ft_loc loc = r->loc;
        const char *acc = xf_free_name(ctx, a->f, ft_fmt(ctx, "%s_l", r->u.red.var));
        ast_stmt *flush = ast_reduce(ctx, loc, r->u.red.op, r->u.red.var, r->u.red.n,
                                     r->u.red.idx, ast_load(ctx, loc, acc, dts[i], 0, NULL));
        flush->u.red.atomic = r->u.red.atomic;
        r->u.red.atomic = AST_RED_PLAIN;
        r->u.red.var = acc;
        r->u.red.n = 0;
        r->u.red.idx = NULL;
        ast_stmt *loop = ft_alloc(ctx, sizeof *loop);
        *loop = *l;
        ast_stmt *items[3] = {
            ast_store(ctx, loc, acc, 0, NULL, xf_red_identity(ctx, loc, r->u.red.op, dts[i])),
            loop, flush};
        *l = *ast_vardef(ctx, loc, acc, dts[i], 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                         ast_seq(ctx, loc, 3, items));
        l = loop;
    }
    lane_sums_as_stores(a, l->u.loop.body, l->u.loop.iter);
    xf_sched_finish(ctx, a->f);
    return sc.reds.len;
}

/* Lanes over J around F (both as described at the top); 1 when done,
 * else *why says what refused (the caller restores the function). */
static int make_lanes(xf_auto *a, ast_stmt *j, ast_stmt *f, const char **why)
{
    int jid = j->id, fid = f->id;
    int lane_id = strip_mine(a, jid, why);
    ft_vec others = {0};
    if (lane_id < 0)
        return 0;
    ast_stmt *lane = xf_auto_loop_by_id(a->ctx, a->f, lane_id);
    f = xf_auto_loop_by_id(a->ctx, a->f, fid);
    if (!lane || !f || !distribute(a, lane, f, &others, why))
        return 0;
    lane = xf_auto_loop_by_id(a->ctx, a->f, lane_id);
    if (!lane || lift_collisions(a, lane, why) < 0 || (*why = vectorize_id(a, lane_id)))
        return 0;
    xf_auto_label_later(a, xf_auto_loop_by_id(a->ctx, a->f, lane_id));
    for (int i = 0; i < others.len; i++) {
        int id = (int)(intptr_t)others.items[i];
        if (!vectorize_id(a, id))
            xf_auto_label_later(a, xf_auto_loop_by_id(a->ctx, a->f, id));
    }
    return 1;
}

/* The accesses under the inner loop's body that differ between lanes:
 * of tensors declared outside the lane loop's body, at an index that uses
 * its iterator (a gather or scatter across lanes); and the statements. */
typedef struct lane_cost {
    ast_visitor v;
    const ast_stmt *j;
    int per_lane, leaves;
} lane_cost;

/* Count access var[idx] when it differs between lanes. */
static void cost_access(lane_cost *c, const char *var, int n, ast_expr *const *idx)
{
    if (xf_defines(c->j->u.loop.body, var))
        return;
    for (int k = 0; k < n; k++)
        if (xf_expr_uses_var(idx[k], c->j->u.loop.iter)) {
            c->per_lane++;
            return;
        }
}

static int cost_stmt(ast_visitor *v, ast_stmt *s)
{
    lane_cost *c = (lane_cost *)v;
    if (s->kind == AST_STORE) {
        c->leaves++;
        cost_access(c, s->u.store.var, s->u.store.n, s->u.store.idx);
    } else if (s->kind == AST_REDUCE) {
        c->leaves++;
        cost_access(c, s->u.red.var, s->u.red.n, s->u.red.idx);
    }
    return 1;
}

static void cost_expr(ast_visitor *v, ast_expr *e)
{
    if (e->kind == AST_LOAD)
        cost_access((lane_cost *)v, e->u.load.var, e->u.load.n, e->u.load.idx);
}

/* Whether every reduction under s into a tensor declared outside J's body
 * updates one element for all of J's iterations (indices that use
 * neither J's iterator nor what F's body writes: in one iteration of F
 * every lane updates that element, and the lanes sum their updates
 * before adding them), so
 * that J's colliding reductions are all of that kind. */
static int same_for_lanes(xf_auto *a, const ast_stmt *j, const ast_stmt *f,
                          const ast_stmt *s)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (!same_for_lanes(a, j, f, s->u.seq.stmts[i]))
                return 0;
        return 1;
    case AST_VARDEF: return same_for_lanes(a, j, f, s->u.def.body);
    case AST_IF:
        return same_for_lanes(a, j, f, s->u.branch.then) &&
               (!s->u.branch.other || same_for_lanes(a, j, f, s->u.branch.other));
    case AST_FOR: return same_for_lanes(a, j, f, s->u.loop.body);
    case AST_REDUCE:
        if (xf_defines(j->u.loop.body, s->u.red.var))
            return 1;
        for (int k = 0; k < s->u.red.n; k++)
            if (xf_expr_uses_var(s->u.red.idx[k], j->u.loop.iter) ||
                !xf_expr_kept_by(a->ctx, s->u.red.idx[k], f->u.loop.body))
                return 0;
        return 1;
    default: return 1;
    }
}

/* Whether s (J's body, F skipped) writes a tensor declared outside J's
 * body at an element that J's iterations may share: an index without J's
 * iterator as a whole index (`s = max(s, v)` into a 0-D parameter, `t[0]
 * += v`).  Such a statement after F lands in a lane loop vectorized
 * without a dependence analysis, so J's collisions must all be F's. */
static int shared_outside(const ast_stmt *j, const ast_stmt *f, const ast_stmt *s)
{
    if (!s || s == f)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (shared_outside(j, f, s->u.seq.stmts[i]))
                return 1;
        return 0;
    case AST_VARDEF: return shared_outside(j, f, s->u.def.body);
    case AST_IF:
        return shared_outside(j, f, s->u.branch.then) || shared_outside(j, f, s->u.branch.other);
    case AST_FOR: return shared_outside(j, f, s->u.loop.body);
    case AST_STORE:
    case AST_REDUCE: {
        const char *var = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
        int n = s->kind == AST_STORE ? s->u.store.n : s->u.red.n;
        ast_expr *const *idx = s->kind == AST_STORE ? s->u.store.idx : s->u.red.idx;
        if (xf_defines(j->u.loop.body, var))
            return 0;
        for (int k = 0; k < n; k++)
            if (idx[k]->kind == AST_VAR && strcmp(idx[k]->u.name, j->u.loop.iter) == 0)
                return 0;
        return 1;
    }
    default: return 0;
    }
}

/* Why J (the loop right around innermost loop F) is no candidate, NULL
 * when it is one. */
static const char *unfit(xf_auto *a, ast_stmt *j, ast_stmt *f)
{
    int64_t trips;
    const ast_expr *st = j->u.loop.step;
    if (j->u.loop.par != AST_SERIAL)
        return "the loop around it is already parallel or vectorized";
    if (st->kind != AST_INT || st->u.ival != 1)
        return "the step of the loop around it is not 1";
    if (xf_auto_const_trips(a->ctx, j, &trips) && trips < LANES)
        return "the loop around it is shorter than the lanes";
    if (only_loop(j->u.loop.body) != f)
        return "the loop around it holds other loops";
    if (!xf_expr_invariant(a->ctx, f->u.loop.begin, j) ||
        !xf_expr_invariant(a->ctx, f->u.loop.end, j) ||
        !xf_expr_invariant(a->ctx, f->u.loop.step, j))
        return "its range changes with the loop around it";
    if (!reached_plainly(j->u.loop.body, f))
        return "it sits inside a branch of the loop around it";
    lane_cost c = {.v.stmt = cost_stmt, .v.expr = cost_expr, .j = j};
    ast_visit(f->u.loop.body, &c.v);
    if (c.per_lane * LEAVES_PER_GATHER > c.leaves)
        return ft_fmt(a->ctx, "%d of the accesses in its body differ between the lanes (a "
                      "gather or scatter each) for %d statements (lanes pay from %d "
                      "statements per such access)", c.per_lane, c.leaves, LEAVES_PER_GATHER);
    const char *w = NULL;
    an_par p = xf_auto_loop_par(a, j, &w);
    if (p == AN_PAR_ERROR)
        return "the dependence analysis failed";
    if (p != AN_PAR_OK && !((p == AN_PAR_REDUCTION || p == AN_PAR_ATOMIC) &&
                            same_for_lanes(a, j, f, f->u.loop.body) &&
                            !shared_outside(j, f, j->u.loop.body)))
        return ft_fmt(a->ctx, "the iterations of the loop around it are not independent "
                      "(the lanes would collide): %s", w);
    return NULL;
}

/* The ids of the loops of f, in *out. */
static void loop_ids(xf_auto *a, ft_vec *out)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++)
        ft_vec_push(a->ctx, out, (void *)(intptr_t)((ast_stmt *)loops.items[i])->id);
}

/* J was an OpenMP loop (auto_parallelize's, its colliding reductions
 * atomic until auto_privatize): its blocks jo (id jid) and the new loops
 * that no other new loop encloses (the tail separate_tail made) run in
 * parallel as J's iterations did. */
static void blocks_parallel(xf_auto *a, int jid, const ft_vec *old)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *l = loops.items[i];
        if (l->id == jid) {
            l->u.loop.par = AST_OPENMP;
            continue;
        }
        if (ft_vec_has(old, (void *)(intptr_t)l->id))
            continue;
        ft_vec enc = {0};
        xf_auto_enclosing_loops(a->ctx, a->f, l, &enc);
        int outer = 1;
        for (int k = 0; k < enc.len && outer; k++) {
            int id = ((ast_stmt *)enc.items[k])->id;
            outer = id != jid && ft_vec_has(old, (void *)(intptr_t)id);
        }
        if (outer && l->u.loop.par == AST_SERIAL)
            l->u.loop.par = AST_OPENMP;
    }
}

/* Decide the serial innermost loop F; 1 when the function changed, -1
 * when it was restored (its nodes are new: the caller's list of loops is
 * stale), else 0.  J
 * may be an OpenMP loop (auto_parallelize runs first, on the function
 * before the lanes double its body with the tail): it is split as a
 * serial one and its blocks made parallel again. */
static int try_inner(xf_auto *a, ast_stmt *f)
{
    int64_t trips;
    ft_vec enc = {0};
    xf_auto_enclosing_loops(a->ctx, a->f, f, &enc);
    if (enc.len == 0)
        return 0;
    ast_stmt *j = enc.items[enc.len - 1];
    const char *fname = xf_auto_name(a, f), *jname = xf_auto_name(a, j);
    const char *why;
    int par = j->u.loop.par == AST_OPENMP, jid = j->id;
    if (par)
        j->u.loop.par = AST_SERIAL;
    if (xf_auto_const_trips(a->ctx, f, &trips) && trips < MIN_INNER)
        why = ft_fmt(a->ctx, "it has %lld iterations (fewer than %d: the lanes would not "
                     "pay)", (long long)trips, MIN_INNER);
    else
        why = unfit(a, j, f);
    if (par)
        j->u.loop.par = AST_OPENMP;
    if (why) {
        xf_auto_log(a, PASS, fname, "no lanes over %s: %s", jname, why);
        return 0;
    }
    ast_stmt *snap = xf_auto_snapshot(a);
    ft_vec old = {0};
    loop_ids(a, &old);
    if (par)
        j->u.loop.par = AST_SERIAL;
    if (!make_lanes(a, j, f, &why)) {
        xf_auto_restore(a, snap);
        xf_auto_log(a, PASS, fname, "no lanes over %s: %s", jname, why);
        return -1;
    }
    if (par)
        blocks_parallel(a, jid, &old);
    xf_auto_log(a, PASS, fname, "%s split into blocks of %d lanes; %s runs outside the "
                "lanes, which are vectorized", jname, LANES, fname);
    return 1;
}

int xf_auto_lanes(xf_auto *a)
{
    ft_vec done = {0};
    int n = 0, changed = 1, rounds = 0;
    while (changed && rounds++ < 16) {
        changed = 0;
        ft_vec loops = {0};
        xf_auto_loops(a->ctx, a->f, &loops);
        for (int i = 0; i < loops.len && !changed; i++) {
            ast_stmt *l = loops.items[i];
            ast_stmt *first = NULL;
            if (ft_vec_has(&done, (void *)(intptr_t)l->id) ||
                l->u.loop.par != AST_SERIAL || count_loops(l->u.loop.body, &first) ||
                xf_inside_vectorized(a->ctx, a->f, l))
                continue;
            ft_vec_push(a->ctx, &done, (void *)(intptr_t)l->id);
            int r = try_inner(a, l);
            changed = r != 0;       /* restored too: look for the loops again */
            n += r > 0;
        }
    }
    return n;
}
