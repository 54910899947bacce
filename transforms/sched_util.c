/* sched_util.c - helpers of the schedule primitives (sched_util.h). */
#include "sched_util.h"

#include <string.h>

#include <isl/space.h>
#include <isl/val.h>

#include "simplify.h"
#include "visit.h"
#include "xf_util.h"

const char *xf_sched_name(ft_ctx *ctx, const ast_stmt *s)
{
    if (s->label)
        return s->label;
    if (s->kind == AST_FOR)
        return s->u.loop.iter;
    return ft_fmt(ctx, "S%d", s->id);
}

int xf_sched_pinned(ft_ctx *ctx, const ast_stmt *loop, const char *what, ft_loc loc)
{
    if (!loop || !loop->pinned)
        return 0;
    ft_error(ctx, loc, "cannot %s: the schedule block set %s before `auto` (the "
             "auto-scheduler keeps the loops its lines named or made)", what,
             xf_sched_name(ctx, loop));
    return 1;
}

/* ---------------------------------------------------------------- finding */

/* Push the path from s down to target onto out; 1 when found. */
static int path_to(ft_ctx *ctx, ast_stmt *s, const ast_stmt *target, ft_vec *out)
{
    if (!s)
        return 0;
    if (s == target)
        return 1;
    ft_vec_push(ctx, out, s);
    int found = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n && !found; i++)
            found = path_to(ctx, s->u.seq.stmts[i], target, out);
        break;
    case AST_VARDEF: found = path_to(ctx, s->u.def.body, target, out); break;
    case AST_FOR: found = path_to(ctx, s->u.loop.body, target, out); break;
    case AST_IF:
        found = path_to(ctx, s->u.branch.then, target, out) ||
                path_to(ctx, s->u.branch.other, target, out);
        break;
    default: break;
    }
    if (!found)
        out->len--;
    return found;
}

int xf_ancestors(ft_ctx *ctx, ast_stmt *root, const ast_stmt *s, ft_vec *out)
{
    out->len = 0;
    return path_to(ctx, root, s, out);
}

int xf_inside_vectorized(ft_ctx *ctx, ast_func *f, const ast_stmt *s)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = 0; i < anc.len; i++) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_FOR && a->u.loop.par == AST_VECTORIZE)
            return 1;
    }
    return 0;
}

ast_stmt *xf_parent_seq(ft_ctx *ctx, ast_stmt *root, const ast_stmt *s, int *index)
{
    ft_vec anc = {0};
    if (!xf_ancestors(ctx, root, s, &anc) || anc.len == 0)
        return NULL;
    ast_stmt *p = anc.items[anc.len - 1];
    if (p->kind != AST_SEQ)
        return NULL;
    for (int i = 0; i < p->u.seq.n; i++)
        if (p->u.seq.stmts[i] == s)
            *index = i;
    return p;
}

int xf_loop_depth_of(ft_ctx *ctx, ast_func *f, const ast_stmt *s)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    int d = 0;
    for (int i = 0; i < anc.len; i++)
        d += ((ast_stmt *)anc.items[i])->kind == AST_FOR;
    return d;
}

const char *xf_free_name(ft_ctx *ctx, const ast_func *f, const char *want)
{
    for (int i = 0; i < f->nparams; i++)
        if (strcmp(f->params[i].name, want) == 0)
            return xf_fresh_name(ctx, f, want);
    if (xf_defines(f->body, want) || xf_binds_iter(f->body, want))
        return xf_fresh_name(ctx, f, want);
    return want;
}

/* The name for a new loop: the one asked for, or base + suffix, made free. */
const char *xf_new_loop_name(ft_ctx *ctx, ast_func *f, const char *asked, const char *base,
                             const char *suffix)
{
    return xf_free_name(ctx, f, asked ? asked : ft_fmt(ctx, "%s%s", base, suffix));
}

/* Label a new loop with the name the schedule gave it when its iterator
 * could not take that name. */
void xf_name_loop(ast_stmt *loop, const char *asked)
{
    if (asked && strcmp(asked, loop->u.loop.iter) != 0)
        loop->label = asked;
}

int xf_body_items(ast_stmt *const *body, ast_stmt ***items)
{
    if ((*body)->kind == AST_SEQ && !(*body)->label) {
        *items = (*body)->u.seq.stmts;
        return (*body)->u.seq.n;
    }
    *items = (ast_stmt **)body;      /* the field itself: a list of one item */
    return 1;
}

/* --------------------------------------------------------- expressions */

static int is_int(const ast_expr *e, int64_t v)
{
    return e->kind == AST_INT && e->u.ival == v;
}

