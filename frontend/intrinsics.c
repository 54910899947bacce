/* intrinsics.c - tensor operators built into the compiler rather than
 * written in the stdlib: they need what .ft cannot say (parsing an einsum
 * string, a list of tensors, index arithmetic across a reshape). */
#include "lw.h"
#include "layout.h"

#include <string.h>

/* The positional arguments and the `axis=` keyword of a call. */
typedef struct args {
    int n;
    lw_val *v[16];
    lw_val *axis;
} args;

static int get_args(lw *L, const pt_node *call, const char *name, args *a)
{
    a->n = 0;
    a->axis = NULL;
    for (int i = 1; i < call->nkids; i++) {
        const pt_node *k = call->kids[i];
        lw_val *v = lw_expr(L, k->kind == PT_KWARG ? k->kids[0] : k);
        if (!v)
            return 0;
        if (k->kind == PT_KWARG && strcmp(k->name, "axis") == 0)
            a->axis = v;
        else if (k->kind == PT_KWARG || a->n == 16) {
            ft_error(L->ctx, k->loc, "%s(): unexpected argument", name);
            return 0;
        } else
            a->v[a->n++] = v;
    }
    return 1;
}

/* The product of the first n dims of shape (1 for none). */
static ast_expr *product(lw *L, int n, ast_expr **shape, ft_loc loc)
{
    ast_expr *p = ast_int(L->ctx, loc, 1);
    for (int i = 0; i < n; i++)
        p = lw_binary(L, loc, AST_MUL, p, ast_clone_expr(L->ctx, shape[i]));
    return p;
}

/* ------------------------------------------------------------- reshape */

typedef struct reshape_data {
    lw_val *dst, *src;
    int n;
    ast_expr **shape;
} reshape_data;

/* dst[idx] = src[unflatten(flatten(idx))]: row-major order is kept. */
static ast_stmt *reshape_body(lw *L, ast_expr **idx, void *data)
{
    reshape_data *d = data;
    ft_loc loc = d->dst->t->loc;
    ast_expr *flat = ast_int(L->ctx, loc, 0);
    for (int k = 0; k < d->n; k++)
        flat = lw_binary(L, loc, AST_ADD,
                         lw_binary(L, loc, AST_MUL, flat, ast_clone_expr(L->ctx, d->shape[k])),
                         ast_clone_expr(L->ctx, idx[k]));
    lw_tensor *s = d->src->t;
    ast_expr **sidx = ft_alloc(L->ctx, sizeof *sidx * (size_t)(s->ndim + 1));
    for (int k = s->ndim - 1; k >= 0; k--) {
        sidx[k] = k ? lw_binary(L, loc, AST_MOD, ast_clone_expr(L->ctx, flat), ast_clone_expr(L->ctx, s->shape[k]))
                    : ast_clone_expr(L->ctx, flat);
        if (k)
            flat = lw_binary(L, loc, AST_FLOORDIV, flat, ast_clone_expr(L->ctx, s->shape[k]));
    }
    ast_expr *at = lw_elem(L, d->dst->t, idx), *v = lw_elem(L, s, sidx);
    if (!at || !v)
        return NULL;
    return ast_store(L->ctx, loc, at->u.load.var, at->u.load.n, at->u.load.idx, v);
}

/* The sizes of reshape's new shape into dims (n of them); *infer: the
 * one that is -1 (computed by the caller), or -1.  0 after an error. */
static int reshape_dims(lw *L, lw_val *shape, int n, ast_expr **dims, int *infer, ft_loc loc)
{
    *infer = -1;
    for (int k = 0; k < n; k++) {
        lw_val *d = shape->kind == V_LIST ? shape->items[k] : shape;
        int64_t c;
        if (d->kind != V_SCALAR || !ft_dtype_is_int(d->scalar->dtype)) {
            ft_error(L->ctx, loc, "reshape: a shape holds integers");
            return 0;
        }
        if (lw_const_int(d->scalar, &c) && c == -1) {
            if (*infer >= 0) {
                ft_error(L->ctx, loc, "reshape: only one size may be -1 (sizes %d and %d are)",
                         *infer, k);
                return 0;
            }
            *infer = k;
            continue;
        }
        dims[k] = ast_clone_expr(L->ctx, d->scalar);
        if (!lw_check_sizes(L, loc, "reshape", "the new shape", 1, &dims[k]))
            return 0;
    }
    return 1;
}

