/* clone.c - copies of expressions and statements, and substitution of
 * names by expressions (ast.h). */
#include "ast.h"

#include <string.h>

/* A copy of the n expressions es, each through ast_subst_vars. */
static ast_expr **subst_list(ft_ctx *ctx, int n, ast_expr **es, int nn, const char **names,
                             ast_expr **repl)
{
    ast_expr **out = ft_alloc(ctx, sizeof *out * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        out[i] = ast_subst_vars(ctx, es[i], nn, names, repl);
    return out;
}

/* e with integer `+ 0`, `- 0`, `* 1` and literal + - * literal folded
 * (what substituting a literal index leaves, e.g. `m - 1 - 0`). */
static ast_expr *fold_int(ft_ctx *ctx, ast_expr *e)
{
    if (e->kind != AST_BINARY || !ft_dtype_is_int(e->dtype))
        return e;
    ast_expr *a = e->u.bin.a, *b = e->u.bin.b;
    ast_binop op = e->u.bin.op;
    int64_t r;
    if (a->kind == AST_INT && b->kind == AST_INT && a->dtype == b->dtype &&
        ((op == AST_ADD && !__builtin_add_overflow(a->u.ival, b->u.ival, &r)) ||
         (op == AST_SUB && !__builtin_sub_overflow(a->u.ival, b->u.ival, &r)) ||
         (op == AST_MUL && !__builtin_mul_overflow(a->u.ival, b->u.ival, &r))) &&
        (e->dtype == FT_I64 || (int32_t)r == r)) {
        ast_expr *c = ast_int(ctx, e->loc, r);
        c->dtype = e->dtype;
        return c;
    }
    if (b->kind == AST_INT && b->dtype == e->dtype &&
        (((op == AST_ADD || op == AST_SUB) && b->u.ival == 0) || (op == AST_MUL && b->u.ival == 1)))
        return a->dtype == e->dtype ? a : e;
    if (a->kind == AST_INT && a->dtype == e->dtype &&
        ((op == AST_ADD && a->u.ival == 0) || (op == AST_MUL && a->u.ival == 1)))
        return b->dtype == e->dtype ? b : e;
    return e;
}

ast_expr *ast_subst_vars(ft_ctx *ctx, const ast_expr *e, int n, const char **names,
                        ast_expr **repl)
{
    if (!e)
        return NULL;
    ast_expr *c = ft_alloc(ctx, sizeof *c);
    *c = *e;
    switch (e->kind) {
    case AST_VAR:
        for (int k = 0; k < n; k++)
            if (strcmp(e->u.name, names[k]) == 0)
                return ast_clone_expr(ctx, repl[k]);
        break;
    case AST_LOAD:
        c->u.load.idx = subst_list(ctx, e->u.load.n, e->u.load.idx, n, names, repl);
        break;
    case AST_BINARY:
        c->u.bin.a = ast_subst_vars(ctx, e->u.bin.a, n, names, repl);
        c->u.bin.b = ast_subst_vars(ctx, e->u.bin.b, n, names, repl);
        return n ? fold_int(ctx, c) : c;
    case AST_UNARY: c->u.un.a = ast_subst_vars(ctx, e->u.un.a, n, names, repl); break;
    case AST_CALL:
        c->u.call.args = subst_list(ctx, e->u.call.n, e->u.call.args, n, names, repl);
        break;
    case AST_CAST: c->u.cast.a = ast_subst_vars(ctx, e->u.cast.a, n, names, repl); break;
    case AST_IFEXPR:
        c->u.ife.cond = ast_subst_vars(ctx, e->u.ife.cond, n, names, repl);
        c->u.ife.then = ast_subst_vars(ctx, e->u.ife.then, n, names, repl);
        c->u.ife.other = ast_subst_vars(ctx, e->u.ife.other, n, names, repl);
        break;
    default: break;
    }
    return c;
}

ast_expr *ast_clone_expr(ft_ctx *ctx, const ast_expr *e)
{
    return ast_subst_vars(ctx, e, 0, NULL, NULL);
}

static ast_expr **clone_list(ft_ctx *ctx, int n, ast_expr **es)
{
    ast_expr **out = ft_alloc(ctx, sizeof *out * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        out[i] = ast_clone_expr(ctx, es[i]);
    return out;
}

/* A deep copy of a loop's n prefetches (NULL when it has none). */
static ast_prefetch *clone_prefetches(ft_ctx *ctx, int n, const ast_prefetch *pf)
{
    if (n == 0)
        return NULL;
    ast_prefetch *out = ft_alloc(ctx, sizeof *out * (size_t)n);
    for (int i = 0; i < n; i++)
        out[i] = (ast_prefetch){ast_clone_expr(ctx, pf[i].at), ast_clone_expr(ctx, pf[i].span),
                                pf[i].write, pf[i].min_bytes};
    return out;
}

ast_stmt *ast_clone_stmt(ft_ctx *ctx, const ast_stmt *s, int mode)
{
    if (!s)
        return NULL;
    ast_stmt *c = ft_alloc(ctx, sizeof *c);
    *c = *s;
    if (mode != AST_CLONE_SAME)
        c->id = ctx->next_stmt_id++;
    if (mode == AST_CLONE_NEW)
        c->label = NULL;
    switch (s->kind) {
    case AST_SEQ:
        c->u.seq.stmts = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(s->u.seq.n ? s->u.seq.n : 1));
        for (int i = 0; i < s->u.seq.n; i++)
            c->u.seq.stmts[i] = ast_clone_stmt(ctx, s->u.seq.stmts[i], mode);
        break;
    case AST_VARDEF:
        c->u.def.shape = clone_list(ctx, s->u.def.ndim, s->u.def.shape);
        c->u.def.body = ast_clone_stmt(ctx, s->u.def.body, mode);
        break;
    case AST_FOR:
        c->u.loop.begin = ast_clone_expr(ctx, s->u.loop.begin);
        c->u.loop.end = ast_clone_expr(ctx, s->u.loop.end);
        c->u.loop.step = ast_clone_expr(ctx, s->u.loop.step);
        c->u.loop.body = ast_clone_stmt(ctx, s->u.loop.body, mode);
        c->u.loop.pf = clone_prefetches(ctx, s->u.loop.npf, s->u.loop.pf);
        break;
    case AST_IF:
        c->u.branch.cond = ast_clone_expr(ctx, s->u.branch.cond);
        c->u.branch.then = ast_clone_stmt(ctx, s->u.branch.then, mode);
        c->u.branch.other = ast_clone_stmt(ctx, s->u.branch.other, mode);
        break;
    case AST_STORE:
        c->u.store.idx = clone_list(ctx, s->u.store.n, s->u.store.idx);
        c->u.store.value = ast_clone_expr(ctx, s->u.store.value);
        break;
    case AST_REDUCE:
        c->u.red.idx = clone_list(ctx, s->u.red.n, s->u.red.idx);
        c->u.red.value = ast_clone_expr(ctx, s->u.red.value);
        break;
    case AST_ASSERT: c->u.cond = ast_clone_expr(ctx, s->u.cond); break;
    case AST_EVAL: c->u.expr = ast_clone_expr(ctx, s->u.expr); break;
    }
    return c;
}

typedef struct subst_args {
    ft_ctx *ctx;
    int n;
    const char **names;
    ast_expr **repl;
} subst_args;

/* Substitute in one expression slot. */
static void subst_slot(const subst_args *a, ast_expr **slot)
{
    if (*slot)
        *slot = ast_subst_vars(a->ctx, *slot, a->n, a->names, a->repl);
}

static void subst_slots(const subst_args *a, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++)
        subst_slot(a, &es[i]);
}

