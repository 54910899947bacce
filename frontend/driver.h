/* driver.h - the compiler's pass order, in one place. */
#ifndef FT_DRIVER_H
#define FT_DRIVER_H

#include "../ast/ast.h"

/* The i-th name accepted by --dump-after (in pass order); NULL past the
 * last. */
const char *ft_pass_name(int i);

/* Compile one source file to an AST program ready for a backend: parse,
 * lower, apply schedules.  When dump_after names a pass, the program as it
 * stands after that pass is printed (as .ft) to dump_out.  Returns NULL when
 * any error was reported through ctx. */
ast_program *ft_compile(ft_ctx *ctx, const ft_source *src,
                        const char *dump_after, FILE *dump_out);
/* The same with the `schedule` blocks of the file sched (`--schedule
 * s.fts`; NULL: none) applied as if appended to src. */
ast_program *ft_compile_scheduled(ft_ctx *ctx, const ft_source *src, const ft_source *sched,
                                  const char *dump_after, FILE *dump_out);

/* ft_compile stopped before the `schedule` pass: the program whose loops
 * a schedule block names (`ftc tune` reads them), or NULL after errors. */
ast_program *ft_compile_unscheduled(ft_ctx *ctx, const ft_source *src);
/* Print the dependences of every function of p (`ftc --emit=deps`):
 * statements, RAW/WAR/WAW relations in isl notation, and what each loop
 * allows.  Returns 0, or 1 after an error reported through ctx. */
int ft_emit_deps(ft_ctx *ctx, const ast_program *p, FILE *out);

#endif
