/* layout_place.c - the layouts of locals chosen over a whole function, and
 * the conversions that require_layout inserted placed.
 *
 * Requires: the lowered AST, before transforms/layout.c applies layouts;
 * each conversion a VarDef with def.conv_of (the tensor it copies) whose
 * first statement is the whole copy.
 * Provides: every local without a clause given a layout (def.layout, NULL
 * for row-major) that minimises what the function's whole-tensor copies
 * and operands cost between tensors of different layouts: the bytes they
 * read and write times how often they run (--layout-cost=count: one unit
 * per such edge, VTensor's cost), solved exactly by layout_solve.c over
 * the graph of values and edges (element-wise operands, and window
 * operands such as a convolution's input, whose nest can walk only one
 * of the two layouts contiguously); then each operand across layouts
 * that is cheaper to convert than to walk converted around its nest;
 * then conversions between equal layouts removed,
 * a chain of conversions composed into one, a conversion of a tensor a
 * loop does not write hoisted out of the loop, and one conversion shared
 * by the later consumers in its scope that need the same layout.
 * --layout-mode=local keeps every local row-major and every conversion
 * where it was put (a per-operator framework's baseline).  Sizes come from
 * --size NAME=N, else LP_DEFAULT_SIZE.  -v explains each choice;
 * --emit=layouts prints the values, conversions and totals.
 *
 * Always legal: only storage changes, and a conversion is moved or shared
 * only where its source is not written in between.
 */
#include "schedule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "rt.h"
#include "layout_solve.h"
#include "sched_util.h"
#include "xf_util.h"
#include "../ast/visit.h"

#define LP_DEFAULT_SIZE 64      /* a size parameter without --size */
#define LP_MAX_CANDS 8          /* candidate layouts of one local */
#define LP_TABLE_LIMIT 1000000  /* the solver's largest exact table */
#define COPY_TIE (1 + 1e-9)     /* edge_cost: a copy loses a tie */

/* The kinds of edges (add_edge). */
enum { LP_OPERAND, LP_COPY, LP_SLICE };

/* A tensor of the function: a parameter or a local. */
typedef struct lp_value {
    const char *name;
    const char **layout;     /* its layout text (param or def), NULL: row-major */
    int ndim;
    ast_expr **shape;
    ft_dtype dtype;
    ast_stmt *def;           /* its VarDef; NULL for a parameter */
    int free;                /* a local whose layout is chosen here */
    int var;                 /* its solver variable, or -1 */
    ft_vec cands;            /* candidate layout texts (NULL: row-major) */
} lp_value;

/* A store to[i..] = f(.., from[i..], ..) between values of one logical
 * shape: a whole copy, or an element-wise operand. */
typedef struct lp_edge {
    ast_stmt *store;
    lp_value *to, *from;
    double bytes;            /* read and written, over all its runs */
    double runs;             /* how often the copy nest runs */
    const char *where;       /* the outermost loop around it, or NULL */
    int kind;                /* LP_COPY, LP_SLICE or LP_OPERAND (add_edge) */
    ast_stmt *nest;          /* its own outermost loop (NULL: none) */
} lp_edge;

/* One function's graph. */
typedef struct lp_fn {
    ft_ctx *ctx;
    ast_func *f;
    ft_vec values;           /* lp_value * */
    ft_vec edges;            /* lp_edge * */
    ft_vec loops;            /* ast_stmt *: the loops around the walk */
    ft_vec chosen;           /* ast_stmt *: VarDefs whose layout was chosen */
} lp_fn;

/* The size --size gives name, else LP_DEFAULT_SIZE. */
static double size_hint(const ft_ctx *ctx, const char *name)
{
    double n;
    return xf_size_hint(ctx, name, &n) ? n : LP_DEFAULT_SIZE;
}

/* An integer expression's value with sizes from the hints (an estimate:
 * what it cannot evaluate counts LP_DEFAULT_SIZE). */
