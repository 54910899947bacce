/* auto_util.c - quiet primitives, the -v log and loop helpers shared by
 * the auto-scheduler's passes (auto_util.h). */
#include "auto_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../sched_util.h"
#include "../xf_util.h"
#include "visit.h"

/* ------------------------------------------------------------ quiet mode */

void xf_auto_quiet_begin(ft_ctx *ctx, xf_quiet *q)
{
    *q = (xf_quiet){.saved_out = ctx->diag_out, .saved_nerrors = ctx->nerrors,
                    .saved_refusal = ctx->refusal};
    q->mem = open_memstream(&q->buf, &q->len);
    if (q->mem)
        ctx->diag_out = q->mem;
    ctx->nerrors = 0;
    ctx->refusal = &q->why;
}

const char *xf_auto_quiet_end(ft_ctx *ctx, xf_quiet *q)
{
    if (q->mem) {
        fclose(q->mem);
        free(q->buf);
    }
    const char *why = !ctx->nerrors ? NULL : q->why ? q->why : "refused";
    ctx->diag_out = q->saved_out;
    ctx->nerrors = q->saved_nerrors;
    ctx->refusal = q->saved_refusal;
    return why;
}

/* ---------------------------------------------------------------- log */

void xf_auto_log(xf_auto *a, const char *pass, const char *what, const char *fmt, ...)
{
    if (!a->ctx->opts.verbose)
        return;
    FILE *out = a->ctx->diag_out;
    fprintf(out, "ftc: %s: %s: %s: ", pass, a->f->name, what);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

const char *xf_auto_name(xf_auto *a, const ast_stmt *s)
{
    return ft_fmt(a->ctx, "%s (#%d)", xf_sched_name(a->ctx, s), s->id);
}

const char *xf_auto_first_line(ft_ctx *ctx, const char *text)
{
    if (!text)
        return "";
    const char *nl = strchr(text, '\n');
    return nl ? ft_strndup(ctx, text, (size_t)(nl - text)) : ft_strdup(ctx, text);
}

/* ------------------------------------------------------------- loops */

typedef struct loop_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *out;
    const char *iter;      /* count loops over this iterator */
    int n_iter;
} loop_walk;

static int loop_walk_cb(ast_visitor *v, ast_stmt *s)
{
    loop_walk *w = (loop_walk *)v;
    if (s->kind != AST_FOR)
        return 1;
    if (w->out && s->u.loop.par == AST_LIB)
        return 0;       /* a BLAS call (as_lib): nothing under it to schedule */
    if (w->out)
        ft_vec_push(w->ctx, w->out, s);
    if (w->iter && strcmp(s->u.loop.iter, w->iter) == 0)
        w->n_iter++;
    return 1;
}

void xf_auto_loops(ft_ctx *ctx, ast_func *f, ft_vec *out)
{
    loop_walk w = {.v.stmt = loop_walk_cb, .ctx = ctx, .out = out};
    ast_visit(f->body, &w.v);
}

ast_stmt *xf_auto_loop_by_id(ft_ctx *ctx, ast_func *f, int id)
{
    ft_vec loops = {0};
    xf_auto_loops(ctx, f, &loops);
    for (int i = 0; i < loops.len; i++)
        if (((ast_stmt *)loops.items[i])->id == id)
            return loops.items[i];
    return NULL;
}

void xf_auto_enclosing_loops(ft_ctx *ctx, ast_func *f, const ast_stmt *s, ft_vec *out)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = 0; i < anc.len; i++)
        if (((ast_stmt *)anc.items[i])->kind == AST_FOR)
            ft_vec_push(ctx, out, anc.items[i]);
}

/* Stops the walk at the first loop under the root. */
typedef struct loop_find {
    ast_visitor v;
    const ast_stmt *root;
    int found;
} loop_find;

static int loop_find_cb(ast_visitor *v, ast_stmt *s)
{
    loop_find *w = (loop_find *)v;
    if (s != w->root && s->kind == AST_FOR)
        w->found = 1;
    return !w->found;
}

