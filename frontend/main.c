/* main.c - the `ftc` command line: build, check, run, gradcheck, tune and
 * stdlib.
 *
 * main only parses the options into a `cli` struct and dispatches to one
 * function per command.  The pipeline of every command is
 *   ft_ctx_new -> ft_source_read -> ft_compile -> cg_emit_c | cg_build_library
 *   -> (run) rt_open -> rt_run
 * and every path frees what it made (the tests run under ASan's leak checker).
 * Exit codes: 0 ok, 1 compile or run error, 2 usage error.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast/ctx.h"
#include "ast/target.h"
#include "backend/cg.h"
#include "frontend/driver.h"
#include "frontend/stdlib_doc.h"
#include "lang/pt.h"
#include "runtime/rt.h"
#include "runtime/cleanup.h"
#include "autodiff/ad.h"
#include "tune/tune.h"
#include "ast/timer.h"

#ifndef FTC_VERSION
#define FTC_VERSION "0.1.0"
#endif

enum { EXIT_OK = 0, EXIT_ERR = 1, EXIT_USAGE = 2 };

/* Commands, as bits so that a flag can list the commands that accept it;
 * CMD_ALL is every command that compiles a program (not `ftc stdlib`). */
enum { CMD_BUILD = 1, CMD_CHECK = 2, CMD_RUN = 4, CMD_GRADCHECK = 8, CMD_STDLIB = 16,
       CMD_TUNE = 32, CMD_ALL = 47 };

/* Everything the command line said.  Strings point into argv except the
 * -D names, which are malloc-owned (freed by cli_free). */
typedef struct cli {
    int cmd;                    /* CMD_* */
    int help, version;
    int npos;                   /* positional arguments, in order */
    char **pos;                 /* malloc-owned array of argv pointers */
    const char *output;         /* -o */
    const char *cc, *cflags;
    int no_auto, verbose, emit_c, emit_deps, emit_layouts;
    int layout_local, layout_count;   /* --layout-mode=local, --layout-cost=count */
    int nsizes;
    const char **sizes;         /* --size NAME=N: malloc-owned array into argv */
    const ft_target *target;    /* --target NAME (NULL: C) */
    int explain_tapes, promote_f64;   /* --explain-tapes, --promote-f64 */
    int check_refusals;         /* --check-refusals */
    int markdown;               /* stdlib --markdown */
    int time_passes;            /* --time-passes */
    int verify;                 /* FT_VERIFY_* + 1; 0: not given */
    const char *test_break;     /* --test-break */
    ft_budget budget;           /* --max-*: 0 where not given */
    rt_gc_opts gc;              /* gradcheck: --tol, --threads (and --seed) */
    const char *arch;           /* --arch */
    const char *dump_after, *schedule;
    const char *tune_log;       /* tune: --log */
    double tune_budget;         /* tune: --budget, seconds (0: none) */
    int tune_no_layout;         /* tune: --no-layout */
    int tune_no_propagate;      /* tune: --no-propagate */
    int ndefines;
    const char **define_names;  /* malloc-owned, each name malloc-owned */
    const char **define_values; /* into argv */
    int nflags;                 /* the flags given, to check they fit the command */
    const char **flag_args;     /* malloc-owned array of argv pointers */
    int *flag_cmds;             /* malloc-owned: the commands accepting each */
    int run_compile_flags;      /* -D, --cc or --cflags given (ignored for .so) */
    rt_run_opts run;
} cli;

/* Flag identities (the table below maps spellings to these). */
typedef enum cli_flag_id {
    F_HELP, F_VERSION, F_OUT, F_DEFINE, F_NO_AUTO, F_CC, F_CFLAGS, F_VERBOSE,
    F_EMIT, F_DUMP_AFTER, F_SCHEDULE, F_RANDOM, F_SEED, F_BENCH, F_OUT_DIR,
    F_PRINT, F_NO_PRINT, F_LOGICAL_OUT, F_TARGET, F_ARCH, F_EXPLAIN_TAPES, F_PROMOTE_F64,
    F_CHECK_REFUSALS, F_TIME_PASSES, F_VERIFY, F_VERIFY_PASSES, F_NO_VERIFY, F_TEST_BREAK,
    F_TOL, F_THREADS, F_MAX_STMTS, F_MAX_INLINE, F_MAX_LOOP_DEPTH, F_MAX_EXPR_SIZE,
    F_MAX_CLEANUP_WORK, F_MAX_LOCALS, F_MAX_DEP_PAIRS, F_MAX_FUSE_WORK, F_MARKDOWN,
    F_LAYOUT_MODE, F_LAYOUT_COST, F_SIZE, F_LOG, F_BUDGET, F_TUNE_LOG, F_NO_LAYOUT,
    F_NO_PROPAGATE
} cli_flag_id;

typedef struct cli_flag {
    const char *name;
    cli_flag_id id;
    int takes_value;
    int cmds;                   /* the commands that accept it */
} cli_flag;

