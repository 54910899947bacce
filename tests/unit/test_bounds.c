/* test_bounds.c - bounds analysis (analysis/bounds.c) and the simplifier
 * (transforms/simplify.c).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "deps.h"
#include "driver.h"
#include "simplify.h"

static const ft_loc noloc = {0};

/* A function with sizes n and m and no tensors. */
static ast_func *sizes_func(ft_ctx *ctx)
{
    ast_func *f = ft_alloc(ctx, sizeof *f);
    f->name = "f";
    f->nparams = 2;
    f->params = ft_alloc(ctx, sizeof(ast_param) * 2);
    f->params[0] = (ast_param){.name = "n", .is_size = 1, .dtype = FT_I64};
    f->params[1] = (ast_param){.name = "m", .is_size = 1, .dtype = FT_I64};
    return f;
}

static ast_expr *V(ft_ctx *ctx, const char *n) { return ast_var(ctx, noloc, n); }
static ast_expr *I(ft_ctx *ctx, int64_t v) { return ast_int(ctx, noloc, v); }
static ast_expr *B(ft_ctx *ctx, ast_binop op, ast_expr *a, ast_expr *b)
{
    return ast_binary(ctx, noloc, op, a, b);
}

/* for <it> in range(b, e) with an empty body. */
static ast_stmt *loop(ft_ctx *ctx, const char *it, ast_expr *b, ast_expr *e)
{
    return ast_for(ctx, noloc, it, b, e, I(ctx, 1), ast_seq(ctx, noloc, 0, NULL));
}

/* Inside for i in range(n): for j in range(i, 10): the candidates are all
 * kept and the tightest constant one is picked. */
START_TEST(candidate_bounds)
{
    ft_ctx *ctx = ft_ctx_new();
    an_bounds *b = an_bounds_new(ctx, sizes_func(ctx));
    int mark = an_bounds_mark(b);
    an_bounds_push_loop(b, loop(ctx, "i", I(ctx, 0), V(ctx, "n")));
    an_bounds_push_loop(b, loop(ctx, "j", V(ctx, "i"), I(ctx, 10)));
    an_range r = an_range_of(b, V(ctx, "j"));
    ck_assert(r.has_lo && r.has_hi && r.lo == 0 && r.hi == 9);
    r = an_range_of(b, B(ctx, AST_SUB, V(ctx, "j"), V(ctx, "i")));
    ck_assert(r.has_lo && r.lo == 0 && r.has_hi && r.hi == 9);
    r = an_range_of(b, B(ctx, AST_MOD, V(ctx, "j"), I(ctx, 4)));
    ck_assert(r.has_lo && r.lo == 0 && r.has_hi && r.hi == 3);
    r = an_range_of(b, B(ctx, AST_FLOORDIV, V(ctx, "j"), I(ctx, 4)));
    ck_assert(r.has_lo && r.lo == 0 && r.has_hi && r.hi == 2);
    /* in the scope of n, m and i, j >= i and j <= 9 */
    an_lin *lo, *hi;
    int nlo = an_lower_bounds(b, V(ctx, "j"), 3, &lo);
    int nhi = an_upper_bounds(b, V(ctx, "j"), 3, &hi);
    ck_assert_int_eq(nlo, 1);
    ck_assert(lo[0].n == 1 && lo[0].c == 0 && strcmp(lo[0].atom[0]->u.name, "i") == 0);
    ck_assert_int_eq(nhi, 1);
    ck_assert(hi[0].n == 0 && hi[0].c == 9);
    /* in the scope of the sizes, i's one upper bound is n - 1 */
    nhi = an_upper_bounds(b, V(ctx, "i"), 2, &hi);
    ck_assert_int_eq(nhi, 1);
    ck_assert(hi[0].n == 1 && hi[0].c == -1 && strcmp(hi[0].atom[0]->u.name, "n") == 0);
    an_bounds_pop(b, mark);
    ck_assert_int_eq(an_bounds_depth(b), 2);
    ft_ctx_free(ctx);
}
END_TEST

