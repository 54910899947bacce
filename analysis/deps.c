/* deps.c - dependences between statement instances and queries (deps.h).
 *
 * Requires: an an_accesses table (analysis/access.c).
 * Provides: RAW, WAR, WAW relations and same-operator reduction pairs, as
 * tagged union maps and as a sorted list per (kind, source, sink, tensor);
 * the queries transforms use to check legality.
 */
#include "deps.h"

#include <stdlib.h>
#include <string.h>

#include <isl/flow.h>
#include <isl/space.h>

#include "../ast/visit.h"

enum {
    READS = 1u << AN_ACC_READ,
    WRITES = 1u << AN_ACC_WRITE,
    REDUCES = 1u << AN_ACC_REDUCE,
};

static const char *const kind_names[AN_DEP_KINDS] = {"RAW", "WAR", "WAW", "RED"};
static const char *const kind_words[AN_DEP_KINDS] = {
    "read-after-write", "write-after-read", "write-after-write",
    "same-operator reduction pair"};

const char *an_dep_kind_name(an_dep_kind k) { return kind_names[k]; }

/* ------------------------------------------------------ computing them */

/* Memory-based dependences from the may-sources to the sinks, in the
 * original order (tagged relations and schedule). */
static isl_union_map *may_deps(const an_accesses *a, unsigned sinks, unsigned sources)
{
    isl_union_access_info *ai = isl_union_access_info_from_sink(an_access_union(a, sinks, 1));
    ai = isl_union_access_info_set_may_source(ai, an_access_union(a, sources, 1));
    ai = isl_union_access_info_set_schedule_map(ai, an_schedule(a, 1));
    isl_union_flow *flow = isl_union_access_info_compute_flow(ai);
    isl_union_map *deps = isl_union_flow_get_may_dependence(flow);
    isl_union_flow_free(flow);
    return deps;
}

/* The access tagged R<k> in a wrapped tagged space [S[i] -> R<k>[]]. */
static const an_access *tag_access(const an_accesses *a, isl_space *wrapped)
{
    isl_space *sp = isl_space_unwrap(wrapped);
    const char *name = isl_space_get_tuple_name(sp, isl_dim_out);
    int k = name && name[0] == 'R' ? atoi(name + 1) : -1;
    isl_space_free(sp);
    return k >= 0 && k < a->n ? a->acc[k] : NULL;
}

/* Whether the tagged map relates two reductions of one operator into one
 * tensor. */
static int is_reduction_pair(const an_accesses *a, isl_map *m)
{
    isl_space *sp = isl_map_get_space(m);
    const an_access *s = tag_access(a, isl_space_domain(isl_space_copy(sp)));
    const an_access *t = tag_access(a, isl_space_range(sp));
    return s && t && s->kind == AN_ACC_REDUCE && t->kind == AN_ACC_REDUCE &&
           s->op == t->op && strcmp(s->var, t->var) == 0;
}

typedef struct split_state {
    const an_accesses *a;
    int keep_reductions;     /* keep only the pairs (1) or all but them (0) */
    isl_union_map *out;
} split_state;

static isl_stat split_one(__isl_take isl_map *m, void *user)
{
    split_state *st = user;
    if (is_reduction_pair(st->a, m) == st->keep_reductions)
        st->out = isl_union_map_add_map(st->out, m);
    else
        isl_map_free(m);
    return isl_stat_ok;
}

/* The maps of deps that are (keep = 1) or are not reduction pairs. */
static isl_union_map *split(const an_accesses *a, isl_union_map *deps, int keep)
{
    split_state st = {a, keep, isl_union_map_empty(isl_union_map_get_space(deps))};
    if (isl_union_map_foreach_map(deps, split_one, &st) < 0)
        st.out = isl_union_map_free(st.out);
    isl_union_map_free(deps);
    return st.out;
}

/* Read after write: a read (or a reduction's read) of what an earlier
 * write or reduction stored. */
__isl_give isl_union_map *an_raw(const an_accesses *a)
{
    return split(a, may_deps(a, READS | REDUCES, WRITES | REDUCES), 0);
}

/* Write after read: a write that must wait for an earlier read. */
__isl_give isl_union_map *an_war(const an_accesses *a)
{
    return split(a, may_deps(a, WRITES | REDUCES, READS | REDUCES), 0);
}

