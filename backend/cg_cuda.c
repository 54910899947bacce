/* cg_cuda.c - the CUDA backend: emit CUDA C++ for an AST program.
 *
 * Requires: a lowered, scheduled ast_program (see cg.h); on this target the
 * driver has run xf_gpu_default, so every function whose schedule bound no
 * loop has its outermost parallel loops marked openmp.
 * Provides: one CUDA translation unit with the C ABI of language.md (the
 * same description table as the C backend), for nvcc.
 *
 * Where code runs.  The exported function runs on the host and only
 * launches kernels; every tensor lives in device memory.  The host walks
 * the function body ("host level") through sequences, local tensors,
 * serial loops and ifs whose bounds and conditions read no tensor, as long
 * as a bound loop lies below; everything else becomes a kernel:
 *   - a loop marked openmp: a flat kernel, its iterations spread over
 *     blockIdx.x x threadIdx.x by a grid-stride loop (256 threads a block);
 *   - a loop bound to blockIdx.* / threadIdx.*: a kernel whose grid and
 *     block sizes are the trip counts of its bound loops, computed at
 *     launch (clamped to CUDA's limits; every bound loop is a stride loop,
 *     so any size is right);
 *   - a run of statements with no bound loop: one single-thread kernel.
 * Loops bound inside a kernel to an index already in use, or openmp loops
 * inside a kernel, run serially in their thread.
 *
 * Blocks and threads.  Inside a kernel with thread loops, the statements
 * outside every thread loop ("block level") run once per block: leaves are
 * guarded by threadIdx == 0, locals declared there live in shared memory
 * (of constant size, or sized by values the host has at the launch: then
 * in the kernel's dynamic shared memory, `extern __shared__ ft__dsmem`, at
 * offsets that are sums of the earlier ones' sizes, the launch's third
 * argument their total).  Between two block-level statements of a
 * sequence, __syncthreads() is inserted when one writes a tensor that the
 * other reads or writes (and only then); at the end of a block-level loop
 * body when the body writes a tensor it also reads; at the end of every
 * block iteration.
 *
 * A thread loop at block level runs only in the threads whose indices in
 * the kernel's other thread dimensions are 0 (outside loops bound to them).
 *
 * Reductions.  A thread loop (threadIdx.x, at block level) whose only
 * colliding accesses are reductions
 * of one element, with one operator, at indices fixed for the loop, keeps
 * a per-thread partial instead of atomics; after the loop every thread of
 * the block calls ft__block_reduce (a __shfl_down_sync tree in each warp,
 * then warp 0 over the warps' results in shared memory) and thread 0 folds
 * the total into the element (atomically in device memory, which other
 * blocks may reduce into).  A failing check inside such a loop leaves the
 * loop by a goto instead of returning, so every thread reaches the
 * shuffles and barriers.  Other colliding reductions stay atomic.
 *
 * Memory.  `@ gpu` parameters are device pointers; `@ cpu` ones are host
 * pointers that the function copies to the device (in, inout) and back
 * (out, inout).  Host-level locals are cudaMalloc'd.  Locals inside a
 * kernel are per-thread arrays (at most 4096 bytes of constant size),
 * `gpu/shared` ones __shared__ arrays, larger ones device-heap buffers.
 * Everything runs on the default stream; the function returns after the
 * device finished.
 *
 * Errors.  Kernels report through a device flag (the first code stored
 * wins; a failing thread returns, and every kernel starts by returning
 * when the flag is set); the host copies it back at the end.  In a kernel
 * with thread loops no thread may leave alone (the others would wait at
 * the next barrier for ever): a failing thread sets ft__bad, which skips
 * its later stores, checks and thread-level loops, every barrier is a vote
 * (__syncthreads_or(ft__bad)) at which the whole block returns when one
 * thread failed, and so is the kernel's first line (on the flag) and a
 * point before each block-level branch or loop whose condition reads a
 * tensor.  Without a
 * usable device (cudaGetDeviceCount fails or finds none) the function
 * returns FT_ERR_NODEVICE before anything else; a later CUDA runtime
 * failure (out of memory, a failed launch) returns FT_ERR_NOMEM.
 */
#include "cg.h"

#include "../transforms/lib_gemm.h"
#include "../runtime/ft_abi.h"
#include "cg_core.h"
#include "cg_desc.h"
#include "cg_sites.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* What a tensor name stands for. */
typedef enum cu_sym_kind {
    CU_SYM_PTR,      /* a pointer to device memory (0-D: read as (*x)) */
    CU_SYM_SCALAR,   /* a 0-D local of a kernel thread: a plain variable */
    CU_SYM_ARRAY,    /* an array or pointer local to a kernel */
} cu_sym_kind;

typedef struct cu_sym {
    const char *name;
    const char *cname;
    ft_dtype dtype;
    int ndim;
    const char **dims;       /* C text of each dimension */
    cu_sym_kind kind;
    int host;                /* declared at host level (a kernel argument) */
    int is_const;            /* an `in` parameter */
} cu_sym;

/* A value of the host passed to every kernel: "int64_t n", "float *x". */
typedef struct cu_hostval {
    const char *decl;        /* the kernel parameter's declaration */
    const char *arg;         /* the launch argument */
} cu_hostval;

/* The block-reduced loop (a thread loop or a flat kernel) being emitted:
 * the reduction it folds, that reduction's per-thread accumulator, the
 * label a failing thread of it jumps to, and how many gotos went there. */
typedef struct cu_red_loop {
    const ast_stmt *red;
    const char *acc, *skip;
    int skips;
} cu_red_loop;

typedef struct cu_emitter {
    ft_ctx *ctx;
    FILE *out;               /* where text goes now */
    FILE *kern;              /* the kernels' definitions */
    int indent;
    int next_id;
    const char *fname;       /* the exported function being emitted */
    const ast_func *func;    /* that function */
    int uses_blas;           /* bit 1 << dtype: an as_lib nest of that dtype was
                                emitted (cuBLAS, ft__gemm_T) */
    ft_vec syms;             /* scope stack of cu_sym * */
    ft_vec hostvals;         /* cu_hostval *, in scope at host level */
    int threads;             /* the kernel being emitted has thread loops */
    int heap;                /* the kernel being emitted mallocs local tensors */
    unsigned active;         /* bit per ast_par: bound indices in use */
    int nkernels;
    unsigned tdims;          /* bit per ast_par: thread indices the kernel binds */
    cu_red_loop rl;          /* the block-reduced loop being emitted, if any */
    int synced;              /* the last line emitted was a barrier (cu_sync) */
    ft_vec dsmem;            /* const char *: bytes of each dynamic shared local of
                              * the kernel being emitted (C text of sizes) */
    cg_sites sites;          /* the module's error sites (cg_sites.h) */
    ft_loc stmt_loc;         /* the statement whose checks are emitted */
    cg_printer pr;           /* the shared expression printer (cg_core.h) */
} cu_emitter;

/* ------------------------------------------------------------ output */

/* Deepest indentation written (as CG_MAX_INDENT in cg_c.c: deeply nested
 * locals would make the text grow with the square of their nesting). */
enum { CU_MAX_INDENT = 40 };

/* Write one indented line. */
static void cu_line(cu_emitter *em, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cu_line(cu_emitter *em, const char *fmt, ...)
{
    va_list ap;
    for (int i = 0; i < em->indent && i < CU_MAX_INDENT; i++)
        fputs("    ", em->out);
    va_start(ap, fmt);
    vfprintf(em->out, fmt, ap);
    va_end(ap);
    fputc('\n', em->out);
    em->synced = 0;
}

/* ------------------------------------------------------------- names */

static const char *const cu_reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true",
    "false", "alignas", "alignof", "nullptr", "static_assert", "thread_local", "asm",
    "main", "class", "namespace", "template", "typename", "this", "new", "delete",
    "operator", "private", "public", "protected", "virtual", "friend", "using", "try",
    "catch", "throw", "explicit", "mutable", "export", "constexpr", "decltype", "noexcept",
    "and", "or", "not", "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq",
    "not_eq", "std", "dim3", "min", "max", "abs", "malloc", "free", "memcpy", "memset",
    "printf", "assert", "NULL", "INFINITY", "NAN", "warpSize", "blockIdx", "threadIdx",
    "blockDim", "gridDim", "half", "signbit", "isnan", "isinf", "isfinite", "errno",
    "exit", "div", "index", "y0", "y1", "yn", "j0", "j1", "jn", "gamma", "log", "exp",
    "sqrt", "sin", "cos", "tan", "tanh", "floor", "ceil", "pow", "fabs", "round", "trunc",
    "fmin", "fmax", "erf", "log1p", "expm1", "rint", "log2", "log10", "exp2", "sinh", "cosh", "atan",
    "atan2", "asin", "acos", "fma", "hypot", "cbrt", "clock", "time",
};

/* Whether a user name cannot be used as a CUDA C++ identifier as it is:
 * keywords, the math library, and the prefixes of CUDA's libraries (the
 * driver API's cu + capital, cudaX, cublasX, ...; not every cu name:
 * `cumsum_rows` or `cube` are free). */