/* Substitute in s and its children. */
static void subst_rec(const subst_args *a, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            subst_rec(a, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        subst_slots(a, s->u.def.ndim, s->u.def.shape);
        subst_rec(a, s->u.def.body);
        break;
    case AST_FOR:
        subst_slot(a, &s->u.loop.begin);
        subst_slot(a, &s->u.loop.end);
        subst_slot(a, &s->u.loop.step);
        subst_rec(a, s->u.loop.body);
        break;
    case AST_IF:
        subst_slot(a, &s->u.branch.cond);
        subst_rec(a, s->u.branch.then);
        subst_rec(a, s->u.branch.other);
        break;
    case AST_STORE:
        subst_slots(a, s->u.store.n, s->u.store.idx);
        subst_slot(a, &s->u.store.value);
        break;
    case AST_REDUCE:
        subst_slots(a, s->u.red.n, s->u.red.idx);
        subst_slot(a, &s->u.red.value);
        break;
    case AST_ASSERT: subst_slot(a, &s->u.cond); break;
    case AST_EVAL: subst_slot(a, &s->u.expr); break;
    }
}

void ast_subst_stmt(ft_ctx *ctx, ast_stmt *s, int n, const char **names, ast_expr **repl)
{
    subst_args a = {ctx, n, names, repl};
    subst_rec(&a, s);
}

