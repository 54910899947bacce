/* gather.c - a gradient's accumulations split per tensor and gathered.
 *
 * Requires: the functions grad.c added (g_bwd, and the combined g).
 * Provides: in their bodies, outside any loop, every perfect loop nest
 * whose innermost statements are reductions `T[idx] op= v` under ifs
 * (no else), with unit-step loops whose bounds use none of its iterators,
 * and whose statements read no tensor any of them reduces into:
 *   1. split into one nest per reduced tensor (fission) when the tensors
 *      are indexed by different sets of its iterators and every added
 *      value is loads combined by +, - and * (a shared exp stays shared);
 *      a store of a literal after an inner loop, into each element once
 *      and read by the reductions only in the iteration that stores it
 *      (autodiff clearing an adjoint after its last use), goes to a nest
 *      of its own after them;
 *   2. in a nest of one reduction, each index of T that sums several of
 *      its iterators, `i + rest` (a convolution's input gradient
 *      d_x[n, c, oh - 1 + kh, ow - 1 + kw]), becomes a new iterator h
 *      running over that index's values, i = h - rest under the guard
 *      begin_i <= h - rest < end_i, in i's place in the nest.
 *
 * Why: the backward pass of a convolution y[o, oh, ow] += x[c, oh - 1 +
 * kh, ow - 1 + kw] * w[o, c, kh, kw] adds into d_x and d_w in one nest,
 * d_x scattered (iterations of o, oh, ow add into the same elements) and
 * d_w reduced over n, oh, ow: no loop but the batch writes apart, so the
 * auto-scheduler ran it on one thread at batch 1 and the tuner found no
 * task in it (bench/tune G1: 255 ms, PyTorch's backward 4.6 ms).  Split
 * and gathered, d_x's nest is a convolution of d_y with w's taps mirrored
 * and d_w's a reduction of products, each a task that tiles and blocked
 * layouts take (1.5 ms each, tuned, on the 2-core machine).
 *
 * Legality: the statements only reduce, one operator per tensor, and
 * read nothing the nest reduces into, so their instances commute: any
 * order and grouping gives the same sums (up to the rounding that any
 * parallel reduction already allows).  Fission runs each tensor's
 * instances as a nest of its own.  Gathering enumerates the same
 * instances: (.., i, ..) -> (.., h, ..) with h = i + rest is one to one,
 * and h's loop covers every value of i + rest over the loops' ranges, cut
 * to T's dimension only where the guards prove the index inside it.
 */
#include "ad.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "../transforms/sched_util.h"
#include "../transforms/simplify.h"
#include "../transforms/xf_util.h"

/* One reduction of a nest and the conjunction of the ifs around it
 * (NULL: none); both the nest's own, copied when a nest is built. */
typedef struct ga_leaf {
    ast_expr *guard;
    ast_stmt *red;
} ga_leaf;

/* A store of a literal after the inner loop of loop `level` of a nest
 * (`d_t[n, o, oh, ow] = 0.0`: autodiff clears an adjoint after its last
 * use), into every element once (its indices are the iterators of loops
 * 0..level): it moves to a nest of its own after the others. */
typedef struct ga_tail {
    int level;
    ast_stmt *loop;         /* the nest's loop `level`, whose body holds it */
    ast_stmt *store;
} ga_tail;

/* A loop nest being rebuilt: its loop headers (outermost first), its
 * reductions, and the stores of literals that follow inner loops. */
typedef struct ga_nest {
    int n;
    const char **iter;
    ast_expr **begin, **end;
    ft_vec leaves;          /* ga_leaf * */
    ft_vec tails;           /* ga_tail * */
} ga_nest;

/* a and b (either may be NULL). */
static ast_expr *and_of(ft_ctx *ctx, ast_expr *a, ast_expr *b)
{
    if (!a || !b)
        return a ? a : b;
    return ast_binary(ctx, b->loc, AST_AND, a, b);
}

/* Add the reductions of s (a nest's innermost body) under guard to out;
 * 0 when s holds another kind of statement, an if with an else or a
 * labelled statement. */
