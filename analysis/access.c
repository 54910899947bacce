/* access.c - the walk that collects tagged access relations (access.h).
 *
 * Requires: a lowered function (unique names in scope, full indexing).
 * Provides: an an_accesses table: one an_stmt_info per statement with its
 * domain and 2d+1 schedule, one an_access per Load/Store/ReduceTo.
 */
#include "access.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

#include "../ast/visit.h"
#include "memo.h"

/* ------------------------------------------------- expressions to isl */

/* The pw_aff of variable `name` on sp: an iterator (set dimension) or a
 * size (parameter); NULL if neither. */
static isl_pw_aff *var_pw_aff(isl_space *sp, const char *name)
{
    int pos = isl_space_find_dim_by_name(sp, isl_dim_set, name);
    enum isl_dim_type t = isl_dim_set;
    if (pos < 0) {
        pos = isl_space_find_dim_by_name(sp, isl_dim_param, name);
        t = isl_dim_param;
    }
    if (pos < 0)
        return NULL;
    isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
    return isl_pw_aff_from_aff(isl_aff_var_on_domain(ls, t, (unsigned)pos));
}

/* The constant v on sp. */
static isl_pw_aff *cst_pw_aff(isl_space *sp, int64_t v)
{
    isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
    isl_val *val = isl_val_int_from_si(isl_space_get_ctx(sp), v);
    return isl_pw_aff_from_aff(isl_aff_val_on_domain(ls, val));
}

/* floor(a / c) for a constant c != 0 (Python's //). */
static isl_pw_aff *floordiv_cst(isl_pw_aff *a, int64_t c)
{
    if (c < 0) {
        a = isl_pw_aff_neg(a);
        c = -c;
    }
    isl_val *v = isl_val_int_from_si(isl_pw_aff_get_ctx(a), c);
    return isl_pw_aff_floor(isl_pw_aff_scale_down_val(a, v));
}

/* The value of an integer expression made of literals only, in *v. */
static int const_int(const ast_expr *e, int64_t *v)
{
    int64_t a, b;
    switch (e->kind) {
    case AST_INT: *v = e->u.ival; return 1;
    case AST_CAST: return ft_dtype_is_int(e->dtype) && const_int(e->u.cast.a, v);
    case AST_UNARY:
        if (e->u.un.op != AST_NEG || !const_int(e->u.un.a, &a) || a == INT64_MIN)
            return 0;
        *v = -a;
        return 1;
    case AST_BINARY:
        if (!const_int(e->u.bin.a, &a) || !const_int(e->u.bin.b, &b))
            return 0;
        switch (e->u.bin.op) {
        case AST_ADD: return !__builtin_add_overflow(a, b, v);
        case AST_SUB: return !__builtin_sub_overflow(a, b, v);
        case AST_MUL: return !__builtin_mul_overflow(a, b, v);
        default: return 0;
        }
    default: return 0;
    }
}

/* The constant 0 on the domain of a (which is taken). */
static isl_pw_aff *zero_like(isl_pw_aff *a)
{
    isl_space *sp = isl_pw_aff_get_domain_space(a);
    isl_pw_aff_free(a);
    isl_pw_aff *z = cst_pw_aff(sp, 0);
    isl_space_free(sp);
    return z;
}

/* a op b for the integer operators isl can express exactly; takes a and
 * b; y is the AST of b (a constant divisor is read from it). */
static isl_pw_aff *binary_pw_aff(ast_binop op, isl_pw_aff *a, isl_pw_aff *b,
                                 const ast_expr *y)
{
    int64_t c;
    switch (op) {
    case AST_ADD: return isl_pw_aff_add(a, b);
    case AST_SUB: return isl_pw_aff_sub(a, b);
    case AST_MIN: return isl_pw_aff_min(a, b);
    case AST_MAX: return isl_pw_aff_max(a, b);
    case AST_MUL:
        if (isl_pw_aff_is_cst(a) == isl_bool_true || isl_pw_aff_is_cst(b) == isl_bool_true)
            return isl_pw_aff_mul(a, b);
        break;
    case AST_FLOORDIV:
    case AST_MOD:
        if (!const_int(y, &c))
            break;
        isl_pw_aff_free(b);
        if (c == 0)            /* integer // 0 and % 0 give 0 */
            return zero_like(a);
        if (op == AST_FLOORDIV)
            return floordiv_cst(a, c);
        /* a - c * floor(a / c): the sign of the divisor */
        isl_pw_aff *q = floordiv_cst(isl_pw_aff_copy(a), c);
        isl_val *v = isl_val_int_from_si(isl_pw_aff_get_ctx(a), c);
        return isl_pw_aff_sub(a, isl_pw_aff_scale_val(q, v));
    default: break;
    }
    isl_pw_aff_free(a);
    isl_pw_aff_free(b);
    return NULL;
}

__isl_give isl_pw_aff *an_pw_aff_of(__isl_keep isl_space *sp, const ast_expr *e)
{
    if (!e || !ft_dtype_is_int(e->dtype))
        return NULL;
    switch (e->kind) {
    case AST_INT: return cst_pw_aff(sp, e->u.ival);
    case AST_VAR: return var_pw_aff(sp, e->u.name);
    case AST_CAST: return an_pw_aff_of(sp, e->u.cast.a);
    case AST_UNARY: {
        isl_pw_aff *a = e->u.un.op == AST_NEG ? an_pw_aff_of(sp, e->u.un.a) : NULL;
        return a ? isl_pw_aff_neg(a) : NULL;
    }
    case AST_BINARY: {
        isl_pw_aff *a = an_pw_aff_of(sp, e->u.bin.a);
        isl_pw_aff *b = a ? an_pw_aff_of(sp, e->u.bin.b) : NULL;
        if (!b) {
            isl_pw_aff_free(a);
            return NULL;
        }
        return binary_pw_aff(e->u.bin.op, a, b, e->u.bin.b);
    }
    default: return NULL;
    }
}

