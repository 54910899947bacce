/* cg_transpose.c - a loop nest that copies a tensor transposed, emitted as
 * one call of a blocked transpose helper.
 *
 * A tuned convolution packs its weights per call: `cache` + `var_reorder`
 * give w[o, c, kh, kw] the layout [c, kh, kw, o] (a vector of output
 * channels per tap), a copy nest whose reads run along one dimension and
 * whose writes run along another.  The C compiler emits it element by
 * element (a scalar load, a scalar store 128 bytes away): ResNet-18's
 * 512-channel layer spent ~45% of its time there.  As a 2-D transpose it
 * goes 16 x 16 elements at a time, in registers (AVX-512) or in a blocked
 * scalar loop (any other target: still one cache line per 16 elements).
 *
 * The nest matched: perfect loops, each from 0 by 1 to a literal end
 * (serial or vectorized; the outermost may be OpenMP), around one
 * `D[...] = S[...]` of one float dtype (D and S distinct tensors of
 * literal shapes, indices affine in the loops and in `i // K`, `i % K` of
 * a loop i whose trip count K divides: a split layout's block and lane,
 * no loads).  Its dimensions (the loops, a divided loop's quotient and
 * remainder apart) split into two chains: those along which S is
 * contiguous (strides 1, n1, n1 * n2, ... in S, the same times lda in D)
 * and those along which D is (strides 1, m1, ... in D, times lds in S), so
 * that the nest is
 *
 *     for a < na, b < nb:   D0[a * lda + b] = S0[b * lds + a]
 *
 * with lds >= na, D0 and S0 the elements at the chains' first iteration;
 * the loops of the dimensions in neither chain (batch loops: an unchanged
 * dimension between, the blocks of a split layout) run around it, and no
 * element of D is written twice (the copies may run in any order).
 */
#include "cg.h"

#include <string.h>

#include "../analysis/bounds.h"
#include "../transforms/xf_util.h"

enum { CG_TR_MAX_LOOPS = 8 };

/* The body of s when it is one statement (through one-item sequences). */
static const ast_stmt *only(const ast_stmt *s)
{
    while (s && s->kind == AST_SEQ && s->u.seq.n == 1)
        s = s->u.seq.stmts[0];
    return s;
}

/* Whether loop l (the nest's outermost when outer) runs its iterator from
 * 0 by 1 to a literal end, serial, vectorized or, the outermost, OpenMP;
 * that end in *n. */
static int plain_loop(const ast_stmt *l, int outer, int64_t *n)
{
    const ast_expr *b = l->u.loop.begin, *e = l->u.loop.end, *st = l->u.loop.step;
    if (l->u.loop.par != AST_SERIAL && l->u.loop.par != AST_VECTORIZE &&
        !(outer && l->u.loop.par == AST_OPENMP))
        return 0;
    if (b->kind != AST_INT || b->u.ival != 0 || e->kind != AST_INT || e->u.ival < 1 ||
        (st && (st->kind != AST_INT || st->u.ival != 1)))
        return 0;
    *n = e->u.ival;
    return 1;
}

/* The nest's loops, a loop i that the indices divide (`i // K`, `i % K`:
 * a split layout's block and lane) seen as two dimensions, its quotient
 * and its remainder. */
typedef struct tr_nest {
    int nl, nd;
    const ast_stmt *loops[CG_TR_MAX_LOOPS];
    int64_t trips[CG_TR_MAX_LOOPS], k[CG_TR_MAX_LOOPS];      /* k: divisor, 1: none */
    int loop[2 * CG_TR_MAX_LOOPS];                             /* of each dimension */
    int part[2 * CG_TR_MAX_LOOPS];                  /* 0 whole, 1 quotient, 2 remainder */
    int64_t n[2 * CG_TR_MAX_LOOPS];                            /* its iterations */
} tr_nest;

/* The loop of nest t whose iterator e is (an AST_VAR), or -1. */
static int loop_of(const tr_nest *t, const ast_expr *e)
{
    for (int j = 0; e->kind == AST_VAR && j < t->nl; j++)
        if (strcmp(e->u.name, t->loops[j]->u.loop.iter) == 0)
            return j;
    return -1;
}

/* For atom a = `i // K` or `i % K` (i a loop of t, K a literal > 1): i's
 * loop, K in *k and 1 (quotient) or 2 (remainder) in *part; else -1. */
static int divided(const tr_nest *t, const ast_expr *a, int64_t *k, int *part)
{
    if (a->kind != AST_BINARY || (a->u.bin.op != AST_FLOORDIV && a->u.bin.op != AST_MOD) ||
        a->u.bin.b->kind != AST_INT || a->u.bin.b->u.ival < 2)
        return -1;
    *k = a->u.bin.b->u.ival;
    *part = a->u.bin.op == AST_FLOORDIV ? 1 : 2;
    return loop_of(t, a->u.bin.a);
}

