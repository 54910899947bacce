/* auto.h - the auto-scheduler (transforms/auto/): schedules for the
 * functions that have none.
 *
 * Requires: the AST after the user's schedules (transforms/schedule.c).
 * Provides: for every exported function without a `schedule` block (and
 * unless --no-auto), the passes below, in this order, each one a file that
 * only applies legal transforms through the dependence-checked primitives of
 * schedule.h (a refused primitive leaves the function as it was):
 *   auto_dead_store.c  writes of locals that nothing reads afterwards dropped
 *   auto_use_lib.c     matrix products (m*n*k >= 64^3 or sizes unknown) to BLAS
 *   auto_sum_dest.c    `D = t + t_1 + ...` of zeroed, `+=`-accumulated
 *                      locals: their updates go straight into D
 *   auto_fuse.c        neighbouring loops over the same range fused
 *   auto_red_scalar.c  a reduction into one element of a tensor over a loop
 *                      accumulated in a 0-D local (vectorizable)
 *   auto_vectorize.c   a contiguous-access loop brought innermost, vectorized
 *   auto_parallelize.c the outermost parallel loop of each nest on OpenMP
 *   auto_privatize.c   per-thread copies instead of atomics for the scatters
 *                      of a parallel loop (CSR rows, dense scatters)
 *   auto_red_cache.c   an atomic reduction's loop over terms: one atomic flush
 *   auto_jam.c         unroll-and-jam of a reduction nest (register blocking)
 *   auto_gpu_bind.c    CUDA target: that loop on blockIdx.x, its inner
 *                      parallel loops on threadIdx.x
 *   auto_zero_init.c   `t[e] = 0` ...
 *                      `t[e] += v` as `t[e] = v` when nothing else touches t
 *   auto_promote.c     an element that a loop's iteration only accumulates
 *                      into, summed in a scalar (register promotion)
 *   auto_mem_type.c    small temporaries of bounded size on the stack
 *   auto_unroll.c      very short constant loops unrolled
 *   auto_fuse.c        again (auto_fuse_late): the neighbouring vectorized
 *                      loops over the same range that unrolling left
 *   auto_cse.c         a costly subexpression that statements repeat (the
 *                      adjoints of a gradient) computed once in a 0-D local
 *   auto_hoist_load.c  C target: a float element read again and again (or
 *                      in an inner loop) by a body that does not write its
 *                      tensor, loaded once into a 0-D local
 *   auto_prefetch.c    C target: the rows a serial loop reaches through
 *                      loaded indices (idx[k]) prefetched iterations ahead
 * With -v (ctx->opts.verbose) every decision is one line on ctx->diag_out:
 *   ftc: auto_parallelize: matmul: Li: parallelized
 */
#ifndef FT_AUTO_H
#define FT_AUTO_H

#include "../../ast/ast.h"

/* Run the auto-scheduler on every function of p that no `schedule` block
 * of p names (inside the caller's dependence cache window, deps.h: the
 * passes ask many questions of one version).  Its passes never fail; with --verify=passes the verifier of
 * parallel code runs after each, and a race it finds is an internal error
 * naming the pass (then nonzero is returned and the function is left as
 * that pass left it). */
int xf_auto_schedule(ft_ctx *ctx, ast_program *p);

#endif
