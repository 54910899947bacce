/* access.h - tagged access relations of every statement instance.
 *
 * pet-style: one walk over a function collects, for every Load, Store and
 * ReduceTo, the relation from the instances of the statement doing it to the
 * tensor elements it touches, with size parameters as isl parameters:
 *
 *     [n, m] -> { S7[i, j] -> a[i - 2, j + 1] : 0 <= i < n and 0 <= j < m }
 *
 * A statement's instance space is named after its label, or `S<id>` (the
 * AST statement ID) when it has none, and has one dimension per enclosing loop, outermost first, named after the
 * iterators.  The domain holds the loop bounds (with strides) and the
 * enclosing `if` conditions that are affine.  Each access gets a tag
 * `R<k>` (k = its index in an_accesses.acc), and the tagged relation
 * `[S7[i, j] -> R3[]] -> a[...]` lets the dependence code tell two accesses
 * of one statement apart, as ppcg does.
 *
 * Soundness: what isl cannot express is over-approximated, never dropped.
 * A non-affine index (a loaded index, a product of iterators, `%` by a
 * non-constant) leaves its dimension free within the tensor's bounds, a
 * non-affine loop bound or condition is left out of the domain, and the
 * access is marked inexact.  `//` and `%` by constants, `min`, `max` stay
 * exact.
 *
 * Stack scoping (FreeTensor §4.2.1): a tensor defined inside loops
 * L1..Lk lives for one iteration of them, so its accesses get k extra
 * leading array dimensions equal to those iterators: two instances of its
 * scope touch different copies and never depend on each other.
 *
 * The original execution order is a 2d+1 schedule `S[i] -> [c0, i0, c1, ...]`
 * (padded with zeros to one length), a loop with a negative step scheduled
 * by -i.  A loop whose step is not a constant is assumed to run upwards.
 */
#ifndef FT_AN_ACCESS_H
#define FT_AN_ACCESS_H

#include <isl/ctx.h>
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "../ast/ast.h"

typedef enum an_acc_kind {
    AN_ACC_READ,       /* a Load */
    AN_ACC_WRITE,      /* a Store */
    AN_ACC_REDUCE,     /* a ReduceTo: reads and writes, uses `op` */
} an_acc_kind;

/* One access of one statement. */
typedef struct an_access {
    int tag;                 /* k of the tag R<k>; its index in an_accesses.acc */
    an_acc_kind kind;
    ast_reduce_op op;        /* AN_ACC_REDUCE only */
    const char *stmt_name;   /* "S7": the tuple of the statement's instances */
    ast_stmt *stmt;          /* the statement (NULL when built from isl text) */
    ast_expr *load;          /* the Load of a read (NULL otherwise) */
    const char *var;         /* the tensor's tuple name (its .ft name, made
                                unique per VarDef when a name is reused) */
    int exact;               /* 0 when over-approximated */
    int scope_depth;         /* loops around the tensor's VarDef (0: a
                                parameter, or built from isl text) */
    isl_map *rel;            /* owned: { S[i] -> var[x] }, domain included */
    isl_map *tagged;         /* owned: { [S[i] -> R<k>[]] -> var[x] }; NULL until
                                an_access_union(..., tagged = 1) makes it */
} an_access;

/* The instances of one statement (Store, Reduce, Assert, Eval; the
 * condition of an If; the bounds of a For, with the loops around it). */
typedef struct an_stmt_info {
    const char *name;        /* "S7" */
    ast_stmt *stmt;          /* NULL when built from isl text */
    int nanc;                /* enclosing statements, outermost first */
    ast_stmt **anc;
    int depth;               /* enclosing loops = dimensions of the space */
    ast_stmt **loops;
    isl_set *domain;         /* owned: S[i] with bounds and conditions */
    isl_map *schedule;       /* owned: S[i] -> [c0, i0, ...] */
} an_stmt_info;