static int cu_is_reserved(const char *s)
{
    static const char *const prefixes[] = {"__", "ft_", "FT_", "cuda", "cublas", "cufft",
                                           "curand", "cusparse", "cusolver", "cudnn", "INT",
                                           "UINT", "SIZE_", "M_", "FLT_", "DBL_", "atomic",
                                           "_", "CUBLAS", "CUDA"};
    size_t n = strlen(s);
    if (n >= 2 && strcmp(s + n - 2, "_t") == 0)
        return 1;
    if (s[0] == 'E' && s[1] >= 'A' && s[1] <= 'Z')
        return 1;
    if (s[0] == 'c' && s[1] == 'u' && s[2] >= 'A' && s[2] <= 'Z')
        return 1;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(s, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    for (size_t i = 0; i < sizeof cu_reserved / sizeof *cu_reserved; i++) {
        size_t m = strlen(cu_reserved[i]);
        if (strncmp(cu_reserved[i], s, m) == 0 && (s[m] == 0 || (s[m] == 'f' && !s[m + 1])))
            return 1;
    }
    return 0;
}

/* The C++ name of a user name ("_ftk" appended to reserved ones, and to
 * names already ending in "_ftk", which keeps the map injective). */
static const char *cu_cname(void *p, const char *name)
{
    cu_emitter *em = p;
    size_t n = strlen(name);
    if ((n >= 4 && strcmp(name + n - 4, "_ftk") == 0) || cu_is_reserved(name))
        return ft_fmt(em->ctx, "%s_ftk", name);
    return name;
}

/* The C++ type of a dtype. */
static const char *cu_ctype(ft_dtype t)
{
    static const char *const names[FT_DTYPE_COUNT] = {
        "bool", "int32_t", "int64_t", "__half", "float", "double"};
    return names[t];
}

/* ------------------------------------------------------------- scope */

/* Push a symbol with ndim dims left for the caller to fill. */
static cu_sym *cu_push_sym(cu_emitter *em, const char *name, ft_dtype t, int ndim,
                           cu_sym_kind kind, int host)
{
    cu_sym *s = ft_alloc(em->ctx, sizeof *s);
    s->name = name;
    s->cname = cu_cname(em, name);
    s->dtype = t;
    s->ndim = ndim;
    s->kind = kind;
    s->host = host;
    s->dims = ndim ? ft_alloc(em->ctx, sizeof *s->dims * (size_t)ndim) : NULL;
    ft_vec_push(em->ctx, &em->syms, s);
    return s;
}

/* The innermost symbol named name, or NULL after an internal error. */
static cu_sym *cu_lookup(cu_emitter *em, const char *name, ft_loc loc)
{
    for (int i = em->syms.len - 1; i >= 0; i--) {
        cu_sym *s = em->syms.items[i];
        if (strcmp(s->name, name) == 0)
            return s;
    }
    ft_error(em->ctx, loc, "internal error: CUDA backend: unknown tensor '%s'", name);
    return NULL;
}

/* Add a host value passed to every kernel launched in its scope. */
static void cu_push_hostval(cu_emitter *em, const char *decl, const char *arg)
{
    cu_hostval *h = ft_alloc(em->ctx, sizeof *h);
    h->decl = decl;
    h->arg = arg;
    ft_vec_push(em->ctx, &em->hostvals, h);
}

/* ------------------------------------------------------------- exprs */

static void cu_expr(cu_emitter *em, const ast_expr *e, int paren);

/* A floating literal of dtype t, read back exactly. */
static void cu_float_lit(void *p, double v, ft_dtype t)
{
    cu_emitter *em = p;
    char buf[64];
    const char *T = cu_ctype(t);
    if (isnan(v) || isinf(v)) {
        fprintf(em->out, "((%s)(%s))", T, isnan(v) ? "NAN" : v > 0 ? "INFINITY" : "-INFINITY");
        return;
    }
    cg_float_digits(buf, v, t);
    if (t == FT_F16)
        fprintf(em->out, "((__half)%sf)", buf);
    else
        fprintf(em->out, v < 0 ? "(%s%s)" : "%s%s", buf, t == FT_F64 ? "" : "f");
}

/* The row-major linear index of idx into sym, Horner form, in int64_t. */
static void cu_linear_index(cu_emitter *em, const cu_sym *sym, int n, ast_expr **idx)
{
    for (int k = 0; k + 2 < n; k++)
        fputc('(', em->out);
    fputs("(int64_t)", em->out);
    cu_expr(em, idx[0], 1);
    for (int k = 1; k < n; k++) {
        const char *d = sym->dims[k];
        fprintf(em->out, cg_is_simple(d) ? " * %s + (int64_t)" : " * (%s) + (int64_t)", d);
        cu_expr(em, idx[k], 1);
        if (k + 1 < n)
            fputc(')', em->out);
    }
}

/* An element of a tensor (lvalue or rvalue). */
static void cu_access(cu_emitter *em, const char *var, int n, ast_expr **idx, ft_loc loc)
{
    cu_sym *sym = cu_lookup(em, var, loc);
    if (!sym || sym->ndim != n) {
        if (sym)
            ft_error(em->ctx, loc, "internal error: CUDA backend: '%s' indexed with %d of "
                     "%d dimensions", var, n, sym->ndim);
        fputs("0", em->out);
        return;
    }
    if (n == 0) {
        fprintf(em->out, sym->kind == CU_SYM_SCALAR ? "%s" : "(*%s)", sym->cname);
        return;
    }
    fprintf(em->out, "%s[", sym->cname);
    cu_linear_index(em, sym, n, idx);
    fputc(']', em->out);
}

/* A call of a helper template of the prelude: ft__NAME<T>(args). */
static void cu_helper(cu_emitter *em, const char *name, ft_dtype t, int n,
                      ast_expr *const *args)
{
    fprintf(em->out, "ft__%s<%s>(", name, cu_ctype(t));
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", em->out);
        cu_expr(em, args[i], 0);
    }
    fputc(')', em->out);
}

/* A math function of dtype t: float versions for f32 and f16, double for
 * f64 and integers, converted back to t. */
static void cu_math(cu_emitter *em, const char *fn, ft_dtype t, int n, ast_expr **args)
{
    int single = t == FT_F32 || t == FT_F16;
    const char *argt = single ? "(float)" : "(double)";
    fprintf(em->out, "((%s)%s%s(", cu_ctype(t), fn, single ? "f" : "");
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", em->out);
        fputs(argt, em->out);
        cu_expr(em, args[i], 1);
    }
    fputs("))", em->out);
}

/* A builtin call. */
static void cu_builtin(void *p, const ast_expr *e)
{
    cu_emitter *em = p;
    static const char *const fns[AST_BUILTIN_COUNT] = {
        "fabs", "sqrt", "exp", "log", "sin", "cos", "tanh", NULL, "floor", "ceil", NULL,
        "tan", "erf", "log1p", "expm1"};
    ft_dtype t = e->dtype;
    ast_builtin f = e->u.call.f;
    int isf = ft_dtype_is_float(t);
    if (f == AST_SQUARE)
        cu_helper(em, "square", t, 1, e->u.call.args);
    else if (f == AST_SIGMOID)
        cu_helper(em, "sigmoid", t, 1, e->u.call.args);
    else if (!isf && (f == AST_FLOOR || f == AST_CEIL || (f == AST_ABS && t == FT_BOOL)))
        cu_expr(em, e->u.call.args[0], 1);
    else if (!isf && f == AST_ABS)
        cu_helper(em, "abs", t, 1, e->u.call.args);
    else
        cu_math(em, fns[f], t, e->u.call.n, e->u.call.args);
}

/* A binary operation with the language's semantics. */
static void cu_binary(void *p, const ast_expr *e, int paren)
{
    cu_emitter *em = p;
    static const char *const ops[AST_BINOP_COUNT] = {
        "+", "-", "*", "/", NULL, NULL, NULL, NULL, NULL,
        "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    static const char *const helpers[AST_BINOP_COUNT] = {
        [AST_FLOORDIV] = "floordiv", [AST_MOD] = "mod", [AST_MIN] = "min", [AST_MAX] = "max"};
    ft_dtype t = e->dtype;
    ast_expr *args[2] = {e->u.bin.a, e->u.bin.b};
    ast_binop op = e->u.bin.op;
    if (helpers[op]) {
        cu_helper(em, helpers[op], t, 2, args);
        return;
    }
    if (op == AST_POW) {
        int two = (args[1]->kind == AST_INT && args[1]->u.ival == 2) ||
                  (args[1]->kind == AST_FLOAT && args[1]->u.fval == 2.0);
        if (two)
            cu_helper(em, "square", t, 1, args);
        else if (ft_dtype_is_float(t))
            cu_math(em, "pow", t, 2, args);
        else
            cu_helper(em, "ipow", t, 2, args);
        return;
    }
    fputs(paren ? "(" : "", em->out);
    cu_expr(em, args[0], 1);
    fprintf(em->out, " %s ", ops[op]);
    cu_expr(em, args[1], 1);
    fputs(paren ? ")" : "", em->out);
}

/* Print load e (the printer's load hook). */
static void cu_load(void *p, const ast_expr *e)
{
    cu_access(p, e->u.load.var, e->u.load.n, e->u.load.idx, e->loc);
}

/* An expression; paren wraps compound ones. */
static void cu_expr(cu_emitter *em, const ast_expr *e, int paren)
{
    cg_print_expr(&em->pr, e, paren);
}

/* An expression as C text (arena-owned). */
static const char *cu_str(cu_emitter *em, const ast_expr *e, int paren)
{
    return cg_print_str(&em->pr, em->ctx, e, paren);
}

/* text as one indented line (the printer's line hook). */
static void cu_text_line(void *p, const char *text)
{
    cu_line(p, "%s", text);
}

/* Set up em's expression printer (cg_core.h) with the CUDA target's hooks. */
static void cu_printer_init(cu_emitter *em)
{
    em->pr = (cg_printer){&em->out, em, cu_load, cu_binary, cu_builtin, cu_float_lit,
                          cu_cname, cu_ctype, cu_text_line};
}

/* ------------------------------------------------------- run-time checks */

/* Store code into the device flag (first one wins) and end the thread:
 * written after an `if (...)`.  In a kernel with thread loops the thread
 * must still reach the block's barriers and shuffles: it records the error
 * in ft__bad instead, which skips its later side effects and thread-level
 * loops, and the block's next barrier votes on it (cu_sync). */
static void cu_fail(cu_emitter *em, cg_failure fl)
{
    const char *rec = ft_fmt(em->ctx, "ft__dfail(ft__derr, %s, %d, %s, %s);", fl.code_name,
                             fl.site, fl.v[0] ? fl.v[0] : "0", fl.v[1] ? fl.v[1] : "0");
    if (em->rl.skip) {
        /* inside a block-reduced loop: the thread only leaves the loop */
        fprintf(em->out, " { %s ft__bad = true; goto %s; }\n", rec, em->rl.skip);
        em->rl.skips++;
        return;
    }
    if (em->threads) {
        fprintf(em->out, " { %s ft__bad = true; }\n", rec);
        return;
    }
    fprintf(em->out, " { %s return; }\n", rec);
}

/* The host's reaction to a failure of the CUDA runtime at loc (what: what
 * failed): record it in the call's record and leave. */
static const char *cu_host_fail(cu_emitter *em, ft_loc loc, const char *what)
{
    cg_failure fl = cg_site_plain(em->ctx, &em->sites, em->func, loc, FT_ERR_NOMEM,
                                  ft_fmt(em->ctx, "CUDA runtime failure: %s", what));
    return ft_fmt(em->ctx, "{ ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, %d, 0, 0); goto ft__end; }",
                  fl.site);
}

/* The text before a check's condition: in a kernel with threads a thread
 * that failed a check already evaluates no more (its indices may be out of
 * range). */
static const char *cu_unless_bad(cu_emitter *em)
{
    return em->threads ? "!ft__bad && " : "";
}

/* A barrier of the block's threads.  In a kernel with threads it is also a
 * vote: when any thread of the block failed a check, every thread leaves
 * the kernel here together (none is left waiting at a later barrier). */
static void cu_sync(cu_emitter *em)
{
    cu_line(em, "if (__syncthreads_or(ft__bad)) return;");
    em->synced = 1;
}

/* Before a block-level branch or loop of a kernel with threads whose
 * condition or bounds read a tensor (loads): the block votes first, so that
 * no thread evaluates them after a failed check (their indices were
 * checked, maybe in vain) and all threads take the same path to the
 * barriers below. */
static void cu_vote_before(cu_emitter *em, int loads, int block_level)
{
    if (em->threads && block_level && loads && !em->synced)
        cu_sync(em);
}

static void cu_checks_expr(cu_emitter *em, const ast_expr *e);

/* Bounds checks of the data-dependent indices of var[idx]. */
static void cu_checks_access(cu_emitter *em, const char *var, int n, ast_expr **idx,
                             ft_loc loc)
{
    cu_sym *sym = cu_lookup(em, var, loc);
    for (int k = 0; sym && k < n && k < sym->ndim; k++) {
        cu_checks_expr(em, idx[k]);
        if (!cg_has_load(idx[k]))
            continue;
        for (int i = 0; i < em->indent && i < CU_MAX_INDENT; i++)
            fputs("    ", em->out);
        const char *d = sym->dims[k];
        const char *x = cu_str(em, idx[k], 1);
        fprintf(em->out, cg_is_simple(d) ? "if (%s(uint64_t)%s >= (uint64_t)%s)"
                                         : "if (%s(uint64_t)%s >= (uint64_t)(%s))",
                cu_unless_bad(em), x, d);
        cg_failure fl = cg_site_index(em->ctx, &em->sites, em->func,
                                      cg_site_access_loc(loc, em->stmt_loc), var, k, idx[k]);
        fl.v[0] = ft_fmt(em->ctx, "(int64_t)%s", x);
        fl.v[1] = ft_fmt(em->ctx, cg_is_simple(d) ? "%s" : "(%s)", d);
        cu_fail(em, fl);
    }
}

