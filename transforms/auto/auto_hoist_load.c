/* auto_hoist_load.c - a float element that a body reads again and again,
 * while nothing in it writes the tensor, loaded once into a 0-D local.
 *
 * Requires: f's AST after auto_cse (the last pass that rewrites values);
 * the C target (on CUDA the pass does nothing).
 * Provides: in every body (a function's, a loop's that is not vectorized
 * nor a BLAS call, a branch's), read as its scope list (xf_scope_list), a
 * load L = t[idx...] of a float tensor with dimensions that
 *   - appears in an item and again in a later one, or inside a loop of
 *     its item that is not vectorized (it would be loaded at each
 *     iteration; in a vectorized loop once per vector); uses in one item
 *     only, with no loop, are left to the C compiler, which merges them
 *     (every use in the chosen items is then replaced),
 *     the later uses anywhere inside their items, also in inner loops and
 *     branches, but not under a loop or VarDef of the item that rebinds a
 *     name L uses (an iterator, a tensor);
 *   - has no item between the first use and a later one that writes (or
 *     redeclares) a tensor L reads: the scan ends before such an item, or
 *     at it when it is a Store or Reduce (its value is read before it
 *     writes);
 *   - may run where its first use is: that use is evaluated unguarded by a
 *     Store or Reduce item of the list (not in a branch of an
 *     if-expression, nor right of `and` / `or`, nor inside a loop or
 *     branch of the item), or every load in L reads an element that exists
 *     wherever the item runs (indices without loads, proven in bounds by
 *     analysis/bounds.h, as auto_cse proves its guarded loads)
 * becomes
 *
 *     var t_v: T          (0-D, t's dtype)
 *     t_v_load: t_v = t[idx...]
 *     <the item of the first use and every later one, L read as t_v>
 *
 * Why: the C compiler cannot keep the element in a register.  A store to
 * any float array between two loads may, for all it knows, write it: the
 * tensors are distinct memory in the language (every tensor is a value;
 * the dependence analysis relies on it), but in the C they are pointers
 * into heap buffers, a tape and parameters, and `restrict` does not help:
 * gcc honours it on function parameters only, not on the locals nor on
 * the variables that OpenMP's outlining passes into a parallel body.  GAT's
 * backward pass reads tape_el[i], tape_m[i] and tape_den[i] at every edge
 * of node i, and tape_er[idx[k]] in six statements of one edge, between
 * scatters into d_hf and d_er; its forward pass el[i] at every edge.
 * The Store is labelled (t_v_load) so that a dump compiled again keeps it:
 * remove_copies (transforms/remove_copies.c) forwards unlabelled copies.
 * Integer tensors are left alone: a float store cannot alias them (C's
 * type-based aliasing), and an index load such as idx[k] must stay visible
 * to auto_prefetch.
 * A checked access (data-dependent index) in L is checked where L now runs:
 * just before the first use that checked it, with nothing stored between.
 * Larger loads are taken first (outer bodies first); the pass repeats until
 * no body has one.
 */
#include "auto_util.h"

#include <string.h>

#include "../../analysis/bounds.h"

#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_hoist_load";

/* At most this many loads per function (each rescans the function). */
enum { MAX_HOIST = 400 };

/* One use of a candidate load: the field holding it (replaced in place),
 * its item in the scope list, whether it may not run where its item
 * starts (guarded, or nested in a loop or branch of the item), whether a
 * loop of the item that is not vectorized encloses it. */
typedef struct hl_use {
    ast_expr **slot;
    int item;
    int guarded;
    int in_loop;
} hl_use;

/* What encloses a use inside its item: the iterators of the loops and the
 * names of the VarDefs between the item and the use. */
typedef struct hl_ctx {
    ft_ctx *ctx;
    ft_vec *out;            /* hl_use * */
    int item;
    ft_vec bound;           /* const char *: iterators and local names */
    int in_loop;
} hl_ctx;

/* Whether e is a candidate: a load of a float tensor with dimensions. */
static int candidate(const ast_expr *e)
{
    return e->kind == AST_LOAD && e->u.load.n > 0 && ft_dtype_is_float(e->dtype);
}

/* Whether e mentions (as an iterator or a tensor it reads) a name bound
 * around the use inside its item. */
