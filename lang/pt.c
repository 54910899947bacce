/* pt.c - parse-tree constructors (arena-owned, see lang/pt.h). */
#include <string.h>

#include "pt.h"

/* Kids arrays grow by doubling: a node with n kids has room for
 * max(4, next power of two >= n), so pt_add only reallocates when n is 0 or
 * a power of two >= 4.  Kids must therefore only be added through pt_add. */
static int pt_must_grow(int n)
{
    return n == 0 || (n >= 4 && (n & (n - 1)) == 0);
}

/* A new node with no children (give: arena-owned). */
pt_node *pt_new(ft_ctx *ctx, pt_kind kind, ft_loc loc)
{
    pt_node *n = ft_alloc(ctx, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    return n;
}

/* Append kid (which may be NULL: an optional child left out). */
void pt_add(ft_ctx *ctx, pt_node *parent, pt_node *kid)
{
    if (pt_must_grow(parent->nkids)) {
        int cap = parent->nkids == 0 ? 4 : 2 * parent->nkids;
        pt_node **kids = ft_alloc(ctx, (size_t)cap * sizeof *kids);
        if (parent->nkids)
            memcpy(kids, parent->kids, (size_t)parent->nkids * sizeof *kids);
        parent->kids = kids;
    }
    parent->kids[parent->nkids++] = kid;
}

pt_node *pt_new1(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a)
{
    pt_node *n = pt_new(ctx, kind, loc);
    pt_add(ctx, n, a);
    return n;
}

pt_node *pt_new2(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a, pt_node *b)
{
    pt_node *n = pt_new1(ctx, kind, loc, a);
    pt_add(ctx, n, b);
    return n;
}

pt_node *pt_new3(ft_ctx *ctx, pt_kind kind, ft_loc loc, pt_node *a, pt_node *b,
                 pt_node *c)
{
    pt_node *n = pt_new2(ctx, kind, loc, a, b);
    pt_add(ctx, n, c);
    return n;
}

/* The kind's name without the PT_ prefix, e.g. "FOR". */
const char *pt_kind_name(pt_kind kind)
{
    static const char *const names[PT_KIND_COUNT] = {
        [PT_FILE] = "FILE", [PT_CONST] = "CONST", [PT_FUNC] = "FUNC",
        [PT_PARAMS] = "PARAMS", [PT_PARAM] = "PARAM", [PT_TYPE] = "TYPE",
        [PT_DIMS] = "DIMS", [PT_MTYPE] = "MTYPE", [PT_SCHEDULE] = "SCHEDULE",
        [PT_GRAD] = "GRAD", [PT_NAMELIST] = "NAMELIST", [PT_BLOCK] = "BLOCK",
        [PT_VAR] = "VAR", [PT_ASSIGN] = "ASSIGN", [PT_FOR] = "FOR", [PT_IF] = "IF",
        [PT_ASSERT] = "ASSERT", [PT_RETURN] = "RETURN", [PT_PASS] = "PASS",
        [PT_EXPRSTMT] = "EXPRSTMT", [PT_LABELED] = "LABELED", [PT_INT] = "INT",
        [PT_FLOAT] = "FLOAT", [PT_BOOL] = "BOOL", [PT_STRING] = "STRING",
        [PT_NAME] = "NAME", [PT_BINARY] = "BINARY", [PT_UNARY] = "UNARY",
        [PT_CALL] = "CALL", [PT_KWARG] = "KWARG", [PT_INDEX] = "INDEX",
        [PT_SLICE] = "SLICE", [PT_ATTR] = "ATTR", [PT_IFEXPR] = "IFEXPR",
        [PT_TUPLE] = "TUPLE",
        [PT_LIST] = "LIST",
        [PT_NONE] = "NONE",
    };
    if ((unsigned)kind >= PT_KIND_COUNT || !names[kind])
        return "?";
    return names[kind];
}