int xf_auto_has_loop(ast_stmt *s)
{
    loop_find w = {.v.stmt = loop_find_cb, .root = s};
    if (s)
        ast_visit(s, &w.v);
    return w.found;
}

int xf_auto_each_loop(xf_auto *a, ast_stmt *s, int (*fn)(xf_auto *, ast_stmt *))
{
    if (!s)
        return 0;
    int n = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            n += xf_auto_each_loop(a, s->u.seq.stmts[i], fn);
        return n;
    case AST_VARDEF: return xf_auto_each_loop(a, s->u.def.body, fn);
    case AST_IF:
        return xf_auto_each_loop(a, s->u.branch.then, fn) +
               xf_auto_each_loop(a, s->u.branch.other, fn);
    case AST_FOR:
        if (s->u.loop.par == AST_VECTORIZE || s->u.loop.par == AST_LIB)
            return 0;
        n = fn(a, s);
        return n + xf_auto_each_loop(a, s->u.loop.body, fn);
    default: return 0;
    }
}

int xf_auto_const_trips(ft_ctx *ctx, const ast_stmt *loop, int64_t *n)
{
    ast_expr *t = xf_trip_count(ctx, loop);
    if (!t || t->kind != AST_INT)
        return 0;
    *n = t->u.ival > 0 ? t->u.ival : 0;
    return 1;
}

int xf_auto_hinted_trips(ft_ctx *ctx, const ast_stmt *loop, int64_t *n)
{
    ast_expr *t = xf_trip_count(ctx, loop);
    double v;
    if (!t || t->kind != AST_VAR || !xf_size_hint(ctx, t->u.name, &v))
        return 0;
    *n = v > 0 ? (int64_t)v : 0;
    return 1;
}

/* Whether a statement under s has the label name. */
typedef struct label_find {
    ast_visitor v;
    const char *name;
    int found;
} label_find;

static int label_find_cb(ast_visitor *v, ast_stmt *s)
{
    label_find *w = (label_find *)v;
    if (s->label && strcmp(s->label, w->name) == 0)
        w->found = 1;
    return !w->found;
}

static int label_used(ast_stmt *s, const char *name)
{
    label_find w = {.v.stmt = label_find_cb, .name = name};
    ast_visit(s, &w.v);
    return w.found;
}

void xf_auto_label(xf_auto *a, ast_stmt *loop)
{
    if (loop->label)
        return;
    loop_walk w = {.v.stmt = loop_walk_cb, .iter = loop->u.loop.iter};
    ast_visit(a->f->body, &w.v);
    if (w.n_iter <= 1)
        return;
    const char *name = ft_fmt(a->ctx, "L_%s", loop->u.loop.iter);
    for (int k = 1; label_used(a->f->body, name); k++)
        name = ft_fmt(a->ctx, "L_%s_%d", loop->u.loop.iter, k);
    loop->label = name;
}

void xf_auto_label_later(xf_auto *a, const ast_stmt *loop)
{
    ft_vec_push(a->ctx, &a->to_label, (void *)(intptr_t)loop->id);
}

void xf_auto_label_flush(xf_auto *a)
{
    for (int i = 0; i < a->to_label.len; i++) {
        ast_stmt *loop = xf_auto_loop_by_id(a->ctx, a->f, (int)(intptr_t)a->to_label.items[i]);
        if (loop)
            xf_auto_label(a, loop);
    }
    a->to_label.len = 0;
}

an_deps *xf_auto_deps(xf_auto *a)
{
    an_deps *d = an_func_deps(a->ctx, a->f);
    if (!d && a->ctx->deps_budget == 0)
        xf_auto_log(a, "auto", a->f->name, "analysis budget spent: no further tries");
    return d;
}

