/* parser.y - the .ft grammar (Lemon).
 *
 * Actions are thin: they call pt_* constructors (lang/pt.c) and build the
 * parse tree documented in lang/pt.h; the few checks done here are the ones
 * that need the surface syntax (what may be assigned to, `for` over range,
 * the words after a parameter's type).  Syntax errors are reported by
 * %syntax_error with the unexpected token and, where the parser can tell,
 * what was expected; recovery skips to the end of the bad line (the `error`
 * rules) so one run reports several errors.  Grammar conflicts fail the build
 * (lang/run_lemon.py).  Precedence follows Python; see lang/reference.md.
 */

%name ftParser
%token_prefix TK_
%token_type {lx_token}
%default_type {pt_node *}
%extra_argument {pt_pstate *ps}
%stack_size 4000

/* Every nonterminal value is a pt_node (or an int) in the ctx arena: there is
 * nothing to free when Lemon pops one during error recovery, so the
 * destructor only states that ownership. */
%default_destructor { (void)ps; (void)$$; /* arena-owned (ft_ctx), freed with the context */ }

%include {
#include <string.h>

#include "parse.h"

#define CTX (ps->ctx)

/* Append the children of list (a holder node, or NULL for none) to node. */
static pt_node *ps_take_kids(pt_pstate *ps, pt_node *node, pt_node *list)
{
    for (int i = 0; list && i < list->nkids; i++)
        pt_add(CTX, node, list->kids[i]);
    return node;
}

/* A node with a name copied from a token. */
static pt_node *ps_named(pt_pstate *ps, pt_kind kind, lx_token t)
{
    pt_node *n = pt_new(CTX, kind, t.loc);
    n->name = t.text;
    return n;
}

/* A binary operation; the location is the operator's. */
static pt_node *ps_binary(pt_pstate *ps, int op, lx_token t, pt_node *a, pt_node *b)
{
    pt_node *n = pt_new2(CTX, PT_BINARY, t.loc, a, b);
    n->op = op;
    return n;
}

/* A unary operation at its operator. */
static pt_node *ps_unary(pt_pstate *ps, int op, lx_token t, pt_node *a)
{
    pt_node *n = pt_new1(CTX, PT_UNARY, t.loc, a);
    n->op = op;
    return n;
}

/* Only names and indexings can be assigned to (and tuples of names, for
 * `jo, ji = split(...)`); anything else is reported here, at the target. */
static void ps_check_target(pt_pstate *ps, pt_node *t)
{
    if (t->kind == PT_TUPLE) {
        for (int i = 0; i < t->nkids; i++)
            if (t->kids[i]->kind != PT_NAME)
                ft_error(CTX, t->kids[i]->loc,
                         "only names can be unpacked into: `a, b = ...`");
        return;
    }
    if (t->kind != PT_NAME && t->kind != PT_INDEX)
        ft_error(CTX, t->loc, "cannot assign to a %s; assign to a name or an element "
                 "(`x = ...`, `y[i] = ...`)", t->kind == PT_CALL ? "call" : "expression");
}

/* An assignment statement `target OP value`; its location is the target's. */
static pt_node *ps_assign(pt_pstate *ps, int op, pt_node *target, pt_node *value)
{
    if (op != PT_OP_ASSIGN && target->kind == PT_TUPLE)
        ft_error(CTX, target->loc, "an augmented assignment takes one target");
    ps_check_target(ps, target);
    pt_node *n = pt_new2(CTX, PT_ASSIGN, target->loc, target, value);
    n->op = op;
    return n;
}

/* A `for` loop iterates over a call of range; say so otherwise. */
static void ps_check_range(pt_pstate *ps, pt_node *e)
{
    pt_node *f = e->kind == PT_CALL ? e->kids[0] : NULL;
    if (!f || f->kind != PT_NAME || strcmp(f->name, "range") != 0)
        ft_error(CTX, e->loc, "a for loop iterates over range(...): "
                 "`for i in range(n):`, `range(begin, end[, step])`");
}

/* The words after a type's dims (`type_tail`): [ACCESS] [@ MTYPE]
 * [layout L], ACCESS only on a parameter (param).  Sets *acc, *mtype and
 * *layout (a PT_STRING or the PT_NAME of a const); 0 after an error. */
static int ps_type_tail(pt_pstate *ps, const pt_node *tail, int param, int *acc,
                        pt_node **mtype, pt_node **layout)
{
    int n = tail ? tail->nkids : 0, i = 0;
    pt_node **k = tail ? tail->kids : NULL;
    if (i < n && k[i]->kind == PT_NAME && strcmp(k[i]->name, "layout") != 0) {
        const char *w = k[i]->name;
        *acc = !strcmp(w, "in") ? PT_ACC_IN : !strcmp(w, "out") ? PT_ACC_OUT
             : !strcmp(w, "inout") ? PT_ACC_INOUT : PT_ACC_NONE;
        if (*acc == PT_ACC_NONE || !param) {
            if (param)
                ft_error(CTX, k[i]->loc, "expected 'in', 'out' or 'inout' after the parameter's "
                         "type, not '%s'", w);
            else
                ft_error(CTX, k[i]->loc, "unexpected '%s' after the type of a local (a `var` "
                         "takes [@ MTYPE] [layout \"L->P\"])", w);
            return 0;
        }
        i++;
    }
    if (i < n && k[i]->kind == PT_MTYPE)
        *mtype = k[i++];
    if (i < n && k[i]->kind == PT_NAME && strcmp(k[i]->name, "layout") == 0) {
        if (i + 1 >= n || (k[i + 1]->kind != PT_STRING && k[i + 1]->kind != PT_NAME)) {
            ft_error(CTX, k[i]->loc, "expected a layout string or the name of a const after "
                     "'layout', e.g. layout \"NCHW->NHWC\"");
            return 0;
        }
        *layout = k[i + 1];
        i += 2;
    }
    if (i < n) {
        ft_error(CTX, k[i]->loc, "unexpected %s after the type; the order is %s[@ MTYPE] "
                 "[layout \"L->P\"]", k[i]->kind == PT_STRING ? "string"
                 : k[i]->kind == PT_MTYPE ? "memory type" : ft_fmt(CTX, "'%s'", k[i]->name),
                 param ? "ACCESS " : "");
        return 0;
    }
    return 1;
}

/* The type `dtype dims tail` (PT_TYPE: kids dims, mtype, layout); NULL
 * after an error in the tail. */
static pt_node *ps_type(pt_pstate *ps, lx_token dtype, pt_node *dims, pt_node *tail,
                        int param, int *acc)
{
    pt_node *mtype = NULL, *layout = NULL;
    if (!ps_type_tail(ps, tail, param, acc, &mtype, &layout))
        return NULL;
    pt_node *t = pt_new3(CTX, PT_TYPE, dtype.loc, dims, mtype, layout);
    t->name = dtype.text;
    return t;
}

/* The parameter whose type spelled `dtype dims tail`.  A lone word
 * `out` or `inout` (`func f(x: out)`) is an access, not a dtype. */
static pt_node *ps_param_type(pt_pstate *ps, lx_token dtype, pt_node *dims, pt_node *tail)
{
    pt_node *p = pt_new(CTX, PT_PARAM, dtype.loc);
    if (!dims && !tail && (strcmp(dtype.text, "out") == 0 || strcmp(dtype.text, "inout") == 0)) {
        p->op = dtype.text[0] == 'o' ? PT_ACC_OUT : PT_ACC_INOUT;
        pt_add(CTX, p, NULL);
        return p;
    }
    int acc = PT_ACC_NONE;
    pt_node *t = ps_type(ps, dtype, dims, tail, 1, &acc);
    p->op = acc;
    pt_add(CTX, p, t);
    return p;
}

/* A word after a type, for type_tail. */
static pt_node *ps_tail_add(pt_pstate *ps, pt_node *tail, pt_node *item)
{
    if (!tail)
        tail = pt_new(CTX, PT_NAMELIST, item->loc);
    pt_add(CTX, tail, item);
    return tail;
}

/* A statement after which recovery skipped a bad line: clear Lemon's count of
 * shifts-to-go so that an error on the very next line is reported too, and
 * remember where the line ended (see indent_open). */
#define PS_RECOVERED(nl) do { yypParser->yyerrcnt = -1; ps->err_nl_seq = (nl).seq; } while (0)

/* Describe what the parser state accepts, for %syntax_error: "an indented
 * block", "an expression", or up to three tokens; NULL when it cannot tell. */
static const char *ps_expected(pt_pstate *ps, int stateno, int bad, char *buf,
                               size_t size);
}

