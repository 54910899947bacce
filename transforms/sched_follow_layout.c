/* sched_follow_layout.c - follow_layout(L, t): the loop nest L rebuilt so
 * that its loops walk t in t's layout order.
 *
 * Requires: f's AST.
 * Provides: the first statement under L that writes t (else the first that
 * reads it) indexes t by bare iterators of L's nest, outermost dimension
 * first, by the checked primitives: a dimension pair `i // F`, `i % F`
 * (what var_split left, anywhere in t's order) splits i's loop by F
 * (`split`), then the loops of t's dimensions, a perfect nest, are put in
 * t's dimension order (`reorder`, dependence-checked).  After `var_reorder(t, [0, 2, 3, 1])` the nest that
 * writes t runs n, h, w, c and writes t contiguously; after `var_split(t,
 * 1, 8)` it runs the blocks of 8 channels outside the rest.
 *
 * Refused, the function left as it was: a dimension whose index is not an
 * iterator of L's nest or such a block of one (a constant offset, a product,
 * an index read from data: `t[idx[i]] = ...` writes through an indirect
 * index, which no loop order follows), an iterator in two dimensions, or a
 * split or reorder that its own checks refuse.
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "visit.h"
#include "xf_util.h"

/* The first Store/Reduce under a loop writing var (else reading it). */
typedef struct first_access {
    ast_visitor v;
    const char *var;
    ast_stmt *write, *read;
    const ast_expr *load;    /* the read's load of var */
} first_access;

static int first_cb(ast_visitor *v, ast_stmt *s)
{
    first_access *fa = (first_access *)v;
    if (fa->write)
        return 0;
    const char *target = s->kind == AST_STORE ? s->u.store.var
                       : s->kind == AST_REDUCE ? s->u.red.var : NULL;
    if (!target)
        return 1;
    if (!strcmp(target, fa->var)) {
        fa->write = s;
        return 0;
    }
    const ast_expr *l = xf_expr_find_load(s->kind == AST_STORE ? s->u.store.value
                                                            : s->u.red.value, fa->var);
    if (l && !fa->read) {
        fa->read = s;
        fa->load = l;
    }
    return 1;
}

/* The loop of nest (ancestors and L) iterating over the bare iterator e,
 * or NULL. */
static ast_stmt *loop_of(const ft_vec *nest, const ast_expr *e)
{
    if (e->kind != AST_VAR)
        return NULL;
    for (int i = 0; i < nest->len; i++) {
        ast_stmt *l = nest->items[i];
        if (l->kind == AST_FOR && !strcmp(l->u.loop.iter, e->u.name))
            return l;
    }
    return NULL;
}

/* Whether e is `i // F` (op AST_FLOORDIV) or `i % F` (AST_MOD) of a bare
 * iterator i and a positive constant F (*f), what var_split leaves. */
static int block_part(const ast_expr *e, ast_binop op, int64_t *f)
{
    if (e->kind != AST_BINARY || e->u.bin.op != op || e->u.bin.a->kind != AST_VAR ||
        e->u.bin.b->kind != AST_INT || e->u.bin.b->u.ival <= 0)
        return 0;
    *f = e->u.bin.b->u.ival;
    return 1;
}

/* The dimension of idx (other than k) that is `i % F` for the iterator and
 * F of idx[k] = `i // F`, or -1. */
static int inner_part(int n, ast_expr **idx, int k)
{
    int64_t f, g;
    for (int m = 0; m < n; m++)
        if (m != k && block_part(idx[m], AST_MOD, &g) && block_part(idx[k], AST_FLOORDIV, &f) &&
            f == g && !strcmp(idx[m]->u.bin.a->u.name, idx[k]->u.bin.a->u.name))
            return m;
    return -1;
}

/* The loops of t's dimensions in layout order into order: a bare
 * iterator's loop, or for the pair `i // F`, `i % F` (anywhere in the
 * list) i's loop split by F, the split loop (which stays the outer one)
 * at the `//` dimension and its body, the inner loop, at the `%`
 * dimension; 0 after an error at loc. */
