/* knobs.c - tn_candidates: the schedule blocks `ftc tune` measures for a
 * function, built from its loop nests' accesses (no per-operator
 * templates).
 *
 * A task nest is the loops around a reduction of a product of reads
 * (`t[o, h, w] += x[c, h + kh, w + kw] * k[o, c, kh, kw]`: a convolution,
 * a matrix product, a batched product).  Its loops are spatial (their
 * iterator indexes the reduced element) or reduction loops; the contiguous
 * loop is the spatial one in the element's last index.  The knobs, each a
 * few schedule lines ended by `auto` (the auto-scheduler then does the
 * rest, keeping them):
 *   - the parallel loop: one of the two outermost spatial loops;
 *   - the contiguous loop innermost: split off the statements before the
 *     reduction loops (`fission`, at each level from there up to the
 *     contiguous loop) and reorder the nest below it, so that the
 *     reduction runs along contiguous rows of the element;
 *   - the reduced tensor's layout with the vector loop's dimension last: a
 *     local's (`var_reorder`), a parameter's through a copy around the
 *     nest (`cache` + `var_reorder`: an NCHW output computed NHWC);
 *   - the inputs' layouts: a tensor the product reads along the contiguous
 *     loop in another dimension than its last is copied once around the
 *     nest (`cache`) into a local with that dimension last (`var_reorder`:
 *     an OIHW weight read by output channel becomes IHWO, and the products
 *     vectorize along the output's rows);
 *   - the guards of a padded window split off (`separate_tail` of the
 *     spatial loops they test: a depthwise conv's rows and columns inside
 *     the padding run without tests, no padded copy);
 * and their combinations; and, measured first, register tiles (tile_knobs:
 * a block of rows by vectors of the element accumulated in registers over
 * the whole reduction, the weights packed per vector block, ranked by an
 * analytic cost); the untuned function (`auto` alone) is always
 * a candidate, so tuning never makes a function slower.  A loop is named
 * by its label or iterator when that name is unique in the function (the
 * names a schedule file resolves); a knob needing an unnamed loop is left
 * out.
 */
#include "tune.h"

#include <stdlib.h>
#include <string.h>

#include "../analysis/bounds.h"
#include "../transforms/auto/auto_util.h"
#include "../transforms/sched_util.h"
#include "../transforms/xf_util.h"
#include "visit.h"

/* The loops of a function (collect_loops). */
typedef struct loops_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *loops;
    ft_vec *reds;
} loops_walk;

static int loops_cb(ast_visitor *v, ast_stmt *s)
{
    loops_walk *w = (loops_walk *)v;
    if (s->kind == AST_FOR)
        ft_vec_push(w->ctx, w->loops, s);
    if (s->kind == AST_REDUCE && s->u.red.op == AST_RED_ADD)
        ft_vec_push(w->ctx, w->reds, s);
    return 1;
}

/* The name a schedule line can give loop l of loops: its label, else its
 * iterator, when no other loop has it; NULL when neither is unique. */
static const char *loop_name(const ft_vec *loops, const ast_stmt *l)
{
    const char *cand[2] = {l->label, l->u.loop.iter};
    for (int c = 0; c < 2; c++) {
        if (!cand[c])
            continue;
        int clash = 0;
        for (int i = 0; i < loops->len; i++) {
            const ast_stmt *m = loops->items[i];
            clash |= m != l && ((m->label && !strcmp(m->label, cand[c])) ||
                                !strcmp(m->u.loop.iter, cand[c]));
        }
        if (!clash)
            return cand[c];
    }
    return NULL;
}

/* Whether iterator it indexes the element r reduces into (index k only,
 * or any index when k < 0). */
static int indexes(const ast_stmt *r, const char *it, int k)
{
    for (int d = 0; d < r->u.red.n; d++)
        if ((k < 0 || d == k) && xf_expr_uses_var(r->u.red.idx[d], it))
            return 1;
    return 0;
}

/* One task nest: the loops around reduction r, outermost first. */
typedef struct nest {
    const ast_stmt *r;
    int n;
    ast_stmt **loops;
    const char **names;
    int id;                 /* 1, 2, ... in the function */
    tn_knob_opts ko;        /* the knobs it may turn */
    const char *tails;      /* `separate_tail` of its loops that guards test ("": none) */
} nest;

/* Add the block "lines + auto" of nest id (0: none) to out (tn_block's)
 * unless it is there already. */
static void add(ft_ctx *ctx, ft_vec *out, const char *lines, int id)
{
    const char *s = *lines ? ft_fmt(ctx, "%s\nauto", lines) : "auto";
    for (int i = 0; i < out->len; i++)
        if (!strcmp(((tn_block *)out->items[i])->sched, s))
            return;
    tn_block *b = ft_alloc(ctx, sizeof *b);
    b->sched = s;
    b->nest = id;
    ft_vec_push(ctx, out, b);
}

/* "a\nb", either of them possibly empty. */
static const char *join(ft_ctx *ctx, const char *a, const char *b)
{
    return !*a ? b : !*b ? a : ft_fmt(ctx, "%s\n%s", a, b);
}

