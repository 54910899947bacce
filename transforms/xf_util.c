/* xf_util.c - AST helpers shared by the cleanup passes (see xf_util.h). */
#include "xf_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/bounds.h"
#include "sched_util.h"
#include "visit.h"

/* ------------------------------------------------------------ expressions */

int xf_range_trips(int64_t b, int64_t e, int64_t s, int64_t *n)
{
    __int128 span = s > 0 ? (__int128)e - b : (__int128)b - e, as = s > 0 ? s : -(__int128)s;
    __int128 t = span > 0 ? (span - 1) / as + 1 : 0;
    if (t > INT64_MAX)
        return 0;
    *n = (int64_t)t;
    return 1;
}

/* A visitor that looks for one thing in an expression. */
typedef struct find_expr {
    ast_visitor v;
    const char *name;
    int found;
} find_expr;

static void uses_var_cb(ast_visitor *v, ast_expr *e)
{
    find_expr *f = (find_expr *)v;
    if (e->kind == AST_VAR && strcmp(e->u.name, f->name) == 0)
        f->found = 1;
}

int xf_expr_uses_var(const ast_expr *e, const char *name)
{
    find_expr f = {.v.expr = uses_var_cb, .name = name};
    ast_visit_expr((ast_expr *)e, &f.v);
    return f.found;
}

static void reads_cb(ast_visitor *v, ast_expr *e)
{
    find_expr *f = (find_expr *)v;
    if (e->kind == AST_LOAD && (!f->name || strcmp(e->u.load.var, f->name) == 0))
        f->found = 1;
}

int xf_expr_reads(const ast_expr *e, const char *var)
{
    find_expr f = {.v.expr = reads_cb, .name = var};
    ast_visit_expr((ast_expr *)e, &f.v);
    return f.found;
}

/* The visitor of xf_expr_find_load: the first load of var. */
typedef struct find_load {
    ast_visitor v;
    const char *var;
    const ast_expr *load;
} find_load;

static void find_load_cb(ast_visitor *v, ast_expr *e)
{
    find_load *f = (find_load *)v;
    if (!f->load && e->kind == AST_LOAD && strcmp(e->u.load.var, f->var) == 0)
        f->load = e;
}

const ast_expr *xf_expr_find_load(const ast_expr *e, const char *var)
{
    find_load f = {.v.expr = find_load_cb, .var = var};
    if (e)
        ast_visit_expr((ast_expr *)e, &f.v);
    return f.load;
}

int xf_expr_has_load(const ast_expr *e)
{
    return xf_expr_reads(e, NULL);
}

static void checked_cb(ast_visitor *v, ast_expr *e)
{
    find_expr *f = (find_expr *)v;
    if (e->kind == AST_LOAD)
        for (int k = 0; k < e->u.load.n; k++)
            if (xf_expr_has_load(e->u.load.idx[k]))
                f->found = 1;
}

int xf_expr_checked(const ast_expr *e)
{
    find_expr f = {.v.expr = checked_cb};
    ast_visit_expr((ast_expr *)e, &f.v);
    return f.found;
}

ast_expr *xf_convert(ft_ctx *ctx, ast_expr *e, ft_dtype t)
{
    if (e->dtype == t)
        return e;
    if (e->kind == AST_INT && ft_dtype_is_float(t) && fabs((double)e->u.ival) < 16777216.0)
        return ast_float(ctx, e->loc, (double)e->u.ival, t);
    if (e->kind == AST_INT && ft_dtype_is_int(t) && (t == FT_I64 ||
                                                      (int32_t)e->u.ival == e->u.ival)) {
        ast_expr *c = ast_int(ctx, e->loc, e->u.ival);
        c->dtype = t;
        return c;
    }
    return ast_cast(ctx, e->loc, t, e);
}

int xf_has_name(const ft_vec *names, const char *name)
{
    for (int i = 0; i < names->len; i++)
        if (strcmp(names->items[i], name) == 0)
            return 1;
    return 0;
}

typedef struct loaded_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *names;
} loaded_state;

static void loaded_cb(ast_visitor *v, ast_expr *e)
{
    loaded_state *st = (loaded_state *)v;
    if (e->kind == AST_LOAD && !xf_has_name(st->names, e->u.load.var))
        ft_vec_push(st->ctx, st->names, (void *)e->u.load.var);
}

void xf_expr_loaded(ft_ctx *ctx, const ast_expr *e, ft_vec *names)
{
    loaded_state st = {.v.expr = loaded_cb, .ctx = ctx, .names = names};
    ast_visit_expr((ast_expr *)e, &st.v);
}

/* ------------------------------------------------------------- statements */

/* Counting the uses of one tensor; a VarDef redeclaring it hides it. */
typedef struct uses_state {
    ast_visitor v;
    const char *var;
    xf_uses u;
} uses_state;

static int uses_stmt(ast_visitor *v, ast_stmt *s)
{
    uses_state *st = (uses_state *)v;
    if (s->kind == AST_VARDEF && strcmp(s->u.def.name, st->var) == 0)
        return 0;
    if (s->kind == AST_STORE && strcmp(s->u.store.var, st->var) == 0)
        st->u.stores++;
    if (s->kind == AST_REDUCE && strcmp(s->u.red.var, st->var) == 0)
        st->u.reduces++;
    return 1;
}

static void uses_expr(ast_visitor *v, ast_expr *e)
{
    uses_state *st = (uses_state *)v;
    if (e->kind == AST_LOAD && strcmp(e->u.load.var, st->var) == 0)
        st->u.loads++;
}