static const cli_flag cli_flags[] = {
    {"--help", F_HELP, 0, CMD_ALL},         {"-h", F_HELP, 0, CMD_ALL},
    {"--version", F_VERSION, 0, CMD_ALL},
    {"-o", F_OUT, 1, CMD_BUILD | CMD_TUNE}, {"-D", F_DEFINE, 1, CMD_ALL},
    {"--no-auto", F_NO_AUTO, 0, CMD_BUILD | CMD_RUN},
    {"--cc", F_CC, 1, CMD_BUILD | CMD_RUN | CMD_TUNE},
    {"--cflags", F_CFLAGS, 1, CMD_BUILD | CMD_RUN | CMD_TUNE},
    {"-v", F_VERBOSE, 0, CMD_BUILD | CMD_TUNE},        {"--emit", F_EMIT, 1, CMD_BUILD},
    {"--dump-after", F_DUMP_AFTER, 1, CMD_BUILD},
    {"--schedule", F_SCHEDULE, 1, CMD_BUILD | CMD_CHECK | CMD_GRADCHECK},
    {"--random", F_RANDOM, 0, CMD_RUN},
    {"--seed", F_SEED, 1, CMD_RUN | CMD_GRADCHECK | CMD_TUNE},
    {"--bench", F_BENCH, 1, CMD_RUN},       {"--out-dir", F_OUT_DIR, 1, CMD_RUN},
    {"--print", F_PRINT, 0, CMD_RUN},       {"--no-print", F_NO_PRINT, 0, CMD_RUN},
    {"--logical-out", F_LOGICAL_OUT, 0, CMD_RUN},
    {"--target", F_TARGET, 1, CMD_BUILD | CMD_RUN | CMD_GRADCHECK},
    {"--explain-tapes", F_EXPLAIN_TAPES, 0, CMD_BUILD | CMD_CHECK | CMD_GRADCHECK},
    {"--promote-f64", F_PROMOTE_F64, 0, CMD_BUILD | CMD_CHECK | CMD_RUN},
    {"--arch", F_ARCH, 1, CMD_BUILD | CMD_RUN | CMD_GRADCHECK},
    {"--check-refusals", F_CHECK_REFUSALS, 0, CMD_BUILD | CMD_CHECK},
    {"--time-passes", F_TIME_PASSES, 0, CMD_BUILD | CMD_CHECK},
    {"--verify", F_VERIFY, 0, CMD_ALL},     {"--verify-passes", F_VERIFY_PASSES, 0, CMD_ALL},
    {"--no-verify", F_NO_VERIFY, 0, CMD_ALL},
    {"--test-break", F_TEST_BREAK, 1, CMD_ALL},
    {"--tol", F_TOL, 1, CMD_GRADCHECK},     {"--threads", F_THREADS, 1, CMD_GRADCHECK},
    {"--max-statements", F_MAX_STMTS, 1, CMD_ALL}, {"--max-inline", F_MAX_INLINE, 1, CMD_ALL},
    {"--max-loop-depth", F_MAX_LOOP_DEPTH, 1, CMD_ALL},
    {"--max-expr-size", F_MAX_EXPR_SIZE, 1, CMD_ALL},
    {"--max-cleanup-work", F_MAX_CLEANUP_WORK, 1, CMD_ALL},
    {"--max-fuse-work", F_MAX_FUSE_WORK, 1, CMD_ALL},
    {"--max-locals", F_MAX_LOCALS, 1, CMD_ALL},
    {"--max-dep-pairs", F_MAX_DEP_PAIRS, 1, CMD_ALL},
    {"--markdown", F_MARKDOWN, 0, CMD_STDLIB},
    {"--layout-mode", F_LAYOUT_MODE, 1, CMD_BUILD},
    {"--layout-cost", F_LAYOUT_COST, 1, CMD_BUILD},
    {"--size", F_SIZE, 1, CMD_BUILD | CMD_TUNE},
    {"--log", F_LOG, 1, CMD_TUNE},          {"--budget", F_BUDGET, 1, CMD_TUNE},
    {"--tune-log", F_TUNE_LOG, 1, CMD_BUILD},
    {"--no-layout", F_NO_LAYOUT, 0, CMD_TUNE}, {"--no-propagate", F_NO_PROPAGATE, 0, CMD_TUNE},
};

static const char usage_text[] =
    "usage:\n"
    "  ftc build PROG.ft -o libNAME.so [-D NAME=VALUE]... [--no-auto] [--cc CC] [--cflags FLAGS] [-v] [--emit=c] [--dump-after=PASS] [--schedule S.fts | --tune-log LOG]\n"
    "  ftc build PROG.ft --target cuda [--arch sm_90] [build options]\n"
    "  ftc check PROG.ft [-D ...] [--schedule S.fts]\n"
    "  ftc gradcheck PROG.ft FUNC wrt X [Y]... [name=value]... [--seed S] [--tol T] [--threads N] [--schedule S.fts] [-D ...]\n"
    "  ftc run PROG.ft|LIB.so FUNC [name=value]... [--random] [--seed S] [--bench N] [--out-dir DIR] [--print|--no-print] [--logical-out] [-D ...] [--cc ...] [--cflags ...]\n"
    "  ftc tune PROG.ft [FUNC]... -o PROG.fts [--log LOG] [--budget 5m] [--seed S] [--size n=N]... [--no-layout] [--no-propagate] [-D ...] [--cc ...] [--cflags ...]\n"
    "  ftc stdlib [NAME] [--markdown]\n"
    "  ftc PROG.ft [build options]   (the same as ftc build PROG.ft ...)\n"
    "  ftc --help\n"
    "  ftc --version\n";

static const char help_text[] =
    "\n"
    "commands:\n"
    "  build   compile PROG.ft into a shared library and its header (libNAME.h)\n"
    "  check   run the front end on PROG.ft and report errors only\n"
    "  run     call FUNC of PROG.ft (compiled into a temporary folder that is\n"
    "          removed afterwards) or of a library built by `ftc build`\n"
    "  gradcheck  compare FUNC's gradient wrt X... with central differences\n"
    "          (in f64; arguments as for run, random data for those not given;\n"
    "          PROG's own `grad FUNC wrt X... -> G` when it has one, with the\n"
    "          --schedule blocks of G_fwd and G_bwd)\n"
    "  tune    measure schedules of FUNC... (default: every exported function\n"
    "          without a schedule block) at the --size values and write the\n"
    "          fastest to -o PROG.fts (`ftc build PROG.ft --schedule PROG.fts`)\n"
    "  stdlib  list every standard-library operator (and intrinsic and builtin)\n"
    "          with its signature and PyTorch/NumPy equivalent; `ftc stdlib NAME`\n"
    "          shows one operator's doc, in-place form and file:line;\n"
    "          --markdown prints the list as lang/reference.md's section\n"
    "\n"
    "options:\n"
    "  -o PATH            output library (default: lib<stem>.so in the current folder);\n"
    "                     with --emit=c, a path ending in .c receives the C\n"
    "  -D NAME=VALUE      override `const NAME` (an integer, or a string for a const\n"
    "                     whose value is a string: -D XL=NCHW->NHWC; also -DNAME=VALUE)\n"
    "  --no-auto          do not run the auto-scheduler\n"
    "  --cc CC            C compiler for the library (default $FTC_CC, else cc)\n"
    "  --cflags FLAGS     flags replacing the default -O3 -march=native -fopenmp\n"
    "                     (default $FTC_CFLAGS)\n"
    "  -v                 verbose: show what the compiler does (tune: every candidate)\n"
    "  --target c|cuda    c (default): C + OpenMP; cuda: CUDA C++ compiled with nvcc\n"
    "                     ($FTC_NVCC, else on PATH, else /usr/local/cuda/bin/nvcc)\n"
    "  --arch ARCH        nvcc's -arch for --target cuda (default sm_90)\n"
    "  --emit=c           write the generated C to stdout (or to -o FILE.c); do not compile\n"
    "                     (with --target cuda, the CUDA C++, -o FILE.cu)\n"
    "  --emit=deps        print the dependences of every function (isl notation); do not compile\n"
    "  --emit=layouts     print every tensor's layout and every conversion (bytes, place,\n"
    "                     runs) as the layout pass chose them; do not compile\n"
    "  --layout-mode=local  every local row-major, conversions where require_layout\n"
    "                     put them (the baseline of a per-operator framework)\n"
    "  --layout-cost=count  choose layouts by the count of differing copies, not bytes\n"
    "  --size NAME=N      the size NAME the layout pass assumes in its costs (default 64);\n"
    "                     the auto-scheduler passes over a loop over a size hinted at\n"
    "                     most 4 for the loops inside it (a batch of 1 on all threads)\n"
    "  --explain-tapes    print each gradient's tape decisions (save or recompute) and costs\n"
    "  --promote-f64      compute in f64: every f32 tensor and value becomes f64\n"
    "  --dump-after=PASS  print the program after PASS (valid .ft) to stdout and stop\n"
    "  --schedule S.fts   apply the schedule blocks of a file\n"
    "  --tune-log LOG     apply each function's fastest block that `ftc tune` logged\n"
    "                     (at the --size values when recorded there)\n"
    "  --time-passes      print the CPU time of each compiler pass, of the C\n"
    "                     compiler (and its wall time) and of ftc in all, on stderr\n"
    "  --check-refusals   (testing) check that every refused schedule line left its\n"
    "                     function exactly as it was (an internal error if not)\n"
    "  --verify           prove every parallel loop race-free after scheduling (an\n"
    "                     internal error if not; the default when ftc is built with\n"
    "                     assertions); --verify-passes: after every scheduling pass,\n"
    "                     naming the pass that broke one; --no-verify: never\n"
    "                     (default $FTC_VERIFY: final, passes or off)\n"
    "  --test-break NAME  (testing) turn off one safety mechanism, to show that the\n"
    "                     verifier catches what it guards against: par_clauses\n"
    "                     (OpenMP reduction clauses of 0-D locals), par_atomics\n"
    "                     (atomics of colliding reductions in parallelized loops)\n"
    "  --random           random data for every in/inout tensor not given: floats\n"
    "                     uniform in [-1, 1); ints uniform in [0, m), m the smallest\n"
    "                     size value (without sizes, the smallest dimension), at\n"
    "                     least 1; bools True/False with equal chance\n"
    "  --seed S           seed of --random and of gradcheck's data (default 0; same\n"
    "                     seed, same data)\n"
    "  --tol T            gradcheck: the largest relative error allowed (default 1e-6)\n"
    "  --threads N        gradcheck: the OpenMP threads of every call (default: the\n"
    "                     OpenMP runtime's, e.g. $OMP_NUM_THREADS)\n"
    "  --log LOG          tune: the append-only log of measurements (default: -o's\n"
    "                     path with .tunelog); a rerun measures only what it lacks\n"
    "  --budget T         tune: stop starting measurements after T (90s, 5m, 1h;\n"
    "                     default: none) and write the best found; so does Ctrl-C\n"
    "  --no-layout        tune: no layout knobs (loops only: ALT's ablation)\n"
    "  --no-propagate     tune: layouts not propagated to their neighbours\n"
    "  --bench N          one warm-up call, then N timed calls; prints min and median ms\n"
    "  --out-dir DIR      write every out/inout tensor to DIR/NAME.npy\n"
    "  --print, --no-print  print the outputs or not (default: print; up to 20\n"
    "                     elements in full, larger ones as shape, sum, min, max and\n"
    "                     the first 5 values)\n"
    "  --logical-out      outputs with a layout clause printed and written in their\n"
    "                     logical shape (default: the physical array, as stored);\n"
    "                     an input's .npy may have either shape\n"
    ;

