/* sched_util.h - what the schedule primitives (transforms/sched_*.c) share.
 *
 * Finding statements and their parents, copying and rewriting statement
 * trees, fresh iterator names, and the one legality test most primitives
 * use: the original schedule of the function with the time vectors of some
 * statements remapped, checked by an_order_reverses_dep (analysis/deps.h).
 */
#ifndef FT_SCHED_UTIL_H
#define FT_SCHED_UTIL_H

#include "../analysis/deps.h"
#include "../ast/ast.h"

/* The name a message uses for s: its label, a loop's iterator, or S<id>. */
const char *xf_sched_name(ft_ctx *ctx, const ast_stmt *s);

/* The statement of f labelled name, else the loop with that unique
 * iterator; NULL (after an error at loc) when there is none
 * (transforms/sched_names.c). */
ast_stmt *xf_find_stmt(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc);

/* The statements enclosing s in root, outermost first (root included,
 * s not); 0 when s is not under root. */
int xf_ancestors(ft_ctx *ctx, ast_stmt *root, const ast_stmt *s, ft_vec *out);

/* The sequence s is an item of (NULL when its parent is not a sequence),
 * with its index in *index. */
ast_stmt *xf_parent_seq(ft_ctx *ctx, ast_stmt *root, const ast_stmt *s, int *index);

/* Whether s is inside a vectorized loop of f (s excluded): C cannot put
 * `omp parallel` or a heap buffer's out-of-memory goto inside `omp simd`. */
int xf_inside_vectorized(ft_ctx *ctx, ast_func *f, const ast_stmt *s);

/* The loops enclosing s in f (s excluded). */
int xf_loop_depth_of(ft_ctx *ctx, ast_func *f, const ast_stmt *s);


/* want when no parameter, local or iterator of f uses it, else a fresh
 * name derived from it. */
const char *xf_free_name(ft_ctx *ctx, const ast_func *f, const char *want);

/* The name for a new loop: asked (the schedule's name for it) or base +
 * suffix, made free with xf_free_name. */
const char *xf_new_loop_name(ft_ctx *ctx, ast_func *f, const char *asked, const char *base,
                             const char *suffix);
/* Label a new loop with asked when its iterator could not take that name. */
void xf_name_loop(ast_stmt *loop, const char *asked);

/* The body at *body (a loop's or a local's body field) as a list of items
 * (a sequence's statements, or the one statement: then *items is body, so
 * the list lives as long as the field, not as long as a copy). */
int xf_body_items(ast_stmt *const *body, ast_stmt ***items);

/* The number of iterations of loop as an expression (negative when the
 * range is empty and not constant), or NULL when its step is not a
 * non-zero constant, or when the count does not fit an int64 (constant
 * bounds whose range is longer, or a step of -2^63 with bounds that are not
 * constant): computed without overflow, never folded past int64. */
ast_expr *xf_trip_count(ft_ctx *ctx, const ast_stmt *loop);

/* 1 after an error at loc ("cannot WHAT: the schedule block ...") when
 * loop is pinned (a loop the lines before a schedule block's `auto` named
 * or made, which the auto-scheduler must keep as they left it: split,
 * merge, reorder, fuse, fission, swap, move, unroll, separate_tail, blend
 * and as_lib refuse it), else 0. */
int xf_sched_pinned(ft_ctx *ctx, const ast_stmt *loop, const char *what, ft_loc loc);
/* Integer helpers that fold literals. */
ast_expr *xf_add(ft_ctx *ctx, ast_expr *a, ast_expr *b);
ast_expr *xf_mul(ft_ctx *ctx, ast_expr *a, ast_expr *b);
ast_expr *xf_ceildiv(ft_ctx *ctx, ast_expr *a, int64_t b);

/* Record on local def (a VarDef) the layout primitive step about to be
 * applied to it (its shape before the first kept too): propagate replays
 * them on its neighbours (sched_propagate.c). */
void xf_layout_step(ft_ctx *ctx, ast_stmt *def, ast_lstep step);

