/* zero_skip.c - skip the adjoint statements that would only add zeros.
 *
 * Requires: the backward pass bwd of gradient g as rev() built it (grad.c),
 * its restores in place (materialize.c).
 * Provides: in every statement sequence of bwd, the longest tail R whose
 * effect is nil when one adjoint scalar a is zero (and the others R reads
 * are zero there by construction) runs under `if a != 0`; inside R, a
 * later tail under another such scalar nests its own guard.
 *
 * Why: the backward pass is linear in the adjoints, and an adjoint is often
 * exactly zero: a saturated sigmoid (SoftRas: D_f = sigmoid(+-d2 / 1e-4) is
 * exactly 0 or 1 for about 98% of the face-pixel pairs), a clamp or a max
 * that cut its input, a product after a factor of 0.  Those face-pixel
 * pairs then ran some 200 flops per pair, gate tests and divisions, and
 * added exactly 0 to d_verts.
 *
 * R qualifies when, for a = 0, each of its statements leaves every value as
 * it was (by induction over R, every adjoint it reads is still 0):
 *   - `x[i] += e` where e is zero whenever the adjoint scalars in it are
 *     (a load of one; a product with such a factor; a quotient with such
 *     a dividend; a sum, difference, negation, cast or if-expression of
 *     such); x any tensor;
 *   - `t = 0` where t is an adjoint scalar known to be 0 (a guard, zeroed
 *     earlier in the enclosing sequences and not written since, or set
 *     inside R from zeros);
 *   - `t = e` with e as above, t a scalar declared inside R;
 *   - VarDefs, sequences and ifs of such statements (no loops).
 * Adjoint scalars are the 0-D float locals of bwd that are not locals of
 * f (d_x, the ad_adj temporaries); the forward values R reads are only
 * factors.  The guard set of R is the adjoint scalars it reads or zeroes
 * that are declared outside R and not known to be 0 at its start; a tail
 * is guarded when that set is one scalar (a different one than the
 * enclosing guard's) and R has at least ZS_MIN_STMTS `+=` (the copies
 * and zeroings of the adjoint temporaries around them do not count).
 *
 * Exactness: skipped, R would have added +0.0 or stored 0.0 to values it
 * leaves as they were.  It differs from running R only where a factor of a
 * zero adjoint is inf or NaN (0 * inf is NaN, the skip keeps 0), or where
 * R would have turned a -0.0 sum into +0.0.  The index checks of a skipped
 * R are not run; its accesses are the adjoints of the forward pass's,
 * which g_fwd checked in the same iteration.
 */
#include "ad.h"

#include <string.h>

#include "../transforms/xf_util.h"

enum { ZS_MIN_STMTS = 8 };

static ft_loc noloc;

/* What the qualification of one tail collects. */
typedef struct zs_tail {
    const ft_vec *zero;      /* adjoint scalars known to be 0 at its start */
    ft_vec inner;            /* scalars declared inside it */
    ft_vec inner_zero;       /* of those, the ones only ever set from zeros */
    ft_vec guard;            /* adjoint scalars it needs to be 0 */
    int stmts;               /* its Reduces (the adds it would skip) */
} zs_tail;

/* The VarDef of name among defs (the VarDefs around, innermost last), or
 * NULL. */
static const ast_stmt *find_def(const ft_vec *defs, const char *name)
{
    for (int i = defs->len - 1; i >= 0; i--) {
        const ast_stmt *d = defs->items[i];
        if (!strcmp(d->u.def.name, name))
            return d;
    }
    return NULL;
}

/* Whether name is an adjoint scalar of g: a 0-D float local declared by
 * one of defs that is not a local of f. */
static int is_adjoint(ad_grad *g, const ft_vec *defs, const char *name)
{
    const ast_stmt *d = find_def(defs, name);
    return d && d->u.def.ndim == 0 && ft_dtype_is_float(d->u.def.dtype) &&
           !ad_find_local(g, name);
}

/* A copy of the names in v. */
static ft_vec copy_names(ft_ctx *ctx, const ft_vec *v)
{
    ft_vec c = {0};
    for (int i = 0; i < v->len; i++)
        ft_vec_push(ctx, &c, v->items[i]);
    return c;
}

