/* ast.h - the stack-scoped AST that every pass after the front end works on.
 *
 * Modelled on FreeTensor's IR: a tensor lives exactly as long as the VarDef
 * that declares it (its body), loops are For nodes with explicit bounds,
 * writes are Store or ReduceTo, and every statement carries a stable ID and
 * an optional label that schedules use to name it.  Nodes are allocated from
 * the context's arena (ast/ctx.h); a pass that changes a tree builds the new
 * parts and never leaves a half-changed one.
 *
 * Integer scalars that are not tensors (loop iterators, size parameters)
 * are AST_VAR expressions of dtype i64; every tensor, 0-D ones included, is
 * read with AST_LOAD and written with Store/ReduceTo.
 */
#ifndef FT_AST_H
#define FT_AST_H

#include "ctx.h"

typedef enum ft_dtype {
    FT_BOOL, FT_I32, FT_I64, FT_F16, FT_F32, FT_F64, FT_DTYPE_COUNT
} ft_dtype;

typedef enum ft_access {
    FT_ACC_IN, FT_ACC_OUT, FT_ACC_INOUT,
    FT_ACC_CACHE          /* a local tensor (`var`) */
} ft_access;

typedef enum ft_mtype {
    FT_MT_CPU, FT_MT_GPU, FT_MT_GPU_SHARED, FT_MT_GPU_LOCAL, FT_MTYPE_COUNT
} ft_mtype;

const char *ft_dtype_name(ft_dtype t);         /* "f32" */
int ft_dtype_from_name(const char *s);         /* -1 if unknown */
int ft_dtype_is_float(ft_dtype t);
int ft_dtype_is_int(ft_dtype t);               /* i32, i64 (not bool) */
const char *ft_access_name(ft_access a);       /* "in", "out", "inout", "cache" */
const char *ft_mtype_name(ft_mtype m);         /* "cpu", "gpu/shared", ... */
int ft_mtype_from_name(const char *s);         /* -1 if unknown */

/* ---------------------------------------------------------------- exprs */

typedef enum ast_binop {
    AST_ADD, AST_SUB, AST_MUL,
    AST_DIV,          /* real division (floats only) */
    AST_FLOORDIV,     /* rounds towards -inf */
    AST_MOD,          /* result has the sign of the divisor */
    AST_POW,
    AST_MIN, AST_MAX,
    AST_LT, AST_LE, AST_GT, AST_GE, AST_EQ, AST_NE,
    AST_AND, AST_OR,
    AST_BINOP_COUNT
} ast_binop;

typedef enum ast_unop { AST_NEG, AST_NOT } ast_unop;

typedef enum ast_builtin {
    AST_ABS, AST_SQRT, AST_EXP, AST_LN, AST_SIN, AST_COS, AST_TANH,
    AST_SIGMOID, AST_FLOOR, AST_CEIL, AST_SQUARE, AST_TAN, AST_ERF, AST_LOG1P,
    AST_EXPM1,
    AST_BUILTIN_COUNT
} ast_builtin;

const char *ast_binop_text(ast_binop op);      /* "+", "//", "min", ... */
const char *ast_builtin_name(ast_builtin f);   /* "sqrt" */
int ast_builtin_from_name(const char *s);      /* -1 if unknown */

typedef enum ast_expr_kind {
    AST_INT,       /* u.ival */
    AST_FLOAT,     /* u.fval */
    AST_BOOLC,     /* u.ival (0 or 1) */
    AST_VAR,       /* u.name: loop iterator or size parameter (i64) */
    AST_LOAD,      /* u.load: a full-index read of a tensor element */
    AST_BINARY,    /* u.bin */
    AST_UNARY,     /* u.un */
    AST_CALL,      /* u.call: a builtin applied to scalars */
    AST_CAST,      /* u.cast: convert u.cast.a to the node's dtype */
    AST_IFEXPR,    /* u.ife: `then if cond else other` */
} ast_expr_kind;

