/* grad.c - reverse-mode gradients of exported functions (see ad.h).
 *
 * The backward pass of a statement, rev(s):
 *   Seq          the reverses of its statements, last first
 *   For          the same iterations, last first (constant steps); first
 *                first where they are independent (loop_order.c)
 *   If           the same condition, each branch reversed
 *   VarDef t     t restored (tape or recompute, materialize.c), its adjoint
 *                d_t zeroed, the body reversed
 *   t[i] = v     tmp = d_t[i]; d_t[i] = 0; the adjoint of v from tmp
 *   t[i] += v    the adjoint of v from d_t[i] (-= negated; max/min: only
 *                where v is the result)
 * The adjoint of an expression from adj adds, for every load x[j] of an
 * active tensor in it, the partial derivative times adj into d_x[j]
 * (`+=`: the parallelizer makes it atomic where iterations collide).
 */
#include "ad.h"

#include <math.h>
#include <string.h>

#include "visit.h"

#include "../analysis/deps.h"
#include "../transforms/cleanup.h"
#include "../transforms/simplify.h"
#include "../transforms/xf_util.h"

/* ------------------------------------------------------------ names */

/* Whether name was made up already or is used by f. */
static int name_taken(ad_grad *g, const char *name)
{
    if (xf_has_name(&g->taken, name))
        return 1;
    for (int i = 0; i < g->f->nparams; i++)
        if (!strcmp(g->f->params[i].name, name))
            return 1;
    return xf_defines(g->f->body, name) || xf_binds_iter(g->f->body, name);
}

/* A name derived from base that neither f nor this gradient uses yet. */
const char *ad_fresh(ad_grad *g, const char *base)
{
    const char *c = base;
    for (int k = 1; name_taken(g, c); k++)
        c = ft_fmt(g->ctx, "%s_%d", base, k);
    ft_vec_push(g->ctx, &g->taken, (void *)c);
    return c;
}

/* The parameter of f called name, or NULL. */
static ast_param *find_param(ad_grad *g, const char *name)
{
    for (int i = 0; i < g->f->nparams; i++)
        if (!strcmp(g->f->params[i].name, name))
            return &g->f->params[i];
    return NULL;
}

ad_local *ad_find_local(ad_grad *g, const char *name)
{
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        if (!strcmp(l->def->u.def.name, name))
            return l;
    }
    return NULL;
}

/* The local declared by VarDef def (locals' names may repeat in
 * different scopes). */
static ad_local *local_of(ad_grad *g, const ast_stmt *def)
{
    for (int i = 0; i < g->locals.len; i++)
        if (((ad_local *)g->locals.items[i])->def == def)
            return g->locals.items[i];
    return NULL;
}

/* The dtype of tensor name (a parameter or a local of f). */
ft_dtype ad_tensor_dtype(ad_grad *g, const char *name)
{
    ast_param *p = find_param(g, name);
    if (p)
        return p->dtype;
    ad_local *l = ad_find_local(g, name);
    return l ? l->def->u.def.dtype : FT_F64;
}

/* The adjoint's name of tensor name (d_x for parameter x). */
static const char *dname(ad_grad *g, const char *name)
{
    for (int i = 0; i + 1 < g->dnames.len; i += 2)
        if (!strcmp(g->dnames.items[i], name))
            return g->dnames.items[i + 1];
    const char *d = find_param(g, name) && !xf_has_name(&g->copied, name)
                        ? ft_fmt(g->ctx, "d_%s", name)
                        : ad_fresh(g, ft_fmt(g->ctx, "d_%s", name));
    ft_vec_push(g->ctx, &g->dnames, (void *)name);
    ft_vec_push(g->ctx, &g->dnames, (void *)d);
    return d;
}

/* Copies of n index expressions. */
static ast_expr **clone_idx(ft_ctx *ctx, int n, ast_expr **idx)
{
    ast_expr **v = ft_alloc(ctx, sizeof *v * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        v[k] = ast_clone_expr(ctx, idx[k]);
    return v;
}

/* A Seq of the non-NULL statements of v (NULL when there is none). */
static ast_stmt *seq_of(ft_ctx *ctx, ft_loc loc, ft_vec *v)
{
    ast_stmt **items = ft_alloc(ctx, sizeof *items * (size_t)(v->len + 1));
    int n = 0;
    for (int i = 0; i < v->len; i++)
        if (v->items[i])
            items[n++] = v->items[i];
    return n ? ast_seq(ctx, loc, n, items) : NULL;
}

/* ------------------------------------------------------------ analysis */

/* Record every local of s, and every overwriting Store, with the loops of
 * f around it. */
static void collect_locals(ad_grad *g, ast_stmt *s, ft_vec *loops)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            collect_locals(g, s->u.seq.stmts[i], loops);
        break;
    case AST_VARDEF: {
        ad_local *l = ft_alloc(g->ctx, sizeof *l);
        l->def = s;
        l->nloops = loops->len;
        l->loops = ft_alloc(g->ctx, sizeof *l->loops * (size_t)(loops->len + 1));
        if (loops->len)
            memcpy(l->loops, loops->items, sizeof *l->loops * (size_t)loops->len);
        ft_vec_push(g->ctx, &g->locals, l);
        collect_locals(g, s->u.def.body, loops);
        break;
    }
    case AST_FOR:
        ft_vec_push(g->ctx, loops, s);
        collect_locals(g, s->u.loop.body, loops);
        loops->len--;
        break;
    case AST_IF:
        collect_locals(g, s->u.branch.then, loops);
        collect_locals(g, s->u.branch.other, loops);
        break;
    case AST_STORE:
        if (ft_vec_has(&g->war_sinks, s) ||
            xf_expr_reads(s->u.store.value, s->u.store.var)) {
            ad_local *o = ft_alloc(g->ctx, sizeof *o);
            o->def = s;
            o->nloops = loops->len;
            o->loops = ft_alloc(g->ctx, sizeof *o->loops * (size_t)(loops->len + 1));
            if (loops->len)
                memcpy(o->loops, loops->items, sizeof *o->loops * (size_t)loops->len);
            ft_vec_push(g->ctx, &g->overs, o);
        }
        break;
    default: break;
    }
}

/* The Stores that overwrite a value read before them (WAR sinks). */
static void find_war_sinks(ad_grad *g)
{
    for (int k = 0; k < g->deps->n; k++) {
        an_dep *d = g->deps->deps[k];
        if (d->kind == AN_WAR && d->snk->stmt && d->snk->stmt->kind == AST_STORE &&
            !ft_vec_has(&g->war_sinks, d->snk->stmt))
            ft_vec_push(g->ctx, &g->war_sinks, d->snk->stmt);
    }
}

/* The overwrite record of Store s, or NULL. */
static ad_local *find_over(ad_grad *g, const ast_stmt *s)
{
    for (int i = 0; i < g->overs.len; i++)
        if (((ad_local *)g->overs.items[i])->def == s)
            return g->overs.items[i];
    return NULL;
}

/* `tape_var[version] = var[idx]` (save, before the Store) or the
 * reverse. */
