/* Hand-written C + OpenMP: a GAT layer on a CSR graph (bench/ft/gat.ft).
 * Pass 1 (parallel over nodes): hf = x @ weight, el, er.  Pass 2 (parallel
 * over nodes, dynamic chunks for the power-law degrees): the edge scores are
 * computed once into a per-thread buffer, softmax, then the weighted sum of
 * the neighbours' hf rows. */
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

#define SLOPE 0.1f

int gat(int64_t n, int64_t nnz, int64_t feat_len, const int32_t *ptr, const int32_t *idx,
        const float *x, const float *weight, const float *attn_l, const float *attn_r,
        float *y)
{
    (void)nnz;
    const int64_t F = feat_len;
    float *hf = malloc(sizeof(float) * (size_t)(n * F + 2 * n + 1));
    if (!hf) return 4;
    float *el = hf + n * F, *er = el + n;
    int64_t maxdeg = 0;
    for (int64_t i = 0; i < n; i++)
        if (ptr[i + 1] - ptr[i] > maxdeg) maxdeg = ptr[i + 1] - ptr[i];
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++) {
            float *hi = hf + i * F;
            const float *xi = x + i * F;
            for (int64_t j = 0; j < F; j++) hi[j] = 0;
            for (int64_t c = 0; c < F; c++) {
                const float a = xi[c], *wr = weight + c * F;
#pragma omp simd
                for (int64_t j = 0; j < F; j++) hi[j] += a * wr[j];
            }
            float sl = 0, sr = 0;
            for (int64_t j = 0; j < F; j++) { sl += hi[j] * attn_l[j]; sr += hi[j] * attn_r[j]; }
            el[i] = sl; er[i] = sr;
        }
        float *sc = malloc(sizeof(float) * (size_t)(maxdeg > 0 ? maxdeg : 1));
#pragma omp for schedule(dynamic, 256)
        for (int64_t i = 0; i < n; i++) {
            const int64_t b = ptr[i], deg = ptr[i + 1] - b;
            float m = -INFINITY, s = 0;
            for (int64_t k = 0; k < deg; k++) {
                float t = el[i] + er[idx[b + k]];
                t = t > 0 ? t : SLOPE * t;
                sc[k] = t;
                if (t > m) m = t;
            }
            for (int64_t k = 0; k < deg; k++) { sc[k] = expf(sc[k] - m); s += sc[k]; }
            float *yi = y + i * F;
            for (int64_t j = 0; j < F; j++) yi[j] = 0;
            const float inv = 1.f / s;
            for (int64_t k = 0; k < deg; k++) {
                const float a = sc[k] * inv, *hr = hf + (int64_t)idx[b + k] * F;
#pragma omp simd
                for (int64_t j = 0; j < F; j++) yi[j] += a * hr[j];
            }
        }
        free(sc);
    }
    free(hf);
    return 0;
}