%syntax_error {
    if (TOKEN.loc.line == ps->lex_err_line)
        return;     /* follows from the lexical error reported on this line */
    char buf[160];
    const char *want = ps_expected(ps, yypParser->yytos->stateno, yymajor, buf,
                                   sizeof buf);
    const char *what = lx_kind_desc(yymajor);
    if (yymajor == TK_NAME)
        what = ft_fmt(CTX, "name '%s'", TOKEN.text);
    else if (yymajor == TK_INT || yymajor == TK_FLOAT)
        what = ft_fmt(CTX, "number %s", TOKEN.text);
    if (want)
        ft_error(CTX, TOKEN.loc, "unexpected %s; expected %s", what, want);
    else
        ft_error(CTX, TOKEN.loc, "unexpected %s", what);
}

%stack_overflow {
    ft_error(CTX, ps->cur_loc, "the program is nested too deeply for the parser");
    ps->fatal = 1;
}

%code {
/* Probe every terminal in the state on top of the stack, where token `bad`
 * was refused.  This is a guess (after default reductions the real state may
 * accept less), good enough to word an error message. */
static const char *ps_expected(pt_pstate *ps, int stateno, int bad, char *buf,
                               size_t size)
{
    if (stateno > YY_MAX_SHIFT)
        return NULL;
    int ok[YYNTOKEN], n = 0;
    for (int t = 1; t < YYNTOKEN; t++) {
        ok[t] = t != YYERRORSYMBOL && t != TK_UMINUS && !yyFallback[t] &&
                yy_find_shift_action((YYCODETYPE)t, (YYACTIONTYPE)stateno) != YY_ERROR_ACTION;
        n += ok[t];
    }
    if (ok[TK_INDENT] && n == 1)
        return "an indented block";
    n -= ok[TK_INDENT];         /* else it is only the `unexpected indent` rule */
    ok[TK_INDENT] = 0;
    if (ok[TK_FUNC] && ok[TK_CONST])
        return "a declaration (const, func, schedule or grad)";
    if (ok[TK_PASS] && ok[TK_NAME])
        return "a statement";
    if (ok[TK_NAME] && ok[TK_INT] && ok[TK_LPAREN])
        return "an expression";
    if (bad == TK_NEWLINE && ok[TK_COLON])
        return "':'";           /* `if c` / `for i in range(n)` */
    if (n == 0 || n > 3)
        return NULL;
    size_t len = 0;
    buf[0] = 0;
    for (int t = 1, k = 0; t < YYNTOKEN; t++) {
        if (!ok[t])
            continue;
        k++;
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                k == 1 ? "" : k == n ? " or " : ", ",
                                t == TK_NAME ? "a name" : lx_kind_desc(t));
        if (len >= size)
            break;
    }
    return buf;
}
}

