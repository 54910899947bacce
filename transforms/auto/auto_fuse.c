/* auto_fuse.c - fuse neighbouring loops over the same range.
 *
 * Requires: f's AST (normalised: flat sequences).
 * Provides: two loops of one sequence with the same begin, end and step,
 * at most MAX_GAP statements apart, fused with xf_fuse (which checks the
 * dependences and shrinks the temporaries that become per-iteration), after
 * moving the second one up next to the first with xf_swap when statements
 * sit between them.  The fusion is undone when one of the loops could run
 * its iterations in parallel and the fused loop cannot.  The scan starts
 * again after each fusion: the bodies of fused loops may now hold
 * neighbouring loops of their own.
 *
 * The pass runs twice: first on serial loops (before the other passes
 * mark any loop), then, as auto_fuse_late after auto_unroll, on pairs of
 * vectorized loops.  Unrolling a short loop around a vectorized one leaves
 * copies of it side by side (SubdivNet's gather over the three neighbours
 * of a face: a zeroing loop and three gather loops over the features, each
 * a pass over the face's rows); fused, they are one pass, as hand-written
 * C would have it.  The checks are the same: element-by-element
 * dependences only, so the fused loop is still free of dependences across
 * its iterations and stays vectorized.
 *
 * A loop whose iterations accumulate into shared elements (a reduction
 * loop, `for j: s[k] += ...`) is not fused: auto_red_cache and
 * auto_vectorize turn one such loop at a time into a 0-D accumulator, and
 * a fused pair would keep (atomic) updates of memory in the inner loop
 * (SubdivNet's backward matmul loops ran 1.6x slower fused).  Except two
 * row reductions of one tensor (row_reductions): every update in them is
 * plain, into that tensor, and walks the iterator of a loop inside (`for
 * k: for j: y[i, j] += x[k] * w[k, j]`), so no update is one element over
 * a loop, which is what those passes would make 0-D; fused, the loop over k runs once with all the
 * updates of the row per k, which auto_jam then blocks (SubdivNet's four
 * matrix-vector products into one row of y, after auto_sum_dest).  Two
 * updates with the same operator of one element commute (the analysis
 * gives them no order), so each element gets the same updates, in another
 * order (rounding may differ).
 *
 * Cost: xf_fuse and xf_swap check the new order of the dependences
 * between the statements they move (an_items_deps, pairwise over their
 * accesses), so the pass looks first at the dependences between the two
 * loops (and the statements between them), from the same kind of
 * analysis, and skips a pair whose region (the two loops and the
 * statements between) holds more than XF_AUTO_REGION_MAX statements
 * (xf_auto_small_region), whatever the size of the sequence and of the
 * function: every check looks at that region only, so a long sequence
 * costs a bounded check per pair.  (SubdivNet's backward: the three
 * scatter loops over the features of a face, 5 statements each, sit after
 * the unrolled loop of its matrix-vector products, 70 statements; fused,
 * the face's rows of e and of the feature gradients are loaded once.)
 */
#include "auto_util.h"

#include <string.h>

#include "../schedule.h"
#include "../sched_util.h"
#include "../xf_util.h"
#include "visit.h"

enum { MAX_GAP = 2, MAX_INIT_GAP = 6 };

static const char *const PASS = "auto_fuse";

/* The pairs of loop IDs tried already, and which loops a scan fuses. */
typedef struct fuse_state {
    xf_auto *a;
    ft_vec tried;     /* (intptr_t)(id1 << 20 | id2) */
    ast_par par;      /* AST_SERIAL (the first run), AST_VECTORIZE (the late one) */
    int64_t work;     /* statements the tries took on (--max-fuse-work) */
    int spent;        /* the budget is spent: no further try */
} fuse_state;

/* Whether the pair was tried. */
static int was_tried(const fuse_state *st, const ast_stmt *l1, const ast_stmt *l2)
{
    intptr_t key = (intptr_t)l1->id << 20 | (intptr_t)l2->id;
    for (int i = 0; i < st->tried.len; i++)
        if ((intptr_t)st->tried.items[i] == key)
            return 1;
    return 0;
}

/* Whether the pair was tried (and remember it). */
static int tried(fuse_state *st, const ast_stmt *l1, const ast_stmt *l2)
{
    if (was_tried(st, l1, l2))
        return 1;
    intptr_t key = (intptr_t)l1->id << 20 | (intptr_t)l2->id;
    ft_vec_push(st->a->ctx, &st->tried, (void *)key);
    return 0;
}