xf_uses xf_count_uses(const ast_stmt *s, const char *var)
{
    uses_state st = {.v = {uses_stmt, uses_expr}, .var = var};
    ast_visit((ast_stmt *)s, &st.v);
    return st.u;
}

int xf_reads(const ast_stmt *s, const char *var)
{
    return xf_count_uses(s, var).loads > 0;
}

int xf_writes(const ast_stmt *s, const char *var)
{
    xf_uses u = xf_count_uses(s, var);
    return u.stores + u.reduces > 0;
}

int xf_accesses(const ast_stmt *s, const char *var)
{
    xf_uses u = xf_count_uses(s, var);
    return u.loads + u.stores + u.reduces > 0;
}

const char *xf_written_tensor(const ast_stmt *s, int *n, ast_expr *const **idx)
{
    if (s->kind != AST_STORE && s->kind != AST_REDUCE)
        return NULL;
    int st = s->kind == AST_STORE;
    if (n)
        *n = st ? s->u.store.n : s->u.red.n;
    if (idx)
        *idx = st ? s->u.store.idx : s->u.red.idx;
    return st ? s->u.store.var : s->u.red.var;
}

static int written_cb(ast_visitor *v, ast_stmt *s)
{
    loaded_state *st = (loaded_state *)v;
    const char *w = xf_written_tensor(s, NULL, NULL);
    if (w && !xf_has_name(st->names, w))
        ft_vec_push(st->ctx, st->names, (void *)w);
    return 1;
}

void xf_stmt_written(ft_ctx *ctx, const ast_stmt *s, ft_vec *names)
{
    loaded_state st = {.v.stmt = written_cb, .ctx = ctx, .names = names};
    ast_visit((ast_stmt *)s, &st.v);
}

void xf_stmt_loaded(ft_ctx *ctx, const ast_stmt *s, ft_vec *names)
{
    loaded_state st = {.v.expr = loaded_cb, .ctx = ctx, .names = names};
    ast_visit((ast_stmt *)s, &st.v);
}

/* Finding statements of one kind (or names) under a statement. */
typedef struct find_stmt {
    ast_visitor v;
    const char *name;
    const ft_vec *names;
    int found;
} find_stmt;

static int writes_any_cb(ast_visitor *v, ast_stmt *s)
{
    find_stmt *f = (find_stmt *)v;
    if ((s->kind == AST_STORE && xf_has_name(f->names, s->u.store.var)) ||
        (s->kind == AST_REDUCE && xf_has_name(f->names, s->u.red.var)))
        f->found = 1;
    return !f->found;
}

