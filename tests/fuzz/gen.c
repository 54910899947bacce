/* gen.c - a grammar-based generator of valid .ft programs, driven by the
 * fuzzer's bytes as a choice stream (fz.h), for harness (b).
 *
 * Every program is one exported function over fixed parameters (sizes n,
 * m; inputs x[n], w[m], idx[n] (indices), a[n, m], b[m, m]; outputs y[n],
 * z[m], 0-D s, q[n, m]; inout v[n]), maybe a helper function it calls and
 * a constant, some parameters with a `layout` clause, with a body drawn
 * from the grammar below: loops with
 * symbolic, strided, reversed, triangular and constant bounds, branches on
 * data and on indices, gathers and scatters through idx, reductions into
 * 0-D and tensor accumulators, 0-D and tensor locals, tensor-level
 * statements and stdlib calls (matmul, softmax, sum, reduce_max, relu...),
 * time loops around loops; then maybe a `schedule` block of primitives on
 * its labelled loops and statements (split, reorder, fuse, merge, fission,
 * swap, move_to, cache, parallelize, vectorize, unroll, auto) and maybe a
 * `grad` line.  Sizes are bounded (statements, nesting, expression depth)
 * so that a program is a few dozen lines at most.  Schedule lines may be
 * refused: a refusal is a located error, which the harness accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz.h"

enum { GEN_MAX_LOOPS = 24, GEN_MAX_STMTS = 24, GEN_MAX_NAMES = 16 };

/* What iterators a statement sees: bit 1 i (over n), bit 2 j (over m). */
enum { CX_I = 1, CX_J = 2 };

/* A labelled loop the schedule may name. */
typedef struct gen_loop {
    int label;        /* L<label> */
    int parent;       /* index of the enclosing loop, -1 at top */
    int top;          /* directly in the function's body */
} gen_loop;

/* The state of one program's generation. */
typedef struct gen {
    fz_stream *s;
    FILE *o;
    int next;                           /* names L1, S2, t3, ... */
    gen_loop loops[GEN_MAX_LOOPS];
    int nloops;
    int stmts[GEN_MAX_STMTS];           /* labels of labelled statements */
    int nstmts;
    char scal[GEN_MAX_NAMES][16];       /* 0-D locals readable at top level */
    int nscal;
    char vecs[GEN_MAX_NAMES][16];       /* f32[n] locals readable at top level */
    int nvecs;
    int budget;                         /* statements left */
    int helper;                         /* `func h(u, c)` is defined */
    int cur_loop;                       /* index of the innermost loop, -1 */
} gen;

/* Print indentation for nesting depth d (the body is depth 1). */
static void gen_indent(gen *g, int d)
{
    for (int k = 0; k < d; k++)
        fputs("    ", g->o);
}

/* One of n strings, chosen by the stream. */
static const char *gen_one(gen *g, const char *const *opts, unsigned n)
{
    return opts[fz_pick(g->s, n)];
}

/* A leaf expression readable in context cx. */
static void gen_leaf(gen *g, int cx)
{
    static const char *const consts[] = {"0.5", "2", "1.5", "0.25", "3", "1e-3", "-1"};
    static const char *const ti[] = {"x[i]", "y[i]", "v[i]", "w[idx[i]]", "w[i % m]",
                                     "x[n - 1 - i]", "x[i] * 0.5"};
    static const char *const tj[] = {"w[j]", "z[j]", "b[j, j]", "w[m - 1 - j]"};
    static const char *const tij[] = {"a[i, j]", "q[i, j]", "b[idx[i] % m, j]",
                                      "a[i, m - 1 - j]"};
    unsigned k = fz_pick(g->s, 8);
    if (k == 0 || cx == 0) {
        if (g->nscal && fz_chance(g->s, 2))
            fputs(g->scal[fz_pick(g->s, (unsigned)g->nscal)], g->o);
        else
            fputs(gen_one(g, consts, 7), g->o);
    } else if ((cx & CX_I) && g->nvecs && k == 1)
        fprintf(g->o, "%s[i]", g->vecs[fz_pick(g->s, (unsigned)g->nvecs)]);
    else if (cx == (CX_I | CX_J) && k < 4)
        fputs(gen_one(g, tij, 4), g->o);
    else if (cx & CX_I && (cx == CX_I || k < 6))
        fputs(gen_one(g, ti, 7), g->o);
    else
        fputs(gen_one(g, tj, 4), g->o);
}