/* Whether scalar name is 0 in tail t whenever its guard set is: known 0
 * at its start (then not set from non-zeros inside: qualify checks every
 * write), set from zeros inside, or added to the guard set (an adjoint
 * scalar declared outside t). */
static int zero_leaf(ad_grad *g, const ft_vec *defs, zs_tail *t, const char *name)
{
    if (xf_has_name(&t->inner, name))
        return xf_has_name(&t->inner_zero, name);
    if (xf_has_name(t->zero, name) || xf_has_name(&t->guard, name))
        return 1;
    if (!is_adjoint(g, defs, name))
        return 0;
    ft_vec_push(g->ctx, &t->guard, (void *)name);
    return 1;
}

/* Whether e is 0 whenever the adjoint scalars it reads are (see the head
 * comment); may add to t's guard set. */
static int zero_expr(ad_grad *g, const ft_vec *defs, zs_tail *t, const ast_expr *e)
{
    switch (e->kind) {
    case AST_FLOAT: return e->u.fval == 0;
    case AST_LOAD:
        return e->u.load.n == 0 && ft_dtype_is_float(e->dtype) &&
               zero_leaf(g, defs, t, e->u.load.var);
    case AST_UNARY: return e->u.un.op == AST_NEG && zero_expr(g, defs, t, e->u.un.a);
    case AST_CAST:
        return ft_dtype_is_float(e->dtype) && zero_expr(g, defs, t, e->u.cast.a);
    case AST_IFEXPR:
        return zero_expr(g, defs, t, e->u.ife.then) && zero_expr(g, defs, t, e->u.ife.other);
    case AST_BINARY:
        switch (e->u.bin.op) {
        case AST_ADD: case AST_SUB:
            return zero_expr(g, defs, t, e->u.bin.a) && zero_expr(g, defs, t, e->u.bin.b);
        case AST_MUL: {
            int guards = t->guard.len;
            if (zero_expr(g, defs, t, e->u.bin.a))
                return 1;
            t->guard.len = guards;
            return zero_expr(g, defs, t, e->u.bin.b);
        }
        case AST_DIV: return zero_expr(g, defs, t, e->u.bin.a);
        default: return 0;
        }
    default: return 0;
    }
}

/* Whether statement s leaves every value as it was when t's guard set is
 * 0 (adding to that set what s needs); defs: the VarDefs around s. */
static int qualify(ad_grad *g, ft_vec *defs, zs_tail *t, const ast_stmt *s)
{
    if (!s)
        return 1;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (!qualify(g, defs, t, s->u.seq.stmts[i]))
                return 0;
        return 1;
    case AST_VARDEF: {
        ft_vec_push(g->ctx, &t->inner, (void *)s->u.def.name);
        if (s->u.def.ndim == 0 && ft_dtype_is_float(s->u.def.dtype))
            ft_vec_push(g->ctx, &t->inner_zero, (void *)s->u.def.name);
        ft_vec_push(g->ctx, defs, (void *)s);
        int ok = qualify(g, defs, t, s->u.def.body);
        defs->len--;
        return ok;
    }
    case AST_IF:
        return qualify(g, defs, t, s->u.branch.then) && qualify(g, defs, t, s->u.branch.other);
    case AST_REDUCE:
        t->stmts++;
        return s->u.red.op == AST_RED_ADD && zero_expr(g, defs, t, s->u.red.value);
    case AST_STORE: {
        const char *v = s->u.store.var;
        if (s->u.store.n != 0 || !zero_expr(g, defs, t, s->u.store.value))
            return 0;
        if (xf_has_name(&t->inner, v))     /* set from zeros: stays in inner_zero */
            return 1;
        return s->u.store.value->kind == AST_FLOAT && zero_leaf(g, defs, t, v);
    }
    default: return 0;    /* loops, asserts, evals */
    }
}

/* Qualify the tail items[k..n-1] given the scalars zero at its start;
 * returns its only guard scalar, or NULL (no tail, no single guard, too
 * little work). */
