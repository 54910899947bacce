/* layout_solve.c - an exact solver for layout-choice problems (issue 22).
 *
 * Requires: a problem of variables with a few candidates each, unary and
 * pairwise costs (layout_solve.h); nothing of the compiler.
 * Provides: one candidate per variable of minimal total cost, exact by
 * variable elimination while its tables stay under the caller's limit,
 * else the better of two iterated-conditional-modes descents.
 *
 * The steps: check the problem (no write happens on a malformed one); build
 * the working graph (unary costs with the edges to single-candidate
 * variables folded in, duplicate edges summed into one table per pair);
 * choose a min-fill elimination order, stopping as soon as a table would
 * exceed the limit; then eliminate (each step a message over the
 * variable's remaining neighbours and, per entry, the best candidate) and
 * read the choice back in reverse order.  The reported cost is recomputed
 * from the caller's problem, whatever path gave the choice.
 */
#include "layout_solve.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ICM sweeps of one descent at most: each sweep that changes something
 * lowers the cost, so the cap only guards against rounding ping-pong. */
enum { LY_MAX_SWEEPS = 1000 };

/* ------------------------------------------------------------ the problem */

/* Whether x may be a cost: finite or +INFINITY.  NaN and -INFINITY are
 * refused, since INFINITY + -INFINITY is NaN and no minimum would exist. */
static int ly_cost_ok(double x)
{
    return !isnan(x) && x != -INFINITY;
}

/* Whether the n entries of t are all costs (ly_cost_ok). */
static int ly_costs_ok(const double *t, long n)
{
    for (long i = 0; i < n; i++)
        if (!ly_cost_ok(t[i]))
            return 0;
    return 1;
}

/* Whether edge e of p joins two distinct variables of p through a table of
 * costs (p's k already checked). */
static int ly_edge_ok(const xf_ly_problem *p, const xf_ly_edge *e)
{
    if (e->u < 0 || e->u >= p->n || e->v < 0 || e->v >= p->n || e->u == e->v || !e->cost)
        return 0;
    return ly_costs_ok(e->cost, (long)p->k[e->u] * p->k[e->v]);
}

/* Whether p is a well-formed problem (the conditions of layout_solve.h),
 * checked in full before anything is written. */
static int ly_problem_ok(const xf_ly_problem *p)
{
    if (!p || p->n < 0 || p->nedges < 0 || (p->n > 0 && !p->k) ||
        (p->nedges > 0 && !p->edges))
        return 0;
    for (int i = 0; i < p->n; i++) {
        if (p->k[i] < 1)
            return 0;
        if (p->unary && p->unary[i] && !ly_costs_ok(p->unary[i], p->k[i]))
            return 0;
    }
    for (int e = 0; e < p->nedges; e++)
        if (!ly_edge_ok(p, &p->edges[e]))
            return 0;
    return 1;
}

/* The total cost of choice under p itself (unary costs, then the edges in
 * the caller's order), so that the reported cost never depends on how the
 * solver regrouped the terms. */
static double ly_problem_cost(const xf_ly_problem *p, const int *choice)
{
    double c = 0;
    for (int i = 0; p->unary && i < p->n; i++)
        if (p->unary[i])
            c += p->unary[i][choice[i]];
    for (int e = 0; e < p->nedges; e++) {
        const xf_ly_edge *ed = &p->edges[e];
        c += ed->cost[(long)choice[ed->u] * p->k[ed->v] + choice[ed->v]];
    }
    return c;
}

/* a * b for table sizes (a, b >= 1), LONG_MAX when it would overflow: a
 * saturated size is always over any limit. */
static long ly_mul_sat(long a, long b)
{
    return a > LONG_MAX / b ? LONG_MAX : a * b;
}

/* ------------------------------------------------------- the working graph */

/* The problem as the solver works on it, all owned: each variable's unary
 * costs with its edges to single-candidate variables folded in, and one
 * table per unordered pair of multi-candidate variables (duplicates
 * summed), with the pairs at each variable. */
typedef struct ly_graph {
    int n;
    const int *k;       /* borrowed from the problem */
    double **un;        /* un[v][a] */
    int npairs;
    int *ends;          /* pair e joins ends[2e] < ends[2e + 1] */
    double **tab;       /* tab[e][a * k[ends[2e + 1]] + b] */
    int *off, *inc;     /* the pairs at v: inc[off[v] .. off[v + 1]) */
} ly_graph;

/* One multi-candidate edge for sorting: its ends in ascending order and its
 * index in the problem (the last key, so sorting is deterministic). */
typedef struct ly_key {
    int lo, hi, idx;
} ly_key;

