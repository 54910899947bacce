/* sched_parallelize.c - parallelize(L, openmp): run a loop with OpenMP.
 *
 * Requires: f's AST.
 * Provides: the loop marked AST_OPENMP; reductions that may collide across
 * its iterations marked atomic.
 *
 * Legality comes from the isl dependence analysis (an_loop_parallel): no
 * dependence carried by the loop, or only same-operator reductions (those
 * pairs of reductions that different iterations may run on one element
 * become atomic).  Nested parallel loops are refused.
 */
#include "schedule.h"

#include "../analysis/deps.h"
#include "lib_gemm.h"
#include "sched_util.h"
#include <isl/space.h>

#include "visit.h"
#include <string.h>

/* Whether a parallel OpenMP loop is under s (s included). */
typedef struct par_find {
    ast_visitor v;
    int found;
} par_find;

static int par_find_cb(ast_visitor *v, ast_stmt *s)
{
    if (s->kind == AST_FOR && s->u.loop.par == AST_OPENMP)
        ((par_find *)v)->found = 1;
    return 1;
}

static int has_openmp(ast_stmt *s)
{
    par_find st = {.v.stmt = par_find_cb};
    ast_visit(s, &st.v);
    return st.found;
}

/* Whether loop sits inside a loop of f that runs as par (AST_OPENMP,
 * AST_VECTORIZE). */
static int inside_par(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_par par)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, loop, &anc);
    for (int i = 0; i < anc.len; i++) {
        ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par == par)
            return 1;
    }
    return 0;
}

/* { t -> t' : equal before level, t < t' at level } on n time dims. */
static isl_map *carried_time(isl_ctx *isl, int n, int level)
{
    isl_map *m = isl_map_universe(isl_space_alloc(isl, 0, (unsigned)n, (unsigned)n));
    for (int i = 0; i < level; i++)
        m = isl_map_equate(m, isl_dim_in, (unsigned)i, isl_dim_out, (unsigned)i);
    return isl_map_order_lt(m, isl_dim_in, (unsigned)level, isl_dim_out, (unsigned)level);
}

/* Whether reduction pair dep has two instances in different iterations at
 * time dimension level (its source earlier). */
static int pair_carried(const an_deps *d, const an_dep *dep, int level)
{
    an_stmt_info *s = an_find_stmt(d->acc, dep->src->stmt_name);
    an_stmt_info *t = an_find_stmt(d->acc, dep->snk->stmt_name);
    isl_map *time = carried_time(d->acc->isl, d->acc->sched_dims, level);
    isl_map *pairs = isl_map_apply_range(isl_map_copy(s->schedule),
        isl_map_apply_range(time, isl_map_reverse(isl_map_copy(t->schedule))));
    pairs = isl_map_intersect(pairs, isl_map_copy(dep->rel));
    int r = isl_map_is_empty(pairs) == isl_bool_false;
    isl_map_free(pairs);
    return r;
}

/* Mark atomic the reductions under loop that a reduction of another
 * iteration may hit (a reduction pair carried at the loop's level). */
static void mark_colliding(ft_ctx *ctx, const an_deps *d, ast_stmt *loop, int level)
{
    if (ctx->opts.test_break && strcmp(ctx->opts.test_break, "par_atomics") == 0)
        return;         /* testing: the verifier must catch the race */
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        ast_stmt *x = dep->src->stmt, *y = dep->snk->stmt;
        if (dep->kind != AN_RED || !x || !y || x->kind != AST_REDUCE || y->kind != AST_REDUCE)
            continue;
        an_stmt_info *xi = an_find_stmt(d->acc, dep->src->stmt_name);
        an_stmt_info *yi = an_find_stmt(d->acc, dep->snk->stmt_name);
        if (!an_stmt_inside(xi, loop) || !an_stmt_inside(yi, loop) || !pair_carried(d, dep, level))
            continue;
        x->u.red.atomic = 1;
        y->u.red.atomic = 1;
    }
}

int xf_parallelize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    if (xf_has_lib_loop(loop)) {
        ft_error(ctx, loc, "cannot parallelize %s: it holds a nest that as_lib hands to BLAS, "
                 "and a BLAS call must not run inside a parallel loop", lname);
        return 1;
    }
    if (loop->u.loop.par == AST_OPENMP || has_openmp(loop->u.loop.body) ||
        inside_par(ctx, f, loop, AST_OPENMP)) {
        ft_error(ctx, loc, "cannot parallelize %s: it is already parallel or nested in (or "
                 "around) a parallel loop; nested parallel loops are not supported yet", lname);
        return 1;
    }
    if (inside_par(ctx, f, loop, AST_VECTORIZE)) {
        ft_error(ctx, loc, "cannot parallelize %s: it is inside a vectorized loop (no "
                 "`omp parallel` inside `omp simd`)", lname);
        return 1;
    }
    an_deps *d = an_loop_deps(ctx, f, loop);    /* what this loop carries */
    if (!d)
        return 1;
    char *witness = NULL;
    an_par r = an_loop_parallel(d, loop, &witness);
    if (r == AN_PAR_NO || r == AN_PAR_ERROR) {
        ft_error(ctx, loc, "cannot parallelize %s: %s", lname,
                 r == AN_PAR_NO ? witness : "the dependence analysis failed");
        an_deps_free(d);
        return 1;
    }
    if (r != AN_PAR_OK)
        mark_colliding(ctx, d, loop, 2 * xf_loop_depth_of(ctx, f, loop) + 1);
    an_deps_free(d);
    loop->u.loop.par = AST_OPENMP;
    return 0;
}

