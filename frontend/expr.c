/* expr.c - expressions of the lowering: names, operators, builtins,
 * intrinsics and compile-time values.
 *
 * Every expression lowers to an lw_val (lw.h).  Operators on scalars build
 * AST expressions; on tensors they build lazy element-wise maps; on
 * compile-time values (dtypes, lists, None) they are evaluated now, which
 * is what partial evaluation of `if x.ndim == 0:` needs.
 */
#include "lw.h"

#include <string.h>

/* -------------------------------------------------------------- helpers */

static lw_val *make_val(lw *L, lw_vkind k)
{
    lw_val *v = ft_alloc(L->ctx, sizeof *v);
    v->kind = k;
    return v;
}

static lw_val *int_val(lw *L, ft_loc loc, int64_t x)
{
    return lw_scalar_val(L, ast_int(L->ctx, loc, x));
}

/* A 0-D tensor read as a scalar; any other value as it is. */
static lw_val *scalarize(lw *L, lw_val *v, ft_loc loc)
{
    if (v && v->kind == V_TENSOR && v->t->ndim == 0)
        return lw_scalar_val(L, lw_elem(L, v->t, NULL));
    (void)loc;
    return v;
}

/* A copy of a compile-time value with fresh AST nodes (literals are
 * retyped where they are used, so they must not be shared). */
static lw_val *fresh_copy(lw *L, lw_val *v)
{
    if (v->kind == V_SCALAR)
        return lw_scalar_val(L, ast_clone_expr(L->ctx, v->scalar));
    if (v->kind != V_LIST)
        return v;
    lw_val *c = make_val(L, V_LIST);
    c->n = v->n;
    c->items = ft_alloc(L->ctx, sizeof *c->items * (size_t)(v->n + 1));
    for (int i = 0; i < v->n; i++)
        c->items[i] = fresh_copy(L, v->items[i]);
    return c;
}

int lw_const_bool(const lw_val *v)
{
    if (!v || v->kind != V_SCALAR)
        return -1;
    if (v->scalar->kind == AST_BOOLC || v->scalar->kind == AST_INT)
        return v->scalar->u.ival != 0;
    return -1;
}

/* Whether a tensor appears in the shape being lowered (refused). */
static int tensor_in_shape(lw *L, const pt_node *name)
{
    if (!L->shape_of)
        return 0;
    ft_error(L->ctx, name->loc, "a parameter's shape may use only sizes and constants, "
             "not the tensor '%s'", name->name);
    return 1;
}

/* ---------------------------------------------------------------- names */

static lw_val *lower_name(lw *L, const pt_node *n)
{
    lw_sym *s = lw_lookup(L, n->name, n->loc);
    if (!s) {
        int dt = ft_dtype_from_name(n->name);
        if (dt >= 0) {
            lw_val *v = make_val(L, V_DTYPE);
            v->dtype = (ft_dtype)dt;
            return v;
        }
        if (L->shape_of)
            ft_error(L->ctx, n->loc, "unknown size '%s' in the shape of '%s': a shape uses "
                     "`size` parameters and constants", n->name, L->shape_of);
        else if (L->const_name)
            ft_error(L->ctx, n->loc, "the value of const '%s' must be known at compile "
                     "time, but '%s' is not a constant", L->const_name, n->name);
        else
            ft_error(L->ctx, n->loc, "unknown variable '%s'", n->name);
        return NULL;
    }
    switch (s->kind) {
    case SYM_CONST:
    case SYM_VALUE:   /* NULL: a `var` whose value was an error, already reported */
        return s->value ? fresh_copy(L, s->value) : NULL;
    case SYM_SIZE:
    case SYM_ITER: return lw_scalar_val(L, ast_var(L->ctx, n->loc, s->ast_name));
    case SYM_TENSOR:
        return tensor_in_shape(L, n) ? NULL : lw_view_of(L, s, 1);
    case SYM_FUNC:
        ft_error(L->ctx, n->loc, "'%s' is a function; call it with (...)", n->name);
        return NULL;
    }
    return NULL;
}

