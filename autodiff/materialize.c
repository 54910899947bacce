/* materialize.c - selective materialization: save or recompute each local.
 *
 * A local the backward pass reads (directly, or through the recomputation
 * of another local) is restored on entry to its scope in the backward pass,
 * from the tape or by running its forward statements again (its replay:
 * the writes to it and to the locals declared in its scope that they read,
 * under their loops and branches).  The costs, per local t:
 *   save       versions(t) * size(t) elements of tape
 *   recompute  versions(t) * work(t) statement instances run again
 * `tape all` saves every local it can count (versions and size symbolic in
 * the sizes), `tape none` recomputes all, and `tape auto` (FreeTensor's
 * Fig. 15(c)) compares the two costs per version, as numbers with every
 * size parameter taken as AD_COST_SIZE:
 *   save       AD_SAVE_ACCESSES * size(t) * m: each element is stored to
 *              the tape in the forward pass and loaded in the backward
 *              pass; m is 1, or AD_MEM_WEIGHT when the region (all the
 *              versions) is larger than AD_CACHE_ELEMS: then both accesses
 *              go to memory;
 *   recompute  work(t): one per statement instance of the replay (its
 *              loads mostly hit what the backward iteration touches anyway)
 * and recomputes t only when that is strictly cheaper.  A scalar computed
 * by one statement (1 < 2) is recomputed in the backward iteration that
 * uses it; a reduction, or a tensor computed by one loop nest and used by
 * another (n instances or more for n elements, a region that fits the
 * caches), is saved; a small local of every iteration of a long loop
 * (SubdivNet's f1: 4 instances per element, 2 accesses to memory) is
 * recomputed where the backward iteration has its inputs at hand.
 */
#include "ad.h"

#include <string.h>

#include "../transforms/sched_util.h"
#include "../transforms/xf_util.h"

static ft_loc noloc;

/* Add to want the locals declared inside body that the writes to want
 * (and the loops and branches around them, within body) read; add the
 * locals declared outside to outside.  Returns how many were added. */
static int grow_want(ad_grad *g, const ast_stmt *body, const ast_stmt *s, ft_vec *ctl,
                     ft_vec *want, ft_vec *outside)
{
    if (!s)
        return 0;
    int added = 0;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            added += grow_want(g, body, s->u.seq.stmts[i], ctl, want, outside);
        return added;
    case AST_VARDEF: return grow_want(g, body, s->u.def.body, ctl, want, outside);
    case AST_FOR: case AST_IF:
        ft_vec_push(g->ctx, ctl, (void *)s);
        if (s->kind == AST_FOR) {
            added += grow_want(g, body, s->u.loop.body, ctl, want, outside);
        } else {
            added += grow_want(g, body, s->u.branch.then, ctl, want, outside);
            added += grow_want(g, body, s->u.branch.other, ctl, want, outside);
        }
        ctl->len--;
        return added;
    case AST_STORE: case AST_REDUCE: break;
    default: return 0;
    }
    const char *var = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
    if (!xf_has_name(want, var))
        return 0;
    ft_vec names = {0};
    xf_stmt_loaded(g->ctx, s, &names);
    for (int i = 0; i < ctl->len; i++) {
        const ast_stmt *c = ctl->items[i];
        if (c->kind == AST_IF) {
            xf_expr_loaded(g->ctx, c->u.branch.cond, &names);
        } else {
            xf_expr_loaded(g->ctx, c->u.loop.begin, &names);
            xf_expr_loaded(g->ctx, c->u.loop.end, &names);
        }
    }
    for (int i = 0; i < names.len; i++) {
        const char *n = names.items[i];
        if (!ad_find_local(g, n))
            continue;
        if (xf_defines(body, n)) {
            if (!xf_has_name(want, n)) {
                ft_vec_push(g->ctx, want, (void *)n);
                added++;
            }
        } else if (!xf_has_name(outside, n)) {
            ft_vec_push(g->ctx, outside, (void *)n);
        }
    }
    return added;
}

/* The statements of s that write tensors of want, with their loops,
 * branches and VarDefs; *work += their instances (times mult); *loops set
 * when a loop is kept.  NULL when nothing is kept. */
