/* tensor.c - tensor values of the lowering: views, element-wise maps with
 * NumPy broadcasting, and the loop nests that store them.
 *
 * A tensor value is never computed where it is written in the source: it
 * is a recipe for its elements (lw_elem).  Loops appear only when a value is
 * stored (lw_assign), so a chain of element-wise operations becomes one
 * loop nest with no temporary.  Values that must exist as memory (passed to
 * a function, copied into a `var`, read while their source is overwritten)
 * are materialized into a fresh local tensor.
 */
#include "lw.h"

#include <string.h>

lw_val *lw_scalar_val(lw *L, ast_expr *e)
{
    if (!e)         /* the expression was an error, already reported */
        return NULL;
    lw_val *v = ft_alloc(L->ctx, sizeof *v);
    v->kind = V_SCALAR;
    v->scalar = e;
    return v;
}

lw_val *lw_tensor_val(lw *L, lw_tensor *t, int writable)
{
    lw_val *v = ft_alloc(L->ctx, sizeof *v);
    v->kind = V_TENSOR;
    v->t = t;
    v->writable = writable;
    return v;
}

int lw_val_ndim(const lw_val *v)
{
    return v->kind == V_TENSOR ? v->t->ndim : 0;
}

lw_sym *lw_val_whole(const lw_val *v)
{
    const lw_tensor *t = v->kind == V_TENSOR ? v->t : NULL;
    if (!t || !t->is_view || !t->base || t->shape != t->base->shape)
        return NULL;
    for (int k = 0; k < t->ndim; k++)
        if (t->fixed[k] || t->offset[k] || t->vdim[k] != k)
            return NULL;
    return t->base;
}

const char *lw_val_layout(const lw_val *v)
{
    const lw_sym *s = lw_val_whole(v);
    return s && s->layout ? s->layout : "";
}

ft_dtype lw_val_dtype(const lw_val *v)
{
    return v->kind == V_TENSOR ? v->t->dtype : v->scalar->dtype;
}

ast_expr **lw_val_shape(const lw_val *v)
{
    return v->kind == V_TENSOR ? v->t->shape : NULL;
}

/* The whole of tensor s as a view. */
lw_val *lw_view_of(lw *L, lw_sym *s, int writable)
{
    lw_tensor *t = ft_alloc(L->ctx, sizeof *t);
    int n = s->ndim;
    t->is_view = 1;
    t->dtype = s->dtype;
    t->ndim = n;
    t->shape = s->shape;
    t->base = s;
    t->fixed = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(n + 1));
    t->offset = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(n + 1));
    t->vdim = ft_alloc(L->ctx, sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        t->vdim[k] = k;
    return lw_tensor_val(L, t, writable && s->access != FT_ACC_IN);
}

static int is_one(const ast_expr *e)
{
    return e->kind == AST_INT && e->u.ival == 1;
}

/* The indices of operand u (ndim <= that of the result) for the result
 * element at idx: aligned from the right, 0 where u has a broadcast 1. */
static ast_expr **broadcast_idx(lw *L, const lw_tensor *u, int rn, ast_expr **rshape,
                                ast_expr **idx)
{
    ast_expr **ui = ft_alloc(L->ctx, sizeof *ui * (size_t)(u->ndim + 1));
    for (int k = 0; k < u->ndim; k++) {
        int r = rn - u->ndim + k;
        ui[k] = is_one(u->shape[k]) && !is_one(rshape[r]) ? ast_int(L->ctx, u->loc, 0)
                                                          : ast_clone_expr(L->ctx, idx[r]);
    }
    return ui;
}

/* `base + off` (off may be NULL: 0). */
static ast_expr *plus_offset(lw *L, ast_expr *off, ast_expr *e)
{
    if (!off || (off->kind == AST_INT && off->u.ival == 0))
        return e;
    if (e->kind == AST_INT && e->u.ival == 0)
        return ast_clone_expr(L->ctx, off);
    return lw_binary(L, e->loc, AST_ADD, ast_clone_expr(L->ctx, off), e);
}

