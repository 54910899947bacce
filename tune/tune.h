/* tune.h - `ftc tune`: a measured search of schedules (tune/).
 *
 *   tune.c     the command: functions, sizes, the log (resume), the budget,
 *              Ctrl-C, progress, the schedule file written
 *   knobs.c    the candidates of a function, from its loop nests' accesses
 *   measure.c  the measuring runtime: many candidates per C compiler call,
 *              each checked against the untuned function, timed in
 *              alternating rounds
 */
#ifndef FT_TUNE_H
#define FT_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "../ast/ast.h"
#include "measure.h"

/* Which knobs the candidates may turn (--no-layout, --no-propagate: ALT's
 * ablations). */
typedef struct tn_knob_opts {
    int layout;                /* layouts of the tasks' tensors */
    int propagate;             /* a local's layout carried to its neighbours */
} tn_knob_opts;

/* One candidate block (tn_candidates) and the task nest it tunes: 1, 2,
 * ... (0: the untuned function, or several nests). */
typedef struct tn_block {
    const char *sched;
    int nest;
} tn_block;

/* What `ftc tune` was asked. */
typedef struct tn_opts {
    const char *path;          /* PROG.ft */
    int nfuncs;                /* FUNC... given (0: every exported function
                                * without a schedule block) */
    char *const *funcs;
    const char *out;           /* -o PROG.fts */
    const char *log;           /* --log (NULL: OUT with .tunelog for .fts) */
    double budget_s;           /* --budget, seconds (0: none) */
    uint64_t seed;             /* --seed: the inputs' random data */
    int nsizes;                /* --size NAME=N: the sizes of the calls */
    const char *const *sizes;
    const char *version;       /* ftc's, in each log record */
    const char *cflags;        /* in each log record (NULL: the default) */
    int verbose;               /* -v: every candidate and its result on progress */
    tn_knob_opts knobs;        /* --no-layout, --no-propagate */
    tn_setup setup;            /* the command line's options on a ctx */
} tn_opts;

/* Tune: for each function, measure its candidates (those the log holds
 * for the same function text, sizes, flags and version are read from it,
 * not measured again), append a log record per measurement, and write the
 * best block of every function to o->out (the untuned function when no
 * candidate beats it).  Stops starting measurements when the budget is
 * spent or on SIGINT, and writes what it found so far.  Progress on
 * progress.  0, or 1 after an error (printed to stderr). */
int tn_tune(const tn_opts *o, FILE *progress);

/* The schedule blocks `ftc build --tune-log LOG` applies (o->log): for
 * each exported function of o->path without a schedule block that the
 * log records (the same function text, C flags and ftc version), its
 * fastest measured block at o's --size values, else at the sizes last
 * recorded.  *text is malloc-owned ("" or NULL-free when none apply).  0,
 * or 1 after an error printed. */
int tn_log_schedules(const tn_opts *o, char **text);

/* The candidate blocks of f (a program after "grad": the loops a schedule
 * names), each "LINE\n...\nauto" (arena-owned tn_block's) into out, the
 * first "auto" alone (knobs.c), with the knobs ko allows.  Returns the
 * number of task nests found. */
int tn_candidates(ft_ctx *ctx, ast_func *f, tn_knob_opts ko, ft_vec *out);

#endif
