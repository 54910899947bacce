/* cg_c.c - the C backend: emit C99 + OpenMP for an AST program, and its
 * public header.
 *
 * Requires: a lowered, scheduled ast_program (see cg.h).
 * Provides: one C translation unit holding
 *   - a prelude (includes, the text of runtime/ft_abi.h, the small
 *     `static inline` helpers the code below uses, and only those),
 *   - one C function per exported function, with the ABI of language.md,
 *   - per function a call wrapper, a shapes function and parameter
 *     descriptions, and the exported description table `ft_module_desc`.
 *
 * Names.  User names (tensors, iterators, size parameters) are kept, except
 * that a name which is a C keyword, a name the prelude's headers declare, a
 * reserved identifier, or a name ending in "_ftk" gets "_ftk" appended
 * (cg_cname; injective because only names that already end in "_ftk" can
 * map onto names ending in "_ftk_ftk").  Every internal name starts with
 * "ft__", which the lexer refuses in user identifiers.  An exported function
 * keeps its name (it is the ABI), so a reserved one is an error.
 *
 * Errors at run time ("regions").  A region is the function body or the
 * body of one iteration of an OpenMP loop.  Each region declares, at its
 * top, the heap buffers of the VarDefs directly inside it (`void *ft__hN =
 * NULL`), and ends with the label `ft__endN:` that frees them.  A failing
 * check stores its code into `ft__err` (the function's error variable;
 * atomically inside a parallel region, where it is shared) and jumps to the
 * end of its region: the function returns the code, an OpenMP iteration
 * ends and the loop runs on harmlessly; after the loop the enclosing region
 * tests `ft__err` and jumps to its own end.  No VLA is ever emitted, so no
 * goto enters the scope of one.
 *
 * Loops.  Bounds are evaluated once (hoisted into consts when they are not
 * a literal or a name).  A constant step picks `<` or `>` by its sign; a
 * constant step of 0 runs no iteration; a non-constant step runs the loop
 * over a trip count computed by ft__trip, which is 0 for a zero step (so a
 * zero step never loops forever and never fails).
 *
 * Atomics.  A reduction with red.atomic set uses `#pragma omp atomic` for
 * += and *= on i32, i64, f32, f64; min, max, and += / *= on f16 and bool use
 * a compare-and-swap loop on the element (GCC's generic __atomic builtins,
 * which work on any 1/2/4/8-byte type, so no type punning is needed).
 */
#include "cg.h"

#include "../transforms/lib_gemm.h"
#include "../transforms/xf_checks.h"
#include "../transforms/xf_util.h"
#include "cg_facts.h"
#include "cg_core.h"
#include "cg_desc.h"
#include "cg_sites.h"
#include "visit.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ emitter */

/* Helpers of the prelude, each instantiated per dtype (the dtype-free ones
 * use FT_I64 as their slot). */
typedef enum cg_helper {
    CG_H_FLOORDIV, CG_H_MOD, CG_H_MIN, CG_H_MAX, CG_H_ABS, CG_H_SIGMOID,
    CG_H_SQUARE, CG_H_IPOW,
    CG_H_ATOMIC_ADD, CG_H_ATOMIC_MUL, CG_H_ATOMIC_MIN, CG_H_ATOMIC_MAX,
    CG_H_RED_MIN, CG_H_RED_MAX,
    CG_H_NBYTES, CG_H_ALLOC, CG_H_GROW, CG_H_TRIP, CG_H_THREADS,
    CG_H_COUNT
} cg_helper;

/* What a tensor name stands for in C. */
typedef enum cg_sym_kind {
    CG_SYM_PARAM,    /* a parameter pointer; 0-D reads are (*x) */
    CG_SYM_SCALAR,   /* a 0-D local: a plain C variable */
    CG_SYM_ARRAY,    /* a local array (stack) or pointer (heap) */
} cg_sym_kind;

typedef struct cg_sym {
    const char *name;        /* the user's name */
    const char *cname;       /* its C name */
    ft_dtype dtype;
    int ndim;
    const char **dims;       /* C text of each dimension (arena) */
    cg_sym_kind kind;
    int used;                /* referenced by the emitted code */
} cg_sym;

/* A region: see the file comment. */
typedef struct cg_region {
    int label;               /* the N of ft__endN */
    int parallel;            /* the body of an OpenMP loop iteration */
    int label_used;          /* some check jumps to the end */
    ft_vec heap;             /* names of the heap buffers (char *) */
} cg_region;

typedef struct cg_emitter {
    ft_ctx *ctx;
    FILE *out;               /* where text goes now (may be a substream) */
    int indent;
    cg_region *region;       /* innermost region */
    int next_id;             /* numbers internal names */
    ft_vec syms;             /* scope stack of cg_sym * */
    unsigned char used[CG_H_COUNT][FT_DTYPE_COUNT];
    const ast_func *func;    /* the function being emitted */
    int uses_blas;           /* bit 1 << dtype: an as_lib loop of that dtype was
                                emitted (CBLAS prototypes, ft__gemm_T) */
    int uses_transpose;      /* bit 1 << dtype: a transposing copy was
                                emitted as ft__transpose_T (cg_transpose.c) */
    ft_vec known;            /* bounds-check conditions known to hold here (C
                                text): checked before the loop, or implied by
                                an enclosing `if` (cg_facts.h) */
    const ast_stmt *hoist;   /* while emitting the checks before this loop:
                                only those invariant in it */
    int in_leaf;             /* emitting a store, reduce, assert or eval: a
                                check that passed holds for the rest of it */
    ft_vec ix_loads;         /* index loads read into scalars before the
                                vectorized loops around (cg_facts.h) ... */
    ft_vec ix_names;         /* ... and the scalars' C names */
    int fails;               /* failure exits emitted so far (cg_fail) */
    ft_vec omp_red_vars;     /* the 0-D locals of the reduction clauses of
                                the OpenMP loop being emitted (private to
                                each thread there: no atomics) */
    cg_sites sites;          /* the module's error sites (cg_sites.h) */
    ft_loc stmt_loc;         /* the statement whose checks are emitted */
    cg_printer pr;           /* the shared expression printer (cg_core.h) */
    ft_vec nonneg;           /* iterators of the loops around that count up
                                from a literal >= 0 (const char *) */
} cg_emitter;

/* Deepest indentation written: a function with a thousand nested locals
 * (each a C block) would otherwise write lines of kilobytes of spaces,
 * the C text growing with the square of the nesting. */
enum { CG_MAX_INDENT = 40 };

/* Write the current indentation (at most CG_MAX_INDENT levels). */
static void cg_ind(cg_emitter *em)
{
    for (int i = 0; i < em->indent && i < CG_MAX_INDENT; i++)
        fputs("    ", em->out);
}

/* Write one indented line. */
static void cg_line(cg_emitter *em, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cg_line(cg_emitter *em, const char *fmt, ...)
{
    va_list ap;
    cg_ind(em);
    va_start(ap, fmt);
    vfprintf(em->out, fmt, ap);
    va_end(ap);
    fputc('\n', em->out);
}

/* Record that helper h is needed for dtype t (and what it needs). */
static void cg_use(cg_emitter *em, cg_helper h, ft_dtype t)
{
    em->used[h][t] = 1;
    if (h == CG_H_ATOMIC_MIN || h == CG_H_RED_MIN)
        em->used[CG_H_MIN][t] = 1;
    if (h == CG_H_ATOMIC_MAX || h == CG_H_RED_MAX)
        em->used[CG_H_MAX][t] = 1;
    if (h == CG_H_GROW) {
        em->used[CG_H_NBYTES][FT_I64] = 1;
        em->used[CG_H_ALLOC][FT_I64] = 1;
    }
}

/* ------------------------------------------------------------- names */

static const char *const cg_reserved[] = {
    /* C keywords (C11, C23, GNU) */
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "bool", "true", "false",
    "alignas", "alignof", "nullptr", "static_assert", "thread_local",
    "typeof", "typeof_unqual", "constexpr", "asm", "main",
    /* macros and objects of the included headers */
    "NULL", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "EOF",
    "RAND_MAX", "MB_CUR_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "errno",
    "offsetof", "signgam", "isnan", "isinf", "isfinite", "isnormal",
    "signbit", "fpclassify", "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isunordered",
    /* <stdlib.h> */
    "malloc", "calloc", "realloc", "free", "abort", "exit", "atexit",
    "quick_exit", "at_quick_exit", "getenv", "system", "abs", "labs",
    "llabs", "div", "ldiv", "lldiv", "atoi", "atol", "atoll", "atof",
    "strtod", "strtof", "strtold", "strtol", "strtoll", "strtoul",
    "strtoull", "rand", "srand", "random", "srandom", "qsort", "bsearch",
    "aligned_alloc", "posix_memalign", "drand48", "mblen", "mbtowc",
    "wctomb", "mbstowcs", "wcstombs", "setenv", "unsetenv", "putenv",
    "mkstemp", "realpath", "alloca",
    /* declared by the prelude's ft__alloc (<sys/mman.h>) */
    "madvise",
    /* <string.h> */
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strcpy",
    "strncpy", "strcat", "strncat", "strcmp", "strncmp", "strchr",
    "strrchr", "strstr", "strtok", "strdup", "strndup", "strerror",
    "strspn", "strcspn", "strpbrk", "strcoll", "strxfrm", "index",
    "rindex", "bzero", "bcopy", "bcmp", "ffs", "strcasecmp",
    "strncasecmp", "stpcpy", "strsep", "strnlen",
};

/* Math functions; with an "f" or "l" suffix too. */
static const char *const cg_math_names[] = {
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh",
    "atanh", "cosh", "sinh", "tanh", "exp", "exp2", "exp10", "expm1",
    "frexp", "ldexp", "log", "log10", "log1p", "log2", "logb", "ilogb",
    "modf", "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow", "pow10",
    "sqrt", "erf", "erfc", "lgamma", "tgamma", "gamma", "ceil", "floor",
    "nearbyint", "rint", "lrint", "llrint", "round", "lround", "llround",
    "trunc", "fmod", "remainder", "remquo", "copysign", "nan", "nextafter",
    "nexttoward", "fdim", "fmax", "fmin", "fma", "j0", "j1", "jn", "y0",
    "y1", "yn", "drem", "significand", "finite", "scalb", "sincos",
};

/* Name prefixes that the headers or the C standard reserve. */
static const char *const cg_reserved_prefixes[] = {
    "__", "ft_", "FT_", "INT", "UINT", "SIZE_", "PTRDIFF_", "WCHAR_",
    "WINT_", "SIG_ATOMIC_", "M_", "FP_", "MATH_", "FLT_", "DBL_", "LDBL_",
    "cblas_", "Cblas", "CBLAS_",       /* the CBLAS declarations of as_lib */
    "omp_", "OMP_", "GOMP_", "GOACC_", "OACC_",   /* libgomp, which the compiler's
                                                     OpenMP code calls */
    "_mm", "_MM",                        /* <immintrin.h> (cg_transpose.c's helper) */
};

/* Whether s is in a table of n names. */
static int cg_in_table(const char *const *t, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i], s) == 0)
            return 1;
    return 0;
}

/* Whether s names a math function, possibly with an f or l suffix. */
static int cg_is_math_name(const char *s)
{
    size_t n = strlen(s);
    size_t nt = sizeof cg_math_names / sizeof *cg_math_names;
    if (cg_in_table(cg_math_names, nt, s))
        return 1;
    for (size_t i = 0; n > 1 && i < nt; i++)
        if (strlen(cg_math_names[i]) == n - 1 && strncmp(cg_math_names[i], s, n - 1) == 0 &&
            (s[n - 1] == 'f' || s[n - 1] == 'l'))
            return 1;
    return 0;
}

/* Whether a user name cannot be used as a C identifier as it is. */
static int cg_is_reserved(const char *s)
{
    size_t n = strlen(s);
    if (s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z')))
        return 1;
    if (n >= 2 && strcmp(s + n - 2, "_t") == 0)
        return 1;
    if (s[0] == 'E' && s[1] >= 'A' && s[1] <= 'Z')   /* errno macros */
        return 1;
    for (size_t i = 0; i < sizeof cg_reserved_prefixes / sizeof *cg_reserved_prefixes; i++)
        if (strncmp(s, cg_reserved_prefixes[i], strlen(cg_reserved_prefixes[i])) == 0)
            return 1;
    return cg_in_table(cg_reserved, sizeof cg_reserved / sizeof *cg_reserved, s) ||
           cg_is_math_name(s);
}

/* The C name of a user name (arena-owned when changed). */
static const char *cg_cname(void *p, const char *name)
{
    cg_emitter *em = p;
    size_t n = strlen(name);
    int ftk = n >= 4 && strcmp(name + n - 4, "_ftk") == 0;
    if (ftk || cg_is_reserved(name))
        return ft_fmt(em->ctx, "%s_ftk", name);
    return name;
}

/* ------------------------------------------------------------- types */

/* The C type of a dtype. */
static const char *cg_ctype(ft_dtype t)
{
    static const char *const names[FT_DTYPE_COUNT] = {
        "bool", "int32_t", "int64_t", "_Float16", "float", "double"};
    return names[t];
}

/* ------------------------------------------------------------- scope */

/* Push a symbol; returns it for the caller to fill in further. */
static cg_sym *cg_push_sym(cg_emitter *em, const char *name, ft_dtype t, int ndim,
                           cg_sym_kind kind)
{
    cg_sym *s = ft_alloc(em->ctx, sizeof *s);
    s->name = name;
    s->cname = cg_cname(em, name);
    s->dtype = t;
    s->ndim = ndim;
    s->kind = kind;
    s->dims = ndim ? ft_alloc(em->ctx, sizeof *s->dims * (size_t)ndim) : NULL;
    ft_vec_push(em->ctx, &em->syms, s);
    return s;
}

/* The innermost symbol named name, or NULL. */
static cg_sym *cg_find_sym(const cg_emitter *em, const char *name)
{
    for (int i = em->syms.len - 1; i >= 0; i--) {
        cg_sym *s = em->syms.items[i];
        if (strcmp(s->name, name) == 0)
            return s;
    }
    return NULL;
}

/* The innermost symbol named name, or NULL (after an internal error). */
static cg_sym *cg_lookup(cg_emitter *em, const char *name, ft_loc loc)
{
    cg_sym *s = cg_find_sym(em, name);
    if (!s)
        ft_error(em->ctx, loc, "internal error: C backend: unknown tensor '%s'", name);
    return s;
}

/* cg_dims_fn on the emitter: the literal shape of the innermost tensor
 * named var (of that dtype and rank). */
static int cg_literal_dims(void *data, const char *var, ft_dtype dtype, int n, int64_t *dims)
{
    const cg_sym *sym = cg_find_sym(data, var);
    if (!sym || sym->kind == CG_SYM_SCALAR || sym->dtype != dtype || sym->ndim != n)
        return 1;
    for (int k = 0; k < n; k++) {
        char *end;
        dims[k] = strtoll(sym->dims[k], &end, 10);
        if (end == sym->dims[k] || *end || dims[k] < 1)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------- exprs */

static void cg_expr(cg_emitter *em, const ast_expr *e, int paren);

/* Print a floating literal of dtype t with full precision. */
static void cg_float_lit(void *p, double v, ft_dtype t)
{
    cg_emitter *em = p;
    char buf[64];
    if (isnan(v)) {
        fputs(t == FT_F64 ? "((double)NAN)" : t == FT_F16 ? "((_Float16)NAN)" : "NAN",
              em->out);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "INFINITY" : "(-INFINITY)", em->out);
        return;
    }
    cg_float_digits(buf, v, t);    /* the shortest text that reads back as v */
    const char *suf = t == FT_F64 ? "" : "f";
    if (t == FT_F16)
        fprintf(em->out, "((_Float16)%s%s)", buf, suf);
    else if (v < 0)
        fprintf(em->out, "(%s%s)", buf, suf);
    else
        fprintf(em->out, "%s%s", buf, suf);
}

/* Print an index expression as an int64_t; paren as for cg_expr. */
static void cg_index_expr(cg_emitter *em, const ast_expr *e, int paren)
{
    int cast = e->dtype != FT_I64 && e->kind != AST_INT;
    if (cast)
        fputs("(int64_t)", em->out);
    cg_expr(em, e, paren || cast);
}

/* Print the row-major linear index of idx into sym in Horner form:
 * ((i0 * d1 + i1) * d2 + i2). */
static void cg_linear_index(cg_emitter *em, const cg_sym *sym, int n, ast_expr **idx)
{
    for (int k = 0; k + 2 < n; k++)
        fputc('(', em->out);
    cg_index_expr(em, idx[0], n > 1);
    for (int k = 1; k < n; k++) {
        const char *d = sym->dims[k];
        fprintf(em->out, cg_is_simple(d) ? " * %s + " : " * (%s) + ", d);
        cg_index_expr(em, idx[k], 1);
        if (k + 1 < n)
            fputc(')', em->out);
    }
}

/* Print an element of a tensor as an lvalue or rvalue.  as_rvalue wraps the
 * dereference of a 0-D parameter in parentheses. */
static void cg_access(cg_emitter *em, const char *var, int n, ast_expr **idx, ft_loc loc,
                      int as_rvalue)
{
    cg_sym *sym = cg_lookup(em, var, loc);
    if (!sym) {
        fputs("0", em->out);
        return;
    }
    sym->used = 1;
    if (sym->ndim != n) {
        ft_error(em->ctx, loc, "internal error: C backend: '%s' has %d dimensions, "
                 "indexed with %d", var, sym->ndim, n);
        return;
    }
    if (n == 0) {
        if (sym->kind == CG_SYM_SCALAR)
            fputs(sym->cname, em->out);
        else
            fprintf(em->out, as_rvalue ? "(*%s)" : "*%s", sym->cname);
        return;
    }
    fprintf(em->out, "%s[", sym->cname);
    cg_linear_index(em, sym, n, idx);
    fputc(']', em->out);
}

/* Print a call of a math function of the C library for dtype t: fabsf for
 * f32, fabs for f64, through float for f16, through double for integers. */
static void cg_math_call(cg_emitter *em, const char *fn, ft_dtype t, int n, ast_expr **args)
{
    const char *suffix = t == FT_F32 || t == FT_F16 ? "f" : "";
    const char *argcast = t == FT_F16 ? "(float)" : ft_dtype_is_float(t) ? "" : "(double)";
    int conv = t == FT_F16 || !ft_dtype_is_float(t);
    if (conv)
        fprintf(em->out, "((%s)", cg_ctype(t));
    fprintf(em->out, "%s%s(", fn, suffix);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", em->out);
        fputs(argcast, em->out);
        cg_expr(em, args[i], *argcast != 0);
    }
    fputc(')', em->out);
    if (conv)
        fputc(')', em->out);
}

/* Print a call of one of the prelude's helpers. */
static void cg_helper_call(cg_emitter *em, cg_helper h, const char *name, ft_dtype t,
                           int n, ast_expr *const *args)
{
    cg_use(em, h, t);
    fprintf(em->out, "ft__%s_%s(", name, ft_dtype_name(t));
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", em->out);
        cg_expr(em, args[i], 0);
    }
    fputc(')', em->out);
}