int xf_writes_any(const ast_stmt *s, const ft_vec *names)
{
    find_stmt f = {.v.stmt = writes_any_cb, .names = names};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

static void stmt_uses_var_cb(ast_visitor *v, ast_expr *e)
{
    find_stmt *f = (find_stmt *)v;
    if (e->kind == AST_VAR && strcmp(e->u.name, f->name) == 0)
        f->found = 1;
}

int xf_stmt_uses_var(const ast_stmt *s, const char *name)
{
    find_stmt f = {.v.expr = stmt_uses_var_cb, .name = name};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

static int binds_iter_cb(ast_visitor *v, ast_stmt *s)
{
    find_stmt *f = (find_stmt *)v;
    if (s->kind == AST_FOR && strcmp(s->u.loop.iter, f->name) == 0)
        f->found = 1;
    return 1;
}

int xf_binds_iter(const ast_stmt *s, const char *name)
{
    find_stmt f = {.v.stmt = binds_iter_cb, .name = name};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

static int defines_cb(ast_visitor *v, ast_stmt *s)
{
    find_stmt *f = (find_stmt *)v;
    if (s->kind == AST_VARDEF && strcmp(s->u.def.name, f->name) == 0)
        f->found = 1;
    return 1;
}

int xf_defines(const ast_stmt *s, const char *name)
{
    find_stmt f = {.v.stmt = defines_cb, .name = name};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

/* The walk of xf_par_reductions: each 0-D reduction's target, with the
 * operator of its first reduction, or -1 once two operators were seen. */
typedef struct par_red_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *names, *ops;
} par_red_walk;

static int par_red_cb(ast_visitor *v, ast_stmt *s)
{
    par_red_walk *w = (par_red_walk *)v;
    if (s->kind != AST_REDUCE || s->u.red.n != 0)
        return 1;
    intptr_t op = (intptr_t)s->u.red.op;
    for (int i = 0; i < w->names->len; i++)
        if (strcmp(w->names->items[i], s->u.red.var) == 0) {
            if ((intptr_t)w->ops->items[i] != op)
                w->ops->items[i] = (void *)(intptr_t)-1;
            return 1;
        }
    ft_vec_push(w->ctx, w->names, (void *)s->u.red.var);
    ft_vec_push(w->ctx, w->ops, (void *)op);
    return 1;
}

void xf_par_reductions(ft_ctx *ctx, const ast_stmt *body, ft_vec *names, ft_vec *ops)
{
    if (ctx->opts.test_break && strcmp(ctx->opts.test_break, "par_clauses") == 0)
        return;
    ft_vec all = {0}, all_ops = {0};
    par_red_walk w = {.v.stmt = par_red_cb, .ctx = ctx, .names = &all, .ops = &all_ops};
    ast_visit((ast_stmt *)body, &w.v);
    for (int i = 0; i < all.len; i++) {
        const char *var = all.items[i];
        xf_uses u = xf_count_uses(body, var);
        if ((intptr_t)all_ops.items[i] < 0 || u.loads || u.stores || xf_defines(body, var))
            continue;
        ft_vec_push(ctx, names, (void *)var);
        ft_vec_push(ctx, ops, all_ops.items[i]);
    }
}

static int checked_stmt_cb(ast_visitor *v, ast_stmt *s)
{
    find_stmt *f = (find_stmt *)v;
    int n = 0;
    ast_expr **idx = NULL;
    if (s->kind == AST_ASSERT)
        f->found = 1;
    else if (s->kind == AST_STORE)
        n = s->u.store.n, idx = s->u.store.idx;
    else if (s->kind == AST_REDUCE)
        n = s->u.red.n, idx = s->u.red.idx;
    for (int k = 0; k < n; k++)
        if (xf_expr_has_load(idx[k]))
            f->found = 1;
    return 1;
}

static void checked_expr_cb(ast_visitor *v, ast_expr *e)
{
    find_stmt *f = (find_stmt *)v;
    if (e->kind == AST_LOAD && xf_expr_checked(e))
        f->found = 1;
}

int xf_stmt_checked(const ast_stmt *s)
{
    find_stmt f = {.v = {checked_stmt_cb, checked_expr_cb}};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

int xf_is_empty(const ast_stmt *s)
{
    return !s || (s->kind == AST_SEQ && s->u.seq.n == 0 && !s->label);
}

typedef struct defs_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *defs;
} defs_state;

static int defs_cb(ast_visitor *v, ast_stmt *s)
{
    defs_state *st = (defs_state *)v;
    if (s->kind == AST_VARDEF)
        ft_vec_push(st->ctx, st->defs, s);
    return 1;
}

void xf_collect_vardefs(ft_ctx *ctx, ast_stmt *s, ft_vec *defs)
{
    defs_state st = {.v.stmt = defs_cb, .ctx = ctx, .defs = defs};
    ast_visit(s, &st.v);
}

int xf_kept(const ast_stmt *s)
{
    return s->label || s->named;
}

static int any_kept_cb(ast_visitor *v, ast_stmt *s)
{
    find_stmt *f = (find_stmt *)v;
    f->found |= xf_kept(s);
    return !f->found;
}

int xf_any_kept(const ast_stmt *s)
{
    find_stmt f = {.v.stmt = any_kept_cb};
    ast_visit((ast_stmt *)s, &f.v);
    return f.found;
}

void xf_make_empty(ast_stmt *s)
{
    s->kind = AST_SEQ;
    s->u.seq.n = 0;
    s->u.seq.stmts = NULL;
}

/* ------------------------------------------------------ rewriting loads */

typedef struct replace_state {
    ft_ctx *ctx;
    const char *var;
    xf_load_fn fn;
    void *data;
} replace_state;

static void replace_expr(replace_state *st, ast_expr **slot);

static void replace_list(replace_state *st, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++)
        replace_expr(st, &es[i]);
}

/* Rewrite the loads of st->var under *slot, operands first. */
static void replace_expr(replace_state *st, ast_expr **slot)
{
    ast_expr *e = *slot;
    if (!e)
        return;
    switch (e->kind) {
    case AST_LOAD: replace_list(st, e->u.load.n, e->u.load.idx); break;
    case AST_BINARY:
        replace_expr(st, &e->u.bin.a);
        replace_expr(st, &e->u.bin.b);
        break;
    case AST_UNARY: replace_expr(st, &e->u.un.a); break;
    case AST_CALL: replace_list(st, e->u.call.n, e->u.call.args); break;
    case AST_CAST: replace_expr(st, &e->u.cast.a); break;
    case AST_IFEXPR:
        replace_expr(st, &e->u.ife.cond);
        replace_expr(st, &e->u.ife.then);
        replace_expr(st, &e->u.ife.other);
        break;
    default: break;
    }
    if (e->kind == AST_LOAD && strcmp(e->u.load.var, st->var) == 0)
        *slot = st->fn(st->ctx, e, st->data);
}

static void replace_stmt(replace_state *st, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            replace_stmt(st, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        replace_list(st, s->u.def.ndim, s->u.def.shape);
        if (strcmp(s->u.def.name, st->var) != 0)
            replace_stmt(st, s->u.def.body);
        break;
    case AST_FOR:
        replace_expr(st, &s->u.loop.begin);
        replace_expr(st, &s->u.loop.end);
        replace_expr(st, &s->u.loop.step);
        replace_stmt(st, s->u.loop.body);
        break;
    case AST_IF:
        replace_expr(st, &s->u.branch.cond);
        replace_stmt(st, s->u.branch.then);
        replace_stmt(st, s->u.branch.other);
        break;
    case AST_STORE:
        replace_list(st, s->u.store.n, s->u.store.idx);
        replace_expr(st, &s->u.store.value);
        break;
    case AST_REDUCE:
        replace_list(st, s->u.red.n, s->u.red.idx);
        replace_expr(st, &s->u.red.value);
        break;
    case AST_ASSERT: replace_expr(st, &s->u.cond); break;
    case AST_EVAL: replace_expr(st, &s->u.expr); break;
    }
}

void xf_replace_loads(ft_ctx *ctx, ast_stmt *s, const char *var, xf_load_fn fn,
                      void *data)
{
    replace_state st = {ctx, var, fn, data};
    replace_stmt(&st, s);
}

/* ------------------------------------------------------ collecting accesses */

typedef struct collect_state {
    ast_visitor v;
    ft_ctx *ctx;
    const char *var;
    ft_vec *out;
} collect_state;

static void collect_push(collect_state *st, int *n, ast_expr ***idx, ast_stmt *s)
{
    xf_access *a = ft_alloc(st->ctx, sizeof *a);
    *a = (xf_access){n, idx, s};
    ft_vec_push(st->ctx, st->out, a);
}

static int collect_stmt(ast_visitor *v, ast_stmt *s)
{
    collect_state *st = (collect_state *)v;
    if (s->kind == AST_VARDEF && strcmp(s->u.def.name, st->var) == 0)
        return 0;
    if (s->kind == AST_STORE && strcmp(s->u.store.var, st->var) == 0)
        collect_push(st, &s->u.store.n, &s->u.store.idx, s);
    if (s->kind == AST_REDUCE && strcmp(s->u.red.var, st->var) == 0)
        collect_push(st, &s->u.red.n, &s->u.red.idx, s);
    return 1;
}

static void collect_expr(ast_visitor *v, ast_expr *e)
{
    collect_state *st = (collect_state *)v;
    if (e->kind == AST_LOAD && strcmp(e->u.load.var, st->var) == 0)
        collect_push(st, &e->u.load.n, &e->u.load.idx, NULL);
}

void xf_collect_accesses(ft_ctx *ctx, ast_stmt *s, const char *var, ft_vec *out)
{
    collect_state st = {.v = {collect_stmt, collect_expr}, .ctx = ctx, .var = var,
                        .out = out};
    ast_visit(s, &st.v);
}

static ast_expr *rename_fn(ft_ctx *ctx, ast_expr *load, void *data)
{
    load->u.load.var = data;
    return load;
}

void xf_rename_tensor(ft_ctx *ctx, ast_stmt *s, const char *from, const char *to)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, s, from, &acc);
    for (int i = 0; i < acc.len; i++) {
        ast_stmt *w = ((xf_access *)acc.items[i])->stmt;
        if (w && w->kind == AST_STORE)
            w->u.store.var = to;
        else if (w)
            w->u.red.var = to;
    }
    xf_replace_loads(ctx, s, from, rename_fn, (void *)to);
}

