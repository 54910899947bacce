/* simplify.h - the simplifier: fold what the bounds analysis can decide.
 *
 * Requires: a lowered program.
 * Provides: the same program with integer constants folded, linear integer
 * expressions normalised where terms cancel (`i + 1 - 1` is `i`), `//` and
 * `%` by constants resolved where the dividend's range allows, comparisons
 * and `min`/`max` decided under the enclosing loop ranges and conditions,
 * and `if`s, `else`s and asserts whose condition is decided removed.
 * Labelled statements keep their place (schedules name them).
 */
#ifndef FT_SIMPLIFY_H
#define FT_SIMPLIFY_H

#include "../analysis/bounds.h"
#include "../ast/ast.h"

/* Simplify every function of p in place (it cannot fail). */
void xf_simplify(ft_ctx *ctx, ast_program *p);

/* One expression under what b knows; returns e or a new expression. */
ast_expr *xf_simplify_expr(ft_ctx *ctx, an_bounds *b, ast_expr *e);

/* One statement tree under b (b is left as it was); returns s or its
 * replacement. */
ast_stmt *xf_simplify_stmt(ft_ctx *ctx, an_bounds *b, ast_stmt *s);

#endif
