/* xf_util.h - AST helpers shared by the cleanup passes (transforms/).
 *
 * Cloning and substitution of expressions, questions about which tensors a
 * statement reads and writes, in-place rewriting of loads, the "scope list"
 * of a VarDef (the statements its body runs, in order), and the normal form
 * every cleanup pass leaves: flat sequences, and a VarDef always the last
 * statement of its sequence (what parsing the printed program gives back).
 *
 * Tensor names are compared as strings.  A nested VarDef that declares the
 * name being asked about hides it: the walks below do not look inside it.
 */
#ifndef FT_XF_UTIL_H
#define FT_XF_UTIL_H

#include "../ast/ast.h"

/* ------------------------------------------------------------ expressions */

/* The iterations of range(b, e, s), s != 0, in *n; 0 when there are more
 * than INT64_MAX (computed exactly, whatever the bounds: range(-2^63,
 * 2^63 - 1) has 2^64 - 1). */
int xf_range_trips(int64_t b, int64_t e, int64_t s, int64_t *n);
/* Whether e mentions the iterator / size `name` (AST_VAR). */
int xf_expr_uses_var(const ast_expr *e, const char *name);
/* Whether e reads any tensor (contains an AST_LOAD). */
int xf_expr_has_load(const ast_expr *e);
/* Whether e reads tensor var. */
int xf_expr_reads(const ast_expr *e, const char *var);
/* A load of var in e (one found first), or NULL. */
const ast_expr *xf_expr_find_load(const ast_expr *e, const char *var);
/* Whether e has an access whose index depends on loaded data: such an
 * index is bounds-checked at run time and may end the function with
 * FT_ERR_INDEX, so moving or dropping it changes what the program does. */
int xf_expr_checked(const ast_expr *e);
/* e converted to dtype t as a Store into a t tensor converts it: e itself
 * when it already has dtype t, a literal of dtype t when exact, else a
 * cast. */
ast_expr *xf_convert(ft_ctx *ctx, ast_expr *e, ft_dtype t);

/* The identity of reduction op in dtype t: 0, 1, the largest value (min)
 * or the smallest (max): +-inf, the integer limits, true / false. */
ast_expr *xf_red_identity(ft_ctx *ctx, ft_loc l, ast_reduce_op op, ft_dtype t);
/* Add the names of the tensors e reads to names (no duplicates). */
void xf_expr_loaded(ft_ctx *ctx, const ast_expr *e, ft_vec *names);
/* Whether names (a vector of strings) holds name. */
int xf_has_name(const ft_vec *names, const char *name);

/* ------------------------------------------------------------- statements */

/* How a statement uses one tensor. */
typedef struct xf_uses {
    int loads;      /* AST_LOAD nodes */
    int stores;     /* Store statements */
    int reduces;    /* Reduce statements */
} xf_uses;

/* Count the accesses of var under s (not inside a VarDef redeclaring it). */
xf_uses xf_count_uses(const ast_stmt *s, const char *var);
/* Whether s reads / writes / reads or writes var. */
int xf_reads(const ast_stmt *s, const char *var);
int xf_writes(const ast_stmt *s, const char *var);
int xf_accesses(const ast_stmt *s, const char *var);
/* The tensor a Store or Reduce s writes (NULL for another statement), with
 * the count and expressions of its indices when n and idx are not NULL. */
const char *xf_written_tensor(const ast_stmt *s, int *n, ast_expr *const **idx);
/* Whether s writes any tensor of names. */
int xf_writes_any(const ast_stmt *s, const ft_vec *names);
/* Add the names of the tensors s writes / reads to names (no duplicates;
 * locals declared under s included). */
void xf_stmt_written(ft_ctx *ctx, const ast_stmt *s, ft_vec *names);
void xf_stmt_loaded(ft_ctx *ctx, const ast_stmt *s, ft_vec *names);
/* Whether s mentions the iterator / size `name` anywhere. */
int xf_stmt_uses_var(const ast_stmt *s, const char *name);
/* Whether any loop under s (s included) has iterator name. */
int xf_binds_iter(const ast_stmt *s, const char *name);
/* Whether any VarDef under s (s included) declares name. */
int xf_defines(const ast_stmt *s, const char *name);
/* The 0-D tensors that a parallel loop's body reduces into as a whole
 * reduction clause may: not declared in body, only reduced there (no load,
 * no store), all with one operator.  Adds each name to names and its
 * operator (ast_reduce_op, as a pointer-sized int) to ops.  The C backend
 * gives an OpenMP loop a `reduction(op: name)` clause for each that is a 0-D
 * local declared around the loop, and the verifier of parallel code
 * (verify_par.c) accepts those reductions; both ask here, so they agree.
 * --test-break=par_clauses (testing) makes it find none. */