ast_expr *xf_add(ft_ctx *ctx, ast_expr *a, ast_expr *b)
{
    int64_t r;
    if (is_int(b, 0))
        return a;
    if (is_int(a, 0))
        return b;
    if (a->kind == AST_INT && b->kind == AST_INT && !__builtin_add_overflow(a->u.ival, b->u.ival, &r))
        return ast_int(ctx, a->loc, r);
    if (b->kind == AST_INT && b->u.ival < 0 && b->u.ival != INT64_MIN)
        return ast_binary(ctx, a->loc, AST_SUB, a, ast_int(ctx, b->loc, -b->u.ival));
    return ast_binary(ctx, a->loc, AST_ADD, a, b);
}

ast_expr *xf_mul(ft_ctx *ctx, ast_expr *a, ast_expr *b)
{
    int64_t r;
    if (is_int(b, 1))
        return a;
    if (is_int(a, 1))
        return b;
    if (is_int(a, 0) || is_int(b, 0))
        return ast_int(ctx, a->loc, 0);
    if (a->kind == AST_INT && b->kind == AST_INT && !__builtin_mul_overflow(a->u.ival, b->u.ival, &r))
        return ast_int(ctx, a->loc, r);
    return ast_binary(ctx, a->loc, AST_MUL, a, b);
}

ast_expr *xf_ceildiv(ft_ctx *ctx, ast_expr *a, int64_t b)
{
    if (b == 1)
        return a;
    if (a->kind == AST_INT)    /* (a - 1) / b + 1 cannot overflow; a / b truncates up */
        return ast_int(ctx, a->loc, a->u.ival > 0 ? (a->u.ival - 1) / b + 1 : a->u.ival / b);
    /* (a - 1) // b + 1: the same value for every a (floor division), and it
     * overflows only at a = INT64_MIN, where (a + b - 1) // b overflowed for
     * every a past INT64_MAX - b + 1 (a trip count at run time) */
    ast_expr *q = ast_binary(ctx, a->loc, AST_FLOORDIV, xf_add(ctx, a, ast_int(ctx, a->loc, -1)),
                             ast_int(ctx, a->loc, b));
    return xf_add(ctx, q, ast_int(ctx, a->loc, 1));
}

ast_expr *xf_trip_count(ft_ctx *ctx, const ast_stmt *loop)
{
    const ast_expr *st = loop->u.loop.step;
    if (st->kind != AST_INT || st->u.ival == 0)
        return NULL;
    int64_t s = st->u.ival, n;
    const ast_expr *b0 = loop->u.loop.begin, *e0 = loop->u.loop.end;
    if (b0->kind == AST_INT && e0->kind == AST_INT)
        return xf_range_trips(b0->u.ival, e0->u.ival, s, &n) ? ast_int(ctx, e0->loc, n) : NULL;
    if (s == INT64_MIN)
        return NULL;    /* its size, 2^63, is no int64 */
    ast_expr *b = ast_clone_expr(ctx, b0), *e = ast_clone_expr(ctx, e0);
    ast_expr *span = s > 0 ? ast_binary(ctx, e->loc, AST_SUB, e, b)
                           : ast_binary(ctx, e->loc, AST_SUB, b, e);
    if (is_int(span->u.bin.b, 0))
        span = span->u.bin.a;
    return xf_ceildiv(ctx, span, s > 0 ? s : -s);
}

void xf_layout_step(ft_ctx *ctx, ast_stmt *def, ast_lstep step)
{
    int n = def->u.def.nlsteps, nd = def->u.def.ndim;
    if (!n) {
        def->u.def.orig_ndim = nd;
        def->u.def.orig_shape = ft_alloc(ctx, sizeof(ast_expr *) * (size_t)(nd + 1));
        for (int k = 0; k < nd; k++)
            def->u.def.orig_shape[k] = ast_clone_expr(ctx, def->u.def.shape[k]);
    }
    ast_lstep *steps = ft_alloc(ctx, sizeof *steps * (size_t)(n + 1));
    if (n)
        memcpy(steps, def->u.def.lsteps, sizeof *steps * (size_t)n);
    if (step.perm) {
        int *perm = ft_alloc(ctx, sizeof *perm * (size_t)step.n);
        memcpy(perm, step.perm, sizeof *perm * (size_t)step.n);
        step.perm = perm;
    }
    steps[n] = step;
    def->u.def.lsteps = steps;
    def->u.def.nlsteps = n + 1;
}

