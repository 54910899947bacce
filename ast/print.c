/* print.c - print the AST as valid .ft source.
 *
 * The output parses back to an equal AST (print -> parse -> print is a fixed
 * point, tested in tests/golden and tests/unit/test_ast.c).  Parentheses are
 * printed only where precedence needs them; a parallel loop is printed as a
 * `schedule` block after its function, naming the loop by its label (or its
 * iterator when one loop only has it and no label is that name).
 *
 * Whatever the passes left, a function prints as source that compiles again
 * (tests/dumps/run.py) and names things one way:
 *   - labels are unique: a label printed already in the function is printed
 *     as a fresh one (LABEL_1, ...);
 *   - a local a schedule names (s->named: the cleanups kept it for the
 *     schedule) is printed with a label, so that the dump compiled again
 *     keeps it too;
 *   - a loop of the schedule block that its iterator does not name alone
 *     gets a fresh label (Li, Li_1, ...);
 *   - a `var` whose name is visible where it is printed (a sibling VarDef of
 *     the same block, as two fused loop bodies leave, an enclosing one, an
 *     iterator or a parameter) is printed under a fresh name (t_1, ...),
 *     with its accesses: .ft scopes a `var` to the end of its block, the AST
 *     to the VarDef's body.
 * Fresh names avoid every name of the function.
 */
#include "ast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- naming */

/* A statement's printed label. */
typedef struct pr_label {
    const ast_stmt *s;
    const char *label;
} pr_label;

/* A name in the printed scope: the AST's and the printed one; live while
 * the AST's scope (the VarDef's body, the loop) lasts, visible until the
 * printed block ends. */
typedef struct pr_scope {
    const char *ast, *shown;
    int live;
} pr_scope;

/* The printer's state: where it prints and, for a whole function (f not
 * NULL), the names it chose (every array malloc'd, freed by pr_free). */
typedef struct pr {
    FILE *out;
    const ast_func *f;
    const char **used;      /* every name of f, and the fresh ones */
    int nused, capused;
    char **owned;           /* the fresh names' storage */
    int nowned, capowned;
    pr_label *labels;
    int nlabels, caplabels;
    pr_scope *scopes;
    int nscopes, capscopes;
} pr;

/* Room for need items in *items (capacity *cap, items of size bytes). */
static void pr_grow(void **items, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return;
    int ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*items, (size_t)ncap * size);
    if (!p) {
        fputs("ftc: out of memory while printing the program\n", stderr);
        exit(1);
    }
    *items = p;
    *cap = ncap;
}

static int pr_is_used(const pr *P, const char *name)
{
    for (int i = 0; i < P->nused; i++)
        if (strcmp(P->used[i], name) == 0)
            return 1;
    return 0;
}

static void pr_use(pr *P, const char *name)
{
    if (pr_is_used(P, name))
        return;
    pr_grow((void **)&P->used, &P->capused, P->nused + 1, sizeof *P->used);
    P->used[P->nused++] = name;
}

/* a followed by b in storage the printer frees (pr_free), with room for
 * a suffix `_N`. */
static char *pr_own(pr *P, const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 24;
    char *name = malloc(n);
    if (!name) {
        fputs("ftc: out of memory while printing the program\n", stderr);
        exit(1);
    }
    snprintf(name, n, "%s%s", a, b);
    pr_grow((void **)&P->owned, &P->capowned, P->nowned + 1, sizeof *P->owned);
    P->owned[P->nowned++] = name;
    return name;
}

/* base_1, base_2, ...: the first that no name of the function has. */
static const char *pr_fresh(pr *P, const char *base)
{
    char *name = pr_own(P, base, "");
    size_t n = strlen(base) + 24;
    for (int k = 1;; k++) {
        snprintf(name, n, "%s_%d", base, k);
        if (!pr_is_used(P, name))
            break;
    }
    pr_use(P, name);
    return name;
}

