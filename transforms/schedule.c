/* schedule.c - the schedule language: `schedule f:` blocks.
 *
 * Requires: a lowered program (frontend/lower.c) with its `schedule`
 * blocks (p->schedules, frontend/lower_decls.c).
 * Provides: f transformed by each schedule line in order (the primitives
 * are transforms/sched_<name>.c, declared in schedule.h).
 *
 * This file reads a line's arguments, finds the loops and statements it
 * names (labels, unique iterator names, the names earlier lines gave the
 * loops they returned: `jo, ji = split(Lj, 64)`; sched_names.c) and calls
 * the primitive.
 */
#include "schedule.h"
#include "verify_par.h"

#include <string.h>

#include "sched_util.h"
#include "visit.h"
#include "target.h"

/* ------------------------------------------------------------ arguments */

enum { MAX_ARGS = 16 };

/* A schedule line: the call's positional and keyword arguments and the
 * names it assigns its results to. */
typedef struct sched_line {
    const char *prim;
    ft_loc loc;
    int npos;
    const ast_sarg *pos[MAX_ARGS];
    int nkw;
    const ast_sarg *kw[MAX_ARGS];
    int nres;
    const char *res[MAX_ARGS];
    ft_loc res_loc;
} sched_line;

/* Read the line s, whose value is call, into *ln; 0 after an error. */
static int read_line(ft_ctx *ctx, const ast_sched_line *s, const ast_sarg *call,
                     sched_line *ln)
{
    *ln = (sched_line){.prim = call->name, .loc = call->loc};
    for (int i = 0; i < call->nkids; i++) {
        const ast_sarg *a = call->kids[i];
        if (ln->npos + ln->nkw >= MAX_ARGS) {
            ft_error(ctx, a->loc, "too many arguments to %s", ln->prim);
            return 0;
        }
        if (a->kind == AST_SARG_KW)
            ln->kw[ln->nkw++] = a;
        else
            ln->pos[ln->npos++] = a;
    }
    if (!s->assigns)
        return 1;
    ln->res_loc = s->results_loc;
    for (int i = 0; i < s->nres && i < MAX_ARGS; i++) {
        const ast_sarg *k = s->res[i];
        if (k->kind != AST_SARG_NAME || !s->plain) {
            ft_error(ctx, k->loc, "the results of %s are named by plain names: "
                     "`a, b = %s(...)`", ln->prim, ln->prim);
            return 0;
        }
        ln->res[ln->nres++] = k->name;
    }
    return 1;
}

/* Check the line has npos positional arguments and returns at most nres
 * loops; 0 after an error naming usage. */
static int check_shape(ft_ctx *ctx, const sched_line *ln, int npos_min, int npos_max, int nres,
                       const char *usage)
{
    if (ln->npos < npos_min || ln->npos > npos_max) {
        ft_error(ctx, ln->loc, "%s takes %s", ln->prim, usage);
        return 0;
    }
    if (ln->nres > nres) {
        ft_error(ctx, ln->res_loc, "%s returns %d name%s, not %d", ln->prim, nres,
                 nres == 1 ? "" : "s", ln->nres);
        return 0;
    }
    return 1;
}

/* The keyword argument name, or NULL; reports any other keyword (allowed:
 * a NULL-terminated list). */
static const ast_sarg *kwarg(ft_ctx *ctx, const sched_line *ln, const char *name,
                             const char *const *allowed, int *bad)
{
    const ast_sarg *found = NULL;
    for (int i = 0; i < ln->nkw; i++) {
        int ok = 0;
        for (int k = 0; allowed && allowed[k]; k++)
            ok |= strcmp(ln->kw[i]->name, allowed[k]) == 0;
        if (!ok && !*bad) {
            ft_error(ctx, ln->kw[i]->loc, "%s has no argument '%s'", ln->prim, ln->kw[i]->name);
            *bad = 1;
        }
        if (strcmp(ln->kw[i]->name, name) == 0)
            found = ln->kw[i]->kids[0];
    }
    return found;
}