/* The set where a cmp b holds (positive) or fails; NULL if not affine. */
static isl_set *cmp_set(isl_space *sp, ast_binop op, const ast_expr *x,
                        const ast_expr *y, int positive)
{
    isl_pw_aff *a = an_pw_aff_of(sp, x);
    isl_pw_aff *b = a ? an_pw_aff_of(sp, y) : NULL;
    if (!b) {
        isl_pw_aff_free(a);
        return NULL;
    }
    if (!positive)
        op = op == AST_LT ? AST_GE : op == AST_LE ? AST_GT : op == AST_GT ? AST_LE
           : op == AST_GE ? AST_LT : op == AST_EQ ? AST_NE : AST_EQ;
    switch (op) {
    case AST_LT: return isl_pw_aff_lt_set(a, b);
    case AST_LE: return isl_pw_aff_le_set(a, b);
    case AST_GT: return isl_pw_aff_gt_set(a, b);
    case AST_GE: return isl_pw_aff_ge_set(a, b);
    case AST_EQ: return isl_pw_aff_eq_set(a, b);
    default: return isl_pw_aff_ne_set(a, b);
    }
}

__isl_give isl_set *an_cond_set(__isl_keep isl_space *sp, const ast_expr *cond,
                                int positive)
{
    isl_set *s = NULL;
    if (cond->kind == AST_BOOLC)
        return cond->u.ival == positive ? isl_set_universe(isl_space_copy(sp))
                                        : isl_set_empty(isl_space_copy(sp));
    if (cond->kind == AST_UNARY && cond->u.un.op == AST_NOT)
        return an_cond_set(sp, cond->u.un.a, !positive);
    if (cond->kind == AST_BINARY) {
        ast_binop op = cond->u.bin.op;
        if (op == AST_AND || op == AST_OR) {
            isl_set *a = an_cond_set(sp, cond->u.bin.a, positive);
            isl_set *b = an_cond_set(sp, cond->u.bin.b, positive);
            /* and-true / or-false need both; the others either */
            return (op == AST_AND) == (positive != 0) ? isl_set_intersect(a, b)
                                                      : isl_set_union(a, b);
        }
        if (op >= AST_LT && op <= AST_NE && ft_dtype_is_int(cond->u.bin.a->dtype) &&
            ft_dtype_is_int(cond->u.bin.b->dtype))
            s = cmp_set(sp, op, cond->u.bin.a, cond->u.bin.b, positive);
    }
    return s ? s : isl_set_universe(isl_space_copy(sp));
}

/* ------------------------------------------------------------ the walk */

static an_stmt_info *add_stmt(an_accesses *a, const char *name, isl_set *domain,
                              isl_map *schedule);
static an_access *add_access_rel(an_accesses *a, an_acc_kind kind, ast_reduce_op op,
                                 isl_map *rel, int exact);

/* A tensor visible at the current point of the walk. */
typedef struct tensor {
    const char *name;        /* .ft name */
    const char *isl_name;    /* tuple name, unique within the function */
    int ndim;
    ast_expr **shape;
    int scope_depth;         /* loops around its VarDef (0 for parameters) */
} tensor;

/* An enclosing `if` and which branch we are in. */
typedef struct cond_entry {
    ast_expr *cond;
    int positive;
} cond_entry;

typedef struct walk {
    ast_visitor v;           /* expression visitor: collects Loads */
    an_accesses *a;
    isl_space *params;       /* the function's sizes */
    ft_vec loops;            /* ast_stmt * (For), outermost first */
    ft_vec anc;              /* every enclosing statement */
    ft_vec conds;            /* cond_entry * */
    ft_vec tensors;          /* tensor *, innermost last */
    ft_vec used_names;       /* isl names given so far */
    ft_vec labels;           /* every label of the function */
    int *pos;                /* pre-order numbers of the enclosing loops */
    int pos_cap;
    int counter;             /* pre-order number of the next statement */
    an_stmt_info *cur;       /* the statement whose Loads are collected */
    ft_vec path;             /* an_collect_accesses_in: root and the statements
                                enclosing it (empty: the whole function) */
    int in;                  /* the walk is inside root (or there is none) */
    int carried_only;        /* an_collect_accesses_carried: no accesses of
                                tensors declared inside root */
    int lo, hi;              /* root a sequence: only its items lo..hi (lo < 0:
                                all) */
    isl_set *domain;         /* owned: the domain of the current loops and
                                conditions (a statement's, renamed), NULL
                                until needed after they change */
    an_memo *memo;           /* the results of earlier walks (memo.h), or NULL */
    an_key domkey;           /* the inputs of domain (valid with it) */
    an_key stmtkey;          /* those of the current statement's space */
    an_key scratch;          /* a key being built */
} walk;

/* The loops or conditions changed: the cached domain is stale. */
static void domain_changed(walk *w)
{
    w->domain = isl_set_free(w->domain);
    w->domkey.len = 0;
}

/* The tensor called name, innermost first. */
static tensor *find_tensor(walk *w, const char *name)
{
    for (int i = w->tensors.len - 1; i >= 0; i--) {
        tensor *t = w->tensors.items[i];
        if (strcmp(t->name, name) == 0)
            return t;
    }
    return NULL;
}

/* Register a tensor; a name used before in the function gets _<id>. */
static void push_tensor(walk *w, const char *name, int ndim, ast_expr **shape, int id)
{
    ft_ctx *ctx = w->a->ctx;
    tensor *t = ft_alloc(ctx, sizeof *t);
    const char *isl_name = name;
    for (int i = 0; i < w->used_names.len; i++)
        if (strcmp(w->used_names.items[i], name) == 0)
            isl_name = ft_fmt(ctx, "%s_%d", name, id);
    *t = (tensor){name, isl_name, ndim, shape, w->loops.len};
    ft_vec_push(ctx, &w->tensors, t);
    ft_vec_push(ctx, &w->used_names, (void *)name);
}

