/* auto_cse.c - a costly subexpression that statements repeat, computed once.
 *
 * Requires: f's AST after the other auto passes (it runs last: the locals
 * it adds are C scalars that no other pass needs to see); the C target (on
 * CUDA the pass does nothing).
 * Provides: in every body (a function's, a loop's, a branch's), read as its
 * scope list (xf_scope_list: the statements that run one after the other,
 * through sequences and VarDefs), a subexpression E of the value of a
 * Store or Reduce item that
 *   - is costly: it calls exp, ln, sigmoid, tanh, sin, cos, sqrt, tan, erf,
 *     log1p or expm1, or divides or raises to a power (floats);
 *   - appears again, in the same item or in a later one, with no item
 *     between writing (or redeclaring) a tensor that E reads (the item that
 *     writes it may still hold a use: its value is read before the write);
 *   - has no integer division or modulo (a hoisted one could trap), and,
 *     when its first use sits under a guard (a branch of an if-expression,
 *     the right operand of `and` / `or`), reads only elements that are
 *     there without the guard: each load of a tensor with dimensions in E
 *     either appears unguarded in the same statement (its index, and its
 *     bounds check, are evaluated anyway) or has indices without loads
 *     proven in bounds by the loop ranges and branch conditions around the
 *     statement (analysis/bounds.h); a guarded load's index may be out of
 *     range where the guard is false (bounds checks are emitted under the
 *     same guards, backend/cg_c.c)
 * becomes
 *
 *     var cse: T          (0-D, E's dtype)
 *     cse = E
 *     <the item of the first use and every later one, E read as cse>
 *
 * The backward pass of a gradient repeats the same forward value in every
 * adjoint statement: GAT's `exp(leaky_relu(el[i] + er[idx[k]]) - m[i])` in
 * seven statements of one edge loop and three of the next, SoftRas's
 * `sigmoid(d2 / SIGMA)` twice in one.  The C compiler does not merge them: a call of expf may set errno,
 * and a load from the tape may alias the stores between (d_el[i] += ...).
 * A checked access (data-dependent index) inside E is checked where E now
 * runs, once, before the first use that checked it before; nothing the
 * program stores runs between the two.
 * Larger repeated expressions are taken first; the pass repeats until no
 * body has one.
 */
#include "auto_util.h"

#include <stdint.h>
#include <string.h>

#include "../../analysis/bounds.h"

#include "../sched_util.h"
#include "../xf_util.h"

static const char *const PASS = "auto_cse";

/* At most this many expressions per function (each rescans the function). */
enum { MAX_CSE = 200, TEXT_MAX = 72 };

/* One use of a candidate: the field holding it (replaced in place), its
 * item in the scope list, whether a guard encloses it, its hash. */
typedef struct cse_use {
    ast_expr **slot;
    int item;
    int guarded;
    unsigned hash;
} cse_use;

/* Whether e itself is a costly operation (see the file comment). */
static int costly_node(const ast_expr *e)
{
    if (e->kind == AST_BINARY)
        return ft_dtype_is_float(e->dtype) && (e->u.bin.op == AST_DIV || e->u.bin.op == AST_POW);
    if (e->kind != AST_CALL)
        return 0;
    switch (e->u.call.f) {
    case AST_EXP: case AST_LN: case AST_SIN: case AST_COS: case AST_TANH:
    case AST_SIGMOID: case AST_SQRT: case AST_TAN: case AST_ERF: case AST_LOG1P:
    case AST_EXPM1:
        return 1;
    default: return 0;
    }
}

/* Count in *costly the costly operations of e and in *traps its integer
 * divisions and modulos. */
static void scan(const ast_expr *e, int *costly, int *traps)
{
    if (!e)
        return;
    *costly += costly_node(e);
    switch (e->kind) {
    case AST_LOAD:
        for (int k = 0; k < e->u.load.n; k++)
            scan(e->u.load.idx[k], costly, traps);
        break;
    case AST_BINARY:
        *traps += e->u.bin.op == AST_FLOORDIV || e->u.bin.op == AST_MOD ||
                  (e->u.bin.op == AST_DIV && !ft_dtype_is_float(e->dtype));
        scan(e->u.bin.a, costly, traps);
        scan(e->u.bin.b, costly, traps);
        break;
    case AST_UNARY: scan(e->u.un.a, costly, traps); break;
    case AST_CAST: scan(e->u.cast.a, costly, traps); break;
    case AST_CALL:
        for (int k = 0; k < e->u.call.n; k++)
            scan(e->u.call.args[k], costly, traps);
        break;
    case AST_IFEXPR:
        scan(e->u.ife.cond, costly, traps);
        scan(e->u.ife.then, costly, traps);
        scan(e->u.ife.other, costly, traps);
        break;
    default: break;
    }
}

