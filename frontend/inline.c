/* inline.c - calls of non-exported functions: inlining and partial
 * evaluation.
 *
 * A call binds each parameter to the value of its argument (a tensor view
 * is passed by reference, never copied; a scalar by value), then lowers the
 * callee's body right there, in a scope that sees only the parameters and
 * the globals.  Conditions the callee can decide at compile time (shapes,
 * ndim, dtypes, constants) choose their branch now, so recursion over
 * dimensions unrolls into plain loop nests.  The callee's `var`s stay alive
 * until the caller's block ends, so a returned tensor is still there.
 */
#include "lw.h"
#include "../ast/visit.h"

#include <string.h>

enum { MAX_INLINE_DEPTH = 64 };

/* "f -> g -> f -> ... -> g" for the recursion error: the exported function,
 * the first calls and the last ones. */
static const char *call_chain(lw *L, const char *last)
{
    const char *names[MAX_INLINE_DEPTH + 1];
    int n = 0;
    names[n++] = last;
    for (lw_frame *f = L->frame; f && n <= MAX_INLINE_DEPTH; f = f->up)
        names[n++] = f->func;
    const char *s = L->export_name ? L->export_name : "";
    for (int i = n - 1; i >= 0; i--) {
        if (i == n - 5 && n > 8) {
            s = ft_fmt(L->ctx, "%s -> ...", s);
            i = 3;
        }
        s = *s ? ft_fmt(L->ctx, "%s -> %s", s, names[i]) : names[i];
    }
    return s;
}

/* The index of parameter `name` of fn, or -1. */
static int param_index(const pt_node *params, const char *name)
{
    for (int i = 0; i < params->nkids; i++)
        if (strcmp(params->kids[i]->name, name) == 0)
            return i;
    return -1;
}

/* A parameter's default value, lowered where only globals are visible. */
static lw_val *default_value(lw *L, const pt_node *p)
{
    lw_sym *base = L->scope_base;
    L->scope_base = L->syms;
    lw_val *v = lw_expr(L, p->kids[1]);
    L->scope_base = base;
    return v;
}

/* Evaluate the arguments of call and match them to fn's parameters;
 * NULL after an error. */
static lw_val **bind_args(lw *L, const pt_node *fn, const pt_node *call)
{
    const pt_node *params = fn->kids[0];
    int np = params->nkids, npos = 0, ok = 1;
    lw_val **vals = ft_alloc(L->ctx, sizeof *vals * (size_t)(np + 1));
    for (int i = 1; i < call->nkids; i++) {
        const pt_node *a = call->kids[i];
        int k = a->kind == PT_KWARG ? param_index(params, a->name) : npos++;
        if (k < 0) {
            ft_error(L->ctx, a->loc, "%s() has no parameter '%s'", fn->name, a->name);
            return NULL;
        }
        if (k >= np) {
            ft_error(L->ctx, a->loc, "%s() takes %d argument%s, but more were given",
                     fn->name, np, np == 1 ? "" : "s");
            return NULL;
        }
        if (vals[k]) {
            ft_error(L->ctx, a->loc, "%s(): parameter '%s' is given twice", fn->name,
                     params->kids[k]->name);
            return NULL;
        }
        if (!(vals[k] = lw_expr(L, a->kind == PT_KWARG ? a->kids[0] : a)))
            ok = 0;
    }
    for (int k = 0; k < np && ok; k++) {
        const pt_node *p = params->kids[k];
        if (!vals[k] && p->nkids > 1 && p->kids[1])
            vals[k] = default_value(L, p);
        if (!vals[k]) {
            ft_error(L->ctx, call->loc, "%s(): missing the argument '%s'", fn->name, p->name);
            ok = 0;
        }
    }
    return ok ? vals : NULL;
}

/* Check a typed parameter of an inline function against its argument. */
static int check_typed(lw *L, const pt_node *p, const lw_val *v, ft_loc loc)
{
    const pt_node *type = p->kids[0];
    if (!type)
        return 1;
    if (type->nkids > 2 && type->kids[2]) {
        ft_error(L->ctx, type->kids[2]->loc, "a layout is declared on a parameter of an "
                 "exported function or on a `var`; '%s' takes its argument's layout", p->name);
        return 0;
    }
    int dt = ft_dtype_from_name(type->name);
    int nd = type->kids[0] ? type->kids[0]->nkids : 0;
    if (dt >= 0 && (v->kind == V_SCALAR || v->kind == V_TENSOR) &&
        (int)lw_val_dtype(v) == dt && lw_val_ndim(v) == nd)
        return 1;
    ft_error(L->ctx, loc, "argument '%s' should be %s with %d dimension%s", p->name,
             type->name, nd, nd == 1 ? "" : "s");
    return 0;
}

/* Prepare the value of parameter p: `out`/`inout` need a writable tensor;
 * read-only parameters lose write access, and a lazy value that reads
 * something the callee writes is computed first.  A scalar value larger
 * than --max-expr-size nodes is computed first too: the callee may use
 * its parameter twice, and a chain of such calls (g(x + x) calling
 * h(x + x) ...) would double the expression at each call. */