void xf_par_reductions(ft_ctx *ctx, const ast_stmt *body, ft_vec *names, ft_vec *ops);
/* Whether s may end the function early: an assert, or an access whose index
 * depends on loaded data (see xf_expr_checked). */
int xf_stmt_checked(const ast_stmt *s);
/* Whether the cleanup passes must keep s as written: it is labelled, or a
 * schedule names it (s->named, transforms/sched_names.c).  A kept VarDef
 * keeps its name, shape, place and every write; a kept loop its place. */
int xf_kept(const ast_stmt *s);
/* Whether s or a statement under it is kept (xf_kept): a pass that moves
 * s out of the loops around it would move a statement a schedule names. */
int xf_any_kept(const ast_stmt *s);
/* Whether s does nothing: an unlabelled empty sequence (or NULL). */
int xf_is_empty(const ast_stmt *s);
/* Add every VarDef under s (s included) to defs, outer ones first. */
void xf_collect_vardefs(ft_ctx *ctx, ast_stmt *s, ft_vec *defs);
/* Whether the cleanup pass `pass` may take on f: the work of the cleanups
 * grows with each local times the statements of its scope (a chain of
 * 4,000 `var`s, each in the scope of the ones before, took 3 GB); past
 * --max-cleanup-work the pass leaves f as it is (said with -v). */
int xf_cleanup_affordable(ft_ctx *ctx, ast_func *f, const char *pass);
/* Turn s, in place, into an empty sequence (its label and ID are kept). */
void xf_make_empty(ast_stmt *s);

/* Replace, in place, every load of var under s (not inside a VarDef
 * redeclaring it) by fn(load, data); the load's indices are rewritten
 * first.  fn returns the new expression (it may return the load itself). */
typedef ast_expr *(*xf_load_fn)(ft_ctx *ctx, ast_expr *load, void *data);
void xf_replace_loads(ft_ctx *ctx, ast_stmt *s, const char *var, xf_load_fn fn,
                      void *data);

/* Accesses of one tensor: every Load, Store and Reduce of var under s (not
 * inside a VarDef redeclaring it), as pointers to their index arrays, so a
 * pass can rewrite indices in place. */
typedef struct xf_access {
    int *n;              /* &load.n, &store.n or &red.n */
    ast_expr ***idx;     /* &load.idx, ... */
    ast_stmt *stmt;      /* the Store/Reduce; NULL for a Load */
} xf_access;
void xf_collect_accesses(ft_ctx *ctx, ast_stmt *s, const char *var, ft_vec *out);

/* --------------------------------------------------------- scope lists */

/* The statements a body runs one after the other: sequences are flattened
 * and a VarDef contributes itself (only its declaration counts: its shape)
 * followed by the scope list of its body.  Items are ast_stmt *. */
void xf_scope_list(ft_ctx *ctx, ast_stmt *body, ft_vec *items);
/* The same questions as above for one scope-list item: a VarDef item is
 * its declaration only. */
int xf_item_accesses(const ast_stmt *item, const char *var);
int xf_item_writes_any(const ast_stmt *item, const ft_vec *names);

/* ------------------------------------------------------------ structure */

/* Flatten unlabelled sequences, drop empty statements from sequences, and
 * make every VarDef the last statement of its sequence (the statements after
 * it move into its body, as the parser would read the printed program). */
ast_stmt *xf_normalize(ft_ctx *ctx, ast_stmt *s);
/* A name, derived from base, that no parameter, VarDef or loop of f uses. */
const char *xf_fresh_name(ft_ctx *ctx, const ast_func *f, const char *base);
/* Rename tensor `from` to `to` in every access under s. */
void xf_rename_tensor(ft_ctx *ctx, ast_stmt *s, const char *from, const char *to);
/* Whether e is the literal 0 (possibly converted). */
int xf_is_zero(const ast_expr *e);
/* The name for tensor x converted to layout text: "x_nchw8c" for
 * "NCHW->NCHW8c" (the physical part's letters and digits in lower case;
 * "x_rowmajor" for NULL).  Not made unique. */
const char *xf_layout_name(ft_ctx *ctx, const char *x, const char *text);
/* The value `--size name=N` gives size name: 1 and *n, or 0 when none. */
int xf_size_hint(const ft_ctx *ctx, const char *name, double *n);
/* The one statement body holds (through unlabelled one-item sequences),
 * or NULL. */
