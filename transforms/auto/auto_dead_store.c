/* auto_dead_store.c - drop writes of locals whose values are never read,
 * and zeros that a `+=` only adds to.
 *
 * Requires: f's AST (run first, before the passes whose legality checks the
 * dropped writes would only get in the way of).
 * Provides: no Store or Reduce into a local tensor (a `var` of f of at
 * least one dimension, not a parameter: a parameter's last values are the
 * function's results) that
 * writes elements no later statement instance reads; then xf_remove_dead's
 * normal form (the loops those writes leave empty are gone).
 *
 * The typical case is a gradient's backward pass: the adjoint of an
 * overwrite `hf[i] = ...` resets `d_hf[i, :] = 0` after its last use, and
 * nothing reads row i again (GAT's backward stored 12.8 MB of such zeros
 * per call, and the stores kept its loops over row i from fusing).
 * xf_remove_dead (transforms/remove_dead.c) only sees whole scope-list
 * items; this pass asks per element, with isl, on the access relations of
 * analysis/access.h:
 *
 *     dead(W)  <=>  { W[i] -> R[j] : W[i] and R[j] touch one element of t,
 *                     time(W[i]) < time(R[j]) }  is empty for every read R of t
 *
 * (reads: Loads anywhere, conditions and loop bounds included, and
 * Reduces).  Sound without kills: a read that a later write would shadow
 * still keeps W.  A local declared inside loops has one copy per iteration
 * of them (access.h prefixes its elements with those iterators), so a read
 * in another iteration is of another copy.  What isl cannot express is
 * over-approximated by access.h (more elements, more instances), which only
 * keeps more writes.  Kept: labelled writes (schedules name them), writes
 * whose index is checked at run time (they may end the function with an
 * error), and everything in a function with a loop of non-constant step
 * (access.h assumes such a loop runs upwards, so the order is not known).
 *
 * xf_auto_zero_init (run after auto_jam, whose jammed sums it needs as
 * `+=` flushes): a tensor (parameter or local) accessed only by one store
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

static const char *const PASS = "auto_dead_store";

/* Whether the tensor written by statement w (a Store or Reduce) is a local
 * tensor of the function: the innermost VarDef around w of that name
 * (info's ancestors) is a `cache` local of at least one dimension (a 0-D
 * local is a C scalar, whose dead stores the C compiler drops itself). */
static int writes_local(const an_stmt_info *info, const ast_stmt *w)
{
    const char *var = w->kind == AST_STORE ? w->u.store.var : w->u.red.var;
    for (int k = info->nanc - 1; k >= 0; k--) {
        const ast_stmt *s = info->anc[k];
        if (s->kind == AST_VARDEF && strcmp(s->u.def.name, var) == 0)
            return s->u.def.access == FT_ACC_CACHE && s->u.def.ndim > 0;
    }
    return 0;
}

/* Whether some instance of access r (a read of w's tensor) runs after an
 * instance of write w and touches an element it wrote; 1 on isl errors
 * too (the write is kept). */
static int read_after(const an_accesses *acc, const an_access *w, const an_stmt_info *wi,
                      const an_access *r)
{
    const an_stmt_info *ri = an_find_stmt(acc, r->stmt_name);
    if (!ri)
        return 1;
    isl_map *pairs = isl_map_apply_range(isl_map_copy(w->rel),
                                         isl_map_reverse(isl_map_copy(r->rel)));
    isl_map *later = isl_map_lex_lt_map(isl_map_copy(wi->schedule), isl_map_copy(ri->schedule));
    pairs = isl_map_intersect(pairs, later);
    pairs = isl_map_intersect_params(pairs, isl_set_copy(acc->context));
    isl_bool empty = isl_map_is_empty(pairs);
    isl_map_free(pairs);
    return empty != isl_bool_true;
}

/* Whether write access w (of a Store or Reduce into a local) is dead: no
 * read of its tensor after it touches an element it wrote. */
static int dead_write(const an_accesses *acc, const an_access *w)
{
    const an_stmt_info *wi = an_find_stmt(acc, w->stmt_name);
    if (!wi || !w->stmt || !writes_local(wi, w->stmt))
        return 0;
    for (int k = 0; k < acc->n; k++) {
        const an_access *r = acc->acc[k];
        if (r->kind != AN_ACC_WRITE && strcmp(r->var, w->var) == 0 &&
            read_after(acc, w, wi, r))
            return 0;
    }
    return 1;
}

/* The cheap walk before isl: in source order, the writes of each local
 * since the last read of it (a Load anywhere, or a Reduce); a write that
 * some read follows in the text is not a candidate (the usual producer
 * and consumer), so most functions never need the access relations.
 * Tensors are told apart by name only: a read of another tensor of the
 * same name (a VarDef reusing it) clears too, which only drops
 * candidates; the isl check below tells them apart.  Also notes a loop of
 * non-constant step. */
typedef struct cand_walk {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec names;            /* const char *: tensors with pending writes */
    ft_vec pending;          /* ft_vec * of ast_stmt *, parallel to names */
    int odd_step;
} cand_walk;