/* The checks of every data-dependent index in e.  Indices under a guard
 * (a branch of `a if c else b`, the right of and/or) are not checked:
 * they may legitimately be out of range when the guard is false. */
static void cu_checks_expr(cu_emitter *em, const ast_expr *e)
{
    switch (e->kind) {
    case AST_LOAD: cu_checks_access(em, e->u.load.var, e->u.load.n, e->u.load.idx, e->loc); break;
    case AST_BINARY:
        cu_checks_expr(em, e->u.bin.a);
        if (e->u.bin.op != AST_AND && e->u.bin.op != AST_OR)
            cu_checks_expr(em, e->u.bin.b);
        break;
    case AST_UNARY: cu_checks_expr(em, e->u.un.a); break;
    case AST_CAST: cu_checks_expr(em, e->u.cast.a); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            cu_checks_expr(em, e->u.call.args[i]);
        break;
    case AST_IFEXPR: cu_checks_expr(em, e->u.ife.cond); break;
    default: break;
    }
}

/* The bytes of a tensor of element type T and dims (C texts) as C text;
 * declares the array of dims it needs on a line of its own first. */
static const char *cu_nbytes(cu_emitter *em, int ndim, const char *const *dims, const char *T)
{
    if (!ndim)
        return ft_fmt(em->ctx, "sizeof(%s)", T);
    int id = em->next_id++;
    const char *list = "";
    for (int k = 0; k < ndim; k++)
        list = ft_fmt(em->ctx, "%s%s%s", list, k ? ", " : "", dims[k]);
    cu_line(em, "const int64_t ft__z%d[] = {%s};", id, list);
    return ft_fmt(em->ctx, "ft__nbytes(%d, ft__z%d, sizeof(%s))", ndim, id, T);
}

/* ----------------------------------------------------- device statements */

static void cu_dstmt(cu_emitter *em, const ast_stmt *s, int block_level);

/* Whether a leaf at block level must be guarded to run once per block. */
static int cu_guard_leaf(cu_emitter *em, int block_level)
{
    if (!(block_level && em->threads))
        return 0;
    cu_line(em, "if (ft__tid0) {");
    em->indent++;
    return 1;
}

/* var[idx] = value, or a reduction (atomic when red.atomic is set). */
static void cu_dleaf(cu_emitter *em, const ast_stmt *s, int block_level)
{
    static const char *const ops[] = {"add", "mul", "min", "max"};
    int guarded = cu_guard_leaf(em, block_level);
    int red = s->kind == AST_REDUCE;
    const char *var = red ? s->u.red.var : s->u.store.var;
    int n = red ? s->u.red.n : s->u.store.n;
    ast_expr **idx = red ? s->u.red.idx : s->u.store.idx;
    ast_expr *value = red ? s->u.red.value : s->u.store.value;
    cu_checks_access(em, var, n, idx, s->loc);
    cu_checks_expr(em, value);
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    cu_access(em, var, n, idx, s->loc);
    char *lv = cg_sub_end(&em->out, &sub);
    cu_sym *sym = cu_lookup(em, var, s->loc);
    const char *T = sym ? cu_ctype(sym->dtype) : "float";
    const char *v = cu_str(em, value, 0);
    if (em->threads)   /* a thread that failed a check writes nothing more */
        cu_line(em, "if (!ft__bad)");
    if (em->threads)
        em->indent++;
    if (red && em->rl.red && strcmp(var, em->rl.red->u.red.var) == 0)
        cu_line(em, "%s = ft__op_%s()(%s, (%s)(%s));", em->rl.acc, ops[s->u.red.op],
                em->rl.acc, T, v);
    else if (!red)
        cu_line(em, "%s = %s;", lv, v);
    else if (s->u.red.atomic)
        cu_line(em, "ft__atomic_%s<%s>(&%s, (%s)(%s));", ops[s->u.red.op], T, lv, T, v);
    else if (s->u.red.op <= AST_RED_MUL)
        cu_line(em, "%s = (%s)(%s %s (%s));", lv, T, lv, s->u.red.op == AST_RED_ADD ? "+" : "*",
                v);
    else
        cu_line(em, "%s = ft__%s<%s>(%s, %s);", lv, ops[s->u.red.op], T, lv, v);
    if (em->threads)
        em->indent--;
    free(lv);
    if (guarded) {
        em->indent--;
        cu_line(em, "}");
    }
}

/* The names a statement writes (writes) and reads (reads), not counting
 * tensors declared inside it. */
static void cu_names_expr(cu_emitter *em, const ast_expr *e, ft_vec *reads)
{
    if (!e)
        return;
    switch (e->kind) {
    case AST_LOAD:
        ft_vec_push(em->ctx, reads, (void *)e->u.load.var);
        for (int i = 0; i < e->u.load.n; i++)
            cu_names_expr(em, e->u.load.idx[i], reads);
        break;
    case AST_BINARY: cu_names_expr(em, e->u.bin.a, reads); cu_names_expr(em, e->u.bin.b, reads); break;
    case AST_UNARY: cu_names_expr(em, e->u.un.a, reads); break;
    case AST_CAST: cu_names_expr(em, e->u.cast.a, reads); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            cu_names_expr(em, e->u.call.args[i], reads);
        break;
    case AST_IFEXPR:
        cu_names_expr(em, e->u.ife.cond, reads);
        cu_names_expr(em, e->u.ife.then, reads);
        cu_names_expr(em, e->u.ife.other, reads);
        break;
    default: break;
    }
}

/* See cu_names_expr; statements. */
static void cu_names(cu_emitter *em, const ast_stmt *s, ft_vec *writes, ft_vec *reads)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cu_names(em, s->u.seq.stmts[i], writes, reads);
        break;
    case AST_VARDEF:
        /* names declared here are local to s: a later, unrelated local of
         * the same name would only add a harmless barrier */
        for (int k = 0; k < s->u.def.ndim; k++)
            cu_names_expr(em, s->u.def.shape[k], reads);
        cu_names(em, s->u.def.body, writes, reads);
        break;
    case AST_FOR:
        cu_names_expr(em, s->u.loop.begin, reads);
        cu_names_expr(em, s->u.loop.end, reads);
        cu_names_expr(em, s->u.loop.step, reads);
        cu_names(em, s->u.loop.body, writes, reads);
        break;
    case AST_IF:
        cu_names_expr(em, s->u.branch.cond, reads);
        cu_names(em, s->u.branch.then, writes, reads);
        cu_names(em, s->u.branch.other, writes, reads);
        break;
    case AST_STORE:
        ft_vec_push(em->ctx, writes, (void *)s->u.store.var);
        for (int i = 0; i < s->u.store.n; i++)
            cu_names_expr(em, s->u.store.idx[i], reads);
        cu_names_expr(em, s->u.store.value, reads);
        break;
    case AST_REDUCE:
        ft_vec_push(em->ctx, writes, (void *)s->u.red.var);
        ft_vec_push(em->ctx, reads, (void *)s->u.red.var);
        for (int i = 0; i < s->u.red.n; i++)
            cu_names_expr(em, s->u.red.idx[i], reads);
        cu_names_expr(em, s->u.red.value, reads);
        break;
    case AST_ASSERT: cu_names_expr(em, s->u.cond, reads); break;
    case AST_EVAL: cu_names_expr(em, s->u.expr, reads); break;
    }
}

/* Whether a name of a is in b. */
static int cu_meet(const ft_vec *a, const ft_vec *b)
{
    for (int i = 0; i < a->len; i++)
        for (int j = 0; j < b->len; j++)
            if (strcmp(a->items[i], b->items[j]) == 0)
                return 1;
    return 0;
}

/* The accesses of the block-level statements since the last barrier. */
typedef struct cu_window {
    ft_vec writes, reads;
} cu_window;

/* Whether s conflicts with the window: one writes what the other reads
 * or writes (the dependence then crosses threads). */
static int cu_conflicts(cu_emitter *em, const cu_window *w, const ast_stmt *s)
{
    ft_vec wr = {0}, rd = {0};
    cu_names(em, s, &wr, &rd);
    return cu_meet(&wr, &w->writes) || cu_meet(&wr, &w->reads) || cu_meet(&rd, &w->writes);
}

/* A sequence; at block level of a kernel with threads, barriers where a
 * statement depends on an earlier one since the last barrier. */
static void cu_dseq(cu_emitter *em, const ast_stmt *s, int block_level)
{
    cu_window w = {{0}, {0}};
    for (int i = 0; i < s->u.seq.n; i++) {
        const ast_stmt *c = s->u.seq.stmts[i];
        if (block_level && em->threads) {
            if (cu_conflicts(em, &w, c)) {
                cu_sync(em);
                w.writes.len = w.reads.len = 0;
            }
            cu_names(em, c, &w.writes, &w.reads);
        }
        cu_dstmt(em, c, block_level);
    }
}

static int cu_names_host(cu_emitter *em, const ast_expr *e);

/* A shared local of a size known at launch only (its dims name host values
 * only): a pointer into the kernel's dynamic shared memory, at the sum of
 * the sizes of the kernel's dynamic shared locals before it (each rounded
 * up to 16 bytes, ft__dsz); cu_bound_kernel sizes the launch with the sum
 * of all.  0 when a dim reads a value the host does not have. */
static int cu_dyn_shared(cu_emitter *em, const ast_stmt *s, cu_sym *sym, const char *T)
{
    for (int k = 0; k < s->u.def.ndim; k++)
        if (!cu_names_host(em, s->u.def.shape[k]))
            return 0;
    const char *elems = "1";
    for (int k = 0; k < sym->ndim; k++) {
        sym->dims[k] = cu_str(em, s->u.def.shape[k], 0);
        elems = ft_fmt(em->ctx, k ? "%s * ft__max<int64_t>(0, %s)" : "ft__max<int64_t>(0, %s)",
                       k ? elems : sym->dims[k], sym->dims[k]);
    }
    const char *off = "0";
    for (int i = 0; i < em->dsmem.len; i++)
        off = i ? ft_fmt(em->ctx, "%s + %s", off, (const char *)em->dsmem.items[i])
                : (const char *)em->dsmem.items[i];
    ft_vec_push(em->ctx, &em->dsmem,
                (void *)ft_fmt(em->ctx, "ft__dsz(sizeof(%s), %s)", T, elems));
    cu_line(em, "extern __shared__ __align__(16) unsigned char ft__dsmem[];");
    cu_line(em, "%s *const %s = (%s *)(ft__dsmem + %s);", T, sym->cname, T, off);
    return 1;
}

/* A local of a kernel: a register, a per-thread array, a __shared__ array
 * (gpu/shared, or any local at block level of a kernel with threads; in
 * dynamic shared memory when its size is known at launch only), or a
 * device-heap buffer freed at the end of its scope. */