/* The instance space of a statement named name inside the current loops. */
static isl_space *stmt_space(walk *w, const char *name)
{
    int d = w->loops.len;
    isl_space *sp = isl_space_add_dims(isl_space_set_from_params(isl_space_copy(w->params)),
                                       isl_dim_set, (unsigned)d);
    for (int i = 0; i < d; i++) {
        ast_stmt *l = w->loops.items[i];
        sp = isl_space_set_dim_name(sp, isl_dim_set, (unsigned)i, l->u.loop.iter);
    }
    return isl_space_set_tuple_name(sp, isl_dim_set, name);
}

/* Constraints of loop number k (its iterator is dimension k of sp). */
static isl_set *loop_set(isl_space *sp, ast_stmt *l, int k)
{
    isl_set *s = isl_set_universe(isl_space_copy(sp));
    int64_t step = 1;
    if (l->u.loop.step->kind == AST_INT)
        step = l->u.loop.step->u.ival;
    if (step == 0)
        return isl_set_empty(isl_set_get_space(s));
    isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
    isl_pw_aff *i = isl_pw_aff_var_on_domain(ls, isl_dim_set, (unsigned)k);
    isl_pw_aff *b = an_pw_aff_of(sp, l->u.loop.begin);
    isl_pw_aff *e = an_pw_aff_of(sp, l->u.loop.end);
    if (b && (step > 1 || step < -1)) {
        isl_pw_aff *off = isl_pw_aff_sub(isl_pw_aff_copy(i), isl_pw_aff_copy(b));
        isl_val *m = isl_val_abs(isl_val_int_from_si(isl_space_get_ctx(sp), step)); /* -2^63 too */
        s = isl_set_intersect(s, isl_pw_aff_zero_set(isl_pw_aff_mod_val(off, m)));
    }
    if (b)
        s = isl_set_intersect(s, step > 0 ? isl_pw_aff_ge_set(isl_pw_aff_copy(i), b)
                                          : isl_pw_aff_le_set(isl_pw_aff_copy(i), b));
    if (e)
        s = isl_set_intersect(s, step > 0 ? isl_pw_aff_lt_set(isl_pw_aff_copy(i), e)
                                          : isl_pw_aff_gt_set(isl_pw_aff_copy(i), e));
    isl_pw_aff_free(i);
    return s;
}

/* Sizes are >= 0 (the function refuses negative ones). */
static isl_set *sizes_context(isl_space *params)
{
    isl_set *s = isl_set_universe(isl_space_copy(params));
    isl_size n = isl_space_dim(params, isl_dim_param);
    for (int i = 0; i < n; i++)
        s = isl_set_lower_bound_si(s, isl_dim_param, (unsigned)i, 0);
    return s;
}

/* The domain of a statement in the current loops and conditions. */
static isl_set *current_domain(walk *w, isl_space *sp)
{
    isl_set *s = isl_set_universe(isl_space_copy(sp));
    for (int k = 0; k < w->loops.len; k++)
        s = isl_set_intersect(s, loop_set(sp, w->loops.items[k], k));
    for (int k = 0; k < w->conds.len; k++) {
        cond_entry *c = w->conds.items[k];
        s = isl_set_intersect(s, an_cond_set(sp, c->cond, c->positive));
    }
    s = isl_set_intersect_params(s, isl_set_copy(w->a->context));
    return isl_set_coalesce(s);
}

/* Into w->domkey: every input of current_domain (the sizes, each loop's
 * iterator, bounds and step, each condition and its side). */
static void domain_key(walk *w)
{
    an_key *k = &w->domkey;
    k->len = 0;
    an_key_str(k, "domain");
    isl_size np = isl_space_dim(w->params, isl_dim_param);
    an_key_int(k, np);
    for (int i = 0; i < np; i++)
        an_key_str(k, isl_space_get_dim_name(w->params, isl_dim_param, (unsigned)i));
    an_key_int(k, w->loops.len);
    for (int i = 0; i < w->loops.len; i++) {
        const ast_stmt *l = w->loops.items[i];
        an_key_str(k, l->u.loop.iter);
        an_key_expr(k, l->u.loop.begin);
        an_key_expr(k, l->u.loop.end);
        an_key_expr(k, l->u.loop.step);
    }
    an_key_int(k, w->conds.len);
    for (int i = 0; i < w->conds.len; i++) {
        const cond_entry *c = w->conds.items[i];
        an_key_int(k, c->positive);
        an_key_expr(k, c->cond);
    }
}

/* The domain of the current loops and conditions on sp (its tuple named
 * as sp's, or as the statement's it was first made for): remembered in
 * the memo across walks; w->domkey set. */
static isl_set *memo_domain(walk *w, isl_space *sp)
{
    domain_key(w);
    const an_memo_val *v = an_memo_get(w->memo, &w->domkey);
    if (v)
        return isl_set_copy(v->set);
    isl_set *d = current_domain(w, sp);
    an_memo_put(w->memo, &w->domkey, (an_memo_val){.set = isl_set_copy(d)});
    return d;
}

/* An unnamed set space of n dimensions with the parameters of sp. */
static isl_space *set_space_like(isl_space *sp, int n)
{
    isl_space *r = isl_space_set_from_params(isl_space_params(isl_space_copy(sp)));
    return isl_space_add_dims(r, isl_dim_set, (unsigned)n);
}

/* The affine function value on sp, or NULL. */
static isl_aff *cst_aff(isl_space *sp, int64_t v)
{
    isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
    return isl_aff_val_on_domain(ls, isl_val_int_from_si(isl_space_get_ctx(sp), v));
}

/* S[i] -> [c0, i0, c1, i1, ..., c_d, 0, ...]: pos[k] are the pre-order
 * numbers of the loops, self the statement's; a negative step schedules -i. */
