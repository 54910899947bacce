/* auto_lanes.c - vectorize across the iterations of the loop around a
 * serial reduction loop (SIMD lanes over pixels, faces loop outside them).
 *
 * Requires: f's AST after auto_vectorize (the innermost loops it could not
 * vectorize are still serial); the C target.
 * Provides: for a serial innermost loop F (not a constant range of fewer
 * than MIN_INNER iterations) that auto_vectorize left alone, and the loop J
 * right around it (step 1, independent iterations, F its only loop, reached
 * from J's body through locals and sequences only, not a constant range of
 * fewer than LANES iterations), whose body is mostly computation (at most
 * one access per LEAVES_PER_GATHER statements whose index uses J's
 * iterator: gathers and scatters across lanes), the primitives
 *
 *     jo, ji = split(J, LANES)            (separate_tail(jo) for the rest)
 *     fission(ji, ...)                    (until one ji loop holds only F;
 *                                          J's locals become lane arrays)
 *     reorder(F, ji); vectorize(ji)       (the lanes inside F)
 *     vectorize(each other ji loop)       (where it is legal)
 *
 * so that `for j: acc = 1; for f: acc *= g(j, f); out[j] = acc` runs
 * LANES values of j per SIMD instruction with f outside them: the per-j
 * accumulators become `acc[LANES]` and the branches of F's body selects in
 * `omp simd` (SoftRas's pixels x faces: its faces loop is a product with
 * min/max/sigmoid gates, nothing the faces loop could vectorize).  Every
 * step is checked by its primitive (isl dependences); when one is refused
 * the function is restored and the refusal logged.
 *
 * Left alone: J whose iterations collide (a gradient's scatter into the
 * face's vertices: every lane would update the same element), F inside a
 * branch of J, several loops under J, CUDA (threads, not lanes).
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../schedule.h"
#include "../xf_checks.h"
#include "../xf_util.h"
#include "visit.h"

/* LANES: 32 bytes of f32 (AVX2; AVX-512 machines run two per block).
 * LEAVES_PER_GATHER: statements of the inner loop's body per access that
 * differs between lanes, at least (gathers and scatters across lanes cost
 * one element each: a body of them gains nothing from lanes). */
enum { LANES = 8, MIN_INNER = 64, MAX_FISSIONS = 16, LEAVES_PER_GATHER = 4 };

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

/* The sequence of items that loop's body is, looking through the locals
 * that make it up (the items fission splits at): *items and the count;
 * a body that is one statement is one item. */
static int body_items(ast_stmt *loop, ast_stmt ***items)
{
    ast_stmt **body = &loop->u.loop.body;
    for (;;) {
        ast_stmt *b = *body;
        if (b->kind == AST_VARDEF) {
            body = &b->u.def.body;
        } else if (b->kind == AST_SEQ && !b->label && b->u.seq.n == 1) {
            body = &b->u.seq.stmts[0];
        } else if (b->kind == AST_SEQ && !b->label) {
            *items = b->u.seq.stmts;
            return b->u.seq.n;
        } else {
            *items = body;
            return 1;
        }
    }
}

/* The loop that follows loop in its sequence, or NULL. */
static ast_stmt *next_loop(xf_auto *a, ast_stmt *loop)
{
    int k;
    ast_stmt *p = xf_parent_seq(a->ctx, a->f->body, loop, &k);
    if (!p || k + 1 >= p->u.seq.n || p->u.seq.stmts[k + 1]->kind != AST_FOR)
        return NULL;
    return p->u.seq.stmts[k + 1];
}

/* Run one primitive's result through quiet mode: NULL when it was done,
 * else the refusal (the primitive reported it). */
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

/* Split lane loop `lane_id` (its body holding F, id fid) until one lane
 * loop holds only F; the IDs of the other lane loops are pushed on others.
 * Returns the ID of F's lane loop, or -1 with *why set. */
