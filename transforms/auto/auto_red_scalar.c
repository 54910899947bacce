/* auto_red_scalar.c - a reduction into one tensor element, accumulated in a
 * scalar so that its loop vectorizes.
 *
 * Requires: f's AST after auto_fuse; the C target (on CUDA the pass does
 * nothing).
 * Provides: in every serial innermost loop L, each reduction item of L's
 * body `a[idx] op= v` whose element does not change inside L (idx mentions
 * neither L's iterator nor any tensor, and a is accessed in L by this
 * reduction only) rewritten as
 *
 *     var a_r: T                   (0-D, T a's dtype)
 *     a_r = identity(op)
 *     L: ... a_r op= v ...
 *     if trips(L) > 0: a[idx] op= a_r
 *
 * A 0-D accumulator is what xf_vectorize accepts as a reduction (an
 * `omp simd reduction` clause); the element of a 1-D local it replaces is
 * not.  A gradient's mat-vec `d_f[k] += d_t[j] * w[k, j]` over j and
 * Longformer's `d_t[p] += d_y[.., i] * v[.., i]` over i were half of their
 * backward passes, run one scalar multiply-add at a time.
 *
 * Left alone: a reduction whose index reads a tensor (a data-dependent
 * index is checked at run time: moving it out of the loop would change
 * what the loop has done when it reports the error), short constant loops (auto_unroll's;
 * auto_red_cache gives an atomic one a one-element buffer), loops that no
 * loop encloses (auto_parallelize's).
 * The flush is guarded so that an empty loop touches no element, as
 * before; the simplifier drops the guard where the trip count is known
 * positive.
 */
#include "auto_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"

enum { SHORT_TRIPS = 4 };

static const char *const PASS = "auto_red_scalar";

/* Whether reduction item s of innermost loop l updates one element for all
 * of l's iterations (its indices read no tensor and do not mention l's
 * iterator: only outer iterators and sizes) and may be accumulated in a
 * scalar. */
static int candidate(const ast_stmt *l, const ast_stmt *s)
{
    if (s->kind != AST_REDUCE || s->u.red.atomic)
        return 0;
    if (s->u.red.n == 0)        /* 0-D: a local is vectorizable already */
        return 0;
    xf_uses u = xf_count_uses(l->u.loop.body, s->u.red.var);
    if (u.loads || u.stores || u.reduces != 1)
        return 0;
    for (int k = 0; k < s->u.red.n; k++)
        if (xf_expr_uses_var(s->u.red.idx[k], l->u.loop.iter) ||
            xf_expr_has_load(s->u.red.idx[k]))
            return 0;
    return 1;
}

/* Accumulate reduction item s of loop l (a candidate) in a new 0-D local:
 * l, in place, becomes that local's VarDef (l's loop moves inside it with
 * its ID and label). */
static void to_scalar(xf_auto *a, ast_stmt *l, ast_stmt *s, ft_dtype dt, ast_expr *trips)
{
    ft_ctx *ctx = a->ctx;
    ft_loc loc = s->loc;
    const char *acc = xf_free_name(ctx, a->f, ft_fmt(ctx, "%s_r", s->u.red.var));
    ast_stmt *flush = ast_reduce(ctx, loc, s->u.red.op, s->u.red.var, s->u.red.n, s->u.red.idx,
                                 ast_load(ctx, loc, acc, dt, 0, NULL));
    s->u.red.var = acc;
    s->u.red.n = 0;
    s->u.red.idx = NULL;
    ast_stmt *loop = ft_alloc(ctx, sizeof *loop);
    *loop = *l;
    ast_expr *pos = ast_binary(ctx, loc, AST_GT, trips, ast_int(ctx, loc, 0));
    ast_expr *start = xf_red_identity(ctx, loc, s->u.red.op, dt);
    ast_stmt *items[3] = {ast_store(ctx, loc, acc, 0, NULL, start), loop,
                          ast_if(ctx, loc, pos, flush, NULL)};
    ast_stmt *def = ast_vardef(ctx, loc, acc, dt, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                               ast_seq(ctx, loc, 3, items));
    *l = *def;
}

/* Rewrite the candidates of innermost loop l (see the file comment); the
 * number rewritten. */
static int try_loop(xf_auto *a, ast_stmt *l)
{
    int64_t n;
    ft_vec enc = {0};
    if (l->u.loop.par != AST_SERIAL || xf_auto_has_loop(l->u.loop.body) ||
        (xf_auto_const_trips(a->ctx, l, &n) && n <= SHORT_TRIPS))
        return 0;
    xf_auto_enclosing_loops(a->ctx, a->f, l, &enc);
    if (enc.len == 0)           /* auto_parallelize's, not auto_vectorize's */
        return 0;
    ast_expr *trips = xf_trip_count(a->ctx, l);
    if (!trips)
        return 0;
    ast_stmt **body;
    int nitems = xf_body_items(&l->u.loop.body, &body);
    /* a copy: a one-statement body's list is the loop's own field */
    ast_stmt **items = ft_alloc(a->ctx, sizeof(ast_stmt *) * (size_t)(nitems + 1));
    if (nitems)     /* an empty body's list may be NULL: no memcpy from it */
        memcpy(items, body, sizeof(ast_stmt *) * (size_t)nitems);
    const char *lname = xf_auto_name(a, l);
    ast_stmt *cur = l;                  /* the loop, moved inwards by each rewrite */
    int done = 0;
    for (int i = 0; i < nitems; i++) {
        ast_stmt *s = items[i];
        ft_dtype dt;
        if (!candidate(cur, s) || !xf_find_decl(a->ctx, a->f, cur, s->u.red.var, &dt, NULL, NULL))
            continue;
        const char *var = s->u.red.var;
        to_scalar(a, cur, s, dt, ast_clone_expr(a->ctx, trips));
        cur = cur->u.def.body->u.seq.stmts[1];
        xf_auto_log(a, PASS, lname, "reduction into an element of %s accumulated in the "
                    "scalar %s", var, s->u.red.var);
        done++;
    }
    return done;
}

/* The pass (see the file comment); the number of reductions rewritten. */
int xf_auto_red_scalar(xf_auto *a)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    int n = 0;
    for (int i = 0; i < loops.len; i++)
        n += try_loop(a, loops.items[i]);
    if (n)
        xf_sched_finish(a->ctx, a->f);
    return n;
}
