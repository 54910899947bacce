/* auto.c - the auto-scheduler's driver: which functions, which passes.
 *
 * Requires: the AST after the user's schedules.
 * Provides: every function without a `schedule` block, or with one that
 * ends with `auto` (its lines' loops pinned: the primitives refuse to
 * restructure them, xf_sched_pinned), scheduled by the
 * passes of auto.h, in order: the block loops of laid-out tensors moved
 * inward first (a loop order the layouts call for), dead writes of locals
 * dropped (they
 * only constrain the others), matrix products handed to BLAS (any
 * other pass could reshape their nests), sums of local accumulators added
 * straight into their destination (the loops that accumulate then update
 * one tensor, which fusion joins), then fusion (it makes the loops the later
 * passes look at), scalar accumulators for reductions into one element
 * (they make those loops vectorizable), rows accumulated across a loop
 * kept in a local one tile at a time (the tile loops are then
 * vectorized), vectorization before parallelization (a reorder that
 * brings a contiguous loop innermost would move a parallel loop inwards),
 * lanes over the loop around a serial inner loop that vectorization left
 * (it takes what vectorization could not; after parallelization, whose
 * dependence analysis then sees the body before the lanes and their tail
 * double it), per-thread copies after those (they replace the atomics
 * parallelization added, which the lanes' sums keep), a `+=` into zeros
 * made a store after auto_jam (it needs jam's flushes), register promotion
 * of the elements left after those (it takes what they did not), unrolling
 * (only the innermost short loops the others left alone), fusion again, of
 * the vectorized loops that unrolling left side by side, costly expressions
 * that do not depend on a loop around them moved out of it, repeated costly
 * subexpressions (their 0-D locals concern no other pass), repeated float
 * loads after them (a load that cse moved into its local counts once), and
 * prefetches last (hints on the loops as they will be emitted).
 */
#include "auto.h"

#include <string.h>

#include "auto_util.h"
#include "target.h"
#include "timer.h"
#include "../verify_par.h"

typedef int (*auto_pass)(xf_auto *a);

/* A pass, its name in the --time-passes report, and the capabilities
 * (ast/target.h) a target must have for it to run. */
typedef struct auto_step {
    auto_pass run;
    const char *name;
    unsigned needs;
} auto_step;

static const auto_step passes[] = {
    /* loops of one iteration (a 1x1 window's) replaced by their body, so
     * that the loop around them is innermost for the passes below */
    {xf_auto_one_trip, "auto: one_trip", 0},
    /* the block loops of laid-out tensors moved inward (the layout pass
     * split them off) */
    {xf_auto_layout_sink, "auto: layout_sink", 0},
    /* a loop and the loop in it merged where the body reads them as one
     * index (a blocked channel sum whose conversion the cleanups folded) */
    {xf_auto_unsplit, "auto: unsplit", 0},
    /* writes of locals that nothing reads afterwards dropped */
    {xf_auto_dead_store, "auto: dead_store", 0},
    /* matrix products (m*n*k >= 64^3 or sizes unknown) to BLAS */
    {xf_auto_use_lib, "auto: use_lib", FT_CAP_HOST},
    /* `D = t + t_1 + ...` of zeroed, `+=`-accumulated locals: their
     * updates go straight into D */
    {xf_auto_sum_dest, "auto: sum_dest", FT_CAP_HOST},
    /* neighbouring loops over the same range fused */
    {xf_auto_fuse, "auto: fuse", 0},
    /* a reduction into one element of a tensor over a loop accumulated in a
     * 0-D local (vectorizable) */
    {xf_auto_red_scalar, "auto: red_scalar", FT_CAP_HOST},
    /* a row accumulated across an outer loop kept in a local one tile at a
     * time (the tile loops are then vectorized) */
    {xf_auto_row_tile, "auto: row_tile", FT_CAP_HOST},
    /* a contiguous-access loop brought innermost, vectorized */
    {xf_auto_vectorize, "auto: vectorize", 0},
    /* the outermost parallel loop of each nest on OpenMP */
    {xf_auto_parallelize, "auto: parallelize", 0},
    /* SIMD lanes over the loop around a serial inner loop that
     * vectorization left */
    {xf_auto_lanes, "auto: lanes", FT_CAP_HOST},
    /* per-thread copies instead of atomics for the scatters of a parallel
     * loop (CSR rows, dense scatters) */
    {xf_auto_privatize, "auto: privatize", FT_CAP_HOST},
    /* an atomic reduction's loop over terms: one atomic flush */
    {xf_auto_red_cache, "auto: red_cache", FT_CAP_HOST},
    /* unroll-and-jam of a reduction nest (register blocking) */
    {xf_auto_jam, "auto: jam", FT_CAP_HOST},
    /* `t[e] = 0` ... `t[e] += v` as `t[e] = v` when nothing else touches t */
    {xf_auto_zero_init, "auto: zero_init", 0},
    /* an element that a loop's iteration only accumulates into, summed in
     * a scalar (register promotion) */
    {xf_auto_promote, "auto: promote", FT_CAP_HOST},
    /* the parallel loop on blockIdx.x, its inner parallel loops on
     * threadIdx.x */
    {xf_auto_gpu_bind, "auto: gpu_bind", FT_CAP_GPU},
    /* small temporaries of bounded size on the stack */
    {xf_auto_mem_type, "auto: mem_type", 0},
    /* very short constant loops unrolled */
    {xf_auto_unroll, "auto: unroll", 0},
    /* fusion again: the neighbouring vectorized loops unrolling left */
    {xf_auto_fuse_late, "auto: fuse_late", 0},
    /* a costly expression that does not depend on a loop its statement is
     * in (gelu of a product's operand, fused into the product's column
     * loop) computed once before that loop */
    {xf_auto_licm, "auto: licm", FT_CAP_HOST},
    /* a costly subexpression that statements repeat (a gradient's
     * adjoints) computed once in a 0-D local */
    {xf_auto_cse, "auto: cse", FT_CAP_HOST},
    /* a float element read again and again by a body that does not write
     * its tensor, loaded once into a 0-D local */
    {xf_auto_hoist_load, "auto: hoist_load", FT_CAP_HOST},
    /* the updates of one element in a body merged into one */
    {xf_auto_merge_red, "auto: merge_red", 0},
    /* the rows a serial loop reaches through loaded indices (idx[k])
     * prefetched iterations ahead */
    {xf_auto_prefetch, "auto: prefetch", FT_CAP_HOST},
    {NULL, NULL, 0}};

int xf_auto_schedule(ft_ctx *ctx, ast_program *p)
{
    int bad = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        xf_auto a = {ctx, p->funcs[i], {0}};
        if (ast_has_schedule(p, a.f->name) && !a.f->auto_after) {
            xf_auto_log(&a, "auto", a.f->name, "skipped: the function has a schedule block "
                        "(end it with `auto` to schedule what its lines leave)");
            continue;
        }
        ctx->deps_budget = XF_AUTO_ANALYSES;
        double t = ft_cpu_seconds();
        for (int k = 0; passes[k].run; k++) {
            if ((ctx->target->caps & passes[k].needs) != passes[k].needs)
                continue;
            passes[k].run(&a);
            xf_auto_label_flush(&a);
            t = ft_time_mark(ctx, passes[k].name, t);
            /* --verify=passes: the pass that broke a parallel loop is named */
            if (ctx->opts.verify == FT_VERIFY_PASSES &&
                (bad |= xf_verify_parallel(ctx, a.f, passes[k].name)))
                break;
        }
        ctx->deps_budget = -1;
    }
    return bad;
}
