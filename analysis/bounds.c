/* bounds.c - candidate bounds of integer expressions (bounds.h).
 *
 * Requires: expressions of a lowered function (iterators and sizes are
 * AST_VAR of i64).
 * Provides: linear forms, symbolic and constant bounds, guard proofs.
 */
#include "bounds.h"

#include <string.h>

#include <isl/set.h>
#include <isl/space.h>

#include "access.h"
#include "memo.h"

enum { MAX_CANDIDATES = 32 };

/* What is known of one variable in scope. */
typedef struct bvar {
    const char *name;
    int is_size;
    ft_vec lower;            /* an_lin *: name >= each */
    ft_vec upper;            /* an_lin *: name <= each */
} bvar;

/* A fact for isl: cond is true (positive) or false. */
typedef struct fact {
    const ast_expr *cond;
    int positive;
} fact;

/* One undo record: a candidate added to a variable, or a scope entered. */
typedef struct undo {
    bvar *var;               /* NULL: a variable was pushed */
    ft_vec *list;
} undo;

struct an_bounds {
    ft_ctx *ctx;
    ft_vec vars;             /* bvar *, sizes first, then iterators */
    ft_vec facts;            /* fact *: loop ranges and conditions */
    ft_vec undos;            /* undo *, for an_bounds_pop */
};

/* ------------------------------------------------------ linear forms */

/* Whether two atoms are the same variable or expression. */
static int atom_equal(const ast_expr *a, const ast_expr *b)
{
    if (a->kind == AST_VAR && b->kind == AST_VAR)
        return strcmp(a->u.name, b->u.name) == 0;
    return ast_expr_equal(a, b);
}

/* out = a + k * b (arena arrays); 0 on overflow. */
static int lin_axpy(ft_ctx *ctx, const an_lin *a, int64_t k, const an_lin *b, an_lin *out)
{
    int cap = a->n + b->n;
    an_lin r = {0, 0, ft_alloc(ctx, sizeof(int64_t) * (size_t)(cap + 1)),
                ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(cap + 1))};
    int64_t t;
    if (__builtin_mul_overflow(k, b->c, &t) || __builtin_add_overflow(a->c, t, &r.c))
        return 0;
    for (int i = 0; i < a->n; i++) {
        r.coef[r.n] = a->coef[i];
        r.atom[r.n++] = a->atom[i];
    }
    for (int i = 0; i < b->n; i++) {
        if (__builtin_mul_overflow(k, b->coef[i], &t))
            return 0;
        int j = 0;
        while (j < r.n && !atom_equal(r.atom[j], b->atom[i]))
            j++;
        if (j == r.n) {
            r.coef[r.n] = 0;
            r.atom[r.n++] = b->atom[i];
        }
        if (__builtin_add_overflow(r.coef[j], t, &r.coef[j]))
            return 0;
    }
    int m = 0;                   /* drop zero terms */
    for (int i = 0; i < r.n; i++)
        if (r.coef[i]) {
            r.coef[m] = r.coef[i];
            r.atom[m++] = r.atom[i];
        }
    r.n = m;
    *out = r;
    return 1;
}

/* The linear form of a single atom. */
static an_lin lin_atom(ft_ctx *ctx, const ast_expr *e)
{
    an_lin r = {0, 1, ft_alloc(ctx, sizeof(int64_t)), ft_alloc(ctx, sizeof(ast_expr *))};
    r.coef[0] = 1;
    r.atom[0] = e;
    return r;
}

int an_lin_of(ft_ctx *ctx, const ast_expr *e, an_lin *out)
{
    an_lin a, b, zero = {0};
    if (!ft_dtype_is_int(e->dtype))
        return 0;
    switch (e->kind) {
    case AST_INT: *out = (an_lin){e->u.ival, 0, NULL, NULL}; return 1;
    case AST_CAST: return an_lin_of(ctx, e->u.cast.a, out) || (*out = lin_atom(ctx, e), 1);
    case AST_UNARY:
        if (e->u.un.op == AST_NEG && an_lin_of(ctx, e->u.un.a, &a) &&
            lin_axpy(ctx, &zero, -1, &a, out))
            return 1;
        break;
    case AST_BINARY:
        if (e->u.bin.op != AST_ADD && e->u.bin.op != AST_SUB && e->u.bin.op != AST_MUL)
            break;
        if (!an_lin_of(ctx, e->u.bin.a, &a) || !an_lin_of(ctx, e->u.bin.b, &b))
            break;
        if (e->u.bin.op == AST_MUL) {
            if (a.n == 0 && lin_axpy(ctx, &zero, a.c, &b, out))
                return 1;
            if (b.n == 0 && lin_axpy(ctx, &zero, b.c, &a, out))
                return 1;
            break;
        }
        if (lin_axpy(ctx, &a, e->u.bin.op == AST_ADD ? 1 : -1, &b, out))
            return 1;
        break;
    default: break;
    }
    *out = lin_atom(ctx, e);
    return 1;
}