static int same_range(const ast_stmt *l1, const ast_stmt *l2)
{
    return ast_expr_equal(l1->u.loop.begin, l2->u.loop.begin) &&
           ast_expr_equal(l1->u.loop.end, l2->u.loop.end) &&
           ast_expr_equal(l1->u.loop.step, l2->u.loop.step);
}

/* Whether two accesses of n indices x and y (y's read with l1's iterator)
 * never touch one element: in some dimension their ranges under bounds b
 * do not meet (`y[o]` and `y[64 + o]` for o < 64: a concat's parts). */
static int disjoint(an_bounds *b, int n, ast_expr *const *x, ast_expr *const *y)
{
    for (int k = 0; k < n; k++) {
        an_range rx = an_range_of(b, x[k]), ry = an_range_of(b, y[k]);
        if ((rx.has_hi && ry.has_lo && rx.hi < ry.lo) || (ry.has_hi && rx.has_lo && ry.hi < rx.lo))
            return 1;
    }
    return 0;
}

/* Whether index e names its dimension's position by l1's iterator i1
 * alone: a linear form with a non-zero coefficient of i1 whose other
 * atoms are iterators of the loops around l1 (enc) or sizes, fixed during
 * l1's run.  Two accesses with e in one dimension meet only at one
 * iteration of l1. */
static int pins(ft_ctx *ctx, const ast_func *f, const ft_vec *enc, const ast_expr *e,
                const char *i1)
{
    an_lin l;
    int found = 0;
    if (!an_lin_of(ctx, e, &l))
        return 0;
    for (int k = 0; k < l.n; k++) {
        const ast_expr *at = l.atom[k];
        if (at->kind != AST_VAR)
            return 0;
        int fixed = 0;
        for (int j = 0; j < enc->len && !fixed; j++)
            fixed = strcmp(((const ast_stmt *)enc->items[j])->u.loop.iter, at->u.name) == 0;
        for (int j = 0; j < f->nparams && !fixed; j++)
            fixed = f->params[j].is_size && strcmp(f->params[j].name, at->u.name) == 0;
        if (strcmp(at->u.name, i1) == 0)
            found = l.coef[k] != 0;
        else if (!fixed)
            return 0;
    }
    return found;
}

/* Whether every dependence on var between l1's and l2's bodies joins the
 * same iteration: each pair of accesses, one in each and one of them a
 * write, touches at iteration i one element that depends on i, the same
 * in both (l2's iterator read as l1's); or has in some dimension the same
 * index, which pins the iteration (a relu's rows written at pixel p and a
 * 1x1 conv's reads of pixel p, over the channels); or never touches the
 * element of the other (their ranges are apart under the loops around l1
 * and l1's own). */
static int elementwise(xf_auto *a, const ast_stmt *l1, const ast_stmt *l2, const char *var)
{
    ft_ctx *ctx = a->ctx;
    ft_vec acc = {0}, enc = {0};
    xf_collect_accesses(ctx, l1->u.loop.body, var, &acc);
    int n1 = acc.len;
    xf_collect_accesses(ctx, l2->u.loop.body, var, &acc);
    if (n1 == 0 || acc.len == n1)
        return 0;
    const char *i1 = l1->u.loop.iter, *i2 = l2->u.loop.iter;
    ast_expr *v1 = ast_var(ctx, l1->loc, i1);
    an_bounds *b = an_bounds_new(ctx, a->f);
    xf_auto_enclosing_loops(ctx, a->f, l1, &enc);
    for (int k = 0; k < enc.len; k++)
        an_bounds_push_loop(b, enc.items[k]);
    an_bounds_push_loop(b, l1);
    for (int i = 0; i < n1; i++)
        for (int j = n1; j < acc.len; j++) {
            const xf_access *x = acc.items[i], *y = acc.items[j];
            if ((!x->stmt && !y->stmt) || *x->n != *y->n)
                continue;
            int n = *x->n, same = 1, uses = 0, pinned = 0;
            ast_expr **yi = ft_alloc(ctx, sizeof *yi * (size_t)(n + 1));
            for (int k = 0; k < n; k++) {
                yi[k] = ast_subst_vars(ctx, (*y->idx)[k], 1, &i2, &v1);
                int eq = ast_expr_equal(yi[k], (*x->idx)[k]);
                same &= eq;
                uses |= xf_expr_uses_var((*x->idx)[k], i1);
                pinned |= eq && pins(ctx, a->f, &enc, yi[k], i1);
            }
            if (!(same && uses) && !pinned && !disjoint(b, n, *x->idx, yi))
                return 0;
        }
    return 1;
}

