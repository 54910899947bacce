/* print.c - print the AST as valid .ft source.
 *
 * The output parses back to an equal AST (print -> parse -> print is a fixed
 * point, tested in tests/golden and tests/unit/test_ast.c).  Parentheses are
 * printed only where precedence needs them; a parallel loop is printed as a
 * `schedule` block after its function, naming the loop by its label (or its
 * iterator when it has none).
 */
#include "ast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Binding strength of an expression, higher binds tighter (Python's order). */
enum {
    PREC_IFEXPR = 1, PREC_OR, PREC_AND, PREC_NOT, PREC_CMP, PREC_ADD, PREC_MUL,
    PREC_UNARY, PREC_POW, PREC_ATOM
};

static int binop_prec(ast_binop op)
{
    switch (op) {
    case AST_ADD: case AST_SUB: return PREC_ADD;
    case AST_MUL: case AST_DIV: case AST_FLOORDIV: case AST_MOD: return PREC_MUL;
    case AST_POW: return PREC_POW;
    case AST_MIN: case AST_MAX: return PREC_ATOM;
    case AST_AND: return PREC_AND;
    case AST_OR: return PREC_OR;
    default: return PREC_CMP;
    }
}

static int expr_prec(const ast_expr *e)
{
    switch (e->kind) {
    case AST_BINARY: return binop_prec(e->u.bin.op);
    case AST_UNARY: return e->u.un.op == AST_NOT ? PREC_NOT : PREC_UNARY;
    case AST_IFEXPR: return PREC_IFEXPR;
    case AST_INT: return e->u.ival < 0 && e->u.ival != INT64_MIN ? PREC_UNARY : PREC_ATOM;
    case AST_FLOAT: return signbit(e->u.fval) ? PREC_UNARY : PREC_ATOM;
    default: return PREC_ATOM;
    }
}

/* Print e, in parentheses when it binds looser than min_prec. */
static void print_sub(FILE *out, const ast_expr *e, int min_prec)
{
    int paren = expr_prec(e) < min_prec;
    if (paren)
        fputc('(', out);
    ast_print_expr(out, e);
    if (paren)
        fputc(')', out);
}

/* Print a comma-separated list of expressions. */
static void print_list(FILE *out, int n, ast_expr **es)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        ast_print_expr(out, es[i]);
    }
}

/* The shortest decimal text that reads back as exactly v, always with a '.'
 * or an exponent so it stays a float literal. */
static void print_float(FILE *out, double v)
{
    if (isinf(v)) {
        fputs(v < 0 ? "-inf" : "inf", out);
        return;
    }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".en"))
        strcat(buf, ".0");
    fputs(buf, out);
}

/* A tensor access: `x[i, j]`, or just `x` for a 0-D tensor. */
static void print_access(FILE *out, const char *var, int n, ast_expr **idx)
{
    fputs(var, out);
    if (n == 0)
        return;
    fputc('[', out);
    print_list(out, n, idx);
    fputc(']', out);
}

static void print_binary(FILE *out, const ast_expr *e)
{
    ast_binop op = e->u.bin.op;
    if (op == AST_MIN || op == AST_MAX) {
        fprintf(out, "%s(", ast_binop_text(op));
        ast_print_expr(out, e->u.bin.a);
        fputs(", ", out);
        ast_print_expr(out, e->u.bin.b);
        fputc(')', out);
        return;
    }
    int p = binop_prec(op);
    /* left-associative, except ** (right) and comparisons (not chainable) */
    int lmin = op == AST_POW || p == PREC_CMP ? p + 1 : p;
    int rmin = op == AST_POW ? PREC_UNARY : p + 1;
    print_sub(out, e->u.bin.a, lmin);
    fprintf(out, " %s ", ast_binop_text(op));
    print_sub(out, e->u.bin.b, rmin);
}