static int plan_and_split(ft_ctx *ctx, ast_func *f, ast_stmt *loop, const char *var, int n,
                          ast_expr **idx, const ft_vec *nest, ft_vec *order, ft_loc loc)
{
    ast_stmt **at = ft_alloc(ctx, sizeof *at * (size_t)(n + 1));
    int64_t fac = 0;
    for (int k = 0; k < n; k++) {
        const ast_expr *e = idx[k];
        int m;
        if (e->kind == AST_INT || at[k])
            continue;
        at[k] = loop_of(nest, e);
        if (!at[k] && (m = inner_part(n, idx, k)) >= 0 &&
            (at[k] = loop_of(nest, e->u.bin.a)) != NULL) {
            block_part(e, AST_FLOORDIV, &fac);
            if (xf_split(ctx, f, at[k], fac, 0, NULL, NULL, loc))
                return 0;
            ast_stmt **items;
            if (xf_body_items(&at[k]->u.loop.body, &items) != 1 || items[0]->kind != AST_FOR) {
                ft_error(ctx, loc, "internal error: follow_layout lost the inner loop of a split");
                return 0;
            }
            at[m] = items[0];
        }
        if (!at[k]) {
            ft_error(ctx, loc, "cannot follow_layout(%s, %s): %s's index in dimension %d is "
                     "not an iterator of %s's loops (nor a block `i // F` with its `i %% F`)%s",
                     xf_sched_name(ctx, loop), var, var, k, xf_sched_name(ctx, loop),
                     xf_expr_has_load(e) ? ": it reads data (an indirect index)" : "");
            return 0;
        }
        for (int j = 0; j < order->len; j++)
            if (order->items[j] == at[k]) {
                ft_error(ctx, loc, "cannot follow_layout(%s, %s): the loop %s indexes two of "
                         "%s's dimensions", xf_sched_name(ctx, loop), var,
                         xf_sched_name(ctx, at[k]), var);
                return 0;
            }
        ft_vec_push(ctx, order, at[k]);
    }
    /* the order of the dimensions, inner parts of splits at their place */
    order->len = 0;
    for (int k = 0; k < n; k++)
        if (at[k])
            ft_vec_push(ctx, order, at[k]);
    return 1;
}

/* Whether the loops of order are already nested in that order. */
static int in_order(ft_ctx *ctx, ast_func *f, const ft_vec *order)
{
    for (int i = 1; i < order->len; i++) {
        ft_vec anc = {0};
        if (!xf_ancestors(ctx, f->body, order->items[i], &anc))
            return 0;
        int inside = 0;
        for (int a = 0; a < anc.len; a++)
            inside |= anc.items[a] == order->items[i - 1];
        if (!inside)
            return 0;
    }
    return 1;
}

int xf_follow_layout(ft_ctx *ctx, ast_func *f, ast_stmt *loop, const char *var, ft_loc loc)
{
    first_access fa = {.v.stmt = first_cb, .var = var};
    ast_visit(loop, &fa.v);
    ast_stmt *s = fa.write ? fa.write : fa.read;
    if (!s) {
        ft_error(ctx, loc, "cannot follow_layout(%s, %s): nothing under %s accesses %s",
                 xf_sched_name(ctx, loop), var, xf_sched_name(ctx, loop), var);
        return 1;
    }
    int n = fa.write ? (s->kind == AST_STORE ? s->u.store.n : s->u.red.n) : fa.load->u.load.n;
    ast_expr **idx = fa.write ? (s->kind == AST_STORE ? s->u.store.idx : s->u.red.idx)
                              : fa.load->u.load.idx;
    ft_vec nest = {0}, order = {0};
    xf_ancestors(ctx, loop, s, &nest);
    ast_stmt *before = ast_clone_stmt(ctx, f->body, AST_CLONE_SAME);
    if (!plan_and_split(ctx, f, loop, var, n, idx, &nest, &order, loc)) {
        f->body = before;
        return 1;
    }
    if (order.len < 2 || in_order(ctx, f, &order))
        return 0;
    if (xf_reorder(ctx, f, order.len, (ast_stmt **)order.items, loc)) {
        f->body = before;
        return 1;
    }
    return 0;
}
