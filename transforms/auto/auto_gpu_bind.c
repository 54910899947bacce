/* auto_gpu_bind.c - the auto-scheduler's GPU path: blocks and threads.
 *
 * Requires: f's AST after auto_parallelize; the CUDA target (on the C
 * target the pass does nothing).
 * Provides: each outermost parallel loop L that auto_parallelize chose
 * (an openmp loop, which the CUDA backend would run as a flat kernel, one
 * thread per iteration of L) rebound to blockIdx.x, with the loops at the
 * first loop level of its body that may run in parallel (independent
 * iterations, or colliding reductions: block reductions or atomics in the
 * backend) and are not short bound to threadIdx.x: the usual GPU mapping
 * (rows over blocks, the contiguous inner loop over threads, so that a
 * warp reads consecutive elements), through xf_parallelize_gpu (checked by
 * the dependence analysis like any schedule).  Kept on openmp when no
 * inner loop qualifies, or when the statements of L's body outside those
 * loops declare a local that shared memory cannot hold (its size not
 * known at launch, or more than SHARED_MAX bytes of constant size in
 * all): those locals become __shared__ arrays of the block, the ones whose
 * dims are expressions of size parameters in dynamic shared memory sized
 * at the launch (backend/cg_cuda.c).  A constant loop shorter than a warp
 * (SubdivNet's loop over the 3 neighbours) stays serial at the block level
 * and the loops of its body are candidates for the threads.  Of a loop
 * whose iterations collide in reductions (a product's k loop) whose body is
 * one loop with independent iterations, the inner loop is bound instead.
 * When L's whole body is its one thread loop and that loop may run longer
 * than a block (a 2-D parallel nest: Longformer's heads x positions), the
 * thread loop is split by BLOCK_THREADS and its outer part bound to
 * blockIdx.y, so that the grid has a block for every BLOCK_THREADS
 * iterations and not only one for each of L's (8 heads ran on 8 of the
 * GPU's 132 multiprocessors).
 */
#include "auto_util.h"

#include "../schedule.h"

#include <string.h>

enum {
    MIN_THREADS = 32,          /* a constant loop shorter than a warp stays serial */
    BLOCK_THREADS = 128,       /* threads a block when a thread loop is spread over blocks */
    SHARED_MAX = 32 * 1024     /* bytes of block-level locals allowed */
};

static const char *const PASS = "auto_gpu_bind";

/* Collect the loops of s not nested in another loop of s. */
static void first_loops(ast_stmt *s, ft_vec *out, ft_ctx *ctx)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            first_loops(s->u.seq.stmts[i], out, ctx);
        break;
    case AST_VARDEF: first_loops(s->u.def.body, out, ctx); break;
    case AST_IF:
        first_loops(s->u.branch.then, out, ctx);
        first_loops(s->u.branch.other, out, ctx);
        break;
    case AST_FOR: ft_vec_push(ctx, out, s); break;
    default: break;
    }
}

/* Whether s is in v (a vector of statement pointers). */
static int chosen(const ft_vec *v, const ast_stmt *s)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == s)
            return 1;
    return 0;
}

/* Whether e reads nothing but constants and size parameters of f: known
 * when a kernel inside f is launched. */
static int launch_known(const ast_func *f, const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT: return 1;
    case AST_VAR:
        for (int i = 0; i < f->nparams; i++)
            if (f->params[i].is_size && strcmp(f->params[i].name, e->u.name) == 0)
                return 1;
        return 0;
    case AST_BINARY:
        return e->u.bin.op != AST_AND && e->u.bin.op != AST_OR &&
               launch_known(f, e->u.bin.a) && launch_known(f, e->u.bin.b);
    default: return 0;
    }
}

/* Bytes of the locals of constant size declared in s outside the loops of
 * threads (those run per thread); -1 when one has a size not known at
 * launch (locals sized by size parameters count 0: dynamic shared memory). */
