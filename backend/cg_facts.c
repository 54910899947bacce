/* cg_facts.c - invariant indices and the ranges an `if` guarantees, for
 * the C backend's bounds checks; invariant index loads of vectorized loops
 * (cg_facts.h). */
#include "cg_facts.h"

#include <string.h>

#include "../transforms/xf_util.h"


/* Whether e is the integer constant v. */
static int is_int(const ast_expr *e, int64_t v)
{
    return e->kind == AST_INT && e->u.ival == v;
}

/* Record one conjunct c: a lower bound 0 <= x (lo) or an upper bound
 * x < d (xs_hi, ds_hi). */
static void conjunct(ft_ctx *ctx, const ast_expr *c, ft_vec *lo, ft_vec *xs_hi, ft_vec *ds_hi)
{
    if (c->kind != AST_BINARY)
        return;
    const ast_expr *a = c->u.bin.a, *b = c->u.bin.b;
    if (ft_dtype_is_float(a->dtype) || ft_dtype_is_float(b->dtype))
        return;
    switch (c->u.bin.op) {
    case AST_AND:
        conjunct(ctx, a, lo, xs_hi, ds_hi);
        conjunct(ctx, b, lo, xs_hi, ds_hi);
        return;
    case AST_GE: /* a >= 0 */
        if (is_int(b, 0))
            ft_vec_push(ctx, lo, (void *)a);
        return;
    case AST_GT: /* a > -1, d > x */
        if (is_int(b, -1))
            ft_vec_push(ctx, lo, (void *)a);
        ft_vec_push(ctx, xs_hi, (void *)b);
        ft_vec_push(ctx, ds_hi, (void *)a);
        return;
    case AST_LE: /* 0 <= b */
        if (is_int(a, 0))
            ft_vec_push(ctx, lo, (void *)b);
        return;
    case AST_LT: /* -1 < b, a < d */
        if (is_int(a, -1))
            ft_vec_push(ctx, lo, (void *)b);
        ft_vec_push(ctx, xs_hi, (void *)a);
        ft_vec_push(ctx, ds_hi, (void *)b);
        return;
    default:
        return;
    }
}

/* Whether two expressions are the same text. */
static int same_expr(ft_ctx *ctx, const ast_expr *a, const ast_expr *b)
{
    return strcmp(ast_expr_text(ctx, a), ast_expr_text(ctx, b)) == 0;
}

void cg_range_facts(ft_ctx *ctx, const ast_expr *cond, ft_vec *xs, ft_vec *ds)
{
    ft_vec lo = {0}, xs_hi = {0}, ds_hi = {0};
    if (cond->kind == AST_BINARY && cond->u.bin.op == AST_AND)
        conjunct(ctx, cond, &lo, &xs_hi, &ds_hi);
    for (int i = 0; i < xs_hi.len; i++)
        for (int k = 0; k < lo.len; k++)
            if (same_expr(ctx, xs_hi.items[i], lo.items[k])) {
                ft_vec_push(ctx, xs, xs_hi.items[i]);
                ft_vec_push(ctx, ds, ds_hi.items[i]);
                break;
            }
}

/* What cg_invariant_index_loads gathers for one loop. */
typedef struct ix_state {
    ft_ctx *ctx;
    const ast_stmt *loop;
    ft_vec *loads;
} ix_state;

static void ix_expr(ix_state *st, const ast_expr *e);

/* Add the hoistable loads of index expression e: e itself when it is one,
 * else those in the indices of the loads inside it. */
static void ix_index(ix_state *st, const ast_expr *e)
{
    if (e->kind != AST_LOAD || e->u.load.n == 0) {
        ix_expr(st, e);
        return;
    }
    for (int k = 0; k < e->u.load.n; k++)
        if (xf_expr_has_load(e->u.load.idx[k])) {
            ix_expr(st, e);
            return;
        }
    if (!xf_expr_invariant_in(st->ctx, st->loop, e))
        return;
    for (int i = 0; i < st->loads->len; i++)
        if (ast_expr_equal(st->loads->items[i], e))
            return;
    ft_vec_push(st->ctx, st->loads, (void *)e);
}

/* Add the hoistable loads in the indices of the loads inside e. */
static void ix_expr(ix_state *st, const ast_expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case AST_LOAD:
        for (int k = 0; k < e->u.load.n; k++)
            ix_index(st, e->u.load.idx[k]);
        break;
    case AST_BINARY: ix_expr(st, e->u.bin.a); ix_expr(st, e->u.bin.b); break;
    case AST_UNARY: ix_expr(st, e->u.un.a); break;
    case AST_CAST: ix_expr(st, e->u.cast.a); break;
    case AST_IFEXPR:
        ix_expr(st, e->u.ife.cond);
        ix_expr(st, e->u.ife.then);
        ix_expr(st, e->u.ife.other);
        break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            ix_expr(st, e->u.call.args[i]);
        break;
    default: break;
    }
}

/* Add the hoistable loads of the accesses under s. */
static void ix_stmt(ix_state *st, const ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            ix_stmt(st, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: ix_stmt(st, s->u.def.body); break;
    case AST_FOR: ix_stmt(st, s->u.loop.body); break;
    case AST_IF:
        ix_expr(st, s->u.branch.cond);
        ix_stmt(st, s->u.branch.then);
        ix_stmt(st, s->u.branch.other);
        break;
    case AST_STORE:
        for (int k = 0; k < s->u.store.n; k++)
            ix_index(st, s->u.store.idx[k]);
        ix_expr(st, s->u.store.value);
        break;
    case AST_REDUCE:
        for (int k = 0; k < s->u.red.n; k++)
            ix_index(st, s->u.red.idx[k]);
        ix_expr(st, s->u.red.value);
        break;
    default: break;
    }
}

void cg_invariant_index_loads(ft_ctx *ctx, const ast_stmt *loop, ft_vec *out)
{
    ix_state st = {ctx, loop, out};
    ix_stmt(&st, loop->u.loop.body);
}