/* Write after write: two writes whose final value depends on their order. */
__isl_give isl_union_map *an_waw(const an_accesses *a)
{
    return split(a, may_deps(a, WRITES | REDUCES, WRITES | REDUCES), 0);
}

/* Pairs of same-operator reductions into one element (reorderable). */
__isl_give isl_union_map *an_reduction_pairs(const an_accesses *a)
{
    return split(a, may_deps(a, REDUCES, REDUCES), 1);
}

__isl_give isl_union_map *an_deps_untagged(const an_deps *d, an_dep_kind kind)
{
    if (!d->tagged[kind]) {    /* computed pairwise: the list holds them all */
        isl_union_map *u = isl_union_map_empty(isl_set_get_space(d->acc->context));
        for (int i = 0; i < d->n; i++)
            if (d->deps[i]->kind == kind)
                u = isl_union_map_add_map(u, isl_map_copy(d->deps[i]->rel));
        return u;
    }
    isl_union_map *u = isl_union_map_copy(d->tagged[kind]);
    return isl_union_map_range_factor_domain(isl_union_map_domain_factor_domain(u));
}

/* ------------------------------------------------- the list of deps */

typedef struct collect_state {
    an_deps *d;
    an_dep_kind kind;
    ft_vec list;
} collect_state;

/* Add one tagged map to the list, merged with an entry of the same kind,
 * statements and tensor. */
static isl_stat collect_one(__isl_take isl_map *m, void *user)
{
    collect_state *st = user;
    const an_accesses *a = st->d->acc;
    isl_space *sp = isl_map_get_space(m);
    const an_access *s = tag_access(a, isl_space_domain(isl_space_copy(sp)));
    const an_access *t = tag_access(a, isl_space_range(sp));
    isl_map *rel = isl_map_range_factor_domain(isl_map_domain_factor_domain(m));
    if (!s || !t || !rel) {
        isl_map_free(rel);
        return isl_stat_error;
    }
    for (int i = 0; i < st->list.len; i++) {
        an_dep *e = st->list.items[i];
        if (e->kind == st->kind && strcmp(e->src->stmt_name, s->stmt_name) == 0 &&
            strcmp(e->snk->stmt_name, t->stmt_name) == 0 && strcmp(e->var, s->var) == 0) {
            e->rel = isl_map_union(e->rel, rel);
            e->exact &= s->exact && t->exact;
            return isl_stat_ok;
        }
    }
    an_dep *e = ft_alloc(a->ctx, sizeof *e);
    *e = (an_dep){st->kind, s, t, s->var, s->exact && t->exact, rel};
    ft_vec_push(a->ctx, &st->list, e);
    return isl_stat_ok;
}

/* Sort key: kind, then source and sink in access order, then tensor. */
int an_dep_cmp(const void *x, const void *y)
{
    const an_dep *a = *(an_dep *const *)x, *b = *(an_dep *const *)y;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->src->tag != b->src->tag)
        return a->src->tag < b->src->tag ? -1 : 1;
    if (a->snk->tag != b->snk->tag)
        return a->snk->tag < b->snk->tag ? -1 : 1;
    return strcmp(a->var, b->var);
}

/* Fill d->deps from d->tagged. */
static int collect_deps(an_deps *d)
{
    collect_state st = {.d = d};
    for (int k = 0; k < AN_DEP_KINDS; k++) {
        st.kind = k;
        if (isl_union_map_foreach_map(d->tagged[k], collect_one, &st) < 0)
            return -1;
    }
    d->n = st.list.len;
    d->deps = (an_dep **)st.list.items;
    for (int i = 0; i < d->n; i++)
        d->deps[i]->rel = isl_map_coalesce(d->deps[i]->rel);
    if (d->n)
        qsort(d->deps, (size_t)d->n, sizeof *d->deps, an_dep_cmp);
    return 0;
}