static void cu_dvardef(cu_emitter *em, const ast_stmt *s, int block_level)
{
    if (s->u.def.mtype == FT_MT_GPU_SHARED && em->threads && !block_level) {
        /* a __shared__ array is one per block: the loop's threads would
         * write one array that the program gives each iteration its own of */
        ft_error(em->ctx, s->loc, "'%s' is gpu/shared but declared inside a thread loop: "
                 "shared memory is one array per block, which the loop's threads would share "
                 "while each iteration has its own '%s'; declare it outside the thread loops "
                 "(at block level) or use gpu/local", s->u.def.name, s->u.def.name);
        return;
    }
    const char *T = cu_ctype(s->u.def.dtype);
    int shared = s->u.def.mtype == FT_MT_GPU_SHARED || (block_level && em->threads);
    int64_t n = cg_const_elems(s);
    cu_line(em, "{");
    em->indent++;
    int nsyms = em->syms.len;
    cu_sym *sym = cu_push_sym(em, s->u.def.name, s->u.def.dtype, s->u.def.ndim,
                              CU_SYM_ARRAY, 0);
    const char *heap = NULL;
    if (shared && n < 0 && !cu_dyn_shared(em, s, sym, T))
        ft_unsupported(em->ctx, s->loc, "a gpu/shared or block-level local of a size not "
                       "known at the kernel's launch");
    if (shared && n < 0) {
        /* declared by cu_dyn_shared */
    } else if (shared) {
        for (int k = 0; k < sym->ndim; k++)
            sym->dims[k] = cu_str(em, s->u.def.shape[k], 0);
        cu_line(em, "__shared__ %s %s[%" PRId64 "];", T, sym->cname, n > 0 ? n : 1);
    } else if (s->u.def.ndim == 0) {
        sym->kind = CU_SYM_SCALAR;
        cu_line(em, "%s %s = 0;", T, sym->cname);
    } else if (n >= 0 && n * cg_dtype_size(s->u.def.dtype) <= 4096) {
        for (int k = 0; k < sym->ndim; k++)
            sym->dims[k] = cu_str(em, s->u.def.shape[k], 0);
        cu_line(em, "%s %s[%" PRId64 "];", T, sym->cname, n > 0 ? n : 1);
    } else {
        int id = em->next_id++;
        heap = ft_fmt(em->ctx, "ft__h%d", id);
        for (int k = 0; k < sym->ndim; k++) {
            cu_checks_expr(em, s->u.def.shape[k]);
            cu_line(em, "const int64_t ft__d%d_%d = %s;", id, k, cu_str(em, s->u.def.shape[k], 0));
            sym->dims[k] = ft_fmt(em->ctx, "ft__d%d_%d", id, k);
        }
        const char *bytes = cu_nbytes(em, sym->ndim, sym->dims, T);
        cu_line(em, "%s *%s = (%s *)malloc(%s);", T, sym->cname, T, bytes);
        em->heap = 1;
        for (int i = 0; i < em->indent && i < CU_MAX_INDENT; i++)
            fputs("    ", em->out);
        fprintf(em->out, "if (!%s)", sym->cname);
        cg_failure fl = cg_site_nomem(em->ctx, &em->sites, em->func, s->loc,
                                      ft_fmt(em->ctx, "local tensor `%s`", s->u.def.name));
        fl.v[0] = ft_fmt(em->ctx, "(int64_t)(%s)", bytes);
        cu_fail(em, fl);
        heap = sym->cname;
    }
    cu_dstmt(em, s->u.def.body, block_level);
    if (heap)
        cu_line(em, "free(%s);", heap);
    em->syms.len = nsyms;
    em->indent--;
    cu_line(em, "}");
}

/* --------------------------------------------- block-wide reductions */

static int cu_is_bound(ast_par par);


/* Collect the names of the scalars (AST_VAR) that e reads. */
static void cu_vars_expr(cu_emitter *em, const ast_expr *e, ft_vec *out)
{
    if (!e)
        return;
    switch (e->kind) {
    case AST_VAR: ft_vec_push(em->ctx, out, (void *)e->u.name); break;
    case AST_LOAD:
        for (int i = 0; i < e->u.load.n; i++)
            cu_vars_expr(em, e->u.load.idx[i], out);
        break;
    case AST_BINARY: cu_vars_expr(em, e->u.bin.a, out); cu_vars_expr(em, e->u.bin.b, out); break;
    case AST_UNARY: cu_vars_expr(em, e->u.un.a, out); break;
    case AST_CAST: cu_vars_expr(em, e->u.cast.a, out); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            cu_vars_expr(em, e->u.call.args[i], out);
        break;
    case AST_IFEXPR:
        cu_vars_expr(em, e->u.ife.cond, out);
        cu_vars_expr(em, e->u.ife.then, out);
        cu_vars_expr(em, e->u.ife.other, out);
        break;
    default: break;
    }
}

/* What a thread loop's body does to the candidate reduction target. */
typedef struct cu_red_scan {
    const ast_stmt *first;   /* the first atomic reduction found */
    ft_vec inner;            /* iterators and locals declared in the loop */
    int bad;                 /* the loop cannot be block-reduced */
} cu_red_scan;

/* Whether two reductions hit the same element with the same operator. */
static int cu_same_red(const ast_stmt *a, const ast_stmt *b)
{
    if (a->u.red.op != b->u.red.op || a->u.red.n != b->u.red.n ||
        strcmp(a->u.red.var, b->u.red.var) != 0)
        return 0;
    for (int i = 0; i < a->u.red.n; i++)
        if (!ast_expr_equal(a->u.red.idx[i], b->u.red.idx[i]))
            return 0;
    return 1;
}

/* Pass 1: find the reductions of s; every one must be an atomic reduction
 * of one element, with one operator, at indices that read no tensor. */
static void cu_red_find(cu_emitter *em, const ast_stmt *s, cu_red_scan *sc)
{
    if (!s || sc->bad)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cu_red_find(em, s->u.seq.stmts[i], sc);
        break;
    case AST_VARDEF:
        ft_vec_push(em->ctx, &sc->inner, (void *)s->u.def.name);
        cu_red_find(em, s->u.def.body, sc);
        break;
    case AST_FOR:
        if (cu_is_bound(s->u.loop.par))
            sc->bad = 1;
        ft_vec_push(em->ctx, &sc->inner, (void *)s->u.loop.iter);
        cu_red_find(em, s->u.loop.body, sc);
        break;
    case AST_IF:
        cu_red_find(em, s->u.branch.then, sc);
        cu_red_find(em, s->u.branch.other, sc);
        break;
    case AST_REDUCE:
        if (!s->u.red.atomic)
            break;
        if (!sc->first)
            sc->first = s;
        else if (!cu_same_red(sc->first, s))
            sc->bad = 1;
        for (int i = 0; i < s->u.red.n; i++)
            if (cg_has_load(s->u.red.idx[i]))
                sc->bad = 1;
        break;
    default: break;
    }
}

/* Pass 2: the names s writes and reads, not counting the target's
 * reductions like r themselves (their indices and values do count). */
static void cu_red_uses(cu_emitter *em, const ast_stmt *s, const ast_stmt *r, ft_vec *wr,
                        ft_vec *rd)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cu_red_uses(em, s->u.seq.stmts[i], r, wr, rd);
        break;
    case AST_VARDEF:
        for (int k = 0; k < s->u.def.ndim; k++)
            cu_names_expr(em, s->u.def.shape[k], rd);
        cu_red_uses(em, s->u.def.body, r, wr, rd);
        break;
    case AST_FOR:
        cu_names_expr(em, s->u.loop.begin, rd);
        cu_names_expr(em, s->u.loop.end, rd);
        cu_names_expr(em, s->u.loop.step, rd);
        cu_red_uses(em, s->u.loop.body, r, wr, rd);
        break;
    case AST_IF:
        cu_names_expr(em, s->u.branch.cond, rd);
        cu_red_uses(em, s->u.branch.then, r, wr, rd);
        cu_red_uses(em, s->u.branch.other, r, wr, rd);
        break;
    case AST_REDUCE:
        if (s->u.red.atomic && cu_same_red(r, s)) {
            for (int i = 0; i < s->u.red.n; i++)
                cu_names_expr(em, s->u.red.idx[i], rd);
            cu_names_expr(em, s->u.red.value, rd);
            break;
        }
        cu_names(em, s, wr, rd);
        break;
    default: cu_names(em, s, wr, rd); break;
    }
}

/* The reductions of loop s's body that can become one per-thread partial
 * plus a block-wide reduction, or NULL: every reduction the loop's threads
 * may collide on (the atomic ones) hits one element, with one operator,
 * at indices fixed for the whole loop, and the body neither reads nor
 * stores that tensor otherwise; no bound loop is inside. */
static const ast_stmt *cu_red_site(cu_emitter *em, const ast_stmt *s)
{
    cu_red_scan sc = {0};
    ft_vec_push(em->ctx, &sc.inner, (void *)s->u.loop.iter);
    cu_red_find(em, s->u.loop.body, &sc);
    if (sc.bad || !sc.first || sc.first->u.red.op > AST_RED_MAX)
        return NULL;
    const ast_stmt *r = sc.first;
    cu_sym *sym = cu_lookup(em, r->u.red.var, r->loc);
    if (!sym || sym->dtype == FT_BOOL)
        return NULL;
    for (int i = 0; i < sc.inner.len; i++)
        if (strcmp(sc.inner.items[i], r->u.red.var) == 0)
            return NULL;
    ft_vec vars = {0};
    for (int i = 0; i < r->u.red.n; i++)
        cu_vars_expr(em, r->u.red.idx[i], &vars);
    for (int i = 0; i < vars.len; i++)
        for (int j = 0; j < sc.inner.len; j++)
            if (strcmp(vars.items[i], sc.inner.items[j]) == 0)
                return NULL;
    /* a store to the target, or a read of it, other than the reductions */
    ft_vec wr = {0}, rd = {0};
    cu_red_uses(em, s->u.loop.body, r, &wr, &rd);
    for (int i = 0; i < wr.len; i++)
        if (strcmp(wr.items[i], r->u.red.var) == 0)
            return NULL;
    for (int i = 0; i < rd.len; i++)
        if (strcmp(rd.items[i], r->u.red.var) == 0)
            return NULL;
    return r;
}

/* Declare the accumulator and scratch of block-reduced loop id (reducing
 * r): every thread starts from the operator's identity. */
static void cu_red_open(cu_emitter *em, const ast_stmt *r, int id)
{
    cu_sym *sym = cu_lookup(em, r->u.red.var, r->loc);
    const char *T = cu_ctype(sym ? sym->dtype : FT_F32);
    cu_line(em, "%s ft__r%d = ft__red_init<%s>(%d);", T, id, T, (int)r->u.red.op);
    cu_line(em, "__shared__ %s ft__w%d[32];", T, id);
}

/* The state of block-reduced loop id, reducing r (cu_red_open's names). */
static cu_red_loop cu_red_loop_of(cu_emitter *em, const ast_stmt *r, int id)
{
    return (cu_red_loop){r, ft_fmt(em->ctx, "ft__r%d", id), ft_fmt(em->ctx, "ft__rdone%d", id),
                         0};
}

/* After block-reduced loop id: the threads' partials reduced over the
 * block (warp shuffles, then the warps' results through shared memory),
 * and thread 0 folds the total into the element (atomically for device
 * memory, which other blocks may reduce into too). */
static void cu_red_close(cu_emitter *em, const ast_stmt *r, int id, int skips)
{
    static const char *const ops[] = {"add", "mul", "min", "max"};
    cu_sym *sym = cu_lookup(em, r->u.red.var, r->loc);
    const char *T = cu_ctype(sym ? sym->dtype : FT_F32);
    const char *op = ops[r->u.red.op];
    if (skips)
        cu_line(em, "ft__rdone%d: ;", id);
    cu_line(em, "ft__r%d = ft__block_reduce<%s>(ft__r%d, ft__op_%s(), ft__w%d);", id, T, id, op,
            id);
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    cu_access(em, r->u.red.var, r->u.red.n, r->u.red.idx, r->loc);
    char *lv = cg_sub_end(&em->out, &sub);
    if (sym && sym->kind == CU_SYM_PTR)
        cu_line(em, "if (ft__tid0) ft__atomic_%s<%s>(&%s, ft__r%d);", op, T, lv, id);
    else
        cu_line(em, "if (ft__tid0) %s = ft__op_%s()(%s, ft__r%d);", lv, op, lv, id);
    free(lv);
}

