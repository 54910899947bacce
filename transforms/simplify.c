/* simplify.c - the simplifier pass (simplify.h).
 *
 * Requires: a lowered program.
 * Provides: folded constants, normalised linear integer expressions,
 * decided comparisons, `//`, `%`, `min`, `max`, and no `if` or assert
 * whose condition is known.  Expressions are rebuilt, never changed in
 * place (the lowering may share them); statements are replaced in place.
 */
#include "simplify.h"

#include <string.h>

/* ------------------------------------------------------ constants */

/* Whether v fits in dtype t (i32 or i64). */
static int fits(ft_dtype t, int64_t v)
{
    return t == FT_I64 || (v >= INT32_MIN && v <= INT32_MAX);
}

/* a op b for integer constants; 0 when not folded (overflow, x // -1 of
 * the smallest value, an operator that is not integer arithmetic). */
static int fold_int(ast_binop op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case AST_ADD: return !__builtin_add_overflow(a, b, r);
    case AST_SUB: return !__builtin_sub_overflow(a, b, r);
    case AST_MUL: return !__builtin_mul_overflow(a, b, r);
    case AST_FLOORDIV:
    case AST_MOD:
        if (b == -1 && a == INT64_MIN)
            return 0;
        *r = b == 0 ? 0 : op == AST_FLOORDIV ? ast_floordiv(a, b) : ast_mod(a, b);
        return 1;
    case AST_MIN: *r = a < b ? a : b; return 1;
    case AST_MAX: *r = a > b ? a : b; return 1;
    case AST_LT: *r = a < b; return 1;
    case AST_LE: *r = a <= b; return 1;
    case AST_GT: *r = a > b; return 1;
    case AST_GE: *r = a >= b; return 1;
    case AST_EQ: *r = a == b; return 1;
    case AST_NE: *r = a != b; return 1;
    default: return 0;
    }
}

/* An integer literal of dtype t at e's location. */
static ast_expr *int_like(ft_ctx *ctx, const ast_expr *e, int64_t v)
{
    ast_expr *n = ast_int(ctx, e->loc, v);
    n->dtype = e->dtype;
    return n;
}

/* ------------------------------------------------------ linear forms */

/* The number of leaves (variables, literals, other atoms) of a linear
 * integer expression tree. */
static int leaves(const ast_expr *e)
{
    if (e->kind == AST_BINARY && (e->u.bin.op == AST_ADD || e->u.bin.op == AST_SUB ||
                                  e->u.bin.op == AST_MUL))
        return leaves(e->u.bin.a) + leaves(e->u.bin.b);
    if (e->kind == AST_UNARY && e->u.un.op == AST_NEG)
        return leaves(e->u.un.a);
    return 1;
}

/* k * atom as an expression (k != 0, the sign handled by the caller). */
static ast_expr *term(ft_ctx *ctx, const ast_expr *at, int64_t k, ft_loc loc)
{
    ast_expr *a = (ast_expr *)at;
    return k == 1 ? a : ast_binary(ctx, loc, AST_MUL, ast_int(ctx, loc, k), a);
}

/* The expression of a linear form, terms in their order of appearance. */
static ast_expr *lin_expr(ft_ctx *ctx, const an_lin *l, const ast_expr *like)
{
    ast_expr *e = NULL;
    ft_loc loc = like->loc;
    for (int i = 0; i < l->n; i++) {
        int64_t k = l->coef[i];
        if (k == INT64_MIN)
            return NULL;
        ast_expr *t = term(ctx, l->atom[i], k < 0 ? -k : k, loc);
        if (!e)
            e = k < 0 ? ast_unary(ctx, loc, AST_NEG, t) : t;
        else
            e = ast_binary(ctx, loc, k < 0 ? AST_SUB : AST_ADD, e, t);
    }
    if (!e)
        return int_like(ctx, like, l->c);
    if (l->c > 0)
        e = ast_binary(ctx, loc, AST_ADD, e, ast_int(ctx, loc, l->c));
    else if (l->c < 0 && l->c != INT64_MIN)
        e = ast_binary(ctx, loc, AST_SUB, e, ast_int(ctx, loc, -l->c));
    else if (l->c < 0)
        return NULL;
    return e;
}

