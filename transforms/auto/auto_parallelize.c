/* auto_parallelize.c - run the outermost parallel loop of each nest with
 * OpenMP.
 *
 * Requires: f's AST (after auto_vectorize).
 * Provides: in every loop nest, the outermost loop whose iterations are
 * independent (an_loop_parallel answers OK) marked AST_OPENMP through
 * xf_parallelize; the loops inside it are left alone.  A loop that is
 * short (a constant trip count of at most SHORT_TRIPS, or a size that
 * `--size` hints that small: a batch of 1) or that carries a
 * dependence is passed over for the loops in its body.  Loops where only
 * same-operator reductions collide are passed over too: the atomics that
 * would make them parallel usually cost more than they give; except a loop
 * of unknown trip count whose colliding reductions are all at random
 * indices (a gradient's scatter `d_e[adj[i, j]] += ...`, or GAT's
 * `d_er[idx[k]] += ...` with k over node i's edges ptr[i] .. ptr[i + 1] - 1):
 * it runs in parallel with those reductions atomic (only those: what is
 * indexed by the iteration itself never collides), unless an atomic index
 * does not change with the iteration (every thread would hit the same
 * elements; atomics_shared).  When the
 * chosen loop is short (fewer than MERGE_BELOW iterations) and its body is
 * only one more parallel loop, the two are merged first (xf_merge) so that
 * the threads share more iterations.  A vectorized loop (auto_vectorize)
 * that the walk reaches, no enclosing loop being parallel, runs with
 * threads instead, unless two serial loops of unknown trip count enclose
 * it (a parallel region per instance of a two-size nest costs more than
 * the row it runs).
 */
#include "auto_util.h"

#include "../schedule.h"
#include "../xf_util.h"
#include "../../ast/visit.h"

enum { SHORT_TRIPS = 4, MERGE_BELOW = 64 };

static const char *const PASS = "auto_parallelize";

/* The walk's state: loops already logged (IDs), so that a rescan after a
 * merge does not log them twice. */
typedef struct par_walk {
    xf_auto *a;
    ft_vec seen;
    ft_vec nomerge;       /* IDs of loops whose merge did not pay */
    ft_vec serial;        /* IDs of loops found to stay serial after a try
                             that changed them (undone) */
    int serial_sym;       /* enclosing serial loops of unknown trip count */
} par_walk;

/* Whether loop was seen before (and remember it). */
static int seen(par_walk *w, const ast_stmt *loop)
{
    for (int i = 0; i < w->seen.len; i++)
        if (w->seen.items[i] == (void *)(intptr_t)loop->id)
            return 1;
    ft_vec_push(w->a->ctx, &w->seen, (void *)(intptr_t)loop->id);
    return 0;
}

static int walk(par_walk *w, ast_stmt *s);

/* Whether ids holds loop's ID. */
static int has_id(const ft_vec *ids, const ast_stmt *loop)
{
    for (int i = 0; i < ids->len; i++)
        if (ids->items[i] == (void *)(intptr_t)loop->id)
            return 1;
    return 0;
}

/* The loop that is all of loop's body, when there is one. */
static ast_stmt *only_inner_loop(ast_stmt *loop)
{
    ast_stmt *b = loop->u.loop.body;
    if (b->kind == AST_SEQ && b->u.seq.n == 1)
        b = b->u.seq.stmts[0];
    return b->kind == AST_FOR ? b : NULL;
}

/* Merge a short parallel loop with the parallel loop that is its whole
 * body, then parallelize the result; 1 when done. */