static int collect_leaves(ft_ctx *ctx, ast_stmt *s, ast_expr *guard, ft_vec *out)
{
    if (s->label || s->named)
        return 0;
    switch (s->kind) {
    case AST_REDUCE: {
        ga_leaf *l = ft_alloc(ctx, sizeof *l);
        l->guard = guard;
        l->red = s;
        ft_vec_push(ctx, out, l);
        return 1;
    }
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (!collect_leaves(ctx, s->u.seq.stmts[i], guard, out))
                return 0;
        return 1;
    case AST_IF:
        return !s->u.branch.other &&
               collect_leaves(ctx, s->u.branch.then, and_of(ctx, guard, s->u.branch.cond), out);
    default:
        return 0;
    }
}

/* Whether e uses one of the nest's iterators. */
static int uses_iter(const ga_nest *g, const ast_expr *e)
{
    for (int k = 0; k < g->n; k++)
        if (xf_expr_uses_var(e, g->iter[k]))
            return 1;
    return 0;
}

/* The loop of g whose iterator atom a is, or -1. */
static int iter_of(const ga_nest *g, const ast_expr *a)
{
    for (int k = 0; k < g->n && a->kind == AST_VAR; k++)
        if (!strcmp(a->u.name, g->iter[k]))
            return k;
    return -1;
}

/* Whether expression e (NULL allowed) reads a tensor of names or has an
 * index computed from data (a checked access). */
static int reads_any(const ast_expr *e, const ft_vec *names)
{
    if (!e)
        return 0;
    if (xf_expr_checked(e))
        return 1;
    for (int i = 0; i < names->len; i++)
        if (xf_expr_reads(e, names->items[i]))
            return 1;
    return 0;
}

/* Whether tail t of g may run after the whole nest: it stores a literal
 * into a tensor T that the reductions (written) do not touch, at indices
 * that are the iterators of loops 0..level, each once, and every access
 * of T in that loop's body is at those indices (the reductions read each
 * element in the one iteration that clears it, before it does). */
static int tail_movable(ft_ctx *ctx, const ga_nest *g, const ga_tail *t,
                        const ft_vec *written)
{
    const ast_stmt *s = t->store;
    if (s->kind != AST_STORE || s->label || xf_has_name(written, s->u.store.var) ||
        (s->u.store.value->kind != AST_INT && s->u.store.value->kind != AST_FLOAT) ||
        s->u.store.n != t->level + 1)
        return 0;
    uint64_t seen = 0;
    for (int d = 0; d < s->u.store.n; d++) {
        int k = iter_of(g, s->u.store.idx[d]);
        if (k < 0 || k > t->level || k >= 64 || (seen >> k & 1))
            return 0;
        seen |= (uint64_t)1 << k;
    }
    ft_vec acc = {0};
    xf_collect_accesses(ctx, t->loop->u.loop.body, s->u.store.var, &acc);
    for (int i = 0; i < acc.len; i++) {
        const xf_access *a = acc.items[i];
        for (int d = 0; d < s->u.store.n; d++)
            if (*a->n != s->u.store.n || !ast_expr_equal((*a->idx)[d], s->u.store.idx[d]))
                return 0;
    }
    return 1;
}

/* Read the perfect nest under loop l into g; 0 when it is not one this
 * pass rewrites (see the file comment). */
