/* ad.h - reverse-mode automatic differentiation on the AST.
 *
 * `grad f wrt x, w [tape auto|all|none] -> g` adds to the program, beside f:
 *   g_fwd(f's params, tape)                 f's body, saving the tape
 *   g_bwd(f's params, d_outs, d_wrt, tape)  the adjoint, reading the tape
 *   g(f's params, d_outs, d_wrt)            both, with a local tape
 * and the size function g_tape_bytes(f's size params).
 *
 * The model (autodiff/grad.c): the backward pass walks f's statements in
 * reverse (loops run backwards, branches replayed with the same
 * conditions).  Entering the scope of a local t, the backward pass restores
 * t to the value it had at the end of that scope in the forward pass,
 * either from the tape (saved: one version per instance of the scope, the
 * version index built from the iterators of the loops around t) or by
 * running again the forward statements that write t (recomputed).  That
 * value is the one every read of t saw, because a tensor whose value the
 * backward pass needs must not be written after it is read (no WAR
 * dependence on it inside one scope instance, found with isl); programs
 * that do that are refused ("not supported yet").
 *
 * Requires: the lowered, simplified and cleaned AST (flat sequences, a
 * VarDef last in its sequence).  Provides: the new functions, appended to
 * the program (before the schedules run).
 */
#ifndef FT_AD_H
#define FT_AD_H

#include "../ast/ast.h"

/* The cost model of `tape auto` (materialize.c): sizes are taken as
 * AD_COST_SIZE when costs are compared; a saved element costs
 * AD_SAVE_ACCESSES accesses (stored, then loaded), each one statement
 * instance, or AD_MEM_WEIGHT of them when the whole region has more than
 * AD_CACHE_ELEMS elements (it streams from memory); a statement instance
 * of a replay costs 1. */
#define AD_COST_SIZE 1000
#define AD_SAVE_ACCESSES 2
#define AD_MEM_WEIGHT 4
#define AD_CACHE_ELEMS (1 << 18)

typedef enum ad_tape_mode { AD_TAPE_AUTO, AD_TAPE_ALL, AD_TAPE_NONE } ad_tape_mode;

/* What the backward pass does about one local of f. */
typedef enum ad_decision {
    AD_UNUSED,        /* the backward pass never reads its value */
    AD_SAVE,          /* saved on the tape, every version */
    AD_RECOMPUTE,     /* its forward statements run again */
} ad_decision;

/* One local (VarDef) of f. */
typedef struct ad_local {
    ast_stmt *def;            /* the VarDef in f */
    int nloops;               /* loops of f around it, outermost first */
    ast_stmt **loops;
    int needed;               /* the backward pass reads its value */
    ad_decision decision;
    const char *why;          /* the reason, for --explain-tapes */
    ast_expr *versions;       /* instances of its scope; NULL: not symbolic */
    ast_expr *size;           /* elements; NULL: not symbolic */
    ast_expr *offset;         /* first element on the tape (AD_SAVE) */
    const char *region;       /* its region of the tape, a tensor of its
                                 own until ad_pack_tapes (AD_SAVE) */
    ast_stmt *replay;         /* forward statements that recompute it */
    ast_expr *work;           /* statement instances of one replay */
    double save_cost;         /* per version, materialize.c; -1: unknown */
    double recompute_cost;
    ast_stmt *slot;           /* the empty Seq of the backward VarDef that
                                 receives the restore */
} ad_local;

/* One gradient being built. */
typedef struct ad_grad {
    ft_ctx *ctx;
    ast_func *f;
    const char *name;         /* g */
    ad_tape_mode mode;
    int nwrt;
    const char **wrt;
    ft_vec locals;            /* ad_local *, outer VarDefs first */
    ft_vec overs;             /* ad_local * whose def is a Store that
                                 overwrites a value read before (a WAR
                                 sink): the old value is saved per version
                                 of the Store and restored backwards */
    ft_vec war_sinks;         /* the Stores that are WAR sinks */
    ft_vec restored;          /* out params copied into a local in g_bwd */
    ft_vec active;            /* names of float tensors depending on wrt */
    ft_vec dnames;            /* "x", "d_x" pairs: the adjoint of each tensor */
    ft_vec copied;            /* out params whose adjoint is a local copy */
    ft_vec taken;             /* names made up so far */
    struct an_deps *deps;     /* f's dependences (analysis/deps.h) */
    const char *tape;         /* the tape's name */
    ft_dtype tape_dtype;
    ast_expr *tape_elems;     /* elements of the tape */
    int ntemps;
} ad_grad;

