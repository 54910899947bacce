/* auto_merge_red.c - the updates of one element in a body merged into one.
 *
 * Requires: f's AST after auto_fuse_late (fused loops hold the updates of
 * their former bodies side by side), auto_cse and auto_hoist_load (their
 * locals stay; a dump compiled again is the same).
 * Provides: in every sequence, an item q
 *
 *     X[I] += b
 *
 * after an earlier item p that writes the same element, written the same
 * (ast_expr_equal indices, the same atomicity for two updates),
 *
 *     X[I] += a        or        X[I] = a
 *
 * becomes part of p, `X[I] += a + b` (or `X[I] = a + b`; `X[I] = b` when a
 * is 0), and item q is gone, when
 *   - a, b and I read no X, and I reads no tensor that an item between
 *     writes (so it names the same element at p and at q);
 *   - every item between is a Store or a Reduce (no loop, no branch, no
 *     VarDef), and either another `+=` into X (any element) whose indices
 *     and value read no X, or a write of another tensor that b and I do
 *     not read, whose indices and value read no X.
 * Moving q's update up past the items between is then legal: those items
 * neither read X nor write what b reads, and updates of X by `+=` commute
 * with each other (whatever elements they touch, equal or not).
 *
 * Where q cannot move up, p moves down (sink): to the first later update
 * `X[I] += b` of its element, past items (loops too) that do not touch X
 * or write what p reads, and into the body of a local declared there (the
 * register promotion's `y[e] = 0` before `var y_p ... y[e] += y_p`), which
 * becomes `X[I] = a + b`.
 *
 * The backward pass of a gather repeats its scatter per neighbour:
 * SubdivNet's gradient adds into the rows d_e[i], d_e[adj[i, j]] fifteen
 * times per face, five per neighbour, each a read-modify-write of memory
 * the C compiler cannot keep in a register (the rows may alias); merged,
 * each of the four rows is read and written once per element (forward:
 * the three `f1[k] += e[adj[i, j], k]` after `f1[k] = 0` become one
 * store).
 *
 * A local whose zeroing and single update merge into one Store of a load
 * is then a plain copy (the four adjoints d_t of SubdivNet's
 * `y[i] = t + t_1 + t_2 + t_3`, each `d_y[i]`): xf_remove_copies makes
 * its reads read the source, and xf_remove_dead drops it (four copies of
 * a row per face, which the C compiler made into memcpy calls).
 *
 * Float tensors (f32, f64) of at least one dimension only: the updates of
 * a 0-D one are of a C scalar, kept in a register by the C compiler; an
 * integer sum a + b could overflow where X + a + b did not.
 *
 * Not bit for bit: X[I] + a + b is summed as X[I] + (a + b).
 *
 * A merged value stays within --max-expr-size nodes: 60,000 lines
 * `y[0] += 1` would otherwise become one expression 60,000 deep, which
 * every recursive walker after this pass (the C emitter first) follows
 * down to the end of its stack; past the budget the next update starts a
 * write of its own.
 */
#include "auto_util.h"

#include <string.h>

#include "../../ast/visit.h"
#include "../cleanup.h"
#include "../xf_util.h"

static const char *const PASS = "auto_merge_red";

/* Whether any index of s (a Store or a Reduce: var[idx]) or its value
 * reads tensor var. */
static int item_reads(const ast_stmt *s, const char *var)
{
    int n = s->kind == AST_STORE ? s->u.store.n : s->u.red.n;
    ast_expr *const *idx = s->kind == AST_STORE ? s->u.store.idx : s->u.red.idx;
    const ast_expr *value = s->kind == AST_STORE ? s->u.store.value : s->u.red.value;
    for (int k = 0; k < n; k++)
        if (xf_expr_reads(idx[k], var))
            return 1;
    return xf_expr_reads(value, var);
}

/* The tensor a Store or Reduce s writes. */
static const char *item_var(const ast_stmt *s)
{
    return xf_written_tensor(s, NULL, NULL);
}

/* Whether s is a `+=` update. */
static int is_add(const ast_stmt *s)
{
    return s->kind == AST_REDUCE && s->u.red.op == AST_RED_ADD;
}

/* Whether Store or Reduce p and the `+=` q write the same element of one
 * tensor, written the same (and, two updates, both atomic or neither). */
static int same_element(const ast_stmt *p, const ast_stmt *q)
{
    int n = p->kind == AST_STORE ? p->u.store.n : p->u.red.n;
    ast_expr *const *idx = p->kind == AST_STORE ? p->u.store.idx : p->u.red.idx;
    if (strcmp(item_var(p), q->u.red.var) != 0 || n != q->u.red.n)
        return 0;
    if (p->kind == AST_REDUCE && (!is_add(p) || p->u.red.atomic != q->u.red.atomic))
        return 0;
    if (p->kind == AST_STORE && q->u.red.atomic)
        return 0;   /* other threads update the element: the store would race */
    for (int k = 0; k < n; k++)
        if (!ast_expr_equal(idx[k], q->u.red.idx[k]))
            return 0;
    return 1;
}

