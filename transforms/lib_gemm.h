/* lib_gemm.h - recognise a loop nest that computes a matrix product, for
 * as_lib (transforms/sched_as_lib.c), auto_use_lib and the backends, which
 * emit a BLAS call (cblas_?gemm, cublas?gemm) for a loop marked AST_LIB.
 *
 * The nest under a loop L, in any loop order, after optional batch loops:
 *   for ...: c[.., i, .., j] += X * a[.., i, .., p] * b[.., p, .., j]     (beta 1)
 *   for ...: { c[i, j] = 0 (under loops over the rest of i, j);
 *              for ...: c[i, j] += a[i, p] * b[p, j] }                   (beta 0)
 *   for i: for j: { var acc: T; acc = 0; for p: acc += a[i, p] * b[p, j];
 *                   c[i, j] = acc (beta 0) or c[i, j] += acc (beta 1) }
 * where each of i, j, p is `it`, `it + e` or `it - e` (e free of the
 * product's iterators) in one dimension of each operand that uses it, the
 * other dimensions are free of them, and X (alpha) is a product of factors
 * free of them.  Batch loops are iterators used by a, b and c alike; they
 * must be outside the product's loops.
 */
#ifndef FT_LIB_GEMM_H
#define FT_LIB_GEMM_H

#include "../ast/ast.h"

/* One operand of the call: the tensor, the index of its first element
 * (the product's iterators at their loop's begin; batch iterators kept),
 * whether it is transposed and its leading dimension. */
typedef struct xf_gemm_operand {
    const char *var;
    int n;
    ast_expr **base;
    int trans;               /* 1: CblasTrans */
    ast_expr *ld;            /* row stride of the dimension that is not unit */
} xf_gemm_operand;

/* A recognised product C = alpha * op(A) @ op(B) + beta * C (row-major),
 * operands swapped already when c is stored transposed. */
typedef struct xf_gemm {
    ft_dtype dtype;          /* f32 or f64 */
    ast_expr *m, *n, *k;     /* extents (may be negative: run as 0) */
    xf_gemm_operand a, b, c;
    ast_expr *alpha;         /* NULL: 1 */
    int beta;                /* 0 or 1 */
    int nbatch;              /* the batch loops, outermost first */
    const ast_stmt **batch;
} xf_gemm;

/* Whether the nest under loop (in f) is a matrix product: 1 with *g
 * filled (arena-owned), else 0 with *why (arena-owned) saying what is not.
 * Looks at the nest only, not at the loops around it. */
int xf_gemm_match(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, xf_gemm *g,
                  const char **why);

/* Whether s or a statement under it is a loop marked AST_LIB. */
int xf_has_lib_loop(const ast_stmt *s);
/* Whether any loop of p is marked AST_LIB (its module calls BLAS). */
int xf_program_uses_lib(const ast_program *p);

#endif
