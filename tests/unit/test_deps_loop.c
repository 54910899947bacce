/* test_deps_loop.c - the per-loop and per-region dependences
 * (analysis/deps_loop.c) against the whole function's (analysis/deps.c).
 *
 * For every program of tests/golden/ and bench/ft/ that compiles (the bench
 * gradients too): an_func_deps (pairwise) must list the pairs isl's flow
 * finds (an_compute_deps, the reference below), and for every loop of
 * every function the pairs an_loop_deps
 * holds must equal, kind by kind, the pairs of the flow's carried at the
 * loop's level between statements inside it (an_carried_at's definition),
 * and the queries the auto-scheduler and the primitives ask
 * (an_loop_parallel, an_loop_carries_dep, an_loop_affine_collisions) must
 * answer alike; the pairs of an_region_deps of every loop and of the
 * function's body must equal the whole function's between statements
 * inside it in one iteration of the loops around it, and an_deps_between
 * of neighbours must agree (an_items_deps of two neighbours too, and
 * an_items_across_deps of three).  The bench programs are compiled with and without the
 * auto-scheduler (its schedules make other loop shapes).  Queries about
 * another loop must fail rather than answer.
 */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <isl/union_map.h>

#include "ast.h"
#include "deps.h"
#include "driver.h"

/* The pairs of kind k in d carried at loop's level inside it, untagged;
 * on an_loop_deps they are all of kind k. */
static isl_union_map *carried(const an_deps *d, const ast_stmt *loop, an_dep_kind k)
{
    const an_accesses *a = d->acc;
    int level = -1;
    for (int i = 0; i < a->nstmts; i++)
        if (a->stmts[i]->stmt == loop)
            level = 2 * a->stmts[i]->depth + 1;
    ck_assert_int_ge(level, 1);
    isl_map *time = an_carried_time(a->isl, a->sched_dims, level);
    isl_union_map *u = isl_union_map_empty(isl_set_get_space(a->context));
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        an_stmt_info *s = an_find_stmt(a, dep->src->stmt_name);
        an_stmt_info *t = an_find_stmt(a, dep->snk->stmt_name);
        if (dep->kind != k || !an_stmt_inside(s, loop) || !an_stmt_inside(t, loop))
            continue;
        isl_map *pairs = isl_map_apply_range(
            isl_map_copy(s->schedule),
            isl_map_apply_range(isl_map_copy(time), isl_map_reverse(isl_map_copy(t->schedule))));
        u = isl_union_map_add_map(u, isl_map_intersect(isl_map_copy(dep->rel), pairs));
    }
    isl_map_free(time);
    return u;
}

/* Regions of more statements are not compared (SoftRas's backward
 * function: its pairwise analysis takes seconds, the passes use regions of
 * a few loops). */
enum { MAX_REGION = 60 };

/* rel (taken) with the first k iterators equal on both sides. */
static isl_map *same_outer(isl_map *rel, int k)
{
    for (int d = 0; d < k; d++)
        rel = isl_map_equate(rel, isl_dim_in, (unsigned)d, isl_dim_out, (unsigned)d);
    return rel;
}

/* The pairs of kind k in d between statements inside region, in one
 * iteration of the `outer` loops around it, untagged. */
static isl_union_map *inside(const an_deps *d, const ast_stmt *region, an_dep_kind k, int outer)
{
    const an_accesses *a = d->acc;
    isl_union_map *u = isl_union_map_empty(isl_set_get_space(a->context));
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        an_stmt_info *s = an_find_stmt(a, dep->src->stmt_name);
        an_stmt_info *t = an_find_stmt(a, dep->snk->stmt_name);
        if (dep->kind == k && an_stmt_inside(s, region) && an_stmt_inside(t, region))
            u = isl_union_map_add_map(u, same_outer(isl_map_copy(dep->rel), outer));
    }
    return u;
}

/* Whether d has a non-empty dependence (not a reduction pair) from a
 * statement inside s to one inside t (the whole analysis also lists empty
 * relations that isl's flow left). */