/* The bit of binding par in em->active. */
static unsigned cu_bit(ast_par par)
{
    return 1u << par;
}

/* Whether par binds a CUDA index. */
static int cu_is_bound(ast_par par)
{
    return par >= AST_BLOCK_X && par <= AST_THREAD_Z;
}

/* The CUDA expressions of a binding: index and count ("threadIdx.x",
 * "blockDim.x"). */
static void cu_index_names(ast_par par, const char **idx, const char **count)
{
    static const char *const idxs[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z",
                                       "threadIdx.x", "threadIdx.y", "threadIdx.z"};
    static const char *const counts[] = {"gridDim.x", "gridDim.y", "gridDim.z",
                                         "blockDim.x", "blockDim.y", "blockDim.z"};
    *idx = idxs[par - AST_BLOCK_X];
    *count = counts[par - AST_BLOCK_X];
}

/* The first iteration of a thread of a loop bound to par (CUDA index idx):
 * the index itself, but past the end (no iteration) for the threads whose
 * index is not 0 in another thread dimension that the kernel binds and no
 * enclosing loop uses here; else those threads would all run the loop
 * (stores repeated, reductions counted blockDim.y times). */
static const char *cu_thread_start(cu_emitter *em, ast_par par, const char *idx, int id)
{
    static const char *const tidx[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};
    if (par < AST_THREAD_X)
        return idx;
    const char *cond = NULL;
    for (int e = AST_THREAD_X; e <= AST_THREAD_Z; e++) {
        if ((ast_par)e == par || !(em->tdims & cu_bit((ast_par)e)) ||
            (em->active & cu_bit((ast_par)e)))
            continue;
        const char *c = ft_fmt(em->ctx, "%s == 0", tidx[e - AST_THREAD_X]);
        cond = cond ? ft_fmt(em->ctx, "%s && %s", cond, c) : c;
    }
    if (!cond)
        return idx;
    return ft_fmt(em->ctx, "(%s ? (int64_t)%s : ft__n%d)", cond, idx, id);
}

/* A loop inside a kernel: a stride loop over its CUDA index when bound to
 * one not in use yet, else serial. */
static void cu_dfor(cu_emitter *em, const ast_stmt *s, int block_level)
{
    ast_par par = s->u.loop.par;
    int bound = cu_is_bound(par) && !(em->active & cu_bit(par));
    const char *it = cu_cname(em, s->u.loop.iter);
    int id = em->next_id++;
    cu_checks_expr(em, s->u.loop.begin);
    cu_checks_expr(em, s->u.loop.end);
    if (s->u.loop.step)
        cu_checks_expr(em, s->u.loop.step);
    const char *step = s->u.loop.step ? cu_str(em, s->u.loop.step, 0) : "1";
    int loads = cg_has_load(s->u.loop.begin) || cg_has_load(s->u.loop.end) ||
                (s->u.loop.step && cg_has_load(s->u.loop.step));
    cu_vote_before(em, loads, block_level);
    /* a thread that failed a check runs no thread-level loop (no barrier
     * lies inside one): none when it failed before, none further when it
     * fails inside */
    int skip_bad = em->threads && !block_level;
    const char *guard = skip_bad && loads ? "ft__bad ? 0 : " : "";
    cu_line(em, "{");
    em->indent++;
    cu_line(em, "const int64_t ft__b%d = %s%s;", id, guard, cu_str(em, s->u.loop.begin, 0));
    cu_line(em, "const int64_t ft__s%d = %s%s;", id, guard, step);
    cu_line(em, "const int64_t ft__n%d = %sft__trip(ft__b%d, %s, ft__s%d);", id, guard, id,
            cu_str(em, s->u.loop.end, 0), id);
    skip_bad |= em->threads && bound && par >= AST_THREAD_X;
    const char *more = skip_bad ? " && !ft__bad" : "";
    const ast_stmt *red = NULL;
    if (bound && par == AST_THREAD_X && block_level && em->threads)
        red = cu_red_site(em, s);
    if (red)
        cu_red_open(em, red, id);
    if (bound) {
        const char *idx, *count;
        cu_index_names(par, &idx, &count);
        const char *start = cu_thread_start(em, par, idx, id);
        cu_line(em, "for (int64_t ft__k%d = %s; ft__k%d < ft__n%d%s; ft__k%d += %s) {", id,
                start, id, id, more, id, count);
    } else {
        cu_line(em, "for (int64_t ft__k%d = 0; ft__k%d < ft__n%d%s; ft__k%d++) {", id, id, id,
                more, id);
    }
    em->indent++;
    cu_line(em, "const int64_t %s = (int64_t)((uint64_t)ft__b%d + (uint64_t)ft__k%d * (uint64_t)ft__s%d);",
            it, id, id, id);
    unsigned saved = em->active;
    if (bound)
        em->active |= cu_bit(par);
    int thread = bound && par >= AST_THREAD_X;
    int inner_block = block_level && !thread;
    cu_red_loop saved_rl = em->rl;
    if (red)
        em->rl = cu_red_loop_of(em, red, id);
    cu_dstmt(em, s->u.loop.body, inner_block);
    int skips = em->rl.skips;
    em->rl = saved_rl;
    em->active = saved;
    if (inner_block && em->threads) {
        /* the next iteration may touch what this one wrote, in other threads */
        ft_vec wr = {0}, rd = {0};
        cu_names(em, s->u.loop.body, &wr, &rd);
        if ((bound && par < AST_THREAD_X) || wr.len)
            cu_sync(em);
    }
    em->indent--;
    cu_line(em, "}");
    if (red)
        cu_red_close(em, red, id, skips);
    em->indent--;
    cu_line(em, "}");
}

/* One statement of device code; block_level: outside every thread loop. */
static void cu_dstmt_at(cu_emitter *em, const ast_stmt *s, int block_level);

/* Emit statement s of a kernel (cu_dstmt_at), its location the one its
 * checks report. */
static void cu_dstmt(cu_emitter *em, const ast_stmt *s, int block_level)
{
    if (!s)
        return;
    ft_loc saved = em->stmt_loc;
    em->stmt_loc = s->loc;
    cu_dstmt_at(em, s, block_level);
    em->stmt_loc = saved;
}

/* The statement s itself (s is not NULL). */
static void cu_dstmt_at(cu_emitter *em, const ast_stmt *s, int block_level)
{
    if (s->label) {
        int synced = em->synced;   /* a comment between does not count */
        cu_line(em, "/* %s: */", s->label);
        em->synced = synced;
    }
    switch (s->kind) {
    case AST_SEQ: cu_dseq(em, s, block_level); break;
    case AST_VARDEF: cu_dvardef(em, s, block_level); break;
    case AST_FOR: cu_dfor(em, s, block_level); break;
    case AST_IF:
        cu_checks_expr(em, s->u.branch.cond);
        cu_vote_before(em, cg_has_load(s->u.branch.cond), block_level);
        cu_line(em, "if (%s%s) {", block_level ? "" : cu_unless_bad(em),
                cu_str(em, s->u.branch.cond, 0));
        em->indent++;
        cu_dstmt(em, s->u.branch.then, block_level);
        em->indent--;
        if (s->u.branch.other) {
            cu_line(em, "} else {");
            em->indent++;
            cu_dstmt(em, s->u.branch.other, block_level);
            em->indent--;
        }
        cu_line(em, "}");
        break;
    case AST_STORE: case AST_REDUCE: cu_dleaf(em, s, block_level); break;
    case AST_ASSERT: {
        int guarded = cu_guard_leaf(em, block_level);
        cu_checks_expr(em, s->u.cond);
        for (int i = 0; i < em->indent && i < CU_MAX_INDENT; i++)
            fputs("    ", em->out);
        fprintf(em->out, "if (%s!%s)", cu_unless_bad(em), cu_str(em, s->u.cond, 1));
        const ast_expr *side[2];
        cg_failure fl = cg_site_assert(em->ctx, &em->sites, em->func, s, &side[0], &side[1]);
        for (int i = 0; i < 2; i++) {
            int kind;
            if (side[i])
                fl.v[i] = cg_site_value(em->ctx, cu_str(em, side[i], 0), side[i]->dtype, &kind);
        }
        cu_fail(em, fl);
        if (guarded) {
            em->indent--;
            cu_line(em, "}");
        }
        break;
    }
    case AST_EVAL:
        cu_checks_expr(em, s->u.expr);
        cu_line(em, "%s(void)%s;", em->threads ? "if (!ft__bad) " : "", cu_str(em, s->u.expr, 1));
        break;
    }
}

/* ---------------------------------------------------------------- kernels */

/* Whether a loop under s (s included) is bound to an index (which) or
 * openmp (which == -1: any of them). */
static int cu_has_binding(const ast_stmt *s, int which)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (cu_has_binding(s->u.seq.stmts[i], which))
                return 1;
        return 0;
    case AST_VARDEF: return cu_has_binding(s->u.def.body, which);
    case AST_IF:
        return cu_has_binding(s->u.branch.then, which) ||
               cu_has_binding(s->u.branch.other, which);
    case AST_FOR: {
        ast_par p = s->u.loop.par;
        int hit = which < 0 ? (p == AST_OPENMP || cu_is_bound(p) || p == AST_LIB)
                            : (int)p == which;
        return hit || cu_has_binding(s->u.loop.body, which);
    }
    default: return 0;
    }
}

/* Whether e can be evaluated on the host (reads no tensor, names only
 * host values). */
static int cu_host_expr(const ast_expr *e)
{
    return !cg_has_load(e);
}

/* The name a host value's declaration declares ("x" of "const float *x"). */
static const char *cu_hostval_name(const cu_hostval *h)
{
    const char *sp = strrchr(h->decl, ' ');
    const char *n = sp ? sp + 1 : h->decl;
    return *n == '*' ? n + 1 : n;
}

/* Whether host value i is shadowed by a later one of the same name (an
 * inner local tensor named like an outer one). */
static int cu_hostval_shadowed(cu_emitter *em, int i)
{
    const char *n = cu_hostval_name(em->hostvals.items[i]);
    for (int j = i + 1; j < em->hostvals.len; j++)
        if (strcmp(n, cu_hostval_name(em->hostvals.items[j])) == 0)
            return 1;
    return 0;
}

/* The kernel's parameter list and the launch's argument list. */
static void cu_kernel_params(cu_emitter *em, const char **params, const char **args)
{
    char *pb, *ab;
    size_t pl, al;
    FILE *p = open_memstream(&pb, &pl), *a = open_memstream(&ab, &al);
    fputs("int *ft__derr", p);
    fputs("ft__derr", a);
    for (int i = 0; i < em->hostvals.len; i++) {
        cu_hostval *h = em->hostvals.items[i];
        if (cu_hostval_shadowed(em, i))
            continue;
        fprintf(p, ", %s", h->decl);
        fprintf(a, ", %s", h->arg);
    }
    fclose(p);
    fclose(a);
    *params = ft_strdup(em->ctx, pb);
    *args = ft_strdup(em->ctx, ab);
    free(pb);
    free(ab);
}

/* Emit the body of a kernel into em->kern (as a __global__ function named
 * ft__k<fname>_<id>, with extra parameters extra) by body(em, arg). */
