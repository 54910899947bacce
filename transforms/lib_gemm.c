/* lib_gemm.c - recognise the matrix-product loop nests of lib_gemm.h.
 *
 * Requires: f's AST (after the cleanup passes: flat sequences, unique
 * local names).
 * Provides: xf_gemm_match, the one description of the nest that as_lib's
 * legality check, auto_use_lib and the backends' BLAS calls share, so a
 * nest is handed to BLAS exactly when it means what the call computes.
 *
 * The match reads the nest as: the chain of perfectly nested loops from L
 * (outer loops), then one of three bodies (a lone reduction, an init
 * nest and a reduction nest, a 0-D accumulator), then classifies every
 * iterator by the accesses that use it (c and a: rows m, c and b: columns
 * n, a and b: the sum k, all three: a batch loop).
 */
#include "lib_gemm.h"

#include <string.h>

#include "sched_util.h"
#include "xf_util.h"

enum { GM_MAX_LOOPS = 16 };

/* What the match has found so far. */
typedef struct gm_state {
    ft_ctx *ctx;
    const ast_func *f;
    const char *why;                          /* the refusal, once set */
    int nloops;                               /* outer loops, then sum loops */
    const ast_stmt *loops[GM_MAX_LOOPS];
    int nouter;
    const ast_stmt *init;                     /* the `c = 0` store, or NULL */
    int ninit;
    const ast_stmt *init_loops[GM_MAX_LOOPS];
    const ast_stmt *red;                      /* the `+= a * b` reduction */
    const char *acc;                          /* 0-D accumulator, or NULL */
    const char *cvar;                         /* the output tensor */
    int cn;
    ast_expr **cidx;
    int beta;
    const ast_stmt *m, *n, *k;                /* the product's loops */
} gm_state;

/* Refuse with a formatted reason (the first one wins); returns 0. */
static int gm_refuse(gm_state *st, const char *why)
{
    if (!st->why)
        st->why = why;
    return 0;
}

/* ------------------------------------------------------------ structure */

/* Append the perfect chain of loops starting at s to list; returns the
 * items of the innermost loop's body (*items), their number. */
static int gm_chain(gm_state *st, const ast_stmt *s, const ast_stmt **list, int *nlist,
                    ast_stmt ***items)
{
    ast_stmt *cur = (ast_stmt *)s;
    for (;;) {
        if (*nlist == GM_MAX_LOOPS)
            return gm_refuse(st, "it has too many loops");
        list[(*nlist)++] = cur;
        int n = xf_body_items(&cur->u.loop.body, items);
        if (n != 1 || (*items)[0]->kind != AST_FOR)
            return n;
        cur = (*items)[0];
    }
}

/* Read a reduction nest (a perfect chain of loops, or none, ending in one
 * `+=`) at s, its loops appended to st->loops. */
static int gm_red_nest(gm_state *st, const ast_stmt *s)
{
    ast_stmt **items = NULL;
    int n = 1;
    const ast_stmt *body = s;
    if (s->kind == AST_FOR) {
        n = gm_chain(st, s, st->loops, &st->nloops, &items);
        body = n == 1 ? items[0] : NULL;
    }
    if (st->why)
        return 0;
    if (n != 1 || body->kind != AST_REDUCE || body->u.red.op != AST_RED_ADD)
        return gm_refuse(st, ft_fmt(st->ctx, "the sum loop %s holds %s, not one `+=`",
                                    xf_sched_name(st->ctx, s),
                                    n == 1 ? "another statement" : "several statements"));
    st->red = body;
    return 1;
}

/* Read the init nest `for ...: c[..] = 0` (or a lone store) at s. */
static int gm_init_nest(gm_state *st, const ast_stmt *s)
{
    ast_stmt **items = NULL;
    int n = 1;
    const ast_stmt *body = s;
    if (s->kind == AST_FOR) {
        n = gm_chain(st, s, st->init_loops, &st->ninit, &items);
        body = n == 1 ? items[0] : NULL;
    }
    if (st->why)
        return 0;
    if (n != 1 || body->kind != AST_STORE || !xf_is_zero(body->u.store.value))
        return gm_refuse(st, "the statement before the sum is not an initialisation "
                             "`c[i, j] = 0`");
    st->init = body;
    return 1;
}

