/* auto_use_lib.c - hand matrix products to a library (BLAS).
 *
 * Requires: f's AST, before the other auto passes (auto.c runs it first:
 * fusion, the vectorizer's reorders and unrolling would reshape a product
 * nest so that it is no longer recognised, and a parallelized loop around
 * it forbids the call).
 * Provides: the outermost loop of each nest that lib_gemm.h recognises as
 * a matrix product marked AST_LIB through the as_lib primitive, when the
 * product pays for the call: m * n * k at least XF_AUTO_LIB_MIN_WORK, or
 * an extent unknown at compile time (a size parameter), since BLAS's
 * blocked, vectorized and threaded kernels win by far on large products and
 * cost little more than a call on small ones.  The later auto passes leave
 * marked nests alone (xf_auto_loops and auto_fuse skip them), and
 * auto_parallelize does not parallelize a loop around one.
 * On the CUDA target the pass does nothing (the loops run as kernels).
 */
#include "auto_util.h"

#include <stdint.h>

#include "../../ast/visit.h"
#include "../lib_gemm.h"
#include "../schedule.h"
#include "../sched_util.h"

#define PASS "auto_use_lib"

/* The smallest constant m * n * k handed to BLAS (64^3). */
enum { XF_AUTO_LIB_MIN_WORK = 64 * 64 * 64 };

/* Every loop of f not under a loop marked AST_LIB, outer first. */
typedef struct lib_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec loops;
} lib_walk;

static int lib_walk_cb(ast_visitor *v, ast_stmt *s)
{
    lib_walk *w = (lib_walk *)v;
    if (s->kind != AST_FOR)
        return 1;
    if (s->u.loop.par == AST_LIB)
        return 0;
    ft_vec_push(w->ctx, &w->loops, s);
    return 1;
}

/* Whether a `+=` of a product is under s (a nest worth explaining in the
 * log when it is not recognised). */
static int has_product_sum(const ast_stmt *s)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (has_product_sum(s->u.seq.stmts[i]))
                return 1;
        return 0;
    case AST_VARDEF: return s->u.def.body && has_product_sum(s->u.def.body);
    case AST_FOR:
        return has_product_sum(s->u.loop.body);
    case AST_REDUCE:
        return s->u.red.op == AST_RED_ADD && s->u.red.value->kind == AST_BINARY &&
               s->u.red.value->u.bin.op == AST_MUL;
    default: return 0;
    }
}

/* Whether the product is large enough for a BLAS call; *work gets m*n*k
 * (-1 when an extent is not constant). */
static int pays(const xf_gemm *g, int64_t *work)
{
    const ast_expr *e[3] = {g->m, g->n, g->k};
    int64_t w = 1;
    for (int i = 0; i < 3; i++) {
        if (e[i]->kind != AST_INT) {
            *work = -1;
            return 1;
        }
        int64_t v = e[i]->u.ival > 0 ? e[i]->u.ival : 0;
        w = v && w > INT64_MAX / v ? INT64_MAX : w * v;
    }
    *work = w;
    return w >= XF_AUTO_LIB_MIN_WORK;
}

/* What trying a loop came to. */
typedef enum lib_try { LIB_NO, LIB_NO_LOGGED, LIB_DONE } lib_try;

/* Try the nest under loop.  LIB_DONE: marked, or recognised and too small
 * (the loops under it are not tried); LIB_NO_LOGGED: not a product, and the
 * log says why (may_log; the loops under it are tried quietly). */
static lib_try try_loop(xf_auto *a, ast_stmt *loop, int may_log)
{
    const char *lname = xf_auto_name(a, loop);
    xf_gemm g;
    const char *why = NULL;
    if (loop->u.loop.par != AST_SERIAL)
        return LIB_NO;
    if (!xf_gemm_match(a->ctx, a->f, loop, &g, &why)) {
        if (!may_log || !has_product_sum(loop))
            return LIB_NO;
        xf_auto_log(a, PASS, lname, "not a matrix product: %s", why);
        return LIB_NO_LOGGED;
    }
    int64_t work;
    if (!pays(&g, &work)) {
        xf_auto_log(a, PASS, lname, "kept as loops: m*n*k = %lld < %d (too small to pay "
                    "for a BLAS call)", (long long)work, XF_AUTO_LIB_MIN_WORK);
        return LIB_DONE;
    }
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_as_lib(a->ctx, a->f, loop, loop->loc);
    const char *refused = xf_auto_quiet_end(a->ctx, &q);
    if (bad) {
        xf_auto_log(a, PASS, lname, "not handed to BLAS: %s", refused);
        return LIB_DONE;
    }
    xf_auto_label(a, loop);
    char size[64];
    if (work < 0)
        snprintf(size, sizeof size, "sizes known at run time");
    else
        snprintf(size, sizeof size, "m*n*k = %lld", (long long)work);
    xf_auto_log(a, PASS, lname, "handed to BLAS: %s = %s%s @ %s%s%s%s (%s%s)", g.c.var,
                g.a.var, g.a.trans ? "^T" : "", g.b.var, g.b.trans ? "^T" : "",
                g.beta ? " + " : "", g.beta ? g.c.var : "", size,
                g.nbatch ? ", in batch loops" : "");
    return LIB_DONE;
}

int xf_auto_use_lib(xf_auto *a)
{
    lib_walk w = {.v.stmt = lib_walk_cb, .ctx = a->ctx};
    ast_visit(a->f->body, &w.v);
    ft_vec done = {0}, logged = {0};
    int n = 0;
    for (int i = 0; i < w.loops.len; i++) {
        ast_stmt *loop = w.loops.items[i];
        ft_vec enc = {0};
        xf_auto_enclosing_loops(a->ctx, a->f, loop, &enc);
        int skip = 0, quiet = 0;
        for (int k = 0; k < enc.len; k++) {
            skip |= ft_vec_has(&done, enc.items[k]);
            quiet |= ft_vec_has(&logged, enc.items[k]);
        }
        if (skip)
            continue;
        lib_try r = try_loop(a, loop, !quiet);
        if (r == LIB_DONE)
            ft_vec_push(a->ctx, &done, loop);
        else if (r == LIB_NO_LOGGED)
            ft_vec_push(a->ctx, &logged, loop);
        n += r == LIB_DONE && loop->u.loop.par == AST_LIB;
    }
    return n;
}