/* The budget options (printf: their defaults), then the end of --help. */
static const char help_budgets[] =
    "  --max-statements N  statements one function may grow to by inlining or\n"
    "                     unrolling (default %d)\n"
    "  --max-inline N     calls inlined while lowering one exported function\n"
    "                     (default %d)\n"
    "  --max-loop-depth N loops a schedule line may nest in a function (default %d)\n"
    "  --max-expr-size N  nodes of an expression that a pass builds by substituting\n"
    "                     temporaries or merging updates (default %d)\n"
    "  --max-locals N     locals open at once in a function (each `var` is in scope\n"
    "                     to the end of its block) (default %d)\n"
    "  --max-dep-pairs N  pairs of accesses to one tensor that the dependence\n"
    "                     analysis of a whole function compares (default %d)\n"
    "  --max-cleanup-work N  the cleanup passes (retarget, prop_temps, ...) skip a\n"
    "                     function whose statements, each counted once per local\n"
    "                     declared around it, exceed N (default %d)\n"
    "  --max-fuse-work N  statements of a function summed over auto_fuse's tries\n"
    "                     in it (each copies the function); past it auto_fuse\n"
    "                     stops (default %d)\n"
    "                     Past these budgets an optimisation is skipped (said with\n"
    "                     -v) or the program refused with a located error naming\n"
    "                     the flag\n"
    "  --help, --version\n"
    "\n"
    "run arguments: NAME=VALUE, an integer for a size parameter and a .npy file\n"
    "for a tensor; sizes not given are inferred from the .npy shapes.  An `out`\n"
    "tensor given a path is written to that path.\n"
    "\n"
    "exit status: 0 ok, 1 compile or run error, 2 usage error\n";

/* Print "ftc: error: MSG" to stderr; returns code for `return`. */
static int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ftc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* ------------------------------------------------------------ options */

