/* auto.h - the auto-scheduler (transforms/auto/): schedules for the
 * functions that have none.
 *
 * Requires: the AST after the user's schedules (transforms/schedule.c).
 * Provides: for every exported function without a `schedule` block (and
 * unless --no-auto), the passes of auto.c's table, in its order (why this
 * order: auto.c's file comment), each one a file auto_NAME.c that only
 * applies legal transforms through the dependence-checked primitives of
 * schedule.h (a refused primitive leaves the function as it was), each
 * run only on a target with the capabilities its row names (ast/target.h).
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