static isl_map *stmt_schedule(walk *w, isl_space *sp, int self)
{
    int d = w->loops.len, n = w->a->sched_dims;
    isl_space *ms = isl_space_map_from_domain_and_range(isl_space_copy(sp),
                                                        set_space_like(sp, n));
    isl_multi_aff *ma = isl_multi_aff_zero(ms);
    for (int k = 0; k <= d; k++)
        ma = isl_multi_aff_set_aff(ma, 2 * k, cst_aff(sp, k < d ? w->pos[k] : self));
    for (int k = 0; k < d; k++) {
        ast_stmt *l = w->loops.items[k];
        isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
        isl_aff *it = isl_aff_var_on_domain(ls, isl_dim_set, (unsigned)k);
        if (l->u.loop.step->kind == AST_INT && l->u.loop.step->u.ival < 0)
            it = isl_aff_neg(it);
        ma = isl_multi_aff_set_aff(ma, 2 * k + 1, it);
    }
    return isl_map_from_multi_aff(ma);
}

/* Collect the labels of the statements (a visitor). */
typedef struct label_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *labels;
} label_state;

static int collect_label(ast_visitor *v, ast_stmt *s)
{
    label_state *st = (label_state *)v;
    if (s->label)
        ft_vec_push(st->ctx, st->labels, (void *)s->label);
    return 1;
}

/* Whether name is one of labels. */
static int label_taken(ft_vec labels, const char *name)
{
    for (int i = 0; i < labels.len; i++)
        if (strcmp(labels.items[i], name) == 0)
            return 1;
    return 0;
}

/* The schedule of the statement named name (space sp, domain dom) at
 * self_pos, restricted to dom: remembered in the memo across walks, keyed
 * by w->stmtkey (set here: the domain's inputs and the name) and the
 * positions. */
static isl_map *memo_schedule(walk *w, const char *name, isl_space *sp, isl_set *dom,
                              int self_pos)
{
    an_key *k = &w->stmtkey;
    k->len = 0;
    an_key_cat(k, &w->domkey);
    an_key_str(k, name);
    w->scratch.len = 0;
    an_key_cat(&w->scratch, k);
    an_key_str(&w->scratch, "schedule");
    an_key_int(&w->scratch, w->a->sched_dims);
    an_key_int(&w->scratch, self_pos);
    for (int i = 0; i < w->loops.len; i++)
        an_key_int(&w->scratch, w->pos[i]);
    const an_memo_val *v = an_memo_get(w->memo, &w->scratch);
    if (v)
        return isl_map_copy(v->map);
    isl_map *m = isl_map_intersect_domain(stmt_schedule(w, sp, self_pos), isl_set_copy(dom));
    an_memo_put(w->memo, &w->scratch, (an_memo_val){.map = isl_map_copy(m)});
    return m;
}

/* Record a statement at the current point; self_pos orders it among its
 * siblings (2 * pre-order, one less for the bounds of a For). */
static an_stmt_info *begin_stmt(walk *w, ast_stmt *s, int self_pos)
{
    ft_ctx *ctx = w->a->ctx;
    const char *name = an_stmt_tuple(ctx, s);
    while (!s->label && label_taken(w->labels, name))   /* a label `S<n>` has it */
        name = ft_fmt(ctx, "%s_", name);
    isl_space *sp = stmt_space(w, name);
    if (!w->domain)            /* shared by the statements of one context */
        w->domain = memo_domain(w, sp);
    isl_set *dom = isl_set_set_tuple_name(isl_set_copy(w->domain), name);
    isl_map *sched = memo_schedule(w, name, sp, dom, self_pos);
    an_stmt_info *info = add_stmt(w->a, name, dom, sched);
    isl_space_free(sp);
    info->stmt = s;
    info->nanc = w->anc.len;
    info->anc = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(w->anc.len + 1));
    if (w->anc.len)
        memcpy(info->anc, w->anc.items, sizeof(ast_stmt *) * (size_t)w->anc.len);
    info->depth = w->loops.len;
    info->loops = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(w->loops.len + 1));
    if (w->loops.len)
        memcpy(info->loops, w->loops.items, sizeof(ast_stmt *) * (size_t)w->loops.len);
    return info;
}

/* Lift a pw_aff on the domain space to the wrapped space [dom -> arr]. */
static isl_pw_aff *lift(isl_pw_aff *pa, isl_multi_aff *proj)
{
    return isl_pw_aff_pullback_multi_aff(pa, isl_multi_aff_copy(proj));
}

/* { S[i] -> t[scope iters, idx] } for an access of t from the current
 * statement; *exact is cleared when an index is not affine. */
static isl_map *access_rel(walk *w, tensor *t, int n, ast_expr **idx, int *exact)
{
    isl_space *dom = isl_set_get_space(w->cur->domain);
    int ndom = w->cur->depth, k = t->scope_depth;
    isl_space *arr = isl_space_set_tuple_name(set_space_like(dom, k + n), isl_dim_set,
                                              t->isl_name);
    isl_space *msp = isl_space_map_from_domain_and_range(isl_space_copy(dom), arr);
    isl_multi_aff *proj = isl_multi_aff_domain_map(isl_space_copy(msp));
    isl_space *wsp = isl_space_wrap(msp);
    isl_set *s = isl_set_universe(isl_space_copy(wsp));
    for (int d = 0; d < k; d++)
        s = isl_set_equate(s, isl_dim_set, (unsigned)d, isl_dim_set, (unsigned)(ndom + d));
    for (int d = 0; d < n && d < t->ndim; d++) {
        isl_local_space *ls = isl_local_space_from_space(isl_space_copy(wsp));
        isl_pw_aff *x = isl_pw_aff_var_on_domain(ls, isl_dim_set, (unsigned)(ndom + k + d));
        isl_pw_aff *pa = an_pw_aff_of(dom, idx[d]);
        if (pa)
            s = isl_set_intersect(s, isl_pw_aff_eq_set(isl_pw_aff_copy(x), lift(pa, proj)));
        else
            *exact = 0;
        isl_pw_aff *ext = an_pw_aff_of(dom, t->shape[d]);
        if (ext)
            s = isl_set_intersect(s, isl_pw_aff_lt_set(isl_pw_aff_copy(x), lift(ext, proj)));
        s = isl_set_intersect(s, isl_pw_aff_nonneg_set(x));
    }
    isl_multi_aff_free(proj);
    isl_space_free(wsp);
    isl_space_free(dom);
    return isl_set_unwrap(s);
}