/* Record -D NAME=VALUE (a later -D of the same name replaces it). */
static int cli_define(cli *c, const char *text)
{
    const char *eq = strchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : 0;
    int ok = n > 0 && ((text[0] >= 'A' && text[0] <= 'Z') || (text[0] >= 'a' && text[0] <= 'z') ||
                       text[0] == '_');
    for (size_t i = 1; ok && i < n; i++)
        ok = text[i] == '_' || (text[i] >= '0' && text[i] <= '9') ||
             (text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z');
    const char *v = eq ? eq + 1 : NULL;
    if (!ok)
        return cli_error(EXIT_USAGE, "-D '%s': expected NAME=VALUE, e.g. -D W=64", text);
    for (int i = 0; i < c->ndefines; i++) {
        if (strlen(c->define_names[i]) == n && !strncmp(c->define_names[i], text, n)) {
            c->define_values[i] = v;
            return 0;
        }
    }
    const char **names = realloc(c->define_names, sizeof *names * (size_t)(c->ndefines + 1));
    if (names)
        c->define_names = names;
    const char **vals = realloc(c->define_values, sizeof *vals * (size_t)(c->ndefines + 1));
    if (vals)
        c->define_values = vals;
    char *name = names && vals ? strndup(text, n) : NULL;
    if (!name)
        return cli_error(EXIT_ERR, "out of memory");
    c->define_names[c->ndefines] = name;
    c->define_values[c->ndefines++] = v;
    return 0;
}

/* A budget flag's value (--max-*): a count from 1 to 2^40. */
static int cli_budget(const cli_flag *f, const char *v, int64_t *out)
{
    int64_t n;
    if (rt_parse_i64(v, &n) || n < 1 || n > ((int64_t)1 << 40))
        return cli_error(EXIT_USAGE, "%s %s: expected a count from 1 to 2^40", f->name, v);
    *out = n;
    return 0;
}

/* --budget T: seconds, or a number with s, m or h. */
static int cli_duration(cli *c, const char *v)
{
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    double unit = !*end || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
                : !strcmp(end, "h") ? 3600 : 0;
    if (end == v || errno || !unit || !(t > 0) || t * unit > 1e7)
        return cli_error(EXIT_USAGE, "--budget %s: expected a duration such as 90s, 5m or 1h",
                         v);
    c->tune_budget = t * unit;
    return 0;
}

/* --size NAME=N: a size the layout pass assumes when it weighs costs. */
static int cli_size(cli *c, const char *v)
{
    const char *eq = strchr(v, '=');
    int64_t n;
    if (!eq || eq == v || rt_parse_i64(eq + 1, &n) || n < 0)
        return cli_error(EXIT_USAGE, "--size %s: expected NAME=N with N >= 0", v);
    const char **s = realloc(c->sizes, sizeof *s * (size_t)(c->nsizes + 1));
    if (!s)
        return cli_error(EXIT_ERR, "out of memory");
    c->sizes = s;
    c->sizes[c->nsizes++] = v;
    return 0;
}

/* Apply a flag that takes a value. */
static int cli_set_value(cli *c, const cli_flag *f, const char *v)
{
    int64_t n;
    switch (f->id) {
    case F_OUT: c->output = v; return 0;
    case F_DEFINE: return cli_define(c, v);
    case F_CC: c->cc = v; return 0;
    case F_CFLAGS: c->cflags = v; return 0;
    case F_DUMP_AFTER: c->dump_after = v; return 0;
    case F_SCHEDULE: c->schedule = v; return 0;
    case F_OUT_DIR: c->run.out_dir = v; return 0;
    case F_ARCH: c->arch = v; return 0;
    case F_TEST_BREAK:
        if (strcmp(v, "par_clauses") && strcmp(v, "par_atomics"))
            return cli_error(EXIT_USAGE, "--test-break %s: use par_clauses or par_atomics", v);
        c->test_break = v;
        return 0;
    case F_TARGET:
        if (!(c->target = ft_target_find(v)))
            return cli_error(EXIT_USAGE, "--target %s: use --target c or --target cuda", v);
        return 0;
    case F_EMIT:
        if (strcmp(v, "deps") == 0 || strcmp(v, "layouts") == 0) {
            *(v[0] == 'd' ? &c->emit_deps : &c->emit_layouts) = 1;
            return 0;
        }
        if (strcmp(v, "c"))
            return cli_error(EXIT_USAGE, "--emit=%s: use --emit=c, --emit=deps or "
                             "--emit=layouts", v);
        c->emit_c = 1;
        return 0;
    case F_SEED:
        if (*v == '-' || rt_parse_i64(v, &n))
            return cli_error(EXIT_USAGE, "--seed %s: expected a non-negative integer", v);
        c->run.seed = (uint64_t)n;
        return 0;
    case F_TOL: {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (errno || end == v || *end || !(t > 0) || t == HUGE_VAL)
            return cli_error(EXIT_USAGE, "--tol %s: expected a positive number, e.g. 1e-6", v);
        c->gc.tol = t;
        return 0;
    }
    case F_MAX_STMTS: return cli_budget(f, v, &c->budget.stmts);
    case F_MAX_INLINE: return cli_budget(f, v, &c->budget.inline_calls);
    case F_MAX_LOOP_DEPTH: return cli_budget(f, v, &c->budget.loop_depth);
    case F_MAX_EXPR_SIZE: return cli_budget(f, v, &c->budget.expr_size);
    case F_MAX_CLEANUP_WORK: return cli_budget(f, v, &c->budget.cleanup_work);
    case F_MAX_LOCALS: return cli_budget(f, v, &c->budget.locals);
    case F_LAYOUT_MODE:
        if (strcmp(v, "local") && strcmp(v, "global"))
            return cli_error(EXIT_USAGE, "--layout-mode=%s: use global or local", v);
        c->layout_local = v[0] == 'l';
        return 0;
    case F_LAYOUT_COST:
        if (strcmp(v, "bytes") && strcmp(v, "count"))
            return cli_error(EXIT_USAGE, "--layout-cost=%s: use bytes or count", v);
        c->layout_count = v[0] == 'c';
        return 0;
    case F_SIZE: return cli_size(c, v);
    case F_LOG: case F_TUNE_LOG: c->tune_log = v; return 0;
    case F_BUDGET: return cli_duration(c, v);
    case F_MAX_DEP_PAIRS: return cli_budget(f, v, &c->budget.dep_pairs);
    case F_MAX_FUSE_WORK: return cli_budget(f, v, &c->budget.fuse_work);
    case F_THREADS:
        if (rt_parse_i64(v, &n) || n < 1 || n > 4096)
            return cli_error(EXIT_USAGE, "--threads %s: expected a thread count from 1 to 4096",
                             v);
        c->gc.threads = (int)n;
        return 0;
    case F_BENCH:
        if (rt_parse_i64(v, &n) || n < 1 || n > 1000000000)
            return cli_error(EXIT_USAGE, "--bench %s: expected a number of runs >= 1", v);
        c->run.bench = (int)n;
        return 0;
    default:
        return cli_error(EXIT_ERR, "internal error: flag %s has no value", f->name);
    }
}

/* Apply a flag that takes no value. */
static void cli_set_switch(cli *c, const cli_flag *f)
{
    switch (f->id) {
    case F_HELP: c->help = 1; break;
    case F_VERSION: c->version = 1; break;
    case F_NO_AUTO: c->no_auto = 1; break;
    case F_VERBOSE: c->verbose = 1; break;
    case F_RANDOM: c->run.random = 1; break;
    case F_PRINT: c->run.print = 1; break;
    case F_NO_PRINT: c->run.print = 0; break;
    case F_LOGICAL_OUT: c->run.logical_out = 1; break;
    case F_NO_LAYOUT: c->tune_no_layout = 1; break;
    case F_NO_PROPAGATE: c->tune_no_propagate = 1; break;
    case F_EXPLAIN_TAPES: c->explain_tapes = 1; break;
    case F_PROMOTE_F64: c->promote_f64 = 1; break;
    case F_CHECK_REFUSALS: c->check_refusals = 1; break;
    case F_MARKDOWN: c->markdown = 1; break;
    case F_TIME_PASSES: c->time_passes = 1; break;
    case F_VERIFY: c->verify = 1 + FT_VERIFY_FINAL; break;
    case F_VERIFY_PASSES: c->verify = 1 + FT_VERIFY_PASSES; break;
    case F_NO_VERIFY: c->verify = 1 + FT_VERIFY_OFF; break;
    default: break;
    }
}

/* Find the flag spelled by arg: "--seed", "--seed=3", "-D", "-DW=64" or
 * "-ofile".  *inline_value receives the text after '=' (long flags) or
 * after the letter (-D, -o), NULL if none. */
static const cli_flag *cli_find_flag(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    for (size_t i = 0; i < sizeof cli_flags / sizeof cli_flags[0]; i++) {
        const cli_flag *f = &cli_flags[i];
        size_t n = strlen(f->name);
        if (strncmp(arg, f->name, n))
            continue;
        if (!arg[n])
            return f;
        if (f->takes_value && arg[1] != '-' && n == 2) {
            *inline_value = arg + n;          /* -DW=64, -olib.so */
            return f;
        }
        if (f->takes_value && arg[n] == '=') {
            *inline_value = arg + n + 1;      /* --seed=3 */
            return f;
        }
    }
    return NULL;
}

/* Parse one flag at argv[*i], consuming its value if it takes one. */
static int cli_flag_arg(cli *c, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *v;
    const cli_flag *f = cli_find_flag(arg, &v);
    if (!f)
        return cli_error(EXIT_USAGE, "unknown option '%s'; see ftc --help", arg);
    c->flag_args[c->nflags] = arg;
    c->flag_cmds[c->nflags++] = f->cmds;
    if (f->id == F_DEFINE || f->id == F_CC || f->id == F_CFLAGS || f->id == F_TARGET ||
        f->id == F_ARCH)
        c->run_compile_flags = 1;
    if (!f->takes_value) {
        if (v)
            return cli_error(EXIT_USAGE, "option '%s' takes no value; see ftc --help", f->name);
        cli_set_switch(c, f);
        return 0;
    }
    if (!v) {
        if (*i + 1 >= argc)
            return cli_error(EXIT_USAGE, "option '%s' needs a value; see ftc --help", f->name);
        v = argv[++*i];
    }
    return cli_set_value(c, f, v);
}

/* Parse argv into c: flags anywhere, positionals in order, "--" ending
 * the flags.  Returns 0 or an exit code. */
static int cli_parse(cli *c, int argc, char **argv)
{
    int only_pos = 0;
    c->run.print = 1;
    c->gc.tol = RT_GC_TOL;
    c->pos = calloc((size_t)argc + 1, sizeof *c->pos);
    c->flag_args = calloc((size_t)argc + 1, sizeof *c->flag_args);
    c->flag_cmds = calloc((size_t)argc + 1, sizeof *c->flag_cmds);
    if (!c->pos || !c->flag_args || !c->flag_cmds)
        return cli_error(EXIT_ERR, "out of memory");
    for (int i = 1; i < argc; i++) {
        if (!only_pos && !strcmp(argv[i], "--"))
            only_pos = 1;
        else if (!only_pos && argv[i][0] == '-' && argv[i][1]) {
            int r = cli_flag_arg(c, argc, argv, &i);
            if (r)
                return r;
        } else
            c->pos[c->npos++] = argv[i];
    }
    return 0;
}

/* Take the command from the first positional and check that every flag
 * given applies to it and that the positionals fit it. */
static int cli_check(cli *c)
{
    static const char *const names[] = {"build", "check", "run", "gradcheck", "stdlib",
                                        "tune"};
    static const int need[] = {1, 1, 2, 4, 0, 1};
    enum { NCMDS = 6 };
    if (c->npos == 0)
        return cli_error(EXIT_USAGE, "no command given; expected build, check, run, "
                         "gradcheck, tune or stdlib (see ftc --help)");
    size_t len0 = strlen(c->pos[0]);
    if (len0 > 3 && !strcmp(c->pos[0] + len0 - 3, ".ft")) {
        /* `ftc prog.ft --dump-after=lower` means `ftc build prog.ft ...` */
        memmove(c->pos + 1, c->pos, sizeof *c->pos * (size_t)c->npos++);
        c->pos[0] = "build";
    }
    int k = 0;
    while (k < NCMDS && strcmp(c->pos[0], names[k]))
        k++;
    if (k == NCMDS)
        return cli_error(EXIT_USAGE, "unknown command '%s'; expected build, check, run, "
                         "gradcheck, tune or stdlib (see ftc --help)", c->pos[0]);
    c->cmd = 1 << k;
    for (int i = 0; i < c->nflags; i++)
        if (!(c->flag_cmds[i] & c->cmd))
            return cli_error(EXIT_USAGE, "option '%s' does not apply to `ftc %s`; see "
                             "ftc --help", c->flag_args[i], names[k]);
    int got = c->npos - 1;
    if (c->cmd == CMD_STDLIB && got > 1)
        return cli_error(EXIT_USAGE, "`ftc stdlib` expects at most one NAME, got %d arguments; "
                         "see ftc --help", got);
    if (c->cmd == CMD_BUILD && c->tune_log && c->schedule)
        return cli_error(EXIT_USAGE, "--tune-log and --schedule both give schedules: use "
                         "one of them");
    if (c->cmd == CMD_TUNE && !c->output)
        return cli_error(EXIT_USAGE, "`ftc tune` needs -o PROG.fts (the schedule file it "
                         "writes); see ftc --help");
    if (got < need[k] || (c->cmd != CMD_RUN && c->cmd != CMD_GRADCHECK && c->cmd != CMD_STDLIB
                          && c->cmd != CMD_TUNE && got > need[k]))
        return cli_error(EXIT_USAGE, "`ftc %s` expects %s, got %d argument%s; see ftc --help",
                         names[k], c->cmd == CMD_RUN ? "PROG.ft|LIB.so FUNC [name=value]..."
                                                     : "one PROG.ft",
                         got, got == 1 ? "" : "s");
    return 0;
}

/* Free what cli_parse allocated. */
static void cli_free(cli *c)
{
    for (int i = 0; i < c->ndefines; i++)
        free((char *)c->define_names[i]);
    free(c->define_names);
    free(c->define_values);
    free(c->sizes);
    free(c->pos);
    free(c->flag_args);
    free(c->flag_cmds);
}

/* ---------------------------------------------------------- compiling */

/* Copy the command-line options the passes read into ctx. */
static void cli_to_ctx(const cli *c, ft_ctx *ctx)
{
    ctx->opts.cc = c->cc;
    ctx->opts.cflags = c->cflags;
    ctx->opts.no_auto = c->no_auto;
    ctx->opts.verbose = c->verbose;
    ctx->opts.ndefines = c->ndefines;
    ctx->opts.define_names = c->define_names;
    ctx->opts.define_values = c->define_values;
    if (c->target)
        ctx->target = c->target;
    ctx->opts.explain_tapes = c->explain_tapes;
    ctx->opts.promote_f64 = c->promote_f64 || c->cmd == CMD_GRADCHECK;
    ctx->opts.arch = c->arch;
    ctx->opts.check_refusals = c->check_refusals;
    ctx->opts.time_passes = c->time_passes;
    ctx->opts.test_break = c->test_break;
    ctx->opts.layout_local = c->layout_local;
    ctx->opts.layout_count = c->layout_count;
    ctx->opts.layout_report = c->emit_layouts ? stdout : NULL;
    ctx->opts.nsizes = c->nsizes;
    ctx->opts.sizes = c->sizes;
    ft_budget *b = &ctx->opts.budget;
    b->stmts = c->budget.stmts ? c->budget.stmts : b->stmts;
    b->inline_calls = c->budget.inline_calls ? c->budget.inline_calls : b->inline_calls;
    b->loop_depth = c->budget.loop_depth ? c->budget.loop_depth : b->loop_depth;
    b->expr_size = c->budget.expr_size ? c->budget.expr_size : b->expr_size;
    b->cleanup_work = c->budget.cleanup_work ? c->budget.cleanup_work : b->cleanup_work;
    b->fuse_work = c->budget.fuse_work ? c->budget.fuse_work : b->fuse_work;
    b->locals = c->budget.locals ? c->budget.locals : b->locals;
    b->dep_pairs = c->budget.dep_pairs ? c->budget.dep_pairs : b->dep_pairs;
    const char *env = getenv("FTC_VERIFY");
    if (c->verify)
        ctx->opts.verify = c->verify - 1;
    else if (env && *env)
        ctx->opts.verify = !strcmp(env, "passes") ? FT_VERIFY_PASSES
                         : !strcmp(env, "off") ? FT_VERIFY_OFF : FT_VERIFY_FINAL;
    if (c->check_refusals)
        ctx->max_errors = 1 << 30;  /* the fuzzer reads every refusal of a batch */
}

/* Read and compile path in ctx; dump_after/dump_out as for ft_compile.
 * Returns the program (arena-owned) or NULL after errors were reported. */
static ast_program *compile_file(ft_ctx *ctx, const char *path, const char *dump_after)
{
    ft_source *src = ft_source_read(ctx, path);
    if (!src)
        return NULL;
    return ft_compile(ctx, src, dump_after, dump_after ? stdout : NULL);
}

/* compile_file with the schedule file sched_path (NULL: none) applied as
 * if appended to the program (--schedule). */
static ast_program *compile_scheduled(ft_ctx *ctx, const char *path, const char *sched_path,
                                      const char *dump_after)
{
    ft_source *src = ft_source_read(ctx, path);
    ft_source *sched = src && sched_path ? ft_source_read(ctx, sched_path) : NULL;
    if (!src || (sched_path && !sched))
        return NULL;
    return ft_compile_scheduled(ctx, src, sched, dump_after, dump_after ? stdout : NULL);
}

static void tune_setup(ft_ctx *ctx, const void *data);

/* The tuner's options from the command line (tune, and build --tune-log). */
static tn_opts tune_opts(const cli *c)
{
    return (tn_opts){.path = c->pos[1], .nfuncs = c->npos - 2, .funcs = c->pos + 2,
                     .out = c->output, .log = c->tune_log, .budget_s = c->tune_budget,
                     .seed = c->run.seed, .nsizes = c->nsizes, .sizes = c->sizes,
                     .version = FTC_VERSION, .cflags = c->cflags, .verbose = c->verbose,
                     .knobs = {.layout = !c->tune_no_layout,
                               .propagate = !c->tune_no_propagate},
                     .setup = {tune_setup, c}};
}

/* compile_scheduled for `ftc build`: with --tune-log, the blocks of the
 * log's best records applied as a schedule file would be. */
static ast_program *compile_build(const cli *c, ft_ctx *ctx, const char *dump_after)
{
    if (!c->tune_log || c->cmd != CMD_BUILD)
        return compile_scheduled(ctx, c->pos[1], c->schedule, dump_after);
    tn_opts o = tune_opts(c);
    char *text = NULL;
    if (tn_log_schedules(&o, &text))
        return NULL;
    ft_source *src = ft_source_read(ctx, c->pos[1]);
    ft_source *sched = ft_source_from_string(ctx, ft_fmt(ctx, "%s (its best records)",
                                                         c->tune_log), text ? text : "");
    free(text);
    return src ? ft_compile_scheduled(ctx, src, sched, dump_after, dump_after ? stdout : NULL)
               : NULL;
}

/* Whether name is a pass --dump-after accepts; if not, list them. */
static int check_pass_name(const char *name)
{
    for (int i = 0; ft_pass_name(i); i++)
        if (!strcmp(ft_pass_name(i), name))
            return 0;
    fprintf(stderr, "ftc: error: unknown pass '%s' for --dump-after; the passes are:", name);
    for (int i = 0; ft_pass_name(i); i++)
        fprintf(stderr, "%s %s", i ? "," : "", ft_pass_name(i));
    fputc('\n', stderr);
    return EXIT_USAGE;
}

/* The default library path for input: lib<stem>.so in the current folder.
 * Returns a malloc-owned string. */
static char *default_lib_path(const char *input)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    if (ends_with(base, ".ft"))
        n -= 3;
    char *out = NULL;
    if (asprintf(&out, "lib%.*s.so", (int)n, base) < 0)
        return NULL;
    return out;
}

