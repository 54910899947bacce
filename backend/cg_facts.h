/* cg_facts.h - what the C backend may assume about an index where it
 * emits its run-time bounds check (backend/cg_facts.c).
 *
 * A data-dependent index (`e[adj[i, j], c]`) is checked where it is used.
 * Two cases make that check redundant at the use, which cg_c.c exploits to
 * keep inner loops free of early exits (gcc does not vectorize a loop that
 * may jump out of it):
 *   - the index does not change inside a loop: the check is done once
 *     before the loop (when the loop runs at all) instead of per iteration
 *     (transforms/xf_checks.h says which);
 *   - an enclosing `if 0 <= x and x < d` already guarantees it.
 * And which index loads a vectorized loop may read once before it.
 */
#ifndef FT_CG_FACTS_H
#define FT_CG_FACTS_H

#include "../ast/ast.h"

/* The pairs (x, d) with 0 <= x < d implied by cond being true (its
 * conjuncts `x >= 0`, `0 <= x`, `x > -1`, `x < d`, `d > x`, in any order):
 * *xs and *ds get the pairs' expressions (arena vectors), one pair per x
 * that has both bounds. */
void cg_range_facts(ft_ctx *ctx, const ast_expr *cond, ft_vec *xs, ft_vec *ds);

/* The loads in the indices of the accesses under vectorized loop loop
 * that have the same value in every iteration of it (their own indices
 * read no tensor and mention no iterator of loop or under it; loop writes
 * no such tensor), each once (structurally equal ones merged): cg_c.c
 * reads them into scalars before the loop.  Under `#pragma omp simd` gcc
 * does not hoist a CSR index like idx[k] itself when the loop also stores
 * through a pointer, and turns the row b[idx[k] * m + i] into gathers and
 * scatters (GAT's backward edge loop ran 1.5x slower vectorized than
 * scalar).  *out gets ast_expr * (the loads themselves, not copies). */
void cg_invariant_index_loads(ft_ctx *ctx, const ast_stmt *loop, ft_vec *out);

#endif