static double estimate(const ft_ctx *ctx, const ast_expr *e)
{
    if (!e)
        return LP_DEFAULT_SIZE;
    if (e->kind == AST_INT)
        return (double)e->u.ival;
    if (e->kind == AST_VAR)
        return size_hint(ctx, e->u.name);
    if (e->kind != AST_BINARY)
        return LP_DEFAULT_SIZE;
    double a = estimate(ctx, e->u.bin.a), b = estimate(ctx, e->u.bin.b);
    switch (e->u.bin.op) {
    case AST_ADD: return a + b;
    case AST_SUB: return a - b;
    case AST_MUL: return a * b;
    case AST_FLOORDIV: return b ? floor(a / b) : 0;
    case AST_MOD: return b ? a - b * floor(a / b) : 0;
    case AST_MIN: return a < b ? a : b;
    case AST_MAX: return a > b ? a : b;
    default: return LP_DEFAULT_SIZE;
    }
}

/* How often the loops around the walk run their bodies. */
static double loop_runs(const lp_fn *F, int from)
{
    double r = 1;
    for (int i = from; i < F->loops.len; i++) {
        double t = estimate(F->ctx, xf_trip_count(F->ctx, F->loops.items[i]));
        r *= t > 0 ? t : 0;
    }
    return r;
}

static lp_value *add_value(lp_fn *F, const char *name, const char **layout, int ndim,
                           ast_expr **shape, ft_dtype dt, ast_stmt *def)
{
    lp_value *v = ft_alloc(F->ctx, sizeof *v);
    *v = (lp_value){name, layout, ndim, shape, dt, def, 0, -1, {0}};
    v->free = def && !*layout && !def->u.def.conv_of && ndim > 0;
    ft_vec_push(F->ctx, &F->values, v);
    return v;
}

/* The value named name, or NULL. */
static lp_value *value_of(const lp_fn *F, const char *name)
{
    for (int i = F->values.len - 1; i >= 0; i--)
        if (strcmp(((lp_value *)F->values.items[i])->name, name) == 0)
            return F->values.items[i];
    return NULL;
}

/* Whether a and b have the same logical shape. */
static int same_shape(const lp_value *a, const lp_value *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (int k = 0; k < a->ndim; k++)
        if (!ast_expr_equal(a->shape[k], b->shape[k]))
            return 0;
    return 1;
}

/* An edge between the tensor store s writes and a tensor of its rank that
 * its value reads: a whole copy (LP_COPY at the same indices, same logical
 * shape: a conversion when the layouts differ), a copy of a part
 * (LP_SLICE: a concat's branch) or an operand (element-wise or window),
 * which walks one of the two against its storage order when the layouts
 * differ.  Weighed by the bytes both sides move over all runs. */
static void add_edge(lp_fn *F, ast_stmt *s, const ast_expr *load, int kind)
{
    int n;
    ast_expr *const *idx;
    lp_value *to = value_of(F, xf_written_tensor(s, &n, &idx));
    lp_value *from = value_of(F, load->u.load.var);
    if (!to || !from || to == from || to->ndim != from->ndim)
        return;
    if (kind == LP_COPY && !same_shape(to, from))
        kind = LP_SLICE;
    for (int i = F->edges.len - 1; i >= 0; i--) {
        const lp_edge *g = F->edges.items[i];
        if (g->store != s)
            break;
        if (g->from == from)
            return;             /* `x * x`: one operand */
    }
    int outer = 0;              /* the loops that run the whole copy: not its own */
    while (outer < F->loops.len) {
        const ast_stmt *l = F->loops.items[outer];
        int own = 0;
        for (int i = 0; i < n; i++)
            own |= xf_expr_uses_var(idx[i], l->u.loop.iter);
        if (own)
            break;
        outer++;
    }
    double elems = loop_runs(F, outer), all = loop_runs(F, 0);
    lp_edge *g = ft_alloc(F->ctx, sizeof *g);
    *g = (lp_edge){s, to, from, all * (double)(rt_dtype_size(to->dtype) +
                                               rt_dtype_size(from->dtype)),
                   all / (elems > 0 ? elems : 1),
                   outer ? ((ast_stmt *)F->loops.items[0])->u.loop.iter : NULL,
                   kind, outer < F->loops.len ? F->loops.items[outer] : NULL};
    ft_vec_push(F->ctx, &F->edges, g);
}

/* Whether load reads at exactly store s's indices. */
static int aligned(const ast_stmt *s, const ast_expr *load)
{
    if (s->kind != AST_STORE || load->u.load.n != s->u.store.n || !s->u.store.n)
        return 0;
    for (int i = 0; i < s->u.store.n; i++)
        if (!ast_expr_equal(load->u.load.idx[i], s->u.store.idx[i]))
            return 0;
    return 1;
}