/* Whether update q may move up past the items p + 1 .. q - 1 of seq (each
 * already checked to read no x and to write x only by `+=`): it reads no
 * tensor other than x that one of them writes. */
static int passes(const ast_stmt *seq, int p, int q, const char *x)
{
    const ast_stmt *s = seq->u.seq.stmts[q];
    for (int t = p + 1; t < q; t++) {
        const char *w = item_var(seq->u.seq.stmts[t]);
        if (strcmp(w, x) != 0 && item_reads(s, w))
            return 0;
    }
    return 1;
}

/* Whether item s may stay between item p (writing tensor x at indices idx)
 * and a later update merged into p: a Store or a Reduce that reads no x,
 * writes x only by `+=`, and writes nothing idx reads. */
static int may_stay(const ast_stmt *s, const char *x, int n, ast_expr *const *idx)
{
    if (s->kind != AST_STORE && s->kind != AST_REDUCE)
        return 0;
    if (item_reads(s, x) || (strcmp(item_var(s), x) == 0 && !is_add(s)))
        return 0;
    for (int k = 0; k < n; k++)
        if (xf_expr_reads(idx[k], item_var(s)))
            return 0;
    return 1;
}

/* Fold update q into item p (see the top). */
static void fold(ft_ctx *ctx, ast_stmt *p, const ast_stmt *q)
{
    ast_expr **value = p->kind == AST_STORE ? &p->u.store.value : &p->u.red.value;
    if (p->kind == AST_STORE && xf_is_zero(*value))
        *value = q->u.red.value;
    else
        *value = ast_binary(ctx, p->loc, AST_ADD, *value, q->u.red.value);
}

/* Remove item q of seq. */
static void remove_item(ast_stmt *seq, int q)
{
    for (int k = q; k + 1 < seq->u.seq.n; k++)
        seq->u.seq.stmts[k] = seq->u.seq.stmts[k + 1];
    seq->u.seq.n--;
}

/* Merge into item p of seq the later updates of its element that may move
 * up to it (see the top); the number merged, removed from seq. */
static int merge_into(ft_ctx *ctx, ast_stmt *seq, int p)
{
    ast_stmt *first = seq->u.seq.stmts[p];
    if (first->kind != AST_STORE && !is_add(first))
        return 0;
    const char *x = item_var(first);
    int n = first->kind == AST_STORE ? first->u.store.n : first->u.red.n;
    ast_expr *const *idx = first->kind == AST_STORE ? first->u.store.idx : first->u.red.idx;
    ft_dtype t = (first->kind == AST_STORE ? first->u.store.value : first->u.red.value)->dtype;
    if (n == 0 || (t != FT_F32 && t != FT_F64) || item_reads(first, x))
        return 0;       /* a 0-D tensor is a C scalar: its updates are in a register */
    int merged = 0;
    int64_t max = ctx->opts.budget.expr_size;
    int64_t size = ast_expr_size(first->kind == AST_STORE ? first->u.store.value
                                                          : first->u.red.value, max);
    for (int q = p + 1; q < seq->u.seq.n;) {
        ast_stmt *s = seq->u.seq.stmts[q];
        if (is_add(s) && same_element(first, s) && !item_reads(s, x) &&
            passes(seq, p, q, x)) {
            size += 1 + ast_expr_size(s->u.red.value, max);
            if (size > max)
                break;      /* see the top: s starts a merged write of its own */
            fold(ctx, first, s);
            remove_item(seq, q);
            merged++;
            continue;
        }
        if (!may_stay(s, x, n, idx))
            break;
        q++;
    }
    return merged;
}

/* The update `x[I] += b` of p's element (p writes x[I], its value and
 * indices read the tensors in reads) that p may sink to: the first
 * update of x among items[from..n) and, where one of them is a local
 * whose body accesses x, that body's items (and nothing after it); NULL
 * when an item before it accesses x, writes what p reads, or is a local
 * named x or like one p reads. */
static ast_stmt *sink_target(const ast_stmt *p, const char *x, const ft_vec *reads,
                             ast_stmt *const *items, int from, int n)
{
    for (int k = from; k < n; k++) {
        ast_stmt *s = items[k];
        if (s->kind == AST_VARDEF && xf_accesses(s->u.def.body, x)) {
            ast_stmt *b = s->u.def.body;
            if (strcmp(s->u.def.name, x) == 0 || xf_has_name(reads, s->u.def.name))
                return NULL;
            return b->kind == AST_SEQ ? sink_target(p, x, reads, b->u.seq.stmts, 0, b->u.seq.n)
                                      : sink_target(p, x, reads, &b, 0, 1);
        }
        if (is_add(s) && same_element(p, s) && !item_reads(s, x))
            return s;
        if (xf_accesses(s, x) || xf_writes_any(s, reads))
            return NULL;
    }
    return NULL;
}

/* Sink item p of seq (`X[I] = a` or `X[I] += a`) down to the later update
 * `X[I] += b` of its element that sink_target finds: through the locals
 * the auto-scheduler's register promotion declared between them
 * (`y[e] = 0` then, in a local's body, `y_p = ...; y[e] += y_p`), where
 * merge_into's items of one sequence cannot reach.  That update becomes
 * `X[I] = a + b` (`X[I] = b` when a is 0; `X[I] += a + b`) and p is gone:
 * legal as nothing between touches X or writes what a and I read, and the
 * locals passed do not hide what they read.  1 when it sank. */