static int depends(const an_deps *d, const ast_stmt *s, const ast_stmt *t, int outer)
{
    for (int i = 0; i < d->n; i++) {
        const an_dep *dep = d->deps[i];
        an_stmt_info *x = an_find_stmt(d->acc, dep->src->stmt_name);
        an_stmt_info *y = an_find_stmt(d->acc, dep->snk->stmt_name);
        if (dep->kind == AN_RED || !an_stmt_inside(x, s) || !an_stmt_inside(y, t))
            continue;
        isl_map *m = same_outer(isl_map_copy(dep->rel), outer);
        int r = isl_map_is_empty(m) == isl_bool_false;
        isl_map_free(m);
        if (r)
            return 1;
    }
    return 0;
}

/* an_items_across_deps of items i .. i + 2 of seq (fewer at its end)
 * against the whole analysis: an_deps_between of every two of them, in
 * one iteration of the loops around seq; questions about one item or a
 * loop are refused.  Returns the failures. */
static int check_across(ft_ctx *ctx, ast_func *f, const an_deps *whole, const ast_stmt *seq,
                        int i, const char *path)
{
    int hi = i + 2 < seq->u.seq.n ? i + 2 : seq->u.seq.n - 1, bad = 0;
    an_deps *x = an_items_across_deps(ctx, f, seq, i, hi);
    ck_assert_msg(x != NULL, "%s: %s: an_items_across_deps failed", path, f->name);
    int in = x->acc->root_depth;
    for (int p = i; p <= hi; p++)
        for (int q = i; q <= hi; q++) {
            const ast_stmt *s = seq->u.seq.stmts[p], *t = seq->u.seq.stmts[q];
            an_between br;
            int n = an_deps_between(x, s, t, &br);
            if (p == q) {
                bad += n != -1;
                continue;
            }
            int fwd = depends(whole, s, t, in), bwd = depends(whole, t, s, in);
            bad += (n > 0) != (fwd || bwd) || br.forward != fwd || br.backward != bwd;
        }
    const ast_stmt *l = seq->u.seq.stmts[i];
    bad += l->kind == AST_FOR && an_loop_parallel(x, l, NULL) != AN_PAR_ERROR;
    an_deps_free(x);
    return bad;
}

/* Compare an_region_deps of region with the whole analysis: the pairs of
 * every kind, and an_deps_between of each two neighbours of a sequence. */
static int check_region(ft_ctx *ctx, ast_func *f, const an_deps *whole, const ast_stmt *region,
                        const char *path)
{
    int size = 0;
    for (int i = 0; i < whole->acc->nstmts; i++)
        size += an_stmt_inside(whole->acc->stmts[i], region);
    if (size > MAX_REGION)
        return 0;
    an_deps *rd = an_region_deps(ctx, f, region);
    ck_assert_msg(rd != NULL, "%s: %s: an_region_deps failed", path, f->name);
    int outer = rd->acc->root_depth;
    int bad = 0;
    for (int k = 0; k < AN_DEP_KINDS; k++) {
        isl_union_map *want = inside(whole, region, (an_dep_kind)k, outer);
        isl_union_map *got = inside(rd, region, (an_dep_kind)k, 0);
        if (isl_union_map_is_equal(want, got) != isl_bool_true) {
            fprintf(stderr, "%s: %s: region S%d, %s differs:\n  whole ", path, f->name,
                    region->id, an_dep_kind_name((an_dep_kind)k));
            isl_union_map_dump(want);
            fprintf(stderr, "  region ");
            isl_union_map_dump(got);
            bad++;
        }
        isl_union_map_free(want);
        isl_union_map_free(got);
    }
    const ast_stmt *seq = region->kind == AST_FOR ? region->u.loop.body : region;
    for (int i = 0; seq->kind == AST_SEQ && i + 1 < seq->u.seq.n; i++) {
        an_between br;
        const ast_stmt *s = seq->u.seq.stmts[i], *t = seq->u.seq.stmts[i + 1];
        int fwd = depends(whole, s, t, outer), bwd = depends(whole, t, s, outer);
        bad += (an_deps_between(rd, s, t, &br) > 0) != (fwd || bwd) || br.forward != fwd ||
               br.backward != bwd;
        an_deps *id = an_items_deps(ctx, f, seq, i, i + 1);
        ck_assert_msg(id != NULL, "%s: %s: an_items_deps failed", path, f->name);
        int in = id->acc->root_depth;    /* the sequence's own loops */
        fwd = depends(whole, s, t, in);
        bwd = depends(whole, t, s, in);
        bad += (an_deps_between(id, s, t, &br) > 0) != (fwd || bwd) || br.forward != fwd ||
               br.backward != bwd;
        an_deps_free(id);
        bad += check_across(ctx, f, whole, seq, i, path);
    }
    an_between b;
    if (region != f->body)
        bad += an_deps_between(rd, f->body, region, &b) != -1;
    an_deps_free(rd);
    return bad;
}