void xf_bounds_around(ft_ctx *ctx, ast_func *f, const ast_stmt *s, an_bounds *b,
                      ft_vec *loops)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = 0; i < anc.len; i++) {
        ast_stmt *a = anc.items[i];
        const ast_stmt *next = i + 1 < anc.len ? anc.items[i + 1] : s;
        if (a->kind == AST_FOR) {
            an_bounds_push_loop(b, a);
            if (loops)
                ft_vec_push(ctx, loops, a);
        } else if (a->kind == AST_IF) {
            an_bounds_push_cond(b, a->u.branch.cond, a->u.branch.then == next);
        }
    }
}

/* What xf_walk_accesses carries down the walk. */
typedef struct access_walk {
    ast_visitor v;         /* finds the loads of var in an expression */
    ft_ctx *ctx;
    const char *var;
    an_bounds *b;
    ft_vec *loops;
    xf_access_fn fn;
    void *data;
} access_walk;

static void access_load(ast_visitor *v, ast_expr *e)
{
    access_walk *w = (access_walk *)v;
    if (e->kind == AST_LOAD && strcmp(e->u.load.var, w->var) == 0)
        w->fn(w->data, e, NULL, e->u.load.n, e->u.load.idx);
}

/* Report the loads of var in e (NULL: none). */
static void access_expr(access_walk *w, ast_expr *e)
{
    if (e)
        ast_visit_expr(e, &w->v);
}

static void access_list(access_walk *w, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++)
        access_expr(w, es[i]);
}

/* Report the accesses of var under s (see xf_walk_accesses). */
static void access_stmt(access_walk *w, ast_stmt *s)
{
    if (!s)
        return;
    int mark = an_bounds_mark(w->b);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            access_stmt(w, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        access_list(w, s->u.def.ndim, s->u.def.shape);
        if (strcmp(s->u.def.name, w->var) != 0)
            access_stmt(w, s->u.def.body);
        break;
    case AST_FOR:
        access_expr(w, s->u.loop.begin);
        access_expr(w, s->u.loop.end);
        access_expr(w, s->u.loop.step);
        an_bounds_push_loop(w->b, s);
        if (w->loops)
            ft_vec_push(w->ctx, w->loops, s);
        access_stmt(w, s->u.loop.body);
        if (w->loops)
            w->loops->len--;
        break;
    case AST_IF:
        access_expr(w, s->u.branch.cond);
        an_bounds_push_cond(w->b, s->u.branch.cond, 1);
        access_stmt(w, s->u.branch.then);
        an_bounds_pop(w->b, mark);
        an_bounds_push_cond(w->b, s->u.branch.cond, 0);
        access_stmt(w, s->u.branch.other);
        break;
    case AST_STORE:
        access_list(w, s->u.store.n, s->u.store.idx);
        access_expr(w, s->u.store.value);
        if (strcmp(s->u.store.var, w->var) == 0)
            w->fn(w->data, NULL, s, s->u.store.n, s->u.store.idx);
        break;
    case AST_REDUCE:
        access_list(w, s->u.red.n, s->u.red.idx);
        access_expr(w, s->u.red.value);
        if (strcmp(s->u.red.var, w->var) == 0)
            w->fn(w->data, NULL, s, s->u.red.n, s->u.red.idx);
        break;
    case AST_ASSERT: access_expr(w, s->u.cond); break;
    case AST_EVAL: access_expr(w, s->u.expr); break;
    }
    an_bounds_pop(w->b, mark);
}

void xf_walk_accesses(ft_ctx *ctx, ast_stmt *s, const char *var, an_bounds *b,
                      ft_vec *loops, xf_access_fn fn, void *data)
{
    access_walk w = {.v.expr = access_load, .ctx = ctx, .var = var, .b = b, .loops = loops,
                     .fn = fn, .data = data};
    access_stmt(&w, s);
}

ast_expr **xf_index_pair(ft_ctx *ctx, int n, ast_expr *const *idx, int dim, ast_expr *a,
                         ast_expr *b)
{
    ast_expr **out = ft_alloc(ctx, sizeof *out * (size_t)(n + 1));
    for (int k = 0, j = 0; k < n; k++) {
        if (k != dim) {
            out[j++] = idx[k];
            continue;
        }
        out[j++] = a;
        out[j++] = b;
    }
    return out;
}

void xf_sched_finish(ft_ctx *ctx, ast_func *f)
{
    an_bounds *b = an_bounds_new(ctx, f);
    f->body = xf_simplify_stmt(ctx, b, f->body);
    f->body = xf_normalize(ctx, f->body);
}

/* ----------------------------------------------------------- legality */

