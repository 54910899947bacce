/* lw.h - internals of the lowering (frontend/lower.c and its helpers).
 *
 * The lowering walks the parse tree with a symbol table and builds the AST
 * through a statement builder.  Expressions lower to values (lw_val): a
 * scalar AST expression, a tensor (a view of a named tensor, or a lazily
 * evaluated element-wise map of other values, with NumPy broadcasting), or
 * a compile-time value (dtype, list, string, None) used by partial
 * evaluation.  Tensor values become loops only when they are stored, so
 * `y[i] += abs(e[a] - e[b])` is one loop nest with no temporary.
 *
 * Files: lower.c (scopes, builder, statements, functions), scalar.c
 * (scalar expressions and folding), tensor.c (tensor values), expr.c
 * (expressions and calls), inline.c (inlining and partial evaluation).
 */
#ifndef FT_LW_H
#define FT_LW_H

#include "lower.h"
#include "../transforms/xf_util.h"

typedef struct lw_sym lw_sym;
typedef struct lw_val lw_val;
typedef struct lw_tensor lw_tensor;

typedef enum lw_sym_kind {
    SYM_CONST,    /* value: a compile-time lw_val */
    SYM_SIZE,     /* ast_name: an i64 size parameter */
    SYM_ITER,     /* ast_name: a loop iterator */
    SYM_TENSOR,   /* ast_name, dtype, ndim, shape, access: a named tensor */
    SYM_FUNC,     /* node: a PT_FUNC */
    SYM_VALUE,    /* value: a name bound to a value (inlined parameters) */
} lw_sym_kind;

struct lw_sym {
    lw_sym_kind kind;
    const char *name;
    const char *ast_name;
    int depth;
    ft_loc loc;
    lw_val *value;
    ft_dtype dtype;
    int ndim;
    ast_expr **shape;
    ft_access access;
    const char *layout;     /* SYM_TENSOR: its `layout "L->P"` or NULL */
    int frame;              /* SYM_TENSOR: the inline frame that declared it */
    ast_stmt *def;          /* SYM_TENSOR: a local's VarDef */
    const pt_node *node;
    lw_sym *next;
};

typedef enum lw_vkind { V_SCALAR, V_TENSOR, V_DTYPE, V_LIST, V_STRING, V_NONE } lw_vkind;

/* A value.  Fields by kind: V_SCALAR: scalar; V_TENSOR: t, writable;
 * V_DTYPE: dtype; V_LIST: n, items; V_STRING: str. */
struct lw_val {
    lw_vkind kind;
    ast_expr *scalar;
    lw_tensor *t;
    int writable;
    ft_dtype dtype;
    int n;
    lw_val **items;
    const char *str;
};

typedef enum lw_mop { M_BIN, M_NEG, M_NOT, M_CALL, M_CAST, M_IFE } lw_mop;

/* A tensor value of ndim dims with the given shape.
 * A view (is_view) reads and writes a region of the tensor `base`: base
 * dimension d is either fixed at fixed[d] or kept, starting at offset[d]
 * (NULL: 0); view dimension k is base dimension vdim[k].  fresh: a whole
 * temporary nobody else can see, so binding it to a name needs no copy.
 * A map applies op (of kind mop) element by element to args (scalars or
 * tensors, broadcast to shape). */
struct lw_tensor {
    int is_view;
    ft_dtype dtype;
    int ndim;
    ast_expr **shape;
    lw_sym *base;
    ast_expr **fixed;
    ast_expr **offset;
    int *vdim;
    int fresh;
    lw_mop mop;
    int op;
    int nargs;
    lw_val **args;
    ft_loc loc;
};

/* An inlined call in progress. */
typedef struct lw_frame {
    const char *func;
    int rt_depth;           /* run-time loops/ifs open when the call began */
    int rt_ifs;             /* run-time ifs open when the call began */
    int returned;           /* a `return` was lowered (or the call failed its
                               contract): skip the rest */
    lw_val *ret;
    const ft_source *fn_src;/* the callee's file */
    int reported;           /* an error naming the call is reported: no note */
    struct lw_frame *up;
    const ft_call *call;    /* the call (its location and callee), stamped on
                               the statements lowered inside (lw_emit) */
} lw_frame;