/* The relation of an access of t at idx from the current statement,
 * restricted to its domain (as an_add_access makes it), and whether it is
 * exact: remembered in the memo across walks, keyed by the statement's
 * inputs (w->stmtkey) and the tensor's and the indices'. */
static isl_map *memo_access(walk *w, tensor *t, int n, ast_expr **idx, int *exact)
{
    an_key *k = &w->scratch;
    k->len = 0;
    an_key_cat(k, &w->stmtkey);
    an_key_str(k, "access");
    an_key_str(k, t->isl_name);
    an_key_int(k, t->scope_depth);
    an_key_int(k, t->ndim);
    for (int d = 0; d < t->ndim; d++)
        an_key_expr(k, t->shape[d]);
    an_key_int(k, n);
    for (int d = 0; d < n; d++)
        an_key_expr(k, idx[d]);
    const an_memo_val *v = an_memo_get(w->memo, k);
    if (v) {
        *exact = v->flag;
        return isl_map_copy(v->map);
    }
    isl_map *rel = access_rel(w, t, n, idx, exact);
    rel = isl_map_coalesce(isl_map_intersect_domain(rel, isl_set_copy(w->cur->domain)));
    an_memo_put(w->memo, k, (an_memo_val){.map = isl_map_copy(rel), .flag = *exact});
    return rel;
}

/* Add an access of tensor var from the current statement. */
static void add_access(walk *w, an_acc_kind kind, ast_reduce_op op, const char *var,
                       int n, ast_expr **idx, ast_stmt *s, ast_expr *load)
{
    tensor *t = find_tensor(w, var);
    if (!t)
        return;     /* invariant of lowering: every name is declared */
    if (w->carried_only && t->scope_depth > w->a->root_depth)
        return;     /* private to an iteration of root */
    int exact = 1;
    isl_map *rel = memo_access(w, t, n, idx, &exact);
    an_access *acc = add_access_rel(w->a, kind, op, rel, exact);
    if (acc) {
        acc->stmt = s;
        acc->load = load;
        acc->scope_depth = t->scope_depth;
    }
}

/* Expression visitor: every Load is a read of the current statement. */
static void walk_expr(ast_visitor *v, ast_expr *e)
{
    walk *w = (walk *)v;
    if (e->kind == AST_LOAD)
        add_access(w, AN_ACC_READ, AST_RED_ADD, e->u.load.var, e->u.load.n, e->u.load.idx,
                   w->cur->stmt, e);
}

/* Collect the Loads of n expressions as reads of w->cur. */
static void walk_exprs(walk *w, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++)
        ast_visit_expr(es[i], &w->v);
}

static void walk_stmt(walk *w, ast_stmt *s);

/* The body of a For, one loop deeper. */
static void walk_loop_body(walk *w, ast_stmt *s)
{
    ft_vec_push(w->a->ctx, &w->loops, s);
    domain_changed(w);
    walk_stmt(w, s->u.loop.body);
    w->loops.len--;
    domain_changed(w);
}

/* The branches of an If, each under its side of the condition. */
static void walk_branches(walk *w, ast_stmt *s)
{
    ft_ctx *ctx = w->a->ctx;
    cond_entry *c = ft_alloc(ctx, sizeof *c);
    *c = (cond_entry){s->u.branch.cond, 1};
    ft_vec_push(ctx, &w->conds, c);
    domain_changed(w);
    walk_stmt(w, s->u.branch.then);
    if (s->u.branch.other) {
        cond_entry *e = ft_alloc(ctx, sizeof *e);
        *e = (cond_entry){s->u.branch.cond, 0};
        w->conds.items[w->conds.len - 1] = e;
        domain_changed(w);
        walk_stmt(w, s->u.branch.other);
    }
    w->conds.len--;
    domain_changed(w);
}

/* A statement that is one instance per iteration: Store, Reduce, Assert,
 * Eval, and the shape of a VarDef. */
static void walk_leaf(walk *w, ast_stmt *s, int self)
{
    w->cur = begin_stmt(w, s, 2 * self + 1);
    switch (s->kind) {
    case AST_STORE:
        walk_exprs(w, s->u.store.n, s->u.store.idx);
        ast_visit_expr(s->u.store.value, &w->v);
        add_access(w, AN_ACC_WRITE, AST_RED_ADD, s->u.store.var, s->u.store.n,
                   s->u.store.idx, s, NULL);
        break;
    case AST_REDUCE:
        walk_exprs(w, s->u.red.n, s->u.red.idx);
        ast_visit_expr(s->u.red.value, &w->v);
        add_access(w, AN_ACC_REDUCE, s->u.red.op, s->u.red.var, s->u.red.n, s->u.red.idx,
                   s, NULL);
        break;
    case AST_ASSERT: ast_visit_expr(s->u.cond, &w->v); break;
    case AST_EVAL: ast_visit_expr(s->u.expr, &w->v); break;
    case AST_VARDEF: walk_exprs(w, s->u.def.ndim, s->u.def.shape); break;
    default: break;
    }
}

/* Walk the children of s with s among the ancestors. */
static void walk_children(walk *w, ast_stmt *s)
{
    ft_ctx *ctx = w->a->ctx;
    ft_vec_push(ctx, &w->anc, s);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            walk_stmt(w, s->u.seq.stmts[i]);
        break;
    case AST_FOR: walk_loop_body(w, s); break;
    case AST_IF: walk_branches(w, s); break;
    case AST_VARDEF:
        push_tensor(w, s->u.def.name, s->u.def.ndim, s->u.def.shape, s->id);
        walk_stmt(w, s->u.def.body);
        w->tensors.len--;
        break;
    default: break;
    }
    w->anc.len--;
}