/* Check that the new shape holds the total elements of the tensor: known
 * (the product of its sizes but the -1) equals total, or with a -1, known
 * is not 0 and divides total.  0 after an error. */
static int reshape_count(lw *L, ast_expr *total, ast_expr *known, int infer, ft_loc loc)
{
    if (infer < 0)
        return lw_check(L, loc, AST_EQ, known, total, "reshape: the new shape holds {0} "
                        "elements, the tensor {1}");
    ast_expr *zero = ast_int(L->ctx, loc, 0);
    if (!lw_check(L, loc, AST_NE, known, zero, ft_fmt(L->ctx, "reshape: the sizes other than "
                  "-1 hold %s elements, so -1 stands for no size", ast_expr_text(L->ctx, known))))
        return 0;
    ast_expr *rem = lw_binary(L, loc, AST_MOD, ast_clone_expr(L->ctx, total),
                              ast_clone_expr(L->ctx, known));
    return lw_check(L, loc, AST_EQ, rem, zero, ft_fmt(L->ctx, "reshape: the tensor's %s "
                    "elements do not divide by %s (the sizes other than -1): the remainder "
                    "is {0}", ast_expr_text(L->ctx, total), ast_expr_text(L->ctx, known)));
}

/* reshape(x, shape): a copy of x in a new shape (one dim may be -1). */
static lw_val *reshape(lw *L, lw_val *x, lw_val *shape, ft_loc loc)
{
    if (!x || x->kind != V_TENSOR || !shape || (shape->kind != V_LIST && shape->kind != V_SCALAR)) {
        ft_error(L->ctx, loc, "reshape() takes a tensor and a shape list");
        return NULL;
    }
    int n = shape->kind == V_LIST ? shape->n : 1, infer;
    ast_expr **dims = ft_alloc(L->ctx, sizeof *dims * (size_t)(n + 1));
    if (!reshape_dims(L, shape, n, dims, &infer, loc))
        return NULL;
    ast_expr *total = product(L, x->t->ndim, x->t->shape, loc), *known = ast_int(L->ctx, loc, 1);
    for (int k = 0; k < n; k++)
        if (k != infer)
            known = lw_binary(L, loc, AST_MUL, known, ast_clone_expr(L->ctx, dims[k]));
    if (!reshape_count(L, total, known, infer, loc))
        return NULL;
    if (infer >= 0)
        dims[infer] = lw_binary(L, loc, AST_FLOORDIV, ast_clone_expr(L->ctx, total), known);
    if (!x->t->is_view)
        x = lw_materialize(L, x, "t", loc);
    lw_val *out = lw_new_tensor(L, "t", x->t->dtype, n, dims, loc);
    reshape_data d = {out, x, n, dims};
    ast_stmt *s = lw_loop_nest(L, n, dims, reshape_body, &d, loc);
    if (!s)
        return NULL;
    lw_emit(L, s);
    return out;
}

/* -------------------------------------------------------------- concat */

/* An axis argument of concat (negative counts from the end), or -1 after
 * an error. */
static int axis_of(lw *L, const lw_val *a, int ndim, ft_loc loc)
{
    int64_t ax = 0;
    if (a && (a->kind != V_SCALAR || !lw_const_int(a->scalar, &ax))) {
        ft_error(L->ctx, loc, "concat: axis must be a constant integer");
        return -1;
    }
    if (ax < -ndim || ax >= ndim) {
        ft_error(L->ctx, loc, "concat: axis %lld is out of range: the tensors have %d "
                 "dimension%s", (long long)ax, ndim, ndim == 1 ? "" : "s");
        return -1;
    }
    return (int)(ax < 0 ? ax + ndim : ax);
}

