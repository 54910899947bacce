/* schedule.h - apply the `schedule` blocks of a file to its functions. */
#ifndef FT_SCHEDULE_H
#define FT_SCHEDULE_H

#include "../ast/ast.h"

#include <stdint.h>

/* Apply every `schedule` block of p (p->schedules) to its function, in
 * order.
 * A primitive either transforms its function or is refused with a located
 * error at its schedule line, leaving the function exactly as it was.
 * Returns 0, or non-zero when any error was reported. */
int xf_apply_schedules(ft_ctx *ctx, ast_program *p);

/* Each primitive below transforms f and returns 0, or reports a located
 * error at loc naming the primitive, the loops or statements and the
 * dependence that forbids it, returns non-zero and leaves f exactly as it
 * was.  One file each: transforms/sched_<name>.c. */

/* parallelize(L, openmp): run loop with OpenMP.  Legal when the isl
 * analysis finds no carried dependence (an_loop_parallel): OK as it is,
 * colliding same-operator reductions marked atomic. */
int xf_parallelize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);

/* parallelize(L, blockIdx.x) ... parallelize(L, threadIdx.z) on the CUDA
 * target: bind loop to par (AST_BLOCK_X .. AST_THREAD_Z).  Legal as for
 * openmp; refused when the loop is already bound, when an enclosing or
 * enclosed loop binds the same index, or around or inside an openmp loop. */
int xf_parallelize_gpu(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_par par, ft_loc loc);

/* The default GPU schedule (CUDA target): in each function with no loop
 * bound to openmp, blocks or threads, the outermost loops that may run in
 * parallel (an_loop_parallel) become AST_OPENMP loops, which the CUDA
 * backend runs as grid-stride kernels (colliding reductions atomic). */
void xf_gpu_default(ft_ctx *ctx, ast_program *p);

/* vectorize(L): `#pragma omp simd`; no carried dependence, except
 * same-operator reductions into 0-D locals declared outside L, and
 * random-access reductions that provably hit one element per iteration. */
int xf_vectorize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);
/* vectorize(L) for a loop whose iterations the caller has shown to be
 * independent (auto_lanes: the lanes of a loop checked before it was
 * split): the checks of vectorize(L) without the dependence analysis. */
int xf_vectorize_independent(ft_ctx *ctx, ast_stmt *loop, ft_loc loc);
/* Whether vectorize accepts loop, an_loop_parallel having answered r for
 * it (an an_par of analysis/deps.h): AN_PAR_OK, or only reductions collide (AN_PAR_REDUCTION or
 * AN_PAR_ATOMIC) and every reduction under loop into a tensor declared
 * outside it either targets a 0-D local of f (a SIMD reduction clause) or
 * is the only access of its tensor in loop at an index with a dimension
 * `iter + c`, c the same in every iteration (distinct iterations update
 * distinct elements: the analysis over-approximated a loaded index). */
int xf_vector_par_ok(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, int r);

/* unroll(L): a constant range (at most 1024 iterations) becomes copies of
 * the body. */
int xf_unroll(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);

/* transforms/layout.c: the declared layouts of parameters and locals
 * applied (accesses physical, blocked loops split); nonzero after errors. */
int xf_apply_layouts(ft_ctx *ctx, ast_program *p);
/* transforms/layout_place.c: the layouts of f's locals without a clause
 * chosen and require_layout's conversions placed, before they are
 * applied; nonzero after errors. */
int xf_place_layouts(ft_ctx *ctx, ast_func *f);

/* split(L, factor) (factor > 0, nparts 0) or split(L, nparts=P): an outer
 * and an inner loop, named outer/inner when not NULL. */
int xf_split(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor, int64_t nparts,
             const char *outer, const char *inner, ft_loc loc);

/* split(L, F, shift=s): iteration k of L runs at o * F + i = k + s. */
int xf_split_shift(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor, int64_t nparts,
                   int64_t shift, const char *outer, const char *inner, ft_loc loc);
/* xf_split_shift without the simplification of f that ends it
 * (xf_sched_finish), for a pass that splits many loops and simplifies
 * once (the layout pass). */
int xf_split_unfinished(ft_ctx *ctx, ast_func *f, ast_stmt *loop, int64_t factor,
                        int64_t nparts, int64_t shift, const char *outer, const char *inner,
                        ft_loc loc);

/* merge(L1, L2): L2, all of L1's body, merged with L1 into one loop. */
int xf_merge(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, const char *name,
             ft_loc loc);

/* reorder(L1, ..., Ln): the perfect nest of these loops nested in this
 * order, outermost first. */
int xf_reorder(ft_ctx *ctx, ast_func *f, int n, ast_stmt **order, ft_loc loc);

/* fuse(L1, L2): L2, right after L1, fused into L1 (with the shift between
 * their ranges). */
int xf_fuse(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, const char *name,
            ft_loc loc);

/* fission(L, after=S) / fission(L, before=S) (before != 0): L split into a
 * loop up to S (or up to the statement before S) and one over the rest;
 * locals making up L's body that S is inside are expanded over L. */
int xf_fission(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_stmt *at_stmt, int before,
               const char *name1, const char *name2, ft_loc loc);

/* swap(S1, ..., Sn): neighbouring statements of one sequence, in this
 * order. */
int xf_swap(ft_ctx *ctx, ast_func *f, int n, ast_stmt **order, ft_loc loc);