/* Enter the loops and branches of f around s into environment b (the
 * loops also pushed on loops, outer first, when loops is not NULL): what
 * holds where s runs. */
struct an_bounds;
void xf_bounds_around(ft_ctx *ctx, ast_func *f, const ast_stmt *s, struct an_bounds *b,
                      ft_vec *loops);

/* One access of a tensor that xf_walk_accesses reports: a Load (write
 * NULL) or a Store/Reduce into it (load NULL), its n indices idx; the
 * environment holds what is known where it runs, loops (when not NULL)
 * the loops around it. */
typedef void (*xf_access_fn)(void *data, ast_expr *load, ast_stmt *write, int n,
                             ast_expr **idx);
/* Walk s with environment b (entered up to s by the caller), reporting
 * every access of var under s to fn, in evaluation order (a statement's
 * reads, then its write); a VarDef redeclaring var is not entered.  The
 * loops walked are pushed on loops while inside them (when not NULL). */
void xf_walk_accesses(ft_ctx *ctx, ast_stmt *s, const char *var, struct an_bounds *b,
                      ft_vec *loops, xf_access_fn fn, void *data);

/* A new array of n + 1 indices (or sizes): idx with entry dim replaced by
 * the pair a, b (a layout primitive splitting one dimension in two). */
ast_expr **xf_index_pair(ft_ctx *ctx, int n, ast_expr *const *idx, int dim, ast_expr *a,
                         ast_expr *b);

/* Simplify and normalise f after a transform (transforms/simplify.c,
 * xf_normalize). */
void xf_sched_finish(ft_ctx *ctx, ast_func *f);

/* Budgets of the primitives that grow a function (ctx.h, ft_budget): 1
 * when adding one loop level around or inside loop keeps f within
 * --max-loop-depth (a chain of splits nests one more loop, and one more
 * floor division in the bounds, each time), else 0 after an error at loc
 * ("cannot WHAT L: ..."). */
int xf_sched_depth_ok(ft_ctx *ctx, ast_func *f, const ast_stmt *loop, const char *what,
                      ft_loc loc);
/* 1 when `copies` more copies of s keep f within --max-statements (unroll,
 * separate_tail: a chain of them multiplies), else 0 after an error at loc. */
int xf_sched_growth_ok(ft_ctx *ctx, ast_func *f, const ast_stmt *s, int64_t copies,
                       const char *what, ft_loc loc);

/* One remapped region for xf_check_order: the statements inside `region`
 * with more than `depth` enclosing loops get their time vectors passed
 * through `tmap`, isl text of a map on time vectors t0, t1, ... (see
 * xf_time_map). */
typedef struct xf_remap {
    const ast_stmt *region;
    int depth;
    const char *tmap;
} xf_remap;

/* "{ [t0, ..., tn-1] -> [out] }" where out[k] (NULL: tk) is the new k-th
 * time coordinate. */
const char *xf_time_map(ft_ctx *ctx, int n, const char **out);

/* Whether running f's statements in the original order with the regions
 * remapped keeps every dependence.  Returns 0 when it does; else reports
 * "cannot WHAT: the dependence" at loc and returns 1.  d: f's deps. */
int xf_check_order(ft_ctx *ctx, const an_deps *d, int n, const xf_remap *maps,
                   const char *what, ft_loc loc);

/* The constant time coordinate k of the statements inside s (the first one
 * found with more than depth loops); min and max over them. 0 if none. */
int xf_time_range(const an_deps *d, const ast_stmt *s, int depth, int k, int64_t *lo,
                  int64_t *hi);

/* Whether placing items start..start+n-1 of sequence parent in the order
 * `order` (a permutation of them) keeps every dependence; 0 when it does,
 * else reports "cannot WHAT: the dependence" at loc and returns 1
 * (transforms/sched_swap.c). */
int xf_check_permutation(ft_ctx *ctx, ast_func *f, ast_stmt *parent, int start, int n,
                         ast_stmt **order, const char *what, ft_loc loc);

#endif