static int read_nest(ft_ctx *ctx, ast_stmt *l, ga_nest *g)
{
    ft_vec loops = {0};
    g->tails = (ft_vec){0};
    ast_stmt *s = l;
    for (;;) {
        if (s->label || s->named || s->u.loop.par != AST_SERIAL || s->u.loop.npf ||
            s->u.loop.step->kind != AST_INT || s->u.loop.step->u.ival != 1)
            return 0;
        ft_vec_push(ctx, &loops, s);
        ast_stmt *in = xf_only_stmt(s->u.loop.body), *b = s->u.loop.body;
        if (!in && b->kind == AST_SEQ && b->u.seq.n > 1 && b->u.seq.stmts[0]->kind == AST_FOR) {
            for (int i = 1; i < b->u.seq.n; i++) {
                ga_tail *t = ft_alloc(ctx, sizeof *t);
                t->level = loops.len - 1;
                t->loop = s;
                t->store = b->u.seq.stmts[i];
                ft_vec_push(ctx, &g->tails, t);
            }
            in = b->u.seq.stmts[0];
        }
        if (!in || in->kind != AST_FOR)
            break;
        s = in;
    }
    g->n = loops.len;
    g->iter = ft_alloc(ctx, sizeof *g->iter * (size_t)g->n);
    g->begin = ft_alloc(ctx, sizeof *g->begin * (size_t)g->n);
    g->end = ft_alloc(ctx, sizeof *g->end * (size_t)g->n);
    for (int k = 0; k < g->n; k++) {
        ast_stmt *lk = loops.items[k];
        g->iter[k] = lk->u.loop.iter;
        g->begin[k] = lk->u.loop.begin;
        g->end[k] = lk->u.loop.end;
    }
    for (int k = 0; k < g->n; k++)
        if (uses_iter(g, g->begin[k]) || uses_iter(g, g->end[k]) ||
            xf_expr_has_load(g->begin[k]) || xf_expr_has_load(g->end[k]))
            return 0;
    g->leaves = (ft_vec){0};
    if (!collect_leaves(ctx, s->u.loop.body, NULL, &g->leaves))
        return 0;
    ft_vec written = {0};
    for (int i = 0; i < g->leaves.len; i++) {
        const ga_leaf *a = g->leaves.items[i];
        if (!xf_has_name(&written, a->red->u.red.var))
            ft_vec_push(ctx, &written, (void *)a->red->u.red.var);
        for (int j = 0; j < i; j++) {
            const ga_leaf *b = g->leaves.items[j];
            if (!strcmp(a->red->u.red.var, b->red->u.red.var) && a->red->u.red.op != b->red->u.red.op)
                return 0;
        }
    }
    for (int i = 0; i < g->leaves.len; i++) {
        const ga_leaf *a = g->leaves.items[i];
        if (reads_any(a->guard, &written) || reads_any(a->red->u.red.value, &written))
            return 0;
        for (int d = 0; d < a->red->u.red.n; d++)
            if (reads_any(a->red->u.red.idx[d], &written))
                return 0;
    }
    for (int i = 0; i < g->tails.len; i++)
        if (!tail_movable(ctx, g, g->tails.items[i], &written))
            return 0;
    return 1;
}

/* A bit set of the nest's iterators that the indices of leaf l use. */
static uint64_t index_iters(const ga_nest *g, const ga_leaf *l)
{
    uint64_t set = 0;
    for (int k = 0; k < g->n && k < 64; k++)
        for (int d = 0; d < l->red->u.red.n; d++)
            if (xf_expr_uses_var(l->red->u.red.idx[d], g->iter[k]))
                set |= (uint64_t)1 << k;
    return set;
}

/* Whether e is loads, literals and iterators combined by +, -, * and
 * casts: a value that a nest split per tensor does not compute twice at
 * any cost beyond its loads. */
static int cheap(const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT: case AST_FLOAT: case AST_BOOLC: case AST_VAR: case AST_LOAD:
        return 1;
    case AST_BINARY:
        return (e->u.bin.op == AST_ADD || e->u.bin.op == AST_SUB || e->u.bin.op == AST_MUL) &&
               cheap(e->u.bin.a) && cheap(e->u.bin.b);
    case AST_UNARY:
        return e->u.un.op == AST_NEG && cheap(e->u.un.a);
    case AST_CAST:
        return cheap(e->u.cast.a);
    default:
        return 0;
    }
}

/* The reduced tensors of g, each once, in the order of their first
 * reduction; whether g splits per tensor: there are several, indexed by
 * different iterators, and every value is cheap (the gradient of a
 * softmax's exp would be computed once per tensor). */
static int split_tensors(ft_ctx *ctx, const ga_nest *g, ft_vec *tensors)
{
    int differ = 0, all_cheap = 1;
    uint64_t first = 0;
    for (int i = 0; i < g->leaves.len; i++) {
        const ga_leaf *l = g->leaves.items[i];
        all_cheap &= cheap(l->red->u.red.value);
        uint64_t set = index_iters(g, l);
        differ |= i > 0 && set != first;
        first = i ? first : set;
        if (!xf_has_name(tensors, l->red->u.red.var))
            ft_vec_push(ctx, tensors, (void *)l->red->u.red.var);
    }
    return differ && all_cheap && tensors->len > 1;
}

