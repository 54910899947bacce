/* driver.c - the compiler's passes, in order.
 *
 * This is the one place that lists what runs and in which order; each pass
 * says what it needs and what it leaves.  A newcomer reads the compiler
 * from here.
 */
#include "driver.h"

#include <string.h>

#include "auto/auto.h"
#include "cleanup.h"
#include "lower.h"
#include "schedule.h"
#include "verify_par.h"
#include "deps.h"
#include "ad.h"
#include "target.h"
#include "timer.h"

/* The stdlib (stdlib/NAME.ft), embedded at build time by stdlib/embed.py. */
extern const int ft_stdlib_count;
extern const char *const ft_stdlib_names[];
extern const char *const ft_stdlib_texts[];

/* Parse the standard library; NULL (after errors) if it does not parse. */
static const pt_node **parse_stdlib(ft_ctx *ctx)
{
    const pt_node **libs = ft_alloc(ctx, sizeof *libs * (size_t)(ft_stdlib_count + 1));
    for (int i = 0; i < ft_stdlib_count; i++) {
        ft_source *src = ft_source_from_string(ctx, ft_stdlib_names[i], ft_stdlib_texts[i]);
        if (!(libs[i] = ft_parse(ctx, src)))
            return NULL;
    }
    return libs;
}

ast_program *ft_compile(ft_ctx *ctx, const ft_source *src, const char *dump_after,
                        FILE *dump_out)
{
    return ft_compile_scheduled(ctx, src, NULL, dump_after, dump_out);
}

/* Append the `schedule` blocks of the file sched to file (`--schedule`);
 * 0 after an error (anything else in sched). */
static int append_schedules(ft_ctx *ctx, pt_node *file, const ft_source *sched)
{
    pt_node *more = ft_parse(ctx, sched);
    if (!more)
        return 0;
    for (int i = 0; i < more->nkids; i++) {
        pt_node *k = more->kids[i];
        if (k->kind != PT_SCHEDULE) {
            ft_error(ctx, k->loc, "a schedule file (--schedule) holds only `schedule f:` "
                     "blocks");
            return 0;
        }
        pt_add(ctx, file, k);
    }
    return 1;
}

/* What the passes work on: the parse trees of the program and the stdlib
 * (read by lowering only) and the program once lowered. */
typedef struct ft_unit {
    pt_node *file;
    const pt_node **libs;
    ast_program *p;
} ft_unit;

/* frontend/lower.c: names, types, shapes, constants, tensor-level code,
 * inlining of calls (the stdlib's too) and partial evaluation, the
 * `schedule` blocks and `grad` lines as AST (lower_decls.c); then
 * transforms/sched_names.c marks the loops and locals the schedule blocks
 * name, so that the cleanups keep them as written.  Leaves: the AST of
 * every exported function, element-level, fully indexed, unique local
 * names. */
static int run_lower(ft_ctx *ctx, ft_unit *u)
{
    if (!(u->p = fe_lower(ctx, u->file, ft_stdlib_count, u->libs)))
        return 1;
    xf_name_schedule_targets(ctx, u->p);
    return 0;
}

/* transforms/layout.c: `layout "L->P"` clauses.  Leaves: each laid-out
 * parameter and local stored physically (a parameter's logical shape in
 * lshape, for the ABI), accesses rewritten, loops over a blocked
 * dimension split by its block, pad elements of an `out` written 0. */
static int run_layout(ft_ctx *ctx, ft_unit *u)
{
    return xf_apply_layouts(ctx, u->p);
}

/* autodiff/promote.c, --promote-f64 only (gradcheck).  Leaves: every f32
 * tensor and value f64. */
static int run_promote_f64(ft_ctx *ctx, ft_unit *u)
{
    if (ctx->opts.promote_f64)
        ad_promote_f64(ctx, u->p);
    return 0;
}

/* autodiff/grad.c: the `grad` declarations.  Needs: the cleaned AST.
 * Leaves: g_fwd, g_bwd and g appended as exported functions (scheduled
 * like any other by the passes after), g_tape_bytes as a size function. */
static int run_grad(ft_ctx *ctx, ft_unit *u)
{
    return ad_grad_program(ctx, u->p);
}