/* The lines that make the nest perfect from its loop m down: from the
 * innermost loop outwards to m, each loop whose body holds more than the
 * next loop of the nest (a `t = 0` before the reduction loops), or around
 * one split so, is split by a fission before that loop (its second part
 * `L_tb` continues the nest).  cur[k] (k >= m) receives the name of the
 * nest's loop k after them.  NULL when a loop from m down is unnamed. */
static const char *perfect_from(ft_ctx *ctx, const nest *t, int m, const char **cur)
{
    for (int k = m; k < t->n; k++)
        if (!t->names[k])
            return NULL;
    const char *lines = "";
    int split = 0;
    cur[t->n - 1] = t->names[t->n - 1];
    for (int k = t->n - 2; k >= m; k--) {
        ast_stmt **items;
        int nitems = xf_body_items(&t->loops[k]->u.loop.body, &items);
        cur[k] = t->names[k];
        if (split || nitems != 1 || items[0] != t->loops[k + 1]) {
            cur[k] = ft_fmt(ctx, "%s_tb", t->names[k]);
            lines = join(ctx, lines, ft_fmt(ctx, "%s_ta, %s = fission(%s, before=%s)",
                                            t->names[k], cur[k], t->names[k], cur[k + 1]));
            split = 1;
        }
    }
    return lines;
}

/* The lines that bring the contiguous loop (index j of the nest) below
 * the rest of the nest: the nest made perfect from j (perfect_from), then
 * a reorder.  "" when j is innermost or a loop is unnamed. */
static const char *contiguous_inner(ft_ctx *ctx, const nest *t, int j)
{
    if (j < 0 || j == t->n - 1)
        return "";
    const char **cur = ft_alloc(ctx, sizeof *cur * (size_t)t->n);
    const char *lines = perfect_from(ctx, t, j, cur), *order = "";
    if (!lines)
        return "";
    for (int k = j + 1; k < t->n; k++)
        order = ft_fmt(ctx, "%s%s, ", order, cur[k]);
    return join(ctx, lines, ft_fmt(ctx, "reorder(%s%s)", order, cur[j]));
}

/* The permutation list "[a, b, ..., d]" of nd dimensions with d last. */
static const char *last_perm(ft_ctx *ctx, int nd, int d)
{
    const char *perm = "";
    for (int k = 0; k < nd; k++)
        if (k != d)
            perm = ft_fmt(ctx, "%s%d, ", perm, k);
    return ft_fmt(ctx, "[%s%d]", perm, d);
}

/* The lines giving the reduced tensor its dimension d last: a local's
 * layout (`var_reorder`, then `propagate` to its element-wise neighbours
 * unless --no-propagate), or, for a parameter (whose layout is the ABI),
 * a copy of it around the nest's outermost loop S (`T_tf, T_tw, T_tb =
 * cache(S, T, cpu)`: filled before, written back after) laid out so; ""
 * when d is last already (or the copy's loop has no name). */
static const char *output_layout(ft_ctx *ctx, ast_func *f, const nest *t, int d)
{
    const ast_stmt *r = t->r;
    int nd = r->u.red.n;
    ft_vec defs = {0};
    xf_collect_vardefs(ctx, f->body, &defs);
    int local = 0;
    for (int i = 0; i < defs.len; i++)
        local |= !strcmp(((ast_stmt *)defs.items[i])->u.def.name, r->u.red.var);
    const char *v = r->u.red.var;
    if (d < 0 || d == nd - 1 || (!local && !(t->n && t->names[0])))
        return "";
    if (local)
        return ft_fmt(ctx, "var_reorder(%s, %s)%s", v, last_perm(ctx, nd, d),
                      t->ko.propagate ? ft_fmt(ctx, "\npropagate(%s)", v) : "");
    return ft_fmt(ctx, "%s_tf, %s_tw, %s_tb = cache(%s, %s, cpu)\nvar_reorder(%s_tb, %s)", v, v,
                  v, t->names[0], v, v, last_perm(ctx, nd, d));
}

/* The one load in e (an element-wise function of it and constants: a
 * relu forwarded into its reader, `max(t[..], 0)`), or NULL when e loads
 * no tensor or more than one, or a load's index loads. */
static const ast_expr *single_load(const ast_expr *e)
{
    const ast_expr *a = NULL, *b = NULL;
    switch (e->kind) {
    case AST_LOAD:
        for (int k = 0; k < e->u.load.n; k++)
            if (xf_expr_has_load(e->u.load.idx[k]))
                return NULL;
        return e;
    case AST_CAST: return single_load(e->u.cast.a);
    case AST_UNARY: return single_load(e->u.un.a);
    case AST_BINARY:
        a = xf_expr_has_load(e->u.bin.a) ? single_load(e->u.bin.a) : NULL;
        b = xf_expr_has_load(e->u.bin.b) ? single_load(e->u.bin.b) : NULL;
        return (a != NULL) + (b != NULL) == 1 &&
               xf_expr_has_load(e->u.bin.a) + xf_expr_has_load(e->u.bin.b) == 1 ? (a ? a : b)
                                                                                   : NULL;
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            if (xf_expr_has_load(e->u.call.args[k])) {
                if (a)
                    return NULL;
                if (!(a = single_load(e->u.call.args[k])))
                    return NULL;
            }
        return a;
    default: return NULL;
    }
}

