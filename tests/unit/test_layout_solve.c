/* test_layout_solve.c - the layout-choice solver (transforms/layout_solve.c).
 *
 * 1,000 seeded random problems against brute-force enumeration (exact,
 * and the approximation never below the minimum nor above all zeros); hand
 * cases (no variable, one, single candidates, components, a triangle that
 * fools the greedy choice, forbidden pairs, malformed problems); a
 * 200-variable chain with a known unique optimum; grids, exact on a 4x4
 * (brute force, and a row-by-row enumeration for 4 candidates) and
 * approximate on a 20x20 under a small table limit.  The references live
 * in layout_cases.c and share nothing with the solver.  No timing here:
 * bench/layout_solve.c prints the times.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout_cases.h"
#include "layout_solve.h"

/* A table limit no test problem reaches. */
#define HUGE_LIMIT 100000000L

/* Solve q exactly and check it against brute force: rc 0, exact, the
 * minimum cost, and a choice whose own cost is the reported one.  The
 * choice goes to choice (n ints). */
static void check_exact(const lc_problem *q, int *choice)
{
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(res.exact, 1);
    ck_assert(lc_valid(&q->p, choice));
    double want = lc_brute(&q->p, NULL);
    ck_assert_msg(lc_close(res.cost, want), "cost %.17g, brute force %.17g", res.cost, want);
    ck_assert_msg(lc_close(lc_cost(&q->p, choice), res.cost), "choice costs %.17g, reported %.17g",
                  lc_cost(&q->p, choice), res.cost);
}

/* Solve q with table limit 1 (so approximately, every variable having 2
 * candidates or more) and check: not exact, a valid choice of the reported
 * cost, no better than the minimum, no worse than all zeros. */
static void check_approx(const lc_problem *q, int *choice)
{
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, 1, choice, &res), 0);
    ck_assert_int_eq(res.exact, 0);
    ck_assert_int_eq(res.largest_table, 0);
    ck_assert(lc_valid(&q->p, choice));
    ck_assert(lc_close(lc_cost(&q->p, choice), res.cost));
    double min = lc_brute(&q->p, NULL);
    ck_assert(res.cost >= min || lc_close(res.cost, min));
    int *zero = calloc(q->p.n, sizeof *zero);
    double zc = lc_cost(&q->p, zero);
    free(zero);
    ck_assert(res.cost <= zc || lc_close(res.cost, zc));
}

START_TEST(test_random_vs_brute_force)
{
    lc_rng r = { 20261126 };
    int choice[10], again[10];
    for (int i = 0; i < 1000; i++) {
        lc_problem *q = lc_random(&r);
        check_exact(q, choice);
        ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, again, NULL), 0);
        ck_assert_int_eq(memcmp(choice, again, q->p.n * sizeof *choice), 0);
        check_approx(q, choice);
        lc_free(q);
    }
}
END_TEST

START_TEST(test_no_variable)
{
    lc_problem *q = lc_new(0, NULL);
    xf_ly_result res = { -1, -1, -1 };
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, NULL, &res), 0);
    ck_assert(res.cost == 0);
    ck_assert_int_eq(res.exact, 1);
    ck_assert_int_eq(res.largest_table, 0);
    lc_free(q);
}
END_TEST

START_TEST(test_one_variable)
{
    int k = 3, choice = -1;
    lc_problem *q = lc_new(1, &k);
    memcpy(lc_unary(q, 0), (double[]){ 3, 1, 1 }, sizeof(double[3]));
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, &choice, &res), 0);
    ck_assert_int_eq(choice, 1);  /* the lower of two equal candidates */
    ck_assert(res.cost == 1);
    ck_assert_int_eq(res.exact, 1);
    ck_assert_int_eq(res.largest_table, 3);
    q->p.unary = NULL;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, &choice, &res), 0);
    ck_assert_int_eq(choice, 0);
    ck_assert(res.cost == 0);
    lc_free(q);
}
END_TEST

START_TEST(test_many_candidates)
{
    /* 100,000 candidates, the last cheapest: no scratch grows with k^2 */
    int k = 100000, choice = -1;
    lc_problem *q = lc_new(1, &k);
    for (int a = 0; a < k; a++)
        lc_unary(q, 0)[a] = k - a;
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, &choice, &res), 0);
    ck_assert_int_eq(choice, k - 1);
    ck_assert(res.cost == 1);
    ck_assert_int_eq(res.largest_table, k);
    lc_free(q);
}
END_TEST