an_deps *an_compute_deps(an_accesses *a)
{
    an_deps *d = ft_alloc(a->ctx, sizeof *d);
    d->acc = a;
    d->tagged[AN_RAW] = an_raw(a);
    d->tagged[AN_WAR] = an_war(a);
    d->tagged[AN_WAW] = an_waw(a);
    d->tagged[AN_RED] = an_reduction_pairs(a);
    for (int k = 0; k < AN_DEP_KINDS; k++)
        if (!d->tagged[k]) {
            an_deps_free(d);
            return NULL;
        }
    if (collect_deps(d) < 0) {
        an_deps_free(d);
        return NULL;
    }
    return d;
}

/* One tensor's accesses as the pairwise analysis will see them. */
typedef struct pair_tensor {
    const char *name;
    int64_t writes, all;     /* Stores and Reduces; every access */
} pair_tensor;

/* Counting accesses per tensor in scope order (pair_count). */
typedef struct pair_walk {
    ast_visitor v;           /* expression visitor: counts Loads */
    ft_ctx *ctx;
    ft_vec live;             /* pair_tensor *, innermost last */
    int64_t pairs;           /* of the tensors whose scope ended */
} pair_walk;

/* The innermost tensor named name (NULL for a size). */
static pair_tensor *pair_find(pair_walk *w, const char *name)
{
    for (int i = w->live.len - 1; i >= 0; i--) {
        pair_tensor *t = w->live.items[i];
        if (strcmp(t->name, name) == 0)
            return t;
    }
    return NULL;
}

/* Count an access to name (a write when write). */
static void pair_access(pair_walk *w, const char *name, int write)
{
    pair_tensor *t = pair_find(w, name);
    if (t) {
        t->all++;
        t->writes += write;
    }
}

static void pair_expr(ast_visitor *v, ast_expr *e)
{
    if (e->kind == AST_LOAD)
        pair_access((pair_walk *)v, e->u.load.var, 0);
}

/* Open a tensor's scope. */
static void pair_open(pair_walk *w, const char *name)
{
    pair_tensor *t = ft_alloc(w->ctx, sizeof *t);
    t->name = name;
    ft_vec_push(w->ctx, &w->live, t);
}

/* Close the innermost scope, adding its tensor's pairs. */
static void pair_close(pair_walk *w)
{
    pair_tensor *t = w->live.items[--w->live.len];
    w->pairs += t->writes * t->all;
}

/* Count the accesses of s: the Loads of every expression, a Store's or a
 * Reduce's write, each VarDef a tensor of its own (shadowing). */
static void pair_stmt(pair_walk *w, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            pair_stmt(w, s->u.seq.stmts[i]);
        return;
    case AST_VARDEF:
        for (int d = 0; d < s->u.def.ndim; d++)
            ast_visit_expr(s->u.def.shape[d], &w->v);
        pair_open(w, s->u.def.name);
        pair_stmt(w, s->u.def.body);
        pair_close(w);
        return;
    case AST_FOR:
        ast_visit_expr(s->u.loop.begin, &w->v);
        ast_visit_expr(s->u.loop.end, &w->v);
        ast_visit_expr(s->u.loop.step, &w->v);
        pair_stmt(w, s->u.loop.body);
        return;
    case AST_IF:
        ast_visit_expr(s->u.branch.cond, &w->v);
        pair_stmt(w, s->u.branch.then);
        pair_stmt(w, s->u.branch.other);
        return;
    default:
        ast_visit(s, &w->v);     /* a leaf: its Loads */
        if (s->kind == AST_STORE)
            pair_access(w, s->u.store.var, 1);
        else if (s->kind == AST_REDUCE)
            pair_access(w, s->u.red.var, 1);
        return;
    }
}

/* The ordered pairs of f's accesses that the pairwise analysis compares:
 * per tensor, each write against every access.  Counted on the AST, before
 * any isl relation is built (60,000 of them took seconds). */
static int64_t pair_count(ft_ctx *ctx, const ast_func *f)
{
    pair_walk w = {.v.expr = pair_expr, .ctx = ctx};
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].is_size)
            pair_open(&w, f->params[i].name);
    pair_stmt(&w, f->body);
    while (w.live.len)
        pair_close(&w);
    return w.pairs;
}

/* Whether the pairwise analysis of f's accesses stays within
 * --max-dep-pairs (its work grows with the square of the accesses of one
 * tensor: 60,000 updates of y[0] under a `grad` line ran for minutes);
 * else an error at f naming the budget. */