ast_stmt *xf_only_stmt(ast_stmt *body);
/* A loop whose iterations run 0, 1, ... end - 1 (begin 0, step 1). */
int xf_loop_from_zero(const ast_stmt *loop);
/* Whether e has the same value in every iteration of loop: it mentions
 * neither loop's iterator nor one bound under it, and reads no tensor the
 * loop writes or declares. */
int xf_expr_invariant_in(ft_ctx *ctx, const ast_stmt *loop, const ast_expr *e);

/* How the accesses (loads, stores, reductions) under body use iterator
 * iter: contiguous, the last index of significant extent (trailing
 * dimensions of extent 1 skipped; shapes from the declarations visible at
 * at) is iter plus terms without it; strided, iter anywhere else (an outer
 * index, a scale, inside a load).  Accesses without iter count in neither. */
typedef struct xf_walks {
    int contiguous, strided;
} xf_walks;
xf_walks xf_walks_along(ft_ctx *ctx, ast_func *f, const ast_stmt *at, ast_stmt *body,
                        const char *iter);

/* ---------------------------------------------------- single definitions */

/* The one definition of a local t: its only write is the Store `store`,
 * which runs for every element of t before anything reads t.  Either t is
 * 0-D and the store is an item of t's scope list, or the store sits in a
 * nest of loops (no branch between) that are exactly one full-range loop
 * `for i_k in range(shape[k])` per dimension k, indexed t[i_0, ..., i_n-1]. */
typedef struct xf_def {
    ast_stmt *vardef;
    ast_stmt *store;
    int top;              /* the item of the scope list holding the store */
    const char **iters;   /* the iterator indexing each dimension */
} xf_def;

/* Find the single definition of vardef's local in items (its scope list);
 * 0 when there is none.  Nothing in items before `top` accesses t, and the
 * top item does not read it. */
int xf_find_def(ft_ctx *ctx, ast_stmt *vardef, ft_vec *items, xf_def *d);
/* The defined value as read by `load` (an access t[e...]): the store's
 * value with each iterator replaced by the load's index, converted to t's
 * dtype as the store converted it. */
ast_expr *xf_def_value_at(ft_ctx *ctx, const xf_def *d, const ast_expr *load);
/* Whether the value of d means the same at every item after top: the
 * tensors it reads are not declared inside the top item, and no loop of a
 * later item rebinds a name it uses (other than the def's iterators). */
int xf_def_value_movable(ft_ctx *ctx, const xf_def *d, ft_vec *items);
/* Whether d's value is a load (under casts and negations) that reads its
 * tensor in another order than d writes its local: an index of the load
 * uses the iterator of a dimension of the local before an earlier index
 * uses a later one (`t[h, w, c] = s[c, h, w]`, a layout conversion).
 * Forwarded into reads that repeat, such a load may read the source
 * across its rows again and again where the local was read along them:
 * the cleanups do not forward it when reads repeat and forwarding strides
 * (xf_def_forward_strides); a conversion folds into a consumer that reads
 * each element once, or that reads it as cleanly. */
int xf_def_reorders(const xf_def *d);
/* Whether a read of d's local in the items after top sits inside a loop
 * whose iterator its indices do not use (it reads the same elements
 * again at each iteration). */
int xf_def_reads_repeat(const xf_def *d, ft_vec *items);
/* Whether forwarding d's value into the reads of its local would leave a
 * statement reading it without the loop it had along which every access
 * walks contiguously or not at all (xf_walks_along), such as W4 of
 * bench/layout: `y[i, h, w, c] = x[i, h, w, c] * t[h, w, c]` walks c
 * cleanly, with `t[h, w, c] = s[c, h, w]` forwarded no loop does. */
int xf_def_forward_strides(ft_ctx *ctx, ast_func *f, const xf_def *d, ft_vec *items);

/* The declaration of tensor var visible at s: a VarDef around it
 * (innermost) or a tensor parameter.  Fills dtype, ndim and shape (each
 * may be NULL); 0 when there is none. */
int xf_find_decl(ft_ctx *ctx, ast_func *f, const ast_stmt *s, const char *var, ft_dtype *dt,
                 int *ndim, ast_expr ***shape);
/* xf_find_decl for a statement whose ancestors (xf_ancestors) are anc:
 * for passes that walk many statements with their ancestors at hand. */
int xf_find_decl_in(const ft_vec *anc, ast_func *f, const char *var, ft_dtype *dt, int *ndim,
                    ast_expr ***shape);

#endif