/* A float expression of depth at most d in context cx. */
static void gen_expr(gen *g, int cx, int d)
{
    static const char *const un[] = {"sin", "cos", "tanh", "exp", "abs", "sqrt", "sigmoid",
                                     "square", "ln", "tan", "erf", "log1p", "expm1"};
    static const char *const bin[] = {" + ", " - ", " * ", " / "};
    unsigned k = d <= 0 ? 0 : fz_pick(g->s, 10);
    switch (k) {
    case 0: case 1: case 2:
        gen_leaf(g, cx);
        return;
    case 3: case 4:
        fprintf(g->o, "%s(", gen_one(g, un, 13));
        gen_expr(g, cx, d - 1);
        fputc(')', g->o);
        return;
    case 5:
        fputs(fz_chance(g->s, 2) ? "max(" : "min(", g->o);
        gen_expr(g, cx, d - 1);
        fputs(", ", g->o);
        gen_expr(g, cx, d - 1);
        fputc(')', g->o);
        return;
    case 6:
        fputc('(', g->o);
        gen_expr(g, cx, d - 1);
        fputs(" if ", g->o);
        gen_expr(g, cx, d - 1);
        fputs(fz_chance(g->s, 2) ? " > 0 else " : " < 0.5 else ", g->o);
        gen_expr(g, cx, d - 1);
        fputc(')', g->o);
        return;
    case 7:
        if (g->helper) {
            fputs("h(", g->o);
            gen_expr(g, cx, d - 1);
            fputs(", ", g->o);
            gen_leaf(g, 0);
            fputc(')', g->o);
            return;
        }
        /* fall through */
    default:
        fputc('(', g->o);
        gen_expr(g, cx, d - 1);
        fputs(gen_one(g, bin, 4), g->o);
        gen_expr(g, cx, d - 1);
        fputc(')', g->o);
        return;
    }
}

/* A condition in context cx (for `if`). */
static void gen_cond(gen *g, int cx)
{
    if ((cx & CX_I) && fz_chance(g->s, 2)) {
        fprintf(g->o, "i %% %u == 0", 2 + fz_pick(g->s, 3));
        return;
    }
    gen_expr(g, cx, 2);
    fputs(fz_chance(g->s, 2) ? " > 0" : " <= 0.25", g->o);
}

/* A fresh name number. */
static int gen_fresh(gen *g)
{
    return ++g->next;
}

/* Print "S<k>: " before a statement the schedule may name (sometimes). */
static void gen_stmt_label(gen *g)
{
    if (g->nstmts < GEN_MAX_STMTS && fz_chance(g->s, 3)) {
        int k = gen_fresh(g);
        g->stmts[g->nstmts++] = k;
        fprintf(g->o, "S%d: ", k);
    }
}

static void gen_block(gen *g, int cx, int d, int nmax);

/* Open a labelled loop `L<k>: for IT in range(...)` at depth d over
 * iterator it ('i', 'j', 't', 'u') and generate its body in context
 * cx.  Bounds: symbolic, offset, strided, reversed, triangular, constant. */
static void gen_loop_stmt(gen *g, int cx, int d, char it, int body_cx)
{
    static const char *const ri[] = {"n", "1, n - 1", "0, n, 2", "n - 1, -1, -1", "n, 0, -3",
                                     "2, n"};
    static const char *const rj[] = {"m", "1, m", "0, m, 3", "m - 1, -1, -1", "min(i, m)",
                                     "min(i, m), m"};
    int parent = g->cur_loop, me = -1;
    gen_indent(g, d);
    if (g->nloops < GEN_MAX_LOOPS) {
        me = g->nloops++;
        g->loops[me] = (gen_loop){gen_fresh(g), parent, d == 1};
        fprintf(g->o, "L%d: ", g->loops[me].label);
    }
    if (it == 'i')
        fprintf(g->o, "for i in range(%s):\n", gen_one(g, ri, 6));
    else if (it == 'j')
        fprintf(g->o, "for j in range(%s):\n", gen_one(g, rj, (cx & CX_I) ? 6 : 4));
    else
        fprintf(g->o, "for %c in range(%s):\n", it, fz_chance(g->s, 2) ? "3" : "K");
    g->cur_loop = me;
    gen_block(g, body_cx, d + 1, 3);
    g->cur_loop = parent;
}