static ast_stmt *filter(ad_grad *g, const ast_stmt *s, const ft_vec *want, ast_expr *mult,
                        ast_expr **work, int *loops)
{
    if (!s)
        return NULL;
    ft_ctx *c = g->ctx;
    switch (s->kind) {
    case AST_SEQ: {
        ast_stmt **v = ft_alloc(c, sizeof *v * (size_t)(s->u.seq.n + 1));
        int n = 0;
        for (int i = 0; i < s->u.seq.n; i++)
            if ((v[n] = filter(g, s->u.seq.stmts[i], want, mult, work, loops)))
                n++;
        return n ? ast_seq(c, s->loc, n, v) : NULL;
    }
    case AST_VARDEF: {
        ast_stmt *b = filter(g, s->u.def.body, want, mult, work, loops);
        if (!b)
            return NULL;
        ast_stmt *d = ast_clone_stmt(c, s, AST_CLONE_NEW);
        d->u.def.body = b;
        return d;
    }
    case AST_FOR: {
        ast_expr *t = ad_trip_count(c, s);
        ast_expr *m = mult && t ? ad_mul(c, ast_clone_expr(c, mult), t) : NULL;
        ast_expr *w0 = *work;
        ast_stmt *b = filter(g, s->u.loop.body, want, m, work, loops);
        if (!b)
            return NULL;
        if (!m && w0 == *work)
            *work = NULL;
        *loops = 1;
        ast_stmt *f = ast_for(c, s->loc, s->u.loop.iter, ast_clone_expr(c, s->u.loop.begin),
                              ast_clone_expr(c, s->u.loop.end),
                              s->u.loop.step ? ast_clone_expr(c, s->u.loop.step) : NULL, b);
        return f;
    }
    case AST_IF: {
        ast_stmt *t = filter(g, s->u.branch.then, want, mult, work, loops);
        ast_stmt *o = filter(g, s->u.branch.other, want, mult, work, loops);
        if (!t && !o)
            return NULL;
        return ast_if(c, s->loc, ast_clone_expr(c, s->u.branch.cond),
                      t ? t : ast_seq(c, s->loc, 0, NULL), o);
    }
    case AST_STORE: case AST_REDUCE: {
        const char *var = s->kind == AST_STORE ? s->u.store.var : s->u.red.var;
        if (!xf_has_name(want, var))
            return NULL;
        if (*work)
            *work = mult ? ad_add(c, *work, ast_clone_expr(c, mult)) : NULL;
        return ast_clone_stmt(c, s, AST_CLONE_NEW);
    }
    default: return NULL;
    }
}

/* Build l's replay; add the locals outside its scope that it reads to
 * outside.  Returns whether the replay runs a loop. */
static int build_replay(ad_grad *g, ad_local *l, ft_vec *outside)
{
    ft_vec want = {0}, ctl = {0};
    ft_vec_push(g->ctx, &want, (void *)l->def->u.def.name);
    const ast_stmt *body = l->def->u.def.body;
    while (grow_want(g, body, body, &ctl, &want, outside))
        ;
    int loops = 0;
    l->work = ast_int(g->ctx, noloc, 0);
    l->replay = filter(g, body, &want, ast_int(g->ctx, noloc, 1), &l->work, &loops);
    return loops;
}

/* The value of e with every name taken as AD_COST_SIZE (sizes are the only
 * names in versions, size and work); -1 when e is NULL or not countable. */
static double cost_value(const ast_expr *e)
{
    if (!e)
        return -1;
    switch (e->kind) {
    case AST_INT: return (double)e->u.ival;
    case AST_VAR: return AD_COST_SIZE;
    case AST_BINARY: {
        double a = cost_value(e->u.bin.a), b = cost_value(e->u.bin.b);
        if (a < 0 || b < 0)
            return -1;
        switch (e->u.bin.op) {
        case AST_ADD: return a + b;
        case AST_SUB: return a > b ? a - b : 0;
        case AST_MUL: return a * b;
        case AST_FLOORDIV: return b > 0 ? a / b : -1;
        case AST_MAX: return a > b ? a : b;
        case AST_MIN: return a < b ? a : b;
        default: return -1;
        }
    }
    default: return -1;
    }
}

/* A tensor declared outside l's scope that l's replay reads and that a
 * Store in l's scope overwrites (a WAR sink, restored only when the
 * backward pass reaches that Store), or NULL; the replay writes l and the
 * locals of l's scope it reads before reading them.  The replay runs on
 * entry to l's scope in the backward pass, where such a tensor still holds
 * a later value: l must be saved. */
static const char *overwritten_input(ad_grad *g, const ad_local *l)
{
    if (!l->replay)
        return NULL;
    ft_vec names = {0}, anc = {0};
    xf_stmt_loaded(g->ctx, l->replay, &names);
    for (int i = 0; i < g->war_sinks.len; i++) {
        const ast_stmt *s = g->war_sinks.items[i];
        const char *var = s->u.store.var;
        if (xf_has_name(&names, var) && strcmp(var, l->def->u.def.name) &&
            !xf_defines(l->def->u.def.body, var) &&
            xf_ancestors(g->ctx, l->def->u.def.body, s, &anc))
            return var;
    }
    return NULL;
}