/* concat([a, b, ...], axis=0): the tensors one after another along axis. */
static lw_val *concat(lw *L, lw_val *list, lw_val *axis_v, ft_loc loc)
{
    if (!list || list->kind != V_LIST || list->n == 0) {
        ft_error(L->ctx, loc, "concat() takes a non-empty list of tensors");
        return NULL;
    }
    lw_val *first = list->items[0];
    int nd = lw_val_ndim(first);
    int ax = first->kind == V_TENSOR ? axis_of(L, axis_v, nd, loc) : -1;
    if (ax < 0) {
        if (first->kind != V_TENSOR)
            ft_error(L->ctx, loc, "concat: takes tensors of at least 1 dimension");
        return NULL;
    }
    ast_expr **shape = ft_alloc(L->ctx, sizeof *shape * (size_t)(nd + 1));
    memcpy(shape, first->t->shape, sizeof *shape * (size_t)nd);
    ast_expr *len = ast_int(L->ctx, loc, 0);
    for (int i = 0; i < list->n; i++) {
        lw_val *x = list->items[i];
        if (lw_val_ndim(x) != nd) {
            ft_error(L->ctx, loc, "concat: tensor %d has %d dimension%s, tensor 0 has %d", i,
                     lw_val_ndim(x), lw_val_ndim(x) == 1 ? "" : "s", nd);
            return NULL;
        }
        for (int k = 0; k < nd; k++)
            if (k != ax && !lw_check(L, loc, AST_EQ, x->t->shape[k], shape[k],
                                     ft_fmt(L->ctx, "concat: dimension %d of tensor %d has size "
                                            "{0}, that of tensor 0 {1} (only axis %d may "
                                            "differ)", k, i, ax)))
                return NULL;
        len = lw_binary(L, loc, AST_ADD, len, ast_clone_expr(L->ctx, x->t->shape[ax]));
    }
    shape[ax] = len;
    lw_val *out = lw_new_tensor(L, "t", first->t->dtype, nd, shape, loc);
    ast_expr *off = ast_int(L->ctx, loc, 0);
    for (int i = 0; i < list->n; i++) {
        lw_val *x = list->items[i];
        lw_val *part = lw_slice_dim(L, out, ax, ast_clone_expr(L->ctx, off), ast_clone_expr(L->ctx, x->t->shape[ax]));
        if (!lw_assign(L, part, PT_OP_ASSIGN, x, loc))
            return NULL;
        off = lw_binary(L, loc, AST_ADD, off, ast_clone_expr(L->ctx, x->t->shape[ax]));
    }
    return out;
}

/* -------------------------------------------------------------- einsum */

typedef struct einsum_data {
    int nin;
    lw_val **in;
    const char *terms[16];
    const char *letters;     /* all letters: output first, then summed */
    int nout;
    lw_val *out;
} einsum_data;

/* The element of operand i for the loop indices of the letters. */
static ast_expr *einsum_operand(lw *L, einsum_data *d, int i, ast_expr **idx)
{
    const char *term = d->terms[i];
    int n = (int)strlen(term);
    ast_expr **oi = ft_alloc(L->ctx, sizeof *oi * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        oi[k] = ast_clone_expr(L->ctx, idx[strchr(d->letters, term[k]) - d->letters]);
    return d->in[i]->kind == V_SCALAR ? ast_clone_expr(L->ctx, d->in[i]->scalar)
                                      : lw_elem(L, d->in[i]->t, oi);
}

/* out[output letters] += product of the operands' elements. */
static ast_stmt *einsum_body(lw *L, ast_expr **idx, void *data)
{
    einsum_data *d = data;
    ast_expr *p = einsum_operand(L, d, 0, idx);
    for (int i = 1; i < d->nin && p; i++) {
        ast_expr *q = einsum_operand(L, d, i, idx);
        p = q ? lw_binary(L, q->loc, AST_MUL, p, q) : NULL;
    }
    ast_expr *at = d->nout ? lw_elem(L, d->out->t, idx) : lw_elem(L, d->out->t, NULL);
    if (!p || !at)
        return NULL;
    return ast_reduce(L->ctx, at->loc, AST_RED_ADD, at->u.load.var, at->u.load.n,
                      at->u.load.idx, p);
}

/* Split "ij,jk->ik" into terms (in d) and the output; NULL after an error. */
static const char *einsum_parse(lw *L, const char *spec, einsum_data *d, ft_loc loc)
{
    char *s = ft_strdup(L->ctx, spec), *arrow = strstr(s, "->");
    if (arrow)
        *arrow = '\0';
    int n = 0;
    for (char *t = strtok(s, ","); t && n < 16; t = strtok(NULL, ","))
        d->terms[n++] = t;
    for (const char *c = spec; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == ',' ||
              *c == '-' || *c == '>')) {
            ft_error(L->ctx, loc, "einsum: only letters, ',' and '->' are supported in "
                     "the subscripts");
            return NULL;
        }
    for (int i = 0; i < n; i++)
        if (strpbrk(d->terms[i], "->")) {
            ft_error(L->ctx, loc, "einsum: the subscripts have one '->', before the output");
            return NULL;
        }
    if (arrow && strpbrk(arrow + 2, "->,")) {
        ft_error(L->ctx, loc, "einsum: the output '%s' is letters only", arrow + 2);
        return NULL;
    }
    if (n != d->nin) {
        ft_error(L->ctx, loc, "einsum: the subscripts name %d operands, but %d are given",
                 n, d->nin);
        return NULL;
    }
    if (arrow) {
        for (const char *c = arrow + 2; *c; c++)
            if (strchr(c + 1, *c)) {
                ft_error(L->ctx, loc, "einsum: output letter '%c' appears twice", *c);
                return NULL;
            }
        return arrow + 2;
    }
    char *out = ft_alloc(L->ctx, 64);   /* implicit: letters seen once, sorted */
    for (char c = 'A'; c <= 'z'; c++) {
        int count = 0;
        for (int i = 0; i < n; i++)
            for (const char *t = d->terms[i]; *t; t++)
                count += *t == c;
        if (count == 1 && strlen(out) < 52)
            out[strlen(out)] = c;
    }
    return out;
}