static int sink(ft_ctx *ctx, ast_stmt *seq, int p)
{
    ast_stmt *first = seq->u.seq.stmts[p];
    if (first->kind != AST_STORE && !is_add(first))
        return 0;
    const char *x = item_var(first);
    ast_expr *a = first->kind == AST_STORE ? first->u.store.value : first->u.red.value;
    int n = first->kind == AST_STORE ? first->u.store.n : first->u.red.n;
    if (n == 0 || (a->dtype != FT_F32 && a->dtype != FT_F64) || item_reads(first, x))
        return 0;
    ft_vec reads = {0};
    xf_stmt_loaded(ctx, first, &reads);
    ast_stmt *q = sink_target(first, x, &reads, seq->u.seq.stmts, p + 1, seq->u.seq.n);
    int64_t max = ctx->opts.budget.expr_size;
    if (!q || ast_expr_size(a, max) + 1 + ast_expr_size(q->u.red.value, max) > max)
        return 0;
    ast_expr *b = q->u.red.value;
    ast_stmt moved = *first;
    ast_expr **value = moved.kind == AST_STORE ? &moved.u.store.value : &moved.u.red.value;
    *value = moved.kind == AST_STORE && xf_is_zero(a) ? b : ast_binary(ctx, q->loc, AST_ADD, a, b);
    moved.loc = q->loc;
    *q = moved;
    remove_item(seq, p);
    return 1;
}

/* Merge the updates of sequence seq, and sink its writes into later
 * updates; the number merged. */
static int merge_seq(ft_ctx *ctx, ast_stmt *seq)
{
    int merged = 0;
    for (int p = 0; p < seq->u.seq.n;) {
        ast_stmt *first = seq->u.seq.stmts[p];
        if (first->kind == AST_STORE || first->kind == AST_REDUCE) {
            merged += merge_into(ctx, seq, p);
            if (sink(ctx, seq, p)) {
                merged++;
                continue;
            }
        }
        p++;
    }
    return merged;
}

typedef struct merge_walk {
    ast_visitor v;
    xf_auto *a;
    int merged;
} merge_walk;

/* Merge the updates of every sequence, logging each that changed. */
static int merge_walk_cb(ast_visitor *v, ast_stmt *s)
{
    merge_walk *w = (merge_walk *)v;
    if (s->kind != AST_SEQ)
        return 1;
    int before = s->u.seq.n;
    int m = merge_seq(w->a->ctx, s);
    if (m > 0) {
        xf_auto_log(w->a, PASS, xf_auto_name(w->a, s->u.seq.stmts[0]), "%d updates merged "
                    "into earlier writes of the same elements (%d statements left of %d)", m,
                    s->u.seq.n, before);
        w->merged += m;
    }
    return 1;
}

/* Drop from every sequence of s the loops whose body does nothing (the
 * cleanups below empty a copy's loop but keep it when the auto-scheduler
 * labelled it for its schedule listing). */
static int drop_empty_loops_cb(ast_visitor *v, ast_stmt *s)
{
    (void)v;
    if (s->kind != AST_SEQ)
        return 1;
    int n = 0;
    for (int k = 0; k < s->u.seq.n; k++) {
        ast_stmt *t = s->u.seq.stmts[k];
        if (!(t->kind == AST_FOR && xf_is_empty(t->u.loop.body)))
            s->u.seq.stmts[n++] = t;
    }
    s->u.seq.n = n;
    return 1;
}

/* Forward the locals that the merges left written once (xf_propagate_temps,
 * as the front end would on this program) or plain copies
 * (xf_remove_copies) and drop them (xf_remove_dead), logging the locals
 * that went. */
static void forward_copies(xf_auto *a)
{
    ft_vec before = {0}, after = {0};
    xf_collect_vardefs(a->ctx, a->f->body, &before);
    ast_program q = {.nfuncs = 1, .funcs = &a->f};
    xf_propagate_temps(a->ctx, &q);
    xf_remove_copies(a->ctx, &q);
    xf_remove_dead(a->ctx, &q);
    ast_visitor v = {.stmt = drop_empty_loops_cb};
    ast_visit(a->f->body, &v);
    xf_collect_vardefs(a->ctx, a->f->body, &after);
    for (int i = 0; i < before.len; i++) {
        const ast_stmt *d = before.items[i];
        int kept = 0;
        for (int k = 0; k < after.len && !kept; k++)
            kept = strcmp(((const ast_stmt *)after.items[k])->u.def.name, d->u.def.name) == 0;
        if (!kept)
            xf_auto_log(a, PASS, d->u.def.name, "a copy after the merges: its reads read "
                        "the source, and the local is gone");
    }
}

int xf_auto_merge_red(xf_auto *a)
{
    merge_walk w = {.v.stmt = merge_walk_cb, .a = a};
    ast_visit(a->f->body, &w.v);
    if (w.merged > 0)
        forward_copies(a);
    return w.merged;
}