static int pairs_affordable(ft_ctx *ctx, const ast_func *f)
{
    int64_t max = ctx->opts.budget.dep_pairs, n = pair_count(ctx, f);
    if (n <= max)
        return 1;
    ft_error(ctx, f->loc, "the dependence analysis of %s would compare %lld pairs of "
             "accesses to one tensor (the budget --max-dep-pairs %lld; raise it, or split "
             "the function)", f->name, (long long)n, (long long)max);
    return 0;
}

an_deps *an_func_deps(ft_ctx *ctx, ast_func *f)
{
    char *key;
    size_t len = 0;
    an_deps *hit = an_deps_cache_find(ctx, f, &key, &len);
    if (hit)
        return hit;
    if (ctx->deps_budget == 0) {
        free(key);
        return NULL;             /* quietly: the caller's budget is spent */
    }
    if (ctx->deps_budget > 0)
        ctx->deps_budget--;
    if (!pairs_affordable(ctx, f)) {
        free(key);
        return NULL;
    }
    an_accesses *a = an_collect_accesses(ctx, f);
    an_deps *d = a ? an_pairwise_deps(ctx, a) : NULL;
    if (!d) {
        an_accesses_free(a);
        ft_error(ctx, f->loc, "internal error: the dependence analysis of '%s' failed "
                 "in isl", f->name);
        free(key);
        return NULL;
    }
    d->owns_acc = 1;
    an_deps_cache_store(ctx, f, d, key, len);
    return d;
}

void an_deps_free(an_deps *d)
{
    if (!d)
        return;
    if (d->shared > 0) {
        d->shared--;             /* another holder still uses it */
        return;
    }
    for (int k = 0; k < AN_DEP_KINDS; k++)
        d->tagged[k] = isl_union_map_free(d->tagged[k]);
    for (int i = 0; i < d->n; i++)
        d->deps[i]->rel = isl_map_free(d->deps[i]->rel);
    d->n = 0;
    if (d->owns_acc)
        an_accesses_free(d->acc);
}

/* ------------------------------------------------------------- text */

/* The first line of s as printed, trimmed ("Li: for i in range(n):"). */
static const char *stmt_line(ft_ctx *ctx, const ast_stmt *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return "";
    ast_print_stmt(f, s, 0);
    fclose(f);
    char *p = buf;
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, "\n");
    char *line = ft_strndup(ctx, p, n);
    free(buf);
    return line;
}

/* "S5 (`c[i, j] = a[i - 2, j + 1]`)", "`L2: c[i, j] = ...`" for a labelled
 * statement, or "S5" without an AST. */
static const char *stmt_desc(ft_ctx *ctx, const an_access *acc)
{
    if (!acc->stmt)
        return acc->stmt_name;
    if (acc->stmt->label)
        return ft_fmt(ctx, "`%s`", stmt_line(ctx, acc->stmt));
    return ft_fmt(ctx, "%s (`%s`)", acc->stmt_name, stmt_line(ctx, acc->stmt));
}

/* isl's text of a map, arena-owned. */
static const char *map_text(ft_ctx *ctx, isl_map *m)
{
    char *s = isl_map_to_str(m);
    const char *r = ft_strdup(ctx, s ? s : "(isl error)");
    free(s);
    return r;
}

/* The relation simplified under sizes >= 0, for reading. */
static isl_map *readable(const an_deps *d, const isl_map *rel)
{
    isl_map *m = isl_map_gist_params(isl_map_copy((isl_map *)rel),
                                     isl_set_copy(d->acc->context));
    return isl_map_coalesce(m);
}

char *an_dep_text(const an_deps *d, const an_dep *dep)
{
    ft_ctx *ctx = d->acc->ctx;
    isl_map *m = readable(d, dep->rel);
    isl_basic_map *ex = isl_map_sample(isl_map_copy(dep->rel));
    isl_map *exm = isl_map_from_basic_map(ex);
    char *t = ft_fmt(ctx, "%s dependence on '%s' from %s to %s: %s, e.g. %s",
                     kind_words[dep->kind], dep->var, stmt_desc(ctx, dep->src),
                     stmt_desc(ctx, dep->snk), map_text(ctx, m), map_text(ctx, exm));
    isl_map_free(m);
    isl_map_free(exm);
    return t;
}