const char *xf_time_map(ft_ctx *ctx, int n, const char **out)
{
    char *in = "", *res = "";
    for (int k = 0; k < n; k++) {
        in = ft_fmt(ctx, "%s%st%d", in, k ? ", " : "", k);
        res = out && out[k] ? ft_fmt(ctx, "%s%s%s", res, k ? ", " : "", out[k])
                            : ft_fmt(ctx, "%s%st%d", res, k ? ", " : "", k);
    }
    return ft_fmt(ctx, "{ [%s] -> [%s] }", in, res);
}

/* The map of the first region holding info, or NULL. */
static const xf_remap *remap_of(const an_stmt_info *info, int n, const xf_remap *maps)
{
    for (int i = 0; i < n; i++)
        if (info->depth > maps[i].depth && an_stmt_inside(info, maps[i].region))
            return &maps[i];
    return NULL;
}

int xf_check_order(ft_ctx *ctx, const an_deps *d, int n, const xf_remap *maps,
                   const char *what, ft_loc loc)
{
    const an_accesses *a = d->acc;
    if (a->nstmts == 0)
        return 0;
    isl_union_map *sched = isl_union_map_empty(isl_space_params(
        isl_map_get_space(a->stmts[0]->schedule)));
    for (int i = 0; i < a->nstmts; i++) {
        an_stmt_info *info = a->stmts[i];
        isl_map *s = isl_map_copy(info->schedule);
        const xf_remap *r = remap_of(info, n, maps);
        if (r)
            s = isl_map_apply_range(s, isl_map_read_from_str(a->isl, r->tmap));
        sched = isl_union_map_add_map(sched, s);
    }
    char *witness = NULL;
    int bad = an_order_reverses_dep(d, sched, &witness);
    isl_union_map_free(sched);
    if (bad < 0) {
        ft_error(ctx, loc, "cannot %s: the dependence analysis failed", what);
        return 1;
    }
    if (bad) {
        ft_error(ctx, loc, "cannot %s: %s", what, witness);
        return 1;
    }
    return 0;
}

int xf_time_range(const an_deps *d, const ast_stmt *s, int depth, int k, int64_t *lo,
                  int64_t *hi)
{
    int found = 0;
    const an_accesses *a = d->acc;
    for (int i = 0; i < a->nstmts; i++) {
        an_stmt_info *info = a->stmts[i];
        if (info->depth < depth || !an_stmt_inside(info, s))
            continue;
        isl_val *v = isl_map_plain_get_val_if_fixed(info->schedule, isl_dim_out, (unsigned)k);
        if (v && isl_val_is_int(v)) {
            int64_t x = isl_val_get_num_si(v);
            if (!found || x < *lo)
                *lo = x;
            if (!found || x > *hi)
                *hi = x;
            found = 1;
        }
        isl_val_free(v);
    }
    return found;
}

/* ------------------------------------------------------------ budgets */

/* The deepest nesting of loops in s (s itself counted when a loop). */
static int64_t nest_depth(const ast_stmt *s)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ: {
        int64_t d = 0;
        for (int i = 0; i < s->u.seq.n; i++) {
            int64_t k = nest_depth(s->u.seq.stmts[i]);
            d = k > d ? k : d;
        }
        return d;
    }
    case AST_VARDEF: return nest_depth(s->u.def.body);
    case AST_FOR: return 1 + nest_depth(s->u.loop.body);
    case AST_IF: {
        int64_t a = nest_depth(s->u.branch.then), b = nest_depth(s->u.branch.other);
        return a > b ? a : b;
    }
    default: return 0;
    }
}

int xf_sched_depth_ok(ft_ctx *ctx, ast_func *f, const ast_stmt *loop, const char *what,
                      ft_loc loc)
{
    int64_t max = ctx->opts.budget.loop_depth;
    int64_t d = xf_loop_depth_of(ctx, f, loop) + nest_depth(loop) + 1;
    if (d <= max)
        return 1;
    ft_error(ctx, loc, "cannot %s %s: loops would nest %lld deep in %s (the budget "
             "--max-loop-depth %lld; raise it)", what, xf_sched_name(ctx, loop),
             (long long)d, f->name, (long long)max);
    return 0;
}

int xf_sched_growth_ok(ft_ctx *ctx, ast_func *f, const ast_stmt *s, int64_t copies,
                       const char *what, ft_loc loc)
{
    int64_t max = ctx->opts.budget.stmts;
    int64_t have = ast_stmt_count(f->body, max), each = ast_stmt_count(s, max);
    if (copies <= 0 || have + (each > max / copies ? max : each * copies) <= max)
        return 1;
    ft_error(ctx, loc, "cannot %s %s: %s would have more than %lld statements (the budget "
             "--max-statements %lld; raise it)", what, xf_sched_name(ctx, s), f->name,
             (long long)max, (long long)max);
    return 0;
}
