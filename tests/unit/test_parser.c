/* test_parser.c - the parse trees ft_parse builds (lang/parser.y) for every
 * construct of the language, and its syntax errors and recovery
 * (lang/reference.md: Declarations, Statements, Expressions, Schedules,
 * Gradients).  Trees are compared as s-expressions (pt_sexp below).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pt.h"

/* ---------------------------------------------------------------- dumper */

static const char *op_str(int op)
{
    static const char *const s[] = {
        [PT_OP_NONE] = "?", [PT_OP_ASSIGN] = "=", [PT_OP_ADD] = "+", [PT_OP_SUB] = "-",
        [PT_OP_MUL] = "*", [PT_OP_DIV] = "/", [PT_OP_FLOORDIV] = "//", [PT_OP_MOD] = "%",
        [PT_OP_MATMUL] = "@",
        [PT_OP_POW] = "**", [PT_OP_LT] = "<", [PT_OP_LE] = "<=", [PT_OP_GT] = ">",
        [PT_OP_GE] = ">=", [PT_OP_EQ] = "==", [PT_OP_NE] = "!=", [PT_OP_AND] = "and",
        [PT_OP_OR] = "or", [PT_OP_NEG] = "neg", [PT_OP_POS] = "pos", [PT_OP_NOT] = "not",
    };
    return op >= 0 && op <= PT_OP_NOT ? s[op] : "?";
}

static const char *const acc_str[] = { "", "in", "out", "inout" };

typedef struct sbuf {
    char *p;
    size_t len;
    FILE *f;
} sbuf;

/* Write n as an s-expression: names and numbers bare, everything else
 * (KIND [name] [detail] kids...), a NULL child as _. */
static void sexp(FILE *f, const pt_node *n)
{
    if (!n) {
        fputs("_", f);
        return;
    }
    switch (n->kind) {
    case PT_NAME: fputs(n->name, f); return;
    case PT_INT: fprintf(f, "%lld", (long long)n->ival); return;
    case PT_FLOAT: fprintf(f, "%g", n->fval); return;
    case PT_BOOL: fputs(n->ival ? "True" : "False", f); return;
    case PT_STRING: fprintf(f, "\"%s\"", n->str); return;
    default: break;
    }
    fprintf(f, "(%s", pt_kind_name(n->kind));
    if (n->kind == PT_FUNC && n->ival)
        fputs(" export", f);
    if (n->name)
        fprintf(f, " %s", n->name);
    if (n->kind == PT_BINARY || n->kind == PT_UNARY || n->kind == PT_ASSIGN)
        fprintf(f, " %s", op_str(n->op));
    if (n->kind == PT_PARAM && n->op)
        fprintf(f, " %s", acc_str[n->op]);
    if (n->kind == PT_GRAD)
        fprintf(f, " tape=%s", n->str);
    for (int i = 0; i < n->nkids; i++) {
        fputc(' ', f);
        sexp(f, n->kids[i]);
    }
    fputc(')', f);
}

/* ---------------------------------------------------------------- harness */

typedef struct prun {
    ft_ctx *ctx;
    pt_node *file;
    char *diag;
    size_t diag_len;
    char *tree;         /* s-expression of the file's declarations (malloc) */
} prun;

static void parse(prun *r, const char *text)
{
    r->ctx = ft_ctx_new();
    r->diag = NULL;
    r->ctx->diag_out = open_memstream(&r->diag, &r->diag_len);
    ft_source *src = ft_source_from_string(r->ctx, "t.ft", text);
    r->file = ft_parse(r->ctx, src);
    fflush(r->ctx->diag_out);
    sbuf b = { 0 };
    b.f = open_memstream(&b.p, &b.len);
    for (int i = 0; r->file && i < r->file->nkids; i++) {
        if (i)
            fputc(' ', b.f);
        sexp(b.f, r->file->kids[i]);
    }
    fclose(b.f);
    r->tree = b.p;
}