/* Whether e may be computed once for all its uses: costly, without
 * integer division, a float value. */
static int candidate(const ast_expr *e)
{
    if (!ft_dtype_is_float(e->dtype) || e->kind == AST_LOAD)
        return 0;
    int costly = 0, traps = 0;
    scan(e, &costly, &traps);
    return costly > 0 && traps == 0;
}

/* A hash of a string (FNV-1a). */
static unsigned str_hash(const char *s, unsigned h)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* A structural hash of e: equal expressions (ast_expr_equal) hash alike. */
static unsigned expr_hash(const ast_expr *e)
{
    if (!e)
        return 1;
    unsigned h = (2166136261u ^ (unsigned)e->kind) * 16777619u;
    h = (h ^ (unsigned)e->dtype) * 16777619u;
    switch (e->kind) {
    case AST_INT: case AST_BOOLC: return (h ^ (unsigned)e->u.ival) * 16777619u;
    case AST_FLOAT: {
        uint64_t bits;
        double v = e->u.fval;
        memcpy(&bits, &v, sizeof bits);
        return (h ^ (unsigned)(bits ^ (bits >> 32))) * 16777619u;
    }
    case AST_VAR: return str_hash(e->u.name, h);
    case AST_LOAD:
        h = str_hash(e->u.load.var, h);
        for (int k = 0; k < e->u.load.n; k++)
            h = (h ^ expr_hash(e->u.load.idx[k])) * 16777619u;
        return h;
    case AST_BINARY:
        h = (h ^ (unsigned)e->u.bin.op) * 16777619u;
        h = (h ^ expr_hash(e->u.bin.a)) * 16777619u;
        return (h ^ expr_hash(e->u.bin.b)) * 16777619u;
    case AST_UNARY:
        return (h ^ ((unsigned)e->u.un.op + 31 * expr_hash(e->u.un.a))) * 16777619u;
    case AST_CAST: return (h ^ expr_hash(e->u.cast.a)) * 16777619u;
    case AST_CALL:
        h = (h ^ (unsigned)e->u.call.f) * 16777619u;
        for (int k = 0; k < e->u.call.n; k++)
            h = (h ^ expr_hash(e->u.call.args[k])) * 16777619u;
        return h;
    case AST_IFEXPR:
        h = (h ^ expr_hash(e->u.ife.cond)) * 16777619u;
        h = (h ^ expr_hash(e->u.ife.then)) * 16777619u;
        return (h ^ expr_hash(e->u.ife.other)) * 16777619u;
    }
    return h;
}

/* Where collect puts the candidates it finds. */
typedef struct cse_acc {
    ft_ctx *ctx;
    int item;
    ft_vec *out;
} cse_acc;

/* The xf_auto_each_slot callback of collect: *slot to the uses when it is
 * a candidate. */
static void collect_one(void *arg, ast_expr **slot, int guarded)
{
    cse_acc *c = arg;
    if (candidate(*slot)) {
        cse_use *u = ft_alloc(c->ctx, sizeof *u);
        *u = (cse_use){slot, c->item, guarded, expr_hash(*slot)};
        ft_vec_push(c->ctx, c->out, u);
    }
}

/* Append to out the candidates in *slot and below it, outer ones first,
 * as uses in item `item` (guarded: a guard encloses *slot). */
static void collect(ft_ctx *ctx, ast_expr **slot, int item, int guarded, ft_vec *out)
{
    cse_acc c = {ctx, item, out};
    xf_auto_each_slot(slot, guarded, collect_one, &c);
}

/* The field holding the value of a Store or Reduce item; NULL for others. */
static ast_expr **value_slot(ast_stmt *s)
{
    if (s->kind == AST_STORE)
        return &s->u.store.value;
    if (s->kind == AST_REDUCE)
        return &s->u.red.value;
    return NULL;
}

/* The last item of items (from `first` on) where E, reading the tensors
 * `reads`, still has the value it has at item first: the scan ends before
 * an item that redeclares one of them, or at one that writes one. */