static void cu_kernel_def(cu_emitter *em, int id, const char *extra,
                          void (*body)(cu_emitter *, const void *), const void *arg)
{
    const char *params, *args;
    cu_kernel_params(em, &params, &args);
    FILE *saved = em->out;
    int saved_indent = em->indent;
    em->out = em->kern;
    em->indent = 1;
    fprintf(em->out, "__global__ void ft__k%s_%d(%s%s)\n{\n", em->fname, id, params, extra);
    if (em->threads) {
        /* every thread of a block leaves here or none (cu_sync) */
        cu_line(em, "if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;");
        cu_line(em, "bool ft__bad = false;   /* this thread failed a check */");
        cu_line(em, "const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && "
                "threadIdx.z == 0;");
        cu_line(em, "(void)ft__tid0;");
    } else {
        cu_line(em, "if (*(volatile int *)ft__derr) return;");
    }
    em->heap = 0;
    body(em, arg);
    fputs("}\n\n", em->out);
    em->out = saved;
    em->indent = saved_indent;
    if (em->heap)   /* before its launch: device malloc's heap is 8 MiB by default */
        cu_line(em, "ft__heap_reserve();");
}

/* The body of a single-thread kernel: statements from..to-1 of seq s (or
 * s itself when it is not a sequence). */
typedef struct cu_run {
    const ast_stmt *s;
    int from, to;
} cu_run;

static void cu_serial_body(cu_emitter *em, const void *arg)
{
    const cu_run *r = arg;
    if (r->s->kind != AST_SEQ) {
        cu_dstmt(em, r->s, 0);
        return;
    }
    for (int i = r->from; i < r->to; i++)
        cu_dstmt(em, r->s->u.seq.stmts[i], 0);
}

/* Launch a single-thread kernel running r. */
static void cu_serial_kernel(cu_emitter *em, const cu_run *r)
{
    int id = em->nkernels++;
    em->threads = 0;
    em->active = 0;
    cu_kernel_def(em, id, "", cu_serial_body, r);
    const char *params, *args;
    cu_kernel_params(em, &params, &args);
    cu_line(em, "ft__k%s_%d<<<1, 1>>>(%s);", em->fname, id, args);
}

/* A flat kernel: its loop, and the reduction of its body that becomes
 * per-thread partials folded by a block-wide reduction (NULL: none). */
typedef struct cu_flat {
    const ast_stmt *s, *red;
    int id;
} cu_flat;

/* The body of a flat (openmp) kernel: a grid-stride loop over the trip
 * count ft__n.  With a reduction (cu_red_site: one element, one operator,
 * fixed for the loop) each thread accumulates in a register and the block
 * folds its total into the element once, instead of an atomic for every
 * iteration: 2,000,003 atomic adds into one float summed as badly as one
 * thread in order (relative error 9e-4) and serialised on the address. */
static void cu_flat_body(cu_emitter *em, const void *arg)
{
    const cu_flat *f = arg;
    const ast_stmt *s = f->s;
    cu_red_loop saved_rl = em->rl;
    if (f->red) {
        cu_red_open(em, f->red, f->id);
        em->rl = cu_red_loop_of(em, f->red, f->id);
    }
    cu_line(em, "for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
            "ft__k < ft__n;");
    cu_line(em, "     ft__k += (int64_t)gridDim.x * blockDim.x) {");
    em->indent++;
    cu_line(em, "const int64_t %s = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);",
            cu_cname(em, s->u.loop.iter));
    cu_dstmt(em, s->u.loop.body, 0);
    em->indent--;
    cu_line(em, "}");
    if (f->red)
        cu_red_close(em, f->red, f->id, em->rl.skips);
    em->rl = saved_rl;
}

/* Launch a flat kernel for an openmp loop with host-evaluable bounds (a
 * kernel with a block-wide reduction runs as one with threads: ft__bad,
 * ft__tid0, a block-wide vote on the error flag). */
static void cu_flat_kernel(cu_emitter *em, const ast_stmt *s)
{
    int id = em->nkernels++;
    cu_flat f = {s, cu_red_site(em, s), id};
    em->threads = f.red != NULL;
    em->active = 0;
    cu_kernel_def(em, id, ", int64_t ft__b, int64_t ft__s, int64_t ft__n", cu_flat_body, &f);
    em->threads = 0;
    const char *params, *args;
    cu_kernel_params(em, &params, &args);
    const char *step = s->u.loop.step ? cu_str(em, s->u.loop.step, 0) : "1";
    cu_line(em, "{");
    em->indent++;
    cu_line(em, "const int64_t ft__b = %s, ft__s = %s;", cu_str(em, s->u.loop.begin, 0), step);
    cu_line(em, "const int64_t ft__n = ft__trip(ft__b, %s, ft__s);", cu_str(em, s->u.loop.end, 0));
    cu_line(em, "if (ft__n > 0)");
    cu_line(em, "    ft__k%s_%d<<<ft__blocks(ft__n, 256), 256>>>(%s, ft__b, ft__s, ft__n);",
            em->fname, id, args);
    em->indent--;
    cu_line(em, "}");
}

/* Collect the bound loops of a kernel (not through a loop already bound
 * to the same index). */
static void cu_bound_loops(cu_emitter *em, const ast_stmt *s, unsigned active, ft_vec *out)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cu_bound_loops(em, s->u.seq.stmts[i], active, out);
        break;
    case AST_VARDEF: cu_bound_loops(em, s->u.def.body, active, out); break;
    case AST_IF:
        cu_bound_loops(em, s->u.branch.then, active, out);
        cu_bound_loops(em, s->u.branch.other, active, out);
        break;
    case AST_FOR:
        if (cu_is_bound(s->u.loop.par) && !(active & cu_bit(s->u.loop.par))) {
            ft_vec_push(em->ctx, out, (void *)s);
            active |= cu_bit(s->u.loop.par);
        }
        cu_bound_loops(em, s->u.loop.body, active, out);
        break;
    default: break;
    }
}

/* Whether e names only host values (sizes and host-level iterators). */
static int cu_names_host(cu_emitter *em, const ast_expr *e)
{
    if (!e)
        return 1;
    switch (e->kind) {
    case AST_VAR: {
        const char *cn = cu_cname(em, e->u.name);
        for (int i = 0; i < em->hostvals.len; i++) {
            const char *d = ((cu_hostval *)em->hostvals.items[i])->decl;
            const char *sp = strrchr(d, ' ');
            if (sp && strcmp(sp + 1, cn) == 0)
                return 1;
        }
        return 0;
    }
    case AST_LOAD: return 0;
    case AST_BINARY: return cu_names_host(em, e->u.bin.a) && cu_names_host(em, e->u.bin.b);
    case AST_UNARY: return cu_names_host(em, e->u.un.a);
    case AST_CAST: return cu_names_host(em, e->u.cast.a);
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (!cu_names_host(em, e->u.call.args[i]))
                return 0;
        return 1;
    case AST_IFEXPR:
        return cu_names_host(em, e->u.ife.cond) && cu_names_host(em, e->u.ife.then) &&
               cu_names_host(em, e->u.ife.other);
    default: return 1;
    }
}

static void cu_bound_body(cu_emitter *em, const void *arg)
{
    cu_dstmt(em, arg, 1);
}

/* Launch a kernel whose root s is bound to a block or thread index: the
 * extent of each index is the largest trip count of the loops bound to it
 * (a default where a trip count is only known inside the kernel). */
static void cu_bound_kernel(cu_emitter *em, const ast_stmt *s)
{
    ft_vec loops = {0};
    cu_bound_loops(em, s, 0, &loops);
    int id = em->nkernels++;
    em->threads = 0;
    em->tdims = 0;
    for (int i = 0; i < loops.len; i++) {
        ast_par lp = ((const ast_stmt *)loops.items[i])->u.loop.par;
        if (lp >= AST_THREAD_X) {
            em->threads = 1;
            em->tdims |= cu_bit(lp);
        }
    }
    em->active = 0;
    cu_line(em, "{");
    em->indent++;
    cu_line(em, "int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};");
    for (int i = 0; i < loops.len; i++) {
        const ast_stmt *l = loops.items[i];
        int k = l->u.loop.par - AST_BLOCK_X;
        const ast_expr *st = l->u.loop.step;
        if (!cu_names_host(em, l->u.loop.begin) || !cu_names_host(em, l->u.loop.end) ||
            !cu_names_host(em, st)) {
            cu_line(em, "ft__ext[%d] = ft__max<int64_t>(ft__ext[%d], %d);", k, k,
                    k >= 3 ? 256 : 1024);
            continue;
        }
        cu_line(em, "ft__ext[%d] = ft__max<int64_t>(ft__ext[%d], ft__trip(%s, %s, %s));", k, k,
                cu_str(em, l->u.loop.begin, 0), cu_str(em, l->u.loop.end, 0),
                st ? cu_str(em, st, 0) : "1");
    }
    int threads = em->threads;
    em->dsmem.len = 0;
    cu_kernel_def(em, id, "", cu_bound_body, s);
    em->threads = threads;
    const char *params, *args;
    cu_kernel_params(em, &params, &args);
    cu_line(em, "dim3 ft__grid, ft__block;");
    cu_line(em, "ft__launch_dims(ft__ext, ft__max_threads(ft__k%s_%d), &ft__grid, &ft__block);",
            em->fname, id);
    if (!em->dsmem.len) {
        cu_line(em, "ft__k%s_%d<<<ft__grid, ft__block>>>(%s);", em->fname, id, args);
    } else {
        /* the dynamic shared memory of the locals sized at launch */
        const char *sum = em->dsmem.items[0];
        for (int i = 1; i < em->dsmem.len; i++)
            sum = ft_fmt(em->ctx, "%s + %s", sum, (const char *)em->dsmem.items[i]);
        cu_line(em, "const size_t ft__smem = %s;", sum);
        cu_line(em, "if (ft__smem > 48 * 1024)   /* past the default: opt in (or the launch fails) */");
        cu_line(em, "    cudaFuncSetAttribute(ft__k%s_%d, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                "(int)ft__min<size_t>(ft__smem, 2147483647));", em->fname, id);
        cu_line(em, "ft__k%s_%d<<<ft__grid, ft__block, ft__smem>>>(%s);", em->fname, id, args);
        em->dsmem.len = 0;
    }
    em->indent--;
    cu_line(em, "}");
}

/* --------------------------------------------------------------- host */

static void cu_hstmt(cu_emitter *em, const ast_stmt *s);

/* Whether s is walked on the host: it holds a bound loop, and what the
 * host evaluates on the way to it reads no tensor. */
static int cu_on_host(const ast_stmt *s)
{
    if (!s || !cu_has_binding(s, -1))
        return 0;
    switch (s->kind) {
    case AST_SEQ: return 1;
    case AST_VARDEF:
        for (int k = 0; k < s->u.def.ndim; k++)
            if (!cu_host_expr(s->u.def.shape[k]))
                return 0;
        return s->u.def.mtype != FT_MT_GPU_SHARED && s->u.def.mtype != FT_MT_GPU_LOCAL;
    case AST_FOR:
        return cu_host_expr(s->u.loop.begin) && cu_host_expr(s->u.loop.end) &&
               (!s->u.loop.step || cu_host_expr(s->u.loop.step));
    case AST_IF: return cu_host_expr(s->u.branch.cond);
    default: return 0;
    }
}

/* A sequence on the host: runs of statements with nothing to walk become
 * one single-thread kernel each. */