/* --emit=c: write the C to stdout, or to -o when it names a .c file (all
 * or nothing: through a temporary renamed into place, runtime/stage.c). */
static int emit_c(ft_ctx *ctx, const ast_program *p, const char *output)
{
    int (*emit)(ft_ctx *, const ast_program *, FILE *) = ctx->target->emit;
    if (!output)
        return emit(ctx, p, stdout) ? EXIT_ERR : EXIT_OK;
    char err[1024];
    rt_stage st;
    int fd = rt_stage_open(&st, output, 0666, err, sizeof err);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int r;
    if (!f) {
        r = fd < 0 ? cli_error(EXIT_ERR, "%s", err)
                   : cli_error(EXIT_ERR, "cannot write '%s': %s", output, strerror(errno));
        if (fd >= 0)
            close(fd);
    } else {
        int nerrors = ctx->nerrors;
        r = emit(ctx, p, f);
        int e = errno, bad = ferror(f);
        if (fclose(f) != 0 && !bad) {
            e = errno;
            bad = 1;
        }
        if (bad && ctx->nerrors == nerrors)
            r = cli_error(EXIT_ERR, "cannot write '%s': %s", output, strerror(e));
        if (!r && rt_stage_commit(&st, 1, 0, err, sizeof err))
            r = cli_error(EXIT_ERR, "%s", err);
    }
    rt_stage_free(&st, 1);
    return r ? EXIT_ERR : EXIT_OK;
}