void ast_print_expr(FILE *out, const ast_expr *e)
{
    switch (e->kind) {
    case AST_INT:   /* INT64_MIN has no literal: print an expression folding to it */
        if (e->u.ival == INT64_MIN)
            fputs("(-9223372036854775807 - 1)", out);
        else
            fprintf(out, "%lld", (long long)e->u.ival);
        break;
    case AST_FLOAT: print_float(out, e->u.fval); break;
    case AST_BOOLC: fputs(e->u.ival ? "True" : "False", out); break;
    case AST_VAR: fputs(e->u.name, out); break;
    case AST_LOAD: print_access(out, e->u.load.var, e->u.load.n, e->u.load.idx); break;
    case AST_BINARY: print_binary(out, e); break;
    case AST_UNARY:
        fputs(e->u.un.op == AST_NOT ? "not " : "-", out);
        print_sub(out, e->u.un.a, e->u.un.op == AST_NOT ? PREC_NOT : PREC_UNARY);
        break;
    case AST_CALL:
        fprintf(out, "%s(", ast_builtin_name(e->u.call.f));
        print_list(out, e->u.call.n, e->u.call.args);
        fputc(')', out);
        break;
    case AST_CAST:
        fprintf(out, "%s(", ft_dtype_name(e->dtype));
        ast_print_expr(out, e->u.cast.a);
        fputc(')', out);
        break;
    case AST_IFEXPR:
        print_sub(out, e->u.ife.then, PREC_IFEXPR + 1);
        fputs(" if ", out);
        print_sub(out, e->u.ife.cond, PREC_IFEXPR + 1);
        fputs(" else ", out);
        print_sub(out, e->u.ife.other, PREC_IFEXPR);
        break;
    }
}

char *ast_expr_text(ft_ctx *ctx, const ast_expr *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return ft_strdup(ctx, "?");
    ast_print_expr(f, e);
    fclose(f);
    char *s = ft_strdup(ctx, buf ? buf : "?");
    free(buf);
    return s;
}

/* ------------------------------------------------------------ statements */

static void indent_to(FILE *out, int indent)
{
    fprintf(out, "%*s", indent * 4, "");
}

/* `f32[n, 4] @ gpu` (the memory type only when it is not cpu). */
static void print_type(FILE *out, ft_dtype t, int ndim, ast_expr **shape, ft_mtype mt,
                       const char *access)
{
    fputs(ft_dtype_name(t), out);
    if (ndim) {
        fputc('[', out);
        print_list(out, ndim, shape);
        fputc(']', out);
    }
    if (access)
        fprintf(out, " %s", access);
    if (mt != FT_MT_CPU)
        fprintf(out, " @ %s", ft_mtype_name(mt));
}

/* `range(end)`, `range(begin, end)` or `range(begin, end, step)`. */
static void print_range(FILE *out, const ast_stmt *s)
{
    const ast_expr *b = s->u.loop.begin, *st = s->u.loop.step;
    int unit_step = st->kind == AST_INT && st->u.ival == 1;
    fputs("range(", out);
    if (!(unit_step && b->kind == AST_INT && b->u.ival == 0)) {
        ast_print_expr(out, b);
        fputs(", ", out);
    }
    ast_print_expr(out, s->u.loop.end);
    if (!unit_step) {
        fputs(", ", out);
        ast_print_expr(out, st);
    }
    fputc(')', out);
}

/* Print the statements of a body one level deeper (`pass` when empty). */
static void print_body(FILE *out, const ast_stmt *s, int indent)
{
    if (!s || (s->kind == AST_SEQ && s->u.seq.n == 0 && !s->label)) {
        indent_to(out, indent);
        fputs("pass\n", out);
        return;
    }
    ast_print_stmt(out, s, indent);
}

static void print_if(FILE *out, const ast_stmt *s, int indent)
{
    fputs("if ", out);
    ast_print_expr(out, s->u.branch.cond);
    fputs(":\n", out);
    print_body(out, s->u.branch.then, indent + 1);
    const ast_stmt *o = s->u.branch.other;
    if (!o)
        return;
    indent_to(out, indent);
    if (o->kind == AST_IF && !o->label) {
        fputs("el", out);
        print_if(out, o, indent);
        return;
    }
    fputs("else:\n", out);
    print_body(out, o, indent + 1);
}

/* Print a reduction as `+=`/`*=` or as `x = min(x, e)`. */
static void print_reduce(FILE *out, const ast_stmt *s)
{
    print_access(out, s->u.red.var, s->u.red.n, s->u.red.idx);
    if (s->u.red.op == AST_RED_ADD || s->u.red.op == AST_RED_MUL) {
        fputs(s->u.red.op == AST_RED_ADD ? " += " : " *= ", out);
    } else {
        fprintf(out, " = %s(", s->u.red.op == AST_RED_MIN ? "min" : "max");
        print_access(out, s->u.red.var, s->u.red.n, s->u.red.idx);
        fputs(", ", out);
        ast_print_expr(out, s->u.red.value);
        fputs(")\n", out);
        return;
    }
    ast_print_expr(out, s->u.red.value);
    fputc('\n', out);
}