/* Handle every `grad` declaration of p (p->grads): add the functions to
 * p.  Returns non-zero after errors. */
int ad_grad_program(ft_ctx *ctx, ast_program *p);

/* Add the gradient `name` of function f of p with respect to wrt.
 * Returns non-zero after reporting errors at loc. */
int ad_grad_func(ft_ctx *ctx, ast_program *p, ast_func *f, int nwrt, const char **wrt,
                 ad_tape_mode mode, const char *name, ft_loc loc);

/* loop_order.c: run every loop under body with a negative constant step
 * (a reversed forward loop) upwards when its iterations carry no
 * dependence; the number of loops turned. */
int ad_forward_order(ft_ctx *ctx, ast_stmt *body);

/* gather.c: in each gradient's g_bwd and g, split the nests that reduce
 * into several tensors indexed by different loops into one nest per
 * tensor, and index each scattered reduction (d_x[oh - 1 + kh]) by new
 * iterators over its own dimensions. */
void ad_gather_program(ft_ctx *ctx, ast_program *p);

/* compose.c: around the auto-scheduler, empty each combined gradient g
 * (no schedule block of its own, C target), then rebuild its body from the
 * scheduled g_fwd and g_bwd. */
void ad_detach_combined(ft_ctx *ctx, ast_program *p);
void ad_compose_combined(ft_ctx *ctx, ast_program *p);
/* body inside a VarDef (a local of g) for each region parameter of g_fwd
 * fw that used names (all when used is NULL). */
ast_stmt *ad_region_locals(ft_ctx *ctx, const ast_func *fw, ast_stmt *body, const ft_vec *used);

/* pack.c: after the schedules, move each region parameter of the tape
 * (region_at set) of every function of p to its regions (f->regions),
 * which the backends declare as pointers into the tape. */
void ad_pack_tapes(ft_ctx *ctx, ast_program *p);

/* versions.c: in f (a working copy), every Store overwriting a value of a
 * 0-D float local read before it, with no loop or branch between the
 * local's VarDef and it, starts a new local for the rest of the scope (so
 * that its old value is a local the tape may recompute, not a WAR sink). */
void ad_split_versions(ft_ctx *ctx, ast_func *f);

/* Retype every f32 tensor, parameter and value of p as f64 (--promote-f64,
 * used by `ftc gradcheck`). */
void ad_promote_f64(ft_ctx *ctx, ast_program *p);

/* ---- shared by the autodiff files */

/* tape.c: versions and layout. */
ast_expr *ad_trip_count(ft_ctx *ctx, const ast_stmt *loop);
ast_expr *ad_mul(ft_ctx *ctx, ast_expr *a, ast_expr *b);
ast_expr *ad_add(ft_ctx *ctx, ast_expr *a, ast_expr *b);
void ad_local_shape(ad_grad *g, ad_local *l);
int ad_region_shape(ad_grad *g, const ad_local *l, ast_expr ***shape);
ast_expr *ad_region_load(ad_grad *g, const ad_local *l, int nidx, ast_expr **idx);
ast_stmt *ad_tape_copy(ad_grad *g, const ad_local *l, int to_tape);
/* `var = 0` (src NULL) or `var = src` over the whole shape. */
ast_stmt *ad_fill(ad_grad *g, const char *var, ft_dtype t, int ndim, ast_expr **shape,
                  const char *src);
void ad_layout_tape(ad_grad *g);
void ad_layout_overs(ad_grad *g, int wide);
ast_expr *ad_loops_versions(ad_grad *g, int nloops, ast_stmt **loops);
ft_dtype ad_tensor_dtype(ad_grad *g, const char *name);
const char *ad_fresh(ad_grad *g, const char *base);

/* materialize.c: the decisions, the tape layout (tape.c) and the restores
 * in the backward pass bwd; --explain-tapes. */
int ad_decide(ad_grad *g, ast_stmt *bwd);
void ad_explain(ad_grad *g, FILE *out);

/* zero_skip.c: in the backward pass bwd, run the tails of statement
 * sequences that only add zeros when one adjoint scalar is 0 under
 * `if a != 0` (in place). */
void ad_skip_zero_adjoints(ad_grad *g, ast_stmt *bwd);

/* grad.c helpers used by materialize.c */
ad_local *ad_find_local(ad_grad *g, const char *name);

#endif