static int merge_and_parallelize(par_walk *w, ast_stmt *loop, int64_t n)
{
    xf_auto *a = w->a;
    ast_stmt *inner = only_inner_loop(loop);
    const char *why;
    if (!inner || inner->u.loop.par == AST_OPENMP || xf_auto_loop_par(a, inner, &why) != AN_PAR_OK)
        return 0;
    const char *lname = xf_auto_name(a, loop), *iname = xf_auto_name(a, inner);
    int id = loop->id;
    for (int i = 0; i < w->nomerge.len; i++)
        if (w->nomerge.items[i] == (void *)(intptr_t)id)
            return 0;
    ast_stmt *snap = xf_auto_snapshot(a);
    ast_par was = inner->u.loop.par;
    inner->u.loop.par = AST_SERIAL;       /* merge takes serial loops */
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_merge(a->ctx, a->f, loop, inner, NULL, loop->loc);
    why = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        inner->u.loop.par = was;
        xf_auto_log(a, PASS, lname, "not merged with %s: %s", iname, why);
        return 0;
    }
    ast_stmt *m = xf_auto_loop_by_id(a->ctx, a->f, id);
    xf_auto_quiet_begin(a->ctx, &q);
    bad = !m || xf_parallelize(a->ctx, a->f, m, m->loc);
    why = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        xf_auto_restore(a, snap);
        ft_vec_push(a->ctx, &w->nomerge, (void *)(intptr_t)id);
        xf_auto_log(a, PASS, lname, "not merged with %s: the merged loop would not be "
                    "parallel: %s", iname, why);
        return 1;
    }
    xf_auto_label_later(a, m);
    seen(w, m);
    xf_auto_log(a, PASS, lname, "merged with %s%s (%lld iterations outside) into %s, "
                "parallelized", iname, was == AST_VECTORIZE ? " (no longer vectorized)" : "",
                (long long)n, xf_auto_name(a, m));
    return 1;
}

/* A vectorized loop that no parallel loop encloses: run it with threads
 * instead when it can (each thread's chunk is still a simple loop the C
 * compiler vectorizes); else leave it vectorized. */
static int vectorized_loop(par_walk *w, ast_stmt *loop, int quiet)
{
    xf_auto *a = w->a;
    const char *lname = xf_auto_name(a, loop);
    int64_t n = 0;
    if (xf_auto_const_trips(a->ctx, loop, &n) && n <= MERGE_BELOW) {
        if (!quiet)
            xf_auto_log(a, PASS, lname, "left vectorized (%lld iterations)", (long long)n);
        return 0;
    }
    if (w->serial_sym >= 2) {
        if (!quiet)
            xf_auto_log(a, PASS, lname, "left vectorized: %d serial loops of unknown trip "
                        "count enclose it (a parallel region would open in every iteration "
                        "of both)", w->serial_sym);
        return 0;
    }
    const char *why0 = NULL;
    if (xf_auto_loop_par(a, loop, &why0) != AN_PAR_OK) {
        if (!quiet)
            xf_auto_log(a, PASS, lname, "left vectorized: its reductions would need atomics");
        return 0;
    }
    loop->u.loop.par = AST_SERIAL;
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_parallelize(a->ctx, a->f, loop, loop->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        loop->u.loop.par = AST_VECTORIZE;
        if (!quiet)
            xf_auto_log(a, PASS, lname, "left vectorized: %s", why);
        return 0;
    }
    xf_auto_label_later(a, loop);
    xf_auto_log(a, PASS, lname, "parallelized instead of vectorized (no enclosing loop "
                "is parallel)");
    return 0;
}

/* Whether the reductions that collide across loop's iterations are all at
 * random (data-dependent) indices, like a backward pass's
 * `d_e[adj[i, j]] += ...`: different iterations rarely hit one element, so
 * the atomics xf_parallelize adds cost little, and parallelizing the loop
 * beats opening a parallel region per iteration in its body. */
static int only_random_collisions(xf_auto *a, const ast_stmt *loop)
{
    an_deps *d = an_loop_deps(a->ctx, a->f, loop);
    if (!d)
        return 0;
    int r = an_loop_affine_collisions(d, loop);
    an_deps_free(d);
    return r == 0;
}

