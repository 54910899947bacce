/* scalar.c - scalar expressions of the lowering: literal dtypes, folding,
 * the checked constructors of operators, and integer comparisons that
 * shape checks need. */
#include "lw.h"

#include <math.h>
#include <string.h>

int lw_is_literal(const ast_expr *e)
{
    return e->kind == AST_INT || e->kind == AST_FLOAT;
}

/* A literal meeting a value of dtype t takes t where that loses nothing
 * (NumPy's weak scalars): 0.5 * x64 computes in f64, 1 + x32 in i32. */
void lw_weaken(ast_expr *lit, ft_dtype t)
{
    if (lit->kind == AST_FLOAT && ft_dtype_is_float(t))
        lit->dtype = t;
    else if (lit->kind == AST_INT && ft_dtype_is_int(t))
        lit->dtype = t;
    else if (lit->kind == AST_INT && ft_dtype_is_float(t)) {
        double v = (double)lit->u.ival;
        lit->kind = AST_FLOAT;
        lit->u.fval = v;
        lit->dtype = t;
    }
}

/* Make two operands agree on literal dtypes before they are combined. */
void lw_weaken_pair(ast_expr *a, ast_expr *b)
{
    if (lw_is_literal(a) && !lw_is_literal(b))
        lw_weaken(a, b->dtype);
    else if (lw_is_literal(b) && !lw_is_literal(a))
        lw_weaken(b, a->dtype);
    else if (lw_is_literal(a) && lw_is_literal(b) && a->kind != b->kind)
        lw_weaken(a->kind == AST_INT ? a : b, FT_F32);
}

int lw_const_int(const ast_expr *e, int64_t *v)
{
    if (e->kind != AST_INT)
        return 0;
    *v = e->u.ival;
    return 1;
}

/* Fold integer operands; NULL when the result is not representable. */
static ast_expr *fold_ints(lw *L, const ast_expr *e, int64_t x, int64_t y)
{
    int64_t r;
    switch (e->u.bin.op) {
    case AST_ADD: if (__builtin_add_overflow(x, y, &r)) return NULL; break;
    case AST_SUB: if (__builtin_sub_overflow(x, y, &r)) return NULL; break;
    case AST_MUL: if (__builtin_mul_overflow(x, y, &r)) return NULL; break;
    case AST_FLOORDIV:
        if (y == 0 || (x == INT64_MIN && y == -1)) return NULL;
        r = ast_floordiv(x, y);
        break;
    case AST_MOD:
        if (y == 0 || (x == INT64_MIN && y == -1)) return NULL;
        r = ast_mod(x, y);
        break;
    case AST_MIN: r = x < y ? x : y; break;
    case AST_MAX: r = x > y ? x : y; break;
    case AST_LT: return ast_boolc(L->ctx, e->loc, x < y);
    case AST_LE: return ast_boolc(L->ctx, e->loc, x <= y);
    case AST_GT: return ast_boolc(L->ctx, e->loc, x > y);
    case AST_GE: return ast_boolc(L->ctx, e->loc, x >= y);
    case AST_EQ: return ast_boolc(L->ctx, e->loc, x == y);
    case AST_NE: return ast_boolc(L->ctx, e->loc, x != y);
    default: return NULL;
    }
    ast_expr *k = ast_int(L->ctx, e->loc, r);
    k->dtype = e->dtype;
    return k;
}

/* Fold float (or mixed) operands. */
static ast_expr *fold_floats(lw *L, const ast_expr *e, double x, double y)
{
    double r;
    switch (e->u.bin.op) {
    case AST_ADD: r = x + y; break;
    case AST_SUB: r = x - y; break;
    case AST_MUL: r = x * y; break;
    case AST_DIV: r = x / y; break;
    case AST_POW: r = pow(x, y); break;
    case AST_MIN: r = x < y || isnan(x) ? x : y; break;    /* NaN propagates */
    case AST_MAX: r = x > y || isnan(x) ? x : y; break;
    case AST_LT: return ast_boolc(L->ctx, e->loc, x < y);
    case AST_LE: return ast_boolc(L->ctx, e->loc, x <= y);
    case AST_GT: return ast_boolc(L->ctx, e->loc, x > y);
    case AST_GE: return ast_boolc(L->ctx, e->loc, x >= y);
    case AST_EQ: return ast_boolc(L->ctx, e->loc, x == y);
    case AST_NE: return ast_boolc(L->ctx, e->loc, x != y);
    default: return NULL;
    }
    return ast_float(L->ctx, e->loc, r, e->dtype);
}

