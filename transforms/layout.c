/* layout.c - the layout pass: declared physical layouts applied.
 *
 * Requires: the lowered AST (element-level, fully indexed), with each
 * `layout "L->P"` of a parameter (ast_param.layout) or a local
 * (def.layout) checked by the front end.
 * Provides: every such tensor stored physically (runtime/layout.h):
 * shape the physical dimensions, every access t[.., e, ..] rewritten to
 * the physical index (a blocked dimension's outer part e // B, each block
 * (e // inner) % b); a parameter keeps its logical shape in lshape for the
 * ABI.  A loop whose iterator is itself a blocked index is split by the
 * block, so that the simplifier folds (B*o + i) // B to o and the index is
 * a bare iterator again (its block loop marked for auto_layout_sink.c,
 * which brings it inward; so is a loop whose iterator is the bare index of
 * a permuted layout's innermost physical dimension, NHWC's C); the pad
 * elements of an `out` are written 0.  The
 * layouts of locals without a clause are chosen first, over the whole
 * function, and require_layout's conversions placed (layout_place.c).
 *
 * Always legal: a change of storage, every access rewritten.  Tensors
 * without a layout are untouched, so a program with no layout clause
 * compiles as before.
 */
#include "schedule.h"

#include <string.h>

#include "layout.h"
#include "auto/auto_util.h"
#include "sched_util.h"
#include "xf_util.h"
#include "../ast/visit.h"

/* What the pass learns while rewriting one function: the loops (by
 * statement id) whose iterator is used bare as a blocked index, with the
 * block product to split them by. */
typedef struct ly_state {
    ft_ctx *ctx;
    ast_func *f;
    ft_vec loops;            /* int64_t[3]: statement id, block, written */
} ly_state;

/* One rewrite: the accesses of var under a statement, with the loops
 * around the one being visited. */
typedef struct ly_walk {
    ly_state *st;
    const char *var;
    const rt_layout *l;
    ft_vec stack;            /* ast_stmt *: enclosing loops, outermost first */
} ly_walk;

/* The parsed layout of text (checked by the front end, so it parses). */
static rt_layout *parse(ft_ctx *ctx, const char *text, int ndim)
{
    rt_layout *l = ft_alloc(ctx, sizeof *l);
    if (rt_layout_parse(text, ndim, l, NULL, 0, NULL))
        return NULL;
    return l;
}

/* The physical shape of logical shape n under l. */
static ast_expr **phys_shape(ft_ctx *ctx, const rt_layout *l, ast_expr **n)
{
    ast_expr **p = ft_alloc(ctx, sizeof *p * (size_t)(l->nphys + 1));
    for (int k = 0; k < l->nphys; k++) {
        ast_expr *e = n[l->dim[k]];
        int64_t b = l->blocks[l->dim[k]];
        p[k] = l->block[k] ? ast_int(ctx, e->loc, l->block[k])
             : b > 1 ? xf_ceildiv(ctx, ast_clone_expr(ctx, e), b) : ast_clone_expr(ctx, e);
    }
    return p;
}

/* e // d (e when d is 1). */
static ast_expr *div_by(ft_ctx *ctx, ast_expr *e, int64_t d)
{
    return d == 1 ? e : ast_binary(ctx, e->loc, AST_FLOORDIV, e, ast_int(ctx, e->loc, d));
}

/* Remember that the innermost loop binding iterator e (a bare variable)
 * is split by b: e indexes a dimension blocked by b (the first block seen
 * for a loop wins); b = 1: e indexes the innermost physical dimension of
 * a permuted layout (NHWC's C), a loop only to mark for auto_layout_sink;
 * written: the access is a write. */