/* The factors of product e into out. */
static void factors_of(ft_ctx *ctx, const ast_expr *e, ft_vec *out)
{
    if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL) {
        factors_of(ctx, e->u.bin.a, out);
        factors_of(ctx, e->u.bin.b, out);
    } else {
        ft_vec_push(ctx, out, (void *)e);
    }
}

/* The loads among the factors of product e into out: each factor's one
 * load (single_load). */
static void loads_of(ft_ctx *ctx, const ast_expr *e, ft_vec *out)
{
    ft_vec fs = {0};
    factors_of(ctx, e, &fs);
    for (int i = 0; i < fs.len; i++) {
        const ast_expr *l = single_load(fs.items[i]);
        if (l)
            ft_vec_push(ctx, out, (void *)l);
    }
}

/* Whether e calls a transcendental builtin (erf, exp, tanh...: a GELU
 * or sigmoid of the factor, forwarded into the product by the lowering). */
static int costly(const ast_expr *e)
{
    switch (e->kind) {
    case AST_CAST: return costly(e->u.cast.a);
    case AST_UNARY: return costly(e->u.un.a);
    case AST_BINARY: return costly(e->u.bin.a) || costly(e->u.bin.b);
    case AST_CALL:
        if (e->u.call.f != AST_ABS && e->u.call.f != AST_FLOOR && e->u.call.f != AST_CEIL &&
            e->u.call.f != AST_SQUARE)
            return 1;
        for (int k = 0; k < e->u.call.n; k++)
            if (costly(e->u.call.args[k]))
                return 1;
        return 0;
    default: return 0;
    }
}

/* The lines copying each factor of r that reads iterator it in a
 * dimension other than its last into a local with that dimension last:
 * `X_tf, X_tw, X_tb = cache(S, X, cpu)` around loop S (at, else the
 * nest's outermost loop), then `var_reorder(X_tb, [...])`; with block > 0,
 * that dimension then blocked by block and its blocks made the outermost
 * dimension (`var_split` + `var_reorder`: weights packed as OIHW16o's
 * [O/16, I, H, W, 16], each vector block's weights one contiguous stream);
 * "" when there is none or S has no name. */
static const char *input_layouts(ft_ctx *ctx, const nest *t, const char *it, int block,
                                 const char *at)
{
    const ast_stmt *r = t->r;
    ft_vec loads = {0}, done = {0};
    loads_of(ctx, r->u.red.value, &loads);
    const char *lines = "";
    at = at ? at : t->n ? t->names[0] : NULL;
    for (int i = 0; at && i < loads.len; i++) {
        const ast_expr *l = loads.items[i];
        int n = l->u.load.n, d = -1, clash = 0;
        for (int k = 0; k < n; k++)
            if (xf_expr_uses_var(l->u.load.idx[k], it))
                clash += d >= 0, d = k;
        for (int k = 0; k < done.len; k++)
            clash |= !strcmp(done.items[k], l->u.load.var);
        if (d < 0 || d == n - 1 || clash || !strcmp(l->u.load.var, r->u.red.var))
            continue;
        ft_vec_push(ctx, &done, (void *)l->u.load.var);
        const char *v = l->u.load.var;
        lines = join(ctx, lines, ft_fmt(ctx, "%s_tf, %s_tw, %s_tb = cache(%s, %s, cpu)\n"
                                        "var_reorder(%s_tb, %s)", v, v, v, at, v, v,
                                        last_perm(ctx, n, d)));
        if (block > 0) {
            const char *perm = ft_fmt(ctx, "[%d", n - 1);
            for (int k = 0; k < n - 1; k++)
                perm = ft_fmt(ctx, "%s, %d", perm, k);
            lines = join(ctx, lines, ft_fmt(ctx, "var_split(%s_tb, %d, %d)\n"
                                            "var_reorder(%s_tb, %s, %d])", v, n - 1, block, v,
                                            perm, n));
        }
    }
    return lines;
}

/* The lines copying each factor of r that may read outside its shape
 * (its index in a dimension ranges below 0 or past the end over the nest's
 * loops: a convolution's padding, guarded by a branch) into a local with
 * zero margins that hold those reads: `X_tf, X_tw, X_tb = cache(S, X,
 * cpu)` around the nest's outermost loop S, then `var_pad(X_tb, d,
 * before, after)` per such dimension, which drops the guards; "" when
 * there is none, S has no name, or the factor is copied for its layout
 * already (laid out: the loads input_layouts copies). */