/* ------------------------------------------------------------ CUDA target */

/* Whether par binds a CUDA block or thread index. */
static int is_gpu_par(ast_par par)
{
    return par >= AST_BLOCK_X && par <= AST_THREAD_Z;
}

/* Whether a loop under s (s included) has binding par, or any OpenMP
 * loop is there (counted in found_omp). */
typedef struct bind_find {
    ast_visitor v;
    ast_par par;
    int found, found_omp;
} bind_find;

static int bind_find_cb(ast_visitor *v, ast_stmt *s)
{
    bind_find *b = (bind_find *)v;
    if (s->kind == AST_FOR && s->u.loop.par == b->par)
        b->found = 1;
    if (s->kind == AST_FOR && s->u.loop.par == AST_OPENMP)
        b->found_omp = 1;
    return 1;
}

/* Why binding loop to par is refused by the nesting, or NULL. */
static const char *gpu_nesting_problem(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_par par)
{
    if (loop->u.loop.par != AST_SERIAL)
        return "it is already parallel";
    if (xf_has_lib_loop(loop))
        return "it holds a nest that as_lib hands to cuBLAS, which the host calls";
    bind_find b = {.v.stmt = bind_find_cb, .par = par};
    ast_visit(loop->u.loop.body, &b.v);
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, loop, &anc);
    for (int i = 0; i < anc.len; i++) {
        ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par == par)
            b.found = 1;
        if (a->kind == AST_FOR && a->u.loop.par == AST_OPENMP)
            b.found_omp = 1;
    }
    if (b.found)
        return "an enclosing or enclosed loop is bound to the same index";
    if (b.found_omp)
        return "it is nested in (or around) an openmp loop";
    return NULL;
}

int xf_parallelize_gpu(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_par par, ft_loc loc)
{
    const char *lname = xf_sched_name(ctx, loop);
    const char *why = gpu_nesting_problem(ctx, f, loop, par);
    if (why) {
        ft_error(ctx, loc, "cannot bind %s to a CUDA index: %s", lname, why);
        return 1;
    }
    an_deps *d = an_loop_deps(ctx, f, loop);    /* what this loop carries */
    if (!d)
        return 1;
    char *witness = NULL;
    an_par r = an_loop_parallel(d, loop, &witness);
    if (r == AN_PAR_NO || r == AN_PAR_ERROR) {
        ft_error(ctx, loc, "cannot parallelize %s: %s", lname,
                 r == AN_PAR_NO ? witness : "the dependence analysis failed");
        an_deps_free(d);
        return 1;
    }
    if (r != AN_PAR_OK)
        mark_colliding(ctx, d, loop, 2 * xf_loop_depth_of(ctx, f, loop) + 1);
    an_deps_free(d);
    loop->u.loop.par = par;
    return 0;
}

/* Whether f has a loop bound to openmp, blocks or threads. */
static int has_any_binding(ast_stmt *s)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (has_any_binding(s->u.seq.stmts[i]))
                return 1;
        return 0;
    case AST_VARDEF: return has_any_binding(s->u.def.body);
    case AST_FOR:
        return s->u.loop.par == AST_OPENMP || is_gpu_par(s->u.loop.par) ||
               has_any_binding(s->u.loop.body);
    case AST_IF: return has_any_binding(s->u.branch.then) || has_any_binding(s->u.branch.other);
    default: return 0;
    }
}

/* Bind the outermost parallel loops under s (see xf_gpu_default). */
static void gpu_default_stmt(ft_ctx *ctx, ast_func *f, const an_deps *d, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            gpu_default_stmt(ctx, f, d, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: gpu_default_stmt(ctx, f, d, s->u.def.body); break;
    case AST_IF:
        gpu_default_stmt(ctx, f, d, s->u.branch.then);
        gpu_default_stmt(ctx, f, d, s->u.branch.other);
        break;
    case AST_FOR: {
        char *witness = NULL;
        if (s->u.loop.par == AST_LIB)
            break;      /* the BLAS call runs on the host */
        an_par r = s->u.loop.par == AST_SERIAL && !xf_has_lib_loop(s)
                 ? an_loop_parallel(d, s, &witness) : AN_PAR_NO;
        if (r == AN_PAR_NO || r == AN_PAR_ERROR) {
            gpu_default_stmt(ctx, f, d, s->u.loop.body);
            break;
        }
        if (r != AN_PAR_OK)
            mark_colliding(ctx, d, s, 2 * xf_loop_depth_of(ctx, f, s) + 1);
        s->u.loop.par = AST_OPENMP;
        break;
    }
    default: break;
    }
}

void xf_gpu_default(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (has_any_binding(f->body))
            continue;
        an_deps *d = an_func_deps(ctx, f);
        if (!d)
            continue;
        gpu_default_stmt(ctx, f, d, f->body);
        an_deps_free(d);
    }
}
