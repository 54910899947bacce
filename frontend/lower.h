/* lower.h - from the parse tree to the AST. */
#ifndef FT_LOWER_H
#define FT_LOWER_H

#include "../ast/ast.h"
#include "../lang/pt.h"

/* Resolve names, check types and shapes, and build the AST of every
 * exported function of file.  Constants are folded (with ctx->opts' -D
 * overrides), every tensor access is fully indexed, every local name is
 * unique within its function, and float/int literals take the dtype of the
 * tensors they meet (NumPy's weak scalars).  Constructs that parse but are
 * not built yet (tensor-level expressions, inline functions, gradients) are
 * "not supported yet" errors at their location.  The functions and
 * constants of the library files libs (the stdlib) are visible to file,
 * whose own definitions take precedence.  Returns NULL when any
 * error was reported; reports as many errors as it can in one run. */
ast_program *fe_lower(ft_ctx *ctx, const pt_node *file, int nlibs,
                      const pt_node *const *libs);

/* lower_decls.c: the `schedule` blocks and `grad` lines of file into p
 * (p->schedules, p->grads), as written; fe_lower calls it. */
void fe_lower_decls(ft_ctx *ctx, const pt_node *file, ast_program *p);

#endif