/* Whether e is the constant 2 (so that x ** 2 is a square). */
static int cg_is_two(const ast_expr *e)
{
    return (e->kind == AST_INT && e->u.ival == 2) || (e->kind == AST_FLOAT && e->u.fval == 2.0);
}

/* Print a builtin call. */
static void cg_builtin(void *p, const ast_expr *e)
{
    cg_emitter *em = p;
    static const char *const fns[AST_BUILTIN_COUNT] = {
        "fabs", "sqrt", "exp", "log", "sin", "cos", "tanh", NULL, "floor", "ceil", NULL,
        "tan", "erf", "log1p", "expm1"};
    ft_dtype t = e->dtype;
    ast_builtin f = e->u.call.f;
    ast_expr **args = e->u.call.args;
    int isf = ft_dtype_is_float(t);
    if (f == AST_SQUARE)
        cg_helper_call(em, CG_H_SQUARE, "square", t, 1, args);
    else if (f == AST_SIGMOID && isf)
        cg_helper_call(em, CG_H_SIGMOID, "sigmoid", t, 1, args);
    else if (f == AST_SIGMOID) {
        fprintf(em->out, "((%s)", cg_ctype(t));
        cg_helper_call(em, CG_H_SIGMOID, "sigmoid", FT_F64, 1, args);
        fputc(')', em->out);
    } else if (!isf && (f == AST_FLOOR || f == AST_CEIL || (f == AST_ABS && t == FT_BOOL)))
        cg_expr(em, args[0], 1);
    else if (!isf && f == AST_ABS)
        cg_helper_call(em, CG_H_ABS, "abs", t, 1, args);
    else
        cg_math_call(em, fns[f], t, e->u.call.n, args);
}

/* Whether integer expression e is >= 0 wherever it is evaluated: literals
 * >= 0, sizes (checked at entry), iterators of loops counting up from a
 * literal >= 0, and sums, products, floor divisions and remainders of
 * those by positive literals. */
static int cg_nonneg(const cg_emitter *em, const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT: return e->u.ival >= 0;
    case AST_VAR:
        for (int i = 0; i < em->nonneg.len; i++)
            if (strcmp(em->nonneg.items[i], e->u.name) == 0)
                return 1;
        for (int i = 0; em->func && i < em->func->nparams; i++)
            if (em->func->params[i].is_size && strcmp(em->func->params[i].name, e->u.name) == 0)
                return 1;
        return 0;
    case AST_BINARY:
        switch (e->u.bin.op) {
        case AST_ADD: case AST_MUL:
            return cg_nonneg(em, e->u.bin.a) && cg_nonneg(em, e->u.bin.b);
        case AST_FLOORDIV: case AST_MOD:
            return cg_nonneg(em, e->u.bin.a) && e->u.bin.b->kind == AST_INT &&
                   e->u.bin.b->u.ival > 0;
        default: return 0;
        }
    default: return 0;
    }
}

