/* test_stdlib_doc.c - the doc parser of `ftc stdlib` (frontend/stdlib_doc.c):
 * comment blocks, `# like:` lines, signatures over several lines, functions
 * without a doc, in-place forms, line numbers and "did you mean".
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/stdlib_doc.h"

/* A small .ft text exercising every rule of the convention. */
static const char doc_text[] =
    "# file header, not a doc: a blank line follows\n"      /* 1 */
    "\n"
    "# The sum of x.\n"                                     /* 3 */
    "# Second line.\n"
    "# like: torch.sum, np.sum\n"
    "func total(x, axis=None,\n"                            /* 6 */
    "          keepdims=False,   # a comment in the list\n"
    "          sep=\", \",\n"
    "          dims=[0,\n"
    "                1],\n"
    "          ):\n"
    "    return x\n"
    "\n"
    "func total_(x, out: out):\n"                           /* 14 */
    "    pass\n"
    "# helper doc\n"
    "func _helper(a):\n"                                    /* 17 */
    "    pass\n"
    "func bare(a, b):\n"                                    /* 19 */
    "    # indented comment\n"
    "    pass\n"
    "    # indented, not a doc of the next func\n"
    "func  spaced (a):\n"                                   /* 23 */
    "    pass\n"
    "# two like lines\n"
    "# like: torch.a\n"
    "# like:   np.a  \n"
    "func twice_(a, out: out):\n"                           /* 28 */
    "    pass\n";

/* Parse doc_text into *l, failing the test on an allocation error. */
static void parse(fe_doc_list *l)
{
    memset(l, 0, sizeof *l);
    ck_assert_int_eq(fe_doc_parse(l, "t.ft", doc_text), 0);
}

START_TEST(multiline_signature)
{
    fe_doc_list l;
    parse(&l);
    const fe_doc *d = fe_doc_find(&l, "total");
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->sig, "(x, axis=None, keepdims=False, sep=\", \", dims=[0, 1])");
    ck_assert_str_eq(d->doc, "The sum of x.\nSecond line.\n");
    ck_assert_str_eq(d->like, "torch.sum, np.sum");
    ck_assert_str_eq(d->file, "t.ft");
    ck_assert_int_eq(d->line, 6);
    fe_doc_list_free(&l);
}
END_TEST

START_TEST(public_funcs_in_order)
{
    fe_doc_list l;
    parse(&l);
    static const char *const names[] = {"total", "total_", "bare", "spaced", "twice_"};
    static const int lines[] = {6, 14, 19, 23, 28};
    ck_assert_int_eq(l.n, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(l.v[i].name, names[i]);
        ck_assert_int_eq(l.v[i].line, lines[i]);
    }
    ck_assert_ptr_null(fe_doc_find(&l, "_helper"));
    fe_doc_list_free(&l);
}
END_TEST

START_TEST(no_doc)
{
    fe_doc_list l;
    parse(&l);
    const fe_doc *bare = fe_doc_find(&l, "bare"), *sp = fe_doc_find(&l, "spaced");
    ck_assert_str_eq(bare->doc, "");           /* _helper's block is not bare's */
    ck_assert_ptr_null(bare->like);
    ck_assert_str_eq(sp->doc, "");             /* an indented comment is no doc */
    ck_assert_str_eq(sp->sig, "(a)");
    ck_assert_ptr_null(fe_doc_inplace_of(&l, bare));
    fe_doc_list_free(&l);
}
END_TEST

START_TEST(inplace_forms)
{
    fe_doc_list l;
    parse(&l);
    const fe_doc *t = fe_doc_find(&l, "total_"), *tw = fe_doc_find(&l, "twice_");
    ck_assert_ptr_eq(fe_doc_inplace_of(&l, t), fe_doc_find(&l, "total"));
    ck_assert_str_eq(t->sig, "(x, out: out)");
    ck_assert_ptr_null(fe_doc_inplace_of(&l, tw));   /* documented, no `twice` */
    ck_assert_str_eq(tw->like, "torch.a, np.a");
    ck_assert_str_eq(tw->doc, "two like lines\n");
    fe_doc_list_free(&l);
}
END_TEST

START_TEST(closest_name)
{
    fe_doc_list l;
    parse(&l);
    ck_assert_int_eq(fe_doc_add_intrinsics(&l), 0);
    ck_assert_str_eq(fe_doc_closest(&l, "totl")->name, "total");
    ck_assert_str_eq(fe_doc_closest(&l, "einsun")->name, "einsum");
    ck_assert_ptr_null(fe_doc_closest(&l, "q"));
    ck_assert_ptr_null(fe_doc_closest(&l, "completely_different"));
    ck_assert_str_eq(fe_doc_find(&l, "einsum")->kind, "intrinsic");
    ck_assert_ptr_null(fe_doc_find(&l, "einsum")->file);
    fe_doc_list_free(&l);
}
END_TEST

START_TEST(unterminated)
{
    fe_doc_list l = {0};
    ck_assert_int_eq(fe_doc_parse(&l, "u.ft", "# doc\nfunc f(a, [b"), 0);
    ck_assert_int_eq(l.n, 1);
    ck_assert_str_eq(l.v[0].sig, "(a, [b");
    ck_assert_int_eq(fe_doc_parse(&l, "u.ft", "func g\nfunc h(x):\n"), 0);
    ck_assert_int_eq(l.n, 3);
    ck_assert_str_eq(l.v[1].sig, "");
    ck_assert_int_eq(l.v[2].line, 2);
    fe_doc_list_free(&l);
}
END_TEST

/* Run `ftc stdlib NAME` on the embedded stdlib into memory streams. */
static int run_cmd(const char *name, int markdown, char **out, char **err)
{
    size_t no, ne;
    FILE *fo = open_memstream(out, &no), *fe = open_memstream(err, &ne);
    int r = fe_stdlib_cmd(name, markdown, fo, fe);
    fclose(fo);
    fclose(fe);
    return r;
}

START_TEST(embedded_stdlib)
{
    char *out, *err;
    ck_assert_int_eq(run_cmd("sum", 0, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "like: torch.sum, np.sum"));
    ck_assert_ptr_nonnull(strstr(out, "stdlib/reduction.ft:"));
    free(out), free(err);
    ck_assert_int_eq(run_cmd("matmull", 0, &out, &err), 1);
    ck_assert_str_eq(out, "");
    ck_assert_ptr_nonnull(strstr(err, "did you mean 'matmul'"));
    free(out), free(err);
    ck_assert_int_eq(run_cmd(NULL, 1, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "| `matmul` | `(a, b)` |"));
    free(out), free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stdlib_doc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, multiline_signature);
    tcase_add_test(tc, public_funcs_in_order);
    tcase_add_test(tc, no_doc);
    tcase_add_test(tc, inplace_forms);
    tcase_add_test(tc, closest_name);
    tcase_add_test(tc, unterminated);
    tcase_add_test(tc, embedded_stdlib);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
