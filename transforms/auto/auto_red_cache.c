/* auto_red_cache.c - one atomic update per element instead of one per term.
 *
 * Requires: f's AST after auto_parallelize (which marks atomic the
 * reductions that other iterations of a parallel loop may also update);
 * the C target (on CUDA the pass does nothing).
 * Provides: every serial loop whose body is one atomic reduction
 * `a[idx] op= value` with idx free of the loop's iterator (a gradient's
 * `d_e[i, k] += d_t[j] * w[k, j]` over j) wrapped by cache_reduce (xf_cache
 * with reduce 1): the loop reduces into a private one-element buffer and
 * a single atomic flush adds it to a[idx].  A compare-and-swap per term
 * (out_feats of them per element) was 68% of SubdivNet's backward.
 */
#include "auto_util.h"

#include <string.h>

#include "../schedule.h"
#include "../xf_util.h"

enum { MAX_ELEMS = 16 };

static const char *const PASS = "auto_red_cache";

/* Whether loop l is a candidate: serial, its body one atomic reduction
 * whose indices do not mention l's iterator. */
static int candidate(const ast_stmt *l)
{
    const ast_stmt *b = l->u.loop.body;
    if (l->u.loop.par != AST_SERIAL || b->kind != AST_REDUCE || b->u.red.atomic != AST_RED_ATOMIC)
        return 0;
    for (int k = 0; k < b->u.red.n; k++)
        if (xf_expr_uses_var(b->u.red.idx[k], l->u.loop.iter))
            return 0;
    return 1;
}

/* Clear the atomic mark of every reduction into the local buf under s. */
static void clear_atomic(ast_stmt *s, const char *buf)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            clear_atomic(s->u.seq.stmts[i], buf);
        break;
    case AST_VARDEF: clear_atomic(s->u.def.body, buf); break;
    case AST_FOR: clear_atomic(s->u.loop.body, buf); break;
    case AST_IF:
        clear_atomic(s->u.branch.then, buf);
        clear_atomic(s->u.branch.other, buf);
        break;
    case AST_REDUCE:
        if (strcmp(s->u.red.var, buf) == 0)
            s->u.red.atomic = 0;
        break;
    default: break;
    }
}

/* The VarDef of local name under s, or NULL. */
static ast_stmt *find_def(ast_stmt *s, const char *name)
{
    if (!s)
        return NULL;
    ast_stmt *r = NULL;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n && !r; i++)
            r = find_def(s->u.seq.stmts[i], name);
        return r;
    case AST_VARDEF:
        return strcmp(s->u.def.name, name) == 0 ? s : find_def(s->u.def.body, name);
    case AST_FOR: return find_def(s->u.loop.body, name);
    case AST_IF:
        r = find_def(s->u.branch.then, name);
        return r ? r : find_def(s->u.branch.other, name);
    default: return NULL;
    }
}

/* Whether the local def has a constant shape of at most MAX_ELEMS elements
 * (a data-dependent index caches a whole dimension: a copy of the tensor
 * per iteration would cost far more than the atomics it saves). */
static int small_buffer(const ast_stmt *def)
{
    int64_t n = 1;
    for (int d = 0; d < def->u.def.ndim; d++) {
        const ast_expr *e = def->u.def.shape[d];
        if (e->kind != AST_INT || e->u.ival < 0 || e->u.ival > MAX_ELEMS)
            return 0;
        n *= e->u.ival;
    }
    return n <= MAX_ELEMS;
}

/* Cache the reduction of the first untried candidate loop of f; 1 when one
 * was tried (done records it either way, so the search ends), *ok counting
 * the successes. */
static int cache_one(xf_auto *a, ft_vec *done, int *ok)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *l = loops.items[i];
        int old = 0;
        for (int k = 0; k < done->len && !old; k++)
            old = done->items[k] == (void *)(intptr_t)l->id;
        if (old || !candidate(l))
            continue;
        ft_vec_push(a->ctx, done, (void *)(intptr_t)l->id);
        const char *lname = xf_auto_name(a, l);
        const char *var = l->u.loop.body->u.red.var;
        const char *buf = xf_fresh_name(a->ctx, a->f, ft_fmt(a->ctx, "%s_c", var));
        ast_stmt *snap = xf_auto_snapshot(a);
        xf_quiet q;
        xf_auto_quiet_begin(a->ctx, &q);
        int bad = xf_cache(a->ctx, a->f, l, var, FT_MT_CPU, 1, NULL, NULL, buf, l->loc);
        const char *why = xf_auto_quiet_end(a->ctx, &q);
        ast_stmt *def = bad ? NULL : find_def(a->f->body, buf);
        if (bad)
            xf_auto_log(a, PASS, lname, "not cached: %s", why);
        else if (!def || !small_buffer(def)) {
            xf_auto_restore(a, snap);
            xf_auto_log(a, PASS, lname, "not cached: the region of %s it updates is not a "
                        "few elements known at compile time", var);
        } else {
            /* the buffer is declared around l, inside the parallel loop:
             * each thread has its own, so its reductions need no atomic */
            clear_atomic(a->f->body, buf);
            (*ok)++;
            xf_auto_log(a, PASS, lname, "atomic reduction of %s cached (one atomic flush)", var);
        }
        return 1;
    }
    return 0;
}

/* The pass (see the file comment); the number of loops cached. */
int xf_auto_red_cache(xf_auto *a)
{
    ft_vec done = {0};
    int tries = 0, ok = 0;
    while (tries < 1024 && cache_one(a, &done, &ok))
        tries++;
    return ok;
}