/* Element of a view: compose the view's indices into the base's. */
static ast_expr *view_elem(lw *L, const lw_tensor *t, ast_expr **idx)
{
    int bn = t->base->ndim;
    ast_expr **bidx = ft_alloc(L->ctx, sizeof *bidx * (size_t)(bn + 1));
    for (int d = 0; d < bn; d++)
        if (t->fixed[d])
            bidx[d] = ast_clone_expr(L->ctx, t->fixed[d]);
    for (int k = 0; k < t->ndim; k++) {
        int d = t->vdim[k];
        bidx[d] = plus_offset(L, t->offset[d], ast_clone_expr(L->ctx, idx[k]));
    }
    return ast_load(L->ctx, t->loc, t->base->ast_name, t->base->dtype, bn, bidx);
}

/* Combine the elements of a map's operands by its operator. */
static ast_expr *map_combine(lw *L, const lw_tensor *t, ast_expr **a)
{
    switch (t->mop) {
    case M_BIN: return lw_binary(L, t->loc, (ast_binop)t->op, a[0], a[1]);
    case M_NEG: return lw_negate(L, t->loc, a[0]);
    case M_NOT: return lw_not(L, t->loc, a[0]);
    case M_CALL: return lw_builtin(L, t->loc, (ast_builtin)t->op, a[0]);
    case M_CAST: return ast_cast(L->ctx, t->loc, (ft_dtype)t->op, a[0]);
    case M_IFE:
        lw_weaken_pair(a[1], a[2]);
        return ast_ifexpr(L->ctx, t->loc, lw_as_bool(L, a[0]), a[1], a[2]);
    }
    return NULL;
}

ast_expr *lw_elem(lw *L, lw_tensor *t, ast_expr **idx)
{
    if (t->is_view)
        return view_elem(L, t, idx);
    ast_expr *a[3] = {0};
    for (int i = 0; i < t->nargs; i++) {
        lw_val *v = t->args[i];
        a[i] = v->kind == V_SCALAR
                   ? ast_clone_expr(L->ctx, v->scalar)
                   : lw_elem(L, v->t, broadcast_idx(L, v->t, t->ndim, t->shape, idx));
        if (!a[i])
            return NULL;
    }
    return map_combine(L, t, a);
}

/* The shape as text, for messages: "[n, 4]". */
static const char *shape_text(lw *L, int n, ast_expr **shape)
{
    const char *s = "[";
    for (int i = 0; i < n; i++)
        s = ft_fmt(L->ctx, "%s%s%s", s, i ? ", " : "", ast_expr_text(L->ctx, shape[i]));
    return ft_fmt(L->ctx, "%s]", s);
}

/* Check dimension a (of a value) can broadcast to b (of the result):
 * equal, a literal 1, or equal at run time (an assert is emitted). */
static int dim_fits(lw *L, ast_expr *a, ast_expr *b, ft_loc loc)
{
    if (is_one(a))
        return 1;
    int eq = lw_int_equal(L, a, b);
    if (eq == 0)
        return 0;
    if (eq < 0)
        lw_emit(L, ast_assert(L->ctx, loc, ast_binary(L->ctx, loc, AST_EQ, ast_clone_expr(L->ctx, a),
                                                       ast_clone_expr(L->ctx, b))));
    return 1;
}

/* The broadcast shape of the tensor operands (NULL after an error).  A
 * conflict is reported as operand i not broadcasting to the shape, unless
 * the conflicting size came from an operand of fewer dimensions: then
 * that operand does not broadcast to i's shape (where(c[3], a[3, 4], 0)
 * names [3] and [3, 4], not a shape [3, 3] no operand has). */
static ast_expr **broadcast_shape(lw *L, int nargs, lw_val **args, int *ndim, ft_loc loc)
{
    int n = 0;
    for (int i = 0; i < nargs; i++)
        if (lw_val_ndim(args[i]) > n)
            n = lw_val_ndim(args[i]);
    ast_expr **shape = ft_alloc(L->ctx, sizeof *shape * (size_t)(n + 1));
    int *owner = ft_alloc(L->ctx, sizeof *owner * (size_t)(n + 1));
    for (int i = 0; i < nargs; i++) {
        int k = lw_val_ndim(args[i]);
        for (int j = 0; j < k; j++) {
            ast_expr *d = args[i]->t->shape[j], **r = &shape[n - k + j];
            if (!*r || is_one(*r)) {
                *r = d;
                owner[n - k + j] = i;
            }
        }
    }
    for (int i = 0; i < nargs; i++) {
        int k = lw_val_ndim(args[i]);
        for (int j = 0; j < k; j++)
            if (!dim_fits(L, args[i]->t->shape[j], shape[n - k + j], loc)) {
                lw_val *o = args[owner[n - k + j]];
                int ok = lw_val_ndim(o);
                const char *from = ok < k ? shape_text(L, ok, o->t->shape)
                                          : shape_text(L, k, args[i]->t->shape);
                const char *to = ok < k ? shape_text(L, k, args[i]->t->shape)
                                        : shape_text(L, n, shape);
                lw_contract_error(L, loc, ft_fmt(L->ctx, "shapes do not match: cannot "
                                                 "broadcast %s to %s", from, to));
                return NULL;
            }
    }
    *ndim = n;
    return shape;
}