static void cu_hseq(cu_emitter *em, const ast_stmt *s)
{
    int i = 0;
    while (i < s->u.seq.n) {
        if (cu_on_host(s->u.seq.stmts[i])) {
            cu_hstmt(em, s->u.seq.stmts[i++]);
            continue;
        }
        int j = i;
        while (j < s->u.seq.n && !cu_on_host(s->u.seq.stmts[j]))
            j++;
        cu_run r = {s, i, j};
        cu_serial_kernel(em, &r);
        i = j;
    }
}

/* A local tensor at host level: device memory for its scope. */
static void cu_hvardef(cu_emitter *em, const ast_stmt *s)
{
    const char *T = cu_ctype(s->u.def.dtype);
    int id = em->next_id++;
    cu_line(em, "{");
    em->indent++;
    int nsyms = em->syms.len, nhost = em->hostvals.len;
    cu_sym *sym = cu_push_sym(em, s->u.def.name, s->u.def.dtype, s->u.def.ndim, CU_SYM_PTR, 1);
    for (int k = 0; k < sym->ndim; k++) {
        cu_line(em, "const int64_t ft__d%d_%d = %s;", id, k, cu_str(em, s->u.def.shape[k], 0));
        sym->dims[k] = ft_fmt(em->ctx, "ft__d%d_%d", id, k);
        cu_push_hostval(em, ft_fmt(em->ctx, "int64_t %s", sym->dims[k]), sym->dims[k]);
    }
    cu_line(em, "%s *%s = (%s *)ft__dev_alloc(&ft__pool, %s);", T, sym->cname, T,
            cu_nbytes(em, sym->ndim, sym->dims, T));
    cu_line(em, "if (!%s) %s", sym->cname,
            cu_host_fail(em, s->loc, ft_fmt(em->ctx, "cannot allocate local tensor `%s`",
                                            s->u.def.name)));
    cu_push_hostval(em, ft_fmt(em->ctx, "%s *%s", T, sym->cname), sym->cname);
    cu_hstmt(em, s->u.def.body);
    cu_line(em, "ft__dev_free(&ft__pool, %s);", sym->cname);
    em->syms.len = nsyms;
    em->hostvals.len = nhost;
    em->indent--;
    cu_line(em, "}");
}

/* A serial loop on the host (its iterator is passed to the kernels). */
static void cu_hfor(cu_emitter *em, const ast_stmt *s)
{
    int id = em->next_id++;
    const char *it = cu_cname(em, s->u.loop.iter);
    const char *step = s->u.loop.step ? cu_str(em, s->u.loop.step, 0) : "1";
    cu_line(em, "{");
    em->indent++;
    cu_line(em, "const int64_t ft__b%d = %s, ft__s%d = %s;", id, cu_str(em, s->u.loop.begin, 0),
            id, step);
    cu_line(em, "const int64_t ft__n%d = ft__trip(ft__b%d, %s, ft__s%d);", id, id,
            cu_str(em, s->u.loop.end, 0), id);
    cu_line(em, "for (int64_t ft__k%d = 0; ft__k%d < ft__n%d; ft__k%d++) {", id, id, id, id);
    em->indent++;
    cu_line(em, "const int64_t %s = (int64_t)((uint64_t)ft__b%d + (uint64_t)ft__k%d * (uint64_t)ft__s%d);",
            it, id, id, id);
    int nhost = em->hostvals.len;
    cu_push_hostval(em, ft_fmt(em->ctx, "int64_t %s", it), it);
    cu_hstmt(em, s->u.loop.body);
    em->hostvals.len = nhost;
    em->indent--;
    cu_line(em, "}");
    em->indent--;
    cu_line(em, "}");
}

/* The device address of the first element of a gemm operand, on the
 * host: the tensor's device pointer (its host value) plus the offset. */
static const char *cu_gemm_ptr(cu_emitter *em, const xf_gemm_operand *op, ft_loc loc)
{
    cu_sym *sym = cu_lookup(em, op->var, loc);
    if (!sym)
        return "0";
    const char *base = sym->cname;
    for (int i = em->hostvals.len - 1; i >= 0; i--)
        if (strcmp(cu_hostval_name(em->hostvals.items[i]), sym->cname) == 0) {
            base = ((cu_hostval *)em->hostvals.items[i])->arg;
            break;
        }
    int zero = 1;
    for (int d = 0; d < op->n; d++)
        zero &= op->base[d]->kind == AST_INT && op->base[d]->u.ival == 0;
    if (zero)
        return base;
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    fprintf(em->out, "(%s + ", base);
    cu_linear_index(em, sym, op->n, op->base);
    fputc(')', em->out);
    char *s = cg_sub_end(&em->out, &sub);
    const char *r = ft_strdup(em->ctx, s);
    free(s);
    return r;
}

/* The cuBLAS calls of a recognised product, through the prelude's
 * ft__gemm_f32/f64 (backend/cg_gemm.c), which splits a product whose sizes
 * do not fit cuBLAS's int.  cuBLAS is column-major: the row-major
 * C = op(A) @ op(B) is the column-major C^T = op(B)^T @ op(A)^T, so each
 * block's operands are passed swapped, each with its own transpose flag. */
static void cu_gemm_call(cu_emitter *em, const ast_stmt *s, const xf_gemm *g)
{
    int id = em->next_id++;
    em->uses_blas |= 1 << g->dtype;
    cu_line(em, "{");
    em->indent++;
    cu_line(em, "cublasHandle_t ft__h%d = ft__cublas();", id);
    cu_line(em, "if (!ft__h%d) %s", id, cu_host_fail(em, s->loc, "cannot create a cuBLAS handle"));
    cu_line(em, "if (ft__gemm_%s(ft__h%d, %d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)) %s",
            ft_dtype_name(g->dtype), id, g->a.trans, g->b.trans, cu_str(em, g->m, 0),
            cu_str(em, g->n, 0), cu_str(em, g->k, 0), g->alpha ? cu_str(em, g->alpha, 0) : "1",
            cu_gemm_ptr(em, &g->a, s->loc), cu_str(em, g->a.ld, 0), cu_gemm_ptr(em, &g->b, s->loc),
            cu_str(em, g->b.ld, 0), g->beta ? "1" : "0", cu_gemm_ptr(em, &g->c, s->loc),
            cu_str(em, g->c.ld, 0), cu_host_fail(em, s->loc, "a cuBLAS gemm call failed"));
    em->indent--;
    cu_line(em, "}");
}

/* An as_lib loop at host level: its batch loops on the host around one
 * cuBLAS gemm each (transforms/lib_gemm.h).  A product whose sizes or
 * alpha read a tensor (device memory) runs as a single-thread kernel of
 * loops instead. */
static void cu_hlib(cu_emitter *em, const ast_stmt *s)
{
    xf_gemm g;
    const char *why = NULL;
    if (!xf_gemm_match(em->ctx, em->func, s, &g, &why)) {
        ft_error(em->ctx, s->loc, "internal error: CUDA backend: the as_lib nest %s is no "
                 "longer a matrix product: %s", s->u.loop.iter, why);
        return;
    }
    int host = (!g.alpha || !cg_has_load(g.alpha)) && !cg_has_load(g.m) &&
               !cg_has_load(g.n) && !cg_has_load(g.k);
    for (int i = 0; i < g.nbatch; i++)
        host &= !cg_has_load(g.batch[i]->u.loop.begin) && !cg_has_load(g.batch[i]->u.loop.end);
    if (!host) {
        cu_run r = {s, 0, 0};
        cu_serial_kernel(em, &r);
        return;
    }
    cu_line(em, "/* as_lib(%s): %s %s= %s%s @ %s%s (cuBLAS) */",
            s->label ? s->label : s->u.loop.iter, g.c.var, g.beta ? "+" : "", g.a.var,
            g.a.trans ? "^T" : "", g.b.var, g.b.trans ? "^T" : "");
    cu_line(em, "{");
    em->indent++;
    for (int i = 0; i < g.nbatch; i++) {
        const char *it = cu_cname(em, g.batch[i]->u.loop.iter);
        int id = em->next_id++;
        cu_line(em, "const int64_t ft__e%d = %s;", id, cu_str(em, g.batch[i]->u.loop.end, 0));
        cu_line(em, "for (int64_t %s = %s; %s < ft__e%d; %s++) {", it,
                cu_str(em, g.batch[i]->u.loop.begin, 0), it, id, it);
        em->indent++;
    }
    cu_gemm_call(em, s, &g);
    for (int i = 0; i < g.nbatch; i++) {
        em->indent--;
        cu_line(em, "}");
    }
    em->indent--;
    cu_line(em, "}");
}

/* One statement at host level. */
static void cu_hstmt(cu_emitter *em, const ast_stmt *s)
{
    if (!s)
        return;
    em->stmt_loc = s->loc;
    if (!cu_on_host(s)) {
        cu_run r = {s, 0, s->kind == AST_SEQ ? s->u.seq.n : 0};
        cu_serial_kernel(em, &r);
        return;
    }
    if (s->label)
        cu_line(em, "/* %s: */", s->label);
    switch (s->kind) {
    case AST_SEQ: cu_hseq(em, s); break;
    case AST_VARDEF: cu_hvardef(em, s); break;
    case AST_FOR:
        if (s->u.loop.par == AST_OPENMP)
            cu_flat_kernel(em, s);
        else if (s->u.loop.par == AST_LIB)
            cu_hlib(em, s);
        else if (cu_is_bound(s->u.loop.par))
            cu_bound_kernel(em, s);
        else
            cu_hfor(em, s);
        break;
    case AST_IF:
        cu_line(em, "if (%s) {", cu_str(em, s->u.branch.cond, 0));
        em->indent++;
        cu_hstmt(em, s->u.branch.then);
        em->indent--;
        if (s->u.branch.other) {
            cu_line(em, "} else {");
            em->indent++;
            cu_hstmt(em, s->u.branch.other);
            em->indent--;
        }
        cu_line(em, "}");
        break;
    default: break;
    }
}

/* ------------------------------------------------------------ functions */

/* The C declaration of parameter p. */
static const char *cu_param_decl(cu_emitter *em, const ast_param *p)
{
    return cg_param_text(em->ctx, p, cu_cname(em, p->name), cu_ctype(p->dtype));
}

/* Give each opaque (`void *`) parameter of f its typed name (as the C
 * backend does). */
static void cu_opaque_params(cu_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        const char *line = cg_opaque_text(em->ctx, p, cu_cname(em, p->name), cu_ctype(p->dtype));
        if (line)
            cu_line(em, "%s", line);
    }
}

/* "int NAME(params)" of the exported function (C linkage). */
static void cu_signature(cu_emitter *em, const ast_func *f)
{
    fprintf(em->out, "extern \"C\" __attribute__((visibility(\"default\"))) int %s(", f->name);
    for (int i = 0; i < f->nparams; i++)
        fprintf(em->out, "%s%s", i ? ", " : "", cu_param_decl(em, &f->params[i]));
    fputs(f->nparams ? ")" : "void)", em->out);
}

/* The number of bytes of tensor parameter p, as C text (declares what it
 * needs first). */
static const char *cu_param_bytes(cu_emitter *em, const ast_param *p)
{
    const char **dims = ft_alloc(em->ctx, sizeof *dims * (size_t)(p->ndim + 1));
    for (int k = 0; k < p->ndim; k++)
        dims[k] = cu_str(em, p->shape[k], 0);
    return cu_nbytes(em, p->ndim, dims, cu_ctype(p->dtype));
}

/* Set up the parameters: sizes and device pointers become host values;
 * `@ cpu` tensors get device copies (filled for in and inout). */