/* Read `var acc; acc = 0; for ...: acc += a * b; c[..] = acc` at s. */
static int gm_acc_body(gm_state *st, const ast_stmt *s)
{
    ast_stmt **it = NULL;
    if (s->u.def.ndim != 0 || !s->u.def.body)
        return gm_refuse(st, ft_fmt(st->ctx, "the local '%s' inside it is not a scalar "
                                    "accumulator", s->u.def.name));
    st->acc = s->u.def.name;
    int n = xf_body_items(&s->u.def.body, &it);
    if (n != 3 || it[0]->kind != AST_STORE || strcmp(it[0]->u.store.var, st->acc) != 0 ||
        !xf_is_zero(it[0]->u.store.value) || it[1]->kind != AST_FOR)
        return gm_refuse(st, ft_fmt(st->ctx, "the accumulator '%s' is not used as `%s = 0; "
                                    "for p: %s += a * b; c[i, j] = %s`", st->acc, st->acc,
                                    st->acc, st->acc));
    int nouter = st->nloops;
    if (!gm_red_nest(st, it[1]))
        return 0;
    if (st->nloops != nouter + 1)
        return gm_refuse(st, "the accumulator's sum has more than one loop");
    if (strcmp(st->red->u.red.var, st->acc) != 0)
        return gm_refuse(st, ft_fmt(st->ctx, "the sum adds into '%s', not into the "
                                    "accumulator '%s'", st->red->u.red.var, st->acc));
    const ast_stmt *out = it[2];
    const ast_expr *v = out->kind == AST_STORE ? out->u.store.value
                      : out->kind == AST_REDUCE && out->u.red.op == AST_RED_ADD
                          ? out->u.red.value : NULL;
    if (!v || v->kind != AST_LOAD || strcmp(v->u.load.var, st->acc) != 0)
        return gm_refuse(st, ft_fmt(st->ctx, "the accumulator '%s' is not written out as "
                                    "`c[i, j] = %s`", st->acc, st->acc));
    st->cvar = out->kind == AST_STORE ? out->u.store.var : out->u.red.var;
    st->cn = out->kind == AST_STORE ? out->u.store.n : out->u.red.n;
    st->cidx = out->kind == AST_STORE ? out->u.store.idx : out->u.red.idx;
    st->beta = out->kind == AST_REDUCE;
    return 1;
}

/* Read the whole nest under loop into st. */
static int gm_structure(gm_state *st, const ast_stmt *loop)
{
    ast_stmt **items = NULL;
    int n = gm_chain(st, loop, st->loops, &st->nloops, &items);
    if (st->why)
        return 0;
    st->nouter = st->nloops;
    if (n == 1 && items[0]->kind == AST_VARDEF)
        return gm_acc_body(st, items[0]);
    if (n == 1 && items[0]->kind == AST_REDUCE) {
        st->beta = 1;
        if (!gm_red_nest(st, items[0]))
            return 0;
    } else if (n == 2) {
        if (!gm_init_nest(st, items[0]) || !gm_red_nest(st, items[1]))
            return 0;
    } else {
        return gm_refuse(st, ft_fmt(st->ctx, "the innermost of its perfectly nested loops "
                                    "holds %d statements, not an accumulation (with at most "
                                    "an initialisation before it)", n));
    }
    st->cvar = st->red->u.red.var;
    st->cn = st->red->u.red.n;
    st->cidx = st->red->u.red.idx;
    return 1;
}

/* ------------------------------------------------------------- accesses */

/* Whether any index of idx uses iterator name. */
static int gm_idx_uses(int n, ast_expr **idx, const char *name)
{
    for (int d = 0; d < n; d++)
        if (xf_expr_uses_var(idx[d], name))
            return 1;
    return 0;
}