/* Keywords that only mean something at the top level are names elsewhere. */
%fallback NAME SCHEDULE GRAD WRT.

/* Precedence, lowest first (Python's). */
%right IF ELSE.
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE.
%left PLUS MINUS.
%left STAR SLASH DSLASH PERCENT AT.
%right UMINUS.
%right POW.

/* ---------------------------------------------------------------- file */

/* file: declarations in order */
file ::= toplist(L).                { ps->result = L; }

toplist(A) ::= .                    { ft_loc l = { NULL, 1, 1, NULL }; A = pt_new(CTX, PT_FILE, l); }
toplist(A) ::= toplist(L) top(T).   { A = L; if (T) pt_add(CTX, A, T); }

/* const NAME = expr */
top(A) ::= CONST NAME(N) ASSIGN expr(E) NEWLINE.
                                    { A = ps_named(ps, PT_CONST, N); pt_add(CTX, A, E); }
top(A) ::= funcdef(F).              { A = F; }
/* schedule NAME: block of schedule statements */
top(A) ::= SCHEDULE NAME(N) COLON block(B).
                                    { A = ps_named(ps, PT_SCHEDULE, N); pt_add(CTX, A, B); }
/* grad NAME wrt a, b [tape MODE] -> RESULT */
top(A) ::= GRAD NAME(N) WRT namelist(W) tape_opt(M) ARROW NAME(R) NEWLINE.
                                    { A = ps_named(ps, PT_GRAD, N);
                                      A->str = M ? M : "auto";
                                      pt_add(CTX, A, W);
                                      pt_add(CTX, A, ps_named(ps, PT_NAME, R)); }
