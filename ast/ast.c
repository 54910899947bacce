/* ast.c - AST constructors, names of enums, dtype promotion, equality. */
#include "ast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const dtype_names[FT_DTYPE_COUNT] = {
    "bool", "i32", "i64", "f16", "f32", "f64"};
static const char *const mtype_names[FT_MTYPE_COUNT] = {
    "cpu", "gpu", "gpu/shared", "gpu/local"};
static const char *const binop_texts[AST_BINOP_COUNT] = {
    "+", "-", "*", "/", "//", "%", "**", "min", "max",
    "<", "<=", ">", ">=", "==", "!=", "and", "or"};
static const char *const builtin_names[AST_BUILTIN_COUNT] = {
    "abs", "sqrt", "exp", "ln", "sin", "cos", "tanh", "sigmoid", "floor",
    "ceil", "square", "tan", "erf", "log1p", "expm1"};

const char *ft_dtype_name(ft_dtype t) { return dtype_names[t]; }
const char *ft_mtype_name(ft_mtype m) { return mtype_names[m]; }
const char *ast_binop_text(ast_binop op) { return binop_texts[op]; }
const char *ast_builtin_name(ast_builtin f) { return builtin_names[f]; }

/* Index of s in a table of n names, or -1. */
static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

int ft_dtype_from_name(const char *s) { return find_name(dtype_names, FT_DTYPE_COUNT, s); }
int ft_mtype_from_name(const char *s) { return find_name(mtype_names, FT_MTYPE_COUNT, s); }
int ast_builtin_from_name(const char *s)
{
    return find_name(builtin_names, AST_BUILTIN_COUNT, s);
}

int ft_dtype_is_float(ft_dtype t) { return t == FT_F16 || t == FT_F32 || t == FT_F64; }
int ft_dtype_is_int(ft_dtype t) { return t == FT_I32 || t == FT_I64; }

const char *ft_access_name(ft_access a)
{
    static const char *const names[] = {"in", "out", "inout", "cache"};
    return names[a];
}

/* NumPy promotion of two array dtypes: bool < ints < floats, wider wins;
 * an int mixed with f16 gives f16 as NumPy's weak-scalar rules would for
 * the literals the front end produces. */
ft_dtype ast_promote(ft_dtype a, ft_dtype b)
{
    return a > b ? a : b;
}

/* ----------------------------------------------------------- expressions */

static ast_expr *new_expr(ft_ctx *ctx, ast_expr_kind k, ft_loc loc, ft_dtype t)
{
    ast_expr *e = ft_alloc(ctx, sizeof *e);
    e->kind = k;
    e->loc = loc;
    e->dtype = t;
    return e;
}

/* Copy an array of n expression pointers into the arena. */
static ast_expr **copy_exprs(ft_ctx *ctx, int n, ast_expr **src)
{
    if (n == 0)
        return NULL;
    ast_expr **dst = ft_alloc(ctx, sizeof *dst * (size_t)n);
    memcpy(dst, src, sizeof *dst * (size_t)n);
    return dst;
}

ast_expr *ast_int(ft_ctx *ctx, ft_loc loc, int64_t v)
{
    ast_expr *e = new_expr(ctx, AST_INT, loc, FT_I64);
    e->u.ival = v;
    return e;
}

ast_expr *ast_float(ft_ctx *ctx, ft_loc loc, double v, ft_dtype t)
{
    ast_expr *e = new_expr(ctx, AST_FLOAT, loc, t);
    e->u.fval = v;
    return e;
}

ast_expr *ast_boolc(ft_ctx *ctx, ft_loc loc, int v)
{
    ast_expr *e = new_expr(ctx, AST_BOOLC, loc, FT_BOOL);
    e->u.ival = v != 0;
    return e;
}

ast_expr *ast_var(ft_ctx *ctx, ft_loc loc, const char *name)
{
    ast_expr *e = new_expr(ctx, AST_VAR, loc, FT_I64);
    e->u.name = name;
    return e;
}