/* Whether load reads a tensor of s's rank (3 or more) like a window or a
 * convolution's input: each dimension but at most one indexed by an
 * expression sharing a loop iterator with s's index of that dimension
 * (`t[n, o, oh, ow] += x[n, c, oh + kh, ow + kw] * ..`).  The two want one
 * storage order: the loop nest can walk only one of them contiguously. */
static int window_aligned(const lp_fn *F, const ast_stmt *s, const ast_expr *load)
{
    int n, other = 0;
    ast_expr *const *idx;
    xf_written_tensor(s, &n, &idx);
    if (load->u.load.n != n || n < 3)
        return 0;
    for (int d = 0; d < n && other < 2; d++) {
        int shared = 0;
        for (int i = 0; i < F->loops.len && !shared; i++) {
            const char *it = ((const ast_stmt *)F->loops.items[i])->u.loop.iter;
            shared = xf_expr_uses_var(idx[d], it) &&
                     xf_expr_uses_var(load->u.load.idx[d], it);
        }
        other += !shared;
    }
    return other < 2;
}

/* The edges of store or reduction s: each load of its value aligned with
 * it, or window-aligned (an operand edge). */
static void note_loads(lp_fn *F, ast_stmt *s, const ast_expr *e)
{
    switch (e->kind) {
    case AST_LOAD:
        if (aligned(s, e))
            add_edge(F, s, e, e == s->u.store.value ? LP_COPY : LP_OPERAND);
        else if (window_aligned(F, s, e))
            add_edge(F, s, e, e == s->u.store.value ? LP_SLICE : LP_OPERAND);
        break;
    case AST_BINARY:
        note_loads(F, s, e->u.bin.a);
        note_loads(F, s, e->u.bin.b);
        break;
    case AST_UNARY: note_loads(F, s, e->u.un.a); break;
    case AST_CAST: note_loads(F, s, e->u.cast.a); break;
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            note_loads(F, s, e->u.call.args[i]);
        break;
    case AST_IFEXPR:
        note_loads(F, s, e->u.ife.cond);
        note_loads(F, s, e->u.ife.then);
        note_loads(F, s, e->u.ife.other);
        break;
    default: break;
    }
}

/* Collect the values and copies under s. */
static void collect(lp_fn *F, ast_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case AST_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            collect(F, s->u.seq.stmts[i]);
        break;
    case AST_VARDEF:
        add_value(F, s->u.def.name, &s->u.def.layout, s->u.def.ndim, s->u.def.shape,
                  s->u.def.dtype, s);
        collect(F, s->u.def.body);
        break;
    case AST_FOR:
        ft_vec_push(F->ctx, &F->loops, s);
        collect(F, s->u.loop.body);
        F->loops.len--;
        break;
    case AST_IF:
        collect(F, s->u.branch.then);
        collect(F, s->u.branch.other);
        break;
    case AST_STORE: note_loads(F, s, s->u.store.value); break;
    case AST_REDUCE: note_loads(F, s, s->u.red.value); break;
    default: break;
    }
}

/* The graph of function f. */
static void build_graph(lp_fn *F)
{
    F->values.len = F->edges.len = 0;
    for (int i = 0; i < F->f->nparams; i++) {
        ast_param *p = &F->f->params[i];
        if (!p->is_size)
            add_value(F, p->name, &p->layout, p->ndim, p->shape, p->dtype, NULL);
    }
    collect(F, F->f->body);
}

/* Whether layout texts a and b (NULL: row-major) store a tensor of ndim
 * dimensions the same way. */
static int same_layout(const char *a, const char *b, int ndim)
{
    rt_layout la, lb;
    char err[8];
    int ida = !a || (!rt_layout_parse(a, ndim, &la, err, sizeof err, NULL) &&
                     rt_layout_is_identity(&la));
    int idb = !b || (!rt_layout_parse(b, ndim, &lb, err, sizeof err, NULL) &&
                     rt_layout_is_identity(&lb));
    if (ida || idb)
        return ida && idb;
    return rt_layout_same(&la, &lb);
}

/* Whether v is a parameter the function only reads. */
static int read_only_param(const lp_fn *F, const lp_value *v)
{
    for (int i = 0; !v->def && i < F->f->nparams; i++)
        if (strcmp(F->f->params[i].name, v->name) == 0)
            return F->f->params[i].access == FT_ACC_IN;
    return 0;
}