/* ------------------------------------------------------ environment */

/* The index of variable name in scope (innermost), or -1. */
static int var_index(const an_bounds *b, const char *name)
{
    for (int i = b->vars.len - 1; i >= 0; i--)
        if (strcmp(((bvar *)b->vars.items[i])->name, name) == 0)
            return i;
    return -1;
}

/* The highest variable index among the atoms of l; opaque atoms count as
 * infinitely inner (*opaque set). */
static int innermost(const an_bounds *b, const an_lin *l, int *at, int *opaque)
{
    int best = -1;
    *opaque = 0;
    for (int i = 0; i < l->n; i++) {
        int v = l->atom[i]->kind == AST_VAR ? var_index(b, l->atom[i]->u.name) : -1;
        if (v < 0)
            *opaque = 1;
        else if (v > best) {
            best = v;
            *at = i;
        }
    }
    return best;
}

/* Record that var has candidate c in list (undone by an_bounds_pop). */
static void add_candidate(an_bounds *b, bvar *v, ft_vec *list, an_lin *c)
{
    ft_vec_push(b->ctx, list, c);
    undo *u = ft_alloc(b->ctx, sizeof *u);
    *u = (undo){v, list};
    ft_vec_push(b->ctx, &b->undos, u);
}

/* Push a variable with no bounds yet. */
static bvar *push_var(an_bounds *b, const char *name, int is_size)
{
    bvar *v = ft_alloc(b->ctx, sizeof *v);
    v->name = name;
    v->is_size = is_size;
    ft_vec_push(b->ctx, &b->vars, v);
    undo *u = ft_alloc(b->ctx, sizeof *u);
    ft_vec_push(b->ctx, &b->undos, u);
    return v;
}

/* From the fact l >= 0: a bound of its innermost variable, when that
 * variable has coefficient +-1 and nothing opaque is involved. */
static void learn_nonneg(an_bounds *b, const an_lin *l)
{
    int at = 0, opaque;
    int v = innermost(b, l, &at, &opaque);
    if (v < 0 || opaque || (l->coef[at] != 1 && l->coef[at] != -1))
        return;
    int64_t k = l->coef[at];
    an_lin x = lin_atom(b->ctx, l->atom[at]), *c = ft_alloc(b->ctx, sizeof *c);
    /* k = 1: x >= x - l;  k = -1: x <= x + l */
    if (!lin_axpy(b->ctx, &x, -k, l, c))
        return;
    bvar *bv = b->vars.items[v];
    add_candidate(b, bv, k > 0 ? &bv->lower : &bv->upper, c);
}

/* The linear form of y - x + d (d adjusts strictness); 0 if not integer. */
static int lin_diff(ft_ctx *ctx, const ast_expr *x, const ast_expr *y, int64_t d, an_lin *out)
{
    an_lin a, bb, t;
    if (!ft_dtype_is_int(x->dtype) || !ft_dtype_is_int(y->dtype) ||
        !an_lin_of(ctx, x, &a) || !an_lin_of(ctx, y, &bb) || !lin_axpy(ctx, &bb, -1, &a, &t))
        return 0;
    an_lin dl = {d, 0, NULL, NULL};
    return lin_axpy(ctx, &t, 1, &dl, out);
}

