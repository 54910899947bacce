/* Hand-written C + OpenMP: SoftRas's soft silhouette (bench/ft/softras.ft).
 * The faces' 2-D edge data (origin, direction, 1/|e|^2) are precomputed once
 * into a structure-of-arrays table; then every pixel (a parallel loop over
 * all h*w pixels) walks the table with the face loop vectorized. */
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

#define SIGMA 1e-4f

static inline float seg_d2(float px, float py, float ax, float ay, float ex, float ey, float inv)
{
    float t = ((px - ax) * ex + (py - ay) * ey) * inv;
    t = t < 0.f ? 0.f : t;
    t = t > 1.f ? 1.f : t;
    float dx = px - ax - t * ex, dy = py - ay - t * ey;
    return dx * dx + dy * dy;
}

int softras(int64_t n_verts, int64_t n_faces, int64_t h, int64_t w,
            const float *verts, const int32_t *faces, float *img)
{
    (void)n_verts;
    const int64_t nf = n_faces;
    float *tab = malloc(sizeof(float) * 15 * (size_t)(nf > 0 ? nf : 1));
    if (!tab) return 4;
    float *AX = tab, *AY = tab + nf, *BX = tab + 2 * nf, *BY = tab + 3 * nf,
          *CX = tab + 4 * nf, *CY = tab + 5 * nf,
          *E0X = tab + 6 * nf, *E0Y = tab + 7 * nf, *E1X = tab + 8 * nf, *E1Y = tab + 9 * nf,
          *E2X = tab + 10 * nf, *E2Y = tab + 11 * nf,
          *I0 = tab + 12 * nf, *I1 = tab + 13 * nf, *I2 = tab + 14 * nf;
    for (int64_t f = 0; f < nf; f++) {
        const float *a = verts + 3 * (int64_t)faces[3 * f], *b = verts + 3 * (int64_t)faces[3 * f + 1],
                    *c = verts + 3 * (int64_t)faces[3 * f + 2];
        AX[f] = a[0]; AY[f] = a[1]; BX[f] = b[0]; BY[f] = b[1]; CX[f] = c[0]; CY[f] = c[1];
        E0X[f] = b[0] - a[0]; E0Y[f] = b[1] - a[1];
        E1X[f] = c[0] - b[0]; E1Y[f] = c[1] - b[1];
        E2X[f] = a[0] - c[0]; E2Y[f] = a[1] - c[1];
        I0[f] = 1.f / (E0X[f] * E0X[f] + E0Y[f] * E0Y[f]);
        I1[f] = 1.f / (E1X[f] * E1X[f] + E1Y[f] * E1Y[f]);
        I2[f] = 1.f / (E2X[f] * E2X[f] + E2Y[f] * E2Y[f]);
    }
#pragma omp parallel for schedule(static)
    for (int64_t pix = 0; pix < h * w; pix++) {
        const int64_t i = pix / w, j = pix % w;
        const float px = (float)(2 * j + 1) / (float)w - 1, py = (float)(2 * i + 1) / (float)h - 1;
        float keep = 1;
#pragma omp simd reduction(*:keep)
        for (int64_t f = 0; f < nf; f++) {
            float d2 = seg_d2(px, py, AX[f], AY[f], E0X[f], E0Y[f], I0[f]);
            float d2b = seg_d2(px, py, BX[f], BY[f], E1X[f], E1Y[f], I1[f]);
            float d2c = seg_d2(px, py, CX[f], CY[f], E2X[f], E2Y[f], I2[f]);
            d2 = d2b < d2 ? d2b : d2;
            d2 = d2c < d2 ? d2c : d2;
            float s0 = E0X[f] * (py - AY[f]) - E0Y[f] * (px - AX[f]);
            float s1 = E1X[f] * (py - BY[f]) - E1Y[f] * (px - BX[f]);
            float s2 = E2X[f] * (py - CY[f]) - E2Y[f] * (px - CX[f]);
            int in = (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
            float z = (in ? d2 : -d2) * (1.f / SIGMA);
            /* 1 - sigmoid(z) = 1 / (1 + exp(z)).  Clamped to |z| <= 80 (the
             * factor is then 1 or < 2e-35 anyway): most pixels are far from
             * most faces, and the vector expf takes a slow scalar path on
             * lanes that would underflow or overflow. */
            z = z < -80.f ? -80.f : z;
            z = z > 80.f ? 80.f : z;
            keep *= 1.f / (1.f + expf(z));
        }
        img[pix] = 1 - keep;
    }
    free(tab);
    return 0;
}
