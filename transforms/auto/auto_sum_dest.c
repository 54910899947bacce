/* auto_sum_dest.c - xf_auto_sum_dest: a sum of local accumulators added
 * straight into its destination.
 *
 * Requires: f's AST before auto_fuse (run after auto_use_lib).
 * Provides: a final store
 *
 *     for r...: D[g(r)] = t[r] + t_1[r] + ... + (other terms)
 *
 * whose summands t, t_1, ... are locals, each zeroed over its whole extent
 * (`t = 0`) and then only `+=`-accumulated before the store, becomes
 *
 *     D[g(x)] = 0                  (the outermost local's zeroing, renamed)
 *     D[g(x)] += v                 (every `t[x] += v`, `t_1[x] += v`, ...)
 *     for r...: D[g(r)] += (other terms)   (dropped when there are none)
 *
 * and the locals are gone.  Locals of at least one dimension only: a 0-D
 * one is a C scalar, a register, cheaper to sum into than D.
 * `y[i] = matmul(e[i], w0) + matmul(f1, w1) + ...` (SubdivNet) kept four
 * rows of out_feats and summed them in a pass of its own; now the four
 * matrix-vector products update y[i, :] in place, and auto_fuse can fuse
 * their loops over k into one (all four products per element of y in one
 * pass, as hand-written C has it).
 *
 * Legal by renaming: t's element x lives in D's element g(x) instead (g
 * maps the final nest's iterators to D's index, each iterator a whole index
 * of D of its own and used nowhere else in it, so g is injective on t's
 * extent, which the final nest walks exactly once).  Checked on the scope
 * list of the outermost summand's VarDef (the statements it runs in order,
 * up to the final nest, which must be one of them, so it runs once): no
 * statement there accesses D; the summands are written only by their
 * zeroing nest (the first of their accesses; the outermost one's before
 * any access of the others) and by plain `+=` whose indices and values read
 * no summand and not D; nothing reads a summand but the final store, and
 * nothing after it.  So D's elements hold the outermost summand's value
 * plus the updates of the others made so far, and the final store would
 * have added exactly the rest.  D and every summand have one dtype, and
 * the sum's other terms read neither D nor a summand.
 *
 * Not bit for bit: the sum is associated differently (D[x] accumulates t's
 * updates, then t_1's, ... where the program summed each local first and
 * then the locals), so results may differ in the last bits.  Left alone:
 * the CUDA target (a per-thread row in local memory there is cheaper than
 * read-modify-writes of global memory) and BLAS calls (auto_use_lib).
 */
#include "auto_util.h"

#include <stdint.h>
#include <string.h>

#include "../../ast/visit.h"
#include "../cleanup.h"
#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_sum_dest";

/* A summand of the final store: a local read once there. */
typedef struct sd_term {
    const ast_expr *load;    /* its read in the final store: t[r_a, r_b, ...] */
    ast_stmt *def;           /* its VarDef, an ancestor of the final store */
    int anc;                 /* def's index among the store's ancestors */
    int zero;                /* the index of its zeroing nest in the items */
} sd_term;

/* One final store and what the checks found about it. */
typedef struct sd_cand {
    ast_stmt *store;         /* D[g(r)] = sum */
    ast_stmt *nest;          /* the outermost loop of its nest (or the store) */
    ft_vec iters;            /* the nest's iterators, outermost first */
    ft_vec terms;            /* sd_term * */
    ft_vec others;           /* ast_expr *: the sum's other leaves, in order */
    ft_vec items;            /* the outermost summand's scope list */
    int at;                  /* the index of nest in items */
} sd_cand;

/* The position of iterator name in iters, or -1. */
static int iter_pos(const ft_vec *iters, const char *name)
{
    for (int k = 0; k < iters->len; k++)
        if (strcmp(iters->items[k], name) == 0)
            return k;
    return -1;
}

/* The leaves of the sum tree e (`+` nodes of dtype dt) into out, in order. */
static void sum_leaves(ft_ctx *ctx, ast_expr *e, ft_dtype dt, ft_vec *out)
{
    if (e->kind == AST_BINARY && e->u.bin.op == AST_ADD && e->dtype == dt) {
        sum_leaves(ctx, e->u.bin.a, dt, out);
        sum_leaves(ctx, e->u.bin.b, dt, out);
    } else
        ft_vec_push(ctx, out, e);
}