/* Flatten the product e into factors (at most max). */
static int gm_factors(const ast_expr *e, const ast_expr **out, int n, int max)
{
    if (e->kind == AST_BINARY && e->u.bin.op == AST_MUL) {
        n = gm_factors(e->u.bin.a, out, n, max);
        return gm_factors(e->u.bin.b, out, n, max);
    }
    if (n < max)
        out[n] = e;
    return n + 1;
}

/* Whether e uses an iterator of the loops in list. */
static int gm_uses_any(const ast_expr *e, const ast_stmt *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] && xf_expr_uses_var(e, list[i]->u.loop.iter))
            return 1;
    return 0;
}

/* The VarDef of local name under s, or NULL. */
static const ast_stmt *gm_find_def(const ast_stmt *s, const char *name)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++) {
            const ast_stmt *r = gm_find_def(s->u.seq.stmts[i], name);
            if (r)
                return r;
        }
        return NULL;
    case AST_VARDEF:
        return strcmp(s->u.def.name, name) == 0 ? s : gm_find_def(s->u.def.body, name);
    case AST_FOR: return gm_find_def(s->u.loop.body, name);
    case AST_IF: {
        const ast_stmt *r = gm_find_def(s->u.branch.then, name);
        return r ? r : gm_find_def(s->u.branch.other, name);
    }
    default: return NULL;
    }
}

/* The shape of var: 1 with *ndim, *shape, *dtype, or 0 when unknown. */
static int gm_shape(const gm_state *st, const char *var, int *ndim, ast_expr ***shape,
                    ft_dtype *dtype)
{
    for (int i = 0; i < st->f->nparams; i++) {
        const ast_param *p = &st->f->params[i];
        if (!p->is_size && strcmp(p->name, var) == 0) {
            *ndim = p->ndim, *shape = p->shape, *dtype = p->dtype;
            return 1;
        }
    }
    const ast_stmt *d = gm_find_def(st->f->body, var);
    if (!d)
        return 0;
    *ndim = d->u.def.ndim, *shape = d->u.def.shape, *dtype = d->u.def.dtype;
    return 1;
}

/* Whether var is a region of a gradient's tape (autodiff/pack.c packs
 * it into the flat tape after the schedules, where a BLAS call could no
 * longer find its rows). */
static int gm_region(const gm_state *st, const char *var)
{
    for (int i = 0; i < st->f->nparams; i++)
        if (st->f->params[i].region_at && strcmp(st->f->params[i].name, var) == 0)
            return 1;
    return 0;
}

/* Whether idx is `it`, `it + e`, `e + it` or `it - e` with e free of the
 * product's loops. */
static int gm_unit(const gm_state *st, const ast_expr *idx, const char *it)
{
    const ast_stmt *prod[3] = {st->m, st->n, st->k};
    if (idx->kind == AST_VAR)
        return strcmp(idx->u.name, it) == 0;
    if (idx->kind != AST_BINARY || (idx->u.bin.op != AST_ADD && idx->u.bin.op != AST_SUB))
        return 0;
    const ast_expr *a = idx->u.bin.a, *b = idx->u.bin.b;
    if (a->kind == AST_VAR && strcmp(a->u.name, it) == 0)
        return !gm_uses_any(b, prod, 3);
    if (idx->u.bin.op == AST_ADD && b->kind == AST_VAR && strcmp(b->u.name, it) == 0)
        return !gm_uses_any(a, prod, 3);
    return 0;
}

/* The dimension of the access (var, n, idx) indexed by loop l, after
 * checking every dimension (-1 and a refusal when one is not affine with
 * unit stride in at most one of the product's loops). */