/* ----------------------------------------------------------- queries */

/* { t -> t' : t = t' before level, t < t' at level } on n time dims. */
__isl_give isl_map *an_carried_time(isl_ctx *isl, int n, int level)
{
    isl_space *sp = isl_space_alloc(isl, 0, (unsigned)n, (unsigned)n);
    isl_map *m = isl_map_universe(sp);
    for (int i = 0; i < level && i < n; i++)
        m = isl_map_equate(m, isl_dim_in, (unsigned)i, isl_dim_out, (unsigned)i);
    if (level < n)
        m = isl_map_order_lt(m, isl_dim_in, (unsigned)level, isl_dim_out, (unsigned)level);
    return m;
}

/* The pairs of rel (S -> T) whose times are related by `time`. */
static isl_map *restrict_by_time(const an_accesses *a, const an_dep *dep, isl_map *time)
{
    an_stmt_info *s = an_find_stmt(a, dep->src->stmt_name);
    an_stmt_info *t = an_find_stmt(a, dep->snk->stmt_name);
    isl_map *pairs = isl_map_apply_range(
        isl_map_copy(s->schedule),
        isl_map_apply_range(isl_map_copy(time), isl_map_reverse(isl_map_copy(t->schedule))));
    return isl_map_intersect(isl_map_copy(dep->rel), pairs);
}

/* Whether statement `name` has a set in the filter (NULL: everything). */
static int in_filter(isl_union_set *filter, const char *name)
{
    if (!filter)
        return 1;
    isl_set_list *l = isl_union_set_get_set_list(filter);
    int found = 0;
    isl_size n = isl_set_list_n_set(l);
    for (int i = 0; i < n && !found; i++) {
        isl_set *s = isl_set_list_get_at(l, i);
        const char *sn = isl_set_get_tuple_name(s);
        found = sn && strcmp(sn, name) == 0;
        isl_set_free(s);
    }
    isl_set_list_free(l);
    return found;
}

int an_carried_at(const an_deps *d, __isl_keep isl_union_set *filter, int level,
                  int with_red, char **witness)
{
    const an_accesses *a = d->acc;
    isl_map *time = an_carried_time(a->isl, a->sched_dims, level);
    int found = 0;
    for (int i = 0; i < d->n && !found; i++) {
        const an_dep *dep = d->deps[i];
        if ((dep->kind == AN_RED && !with_red) || !in_filter(filter, dep->src->stmt_name) ||
            !in_filter(filter, dep->snk->stmt_name))
            continue;
        isl_map *c = restrict_by_time(a, dep, time);
        isl_bool empty = isl_map_is_empty(c);
        if (empty < 0) {
            found = -1;
        } else if (!empty) {
            found = 1;
            if (witness) {
                an_dep w = *dep;
                w.rel = c;
                *witness = an_dep_text(d, &w);
            }
        }
        isl_map_free(c);
    }
    isl_map_free(time);
    return found;
}

/* The schedule dimension of loop L's iterator, or -1 if L is not a loop
 * of the analysed function. */
static int loop_level(const an_deps *d, const ast_stmt *loop)
{
    const an_accesses *a = d->acc;
    if ((d->loop && d->loop != loop) || d->across)
        return -1;             /* an_loop_deps of another loop, or the pairs
                                  between items only: not known */
    for (int i = 0; i < a->nstmts; i++)
        if (a->stmts[i]->stmt == loop && loop->kind == AST_FOR)
            return 2 * a->stmts[i]->depth + 1;
    return -1;
}

int an_loop_carries_dep(const an_deps *d, const ast_stmt *loop, char **witness)
{
    int level = loop_level(d, loop);
    if (level < 0)
        return -1;
    isl_union_set *inside = an_domains_inside(d->acc, loop);
    int r = an_carried_at(d, inside, level, 0, witness);
    isl_union_set_free(inside);
    return r;
}

/* Whether some reduction pair carried at level inside filter is exact
 * (affine indices: exact = 1) or inexact (random access: exact = 0). */