/* Every iterator, local and label under s into P->used. */
static void pr_collect(pr *P, const ast_stmt *s)
{
    if (!s)
        return;
    if (s->label)
        pr_use(P, s->label);
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            pr_collect(P, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        pr_use(P, s->u.def.name);
        pr_collect(P, s->u.def.body);
        break;
    case AST_FOR:
        pr_use(P, s->u.loop.iter);
        pr_collect(P, s->u.loop.body);
        break;
    case AST_IF:
        pr_collect(P, s->u.branch.then);
        pr_collect(P, s->u.branch.other);
        break;
    default: break;
    }
}

/* The label printed for s (NULL: none). */
static const char *pr_label_of(const pr *P, const ast_stmt *s)
{
    if (!P->f)
        return s->label;
    for (int i = 0; i < P->nlabels; i++)
        if (P->labels[i].s == s)
            return P->labels[i].label;
    return NULL;
}

static int pr_label_taken(const pr *P, const char *label)
{
    for (int i = 0; i < P->nlabels; i++)
        if (strcmp(P->labels[i].label, label) == 0)
            return 1;
    return 0;
}

/* Give s the label want, or a fresh one when another statement has it. */
static void pr_set_label(pr *P, const ast_stmt *s, const char *want)
{
    pr_grow((void **)&P->labels, &P->caplabels, P->nlabels + 1, sizeof *P->labels);
    const char *label = pr_label_taken(P, want) ? pr_fresh(P, want) : want;
    P->labels[P->nlabels++] = (pr_label){s, label};
}

/* The statements directly under s, in print order, through fn. */
static void pr_each_kid(pr *P, const ast_stmt *s, void (*fn)(pr *P, const ast_stmt *s))
{
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            fn(P, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF: if (s->u.def.body) fn(P, s->u.def.body); break;
    case AST_FOR: if (s->u.loop.body) fn(P, s->u.loop.body); break;
    case AST_IF:
        if (s->u.branch.then)
            fn(P, s->u.branch.then);
        if (s->u.branch.other)
            fn(P, s->u.branch.other);
        break;
    default: break;
    }
}

/* The program's labels under s, each once (a repeated one made fresh). */
static void pr_user_labels(pr *P, const ast_stmt *s)
{
    if (s->label)
        pr_set_label(P, s, s->label);
    pr_each_kid(P, s, pr_user_labels);
}

/* Labels for the unlabelled locals under s a schedule names: their name
 * when free.  (A loop needs none: the cleanups only remove or move loops
 * that are empty or copies, which a schedule's loops are not.) */
static void pr_named_labels(pr *P, const ast_stmt *s)
{
    if (!s->label && s->named && s->kind == AST_VARDEF)
        pr_set_label(P, s, s->u.def.name);
    pr_each_kid(P, s, pr_named_labels);
}

/* Whether s is a loop the schedule block after the function names. */
static int pr_scheduled(const ast_stmt *s)
{
    if (s->kind != AST_FOR)
        return 0;
    ast_par par = s->u.loop.par;
    return (par == AST_OPENMP || par == AST_VECTORIZE || par == AST_LIB ||
                                  (par >= AST_BLOCK_X && par <= AST_THREAD_Z));
}

/* The loops under s iterating over iter, counted into *n. */
static void pr_count_iter(const ast_stmt *s, const char *iter, int *n)
{
    if (!s)
        return;
    if (s->kind == AST_FOR && strcmp(s->u.loop.iter, iter) == 0)
        (*n)++;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            pr_count_iter(s->u.seq.stmts[i], iter, n);
        break;
    case AST_VARDEF: pr_count_iter(s->u.def.body, iter, n); break;
    case AST_FOR: pr_count_iter(s->u.loop.body, iter, n); break;
    case AST_IF:
        pr_count_iter(s->u.branch.then, iter, n);
        pr_count_iter(s->u.branch.other, iter, n);
        break;
    default: break;
    }
}

/* A label for each unlabelled scheduled loop under s whose iterator names
 * another loop too, or is another statement's label. */