/* Check an index is an integer; report and return 0 otherwise. */
ast_expr *lw_int_expr(lw *L, const pt_node *n, const char *what)
{
    ast_expr *e = lw_scalar_expr(L, n);
    if (!e)
        return NULL;
    if (!ft_dtype_is_int(e->dtype)) {
        ft_error(L->ctx, n->loc, "%s must be an integer, but this is %s%s", what,
                 ft_dtype_name(e->dtype),
                 ft_dtype_is_float(e->dtype) ? " (convert it with i64(...))" : "");
        return NULL;
    }
    if (e->kind == AST_INT)
        e->dtype = FT_I64;
    return e;
}

ast_expr *lw_scalar_expr(lw *L, const pt_node *n)
{
    lw_val *v = lw_expr(L, n);
    return v ? lw_to_scalar(L, v, n->loc) : NULL;
}

/* `a[i, 1:3]`: a list element, a sub-tensor (a view), or an element. */
static lw_val *lower_index(lw *L, const pt_node *n)
{
    const pt_node *base = n->kids[0];
    if (base->kind == PT_NAME) {
        lw_sym *s = lw_lookup(L, base->name, base->loc);
        if (s && (s->kind == SYM_SIZE || s->kind == SYM_ITER)) {
            ft_error(L->ctx, base->loc, "'%s' is a %s, not a tensor: it cannot be indexed",
                     base->name, s->kind == SYM_SIZE ? "size" : "loop iterator");
            return NULL;
        }
    }
    lw_val *v = lw_expr(L, base);
    if (!v)
        return NULL;
    if (v->kind == V_LIST) {
        ast_expr *k = n->nkids == 2 ? lw_scalar_expr(L, n->kids[1]) : NULL;
        int64_t i;
        if (!k || !lw_const_int(k, &i) || i < -v->n || i >= v->n) {
            ft_error(L->ctx, n->loc, "a list is indexed by one constant within its length %d",
                     v->n);
            return NULL;
        }
        return v->items[i < 0 ? i + v->n : i];
    }
    if (v->kind != V_TENSOR) {
        ft_error(L->ctx, base->loc, "this is not a tensor: it cannot be indexed");
        return NULL;
    }
    return lw_index(L, v, n->nkids - 1, (const pt_node *const *)n->kids + 1, n->loc);
}

/* ------------------------------------------------------------ operators */

static ast_binop binop_of(int op)
{
    static const ast_binop map[] = {
        [PT_OP_ADD] = AST_ADD, [PT_OP_SUB] = AST_SUB, [PT_OP_MUL] = AST_MUL,
        [PT_OP_DIV] = AST_DIV, [PT_OP_FLOORDIV] = AST_FLOORDIV, [PT_OP_MOD] = AST_MOD,
        [PT_OP_POW] = AST_POW, [PT_OP_LT] = AST_LT, [PT_OP_LE] = AST_LE,
        [PT_OP_GT] = AST_GT, [PT_OP_GE] = AST_GE, [PT_OP_EQ] = AST_EQ,
        [PT_OP_NE] = AST_NE, [PT_OP_AND] = AST_AND, [PT_OP_OR] = AST_OR};
    return map[op];
}

/* Equality of two compile-time values (-1: not comparable now). */
static int const_equal(const lw_val *a, const lw_val *b)
{
    if (a->kind != b->kind)
        return a->kind == V_NONE || b->kind == V_NONE || a->kind == V_DTYPE ||
                       b->kind == V_DTYPE ? 0 : -1;
    switch (a->kind) {
    case V_NONE: return 1;
    case V_DTYPE: return a->dtype == b->dtype;
    case V_STRING: return strcmp(a->str, b->str) == 0;
    case V_LIST:
        if (a->n != b->n)
            return 0;
        for (int i = 0; i < a->n; i++) {
            int e = const_equal(a->items[i], b->items[i]);
            if (e != 1)
                return e;
        }
        return 1;
    case V_SCALAR:
        if (lw_is_literal(a->scalar) && lw_is_literal(b->scalar))
            return ast_expr_equal(a->scalar, b->scalar) ||
                   (a->scalar->kind == AST_INT && b->scalar->kind == AST_INT &&
                    a->scalar->u.ival == b->scalar->u.ival);
        return -1;
    default: return -1;
    }
}

