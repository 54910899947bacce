/* schedule.c - the schedule language: `schedule f:` blocks.
 *
 * Requires: a lowered program (frontend/lower.c) and the parse tree's
 * PT_SCHEDULE blocks.
 * Provides: loops marked parallel, reductions that may collide across
 * parallel iterations marked atomic.
 *
 * Only `parallelize(L, openmp)` is built so far; its legality check is a
 * conservative syntactic one (see schedule.h) until the isl dependence
 * analysis replaces it.  Every other primitive of the language is a
 * "not supported yet" error at its line.
 */
#include "schedule.h"

#include <string.h>

#include "visit.h"

static const char *const later_primitives[] = {
    "split", "merge", "reorder", "fission", "fuse", "swap", "move_to", "unroll",
    "blend", "vectorize", "cache", "cache_reduce", "set_mtype", "var_split",
    "var_reorder", "var_merge", "as_lib", "separate_tail", "inline", NULL};

/* ---------------------------------------------------------- finding loops */

typedef struct find_state {
    ast_visitor v;
    const char *name;
    ast_stmt *by_label;
    ast_stmt *by_iter;
    int n_iter;
} find_state;

static int find_visit(ast_visitor *v, ast_stmt *s)
{
    find_state *st = (find_state *)v;
    if (s->kind != AST_FOR)
        return 1;
    if (s->label && strcmp(s->label, st->name) == 0)
        st->by_label = s;
    if (strcmp(s->u.loop.iter, st->name) == 0) {
        st->by_iter = s;
        st->n_iter++;
    }
    return 1;
}

ast_stmt *xf_find_loop(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc)
{
    find_state st = {.v.stmt = find_visit, .name = name};
    ast_visit(f->body, &st.v);
    if (st.by_label)
        return st.by_label;
    if (st.n_iter == 1)
        return st.by_iter;
    if (st.n_iter > 1)
        ft_error(ctx, loc, "'%s' names %d loops of '%s'; label the one you mean "
                 "(`L: for %s in ...`)", name, st.n_iter, f->name, name);
    else
        ft_error(ctx, loc, "'%s' has no loop labelled or iterating over '%s'", f->name, name);
    return NULL;
}

/* ----------------------------------------------------- parallel legality */

/* One access of a tensor inside the candidate loop. */
typedef struct access {
    const char *var;
    int n;
    ast_expr **idx;
    ast_stmt *stmt;       /* the Store/Reduce, NULL for a Load */
    ast_expr *load;
} access;

typedef struct par_state {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec locals;        /* names of tensors defined inside the loop */
    ft_vec accesses;      /* access *, in source order */
    int nested_parallel;
} par_state;

static void par_add(par_state *st, const char *var, int n, ast_expr **idx,
                    ast_stmt *s, ast_expr *load)
{
    access *a = ft_alloc(st->ctx, sizeof *a);
    *a = (access){var, n, idx, s, load};
    ft_vec_push(st->ctx, &st->accesses, a);
}

static int par_stmt(ast_visitor *v, ast_stmt *s)
{
    par_state *st = (par_state *)v;
    if (s->kind == AST_VARDEF)
        ft_vec_push(st->ctx, &st->locals, (void *)s->u.def.name);
    else if (s->kind == AST_FOR && s->u.loop.par != AST_SERIAL)
        st->nested_parallel = 1;
    else if (s->kind == AST_STORE)
        par_add(st, s->u.store.var, s->u.store.n, s->u.store.idx, s, NULL);
    else if (s->kind == AST_REDUCE)
        par_add(st, s->u.red.var, s->u.red.n, s->u.red.idx, s, NULL);
    return 1;
}

static void par_expr(ast_visitor *v, ast_expr *e)
{
    par_state *st = (par_state *)v;
    if (e->kind == AST_LOAD)
        par_add(st, e->u.load.var, e->u.load.n, e->u.load.idx, NULL, e);
}

static int in_names(const ft_vec *names, const char *name)
{
    for (int i = 0; i < names->len; i++)
        if (strcmp(names->items[i], name) == 0)
            return 1;
    return 0;
}