static const char *tail_guard(ad_grad *g, ft_vec *defs, ast_stmt **items, int k, int n,
                              const ft_vec *zero)
{
    zs_tail t = {.zero = zero};
    int ndefs = defs->len;
    for (int i = k; i < n; i++)
        if (!qualify(g, defs, &t, items[i])) {
            defs->len = ndefs;
            return NULL;
        }
    return t.guard.len == 1 && t.stmts >= ZS_MIN_STMTS ? t.guard.items[0] : NULL;
}

/* zero after statement s ran: what s writes is no longer known to be 0,
 * what it stores 0 into (a 0-D Store) is. */
static void zero_after(ft_ctx *ctx, ft_vec *zero, const ast_stmt *s)
{
    ft_vec w = {0};
    xf_stmt_written(ctx, s, &w);
    int k = 0;
    for (int i = 0; i < zero->len; i++)
        if (!xf_has_name(&w, zero->items[i]))
            zero->items[k++] = zero->items[i];
    zero->len = k;
    if (s->kind == AST_STORE && s->u.store.n == 0 && s->u.store.value->kind == AST_FLOAT &&
        s->u.store.value->u.fval == 0)
        ft_vec_push(ctx, zero, (void *)s->u.store.var);
}

static void visit(ad_grad *g, ft_vec *defs, ast_stmt *s, const ft_vec *zero, const char *outer);

/* In the sequence items[k..n-1] (zero: the scalars 0 at items[k]; outer:
 * the guard around it, or NULL), guard the first tail that qualifies and
 * nest the later ones; recurse into the items before it.  Returns the new
 * item count (a guarded tail becomes one If). */
static int guard_seq(ad_grad *g, ft_vec *defs, ast_stmt **items, int k, int n,
                     const ft_vec *zero, const char *outer)
{
    ft_vec z = copy_names(g->ctx, zero);
    for (int i = k; i < n; i++) {
        const char *a = tail_guard(g, defs, items, i, n, &z);
        if (a && (!outer || strcmp(a, outer))) {
            ft_vec zi = copy_names(g->ctx, &z);
            zero_after(g->ctx, &zi, items[i]);
            int m = i + 1 < n ? guard_seq(g, defs, items, i + 1, n, &zi, a) : n;
            ast_stmt **body = ft_alloc(g->ctx, sizeof *body * (size_t)(m - i));
            memcpy(body, items + i, sizeof *body * (size_t)(m - i));
            ft_dtype t = find_def(defs, a)->u.def.dtype;   /* an adjoint: declared */
            ast_expr *cond = ast_binary(g->ctx, noloc, AST_NE,
                                        ast_load(g->ctx, noloc, a, t, 0, NULL),
                                        ast_float(g->ctx, noloc, 0, t));
            items[i] = ast_if(g->ctx, noloc, cond, ast_seq(g->ctx, noloc, m - i, body), NULL);
            return i + 1;
        }
        visit(g, defs, items[i], &z, outer);
        zero_after(g->ctx, &z, items[i]);
    }
    return n;
}

/* Guard the qualifying tails under s (zero: the adjoint scalars 0 when s
 * starts; outer: the guard around s, or NULL). */
static void visit(ad_grad *g, ft_vec *defs, ast_stmt *s, const ft_vec *zero, const char *outer)
{
    if (!s)
        return;
    ft_vec none = {0};
    switch (s->kind) {
    case AST_SEQ:
        s->u.seq.n = guard_seq(g, defs, s->u.seq.stmts, 0, s->u.seq.n, zero, outer);
        break;
    case AST_VARDEF: {      /* a name it shadows is not known to be 0 inside */
        ft_vec z = {0};
        for (int i = 0; i < zero->len; i++)
            if (strcmp(zero->items[i], s->u.def.name))
                ft_vec_push(g->ctx, &z, zero->items[i]);
        ft_vec_push(g->ctx, defs, s);
        visit(g, defs, s->u.def.body, &z, outer);
        defs->len--;
        break;
    }
    case AST_IF:
        visit(g, defs, s->u.branch.then, zero, outer);
        visit(g, defs, s->u.branch.other, zero, outer);
        break;
    case AST_FOR: visit(g, defs, s->u.loop.body, &none, NULL); break;
    default: break;
    }
}

void ad_skip_zero_adjoints(ad_grad *g, ast_stmt *bwd)
{
    ft_vec defs = {0}, zero = {0};
    visit(g, &defs, bwd, &zero, NULL);
}