/* recovery: skip a bad line; a block after it is parsed for its errors */
top(A) ::= error NEWLINE(N).        { A = NULL; PS_RECOVERED(N); }
top(A) ::= indent_open stmts DEDENT. { A = NULL; }

%type tape_opt {const char *}
tape_opt(A) ::= .                   { A = NULL; }
tape_opt(A) ::= NAME(T) NAME(M).    { A = M.text;
                                      if (strcmp(T.text, "tape") != 0)
                                          ft_error(CTX, T.loc, "expected 'tape MODE' or '->', "
                                                   "not '%s'", T.text); }

namelist(A) ::= NAME(N).            { A = pt_new1(CTX, PT_NAMELIST, N.loc, ps_named(ps, PT_NAME, N)); }
namelist(A) ::= namelist(L) COMMA NAME(N).
                                    { A = L; pt_add(CTX, A, ps_named(ps, PT_NAME, N)); }

/* ---------------------------------------------------------------- functions */

/* [export] func NAME(params): block */
funcdef(A) ::= FUNC NAME(N) LPAREN params(P) RPAREN COLON block(B).
                                    { A = ps_named(ps, PT_FUNC, N); pt_add(CTX, A, P); pt_add(CTX, A, B); }
funcdef(A) ::= EXPORT FUNC NAME(N) LPAREN params(P) RPAREN COLON block(B).
                                    { A = ps_named(ps, PT_FUNC, N); A->ival = 1;
                                      pt_add(CTX, A, P); pt_add(CTX, A, B); }

params(A) ::= .                     { A = pt_new(CTX, PT_PARAMS, ps->cur_loc); }
params(A) ::= paramlist(L).         { A = L; }
params(A) ::= paramlist(L) COMMA.   { A = L; }

paramlist(A) ::= param(P).          { A = pt_new1(CTX, PT_PARAMS, P->loc, P); }
paramlist(A) ::= paramlist(L) COMMA param(P).
                                    { A = L; pt_add(CTX, A, P); }

/* name | name: in | name: out | name: DTYPE[dims] [ACCESS] [@ MTYPE] */
param(A) ::= NAME(N).               { A = ps_named(ps, PT_PARAM, N); pt_add(CTX, A, NULL);
                                      pt_add(CTX, A, NULL); }
param(A) ::= NAME(N) ASSIGN expr(E). { A = ps_named(ps, PT_PARAM, N); pt_add(CTX, A, NULL);
                                      pt_add(CTX, A, E); }
param(A) ::= NAME(N) COLON IN.      { A = ps_named(ps, PT_PARAM, N); pt_add(CTX, A, NULL);
                                      pt_add(CTX, A, NULL); A->op = PT_ACC_IN; }
param(A) ::= NAME(N) COLON NAME(D) dims_opt(S) type_tail(T).
                                    { A = ps_param_type(ps, D, S, T); pt_add(CTX, A, NULL);
                                      A->name = N.text; A->loc = N.loc; }

/* the words after a type: [ACCESS] [@ MTYPE] [layout "L->P" | layout NAME],
 * read by ps_type_tail (one list, so that the words need no lookahead) */
type_tail(A) ::= .                  { A = NULL; }
type_tail(A) ::= type_tail(L) IN(W).  { A = ps_tail_add(ps, L, ps_named(ps, PT_NAME, W)); }
type_tail(A) ::= type_tail(L) NAME(W). { A = ps_tail_add(ps, L, ps_named(ps, PT_NAME, W)); }
type_tail(A) ::= type_tail(L) STRING(T).
                                    { pt_node *s = pt_new(CTX, PT_STRING, T.loc); s->str = T.text;
                                      A = ps_tail_add(ps, L, s); }
type_tail(A) ::= type_tail(L) mtype(M). { A = ps_tail_add(ps, L, M); }

/* [dim, ...] after a dtype */
dims_opt(A) ::= .                   { A = NULL; }
dims_opt(A) ::= LBRACKET(L) exprlist(E) RBRACKET.
                                    { A = pt_new(CTX, PT_DIMS, L.loc); ps_take_kids(ps, A, E); }
dims_opt(A) ::= LBRACKET(L) exprlist(E) COMMA RBRACKET.
                                    { A = pt_new(CTX, PT_DIMS, L.loc); ps_take_kids(ps, A, E); }