/* Print a binary operation with C semantics matching the language's. */
static void cg_binary(void *p, const ast_expr *e, int paren)
{
    cg_emitter *em = p;
    static const char *const ops[AST_BINOP_COUNT] = {
        "+", "-", "*", "/", NULL, NULL, NULL, NULL, NULL,
        "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    ft_dtype t = e->dtype;
    ast_expr *args[2] = {e->u.bin.a, e->u.bin.b};
    switch (e->u.bin.op) {
    case AST_FLOORDIV:
    case AST_MOD:
        if (ft_dtype_is_int(t) && args[1]->kind == AST_INT && args[1]->u.ival > 0 &&
            cg_nonneg(em, args[0])) {      /* C's / and % agree: no helper */
            fputc('(', em->out);
            cg_expr(em, args[0], 1);
            fprintf(em->out, " %c %lld)", e->u.bin.op == AST_MOD ? '%' : '/',
                    (long long)args[1]->u.ival);
        } else if (e->u.bin.op == AST_FLOORDIV)
            cg_helper_call(em, CG_H_FLOORDIV, "floordiv", t, 2, args);
        else
            cg_helper_call(em, CG_H_MOD, "mod", t, 2, args);
        return;
    case AST_MIN: cg_helper_call(em, CG_H_MIN, "min", t, 2, args); return;
    case AST_MAX: cg_helper_call(em, CG_H_MAX, "max", t, 2, args); return;
    case AST_POW:
        if (cg_is_two(args[1]))
            cg_helper_call(em, CG_H_SQUARE, "square", t, 1, args);
        else if (ft_dtype_is_float(t))
            cg_math_call(em, "pow", t, 2, args);
        else
            cg_helper_call(em, CG_H_IPOW, "ipow", t == FT_I32 ? FT_I32 : FT_I64, 2, args);
        return;
    default:
        break;
    }
    if (paren)
        fputc('(', em->out);
    cg_expr(em, args[0], 1);
    fprintf(em->out, " %s ", ops[e->u.bin.op]);
    cg_expr(em, args[1], 1);
    if (paren)
        fputc(')', em->out);
}

/* The C name of the scalar that holds load e before the vectorized loops
 * around (cg_index_scalars), or NULL. */
static const char *cg_index_scalar(cg_emitter *em, const ast_expr *e)
{
    for (int i = em->ix_loads.len - 1; i >= 0; i--)
        if (ast_expr_equal(em->ix_loads.items[i], e))
            return em->ix_names.items[i];
    return NULL;
}

/* Print load e: the scalar holding it (cg_index_scalar) or the access. */
static void cg_load(void *p, const ast_expr *e)
{
    cg_emitter *em = p;
    const char *h = cg_index_scalar(em, e);
    if (h)
        fputs(h, em->out);
    else
        cg_access(em, e->u.load.var, e->u.load.n, e->u.load.idx, e->loc, 1);
}

/* Print an expression; paren: wrap compound expressions in parentheses
 * (0 only where the context already delimits it). */
static void cg_expr(cg_emitter *em, const ast_expr *e, int paren)
{
    cg_print_expr(&em->pr, e, paren);
}

/* An expression as C text (arena-owned). */
static const char *cg_expr_str(cg_emitter *em, const ast_expr *e, int paren)
{
    return cg_print_str(&em->pr, em->ctx, e, paren);
}

/* text as one indented line (the printer's line hook). */
static void cg_text_line(void *p, const char *text)
{
    cg_line(p, "%s", text);
}

/* Set up em's expression printer (cg_core.h) with the C target's hooks. */
static void cg_printer_init(cg_emitter *em)
{
    em->pr = (cg_printer){&em->out, em, cg_load, cg_binary, cg_builtin, cg_float_lit,
                          cg_cname, cg_ctype, cg_text_line};
}

/* ------------------------------------------------------- run-time checks */

/* Record failure fl (the first of the call wins: ft__fail) and jump to the
 * end of the current region: written after an `if (...)` on the same
 * line. */
static void cg_fail(cg_emitter *em, cg_failure fl)
{
    cg_region *r = em->region;
    r->label_used = 1;
    em->fails++;
    fprintf(em->out, " { ft__fail(&ft__err, &ft__er, %s, %d, %s, %s); goto ft__end%d; }\n",
            fl.code_name, fl.site, fl.v[0] ? fl.v[0] : "0", fl.v[1] ? fl.v[1] : "0", r->label);
}

/* The conditions under which a subexpression is evaluated: the branch of
 * an if-expression, the right operand of `and` / `or`.  A check under a
 * guard only fires when the guard holds, so `x[i[k]] if i[k] >= 0 else 0`
 * does not fail for a negative i[k]. */
typedef struct cg_guards {
    int n;
    const ast_expr *cond[32];
    int negate[32];
} cg_guards;

static void cg_checks_expr(cg_emitter *em, const ast_expr *e, cg_guards *g);

/* Check e under one more guard (cond, or !cond when negate). */
static void cg_checks_guarded(cg_emitter *em, const ast_expr *e, cg_guards *g,
                              const ast_expr *cond, int negate)
{
    if (g->n == 32) {   /* absurdly deep nesting: check without the guard */
        cg_checks_expr(em, e, g);
        return;
    }
    g->cond[g->n] = cond;
    g->negate[g->n++] = negate;
    cg_checks_expr(em, e, g);
    g->n--;
}

/* The failing condition of a bounds check of index text x against
 * dimension text d (arena-owned). */
static const char *cg_check_cond(cg_emitter *em, const char *x, const char *d)
{
    return ft_fmt(em->ctx, cg_is_simple(d) ? "(uint64_t)%s >= (uint64_t)%s"
                  : "(uint64_t)%s >= (uint64_t)(%s)", x, d);
}

/* Whether check condition c is known to hold false here (em->known). */
static int cg_known(cg_emitter *em, const char *c)
{
    for (int i = 0; i < em->known.len; i++)
        if (strcmp(em->known.items[i], c) == 0)
            return 1;
    return 0;
}

/* Emit the bounds check of index k of a load or store of var, unless it is
 * known to pass here; while hoisting (em->hoist), only an unguarded check
 * invariant in the loop, which is then known inside it. */
static void cg_check_index(cg_emitter *em, const char *var, int k, const ast_expr *idx,
                           cg_guards *g, ft_loc loc)
{
    const ast_stmt *h = em->hoist;
    if (h && (g->n || !xf_check_hoistable(em->ctx, h, var, idx)))
        return;
    cg_sym *sym = cg_lookup(em, var, loc);
    if (!sym || k >= sym->ndim)
        return;
    const char *x = cg_expr_str(em, idx, 1);
    const char *c = cg_check_cond(em, x, sym->dims[k]);
    if (cg_known(em, c))
        return;
    if (h || (em->in_leaf && !g->n))
        ft_vec_push(em->ctx, &em->known, (void *)c);
    cg_ind(em);
    fputs("if (", em->out);
    for (int i = 0; i < g->n; i++) {
        fputs(g->negate[i] ? "!" : "", em->out);
        cg_expr(em, g->cond[i], 1);
        fputs(" && ", em->out);
    }
    fprintf(em->out, "%s)", c);
    cg_failure fl = cg_site_index(em->ctx, &em->sites, em->func,
                                  cg_site_access_loc(loc, em->stmt_loc), var, k, idx);
    fl.v[0] = ft_fmt(em->ctx, "(int64_t)%s", x);
    fl.v[1] = ft_fmt(em->ctx, cg_is_simple(sym->dims[k]) ? "%s" : "(%s)", sym->dims[k]);
    cg_fail(em, fl);
}

/* Check the data-dependent indices of an access var[idx] (inner first). */
static void cg_checks_access(cg_emitter *em, const char *var, int n, ast_expr **idx,
                             cg_guards *g, ft_loc loc)
{
    for (int k = 0; k < n; k++) {
        cg_checks_expr(em, idx[k], g);
        if (cg_has_load(idx[k]))
            cg_check_index(em, var, k, idx[k], g, loc);
    }
}

/* Emit the checks of every data-dependent index inside e. */
static void cg_checks_expr(cg_emitter *em, const ast_expr *e, cg_guards *g)
{
    switch (e->kind) {
    case AST_LOAD:
        cg_checks_access(em, e->u.load.var, e->u.load.n, e->u.load.idx, g, e->loc);
        break;
    case AST_BINARY:
        cg_checks_expr(em, e->u.bin.a, g);
        if (e->u.bin.op == AST_AND || e->u.bin.op == AST_OR)
            cg_checks_guarded(em, e->u.bin.b, g, e->u.bin.a, e->u.bin.op == AST_OR);
        else
            cg_checks_expr(em, e->u.bin.b, g);
        break;
    case AST_UNARY: cg_checks_expr(em, e->u.un.a, g); break;
    case AST_CAST: cg_checks_expr(em, e->u.cast.a, g); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            cg_checks_expr(em, e->u.call.args[i], g);
        break;
    case AST_IFEXPR:
        cg_checks_expr(em, e->u.ife.cond, g);
        cg_checks_guarded(em, e->u.ife.then, g, e->u.ife.cond, 0);
        cg_checks_guarded(em, e->u.ife.other, g, e->u.ife.cond, 1);
        break;
    default:
        break;
    }
}

/* Emit the checks of an expression at statement level (may be NULL). */
static void cg_checks(cg_emitter *em, const ast_expr *e)
{
    cg_guards g = {0};
    if (e)
        cg_checks_expr(em, e, &g);
}

/* Emit the checks of a store or reduce target. */
static void cg_checks_target(cg_emitter *em, const char *var, int n, ast_expr **idx,
                             ft_loc loc)
{
    cg_guards g = {0};
    cg_checks_access(em, var, n, idx, &g, loc);
}

/* ------------------------------------------------------------- stmts */

static void cg_stmt(cg_emitter *em, const ast_stmt *s);

/* An lvalue as C text (arena-owned). */
static const char *cg_lvalue_str(cg_emitter *em, const char *var, int n, ast_expr **idx,
                                 ft_loc loc)
{
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    cg_access(em, var, n, idx, loc, 0);
    char *s = cg_sub_end(&em->out, &sub);
    const char *r = ft_strdup(em->ctx, s);
    free(s);
    return r;
}

/* var[idx] = value */
static void cg_store(cg_emitter *em, const ast_stmt *s)
{
    cg_checks_target(em, s->u.store.var, s->u.store.n, s->u.store.idx, s->loc);
    cg_checks(em, s->u.store.value);
    const char *lv = cg_lvalue_str(em, s->u.store.var, s->u.store.n, s->u.store.idx, s->loc);
    cg_ind(em);
    fprintf(em->out, "%s = ", lv);
    cg_expr(em, s->u.store.value, 0);
    fputs(";\n", em->out);
}

/* var[idx] op= value, atomically when red.atomic is AST_RED_ATOMIC (an
 * AST_RED_PRIVATE one finds var bound to the thread's copy, cg_priv_*). */
static void cg_reduce(cg_emitter *em, const ast_stmt *s)
{
    static const char *const names[] = {"add", "mul", "min", "max"};
    static const cg_helper atomics[] = {CG_H_ATOMIC_ADD, CG_H_ATOMIC_MUL, CG_H_ATOMIC_MIN,
                                        CG_H_ATOMIC_MAX};
    cg_checks_target(em, s->u.red.var, s->u.red.n, s->u.red.idx, s->loc);
    cg_checks(em, s->u.red.value);
    cg_sym *sym = cg_lookup(em, s->u.red.var, s->loc);
    if (!sym)
        return;
    ft_dtype t = sym->dtype;
    ast_reduce_op op = s->u.red.op;
    const char *lv = cg_lvalue_str(em, s->u.red.var, s->u.red.n, s->u.red.idx, s->loc);
    int simple_op = op == AST_RED_ADD || op == AST_RED_MUL;
    int omp_type = t == FT_I32 || t == FT_I64 || t == FT_F32 || t == FT_F64;
    int atomic = s->u.red.atomic == AST_RED_ATOMIC &&
                 !(s->u.red.n == 0 && xf_has_name(&em->omp_red_vars, s->u.red.var));
    if (atomic && !(simple_op && omp_type)) {
        cg_use(em, atomics[op], t);
        cg_ind(em);
        /* the address of the element ("*p" is the element of pointer p) */
        const char *addr = lv[0] == '*' ? lv + 1 : ft_fmt(em->ctx, "&%s", lv);
        fprintf(em->out, "ft__atomic_%s_%s(%s, ", names[op], ft_dtype_name(t), addr);
        cg_expr(em, s->u.red.value, 0);
        fputs(");\n", em->out);
        return;
    }
    if (atomic)
        cg_line(em, "#pragma omp atomic");
    cg_ind(em);
    if (simple_op) {
        fprintf(em->out, "%s %s= ", lv, op == AST_RED_ADD ? "+" : "*");
        cg_expr(em, s->u.red.value, 0);
        fputs(";\n", em->out);
        return;
    }
    cg_use(em, op == AST_RED_MIN ? CG_H_MIN : CG_H_MAX, t);
    fprintf(em->out, "%s = ft__%s_%s(%s, ", lv, names[op], ft_dtype_name(t), lv);
    cg_expr(em, s->u.red.value, 0);
    fputs(");\n", em->out);
}

/* Emit the statements of body as a region (see the file comment) at the
 * current indentation: heap declarations, the body, the end label, the
 * frees, then tail (a line, or NULL).  When hoisted is given, the heap
 * buffers are added to it instead, for the caller to declare and free
 * around the region (once per thread for a parallel loop, not once per
 * iteration).  Returns whether any check may jump to the end (the region
 * can fail). */
static int cg_region_body(cg_emitter *em, const ast_stmt *body, int parallel,
                          const char *tail, ft_vec *hoisted)
{
    cg_region r = {.label = em->next_id++, .parallel = parallel};
    cg_region *outer = em->region;
    em->region = &r;
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    cg_stmt(em, body);
    char *text = cg_sub_end(&em->out, &sub);
    em->region = outer;
    for (int i = 0; i < r.heap.len && !hoisted; i++)
        cg_line(em, "void *%s = NULL; size_t %s_n = 0;", (char *)r.heap.items[i],
                (char *)r.heap.items[i]);
    fputs(text, em->out);
    free(text);
    if (r.label_used)
        fprintf(em->out, "ft__end%d:;\n", r.label);
    for (int i = 0; i < r.heap.len; i++)
        if (hoisted)
            ft_vec_push(em->ctx, hoisted, r.heap.items[i]);
        else
            cg_line(em, "free(%s);", (char *)r.heap.items[i]);
    if (tail)
        cg_line(em, "%s", tail);
    return r.label_used;
}

/* Whether a For bound can be used as it is in the loop condition. */
static int cg_is_invariant_leaf(const ast_expr *e)
{
    return e->kind == AST_INT || e->kind == AST_VAR;
}

static void cg_pf_guards(cg_emitter *em, const ast_expr *e, ft_vec *conds);

/* Add to conds that every index of var[idx] is in range, the loads inside
 * an index first (a `&&` chain evaluates a load only once its own indices
 * passed). */
static void cg_pf_access_guards(cg_emitter *em, const char *var, int n, ast_expr **idx,
                                ft_loc loc, ft_vec *conds)
{
    cg_sym *sym = cg_lookup(em, var, loc);
    if (!sym || sym->ndim != n)
        return;
    for (int k = 0; k < n; k++) {
        cg_pf_guards(em, idx[k], conds);
        const char *d = sym->dims[k];
        char *end;
        if (idx[k]->kind == AST_INT && idx[k]->u.ival >= 0 &&
            idx[k]->u.ival < strtoll(d, &end, 10) && *end == '\0')
            continue;   /* a constant index within a constant dimension */
        cg_sub sub;
        cg_sub_begin(em->ctx, &em->out, &sub);
        cg_index_expr(em, idx[k], 1);
        char *x = cg_sub_end(&em->out, &sub);
        ft_vec_push(em->ctx, conds, ft_fmt(em->ctx, cg_is_simple(d) ? "(uint64_t)%s < "
                    "(uint64_t)%s" : "(uint64_t)%s < (uint64_t)(%s)", x, d));
        free(x);
    }
}

/* Add to conds the range conditions of every load inside e. */
static void cg_pf_guards(cg_emitter *em, const ast_expr *e, ft_vec *conds)
{
    switch (e->kind) {
    case AST_LOAD:
        cg_pf_access_guards(em, e->u.load.var, e->u.load.n, e->u.load.idx, e->loc, conds);
        break;
    case AST_BINARY:
        cg_pf_guards(em, e->u.bin.a, conds);
        cg_pf_guards(em, e->u.bin.b, conds);
        break;
    case AST_UNARY: cg_pf_guards(em, e->u.un.a, conds); break;
    case AST_CAST: cg_pf_guards(em, e->u.cast.a, conds); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            cg_pf_guards(em, e->u.call.args[i], conds);
        break;
    case AST_IFEXPR:
        cg_pf_guards(em, e->u.ife.cond, conds);
        cg_pf_guards(em, e->u.ife.then, conds);
        cg_pf_guards(em, e->u.ife.other, conds);
        break;
    default: break;
    }
}

/* A prefetch hint of auto_prefetch.c at the top of a loop body: the cache
 * lines of the element p->at and of the p->span elements from it (at most
 * 512 bytes), only when the tensor holds at least p->min_bytes and every
 * index involved is in range (an iteration ahead may not exist: it is
 * skipped, never an error).  The addresses
 * past the element are computed as integers: they may leave the tensor. */
static void cg_prefetch(cg_emitter *em, const ast_prefetch *p)
{
    const ast_expr *at = p->at;
    ft_vec conds = {0};
    cg_sym *sym = cg_lookup(em, at->u.load.var, at->loc);
    if (!sym)
        return;
    const char *bytes = ft_fmt(em->ctx, "%" PRId64, cg_dtype_size(at->dtype));
    for (int k = 0; k < sym->ndim; k++)
        bytes = ft_fmt(em->ctx, cg_is_simple(sym->dims[k]) ? "%s * %s" : "%s * (%s)", bytes,
                       sym->dims[k]);
    ft_vec_push(em->ctx, &conds, ft_fmt(em->ctx, "%s >= %" PRId64, bytes, p->min_bytes));
    cg_pf_access_guards(em, at->u.load.var, at->u.load.n, at->u.load.idx, at->loc, &conds);
    cg_ind(em);
    fputs("if (", em->out);
    for (int i = 0; i < conds.len; i++)
        fprintf(em->out, "%s%s", i ? " && " : "", (const char *)conds.items[i]);
    fputs(") {\n", em->out);
    em->indent++;
    const char *lv = cg_lvalue_str(em, at->u.load.var, at->u.load.n, at->u.load.idx, at->loc);
    if (!p->span) {
        cg_line(em, "__builtin_prefetch(&%s, %d, 3);", lv, p->write);
    } else {
        int id = em->next_id++;
        cg_line(em, "const uintptr_t ft__pf%d = (uintptr_t)&%s;", id, lv);
        cg_line(em, "const int64_t ft__pb%d = %s * %" PRId64 ";", id,
                cg_expr_str(em, p->span, 1), cg_dtype_size(at->dtype));
        cg_line(em, "const uintptr_t ft__pe%d = ft__pf%d + (uintptr_t)(ft__pb%d < 0 ? 0 : "
                "ft__pb%d < 512 ? ft__pb%d : 512);", id, id, id, id, id);
        cg_line(em, "for (uintptr_t ft__pq%d = ft__pf%d & ~(uintptr_t)63; ft__pq%d < ft__pe%d; "
                "ft__pq%d += 64)", id, id, id, id, id);
        cg_line(em, "    __builtin_prefetch((const void *)ft__pq%d, %d, 3);", id, p->write);
    }
    em->indent--;
    cg_line(em, "}");
}

/* Emit a loop body, as a region when the loop is parallel (its heap
 * buffers go to hoisted); returns whether it can fail. */
static int cg_loop_body(cg_emitter *em, const ast_stmt *s, const char *iter_def,
                        ft_vec *hoisted)
{
    int par = s->u.loop.par == AST_OPENMP;
    em->indent++;
    if (iter_def)
        cg_line(em, "%s", iter_def);
    for (int i = 0; i < s->u.loop.npf; i++)
        cg_prefetch(em, &s->u.loop.pf[i]);
    int can_fail = par ? cg_region_body(em, s->u.loop.body, 1, NULL, hoisted) : 0;
    if (!par)
        cg_stmt(em, s->u.loop.body);
    em->indent--;
    cg_line(em, "}");
    return can_fail;
}

/* After a parallel loop that can fail, pass its error on to the enclosing
 * region. */
static void cg_pass_error(cg_emitter *em)
{
    cg_ind(em);
    if (em->region->parallel)
        fputs("if (__atomic_load_n(&ft__err, __ATOMIC_RELAXED))", em->out);
    else
        fputs("if (ft__err)", em->out);
    em->region->label_used = 1;
    fprintf(em->out, " goto ft__end%d;\n", em->region->label);
}

/* The address of the first element of a gemm operand ("x" when it is
 * x[0, ..., 0]). */
static const char *cg_gemm_ptr(cg_emitter *em, const xf_gemm_operand *op, ft_loc loc)
{
    int zero = 1;
    for (int d = 0; d < op->n; d++)
        zero &= op->base[d]->kind == AST_INT && op->base[d]->u.ival == 0;
    const char *lv = cg_lvalue_str(em, op->var, op->n, op->base, loc);
    if (!zero)
        return ft_fmt(em->ctx, "&%s", lv);
    cg_sym *sym = cg_lookup(em, op->var, loc);
    return sym ? sym->cname : lv;
}

/* Emit the gemm call of a recognised nest (after its batch loops): the
 * prelude's ft__gemm_f32/f64 (backend/cg_gemm.c), which splits a product
 * whose sizes do not fit BLAS's int into calls that do. */
static void cg_gemm_call(cg_emitter *em, const ast_stmt *s, const xf_gemm *g)
{
    const char *t = g->dtype == FT_F32 ? "f" : "";
    const char *alpha = g->alpha ? cg_expr_str(em, g->alpha, 0) : ft_fmt(em->ctx, "1.0%s", t);
    const char *pa = cg_gemm_ptr(em, &g->a, s->loc), *pb = cg_gemm_ptr(em, &g->b, s->loc);
    const char *pc = cg_gemm_ptr(em, &g->c, s->loc);
    em->uses_blas |= 1 << g->dtype;
    cg_line(em, "(void)ft__gemm_%s(NULL, %d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);",
            ft_dtype_name(g->dtype), g->a.trans, g->b.trans, cg_expr_str(em, g->m, 0),
            cg_expr_str(em, g->n, 0), cg_expr_str(em, g->k, 0), alpha, pa,
            cg_expr_str(em, g->a.ld, 0), pb, cg_expr_str(em, g->b.ld, 0),
            g->beta ? ft_fmt(em->ctx, "1.0%s", t) : ft_fmt(em->ctx, "0.0%s", t), pc,
            cg_expr_str(em, g->c.ld, 0));
}

/* An as_lib loop: its batch loops, then one BLAS gemm call (see
 * transforms/lib_gemm.h).  A nest that no longer matches (an internal
 * error: later passes do not touch AST_LIB nests) is reported. */
static void cg_lib(cg_emitter *em, const ast_stmt *s)
{
    xf_gemm g;
    const char *why = NULL;
    if (!xf_gemm_match(em->ctx, em->func, s, &g, &why)) {
        ft_error(em->ctx, s->loc, "internal error: C backend: the as_lib nest %s is no "
                 "longer a matrix product: %s", s->u.loop.iter, why);
        return;
    }
    cg_line(em, "/* as_lib(%s): %s %s= %s%s%s%s @ %s%s (BLAS) */",
            s->label ? s->label : s->u.loop.iter, g.c.var, g.beta ? "+" : "",
            g.alpha ? cg_expr_str(em, g.alpha, 1) : "", g.alpha ? " * " : "", g.a.var,
            g.a.trans ? "^T" : "", g.b.var, g.b.trans ? "^T" : "");
    for (int i = 0; i < g.nbatch; i++) {
        const ast_stmt *l = g.batch[i];
        const char *it = cg_cname(em, l->u.loop.iter);
        cg_checks(em, l->u.loop.begin);
        cg_checks(em, l->u.loop.end);
        int id = em->next_id++;
        cg_line(em, "const int64_t ft__e%d = %s;", id, cg_expr_str(em, l->u.loop.end, 0));
        cg_line(em, "for (int64_t %s = %s; %s < ft__e%d; %s++) {", it,
                cg_expr_str(em, l->u.loop.begin, 0), it, id, it);
        em->indent++;
    }
    if (g.alpha)
        cg_checks(em, g.alpha);
    cg_gemm_call(em, s, &g);
    for (int i = 0; i < g.nbatch; i++) {
        em->indent--;
        cg_line(em, "}");
    }
}

/* Emit the checks of the statements of a loop body that run in every
 * iteration (through sequences and local definitions, up to an assert,
 * which must fail first); cg_check_index keeps the invariant ones. */
static void cg_hoist_walk(cg_emitter *em, const ast_stmt *s, int *stop)
{
    if (!s || *stop)
        return;
    ft_loc saved_loc = em->stmt_loc;
    em->stmt_loc = s->loc;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cg_hoist_walk(em, s->u.seq.stmts[i], stop);
        break;
    case AST_VARDEF: cg_hoist_walk(em, s->u.def.body, stop); break;
    case AST_STORE:
        cg_checks_target(em, s->u.store.var, s->u.store.n, s->u.store.idx, s->loc);
        cg_checks(em, s->u.store.value);
        break;
    case AST_REDUCE:
        cg_checks_target(em, s->u.red.var, s->u.red.n, s->u.red.idx, s->loc);
        cg_checks(em, s->u.red.value);
        break;
    case AST_ASSERT: *stop = 1; break;
    default: break;
    }
    em->stmt_loc = saved_loc;
}

/* Check the data-dependent indices that do not change inside serial loop s
 * (constant step `step`) once before it, when it runs at all, rather than in
 * every iteration: an early exit in a loop keeps gcc from vectorizing it.
 * The conditions go to em->known for the body (the caller pops them). */
static void cg_hoist_checks(cg_emitter *em, const ast_stmt *s, int64_t step)
{
    cg_sub sub;
    const ast_stmt *outer = em->hoist;
    int stop = 0;
    em->indent++;
    cg_sub_begin(em->ctx, &em->out, &sub);
    em->hoist = s;
    cg_hoist_walk(em, s->u.loop.body, &stop);
    em->hoist = outer;
    char *text = cg_sub_end(&em->out, &sub);
    em->indent--;
    if (*text) {
        cg_line(em, "if (%s %s %s) {", cg_expr_str(em, s->u.loop.begin, 1), step > 0 ? "<" : ">",
                cg_expr_str(em, s->u.loop.end, 1));
        fputs(text, em->out);
        cg_line(em, "}");
    }
    free(text);
}

/* Read the invariant index loads of vectorized loop s (constant step
 * `step`; cg_facts.h) into scalars before it, when it runs at all: they
 * stand for those loads in its body and in its hoisted checks. */
static void cg_index_scalars(cg_emitter *em, const ast_stmt *s, int64_t step)
{
    ft_vec loads = {0};
    cg_invariant_index_loads(em->ctx, s, &loads);
    for (int i = 0; i < loads.len; i++) {
        const ast_expr *e = loads.items[i];
        const char *name = ft_fmt(em->ctx, "ft__ix%d", em->next_id++);
        cg_line(em, "const %s %s = %s %s %s ? %s : 0;", cg_ctype(e->dtype), name,
                cg_expr_str(em, s->u.loop.begin, 1), step > 0 ? "<" : ">",
                cg_expr_str(em, s->u.loop.end, 1), cg_expr_str(em, e, 1));
        ft_vec_push(em->ctx, &em->ix_loads, (void *)e);
        ft_vec_push(em->ctx, &em->ix_names, (void *)name);
    }
}