an_par xf_auto_loop_par(xf_auto *a, const ast_stmt *loop, const char **why)
{
    an_deps *d = an_loop_deps(a->ctx, a->f, loop);
    if (!d) {
        *why = "the dependence analysis failed";
        return AN_PAR_ERROR;
    }
    char *witness = NULL;
    an_par r = an_loop_parallel(d, loop, &witness);
    *why = witness ? xf_auto_first_line(a->ctx, witness) : "";
    an_deps_free(d);
    return r;
}

typedef struct leaf_count {
    ast_visitor v;
    int n;
} leaf_count;

static int leaf_count_cb(ast_visitor *v, ast_stmt *s)
{
    if (s->kind == AST_STORE || s->kind == AST_REDUCE || s->kind == AST_ASSERT)
        ((leaf_count *)v)->n++;
    return 1;
}

int xf_auto_small(xf_auto *a, int *n)
{
    leaf_count c = {.v.stmt = leaf_count_cb};
    ast_visit(a->f->body, &c.v);
    *n = c.n;
    return c.n <= XF_AUTO_CHECK_MAX;
}

int xf_auto_small_region(const ast_stmt *s, int *n)
{
    leaf_count c = {.v.stmt = leaf_count_cb};
    ast_visit((ast_stmt *)s, &c.v);
    *n = c.n;
    return c.n <= XF_AUTO_REGION_MAX;
}

ast_stmt *xf_auto_snapshot(xf_auto *a)
{
    return ast_clone_stmt(a->ctx, a->f->body, AST_CLONE_SAME);
}

void xf_auto_restore(xf_auto *a, ast_stmt *snap)
{
    a->f->body = snap;
}

int xf_auto_uses_any(const ast_expr *e, const ft_vec *names)
{
    for (int i = 0; e && i < names->len; i++)
        if (xf_expr_uses_var(e, names->items[i]))
            return 1;
    return 0;
}

int xf_auto_vary_range(ft_ctx *ctx, const ast_stmt *loop, ft_vec *vary)
{
    if (!xf_auto_uses_any(loop->u.loop.begin, vary) && !xf_auto_uses_any(loop->u.loop.end, vary) &&
        !xf_auto_uses_any(loop->u.loop.step, vary))
        return 0;
    ft_vec_push(ctx, vary, (void *)loop->u.loop.iter);
    return 1;
}

/* Whether load x (of a tensor with dimensions) at item reads an element
 * that exists wherever item runs: its indices read no tensor and lie in
 * the declared shape under the environment b. */
static int in_bounds(xf_auto *a, an_bounds *b, const ast_stmt *item, const ast_expr *x)
{
    int ndim;
    ast_expr **shape;
    if (!xf_find_decl(a->ctx, a->f, item, x->u.load.var, NULL, &ndim, &shape) ||
        ndim != x->u.load.n)
        return 0;
    for (int k = 0; k < ndim; k++) {
        ast_expr *i = x->u.load.idx[k];
        if (xf_expr_has_load(i))
            return 0;
        ast_expr *lo = ast_binary(a->ctx, i->loc, AST_GE, i, ast_int(a->ctx, i->loc, 0));
        ast_expr *hi = ast_binary(a->ctx, i->loc, AST_LT, i, shape[k]);
        if (!an_bounds_prove(b, lo) || !an_bounds_prove(b, hi))
            return 0;
    }
    return 1;
}

/* (auto_util.h) Loads in bounds or evaluated unguarded anyway. */
int xf_auto_speculable(xf_auto *a, an_bounds *b, const ast_stmt *item, const ast_expr *e,
                       const ft_vec *plain)
{
    if (!e)
        return 1;
    switch (e->kind) {
    case AST_LOAD:
        if (e->u.load.n == 0)
            return 1;
        for (int i = 0; i < plain->len; i++)
            if (ast_expr_equal(plain->items[i], e))
                return 1;
        return in_bounds(a, b, item, e);
    case AST_BINARY:
        return xf_auto_speculable(a, b, item, e->u.bin.a, plain) &&
               xf_auto_speculable(a, b, item, e->u.bin.b, plain);
    case AST_UNARY: return xf_auto_speculable(a, b, item, e->u.un.a, plain);
    case AST_CAST: return xf_auto_speculable(a, b, item, e->u.cast.a, plain);
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            if (!xf_auto_speculable(a, b, item, e->u.call.args[k], plain))
                return 0;
        return 1;
    case AST_IFEXPR:
        return xf_auto_speculable(a, b, item, e->u.ife.cond, plain) &&
               xf_auto_speculable(a, b, item, e->u.ife.then, plain) &&
               xf_auto_speculable(a, b, item, e->u.ife.other, plain);
    default: return 1;
    }
}

