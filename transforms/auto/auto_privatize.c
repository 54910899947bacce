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
 * The C backend then gives each thread a zeroed copy of T, reduces into it
 * with plain adds and, after L, adds the copies into T (cg_priv_* in
 * cg_c.c): |T| elements zeroed and summed per thread, where atomics cost a
 * compare-and-swap per update (GAT: feat_len + 1 per edge, ~10 edges per
 * node, into tensors of n x feat_len and n elements).
 */
#include "auto_util.h"

#include <string.h>

#include "../xf_util.h"

static const char *const PASS = "auto_privatize";

/* The walk under one parallel loop. */
typedef struct priv_walk {
    ft_ctx *ctx;
    ft_vec vary;         /* iterators that change with the parallel loop's */
    ft_vec tensors;      /* tensors of atomic += under a range that does */
} priv_walk;

/* Whether e mentions a name of names. */
static int uses_any(const ast_expr *e, const ft_vec *names)
{
    for (int i = 0; e && i < names->len; i++)
        if (xf_expr_uses_var(e, names->items[i]))
            return 1;
    return 0;
}

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
        int len = w->vary.len, d = dyn;
        if (uses_any(s->u.loop.begin, &w->vary) || uses_any(s->u.loop.end, &w->vary) ||
            uses_any(s->u.loop.step, &w->vary)) {
            ft_vec_push(w->ctx, &w->vary, (void *)s->u.loop.iter);
            d = 1;
        }
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

/* The dtype of tensor var of f (a parameter or a VarDef); 0 when not
 * found or not a number type a zeroed copy starts right. */
static int zero_is_identity(ft_ctx *ctx, ast_func *f, const char *var)
{
    ft_dtype t = FT_BOOL;
    int found = 0;
    for (int i = 0; i < f->nparams && !found; i++)
        if (strcmp(f->params[i].name, var) == 0) {
            t = f->params[i].dtype;
            found = 1;
        }
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    for (int i = 0; i < defs.len && !found; i++) {
        const ast_stmt *d = defs.items[i];
        if (strcmp(d->u.def.name, var) == 0) {
            t = d->u.def.dtype;
            found = 1;
        }
    }
    return found && (t == FT_I32 || t == FT_I64 || t == FT_F32 || t == FT_F64);
}

/* Privatize what qualifies under the OpenMP loop; the number of tensors. */
static int privatize_loop(xf_auto *a, ast_stmt *loop)
{
    priv_walk w = {.ctx = a->ctx};
    ft_vec_push(a->ctx, &w.vary, (void *)loop->u.loop.iter);
    collect(&w, loop->u.loop.body, 0);
    int n = 0;
    for (int i = 0; i < w.tensors.len; i++) {
        const char *var = w.tensors.items[i];
        xf_uses u = xf_count_uses(loop->u.loop.body, var);
        const char *why = u.loads || u.stores ? "the loop also reads or stores it"
                        : other_reductions(loop->u.loop.body, var, 0) ? "not only += updates"
                        : xf_defines(loop->u.loop.body, var) ? "the loop declares it"
                        : !zero_is_identity(a->ctx, a->f, var) ? "not an integer or float tensor"
                        : NULL;
        if (why) {
            xf_auto_log(a, PASS, xf_auto_name(a, loop), "%s left atomic: %s", var, why);
            continue;
        }
        other_reductions(loop->u.loop.body, var, 1);
        xf_auto_log(a, PASS, xf_auto_name(a, loop), "%s: per-thread copies instead of "
                    "atomics (its updates sit in a loop over a range that changes with the "
                    "iteration)", var);
        n++;
    }
    return n;
}

/* The pass (see the file comment); the number of tensors privatized. */
int xf_auto_privatize(xf_auto *a)
{
    if (a->ctx->opts.target_cuda)
        return 0;
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