/* Collects the SIMD reduction clauses of a vectorized loop. */
typedef struct cg_simd_red {
    ast_visitor v;
    cg_emitter *em;
    const ast_stmt *body;
    ft_vec vars;             /* names already in a clause */
    char *clauses;           /* arena: " reduction(+: t) ..." */
} cg_simd_red;

/* The operator of a reduction clause of op on dtype t: OpenMP's own, but
 * for a float min or max the declared reduction ft__red_max_f32 (and the
 * like, cg_helper_def): OpenMP's max of floats is unspecified for NaN
 * (GCC's maxps returns the second operand), so the result would depend on
 * the threads or lanes, where the language's max propagates NaN. */
static const char *cg_red_clause_op(cg_emitter *em, ast_reduce_op op, ft_dtype t)
{
    static const char *const ops[] = {"+", "*", "min", "max"};
    if ((op != AST_RED_MIN && op != AST_RED_MAX) || !ft_dtype_is_float(t))
        return ops[op];
    cg_use(em, op == AST_RED_MIN ? CG_H_RED_MIN : CG_H_RED_MAX, t);
    return ft_fmt(em->ctx, "ft__red_%s_%s", ops[op], ft_dtype_name(t));
}

static int cg_simd_red_cb(ast_visitor *v, ast_stmt *s)
{
    cg_simd_red *w = (cg_simd_red *)v;
    if (s->kind != AST_REDUCE || s->u.red.n != 0 || xf_defines(w->body, s->u.red.var) ||
        xf_has_name(&w->vars, s->u.red.var))
        return 1;
    cg_sym *sym = cg_lookup(w->em, s->u.red.var, s->loc);
    if (!sym || sym->kind != CG_SYM_SCALAR)
        return 1;
    ft_vec_push(w->em->ctx, &w->vars, (void *)s->u.red.var);
    w->clauses = ft_fmt(w->em->ctx, "%s reduction(%s: %s)", w->clauses,
                        cg_red_clause_op(w->em, s->u.red.op, sym->dtype), sym->cname);
    return 1;
}

/* Finds an atomic reduction. */
typedef struct cg_atomic_find {
    ast_visitor v;
    int found;
} cg_atomic_find;

static int cg_atomic_find_cb(ast_visitor *v, ast_stmt *s)
{
    cg_atomic_find *w = (cg_atomic_find *)v;
    if (s->kind == AST_REDUCE && s->u.red.atomic == AST_RED_ATOMIC)
        w->found = 1;
    return !w->found;
}

/* Whether an atomic reduction is under s. */
static int cg_has_atomic(const ast_stmt *s)
{
    cg_atomic_find w = {.v.stmt = cg_atomic_find_cb};
    ast_visit((ast_stmt *)s, &w.v);
    return w.found;
}

/* The pragma of a vectorized loop: `omp simd`, with a reduction clause per
 * 0-D local that the body reduces into (xf_vectorize allows only those).
 * A loop that holds an atomic update (a reduction that a parallel loop
 * around it made atomic) gets no pragma but a comment: OpenMP 4.5, the
 * version gcc's _OPENMP claims (201511), allows no construct but `ordered
 * simd` in a simd region (5.0 allows `atomic`, but gcc does not vectorize
 * an atomic update anyway), and the compare-and-swap loops of min/max
 * would have SIMD lanes contend with each other. */
static const char *cg_simd_pragma(cg_emitter *em, const ast_stmt *s)
{
    if (cg_has_atomic(s->u.loop.body))
        return "/* vectorize: no `omp simd`, the body has atomic updates */";
    cg_simd_red w = {.v.stmt = cg_simd_red_cb, .em = em, .body = s->u.loop.body,
                     .clauses = ""};
    ast_visit(s->u.loop.body, &w.v);
    return ft_fmt(em->ctx, "#pragma omp simd%s", w.clauses);
}

/* ------------------------------------------------- simd lane sums */

/* A vectorized loop whose body sums into 0-D locals is emitted by default
 * as `omp simd reduction(+: r)`.  gcc lowers that clause to an array with
 * one element per SIMD lane which, after the loop, it adds up one lane at a
 * time (16 dependent scalar loads and adds for a 16-lane f32 vector, and a
 * scalar epilogue of up to 15 iterations, unrolled): where the loop is short
 * (SubdivNet's backward mat-vec `d_f[k] += d_t[j] * w[k, j]`, 64 j per k)
 * that sum cost more than the loop.  So such a loop is emitted in lanes
 * instead ("lane sums"), B blocks of V lanes per sum:
 *
 *     const int64_t ft__nN = trips, ft__mN = b + (ft__nN & ~(B V - 1));
 *     T ft__vN_0_0[V] = {0}, ... ft__vN_0_{B-1}   (per sum, per block)
 *     for (int64_t ft__jN = b; ft__jN < ft__mN; ft__jN += B V) {
 *         #pragma omp simd                     (once per block c)
 *         for (int64_t ft__lN = 0; ft__lN < V; ft__lN++) {
 *             const int64_t j = ft__jN + c V + ft__lN;
 *             body, summing into ft__vN_0_c[ft__lN]
 *         }
 *     }
 *     the blocks added into block 0, halving steps of ft__vN_0_0 (each an
 *     `omp simd` loop of V/2, V/4 ... 4 lanes), then
 *     r += (v[0] + v[2]) + (v[1] + v[3]);
 *     for (int64_t ft__tN = 0; ft__tN < (ft__nN & (B V - 1)); ft__tN++)
 *         body with j = ft__mN + ft__tN        (the rest, in order)
 *
 * V lanes are 32 bytes (8 f32, 4 f64 when one sum is f64): a whole vector on
 * AVX2 (two with SSE), half of one on AVX-512.  One 32-byte chain of adds per
 * sum would leave the adds' latency exposed in a long loop (Longformer's
 * 512-term dot products: 10% slower than with 64-byte lanes), so a loop with
 * one or two sums has B = 2 blocks per sum, each its own chain; a loop with
 * more (auto_jam's blocks: four) has B = 1, its sums being independent
 * chains already.  Blocks of 32 bytes rather than one 64-byte array per sum
 * because the C compiler keeps each block in one register to the end: a
 * 64-byte array was stored to the stack after the loop and its halves loaded
 * back for the first halving step, and those steps cost as much as the
 * products of a 64-term sum (SubdivNet's backward at 13 in-features: 15%
 * faster with the blocks).  The sum is in a different order than the serial
 * one, as `omp simd reduction` allows already.
 *
 * Taken for loops of step 1 whose sums are all `+=` into f32 or f64 locals
 * and whose body has no loop, no VarDef (it is emitted B + 1 times) and no
 * atomic; other loops keep the reduction clause. */

typedef struct cg_lane_find {
    ast_visitor v;
    cg_emitter *em;
    const ast_stmt *body;
    ft_vec vars;             /* the summed locals' names (const char *) */
    int bad;                 /* a construct the lane form does not take */
} cg_lane_find;

static int cg_lane_find_cb(ast_visitor *v, ast_stmt *s)
{
    cg_lane_find *w = (cg_lane_find *)v;
    if (s->kind == AST_FOR || s->kind == AST_VARDEF ||
        (s->kind == AST_REDUCE && s->u.red.atomic))
        w->bad = 1;
    if (w->bad || s->kind != AST_REDUCE || s->u.red.n != 0 ||
        xf_defines(w->body, s->u.red.var) || xf_has_name(&w->vars, s->u.red.var))
        return !w->bad;
    cg_sym *sym = cg_lookup(w->em, s->u.red.var, s->loc);
    if (!sym || sym->kind != CG_SYM_SCALAR)
        return 1;
    if (s->u.red.op != AST_RED_ADD || (sym->dtype != FT_F32 && sym->dtype != FT_F64))
        w->bad = 1;
    else
        ft_vec_push(w->em->ctx, &w->vars, (void *)s->u.red.var);
    return !w->bad;
}

/* The locals that vectorized loop s sums into when it is to be emitted in
 * lanes (see above), in *vars; 0 when it is not. */
static int cg_lane_sums(cg_emitter *em, const ast_stmt *s, ft_vec *vars)
{
    const ast_expr *st = s->u.loop.step;
    if (s->u.loop.par != AST_VECTORIZE || (st && !(st->kind == AST_INT && st->u.ival == 1)))
        return 0;
    cg_lane_find w = {.v.stmt = cg_lane_find_cb, .em = em, .body = s->u.loop.body};
    ast_visit(s->u.loop.body, &w.v);
    if (w.bad || w.vars.len == 0)
        return 0;
    *vars = w.vars;
    return 1;
}

/* Whether body is only sums into the locals vars (a sequence of `r +=
 * value`) with no checked access (cg_checks would emit nothing): its rest
 * can run as one more block of lanes, the lanes past the end adding 0. */
static int cg_lane_masked_ok(const ast_stmt *body, const ft_vec *vars)
{
    if (body->kind == AST_SEQ) {
        for (int i = 0; i < body->u.seq.n; i++)
            if (!cg_lane_masked_ok(body->u.seq.stmts[i], vars))
                return 0;
        return 1;
    }
    return body->kind == AST_REDUCE && body->u.red.n == 0 &&
           xf_has_name(vars, body->u.red.var) && !xf_stmt_checked(body);
}

/* The shape of a lane loop with nsums sums (f64: one of them is f64): V
 * lanes per block in *vlanes, B blocks per sum in *blocks (see above). */
static void cg_lane_shape(int nsums, int f64, int *vlanes, int *blocks)
{
    *vlanes = 32 / (f64 ? 8 : 4);
    *blocks = nsums > 2 ? 1 : 2;
}

/* The name of lane loop id's block c of sum v. */
static const char *cg_lane_block(cg_emitter *em, int id, int v, int c)
{
    return ft_fmt(em->ctx, "ft__v%d_%d_%d", id, v, c);
}

/* Block c of the rest of a lane loop whose body is only sums
 * (cg_lane_masked_ok): each lane adds its value if its iteration it is
 * before end e and 0 if not (the C compiler masks the loads). */
static void cg_lane_masked_rest(cg_emitter *em, const ast_stmt *body, const char *it,
                                const char *e, int id, int c, const ft_vec *vars)
{
    if (body->kind == AST_SEQ) {
        for (int i = 0; i < body->u.seq.n; i++)
            cg_lane_masked_rest(em, body->u.seq.stmts[i], it, e, id, c, vars);
        return;
    }
    int v = 0;
    while (strcmp(vars->items[v], body->u.red.var) != 0)
        v++;
    cg_line(em, "%s[ft__l%d] += %s < %s ? %s : 0;", cg_lane_block(em, id, v, c), id, it, e,
            cg_expr_str(em, body->u.red.value, 1));
}

/* One `omp simd` loop of vlanes lanes over block c of lane loop s (id):
 * iteration `from + c vlanes + lane`, the sums syms going to their block c;
 * masked (the rest after the whole blocks, e its end): only the sums, each
 * lane past e adding 0. */
static void cg_lane_block_loop(cg_emitter *em, const ast_stmt *s, const ft_vec *vars,
                               cg_sym **syms, int id, int c, int vlanes, const char *from,
                               const char *e, int masked)
{
    const char *it = cg_cname(em, s->u.loop.iter);
    const char *at = c ? ft_fmt(em->ctx, "%s + %d + ft__l%d", from, c * vlanes, id)
                       : ft_fmt(em->ctx, "%s + ft__l%d", from, id);
    cg_line(em, "#pragma omp simd");
    cg_line(em, "for (int64_t ft__l%d = 0; ft__l%d < %d; ft__l%d++) {", id, id, vlanes, id);
    if (masked) {
        em->indent++;
        cg_line(em, "const int64_t %s = %s;", it, at);
        cg_lane_masked_rest(em, s->u.loop.body, it, e, id, c, vars);
        em->indent--;
        cg_line(em, "}");
        return;
    }
    int nsyms = em->syms.len;
    for (int i = 0; i < vars->len; i++) {   /* the sums go to the lanes */
        cg_sym *lane = cg_push_sym(em, syms[i]->name, syms[i]->dtype, 0, CG_SYM_SCALAR);
        lane->cname = ft_fmt(em->ctx, "%s[ft__l%d]", cg_lane_block(em, id, i, c), id);
    }
    cg_loop_body(em, s, ft_fmt(em->ctx, "const int64_t %s = %s;", it, at), NULL);
    em->syms.len = nsyms;
}

/* The total of sum v of lane loop id (blocks of vlanes lanes) added into
 * r: the blocks into block 0, then its halving steps and last adds. */
static void cg_lane_total(cg_emitter *em, int id, int v, const char *r, int vlanes, int blocks)
{
    const char *b0 = cg_lane_block(em, id, v, 0);
    for (int c = 1; c < blocks; c++) {
        cg_line(em, "#pragma omp simd");
        cg_line(em, "for (int ft__l%d = 0; ft__l%d < %d; ft__l%d++)", id, id, vlanes, id);
        cg_line(em, "    %s[ft__l%d] += %s[ft__l%d];", b0, id, cg_lane_block(em, id, v, c), id);
    }
    for (int h = vlanes / 2; h >= 4; h /= 2) {
        cg_line(em, "#pragma omp simd");
        cg_line(em, "for (int ft__l%d = 0; ft__l%d < %d; ft__l%d++)", id, id, h, id);
        cg_line(em, "    %s[ft__l%d] += %s[ft__l%d + %d];", b0, id, b0, id, h);
    }
    cg_line(em, "%s += (%s[0] + %s[2]) + (%s[1] + %s[3]);", r, b0, b0, b0, b0);
}

/* Open the block of loop s (id) cut into blocks of step iterations (a
 * power of two), as the lane sums and the simd blocks both emit it: its
 * begin and end as invariant C names (*b, *e), ft__nID its trip count and
 * ft__mID the first iteration past the whole blocks.  The caller closes
 * the `{`. */
static void cg_block_bounds(cg_emitter *em, const ast_stmt *s, int id, int step,
                            const char **b, const char **e)
{
    cg_line(em, "{");
    em->indent++;
    *b = cg_expr_str(em, s->u.loop.begin, 0);
    *e = cg_expr_str(em, s->u.loop.end, 0);
    if (!cg_is_invariant_leaf(s->u.loop.begin)) {
        cg_line(em, "const int64_t ft__b%d = %s;", id, *b);
        *b = ft_fmt(em->ctx, "ft__b%d", id);
    }
    if (!cg_is_invariant_leaf(s->u.loop.end)) {
        cg_line(em, "const int64_t ft__e%d = %s;", id, *e);
        *e = ft_fmt(em->ctx, "ft__e%d", id);
    }
    if (strcmp(*b, "0") == 0) {
        cg_line(em, "const int64_t ft__n%d = %s > 0 ? %s : 0;", id, *e, *e);
        cg_line(em, "const int64_t ft__m%d = ft__n%d & ~(int64_t)%d;", id, id, step - 1);
    } else {
        cg_line(em, "const int64_t ft__n%d = %s > %s ? %s - %s : 0;", id, *e, *b, *e, *b);
        cg_line(em, "const int64_t ft__m%d = %s + (ft__n%d & ~(int64_t)%d);", id, *b, id,
                step - 1);
    }
}

/* Emit vectorized loop s (step 1) in lanes, summing into the locals vars
 * (cg_lane_sums); see above. */