/* einsum("ij,jk->ik", a, b): sums of products named by subscripts. */
static lw_val *einsum(lw *L, args *a, ft_loc loc)
{
    if (a->n < 2 || a->v[0]->kind != V_STRING) {
        ft_error(L->ctx, loc, "einsum() takes a subscript string and tensors");
        return NULL;
    }
    einsum_data d = {.nin = a->n - 1, .in = a->v + 1};
    const char *outs = einsum_parse(L, a->v[0]->str, &d, loc);
    if (!outs)
        return NULL;
    char *letters = ft_alloc(L->ctx, 128);
    ast_expr *dims[128] = {0};
    int from[128] = {0};   /* the operand that gave each letter its size */
    strcpy(letters, outs);
    for (int i = 0; i < d.nin; i++)
        for (const char *t = d.terms[i]; *t; t++)
            if (!strchr(letters, *t))
                letters[strlen(letters)] = *t;
    for (int i = 0; i < d.nin; i++) {
        int n = (int)strlen(d.terms[i]);
        if (n != lw_val_ndim(d.in[i])) {
            ft_error(L->ctx, loc, "einsum: operand %d has %d dimensions, but '%s' names %d",
                     i + 1, lw_val_ndim(d.in[i]), d.terms[i], n);
            return NULL;
        }
        for (int k = 0; k < n; k++) {
            int at = (int)(strchr(letters, d.terms[i][k]) - letters);
            ast_expr *dim = d.in[i]->t->shape[k];
            if (!dims[at]) {
                dims[at] = dim;
                from[at] = i + 1;
            } else if (!lw_check(L, loc, AST_EQ, dim, dims[at],
                                 ft_fmt(L->ctx, "einsum: '%c' has size {0} in operand %d, {1} "
                                        "in operand %d", d.terms[i][k], i + 1, from[at])))
                return NULL;
        }
    }
    for (const char *c = outs; *c; c++)
        if (!dims[c - outs]) {
            ft_error(L->ctx, loc, "einsum: output letter '%c' is in no operand", *c);
            return NULL;
        }
    d.letters = letters;
    d.nout = (int)strlen(outs);
    ft_dtype t = lw_val_dtype(d.in[0]);
    for (int i = 1; i < d.nin; i++)
        t = ast_promote(t, lw_val_dtype(d.in[i]));
    d.out = lw_new_tensor(L, "t", t, d.nout, dims, loc);
    if (!lw_assign(L, d.out, PT_OP_ASSIGN, lw_scalar_val(L, ast_int(L->ctx, loc, 0)), loc))
        return NULL;
    ast_stmt *s = lw_loop_nest(L, (int)strlen(letters), dims, einsum_body, &d, loc);
    if (!s)
        return NULL;
    lw_emit(L, s);
    return d.out;
}

/* require_layout(x, L) where x has another layout: x, a name of a tensor
 * that is only read, is copied into a new local of layout L (marked as a
 * conversion for the layout pass, which shares, hoists, composes or
 * cancels it) and the name x means that copy from here to the end of its
 * scope.  NULL after an error. */
