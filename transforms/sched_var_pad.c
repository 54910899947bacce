/* sched_var_pad.c - var_pad(t, dim, before, after): a local tensor grows
 * zero margins in one dimension, and the guards that only kept its reads
 * inside the old shape go.
 *
 * Requires: f's AST.
 * Provides: dimension dim of local t, of size n, of size before + n +
 * after; every access t[.., e, ..] becomes t[.., e + before, ..]; the
 * margins (indices [0, before) and [before + n, before + n + after) of dim)
 * are written 0 first thing in t's scope.  Then each branch in t's scope
 *
 *     if c1 and c2 and ...:             (no else)
 *         u[..] += t[.., e, ..] * v     (one or more such sums)
 *
 * loses each comparison ck whose failure means e outside [0, n) but inside
 * the margins (-before <= e < n + after), with every other access of the
 * sums in its tensor's shape where the remaining comparisons hold (all
 * proven by analysis/bounds.h): the product then reads a 0 of the margin
 * and adds 0, so the sums may run there.  A branch left without
 * comparisons is replaced by its body.  This is the padding of a
 * convolution: `if 0 <= oh + kh - 1 < H: y += x[c, oh + kh - 1, ...] * w`
 * becomes an unguarded sum over a copy of x with a zero border, and its
 * inner loops vectorize and unroll without branches.  (Exactly the same
 * values, except where v is infinite or NaN: 0 * v is then NaN where the
 * guard skipped the product.)
 *
 * Always legal otherwise: a layout change, every access rewritten.
 * Refused: parameters (their layout is the ABI: cache first), a dimension
 * out of range, negative or zero padding, and an access of t whose index
 * in dim reads data (it is checked at run time against the unpadded
 * shape).
 */
#include "schedule.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "sched_util.h"
#include "xf_util.h"

/* What var_pad knows while it walks t's scope. */
typedef struct pad_walk {
    ft_ctx *ctx;
    ast_func *f;
    an_bounds *b;
    const char *var;
    int dim;
    int64_t before, after;
    ast_expr *n;          /* the dimension's size before padding */
    int dropped;          /* comparisons dropped */
} pad_walk;

/* The comparisons of a conjunction cond into out. */
static void conjuncts(ft_ctx *ctx, ast_expr *cond, ft_vec *out)
{
    if (cond->kind == AST_BINARY && cond->u.bin.op == AST_AND) {
        conjuncts(ctx, cond->u.bin.a, out);
        conjuncts(ctx, cond->u.bin.b, out);
    } else {
        ft_vec_push(ctx, out, cond);
    }
}

/* The load of var among the factors of product e (under casts), or NULL. */
static const ast_expr *factor_load(const ast_expr *e, const char *var)
{
    if (e->kind == AST_LOAD)
        return strcmp(e->u.load.var, var) ? NULL : e;
    if (e->kind == AST_CAST)
        return factor_load(e->u.cast.a, var);
    if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL) {
        const ast_expr *l = factor_load(e->u.bin.a, var);
        return l ? l : factor_load(e->u.bin.b, var);
    }
    return NULL;
}

/* Push the conjuncts of cs other than skip (and the dropped ones: NULL)
 * as true into pw's environment. */
static void push_others(pad_walk *pw, ft_vec *cs, int skip)
{
    for (int i = 0; i < cs->len; i++)
        if (i != skip && cs->items[i])
            an_bounds_push_cond(pw->b, cs->items[i], 1);
}

/* Whether 0 <= idx[k] < shape[k] is proven for every k (k != skip) of an
 * access of var at s. */
static int in_shape(pad_walk *pw, const ast_stmt *s, const char *var, int n, ast_expr **idx,
                    int skip)
{
    ft_ctx *ctx = pw->ctx;
    ast_expr **shape;
    int nd;
    if (!xf_find_decl(ctx, pw->f, s, var, NULL, &nd, &shape) || nd != n)
        return 0;
    for (int k = 0; k < n; k++) {
        ft_loc l = idx[k]->loc;
        if (k != skip &&
            (!an_bounds_prove(pw->b, ast_binary(ctx, l, AST_GE, idx[k], ast_int(ctx, l, 0))) ||
             !an_bounds_prove(pw->b, ast_binary(ctx, l, AST_LT, idx[k], shape[k]))))
            return 0;
    }
    return 1;
}

/* Whether every access of sum r other than its load of t's dimension is in
 * its tensor's shape (loads among the factors of a product; anything else
 * in the value must not load). */