START_TEST(test_table_limit_boundary)
{
    /* a chain of 3 with 4 candidates: tables of 16 entries at most */
    int choice[3];
    lc_rng r = { 3 };
    lc_problem *q = lc_grid(&r, 1, 3, 4);
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, 16, choice, &res), 0);
    ck_assert_int_eq(res.exact, 1);
    ck_assert_int_eq(res.largest_table, 16);
    ck_assert(lc_close(res.cost, lc_brute(&q->p, NULL)));
    ck_assert_int_eq(xf_layout_solve(&q->p, 15, choice, &res), 0);
    ck_assert_int_eq(res.exact, 0);
    ck_assert(lc_close(res.cost, lc_cost(&q->p, choice)));
    lc_free(q);
}
END_TEST

START_TEST(test_single_candidates)
{
    int k[3] = { 1, 1, 1 }, choice[3] = { 5, 5, 5 };
    lc_problem *q = lc_new(3, k);
    lc_unary(q, 1)[0] = 2;
    lc_add_edge(q, 0, 1)[0] = 3;
    lc_add_edge(q, 2, 1)[0] = 4;
    lc_add_edge(q, 0, 1)[0] = 0.5;
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(choice[0] + choice[1] + choice[2], 0);
    ck_assert(res.cost == 9.5);
    ck_assert_int_eq(res.exact, 1);
    lc_free(q);

    /* single-candidate variables among others: they only add costs */
    int k2[3] = { 3, 1, 2 }, c2[3];
    q = lc_new(3, k2);
    memcpy(lc_add_edge(q, 0, 1), (double[]){ 5, 0, 5 }, sizeof(double[3]));
    memcpy(lc_add_edge(q, 1, 2), (double[]){ 0, 1 }, sizeof(double[2]));
    memcpy(lc_add_edge(q, 0, 2), (double[]){ 0, 0, 0, 0, 3, 0 }, sizeof(double[6]));
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, c2, &res), 0);
    ck_assert_int_eq(c2[0], 1);
    ck_assert_int_eq(c2[1], 0);
    ck_assert_int_eq(c2[2], 0);
    ck_assert(res.cost == 0);
    check_exact(q, c2);
    lc_free(q);
}
END_TEST

START_TEST(test_disconnected_components)
{
    /* {0, 2} best at (1, 0), {1, 3} at (1, 1); k = 3 everywhere */
    int k[4] = { 3, 3, 3, 3 }, choice[4];
    lc_problem *q = lc_new(4, k);
    double *d = lc_add_edge(q, 0, 2), *a = lc_add_edge(q, 3, 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            d[i * 3 + j] = i == j ? 10 : 1 + i + 2 * j;
            a[i * 3 + j] = i == j && i == 1 ? 0 : 4;
        }
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[2], 0);
    ck_assert_int_eq(choice[1], 1);
    ck_assert_int_eq(choice[3], 1);
    ck_assert(res.cost == 2);
    ck_assert_int_eq(res.exact, 1);
    ck_assert_int_eq(res.largest_table, 9);
    lc_free(q);
}
END_TEST

START_TEST(test_triangle_fools_greedy)
{
    /* Alone, 0 prefers candidate 0 (unary 0 vs 1), and choosing variables
     * in order the greedy ends at (0, 0, 0) of cost 6; the optimum is
     * (1, 1, 1) of cost 1 + 0 = 1. */
    int choice[3];
    lc_problem *q = lc_new(3, NULL);
    memcpy(lc_unary(q, 0), (double[]){ 0, 1 }, sizeof(double[2]));
    memcpy(lc_add_edge(q, 0, 1), (double[]){ 2, 3, 3, 0 }, sizeof(double[4]));
    memcpy(lc_add_edge(q, 1, 2), (double[]){ 2, 3, 3, 0 }, sizeof(double[4]));
    memcpy(lc_add_edge(q, 2, 0), (double[]){ 2, 3, 3, 0 }, sizeof(double[4]));
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 1);
    ck_assert_int_eq(choice[2], 1);
    ck_assert(res.cost == 1);
    ck_assert_int_eq(res.exact, 1);
    check_exact(q, choice);
    lc_free(q);
}
END_TEST