/* The statement an argument names (a loop when want_loop); NULL after an
 * error. */
static ast_stmt *arg_stmt(ft_ctx *ctx, ast_func *f, const ast_sarg *a, int want_loop)
{
    if (a->kind != AST_SARG_NAME) {
        ft_error(ctx, a->loc, "expected the name of a %s (a label or an iterator)",
                 want_loop ? "loop" : "statement");
        return NULL;
    }
    ast_stmt *s = want_loop ? xf_find_loop(ctx, f, a->name, a->loc)
                            : xf_find_stmt(ctx, f, a->name, a->loc);
    const ast_stmt *lib = s ? xf_lib_loop_of(ctx, f, s) : NULL;
    if (lib) {
        ft_error(ctx, a->loc, "'%s' is %sthe nest that as_lib(%s) hands to BLAS; schedule "
                 "it before as_lib", a->name, lib == s ? "" : "inside ", xf_sched_name(ctx, lib));
        return NULL;
    }
    return s;
}

/* An integer literal argument (`-3` included); 0 after an error. */
static int arg_int(ft_ctx *ctx, const ast_sarg *a, int64_t *v)
{
    if (a->kind != AST_SARG_INT) {
        ft_error(ctx, a->loc, "expected an integer literal");
        return 0;
    }
    *v = a->ival;
    return 1;
}

/* The loops (statements) named by positional arguments from..npos-1. */
static ast_stmt **arg_stmts(ft_ctx *ctx, ast_func *f, const sched_line *ln, int from,
                            int want_loop)
{
    ast_stmt **out = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(ln->npos + 1));
    for (int i = from; i < ln->npos; i++)
        if (!(out[i - from] = arg_stmt(ctx, f, ln->pos[i], want_loop)))
            return NULL;
    return out;
}

/* ------------------------------------------------------------ primitives */

/* The binding of a scope blockIdx.x .. threadIdx.z (base blockIdx or
 * threadIdx), or -1 when its attribute is not x, y or z. */
static int gpu_scope_par(const ast_sarg *scope)
{
    const char *a = scope->name;
    int thread = strcmp(scope->base, "threadIdx") == 0;
    if (!a || a[1] || a[0] < 'x' || a[0] > 'z')
        return -1;
    return (thread ? AST_THREAD_X : AST_BLOCK_X) + (a[0] - 'x');
}

/* parallelize(L, blockIdx.x) and the like (CUDA target only). */
static int sched_parallelize_gpu(ft_ctx *ctx, ast_func *f, const sched_line *ln,
                                 const ast_sarg *scope)
{
    int par = gpu_scope_par(scope);
    if (par < 0) {
        ft_error(ctx, scope->loc, "unknown CUDA index; use blockIdx.x, .y, .z or "
                 "threadIdx.x, .y, .z");
        return 1;
    }
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    return loop ? xf_parallelize_gpu(ctx, f, loop, (ast_par)par, ln->loc) : 1;
}

/* parallelize(L, openmp) */
static int sched_parallelize(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 0, "a loop and a scope: parallelize(L, openmp)"))
        return 1;
    const ast_sarg *scope = ln->pos[1];
    if (scope->kind == AST_SARG_ATTR &&
        (strcmp(scope->base, "blockIdx") == 0 || strcmp(scope->base, "threadIdx") == 0)) {
        if (!(ctx->target->caps & FT_CAP_GPU)) {
            ft_unsupported(ctx, scope->loc, "binding loops to CUDA blocks and threads on "
                           "the C target (build with --target cuda)");
            return 1;
        }
        return sched_parallelize_gpu(ctx, f, ln, scope);
    }
    if (scope->kind != AST_SARG_NAME || strcmp(scope->name, "openmp") != 0) {
        ft_error(ctx, scope->loc, "unknown parallel scope; use openmp (or blockIdx.x, "
                 "threadIdx.x, ... on CUDA)");
        return 1;
    }
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    return loop ? xf_parallelize(ctx, f, loop, ln->loc) : 1;
}

