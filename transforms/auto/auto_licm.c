/* auto_licm.c - a costly float expression that a loop's body computes at
 * every iteration, though it does not depend on the loop, computed once
 * before the loop into a 0-D local.
 *
 * Requires: f's AST after auto_fuse_late (the loops as they will run).
 * Provides: for every loop L (not a BLAS call, its step a constant), each
 * maximal float subexpression e of the value of a
 * Store or Reduce directly in L's body (not in a branch or an inner loop
 * of it) that
 *   - calls a builtin other than abs, floor, ceil and square (erf, exp,
 *     tanh, sqrt, ...: tens of cycles each, and an opaque call the
 *     vectorizer cannot always widen),
 *   - runs whenever its statement runs (not in a branch of an
 *     if-expression nor right of `and` / `or`),
 *   - uses neither L's iterator nor a local declared inside L, reads no
 *     tensor that L's body writes, and has no checked access (an index
 *     read from data, checked at run time where it stands),
 * becomes
 *
 *     var t_h: T           (0-D, e's dtype; t_h1, t_h2, ... for more)
 *     t_h_licm: t_h = e    (under `if <L's trip count> > 0` unless it is a
 *                           constant, at least 1)
 *     L                    (e read as t_h)
 *
 * Why: an element-wise function of an operand, fused by the front end into
 * the operator that reads it, is computed at every read: `gelu(x @ w1) @ w2`
 * evaluated erf 128 times per element of the hidden layer inside the
 * product's column loop (BERT-tiny's feed-forward block ran 10x slower
 * than PyTorch).  The guard keeps e from running where it did not (an
 * element it reads may not exist when L is empty): L runs, and so does
 * its statement, at least once.
 * Each loop is taken once, outer loops first; an expression hoisted out of
 * an inner loop is then a candidate of the loop around it.
 */
#include "auto_util.h"

#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_licm";

/* At most this many expressions per function. */
enum { MAX_HOISTED = 256 };

/* Whether e calls a costly builtin. */
static int costly(const ast_expr *e)
{
    switch (e->kind) {
    case AST_CALL: {
        ast_builtin f = e->u.call.f;
        if (f != AST_ABS && f != AST_FLOOR && f != AST_CEIL && f != AST_SQUARE)
            return 1;
        for (int k = 0; k < e->u.call.n; k++)
            if (costly(e->u.call.args[k]))
                return 1;
        return 0;
    }
    case AST_BINARY: return costly(e->u.bin.a) || costly(e->u.bin.b);
    case AST_UNARY: return costly(e->u.un.a);
    case AST_CAST: return costly(e->u.cast.a);
    case AST_IFEXPR:
        return costly(e->u.ife.cond) || costly(e->u.ife.then) || costly(e->u.ife.other);
    default: return 0;
    }
}

/* A loop and what its body binds and writes. */
typedef struct licm_loop {
    ft_ctx *ctx;
    const ast_stmt *loop;
    ft_vec locals;          /* names declared inside the loop */
    ft_vec written;         /* tensors its body writes */
    ft_vec found;           /* ast_expr **: the slots to hoist */
} licm_loop;

/* Whether e may run before the loop (see the file comment). */
static int invariant(const licm_loop *l, const ast_expr *e)
{
    if (xf_expr_uses_var(e, l->loop->u.loop.iter) || xf_expr_checked(e))
        return 0;
    for (int i = 0; i < l->locals.len; i++)
        if (xf_expr_uses_var(e, l->locals.items[i]) || xf_expr_reads(e, l->locals.items[i]))
            return 0;
    for (int i = 0; i < l->written.len; i++)
        if (xf_expr_reads(e, l->written.items[i]))
            return 0;
    return 1;
}

/* The maximal hoistable expressions at *slot and below into l->found:
 * unguarded (guarded: under a branch of an if-expression or right of
 * `and` / `or`), costly, invariant floats that are not a bare load. */
static void find_slots(licm_loop *l, ast_expr **slot, int guarded)
{
    ast_expr *e = *slot;
    if (!guarded && ft_dtype_is_float(e->dtype) && e->kind != AST_LOAD && costly(e) &&
        invariant(l, e)) {
        if (l->found.len < MAX_HOISTED)
            ft_vec_push(l->ctx, &l->found, slot);
        return;
    }
    switch (e->kind) {
    case AST_BINARY:
        find_slots(l, &e->u.bin.a, guarded);
        find_slots(l, &e->u.bin.b, guarded || e->u.bin.op == AST_AND || e->u.bin.op == AST_OR);
        break;
    case AST_UNARY: find_slots(l, &e->u.un.a, guarded); break;
    case AST_CAST: find_slots(l, &e->u.cast.a, guarded); break;
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            find_slots(l, &e->u.call.args[k], guarded);
        break;
    case AST_IFEXPR:
        find_slots(l, &e->u.ife.cond, guarded);
        find_slots(l, &e->u.ife.then, 1);
        find_slots(l, &e->u.ife.other, 1);
        break;
    default: break;
    }
}