static lw_val *param_value(lw *L, const pt_node *p, lw_val *v, lw_val **all, int np,
                           const pt_node *params, ft_loc loc)
{
    if (!check_typed(L, p, v, loc))
        return NULL;
    if (p->op == PT_ACC_OUT || p->op == PT_ACC_INOUT) {
        if (v->kind != V_TENSOR || !v->t->is_view || !v->writable) {
            ft_error(L->ctx, loc, "the argument for '%s' must be a tensor that can be "
                     "written (a variable, an `out`/`inout` parameter, or a part of one)",
                     p->name);
            return NULL;
        }
        return v;
    }
    for (int k = 0; k < np; k++) {
        int writes = params->kids[k]->op == PT_ACC_OUT || params->kids[k]->op == PT_ACC_INOUT;
        if (writes && all[k]->kind == V_TENSOR &&
            ((v->kind == V_TENSOR && !v->t->is_view && lw_val_reads(v, all[k]->t->base)) ||
             (v->kind == V_SCALAR && xf_expr_reads(v->scalar, all[k]->t->base->ast_name))))
            return lw_materialize(L, v, p->name, loc);
    }
    if (v->kind == V_SCALAR &&
        ast_expr_size(v->scalar, L->ctx->opts.budget.expr_size) > L->ctx->opts.budget.expr_size)
        return lw_materialize(L, v, p->name, loc);   /* a large shared value: above */
    if (v->kind != V_TENSOR)
        return v;
    lw_val *c = lw_tensor_val(L, v->t, 0);
    return c;
}

/* Whether v is the whole of a local declared by the frame being left. */
static int fresh_result(const lw *L, const lw_val *v)
{
    if (v->kind != V_TENSOR || !v->t->is_view)
        return 0;
    const lw_tensor *t = v->t;
    if (t->base->access != FT_ACC_CACHE || t->base->frame <= L->nframes ||
        t->ndim != t->base->ndim)
        return 0;
    for (int d = 0; d < t->ndim; d++)
        if (t->fixed[d] || t->offset[d] || t->vdim[d] != d)
            return 0;
    return 1;
}

/* Count one more inlined call into the exported function; 0 (after an
 * error at call, once per exported function) past --max-inline: a chain of
 * functions each calling the next twice makes 2^n calls from n lines. */
static int inline_budget(lw *L, const pt_node *call, const char *callee)
{
    int64_t max = L->ctx->opts.budget.inline_calls;
    if (++L->ninlined <= max)
        return 1;
    L->over_budget = 1;
    if (L->ninlined == max + 1)
        ft_error(L->ctx, call->loc, "inlining %s() here makes more than %lld inlined calls "
                 "in %s (the budget --max-inline %lld; raise it, or call fewer functions, "
                 "e.g. compute a repeated call once in a `var`)", callee, (long long)max,
                 L->export_name ? L->export_name : "this function", (long long)max);
    return 0;
}

lw_val *lw_call_func(lw *L, lw_sym *f, const pt_node *call)
{
    const pt_node *fn = f->node, *params = fn->kids[0];
    if (!inline_budget(L, call, fn->name))
        return NULL;
    if (L->nframes >= MAX_INLINE_DEPTH) {
        ft_error(L->ctx, call->loc, "inlining goes %d calls deep without ending: %s; "
                 "recursion must end at compile time", MAX_INLINE_DEPTH,
                 call_chain(L, fn->name));
        return NULL;
    }
    lw_val **vals = bind_args(L, fn, call);
    if (!vals)
        return NULL;
    for (int k = 0; k < params->nkids; k++)
        if (!(vals[k] = param_value(L, params->kids[k], vals[k], vals, params->nkids, params,
                                    call->loc)))
            return NULL;
    int errors_before = L->ctx->nerrors;
    ft_call *site = ft_alloc(L->ctx, sizeof *site);
    site->at = call->loc;
    site->at.via = L->frame ? L->frame->call : NULL;
    site->func = fn->name;
    lw_frame fr = {.func = fn->name, .up = L->frame, .rt_depth = L->rt_depth,
                   .rt_ifs = L->rt_ifs, .fn_src = fn->loc.src, .call = site};
    lw_sym *mark = lw_push_scope(L), *base = L->scope_base;
    L->scope_base = mark;
    L->frame = &fr;
    L->nframes++;
    for (int k = 0; k < params->nkids; k++) {
        lw_sym *s = lw_declare(L, SYM_VALUE, params->kids[k]->name, params->kids[k]->loc);
        if (s)
            s->value = vals[k];
    }
    lw_lower_stmts(L, fn->kids[1]);
    L->nframes--;
    L->frame = fr.up;
    L->scope_base = base;
    lw_pop_scope(L, mark);
    lw_val *r = fr.ret;
    if (L->ctx->nerrors > errors_before) {
        /* reported in the body: no value (not None) to go on with; an error
         * in another file (the stdlib) also names the call that led there */
        if (call->loc.src != fn->loc.src && !fr.reported)
            ft_note(L->ctx, call->loc, "in this call of %s()", fn->name);
        return NULL;
    }
    if (!r) {
        r = ft_alloc(L->ctx, sizeof *r);
        r->kind = V_NONE;
    } else if (fresh_result(L, r)) {
        r = lw_tensor_val(L, r->t, 1);
        r->t->fresh = 1;
    }
    return r;
}

int lw_lower_return(lw *L, const pt_node *n)
{
    if (!L->frame) {
        ft_error(L->ctx, n->loc, "an exported function returns through its `out` "
                 "parameters; `return` is for inline functions");
        return 0;
    }
    if (L->rt_depth != L->frame->rt_depth) {
        ft_error(L->ctx, n->loc, "`return` inside a loop or a run-time `if` is not "
                 "supported; return at the end of the function");
        return 0;
    }
    lw_val *v = NULL;
    if (n->kids[0] && !(v = lw_expr(L, n->kids[0])))
        return 0;
    L->frame->ret = v;
    L->frame->returned = 1;
    return 1;
}