static int distribute(xf_auto *a, int lane_id, int fid, ft_vec *others, const char **why)
{
    lanes_run r = {.a = a};
    for (int step = 0; step < MAX_FISSIONS; step++) {
        ast_stmt *l = xf_auto_loop_by_id(a->ctx, a->f, lane_id);
        ast_stmt *fl = xf_auto_loop_by_id(a->ctx, a->f, fid);
        if (!l || !fl) {
            *why = "a loop was lost while splitting the lanes";
            return -1;
        }
        ast_stmt **items;
        int n = body_items(l, &items), k = 0;
        while (k < n && !holds(items[k], fl))
            k++;
        if (k == n) {
            *why = "the inner loop is not an item of the lanes' body";
            return -1;
        }
        if (n == 1) {
            if (items[0] == fl && l->u.loop.body == fl)
                return lane_id;
            if (items[0] == fl) {
                *why = "locals of the lanes' body are used by the inner loop only";
                return -1;
            }
            *why = "the inner loop sits inside a branch";
            return -1;
        }
        run_begin(&r);
        int bad = xf_fission(a->ctx, a->f, l, items[k], k > 0, NULL, NULL, l->loc);
        if ((*why = run_end(&r, bad)))
            return -1;
        ast_stmt *first = xf_auto_loop_by_id(a->ctx, a->f, lane_id);
        ast_stmt *second = first ? next_loop(a, first) : NULL;
        if (!second) {
            *why = "the loop fission made was not found";
            return -1;
        }
        if (k > 0) {
            ft_vec_push(a->ctx, others, (void *)(intptr_t)lane_id);
            lane_id = second->id;
        } else {
            ft_vec_push(a->ctx, others, (void *)(intptr_t)second->id);
        }
    }
    *why = "too many statements around the inner loop";
    return -1;
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

/* Vectorize loop id quietly; NULL when done, else why not. */
static const char *vectorize_id(xf_auto *a, int id)
{
    lanes_run r = {.a = a};
    ast_stmt *l = xf_auto_loop_by_id(a->ctx, a->f, id);
    if (!l)
        return "the loop was not found";
    run_begin(&r);
    int bad = xf_vectorize(a->ctx, a->f, l, l->loc);
    return run_end(&r, bad);
}

/* Lanes over J around F (both as described at the top); 1 when done,
 * else the function is as before and *why says what refused. */
static int make_lanes(xf_auto *a, ast_stmt *j, ast_stmt *f, const char **why)
{
    int jid = j->id, fid = f->id;
    lanes_run r = {.a = a};
    int lane_id = strip_mine(a, jid, why);
    ft_vec others = {0};
    if (lane_id >= 0)
        lane_id = distribute(a, lane_id, fid, &others, why);
    if (lane_id < 0)
        return 0;
    ast_stmt *order[2] = {xf_auto_loop_by_id(a->ctx, a->f, fid),
                          xf_auto_loop_by_id(a->ctx, a->f, lane_id)};
    run_begin(&r);
    int bad = xf_reorder(a->ctx, a->f, 2, order, j->loc);
    if ((*why = run_end(&r, bad)) || (*why = vectorize_id(a, lane_id)))
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
    if (p != AN_PAR_OK)
        return ft_fmt(a->ctx, "the iterations of the loop around it are not independent "
                      "(the lanes would collide): %s", w);
    return NULL;
}

/* Decide the serial innermost loop F; 1 when the function changed. */
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
    if (xf_auto_const_trips(a->ctx, f, &trips) && trips < MIN_INNER)
        why = ft_fmt(a->ctx, "it has %lld iterations (fewer than %d: the lanes would not "
                     "pay)", (long long)trips, MIN_INNER);
    else
        why = unfit(a, j, f);
    if (why) {
        xf_auto_log(a, PASS, fname, "no lanes over %s: %s", jname, why);
        return 0;
    }
    ast_stmt *snap = xf_auto_snapshot(a);
    if (!make_lanes(a, j, f, &why)) {
        xf_auto_restore(a, snap);
        xf_auto_log(a, PASS, fname, "no lanes over %s: %s", jname, why);
        return 0;
    }
    xf_auto_log(a, PASS, fname, "%s split into blocks of %d lanes; %s runs outside the "
                "lanes, which are vectorized", jname, LANES, fname);
    return 1;
}

int xf_auto_lanes(xf_auto *a)
{
    if (a->ctx->opts.target_cuda)
        return 0;
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
            changed = try_inner(a, l);
            n += changed;
        }
    }
    return n;
}
