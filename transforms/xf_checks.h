/* xf_checks.h - which run-time index checks of a loop do not change inside
 * it (transforms/xf_checks.c).
 *
 * A data-dependent index (`e[adj[i, j], c]`) is checked where it is used.
 * When the index does not change inside a serial loop, the C backend checks
 * it once before the loop (cg_c.c), so the loop itself has no early exit
 * and may still be vectorized (sched_vectorize.c).  Both use the rules
 * here, so that what vectorize accepts is exactly what the backend hoists.
 */
#ifndef FT_XF_CHECKS_H
#define FT_XF_CHECKS_H

#include "../ast/ast.h"

/* Whether e keeps its value while s runs: it reads no name (tensor,
 * scalar, iterator, size) that s writes, declares or binds. */
int xf_expr_kept_by(ft_ctx *ctx, const ast_expr *e, const ast_stmt *s);

/* Whether e has the same value in every iteration of loop: it does not use
 * loop's iterator and is kept by its body. */
int xf_expr_invariant(ft_ctx *ctx, const ast_expr *e, const ast_stmt *loop);

/* Whether the index check of an access to var with index idx, found in
 * loop's body unguarded (not under an `if`, an inner loop, an
 * if-expression's branch or the right operand of and/or), can run once
 * before loop: var is not declared in the body and idx is invariant. */
int xf_check_hoistable(ft_ctx *ctx, const ast_stmt *loop, const char *var,
                       const ast_expr *idx);

/* Whether every check under loop's body is such an unguarded, hoistable
 * index check of a store or reduce reached through sequences and local
 * definitions (no assert, no check in an inner loop, an `if` or a local's
 * shape), and loop's step is a nonzero constant: the C backend then emits
 * the loop without any check inside. */
int xf_loop_checks_hoistable(ft_ctx *ctx, const ast_stmt *loop);

#endif
