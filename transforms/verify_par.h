/* verify_par.h - the verifier of parallel code (verify_par.c): every
 * OpenMP, CUDA block and CUDA thread loop proved race-free on the program
 * as scheduled. */
#ifndef FT_VERIFY_PAR_H
#define FT_VERIFY_PAR_H

#include "../ast/ast.h"

/* Check every parallel loop of f; an internal error (located at the loop,
 * naming `after`, the pass that ran last) for each that may race.  Returns
 * the number of errors' worth: 0 when all are proved race-free. */
int xf_verify_parallel(ft_ctx *ctx, ast_func *f, const char *after);
/* Parallel loops of one function proved race-free so far, each as its
 * context chain (xf_unproved_parallel): kept across the lines of a schedule
 * block, so that a line re-proves only the loops it changed.  Zeroed to
 * start; arena memory. */
typedef struct xf_proved {
    ft_vec chains;           /* ast_stmt * */
} xf_proved;

/* Quietly: why the first parallel loop of f that is not proved race-free
 * may race (its loop in *loop), or NULL when all are proved (a schedule
 * line after which one is not is refused: schedule.c).  A loop equal, with
 * everything around it that the proof reads, to one in known (when not
 * NULL) is not proved again; the loops proved are added to known. */
const char *xf_unproved_parallel(ft_ctx *ctx, ast_func *f, xf_proved *known,
                                 const ast_stmt **loop);
/* The same for every function of p. */
int xf_verify_program(ft_ctx *ctx, ast_program *p, const char *after);

#endif