/* --------------------------------------------------------- scope lists */

void xf_scope_list(ft_ctx *ctx, ast_stmt *body, ft_vec *items)
{
    if (xf_is_empty(body))
        return;
    if (body->kind == AST_SEQ && !body->label) {
        for (int i = 0; i < body->u.seq.n; i++)
            xf_scope_list(ctx, body->u.seq.stmts[i], items);
        return;
    }
    ft_vec_push(ctx, items, body);
    if (body->kind == AST_VARDEF)
        xf_scope_list(ctx, body->u.def.body, items);
}

int xf_item_accesses(const ast_stmt *item, const char *var)
{
    return item->kind != AST_VARDEF && xf_accesses(item, var);
}

int xf_item_writes_any(const ast_stmt *item, const ft_vec *names)
{
    return item->kind != AST_VARDEF && xf_writes_any(item, names);
}

/* ------------------------------------------------------------ structure */

/* Append s to out, flattening unlabelled sequences, each item normalized
 * (normalize) or already normal.  absorb_after_vardef passes a VarDef's
 * body, already normalized, without normalizing it again: at every level
 * of nested VarDefs (a gradient's tape versions) that made 100 overwrites
 * of one tensor under `grad` allocate 1 GB, 200 7 GB. */
static void flatten_into(ft_ctx *ctx, ast_stmt *s, ft_vec *out, int normalize)
{
    if (xf_is_empty(s))
        return;
    if (s->kind == AST_SEQ && !s->label) {
        for (int i = 0; i < s->u.seq.n; i++)
            flatten_into(ctx, s->u.seq.stmts[i], out, normalize);
        return;
    }
    ft_vec_push(ctx, out, normalize ? xf_normalize(ctx, s) : s);
}

/* items[from..] as one statement (an empty sequence when none). */
static ast_stmt *seq_of(ft_ctx *ctx, ft_loc loc, ft_vec *items, int from)
{
    int n = items->len - from;
    if (n == 1)
        return items->items[from];
    return ast_seq(ctx, loc, n, (ast_stmt **)items->items + from);
}

/* Fold the statements after the first VarDef of items (normalized
 * statements) into its body. */
static ast_stmt *absorb_after_vardef(ft_ctx *ctx, ft_loc loc, ft_vec *items)
{
    for (int i = 0; i < items->len; i++) {
        ast_stmt *d = items->items[i];
        if (d->kind != AST_VARDEF || i == items->len - 1)
            continue;
        ft_vec body = {0};
        flatten_into(ctx, d->u.def.body, &body, 0);
        for (int k = i + 1; k < items->len; k++)
            ft_vec_push(ctx, &body, items->items[k]);
        d->u.def.body = absorb_after_vardef(ctx, d->loc, &body);
        items->len = i + 1;
        break;
    }
    return seq_of(ctx, loc, items, 0);
}

ast_stmt *xf_normalize(ft_ctx *ctx, ast_stmt *s)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case AST_SEQ: {
        ft_vec items = {0};
        for (int i = 0; i < s->u.seq.n; i++)
            flatten_into(ctx, s->u.seq.stmts[i], &items, 1);
        if (items.len == 0) {
            s->u.seq.n = 0;
            return s;
        }
        ast_stmt *flat = absorb_after_vardef(ctx, s->loc, &items);
        if (!s->label)
            return flat;
        s->u.seq.n = 1;   /* keep the labelled unit itself */
        s->u.seq.stmts = ft_alloc(ctx, sizeof *s->u.seq.stmts);
        s->u.seq.stmts[0] = flat;
        return s;
    }
    case AST_VARDEF: {
        ft_vec items = {0};
        flatten_into(ctx, s->u.def.body, &items, 1);
        s->u.def.body = items.len ? absorb_after_vardef(ctx, s->loc, &items)
                                  : ast_seq(ctx, s->loc, 0, NULL);
        return s;
    }
    case AST_FOR: s->u.loop.body = xf_normalize(ctx, s->u.loop.body); return s;
    case AST_IF:
        s->u.branch.then = xf_normalize(ctx, s->u.branch.then);
        s->u.branch.other = xf_normalize(ctx, s->u.branch.other);
        if (s->u.branch.other && xf_is_empty(s->u.branch.other))
            s->u.branch.other = NULL;
        return s;
    default: return s;
    }
}

