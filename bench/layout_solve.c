/* layout_solve.c - time the layout-choice solver (transforms/layout_solve.c).
 *
 *     bench_layout_solve
 *
 * Solves the unit test's 1,000 seeded random problems (1 to 10 variables
 * of 2 to 4 candidates, tests/unit/layout_cases.c), each checked against
 * brute force so that only correct solves are timed, and prints the max
 * and the median time of one solve; then the median of RUNS solves of a
 * 200-variable chain of 4 candidates, of a complete graph of 10 variables
 * of 4, and (for information) of a 20x20 grid under a 1e5 table limit.
 * Each target prints `ok` or `FAIL`; the exit status is 1 on any FAIL.
 * Timing lives here, never in the unit tests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "layout_cases.h"
#include "layout_solve.h"
#include "bench_time.h"

enum { RUNS = 21, RANDOM = 1000 };
#define LIMIT 100000000L

/* Print one target's line; returns 1 when it failed. */
static int target(const char *what, double ms, double limit_ms, int correct)
{
    int ok = correct && ms < limit_ms;
    printf("%-34s %9.4f ms  (target < %g ms%s)  %s\n", what, ms, limit_ms,
           correct ? "" : ", WRONG ANSWER", ok ? "ok" : "FAIL");
    return !ok;
}

/* Time one solve of q under limit (the answer into choice and *res). */
static double time_solve(const lc_problem *q, long limit, int *choice, xf_ly_result *res)
{
    double t0 = bench_now_ms();
    int rc = xf_layout_solve(&q->p, limit, choice, res);
    double t = bench_now_ms() - t0;
    if (rc)
        res->cost = NAN;
    return t;
}

/* The random problems: max and median solve times, and whether every
 * solve was exact and matched brute force.  Returns the failed targets. */
static int bench_random(void)
{
    lc_rng r = { 20261126 };
    static double t[RANDOM];
    int choice[10], correct = 1;
    for (int i = 0; i < RANDOM; i++) {
        lc_problem *q = lc_random(&r);
        xf_ly_result res;
        t[i] = time_solve(q, LIMIT, choice, &res);
        correct &= res.exact && lc_close(res.cost, lc_brute(&q->p, NULL)) &&
                   lc_close(res.cost, lc_cost(&q->p, choice));
        lc_free(q);
    }
    double med = bench_median(t, RANDOM), max = t[RANDOM - 1];
    return target("random problems: max", max, 10, correct) +
           target("random problems: median", med, 10, correct);
}

/* Median time of RUNS solves of q under limit; *exact from the last. */
static double median_solve(const lc_problem *q, long limit, int *exact)
{
    double t[RUNS];
    int *choice = malloc(q->p.n * sizeof *choice);
    xf_ly_result res = { 0, 0, 0 };
    for (int i = 0; i < RUNS; i++)
        t[i] = time_solve(q, limit, choice, &res);
    free(choice);
    *exact = res.exact;
    return bench_median(t, RUNS);
}

/* A complete graph of n variables of k candidates, random real costs. */
static lc_problem *complete_problem(lc_rng *r, int n, int k)
{
    int ks[64];
    for (int i = 0; i < n; i++)
        ks[i] = k;
    lc_problem *q = lc_new(n, ks);
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++) {
            double *c = lc_add_edge(q, u, v);
            for (int i = 0; i < k * k; i++)
                c[i] = 10 * lc_unit(r);
        }
    return q;
}

/* Every measurement, then `ok` or `FAIL` for all of them. */
int main(void)
{
    int failed = bench_random(), exact;
    lc_rng r = { 7 };
    lc_problem *chain = lc_grid(&r, 1, 200, 4);
    double ms = median_solve(chain, LIMIT, &exact);
    failed += target("chain 200 x 4 (median)", ms, 50, exact);
    lc_free(chain);
    lc_problem *dense = complete_problem(&r, 10, 4);
    ms = median_solve(dense, LIMIT, &exact);
    failed += target("complete 10 x 4 (median)", ms, 10, exact);
    lc_free(dense);
    lc_problem *grid = lc_grid(&r, 20, 20, 4);
    ms = median_solve(grid, 100000, &exact);
    printf("%-34s %9.4f ms  (approximate: exact = %d)\n", "grid 20x20 x 4, limit 1e5 (median)",
           ms, exact);
    lc_free(grid);
    printf("%s\n", failed ? "FAIL" : "ok");
    return failed ? 1 : 0;
}