static void note_iter(ly_walk *w, const ast_expr *e, int64_t b, int written)
{
    if (e->kind != AST_VAR || b < 1)
        return;
    ast_stmt *loop = NULL;
    for (int i = w->stack.len - 1; i >= 0 && !loop; i--)
        if (strcmp(((ast_stmt *)w->stack.items[i])->u.loop.iter, e->u.name) == 0)
            loop = w->stack.items[i];
    if (!loop)
        return;
    for (int i = 0; i < w->st->loops.len; i++) {
        int64_t *m = w->st->loops.items[i];
        if (m[0] == loop->id) {
            m[2] |= written;
            if (m[1] == 1)
                m[1] = b;       /* a split beats a mark */
            return;
        }
    }
    int64_t *m = ft_alloc(w->st->ctx, sizeof *m * 3);
    m[0] = loop->id;
    m[1] = b;
    m[2] = written;
    ft_vec_push(w->st->ctx, &w->st->loops, m);
}

/* The physical index of logical index idx[l->ndim] under l. */
static ast_expr **phys_index(ly_walk *w, const rt_layout *l, ast_expr **idx, int written)
{
    ft_ctx *ctx = w->st->ctx;
    ast_expr **p = ft_alloc(ctx, sizeof *p * (size_t)(l->nphys + 1));
    for (int d = 0; d < l->ndim; d++)
        if (l->blocks[d] > 1)
            note_iter(w, idx[d], l->blocks[d], written);
    int last = l->dim[l->nphys - 1];
    if (!l->block[l->nphys - 1] && last != l->ndim - 1)
        note_iter(w, idx[last], 1, written);    /* contiguous, not the last logically */
    for (int k = 0; k < l->nphys; k++) {
        ast_expr *e = ast_clone_expr(ctx, idx[l->dim[k]]);
        if (l->block[k])
            p[k] = ast_binary(ctx, e->loc, AST_MOD, div_by(ctx, e, l->inner[k]),
                              ast_int(ctx, e->loc, l->block[k]));
        else
            p[k] = div_by(ctx, e, l->blocks[l->dim[k]]);
    }
    return p;
}

static void walk_expr(ly_walk *w, ast_expr *e);

/* Walk n index expressions; then, when they index w->var, rewrite them
 * (written: of a Store or a reduction). */
static void walk_index(ly_walk *w, const char *var, int *n, ast_expr ***idx, int written)
{
    for (int i = 0; i < *n; i++)
        walk_expr(w, (*idx)[i]);
    if (strcmp(var, w->var) != 0)
        return;
    *idx = phys_index(w, w->l, *idx, written);
    *n = w->l->nphys;
}

/* Rewrite the loads of w->var in e. */
static void walk_expr(ly_walk *w, ast_expr *e)
{
    switch (e->kind) {
    case AST_LOAD: walk_index(w, e->u.load.var, &e->u.load.n, &e->u.load.idx, 0); break;
    case AST_BINARY: walk_expr(w, e->u.bin.a); walk_expr(w, e->u.bin.b); break;
    case AST_UNARY: walk_expr(w, e->u.un.a); break;
    case AST_CAST: walk_expr(w, e->u.cast.a); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            walk_expr(w, e->u.call.args[i]);
        break;
    case AST_IFEXPR:
        walk_expr(w, e->u.ife.cond);
        walk_expr(w, e->u.ife.then);
        walk_expr(w, e->u.ife.other);
        break;
    default: break;
    }
}

/* Rewrite every access of w->var in s, noting the loops to split. */
static void walk_stmt(ly_walk *w, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            walk_stmt(w, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        for (int i = 0; i < s->u.def.ndim; i++)
            walk_expr(w, s->u.def.shape[i]);
        walk_stmt(w, s->u.def.body);
        break;
    case AST_FOR:
        walk_expr(w, s->u.loop.begin);
        walk_expr(w, s->u.loop.end);
        walk_expr(w, s->u.loop.step);
        ft_vec_push(w->st->ctx, &w->stack, s);
        walk_stmt(w, s->u.loop.body);
        w->stack.len--;
        break;
    case AST_IF:
        walk_expr(w, s->u.branch.cond);
        walk_stmt(w, s->u.branch.then);
        walk_stmt(w, s->u.branch.other);
        break;
    case AST_STORE:
        walk_expr(w, s->u.store.value);
        walk_index(w, s->u.store.var, &s->u.store.n, &s->u.store.idx, 1);
        break;
    case AST_REDUCE:
        walk_expr(w, s->u.red.value);
        walk_index(w, s->u.red.var, &s->u.red.n, &s->u.red.idx, 1);
        break;
    case AST_ASSERT: walk_expr(w, s->u.cond); break;
    case AST_EVAL: walk_expr(w, s->u.expr); break;
    }
}