lw_val *lw_map(lw *L, ft_loc loc, lw_mop mop, int op, int nargs, lw_val **args)
{
    lw_tensor *t = ft_alloc(L->ctx, sizeof *t);
    t->mop = mop;
    t->op = op;
    t->nargs = nargs;
    t->loc = loc;
    t->args = ft_alloc(L->ctx, sizeof *t->args * (size_t)nargs);
    memcpy(t->args, args, sizeof *t->args * (size_t)nargs);
    if (!(t->shape = broadcast_shape(L, nargs, args, &t->ndim, loc)))
        return NULL;
    /* one sample element checks the operator and gives the dtype */
    ast_expr **zero = ft_alloc(L->ctx, sizeof *zero * (size_t)(t->ndim + 1));
    for (int k = 0; k < t->ndim; k++)
        zero[k] = ast_int(L->ctx, loc, 0);
    ast_expr *sample = lw_elem(L, t, zero);
    if (!sample)
        return NULL;
    if (t->ndim == 0)
        return lw_scalar_val(L, sample);
    t->dtype = sample->dtype;
    return lw_tensor_val(L, t, 0);
}

ast_expr *lw_to_scalar(lw *L, lw_val *v, ft_loc loc)
{
    if (v->kind == V_SCALAR)
        return v->scalar;
    if (v->kind == V_TENSOR && v->t->ndim == 0)
        return lw_elem(L, v->t, NULL);
    if (v->kind == V_TENSOR)
        ft_error(L->ctx, loc, "expected a scalar here, but this is a tensor of shape %s",
                 shape_text(L, v->t->ndim, v->t->shape));
    else
        ft_error(L->ctx, loc, "expected a number here");
    return NULL;
}

/* ------------------------------------------------------------- indexing */

/* A copy of view t that the caller may change. */
static lw_tensor *view_copy(lw *L, const lw_tensor *t)
{
    lw_tensor *c = ft_alloc(L->ctx, sizeof *c);
    *c = *t;
    int bn = t->base->ndim;
    c->fixed = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(bn + 1));
    c->offset = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(bn + 1));
    c->vdim = ft_alloc(L->ctx, sizeof(int) * (size_t)(t->ndim + 1));
    c->shape = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(t->ndim + 1));
    memcpy(c->fixed, t->fixed, sizeof(ast_expr *) * (size_t)bn);
    memcpy(c->offset, t->offset, sizeof(ast_expr *) * (size_t)bn);
    memcpy(c->vdim, t->vdim, sizeof(int) * (size_t)t->ndim);
    memcpy(c->shape, t->shape, sizeof(ast_expr *) * (size_t)t->ndim);
    c->fresh = 0;
    return c;
}


/* A subscript, lowered once: an index (start), or a slice start .. start +
 * len. */
typedef struct lw_sub {
    int is_slice;
    ast_expr *start, *len;
} lw_sub;

/* Whether a - b is known at compile time to be above `above` (a is
 * cloned, b too: neither is used up). */
static int known_above(lw *L, ast_expr *a, ast_expr *b, int64_t above)
{
    int64_t v;
    ast_expr *d = b ? lw_binary(L, a->loc, AST_SUB, ast_clone_expr(L->ctx, a),
                                ast_clone_expr(L->ctx, b))
                    : a;
    return d && lw_const_int(d, &v) && v > above;
}

/* Report an index or slice bound that is out of the dimension of size dim
 * at compile time: negative (there is no wrap-around), or past the end
 * (an index at dim or above, a slice stop above dim). */