/* Fold `and`, `or`, `==`, `!=` of two bool constants. */
static ast_expr *fold_bools(lw *L, const ast_expr *e, int x, int y)
{
    switch (e->u.bin.op) {
    case AST_AND: return ast_boolc(L->ctx, e->loc, x && y);
    case AST_OR: return ast_boolc(L->ctx, e->loc, x || y);
    case AST_EQ: return ast_boolc(L->ctx, e->loc, x == y);
    case AST_NE: return ast_boolc(L->ctx, e->loc, x != y);
    default: return NULL;
    }
}

/* Fold a conversion of a literal to a number type: a float keeps the
 * literal's value, an integer to i32 wraps, a float to an integer
 * truncates (NULL where C leaves that undefined: out of range, NaN). */
static ast_expr *fold_cast(lw *L, const ast_expr *e, const ast_expr *a)
{
    if (!lw_is_literal(a))
        return NULL;
    double v = a->kind == AST_INT ? (double)a->u.ival : a->u.fval;
    if (ft_dtype_is_float(e->dtype))
        return ast_float(L->ctx, e->loc, v, e->dtype);
    if (!ft_dtype_is_int(e->dtype))
        return NULL;
    int64_t r = a->u.ival;
    if (a->kind == AST_FLOAT) {
        double lo = e->dtype == FT_I32 ? -2147483649.0 : -9223372036854775808.0;
        double hi = e->dtype == FT_I32 ? 2147483648.0 : 9223372036854775808.0;
        if (!(v > lo && v < hi))
            return NULL;
        r = (int64_t)v;
    }
    ast_expr *k = ast_int(L->ctx, e->loc, e->dtype == FT_I32 ? (int32_t)r : r);
    k->dtype = e->dtype;
    return k;
}

/* Fold floor or ceil of a float literal (they keep its dtype). */
static ast_expr *fold_round(lw *L, const ast_expr *e, const ast_expr *a)
{
    if (a->kind != AST_FLOAT)
        return NULL;
    double r = e->u.call.f == AST_FLOOR ? floor(a->u.fval) : ceil(a->u.fval);
    return ast_float(L->ctx, e->loc, r, a->dtype);
}

/* Fold an expression of literals to a literal, or return NULL. */
ast_expr *lw_fold(lw *L, ast_expr *e)
{
    if (lw_is_literal(e) || e->kind == AST_BOOLC)
        return e;
    if (e->kind == AST_CAST) {
        ast_expr *a = lw_fold(L, e->u.cast.a);
        return a ? fold_cast(L, e, a) : NULL;
    }
    if (e->kind == AST_CALL && e->u.call.n == 1 &&
        (e->u.call.f == AST_FLOOR || e->u.call.f == AST_CEIL)) {
        ast_expr *a = lw_fold(L, e->u.call.args[0]);
        return a ? fold_round(L, e, a) : NULL;
    }
    if (e->kind == AST_UNARY) {
        ast_expr *a = lw_fold(L, e->u.un.a);
        if (a && e->u.un.op == AST_NOT && a->kind == AST_BOOLC)
            return ast_boolc(L->ctx, e->loc, !a->u.ival);
        if (!a || !lw_is_literal(a) || (a->kind == AST_INT && a->u.ival == INT64_MIN))
            return NULL;                        /* -INT64_MIN overflows: not folded */
        if (e->u.un.op != AST_NEG)
            return NULL;
        if (a->kind == AST_FLOAT)
            return ast_float(L->ctx, e->loc, -a->u.fval, a->dtype);
        ast_expr *k = ast_int(L->ctx, e->loc, -a->u.ival);
        k->dtype = a->dtype;
        return k;
    }
    if (e->kind != AST_BINARY)
        return NULL;
    ast_expr *a = lw_fold(L, e->u.bin.a), *b = lw_fold(L, e->u.bin.b);
    if (!a || !b)
        return NULL;
    if (a->kind == AST_BOOLC && b->kind == AST_BOOLC)
        return fold_bools(L, e, (int)a->u.ival, (int)b->u.ival);
    if (!lw_is_literal(a) || !lw_is_literal(b))
        return NULL;
    if (a->kind == AST_INT && b->kind == AST_INT)
        return fold_ints(L, e, a->u.ival, b->u.ival);
    return fold_floats(L, e, a->kind == AST_INT ? (double)a->u.ival : a->u.fval,
                       b->kind == AST_INT ? (double)b->u.ival : b->u.fval);
}