/* Learn the bounds cond (true when positive) implies. */
static void learn_cond(an_bounds *b, const ast_expr *cond, int positive)
{
    if (cond->kind == AST_UNARY && cond->u.un.op == AST_NOT) {
        learn_cond(b, cond->u.un.a, !positive);
        return;
    }
    if (cond->kind != AST_BINARY)
        return;
    ast_binop op = cond->u.bin.op;
    if ((op == AST_AND && positive) || (op == AST_OR && !positive)) {
        learn_cond(b, cond->u.bin.a, positive);
        learn_cond(b, cond->u.bin.b, positive);
        return;
    }
    if (!positive)
        op = op == AST_LT ? AST_GE : op == AST_LE ? AST_GT : op == AST_GT ? AST_LE
           : op == AST_GE ? AST_LT : op == AST_EQ ? AST_NE : op == AST_NE ? AST_EQ : AST_AND;
    const ast_expr *x = cond->u.bin.a, *y = cond->u.bin.b;
    an_lin l;
    int ok = 0;
    switch (op) {
    case AST_LT: ok = lin_diff(b->ctx, x, y, -1, &l); break;     /* y - x - 1 >= 0 */
    case AST_LE: ok = lin_diff(b->ctx, x, y, 0, &l); break;
    case AST_GT: ok = lin_diff(b->ctx, y, x, -1, &l); break;
    case AST_GE: ok = lin_diff(b->ctx, y, x, 0, &l); break;
    case AST_EQ:
        if (lin_diff(b->ctx, x, y, 0, &l)) {
            learn_nonneg(b, &l);
            an_lin zero = {0}, neg;
            if (lin_axpy(b->ctx, &zero, -1, &l, &neg))
                learn_nonneg(b, &neg);
        }
        return;
    default: return;
    }
    if (ok)
        learn_nonneg(b, &l);
}

an_bounds *an_bounds_new(ft_ctx *ctx, const ast_func *f)
{
    an_bounds *b = ft_alloc(ctx, sizeof *b);
    b->ctx = ctx;
    for (int i = 0; f && i < f->nparams; i++)
        if (f->params[i].is_size) {
            bvar *v = push_var(b, f->params[i].name, 1);
            an_lin *zero = ft_alloc(ctx, sizeof *zero);
            add_candidate(b, v, &v->lower, zero);
        }
    b->undos.len = 0;     /* the sizes stay for good */
    return b;
}

/* Remember a fact for the isl fallback. */
static void add_fact(an_bounds *b, const ast_expr *cond, int positive)
{
    fact *f = ft_alloc(b->ctx, sizeof *f);
    *f = (fact){cond, positive};
    ft_vec_push(b->ctx, &b->facts, f);
    undo *u = ft_alloc(b->ctx, sizeof *u);
    u->list = &b->facts;
    ft_vec_push(b->ctx, &b->undos, u);
}

void an_bounds_push_loop(an_bounds *b, const ast_stmt *loop)
{
    ft_ctx *ctx = b->ctx;
    push_var(b, loop->u.loop.iter, 0);
    const ast_expr *st = loop->u.loop.step;
    if (st->kind != AST_INT || st->u.ival == 0)
        return;
    ast_expr *it = ast_var(ctx, loop->loc, loop->u.loop.iter);
    int up = st->u.ival > 0;
    ast_expr *lo = ast_binary(ctx, loop->loc, up ? AST_GE : AST_LE, it, loop->u.loop.begin);
    ast_expr *hi = ast_binary(ctx, loop->loc, up ? AST_LT : AST_GT, it, loop->u.loop.end);
    learn_cond(b, lo, 1);
    learn_cond(b, hi, 1);
    add_fact(b, lo, 1);
    add_fact(b, hi, 1);
}

void an_bounds_push_cond(an_bounds *b, const ast_expr *cond, int positive)
{
    learn_cond(b, cond, positive);
    add_fact(b, cond, positive);
}

int an_bounds_mark(const an_bounds *b) { return b->undos.len; }
int an_bounds_depth(const an_bounds *b) { return b->vars.len; }

void an_bounds_pop(an_bounds *b, int mark)
{
    while (b->undos.len > mark) {
        undo *u = b->undos.items[--b->undos.len];
        if (u->var)
            u->list->len--;
        else if (u->list)
            u->list->len--;
        else
            b->vars.len--;
    }
}

/* ------------------------------------------------------ symbolic bounds */

/* Substitute the variables of l at index >= scope by their candidates,
 * innermost first (lower: toward smaller values); appends to out. */