/* Rewrite every access of var in s to l's physical index. */
static void rewrite_accesses(ly_state *st, ast_stmt *s, const char *var, const rt_layout *l)
{
    ly_walk w = {st, var, l, {0}};
    walk_stmt(&w, s);
}

/* The statement writing 0 to the pad elements that logical dimension d
 * of out parameter p (logical shape n, layout l) leaves in its last outer
 * block: loops over every other physical dimension and d's blocks, the
 * outer index fixed, guarded by the recomposed index reaching n[d]; NULL
 * when d is not blocked. */
static ast_stmt *pad_zero(ly_state *st, const ast_param *p, const rt_layout *l, ast_expr **n,
                          int d)
{
    ft_ctx *ctx = st->ctx;
    int64_t B = l->blocks[d];
    if (B <= 1)
        return NULL;
    ft_loc loc = p->loc;
    ast_expr **idx = ft_alloc(ctx, sizeof *idx * (size_t)(l->nphys + 1));
    const char **it = ft_alloc(ctx, sizeof *it * (size_t)(l->nphys + 1));
    ast_expr *last = ast_binary(ctx, loc, AST_FLOORDIV, ast_clone_expr(ctx, n[d]),
                                ast_int(ctx, loc, B));
    ast_expr *pos = xf_mul(ctx, ast_clone_expr(ctx, last), ast_int(ctx, loc, B));
    for (int k = 0; k < l->nphys; k++) {
        if (l->dim[k] == d && !l->block[k]) {
            idx[k] = ast_clone_expr(ctx, last);
            it[k] = NULL;
            continue;
        }
        it[k] = xf_free_name(ctx, st->f, ft_fmt(ctx, "pad_%s%d", p->name, k));
        idx[k] = ast_var(ctx, loc, it[k]);
        if (l->dim[k] == d)
            pos = xf_add(ctx, pos, xf_mul(ctx, ast_var(ctx, loc, it[k]),
                                          ast_int(ctx, loc, l->inner[k])));
    }
    ast_stmt *s = ast_store(ctx, loc, p->name, l->nphys, idx,
                            xf_convert(ctx, ast_int(ctx, loc, 0), p->dtype));
    s = ast_if(ctx, loc, ast_binary(ctx, loc, AST_GE, pos, ast_clone_expr(ctx, n[d])), s, NULL);
    ast_expr **ps = phys_shape(ctx, l, n);
    for (int k = l->nphys - 1; k >= 0; k--)
        if (it[k])
            s = ast_for(ctx, loc, it[k], ast_int(ctx, loc, 0), ps[k], ast_int(ctx, loc, 1), s);
    ast_expr *partial = ast_binary(ctx, loc, AST_NE,
                                   ast_binary(ctx, loc, AST_MOD, ast_clone_expr(ctx, n[d]),
                                              ast_int(ctx, loc, B)),
                                   ast_int(ctx, loc, 0));
    return ast_if(ctx, loc, partial, s, NULL);
}

/* Prepend s to f's body. */
static void prepend(ft_ctx *ctx, ast_func *f, ast_stmt *s)
{
    ast_stmt **two = ft_alloc(ctx, sizeof *two * 2);
    two[0] = s;
    two[1] = f->body;
    f->body = ast_seq(ctx, s->loc, 2, two);
}