/* Visitor: the names (VarDefs and loop iterators) that start with prefix. */
typedef struct names_with {
    ast_visitor v;
    ft_ctx *ctx;
    const char *prefix;
    size_t n;
    ft_vec names;
} names_with;

static int visit_names(ast_visitor *v, ast_stmt *s)
{
    names_with *w = (names_with *)v;
    const char *name = s->kind == AST_VARDEF ? s->u.def.name
                       : s->kind == AST_FOR ? s->u.loop.iter : NULL;
    if (name && strncmp(name, w->prefix, w->n) == 0)
        ft_vec_push(w->ctx, &w->names, (void *)name);
    return 1;
}

/* base_hK for the first K not taken in f (a parameter, a VarDef or a loop
 * iterator): the names that could clash are gathered in one walk, so that
 * a function with hundreds of split loops does not walk itself once per
 * K tried. */
const char *xf_fresh_name(ft_ctx *ctx, const ast_func *f, const char *base)
{
    const char *prefix = ft_fmt(ctx, "%s_h", base);
    names_with w = {{visit_names, NULL}, ctx, prefix, strlen(prefix), {0}};
    ast_visit(f->body, &w.v);
    ft_vec taken = w.names;
    for (int i = 0; i < f->nparams; i++)
        if (strncmp(f->params[i].name, prefix, w.n) == 0)
            ft_vec_push(ctx, &taken, (void *)f->params[i].name);
    for (int k = 1;; k++) {
        const char *name = ft_fmt(ctx, "%s%d", prefix, k);
        int used = 0;
        for (int i = 0; i < taken.len && !used; i++)
            used = strcmp(taken.items[i], name) == 0;
        if (!used)
            return name;
    }
}

const char *xf_layout_name(ft_ctx *ctx, const char *x, const char *text)
{
    const char *arrow = text ? strstr(text, "->") : NULL;
    const char *p = !text ? "rowmajor" : arrow ? arrow + 2 : text;
    char *h = ft_alloc(ctx, strlen(x) + strlen(p) + 2), *o = h + strlen(x);
    strcpy(h, x);
    *o++ = '_';
    for (; *p; p++)
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
            *o++ = (char)(*p | 0x20);
    *o = 0;
    return h;
}

int xf_size_hint(const ft_ctx *ctx, const char *name, double *n)
{
    size_t len = strlen(name);
    for (int i = 0; i < ctx->opts.nsizes; i++)
        if (strncmp(ctx->opts.sizes[i], name, len) == 0 && ctx->opts.sizes[i][len] == '=') {
            *n = strtod(ctx->opts.sizes[i] + len + 1, NULL);
            return 1;
        }
    return 0;
}

int xf_is_zero(const ast_expr *e)
{
    if (e->kind == AST_CAST)
        return xf_is_zero(e->u.cast.a);
    return (e->kind == AST_INT && e->u.ival == 0) || (e->kind == AST_FLOAT && e->u.fval == 0.0);
}

ast_stmt *xf_only_stmt(ast_stmt *body)
{
    while (body && body->kind == AST_SEQ && !body->label && body->u.seq.n == 1)
        body = body->u.seq.stmts[0];
    return body && body->kind != AST_SEQ ? body : NULL;
}

int xf_loop_from_zero(const ast_stmt *loop)
{
    const ast_expr *b = loop->u.loop.begin, *st = loop->u.loop.step;
    return b->kind == AST_INT && b->u.ival == 0 && st->kind == AST_INT && st->u.ival == 1;
}

/* Looks for what may change from one iteration of a loop to the next. */
typedef struct inv_walk {
    ast_visitor v;
    const ast_stmt *loop;
    const ft_vec *written;    /* the tensors the loop writes */
    int variant;
} inv_walk;

static void inv_walk_cb(ast_visitor *v, ast_expr *e)
{
    inv_walk *w = (inv_walk *)v;
    const ast_stmt *body = w->loop->u.loop.body;
    if (e->kind == AST_VAR)
        w->variant |= strcmp(e->u.name, w->loop->u.loop.iter) == 0 ||
                      xf_binds_iter(body, e->u.name);
    else if (e->kind == AST_LOAD)
        w->variant |= xf_has_name(w->written, e->u.load.var) ||
                      xf_defines(body, e->u.load.var);
}

int xf_expr_invariant_in(ft_ctx *ctx, const ast_stmt *loop, const ast_expr *e)
{
    ft_vec written = {0};
    xf_stmt_written(ctx, loop->u.loop.body, &written);
    inv_walk w = {.v.expr = inv_walk_cb, .loop = loop, .written = &written};
    ast_visit_expr((ast_expr *)e, &w.v);
    return !w.variant;
}

/* ---------------------------------------------------- single definitions */

/* The item of body's scope list that writes var (NULL unless exactly one). */
static ast_stmt *writer_item(ft_ctx *ctx, ast_stmt *body, const char *var)
{
    ft_vec items = {0};
    xf_scope_list(ctx, body, &items);
    ast_stmt *found = NULL;
    for (int i = 0; i < items.len; i++) {
        ast_stmt *it = items.items[i];
        if (it->kind == AST_VARDEF || !xf_writes(it, var))
            continue;
        if (found)
            return NULL;
        found = it;
    }
    return found;
}