static void bound_lin(an_bounds *b, const an_lin *l, int scope, int lower, ft_vec *out)
{
    if (out->len >= MAX_CANDIDATES)
        return;
    int at = 0, opaque;
    int v = innermost(b, l, &at, &opaque);
    if (opaque)
        return;                  /* an unknown atom: no bound */
    if (v < scope) {
        an_lin *c = ft_alloc(b->ctx, sizeof *c);
        *c = *l;
        ft_vec_push(b->ctx, out, c);
        return;
    }
    int64_t k = l->coef[at];
    bvar *bv = b->vars.items[v];
    ft_vec *cands = (k > 0) == (lower != 0) ? &bv->lower : &bv->upper;
    an_lin x = lin_atom(b->ctx, l->atom[at]);
    for (int i = 0; i < cands->len; i++) {
        an_lin without, with;
        if (lin_axpy(b->ctx, l, -k, &x, &without) &&
            lin_axpy(b->ctx, &without, k, cands->items[i], &with))
            bound_lin(b, &with, scope, lower, out);
    }
}

/* Bounds of e in scope (lower or upper), as an arena array. */
static int bounds_of(an_bounds *b, const ast_expr *e, int scope, int lower, an_lin **out)
{
    an_lin l;
    ft_vec v = {0};
    if (an_lin_of(b->ctx, e, &l))
        bound_lin(b, &l, scope, lower, &v);
    *out = ft_alloc(b->ctx, sizeof(an_lin) * (size_t)(v.len + 1));
    for (int i = 0; i < v.len; i++)
        (*out)[i] = *(an_lin *)v.items[i];
    return v.len;
}

int an_lower_bounds(an_bounds *b, const ast_expr *e, int scope, an_lin **out)
{
    return bounds_of(b, e, scope, 1, out);
}

int an_upper_bounds(an_bounds *b, const ast_expr *e, int scope, an_lin **out)
{
    return bounds_of(b, e, scope, 0, out);
}

/* The tightest constant bounds of a linear form. */
static an_range lin_range(an_bounds *b, const an_lin *l)
{
    an_range r = {0};
    if (l->n == 0)
        return (an_range){1, 1, l->c, l->c};
    for (int lower = 0; lower <= 1; lower++) {
        ft_vec v = {0};
        bound_lin(b, l, 0, lower, &v);
        for (int i = 0; i < v.len; i++) {
            int64_t c = ((an_lin *)v.items[i])->c;
            if (lower && (!r.has_lo || c > r.lo))
                r.lo = c, r.has_lo = 1;
            if (!lower && (!r.has_hi || c < r.hi))
                r.hi = c, r.has_hi = 1;
        }
    }
    return r;
}

/* ------------------------------------------------------ constant ranges */

/* The tighter of two ranges. */
static an_range meet(an_range a, an_range b)
{
    if (b.has_lo && (!a.has_lo || b.lo > a.lo))
        a.lo = b.lo, a.has_lo = 1;
    if (b.has_hi && (!a.has_hi || b.hi < a.hi))
        a.hi = b.hi, a.has_hi = 1;
    return a;
}

/* Interval arithmetic for the operators that are not linear. */
static an_range range_nonlinear(an_bounds *b, const ast_expr *e)
{
    an_range none = {0};
    if (e->kind != AST_BINARY)
        return e->kind == AST_CAST ? an_range_of(b, e->u.cast.a) : none;
    an_range x = an_range_of(b, e->u.bin.a), y = an_range_of(b, e->u.bin.b);
    int64_t c = y.lo;
    int cst = y.has_lo && y.has_hi && y.lo == y.hi;
    switch (e->u.bin.op) {
    case AST_MIN:
        return (an_range){x.has_lo && y.has_lo, x.has_hi || y.has_hi,
                          x.lo < y.lo ? x.lo : y.lo,
                          !y.has_hi || (x.has_hi && x.hi < y.hi) ? x.hi : y.hi};
    case AST_MAX:
        return (an_range){x.has_lo || y.has_lo, x.has_hi && y.has_hi,
                          !y.has_lo || (x.has_lo && x.lo > y.lo) ? x.lo : y.lo,
                          x.hi > y.hi ? x.hi : y.hi};
    case AST_FLOORDIV:
        if (!cst || c <= 0)
            return none;
        return (an_range){x.has_lo, x.has_hi, ast_floordiv(x.lo, c), ast_floordiv(x.hi, c)};
    case AST_MOD:
        if (!cst || c <= 0)
            return none;
        if (x.has_lo && x.has_hi && ast_floordiv(x.lo, c) == ast_floordiv(x.hi, c))
            return (an_range){1, 1, x.lo - c * ast_floordiv(x.lo, c), x.hi - c * ast_floordiv(x.lo, c)};
        return (an_range){1, 1, 0, c - 1};
    default: return none;
    }
}

