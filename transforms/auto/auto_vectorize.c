/* auto_vectorize.c - vectorize a loop whose accesses are contiguous.
 *
 * Requires: f's AST (after auto_fuse).
 * Provides: for each innermost loop L nested in another loop, the loop of
 * the perfect nest ending at L whose iterator walks the last index of the
 * accesses (contiguous: `x[.., i + c]`, never elsewhere in an index) brought
 * innermost with xf_reorder when it is not L, then vectorized with
 * xf_vectorize (which refuses carried dependences other than reductions
 * into 0-D locals, and bodies with checks that change inside the loop).
 * A refused vectorize undoes the reorder.
 *
 * Left alone: a loop that no loop encloses (auto_parallelize runs it with
 * threads instead), and short constant loops (auto_unroll's).
 */
#include "auto_util.h"

#include <string.h>

#include "../../analysis/bounds.h"
#include "../sched_util.h"
#include "../schedule.h"
#include "../xf_checks.h"
#include "../xf_util.h"
#include "visit.h"

enum { SHORT_TRIPS = 4 };

static const char *const PASS = "auto_vectorize";

/* Whether the accesses in body walk contiguous memory along loop's
 * iterator (at least one does, none strides). */
static int contiguous_loop(ft_ctx *ctx, ast_func *f, const ast_stmt *loop, ast_stmt *body)
{
    xf_walks w = xf_walks_along(ctx, f, loop, body, loop->u.loop.iter);
    return w.contiguous > 0 && w.strided == 0;
}

/* The perfect nest ending at loop (each one's body only the next),
 * outermost first; its length. */
static int perfect_nest(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ast_stmt ***chain)
{
    ft_vec enc = {0};
    xf_auto_enclosing_loops(ctx, f, loop, &enc);
    int top = enc.len;
    ast_stmt *cur = loop;
    while (top > 0) {
        ast_stmt **items;
        ast_stmt *p = enc.items[top - 1];
        if (xf_body_items(&p->u.loop.body, &items) != 1 || items[0] != cur ||
            p->u.loop.par != AST_SERIAL)
            break;
        cur = p;
        top--;
    }
    int n = enc.len - top + 1;
    *chain = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)n);
    for (int i = 0; i < n - 1; i++)
        (*chain)[i] = enc.items[top + i];
    (*chain)[n - 1] = loop;
    return n;
}

/* Vectorize loop quietly; NULL when done, else why not. */
static const char *vectorize(xf_auto *a, ast_stmt *loop)
{
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_vectorize(a->ctx, a->f, loop, loop->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    return bad ? why : NULL;
}

/* Bring chain[k] innermost (below chain[k+1..n-1]) and vectorize it; 1
 * when done, else the function is restored. */
static int reorder_and_vectorize(xf_auto *a, int n, ast_stmt **chain, int k, const char *lname)
{
    ast_stmt **order = ft_alloc(a->ctx, sizeof(ast_stmt *) * (size_t)(n - k));
    for (int i = k + 1; i < n; i++)
        order[i - k - 1] = chain[i];
    order[n - k - 1] = chain[k];
    const char *pname = xf_auto_name(a, chain[k]);
    int id = chain[k]->id;
    ast_stmt *snap = xf_auto_snapshot(a);
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_reorder(a->ctx, a->f, n - k, order, chain[k]->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    ast_stmt *p = bad ? NULL : xf_auto_loop_by_id(a->ctx, a->f, id);
    if (p && !(why = vectorize(a, p))) {
        xf_auto_label_later(a, p);
        xf_auto_log(a, PASS, lname, "%s (contiguous) brought innermost and vectorized", pname);
        return 1;
    }
    xf_auto_restore(a, snap);
    xf_auto_log(a, PASS, lname, "not vectorized: %s is contiguous, but %s", pname, why);
    return 0;
}

/* Why loop cannot be vectorized, read off the dependences it carries
 * before calling the primitive; NULL when it looks possible. */
static const char *precheck(xf_auto *a, const ast_stmt *loop)
{
    if (xf_stmt_checked(loop->u.loop.body) && !xf_loop_checks_hoistable(a->ctx, loop))
        return "its body has a check (an assert or a data-dependent index) that changes "
               "inside it";
    const char *w = NULL;
    an_par r = xf_auto_loop_par(a, loop, &w);
    if (xf_vector_par_ok(a->ctx, a->f, loop, r))
        return NULL;
    return r == AN_PAR_ERROR ? "the dependence analysis failed" : w;
}

/* Decide the innermost loop `loop`; 1 when the tree changed. */
static int try_loop(xf_auto *a, ast_stmt *loop)
{
    const char *lname = xf_auto_name(a, loop);
    ft_vec enc = {0};
    xf_auto_enclosing_loops(a->ctx, a->f, loop, &enc);
    int64_t trips;
    if (loop->u.loop.par != AST_SERIAL)
        return 0;
    if (enc.len == 0) {
        xf_auto_log(a, PASS, lname, "left to auto_parallelize (no enclosing loop)");
        return 0;
    }
    if (xf_auto_const_trips(a->ctx, loop, &trips) && trips <= SHORT_TRIPS) {
        xf_auto_log(a, PASS, lname, "left to auto_unroll (%lld iterations)", (long long)trips);
        return 0;
    }
    ast_stmt **chain;
    int n = perfect_nest(a->ctx, a->f, loop, &chain);
    for (int k = n - 1; k >= 0; k--) {
        if (!contiguous_loop(a->ctx, a->f, chain[k], loop->u.loop.body))
            continue;
        const char *why = precheck(a, chain[k]);
        if (why) {
            xf_auto_log(a, PASS, lname, "not vectorized: %s%s", k < n - 1 ?
                        ft_fmt(a->ctx, "%s is contiguous, but ", xf_auto_name(a, chain[k])) : "",
                        why);
            return 0;
        }
        int size;
        if (k < n - 1 && !xf_auto_small(a, &size)) {
            xf_auto_log(a, PASS, lname, "not vectorized: %s is contiguous, but the function "
                        "is too large (%d statements) for the reorder check",
                        xf_auto_name(a, chain[k]), size);
            return 0;
        }
        if (k < n - 1)
            return reorder_and_vectorize(a, n, chain, k, lname) | 2;
        why = vectorize(a, loop);
        if (why) {
            xf_auto_log(a, PASS, lname, "not vectorized: %s", why);
            return 0;
        }
        xf_auto_label_later(a, loop);
        xf_auto_log(a, PASS, lname, "vectorized (contiguous accesses)");
        return 0;
    }
    xf_auto_log(a, PASS, lname, "not vectorized: no loop of its nest walks contiguous memory");
    return 0;
}

int xf_auto_vectorize(xf_auto *a)
{
    ft_vec done = {0};
    int changed = 1, rounds = 0;
    while (changed && rounds++ < 64) {
        changed = 0;
        ft_vec loops = {0};
        xf_auto_loops(a->ctx, a->f, &loops);
        for (int i = 0; i < loops.len && !changed; i++) {
            ast_stmt *l = loops.items[i];
            int old = 0;
            for (int k = 0; k < done.len && !old; k++)
                old = done.items[k] == (void *)(intptr_t)l->id;
            if (old || xf_auto_has_loop(l->u.loop.body))
                continue;
            ft_vec_push(a->ctx, &done, (void *)(intptr_t)l->id);
            changed = try_loop(a, l) != 0;
        }
    }
    int n = 0;
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++)
        n += ((ast_stmt *)loops.items[i])->u.loop.par == AST_VECTORIZE;
    return n;
}
