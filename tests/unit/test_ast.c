/* test_ast.c - the AST, its printer and the lowering, through ft_compile.
 *
 * The printer's contract is a fixed point: print -> parse -> print gives
 * the same text and an equal AST.  Lowering is checked on the properties
 * later passes rely on (unique names, weak literals, reductions).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "driver.h"

/* Compile text; diagnostics are captured into *diag (malloc'd) if given. */
static ast_program *compile(ft_ctx *ctx, const char *text, char **diag)
{
    size_t len;
    FILE *f = open_memstream(diag, &len);
    ctx->diag_out = f;
    ft_source *src = ft_source_from_string(ctx, "t.ft", text);
    ast_program *p = ft_compile(ctx, src, NULL, NULL);
    fclose(f);
    return p;
}

/* The printed form of p (malloc'd). */
static char *print(const ast_program *p)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ast_print_program(f, p);
    fclose(f);
    return buf;
}

/* Compile, print, compile the print, print again: both prints and both
 * ASTs must agree.  Returns the first print (malloc'd). */
static char *round_trip(const char *text)
{
    ft_ctx *c1 = ft_ctx_new(), *c2 = ft_ctx_new();
    char *d1 = NULL, *d2 = NULL;
    ast_program *p1 = compile(c1, text, &d1);
    ck_assert_msg(p1, "first compile failed:\n%s", d1);
    char *t1 = print(p1);
    ast_program *p2 = compile(c2, t1, &d2);
    ck_assert_msg(p2, "printed program does not compile:\n%s\n%s", t1, d2);
    char *t2 = print(p2);
    ck_assert_str_eq(t1, t2);
    ck_assert_int_eq(p1->nfuncs, p2->nfuncs);
    for (int i = 0; i < p1->nfuncs; i++)
        ck_assert(ast_stmt_equal(p1->funcs[i]->body, p2->funcs[i]->body));
    free(t2);
    free(d1);
    free(d2);
    ft_ctx_free(c1);
    ft_ctx_free(c2);
    return t1;
}

START_TEST(fixed_point_element_program)
{
    char *t = round_trip(
        "const W = 2\n"
        "export func f(n: size, m: size, a: f32[n, m + W] in, idx: i32[n] in,\n"
        "              y: f32[n] out, s: f64 out):\n"
        "    s = 0\n"
        "    Li: for i in range(n):\n"
        "        var acc: f32 = 0\n"
        "        for j in range(1, m + W, 2):\n"
        "            if a[i, j] > 0.5 and not (j % 3 == 1):\n"
        "                acc += -a[i, j] ** 2\n"
        "            elif j // 2 < 3:\n"
        "                acc = max(acc, abs(a[idx[i], j]))\n"
        "            else:\n"
        "                acc *= 1.5 if j < 4 else sigmoid(a[i, j] - 1)\n"
        "        y[i] = acc\n"
        "        s += f64(acc) * 0.1\n"
        "        assert y[i] >= -inf\n"
        "    for k in range(n - 1, -1, -1):\n"
        "        y[k] = min(y[k], (y[k] + 1) * 2)\n");
    /* constants folded, range forms kept, reductions recognised */
    ck_assert_ptr_nonnull(strstr(t, "a: f32[n, m + 2] in"));
    ck_assert_ptr_nonnull(strstr(t, "for j in range(1, m + 2, 2):"));
    ck_assert_ptr_nonnull(strstr(t, "acc = max(acc, abs(a[idx[i], j]))"));
    ck_assert_ptr_nonnull(strstr(t, "y[k] = min(y[k], (y[k] + 1.0) * 2.0)"));
    ck_assert_ptr_nonnull(strstr(t, "for k in range(n - 1, -1, -1):"));
    ck_assert_ptr_nonnull(strstr(t, "Li: for i in range(n):"));
    free(t);
}
END_TEST

START_TEST(fixed_point_parallel_schedule)
{
    char *t = round_trip(
        "export func g(n: size, x: f32[n] in, y: f32[n] out, s: f32[1] inout):\n"
        "    Li: for i in range(n):\n"
        "        y[i] = x[i] * 2\n"
        "        s[0] += x[i]\n"
        "schedule g:\n"
        "    parallelize(Li, openmp)\n");
    ck_assert_ptr_nonnull(strstr(t, "schedule g:\n    parallelize(Li, openmp)\n"));
    free(t);
}
END_TEST