/* Whether some atomic reduction under s has indices that use no name of
 * vary.  vary starts as the parallel loop's iterator; an inner loop whose
 * range uses a varying name adds its own iterator while its body is
 * walked (a CSR row `for k in range(ptr[i], ptr[i + 1])`: which k run,
 * and so where `d[idx[k]]` lands, changes with i). */
static int atomic_shared_in(ft_ctx *ctx, const ast_stmt *s, ft_vec *vary)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (atomic_shared_in(ctx, s->u.seq.stmts[i], vary))
                return 1;
        return 0;
    case AST_VARDEF: return atomic_shared_in(ctx, s->u.def.body, vary);
    case AST_IF:
        return atomic_shared_in(ctx, s->u.branch.then, vary) ||
               atomic_shared_in(ctx, s->u.branch.other, vary);
    case AST_FOR: {
        int len = vary->len;
        xf_auto_vary_range(ctx, s, vary);
        int r = atomic_shared_in(ctx, s->u.loop.body, vary);
        vary->len = len;
        return r;
    }
    case AST_REDUCE: {
        if (!s->u.red.atomic)
            return 0;
        for (int i = 0; i < s->u.red.n; i++)
            if (xf_auto_uses_any(s->u.red.idx[i], vary))
                return 0;
        return 1;
    }
    default: return 0;
    }
}

/* Collects the reductions that are not atomic. */
typedef struct plain_find {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *out;
} plain_find;

static int plain_find_cb(ast_visitor *v, ast_stmt *s)
{
    plain_find *w = (plain_find *)v;
    if (s->kind == AST_REDUCE && !s->u.red.atomic)
        ft_vec_push(w->ctx, w->out, s);
    return 1;
}

/* The reductions under loop that are not atomic (yet), into out. */
static void plain_reductions(ft_ctx *ctx, ast_stmt *loop, ft_vec *out)
{
    plain_find w = {.v.stmt = plain_find_cb, .ctx = ctx, .out = out};
    ast_visit(loop->u.loop.body, &w.v);
}

/* Take back xf_parallelize of loop, which marked it parallel and some of
 * the reductions `plain` (plain_reductions before it) atomic: flags only,
 * so f keeps its nodes (a restored copy would be a new version of f for
 * the dependence caches, and would leave the walk on stale statements). */
static void undo_parallelize(ast_stmt *loop, const ft_vec *plain)
{
    loop->u.loop.par = AST_SERIAL;
    for (int i = 0; i < plain->len; i++)
        ((ast_stmt *)plain->items[i])->u.red.atomic = 0;
}

/* Whether some atomic reduction under loop has indices that do not
 * change with its iteration (softras: every pixel adds into the vertices
 * of every face): all threads then contend for the same elements.  An
 * index through an inner iterator whose range depends on the iteration
 * (GAT's backward pass: `d_er[idx[k]]`, k over node i's edges) changes
 * with it: the threads mostly hit different elements. */
static int atomics_shared(ft_ctx *ctx, ast_stmt *loop)
{
    ft_vec vary = {0};
    ft_vec_push(ctx, &vary, (void *)loop->u.loop.iter);
    return atomic_shared_in(ctx, loop->u.loop.body, &vary);
}

/* Walk the body of loop, which stays serial; is_const: its trip count is
 * a constant.  A serial loop of unknown trip count counts in
 * w->serial_sym while its body is walked: a vectorized loop under two of
 * them (a row inside a serial nest over two sizes) stays vectorized
 * rather than open a parallel region per instance of the nest (the
 * forward pass of Longformer's gradient, serial over heads x positions,
 * opened ~67 regions per position: 91% of its time in libgomp).  Under
 * one (time steps around a parallel sweep) it still runs with threads. */
static int walk_serial_body(par_walk *w, ast_stmt *loop, int is_const)
{
    w->serial_sym += !is_const;
    int r = walk(w, loop->u.loop.body);
    w->serial_sym -= !is_const;
    return r;
}

/* Decide loop: parallelize it, or go into its body.  1 when the tree
 * changed shape (the walk starts again). */