static int carried_reduction(const an_deps *d, isl_union_set *filter, int level, int exact)
{
    isl_map *time = an_carried_time(d->acc->isl, d->acc->sched_dims, level);
    int found = 0;
    for (int i = 0; i < d->n && !found; i++) {
        const an_dep *dep = d->deps[i];
        if (dep->kind != AN_RED || !dep->exact != !exact ||
            !in_filter(filter, dep->src->stmt_name) ||
            !in_filter(filter, dep->snk->stmt_name))
            continue;
        isl_map *c = restrict_by_time(d->acc, dep, time);
        found = isl_map_is_empty(c) == isl_bool_false;
        isl_map_free(c);
    }
    isl_map_free(time);
    return found;
}

an_par an_loop_parallel(const an_deps *d, const ast_stmt *loop, char **witness)
{
    int level = loop_level(d, loop);
    if (level < 0)
        return AN_PAR_ERROR;
    isl_union_set *inside = an_domains_inside(d->acc, loop);
    an_par r = AN_PAR_OK;
    int dep = an_carried_at(d, inside, level, 0, witness);
    if (dep)
        r = dep < 0 ? AN_PAR_ERROR : AN_PAR_NO;
    else if (an_carried_at(d, inside, level, 1, witness) > 0)
        r = carried_reduction(d, inside, level, 0) ? AN_PAR_ATOMIC : AN_PAR_REDUCTION;
    isl_union_set_free(inside);
    return r;
}

int an_loop_affine_collisions(const an_deps *d, const ast_stmt *loop)
{
    int level = loop_level(d, loop);
    if (level < 0)
        return -1;
    isl_union_set *inside = an_domains_inside(d->acc, loop);
    int r = carried_reduction(d, inside, level, 1);
    isl_union_set_free(inside);
    return r;
}

/* Whether the statement named name lies inside AST statement s. */
static int named_inside(const an_accesses *a, const char *name, const ast_stmt *s)
{
    an_stmt_info *info = an_find_stmt(a, name);
    return info && an_stmt_inside(info, s);
}

/* Whether statement s lies inside d's region (an_region_deps; always
 * without one): it has instances there, or encloses some below the region. */
static int in_region(const an_deps *d, const ast_stmt *s)
{
    if (!d->region || s == d->region)
        return 1;
    const an_accesses *a = d->acc;
    for (int i = 0; i < a->nstmts; i++) {
        const an_stmt_info *info = a->stmts[i];
        if (info->stmt == s)
            return 1;
        int below = 0;         /* the region was met on the way down */
        for (int k = 0; k < info->nanc; k++) {
            below |= info->anc[k] == d->region;
            if (info->anc[k] == s)
                return below;
        }
    }
    return 0;
}

/* Whether s and t are two different items of d's sequence. */
static int two_items(const an_deps *d, const ast_stmt *s, const ast_stmt *t)
{
    const ast_stmt *seq = d->region;
    int found = 0;
    for (int i = 0; seq->kind == AST_SEQ && i < seq->u.seq.n; i++)
        found += seq->u.seq.stmts[i] == s || seq->u.seq.stmts[i] == t;
    return s != t && found == 2;
}

/* Add var to out's tensors unless it is there. */
static void add_tensor(ft_ctx *ctx, an_between *out, const char *var)
{
    for (int i = 0; i < out->ntensors; i++)
        if (strcmp(out->tensors[i], var) == 0)
            return;
    const char **t = ft_alloc(ctx, sizeof(char *) * (size_t)(out->ntensors + 1));
    if (out->ntensors)
        memcpy(t, out->tensors, sizeof(char *) * (size_t)out->ntensors);
    t[out->ntensors++] = var;
    out->tensors = t;
}

int an_deps_between(const an_deps *d, const ast_stmt *s, const ast_stmt *t,
                    an_between *out)
{
    const an_accesses *a = d->acc;
    *out = (an_between){0};
    if (d->loop || !in_region(d, s) || !in_region(d, t) || (d->across && !two_items(d, s, t)))
        return -1;             /* an_loop_deps holds one loop's carried pairs
                                  only, an_region_deps one region's pairs,
                                  an_items_across_deps those between items */
    int n = 0;
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        if (dep->kind == AN_RED)
            continue;
        int fwd = named_inside(a, dep->src->stmt_name, s) && named_inside(a, dep->snk->stmt_name, t);
        int bwd = named_inside(a, dep->src->stmt_name, t) && named_inside(a, dep->snk->stmt_name, s);
        if (!fwd && !bwd)
            continue;
        out->forward |= fwd;
        out->backward |= bwd;
        add_tensor(a->ctx, out, dep->var);
        if (!out->witness)
            out->witness = an_dep_text(d, dep);
        n++;
    }
    return n;
}

