/* verify_par.c - the verifier of parallel code.
 *
 * Requires: a scheduled program (after the user's schedules, or after any
 * pass of the auto-scheduler).
 * Provides: nothing; an internal error at every parallel loop it cannot
 * prove race-free, naming the pass that ran last.
 *
 * The passes that parallelize decide legality with the dependence analysis
 * of the moment; the passes after them move, merge and promote statements
 * in and around loops that are already parallel.  This check does not trust
 * any of them: on the program as it stands it recomputes with isl the
 * dependences that each OpenMP loop (and each CUDA block or thread loop,
 * and each vectorized loop: there what vectorize(L) requires) carries, and
 * accepts only
 *   - none, apart from locals declared inside the loop (private to an
 *     iteration: the analysis already leaves those out), and
 *   - same-operator reduction pairs whose updates are all protected: atomic
 *     (AST_RED_ATOMIC, or a per-thread copy, AST_RED_PRIVATE, inside an
 *     OpenMP loop of the C target), or into a 0-D local that the C backend
 *     gives the OpenMP loop a reduction clause for (xf_par_reductions);
 *   - and a tensor reduced into through per-thread copies is not otherwise
 *     accessed in the loop (the body sees the thread's copy by its name).
 * Anything else is a data race the C compiler would not see: a wrong answer
 * that changes from run to run.  FT_VERIFY_PASSES runs it after the
 * schedules and after every auto pass so that the error names the guilty
 * pass (tests/numeric and the fuzzers run that way).
 */
#include "verify_par.h"

#include <string.h>

#include "../analysis/deps.h"
#include "schedule.h"
#include "sched_util.h"
#include "visit.h"
#include "xf_util.h"
#include "../ast/target.h"

/* The parallel loops under a function body, outermost first. */
typedef struct par_loops {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec loops;            /* ast_stmt * */
} par_loops;

static int par_loops_cb(ast_visitor *v, ast_stmt *s)
{
    par_loops *w = (par_loops *)v;
    if (s->kind == AST_FOR && s->u.loop.par != AST_SERIAL && s->u.loop.par != AST_LIB)
        ft_vec_push(w->ctx, &w->loops, s);
    return 1;
}

/* Whether var is a 0-D local declared around loop (a VarDef ancestor). */
static int local_scalar_around(ft_ctx *ctx, ast_func *f, const ast_stmt *loop, const char *var)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, loop, &anc);
    for (int i = anc.len - 1; i >= 0; i--) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_VARDEF && strcmp(a->u.def.name, var) == 0)
            return a->u.def.ndim == 0;
    }
    return 0;
}

/* Whether reduction r, which other iterations of loop may update at once,
 * is protected: atomic, a per-thread copy (OpenMP on the C target), or into
 * one of clauses (the loop's reduction clauses, C target). */
static int protected_update(ft_ctx *ctx, const ast_stmt *loop, const ast_stmt *r,
                            const ft_vec *clauses)
{
    if (!r || r->kind != AST_REDUCE)
        return 0;
    if (r->u.red.atomic == AST_RED_ATOMIC)
        return 1;
    int omp_c = loop->u.loop.par == AST_OPENMP && (ctx->target->caps & FT_CAP_HOST);
    if (r->u.red.atomic == AST_RED_PRIVATE)
        return omp_c && r->u.red.op == AST_RED_ADD && r->u.red.n > 0;
    return omp_c && r->u.red.n == 0 && xf_has_name(clauses, r->u.red.var);
}

/* The tensors an OpenMP loop's body reduces into through per-thread
 * copies (AST_RED_PRIVATE), and those it also reduces into otherwise. */
typedef struct priv_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec priv, other;
} priv_walk;

static int priv_walk_cb(ast_visitor *v, ast_stmt *s)
{
    priv_walk *w = (priv_walk *)v;
    if (s->kind == AST_REDUCE) {
        ft_vec *into = s->u.red.atomic == AST_RED_PRIVATE ? &w->priv : &w->other;
        if (!xf_has_name(into, s->u.red.var))
            ft_vec_push(w->ctx, into, (void *)s->u.red.var);
    }
    return 1;
}

/* Why the per-thread copies of OpenMP loop's body are not sound, or NULL:
 * the C backend binds a tensor's name to the thread's copy for the whole
 * body, so the body may touch it only by `+=` through the copy. */
static const char *bad_private(ft_ctx *ctx, const ast_stmt *loop)
{
    priv_walk w = {.v.stmt = priv_walk_cb, .ctx = ctx};
    ast_visit(loop->u.loop.body, &w.v);
    for (int i = 0; i < w.priv.len; i++) {
        const char *var = w.priv.items[i];
        xf_uses u = xf_count_uses(loop->u.loop.body, var);
        if (u.loads || u.stores || xf_has_name(&w.other, var))
            return ft_fmt(ctx, "'%s' is reduced into through per-thread copies, and the body "
                          "also accesses it otherwise (it would see the thread's copy)", var);
    }
    return NULL;
}

/* Report that loop is not race-free after pass `after`: why, and one
 * dependence as witness. */
static void report(ft_ctx *ctx, const ast_stmt *loop, const char *after, const char *why)
{
    ft_error(ctx, loop->loc, "internal error: verifier of parallel code: after %s, parallel "
             "loop %s is not race-free: %s (please report this compiler bug; --no-auto avoids "
             "the auto-scheduler)", after, xf_sched_name(ctx, loop), why);
}

/* Why the threads of loop (OpenMP, CUDA) may race, given its carried
 * dependences d and what an_loop_parallel said of them (r, witness); NULL
 * when they cannot. */