static double value_bytes(const lp_fn *F, const lp_value *v);

/* What converting operand edge g's source into the layout of its reader
 * would cost: its bytes read and written, once for a parameter only read
 * (hoisted to the top), else each time the nest runs. */
static double convert_cost(const lp_fn *F, const lp_edge *g)
{
    return 2 * value_bytes(F, g->from) * (read_only_param(F, g->from) ? 1 : g->runs);
}

/* What edge g costs when its ends have layouts a and b: a copy, its
 * bytes; an operand, the cheaper of walking it against its storage order
 * and converting it first (convert_operands).  At equal bytes a copy
 * across layouts loses (COPY_TIE): the cleanups fold an operand's
 * conversion into a reader that can walk the source in its place (a conv
 * reading x where x_nchw8c was), while a copy between two stored tensors
 * across layouts stays, and one between equal layouts goes (its producer
 * writes the destination: a concat's branches). */
static double edge_cost(const lp_fn *F, const lp_edge *g, const char *a, const char *b)
{
    if (same_layout(a, b, g->to->ndim))
        return 0;
    if (F->ctx->opts.layout_count)
        return 1;
    return g->kind != LP_OPERAND ? g->bytes * COPY_TIE : fmin(g->bytes, convert_cost(F, g));
}

/* Add text to v's candidates unless one stores the same way. */
static void add_cand(lp_fn *F, lp_value *v, const char *text)
{
    for (int i = 0; i < v->cands.len; i++)
        if (same_layout(v->cands.items[i], text, v->ndim))
            return;
    if (v->cands.len < LP_MAX_CANDS)
        ft_vec_push(F->ctx, &v->cands, (void *)text);
}

/* Candidates of each free local: row-major, the layout prefer_layout
 * named for it, and the layouts of the fixed values its copies reach
 * through other free locals (repeated until no set grows: a chain of
 * temporaries can take its end's layout). */
static void find_candidates(lp_fn *F)
{
    for (int i = 0; i < F->values.len; i++) {
        lp_value *v = F->values.items[i];
        v->cands.len = 0;
        if (v->free)
            ft_vec_push(F->ctx, &v->cands, NULL);
        if (v->free && v->def->u.def.prefer)
            add_cand(F, v, v->def->u.def.prefer);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < F->edges.len; i++) {
            lp_edge *g = F->edges.items[i];
            for (int side = 0; side < 2; side++) {
                lp_value *a = side ? g->from : g->to, *b = side ? g->to : g->from;
                if (!a->free)
                    continue;
                int before = a->cands.len;
                if (!b->free)
                    add_cand(F, a, *b->layout);
                for (int k = 0; b->free && k < b->cands.len; k++)
                    add_cand(F, a, b->cands.items[k]);
                changed |= a->cands.len != before;
            }
        }
    }
}

/* The bytes of value v (its logical elements, with the hints). */
static double value_bytes(const lp_fn *F, const lp_value *v)
{
    double n = rt_dtype_size(v->dtype);
    for (int k = 0; k < v->ndim; k++)
        n *= estimate(F->ctx, v->shape[k]);
    return n;
}

/* The problem: one variable per free local with two or more candidates,
 * unary costs from copies to fixed values, pairwise costs between free
 * locals.  Solved; each chosen layout written into the local's text. */