/* Whether every access of var has exactly `iter` as index d. */
static int private_dim(const ft_vec *acc, const char *var, int d, const char *iter)
{
    for (int i = 0; i < acc->len; i++) {
        const access *a = acc->items[i];
        if (strcmp(a->var, var) != 0)
            continue;
        if (d >= a->n || a->idx[d]->kind != AST_VAR || strcmp(a->idx[d]->u.name, iter) != 0)
            return 0;
    }
    return 1;
}

/* `y[j]` as text, for messages. */
static const char *access_text(ft_ctx *ctx, const access *a)
{
    ast_expr *load = a->load ? a->load : ast_load(ctx, a->stmt->loc, a->var, FT_F32, a->n, a->idx);
    return ast_expr_text(ctx, load);
}

/* Check tensor var (defined outside the loop) can be shared by parallel
 * iterations; sets *atomic when its reductions must become atomic.
 * Returns 0 after an error. */
static int check_shared(ft_ctx *ctx, const ft_vec *acc, const char *var, const char *iter,
                        const char *lname, ft_loc loc, int *atomic)
{
    const access *store = NULL, *read = NULL, *red = NULL, *other_red = NULL;
    int ndim = 0;
    for (int i = 0; i < acc->len; i++) {
        const access *a = acc->items[i];
        if (strcmp(a->var, var) != 0)
            continue;
        ndim = a->n;
        if (!a->stmt)
            read = read ? read : a;
        else if (a->stmt->kind == AST_STORE)
            store = store ? store : a;
        else if (!red)
            red = a;
        else if (a->stmt->u.red.op != red->stmt->u.red.op)
            other_red = a;
    }
    *atomic = 0;
    if (!store && !red)
        return 1;                        /* only read: shared safely */
    for (int d = 0; d < ndim; d++)
        if (private_dim(acc, var, d, iter))
            return 1;                    /* each iteration has its own slice */
    if (!store && !read && !other_red) {
        *atomic = 1;                     /* pure reduction: atomics */
        return 1;
    }
    const access *bad = store ? store : other_red ? other_red : red;
    ft_error(ctx, loc, "cannot parallelize %s: '%s' is %s at %s by different iterations of "
             "'%s', so they would race", lname, var,
             store ? "written" : other_red ? "reduced with two operators" : "reduced and read",
             access_text(ctx, bad), iter);
    ft_note(ctx, bad->stmt ? bad->stmt->loc : bad->load->loc,
            "index '%s' by '%s' in one dimension at every access, or declare it inside the loop",
            var, iter);
    return 0;
}

/* Mark every reduction into var under the loop atomic. */
static void mark_atomic(const ft_vec *acc, const char *var)
{
    for (int i = 0; i < acc->len; i++) {
        const access *a = acc->items[i];
        if (a->stmt && a->stmt->kind == AST_REDUCE && strcmp(a->var, var) == 0)
            a->stmt->u.red.atomic = 1;
    }
}

/* Whether loop is nested inside a parallel loop of f. */
typedef struct outer_state {
    ast_visitor v;
    ast_stmt *target;
    int depth_par;
    int found_in_par;
} outer_state;

static int outer_visit(ast_visitor *v, ast_stmt *s)
{
    outer_state *st = (outer_state *)v;
    if (s == st->target) {
        st->found_in_par = st->depth_par;
        return 0;
    }
    if (s->kind == AST_FOR && s->u.loop.par != AST_SERIAL) {
        st->depth_par++;
        ast_visit(s->u.loop.body, v);
        st->depth_par--;
        return 0;
    }
    return 1;
}