an_range an_range_of(an_bounds *b, const ast_expr *e)
{
    an_range r = {0};
    if (!ft_dtype_is_int(e->dtype))
        return r;
    an_lin l;
    if (an_lin_of(b->ctx, e, &l) && !(l.n == 1 && l.atom[0] == e && e->kind != AST_VAR))
        r = lin_range(b, &l);
    return meet(r, range_nonlinear(b, e));
}

/* ------------------------------------------------------------- proofs */

/* Whether l >= 0 everywhere, from the linear bounds. */
static int lin_nonneg(an_bounds *b, const an_lin *l)
{
    an_range r = lin_range(b, l);
    return r.has_lo && r.lo >= 0;
}

/* Prove a comparison from the linear bounds and the ranges. */
static int prove_cmp(an_bounds *b, ast_binop op, const ast_expr *x, const ast_expr *y)
{
    an_lin l;
    switch (op) {
    case AST_LT: return lin_diff(b->ctx, x, y, -1, &l) && lin_nonneg(b, &l);
    case AST_LE: return lin_diff(b->ctx, x, y, 0, &l) && lin_nonneg(b, &l);
    case AST_GT: return lin_diff(b->ctx, y, x, -1, &l) && lin_nonneg(b, &l);
    case AST_GE: return lin_diff(b->ctx, y, x, 0, &l) && lin_nonneg(b, &l);
    case AST_EQ: return prove_cmp(b, AST_LE, x, y) && prove_cmp(b, AST_GE, x, y);
    case AST_NE: return prove_cmp(b, AST_LT, x, y) || prove_cmp(b, AST_GT, x, y);
    default: return 0;
    }
}

/* The fast path: bounds only (positive: prove cond; else prove not cond). */
static int prove_fast(an_bounds *b, const ast_expr *cond, int positive)
{
    if (cond->kind == AST_BOOLC)
        return cond->u.ival == positive;
    if (cond->kind == AST_UNARY && cond->u.un.op == AST_NOT)
        return prove_fast(b, cond->u.un.a, !positive);
    if (cond->kind != AST_BINARY)
        return 0;
    ast_binop op = cond->u.bin.op;
    const ast_expr *x = cond->u.bin.a, *y = cond->u.bin.b;
    if (op == AST_AND || op == AST_OR) {
        int both = (op == AST_AND) == (positive != 0);
        int pa = prove_fast(b, x, positive);
        return both ? pa && prove_fast(b, y, positive) : pa || prove_fast(b, y, positive);
    }
    if (op < AST_LT || op > AST_NE || !ft_dtype_is_int(x->dtype) || !ft_dtype_is_int(y->dtype))
        return 0;
    if (!positive)
        op = op == AST_LT ? AST_GE : op == AST_LE ? AST_GT : op == AST_GT ? AST_LE
           : op == AST_GE ? AST_LT : op == AST_EQ ? AST_NE : AST_EQ;
    return prove_cmp(b, op, x, y);
}

/* The isl space of the current point: iterators as dimensions, sizes as
 * parameters. */
static isl_space *point_space(an_bounds *b, isl_ctx *isl)
{
    int nsizes = 0, nit = 0;
    for (int i = 0; i < b->vars.len; i++)
        ((bvar *)b->vars.items[i])->is_size ? nsizes++ : nit++;
    isl_space *sp = isl_space_set_alloc(isl, (unsigned)nsizes, (unsigned)nit);
    for (int i = 0, p = 0, d = 0; i < b->vars.len; i++) {
        bvar *v = b->vars.items[i];
        if (v->is_size)
            sp = isl_space_set_dim_name(sp, isl_dim_param, (unsigned)p++, v->name);
        else
            sp = isl_space_set_dim_name(sp, isl_dim_set, (unsigned)d++, v->name);
    }
    return sp;
}

