/* bounds.h - lower and upper bounds of integer expressions.
 *
 * FreeTensor-style: while a pass walks the AST it keeps an environment of
 * what is known at the current point.  For every variable in scope (sizes,
 * then loop iterators, outermost first) the environment keeps *all*
 * candidate bounds as linear expressions (`i >= 0`, `i <= n - 1` from the
 * loop; `i <= j - 1` from an enclosing `if i < j`), never choosing early.
 * Asking for the bounds of an expression "in the scope of the first k
 * variables" substitutes the candidates of the inner variables, keeps every
 * result, and the constant query picks the tightest.
 *
 * Proofs (an_bounds_prove) try the linear bounds first, which answer the
 * common guards (`i < n` inside `for i in range(n)`) without isl, then fall
 * back on isl: the guard's negation intersected with every loop range and
 * condition in scope must be empty.
 */
#ifndef FT_AN_BOUNDS_H
#define FT_AN_BOUNDS_H

#include <stdint.h>

#include "../ast/ast.h"

/* A linear expression c + sum coef[k] * atom[k]; an atom is a variable or
 * an expression the analysis does not look into (a load, a product...). */
typedef struct an_lin {
    int64_t c;
    int n;
    int64_t *coef;
    const ast_expr **atom;
} an_lin;

/* A constant interval; has_lo/has_hi are 0 where unbounded. */
typedef struct an_range {
    int has_lo, has_hi;
    int64_t lo, hi;
} an_range;

typedef struct an_bounds an_bounds;

/* An environment for f: its sizes, known to be >= 0. */
an_bounds *an_bounds_new(ft_ctx *ctx, const ast_func *f);
/* Enter loop s (its iterator's range is known inside it). */
void an_bounds_push_loop(an_bounds *b, const ast_stmt *loop);
/* Enter a branch where cond is true (positive) or false. */
void an_bounds_push_cond(an_bounds *b, const ast_expr *cond, int positive);
/* A mark to return to: an_bounds_pop(b, mark) forgets what came after. */
int an_bounds_mark(const an_bounds *b);
void an_bounds_pop(an_bounds *b, int mark);
/* The number of variables in scope (sizes included): a scope for the
 * symbolic queries below. */
int an_bounds_depth(const an_bounds *b);

/* e as a linear expression; 0 when e is not an integer expression. */
int an_lin_of(ft_ctx *ctx, const ast_expr *e, an_lin *out);
/* All candidate lower (upper) bounds of e using only the first `scope`
 * variables, as linear expressions (at most a few dozen are kept); the
 * number written to out (arena array in *out). */
int an_lower_bounds(an_bounds *b, const ast_expr *e, int scope, an_lin **out);
int an_upper_bounds(an_bounds *b, const ast_expr *e, int scope, an_lin **out);
/* The tightest constant interval of e at the current point. */
an_range an_range_of(an_bounds *b, const ast_expr *e);
/* 1 if cond is true at every point where the environment holds, 0 if not
 * proven.  (Prove `not cond` to show it false.) */
int an_bounds_prove(an_bounds *b, const ast_expr *cond);

#endif