/* autodiff/gather.c.  Leaves: in each gradient's g_bwd and g, the nests
 * that reduce into several tensors split per tensor, and scattered
 * reductions (a convolution's d_x) indexed by their own dimensions. */
static int run_grad_gather(ft_ctx *ctx, ft_unit *u)
{
    ad_gather_program(ctx, u->p);
    return 0;
}

/* transforms/schedule.c: the user's `schedule` blocks.  Leaves: parallel
 * loops marked, colliding reductions marked atomic (with the verifier on,
 * each line leaves every parallel loop proved race-free, or is refused).
 * Opens the dependence cache (deps.h) that run_verify closes: its memo of
 * isl results serves the lines, the auto-scheduler and the verifier. */
static int run_schedule(ft_ctx *ctx, ft_unit *u)
{
    an_deps_cache_begin(ctx);
    return xf_apply_schedules(ctx, u->p);
}

/* transforms/sched_parallelize.c, GPU targets only.  Leaves: in functions
 * with no openmp, block or thread loop, the outermost parallel loops
 * marked openmp (grid-stride kernels in backend/cg_cuda.c), colliding
 * reductions atomic. */
static int run_gpu_default(ft_ctx *ctx, ft_unit *u)
{
    xf_gpu_default(ctx, u->p);
    return ctx->opts.verify == FT_VERIFY_PASSES && xf_verify_program(ctx, u->p, "gpu_default");
}

/* transforms/auto/: the auto-scheduler (auto.h) on the functions without
 * a schedule block, unless --no-auto; a combined gradient g is not
 * scheduled itself but rebuilt from its scheduled g_fwd and g_bwd
 * (autodiff/compose.c).  Leaves: loops fused, vectorized, parallelized,
 * unrolled where legal (each decision on stderr with -v). */
static int run_auto(ft_ctx *ctx, ft_unit *u)
{
    if (ctx->opts.no_auto)
        return 0;
    ad_detach_combined(ctx, u->p);
    if (xf_auto_schedule(ctx, u->p))
        return 1;               /* --verify=passes found a race */
    ad_compose_combined(ctx, u->p);
    return 0;
}

/* transforms/verify_par.c (--verify; on by default in a build with
 * assertions).  Leaves the AST as it was, or an internal error at each
 * parallel loop not proved race-free. */
static int run_verify(ft_ctx *ctx, ft_unit *u)
{
    int races = ctx->opts.verify != FT_VERIFY_OFF &&
                xf_verify_program(ctx, u->p, ctx->opts.no_auto ? "schedule"
                                  : "scheduling (--verify-passes names the pass)");
    an_deps_cache_end(ctx);
    return races;
}

/* autodiff/pack.c.  Leaves: the regions of each gradient's tape (tensor
 * parameters of their own for the analyses) moved out of its parameters,
 * which are then the C ABI's: the backends declare them as pointers into
 * the tape. */
static int run_pack_tapes(ft_ctx *ctx, ft_unit *u)
{
    ad_pack_tapes(ctx, u->p);
    return 0;
}

/* One row of the pass table: a pass that can fail (run), or the cleanup
 * steps (steps, each dumped and timed as a pass of its own). */
typedef struct ft_pass {
    const char *name;                       /* --dump-after, --time-passes */
    int (*run)(ft_ctx *ctx, ft_unit *u);    /* nonzero: errors reported, stop */
    const xf_step *steps;
    unsigned needs;                         /* FT_CAP_* the target must have */
} ft_pass;

/* The compiler's passes after parsing, in order.  The cleanups come before
 * the schedules, so that a local shrunk into a loop is private to it when
 * the loop is parallelized, and before the gradients, which are built
 * from the cleaned functions. */