/* Build the library (or the C, or a dump) from p as the flags say. */
static int build_output(const cli *c, ft_ctx *ctx, const ast_program *p)
{
    if (c->emit_deps)
        return ft_emit_deps(ctx, p, stdout) ? EXIT_ERR : EXIT_OK;
    if (c->emit_layouts)
        return EXIT_OK;         /* the layout pass printed its report */
    if (c->emit_c)
        return emit_c(ctx, p, c->output);
    char *def = c->output ? NULL : default_lib_path(c->pos[1]);
    const char *so = c->output ? c->output : def;
    int r = so ? cg_build_library(ctx, p, so) : cli_error(EXIT_ERR, "out of memory");
    free(def);
    return r ? EXIT_ERR : EXIT_OK;
}

/* --------------------------------------------------------------- build */

/* ftc build: compile PROG.ft into a library, C text or a pass dump. */
static int cmd_build(const cli *c)
{
    if (c->dump_after && check_pass_name(c->dump_after))
        return EXIT_USAGE;
    if (c->emit_c && c->output && !ends_with(c->output, ".c") &&
        !(c->target && ends_with(c->output, c->target->source_ext)))
        return cli_error(EXIT_USAGE, "with --emit=c, -o must name a .c file (or leave "
                         "-o out to print the C to stdout)");
    ft_ctx *ctx = ft_ctx_new();
    if (!ctx)
        return cli_error(EXIT_ERR, "out of memory");
    cli_to_ctx(c, ctx);
    ast_program *p = compile_build(c, ctx, c->dump_after);
    int r;
    if (c->dump_after)
        r = ctx->nerrors ? EXIT_ERR : EXIT_OK;
    else
        r = p && !ctx->nerrors ? build_output(c, ctx, p) : EXIT_ERR;
    ft_time_report(ctx, stderr);
    ft_ctx_free(ctx);
    return r;
}