START_TEST(test_forbidden_pairs)
{
    /* both prefer 0, but (0, 0) and (1, 1) are forbidden */
    int choice[2];
    lc_problem *q = lc_new(2, NULL);
    memcpy(lc_unary(q, 0), (double[]){ 0, 1 }, sizeof(double[2]));
    memcpy(lc_unary(q, 1), (double[]){ 0, 2 }, sizeof(double[2]));
    memcpy(lc_add_edge(q, 0, 1), (double[]){ INFINITY, 0, 0, INFINITY }, sizeof(double[4]));
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 0);
    ck_assert(res.cost == 1);
    ck_assert_int_eq(xf_layout_solve(&q->p, 1, choice, &res), 0);
    ck_assert_int_eq(res.exact, 0);
    ck_assert(res.cost == 1);

    /* every choice forbidden: cost INFINITY, still a valid choice */
    memcpy(lc_add_edge(q, 1, 0), (double[]){ 0, INFINITY, INFINITY, 0 }, sizeof(double[4]));
    choice[0] = choice[1] = -1;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert(isinf(res.cost) && res.cost > 0);
    ck_assert(lc_valid(&q->p, choice));
    choice[0] = choice[1] = -1;
    ck_assert_int_eq(xf_layout_solve(&q->p, 1, choice, &res), 0);
    ck_assert(isinf(res.cost) && res.cost > 0);
    ck_assert(lc_valid(&q->p, choice));
    lc_free(q);
}
END_TEST

/* Whether solving q fails with -1 and leaves choice and res as they were. */
static int refused(const lc_problem *q)
{
    int choice[4] = { 7, 7, 7, 7 };
    xf_ly_result res = { 42, 42, 42 };
    int rc = xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res);
    return rc == -1 && choice[0] == 7 && choice[q->p.n - 1] == 7 && res.cost == 42 &&
           res.exact == 42 && res.largest_table == 42;
}

START_TEST(test_malformed)
{
    lc_problem *q = lc_new(3, NULL);
    lc_add_edge(q, 0, 1);
    double *e = lc_add_edge(q, 1, 2);
    ck_assert(!refused(q));
    q->edges[1].v = 1;                      /* an edge to itself */
    ck_assert(refused(q));
    q->edges[1].v = 3;                      /* out of range */
    ck_assert(refused(q));
    q->edges[1].v = -1;
    ck_assert(refused(q));
    q->edges[1].v = 2;
    q->edges[1].cost = NULL;
    ck_assert(refused(q));
    q->edges[1].cost = e;
    e[3] = NAN;                             /* NaN pairwise cost */
    ck_assert(refused(q));
    e[3] = -INFINITY;
    ck_assert(refused(q));
    e[3] = INFINITY;                        /* allowed: forbidden */
    ck_assert(!refused(q));
    lc_unary(q, 2)[1] = NAN;                /* NaN unary cost */
    ck_assert(refused(q));
    q->unary[2][1] = 0;
    q->k[0] = 0;                            /* no candidate */
    ck_assert(refused(q));
    q->k[0] = 2;
    q->p.n = -1;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, NULL, NULL), -1);
    q->p.n = 3;
    ck_assert_int_eq(xf_layout_solve(NULL, HUGE_LIMIT, NULL, NULL), -1);
    ck_assert(!refused(q));
    lc_free(q);
}
END_TEST

START_TEST(test_chain_known_optimum)
{
    /* Variable i's target is (7i + 3) % 4.  Unary: 0.9 at the target, 0.5
     * elsewhere; each link costs 0 when both ends are at their targets, 1
     * otherwise.  A set D of variables off target saves 0.4 |D| but pays
     * at least |D| / 2 links, so the targets are the unique optimum, of
     * cost 200 * 0.9. */
    enum { N = 200 };
    int k[N], choice[N];
    for (int i = 0; i < N; i++)
        k[i] = 4;
    lc_problem *q = lc_new(N, k);
    for (int i = 0; i < N; i++)
        for (int a = 0; a < 4; a++)
            lc_unary(q, i)[a] = a == (7 * i + 3) % 4 ? 0.9 : 0.5;
    for (int i = 0; i + 1 < N; i++) {
        double *t = lc_add_edge(q, i, i + 1);
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                t[a * 4 + b] = a == (7 * i + 3) % 4 && b == (7 * (i + 1) + 3) % 4 ? 0 : 1;
    }
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(res.exact, 1);
    ck_assert_int_eq(res.largest_table, 16);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(choice[i], (7 * i + 3) % 4);
    ck_assert(lc_close(res.cost, N * 0.9));
    lc_free(q);
}
END_TEST

