/* sched_as_lib.c - as_lib(L): a loop nest computing a matrix product runs
 * as one BLAS call (cblas_sgemm / cblas_dgemm; cublasSgemm / cublasDgemm on
 * the CUDA target).
 *
 * Requires: f's AST.
 * Provides: L marked AST_LIB; the backends emit the call described by
 * xf_gemm_match (lib_gemm.h) in place of the nest, its batch loops as
 * loops around the call.
 *
 * Legality: the nest must be a product as lib_gemm.h describes it (the
 * call then computes what the loops compute, up to the order of the float
 * additions, as a vectorized reduction would), with its operands distinct
 * from the output.  L must be serial and no loop around it parallel: the
 * BLAS library runs its own threads, and a call from inside an OpenMP
 * region would either oversubscribe the cores or, with a pthreads BLAS,
 * share its buffers between concurrent callers.
 */
#include "schedule.h"

#include "lib_gemm.h"
#include "sched_util.h"

const ast_stmt *xf_lib_loop_of(ft_ctx *ctx, ast_func *f, const ast_stmt *s)
{
    if (s->kind == AST_FOR && s->u.loop.par == AST_LIB)
        return s;
    ft_vec anc = {0};
    if (!xf_ancestors(ctx, f->body, s, &anc))
        return NULL;
    for (int i = 0; i < anc.len; i++) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par == AST_LIB)
            return a;
    }
    return NULL;
}

/* The parallel loop around loop, or NULL. */
static const ast_stmt *parallel_around(ft_ctx *ctx, ast_func *f, const ast_stmt *loop)
{
    ft_vec anc = {0};
    if (!xf_ancestors(ctx, f->body, loop, &anc))
        return NULL;
    for (int i = 0; i < anc.len; i++) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par != AST_SERIAL &&
            a->u.loop.par != AST_VECTORIZE)
            return a;
    }
    return NULL;
}

int xf_as_lib(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (xf_sched_pinned(ctx, loop, ft_fmt(ctx, "as_lib %s", lname), loc))
        return 1;
    if (loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot as_lib %s: it is already %s", lname,
                 loop->u.loop.par == AST_LIB ? "handed to BLAS"
                 : loop->u.loop.par == AST_VECTORIZE ? "vectorized" : "parallel");
        return 1;
    }
    const ast_stmt *par = parallel_around(ctx, f, loop);
    if (par) {
        ft_error(ctx, loc, "cannot as_lib %s: it is inside the parallel loop %s, and a BLAS "
                 "call must not run inside an OpenMP region (BLAS runs its own threads); "
                 "hand the nest to BLAS without parallelizing %s", lname,
                 xf_sched_name(ctx, par), xf_sched_name(ctx, par));
        return 1;
    }
    xf_gemm g;
    const char *why = NULL;
    if (!xf_gemm_match(ctx, f, loop, &g, &why)) {
        ft_error(ctx, loc, "cannot as_lib %s: the loop nest is not a matrix product: %s "
                 "(as_lib takes `c[i, j] += a[i, p] * b[p, j]` under loops over i, j, p in "
                 "any order, with at most an initialisation `c[i, j] = 0` or a scalar "
                 "accumulator, and batch loops outside)", lname, why);
        return 1;
    }
    loop->u.loop.par = AST_LIB;
    return 0;
}