static void cg_for_lanes(cg_emitter *em, const ast_stmt *s, const ft_vec *vars)
{
    int id = em->next_id++;
    cg_sym **syms = ft_alloc(em->ctx, sizeof *syms * (size_t)vars->len);
    int f64 = 0;
    for (int i = 0; i < vars->len; i++) {
        syms[i] = cg_lookup(em, vars->items[i], s->loc);
        f64 |= syms[i]->dtype == FT_F64;
    }
    int vlanes, blocks;
    cg_lane_shape(vars->len, f64, &vlanes, &blocks);
    int step = vlanes * blocks;
    const char *b, *e;
    cg_block_bounds(em, s, id, step, &b, &e);
    for (int i = 0; i < vars->len; i++)
        for (int c = 0; c < blocks; c++)
            cg_line(em, "%s %s[%d] = {0};", cg_ctype(syms[i]->dtype), cg_lane_block(em, id, i, c),
                    vlanes);
    cg_line(em, "for (int64_t ft__j%d = %s; ft__j%d < ft__m%d; ft__j%d += %d) {", id, b, id, id,
            id, step);
    em->indent++;
    const char *from = ft_fmt(em->ctx, "ft__j%d", id);
    for (int c = 0; c < blocks; c++)
        cg_lane_block_loop(em, s, vars, syms, id, c, vlanes, from, e, 0);
    em->indent--;
    cg_line(em, "}");
    int masked = cg_lane_masked_ok(s->u.loop.body, vars);
    if (masked) {
        cg_line(em, "if (ft__n%d & %d) {", id, step - 1);
        em->indent++;
        for (int c = 0; c < blocks; c++)
            cg_lane_block_loop(em, s, vars, syms, id, c, vlanes, ft_fmt(em->ctx, "ft__m%d", id),
                               e, 1);
        em->indent--;
        cg_line(em, "}");
    }
    for (int i = 0; i < vars->len; i++) {
        syms[i]->used = 1;
        cg_lane_total(em, id, i, syms[i]->cname, vlanes, blocks);
    }
    if (!masked) {  /* the rest in order: a trip count gcc knows is below the lanes' */
        cg_line(em, "for (int64_t ft__t%d = 0; ft__t%d < (ft__n%d & %d); ft__t%d++) {", id, id,
                id, step - 1, id);
        cg_loop_body(em, s, ft_fmt(em->ctx, "const int64_t %s = ft__m%d + ft__t%d;",
                                   cg_cname(em, s->u.loop.iter), id, id), NULL);
    }
    em->indent--;
    cg_line(em, "}");
}

/* ------------------------------------------------- simd blocks */

/* A vectorized loop without sums into locals is emitted by default as one
 * `omp simd` loop, which gcc vectorizes with whole vectors (64 bytes on
 * AVX-512), then one loop of half vectors, then a scalar epilogue for the
 * last iterations.  Where the trip count is short and not a multiple of the
 * vector (SubdivNet's backward at 13 in-features: a scatter of five
 * read-modify-write updates of d_e rows per neighbour, 13 floats each), the
 * scalar epilogue runs most of the iterations, one element at a time.  So
 * such a loop is emitted in blocks of V lanes (32 bytes, as the lane sums
 * above), the rest as one more block whose lanes past the end do nothing
 * (the C compiler masks their loads and stores):
 *
 *     const int64_t ft__nN = trips, ft__mN = b + (ft__nN & ~(V - 1));
 *     for (int64_t ft__jN = b; ft__jN < ft__mN; ft__jN += V) {
 *         #pragma omp simd
 *         for (int64_t ft__lN = 0; ft__lN < V; ft__lN++) {
 *             const int64_t i = ft__jN + ft__lN;
 *             body
 *         }
 *     }
 *     if (ft__nN & (V - 1)) {
 *         #pragma omp simd
 *         for (int64_t ft__lN = 0; ft__lN < V; ft__lN++) {
 *             const int64_t i = ft__mN + ft__lN;
 *             if (i < e) { body }
 *         }
 *     }
 *
 * Taken for loops of step 1 whose end is not a literal (gcc handles a known
 * trip count itself), with no prefetch hint (auto_prefetch), and whose body
 * is only stores and non-atomic reductions into tensor elements (no loop,
 * VarDef, branch or 0-D target: the body is emitted twice, and a lane must
 * be free to do nothing) that emit no check (a failing lane past the end
 * would be a false error); the iterations run in the same order within
 * each statement, as `omp simd` allows already. */

/* Whether the body s of a vectorized loop takes the block form (above; its
 * checks are looked at when it is emitted); *wide is set when an element
 * it stores is 8 bytes. */
static int cg_blocks_body_ok(cg_emitter *em, const ast_stmt *s, int *wide)
{
    if (s->kind == AST_SEQ) {
        for (int i = 0; i < s->u.seq.n; i++)
            if (!cg_blocks_body_ok(em, s->u.seq.stmts[i], wide))
                return 0;
        return 1;
    }
    const char *var;
    if (s->kind == AST_STORE && s->u.store.n > 0)
        var = s->u.store.var;
    else if (s->kind == AST_REDUCE && s->u.red.n > 0 && s->u.red.atomic != AST_RED_ATOMIC)
        var = s->u.red.var;
    else
        return 0;
    cg_sym *sym = cg_lookup(em, var, s->loc);
    if (!sym || sym->kind == CG_SYM_SCALAR)
        return 0;
    *wide |= sym->dtype == FT_F64 || sym->dtype == FT_I64;
    return 1;
}

/* Emit one `omp simd` loop of vlanes lanes of loop s (id), iteration
 * `from + lane`; masked: only the lanes before end e run the body.
 * Returns the number of failure exits the body emitted. */
static int cg_block_loop(cg_emitter *em, const ast_stmt *s, int id, int vlanes,
                         const char *from, const char *e, int masked)
{
    const char *it = cg_cname(em, s->u.loop.iter);
    int fails = em->fails, known = em->known.len;
    cg_line(em, "#pragma omp simd");
    cg_line(em, "for (int64_t ft__l%d = 0; ft__l%d < %d; ft__l%d++) {", id, id, vlanes, id);
    em->indent++;
    cg_line(em, "const int64_t %s = %s + ft__l%d;", it, from, id);
    if (masked) {
        cg_line(em, "if (%s < %s) {", it, e);
        em->indent++;
    }
    cg_stmt(em, s->u.loop.body);
    if (masked) {
        em->indent--;
        cg_line(em, "}");
    }
    em->indent--;
    cg_line(em, "}");
    em->known.len = known;
    return em->fails - fails;
}

/* Emit vectorized loop s in blocks of lanes (see above) when its body
 * takes them; returns 0, having emitted nothing, when it does not. */
static int cg_for_blocks(cg_emitter *em, const ast_stmt *s)
{
    const ast_expr *st = s->u.loop.step, *end = s->u.loop.end;
    int wide = 0;
    if ((st && !(st->kind == AST_INT && st->u.ival == 1)) || end->kind == AST_INT ||
        s->u.loop.npf > 0 || cg_has_atomic(s->u.loop.body) ||
        !cg_blocks_body_ok(em, s->u.loop.body, &wide))
        return 0;
    int id = em->next_id++, vlanes = wide ? 4 : 8;
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    const char *b, *e;
    cg_block_bounds(em, s, id, vlanes, &b, &e);
    cg_line(em, "for (int64_t ft__j%d = %s; ft__j%d < ft__m%d; ft__j%d += %d) {", id, b, id, id,
            id, vlanes);
    em->indent++;
    int fails = cg_block_loop(em, s, id, vlanes, ft_fmt(em->ctx, "ft__j%d", id), e, 0);
    em->indent--;
    cg_line(em, "}");
    cg_line(em, "if (ft__n%d & %d) {", id, vlanes - 1);
    em->indent++;
    fails += cg_block_loop(em, s, id, vlanes, ft_fmt(em->ctx, "ft__m%d", id), e, 1);
    em->indent--;
    cg_line(em, "}");
    em->indent--;
    cg_line(em, "}");
    char *text = cg_sub_end(&em->out, &sub);
    if (!fails)
        fputs(text, em->out);
    free(text);
    return !fails;
}

/* ------------------------------------------------- per-thread copies */

/* One tensor that an OpenMP loop reduces into through per-thread copies
 * (AST_RED_PRIVATE): thread 0 reduces into the tensor itself (nothing
 * else touches it in the loop, and += may run in any order), the others
 * into copies that sit in one heap buffer of the enclosing region,
 * ft__max_threads() - 1 of them, n elements each. */
typedef struct cg_priv {
    cg_sym *sym;             /* the tensor outside the loop */
    const char *buf;         /* the region's buffer (ft__hN) */
    const char *n;           /* C name of the element count */
    const char *copy;        /* C name of the thread's copy */
} cg_priv;

/* Collects the tensors of AST_RED_PRIVATE reductions. */
typedef struct cg_priv_find {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names;
} cg_priv_find;

static int cg_priv_find_cb(ast_visitor *v, ast_stmt *s)
{
    cg_priv_find *w = (cg_priv_find *)v;
    if (s->kind == AST_REDUCE && s->u.red.atomic == AST_RED_PRIVATE &&
        !xf_has_name(&w->names, s->u.red.var))
        ft_vec_push(w->ctx, &w->names, (void *)s->u.red.var);
    return 1;
}

/* Before OpenMP loop s: for each tensor its body reduces into through
 * per-thread copies, the element count and the buffer of all copies
 * (grown in the current region, which frees it); fills privs (cg_priv *). */
static void cg_priv_alloc(cg_emitter *em, const ast_stmt *s, ft_vec *privs)
{
    cg_priv_find w = {.v.stmt = cg_priv_find_cb, .ctx = em->ctx};
    ast_visit(s->u.loop.body, &w.v);
    for (int i = 0; i < w.names.len; i++) {
        cg_sym *sym = cg_lookup(em, w.names.items[i], s->loc);
        if (!sym)
            continue;
        int id = em->next_id++;
        cg_priv *p = ft_alloc(em->ctx, sizeof *p);
        *p = (cg_priv){.sym = sym, .buf = ft_fmt(em->ctx, "ft__h%d", id),
                       .n = ft_fmt(em->ctx, "ft__pn%d", id),
                       .copy = ft_fmt(em->ctx, "ft__pv%d", id)};
        ft_vec_push(em->ctx, &em->region->heap, (void *)p->buf);
        cg_line(em, "int64_t %s = 1;", p->n);
        for (int k = 0; k < sym->ndim; k++)
            cg_line(em, "%s *= (%s) > 0 ? (%s) : 0;", p->n, sym->dims[k], sym->dims[k]);
        cg_use(em, CG_H_GROW, FT_I64);
        cg_use(em, CG_H_THREADS, FT_I64);
        cg_ind(em);
        fprintf(em->out, "if (!ft__grow(&%s, &%s_n, ft__nbytes(2, (const int64_t[]){"
                "ft__max_threads() - 1, %s}, sizeof(%s))))", p->buf, p->buf, p->n,
                cg_ctype(sym->dtype));
        cg_failure fl = cg_site_nomem(em->ctx, &em->sites, em->func, s->loc,
                                      ft_fmt(em->ctx, "the per-thread copies of `%s`",
                                             sym->name));
        fl.v[0] = ft_fmt(em->ctx, "(int64_t)ft__nbytes(2, (const int64_t[]){ft__max_threads() - "
                         "1, %s}, sizeof(%s))", p->n, cg_ctype(sym->dtype));
        cg_fail(em, fl);
        ft_vec_push(em->ctx, privs, p);
    }
}

/* At the top of the parallel region: each thread's copy (thread 0's is
 * the tensor), zeroed (the identity of +), bound to the tensor's name for
 * the loop body (the caller pops the symbols). */
static void cg_priv_begin(cg_emitter *em, const ft_vec *privs)
{
    for (int i = 0; i < privs->len; i++) {
        const cg_priv *p = privs->items[i];
        const char *ct = cg_ctype(p->sym->dtype);
        cg_line(em, "%s *%s = %s;", ct, p->copy, p->sym->cname);
        cg_line(em, "if (ft__thread() > 0) {");
        cg_line(em, "    %s = (%s *)%s + (ft__thread() - 1) * %s;", p->copy, ct, p->buf, p->n);
        cg_line(em, "    memset(%s, 0, sizeof(%s) * (size_t)%s);", p->copy, ct, p->n);
        cg_line(em, "}");
        p->sym->used = 1;
        cg_sym *c = cg_push_sym(em, p->sym->name, p->sym->dtype, p->sym->ndim, CG_SYM_ARRAY);
        c->cname = p->copy;
        for (int k = 0; k < c->ndim; k++)
            c->dims[k] = p->sym->dims[k];
        c->used = 1;
    }
}

/* After the loop, in the region (the loop's barrier passed): the threads
 * share out the elements and add the copies of threads 1.. into the
 * tensor (every thread of the team sees the same count: all or none of
 * them meet the `omp for`). */
static void cg_priv_end(cg_emitter *em, const ft_vec *privs)
{
    for (int i = 0; i < privs->len; i++) {
        const cg_priv *p = privs->items[i];
        const char *ct = cg_ctype(p->sym->dtype);
        int id = em->next_id++;
        p->sym->used = 1;
        cg_line(em, "const int64_t ft__pt%d = ft__team() - 1;", id);
        cg_line(em, "if (ft__pt%d > 0) {", id);
        cg_line(em, "    #pragma omp for");
        cg_line(em, "    for (int64_t ft__pe%d = 0; ft__pe%d < %s; ft__pe%d++) {", id, id, p->n,
                id);
        cg_line(em, "        %s ft__ps%d = 0;", ct, id);
        cg_line(em, "        for (int64_t ft__pk%d = 0; ft__pk%d < ft__pt%d; ft__pk%d++)", id, id,
                id, id);
        cg_line(em, "            ft__ps%d += ((const %s *)%s)[ft__pk%d * %s + ft__pe%d];", id, ct,
                p->buf, id, p->n, id);
        cg_line(em, "        %s[ft__pe%d] += ft__ps%d;", p->sym->cname, id, id);
        cg_line(em, "    }");
        cg_line(em, "}");
    }
}

/* Finds a loop whose bounds read data. */
typedef struct cg_uneven_find {
    ast_visitor v;
    int found;
} cg_uneven_find;

static int cg_uneven_find_cb(ast_visitor *v, ast_stmt *s)
{
    cg_uneven_find *w = (cg_uneven_find *)v;
    if (s->kind == AST_FOR && (cg_has_load(s->u.loop.begin) || cg_has_load(s->u.loop.end)))
        w->found = 1;
    return !w->found;
}

/* The reduction clauses of OpenMP loop s: one per 0-D local declared
 * around it that its body only reduces into, with one operator
 * (xf_par_reductions, whose answer the verifier of parallel code accepts):
 * each thread sums into its own copy, which OpenMP combines with the
 * local's value after the loop (so their updates need no atomics: the
 * locals are added to em->omp_red_vars for the loop's body).  auto_promote sums a gradient's updates of
 * one element over an outer loop in such a local (the d_a_p of a scalar
 * coefficient's gradient, updated in a parallel loop inside). */
static const char *cg_omp_red_clauses(cg_emitter *em, const ast_stmt *s)
{
    ft_vec names = {0}, red_ops = {0};
    xf_par_reductions(em->ctx, s->u.loop.body, &names, &red_ops);
    const char *clauses = "";
    for (int i = 0; i < names.len; i++) {
        cg_sym *sym = cg_lookup(em, names.items[i], s->loc);
        if (sym && sym->kind == CG_SYM_SCALAR) {
            clauses = ft_fmt(em->ctx, "%s reduction(%s: %s)", clauses,
                             cg_red_clause_op(em, (ast_reduce_op)(intptr_t)red_ops.items[i],
                                              sym->dtype), sym->cname);
            ft_vec_push(em->ctx, &em->omp_red_vars, names.items[i]);
        }
    }
    return clauses;
}

/* The pragma of OpenMP loop s.  When a loop in its body has bounds that
 * read data (the edges of a CSR row, ptr[i] .. ptr[i + 1]), the work per
 * iteration is uneven (a power-law graph's rows), and the static schedule's
 * equal blocks of iterations are not equal work: chunks of 64 iterations
 * handed out as threads free up balance it (GAT's forward pass:
 * the first half of the nodes held 53.5% of the edges). */
static const char *cg_omp_for_pragma(cg_emitter *em, const ast_stmt *s)
{
    cg_uneven_find w = {.v.stmt = cg_uneven_find_cb};
    ast_visit(s->u.loop.body, &w.v);
    return ft_fmt(em->ctx, "#pragma omp for%s%s",
                  w.found ? " schedule(dynamic, 64)" : "", cg_omp_red_clauses(em, s));
}

/* Whether `for (i = b; i < e; i += step)` (`>` for a negative step) may
 * overflow i after its last iteration: a constant end within |step| - 1 of
 * the int64 limits (range(0, 2^63 - 1, 2^63 - 2) ends at 2^63 - 2 + 2^63 - 2).
 * Such a loop is counted by ft__trip.  An end that is not constant is a
 * size expression, taken to be far from the limits. */
static int cg_step_overflows(const ast_expr *e, int64_t step)
{
    int64_t past;
    return e->kind == AST_INT && __builtin_add_overflow(e->u.ival, step, &past);
}

/* for iter in range(begin, end, step), serial or OpenMP. */
static void cg_for_body(cg_emitter *em, const ast_stmt *s);

/* A loop; while its body is emitted, its iterator counts as >= 0 when it
 * counts up from a literal >= 0 (cg_nonneg). */
static void cg_for(cg_emitter *em, const ast_stmt *s)
{
    const ast_expr *b = s->u.loop.begin, *st = s->u.loop.step;
    int up = b->kind == AST_INT && b->u.ival >= 0 && (!st || (st->kind == AST_INT &&
                                                             st->u.ival > 0));
    int len = em->nonneg.len;
    if (up)
        ft_vec_push(em->ctx, &em->nonneg, (void *)s->u.loop.iter);
    cg_for_body(em, s);
    em->nonneg.len = len;
}

