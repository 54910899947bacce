/* measure.h - the measuring runtime of `ftc tune`: candidates compiled
 * into two libraries built at once, each checked against the untuned
 * function, then timed in alternating rounds (tune/measure.c).
 *
 * A candidate is a schedule block's lines for one function (its text,
 * "\n" between lines, ending with `auto`); the program is compiled once per
 * candidate with that block appended (as `ftc build --schedule` would), so
 * its names resolve exactly as they will when the result is applied.  The
 * function of each compile is renamed FUNC__cK and all of them, with the
 * untuned FUNC, go into two C files and two libraries, compiled by two C
 * compilers at once (a batch's C took a third of its time, on one core).
 */
#ifndef FT_TUNE_MEASURE_H
#define FT_TUNE_MEASURE_H

#include <stdint.h>
#include <stdio.h>

#include "../ast/ctx.h"

typedef enum tn_status {
    TN_NEW,        /* not measured yet */
    TN_OK,         /* checked and timed: ms */
    TN_WRONG,      /* its outputs differ from the untuned function's */
    TN_REFUSED,    /* a line was refused (why) */
    TN_FAILED,     /* it did not build or its call returned an error (why) */
    TN_SLOW,       /* cut after the first round: ms is that round's time */
} tn_status;

/* The word of a status in the log ("ok", "wrong", ...). */
const char *tn_status_name(tn_status s);
/* The status of a log word; TN_NEW when it is none. */
tn_status tn_status_of(const char *word);

typedef struct tn_cand {
    char *sched;           /* the block's lines (malloc-owned) */
    uint64_t hash;         /* of sched */
    tn_status status;
    int nest;              /* the task nest it tunes (tn_block), 0: none or several */
    double ms;             /* median time per call */
    double ref_ms;         /* the untuned function's, in the same rounds
                            * (candidates of different batches compare by
                            * ms / ref_ms: the machine drifts between them) */
    char why[200];
} tn_cand;

/* How the command line sets up a compilation (its options on a fresh
 * ctx: -D, --size, --cc, --cflags ...). */
typedef struct tn_setup {
    void (*apply)(ft_ctx *ctx, const void *data);
    const void *data;
} tn_setup;

/* One function to measure at given sizes. */
typedef struct tn_bench {
    const char *path;      /* PROG.ft */
    const char *func;
    int nargs;
    char **args;           /* "NAME=VALUE" of every size parameter */
    uint64_t seed;         /* of the inputs' random data */
    tn_setup setup;
    const char *dir;       /* a private folder for the libraries */
    int rounds;            /* timed rounds (the first also cuts) */
    int wrong;             /* test hook (FTC_TUNE_WRONG): the index in c[]
                            * of a candidate whose first output element is
                            * changed after its call; -1: none */
} tn_bench;

/* FNV-1a of s, the hash of candidates and tasks. */
uint64_t tn_hash(const char *s, uint64_t h);
/* The hash a fresh FNV-1a starts from. */
#define TN_HASH0 1469598103934665603ull

/* Measure the candidates of c[0..n) that are TN_NEW, with the untuned
 * function: build (two libraries at once), check (its outputs within 1e-4 of the
 * untuned function's, relative to the largest magnitude, or equal for
 * integers), time (b->rounds alternating rounds, each call repeated for
 * about 10 ms; after the first, a candidate over 4x the fastest is cut).
 * Fills status, ms and why; *ref_ms is the untuned function's time.
 * *stop (a signal's flag) ends the rounds early.  0, or 1 when the untuned
 * function itself could not be built or run (why in err). */
int tn_measure(const tn_bench *b, tn_cand *c, int n, double *ref_ms,
               volatile const int *stop, char *err, size_t errlen);

#endif