/* @ cpu | @ gpu | @ gpu/shared | @ gpu/local */
mtype(A) ::= AT NAME(M).            { A = ps_named(ps, PT_MTYPE, M); }
mtype(A) ::= AT NAME(M) SLASH NAME(S).
                                    { A = ps_named(ps, PT_MTYPE, M);
                                      A->name = ft_fmt(CTX, "%s/%s", M.text, S.text); }

/* ---------------------------------------------------------------- blocks */

/* a block: NEWLINE INDENT statements DEDENT, or one simple statement on the
 * line of the `:` */
block(A) ::= NEWLINE INDENT(I) stmts(S) DEDENT.
                                    { A = S; A->loc = I.loc; }
/* recovery: an error at the DEDENT itself (a header with no body at the
 * end of a block) still closes the block */
block(A) ::= NEWLINE INDENT(I) stmts(S) error DEDENT.
                                    { A = S; A->loc = I.loc; yypParser->yyerrcnt = -1; }
block(A) ::= NEWLINE INDENT(I) error DEDENT.
                                    { A = pt_new(CTX, PT_BLOCK, I.loc); yypParser->yyerrcnt = -1; }
block(A) ::= simple(S) NEWLINE.     { A = pt_new1(CTX, PT_BLOCK, S->loc, S); }

stmts(A) ::= stmt(S).               { A = pt_new(CTX, PT_BLOCK, ps->cur_loc);
                                      if (S) { A->loc = S->loc; pt_add(CTX, A, S); } }
stmts(A) ::= stmts(L) stmt(S).      { A = L; if (S) pt_add(CTX, A, S); }

/* An INDENT where none belongs: an error, unless it opens the body of a
 * header that recovery has just skipped (its errors were reported). */
indent_open ::= INDENT(I).          { if (I.seq != ps->err_nl_seq + 1)
                                          ft_error(CTX, I.loc, "unexpected indent"); }

/* ---------------------------------------------------------------- statements */

stmt(A) ::= simple(S) NEWLINE.      { A = S; }
stmt(A) ::= compound(C).            { A = C; }
/* LABEL: statement */
stmt(A) ::= NAME(L) COLON stmt(S).  { A = ps_named(ps, PT_LABELED, L); pt_add(CTX, A, S); }
stmt(A) ::= error NEWLINE(N).       { A = NULL; PS_RECOVERED(N); }
stmt(A) ::= indent_open stmts DEDENT. { A = NULL; }

/* var NAME: TYPE [@ MTYPE] [= expr] | var NAME = expr */
simple(A) ::= VAR NAME(N) COLON vartype(T).
                                    { A = ps_named(ps, PT_VAR, N); pt_add(CTX, A, T); pt_add(CTX, A, NULL); }
simple(A) ::= VAR NAME(N) COLON vartype(T) ASSIGN expr(E).
                                    { A = ps_named(ps, PT_VAR, N); pt_add(CTX, A, T); pt_add(CTX, A, E); }
simple(A) ::= VAR NAME(N) ASSIGN expr(E).
                                    { A = ps_named(ps, PT_VAR, N); pt_add(CTX, A, NULL); pt_add(CTX, A, E); }
/* target = expr | target += expr | ... ; a, b = expr */
simple(A) ::= expr(T) ASSIGN expr(E).   { A = ps_assign(ps, PT_OP_ASSIGN, T, E); }
simple(A) ::= tuple(T) ASSIGN expr(E).  { A = ps_assign(ps, PT_OP_ASSIGN, T, E); }
simple(A) ::= expr(T) PLUSEQ expr(E).   { A = ps_assign(ps, PT_OP_ADD, T, E); }
simple(A) ::= expr(T) MINUSEQ expr(E).  { A = ps_assign(ps, PT_OP_SUB, T, E); }
simple(A) ::= expr(T) STAREQ expr(E).   { A = ps_assign(ps, PT_OP_MUL, T, E); }
simple(A) ::= expr(E).              { A = pt_new1(CTX, PT_EXPRSTMT, E->loc, E); }
simple(A) ::= ASSERT(K) expr(E).    { A = pt_new1(CTX, PT_ASSERT, K.loc, E); }
/* assert c, "message {}", v...: the message of a failure known at compile time */
simple(A) ::= ASSERT(K) expr(E) COMMA exprlist(M).
                                    { A = pt_new1(CTX, PT_ASSERT, K.loc, E); ps_take_kids(ps, A, M); }