/* Whether s is root or encloses it (an_collect_accesses_in). */
static int on_path(const walk *w, const ast_stmt *s)
{
    for (int i = 0; i < w->path.len; i++)
        if (w->path.items[i] == s)
            return 1;
    return 0;
}

/* Records the names of the VarDefs under a skipped statement. */
typedef struct name_walk {
    ast_visitor v;
    walk *w;
} name_walk;

static int name_walk_cb(ast_visitor *v, ast_stmt *s)
{
    walk *w = ((name_walk *)v)->w;
    if (s->kind == AST_VARDEF)
        ft_vec_push(w->a->ctx, &w->used_names, (void *)s->u.def.name);
    return 1;
}

/* A skipped statement's tensors still take their names (push_tensor), so
 * that the tensors kept are named as in a whole walk (messages alike). */
static void skip_names(walk *w, ast_stmt *s)
{
    name_walk nw = {.v.stmt = name_walk_cb, .w = w};
    ast_visit(s, &nw.v);
}

/* Root, a sequence, with its items lo..hi only (the others skipped). */
static void walk_items(walk *w, ast_stmt *s)
{
    w->counter++;
    ft_vec_push(w->a->ctx, &w->anc, s);
    for (int i = 0; i < s->u.seq.n; i++) {
        if (i >= w->lo && i <= w->hi)
            walk_stmt(w, s->u.seq.stmts[i]);
        else
            skip_names(w, s->u.seq.stmts[i]);
    }
    w->anc.len--;
}

/* Outside root: a statement off the way to root is skipped (it has no
 * instance inside root); one enclosing root records no instances of its
 * own but sets up what root's statements see (loops, conditions,
 * tensors); root itself is walked whole.  The schedule constants of the
 * statements kept differ from a whole walk's, but only by the same amount
 * before root's level, so their order is the same. */
static void walk_path(walk *w, ast_stmt *s)
{
    if (!on_path(w, s)) {
        skip_names(w, s);
        return;
    }
    if (s == w->path.items[w->path.len - 1]) {
        w->in = 1;
        w->a->root_depth = w->loops.len;
        if (w->lo >= 0 && s->kind == AST_SEQ)
            walk_items(w, s);
        else
            walk_stmt(w, s);
        w->in = 0;
        return;
    }
    int self = w->counter++;
    if (s->kind == AST_FOR)
        w->pos[w->loops.len] = 2 * self + 1;
    walk_children(w, s);
}

/* Whether an access of tensor var from the current point is kept: not one
 * of a tensor private to an iteration of root when carried_only. */
static int kept_tensor(walk *w, const char *var)
{
    tensor *t = find_tensor(w, var);
    return !t || !w->carried_only || t->scope_depth <= w->a->root_depth;
}

/* Finds a Load of a kept tensor (own_kept). */
typedef struct kept_find {
    ast_visitor v;
    walk *w;
    int found;
} kept_find;

static void kept_find_expr(ast_visitor *v, ast_expr *e)
{
    kept_find *k = (kept_find *)v;
    if (e->kind == AST_LOAD && kept_tensor(k->w, e->u.load.var))
        k->found = 1;
}

/* Whether s's own instances (a For's bounds, an If's condition, a leaf)
 * access a kept tensor: with carried_only, the statements that access
 * only tensors private to root's iterations get no instances at all (most
 * of SoftRas' lane loops: 54 accesses kept of 1579, in 638 statements). */
static int own_kept(walk *w, ast_stmt *s)
{
    if (!w->carried_only || s == w->path.items[w->path.len - 1])
        return 1;
    kept_find k = {.v.expr = kept_find_expr, .w = w};
    switch (s->kind) {
    case AST_FOR:
        ast_visit_expr(s->u.loop.begin, &k.v);
        ast_visit_expr(s->u.loop.end, &k.v);
        ast_visit_expr(s->u.loop.step, &k.v);
        break;
    case AST_IF: ast_visit_expr(s->u.branch.cond, &k.v); break;
    case AST_STORE:
        k.found = kept_tensor(w, s->u.store.var);
        for (int i = 0; i < s->u.store.n; i++)
            ast_visit_expr(s->u.store.idx[i], &k.v);
        ast_visit_expr(s->u.store.value, &k.v);
        break;
    case AST_REDUCE:
        k.found = kept_tensor(w, s->u.red.var);
        for (int i = 0; i < s->u.red.n; i++)
            ast_visit_expr(s->u.red.idx[i], &k.v);
        ast_visit_expr(s->u.red.value, &k.v);
        break;
    case AST_ASSERT: ast_visit_expr(s->u.cond, &k.v); break;
    case AST_EVAL: ast_visit_expr(s->u.expr, &k.v); break;
    case AST_VARDEF:
        for (int i = 0; i < s->u.def.ndim; i++)
            ast_visit_expr(s->u.def.shape[i], &k.v);
        break;
    default: break;
    }
    return k.found;
}

/* Walk one statement: its own instances (a For's bounds, an If's
 * condition, a leaf), then its children. */
static void walk_stmt(walk *w, ast_stmt *s)
{
    if (!s)
        return;
    if (!w->in) {
        walk_path(w, s);
        return;
    }
    int self = w->counter++;
    if (s->kind != AST_SEQ && !own_kept(w, s)) {
        if (s->kind == AST_FOR)
            w->pos[w->loops.len] = 2 * self + 1;
    } else if (s->kind == AST_FOR) {
        w->cur = begin_stmt(w, s, 2 * self);
        ast_expr *bounds[3] = {s->u.loop.begin, s->u.loop.end, s->u.loop.step};
        walk_exprs(w, 3, bounds);
        w->pos[w->loops.len] = 2 * self + 1;
    } else if (s->kind == AST_IF) {
        w->cur = begin_stmt(w, s, 2 * self + 1);
        walk_exprs(w, 1, &s->u.branch.cond);
    } else if (s->kind != AST_SEQ) {
        walk_leaf(w, s, self);
    }
    walk_children(w, s);
}