/* Compare the two analyses on one loop; returns the failures (printed). */
static int check_loop(ft_ctx *ctx, ast_func *f, const an_deps *whole, const ast_stmt *loop,
                      const ast_stmt *other, const char *path)
{
    an_deps *ld = an_loop_deps(ctx, f, loop);
    ck_assert_msg(ld != NULL, "%s: %s: an_loop_deps failed", path, f->name);
    int bad = 0;
    for (int k = 0; k < AN_DEP_KINDS; k++) {
        isl_union_map *want = carried(whole, loop, (an_dep_kind)k);
        isl_union_map *got = carried(ld, loop, (an_dep_kind)k);
        if (isl_union_map_is_equal(want, got) != isl_bool_true) {
            fprintf(stderr, "%s: %s: loop S%d, %s differs:\n  whole ", path, f->name, loop->id,
                    an_dep_kind_name((an_dep_kind)k));
            isl_union_map_dump(want);
            fprintf(stderr, "  loop  ");
            isl_union_map_dump(got);
            bad++;
        }
        isl_union_map_free(want);
        isl_union_map_free(got);
    }
    bad += an_loop_parallel(whole, loop, NULL) != an_loop_parallel(ld, loop, NULL);
    bad += an_loop_carries_dep(whole, loop, NULL) != an_loop_carries_dep(ld, loop, NULL);
    bad += an_loop_affine_collisions(whole, loop) != an_loop_affine_collisions(ld, loop);
    if (other)
        bad += an_loop_parallel(ld, other, NULL) != AN_PAR_ERROR;
    an_between b;
    bad += an_deps_between(ld, loop, loop, &b) != -1;
    an_deps_free(ld);
    return bad;
}

/* The whole function's dependences from isl's flow (an_compute_deps):
 * the reference (an_func_deps computes them pairwise). */
static an_deps *flow_deps(ft_ctx *ctx, ast_func *f)
{
    an_accesses *a = an_collect_accesses(ctx, f);
    an_deps *d = a ? an_compute_deps(a) : NULL;
    if (d)
        d->owns_acc = 1;
    return d;
}

/* an_func_deps (pairwise) against the flow's: the same pairs of each
 * kind, and the same entries (kind, statements, tensor) but for those
 * whose relation is empty.  Returns the failures. */
static int check_pairwise(ft_ctx *ctx, ast_func *f, const an_deps *flow, const char *path)
{
    an_deps *d = an_func_deps(ctx, f);
    ck_assert_msg(d != NULL, "%s: %s: an_func_deps failed", path, f->name);
    int bad = 0;
    for (int k = 0; k < AN_DEP_KINDS; k++) {
        isl_union_map *want = an_deps_untagged(flow, (an_dep_kind)k);
        isl_union_map *got = an_deps_untagged(d, (an_dep_kind)k);
        bad += isl_union_map_is_equal(want, got) != isl_bool_true;
        isl_union_map_free(want);
        isl_union_map_free(got);
    }
    int j = 0;
    for (int i = 0; i < flow->n; i++) {
        const an_dep *x = flow->deps[i];
        if (isl_map_is_empty(x->rel) == isl_bool_true)
            continue;
        const an_dep *y = j < d->n ? d->deps[j++] : NULL;
        bad += !y || x->kind != y->kind || strcmp(x->var, y->var) ||
               strcmp(x->src->stmt_name, y->src->stmt_name) ||
               strcmp(x->snk->stmt_name, y->snk->stmt_name) || x->exact != y->exact;
    }
    bad += j != d->n;
    if (bad)
        fprintf(stderr, "%s: %s: an_func_deps differs from the flow's\n", path, f->name);
    an_deps_free(d);
    return bad;
}

