/* auto_zero_init.c - xf_auto_zero_init: `t[e] = 0` then `t[e] += v` as
 * `t[e] = v` when nothing else touches t.
 *
 * Requires: f's AST after auto_jam (whose jammed sums it needs as `+=`
 * flushes).
 * Provides: for a tensor (parameter or local) accessed only by one store
 * of 0 and by `+=` statements, all with exact affine indices, where each
 * `+=` adds to an element at most once, no two of them to the same one,
 * together to exactly the elements the zeros cover, and every zero before
 * the `+=` on its element: each `+=` finds its element 0, so it becomes a
 * store and the zeros are dropped (a gradient's `d_x = 0` then the
 * row sums auto_red_scalar flushes into it: GAT's backward wrote and then
 * read back 12.8 MB of zeros per call).  Exact but for the sign of a zero
 * result (0.0 + -0.0 is 0.0; the store keeps -0.0).
 */
#include "auto_util.h"

#include <stdint.h>
#include <string.h>

#include <isl/map.h>
#include <isl/set.h>

#include "../../ast/visit.h"
#include "../cleanup.h"
#include "../xf_util.h"

static const char *const PASS = "auto_zero_init";

/* The cheap walk of xf_auto_zero_init: per tensor name, its zero stores,
 * its plain `+=` reductions and everything else that touches it. */
typedef struct zi_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names;            /* const char * */
    ft_vec counts;           /* int[3] per name: zero stores, `+=`, others */
    ft_vec zero;             /* ast_stmt *: the last zero store per name */
    ft_vec add;              /* ft_vec * of ast_stmt *: the `+=` per name */
} zi_walk;

/* The slot of name (created when new). */
static int zi_slot(zi_walk *w, const char *name)
{
    for (int i = 0; i < w->names.len; i++)
        if (strcmp(w->names.items[i], name) == 0)
            return i;
    int *c = ft_alloc(w->ctx, sizeof(int) * 3);
    c[0] = c[1] = c[2] = 0;
    ft_vec_push(w->ctx, &w->names, (void *)name);
    ft_vec_push(w->ctx, &w->counts, c);
    ft_vec *adds = ft_alloc(w->ctx, sizeof *adds);
    *adds = (ft_vec){0};
    ft_vec_push(w->ctx, &w->zero, NULL);
    ft_vec_push(w->ctx, &w->add, adds);
    return w->names.len - 1;
}

static void zi_expr_cb(ast_visitor *v, ast_expr *e)
{
    zi_walk *w = (zi_walk *)v;
    if (e->kind == AST_LOAD) {
        int k = zi_slot(w, e->u.load.var);   /* may grow w->counts */
        ((int *)w->counts.items[k])[2]++;
    }
}

static int zi_stmt_cb(ast_visitor *v, ast_stmt *s)
{
    zi_walk *w = (zi_walk *)v;
    if (s->kind == AST_STORE) {
        int k = zi_slot(w, s->u.store.var), kind = 2;
        if (xf_is_zero(s->u.store.value) && !s->label && !xf_stmt_checked(s)) {
            kind = 0;
            w->zero.items[k] = s;
        }
        ((int *)w->counts.items[k])[kind]++;
    } else if (s->kind == AST_REDUCE) {
        int k = zi_slot(w, s->u.red.var), kind = 2;
        if (s->u.red.op == AST_RED_ADD && !s->u.red.atomic && !xf_stmt_checked(s)) {
            kind = 1;
            ft_vec_push(w->ctx, w->add.items[k], s);
        }
        ((int *)w->counts.items[k])[kind]++;
    }
    return 1;
}

/* Visitor: the tensors written in loops marked AST_LIB: a BLAS call's
 * nest keeps its zero store and its `+=` (a K = 1 product would otherwise
 * lose the accumulation the C backend's gemm recognises). */
typedef struct zi_lib {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names;
} zi_lib;

static int zi_lib_cb(ast_visitor *v, ast_stmt *s)
{
    zi_lib *l = (zi_lib *)v;
    if (s->kind != AST_FOR || s->u.loop.par != AST_LIB)
        return 1;
    xf_stmt_written(l->ctx, s, &l->names);
    return 0;
}

/* The one access of statement s in acc that writes (its Store or Reduce). */
static const an_access *write_of(const an_accesses *acc, const ast_stmt *s)
{
    for (int k = 0; k < acc->n; k++)
        if (acc->acc[k]->stmt == s && acc->acc[k]->kind != AN_ACC_READ)
            return acc->acc[k];
    return NULL;
}

/* Whether access r (exact) updates each element at most once. */
static int injective(const an_accesses *acc, const an_access *r)
{
    isl_map *m = isl_map_intersect_params(isl_map_copy(r->rel), isl_set_copy(acc->context));
    isl_bool inj = isl_map_is_injective(m);
    isl_map_free(m);
    return inj == isl_bool_true;
}

/* The elements access x touches (sizes in the context). */
static isl_set *elements(const an_accesses *acc, const an_access *x)
{
    return isl_map_range(isl_map_intersect_params(isl_map_copy(x->rel),
                                                  isl_set_copy(acc->context)));
}

/* Whether no instance of zero store wz runs at or after an instance of
 * wr that touches the same element. */
