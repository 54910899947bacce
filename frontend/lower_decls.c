/* lower_decls.c - the declarations about functions (`schedule` blocks and
 * `grad` lines) from the parse tree into the AST program, so that no pass
 * after lowering reads the parse tree.
 *
 * Nothing is checked here: a schedule line keeps its arguments as
 * written (ast_sarg), and transforms/schedule.c reports what is wrong with
 * them when the line runs, in line order among the primitives' own errors;
 * autodiff/grad.c checks the grad lines.
 */
#include "lower.h"

#include <string.h>

/* The schedule argument of the expression e (NULL stays NULL). */
static ast_sarg *sarg_of(ft_ctx *ctx, const pt_node *e)
{
    if (!e)
        return NULL;
    ast_sarg *a = ft_alloc(ctx, sizeof *a);
    *a = (ast_sarg){.kind = AST_SARG_OTHER, .loc = e->loc};
    const pt_node *k0 = e->nkids ? e->kids[0] : NULL;
    int from = 0;
    if (e->kind == PT_NAME) {
        a->kind = AST_SARG_NAME, a->name = e->name;
    } else if (e->kind == PT_INT) {
        a->kind = AST_SARG_INT, a->ival = e->ival;
    } else if (e->kind == PT_UNARY && e->op == PT_OP_NEG && k0->kind == PT_INT) {
        a->kind = AST_SARG_INT, a->ival = -k0->ival;
    } else if (e->kind == PT_ATTR && k0->kind == PT_NAME) {
        a->kind = AST_SARG_ATTR, a->name = e->name, a->base = k0->name;
    } else if (e->kind == PT_BINARY && e->op == PT_OP_DIV && k0->kind == PT_NAME &&
               e->kids[1]->kind == PT_NAME) {
        a->kind = AST_SARG_PATH, a->name = ft_fmt(ctx, "%s/%s", k0->name, e->kids[1]->name);
    } else if (e->kind == PT_LIST) {
        a->kind = AST_SARG_LIST;
    } else if (e->kind == PT_KWARG) {
        a->kind = AST_SARG_KW, a->name = e->name;
    } else if (e->kind == PT_CALL && k0->kind == PT_NAME) {
        a->kind = AST_SARG_CALL, a->name = k0->name, a->name_loc = k0->loc, from = 1;
    }
    if (a->kind == AST_SARG_LIST || a->kind == AST_SARG_KW || a->kind == AST_SARG_CALL) {
        a->nkids = e->nkids - from;
        a->kids = ft_alloc(ctx, sizeof *a->kids * (size_t)(a->nkids + 1));
        for (int i = 0; i < a->nkids; i++)
            a->kids[i] = sarg_of(ctx, e->kids[from + i]);
    }
    return a;
}

/* The schedule line of the statement s. */
static ast_sched_line sched_line_of(ft_ctx *ctx, const pt_node *s)
{
    ast_sched_line ln = {.loc = s->loc};
    if (s->kind == PT_EXPRSTMT)
        ln.value = sarg_of(ctx, s->kids[0]);
    if (s->kind != PT_ASSIGN)
        return ln;
    const pt_node *t = s->kids[0];
    ln.value = sarg_of(ctx, s->kids[1]);
    ln.assigns = 1;
    ln.plain = s->op == PT_OP_ASSIGN;
    ln.results_loc = t->loc;
    ln.nres = t->kind == PT_TUPLE ? t->nkids : 1;
    ln.res = ft_alloc(ctx, sizeof *ln.res * (size_t)(ln.nres + 1));
    for (int i = 0; i < ln.nres; i++)
        ln.res[i] = sarg_of(ctx, t->kind == PT_TUPLE ? t->kids[i] : t);
    return ln;
}

/* The `schedule` block k. */
static ast_schedule schedule_of(ft_ctx *ctx, const pt_node *k)
{
    const pt_node *block = k->kids[0];
    ast_schedule sc = {.func = k->name, .loc = k->loc, .nlines = block->nkids};
    sc.lines = ft_alloc(ctx, sizeof *sc.lines * (size_t)(sc.nlines + 1));
    for (int i = 0; i < sc.nlines; i++)
        sc.lines[i] = sched_line_of(ctx, block->kids[i]);
    return sc;
}

/* The `grad` line k. */
static ast_grad_decl grad_of(ft_ctx *ctx, const pt_node *k)
{
    const pt_node *w = k->kids[0], *g = k->kids[1];
    ast_grad_decl d = {.func = k->name, .loc = k->loc, .mode = k->str ? k->str : "auto",
                       .nwrt = w->nkids, .name = g->name, .name_loc = g->loc};
    d.wrt = ft_alloc(ctx, sizeof *d.wrt * (size_t)(d.nwrt + 1));
    for (int i = 0; i < d.nwrt; i++)
        d.wrt[i] = w->kids[i]->name;
    return d;
}

void fe_lower_decls(ft_ctx *ctx, const pt_node *file, ast_program *p)
{
    int ns = 0, ng = 0;
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        ns += k && k->kind == PT_SCHEDULE;
        ng += k && k->kind == PT_GRAD;
    }
    p->schedules = ft_alloc(ctx, sizeof *p->schedules * (size_t)(ns + 1));
    p->grads = ft_alloc(ctx, sizeof *p->grads * (size_t)(ng + 1));
    for (int i = 0; i < file->nkids; i++) {
        const pt_node *k = file->kids[i];
        if (k && k->kind == PT_SCHEDULE)
            p->schedules[p->nschedules++] = schedule_of(ctx, k);
        else if (k && k->kind == PT_GRAD)
            p->grads[p->ngrads++] = grad_of(ctx, k);
    }
}