static int gm_dim_of(gm_state *st, const char *var, int n, ast_expr **idx,
                     const ast_stmt *l)
{
    const ast_stmt *prod[3] = {st->m, st->n, st->k};
    int found = -1;
    for (int d = 0; d < n; d++) {
        int uses = 0;
        for (int q = 0; q < 3; q++)
            uses += xf_expr_uses_var(idx[d], prod[q]->u.loop.iter);
        if (xf_expr_has_load(idx[d])) {
            gm_refuse(st, ft_fmt(st->ctx, "index %d of '%s' depends on loaded data", d, var));
            return -1;
        }
        if (uses > 1) {
            gm_refuse(st, ft_fmt(st->ctx, "index %d of '%s' (%s) mixes the loops of the "
                                 "product", d, var, ast_expr_text(st->ctx, idx[d])));
            return -1;
        }
        if (!xf_expr_uses_var(idx[d], l->u.loop.iter))
            continue;
        if (!gm_unit(st, idx[d], l->u.loop.iter)) {
            gm_refuse(st, ft_fmt(st->ctx, "index %d of '%s' (%s) is not %s plus an offset "
                                 "(unit stride)", d, var, ast_expr_text(st->ctx, idx[d]),
                                 l->u.loop.iter));
            return -1;
        }
        found = d;
    }
    return found;
}

/* The row stride of dimension d of a tensor of this shape (arena). */
static ast_expr *gm_stride(gm_state *st, int ndim, ast_expr **shape, int d)
{
    ast_expr *s = ast_int(st->ctx, (ft_loc){0}, 1);
    for (int k = d + 1; k < ndim; k++)
        s = xf_mul(st->ctx, s, ast_clone_expr(st->ctx, shape[k]));
    return s;
}

/* Fill op for the access (var, n, idx) as the operand whose rows are
 * loop r and columns loop c: transposed when r is its unit-stride (last)
 * dimension.  0 with a refusal when neither is. */
static int gm_operand(gm_state *st, const char *var, int n, ast_expr **idx,
                      const ast_stmt *r, const ast_stmt *c, xf_gemm_operand *op)
{
    int ndim;
    ast_expr **shape;
    ft_dtype t;
    if (!gm_shape(st, var, &ndim, &shape, &t) || ndim != n)
        return gm_refuse(st, ft_fmt(st->ctx, "the shape of '%s' is not known", var));
    if (gm_region(st, var))
        return gm_refuse(st, ft_fmt(st->ctx, "'%s' is a region of the tape", var));
    int dr = gm_dim_of(st, var, n, idx, r), dc = gm_dim_of(st, var, n, idx, c);
    if (st->why)
        return 0;
    if (dr < 0 || dc < 0 || dr == dc)
        return gm_refuse(st, ft_fmt(st->ctx, "'%s' is not indexed by %s and %s in two "
                                    "dimensions", var, r->u.loop.iter, c->u.loop.iter));
    if (dc != n - 1 && dr != n - 1)
        return gm_refuse(st, ft_fmt(st->ctx, "neither of the dimensions of '%s' indexed by "
                                    "%s and %s is its last (unit-stride) one", var,
                                    r->u.loop.iter, c->u.loop.iter));
    op->var = var;
    op->n = n;
    op->trans = dc != n - 1;
    op->ld = gm_stride(st, n, shape, op->trans ? dc : dr);
    const char *names[3] = {st->m->u.loop.iter, st->n->u.loop.iter, st->k->u.loop.iter};
    ast_expr *begins[3] = {st->m->u.loop.begin, st->n->u.loop.begin, st->k->u.loop.begin};
    op->base = ft_alloc(st->ctx, sizeof *op->base * (size_t)(n ? n : 1));
    for (int d = 0; d < n; d++)
        op->base[d] = ast_subst_vars(st->ctx, idx[d], 3, names, begins);
    return 1;
}

/* ------------------------------------------------------- classification */

/* Sort the loops into m, n, k and batch loops by the accesses (c, x, y)
 * that use them; x becomes a (uses m), y b.  Going from the innermost loop
 * out, the first loop of each part is the product's; a loop that indexes c
 * and a factor after those (all three, or a part already taken) is a batch
 * loop, and every loop outside a batch loop must be one too. */
