/* auto_privatize.c - per-thread copies instead of atomics for the scatters
 * of a parallel loop over the rows of a sparse (CSR) structure.
 *
 * Requires: f's AST after auto_parallelize (which marks atomic the
 * reductions that other iterations of a parallel loop may also update);
 * the C target (on CUDA the pass does nothing).
 * Provides: in each OpenMP loop L, the reductions into a tensor T marked
 * AST_RED_PRIVATE when
 *   - some atomic `T[...] += ...` under L sits inside an inner loop whose
 *     range changes with L's iteration (GAT's backward pass: k over node
 *     i's edges ptr[i] .. ptr[i + 1] - 1, `d_hf[idx[k], j] += ...`): the
 *     number of updates per iteration is data-dependent, and on a
 *     power-law graph many rows scatter into a few popular nodes, where
 *     atomics contend;
 *   - every access to T under L is a `+=` (no read, no store: a thread's
 *     copy holds only its partial sums), T has at least one dimension, an
 *     integer or floating dtype (zero bytes are 0), and L does not declare
 *     it.
 * or, in place of the first condition, when the scatter is dense: the
 * atomic `T[...] += ...` under L run, counted with every size taken as
 * NOMINAL_SIZE, at least DENSE_RATIO times per element of T (SubdivNet's
 * backward pass: 16 * in_feats updates per face into d_e, n_faces x
 * in_feats elements; the atomics were a third of it).
 * The C backend then gives each thread a zeroed copy of T, reduces into it
 * with plain adds and, after L, adds the copies into T (cg_priv_* in
 * cg_c.c): |T| elements zeroed and summed per thread, where atomics cost a
 * compare-and-swap per update (GAT: feat_len + 1 per edge, ~10 edges per
 * node, into tensors of n x feat_len and n elements).
 * auto_parallelize asks xf_auto_privatizable before it keeps a loop whose
 * atomics would hit the same elements in every iteration (a weight
 * gradient summed over every face): with copies, that loop runs in
 * parallel instead of serially around parallel regions.
 */
#include "auto_util.h"

#include <math.h>
#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"
#include "../../ast/target.h"

static const char *const PASS = "auto_privatize";

/* The dense rule: sizes taken as NOMINAL_SIZE, a scatter privatized when
 * it updates at least DENSE_RATIO times as many elements as the tensor has
 * (zeroing and summing one copy per thread costs two plain accesses per
 * element and thread; a compare-and-swap costs several). */
enum { NOMINAL_SIZE = 1000, DENSE_RATIO = 4 };

/* The value of e with every name taken as NOMINAL_SIZE; NAN when e reads
 * a tensor or is not a count (a constant may be negative: the span of
 * `range(n - 1, -1, -1)` is (n - 1) - (-1)). */
static double nominal(const ast_expr *e)
{
    if (!e)
        return NAN;
    if (e->kind == AST_INT)
        return (double)e->u.ival;
    if (e->kind == AST_VAR)
        return NOMINAL_SIZE;
    if (e->kind != AST_BINARY)
        return NAN;
    double a = nominal(e->u.bin.a), b = nominal(e->u.bin.b);
    switch (e->u.bin.op) {
    case AST_ADD: return a + b;
    case AST_SUB: return a > b ? a - b : isnan(a - b) ? NAN : 0;
    case AST_MUL: return a * b;
    case AST_FLOORDIV: return b > 0 ? a / b : NAN;
    case AST_MIN: return isnan(a + b) ? NAN : a < b ? a : b;
    case AST_MAX: return isnan(a + b) ? NAN : a > b ? a : b;
    default: return NAN;
    }
}

/* The nominal number of atomic += into var run under s, each counted mult
 * times (the trip counts of the loops around s); -1 when a loop around one
 * of them has a range that is not a count of sizes. */
