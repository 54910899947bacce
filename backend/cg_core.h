/* cg_core.h - what the C and CUDA emitters (cg_c.c, cg_cuda.c) share:
 * literals, the expression printer, the checks at a function's entry,
 * and small facts about the AST.  Each emitter keeps only what differs
 * (OpenMP regions; kernels, launches, device memory), handed to the
 * shared code as the hooks of a cg_printer.
 */
#ifndef FT_CG_CORE_H
#define FT_CG_CORE_H

#include <stdio.h>

#include "../ast/ast.h"
#include "cg_sites.h"

/* An emitter as the shared code sees it: its current stream and the
 * hooks that print what is the target's own.  em is the emitter, passed
 * back to every hook. */
typedef struct cg_printer {
    FILE **out;              /* the emitter's current stream (it may change) */
    void *em;
    /* a tensor element read (AST_LOAD) */
    void (*load)(void *em, const ast_expr *e);
    /* a binary operation (AST_BINARY; paren as for cg_print_expr) */
    void (*binary)(void *em, const ast_expr *e, int paren);
    /* a call of a builtin (AST_CALL) */
    void (*call)(void *em, const ast_expr *e);
    /* a floating literal of dtype t */
    void (*float_lit)(void *em, double v, ft_dtype t);
    /* the C name of the AST name (a scalar, a tensor, a parameter) */
    const char *(*cname)(void *em, const char *name);
    /* the C type of an element of dtype t */
    const char *(*ctype)(ft_dtype t);
    /* write text as one line at the current indentation */
    void (*line)(void *em, const char *text);
} cg_printer;

/* A substream: text an emitter writes between cg_sub_begin and
 * cg_sub_end is captured, so that what depends on it (declarations, the
 * checks of an index) can be written before it. */
typedef struct cg_sub {
    FILE *saved;
    char *buf;
    size_t len;
} cg_sub;

/* Start capturing what goes to *out (after an error when memory is short:
 * the text then goes on to *out). */
void cg_sub_begin(ft_ctx *ctx, FILE **out, cg_sub *s);

/* Stop capturing; returns the captured text (malloc'd, the caller frees). */
char *cg_sub_end(FILE **out, cg_sub *s);

/* The C text of e (arena-owned; paren as for cg_print_expr). */
const char *cg_print_str(const cg_printer *pr, ft_ctx *ctx, const ast_expr *e, int paren);

/* Print e; paren: wrap compound expressions in parentheses (0 only where
 * the context already delimits them). */
void cg_print_expr(const cg_printer *pr, const ast_expr *e, int paren);

/* Print an integer literal (negative ones in parentheses, so that `-` and
 * a literal never fuse into `--`). */
void cg_int_lit(FILE *out, int64_t v);

/* The shortest "%.*g" text of v that reads back as the same value of
 * dtype t (f32 and f16 compare as floats), with ".0" added where it
 * would read as an integer; v is finite. */
void cg_float_digits(char buf[64], double v, ft_dtype t);

/* Whether C text is a plain identifier or number (needs no parentheses). */
int cg_is_simple(const char *s);

/* Size in bytes of one element of dtype t. */
int64_t cg_dtype_size(ft_dtype t);

/* Whether e (NULL: no) reads a tensor (is data-dependent). */
int cg_has_load(const ast_expr *e);

/* The product of the constant dimensions of VarDef s, or -1 when one is
 * not constant or the product passes 2^31. */
int64_t cg_const_elems(const ast_stmt *s);

/* The lines checking that no tensor parameter of f with elements is a
 * NULL pointer, once per call after the size checks (every dimension is a
 * size expression); each failure returns FT_ERR_NULL at its site of
 * sites. */
void cg_print_null_checks(const cg_printer *pr, ft_ctx *ctx, cg_sites *sites,
                          const ast_func *f);

#endif
