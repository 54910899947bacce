/* compose.c - the combined gradient g built from the scheduled g_fwd and
 * g_bwd.
 *
 * g runs f's forward pass, saving into a local tape, then the backward
 * pass: its body is g_fwd's followed by g_bwd's.  grad.c builds it that
 * way (for --dump-after=grad and for a `schedule g:` block), but
 * auto-scheduling it as a function of its own repeats, on a body as large
 * as both, every dependence analysis the auto-scheduler runs on g_fwd and
 * g_bwd (the analyses are quadratic in the accesses: most of a gradient's
 * compile time).  So the driver empties g before the auto-scheduler
 * (ad_detach_combined) and rebuilds it afterwards from clones of the
 * scheduled g_fwd and g_bwd (ad_compose_combined): the same decisions,
 * taken once.  A g with a schedule block of its own keeps its body, and so
 * does g on the CUDA target.
 *
 * Requires: g's ad_fwd / ad_bwd set by grad.c, the tape's regions still
 * parameters of g_fwd (before ad_pack_tapes).  Provides: g's body =
 * VarDef region... { fwd; bwd } (the regions are locals of g), the locals
 * of the bwd copy renamed apart from the fwd copy's.
 */
#include "ad.h"

#include <string.h>

#include "../transforms/sched_util.h"
#include "../transforms/xf_util.h"
#include "../ast/target.h"

/* Whether f is a combined gradient the auto-scheduler should not see (not
 * on the CUDA target, where g's local tape must go through the GPU passes
 * as grad.c wrote it). */
static int detachable(ft_ctx *ctx, const ast_func *f, const ast_program *p)
{
    return f->ad_fwd && f->ad_bwd && (ctx->target->caps & FT_CAP_HOST) &&
           !ast_has_schedule(p, f->name);
}

void ad_detach_combined(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (detachable(ctx, p->funcs[i], p))
            p->funcs[i]->body = ast_seq(ctx, p->funcs[i]->loc, 0, NULL);
}

/* Rename the VarDefs of bwd whose names a VarDef of fwd also declares
 * (g declares both in one function): free names of g, derived from
 * NAME_b. */
static void rename_apart(ft_ctx *ctx, ast_func *g, ast_stmt *fwd, ast_stmt *bwd)
{
    ft_vec fd = {0}, bd = {0}, fnames = {0};
    xf_collect_vardefs(ctx, fwd, &fd);
    xf_collect_vardefs(ctx, bwd, &bd);
    for (int i = 0; i < fd.len; i++)
        ft_vec_push(ctx, &fnames, (void *)((ast_stmt *)fd.items[i])->u.def.name);
    for (int i = 0; i < bd.len; i++) {
        ast_stmt *d = bd.items[i];
        if (!xf_has_name(&fnames, d->u.def.name))
            continue;
        const char *to = xf_free_name(ctx, g, ft_fmt(ctx, "%s_b", d->u.def.name));
        xf_rename_tensor(ctx, d->u.def.body, d->u.def.name, to);
        d->u.def.name = to;
    }
}

/* g's body from its scheduled parts: { fwd; bwd } inside a VarDef for
 * each region of the tape (g_fwd's region parameters) they use. */
static ast_stmt *combined_body(ft_ctx *ctx, ast_func *g)
{
    const ast_func *fw = g->ad_fwd;
    ast_stmt **v = ft_alloc(ctx, sizeof *v * 2);
    v[0] = ast_clone_stmt(ctx, fw->body, AST_CLONE_NEW);
    v[1] = ast_clone_stmt(ctx, g->ad_bwd->body, AST_CLONE_NEW);
    g->body = ast_seq(ctx, g->loc, 2, v);     /* so that xf_free_name sees both */
    rename_apart(ctx, g, v[0], v[1]);
    ft_vec used = {0};
    xf_stmt_loaded(ctx, g->body, &used);
    xf_stmt_written(ctx, g->body, &used);
    return ad_region_locals(ctx, fw, g->body, &used);
}

ast_stmt *ad_region_locals(ft_ctx *ctx, const ast_func *fw, ast_stmt *body, const ft_vec *used)
{
    for (int i = 0; i < fw->nparams; i++) {
        const ast_param *r = &fw->params[i];
        if (!r->region_at || (used && !xf_has_name(used, r->name)))
            continue;
        ast_expr **sh = ft_alloc(ctx, sizeof *sh * (size_t)(r->ndim + 1));
        for (int k = 0; k < r->ndim; k++)
            sh[k] = ast_clone_expr(ctx, r->shape[k]);
        body = ast_vardef(ctx, fw->loc, r->name, r->dtype, r->ndim, sh, FT_ACC_CACHE,
                          FT_MT_CPU, body);
    }
    return body;
}

void ad_compose_combined(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (detachable(ctx, p->funcs[i], p)) {
            p->funcs[i]->body = combined_body(ctx, p->funcs[i]);
            p->funcs[i]->ad_composed = 1;
        }
}