/* Decide for local l by the tape mode and, for `tape auto`, the costs of
 * one version (l->save_cost, l->recompute_cost); set l->why. */
static void choose(ad_grad *g, ad_local *l)
{
    int countable = l->versions && l->size;
    double region = countable ? cost_value(l->versions) * cost_value(l->size) : -1;
    l->save_cost = countable ? AD_SAVE_ACCESSES * cost_value(l->size) *
                                   (region > AD_CACHE_ELEMS ? AD_MEM_WEIGHT : 1) : -1;
    l->recompute_cost = cost_value(l->work);
    const char *over = overwritten_input(g, l);
    if (over && countable) {
        l->decision = AD_SAVE;
        l->why = ft_fmt(g->ctx, "its recomputation reads `%s`, overwritten later in its scope",
                        over);
    } else if (over) {
        l->decision = AD_RECOMPUTE;
        l->why = "its versions cannot be counted";
        ft_unsupported(g->ctx, l->def->loc,
                       ft_fmt(g->ctx, "the gradient through `%s`, whose versions cannot be "
                              "counted and whose recomputation reads `%s`, overwritten later "
                              "in its scope,", l->def->u.def.name, over));
    } else if (g->mode == AD_TAPE_NONE) {
        l->decision = AD_RECOMPUTE;
        l->why = "tape none";
    } else if (!countable || l->save_cost < 0) {
        l->decision = AD_RECOMPUTE;
        l->why = "its versions or size are not expressions of the sizes";
    } else if (g->mode == AD_TAPE_ALL) {
        l->decision = AD_SAVE;
        l->why = "tape all";
    } else if (l->recompute_cost >= 0 && l->recompute_cost < l->save_cost) {
        l->decision = AD_RECOMPUTE;
        l->why = "recomputing is cheaper";
    } else {
        l->decision = AD_SAVE;
        l->why = l->recompute_cost < 0 ? "its recomputation cannot be counted"
                                       : "saving is cheaper";
    }
}

/* Mark the locals of names as needed; returns how many were new. */
static int mark_needed(ad_grad *g, const ft_vec *names)
{
    int n = 0;
    for (int k = 0; k < g->locals.len; k++) {     /* names may repeat */
        ad_local *l = g->locals.items[k];
        if (!l->needed && xf_has_name(names, l->def->u.def.name)) {
            l->needed = 1;
            n++;
        }
    }
    return n;
}

/* Fill the restore slot of each needed local. */
static void fill_slots(ad_grad *g)
{
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        if (!l->slot || l->decision == AD_UNUSED)
            continue;
        ast_stmt *r = l->decision == AD_SAVE ? ad_tape_copy(g, l, 0) : l->replay;
        if (!r)
            continue;
        ast_stmt **v = ft_alloc(g->ctx, sizeof *v);
        v[0] = r;
        l->slot->u.seq.n = 1;
        l->slot->u.seq.stmts = v;
    }
}

/* The local whose restore slot opens VarDef def of the backward pass, or
 * NULL (rev_vardef: the slot is the first item of its body). */
static ad_local *slot_owner(ad_grad *g, const ast_stmt *def)
{
    const ast_stmt *b = def->u.def.body;
    if (!b || b->kind != AST_SEQ || !b->u.seq.n)
        return NULL;
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        if (l->slot && l->slot == b->u.seq.stmts[0])
            return l;
    }
    return NULL;
}

/* Mark needed the locals that the loads in e read: the innermost VarDef
 * of scope (names / owners, innermost last) of each loaded name; every
 * local of that name when none declares it. */
static void mark_loads(ad_grad *g, const ast_expr *e, const ft_vec *names, const ft_vec *owners)
{
    ft_vec loaded = {0};
    if (!e)
        return;
    xf_expr_loaded(g->ctx, e, &loaded);
    for (int k = 0; k < loaded.len; k++) {
        int i = names->len - 1;
        while (i >= 0 && strcmp(names->items[i], loaded.items[k]))
            i--;
        if (i >= 0) {
            if (owners->items[i])
                ((ad_local *)owners->items[i])->needed = 1;
            continue;
        }
        ft_vec one = {0};
        ft_vec_push(g->ctx, &one, loaded.items[k]);
        mark_needed(g, &one);
    }
}

/* Mark needed the locals whose values the backward pass s reads, each load
 * resolved to the VarDef in scope: locals of one name in different scopes
 * (the dot-product accumulator `t` of Longformer and the `t` of the
 * softmax after it) are told apart, so that one read is not a reason to
 * save the other. */
