/* sched_vectorize.c - vectorize(L): run a loop's iterations as SIMD lanes.
 *
 * Requires: f's AST.
 * Provides: the loop marked AST_VECTORIZE (`#pragma omp simd` in the C
 * backend).
 *
 * Legality: no dependence carried by the loop (an_loop_parallel answers
 * OK), or only same-operator reductions into 0-D locals declared outside it
 * (REDUCTION; the C backend adds `reduction(op: x)` clauses, which give each
 * lane its own partial result), and no check in the body that may leave the
 * loop early (an assert, a data-dependent index), which a SIMD loop cannot
 * do, except index checks that the C backend runs once before the loop
 * (xf_loop_checks_hoistable).
 */
#include "schedule.h"

#include "../analysis/bounds.h"
#include "../analysis/deps.h"
#include "sched_util.h"
#include "xf_checks.h"
#include "xf_util.h"
#include "visit.h"

#include <string.h>

/* Finds a reduction that a SIMD reduction clause cannot privatize. */
typedef struct red_walk {
    ast_visitor v;
    ft_ctx *ctx;
    const ast_func *f;
    const ast_stmt *loop;
    int bad;
} red_walk;

/* Whether reduction s under loop updates a different element in each
 * iteration: it is the only access of its tensor in loop, and one index
 * is `iter + c` or `-iter + c` with c invariant in loop. */
static int one_element_per_iteration(ft_ctx *ctx, const ast_stmt *loop, const ast_stmt *s)
{
    xf_uses u = xf_count_uses(loop->u.loop.body, s->u.red.var);
    if (u.loads || u.stores || u.reduces != 1)
        return 0;
    for (int k = 0; k < s->u.red.n; k++) {
        an_lin l;
        if (!an_lin_of(ctx, s->u.red.idx[k], &l))
            continue;
        int unit = 0, rest = 1;
        for (int t = 0; t < l.n; t++) {
            const ast_expr *at = l.atom[t];
            if (at->kind == AST_VAR && strcmp(at->u.name, loop->u.loop.iter) == 0)
                unit += l.coef[t] == 1 || l.coef[t] == -1 ? 1 : 2;
            else
                rest &= xf_expr_invariant_in(ctx, loop, at);
        }
        if (unit == 1 && rest)
            return 1;
    }
    return 0;
}

static int red_walk_cb(ast_visitor *v, ast_stmt *s)
{
    red_walk *w = (red_walk *)v;
    const ast_stmt *body = w->loop->u.loop.body;
    if (s->kind != AST_REDUCE || xf_defines(body, s->u.red.var))
        return 1;
    int param = 0;
    for (int i = 0; i < w->f->nparams; i++)
        param |= strcmp(w->f->params[i].name, s->u.red.var) == 0;
    if ((s->u.red.n != 0 || param) && !one_element_per_iteration(w->ctx, w->loop, s))
        w->bad = 1;
    return !w->bad;
}

int xf_vector_par_ok(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, int r)
{
    if (r == AN_PAR_OK)
        return 1;
    if (r != AN_PAR_REDUCTION && r != AN_PAR_ATOMIC)
        return 0;
    red_walk w = {.v.stmt = red_walk_cb, .ctx = ctx, .f = f, .loop = loop};
    ast_visit(loop->u.loop.body, &w.v);
    return !w.bad;
}

typedef struct simd_walk {
    ast_visitor v;
    const char *why;          /* what the body holds that simd cannot */
} simd_walk;

/* Find a parallel loop or a local the C backend puts on the heap (its
 * size not a constant of at most 4096 bytes): `omp parallel` and the
 * allocation's out-of-memory goto may not be inside `omp simd`. */
static int simd_walk_cb(ast_visitor *v, ast_stmt *s)
{
    simd_walk *w = (simd_walk *)v;
    if (s->kind == AST_FOR && s->u.loop.par != AST_SERIAL && s->u.loop.par != AST_VECTORIZE)
        w->why = "a parallel loop";
    if (s->kind == AST_VARDEF && s->u.def.ndim > 0) {
        int64_t n = s->u.def.dtype == FT_F64 || s->u.def.dtype == FT_I64 ? 8 : 4;
        for (int k = 0; k < s->u.def.ndim && n <= 4096; k++) {
            const ast_expr *d = s->u.def.shape[k];
            n = d->kind == AST_INT && d->u.ival >= 0 && d->u.ival <= 4096 ? n * d->u.ival : 4097;
        }
        if (n > 4096)
            w->why = "a local tensor whose size is not a constant of at most 4 KiB (a heap "
                     "buffer)";
    }
    return !w->why;
}

/* The checks of vectorize(L) that need no dependence analysis: L serial,
 * a body that `omp simd` can take, no check that may end the function;
 * 0 when they pass, else 1 with the error reported. */
static int simd_shape_ok(ft_ctx *ctx, ast_stmt *loop, ft_loc loc, const char *lname)
{
    if (loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot vectorize %s: it is already parallel or vectorized", lname);
        return 1;
    }
    simd_walk sw = {.v.stmt = simd_walk_cb};
    ast_visit(loop->u.loop.body, &sw.v);
    if (sw.why) {
        ft_error(ctx, loc, "cannot vectorize %s: its body holds %s, which `omp simd` cannot",
                 lname, sw.why);
        return 1;
    }
    if (xf_stmt_checked(loop->u.loop.body) && !xf_loop_checks_hoistable(ctx, loop)) {
        ft_error(ctx, loc, "cannot vectorize %s: its body has a check (an assert or a "
                 "data-dependent index) that may end the function", lname);
        return 1;
    }
    return 0;
}

int xf_vectorize_independent(ft_ctx *ctx, ast_stmt *loop, ft_loc loc)
{
    if (simd_shape_ok(ctx, loop, loc, xf_sched_name(ctx, loop)))
        return 1;
    loop->u.loop.par = AST_VECTORIZE;
    return 0;
}

int xf_vectorize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (simd_shape_ok(ctx, loop, loc, lname))
        return 1;
    an_deps *d = an_loop_deps(ctx, f, loop);    /* what this loop carries */
    if (!d)
        return 1;
    char *witness = NULL;
    an_par r = an_loop_parallel(d, loop, &witness);
    if (xf_vector_par_ok(ctx, f, loop, r))
        r = AN_PAR_OK;
    if (r != AN_PAR_OK)
        ft_error(ctx, loc, "cannot vectorize %s: %s", lname,
                 r == AN_PAR_ERROR ? "the dependence analysis failed" : witness);
    an_deps_free(d);
    if (r != AN_PAR_OK)
        return 1;
    loop->u.loop.par = AST_VECTORIZE;
    return 0;
}