/* The pairs of dep whose times in new_sched are not in order (the source
 * at or after the sink).  The schedule is first restricted to the
 * instances the dependence relates: comparing the whole schedule with
 * itself costs a map per pair of statements, for every dependence (a
 * swap in subdivnet_full ran for minutes). */
static isl_union_map *reversed_pairs(const an_dep *dep, isl_union_map *new_sched)
{
    isl_union_map *rel = isl_union_map_from_map(isl_map_copy(dep->rel));
    isl_union_set *src = isl_union_set_from_set(isl_map_domain(isl_map_copy(dep->rel)));
    isl_union_set *snk = isl_union_set_from_set(isl_map_range(isl_map_copy(dep->rel)));
    isl_union_map *ge = isl_union_map_lex_ge_union_map(
        isl_union_map_intersect_domain(isl_union_map_copy(new_sched), src),
        isl_union_map_intersect_domain(isl_union_map_copy(new_sched), snk));
    return isl_union_map_intersect(rel, ge);
}

/* The map of new_sched on the instances of statement space sp (a set
 * space), into time space tsp; NULL when new_sched leaves it out. */
static isl_map *sched_of(isl_union_map *new_sched, isl_space *sp, isl_space *tsp)
{
    isl_space *msp = isl_space_map_from_domain_and_range(sp, isl_space_copy(tsp));
    isl_map *m = isl_union_map_extract_map(new_sched, msp);
    if (m && isl_map_plain_is_empty(m) == isl_bool_true) {
        isl_map_free(m);
        return NULL;
    }
    return m;
}

/* reversed_pairs on maps: the schedules of dep's two statements taken out
 * of new_sched (its one time space tsp) rather than the whole union
 * intersected twice per dependence (the same operations on the only maps
 * that meet).  NULL when new_sched leaves a statement out (not checked). */
static isl_map *reversed_pairs_map(const an_dep *dep, isl_union_map *new_sched,
                                   isl_space *tsp)
{
    isl_space *sp = isl_map_get_space(dep->rel);
    isl_map *ss = sched_of(new_sched, isl_space_domain(isl_space_copy(sp)), tsp);
    isl_map *ts = sched_of(new_sched, isl_space_range(sp), tsp);
    if (!ss || !ts) {
        isl_map_free(ss);
        isl_map_free(ts);
        return NULL;
    }
    ss = isl_map_intersect_domain(ss, isl_map_domain(isl_map_copy(dep->rel)));
    ts = isl_map_intersect_domain(ts, isl_map_range(isl_map_copy(dep->rel)));
    return isl_map_intersect(isl_map_copy(dep->rel), isl_map_lex_ge_map(ss, ts));
}

/* The time space of new_sched's maps when they all have one, else NULL. */
static isl_space *time_space(isl_union_map *new_sched)
{
    isl_space *sp = NULL;
    isl_map_list *l = isl_union_map_get_map_list(new_sched);
    isl_size n = isl_map_list_n_map(l);
    for (int i = 0; i < n; i++) {
        isl_map *m = isl_map_list_get_at(l, i);
        isl_space *r = isl_space_range(isl_map_get_space(m));
        isl_map_free(m);
        if (sp && isl_space_is_equal(sp, r) != isl_bool_true) {
            isl_space_free(r);
            sp = isl_space_free(sp);
            break;
        }
        isl_space_free(sp);
        sp = r;
    }
    isl_map_list_free(l);
    return sp;
}

/* 1 when pairs (taken: dep's pairs that a new order reverses) is not
 * empty (*witness, if asked for, says which), 0 when empty, -1 on isl
 * errors. */
static int check_reversed(const an_deps *d, const an_dep *dep, isl_map *pairs, char **witness)
{
    isl_bool empty = isl_map_is_empty(pairs);
    int r = empty < 0 ? -1 : !empty;
    if (r == 1 && witness) {
        an_dep w = *dep;
        w.rel = pairs;
        *witness = an_dep_text(d, &w);
    }
    isl_map_free(pairs);
    return r;
}

