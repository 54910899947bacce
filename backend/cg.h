/* cg.h - the C backend: C99 + OpenMP emission, header emission, and the
 * build of a shared library with the system C compiler.
 *
 * Requires: an ast_program whose functions passed lowering (every name
 * resolved, every Load/Store fully indexed, dtypes set) and schedules.
 * Provides: C text with the ABI of language.md and the description table of
 * runtime/ft_abi.h, and libNAME.so + libNAME.h on disk.
 */
#ifndef FT_CG_H
#define FT_CG_H

#include "../ast/ast.h"

/* Text of runtime/ft_abi.h, embedded into ftc at build time. */
extern const char ft_abi_text[];
/* backend/cuda_prelude.cuh, embedded at build time: the CUDA target's
 * device and host helpers. */
extern const char ft_cuda_prelude_text[];

/* Write the whole C translation unit for p to out.  Returns 0, or non-zero
 * after reporting an error through ctx. */
int cg_emit_c(ft_ctx *ctx, const ast_program *p, FILE *out);

/* Refuse, with a located error each, exported function names that the C
 * library cannot define: C keywords, names the generated C's headers
 * declare (`exit`, `sinf`), reserved names and libgomp's (`omp_`, `GOMP_`).
 * Returns non-zero when one was refused.  cg_emit_c runs it; `ftc check`
 * too. */
int cg_check_names(ft_ctx *ctx, const ast_program *p);

/* Write the public header (prototypes with the C ABI, one doc comment per
 * function listing shapes) for a library whose base name is libname
 * ("libprog").  Returns 0 or non-zero. */
int cg_emit_header(ft_ctx *ctx, const ast_program *p, const char *libname,
                   FILE *out);

/* Emit, compile and write so_path (e.g. "out/libprog.so") and the header
 * beside it (out/libprog.h).  The compiler is ctx->opts.cc, else $FTC_CC,
 * else "cc"; flags ctx->opts.cflags, else $FTC_CFLAGS, else
 * "-O3 -march=native -fopenmp"; "-shared -fPIC -Wl,-Bsymbolic",
 * "-ffile-prefix-map=<its temporary folder>=ftc" and "-lm" are always added
 * (-Bsymbolic: the library's calls of its exported functions reach its own,
 * not a C library function of the same name).
 * What was at so_path and the header path stays untouched when any step
 * fails or a signal stops the build: both are written to temporary names
 * and renamed at the end, together.  Returns 0 or non-zero (with a
 * diagnostic that includes the compiler's output). */
int cg_build_library(ft_ctx *ctx, const ast_program *p, const char *so_path);

/* The header's path beside library so_path ("x.so" -> "x.h", else
 * so_path + ".h"), arena-owned. */
char *cg_header_path(ft_ctx *ctx, const char *so_path);

/* The C declaration of parameter p, whose C name is cname and element type
 * ctype ("int64_t n", "const float *x", "void *tape__bytes" for an opaque
 * one); shared by both backends so that their ABIs agree. */
const char *cg_param_text(ft_ctx *ctx, const ast_param *p, const char *cname,
                          const char *ctype);

/* The line that gives opaque parameter p its typed name
 * ("float *tape = (float *)tape__bytes;"), or NULL when p is not opaque. */
const char *cg_opaque_text(ft_ctx *ctx, const ast_param *p, const char *cname,
                           const char *ctype);
/* The line that declares region r of the tape (f->regions) as a pointer
 * into the tape (C name tape) at element text at:
 * "const float *tape_h = tape + (n);". */
const char *cg_region_text(ft_ctx *ctx, const ast_param *r, const char *cname,
                           const char *ctype, const char *tape, const char *at);

/* backend/cg_gemm.c: write the definition of the chunked gemm helper
 * `static int NAME(void *h, int ta, int tb, int64_t m, int64_t n, int64_t k,
 * T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
 * int64_t ldc)` for element type T, whose blocks each run call: one
 * statement using the block's locals (ta, tb, mi, nj, kp, alpha, ap, la,
 * bp, lb, be, cp, lc, h) that returns non-zero on a failed call. */
void cg_gemm_helper_def(FILE *o, const char *T, const char *name, const char *call);

/* backend/cg_transpose.c: a loop nest that copies a tensor transposed,
 * as the 2-D copies D0[a * lda + b] = S0[b * lds + a] (a < na, b < nb) of
 * the Store `store` in the loops batch[0..nbatch) (D0, S0: its tensors at
 * the indices dst and src, which use only the batch loops' iterators). */
typedef struct cg_transpose {
    const ast_stmt *store;
    ast_expr **dst, **src;
    int64_t na, nb, lda, lds;
    ft_dtype dtype;
    int nbatch;
    const ast_stmt *batch[8];    /* for it in range(0, bend, bstep) */
    int64_t bstep[8], bend[8];
    int parallel;                /* batch[0] runs on OpenMP threads */
} cg_transpose;
/* The literal shape of tensor var (dtype, n dimensions) into dims; 0, or
 * non-zero when a dimension is not a literal (the emitter's view). */
typedef int (*cg_dims_fn)(void *data, const char *var, ft_dtype dtype, int n, int64_t *dims);
/* Whether loop is such a nest (see the file comment); fills *t. */
int cg_transpose_match(ft_ctx *ctx, const ast_stmt *loop, cg_dims_fn dims, void *data,
                       cg_transpose *t);
/* Write the helper `static void ft__transpose_T(T *d, int64_t ldd,
 * const T *s, int64_t lds, int64_t na, int64_t nb)` for dtype t (f32 or
 * f64). */
void cg_transpose_helper_def(FILE *o, ft_dtype t);

/* backend/cg_cuda.c: write the CUDA C++ translation unit for p (the same
 * C ABI and description table; see the file comment for how loops become
 * kernels).  Returns 0, or non-zero after reporting an error. */
int cg_emit_cuda(ft_ctx *ctx, const ast_program *p, FILE *out);

/* backend/build.c: the command lines of the targets (ast/target.h's
 * command): the C compiler ($FTC_CC, --cc; -fopenmp) and nvcc. */
char **cg_cc_command(ft_ctx *ctx, const char *dir, const char *c_path, const char *so_path,
                     int blas);
char **cg_nvcc_command(ft_ctx *ctx, const char *dir, const char *c_path, const char *so_path,
                       int blas);

#endif