/* Whether every atom of l is an i64 expression. */
static int atoms_i64(const an_lin *l)
{
    for (int i = 0; i < l->n; i++)
        if (l->atom[i]->dtype != FT_I64)
            return 0;
    return 1;
}

/* An i64 sum, difference, product or negation with fewer terms once like
 * terms are merged; NULL when nothing merges. */
static ast_expr *normalise(ft_ctx *ctx, const ast_expr *e)
{
    an_lin l;
    if (e->dtype != FT_I64 || !an_lin_of(ctx, e, &l) || !atoms_i64(&l))
        return NULL;
    if (l.n == 1 && l.atom[0] == e)
        return NULL;
    if (l.n + (l.c != 0) >= leaves(e))
        return NULL;
    return lin_expr(ctx, &l, e);
}

/* ------------------------------------------------------ expressions */

/* A copy of binary e with new operands. */
static ast_expr *with_operands(ft_ctx *ctx, const ast_expr *e, ast_expr *a, ast_expr *b)
{
    if (a == e->u.bin.a && b == e->u.bin.b)
        return (ast_expr *)e;
    ast_expr *n = ft_alloc(ctx, sizeof *n);
    *n = *e;
    n->u.bin.a = a;
    n->u.bin.b = b;
    return n;
}

/* A comparison decided under b: a bool literal, or e. */
static ast_expr *decide(ft_ctx *ctx, an_bounds *b, ast_expr *e)
{
    if (an_bounds_prove(b, e))
        return ast_boolc(ctx, e->loc, 1);
    ast_expr *no = ast_unary(ctx, e->loc, AST_NOT, e);
    if (an_bounds_prove(b, no))
        return ast_boolc(ctx, e->loc, 0);
    return e;
}

static ast_expr *simplify_binary(ft_ctx *ctx, an_bounds *b, ast_expr *e);

/* (c*a + r) // c as a + r // c and (c*a + r) % c as r % c (for c > 0 and
 * any integer r: floor division), where c*a gathers every term of the
 * linear form whose coefficient c divides; (x // c1) // c2 as
 * x // (c1*c2) and (x % c1) % c2 as x % c2 when c2 divides c1.  They take
 * a blocked index (B*o + i) // B, the layout pass's, back to o.  NULL
 * when none applies. */
static ast_expr *divmod_terms(ft_ctx *ctx, an_bounds *b, ast_expr *e, int64_t c)
{
    ast_expr *x = e->u.bin.a;
    int mod = e->u.bin.op == AST_MOD;
    if (x->kind == AST_BINARY && x->u.bin.op == e->u.bin.op && x->u.bin.b->kind == AST_INT &&
        x->u.bin.b->u.ival > 0 &&
        (mod ? x->u.bin.b->u.ival % c == 0 : x->u.bin.b->u.ival <= INT64_MAX / c))
        return simplify_binary(ctx, b, ast_binary(ctx, e->loc, e->u.bin.op, x->u.bin.a,
                               ast_int(ctx, e->loc, mod ? c : c * x->u.bin.b->u.ival)));
    an_lin l, q = {0}, r = {0};
    if (e->dtype != FT_I64 || !an_lin_of(ctx, x, &l) || !atoms_i64(&l))
        return NULL;
    q.coef = ft_alloc(ctx, sizeof *q.coef * (size_t)(l.n + 1));
    q.atom = ft_alloc(ctx, sizeof *q.atom * (size_t)(l.n + 1));
    r.coef = ft_alloc(ctx, sizeof *r.coef * (size_t)(l.n + 1));
    r.atom = ft_alloc(ctx, sizeof *r.atom * (size_t)(l.n + 1));
    for (int i = 0; i < l.n; i++) {
        an_lin *to = l.coef[i] % c == 0 ? &q : &r;
        to->coef[to->n] = l.coef[i] % c == 0 ? l.coef[i] / c : l.coef[i];
        to->atom[to->n++] = l.atom[i];
    }
    q.c = ast_floordiv(l.c, c);
    r.c = l.c - q.c * c;
    if (q.n == 0)
        return NULL;
    ast_expr *re = lin_expr(ctx, &r, x), *qe = lin_expr(ctx, &q, x);
    if (!re || !qe)
        return NULL;
    ast_expr *rest = simplify_binary(ctx, b, ast_binary(ctx, e->loc, e->u.bin.op, re,
                                                        ast_int(ctx, e->loc, c)));
    if (mod)
        return rest;
    return simplify_binary(ctx, b, ast_binary(ctx, e->loc, AST_ADD, qe, rest));
}