/* Everything the dependence analysis needs about one function. */
typedef struct an_accesses {
    ft_ctx *ctx;             /* arena for names and the tables below */
    isl_ctx *isl;
    ast_func *func;          /* NULL when built from isl text */
    int n;                   /* accesses, in source order */
    an_access **acc;
    int nstmts;
    an_stmt_info **stmts;
    int sched_dims;          /* 2 * max loop depth + 1 */
    int root_depth;          /* loops around the root of an_collect_accesses_in
                                (0 for the whole function) */
    isl_set *context;        /* owned: sizes >= 0 */
} an_accesses;

/* Collect the accesses of f.  Returns NULL (with an error through ctx) only
 * when isl fails. */
an_accesses *an_collect_accesses(ft_ctx *ctx, ast_func *f);
/* The same for the statements inside root (root included) only: what a
 * question about root needs, at a cost that grows with root's body, not
 * with f.  The schedules order these statements as the whole walk does
 * (their constants differ).  No statements when root is not in f. */
an_accesses *an_collect_accesses_in(ft_ctx *ctx, ast_func *f, const ast_stmt *root);
/* The same for a loop, without the accesses of tensors declared inside it
 * (each iteration has its own: they carry nothing across the loop's
 * iterations): what an_loop_deps needs, at a fraction of the cost when the
 * body's locals are many (SoftRas' lanes: 1579 accesses, 0.09 s). */
an_accesses *an_collect_accesses_carried(ft_ctx *ctx, ast_func *f, const ast_stmt *loop);
/* The same for the items lo..hi of root, a sequence (lo < 0: all). */
an_accesses *an_collect_accesses_items(ft_ctx *ctx, ast_func *f, const ast_stmt *root,
                                       int lo, int hi);

/* An empty table, for building from isl text (see tests/unit/test_deps_isl.c):
 * add statements and accesses with the two functions after it. */
an_accesses *an_accesses_new(ft_ctx *ctx, isl_ctx *isl);
/* Add a statement with its domain and schedule (taken).  The schedule's
 * range length must be the same for all statements. */
an_stmt_info *an_add_stmt(an_accesses *a, const char *name,
                          __isl_take isl_set *domain, __isl_take isl_map *schedule);
/* Add an access; rel's domain is intersected with its statement's domain.
 * Returns the access, or NULL if rel names no statement added before. */
an_access *an_add_access(an_accesses *a, an_acc_kind kind, ast_reduce_op op,
                         __isl_take isl_map *rel, int exact);

void an_accesses_free(an_accesses *a);

/* Union of the untagged (tagged) relations of the accesses of these kinds
 * (a bit set of 1 << an_acc_kind). */
__isl_give isl_union_map *an_access_union(const an_accesses *a, unsigned kinds, int tagged);
/* The original schedule of every statement, tagged per access when tagged. */
__isl_give isl_union_map *an_schedule(const an_accesses *a, int tagged);
/* The tuple name of s's instances: its label, or "S<id>". */
const char *an_stmt_tuple(ft_ctx *ctx, const ast_stmt *s);
/* The statement of that name, or NULL. */
an_stmt_info *an_find_stmt(const an_accesses *a, const char *name);
/* Whether instances of statement info lie inside AST statement s (s itself
 * included). */
int an_stmt_inside(const an_stmt_info *info, const ast_stmt *s);
/* The domains of the statements inside s, as a union set. */
__isl_give isl_union_set *an_domains_inside(const an_accesses *a, const ast_stmt *s);

/* An integer expression as a piecewise affine function on the set space sp
 * whose dimensions are named after iterators and whose parameters are sizes;
 * NULL when it is not affine (a load, a product of variables, ...). */
__isl_give isl_pw_aff *an_pw_aff_of(__isl_keep isl_space *sp, const ast_expr *e);
/* A superset of the points of sp where cond is true (positive = 1) or false
 * (positive = 0): exact for affine comparisons combined with and/or/not. */
__isl_give isl_set *an_cond_set(__isl_keep isl_space *sp, const ast_expr *cond,
                                int positive);

#endif