/* Find the first statement of kind k under s (pre-order). */
static ast_stmt *find_kind(ast_stmt *s, ast_stmt_kind k)
{
    if (!s)
        return NULL;
    if (s->kind == k)
        return s;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++) {
            ast_stmt *r = find_kind(s->u.seq.stmts[i], k);
            if (r)
                return r;
        }
        return NULL;
    case AST_VARDEF: return find_kind(s->u.def.body, k);
    case AST_FOR: return find_kind(s->u.loop.body, k);
    case AST_IF: {
        ast_stmt *r = find_kind(s->u.branch.then, k);
        return r ? r : find_kind(s->u.branch.other, k);
    }
    default: return NULL;
    }
}

/* The program as dumped after lowering (malloc'd). */
static char *dump_lowered(const char *text)
{
    ft_ctx *ctx = ft_ctx_new();
    char *d = NULL, *out = NULL;
    size_t dlen, olen;
    FILE *df = open_memstream(&d, &dlen), *of = open_memstream(&out, &olen);
    ctx->diag_out = df;
    ast_program *p = ft_compile(ctx, ft_source_from_string(ctx, "t.ft", text), "lower", of);
    fclose(df);
    fclose(of);
    ck_assert_msg(p, "%s", d);
    free(d);
    ft_ctx_free(ctx);
    return out;
}

START_TEST(shadowed_names_are_renamed)
{
    char *text = dump_lowered(
        "export func f(n: size, y: f32[n] out):\n"
        "    var t: f32 = 1\n"
        "    for i in range(n):\n"
        "        var t: f32 = 2\n"
        "        y[i] = t\n");
    ck_assert_ptr_nonnull(strstr(text, "var t_1: f32"));
    ck_assert_ptr_nonnull(strstr(text, "y[i] = t_1"));
    free(text);
}
END_TEST

START_TEST(literals_take_tensor_dtype)
{
    ft_ctx *ctx = ft_ctx_new();
    char *d = NULL;
    ast_program *p = compile(ctx,
        "export func f(n: size, x: f64[n] inout, k: i32[n] inout):\n"
        "    for i in range(n):\n"
        "        x[i] = x[i] * 0.1\n"
        "        k[i] = k[i] + 1\n", &d);
    ck_assert_msg(p, "%s", d);
    ast_stmt *st = find_kind(p->funcs[0]->body, AST_STORE);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(st->u.store.value->dtype, FT_F64);
    ck_assert_int_eq(st->u.store.value->u.bin.b->dtype, FT_F64);
    free(d);
    ft_ctx_free(ctx);
}
END_TEST

START_TEST(zero_literals_of_both_signs_differ)
{
    ft_ctx *ctx = ft_ctx_new();
    ft_loc l = {0};
    ast_expr *pz = ast_float(ctx, l, 0.0, FT_F32), *nz = ast_float(ctx, l, -0.0, FT_F32);
    ck_assert(ast_expr_equal(pz, ast_float(ctx, l, 0.0, FT_F32)));
    ck_assert(!ast_expr_equal(pz, nz));     /* x + 0.0 is not x + -0.0 */
    ck_assert(ast_expr_equal(ast_float(ctx, l, NAN, FT_F32), ast_float(ctx, l, NAN, FT_F32)));
    ft_ctx_free(ctx);
}
END_TEST

START_TEST(reductions_recognised)
{
    ft_ctx *ctx = ft_ctx_new();
    char *d = NULL;
    ast_program *p = compile(ctx,
        "export func f(n: size, x: f32[n] in, m: f32 out):\n"
        "    m = -inf\n"
        "    for i in range(n):\n"
        "        m = max(x[i], m)\n", &d);
    ck_assert_msg(p, "%s", d);
    ast_stmt *r = find_kind(p->funcs[0]->body, AST_REDUCE);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->u.red.op, AST_RED_MAX);
    ck_assert_int_eq(r->u.red.value->kind, AST_LOAD);
    free(d);
    ft_ctx_free(ctx);
}
END_TEST

/* Compile text expecting failure; returns the diagnostics (malloc'd). */
static char *expect_error(const char *text)
{
    ft_ctx *ctx = ft_ctx_new();
    char *d = NULL;
    ast_program *p = compile(ctx, text, &d);
    ck_assert_ptr_null(p);
    ck_assert_int_gt(ctx->nerrors, 0);
    ft_ctx_free(ctx);
    return d;
}

