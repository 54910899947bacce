/* auto_mem_type.c - keep small temporaries on the stack.
 *
 * Requires: f's AST.
 * Provides: a local tensor whose shape is not constant but bounded by
 * constants (`var t: f32[hi - lo]` with 0 <= hi - lo <= 65 under the loop
 * ranges and conditions in scope, analysis/bounds.h) declared with those
 * constant bounds when they take at most STACK_BYTES, so that the C backend
 * puts it on the stack instead of a heap buffer.
 *
 * What the C backend already does (backend/cg_c.c) is left to it: 0-D
 * locals are C scalars (registers), and locals of constant size up to 4096
 * bytes are stack arrays.  Only the size changes: every element the program
 * touches keeps its index (the accesses stay inside the old shape), so
 * locals with a data-dependent index, whose bounds check uses the shape,
 * are left alone.
 */
#include "auto_util.h"

#include "../../analysis/bounds.h"
#include "../xf_util.h"

enum { STACK_BYTES = 4096 };   /* cg_vardef_storage's limit */

static const char *const PASS = "auto_mem_type";

static int64_t dtype_bytes(ft_dtype t)
{
    static const int64_t sizes[FT_DTYPE_COUNT] = {1, 4, 8, 2, 4, 8};
    return sizes[t];
}

/* Whether an access of def's local has a data-dependent index. */
static int checked_access(ft_ctx *ctx, ast_stmt *def)
{
    ft_vec acc = {0};
    xf_collect_accesses(ctx, def->u.def.body, def->u.def.name, &acc);
    for (int i = 0; i < acc.len; i++) {
        xf_access *x = acc.items[i];
        for (int k = 0; k < *x->n; k++)
            if (xf_expr_checked((*x->idx)[k]))
                return 1;
    }
    return 0;
}

/* Decide one local tensor (ndim >= 1) under the environment b. */
static void decide(xf_auto *a, an_bounds *b, ast_stmt *def)
{
    const char *name = def->u.def.name;
    int nd = def->u.def.ndim, constant = 1;
    int64_t bytes = dtype_bytes(def->u.def.dtype);
    int64_t *hi = ft_alloc(a->ctx, sizeof(int64_t) * (size_t)nd);
    for (int k = 0; k < nd; k++) {
        const ast_expr *d = def->u.def.shape[k];
        an_range r = d->kind == AST_INT ? (an_range){1, 1, d->u.ival, d->u.ival}
                                        : an_range_of(b, d);
        constant &= d->kind == AST_INT;
        if (!r.has_lo || !r.has_hi || r.lo < 0 || r.hi > STACK_BYTES) {
            xf_auto_log(a, PASS, name, "on the heap: dimension %d (%s) has no small "
                        "constant bound", k, ast_expr_text(a->ctx, d));
            return;
        }
        hi[k] = r.hi;
        bytes *= r.hi > 0 ? r.hi : 1;
        if (bytes > STACK_BYTES) {
            xf_auto_log(a, PASS, name, "on the heap: more than %d bytes", STACK_BYTES);
            return;
        }
    }
    if (constant) {
        xf_auto_log(a, PASS, name, "on the stack already (%lld bytes)", (long long)bytes);
        return;
    }
    if (checked_access(a->ctx, def)) {
        xf_auto_log(a, PASS, name, "on the heap: a data-dependent index is checked "
                    "against its shape");
        return;
    }
    for (int k = 0; k < nd; k++)
        def->u.def.shape[k] = ast_int(a->ctx, def->loc, hi[k]);
    xf_auto_log(a, PASS, name, "on the stack: its shape bounded by constants (%lld bytes)",
                (long long)bytes);
}

/* Walk s with the loop ranges and conditions in scope pushed on b. */
static void walk(xf_auto *a, an_bounds *b, ast_stmt *s)
{
    if (!s)
        return;
    int mark = an_bounds_mark(b);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            walk(a, b, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        if (s->u.def.ndim > 0 && s->u.def.access == FT_ACC_CACHE && s->u.def.mtype == FT_MT_CPU)
            decide(a, b, s);
        walk(a, b, s->u.def.body);
        break;
    case AST_FOR:
        an_bounds_push_loop(b, s);
        walk(a, b, s->u.loop.body);
        break;
    case AST_IF:
        an_bounds_push_cond(b, s->u.branch.cond, 1);
        walk(a, b, s->u.branch.then);
        an_bounds_pop(b, mark);
        an_bounds_push_cond(b, s->u.branch.cond, 0);
        walk(a, b, s->u.branch.other);
        break;
    default: break;
    }
    an_bounds_pop(b, mark);
}

int xf_auto_mem_type(xf_auto *a)
{
    an_bounds *b = an_bounds_new(a->ctx, a->f);
    walk(a, b, a->f->body);
    return 0;
}
