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

/* Counting statements up to a cap (ast_stmt_count). */
typedef struct count_walk {
    ast_visitor v;
    int64_t n, cap;
} count_walk;

/* Count s unless it is a sequence; stop descending past the cap. */
static int count_stmt_cb(ast_visitor *v, ast_stmt *s)
{
    count_walk *w = (count_walk *)v;
    w->n += s->kind != AST_SEQ;
    return w->n <= w->cap;
}

int64_t ast_stmt_count(const ast_stmt *s, int64_t cap)
{
    count_walk w = {.v.stmt = count_stmt_cb, .cap = cap};
    ast_visit((ast_stmt *)s, &w.v);
    return w.n;
}

/* Sum of ast_expr_size over the n expressions es, up to cap. */
static int64_t exprs_size(int n, ast_expr *const *es, int64_t cap)
{
    int64_t k = 0;
    for (int i = 0; i < n && k <= cap; i++)
        k += ast_expr_size(es[i], cap - k);
    return k;
}

int64_t ast_expr_size(const ast_expr *e, int64_t cap)
{
    int64_t k = 0;
    /* the first operand in the loop, the others by recursion: a left-leaning
     * chain (a + b + c + ...) costs no stack */
    while (e && k <= cap) {
        k++;
        switch (e->kind) {
        case AST_LOAD: return k + exprs_size(e->u.load.n, e->u.load.idx, cap - k);
        case AST_CALL: return k + exprs_size(e->u.call.n, e->u.call.args, cap - k);
        case AST_BINARY: k += ast_expr_size(e->u.bin.b, cap - k); e = e->u.bin.a; break;
        case AST_UNARY: e = e->u.un.a; break;
        case AST_CAST: e = e->u.cast.a; break;
        case AST_IFEXPR:
            k += ast_expr_size(e->u.ife.cond, cap - k);
            k += ast_expr_size(e->u.ife.then, cap - k);
            e = e->u.ife.other;
            break;
        default: return k;
        }
    }
    return k;
}