static int gm_classify(gm_state *st, const ast_expr **x, const ast_expr **y, int *nbatch)
{
    const ast_expr *X = *x, *Y = *y;
    *nbatch = 0;
    for (int i = st->nloops - 1; i >= 0; i--) {
        const ast_stmt *l = st->loops[i];
        const char *it = l->u.loop.iter;
        int inc = gm_idx_uses(st->cn, st->cidx, it);
        int inx = gm_idx_uses(X->u.load.n, X->u.load.idx, it);
        int iny = gm_idx_uses(Y->u.load.n, Y->u.load.idx, it);
        const ast_stmt **slot = inc && inx && !iny ? &st->m
                              : inc && !inx && iny ? &st->n
                              : !inc && inx && iny ? &st->k : NULL;
        if (slot && !*slot && !*nbatch) {
            *slot = l;
            continue;
        }
        if (!inc || !(inx || iny)) {
            if (!slot)
                return gm_refuse(st, ft_fmt(st->ctx, "loop %s is not a row, column, sum or "
                                            "batch loop of a product (it indexes %s)", it,
                                            inc ? "only the result"
                                            : inx || iny ? "only one factor" : "nothing"));
            return gm_refuse(st, ft_fmt(st->ctx, *slot ? "loops %s and %s both sum the "
                                        "product" : "the sum loop %s is outside the batch "
                                        "loop %s", *slot ? (*slot)->u.loop.iter : it,
                                        *slot ? it : st->loops[i + 1]->u.loop.iter));
        }
        if (i >= st->nouter)
            return gm_refuse(st, ft_fmt(st->ctx, "the batch loop %s is inside a loop of "
                                        "the product; it must be outside them", it));
        (*nbatch)++;
    }
    if (!st->m || !st->n || !st->k)
        return gm_refuse(st, ft_fmt(st->ctx, "it has no %s loop",
                                    !st->m ? "row" : !st->n ? "column" : "sum"));
    if (st->acc && st->k != st->loops[st->nloops - 1])
        return gm_refuse(st, "the accumulator's loop is not the sum");
    return 1;
}

/* Check that the product's loops are rectangular with step 1 and the batch
 * loops have step 1 (a gemm call per batch iteration). */
static int gm_ranges(gm_state *st)
{
    const ast_stmt *prod[3] = {st->m, st->n, st->k};
    for (int i = 0; i < st->nloops; i++) {
        const ast_stmt *l = st->loops[i];
        const ast_expr *step = l->u.loop.step;
        if (step && !(step->kind == AST_INT && step->u.ival == 1))
            return gm_refuse(st, ft_fmt(st->ctx, "loop %s does not have step 1",
                                        l->u.loop.iter));
        if (l->u.loop.par != AST_SERIAL && l->u.loop.par != AST_LIB &&
            l->u.loop.par != AST_VECTORIZE)
            return gm_refuse(st, ft_fmt(st->ctx, "loop %s is parallel", l->u.loop.iter));
        if (gm_uses_any(l->u.loop.begin, prod, 3) || gm_uses_any(l->u.loop.end, prod, 3))
            return gm_refuse(st, ft_fmt(st->ctx, "the range of loop %s depends on another "
                                        "loop of the product (not rectangular)",
                                        l->u.loop.iter));
    }
    return 1;
}

/* Check the init nest writes exactly the elements of c the sum adds to:
 * its loops map onto the row and column loops inside the outer loops. */