static void pr_schedule_labels(pr *P, const ast_stmt *s)
{
    if (pr_scheduled(s) && !pr_label_of(P, s)) {
        int n = 0;
        pr_count_iter(P->f->body, s->u.loop.iter, &n);
        if (n > 1 || pr_label_taken(P, s->u.loop.iter)) {
            const char *base = pr_own(P, "L", s->u.loop.iter);
            pr_set_label(P, s, pr_is_used(P, base) ? pr_fresh(P, base) : base);
            pr_use(P, base);
        }
    }
    pr_each_kid(P, s, pr_schedule_labels);
}

static void pr_free(pr *P)
{
    for (int i = 0; i < P->nowned; i++)
        free(P->owned[i]);
    free(P->owned);
    free(P->used);
    free(P->labels);
    free(P->scopes);
}

/* Push the AST name ast, printed as shown; returns its index. */
static int pr_push(pr *P, const char *ast, const char *shown)
{
    pr_grow((void **)&P->scopes, &P->capscopes, P->nscopes + 1, sizeof *P->scopes);
    P->scopes[P->nscopes] = (pr_scope){ast, shown, 1};
    return P->nscopes++;
}

/* Whether a `var name` printed here would redeclare or shadow a name
 * visible here (a parameter, an iterator, an earlier `var`). */
static int pr_visible(const pr *P, const char *name)
{
    for (int i = 0; i < P->nscopes; i++)
        if (strcmp(P->scopes[i].shown, name) == 0)
            return 1;
    for (int i = 0; i < P->f->nparams; i++)
        if (strcmp(P->f->params[i].name, name) == 0)
            return 1;
    for (int i = 0; i < P->f->nregions; i++)
        if (strcmp(P->f->regions[i].name, name) == 0)
            return 1;
    return 0;
}

/* The printed name of the tensor var here. */
static const char *pr_tensor(const pr *P, const char *var)
{
    for (int i = P->nscopes - 1; i >= 0; i--)
        if (P->scopes[i].live && strcmp(P->scopes[i].ast, var) == 0)
            return P->scopes[i].shown;
    return var;
}

static void pr_expr(pr *P, const ast_expr *e);

/* Print n chars of s escaped as in a .ft string. */
static void print_str_chars(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        switch (s[i]) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        default: fputc(s[i], out);
        }
}

/* Print `, "text {} ...", v, ...`: assert s's message (ast.h, ast_stmt.msg)
 * as it is written, each side marker a `{}` whose value is that side of the
 * condition (the side's text as a string where the condition is no longer
 * a comparison), and a `{}` of the text a `{}` whose value is "{}". */
static void print_assert_msg(pr *P, const ast_stmt *s)
{
    const ast_expr *c = s->u.cond;
    int cmp = c->kind == AST_BINARY && c->u.bin.op >= AST_LT && c->u.bin.op <= AST_NE;
    fputs(", \"", P->out);
    for (const char *p = s->msg; *p; p++) {
        const char *end = *p == '\x01' ? strchr(p, '\x02') : NULL;
        if (end || (p[0] == '{' && p[1] == '}')) {
            fputs("{}", P->out);
            p = end ? end : p + 1;
        } else {
            print_str_chars(P->out, p, 1);
        }
    }
    fputc('"', P->out);
    for (const char *p = s->msg; *p; p++) {
        const char *end = *p == '\x01' ? strchr(p, '\x02') : NULL;
        if (end && cmp) {
            fputs(", ", P->out);
            pr_expr(P, p[1] == '0' ? c->u.bin.a : c->u.bin.b);
        } else if (end || (p[0] == '{' && p[1] == '}')) {
            fputs(", \"", P->out);
            if (end)
                print_str_chars(P->out, p + 2, (size_t)(end - p - 2));
            else
                fputs("{}", P->out);
            fputc('"', P->out);
        }
        if (end || (p[0] == '{' && p[1] == '}'))
            p = end ? end : p + 1;
    }
}
static void pr_stmt(pr *P, const ast_stmt *s, int indent);

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
static void print_sub(pr *P, const ast_expr *e, int min_prec)
{
    FILE *out = P->out;
    int paren = expr_prec(e) < min_prec;
    if (paren)
        fputc('(', out);
    pr_expr(P, e);
    if (paren)
        fputc(')', out);
}

