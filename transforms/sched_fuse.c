/* sched_fuse.c - fuse(L1, L2): two neighbouring loops into one.
 *
 * Requires: f's AST.
 * Provides: one loop over L1's range whose body is L1's body followed by
 * L2's, which reads L2's iterator as the fused one plus the shift between
 * the ranges (`range(1, n + 1)` fused into `range(n)` reads `i + 1`); then
 * the function's locals shrunk (a temporary written in L1 and read in L2 at
 * the same iteration becomes one element).
 *
 * Legality: L2 directly follows L1 in a sequence, both have the same
 * constant step and trip count and ranges that differ by a constant shift,
 * and running each instance of L2 at its fused iteration, after L1's body,
 * keeps every dependence (xf_check_order).  Without a shift, a pair of
 * loops whose shared tensors are all indexed by the iterator itself, in one
 * dimension, on both sides is legal without the analysis (aligned): any two
 * accesses of one element are then in one iteration, where L1's body still
 * runs first.  Element-wise statements, fused one after the other, took
 * the analysis 12 ms a fusion.
 */
#include "schedule.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "cleanup.h"
#include "lib_gemm.h"
#include "sched_util.h"
#include "xf_util.h"
#include "visit.h"

/* a - b as a constant in *out; 0 when it is not one. */
static int const_diff(ft_ctx *ctx, const ast_expr *a, const ast_expr *b, int64_t *out)
{
    an_lin la, lb;
    if (!an_lin_of(ctx, a, &la) || !an_lin_of(ctx, b, &lb))
        return 0;
    ast_expr *diff = ast_binary(ctx, a->loc, AST_SUB, (ast_expr *)a, (ast_expr *)b);
    an_lin ld;
    if (!an_lin_of(ctx, diff, &ld))
        return 0;
    for (int i = 0; i < ld.n; i++)
        if (ld.coef[i] != 0)
            return 0;
    *out = ld.c;
    return 1;
}

/* The shift from L1's iterations to L2's (begin2 - begin1) when the two
 * loops have the same step and trip count; reports and returns 0 if not. */
static int fuse_shift(ft_ctx *ctx, ast_stmt *l1, ast_stmt *l2, const char *what, ft_loc loc,
                      int64_t *shift)
{
    int64_t ds, dn;
    ast_expr *n1 = xf_trip_count(ctx, l1), *n2 = xf_trip_count(ctx, l2);
    if (!n1 || !n2 || !const_diff(ctx, l1->u.loop.step, l2->u.loop.step, &ds) || ds != 0) {
        ft_error(ctx, loc, "cannot %s: their steps are not the same constant", what);
        return 0;
    }
    if (!const_diff(ctx, l2->u.loop.begin, l1->u.loop.begin, shift) ||
        !const_diff(ctx, l1->u.loop.end, l2->u.loop.end, &dn) || dn + *shift != 0) {
        ft_error(ctx, loc, "cannot %s: their ranges (%s to %s, %s to %s) do not differ by a "
                 "constant shift", what, ast_expr_text(ctx, l1->u.loop.begin),
                 ast_expr_text(ctx, l1->u.loop.end), ast_expr_text(ctx, l2->u.loop.begin),
                 ast_expr_text(ctx, l2->u.loop.end));
        return 0;
    }
    return 1;
}

/* Whether l2 directly follows l1 in a sequence; reports if not. */
static int neighbours(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, const char *what,
                      ft_loc loc)
{
    int i1 = -1, i2 = -1;
    ast_stmt *p1 = xf_parent_seq(ctx, f->body, l1, &i1);
    ast_stmt *p2 = xf_parent_seq(ctx, f->body, l2, &i2);
    if (!p1 || p1 != p2 || i2 != i1 + 1) {
        ft_error(ctx, loc, "cannot %s: %s does not directly follow %s", what,
                 xf_sched_name(ctx, l2), xf_sched_name(ctx, l1));
        return 0;
    }
    return 1;
}

/* Whether s holds an EVAL (aligned() leaves those to the analysis). */
typedef struct eval_find {
    ast_visitor v;
    int found;
} eval_find;

static int eval_cb(ast_visitor *v, ast_stmt *s)
{
    ((eval_find *)v)->found |= s->kind == AST_EVAL;
    return 1;
}

/* Whether aligned() can see through loop l's body: no EVAL, no BLAS nest,
 * no loop or local that rebinds l's iterator. */
static int plain_body(ast_stmt *l)
{
    eval_find e = {.v.stmt = eval_cb};
    ast_visit(l->u.loop.body, &e.v);
    return !e.found && !xf_has_lib_loop(l->u.loop.body) &&
           !xf_binds_iter(l->u.loop.body, l->u.loop.iter) &&
           !xf_defines(l->u.loop.body, l->u.loop.iter);
}

/* Whether accesses a (in L1's body, iterator i1) and b (L2's, i2) of one
 * tensor index some dimension by the bare iterator on both sides: they
 * touch one element only in one iteration. */
static int same_iteration(const xf_access *a, const xf_access *b, const char *i1,
                          const char *i2)
{
    for (int d = 0; d < *a->n && d < *b->n; d++) {
        const ast_expr *x = (*a->idx)[d], *y = (*b->idx)[d];
        if (x->kind == AST_VAR && y->kind == AST_VAR && !strcmp(x->u.name, i1) &&
            !strcmp(y->u.name, i2))
            return 1;
    }
    return 0;
}

