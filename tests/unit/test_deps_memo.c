/* test_deps_memo.c - the reuse of analysis results while the
 * auto-scheduler changes a function (analysis/deps_cache.c, memo.c).
 *
 * With the dependence cache on, an_loop_deps and an_items_deps hand out
 * results of earlier questions (per function version) and the access walk
 * takes domains, schedules and access relations from its memo (keyed by
 * their inputs).  A stale answer would be one computed before a change.
 * Here a function is changed step by step the ways transforms change it
 * (a fusion, then loop bounds, indices, a condition, a shape and a loop's
 * direction edited in place, on the same nodes), and after each step every
 * loop's an_loop_deps, every neighbour pair's an_items_deps and the body's
 * an_region_deps, asked with the cache on, must equal those computed with
 * the cache off: the same statements, domains, schedules, accesses and
 * dependences (isl equality).  Each step is one that a cache keyed on
 * node identity, or a memo missing one of the inputs, would get wrong.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "deps.h"
#include "driver.h"
#include "sched_util.h"
#include "schedule.h"
#include "visit.h"

static const char *const PROGRAM =
    "export func f(n: size, x: f32[n + 1] in, y: f32[n] out, z: f32[n] out):\n"
    "    var a: f32[n + 1]\n"
    "    var b: f32[n]\n"
    "    L1: for i in range(n):\n"
    "        a[i] = x[i] * 2\n"
    "    L2: for j in range(n):\n"
    "        b[j] = a[j] + 1\n"
    "    L3: for k in range(n):\n"
    "        if k > 0:\n"
    "            y[k] = a[k + 1] + b[k]\n"
    "        else:\n"
    "            y[k] = 0\n"
    "    L4: for p in range(n):\n"
    "        L5: for q in range(4):\n"
    "            z[p] += b[p] * f32(q)\n";

/* Whether two maps (or sets, as maps) are equal; both taken. */
static int map_eq(isl_map *x, isl_map *y)
{
    int r = isl_map_is_equal(x, y) == isl_bool_true;
    isl_map_free(x);
    isl_map_free(y);
    return r;
}

/* Whether x and y hold the same statements, accesses and dependences. */
static int same_deps(const an_deps *x, const an_deps *y)
{
    const an_accesses *a = x->acc, *b = y->acc;
    if (a->nstmts != b->nstmts || a->n != b->n || x->n != y->n)
        return 0;
    for (int i = 0; i < a->nstmts; i++) {
        const an_stmt_info *s = a->stmts[i], *t = b->stmts[i];
        if (strcmp(s->name, t->name) || s->stmt != t->stmt ||
            !map_eq(isl_map_from_range(isl_set_copy(s->domain)),
                    isl_map_from_range(isl_set_copy(t->domain))) ||
            !map_eq(isl_map_copy(s->schedule), isl_map_copy(t->schedule)))
            return 0;
    }
    for (int i = 0; i < a->n; i++) {
        const an_access *s = a->acc[i], *t = b->acc[i];
        if (strcmp(s->var, t->var) || strcmp(s->stmt_name, t->stmt_name) ||
            s->exact != t->exact || s->kind != t->kind ||
            !map_eq(isl_map_copy(s->rel), isl_map_copy(t->rel)))
            return 0;
    }
    for (int i = 0; i < x->n; i++) {
        const an_dep *s = x->deps[i], *t = y->deps[i];
        if (s->kind != t->kind || strcmp(s->var, t->var) ||
            strcmp(s->src->stmt_name, t->src->stmt_name) ||
            strcmp(s->snk->stmt_name, t->snk->stmt_name) || s->exact != t->exact ||
            !map_eq(isl_map_copy(s->rel), isl_map_copy(t->rel)))
            return 0;
    }
    return 1;
}

/* What to ask: a loop's dependences, or those of items lo..lo+1 of a
 * sequence (lo < 0: all of it). */
typedef struct question {
    const ast_stmt *s;
    int loop, lo;
} question;

/* The answer to q, with the cache (and memo) on or off. */
static an_deps *ask(ft_ctx *ctx, ast_func *f, question q, int cached)
{
    struct an_deps_cache *c = ctx->deps_cache;
    if (!cached)
        ctx->deps_cache = NULL;
    an_deps *d = q.loop ? an_loop_deps(ctx, f, q.s) : an_items_deps(ctx, f, q.s, q.lo, q.lo + 1);
    ctx->deps_cache = c;
    return d;
}

