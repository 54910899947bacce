/* lower.c - from the parse tree to the AST: names, types and shapes.
 *
 * Requires: a PT_FILE from ft_parse.
 * Provides: an ast_program (see lower.h for its invariants).
 *
 * Names live in a stack of scopes (a linked list of symbols with the depth
 * they were declared at).  A `var` scopes over the rest of its block, so a
 * block is lowered statement by statement and a `var` wraps everything after
 * it in an AST VarDef.  Errors are reported and lowering goes on with the
 * next statement, so one run reports as many mistakes as it can.
 */
#include "lower.h"

#include <math.h>
#include <string.h>

typedef enum lw_sym_kind { SYM_CONST, SYM_SIZE, SYM_ITER, SYM_TENSOR, SYM_FUNC } lw_sym_kind;

/* A name in scope.  The fields used depend on kind: SYM_CONST: value;
 * SYM_SIZE, SYM_ITER: ast_name; SYM_TENSOR: ast_name, dtype, ndim, shape,
 * access, written_in_loop; SYM_FUNC: node. */
typedef struct lw_sym {
    lw_sym_kind kind;
    const char *name;
    const char *ast_name;
    int depth;
    ft_loc loc;
    ast_expr *value;
    ft_dtype dtype;
    int ndim;
    ast_expr **shape;
    ft_access access;
    const pt_node *node;
    struct lw_sym *next;
} lw_sym;

/* Lowering state of one file. */
typedef struct lw {
    ft_ctx *ctx;
    lw_sym *syms;        /* innermost first */
    int depth;
    ft_vec labels;       /* labels of the current function */
    const char *shape_of;    /* the parameter whose shape is being lowered */
    const char *const_name;  /* the const whose value is being lowered */
    int expr_depth;          /* nesting of the expression being lowered */
    int too_deep;            /* it was reported as nested too deeply */
} lw;

static ast_expr *lower_expr(lw *L, const pt_node *n);
static ast_stmt *lower_block_from(lw *L, const pt_node *block, int from);

/* ---------------------------------------------------------------- names */