/* An element assignment in context cx (an i loop, a j loop or both). */
static void gen_assign(gen *g, int cx, int d)
{
    static const char *const ti[] = {"y[i] = ", "y[i] += ", "v[i] = v[i] * ", "z[idx[i]] += ",
                                     "s += ", "y[n - 1 - i] = ", "z[i % m] -= "};
    static const char *const tj[] = {"z[j] = ", "z[j] += ", "s += "};
    static const char *const tij[] = {"q[i, j] = ", "q[i, j] += ", "y[i] += ", "z[j] += ",
                                      "q[i, idx[i] % m] += "};
    gen_indent(g, d);
    gen_stmt_label(g);
    if (cx == (CX_I | CX_J))
        fputs(gen_one(g, tij, 5), g->o);
    else if (cx == CX_I) {
        if (g->nvecs && fz_chance(g->s, 4))
            fprintf(g->o, "%s[i] = ", g->vecs[fz_pick(g->s, (unsigned)g->nvecs)]);
        else if (fz_chance(g->s, 8)) {      /* a running max */
            fputs("s = max(s, ", g->o);
            gen_expr(g, cx, 2);
            fputs(")\n", g->o);
            return;
        } else
            fputs(gen_one(g, ti, 7), g->o);
    } else
        fputs(gen_one(g, tj, 3), g->o);
    gen_expr(g, cx, 3);
    fputc('\n', g->o);
}

/* A tensor-level statement at top level (stdlib calls, broadcasting). */
static void gen_tensor_stmt(gen *g, int d)
{
    static const char *const ops[] = {
        "y = sin(x) * 2 + x", "z = w * tanh(w)", "s = sum(x)", "q = matmul(a, b)",
        "q = softmax(a, -1)", "y = sum(a, 1)", "z = reduce_max(a, 0)",
        "q = relu(a) * 0.5 + a", "y = x * x + v", "z = w + sum(b, 0)", "s = reduce_max(w)",
        "q = a * w", "y = exp(x) / (1 + exp(x))", "v = v + 0.5 * sigmoid(x)",
        "q = matmul(a, b) + a", "z = prod(b, 1)", "s = sum(matmul(a, b))"};
    gen_indent(g, d);
    gen_stmt_label(g);
    fprintf(g->o, "%s\n", gen_one(g, ops, 17));
}

/* A local at top level: a 0-D accumulator over a loop, a tensor local
 * filled element-wise, or a tensor value (`var t = exp(x)`). */
static void gen_local(gen *g, int d)
{
    int k = gen_fresh(g);
    unsigned what = fz_pick(g->s, 3);
    if (what == 0 && g->nscal < GEN_MAX_NAMES) {
        gen_indent(g, d);
        fprintf(g->o, "var c%d: f32 = 0\n", k);
        gen_indent(g, d);
        fprintf(g->o, "for i in range(n):\n");
        gen_indent(g, d + 1);
        fprintf(g->o, "c%d += ", k);
        gen_expr(g, CX_I, 2);
        fputc('\n', g->o);
        snprintf(g->scal[g->nscal++], sizeof g->scal[0], "c%d", k);
    } else if (what == 1 && g->nvecs < GEN_MAX_NAMES) {
        gen_indent(g, d);
        fprintf(g->o, "T%d: var t%d: f32[n]\n", k, k);
        gen_indent(g, d);
        fprintf(g->o, "for i in range(n):\n");
        gen_indent(g, d + 1);
        fprintf(g->o, "t%d[i] = ", k);
        gen_expr(g, CX_I, 2);
        fputc('\n', g->o);
        snprintf(g->vecs[g->nvecs++], sizeof g->vecs[0], "t%d", k);
    } else if (g->nvecs < GEN_MAX_NAMES) {
        gen_indent(g, d);
        fprintf(g->o, "var t%d = %s\n", k,
                fz_chance(g->s, 2) ? "exp(x) * 0.5" : "x + sum(a, 1)");
        snprintf(g->vecs[g->nvecs++], sizeof g->vecs[0], "t%d", k);
    }
}

