/* Hand-written C + OpenMP: Longformer's dilated sliding-window attention
 * (bench/ft/longformer.ft).  One (head, position) pair per iteration of a
 * collapsed parallel loop: the 2W+1 dot products, a softmax in registers,
 * then y = attn @ v[window] with the feature loop innermost (contiguous). */
#include <stdint.h>
#include <math.h>

#define W 32
#define P (2 * W + 1)

int longformer(int64_t n_heads, int64_t seq_len, int64_t feat_len,
               const int32_t *dilation, const float *q, const float *k,
               const float *v, float *y)
{
    const int64_t F = feat_len;
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t h = 0; h < n_heads; h++)
        for (int64_t j = 0; j < seq_len; j++) {
            const int64_t d = dilation[h];
            const float *qj = q + (h * seq_len + j) * F;
            const float *kh = k + h * seq_len * F, *vh = v + h * seq_len * F;
            float dot[P], m = -INFINITY, s = 0;
            for (int p = 0; p < P; p++) {
                int64_t pos = j + (p - W) * d;
                if (pos < 0 || pos >= seq_len) { dot[p] = -INFINITY; continue; }
                const float *kr = kh + pos * F;
                float acc = 0;
#pragma omp simd reduction(+:acc)
                for (int64_t c = 0; c < F; c++) acc += qj[c] * kr[c];
                dot[p] = acc;
                if (acc > m) m = acc;
            }
            for (int p = 0; p < P; p++) { dot[p] = expf(dot[p] - m); s += dot[p]; }
            const float inv = 1.0f / s;
            float *yj = y + (h * seq_len + j) * F;
            for (int64_t c = 0; c < F; c++) yj[c] = 0;
            for (int p = 0; p < P; p++) {
                int64_t pos = j + (p - W) * d;
                if (pos < 0 || pos >= seq_len) continue;
                const float a = dot[p] * inv;
                const float *vr = vh + pos * F;
#pragma omp simd
                for (int64_t c = 0; c < F; c++) yj[c] += a * vr[c];
            }
        }
    return 0;
}