/* Note in t the divisor of each loop that the atoms of idx[0..n) divide;
 * 0 when one is divided by two divisors or by one its trip count is not a
 * multiple of. */
static int find_divisors(ft_ctx *ctx, tr_nest *t, int n, ast_expr *const *idx)
{
    for (int k = 0; k < n; k++) {
        an_lin l;
        if (xf_expr_has_load(idx[k]) || !an_lin_of(ctx, idx[k], &l))
            return 0;
        for (int i = 0; i < l.n; i++) {
            int64_t kk;
            int part, j = divided(t, l.atom[i], &kk, &part);
            if (j < 0)
                continue;
            if ((t->k[j] != 1 && t->k[j] != kk) || t->trips[j] % kk != 0)
                return 0;
            t->k[j] = kk;
        }
    }
    return 1;
}

/* The dimensions of t from its loops and divisors. */
static void dimensions(tr_nest *t)
{
    t->nd = 0;
    for (int j = 0; j < t->nl; j++)
        for (int part = t->k[j] == 1 ? 0 : 1; part <= (t->k[j] == 1 ? 0 : 2); part++) {
            t->loop[t->nd] = j;
            t->part[t->nd] = part;
            t->n[t->nd++] = part == 0 ? t->trips[j] : part == 1 ? t->trips[j] / t->k[j] : t->k[j];
        }
}

/* The dimension of t that is loop j's part. */
static int dim_of(const tr_nest *t, int j, int part)
{
    int d = 0;
    while (t->loop[d] != j || t->part[d] != part)
        d++;
    return d;
}

/* The stride of each dimension of t in the flat offset of var[idx] (dims:
 * var's literal shape) into coef; 0 when an index is not affine in them
 * (an iterator inside a product, a load). */
static int strides(ft_ctx *ctx, const tr_nest *t, int n, ast_expr *const *idx,
                   const int64_t *dims, int64_t *coef)
{
    memset(coef, 0, sizeof *coef * (size_t)t->nd);
    int64_t stride = 1;
    for (int k = n - 1; k >= 0; k--) {
        an_lin l;
        if (!an_lin_of(ctx, idx[k], &l))
            return 0;
        for (int i = 0; i < l.n; i++) {
            int64_t kk, c = l.coef[i] * stride;
            int part, j = loop_of(t, l.atom[i]);
            if (j >= 0 && t->k[j] == 1) {
                coef[dim_of(t, j, 0)] += c;
            } else if (j >= 0) {              /* i = K * (i // K) + i % K */
                coef[dim_of(t, j, 1)] += c * t->k[j];
                coef[dim_of(t, j, 2)] += c;
            } else if ((j = divided(t, l.atom[i], &kk, &part)) >= 0) {
                coef[dim_of(t, j, part)] += c;
            } else {
                for (j = 0; j < t->nl; j++)
                    if (xf_expr_uses_var(l.atom[i], t->loops[j]->u.loop.iter))
                        return 0;
            }
        }
        stride *= dims[k];
    }
    return 1;
}

/* The chain of dimensions (nd, iterations trips) along which the offset
 * with strides `along` is contiguous (strides 1, n1, n1 * n2, ...), each
 * one's stride in the other offset (`other`) ratio times its own; marks
 * them in in[] and returns their total count of iterations (0: none). */
static int64_t chain(int nl, const int64_t *trips, const int64_t *along, const int64_t *other,
                     int64_t *ratio, int *in)
{
    int64_t want = 1, total = 1;
    *ratio = 0;
    for (;;) {
        int j = 0;
        while (j < nl && (in[j] || along[j] != want ||
                          (*ratio && other[j] != *ratio * along[j])))
            j++;
        if (j == nl)
            return total == 1 ? 0 : total;
        if (*ratio == 0)
            *ratio = other[j];
        if (*ratio <= 0)
            return 0;
        in[j] = 1;
        total *= trips[j];
        want *= trips[j];
    }
}

/* Whether the nest writes each element of D once: its dimensions (the
 * copy's b and a, strides 1 and lda, and the nl batch dimensions, in_a[j]
 * and in_b[j] both 0, strides dc[j]) taken from the smallest stride up, each
 * stride passes the farthest element the smaller ones reach.  The copies
 * may then run in any order. */