/* An `if` on data or indices, with an optional `else`. */
static void gen_if(gen *g, int cx, int d)
{
    gen_indent(g, d);
    fputs("if ", g->o);
    gen_cond(g, cx);
    fputs(":\n", g->o);
    gen_block(g, cx, d + 1, 2);
    if (fz_chance(g->s, 2)) {
        gen_indent(g, d);
        fputs("else:\n", g->o);
        gen_block(g, cx, d + 1, 2);
    }
}

/* One statement in context cx at depth d. */
static void gen_stmt(gen *g, int cx, int d)
{
    g->budget--;
    unsigned k = fz_pick(g->s, 8);
    int deep = d >= 4 || g->budget <= 0;
    if (cx == 0) {
        if (k < 3 && !deep)
            gen_loop_stmt(g, cx, d, 'i', CX_I);
        else if (k == 3 && !deep)
            gen_loop_stmt(g, cx, d, 'j', CX_J);
        else if (k == 4 && !deep)
            gen_loop_stmt(g, cx, d, fz_chance(g->s, 2) ? 't' : 'u', 0);
        else if (k == 5 && d == 1)
            gen_local(g, d);
        else
            gen_tensor_stmt(g, d);
        return;
    }
    if (k == 0 && cx == CX_I && !deep)
        gen_loop_stmt(g, cx, d, 'j', CX_I | CX_J);
    else if (k == 1 && !deep)
        gen_if(g, cx, d);
    else if (k == 2 && cx == CX_I && !deep && fz_chance(g->s, 2)) {
        int t = gen_fresh(g);               /* a 0-D local in the loop */
        gen_indent(g, d);
        fprintf(g->o, "var e%d: f32 = ", t);
        gen_expr(g, cx, 2);
        fputc('\n', g->o);
        gen_indent(g, d);
        fprintf(g->o, "y[i] = e%d * ", t);
        gen_expr(g, cx, 1);
        fputc('\n', g->o);
    } else
        gen_assign(g, cx, d);
}

/* A block of 1 to nmax statements at depth d. */
static void gen_block(gen *g, int cx, int d, int nmax)
{
    int n = 1 + (int)fz_pick(g->s, (unsigned)nmax);
    for (int k = 0; k < n; k++)
        gen_stmt(g, cx, d);
}

/* A loop label chosen by the stream (some loop), or 0 if none. */
static int gen_pick_loop(gen *g, int *idx)
{
    if (!g->nloops)
        return 0;
    *idx = (int)fz_pick(g->s, (unsigned)g->nloops);
    return g->loops[*idx].label;
}

