/* timer.c - per-pass CPU times for --time-passes (timer.h). */
#include "timer.h"

#include <string.h>
#include <time.h>

/* The time of one pass name, summed over its runs. */
typedef struct ft_timing {
    const char *name;
    double seconds;
    int runs;
} ft_timing;

double ft_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ft_time_add(ft_ctx *ctx, const char *name, double seconds)
{
    if (!ctx->opts.time_passes)
        return;
    for (int i = 0; i < ctx->timings.len; i++) {
        ft_timing *t = ctx->timings.items[i];
        if (strcmp(t->name, name) == 0) {
            t->seconds += seconds;
            t->runs++;
            return;
        }
    }
    ft_timing *t = ft_alloc(ctx, sizeof *t);
    *t = (ft_timing){name, seconds, 1};
    ft_vec_push(ctx, &ctx->timings, t);
}

double ft_time_mark(ft_ctx *ctx, const char *name, double since)
{
    double now = ft_cpu_seconds();
    ft_time_add(ctx, name, now - since);
    return now;
}

void ft_time_report(const ft_ctx *ctx, FILE *out)
{
    if (!ctx->opts.time_passes)
        return;
    for (int i = 0; i < ctx->timings.len; i++) {
        const ft_timing *t = ctx->timings.items[i];
        fprintf(out, "ftc: time: %-28s %8.4f s", t->name, t->seconds);
        if (t->runs > 1)
            fprintf(out, "  (%d runs)", t->runs);
        fputc('\n', out);
    }
    fprintf(out, "ftc: time: %-28s %8.4f s\n", "ftc in all (CPU, without cc)", ft_cpu_seconds());
}
