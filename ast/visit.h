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

#endif