static lw_val *convert(lw *L, const pt_node *arg, lw_val *x, const char *want, ft_loc loc)
{
    lw_sym *s = arg->kind == PT_NAME ? lw_lookup(L, arg->name, arg->loc) : NULL;
    int read_only = s && ((s->kind == SYM_VALUE && !x->writable) ||
                          (s->kind == SYM_TENSOR && s->access == FT_ACC_IN));
    if (!read_only) {
        ft_unsupported(L->ctx, loc, ft_fmt(L->ctx, "require_layout() converting %s (only a "
                       "tensor named by a parameter the function reads, or an `in` tensor, "
                       "is converted)", arg->kind == PT_NAME ? arg->name : "an expression"));
        return NULL;
    }
    lw_sym *base = lw_val_whole(x);
    lw_val *t = lw_new_laid_out(L, xf_layout_name(L->ctx, arg->name, want), lw_val_dtype(x),
                                lw_val_ndim(x), lw_val_shape(x), want,
                                base ? base->ast_name : NULL, loc);
    if (!lw_assign(L, t, PT_OP_ASSIGN, x, loc))
        return NULL;
    lw_rebind(L, arg->name, lw_view_of(L, t->t->base, 0), loc);
    lw_val *none = ft_alloc(L->ctx, sizeof *none);
    none->kind = V_NONE;
    return none;
}

/* require_layout(x, L) / prefer_layout(x, L): an operator's need of x's
 * layout, checked as a layout of x's rank.  A preference for a local whose
 * layout the layout pass chooses is weighed there (as if the local were
 * walked once against its storage order otherwise); a requirement that
 * x's layout does not meet converts x (convert()).  A local whose layout
 * the layout pass chooses is converted too: the pass removes the copy
 * when it gives the local that layout.  None, or NULL after an error. */
static lw_val *layout_need(lw *L, args *a, const pt_node *call, int require, ft_loc loc)
{
    const char *name = require ? "require_layout" : "prefer_layout";
    if (a->n != 2 || a->v[0]->kind != V_TENSOR || a->v[1]->kind != V_STRING) {
        ft_error(L->ctx, loc, "%s() takes a tensor and a layout string", name);
        return NULL;
    }
    rt_layout l;
    char err[160];
    const char *want = a->v[1]->str, *have = lw_val_layout(a->v[0]);
    if (rt_layout_parse(want, lw_val_ndim(a->v[0]), &l, err, sizeof err, NULL)) {
        ft_error(L->ctx, loc, "%s(): bad layout \"%s\": %s", name, want, err);
        return NULL;
    }
    lw_sym *base = lw_val_whole(a->v[0]);
    int free_local = base && !base->layout && base->kind == SYM_TENSOR &&
                     base->access == FT_ACC_CACHE;
    int same = strcmp(have, want) == 0 || (!*have && !free_local && rt_layout_is_identity(&l));
    if (require && !same)
        return convert(L, call->kids[1], a->v[0], want, loc);
    if (!require && free_local && base->def)
        base->def->u.def.prefer = want;     /* weighed by the layout pass */
    lw_val *none = ft_alloc(L->ctx, sizeof *none);
    none->kind = V_NONE;
    return none;
}

lw_val *lw_intrinsic(lw *L, const char *name, const pt_node *call, int *handled)
{
    static const char *const names[] = {"einsum", "reshape", "flatten", "concat",
                                        "require_layout", "prefer_layout", NULL};
    int k = 0;
    while (names[k] && strcmp(names[k], name))
        k++;
    *handled = names[k] != NULL;
    args a;
    if (!*handled || !get_args(L, call, name, &a))
        return NULL;
    if (k == 3 && a.n == 2 && !a.axis) {        /* concat(tensors, axis) */
        a.axis = a.v[1];
        a.n = 1;
    }
    static const int most[] = {16, 2, 1, 1, 2, 2};    /* positional arguments taken */
    if (a.n > most[k] || (a.axis && k != 3)) {
        ft_error(L->ctx, call->loc, "%s(): too many arguments (see `ftc stdlib %s`)", name,
                 name);
        return NULL;
    }
    switch (k) {
    case 0: return einsum(L, &a, call->loc);
    case 1: return reshape(L, a.n > 0 ? a.v[0] : NULL, a.n > 1 ? a.v[1] : NULL, call->loc);
    case 2: {
        if (a.n != 1 || a.v[0]->kind != V_TENSOR) {
            ft_error(L->ctx, call->loc, "flatten() takes one tensor");
            return NULL;
        }
        lw_val *minus1 = lw_scalar_val(L, ast_int(L->ctx, call->loc, -1));
        return reshape(L, a.v[0], minus1, call->loc);
    }
    case 3: return concat(L, a.n > 0 ? a.v[0] : NULL, a.axis, call->loc);
    default: return layout_need(L, &a, call, k == 4, call->loc);
    }
}