static void cu_params_in(cu_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        const char *cn = cu_cname(em, p->name);
        if (p->is_size) {
            cu_push_hostval(em, ft_fmt(em->ctx, "int64_t %s", cn), cn);
            continue;
        }
        const char *T = cu_ctype(p->dtype);
        const char *cq = p->access == FT_ACC_IN ? "const " : "";
        cu_sym *s = cu_push_sym(em, p->name, p->dtype, p->ndim, CU_SYM_PTR, 1);
        for (int k = 0; k < p->ndim; k++)
            s->dims[k] = cu_str(em, p->shape[k], 0);
        if (p->mtype != FT_MT_CPU) {
            cu_push_hostval(em, ft_fmt(em->ctx, "%s%s *%s", cq, T, cn), cn);
            continue;
        }
        const char *dev = ft_fmt(em->ctx, "ft__dev_%s", cn);
        const char *bytes = cu_param_bytes(em, p);
        cu_line(em, "%s *%s = (%s *)ft__dev_alloc(&ft__pool, %s);", T, dev, T, bytes);
        cu_line(em, "if (!%s) %s", dev,
                cu_host_fail(em, p->loc, ft_fmt(em->ctx, "cannot allocate the device copy of "
                                                "`%s`", p->name)));
        if (p->access != FT_ACC_OUT)
            cu_line(em, "if (cudaMemcpy(%s, %s, %s, cudaMemcpyHostToDevice) != cudaSuccess) %s",
                    dev, cn, bytes, cu_host_fail(em, p->loc, ft_fmt(em->ctx, "cannot copy `%s` "
                                                                    "to the device", p->name)));
        cu_push_hostval(em, ft_fmt(em->ctx, "%s%s *%s", cq, T, cn), dev);
    }
}

/* Declare the regions of the tape (autodiff/pack.c) as pointers into the
 * tape's device copy (or into the tape, when it is on the device), passed
 * to the kernels like parameters. */
static void cu_regions_in(cu_emitter *em, const ast_func *f)
{
    if (!f->nregions)
        return;
    const ast_param *tp = &f->params[f->nparams - 1];
    const char *tcn = cu_cname(em, tp->name);
    const char *base = tp->mtype != FT_MT_CPU ? tcn : ft_fmt(em->ctx, "ft__dev_%s", tcn);
    for (int i = 0; i < f->nregions; i++) {
        const ast_param *r = &f->regions[i];
        const char *cn = cu_cname(em, r->name), *T = cu_ctype(r->dtype);
        cu_sym *s = cu_push_sym(em, r->name, r->dtype, r->ndim, CU_SYM_PTR, 1);
        for (int k = 0; k < r->ndim; k++)
            s->dims[k] = cu_str(em, r->shape[k], 0);
        cu_line(em, "%s", cg_region_text(em->ctx, r, cn, T, base, cu_str(em, r->region_at, 0)));
        cu_push_hostval(em, ft_fmt(em->ctx, "%s%s *%s", r->access == FT_ACC_IN ? "const " : "",
                                   T, cn), cn);
    }
}

/* Copy the `@ cpu` out and inout tensors back to the host. */
static void cu_params_out(cu_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        if (p->is_size || p->mtype != FT_MT_CPU || p->access == FT_ACC_IN)
            continue;
        const char *cn = cu_cname(em, p->name);
        const char *bytes = cu_param_bytes(em, p);
        cg_failure fl = cg_site_plain(em->ctx, &em->sites, f, p->loc, FT_ERR_NOMEM,
                                      ft_fmt(em->ctx, "CUDA runtime failure: cannot copy `%s` "
                                             "back from the device", p->name));
        cu_line(em, "if (!ft__err && cudaMemcpy(%s, ft__dev_%s, %s, cudaMemcpyDeviceToHost) != "
                "cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, %d, 0, 0);", cn, cn, bytes,
                fl.site);
    }
}

/* Emit the host function of f (its kernels go to em->kern). */
static void cu_func(cu_emitter *em, const ast_func *f)
{
    em->syms.len = 0;
    em->hostvals.len = 0;
    em->fname = f->name;
    em->func = f;
    em->nkernels = 0;
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    em->indent = 2;
    cu_params_in(em, f);
    cu_regions_in(em, f);
    cu_line(em, "if (ft__err_init(&ft__pool, &ft__derr)) %s",
            cu_host_fail(em, f->loc, "cannot allocate the device's error record"));
    cu_hstmt(em, f->body);
    cg_failure fl = cg_site_plain(em->ctx, &em->sites, f, f->loc, FT_ERR_NOMEM,
                                  "CUDA runtime failure: a kernel launch or the device failed");
    cu_line(em, "ft__err_fetch(ft__derr, &ft__err, &ft__er, %d);", fl.site);
    cu_params_out(em, f);
    char *body = cg_sub_end(&em->out, &sub);
    cu_signature(em, f);
    fputs("\n{\n", em->out);
    em->indent = 1;
    for (int i = 0; i < f->nparams; i++) {
        if (!f->params[i].is_size)
            continue;
        const char *n = cu_cname(em, f->params[i].name);
        cg_failure sz = cg_site_size(em->ctx, &em->sites, f, &f->params[i]);
        cu_line(em, "if (%s < 0) return ft__raise(FT_ERR_SIZE, %d, %s, 0);", n, sz.site, n);
    }
    cg_print_null_checks(&em->pr, em->ctx, &em->sites, f);
    cu_opaque_params(em, f);
    cg_failure nd = cg_site_plain(em->ctx, &em->sites, f, f->loc, FT_ERR_NODEVICE,
                                  "no usable CUDA device");
    cu_line(em, "if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, %d, 0, 0);", nd.site);
    cu_line(em, "int ft__err = FT_OK;");
    cu_line(em, "ft_error_rec ft__er = {FT_OK, -1, {0, 0}};");
    cu_line(em, "ft__pool_t ft__pool = {0};");
    cu_line(em, "int *ft__derr = NULL;");
    cu_line(em, "{   /* the gotos leave this block: they cross no initialisation */");
    fputs(body, em->out);
    free(body);
    cu_line(em, "}");
    fputs("ft__end:\n", em->out);
    cu_line(em, "ft__pool_free(&ft__pool);");
    cu_line(em, "return ft__done(ft__err, &ft__er);");
    fputs("}\n\n", em->out);
    em->indent = 0;
}

/* The prelude: includes, the ABI text, the device helpers. */
static void cu_prelude(FILE *o)
{
    fputs("/* Generated by ftc: CUDA C++ (nvcc). */\n"
          "#include <stdint.h>\n#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n"
          "#include <math.h>\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n\n", o);
    fputs(ft_abi_text, o);
    cg_error_helpers(o, 1);
    fputs("\n"
"#define FT_HD __host__ __device__ __forceinline__\n"
"#define FT_HOST static inline __attribute__((unused))\n", o);
    cg_sigmoid_f32_def(o, "static __host__ __device__ inline");
    fputs(ft_cuda_prelude_text, o);    /* backend/cuda_prelude.cuh */
}

/* Refuse exported names that cannot be C function names. */
static int cu_check_names(ft_ctx *ctx, const ast_program *p)
{
    int bad = cg_clashes_error_fn(ctx, p);
    for (int i = 0; i < p->nfuncs; i++) {
        const char *n = p->funcs[i]->name;
        size_t len = strlen(n);
        if (cu_is_reserved(n) || (len >= 4 && strcmp(n + len - 4, "_ftk") == 0)) {
            ft_error(ctx, p->funcs[i]->loc, "exported function name '%s' clashes with a "
                     "CUDA C++ keyword or library name; rename the function", n);
            bad = 1;
        }
    }
    return bad;
}

/* What a module with as_lib nests adds after the prelude (linked with
 * -lcublas): one cuBLAS handle for the process, made on first use (C++11
 * makes the static's initialisation thread-safe) and never destroyed; on
 * the default stream, so it is ordered with the kernels. */
static const char cu_cublas_text[] =
    "#include <cublas_v2.h>\n\n"
    "static cublasHandle_t ft__cublas(void)\n"
    "{\n"
    "    static cublasHandle_t h = [] {\n"
    "        cublasHandle_t x = NULL;\n"
    "        return cublasCreate(&x) == CUBLAS_STATUS_SUCCESS ? x : NULL;\n"
    "    }();\n"
    "    return h;\n"
    "}\n\n";

/* One block's cuBLAS call in the chunked gemm helper (cg_gemm_helper_def):
 * the row-major product as the column-major one of the swapped operands. */
static const char cu_cublas_call_f32[] =
    "if (cublasSgemm((cublasHandle_t)h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : "
    "CUBLAS_OP_N, (int)nj, (int)mi, (int)kp, &alpha, bp, lb, ap, la, &be, cp, lc) != "
    "CUBLAS_STATUS_SUCCESS) return 1;";
static const char cu_cublas_call_f64[] =
    "if (cublasDgemm((cublasHandle_t)h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : "
    "CUBLAS_OP_N, (int)nj, (int)mi, (int)kp, &alpha, bp, lb, ap, la, &be, cp, lc) != "
    "CUBLAS_STATUS_SUCCESS) return 1;";

/* Emit a size function (a gradient's tape bytes, autodiff/): host code,
 * like the C backend's: its value, or 0 when a size is negative. */
static void cu_sizefn(cu_emitter *em, const ast_sizefn *s)
{
    const char *v = cu_str(em, s->value, 0);
    fprintf(em->out, "extern \"C\" __attribute__((visibility(\"default\"))) size_t %s(",
            s->name);
    for (int i = 0; i < s->nparams; i++)
        fprintf(em->out, "%sint64_t %s", i ? ", " : "", cu_cname(em, s->params[i].name));
    fputs(s->nparams ? ")\n{\n" : "void)\n{\n", em->out);
    for (int i = 0; i < s->nparams; i++)
        fprintf(em->out, "    if (%s < 0) return 0;\n", cu_cname(em, s->params[i].name));
    fprintf(em->out, "    return (size_t)(%s);\n}\n\n", v);
}

int cg_emit_cuda(ft_ctx *ctx, const ast_program *p, FILE *out)
{
    if (cu_check_names(ctx, p))
        return 1;
    int nerrors = ctx->nerrors;
    cu_emitter em = {.ctx = ctx};
    cu_printer_init(&em);
    char *hbuf = NULL, *kbuf = NULL;
    size_t hlen = 0, klen = 0;
    em.out = open_memstream(&hbuf, &hlen);
    em.kern = open_memstream(&kbuf, &klen);
    if (!em.out || !em.kern) {
        ft_error(ctx, (ft_loc){0}, "out of memory in the CUDA backend");
        return 1;
    }
    for (int i = 0; i < p->nfuncs; i++) {
        cu_func(&em, p->funcs[i]);
        cg_desc_func(&em.pr, ctx, em.out, p->funcs[i]);
    }
    for (int i = 0; i < p->nsizefns; i++)
        cu_sizefn(&em, p->sizefns[i]);
    cg_desc_module(em.out, ctx, p, &em.sites, 1);
    fclose(em.out);
    fclose(em.kern);
    cu_prelude(out);
    if (em.uses_blas)
        fputs(cu_cublas_text, out);
    if (em.uses_blas & 1 << FT_F32)
        cg_gemm_helper_def(out, "float", "ft__gemm_f32", cu_cublas_call_f32);
    if (em.uses_blas & 1 << FT_F64)
        cg_gemm_helper_def(out, "double", "ft__gemm_f64", cu_cublas_call_f64);
    fputs(kbuf ? kbuf : "", out);
    fputs(hbuf ? hbuf : "", out);
    free(hbuf);
    free(kbuf);
    return ctx->nerrors != nerrors || ferror(out);
}
