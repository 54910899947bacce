/* test_gradcheck.c - the verdict of `ftc gradcheck` on one element
 * (rt_gc_verdict, runtime/gradcheck.c).
 *
 * An element whose central difference disagrees with the analytic
 * derivative is a warning only when the finite differences show a
 * non-differentiable point (they change with the step, or forward and
 * backward disagree) and the analytic value agrees with a one-sided
 * difference; a wrong gradient at a smooth point, or at a kink where it
 * matches neither side, must stay a failure.  The numbers are what the
 * differences of max(x, 0), |x| and a step function give near their kinks
 * (worked out by hand), and of smooth functions with rounding noise.
 */
#include <check.h>
#include <math.h>

#include "rt.h"

#define TOL 1e-6
#define FLOOR 1e-12

/* The verdict with three steps. */
static rt_gc_verdict_kind verdict(double g, double fd, const double c[3], const double f[3],
                                  const double b[3])
{
    return rt_gc_verdict(g, fd, 3, c, f, b, FLOOR, TOL);
}

/* Agreement within the tolerance: OK, whatever the rest says. */
START_TEST(test_ok)
{
    double c[3] = {5, 5, 5}, f[3] = {9, 9, 9}, b[3] = {0, 0, 0};
    ck_assert_int_eq(verdict(1.0, 1.0 + 1e-9, c, f, b), RT_GC_OK);
    /* below the floor (the tensor's scale) */
    ck_assert_int_eq(rt_gc_verdict(0.0, 1e-13, 3, c, f, b, 1e-3, TOL), RT_GC_OK);
    double z[3] = {1e-13, 1e-13, 1e-13};
    ck_assert_int_eq(rt_gc_verdict(0.0, 1e-13, 3, z, z, z, 1e-12, TOL), RT_GC_FAIL);
}
END_TEST

/* relu at exactly 0 (max(x, 0), ties to x: analytic 1): the central
 * difference is 1/2 at every step, forward 1, backward 0. */
START_TEST(test_kink_at_point)
{
    double c[3] = {0.5, 0.5, 0.5}, f[3] = {1, 1, 1}, b[3] = {0, 0, 0};
    ck_assert_int_eq(verdict(1.0, 0.5, c, f, b), RT_GC_KINK);
    ck_assert_int_eq(verdict(0.0, 0.5, c, f, b), RT_GC_KINK);   /* the other convention */
}
END_TEST

/* relu just left of its kink (x = -3e-6, h = 1e-5): the central and the
 * forward differences at h mix both slopes, at h / 10 and h / 100 they
 * are exact; analytic 0. */
START_TEST(test_kink_near_point)
{
    double c[3] = {0.35, 0.0, 0.0}, f[3] = {0.7, 0.0, 0.0}, b[3] = {0, 0, 0};
    ck_assert_int_eq(verdict(0.0, 0.35, c, f, b), RT_GC_KINK);
}
END_TEST

/* A jump (a comparison: x > 0.3 selects 1 else 2, times x) at x = 0.3:
 * the central difference grows like 1 / h, the backward slope is 2. */
START_TEST(test_jump)
{
    double c[3] = {3e4, 3e5, 3e6}, f[3] = {6e4, 6e5, 6e6}, b[3] = {2, 2, 2};
    ck_assert_int_eq(verdict(2.0, 3e4, c, f, b), RT_GC_KINK);
}
END_TEST

/* A wrong gradient at a smooth point: every difference agrees (up to
 * rounding) on 1, the analytic value is 2 (or 1.01, or -1). */
START_TEST(test_wrong_smooth)
{
    double c[3] = {1 + 1e-11, 1 - 2e-10, 1 + 3e-9}, f[3] = {1, 1 + 1e-9, 1 - 4e-9},
           b[3] = {1 - 1e-10, 1, 1 + 2e-9};
    ck_assert_int_eq(verdict(2.0, 1.0, c, f, b), RT_GC_FAIL);
    ck_assert_int_eq(verdict(1.01, 1.0, c, f, b), RT_GC_FAIL);
    ck_assert_int_eq(verdict(-1.0, 1.0, c, f, b), RT_GC_FAIL);
}
END_TEST

/* A wrong gradient at a kink: the differences change with the step, but
 * the analytic value is neither one-sided slope. */
START_TEST(test_wrong_at_kink)
{
    double c[3] = {0.5, 0.5, 0.5}, f[3] = {1, 1, 1}, b[3] = {0, 0, 0};
    ck_assert_int_eq(verdict(0.5, 0.7, c, f, b), RT_GC_FAIL);
    ck_assert_int_eq(verdict(2.0, 0.5, c, f, b), RT_GC_FAIL);
    ck_assert_int_eq(verdict(-1.0, 0.5, c, f, b), RT_GC_FAIL);
}
END_TEST

/* An analytic value equal to a one-sided difference is not enough when
 * nothing shows a kink: the re-evaluation's differences stable and equal
 * (the first estimate fd off, as a nondeterministic function gives). */
START_TEST(test_agree_without_kink)
{
    double c[3] = {1, 1, 1}, f[3] = {1, 1, 1}, b[3] = {1, 1, 1};
    ck_assert_int_eq(verdict(1.0, 1.5, c, f, b), RT_GC_FAIL);
}
END_TEST

/* NaN never agrees: a NaN analytic value fails; NaN differences are not
 * one-sided slopes. */
START_TEST(test_nan)
{
    double c[3] = {0.5, 0.5, 0.5}, f[3] = {NAN, NAN, NAN}, b[3] = {NAN, NAN, NAN};
    double f1[3] = {1, 1, 1}, b1[3] = {0, 0, 0};
    ck_assert_int_eq(verdict(NAN, 0.5, c, f1, b1), RT_GC_FAIL);
    ck_assert_int_eq(verdict(1.0, 0.5, c, f, b), RT_GC_FAIL);
    ck_assert_int_eq(verdict(1.0, NAN, c, f, b), RT_GC_FAIL);
}
END_TEST

/* The tolerance is the caller's: a looser one accepts what 1e-6 did not,
 * also when deciding whether a one-sided difference agrees. */
START_TEST(test_tolerance)
{
    double c[3] = {0.5, 0.5, 0.5}, f[3] = {1.001, 1.001, 1.001}, b[3] = {0, 0, 0};
    ck_assert_int_eq(rt_gc_verdict(1.0, 0.5, 3, c, f, b, FLOOR, 1e-6), RT_GC_FAIL);
    ck_assert_int_eq(rt_gc_verdict(1.0, 0.5, 3, c, f, b, FLOOR, 1e-2), RT_GC_KINK);
    ck_assert_int_eq(rt_gc_verdict(1.0, 0.9995, 3, c, f, b, FLOOR, 1e-3), RT_GC_OK);
}
END_TEST

static Suite *gradcheck_suite(void)
{
    Suite *s = suite_create("gradcheck");
    TCase *tc = tcase_create("verdict");
    tcase_add_test(tc, test_ok);
    tcase_add_test(tc, test_kink_at_point);
    tcase_add_test(tc, test_kink_near_point);
    tcase_add_test(tc, test_jump);
    tcase_add_test(tc, test_wrong_smooth);
    tcase_add_test(tc, test_wrong_at_kink);
    tcase_add_test(tc, test_agree_without_kink);
    tcase_add_test(tc, test_nan);
    tcase_add_test(tc, test_tolerance);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gradcheck_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
