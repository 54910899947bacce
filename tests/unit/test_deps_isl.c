/* test_deps_isl.c - the dependence analysis from access relations in isl
 * text, without the parser: every .isl file in tests/deps is one case.
 *
 * A case is lines `key: value` (`#` starts a comment line):
 *   domain: UNION_SET         the statement instances
 *   schedule: UNION_MAP       their original order (one time space)
 *   read: / write: UNION_MAP  accesses { S[i] -> a[...] }
 *   reduce+: reduce*: reducemin: reducemax: UNION_MAP   reductions
 *   RAW: / WAR: / WAW: / RED: UNION_MAP   expected relations (is_equal)
 *   carried L: yes|no         a dependence carried at schedule dimension L
 *   reverses: / keeps: UNION_MAP   a new schedule that does / does not
 *                              reverse a dependence
 * Expectations are checked after all accesses are read, in file order.
 */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "deps.h"

typedef struct add_state {
    an_accesses *a;
    isl_union_set *domain;
} add_state;

/* Add the statement of one schedule map with its domain. */
static isl_stat add_stmt(__isl_take isl_map *sched, void *user)
{
    add_state *st = user;
    isl_space *sp = isl_space_domain(isl_map_get_space(sched));
    isl_set *dom = isl_union_set_extract_set(st->domain, sp);
    st->a->sched_dims = isl_map_dim(sched, isl_dim_out);
    an_add_stmt(st->a, isl_map_get_tuple_name(sched, isl_dim_in), dom, sched);
    return isl_stat_ok;
}

typedef struct acc_state {
    an_accesses *a;
    an_acc_kind kind;
    ast_reduce_op op;
} acc_state;

static isl_stat add_acc(__isl_take isl_map *m, void *user)
{
    acc_state *st = user;
    return an_add_access(st->a, st->kind, st->op, m, 1) ? isl_stat_ok : isl_stat_error;
}

/* The access kind of a key, or -1. */
static int access_key(const char *key, ast_reduce_op *op)
{
    static const char *const reds[] = {"reduce+", "reduce*", "reducemin", "reducemax"};
    if (strcmp(key, "read") == 0)
        return AN_ACC_READ;
    if (strcmp(key, "write") == 0)
        return AN_ACC_WRITE;
    for (int i = 0; i < 4; i++)
        if (strcmp(key, reds[i]) == 0) {
            *op = (ast_reduce_op)i;
            return AN_ACC_REDUCE;
        }
    return -1;
}

/* The lines of a file, split at ':' into keys and values. */
typedef struct line {
    char *key, *val;
} line;

static int read_lines(const char *path, line *out, int cap)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot open %s", path);
    char buf[4096];
    int n = 0;
    while (fgets(buf, sizeof buf, f) && n < cap) {
        buf[strcspn(buf, "\n")] = 0;
        char *colon = strchr(buf, ':');
        if (buf[0] == '#' || !colon)
            continue;
        *colon = 0;
        out[n].key = strdup(buf);
        out[n++].val = strdup(colon + 1);
    }
    fclose(f);
    return n;
}

/* Check one expectation line against d. */
static void check_line(const char *path, ft_ctx *ctx, an_deps *d, const line *l)
{
    isl_ctx *isl = ft_isl(ctx);
    static const char *const kinds[] = {"RAW", "WAR", "WAW", "RED"};
    for (int k = 0; k < AN_DEP_KINDS; k++)
        if (strcmp(l->key, kinds[k]) == 0) {
            isl_union_map *want = isl_union_map_read_from_str(isl, l->val);
            isl_union_map *got = an_deps_untagged(d, k);
            isl_bool eq = isl_union_map_is_equal(want, got);
            if (eq != isl_bool_true)
                isl_union_map_dump(got);
            ck_assert_msg(eq == isl_bool_true, "%s: %s differs (got above)", path, l->key);
            isl_union_map_free(want);
            isl_union_map_free(got);
            return;
        }
    int level;
    if (sscanf(l->key, "carried %d", &level) == 1) {
        int want = strstr(l->val, "yes") != NULL;
        ck_assert_msg(an_carried_at(d, NULL, level, 0, NULL) == want, "%s: carried %d", path,
                      level);
        return;
    }
    if (strcmp(l->key, "reverses") == 0 || strcmp(l->key, "keeps") == 0) {
        isl_union_map *s = isl_union_map_read_from_str(isl, l->val);
        char *w = NULL;
        int r = an_order_reverses_dep(d, s, &w);
        isl_union_map_free(s);
        ck_assert_msg(r == (l->key[0] == 'r'), "%s: %s %s", path, l->key, w ? w : "");
        return;
    }
    ck_abort_msg("%s: unknown key '%s'", path, l->key);
}

/* Run one .isl case. */
static void run_case(const char *path)
{
    ft_ctx *ctx = ft_ctx_new();
    isl_ctx *isl = ft_isl(ctx);
    line lines[64];
    int n = read_lines(path, lines, 64);
    an_accesses *a = an_accesses_new(ctx, isl);
    isl_union_set *dom = NULL;
    ast_reduce_op op = AST_RED_ADD;
    for (int i = 0; i < n; i++) {
        int kind = access_key(lines[i].key, &op);
        if (strcmp(lines[i].key, "domain") == 0) {
            dom = isl_union_set_read_from_str(isl, lines[i].val);
        } else if (strcmp(lines[i].key, "schedule") == 0) {
            ck_assert_msg(dom, "%s: the domain comes before the schedule", path);
            isl_union_map *s = isl_union_map_read_from_str(isl, lines[i].val);
            add_state st = {a, dom};
            isl_union_map_foreach_map(s, add_stmt, &st);
            isl_union_map_free(s);
        } else if (kind >= 0) {
            isl_union_map *m = isl_union_map_read_from_str(isl, lines[i].val);
            acc_state st = {a, (an_acc_kind)kind, op};
            ck_assert_msg(isl_union_map_foreach_map(m, add_acc, &st) == isl_stat_ok,
                          "%s: an access of a statement without a schedule", path);
            isl_union_map_free(m);
        }
    }
    an_deps *d = an_compute_deps(a);
    ck_assert_msg(d, "%s: the analysis failed", path);
    for (int i = 0; i < n; i++)
        if (access_key(lines[i].key, &op) < 0 && strcmp(lines[i].key, "domain") &&
            strcmp(lines[i].key, "schedule"))
            check_line(path, ctx, d, &lines[i]);
    an_deps_free(d);
    an_accesses_free(a);
    isl_union_set_free(dom);
    for (int i = 0; i < n; i++) {
        free(lines[i].key);
        free(lines[i].val);
    }
    ft_ctx_free(ctx);
}

START_TEST(isl_cases)
{
    const char *root = getenv("FTC_SOURCE_ROOT");
    ck_assert_msg(root, "FTC_SOURCE_ROOT is not set (run through meson test)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/deps", root);
    DIR *dp = opendir(dir);
    ck_assert_msg(dp, "cannot open %s", dir);
    struct dirent *de;
    int cases = 0;
    while ((de = readdir(dp))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".isl"))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        run_case(path);
        cases++;
    }
    closedir(dp);
    ck_assert_int_ge(cases, 4);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("deps_isl");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, isl_cases);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