static void prun_free(prun *r)
{
    fclose(r->ctx->diag_out);
    free(r->diag);
    free(r->tree);
    ft_ctx_free(r->ctx);
}

/* text parses without errors into the declarations `want`. */
static void expect_tree(const char *text, const char *want)
{
    prun r;
    parse(&r, text);
    ck_assert_msg(r.file != NULL && r.ctx->nerrors == 0, "errors for:\n%s\n%s", text, r.diag);
    ck_assert_str_eq(r.tree, want);
    prun_free(&r);
}

/* The body of `func f(): <stmt lines>` parses into the block `want`. */
static void expect_body(const char *body, const char *want)
{
    char text[4096], full[4096];
    snprintf(text, sizeof text, "func f():\n%s\n", body);
    snprintf(full, sizeof full, "(FUNC f (PARAMS) %s)", want);
    expect_tree(text, full);
}

/* The expression e (in `x = e`) parses into `want`. */
static void expect_expr(const char *e, const char *want)
{
    char text[4096], full[4096];
    snprintf(text, sizeof text, "const x = %s\n", e);
    snprintf(full, sizeof full, "(CONST x %s)", want);
    expect_tree(text, full);
}

/* text fails to parse (NULL), with `want` somewhere in the diagnostics. */
static void expect_error(const char *text, const char *want)
{
    prun r;
    parse(&r, text);
    ck_assert_msg(r.file == NULL, "no error for:\n%s", text);
    ck_assert_msg(r.ctx->nerrors > 0, "NULL without an error for:\n%s", text);
    ck_assert_msg(strstr(r.diag, want) != NULL, "expected '%s' in:\n%s", want, r.diag);
    prun_free(&r);
}

/* Count "error:" lines in the diagnostics of text. */
static int count_errors(const char *text)
{
    prun r;
    parse(&r, text);
    ck_assert_ptr_null(r.file);
    int n = r.ctx->nerrors;
    prun_free(&r);
    return n;
}

/* ---------------------------------------------------------------- declarations */

START_TEST(test_const)
{
    expect_tree("const W = 32  # comment\n", "(CONST W 32)");
    expect_tree("const A = 2 * W + 1\nconst B = 1.5\n",
                "(CONST A (BINARY + (BINARY * 2 W) 1)) (CONST B 1.5)");
    expect_tree("", "");
}
END_TEST

START_TEST(test_defaults_lists_none)
{
    expect_tree("func s(x, axis=-1, keep=None):\n    y = f([1, n], [])\n",
                "(FUNC s (PARAMS (PARAM x _ _) (PARAM axis _ (UNARY neg 1)) (PARAM keep _ (NONE))) "
                "(BLOCK (ASSIGN = y (CALL f (LIST 1 n) (LIST)))))");
}
END_TEST