/* An operator on two values. */
static lw_val *apply_binary(lw *L, ft_loc loc, ast_binop op, lw_val *a, lw_val *b)
{
    int compile_time = (a->kind != V_SCALAR && a->kind != V_TENSOR) ||
                       (b->kind != V_SCALAR && b->kind != V_TENSOR);
    if (compile_time) {
        int eq = const_equal(a, b);
        if ((op == AST_EQ || op == AST_NE) && eq >= 0)
            return lw_scalar_val(L, ast_boolc(L->ctx, loc, op == AST_EQ ? eq : !eq));
        ft_error(L->ctx, loc, "'%s' cannot be applied to these values", ast_binop_text(op));
        return NULL;
    }
    a = scalarize(L, a, loc);
    b = scalarize(L, b, loc);
    if (a->kind == V_SCALAR && b->kind == V_SCALAR) {
        ast_expr *e = lw_binary(L, loc, op, a->scalar, b->scalar);
        return e ? lw_scalar_val(L, e) : NULL;
    }
    lw_val *args[2] = {a, b};
    return lw_map(L, loc, M_BIN, op, 2, args);
}

static lw_val *lower_binary(lw *L, const pt_node *n)
{
    lw_val *a = lw_expr(L, n->kids[0]);
    if (!a)
        return NULL;
    /* `and` / `or` of a known condition decide without the other side */
    int ca = lw_const_bool(a);
    if ((n->op == PT_OP_AND && ca == 0) || (n->op == PT_OP_OR && ca == 1))
        return lw_scalar_val(L, ast_boolc(L->ctx, n->loc, ca));
    lw_val *b = lw_expr(L, n->kids[1]);
    return b ? apply_binary(L, n->loc, binop_of(n->op), a, b) : NULL;
}

static lw_val *lower_unary(lw *L, const pt_node *n)
{
    lw_val *a = scalarize(L, lw_expr(L, n->kids[0]), n->loc);
    if (!a || n->op == PT_OP_POS)
        return a;
    if (a->kind == V_TENSOR)
        return lw_map(L, n->loc, n->op == PT_OP_NOT ? M_NOT : M_NEG, 0, 1, &a);
    if (a->kind != V_SCALAR) {
        ft_error(L->ctx, n->loc, "this operator needs a number or a tensor");
        return NULL;
    }
    ast_expr *e = n->op == PT_OP_NOT ? lw_not(L, n->loc, a->scalar)
                                     : lw_negate(L, n->loc, a->scalar);
    return e ? lw_scalar_val(L, e) : NULL;
}

/* Whether `t if c else o` is o whatever the values: the two sides are
 * the same, or c is `t == o` (or `o == t`) on integers of one dtype.  So a
 * broadcast size `1 if n == 1 else n` (or `n if n == 1 else n`) is n, and
 * the shape checks that compare it with n are decided at compile time. */
static int picks_other(const ast_expr *c, const ast_expr *t, const ast_expr *o)
{
    if (t->dtype != o->dtype)
        return 0;
    if (ast_expr_equal(t, o))
        return 1;
    if (c->kind != AST_BINARY || c->u.bin.op != AST_EQ || !ft_dtype_is_int(t->dtype))
        return 0;
    const ast_expr *a = c->u.bin.a, *b = c->u.bin.b;
    return (ast_expr_equal(a, t) && ast_expr_equal(b, o)) ||
           (ast_expr_equal(a, o) && ast_expr_equal(b, t));
}

