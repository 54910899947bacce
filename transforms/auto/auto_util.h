/* auto_util.h - what the auto-scheduler's passes (transforms/auto/) share.
 *
 * A pass gets an xf_auto for one function.  It calls the primitives of
 * schedule.h between xf_auto_quiet_begin and xf_auto_quiet_end, so that a
 * refusal is not reported as an error of the program but becomes the reason
 * the pass logs (-v).  Passes rescan the function after every change, so
 * they find loops again by statement ID rather than keep pointers.
 */
#ifndef FT_AUTO_UTIL_H
#define FT_AUTO_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "../../analysis/bounds.h"
#include "../../analysis/deps.h"
#include "../../ast/ast.h"

/* The function an auto pass works on. */
typedef struct xf_auto {
    ft_ctx *ctx;
    ast_func *f;
    ft_vec to_label;         /* IDs of loops xf_auto_label names at the end
                                of the pass (xf_auto_label_flush) */
} xf_auto;

/* Dependence analyses the auto-scheduler may run per function, its own and
 * those of the primitives it tries (ctx->deps_budget): each maps every
 * dependence of the function with isl, so an unbounded search made compile
 * times grow with the square of the function's size. */
enum { XF_AUTO_ANALYSES = 12 };

/* The dependences of a->f, or NULL (logged) when the function's budget of
 * analyses is spent or the analysis failed. */
an_deps *xf_auto_deps(xf_auto *a);

/* One pass over a->f; each returns the number of transforms applied. */
int xf_auto_layout_sink(xf_auto *a);
int xf_auto_dead_store(xf_auto *a);
int xf_auto_zero_init(xf_auto *a);
int xf_auto_sum_dest(xf_auto *a);
int xf_auto_fuse(xf_auto *a);
int xf_auto_fuse_late(xf_auto *a);
int xf_auto_vectorize(xf_auto *a);
int xf_auto_lanes(xf_auto *a);
int xf_auto_parallelize(xf_auto *a);
int xf_auto_red_cache(xf_auto *a);
int xf_auto_privatize(xf_auto *a);
/* Whether e mentions a name of names. */
int xf_auto_uses_any(const ast_expr *e, const ft_vec *names);
/* When the range of loop uses a name of vary (iterators that change with
 * a parallel loop's iteration), adds loop's iterator to vary: which
 * iterations run, and so where an index through it lands, changes too (a
 * CSR row `for k in range(ptr[i], ptr[i + 1])`).  Whether it did. */
int xf_auto_vary_range(ft_ctx *ctx, const ast_stmt *loop, ft_vec *vary);
/* Whether auto_privatize would give every atomic reduction under the
 * parallelized loop per-thread copies (auto_parallelize then keeps a loop
 * parallel whose atomics would all hit the same elements). */
int xf_auto_privatizable(xf_auto *a, ast_stmt *loop);
int xf_auto_red_scalar(xf_auto *a);
int xf_auto_row_tile(xf_auto *a);
int xf_auto_promote(xf_auto *a);
int xf_auto_gpu_bind(xf_auto *a);
int xf_auto_mem_type(xf_auto *a);
int xf_auto_use_lib(xf_auto *a);
int xf_auto_unroll(xf_auto *a);
int xf_auto_one_trip(xf_auto *a);
int xf_auto_unsplit(xf_auto *a);
int xf_auto_jam(xf_auto *a);
int xf_auto_merge_red(xf_auto *a);
int xf_auto_cse(xf_auto *a);
/* auto_licm.c: costly float expressions a loop recomputes at every
 * iteration, though they do not depend on it, computed once before it. */
int xf_auto_licm(xf_auto *a);
int xf_auto_hoist_load(xf_auto *a);
int xf_auto_prefetch(xf_auto *a);

/* ------------------------------------------------------------ quiet mode */

/* Saved diagnostics state while primitives run quietly; why: the first
 * error's message, kept by ft_error (ctx->refusal). */
typedef struct xf_quiet {
    FILE *saved_out;
    int saved_nerrors;
    const char **saved_refusal;
    const char *why;
    char *buf;
    size_t len;
    FILE *mem;
} xf_quiet;

/* Run primitives quietly: what they print goes to a memory buffer (and
 * is dropped), the first error's message is kept as the refusal's reason
 * (ctx->refusal). */
void xf_auto_quiet_begin(ft_ctx *ctx, xf_quiet *q);
/* Restore ctx->diag_out and ctx->nerrors; returns the first error message
 * reported meanwhile (its first line, without location; arena-owned), or
 * NULL when there was none. */
const char *xf_auto_quiet_end(ft_ctx *ctx, xf_quiet *q);

/* ---------------------------------------------------------------- log */

