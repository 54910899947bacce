/* layout_cases.h - layout-choice problems for testing and timing the solver.
 *
 * Shared by tests/unit/test_layout_solve.c and bench/layout_solve.c: a
 * small seeded generator (splitmix64, not rand()), problems that own their
 * arrays, the random problems of the tests, grids, and the reference the
 * solver is judged by: the cost of a choice and the minimum by brute-force
 * enumeration, written without any of the solver's code.
 */
#ifndef FT_TEST_LAYOUT_CASES_H
#define FT_TEST_LAYOUT_CASES_H

#include <stdint.h>

#include "layout_solve.h"

/* splitmix64's state: the same seed gives the same sequence everywhere. */
typedef struct lc_rng {
    uint64_t s;
} lc_rng;

/* The next 64 random bits of r. */
uint64_t lc_next(lc_rng *r);
/* A random integer in [0, n), n >= 1. */
int lc_below(lc_rng *r, int n);
/* A random double in [0, 1). */
double lc_unit(lc_rng *r);

/* A problem owning its arrays: p points into them.  unary[i] is NULL until
 * lc_unary gives variable i a table; p.unary may be set NULL to test the
 * "no unary costs" form. */
typedef struct lc_problem {
    xf_ly_problem p;
    int *k;
    double **unary;
    xf_ly_edge *edges;
    double **costs;     /* costs[e]: edge e's table (the edge's cost) */
    int cap;            /* room in edges and costs */
} lc_problem;

/* A problem of n variables with k[i] candidates (k NULL: all 2) and no
 * cost yet; malloc'd, freed by lc_free. */
lc_problem *lc_new(int n, const int *k);
/* Free q and everything it owns (q may be NULL). */
void lc_free(lc_problem *q);
/* Variable v's unary table (k[v] zeros when new), owned by q. */
double *lc_unary(lc_problem *q, int v);
/* A new edge u -> v with a zeroed table of k[u] * k[v] costs, owned by q,
 * returned for filling. */
double *lc_add_edge(lc_problem *q, int u, int v);

/* One random problem as the tests describe: 1 to 10 variables of 2 to 4
 * candidates, an edge density from none to complete, some duplicate edges
 * (either direction), unary costs absent, partly absent or present, costs
 * small integers (ties), reals, or either with a few +INFINITY. */
lc_problem *lc_random(lc_rng *r);
/* A rows x cols grid of k-candidate variables (row-major), random real
 * unary and edge costs. */
lc_problem *lc_grid(lc_rng *r, int rows, int cols, int k);

/* The cost of choice under p, summed term by term. */
double lc_cost(const xf_ly_problem *p, const int *choice);
/* The minimum cost over every choice of p, by enumeration; the first
 * minimal choice (in odometer order) into best unless NULL. */
double lc_brute(const xf_ly_problem *p, int *best);
/* Whether every choice[i] is in [0, k[i]). */
int lc_valid(const xf_ly_problem *p, const int *choice);
/* Whether a and b agree to a relative 1e-9 (infinities equal). */
int lc_close(double a, double b);

#endif
