/* assert.c - `assert c` and `assert c, "message {}", v...`: decided at
 * compile time where the front end can tell, checked at run time otherwise.
 *
 * A condition that holds whatever the run-time values (two sizes that are
 * the same expression, constants that agree) emits nothing.  One that never
 * holds is a compile-time error, except inside a run-time `if` of its own
 * function (`if x[0] < 0: assert False` fails at run time when taken).  Any
 * other condition becomes an AST assert: FT_ERR_ASSERT at run time, unless
 * a later pass proves it.
 *
 * The standard library states the shape contract of each operator this way
 * (stdlib/README.md).  A contract known to fail is reported at the
 * program's call of the operator, named, with the message's `{}` filled in
 * by the sizes (`matmul: inner dimensions differ: a has 4 columns, b has 3
 * rows`); a note shows the check, and the rest of the call is not lowered,
 * so one mistake makes one error.
 */
#include "lw.h"

#include <string.h>

/* Whether comparison op holds between a and b whose difference a - b is d. */
static int compare(ast_binop op, int64_t d)
{
    switch (op) {
    case AST_LT: return d < 0;
    case AST_LE: return d <= 0;
    case AST_GT: return d > 0;
    case AST_GE: return d >= 0;
    case AST_EQ: return d == 0;
    default: return d != 0;   /* AST_NE */
    }
}

/* `and` / `or` of two decided-or-not operands (lw_decide's values). */
static int decide_logic(ast_binop op, int a, int b)
{
    if (op == AST_AND)
        return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
    return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
}

int lw_decide(const ast_expr *c)
{
    if (c->kind == AST_BOOLC || c->kind == AST_INT)
        return c->u.ival != 0;
    if (c->kind == AST_UNARY && c->u.un.op == AST_NOT) {
        int v = lw_decide(c->u.un.a);
        return v < 0 ? -1 : !v;
    }
    if (c->kind != AST_BINARY)
        return -1;
    ast_binop op = c->u.bin.op;
    const ast_expr *a = c->u.bin.a, *b = c->u.bin.b;
    if (op == AST_AND || op == AST_OR)
        return decide_logic(op, lw_decide(a), lw_decide(b));
    int64_t d;
    if (op < AST_LT || op > AST_NE || !ft_dtype_is_int(a->dtype) ||
        !ft_dtype_is_int(b->dtype) || !lw_int_diff(a, b, &d))
        return -1;
    return compare(op, d);
}

/* The text of a message's value: a number or a size expression as the
 * program would write it, a string's contents, a dtype's or a list's
 * text; NULL (reported) for a tensor. */
static const char *value_text(lw *L, const lw_val *v, ft_loc loc)
{
    switch (v->kind) {
    case V_SCALAR: return ast_expr_text(L->ctx, v->scalar);
    case V_STRING: return v->str;
    case V_DTYPE: return ft_dtype_name(v->dtype);
    case V_NONE: return "None";
    case V_LIST: {
        const char *s = "[";
        for (int i = 0; i < v->n; i++) {
            const char *item = value_text(L, v->items[i], loc);
            if (!item)
                return NULL;
            s = ft_fmt(L->ctx, "%s%s%s", s, i ? ", " : "", item);
        }
        return ft_fmt(L->ctx, "%s]", s);
    }
    case V_TENSOR: break;
    }
    ft_error(L->ctx, loc, "an assert's message shows numbers, sizes, strings and lists, "
             "not tensors");
    return NULL;
}

/* Whether e is a literal number (a failure need not show its value). */
static int is_literal(const ast_expr *e)
{
    return e->kind == AST_INT || e->kind == AST_FLOAT || e->kind == AST_BOOLC ||
           (e->kind == AST_UNARY && e->u.un.op == AST_NEG && is_literal(e->u.un.a)) ||
           (e->kind == AST_CAST && is_literal(e->u.cast.a));
}

/* The stand-in for side k of a run-time check in its message (ast.h,
 * ast_stmt.msg): the run time shows its value; text where it cannot. */
static const char *side_marker(lw *L, int k, const char *text)
{
    return ft_fmt(L->ctx, "\x01%c%s\x02", '0' + k, text);
}

/* The text of value v in a message: for a run-time check (cond not NULL)
 * the marker of the side of cond's comparison that v is, when v is one
 * that is not a literal; else value_text. */
static const char *piece_text(lw *L, const lw_val *v, const ast_expr *cond, ft_loc loc)
{
    const char *text = value_text(L, v, loc);
    if (!text || !cond || v->kind != V_SCALAR || cond->kind != AST_BINARY ||
        cond->u.bin.op < AST_LT || cond->u.bin.op > AST_NE)
        return text;
    const ast_expr *side[2] = {cond->u.bin.a, cond->u.bin.b};
    for (int k = 0; k < 2; k++)
        if (!is_literal(side[k]) && ast_expr_equal(v->scalar, side[k]))
            return side_marker(L, k, text);
    return text;
}

/* The message of assert n (kids: cond, the string, its values): the string
 * with each `{}` replaced by the text of the next value (for a run-time
 * check of cond, a value that is a side of cond's comparison by its
 * marker); NULL after an error (reported). */