/* The loops and sequences of a function. */
typedef struct collect {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec loops, seqs;
    const char *label;       /* find: the statement labelled so */
    ast_stmt *found;
} collect;

static int collect_cb(ast_visitor *v, ast_stmt *s)
{
    collect *c = (collect *)v;
    if (s->kind == AST_FOR)
        ft_vec_push(c->ctx, &c->loops, s);
    if (s->kind == AST_SEQ)
        ft_vec_push(c->ctx, &c->seqs, s);
    if (c->label && s->label && !strcmp(s->label, c->label))
        c->found = s;
    return 1;
}

/* The statement of f labelled label. */
static ast_stmt *labelled(ft_ctx *ctx, ast_func *f, const char *label)
{
    collect c = {.v.stmt = collect_cb, .ctx = ctx, .label = label};
    ast_visit(f->body, &c.v);
    ck_assert_msg(c.found != NULL, "no statement %s", label);
    return c.found;
}

/* Ask every question twice with the cache on (the second from the cache)
 * and once with it off; returns the questions asked. */
static int check_all(ft_ctx *ctx, ast_func *f, const char *step)
{
    collect c = {.v.stmt = collect_cb, .ctx = ctx};
    ast_visit(f->body, &c.v);
    ft_vec qs = {0};
    for (int i = 0; i < c.loops.len; i++) {
        question *q = ft_alloc(ctx, sizeof *q);
        *q = (question){c.loops.items[i], 1, 0};
        ft_vec_push(ctx, &qs, q);
    }
    for (int i = 0; i < c.seqs.len; i++) {
        ast_stmt *seq = c.seqs.items[i];
        for (int k = -1; k + 1 < seq->u.seq.n; k++) {
            question *q = ft_alloc(ctx, sizeof *q);
            *q = (question){seq, 0, k};
            ft_vec_push(ctx, &qs, q);
        }
    }
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < qs.len; i++) {
            question *q = qs.items[i];
            an_deps *got = ask(ctx, f, *q, 1), *want = ask(ctx, f, *q, 0);
            ck_assert_msg(got && want, "%s: the analysis failed", step);
            ck_assert_msg(same_deps(got, want), "%s: stale answer for %s S%d (items %d..)",
                          step, q->loop ? "loop" : "sequence", q->s->id, q->lo);
            an_deps_free(got);
            an_deps_free(want);
        }
    return qs.len;
}

/* The first node of kind AST_INT with value v in e, or NULL. */
static ast_expr *find_int(ast_expr *e, int64_t v)
{
    if (!e)
        return NULL;
    if (e->kind == AST_INT && e->u.ival == v)
        return e;
    if (e->kind == AST_BINARY) {
        ast_expr *r = find_int(e->u.bin.a, v);
        return r ? r : find_int(e->u.bin.b, v);
    }
    if (e->kind == AST_CAST)
        return find_int(e->u.cast.a, v);
    return NULL;
}

/* The first Load of var in e, or NULL. */
static ast_expr *find_load(ast_expr *e, const char *var)
{
    if (!e)
        return NULL;
    if (e->kind == AST_LOAD && !strcmp(e->u.load.var, var))
        return e;
    switch (e->kind) {
    case AST_BINARY: {
        ast_expr *r = find_load(e->u.bin.a, var);
        return r ? r : find_load(e->u.bin.b, var);
    }
    case AST_UNARY: return find_load(e->u.un.a, var);
    case AST_CAST: return find_load(e->u.cast.a, var);
    default: return NULL;
    }
}

/* The store of the body of loop (descending through ifs and sequences:
 * the first found). */
static ast_stmt *first_store(ast_stmt *s)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case AST_STORE:
    case AST_REDUCE: return s;
    case AST_FOR: return first_store(s->u.loop.body);
    case AST_IF: return first_store(s->u.branch.then);
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++) {
            ast_stmt *r = first_store(s->u.seq.stmts[i]);
            if (r)
                return r;
        }
        return NULL;
    default: return NULL;
    }
}