static int writes_apart(int nl, const int64_t *trips, const int64_t *dc, const int *in_a,
                        const int *in_b, int64_t na, int64_t nb, int64_t lda)
{
    int64_t stride[2 * CG_TR_MAX_LOOPS + 2], n[2 * CG_TR_MAX_LOOPS + 2];
    int m = 0, used[2 * CG_TR_MAX_LOOPS + 2] = {0};
    stride[m] = 1, n[m++] = nb;
    stride[m] = lda, n[m++] = na;
    for (int j = 0; j < nl; j++)
        if (!in_a[j] && !in_b[j])
            stride[m] = dc[j], n[m++] = trips[j];
    int64_t reach = 0;
    for (int left = m; left > 0; left--) {
        int k = -1;
        for (int i = 0; i < m; i++)
            if (!used[i] && (k < 0 || stride[i] < stride[k]))
                k = i;
        if (stride[k] <= reach)
            return 0;
        used[k] = 1;
        reach += stride[k] * (n[k] - 1);
    }
    return 1;
}

/* The batch loops of t (its dimensions in neither chain in_a, in_b; one
 * in both: 0) into t->batch: a loop whose quotient alone is one steps by
 * its divisor (its remainder 0 in the copy), one whose remainder alone is
 * runs to the divisor (its quotient 0). */
static int batches(const tr_nest *n, const int *in_a, const int *in_b, cg_transpose *t)
{
    t->nbatch = 0;
    for (int d = 0; d < n->nd; d++)
        if (in_a[d] && in_b[d])
            return 0;
    for (int j = 0; j < n->nl; j++) {
        int q = -1, r = -1;
        for (int d = 0; d < n->nd; d++)
            if (n->loop[d] == j && !in_a[d] && !in_b[d])
                *(n->part[d] == 2 ? &r : &q) = d;
        if (q < 0 && r < 0)
            continue;
        t->batch[t->nbatch] = n->loops[j];
        t->bstep[t->nbatch] = q >= 0 && r < 0 && n->part[q] == 1 ? n->k[j] : 1;
        t->bend[t->nbatch++] = r >= 0 && q < 0 ? n->k[j] : n->trips[j];
    }
    return 1;
}

/* The indices of the copy's first elements into t (the iterators of the
 * loops that are not batch loops 0) and the rest of t. */
static int bases(ft_ctx *ctx, const tr_nest *n, const ast_stmt *s, cg_transpose *t)
{
    const char *names[CG_TR_MAX_LOOPS];
    ast_expr *zero[CG_TR_MAX_LOOPS];
    int nz = 0;
    for (int j = 0; j < n->nl; j++) {
        int batch = 0;
        for (int b = 0; b < t->nbatch; b++)
            batch |= t->batch[b] == n->loops[j];
        if (!batch) {
            names[nz] = n->loops[j]->u.loop.iter;
            zero[nz++] = ast_int(ctx, s->loc, 0);
        }
    }
    const ast_expr *ld = s->u.store.value;
    t->store = s;
    t->dtype = ld->dtype;
    t->dst = ft_alloc(ctx, sizeof *t->dst * (size_t)(s->u.store.n + 1));
    t->src = ft_alloc(ctx, sizeof *t->src * (size_t)(ld->u.load.n + 1));
    for (int k = 0; k < s->u.store.n; k++)
        t->dst[k] = ast_subst_vars(ctx, s->u.store.idx[k], nz, names, zero);
    for (int k = 0; k < ld->u.load.n; k++)
        t->src[k] = ast_subst_vars(ctx, ld->u.load.idx[k], nz, names, zero);
    return 1;
}