/* --------------------------------------------------------------- check */

/* ftc check: run the front end (and the C backend's check of the
 * exported names) and report errors only. */
static int cmd_check(const cli *c)
{
    ft_ctx *ctx = ft_ctx_new();
    if (!ctx)
        return cli_error(EXIT_ERR, "out of memory");
    cli_to_ctx(c, ctx);
    ast_program *p = compile_scheduled(ctx, c->pos[1], c->schedule, NULL);
    int r = p && !ctx->nerrors && !cg_check_names(ctx, p) ? EXIT_OK : EXIT_ERR;
    ft_time_report(ctx, stderr);
    ft_ctx_free(ctx);
    return r;
}

/* ----------------------------------------------------------------- run */

/* A private folder for a library built only to be run: its path and the
 * cleanup slots (runtime/cleanup.c) of the folder, the library and the
 * header, so that a signal leaves nothing of it. */
typedef struct temp_dir {
    char *dir;          /* malloc-owned, NULL when not created */
    int slots[3];
} temp_dir;

/* Create $TMPDIR/PREFIX-XXXXXX; returns 0 or an exit code. */
static int temp_dir_make(temp_dir *t, const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    *t = (temp_dir){.slots = {-1, -1, -1}};
    char *dir = NULL;
    if (asprintf(&dir, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix) < 0)
        return cli_error(EXIT_ERR, "out of memory");
    rt_cleanup_enter();
    if (mkdtemp(dir)) {
        t->dir = dir;
        t->slots[0] = rt_cleanup_add(dir, 1);
    }
    rt_cleanup_leave();
    if (t->dir)
        return EXIT_OK;
    int r = cli_error(EXIT_ERR, "cannot create a temporary folder '%s': %s", dir,
                      strerror(errno));
    free(dir);
    return r;
}

/* Register the library so_path in t's folder and its header for removal
 * on a signal (before they exist: unlinking a missing file is harmless). */
static void temp_dir_add_lib(ft_ctx *ctx, temp_dir *t, const char *so_path)
{
    t->slots[1] = rt_cleanup_add(so_path, 0);
    t->slots[2] = rt_cleanup_add(cg_header_path(ctx, so_path), 0);
}

/* Remove t's folder and everything in it, and forget its slots. */
static void temp_dir_remove(temp_dir *t)
{
    if (!t->dir)
        return;
    rt_cleanup_enter();
    if (rt_cleanup_remove_dir(t->dir) != 0)
        fprintf(stderr, "ftc: warning: could not remove the temporary folder '%s'\n", t->dir);
    for (int i = 0; i < 3; i++)
        rt_cleanup_forget(t->slots[i]);
    rt_cleanup_leave();
    free(t->dir);
    t->dir = NULL;
}

/* Load so_path and run the function; rt_run prints results and errors. */
static int run_library(const cli *c, const char *so_path)
{
    char err[1024];
    rt_lib *lib = rt_open(so_path, err, sizeof err);
    if (!lib)
        return cli_error(EXIT_ERR, "%s", err);
    int r = rt_run(lib, c->pos[2], c->npos - 3, c->pos + 3, &c->run, stdout, stderr);
    rt_close(lib);
    return r ? EXIT_ERR : EXIT_OK;
}

/* Compile PROG.ft into a library in the fresh folder t; writes its path
 * (malloc-owned) to *so_path.  Returns 0 or an exit code. */
static int build_temp_library(const cli *c, temp_dir *t, char **so_path)
{
    ft_ctx *ctx = ft_ctx_new();
    if (!ctx)
        return cli_error(EXIT_ERR, "out of memory");
    cli_to_ctx(c, ctx);
    ast_program *p = compile_file(ctx, c->pos[1], NULL);
    int r = EXIT_ERR;
    char *base = default_lib_path(c->pos[1]);
    *so_path = NULL;
    if (p && !ctx->nerrors && base && asprintf(so_path, "%s/%s", t->dir, base) >= 0) {
        temp_dir_add_lib(ctx, t, *so_path);
        r = cg_build_library(ctx, p, *so_path) ? EXIT_ERR : EXIT_OK;
    }
    free(base);
    ft_ctx_free(ctx);
    return r;
}

/* tn_setup's apply: the command line's options on a ctx of the tuner. */
static void tune_setup(ft_ctx *ctx, const void *data)
{
    cli_to_ctx(data, ctx);
}

/* ftc tune: measure schedules of FUNC... and write the best to -o. */
static int cmd_tune(const cli *c)
{
    tn_opts o = tune_opts(c);
    return tn_tune(&o, stderr) ? EXIT_ERR : EXIT_OK;
}

/* ftc run: run FUNC of a library, compiling PROG.ft first if given one. */
static int cmd_run(const cli *c)
{
    const char *input = c->pos[1];
    if (ends_with(input, ".so")) {
        if (c->run_compile_flags)
            fprintf(stderr, "ftc: warning: -D, --cc and --cflags apply when compiling "
                    "a .ft; they are ignored for '%s'\n", input);
        return run_library(c, input);
    }
    temp_dir t;
    char *so = NULL;
    int r = temp_dir_make(&t, "ftc-run");
    if (r)
        return r;
    r = build_temp_library(c, &t, &so);
    if (r == EXIT_OK)
        r = run_library(c, so);
    temp_dir_remove(&t);
    free(so);
    return r;
}