simple(A) ::= RETURN(K).            { A = pt_new1(CTX, PT_RETURN, K.loc, NULL); }
simple(A) ::= RETURN(K) expr(E).    { A = pt_new1(CTX, PT_RETURN, K.loc, E); }
simple(A) ::= PASS(K).              { A = pt_new(CTX, PT_PASS, K.loc); }

vartype(A) ::= NAME(D) dims_opt(S) type_tail(T).
                                    { int acc = PT_ACC_NONE; A = ps_type(ps, D, S, T, 0, &acc); }

tuple(A) ::= expr(X) COMMA expr(Y). { A = pt_new2(CTX, PT_TUPLE, X->loc, X, Y); }
tuple(A) ::= tuple(L) COMMA expr(Y). { A = L; pt_add(CTX, A, Y); }

/* for NAME in range(...): block */
compound(A) ::= FOR(K) NAME(N) IN expr(R) COLON block(B).
                                    { ps_check_range(ps, R);
                                      A = pt_new2(CTX, PT_FOR, K.loc, R, B); A->name = N.text; }
/* if c: block [elif c: block]... [else: block] */
compound(A) ::= IF(K) expr(C) COLON block(B) elsepart(E).
                                    { A = pt_new3(CTX, PT_IF, K.loc, C, B, E); }

elsepart(A) ::= .                   { A = NULL; }
elsepart(A) ::= ELSE COLON block(B). { A = B; }
elsepart(A) ::= ELIF(K) expr(C) COLON block(B) elsepart(E).
                                    { A = pt_new3(CTX, PT_IF, K.loc, C, B, E); }

/* ---------------------------------------------------------------- expressions */

/* a if c else b */
expr(A) ::= expr(X) IF(K) expr(C) ELSE expr(Y).
                                    { A = pt_new3(CTX, PT_IFEXPR, K.loc, X, C, Y); }
expr(A) ::= expr(X) OR(K) expr(Y).  { A = ps_binary(ps, PT_OP_OR, K, X, Y); }
expr(A) ::= expr(X) AND(K) expr(Y). { A = ps_binary(ps, PT_OP_AND, K, X, Y); }
expr(A) ::= NOT(K) expr(X).         { A = ps_unary(ps, PT_OP_NOT, K, X); }
expr(A) ::= expr(X) EQ(K) expr(Y).  { A = ps_binary(ps, PT_OP_EQ, K, X, Y); }
expr(A) ::= expr(X) NE(K) expr(Y).  { A = ps_binary(ps, PT_OP_NE, K, X, Y); }
expr(A) ::= expr(X) LT(K) expr(Y).  { A = ps_binary(ps, PT_OP_LT, K, X, Y); }
expr(A) ::= expr(X) LE(K) expr(Y).  { A = ps_binary(ps, PT_OP_LE, K, X, Y); }
expr(A) ::= expr(X) GT(K) expr(Y).  { A = ps_binary(ps, PT_OP_GT, K, X, Y); }
expr(A) ::= expr(X) GE(K) expr(Y).  { A = ps_binary(ps, PT_OP_GE, K, X, Y); }
expr(A) ::= expr(X) PLUS(K) expr(Y).    { A = ps_binary(ps, PT_OP_ADD, K, X, Y); }
expr(A) ::= expr(X) MINUS(K) expr(Y).   { A = ps_binary(ps, PT_OP_SUB, K, X, Y); }
expr(A) ::= expr(X) STAR(K) expr(Y).    { A = ps_binary(ps, PT_OP_MUL, K, X, Y); }
expr(A) ::= expr(X) SLASH(K) expr(Y).   { A = ps_binary(ps, PT_OP_DIV, K, X, Y); }
expr(A) ::= expr(X) DSLASH(K) expr(Y).  { A = ps_binary(ps, PT_OP_FLOORDIV, K, X, Y); }
expr(A) ::= expr(X) PERCENT(K) expr(Y). { A = ps_binary(ps, PT_OP_MOD, K, X, Y); }
/* a @ b: matmul(a, b) (frontend/expr.c); `@` also introduces a memory type */
expr(A) ::= expr(X) AT(K) expr(Y).      { A = ps_binary(ps, PT_OP_MATMUL, K, X, Y); }
expr(A) ::= MINUS(K) expr(X). [UMINUS]  { A = ps_unary(ps, PT_OP_NEG, K, X); }
expr(A) ::= PLUS(K) expr(X). [UMINUS]   { A = ps_unary(ps, PT_OP_POS, K, X); }
expr(A) ::= expr(X) POW(K) expr(Y).     { A = ps_binary(ps, PT_OP_POW, K, X, Y); }
expr(A) ::= primary(P).             { A = P; }