/* move_to(S, before=T) / move_to(S, after=T): S, an item of T's sequence,
 * placed right before (after = 0) or after (after = 1) T. */
int xf_move_to(ft_ctx *ctx, ast_func *f, ast_stmt *s, ast_stmt *t, int after, ft_loc loc);

/* cache(S, var, mtype) (reduce 0) / cache_reduce(S, var, mtype) (reduce
 * 1): S's accesses of var go through a new local over the region they
 * touch, filled before S and flushed after it.  The fill and flush Stores
 * are labelled fill_name / flush_name and the local named buf_name when
 * not NULL. */
int xf_cache(ft_ctx *ctx, ast_func *f, ast_stmt *s, const char *var, ft_mtype mt, int reduce,
             const char *fill_name, const char *flush_name, const char *buf_name, ft_loc loc);

/* set_mtype(var, mtype): the local var lives in mtype. */
int xf_set_mtype(ft_ctx *ctx, ast_func *f, const char *var, ft_mtype mt, ft_loc loc);

/* var_split(t, dim, factor) (nparts 0) / var_split(t, dim, nparts=P):
 * dimension dim of local t as [ceil(n / F), F], accesses e -> e // F, e % F. */
int xf_var_split(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t factor,
                 int64_t nparts, ft_loc loc);

/* var_pad(t, dim, before, after): dimension dim of local t with zero
 * margins, accesses e -> e + before, and the guards that only kept t's
 * reads in its old shape dropped (sched_var_pad.c). */
int xf_var_pad(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t before,
               int64_t after, ft_loc loc);

/* follow_layout(L, t): L's nest rebuilt (split, reorder) so that its loops
 * walk t in t's layout order (sched_follow_layout.c). */
int xf_follow_layout(ft_ctx *ctx, ast_func *f, ast_stmt *loop, const char *var, ft_loc loc);

/* propagate(t): t's layout steps replayed on its element-wise neighbours
 * and their nests made to follow it (sched_propagate.c). */
int xf_propagate(ft_ctx *ctx, ast_func *f, const char *var, ft_loc loc);

/* var_unfold(t, dim, tile, stride): dimension dim of local t as
 * overlapping tiles [ceil(n / stride), tile]; reads go to the tile holding
 * their window, writes to every tile holding their element
 * (sched_var_unfold.c). */
int xf_var_unfold(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t tile,
                  int64_t stride, ft_loc loc);

/* var_attach(t, u, dim): local t stored in local u after u's elements in
 * dimension dim, t's declaration removed (sched_var_attach.c). */
int xf_var_attach(ft_ctx *ctx, ast_func *f, const char *t, const char *u, int dim, ft_loc loc);

/* var_reorder(t, order): new dimension k of local t is old order[k]. */
int xf_var_reorder(ft_ctx *ctx, ast_func *f, const char *var, int n, const int *order,
                   ft_loc loc);

/* var_merge(t, dim): dimensions dim and dim + 1 of local t as one. */
int xf_var_merge(ft_ctx *ctx, ast_func *f, const char *var, int dim, ft_loc loc);

/* inline(t): the local t, written once, recomputed at each of its reads. */
int xf_inline(ft_ctx *ctx, ast_func *f, const char *var, ft_loc loc);

/* separate_tail(L): L split into the iterations where the guards under it
 * are all true (the guards dropped) and the ones before and after. */
int xf_separate_tail(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);

/* blend(L): a short constant loop unrolled with the statements of its
 * iterations interleaved (through the loops of its body that do not depend
 * on it). */
int xf_blend(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);

/* as_lib(L): the matrix product computed by the nest under L (lib_gemm.h)
 * becomes one BLAS gemm call per batch iteration (L marked AST_LIB).
 * Refused when the nest is not such a product, when L is not serial or
 * when a loop around it is parallel. */
int xf_as_lib(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);
/* The loop marked AST_LIB that is s or encloses s in f, or NULL: the nests
 * under such loops are no longer scheduled (the BLAS call replaces them). */
const ast_stmt *xf_lib_loop_of(ft_ctx *ctx, ast_func *f, const ast_stmt *s);

/* Naming (transforms/sched_names.c).  The VarDef of f's local labelled
 * name, else of the one local whose name (the AST's or the program's,
 * def.src) is name; NULL after an error at loc naming prim ("set_mtype
 * of") when there is none, it is ambiguous or name is a parameter. */
ast_stmt *xf_find_local(ft_ctx *ctx, ast_func *f, const char *name, const char *prim, ft_loc loc);

/* The loop of f labelled name, else the one loop iterating over name; NULL
 * (after an error at loc) when there is none, the label names another kind
 * of statement or the name is ambiguous. */
ast_stmt *xf_find_loop(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc);

/* The AST name of the tensor that name denotes at s: the innermost local
 * around s with that label or name (the AST's or the program's), else the
 * tensor parameter; NULL when there is none. */
const char *xf_visible_tensor(ft_ctx *ctx, ast_func *f, const ast_stmt *s, const char *name);

/* Before the cleanup passes: mark `named` every loop and local of p that a
 * name among the arguments of p's schedule blocks may denote (the
 * lookup above, ambiguous names all their candidates), so that the
 * cleanups keep them as the program wrote them (cleanup.h, xf_kept). */
void xf_name_schedule_targets(ft_ctx *ctx, ast_program *p);

#endif