static int gm_check_init(gm_state *st)
{
    const ast_stmt *in = st->init;
    const char *no = "the initialisation does not set exactly the elements the sum adds to";
    if (strcmp(in->u.store.var, st->cvar) != 0 || in->u.store.n != st->cn)
        return gm_refuse(st, no);
    const char *from[GM_MAX_LOOPS];
    ast_expr *to[GM_MAX_LOOPS];
    int covered = 0;
    for (int t = 0; t < st->ninit; t++) {
        const ast_stmt *il = st->init_loops[t];
        const ast_stmt *match = NULL;
        for (int d = 0; d < st->cn && !match; d++) {
            if (!xf_expr_uses_var(in->u.store.idx[d], il->u.loop.iter))
                continue;
            match = st->m && xf_expr_uses_var(st->cidx[d], st->m->u.loop.iter) ? st->m
                  : st->n && xf_expr_uses_var(st->cidx[d], st->n->u.loop.iter) ? st->n : NULL;
        }
        if (!match || !ast_expr_equal(match->u.loop.begin, il->u.loop.begin) ||
            !ast_expr_equal(match->u.loop.end, il->u.loop.end) ||
            !ast_expr_equal(match->u.loop.step, il->u.loop.step))
            return gm_refuse(st, no);
        from[t] = il->u.loop.iter;
        to[t] = ast_var(st->ctx, il->loc, match->u.loop.iter);
        covered |= match == st->m ? 1 : 2;
    }
    for (int d = 0; d < st->cn; d++) {
        ast_expr *e = ast_subst_vars(st->ctx, in->u.store.idx[d], st->ninit, from, to);
        if (!ast_expr_equal(e, st->cidx[d]))
            return gm_refuse(st, no);
    }
    /* the init loops are exactly the row and column loops inside the
     * outer ones, one each */
    int need = 0;
    for (int i = st->nouter; i < st->nloops; i++)
        need |= st->loops[i] == st->m ? 1 : st->loops[i] == st->n ? 2 : 0;
    if (covered != need || st->ninit != (need & 1) + (need >> 1))
        return gm_refuse(st, no);
    return 1;
}

/* ---------------------------------------------------------------- match */

/* Split the summand into the two factors that use the loops and alpha. */
static int gm_summand(gm_state *st, const ast_expr **x, const ast_expr **y,
                      ast_expr **alpha)
{
    const ast_expr *fac[8];
    int nf = gm_factors(st->red->u.red.value, fac, 0, 8);
    if (nf > 8)
        return gm_refuse(st, "the summand has too many factors");
    const ast_stmt *const *all = st->loops;
    *x = *y = NULL;
    *alpha = NULL;
    for (int i = 0; i < nf; i++) {
        if (!gm_uses_any(fac[i], all, st->nloops)) {
            *alpha = *alpha ? ast_binary(st->ctx, fac[i]->loc, AST_MUL, *alpha,
                                         ast_clone_expr(st->ctx, fac[i]))
                            : ast_clone_expr(st->ctx, fac[i]);
            continue;
        }
        if (fac[i]->kind != AST_LOAD || fac[i]->u.load.n < 2)
            return gm_refuse(st, ft_fmt(st->ctx, "the factor %s of the summand is not a "
                                        "matrix element", ast_expr_text(st->ctx, fac[i])));
        if (*y)
            return gm_refuse(st, "the summand has more than two factors that depend on "
                                 "the loops");
        *(*x ? y : x) = fac[i];
    }
    if (!*y)
        return gm_refuse(st, "the summand is not a product of two matrix elements");
    return 1;
}

/* Refuse operands that alias the output (or the accumulator) and alpha
 * factors that read them. */
static int gm_alias(gm_state *st, const ast_expr *x, const ast_expr *y, const ast_expr *alpha)
{
    const char *out[2] = {st->cvar, st->acc};
    for (int i = 0; i < 2; i++) {
        if (!out[i])
            continue;
        if (strcmp(x->u.load.var, out[i]) == 0 || strcmp(y->u.load.var, out[i]) == 0 ||
            (alpha && xf_expr_reads(alpha, out[i])))
            return gm_refuse(st, ft_fmt(st->ctx, "the operand '%s' is also the output",
                                        out[i]));
    }
    return 1;
}