static const char *pad_layouts(ft_ctx *ctx, ast_func *f, const nest *t, const char *laid)
{
    const ast_stmt *r = t->r;
    ft_vec loads = {0};
    loads_of(ctx, r->u.red.value, &loads);
    an_bounds *b = an_bounds_new(ctx, f);
    for (int k = 0; k < t->n; k++)
        an_bounds_push_loop(b, t->loops[k]);
    const char *lines = "";
    for (int i = 0; t->n && t->names[0] && i < loads.len; i++) {
        const ast_expr *l = loads.items[i];
        const char *v = l->u.load.var, *pads = "";
        ast_expr **shape;
        int nd;
        if (strstr(laid, ft_fmt(ctx, "cache(%s, %s, cpu)", t->names[0], v)) ||
            strstr(lines, ft_fmt(ctx, "= cache(%s, %s, cpu)", t->names[0], v)) ||
            !xf_find_decl(ctx, f, r, v, NULL, &nd, &shape) || nd != l->u.load.n)
            continue;
        for (int d = 0; d < nd; d++) {
            an_range g = an_range_of(b, l->u.load.idx[d]);
            if (shape[d]->kind != AST_INT || !g.has_lo || !g.has_hi)
                continue;
            int64_t before = g.lo < 0 ? -g.lo : 0;
            int64_t after = g.hi > shape[d]->u.ival - 1 ? g.hi - (shape[d]->u.ival - 1) : 0;
            if (before || after)
                pads = join(ctx, pads, ft_fmt(ctx, "var_pad(%s_tb, %d, %lld, %lld)", v, d,
                                              (long long)before, (long long)after));
        }
        if (*pads)
            lines = join(ctx, lines, ft_fmt(ctx, "%s_tf, %s_tw, %s_tb = cache(%s, %s, cpu)\n%s",
                                            v, v, v, t->names[0], v, pads));
    }
    return lines;
}

/* The parallel line par (of loop name) after the lines shape: when shape
 * split that loop by a fission, its second part (`name_tb`, the nest). */
static const char *parallel_after(ft_ctx *ctx, const char *par, const char *name,
                                  const char *shape)
{
    if (!name || !strstr(shape, ft_fmt(ctx, "fission(%s,", name)))
        return par;
    return ft_fmt(ctx, "parallelize(%s_tb, openmp)", name);
}

/* A register-tile candidate and its rank (tile_knobs). */
typedef struct tile {
    double cost;
    const char *lines;
    int nest;
    int order;              /* generated as the order-th of its nest */
    int rank;               /* the rank-th cheapest of its nest */
} tile;

/* The widest vector of the C target in elements of dtype dt (AVX-512's 64
 * bytes), 0 when the tile knobs do not apply (not a float). */
static int vector_lanes(ft_dtype dt)
{
    return dt == FT_F32 ? 16 : dt == FT_F64 ? 8 : 0;
}

/* The dimension of r's element that iterator it indexes (the first), or
 * -1. */
static int dim_of(const ast_stmt *r, const char *it)
{
    for (int d = 0; d < r->u.red.n; d++)
        if (indexes(r, it, d))
            return d;
    return -1;
}

/* The permutation "[...]" of nd dimensions that puts a second last and b
 * last. */
static const char *last_two_perm(ft_ctx *ctx, int nd, int a, int b)
{
    const char *perm = "";
    for (int k = 0; k < nd; k++)
        if (k != a && k != b)
            perm = ft_fmt(ctx, "%s%d, ", perm, k);
    return ft_fmt(ctx, "[%s%d, %d]", perm, a, b);
}

/* One register tile of nest t (from loop m down: spatial loops and the
 * reduction loops in any order, as a matrix product's i, k, j; cur: the
 * names after `fix`, the lines making it perfect): vector loop j split
 * into blocks of v vectors of `lanes` elements, row loop k into blocks of
 * rows; the blocks' loops outermost (the vector block first: its weights
 * stay in the caches while the rows go by), then the other spatial loops,
 * the reduction loops, the rows, the vectors and the lanes; the element's
 * accumulator a local over the tile (`cache_reduce` at the first reduction
 * loop, laid out rows by lanes: `var_reorder`), lanes vectorized, rows and
 * vectors unrolled; parallel: the outermost loop of the nest (those
 * outside the tile first) with 4 or more iterations, else the vector
 * block. */
