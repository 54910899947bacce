/* test_lexer.c - token streams of the .ft lexer (lang/lexer.re): layout
 * tokens, literals, locations and lexical errors (lang/reference.md, Lexical).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.h"

/* A context whose diagnostics go to a memory buffer. */
typedef struct lexrun {
    ft_ctx *ctx;
    char *diag;
    size_t diag_len;
    char out[8192];     /* the tokens, space-separated */
} lexrun;

/* How a token reads in the expected strings: layout tokens as NL, IN>, <DE;
 * literals with their kind; everything else as spelled. */
static void tok_str(const lx_token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case TK_NEWLINE: snprintf(buf, n, "NL"); break;
    case TK_INDENT: snprintf(buf, n, "IN>"); break;
    case TK_DEDENT: snprintf(buf, n, "<DE"); break;
    case TK_NAME: snprintf(buf, n, "name:%s", t->text); break;
    case TK_INT: snprintf(buf, n, "int:%lld", (long long)t->ival); break;
    case TK_FLOAT: snprintf(buf, n, "float:%g", t->fval); break;
    case TK_STRING: snprintf(buf, n, "str:%s", t->text); break;
    default: snprintf(buf, n, "%s", t->text ? t->text : "?"); break;
    }
}

/* Lex text completely into r->out; locations of token number `want_loc` (or
 * -1) are stored in *loc. */
static void lex(lexrun *r, const char *text, int want_loc, ft_loc *loc)
{
    r->ctx = ft_ctx_new();
    r->diag = NULL;
    r->ctx->diag_out = open_memstream(&r->diag, &r->diag_len);
    ft_source *src = ft_source_from_string(r->ctx, "t.ft", text);
    lx_lexer lx;
    lx_init(&lx, r->ctx, src);
    lx_token t;
    size_t len = 0;
    r->out[0] = 0;
    for (int i = 0; lx_next(&lx, &t) != 0 && i < 10000; i++) {
        char buf[256];
        tok_str(&t, buf, sizeof buf);
        len += (size_t)snprintf(r->out + len, sizeof r->out - len, "%s%s", len ? " " : "", buf);
        if (len >= sizeof r->out)
            len = sizeof r->out - 1;
        if (i == want_loc && loc)
            *loc = t.loc;
    }
    fflush(r->ctx->diag_out);
}

static void lexrun_free(lexrun *r)
{
    fclose(r->ctx->diag_out);
    free(r->diag);
    ft_ctx_free(r->ctx);
}

/* Lex text and compare the stream; no errors allowed. */
static void expect_tokens(const char *text, const char *want)
{
    lexrun r;
    lex(&r, text, -1, NULL);
    ck_assert_msg(r.ctx->nerrors == 0, "unexpected errors for %s:\n%s", text, r.diag);
    ck_assert_str_eq(r.out, want);
    lexrun_free(&r);
}

/* Lex text and expect the diagnostics to contain `want` ("t.ft:L:C: error: ..."). */
static void expect_error(const char *text, const char *want)
{
    lexrun r;
    lex(&r, text, -1, NULL);
    ck_assert_msg(r.ctx->nerrors > 0, "no error for %s", text);
    ck_assert_msg(strstr(r.diag, want) != NULL, "expected '%s' in:\n%s", want, r.diag);
    lexrun_free(&r);
}

START_TEST(test_simple_line)
{
    expect_tokens("x = a + 1\n", "name:x = name:a + int:1 NL");
    expect_tokens("x = a + 1", "name:x = name:a + int:1 NL");   /* NEWLINE owed at EOF */
    expect_tokens("", "");
    expect_tokens("\n\n   \n# only a comment\n", "");
}
END_TEST