START_TEST(test_func_params)
{
    expect_tree("export func longformer(seq_len: size, feat_len: size,\n"
                "                       q: f32[seq_len, feat_len] in,\n"
                "                       k: f32[seq_len, feat_len] in,\n"
                "                       y: f32[seq_len, 2 * W + 1] out):\n"
                "    pass\n",
                "(FUNC export longformer (PARAMS (PARAM seq_len (TYPE size _ _ _) _) "
                "(PARAM feat_len (TYPE size _ _ _) _) "
                "(PARAM q in (TYPE f32 (DIMS seq_len feat_len) _ _) _) "
                "(PARAM k in (TYPE f32 (DIMS seq_len feat_len) _ _) _) "
                "(PARAM y out (TYPE f32 (DIMS seq_len (BINARY + (BINARY * 2 W) 1)) _ _) _)) "
                "(BLOCK (PASS)))");
    /* untyped, access only, `out` as a name, trailing comma */
    expect_tree("func dot_(a, b, out: out):\n    out = 0\n",
                "(FUNC dot_ (PARAMS (PARAM a _ _) (PARAM b _ _) (PARAM out out _ _)) "
                "(BLOCK (ASSIGN = out 0)))");
    expect_tree("func g(x: in, y: inout,\n):\n    pass\n",
                "(FUNC g (PARAMS (PARAM x in _ _) (PARAM y inout _ _)) (BLOCK (PASS)))");
    /* scalars, memory types */
    expect_tree("export func h(alpha: f32 in, x: f32[n] inout @ gpu, s: f64[4] out @ cpu):\n"
                "    pass\n",
                "(FUNC export h (PARAMS (PARAM alpha in (TYPE f32 _ _ _) _) "
                "(PARAM x inout (TYPE f32 (DIMS n) (MTYPE gpu) _) _) "
                "(PARAM s out (TYPE f64 (DIMS 4) (MTYPE cpu) _) _)) (BLOCK (PASS)))");
    expect_tree("func e():\n    return\n", "(FUNC e (PARAMS) (BLOCK (RETURN _)))");
    /* layouts: a string or a const's name, after the access and memory type */
    expect_tree("export func l(x: f32[n, 4] in layout \"NC->CN\", y: f32[n] out @ cpu layout YL):\n"
                "    var t: f32[n, 8] layout \"NC->NC4c\"\n",
                "(FUNC export l (PARAMS (PARAM x in (TYPE f32 (DIMS n 4) _ \"NC->CN\") _) "
                "(PARAM y out (TYPE f32 (DIMS n) (MTYPE cpu) YL) _)) "
                "(BLOCK (VAR t (TYPE f32 (DIMS n 8) _ \"NC->NC4c\") _)))");
}
END_TEST

START_TEST(test_schedule)
{
    expect_tree("schedule longformer:\n"
                "    fuse(Lk, Lmax)                # comment\n"
                "    jo, ji = split(Lj, 64)\n"
                "    parallelize(jo, openmp)\n"
                "    split(L, nparts=4)\n"
                "    move_to(S, before=T)\n"
                "    auto\n",
                "(SCHEDULE longformer (BLOCK "
                "(EXPRSTMT (CALL fuse Lk Lmax)) "
                "(ASSIGN = (TUPLE jo ji) (CALL split Lj 64)) "
                "(EXPRSTMT (CALL parallelize jo openmp)) "
                "(EXPRSTMT (CALL split L (KWARG nparts 4))) "
                "(EXPRSTMT (CALL move_to S (KWARG before T))) "
                "(EXPRSTMT auto)))");
}
END_TEST

START_TEST(test_grad)
{
    expect_tree("grad subdivnet wrt e -> subdivnet_grad   # tape = auto\n"
                "grad longformer wrt q, k tape all -> longformer_grad_all\n",
                "(GRAD subdivnet tape=auto (NAMELIST e) subdivnet_grad) "
                "(GRAD longformer tape=all (NAMELIST q k) longformer_grad_all)");
    /* grad, schedule and wrt are names inside functions */
    expect_body("    grad = wrt + schedule", "(BLOCK (ASSIGN = grad (BINARY + wrt schedule)))");
}
END_TEST

/* ---------------------------------------------------------------- statements */

START_TEST(test_var)
{
    expect_body("    var t: f32[n, 4]\n"
                "    var s: f32 = 0\n"
                "    var u = e[adj[i, 0]]\n"
                "    var w: f32[16] @ gpu/shared\n"
                "    var z: i32[2] @ gpu/local = 0\n",
                "(BLOCK (VAR t (TYPE f32 (DIMS n 4) _ _) _) "
                "(VAR s (TYPE f32 _ _ _) 0) "
                "(VAR u _ (INDEX e (INDEX adj i 0))) "
                "(VAR w (TYPE f32 (DIMS 16) (MTYPE gpu/shared) _) _) "
                "(VAR z (TYPE i32 (DIMS 2) (MTYPE gpu/local) _) 0))");
}
END_TEST