static const char *tile_lines(ft_ctx *ctx, const nest *t, const char **cur, const char *fix,
                              int m, int j, int k, int lanes, int v, int rows, int in_block)
{
    const ast_stmt *r = t->r;
    const char *jo = ft_fmt(ctx, "%s_ro", cur[j]), *jl = ft_fmt(ctx, "%s_rl", cur[j]);
    const char *jv = ft_fmt(ctx, "%s_rv", cur[j]), *ki = ft_fmt(ctx, "%s_ri", cur[k]);
    const char *ko = ft_fmt(ctx, "%s_ro", cur[k]), *acc = ft_fmt(ctx, "%s_r", r->u.red.var);
    const char *lines = join(ctx, fix, ft_fmt(ctx, "%s, %s = split(%s, %d)", jo,
                                              v > 1 ? ft_fmt(ctx, "%s_rj", cur[j]) : jl,
                                              cur[j], lanes * v));
    if (v > 1)
        lines = join(ctx, lines, ft_fmt(ctx, "%s, %s = split(%s_rj, %d)", jv, jl, cur[j], lanes));
    lines = join(ctx, lines, ft_fmt(ctx, "%s, %s = split(%s, %d)", ko, ki, cur[k], rows));
    const char *order = jo, *par = NULL, *red = NULL, *second = NULL;
    int64_t trips;
    for (int q = 0; q < m && !par; q++)
        if (t->names[q] && xf_auto_const_trips(ctx, t->loops[q], &trips) && trips >= 4)
            par = t->names[q];
    if (!par && xf_auto_const_trips(ctx, t->loops[j], &trips) && trips / (lanes * v) >= 4)
        par = jo;
    for (int q = m; q < t->n; q++) {
        const char *name = q == k ? ko : q == j ? NULL : cur[q];
        if (!name || !indexes(r, t->loops[q]->u.loop.iter, -1))
            continue;
        order = ft_fmt(ctx, "%s, %s", order, name);
        second = second ? second : name;
        int64_t per = q == k ? rows : 1;
        if (!par && xf_auto_const_trips(ctx, t->loops[q], &trips) && trips / per >= 4)
            par = name;
    }
    for (int q = m; q < t->n; q++)
        if (!indexes(r, t->loops[q]->u.loop.iter, -1)) {
            order = ft_fmt(ctx, "%s, %s", order, cur[q]);
            red = red ? red : cur[q];
            second = second ? second : cur[q];
        }
    order = ft_fmt(ctx, "%s, %s%s, %s", order, ki, v > 1 ? ft_fmt(ctx, ", %s", jv) : "", jl);
    lines = join(ctx, lines, ft_fmt(ctx, "reorder(%s)", order));
    if (in_block)           /* each vector block's inputs copied in its iteration */
        lines = join(ctx, lines, input_layouts(ctx, t, t->loops[j]->u.loop.iter, 0, second));
    int dk = dim_of(r, t->loops[k]->u.loop.iter), dj = dim_of(r, t->loops[j]->u.loop.iter);
    lines = join(ctx, lines, ft_fmt(ctx, "%s_ri, %s_rf, %s = cache_reduce(%s, %s, cpu)",
                                    r->u.red.var, r->u.red.var, acc, red, r->u.red.var));
    if (dk != r->u.red.n - 2 || dj != r->u.red.n - 1)
        lines = join(ctx, lines, ft_fmt(ctx, "var_reorder(%s, %s)", acc,
                                        last_two_perm(ctx, r->u.red.n, dk, dj)));
    lines = join(ctx, lines, ft_fmt(ctx, "vectorize(%s)", jl));
    if (v > 1)
        lines = join(ctx, lines, ft_fmt(ctx, "unroll(%s)", jv));
    return join(ctx, lines, ft_fmt(ctx, "unroll(%s)\nparallelize(%s, openmp)", ki,
                                   par ? par : jo));
}

/* Whether load l uses iterator it in an index. */
static int load_uses(const ast_expr *l, const char *it)
{
    for (int k = 0; k < l->u.load.n; k++)
        if (xf_expr_uses_var(l->u.load.idx[k], it))
            return 1;
    return 0;
}

/* The analytic cost of a tile of rows by v vectors of nest reduction r
 * with vector iterator jt and row iterator kt: the vector loads of its
 * inner step per multiply-add (a factor indexed by both loads a vector per
 * row and vector, one indexed by jt only a vector per vector; a factor
 * without jt is broadcast, and the broadcasts fold into the multiply-adds
 * as memory operands), plus 0.05 per further vector (the block of the
 * factors read along jt outgrows the L1 cache), plus 4 per multiply-add
 * and vector for a broadcast factor that calls a transcendental (a GELU
 * before a matrix product: recomputed for each block of vectors, so the
 * tiles as wide as the whole row come first). */
static double tile_cost(ft_ctx *ctx, const ast_stmt *r, const char *jt, const char *kt, int rows,
                        int v)
{
    ft_vec fs = {0};
    factors_of(ctx, r->u.red.value, &fs);
    double vec = 0, calls = 0;
    for (int i = 0; i < fs.len; i++) {
        const ast_expr *l = single_load(fs.items[i]);
        if (l && load_uses(l, jt))
            vec += load_uses(l, kt) ? rows * v : v;
        else if (costly(fs.items[i]))
            calls += 4.0 / v;
    }
    return vec / (rows * v) + 0.05 * (v - 1) + calls;
}

/* The sliding-window reuse of a tile of rows by v vectors (vector
 * iterator jt, row loop k): a factor of r read along both whose index in
 * one dimension adds a reduction loop q's iterator to k's (`x[o, h + kh,
 * w + kw]`: a depthwise conv's rows h and kh), q of constant trips up to
 * 4 and every reduction loop inside it too: with those loops unrolled
 * (innermost first) around the unrolled rows, the rows' loads of the same
 * input vector coincide, rows + trips - 1 loads for rows * trips products.
 * Returns the unroll lines (cur: the loop names), "" when there is none,
 * and in *saved what it takes off tile_cost. */
static const char *window_unroll(ft_ctx *ctx, const nest *t, const char **cur, const char *jt,
                                 int k, int rows, int v, double *saved)
{
    const ast_stmt *r = t->r;
    const char *kt = t->loops[k]->u.loop.iter;
    ft_vec loads = {0};
    loads_of(ctx, r->u.red.value, &loads);
    *saved = 0;
    for (int q = 0; q < t->n; q++) {
        int64_t tq, ti;
        const char *qt = t->loops[q]->u.loop.iter;
        if (indexes(r, qt, -1) || !xf_auto_const_trips(ctx, t->loops[q], &tq) || tq > 4 ||
            tq < 2)
            continue;
        int shared = 0;
        for (int i = 0; i < loads.len; i++) {
            const ast_expr *l = loads.items[i];
            for (int d = 0; load_uses(l, jt) && d < l->u.load.n; d++)
                shared |= xf_expr_uses_var(l->u.load.idx[d], kt) &&
                          xf_expr_uses_var(l->u.load.idx[d], qt);
        }
        const char *lines = "";
        for (int p = t->n - 1; shared && p >= q; p--) {
            if (indexes(r, t->loops[p]->u.loop.iter, -1))
                continue;
            if (!xf_auto_const_trips(ctx, t->loops[p], &ti) || ti > 4)
                return "";
            lines = join(ctx, lines, ft_fmt(ctx, "unroll(%s)", cur[p]));
        }
        if (!shared)
            continue;
        *saved = (rows * v - (double)(rows + tq - 1) * v / (double)tq) / (rows * v);
        return lines;
    }
    return "";
}