/* The minimum of a rows x cols grid problem of k candidates (lc_grid's
 * numbering) by enumerating each row's k^cols values and, row after row,
 * the best total ending in each: exhaustive within rows, independent of
 * the solver.  Small grids only (k^cols squared steps per row). */
static double grid_min_by_rows(const xf_ly_problem *p, int rows, int cols, int k)
{
    int states = 1;
    for (int x = 0; x < cols; x++)
        states *= k;
    double *best = calloc(states, sizeof *best), *next = malloc(states * sizeof *next);
    int *row = calloc(p->n, sizeof *row);
    for (int y = 0; y < rows; y++) {
        for (int s = 0; s < states; s++) {
            next[s] = INFINITY;
            for (int prev = 0; prev < (y ? states : 1); prev++) {
                /* the best of rows 0..y-1 ending in prev, plus row y = s:
                 * its unary costs and its edges within and from above */
                double c = best[prev];
                for (int x = 0, a = s, b = prev; x < cols; x++, a /= k, b /= k) {
                    int v = y * cols + x;
                    row[v] = a % k;
                    if (y)
                        row[v - cols] = b % k;
                }
                for (int x = 0; x < cols; x++) {
                    int v = y * cols + x;
                    c += p->unary[v][row[v]];
                }
                for (int e = 0; e < p->nedges; e++) {
                    const xf_ly_edge *ed = &p->edges[e];
                    if (ed->v / cols == y && (ed->u / cols == y || ed->u / cols == y - 1))
                        c += ed->cost[row[ed->u] * k + row[ed->v]];
                }
                if (c < next[s])
                    next[s] = c;
            }
        }
        double *t = best;
        best = next;
        next = t;
    }
    double min = INFINITY;
    for (int s = 0; s < states; s++)
        min = fmin(min, best[s]);
    free(best);
    free(next);
    free(row);
    return min;
}

START_TEST(test_grid_4x4_exact)
{
    lc_rng r = { 4242 };
    int choice[16];
    lc_problem *q = lc_grid(&r, 4, 4, 2);
    check_exact(q, choice);  /* 2^16 choices: brute force */
    lc_free(q);

    q = lc_grid(&r, 4, 4, 4);
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, HUGE_LIMIT, choice, &res), 0);
    ck_assert_int_eq(res.exact, 1);
    ck_assert(lc_close(lc_cost(&q->p, choice), res.cost));
    double want = grid_min_by_rows(&q->p, 4, 4, 4);
    ck_assert_msg(lc_close(res.cost, want), "cost %.17g, by rows %.17g", res.cost, want);
    lc_free(q);
}
END_TEST

START_TEST(test_grid_20x20_approx)
{
    lc_rng r = { 2020 };
    enum { N = 400 };
    int choice[N], again[N], zero[N] = { 0 };
    lc_problem *q = lc_grid(&r, 20, 20, 4);
    xf_ly_result res;
    ck_assert_int_eq(xf_layout_solve(&q->p, 100000, choice, &res), 0);
    ck_assert_int_eq(res.exact, 0);
    ck_assert_int_eq(res.largest_table, 0);
    ck_assert(lc_valid(&q->p, choice));
    ck_assert(lc_close(lc_cost(&q->p, choice), res.cost));
    ck_assert(res.cost <= lc_cost(&q->p, zero));
    ck_assert_int_eq(xf_layout_solve(&q->p, 100000, again, NULL), 0);
    ck_assert_int_eq(memcmp(choice, again, sizeof choice), 0);
    lc_free(q);
}
END_TEST

static Suite *layout_solve_suite(void)
{
    Suite *s = suite_create("layout_solve");
    TCase *tc = tcase_create("layout_solve");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_vs_brute_force);
    tcase_add_test(tc, test_no_variable);
    tcase_add_test(tc, test_one_variable);
    tcase_add_test(tc, test_many_candidates);
    tcase_add_test(tc, test_table_limit_boundary);
    tcase_add_test(tc, test_single_candidates);
    tcase_add_test(tc, test_disconnected_components);
    tcase_add_test(tc, test_triangle_fools_greedy);
    tcase_add_test(tc, test_forbidden_pairs);
    tcase_add_test(tc, test_malformed);
    tcase_add_test(tc, test_chain_known_optimum);
    tcase_add_test(tc, test_grid_4x4_exact);
    tcase_add_test(tc, test_grid_20x20_approx);
    suite_add_tcase(s, tc);
    return s;
}

/* Run the suite; fails when any check does. */
int main(void)
{
    SRunner *sr = srunner_create(layout_solve_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