START_TEST(test_assign)
{
    expect_body("    x = e\n    y[i] = 0\n    x += a[i] * b[i]\n    x -= 1\n    x *= 2\n"
                "    y[i, 1:3] = z\n",
                "(BLOCK (ASSIGN = x e) (ASSIGN = (INDEX y i) 0) "
                "(ASSIGN + x (BINARY * (INDEX a i) (INDEX b i))) (ASSIGN - x 1) "
                "(ASSIGN * x 2) (ASSIGN = (INDEX y i (SLICE 1 3)) z))");
}
END_TEST

START_TEST(test_for)
{
    expect_body("    for i in range(a.shape(0)):\n        out += a[i] * b[i]\n",
                "(BLOCK (FOR i (CALL range (CALL (ATTR shape a) 0)) "
                "(BLOCK (ASSIGN + out (BINARY * (INDEX a i) (INDEX b i))))))");
    expect_body("    for i in range(1, n, 2):\n        for j in range(n):\n            x = 1\n"
                "        y = 2\n",
                "(BLOCK (FOR i (CALL range 1 n 2) (BLOCK (FOR j (CALL range n) "
                "(BLOCK (ASSIGN = x 1))) (ASSIGN = y 2))))");
}
END_TEST

START_TEST(test_if)
{
    expect_body("    if a:\n        x = 1\n", "(BLOCK (IF a (BLOCK (ASSIGN = x 1)) _))");
    expect_body("    if a:\n        x = 1\n    elif b:\n        x = 2\n    elif c:\n        x = 3\n"
                "    else:\n        x = 4\n",
                "(BLOCK (IF a (BLOCK (ASSIGN = x 1)) (IF b (BLOCK (ASSIGN = x 2)) "
                "(IF c (BLOCK (ASSIGN = x 3)) (BLOCK (ASSIGN = x 4))))))");
    /* one simple statement on the line of the colon */
    expect_body("    if a: x = 1\n    else: pass\n",
                "(BLOCK (IF a (BLOCK (ASSIGN = x 1)) (BLOCK (PASS))))");
}
END_TEST

START_TEST(test_other_statements)
{
    expect_body("    assert n > 0\n    matmul_(a, b, c)\n    pass\n    return a + b\n",
                "(BLOCK (ASSERT (BINARY > n 0)) (EXPRSTMT (CALL matmul_ a b c)) (PASS) "
                "(RETURN (BINARY + a b)))");
    /* an assert's message and its values; adjacent strings join */
    expect_body("    assert n > 0, \"n is {} in {}\", n, a.shape(0)\n"
                "    assert n > 0, (\"long \"\n                   \"message\")\n",
                "(BLOCK (ASSERT (BINARY > n 0) \"n is {} in {}\" n (CALL (ATTR shape a) 0)) "
                "(ASSERT (BINARY > n 0) \"long message\"))");
}
END_TEST

START_TEST(test_labels)
{
    expect_body("    Li: for i in range(n):\n        L1: y[i] = 0\n",
                "(BLOCK (LABELED Li (FOR i (CALL range n) (BLOCK (LABELED L1 "
                "(ASSIGN = (INDEX y i) 0))))))");
}
END_TEST

/* ---------------------------------------------------------------- expressions */

START_TEST(test_literals)
{
    expect_expr("0x1f", "31");
    expect_expr("1e-4", "0.0001");
    expect_expr("inf", "inf");
    expect_expr("True", "True");
    expect_expr("False", "False");
    expect_expr("'ij,jk->ik'", "\"ij,jk->ik\"");
}
END_TEST

