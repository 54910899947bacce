/* layout_solve.h - an exact solver for layout-choice problems (issue 22).
 *
 * Each tensor whose layout is free is a variable with a few candidate
 * layouts; a unary cost prices a variable's own candidate, a pairwise cost
 * the conversions between two neighbouring tensors.  The solver chooses one
 * candidate per variable minimising the total: the MAP problem of a pairwise
 * Markov random field.  It knows nothing of the AST, so it is tested and
 * timed alone (tests/unit/test_layout_solve.c, bench/layout_solve.c).
 *
 * Exact by variable (bucket) elimination in a greedy min-fill order while
 * no table exceeds the caller's limit; else an approximation (greedy start
 * and iterated conditional modes), flagged as such.  Plain C: no context,
 * no global state, all scratch memory freed before returning.
 */
#ifndef FT_XF_LAYOUT_SOLVE_H
#define FT_XF_LAYOUT_SOLVE_H

/* One pairwise cost: variables u != v; cost[a * k[v] + b] is the cost when
 * u takes candidate a and v takes b.  The table is borrowed (caller-owned). */
typedef struct xf_ly_edge {
    int u, v;
    const double *cost;
} xf_ly_edge;

/* A problem; every array is borrowed from the caller and only read.
 * Costs are finite or +INFINITY ("forbidden"); NaN and -INFINITY are
 * malformed. */
typedef struct xf_ly_problem {
    int n;                        /* variables 0..n-1 (n >= 0) */
    const int *k;                 /* k[i] >= 1 candidates of variable i */
    const double *const *unary;   /* unary[i][a], or NULL (all 0), or unary[i] NULL */
    int nedges;
    const xf_ly_edge *edges;      /* several edges between the same pair allowed: they add */
} xf_ly_problem;

/* What the solver says about its answer. */
typedef struct xf_ly_result {
    double cost;        /* total cost of the returned choice (recomputed from the problem) */
    int exact;          /* 1: proven optimal (variable elimination); 0: approximation */
    long largest_table; /* entries of the largest elimination table (a variable and
                           its neighbours when eliminated); 0 if none was built */
} xf_ly_result;

/* Choose choice[i] in [0, k[i]) minimising the sum of unary and pairwise
 * costs.  Exact (res->exact = 1) by variable elimination in a greedy
 * min-fill order (ties: smaller table, then lower variable) when no table
 * of that order exceeds table_limit entries; otherwise res->exact = 0 and
 * the better (ties: the first) of two iterated-conditional-modes descents,
 * one from a greedy start and one from all zeros, so never worse than
 * choosing candidate 0 everywhere.  Ties between candidates go to the
 * lowest index; the same problem always gives the same choice.  A variable
 * with k = 1 is folded into its neighbours' unary costs.  If every choice
 * is forbidden, res->cost is INFINITY and a choice is still returned.
 *
 * Returns 0, or -1 with choice and *res untouched when the problem is
 * malformed (p NULL, n < 0, k[i] < 1, an edge to itself or out of range, a
 * NULL table, a NaN or -INFINITY cost) or scratch memory ran out.
 * choice: caller-owned array of n ints (may be NULL when n = 0); res may
 * be NULL. */
int xf_layout_solve(const xf_ly_problem *p, long table_limit, int *choice,
                    xf_ly_result *res);

#endif