/* Guards proven true by the fast path and by isl. */
START_TEST(proofs)
{
    ft_ctx *ctx = ft_ctx_new();
    an_bounds *b = an_bounds_new(ctx, sizes_func(ctx));
    an_bounds_push_loop(b, loop(ctx, "i", I(ctx, 0), V(ctx, "n")));
    ast_expr *i = V(ctx, "i"), *n = V(ctx, "n");
    ck_assert(an_bounds_prove(b, B(ctx, AST_LT, i, n)));
    ck_assert(an_bounds_prove(b, B(ctx, AST_LE, B(ctx, AST_ADD, i, I(ctx, 1)), n)));
    ck_assert(an_bounds_prove(b, B(ctx, AST_LT, B(ctx, AST_MUL, I(ctx, 2), i),
                                   B(ctx, AST_MUL, I(ctx, 2), n))));
    ck_assert(an_bounds_prove(b, B(ctx, AST_GE, n, I(ctx, 1))));        /* a loop runs */
    ck_assert(an_bounds_prove(b, B(ctx, AST_LT, B(ctx, AST_FLOORDIV, i, I(ctx, 2)), n)));
    ck_assert(!an_bounds_prove(b, B(ctx, AST_LT, i, B(ctx, AST_SUB, n, I(ctx, 1)))));
    ck_assert(!an_bounds_prove(b, B(ctx, AST_LT, i, V(ctx, "m"))));
    an_bounds_push_cond(b, B(ctx, AST_LT, n, V(ctx, "m")), 1);
    ck_assert(an_bounds_prove(b, B(ctx, AST_LT, i, V(ctx, "m"))));
    ft_ctx_free(ctx);
}
END_TEST

/* With the dependence cache open, isl's answers are remembered (memo.h)
 * keyed by the scope and the facts: asked again, under other facts or in
 * another scope, each answer is still the one a fresh proof gives. */
START_TEST(proofs_memo)
{
    ft_ctx *ctx = ft_ctx_new();
    an_deps_cache_begin(ctx);
    ast_expr *i = V(ctx, "i"), *n = V(ctx, "n"), *m = V(ctx, "m");
    ast_expr *i_lt_m = B(ctx, AST_LT, i, m), *half = B(ctx, AST_LT, B(ctx, AST_FLOORDIV, i,
                                                                          I(ctx, 2)), n);
    for (int again = 0; again < 2; again++) {
        an_bounds *b = an_bounds_new(ctx, sizes_func(ctx));
        an_bounds_push_loop(b, loop(ctx, "i", I(ctx, 0), n));
        ck_assert(an_bounds_prove(b, half));
        ck_assert(!an_bounds_prove(b, i_lt_m));
        int mark = an_bounds_mark(b);
        an_bounds_push_cond(b, B(ctx, AST_LT, n, m), 1);
        ck_assert(an_bounds_prove(b, i_lt_m));
        an_bounds_pop(b, mark);
        ck_assert(!an_bounds_prove(b, i_lt_m));
        /* i in range(2n + 2): i // 2 < n fails at i = 2n */
        an_bounds *wide = an_bounds_new(ctx, sizes_func(ctx));
        an_bounds_push_loop(wide, loop(ctx, "i", I(ctx, 0),
                                       B(ctx, AST_ADD, B(ctx, AST_MUL, I(ctx, 2), n),
                                         I(ctx, 2))));
        ck_assert(!an_bounds_prove(wide, half));
    }
    an_deps_cache_end(ctx);
    ft_ctx_free(ctx);
}
END_TEST

/* The dump after the simplify pass (malloc'd). */
static char *simplified(const char *text)
{
    ft_ctx *ctx = ft_ctx_new();
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    ft_source *src = ft_source_from_string(ctx, "t.ft", text);
    ast_program *p = ft_compile(ctx, src, "simplify", f);
    fclose(f);
    ck_assert_msg(p, "does not compile");
    ft_ctx_free(ctx);
    return out;
}

START_TEST(simplifier)
{
    char *s = simplified(
        "export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
        "    for i in range(n):\n"
        "        if i < n and n >= 0:\n"
        "            y[i] = x[(i + 1) - 1]\n"
        "        else:\n"
        "            y[i] = 0\n"
        "    for k in range(4):\n"
        "        if k >= 4:\n"
        "            y[k] = 1\n"
        "        y[k // 4 + k % 4] = x[min(k, 7)] + x[max(3, k)]\n"
        "        assert k < 5\n"
        "    for j in range(n):\n"
        "        L: if j < n:\n"
        "            y[j] = x[j % n]\n");
    ck_assert_str_eq(s,
        "export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
        "    for i in range(n):\n"
        "        y[i] = x[i]\n"
        "    for k in range(4):\n"
        "        y[k] = x[k] + x[3]\n"
        "    for j in range(n):\n"
        "        L: if True:\n"
        "            y[j] = x[j % n]\n");
    free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bounds");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, candidate_bounds);
    tcase_add_test(tc, proofs);
    tcase_add_test(tc, proofs_memo);
    tcase_add_test(tc, simplifier);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