static void mark_read(ad_grad *g, const ast_stmt *s, ft_vec *names, ft_vec *owners)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            mark_read(g, s->u.seq.stmts[i], names, owners);
        break;
    case AST_VARDEF:
        for (int k = 0; k < s->u.def.ndim; k++)
            mark_loads(g, s->u.def.shape[k], names, owners);
        ft_vec_push(g->ctx, names, (void *)s->u.def.name);
        ft_vec_push(g->ctx, owners, slot_owner(g, s));
        mark_read(g, s->u.def.body, names, owners);
        names->len--;
        owners->len--;
        break;
    case AST_FOR:
        mark_loads(g, s->u.loop.begin, names, owners);
        mark_loads(g, s->u.loop.end, names, owners);
        mark_loads(g, s->u.loop.step, names, owners);
        mark_read(g, s->u.loop.body, names, owners);
        break;
    case AST_IF:
        mark_loads(g, s->u.branch.cond, names, owners);
        mark_read(g, s->u.branch.then, names, owners);
        mark_read(g, s->u.branch.other, names, owners);
        break;
    case AST_STORE:
        for (int k = 0; k < s->u.store.n; k++)
            mark_loads(g, s->u.store.idx[k], names, owners);
        mark_loads(g, s->u.store.value, names, owners);
        break;
    case AST_REDUCE:
        for (int k = 0; k < s->u.red.n; k++)
            mark_loads(g, s->u.red.idx[k], names, owners);
        mark_loads(g, s->u.red.value, names, owners);
        break;
    case AST_ASSERT: mark_loads(g, s->u.cond, names, owners); break;
    case AST_EVAL: mark_loads(g, s->u.expr, names, owners); break;
    }
}

/* Mark needed the locals named in outside, what the replay of l reads
 * from outside its body, but l itself (a replay that reads l, as
 * `t[k] = t[k] / s` does, reads what it wrote: a local of l's name in
 * another scope is no reason to restore it). */
static void mark_outside(ad_grad *g, const ad_local *l, const ft_vec *outside)
{
    ft_vec others = {0};
    for (int i = 0; i < outside->len; i++)
        if (strcmp(outside->items[i], l->def->u.def.name))
            ft_vec_push(g->ctx, &others, outside->items[i]);
    mark_needed(g, &others);
}

int ad_decide(ad_grad *g, ast_stmt *bwd)
{
    ft_vec names = {0}, owners = {0};
    mark_read(g, bwd, &names, &owners);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < g->locals.len; i++) {
            ad_local *l = g->locals.items[i];
            if (!l->needed || l->decision != AD_UNUSED)
                continue;
            ad_local_shape(g, l);
            ft_vec outside = {0};
            build_replay(g, l, &outside);
            choose(g, l);
            if (l->decision == AD_RECOMPUTE)
                mark_outside(g, l, &outside);
            changed = 1;
        }
    }
    ad_layout_tape(g);
    fill_slots(g);
    return 0;
}

/* The text of e, or "?" when it is not symbolic. */
static const char *text(ad_grad *g, ast_expr *e)
{
    return e ? ast_expr_text(g->ctx, e) : "?";
}

void ad_explain(ad_grad *g, FILE *out)
{
    fprintf(out, "# tapes of %s (grad of %s, tape %s):\n", g->name, g->f->name,
            g->mode == AD_TAPE_ALL ? "all" : g->mode == AD_TAPE_NONE ? "none" : "auto");
    for (int i = 0; i < g->locals.len; i++) {
        ad_local *l = g->locals.items[i];
        const char *name = l->def->u.def.name;
        if (!l->needed) {
            fprintf(out, "#   %s: not read by the backward pass\n", name);
            continue;
        }
        fprintf(out, "#   %s: %s (%s); versions %s; per version: save %s elements, recompute "
                "%s statement instances", name, l->decision == AD_SAVE ? "save" : "recompute",
                l->why, text(g, l->versions), text(g, l->size), text(g, l->work));
        if (l->save_cost >= 0 && l->recompute_cost >= 0)
            fprintf(out, "; costs at sizes %d: save %g, recompute %g", AD_COST_SIZE,
                    l->save_cost, l->recompute_cost);
        fputc('\n', out);
    }
    for (int i = 0; i < g->overs.len; i++) {
        ad_local *o = g->overs.items[i];
        fprintf(out, "#   %s (overwritten at line %d): save the old value, %s elements\n",
                o->def->u.store.var, o->def->loc.line, text(g, o->versions));
    }
    fprintf(out, "#   tape: %s elements of %s\n", text(g, g->tape_elems),
            ft_dtype_name(g->tape_dtype));
}