static double atomic_updates(ft_ctx *ctx, const ast_stmt *s, const char *var, double mult)
{
    if (!s)
        return 0;
    double n = 0, t;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n && n >= 0; i++) {
            t = atomic_updates(ctx, s->u.seq.stmts[i], var, mult);
            n = t < 0 ? -1 : n + t;
        }
        return n;
    case AST_VARDEF:
        return strcmp(s->u.def.name, var) == 0 ? 0 : atomic_updates(ctx, s->u.def.body, var, mult);
    case AST_IF: {
        double a = atomic_updates(ctx, s->u.branch.then, var, mult);
        double b = atomic_updates(ctx, s->u.branch.other, var, mult);
        return a < 0 || b < 0 ? -1 : a > b ? a : b;
    }
    case AST_FOR: {
        if (!xf_accesses(s->u.loop.body, var))
            return 0;
        double trips = nominal(xf_trip_count(ctx, s));
        return !(trips >= 0) ? -1 : atomic_updates(ctx, s->u.loop.body, var, mult * trips);
    }
    case AST_REDUCE:
        return strcmp(s->u.red.var, var) == 0 && s->u.red.atomic == AST_RED_ATOMIC &&
               s->u.red.op == AST_RED_ADD ? mult : 0;
    default: return 0;
    }
}

/* Whether parallel loop `loop` scatters densely into var (see the file
 * comment). */
static int dense(xf_auto *a, ast_stmt *loop, const char *var)
{
    int ndim;
    ast_expr **shape;
    if (!xf_find_decl(a->ctx, a->f, loop, var, NULL, &ndim, &shape))
        return 0;
    double elems = 1;
    for (int k = 0; k < ndim; k++) {
        double d = nominal(shape[k]);
        if (!(d >= 0))
            return 0;
        elems *= d;
    }
    double updates = atomic_updates(a->ctx, loop, var, 1);
    return updates >= 0 && updates >= DENSE_RATIO * elems;
}

/* Add to out the tensors of the atomic += reductions under s. */
static void atomic_tensors(ft_ctx *ctx, const ast_stmt *s, ft_vec *out)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            atomic_tensors(ctx, s->u.seq.stmts[i], out);
        break;
    case AST_VARDEF: atomic_tensors(ctx, s->u.def.body, out); break;
    case AST_FOR: atomic_tensors(ctx, s->u.loop.body, out); break;
    case AST_IF:
        atomic_tensors(ctx, s->u.branch.then, out);
        atomic_tensors(ctx, s->u.branch.other, out);
        break;
    case AST_REDUCE:
        if (s->u.red.atomic == AST_RED_ATOMIC && s->u.red.op == AST_RED_ADD &&
            s->u.red.n > 0 && !xf_has_name(out, s->u.red.var))
            ft_vec_push(ctx, out, (void *)s->u.red.var);
        break;
    default: break;
    }
}

/* The walk under one parallel loop. */
typedef struct priv_walk {
    ft_ctx *ctx;
    ft_vec vary;         /* iterators that change with the parallel loop's */
    ft_vec tensors;      /* tensors of atomic += under a range that does */
} priv_walk;

/* Collect under s the tensors of atomic += reductions inside a loop whose
 * range changes with the parallel iteration (dyn: s is inside one). */
static void collect(priv_walk *w, const ast_stmt *s, int dyn)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            collect(w, s->u.seq.stmts[i], dyn);
        break;
    case AST_VARDEF: collect(w, s->u.def.body, dyn); break;
    case AST_IF:
        collect(w, s->u.branch.then, dyn);
        collect(w, s->u.branch.other, dyn);
        break;
    case AST_FOR: {
        int len = w->vary.len;
        int d = xf_auto_vary_range(w->ctx, s, &w->vary) || dyn;
        collect(w, s->u.loop.body, d);
        w->vary.len = len;
        break;
    }
    case AST_REDUCE:
        if (dyn && s->u.red.atomic == AST_RED_ATOMIC && s->u.red.op == AST_RED_ADD &&
            s->u.red.n > 0 && !xf_has_name(&w->tensors, s->u.red.var))
            ft_vec_push(w->ctx, &w->tensors, (void *)s->u.red.var);
        break;
    default: break;
    }
}

/* Counts the reductions into var under s that are not +=, and marks the
 * += ones private when mark is set. */
static int other_reductions(ast_stmt *s, const char *var, int mark)
{
    if (!s)
        return 0;
    int n = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            n += other_reductions(s->u.seq.stmts[i], var, mark);
        return n;
    case AST_VARDEF:
        return strcmp(s->u.def.name, var) == 0 ? 0 : other_reductions(s->u.def.body, var, mark);
    case AST_FOR: return other_reductions(s->u.loop.body, var, mark);
    case AST_IF:
        return other_reductions(s->u.branch.then, var, mark) +
               other_reductions(s->u.branch.other, var, mark);
    case AST_REDUCE:
        if (strcmp(s->u.red.var, var) != 0)
            return 0;
        if (s->u.red.op != AST_RED_ADD)
            return 1;
        if (mark)
            s->u.red.atomic = AST_RED_PRIVATE;
        return 0;
    default: return 0;
    }
}