enum { AN_ISL_MAX_DIVS = 12 };

/* The number of `//` and `%` in e, counting up to cap: each is an
 * existential variable of the isl set built from e. */
static int count_divs(const ast_expr *e, int cap)
{
    int n = 0;
    while (e && n <= cap) {
        switch (e->kind) {
        case AST_BINARY:
            n += e->u.bin.op == AST_FLOORDIV || e->u.bin.op == AST_MOD;
            n += count_divs(e->u.bin.b, cap - n);
            e = e->u.bin.a;
            continue;
        case AST_UNARY: e = e->u.un.a; continue;
        case AST_CAST: e = e->u.cast.a; continue;
        default: return n;
        }
    }
    return n;
}

/* Whether the isl proof of cond under b's facts is small enough to try:
 * each `//` or `%` is an existential variable, and isl's work grows
 * exponentially with their number (a chain of splits nests one more floor
 * division in each loop's bounds and guard). */
static int isl_affordable(const an_bounds *b, const ast_expr *cond)
{
    int n = count_divs(cond, AN_ISL_MAX_DIVS);
    for (int i = 0; i < b->facts.len && n <= AN_ISL_MAX_DIVS; i++)
        n += count_divs(((const fact *)b->facts.items[i])->cond, AN_ISL_MAX_DIVS - n);
    return n <= AN_ISL_MAX_DIVS;
}

/* Into k: every input of prove_isl (the variables in scope, the facts,
 * cond), for the memo of the dependence cache (memo.h). */
static void proof_key(const an_bounds *b, const ast_expr *cond, an_key *k)
{
    an_key_str(k, "prove");
    for (int i = 0; i < b->vars.len; i++) {
        const bvar *v = b->vars.items[i];
        an_key_str(k, v->name);
        an_key_int(k, v->is_size);
    }
    an_key_int(k, b->facts.len);
    for (int i = 0; i < b->facts.len; i++) {
        const fact *f = b->facts.items[i];
        an_key_int(k, f->positive);
        an_key_expr(k, f->cond);
    }
    an_key_expr(k, cond);
}

/* prove_isl without the memo. */
static int prove_isl_fresh(an_bounds *b, const ast_expr *cond)
{
    isl_space *sp = point_space(b, ft_isl(b->ctx));
    isl_set *s = an_cond_set(sp, cond, 0);
    for (int i = 0; i < b->vars.len; i++)
        if (((bvar *)b->vars.items[i])->is_size) {
            int p = isl_space_find_dim_by_name(sp, isl_dim_param, ((bvar *)b->vars.items[i])->name);
            s = isl_set_lower_bound_si(s, isl_dim_param, (unsigned)p, 0);
        }
    for (int i = 0; i < b->facts.len; i++) {
        fact *f = b->facts.items[i];
        s = isl_set_intersect(s, an_cond_set(sp, f->cond, f->positive));
    }
    int r = isl_set_is_empty(s) == isl_bool_true;
    isl_set_free(s);
    isl_space_free(sp);
    return r;
}

/* The slow path: no point where the facts hold and cond fails.  Its
 * answers are remembered in the memo of the dependence cache when one is
 * open: the cleanup after each schedule primitive proves the same guards of
 * the whole function again (a tuner's candidate: half its compile time). */
static int prove_isl(an_bounds *b, const ast_expr *cond)
{
    if (!isl_affordable(b, cond))
        return 0;
    an_memo *memo = an_deps_cache_memo(b->ctx);
    an_key k = {0};
    if (memo) {
        proof_key(b, cond, &k);
        const an_memo_val *v = an_memo_get(memo, &k);
        if (v) {
            an_key_free(&k);
            return v->flag;
        }
    }
    int r = prove_isl_fresh(b, cond);
    if (memo)
        an_memo_put(memo, &k, (an_memo_val){.flag = r});
    an_key_free(&k);
    return r;
}

int an_bounds_prove(an_bounds *b, const ast_expr *cond)
{
    return prove_fast(b, cond, 1) || prove_isl(b, cond);
}