int xf_parallelize(ft_ctx *ctx, ast_func *f, ast_stmt *loop, ft_loc loc)
{
    const char *lname = loop->label ? loop->label : loop->u.loop.iter;
    par_state st = {.v = {par_stmt, par_expr}, .ctx = ctx};
    ast_visit(loop->u.loop.body, &st.v);
    outer_state os = {.v.stmt = outer_visit, .target = loop};
    ast_visit(f->body, &os.v);
    if (st.nested_parallel || os.found_in_par || loop->u.loop.par != AST_SERIAL) {
        ft_error(ctx, loc, "cannot parallelize %s: it is already parallel or nested in (or "
                 "around) a parallel loop; nested parallel loops are not supported yet", lname);
        return 1;
    }
    ft_vec atomics = {0};
    for (int i = 0; i < st.accesses.len; i++) {
        const char *var = ((access *)st.accesses.items[i])->var;
        if (in_names(&st.locals, var) || in_names(&atomics, var))
            continue;
        int atomic, seen = 0;
        for (int j = 0; j < i; j++)
            seen |= strcmp(((access *)st.accesses.items[j])->var, var) == 0;
        if (seen)
            continue;
        if (!check_shared(ctx, &st.accesses, var, loop->u.loop.iter, lname, loc, &atomic))
            return 1;
        if (atomic)
            ft_vec_push(ctx, &atomics, (void *)var);
    }
    for (int i = 0; i < atomics.len; i++)
        mark_atomic(&st.accesses, atomics.items[i]);
    loop->u.loop.par = AST_OPENMP;
    return 0;
}

/* ------------------------------------------------------ schedule blocks */

/* parallelize(L, openmp) */
static int sched_parallelize(ft_ctx *ctx, ast_func *f, const pt_node *call)
{
    if (call->nkids != 3 || call->kids[1]->kind != PT_NAME) {
        ft_error(ctx, call->loc, "parallelize takes a loop and a scope: parallelize(L, openmp)");
        return 1;
    }
    const pt_node *scope = call->kids[2];
    if (scope->kind == PT_ATTR && scope->kids[0]->kind == PT_NAME &&
        (strcmp(scope->kids[0]->name, "blockIdx") == 0 ||
         strcmp(scope->kids[0]->name, "threadIdx") == 0)) {
        ft_unsupported(ctx, scope->loc, "binding loops to CUDA blocks and threads");
        return 1;
    }
    if (scope->kind != PT_NAME || strcmp(scope->name, "openmp") != 0) {
        ft_error(ctx, scope->loc, "unknown parallel scope; use openmp (or blockIdx.x, "
                 "threadIdx.x, ... on CUDA)");
        return 1;
    }
    ast_stmt *loop = xf_find_loop(ctx, f, call->kids[1]->name, call->kids[1]->loc);
    return loop ? xf_parallelize(ctx, f, loop, call->loc) : 1;
}

/* One schedule statement. */
static int sched_stmt(ft_ctx *ctx, ast_func *f, const pt_node *s)
{
    const pt_node *e = s->kind == PT_EXPRSTMT ? s->kids[0]
                     : s->kind == PT_ASSIGN ? s->kids[1] : NULL;
    if (e && e->kind == PT_NAME && strcmp(e->name, "auto") == 0) {
        ft_unsupported(ctx, e->loc, "the auto-scheduler (`auto`)");
        return 1;
    }
    if (!e || e->kind != PT_CALL || e->kids[0]->kind != PT_NAME) {
        ft_error(ctx, s->loc, "a schedule line is a primitive call, e.g. parallelize(L, openmp)");
        return 1;
    }
    const char *name = e->kids[0]->name;
    if (strcmp(name, "parallelize") == 0 && s->kind == PT_EXPRSTMT)
        return sched_parallelize(ctx, f, e);
    for (int i = 0; later_primitives[i]; i++)
        if (strcmp(name, later_primitives[i]) == 0) {
            ft_unsupported(ctx, e->loc, ft_fmt(ctx, "the schedule primitive '%s'", name));
            return 1;
        }
    ft_error(ctx, e->kids[0]->loc, "unknown schedule primitive '%s'", name);
    return 1;
}

static ast_func *find_func(ast_program *p, const char *name)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i]->name, name) == 0)
            return p->funcs[i];
    return NULL;
}

int xf_apply_schedules(ft_ctx *ctx, ast_program *p, const pt_node *file)
{
    int bad = 0;
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k->kind != PT_SCHEDULE)
            continue;
        ast_func *f = find_func(p, k->name);
        if (!f) {
            ft_error(ctx, k->loc, "schedule for '%s': there is no exported function of "
                     "that name", k->name);
            bad = 1;
            continue;
        }
        const pt_node *block = k->kids[0];
        for (int j = 0; j < block->nkids; j++)
            bad |= sched_stmt(ctx, f, block->kids[j]);
    }
    return bad;
}