/* Whether name is an identifier (a wrt name goes into .ft source text). */
static int is_identifier(const char *name)
{
    if (!(*name == '_' || (*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z')))
        return 0;
    for (const char *q = name; *q; q++)
        if (!(*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
              (*q >= '0' && *q <= '9')))
            return 0;
    return 1;
}

/* The result name G of src's own `grad func wrt ... -> G` line whose wrt
 * names are wrt's (in any order), or NULL when it has none; *bad set after
 * parse errors (reported). */
static const char *declared_grad(ft_ctx *ctx, const ft_source *src, const char *func,
                                 int nwrt, const char **wrt, int *bad)
{
    const pt_node *file = ft_parse(ctx, src);
    *bad = !file;
    for (int i = 0; file && i < file->nkids; i++) {
        const pt_node *g = file->kids[i];
        if (!g || g->kind != PT_GRAD || strcmp(g->name, func) || g->kids[0]->nkids != nwrt)
            continue;
        int same = 1;
        for (int k = 0; k < nwrt; k++) {
            int found = 0;
            for (int q = 0; q < nwrt; q++)
                found |= !strcmp(g->kids[0]->kids[q]->name, wrt[k]);
            same &= found;
        }
        if (same)
            return g->kids[1]->name;
    }
    return NULL;
}

/* PROG.ft's source for checking the gradient of func wrt wrt..., and in
 * *gname that gradient's name: PROG's own `grad` line of those when it has
 * one (its tape mode, and the blocks of --schedule for its `_fwd` and
 * `_bwd`: a tuned gradient is checked as built), else `grad FUNC wrt X,
 * ... -> FUNC_gradcheck` appended, so that the gradient is taken where a
 * `grad` declaration's is, on the cleaned AST before the schedules and the
 * auto-scheduler (differentiating the auto-scheduled function instead made
 * the gradient's dependence analysis slow on unrolled, fused loops).  NULL
 * if it cannot be read or parsed (reported). */
static ft_source *gradcheck_source(ft_ctx *ctx, const char *path, const char *func,
                                   int nwrt, const char **wrt, const char **gname)
{
    ft_source *src = ft_source_read(ctx, path);
    int bad = 0;
    if (!src || (*gname = declared_grad(ctx, src, func, nwrt, wrt, &bad)) || bad)
        return bad ? NULL : src;
    *gname = ft_fmt(ctx, "%s_gradcheck", func);
    char *text = ft_fmt(ctx, "%s\ngrad %s wrt ", src->text, func);
    for (int i = 0; i < nwrt; i++)
        text = ft_fmt(ctx, "%s%s%s", text, i ? ", " : "", wrt[i]);
    text = ft_fmt(ctx, "%s -> %s\n", text, *gname);
    return ft_source_from_string(ctx, path, text);
}

/* ftc gradcheck PROG.ft FUNC wrt X...: build PROG in f64 with the gradient
 * of FUNC and compare it with finite differences (runtime/gradcheck.c). */
static int cmd_gradcheck(const cli *c)
{
    if (strcmp(c->pos[3], "wrt"))
        return cli_error(EXIT_USAGE, "`ftc gradcheck PROG.ft FUNC wrt X...`: expected `wrt` "
                         "after the function name");
    if (!is_identifier(c->pos[2]))
        return cli_error(EXIT_USAGE, "`ftc gradcheck`: '%s' is not a function name", c->pos[2]);
    int nwrt = 0, nargs = 0;
    const char **wrt = calloc((size_t)c->npos, sizeof *wrt);
    char **args = calloc((size_t)c->npos, sizeof *args);
    for (int i = 4; i < c->npos; i++) {
        if (strchr(c->pos[i], '='))
            args[nargs++] = c->pos[i];
        else
            wrt[nwrt++] = c->pos[i];
    }
    for (int i = 0; i < nwrt; i++)
        if (!is_identifier(wrt[i])) {
            int r = cli_error(EXIT_USAGE, "`ftc gradcheck`: '%s' is not a parameter name",
                              wrt[i]);
            free(wrt);
            free(args);
            return r;
        }
    char *so = NULL;
    int r = EXIT_ERR;
    temp_dir t;
    ft_ctx *ctx = ft_ctx_new();
    if (ctx && !temp_dir_make(&t, "ftc-gc")) {
        cli_to_ctx(c, ctx);
        const char *gname = NULL;
        ft_source *src = gradcheck_source(ctx, c->pos[1], c->pos[2], nwrt, wrt, &gname);
        ft_source *sched = src && c->schedule ? ft_source_read(ctx, c->schedule) : NULL;
        ast_program *p = src && (sched || !c->schedule)
                         ? ft_compile_scheduled(ctx, src, sched, NULL, NULL) : NULL;
        if (p && asprintf(&so, "%s/libgc.so", t.dir) >= 0)
            temp_dir_add_lib(ctx, &t, so);
        if (p && so && !cg_build_library(ctx, p, so)) {
            char err[1024];
            rt_lib *lib = rt_open(so, err, sizeof err);
            if (!lib)
                fprintf(stderr, "ftc: error: %s\n", err);
            else {
                rt_gc_opts o = c->gc;
                o.seed = c->run.seed;
                r = rt_gradcheck(lib, c->pos[2], gname, nwrt, wrt, nargs, args, &o, stdout,
                                 stderr) ? EXIT_ERR : EXIT_OK;
                rt_close(lib);
            }
        }
        temp_dir_remove(&t);
    }
    if (ctx)
        ft_ctx_free(ctx);
    free(so);
    free(wrt);
    free(args);
    return r;
}

/* ---------------------------------------------------------------- main */

/* --help: the usage, the options and the passes of --dump-after. */
static void print_help(void)
{
    fputs(usage_text, stdout);
    fputs(help_text, stdout);
    printf(help_budgets, FT_BUDGET_STMTS, FT_BUDGET_INLINE, FT_BUDGET_LOOP_DEPTH,
           FT_BUDGET_EXPR_SIZE, FT_BUDGET_LOCALS, FT_BUDGET_DEP_PAIRS,
           FT_BUDGET_CLEANUP_WORK, FT_BUDGET_FUSE_WORK);
    fputs("\npasses for --dump-after:", stdout);
    for (int i = 0; ft_pass_name(i); i++)
        printf("%s %s", i ? "," : "", ft_pass_name(i));
    fputc('\n', stdout);
}

/* Parse the command line, then dispatch to the command's function. */
int main(int argc, char **argv)
{
    cli c = {0};
    int r;
    if (argc < 2) {
        fputs(usage_text, stderr);
        fputs("run 'ftc --help' for the options\n", stderr);
        return EXIT_USAGE;
    }
    r = cli_parse(&c, argc, argv);
    if (!r && c.help)
        print_help();
    else if (!r && c.version)
        printf("ftc %s\n", FTC_VERSION);
    else if (!r && !(r = cli_check(&c))) {
        rt_cleanup_install();
        r = c.cmd == CMD_STDLIB ? fe_stdlib_cmd(c.npos > 1 ? c.pos[1] : NULL, c.markdown,
                                                stdout, stderr)
          : c.cmd == CMD_BUILD ? cmd_build(&c) : c.cmd == CMD_CHECK ? cmd_check(&c)
          : c.cmd == CMD_GRADCHECK ? cmd_gradcheck(&c) : c.cmd == CMD_TUNE ? cmd_tune(&c)
          : cmd_run(&c);
    }
    cli_free(&c);
    return r;
}