/* Print a comma-separated list of expressions. */
static void print_list(pr *P, int n, ast_expr **es)
{
    FILE *out = P->out;
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        pr_expr(P, es[i]);
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
static void print_access(pr *P, const char *var, int n, ast_expr **idx)
{
    FILE *out = P->out;
    fputs(pr_tensor(P, var), out);
    if (n == 0)
        return;
    fputc('[', out);
    print_list(P, n, idx);
    fputc(']', out);
}

static void print_binary(pr *P, const ast_expr *e)
{
    FILE *out = P->out;
    ast_binop op = e->u.bin.op;
    if (op == AST_MIN || op == AST_MAX) {
        fprintf(out, "%s(", ast_binop_text(op));
        pr_expr(P, e->u.bin.a);
        fputs(", ", out);
        pr_expr(P, e->u.bin.b);
        fputc(')', out);
        return;
    }
    int p = binop_prec(op);
    /* left-associative, except ** (right) and comparisons (not chainable) */
    int lmin = op == AST_POW || p == PREC_CMP ? p + 1 : p;
    int rmin = op == AST_POW ? PREC_UNARY : p + 1;
    print_sub(P, e->u.bin.a, lmin);
    fprintf(out, " %s ", ast_binop_text(op));
    print_sub(P, e->u.bin.b, rmin);
}

static void pr_expr(pr *P, const ast_expr *e)
{
    FILE *out = P->out;
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
    case AST_LOAD: print_access(P, e->u.load.var, e->u.load.n, e->u.load.idx); break;
    case AST_BINARY: print_binary(P, e); break;
    case AST_UNARY:
        fputs(e->u.un.op == AST_NOT ? "not " : "-", out);
        print_sub(P, e->u.un.a, e->u.un.op == AST_NOT ? PREC_NOT : PREC_UNARY);
        break;
    case AST_CALL:
        fprintf(out, "%s(", ast_builtin_name(e->u.call.f));
        print_list(P, e->u.call.n, e->u.call.args);
        fputc(')', out);
        break;
    case AST_CAST:
        fprintf(out, "%s(", ft_dtype_name(e->dtype));
        pr_expr(P, e->u.cast.a);
        fputc(')', out);
        break;
    case AST_IFEXPR:
        print_sub(P, e->u.ife.then, PREC_IFEXPR + 1);
        fputs(" if ", out);
        print_sub(P, e->u.ife.cond, PREC_IFEXPR + 1);
        fputs(" else ", out);
        print_sub(P, e->u.ife.other, PREC_IFEXPR);
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
static void print_type(pr *P, ft_dtype t, int ndim, ast_expr **shape, ft_mtype mt,
                       const char *access)
{
    FILE *out = P->out;
    fputs(ft_dtype_name(t), out);
    if (ndim) {
        fputc('[', out);
        print_list(P, ndim, shape);
        fputc(']', out);
    }
    if (access)
        fprintf(out, " %s", access);
    if (mt != FT_MT_CPU)
        fprintf(out, " @ %s", ft_mtype_name(mt));
}

/* `range(end)`, `range(begin, end)` or `range(begin, end, step)`. */
static void print_range(pr *P, const ast_stmt *s)
{
    FILE *out = P->out;
    const ast_expr *b = s->u.loop.begin, *st = s->u.loop.step;
    int unit_step = st->kind == AST_INT && st->u.ival == 1;
    fputs("range(", out);
    if (!(unit_step && b->kind == AST_INT && b->u.ival == 0)) {
        pr_expr(P, b);
        fputs(", ", out);
    }
    pr_expr(P, s->u.loop.end);
    if (!unit_step) {
        fputs(", ", out);
        pr_expr(P, st);
    }
    fputc(')', out);
}

/* Print the statements of a body one level deeper (`pass` when empty). */
static void print_body(pr *P, const ast_stmt *s, int indent)
{
    FILE *out = P->out;
    if (!s || (s->kind == AST_SEQ && s->u.seq.n == 0 && !s->label)) {
        indent_to(out, indent);
        fputs("pass\n", out);
        return;
    }
    int height = P->nscopes;     /* the block's `var`s end with it */
    pr_stmt(P, s, indent);
    P->nscopes = height;
}

/* `var t: TYPE` and what follows in t's scope (t printed under a fresh name
 * when that name is visible here). */
static void print_vardef(pr *P, const ast_stmt *s, int indent)
{
    FILE *out = P->out;
    const char *shown = s->u.def.name;
    if (P->f && pr_visible(P, shown))
        shown = pr_fresh(P, shown);
    fprintf(out, "var %s: ", shown);
    print_type(P, s->u.def.dtype, s->u.def.ndim, s->u.def.shape, s->u.def.mtype, NULL);
    fputc('\n', out);
    int at = P->f ? pr_push(P, s->u.def.name, shown) : -1;
    if (s->u.def.body)
        pr_stmt(P, s->u.def.body, indent);
    if (at >= 0)
        P->scopes[at].live = 0;       /* visible to the end of the block */
}

static void print_if(pr *P, const ast_stmt *s, int indent)
{
    FILE *out = P->out;
    fputs("if ", out);
    pr_expr(P, s->u.branch.cond);
    fputs(":\n", out);
    print_body(P, s->u.branch.then, indent + 1);
    const ast_stmt *o = s->u.branch.other;
    if (!o)
        return;
    indent_to(out, indent);
    if (o->kind == AST_IF && !o->label) {
        fputs("el", out);
        print_if(P, o, indent);
        return;
    }
    fputs("else:\n", out);
    print_body(P, o, indent + 1);
}

/* Print a reduction as `+=`/`*=` or as `x = min(x, e)`. */
static void print_reduce(pr *P, const ast_stmt *s)
{
    FILE *out = P->out;
    print_access(P, s->u.red.var, s->u.red.n, s->u.red.idx);
    if (s->u.red.op == AST_RED_ADD || s->u.red.op == AST_RED_MUL) {
        fputs(s->u.red.op == AST_RED_ADD ? " += " : " *= ", out);
    } else {
        fprintf(out, " = %s(", s->u.red.op == AST_RED_MIN ? "min" : "max");
        print_access(P, s->u.red.var, s->u.red.n, s->u.red.idx);
        fputs(", ", out);
        pr_expr(P, s->u.red.value);
        fputs(")\n", out);
        return;
    }
    pr_expr(P, s->u.red.value);
    fputc('\n', out);
}

static void pr_stmt(pr *P, const ast_stmt *s, int indent)
{
    FILE *out = P->out;
    if (s->kind == AST_SEQ && !s->label) {
        for (int i = 0; i < s->u.seq.n; i++)
            pr_stmt(P, s->u.seq.stmts[i], indent);
        return;
    }
    indent_to(out, indent);
    const char *label = pr_label_of(P, s);
    if (label)
        fprintf(out, "%s: ", label);
    switch (s->kind) {
    case AST_SEQ:    /* a labelled sequence: keep it a unit under `if True` */
        fputs("if True:\n", out);
        print_body(P, &(ast_stmt){.kind = AST_SEQ, .u.seq = s->u.seq}, indent + 1);
        break;
    case AST_VARDEF: print_vardef(P, s, indent); break;
    case AST_FOR: {
        fprintf(out, "for %s in ", s->u.loop.iter);
        print_range(P, s);
        fputs(":\n", out);
        int height = P->nscopes;
        if (P->f)
            pr_push(P, s->u.loop.iter, s->u.loop.iter);
        print_body(P, s->u.loop.body, indent + 1);
        P->nscopes = height;
        break;
    }
    case AST_IF: print_if(P, s, indent); break;
    case AST_STORE:
        print_access(P, s->u.store.var, s->u.store.n, s->u.store.idx);
        fputs(" = ", out);
        pr_expr(P, s->u.store.value);
        fputc('\n', out);
        break;
    case AST_REDUCE: print_reduce(P, s); break;
    case AST_ASSERT:
        fputs("assert ", out);
        pr_expr(P, s->u.cond);
        if (s->msg)
            print_assert_msg(P, s);
        fputc('\n', out);
        break;
    case AST_EVAL:
        pr_expr(P, s->u.expr);
        fputc('\n', out);
        break;
    }
}

/* ------------------------------------------------------------- functions */

static void print_param(pr *P, const ast_param *p)
{
    FILE *out = P->out;
    fprintf(out, "%s: ", p->name);
    if (p->is_size) {
        fputs("size", out);
        return;
    }
    print_type(P, p->dtype, p->ndim, p->shape, p->mtype, ft_access_name(p->access));
}

/* Print `parallelize(L, openmp)`, `parallelize(L, blockIdx.x)` (and the
 * other CUDA indices), `vectorize(L)` or `as_lib(L)` for every loop under s
 * marked so. */
static void print_parallel_loops(pr *P, const ast_stmt *s, int *any, const char *fname)
{
    FILE *out = P->out;
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            print_parallel_loops(P, s->u.seq.stmts[i], any, fname);
        break;
    case AST_VARDEF: print_parallel_loops(P, s->u.def.body, any, fname); break;
    case AST_IF:
        print_parallel_loops(P, s->u.branch.then, any, fname);
        print_parallel_loops(P, s->u.branch.other, any, fname);
        break;
    case AST_FOR:
        if (s->u.loop.par == AST_OPENMP || s->u.loop.par == AST_VECTORIZE ||
            s->u.loop.par == AST_LIB ||
            (s->u.loop.par >= AST_BLOCK_X && s->u.loop.par <= AST_THREAD_Z)) {
            if (!*any)
                fprintf(out, "\nschedule %s:\n", fname);
            *any = 1;
            const char *label = pr_label_of(P, s);
            const char *name = label ? label : s->u.loop.iter;
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
        print_parallel_loops(P, s->u.loop.body, any, fname);
        break;
    default: break;
    }
}

void ast_print_expr(FILE *out, const ast_expr *e)
{
    pr P = {.out = out};
    pr_expr(&P, e);
}

void ast_print_stmt(FILE *out, const ast_stmt *s, int indent)
{
    pr P = {.out = out};
    pr_stmt(&P, s, indent);
}

/* The function's text, with the names P chose. */
static void print_function(pr *P, const ast_func *f)
{
    FILE *out = P->out;
    fprintf(out, "export func %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        if (i)
            fputs(", ", out);
        print_param(P, &f->params[i]);
    }
    for (int i = 0; i < f->nregions; i++) {     /* as parameters: valid source */
        fputs(", ", out);
        print_param(P, &f->regions[i]);
    }
    fputs("):\n", out);
    print_body(P, f->body, 1);
    int any = 0;
    print_parallel_loops(P, f->body, &any, f->name);
}

void ast_print_func(FILE *out, const ast_func *f)
{
    pr P = {.out = out, .f = f};
    for (int i = 0; i < f->nparams; i++)
        pr_use(&P, f->params[i].name);
    for (int i = 0; i < f->nregions; i++)
        pr_use(&P, f->regions[i].name);
    pr_collect(&P, f->body);
    pr_user_labels(&P, f->body);
    pr_named_labels(&P, f->body);
    pr_schedule_labels(&P, f->body);
    print_function(&P, f);
    pr_free(&P);
}

void ast_print_program(FILE *out, const ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        if (i)
            fputc('\n', out);
        ast_print_func(out, p->funcs[i]);
    }
}