static ast_stmt *over_copy(ad_grad *g, const ad_local *o, int save)
{
    const ast_stmt *s = o->def;
    ft_dtype t = ad_tensor_dtype(g, s->u.store.var);
    ast_expr *slot = ad_region_load(g, o, 0, NULL);
    ast_expr *cur = ast_load(g->ctx, s->loc, s->u.store.var, t, s->u.store.n,
                             clone_idx(g->ctx, s->u.store.n, s->u.store.idx));
    if (save)
        return ast_store(g->ctx, s->loc, o->region, slot->u.load.n, slot->u.load.idx,
                         xf_convert(g->ctx, cur, g->tape_dtype));
    return ast_store(g->ctx, s->loc, s->u.store.var, s->u.store.n,
                     clone_idx(g->ctx, s->u.store.n, s->u.store.idx), xf_convert(g->ctx, slot, t));
}

/* Whether e reads a tensor of names. */
static int reads_any(const ast_expr *e, const ft_vec *names)
{
    for (int i = 0; i < names->len; i++)
        if (xf_expr_reads(e, names->items[i]))
            return 1;
    return 0;
}

/* Mark the float targets of writes under s whose value reads an active
 * tensor; returns how many were added. */
static int spread_activity(ad_grad *g, const ast_stmt *s)
{
    if (!s)
        return 0;
    int added = 0;
    const char *var = NULL;
    const ast_expr *val = NULL;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            added += spread_activity(g, s->u.seq.stmts[i]);
        return added;
    case AST_VARDEF: return spread_activity(g, s->u.def.body);
    case AST_FOR: return spread_activity(g, s->u.loop.body);
    case AST_IF:
        return spread_activity(g, s->u.branch.then) + spread_activity(g, s->u.branch.other);
    case AST_STORE: var = s->u.store.var; val = s->u.store.value; break;
    case AST_REDUCE: var = s->u.red.var; val = s->u.red.value; break;
    default: return 0;
    }
    if (xf_has_name(&g->active, var) || !ft_dtype_is_float(ad_tensor_dtype(g, var)) ||
        !reads_any(val, &g->active))
        return 0;
    ft_vec_push(g->ctx, &g->active, (void *)var);
    return 1;
}

/* Add to out the tensors that float expression e reads where a change of
 * their value changes e's (the positions contrib() differentiates): not
 * in indices, conditions, comparisons or integer subexpressions. */
static void diff_reads(ad_grad *g, const ast_expr *e, ft_vec *out)
{
    if (!e || !ft_dtype_is_float(e->dtype))
        return;
    switch (e->kind) {
    case AST_LOAD:
        if (!xf_has_name(out, e->u.load.var))
            ft_vec_push(g->ctx, out, (void *)e->u.load.var);
        break;
    case AST_BINARY:
        if (e->u.bin.op <= AST_MAX) {    /* arithmetic, min and max */
            diff_reads(g, e->u.bin.a, out);
            diff_reads(g, e->u.bin.b, out);
        }
        break;
    case AST_UNARY: diff_reads(g, e->u.un.a, out); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            diff_reads(g, e->u.call.args[i], out);
        break;
    case AST_CAST: diff_reads(g, e->u.cast.a, out); break;
    case AST_IFEXPR:
        diff_reads(g, e->u.ife.then, out);
        diff_reads(g, e->u.ife.other, out);
        break;
    default: break;
    }
}

/* Add to useful the tensors whose values the writes under s to useful
 * tensors differentiate through; returns how many were added. */
static int spread_usefulness(ad_grad *g, const ast_stmt *s, ft_vec *useful)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ: {
        int added = 0;
        for (int i = 0; i < s->u.seq.n; i++)
            added += spread_usefulness(g, s->u.seq.stmts[i], useful);
        return added;
    }
    case AST_VARDEF: return spread_usefulness(g, s->u.def.body, useful);
    case AST_FOR: return spread_usefulness(g, s->u.loop.body, useful);
    case AST_IF:
        return spread_usefulness(g, s->u.branch.then, useful) +
               spread_usefulness(g, s->u.branch.other, useful);
    case AST_STORE: case AST_REDUCE: break;
    default: return 0;
    }
    const char *var = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
    if (!xf_has_name(useful, var))
        return 0;
    int before = useful->len;
    diff_reads(g, s->kind == AST_STORE ? s->u.store.value : s->u.red.value, useful);
    return useful->len - before;
}

/* The active tensors: wrt, and whatever depends on them (varied) and
 * reaches an output through differentiable operations (useful).  A local
 * read only in conditions (SoftRas's s0 = side(...)) is varied but not
 * useful: without this, its adjoint, never added to, would be the literal
 * 0 of every `d_x += d_s0 * ...` the backward pass computes. */
static void find_active(ad_grad *g)
{
    ft_vec varied = {0}, useful = {0};
    for (int i = 0; i < g->nwrt; i++)
        ft_vec_push(g->ctx, &g->active, (void *)g->wrt[i]);
    while (spread_activity(g, g->f->body))
        ;
    for (int i = 0; i < g->f->nparams; i++) {
        const ast_param *p = &g->f->params[i];
        if (!p->is_size && p->access != FT_ACC_IN)
            ft_vec_push(g->ctx, &useful, (void *)p->name);
    }
    while (spread_usefulness(g, g->f->body, &useful))
        ;
    varied = g->active;
    g->active = (ft_vec){0};
    for (int i = 0; i < varied.len; i++) {
        const char *n = varied.items[i];
        if (i < g->nwrt || xf_has_name(&useful, n))
            ft_vec_push(g->ctx, &g->active, (void *)n);
    }
}

/* Whether e reads an active tensor. */
static int expr_active(ad_grad *g, const ast_expr *e)
{
    return e && reads_any(e, &g->active);
}

/* Finds a max= or min= reduction into one tensor (find_copied). */
typedef struct minmax_find {
    ast_visitor v;
    const char *var;
    int found;
} minmax_find;

static int minmax_find_cb(ast_visitor *v, ast_stmt *s)
{
    minmax_find *w = (minmax_find *)v;
    if (s->kind == AST_REDUCE && !strcmp(s->u.red.var, w->var) &&
        (s->u.red.op == AST_RED_MAX || s->u.red.op == AST_RED_MIN))
        w->found = 1;
    return !w->found;
}

/* The active out params whose adjoint must be a local copy of d_y: they
 * are read by f, a Store overwrites an earlier write, or a max=/min=
 * reduction into them takes their adjoint (rev_minmax zeroes it). */
static void find_copied(ad_grad *g)
{
    for (int i = 0; i < g->f->nparams; i++) {
        ast_param *p = &g->f->params[i];
        if (p->is_size || p->access == FT_ACC_IN || !xf_has_name(&g->active, p->name))
            continue;
        minmax_find mm = {.v.stmt = minmax_find_cb, .var = p->name};
        ast_visit(g->f->body, &mm.v);
        int copy = xf_reads(g->f->body, p->name) || mm.found;
        for (int k = 0; !copy && k < g->deps->n; k++) {
            an_dep *d = g->deps->deps[k];
            copy = d->kind == AN_WAW && !strcmp(d->var, p->name) &&
                   d->snk->kind == AN_ACC_WRITE;
        }
        if (copy)
            ft_vec_push(g->ctx, &g->copied, (void *)p->name);
    }
}

/* ------------------------------------------------------------ expressions */

static ft_loc noloc;

/* A float literal v of dtype t. */
static ast_expr *flit(ad_grad *g, double v, ft_dtype t)
{
    return ast_float(g->ctx, noloc, v, t);
}

