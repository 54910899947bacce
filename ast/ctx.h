/* ctx.h - the compilation context: arena, diagnostics, options.
 *
 * One ft_ctx is created per compilation and passed everywhere; there is no
 * global mutable state.  Every AST and parse-tree node is allocated from the
 * context's arena and freed with it, so passes never free nodes themselves.
 */
#ifndef FT_CTX_H
#define FT_CTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A source file held in memory; text is NUL-terminated. */
typedef struct ft_source {
    char *path;
    char *text;
    size_t len;
} ft_source;

struct ft_call;

/* A position in a source file (line and column start at 1). src may be NULL
 * for nodes made by the compiler; such locations print without a caret.
 * via: for a statement of an inlined function (the stdlib's, or the
 * user's own), the call it was inlined through (the front end stamps it,
 * frontend/lower.c lw_emit; copying the loc keeps it), so that a run-time
 * error can name the user's call site; NULL elsewhere. */
typedef struct ft_loc {
    const ft_source *src;
    int line, col;
    const struct ft_call *via;
} ft_loc;

/* A call of an inline function: where it was (itself maybe inside another
 * inlined call, at.via) and the name of the function called. */
typedef struct ft_call {
    ft_loc at;
    const char *func;
} ft_call;

typedef struct ft_arena ft_arena;
struct isl_ctx;

/* What the user asked for on the command line that passes need to see. */
/* When the verifier of parallel code runs. */
enum {
    FT_VERIFY_OFF,        /* --no-verify */
    FT_VERIFY_FINAL,      /* --verify: once, on the scheduled program (the
                             default when ftc is built with assertions) */
    FT_VERIFY_PASSES,     /* --verify=passes: after the schedules and after
                             every auto-scheduler pass, naming the guilty one */
};

/* Budgets of the steps whose output can grow much faster than their input
 * (lang/reference.md, "Budgets"): past one, a step either declines an
 * optimisation (said with -v) or stops with a located error naming the
 * budget and its flag.  Defaults in ft_ctx_new; the command line raises
 * them (frontend/main.c). */
typedef struct ft_budget {
    int64_t stmts;         /* --max-statements: statements of one function
                              (after inlining, unrolling) */
    int64_t inline_calls;  /* --max-inline: inlined calls while lowering one
                              exported function */
    int64_t loop_depth;    /* --max-loop-depth: loops nested in a function
                              after a schedule line */
    int64_t expr_size;     /* --max-expr-size: nodes of one expression that
                              a pass builds by substitution */
    int64_t locals;        /* --max-locals: locals open at once in a
                              function (each `var` scopes the rest of its
                              block: every walker of the AST and the C
                              compiler nest that deep) */
    int64_t dep_pairs;     /* --max-dep-pairs: pairs of accesses to one
                              tensor that the dependence analysis of a whole
                              function compares */
    int64_t cleanup_work;  /* --max-cleanup-work: the statements of a
                              function, each counted once per local whose
                              scope holds it, that the cleanup passes take
                              on (their work grows with it) */
    int64_t fuse_work;     /* --max-fuse-work: statements of a function
                              summed over auto_fuse's tries in it (each
                              copies the function) */
} ft_budget;

enum {
    FT_BUDGET_STMTS = 200000, FT_BUDGET_INLINE = 100000,
    FT_BUDGET_LOOP_DEPTH = 32, FT_BUDGET_EXPR_SIZE = 2000,
    FT_BUDGET_CLEANUP_WORK = 2000000, FT_BUDGET_LOCALS = 1000,
    FT_BUDGET_DEP_PAIRS = 4000000, FT_BUDGET_FUSE_WORK = 50000,
};