/* x // c and x % c when x stays within one multiple of c, or by
 * divmod_terms. */
static ast_expr *divmod(ft_ctx *ctx, an_bounds *b, ast_expr *e)
{
    const ast_expr *y = e->u.bin.b;
    if (y->kind != AST_INT || y->u.ival <= 0)
        return e;
    int64_t c = y->u.ival;
    ast_expr *t = divmod_terms(ctx, b, e, c);
    if (t)
        return t;
    an_range r = an_range_of(b, e->u.bin.a);
    if (!r.has_lo || !r.has_hi || ast_floordiv(r.lo, c) != ast_floordiv(r.hi, c))
        return e;
    int64_t k = ast_floordiv(r.lo, c);
    if (e->u.bin.op == AST_FLOORDIV)
        return int_like(ctx, e, k);
    if (k == 0)
        return e->u.bin.a;
    if (e->dtype != FT_I64)
        return e;
    return ast_binary(ctx, e->loc, AST_SUB, e->u.bin.a, ast_int(ctx, e->loc, k * c));
}

/* Whether atom a is `x // c` (op AST_FLOORDIV) or `x % c` (AST_MOD) for
 * a literal c > 0; its c. */
static int64_t divmod_atom(const ast_expr *a, ast_binop op)
{
    return a->kind == AST_BINARY && a->u.bin.op == op && a->u.bin.b->kind == AST_INT &&
           a->u.bin.b->u.ival > 0 ? a->u.bin.b->u.ival : 0;
}

/* A sum holding m*c*(x // c) + m*(x % c) with that sum as m*x (floor
 * division: x == c*(x // c) + x % c for every integer x), for the terms
 * that merging two loops leaves, `8 * (m // 8) + m % 8`; NULL when there
 * is no such pair. */
static ast_expr *recombine(ft_ctx *ctx, const ast_expr *e)
{
    an_lin l;
    if (e->dtype != FT_I64 || !an_lin_of(ctx, e, &l) || !atoms_i64(&l))
        return NULL;
    for (int i = 0; i < l.n; i++) {
        int64_t c = divmod_atom(l.atom[i], AST_FLOORDIV);
        for (int j = 0; c && j < l.n; j++) {
            const ast_expr *q = l.atom[i], *r = l.atom[j];
            if (divmod_atom(r, AST_MOD) != c || !ast_expr_equal(q->u.bin.a, r->u.bin.a) ||
                l.coef[j] > INT64_MAX / c || l.coef[j] < INT64_MIN / c ||
                l.coef[i] != c * l.coef[j])
                continue;
            ast_expr *x = ast_binary(ctx, e->loc, AST_MUL, ast_int(ctx, e->loc, l.coef[j]),
                                     r->u.bin.a);
            l.atom[i] = x;      /* the pair's place: m * x, then the rest */
            l.coef[i] = 1;
            l.atom[j] = l.atom[--l.n];
            l.coef[j] = l.coef[l.n];
            ast_expr *sum = lin_expr(ctx, &l, e);
            ast_expr *n = sum ? normalise(ctx, sum) : NULL;
            return n ? n : sum;
        }
    }
    return NULL;
}

/* min(x, y) / max(x, y) when one side is known to be the smaller. */
static ast_expr *minmax(ft_ctx *ctx, an_bounds *b, ast_expr *e)
{
    ast_expr *x = e->u.bin.a, *y = e->u.bin.b;
    if (x->dtype != e->dtype || y->dtype != e->dtype)
        return e;
    int x_le = an_bounds_prove(b, ast_binary(ctx, e->loc, AST_LE, x, y));
    int y_le = !x_le && an_bounds_prove(b, ast_binary(ctx, e->loc, AST_LE, y, x));
    if (!x_le && !y_le)
        return e;
    return (e->u.bin.op == AST_MIN) == (x_le != 0) ? x : y;
}

/* `and` / `or` with a literal side (kept as they are for non-bool operands). */
static ast_expr *logic(ft_ctx *ctx, ast_expr *e)
{
    ast_expr *x = e->u.bin.a, *y = e->u.bin.b;
    int is_and = e->u.bin.op == AST_AND;
    for (int side = 0; side < 2; side++) {
        ast_expr *lit = side ? y : x, *other = side ? x : y;
        if (lit->kind != AST_BOOLC)
            continue;
        if (lit->u.ival == !is_and)       /* false and _, true or _ */
            return side ? e : lit;        /* keep the left operand's evaluation */
        if (other->dtype == FT_BOOL)
            return other;
    }
    return e;
}

