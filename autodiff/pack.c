/* pack.c - ad_pack_tapes: the regions of a gradient's tape out of the
 * parameters.
 *
 * grad.c gives every saved local and every overwritten value of g_fwd and
 * g_bwd a region of the tape that is a tensor parameter of its own, shaped
 * [trip counts of the loops around it..., the local's shape...] and
 * indexed by the loops' iteration numbers: its accesses are affine, so
 * isl sees the versions that different iterations write apart, and the
 * schedules and the auto-scheduler parallelize and fuse the forward loops
 * that save them.  (One flat tape indexed `off + (i * w + j) * n + f` is
 * not affine when a trip count is a size: isl then finds a write-after-
 * write dependence between any two iterations.)  The C ABI has one tape:
 * after the schedules, the region parameters move to the function's
 * regions, which the backends declare as pointers into the tape, at
 * their offsets (so bounds checks stay per region and per dimension).
 *
 * Requires: the scheduled program (no analysis runs after).  Provides:
 * every function's params as in the C ABI of language.md; its regions in
 * f->regions.
 */
#include "ad.h"

/* Move the region parameters of f to f->regions. */
static void pack_func(ft_ctx *ctx, ast_func *f)
{
    int n = 0, nr = 0;
    ast_param *regs = ft_alloc(ctx, sizeof *regs * (size_t)f->nparams);
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i].region_at)
            regs[nr++] = f->params[i];
        else
            f->params[n++] = f->params[i];
    }
    f->nparams = n;
    f->nregions = nr;
    f->regions = regs;
}

void ad_pack_tapes(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (f->nparams && f->params[f->nparams - 1].opaque)
            pack_func(ctx, f);
    }
}