typedef struct ft_options {
    const char *cc;          /* C compiler for the backend ("cc" if NULL) */
    const char *cflags;      /* flags replacing the default optimisation flags */
    int no_auto;             /* --no-auto: skip the auto-scheduler */
    int verbose;             /* -v */
    int explain_tapes;       /* --explain-tapes: print autodiff's tape decisions */
    int promote_f64;         /* --promote-f64: compute in f64 (gradcheck) */
    int ndefines;            /* -D NAME=VALUE overrides of `const` */
    const char **define_names;
    const char **define_values;  /* the texts after '=': an integer, or a
                                  * string for a const whose value is one */
    const char *arch;        /* --arch: the nvcc -arch value (NULL: sm_90) */
    int check_refusals;      /* --check-refusals: a refused schedule line must
                                leave its function unchanged (testing) */
    int time_passes;         /* --time-passes: CPU time per pass (timer.h) */
    int verify;              /* FT_VERIFY_*: when the verifier of parallel code
                                runs (transforms/verify_par.c) */
    const char *test_break;  /* --test-break=NAME (testing only): turn off one
                                safety mechanism so that a test can show the
                                verifier catching what it guards against */
    ft_budget budget;        /* growth budgets (see ft_budget) */
    int layout_local;        /* --layout-mode=local: every local row-major, each
                                conversion where require_layout put it */
    int layout_count;        /* --layout-cost=count: one unit per copy between
                                layouts that differ, not its bytes */
    FILE *layout_report;     /* --emit=layouts: the layout pass reports here */
    int nsizes;              /* --size NAME=N: sizes the layout pass's costs */
    const char **sizes;      /* assume ("NAME=N" texts, checked) */
} ft_options;

/* A growable array of pointers in arena memory. */
typedef struct ft_vec {
    void **items;
    int len, cap;
} ft_vec;

typedef struct ft_ctx {
    ft_arena *arena;
    FILE *diag_out;          /* where diagnostics go (stderr by default) */
    int nerrors;
    int max_errors;          /* stop reporting after this many */
    int next_stmt_id;        /* stable statement IDs, unique per compilation */
    int deps_budget;         /* dependence analyses allowed (-1: no limit); the
                                auto-scheduler bounds its search with it */
    struct an_deps_cache *deps_cache;  /* analysis/deps_cache.c (NULL: off) */
    ft_options opts;
    const struct ft_target *target;  /* ast/target.h: chosen once (--target) */
    struct isl_ctx *isl;     /* created on first use by ft_isl, freed with ctx */
    ft_vec timings;          /* --time-passes: ft_timing * (timer.c) */
    const char **refusal;    /* while set (a quiet try, auto_util.h): where
                                ft_error keeps the first error's message
                                (its first line, arena-owned; NULL until one) */
} ft_ctx;

/* Create a context whose diagnostics go to stderr. */
ft_ctx *ft_ctx_new(void);
/* Free the context, its arena and everything allocated from it. */
void ft_ctx_free(ft_ctx *ctx);

/* The context's isl_ctx, created on first use (errors are recorded, not
 * printed: isl calls return NULL and the caller reports). */
struct isl_ctx *ft_isl(ft_ctx *ctx);

/* Arena allocation: zeroed memory that lives as long as the context. */
void *ft_alloc(ft_ctx *ctx, size_t size);
char *ft_strdup(ft_ctx *ctx, const char *s);
char *ft_strndup(ft_ctx *ctx, const char *s, size_t n);
/* printf into arena memory. */
char *ft_fmt(ft_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Read a whole file into an arena-owned ft_source; NULL (and an error
 * diagnostic without location) if it cannot be read.  Both constructors
 * make every line end "\n" ("\r\n" and a lone "\r" are one line break). */
ft_source *ft_source_read(ft_ctx *ctx, const char *path);
/* Wrap an in-memory string as a source (for tests and -e). */
ft_source *ft_source_from_string(ft_ctx *ctx, const char *path, const char *text);

/* Report an error at loc: "file:line:col: error: msg", the source line and a
 * caret under the column.  Counts towards ctx->nerrors. */
void ft_error(ft_ctx *ctx, ft_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A note attached to the previous error (not counted). */
void ft_note(ft_ctx *ctx, ft_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "not supported yet" error for a construct that parses but is not built. */
void ft_unsupported(ft_ctx *ctx, ft_loc loc, const char *what);

void ft_vec_push(ft_ctx *ctx, ft_vec *v, void *item);
/* Whether v holds the pointer p. */
int ft_vec_has(const ft_vec *v, const void *p);

#endif