typedef struct ast_expr ast_expr;
struct ast_expr {
    ast_expr_kind kind;
    ft_dtype dtype;
    ft_loc loc;
    union {
        int64_t ival;
        double fval;
        const char *name;
        struct { const char *var; int n; ast_expr **idx; } load;
        struct { ast_binop op; ast_expr *a, *b; } bin;
        struct { ast_unop op; ast_expr *a; } un;
        struct { ast_builtin f; int n; ast_expr **args; } call;
        struct { ast_expr *a; } cast;
        struct { ast_expr *cond, *then, *other; } ife;
    } u;
};

/* Expression constructors.  Binary and unary constructors compute the result
 * dtype from their operands (NumPy promotion; comparisons give bool). */
ast_expr *ast_int(ft_ctx *ctx, ft_loc loc, int64_t v);
ast_expr *ast_float(ft_ctx *ctx, ft_loc loc, double v, ft_dtype t);
ast_expr *ast_boolc(ft_ctx *ctx, ft_loc loc, int v);
ast_expr *ast_var(ft_ctx *ctx, ft_loc loc, const char *name);
ast_expr *ast_load(ft_ctx *ctx, ft_loc loc, const char *var, ft_dtype t,
                   int n, ast_expr **idx);
ast_expr *ast_binary(ft_ctx *ctx, ft_loc loc, ast_binop op, ast_expr *a,
                     ast_expr *b);
ast_expr *ast_unary(ft_ctx *ctx, ft_loc loc, ast_unop op, ast_expr *a);
ast_expr *ast_call(ft_ctx *ctx, ft_loc loc, ast_builtin f, int n,
                   ast_expr **args);
ast_expr *ast_cast(ft_ctx *ctx, ft_loc loc, ft_dtype t, ast_expr *a);
ast_expr *ast_ifexpr(ft_ctx *ctx, ft_loc loc, ast_expr *cond, ast_expr *then,
                     ast_expr *other);

/* The dtype two operands are promoted to (NumPy rules, ignoring weak
 * literals, which the front end resolves before building nodes). */
ft_dtype ast_promote(ft_dtype a, ft_dtype b);

/* ---------------------------------------------------------------- stmts */

/* One layout primitive applied to a local (ast_stmt's def.lsteps):
 * var_split (dim, a = factor, b = nparts), var_reorder (n, perm),
 * var_merge (dim), var_pad (dim, a = before, b = after), var_unfold (dim,
 * a = tile, b = stride), var_attach (on the host: dim, a = where the
 * attached tensor starts in dim). */
typedef enum ast_lstep_kind {
    AST_LSTEP_SPLIT, AST_LSTEP_REORDER, AST_LSTEP_MERGE, AST_LSTEP_PAD, AST_LSTEP_UNFOLD,
    AST_LSTEP_ATTACH
} ast_lstep_kind;
typedef struct ast_lstep {
    ast_lstep_kind kind;
    int dim;
    int64_t a, b;
    int n;
    const int *perm;
} ast_lstep;

typedef enum ast_reduce_op { AST_RED_ADD, AST_RED_MUL, AST_RED_MIN, AST_RED_MAX }
    ast_reduce_op;

/* red.atomic: how a reduction that other threads of a parallel loop may
 * also update runs (the CUDA backend treats any nonzero value as atomic). */
enum {
    AST_RED_PLAIN = 0,      /* no other thread updates the element */
    AST_RED_ATOMIC = 1,     /* an atomic update */
    AST_RED_PRIVATE = 2,    /* into the enclosing OpenMP loop's per-thread
                               copy of the tensor, which the C backend adds
                               into the tensor after the loop (+= only;
                               auto_privatize.c) */
};

/* How a For loop runs. */
typedef enum ast_par {
    AST_SERIAL,
    AST_OPENMP,
    AST_BLOCK_X, AST_BLOCK_Y, AST_BLOCK_Z,
    AST_THREAD_X, AST_THREAD_Y, AST_THREAD_Z,
    AST_VECTORIZE,    /* SIMD lanes of one thread (`#pragma omp simd`) */
    AST_LIB,          /* as_lib: the nest is one BLAS gemm call (lib_gemm.h) */
} ast_par;

/* A software prefetch that a loop's iterations issue at the top of their
 * body (auto_prefetch.c): the element `at` (an AST_LOAD naming the tensor
 * and the element as a later iteration reaches it) and the `span` elements
 * that follow it (NULL: that one element), for writing when write is set,
 * issued only when the tensor holds at least min_bytes (a smaller one
 * stays in the caches anyway).  A hint: the C backend emits it only where
 * every index of `at` and of the loads inside them is in range, and never
 * reports an error for it; the CUDA backend ignores it. */