/* The symbol name refers to here, or NULL. */
static lw_sym *lookup(lw *L, const char *name)
{
    for (lw_sym *s = L->syms; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* Whether an AST name is taken by a visible tensor, size or iterator. */
static int name_visible(lw *L, const char *ast_name)
{
    for (lw_sym *s = L->syms; s; s = s->next)
        if (s->kind != SYM_CONST && s->kind != SYM_FUNC && strcmp(s->ast_name, ast_name) == 0)
            return 1;
    return 0;
}

/* The AST name of a new local: the user's name, or name_1, name_2, ... when
 * it would shadow a visible one, so that every name in scope at any point
 * of the AST is unique and passes may move code across scopes. */
static const char *unique_name(lw *L, const char *name)
{
    const char *cand = name;
    for (int k = 1; name_visible(L, cand); k++)
        cand = ft_fmt(L->ctx, "%s_%d", name, k);
    return cand;
}

/* Declare a symbol in the current scope; a second declaration of the same
 * name in the same scope is an error (NULL). */
static lw_sym *declare(lw *L, lw_sym_kind kind, const char *name, ft_loc loc)
{
    if (strncmp(name, "ft__", 4) == 0) {
        ft_error(L->ctx, loc, "names starting with 'ft__' are reserved for the compiler");
        return NULL;
    }
    lw_sym *old = lookup(L, name);
    if (old && old->depth == L->depth) {
        ft_error(L->ctx, loc, "'%s' is already defined in this scope", name);
        if (old->loc.src)
            ft_note(L->ctx, old->loc, "'%s' was defined here", name);
        return NULL;
    }
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    s->kind = kind;
    s->name = name;
    s->depth = L->depth;
    s->loc = loc;
    s->ast_name = (kind == SYM_CONST || kind == SYM_FUNC) ? name : unique_name(L, name);
    s->next = L->syms;
    L->syms = s;
    return s;
}

/* Scopes: push returns a mark that pop restores. */
static lw_sym *push_scope(lw *L)
{
    L->depth++;
    return L->syms;
}

static void pop_scope(lw *L, lw_sym *mark)
{
    L->depth--;
    L->syms = mark;
}

/* ------------------------------------------------------------- literals */

static int is_literal(const ast_expr *e)
{
    return e->kind == AST_INT || e->kind == AST_FLOAT;
}

/* A literal meeting a value of dtype t takes t where that loses nothing
 * (NumPy's weak scalars): 0.5 * x64 computes in f64, 1 + x32 in i32. */
static void weaken(ast_expr *lit, ft_dtype t)
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
static void weaken_pair(ast_expr *a, ast_expr *b)
{
    if (is_literal(a) && !is_literal(b))
        weaken(a, b->dtype);
    else if (is_literal(b) && !is_literal(a))
        weaken(b, a->dtype);
    else if (is_literal(a) && is_literal(b) && a->kind != b->kind)
        weaken(a->kind == AST_INT ? a : b, FT_F32);
}

/* ------------------------------------------------------ constant folding */

/* Fold an expression of literals to a literal, or return NULL. */
static ast_expr *fold(lw *L, ast_expr *e)
{
    if (is_literal(e) || e->kind == AST_BOOLC)
        return e;
    if (e->kind == AST_UNARY && e->u.un.op == AST_NEG) {
        ast_expr *a = fold(L, e->u.un.a);
        if (!a || !is_literal(a) || (a->kind == AST_INT && a->u.ival == INT64_MIN))
            return NULL;                        /* -INT64_MIN overflows: not folded */
        return a->kind == AST_INT ? ast_int(L->ctx, e->loc, -a->u.ival)
                                  : ast_float(L->ctx, e->loc, -a->u.fval, a->dtype);
    }
    if (e->kind != AST_BINARY)
        return NULL;
    ast_expr *a = fold(L, e->u.bin.a), *b = fold(L, e->u.bin.b);
    if (!a || !b || !is_literal(a) || !is_literal(b))
        return NULL;
    if (a->kind == AST_INT && b->kind == AST_INT) {
        int64_t x = a->u.ival, y = b->u.ival, r;
        switch (e->u.bin.op) {
        case AST_ADD: if (__builtin_add_overflow(x, y, &r)) return NULL; break;
        case AST_SUB: if (__builtin_sub_overflow(x, y, &r)) return NULL; break;
        case AST_MUL: if (__builtin_mul_overflow(x, y, &r)) return NULL; break;
        case AST_FLOORDIV:
            if (y == 0 || (x == INT64_MIN && y == -1)) return NULL;
            r = x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
            break;
        case AST_MOD:
            if (y == 0 || (x == INT64_MIN && y == -1)) return NULL;
            r = x % y;
            if (r != 0 && ((r < 0) != (y < 0))) r += y;
            break;
        case AST_MIN: r = x < y ? x : y; break;
        case AST_MAX: r = x > y ? x : y; break;
        default: return NULL;
        }
        return ast_int(L->ctx, e->loc, r);
    }
    double x = a->kind == AST_INT ? (double)a->u.ival : a->u.fval;
    double y = b->kind == AST_INT ? (double)b->u.ival : b->u.fval, r;
    switch (e->u.bin.op) {
    case AST_ADD: r = x + y; break;
    case AST_SUB: r = x - y; break;
    case AST_MUL: r = x * y; break;
    case AST_DIV: r = x / y; break;
    case AST_POW: r = pow(x, y); break;
    default: return NULL;
    }
    return ast_float(L->ctx, e->loc, r, e->dtype);
}

/* ---------------------------------------------------------- expressions */

static const char *const stdlib_names[] = {
    "zeros", "ones", "fill", "sum", "prod", "matmul", "einsum", "softmax", "relu",
    "transpose", "concat", "reshape", "flatten", "conv2d", "max_pool2d",
    "avg_pool2d", NULL};

/* Whether name is a standard-library operator (or its `_` in-place form). */
static int is_stdlib(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; stdlib_names[i]; i++) {
        size_t k = strlen(stdlib_names[i]);
        if (strncmp(name, stdlib_names[i], k) == 0 &&
            (n == k || (n == k + 1 && name[k] == '_')))
            return 1;
    }
    return 0;
}

/* Check an index is an integer; report and return 0 otherwise. */
static int check_index(lw *L, const ast_expr *e, const pt_node *n)
{
    if (ft_dtype_is_int(e->dtype))
        return 1;
    ft_error(L->ctx, n->loc, "an index must be an integer, but this is %s%s",
             ft_dtype_name(e->dtype),
             ft_dtype_is_float(e->dtype) ? " (convert it with i64(...))" : "");
    return 0;
}

/* Whether name, a tensor, appears in a parameter's shape, which is refused
 * (after an error here): the C ABI computes shapes from the sizes alone. */
static int tensor_in_shape(lw *L, const pt_node *name)
{
    if (!L->shape_of)
        return 0;
    ft_error(L->ctx, name->loc, "a parameter's shape may use only sizes and constants, "
             "not the tensor '%s'", name->name);
    return 1;
}

/* The tensor symbol an indexed/named access refers to, or NULL after an
 * error that explains what the name is instead. */
static lw_sym *tensor_sym(lw *L, const pt_node *name)
{
    lw_sym *s = lookup(L, name->name);
    if (!s) {
        ft_error(L->ctx, name->loc, "unknown variable '%s'", name->name);
        return NULL;
    }
    switch (s->kind) {
    case SYM_TENSOR: return tensor_in_shape(L, name) ? NULL : s;
    case SYM_SIZE:
        ft_error(L->ctx, name->loc, "'%s' is a size, not a tensor: it cannot be indexed",
                 name->name);
        return NULL;
    case SYM_ITER:
        ft_error(L->ctx, name->loc,
                 "'%s' is a loop iterator, not a tensor: it cannot be indexed", name->name);
        return NULL;
    case SYM_CONST:
        ft_error(L->ctx, name->loc, "'%s' is a constant, not a tensor: it cannot be indexed",
                 name->name);
        return NULL;
    case SYM_FUNC:
        ft_error(L->ctx, name->loc, "'%s' is a function, not a tensor", name->name);
        return NULL;
    }
    return NULL;
}

/* Lower the indices of an access `base[idx...]` (n = PT_INDEX) into out[];
 * returns the count, or -1 after an error. */
static int lower_indices(lw *L, const pt_node *n, lw_sym *t, ast_expr **out)
{
    int count = n->nkids - 1, ok = 1;
    if (count > t->ndim) {
        ft_error(L->ctx, n->kids[t->ndim + 1]->loc,
                 "too many indices for '%s': it has %d dimension%s, but %d indices are given",
                 t->name, t->ndim, t->ndim == 1 ? "" : "s", count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        const pt_node *k = n->kids[i + 1];
        if (k->kind == PT_SLICE) {
            ft_unsupported(L->ctx, k->loc, "slicing (tensor-level programming)");
            ok = 0;
            continue;
        }
        out[i] = lower_expr(L, k);
        if (!out[i] || !check_index(L, out[i], k))
            ok = 0;
        else if (is_literal(out[i]))
            out[i]->dtype = FT_I64;
    }
    if (ok && count < t->ndim) {
        ft_unsupported(L->ctx, n->loc,
                       "a partly indexed tensor as a value (tensor-level programming)");
        return -1;
    }
    return ok ? count : -1;
}

/* `a[i, j]` as a value. */
static ast_expr *lower_index_expr(lw *L, const pt_node *n)
{
    const pt_node *base = n->kids[0];
    if (base->kind != PT_NAME) {
        ft_unsupported(L->ctx, n->loc, "indexing the result of an expression");
        return NULL;
    }
    lw_sym *t = tensor_sym(L, base);
    if (!t)
        return NULL;
    ast_expr **idx = ft_alloc(L->ctx, sizeof *idx * (size_t)(n->nkids + 1));
    int count = lower_indices(L, n, t, idx);
    if (count < 0)
        return NULL;
    return ast_load(L->ctx, n->loc, t->ast_name, t->dtype, count, idx);
}

/* A bare name as a value. */
static ast_expr *lower_name(lw *L, const pt_node *n)
{
    lw_sym *s = lookup(L, n->name);
    if (!s && L->shape_of) {
        ft_error(L->ctx, n->loc, "unknown size '%s' in the shape of '%s': a shape uses "
                 "`size` parameters and constants", n->name, L->shape_of);
        return NULL;
    }
    if (!s && L->const_name) {
        ft_error(L->ctx, n->loc, "the value of const '%s' must be known at compile time, "
                 "but '%s' is not a constant", L->const_name, n->name);
        return NULL;
    }
    if (!s) {
        ft_error(L->ctx, n->loc, "unknown variable '%s'", n->name);
        return NULL;
    }
    switch (s->kind) {
    case SYM_CONST: {
        ast_expr *v = s->value;
        return v->kind == AST_INT ? ast_int(L->ctx, n->loc, v->u.ival)
                                  : ast_float(L->ctx, n->loc, v->u.fval, v->dtype);
    }
    case SYM_SIZE:
    case SYM_ITER: return ast_var(L->ctx, n->loc, s->ast_name);
    case SYM_TENSOR:
        if (tensor_in_shape(L, n))
            return NULL;
        if (s->ndim == 0)
            return ast_load(L->ctx, n->loc, s->ast_name, s->dtype, 0, NULL);
        ft_unsupported(L->ctx, n->loc,
                       "a whole tensor as a value (tensor-level programming)");
        return NULL;
    case SYM_FUNC:
        ft_error(L->ctx, n->loc, "'%s' is a function; call it with (...)", n->name);
        return NULL;
    }
    return NULL;
}

static ast_binop binop_of(int op)
{
    switch (op) {
    case PT_OP_ADD: return AST_ADD;
    case PT_OP_SUB: return AST_SUB;
    case PT_OP_MUL: return AST_MUL;
    case PT_OP_DIV: return AST_DIV;
    case PT_OP_FLOORDIV: return AST_FLOORDIV;
    case PT_OP_MOD: return AST_MOD;
    case PT_OP_POW: return AST_POW;
    case PT_OP_LT: return AST_LT;
    case PT_OP_LE: return AST_LE;
    case PT_OP_GT: return AST_GT;
    case PT_OP_GE: return AST_GE;
    case PT_OP_EQ: return AST_EQ;
    case PT_OP_NE: return AST_NE;
    case PT_OP_AND: return AST_AND;
    default: return AST_OR;
    }
}

/* Turn a numeric value into a condition (`x` means `x != 0`). */
static ast_expr *as_bool(lw *L, ast_expr *e)
{
    if (e->dtype == FT_BOOL)
        return e;
    ast_expr *zero = ast_int(L->ctx, e->loc, 0);
    weaken(zero, e->dtype);
    return ast_binary(L->ctx, e->loc, AST_NE, e, zero);
}

/* Build a binary node from lowered operands, with the checks of the
 * language (real division of integers is refused). */
static ast_expr *make_binary(lw *L, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b)
{
    if (op == AST_AND || op == AST_OR) {
        a = as_bool(L, a);
        b = as_bool(L, b);
    }
    if (!(op == AST_POW && b->kind == AST_INT))   /* keep x ** 2 an integer power */
        weaken_pair(a, b);
    if (op == AST_DIV && !ft_dtype_is_float(a->dtype) && !ft_dtype_is_float(b->dtype)) {
        ft_error(L->ctx, loc,
                 "'/' is real division, but both operands are integers: use '//' for "
                 "floor division, or convert one with f32(...)");
        return NULL;
    }
    ast_expr *e = ast_binary(L->ctx, loc, op, a, b);
    ast_expr *f = fold(L, e);
    return f ? f : e;
}

static ast_expr *lower_binary(lw *L, const pt_node *n)
{
    ast_expr *a = lower_expr(L, n->kids[0]);
    ast_expr *b = lower_expr(L, n->kids[1]);
    if (!a || !b)
        return NULL;
    return make_binary(L, n->loc, binop_of(n->op), a, b);
}

/* -a, folded when a is a literal (so `x -= -3` dumps as `x += 3`). */
static ast_expr *negate(lw *L, ft_loc loc, ast_expr *a)
{
    ast_expr *e = ast_unary(L->ctx, loc, AST_NEG, a);
    ast_expr *f = fold(L, e);
    return f ? f : e;
}

static ast_expr *lower_unary(lw *L, const pt_node *n)
{
    ast_expr *a = lower_expr(L, n->kids[0]);
    if (!a)
        return NULL;
    if (n->op == PT_OP_POS)
        return a;
    if (n->op == PT_OP_NOT)
        return ast_unary(L->ctx, n->loc, AST_NOT, as_bool(L, a));
    if (a->dtype == FT_BOOL) {
        ft_error(L->ctx, n->loc, "cannot negate a bool; use 'not'");
        return NULL;
    }
    return negate(L, n->loc, a);
}

/* Check a call has exactly want positional arguments and no keywords. */
static int check_arity(lw *L, const pt_node *call, const char *name, int want)
{
    int got = call->nkids - 1;
    for (int i = 1; i < call->nkids; i++)
        if (call->kids[i]->kind == PT_KWARG) {
            ft_error(L->ctx, call->kids[i]->loc, "%s() takes no keyword arguments", name);
            return 0;
        }
    if (got != want) {
        ft_error(L->ctx, call->loc, "%s() takes %d argument%s, but %d %s given", name, want,
                 want == 1 ? "" : "s", got, got == 1 ? "was" : "were");
        return 0;
    }
    return 1;
}

/* Lower every argument of a call (kids 1..), NULL if any failed. */
static ast_expr **lower_args(lw *L, const pt_node *call)
{
    int n = call->nkids - 1, ok = 1;
    ast_expr **args = ft_alloc(L->ctx, sizeof *args * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        if (!(args[i] = lower_expr(L, call->kids[i + 1])))
            ok = 0;
    return ok ? args : NULL;
}

/* A math builtin: float functions of an integer compute in f32. */
static ast_expr *lower_builtin(lw *L, const pt_node *call, ast_builtin f)
{
    if (!check_arity(L, call, ast_builtin_name(f), 1))
        return NULL;
    ast_expr **args = lower_args(L, call);
    if (!args)
        return NULL;
    int keeps_int = f == AST_ABS || f == AST_FLOOR || f == AST_CEIL || f == AST_SQUARE;
    if (!ft_dtype_is_float(args[0]->dtype) && !keeps_int) {
        if (is_literal(args[0]))
            weaken(args[0], FT_F32);
        else
            args[0] = ast_cast(L->ctx, args[0]->loc, FT_F32, args[0]);
    }
    if (args[0]->dtype == FT_BOOL) {
        ft_error(L->ctx, call->loc, "%s() of a bool is not defined", ast_builtin_name(f));
        return NULL;
    }
    return ast_call(L->ctx, call->loc, f, 1, args);
}

/* min(a, b, ...) / max(a, b, ...) of scalars, folded pairwise. */
static ast_expr *lower_minmax(lw *L, const pt_node *call, ast_binop op)
{
    const char *name = ast_binop_text(op);
    if (call->nkids - 1 < 2) {
        if (call->nkids - 1 == 1)
            ft_unsupported(L->ctx, call->loc,
                           ft_fmt(L->ctx, "%s() over a tensor (tensor-level programming)", name));
        else
            ft_error(L->ctx, call->loc, "%s() needs at least 2 arguments", name);
        return NULL;
    }
    if (!check_arity(L, call, name, call->nkids - 1))
        return NULL;
    ast_expr **args = lower_args(L, call);
    if (!args)
        return NULL;
    ast_expr *acc = args[0];
    for (int i = 1; i < call->nkids - 1 && acc; i++)
        acc = make_binary(L, call->loc, op, acc, args[i]);
    return acc;
}

/* `x.shape(i)`: the i-th dimension of x, a compile-time expression. */
static ast_expr *lower_method(lw *L, const pt_node *call)
{
    const pt_node *attr = call->kids[0];
    if (strcmp(attr->name, "shape") != 0) {
        ft_error(L->ctx, attr->loc, "unknown method '%s'; tensors have .shape(i), .ndim",
                 attr->name);
        return NULL;
    }
    if (attr->kids[0]->kind != PT_NAME) {
        ft_unsupported(L->ctx, attr->loc, "the shape of an expression");
        return NULL;
    }
    lw_sym *t = tensor_sym(L, attr->kids[0]);
    if (!t || !t->shape || !check_arity(L, call, "shape", 1))
        return NULL;
    ast_expr *i = lower_expr(L, call->kids[1]);
    if (!i)
        return NULL;
    if (i->kind != AST_INT) {
        ft_error(L->ctx, call->kids[1]->loc, "shape() takes a constant dimension number");
        return NULL;
    }
    if (i->u.ival < 0 || i->u.ival >= t->ndim) {
        ft_error(L->ctx, call->kids[1]->loc, "'%s' has %d dimension%s; there is no dimension %lld",
                 t->name, t->ndim, t->ndim == 1 ? "" : "s", (long long)i->u.ival);
        return NULL;
    }
    return t->shape[i->u.ival];
}

static ast_expr *lower_call(lw *L, const pt_node *call)
{
    const pt_node *callee = call->kids[0];
    if (callee->kind == PT_ATTR)
        return lower_method(L, call);
    if (callee->kind != PT_NAME) {
        ft_error(L->ctx, callee->loc, "this expression cannot be called");
        return NULL;
    }
    const char *name = callee->name;
    lw_sym *s = lookup(L, name);
    if (s && s->kind == SYM_FUNC) {
        ft_unsupported(L->ctx, call->loc,
                       ft_fmt(L->ctx, "calling '%s' (inlining of functions)", name));
        return NULL;
    }
    if (s) {
        ft_error(L->ctx, callee->loc, "'%s' is not a function", name);
        return NULL;
    }
    int f = ast_builtin_from_name(name), dt = ft_dtype_from_name(name);
    if (f >= 0)
        return lower_builtin(L, call, (ast_builtin)f);
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
        return lower_minmax(L, call, name[1] == 'i' ? AST_MIN : AST_MAX);
    if (dt >= 0) {
        if (!check_arity(L, call, name, 1))
            return NULL;
        ast_expr *a = lower_expr(L, call->kids[1]);
        return a ? ast_cast(L->ctx, call->loc, (ft_dtype)dt, a) : NULL;
    }
    if (strcmp(name, "range") == 0) {
        ft_error(L->ctx, call->loc, "range() is only allowed in a for loop");
        return NULL;
    }
    if (is_stdlib(name)) {
        ft_unsupported(L->ctx, call->loc,
                       ft_fmt(L->ctx, "the standard library operator '%s'", name));
        return NULL;
    }
    ft_error(L->ctx, callee->loc, "unknown function '%s'", name);
    return NULL;
}

static ast_expr *lower_attr(lw *L, const pt_node *n)
{
    if (strcmp(n->name, "ndim") == 0 && n->kids[0]->kind == PT_NAME) {
        lw_sym *t = tensor_sym(L, n->kids[0]);
        return t ? ast_int(L->ctx, n->loc, t->ndim) : NULL;
    }
    if (strcmp(n->name, "shape") == 0) {
        ft_error(L->ctx, n->loc, "shape is a method: write .shape(i)");
        return NULL;
    }
    if (strcmp(n->name, "dtype") == 0 || strcmp(n->name, "mtype") == 0) {
        ft_unsupported(L->ctx, n->loc, ft_fmt(L->ctx, ".%s in expressions", n->name));
        return NULL;
    }
    ft_error(L->ctx, n->loc, "unknown attribute '%s'; tensors have .shape(i), .ndim", n->name);
    return NULL;
}

static ast_expr *lower_ifexpr(lw *L, const pt_node *n)
{
    ast_expr *t = lower_expr(L, n->kids[0]);
    ast_expr *c = lower_expr(L, n->kids[1]);
    ast_expr *o = lower_expr(L, n->kids[2]);
    if (!t || !c || !o)
        return NULL;
    weaken_pair(t, o);
    return ast_ifexpr(L->ctx, n->loc, as_bool(L, c), t, o);
}

/* Lower an expression node of any kind; NULL after reporting an error. */
static ast_expr *lower_expr_node(lw *L, const pt_node *n)
{
    switch (n->kind) {
    case PT_INT: return ast_int(L->ctx, n->loc, n->ival);
    case PT_FLOAT: return ast_float(L->ctx, n->loc, n->fval, FT_F32);
    case PT_BOOL: return ast_boolc(L->ctx, n->loc, (int)n->ival);
    case PT_NAME: return lower_name(L, n);
    case PT_INDEX: return lower_index_expr(L, n);
    case PT_BINARY: return lower_binary(L, n);
    case PT_UNARY: return lower_unary(L, n);
    case PT_CALL: return lower_call(L, n);
    case PT_ATTR: return lower_attr(L, n);
    case PT_IFEXPR: return lower_ifexpr(L, n);
    case PT_STRING:
        ft_unsupported(L->ctx, n->loc, "a string outside einsum subscripts");
        return NULL;
    default:
        ft_error(L->ctx, n->loc, "this is not allowed in an expression");
        return NULL;
    }
}

/* Deepest expression accepted: every pass after this one recurses over
 * expressions, and a long chain `a + b + c + ...` nests without brackets. */
#define MAX_EXPR_DEPTH 1000

/* Lower an expression; NULL after reporting an error (once per too deep
 * expression). */
static ast_expr *lower_expr(lw *L, const pt_node *n)
{
    if (L->expr_depth >= MAX_EXPR_DEPTH) {
        if (!L->too_deep)
            ft_error(L->ctx, n->loc, "expression nested too deeply (more than %d levels); "
                     "split it with a local variable", MAX_EXPR_DEPTH);
        L->too_deep = 1;
        return NULL;
    }
    L->expr_depth++;
    ast_expr *e = lower_expr_node(L, n);
    if (--L->expr_depth == 0)
        L->too_deep = 0;
    return e;
}

/* An integer-valued expression (loop bounds, shapes); NULL after an error. */
static ast_expr *lower_int_expr(lw *L, const pt_node *n, const char *what)
{
    ast_expr *e = lower_expr(L, n);
    if (!e)
        return NULL;
    if (!ft_dtype_is_int(e->dtype)) {
        ft_error(L->ctx, n->loc, "%s must be an integer, but this is %s", what,
                 ft_dtype_name(e->dtype));
        return NULL;
    }
    if (e->kind == AST_INT)
        e->dtype = FT_I64;
    return e;
}

/* ----------------------------------------------------------- statements */

/* Whether v is `target` itself (for recognising `x = max(x, e)`). */
static int same_access(const ast_expr *v, const char *var, int n, ast_expr **idx)
{
    if (v->kind != AST_LOAD || strcmp(v->u.load.var, var) != 0 || v->u.load.n != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (!ast_expr_equal(v->u.load.idx[i], idx[i]))
            return 0;
    return 1;
}

/* Check a value may be stored into a tensor of dtype t; literals adapt. */
static int check_store_type(lw *L, const pt_node *at, lw_sym *t, ast_expr *v)
{
    if (is_literal(v))
        weaken(v, t->dtype);
    if (ft_dtype_is_float(t->dtype) && v->dtype != FT_BOOL)
        return 1;
    if (ft_dtype_is_int(t->dtype) && (ft_dtype_is_int(v->dtype) || v->dtype == FT_BOOL))
        return 1;
    if (t->dtype == FT_BOOL && v->dtype == FT_BOOL)
        return 1;
    ft_error(L->ctx, at->loc, "cannot store a value of type %s into '%s', whose type is %s, "
             "without a conversion: write %s(...)", ft_dtype_name(v->dtype), t->name,
             ft_dtype_name(t->dtype), ft_dtype_name(t->dtype));
    return 0;
}

/* The tensor written by an assignment target, with its indices; NULL after
 * an error.  Writing a size, an iterator or an `in` tensor is refused. */
static lw_sym *lower_target(lw *L, const pt_node *tg, ast_expr ***idx, int *n)
{
    const pt_node *name = tg->kind == PT_INDEX ? tg->kids[0] : tg;
    if (name->kind != PT_NAME) {
        ft_error(L->ctx, tg->loc, "cannot assign to this expression");
        return NULL;
    }
    lw_sym *s = lookup(L, name->name);
    if (s && (s->kind == SYM_ITER || s->kind == SYM_SIZE || s->kind == SYM_CONST)) {
        ft_error(L->ctx, name->loc, "cannot assign to '%s': it is a %s", name->name,
                 s->kind == SYM_ITER ? "loop iterator"
                 : s->kind == SYM_SIZE ? "size parameter" : "constant");
        return NULL;
    }
    lw_sym *t = tensor_sym(L, name);
    if (!t)
        return NULL;
    if (t->access == FT_ACC_IN) {
        ft_error(L->ctx, name->loc, "cannot write to '%s': it is an `in` parameter "
                 "(declare it `inout` to modify it)", t->name);
        return NULL;
    }
    *idx = ft_alloc(L->ctx, sizeof **idx * (size_t)(tg->nkids + 1));
    *n = 0;
    if (tg->kind == PT_INDEX)
        *n = lower_indices(L, tg, t, *idx);
    else if (t->ndim > 0) {
        ft_unsupported(L->ctx, tg->loc,
                       "assigning to a whole tensor (tensor-level programming)");
        return NULL;
    }
    return *n < 0 ? NULL : t;
}

/* The value v of `x -= v`, ready to negate: a bool is converted to x's
 * dtype (as `x - v` would), or refused when x is a bool too. */
static ast_expr *subtrahend(lw *L, const pt_node *at, lw_sym *t, ast_expr *v)
{
    if (v->dtype != FT_BOOL)
        return v;
    if (t->dtype == FT_BOOL) {
        ft_error(L->ctx, at->loc, "cannot subtract from '%s', whose type is bool", t->name);
        return NULL;
    }
    return ast_cast(L->ctx, v->loc, t->dtype, v);
}

/* `x = e`, `x += e`, `x -= e`, `x *= e`; `x = max(x, e)` is a reduction. */
static ast_stmt *lower_assign(lw *L, const pt_node *n)
{
    if (n->kids[0]->kind == PT_TUPLE) {
        ft_error(L->ctx, n->loc, "tuple assignment is only allowed in schedules");
        return NULL;
    }
    ast_expr **idx;
    int k;
    lw_sym *t = lower_target(L, n->kids[0], &idx, &k);
    ast_expr *v = lower_expr(L, n->kids[1]);
    if (!t || !v || !check_store_type(L, n->kids[1], t, v))
        return NULL;
    switch (n->op) {
    case PT_OP_ADD: return ast_reduce(L->ctx, n->loc, AST_RED_ADD, t->ast_name, k, idx, v);
    case PT_OP_SUB:
        if (!(v = subtrahend(L, n->kids[1], t, v)))
            return NULL;
        return ast_reduce(L->ctx, n->loc, AST_RED_ADD, t->ast_name, k, idx,
                          negate(L, v->loc, v));
    case PT_OP_MUL: return ast_reduce(L->ctx, n->loc, AST_RED_MUL, t->ast_name, k, idx, v);
    default: break;
    }
    if (v->kind == AST_BINARY && (v->u.bin.op == AST_MIN || v->u.bin.op == AST_MAX)) {
        ast_reduce_op op = v->u.bin.op == AST_MIN ? AST_RED_MIN : AST_RED_MAX;
        if (same_access(v->u.bin.a, t->ast_name, k, idx))
            return ast_reduce(L->ctx, n->loc, op, t->ast_name, k, idx, v->u.bin.b);
        if (same_access(v->u.bin.b, t->ast_name, k, idx))
            return ast_reduce(L->ctx, n->loc, op, t->ast_name, k, idx, v->u.bin.a);
    }
    return ast_store(L->ctx, n->loc, t->ast_name, k, idx, v);
}

/* `for i in range(...)`: 1 to 3 integer arguments, a non-zero step. */
static ast_stmt *lower_for(lw *L, const pt_node *n)
{
    const pt_node *r = n->kids[0];
    if (r->kind != PT_CALL || r->kids[0]->kind != PT_NAME ||
        strcmp(r->kids[0]->name, "range") != 0) {
        ft_error(L->ctx, r->loc, "a for loop iterates over range(...) only");
        return NULL;
    }
    int nargs = r->nkids - 1;
    if (nargs < 1 || nargs > 3) {
        ft_error(L->ctx, r->loc, "range() takes 1 to 3 arguments, but %d %s given", nargs,
                 nargs == 1 ? "was" : "were");
        return NULL;
    }
    ast_expr *a[3] = {0};
    int ok = 1;
    for (int i = 0; i < nargs; i++) {
        if (r->kids[i + 1]->kind == PT_KWARG) {
            ft_error(L->ctx, r->kids[i + 1]->loc, "range() takes no keyword arguments");
            return NULL;
        }
        if (!(a[i] = lower_int_expr(L, r->kids[i + 1], "a range() argument")))
            ok = 0;
    }
    if (!ok)
        return NULL;
    ast_expr *begin = nargs == 1 ? ast_int(L->ctx, r->loc, 0) : a[0];
    ast_expr *end = nargs == 1 ? a[0] : a[1];
    ast_expr *step = nargs == 3 ? a[2] : ast_int(L->ctx, r->loc, 1);
    if (step->kind == AST_INT && step->u.ival == 0) {
        ft_error(L->ctx, r->kids[3]->loc, "range() step must not be zero");
        return NULL;
    }
    lw_sym *mark = push_scope(L);
    lw_sym *it = declare(L, SYM_ITER, n->name, n->loc);
    ast_stmt *body = lower_block_from(L, n->kids[1], 0);
    pop_scope(L, mark);
    if (!it || !body)
        return NULL;
    return ast_for(L->ctx, n->loc, it->ast_name, begin, end, step, body);
}

/* A nested block in a scope of its own. */
static ast_stmt *lower_scoped_block(lw *L, const pt_node *block)
{
    lw_sym *mark = push_scope(L);
    ast_stmt *s = lower_block_from(L, block, 0);
    pop_scope(L, mark);
    return s;
}

static ast_stmt *lower_if(lw *L, const pt_node *n)
{
    ast_expr *c = lower_expr(L, n->kids[0]);
    ast_stmt *then = lower_scoped_block(L, n->kids[1]);
    ast_stmt *other = NULL;
    const pt_node *o = n->nkids > 2 ? n->kids[2] : NULL;
    if (o)
        other = o->kind == PT_IF ? lower_if(L, o) : lower_scoped_block(L, o);
    if (!c || !then || (o && !other))
        return NULL;
    return ast_if(L->ctx, n->loc, as_bool(L, c), then, other);
}

/* An expression statement: only calls have an effect. */
static ast_stmt *lower_exprstmt(lw *L, const pt_node *n)
{
    const pt_node *e = n->kids[0];
    if (e->kind != PT_CALL) {
        ft_error(L->ctx, e->loc, "this expression has no effect");
        return NULL;
    }
    ast_expr *v = lower_expr(L, e);
    if (v)
        ft_error(L->ctx, e->loc, "the result of this call is not used");
    return NULL;
}

static ast_stmt *lower_stmt(lw *L, const pt_node *n);

/* `L: stmt`: labels are unique within a function. */
static ast_stmt *lower_labeled(lw *L, const pt_node *n)
{
    for (int i = 0; i < L->labels.len; i++)
        if (strcmp(L->labels.items[i], n->name) == 0) {
            ft_error(L->ctx, n->loc, "label '%s' is already used in this function", n->name);
            return NULL;
        }
    ft_vec_push(L->ctx, &L->labels, (void *)n->name);
    ast_stmt *s = lower_stmt(L, n->kids[0]);
    if (s)
        s->label = n->name;
    return s;
}

/* A statement other than `var`; NULL after an error (or for `pass`, which
 * returns an empty sequence). */
static ast_stmt *lower_stmt(lw *L, const pt_node *n)
{
    switch (n->kind) {
    case PT_ASSIGN: return lower_assign(L, n);
    case PT_FOR: return lower_for(L, n);
    case PT_IF: return lower_if(L, n);
    case PT_ASSERT: {
        ast_expr *c = lower_expr(L, n->kids[0]);
        return c ? ast_assert(L->ctx, n->loc, as_bool(L, c)) : NULL;
    }
    case PT_PASS: return ast_seq(L->ctx, n->loc, 0, NULL);
    case PT_EXPRSTMT: return lower_exprstmt(L, n);
    case PT_LABELED: return lower_labeled(L, n);
    case PT_RETURN:
        ft_error(L->ctx, n->loc, "an exported function returns through its `out` "
                 "parameters; `return` is for inline functions");
        return NULL;
    case PT_VAR:
        ft_error(L->ctx, n->loc, "a labelled `var` is not allowed; label a loop or a statement");
        return NULL;
    default:
        ft_error(L->ctx, n->loc, "this is not a statement");
        return NULL;
    }
}

/* A dimension list of a type, as integer expressions; NULL after errors. */
static ast_expr **lower_dims(lw *L, const pt_node *dims, const char *of)
{
    int ok = 1;
    ast_expr **shape = ft_alloc(L->ctx, sizeof *shape * (size_t)(dims->nkids + 1));
    for (int i = 0; i < dims->nkids; i++)
        if (!(shape[i] = lower_int_expr(L, dims->kids[i],
                                        ft_fmt(L->ctx, "a dimension of '%s'", of))))
            ok = 0;
    return ok ? shape : NULL;
}

/* The dtype named by a PT_TYPE, or -1 after an error. */
static int type_dtype(lw *L, const pt_node *type)
{
    int dt = ft_dtype_from_name(type->name);
    if (dt < 0)
        ft_error(L->ctx, type->loc, "unknown dtype '%s' (use f32, f64, i32, i64, bool, f16%s)",
                 type->name, strcmp(type->name, "size") == 0 ? "; `size` is for parameters" : "");
    return dt;
}

/* The memory type of a PT_TYPE (cpu when absent), or -1 after an error. */
static int type_mtype(lw *L, const pt_node *type)
{
    const pt_node *m = type->nkids > 1 ? type->kids[1] : NULL;
    if (!m)
        return FT_MT_CPU;
    int mt = ft_mtype_from_name(m->name);
    if (mt < 0)
        ft_error(L->ctx, m->loc, "unknown memory type '%s' (use cpu, gpu, gpu/shared, "
                 "gpu/local)", m->name);
    return mt;
}

/* first followed by rest, as one flat sequence (so that printing the
 * program and parsing it back gives the same tree). */
static ast_stmt *prepend(lw *L, ast_stmt *first, ast_stmt *rest)
{
    if (rest->kind != AST_SEQ || rest->label) {
        ast_stmt *both[2] = {first, rest};
        return ast_seq(L->ctx, first->loc, 2, both);
    }
    ft_vec all = {0};
    ft_vec_push(L->ctx, &all, first);
    for (int i = 0; i < rest->u.seq.n; i++)
        ft_vec_push(L->ctx, &all, rest->u.seq.stmts[i]);
    return ast_seq(L->ctx, rest->loc, all.len, (ast_stmt **)all.items);
}

/* `var x: T [= e]` or `var x = e`, scoping over the rest of the block. */
static ast_stmt *lower_var(lw *L, const pt_node *n, const pt_node *block, int next)
{
    const pt_node *type = n->kids[0], *init = n->nkids > 1 ? n->kids[1] : NULL;
    ast_expr *v = init ? lower_expr(L, init) : NULL;
    int dt = -1, mt = FT_MT_CPU, ndim = 0;
    ast_expr **shape = NULL;
    if (type) {
        dt = type_dtype(L, type);
        mt = type_mtype(L, type);
        const pt_node *dims = type->nkids > 0 ? type->kids[0] : NULL;
        if (dims) {
            ndim = dims->nkids;
            shape = lower_dims(L, dims, n->name);
        }
    } else if (v) {
        dt = v->dtype;
        if (is_literal(v))
            dt = v->kind == AST_INT ? FT_I64 : FT_F32;
    }
    lw_sym *s = declare(L, SYM_TENSOR, n->name, n->loc);
    if (s) {   /* set before the rest is lowered, which uses it */
        s->dtype = dt < 0 ? FT_F32 : (ft_dtype)dt;
        s->ndim = ndim;
        s->shape = shape;
        s->access = FT_ACC_CACHE;
    }
    ast_stmt *rest = lower_block_from(L, block, next);
    if (!s || dt < 0 || mt < 0 || (ndim && !shape) || (init && !v) || !rest)
        return NULL;
    if (init && ndim > 0) {
        ft_unsupported(L->ctx, init->loc,
                       "initialising a tensor with a value (tensor-level programming)");
        return NULL;
    }
    if (init) {
        if (!check_store_type(L, init, s, v))
            return NULL;
        ast_stmt *st = ast_store(L->ctx, n->loc, s->ast_name, 0, NULL, v);
        rest = prepend(L, st, rest);
    }
    return ast_vardef(L->ctx, n->loc, s->ast_name, (ft_dtype)dt, ndim, shape, FT_ACC_CACHE,
                      (ft_mtype)mt, rest);
}

/* Lower block->kids[from..] into one sequence.  A `var` takes the rest of
 * the block as its body.  Returns NULL when any statement failed (errors
 * are reported, and the remaining statements are still checked). */
static ast_stmt *lower_block_from(lw *L, const pt_node *block, int from)
{
    ft_vec out = {0};
    int ok = 1;
    for (int i = from; i < block->nkids; i++) {
        const pt_node *k = block->kids[i];
        if (k->kind == PT_VAR) {
            lw_sym *before = L->syms;
            ast_stmt *def = lower_var(L, k, block, i + 1);
            L->syms = before;   /* the var's scope ended with the block */
            if (!def)
                ok = 0;
            else
                ft_vec_push(L->ctx, &out, def);
            break;
        }
        ast_stmt *s = lower_stmt(L, k);
        if (!s)
            ok = 0;
        else
            ft_vec_push(L->ctx, &out, s);
    }
    if (!ok)
        return NULL;
    if (out.len == 1)
        return out.items[0];
    return ast_seq(L->ctx, block->loc, out.len, (ast_stmt **)out.items);
}

/* ------------------------------------------------------------ functions */

/* Declare one parameter of an exported function into p. */
static int lower_param(lw *L, const pt_node *n, ast_param *p)
{
    const pt_node *type = n->kids[0];
    p->name = n->name;
    p->loc = n->loc;
    if (!type) {
        ft_error(L->ctx, n->loc, "parameter '%s' of an exported function needs a type, "
                 "e.g. `%s: f32[n] in` or `%s: size`", n->name, n->name, n->name);
        return 0;
    }
    if (strcmp(type->name, "size") == 0) {
        if (type->nkids > 0 && type->kids[0]) {
            ft_error(L->ctx, type->loc, "a size is a scalar: it has no dimensions");
            return 0;
        }
        if (n->op != PT_ACC_NONE && n->op != PT_ACC_IN) {
            ft_error(L->ctx, n->loc, "a size parameter is always an input");
            return 0;
        }
        p->is_size = 1;
        p->dtype = FT_I64;
        lw_sym *s = declare(L, SYM_SIZE, n->name, n->loc);
        return s && (p->name = s->ast_name);
    }
    int dt = type_dtype(L, type), mt = type_mtype(L, type);
    if (n->op == PT_ACC_NONE) {
        ft_error(L->ctx, n->loc, "parameter '%s' needs an access: in, out or inout", n->name);
        return 0;
    }
    lw_sym *s = declare(L, SYM_TENSOR, n->name, n->loc);
    if (dt < 0 || mt < 0 || !s)
        return 0;
    p->dtype = s->dtype = (ft_dtype)dt;
    p->mtype = (ft_mtype)mt;
    p->access = s->access = n->op == PT_ACC_IN ? FT_ACC_IN
                          : n->op == PT_ACC_OUT ? FT_ACC_OUT : FT_ACC_INOUT;
    return 1;
}

/* Shapes of tensor parameters may use any size parameter, so they are
 * lowered after every parameter is declared. */
static int lower_param_shapes(lw *L, const pt_node *params, ast_param *ps)
{
    int ok = 1;
    for (int i = 0; i < params->nkids; i++) {
        const pt_node *type = params->kids[i]->kids[0];
        if (ps[i].is_size || !type || type->nkids == 0 || !type->kids[0])
            continue;
        const pt_node *dims = type->kids[0];
        for (int d = 0; d < dims->nkids; d++)
            if (dims->kids[d]->kind == PT_INDEX || dims->kids[d]->kind == PT_CALL) {
                ft_error(L->ctx, dims->kids[d]->loc, "a parameter's shape may use only "
                         "sizes and constants");
                return 0;
            }
        L->shape_of = ps[i].name;
        ast_expr **shape = lower_dims(L, dims, ps[i].name);
        L->shape_of = NULL;
        if (!shape) {
            ok = 0;
            continue;
        }
        lw_sym *s = lookup(L, ps[i].name);
        ps[i].ndim = s->ndim = dims->nkids;
        ps[i].shape = s->shape = shape;
    }
    return ok;
}

/* Lower one exported function. */
static ast_func *lower_func(lw *L, const pt_node *fn)
{
    const pt_node *params = fn->kids[0];
    L->labels = (ft_vec){0};
    lw_sym *mark = push_scope(L);
    ast_param *ps = ft_alloc(L->ctx, sizeof *ps * (size_t)(params->nkids + 1));
    int ok = 1;
    for (int i = 0; i < params->nkids; i++)
        ok &= lower_param(L, params->kids[i], &ps[i]);
    ok = ok && lower_param_shapes(L, params, ps);
    ast_stmt *body = ok ? lower_scoped_block(L, fn->kids[1]) : NULL;
    pop_scope(L, mark);
    if (!body)
        return NULL;
    ast_func *f = ft_alloc(L->ctx, sizeof *f);
    f->name = fn->name;
    f->nparams = params->nkids;
    f->params = ps;
    f->body = body;
    f->loc = fn->loc;
    return f;
}

/* The -D override for name, if any (marking it used). */
static int find_define(lw *L, const char *name, int64_t *v, char *used)
{
    for (int i = 0; i < L->ctx->opts.ndefines; i++)
        if (strcmp(L->ctx->opts.define_names[i], name) == 0) {
            *v = L->ctx->opts.define_values[i];
            used[i] = 1;
            return 1;
        }
    return 0;
}

/* `const NAME = expr`: a compile-time number, or the -D value. */
static void lower_const(lw *L, const pt_node *n, char *used)
{
    int64_t dv;
    ast_expr *v;
    if (find_define(L, n->name, &dv, used)) {
        v = ast_int(L->ctx, n->loc, dv);
    } else {
        L->const_name = n->name;
        v = lower_expr(L, n->kids[0]);
        L->const_name = NULL;
        if (v && !is_literal(v)) {
            ft_error(L->ctx, n->kids[0]->loc, "the value of const '%s' must be a compile-time "
                     "number", n->name);
            v = NULL;
        }
        if (!v)   /* declared anyway, so its uses raise no further errors */
            v = ast_int(L->ctx, n->loc, 0);
    }
    lw_sym *s = declare(L, SYM_CONST, n->name, n->loc);
    if (s)
        s->value = v;
}

/* Check every -D names a const of the file. */
static void check_defines_used(lw *L, const char *used)
{
    for (int i = 0; i < L->ctx->opts.ndefines; i++)
        if (!used[i])
            ft_error(L->ctx, (ft_loc){0}, "-D %s: the program has no `const %s`",
                     L->ctx->opts.define_names[i], L->ctx->opts.define_names[i]);
}

ast_program *fe_lower(ft_ctx *ctx, const pt_node *file)
{
    lw L = {.ctx = ctx};
    int errors_before = ctx->nerrors;
    char *used = ft_alloc(ctx, (size_t)ctx->opts.ndefines + 1);
    ft_vec funcs = {0};
    /* declarations first, so functions may use constants defined later */
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k->kind == PT_CONST)
            lower_const(&L, k, used);
        else if (k->kind == PT_FUNC) {
            lw_sym *s = declare(&L, SYM_FUNC, k->name, k->loc);
            if (s)
                s->node = k;
        }
    }
    check_defines_used(&L, used);
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k->kind == PT_FUNC && k->ival) {
            ast_func *f = lower_func(&L, k);
            if (f)
                ft_vec_push(ctx, &funcs, f);
        } else if (k->kind == PT_GRAD) {
            ft_unsupported(ctx, k->loc, "`grad` (automatic differentiation)");
        }
    }
    if (ctx->nerrors > errors_before)
        return NULL;
    ast_program *p = ft_alloc(ctx, sizeof *p);
    p->nfuncs = funcs.len;
    p->funcs = (ast_func **)funcs.items;
    return p;
}