/* Emit loop s as one ft__transpose_T call when it is a nest that copies
 * a tensor transposed (cg_transpose.c) and one of the two is a local (the
 * other, a parameter, cannot be the same memory); 0 when it is not. */
static int cg_transpose_nest(cg_emitter *em, const ast_stmt *s)
{
    cg_transpose t;
    if (!cg_transpose_match(em->ctx, s, cg_literal_dims, em, &t))
        return 0;
    const ast_stmt *st = t.store;
    const ast_expr *ld = st->u.store.value;
    if (cg_find_sym(em, st->u.store.var)->kind == CG_SYM_PARAM &&
        cg_find_sym(em, ld->u.load.var)->kind == CG_SYM_PARAM)
        return 0;
    for (int j = 0; j < t.nbatch; j++) {
        const char *it = cg_cname(em, t.batch[j]->u.loop.iter);
        if (j == 0 && t.parallel)
            cg_line(em, "#pragma omp parallel for");
        cg_line(em, "for (int64_t %s = 0; %s < %" PRId64 "; %s += %" PRId64 ") {", it, it,
                t.bend[j], it, t.bstep[j]);
        em->indent++;
    }
    const char *d = cg_lvalue_str(em, st->u.store.var, st->u.store.n, t.dst, st->loc);
    const char *src = cg_lvalue_str(em, ld->u.load.var, ld->u.load.n, t.src, ld->loc);
    em->uses_transpose |= 1 << t.dtype;
    cg_line(em, "ft__transpose_%s(&%s, %" PRId64 ", &%s, %" PRId64 ", %" PRId64 ", %" PRId64
            ");", ft_dtype_name(t.dtype), d, t.lda, src, t.lds, t.na, t.nb);
    for (int j = 0; j < t.nbatch; j++) {
        em->indent--;
        cg_line(em, "}");
    }
    return 1;
}

/* cg_for's work. */
static void cg_for_body(cg_emitter *em, const ast_stmt *s)
{
    ast_par par = s->u.loop.par;
    if (cg_transpose_nest(em, s))
        return;
    if (par == AST_LIB) {
        cg_line(em, "{");
        em->indent++;
        cg_lib(em, s);
        em->indent--;
        cg_line(em, "}");
        return;
    }
    if (par != AST_SERIAL && par != AST_OPENMP && par != AST_VECTORIZE) {
        ft_unsupported(em->ctx, s->loc, "GPU (CUDA) parallel loops in the C backend");
        return;
    }
    const ast_expr *b = s->u.loop.begin, *e = s->u.loop.end, *st = s->u.loop.step;
    cg_checks(em, b);
    cg_checks(em, e);
    cg_checks(em, st);
    const char *it = cg_cname(em, s->u.loop.iter);
    int nred = em->omp_red_vars.len;
    const char *pragma = par == AST_OPENMP ? cg_omp_for_pragma(em, s)
                       : par == AST_VECTORIZE ? cg_simd_pragma(em, s) : NULL;
    int id = em->next_id++;
    int64_t step = !st ? 1 : st->kind == AST_INT ? st->u.ival : 0;
    if (st && st->kind == AST_INT && step == 0) {
        cg_line(em, "/* range(..., step 0) runs no iteration */");
        em->omp_red_vars.len = nred;
        return;
    }
    if (cg_step_overflows(e, step))
        step = 0;       /* counted by ft__trip instead */
    int known = em->known.len, nix = em->ix_loads.len;
    if (par == AST_VECTORIZE && step != 0)
        cg_index_scalars(em, s, step);
    if (par != AST_OPENMP && step != 0)
        cg_hoist_checks(em, s, step);
    ft_vec sums = {0};
    if (par == AST_VECTORIZE && cg_lane_sums(em, s, &sums)) {
        cg_for_lanes(em, s, &sums);
        em->known.len = known;
        em->ix_loads.len = em->ix_names.len = nix;
        return;
    }
    if (par == AST_VECTORIZE && cg_for_blocks(em, s)) {
        em->known.len = known;
        em->ix_loads.len = em->ix_names.len = nix;
        return;
    }
    /* a parallel loop runs in a parallel region whose threads each keep
     * the heap buffers of the body for all their iterations */
    ft_vec heap = {0}, privs = {0};
    cg_sub sub;
    int nsyms = em->syms.len;
    if (par == AST_OPENMP) {
        cg_priv_alloc(em, s, &privs);
        cg_line(em, "#pragma omp parallel");
        cg_line(em, "{");
        em->indent++;
        cg_sub_begin(em->ctx, &em->out, &sub);
        cg_priv_begin(em, &privs);
    }
    int can_fail;
    /* bounds that are not literals or names are evaluated once, before */
    int block = step == 0 || !cg_is_invariant_leaf(e);
    if (block) {
        cg_line(em, "{");
        em->indent++;
    }
    if (step != 0) {
        const char *end = cg_expr_str(em, e, 0);
        if (!cg_is_invariant_leaf(e)) {
            cg_line(em, "const int64_t ft__e%d = %s;", id, end);
            end = ft_fmt(em->ctx, "ft__e%d", id);
        }
        if (pragma)
            cg_line(em, "%s", pragma);
        cg_line(em, "for (int64_t %s = %s; %s %s %s; %s%s) {", it, cg_expr_str(em, b, 0), it,
                step > 0 ? "<" : ">", end, it,
                step == 1 ? "++" : ft_fmt(em->ctx, " += %s", cg_expr_str(em, st, 0)));
        can_fail = cg_loop_body(em, s, NULL, &heap);
    } else {
        cg_use(em, CG_H_TRIP, FT_I64);
        cg_line(em, "const int64_t ft__b%d = %s;", id, cg_expr_str(em, b, 0));
        cg_line(em, "const int64_t ft__s%d = %s;", id, cg_expr_str(em, st, 0));
        cg_line(em, "const int64_t ft__n%d = ft__trip(ft__b%d, %s, ft__s%d);", id, id,
                cg_expr_str(em, e, 0), id);
        if (pragma)
            cg_line(em, "%s", pragma);
        cg_line(em, "for (int64_t ft__k%d = 0; ft__k%d < ft__n%d; ft__k%d++) {", id, id, id, id);
        can_fail = cg_loop_body(em, s, ft_fmt(em->ctx, "const int64_t %s = (int64_t)((uint64_t)"
                                              "ft__b%d + (uint64_t)ft__k%d * (uint64_t)ft__s%d);",
                                              it, id, id, id), &heap);
    }
    if (block) {
        em->indent--;
        cg_line(em, "}");
    }
    em->syms.len = nsyms;
    if (par == AST_OPENMP) {
        cg_priv_end(em, &privs);
        char *text = cg_sub_end(&em->out, &sub);
        for (int i = 0; i < heap.len; i++)
            cg_line(em, "void *%s = NULL; size_t %s_n = 0;", (char *)heap.items[i],
                    (char *)heap.items[i]);
        fputs(text, em->out);
        free(text);
        for (int i = 0; i < heap.len; i++)
            cg_line(em, "free(%s);", (char *)heap.items[i]);
        em->indent--;
        cg_line(em, "}");
    }
    em->known.len = known;
    em->ix_loads.len = em->ix_names.len = nix;
    em->omp_red_vars.len = nred;
    if (can_fail)
        cg_pass_error(em);
}

/* Add to em->known the checks that cond being true makes pass in then
 * (0 <= x < d with x and d kept by then; cg_facts.h). */
static void cg_if_facts(cg_emitter *em, const ast_expr *cond, const ast_stmt *then)
{
    ft_vec xs = {0}, ds = {0};
    cg_range_facts(em->ctx, cond, &xs, &ds);
    for (int i = 0; i < xs.len; i++)
        if (xf_expr_kept_by(em->ctx, xs.items[i], then) &&
            xf_expr_kept_by(em->ctx, ds.items[i], then))
            ft_vec_push(em->ctx, &em->known,
                        (void *)cg_check_cond(em, cg_expr_str(em, xs.items[i], 1),
                                              cg_expr_str(em, ds.items[i], 0)));
}

/* if cond: then else: other */
static void cg_if(cg_emitter *em, const ast_stmt *s)
{
    cg_checks(em, s->u.branch.cond);
    cg_line(em, "if (%s) {", cg_expr_str(em, s->u.branch.cond, 0));
    em->indent++;
    int known = em->known.len;
    cg_if_facts(em, s->u.branch.cond, s->u.branch.then);
    cg_stmt(em, s->u.branch.then);
    em->known.len = known;
    em->indent--;
    if (s->u.branch.other) {
        cg_line(em, "} else {");
        em->indent++;
        cg_stmt(em, s->u.branch.other);
        em->indent--;
    }
    cg_line(em, "}");
}

/* Declare the storage of a local tensor of ndim >= 1: a stack array when
 * its size is constant and at most 4096 bytes, else a heap buffer of the
 * region, grown with realloc. */
static void cg_vardef_storage(cg_emitter *em, const ast_stmt *s, cg_sym *sym)
{
    const char *ct = cg_ctype(s->u.def.dtype);
    int64_t n = cg_const_elems(s);
    if (n >= 0 && n * cg_dtype_size(s->u.def.dtype) <= 4096) {
        for (int k = 0; k < sym->ndim; k++)
            sym->dims[k] = ft_fmt(em->ctx, "%" PRId64, s->u.def.shape[k]->u.ival);
        cg_line(em, "%s %s[%" PRId64 "];", ct, sym->cname, n > 0 ? n : 1);
        return;
    }
    int id = em->next_id++;
    const char *buf = ft_fmt(em->ctx, "ft__h%d", id);
    ft_vec_push(em->ctx, &em->region->heap, (void *)buf);
    for (int k = 0; k < sym->ndim; k++) {
        const ast_expr *d = s->u.def.shape[k];
        sym->dims[k] = cg_expr_str(em, d, 0);
        if (!cg_is_invariant_leaf(d)) {
            cg_line(em, "const int64_t ft__d%d_%d = %s;", id, k, sym->dims[k]);
            sym->dims[k] = ft_fmt(em->ctx, "ft__d%d_%d", id, k);
        }
    }
    cg_use(em, CG_H_GROW, FT_I64);
    const char *nbytes = ft_fmt(em->ctx, "ft__nbytes(%d, (const int64_t[]){", sym->ndim);
    for (int k = 0; k < sym->ndim; k++)
        nbytes = ft_fmt(em->ctx, "%s%s%s", nbytes, k ? ", " : "", sym->dims[k]);
    nbytes = ft_fmt(em->ctx, "%s}, sizeof(%s))", nbytes, ct);
    cg_ind(em);
    fprintf(em->out, "if (!ft__grow(&%s, &%s_n, %s))", buf, buf, nbytes);
    cg_failure fl = cg_site_nomem(em->ctx, &em->sites, em->func, s->loc,
                                  ft_fmt(em->ctx, "local tensor `%s`", s->u.def.name));
    fl.v[0] = ft_fmt(em->ctx, "(int64_t)%s", nbytes);
    cg_fail(em, fl);
    cg_line(em, "%s *%s = (%s *)%s;", ct, sym->cname, ct, buf);
}

/* var name: dtype[shape] over body; its C scope is a block. */
static void cg_vardef(cg_emitter *em, const ast_stmt *s)
{
    if (s->u.def.mtype != FT_MT_CPU) {
        ft_unsupported(em->ctx, s->loc, "GPU memory types in the C backend");
        return;
    }
    for (int k = 0; k < s->u.def.ndim; k++)
        cg_checks(em, s->u.def.shape[k]);
    cg_line(em, "{");
    em->indent++;
    int nsyms = em->syms.len;
    cg_sym *sym = cg_push_sym(em, s->u.def.name, s->u.def.dtype, s->u.def.ndim,
                              s->u.def.ndim ? CG_SYM_ARRAY : CG_SYM_SCALAR);
    if (s->u.def.ndim == 0)
        cg_line(em, "%s %s = 0;", cg_ctype(s->u.def.dtype), sym->cname);
    else
        cg_vardef_storage(em, s, sym);
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    cg_stmt(em, s->u.def.body);
    char *text = cg_sub_end(&em->out, &sub);
    if (!sym->used)
        cg_line(em, "(void)%s;", sym->cname);
    fputs(text, em->out);
    free(text);
    em->syms.len = nsyms;
    em->indent--;
    cg_line(em, "}");
}

/* assert cond: its checks, then the test, which records the values of
 * both sides of a comparison (cg_site_assert). */
static void cg_assert(cg_emitter *em, const ast_stmt *s)
{
    cg_checks(em, s->u.cond);
    cg_ind(em);
    fprintf(em->out, "if (!%s)", cg_expr_str(em, s->u.cond, 1));
    const ast_expr *side[2];
    cg_failure fl = cg_site_assert(em->ctx, &em->sites, em->func, s, &side[0], &side[1]);
    for (int i = 0; i < 2; i++) {
        int kind;
        if (side[i])
            fl.v[i] = cg_site_value(em->ctx, cg_expr_str(em, side[i], 0), side[i]->dtype, &kind);
    }
    cg_fail(em, fl);
}

/* Emit one statement (NULL is the empty statement). */
static void cg_stmt(cg_emitter *em, const ast_stmt *s)
{
    if (!s)
        return;
    if (s->label)
        cg_line(em, "/* %s: */", s->label);
    int known = em->known.len;
    ft_loc saved_loc = em->stmt_loc;
    em->stmt_loc = s->loc;
    em->in_leaf = s->kind == AST_STORE || s->kind == AST_REDUCE || s->kind == AST_ASSERT ||
                  s->kind == AST_EVAL;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            cg_stmt(em, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: cg_vardef(em, s); break;
    case AST_FOR: cg_for(em, s); break;
    case AST_IF: cg_if(em, s); break;
    case AST_STORE: cg_store(em, s); break;
    case AST_REDUCE: cg_reduce(em, s); break;
    case AST_ASSERT: cg_assert(em, s); break;
    case AST_EVAL:
        cg_checks(em, s->u.expr);
        cg_line(em, "(void)%s;", cg_expr_str(em, s->u.expr, 1));
        break;
    }
    em->in_leaf = 0;
    em->known.len = known;
    em->stmt_loc = saved_loc;
}

/* ---------------------------------------------------------- functions */

/* The C declaration of parameter p ("int64_t n", "const float *x"). */
static const char *cg_param_decl(cg_emitter *em, const ast_param *p)
{
    return cg_param_text(em->ctx, p, cg_cname(em, p->name), cg_ctype(p->dtype));
}

const char *cg_param_text(ft_ctx *ctx, const ast_param *p, const char *cname,
                          const char *ctype)
{
    if (p->is_size)
        return ft_fmt(ctx, "int64_t %s", cname);
    const char *cq = p->access == FT_ACC_IN ? "const " : "";
    if (p->opaque)
        return ft_fmt(ctx, "%svoid *%s__bytes", cq, cname);
    return ft_fmt(ctx, "%s%s *%s", cq, ctype, cname);
}

const char *cg_opaque_text(ft_ctx *ctx, const ast_param *p, const char *cname,
                           const char *ctype)
{
    if (!p->opaque)
        return NULL;
    const char *cq = p->access == FT_ACC_IN ? "const " : "";
    return ft_fmt(ctx, "%s%s *%s = (%s%s *)%s__bytes;", cq, ctype, cname, cq, ctype, cname);
}

const char *cg_region_text(ft_ctx *ctx, const ast_param *r, const char *cname,
                           const char *ctype, const char *tape, const char *at)
{
    const char *cq = r->access == FT_ACC_IN ? "const " : "";
    return ft_fmt(ctx, "%s%s *%s = %s + (%s);", cq, ctype, cname, tape, at);
}

/* Give each opaque (`void *`) parameter of f its typed name: the body reads
 * `tape[i]` whatever the ABI says; then declare each region of the tape
 * (autodiff/pack.c) as a pointer into it. */
static void cg_opaque_params(cg_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        const char *line = cg_opaque_text(em->ctx, p, cg_cname(em, p->name), cg_ctype(p->dtype));
        if (line)
            cg_line(em, "%s", line);
    }
    for (int i = 0; i < f->nregions; i++) {
        const ast_param *r = &f->regions[i];
        cg_line(em, "%s", cg_region_text(em->ctx, r, cg_cname(em, r->name), cg_ctype(r->dtype),
                                         cg_cname(em, f->params[f->nparams - 1].name),
                                         cg_expr_str(em, r->region_at, 0)));
    }
}

