/* cg_sites.h - the error sites of a library: one per run-time check the
 * backends emit, shared by backend/cg_c.c and backend/cg_cuda.c.
 *
 * Requires: statements whose locations carry the inlined call they came
 * through (ft_loc.via, stamped by the front end).
 * Provides: the description of each check (ft_site_desc of
 * runtime/ft_abi.h): where it is in the user's program (for code inlined
 * from the stdlib or another inline function, the user's call site, and
 * the name of the function called there) and what it checks, with up to
 * two values its failure records; the table's C text; and the C text of
 * the run-time helpers that record a failure and format it.
 */
#ifndef FT_CG_SITES_H
#define FT_CG_SITES_H

#include "../ast/ast.h"

/* The sites of one translation unit, in order of their ids. */
typedef struct cg_sites {
    ft_vec items;            /* cg_site * */
} cg_sites;

/* What a failing check records: its site and the C text of its values
 * (NULL: none), already converted to int64_t (cg_site_value). */
typedef struct cg_failure {
    int site;
    int code;                /* FT_ERR_* */
    const char *code_name;   /* "FT_ERR_INDEX" */
    const char *v[2];
} cg_failure;

/* Converts the C text of a scalar value of dtype t into the int64_t a
 * record holds; sets *kind to its FT_VAL_* code.  Arena-owned. */
const char *cg_site_value(ft_ctx *ctx, const char *text, ft_dtype t, int *kind);

/* The site of `assert cond` statement s of function f (a user's assert,
 * whose message quotes its source text, or a shape check the front end
 * made).  When cond compares two values, *lhs and *rhs are the sides to
 * record (a literal side is left NULL); else both NULL. */
cg_failure cg_site_assert(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_stmt *s,
                          const ast_expr **lhs, const ast_expr **rhs);

/* Where an access at loc (an expression's location, maybe none) inside a
 * statement at stmt is reported: the access itself, seen through the
 * statement's inlined call (so that an access in stdlib code reports the
 * user's call site); the statement when the access has no location. */
ft_loc cg_site_access_loc(ft_loc loc, ft_loc stmt);

/* The site of the bounds check of index k (expression idx) of tensor var
 * in a statement at loc (the values: the index and the dimension). */
cg_failure cg_site_index(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         const char *var, int k, const ast_expr *idx);

/* The site of the check that size parameter p of f is not negative. */
cg_failure cg_site_size(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_param *p);

/* The C line that returns FT_ERR_NULL when tensor parameter p of f (C name
 * cname, its dimensions' C text dims) is a NULL pointer and has elements
 * (every dimension above 0), its site added (the message names p and its
 * shape); "" when p never has elements.  Once per call, at entry, after
 * the size checks. */
const char *cg_null_check(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_param *p,
                          const char *cname, const char *const *dims);

/* The site of an allocation at loc of `what` ("local tensor `t`"), which
 * records the bytes asked for. */
cg_failure cg_site_nomem(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         const char *what);

/* A site with a fixed message (no values), e.g. a CUDA runtime failure. */
cg_failure cg_site_plain(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         int code, const char *msg);

/* Write "static const ft_site_desc ft__sites[] = {...};" (nothing when
 * there are no sites). */
void cg_sites_emit(FILE *out, const cg_sites *sites);
/* Print s as a C string literal (quotes, backslashes, newlines and `?`,
 * against trigraphs, escaped): the site table's texts and the description
 * table's names and shapes. */
void cg_str_lit(FILE *out, const char *s);

/* The C name of the library's error helper for program p:
 * "<module>_last_error", module being the base name of p's source file
 * (non-identifier characters as '_'; "ft" when unknown). */
const char *cg_error_fn_name(ft_ctx *ctx, const ast_program *p);

/* Write the run-time helpers: the per-thread record `ft__last`, ft__raise
 * (record on the calling thread and return the code), ft__fail (the first
 * failure of a call wins, race-free in parallel regions), ft__done
 * (publish a call's record), ft__fbits, and the formatter behind
 * ft_module.last_error (through __builtin_snprintf: no <stdio.h> and its
 * names in the generated code); cxx: CUDA C++ (ft__fbits also runs in
 * kernels). */
void cg_error_helpers(FILE *out, int cxx);
/* The f32 sigmoid shared by the C and CUDA targets (cg_c.c), with the
 * qualifiers qual. */
void cg_sigmoid_f32_def(FILE *o, const char *qual);

/* Write the library's error accessor `ft__last_error` (ft_module's
 * last_error) and the exported `NAME(char *buf, size_t size)` (name from
 * cg_error_fn_name) for the sites emitted; cxx: C++ (extern "C"). */
void cg_error_accessors(FILE *out, const cg_sites *sites, const char *name, int cxx);

/* The line of the public header that declares the accessor, with its doc
 * comment. */
void cg_error_header(FILE *out, const char *name);

/* Whether an exported function name would clash with the error helper. */
int cg_clashes_error_fn(ft_ctx *ctx, const ast_program *p);

#endif