typedef struct ast_prefetch {
    ast_expr *at;
    ast_expr *span;
    int write;
    int64_t min_bytes;
} ast_prefetch;

typedef enum ast_stmt_kind {
    AST_SEQ,       /* u.seq */
    AST_VARDEF,    /* u.def: a local tensor and the statements it lives over */
    AST_FOR,       /* u.loop */
    AST_IF,        /* u.branch (other may be NULL) */
    AST_STORE,     /* u.store: var[idx] = value */
    AST_REDUCE,    /* u.red:   var[idx] op= value */
    AST_ASSERT,    /* u.cond */
    AST_EVAL,      /* u.expr: evaluate for side effects (kept for later passes) */
} ast_stmt_kind;

typedef struct ast_stmt ast_stmt;
struct ast_stmt {
    ast_stmt_kind kind;
    int id;                  /* stable, unique within the compilation */
    const char *label;       /* user label or NULL */
    int named;               /* a loop or local that a `schedule` line names
                              * (transforms/sched_names.c): the cleanup
                              * passes keep it as written, as they keep a
                              * labelled statement */
    int pinned;              /* a loop of a function whose schedule block
                              * ends with `auto`, named or made by a line
                              * of it (transforms/schedule.c): the
                              * primitives refuse to restructure it
                              * (xf_sched_pinned), so the auto-scheduler
                              * keeps what the user decided */
    const char *msg;         /* AST_ASSERT: the message reported when it
                              * fails at run time, or NULL; "\x01" K NAME
                              * "\x02" stands for side K (0 or 1) of the
                              * condition's comparison, whose run-time value
                              * the report shows (NAME where it cannot) */
    ft_loc loc;
    union {
        struct { int n; ast_stmt **stmts; } seq;
        struct {
            const char *name; ft_dtype dtype; int ndim; ast_expr **shape;
            ft_access access; ft_mtype mtype; ast_stmt *body;
            const char *src;     /* the name the program gave it when name
                                  * differs (a shadowing `var t` is t_1,
                                  * `var u = x * 2` takes over a temporary),
                                  * else NULL; schedules name it by either */
            const char *layout;  /* `layout "L->P"` as declared (text) or
                                  * NULL; applied by transforms/layout.c,
                                  * which leaves shape physical */
            const char *conv_of; /* a conversion require_layout inserted:
                                  * the tensor copied whole into this one
                                  * (its first statement), else NULL */
            const char *prefer;  /* prefer_layout's layout for it, or NULL */
            /* the layout primitives schedules applied to this local, in
             * order, and its shape before the first: what propagate(t)
             * replays on t's element-wise neighbours (sched_propagate.c);
             * the array is never changed, only replaced */
            int nlsteps;
            const struct ast_lstep *lsteps;
            int orig_ndim;
            ast_expr **orig_shape;
        } def;
        struct {
            const char *iter; ast_expr *begin, *end, *step; ast_par par;
            ast_stmt *body;
            int npf; ast_prefetch *pf;   /* prefetches (auto_prefetch.c) */
            int layout_block;   /* a block loop the layout pass split off: 1
                                 * (of a tensor only read) or 2 (of one
                                 * written); auto_layout_sink moves it inward */
        } loop;
        struct { ast_expr *cond; ast_stmt *then, *other; } branch;
        struct { const char *var; int n; ast_expr **idx; ast_expr *value; } store;
        struct {
            ast_reduce_op op; const char *var; int n; ast_expr **idx;
            ast_expr *value; int atomic;
        } red;
        ast_expr *cond;
        ast_expr *expr;
    } u;
};

ast_stmt *ast_seq(ft_ctx *ctx, ft_loc loc, int n, ast_stmt **stmts);
ast_stmt *ast_vardef(ft_ctx *ctx, ft_loc loc, const char *name, ft_dtype t,
                     int ndim, ast_expr **shape, ft_access acc, ft_mtype mt,
                     ast_stmt *body);
