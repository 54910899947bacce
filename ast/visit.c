/* visit.c - pre-order walks over statements and expressions. */
#include "visit.h"

static void visit_exprs(int n, ast_expr **es, ast_visitor *v)
{
    for (int i = 0; i < n; i++)
        ast_visit_expr(es[i], v);
}

void ast_visit_expr(ast_expr *e, ast_visitor *v)
{
    if (!e)
        return;
    if (v->expr)
        v->expr(v, e);
    switch (e->kind) {
    case AST_LOAD: visit_exprs(e->u.load.n, e->u.load.idx, v); break;
    case AST_BINARY:
        ast_visit_expr(e->u.bin.a, v);
        ast_visit_expr(e->u.bin.b, v);
        break;
    case AST_UNARY: ast_visit_expr(e->u.un.a, v); break;
    case AST_CALL: visit_exprs(e->u.call.n, e->u.call.args, v); break;
    case AST_CAST: ast_visit_expr(e->u.cast.a, v); break;
    case AST_IFEXPR:
        ast_visit_expr(e->u.ife.cond, v);
        ast_visit_expr(e->u.ife.then, v);
        ast_visit_expr(e->u.ife.other, v);
        break;
    default: break;
    }
}

void ast_visit(ast_stmt *s, ast_visitor *v)
{
    if (!s || (v->stmt && !v->stmt(v, s)))
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            ast_visit(s->u.seq.stmts[i], v);
        break;
    case AST_VARDEF:
        visit_exprs(s->u.def.ndim, s->u.def.shape, v);
        ast_visit(s->u.def.body, v);
        break;
    case AST_FOR:
        ast_visit_expr(s->u.loop.begin, v);
        ast_visit_expr(s->u.loop.end, v);
        ast_visit_expr(s->u.loop.step, v);
        ast_visit(s->u.loop.body, v);
        break;
    case AST_IF:
        ast_visit_expr(s->u.branch.cond, v);
        ast_visit(s->u.branch.then, v);
        ast_visit(s->u.branch.other, v);
        break;
    case AST_STORE:
        visit_exprs(s->u.store.n, s->u.store.idx, v);
        ast_visit_expr(s->u.store.value, v);
        break;
    case AST_REDUCE:
        visit_exprs(s->u.red.n, s->u.red.idx, v);
        ast_visit_expr(s->u.red.value, v);
        break;
    case AST_ASSERT: ast_visit_expr(s->u.cond, v); break;
    case AST_EVAL: ast_visit_expr(s->u.expr, v); break;
    }
}