/* The load e is, under negations and casts, or NULL. */
static const ast_expr *cg_bare_load(const ast_expr *e)
{
    while (e->kind == AST_UNARY || e->kind == AST_CAST)
        e = e->kind == AST_UNARY ? e->u.un.a : e->u.cast.a;
    return e->kind == AST_LOAD ? e : NULL;
}

/* Whether e selects between values read from different tensor elements
 * (`c ? x[i] : y[j]`: loads in both arms of a conditional expression, not
 * the one element `c ? d[i] : -d[i]`). */
static int cg_select_loads(const ast_expr *e)
{
    switch (e->kind) {
    case AST_IFEXPR: {
        const ast_expr *a = cg_bare_load(e->u.ife.then), *b = cg_bare_load(e->u.ife.other);
        if (xf_expr_has_load(e->u.ife.then) && xf_expr_has_load(e->u.ife.other) &&
            !(a && b && ast_expr_equal(a, b)))
            return 1;
        return cg_select_loads(e->u.ife.cond) || cg_select_loads(e->u.ife.then) ||
               cg_select_loads(e->u.ife.other);
    }
    case AST_BINARY: return cg_select_loads(e->u.bin.a) || cg_select_loads(e->u.bin.b);
    case AST_UNARY: return cg_select_loads(e->u.un.a);
    case AST_CAST: return cg_select_loads(e->u.cast.a);
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (cg_select_loads(e->u.call.args[i]))
                return 1;
        return 0;
    default: return 0;
    }
}

/* Whether s holds, in a loop, a store whose value selects between loads
 * (`t[..] = c ? x[..] : y[..]`, guarded or not).  GCC 12.2's loop
 * if-conversion turns the selected loads into masked ones and, at -O3 with
 * AVX2, vectorizes such stores wrongly: some elements are never written
 * (tests/numeric/layouts/repro_gcc_guarded_where.c, found by
 * layouts_random.py: a where() over a blocked input, with the pad guard
 * and, once unrolled, without), so such a function is compiled without
 * it. */
static int cg_select_in_loop(const ast_stmt *s, int in_loop)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (cg_select_in_loop(s->u.seq.stmts[i], in_loop))
                return 1;
        return 0;
    case AST_VARDEF: return cg_select_in_loop(s->u.def.body, in_loop);
    case AST_FOR: return cg_select_in_loop(s->u.loop.body, 1);
    case AST_IF:
        return cg_select_in_loop(s->u.branch.then, in_loop) ||
               cg_select_in_loop(s->u.branch.other, in_loop);
    case AST_STORE: return in_loop && cg_select_loads(s->u.store.value);
    case AST_REDUCE: return in_loop && cg_select_loads(s->u.red.value);
    default: return 0;
    }
}

/* Write "NAME(params)" of a function's C prototype. */
static void cg_signature(cg_emitter *em, const ast_func *f)
{
    fprintf(em->out, "int %s(", f->name);
    for (int i = 0; i < f->nparams; i++)
        fprintf(em->out, "%s%s", i ? ", " : "", cg_param_decl(em, &f->params[i]));
    fputs(f->nparams ? ")" : "void)", em->out);
}

/* Push parameter (or tape region) p as a symbol; its dims are the C text
 * of the declared shape. */
static void cg_push_param(cg_emitter *em, const ast_param *p)
{
    if (p->is_size)
        return;
    if (p->mtype != FT_MT_CPU)
        ft_unsupported(em->ctx, p->loc, "GPU memory types in the C backend");
    cg_sym *s = cg_push_sym(em, p->name, p->dtype, p->ndim, CG_SYM_PARAM);
    for (int k = 0; k < p->ndim; k++)
        s->dims[k] = cg_expr_str(em, p->shape[k], 0);
}

/* Push the parameters of f and its tape's regions as symbols. */
static void cg_push_params(cg_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++)
        cg_push_param(em, &f->params[i]);
    for (int i = 0; i < f->nregions; i++)
        cg_push_param(em, &f->regions[i]);
}

/* The checks that no size parameter of f is negative, each returning
 * FT_ERR_SIZE with its site recorded. */
static void cg_size_checks(cg_emitter *em, const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        if (!f->params[i].is_size)
            continue;
        const char *n = cg_cname(em, f->params[i].name);
        cg_failure fl = cg_site_size(em->ctx, &em->sites, f, &f->params[i]);
        cg_line(em, "if (%s < 0) return ft__raise(FT_ERR_SIZE, %d, %s, 0);", n, fl.site, n);
    }
}

/* Emit the C function for f.  When a check can fail, the call's record
 * ft__er holds the first failure, published on return (ft__done). */
static void cg_func(cg_emitter *em, const ast_func *f)
{
    em->func = f;
    em->syms.len = 0;
    cg_push_params(em, f);
    cg_sub sub;
    cg_sub_begin(em->ctx, &em->out, &sub);
    em->indent = 1;
    int fails = em->fails;
    cg_region_body(em, f->body, 0, NULL, NULL);
    int can_fail = em->fails > fails;
    cg_line(em, can_fail ? "return ft__done(ft__err, &ft__er);" : "return ft__err;");
    char *body = cg_sub_end(&em->out, &sub);

    if (cg_select_in_loop(f->body, 0))
        fputs("#if defined(__GNUC__) && !defined(__clang__)\n"
              "__attribute__((optimize(\"no-tree-loop-if-convert\")))   /* GCC 12 (cg_select_in_loop) */\n"
              "#endif\n", em->out);
    cg_signature(em, f);
    fputs("\n{\n", em->out);
    cg_size_checks(em, f);
    cg_print_null_checks(&em->pr, em->ctx, &em->sites, f);
    cg_opaque_params(em, f);
    cg_line(em, "int ft__err = FT_OK;");
    if (can_fail)
        cg_line(em, "ft_error_rec ft__er = {FT_OK, -1, {0, 0}};");
    for (int i = 0; i < em->syms.len; i++) {
        cg_sym *s = em->syms.items[i];
        if (!s->used)
            cg_line(em, "(void)%s;", s->cname);
    }
    fputs(body, em->out);
    free(body);
    fputs("}\n\n", em->out);
    em->indent = 0;
}

/* ------------------------------------------------ composed gradients */

/* A combined gradient g whose body is its g_fwd's then its g_bwd's
 * (autodiff/compose.c, f->ad_composed) is emitted as a call of each, with
 * the tape on the heap between them, rather than as a third copy of both
 * bodies: the same code runs (compose.c clones the scheduled bodies), and
 * the C compiler, whose time is most of a gradient's build, compiles the
 * forward and backward passes once (SubdivNet's gradient library held its
 * forward pass three times, its backward pass twice). */

/* The parameter of f named name, or NULL. */
static const ast_param *cg_param_named(const ast_func *f, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (strcmp(f->params[i].name, name) == 0)
            return &f->params[i];
    return NULL;
}

/* Whether part (g_fwd or g_bwd) takes g's parameters of the same names,
 * then the tape last (an opaque parameter that g does not have). */
static int cg_part_fits(const ast_func *g, const ast_func *part)
{
    if (part->nparams == 0 || !part->params[part->nparams - 1].opaque)
        return 0;
    for (int i = 0; i + 1 < part->nparams; i++)
        if (!cg_param_named(g, part->params[i].name) || part->params[i].opaque)
            return 0;
    return !cg_param_named(g, part->params[part->nparams - 1].name);
}

/* Whether function i of p is emitted as calls (see above): composed, and
 * its g_fwd and g_bwd emitted before it with parameters that fit. */
static int cg_is_composed(const ast_program *p, int i)
{
    const ast_func *g = p->funcs[i];
    int seen = 0;
    if (!g->ad_composed || !g->ad_fwd || !g->ad_bwd)
        return 0;
    for (int k = 0; k < i; k++)
        seen |= (p->funcs[k] == g->ad_fwd) | (p->funcs[k] == g->ad_bwd) << 1;
    return seen == 3 && cg_part_fits(g, g->ad_fwd) && cg_part_fits(g, g->ad_bwd);
}

/* "ft__err = PART(g's arguments..., ft__tape);" */
static void cg_part_call(cg_emitter *em, const char *lhs, const ast_func *part)
{
    cg_ind(em);
    fprintf(em->out, "%s%s(", lhs, part->name);
    for (int i = 0; i + 1 < part->nparams; i++)
        fprintf(em->out, "%s, ", cg_cname(em, part->params[i].name));
    fputs("ft__tape);\n", em->out);
}

/* Emit composed gradient g (cg_is_composed) as calls of g_fwd and g_bwd. */
static void cg_func_composed(cg_emitter *em, const ast_func *g)
{
    const ast_param *tape = &g->ad_fwd->params[g->ad_fwd->nparams - 1];
    em->func = g;
    em->syms.len = 0;
    cg_push_params(em, g);
    cg_use(em, CG_H_NBYTES, FT_I64);
    cg_use(em, CG_H_ALLOC, FT_I64);
    cg_signature(em, g);
    fputs("\n{\n", em->out);
    em->indent = 1;
    cg_size_checks(em, g);
    for (int i = 0; i < g->nparams; i++)
        if (!cg_param_named(g->ad_fwd, g->params[i].name) &&
            !cg_param_named(g->ad_bwd, g->params[i].name))
            cg_line(em, "(void)%s;", cg_cname(em, g->params[i].name));
    cg_line(em, "/* %s then %s, through a tape on the heap */", g->ad_fwd->name, g->ad_bwd->name);
    cg_ind(em);
    fprintf(em->out, "const size_t ft__tb = ft__nbytes(%d, (const int64_t[]){", tape->ndim);
    for (int k = 0; k < tape->ndim; k++)
        fprintf(em->out, "%s%s", k ? ", " : "", cg_expr_str(em, tape->shape[k], 0));
    fprintf(em->out, "%s}, %" PRId64 ");\n", tape->ndim ? "" : "0", cg_dtype_size(tape->dtype));
    cg_line(em, "void *ft__tape = ft__tb ? ft__alloc(ft__tb) : NULL;");
    cg_failure fl = cg_site_nomem(em->ctx, &em->sites, g, g->loc,
                                  ft_fmt(em->ctx, "the tape of %s", g->name));
    cg_line(em, "if (ft__tb && !ft__tape) return ft__raise(FT_ERR_NOMEM, %d, (int64_t)ft__tb, "
            "0);", fl.site);
    cg_part_call(em, "int ft__err = ", g->ad_fwd);
    cg_line(em, "if (ft__err == FT_OK)");
    em->indent++;
    cg_part_call(em, "ft__err = ", g->ad_bwd);
    em->indent--;
    cg_line(em, "free(ft__tape);");
    cg_line(em, "return ft__err;");
    fputs("}\n\n", em->out);
    em->indent = 0;
}

/* Write "size_t NAME(int64_t n, ...)" of a size function. */
static void cg_sizefn_signature(cg_emitter *em, const ast_sizefn *s)
{
    fprintf(em->out, "size_t %s(", s->name);
    for (int i = 0; i < s->nparams; i++)
        fprintf(em->out, "%sint64_t %s", i ? ", " : "", cg_cname(em, s->params[i].name));
    fputs(s->nparams ? ")" : "void)", em->out);
}

/* Emit a size function (a gradient's tape bytes): its value, or 0 when a
 * size is negative. */
static void cg_sizefn(cg_emitter *em, const ast_sizefn *s)
{
    em->syms.len = 0;
    const char *v = cg_expr_str(em, s->value, 0);
    cg_sizefn_signature(em, s);
    fputs("\n{\n", em->out);
    for (int i = 0; i < s->nparams; i++)
        cg_line(em, "    if (%s < 0) return 0;", cg_cname(em, s->params[i].name));
    cg_line(em, "    return (size_t)(%s);", v);
    fputs("}\n\n", em->out);
}

/* ------------------------------------------------------------ prelude */

/* The prelude's ft__alloc(n): a heap buffer that free() releases.  One of
 * 4 MiB or more (local tensors, per-thread copies and tapes of large
 * sizes) is aligned to 2 MiB, rounded up to whole 2 MiB and marked
 * MADV_HUGEPAGE (Linux; a hint the kernel may ignore): such buffers are
 * mmap'd afresh by glibc on every call (freed, they are unmapped), so
 * with 4 KiB pages every call pays a fault per 4 KiB, and their random
 * accesses (GAT's backward: rows of d_hf's copies and of the tape at
 * idx[k]) miss the TLB; 2 MiB pages cut both (GAT's gradient: 0.74x the
 * CPU time).  Any other is aligned to 64 bytes, a cache line: vector
 * loads and stores of a row then never straddle two lines (malloc's 16
 * bytes made the same W1 block of bench/layout up to 40% slower,
 * depending on where its buffers fell).  posix_memalign and madvise are
 * declared here rather than
 * included so that the C stays C99 (-std=c99 hides the POSIX headers'
 * declarations) and <sys/mman.h>'s many names stay out of user code. */
static void cg_alloc_helper_def(FILE *o)
{
    fputs("/* A heap buffer of n bytes (free() releases it), 64-byte aligned (a\n"
          " * cache line: vector accesses do not straddle two); one of 4 MiB or\n"
          " * more is 2 MiB-aligned, whole 2 MiB pages, and asks for huge pages\n"
          " * (fewer page faults and TLB misses). */\n"
          "#ifdef __linux__\n"
          "int posix_memalign(void **, size_t, size_t);\n"
          "int madvise(void *, size_t, int);\n"
          "#endif\n"
          "static inline void *ft__alloc(size_t n)\n{\n"
          "#ifdef __linux__\n"
          "    const size_t huge = (size_t)2 << 20;\n"
          "    if (n >= 2 * huge && n <= SIZE_MAX - huge) {\n"
          "        const size_t r = (n + huge - 1) & ~(huge - 1);\n"
          "        void *q = NULL;\n"
          "        if (posix_memalign(&q, huge, r) != 0) return NULL;\n"
          "        madvise(q, r, 14 /* MADV_HUGEPAGE */);\n"
          "        return q;\n"
          "    }\n"
          "    void *q = NULL;\n"
          "    return posix_memalign(&q, 64, n ? n : 1) == 0 ? q : NULL;\n"
          "#else\n"
          "    return malloc(n ? n : 1);\n"
          "#endif\n}\n", o);
}

/* sigmoid on f32 without a libm call.  expf is an opaque call (every live
 * xmm register spilled around it) with an overflow path (xflowf) that
 * SoftRas's faces far from a pixel take nearly always; its gradient spent
 * 10.5% of its time in expf.  Here: 0 below a = -87.33654 (the exact value is
 * below FLT_MIN there), 1 above 17.5 (1 - e^-a rounds to 1), and between,
 * e = e^-|a| as 2^n * p(r), n = round(-|a| / ln 2) by the 1.5 * 2^23
 * rounding trick (no float-to-int conversion: NaN is no UB, it passes
 * through), r = -|a| - n ln 2 with ln 2 in two parts, p Cephes' degree-7
 * polynomial (relative error below 2e-7 on |r| <= ln 2 / 2); then
 * 1 / (1 + e) or e / (1 + e), which never overflow.  Measured against the
 * correctly rounded sigmoid (tests/numeric/run.py, case sigmoid/f32): at
 * most 2 ulp off for results of at least FLT_MIN.  The CUDA target uses it
 * too: CUDA's 1 / (1 + expf(-a)) was 3 ulp off on an H200. */
static const char cg_sigmoid_f32_body[] =
    "float ft__sigmoid_f32(float a)\n{\n"
    "    if (a < -87.33654f) return 0.0f;\n"
    "    if (a > 17.5f) return 1.0f;\n"
    "    float x = -fabsf(a);\n"
    "    float t = x * 1.44269504088896341f + 12582912.0f;\n"
    "    float n = t - 12582912.0f;\n"
    "    float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;\n"
    "    float p = ((((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r\n"
    "                 + 4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f)\n"
    "               * (r * r) + r) + 1.0f;\n"
    "    uint32_t b;\n"
    "    memcpy(&b, &t, sizeof b);\n"
    "    b = (b + (uint32_t)(127 - 0x4B400000)) << 23;\n"
    "    float s;\n"
    "    memcpy(&s, &b, sizeof s);\n"
    "    float e = p * s;\n"
    "    return a >= 0 ? 1.0f / (1.0f + e) : e / (1.0f + e);\n}\n";

/* Write ft__sigmoid_f32 (above) with the qualifiers qual ("static inline"
 * for C, host and device ones for CUDA). */
void cg_sigmoid_f32_def(FILE *o, const char *qual)
{
    fprintf(o, "/* 1 / (1 + e^-a) with e^-|a| inlined (backend/cg_c.c, cg_sigmoid_f32_body):\n"
            " * at most 2 ulp off; 0 where the value is below FLT_MIN */\n%s ", qual);
    fputs(cg_sigmoid_f32_body, o);
}