static int try_loop(par_walk *w, ast_stmt *loop)
{
    xf_auto *a = w->a;
    int quiet = seen(w, loop);
    const char *lname = xf_auto_name(a, loop), *why = NULL;
    if (loop->u.loop.par == AST_VECTORIZE)
        return vectorized_loop(w, loop, quiet);
    if (loop->u.loop.par != AST_SERIAL)
        return 0;
    int64_t n = 0;
    int is_const = xf_auto_const_trips(a->ctx, loop, &n);
    if (has_id(&w->serial, loop))
        return walk_serial_body(w, loop, is_const);
    int64_t hint = 0;           /* `--size n=1`: a batch of one, expected */
    if (is_const ? n <= SHORT_TRIPS
                 : xf_auto_hinted_trips(a->ctx, loop, &hint) && hint <= SHORT_TRIPS) {
        if (!quiet)
            xf_auto_log(a, PASS, lname, "passed over: %lld iterations%s",
                        (long long)(is_const ? n : hint), is_const ? "" : " (--size)");
        return walk(w, loop->u.loop.body);
    }
    an_par r = xf_auto_loop_par(a, loop, &why);
    /* colliding reductions: atomic when random (rarely collide), else
     * tried, and kept only when auto_privatize gives them per-thread
     * copies (a weight gradient d_w += over every face of a mesh) */
    int atomics = (r == AN_PAR_ATOMIC || r == AN_PAR_REDUCTION) && !is_const;
    int random = atomics && only_random_collisions(a, loop);
    if (r != AN_PAR_OK && !atomics) {
        if (!quiet)
            xf_auto_log(a, PASS, lname, "not parallel: %s", r == AN_PAR_NO ? why
                        : r == AN_PAR_ERROR ? "the dependence analysis failed"
                        : "reductions of different iterations collide (would need atomics)");
        return walk_serial_body(w, loop, is_const);
    }
    if (!atomics && is_const && n < MERGE_BELOW && merge_and_parallelize(w, loop, n))
        return 1;
    ft_vec plain = {0};
    if (atomics)
        plain_reductions(a->ctx, loop, &plain);
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_parallelize(a->ctx, a->f, loop, loop->loc);
    why = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        xf_auto_log(a, PASS, lname, "refused: %s", why);
        return walk_serial_body(w, loop, is_const);
    }
    int shared = atomics && (!random || atomics_shared(a->ctx, loop));
    if (shared && !xf_auto_privatizable(a, loop)) {
        /* flags only: f keeps its nodes (and the analyses cached for
         * them); a restart of the walk goes straight into the body */
        undo_parallelize(loop, &plain);
        ft_vec_push(a->ctx, &w->serial, (void *)(intptr_t)loop->id);
        xf_auto_log(a, PASS, lname, "not parallel: its atomic reductions would hit the same "
                    "elements in every iteration");
        return walk_serial_body(w, loop, is_const);
    }
    xf_auto_label_later(a, loop);
    xf_auto_log(a, PASS, lname, shared ? "parallelized (colliding reductions to per-thread "
                "copies)" : atomics ? "parallelized (random-access reductions atomic)"
                : "parallelized");
    return 0;
}

/* Walk s for the outermost loops; 1 when the tree changed shape. */
static int walk(par_walk *w, ast_stmt *s)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (walk(w, s->u.seq.stmts[i]))
                return 1;
        return 0;
    case AST_VARDEF: return walk(w, s->u.def.body);
    case AST_IF: return walk(w, s->u.branch.then) || walk(w, s->u.branch.other);
    case AST_FOR: return try_loop(w, s);
    default: return 0;
    }
}

int xf_auto_parallelize(xf_auto *a)
{
    par_walk w = {.a = a};
    int rounds = 0;
    while (walk(&w, a->f->body) && ++rounds < 64)
        ;
    int n = 0;
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++)
        n += ((ast_stmt *)loops.items[i])->u.loop.par == AST_OPENMP;
    return n;
}
