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
#include "simplify.h"
#include "verify_par.h"
#include "deps.h"
#include "ad.h"
#include "timer.h"

const char *const ft_pass_names[] = {"lower", "simplify", "retarget", "prop_temps",
                                     "remove_copies", "shrink_vars", "hoist", "remove_dead",
                                     "grad", "schedule", "auto", "pack_tapes", NULL};

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

/* Print p after pass `name` when the user asked for that dump. */
static void maybe_dump(const char *name, const char *dump_after, FILE *out,
                       const ast_program *p)
{
    if (dump_after && strcmp(dump_after, name) == 0)
        ast_print_program(out, p);
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

ast_program *ft_compile_scheduled(ft_ctx *ctx, const ft_source *src, const ft_source *sched,
                                  const char *dump_after, FILE *dump_out)
{
    /* lang/: tokens (re2c) and the parse tree (Lemon).  Leaves: a PT_FILE,
     * with the blocks of a --schedule file appended. */
    double t = ft_cpu_seconds();
    pt_node *file = ft_parse(ctx, src);
    if (file && sched && !append_schedules(ctx, file, sched))
        return NULL;
    t = ft_time_mark(ctx, "parse", t);
    const pt_node **libs = file ? parse_stdlib(ctx) : NULL;
    if (!libs)
        return NULL;
    t = ft_time_mark(ctx, "parse stdlib", t);

    /* frontend/lower.c: names, types, shapes, constants, tensor-level code,
     * inlining of calls (the stdlib's too) and partial evaluation.  Leaves:
     * the AST of every exported function, element-level, fully indexed,
     * unique local names. */
    ast_program *p = fe_lower(ctx, file, ft_stdlib_count, libs);
    if (!p)
        return NULL;
    /* transforms/sched_names.c: needs the lowered AST and the schedule
     * blocks.  Leaves: the loops and locals they name marked, so that the
     * cleanups below keep them as written. */
    xf_name_schedule_targets(ctx, p, file);
    maybe_dump("lower", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "lower", t);
    /* autodiff/promote.c, --promote-f64 only (gradcheck): needs the AST.
     * Leaves: every f32 tensor and value f64. */
    if (ctx->opts.promote_f64)
        ad_promote_f64(ctx, p);

    /* transforms/simplify.c: needs the AST.  Leaves: constants folded,
     * comparisons, `//`, `%`, min/max decided under the loop ranges and
     * conditions, decided ifs and asserts removed (labels kept). */
    xf_simplify(ctx, p);
    maybe_dump("simplify", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "simplify", t);

    /* transforms/ cleanup passes (cleanup.h): they never fail, keep the
     * program's results and errors, and leave flat sequences with each
     * VarDef last in its sequence.  Before the schedules, so that a local
     * shrunk into a loop is private to it when the loop is parallelized. */
    /* retarget.c: needs the AST.  Leaves: locals that ended in a copy-out
     * to a visible tensor computed there directly (copy and VarDef gone). */
    xf_retarget(ctx, p);
    maybe_dump("retarget", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "retarget", t);
    /* prop_temps.c: needs the AST.  Leaves: single-use locals substituted
     * (their Store dropped, their VarDef left for remove_dead). */
    xf_propagate_temps(ctx, p);
    maybe_dump("prop_temps", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "prop_temps", t);
    /* remove_copies.c: needs the AST.  Leaves: reads of plain copies read
     * the source (the copy dropped, its VarDef left for remove_dead). */
    xf_remove_copies(ctx, p);
    maybe_dump("remove_copies", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "remove_copies", t);
    /* shrink_vars.c: needs the AST.  Leaves: locals declared in the
     * innermost loop holding their accesses, per-iteration dimensions
     * dropped, constant windows instead of whole dimensions. */
    xf_shrink_vars(ctx, p);
    maybe_dump("shrink_vars", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "shrink_vars", t);
    /* hoist.c: needs the AST.  Leaves: loop-invariant locals computed
     * before their loop. */
    xf_hoist_invariants(ctx, p);
    maybe_dump("hoist", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "hoist", t);
    /* remove_dead.c: needs the AST.  Leaves: no unread stores to locals, no
     * unused locals, no empty loops or branches. */
    xf_remove_dead(ctx, p);
    maybe_dump("remove_dead", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "remove_dead", t);

    /* autodiff/grad.c: the `grad` declarations.  Needs: the cleaned AST.
     * Leaves: g_fwd, g_bwd and g appended as exported functions (scheduled
     * like any other by the passes after), g_tape_bytes as a size function. */
    if (ad_grad_program(ctx, p, file))
        return NULL;
    maybe_dump("grad", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "grad", t);

    /* transforms/schedule.c: the user's `schedule` blocks.  Needs: the AST.
     * Leaves: parallel loops marked, colliding reductions marked atomic
     * (with the verifier on, each line leaves every parallel loop proved
     * race-free, or is refused). */
    if (xf_apply_schedules(ctx, p, file))
        return NULL;
    maybe_dump("schedule", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "schedule", t);

    /* transforms/sched_parallelize.c, CUDA target only: needs the
     * scheduled AST.  Leaves: in functions with no openmp, block or thread
     * loop, the outermost parallel loops marked openmp (grid-stride kernels
     * in backend/cg_cuda.c), colliding reductions atomic. */
    if (ctx->opts.target_cuda) {
        xf_gpu_default(ctx, p);
        t = ft_time_mark(ctx, "gpu_default", t);
        if (ctx->opts.verify == FT_VERIFY_PASSES && xf_verify_program(ctx, p, "gpu_default"))
            return NULL;
    }

    /* transforms/auto/: the auto-scheduler (auto.h), on the functions
     * without a schedule block; --no-auto skips it.  Needs: the AST.
     * Leaves: loops fused, vectorized, parallelized, unrolled where legal
     * (each decision on stderr with -v). */
    an_deps_cache_begin(ctx);   /* for auto's passes and the verifier (deps.h) */
    if (!ctx->opts.no_auto) {
        /* autodiff/compose.c: a combined gradient g is not auto-scheduled
         * itself but rebuilt from its scheduled g_fwd and g_bwd. */
        ad_detach_combined(ctx, p, file);
        if (xf_auto_schedule(ctx, p, file)) {
            an_deps_cache_end(ctx);
            return NULL;        /* --verify=passes found a race */
        }
        ad_compose_combined(ctx, p, file);
    }
    maybe_dump("auto", dump_after, dump_out, p);
    t = ft_time_mark(ctx, "auto (all)", t);
    /* transforms/verify_par.c (--verify; on by default in a build with
     * assertions): needs the scheduled AST.  Leaves it as it was, or an
     * internal error at each parallel loop not proved race-free. */
    int races = ctx->opts.verify != FT_VERIFY_OFF &&
                xf_verify_program(ctx, p, ctx->opts.no_auto ? "schedule"
                                  : "scheduling (--verify-passes names the pass)");
    an_deps_cache_end(ctx);
    if (races)
        return NULL;
    t = ft_time_mark(ctx, "verify", t);

    /* autodiff/pack.c: needs the scheduled AST.  Leaves: the regions of
     * each gradient's tape (tensor parameters of their own for the
     * analyses) moved out of its parameters, which are then the C ABI's:
     * the backends declare them as pointers into the tape. */
    ad_pack_tapes(ctx, p);
    maybe_dump("pack_tapes", dump_after, dump_out, p);
    ft_time_mark(ctx, "pack_tapes", t);
    return p;
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