static int bound_in_range(lw *L, ft_loc loc, ast_expr *e, ast_expr *dim, int is_stop)
{
    int64_t v;
    if (lw_const_int(e, &v) && v < 0) {
        ft_error(L->ctx, loc, "this %s is negative (%lld); there is no wrap-around from the "
                 "end", is_stop ? "slice bound" : "index", (long long)v);
        return 0;
    }
    if (dim && known_above(L, e, dim, is_stop ? 0 : -1)) {
        ft_error(L->ctx, loc, "this %s is past the end of its dimension (of size %s)",
                 is_stop ? "slice bound" : "index", ast_expr_text(L->ctx, dim));
        return 0;
    }
    return 1;
}

/* Lower subscript sub of a dimension of size dim; 0 after an error. */
static int lower_sub(lw *L, const pt_node *sub, ast_expr *dim, lw_sub *out)
{
    out->is_slice = sub->kind == PT_SLICE;
    if (!out->is_slice)
        return (out->start = lw_int_expr(L, sub, "an index")) != NULL &&
               bound_in_range(L, sub->loc, out->start, dim, 0);
    ast_expr *start = sub->kids[0] ? lw_int_expr(L, sub->kids[0], "a slice bound")
                                   : ast_int(L->ctx, sub->loc, 0);
    ast_expr *stop = sub->kids[1] ? lw_int_expr(L, sub->kids[1], "a slice bound")
                                  : ast_clone_expr(L->ctx, dim);
    if (!start || !stop)
        return 0;
    if (!bound_in_range(L, sub->kids[0] ? sub->kids[0]->loc : sub->loc, start, dim, 1) ||
        !bound_in_range(L, sub->kids[1] ? sub->kids[1]->loc : sub->loc, stop, dim, 1))
        return 0;
    out->start = start;
    out->len = lw_binary(L, sub->loc, AST_SUB, stop, ast_clone_expr(L->ctx, start));
    int64_t v;
    if (out->len && lw_const_int(out->len, &v) && v < 0) {
        ft_error(L->ctx, sub->loc, "this slice is empty backwards: its stop is before its start");
        return 0;
    }
    return out->len != NULL;
}

/* A view indexed by n lowered subscripts (n <= its ndim), at loc (its
 * elements' loads are located there: a failed bounds check points at the
 * access as written). */
static lw_val *index_view(lw *L, lw_val *v, int n, const lw_sub *subs, ft_loc loc)
{
    lw_tensor *t = v->t, *c = view_copy(L, t);
    c->loc = loc;
    int out = 0;
    for (int k = 0; k < t->ndim; k++) {
        int d = t->vdim[k];
        if (k < n && !subs[k].is_slice) {
            c->fixed[d] = plus_offset(L, c->offset[d], ast_clone_expr(L->ctx, subs[k].start));
            continue;
        }
        if (k < n)
            c->offset[d] = plus_offset(L, c->offset[d], ast_clone_expr(L->ctx, subs[k].start));
        c->vdim[out] = d;
        c->shape[out++] = k < n ? ast_clone_expr(L->ctx, subs[k].len) : t->shape[k];
    }
    c->ndim = out;
    return lw_tensor_val(L, c, v->writable);
}

static lw_val *index_any(lw *L, lw_val *v, int n, const lw_sub *subs, ft_loc loc);

/* A map indexed by n subscripts: the subscripts move into its operands
 * (a broadcast dimension of an operand takes element 0), so indexing a
 * lazy value computes only the part asked for. */
static lw_val *index_map(lw *L, lw_val *v, int n, const lw_sub *subs, ft_loc loc)
{
    lw_tensor *t = v->t;
    lw_val **args = ft_alloc(L->ctx, sizeof *args * (size_t)(t->nargs + 1));
    for (int i = 0; i < t->nargs; i++) {
        lw_val *a = t->args[i];
        int k = lw_val_ndim(a);
        lw_sub *us = ft_alloc(L->ctx, sizeof *us * (size_t)(k + 1));
        for (int j = 0; j < k; j++) {
            int r = t->ndim - k + j;
            ast_expr *dim = a->t->shape[j];
            if (r >= n)
                us[j] = (lw_sub){1, ast_int(L->ctx, loc, 0), dim};
            else if (is_one(dim) && !is_one(t->shape[r]))
                us[j] = (lw_sub){subs[r].is_slice, ast_int(L->ctx, loc, 0), dim};
            else
                us[j] = subs[r];
        }
        args[i] = a->kind == V_TENSOR ? index_any(L, a, k, us, loc) : a;
        if (!args[i])
            return NULL;
    }
    return lw_map(L, loc, t->mop, t->op, t->nargs, args);
}