/* Whether some loop of inner (iterators, innermost last) is used by an
 * index of n indices idx. */
static int index_walks(const ft_vec *inner, int n, ast_expr *const *idx)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < inner->len; i++)
            if (xf_expr_uses_var(idx[k], inner->items[i]))
                return 1;
    return 0;
}

/* Whether every Reduce under s is plain, into tensor *var (the first one
 * sets it) and indexed by one of the loops of inner or of s (iterators
 * pushed as the walk goes down), and s writes nothing else. */
static int rows_under(ft_ctx *ctx, const ast_stmt *s, ft_vec *inner, const char **var)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int k = 0; k < s->u.seq.n; k++)
            if (!rows_under(ctx, s->u.seq.stmts[k], inner, var))
                return 0;
        return 1;
    case AST_FOR: {
        if (s->u.loop.par == AST_LIB)
            return 0;
        ft_vec_push(ctx, inner, (void *)s->u.loop.iter);
        int ok = rows_under(ctx, s->u.loop.body, inner, var);
        inner->len--;
        return ok;
    }
    case AST_REDUCE:
        if (*var && strcmp(*var, s->u.red.var) != 0)
            return 0;
        *var = s->u.red.var;
        return !s->u.red.atomic && index_walks(inner, s->u.red.n, s->u.red.idx);
    case AST_VARDEF:
    case AST_IF:
    case AST_STORE:
    default:
        return 0;
    }
}

/* Whether l1 and l2 are row reductions of one tensor (see the top): every
 * statement under them is a plain Reduce into that tensor inside a loop
 * within them whose iterator its index uses (it updates another element
 * of the row at each iteration of that loop). */
static int row_reductions(ft_ctx *ctx, const ast_stmt *l1, const ast_stmt *l2)
{
    ft_vec inner = {0};
    const char *var = NULL;
    return rows_under(ctx, l1->u.loop.body, &inner, &var) &&
           rows_under(ctx, l2->u.loop.body, &inner, &var);
}

/* Whether loop l vectorizes on its own: a loop encloses it (else
 * auto_parallelize takes it), it has no loop inside, reads some tensor (a
 * computation, not a buffer's initialization) and walks every access
 * contiguously or not at all. */
static int simd_alone(xf_auto *a, const ast_stmt *l)
{
    ft_vec enc = {0};
    xf_auto_enclosing_loops(a->ctx, a->f, l, &enc);
    if (!enc.len)
        return 0;
    ft_vec loaded = {0};
    xf_stmt_loaded(a->ctx, l->u.loop.body, &loaded);
    if (xf_auto_has_loop(l->u.loop.body) || !loaded.len)
        return 0;
    xf_walks w = xf_walks_along(a->ctx, a->f, l, l->u.loop.body, l->u.loop.iter);
    return w.contiguous && !w.strided;
}

/* A cheap look before xf_fuse's full check: NULL when every dependence
 * between l1 and l2 is element-wise (l2 reads at iteration i what l1 wrote
 * at iteration i), else why they will not fuse.  *par: whether l1 or l2
 * runs its iterations independently (from their own dependences, which
 * the analysis caches).  d: the dependences between the items l1 .. l2
 * (an_items_across_deps: not those inside one item, which a fusion or a
 * move keeps in order).  between: the statements l2 moves up past
 * (NULL-terminated), which it must not depend on. */