/* A binary expression whose operands are already simplified. */
static ast_expr *simplify_binary(ft_ctx *ctx, an_bounds *b, ast_expr *e)
{
    ast_expr *x = e->u.bin.a, *y = e->u.bin.b;
    ast_binop op = e->u.bin.op;
    int64_t r;
    int ints = ft_dtype_is_int(x->dtype) && ft_dtype_is_int(y->dtype);
    if (ints && x->kind == AST_INT && y->kind == AST_INT && fold_int(op, x->u.ival, y->u.ival, &r)) {
        if (op >= AST_LT && op <= AST_NE)
            return ast_boolc(ctx, e->loc, (int)r);
        if (fits(e->dtype, r))
            return int_like(ctx, e, r);
    }
    if (op == AST_AND || op == AST_OR)
        return logic(ctx, e);
    if (!ints)
        return e;
    if (op >= AST_LT && op <= AST_NE)
        return decide(ctx, b, e);
    if (op == AST_FLOORDIV || op == AST_MOD)
        return divmod(ctx, b, e);
    if (op == AST_MIN || op == AST_MAX)
        return minmax(ctx, b, e);
    ast_expr *n = normalise(ctx, e);
    ast_expr *m = op == AST_ADD ? recombine(ctx, n ? n : e) : NULL;
    return m ? m : n ? n : e;
}

/* Simplify n expressions into a new array (or es when none changes). */
static ast_expr **simplify_all(ft_ctx *ctx, an_bounds *b, int n, ast_expr **es)
{
    ast_expr **out = es;
    for (int i = 0; i < n; i++) {
        ast_expr *s = xf_simplify_expr(ctx, b, es[i]);
        if (s != es[i] && out == es) {
            out = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)n);
            memcpy(out, es, sizeof(ast_expr *) * (size_t)n);
        }
        out[i] = s;
    }
    return out;
}

/* A shallow copy of e (to change its operands). */
static ast_expr *copy_expr(ft_ctx *ctx, const ast_expr *e)
{
    ast_expr *n = ft_alloc(ctx, sizeof *n);
    *n = *e;
    return n;
}

ast_expr *xf_simplify_expr(ft_ctx *ctx, an_bounds *b, ast_expr *e)
{
    ast_expr *n, *a;
    switch (e->kind) {
    case AST_BINARY:
        return simplify_binary(ctx, b, with_operands(ctx, e, xf_simplify_expr(ctx, b, e->u.bin.a),
                                                     xf_simplify_expr(ctx, b, e->u.bin.b)));
    case AST_UNARY:
        a = xf_simplify_expr(ctx, b, e->u.un.a);
        if (e->u.un.op == AST_NOT && a->kind == AST_BOOLC)
            return ast_boolc(ctx, e->loc, !a->u.ival);
        if (e->u.un.op == AST_NEG && a->kind == AST_INT && a->u.ival != INT64_MIN &&
            ft_dtype_is_int(e->dtype) && fits(e->dtype, -a->u.ival))
            return int_like(ctx, e, -a->u.ival);
        if (a == e->u.un.a)
            return e;
        n = copy_expr(ctx, e);
        n->u.un.a = a;
        return n;
    case AST_LOAD:
    case AST_CALL: {
        int cnt = e->kind == AST_LOAD ? e->u.load.n : e->u.call.n;
        ast_expr **es = e->kind == AST_LOAD ? e->u.load.idx : e->u.call.args;
        ast_expr **s = simplify_all(ctx, b, cnt, es);
        if (s == es)
            return e;
        n = copy_expr(ctx, e);
        *(e->kind == AST_LOAD ? &n->u.load.idx : &n->u.call.args) = s;
        return n;
    }
    case AST_CAST:
        a = xf_simplify_expr(ctx, b, e->u.cast.a);
        if (a->kind == AST_INT && ft_dtype_is_int(e->dtype) && fits(e->dtype, a->u.ival))
            return int_like(ctx, e, a->u.ival);
        if (a == e->u.cast.a)
            return e;
        n = copy_expr(ctx, e);
        n->u.cast.a = a;
        return n;
    case AST_IFEXPR:
        a = xf_simplify_expr(ctx, b, e->u.ife.cond);
        if (a->kind == AST_BOOLC)
            return xf_simplify_expr(ctx, b, a->u.ival ? e->u.ife.then : e->u.ife.other);
        n = copy_expr(ctx, e);
        n->u.ife.cond = a;
        n->u.ife.then = xf_simplify_expr(ctx, b, e->u.ife.then);
        n->u.ife.other = xf_simplify_expr(ctx, b, e->u.ife.other);
        return n;
    default: return e;
    }
}

