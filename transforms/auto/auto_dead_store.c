/* auto_dead_store.c - drop writes of locals whose values are never read.
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