static ast_expr *bin(ad_grad *g, ast_binop op, ast_expr *a, ast_expr *b)
{
    return ast_binary(g->ctx, noloc, op, a, b);
}

static ast_expr *cl(ad_grad *g, const ast_expr *e)
{
    return ast_clone_expr(g->ctx, e);
}

/* `adj if cond else 0` (then = 1) or `0 if cond else adj`. */
static ast_expr *gate(ad_grad *g, ast_expr *cond, ast_expr *adj, int then)
{
    ast_expr *z = flit(g, 0, adj->dtype);
    return then ? ast_ifexpr(g->ctx, noloc, cond, adj, z) : ast_ifexpr(g->ctx, noloc, cond, z, adj);
}

static void contrib(ad_grad *g, const ast_expr *e, ast_expr *adj, ft_vec *out);

/* The adjoint of a builtin call e from adj. */
static void contrib_call(ad_grad *g, const ast_expr *e, ast_expr *adj, ft_vec *out)
{
    const ast_expr *a = e->u.call.args[0];
    ft_dtype t = e->dtype;
    ast_expr *d = NULL;
    switch (e->u.call.f) {
    case AST_ABS:
        d = ast_ifexpr(g->ctx, noloc, bin(g, AST_GE, cl(g, a), flit(g, 0, a->dtype)), adj,
                       ast_unary(g->ctx, noloc, AST_NEG, cl(g, adj)));
        break;
    case AST_SQRT: d = bin(g, AST_DIV, bin(g, AST_MUL, adj, flit(g, 0.5, t)), cl(g, e)); break;
    case AST_EXP: d = bin(g, AST_MUL, adj, cl(g, e)); break;
    case AST_LN: d = bin(g, AST_DIV, adj, cl(g, a)); break;
    case AST_SIN: d = bin(g, AST_MUL, adj, ast_call(g->ctx, noloc, AST_COS, 1,
                                                     (ast_expr *[]){cl(g, a)}));
        break;
    case AST_COS:
        d = ast_unary(g->ctx, noloc, AST_NEG,
                      bin(g, AST_MUL, adj, ast_call(g->ctx, noloc, AST_SIN, 1,
                                                    (ast_expr *[]){cl(g, a)})));
        break;
    case AST_TANH:
        d = bin(g, AST_MUL, adj, bin(g, AST_SUB, flit(g, 1, t), bin(g, AST_MUL, cl(g, e), cl(g, e))));
        break;
    case AST_SIGMOID:
        d = bin(g, AST_MUL, bin(g, AST_MUL, adj, cl(g, e)), bin(g, AST_SUB, flit(g, 1, t), cl(g, e)));
        break;
    case AST_SQUARE: d = bin(g, AST_MUL, bin(g, AST_MUL, adj, flit(g, 2, t)), cl(g, a)); break;
    case AST_TAN:       /* 1 + tan^2 */
        d = bin(g, AST_MUL, adj, bin(g, AST_ADD, flit(g, 1, t), bin(g, AST_MUL, cl(g, e), cl(g, e))));
        break;
    case AST_ERF:       /* 2 / sqrt(pi) * exp(-a^2) */
        d = bin(g, AST_MUL, bin(g, AST_MUL, adj, flit(g, M_2_SQRTPI, t)),
                ast_call(g->ctx, noloc, AST_EXP, 1,
                         (ast_expr *[]){ast_unary(g->ctx, noloc, AST_NEG,
                                                  bin(g, AST_MUL, cl(g, a), cl(g, a)))}));
        break;
    case AST_LOG1P: d = bin(g, AST_DIV, adj, bin(g, AST_ADD, flit(g, 1, t), cl(g, a))); break;
    case AST_EXPM1:     /* exp(a), not expm1(a) + 1 */
        d = bin(g, AST_MUL, adj, ast_call(g->ctx, noloc, AST_EXP, 1, (ast_expr *[]){cl(g, a)}));
        break;
    default: return;    /* floor, ceil: zero almost everywhere */
    }
    contrib(g, a, d, out);
}

/* adj / b, the adjoint of a in a / b, and the part of b's adjoint that
 * the same division gives (one division, where b's adjoint was once
 * adj * (a / b) / b: two).  When b is a nonzero float literal, adj times
 * its reciprocal (a multiplication; a derivative, so a reciprocal rounded
 * once is as good as the division). */
static ast_expr *quotient(ad_grad *g, ast_expr *adj, const ast_expr *b)
{
    if (b->kind == AST_FLOAT && b->u.fval != 0 && isfinite(1.0 / b->u.fval))
        return bin(g, AST_MUL, adj, flit(g, 1.0 / b->u.fval, b->dtype));
    return bin(g, AST_DIV, adj, cl(g, b));
}

/* The adjoint of a binary e = a op b from adj. */
static void contrib_binary(ad_grad *g, const ast_expr *e, ast_expr *adj, ft_vec *out)
{
    const ast_expr *a = e->u.bin.a, *b = e->u.bin.b;
    int act_b = expr_active(g, b);
    switch (e->u.bin.op) {
    case AST_ADD: contrib(g, a, adj, out); if (act_b) contrib(g, b, cl(g, adj), out); break;
    case AST_SUB:
        contrib(g, a, adj, out);
        if (act_b)
            contrib(g, b, ast_unary(g->ctx, noloc, AST_NEG, cl(g, adj)), out);
        break;
    case AST_MUL:
        contrib(g, a, bin(g, AST_MUL, adj, cl(g, b)), out);
        if (act_b)
            contrib(g, b, bin(g, AST_MUL, cl(g, a), cl(g, adj)), out);
        break;
    case AST_DIV: {     /* q = adj / b: d_a += q, d_b += -(q * (a / b)) */
        ast_expr *q = quotient(g, adj, b);
        ast_expr *q2 = act_b ? cl(g, q) : NULL;
        contrib(g, a, q, out);
        if (act_b)
            contrib(g, b, ast_unary(g->ctx, noloc, AST_NEG, bin(g, AST_MUL, q2, cl(g, e))), out);
        break;
    }
    case AST_MOD:       /* a - b * floor(a / b) */
        contrib(g, a, adj, out);
        if (act_b)
            contrib(g, b, ast_unary(g->ctx, noloc, AST_NEG, bin(g, AST_MUL, cl(g, adj),
                     ast_call(g->ctx, noloc, AST_FLOOR, 1,
                              (ast_expr *[]){bin(g, AST_DIV, cl(g, a), cl(g, b))}))), out);
        break;
    case AST_POW: {
        ast_expr *bm1 = bin(g, AST_SUB, cl(g, b), b->kind == AST_INT ? ast_int(g->ctx, noloc, 1)
                                                                     : flit(g, 1, b->dtype));
        contrib(g, a, bin(g, AST_MUL, bin(g, AST_MUL, adj, cl(g, b)),
                          bin(g, AST_POW, cl(g, a), bm1)), out);
        if (act_b)
            contrib(g, b, bin(g, AST_MUL, bin(g, AST_MUL, cl(g, adj), cl(g, e)),
                              ast_call(g->ctx, noloc, AST_LN, 1, (ast_expr *[]){cl(g, a)})), out);
        break;
    }
    case AST_MIN: case AST_MAX: {
        ast_expr *ca = bin(g, e->u.bin.op == AST_MIN ? AST_LE : AST_GE, cl(g, a), cl(g, b));
        contrib(g, a, gate(g, ca, adj, 1), out);
        if (act_b)
            contrib(g, b, gate(g, cl(g, ca), cl(g, adj), 0), out);
        break;
    }
    default: break;     /* comparisons, logic, //: no gradient */
    }
}