/* vectorize(L), unroll(L), separate_tail(L), blend(L) */
static int sched_one_loop(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 1, 1, 0, ft_fmt(ctx, "one loop: %s(L)", ln->prim)))
        return 1;
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    if (!loop)
        return 1;
    if (strcmp(ln->prim, "separate_tail") == 0)
        return xf_separate_tail(ctx, f, loop, ln->loc);
    if (strcmp(ln->prim, "blend") == 0)
        return xf_blend(ctx, f, loop, ln->loc);
    if (strcmp(ln->prim, "as_lib") == 0)
        return xf_as_lib(ctx, f, loop, ln->loc);
    return strcmp(ln->prim, "unroll") == 0 ? xf_unroll(ctx, f, loop, ln->loc)
                                           : xf_vectorize(ctx, f, loop, ln->loc);
}

/* split(L, factor) or split(L, nparts=P) */
static int sched_split(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    static const char *const allowed[] = {"factor", "nparts", "shift", NULL};
    int bad = 0;
    const ast_sarg *fac = kwarg(ctx, ln, "factor", allowed, &bad);
    const ast_sarg *np = kwarg(ctx, ln, "nparts", allowed, &bad);
    const ast_sarg *shift = kwarg(ctx, ln, "shift", allowed, &bad);
    const char *usage = "a loop and a factor: split(L, 4) or split(L, nparts=4)";
    if (bad || !check_shape(ctx, ln, 1, 2, 2, usage))
        return 1;
    int64_t sh = 0;
    if (shift && !arg_int(ctx, shift, &sh))
        return 1;
    if (ln->npos == 2)
        fac = ln->pos[1];
    int64_t factor = 0, nparts = 0;
    if ((fac != NULL) == (np != NULL)) {
        ft_error(ctx, ln->loc, "split takes %s", usage);
        return 1;
    }
    if (!arg_int(ctx, fac ? fac : np, fac ? &factor : &nparts))
        return 1;
    if (factor < 0 || nparts < 0 || (factor == 0 && nparts == 0)) {
        ft_error(ctx, (fac ? fac : np)->loc, "split's %s must be positive", fac ? "factor" : "nparts");
        return 1;
    }
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    return loop ? xf_split_shift(ctx, f, loop, factor, nparts, sh, ln->nres > 0 ? ln->res[0] : NULL,
                           ln->nres > 1 ? ln->res[1] : NULL, ln->loc) : 1;
}

/* merge(L1, L2), fuse(L1, L2) */
static int sched_two_loops(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 1, ft_fmt(ctx, "two loops: %s(L1, L2)", ln->prim)))
        return 1;
    ast_stmt **l = arg_stmts(ctx, f, ln, 0, 1);
    if (!l)
        return 1;
    const char *name = ln->nres ? ln->res[0] : NULL;
    return strcmp(ln->prim, "merge") == 0 ? xf_merge(ctx, f, l[0], l[1], name, ln->loc)
                                          : xf_fuse(ctx, f, l[0], l[1], name, ln->loc);
}

/* reorder(L1, L2, ...), swap(S1, S2, ...) */
static int sched_list(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0, reorder = strcmp(ln->prim, "reorder") == 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, MAX_ARGS, 0, reorder
                            ? "two or more loops, outermost first: reorder(Lj, Li)"
                            : "two or more statements, in their new order: swap(S2, S1)"))
        return 1;
    ast_stmt **l = arg_stmts(ctx, f, ln, 0, reorder);
    if (!l)
        return 1;
    return reorder ? xf_reorder(ctx, f, ln->npos, l, ln->loc) : xf_swap(ctx, f, ln->npos, l, ln->loc);
}