static const char *prefilter(xf_auto *a, const an_deps *d, const ast_stmt *l1,
                             const ast_stmt *l2, ast_stmt *const *between, int *par)
{
    const char *w;
    an_par p1 = xf_auto_loop_par(a, l1, &w), p2 = xf_auto_loop_par(a, l2, &w);
    *par = p1 == AN_PAR_OK || p2 == AN_PAR_OK;
    int rows = p1 == AN_PAR_REDUCTION && p2 == AN_PAR_REDUCTION &&
               row_reductions(a->ctx, l1, l2);
    if (!rows && (p1 == AN_PAR_REDUCTION || p1 == AN_PAR_ATOMIC || p2 == AN_PAR_REDUCTION ||
                  p2 == AN_PAR_ATOMIC))
        return ft_fmt(a->ctx, "%s accumulates across its iterations (a reduction loop is "
                      "left to auto_red_cache and auto_vectorize, which take one at a time)",
                      p1 == AN_PAR_REDUCTION || p1 == AN_PAR_ATOMIC ? xf_auto_name(a, l1)
                                                                     : xf_auto_name(a, l2));
    if (xf_auto_has_loop(l1->u.loop.body) != xf_auto_has_loop(l2->u.loop.body)) {
        const ast_stmt *alone = simd_alone(a, l1) ? l1 : simd_alone(a, l2) ? l2 : NULL;
        if (alone)
            return ft_fmt(a->ctx, "%s vectorizes on its own, and would not under the loops "
                          "of %s", xf_auto_name(a, alone), xf_auto_name(a, alone == l1 ? l2 : l1));
    }
    an_between b = {0};
    for (ast_stmt *const *s = between; *s; s++)
        if (an_deps_between(d, *s, l2, &b))
            return ft_fmt(a->ctx, "it cannot move up past %s: %s", xf_auto_name(a, *s),
                          xf_auto_first_line(a->ctx, b.witness));
    b = (an_between){0};
    if (!an_deps_between(d, l1, l2, &b))
        return NULL;
    for (int t = 0; t < b.ntensors; t++)
        if (!elementwise(a, l1, l2, b.tensors[t]))
            return ft_fmt(a->ctx, "the dependence on '%s' is not element by element (the "
                          "two loops touch other elements of it at one iteration)",
                          b.tensors[t]);
    return NULL;
}

/* Whether loop runs its iterations independently. */
static int parallel(xf_auto *a, const ast_stmt *loop)
{
    const char *why;
    return xf_auto_loop_par(a, loop, &why) == AN_PAR_OK;
}

/* Move items[j] of seq up to i + 1 (swap); NULL when done, else why not. */
static const char *move_up(xf_auto *a, ast_stmt *seq, int i, int j)
{
    int n = j - i;
    ast_stmt **order = ft_alloc(a->ctx, sizeof(ast_stmt *) * (size_t)n);
    order[0] = seq->u.seq.stmts[j];
    for (int k = i + 1; k < j; k++)
        order[k - i] = seq->u.seq.stmts[k];
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = xf_swap(a->ctx, a->f, n, order, order[0]->loc);
    const char *why = xf_auto_quiet_end(a->ctx, &q);
    return bad ? why : NULL;
}

/* Fuse items[j] of seq into items[i]; 1 when the function changed (fused,
 * or restored after a refusal: the scan starts again either way); *fused:
 * whether they were fused. */
static int attempt(fuse_state *st, ast_stmt *seq, int i, int j, int *fused_out)
{
    xf_auto *a = st->a;
    ast_stmt *l1 = seq->u.seq.stmts[i], *l2 = seq->u.seq.stmts[j];
    const char *n1 = xf_auto_name(a, l1), *n2 = xf_auto_name(a, l2);
    int id1 = l1->id, par = 0;
    an_deps *d = an_items_across_deps(a->ctx, a->f, seq, i, j);   /* l1 .. l2 only */
    ast_stmt **between = ft_alloc(a->ctx, sizeof(ast_stmt *) * (size_t)(j - i));
    for (int k = i + 1; k < j; k++)
        between[k - i - 1] = seq->u.seq.stmts[k];
    const char *why = d ? prefilter(a, d, l1, l2, between, &par)
                        : "the dependence analysis failed";
    if (d)
        an_deps_free(d);
    if (why) {
        xf_auto_log(a, PASS, n1, "not fused with %s: %s", n2, why);
        return 0;
    }
    ast_stmt *snap = xf_auto_snapshot(a);
    why = j > i + 1 ? move_up(a, seq, i, j) : NULL;
    if (why) {
        xf_auto_log(a, PASS, n1, "not fused with %s: cannot move it next: %s", n2, why);
        return 0;
    }
    if (j > i + 1 && !(l1 = xf_auto_loop_by_id(a->ctx, a->f, id1))) {
        xf_auto_restore(a, snap);
        return 1;
    }
    int at = -1;
    ast_stmt *p = xf_parent_seq(a->ctx, a->f->body, l1, &at);
    l2 = p && at + 1 < p->u.seq.n ? p->u.seq.stmts[at + 1] : NULL;
    xf_quiet q;
    xf_auto_quiet_begin(a->ctx, &q);
    int bad = !l2 || xf_fuse(a->ctx, a->f, l1, l2, NULL, l1->loc);
    why = xf_auto_quiet_end(a->ctx, &q);
    ast_stmt *fused = bad ? NULL : xf_auto_loop_by_id(a->ctx, a->f, id1);
    if (!bad && (!fused || (par && !parallel(a, fused)))) {
        bad = 1;
        why = "the fused loop would not be parallel";
    }
    if (bad) {
        xf_auto_restore(a, snap);
        xf_auto_log(a, PASS, n1, "not fused with %s: %s", n2, why ? why : "refused");
        return 1;
    }
    xf_auto_log(a, PASS, n1, "fused with %s%s", n2, j > i + 1 ? " (moved up past the "
                "statements between)" : "");
    *fused_out = 1;
    return 1;
}