START_TEST(test_precedence)
{
    expect_expr("a + b * c", "(BINARY + a (BINARY * b c))");
    expect_expr("a - b - c", "(BINARY - (BINARY - a b) c)");
    expect_expr("a // b % c / d", "(BINARY / (BINARY % (BINARY // a b) c) d)");
    expect_expr("-x**2", "(UNARY neg (BINARY ** x 2))");
    expect_expr("a ** b ** c", "(BINARY ** a (BINARY ** b c))");
    expect_expr("2 ** -x", "(BINARY ** 2 (UNARY neg x))");
    expect_expr("-a * +b", "(BINARY * (UNARY neg a) (UNARY pos b))");
    expect_expr("a < b + 1", "(BINARY < a (BINARY + b 1))");
    expect_expr("not a == b", "(UNARY not (BINARY == a b))");
    expect_expr("a or b and not c", "(BINARY or a (BINARY and b (UNARY not c)))");
    expect_expr("a if c else b", "(IFEXPR a c b)");
    expect_expr("a or b if c or d else e", "(IFEXPR (BINARY or a b) (BINARY or c d) e)");
    expect_expr("a if b else c if d else e", "(IFEXPR a b (IFEXPR c d e))");
    expect_expr("(a + b) * c", "(BINARY * (BINARY + a b) c)");
    expect_expr("a != b", "(BINARY != a b)");
    expect_expr("a <= b", "(BINARY <= a b)");
    expect_expr("a >= b", "(BINARY >= a b)");
}
END_TEST

/* a @ b: Python's precedence, that of `*`, left-associative; `@` after a
 * parameter's or a var's type is still a memory type (test_func_params,
 * test_var) */
START_TEST(test_matmul_operator)
{
    expect_expr("a @ b", "(BINARY @ a b)");
    expect_expr("a @ b @ c", "(BINARY @ (BINARY @ a b) c)");
    expect_expr("a @ b * c", "(BINARY * (BINARY @ a b) c)");
    expect_expr("a * b @ c", "(BINARY @ (BINARY * a b) c)");
    expect_expr("a + b @ c", "(BINARY + a (BINARY @ b c))");
    expect_expr("a @ b - c", "(BINARY - (BINARY @ a b) c)");
    expect_expr("-a @ b", "(BINARY @ (UNARY neg a) b)");
    expect_expr("a @ b ** 2", "(BINARY @ a (BINARY ** b 2))");
    expect_expr("x[i] @ w.T", "(BINARY @ (INDEX x i) (ATTR T w))");
    expect_expr("a @ (b + c)", "(BINARY @ a (BINARY + b c))");
    expect_body("    var t: f32[n] @ gpu = a @ b\n",
                "(BLOCK (VAR t (TYPE f32 (DIMS n) (MTYPE gpu) _) (BINARY @ a b)))");
}
END_TEST

START_TEST(test_postfix)
{
    expect_expr("a[i, j]", "(INDEX a i j)");
    expect_expr("a[i, 1:3]", "(INDEX a i (SLICE 1 3))");
    expect_expr("a[j - W : j + W + 1]",
                "(INDEX a (SLICE (BINARY - j W) (BINARY + (BINARY + j W) 1)))");
    expect_expr("a[:, i]", "(INDEX a (SLICE _ _) i)");
    expect_expr("a[1:]", "(INDEX a (SLICE 1 _))");
    expect_expr("a[:n]", "(INDEX a (SLICE _ n))");
    expect_expr("x.shape(0)", "(CALL (ATTR shape x) 0)");
    expect_expr("x.ndim + x.dtype", "(BINARY + (ATTR ndim x) (ATTR dtype x))");
    expect_expr("sum(x, axis=0, keepdims=True)",
                "(CALL sum x (KWARG axis 0) (KWARG keepdims True))");
    expect_expr("f()", "(CALL f)");
    expect_expr("f(a,)", "(CALL f a)");
    expect_expr("-a[i]**2", "(UNARY neg (BINARY ** (INDEX a i) 2))");
    expect_expr("abs(e[a] - e[b])", "(CALL abs (BINARY - (INDEX e a) (INDEX e b)))");
    expect_expr("einsum('ij,jk->ik', a, b)", "(CALL einsum \"ij,jk->ik\" a b)");
    expect_expr("x[0][1].shape(2)", "(CALL (ATTR shape (INDEX (INDEX x 0) 1)) 2)");
}
END_TEST