/* fission(L, after=S), fission(L, before=S) */
static int sched_fission(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    static const char *const allowed[] = {"after", "before", NULL};
    int bad = 0;
    const ast_sarg *after = kwarg(ctx, ln, "after", allowed, &bad);
    const ast_sarg *before = kwarg(ctx, ln, "before", allowed, &bad);
    const char *usage = "a loop and a statement: fission(L, after=S) or fission(L, before=S)";
    if (bad || !check_shape(ctx, ln, 1, 1, 2, usage))
        return 1;
    if (!after == !before) {
        ft_error(ctx, ln->loc, "fission takes %s", usage);
        return 1;
    }
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    ast_stmt *s = loop ? arg_stmt(ctx, f, after ? after : before, 0) : NULL;
    return s ? xf_fission(ctx, f, loop, s, before != NULL, ln->nres > 0 ? ln->res[0] : NULL,
                          ln->nres > 1 ? ln->res[1] : NULL, ln->loc) : 1;
}

/* move_to(S, before=T), move_to(S, after=T) */
static int sched_move_to(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    static const char *const allowed[] = {"before", "after", NULL};
    const char *usage = "a statement and where it goes: move_to(S, before=T) or "
                        "move_to(S, after=T)";
    int bad = 0;
    const ast_sarg *before = kwarg(ctx, ln, "before", allowed, &bad);
    const ast_sarg *after = kwarg(ctx, ln, "after", allowed, &bad);
    if (bad || !check_shape(ctx, ln, 1, 1, 0, usage))
        return 1;
    if ((before != NULL) == (after != NULL)) {
        ft_error(ctx, ln->loc, "move_to takes %s", usage);
        return 1;
    }
    ast_stmt *s = arg_stmt(ctx, f, ln->pos[0], 0);
    ast_stmt *t = s ? arg_stmt(ctx, f, before ? before : after, 0) : NULL;
    return t ? xf_move_to(ctx, f, s, t, after != NULL, ln->loc) : 1;
}

/* A tensor name argument; NULL after an error. */
static const char *arg_name(ft_ctx *ctx, const ast_sarg *a, const char *what)
{
    if (a->kind != AST_SARG_NAME) {
        ft_error(ctx, a->loc, "expected the name of %s", what);
        return NULL;
    }
    return a->name;
}

/* A memory type argument (cpu, gpu, gpu/shared, gpu/local); -1 after an
 * error. */
static int arg_mtype(ft_ctx *ctx, const ast_sarg *a)
{
    const char *text = a->kind == AST_SARG_NAME || a->kind == AST_SARG_PATH ? a->name : NULL;
    int mt = text ? ft_mtype_from_name(text) : -1;
    if (mt < 0)
        ft_error(ctx, a->loc, "unknown memory type; use cpu, gpu, gpu/shared or gpu/local");
    return mt;
}

/* cache(S, var, mtype), cache_reduce(S, var, mtype) */
static int sched_cache(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 3, 3, 3, ft_fmt(ctx, "a statement, a tensor and a memory "
                            "type: %s(S, a, cpu)", ln->prim)))
        return 1;
    ast_stmt *s = arg_stmt(ctx, f, ln->pos[0], 0);
    const char *var = s ? arg_name(ctx, ln->pos[1], "a tensor") : NULL;
    int mt = var ? arg_mtype(ctx, ln->pos[2]) : -1;
    if (mt < 0)
        return 1;
    return xf_cache(ctx, f, s, var, (ft_mtype)mt, strcmp(ln->prim, "cache_reduce") == 0,
                    ln->nres > 0 ? ln->res[0] : NULL, ln->nres > 1 ? ln->res[1] : NULL,
                    ln->nres > 2 ? ln->res[2] : NULL, ln->loc);
}

/* set_mtype(var, mtype) */
static int sched_set_mtype(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 0, "a local tensor and a memory type: "
                            "set_mtype(t, cpu)"))
        return 1;
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    int mt = var ? arg_mtype(ctx, ln->pos[1]) : -1;
    return mt < 0 ? 1 : xf_set_mtype(ctx, f, var, (ft_mtype)mt, ln->loc);
}