static int64_t shared_bytes(const ast_func *f, ast_stmt *s, const ft_vec *threads)
{
    static const int64_t size[FT_DTYPE_COUNT] = {1, 4, 8, 2, 4, 8};
    if (!s || chosen(threads, s))
        return 0;
    switch (s->kind) {
    case AST_SEQ: {
        int64_t n = 0;
        for (int i = 0; i < s->u.seq.n; i++) {
            int64_t k = shared_bytes(f, s->u.seq.stmts[i], threads);
            if (k < 0)
                return -1;
            n += k;
        }
        return n;
    }
    case AST_VARDEF: {
        int64_t n = size[s->u.def.dtype];
        for (int k = 0; k < s->u.def.ndim; k++) {
            const ast_expr *d = s->u.def.shape[k];
            if (d->kind != AST_INT && launch_known(f, d)) {
                n = 0;      /* dynamic shared memory */
                continue;
            }
            if (d->kind != AST_INT || d->u.ival < 0 || d->u.ival > SHARED_MAX)
                return -1;
            n *= d->u.ival;
            if (n > SHARED_MAX)
                return -1;
        }
        int64_t in = shared_bytes(f, s->u.def.body, threads);
        return in < 0 ? -1 : n + in;
    }
    case AST_IF: {
        int64_t t = shared_bytes(f, s->u.branch.then, threads);
        int64_t o = shared_bytes(f, s->u.branch.other, threads);
        return t < 0 || o < 0 ? -1 : t + o;
    }
    case AST_FOR: return shared_bytes(f, s->u.loop.body, threads);
    default: return 0;
    }
}

/* The loop that is the whole body of loop m, or NULL. */
static ast_stmt *sole_loop(ast_stmt *m)
{
    ast_stmt *b = m->u.loop.body;
    while (b && b->kind == AST_SEQ && b->u.seq.n == 1)
        b = b->u.seq.stmts[0];
    return b && b->kind == AST_FOR ? b : NULL;
}

/* The loops of L's body to bind to threads: parallel (or with colliding
 * reductions only) and not shorter than a warp. */
static void thread_loops(xf_auto *a, ast_stmt *L, ft_vec *out)
{
    ft_vec cands = {0};
    first_loops(L->u.loop.body, &cands, a->ctx);
    for (int i = 0; i < cands.len; i++) {
        ast_stmt *m = cands.items[i];
        const char *mname = xf_auto_name(a, m), *why = NULL;
        int64_t n = 0;
        if (m->u.loop.par != AST_SERIAL && m->u.loop.par != AST_VECTORIZE)
            continue;
        if (xf_auto_const_trips(a->ctx, m, &n) && n < MIN_THREADS) {
            xf_auto_log(a, PASS, mname, "not bound to threads: %lld iterations%s", (long long)n,
                        m->u.loop.par == AST_SERIAL ? " (its inner loops may be)" : "");
            if (m->u.loop.par == AST_SERIAL)
                first_loops(m->u.loop.body, &cands, a->ctx);
            continue;
        }
        an_par r = xf_auto_loop_par(a, m, &why);
        if (r == AN_PAR_NO || r == AN_PAR_ERROR) {
            xf_auto_log(a, PASS, mname, "not bound to threads: %s",
                        r == AN_PAR_NO ? why : "the dependence analysis failed");
            continue;
        }
        ast_stmt *in = r == AN_PAR_OK ? NULL : sole_loop(m);
        an_par ri = in ? xf_auto_loop_par(a, in, &why) : AN_PAR_NO;
        if (ri == AN_PAR_OK && (in->u.loop.par == AST_SERIAL || in->u.loop.par == AST_VECTORIZE)) {
            /* a product's k loop around its j loop: threads over j, no atomics */
            xf_auto_log(a, PASS, mname, "not bound to threads: its iterations collide in "
                        "reductions, its inner loop's do not");
            m = in;
        }
        ft_vec_push(a->ctx, out, m);
    }
}

/* Bind loop to par quietly; the refusal's reason, or NULL when bound. */
static const char *bind(xf_auto *a, ast_stmt *loop, ast_par par)
{
    ast_par was = loop->u.loop.par;
    loop->u.loop.par = AST_SERIAL;
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_parallelize_gpu(a->ctx, a->f, loop, par, loop->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        loop->u.loop.par = was;
        return why ? why : "refused";
    }
    return NULL;
}

/* The ID of the loop to bind to threadIdx.x for thread loop m (ID mid) of
 * L, L already on blockIdx.x: m itself, or, when L's body is m alone and m
 * may run longer than BLOCK_THREADS, the inner loop of m split by
 * BLOCK_THREADS with the outer one (m) on blockIdx.y; mid unchanged when
 * that is refused (the AST as it was). */