static int others_in_shape(pad_walk *pw, const ast_stmt *r, const ast_expr *e)
{
    if (e->kind == AST_CAST)
        return others_in_shape(pw, r, e->u.cast.a);
    if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL)
        return others_in_shape(pw, r, e->u.bin.a) && others_in_shape(pw, r, e->u.bin.b);
    if (e->kind != AST_LOAD)
        return !xf_expr_has_load(e);
    for (int k = 0; k < e->u.load.n; k++)
        if (xf_expr_has_load(e->u.load.idx[k]))
            return 0;
    int t = !strcmp(e->u.load.var, pw->var);
    return in_shape(pw, r, e->u.load.var, e->u.load.n, e->u.load.idx, t ? pw->dim : -1);
}

/* Whether comparison k of guard cs may go for sum r, whose load of t has
 * index e in the padded dimension: where it fails (the others holding), e
 * is outside [0, n); e stays inside the margins; the other accesses of r
 * stay in their shapes. */
static int droppable(pad_walk *pw, ft_vec *cs, int k, const ast_stmt *r, ast_expr *e)
{
    ft_ctx *ctx = pw->ctx;
    ft_loc l = e->loc;
    int mark = an_bounds_mark(pw->b), ok;
    push_others(pw, cs, k);
    an_bounds_push_cond(pw->b, cs->items[k], 0);
    ok = an_bounds_prove(pw->b, ast_binary(ctx, l, AST_LT, e, ast_int(ctx, l, 0))) ||
         an_bounds_prove(pw->b, ast_binary(ctx, l, AST_GE, e, pw->n));
    an_bounds_pop(pw->b, mark);
    push_others(pw, cs, k);
    ok = ok && an_bounds_prove(pw->b, ast_binary(ctx, l, AST_GE, e, ast_int(ctx, l, -pw->before)));
    ok = ok && an_bounds_prove(pw->b, ast_binary(ctx, l, AST_LT, e,
                                                 xf_add(ctx, ast_clone_expr(ctx, pw->n),
                                                        ast_int(ctx, l, pw->after))));
    ok = ok && in_shape(pw, r, r->u.red.var, r->u.red.n, r->u.red.idx, -1) &&
         others_in_shape(pw, r, r->u.red.value);
    an_bounds_pop(pw->b, mark);
    return ok;
}

/* Drop the comparisons of branch s that only kept t's reads in its old
 * shape (see the header); s becomes its body when none is left. */
static void drop_guards(pad_walk *pw, ast_stmt *s)
{
    ast_stmt **items;
    int n = xf_body_items(&s->u.branch.then, &items);
    for (int i = 0; i < n; i++)
        if (items[i]->kind != AST_REDUCE || items[i]->u.red.op != AST_RED_ADD ||
            !factor_load(items[i]->u.red.value, pw->var))
            return;
    ft_vec cs = {0};
    conjuncts(pw->ctx, s->u.branch.cond, &cs);
    int left = cs.len;
    for (int k = 0; k < cs.len; k++) {
        int ok = 1;
        for (int i = 0; ok && i < n; i++) {
            const ast_expr *ld = factor_load(items[i]->u.red.value, pw->var);
            ok = droppable(pw, &cs, k, items[i], ld->u.load.idx[pw->dim]);
        }
        if (ok) {
            cs.items[k] = NULL;
            left--;
            pw->dropped++;
        }
    }
    if (left == cs.len)
        return;
    ast_expr *cond = NULL;
    for (int k = 0; k < cs.len; k++)
        if (cs.items[k])
            cond = cond ? ast_binary(pw->ctx, s->loc, AST_AND, cond, cs.items[k]) : cs.items[k];
    if (cond) {
        s->u.branch.cond = cond;
        return;
    }
    ast_stmt *then = s->u.branch.then;
    const char *label = s->label;
    *s = *then;
    s->label = s->label ? s->label : label;
}

/* Walk s (in t's scope) with its loops and branches in pw's environment,
 * dropping guards on the way. */
static void walk(pad_walk *pw, ast_stmt *s)
{
    if (!s)
        return;
    int mark = an_bounds_mark(pw->b);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            walk(pw, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        walk(pw, s->u.def.body);
        break;
    case AST_FOR:
        an_bounds_push_loop(pw->b, s);
        walk(pw, s->u.loop.body);
        break;
    case AST_IF:
        if (!s->u.branch.other)
            drop_guards(pw, s);
        if (s->kind != AST_IF) {
            walk(pw, s);
            break;
        }
        an_bounds_push_cond(pw->b, s->u.branch.cond, 1);
        walk(pw, s->u.branch.then);
        an_bounds_pop(pw->b, mark);
        an_bounds_push_cond(pw->b, s->u.branch.cond, 0);
        walk(pw, s->u.branch.other);
        break;
    default:
        break;
    }
    an_bounds_pop(pw->b, mark);
}