static void choose(lp_fn *F)
{
    ft_ctx *ctx = F->ctx;
    int n = 0;
    for (int i = 0; i < F->values.len; i++) {
        lp_value *v = F->values.items[i];
        v->var = v->free && v->cands.len > 1 ? n++ : -1;
    }
    if (!n)
        return;
    int *k = ft_alloc(ctx, sizeof *k * (size_t)n), *choice = ft_alloc(ctx, sizeof *choice * (size_t)n);
    double **unary = ft_alloc(ctx, sizeof *unary * (size_t)n);
    lp_value **of = ft_alloc(ctx, sizeof *of * (size_t)n);
    for (int i = 0; i < F->values.len; i++) {
        lp_value *v = F->values.items[i];
        if (v->var >= 0) {
            of[v->var] = v;
            k[v->var] = v->cands.len;
            unary[v->var] = ft_alloc(ctx, sizeof(double) * (size_t)v->cands.len);
            for (int c = 0; v->def->u.def.prefer && c < v->cands.len; c++)
                if (!same_layout(v->cands.items[c], v->def->u.def.prefer, v->ndim))
                    unary[v->var][c] = ctx->opts.layout_count ? 1 : 2 * value_bytes(F, v);
        }
    }
    xf_ly_edge *edges = ft_alloc(ctx, sizeof *edges * (size_t)(F->edges.len + 1));
    int ne = 0;
    for (int i = 0; i < F->edges.len; i++) {
        lp_edge *g = F->edges.items[i];
        lp_value *a = g->to, *b = g->from;
        if (a->var < 0 && b->var < 0)
            continue;
        if (a->var < 0 || b->var < 0) {
            lp_value *v = a->var >= 0 ? a : b, *w = a->var >= 0 ? b : a;
            const char *wl = w->free ? NULL : *w->layout;
            for (int c = 0; c < v->cands.len; c++)
                unary[v->var][c] += edge_cost(F, g, v->cands.items[c], wl);
            continue;
        }
        double *m = ft_alloc(ctx, sizeof *m * (size_t)(a->cands.len * b->cands.len));
        for (int x = 0; x < a->cands.len; x++)
            for (int y = 0; y < b->cands.len; y++)
                m[x * b->cands.len + y] = edge_cost(F, g, a->cands.items[x], b->cands.items[y]);
        edges[ne++] = (xf_ly_edge){a->var, b->var, m};
    }
    xf_ly_problem pb = {n, k, (const double *const *)unary, ne, edges};
    xf_ly_result res;
    if (xf_layout_solve(&pb, LP_TABLE_LIMIT, choice, &res)) {
        ft_error(ctx, F->f->loc, "internal error: the layout problem of %s is malformed",
                 F->f->name);
        return;
    }
    for (int i = 0; i < n; i++) {
        *of[i]->layout = of[i]->cands.items[choice[i]];
        ft_vec_push(ctx, &F->chosen, of[i]->def);
        if (ctx->opts.verbose)
            fprintf(ctx->diag_out, "ftc: layout: %s: local %s takes %s (of %d candidates)\n",
                    F->f->name, of[i]->name, *of[i]->layout ? *of[i]->layout : "row-major",
                    k[i]);
    }
    if (!res.exact)
        fprintf(ctx->diag_out, "ftc: layout: %s: %d locals, the exact solution's tables would "
                "pass %d entries: the layouts are a local optimum, not proven best\n",
                F->f->name, n, LP_TABLE_LIMIT);
}

/* ------------------------------------------------------ conversions */

/* Wrap statement s in a conversion of value v to layout text: a new
 * local (def.conv_of v) whose first statement copies v whole, s after
 * it; s's node becomes the conversion's.  Returns the local's name. */
static const char *wrap_conversion(lp_fn *F, ast_stmt *s, const lp_value *v, const char *text)
{
    ft_ctx *ctx = F->ctx;
    ft_loc loc = s->loc;
    const char *name = xf_free_name(ctx, F->f, xf_layout_name(ctx, v->name, text));
    ast_expr **shape = ft_alloc(ctx, sizeof *shape * (size_t)(v->ndim + 1));
    ast_expr **idx = ft_alloc(ctx, sizeof *idx * (size_t)(v->ndim + 1));
    const char **it = ft_alloc(ctx, sizeof *it * (size_t)(v->ndim + 1));
    for (int k = 0; k < v->ndim; k++) {
        shape[k] = ast_clone_expr(ctx, v->shape[k]);
        it[k] = xf_free_name(ctx, F->f, ft_fmt(ctx, "%s_i%d", name, k));
        idx[k] = ast_var(ctx, loc, it[k]);
    }
    ast_expr **src = ft_alloc(ctx, sizeof *src * (size_t)(v->ndim + 1));
    for (int k = 0; k < v->ndim; k++)
        src[k] = ast_var(ctx, loc, it[k]);
    ast_stmt *copy = ast_store(ctx, loc, name, v->ndim, idx,
                               ast_load(ctx, loc, v->name, v->dtype, v->ndim, src));
    for (int k = v->ndim - 1; k >= 0; k--)
        copy = ast_for(ctx, loc, it[k], ast_int(ctx, loc, 0), ast_clone_expr(ctx, shape[k]),
                       ast_int(ctx, loc, 1), copy);
    ast_stmt *inner = ft_alloc(ctx, sizeof *inner);
    *inner = *s;
    ast_stmt **two = ft_alloc(ctx, sizeof *two * 2);
    two[0] = copy;
    two[1] = inner;
    ast_stmt *def = ast_vardef(ctx, loc, name, v->dtype, v->ndim, shape, FT_ACC_CACHE,
                               FT_MT_CPU, ast_seq(ctx, loc, 2, two));
    def->u.def.layout = text;
    def->u.def.conv_of = v->name;
    *s = *def;
    return name;
}