/* Store tensor name (declared over scope, with layout text, *ndim and
 * *shape) physically: every access rewritten, *ndim and *shape the
 * physical ones.  Returns the layout, or NULL when there is none or it is
 * row-major (nothing done). */
static const rt_layout *relayout(ly_state *st, ast_stmt *scope, const char *name,
                                 const char *text, int *ndim, ast_expr ***shape)
{
    const rt_layout *l = text ? parse(st->ctx, text, *ndim) : NULL;
    if (!l || rt_layout_is_identity(l))
        return NULL;
    rewrite_accesses(st, scope, name, l);
    *shape = phys_shape(st->ctx, l, *shape);
    *ndim = l->nphys;
    return l;
}

/* Apply parameter p's layout (if any, and not row-major); its logical
 * shape is kept in lshape. */
static void apply_param(ly_state *st, ast_param *p)
{
    ast_expr **n = p->shape;
    int nd = p->ndim;
    const rt_layout *l = p->is_size ? NULL : relayout(st, st->f->body, p->name, p->layout,
                                                      &p->ndim, &p->shape);
    if (!l)
        return;
    p->lshape = n;
    p->lndim = nd;
    for (int d = 0; p->access == FT_ACC_OUT && d < l->ndim; d++) {
        ast_stmt *z = pad_zero(st, p, l, n, d);
        if (z)
            prepend(st->ctx, st->f, z);
    }
}

/* Visitor: apply the layout of each local that declares one. */
typedef struct ly_visit {
    ast_visitor v;
    ly_state *st;
} ly_visit;

static int visit_def(ast_visitor *v, ast_stmt *s)
{
    if (s->kind == AST_VARDEF)
        relayout(((ly_visit *)v)->st, s->u.def.body, s->u.def.name, s->u.def.layout,
                 &s->u.def.ndim, &s->u.def.shape);
    return 1;
}

/* Split each loop noted by note_iter by its block (a loop from 0 by 1:
 * o * B + i is its iterator), so that the blocked index is a bare
 * iterator once simplified; the block loop is marked (layout_block) for
 * the auto-scheduler, which brings it inward (auto_layout_sink.c). */
static void split_blocked_loops(ly_state *st)
{
    int split = 0;
    for (int i = 0; i < st->loops.len; i++) {
        const int64_t *m = st->loops.items[i];
        ast_stmt *loop = xf_auto_loop_by_id(st->ctx, st->f, (int)m[0]);
        if (!loop || loop->u.loop.par != AST_SERIAL || !xf_loop_from_zero(loop))
            continue;
        if (m[1] == 1) {    /* a permuted contiguous dimension: marked, not split */
            loop->u.loop.layout_block = 1 + (m[2] != 0);
            continue;
        }
        if (xf_split_unfinished(st->ctx, st->f, loop, m[1], 0, 0, NULL, NULL, loop->loc))
            break;    /* refused: past --max-loop-depth (an error that says so) */
        split = 1;
        loop = xf_auto_loop_by_id(st->ctx, st->f, (int)m[0]);
        if (loop && loop->u.loop.body->kind == AST_FOR)
            loop->u.loop.body->u.loop.layout_block = 1 + (m[2] != 0);
    }
    if (split)
        xf_sched_finish(st->ctx, st->f);    /* once, not once per split */
}

/* ------------------------------------------------------------ inference */

int xf_apply_layouts(ft_ctx *ctx, ast_program *p)
{
    int errors = ctx->nerrors;
    for (int i = 0; i < p->nfuncs; i++) {
        ly_state st = {.ctx = ctx, .f = p->funcs[i]};
        ly_visit lv = {{visit_def, NULL}, &st};
        xf_place_layouts(ctx, st.f);  /* layout_place.c: locals' layouts, conversions */
        ast_visit(st.f->body, &lv.v);
        for (int k = 0; k < st.f->nparams; k++)
            apply_param(&st, &st.f->params[k]);
        split_blocked_loops(&st);   /* the cleanups' simplify folds what is left */
    }
    return ctx->nerrors > errors;
}