/* The number of tensors lines copies (`cache` lines): each copy of an
 * input per call adds 0.25 to a tile's cost (on MobileNet's depthwise
 * convs, a tile that transposed the activations took 10 times the
 * untuned function). */
static int copies(const char *lines)
{
    int n = 0;
    for (const char *q = lines; (q = strstr(q, "= cache(")) != NULL; q++)
        n++;
    return n;
}

/* The register tiles of task nest t into tiles, ranked by tile_cost (on
 * the 2-core AVX-512 machine, ResNet-18's 64-channel conv took 1.0 ms with
 * 28 rows by 1 vector, 1.4 with 14 by 2, 1.5 with 7 by 4, 2.2 with 8 by
 * 1).  Spatial and reduction loops in any order (a convolution's o, h,
 * w, c, kh, kw; a matrix product's i, k, j; a gradient's d_x nest, whose
 * reduction o is outside its spatial loops: the tile's reorder brings the
 * reductions inside it): each vector loop J (a spatial loop of
 * constant trips, a multiple of the vector width, else of half of it: 56
 * columns are 7 AVX2 vectors, with the inputs read along it laid out with
 * its dimension last: input_layouts) and each row loop K (another spatial
 * loop of constant trips, indexing another dimension of the element),
 * tiles of 1, 2 or 4 vectors, or of J's whole row when it is 5 to 14
 * vectors, by the two largest divisors of K's trips that keep at most 28
 * accumulators (of AVX-512's 32 registers); the largest also with the
 * inputs read outside their shape padded (pad_layouts: no guard left in
 * the tile, for one more copy of the input per call: on the 2-core machine
 * 7% slower on ResNet-18's 64-channel conv, as fast on the 512-channel 7x7
 * one, so ranked after the unpadded), and with the inputs copied per
 * vector block inside the parallel loop; each also with its window loops
 * unrolled where window_unroll finds reuse. */
static void tile_knobs(ft_ctx *ctx, ast_func *f, const nest *t, ft_vec *tiles)
{
    const ast_stmt *r = t->r;
    int lanes = vector_lanes(r->u.red.value->dtype), first_red = t->n;
    for (int q = t->n - 1; q >= 0; q--)
        if (!indexes(r, t->loops[q]->u.loop.iter, -1))
            first_red = q;
    if (!lanes || first_red == t->n)
        return;
    const char **cur = ft_alloc(ctx, sizeof *cur * (size_t)t->n);
    int first = tiles->len;
    for (int j = 0; j < t->n; j++) {
        int64_t tj, tk;
        const char *it = t->loops[j]->u.loop.iter;
        if (!indexes(r, it, -1) || !xf_auto_const_trips(ctx, t->loops[j], &tj) ||
            tj % (lanes / 2))
            continue;
        int lj = tj % lanes ? lanes / 2 : lanes;
        for (int k = 0; k < t->n; k++) {
            if (k == j || !indexes(r, t->loops[k]->u.loop.iter, -1) ||
                !xf_auto_const_trips(ctx, t->loops[k], &tk) ||
                dim_of(r, t->loops[k]->u.loop.iter) == dim_of(r, it))
                continue;
            /* from the outermost of the tile's loops and the reductions:
             * a reduction outside the tile moves inside it (a gradient's
             * d_x[n, c, oh_in, ow_in] += ... under o, autodiff/gather.c) */
            int m = j < k ? j : k;
            m = first_red < m ? first_red : m;
            const char *fix = perfect_from(ctx, t, m, cur);
            if (!fix)
                continue;
            /* 1, 2, 4 vectors, and the whole row when it is up to 14 */
            int widths[] = {1, 2, 4, tj / lj > 4 && tj / lj <= 14 ? (int)(tj / lj) : 0};
            for (int w = 0; w < 4 && widths[w]; w++) {
                int v = widths[w];
                if (tj % (lj * v))
                    continue;
                const char *lay = t->ko.layout ? input_layouts(ctx, t, it, lj * v, NULL) : "";
                const char *lines = join(ctx, lay, fix);
                const char *pads = t->ko.layout ? pad_layouts(ctx, f, t, lay) : "";
                for (int rows = (int)(28 / v), got = 0; rows >= 2 && got < 2; rows--) {
                    if (tk % rows)
                        continue;
                    got++;
                    double saved;
                    const char *win = window_unroll(ctx, t, cur, it, k, rows, v, &saved);
                    /* 0: plain; 1: padded; 2: windowed; 3: the inputs copied per
                     * vector block, in the parallel loop (ResNet-18's 512-channel
                     * layer spent 40% of its time packing all weights first) */
                    for (int var = 0; var < 4; var++) {
                        if ((var == 1 && (!*pads || got != 1)) || (var == 2 && !*win) ||
                            (var == 3 && (!*lay || got != 1)))
                            continue;
                        tile *c = ft_alloc(ctx, sizeof *c);
                        c->cost = tile_cost(ctx, r, it, t->loops[k]->u.loop.iter, rows, v) +
                                  0.25 * copies(lay) + 1e-3 * var - (var == 2) * saved;
                        c->lines = tile_lines(ctx, t, cur, var == 1 ? join(ctx, pads, lines)
                                              : var == 3 ? fix : lines, m, j, k, lj, v, rows,
                                              var == 3);
                        c->lines = var == 2 ? join(ctx, c->lines, win) : c->lines;
                        c->nest = t->id;
                        c->order = tiles->len - first;
                        ft_vec_push(ctx, tiles, c);
                    }
                }
            }
        }
    }
}