/* var_split(t, dim, factor), var_split(t, dim, nparts=P) */
static int sched_var_split(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    static const char *const allowed[] = {"factor", "nparts", NULL};
    const char *usage = "a local, a dimension and a factor: var_split(t, 0, 4) or "
                        "var_split(t, 0, nparts=4)";
    int bad = 0;
    const ast_sarg *fac = kwarg(ctx, ln, "factor", allowed, &bad);
    const ast_sarg *np = kwarg(ctx, ln, "nparts", allowed, &bad);
    if (bad || !check_shape(ctx, ln, 2, 3, 0, usage))
        return 1;
    if (ln->npos == 3)
        fac = fac ? NULL : ln->pos[2];
    if ((fac != NULL) == (np != NULL)) {
        ft_error(ctx, ln->loc, "var_split takes %s", usage);
        return 1;
    }
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    int64_t dim, factor = 0, nparts = 0;
    if (!var || !arg_int(ctx, ln->pos[1], &dim) ||
        !arg_int(ctx, fac ? fac : np, fac ? &factor : &nparts))
        return 1;
    if (factor < 0 || nparts < 0 || (factor == 0 && nparts == 0)) {
        ft_error(ctx, (fac ? fac : np)->loc, "var_split's %s must be positive",
                 fac ? "factor" : "nparts");
        return 1;
    }
    return xf_var_split(ctx, f, var, (int)dim, factor, nparts, ln->loc);
}

/* A line `prim(t, i1, i2, i3)`: a local's name and three integer
 * literals; 0 after an error naming usage. */
static int local_and_3_ints(ft_ctx *ctx, const sched_line *ln, const char *usage,
                            const char **var, int64_t v[3])
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 4, 4, 0, usage))
        return 0;
    *var = arg_name(ctx, ln->pos[0], "a local tensor");
    return *var && arg_int(ctx, ln->pos[1], &v[0]) && arg_int(ctx, ln->pos[2], &v[1]) &&
           arg_int(ctx, ln->pos[3], &v[2]);
}

/* var_pad(t, dim, before, after) */
static int sched_var_pad(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    const char *var;
    int64_t v[3];
    if (!local_and_3_ints(ctx, ln, "a local, a dimension and the padding before and after: "
                          "var_pad(t, 2, 1, 1)", &var, v))
        return 1;
    return xf_var_pad(ctx, f, var, (int)v[0], v[1], v[2], ln->loc);
}

/* var_unfold(t, dim, tile, stride) */
static int sched_var_unfold(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    const char *var;
    int64_t v[3];
    if (!local_and_3_ints(ctx, ln, "a local, a dimension, a tile and a stride: "
                          "var_unfold(t, 2, 10, 8)", &var, v))
        return 1;
    return xf_var_unfold(ctx, f, var, (int)v[0], v[1], v[2], ln->loc);
}

/* var_attach(t, u, dim) */
static int sched_var_attach(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 3, 3, 0, "two locals and a dimension of the second: "
                            "var_attach(bias, w, 1)"))
        return 1;
    const char *t = arg_name(ctx, ln->pos[0], "a local tensor");
    const char *u = t ? arg_name(ctx, ln->pos[1], "a local tensor") : NULL;
    int64_t dim;
    if (!u || !arg_int(ctx, ln->pos[2], &dim))
        return 1;
    return xf_var_attach(ctx, f, t, u, (int)dim, ln->loc);
}

/* follow_layout(L, t) */
static int sched_follow_layout(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 0, "a loop and a tensor: follow_layout(L, t)"))
        return 1;
    ast_stmt *loop = arg_stmt(ctx, f, ln->pos[0], 1);
    const char *var = loop ? arg_name(ctx, ln->pos[1], "a tensor") : NULL;
    return var ? xf_follow_layout(ctx, f, loop, var, ln->loc) : 1;
}

/* propagate(t) */
static int sched_propagate(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 1, 1, 0, "a local tensor: propagate(t)"))
        return 1;
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    return var ? xf_propagate(ctx, f, var, ln->loc) : 1;
}