void ast_print_stmt(FILE *out, const ast_stmt *s, int indent)
{
    if (s->kind == AST_SEQ && !s->label) {
        for (int i = 0; i < s->u.seq.n; i++)
            ast_print_stmt(out, s->u.seq.stmts[i], indent);
        return;
    }
    indent_to(out, indent);
    if (s->label)
        fprintf(out, "%s: ", s->label);
    switch (s->kind) {
    case AST_SEQ:    /* a labelled sequence: keep it a unit under `if True` */
        fputs("if True:\n", out);
        print_body(out, &(ast_stmt){.kind = AST_SEQ, .u.seq = s->u.seq}, indent + 1);
        break;
    case AST_VARDEF:
        fprintf(out, "var %s: ", s->u.def.name);
        print_type(out, s->u.def.dtype, s->u.def.ndim, s->u.def.shape, s->u.def.mtype,
                   NULL);
        fputc('\n', out);
        if (s->u.def.body)
            ast_print_stmt(out, s->u.def.body, indent);
        break;
    case AST_FOR:
        fprintf(out, "for %s in ", s->u.loop.iter);
        print_range(out, s);
        fputs(":\n", out);
        print_body(out, s->u.loop.body, indent + 1);
        break;
    case AST_IF: print_if(out, s, indent); break;
    case AST_STORE:
        print_access(out, s->u.store.var, s->u.store.n, s->u.store.idx);
        fputs(" = ", out);
        ast_print_expr(out, s->u.store.value);
        fputc('\n', out);
        break;
    case AST_REDUCE: print_reduce(out, s); break;
    case AST_ASSERT:
        fputs("assert ", out);
        ast_print_expr(out, s->u.cond);
        fputc('\n', out);
        break;
    case AST_EVAL:
        ast_print_expr(out, s->u.expr);
        fputc('\n', out);
        break;
    }
}

/* ------------------------------------------------------------- functions */

static void print_param(FILE *out, const ast_param *p)
{
    fprintf(out, "%s: ", p->name);
    if (p->is_size) {
        fputs("size", out);
        return;
    }
    print_type(out, p->dtype, p->ndim, p->shape, p->mtype, ft_access_name(p->access));
}

/* Print `parallelize(L, openmp)`, `parallelize(L, blockIdx.x)` (and the
 * other CUDA indices), `vectorize(L)` or `as_lib(L)` for every loop under s
 * marked so. */
static void print_parallel_loops(FILE *out, const ast_stmt *s, int *any,
                                 const char *fname)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            print_parallel_loops(out, s->u.seq.stmts[i], any, fname);
        break;
    case AST_VARDEF: print_parallel_loops(out, s->u.def.body, any, fname); break;
    case AST_IF:
        print_parallel_loops(out, s->u.branch.then, any, fname);
        print_parallel_loops(out, s->u.branch.other, any, fname);
        break;
    case AST_FOR:
        if (s->u.loop.par == AST_OPENMP || s->u.loop.par == AST_VECTORIZE ||
            s->u.loop.par == AST_LIB ||
            (s->u.loop.par >= AST_BLOCK_X && s->u.loop.par <= AST_THREAD_Z)) {
            if (!*any)
                fprintf(out, "\nschedule %s:\n", fname);
            *any = 1;
            const char *name = s->label ? s->label : s->u.loop.iter;
            static const char *const gpu[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z",
                                              "threadIdx.x", "threadIdx.y", "threadIdx.z"};
            if (s->u.loop.par == AST_OPENMP)
                fprintf(out, "    parallelize(%s, openmp)\n", name);
            else if (s->u.loop.par >= AST_BLOCK_X && s->u.loop.par <= AST_THREAD_Z)
                fprintf(out, "    parallelize(%s, %s)\n", name, gpu[s->u.loop.par - AST_BLOCK_X]);
            else if (s->u.loop.par == AST_LIB)
                fprintf(out, "    as_lib(%s)\n", name);
            else
                fprintf(out, "    vectorize(%s)\n", name);
        }
        print_parallel_loops(out, s->u.loop.body, any, fname);
        break;
    default: break;
    }
}

void ast_print_func(FILE *out, const ast_func *f)
{
    fprintf(out, "export func %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        if (i)
            fputs(", ", out);
        print_param(out, &f->params[i]);
    }
    for (int i = 0; i < f->nregions; i++) {     /* as parameters: valid source */
        fputs(", ", out);
        print_param(out, &f->regions[i]);
    }
    fputs("):\n", out);
    print_body(out, f->body, 1);
    int any = 0;
    print_parallel_loops(out, f->body, &any, f->name);
}

void ast_print_program(FILE *out, const ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        if (i)
            fputc('\n', out);
        ast_print_func(out, p->funcs[i]);
    }
}