/* The nest writing 0 into t's margin [lo, lo + len) of dimension dim
 * (the other dimensions whole). */
static ast_stmt *margin_fill(pad_walk *pw, ast_stmt *def, ast_expr *lo, ast_expr *len)
{
    ft_ctx *ctx = pw->ctx;
    int nd = def->u.def.ndim;
    ft_loc l = def->loc;
    ft_dtype dt = def->u.def.dtype;
    ast_expr **idx = ft_alloc(ctx, sizeof *idx * (size_t)nd);
    const char **it = ft_alloc(ctx, sizeof *it * (size_t)nd);
    for (int k = 0; k < nd; k++) {
        it[k] = xf_free_name(ctx, pw->f, ft_fmt(ctx, "%s_p%d", pw->var, k));
        idx[k] = ast_var(ctx, l, it[k]);
        if (k == pw->dim)
            idx[k] = xf_add(ctx, idx[k], lo);
    }
    ast_expr *zero = dt == FT_F16 || dt == FT_F32 || dt == FT_F64 ? ast_float(ctx, l, 0, dt)
                                                                  : ast_int(ctx, l, 0);
    ast_stmt *s = ast_store(ctx, l, def->u.def.name, nd, idx, zero);
    for (int k = nd - 1; k >= 0; k--)
        s = ast_for(ctx, l, it[k], ast_int(ctx, l, 0),
                    k == pw->dim ? len : ast_clone_expr(ctx, def->u.def.shape[k]),
                    ast_int(ctx, l, 1), s);
    return s;
}

int xf_var_pad(ft_ctx *ctx, ast_func *f, const char *var, int dim, int64_t before,
               int64_t after, ft_loc loc)
{
    ast_stmt *def = xf_find_local(ctx, f, var, "var_pad", loc);
    if (!def)
        return 1;
    int nd = def->u.def.ndim;
    if (dim < 0 || dim >= nd) {
        ft_error(ctx, loc, "cannot var_pad '%s': it has %d dimension%s, not a dimension %d",
                 var, nd, nd == 1 ? "" : "s", dim);
        return 1;
    }
    if (before < 0 || after < 0 || before + after == 0) {
        ft_error(ctx, loc, "cannot var_pad '%s': the padding before and after must be >= 0, "
                 "not both 0 (got %lld and %lld)", var, (long long)before, (long long)after);
        return 1;
    }
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);
    for (int i = 0; i < acc.len; i++) {
        const ast_expr *e = (*((xf_access *)acc.items[i])->idx)[dim];
        if (xf_expr_has_load(e)) {
            ft_error(ctx, loc, "cannot var_pad '%s': an index of its dimension %d reads data "
                     "(checked at run time against the unpadded shape)", var, dim);
            return 1;
        }
    }
    xf_layout_step(ctx, def, (ast_lstep){.kind = AST_LSTEP_PAD, .dim = dim, .a = before,
                                         .b = after});
    pad_walk pw = {.ctx = ctx, .f = f, .b = an_bounds_new(ctx, f), .var = def->u.def.name,
                   .dim = dim, .before = before, .after = after, .n = def->u.def.shape[dim]};
    xf_bounds_around(ctx, f, def, pw.b, NULL);
    walk(&pw, def->u.def.body);
    ft_vec shifted = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &shifted);
    for (int i = 0; i < shifted.len; i++) {
        ast_expr **e = &(*((xf_access *)shifted.items[i])->idx)[dim];
        *e = xf_add(ctx, *e, ast_int(ctx, loc, before));
    }
    ast_expr *n = pw.n;
    ast_stmt *items[3];
    int k = 0;
    if (before)
        items[k++] = margin_fill(&pw, def, ast_int(ctx, loc, 0), ast_int(ctx, loc, before));
    if (after)
        items[k++] = margin_fill(&pw, def, xf_add(ctx, ast_clone_expr(ctx, n),
                                                  ast_int(ctx, loc, before)),
                                 ast_int(ctx, loc, after));
    items[k++] = def->u.def.body;
    def->u.def.body = ast_seq(ctx, loc, k, items);
    def->u.def.shape[dim] = xf_add(ctx, ast_clone_expr(ctx, n), ast_int(ctx, loc, before + after));
    xf_sched_finish(ctx, f);
    return 0;
}