/* Compile text (the file at path, plus extra) and compare every loop of
 * every function; returns the loops checked. */
static int check_program(const char *path, const char *extra, int no_auto)
{
    ft_ctx *ctx = ft_ctx_new();
    FILE *null = fopen("/dev/null", "w");
    ctx->diag_out = null;
    ctx->opts.no_auto = no_auto;
    ft_source *src = ft_source_read(ctx, path);
    if (src && extra)
        src = ft_source_from_string(ctx, path, ft_fmt(ctx, "%s\n%s\n", src->text, extra));
    ast_program *p = src ? ft_compile(ctx, src, NULL, NULL) : NULL;
    int loops = 0, bad = 0;
    for (int i = 0; p && !ctx->nerrors && i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        an_deps *whole = flow_deps(ctx, f);
        ck_assert_msg(whole != NULL, "%s: %s: the flow analysis failed", path, f->name);
        bad += check_pairwise(ctx, f, whole, path);
        const ast_stmt *prev = NULL;
        bad += check_region(ctx, f, whole, f->body, path);
        for (int s = 0; s < whole->acc->nstmts; s++) {
            const ast_stmt *loop = whole->acc->stmts[s]->stmt;
            if (!loop || loop->kind != AST_FOR)
                continue;
            bad += check_loop(ctx, f, whole, loop, prev, path);
            bad += check_region(ctx, f, whole, loop, path);
            prev = loop;
            loops++;
        }
        an_deps_free(whole);
    }
    ft_ctx_free(ctx);
    fclose(null);
    ck_assert_msg(bad == 0, "%s: %d differences", path, bad);
    return loops;
}

/* The `# bench-grad: ...` line of a bench program (malloc'd), or NULL. */
static char *grad_line(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    char *r = NULL;
    while (fp && !r && fgets(line, sizeof line, fp)) {
        char *g = strstr(line, "bench-grad:");
        if (line[0] == '#' && g) {
            g += strlen("bench-grad:");
            g += strspn(g, " ");
            r = strdup(g);
        }
    }
    if (fp)
        fclose(fp);
    return r;
}

/* Check every .ft of dir (not *.inc.ft) as scheduled by its schedule
 * blocks; bench: also auto-scheduled, and each one with its bench-grad
 * line (not auto-scheduled: the whole analysis of SoftRas's backward
 * function takes seconds).  Returns the loops checked. */
static int check_dir(const char *dir, int bench)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int loops = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".ft") || strstr(e->d_name, ".inc.ft"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        loops += check_program(path, NULL, 1);
        if (bench)
            loops += check_program(path, NULL, 0);
        char *g = bench ? grad_line(path) : NULL;
        if (g)
            loops += check_program(path, g, 1);
        free(g);
    }
    closedir(d);
    return loops;
}

static const char *source_root(void)
{
    const char *root = getenv("FTC_SOURCE_ROOT");
    ck_assert_msg(root, "FTC_SOURCE_ROOT is not set (run through meson test)");
    return root;
}

START_TEST(golden_programs)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/golden", source_root());
    int loops = check_dir(dir, 0);
    ck_assert_int_gt(loops, 200);
}
END_TEST

START_TEST(bench_programs)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/bench/ft", source_root());
    int loops = check_dir(dir, 1);
    ck_assert_int_gt(loops, 20);
}
END_TEST

static Suite *deps_loop_suite(void)
{
    Suite *s = suite_create("deps_loop");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, golden_programs);
    tcase_add_test(tc, bench_programs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(deps_loop_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