/* ------------------------------------------------------ statements */

/* An empty statement in place of s. */
static ast_stmt *nothing(ft_ctx *ctx, const ast_stmt *s)
{
    return ast_seq(ctx, s->loc, 0, NULL);
}

/* An If: a decided condition leaves the branch it picks (unless the If
 * is labelled); otherwise each branch is simplified knowing its side. */
static ast_stmt *simplify_if(ft_ctx *ctx, an_bounds *b, ast_stmt *s)
{
    ast_expr *c = xf_simplify_expr(ctx, b, s->u.branch.cond);
    s->u.branch.cond = c;
    if (c->kind == AST_BOOLC && !s->label) {
        ast_stmt *pick = c->u.ival ? s->u.branch.then : s->u.branch.other;
        return pick ? xf_simplify_stmt(ctx, b, pick) : nothing(ctx, s);
    }
    int mark = an_bounds_mark(b);
    an_bounds_push_cond(b, c, 1);
    s->u.branch.then = xf_simplify_stmt(ctx, b, s->u.branch.then);
    an_bounds_pop(b, mark);
    if (s->u.branch.other) {
        an_bounds_push_cond(b, c, 0);
        s->u.branch.other = xf_simplify_stmt(ctx, b, s->u.branch.other);
        an_bounds_pop(b, mark);
    }
    return s;
}

/* A For: bounds, then the body knowing the iterator's range. */
static ast_stmt *simplify_for(ft_ctx *ctx, an_bounds *b, ast_stmt *s)
{
    s->u.loop.begin = xf_simplify_expr(ctx, b, s->u.loop.begin);
    s->u.loop.end = xf_simplify_expr(ctx, b, s->u.loop.end);
    s->u.loop.step = xf_simplify_expr(ctx, b, s->u.loop.step);
    int mark = an_bounds_mark(b);
    an_bounds_push_loop(b, s);
    s->u.loop.body = xf_simplify_stmt(ctx, b, s->u.loop.body);
    an_bounds_pop(b, mark);
    return s;
}

ast_stmt *xf_simplify_stmt(ft_ctx *ctx, an_bounds *b, ast_stmt *s)
{
    if (!s)
        return s;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            s->u.seq.stmts[i] = xf_simplify_stmt(ctx, b, s->u.seq.stmts[i]);
        return s;
    case AST_VARDEF:
        s->u.def.shape = simplify_all(ctx, b, s->u.def.ndim, s->u.def.shape);
        s->u.def.body = xf_simplify_stmt(ctx, b, s->u.def.body);
        return s;
    case AST_FOR: return simplify_for(ctx, b, s);
    case AST_IF: return simplify_if(ctx, b, s);
    case AST_STORE:
        s->u.store.idx = simplify_all(ctx, b, s->u.store.n, s->u.store.idx);
        s->u.store.value = xf_simplify_expr(ctx, b, s->u.store.value);
        return s;
    case AST_REDUCE:
        s->u.red.idx = simplify_all(ctx, b, s->u.red.n, s->u.red.idx);
        s->u.red.value = xf_simplify_expr(ctx, b, s->u.red.value);
        return s;
    case AST_ASSERT:
        s->u.cond = xf_simplify_expr(ctx, b, s->u.cond);
        if (s->u.cond->kind == AST_BOOLC && s->u.cond->u.ival && !s->label)
            return nothing(ctx, s);
        return s;
    case AST_EVAL:
        s->u.expr = xf_simplify_expr(ctx, b, s->u.expr);
        return s;
    }
    return s;
}

void xf_simplify(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        an_bounds *b = an_bounds_new(ctx, f);
        f->body = xf_simplify_stmt(ctx, b, f->body);
    }
}