START_TEST(test_indent_dedent)
{
    expect_tokens("func f():\n    x = 1\n    if c:\n        y = 2\n    z = 3\n",
                  "func name:f ( ) : NL IN> name:x = int:1 NL if name:c : NL "
                  "IN> name:y = int:2 NL <DE name:z = int:3 NL <DE");
    /* several levels closed at once, and at the end of input */
    expect_tokens("a:\n  b:\n    c\nd\n",
                  "name:a : NL IN> name:b : NL IN> name:c NL <DE <DE name:d NL");
    expect_tokens("a:\n  b:\n    c", "name:a : NL IN> name:b : NL IN> name:c NL <DE <DE");
}
END_TEST

START_TEST(test_blank_and_comment_lines)
{
    /* blank and comment-only lines, at any indentation, give nothing */
    expect_tokens("a:\n\n        # deep comment\n  b  # trailing\n\n  c\n",
                  "name:a : NL IN> name:b NL name:c NL <DE");
}
END_TEST

START_TEST(test_brackets_join_lines)
{
    expect_tokens("f(a,\n      b,\n  c)\n", "name:f ( name:a , name:b , name:c ) NL");
    expect_tokens("x = y[1,\n2]\nz\n", "name:x = name:y [ int:1 , int:2 ] NL name:z NL");
    expect_tokens("x = 1 + \\\n    2\n", "name:x = int:1 + int:2 NL");
}
END_TEST

START_TEST(test_keywords_and_operators)
{
    expect_tokens("export func const var for in if elif else assert return pass "
                  "schedule grad wrt and or not True False",
                  "export func const var for in if elif else assert return pass "
                  "schedule grad wrt and or not True False NL");
    expect_tokens("+ - * / // % ** == != < <= > >= = += -= *= ( ) [ ] , : . @ ->",
                  "+ - * / // % ** == != < <= > >= = += -= *= ( ) [ ] , : . @ -> NL");
    expect_tokens("a**-b//c", "name:a ** - name:b // name:c NL");
    expect_tokens("x: f32 @ gpu/shared", "name:x : name:f32 @ name:gpu / name:shared NL");
    expect_tokens("out inout range tape _x1", "name:out name:inout name:range name:tape name:_x1 NL");
}
END_TEST

START_TEST(test_numbers)
{
    expect_tokens("12 0x1f 0XFF 9223372036854775807",
                  "int:12 int:31 int:255 int:9223372036854775807 NL");
    expect_tokens("1.5 1e-4 .5 3. 2.5E+3 1e3", "float:1.5 float:0.0001 float:0.5 float:3 "
                  "float:2500 float:1000 NL");
    lexrun r;
    lex(&r, "inf", -1, NULL);
    ck_assert_str_eq(r.out, "float:inf NL");
    lexrun_free(&r);
}
END_TEST

START_TEST(test_strings)
{
    expect_tokens("einsum(\"ij,jk->ik\", a, b)",
                  "name:einsum ( str:ij,jk->ik , name:a , name:b ) NL");
    expect_tokens("'a#b' \"x\\\"y\"", "str:a#b str:x\"y NL");
}
END_TEST

START_TEST(test_locations)
{
    ft_loc loc;
    lexrun r;
    /* tokens: func f ( ) : NL IN> return x NL <DE */
    lex(&r, "func f():\n    return x\n", 7, &loc);
    ck_assert_int_eq(loc.line, 2);
    ck_assert_int_eq(loc.col, 5);
    lexrun_free(&r);
    lex(&r, "func f():\n    return x\n", 8, &loc);        /* x */
    ck_assert_int_eq(loc.line, 2);
    ck_assert_int_eq(loc.col, 12);
    lexrun_free(&r);
    lex(&r, "func f():\n    return x\n", 6, &loc);        /* INDENT at the first token */
    ck_assert_int_eq(loc.line, 2);
    ck_assert_int_eq(loc.col, 5);
    lexrun_free(&r);
    lex(&r, "a = (1,\n     22)", 5, &loc);               /* 22 on the second line */
    ck_assert_int_eq(loc.line, 2);
    ck_assert_int_eq(loc.col, 6);
    lexrun_free(&r);
}
END_TEST

