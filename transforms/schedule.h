/* schedule.h - apply the `schedule` blocks of a file to its functions. */
#ifndef FT_SCHEDULE_H
#define FT_SCHEDULE_H

#include "../ast/ast.h"
#include "../lang/pt.h"

/* Apply every PT_SCHEDULE of file to the matching function of p, in order.
 * A primitive either transforms its function or is refused with a located
 * error at its schedule line, leaving the function exactly as it was.
 * Returns 0, or non-zero when any error was reported. */
int xf_apply_schedules(ft_ctx *ctx, ast_program *p, const pt_node *file);

/* parallelize(L, openmp): run loop `loop` of f with OpenMP.  Refused unless
 * a conservative check shows iterations are independent: every tensor
 * defined outside the loop and written inside it is either indexed by the
 * loop's iterator in one fixed dimension at every access (iterations touch
 * disjoint elements), or only updated by reductions of one operator and
 * not read (those reductions become atomic).  Returns 0 or non-zero after
 * an error at loc. */
int xf_parallelize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc);

/* The loop of f named by a label or a unique iterator name; NULL (after an
 * error at loc) when there is none or the name is ambiguous. */
ast_stmt *xf_find_loop(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc);

#endif
