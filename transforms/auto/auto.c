/* auto.c - the auto-scheduler's driver: which functions, which passes.
 *
 * Requires: the AST after the user's schedules.
 * Provides: every function without a `schedule` block scheduled by the
 * passes of auto.h, in order: matrix products handed to BLAS first (any
 * other pass could reshape their nests), then fusion (it makes the loops the later
 * passes look at), scalar accumulators for reductions into one element
 * (they make those loops vectorizable), vectorization before parallelization (a reorder that
 * brings a contiguous loop innermost would move a parallel loop inwards),
 * per-thread copies right after parallelization (they replace atomics it
 * added), unrolling last (only the innermost short loops the others left
 * alone).
 */
#include "auto.h"

#include <string.h>

#include "auto_util.h"
#include "timer.h"

/* Whether a PT_SCHEDULE of file names function name. */
static int has_schedule(const pt_node *file, const char *name)
{
    for (int i = 0; i < file->nkids; i++)
        if (file->kids[i]->kind == PT_SCHEDULE && strcmp(file->kids[i]->name, name) == 0)
            return 1;
    return 0;
}

typedef int (*auto_pass)(xf_auto *a);

static const auto_pass passes[] = {
    xf_auto_use_lib,  xf_auto_fuse,      xf_auto_red_scalar, xf_auto_vectorize,
    xf_auto_parallelize, xf_auto_privatize, xf_auto_red_cache,
    xf_auto_jam,      xf_auto_gpu_bind,
    xf_auto_mem_type, xf_auto_unroll,    NULL};
/* Their names in the --time-passes report. */
static const char *const pass_names[] = {
    "auto: use_lib",  "auto: fuse",      "auto: vectorize", "auto: parallelize",
    "auto: red_cache",
    "auto: jam",      "auto: gpu_bind",
    "auto: mem_type", "auto: unroll",    NULL};

void xf_auto_schedule(ft_ctx *ctx, ast_program *p, const pt_node *file)
{
    an_deps_cache_begin(ctx);   /* the passes ask many questions of one version */
    for (int i = 0; i < p->nfuncs; i++) {
        xf_auto a = {ctx, p->funcs[i], {0}};
        if (has_schedule(file, a.f->name)) {
            xf_auto_log(&a, "auto", a.f->name, "skipped: the function has a schedule block");
            continue;
        }
        ctx->deps_budget = XF_AUTO_ANALYSES;
        double t = ft_cpu_seconds();
        for (int k = 0; passes[k]; k++) {
            passes[k](&a);
            xf_auto_label_flush(&a);
            t = ft_time_mark(ctx, pass_names[k], t);
        }
        ctx->deps_budget = -1;
    }
    an_deps_cache_end(ctx);
}