ast_stmt *ast_for(ft_ctx *ctx, ft_loc loc, const char *iter, ast_expr *begin,
                  ast_expr *end, ast_expr *step, ast_stmt *body);
ast_stmt *ast_if(ft_ctx *ctx, ft_loc loc, ast_expr *cond, ast_stmt *then,
                 ast_stmt *other);
ast_stmt *ast_store(ft_ctx *ctx, ft_loc loc, const char *var, int n,
                    ast_expr **idx, ast_expr *value);
ast_stmt *ast_reduce(ft_ctx *ctx, ft_loc loc, ast_reduce_op op, const char *var,
                     int n, ast_expr **idx, ast_expr *value);
ast_stmt *ast_assert(ft_ctx *ctx, ft_loc loc, ast_expr *cond);
ast_stmt *ast_eval(ft_ctx *ctx, ft_loc loc, ast_expr *e);

/* ------------------------------------------------------------ functions */

/* A parameter of an exported function: a size (i64 scalar, ndim 0) or a
 * tensor with dtype, shape (expressions of sizes and constants), access and
 * memory type. */
typedef struct ast_param {
    const char *name;
    int is_size;
    ft_dtype dtype;
    int ndim;
    ast_expr **shape;
    ft_access access;
    ft_mtype mtype;
    ft_loc loc;
    int opaque;     /* passed as untyped bytes (`void *`) in the C ABI and cast
                     * to dtype inside: a gradient's tape */
    ast_expr *region_at;   /* a region of a gradient's tape (autodiff/): a
                            * tensor of its own, starting at this element of
                            * the opaque tape (the last parameter); a
                            * parameter for the analyses and the schedules,
                            * then one of the function's regions (not in the
                            * C ABI); NULL otherwise */
    const char *layout;    /* `layout "L->P"` (text) or NULL: row-major */
    ast_expr **lshape;     /* with a layout, after transforms/layout.c: the
                            * logical shape (layout's ndim entries; shape is
                            * then physical); NULL before and without one */
    int lndim;
} ast_param;

typedef struct ast_func {
    const char *name;
    int nparams;
    ast_param *params;
    ast_stmt *body;
    ft_loc loc;
    /* autodiff's combined gradient g: its body is g_fwd's then g_bwd's
     * (autodiff/compose.c rebuilds it from theirs after scheduling);
     * NULL for every other function */
    struct ast_func *ad_fwd, *ad_bwd;
    /* the regions of a gradient's tape, moved out of params after the
     * schedules (autodiff/pack.c): the backends declare each as a pointer
     * into the tape, at element region_at */
    int nregions;
    ast_param *regions;
    /* g's body is exactly clones of the scheduled g_fwd's and g_bwd's
     * bodies (autodiff/compose.c): the C backend emits it as calls of them */
    int ad_composed;
    /* a schedule block of it ends with `auto` (transforms/schedule.c): the
     * auto-scheduler runs on what the lines before left, their loops
     * pinned */
    int auto_after;
} ast_func;

/* A size function of the library: `size_t NAME(int64_t size, ...)`
 * returning value (an expression of the size params), e.g. a gradient's
 * tape size in bytes (autodiff/). */
typedef struct ast_sizefn {
    const char *name;
    int nparams;             /* size parameters only */
    ast_param *params;
    ast_expr *value;
} ast_sizefn;

/* An argument of a schedule line as written; transforms/schedule.c
 * checks it when the line runs (so that its errors come in line order). */
typedef enum ast_sarg_kind {
    AST_SARG_NAME,           /* name: a loop, statement, tensor or scope */
    AST_SARG_INT,            /* ival: an integer literal (`-3` included) */
    AST_SARG_ATTR,           /* base.name (blockIdx.x) */
    AST_SARG_PATH,           /* name: "base/last" (gpu/shared) */
    AST_SARG_LIST,           /* kids: [1, 0] */
    AST_SARG_KW,             /* name=kids[0] */
    AST_SARG_CALL,           /* name(kids...), the callee's name at name_loc */
    AST_SARG_OTHER,          /* any other expression (refused where read) */
} ast_sarg_kind;

typedef struct ast_sarg ast_sarg;
struct ast_sarg {
    ast_sarg_kind kind;
    ft_loc loc;
    const char *name;
    const char *base;        /* AST_SARG_ATTR */
    int64_t ival;
    ft_loc name_loc;         /* AST_SARG_CALL */
    int nkids;
    ast_sarg **kids;
};

