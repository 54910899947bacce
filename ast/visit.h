/* visit.h - walking the AST.
 *
 * A pass that only looks at nodes fills an ast_visitor (embed it as the
 * first member of a struct of its own to carry data) and calls ast_visit.
 */
#ifndef FT_VISIT_H
#define FT_VISIT_H

#include "ast.h"

typedef struct ast_visitor ast_visitor;
struct ast_visitor {
    /* Called on each statement before its children; return 0 to skip them.
     * May be NULL. */
    int (*stmt)(ast_visitor *v, ast_stmt *s);
    /* Called on each expression node before its operands.  May be NULL. */
    void (*expr)(ast_visitor *v, ast_expr *e);
};

/* Walk s and everything under it in source order (pre-order). */
void ast_visit(ast_stmt *s, ast_visitor *v);
/* Walk an expression tree (pre-order). */
void ast_visit_expr(ast_expr *e, ast_visitor *v);

/* The statements of s (sequences not counted), counting stops a little past
 * cap: a budget check costs no more than the budget. */
int64_t ast_stmt_count(const ast_stmt *s, int64_t cap);
/* The nodes of e as a tree (a node shared twice counts twice), counting
 * stops a little past cap.  Recursion only on right operands. */
int64_t ast_expr_size(const ast_expr *e, int64_t cap);

#endif
