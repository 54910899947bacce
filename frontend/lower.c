/* lower.c - from the parse tree to the AST: scopes, statements, functions.
 *
 * Requires: a PT_FILE from ft_parse (and the stdlib's).
 * Provides: an ast_program (see lower.h for its invariants).
 *
 * Statements are emitted into a builder: a stack of open statement lists.
 * A `var` opens an AST VarDef whose body collects everything emitted after
 * it until its block ends, which is how a `var` scopes over the rest of
 * its block; expressions may emit statements too (temporaries they need).
 * Errors are reported and lowering goes on with the next statement, so one
 * run reports as many mistakes as it can.
 */
#include "lw.h"
#include "layout.h"
#include "rt.h"
#include "../ast/visit.h"

#include <string.h>

/* ---------------------------------------------------------------- names */

/* Whether global s is visible from code in file src: the program's own
 * consts and functions are not visible from the stdlib, whose names (f32,
 * sum, ...) must mean what the stdlib means whatever the program defines
 * (a program's `func f32` broke every stdlib call that compares dtypes). */
static int lw_global_visible(const lw_sym *s, const ft_source *src)
{
    return s->depth != LW_PROGRAM_FILE || s->loc.src == src;
}

lw_sym *lw_lookup(lw *L, const char *name, ft_loc at)
{
    for (lw_sym *s = L->syms; s && s != L->scope_base; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    for (lw_sym *s = L->globals; s; s = s->next)
        if (strcmp(s->name, name) == 0 && lw_global_visible(s, at.src))
            return s;
    return NULL;
}

/* An open builder frame: statements collected for a block or a VarDef. */
typedef struct lw_bframe {
    ft_vec stmts;
    ast_stmt *def;
} lw_bframe;

/* Whether an AST name is taken by a visible tensor, size or iterator, or by
 * a VarDef still open (a callee's locals outlive its symbols). */
static int name_taken(lw *L, const char *ast_name)
{
    for (lw_sym *s = L->syms; s; s = s->next)
        if ((s->kind == SYM_SIZE || s->kind == SYM_ITER || s->kind == SYM_TENSOR) &&
            strcmp(s->ast_name, ast_name) == 0)
            return 1;
    for (int i = 0; i < L->bstack.len; i++) {
        const lw_bframe *f = L->bstack.items[i];
        if (f->def && strcmp(f->def->u.def.name, ast_name) == 0)
            return 1;
    }
    return 0;
}

/* The AST name of a new local: the user's name, or name_1, name_2, ... when
 * it would shadow a visible one, so that every name in scope at any point
 * of the AST is unique and passes may move code across scopes. */
const char *lw_unique_name(lw *L, const char *name)
{
    const char *cand = name;
    for (int k = 1; name_taken(L, cand); k++)
        cand = ft_fmt(L->ctx, "%s_%d", name, k);
    return cand;
}

lw_sym *lw_declare(lw *L, lw_sym_kind kind, const char *name, ft_loc loc)
{
    if (strncmp(name, "ft__", 4) == 0) {
        ft_error(L->ctx, loc, "names starting with 'ft__' are reserved for the compiler");
        return NULL;
    }
    for (lw_sym *old = L->syms; old && old != L->scope_base; old = old->next)
        if (old->depth == L->depth && strcmp(old->name, name) == 0) {
            ft_error(L->ctx, loc, "'%s' is already defined in this scope", name);
            if (old->loc.src)
                ft_note(L->ctx, old->loc, "'%s' was defined here", name);
            return NULL;
        }
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    s->kind = kind;
    s->name = name;
    s->depth = L->depth;
    s->loc = loc;
    s->frame = L->nframes;
    s->ast_name = kind == SYM_VALUE ? name : lw_unique_name(L, name);
    s->next = L->syms;
    L->syms = s;
    return s;
}

void lw_rebind(lw *L, const char *name, lw_val *value, ft_loc loc)
{
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    *s = (lw_sym){.kind = SYM_VALUE, .name = name, .ast_name = name, .depth = L->depth,
                  .loc = loc, .value = value, .frame = L->nframes, .next = L->syms};
    L->syms = s;
}

/* A const or function, visible everywhere; later definitions win. */
static lw_sym *declare_global(lw *L, lw_sym_kind kind, const pt_node *n, int check_dup)
{
    for (lw_sym *old = L->globals; old && check_dup; old = old->next)
        if (old->depth == check_dup && strcmp(old->name, n->name) == 0) {
            ft_error(L->ctx, n->loc, "'%s' is already defined in this file", n->name);
            return NULL;
        }
    lw_sym *s = ft_alloc(L->ctx, sizeof *s);
    s->kind = kind;
    s->name = s->ast_name = n->name;
    s->loc = n->loc;
    s->node = n;
    s->depth = check_dup;
    s->next = L->globals;
    L->globals = s;
    return s;
}

lw_sym *lw_push_scope(lw *L)
{
    L->depth++;
    return L->syms;
}

void lw_pop_scope(lw *L, lw_sym *mark)
{
    L->depth--;
    L->syms = mark;
}

/* A label, unique in the function: the user's own labels must be unique;
 * labels of inlined code get a suffix when they repeat. */
const char *lw_label(lw *L, const char *label)
{
    const char *cand = label;
    for (int k = 1;; k++) {
        int used = 0;
        for (int i = 0; i < L->labels.len && !used; i++)
            used = strcmp(L->labels.items[i], cand) == 0;
        if (!used)
            break;
        cand = ft_fmt(L->ctx, "%s_%d", label, k);
    }
    ft_vec_push(L->ctx, &L->labels, (void *)cand);
    return cand;
}

/* -------------------------------------------------------------- builder */

static lw_bframe *top_frame(lw *L)
{
    return L->bstack.items[L->bstack.len - 1];
}

/* Stamps the call of an inline frame on statements not stamped yet. */
typedef struct lw_stamp {
    ast_visitor v;
    const ft_call *call;
} lw_stamp;

/* Stamp s (and, when it was not stamped before, its children). */
static int lw_stamp_cb(ast_visitor *v, ast_stmt *s)
{
    if (s->loc.via)
        return 0;   /* stamped when emitted inside a deeper call */
    s->loc.via = ((lw_stamp *)v)->call;
    return 1;
}

/* Add s to the open block.  Inside an inlined call, s and the statements
 * under it remember the call (ft_loc.via), so that a run-time check in
 * them can report the user's call site (backend/cg_sites.c). */
void lw_emit(lw *L, ast_stmt *s)
{
    if (L->frame && s) {
        lw_stamp st = {.v.stmt = lw_stamp_cb, .call = L->frame->call};
        ast_visit(s, &st.v);
    }
    ft_vec_push(L->ctx, &top_frame(L)->stmts, s);
}

/* Count one more open local; the one past --max-locals is an error at def
 * (once per exported function), and the function's lowering stops. */
static void locals_budget(lw *L, const ast_stmt *def)
{
    int64_t max = L->ctx->opts.budget.locals;
    if (L->nopen_defs++ != max)
        return;
    L->over_budget = 1;
    ft_error(L->ctx, def->loc, "more than %lld locals are open at once in %s here (the "
             "budget --max-locals %lld: each `var` is in scope to the end of its block, and "
             "the compiler nests that deep; raise it, or reuse locals or put parts in "
             "blocks of their own)", (long long)max,
             L->export_name ? L->export_name : "this function", (long long)max);
}

void lw_open_def(lw *L, ast_stmt *def)
{
    locals_budget(L, def);
    lw_emit(L, def);
    lw_bframe *f = ft_alloc(L->ctx, sizeof *f);
    f->def = def;
    ft_vec_push(L->ctx, &L->bstack, f);
}

int lw_block_begin(lw *L)
{
    ft_vec_push(L->ctx, &L->bstack, ft_alloc(L->ctx, sizeof(lw_bframe)));
    return L->bstack.len - 1;
}

/* One statement for a list: itself when alone, else a sequence. */
static ast_stmt *seq_of(lw *L, ft_vec *v)
{
    if (v->len == 1)
        return v->items[0];
    return ast_seq(L->ctx, (ft_loc){0}, v->len, (ast_stmt **)v->items);
}

ast_stmt *lw_block_end(lw *L, int mark)
{
    while (L->bstack.len - 1 > mark) {
        lw_bframe *f = L->bstack.items[--L->bstack.len];
        f->def->u.def.body = seq_of(L, &f->stmts);
        L->nopen_defs--;
    }
    lw_bframe *root = L->bstack.items[--L->bstack.len];
    return seq_of(L, &root->stmts);
}

/* Lower a block of a run-time construct into one statement. */
static ast_stmt *lower_block(lw *L, const pt_node *block)
{
    int mark = lw_block_begin(L);
    lw_sym *scope = lw_push_scope(L);
    lw_lower_stmts(L, block);
    lw_pop_scope(L, scope);
    return lw_block_end(L, mark);
}

/* ----------------------------------------------------------- statements */

/* The tensor an assignment writes: a writable view; NULL after an error
 * that says why the name cannot be written. */
static lw_val *lower_target(lw *L, const pt_node *tg)
{
    if (tg->kind == PT_INDEX) {
        lw_val *base = lower_target(L, tg->kids[0]);
        return base ? lw_index(L, base, tg->nkids - 1, (const pt_node *const *)tg->kids + 1,
                               tg->loc) : NULL;
    }
    if (tg->kind != PT_NAME) {
        ft_error(L->ctx, tg->loc, "cannot assign to this expression");
        return NULL;
    }
    lw_sym *s = lw_lookup(L, tg->name, tg->loc);
    if (!s) {
        ft_error(L->ctx, tg->loc, "unknown variable '%s'", tg->name);
        return NULL;
    }
    if (s->kind == SYM_ITER || s->kind == SYM_SIZE || s->kind == SYM_CONST ||
        s->kind == SYM_FUNC) {
        ft_error(L->ctx, tg->loc, "cannot assign to '%s': it is a %s", tg->name,
                 s->kind == SYM_ITER ? "loop iterator" : s->kind == SYM_SIZE ? "size parameter"
                 : s->kind == SYM_CONST ? "constant" : "function");
        return NULL;
    }
    lw_val *v = s->kind == SYM_TENSOR ? lw_view_of(L, s, 1) : s->value;
    if (!v)         /* a `var` whose value was an error, already reported */
        return NULL;
    if (v->kind != V_TENSOR || !v->writable) {
        ft_error(L->ctx, tg->loc, "cannot write to '%s': it is %s", tg->name,
                 s->kind == SYM_TENSOR ? "an `in` parameter (declare it `inout` to modify it)"
                 : v->kind == V_TENSOR ? "a read-only parameter (mark it `out` or `inout`)"
                 : "not a tensor");
        return NULL;
    }
    return v;
}

/* `x = e`, `x += e`, `x -= e`, `x *= e` on elements or whole regions. */
static void lower_assign(lw *L, const pt_node *n)
{
    if (n->kids[0]->kind == PT_TUPLE) {
        ft_error(L->ctx, n->loc, "tuple assignment is only allowed in schedules");
        return;
    }
    lw_val *t = lower_target(L, n->kids[0]);
    lw_val *v = lw_expr(L, n->kids[1]);
    if (!t || !v)
        return;
    if (v->kind != V_SCALAR && v->kind != V_TENSOR) {
        ft_error(L->ctx, n->kids[1]->loc, "only numbers and tensors can be stored");
        return;
    }
    lw_assign(L, t, n->op, v, n->kids[1]->loc);
}

/* Whether a range of constant bounds has more iterations than an int64
 * counts (range(-2^63, 2^63 - 1) has 2^64 - 1): reported at loc, since
 * no trip count could be computed for it and it would never end anyway. */
static int lw_range_too_long(lw *L, const ast_expr *b, const ast_expr *e, const ast_expr *s,
                             ft_loc loc)
{
    int64_t n;
    if (b->kind != AST_INT || e->kind != AST_INT || s->kind != AST_INT ||
        xf_range_trips(b->u.ival, e->u.ival, s->u.ival, &n))
        return 0;
    ft_error(L->ctx, loc, "range(%lld, %lld, %lld) has more than 2^63 - 1 iterations",
             (long long)b->u.ival, (long long)e->u.ival, (long long)s->u.ival);
    return 1;
}

/* `for i in range(...)`: 1 to 3 integer arguments, a non-zero step. */
static void lower_for(lw *L, const pt_node *n)
{
    const pt_node *r = n->kids[0];
    int nargs = r->nkids - 1;
    if (nargs < 1 || nargs > 3) {
        ft_error(L->ctx, r->loc, "range() takes 1 to 3 arguments, but %d %s given", nargs,
                 nargs == 1 ? "was" : "were");
        return;
    }
    ast_expr *a[3] = {0};
    for (int i = 0; i < nargs; i++) {
        if (r->kids[i + 1]->kind == PT_KWARG) {
            ft_error(L->ctx, r->kids[i + 1]->loc, "range() takes no keyword arguments");
            return;
        }
        a[i] = lw_int_expr(L, r->kids[i + 1], "a range() argument");
    }
    if (!a[0] || (nargs > 1 && !a[1]) || (nargs > 2 && !a[2]))
        return;
    ast_expr *begin = nargs == 1 ? ast_int(L->ctx, r->loc, 0) : a[0];
    ast_expr *end = nargs == 1 ? a[0] : a[1];
    ast_expr *step = nargs == 3 ? a[2] : ast_int(L->ctx, r->loc, 1);
    if (step->kind == AST_INT && step->u.ival == 0) {
        ft_error(L->ctx, r->kids[3]->loc, "range() step must not be zero");
        return;
    }
    if (lw_range_too_long(L, begin, end, step, r->loc))
        return;
    lw_sym *mark = lw_push_scope(L);
    lw_sym *it = lw_declare(L, SYM_ITER, n->name, n->loc);
    L->rt_depth++;
    ast_stmt *body = lower_block(L, n->kids[1]);
    L->rt_depth--;
    lw_pop_scope(L, mark);
    if (it)
        lw_emit(L, ast_for(L->ctx, n->loc, it->ast_name, begin, end, step, body));
}

/* `if`: a condition known at compile time lowers only its branch, in
 * place (partial evaluation); otherwise an AST If. */
static void lower_if(lw *L, const pt_node *n)
{
    lw_val *cv = lw_expr(L, n->kids[0]);
    ast_expr *c = cv ? lw_to_scalar(L, cv, n->kids[0]->loc) : NULL;
    const pt_node *o = n->nkids > 2 ? n->kids[2] : NULL;
    int known = c ? lw_const_bool(lw_scalar_val(L, c)) : -1;
    if (!c && L->frame)
        return;     /* in an inlined call the condition may have chosen between
                     * compile-time branches: lowering both reports false errors */
    if (known >= 0) {
        const pt_node *b = known ? n->kids[1] : o;
        lw_sym *mark = lw_push_scope(L);
        if (b && b->kind == PT_IF)
            lower_if(L, b);
        else if (b)
            lw_lower_stmts(L, b);
        lw_pop_scope(L, mark);
        return;
    }
    L->rt_depth++;
    L->rt_ifs++;
    ast_stmt *then = lower_block(L, n->kids[1]), *other = NULL;
    if (o && o->kind == PT_IF) {
        int mark = lw_block_begin(L);
        lower_if(L, o);
        other = lw_block_end(L, mark);
    } else if (o) {
        other = lower_block(L, o);
    }
    L->rt_depth--;
    L->rt_ifs--;
    if (c)
        lw_emit(L, ast_if(L->ctx, n->loc, lw_as_bool(L, c), then, other));
}

/* An expression statement: a call of a function (its result is dropped). */
static void lower_exprstmt(lw *L, const pt_node *n)
{
    const pt_node *e = n->kids[0];
    if (e->kind != PT_CALL) {
        ft_error(L->ctx, e->loc, "this expression has no effect");
        return;
    }
    const pt_node *callee = e->kids[0];
    lw_sym *f = callee->kind == PT_NAME ? lw_lookup(L, callee->name, callee->loc) : NULL;
    lw_val *v = lw_expr(L, e);
    if (v && v->kind != V_NONE && !(f && f->kind == SYM_FUNC))
        ft_error(L->ctx, e->loc, "the result of this call is not used");
}

/* The dtype named by a PT_TYPE, or -1 after an error. */
static int type_dtype(lw *L, const pt_node *type)
{
    int dt = ft_dtype_from_name(type->name);
    if (dt < 0)
        ft_error(L->ctx, type->loc, "unknown dtype '%s' (use f32, f64, i32, i64, bool, f16%s)",
                 type->name, strcmp(type->name, "size") == 0 ? "; `size` is for parameters" : "");
    return dt;
}

/* The memory type of a PT_TYPE (cpu when absent), or -1 after an error. */
static int type_mtype(lw *L, const pt_node *type)
{
    const pt_node *m = type->nkids > 1 ? type->kids[1] : NULL;
    if (!m)
        return FT_MT_CPU;
    int mt = ft_mtype_from_name(m->name);
    if (mt < 0)
        ft_error(L->ctx, m->loc, "unknown memory type '%s' (use cpu, gpu, gpu/shared, "
                 "gpu/local)", m->name);
    return mt;
}

/* The layout a PT_TYPE declares, as text checked for ndim dimensions
 * (runtime/layout.c): NULL when it declares none; *ok = 0 after an error,
 * located at the fault inside a literal. */
static const char *type_layout(lw *L, const pt_node *type, int ndim, int *ok)
{
    const pt_node *y = type->nkids > 2 ? type->kids[2] : NULL;
    if (!y)
        return NULL;
    const char *text = y->str, *of = "";
    if (y->kind == PT_NAME) {
        lw_val *v = lw_expr(L, y);
        if (v && v->kind != V_STRING)
            ft_error(L->ctx, y->loc, "the layout '%s' is not a string: a layout is written "
                     "\"L->P\", e.g. \"NCHW->NHWC\"", y->name);
        if (!v || v->kind != V_STRING) {
            *ok = 0;
            return NULL;
        }
        text = v->str;
        of = ft_fmt(L->ctx, " (const %s)", y->name);
    }
    rt_layout l;
    char err[160];
    int col = 0;
    if (!rt_layout_parse(text, ndim, &l, err, sizeof err, &col))
        return text;
    ft_loc at = y->loc;
    if (y->kind == PT_STRING)
        at.col += col + 1;
    ft_error(L->ctx, at, "bad layout \"%s\"%s: %s", text, of, err);
    *ok = 0;
    return NULL;
}

/* A dimension list of a type, as integer expressions; NULL after errors. */
static ast_expr **lower_dims(lw *L, const pt_node *dims, const char *of)
{
    int ok = 1;
    ast_expr **shape = ft_alloc(L->ctx, sizeof *shape * (size_t)(dims->nkids + 1));
    for (int i = 0; i < dims->nkids; i++)
        if (!(shape[i] = lw_int_expr(L, dims->kids[i],
                                     ft_fmt(L->ctx, "a dimension of '%s'", of))))
            ok = 0;
    return ok ? shape : NULL;
}

/* `var x: T [= e]`: a new tensor, initialised when e is given. */
static void lower_typed_var(lw *L, const pt_node *n, lw_val *init)
{
    const pt_node *type = n->kids[0], *dims = type->kids[0];
    int dt = type_dtype(L, type), mt = type_mtype(L, type), ndim = dims ? dims->nkids : 0;
    ast_expr **shape = dims ? lower_dims(L, dims, n->name) : NULL;
    lw_sym *s = lw_declare(L, SYM_TENSOR, n->name, n->loc);
    if (!s)
        return;
    s->dtype = dt < 0 ? FT_F32 : (ft_dtype)dt;     /* set even after an error, */
    s->ndim = ndim;                                 /* so uses raise no more */
    s->shape = shape;
    s->access = FT_ACC_CACHE;
    if (dt < 0 || mt < 0 || (ndim && !shape)) {
        s->shape = ft_alloc(L->ctx, sizeof(ast_expr *) * (size_t)(ndim + 1));
        for (int k = 0; k < ndim; k++)
            s->shape[k] = ast_int(L->ctx, n->loc, 1);
        return;
    }
    int ok = 1;
    const char *layout = type_layout(L, type, ndim, &ok);
    ast_stmt *def = ast_vardef(L->ctx, n->loc, s->ast_name, s->dtype, ndim, shape,
                               FT_ACC_CACHE, (ft_mtype)mt, NULL);
    def->u.def.layout = layout;
    s->def = def;
    s->layout = layout;
    lw_open_def(L, def);
    if (init && ok)
        lw_assign(L, lw_view_of(L, s, 1), PT_OP_ASSIGN, init, n->kids[1]->loc);
}

/* `var x = e`: a copy of e's value (a fresh temporary is taken over as it
 * is); compile-time values (dtypes, lists, None) are bound by name. */
static void lower_untyped_var(lw *L, const pt_node *n, lw_val *v)
{
    if (v->kind == V_SCALAR) {
        ft_dtype t = v->scalar->kind == AST_INT ? FT_I64
                   : v->scalar->kind == AST_FLOAT ? FT_F32 : v->scalar->dtype;
        lw_sym *s = lw_declare(L, SYM_TENSOR, n->name, n->loc);
        if (!s)
            return;
        s->dtype = t;
        s->access = FT_ACC_CACHE;
        lw_open_def(L, ast_vardef(L->ctx, n->loc, s->ast_name, t, 0, NULL, FT_ACC_CACHE,
                                  FT_MT_CPU, NULL));
        lw_assign(L, lw_view_of(L, s, 1), PT_OP_ASSIGN, v, n->kids[1]->loc);
        return;
    }
    if (v->kind == V_TENSOR && !v->t->fresh)
        v = lw_materialize(L, v, n->name, n->loc);
    lw_sym *s = v ? lw_declare(L, SYM_VALUE, n->name, n->loc) : NULL;
    if (s)
        s->value = v;
}

/* The VarDef still open (its block not ended) that declares the AST name
 * ast_name, innermost first; NULL if none. */
static ast_stmt *open_def(lw *L, const char *ast_name)
{
    for (int i = L->bstack.len - 1; i >= 0; i--) {
        const lw_bframe *f = L->bstack.items[i];
        if (f->def && strcmp(f->def->u.def.name, ast_name) == 0)
            return f->def;
    }
    return NULL;
}

/* The VarDef of the local that the `var` n just declared (the temporary
 * it took over, or its copy, for `var u = e`), or NULL when n bound a
 * compile-time value. */
static ast_stmt *var_def(lw *L, const pt_node *n)
{
    lw_sym *s = lw_lookup(L, n->name, n->loc);
    if (s && s->kind == SYM_TENSOR)
        return open_def(L, s->ast_name);
    if (s && s->kind == SYM_VALUE && s->value && s->value->kind == V_TENSOR &&
        s->value->t->is_view && s->value->t->base->kind == SYM_TENSOR)
        return open_def(L, s->value->t->base->ast_name);
    return NULL;
}

/* Lower `var ...` n; returns the VarDef of the local it declares (its src
 * is the program's name when the AST's differs, so that schedules name it
 * as written), or NULL when it declares none. */
static ast_stmt *lower_var(lw *L, const pt_node *n)
{
    const pt_node *init = n->nkids > 1 ? n->kids[1] : NULL;
    lw_val *v = init ? lw_expr(L, init) : NULL;
    if (init && !v) {
        lw_declare(L, SYM_VALUE, n->name, n->loc);   /* silence later uses */
        return NULL;
    }
    if (n->kids[0])
        lower_typed_var(L, n, v);
    else
        lower_untyped_var(L, n, v);
    ast_stmt *def = var_def(L, n);
    if (def && strcmp(def->u.def.name, n->name) != 0)
        def->u.def.src = n->name;
    return def;
}

/* `L: var t ...`: the label goes on t's VarDef (schedules name the local
 * by it); an error when the `var` declares no local. */
static void lower_labeled_var(lw *L, const pt_node *n, const char *label)
{
    const pt_node *var = n->kids[0];
    int nerrors = L->ctx->nerrors;
    ast_stmt *def = lower_var(L, var);
    if (def)
        def->label = label;
    else if (L->ctx->nerrors == nerrors)
        ft_error(L->ctx, n->loc, "label '%s' names no local tensor: `var %s = ...` binds "
                 "a compile-time value", n->name, var->name);
}

static void lower_stmt(lw *L, const pt_node *n);

/* `L: stmt`: the label goes on the last statement emitted for stmt. */
static void lower_labeled(lw *L, const pt_node *n)
{
    if (!L->frame)
        for (int i = 0; i < L->labels.len; i++)
            if (strcmp(L->labels.items[i], n->name) == 0) {
                ft_error(L->ctx, n->loc, "label '%s' is already used in this function",
                         n->name);
                return;
            }
    const char *label = lw_label(L, n->name);   /* before any label inside */
    if (n->kids[0]->kind == PT_VAR) {
        lower_labeled_var(L, n, label);
        return;
    }
    lw_bframe *f0 = top_frame(L);
    int before = f0->stmts.len;
    lower_stmt(L, n->kids[0]);
    lw_bframe *f = top_frame(L);
    if (f->stmts.len > (f == f0 ? before : 0))
        ((ast_stmt *)f->stmts.items[f->stmts.len - 1])->label = label;
}

/* One statement of any kind but `var`. */
static void lower_stmt(lw *L, const pt_node *n)
{
    switch (n->kind) {
    case PT_ASSIGN: lower_assign(L, n); break;
    case PT_FOR: lower_for(L, n); break;
    case PT_IF: lower_if(L, n); break;
    case PT_ASSERT: lw_lower_assert(L, n); break;
    case PT_PASS: break;
    case PT_EXPRSTMT: lower_exprstmt(L, n); break;
    case PT_LABELED: lower_labeled(L, n); break;
    case PT_RETURN: lw_lower_return(L, n); break;
    case PT_VAR: (void)lower_var(L, n); break;
    default: ft_error(L->ctx, n->loc, "this is not a statement"); break;
    }
}

void lw_lower_stmts(lw *L, const pt_node *block)
{
    for (int i = 0; i < block->nkids; i++) {
        if ((L->frame && L->frame->returned) || L->over_budget)
            return;
        lower_stmt(L, block->kids[i]);
    }
}

/* ------------------------------------------------------------ functions */

/* Declare one parameter of an exported function into p. */
static int lower_param(lw *L, const pt_node *n, ast_param *p)
{
    const pt_node *type = n->kids[0];
    p->name = n->name;
    p->loc = n->loc;
    if (!type) {
        ft_error(L->ctx, n->loc, "parameter '%s' of an exported function needs a type, "
                 "e.g. `%s: f32[n] in` or `%s: size`", n->name, n->name, n->name);
        return 0;
    }
    if (strcmp(type->name, "size") == 0) {
        if (type->nkids > 0 && type->kids[0]) {
            ft_error(L->ctx, type->loc, "a size is a scalar: it has no dimensions");
            return 0;
        }
        if (n->op != PT_ACC_NONE && n->op != PT_ACC_IN) {
            ft_error(L->ctx, n->loc, "a size parameter is always an input");
            return 0;
        }
        if (type->nkids > 2 && type->kids[2]) {
            ft_error(L->ctx, type->kids[2]->loc, "a size parameter has no layout");
            return 0;
        }
        p->is_size = 1;
        p->dtype = FT_I64;
        lw_sym *s = lw_declare(L, SYM_SIZE, n->name, n->loc);
        return s && (p->name = s->ast_name);
    }
    int dt = type_dtype(L, type), mt = type_mtype(L, type);
    if (n->op == PT_ACC_NONE) {
        ft_error(L->ctx, n->loc, "parameter '%s' needs an access: in, out or inout", n->name);
        return 0;
    }
    lw_sym *s = lw_declare(L, SYM_TENSOR, n->name, n->loc);
    if (dt < 0 || mt < 0 || !s)
        return 0;
    p->dtype = s->dtype = (ft_dtype)dt;
    p->mtype = (ft_mtype)mt;
    p->access = s->access = n->op == PT_ACC_IN ? FT_ACC_IN
                          : n->op == PT_ACC_OUT ? FT_ACC_OUT : FT_ACC_INOUT;
    return 1;
}

/* Shapes of tensor parameters may use any size parameter, so they are
 * lowered after every parameter is declared. */
static int lower_param_shapes(lw *L, const pt_node *params, ast_param *ps)
{
    int ok = 1;
    for (int i = 0; i < params->nkids; i++) {
        const pt_node *type = params->kids[i]->kids[0];
        if (ps[i].is_size || !type)
            continue;
        const pt_node *dims = type->kids[0];
        ps[i].layout = type_layout(L, type, dims ? dims->nkids : 0, &ok);
        if (!dims)
            continue;
        L->shape_of = ps[i].name;
        ast_expr **shape = lower_dims(L, dims, ps[i].name);
        L->shape_of = NULL;
        if (!shape) {
            ok = 0;
            continue;
        }
        lw_sym *s = lw_lookup(L, ps[i].name, params->kids[i]->loc);
        s->layout = ps[i].layout;
        ps[i].ndim = s->ndim = dims->nkids;
        ps[i].shape = s->shape = shape;
    }
    return ok;
}

/* Whether the lowered body of exported function fn stays within
 * --max-statements (inlined calls copy the callee's statements); else an
 * error at fn. */
static int stmts_budget(lw *L, const pt_node *fn, const ast_stmt *body)
{
    int64_t max = L->ctx->opts.budget.stmts;
    if (ast_stmt_count(body, max) <= max)
        return 1;
    ft_error(L->ctx, fn->loc, "%s has more than %lld statements after inlining (the budget "
             "--max-statements %lld; raise it, or split the function)", fn->name,
             (long long)max, (long long)max);
    return 0;
}

/* Lower one exported function. */
static ast_func *lower_func(lw *L, const pt_node *fn)
{
    const pt_node *params = fn->kids[0];
    L->labels = (ft_vec){0};
    L->export_name = fn->name;
    L->ninlined = 0;
    L->nopen_defs = 0;
    L->over_budget = 0;
    L->prog_src = fn->loc.src;
    lw_sym *mark = lw_push_scope(L);
    ast_param *ps = ft_alloc(L->ctx, sizeof *ps * (size_t)(params->nkids + 1));
    int ok = 1, errors = L->ctx->nerrors;
    for (int i = 0; i < params->nkids; i++)
        ok &= lower_param(L, params->kids[i], &ps[i]);
    ok = ok && lower_param_shapes(L, params, ps);
    ast_stmt *body = ok ? lower_block(L, fn->kids[1]) : NULL;
    lw_pop_scope(L, mark);
    if (!body || L->ctx->nerrors > errors || !stmts_budget(L, fn, body))
        return NULL;
    ast_func *f = ft_alloc(L->ctx, sizeof *f);
    f->name = fn->name;
    f->nparams = params->nkids;
    f->params = ps;
    f->body = body;
    f->loc = fn->loc;
    return f;
}

/* The -D override for name, if any (marking it used). */
static int find_define(lw *L, const char *name, const char **v, char *used)
{
    for (int i = 0; i < L->ctx->opts.ndefines; i++)
        if (strcmp(L->ctx->opts.define_names[i], name) == 0) {
            *v = L->ctx->opts.define_values[i];
            used[i] = 1;
            return 1;
        }
    return 0;
}

/* The value -D NAME=text gives const n: a string when n's own value is a
 * string literal, else a 64-bit integer (NULL after an error). */
static lw_val *define_value(lw *L, const pt_node *n, const char *text)
{
    if (n->kids[0]->kind == PT_STRING) {
        lw_val *v = lw_expr(L, n->kids[0]);
        v->str = text;
        return v;
    }
    int64_t x;
    if (rt_parse_i64(text, &x)) {
        ft_error(L->ctx, n->loc, "-D %s=%s: const %s is a number; the value must be a "
                 "64-bit integer", n->name, text, n->name);
        return NULL;
    }
    return lw_scalar_val(L, ast_int(L->ctx, n->loc, x));
}

/* `const NAME = expr`: a compile-time value, or the -D value. */
static void lower_const(lw *L, const pt_node *n, char *used, int file_id)
{
    const char *dv;
    lw_val *v;
    if (used && find_define(L, n->name, &dv, used)) {
        v = define_value(L, n, dv);
        if (!v)
            v = lw_scalar_val(L, ast_int(L->ctx, n->loc, 0));
    } else {
        L->const_name = n->name;
        v = lw_expr(L, n->kids[0]);
        L->const_name = NULL;
        if (v && (v->kind == V_TENSOR ||
                  (v->kind == V_SCALAR && !lw_is_literal(v->scalar) &&
                   v->scalar->kind != AST_BOOLC))) {
            ft_error(L->ctx, n->kids[0]->loc, "the value of const '%s' must be a compile-time "
                     "number", n->name);
            v = NULL;
        }
        if (!v)   /* declared anyway, so its uses raise no further errors */
            v = lw_scalar_val(L, ast_int(L->ctx, n->loc, 0));
    }
    lw_sym *s = declare_global(L, SYM_CONST, n, file_id);
    if (s)
        s->value = v;
}

/* Check every -D names a const of the file. */
static void check_defines_used(lw *L, const char *used)
{
    for (int i = 0; i < L->ctx->opts.ndefines; i++)
        if (!used[i])
            ft_error(L->ctx, (ft_loc){0}, "-D %s: the program has no `const %s`",
                     L->ctx->opts.define_names[i], L->ctx->opts.define_names[i]);
}

/* Declare the consts and functions of one file (file_id tells files apart
 * for duplicate checks); used is NULL for library files (no -D there). */
static void declare_file(lw *L, const pt_node *file, char *used, int file_id)
{
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k->kind == PT_CONST)
            lower_const(L, k, used, file_id);
        else if (k->kind == PT_FUNC)
            declare_global(L, SYM_FUNC, k, file_id);
    }
}

ast_program *fe_lower(ft_ctx *ctx, const pt_node *file, int nlibs,
                      const pt_node *const *libs)
{
    lw L = {.ctx = ctx};
    int errors_before = ctx->nerrors;
    char *used = ft_alloc(ctx, (size_t)ctx->opts.ndefines + 1);
    ft_vec funcs = {0};
    for (int i = 0; i < nlibs; i++)
        declare_file(&L, libs[i], NULL, i + 2);
    declare_file(&L, file, used, LW_PROGRAM_FILE);
    check_defines_used(&L, used);
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k->kind == PT_FUNC && k->ival) {
            ast_func *f = lower_func(&L, k);
            if (f)
                ft_vec_push(ctx, &funcs, f);
        }
    }
    if (ctx->nerrors > errors_before)
        return NULL;
    ast_program *p = ft_alloc(ctx, sizeof *p);
    p->nfuncs = funcs.len;
    p->funcs = (ast_func **)funcs.items;
    fe_lower_decls(ctx, file, p);
    return p;
}