/* The perfect nest around store s (anc: its ancestors): loops whose body is
 * only the next one, each from 0 by 1, serial, with distinct iterators;
 * their iterators into c->iters, the outermost loop (or s) into c->nest.
 * Returns the index in anc of the nest's parent, or -1. */
static int find_nest(ft_ctx *ctx, const ft_vec *anc, ast_stmt *s, sd_cand *c)
{
    int k = anc->len - 1;
    c->nest = s;
    ft_vec rev = {0};
    for (; k >= 0; k--) {
        ast_stmt *p = anc->items[k];
        if (p->kind == AST_SEQ && p->u.seq.n == 1 && !p->label)
            continue;
        if (p->kind != AST_FOR || xf_only_stmt(p->u.loop.body) != s)
            break;
        if (!xf_loop_from_zero(p) || p->u.loop.par != AST_SERIAL ||
            iter_pos(&rev, p->u.loop.iter) >= 0)
            return -1;
        ft_vec_push(ctx, &rev, (void *)p->u.loop.iter);
        c->nest = s = p;
    }
    for (int i = rev.len - 1; i >= 0; i--)
        ft_vec_push(ctx, &c->iters, rev.items[i]);
    return k;
}

/* The loop of the nest whose iterator is name. */
static const ast_stmt *nest_loop(const sd_cand *c, const char *name)
{
    const ast_stmt *l = c->nest;
    while (l->kind == AST_FOR && strcmp(l->u.loop.iter, name) != 0)
        l = xf_only_stmt(l->u.loop.body);
    return l->kind == AST_FOR ? l : NULL;
}

/* Whether leaf e reads a local of the store's ancestors (anc, up to index
 * top) once per element: t[r...] with every iterator of the nest once, each
 * loop over exactly t's dimension, t of dtype dt; then its term in *t. */
static int as_term(const sd_cand *c, const ft_vec *anc, int top, const ast_expr *e,
                   ft_dtype dt, sd_term *t)
{
    if (e->kind != AST_LOAD || e->dtype != dt || e->u.load.n != c->iters.len ||
        e->u.load.n == 0)
        return 0;       /* a 0-D local is a C scalar already (a register) */
    ast_stmt *def = NULL;
    int at = -1;
    for (int k = top; k >= 0 && !def; k--) {
        ast_stmt *s = anc->items[k];
        if (s->kind == AST_VARDEF && strcmp(s->u.def.name, e->u.load.var) == 0) {
            def = s;
            at = k;
        }
    }
    if (!def || def->u.def.access != FT_ACC_CACHE || def->u.def.dtype != dt ||
        def->u.def.ndim != e->u.load.n)
        return 0;
    for (int k = 0; k < e->u.load.n; k++) {
        const ast_expr *x = e->u.load.idx[k];
        if (x->kind != AST_VAR || iter_pos(&c->iters, x->u.name) < 0)
            return 0;
        for (int k2 = 0; k2 < k; k2++)
            if (strcmp(e->u.load.idx[k2]->u.name, x->u.name) == 0)
                return 0;
        const ast_stmt *l = nest_loop(c, x->u.name);
        if (!l || !ast_expr_equal(l->u.loop.end, def->u.def.shape[k]))
            return 0;
    }
    *t = (sd_term){e, def, at, -1};
    return 1;
}

/* Whether a name is one of the summands'. */
static int is_term(const sd_cand *c, const char *name)
{
    for (int i = 0; i < c->terms.len; i++)
        if (strcmp(((sd_term *)c->terms.items[i])->def->u.def.name, name) == 0)
            return 1;
    return 0;
}