/* Write the definition of helper h for dtype t. */
static void cg_helper_def(FILE *o, cg_helper h, ft_dtype t)
{
    const char *T = cg_ctype(t), *n = ft_dtype_name(t);
    const char *U = t == FT_I32 ? "uint32_t" : "uint64_t";
    const char *fs = t == FT_F64 ? "" : "f";            /* math suffix */
    const char *fc = t == FT_F16 ? "(float)" : "";      /* f16 computes in float */
    static const char *const anames[] = {"add", "mul", "min", "max"};
    switch (h) {
    case CG_H_FLOORDIV:
        if (ft_dtype_is_float(t))
            fprintf(o, "static inline %s ft__floordiv_%s(%s a, %s b) { return (%s)floor%s(%sa / %sb); }\n",
                    T, n, T, T, T, fs, fc, fc);
        else
            fprintf(o, "/* Python's //: rounds towards -inf; x // 0 is 0 (as NumPy). */\n"
                    "static inline %s ft__floordiv_%s(%s a, %s b)\n{\n"
                    "    if (b == 0) return 0;\n"
                    "    if (b == -1) return (%s)(0 - (%s)a);\n"
                    "    %s q = a / b;\n"
                    "    return (a %% b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n",
                    T, n, T, T, T, U, T);
        break;
    case CG_H_MOD:
        if (ft_dtype_is_float(t))
            fprintf(o, "static inline %s ft__mod_%s(%s a, %s b) { return (%s)(a - floor%s(%sa / %sb) * b); }\n",
                    T, n, T, T, T, fs, fc, fc);
        else
            fprintf(o, "/* Python's %%: the sign of the divisor; x %% 0 is 0 (as NumPy). */\n"
                    "static inline %s ft__mod_%s(%s a, %s b)\n{\n"
                    "    if (b == 0 || b == -1) return 0;\n"
                    "    %s r = a %% b;\n"
                    "    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n",
                    T, n, T, T, T);
        break;
    case CG_H_MIN: case CG_H_MAX:
        /* a float NaN operand makes the result NaN (either order) */
        fprintf(o, "static inline %s ft__%s_%s(%s a, %s b) { return (a %s b%s) ? a : b; }\n", T,
                h == CG_H_MIN ? "min" : "max", n, T, T, h == CG_H_MIN ? "<" : ">",
                ft_dtype_is_float(t) ? " || a != a" : "");
        break;
    case CG_H_RED_MIN: case CG_H_RED_MAX: {
        const char *op = h == CG_H_RED_MIN ? "min" : "max";
        fprintf(o, "#pragma omp declare reduction(ft__red_%s_%s : %s : omp_out = ft__%s_%s(omp_out, "
                "omp_in)) initializer(omp_priv = %sINFINITY)\n", op, n, T, op, n,
                h == CG_H_RED_MIN ? "" : "-");
        break;
    }
    case CG_H_ABS:
        fprintf(o, "static inline %s ft__abs_%s(%s a) { return a < 0 ? (%s)(0 - (%s)a) : a; }\n",
                T, n, T, T, U);
        break;
    case CG_H_SIGMOID:
        if (t == FT_F32) {
            cg_sigmoid_f32_def(o, "static inline");
            break;
        }
        fprintf(o, "static inline %s ft__sigmoid_%s(%s a) { return (%s)(1 / (1 + exp%s(-%sa))); }\n",
                T, n, T, T, fs, fc);
        break;
    case CG_H_SQUARE:
        fprintf(o, "static inline %s ft__square_%s(%s a) { return (%s)(a * a); }\n", T, n, T, T);
        break;
    case CG_H_IPOW:
        fprintf(o, "/* Integer power by squaring; a negative exponent gives 0 unless |a| is 1. */\n"
                "static inline %s ft__ipow_%s(%s a, %s b)\n{\n"
                "    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;\n"
                "    %s r = 1, x = (%s)a;\n"
                "    for (; b; b >>= 1, x *= x) if (b & 1) r *= x;\n"
                "    return (%s)r;\n}\n",
                T, n, T, T, U, U, T);
        break;
    case CG_H_ATOMIC_ADD: case CG_H_ATOMIC_MUL: case CG_H_ATOMIC_MIN: case CG_H_ATOMIC_MAX: {
        int op = h - CG_H_ATOMIC_ADD;
        fprintf(o, "/* *p = %s(*p, v) atomically: compare-and-swap on the element. */\n"
                "static inline void ft__atomic_%s_%s(%s *p, %s v)\n{\n"
                "    %s old, nw;\n"
                "    __atomic_load(p, &old, __ATOMIC_RELAXED);\n"
                "    do {\n",
                anames[op], anames[op], n, T, T, T);
        if (op == 0)
            fprintf(o, "        nw = (%s)(old + v);\n", T);
        else if (op == 1)
            fprintf(o, "        nw = (%s)(old * v);\n", T);
        else
            fprintf(o, "        nw = ft__%s_%s(old, v);\n", anames[op], n);
        fprintf(o, "        if (memcmp(&nw, &old, sizeof nw) == 0) return;\n"
                "    } while (!__atomic_compare_exchange(p, &old, &nw, 0, __ATOMIC_SEQ_CST,\n"
                "                                        __ATOMIC_RELAXED));\n}\n");
        break;
    }
    case CG_H_NBYTES:
        fputs("/* Bytes of a local tensor: negative dims count as 0; SIZE_MAX on overflow. */\n"
              "static inline size_t ft__nbytes(int n, const int64_t *dims, size_t elem)\n{\n"
              "    size_t r = elem;\n"
              "    for (int k = 0; k < n; k++) {\n"
              "        size_t d = dims[k] < 0 ? 0 : (size_t)dims[k];\n"
              "        if (__builtin_mul_overflow(r, d, &r)) return SIZE_MAX;\n"
              "    }\n"
              "    return r;\n}\n", o);
        break;
    case CG_H_ALLOC:
        cg_alloc_helper_def(o);
        break;
    case CG_H_GROW:
        fputs("/* Make a region's heap buffer (*cap bytes) hold n bytes: replaced only\n"
              " * to grow (a loop's iterations reuse it; a new instance of the region\n"
              " * starts with undefined contents, so nothing is copied); on failure *p\n"
              " * is NULL. */\n"
              "static inline void *ft__grow(void **p, size_t *cap, size_t n)\n{\n"
              "    if (*p && n <= *cap) return *p;\n"
              "    free(*p);\n"
              "    *p = ft__alloc(n);\n"
              "    *cap = *p ? n : 0;\n"
              "    return *p;\n}\n", o);
        break;
    case CG_H_TRIP:
        fputs("/* Iterations of range(b, e, s); 0 for s == 0.  Unsigned, so that no\n"
              " * bounds overflow; more than INT64_MAX (a step of 1 or -1 over more than\n"
              " * half the int64s) counts INT64_MAX, 292 years at 10^9 a second. */\n"
              "static inline int64_t ft__trip(int64_t b, int64_t e, int64_t s)\n{\n"
              "    uint64_t n = 0;\n"
              "    if (s > 0 && e > b) n = ((uint64_t)e - (uint64_t)b - 1) / (uint64_t)s + 1;\n"
              "    if (s < 0 && b > e) n = ((uint64_t)b - (uint64_t)e - 1) / -(uint64_t)s + 1;\n"
              "    return n > INT64_MAX ? INT64_MAX : (int64_t)n;\n}\n", o);
        break;
    case CG_H_THREADS:
        fputs("/* The most threads a parallel region gets, this thread's number and\n"
              " * its team's size (1, 0, 1 without OpenMP). */\n"
              "#ifdef _OPENMP\n"
              "int omp_get_max_threads(void);\n"
              "int omp_get_thread_num(void);\n"
              "int omp_get_num_threads(void);\n"
              "static inline int64_t ft__max_threads(void) { return omp_get_max_threads(); }\n"
              "static inline int64_t ft__thread(void) { return omp_get_thread_num(); }\n"
              "static inline int64_t ft__team(void) { return omp_get_num_threads(); }\n"
              "#else\n"
              "static inline int64_t ft__max_threads(void) { return 1; }\n"
              "static inline int64_t ft__thread(void) { return 0; }\n"
              "static inline int64_t ft__team(void) { return 1; }\n"
              "#endif\n", o);
        break;
    case CG_H_COUNT:
        break;
    }
}

/* The CBLAS declarations as_lib calls (linked with -lopenblas), written
 * out rather than included: <cblas.h> pulls in <complex.h> and OpenBLAS's
 * configuration macros (`I`, `complex`, `xdouble`, ...), which would clash
 * with user names.  The enum values and the 32-bit `blasint` are those of
 * Debian's libopenblas0 (not the 64-bit-index libopenblas64). */
static const char cg_cblas_decls[] =
    "enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };\n"
    "enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };\n"
    "void cblas_sgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, "
    "int, int, float, const float *, int, const float *, int, float, float *, int);\n"
    "void cblas_dgemm(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, "
    "int, int, double, const double *, int, const double *, int, double, double *, "
    "int);\n";

/* Write the prelude: includes, the ABI text, the helpers in use. */
static void cg_prelude(cg_emitter *em, FILE *o)
{
    fputs("/* Generated by ftc: C99 + OpenMP. */\n"
          "#include <stdint.h>\n#include <stdbool.h>\n#include <stddef.h>\n"
          "#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n\n", o);
    fputs(ft_abi_text, o);
    fputs("/* end of ft_abi.h */\n\n", o);
    cg_error_helpers(o, 0);
    for (int h = 0; h < CG_H_COUNT; h++)
        for (int t = 0; t < FT_DTYPE_COUNT; t++)
            if (em->used[h][t])
                cg_helper_def(o, (cg_helper)h, (ft_dtype)t);
    if (em->uses_transpose & 1 << FT_F32)
        cg_transpose_helper_def(o, FT_F32);
    if (em->uses_transpose & 1 << FT_F64)
        cg_transpose_helper_def(o, FT_F64);
    if (em->uses_blas)
        fputs(cg_cblas_decls, o);
    if (em->uses_blas & 1 << FT_F32)
        cg_gemm_helper_def(o, "float", "ft__gemm_f32", "cblas_sgemm(CblasRowMajor, ta ? "
                           "CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)mi, "
                           "(int)nj, (int)kp, alpha, ap, la, bp, lb, be, cp, lc);");
    if (em->uses_blas & 1 << FT_F64)
        cg_gemm_helper_def(o, "double", "ft__gemm_f64", "cblas_dgemm(CblasRowMajor, ta ? "
                           "CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)mi, "
                           "(int)nj, (int)kp, alpha, ap, la, bp, lb, be, cp, lc);");
    fputs("\n", o);
}

/* Refuse exported names that cannot be C function names (see cg.h). */
int cg_check_names(ft_ctx *ctx, const ast_program *p)
{
    int bad = cg_clashes_error_fn(ctx, p);
    for (int i = 0; i < p->nfuncs; i++) {
        const char *n = p->funcs[i]->name;
        size_t len = strlen(n);
        if (cg_is_reserved(n) || (len >= 4 && strcmp(n + len - 4, "_ftk") == 0)) {
            ft_error(ctx, p->funcs[i]->loc, "exported function name '%s' clashes with a C "
                     "keyword or library name; rename the function", n);
            bad = 1;
        }
    }
    return bad;
}

int cg_emit_c(ft_ctx *ctx, const ast_program *p, FILE *out)
{
    if (cg_check_names(ctx, p))
        return 1;
    int nerrors = ctx->nerrors;
    cg_emitter em = {.ctx = ctx};
    cg_printer_init(&em);
    char *buf = NULL;
    size_t len = 0;
    em.out = open_memstream(&buf, &len);
    if (!em.out) {
        ft_error(ctx, (ft_loc){0}, "out of memory in the C backend");
        return 1;
    }
    for (int i = 0; i < p->nfuncs; i++) {
        const ast_func *f = p->funcs[i];
        if (cg_is_composed(p, i))
            cg_func_composed(&em, f);
        else
            cg_func(&em, f);
        cg_desc_func(&em.pr, ctx, em.out, f);
    }
    for (int i = 0; i < p->nsizefns; i++)
        cg_sizefn(&em, p->sizefns[i]);
    cg_desc_module(em.out, ctx, p, &em.sites, 0);
    fclose(em.out);
    cg_prelude(&em, out);
    fputs(buf ? buf : "", out);
    free(buf);
    return ctx->nerrors != nerrors || ferror(out);
}

/* ------------------------------------------------------------- header */

/* The include guard for libname: upper case, other characters as '_'. */
static const char *cg_guard(ft_ctx *ctx, const char *libname)
{
    char *g = ft_fmt(ctx, "FT_%s_H", libname);
    for (char *c = g; *c; c++) {
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
        else if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            *c = '_';
    }
    return g;
}

/* "[d0, d1, ...]": the dimensions of a parameter in the header. */
static void cg_header_dims(ft_ctx *ctx, FILE *o, int n, ast_expr *const *shape)
{
    fputc('[', o);
    for (int k = 0; k < n; k++)
        fprintf(o, "%s%s", k ? ", " : "", ast_expr_text(ctx, shape[k]));
    fputc(']', o);
}

/* The doc comment of one function in the header. */
static void cg_header_doc(cg_emitter *em, const ast_func *f)
{
    FILE *o = em->out;
    fprintf(o, "/* %s(", f->name);
    for (int i = 0; i < f->nparams; i++)
        fprintf(o, "%s%s", i ? ", " : "", f->params[i].name);
    fputs(")\n", o);
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        if (p->is_size) {
            fprintf(o, " *   %s: size (int64_t, must be >= 0)\n", p->name);
            continue;
        }
        fprintf(o, " *   %s: %s", p->name, ft_dtype_name(p->dtype));
        if (p->lshape)
            cg_header_dims(em->ctx, o, p->lndim, p->lshape);
        else if (p->ndim)
            cg_header_dims(em->ctx, o, p->ndim, p->shape);
        fprintf(o, " %s%s%s", ft_access_name(p->access), p->mtype != FT_MT_CPU ? " @ " : "",
                p->mtype != FT_MT_CPU ? ft_mtype_name(p->mtype) : "");
        if (p->lshape) {
            fprintf(o, " %s, stored as ", p->layout);
            cg_header_dims(em->ctx, o, p->ndim, p->shape);
            fputc('\n', o);
        } else {
            fputs(", row-major\n", o);
        }
    }
    fputs(" * Returns FT_OK (0), FT_ERR_SIZE (1) for a negative size, FT_ERR_ASSERT (2)\n"
          " * for a failed assert, FT_ERR_INDEX (3) for a data-dependent index out of\n"
          " * bounds, FT_ERR_NOMEM (4) when a local tensor cannot be allocated,\n"
          " * FT_ERR_NULL (6) for a NULL tensor that has elements; the library's\n"
          " * _last_error helper (below) says which check failed.  Every tensor\n"
          " * pointer must point to as many valid elements as its shape says, row-\n"
          " * major and contiguous, or the physical array of its layout\n"
          " * (it may be NULL only when that number is 0). */\n", o);
}

int cg_emit_header(ft_ctx *ctx, const ast_program *p, const char *libname, FILE *out)
{
    if (cg_check_names(ctx, p))
        return 1;
    cg_emitter em = {.ctx = ctx, .out = out};
    cg_printer_init(&em);
    const char *g = cg_guard(ctx, libname);
    fprintf(out, "/* %s.h - generated by ftc: the C ABI of %s.so. */\n"
            "#ifndef %s\n#define %s\n\n#include <stdbool.h>\n#include <stdint.h>\n#include <stddef.h>\n\n"
            "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
            "#ifndef FT_OK\n#define FT_OK 0\n#define FT_ERR_SIZE 1\n#define FT_ERR_ASSERT 2\n"
            "#define FT_ERR_INDEX 3\n#define FT_ERR_NOMEM 4\n#define FT_ERR_NULL 6\n#endif\n\n",
            libname, libname, g, g);
    for (int i = 0; i < p->nfuncs; i++) {
        cg_header_doc(&em, p->funcs[i]);
        cg_signature(&em, p->funcs[i]);
        fputs(";\n\n", out);
    }
    for (int i = 0; i < p->nsizefns; i++) {
        fprintf(out, "/* %s: bytes of the tape of a gradient (0 for a negative size). */\n",
                p->sizefns[i]->name);
        cg_sizefn_signature(&em, p->sizefns[i]);
        fputs(";\n\n", out);
    }
    cg_error_header(out, cg_error_fn_name(ctx, p));
    fprintf(out, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", g);
    return ferror(out) != 0;
}