/* The VarDef of name above s in f, or NULL. */
static ast_stmt *vardef(ast_stmt *s, const char *name)
{
    if (!s)
        return NULL;
    if (s->kind == AST_VARDEF)
        return !strcmp(s->u.def.name, name) ? s : vardef(s->u.def.body, name);
    if (s->kind == AST_SEQ)
        for (int i = 0; i < s->u.seq.n; i++) {
            ast_stmt *r = vardef(s->u.seq.stmts[i], name);
            if (r)
                return r;
        }
    return NULL;
}

START_TEST(changes_in_place)
{
    ft_ctx *ctx = ft_ctx_new();
    ctx->opts.no_auto = 1;
    ft_source *src = ft_source_from_string(ctx, "memo.ft", PROGRAM);
    ast_program *p = ft_compile(ctx, src, NULL, NULL);
    ck_assert_msg(p && !ctx->nerrors, "the program does not compile");
    ast_func *f = p->funcs[0];
    an_deps_cache_begin(ctx);
    int asked = check_all(ctx, f, "as written");

    /* a fusion: the neighbours of L1 are now L3's loop */
    ast_stmt *l1 = labelled(ctx, f, "L1"), *l2 = labelled(ctx, f, "L2");
    ck_assert_int_eq(xf_fuse(ctx, f, l1, l2, NULL, l1->loc), 0);
    asked += check_all(ctx, f, "after fusing L1 and L2");
    /* L1 writes a[i], L3 reads a[k + 1]: a dependence between them */
    int at;
    ast_stmt *seq = xf_parent_seq(ctx, f->body, l1, &at);
    an_deps *d = an_items_deps(ctx, f, seq, at, at + 1);
    an_between b = {0};
    ck_assert_int_gt(an_deps_between(d, l1, seq->u.seq.stmts[at + 1], &b), 0);
    an_deps_free(d);

    /* in place: the read a[k + 1] becomes a[k + 2] */
    ast_stmt *l3 = labelled(ctx, f, "L3");
    ast_stmt *st = first_store(l3);
    ast_expr *load = find_load(st->u.store.value, "a");
    ck_assert_ptr_nonnull(load);
    ast_expr *one = find_int(load->u.load.idx[0], 1);
    ck_assert_ptr_nonnull(one);
    one->u.ival = 2;
    asked += check_all(ctx, f, "a[k + 1] -> a[k + 2]");

    /* in place: the condition k > 0 becomes k > 3 */
    ast_stmt *cond = l3->u.loop.body->kind == AST_IF ? l3->u.loop.body : NULL;
    ck_assert_ptr_nonnull(cond);
    ast_expr *zero = find_int(cond->u.branch.cond, 0);
    ck_assert_ptr_nonnull(zero);
    zero->u.ival = 3;
    asked += check_all(ctx, f, "k > 0 -> k > 3");

    /* in place: a's shape n + 1 becomes n + 7 */
    ast_stmt *def = vardef(f->body, "a");
    ck_assert_ptr_nonnull(def);
    ast_expr *ext = find_int(def->u.def.shape[0], 1);
    ck_assert_ptr_nonnull(ext);
    ext->u.ival = 7;
    asked += check_all(ctx, f, "a: f32[n + 1] -> f32[n + 7]");

    /* in place: L5 runs 6 times, then downwards */
    ast_stmt *l5 = labelled(ctx, f, "L5");
    ck_assert_int_eq(l5->u.loop.end->kind, AST_INT);
    l5->u.loop.end->u.ival = 6;
    asked += check_all(ctx, f, "L5: range(4) -> range(6)");
    l5->u.loop.begin->u.ival = 5;
    l5->u.loop.end->u.ival = -1;
    l5->u.loop.step->u.ival = -1;
    asked += check_all(ctx, f, "L5: range(6) -> range(5, -1, -1)");

    /* in place: z[p] += ... becomes z[0] += ... (L4 now accumulates) */
    ast_stmt *red = first_store(labelled(ctx, f, "L4"));
    ck_assert_int_eq(red->kind, AST_REDUCE);
    ast_expr *ix = red->u.red.idx[0];
    ck_assert_int_eq(ix->kind, AST_VAR);
    ix->kind = AST_INT;
    ix->u.ival = 0;
    asked += check_all(ctx, f, "z[p] -> z[0]");
    ck_assert_int_gt(asked, 50);

    an_deps_cache_end(ctx);
    ft_ctx_free(ctx);
}
END_TEST

static Suite *deps_memo_suite(void)
{
    Suite *s = suite_create("deps_memo");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, changes_in_place);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(deps_memo_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