static int last_valid(const ft_vec *items, int first, const ft_vec *reads)
{
    for (int j = first; j < items->len; j++) {
        const ast_stmt *s = items->items[j];
        if (j > first && s->kind == AST_VARDEF && xf_has_name(reads, s->u.def.name))
            return j - 1;
        if (xf_item_writes_any(s, reads))
            return j;
    }
    return items->len - 1;
}

/* The expression's text for the log, shortened to TEXT_MAX characters. */
static const char *short_text(ft_ctx *ctx, const ast_expr *e)
{
    char *t = ast_expr_text(ctx, e);
    if (strlen(t) > TEXT_MAX)
        strcpy(t + TEXT_MAX - 3, "...");
    return t;
}

/* Compute use p's expression once in a new 0-D local, before its item,
 * and read that local at p and at the uses `same` (see the file comment). */
static void apply(xf_auto *a, ast_stmt *item, const cse_use *p, const ft_vec *same)
{
    ft_ctx *ctx = a->ctx;
    ast_expr *e = *p->slot;
    const char *name = xf_free_name(ctx, a->f, "cse");
    xf_auto_log(a, PASS, xf_auto_name(a, item), "`%s` computed once in %s for %d uses",
                short_text(ctx, e), name, same->len + 1);
    *p->slot = ast_load(ctx, e->loc, name, e->dtype, 0, NULL);
    for (int i = 0; i < same->len; i++) {
        cse_use *q = same->items[i];
        *q->slot = ast_load(ctx, e->loc, name, e->dtype, 0, NULL);
    }
    ast_stmt *moved = ft_alloc(ctx, sizeof *moved);
    *moved = *item;
    ast_stmt *seq[2] = {ast_store(ctx, item->loc, name, 0, NULL, e), moved};
    ast_stmt *def = ast_vardef(ctx, item->loc, name, e->dtype, 0, NULL, FT_ACC_CACHE, FT_MT_CPU,
                               ast_seq(ctx, item->loc, 2, seq));
    *item = *def;
}

/* Try use p (the first use of its expression) against the later uses of
 * uses; whether its expression was computed once. */
static int try_use(xf_auto *a, an_bounds *b, ft_vec *items, ft_vec *uses, int pi)
{
    cse_use *p = uses->items[pi];
    ast_expr *e = *p->slot;
    ast_stmt *item = items->items[p->item];
    if (p->guarded) {
        ft_vec plain = {0};
        xf_auto_plain_loads(a->ctx, *value_slot(item), 0, &plain);
        if (!xf_auto_speculable(a, b, item, e, &plain))
            return 0;
    }
    ft_vec reads = {0}, same = {0};
    xf_expr_loaded(a->ctx, e, &reads);
    int last = last_valid(items, p->item, &reads);
    for (int i = pi + 1; i < uses->len; i++) {
        cse_use *q = uses->items[i];
        if (q->item > last)
            break;
        if (q->hash == p->hash && ast_expr_equal(*q->slot, e))
            ft_vec_push(a->ctx, &same, q);
    }
    if (same.len == 0)
        return 0;
    apply(a, item, p, &same);
    return 1;
}

/* Compute one repeated costly expression of body (or of a body nested in
 * it) once, b the environment at body; whether one was. */
static int cse_body(xf_auto *a, an_bounds *b, ast_stmt *body)
{
    if (!body)
        return 0;
    ft_vec items = {0}, uses = {0};
    xf_scope_list(a->ctx, body, &items);
    for (int i = 0; i < items.len; i++) {
        ast_expr **v = value_slot(items.items[i]);
        if (v)
            collect(a->ctx, v, i, 0, &uses);
    }
    for (int i = 0; i < uses.len; i++)
        if (try_use(a, b, &items, &uses, i))
            return 1;
    for (int i = 0; i < items.len; i++)
        if (xf_auto_nested_bodies(a, b, items.items[i], 0, cse_body))
            return 1;
    return 0;
}

/* The pass (see the file comment); the number of expressions computed
 * once. */
int xf_auto_cse(xf_auto *a)
{
    int n = 0;
    while (n < MAX_CSE && cse_body(a, an_bounds_new(a->ctx, a->f), a->f->body)) {
        a->f->body = xf_normalize(a->ctx, a->f->body);
        n++;
    }
    return n;
}