/* Whether every statement of s is a Store of a value that loads nothing
 * (`t[i] = 0`): a loop of them initializes a buffer and reads nothing
 * another loop writes. */
static int stores_constants(const ast_stmt *s)
{
    switch (s->kind) {
    case AST_SEQ:
        for (int k = 0; k < s->u.seq.n; k++)
            if (!stores_constants(s->u.seq.stmts[k]))
                return 0;
        return 1;
    case AST_FOR:
        return stores_constants(s->u.loop.body);
    case AST_STORE:
        for (int k = 0; k < s->u.store.n; k++)
            if (xf_expr_has_load(s->u.store.idx[k]))
                return 0;
        return !xf_expr_has_load(s->u.store.value);
    default:
        return 0;
    }
}

/* Whether s writes only locals (no parameter of f). */
static int writes_locals_only(ft_ctx *ctx, const ast_func *f, const ast_stmt *s)
{
    ft_vec w = {0};
    xf_stmt_written(ctx, s, &w);
    for (int k = 0; k < f->nparams; k++)
        if (xf_has_name(&w, f->params[k].name))
            return 0;
    return 1;
}

/* How many statements loop l2 may move up past to meet its partner: more
 * for a loop that only initializes local temporaries (their first use
 * follows soon, as the statements between do not touch them). */
static int max_gap(const fuse_state *st, const ast_stmt *l2)
{
    if (stores_constants(l2->u.loop.body) && writes_locals_only(st->a->ctx, st->a->f, l2))
        return MAX_INIT_GAP;
    return MAX_GAP;
}

/* Whether the scan fuses l1 with l2 (the same range and parallelism). */
static int partner(const fuse_state *st, const ast_stmt *l1, const ast_stmt *l2)
{
    return l2->kind == AST_FOR && l2->u.loop.par == st->par && same_range(l1, l2);
}

/* The items of a VarDef's body: a sequence's statements, else the body. */
static ast_stmt **body_items(ast_stmt *def, int *n)
{
    ast_stmt *b = def->u.def.body;
    if (b->kind == AST_SEQ && !b->label) {
        *n = b->u.seq.n;
        return b->u.seq.stmts;
    }
    *n = 1;
    return &def->u.def.body;
}

/* Whether the scope of local def (items[j] of seq, its last item) may grow
 * to take in items i .. j - 1: none of them mentions or declares its name,
 * and its shape loads nothing (it is evaluated earlier then). */
static int widenable(ast_stmt *seq, int i, int j)
{
    ast_stmt *def = seq->u.seq.stmts[j];
    const char *name = def->u.def.name;
    for (int k = 0; k < def->u.def.ndim; k++)
        if (xf_expr_has_load(def->u.def.shape[k]))
            return 0;
    for (int k = i; k < j; k++) {
        const ast_stmt *s = seq->u.seq.stmts[k];
        if (xf_accesses(s, name) || xf_defines(s, name))
            return 0;
    }
    return 1;
}

/* Grow the scope of local items[j] of seq (its last item) to take in items
 * i .. j - 1: seq ends with the VarDef, whose body is those items followed
 * by its old body's.  The program means the same (the local is not used
 * before, names are unique); returns the VarDef's new body. */
static ast_stmt *widen(ft_ctx *ctx, ast_stmt *seq, int i, int j)
{
    ast_stmt *def = seq->u.seq.stmts[j];
    int nb;
    ast_stmt **b = body_items(def, &nb);
    ast_stmt **items = ft_alloc(ctx, sizeof(ast_stmt *) * (size_t)(j - i + nb));
    for (int k = i; k < j; k++)
        items[k - i] = seq->u.seq.stmts[k];
    for (int k = 0; k < nb; k++)
        items[j - i + k] = b[k];
    def->u.def.body = ast_seq(ctx, def->loc, j - i + nb, items);
    seq->u.seq.stmts[i] = def;
    seq->u.seq.n = i + 1;
    return def->u.def.body;
}