static int rebound(hl_ctx *h, const ast_expr *e)
{
    for (int i = 0; i < h->bound.len; i++)
        if (xf_expr_uses_var(e, h->bound.items[i]) || xf_expr_reads(e, h->bound.items[i]))
            return 1;
    return 0;
}

/* The xf_auto_each_slot callback of collect: *slot to h->out when it is
 * a candidate. */
static void collect_one(void *arg, ast_expr **slot, int guarded)
{
    hl_ctx *h = arg;
    if (candidate(*slot) && !rebound(h, *slot)) {
        hl_use *u = ft_alloc(h->ctx, sizeof *u);
        *u = (hl_use){slot, h->item, guarded, h->in_loop};
        ft_vec_push(h->ctx, h->out, u);
    }
}

/* Append to h->out the candidates in *slot and below it, outer ones first
 * (guarded: a guard or a statement of the item encloses *slot). */
static void collect(hl_ctx *h, ast_expr **slot, int guarded)
{
    xf_auto_each_slot(slot, guarded, collect_one, h);
}

/* Collect the candidates of statement s, nested in an item when `nested`
 * (then every use is guarded: it may not run where the item starts).  The
 * values and indices of Stores and Reduces and the conditions of branches
 * are searched; a BLAS nest is left whole. */
static void collect_stmt(hl_ctx *h, ast_stmt *s, int nested)
{
    if (!s)
        return;
    int mark = h->bound.len, in_loop = h->in_loop;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            collect_stmt(h, s->u.seq.stmts[i], 1);
        break;
    case AST_VARDEF:
        ft_vec_push(h->ctx, &h->bound, (void *)s->u.def.name);
        collect_stmt(h, s->u.def.body, 1);
        break;
    case AST_FOR:
        if (s->u.loop.par == AST_LIB)
            break;
        ft_vec_push(h->ctx, &h->bound, (void *)s->u.loop.iter);
        h->in_loop |= s->u.loop.par != AST_VECTORIZE;
        collect_stmt(h, s->u.loop.body, 1);
        break;
    case AST_IF:
        collect(h, &s->u.branch.cond, nested);
        collect_stmt(h, s->u.branch.then, 1);
        collect_stmt(h, s->u.branch.other, 1);
        break;
    case AST_STORE:
        for (int k = 0; k < s->u.store.n; k++)
            collect(h, &s->u.store.idx[k], nested);
        collect(h, &s->u.store.value, nested);
        break;
    case AST_REDUCE:
        for (int k = 0; k < s->u.red.n; k++)
            collect(h, &s->u.red.idx[k], nested);
        collect(h, &s->u.red.value, nested);
        break;
    default: break;
    }
    h->bound.len = mark;
    h->in_loop = in_loop;
}

/* The last item of items (from `first` on) where a load reading the
 * tensors `reads` still has the value it has at item first (see the file
 * comment); -1 when the first item itself may change it before a use. */
static int last_valid(const ft_vec *items, int first, const ft_vec *reads)
{
    for (int j = first; j < items->len; j++) {
        const ast_stmt *s = items->items[j];
        if (j > first && s->kind == AST_VARDEF && xf_has_name(reads, s->u.def.name))
            return j - 1;
        if (xf_item_writes_any(s, reads))
            return s->kind == AST_STORE || s->kind == AST_REDUCE ? j : j - 1;
    }
    return items->len - 1;
}

/* The loads a Store or Reduce item evaluates unguarded (its indices and
 * its value); none for other items. */
static void item_plain_loads(ft_ctx *ctx, const ast_stmt *item, ft_vec *out)
{
    if (item->kind == AST_STORE) {
        for (int k = 0; k < item->u.store.n; k++)
            xf_auto_plain_loads(ctx, item->u.store.idx[k], 0, out);
        xf_auto_plain_loads(ctx, item->u.store.value, 0, out);
    } else if (item->kind == AST_REDUCE) {
        for (int k = 0; k < item->u.red.n; k++)
            xf_auto_plain_loads(ctx, item->u.red.idx[k], 0, out);
        xf_auto_plain_loads(ctx, item->u.red.value, 0, out);
    }
}

/* Load p's element once in a new 0-D local, before its item, and read
 * that local at p and at the uses `same` (see the file comment). */