/* Each operand read across layouts (an element-wise or window operand
 * edge) is converted first, around its nest, to its reader's layout,
 * where that costs fewer bytes than walking it against its storage order,
 * unless the operand is itself a conversion that require_layout made for
 * that reader; place_conversions then hoists and shares the copies.  A
 * decision of the bytes model: the baselines (--layout-cost=count,
 * --layout-mode=local) leave operands where they are, as VTensor and a
 * per-operator framework do. */
static void convert_operands(lp_fn *F)
{
    for (int i = 0; i < F->edges.len; i++) {
        lp_edge *g = F->edges.items[i];
        const char *want = *g->to->layout;
        if (g->kind != LP_OPERAND || !g->nest ||
            same_layout(*g->from->layout, want, g->to->ndim) ||
            (g->from->def && g->from->def->u.def.conv_of) ||
            xf_writes(g->nest, g->from->name) || xf_defines(g->nest, g->from->name))
            continue;           /* (a conversion was made for its reader: kept) */
        if (convert_cost(F, g) >= g->bytes)
            continue;
        const char *name = wrap_conversion(F, g->nest, g->from, want);
        xf_rename_tensor(F->ctx, g->store, g->from->name, name);
        if (F->ctx->opts.verbose)
            fprintf(F->ctx->diag_out, "ftc: layout: %s: operand %s of %s converted to %s "
                    "(%.0f bytes, not %.0f walked across layouts)\n", F->f->name,
                    g->from->name, g->to->name, want ? want : "row-major",
                    convert_cost(F, g), g->bytes);
    }
}

/* The copy a conversion starts with (its first statement). */
static ast_stmt *conv_copy(ast_stmt *def)
{
    ast_stmt *b = def->u.def.body;
    return b && b->kind == AST_SEQ && b->u.seq.n ? b->u.seq.stmts[0] : b;
}

/* The layout text of the tensor named name (NULL: row-major or unknown). */
static const char *layout_of(const lp_fn *F, const char *name)
{
    const lp_value *v = value_of(F, name);
    return v ? *v->layout : NULL;
}

/* Drop conversion def: its copy emptied, its readers reading src. */
static void drop_conversion(lp_fn *F, ast_stmt *def, const char *src)
{
    xf_make_empty(conv_copy(def));
    xf_rename_tensor(F->ctx, def->u.def.body, def->u.def.name, src);
    def->u.def.conv_of = NULL;
}

/* Visitor: the conversions of a function, outermost first, and whether
 * some local declares a layout (a preference alone does not make the pass
 * run: a program with no layout clause compiles as it did before). */
typedef struct lp_defs {
    ast_visitor v;
    ft_ctx *ctx;
    ft_vec convs;            /* ast_stmt *: VarDefs with conv_of */
    int laid_out;
} lp_defs;

static int visit_defs(ast_visitor *v, ast_stmt *s)
{
    lp_defs *d = (lp_defs *)v;
    if (s->kind == AST_VARDEF) {
        if (s->u.def.conv_of)
            ft_vec_push(d->ctx, &d->convs, s);
        d->laid_out |= s->u.def.layout != NULL;
    }
    return 1;
}

/* The VarDefs of f's body (lp_defs). */
static lp_defs scan_defs(ft_ctx *ctx, ast_func *f)
{
    lp_defs d = {{visit_defs, NULL}, ctx, {0}, 0};
    ast_visit(f->body, &d.v);
    return d;
}

/* A conversion d whose source is itself a conversion c read by nothing
 * but d's copy now copies c's source (c's copy is dropped; its unused
 * local is left to the cleanups). */
