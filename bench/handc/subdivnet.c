/* Hand-written C + OpenMP: SubdivNet's mesh convolution (bench/ft/subdivnet.ft).
 * y[i] = e[i] @ w0 + f1 @ w1 + f2 @ w2 + f3 @ w3, f1..f3 gathered from the
 * three neighbours adj[i, 0..2].  One face per iteration of a parallel loop;
 * the four feature rows stay in registers / L1, and the four matrix-vector
 * products are fused into one pass over out_feats (j innermost, contiguous). */
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

int subdivnet(int64_t n_faces, int64_t in_feats, int64_t out_feats,
              const int32_t *adj, const float *e,
              const float *w0, const float *w1, const float *w2, const float *w3,
              float *y)
{
    const int64_t F = in_feats, O = out_feats;
#pragma omp parallel
    {
        float *f = malloc(sizeof(float) * 4 * (size_t)(F > 0 ? F : 1));
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n_faces; i++) {
            const float *e0 = e + i * F;
            const float *n0 = e + (int64_t)adj[i * 3 + 0] * F;
            const float *n1 = e + (int64_t)adj[i * 3 + 1] * F;
            const float *n2 = e + (int64_t)adj[i * 3 + 2] * F;
            float *f1 = f, *f2 = f + F, *f3 = f + 2 * F;
            for (int64_t c = 0; c < F; c++) {
                float a = n0[c], b = n1[c], d = n2[c], x = e0[c];
                f1[c] = a + b + d;
                f2[c] = fabsf(a - b) + fabsf(b - d) + fabsf(d - a);
                f3[c] = fabsf(x - a) + fabsf(x - b) + fabsf(x - d);
            }
            float *yi = y + i * O;
            for (int64_t j = 0; j < O; j++) yi[j] = 0;
            for (int64_t c = 0; c < F; c++) {
                const float s0 = e0[c], s1 = f1[c], s2 = f2[c], s3 = f3[c];
                const float *r0 = w0 + c * O, *r1 = w1 + c * O, *r2 = w2 + c * O, *r3 = w3 + c * O;
#pragma omp simd
                for (int64_t j = 0; j < O; j++)
                    yi[j] += s0 * r0[j] + s1 * r1[j] + s2 * r2[j] + s3 * r3[j];
            }
        }
        free(f);
    }
    return 0;
}