static void apply(xf_auto *a, ast_stmt *item, const hl_use *p, const ft_vec *same)
{
    ft_ctx *ctx = a->ctx;
    ast_expr *e = *p->slot;
    const char *name = xf_free_name(ctx, a->f, ft_fmt(ctx, "%s_v", e->u.load.var));
    if (same->len)
        xf_auto_log(a, PASS, xf_auto_name(a, item), "`%s` loaded once in %s for %d uses",
                    ast_expr_text(ctx, e), name, same->len + 1);
    else
        xf_auto_log(a, PASS, xf_auto_name(a, item), "`%s` loaded once in %s before the "
                    "loop that reads it", ast_expr_text(ctx, e), name);
    *p->slot = ast_load(ctx, e->loc, name, e->dtype, 0, NULL);
    for (int i = 0; i < same->len; i++) {
        hl_use *q = same->items[i];
        *q->slot = ast_load(ctx, e->loc, name, e->dtype, 0, NULL);
    }
    ast_stmt *moved = ft_alloc(ctx, sizeof *moved);
    *moved = *item;
    ast_stmt *seq[2] = {ast_store(ctx, item->loc, name, 0, NULL, e), moved};
    seq[0]->label = ft_fmt(ctx, "%s_load", name);   /* remove_copies keeps it */
    ast_stmt *def = ast_vardef(ctx, item->loc, name, e->dtype, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                               ast_seq(ctx, item->loc, 2, seq));
    *item = *def;
}

/* Try use p (the first use of its load) against the later uses of uses;
 * whether its load was hoisted. */
static int try_use(xf_auto *a, an_bounds *b, ft_vec *items, ft_vec *uses, int pi)
{
    hl_use *p = uses->items[pi];
    ast_expr *e = *p->slot;
    ast_stmt *item = items->items[p->item];
    for (int i = 0; i < pi; i++) {
        hl_use *q = uses->items[i];
        if (ast_expr_equal(*q->slot, e))
            return 0;       /* not the first use: that one was tried */
    }
    ft_vec reads = {0}, same = {0};
    xf_expr_loaded(a->ctx, e, &reads);
    int last = last_valid(items, p->item, &reads);
    if (last < p->item)
        return 0;
    for (int i = pi + 1; i < uses->len; i++) {
        hl_use *q = uses->items[i];
        if (q->item > last)
            break;
        if (ast_expr_equal(*q->slot, e))
            ft_vec_push(a->ctx, &same, q);
    }
    int later = 0;        /* a use in a later item: C reloads it after stores */
    for (int i = 0; i < same.len; i++)
        later |= ((hl_use *)same.items[i])->item > p->item;
    if (!later && !p->in_loop)
        return 0;
    if (p->guarded) {
        ft_vec plain = {0};
        item_plain_loads(a->ctx, item, &plain);
        if (!xf_auto_speculable(a, b, item, e, &plain))
            return 0;
    }
    apply(a, item, p, &same);
    return 1;
}

/* Hoist one load of body (or of a body nested in it), b the environment
 * at body; whether one was. */
static int hoist_body(xf_auto *a, an_bounds *b, ast_stmt *body)
{
    if (!body)
        return 0;
    ft_vec items = {0}, uses = {0};
    xf_scope_list(a->ctx, body, &items);
    for (int i = 0; i < items.len; i++) {
        ast_stmt *s = items.items[i];
        if (s->kind == AST_VARDEF)
            continue;       /* its declaration only: its body follows */
        hl_ctx h = {.ctx = a->ctx, .out = &uses, .item = i};
        collect_stmt(&h, s, 0);
    }
    for (int i = 0; i < uses.len; i++)
        if (try_use(a, b, &items, &uses, i))
            return 1;
    for (int i = 0; i < items.len; i++)
        if (xf_auto_nested_bodies(a, b, items.items[i], 1, hoist_body))
            return 1;
    return 0;
}

/* The pass (see the file comment); the number of loads hoisted. */
int xf_auto_hoist_load(xf_auto *a)
{
    int n = 0;
    while (n < MAX_HOIST && hoist_body(a, an_bounds_new(a->ctx, a->f), a->f->body)) {
        a->f->body = xf_normalize(a->ctx, a->f->body);
        n++;
    }
    return n;
}