/* Lowering state of one file. */
typedef struct lw {
    ft_ctx *ctx;
    lw_sym *syms;            /* innermost first */
    lw_sym *globals;         /* consts and functions */
    lw_sym *scope_base;      /* lookups of locals stop here (inline frame) */
    int depth;
    ft_vec labels;           /* labels of the current exported function */
    const char *shape_of;    /* the parameter whose shape is being lowered */
    const char *const_name;  /* the const whose value is being lowered */
    int expr_depth;          /* nesting of the expression being lowered */
    int too_deep;            /* it was reported as nested too deeply */
    ft_vec bstack;           /* open builder frames (lw_bframe *) */
    lw_frame *frame;         /* innermost inlined call, NULL at top level */
    int nframes;
    int rt_depth;            /* run-time loops and ifs being lowered */
    int rt_ifs;              /* run-time ifs being lowered */
    int in_message;          /* lowering the values of a run-time assert's
                              * message (assert.c): a string chosen at run
                              * time shows both choices */
    const char *export_name; /* the exported function being lowered */
    int64_t ninlined;        /* calls inlined into it so far (--max-inline) */
    int64_t nopen_defs;      /* VarDefs open in bstack (--max-locals) */
    int over_budget;         /* a budget error was reported for it: lowering
                              * stops (going on would do the work that the
                              * budget is there to refuse) */
    const ft_source *prog_src; /* its file (the program, not the stdlib) */
    const char *label_prefix;/* prefix of labels inside inlined code */
} lw;

/* lower.c: names, scopes, builder, statements */
#define LW_PROGRAM_FILE 1   /* lw_sym.depth of the program's globals */
/* The symbol NAME means at AT (its file decides which globals it sees). */
lw_sym *lw_lookup(lw *L, const char *name, ft_loc at);
lw_sym *lw_declare(lw *L, lw_sym_kind kind, const char *name, ft_loc loc);
/* NAME means value from here to the end of the scope (it may already be
 * defined in this scope: require_layout's conversion renames a tensor). */
void lw_rebind(lw *L, const char *name, lw_val *value, ft_loc loc);
const char *lw_unique_name(lw *L, const char *name);
lw_sym *lw_push_scope(lw *L);
void lw_pop_scope(lw *L, lw_sym *mark);
void lw_emit(lw *L, ast_stmt *s);
void lw_open_def(lw *L, ast_stmt *def);
int lw_block_begin(lw *L);
ast_stmt *lw_block_end(lw *L, int mark);
void lw_lower_stmts(lw *L, const pt_node *block);
const char *lw_label(lw *L, const char *label);

/* scalar.c: scalar expressions */
int lw_is_literal(const ast_expr *e);
void lw_weaken(ast_expr *lit, ft_dtype t);
void lw_weaken_pair(ast_expr *a, ast_expr *b);
ast_expr *lw_fold(lw *L, ast_expr *e);
ast_expr *lw_as_bool(lw *L, ast_expr *e);
ast_expr *lw_binary(lw *L, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b);
ast_expr *lw_negate(lw *L, ft_loc loc, ast_expr *a);
ast_expr *lw_not(lw *L, ft_loc loc, ast_expr *a);
ast_expr *lw_builtin(lw *L, ft_loc loc, ast_builtin f, ast_expr *a);
/* 1: a and b are equal, 0: they differ (a - b is a non-zero constant),
 * -1: unknown at compile time. */
int lw_int_equal(lw *L, ast_expr *a, ast_expr *b);
/* Whether a - b is a constant (*diff), from their linear forms. */
int lw_int_diff(const ast_expr *a, const ast_expr *b, int64_t *diff);
int lw_const_int(const ast_expr *e, int64_t *v);