/* The pending writes of var (created empty when create is set). */
static ft_vec *pending_of(cand_walk *w, const char *var, int create)
{
    for (int i = 0; i < w->names.len; i++)
        if (strcmp(w->names.items[i], var) == 0)
            return w->pending.items[i];
    if (!create)
        return NULL;
    ft_vec *v = ft_alloc(w->ctx, sizeof *v);
    *v = (ft_vec){0};
    ft_vec_push(w->ctx, &w->names, (void *)var);
    ft_vec_push(w->ctx, &w->pending, v);
    return v;
}

/* A read of var: the writes before it are no longer candidates. */
static void cand_read(cand_walk *w, const char *var)
{
    ft_vec *v = pending_of(w, var, 0);
    if (v)
        v->len = 0;
}

static void cand_expr_cb(ast_visitor *v, ast_expr *e)
{
    if (e->kind == AST_LOAD)
        cand_read((cand_walk *)v, e->u.load.var);
}

static int cand_stmt_cb(ast_visitor *v, ast_stmt *s)
{
    cand_walk *w = (cand_walk *)v;
    if (s->kind == AST_FOR && s->u.loop.step && s->u.loop.step->kind != AST_INT)
        w->odd_step = 1;
    if (s->kind == AST_REDUCE)
        cand_read(w, s->u.red.var);
    if ((s->kind == AST_STORE || s->kind == AST_REDUCE) && !s->label && !xf_stmt_checked(s))
        ft_vec_push(w->ctx, pending_of(w, s->kind == AST_STORE ? s->u.store.var : s->u.red.var, 1),
                    s);
    return 1;
}

/* Whether name can only be a local tensor of f (of at least one
 * dimension): no parameter has it, and a VarDef of such a local does. */
static int local_tensor_name(const ast_func *f, const ft_vec *defs, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (strcmp(f->params[i].name, name) == 0)
            return 0;
    for (int i = 0; i < defs->len; i++) {
        const ast_stmt *d = defs->items[i];
        if (strcmp(d->u.def.name, name) == 0 && d->u.def.ndim > 0 &&
            d->u.def.access == FT_ACC_CACHE)
            return 1;
    }
    return 0;
}

/* The candidate writes of f (ast_stmt *): writes after the last read of
 * their tensor in the text; *odd_step set when f has a loop of
 * non-constant step. */
static void find_candidates(xf_auto *a, ft_vec *cands, int *odd_step)
{
    cand_walk w = {.v.stmt = cand_stmt_cb, .v.expr = cand_expr_cb, .ctx = a->ctx};
    ast_visit(a->f->body, &w.v);
    *odd_step = w.odd_step;
    ft_vec defs = {0};
    xf_collect_vardefs(a->ctx, a->f->body, &defs);
    for (int i = 0; i < w.pending.len; i++) {
        const ft_vec *v = w.pending.items[i];
        if (local_tensor_name(a->f, &defs, w.names.items[i]))
            for (int k = 0; k < v->len; k++)
                ft_vec_push(a->ctx, cands, v->items[k]);
    }
}

/* Of the candidate writes, those that are dead (ast_stmt *), decided on
 * one collection of f's accesses. */
static void find_dead(xf_auto *a, const ft_vec *cands, ft_vec *dead)
{
    an_accesses *acc = an_collect_accesses(a->ctx, a->f);
    if (!acc)
        return;
    for (int k = 0; k < acc->n; k++) {
        const an_access *w = acc->acc[k];
        ast_stmt *s = w->stmt;
        if (w->kind == AN_ACC_READ || !s)
            continue;
        int cand = 0, seen = 0;
        for (int i = 0; i < cands->len; i++)
            cand |= cands->items[i] == s;
        for (int i = 0; i < dead->len; i++)
            seen |= dead->items[i] == s;
        if (cand && !seen && dead_write(acc, w))
            ft_vec_push(a->ctx, dead, s);
    }
    an_accesses_free(acc);
}

int xf_auto_dead_store(xf_auto *a)
{
    ft_vec cands = {0}, dead = {0};
    int odd_step = 0;
    find_candidates(a, &cands, &odd_step);
    if (odd_step || cands.len == 0)
        return 0;
    find_dead(a, &cands, &dead);
    for (int i = 0; i < dead.len; i++) {
        ast_stmt *s = dead.items[i];
        const char *var = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
        xf_auto_log(a, PASS, xf_auto_name(a, s), "write of %s removed: no later statement "
                    "reads an element it writes", var);
        xf_make_empty(s);
    }
    if (dead.len) {
        ast_func *f = a->f;
        ast_program one = {.nfuncs = 1, .funcs = &f};
        xf_remove_dead(a->ctx, &one);
    }
    return dead.len;
}

/* ------------------------------------------------- zero-init forwarding */

/* Whether e is the literal 0 (possibly converted). */
static int is_zero(const ast_expr *e)
{
    if (e->kind == AST_CAST)
        return is_zero(e->u.cast.a);
    return (e->kind == AST_INT && e->u.ival == 0) || (e->kind == AST_FLOAT && e->u.fval == 0.0);
}

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
        if (is_zero(s->u.store.value) && !s->label && !xf_stmt_checked(s)) {
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
    ft_vec cand = {0};            /* name slots */
    for (int i = 0; i < w.names.len; i++) {
        const int *c = w.counts.items[i];
        if (c[0] == 1 && c[1] >= 1 && c[2] == 0)
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