/* Add to out the statements accumulating the adjoint of e, given adj (the
 * adjoint of e's value, of e's dtype). */
static void contrib(ad_grad *g, const ast_expr *e, ast_expr *adj, ft_vec *out)
{
    if (!expr_active(g, e) || !ft_dtype_is_float(e->dtype))
        return;
    switch (e->kind) {
    case AST_LOAD: {
        const char *x = e->u.load.var;
        ft_vec_push(g->ctx, out, ast_reduce(g->ctx, e->loc, AST_RED_ADD, dname(g, x), e->u.load.n,
                                            clone_idx(g->ctx, e->u.load.n, e->u.load.idx),
                                            xf_convert(g->ctx, adj, e->dtype)));
        break;
    }
    case AST_BINARY: contrib_binary(g, e, adj, out); break;
    case AST_UNARY:
        if (e->u.un.op == AST_NEG)
            contrib(g, e->u.un.a, ast_unary(g->ctx, noloc, AST_NEG, adj), out);
        break;
    case AST_CALL: contrib_call(g, e, adj, out); break;
    case AST_CAST:
        contrib(g, e->u.cast.a, xf_convert(g->ctx, adj, e->u.cast.a->dtype), out);
        break;
    case AST_IFEXPR:
        contrib(g, e->u.ife.then, gate(g, cl(g, e->u.ife.cond), adj, 1), out);
        contrib(g, e->u.ife.other, gate(g, cl(g, e->u.ife.cond), cl(g, adj), 0), out);
        break;
    default: break;
    }
}

/* ------------------------------------------------------------ statements */

static ast_stmt *rev(ad_grad *g, ast_stmt *s);

/* Whether the adjoint of target var is the input d_y itself (never zeroed). */
static int adjoint_is_input(ad_grad *g, const char *var)
{
    ast_param *p = find_param(g, var);
    return p && p->access != FT_ACC_IN && !xf_has_name(&g->copied, var);
}

/* var[idx] = v: tmp = d_var[idx]; d_var[idx] = 0; the adjoint of v. */
static ast_stmt *rev_store(ad_grad *g, ast_stmt *s)
{
    const char *var = s->u.store.var;
    ad_local *over = find_over(g, s);
    if (!xf_has_name(&g->active, var))
        return over ? over_copy(g, over, 0) : NULL;
    ft_dtype t = ad_tensor_dtype(g, var);
    const char *dv = dname(g, var);
    int n = s->u.store.n;
    ast_expr **idx = s->u.store.idx;
    ft_vec items = {0};
    ft_vec adds = {0};
    const char *tmp = ad_fresh(g, "ad_adj");
    ast_expr *adj = ast_load(g->ctx, s->loc, tmp, t, 0, NULL);
    contrib(g, s->u.store.value, xf_convert(g->ctx, adj, s->u.store.value->dtype), &adds);
    ft_vec_push(g->ctx, &items, ast_store(g->ctx, s->loc, tmp, 0, NULL,
                                          ast_load(g->ctx, s->loc, dv, t, n,
                                                   clone_idx(g->ctx, n, idx))));
    if (!adjoint_is_input(g, var))
        ft_vec_push(g->ctx, &items, ast_store(g->ctx, s->loc, dv, n, clone_idx(g->ctx, n, idx),
                                              flit(g, 0, t)));
    if (over)    /* the old value, which the adjoint of v may read */
        ft_vec_push(g->ctx, &items, over_copy(g, over, 0));
    if (!adds.len) {
        items.items[0] = NULL;
        return seq_of(g->ctx, s->loc, &items);
    }
    for (int i = 0; i < adds.len; i++)
        ft_vec_push(g->ctx, &items, adds.items[i]);
    return ast_vardef(g->ctx, s->loc, tmp, t, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                      seq_of(g->ctx, s->loc, &items));
}

/* var[idx] max= v (or min=), adjoint adj = d_var[idx]: of the operands
 * equal to the result, one takes the adjoint: the last in program order
 * (the first the backward pass meets), which then zeroes d_var[idx], so
 * that the operands tied with it, and the value var held before the
 * reductions, take nothing (also when the winner is a constant, whose
 * share is then lost: `s = max(s, 2)` with s < 2 has no gradient).  Passing it to every operand equal to the
 * result (as before) counted it once per tie: `q = max(q, tanh(2 a))` over
 * n iterations gave n times d_a, and `q = x[0]` before the loop always
 * took it. */
static ast_stmt *rev_minmax(ad_grad *g, ast_stmt *s, ft_dtype t, ast_expr *adj)
{
    const ast_expr *v = s->u.red.value;
    int n = s->u.red.n;
    ast_expr *now = ast_load(g->ctx, s->loc, s->u.red.var, t, n,
                             clone_idx(g->ctx, n, s->u.red.idx));
    ft_vec items = {0};
    if (expr_active(g, v))      /* a constant that wins takes it too, for nothing */
        contrib(g, v, xf_convert(g->ctx, adj, v->dtype), &items);
    ft_vec_push(g->ctx, &items, ast_store(g->ctx, s->loc, dname(g, s->u.red.var), n,
                                          clone_idx(g->ctx, n, s->u.red.idx), flit(g, 0, t)));
    return ast_if(g->ctx, s->loc, bin(g, AST_EQ, xf_convert(g->ctx, cl(g, v), t), now),
                  seq_of(g->ctx, s->loc, &items), NULL);
}

/* var[idx] op= v: the adjoint of v from d_var[idx]. */
static ast_stmt *rev_reduce(ad_grad *g, ast_stmt *s)
{
    const char *var = s->u.red.var;
    const ast_expr *v = s->u.red.value;
    int minmax = s->u.red.op == AST_RED_MAX || s->u.red.op == AST_RED_MIN;
    if (!xf_has_name(&g->active, var) || (!minmax && !expr_active(g, v)))
        return NULL;
    ft_dtype t = ad_tensor_dtype(g, var);
    int n = s->u.red.n;
    ast_expr *adj = ast_load(g->ctx, s->loc, dname(g, var), t, n,
                             clone_idx(g->ctx, n, s->u.red.idx));
    switch (s->u.red.op) {
    case AST_RED_ADD: break;
    case AST_RED_MUL:     /* made a Store by products_to_stores */
        ft_error(g->ctx, s->loc, "internal error: a `*=` reached the gradient");
        return NULL;
    case AST_RED_MAX: case AST_RED_MIN: return rev_minmax(g, s, t, adj);
    }
    ft_vec adds = {0};
    contrib(g, v, xf_convert(g->ctx, adj, v->dtype), &adds);
    return seq_of(g->ctx, s->loc, &adds);
}