static int compose(lp_fn *F, ast_stmt *d, const ft_vec *convs)
{
    for (int i = 0; i < convs->len; i++) {
        ast_stmt *c = convs->items[i];
        if (c == d || !c->u.def.conv_of || strcmp(c->u.def.name, d->u.def.conv_of))
            continue;
        xf_uses u = xf_count_uses(c->u.def.body, c->u.def.name);
        if (u.loads != 1 || u.stores != 1 || xf_writes(c->u.def.body, c->u.def.conv_of))
            return 0;
        xf_rename_tensor(F->ctx, conv_copy(d), c->u.def.name, c->u.def.conv_of);
        if (F->ctx->opts.verbose)
            fprintf(F->ctx->diag_out, "ftc: layout: %s: %s -> %s -> %s composed into one "
                    "copy\n", F->f->name, c->u.def.conv_of, c->u.def.name, d->u.def.name);
        d->u.def.conv_of = c->u.def.conv_of;
        xf_make_empty(conv_copy(c));   /* c is read by nothing now */
        c->u.def.conv_of = NULL;
        return 1;
    }
    return 0;
}

/* Hoist conversion d out of the loops around it that neither write its
 * source nor declare it, as long as only sequences and locals lie between
 * (a branch would make an unconditional copy of a conditional one). */
static int hoist(lp_fn *F, ast_stmt *d)
{
    ft_vec anc = {0};
    if (!xf_ancestors(F->ctx, F->f->body, d, &anc))
        return 0;
    ast_stmt *loop = NULL;
    for (int i = anc.len - 1; i >= 0; i--) {
        ast_stmt *a = anc.items[i];
        if (a->kind == AST_IF)
            break;
        if (a->kind != AST_FOR)
            continue;
        if (xf_writes(a, d->u.def.conv_of) || xf_defines(a, d->u.def.conv_of))
            break;
        int invariant = 1;
        for (int k = 0; k < d->u.def.ndim; k++)
            invariant &= !xf_expr_uses_var(d->u.def.shape[k], a->u.loop.iter);
        if (!invariant)
            break;
        loop = a;
    }
    if (!loop)
        return 0;
    ast_stmt *copy = ast_clone_stmt(F->ctx, conv_copy(d), AST_CLONE_SAME);
    xf_make_empty(conv_copy(d));
    ast_stmt *body = d->u.def.body, *def = ft_alloc(F->ctx, sizeof *def);
    *def = *d;                  /* d's place now holds its body */
    *d = *body;
    ast_stmt *inner = ft_alloc(F->ctx, sizeof *inner);
    *inner = *loop;             /* loop's place now holds the conversion around it */
    ast_stmt **two = ft_alloc(F->ctx, sizeof *two * 2);
    two[0] = copy;
    two[1] = inner;
    def->u.def.body = ast_seq(F->ctx, loop->loc, 2, two);
    *loop = *def;
    if (F->ctx->opts.verbose)
        fprintf(F->ctx->diag_out, "ftc: layout: %s: conversion %s of %s hoisted out of loop "
                "%s (%s is not written in it)\n", F->f->name, loop->u.def.name,
                loop->u.def.conv_of, inner->u.loop.iter, loop->u.def.conv_of);
    return 1;
}

/* A later conversion e of the same source to the same layout, inside
 * conversion d's scope with the source not written there, reads d's copy
 * instead of making its own. */
static void share(lp_fn *F, ast_stmt *d, const ft_vec *convs)
{
    if (xf_writes(d->u.def.body, d->u.def.conv_of))
        return;
    for (int i = 0; i < convs->len; i++) {
        ast_stmt *e = convs->items[i];
        if (e == d || !e->u.def.conv_of || strcmp(e->u.def.conv_of, d->u.def.conv_of) ||
            !same_layout(e->u.def.layout, d->u.def.layout, d->u.def.ndim) ||
            !xf_defines(d->u.def.body, e->u.def.name))
            continue;
        if (F->ctx->opts.verbose)
            fprintf(F->ctx->diag_out, "ftc: layout: %s: conversion %s shares %s (both %s of "
                    "%s)\n", F->f->name, e->u.def.name, d->u.def.name, d->u.def.layout,
                    d->u.def.conv_of);
        drop_conversion(F, e, d->u.def.name);
    }
}

/* Place the conversions: identities dropped, chains composed, hoisted,
 * shared (each as the mode allows). */