/* Whether tensor var's accesses in the two bodies (one at least a write)
 * all meet in one iteration only. */
static int aligned_tensor(ft_ctx *ctx, ast_stmt *l1, ast_stmt *l2, const char *var)
{
    ft_vec a1 = {0}, a2 = {0};
    xf_collect_accesses(ctx, l1->u.loop.body, var, &a1);
    xf_collect_accesses(ctx, l2->u.loop.body, var, &a2);
    for (int i = 0; i < a1.len; i++)
        for (int j = 0; j < a2.len; j++) {
            const xf_access *x = a1.items[i], *y = a2.items[j];
            if ((x->stmt || y->stmt) &&
                !same_iteration(x, y, l1->u.loop.iter, l2->u.loop.iter))
                return 0;
        }
    return 1;
}

/* Whether fusing l1 and l2 (no shift) keeps every dependence because every
 * tensor both bodies access is aligned (see the head of the file). */
static int aligned(ft_ctx *ctx, ast_stmt *l1, ast_stmt *l2)
{
    if (!plain_body(l1) || !plain_body(l2))
        return 0;
    ft_vec names = {0};
    xf_stmt_written(ctx, l1->u.loop.body, &names);
    xf_stmt_loaded(ctx, l1->u.loop.body, &names);
    for (int i = 0; i < names.len; i++)
        if (xf_accesses(l2->u.loop.body, names.items[i]) &&
            !aligned_tensor(ctx, l1, l2, names.items[i]))
            return 0;
    return 1;
}

/* Check the fused order keeps every dependence; 1 when it does not. */
static int fuse_illegal(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, int64_t shift,
                        const char *what, ft_loc loc)
{
    if (shift == 0 && aligned(ctx, l1, l2))
        return 0;
    int k = xf_loop_depth_of(ctx, f, l1);
    int at = -1;
    ast_stmt *seq = xf_parent_seq(ctx, f->body, l1, &at);
    /* only the instances of the two loops change order */
    an_deps *d = seq ? an_items_deps(ctx, f, seq, at, at + 1) : an_func_deps(ctx, f);
    if (!d)
        return 1;
    int64_t c1, hi;
    if (!xf_time_range(d, l1, k + 1, 2 * k, &c1, &hi)) {
        an_deps_free(d);
        return 0;                       /* L1's body is empty */
    }
    const char **out = ft_alloc(ctx, sizeof(char *) * (size_t)d->acc->sched_dims);
    int neg = l1->u.loop.step->u.ival < 0;
    out[2 * k] = ft_fmt(ctx, "%lld", (long long)c1);
    out[2 * k + 1] = ft_fmt(ctx, "t%d %s %lld", 2 * k + 1, neg ? "+" : "-", (long long)shift);
    xf_remap m = {l2, k, xf_time_map(ctx, d->acc->sched_dims, out)};
    int bad = xf_check_order(ctx, d, 1, &m, what, loc);
    an_deps_free(d);
    return bad;
}

int xf_fuse(ft_ctx *ctx, ast_func *f, ast_stmt *l1, ast_stmt *l2, const char *name, ft_loc loc)
{
    const char *what = ft_fmt(ctx, "fuse %s and %s", xf_sched_name(ctx, l1), xf_sched_name(ctx, l2));
    int64_t shift = 0;
    if (l1->kind != AST_FOR || l2->kind != AST_FOR || l1 == l2) {
        ft_error(ctx, loc, "cannot %s: fuse takes two different loops", what);
        return 1;
    }
    if (xf_sched_pinned(ctx, l1, what, loc) || xf_sched_pinned(ctx, l2, what, loc))
        return 1;
    if (!neighbours(ctx, f, l1, l2, what, loc) || !fuse_shift(ctx, l1, l2, what, loc, &shift))
        return 1;
    if (l1->u.loop.par != l2->u.loop.par) {
        ft_error(ctx, loc, "cannot %s: one is parallel and the other is not", what);
        return 1;
    }
    const char *i1 = l1->u.loop.iter, *i2 = l2->u.loop.iter;
    if (strcmp(i1, i2) != 0 && xf_stmt_uses_var(l2->u.loop.body, i1)) {
        ft_error(ctx, loc, "cannot %s: the body of %s uses '%s'", what, xf_sched_name(ctx, l2), i1);
        return 1;
    }
    if (fuse_illegal(ctx, f, l1, l2, shift, what, loc))
        return 1;
    ast_expr *repl = xf_add(ctx, ast_var(ctx, l1->loc, i1), ast_int(ctx, l1->loc, shift));
    ast_subst_stmt(ctx, l2->u.loop.body, 1, &i2, &repl);
    ast_stmt *both[2] = {l1->u.loop.body, l2->u.loop.body};
    l1->u.loop.body = ast_seq(ctx, l1->loc, 2, both);
    xf_make_empty(l2);
    l2->label = NULL;
    if (name)
        l1->label = name;
    xf_sched_finish(ctx, f);
    ast_program one = {.nfuncs = 1, .funcs = &f};
    xf_shrink_vars(ctx, &one);
    xf_remove_dead(ctx, &one);
    return 0;
}