/* The same iterations as loop s, last first; NULL for a non-constant step. */
static ast_stmt *rev_for(ad_grad *g, ast_stmt *s, ast_stmt *body)
{
    const ast_expr *st = s->u.loop.step;
    if (st && st->kind != AST_INT) {
        ft_unsupported(g->ctx, s->loc, "the gradient of a loop with a non-constant step");
        return NULL;
    }
    int64_t k = st ? st->u.ival : 1;
    if (k == INT64_MIN) {   /* the reversed loop's step, 2^63, is no int64 */
        ft_unsupported(g->ctx, s->loc, "the gradient of a loop with step -2^63");
        return NULL;
    }
    ft_ctx *c = g->ctx;
    ast_expr *b = cl(g, s->u.loop.begin), *e = cl(g, s->u.loop.end);
    ast_expr *last, *stop;
    if (k == 1) {
        last = bin(g, AST_SUB, e, ast_int(c, noloc, 1));
        stop = bin(g, AST_SUB, b, ast_int(c, noloc, 1));
    } else {
        int64_t ak = k > 0 ? k : -k;
        ast_expr *span = k > 0 ? bin(g, AST_SUB, bin(g, AST_SUB, e, cl(g, b)), ast_int(c, noloc, 1))
                               : bin(g, AST_SUB, bin(g, AST_SUB, cl(g, b), e), ast_int(c, noloc, 1));
        last = bin(g, AST_ADD, b, bin(g, AST_MUL, bin(g, AST_FLOORDIV, span, ast_int(c, noloc, ak)),
                                      ast_int(c, noloc, k)));
        stop = bin(g, k > 0 ? AST_SUB : AST_ADD, cl(g, s->u.loop.begin), ast_int(c, noloc, 1));
    }
    return ast_for(c, s->loc, s->u.loop.iter, last, stop, ast_int(c, noloc, -k), body);
}

/* VarDef t: restore t (the slot, filled by materialize.c), zero d_t,
 * reverse the body. */
static ast_stmt *rev_vardef(ad_grad *g, ast_stmt *s)
{
    ad_local *l = local_of(g, s);
    ast_stmt *body = rev(g, s->u.def.body);
    ft_vec items = {0};
    l->slot = ast_seq(g->ctx, s->loc, 0, NULL);
    ft_vec_push(g->ctx, &items, l->slot);
    if (xf_has_name(&g->active, s->u.def.name) && body) {
        const char *dv = dname(g, s->u.def.name);
        ft_vec inner = {0};
        ft_vec_push(g->ctx, &inner, ad_fill(g, dv, s->u.def.dtype, s->u.def.ndim,
                                            s->u.def.shape, NULL));
        ft_vec_push(g->ctx, &inner, body);
        ast_expr **sh = clone_idx(g->ctx, s->u.def.ndim, s->u.def.shape);
        body = ast_vardef(g->ctx, s->loc, dv, s->u.def.dtype, s->u.def.ndim, sh, FT_ACC_CACHE,
                          s->u.def.mtype, seq_of(g->ctx, s->loc, &inner));
    }
    ft_vec_push(g->ctx, &items, body);
    return ast_vardef(g->ctx, s->loc, s->u.def.name, s->u.def.dtype, s->u.def.ndim,
                      clone_idx(g->ctx, s->u.def.ndim, s->u.def.shape), FT_ACC_CACHE,
                      s->u.def.mtype, seq_of(g->ctx, s->loc, &items));
}

/* The backward pass of s (NULL when it has none). */
static ast_stmt *rev(ad_grad *g, ast_stmt *s)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case AST_SEQ: {
        ft_vec v = {0};
        for (int i = s->u.seq.n - 1; i >= 0; i--)
            ft_vec_push(g->ctx, &v, rev(g, s->u.seq.stmts[i]));
        return seq_of(g->ctx, s->loc, &v);
    }
    case AST_VARDEF: return rev_vardef(g, s);
    case AST_FOR: {
        ast_stmt *body = rev(g, s->u.loop.body);
        return body ? rev_for(g, s, body) : NULL;
    }
    case AST_IF: {
        ast_stmt *t = rev(g, s->u.branch.then), *o = rev(g, s->u.branch.other);
        if (!t && !o)
            return NULL;
        return ast_if(g->ctx, s->loc, cl(g, s->u.branch.cond),
                      t ? t : ast_seq(g->ctx, s->loc, 0, NULL), o);
    }
    case AST_STORE: return rev_store(g, s);
    case AST_REDUCE: return rev_reduce(g, s);
    default: return NULL;    /* asserts ran in the forward pass */
    }
}

/* ------------------------------------------------------------ checks */

/* Refuse what the model cannot differentiate: a tensor whose value the
 * backward pass reads but that is written after being read (a WAR
 * dependence, or a write reading its own target). */
static int check_overwrites(ad_grad *g, const ft_vec *needed)
{
    int bad = 0;
    for (int k = 0; k < g->deps->n && !bad; k++) {
        an_dep *d = g->deps->deps[k];
        if (d->kind != AN_WAR || !xf_has_name(needed, d->var) || !d->snk->stmt ||
            d->snk->stmt->kind == AST_STORE)
            continue;
        ft_error(g->ctx, d->snk->stmt ? d->snk->stmt->loc : g->f->loc,
                 "not supported yet: the gradient `%s` needs the value of `%s`, which is "
                 "written here after it is read (save it in a new variable instead)",
                 g->name, d->var);
        bad = 1;
    }
    return bad;
}

/* The tensors whose values the backward pass bwd reads. */
static void loaded_names(ad_grad *g, ast_stmt *bwd, ft_vec *names)
{
    xf_stmt_loaded(g->ctx, bwd, names);
}

/* ------------------------------------------------------------ functions */

/* Whether the forward pass computes saved local l in its region of the
 * tape instead of copying it there at the end of its scope: l is declared
 * outside every loop (one version, so the region is shaped and indexed as
 * l itself), is not 0-D (a scalar stays in a register) and has the tape's
 * dtype.  Saves the copy and l's buffer (GAT's hf: n x feat_len). */
static int lives_in_region(const ad_grad *g, const ad_local *l)
{
    return l->decision == AD_SAVE && l->nloops == 0 && l->def->u.def.ndim > 0 &&
           l->def->u.def.dtype == g->tape_dtype;
}

/* A copy of s in which each overwriting Store first saves the old value;
 * each saved local copied to its region at the end of its scope, or
 * living there (lives_in_region). */
static ast_stmt *clone_saving(ad_grad *g, const ast_stmt *s)
{
    if (!s)
        return NULL;
    ad_local *o = s->kind == AST_STORE ? find_over(g, s) : NULL;
    if (o) {
        ast_stmt **v = ft_alloc(g->ctx, sizeof *v * 2);
        v[0] = over_copy(g, o, 1);
        v[1] = ast_clone_stmt(g->ctx, s, AST_CLONE_NEW_LABELED);
        return ast_seq(g->ctx, s->loc, 2, v);
    }
    if (s->kind != AST_SEQ && s->kind != AST_VARDEF && s->kind != AST_FOR && s->kind != AST_IF)
        return ast_clone_stmt(g->ctx, s, AST_CLONE_NEW_LABELED);
    ast_stmt c = *s;     /* a shallow copy whose children are replaced */
    switch (s->kind) {
    case AST_SEQ: {
        ast_stmt **v = ft_alloc(g->ctx, sizeof *v * (size_t)(s->u.seq.n + 1));
        for (int i = 0; i < s->u.seq.n; i++)
            v[i] = clone_saving(g, s->u.seq.stmts[i]);
        c.u.seq.stmts = v;
        break;
    }
    case AST_VARDEF: {
        ad_local *l = local_of(g, s);
        c.u.def.body = clone_saving(g, s->u.def.body);
        if (l && lives_in_region(g, l)) {
            xf_rename_tensor(g->ctx, c.u.def.body, s->u.def.name, l->region);
            return c.u.def.body;
        }
        if (l && l->decision == AD_SAVE) {
            ast_stmt **v = ft_alloc(g->ctx, sizeof *v * 2);
            v[0] = c.u.def.body;
            v[1] = ad_tape_copy(g, l, 1);
            c.u.def.body = ast_seq(g->ctx, s->loc, 2, v);
        }
        break;
    }
    case AST_FOR: c.u.loop.body = clone_saving(g, s->u.loop.body); break;
    default:
        c.u.branch.then = clone_saving(g, s->u.branch.then);
        c.u.branch.other = clone_saving(g, s->u.branch.other);
        break;
    }
    ast_stmt *r = ast_clone_stmt(g->ctx, &c, AST_CLONE_NEW_LABELED);
    return r;
}