/* With -v, print "ftc: PASS: FUNC: WHAT: message" on ctx->diag_out. */
void xf_auto_log(xf_auto *a, const char *pass, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The name a log line uses for a statement: label, iterator, or S<id>,
 * with its ID: "Li (#12)". */
const char *xf_auto_name(xf_auto *a, const ast_stmt *s);
/* The first line of text (a witness or an error), arena-owned. */
const char *xf_auto_first_line(ft_ctx *ctx, const char *text);

/* ------------------------------------------------------------- loops */

/* Every loop of f, outer ones before the loops inside them (pre-order),
 * except the loops marked AST_LIB and those under them (BLAS calls). */
void xf_auto_loops(ft_ctx *ctx, ast_func *f, ft_vec *out);
/* The loop of f with statement ID id, or NULL. */
ast_stmt *xf_auto_loop_by_id(ft_ctx *ctx, ast_func *f, int id);
/* The loops enclosing s in f, outermost first. */
void xf_auto_enclosing_loops(ft_ctx *ctx, ast_func *f, const ast_stmt *s, ft_vec *out);
/* Whether a loop is under s, s itself excluded: given a loop body that is
 * one innermost loop, 0, so auto_unroll still unrolls a short loop around
 * one inner loop (SubdivNet's Lj around its vectorized feature loop, which
 * then fuse into one), while a body with several statements, one of them a
 * loop, is 1. */
int xf_auto_has_loop(ast_stmt *s);
/* Call fn on every loop under s that no vectorized or BLAS loop encloses
 * (nor is one), outer loops first, so that fn may rewrite a loop's body
 * before the walk goes into it; the sum of what fn returns (the passes
 * that act per loop: auto_promote, auto_prefetch). */
int xf_auto_each_loop(xf_auto *a, ast_stmt *s, int (*fn)(xf_auto *, ast_stmt *));
/* The constant trip count of loop in *n; 0 when it is not constant. */
int xf_auto_const_trips(ft_ctx *ctx, const ast_stmt *loop, int64_t *n);
/* Whether loop runs `range(s)` for a size s that `--size s=N` hints:
 * *n = N (an expected trip count, not a proven one). */
int xf_auto_hinted_trips(ft_ctx *ctx, const ast_stmt *loop, int64_t *n);
/* Give loop a label when it has none and its iterator names other loops of
 * f too, so that the printed `schedule` block names it (dumps parse back). */
void xf_auto_label(xf_auto *a, ast_stmt *loop);
/* The same, once the pass is over (xf_auto_label_flush): a label is part
 * of the analysed program (statement tuples are named after labels), so
 * naming loops one by one would make every later question of the pass
 * recompute the dependences (analysis/deps_cache.c). */
void xf_auto_label_later(xf_auto *a, const ast_stmt *loop);
void xf_auto_label_flush(xf_auto *a);
/* What running loop's iterations in parallel needs (an_loop_parallel on
 * the dependences it carries, an_loop_deps: the cost grows with the loop's
 * body, and nothing of the function's analysis budget is spent); *why: the
 * first line of the witness. */
an_par xf_auto_loop_par(xf_auto *a, const ast_stmt *loop, const char **why);

/* Whether f is small enough (at most XF_AUTO_CHECK_MAX stores, reductions,
 * asserts) for the primitives whose legality check maps every dependence of
 * the function through a new order (fuse, swap, reorder: xf_check_order):
 * that check grows fast with the function; *n: the count. */
enum { XF_AUTO_CHECK_MAX = 10 };
int xf_auto_small(xf_auto *a, int *n);
/* Whether the statement s whose instances a fuse, swap or reorder would
 * reorder is small enough (at most XF_AUTO_REGION_MAX stores, reductions,
 * asserts) for their check (an_region_deps compares its accesses pairwise:
 * the cost grows with the square of the region, not with f); *n: the
 * count. */
enum { XF_AUTO_REGION_MAX = 40 };
int xf_auto_small_region(const ast_stmt *s, int *n);

/* A copy of f's body to go back to when a sequence of primitives does not
 * pay off (statement IDs and labels kept). */
ast_stmt *xf_auto_snapshot(xf_auto *a);
void xf_auto_restore(xf_auto *a, ast_stmt *snap);

/* fn(arg, slot, guarded) on *slot and every expression below it, outer
 * ones first; guarded: a guard (the given one, the right operand of `and`
 * / `or`, a branch of an if-expression) may keep it from running. */
typedef void (*xf_auto_slot_fn)(void *arg, ast_expr **slot, int guarded);
void xf_auto_each_slot(ast_expr **slot, int guarded, xf_auto_slot_fn fn, void *arg);

/* Add to out (ast_expr *) the loads of tensors with dimensions that e
 * evaluates whenever it runs (guarded set: none), that is, not in the
 * right operand of `and` / `or` nor in a branch of an if-expression: the
 * loads a guard cannot keep from running (auto_cse, auto_hoist_load). */
void xf_auto_plain_loads(ft_ctx *ctx, const ast_expr *e, int guarded, ft_vec *out);

/* Whether every load of a tensor with dimensions in e (indices included)
 * is one that item evaluates unguarded (plain: ast_expr * of such loads)
 * or is in bounds wherever item runs (its indices read no tensor and lie
 * in the declared shape under b): e may then run where a guard kept it
 * from running, or before a loop that might not run (auto_cse,
 * auto_hoist_load). */
int xf_auto_speculable(xf_auto *a, an_bounds *b, const ast_stmt *item, const ast_expr *e,
                       const ft_vec *plain);

/* body(a, b, B) on the bodies B nested in item s (a loop's, a branch's
 * with its condition, the statements of a labelled sequence), b entering
 * each, until one returns nonzero; that value, else 0.  skip_marked:
 * vectorized loops and BLAS nests are left out (auto_cse, auto_hoist_load
 * walk a body's items this way). */
typedef int (*xf_auto_body_fn)(xf_auto *a, an_bounds *b, ast_stmt *body);
int xf_auto_nested_bodies(xf_auto *a, an_bounds *b, ast_stmt *s, int skip_marked,
                          xf_auto_body_fn body);

#endif