/* qsort order of the tiles of one nest: by nest, then cheapest first
 * (at equal costs in the order the nest generated them). */
static int tile_cost_cmp(const void *a, const void *b)
{
    const tile *x = *(tile *const *)a, *y = *(tile *const *)b;
    if (x->nest != y->nest)
        return x->nest - y->nest;
    if (x->cost != y->cost)
        return (x->cost > y->cost) - (x->cost < y->cost);
    return x->order - y->order;
}

/* qsort order of tiles as measured: the nests in turn, each's next
 * cheapest (rank), so that every nest's best-ranked tiles come early and
 * the joined block of the nests' bests (tune.c) is measured soon: a
 * gradient's d_x and d_w nests each measured with the other untuned cost
 * 40 ms a run, and 120 s measured d_x's tiles only. */
static int tile_rank_cmp(const void *a, const void *b)
{
    const tile *x = *(tile *const *)a, *y = *(tile *const *)b;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    return x->nest - y->nest;
}

/* The writes (Stores and Reduces) of a statement (writes_cb). */
typedef struct writes_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec *out;
} writes_walk;

static int writes_cb(ast_visitor *v, ast_stmt *s)
{
    writes_walk *w = (writes_walk *)v;
    if (s->kind == AST_STORE || s->kind == AST_REDUCE)
        ft_vec_push(w->ctx, w->out, s);
    return 1;
}

/* Whether iterator it indexes every write in s (its iterations write
 * apart: a loop that may run in parallel). */
static int indexes_every_write(ft_ctx *ctx, ast_stmt *s, const char *it)
{
    ft_vec ws = {0};
    writes_walk w = {.v.stmt = writes_cb, .ctx = ctx, .out = &ws};
    ast_visit(s, &w.v);
    for (int i = 0; i < ws.len; i++) {
        int n, used = 0;
        ast_expr *const *idx;
        xf_written_tensor(ws.items[i], &n, &idx);
        for (int d = 0; d < n; d++)
            used |= xf_expr_uses_var(idx[d], it);
        if (!used)
            return 0;
    }
    return ws.len > 0;
}

/* The lines bringing spatial loop p of nest t outermost and running it in
 * parallel (`reorder` after the nest is made perfect, `parallelize`): for
 * a loop of 4 or more iterations below the outermost whose iterator
 * indexes every write of the nest (a gradient's `d_x[n, c, h + kh, ...]
 * += ...` and `d_w[o, c, kh, kw] += ...` both by c, while the outer loops
 * n, o, h, w make them collide), NULL otherwise. */
static const char *hoisted_parallel(ft_ctx *ctx, const nest *t, int p)
{
    int64_t trips;
    const char *it = t->loops[p]->u.loop.iter;
    if (p == 0 || !indexes(t->r, it, -1) || !xf_auto_const_trips(ctx, t->loops[p], &trips) ||
        trips < 4 || !indexes_every_write(ctx, t->loops[0], it))
        return NULL;
    const char **cur = ft_alloc(ctx, sizeof *cur * (size_t)t->n);
    const char *fix = perfect_from(ctx, t, 0, cur);
    if (!fix)
        return NULL;
    const char *order = cur[p];
    for (int q = 0; q < p; q++)
        order = ft_fmt(ctx, "%s, %s", order, cur[q]);
    return join(ctx, fix, ft_fmt(ctx, "reorder(%s)\nparallelize(%s, openmp)", order, cur[p]));
}

/* The lines splitting off the iterations of t's loops where a guard
 * around its reduction (anc: the statements around it, outermost first)
 * may be false: `separate_tail` of each named spatial loop, outermost
 * first, that such a guard tests (a padded window's `if oh + kh >= 1 and ...`: the
 * rows and columns inside the padding then run without tests); "" when
 * none. */
static const char *guard_tails(ft_ctx *ctx, const nest *t, const ft_vec *anc)
{
    const char *lines = "";
    for (int k = 0; k < t->n; k++) {
        int tested = 0;
        for (int i = 0; i < anc->len && !tested; i++) {
            const ast_stmt *g = anc->items[i];
            tested = g->kind == AST_IF &&
                     xf_expr_uses_var(g->u.branch.cond, t->loops[k]->u.loop.iter);
        }
        if (tested && t->names[k] && indexes(t->r, t->loops[k]->u.loop.iter, -1))
            lines = join(ctx, lines, ft_fmt(ctx, "separate_tail(%s)", t->names[k]));
    }
    return lines;
}