static lw_val *index_any(lw *L, lw_val *v, int n, const lw_sub *subs, ft_loc loc)
{
    return v->t->is_view ? index_view(L, v, n, subs, loc) : index_map(L, v, n, subs, loc);
}

lw_val *lw_index(lw *L, lw_val *v, int n, const pt_node *const *subs, ft_loc loc)
{
    if (v->kind != V_TENSOR) {
        ft_error(L->ctx, loc, "only tensors can be indexed");
        return NULL;
    }
    lw_tensor *t = v->t;
    if (n > t->ndim) {
        ft_error(L->ctx, subs[t->ndim]->loc, "too many indices for '%s': it has %d "
                 "dimension%s, but %d indices are given",
                 t->is_view ? t->base->name : "this value", t->ndim,
                 t->ndim == 1 ? "" : "s", n);
        return NULL;
    }
    lw_sub *ls = ft_alloc(L->ctx, sizeof *ls * (size_t)(n + 1));
    int ok = 1;
    for (int k = 0; k < n; k++)
        ok &= lower_sub(L, subs[k], t->shape[k], &ls[k]);
    return ok ? index_any(L, v, n, ls, loc) : NULL;
}

lw_val *lw_slice_dim(lw *L, lw_val *v, int k, ast_expr *start, ast_expr *len)
{
    lw_tensor *c = view_copy(L, v->t);
    int d = c->vdim[k];
    c->offset[d] = plus_offset(L, c->offset[d], start);
    c->shape[k] = len;
    return lw_tensor_val(L, c, v->writable);
}

lw_val *lw_transpose(lw *L, lw_val *v, int n, const int *perm, ft_loc loc)
{
    if (v->kind != V_TENSOR || n != v->t->ndim) {
        ft_error(L->ctx, loc, "transpose: the permutation must list every dimension once");
        return NULL;
    }
    if (!v->t->is_view)
        v = lw_materialize(L, v, "t", loc);
    lw_tensor *c = view_copy(L, v->t);
    for (int k = 0; k < n; k++) {
        c->vdim[k] = v->t->vdim[perm[k]];
        c->shape[k] = v->t->shape[perm[k]];
    }
    return lw_tensor_val(L, c, v->writable);
}

/* --------------------------------------------------------------- stores */

lw_val *lw_new_tensor(lw *L, const char *hint, ft_dtype t, int ndim, ast_expr **shape,
                      ft_loc loc)
{
    return lw_new_laid_out(L, hint, t, ndim, shape, NULL, NULL, loc);
}

lw_val *lw_new_laid_out(lw *L, const char *hint, ft_dtype t, int ndim, ast_expr **shape,
                        const char *layout, const char *conv_of, ft_loc loc)
{
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    s->kind = SYM_TENSOR;
    s->name = hint;
    s->ast_name = lw_unique_name(L, hint);
    s->dtype = t;
    s->ndim = ndim;
    s->access = FT_ACC_CACHE;
    s->frame = L->nframes;
    s->loc = loc;
    s->shape = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(ndim + 1));
    for (int k = 0; k < ndim; k++)
        s->shape[k] = ast_clone_expr(L->ctx, shape[k]);
    s->layout = layout;
    ast_stmt *def = ast_vardef(L->ctx, loc, s->ast_name, t, ndim, s->shape, FT_ACC_CACHE,
                               FT_MT_CPU, NULL);
    def->u.def.layout = layout;
    def->u.def.conv_of = conv_of;
    s->def = def;
    lw_open_def(L, def);
    lw_val *v = lw_view_of(L, s, 1);
    v->t->fresh = 1;
    return v;
}

lw_val *lw_materialize(lw *L, lw_val *v, const char *hint, ft_loc loc)
{
    lw_val *t = lw_new_tensor(L, hint, lw_val_dtype(v), lw_val_ndim(v), lw_val_shape(v), loc);
    if (!lw_assign(L, t, PT_OP_ASSIGN, v, loc))
        return NULL;
    return t;
}

int lw_val_reads(const lw_val *v, const lw_sym *base)
{
    if (v->kind != V_TENSOR)
        return 0;
    if (v->t->is_view)
        return v->t->base == base;
    for (int i = 0; i < v->t->nargs; i++)
        if (lw_val_reads(v->t->args[i], base))
            return 1;
    return 0;
}