/* l1 (items[i] of seq) and a loop l2 at the top of the body of the local
 * items[j] (body item k): grow the local's scope over l1 and the items
 * between, then try to fuse; everything is put back when they do not
 * fuse.  1 when the function changed. */
static int attempt_widened(fuse_state *st, ast_stmt *seq, int i, int j, int k)
{
    xf_auto *a = st->a;
    if (!widenable(seq, i, j))
        return 0;
    ast_stmt *snap = xf_auto_snapshot(a);
    const char *name = seq->u.seq.stmts[j]->u.def.name;
    ast_stmt *inner = widen(a->ctx, seq, i, j);
    int fused = 0;
    attempt(st, inner, 0, j - i + k, &fused);
    if (!fused) {
        xf_auto_restore(a, snap);
        return 1;
    }
    xf_auto_log(a, PASS, xf_auto_name(a, inner->u.seq.stmts[0]), "the scope of '%s' now "
                "begins before it (so that the loop in it could fuse with it)", name);
    return 1;
}

/* The candidate partner of l1 (items[i] of seq) in the body of the local
 * items[j] (the early run only): a loop there that only initializes
 * locals (its body item), or -1. */
static int partner_in_def(const fuse_state *st, ast_stmt *seq, int i, int j)
{
    ast_stmt *l1 = seq->u.seq.stmts[i], *def = seq->u.seq.stmts[j];
    if (st->par != AST_SERIAL || def->kind != AST_VARDEF)
        return -1;
    int nb;
    ast_stmt **b = body_items(def, &nb);
    for (int k = 0; k < nb && j - i - 1 + k <= MAX_INIT_GAP; k++)
        if (partner(st, l1, b[k]) && max_gap(st, b[k]) == MAX_INIT_GAP)
            return k;
    return -1;
}

/* Whether loop accumulates across its iterations (a reduction or atomic
 * loop: never fused, see the top, unless l1 and l2 are both row
 * reductions); from the loop's own dependences, which the analysis caches,
 * so that such a loop costs one analysis rather than one per pair it is
 * part of.  A loop that only initializes locals does not.  Logs the
 * refusal of the (new) pair (l1, l2). */
static int accumulates(fuse_state *st, const ast_stmt *loop, const ast_stmt *l1,
                       const ast_stmt *l2)
{
    const char *why;
    if (stores_constants(loop->u.loop.body))
        return 0;
    an_par p = xf_auto_loop_par(st->a, loop, &why);
    if (p != AN_PAR_REDUCTION && p != AN_PAR_ATOMIC)
        return 0;
    if (p == AN_PAR_REDUCTION && row_reductions(st->a->ctx, l1, l2))
        return 0;
    xf_auto_log(st->a, PASS, xf_auto_name(st->a, l1), "not fused with %s: %s accumulates "
                "across its iterations (a reduction loop is left to auto_red_cache and "
                "auto_vectorize, which take one at a time)", xf_auto_name(st->a, l2),
                xf_auto_name(st->a, loop));
    return 1;
}

/* The stores, reductions and asserts of items i .. j of seq plus those of
 * the first extra statements of extra[] (a local's body items that a
 * widened pair takes in): the region whose accesses the checks of a fusion
 * compare pairwise. */
static int region_size(const ast_stmt *seq, int i, int j, ast_stmt *const *extra, int nextra)
{
    int total = 0, n;
    for (int k = i; k <= j; k++) {
        xf_auto_small_region(seq->u.seq.stmts[k], &n);
        total += n;
    }
    for (int k = 0; k < nextra; k++) {
        xf_auto_small_region(extra[k], &n);
        total += n;
    }
    return total;
}

/* Whether the region of a candidate pair (l1, l2) is small enough for the
 * checks (XF_AUTO_REGION_MAX); logs the refusal when it is not. */
static int region_ok(fuse_state *st, const ast_stmt *l1, const ast_stmt *l2, int size)
{
    if (size <= XF_AUTO_REGION_MAX)
        return 1;
    xf_auto_log(st->a, PASS, xf_auto_name(st->a, l1), "not fused with %s: the two loops "
                "and the statements between hold %d statements (the fuse check compares "
                "their accesses pairwise; at most %d)", xf_auto_name(st->a, l2), size,
                XF_AUTO_REGION_MAX);
    return 0;
}