/* (auto_util.h) The bodies under item s, with b's facts on entering. */
int xf_auto_nested_bodies(xf_auto *a, an_bounds *b, ast_stmt *s, int skip_marked,
                          xf_auto_body_fn body)
{
    int mark = an_bounds_mark(b), done = 0;
    switch (s->kind) {
    case AST_FOR:
        if (skip_marked && (s->u.loop.par == AST_VECTORIZE || s->u.loop.par == AST_LIB))
            break;
        an_bounds_push_loop(b, s);
        done = body(a, b, s->u.loop.body);
        break;
    case AST_IF:
        an_bounds_push_cond(b, s->u.branch.cond, 1);
        done = body(a, b, s->u.branch.then);
        an_bounds_pop(b, mark);
        if (!done && s->u.branch.other) {
            an_bounds_push_cond(b, s->u.branch.cond, 0);
            done = body(a, b, s->u.branch.other);
        }
        break;
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n && !done; i++)
            done = body(a, b, s->u.seq.stmts[i]);
        break;
    default: break;
    }
    an_bounds_pop(b, mark);
    return done;
}

/* (auto_util.h) fn on *slot and the expressions below it, outer first,
 * with whether a guard keeps each from always running. */
void xf_auto_each_slot(ast_expr **slot, int guarded, xf_auto_slot_fn fn, void *arg)
{
    ast_expr *e = *slot;
    if (!e)
        return;
    fn(arg, slot, guarded);
    switch (e->kind) {
    case AST_LOAD:
        for (int k = 0; k < e->u.load.n; k++)
            xf_auto_each_slot(&e->u.load.idx[k], guarded, fn, arg);
        break;
    case AST_BINARY: {
        int lazy = e->u.bin.op == AST_AND || e->u.bin.op == AST_OR;
        xf_auto_each_slot(&e->u.bin.a, guarded, fn, arg);
        xf_auto_each_slot(&e->u.bin.b, guarded || lazy, fn, arg);
        break;
    }
    case AST_UNARY: xf_auto_each_slot(&e->u.un.a, guarded, fn, arg); break;
    case AST_CAST: xf_auto_each_slot(&e->u.cast.a, guarded, fn, arg); break;
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            xf_auto_each_slot(&e->u.call.args[k], guarded, fn, arg);
        break;
    case AST_IFEXPR:
        xf_auto_each_slot(&e->u.ife.cond, guarded, fn, arg);
        xf_auto_each_slot(&e->u.ife.then, 1, fn, arg);
        xf_auto_each_slot(&e->u.ife.other, 1, fn, arg);
        break;
    default: break;
    }
}

/* Where xf_auto_plain_loads puts what it finds. */
typedef struct plain_acc {
    ft_ctx *ctx;
    ft_vec *out;
} plain_acc;

/* The xf_auto_each_slot callback of xf_auto_plain_loads. */
static void push_plain(void *arg, ast_expr **slot, int guarded)
{
    plain_acc *p = arg;
    if ((*slot)->kind == AST_LOAD && (*slot)->u.load.n > 0 && !guarded)
        ft_vec_push(p->ctx, p->out, *slot);
}

/* (auto_util.h) Loads evaluated whenever e is. */
void xf_auto_plain_loads(ft_ctx *ctx, const ast_expr *e, int guarded, ft_vec *out)
{
    plain_acc p = {ctx, out};
    ast_expr *root = (ast_expr *)e;
    xf_auto_each_slot(&root, guarded, push_plain, &p);
}

