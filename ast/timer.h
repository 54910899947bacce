/* timer.h - `--time-passes`: CPU time per compiler pass.
 *
 * The driver and the auto-scheduler mark the end of each pass with
 * ft_time_mark; the marks add up per name in the context (arena memory),
 * and ft_time_report prints them in the order they first ran.  With the
 * option off the marks cost one clock read and record nothing.
 */
#ifndef FT_TIMER_H
#define FT_TIMER_H

#include <stdio.h>

#include "ctx.h"

/* CPU seconds this process has used so far. */
double ft_cpu_seconds(void);
/* Add the CPU time since `since` (an earlier ft_cpu_seconds) to pass
 * `name` (a string that outlives ctx) when --time-passes is on; returns
 * the current ft_cpu_seconds, the start of the next pass. */
double ft_time_mark(ft_ctx *ctx, const char *name, double since);
/* Add seconds to pass `name` as they are (the C compiler's CPU and wall
 * time, measured by the backend). */
void ft_time_add(ft_ctx *ctx, const char *name, double seconds);
/* Print "ftc: time: NAME  S s" per pass, then ftc's own CPU time in all,
 * on out. */
void ft_time_report(const ft_ctx *ctx, FILE *out);

#endif