/* One schedule line naming the program's loops and statements. */
static void gen_sched_line(gen *g)
{
    int li = 0, lj = 0;
    int l = gen_pick_loop(g, &li);
    if (!l) {
        fputs("    auto\n", g->o);
        return;
    }
    int l2 = gen_pick_loop(g, &lj);
    int st = g->nstmts ? g->stmts[fz_pick(g->s, (unsigned)g->nstmts)] : 0;
    int p = g->loops[li].parent >= 0 ? g->loops[g->loops[li].parent].label : l2;
    int k = gen_fresh(g);
    switch (fz_pick(g->s, 14)) {
    case 0: fprintf(g->o, "    parallelize(L%d, openmp)\n", l); break;
    case 1: fprintf(g->o, "    vectorize(L%d)\n", l); break;
    case 2: fprintf(g->o, "    unroll(L%d)\n", l); break;
    case 3: fprintf(g->o, "    o%d, i%d = split(L%d, %u)\n", k, k, l, 2 + fz_pick(g->s, 63)); break;
    case 4: fprintf(g->o, "    split(L%d, nparts=%u)\n", l, 1 + fz_pick(g->s, 4)); break;
    case 5: fprintf(g->o, "    reorder(L%d, L%d)\n", l, p); break;
    case 6: fprintf(g->o, "    reorder(L%d, L%d)\n", p, l); break;
    case 7: fprintf(g->o, "    fuse(L%d, L%d)\n", l, l2); break;
    case 8: fprintf(g->o, "    m%d = merge(L%d, L%d)\n", k, p, l); break;
    case 9:
        if (st) {
            fprintf(g->o, "    f%d, h%d = fission(L%d, %s=S%d)\n", k, k, l,
                    fz_chance(g->s, 2) ? "after" : "before", st);
            break;
        }
        /* fall through */
    case 10:
        if (st) {
            fprintf(g->o, "    move_to(S%d, %s=L%d)\n", st, fz_chance(g->s, 2) ? "before" : "after",
                    l);
            break;
        }
        /* fall through */
    case 11:
        fprintf(g->o, "    cache(L%d, %s, cpu)\n", l, fz_chance(g->s, 2) ? "x" : "y");
        break;
    case 12:
        if (g->nstmts >= 2) {
            fprintf(g->o, "    swap(S%d, S%d)\n", g->stmts[0], g->stmts[1]);
            break;
        }
        /* fall through */
    default: fputs("    auto\n", g->o); break;
    }
}

/* A `layout` clause for a parameter of rank 1 or 2, often none: permuted,
 * blocked (padded when the size is not a multiple), several blocks. */
static const char *gen_layout(fz_stream *s, int rank)
{
    static const char *const one[] = {" layout \"N->N4n\"", " layout \"N->N2n3n\""};
    static const char *const two[] = {" layout \"NM->MN\"", " layout \"NM->NM4m\"",
                                      " layout \"NM->MN2n\"", " layout \"NM->M2mN3n\""};
    if (fz_pick(s, 3) != 2)     /* exhausted bytes pick 0: no clause */
        return "";
    return rank == 1 ? one[fz_pick(s, 2)] : two[fz_pick(s, 4)];
}

char *fz_gen_program(fz_stream *s)
{
    char *text = NULL;
    size_t len = 0;
    gen g = {.s = s, .cur_loop = -1, .budget = 4 + (int)fz_pick(s, 12)};
    g.o = open_memstream(&text, &len);
    if (!g.o)
        abort();
    fprintf(g.o, "const K = %u\n\n", 1 + fz_pick(s, 6));
    if ((g.helper = fz_chance(s, 2)))
        fputs("func h(u, c):\n    return u * c + sin(u)\n\n", g.o);
    fprintf(g.o, "export func f(n: size, m: size, x: f32[n] in%s, w: f32[m] in, idx: i32[n] in,\n"
            "             a: f32[n, m] in%s, b: f32[m, m] in%s, y: f32[n] out, z: f32[m] out,\n"
            "             s: f32 out, q: f32[n, m] out%s, v: f32[n] inout%s):\n",
            gen_layout(s, 1), gen_layout(s, 2), gen_layout(s, 2), gen_layout(s, 2),
            gen_layout(s, 1));
    while (g.budget > 0)
        gen_stmt(&g, 0, 1);
    unsigned nsched = fz_pick(s, 5);
    if (nsched) {
        fputs("\nschedule f:\n", g.o);
        for (unsigned k = 0; k < nsched; k++)
            gen_sched_line(&g);
    }
    if (fz_chance(s, 2)) {
        static const char *const wrt[] = {"x", "x, w", "a, b", "x, w, a, b, v", "w"};
        static const char *const tape[] = {"", " tape all", " tape none", " tape auto"};
        fprintf(g.o, "\ngrad f wrt %s%s -> f_grad\n", wrt[fz_pick(s, 5)], tape[fz_pick(s, 4)]);
    }
    fclose(g.o);
    return text;
}
