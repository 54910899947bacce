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
#include "sched_util.h"
#include <isl/space.h>

#include "visit.h"

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

/* Whether loop sits inside an OpenMP loop of f. */
static int inside_openmp(ft_ctx *ctx, ast_func *f, ast_stmt *loop)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, loop, &anc);
    for (int i = 0; i < anc.len; i++) {
        ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par == AST_OPENMP)
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
static void mark_colliding(const an_deps *d, ast_stmt *loop, int level)
{
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
    if (loop->u.loop.par == AST_OPENMP || has_openmp(loop->u.loop.body) ||
        inside_openmp(ctx, f, loop)) {
        ft_error(ctx, loc, "cannot parallelize %s: it is already parallel or nested in (or "
                 "around) a parallel loop; nested parallel loops are not supported yet", lname);
        return 1;
    }
    an_deps *d = an_func_deps(ctx, f);
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
        mark_colliding(d, loop, 2 * xf_loop_depth_of(ctx, f, loop) + 1);
    an_deps_free(d);
    loop->u.loop.par = AST_OPENMP;
    return 0;
}