/* Turn a numeric value into a condition (`x` means `x != 0`). */
ast_expr *lw_as_bool(lw *L, ast_expr *e)
{
    if (e->dtype == FT_BOOL)
        return e;
    ast_expr *zero = ast_int(L->ctx, e->loc, 0);
    lw_weaken(zero, e->dtype);
    return lw_binary(L, e->loc, AST_NE, e, zero);
}

/* Whether e is the integer literal v. */
static int is_int(const ast_expr *e, int64_t v)
{
    return e->kind == AST_INT && e->u.ival == v;
}

/* a op b when it is one operand unchanged (x + 0, x * 1, x // 1, ...) on
 * integers; index arithmetic of slices and reshapes makes many of them. */
static ast_expr *identity(ast_binop op, ast_expr *a, ast_expr *b)
{
    if (!ft_dtype_is_int(a->dtype) || !ft_dtype_is_int(b->dtype) || a->dtype != b->dtype)
        return NULL;
    switch (op) {
    case AST_ADD: return is_int(a, 0) ? b : is_int(b, 0) ? a : NULL;
    case AST_SUB: return is_int(b, 0) ? a : NULL;
    case AST_MUL:
        return is_int(a, 1) || is_int(b, 0) ? b : is_int(b, 1) || is_int(a, 0) ? a : NULL;
    case AST_FLOORDIV: return is_int(b, 1) ? a : NULL;
    default: return NULL;
    }
}

/* A binary node from lowered operands, with the checks of the language
 * (real division of integers is refused); folded when constant. */
ast_expr *lw_binary(lw *L, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b)
{
    if (op == AST_AND || op == AST_OR) {
        a = lw_as_bool(L, a);
        b = lw_as_bool(L, b);
    }
    if (!(op == AST_POW && b->kind == AST_INT))   /* keep x ** 2 an integer power */
        lw_weaken_pair(a, b);
    if (op == AST_DIV && !ft_dtype_is_float(a->dtype) && !ft_dtype_is_float(b->dtype)) {
        ft_error(L->ctx, loc,
                 "'/' is real division, but both operands are integers: use '//' for "
                 "floor division, or convert one with f32(...)");
        return NULL;
    }
    ast_expr *id = identity(op, a, b);
    if (id)
        return id;
    int64_t diff;
    if (op == AST_SUB && ft_dtype_is_int(a->dtype) && ft_dtype_is_int(b->dtype) &&
        lw_int_diff(a, b, &diff)) {   /* `s + 2 - s` is 2: slice lengths */
        ast_expr *k = ast_int(L->ctx, loc, diff);
        k->dtype = ast_promote(a->dtype, b->dtype);
        return k;
    }
    ast_expr *e = ast_binary(L->ctx, loc, op, a, b);
    ast_expr *f = lw_fold(L, e);
    return f ? f : e;
}