/* Loop nesting depth of s. */
static int loop_depth(const ast_stmt *s)
{
    if (!s)
        return 0;
    int m = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++) {
            int d = loop_depth(s->u.seq.stmts[i]);
            m = d > m ? d : m;
        }
        return m;
    case AST_VARDEF: return loop_depth(s->u.def.body);
    case AST_FOR: return 1 + loop_depth(s->u.loop.body);
    case AST_IF: {
        int a = loop_depth(s->u.branch.then), b = loop_depth(s->u.branch.other);
        return a > b ? a : b;
    }
    default: return 0;
    }
}

/* The parameter space of f: its sizes, in order. */
static isl_space *func_params(isl_ctx *isl, ast_func *f)
{
    int n = 0;
    for (int i = 0; i < f->nparams; i++)
        n += f->params[i].is_size;
    isl_space *sp = isl_space_params_alloc(isl, (unsigned)n);
    for (int i = 0, k = 0; i < f->nparams; i++)
        if (f->params[i].is_size)
            sp = isl_space_set_dim_name(sp, isl_dim_param, (unsigned)k++, f->params[i].name);
    return sp;
}

/* Find the statements from s down to root (root last) into path; 1 when
 * root is under s. */
static int find_path(ft_ctx *ctx, ast_stmt *s, const ast_stmt *root, ft_vec *path)
{
    if (!s)
        return 0;
    ft_vec_push(ctx, path, s);
    if (s == root)
        return 1;
    int found = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n && !found; i++)
            found = find_path(ctx, s->u.seq.stmts[i], root, path);
        break;
    case AST_FOR: found = find_path(ctx, s->u.loop.body, root, path); break;
    case AST_VARDEF: found = find_path(ctx, s->u.def.body, root, path); break;
    case AST_IF:
        found = find_path(ctx, s->u.branch.then, root, path) ||
                find_path(ctx, s->u.branch.other, root, path);
        break;
    default: break;
    }
    if (!found)
        path->len--;
    return found;
}

an_accesses *an_collect_accesses(ft_ctx *ctx, ast_func *f)
{
    return an_collect_accesses_in(ctx, f, NULL);
}

an_accesses *an_collect_accesses_in(ft_ctx *ctx, ast_func *f, const ast_stmt *root)
{
    return an_collect_accesses_items(ctx, f, root, -1, -1);
}

/* The walk of an_collect_accesses_items and an_collect_accesses_carried. */
static an_accesses *collect(ft_ctx *ctx, ast_func *f, const ast_stmt *root, int lo, int hi,
                            int carried_only)
{
    isl_ctx *isl = ft_isl(ctx);
    an_accesses *a = an_accesses_new(ctx, isl);
    a->func = f;
    walk w = {.v.expr = walk_expr, .a = a, .in = !root, .lo = lo, .hi = hi,
              .carried_only = carried_only, .memo = an_deps_cache_memo(ctx)};
    int found = !root || find_path(ctx, f->body, root, &w.path);
    w.params = func_params(isl, f);
    isl_set_free(a->context);
    a->context = sizes_context(w.params);
    w.pos_cap = loop_depth(f->body);
    a->sched_dims = 2 * w.pos_cap + 1;
    w.pos = ft_alloc(ctx, sizeof(int) * (size_t)(w.pos_cap + 1));
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].is_size)
            push_tensor(&w, f->params[i].name, f->params[i].ndim, f->params[i].shape, 0);
    label_state ls = {.v.stmt = collect_label, .ctx = ctx, .labels = &w.labels};
    ast_visit(f->body, &ls.v);
    if (found)                 /* else root is not in f: no statements */
        walk_stmt(&w, f->body);
    isl_set_free(w.domain);
    isl_space_free(w.params);
    an_key_free(&w.domkey);
    an_key_free(&w.stmtkey);
    an_key_free(&w.scratch);
    return a;
}

an_accesses *an_collect_accesses_items(ft_ctx *ctx, ast_func *f, const ast_stmt *root,
                                       int lo, int hi)
{
    return collect(ctx, f, root, lo, hi, 0);
}

an_accesses *an_collect_accesses_carried(ft_ctx *ctx, ast_func *f, const ast_stmt *loop)
{
    return collect(ctx, f, loop, -1, -1, 1);
}

/* -------------------------------------------------------- the table */

an_accesses *an_accesses_new(ft_ctx *ctx, isl_ctx *isl)
{
    an_accesses *a = ft_alloc(ctx, sizeof *a);
    a->ctx = ctx;
    a->isl = isl;
    a->context = isl_set_universe(isl_space_params_alloc(isl, 0));
    return a;
}

/* Append p to an arena array of n pointers (grown by doubling). */
static void **grow(ft_ctx *ctx, void **arr, int n, void *p)
{
    if ((n & (n - 1)) == 0) {        /* n is 0 or a power of two: full */
        void **bigger = ft_alloc(ctx, sizeof(void *) * (size_t)(n ? 2 * n : 4));
        if (n)
            memcpy(bigger, arr, sizeof(void *) * (size_t)n);
        arr = bigger;
    }
    arr[n] = p;
    return arr;
}

/* an_add_stmt with the schedule restricted to the domain already. */
static an_stmt_info *add_stmt(an_accesses *a, const char *name, isl_set *domain,
                              isl_map *schedule)
{
    an_stmt_info *info = ft_alloc(a->ctx, sizeof *info);
    info->name = ft_strdup(a->ctx, name);
    info->domain = domain;
    info->schedule = schedule;
    if (info->domain)
        info->depth = isl_set_dim(domain, isl_dim_set);
    a->stmts = (an_stmt_info **)grow(a->ctx, (void **)a->stmts, a->nstmts++, info);
    return info;
}