static const char *assert_message(lw *L, const pt_node *n, const ast_expr *cond)
{
    lw_val *fmt = lw_expr(L, n->kids[1]);
    if (!fmt)
        return NULL;
    if (fmt->kind != V_STRING) {
        ft_error(L->ctx, n->kids[1]->loc, "an assert's message is a string: "
                 "`assert c, \"text {}\", value`");
        return NULL;
    }
    const char *s = "", *p = fmt->str, *hole;
    int k = 2;
    while ((hole = strstr(p, "{}"))) {
        if (k >= n->nkids) {
            ft_error(L->ctx, n->kids[1]->loc, "this message has more {} than values");
            return NULL;
        }
        lw_val *v = lw_expr(L, n->kids[k]);
        const char *text = v ? piece_text(L, v, cond, n->kids[k]->loc) : NULL;
        if (!text)
            return NULL;
        s = ft_fmt(L->ctx, "%s%.*s%s", s, (int)(hole - p), p, text);
        p = hole + 2;
        k++;
    }
    if (k < n->nkids) {
        ft_error(L->ctx, n->kids[k]->loc, "this message has fewer {} than values");
        return NULL;
    }
    return ft_fmt(L->ctx, "%s%s", s, p);
}

/* The innermost call being inlined that the program makes of a function
 * in another file (a stdlib operator), or NULL. */
static lw_frame *crossing_frame(lw *L)
{
    for (lw_frame *f = L->frame; f; f = f->up)
        if (f->call->at.src == L->prog_src && f->fn_src != L->prog_src)
            return f;
    return NULL;
}

void lw_contract_error(lw *L, ft_loc loc, const char *msg)
{
    lw_frame *x = crossing_frame(L);
    if (!x) {
        ft_error(L->ctx, loc, "%s", msg);
        return;
    }
    ft_error(L->ctx, x->call->at, "%s: %s", x->func, msg);
    ft_note(L->ctx, loc, "checked here");
    for (lw_frame *f = L->frame; f != x->up; f = f->up)
        f->returned = f->reported = 1;
}

/* Report assert n, which fails whatever the run-time values. */
static void report_false(lw *L, const pt_node *n)
{
    const char *msg = n->nkids > 1 ? assert_message(L, n, NULL)
                                   : "this assert fails whatever the run-time values";
    if (msg)
        lw_contract_error(L, n->loc, msg);
}

void lw_lower_assert(lw *L, const pt_node *n)
{
    ast_expr *c = lw_scalar_expr(L, n->kids[0]);
    if (!c)
        return;
    int known = lw_decide(c);
    if (known == 1)
        return;
    int in_rt_if = L->rt_ifs > (L->frame ? L->frame->rt_ifs : 0);
    if (known == 0 && !in_rt_if) {
        report_false(L, n);
        return;
    }
    ast_stmt *s = ast_assert(L->ctx, n->loc, lw_as_bool(L, c));
    L->in_message++;
    s->msg = n->nkids > 1 ? assert_message(L, n, s->u.cond) : NULL;
    L->in_message--;
    if (n->nkids > 1 && !s->msg)
        return;
    lw_emit(L, s);
}

/* msg with "{0}" and "{1}" replaced by sides a and b: by their text, or
 * for a run-time check (run) by their markers. */
static const char *check_message(lw *L, const char *msg, ast_expr *a, ast_expr *b, int run)
{
    const char *s = "", *p = msg, *hole;
    while ((hole = strstr(p, "{")) && (hole[1] == '0' || hole[1] == '1') && hole[2] == '}') {
        int k = hole[1] - '0';
        const char *text = ast_expr_text(L->ctx, k ? b : a);
        if (run && !is_literal(k ? b : a))
            text = side_marker(L, k, text);
        s = ft_fmt(L->ctx, "%s%.*s%s", s, (int)(hole - p), p, text);
        p = hole + 3;
    }
    return ft_fmt(L->ctx, "%s%s", s, p);
}

int lw_check(lw *L, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b, const char *msg)
{
    ast_expr *c = ast_binary(L->ctx, loc, op, ast_clone_expr(L->ctx, a), ast_clone_expr(L->ctx, b));
    int known = lw_decide(c);
    if (known == 1)
        return 1;
    if (known == 0) {
        lw_contract_error(L, loc, check_message(L, msg, a, b, 0));
        return 0;
    }
    ast_stmt *s = ast_assert(L->ctx, loc, c);
    s->msg = check_message(L, msg, a, b, 1);
    lw_emit(L, s);
    return 1;
}

int lw_check_sizes(lw *L, ft_loc loc, const char *op, const char *what, int n,
                   ast_expr **dims)
{
    ast_expr *zero = ast_int(L->ctx, loc, 0);
    for (int k = 0; k < n; k++)
        if (!lw_check(L, loc, AST_GE, dims[k], zero,
                      ft_fmt(L->ctx, "%s: size %d of %s is negative: {0}", op, k, what)))
            return 0;
    return 1;
}