/* Add the names of the variables (iterators, sizes) e uses to out. */
static void expr_vars(ft_ctx *ctx, const ast_expr *e, ft_vec *out)
{
    switch (e->kind) {
    case AST_VAR:
        if (!xf_has_name(out, e->u.name))
            ft_vec_push(ctx, out, (void *)e->u.name);
        return;
    case AST_LOAD:
        for (int k = 0; k < e->u.load.n; k++)
            expr_vars(ctx, e->u.load.idx[k], out);
        return;
    case AST_BINARY:
        expr_vars(ctx, e->u.bin.a, out);
        expr_vars(ctx, e->u.bin.b, out);
        return;
    case AST_UNARY:
        expr_vars(ctx, e->u.un.a, out);
        return;
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            expr_vars(ctx, e->u.call.args[k], out);
        return;
    case AST_CAST:
        expr_vars(ctx, e->u.cast.a, out);
        return;
    case AST_IFEXPR:
        expr_vars(ctx, e->u.ife.cond, out);
        expr_vars(ctx, e->u.ife.then, out);
        expr_vars(ctx, e->u.ife.other, out);
        return;
    default:
        return;
    }
}

/* Whether the store's index g is injective in the nest's iterators: each
 * iterator is one whole index of its own, the others load nothing and
 * mention no iterator; and no item before the nest rebinds a variable of g
 * (so g means the same at every access it replaces). */
static int dest_injective(ft_ctx *ctx, const sd_cand *c)
{
    const ast_stmt *s = c->store;
    ft_vec vars = {0}, seen = {0};
    for (int k = 0; k < s->u.store.n; k++) {
        const ast_expr *x = s->u.store.idx[k];
        if (x->kind == AST_VAR && iter_pos(&c->iters, x->u.name) >= 0) {
            if (xf_has_name(&seen, x->u.name))
                return 0;
            ft_vec_push(ctx, &seen, (void *)x->u.name);
            continue;
        }
        if (xf_expr_has_load(x))
            return 0;
        for (int i = 0; i < c->iters.len; i++)
            if (xf_expr_uses_var(x, c->iters.items[i]))
                return 0;
        expr_vars(ctx, x, &vars);
    }
    if (seen.len != c->iters.len)
        return 0;
    for (int i = 0; i < c->at; i++)
        for (int v = 0; v < vars.len; v++)
            if (xf_binds_iter(c->items.items[i], vars.items[v]))
                return 0;
    return 1;
}

/* The checks of the items before the nest (see the file comment). */
typedef struct sd_walk {
    ast_visitor v;
    const sd_cand *c;
    const char *dest;
    int bad;
} sd_walk;

/* A read of D or of a summand is not allowed before the sum. */
static void sd_walk_expr(ast_visitor *v, ast_expr *e)
{
    sd_walk *w = (sd_walk *)v;
    if (e->kind == AST_LOAD && (strcmp(e->u.load.var, w->dest) == 0 || is_term(w->c, e->u.load.var)))
        w->bad = 1;
}

/* Before the sum: no write of D, no declaration of D or a summand, a
 * summand written only by plain `+=` (outside BLAS calls). */
static int sd_walk_stmt(ast_visitor *v, ast_stmt *s)
{
    sd_walk *w = (sd_walk *)v;
    if (s->kind == AST_VARDEF && (strcmp(s->u.def.name, w->dest) == 0 || is_term(w->c, s->u.def.name)))
        w->bad = 1;
    if (s->kind == AST_STORE && (strcmp(s->u.store.var, w->dest) == 0 || is_term(w->c, s->u.store.var)))
        w->bad = 1;
    if (s->kind == AST_REDUCE && strcmp(s->u.red.var, w->dest) == 0)
        w->bad = 1;
    if (s->kind == AST_REDUCE && is_term(w->c, s->u.red.var) &&
        (s->u.red.op != AST_RED_ADD || s->u.red.atomic || xf_stmt_checked(s)))
        w->bad = 1;
    if (s->kind == AST_FOR && s->u.loop.par == AST_LIB) {
        for (int i = 0; i < w->c->terms.len; i++)
            if (xf_accesses(s, ((sd_term *)w->c->terms.items[i])->def->u.def.name))
                w->bad = 1;
    }
    return !w->bad;
}

/* Whether item is t's zeroing: a nest of loops `for x_k in range(shape[k])`
 * (from 0, by 1, serial) around `t[x_0, ..., x_n-1] = 0`. */