an_stmt_info *an_add_stmt(an_accesses *a, const char *name,
                          __isl_take isl_set *domain, __isl_take isl_map *schedule)
{
    return add_stmt(a, name, domain, isl_map_intersect_domain(schedule, isl_set_copy(domain)));
}

const char *an_stmt_tuple(ft_ctx *ctx, const ast_stmt *s)
{
    return s->label ? s->label : ft_fmt(ctx, "S%d", s->id);
}

an_stmt_info *an_find_stmt(const an_accesses *a, const char *name)
{
    for (int i = a->nstmts - 1; i >= 0; i--)
        if (strcmp(a->stmts[i]->name, name) == 0)
            return a->stmts[i];
    return NULL;
}

/* [S[i] -> R<k>[]] -> S[i] on the space of S. */
static isl_map *tagger(isl_space *stmt_sp, int tag)
{
    char name[32];
    snprintf(name, sizeof name, "R%d", tag);
    isl_space *r = isl_space_set_tuple_name(set_space_like(stmt_sp, 0), isl_dim_set, name);
    isl_space *sp = isl_space_map_from_domain_and_range(isl_space_copy(stmt_sp), r);
    return isl_map_domain_map(isl_map_universe(sp));
}

/* an_add_access with rel restricted to its statement's domain already. */
static an_access *add_access_rel(an_accesses *a, an_acc_kind kind, ast_reduce_op op,
                                 isl_map *rel, int exact)
{
    const char *sname = rel ? isl_map_get_tuple_name(rel, isl_dim_in) : NULL;
    an_stmt_info *info = sname ? an_find_stmt(a, sname) : NULL;
    if (!info) {
        isl_map_free(rel);
        return NULL;
    }
    an_access *acc = ft_alloc(a->ctx, sizeof *acc);
    acc->tag = a->n;
    acc->kind = kind;
    acc->op = op;
    acc->stmt_name = info->name;
    acc->exact = exact;
    acc->var = ft_strdup(a->ctx, isl_map_get_tuple_name(rel, isl_dim_out));
    acc->rel = rel;
    acc->tagged = NULL;        /* made when first asked for (tagged_rel) */
    a->acc = (an_access **)grow(a->ctx, (void **)a->acc, a->n++, acc);
    return acc;
}

an_access *an_add_access(an_accesses *a, an_acc_kind kind, ast_reduce_op op,
                         __isl_take isl_map *rel, int exact)
{
    const char *sname = rel ? isl_map_get_tuple_name(rel, isl_dim_in) : NULL;
    an_stmt_info *info = sname ? an_find_stmt(a, sname) : NULL;
    if (info)
        rel = isl_map_coalesce(isl_map_intersect_domain(rel, isl_set_copy(info->domain)));
    return add_access_rel(a, kind, op, rel, exact);
}

void an_accesses_free(an_accesses *a)
{
    if (!a)
        return;
    for (int i = 0; i < a->n; i++) {
        isl_map_free(a->acc[i]->rel);
        isl_map_free(a->acc[i]->tagged);
    }
    for (int i = 0; i < a->nstmts; i++) {
        isl_set_free(a->stmts[i]->domain);
        isl_map_free(a->stmts[i]->schedule);
    }
    isl_set_free(a->context);
    a->n = a->nstmts = 0;
    a->context = NULL;
}

/* acc's tagged relation { [S[i] -> R<k>[]] -> var[x] }, made on first use
 * and kept in acc->tagged: only the whole function's flow computation
 * (deps.c) needs it, and an_loop_deps / an_region_deps collect accesses
 * many times without ever asking.  Its domain space is the statement's
 * (as when it was made with the access). */
static isl_map *tagged_rel(const an_accesses *a, an_access *acc)
{
    if (!acc->tagged) {
        isl_space *sp = isl_set_get_space(an_find_stmt(a, acc->stmt_name)->domain);
        acc->tagged = isl_map_apply_range(tagger(sp, acc->tag), isl_map_copy(acc->rel));
        isl_space_free(sp);
    }
    return acc->tagged;
}

__isl_give isl_union_map *an_access_union(const an_accesses *a, unsigned kinds, int tagged)
{
    isl_union_map *u = isl_union_map_empty(isl_set_get_space(a->context));
    for (int i = 0; i < a->n; i++)
        if (kinds & (1u << a->acc[i]->kind))
            u = isl_union_map_add_map(u, isl_map_copy(tagged ? tagged_rel(a, a->acc[i])
                                                             : a->acc[i]->rel));
    return u;
}

__isl_give isl_union_map *an_schedule(const an_accesses *a, int tagged)
{
    isl_union_map *u = isl_union_map_empty(isl_set_get_space(a->context));
    if (!tagged) {
        for (int i = 0; i < a->nstmts; i++)
            u = isl_union_map_add_map(u, isl_map_copy(a->stmts[i]->schedule));
        return u;
    }
    for (int i = 0; i < a->n; i++) {
        an_stmt_info *info = an_find_stmt(a, a->acc[i]->stmt_name);
        isl_space *sp = isl_set_get_space(info->domain);
        isl_map *m = isl_map_apply_range(tagger(sp, a->acc[i]->tag),
                                         isl_map_copy(info->schedule));
        isl_space_free(sp);
        u = isl_union_map_add_map(u, m);
    }
    return u;
}

int an_stmt_inside(const an_stmt_info *info, const ast_stmt *s)
{
    if (info->stmt == s)
        return 1;
    for (int i = 0; i < info->nanc; i++)
        if (info->anc[i] == s)
            return 1;
    return 0;
}

__isl_give isl_union_set *an_domains_inside(const an_accesses *a, const ast_stmt *s)
{
    isl_union_set *u = isl_union_set_empty(isl_set_get_space(a->context));
    for (int i = 0; i < a->nstmts; i++)
        if (an_stmt_inside(a->stmts[i], s))
            u = isl_union_set_add_set(u, isl_set_copy(a->stmts[i]->domain));
    return u;
}
