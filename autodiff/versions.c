/* versions.c - one local per value for scalars overwritten in straight-line
 * code, before a gradient is built.
 *
 * Requires: the lowered, normalized AST of f's working copy (flat
 * sequences, a VarDef last in its sequence).
 * Provides: for every 0-D float local t and every Store `t = v` that is an
 * item of t's scope list (no loop or branch between t's VarDef and it)
 * and that overwrites a value read before (an earlier item of the scope
 * list or v itself reads t), the Store and the items after it become
 *     VarDef t_hN { t_hN = v; the items after it, t renamed t_hN }
 * (v still reads t).  The program computes the same values: after the
 * Store, t's old value is dead, and t_hN holds what t would.
 *
 * Why: such a Store is a WAR sink for autodiff (grad.c), whose old value
 * is always saved on the tape, one element per instance, even when
 * recomputing it costs a few flops.  SoftRas's `t = min(max(t, 0), 1)`
 * made three of its four tape regions (3 x h x w x n_faces floats, 63 MB):
 * split, each value is a local of its own, and the cost model of
 * materialize.c decides between saving and recomputing it (it recomputes
 * them: the backward pass computes the same expressions anyway).
 */
#include "ad.h"

#include <string.h>

#include "../transforms/xf_util.h"

/* The VarDef holding items k + 1 .. of seq, t renamed: its body starts
 * with `t_hN = v` (v as the Store at item k had it). */
static ast_stmt *new_version(ft_ctx *ctx, const ast_func *f, const ast_stmt *def,
                             ast_stmt *seq, int k)
{
    const char *t = def->u.def.name;
    const char *tn = xf_fresh_name(ctx, f, t);
    ast_stmt *st = seq->u.seq.stmts[k];
    int n = seq->u.seq.n - k;
    ast_stmt **items = ft_alloc(ctx, sizeof *items * (size_t)n);
    for (int i = 1; i < n; i++) {
        items[i] = seq->u.seq.stmts[k + i];
        xf_rename_tensor(ctx, items[i], t, tn);
    }
    items[0] = ast_store(ctx, st->loc, tn, 0, NULL, st->u.store.value);
    items[0]->id = st->id;
    items[0]->label = st->label;
    ast_stmt *body = ast_seq(ctx, st->loc, n, items);
    return ast_vardef(ctx, st->loc, tn, def->u.def.dtype, 0, NULL, def->u.def.access,
                      def->u.def.mtype, body);
}

/* Split, in t's scope list starting at s, the first Store that overwrites
 * a value of t read before; read: whether an earlier item read t.
 * Returns whether it split one. */
static int split_first(ft_ctx *ctx, const ast_func *f, const ast_stmt *def, ast_stmt *s,
                       int *read)
{
    const char *t = def->u.def.name;
    while (s && s->kind == AST_VARDEF)
        s = s->u.def.body;
    if (!s || s->kind != AST_SEQ)
        return 0;
    for (int k = 0; k < s->u.seq.n; k++) {
        ast_stmt *it = s->u.seq.stmts[k];
        if (it->kind == AST_VARDEF)     /* last in its sequence */
            return split_first(ctx, f, def, it, read);
        if (it->kind == AST_STORE && !strcmp(it->u.store.var, t) && k + 1 < s->u.seq.n &&
            (*read || xf_expr_reads(it->u.store.value, t))) {
            s->u.seq.stmts[k] = new_version(ctx, f, def, s, k);
            s->u.seq.n = k + 1;
            return 1;
        }
        *read |= xf_reads(it, t);
    }
    return 0;
}

/* Split the overwrites of every 0-D float local under s, outer ones
 * first (a new version is itself a local, split further when visited). */
static void split_all(ft_ctx *ctx, const ast_func *f, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            split_all(ctx, f, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: {
        int read = 0;
        if (s->u.def.ndim == 0 && ft_dtype_is_float(s->u.def.dtype))
            split_first(ctx, f, s, s->u.def.body, &read);
        split_all(ctx, f, s->u.def.body);
        break;
    }
    case AST_FOR: split_all(ctx, f, s->u.loop.body); break;
    case AST_IF:
        split_all(ctx, f, s->u.branch.then);
        split_all(ctx, f, s->u.branch.other);
        break;
    default: break;
    }
}

void ad_split_versions(ft_ctx *ctx, ast_func *f)
{
    split_all(ctx, f, f->body);
}
