/* analysis.c - time the dependence analysis (analysis/deps.c).
 *
 *     bench_analysis [PROG.ft]...   (default: examples/subdivnet.ft and
 *                                    bench/longformer_elem.ft, found through
 *                                    $FTC_SOURCE_ROOT or the current folder)
 *
 * Compiles each program once, then runs the whole analysis of every
 * function (access relations, RAW/WAR/WAW, reduction pairs, and the
 * parallel query on every loop) RUNS times in a fresh isl context each, and
 * prints the minimum and the median in milliseconds.  A measurement, not a
 * test: nothing is asserted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deps.h"
#include "driver.h"
#include "bench_time.h"

enum { RUNS = 21 };

/* One full analysis of every function of p in ctx; returns 0 on success. */
static int analyse(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        an_deps *d = an_func_deps(ctx, p->funcs[i]);
        if (!d)
            return 1;
        for (int s = 0; s < d->acc->nstmts; s++)
            if (d->acc->stmts[s]->stmt && d->acc->stmts[s]->stmt->kind == AST_FOR)
                an_loop_parallel(d, d->acc->stmts[s]->stmt, NULL);
        an_deps_free(d);
    }
    return 0;
}

/* Time the analysis of one program; prints one line. */
static int bench(const char *path)
{
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        ft_ctx *ctx = ft_ctx_new();
        ft_source *src = ft_source_read(ctx, path);
        ast_program *p = src ? ft_compile(ctx, src, NULL, NULL) : NULL;
        if (!p) {
            ft_ctx_free(ctx);
            return 1;
        }
        double t0 = bench_now_ms();
        int bad = analyse(ctx, p);
        t[r] = bench_now_ms() - t0;
        ft_ctx_free(ctx);
        if (bad)
            return 1;
    }
    qsort(t, RUNS, sizeof t[0], bench_cmp_double);
    printf("%-40s min %.2f ms  median %.2f ms  (%d runs)\n", path, t[0], t[RUNS / 2], RUNS);
    return 0;
}

int main(int argc, char **argv)
{
    const char *root = getenv("FTC_SOURCE_ROOT");
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s%sexamples/subdivnet.ft", root ? root : "", root ? "/" : "");
    snprintf(b, sizeof b, "%s%sbench/longformer_elem.ft", root ? root : "", root ? "/" : "");
    const char *defaults[] = {a, b};
    int n = argc > 1 ? argc - 1 : 2;
    const char **paths = argc > 1 ? (const char **)argv + 1 : defaults;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= bench(paths[i]);
    return bad;
}