/* Whether one more try fits in what is left of the function's budget
 * (--max-fuse-work: the function's statements summed over the tries, for
 * each copies the function and cleans it up after a fusion), counting it;
 * logs once when it does not (120 lines `y = y * 0.5 + x` under a `grad`
 * line made 850 tries: 9 s and 3 GB). */
static int work_ok(fuse_state *st, const ast_stmt *l1)
{
    int64_t max = st->a->ctx->opts.budget.fuse_work;
    int n = 0;
    xf_auto_small(st->a, &n);
    if (!st->spent && st->work + n <= max) {
        st->work += n;
        return 1;
    }
    if (!st->spent)
        xf_auto_log(st->a, PASS, xf_auto_name(st->a, l1), "no further tries: they took on "
                    "%lld statements (the function's, once per try), and the next one would "
                    "exceed the budget --max-fuse-work %lld", (long long)st->work,
                    (long long)max);
    st->spent = 1;
    return 0;
}

/* Look for a pair to fuse in seq; 1 when the function changed. */
static int scan_seq(fuse_state *st, ast_stmt *seq)
{
    int n = seq->u.seq.n, size, fused;
    for (int i = 0; i + 1 < n; i++) {
        ast_stmt *l1 = seq->u.seq.stmts[i];
        if (l1->kind != AST_FOR || l1->u.loop.par != st->par)
            continue;
        int inits_only = 0;     /* after a refused partner: loops that initialize */
        for (int j = i + 1; j < n && j <= i + 1 + MAX_INIT_GAP; j++) {
            ast_stmt *l2 = seq->u.seq.stmts[j];
            int k = partner_in_def(st, seq, i, j);
            if (k >= 0) {
                ast_stmt **items = body_items(l2, &size);
                ast_stmt *in = items[k];
                if (!tried(st, l1, in) &&
                    region_ok(st, l1, in, region_size(seq, i, j - 1, items, k + 1)) &&
                    work_ok(st, l1) && attempt_widened(st, seq, i, j, k))
                    return 1;
                break;
            }
            if (!partner(st, l1, l2) || j - i - 1 > max_gap(st, l2) ||
                (inits_only && max_gap(st, l2) != MAX_INIT_GAP))
                continue;
            inits_only = 1;    /* a later loop that initializes may move up past l2 */
            if (tried(st, l1, l2) || !region_ok(st, l1, l2, region_size(seq, i, j, NULL, 0)))
                continue;
            if (accumulates(st, l1, l1, l2))
                break;             /* l1 fuses with nothing */
            if (!accumulates(st, l2, l1, l2) && work_ok(st, l1) &&
                attempt(st, seq, i, j, &fused))
                return 1;
        }
    }
    return 0;
}

/* The sequences of f. */
typedef struct seq_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec seqs;
} seq_walk;

static int seq_walk_cb(ast_visitor *v, ast_stmt *s)
{
    seq_walk *w = (seq_walk *)v;
    if (s->kind == AST_FOR && s->u.loop.par == AST_LIB)
        return 0;       /* a BLAS call (as_lib): its nest stays as it is */
    if (s->kind == AST_SEQ)
        ft_vec_push(w->ctx, &w->seqs, s);
    return 1;
}

/* Fuse the pairs of loops with parallelism par until none is left; the
 * number fused. */
static int fuse_all(xf_auto *a, ast_par par)
{
    fuse_state st = {.a = a, .par = par};
    int changed = 1, rounds = 0, n = 0;
    while (changed && !st.spent && rounds++ < 256) {
        changed = 0;
        seq_walk w = {.v.stmt = seq_walk_cb, .ctx = a->ctx};
        ast_visit(a->f->body, &w.v);
        for (int i = 0; i < w.seqs.len && !changed; i++)
            changed = scan_seq(&st, w.seqs.items[i]);
        n += changed;
    }
    if (st.work)
        xf_auto_log(a, PASS, a->f->name, "the tries took on %lld statements",
                    (long long)st.work);
    return n;
}

int xf_auto_fuse(xf_auto *a)
{
    return fuse_all(a, AST_SERIAL);
}

int xf_auto_fuse_late(xf_auto *a)
{
    return fuse_all(a, AST_VECTORIZE);
}