/* postfix: calls, indexing, attributes */
primary(A) ::= primary(F) LPAREN args(L) RPAREN.
                                    { A = pt_new1(CTX, PT_CALL, F->loc, F); ps_take_kids(ps, A, L); }
primary(A) ::= primary(B) LBRACKET subs(L) RBRACKET.
                                    { A = pt_new1(CTX, PT_INDEX, B->loc, B); ps_take_kids(ps, A, L); }
primary(A) ::= primary(B) DOT NAME(N).
                                    { A = ps_named(ps, PT_ATTR, N); pt_add(CTX, A, B); }
primary(A) ::= LPAREN expr(E) RPAREN. { A = E; }
primary(A) ::= NAME(N).             { A = ps_named(ps, PT_NAME, N); }
primary(A) ::= INT(T).              { A = pt_new(CTX, PT_INT, T.loc); A->ival = T.ival; }
primary(A) ::= FLOAT(T).            { A = pt_new(CTX, PT_FLOAT, T.loc); A->fval = T.fval; }
primary(A) ::= string(S).           { A = S; }
/* "ab" "cd" is "abcd" (Python's adjacent literals: a long message split
 * over lines inside parentheses) */
string(A) ::= STRING(T).            { A = pt_new(CTX, PT_STRING, T.loc); A->str = T.text; }
string(A) ::= string(S) STRING(T).  { A = S; A->str = ft_fmt(CTX, "%s%s", S->str, T.text); }
primary(A) ::= TRUE(T).             { A = pt_new(CTX, PT_BOOL, T.loc); A->ival = 1; }
primary(A) ::= FALSE(T).            { A = pt_new(CTX, PT_BOOL, T.loc); A->ival = 0; }
primary(A) ::= NONE(T).             { A = pt_new(CTX, PT_NONE, T.loc); }
primary(A) ::= LBRACKET(L) RBRACKET. { A = pt_new(CTX, PT_LIST, L.loc); }
primary(A) ::= LBRACKET(L) exprlist(E) RBRACKET.
                                    { A = pt_new(CTX, PT_LIST, L.loc); ps_take_kids(ps, A, E); }

/* comma-separated expressions, in a PT_TUPLE used as a list */
exprlist(A) ::= expr(E).            { A = pt_new1(CTX, PT_TUPLE, E->loc, E); }
exprlist(A) ::= exprlist(L) COMMA expr(E). { A = L; pt_add(CTX, A, E); }

/* call arguments: expressions, then or among them NAME=expr (PT_KWARG) */
args(A) ::= .                       { A = NULL; }
args(A) ::= arglist(L).             { A = L; }
args(A) ::= arglist(L) COMMA.       { A = L; }
arglist(A) ::= arg(X).              { A = pt_new1(CTX, PT_TUPLE, X->loc, X); }
arglist(A) ::= arglist(L) COMMA arg(X). { A = L; pt_add(CTX, A, X); }
arg(A) ::= expr(E).                 { A = E; }
arg(A) ::= NAME(N) ASSIGN expr(E).  { A = ps_named(ps, PT_KWARG, N); pt_add(CTX, A, E); }

/* subscripts: expressions and slices start:stop (either may be left out) */
subs(A) ::= sub(X).                 { A = pt_new1(CTX, PT_TUPLE, X->loc, X); }
subs(A) ::= subs(L) COMMA sub(X).   { A = L; pt_add(CTX, A, X); }
sub(A) ::= expr(E).                 { A = E; }
sub(A) ::= COLON(K).                { A = pt_new2(CTX, PT_SLICE, K.loc, NULL, NULL); }
sub(A) ::= expr(X) COLON(K).        { A = pt_new2(CTX, PT_SLICE, K.loc, X, NULL); }
sub(A) ::= COLON(K) expr(Y).        { A = pt_new2(CTX, PT_SLICE, K.loc, NULL, Y); }
sub(A) ::= expr(X) COLON(K) expr(Y). { A = pt_new2(CTX, PT_SLICE, K.loc, X, Y); }