/* tensor.c: tensor values */
lw_val *lw_scalar_val(lw *L, ast_expr *e);
lw_val *lw_tensor_val(lw *L, lw_tensor *t, int writable);
lw_val *lw_view_of(lw *L, lw_sym *s, int writable);
ast_expr *lw_elem(lw *L, lw_tensor *t, ast_expr **idx);
ast_expr *lw_to_scalar(lw *L, lw_val *v, ft_loc loc);
lw_val *lw_map(lw *L, ft_loc loc, lw_mop mop, int op, int nargs, lw_val **args);
lw_val *lw_index(lw *L, lw_val *v, int n, const pt_node *const *subs, ft_loc loc);
lw_val *lw_materialize(lw *L, lw_val *v, const char *hint, ft_loc loc);
lw_val *lw_new_tensor(lw *L, const char *hint, ft_dtype t, int ndim, ast_expr **shape,
                      ft_loc loc);
/* A new local like lw_new_tensor's, declared with a layout (or NULL) and,
 * for a conversion require_layout inserts, the tensor it copies. */
lw_val *lw_new_laid_out(lw *L, const char *hint, ft_dtype t, int ndim, ast_expr **shape,
                        const char *layout, const char *conv_of, ft_loc loc);
int lw_assign(lw *L, lw_val *target, int op, lw_val *value, ft_loc loc);
int lw_val_ndim(const lw_val *v);
/* x.layout: the layout a whole tensor was declared with, "" for any other
 * value (row-major, a part of a tensor, a temporary, a local whose layout
 * the layout pass infers). */
const char *lw_val_layout(const lw_val *v);
/* The tensor v views whole (every element, in order), or NULL. */
lw_sym *lw_val_whole(const lw_val *v);
/* Whether value v reads tensor base anywhere. */
int lw_val_reads(const lw_val *v, const lw_sym *base);
ft_dtype lw_val_dtype(const lw_val *v);
ast_expr **lw_val_shape(const lw_val *v);
lw_val *lw_transpose(lw *L, lw_val *v, int n, const int *perm, ft_loc loc);
/* The part start .. start + len of view dimension k of view v. */
lw_val *lw_slice_dim(lw *L, lw_val *v, int k, ast_expr *start, ast_expr *len);
/* A loop nest over shape around the statement body(idx) gives. */
typedef ast_stmt *(*lw_body_fn)(lw *L, ast_expr **idx, void *data);
ast_stmt *lw_loop_nest(lw *L, int n, ast_expr **shape, lw_body_fn body, void *data,
                       ft_loc loc);

/* intrinsics.c: einsum, reshape, flatten, concat */
lw_val *lw_intrinsic(lw *L, const char *name, const pt_node *call, int *handled);

/* expr.c: expressions */
lw_val *lw_expr(lw *L, const pt_node *n);
ast_expr *lw_scalar_expr(lw *L, const pt_node *n);
ast_expr *lw_int_expr(lw *L, const pt_node *n, const char *what);
int lw_const_bool(const lw_val *v);

/* assert.c: asserts */
void lw_lower_assert(lw *L, const pt_node *n);
/* 1: condition c holds whatever the run-time values, 0: it never does,
 * -1: only the run time can tell. */
int lw_decide(const ast_expr *c);
/* Report a broken shape contract found at loc: in a stdlib operator, at
 * the program's call, named after the operator, with a note at loc, and the
 * rest of the call is not lowered (one mistake, one error); elsewhere at
 * loc. */
void lw_contract_error(lw *L, ft_loc loc, const char *msg);
/* Check `a op b` (integers), a shape contract of an operator the compiler
 * builds (intrinsics.c) at loc: nothing when it holds whatever the values,
 * a compile-time error reading msg when it never does (0 returned), else
 * an emitted assert whose run-time failure reports msg.  In msg, "{0}" and
 * "{1}" stand for a and b: their text at compile time, their values at run
 * time.  a and b are not used up. */
int lw_check(lw *L, ft_loc loc, ast_binop op, ast_expr *a, ast_expr *b, const char *msg);
/* lw_check that each of the n sizes dims of `what` ("the shape") given to
 * operator op is not negative: "OP: size K of WHAT is negative: -2". */
int lw_check_sizes(lw *L, ft_loc loc, const char *op, const char *what, int n,
                   ast_expr **dims);

/* inline.c: calls of non-exported functions */
lw_val *lw_call_func(lw *L, lw_sym *f, const pt_node *call);
int lw_lower_return(lw *L, const pt_node *n);

#endif