/* Whether tensor var, visible at loop, has an integer or float dtype: a
 * zeroed copy then starts its sums right. */
static int zero_is_identity(xf_auto *a, const ast_stmt *loop, const char *var)
{
    ft_dtype t;
    return xf_find_decl(a->ctx, a->f, loop, var, &t, NULL, NULL) &&
           (t == FT_I32 || t == FT_I64 || t == FT_F32 || t == FT_F64);
}

/* Why the atomic += into var under the OpenMP loop keeps its atomics
 * (NULL: it may go to per-thread copies); csr: var is updated in a loop
 * whose range changes with the iteration. */
static const char *why_atomic(xf_auto *a, ast_stmt *loop, const char *var, int csr)
{
    if (!csr && !dense(a, loop, var))
        return "neither in a data-dependent range nor dense";
    xf_uses u = xf_count_uses(loop->u.loop.body, var);
    return u.loads || u.stores ? "the loop also reads or stores it"
         : other_reductions(loop->u.loop.body, var, 0) ? "not only += updates"
         : xf_defines(loop->u.loop.body, var) ? "the loop declares it"
         : !zero_is_identity(a, loop, var) ? "not an integer or float tensor"
         : NULL;
}

/* The tensors of atomic += under the OpenMP loop into *all, and of those
 * in a range that changes with its iteration into w->tensors. */
static void atomic_sets(xf_auto *a, ast_stmt *loop, priv_walk *w, ft_vec *all)
{
    *w = (priv_walk){.ctx = a->ctx};
    ft_vec_push(a->ctx, &w->vary, (void *)loop->u.loop.iter);
    collect(w, loop->u.loop.body, 0);
    *all = (ft_vec){0};
    atomic_tensors(a->ctx, loop->u.loop.body, all);
}

/* Counts the atomic reductions under s that are not += into a tensor. */
static int other_atomics(const ast_stmt *s)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ: {
        int n = 0;
        for (int i = 0; i < s->u.seq.n; i++)
            n += other_atomics(s->u.seq.stmts[i]);
        return n;
    }
    case AST_VARDEF: return other_atomics(s->u.def.body);
    case AST_FOR: return other_atomics(s->u.loop.body);
    case AST_IF: return other_atomics(s->u.branch.then) + other_atomics(s->u.branch.other);
    case AST_REDUCE:
        return s->u.red.atomic == AST_RED_ATOMIC && (s->u.red.op != AST_RED_ADD || s->u.red.n == 0);
    default: return 0;
    }
}

int xf_auto_privatizable(xf_auto *a, ast_stmt *loop)
{
    if (!(a->ctx->target->caps & FT_CAP_HOST) || other_atomics(loop->u.loop.body))
        return 0;
    priv_walk w;
    ft_vec all;
    atomic_sets(a, loop, &w, &all);
    for (int i = 0; i < all.len; i++)
        if (why_atomic(a, loop, all.items[i], xf_has_name(&w.tensors, all.items[i])))
            return 0;
    return all.len > 0;
}

/* Privatize what qualifies under the OpenMP loop; the number of tensors. */
static int privatize_loop(xf_auto *a, ast_stmt *loop)
{
    priv_walk w;
    ft_vec all;
    atomic_sets(a, loop, &w, &all);
    int n = 0;
    for (int i = 0; i < all.len; i++) {
        const char *var = all.items[i];
        int csr = xf_has_name(&w.tensors, var);
        if (!csr && !dense(a, loop, var))
            continue;
        const char *why = why_atomic(a, loop, var, csr);
        if (why) {
            xf_auto_log(a, PASS, xf_auto_name(a, loop), "%s left atomic: %s", var, why);
            continue;
        }
        other_reductions(loop->u.loop.body, var, 1);
        xf_auto_log(a, PASS, xf_auto_name(a, loop), "%s: per-thread copies instead of "
                    "atomics (%s)", var, csr ? "its updates sit in a loop over a range that "
                    "changes with the iteration" : "dense: at least 4 updates per element");
        n++;
    }
    return n;
}

/* The pass (see the file comment); the number of tensors privatized. */
int xf_auto_privatize(xf_auto *a)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    int n = 0;
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *l = loops.items[i];
        if (l->u.loop.par == AST_OPENMP)
            n += privatize_loop(a, l);
    }
    return n;
}