/* var_reorder(t, [d0, d1, ...]) */
static int sched_var_reorder(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 0, "a local and its dimensions in their new "
                            "order: var_reorder(t, [1, 0])"))
        return 1;
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    const ast_sarg *l = ln->pos[1];
    if (!var)
        return 1;
    if (l->kind != AST_SARG_LIST) {
        ft_error(ctx, l->loc, "expected a list of dimensions, e.g. [1, 0]");
        return 1;
    }
    int *order = ft_alloc(ctx, sizeof(int) * (size_t)(l->nkids + 1));
    for (int i = 0; i < l->nkids; i++) {
        int64_t v;
        if (!arg_int(ctx, l->kids[i], &v))
            return 1;
        order[i] = (int)v;
    }
    return xf_var_reorder(ctx, f, var, l->nkids, order, ln->loc);
}

/* var_merge(t, dim) */
static int sched_var_merge(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 2, 2, 0, "a local and a dimension: var_merge(t, 0) "
                            "merges dimensions 0 and 1"))
        return 1;
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    int64_t dim;
    if (!var || !arg_int(ctx, ln->pos[1], &dim))
        return 1;
    return xf_var_merge(ctx, f, var, (int)dim, ln->loc);
}

/* inline(t) */
static int sched_inline(ft_ctx *ctx, ast_func *f, const sched_line *ln)
{
    int bad = 0;
    kwarg(ctx, ln, "", NULL, &bad);
    if (bad || !check_shape(ctx, ln, 1, 1, 0, "a local tensor: inline(t)"))
        return 1;
    const char *var = arg_name(ctx, ln->pos[0], "a local tensor");
    return var ? xf_inline(ctx, f, var, ln->loc) : 1;
}

typedef int (*sched_fn)(ft_ctx *ctx, ast_func *f, const sched_line *ln);

static const struct { const char *name; sched_fn fn; } primitives[] = {
    {"parallelize", sched_parallelize}, {"vectorize", sched_one_loop},
    {"unroll", sched_one_loop},         {"split", sched_split},
    {"merge", sched_two_loops},         {"fuse", sched_two_loops},
    {"reorder", sched_list},            {"swap", sched_list},
    {"fission", sched_fission},
    {"move_to", sched_move_to},
    {"cache", sched_cache},            {"cache_reduce", sched_cache},
    {"set_mtype", sched_set_mtype},
    {"var_split", sched_var_split},    {"var_reorder", sched_var_reorder},
    {"var_merge", sched_var_merge},    {"var_pad", sched_var_pad},
    {"var_unfold", sched_var_unfold},  {"var_attach", sched_var_attach},
    {"follow_layout", sched_follow_layout}, {"propagate", sched_propagate},
    {"inline", sched_inline},
    {"separate_tail", sched_one_loop},
    {"blend", sched_one_loop},
    {"as_lib", sched_one_loop},
    {NULL, NULL}};

/* Whether line s is `auto`. */
static int is_auto_line(const ast_sched_line *s)
{
    const ast_sarg *e = s->value;
    return e && e->kind == AST_SARG_NAME && strcmp(e->name, "auto") == 0 && !s->assigns;
}

/* One schedule line (`auto` only as a block's last line: xf_apply_schedules). */
static int sched_stmt(ft_ctx *ctx, ast_func *f, const ast_sched_line *s)
{
    const ast_sarg *e = s->value;
    if (is_auto_line(s)) {
        ft_error(ctx, e->loc, "`auto` ends a schedule block: it runs the auto-scheduler on "
                 "what the lines before it left, so no line can follow it");
        return 1;
    }
    if (!e || e->kind != AST_SARG_CALL) {
        ft_error(ctx, s->loc, "a schedule line is a primitive call, e.g. parallelize(L, openmp)");
        return 1;
    }
    const char *name = e->name;
    for (int i = 0; primitives[i].name; i++)
        if (strcmp(name, primitives[i].name) == 0) {
            sched_line ln;
            return read_line(ctx, s, e, &ln) ? primitives[i].fn(ctx, f, &ln) : 1;
        }
    ft_error(ctx, e->name_loc, "unknown schedule primitive '%s'", name);
    return 1;
}