static int zeroing(const ast_stmt *item, const ast_stmt *def)
{
    const char *name = def->u.def.name;
    ast_stmt *s = (ast_stmt *)item;
    const ast_stmt *loops[16];
    int n = 0;
    while (s && s->kind == AST_FOR && n < 16) {
        if (!xf_loop_from_zero(s) || s->u.loop.par != AST_SERIAL)
            return 0;
        loops[n++] = s;
        s = xf_only_stmt(s->u.loop.body);
    }
    if (!s || s->kind != AST_STORE || strcmp(s->u.store.var, name) != 0 ||
        s->u.store.n != n || n != def->u.def.ndim || !xf_is_zero(s->u.store.value) ||
        xf_stmt_checked(s))
        return 0;
    for (int k = 0; k < n; k++) {
        const ast_expr *x = s->u.store.idx[k];
        if (x->kind != AST_VAR || strcmp(x->u.name, loops[k]->u.loop.iter) != 0 ||
            !ast_expr_equal(loops[k]->u.loop.end, def->u.def.shape[k]))
            return 0;
    }
    return 1;
}

/* Whether the items of c (before and after the nest) allow the rewrite:
 * see the file comment.  Fills each term's zero.  *why: the rule broken. */
static int items_ok(const sd_cand *c, const char *dest, const char **why)
{
    for (int i = 0; i < c->terms.len; i++) {
        sd_term *t = c->terms.items[i];
        for (int k = 0; k < c->at && t->zero < 0; k++)
            if (xf_item_accesses(c->items.items[k], t->def->u.def.name))
                t->zero = k;
        if (t->zero < 0 || !zeroing(c->items.items[t->zero], t->def)) {
            *why = "a summand is not zeroed (`= 0` over all of it) before its other accesses";
            return 0;
        }
    }
    const sd_term *first = c->terms.items[0];
    for (int i = 1; i < c->terms.len; i++)
        if (((sd_term *)c->terms.items[i])->zero <= first->zero) {
            *why = "a summand is accessed before the first one is zeroed";
            return 0;
        }
    sd_walk w = {.v.stmt = sd_walk_stmt, .v.expr = sd_walk_expr, .c = c, .dest = dest};
    for (int k = 0; k < c->at && !w.bad; k++) {
        ast_stmt *item = c->items.items[k];
        int z = 0;
        for (int i = 0; i < c->terms.len; i++)
            z |= ((sd_term *)c->terms.items[i])->zero == k;
        if (item->kind == AST_VARDEF)
            w.bad = strcmp(item->u.def.name, dest) == 0;
        else if (!z)
            ast_visit(item, &w.v);
    }
    if (w.bad) {
        *why = "before it, a statement accesses the destination, reads a summand or "
               "writes one other than by `+=`";
        return 0;
    }
    for (int k = c->at + 1; k < c->items.len; k++)
        for (int i = 0; i < c->terms.len; i++)
            if (xf_item_accesses(c->items.items[k], ((sd_term *)c->terms.items[i])->def->u.def.name)) {
                *why = "a summand is accessed after it";
                return 0;
            }
    return 1;
}

/* Find the candidate of store s (a Store into a tensor of dtype dt; its
 * ancestors: ancestors); 0 when s is none; *why set when the shape is right
 * but a rule fails. */
