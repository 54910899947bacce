/* xf_checks.c - index checks that do not change inside a loop
 * (xf_checks.h). */
#include "xf_checks.h"

#include "visit.h"
#include "xf_util.h"

/* The names an expression reads: tensors it loads and iterators / sizes. */
typedef struct names_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *names;
} names_walk;

static void names_expr(ast_visitor *v, ast_expr *e)
{
    names_walk *w = (names_walk *)v;
    const char *n = e->kind == AST_VAR ? e->u.name : e->kind == AST_LOAD ? e->u.load.var : NULL;
    if (n && !xf_has_name(w->names, n))
        ft_vec_push(w->ctx, w->names, (void *)n);
}

int xf_expr_kept_by(ft_ctx *ctx, const ast_expr *e, const ast_stmt *s)
{
    ft_vec names = {0};
    names_walk w = {.v.expr = names_expr, .ctx = ctx, .names = &names};
    ast_visit_expr((ast_expr *)e, &w.v);
    for (int i = 0; i < names.len; i++) {
        const char *n = names.items[i];
        if (xf_writes(s, n) || xf_defines(s, n) || xf_binds_iter(s, n))
            return 0;
    }
    return 1;
}

int xf_expr_invariant(ft_ctx *ctx, const ast_expr *e, const ast_stmt *loop)
{
    return !xf_expr_uses_var(e, loop->u.loop.iter) && xf_expr_kept_by(ctx, e, loop->u.loop.body);
}

int xf_check_hoistable(ft_ctx *ctx, const ast_stmt *loop, const char *var,
                       const ast_expr *idx)
{
    return !xf_defines(loop->u.loop.body, var) && xf_expr_invariant(ctx, idx, loop);
}

static int expr_ok(ft_ctx *ctx, const ast_stmt *loop, const ast_expr *e, int guarded);

/* The checks of an access var[idx]: those inside its indices, then its own
 * data-dependent ones (the order of cg_c.c's cg_checks_access). */
static int access_ok(ft_ctx *ctx, const ast_stmt *loop, const char *var, int n,
                     ast_expr *const *idx, int guarded)
{
    for (int k = 0; k < n; k++) {
        if (!expr_ok(ctx, loop, idx[k], guarded))
            return 0;
        if (xf_expr_has_load(idx[k]) &&
            (guarded || !xf_check_hoistable(ctx, loop, var, idx[k])))
            return 0;
    }
    return 1;
}

/* Whether every check in e is hoistable (guarded: e is evaluated only under
 * a condition, where no check may be). */
static int expr_ok(ft_ctx *ctx, const ast_stmt *loop, const ast_expr *e, int guarded)
{
    switch (e->kind) {
    case AST_LOAD:
        return access_ok(ctx, loop, e->u.load.var, e->u.load.n, e->u.load.idx, guarded);
    case AST_BINARY: {
        int cond = e->u.bin.op == AST_AND || e->u.bin.op == AST_OR;
        return expr_ok(ctx, loop, e->u.bin.a, guarded) &&
               expr_ok(ctx, loop, e->u.bin.b, guarded || cond);
    }
    case AST_UNARY: return expr_ok(ctx, loop, e->u.un.a, guarded);
    case AST_CAST: return expr_ok(ctx, loop, e->u.cast.a, guarded);
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (!expr_ok(ctx, loop, e->u.call.args[i], guarded))
                return 0;
        return 1;
    case AST_IFEXPR:
        return expr_ok(ctx, loop, e->u.ife.cond, guarded) &&
               expr_ok(ctx, loop, e->u.ife.then, 1) && expr_ok(ctx, loop, e->u.ife.other, 1);
    default:
        return 1;
    }
}

/* Whether the checks of statement s (in loop's body) are all hoistable. */
static int stmt_ok(ft_ctx *ctx, const ast_stmt *loop, const ast_stmt *s)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (!stmt_ok(ctx, loop, s->u.seq.stmts[i]))
                return 0;
        return 1;
    case AST_VARDEF:
        for (int k = 0; k < s->u.def.ndim; k++)
            if (xf_expr_checked(s->u.def.shape[k]))
                return 0;
        return !s->u.def.body || stmt_ok(ctx, loop, s->u.def.body);
    case AST_STORE:
        return access_ok(ctx, loop, s->u.store.var, s->u.store.n, s->u.store.idx, 0) &&
               expr_ok(ctx, loop, s->u.store.value, 0);
    case AST_REDUCE:
        return access_ok(ctx, loop, s->u.red.var, s->u.red.n, s->u.red.idx, 0) &&
               expr_ok(ctx, loop, s->u.red.value, 0);
    default:
        return !xf_stmt_checked(s);
    }
}

int xf_loop_checks_hoistable(ft_ctx *ctx, const ast_stmt *loop)
{
    const ast_expr *st = loop->u.loop.step;
    if (st && (st->kind != AST_INT || st->u.ival == 0))
        return 0;
    return stmt_ok(ctx, loop, loop->u.loop.body);
}