/* The forward pass: f's body, each saved local copied onto the tape at the
 * end of its scope, each overwritten value saved before its Store. */
static ast_stmt *fwd_body(ad_grad *g, const ast_stmt *s)
{
    if (!s)
        return NULL;
    return xf_normalize(g->ctx, clone_saving(g, s));
}

/* A parameter like p with another name and access. */
static ast_param like(ad_grad *g, const ast_param *p, const char *name, ft_access acc)
{
    ast_param q = *p;
    q.name = name;
    q.access = acc;
    q.shape = clone_idx(g->ctx, p->ndim, p->shape);
    return q;
}

/* The tape parameter. */
static ast_param tape_param(ad_grad *g, ft_access acc)
{
    ast_param q = {.name = g->tape, .dtype = g->tape_dtype, .ndim = 1, .access = acc,
                   .mtype = FT_MT_CPU, .loc = g->f->loc, .opaque = 1};
    q.shape = ft_alloc(g->ctx, sizeof *q.shape);
    q.shape[0] = cl(g, g->tape_elems);
    return q;
}

/* The regions of the tape (ad_local *): the overwrites', then the saved
 * locals'. */
static void tape_regions(ad_grad *g, ft_vec *out)
{
    for (int i = 0; i < g->overs.len; i++)
        if (((ad_local *)g->overs.items[i])->region)
            ft_vec_push(g->ctx, out, g->overs.items[i]);
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        if (l->decision == AD_SAVE && l->region)
            ft_vec_push(g->ctx, out, l);
    }
}

/* The parameter of region l: a tensor of its own, packed into the tape
 * by ad_pack_tapes. */
static ast_param region_param(ad_grad *g, const ad_local *l, ft_access acc)
{
    ast_param q = {.name = l->region, .dtype = g->tape_dtype, .access = acc,
                   .mtype = FT_MT_CPU, .loc = g->f->loc, .region_at = cl(g, l->offset)};
    q.ndim = ad_region_shape(g, l, &q.shape);
    return q;
}

/* Parameters: f's (outs as `in` when fwd_outs is 0), d_ of each float
 * out/inout, d_ of each wrt, then, when tape_acc is not -1, the tape's
 * regions and the tape. */
static ast_func *new_func(ad_grad *g, const char *name, int with_d, int outs_in, int tape_acc,
                          ast_stmt *body)
{
    ast_func *fn = ft_alloc(g->ctx, sizeof *fn);
    ft_vec regs = {0};
    tape_regions(g, &regs);
    ast_param *ps = ft_alloc(g->ctx, sizeof *ps * (size_t)(3 * g->f->nparams + regs.len + 2));
    int n = 0;
    for (int i = 0; i < g->f->nparams; i++) {
        ast_param *p = &g->f->params[i];
        ps[n++] = p->is_size ? *p : like(g, p, p->name, outs_in ? FT_ACC_IN : p->access);
    }
    for (int i = 0; with_d && i < g->f->nparams; i++) {
        ast_param *p = &g->f->params[i];
        if (!p->is_size && p->access != FT_ACC_IN && ft_dtype_is_float(p->dtype))
            ps[n++] = like(g, p, ft_fmt(g->ctx, "d_%s", p->name), FT_ACC_IN);
    }
    for (int i = 0; with_d && i < g->nwrt; i++)
        ps[n++] = like(g, find_param(g, g->wrt[i]), ft_fmt(g->ctx, "d_%s", g->wrt[i]),
                       FT_ACC_OUT);
    for (int i = 0; tape_acc >= 0 && i < regs.len; i++)
        ps[n++] = region_param(g, regs.items[i], (ft_access)tape_acc);
    if (tape_acc >= 0)
        ps[n++] = tape_param(g, (ft_access)tape_acc);
    fn->name = name;
    fn->nparams = n;
    fn->params = ps;
    fn->body = body ? body : ast_seq(g->ctx, g->f->loc, 0, NULL);
    fn->loc = g->f->loc;
    return fn;
}

/* The backward body: d_wrt zeroed, copies of d_y where needed, rev(f). */
static ast_stmt *bwd_wrap(ad_grad *g, ast_stmt *core)
{
    ft_vec v = {0};
    for (int i = 0; i < g->nwrt; i++) {
        ast_param *p = find_param(g, g->wrt[i]);
        ft_vec_push(g->ctx, &v, ad_fill(g, ft_fmt(g->ctx, "d_%s", p->name), p->dtype, p->ndim,
                                        p->shape, NULL));
    }
    for (int i = 0; i < g->overs.len; i++) {
        const char *y = ((ad_local *)g->overs.items[i])->def->u.store.var;
        ast_param *p = find_param(g, y);
        if (!p || xf_has_name(&g->restored, y))
            continue;
        const char *yr = ad_fresh(g, ft_fmt(g->ctx, "%s_r", y));
        xf_rename_tensor(g->ctx, core, y, yr);
        ft_vec w = {0};
        ft_vec_push(g->ctx, &w, ad_fill(g, yr, p->dtype, p->ndim, p->shape, y));
        ft_vec_push(g->ctx, &w, core);
        core = ast_vardef(g->ctx, g->f->loc, yr, p->dtype, p->ndim,
                          clone_idx(g->ctx, p->ndim, p->shape), FT_ACC_CACHE, FT_MT_CPU,
                          seq_of(g->ctx, g->f->loc, &w));
        ft_vec_push(g->ctx, &g->restored, (void *)y);
    }
    ft_vec_push(g->ctx, &v, core);
    ast_stmt *body = seq_of(g->ctx, g->f->loc, &v);
    for (int i = 0; i < g->copied.len; i++) {
        ast_param *p = find_param(g, g->copied.items[i]);
        const char *dv = dname(g, p->name);
        ft_vec w = {0};
        ft_vec_push(g->ctx, &w, ad_fill(g, dv, p->dtype, p->ndim, p->shape,
                                        ft_fmt(g->ctx, "d_%s", p->name)));
        ft_vec_push(g->ctx, &w, body);
        body = ast_vardef(g->ctx, g->f->loc, dv, p->dtype, p->ndim,
                          clone_idx(g->ctx, p->ndim, p->shape), FT_ACC_CACHE, FT_MT_CPU,
                          seq_of(g->ctx, g->f->loc, &w));
    }
    return body;
}

