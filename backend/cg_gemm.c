/* cg_gemm.c - the chunked gemm helper both backends call for an as_lib
 * nest (transforms/lib_gemm.h).
 *
 * BLAS (CBLAS, cuBLAS) takes its dimensions and leading dimensions as a
 * 32-bit int.  A product with more than INT_MAX rows, columns or depth
 * would be passed truncated (OpenBLAS prints "parameter number 3 had an
 * illegal value" and computes nothing, while the call returned FT_OK), so
 * the helper splits it: C's rows and columns into blocks of at most
 * FT__GEMM_CHUNK, the depth into blocks of at most FT__GEMM_CHUNK summed
 * into C (beta for the first block, 1 after).  An operand whose leading
 * dimension exceeds FT__GEMM_LD_LIMIT is passed one stored row per call
 * (then the leading dimension is not used and the row's length is passed).
 * Both limits default to INT_MAX; tests lower them with -D to split small
 * products.
 */
#include "cg.h"

/* Write the helper NAME for element type T, each block running call (see
 * cg.h and the file comment). */
void cg_gemm_helper_def(FILE *o, const char *T, const char *name, const char *call)
{
    fprintf(o,
            "#ifndef FT__GEMM_CHUNK\n"
            "#define FT__GEMM_CHUNK 2147483647   /* BLAS's int: rows, columns, depth a call */\n"
            "#endif\n"
            "#ifndef FT__GEMM_LD_LIMIT\n"
            "#define FT__GEMM_LD_LIMIT 2147483647   /* ... and leading dimensions */\n"
            "#endif\n"
            "/* C[m, n] = alpha * op(A) @ op(B) + beta * C (row-major; op transposes\n"
            " * when ta / tb) through BLAS calls whose sizes fit its int (backend/\n"
            " * cg_gemm.c): blocks of C, the depth summed block by block; an operand\n"
            " * whose leading dimension does not fit goes one stored row a call.\n"
            " * Returns 0, or non-zero when a call failed. */\n"
            "static int %s(void *h, int ta, int tb, int64_t m, int64_t n, int64_t k, %s alpha,\n"
            "    const %s *a, int64_t lda, const %s *b, int64_t ldb, %s beta, %s *c, int64_t ldc)\n"
            "{\n"
            "    const int64_t lim = FT__GEMM_CHUNK, ldl = FT__GEMM_LD_LIMIT;\n"
            "    const int64_t cm = ldc > ldl || (!ta && lda > ldl) ? 1 : lim;\n"
            "    const int64_t cn = tb && ldb > ldl ? 1 : lim;\n"
            "    const int64_t ck = (ta && lda > ldl) || (!tb && ldb > ldl) ? 1 : lim;\n"
            "    (void)h;\n"
            "    if (k < 0) k = 0;\n"
            "    for (int64_t i = 0; i < m; i += cm) {\n"
            "        const int64_t mi = m - i < cm ? m - i : cm;\n"
            "        for (int64_t j = 0; j < n; j += cn) {\n"
            "            const int64_t nj = n - j < cn ? n - j : cn;\n"
            "            int64_t p = 0;\n"
            "            do {\n"
            "                const int64_t kp = k - p < ck ? k - p : ck;\n"
            "                const %s *ap = ta ? a + p * lda + i : a + i * lda + p;\n"
            "                const %s *bp = tb ? b + j * ldb + p : b + p * ldb + j;\n"
            "                %s *cp = c + i * ldc + j;\n"
            "                const int64_t ra = ta ? mi : kp, rb = tb ? kp : nj;\n"
            "                const int la = (int)(lda > ldl ? (ra > 1 ? ra : 1) : lda > 1 ? lda : 1);\n"
            "                const int lb = (int)(ldb > ldl ? (rb > 1 ? rb : 1) : ldb > 1 ? ldb : 1);\n"
            "                const int lc = (int)(ldc > ldl ? (nj > 1 ? nj : 1) : ldc > 1 ? ldc : 1);\n"
            "                const %s be = p ? (%s)1 : beta;\n"
            "                %s\n"
            "                p += kp;\n"
            "            } while (p < k);\n"
            "        }\n"
            "    }\n"
            "    return 0;\n"
            "}\n",
            name, T, T, T, T, T, T, T, T, T, T, call);
}
