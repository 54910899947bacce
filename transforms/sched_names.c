/* sched_names.c - what a schedule line names, found one way.
 *
 * Requires: a lowered function (labels unique, VarDefs with the program's
 * name in def.src where the AST's differs).
 * Provides: the lookup every primitive uses (xf_find_stmt, xf_find_loop,
 * xf_find_local), and xf_name_schedule_targets, which the driver runs
 * right after lowering so that the cleanup passes keep what the schedules
 * name (transforms/cleanup.h): schedules see the program as written.
 *
 * A statement is named by its label, else a loop by its iterator when one
 * loop only has it.  A local is named by the label of its VarDef, else by
 * its name, the AST's or the program's (a shadowing `var t` is t_1 in the
 * AST; `t` then names two locals, and a label picks one).
 */
#include "schedule.h"

#include <string.h>

#include "sched_util.h"
#include "visit.h"

/* The statements of a function that a name may denote. */
typedef struct name_matches {
    ast_visitor v;
    const char *name;
    ast_stmt *label;        /* the first statement labelled name */
    ast_stmt *def_label;    /* the first VarDef labelled name */
    ft_vec loops;           /* loops iterating over name */
    ft_vec defs;            /* VarDefs declaring name (AST or program name) */
    ft_ctx *ctx;
} name_matches;

/* Note s when name may denote it. */
static int match_cb(ast_visitor *v, ast_stmt *s)
{
    name_matches *m = (name_matches *)v;
    if (s->label && strcmp(s->label, m->name) == 0) {
        if (!m->label)
            m->label = s;
        if (s->kind == AST_VARDEF && !m->def_label)
            m->def_label = s;
    }
    if (s->kind == AST_FOR && strcmp(s->u.loop.iter, m->name) == 0)
        ft_vec_push(m->ctx, &m->loops, s);
    if (s->kind == AST_VARDEF && (strcmp(s->u.def.name, m->name) == 0 ||
                                  (s->u.def.src && strcmp(s->u.def.src, m->name) == 0)))
        ft_vec_push(m->ctx, &m->defs, s);
    return 1;
}

/* Every statement of f that name may denote. */
static name_matches matches(ft_ctx *ctx, ast_func *f, const char *name)
{
    name_matches m = {.v.stmt = match_cb, .name = name, .ctx = ctx};
    ast_visit(f->body, &m.v);
    return m;
}

/* The one loop of m, or NULL after an error at loc (ambiguous: label the
 * one you mean). */
static ast_stmt *one_loop(ft_ctx *ctx, const ast_func *f, const name_matches *m, ft_loc loc)
{
    if (m->loops.len == 1)
        return m->loops.items[0];
    if (m->loops.len > 1)
        ft_error(ctx, loc, "'%s' names %d loops of '%s'; label the one you mean "
                 "(`L: for %s in ...`)", m->name, m->loops.len, f->name, m->name);
    return NULL;
}

ast_stmt *xf_find_stmt(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc)
{
    name_matches m = matches(ctx, f, name);
    if (m.label)
        return m.label;
    ast_stmt *s = one_loop(ctx, f, &m, loc);
    if (!s && m.loops.len == 0)
        ft_error(ctx, loc, "'%s' has no statement labelled '%s' and no loop iterating "
                 "over it", f->name, name);
    return s;
}

ast_stmt *xf_find_loop(ft_ctx *ctx, ast_func *f, const char *name, ft_loc loc)
{
    name_matches m = matches(ctx, f, name);
    if (m.label && m.label->kind != AST_FOR) {
        ft_error(ctx, loc, "'%s' is not a loop: it labels a statement of '%s'", name,
                 f->name);
        return NULL;
    }
    if (m.label)
        return m.label;
    ast_stmt *s = one_loop(ctx, f, &m, loc);
    if (!s && m.loops.len == 0)
        ft_error(ctx, loc, "'%s' has no loop labelled or iterating over '%s'", f->name, name);
    return s;
}

ast_stmt *xf_find_local(ft_ctx *ctx, ast_func *f, const char *name, const char *prim, ft_loc loc)
{
    for (int i = 0; i < f->nparams; i++)
        if (strcmp(f->params[i].name, name) == 0) {
            ft_error(ctx, loc, "cannot %s '%s': it is a parameter of '%s', whose layout and "
                     "memory type are the function's ABI", prim, name, f->name);
            return NULL;
        }
    name_matches m = matches(ctx, f, name);
    if (m.def_label)
        return m.def_label;
    if (m.defs.len == 1)
        return m.defs.items[0];
    if (m.defs.len > 1)
        ft_error(ctx, loc, "cannot %s '%s': %d locals of '%s' have that name; label the one "
                 "you mean (`L: var %s ...`)", prim, name, m.defs.len, f->name, name);
    else
        ft_error(ctx, loc, "cannot %s '%s': '%s' has no local tensor of that name", prim, name,
                 f->name);
    return NULL;
}

/* Whether the VarDef d is named name (its label, AST or program name). */
static int def_named(const ast_stmt *d, const char *name)
{
    return (d->label && strcmp(d->label, name) == 0) || strcmp(d->u.def.name, name) == 0 ||
           (d->u.def.src && strcmp(d->u.def.src, name) == 0);
}

const char *xf_visible_tensor(ft_ctx *ctx, ast_func *f, const ast_stmt *s, const char *name)
{
    ft_vec anc = {0};
    xf_ancestors(ctx, f->body, s, &anc);
    for (int i = anc.len - 1; i >= 0; i--) {
        const ast_stmt *a = anc.items[i];
        if (a->kind == AST_VARDEF && def_named(a, name))
            return a->u.def.name;
    }
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].is_size && strcmp(f->params[i].name, name) == 0)
            return name;
    return NULL;
}

/* ------------------------------------------------- keeping what is named */

/* Mark what name may denote in f as named (xf_kept): the loops iterating
 * over it unless a label is the name, the locals of that name unless a
 * VarDef's label is.  A label needs nothing: labelled statements are kept. */
static void mark_named(ft_ctx *ctx, ast_func *f, const char *name)
{
    name_matches m = matches(ctx, f, name);
    for (int i = 0; i < m.loops.len && !m.label; i++)
        ((ast_stmt *)m.loops.items[i])->named = 1;
    for (int i = 0; i < m.defs.len && !m.def_label; i++)
        ((ast_stmt *)m.defs.items[i])->named = 1;
}

/* Mark every name among the arguments of the schedule line s (keyword
 * arguments' values included). */
static void mark_line(ft_ctx *ctx, ast_func *f, const ast_sched_line *s)
{
    const ast_sarg *e = s->value;
    if (!e || e->kind != AST_SARG_CALL)
        return;
    for (int i = 0; i < e->nkids; i++) {
        const ast_sarg *a = e->kids[i];
        if (a && a->kind == AST_SARG_KW)
            a = a->kids[0];
        if (a && a->kind == AST_SARG_NAME)
            mark_named(ctx, f, a->name);
    }
}

void xf_name_schedule_targets(ft_ctx *ctx, ast_program *p)
{
    for (int i = 0; i < p->nschedules; i++) {
        const ast_schedule *k = &p->schedules[i];
        for (int j = 0; j < p->nfuncs; j++)
            if (strcmp(p->funcs[j]->name, k->func) == 0)
                for (int l = 0; l < k->nlines; l++)
                    mark_line(ctx, p->funcs[j], &k->lines[l]);
    }
}