/* Check the names of the gradient's parameters and the wrt list. */
static int check_params(ad_grad *g, ft_loc loc)
{
    for (int i = 0; i < g->nwrt; i++) {
        ast_param *p = find_param(g, g->wrt[i]);
        if (!p || p->is_size || p->access != FT_ACC_IN || !ft_dtype_is_float(p->dtype)) {
            ft_error(g->ctx, loc, "`grad %s wrt %s`: `%s` is not a float `in` tensor "
                     "parameter of `%s`", g->f->name, g->wrt[i], g->wrt[i], g->f->name);
            return 1;
        }
    }
    for (int i = 0; i < g->f->nparams; i++) {
        const char *d = ft_fmt(g->ctx, "d_%s", g->f->params[i].name);
        if (find_param(g, d)) {
            ft_error(g->ctx, loc, "`grad %s`: the gradient's parameter `%s` would clash with "
                     "the parameter of that name (rename it)", g->f->name, d);
            return 1;
        }
        ft_vec_push(g->ctx, &g->taken, (void *)d);
    }
    return 0;
}

/* Run the cleanups (xf_cleanup) on the new functions only (f has had
 * them). */
static void tidy(ft_ctx *ctx, int n, ast_func **fs)
{
    ast_program q = {.nfuncs = n, .funcs = fs};
    /* twice: the first round's removals (a zeroed adjoint, a temporary)
     * open more, and the dump must be what compiling it again gives */
    for (int round = 0; round < 2; round++)
        xf_cleanup(ctx, &q);
}

/* Append fn to p. */
static void add_func(ft_ctx *ctx, ast_program *p, ast_func *fn)
{
    ast_func **v = ft_alloc(ctx, sizeof *v * (size_t)(p->nfuncs + 1));
    if (p->nfuncs)
        memcpy(v, p->funcs, sizeof *v * (size_t)p->nfuncs);
    v[p->nfuncs++] = fn;
    p->funcs = v;
}

/* Append g_tape_bytes(sizes) to p. */
static void add_tape_bytes(ad_grad *g, ast_program *p)
{
    ast_sizefn *s = ft_alloc(g->ctx, sizeof *s);
    s->name = ft_fmt(g->ctx, "%s_tape_bytes", g->name);
    s->params = ft_alloc(g->ctx, sizeof *s->params * (size_t)(g->f->nparams + 1));
    for (int i = 0; i < g->f->nparams; i++)
        if (g->f->params[i].is_size)
            s->params[s->nparams++] = g->f->params[i];
    int64_t w = g->tape_dtype == FT_F32 ? 4 : 8;
    s->value = ad_mul(g->ctx, cl(g, g->tape_elems), ast_int(g->ctx, noloc, w));
    ast_sizefn **v = ft_alloc(g->ctx, sizeof *v * (size_t)(p->nsizefns + 1));
    if (p->nsizefns)
        memcpy(v, p->sizefns, sizeof *v * (size_t)p->nsizefns);
    v[p->nsizefns++] = s;
    p->sizefns = v;
}

/* A copy of the backward pass bwd whose locals are renamed apart from f's
 * (the combined function declares both in one scope). */
static ast_stmt *bwd_renamed(ad_grad *g, ast_stmt *bwd)
{
    ast_stmt *c = ast_clone_stmt(g->ctx, bwd, AST_CLONE_NEW);
    ft_vec defs = {0};
    xf_collect_vardefs(g->ctx, c, &defs);
    for (int i = 0; i < defs.len; i++) {
        ast_stmt *d = defs.items[i];
        if (!ad_find_local(g, d->u.def.name))
            continue;
        const char *to = ad_fresh(g, ft_fmt(g->ctx, "%s_b", d->u.def.name));
        xf_rename_tensor(g->ctx, d->u.def.body, d->u.def.name, to);
        d->u.def.name = to;
    }
    return c;
}

/* Build the forward, backward and combined functions. */
static void emit_funcs(ad_grad *g, ast_program *p, ast_stmt *bwd)
{
    ft_ctx *c = g->ctx;
    ast_func *fs[3];
    fs[0] = new_func(g, ft_fmt(c, "%s_fwd", g->name), 0, 0, FT_ACC_OUT, fwd_body(g, g->f->body));
    fs[1] = new_func(g, ft_fmt(c, "%s_bwd", g->name), 1, 1, FT_ACC_IN,
                     xf_normalize(c, ast_clone_stmt(c, bwd, AST_CLONE_NEW)));
    ft_vec both = {0};
    ft_vec_push(c, &both, fwd_body(g, g->f->body));
    ft_vec_push(c, &both, bwd_renamed(g, bwd));
    ast_stmt *body = seq_of(c, g->f->loc, &both);
    body = ad_region_locals(c, fs[0], body, NULL);
    fs[2] = new_func(g, g->name, 1, 0, -1, xf_normalize(c, body));
    ad_skip_zero_adjoints(g, fs[1]->body);
    ad_skip_zero_adjoints(g, fs[2]->body);
    tidy(c, 3, fs);
    fs[2]->ad_fwd = fs[0];
    fs[2]->ad_bwd = fs[1];
    for (int i = 0; i < 3; i++)
        add_func(c, p, fs[i]);
    add_tape_bytes(g, p);
}

/* Whether a saved local of g is not f32 (the tape must then be f64). */
static int needs_f64(const ad_grad *g)
{
    for (int i = 0; i < g->locals.len; i++) {
        const ad_local *l = g->locals.items[i];
        if (l->decision == AD_SAVE && l->def->u.def.dtype != FT_F32)
            return 1;
    }
    return 0;
}

/* Build the gradient g (its deps found) and add its functions to p, the
 * tape f64 when wide, else f32 as long as every saved value is f32.
 * Returns 0, 1 after errors, or -1 when a saved local needs the f64 tape
 * that !wide did not give (nothing added: build again with wide set). */
static int build_grad(ad_grad *g, ast_program *p, int wide)
{
    ft_ctx *ctx = g->ctx;
    int errors = ctx->nerrors;
    ft_vec loops = {0};
    find_war_sinks(g);
    collect_locals(g, g->f->body, &loops);
    find_active(g);
    find_copied(g);
    g->tape = ad_fresh(g, "tape");
    ad_layout_overs(g, wide);
    ast_stmt *core = ctx->nerrors == errors ? rev(g, g->f->body) : NULL;
    if (ctx->nerrors != errors)
        return 1;       /* a refused gradient leaves holes in core: wrap nothing */
    ast_stmt *bwd = bwd_wrap(g, core);
    ft_vec needed = {0};
    if (!ad_decide(g, bwd)) {
        loaded_names(g, bwd, &needed);
        check_overwrites(g, &needed);
    }
    if (ctx->nerrors != errors)
        return 1;
    if (g->tape_dtype == FT_F32 && needs_f64(g))
        return -1;
    if (ctx->opts.explain_tapes)
        ad_explain(g, stdout);
    /* in place: g_bwd and g copy it */
    ad_forward_order(ctx, bwd);
    emit_funcs(g, p, bwd);
    return ctx->nerrors != errors;
}

/* The dtype of tensor name: a VarDef of defs (innermost last) or a
 * parameter of f. */