static int find_cand(xf_auto *a, ast_stmt *s, const ft_vec *ancestors, sd_cand *c,
                     const char **why)
{
    ft_ctx *ctx = a->ctx;
    *why = NULL;
    *c = (sd_cand){.store = s};
    ft_dtype dt;
    if (!ft_dtype_is_float(s->u.store.value->dtype) || xf_stmt_checked(s) ||
        !xf_find_decl_in(ancestors, a->f, s->u.store.var, &dt, NULL, NULL) ||
        dt != s->u.store.value->dtype)
        return 0;
    ft_vec leaves = {0};
    int top = find_nest(ctx, ancestors, s, c);
    if (top < 0)
        return 0;
    sum_leaves(ctx, s->u.store.value, dt, &leaves);
    for (int i = 0; i < leaves.len; i++) {
        sd_term t, *tp;
        if (as_term(c, ancestors, top, leaves.items[i], dt, &t) && !is_term(c, t.def->u.def.name)) {
            tp = ft_alloc(ctx, sizeof *tp);
            *tp = t;
            /* the outermost summand first */
            ft_vec_push(ctx, &c->terms, tp);
            for (int k = c->terms.len - 1; k > 0; k--) {
                sd_term *p = c->terms.items[k - 1];
                if (p->anc <= tp->anc)
                    break;
                c->terms.items[k] = p;
                c->terms.items[k - 1] = tp;
            }
        } else
            ft_vec_push(ctx, &c->others, leaves.items[i]);
    }
    if (c->terms.len == 0 || is_term(c, s->u.store.var))
        return 0;
    for (int i = 0; i < c->others.len; i++) {
        const ast_expr *o = c->others.items[i];
        int bad = xf_expr_reads(o, s->u.store.var);
        for (int k = 0; k < c->terms.len; k++)
            bad |= xf_expr_reads(o, ((sd_term *)c->terms.items[k])->def->u.def.name);
        if (bad) {
            *why = "another term of the sum reads the destination or a summand";
            return 0;
        }
    }
    const sd_term *first = c->terms.items[0];
    xf_scope_list(ctx, first->def->u.def.body, &c->items);
    c->at = -1;
    for (int k = 0; k < c->items.len; k++)
        if (c->items.items[k] == c->nest)
            c->at = k;
    if (c->at < 0) {
        *why = "the sum is not a statement of the summands' scope (it is inside a loop or "
               "branch there)";
        return 0;
    }
    if (xf_defines(first->def->u.def.body, s->u.store.var)) {
        *why = "the destination is declared inside the summands' scope";
        return 0;
    }
    if (!dest_injective(ctx, c)) {
        *why = "the destination's index is not one whole index per iterator of the sum's nest";
        return 0;
    }
    return items_ok(c, s->u.store.var, why);
}

/* The index in D of t's element idx (n indices): the store's index with
 * each iterator that t's read in the sum has at position k replaced by
 * idx[k]. */
static ast_expr **dest_index(ft_ctx *ctx, const sd_cand *c, const sd_term *t, ast_expr **idx)
{
    int n = t->load->u.load.n;
    const char **names = ft_alloc(ctx, sizeof(char *) * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++)
        names[k] = t->load->u.load.idx[k]->u.name;
    const ast_stmt *s = c->store;
    ast_expr **out = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(s->u.store.n ? s->u.store.n : 1));
    for (int k = 0; k < s->u.store.n; k++)
        out[k] = ast_subst_vars(ctx, s->u.store.idx[k], n, names, idx);
    return out;
}

/* Redirect every Store and Reduce of term t under item into D. */
typedef struct sd_redirect {
    ast_visitor v;
    ft_ctx *ctx;
    const sd_cand *c;
    const sd_term *t;
} sd_redirect;

/* A Store or Reduce of the term becomes one of D at the mapped index. */
static int sd_redirect_stmt(ast_visitor *v, ast_stmt *s)
{
    sd_redirect *w = (sd_redirect *)v;
    const char *name = w->t->def->u.def.name, *dest = w->c->store->u.store.var;
    int n = w->c->store->u.store.n;
    if (s->kind == AST_STORE && strcmp(s->u.store.var, name) == 0) {
        s->u.store.idx = dest_index(w->ctx, w->c, w->t, s->u.store.idx);
        s->u.store.n = n;
        s->u.store.var = dest;
    } else if (s->kind == AST_REDUCE && strcmp(s->u.red.var, name) == 0) {
        s->u.red.idx = dest_index(w->ctx, w->c, w->t, s->u.red.idx);
        s->u.red.n = n;
        s->u.red.var = dest;
    }
    return 1;
}

/* Apply the rewrite of the file comment to c. */
static void rewrite(xf_auto *a, sd_cand *c)
{
    ft_ctx *ctx = a->ctx;
    for (int i = 0; i < c->terms.len; i++) {
        sd_term *t = c->terms.items[i];
        sd_redirect w = {.v.stmt = sd_redirect_stmt, .ctx = ctx, .c = c, .t = t};
        for (int k = 0; k < c->at; k++) {
            ast_stmt *item = c->items.items[k];
            if (item->kind == AST_VARDEF)
                continue;
            if (k == t->zero && i > 0)
                xf_make_empty(item);
            else
                ast_visit(item, &w.v);
        }
    }
    ast_stmt *s = c->store;
    if (c->others.len == 0) {
        xf_make_empty(c->nest);
        return;
    }
    ast_expr *sum = c->others.items[0];
    for (int i = 1; i < c->others.len; i++)
        sum = ast_binary(ctx, s->loc, AST_ADD, sum, c->others.items[i]);
    const char *var = s->u.store.var;
    int n = s->u.store.n;
    ast_expr **idx = s->u.store.idx;
    s->kind = AST_REDUCE;
    s->u.red.op = AST_RED_ADD;
    s->u.red.var = var;
    s->u.red.n = n;
    s->u.red.idx = idx;
    s->u.red.value = sum;
    s->u.red.atomic = AST_RED_PLAIN;
}