ast_expr *ast_load(ft_ctx *ctx, ft_loc loc, const char *var, ft_dtype t, int n,
                   ast_expr **idx)
{
    ast_expr *e = new_expr(ctx, AST_LOAD, loc, t);
    e->u.load.var = var;
    e->u.load.n = n;
    e->u.load.idx = copy_exprs(ctx, n, idx);
    return e;
}

/* Result dtype of a binary operator: comparisons and logic give bool, real
 * division of integers is refused by the front end before we get here. */
static ft_dtype binop_dtype(ast_binop op, ft_dtype a, ft_dtype b)
{
    if (op >= AST_LT)
        return FT_BOOL;
    ft_dtype t = ast_promote(a, b);
    if (t == FT_BOOL && op != AST_MIN && op != AST_MAX)
        t = FT_I32;   /* arithmetic on bools counts in integers, as NumPy */
    return t;
}

ast_expr *ast_binary(ft_ctx *ctx, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b)
{
    ast_expr *e = new_expr(ctx, AST_BINARY, loc, binop_dtype(op, a->dtype, b->dtype));
    e->u.bin.op = op;
    e->u.bin.a = a;
    e->u.bin.b = b;
    return e;
}

ast_expr *ast_unary(ft_ctx *ctx, ft_loc loc, ast_unop op, ast_expr *a)
{
    ft_dtype t = op == AST_NOT ? FT_BOOL : (a->dtype == FT_BOOL ? FT_I32 : a->dtype);
    ast_expr *e = new_expr(ctx, AST_UNARY, loc, t);
    e->u.un.op = op;
    e->u.un.a = a;
    return e;
}

ast_expr *ast_call(ft_ctx *ctx, ft_loc loc, ast_builtin f, int n, ast_expr **args)
{
    ft_dtype t = n > 0 ? args[0]->dtype : FT_F32;
    ast_expr *e = new_expr(ctx, AST_CALL, loc, t);
    e->u.call.f = f;
    e->u.call.n = n;
    e->u.call.args = copy_exprs(ctx, n, args);
    return e;
}

ast_expr *ast_cast(ft_ctx *ctx, ft_loc loc, ft_dtype t, ast_expr *a)
{
    ast_expr *e = new_expr(ctx, AST_CAST, loc, t);
    e->u.cast.a = a;
    return e;
}

ast_expr *ast_ifexpr(ft_ctx *ctx, ft_loc loc, ast_expr *cond, ast_expr *then,
                     ast_expr *other)
{
    ast_expr *e = new_expr(ctx, AST_IFEXPR, loc, ast_promote(then->dtype, other->dtype));
    e->u.ife.cond = cond;
    e->u.ife.then = then;
    e->u.ife.other = other;
    return e;
}

/* ------------------------------------------------------------ statements */

static ast_stmt *new_stmt(ft_ctx *ctx, ast_stmt_kind k, ft_loc loc)
{
    ast_stmt *s = ft_alloc(ctx, sizeof *s);
    s->kind = k;
    s->loc = loc;
    s->id = ctx->next_stmt_id++;
    return s;
}

ast_stmt *ast_seq(ft_ctx *ctx, ft_loc loc, int n, ast_stmt **stmts)
{
    ast_stmt *s = new_stmt(ctx, AST_SEQ, loc);
    s->u.seq.n = n;
    if (n) {
        s->u.seq.stmts = ft_alloc(ctx, sizeof *stmts * (size_t)n);
        memcpy(s->u.seq.stmts, stmts, sizeof *stmts * (size_t)n);
    }
    return s;
}