/* -a, folded when a is a literal (so `x -= -3` dumps as `x += 3`). */
ast_expr *lw_negate(lw *L, ft_loc loc, ast_expr *a)
{
    if (a->dtype == FT_BOOL) {
        ft_error(L->ctx, loc, "cannot negate a bool; use 'not'");
        return NULL;
    }
    ast_expr *e = ast_unary(L->ctx, loc, AST_NEG, a);
    ast_expr *f = lw_fold(L, e);
    return f ? f : e;
}

ast_expr *lw_not(lw *L, ft_loc loc, ast_expr *a)
{
    ast_expr *e = ast_unary(L->ctx, loc, AST_NOT, lw_as_bool(L, a));
    ast_expr *f = lw_fold(L, e);
    return f ? f : e;
}

/* A math builtin: float functions of an integer compute in f32. */
ast_expr *lw_builtin(lw *L, ft_loc loc, ast_builtin f, ast_expr *a)
{
    int keeps_int = f == AST_ABS || f == AST_FLOOR || f == AST_CEIL || f == AST_SQUARE;
    if (a->dtype == FT_BOOL) {
        ft_error(L->ctx, loc, "%s() of a bool is not defined", ast_builtin_name(f));
        return NULL;
    }
    if (!ft_dtype_is_float(a->dtype) && !keeps_int) {
        if (lw_is_literal(a))
            lw_weaken(a, FT_F32);
        else
            a = ast_cast(L->ctx, a->loc, FT_F32, a);
    }
    ast_expr *e = ast_call(L->ctx, loc, f, 1, &a);
    ast_expr *k = lw_fold(L, e);     /* floor(2.5) is 2.0 */
    return k ? k : e;
}

/* A linear form: constant + sum of coeff * term, terms compared
 * structurally (anything that is not + - or * by a constant is a term). */
typedef struct lin {
    int64_t k;
    int n;
    const ast_expr *terms[32];
    int64_t coef[32];
} lin;

/* Add c * e to f; returns 0 when the form is too large. */
static int lin_add(lin *f, const ast_expr *e, int64_t c)
{
    int64_t v;
    int64_t cv;
    if (lw_const_int(e, &v))
        return !__builtin_mul_overflow(c, v, &cv) && !__builtin_add_overflow(f->k, cv, &f->k);
    if (e->kind == AST_UNARY && e->u.un.op == AST_NEG)
        return c != INT64_MIN && lin_add(f, e->u.un.a, -c);
    if (e->kind == AST_BINARY && (e->u.bin.op == AST_ADD || e->u.bin.op == AST_SUB))
        return lin_add(f, e->u.bin.a, c) &&
               (e->u.bin.op == AST_ADD || c != INT64_MIN) &&
               lin_add(f, e->u.bin.b, e->u.bin.op == AST_ADD ? c : -c);
    if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL) {
        if (lw_const_int(e->u.bin.a, &v))
            return !__builtin_mul_overflow(c, v, &cv) && lin_add(f, e->u.bin.b, cv);
        if (lw_const_int(e->u.bin.b, &v))
            return !__builtin_mul_overflow(c, v, &cv) && lin_add(f, e->u.bin.a, cv);
    }
    for (int i = 0; i < f->n; i++)
        if (ast_expr_equal(f->terms[i], e)) {
            return !__builtin_add_overflow(f->coef[i], c, &f->coef[i]);
        }
    if (f->n == 32)
        return 0;
    f->terms[f->n] = e;
    f->coef[f->n++] = c;
    return 1;
}

int lw_int_diff(const ast_expr *a, const ast_expr *b, int64_t *diff)
{
    lin f = {0};
    if (!lin_add(&f, a, 1) || !lin_add(&f, b, -1))
        return 0;
    for (int i = 0; i < f.n; i++)
        if (f.coef[i] != 0)
            return 0;
    *diff = f.k;
    return 1;
}

int lw_int_equal(lw *L, ast_expr *a, ast_expr *b)
{
    (void)L;
    int64_t diff;
    return lw_int_diff(a, b, &diff) ? diff == 0 : -1;
}