/* Walk from item down to its store of t through full-range loops, filling
 * d->iters; 0 when the path has anything else. */
static int def_path(ft_ctx *ctx, ast_stmt *vardef, ast_stmt *item, xf_def *d)
{
    const char *t = vardef->u.def.name;
    int nd = vardef->u.def.ndim, nloops = 0;
    const ast_stmt *loops[64];
    while (item && item->kind == AST_FOR && nloops < 64) {
        loops[nloops++] = item;
        item = writer_item(ctx, item->u.loop.body, t);
    }
    if (!item || item->kind != AST_STORE || strcmp(item->u.store.var, t) ||
        nloops != nd || item->u.store.n != nd)
        return 0;
    d->store = item;
    d->iters = ft_alloc(ctx, sizeof *d->iters * (size_t)(nd ? nd : 1));
    for (int k = 0; k < nd; k++) {
        const ast_expr *ix = item->u.store.idx[k];
        if (ix->kind != AST_VAR)
            return 0;
        int found = 0;
        for (int l = 0; l < nloops; l++)
            if (strcmp(loops[l]->u.loop.iter, ix->u.name) == 0 && xf_loop_from_zero(loops[l]) &&
                ast_expr_equal(loops[l]->u.loop.end, vardef->u.def.shape[k]))
                found = 1;
        for (int j = 0; j < k; j++)
            if (strcmp(d->iters[j], ix->u.name) == 0)
                return 0;
        if (!found)
            return 0;
        d->iters[k] = ix->u.name;
    }
    return 1;
}

int xf_find_def(ft_ctx *ctx, ast_stmt *vardef, ft_vec *items, xf_def *d)
{
    const char *t = vardef->u.def.name;
    xf_uses u = xf_count_uses(vardef->u.def.body, t);
    if (u.stores != 1 || u.reduces != 0)
        return 0;
    *d = (xf_def){.vardef = vardef, .top = -1};
    for (int i = 0; i < items->len && d->top < 0; i++)
        if (xf_item_accesses(items->items[i], t))
            d->top = i;
    if (d->top < 0)
        return 0;
    ast_stmt *top = items->items[d->top];
    if (xf_reads(top, t) || !xf_writes(top, t))
        return 0;
    return def_path(ctx, vardef, top, d);
}

ast_expr *xf_def_value_at(ft_ctx *ctx, const xf_def *d, const ast_expr *load)
{
    ast_expr *v = ast_subst_vars(ctx, d->store->u.store.value, load->u.load.n, d->iters,
                                load->u.load.idx);
    return xf_convert(ctx, v, d->vardef->u.def.dtype);
}

int xf_def_reorders(const xf_def *d)
{
    const ast_expr *v = d->store->u.store.value;
    while (v->kind == AST_CAST || v->kind == AST_UNARY)
        v = v->kind == AST_CAST ? v->u.cast.a : v->u.un.a;
    if (v->kind != AST_LOAD)
        return 0;
    int n = d->store->u.store.n, prev = -1;
    for (int k = 0; k < v->u.load.n; k++) {
        int rank = -1;
        for (int j = 0; j < n; j++)
            if (d->iters[j] && xf_expr_uses_var(v->u.load.idx[k], d->iters[j]))
                rank = j;
        if (rank < 0)
            continue;
        if (rank < prev)
            return 1;
        prev = rank;
    }
    return 0;
}

/* A walk that knows the loops around each node: embedded first in a
 * walk of its own, with v.expr and/or `leaf` (called on each Store and
 * Reduce; nonzero stops the walk) set; iters[0..n) are the iterators of
 * the loops around the node visited.  Over 64 nested loops it stops as if
 * found. */
typedef struct nest_walk {
    ast_visitor v;
    int (*leaf)(struct nest_walk *w, ast_stmt *s);
    const char *iters[64];
    int n;
    int found;
} nest_walk;

static int nest_stmt(ast_visitor *v, ast_stmt *s)
{
    nest_walk *w = (nest_walk *)v;
    if (w->found)
        return 0;
    if (s->kind == AST_FOR) {
        ast_expr *head[] = {s->u.loop.begin, s->u.loop.end, s->u.loop.step};
        for (int k = 0; k < 3; k++)
            if (head[k])
                ast_visit_expr(head[k], v);
        if (w->n == 64) {
            w->found = 1;
            return 0;
        }
        w->iters[w->n++] = s->u.loop.iter;
        ast_visit(s->u.loop.body, v);
        w->n--;
        return 0;
    }
    if ((s->kind == AST_STORE || s->kind == AST_REDUCE) && w->leaf && w->leaf(w, s))
        w->found = 1;
    return 1;
}

/* Whether a walk w run over the items after d's top found something. */
static int nest_walk_items(nest_walk *w, const xf_def *d, ft_vec *items)
{
    w->v.stmt = nest_stmt;
    for (int i = d->top + 1; i < items->len && !w->found; i++)
        if (((ast_stmt *)items->items[i])->kind != AST_VARDEF)
            ast_visit(items->items[i], &w->v);
    return w->found;
}

/* xf_def_reads_repeat's walk: a load of var whose indices ignore the
 * iterator of a loop around it. */
typedef struct repeat_walk {
    nest_walk w;
    const char *var;
} repeat_walk;

static void repeat_expr(ast_visitor *v, ast_expr *e)
{
    repeat_walk *r = (repeat_walk *)v;
    if (e->kind != AST_LOAD || strcmp(e->u.load.var, r->var) != 0)
        return;
    for (int l = 0; l < r->w.n; l++) {
        int used = 0;
        for (int k = 0; k < e->u.load.n; k++)
            used |= xf_expr_uses_var(e->u.load.idx[k], r->w.iters[l]);
        if (!used)
            r->w.found = 1;
    }
}