static const char *why_threads(ft_ctx *ctx, ast_func *f, const ast_stmt *loop,
                               const an_deps *d, an_par r, const char *witness)
{
    if (r == AN_PAR_NO)
        return witness;
    const char *why = loop->u.loop.par == AST_OPENMP ? bad_private(ctx, loop) : NULL;
    if (why)
        return why;
    ft_vec clauses = {0}, ops = {0};
    xf_par_reductions(ctx, loop->u.loop.body, &clauses, &ops);
    for (int k = clauses.len - 1; k >= 0; k--)      /* keep the 0-D locals only */
        if (!local_scalar_around(ctx, f, loop, clauses.items[k]))
            clauses.items[k] = "";
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];         /* an_loop_deps: all carried */
        if (dep->kind == AN_RED && (!protected_update(ctx, loop, dep->src->stmt, &clauses) ||
                                    !protected_update(ctx, loop, dep->snk->stmt, &clauses)))
            return ft_fmt(ctx, "reductions of different iterations collide and are not "
                          "atomic, per-thread or a reduction clause: %s", an_dep_text(d, dep));
    }
    return NULL;
}

/* Why loop, a parallel loop of f, may race, or NULL when it is proved
 * race-free.  A vectorized loop must meet what vectorize(L) requires (no
 * carried dependence but same-operator reductions into 0-D locals, which
 * get simd reduction clauses), on the program as it stands. */
static const char *why_loop(ft_ctx *ctx, ast_func *f, const ast_stmt *loop)
{
    an_deps *d = an_loop_deps(ctx, f, loop);
    char *witness = NULL;
    an_par r = d ? an_loop_parallel(d, loop, &witness) : AN_PAR_ERROR;
    const char *why = r == AN_PAR_ERROR ? "the dependence analysis failed"
                    : loop->u.loop.par != AST_VECTORIZE ? why_threads(ctx, f, loop, d, r, witness)
                    : xf_vector_par_ok(ctx, f, loop, r) ? NULL
                    : witness ? witness : "a reduction that simd cannot take";
    if (d)
        an_deps_free(d);
    return why;
}

/* The parallel loops of f (outermost first). */
static ft_vec parallel_loops(ft_ctx *ctx, ast_func *f)
{
    par_loops w = {.v.stmt = par_loops_cb, .ctx = ctx};
    ast_visit(f->body, &w.v);
    return w.loops;
}

int xf_verify_parallel(ft_ctx *ctx, ast_func *f, const char *after)
{
    ft_vec loops = parallel_loops(ctx, f);
    int bad = 0;
    for (int i = 0; i < loops.len; i++) {
        const char *why = why_loop(ctx, f, loops.items[i]);
        if (why)
            report(ctx, loops.items[i], after, why);
        bad |= why != NULL;
    }
    return bad;
}

/* Loop with what its proof reads around it, as one statement: a copy of
 * each loop, branch and local enclosing it (sequences left out: the order
 * of statements outside the loop does not change what it carries), each
 * holding only the next, the branch on the side that holds it, and a copy
 * of loop innermost.  Two loops with equal chains (ast_stmt_equal) in the
 * same function have the same carried dependences, reductions and locals
 * around them. */
static ast_stmt *context_chain(ft_ctx *ctx, ast_func *f, ast_stmt *loop)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, loop, &anc);
    ast_stmt *chain = ast_clone_stmt(ctx, loop, AST_CLONE_SAME);
    const ast_stmt *inner = loop;
    for (int i = anc.len - 1; i >= 0; inner = anc.items[i--]) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_SEQ || a == loop)
            continue;
        ast_stmt *c = ft_alloc(ctx, sizeof *c);
        *c = *a;                /* its expressions copied: lines edit in place */
        if (a->kind == AST_FOR) {
            c->u.loop.begin = ast_clone_expr(ctx, a->u.loop.begin);
            c->u.loop.end = ast_clone_expr(ctx, a->u.loop.end);
            c->u.loop.step = ast_clone_expr(ctx, a->u.loop.step);
            c->u.loop.body = chain;
        } else if (a->kind == AST_VARDEF) {
            c->u.def.shape = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(a->u.def.ndim + 1));
            for (int d = 0; d < a->u.def.ndim; d++)
                c->u.def.shape[d] = ast_clone_expr(ctx, a->u.def.shape[d]);
            c->u.def.body = chain;
        } else {
            int then = a->u.branch.then == inner;
            c->u.branch.cond = ast_clone_expr(ctx, a->u.branch.cond);
            c->u.branch.then = then ? chain : NULL;
            c->u.branch.other = then ? NULL : chain;
        }
        chain = c;
    }
    return chain;
}

/* Whether known holds chain. */
static int proved_before(const xf_proved *known, const ast_stmt *chain)
{
    for (int i = 0; i < known->chains.len; i++)
        if (ast_stmt_equal(known->chains.items[i], chain))
            return 1;
    return 0;
}

const char *xf_unproved_parallel(ft_ctx *ctx, ast_func *f, xf_proved *known,
                                 const ast_stmt **loop)
{
    ft_vec loops = parallel_loops(ctx, f);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *chain = known ? context_chain(ctx, f, loops.items[i]) : NULL;
        if (chain && proved_before(known, chain))
            continue;
        const char *why = why_loop(ctx, f, loops.items[i]);
        if (why) {
            *loop = loops.items[i];
            return why;
        }
        if (chain)
            ft_vec_push(ctx, &known->chains, chain);
    }
    return NULL;
}

int xf_verify_program(ft_ctx *ctx, ast_program *p, const char *after)
{
    int bad = 0;
    for (int i = 0; i < p->nfuncs; i++)
        bad |= xf_verify_parallel(ctx, p->funcs[i], after);
    return bad;
}