int an_order_reverses_dep(const an_deps *d, __isl_keep isl_union_map *new_sched,
                          char **witness)
{
    if (d->loop || d->across)
        return -1;             /* an_loop_deps holds one loop's carried pairs only */
    int found = 0;
    isl_space *tsp = time_space(new_sched);
    for (int i = 0; i < d->n && !found; i++) {
        const an_dep *dep = d->deps[i];
        if (dep->kind == AN_RED)
            continue;
        isl_map *pairs = tsp ? reversed_pairs_map(dep, new_sched, tsp) : NULL;
        if (pairs) {
            found = check_reversed(d, dep, pairs, witness);
            continue;
        }
        isl_union_map *bad = reversed_pairs(dep, new_sched);
        isl_bool empty = isl_union_map_is_empty(bad);
        if (empty < 0) {
            found = -1;
        } else if (!empty) {
            found = 1;
            if (witness) {
                an_dep w = *dep;
                isl_space *sp = isl_map_get_space(dep->rel);
                w.rel = isl_union_map_extract_map(bad, sp);
                *witness = an_dep_text(d, &w);
                isl_map_free(w.rel);
            }
        }
        isl_union_map_free(bad);
    }
    isl_space_free(tsp);
    return found;
}

/* ------------------------------------------------------- --emit=deps */

/* "Li", or "S3 (for i)" for an unlabelled loop. */
static const char *loop_name(ft_ctx *ctx, const an_stmt_info *info)
{
    const ast_stmt *l = info->stmt;
    return l->label ? l->label : ft_fmt(ctx, "%s (for %s)", info->name, l->u.loop.iter);
}

/* One line per loop: what running its iterations in parallel needs. */
static void print_loops(FILE *out, const an_deps *d)
{
    static const char *const par_text[] = {
        "parallel", "parallel as a reduction", "parallel with atomics", "not parallel",
        "not analysed (isl error)"};
    ft_ctx *ctx = d->acc->ctx;
    for (int i = 0; i < d->acc->nstmts; i++) {
        const an_stmt_info *info = d->acc->stmts[i];
        if (!info->stmt || info->stmt->kind != AST_FOR)
            continue;
        an_par p = an_loop_parallel(d, info->stmt, NULL);
        fprintf(out, "  loop %s: %s\n", loop_name(ctx, info), par_text[p]);
    }
}

/* Whether statement name is the source or sink of a printed dependence. */
static int stmt_in_deps(const an_deps *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (d->deps[i]->kind != AN_RED &&
            (strcmp(d->deps[i]->src->stmt_name, name) == 0 ||
             strcmp(d->deps[i]->snk->stmt_name, name) == 0))
            return 1;
    return 0;
}

/* The first line of s without its label. */
static const char *unlabelled_line(ft_ctx *ctx, const ast_stmt *s)
{
    const char *l = stmt_line(ctx, s);
    size_t n = s->label ? strlen(s->label) : 0;
    return n && strncmp(l, s->label, n) == 0 && strncmp(l + n, ": ", 2) == 0 ? l + n + 2 : l;
}

void an_print_func_deps(FILE *out, const an_deps *d)
{
    const an_accesses *a = d->acc;
    ft_ctx *ctx = a->ctx;
    fprintf(out, "func %s:\n", a->func ? a->func->name : "(isl)");
    for (int i = 0; i < a->nstmts; i++)
        if (a->stmts[i]->stmt && stmt_in_deps(d, a->stmts[i]->name))
            fprintf(out, "  %s is `%s`\n", a->stmts[i]->name, unlabelled_line(ctx, a->stmts[i]->stmt));
    int any = 0;
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        if (dep->kind == AN_RED)
            continue;
        isl_map *m = readable(d, dep->rel);
        fprintf(out, "  %s %s: %s -> %s: %s\n", kind_names[dep->kind], dep->var,
                dep->src->stmt_name, dep->snk->stmt_name, map_text(ctx, m));
        isl_map_free(m);
        any = 1;
    }
    if (!any)
        fputs("  no dependences\n", out);
    print_loops(out, d);
}