int xf_def_reads_repeat(const xf_def *d, ft_vec *items)
{
    repeat_walk r = {.w.v.expr = repeat_expr, .var = d->vardef->u.def.name};
    return nest_walk_items(&r.w, d, items);
}

/* The walk of xf_walks_along. */
typedef struct contig {
    ast_visitor v;
    ft_ctx *ctx;
    ast_func *f;
    const ast_stmt *at;
    const char *iter;
    xf_walks w;
} contig;

/* Var's declaration visible at c's statement (n dimensions), or 0. */
static int contig_decl(const contig *c, const char *var, int n, ast_expr ***shape)
{
    int ndim;
    return xf_find_decl(c->ctx, c->f, c->at, var, NULL, &ndim, shape) && ndim == n;
}

/* The number of var's dimensions up to its last one of an extent other than
 * a literal 1 (an OIHW weight of a 1x1 window is contiguous in I). */
static int significant_dims(const contig *c, const char *var, int n)
{
    ast_expr **shape;
    if (!contig_decl(c, var, n, &shape))
        return n;
    while (n > 1 && shape[n - 1]->kind == AST_INT && shape[n - 1]->u.ival == 1)
        n--;
    return n;
}

/* How access var[idx0, ..., idx(n-1)] uses c's iterator: 0 not at all, 1
 * contiguously, 2 with a stride. */
static int walk_of(const contig *c, const char *var, int n, ast_expr **idx)
{
    int uses = 0;
    for (int k = 0; k < n; k++)
        uses |= xf_expr_uses_var(idx[k], c->iter);
    if (!uses)
        return 0;
    int sig = significant_dims(c, var, n);
    for (int k = 0; k < n; k++)
        if (k != sig - 1 && xf_expr_uses_var(idx[k], c->iter))
            return 2;
    an_lin l;
    if (!an_lin_of(c->ctx, idx[sig - 1], &l))
        return 2;
    int unit = 0;
    for (int k = 0; k < l.n; k++) {
        const ast_expr *at = l.atom[k];
        if (at->kind == AST_VAR && strcmp(at->u.name, c->iter) == 0)
            unit |= l.coef[k] == 1 || l.coef[k] == -1 ? 1 : 2;
        else if (xf_expr_uses_var(at, c->iter))
            unit |= 2;
    }
    return unit == 1 ? 1 : 2;
}

/* Count one access var[idx0, ..., idx(n-1)]. */
static void classify(contig *c, const char *var, int n, ast_expr **idx)
{
    int k = walk_of(c, var, n, idx);
    if (k == 1)
        c->w.contiguous++;
    if (k == 2)
        c->w.strided++;
}

static int contig_stmt(ast_visitor *v, ast_stmt *s)
{
    contig *c = (contig *)v;
    if (s->kind == AST_STORE)
        classify(c, s->u.store.var, s->u.store.n, s->u.store.idx);
    else if (s->kind == AST_REDUCE)
        classify(c, s->u.red.var, s->u.red.n, s->u.red.idx);
    return 1;
}

static void contig_expr(ast_visitor *v, ast_expr *e)
{
    if (e->kind == AST_LOAD)
        classify((contig *)v, e->u.load.var, e->u.load.n, e->u.load.idx);
}

xf_walks xf_walks_along(ft_ctx *ctx, ast_func *f, const ast_stmt *at, ast_stmt *body,
                       const char *iter)
{
    contig c = {.v.stmt = contig_stmt, .v.expr = contig_expr, .ctx = ctx, .f = f, .at = at,
                .iter = iter};
    ast_visit(body, &c.v);
    return c.w;
}

/* Whether some loop of stack[0..n) walks every access of s contiguously
 * or not at all, and some contiguously; at places s for the declarations. */
static int walks_cleanly(ft_ctx *ctx, ast_func *f, const ast_stmt *at, ast_stmt *s,
                         const char **stack, int n)
{
    for (int k = 0; k < n; k++) {
        xf_walks w = xf_walks_along(ctx, f, at, s, stack[k]);
        if (w.contiguous > 0 && w.strided == 0)
            return 1;
    }
    return 0;
}

static ast_expr *def_value_cb(ft_ctx *ctx, ast_expr *load, void *data)
{
    return xf_def_value_at(ctx, data, load);
}

/* xf_def_forward_strides's walk. */
typedef struct forward_walk {
    nest_walk w;
    ft_ctx *ctx;
    ast_func *f;
    const xf_def *d;
} forward_walk;

/* Whether statement s reads the local and walks cleanly along a loop
 * around it, but with the local's value forwarded along none. */
static int forward_leaf(nest_walk *w, ast_stmt *s)
{
    forward_walk *fw = (forward_walk *)w;
    const char *t = fw->d->vardef->u.def.name;
    if (!xf_reads(s, t) || !walks_cleanly(fw->ctx, fw->f, s, s, w->iters, w->n))
        return 0;
    ast_stmt *fwd = ast_clone_stmt(fw->ctx, s, AST_CLONE_SAME);
    xf_replace_loads(fw->ctx, fwd, t, def_value_cb, (void *)fw->d);
    return !walks_cleanly(fw->ctx, fw->f, s, fwd, w->iters, w->n);
}

int xf_def_forward_strides(ft_ctx *ctx, ast_func *f, const xf_def *d, ft_vec *items)
{
    forward_walk fw = {.w.leaf = forward_leaf, .ctx = ctx, .f = f, .d = d};
    return nest_walk_items(&fw.w, d, items);
}