static int zeros_first(const an_accesses *acc, const an_access *wz, const an_access *wr)
{
    const an_stmt_info *iz = an_find_stmt(acc, wz->stmt_name), *ir = an_find_stmt(acc, wr->stmt_name);
    if (!iz || !ir)
        return 0;
    isl_map *pairs = isl_map_apply_range(isl_map_copy(wz->rel),
                                         isl_map_reverse(isl_map_copy(wr->rel)));
    pairs = isl_map_intersect(pairs, isl_map_lex_ge_map(isl_map_copy(iz->schedule),
                                                        isl_map_copy(ir->schedule)));
    pairs = isl_map_intersect_params(pairs, isl_set_copy(acc->context));
    isl_bool empty = isl_map_is_empty(pairs);
    isl_map_free(pairs);
    return empty == isl_bool_true;
}

/* Whether, on f's accesses, the `+=` statements rs may become stores: the
 * zero store z and they are the only accesses of their tensor, all exact;
 * each of rs updates an element at most once and no two of them the same
 * one; together they cover exactly z's elements; and every instance of z
 * runs before every instance of rs on the same element.  So each element
 * holds 0 when its one `+=` runs, which then stores its value. */
static int forwardable(const an_accesses *acc, const ast_stmt *z, const ft_vec *rs)
{
    const an_access *wz = write_of(acc, z);
    if (!wz || !wz->exact)
        return 0;
    int nacc = 0;
    for (int k = 0; k < acc->n; k++)
        nacc += strcmp(acc->acc[k]->var, wz->var) == 0;
    if (nacc != 1 + rs->len)
        return 0;
    isl_set *covered = NULL;
    int ok = 1;
    for (int i = 0; ok && i < rs->len; i++) {
        const an_access *wr = write_of(acc, rs->items[i]);
        ok = wr && wr->exact && strcmp(wr->var, wz->var) == 0 && injective(acc, wr) &&
             zeros_first(acc, wz, wr);
        if (!ok)
            break;
        isl_set *e = elements(acc, wr);
        if (covered) {
            isl_set *both = isl_set_intersect(isl_set_copy(covered), isl_set_copy(e));
            ok = isl_set_is_empty(both) == isl_bool_true;
            isl_set_free(both);
            covered = isl_set_union(covered, e);
        } else
            covered = e;
    }
    if (ok && covered) {
        isl_set *ez = elements(acc, wz);
        ok = isl_set_is_equal(covered, ez) == isl_bool_true;
        isl_set_free(ez);
    }
    isl_set_free(covered);
    return ok && rs->len > 0;
}

/* Turn reduction r, in place, into the store `var[idx] = value` (its ID
 * and label kept), the value converted to the tensor's dtype dt. */
static void reduce_to_store(ft_ctx *ctx, ast_stmt *r, ft_dtype dt)
{
    const char *var = r->u.red.var;
    int n = r->u.red.n;
    ast_expr **idx = r->u.red.idx;
    ast_expr *value = xf_convert(ctx, r->u.red.value, dt);
    r->kind = AST_STORE;
    r->u.store.var = var;
    r->u.store.n = n;
    r->u.store.idx = idx;
    r->u.store.value = value;
}

int xf_auto_zero_init(xf_auto *a)
{
    zi_walk w = {.v.stmt = zi_stmt_cb, .v.expr = zi_expr_cb, .ctx = a->ctx};
    ast_visit(a->f->body, &w.v);
    zi_lib lib = {{zi_lib_cb, NULL}, a->ctx, {0}};
    ast_visit(a->f->body, &lib.v);
    ft_vec cand = {0};            /* name slots */
    for (int i = 0; i < w.names.len; i++) {
        const int *c = w.counts.items[i];
        if (c[0] == 1 && c[1] >= 1 && c[2] == 0 && !xf_has_name(&lib.names, w.names.items[i]))
            ft_vec_push(a->ctx, &cand, (void *)(intptr_t)i);
    }
    if (cand.len == 0)
        return 0;
    an_accesses *acc = an_collect_accesses(a->ctx, a->f);
    if (!acc)
        return 0;
    int done = 0;
    for (int i = 0; i < cand.len; i++) {
        int k = (int)(intptr_t)cand.items[i];
        ast_stmt *z = w.zero.items[k];
        const ft_vec *rs = w.add.items[k];
        ft_dtype dt;
        if (!forwardable(acc, z, rs) ||
            !xf_find_decl(a->ctx, a->f, rs->items[0], w.names.items[k], &dt, NULL, NULL))
            continue;
        for (int r = 0; r < rs->len; r++) {
            xf_auto_log(a, PASS, xf_auto_name(a, rs->items[r]), "`%s[...] += v` became "
                        "`%s[...] = v`: the element holds the 0 stored before, nothing "
                        "else touches it (the zero store dropped)", (const char *)w.names.items[k],
                        (const char *)w.names.items[k]);
            reduce_to_store(a->ctx, rs->items[r], dt);
        }
        xf_make_empty(z);
        done++;
    }
    an_accesses_free(acc);
    if (done) {
        ast_func *f = a->f;
        ast_program one = {.nfuncs = 1, .funcs = &f};
        xf_remove_dead(a->ctx, &one);
    }
    return done;
}