/* The dtype of the product, or refuse mixed or non-float dtypes. */
static int gm_dtype(gm_state *st, const ast_expr *x, const ast_expr *y, const ast_expr *alpha,
                    ft_dtype *t)
{
    int nd;
    ast_expr **shape;
    ft_dtype ct;
    if (!gm_shape(st, st->cvar, &nd, &shape, &ct))
        return gm_refuse(st, ft_fmt(st->ctx, "the shape of '%s' is not known", st->cvar));
    if (ct != FT_F32 && ct != FT_F64)
        return gm_refuse(st, ft_fmt(st->ctx, "'%s' is %s; BLAS multiplies f32 or f64",
                                    st->cvar, ft_dtype_name(ct)));
    if (x->dtype != ct || y->dtype != ct || st->red->u.red.value->dtype != ct ||
        (alpha && alpha->dtype != ct))
        return gm_refuse(st, ft_fmt(st->ctx, "the operands do not all have the dtype of "
                                    "'%s' (%s)", st->cvar, ft_dtype_name(ct)));
    *t = ct;
    return 1;
}

/* Extent end - begin of loop l. */
static ast_expr *gm_extent(ft_ctx *ctx, const ast_stmt *l)
{
    return xf_trip_count(ctx, l);
}

int xf_gemm_match(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, xf_gemm *g,
                  const char **why)
{
    gm_state st = {.ctx = ctx, .f = f};
    const ast_expr *x = NULL, *y = NULL;
    ast_expr *alpha = NULL;
    int nbatch = 0;
    memset(g, 0, sizeof *g);
    if (loop->kind != AST_FOR)
        gm_refuse(&st, "it is not a loop");
    else if (gm_structure(&st, loop) && gm_summand(&st, &x, &y, &alpha) &&
             gm_classify(&st, &x, &y, &nbatch) && gm_ranges(&st) &&
             (!st.init || gm_check_init(&st)) && gm_alias(&st, x, y, alpha) &&
             gm_dtype(&st, x, y, alpha, &g->dtype)) {
        /* c's columns must be its unit-stride dimension; else compute c^T */
        int cn_dim = gm_dim_of(&st, st.cvar, st.cn, st.cidx, st.n);
        int swap = !st.why && cn_dim != st.cn - 1;
        const ast_stmt *rows = swap ? st.n : st.m, *cols = swap ? st.m : st.n;
        const ast_expr *ra = swap ? y : x, *cb = swap ? x : y;
        if (gm_operand(&st, st.cvar, st.cn, st.cidx, rows, cols, &g->c) && !g->c.trans &&
            gm_operand(&st, ra->u.load.var, ra->u.load.n, ra->u.load.idx, rows, st.k, &g->a) &&
            gm_operand(&st, cb->u.load.var, cb->u.load.n, cb->u.load.idx, st.k, cols, &g->b)) {
            g->m = gm_extent(ctx, rows);
            g->n = gm_extent(ctx, cols);
            g->k = gm_extent(ctx, st.k);
            g->alpha = alpha;
            g->beta = st.beta;
            g->nbatch = nbatch;
            g->batch = ft_alloc(ctx, sizeof *g->batch * (size_t)(nbatch ? nbatch : 1));
            for (int i = 0; i < nbatch; i++)
                g->batch[i] = st.loops[i];
        } else if (!st.why) {
            gm_refuse(&st, ft_fmt(ctx, "neither of the dimensions of '%s' is its last "
                                  "(unit-stride) one", st.cvar));
        }
    }
    if (st.why && why)
        *why = st.why;
    return st.why == NULL;
}

int xf_has_lib_loop(const ast_stmt *s)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            if (xf_has_lib_loop(s->u.seq.stmts[i]))
                return 1;
        return 0;
    case AST_VARDEF: return xf_has_lib_loop(s->u.def.body);
    case AST_FOR: return s->u.loop.par == AST_LIB || xf_has_lib_loop(s->u.loop.body);
    case AST_IF: return xf_has_lib_loop(s->u.branch.then) || xf_has_lib_loop(s->u.branch.other);
    default: return 0;
    }
}

int xf_program_uses_lib(const ast_program *p)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (xf_has_lib_loop(p->funcs[i]->body))
            return 1;
    return 0;
}
