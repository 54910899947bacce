/* layout_cases.c - layout-choice problems for testing and timing the solver
 * (layout_cases.h).  Nothing here calls the solver. */
#include "layout_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t lc_next(lc_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int lc_below(lc_rng *r, int n)
{
    return (int)(lc_next(r) % (uint64_t)n);
}

double lc_unit(lc_rng *r)
{
    return (lc_next(r) >> 11) * 0x1.0p-53;
}

lc_problem *lc_new(int n, const int *k)
{
    lc_problem *q = calloc(1, sizeof *q);
    q->k = malloc((n ? n : 1) * sizeof *q->k);
    q->unary = calloc(n ? n : 1, sizeof *q->unary);
    for (int i = 0; i < n; i++)
        q->k[i] = k ? k[i] : 2;
    q->p.n = n;
    q->p.k = q->k;
    q->p.unary = (const double *const *)q->unary;
    return q;
}

void lc_free(lc_problem *q)
{
    if (!q)
        return;
    for (int i = 0; i < q->p.n; i++)
        free(q->unary[i]);
    for (int e = 0; e < q->p.nedges; e++)
        free(q->costs[e]);
    free(q->k);
    free(q->unary);
    free(q->edges);
    free(q->costs);
    free(q);
}

double *lc_unary(lc_problem *q, int v)
{
    if (!q->unary[v])
        q->unary[v] = calloc(q->k[v], sizeof *q->unary[v]);
    return q->unary[v];
}

double *lc_add_edge(lc_problem *q, int u, int v)
{
    if (q->p.nedges == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->edges = realloc(q->edges, q->cap * sizeof *q->edges);
        q->costs = realloc(q->costs, q->cap * sizeof *q->costs);
    }
    double *t = calloc((size_t)q->k[u] * q->k[v], sizeof *t);
    q->costs[q->p.nedges] = t;
    q->edges[q->p.nedges] = (xf_ly_edge){ u, v, t };
    q->p.nedges++;
    q->p.edges = q->edges;
    return t;
}

/* One random cost in the problem's style: 0 small integers 0..3, 1 reals
 * in [0, 10), 2 either, with one chance in 25 of +INFINITY. */
static double lc_random_cost(lc_rng *r, int style)
{
    if (style == 2 && lc_below(r, 25) == 0)
        return INFINITY;
    if (style == 0 || (style == 2 && lc_below(r, 2)))
        return lc_below(r, 4);
    return 10 * lc_unit(r);
}

/* Fill the n entries of t with random costs of the style. */
static void lc_fill(lc_rng *r, double *t, int n, int style)
{
    for (int i = 0; i < n; i++)
        t[i] = lc_random_cost(r, style);
}

/* A random edge between u and v (random direction) with random costs. */
static void lc_random_edge(lc_rng *r, lc_problem *q, int u, int v, int style)
{
    if (lc_below(r, 2)) {
        int t = u;
        u = v;
        v = t;
    }
    double *t = lc_add_edge(q, u, v);
    lc_fill(r, t, q->k[u] * q->k[v], style);
}

lc_problem *lc_random(lc_rng *r)
{
    int n = 1 + lc_below(r, 10), k[10];
    for (int i = 0; i < n; i++)
        k[i] = 2 + lc_below(r, 3);
    lc_problem *q = lc_new(n, k);
    int style = lc_below(r, 3), unary_form = lc_below(r, 5);
    double density = lc_unit(r);
    for (int i = 0; i < n; i++)
        if (unary_form > 1 || (unary_form == 1 && lc_below(r, 4)))
            lc_fill(r, lc_unary(q, i), k[i], style);
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++)
            if (lc_unit(r) < density)
                lc_random_edge(r, q, u, v, style);
    for (int d = lc_below(r, 4), e0 = q->p.nedges; d > 0 && e0 > 0; d--) {
        const xf_ly_edge *e = &q->edges[lc_below(r, e0)];
        lc_random_edge(r, q, e->u, e->v, style);
    }
    if (unary_form == 0)
        q->p.unary = NULL;
    return q;
}

lc_problem *lc_grid(lc_rng *r, int rows, int cols, int k)
{
    int n = rows * cols;
    lc_problem *q = lc_new(n, NULL);
    for (int i = 0; i < n; i++) {
        q->k[i] = k;
        lc_fill(r, lc_unary(q, i), k, 1);
    }
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            if (x + 1 < cols)
                lc_fill(r, lc_add_edge(q, y * cols + x, y * cols + x + 1), k * k, 1);
            if (y + 1 < rows)
                lc_fill(r, lc_add_edge(q, y * cols + x, (y + 1) * cols + x), k * k, 1);
        }
    return q;
}

double lc_cost(const xf_ly_problem *p, const int *choice)
{
    double c = 0;
    for (int i = 0; i < p->n; i++)
        if (p->unary && p->unary[i])
            c += p->unary[i][choice[i]];
    for (int e = 0; e < p->nedges; e++) {
        const xf_ly_edge *ed = &p->edges[e];
        c += ed->cost[choice[ed->u] * p->k[ed->v] + choice[ed->v]];
    }
    return c;
}

double lc_brute(const xf_ly_problem *p, int *best)
{
    int *c = calloc(p->n ? p->n : 1, sizeof *c);
    double min = INFINITY;
    int first = 1;
    for (;;) {
        double v = lc_cost(p, c);
        if (first || v < min) {
            min = v;
            if (best)
                memcpy(best, c, p->n * sizeof *c);
        }
        first = 0;
        int i = p->n - 1;
        while (i >= 0 && ++c[i] == p->k[i])
            c[i--] = 0;
        if (i < 0)
            break;
    }
    free(c);
    return min;
}

int lc_valid(const xf_ly_problem *p, const int *choice)
{
    for (int i = 0; i < p->n; i++)
        if (choice[i] < 0 || choice[i] >= p->k[i])
            return 0;
    return 1;
}

int lc_close(double a, double b)
{
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}
