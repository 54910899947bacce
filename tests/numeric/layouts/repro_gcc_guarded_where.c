/* GCC 12.2 (Debian 12.2.0-14) miscompiles copy() at -O3 with -mavx2 or
 * -march=native: some elements of t are never stored ("12 wrong"); -O2,
 * -O3 without -mavx2, -fno-tree-loop-vectorize and clang 14 give "0 wrong",
 * and -O0 -fsanitize=address,undefined finds nothing.  The loops are the C
 * that ftc emits for repro_gcc_guarded_where.ft (n = 2): W = 5 stored as 2
 * blocks of 3, the pad lane skipped by the guard.
 *     gcc -O3 -mavx2 repro_gcc_guarded_where.c && ./a.out */
#include <stdio.h>
#include <stdint.h>
#include <math.h>

__attribute__((noinline))
void copy(const float *x0, const float *x1, float *t)
{
    for (int64_t i_1 = 0; i_1 < 2; i_1++)
        for (int64_t i_2 = 0; i_2 < 7; i_2++)
            for (int64_t i_3o = 0; i_3o < 2; i_3o++)
                for (int64_t i_3i = 0; i_3i < 3; i_3i++)
                    if (3 * i_3o + i_3i < 5)
                        t[(i_1 * 7 + i_2) * 5 + (3 * i_3o + i_3i)] =
                            x1[((i_1 * 7 + i_2) * 2 + i_3o) * 3 + i_3i] > 0.0f
                                ? x1[((i_1 * 7 + i_2) * 2 + i_3o) * 3 + i_3i]
                                : x0[(i_1 * 7 + i_2) * 5 + (3 * i_3o + i_3i)];
}

int main(void)
{
    float x0[70], x1[84], t[70];
    for (int k = 0; k < 70; k++) x0[k] = 1000 + k;
    for (int k = 0; k < 84; k++) x1[k] = (k % 2) ? k : -k;     /* odd: x1, even: x0 */
    copy(x0, x1, t);
    int bad = 0;
    for (int r = 0; r < 14; r++)
        for (int w = 0; w < 5; w++) {
            float a = x1[(r * 2 + w / 3) * 3 + w % 3];
            float want = a > 0 ? a : x0[r * 5 + w];
            if (t[r * 5 + w] != want) {
                if (bad++ < 5) printf("t[%d][%d] = %g, want %g\n", r, w, t[r * 5 + w], want);
            }
        }
    printf("%d wrong\n", bad);
    return bad != 0;
}