START_TEST(test_example_program)
{
    const char *text =
        "const W = 32\n"
        "\n"
        "func dot_(a, b, out: out):\n"
        "    out = 0\n"
        "    for i in range(a.shape(0)):\n"
        "        out += a[i] * b[i]\n"
        "\n"
        "export func longformer(seq_len: size, feat_len: size,\n"
        "                       q: f32[seq_len, feat_len] in,\n"
        "                       k: f32[seq_len, feat_len] in,\n"
        "                       y: f32[seq_len, 2 * W + 1] out):\n"
        "    Lj: for j in range(seq_len):\n"
        "        var dot: f32[2 * W + 1]\n"
        "        Lk: for k1 in range(-W, W + 1):\n"
        "            if j + k1 >= 0 and j + k1 < seq_len:\n"
        "                dot_(q[j], k[j + k1], dot[k1 + W])\n"
        "            else:\n"
        "                dot[k1 + W] = -inf\n"
        "        var maxval = max(dot, axis=0)\n"
        "        y[j] = exp(dot - maxval) / sum(exp(dot - maxval))\n"
        "\n"
        "schedule longformer:\n"
        "    jo, ji = split(Lj, 64)\n"
        "    parallelize(jo, openmp)\n"
        "    auto\n"
        "\n"
        "grad longformer wrt q, k tape all -> longformer_grad_all\n";
    prun r;
    parse(&r, text);
    ck_assert_msg(r.file != NULL, "%s", r.diag);
    ck_assert_int_eq(r.file->nkids, 5);
    ck_assert_int_eq(r.file->kids[2]->kind, PT_FUNC);
    ck_assert_int_eq(r.file->kids[2]->loc.line, 8);
    pt_node *body = r.file->kids[2]->kids[1];
    ck_assert_int_eq(body->kind, PT_BLOCK);
    ck_assert_int_eq(body->kids[0]->kind, PT_LABELED);
    ck_assert_int_eq(body->kids[0]->loc.line, 12);
    ck_assert_int_eq(body->kids[0]->loc.col, 5);
    prun_free(&r);
}
END_TEST