START_TEST(parallelize_refuses_races)
{
    char *d = expect_error(
        "export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
        "    var t: f32[n]\n"
        "    Li: for i in range(n):\n"
        "        t[0] = x[i]\n"
        "        y[i] = t[0]\n"
        "schedule f:\n"
        "    parallelize(Li, openmp)\n");
    ck_assert_ptr_nonnull(strstr(d, "t.ft:7:5: error: cannot parallelize Li: read-after-write dependence on 't'"));
    free(d);
}
END_TEST

START_TEST(parallelize_marks_atomics_only_where_needed)
{
    ft_ctx *ctx = ft_ctx_new();
    char *d = NULL;
    ast_program *p = compile(ctx,
        "export func f(n: size, x: f32[n] in, y: f32[n] out, s: f32 out):\n"
        "    s = 0\n"
        "    L: for i in range(n):\n"
        "        y[i] = 0\n"
        "        y[i] += x[i]\n"
        "        s += x[i]\n"
        "schedule f:\n"
        "    parallelize(L, openmp)\n", &d);
    ck_assert_msg(p, "%s", d);
    ast_stmt *loop = find_kind(p->funcs[0]->body, AST_FOR);
    ck_assert_int_eq(loop->u.loop.par, AST_OPENMP);
    ast_stmt *seq = loop->u.loop.body;
    ck_assert_int_eq(seq->u.seq.stmts[1]->u.red.atomic, 0);
    ck_assert_int_eq(seq->u.seq.stmts[2]->u.red.atomic, 1);
    free(d);
    ft_ctx_free(ctx);
}
END_TEST

START_TEST(several_errors_reported)
{
    char *d = expect_error(
        "export func f(n: size, x: f32[n] in):\n"
        "    x[0] = 1\n"
        "    q[0] = 2\n"
        "    for i in range(n):\n"
        "        n[i] = 3\n");
    ck_assert_ptr_nonnull(strstr(d, "t.ft:2:5: error: cannot write to 'x'"));
    ck_assert_ptr_nonnull(strstr(d, "t.ft:3:5: error: unknown variable 'q'"));
    ck_assert_ptr_nonnull(strstr(d, "t.ft:5:9: error: cannot assign to 'n'"));
    free(d);
}
END_TEST

/* ast_floordiv and ast_mod against the definition: a == q * c + r with r
 * 0 or of c's sign and |r| < |c| (checked in __int128), and Python's
 * values at the extremes. */
START_TEST(floordiv_mod_are_pythons)
{
    for (int64_t a = -9; a <= 9; a++)
        for (int64_t c = -4; c <= 4; c++) {
            if (c == 0)
                continue;
            int64_t q = ast_floordiv(a, c), r = ast_mod(a, c);
            ck_assert_int_eq((__int128)q * c + r, a);
            ck_assert(r == 0 || (r < 0) == (c < 0));
            ck_assert(r < 0 ? -r < (c < 0 ? -c : c) : r < (c < 0 ? -c : c));
        }
    /* Python: -2**63 // 3 == -3074457345618258603, -2**63 % 3 == 1,
     * (2**63 - 1) % -2 == -1, (2**63 - 1) // -2 == -4611686018427387904 */
    ck_assert_int_eq(ast_floordiv(INT64_MIN, 3), INT64_C(-3074457345618258603));
    ck_assert_int_eq(ast_mod(INT64_MIN, 3), 1);
    ck_assert_int_eq(ast_mod(INT64_MAX, -2), -1);
    ck_assert_int_eq(ast_floordiv(INT64_MAX, -2), INT64_C(-4611686018427387904));
}
END_TEST

static Suite *ast_suite(void)
{
    Suite *s = suite_create("ast");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fixed_point_element_program);
    tcase_add_test(tc, fixed_point_parallel_schedule);
    tcase_add_test(tc, shadowed_names_are_renamed);
    tcase_add_test(tc, literals_take_tensor_dtype);
    tcase_add_test(tc, zero_literals_of_both_signs_differ);
    tcase_add_test(tc, reductions_recognised);
    tcase_add_test(tc, parallelize_refuses_races);
    tcase_add_test(tc, parallelize_marks_atomics_only_where_needed);
    tcase_add_test(tc, several_errors_reported);
    tcase_add_test(tc, floordiv_mod_are_pythons);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ast_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