/* `t if c else o` with c known only at run time and t or o not a number
 * or tensor: in an assert's message (L->in_message), two strings are
 * shown as both choices ("(s)" when one is empty, else "a/b"); else a
 * located error (no value but numbers is chosen at run time). */
static lw_val *runtime_choice(lw *L, const pt_node *n, const lw_val *t, const lw_val *o)
{
    if (L->in_message && t->kind == V_STRING && o->kind == V_STRING) {
        lw_val *v = make_val(L, V_STRING);
        v->str = !*t->str || !*o->str ? ft_fmt(L->ctx, "(%s%s)", t->str, o->str)
                                      : ft_fmt(L->ctx, "%s/%s", t->str, o->str);
        return v;
    }
    ft_error(L->ctx, n->loc, "only numbers and tensors can be chosen by a condition known at "
             "run time");
    return NULL;
}

static lw_val *lower_ifexpr(lw *L, const pt_node *n)
{
    lw_val *c = scalarize(L, lw_expr(L, n->kids[1]), n->loc);
    if (!c)
        return NULL;
    int known = lw_const_bool(c);
    if (known >= 0)          /* partial evaluation: only the chosen side */
        return lw_expr(L, n->kids[known ? 0 : 2]);
    lw_val *t = scalarize(L, lw_expr(L, n->kids[0]), n->loc);
    lw_val *o = scalarize(L, lw_expr(L, n->kids[2]), n->loc);
    if (!t || !o)
        return NULL;
    if ((t->kind != V_SCALAR && t->kind != V_TENSOR) || (o->kind != V_SCALAR && o->kind != V_TENSOR))
        return runtime_choice(L, n, t, o);
    if (c->kind == V_SCALAR && t->kind == V_SCALAR && o->kind == V_SCALAR) {
        lw_weaken_pair(t->scalar, o->scalar);
        if (picks_other(c->scalar, t->scalar, o->scalar))
            return o;
        return lw_scalar_val(L, ast_ifexpr(L->ctx, n->loc, lw_as_bool(L, c->scalar),
                                           t->scalar, o->scalar));
    }
    lw_val *args[3] = {c, t, o};
    return lw_map(L, n->loc, M_IFE, 0, 3, args);
}

/* ---------------------------------------------------------------- calls */