/* Whether two views denote the same region. */
static int same_view(const lw_tensor *a, const lw_tensor *b)
{
    if (!a->is_view || !b->is_view || a->base != b->base || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->base->ndim; d++)
        if (!ast_expr_equal(a->fixed[d], b->fixed[d]) ||
            !ast_expr_equal(a->offset[d], b->offset[d]))
            return 0;
    for (int k = 0; k < a->ndim; k++)
        if (a->vdim[k] != b->vdim[k])
            return 0;
    return 1;
}

/* Check a value of dtype vt may be stored into dtype tt. */
static int store_type_ok(lw *L, const lw_sym *base, ft_dtype tt, lw_val *value, ft_loc loc)
{
    ft_dtype vt = lw_val_dtype(value);
    if (value->kind == V_SCALAR && lw_is_literal(value->scalar))
        lw_weaken(value->scalar, tt), vt = value->scalar->dtype;
    if ((ft_dtype_is_float(tt) && vt != FT_BOOL) ||
        (ft_dtype_is_int(tt) && (ft_dtype_is_int(vt) || vt == FT_BOOL)) ||
        (tt == FT_BOOL && vt == FT_BOOL))
        return 1;
    ft_error(L->ctx, loc, "cannot store a value of type %s into '%s', whose type is %s, "
             "without a conversion: write %s(...)", ft_dtype_name(vt), base->name,
             ft_dtype_name(tt), ft_dtype_name(tt));
    return 0;
}

/* Turn `x = max(x, v)` / `x = min(v, x)` into a reduction of v. */
static lw_val *as_minmax_reduction(lw_val *target, lw_val *value, ast_reduce_op *op)
{
    if (value->kind != V_TENSOR || value->t->is_view || value->t->mop != M_BIN ||
        (value->t->op != AST_MIN && value->t->op != AST_MAX))
        return NULL;
    *op = value->t->op == AST_MIN ? AST_RED_MIN : AST_RED_MAX;
    for (int i = 0; i < 2; i++) {
        lw_val *a = value->t->args[i];
        if (a->kind == V_TENSOR && same_view(a->t, target->t))
            return value->t->args[1 - i];
    }
    return NULL;
}

/* The same for an element: `x = max(x, e)` with x a single element. */
static lw_val *scalar_minmax_reduction(lw *L, lw_tensor *t, lw_val *value,
                                       ast_reduce_op *op)
{
    ast_expr *e = value->scalar;
    if (e->kind != AST_BINARY || (e->u.bin.op != AST_MIN && e->u.bin.op != AST_MAX))
        return NULL;
    *op = e->u.bin.op == AST_MIN ? AST_RED_MIN : AST_RED_MAX;
    ast_expr *self = lw_elem(L, t, NULL);
    if (ast_expr_equal(e->u.bin.a, self))
        return lw_scalar_val(L, e->u.bin.b);
    if (ast_expr_equal(e->u.bin.b, self))
        return lw_scalar_val(L, e->u.bin.a);
    return NULL;
}

/* The store or reduction of one element of target. */
static ast_stmt *store_elem(lw *L, lw_tensor *t, ast_expr **idx, int red, ast_reduce_op rop,
                            ast_expr *value, ft_loc loc)
{
    ast_expr *at = lw_elem(L, t, idx);
    if (!at || !value)
        return NULL;
    if (red)
        return ast_reduce(L->ctx, loc, rop, at->u.load.var, at->u.load.n, at->u.load.idx,
                          value);
    return ast_store(L->ctx, loc, at->u.load.var, at->u.load.n, at->u.load.idx, value);
}

/* A fresh iterator for a generated loop, reserved for the current scope. */
static const char *gen_iter(lw *L, ft_loc loc)
{
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    s->kind = SYM_ITER;
    s->name = "";
    s->ast_name = lw_unique_name(L, "i");
    s->loc = loc;
    s->next = L->syms;
    L->syms = s;
    return s->ast_name;
}

/* The reduction operator of an assignment operator. */
static int reduce_of(int op, ast_reduce_op *rop)
{
    if (op == PT_OP_ADD || op == PT_OP_SUB)
        *rop = AST_RED_ADD;
    else if (op == PT_OP_MUL)
        *rop = AST_RED_MUL;
    else
        return 0;
    return 1;
}

