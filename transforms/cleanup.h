/* cleanup.h - the cleanup passes: programs full of temporaries (what the
 * front end makes of tensor-level code and inlined library functions)
 * become the loops one would write by hand.
 *
 * Each pass is in its own file, works on every function of p, never fails
 * and preserves what the program computes, including the run-time errors
 * it reports (FT_ERR_INDEX, FT_ERR_ASSERT): statements that may report one
 * are never dropped nor moved.  Legality is checked syntactically and
 * conservatively; a pass leaves alone whatever it cannot prove.  Labelled
 * statements (which schedules name) are never removed.  Every pass leaves
 * the normal form of xf_normalize (transforms/xf_util.h).
 *
 * The order is written once, in xf_cleanup_steps (cleanup.c): the driver
 * runs the steps one by one (each can be dumped and timed), the gradient
 * builder all of them through xf_cleanup.
 */
#ifndef FT_CLEANUP_H
#define FT_CLEANUP_H

#include "../ast/ast.h"

/* One cleanup step: its name (--dump-after, --time-passes) and the pass. */
typedef struct xf_step {
    const char *name;
    void (*run)(ft_ctx *ctx, ast_program *p);
} xf_step;

/* The cleanups in order, {NULL, NULL} last: simplify (simplify.h), then
 * the passes below from retarget to remove_dead. */
extern const xf_step xf_cleanup_steps[];

/* Run every step of xf_cleanup_steps on p. */
void xf_cleanup(ft_ctx *ctx, ast_program *p);

/* retarget.c: a local whose life ends in a copy-out `dst[g(i...)] = t[i...]`
 * to a tensor declared outside it (g injective: views, slices, transposes)
 * is computed in dst directly when nobody accesses dst before the copy nor
 * t after it; the copy and the VarDef are dropped. */
void xf_retarget(ft_ctx *ctx, ast_program *p);

/* prop_temps.c: a local written once by a Store and read once (or often,
 * when the value is a literal, a size or a plain load) gets the value
 * substituted at its reads; the Store is dropped. */
void xf_propagate_temps(ft_ctx *ctx, ast_program *p);

/* remove_copies.c: a local that is a plain copy of (a region of) another
 * tensor, never written afterwards, whose source is not written while it
 * lives, is replaced by the source at every read; the copy is dropped. */
void xf_remove_copies(ft_ctx *ctx, ast_program *p);

/* shrink_vars.c: a local whose accesses all sit in one loop and use that
 * loop's iterator as the index of one dimension moves into the loop and
 * loses the dimension; a dimension accessed in a constant-size window
 * shrinks to the window. */
void xf_shrink_vars(ft_ctx *ctx, ast_program *p);

/* hoist.c: a local computed at the top of a loop body from values the loop
 * does not change moves, with the statements computing it, before the loop. */
void xf_hoist_invariants(ft_ctx *ctx, ast_program *p);

/* remove_dead.c: stores to locals nobody reads afterwards, declarations of
 * unused locals, empty loops and branches are removed. */
void xf_remove_dead(ft_ctx *ctx, ast_program *p);

#endif