static int spread_over_blocks(xf_auto *a, int lid, int mid)
{
    ast_stmt *L = xf_auto_loop_by_id(a->ctx, a->f, lid);
    ast_stmt *m = xf_auto_loop_by_id(a->ctx, a->f, mid);
    int64_t n = 0;
    if (!L || !m || sole_loop(L) != m ||
        (xf_auto_const_trips(a->ctx, m, &n) && n <= BLOCK_THREADS))
        return mid;
    ast_stmt *snap = xf_auto_snapshot(a);
    m->u.loop.par = AST_SERIAL;     /* a vectorized loop: threads replace its lanes, as in bind */
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_split(a->ctx, a->f, m, BLOCK_THREADS, 0, NULL, NULL, m->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    m = bad ? NULL : xf_auto_loop_by_id(a->ctx, a->f, mid);
    ast_stmt *inner = m ? sole_loop(m) : NULL;
    if (!bad)
        why = inner ? bind(a, m, AST_BLOCK_Y) : "the split loops were not found";
    if (bad || why) {
        xf_auto_restore(a, snap);
        xf_auto_log(a, PASS, xf_auto_name(a, xf_auto_loop_by_id(a->ctx, a->f, mid)),
                    "not spread over blockIdx.y: %s", why ? why : "the split was refused");
        return mid;
    }
    xf_auto_label_later(a, m);
    xf_auto_log(a, PASS, xf_auto_name(a, m), "split by %d, the outer loop bound to blockIdx.y",
                BLOCK_THREADS);
    return inner->id;
}

/* Rebind openmp loop L (ID id) to blocks and its inner loops to threads;
 * 1 when done. */
static int bind_nest(xf_auto *a, int id)
{
    ast_stmt *L = xf_auto_loop_by_id(a->ctx, a->f, id);
    if (!L || L->u.loop.par != AST_OPENMP)
        return 0;
    const char *lname = xf_auto_name(a, L);
    ft_vec threads = {0};
    thread_loops(a, L, &threads);
    if (!threads.len) {
        xf_auto_log(a, PASS, lname, "kept on openmp (a flat kernel): no inner loop to bind "
                    "to threads");
        return 0;
    }
    int64_t bytes = shared_bytes(a->f, L->u.loop.body, &threads);
    if (bytes < 0 || bytes > SHARED_MAX) {
        xf_auto_log(a, PASS, lname, "kept on openmp (a flat kernel): a local outside its "
                    "thread loops would need shared memory of %s", bytes < 0 ?
                    "a size not known at launch" : "more than 32 KiB");
        return 0;
    }
    int tid[64], nt = 0;
    for (int i = 0; i < threads.len && nt < 64; i++)
        tid[nt++] = ((ast_stmt *)threads.items[i])->id;
    ast_stmt *snap = xf_auto_snapshot(a);
    const char *why = bind(a, L, AST_BLOCK_X);
    if (why) {
        xf_auto_log(a, PASS, lname, "kept on openmp: not bound to blockIdx.x: %s", why);
        return 0;
    }
    if (nt == 1)
        tid[0] = spread_over_blocks(a, id, tid[0]);
    int bound = 0;
    for (int i = 0; i < nt; i++) {
        ast_stmt *m = xf_auto_loop_by_id(a->ctx, a->f, tid[i]);
        const char *mname = m ? xf_auto_name(a, m) : "?";
        if (!m || (why = bind(a, m, AST_THREAD_X)) != NULL) {
            xf_auto_log(a, PASS, mname, "not bound to threadIdx.x: %s", m ? why : "gone");
            continue;
        }
        xf_auto_label_later(a, m);
        xf_auto_log(a, PASS, mname, "bound to threadIdx.x");
        bound++;
    }
    if (!bound) {
        xf_auto_restore(a, snap);
        xf_auto_log(a, PASS, lname, "kept on openmp (a flat kernel): no inner loop could "
                    "be bound to threads");
        return 0;
    }
    xf_auto_label_later(a, xf_auto_loop_by_id(a->ctx, a->f, id));
    xf_auto_log(a, PASS, lname, "bound to blockIdx.x (was openmp)");
    return 1;
}

int xf_auto_gpu_bind(xf_auto *a)
{
    ft_vec loops = {0}, ids = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++)
        if (((ast_stmt *)loops.items[i])->u.loop.par == AST_OPENMP)
            ft_vec_push(a->ctx, &ids, (void *)(intptr_t)((ast_stmt *)loops.items[i])->id);
    int n = 0;
    for (int i = 0; i < ids.len; i++)
        n += bind_nest(a, (int)(intptr_t)ids.items[i]);
    return n;
}