/* Whether name is free in f and not in taken. */
static int name_free(const ast_func *f, const ft_vec *taken, const char *name)
{
    if (xf_has_name(taken, name) || xf_stmt_uses_var(f->body, name) ||
        xf_binds_iter(f->body, name) || xf_defines(f->body, name))
        return 0;
    for (int i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return 0;
    return 1;
}

/* base, or base_1, base_2...: the first name free in f and taken (which
 * receives it). */
static const char *fresh(ft_ctx *ctx, const ast_func *f, ft_vec *taken, const char *base)
{
    const char *name = base;
    for (int k = 1; !name_free(f, taken, name); k++)
        name = ft_fmt(ctx, "%s_%d", base, k);
    ft_vec_push(ctx, taken, (void *)name);
    return name;
}

/* A copy of g's headers and of its leaves that reduce into var (all
 * leaves when var is NULL), the iterators renamed apart from f's when
 * rename is set. */
static ga_nest copy_nest(ft_ctx *ctx, const ast_func *f, ft_vec *taken, const ga_nest *g,
                         const char *var, int rename)
{
    ga_nest c = {g->n, NULL, NULL, NULL, {0}, {0}};
    c.iter = ft_alloc(ctx, sizeof *c.iter * (size_t)g->n);
    c.begin = ft_alloc(ctx, sizeof *c.begin * (size_t)g->n);
    c.end = ft_alloc(ctx, sizeof *c.end * (size_t)g->n);
    ast_expr **vars = ft_alloc(ctx, sizeof *vars * (size_t)g->n);
    for (int k = 0; k < g->n; k++) {
        c.iter[k] = rename ? fresh(ctx, f, taken, g->iter[k]) : g->iter[k];
        c.begin[k] = ast_clone_expr(ctx, g->begin[k]);
        c.end[k] = ast_clone_expr(ctx, g->end[k]);
        vars[k] = ast_var(ctx, g->begin[k]->loc, c.iter[k]);
    }
    for (int i = 0; i < g->leaves.len; i++) {
        const ga_leaf *l = g->leaves.items[i];
        if (var && strcmp(l->red->u.red.var, var))
            continue;
        ga_leaf *n = ft_alloc(ctx, sizeof *n);
        n->guard = l->guard ? ast_subst_vars(ctx, l->guard, g->n, g->iter, vars) : NULL;
        n->red = ast_clone_stmt(ctx, l->red, AST_CLONE_NEW);
        ast_subst_stmt(ctx, n->red, g->n, g->iter, vars);
        ft_vec_push(ctx, &c.leaves, n);
    }
    return c;
}

/* The trip count of loop k of g when constant, else INT64_MAX. */
static int64_t trips(const ga_nest *g, int k)
{
    const ast_expr *b = g->begin[k], *e = g->end[k];
    if (b->kind == AST_INT && e->kind == AST_INT)
        return e->u.ival > b->u.ival ? e->u.ival - b->u.ival : 0;
    return INT64_MAX;
}

/* The loop of g whose iterator index d of red (linear form lin) should
 * give up for a new one, or -1: of the several of the nest's iterators
 * the index sums, the one with the most iterations (oh rather than kh),
 * with coefficient 1 or -1, used by no other index, and whose loop the
 * new one lengthens at most twofold: the other terms' values span at most
 * its trip count (a dilated tap, oh + 2 * kh, qualifies; a strided
 * window's tap, 2 * oh + kh, does not: kh's loop would run over every row
 * of the input, three in a hundred iterations doing anything). */
static int gathered_loop(const ga_nest *g, const ast_stmt *red, int d, const an_lin *lin)
{
    int terms = 0, best = -1;
    for (int t = 0; t < lin->n; t++) {
        int k = iter_of(g, lin->atom[t]);
        if (k < 0) {
            if (uses_iter(g, lin->atom[t]))
                return -1;      /* not linear in the iterators */
            continue;
        }
        terms++;
        int alone = lin->coef[t] == 1 || lin->coef[t] == -1;
        for (int o = 0; o < red->u.red.n && alone; o++)
            alone = o == d || !xf_expr_uses_var(red->u.red.idx[o], g->iter[k]);
        if (alone && (best < 0 || trips(g, k) > trips(g, best)))
            best = k;
    }
    if (terms < 2 || best < 0)
        return -1;
    int64_t span = 0;
    for (int t = 0; t < lin->n; t++) {
        int k = iter_of(g, lin->atom[t]);
        if (k < 0 || k == best)
            continue;
        int64_t n = trips(g, k), c = lin->coef[t] < 0 ? -lin->coef[t] : lin->coef[t];
        if (n == INT64_MAX || c > INT32_MAX || n - 1 > INT32_MAX / c)
            return -1;
        span += c * (n > 0 ? n - 1 : 0);
    }
    return span <= trips(g, best) ? best : -1;
}

/* r + c * a (a copied), written r - |c| * a for a negative c. */
static ast_expr *add_term(ft_ctx *ctx, ast_expr *r, int64_t c, const ast_expr *a)
{
    ast_expr *t = xf_mul(ctx, ast_int(ctx, a->loc, c < 0 ? -c : c), ast_clone_expr(ctx, a));
    return c < 0 ? ast_binary(ctx, a->loc, AST_SUB, r, t) : xf_add(ctx, r, t);
}

/* The least (top 0) or greatest (top 1) value of lin over g's loop
 * ranges: each iterator at its first or last value by its coefficient's
 * sign. */
static ast_expr *extreme(ft_ctx *ctx, const ga_nest *g, const an_lin *lin, int top, ft_loc loc)
{
    ast_expr *r = ast_int(ctx, loc, lin->c);
    for (int t = 0; t < lin->n; t++) {
        const ast_expr *a = lin->atom[t];
        int k = iter_of(g, a);
        ast_expr *v = k < 0 ? ast_clone_expr(ctx, a)
                    : (lin->coef[t] > 0) == top
                    ? xf_add(ctx, ast_clone_expr(ctx, g->end[k]), ast_int(ctx, loc, -1))
                    : ast_clone_expr(ctx, g->begin[k]);
        r = add_term(ctx, r, lin->coef[t], v);
    }
    return r;
}

/* Whether lo <= e < hi wherever leaf l runs in g (the loops' ranges and
 * its guard), proved by the bounds analysis of f. */
static int proved_within(ft_ctx *ctx, const ast_func *f, const ga_nest *g, const ga_leaf *l,
                         const ast_expr *e, ast_expr *lo, ast_expr *hi)
{
    an_bounds *b = an_bounds_new(ctx, f);
    ft_loc loc = e->loc;
    for (int k = 0; k < g->n; k++)
        an_bounds_push_loop(b, ast_for(ctx, loc, g->iter[k], g->begin[k], g->end[k],
                                       ast_int(ctx, loc, 1), NULL));
    if (l->guard)
        an_bounds_push_cond(b, l->guard, 1);
    ast_expr *ce = ast_clone_expr(ctx, e);
    return an_bounds_prove(b, ast_binary(ctx, loc, AST_LE, lo, ce)) &&
           an_bounds_prove(b, ast_binary(ctx, loc, AST_LT, ast_clone_expr(ctx, e), hi));
}

/* max(a, b) or min(a, b), folded when both are literals. */
static ast_expr *clamp_with(ft_ctx *ctx, ast_binop op, ast_expr *a, ast_expr *b)
{
    if (a->kind == AST_INT && b->kind == AST_INT)
        return ast_int(ctx, a->loc, op == AST_MAX ? (a->u.ival > b->u.ival ? a->u.ival : b->u.ival)
                                                  : (a->u.ival < b->u.ival ? a->u.ival : b->u.ival));
    return ast_binary(ctx, a->loc, op, a, b);
}

/* Gather index d of g's one leaf l (T's dimension of size dim) when it
 * sums several iterators: a new iterator h replaces the loop of the term
 * i chosen by gathered_loop (see the file comment); 1 when done. */
static int gather_index(ft_ctx *ctx, const ast_func *f, ft_vec *taken, ga_nest *g, ga_leaf *l,
                        int d, ast_expr *dim)
{
    ast_stmt *red = l->red;
    const ast_expr *e = red->u.red.idx[d];
    an_lin lin;
    if (!an_lin_of(ctx, e, &lin))
        return 0;
    int k = gathered_loop(g, red, d, &lin);
    if (k < 0)
        return 0;
    ft_loc loc = e->loc;
    ast_expr *lo = extreme(ctx, g, &lin, 0, loc);
    ast_expr *hi = xf_add(ctx, extreme(ctx, g, &lin, 1, loc), ast_int(ctx, loc, 1));
    if (dim && proved_within(ctx, f, g, l, e, ast_int(ctx, loc, 0), dim)) {
        lo = clamp_with(ctx, AST_MAX, lo, ast_int(ctx, loc, 0));
        hi = clamp_with(ctx, AST_MIN, hi, ast_clone_expr(ctx, dim));
    }
    int64_t coef = 0;
    for (int t = 0; t < lin.n; t++)
        if (iter_of(g, lin.atom[t]) == k)
            coef = lin.coef[t];
    const char *h = fresh(ctx, f, taken, ft_fmt(ctx, "%s_in", g->iter[k]));
    /* i = coef * (h - rest), rest = e - coef * i */
    ast_expr *iv = xf_mul(ctx, ast_int(ctx, loc, coef), ast_var(ctx, loc, h));
    iv = xf_add(ctx, iv, ast_int(ctx, loc, -coef * lin.c));
    for (int t = 0; t < lin.n; t++)
        if (iter_of(g, lin.atom[t]) != k)
            iv = add_term(ctx, iv, -coef * lin.coef[t], lin.atom[t]);
    ast_expr *in = ast_binary(ctx, loc, AST_AND,
                              ast_binary(ctx, loc, AST_LE, ast_clone_expr(ctx, g->begin[k]),
                                         ast_clone_expr(ctx, iv)),
                              ast_binary(ctx, loc, AST_LT, ast_clone_expr(ctx, iv),
                                         ast_clone_expr(ctx, g->end[k])));
    if (l->guard)
        l->guard = ast_subst_vars(ctx, l->guard, 1, &g->iter[k], &iv);
    l->guard = and_of(ctx, l->guard, in);
    ast_subst_stmt(ctx, red, 1, &g->iter[k], &iv);
    red->u.red.idx[d] = ast_var(ctx, loc, h);
    g->iter[k] = h;
    g->begin[k] = lo;
    g->end[k] = hi;
    return 1;
}

/* Gather every index of g's one leaf (see gather_index); at is the nest
 * g copies, in f (where its tensor's declaration is found).  Whether any
 * index was gathered. */
static int gather_nest(ft_ctx *ctx, ast_func *f, ft_vec *taken, ga_nest *g, const ast_stmt *at)
{
    ga_leaf *l = g->leaves.items[0];
    int ndim = 0;
    ast_expr **shape = NULL;
    if (!xf_find_decl(ctx, f, at, l->red->u.red.var, NULL, &ndim, &shape) ||
        ndim != l->red->u.red.n)
        shape = NULL;
    int done = 0;
    for (int d = 0; d < l->red->u.red.n; d++)
        done |= gather_index(ctx, f, taken, g, l, d, shape ? shape[d] : NULL);
    return done;
}

/* The statements of g: its leaves under their guards, in its loops,
 * simplified under f's sizes (a gathered guard that the new loop's range
 * decides goes). */
static ast_stmt *build_nest(ft_ctx *ctx, const ast_func *f, const ga_nest *g, ft_loc loc)
{
    ast_stmt **body = ft_alloc(ctx, sizeof *body * (size_t)g->leaves.len);
    for (int i = 0; i < g->leaves.len; i++) {
        const ga_leaf *l = g->leaves.items[i];
        body[i] = l->guard ? ast_if(ctx, l->red->loc, l->guard, l->red, NULL) : l->red;
    }
    ast_stmt *s = g->leaves.len == 1 ? body[0] : ast_seq(ctx, loc, g->leaves.len, body);
    for (int k = g->n - 1; k >= 0; k--)
        s = ast_for(ctx, loc, g->iter[k], g->begin[k], g->end[k], ast_int(ctx, loc, 1), s);
    return xf_simplify_stmt(ctx, an_bounds_new(ctx, f), s);
}

/* Tail t of g in loops of its own: g's loops 0..level, renamed apart. */
static ast_stmt *tail_nest(ft_ctx *ctx, const ast_func *f, ft_vec *taken, const ga_nest *g,
                           const ga_tail *t)
{
    int n = t->level + 1;
    ast_expr **vars = ft_alloc(ctx, sizeof *vars * (size_t)n);
    const char **names = ft_alloc(ctx, sizeof *names * (size_t)n);
    for (int k = 0; k < n; k++) {
        names[k] = fresh(ctx, f, taken, g->iter[k]);
        vars[k] = ast_var(ctx, t->store->loc, names[k]);
    }
    ast_stmt *s = ast_clone_stmt(ctx, t->store, AST_CLONE_NEW);
    ast_subst_stmt(ctx, s, n, g->iter, vars);
    for (int k = n - 1; k >= 0; k--)
        s = ast_for(ctx, s->loc, names[k], ast_clone_expr(ctx, g->begin[k]),
                    ast_clone_expr(ctx, g->end[k]), ast_int(ctx, s->loc, 1), s);
    return s;
}

/* The nests that replace loop l of f (appended to out), or 0 to keep it:
 * one per reduced tensor when they split, each gathered when it has one
 * reduction and something to gather. */
static int rewrite_nest(ft_ctx *ctx, ast_func *f, ft_vec *taken, ast_stmt *l, ft_vec *out)
{
    ga_nest g;
    if (!read_nest(ctx, l, &g))
        return 0;
    ft_vec tensors = {0};
    int split = split_tensors(ctx, &g, &tensors);
    int parts = split ? tensors.len : 1, changed = split;
    for (int t = 0; t < parts; t++) {
        ga_nest c = copy_nest(ctx, f, taken, &g, split ? tensors.items[t] : NULL, t > 0);
        if (c.leaves.len == 1)
            changed |= gather_nest(ctx, f, taken, &c, l);
        ft_vec_push(ctx, out, build_nest(ctx, f, &c, l->loc));
    }
    for (int i = 0; i < g.tails.len && changed; i++)
        ft_vec_push(ctx, out, tail_nest(ctx, f, taken, &g, g.tails.items[i]));
    return changed;
}

/* Rewrite the nests of s (a statement of f outside any loop), in place. */
static void rewrite_stmt(ft_ctx *ctx, ast_func *f, ft_vec *taken, ast_stmt *s)
{
    if (s->kind == AST_VARDEF) {
        rewrite_stmt(ctx, f, taken, s->u.def.body);
        return;
    }
    if (s->kind != AST_SEQ)
        return;
    ft_vec items = {0};
    for (int i = 0; i < s->u.seq.n; i++) {
        ast_stmt *it = s->u.seq.stmts[i];
        ft_vec repl = {0};
        if (it->kind == AST_FOR && rewrite_nest(ctx, f, taken, it, &repl)) {
            for (int j = 0; j < repl.len; j++)
                ft_vec_push(ctx, &items, repl.items[j]);
            continue;
        }
        rewrite_stmt(ctx, f, taken, it);
        ft_vec_push(ctx, &items, it);
    }
    s->u.seq.n = items.len;
    s->u.seq.stmts = (ast_stmt **)items.items;
}

/* Rewrite the nests at the top of f's body. */
static void gather_func(ft_ctx *ctx, ast_func *f)
{
    ft_vec taken = {0};
    if (f->body->kind == AST_FOR) {
        ast_stmt *one[] = {f->body};
        f->body = ast_seq(ctx, f->body->loc, 1, one);
    }
    rewrite_stmt(ctx, f, &taken, f->body);
}

void ad_gather_program(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *g = p->funcs[i];
        if (!g->ad_bwd)
            continue;
        gather_func(ctx, g->ad_bwd);
        gather_func(ctx, g);
    }
}