/* One line of a `schedule` block: `value` or `results = value`. */
typedef struct ast_sched_line {
    ft_loc loc;
    ast_sarg *value;         /* NULL: the line is another kind of statement */
    int assigns;             /* results = value */
    int plain;               /* ... with `=`, not `+=` and the like */
    ft_loc results_loc;
    int nres;                /* the assigned names (a tuple's, or one) */
    ast_sarg **res;
} ast_sched_line;

/* A `schedule f:` block (its lines applied by transforms/schedule.c). */
typedef struct ast_schedule {
    const char *func;
    ft_loc loc;
    int nlines;
    ast_sched_line *lines;
} ast_schedule;

/* A `grad f wrt x, y -> g [mode]` line (built by autodiff/grad.c). */
typedef struct ast_grad_decl {
    const char *func;
    ft_loc loc;
    const char *mode;        /* the tape mode as written ("auto" by default) */
    int nwrt;
    const char **wrt;
    const char *name;        /* g */
    ft_loc name_loc;
} ast_grad_decl;

/* A compiled module: the exported functions, in source order, and the
 * declarations about them. */
typedef struct ast_program {
    int nfuncs;
    ast_func **funcs;
    int nsizefns;            /* size functions (may be 0) */
    ast_sizefn **sizefns;
    int nschedules;          /* `schedule` blocks, in source order */
    ast_schedule *schedules;
    int ngrads;              /* `grad` lines, in source order */
    ast_grad_decl *grads;
} ast_program;

/* Whether p has a `schedule` block for the function name. */
int ast_has_schedule(const ast_program *p, const char *name);

/* The language's `//` and `%` (Python's: the quotient rounded down, the
 * remainder with the divisor's sign) of integer constants, c != 0 and not
 * INT64_MIN // -1; what the compiler folds, as the emitted helpers
 * (ft__floordiv_*, ft__mod_*) compute at run time. */
int64_t ast_floordiv(int64_t a, int64_t c);
int64_t ast_mod(int64_t a, int64_t c);

/* ast/clone.c: copies and substitution. */
/* A deep copy of e (arena-owned). */
ast_expr *ast_clone_expr(ft_ctx *ctx, const ast_expr *e);
/* A copy of e in which every AST_VAR names[k] is replaced by a copy of
 * repl[k] (simultaneously; integer `+ 0`, `* 1` and literal arithmetic
 * that the substitution leaves are folded). */
ast_expr *ast_subst_vars(ft_ctx *ctx, const ast_expr *e, int n, const char **names,
                         ast_expr **repl);
/* A deep copy of s, every field copied: with AST_CLONE_SAME the IDs and
 * labels are kept (a replacement); with AST_CLONE_NEW the copy gets new
 * IDs and no labels (a duplicate); AST_CLONE_NEW_LABELED gets new IDs and
 * keeps the labels (autodiff's copies of a function's statements). */
enum { AST_CLONE_NEW = 0, AST_CLONE_SAME = 1, AST_CLONE_NEW_LABELED = 2 };
ast_stmt *ast_clone_stmt(ft_ctx *ctx, const ast_stmt *s, int mode);
/* Replace, in place, every AST_VAR names[k] in the expressions under s by
 * a copy of repl[k]. */
void ast_subst_stmt(ft_ctx *ctx, ast_stmt *s, int n, const char **names, ast_expr **repl);

/* Print as valid .ft source (print -> parse -> print is a fixed point). */
void ast_print_program(FILE *out, const ast_program *p);
void ast_print_func(FILE *out, const ast_func *f);
void ast_print_stmt(FILE *out, const ast_stmt *s, int indent);
void ast_print_expr(FILE *out, const ast_expr *e);
/* The expression as arena-owned .ft text (for messages and descriptions). */
char *ast_expr_text(ft_ctx *ctx, const ast_expr *e);

/* Structural equality, ignoring locations and statement IDs (for tests). */
int ast_expr_equal(const ast_expr *a, const ast_expr *b);
int ast_stmt_equal(const ast_stmt *a, const ast_stmt *b);

#endif