/* qsort order of ly_key: by pair, then by index in the problem. */
static int ly_key_cmp(const void *a, const void *b)
{
    const ly_key *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Free everything g owns (any field may be NULL: g is calloc'd state). */
static void ly_graph_free(ly_graph *g)
{
    for (int v = 0; g->un && v < g->n; v++)
        free(g->un[v]);
    for (int e = 0; g->tab && e < g->npairs; e++)
        free(g->tab[e]);
    free(g->un);
    free(g->tab);
    free(g->ends);
    free(g->off);
    free(g->inc);
}

/* g->un from p: the unary costs (0 where absent).  Returns 0, -1 out of
 * memory. */
static int ly_graph_unary(ly_graph *g, const xf_ly_problem *p)
{
    g->un = calloc(p->n ? p->n : 1, sizeof *g->un);
    if (!g->un)
        return -1;
    for (int v = 0; v < p->n; v++) {
        g->un[v] = calloc(p->k[v], sizeof **g->un);
        if (!g->un[v])
            return -1;
        if (p->unary && p->unary[v])
            memcpy(g->un[v], p->unary[v], p->k[v] * sizeof **g->un);
    }
    return 0;
}

/* Fold edge e, one of whose ends has a single candidate, into the other
 * end's unary costs (into u's when both have one: a constant). */
static void ly_fold_edge(ly_graph *g, const xf_ly_edge *e)
{
    const int *k = g->k;
    if (k[e->v] == 1) {
        for (int a = 0; a < k[e->u]; a++)
            g->un[e->u][a] += e->cost[a];
    } else {
        for (int b = 0; b < k[e->v]; b++)
            g->un[e->v][b] += e->cost[b];
    }
}

/* The multi-candidate edges of p as sorted keys in *keys (malloc'd, the
 * caller frees), their number in *nkeys; the others folded into g->un.
 * Returns 0, -1 out of memory. */
static int ly_sorted_keys(ly_graph *g, const xf_ly_problem *p, ly_key **keys, int *nkeys)
{
    *nkeys = 0;
    *keys = malloc((p->nedges ? p->nedges : 1) * sizeof **keys);
    if (!*keys)
        return -1;
    for (int i = 0; i < p->nedges; i++) {
        const xf_ly_edge *e = &p->edges[i];
        if (p->k[e->u] == 1 || p->k[e->v] == 1) {
            ly_fold_edge(g, e);
            continue;
        }
        ly_key key = { e->u < e->v ? e->u : e->v, e->u < e->v ? e->v : e->u, i };
        (*keys)[(*nkeys)++] = key;
    }
    qsort(*keys, *nkeys, sizeof **keys, ly_key_cmp);
    return 0;
}

/* Add edge e of p into tab, the table of its pair oriented lo -> hi
 * (transposed when e runs hi -> lo). */
static void ly_add_edge(double *tab, const xf_ly_edge *e, const int *k)
{
    int ku = k[e->u], kv = k[e->v];
    for (int a = 0; a < ku; a++)
        for (int b = 0; b < kv; b++) {
            long at = e->u < e->v ? (long)a * kv + b : (long)b * ku + a;
            tab[at] += e->cost[(long)a * kv + b];
        }
}

/* g's pairs from the sorted keys: one zeroed table per distinct pair, each
 * edge added in problem order.  Returns 0, -1 out of memory. */
static int ly_graph_pairs(ly_graph *g, const xf_ly_problem *p, const ly_key *keys, int nkeys)
{
    int np = 0;
    for (int i = 0; i < nkeys; i++)
        np += i == 0 || keys[i].lo != keys[i - 1].lo || keys[i].hi != keys[i - 1].hi;
    g->ends = malloc((2 * np + 1) * sizeof *g->ends);
    g->tab = calloc(np + 1, sizeof *g->tab);
    if (!g->ends || !g->tab)
        return -1;
    g->npairs = np;
    int e = -1;
    for (int i = 0; i < nkeys; i++) {
        if (i == 0 || keys[i].lo != keys[i - 1].lo || keys[i].hi != keys[i - 1].hi) {
            e++;
            g->ends[2 * e] = keys[i].lo;
            g->ends[2 * e + 1] = keys[i].hi;
            g->tab[e] = calloc((long)p->k[keys[i].lo] * p->k[keys[i].hi], sizeof **g->tab);
            if (!g->tab[e])
                return -1;
        }
        ly_add_edge(g->tab[e], &p->edges[keys[i].idx], p->k);
    }
    return 0;
}

/* g->off and g->inc: the pairs at each variable, in pair order.  Returns
 * 0, -1 out of memory. */
static int ly_graph_incidence(ly_graph *g)
{
    g->off = calloc(g->n + 1, sizeof *g->off);
    g->inc = malloc((2 * g->npairs + 1) * sizeof *g->inc);
    int *fill = calloc(g->n + 1, sizeof *fill);
    if (!g->off || !g->inc || !fill) {
        free(fill);
        return -1;
    }
    for (int i = 0; i < 2 * g->npairs; i++)
        g->off[g->ends[i] + 1]++;
    for (int v = 0; v < g->n; v++)
        g->off[v + 1] += g->off[v];
    for (int e = 0; e < g->npairs; e++)
        for (int s = 0; s < 2; s++) {
            int v = g->ends[2 * e + s];
            g->inc[g->off[v] + fill[v]++] = e;
        }
    free(fill);
    return 0;
}

/* Build g from p (well formed).  Returns 0, or -1 out of memory with g
 * freed. */
static int ly_graph_build(ly_graph *g, const xf_ly_problem *p)
{
    memset(g, 0, sizeof *g);
    g->n = p->n;
    g->k = p->k;
    ly_key *keys = NULL;
    int nkeys = 0;
    int rc = ly_graph_unary(g, p);
    if (rc == 0)
        rc = ly_sorted_keys(g, p, &keys, &nkeys);
    if (rc == 0)
        rc = ly_graph_pairs(g, p, keys, nkeys);
    if (rc == 0)
        rc = ly_graph_incidence(g);
    free(keys);
    if (rc)
        ly_graph_free(g);
    return rc;
}

/* The other end of pair e from v. */
static int ly_other(const ly_graph *g, int e, int v)
{
    return g->ends[2 * e] == v ? g->ends[2 * e + 1] : g->ends[2 * e];
}

/* ------------------------------------------------------- elimination order */

/* A variable's score as queued: the fill edges and table entries of its
 * elimination; out of date once the variable is rescored or gone. */
typedef struct ly_hent {
    long fill, size;
    int v;
} ly_hent;

/* The interaction graph while the order is chosen: neighbour lists that
 * gain the fill edges as variables are eliminated, each variable's current
 * score, and a binary heap of queued scores (ly_hent_before first). */
typedef struct ly_egraph {
    int n;
    const int *k;
    int **nb;
    int *deg, *cap;
    long *fill, *size;
    char *gone;
    int *stamp;         /* stamp[x] == round: x rescored in this round */
    int round;
    ly_hent *heap;
    int nheap, capheap;
} ly_egraph;

/* Free everything eg owns (calloc'd state: NULL fields allowed). */
static void ly_egraph_free(ly_egraph *eg)
{
    for (int v = 0; eg->nb && v < eg->n; v++)
        free(eg->nb[v]);
    free(eg->nb);
    free(eg->deg);
    free(eg->cap);
    free(eg->fill);
    free(eg->size);
    free(eg->gone);
    free(eg->stamp);
    free(eg->heap);
}

/* Whether y is among x's neighbours. */
static int ly_eg_has(const ly_egraph *eg, int x, int y)
{
    for (int i = 0; i < eg->deg[x]; i++)
        if (eg->nb[x][i] == y)
            return 1;
    return 0;
}

/* Append y to x's neighbours (y not there yet).  Returns 0, -1 out of
 * memory. */
static int ly_eg_push(ly_egraph *eg, int x, int y)
{
    if (eg->deg[x] == eg->cap[x]) {
        int cap = eg->cap[x] ? 2 * eg->cap[x] : 4;
        int *nb = realloc(eg->nb[x], cap * sizeof *nb);
        if (!nb)
            return -1;
        eg->nb[x] = nb;
        eg->cap[x] = cap;
    }
    eg->nb[x][eg->deg[x]++] = y;
    return 0;
}

/* Remove y from x's neighbours (the list's order does not matter: scores
 * do not depend on it and scopes are sorted). */
static void ly_eg_remove(ly_egraph *eg, int x, int y)
{
    for (int i = 0; i < eg->deg[x]; i++)
        if (eg->nb[x][i] == y) {
            eg->nb[x][i] = eg->nb[x][--eg->deg[x]];
            return;
        }
}

/* Connect x and y unless they are already.  Returns 0, -1 out of memory. */
static int ly_eg_link(ly_egraph *eg, int x, int y)
{
    if (ly_eg_has(eg, x, y))
        return 0;
    return ly_eg_push(eg, x, y) || ly_eg_push(eg, y, x) ? -1 : 0;
}

/* Whether queued score x goes before y: fewer fill edges, then a smaller
 * table, then the lower variable. */
static int ly_hent_before(const ly_hent *x, const ly_hent *y)
{
    if (x->fill != y->fill)
        return x->fill < y->fill;
    if (x->size != y->size)
        return x->size < y->size;
    return x->v < y->v;
}

/* Queue v's current score.  Returns 0, -1 out of memory. */
static int ly_heap_push(ly_egraph *eg, int v)
{
    if (eg->nheap == eg->capheap) {
        int cap = eg->capheap ? 2 * eg->capheap : 16;
        ly_hent *h = realloc(eg->heap, cap * sizeof *h);
        if (!h)
            return -1;
        eg->heap = h;
        eg->capheap = cap;
    }
    ly_hent e = { eg->fill[v], eg->size[v], v };
    int i = eg->nheap++;
    while (i > 0 && ly_hent_before(&e, &eg->heap[(i - 1) / 2])) {
        eg->heap[i] = eg->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    eg->heap[i] = e;
    return 0;
}

/* Remove and return the first queued score (the heap is not empty). */
static ly_hent ly_heap_pop(ly_egraph *eg)
{
    ly_hent top = eg->heap[0], last = eg->heap[--eg->nheap];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= eg->nheap)
            break;
        if (c + 1 < eg->nheap && ly_hent_before(&eg->heap[c + 1], &eg->heap[c]))
            c++;
        if (!ly_hent_before(&eg->heap[c], &last))
            break;
        eg->heap[i] = eg->heap[c];
        i = c;
    }
    eg->heap[i] = last;
    return top;
}

/* eg from g's pairs, scores not yet computed.  Returns 0, -1 out of
 * memory. */
static int ly_egraph_init(ly_egraph *eg, const ly_graph *g)
{
    int n1 = g->n ? g->n : 1;
    memset(eg, 0, sizeof *eg);
    eg->n = g->n;
    eg->k = g->k;
    eg->nb = calloc(n1, sizeof *eg->nb);
    eg->deg = calloc(n1, sizeof *eg->deg);
    eg->cap = calloc(n1, sizeof *eg->cap);
    eg->fill = calloc(n1, sizeof *eg->fill);
    eg->size = calloc(n1, sizeof *eg->size);
    eg->gone = calloc(n1, 1);
    eg->stamp = calloc(n1, sizeof *eg->stamp);
    if (!eg->nb || !eg->deg || !eg->cap || !eg->fill || !eg->size || !eg->gone || !eg->stamp)
        return -1;
    for (int e = 0; e < g->npairs; e++)
        if (ly_eg_push(eg, g->ends[2 * e], g->ends[2 * e + 1]) ||
            ly_eg_push(eg, g->ends[2 * e + 1], g->ends[2 * e]))
            return -1;
    return 0;
}

/* Recompute and queue v's score: the fill edges its elimination would
 * add, and the entries of its table (k of v and of each neighbour,
 * saturated).  Returns 0, -1 out of memory. */
static int ly_eg_score(ly_egraph *eg, int v)
{
    long fill = 0, size = eg->k[v];
    for (int i = 0; i < eg->deg[v]; i++) {
        size = ly_mul_sat(size, eg->k[eg->nb[v][i]]);
        for (int j = i + 1; j < eg->deg[v]; j++)
            fill += !ly_eg_has(eg, eg->nb[v][i], eg->nb[v][j]);
    }
    eg->fill[v] = fill;
    eg->size[v] = size;
    return ly_heap_push(eg, v);
}

/* Score and queue every variable.  Returns 0, -1 out of memory. */
static int ly_eg_score_all(ly_egraph *eg)
{
    for (int v = 0; v < eg->n; v++)
        if (ly_eg_score(eg, v))
            return -1;
    return 0;
}

/* The variable to eliminate next: fewest fill edges, then smallest table,
 * then lowest index (out-of-date queued scores skipped; every variable
 * left has its current score queued). */
static int ly_eg_pick(ly_egraph *eg)
{
    for (;;) {
        ly_hent h = ly_heap_pop(eg);
        if (!eg->gone[h.v] && h.fill == eg->fill[h.v] && h.size == eg->size[h.v])
            return h.v;
    }
}

/* Rescore x unless gone or already rescored this round.  Returns 0, -1
 * out of memory. */
static int ly_eg_touch(ly_egraph *eg, int x)
{
    if (eg->gone[x] || eg->stamp[x] == eg->round)
        return 0;
    eg->stamp[x] = eg->round;
    return ly_eg_score(eg, x);
}

/* Eliminate v from eg: its neighbours made a clique, v removed, and every
 * score within two steps of v recomputed.  Returns 0, -1 out of memory. */
static int ly_eg_eliminate(ly_egraph *eg, int v)
{
    const int *nb = eg->nb[v];
    for (int i = 0; i < eg->deg[v]; i++)
        for (int j = i + 1; j < eg->deg[v]; j++)
            if (ly_eg_link(eg, nb[i], nb[j]))
                return -1;
    for (int i = 0; i < eg->deg[v]; i++)
        ly_eg_remove(eg, nb[i], v);
    eg->gone[v] = 1;
    eg->round++;
    for (int i = 0; i < eg->deg[v]; i++) {
        int x = nb[i];
        if (ly_eg_touch(eg, x))
            return -1;
        for (int j = 0; j < eg->deg[x]; j++)
            if (ly_eg_touch(eg, eg->nb[x][j]))
                return -1;
    }
    eg->deg[v] = 0;
    return 0;
}

/* An elimination order: the variable of each step and the scope of its
 * message (the neighbours left at that step, ascending), all owned. */
typedef struct ly_order {
    int *var;           /* var[t]: the variable eliminated at step t */
    int *pos;           /* pos[v]: the step that eliminates v */
    long *off;          /* step t's scope: sc[off[t] .. off[t + 1]) */
    int *sc;
    long cap;           /* room in sc */
    long largest;       /* entries of the largest table */
} ly_order;

/* Free everything ord owns. */
static void ly_order_free(ly_order *ord)
{
    free(ord->var);
    free(ord->pos);
    free(ord->off);
    free(ord->sc);
}

/* qsort order of ints, ascending. */
static int ly_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Record step t: v eliminated with its current neighbours (sorted) as the
 * scope.  Returns 0, -1 out of memory. */
static int ly_order_record(ly_order *ord, const ly_egraph *eg, int t, int v)
{
    long at = ord->off[t], need = at + eg->deg[v];
    if (need > ord->cap) {
        long cap = 2 * need;
        int *sc = realloc(ord->sc, cap * sizeof *sc);
        if (!sc)
            return -1;
        ord->sc = sc;
        ord->cap = cap;
    }
    if (eg->deg[v]) {
        memcpy(ord->sc + at, eg->nb[v], eg->deg[v] * sizeof *ord->sc);
        qsort(ord->sc + at, eg->deg[v], sizeof *ord->sc, ly_int_cmp);
    }
    ord->off[t + 1] = need;
    ord->var[t] = v;
    ord->pos[v] = t;
    return 0;
}

enum { LY_FITS, LY_TOO_BIG, LY_NOMEM };

/* Choose ord greedily (ly_eg_pick) over g's graph, stopping at the first
 * table over limit entries.  Returns LY_FITS (ord complete), LY_TOO_BIG or
 * LY_NOMEM; ord is to be freed in every case. */
static int ly_order_build(ly_order *ord, const ly_graph *g, long limit)
{
    int n1 = g->n ? g->n : 1;
    memset(ord, 0, sizeof *ord);
    ord->var = malloc(n1 * sizeof *ord->var);
    ord->pos = malloc(n1 * sizeof *ord->pos);
    ord->off = calloc(n1 + 1, sizeof *ord->off);
    ly_egraph eg;
    int rc = ly_egraph_init(&eg, g) || ly_eg_score_all(&eg) || !ord->var || !ord->pos ||
             !ord->off ? LY_NOMEM : LY_FITS;
    for (int t = 0; rc == LY_FITS && t < g->n; t++) {
        int v = ly_eg_pick(&eg);
        if (eg.size[v] > limit)
            rc = LY_TOO_BIG;
        else if (ly_order_record(ord, &eg, t, v) || ly_eg_eliminate(&eg, v))
            rc = LY_NOMEM;
        else if (eg.size[v] > ord->largest)
            ord->largest = eg.size[v];
    }
    ly_egraph_free(&eg);
    return rc;
}

/* ------------------------------------------------------------ elimination */

/* A table over some variables, row-major (the first variable most
 * significant); everything borrowed.  Factors wait in the bucket of their
 * earliest-eliminated variable, linked through next. */
typedef struct ly_factor {
    int nv;
    const int *vars;
    const long *stride;
    const double *tab;
    int next;           /* the next factor in the same bucket, or -1 */
    int level;          /* its level, then its slot, in its bucket's step (ly_elim_levels) */
} ly_factor;

/* The state of one elimination, all owned: the factors (g's pairs, then
 * one message per step), the buckets, the messages and best-candidate
 * tables per step, and the current step's working set (ly_elim_levels). */
typedef struct ly_elim {
    const ly_graph *g;
    const ly_order *ord;
    ly_factor *fac;
    int nfac;
    int *head;          /* head[v]: first factor of v's bucket, or -1 */
    long *pstride;      /* the pairs' strides, 2 per pair */
    long *sstride;      /* the scopes' strides, laid out as ord->sc */
    double **msg;       /* msg[t]: step t's message (a factor when its scope is not empty) */
    int **arg;          /* arg[t]: step t's best candidate per scope entry */
    /* the current step: its factors numbered by level (slot p), level L's
     * slots loff[L] .. loff[L + 1] - 1; for each slot its table, its index
     * at the odometer's values, its strides for v and for the last scope
     * variable; for each scope position j the slots it moves, with their
     * strides: dslot/dstride[doff[j] .. doff[j + 1]) */
    int *lvl;           /* lvl[x]: x's level (v 0, scope position j at j + 1) */
    int *loff;
    const double **ltab;
    long *lidx, *lvstr, *llast;
    int *doff, *dslot;
    long *dstride;
    int *digit;         /* the odometer: digit[j], scope position j's value */
    double *partial;    /* partial[L * k[v] + a]: the cost of levels 0..L with v = a */
    double *row;        /* the last level's block (ly_level_block) */
} ly_elim;

/* Free everything el owns (calloc'd state: NULL fields allowed). */
static void ly_elim_free(ly_elim *el)
{
    for (int t = 0; t < el->g->n; t++) {
        if (el->msg)
            free(el->msg[t]);
        if (el->arg)
            free(el->arg[t]);
    }
    free(el->fac);
    free(el->head);
    free(el->pstride);
    free(el->sstride);
    free(el->msg);
    free(el->arg);
    free(el->lvl);
    free(el->loff);
    free(el->ltab);
    free(el->lidx);
    free(el->lvstr);
    free(el->llast);
    free(el->doff);
    free(el->dslot);
    free(el->dstride);
    free(el->digit);
    free(el->partial);
    free(el->row);
}

/* Put factor f in the bucket of its earliest-eliminated variable. */
static void ly_elim_bucket(ly_elim *el, int f)
{
    ly_factor *fa = &el->fac[f];
    int first = fa->vars[0];
    for (int j = 1; j < fa->nv; j++)
        if (el->ord->pos[fa->vars[j]] < el->ord->pos[first])
            first = fa->vars[j];
    fa->next = el->head[first];
    el->head[first] = f;
}

/* Row-major strides of a table over the m variables vars (into stride);
 * returns its entries. */
static long ly_strides(const int *k, const int *vars, int m, long *stride)
{
    long size = 1;
    for (int j = m - 1; j >= 0; j--) {
        stride[j] = size;
        size *= k[vars[j]];
    }
    return size;
}

/* The most entries any step of ord needs in partial ((m + 1) * k[v]) and
 * in the block (k[v] times k of the last scope variable): both within the
 * step's table, so within the limit. */
static void ly_step_scratch(const ly_graph *g, const ly_order *ord, long *part, long *blk)
{
    *part = *blk = 1;
    for (int t = 0; t < g->n; t++) {
        long m = ord->off[t + 1] - ord->off[t], kv = g->k[ord->var[t]];
        long kx = m ? g->k[ord->sc[ord->off[t + 1] - 1]] : 1;
        *part = (m + 1) * kv > *part ? (m + 1) * kv : *part;
        *blk = kv * kx > *blk ? kv * kx : *blk;
    }
}

/* el's scratch memory, and g's pairs as the first factors in their
 * buckets.  Returns 0, -1 out of memory. */
static int ly_elim_init(ly_elim *el, const ly_graph *g, const ly_order *ord)
{
    int n1 = g->n ? g->n : 1, nf = g->npairs + n1;
    long nvars = 2 * g->npairs + ord->off[g->n] + 1;  /* all factors' variables */
    memset(el, 0, sizeof *el);
    el->g = g;
    el->ord = ord;
    el->fac = malloc(nf * sizeof *el->fac);
    el->head = malloc(n1 * sizeof *el->head);
    el->pstride = malloc((2 * g->npairs + 1) * sizeof *el->pstride);
    el->sstride = malloc((ord->off[g->n] + 1) * sizeof *el->sstride);
    el->msg = calloc(n1, sizeof *el->msg);
    el->arg = calloc(n1, sizeof *el->arg);
    el->lvl = malloc(n1 * sizeof *el->lvl);
    el->loff = malloc((n1 + 2) * sizeof *el->loff);
    el->ltab = malloc(nf * sizeof *el->ltab);
    el->lidx = malloc(nf * sizeof *el->lidx);
    el->lvstr = malloc(nf * sizeof *el->lvstr);
    el->llast = malloc(nf * sizeof *el->llast);
    el->doff = malloc((n1 + 1) * sizeof *el->doff);
    el->dslot = malloc(nvars * sizeof *el->dslot);
    el->dstride = malloc(nvars * sizeof *el->dstride);
    el->digit = malloc(n1 * sizeof *el->digit);
    long part, blk;
    ly_step_scratch(g, ord, &part, &blk);
    el->partial = malloc(part * sizeof *el->partial);
    el->row = malloc(blk * sizeof *el->row);
    if (!el->fac || !el->head || !el->pstride || !el->sstride || !el->msg || !el->arg ||
        !el->lvl || !el->loff || !el->ltab || !el->lidx || !el->lvstr || !el->llast ||
        !el->doff || !el->dslot || !el->dstride || !el->digit || !el->partial || !el->row)
        return -1;
    for (int v = 0; v < g->n; v++)
        el->head[v] = -1;
    for (int e = 0; e < g->npairs; e++) {
        ly_strides(g->k, g->ends + 2 * e, 2, el->pstride + 2 * e);
        el->fac[e] = (ly_factor){ 2, g->ends + 2 * e, el->pstride + 2 * e, g->tab[e], -1, 0 };
        ly_elim_bucket(el, e);
    }
    el->nfac = g->npairs;
    return 0;
}

/* Number the factors of v's bucket by level for a step over v and scope
 * sc (m variables): v is level 0, sc[j] level j + 1, a factor's level that
 * of its last variable.  A factor is then summed only when the odometer
 * changes its level or one before: mostly the last level, once per entry. */
static void ly_elim_levels(ly_elim *el, int v, const int *sc, int m)
{
    el->lvl[v] = 0;
    for (int j = 0; j < m; j++)
        el->lvl[sc[j]] = j + 1;
    memset(el->loff, 0, (m + 2) * sizeof *el->loff);
    for (int f = el->head[v]; f >= 0; f = el->fac[f].next) {
        int L = 0;
        for (int j = 0; j < el->fac[f].nv; j++)
            if (el->lvl[el->fac[f].vars[j]] > L)
                L = el->lvl[el->fac[f].vars[j]];
        el->fac[f].level = L;
        el->loff[L + 1]++;
    }
    for (int L = 0; L <= m; L++)
        el->loff[L + 1] += el->loff[L];
    for (int L = m + 1; L > 0; L--)
        el->loff[L] = el->loff[L - 1];
    for (int f = el->head[v]; f >= 0; f = el->fac[f].next)
        el->fac[f].level = el->loff[el->fac[f].level + 1]++;  /* now its slot */
}

/* Fill the slots of v's step (after ly_elim_levels, whose level field now
 * holds each factor's slot): tables, strides for v and for the last scope
 * variable, and each scope position's slots with their strides. */
static void ly_elim_slots(ly_elim *el, int v, const int *sc, int m)
{
    memset(el->doff, 0, (m + 1) * sizeof *el->doff);
    for (int f = el->head[v]; f >= 0; f = el->fac[f].next)
        for (int j = 0; j < el->fac[f].nv; j++)
            if (el->fac[f].vars[j] != v)
                el->doff[el->lvl[el->fac[f].vars[j]] - 1]++;
    for (int j = 1; j < m; j++)   /* doff[j]: the end of position j, then its start */
        el->doff[j] += el->doff[j - 1];
    el->doff[m] = m ? el->doff[m - 1] : 0;
    for (int f = el->head[v]; f >= 0; f = el->fac[f].next) {
        const ly_factor *fa = &el->fac[f];
        int p = fa->level;
        el->ltab[p] = fa->tab;
        el->lvstr[p] = el->llast[p] = 0;
        for (int j = 0; j < fa->nv; j++) {
            int x = fa->vars[j];
            if (x == v) {
                el->lvstr[p] = fa->stride[j];
                continue;
            }
            int at = --el->doff[el->lvl[x] - 1];   /* filled backwards */
            el->dslot[at] = p;
            el->dstride[at] = fa->stride[j];
            if (m && x == sc[m - 1])
                el->llast[p] = fa->stride[j];
        }
    }
}

/* Level L's costs for each candidate of v (kv of them) into part: those
 * of the level before (prev; for level 0, v's unary costs) plus its
 * factors at their current indices, stepped by v's stride. */
static void ly_level_sum(const ly_elim *el, int L, int kv, const double *prev, double *part)
{
    for (int a = 0; a < kv; a++)
        part[a] = prev[a];
    for (int p = el->loff[L]; p < el->loff[L + 1]; p++) {
        const double *t = el->ltab[p] + el->lidx[p];
        long s = el->lvstr[p];
        for (int a = 0; a < kv; a++)
            part[a] += t[a * s];
    }
}

/* Advance the odometer over scope positions 0..m-1 of sc (the last
 * fastest), moving the indices of the slots each digit touches; returns
 * the position that moved without wrapping (those after it went back to
 * 0), -1 when every digit wrapped. */
static int ly_elim_advance(ly_elim *el, const int *sc, int m)
{
    for (int j = m - 1; j >= 0; j--) {
        int kx = el->g->k[sc[j]], up = ++el->digit[j] < kx;
        long by = up ? 1 : 1 - kx;
        for (int q = el->doff[j]; q < el->doff[j + 1]; q++)
            el->lidx[el->dslot[q]] += by * el->dstride[q];
        if (up)
            return j;
        el->digit[j] = 0;
    }
    return -1;
}

/* The costs of the last level's block: for each candidate a of v and each
 * value b of the last scope variable (kx of them), blk[a * kx + b] is
 * partial level m - 1 plus each last-level factor, stepped by both
 * strides. */
static void ly_level_block(const ly_elim *el, int m, int kv, int kx, double *blk)
{
    const double *part = el->partial + (long)(m - 1) * kv;
    for (int a = 0; a < kv; a++)
        for (int b = 0; b < kx; b++)
            blk[a * kx + b] = part[a];
    for (int p = el->loff[m]; p < el->loff[m + 1]; p++) {
        const double *t = el->ltab[p] + el->lidx[p];
        long sa = el->lvstr[p], sb = el->llast[p];
        for (int a = 0; a < kv; a++)
            for (int b = 0; b < kx; b++)
                blk[a * kx + b] += t[a * sa + b * sb];
    }
}

/* For each of the kx entries, the cheapest of the kv candidates in blk
 * (blk[a * kx + b]) into msg and arg; the lowest index among equals.
 * Written without a branch on the costs: which is cheaper is random. */
static void ly_keep_best(double *msg, int *arg, const double *blk, int kv, int kx)
{
    for (int b = 0; b < kx; b++) {
        double best = blk[b];
        int arg_b = 0;
        for (int a = 1; a < kv; a++) {
            double c = blk[a * kx + b];
            int take = c < best;
            best = take ? c : best;
            arg_b = take ? a : arg_b;
        }
        msg[b] = best;
        arg[b] = arg_b;
    }
}

/* Step t's table of v and its scope sc (m variables, size entries
 * without v): all candidates of v at once, a block of them by the values
 * of the last scope variable, the odometer over the others recomputing
 * the levels from the first one changed. */
static void ly_elim_table(ly_elim *el, int v, const int *sc, int m, long size,
                          double *msg, int *arg)
{
    int kv = el->g->k[v];
    for (int p = 0; p < el->loff[m + 1]; p++)
        el->lidx[p] = 0;
    for (int j = 0; j < m; j++)
        el->digit[j] = 0;
    ly_level_sum(el, 0, kv, el->g->un[v], el->partial);
    if (m == 0) {
        ly_keep_best(msg, arg, el->partial, kv, 1);
        return;
    }
    int kx = el->g->k[sc[m - 1]];
    for (long i = 0, from = 1; i < size; i += kx) {
        for (int L = (int)from; L < m; L++)
            ly_level_sum(el, L, kv, el->partial + (long)(L - 1) * kv, el->partial + (long)L * kv);
        ly_level_block(el, m, kv, kx, el->row);
        ly_keep_best(msg + i, arg + i, el->row, kv, kx);
        from = ly_elim_advance(el, sc, m - 1) + 1;
    }
}

/* Step t: for each values of the scope, v's best candidate (lowest index
 * among equals) into arg[t] and its cost into msg[t], which joins the
 * bucket of its earliest-eliminated variable.  Returns 0, -1 out of
 * memory. */
static int ly_elim_step(ly_elim *el, int t)
{
    const int *k = el->g->k;
    int v = el->ord->var[t], m = (int)(el->ord->off[t + 1] - el->ord->off[t]);
    /* an empty scope has no slice (the arrays may be NULL when every
     * scope is empty: no offset is added to them then) */
    const int *sc = m ? el->ord->sc + el->ord->off[t] : NULL;
    long *stride = m ? el->sstride + el->ord->off[t] : NULL;
    long size = ly_strides(k, sc, m, stride);
    el->arg[t] = malloc(size * sizeof **el->arg);
    el->msg[t] = malloc(size * sizeof **el->msg);
    if (!el->arg[t] || !el->msg[t])
        return -1;
    ly_elim_levels(el, v, sc, m);
    ly_elim_slots(el, v, sc, m);
    ly_elim_table(el, v, sc, m, size, el->msg[t], el->arg[t]);
    if (m) {
        el->fac[el->nfac] = (ly_factor){ m, sc, stride, el->msg[t], -1, 0 };
        ly_elim_bucket(el, el->nfac++);
    }
    return 0;
}

/* Read the choice back: in reverse order, each variable takes its step's
 * best candidate for the values its scope already took. */
static void ly_elim_backtrack(const ly_elim *el, int *choice)
{
    const ly_order *ord = el->ord;
    for (int t = el->g->n - 1; t >= 0; t--) {
        long at = 0;
        for (long j = ord->off[t]; j < ord->off[t + 1]; j++)
            at += el->sstride[j] * choice[ord->sc[j]];
        choice[ord->var[t]] = el->arg[t][at];
    }
}

/* An optimal choice of g in ord's order (every table fits).  Returns 0, -1
 * out of memory. */
static int ly_eliminate(const ly_graph *g, const ly_order *ord, int *choice)
{
    ly_elim el;
    int rc = ly_elim_init(&el, g, ord);
    for (int t = 0; rc == 0 && t < g->n; t++)
        rc = ly_elim_step(&el, t);
    if (rc == 0)
        ly_elim_backtrack(&el, choice);
    ly_elim_free(&el);
    return rc;
}

/* --------------------------------------------------------- approximation */

/* The cost of v taking a, given cur for v's neighbours below upto: v's
 * unary cost plus its pairs to them. */
static double ly_local_cost(const ly_graph *g, const int *cur, int v, int a, int upto)
{
    double c = g->un[v][a];
    for (int i = g->off[v]; i < g->off[v + 1]; i++) {
        int e = g->inc[i], w = ly_other(g, e, v);
        if (w >= upto)
            continue;
        int kw = g->k[w];
        c += g->ends[2 * e] == v ? g->tab[e][(long)a * kw + cur[w]]
                                 : g->tab[e][(long)cur[w] * g->k[v] + a];
    }
    return c;
}

/* v's best candidate given cur for its neighbours below upto: the lowest
 * index among the cheapest, but cur[v] kept unless another is strictly
 * cheaper (keep_cur), so that a descent only moves downhill. */
static int ly_best_candidate(const ly_graph *g, const int *cur, int v, int upto, int keep_cur)
{
    int best = keep_cur ? cur[v] : 0;
    double bc = ly_local_cost(g, cur, v, best, upto);
    for (int a = 0; a < g->k[v]; a++) {
        double c = ly_local_cost(g, cur, v, a, upto);
        if (c < bc)
            bc = c, best = a;
    }
    return best;
}

/* The greedy start: variables in order, each the best given those before. */
static void ly_greedy(const ly_graph *g, int *cur)
{
    for (int v = 0; v < g->n; v++)
        cur[v] = ly_best_candidate(g, cur, v, v, 0);
}

/* Iterated conditional modes from cur: sweeps in variable order, each
 * variable moved to a strictly cheaper candidate given all its neighbours,
 * until a sweep changes nothing (or LY_MAX_SWEEPS). */
static void ly_icm(const ly_graph *g, int *cur)
{
    for (int s = 0, changed = 1; changed && s < LY_MAX_SWEEPS; s++) {
        changed = 0;
        for (int v = 0; v < g->n; v++) {
            int a = ly_best_candidate(g, cur, v, g->n, 1);
            changed |= a != cur[v];
            cur[v] = a;
        }
    }
}

/* A good choice of g when elimination is too big: ICM from the greedy start
 * and from all zeros, the cheaper under p (the greedy one on a tie), so
 * never worse than candidate 0 everywhere.  Returns 0, -1 out of memory. */
static int ly_approximate(const ly_graph *g, const xf_ly_problem *p, int *choice)
{
    int *zero = calloc(g->n ? g->n : 1, sizeof *zero);
    if (!zero)
        return -1;
    ly_greedy(g, choice);
    ly_icm(g, choice);
    ly_icm(g, zero);
    if (ly_problem_cost(p, zero) < ly_problem_cost(p, choice))
        memcpy(choice, zero, g->n * sizeof *choice);
    free(zero);
    return 0;
}

/* ------------------------------------------------------------------ entry */

/* The entry (layout_solve.h): check, build the graph, then elimination if
 * its order fits the limit, else the approximation; the answer is copied
 * out only once complete, so a failure leaves choice and *res as they were. */
int xf_layout_solve(const xf_ly_problem *p, long table_limit, int *choice,
                    xf_ly_result *res)
{
    if (!ly_problem_ok(p) || (p->n > 0 && !choice))
        return -1;
    ly_graph g;
    if (ly_graph_build(&g, p))
        return -1;
    xf_ly_result r = { 0, 0, 0 };
    int *work = calloc(p->n ? p->n : 1, sizeof *work);
    ly_order ord;
    int st = work ? ly_order_build(&ord, &g, table_limit) : LY_NOMEM;
    int rc = -1;
    if (st == LY_FITS) {
        r.exact = 1;
        r.largest_table = ord.largest;
        rc = ly_eliminate(&g, &ord, work);
    } else if (st == LY_TOO_BIG) {
        rc = ly_approximate(&g, p, work);
    }
    if (work)
        ly_order_free(&ord);
    if (rc == 0) {
        r.cost = ly_problem_cost(p, work);
        if (p->n > 0)
            memcpy(choice, work, p->n * sizeof *choice);
        if (res)
            *res = r;
    }
    free(work);
    ly_graph_free(&g);
    return rc;
}