ast_stmt *ast_vardef(ft_ctx *ctx, ft_loc loc, const char *name, ft_dtype t, int ndim,
                     ast_expr **shape, ft_access acc, ft_mtype mt, ast_stmt *body)
{
    ast_stmt *s = new_stmt(ctx, AST_VARDEF, loc);
    s->u.def.name = name;
    s->u.def.dtype = t;
    s->u.def.ndim = ndim;
    s->u.def.shape = copy_exprs(ctx, ndim, shape);
    s->u.def.access = acc;
    s->u.def.mtype = mt;
    s->u.def.body = body;
    return s;
}

ast_stmt *ast_for(ft_ctx *ctx, ft_loc loc, const char *iter, ast_expr *begin,
                  ast_expr *end, ast_expr *step, ast_stmt *body)
{
    ast_stmt *s = new_stmt(ctx, AST_FOR, loc);
    s->u.loop.iter = iter;
    s->u.loop.begin = begin;
    s->u.loop.end = end;
    s->u.loop.step = step;
    s->u.loop.par = AST_SERIAL;
    s->u.loop.body = body;
    return s;
}

ast_stmt *ast_if(ft_ctx *ctx, ft_loc loc, ast_expr *cond, ast_stmt *then,
                 ast_stmt *other)
{
    ast_stmt *s = new_stmt(ctx, AST_IF, loc);
    s->u.branch.cond = cond;
    s->u.branch.then = then;
    s->u.branch.other = other;
    return s;
}

ast_stmt *ast_store(ft_ctx *ctx, ft_loc loc, const char *var, int n, ast_expr **idx,
                    ast_expr *value)
{
    ast_stmt *s = new_stmt(ctx, AST_STORE, loc);
    s->u.store.var = var;
    s->u.store.n = n;
    s->u.store.idx = copy_exprs(ctx, n, idx);
    s->u.store.value = value;
    return s;
}

ast_stmt *ast_reduce(ft_ctx *ctx, ft_loc loc, ast_reduce_op op, const char *var,
                     int n, ast_expr **idx, ast_expr *value)
{
    ast_stmt *s = new_stmt(ctx, AST_REDUCE, loc);
    s->u.red.op = op;
    s->u.red.var = var;
    s->u.red.n = n;
    s->u.red.idx = copy_exprs(ctx, n, idx);
    s->u.red.value = value;
    return s;
}

ast_stmt *ast_assert(ft_ctx *ctx, ft_loc loc, ast_expr *cond)
{
    ast_stmt *s = new_stmt(ctx, AST_ASSERT, loc);
    s->u.cond = cond;
    return s;
}

ast_stmt *ast_eval(ft_ctx *ctx, ft_loc loc, ast_expr *e)
{
    ast_stmt *s = new_stmt(ctx, AST_EVAL, loc);
    s->u.expr = e;
    return s;
}

/* -------------------------------------------------------------- equality */

static int exprs_equal(int n, ast_expr **a, ast_expr **b)
{
    for (int i = 0; i < n; i++)
        if (!ast_expr_equal(a[i], b[i]))
            return 0;
    return 1;
}

/* Compare names that may be NULL. */
static int names_equal(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int ast_expr_equal(const ast_expr *a, const ast_expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->dtype != b->dtype)
        return 0;
    switch (a->kind) {
    case AST_INT: case AST_BOOLC: return a->u.ival == b->u.ival;
    case AST_FLOAT:     /* 0.0 and -0.0 differ: x + 0.0 is not x + -0.0 */
        return (a->u.fval == b->u.fval && signbit(a->u.fval) == signbit(b->u.fval)) ||
               (isnan(a->u.fval) && isnan(b->u.fval));
    case AST_VAR: return names_equal(a->u.name, b->u.name);
    case AST_LOAD:
        return names_equal(a->u.load.var, b->u.load.var) && a->u.load.n == b->u.load.n &&
               exprs_equal(a->u.load.n, a->u.load.idx, b->u.load.idx);
    case AST_BINARY:
        return a->u.bin.op == b->u.bin.op && ast_expr_equal(a->u.bin.a, b->u.bin.a) &&
               ast_expr_equal(a->u.bin.b, b->u.bin.b);
    case AST_UNARY:
        return a->u.un.op == b->u.un.op && ast_expr_equal(a->u.un.a, b->u.un.a);
    case AST_CALL:
        return a->u.call.f == b->u.call.f && a->u.call.n == b->u.call.n &&
               exprs_equal(a->u.call.n, a->u.call.args, b->u.call.args);
    case AST_CAST: return ast_expr_equal(a->u.cast.a, b->u.cast.a);
    case AST_IFEXPR:
        return ast_expr_equal(a->u.ife.cond, b->u.ife.cond) &&
               ast_expr_equal(a->u.ife.then, b->u.ife.then) &&
               ast_expr_equal(a->u.ife.other, b->u.ife.other);
    }
    return 0;
}