/* The value subtracted by `x -= v`: a bool becomes x's dtype, negated. */
static lw_val *subtrahend(lw *L, lw_val *target, lw_val *v, ft_loc loc)
{
    if (lw_val_dtype(v) == FT_BOOL) {
        if (target->t->dtype == FT_BOOL) {
            ft_error(L->ctx, loc, "cannot subtract from '%s', whose type is bool",
                     target->t->base->name);
            return NULL;
        }
        v = v->kind == V_SCALAR
                ? lw_scalar_val(L, ast_cast(L->ctx, loc, target->t->dtype, v->scalar))
                : lw_map(L, loc, M_CAST, target->t->dtype, 1, &v);
        if (!v)
            return NULL;
    }
    if (v->kind == V_SCALAR) {
        ast_expr *e = lw_negate(L, loc, v->scalar);
        return e ? lw_scalar_val(L, e) : NULL;
    }
    return lw_map(L, loc, M_NEG, 0, 1, &v);
}

ast_stmt *lw_loop_nest(lw *L, int n, ast_expr **shape, lw_body_fn body, void *data,
                       ft_loc loc)
{
    lw_sym *mark = lw_push_scope(L);
    ast_expr **idx = ft_alloc(L->ctx, sizeof *idx * (size_t)(n + 1));
    const char **it = ft_alloc(L->ctx, sizeof *it * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        it[k] = gen_iter(L, loc);
        idx[k] = ast_var(L->ctx, loc, it[k]);
    }
    ast_stmt *s = body(L, idx, data);
    for (int k = n - 1; k >= 0 && s; k--)
        s = ast_for(L->ctx, loc, it[k], ast_int(L->ctx, loc, 0), ast_clone_expr(L->ctx, shape[k]),
                    ast_int(L->ctx, loc, 1), s);
    lw_pop_scope(L, mark);
    return s;
}

/* What the body of an assignment's loop nest needs. */
typedef struct store_data {
    lw_tensor *t;
    lw_val *value;
    int red;
    ast_reduce_op rop;
    ft_loc loc;
} store_data;

/* The store of one element of an assignment (a loop nest body). */
static ast_stmt *store_body(lw *L, ast_expr **idx, void *data)
{
    store_data *d = data;
    lw_val *v = d->value;
    ast_expr *ve = v->kind == V_SCALAR
                       ? ast_clone_expr(L->ctx, v->scalar)
                       : lw_elem(L, v->t, broadcast_idx(L, v->t, d->t->ndim, d->t->shape, idx));
    return store_elem(L, d->t, idx, d->red, d->rop, ve, d->loc);
}

int lw_assign(lw *L, lw_val *target, int op, lw_val *value, ft_loc loc)
{
    lw_tensor *t = target->t;
    int red = 0;
    ast_reduce_op rop = AST_RED_ADD;
    if (op == PT_OP_ASSIGN) {
        lw_val *other = t->ndim == 0 && value->kind == V_SCALAR
                            ? scalar_minmax_reduction(L, t, value, &rop)
                            : as_minmax_reduction(target, value, &rop);
        if (other)
            value = other, red = 1;
    } else {
        red = reduce_of(op, &rop);
        if (op == PT_OP_SUB && !(value = subtrahend(L, target, value, loc)))
            return 0;
    }
    if (!store_type_ok(L, t->base, t->dtype, value, loc))
        return 0;
    int vn = lw_val_ndim(value);
    if (vn > t->ndim) {
        ft_error(L->ctx, loc, "cannot store a tensor of shape %s into a region of shape %s",
                 shape_text(L, vn, value->t->shape), shape_text(L, t->ndim, t->shape));
        return 0;
    }
    for (int j = 0; j < vn; j++)
        if (!dim_fits(L, value->t->shape[j], t->shape[t->ndim - vn + j], loc)) {
            ft_error(L->ctx, loc, "shapes do not match: cannot store %s into %s",
                     shape_text(L, vn, value->t->shape), shape_text(L, t->ndim, t->shape));
            return 0;
        }
    if (t->ndim > 0 && lw_val_reads(value, t->base) && !(vn == 0))
        if (!(value = lw_materialize(L, value, "t", loc)))
            return 0;
    store_data d = {t, value, red, rop, loc};
    ast_stmt *s = lw_loop_nest(L, t->ndim, t->shape, store_body, &d, loc);
    if (!s)
        return 0;
    lw_emit(L, s);
    return 1;
}