/* One schedule statement; with the verifier of parallel code on (--verify,
 * the default with assertions), a line after which a parallel loop of f is
 * no longer proved race-free is refused and f restored: a layout change
 * (var_split by a size known at run time) can make the indices of a loop
 * vectorized or parallelized by an earlier line too hard for the analysis,
 * and the verifier would then reject the whole program. */
static int sched_stmt_proved(ft_ctx *ctx, ast_func *f, const ast_sched_line *s,
                             xf_proved *known)
{
    if (ctx->opts.verify == FT_VERIFY_OFF)
        return sched_stmt(ctx, f, s);
    ast_stmt *before = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
    if (sched_stmt(ctx, f, s))
        return 1;
    const ast_stmt *loop = NULL;
    const char *why = xf_unproved_parallel(ctx, f, known, &loop);
    if (!why)
        return 0;
    ft_error(ctx, s->loc, "cannot apply this line: afterwards the parallel loop %s could not "
             "be proved race-free (%s); the line is refused", xf_sched_name(ctx, loop), why);
    f->body = before;
    return 1;
}

/* One schedule statement under --check-refusals: when it is refused, f's
 * body must equal (ast_stmt_equal: labels, loop kinds and atomic flags
 * included) a copy taken before it, or the refusal is reported as an
 * internal error (tests/schedule/fuzz.py relies on this). */
static int sched_stmt_checked(ft_ctx *ctx, ast_func *f, const ast_sched_line *s,
                              xf_proved *known)
{
    ast_stmt *before = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
    int nerrors = ctx->nerrors;
    int r = sched_stmt_proved(ctx, f, s, known);
    if (r && !ast_stmt_equal(before, f->body)) {
        ft_error(ctx, s->loc, "internal error: a refused schedule line changed '%s'",
                 f->name);
        ast_print_stmt(ctx->diag_out, f->body, 1);
    } else if (r && ctx->nerrors == nerrors) {
        ft_error(ctx, s->loc, "internal error: a schedule line was refused without an "
                 "error message");
    }
    return r;
}

/* ------------------------------------------------------ schedule blocks */

static ast_func *find_func(ast_program *p, const char *name)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i]->name, name) == 0)
            return p->funcs[i];
    return NULL;
}

/* Pinning the loops of f that a schedule line named or made (an id from
 * first_new on): the auto-scheduler after `auto` keeps them. */
typedef struct pin_walk {
    ast_visitor v;
    int first_new;
} pin_walk;

static int pin_cb(ast_visitor *v, ast_stmt *s)
{
    if (s->kind == AST_FOR && (s->named || s->id >= ((pin_walk *)v)->first_new))
        s->pinned = 1;
    return 1;
}

static void pin_scheduled_loops(ast_func *f, int first_new)
{
    pin_walk w = {.v.stmt = pin_cb, .first_new = first_new};
    ast_visit(f->body, &w.v);
}

int xf_apply_schedules(ft_ctx *ctx, ast_program *p)
{
    int bad = 0;
    const int first_new = ctx->next_stmt_id;
    for (int i = 0; i < p->nschedules; i++) {
        const ast_schedule *k = &p->schedules[i];
        ast_func *f = find_func(p, k->func);
        if (!f) {
            ft_error(ctx, k->loc, "schedule for '%s': there is no exported function of "
                     "that name", k->func);
            bad = 1;
            continue;
        }
        int n = k->nlines;
        if (n > 0 && is_auto_line(&k->lines[n - 1])) {
            f->auto_after = 1;
            n--;
        }
        xf_proved known = {0};   /* the loops proved after the lines so far */
        for (int j = 0; j < n; j++)
            bad |= ctx->opts.check_refusals ? sched_stmt_checked(ctx, f, &k->lines[j], &known)
                                            : sched_stmt_proved(ctx, f, &k->lines[j], &known);
    }
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->auto_after)
            pin_scheduled_loops(p->funcs[i], first_new);
    return bad;
}