int ast_stmt_equal(const ast_stmt *a, const ast_stmt *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || !names_equal(a->label, b->label))
        return 0;
    switch (a->kind) {
    case AST_SEQ:
        if (a->u.seq.n != b->u.seq.n)
            return 0;
        for (int i = 0; i < a->u.seq.n; i++)
            if (!ast_stmt_equal(a->u.seq.stmts[i], b->u.seq.stmts[i]))
                return 0;
        return 1;
    case AST_VARDEF:
        return names_equal(a->u.def.name, b->u.def.name) &&
               a->u.def.dtype == b->u.def.dtype && a->u.def.ndim == b->u.def.ndim &&
               exprs_equal(a->u.def.ndim, a->u.def.shape, b->u.def.shape) &&
               a->u.def.access == b->u.def.access && a->u.def.mtype == b->u.def.mtype &&
               ast_stmt_equal(a->u.def.body, b->u.def.body);
    case AST_FOR:
        return names_equal(a->u.loop.iter, b->u.loop.iter) &&
               ast_expr_equal(a->u.loop.begin, b->u.loop.begin) &&
               ast_expr_equal(a->u.loop.end, b->u.loop.end) &&
               ast_expr_equal(a->u.loop.step, b->u.loop.step) &&
               a->u.loop.par == b->u.loop.par &&
               ast_stmt_equal(a->u.loop.body, b->u.loop.body);
    case AST_IF:
        return ast_expr_equal(a->u.branch.cond, b->u.branch.cond) &&
               ast_stmt_equal(a->u.branch.then, b->u.branch.then) &&
               ast_stmt_equal(a->u.branch.other, b->u.branch.other);
    case AST_STORE:
        return names_equal(a->u.store.var, b->u.store.var) &&
               a->u.store.n == b->u.store.n &&
               exprs_equal(a->u.store.n, a->u.store.idx, b->u.store.idx) &&
               ast_expr_equal(a->u.store.value, b->u.store.value);
    case AST_REDUCE:
        return a->u.red.op == b->u.red.op && names_equal(a->u.red.var, b->u.red.var) &&
               a->u.red.n == b->u.red.n &&
               exprs_equal(a->u.red.n, a->u.red.idx, b->u.red.idx) &&
               ast_expr_equal(a->u.red.value, b->u.red.value) &&
               a->u.red.atomic == b->u.red.atomic;
    case AST_ASSERT: return ast_expr_equal(a->u.cond, b->u.cond);
    case AST_EVAL: return ast_expr_equal(a->u.expr, b->u.expr);
    }
    return 0;
}

int ast_has_schedule(const ast_program *p, const char *name)
{
    for (int i = 0; i < p->nschedules; i++)
        if (strcmp(p->schedules[i].func, name) == 0)
            return 1;
    return 0;
}

int64_t ast_floordiv(int64_t a, int64_t c)
{
    return a / c - ((a % c != 0) && ((a < 0) != (c < 0)));
}

int64_t ast_mod(int64_t a, int64_t c)
{
    int64_t r = a % c;
    return r != 0 && ((r < 0) != (c < 0)) ? r + c : r;
}