int cg_transpose_match(ft_ctx *ctx, const ast_stmt *loop, cg_dims_fn dims, void *data,
                       cg_transpose *t)
{
    tr_nest nest = {0};
    const ast_stmt *s = loop;
    while (s && s->kind == AST_FOR) {
        if (nest.nl == CG_TR_MAX_LOOPS || !plain_loop(s, nest.nl == 0, &nest.trips[nest.nl]))
            return 0;
        nest.k[nest.nl] = 1;
        nest.loops[nest.nl++] = s;
        s = only(s->u.loop.body);
    }
    if (nest.nl < 2 || !s || s->kind != AST_STORE || s->u.store.value->kind != AST_LOAD)
        return 0;
    const ast_expr *ld = s->u.store.value;
    ft_dtype dt = ld->dtype;
    if ((dt != FT_F32 && dt != FT_F64) || strcmp(s->u.store.var, ld->u.load.var) == 0)
        return 0;
    int64_t *ddims = ft_alloc(ctx, sizeof *ddims * (size_t)(s->u.store.n + 1));
    int64_t *sdims = ft_alloc(ctx, sizeof *sdims * (size_t)(ld->u.load.n + 1));
    int64_t dc[2 * CG_TR_MAX_LOOPS], sc[2 * CG_TR_MAX_LOOPS];
    if (dims(data, s->u.store.var, dt, s->u.store.n, ddims) ||
        dims(data, ld->u.load.var, dt, ld->u.load.n, sdims) ||
        !find_divisors(ctx, &nest, s->u.store.n, s->u.store.idx) ||
        !find_divisors(ctx, &nest, ld->u.load.n, ld->u.load.idx))
        return 0;
    dimensions(&nest);
    if (!strides(ctx, &nest, s->u.store.n, s->u.store.idx, ddims, dc) ||
        !strides(ctx, &nest, ld->u.load.n, ld->u.load.idx, sdims, sc))
        return 0;
    int nd = nest.nd, in_a[2 * CG_TR_MAX_LOOPS] = {0}, in_b[2 * CG_TR_MAX_LOOPS] = {0};
    t->na = chain(nd, nest.n, sc, dc, &t->lda, in_a);
    t->nb = chain(nd, nest.n, dc, sc, &t->lds, in_b);
    if (!t->na || !t->nb || t->lds < t->na ||
        !writes_apart(nd, nest.n, dc, in_a, in_b, t->na, t->nb, t->lda))
        return 0;
    if (!batches(&nest, in_a, in_b, t))
        return 0;
    /* an OpenMP loop stays one: the outermost batch loop */
    t->parallel = loop->u.loop.par == AST_OPENMP;
    if (t->parallel && (t->nbatch == 0 || t->batch[0] != loop))
        return 0;
    return bases(ctx, &nest, s, t);
}

void cg_transpose_helper_def(FILE *o, ft_dtype t)
{
    const char *T = t == FT_F64 ? "double" : "float", *n = t == FT_F64 ? "f64" : "f32";
    if (t == FT_F32)
        fputs("#ifdef __AVX512F__\n"
              "#include <immintrin.h>\n"
              "/* d[a * ldd + b] = s[b * lds + a] for a, b < 16, in registers. */\n"
              "static inline void ft__transpose16_f32(float *restrict d, int64_t ldd,\n"
              "                                       const float *restrict s, int64_t lds)\n"
              "{\n"
              "    __m512 r[16], t[16];\n"
              "    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(s + i * lds);\n"
              "    for (int i = 0; i < 16; i += 2) {\n"
              "        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);\n"
              "        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);\n"
              "    }\n"
              "    for (int i = 0; i < 16; i += 4) {\n"
              "        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);\n"
              "        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xee);\n"
              "        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);\n"
              "        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xee);\n"
              "    }\n"
              "    for (int i = 0; i < 16; i += 8)\n"
              "        for (int j = 0; j < 4; j++) {\n"
              "            t[i + j] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0x88);\n"
              "            t[i + j + 4] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0xdd);\n"
              "        }\n"
              "    for (int j = 0; j < 8; j++) {\n"
              "        r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);\n"
              "        r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xdd);\n"
              "    }\n"
              "    for (int i = 0; i < 16; i++) _mm512_storeu_ps(d + i * ldd, r[i]);\n"
              "}\n"
              "#endif\n", o);
    fprintf(o,
            "/* d[a * ldd + b] = s[b * lds + a] for a < na, b < nb: a transposing copy\n"
            " * (backend/cg_transpose.c) in blocks of 16 x 16. */\n"
            "static void ft__transpose_%s(%s *restrict d, int64_t ldd, const %s *restrict s,\n"
            "                             int64_t lds, int64_t na, int64_t nb)\n"
            "{\n"
            "    for (int64_t a0 = 0; a0 < na; a0 += 16)\n"
            "        for (int64_t b0 = 0; b0 < nb; b0 += 16) {\n"
            "            const int64_t ea = na - a0 < 16 ? na - a0 : 16;\n"
            "            const int64_t eb = nb - b0 < 16 ? nb - b0 : 16;\n"
            "%s"
            "            for (int64_t b = 0; b < eb; b++)\n"
            "                for (int64_t a = 0; a < ea; a++)\n"
            "                    d[(a0 + a) * ldd + b0 + b] = s[(b0 + b) * lds + a0 + a];\n"
            "        }\n"
            "}\n",
            n, T, T,
            t == FT_F32 ? "#ifdef __AVX512F__\n"
                          "            if (ea == 16 && eb == 16) {\n"
                          "                ft__transpose16_f32(d + a0 * ldd + b0, ldd, s + b0 * lds + a0, lds);\n"
                          "                continue;\n"
                          "            }\n"
                          "#endif\n"
                        : "");
}