START_TEST(test_locations)
{
    prun r;
    parse(&r, "func f():\n    x = a + b\n");
    pt_node *st = r.file->kids[0]->kids[1]->kids[0];
    ck_assert_int_eq(st->kind, PT_ASSIGN);
    ck_assert_int_eq(st->loc.line, 2);
    ck_assert_int_eq(st->loc.col, 5);
    pt_node *add = st->kids[1];
    ck_assert_int_eq(add->loc.col, 11);        /* a binary node sits at its operator */
    ck_assert_ptr_nonnull(add->loc.src);
    prun_free(&r);
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(test_syntax_errors)
{
    expect_error("const x = (1 + )\n", "t.ft:1:16: error: unexpected ')'; expected an expression");
    expect_error("func f(a b):\n    pass\n", "t.ft:1:10: error: unexpected name 'b'");
    expect_error("func f(x: f32[4] in layout):\n    pass\n", "t.ft:1:21: error: expected a "
                 "layout string or the name of a const after 'layout', e.g. layout "
                 "\"NCHW->NHWC\"");
    expect_error("func f(x: f32[4] layout \"A->A\" in):\n    pass\n", "t.ft:1:32: error: "
                 "unexpected 'in' after the type; the order is ACCESS [@ MTYPE] "
                 "[layout \"L->P\"]");
    expect_error("func f():\n    var t: f32[4] in\n", "t.ft:2:19: error: unexpected 'in' "
                 "after the type of a local (a `var` takes [@ MTYPE] [layout \"L->P\"])");
    expect_error("func f(x: f32[4] in layout \"A->A\" @ cpu):\n    pass\n", "t.ft:1:37: error: "
                 "unexpected memory type after the type; the order is ACCESS [@ MTYPE] "
                 "[layout \"L->P\"]");
    expect_error("func f():\nx = 1\n", "t.ft:2:1: error: unexpected name 'x'; expected an "
                 "indented block");
    expect_error("func f():\n    x = 1\n        y = 2\n", "t.ft:3:9: error: unexpected indent");
    expect_error("func f():\n    for i in range(3)\n        x = 1\n",
                 "t.ft:2:22: error: unexpected end of line; expected ':'");
    expect_error("const x = a < b < c\n", "t.ft:1:17: error: unexpected '<'");
    expect_error("const = 3\n", "t.ft:1:7: error: unexpected '='; expected a name");
    expect_error("func f():\n    if x:\n", "t.ft:3:1: error: unexpected end of block; "
                 "expected an indented block");
    expect_error("x = 1\n", "t.ft:1:1: error: unexpected name 'x'; expected a declaration "
                 "(const, func, schedule or grad)");
    expect_error("func f():\n    x = 1\n    )\n", "t.ft:3:5: error: unexpected ')'; "
                 "expected a statement");
    expect_error("func f():", "t.ft:1:10: error: unexpected end of file; expected an "
                 "indented block");
}
END_TEST

START_TEST(test_lexical_errors_fail_the_parse)
{
    expect_error("func f():\n\tx = 1\n", "t.ft:2:1: error: tab in indentation");
    expect_error("const x = 2.f\n", "t.ft:1:11: error: invalid float literal '2.f'");
    expect_error("func f():\n        x = 1\n    y = 2\n",
                 "t.ft:3:5: error: unindent does not match any outer indentation level");
    expect_error("const x = f(1,\n   2\n", "t.ft:1:12: error: '(' was never closed");
    /* the unclosed bracket is the only error reported */
    ck_assert_int_eq(count_errors("const x = f(1,\n   2\n"), 1);
    /* syntax errors that follow from a lexical error on its line are not reported */
    ck_assert_int_eq(count_errors("func f():\n  a\n b\n"), 1);
    ck_assert_int_eq(count_errors("func f():\n    x = a $ b\n    y = )\n"), 2);
}
END_TEST

START_TEST(test_semantic_checks)
{
    expect_error("func f():\n    f(x) = 1\n", "t.ft:2:5: error: cannot assign to a call");
    expect_error("func f():\n    a + 1 += 1\n", "t.ft:2:7: error: cannot assign to a expression");
    expect_error("func f():\n    for i in x:\n        pass\n",
                 "t.ft:2:14: error: a for loop iterates over range(...)");
    expect_error("func f(x: f32 bad):\n    pass\n",
                 "t.ft:1:15: error: expected 'in', 'out' or 'inout'");
    expect_error("grad f wrt x tap all -> g\n", "t.ft:1:14: error: expected 'tape MODE'");
}
END_TEST

START_TEST(test_recovery)
{
    /* one error per bad line, and the good lines in between still parse */
    const char *text =
        "func f():\n"
        "    x = )\n"
        "    y = 1\n"
        "    z = (]\n"
        "    for i in range(n) oops:\n"
        "        w = * 2\n"
        "    ok = 1\n"
        "func g(:)\n"
        "    v = ,\n"
        "const c = 1 +\n";
    prun r;
    parse(&r, text);
    ck_assert_ptr_null(r.file);
    ck_assert_msg(strstr(r.diag, "t.ft:2:9: error: unexpected ')'"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:4:10: error: unexpected ']'"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:5:23: error: unexpected name 'oops'"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:6:13: error: unexpected '*'"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:8:8: error: unexpected ':'"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:9:9: error: unexpected ','"), "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "t.ft:10:14: error: unexpected end of line"), "%s", r.diag);
    ck_assert_int_eq(r.ctx->nerrors, 7);
    prun_free(&r);
}
END_TEST

START_TEST(test_missing_block_recovers)
{
    /* an if with no body at the end of a block: the block still closes */
    const char *text =
        "func f():\n"
        "    if a:\n"
        "func g():\n"
        "    x = )\n";
    ck_assert_int_eq(count_errors(text), 2);
}
END_TEST

START_TEST(test_deep_nesting)
{
    char *deep = malloc(20002);
    strcpy(deep, "const x = ");
    size_t n = strlen(deep);
    memset(deep + n, '(', 10000);
    deep[n + 10000] = 0;
    expect_error(deep, "error: brackets nested too deeply");
    /* nesting within the bracket limit parses */
    strcpy(deep, "const x = ");
    for (int i = 0; i < 150; i++)
        strcat(deep, "(");
    strcat(deep, "1");
    for (int i = 0; i < 150; i++)
        strcat(deep, ")");
    expect_tree(deep, "(CONST x 1)");
    /* a long chain of unary operators overflows the parser's stack cleanly */
    strcpy(deep, "const x = ");
    n = strlen(deep);
    memset(deep + n, '-', 10000);
    strcpy(deep + n + 10000, "1\n");
    expect_error(deep, "error: the program is nested too deeply");
    /* so does deep indentation */
    char *p = deep;
    for (int i = 0; i < 120; i++)
        p += sprintf(p, "%*sif a:\n", i, "");
    expect_error(deep, "error: too many nested blocks");
    free(deep);
}
END_TEST

START_TEST(test_garbage)
{
    unsigned seed = 777;
    const char *pieces[] = { "func", "f", "(", ")", ":", "\n", "    ", "x", "=", "1", "+",
                             "[", "]", ",", "if", "else", "for", "in", "range", "var",
                             "@", "->", "grad", "wrt", "schedule", "\t", "2.f", "'s", "#",
                             "export", "**", "-", "not", "return", "  ", "\n\n", "L:" };
    int npieces = (int)(sizeof pieces / sizeof pieces[0]);
    for (int round = 0; round < 400; round++) {
        char text[4096];
        size_t len = 0;
        int ntok = 1 + round % 60;
        for (int i = 0; i < ntok; i++) {
            seed = seed * 1103515245u + 12345u;
            const char *pc = pieces[(seed >> 16) % (unsigned)npieces];
            len += (size_t)snprintf(text + len, sizeof text - len, "%s ", pc);
        }
        if (round % 2) {        /* raw bytes too */
            for (int i = 0; i < 40; i++) {
                seed = seed * 1103515245u + 12345u;
                text[len++] = (char)((seed >> 16) | 1);
            }
            text[len] = 0;
        }
        prun r;
        parse(&r, text);        /* must not crash; may or may not succeed */
        if (!r.file)
            ck_assert_int_gt(r.ctx->nerrors, 0);
        prun_free(&r);
    }
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("trees");
    tcase_add_test(tc, test_const);
    tcase_add_test(tc, test_func_params);
    tcase_add_test(tc, test_defaults_lists_none);
    tcase_add_test(tc, test_schedule);
    tcase_add_test(tc, test_grad);
    tcase_add_test(tc, test_var);
    tcase_add_test(tc, test_assign);
    tcase_add_test(tc, test_for);
    tcase_add_test(tc, test_if);
    tcase_add_test(tc, test_other_statements);
    tcase_add_test(tc, test_labels);
    tcase_add_test(tc, test_literals);
    tcase_add_test(tc, test_precedence);
    tcase_add_test(tc, test_matmul_operator);
    tcase_add_test(tc, test_postfix);
    tcase_add_test(tc, test_example_program);
    tcase_add_test(tc, test_locations);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_syntax_errors);
    tcase_add_test(te, test_lexical_errors_fail_the_parse);
    tcase_add_test(te, test_semantic_checks);
    tcase_add_test(te, test_recovery);
    tcase_add_test(te, test_missing_block_recovers);
    tcase_add_test(te, test_deep_nesting);
    tcase_add_test(te, test_garbage);
    suite_add_tcase(s, te);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(parser_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