/* The Stores of a sum or of a copy (outside BLAS calls) under s, with a
 * copy of each one's ancestors (stack: those of s), in one walk: finding
 * each store's ancestors from the root took 2 s for 20,000 statements. */
static void sd_stores(ft_ctx *ctx, ast_stmt *s, ft_vec *stack, ft_vec *stores, ft_vec *ancs)
{
    if (!s || (s->kind == AST_FOR && s->u.loop.par == AST_LIB))
        return;
    if (s->kind == AST_STORE &&
        (s->u.store.value->kind == AST_BINARY || s->u.store.value->kind == AST_LOAD)) {
        ft_vec *anc = ft_alloc(ctx, sizeof *anc);
        *anc = (ft_vec){0};
        for (int i = 0; i < stack->len; i++)
            ft_vec_push(ctx, anc, stack->items[i]);
        ft_vec_push(ctx, stores, s);
        ft_vec_push(ctx, ancs, anc);
        return;
    }
    ft_vec_push(ctx, stack, s);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            sd_stores(ctx, s->u.seq.stmts[i], stack, stores, ancs);
        break;
    case AST_VARDEF: sd_stores(ctx, s->u.def.body, stack, stores, ancs); break;
    case AST_FOR: sd_stores(ctx, s->u.loop.body, stack, stores, ancs); break;
    case AST_IF:
        sd_stores(ctx, s->u.branch.then, stack, stores, ancs);
        sd_stores(ctx, s->u.branch.other, stack, stores, ancs);
        break;
    default: break;
    }
    stack->len--;
}

/* The names of c's summands, for the log. */
static const char *term_names(ft_ctx *ctx, const sd_cand *c)
{
    const char *s = "";
    for (int i = 0; i < c->terms.len; i++)
        s = ft_fmt(ctx, "%s%s'%s'", s, i ? ", " : "",
                   ((sd_term *)c->terms.items[i])->def->u.def.name);
    return s;
}

/* Rewrite the first candidate of f; whether one was.  logged: the stores
 * whose refusal was logged already. */
static int one_round(xf_auto *a, ft_vec *logged)
{
    ft_vec stack = {0}, stores = {0}, ancs = {0};
    sd_stores(a->ctx, a->f->body, &stack, &stores, &ancs);
    for (int i = 0; i < stores.len; i++) {
        ast_stmt *s = stores.items[i];
        sd_cand c;
        const char *why;
        if (!find_cand(a, s, ancs.items[i], &c, &why)) {
            if (why && !ft_vec_has(logged, s)) {
                ft_vec_push(a->ctx, logged, s);
                xf_auto_log(a, PASS, xf_auto_name(a, c.nest), "the sum into '%s' is not "
                            "accumulated there: %s", s->u.store.var, why);
            }
            continue;
        }
        xf_auto_log(a, PASS, xf_auto_name(a, c.nest), "%s accumulated straight into '%s' "
                    "(%s)", term_names(a->ctx, &c), s->u.store.var,
                    c.others.len ? "the sum became `+=` of its other terms"
                                 : "the sum statement dropped");
        rewrite(a, &c);
        return 1;
    }
    return 0;
}

/* The pass (see the top): candidates one at a time (each rewrite changes
 * the tree), then xf_remove_dead drops the summands' declarations. */
int xf_auto_sum_dest(xf_auto *a)
{
    ft_vec logged = {0};
    int n = 0;
    while (n < 64 && one_round(a, &logged))
        n++;
    if (n) {
        ast_func *f = a->f;
        ast_program one = {.nfuncs = 1, .funcs = &f};
        xf_remove_dead(a->ctx, &one);
    }
    return n;
}
