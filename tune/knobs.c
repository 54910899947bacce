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
 * and their combinations; the untuned function (`auto` alone) is always
 * a candidate, so tuning never makes a function slower.  A loop is named
 * by its label or iterator when that name is unique in the function (the
 * names a schedule file resolves); a knob needing an unnamed loop is left
 * out.
 */
#include "tune.h"

#include <string.h>

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
} nest;

/* Add the block "lines + auto" to out unless it is there already. */
static void add(ft_ctx *ctx, ft_vec *out, const char *lines)
{
    const char *s = *lines ? ft_fmt(ctx, "%s\nauto", lines) : "auto";
    for (int i = 0; i < out->len; i++)
        if (!strcmp(out->items[i], s))
            return;
    ft_vec_push(ctx, out, (void *)s);
}

/* "a\nb", either of them possibly empty. */
static const char *join(ft_ctx *ctx, const char *a, const char *b)
{
    return !*a ? b : !*b ? a : ft_fmt(ctx, "%s\n%s", a, b);
}

/* The lines that bring the contiguous loop (index j of the nest) below
 * the rest of the nest: from the innermost loop outwards to j, each loop
 * whose body holds more than the next loop of the nest (a `t = 0` before
 * the reduction loops), or around one split so, is split by a fission
 * before that loop (its second part `L_tb` continues the nest); then a
 * reorder of the perfect nest left.  "" when j is innermost or a loop is
 * unnamed. */
static const char *contiguous_inner(ft_ctx *ctx, const nest *t, int j)
{
    if (j < 0 || j == t->n - 1)
        return "";
    for (int k = j; k < t->n; k++)
        if (!t->names[k])
            return "";
    const char **cur = ft_alloc(ctx, sizeof *cur * (size_t)t->n);
    const char *lines = "", *order = "";
    int split = 0;
    cur[t->n - 1] = t->names[t->n - 1];
    for (int k = t->n - 2; k >= j; k--) {
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
 * layout (`var_reorder`), or, for a parameter (whose layout is the ABI),
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
        return ft_fmt(ctx, "var_reorder(%s, %s)", v, last_perm(ctx, nd, d));
    return ft_fmt(ctx, "%s_tf, %s_tw, %s_tb = cache(%s, %s, cpu)\nvar_reorder(%s_tb, %s)", v, v,
                  v, t->names[0], v, v, last_perm(ctx, nd, d));
}

/* The loads among the factors of product e into out. */
static void loads_of(ft_ctx *ctx, const ast_expr *e, ft_vec *out)
{
    if (e->kind == AST_LOAD)
        ft_vec_push(ctx, out, (void *)e);
    else if (e->kind == AST_CAST)
        loads_of(ctx, e->u.cast.a, out);
    else if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL) {
        loads_of(ctx, e->u.bin.a, out);
        loads_of(ctx, e->u.bin.b, out);
    }
}

/* The lines copying each factor of r that reads iterator it in a
 * dimension other than its last into a local with that dimension last:
 * `X_tf, X_tw, X_tb = cache(S, X, cpu)` around the nest's outermost loop
 * S, then `var_reorder(X_tb, [...])`; "" when there is none or S has no
 * name. */
static const char *input_layouts(ft_ctx *ctx, const nest *t, const char *it)
{
    const ast_stmt *r = t->r;
    ft_vec loads = {0}, done = {0};
    loads_of(ctx, r->u.red.value, &loads);
    const char *lines = "";
    for (int i = 0; t->n && t->names[0] && i < loads.len; i++) {
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
                                        "var_reorder(%s_tb, %s)", v, v, v, t->names[0], v, v,
                                        last_perm(ctx, n, d)));
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

/* The knobs of one task nest into out: for each spatial loop J below the
 * outermost (the vector loop: the reduction then runs along J's rows),
 * J brought innermost, the reduced local's and the inputs' layouts with
 * J's dimension last, and their combinations, each alone or with one of
 * the two outermost spatial loops parallel; those parallel loops alone. */
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
        add(ctx, out, par[p]);
    for (int j = 0; j < t->n; j++) {
        const char *it = t->loops[j]->u.loop.iter;
        if (!indexes(r, it, -1) || (j == 0 && nspatial > 1))
            continue;
        int d = 0;
        while (d < r->u.red.n && !indexes(r, it, d))
            d++;
        const char *inner = contiguous_inner(ctx, t, j);
        const char *lay = output_layout(ctx, f, t, d);
        const char *in = input_layouts(ctx, t, it);
        const char *shapes[] = {inner, lay, in, join(ctx, in, lay), join(ctx, lay, inner),
                                join(ctx, in, inner), join(ctx, in, join(ctx, lay, inner))};
        for (int s = 0; s < 7; s++)
            for (int p = 0; *shapes[s] && p < npar; p++)
                add(ctx, out, join(ctx, shapes[s], parallel_after(ctx, par[p], pname[p],
                                                                   shapes[s])));
    }
}

int tn_candidates(ft_ctx *ctx, ast_func *f, ft_vec *out)
{
    ft_vec loops = {0}, reds = {0};
    loops_walk w = {.v.stmt = loops_cb, .ctx = ctx, .loops = &loops, .reds = &reds};
    ast_visit(f->body, &w.v);
    add(ctx, out, "");
    int ntasks = 0;
    for (int i = 0; i < reds.len; i++) {
        ast_stmt *r = reds.items[i];
        ft_vec factors = {0};
        loads_of(ctx, r->u.red.value, &factors);
        if (factors.len < 2)
            continue;
        ft_vec anc = {0};
        xf_ancestors(ctx, f->body, r, &anc);
        nest t = {.r = r};
        t.loops = ft_alloc(ctx, sizeof *t.loops * (size_t)(anc.len + 1));
        t.names = ft_alloc(ctx, sizeof *t.names * (size_t)(anc.len + 1));
        for (int k = 0; k < anc.len; k++) {
            ast_stmt *a = anc.items[k];
            if (a->kind == AST_FOR) {
                t.loops[t.n] = a;
                t.names[t.n++] = loop_name(&loops, a);
            }
        }
        nest_knobs(ctx, f, &t, out);
        ntasks++;
    }
    return ntasks;
}