/* The names of the iterators / sizes e uses. */
typedef struct vars_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *names;
} vars_state;

static void vars_cb(ast_visitor *v, ast_expr *e)
{
    vars_state *st = (vars_state *)v;
    if (e->kind == AST_VAR && !xf_has_name(st->names, e->u.name))
        ft_vec_push(st->ctx, st->names, (void *)e->u.name);
}

int xf_def_value_movable(ft_ctx *ctx, const xf_def *d, ft_vec *items)
{
    const ast_expr *v = d->store->u.store.value;
    ft_vec tensors = {0}, vars = {0};
    xf_expr_loaded(ctx, v, &tensors);
    vars_state vs = {.v.expr = vars_cb, .ctx = ctx, .names = &vars};
    ast_visit_expr((ast_expr *)v, &vs.v);
    const ast_stmt *top = items->items[d->top];
    for (int k = 0; k < tensors.len; k++)
        if (xf_defines(top, tensors.items[k]))
            return 0;
    for (int k = 0; k < vars.len; k++) {
        int is_iter = 0;
        for (int j = 0; j < d->vardef->u.def.ndim; j++)
            is_iter |= strcmp(d->iters[j], vars.items[k]) == 0;
        if (is_iter)
            continue;
        for (int i = d->top + 1; i < items->len; i++)
            if (((ast_stmt *)items->items[i])->kind != AST_VARDEF &&
                xf_binds_iter(items->items[i], vars.items[k]))
                return 0;
    }
    return 1;
}

/* Fills what xf_find_decl's caller asked for (NULL: not asked). */
static void fill_decl(ft_dtype t, int n, ast_expr **sh, ft_dtype *dt, int *ndim,
                      ast_expr ***shape)
{
    if (dt)
        *dt = t;
    if (ndim)
        *ndim = n;
    if (shape)
        *shape = sh;
}

int xf_find_decl(ft_ctx *ctx, ast_func *f, const ast_stmt *s, const char *var, ft_dtype *dt,
                 int *ndim, ast_expr ***shape)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    return xf_find_decl_in(&anc, f, var, dt, ndim, shape);
}

int xf_find_decl_in(const ft_vec *anc, ast_func *f, const char *var, ft_dtype *dt, int *ndim,
                    ast_expr ***shape)
{
    for (int i = anc->len - 1; i >= 0; i--) {
        const ast_stmt *a = anc->items[i];
        if (a->kind == AST_VARDEF && strcmp(a->u.def.name, var) == 0) {
            fill_decl(a->u.def.dtype, a->u.def.ndim, a->u.def.shape, dt, ndim, shape);
            return 1;
        }
    }
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].is_size && strcmp(f->params[i].name, var) == 0) {
            fill_decl(f->params[i].dtype, f->params[i].ndim, f->params[i].shape, dt, ndim, shape);
            return 1;
        }
    return 0;
}

/* ------------------------------------------------------------ budgets */

/* Add to *work each statement under s once per local declared around it
 * (locals: those around s), stopping past cap.  The last item of a
 * sequence and a body are followed in the loop, not by recursion: a chain
 * of `var`s nests each in the one before. */
static void scope_work(const ast_stmt *s, int64_t locals, int64_t cap, int64_t *work)
{
    while (s && *work <= cap) {
        switch (s->kind) {
        case AST_SEQ:
            if (s->u.seq.n == 0)
                return;
            for (int i = 0; i + 1 < s->u.seq.n; i++)
                scope_work(s->u.seq.stmts[i], locals, cap, work);
            s = s->u.seq.stmts[s->u.seq.n - 1];
            continue;
        case AST_VARDEF: locals++; s = s->u.def.body; continue;
        case AST_FOR: *work += locals; s = s->u.loop.body; continue;
        case AST_IF:
            *work += locals;
            scope_work(s->u.branch.then, locals, cap, work);
            s = s->u.branch.other;
            continue;
        default: *work += locals; return;
        }
    }
}

int xf_cleanup_affordable(ft_ctx *ctx, ast_func *f, const char *pass)
{
    int64_t max = ctx->opts.budget.cleanup_work, work = 0;
    scope_work(f->body, 0, max, &work);
    if (work <= max)
        return 1;
    if (ctx->opts.verbose)
        fprintf(ctx->diag_out, "ftc: %s: %s: skipped: its statements counted once per local "
                "around them exceed %lld (--max-cleanup-work)\n", pass, f->name,
                (long long)max);
    return 0;
}

ast_expr *xf_red_identity(ft_ctx *ctx, ft_loc l, ast_reduce_op op, ft_dtype t)
{
    int fl = ft_dtype_is_float(t);
    int64_t hi = t == FT_BOOL ? 1 : t == FT_I32 ? INT32_MAX : INT64_MAX;
    int64_t lo = t == FT_BOOL ? 0 : t == FT_I32 ? INT32_MIN : INT64_MIN;
    switch (op) {
    case AST_RED_ADD: return xf_convert(ctx, fl ? ast_float(ctx, l, 0.0, t) : ast_int(ctx, l, 0), t);
    case AST_RED_MUL: return xf_convert(ctx, fl ? ast_float(ctx, l, 1.0, t) : ast_int(ctx, l, 1), t);
    case AST_RED_MIN:
        return fl ? ast_float(ctx, l, INFINITY, t) : xf_convert(ctx, ast_int(ctx, l, hi), t);
    case AST_RED_MAX:
        return fl ? ast_float(ctx, l, -INFINITY, t) : xf_convert(ctx, ast_int(ctx, l, lo), t);
    }
    return NULL;
}
