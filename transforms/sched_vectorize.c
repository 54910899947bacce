/* sched_vectorize.c - vectorize(L): run a loop's iterations as SIMD lanes.
 *
 * Requires: f's AST.
 * Provides: the loop marked AST_VECTORIZE (`#pragma omp simd` in the C
 * backend).
 *
 * Legality: no dependence carried by the loop, same-operator reductions
 * included (an_loop_parallel must answer OK), and no check in the body that
 * may leave the loop early (an assert, a data-dependent index), which a
 * SIMD loop cannot do.
 */
#include "schedule.h"

#include "../analysis/deps.h"
#include "sched_util.h"
#include "xf_util.h"

int xf_vectorize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot vectorize %s: it is already parallel or vectorized", lname);
        return 1;
    }
    if (xf_stmt_checked(loop->u.loop.body)) {
        ft_error(ctx, loc, "cannot vectorize %s: its body has a check (an assert or a "
                 "data-dependent index) that may end the function", lname);
        return 1;
    }
    an_deps *d = an_func_deps(ctx, f);
    if (!d)
        return 1;
    char *witness = NULL;
    an_par r = an_loop_parallel(d, loop, &witness);
    if (r != AN_PAR_OK)
        ft_error(ctx, loc, "cannot vectorize %s: %s", lname,
                 r == AN_PAR_ERROR ? "the dependence analysis failed" : witness);
    an_deps_free(d);
    if (r != AN_PAR_OK)
        return 1;
    loop->u.loop.par = AST_VECTORIZE;
    return 0;
}