/* The slots to hoist out of loop: in the values of the Stores and
 * Reduces directly in its body (through sequences and locals). */
static void find_in(licm_loop *l, ast_stmt *s)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            find_in(l, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: find_in(l, s->u.def.body); break;
    case AST_STORE: find_slots(l, &s->u.store.value, 0); break;
    case AST_REDUCE: find_slots(l, &s->u.red.value, 0); break;
    default: break;
    }
}

/* The locals declared under s into out. */
static void locals_in(ft_ctx *ctx, const ast_stmt *s, ft_vec *out)
{
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, (ast_stmt *)s, &defs);
    for (int i = 0; i < defs.len; i++)
        ft_vec_push(ctx, out, (void *)((ast_stmt *)defs.items[i])->u.def.name);
}

/* Hoist the slots found for loop (in place: the loop's statement becomes
 * the locals' VarDefs around their stores and the loop); guard: the
 * condition that the loop runs (NULL: it always does), around each
 * store. */
static int hoist(xf_auto *a, ast_stmt *loop, licm_loop *l, const ast_expr *guard)
{
    ft_ctx *ctx = a->ctx;
    const char *lname = xf_auto_name(a, loop);
    ast_stmt *moved = ft_alloc(ctx, sizeof *moved);
    *moved = *loop;
    ast_stmt *body = moved;
    for (int i = l->found.len - 1; i >= 0; i--) {
        ast_expr **slot = l->found.items[i], *e = *slot;
        /* distinct bases: the locals are declared only below, one in
         * another, so xf_free_name cannot tell them apart */
        const char *name = xf_free_name(ctx, a->f, i ? ft_fmt(ctx, "t_h%d", i) : "t_h");
        xf_auto_log(a, PASS, lname, "`%s` computed once before the loop, in %s",
                    ast_expr_text(ctx, e), name);
        *slot = ast_load(ctx, e->loc, name, e->dtype, 0, NULL);
        ast_stmt *seq[2] = {ast_store(ctx, loop->loc, name, 0, NULL, e), body};
        seq[0]->label = ft_fmt(ctx, "%s_licm", name);   /* prop_temps keeps it */
        if (guard)
            seq[0] = ast_if(ctx, loop->loc, ast_clone_expr(ctx, guard), seq[0], NULL);
        body = ast_vardef(ctx, loop->loc, name, e->dtype, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                          ast_seq(ctx, loop->loc, 2, seq));
    }
    *loop = *body;
    return l->found.len;
}

int xf_auto_licm(xf_auto *a)
{
    ft_vec loops = {0}, done = {0};
    int n = 0;
    for (int round = 0; round < 64; round++) {
        loops.len = 0;
        xf_auto_loops(a->ctx, a->f, &loops);
        ast_stmt *pick = NULL;
        for (int i = 0; i < loops.len && !pick; i++) {
            ast_stmt *s = loops.items[i];
            if (!ft_vec_has(&done, (void *)(intptr_t)s->id) && s->u.loop.par != AST_LIB &&
                xf_trip_count(a->ctx, s))
                pick = s;
            else if (!ft_vec_has(&done, (void *)(intptr_t)s->id))
                ft_vec_push(a->ctx, &done, (void *)(intptr_t)s->id);
        }
        if (!pick)
            break;
        ft_vec_push(a->ctx, &done, (void *)(intptr_t)pick->id);
        int64_t trips;
        ast_expr *guard = NULL;
        if (!xf_auto_const_trips(a->ctx, pick, &trips))
            guard = ast_binary(a->ctx, pick->loc, AST_GT, xf_trip_count(a->ctx, pick),
                               ast_int(a->ctx, pick->loc, 0));
        else if (trips < 1)
            continue;
        licm_loop l = {.ctx = a->ctx, .loop = pick};
        locals_in(a->ctx, pick->u.loop.body, &l.locals);
        xf_stmt_written(a->ctx, pick->u.loop.body, &l.written);
        find_in(&l, pick->u.loop.body);
        if (l.found.len)
            n += hoist(a, pick, &l, guard);
    }
    if (n)
        xf_sched_finish(a->ctx, a->f);
    return n;
}