/* The knobs of one task nest into out: for each spatial loop J below the
 * outermost (the vector loop: the reduction then runs along J's rows),
 * J brought innermost, the reduced local's and the inputs' layouts with
 * J's dimension last, and their combinations, each alone or with one of
 * the two outermost spatial loops parallel; those parallel loops alone;
 * a deeper loop that writes apart brought outermost, parallel; the
 * iterations that the guards around the reduction test split off (with
 * each parallel loop). */
static void nest_knobs(ft_ctx *ctx, ast_func *f, const nest *t, ft_vec *out)
{
    const ast_stmt *r = t->r;
    const char *par[3] = {""}, *pname[3] = {NULL};
    int npar = 1, nspatial = 0;
    for (int k = 0; k < t->n; k++) {
        if (!indexes(r, t->loops[k]->u.loop.iter, -1))
            continue;
        nspatial++;
        if (npar < 3 && t->names[k]) {
            pname[npar] = t->names[k];
            par[npar++] = ft_fmt(ctx, "parallelize(%s, openmp)", t->names[k]);
        }
    }
    for (int p = 1; p < npar; p++)
        add(ctx, out, par[p], t->id);
    for (int p = 0; *t->tails && p < npar; p++)
        add(ctx, out, join(ctx, par[p], t->tails), t->id);
    for (int p = 1; p < t->n; p++) {
        const char *hoist = hoisted_parallel(ctx, t, p);
        if (hoist)
            add(ctx, out, hoist, t->id);
    }
    for (int j = 0; j < t->n; j++) {
        const char *it = t->loops[j]->u.loop.iter;
        if (!indexes(r, it, -1) || (j == 0 && nspatial > 1))
            continue;
        int d = 0;
        while (d < r->u.red.n && !indexes(r, it, d))
            d++;
        const char *inner = contiguous_inner(ctx, t, j);
        const char *lay = t->ko.layout ? output_layout(ctx, f, t, d) : "";
        const char *in = t->ko.layout ? input_layouts(ctx, t, it, 0, NULL) : "";
        const char *shapes[] = {inner, lay, in, join(ctx, in, lay), join(ctx, lay, inner),
                                join(ctx, in, inner), join(ctx, in, join(ctx, lay, inner))};
        for (int s = 0; s < 7; s++)
            for (int p = 0; *shapes[s] && p < npar; p++)
                add(ctx, out, join(ctx, shapes[s], parallel_after(ctx, par[p], pname[p],
                                                                   shapes[s])), t->id);
    }
}

int tn_candidates(ft_ctx *ctx, ast_func *f, tn_knob_opts ko, ft_vec *out)
{
    ft_vec loops = {0}, reds = {0}, nests = {0}, tiles = {0};
    loops_walk w = {.v.stmt = loops_cb, .ctx = ctx, .loops = &loops, .reds = &reds};
    ast_visit(f->body, &w.v);
    add(ctx, out, "", 0);
    for (int i = 0; i < reds.len; i++) {
        ast_stmt *r = reds.items[i];
        ft_vec factors = {0};
        loads_of(ctx, r->u.red.value, &factors);
        if (factors.len < 2)
            continue;
        ft_vec anc = {0};
        xf_ancestors(ctx, f->body, r, &anc);
        nest *t = ft_alloc(ctx, sizeof *t);
        t->r = r;
        t->id = nests.len + 1;
        t->ko = ko;
        t->loops = ft_alloc(ctx, sizeof *t->loops * (size_t)(anc.len + 1));
        t->names = ft_alloc(ctx, sizeof *t->names * (size_t)(anc.len + 1));
        for (int k = 0; k < anc.len; k++) {
            ast_stmt *a = anc.items[k];
            if (a->kind == AST_FOR) {
                t->loops[t->n] = a;
                t->names[t->n++] = loop_name(&loops, a);
            }
        }
        t->tails = guard_tails(ctx, t, &anc);
        tile_knobs(ctx, f, t, &tiles);
        ft_vec_push(ctx, &nests, t);
    }
    /* the register tiles first, as the model ranks them (their kernels are
     * the fastest when they apply), then the other knobs */
    if (tiles.len) {
        qsort(tiles.items, (size_t)tiles.len, sizeof *tiles.items, tile_cost_cmp);
        for (int i = 0; i < tiles.len; i++) {
            tile *c = tiles.items[i];
            c->rank = i && ((tile *)tiles.items[i - 1])->nest == c->nest
                      ? ((tile *)tiles.items[i - 1])->rank + 1 : 0;
        }
        qsort(tiles.items, (size_t)tiles.len, sizeof *tiles.items, tile_rank_cmp);
    }
    for (int i = 0; i < tiles.len; i++)
        add(ctx, out, ((tile *)tiles.items[i])->lines, ((tile *)tiles.items[i])->nest);
    for (int i = 0; i < nests.len; i++)
        nest_knobs(ctx, f, nests.items[i], out);
    return nests.len;
}