static ft_dtype scope_dtype(const ast_func *f, const ft_vec *defs, const char *name)
{
    for (int i = defs->len - 1; i >= 0; i--) {
        const ast_stmt *d = defs->items[i];
        if (!strcmp(d->u.def.name, name))
            return d->u.def.dtype;
    }
    for (int i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return f->params[i].dtype;
    return FT_F64;
}

/* Rewrite, in place, every float `var[idx] *= v` under s as
 * `var[idx] = var[idx] * v`: a Store that reads the value it overwrites,
 * whose old value the tape keeps per version (the overwrite regions of
 * tape.c), so that the backward pass gets d_v = d_var * old and
 * d_old = d_var * v with no division. */
static void products_to_stores(ft_ctx *ctx, const ast_func *f, ast_stmt *s, ft_vec *defs)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            products_to_stores(ctx, f, s->u.seq.stmts[i], defs);
        return;
    case AST_VARDEF:
        ft_vec_push(ctx, defs, s);
        products_to_stores(ctx, f, s->u.def.body, defs);
        defs->len--;
        return;
    case AST_FOR: products_to_stores(ctx, f, s->u.loop.body, defs); return;
    case AST_IF:
        products_to_stores(ctx, f, s->u.branch.then, defs);
        products_to_stores(ctx, f, s->u.branch.other, defs);
        return;
    case AST_REDUCE: break;
    default: return;
    }
    ft_dtype t = scope_dtype(f, defs, s->u.red.var);
    if (s->u.red.op != AST_RED_MUL || !ft_dtype_is_float(t))
        return;
    int n = s->u.red.n;
    ast_expr *old = ast_load(ctx, s->loc, s->u.red.var, t, n, clone_idx(ctx, n, s->u.red.idx));
    ast_expr *v = ast_binary(ctx, s->loc, AST_MUL, old, xf_convert(ctx, s->u.red.value, t));
    ast_stmt *st = ast_store(ctx, s->loc, s->u.red.var, n, s->u.red.idx, v);
    st->id = s->id;
    st->label = s->label;
    *s = *st;
}

/* A copy of f whose body the gradient may change (products_to_stores,
 * ad_split_versions). */
static ast_func *working_copy(ft_ctx *ctx, const ast_func *f)
{
    ast_func *w = ft_alloc(ctx, sizeof *w);
    *w = *f;
    w->body = ast_clone_stmt(ctx, f->body, AST_CLONE_NEW_LABELED);
    ft_vec defs = {0};
    products_to_stores(ctx, w, w->body, &defs);
    ad_split_versions(ctx, w);
    return w;
}

int ad_grad_func(ft_ctx *ctx, ast_program *p, ast_func *f, int nwrt, const char **wrt,
                 ad_tape_mode mode, const char *name, ft_loc loc)
{
    f = working_copy(ctx, f);
    ad_grad g = {.ctx = ctx, .f = f, .name = name, .mode = mode, .nwrt = nwrt, .wrt = wrt};
    if (check_params(&g, loc))
        return 1;
    an_deps *deps = an_func_deps(ctx, f);
    if (!deps) {
        ft_error(ctx, loc, "`grad %s`: the dependence analysis failed", f->name);
        return 1;
    }
    g.deps = deps;
    int r = build_grad(&g, p, 0);
    if (r < 0) {    /* again from scratch, with an f64 tape */
        g = (ad_grad){.ctx = ctx, .f = f, .name = name, .mode = mode, .nwrt = nwrt,
                      .wrt = wrt, .deps = deps};
        check_params(&g, loc);
        r = build_grad(&g, p, 1);
    }
    an_deps_free(deps);
    return r != 0;
}

/* The tape mode named by a `grad` declaration. */
static ad_tape_mode tape_mode(const char *s)
{
    return !strcmp(s, "all") ? AD_TAPE_ALL : !strcmp(s, "none") ? AD_TAPE_NONE : AD_TAPE_AUTO;
}

/* The exported function of p called name, or NULL. */
static ast_func *find_func(ast_program *p, const char *name)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (!strcmp(p->funcs[i]->name, name))
            return p->funcs[i];
    return NULL;
}

/* A C symbol of the library: its name, where it is defined, and what it is
 * (for the note at a clash). */
typedef struct ad_symbol {
    const char *name, *what;
    ft_loc loc;
} ad_symbol;

/* The symbol of syms called name, or NULL. */
static const ad_symbol *find_symbol(const ft_vec *syms, const char *name)
{
    for (int i = 0; i < syms->len; i++)
        if (!strcmp(((const ad_symbol *)syms->items[i])->name, name))
            return syms->items[i];
    return NULL;
}

/* Add a symbol to syms, or, when its name is taken, report the clash at loc
 * with a note at the other definition; 1 on a clash. */
static int add_symbol(ft_ctx *ctx, ft_vec *syms, const char *name, const char *what,
                      ft_loc loc)
{
    const ad_symbol *old = find_symbol(syms, name);
    if (old) {
        ft_error(ctx, loc, "'%s' (%s) is already defined; rename the gradient", name, what);
        ft_note(ctx, old->loc, "'%s' (%s) was defined here", name, old->what);
        return 1;
    }
    ad_symbol *s = ft_alloc(ctx, sizeof *s);
    *s = (ad_symbol){name, what, loc};
    ft_vec_push(ctx, syms, s);
    return 0;
}

/* Whether the C functions that the `grad` lines of p make (g, g_fwd,
 * g_bwd and the size function g_tape_bytes each) clash with each other or
 * with an exported function of p: reported at the gradient's name, with a
 * note at the other definition, before cc would find a redefinition. */
static int grad_names_clash(ft_ctx *ctx, const ast_program *p)
{
    static const char *const suffix[] = {"", "_fwd", "_bwd", "_tape_bytes"};
    static const char *const part[] = {"", "the forward half", "the backward half",
                                       "the tape size function"};
    ft_vec syms = {0};
    int bad = 0;
    for (int i = 0; i < p->nfuncs; i++)
        add_symbol(ctx, &syms, p->funcs[i]->name, "the exported function", p->funcs[i]->loc);
    for (int i = 0; i < p->ngrads; i++) {
        const ast_grad_decl *g = &p->grads[i];
        for (int j = 0; j < 4; j++) {
            const char *what = j ? ft_fmt(ctx, "%s of the gradient '%s'", part[j], g->name)
                                 : ft_fmt(ctx, "the gradient of '%s'", g->func);
            if (add_symbol(ctx, &syms, ft_fmt(ctx, "%s%s", g->name, suffix[j]), what,
                           g->name_loc)) {
                bad = 1;
                break;
            }
        }
    }
    return bad;
}

int ad_grad_program(ft_ctx *ctx, ast_program *p)
{
    int bad = 0;
    if (grad_names_clash(ctx, p))
        return 1;
    for (int i = 0; i < p->ngrads; i++) {
        const ast_grad_decl *g = &p->grads[i];
        const char *m = g->mode;
        if (strcmp(m, "auto") && strcmp(m, "all") && strcmp(m, "none")) {
            ft_error(ctx, g->loc, "unknown tape mode `%s` (use auto, all or none)", m);
            bad = 1;
            continue;
        }
        ast_func *f = find_func(p, g->func);
        if (!f) {
            ft_error(ctx, g->loc, "`grad %s`: no exported function `%s`", g->func, g->func);
            bad = 1;
            continue;
        }
        bad |= ad_grad_func(ctx, p, f, g->nwrt, g->wrt, tape_mode(m), g->name, g->loc);
    }
    return bad;
}