START_TEST(test_tab_errors)
{
    expect_error("func f():\n\tx = 1\n", "t.ft:2:1: error: tab in indentation: tabs are not "
                 "allowed, indent with spaces");
    expect_error("x =\t1\n", "t.ft:1:4: error: tab character: tabs are not allowed, use spaces");
    /* a tab in a string or a comment is fine */
    expect_tokens("x = 'a\tb'  # \tc\n", "name:x = str:a\tb NL");
}
END_TEST

START_TEST(test_bad_dedent)
{
    expect_error("if a:\n    b\n  c\n",
                 "t.ft:3:3: error: unindent does not match any outer indentation level");
}
END_TEST

START_TEST(test_bad_numbers)
{
    expect_error("x = 2.f\n", "t.ft:1:5: error: invalid float literal '2.f'");
    expect_error("x = 1e\n", "t.ft:1:5: error: invalid number literal '1e'");
    expect_error("x = 0x\n", "t.ft:1:5: error: invalid number literal '0x'");
    expect_error("x = 9223372036854775808\n", "t.ft:1:5: error: integer literal "
                 "9223372036854775808 is too large");
    expect_error("x = 0x8000000000000000\n", "t.ft:1:5: error: integer literal");
}
END_TEST

START_TEST(test_unclosed_and_unknown)
{
    expect_error("x = f(a,\n  [b\n", "t.ft:2:3: error: '[' was never closed");
    expect_error("y = 1\nx = (1 + 2\n", "t.ft:2:5: error: '(' was never closed");
    expect_error("x = a $ b\n", "t.ft:1:7: error: unexpected character '$'");
    expect_error("x = 'abc\n", "t.ft:1:5: error: unterminated string");
    expect_error("x = \xc3\xa9\n", "t.ft:1:5: error: non-ASCII character");
    /* an unknown character does not stop lexing: two errors */
    lexrun r;
    lex(&r, "a ? b ! c\n", -1, NULL);
    ck_assert_int_eq(r.ctx->nerrors, 2);
    ck_assert_str_eq(r.out, "name:a name:b name:c NL");
    lexrun_free(&r);
}
END_TEST

START_TEST(test_nesting_limits)
{
    char *deep = malloc(10002);
    memset(deep, '(', 10000);
    deep[10000] = '\n';
    deep[10001] = 0;
    expect_error(deep, "error: brackets nested too deeply");
    free(deep);
}
END_TEST

START_TEST(test_random_bytes)
{
    /* arbitrary bytes (NULs included) lex to the end without crashing */
    unsigned seed = 12345;
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + (size_t)(round * 7 % 500);
        char *text = malloc(n + 1);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = (char)(seed >> 16);
        }
        text[n] = 0;
        ft_ctx *ctx = ft_ctx_new();
        ctx->diag_out = fopen("/dev/null", "w");
        ft_source *src = ft_source_from_string(ctx, "r.ft", "");
        src->text = ft_strndup(ctx, text, n);   /* keep the embedded NULs */
        src->len = n;
        lx_lexer lx;
        lx_init(&lx, ctx, src);
        lx_token t;
        int count = 0;
        while (lx_next(&lx, &t) != 0)
            ck_assert_int_lt(++count, 100000);
        fclose(ctx->diag_out);
        ft_ctx_free(ctx);
        free(text);
    }
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, test_simple_line);
    tcase_add_test(tc, test_indent_dedent);
    tcase_add_test(tc, test_blank_and_comment_lines);
    tcase_add_test(tc, test_brackets_join_lines);
    tcase_add_test(tc, test_keywords_and_operators);
    tcase_add_test(tc, test_numbers);
    tcase_add_test(tc, test_strings);
    tcase_add_test(tc, test_locations);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_add_test(te, test_tab_errors);
    tcase_add_test(te, test_bad_dedent);
    tcase_add_test(te, test_bad_numbers);
    tcase_add_test(te, test_unclosed_and_unknown);
    tcase_add_test(te, test_nesting_limits);
    tcase_add_test(te, test_random_bytes);
    suite_add_tcase(s, te);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lexer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