/* Lower the positional arguments of a call (no keywords allowed). */
static lw_val **positional_args(lw *L, const pt_node *call, const char *name, int min,
                                int max)
{
    int n = call->nkids - 1;
    for (int i = 1; i < call->nkids; i++)
        if (call->kids[i]->kind == PT_KWARG) {
            ft_error(L->ctx, call->kids[i]->loc, "%s() takes no keyword arguments", name);
            return NULL;
        }
    if (n < min || n > max) {
        if (min == max)
            ft_error(L->ctx, call->loc, "%s() takes %d argument%s, but %d %s given", name,
                     min, min == 1 ? "" : "s", n, n == 1 ? "was" : "were");
        else
            ft_error(L->ctx, call->loc, "%s() takes %d to %d arguments, but %d %s given",
                     name, min, max, n, n == 1 ? "was" : "were");
        return NULL;
    }
    lw_val **args = ft_alloc(L->ctx, sizeof *args * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        if (!(args[i] = scalarize(L, lw_expr(L, call->kids[i + 1]), call->loc)))
            return NULL;
    return args;
}

/* A value that must be a number or a tensor. */
static int numeric(lw *L, const lw_val *v, ft_loc loc)
{
    if (v->kind == V_SCALAR || v->kind == V_TENSOR)
        return 1;
    ft_error(L->ctx, loc, "expected a number or a tensor here");
    return 0;
}

/* abs(x), sqrt(x), ... on a scalar or element-wise on a tensor. */
static lw_val *call_builtin(lw *L, const pt_node *call, ast_builtin f)
{
    lw_val **a = positional_args(L, call, ast_builtin_name(f), 1, 1);
    if (!a || !numeric(L, a[0], call->loc))
        return NULL;
    if (a[0]->kind == V_TENSOR)
        return lw_map(L, call->loc, M_CALL, f, 1, a);
    ast_expr *e = lw_builtin(L, call->loc, f, a[0]->scalar);
    return e ? lw_scalar_val(L, e) : NULL;
}

/* The stdlib function `name` (a global), or NULL after an error. */
static lw_sym *stdlib_func(lw *L, const char *name, ft_loc loc)
{
    for (lw_sym *s = L->globals; s; s = s->next)
        if (s->kind == SYM_FUNC && strcmp(s->name, name) == 0 && s->depth != LW_PROGRAM_FILE)
            return s;
    ft_error(L->ctx, loc, "the standard library has no '%s'", name);
    return NULL;
}

/* a @ b: the call matmul(a, b) of the standard library (PyTorch's rank
 * rules and shape checks live there), even where the program defines its
 * own matmul, as `a + b` is always addition.  The call is located at the
 * `@`, so a failed check points at the operator. */
static lw_val *lower_matmul(lw *L, const pt_node *n)
{
    lw_sym *f = stdlib_func(L, "matmul", n->loc);
    if (!f)
        return NULL;
    pt_node *callee = pt_new(L->ctx, PT_NAME, n->loc);
    callee->name = "matmul";
    return lw_call_func(L, f, pt_new3(L->ctx, PT_CALL, n->loc, callee, n->kids[0], n->kids[1]));
}

/* min/max: of several values element-wise, or of one tensor (a
 * reduction by the stdlib's reduce_min/reduce_max). */
static lw_val *call_minmax(lw *L, const pt_node *call, ast_binop op)
{
    int npos = 0;
    for (int i = 1; i < call->nkids; i++)
        npos += call->kids[i]->kind != PT_KWARG;
    if (npos <= 1) {
        lw_sym *f = stdlib_func(L, op == AST_MIN ? "reduce_min" : "reduce_max", call->loc);
        return f ? lw_call_func(L, f, call) : NULL;
    }
    lw_val **a = positional_args(L, call, ast_binop_text(op), 2, call->nkids - 1);
    if (!a)
        return NULL;
    lw_val *acc = a[0];
    for (int i = 1; i < call->nkids - 1 && acc; i++)
        acc = numeric(L, a[i], call->loc) ? apply_binary(L, call->loc, op, acc, a[i]) : NULL;
    return acc;
}

/* A conversion of a scalar; of a literal, folded into a literal. */
static ast_expr *cast_scalar(lw *L, ft_loc loc, ft_dtype t, ast_expr *e)
{
    ast_expr *c = ast_cast(L->ctx, loc, t, e);
    ast_expr *k = lw_fold(L, c);
    return k ? k : c;
}

/* f32(x), i32(x), ...: a conversion. */
static lw_val *call_cast(lw *L, const pt_node *call, ft_dtype t)
{
    lw_val **a = positional_args(L, call, ft_dtype_name(t), 1, 1);
    if (!a || !numeric(L, a[0], call->loc))
        return NULL;
    if (a[0]->kind == V_TENSOR)
        return lw_map(L, call->loc, M_CAST, t, 1, a);
    return lw_scalar_val(L, cast_scalar(L, call->loc, t, a[0]->scalar));
}

/* A compile-time list of integers from an int or a list value. */
static int int_list(lw *L, const lw_val *v, ft_loc loc, int64_t *out, int max)
{
    if (v->kind == V_SCALAR && lw_const_int(v->scalar, out))
        return 1;
    if (v->kind == V_LIST && v->n <= max) {
        for (int i = 0; i < v->n; i++)
            if (v->items[i]->kind != V_SCALAR || !lw_const_int(v->items[i]->scalar, &out[i]))
                goto bad;
        return v->n;
    }
bad:
    ft_error(L->ctx, loc, "expected a constant integer or a list of them");
    return -1;
}

/* A shape list as AST expressions (ints or run-time integers). */
static ast_expr **shape_list(lw *L, const lw_val *v, ft_loc loc, int *n)
{
    int k = v->kind == V_LIST ? v->n : 1;
    ast_expr **shape = ft_alloc(L->ctx, sizeof *shape * (size_t)(k + 1));
    for (int i = 0; i < k; i++) {
        const lw_val *d = v->kind == V_LIST ? v->items[i] : v;
        if (d->kind != V_SCALAR || !ft_dtype_is_int(d->scalar->dtype)) {
            ft_error(L->ctx, loc, "a shape is an integer or a list of integers");
            return NULL;
        }
        shape[i] = ast_clone_expr(L->ctx, d->scalar);
        shape[i]->dtype = d->scalar->kind == AST_INT ? FT_I64 : shape[i]->dtype;
    }
    *n = k;
    return shape;
}

/* empty(shape, dtype=f32): a fresh uninitialised tensor. */
static lw_val *call_empty(lw *L, const pt_node *call)
{
    lw_val *shape = NULL, *dtype = NULL;
    for (int i = 1; i < call->nkids; i++) {
        const pt_node *k = call->kids[i];
        lw_val *v = lw_expr(L, k->kind == PT_KWARG ? k->kids[0] : k);
        if (!v)
            return NULL;
        if (k->kind == PT_KWARG ? strcmp(k->name, "dtype") == 0 : i == 2)
            dtype = v;
        else if (k->kind == PT_KWARG ? strcmp(k->name, "shape") == 0 : i == 1)
            shape = v;
        else {
            ft_error(L->ctx, k->loc, "empty() takes (shape, dtype)");
            return NULL;
        }
    }
    if (!shape || (dtype && dtype->kind != V_DTYPE)) {
        ft_error(L->ctx, call->loc, "empty() takes a shape and a dtype: empty([n, m], f32)");
        return NULL;
    }
    int n;
    ast_expr **dims = shape_list(L, shape, call->loc, &n);
    if (!dims || !lw_check_sizes(L, call->loc, "empty", "the shape", n, dims))
        return NULL;
    return lw_new_tensor(L, "t", dtype ? dtype->dtype : FT_F32, n, dims, call->loc);
}

/* transpose(x, perm=None): a view with its dimensions permuted. */
static lw_val *call_transpose(lw *L, const pt_node *call)
{
    lw_val **a = positional_args(L, call, "transpose", 1, 2);
    if (!a || a[0]->kind != V_TENSOR) {
        if (a)
            ft_error(L->ctx, call->loc, "transpose() takes a tensor");
        return NULL;
    }
    int n = a[0]->t->ndim;
    int64_t p[16];
    int perm[16], seen[16] = {0};
    if (n > 16)
        return ft_unsupported(L->ctx, call->loc, "transposing more than 16 dimensions"), NULL;
    for (int i = 0; i < n; i++)
        p[i] = n - 1 - i;
    int np = call->nkids > 2 ? int_list(L, a[1], call->loc, p, 16) : n;
    if (np < 0)
        return NULL;
    if (np != n) {
        ft_error(L->ctx, call->loc, "transpose: the permutation has %d item%s, the tensor %d "
                 "dimension%s", np, np == 1 ? "" : "s", n, n == 1 ? "" : "s");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (p[i] < -n || p[i] >= n) {
            ft_error(L->ctx, call->loc, "transpose: item %d of the permutation is %lld, out of "
                     "range for %d dimension%s", i, (long long)p[i], n, n == 1 ? "" : "s");
            return NULL;
        }
        perm[i] = (int)(p[i] < 0 ? p[i] + n : p[i]);
        if (seen[perm[i]]++) {
            ft_error(L->ctx, call->loc, "transpose: the permutation names dimension %d twice",
                     perm[i]);
            return NULL;
        }
    }
    return lw_transpose(L, a[0], n, perm, call->loc);
}

/* len(x): a list's length or a tensor's first dimension. */
static lw_val *call_len(lw *L, const pt_node *call)
{
    lw_val **a = positional_args(L, call, "len", 1, 1);
    if (!a)
        return NULL;
    if (a[0]->kind == V_LIST)
        return int_val(L, call->loc, a[0]->n);
    if (a[0]->kind == V_TENSOR && a[0]->t->ndim > 0)
        return lw_scalar_val(L, ast_clone_expr(L->ctx, a[0]->t->shape[0]));
    ft_error(L->ctx, call->loc, "len() takes a list or a tensor of at least 1 dimension");
    return NULL;
}

/* `x.shape(i)`: dimension i (negative: from the end), compile-time. */
static lw_val *call_method(lw *L, const pt_node *call)
{
    const pt_node *attr = call->kids[0];
    if (strcmp(attr->name, "shape") != 0) {
        ft_error(L->ctx, attr->loc, "unknown method '%s'; tensors have .shape(i), .ndim, "
                 ".dtype", attr->name);
        return NULL;
    }
    lw_val *x = lw_expr(L, attr->kids[0]);
    lw_val **a = x ? positional_args(L, call, "shape", 1, 1) : NULL;
    if (!a)
        return NULL;
    int n = lw_val_ndim(x);
    int64_t i;
    if (a[0]->kind != V_SCALAR || !lw_const_int(a[0]->scalar, &i)) {
        ft_error(L->ctx, call->kids[1]->loc, "shape() takes a constant dimension number");
        return NULL;
    }
    if (i < -n || i >= n) {
        ft_error(L->ctx, call->kids[1]->loc, "the tensor has %d dimension%s; there is no "
                 "dimension %lld", n, n == 1 ? "" : "s", (long long)i);
        return NULL;
    }
    return lw_scalar_val(L, ast_clone_expr(L->ctx, x->t->shape[i < 0 ? i + n : i]));
}

static lw_val *lower_call(lw *L, const pt_node *call)
{
    const pt_node *callee = call->kids[0];
    if (callee->kind == PT_ATTR)
        return call_method(L, call);
    if (callee->kind != PT_NAME) {
        ft_error(L->ctx, callee->loc, "this expression cannot be called");
        return NULL;
    }
    const char *name = callee->name;
    lw_sym *s = lw_lookup(L, name, callee->loc);
    if (s && s->kind == SYM_FUNC)
        return lw_call_func(L, s, call);
    if (s) {
        ft_error(L->ctx, callee->loc, "'%s' is not a function", name);
        return NULL;
    }
    int f = ast_builtin_from_name(name), dt = ft_dtype_from_name(name);
    if (f >= 0)
        return call_builtin(L, call, (ast_builtin)f);
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
        return call_minmax(L, call, name[1] == 'i' ? AST_MIN : AST_MAX);
    if (dt >= 0)
        return call_cast(L, call, (ft_dtype)dt);
    if (strcmp(name, "empty") == 0)
        return call_empty(L, call);
    if (strcmp(name, "transpose") == 0)
        return call_transpose(L, call);
    if (strcmp(name, "len") == 0)
        return call_len(L, call);
    if (strcmp(name, "is_list") == 0) {
        lw_val **a = positional_args(L, call, "is_list", 1, 1);
        return a ? lw_scalar_val(L, ast_boolc(L->ctx, call->loc, a[0]->kind == V_LIST)) : NULL;
    }
    if (strcmp(name, "is_const") == 0) {
        /* Whether v is known at compile time: a number, a list, a string,
         * None or a dtype (not a size parameter's expression, not a tensor). */
        lw_val **a = positional_args(L, call, "is_const", 1, 1);
        if (!a)
            return NULL;
        int k = a[0]->kind == V_SCALAR
            ? (a[0]->scalar->kind == AST_INT || a[0]->scalar->kind == AST_FLOAT ||
               a[0]->scalar->kind == AST_BOOLC)
            : a[0]->kind != V_TENSOR;
        return lw_scalar_val(L, ast_boolc(L->ctx, call->loc, k));
    }
    if (strcmp(name, "range") == 0) {
        ft_error(L->ctx, call->loc, "range() is only allowed in a for loop");
        return NULL;
    }
    int handled;
    lw_val *v = lw_intrinsic(L, name, call, &handled);
    if (handled)
        return v;
    ft_error(L->ctx, callee->loc, "unknown function '%s'", name);
    return NULL;
}

/* `x.ndim`, `x.dtype`, `x.layout`. */
static lw_val *lower_attr(lw *L, const pt_node *n)
{
    if (strcmp(n->name, "shape") == 0) {
        ft_error(L->ctx, n->loc, "shape is a method: write .shape(i)");
        return NULL;
    }
    if (strcmp(n->name, "ndim") && strcmp(n->name, "dtype") && strcmp(n->name, "layout")) {
        if (strcmp(n->name, "mtype") == 0)
            ft_unsupported(L->ctx, n->loc, ".mtype in expressions");
        else
            ft_error(L->ctx, n->loc, "unknown attribute '%s'; tensors have .shape(i), .ndim, "
                     ".dtype, .layout", n->name);
        return NULL;
    }
    lw_val *x = lw_expr(L, n->kids[0]);
    if (!x || !numeric(L, x, n->loc))
        return NULL;
    if (n->name[0] == 'n')
        return int_val(L, n->loc, lw_val_ndim(x));
    if (n->name[0] == 'l') {
        lw_val *v = make_val(L, V_STRING);
        v->str = lw_val_layout(x);
        return v;
    }
    lw_val *v = make_val(L, V_DTYPE);
    v->dtype = lw_val_dtype(x);
    return v;
}

static lw_val *lower_list(lw *L, const pt_node *n)
{
    lw_val *v = make_val(L, V_LIST);
    v->n = n->nkids;
    v->items = ft_alloc(L->ctx, sizeof *v->items * (size_t)(n->nkids + 1));
    for (int i = 0; i < n->nkids; i++)
        if (!(v->items[i] = scalarize(L, lw_expr(L, n->kids[i]), n->loc)))
            return NULL;
    return v;
}

/* Lower an expression node of any kind; NULL after reporting an error. */
static lw_val *lower_node(lw *L, const pt_node *n)
{
    switch (n->kind) {
    case PT_INT: return int_val(L, n->loc, n->ival);
    case PT_FLOAT: return lw_scalar_val(L, ast_float(L->ctx, n->loc, n->fval, FT_F32));
    case PT_BOOL: return lw_scalar_val(L, ast_boolc(L->ctx, n->loc, (int)n->ival));
    case PT_NONE: return make_val(L, V_NONE);
    case PT_STRING: {
        lw_val *v = make_val(L, V_STRING);
        v->str = n->str;
        return v;
    }
    case PT_LIST: return lower_list(L, n);
    case PT_NAME: return lower_name(L, n);
    case PT_INDEX: return lower_index(L, n);
    case PT_BINARY: return n->op == PT_OP_MATMUL ? lower_matmul(L, n) : lower_binary(L, n);
    case PT_UNARY: return lower_unary(L, n);
    case PT_CALL: return lower_call(L, n);
    case PT_ATTR: return lower_attr(L, n);
    case PT_IFEXPR: return lower_ifexpr(L, n);
    default:
        ft_error(L->ctx, n->loc, "this is not allowed in an expression");
        return NULL;
    }
}

/* Deepest expression accepted: every pass after this one recurses over
 * expressions, and a long chain `a + b + c + ...` nests without brackets. */
#define MAX_EXPR_DEPTH 1000

lw_val *lw_expr(lw *L, const pt_node *n)
{
    if (L->expr_depth >= MAX_EXPR_DEPTH) {
        if (!L->too_deep)
            ft_error(L->ctx, n->loc, "expression nested too deeply (more than %d levels); "
                     "split it with a local variable", MAX_EXPR_DEPTH);
        L->too_deep = 1;
        return NULL;
    }
    L->expr_depth++;
    lw_val *v = lower_node(L, n);
    if (--L->expr_depth == 0)
        L->too_deep = 0;
    return v;
}