static const ft_pass ft_passes[] = {
    {"lower", run_lower, NULL, 0},
    {"layout", run_layout, NULL, 0},
    {"promote_f64", run_promote_f64, NULL, 0},
    {"cleanup", NULL, xf_cleanup_steps, 0},    /* transforms/cleanup.c */
    {"grad", run_grad, NULL, 0},
    {"grad_gather", run_grad_gather, NULL, 0},
    {"schedule", run_schedule, NULL, 0},
    {"gpu_default", run_gpu_default, NULL, FT_CAP_GPU},
    {"auto", run_auto, NULL, 0},
    {"verify", run_verify, NULL, 0},
    {"pack_tapes", run_pack_tapes, NULL, 0},
    {NULL, NULL, NULL, 0},
};

const char *ft_pass_name(int i)
{
    for (const ft_pass *r = ft_passes; r->name; r++) {
        int n = 0;
        while (r->steps && r->steps[n].name)
            n++;
        if (i < (n ? n : 1))
            return n ? r->steps[i].name : r->name;
        i -= n ? n : 1;
    }
    return NULL;
}

/* After the pass name (ran: it ran, else the target skipped it): its
 * time, and the program printed when the user asked for that dump. */
static void pass_done(ft_ctx *ctx, const char *name, int ran, const ft_unit *u, double *t,
                      const char *dump_after, FILE *dump_out)
{
    if (ran)
        *t = ft_time_mark(ctx, name, *t);
    if (dump_after && strcmp(dump_after, name) == 0)
        ast_print_program(dump_out, u->p);
}

/* The pipeline of ft_compile_scheduled, stopped after the pass named last
 * (NULL: every pass). */
static ast_program *run_passes(ft_ctx *ctx, const ft_source *src, const ft_source *sched,
                                  const char *dump_after, FILE *dump_out, const char *last)
{
    /* lang/: tokens (re2c) and the parse tree (Lemon), with the blocks of
     * a --schedule file appended; then the stdlib's */
    double t = ft_cpu_seconds();
    ft_unit u = {ft_parse(ctx, src), NULL, NULL};
    if (u.file && sched && !append_schedules(ctx, u.file, sched))
        return NULL;
    t = ft_time_mark(ctx, "parse", t);
    if (!u.file || !(u.libs = parse_stdlib(ctx)))
        return NULL;
    t = ft_time_mark(ctx, "parse stdlib", t);
    for (const ft_pass *r = ft_passes; r->name; r++) {
        int ran = (ctx->target->caps & r->needs) == r->needs;
        if (ran && r->run && r->run(ctx, &u))
            return NULL;
        for (const xf_step *s = r->steps; s && s->name; s++) {
            if (ran)
                s->run(ctx, u.p);
            pass_done(ctx, s->name, ran, &u, &t, dump_after, dump_out);
            if (last && !strcmp(s->name, last))
                return u.p;
        }
        if (r->run)
            pass_done(ctx, r->name, ran, &u, &t, dump_after, dump_out);
        if (last && !strcmp(r->name, last))
            return u.p;
    }
    return u.p;
}

/* run_passes, and the dependence cache closed however it ends (a pass
 * that failed, a stop before verify). */
static ast_program *compile_until(ft_ctx *ctx, const ft_source *src, const ft_source *sched,
                                  const char *dump_after, FILE *dump_out, const char *last)
{
    ast_program *p = run_passes(ctx, src, sched, dump_after, dump_out, last);
    an_deps_cache_end(ctx);
    return p;
}

ast_program *ft_compile_scheduled(ft_ctx *ctx, const ft_source *src, const ft_source *sched,
                                  const char *dump_after, FILE *dump_out)
{
    return compile_until(ctx, src, sched, dump_after, dump_out, NULL);
}

ast_program *ft_compile_unscheduled(ft_ctx *ctx, const ft_source *src)
{
    int i = 1;
    while (ft_passes[i].name && strcmp(ft_passes[i].name, "schedule"))
        i++;
    return compile_until(ctx, src, NULL, NULL, NULL, ft_passes[i - 1].name);
}

/* --emit=deps: the dependences of every function (analysis/deps.c). */
int ft_emit_deps(ft_ctx *ctx, const ast_program *p, FILE *out)
{
    for (int i = 0; i < p->nfuncs; i++) {
        an_deps *d = an_func_deps(ctx, p->funcs[i]);
        if (!d)
            return 1;
        an_print_func_deps(out, d);
        an_deps_free(d);
    }
    return 0;
}
