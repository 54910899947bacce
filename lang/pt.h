/* pt.h - the parse tree: what the Lemon parser builds.
 *
 * A generic node with a kind, a location and children.  It is the surface
 * syntax as written; frontend/lower.c resolves names and types and turns it
 * into the AST.  The comment on each kind says how name/ival/fval/op and the
 * children are used.  Nodes are arena-owned (see ast/ctx.h).
 */
#ifndef FT_PT_H
#define FT_PT_H

#include "../ast/ctx.h"

typedef enum pt_kind {
    /* top level */
    PT_FILE,      /* kids: PT_CONST | PT_FUNC | PT_SCHEDULE | PT_GRAD, in order */
    PT_CONST,     /* name; kids[0]: value expr */
    PT_FUNC,      /* name; ival: 1 if `export`; kids[0]: PT_PARAMS, kids[1]: PT_BLOCK */
    PT_PARAMS,    /* kids: PT_PARAM */
    PT_PARAM,     /* name; kids[0]: PT_TYPE or NULL (untyped), kids[1]: default
                     value or NULL; op: access (PT_ACC_NONE/IN/OUT/INOUT) */
    PT_TYPE,      /* name: dtype word ("f32", "size", ...); kids[0]: PT_DIMS or
                     NULL (scalar); kids[1]: PT_MTYPE or NULL; kids[2]:
                     the layout (PT_STRING, or PT_NAME of a const) or NULL */
    PT_DIMS,      /* kids: dim exprs */
    PT_MTYPE,     /* name: "cpu", "gpu", "gpu/shared", "gpu/local" */
    PT_SCHEDULE,  /* name: function; kids: PT_BLOCK of schedule statements */
    PT_GRAD,      /* name: function; kids[0]: PT_NAMELIST (wrt), kids[1]: PT_NAME
                     (result name); str: tape mode ("auto" when omitted) */
    PT_NAMELIST,  /* kids: PT_NAME */

    /* statements */
    PT_BLOCK,     /* kids: statements */
    PT_VAR,       /* name; kids[0]: PT_TYPE or NULL; kids[1]: init expr or NULL */
    PT_ASSIGN,    /* op: PT_OP_ASSIGN, PT_OP_ADD (+=), PT_OP_SUB (-=), PT_OP_MUL (*=);
                     kids[0]: target (PT_NAME, PT_INDEX or PT_TUPLE), kids[1]: value */
    PT_FOR,       /* name: iterator; kids[0]: PT_CALL of `range`; kids[1]: PT_BLOCK */
    PT_IF,        /* kids[0]: cond, kids[1]: PT_BLOCK, kids[2]: else (PT_BLOCK,
                     or a PT_IF for elif) or NULL */
    PT_ASSERT,    /* kids[0]: cond; kids[1..]: message, its values */
    PT_RETURN,    /* kids[0]: value or NULL */
    PT_PASS,      /* no kids */
    PT_EXPRSTMT,  /* kids[0]: expr */
    PT_LABELED,   /* name: label; kids[0]: the labelled statement */

    /* expressions */
    PT_INT,       /* ival */
    PT_FLOAT,     /* fval (inf included) */
    PT_BOOL,      /* ival: 0 or 1 */
    PT_STRING,    /* str: contents without quotes, escapes resolved */
    PT_NAME,      /* name */
    PT_BINARY,    /* op: PT_OP_*; kids[0], kids[1] */
    PT_UNARY,     /* op: PT_OP_NEG, PT_OP_POS or PT_OP_NOT; kids[0] */
    PT_CALL,      /* kids[0]: callee (PT_NAME or PT_ATTR); kids[1..]: args
                     (expressions or PT_KWARG) */
    PT_KWARG,     /* name; kids[0]: value */
    PT_INDEX,     /* kids[0]: base; kids[1..]: indices (expressions or PT_SLICE) */
    PT_SLICE,     /* kids[0]: start or NULL, kids[1]: stop or NULL */
    PT_ATTR,      /* name: attribute; kids[0]: base  (x.shape, x.ndim) */
    PT_IFEXPR,    /* kids[0]: then value, kids[1]: cond, kids[2]: else value */
    PT_TUPLE,     /* kids: expressions (`jo, ji = split(...)`) */
    PT_LIST,      /* kids: expressions (`[n, m]`, a compile-time list) */
    PT_NONE,      /* `None` */
    PT_KIND_COUNT
} pt_kind;

typedef enum pt_op {
    PT_OP_NONE,
    PT_OP_ASSIGN,
    PT_OP_ADD, PT_OP_SUB, PT_OP_MUL, PT_OP_DIV, PT_OP_FLOORDIV, PT_OP_MOD,
    PT_OP_MATMUL,     /* a @ b */
    PT_OP_POW,
    PT_OP_LT, PT_OP_LE, PT_OP_GT, PT_OP_GE, PT_OP_EQ, PT_OP_NE,
    PT_OP_AND, PT_OP_OR,
    PT_OP_NEG, PT_OP_POS, PT_OP_NOT,
} pt_op;

/* Access modes of parameters. */
enum { PT_ACC_NONE, PT_ACC_IN, PT_ACC_OUT, PT_ACC_INOUT };

typedef struct pt_node pt_node;
struct pt_node {
    pt_kind kind;
    ft_loc loc;
    int op;
    const char *name;
    const char *str;
    int64_t ival;
    double fval;
    int nkids;
    pt_node **kids;
};

/* Constructors (arena-owned).  pt_new takes its children as a NULL-free
 * array copy; pt_add appends one child (which may be NULL where the layout
 * above allows it). */
pt_node *pt_new(ft_ctx *ctx, pt_kind kind, ft_loc loc);
void pt_add(ft_ctx *ctx, pt_node *parent, pt_node *kid);
pt_node *pt_new1(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a);
pt_node *pt_new2(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a, pt_node *b);
pt_node *pt_new3(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a, pt_node *b,
                 pt_node *c);

/* Parse a whole source file.  Returns the PT_FILE node, or NULL when there
 * were errors (all reported through ctx; as many as recovery allows). */
pt_node *ft_parse(ft_ctx *ctx, const ft_source *src);

/* Name of a kind, for debugging and tests. */
const char *pt_kind_name(pt_kind kind);

#endif