static void place_conversions(lp_fn *F)
{
    ft_vec convs = scan_defs(F->ctx, F->f).convs;
    int global = !F->ctx->opts.layout_local;
    for (int i = convs.len - 1; global && i >= 0; i--)
        if (((ast_stmt *)convs.items[i])->u.def.conv_of)
            compose(F, convs.items[i], &convs);
    for (int i = 0; i < convs.len; i++) {
        ast_stmt *d = convs.items[i];
        if (d->u.def.conv_of &&
            same_layout(layout_of(F, d->u.def.conv_of), d->u.def.layout, d->u.def.ndim)) {
            if (F->ctx->opts.verbose)
                fprintf(F->ctx->diag_out, "ftc: layout: %s: %s already has the layout %s: no "
                        "conversion\n", F->f->name, d->u.def.conv_of, d->u.def.layout);
            drop_conversion(F, d, d->u.def.conv_of);
        }
    }
    if (!global)
        return;
    for (int i = 0; i < convs.len; i++)
        if (((ast_stmt *)convs.items[i])->u.def.conv_of)
            hoist(F, convs.items[i]);   /* out of the outermost loop it can leave */
    if (F->ctx->opts.layout_count)
        return;                 /* VTensor's model: one conversion per consumer */
    convs = scan_defs(F->ctx, F->f).convs;  /* hoisting moved them: list them again */
    for (int i = 0; i < convs.len; i++)
        if (((ast_stmt *)convs.items[i])->u.def.conv_of)
            share(F, convs.items[i], &convs);
}

/* ---------------------------------------------------------- report */

/* --emit=layouts: every value's layout and bytes; every copy between two
 * layouts (a conversion) and every element-wise operand read across
 * layouts, with bytes, place and runs; the totals (the bytes model's and,
 * as counts, the count model's). */
static void report(lp_fn *F, FILE *o)
{
    build_graph(F);             /* as placed */
    fprintf(o, "func %s:\n", F->f->name);
    for (int i = 0; i < F->values.len; i++) {
        const lp_value *v = F->values.items[i];
        if (v->def && !xf_count_uses(v->def->u.def.body, v->name).loads)
            continue;           /* dead: the cleanups remove it */
        fprintf(o, "  %-14s %-10s %-20s %.0f bytes\n", v->name,
                !v->def ? "parameter" : v->def->u.def.conv_of ? "conversion"
                : v->free || ft_vec_has(&F->chosen, v->def) ? "inferred" : "declared",
                *v->layout ? *v->layout : "row-major", value_bytes(F, v));
    }
    double bytes[2] = {0, 0};
    int count[2] = {0, 0};
    for (int i = 0; i < F->edges.len; i++) {
        const lp_edge *g = F->edges.items[i];
        if (same_layout(*g->from->layout, *g->to->layout, g->to->ndim))
            continue;
        int copy = g->kind == LP_COPY;
        bytes[copy] += g->bytes;
        count[copy]++;
        fprintf(o, "  %s %s (%s) -> %s (%s): %.0f bytes per run, %.0f run%s, %s%s\n",
                copy ? "convert" : "operand", g->from->name,
                *g->from->layout ? *g->from->layout : "row-major", g->to->name,
                *g->to->layout ? *g->to->layout : "row-major", g->bytes / (g->runs ? g->runs : 1),
                g->runs, g->runs == 1 ? "" : "s", g->where ? "inside loop " : "at the top level",
                g->where ? g->where : "");
    }
    fprintf(o, "  total: %d conversion%s, %.0f bytes; %d operand%s across layouts, %.0f "
            "bytes\n", count[1], count[1] == 1 ? "" : "s", bytes[1], count[0],
            count[0] == 1 ? "" : "s", bytes[0]);
}

int xf_place_layouts(ft_ctx *ctx, ast_func *f)
{
    int any = scan_defs(ctx, f).laid_out;
    for (int i = 0; i < f->nparams; i++)
        any |= f->params[i].layout != NULL;
    if (!any && !ctx->opts.layout_report)
        return 0;               /* no layout anywhere: nothing to choose */
    lp_fn F = {.ctx = ctx, .f = f};
    build_graph(&F);
    if (!ctx->opts.layout_local) {
        find_candidates(&F);
        choose(&F);
    }
    if (!ctx->opts.layout_local && !ctx->opts.layout_count)
        convert_operands(&F);
    place_conversions(&F);
    if (ctx->opts.layout_report)
        report(&F, ctx->opts.layout_report);
    return 0;
}
