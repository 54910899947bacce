/* lexer.re - the .ft lexer (re2c): tokens, indentation, brackets.
 *
 * Python-like layout: at the start of each logical line the lexer compares
 * the indentation with a stack of open levels and hands out INDENT or DEDENT;
 * a NEWLINE ends every line that had tokens; blank and comment-only lines
 * give nothing; inside ( ) and [ ] newlines and indentation are ignored.  At
 * the end it hands out the last NEWLINE, the DEDENTs still open, then 0.
 *
 * Errors (tabs, bad literals, unknown characters, bad dedents) are reported
 * through ft_error and lexing goes on; only "too deep" and an unclosed
 * bracket at the end stop it (lx->fatal), since nothing after them can parse.
 * See lang/reference.md, section Lexical.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.h"

/* Returned by the scanner for input that makes no token (spaces, comments). */
#define LX_SKIP (-1)

/* Report a lexical error and remember its line: the parser keeps quiet about
 * the syntax errors that follow from it on the same line. */
#define LX_ERROR(lx, loc, ...)                          \
    do {                                                \
        (lx)->err_line = (loc).line;                    \
        ft_error((lx)->ctx, (loc), __VA_ARGS__);        \
    } while (0)

/* The location of byte p on the current line. */
static ft_loc lx_loc_at(const lx_lexer *lx, const char *p)
{
    ft_loc loc = { lx->src, lx->line, (int)(p - lx->line_start) + 1, NULL };
    return loc;
}

void lx_init(lx_lexer *lx, ft_ctx *ctx, const ft_source *src)
{
    memset(lx, 0, sizeof *lx);
    lx->ctx = ctx;
    lx->src = src;
    lx->cur = src->text;
    lx->lim = src->text + src->len;
    lx->line_start = src->text;
    lx->line = 1;
    lx->at_bol = 1;
    lx->nindents = 1;            /* indent[0] = 0: the top level */
}

/* Fill in a token of the given kind at loc and count it. */
static int lx_emit(lx_lexer *lx, lx_token *tok, int kind, ft_loc loc)
{
    memset(tok, 0, sizeof *tok);
    tok->kind = kind;
    tok->loc = loc;
    tok->seq = lx->seq++;
    return kind;
}

/* A token spelled by the bytes [start, end) of the current line: it makes the
 * line owe a NEWLINE, and scanning goes on after it. */
static int lx_word(lx_lexer *lx, lx_token *tok, int kind, const char *start,
                   const char *end)
{
    lx->cur = end;
    lx->line_has_tokens = 1;
    lx_emit(lx, tok, kind, lx_loc_at(lx, start));
    tok->text = ft_strndup(lx->ctx, start, (size_t)(end - start));
    return kind;
}

/* The physical line ends at `next` (the byte after the newline). */
static void lx_new_line(lx_lexer *lx, const char *next)
{
    lx->line++;
    lx->line_start = next;
}

/* Stop lexing for good: the rest of the input cannot be parsed. */
static int lx_give_up(lx_lexer *lx, lx_token *tok, ft_loc loc)
{
    lx->fatal = 1;
    lx->cur = lx->lim;
    return lx_emit(lx, tok, 0, loc);
}

/* Indentation at the start of a logical line, cursor at its first byte.
 * Returns INDENT or DEDENT when the level changes, LX_SKIP otherwise (same
 * level, or a blank or comment-only line, which says nothing about levels).
 * A tab counts to the next multiple of 8 so that lexing can go on, but is an
 * error. */
static int lx_indentation(lx_lexer *lx, lx_token *tok)
{
    const char *p = lx->cur, *tab = NULL;
    int width = 0;
    for (; p < lx->lim && (*p == ' ' || *p == '\t'); p++) {
        if (*p == '\t' && !tab)
            tab = p;
        width = *p == '\t' ? (width / 8 + 1) * 8 : width + 1;
    }
    lx->at_bol = 0;
    lx->cur = p;
    if (p == lx->lim || *p == '#' || *p == '\n' || *p == '\r')
        return LX_SKIP;                       /* blank line */
    if (tab)
        LX_ERROR(lx, lx_loc_at(lx, tab),
                 "tab in indentation: tabs are not allowed, indent with spaces");
    ft_loc loc = lx_loc_at(lx, p);
    int top = lx->indent[lx->nindents - 1];
    if (width > top) {
        if (lx->nindents > LX_MAX_INDENTS) {
            LX_ERROR(lx, loc, "too many nested blocks (more than %d)", LX_MAX_INDENTS);
            return lx_give_up(lx, tok, loc);
        }
        lx->indent[lx->nindents++] = width;
        return lx_emit(lx, tok, TK_INDENT, loc);
    }
    if (width == top)
        return LX_SKIP;
    int ndedents = 0;
    while (lx->nindents > 1 && lx->indent[lx->nindents - 1] > width) {
        lx->nindents--;
        ndedents++;
    }
    if (lx->indent[lx->nindents - 1] != width)
        LX_ERROR(lx, loc, "unindent does not match any outer indentation level");
    lx->pending_dedents = ndedents - 1;
    lx->pending_loc = loc;
    return lx_emit(lx, tok, TK_DEDENT, loc);
}

/* End of input: report an unclosed bracket, else hand out the NEWLINE the
 * last line owes, then one DEDENT per open level, then 0 (again and again). */
static int lx_end(lx_lexer *lx, lx_token *tok)
{
    ft_loc loc = lx_loc_at(lx, lx->lim);
    if (lx->nopen > 0) {
        lx_open *o = &lx->open[lx->nopen - 1];
        LX_ERROR(lx, o->loc, "'%c' was never closed", o->ch);
        return lx_give_up(lx, tok, loc);
    }
    if (lx->line_has_tokens) {
        lx->line_has_tokens = 0;
        return lx_emit(lx, tok, TK_NEWLINE, loc);
    }
    if (lx->nindents > 1) {
        lx->pending_dedents = lx->nindents - 2;
        lx->pending_loc = loc;
        lx->nindents = 1;
        return lx_emit(lx, tok, TK_DEDENT, loc);
    }
    return lx_emit(lx, tok, 0, loc);
}

/* A newline outside brackets ends the logical line: NEWLINE if it had tokens. */
static int lx_line_end(lx_lexer *lx, lx_token *tok, const char *nl, const char *next)
{
    ft_loc loc = lx_loc_at(lx, nl);
    lx->cur = next;
    lx_new_line(lx, next);
    if (lx->nopen > 0)
        return LX_SKIP;
    lx->at_bol = 1;
    if (!lx->line_has_tokens)
        return LX_SKIP;
    lx->line_has_tokens = 0;
    return lx_emit(lx, tok, TK_NEWLINE, loc);
}

/* ( or [: remember where it opened, for the error at the end. */
static int lx_open_bracket(lx_lexer *lx, lx_token *tok, int kind, const char *p)
{
    if (lx->nopen == LX_MAX_BRACKETS) {
        LX_ERROR(lx, lx_loc_at(lx, p), "brackets nested too deeply (more than %d)",
                 LX_MAX_BRACKETS);
        return lx_give_up(lx, tok, lx_loc_at(lx, p));
    }
    lx->open[lx->nopen].ch = *p;
    lx->open[lx->nopen].loc = lx_loc_at(lx, p);
    lx->nopen++;
    return lx_word(lx, tok, kind, p, p + 1);
}

/* ) or ]: close the innermost bracket.  A mismatch closes it anyway and is
 * left to the parser to report ("unexpected ']'"). */
static int lx_close_bracket(lx_lexer *lx, lx_token *tok, int kind, const char *p)
{
    if (lx->nopen > 0)
        lx->nopen--;
    return lx_word(lx, tok, kind, p, p + 1);
}

/* A decimal or 0x literal; beyond int64 it is an error (the value is 0). */
static int lx_int(lx_lexer *lx, lx_token *tok, const char *s, const char *e, int base)
{
    lx_word(lx, tok, TK_INT, s, e);
    uint64_t v = 0;
    const char *p = base == 16 ? s + 2 : s;
    for (; p < e; p++) {
        int d = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base) {
            LX_ERROR(lx, tok->loc, "integer literal %s is too large (the limit is %lld)",
                     tok->text, (long long)INT64_MAX);
            return TK_INT;
        }
        v = v * (uint64_t)base + (uint64_t)d;
    }
    tok->ival = (int64_t)v;
    return TK_INT;
}

/* A float literal (strtod accepts exactly what the rule matched). */
static int lx_float(lx_lexer *lx, lx_token *tok, const char *s, const char *e)
{
    lx_word(lx, tok, TK_FLOAT, s, e);
    tok->fval = strtod(tok->text, NULL);
    return TK_FLOAT;
}

/* A number run into letters, dots or more digits: `2.f`, `1e`, `0x`, `12ab`. */
static int lx_bad_number(lx_lexer *lx, lx_token *tok, const char *s, const char *e)
{
    lx_word(lx, tok, TK_INT, s, e);
    int is_float = memchr(s, '.', (size_t)(e - s)) != NULL;
    LX_ERROR(lx, tok->loc, "invalid %s literal '%s'", is_float ? "float" : "number",
             tok->text);
    return TK_INT;
}

/* A string literal between quotes s and e-1: contents with \n \t \\ \" \'
 * resolved; any other escaped character stands for itself. */
static int lx_string(lx_lexer *lx, lx_token *tok, const char *s, const char *e)
{
    lx_word(lx, tok, TK_STRING, s, e);
    char *out = ft_alloc(lx->ctx, (size_t)(e - s));
    size_t n = 0;
    for (const char *p = s + 1; p < e - 1; p++) {
        if (*p == '\\' && p + 1 < e - 1) {
            p++;
            out[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    tok->text = out;
    return TK_STRING;
}

/* A character that starts no token: report it and skip it. */
static int lx_bad_char(lx_lexer *lx, const char *s, const char *e)
{
    unsigned char c = (unsigned char)*s;
    ft_loc loc = lx_loc_at(lx, s);
    if (c >= 0x80)
        LX_ERROR(lx, loc, "non-ASCII character: outside strings and comments "
                 "only ASCII is allowed");
    else if (c > ' ' && c < 0x7f)
        LX_ERROR(lx, loc, "unexpected character '%c'", c);
    else
        LX_ERROR(lx, loc, "unexpected character (byte 0x%02x)", c);
    lx->cur = e;
    return LX_SKIP;
}

/* Scan one token (or something skipped) from lx->cur. */
static int lx_scan(lx_lexer *lx, lx_token *tok)
{
    const char *YYCURSOR = lx->cur, *YYLIMIT = lx->lim, *YYMARKER = lx->cur;
    const char *s = YYCURSOR;
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:eof = 0;

        dec = [0-9]+;
        hex = "0" [xX] [0-9a-fA-F]+;
        exp = [eE] [+-]? [0-9]+;
        flt = [0-9]+ "." [0-9]* exp? | "." [0-9]+ exp? | [0-9]+ exp;
        id  = [a-zA-Z_] [a-zA-Z_0-9]*;
        nl  = "\r\n" | "\n" | "\r";
        str = ["] ([^"\\\r\n] | "\\" [^\r\n])* ["] | ['] ([^'\\\r\n] | "\\" [^\r\n])* ['];
        unterminated = ["] ([^"\\\r\n] | "\\" [^\r\n])* | ['] ([^'\\\r\n] | "\\" [^\r\n])*;

        $ { return lx_end(lx, tok); }

        " "+              { lx->cur = YYCURSOR; return LX_SKIP; }
        "#" [^\r\n]*      { lx->cur = YYCURSOR; return LX_SKIP; }
        "\t"              {
            LX_ERROR(lx, lx_loc_at(lx, s), "tab character: tabs are not allowed, use spaces");
            lx->cur = YYCURSOR;
            return LX_SKIP;
        }
        nl                { return lx_line_end(lx, tok, s, YYCURSOR); }
        "\\" nl           { lx->cur = YYCURSOR; lx_new_line(lx, YYCURSOR); return LX_SKIP; }

        "export"  { return lx_word(lx, tok, TK_EXPORT, s, YYCURSOR); }
        "func"    { return lx_word(lx, tok, TK_FUNC, s, YYCURSOR); }
        "const"   { return lx_word(lx, tok, TK_CONST, s, YYCURSOR); }
        "var"     { return lx_word(lx, tok, TK_VAR, s, YYCURSOR); }
        "for"     { return lx_word(lx, tok, TK_FOR, s, YYCURSOR); }
        "in"      { return lx_word(lx, tok, TK_IN, s, YYCURSOR); }
        "if"      { return lx_word(lx, tok, TK_IF, s, YYCURSOR); }
        "elif"    { return lx_word(lx, tok, TK_ELIF, s, YYCURSOR); }
        "else"    { return lx_word(lx, tok, TK_ELSE, s, YYCURSOR); }
        "assert"  { return lx_word(lx, tok, TK_ASSERT, s, YYCURSOR); }
        "return"  { return lx_word(lx, tok, TK_RETURN, s, YYCURSOR); }
        "pass"    { return lx_word(lx, tok, TK_PASS, s, YYCURSOR); }
        "schedule" { return lx_word(lx, tok, TK_SCHEDULE, s, YYCURSOR); }
        "grad"    { return lx_word(lx, tok, TK_GRAD, s, YYCURSOR); }
        "wrt"     { return lx_word(lx, tok, TK_WRT, s, YYCURSOR); }
        "and"     { return lx_word(lx, tok, TK_AND, s, YYCURSOR); }
        "or"      { return lx_word(lx, tok, TK_OR, s, YYCURSOR); }
        "not"     { return lx_word(lx, tok, TK_NOT, s, YYCURSOR); }
        "True"    { return lx_word(lx, tok, TK_TRUE, s, YYCURSOR); }
        "False"   { return lx_word(lx, tok, TK_FALSE, s, YYCURSOR); }
        "None"    { return lx_word(lx, tok, TK_NONE, s, YYCURSOR); }
        "inf"     { lx_word(lx, tok, TK_FLOAT, s, YYCURSOR); tok->fval = INFINITY; return TK_FLOAT; }
        id        { return lx_word(lx, tok, TK_NAME, s, YYCURSOR); }

        hex       { return lx_int(lx, tok, s, YYCURSOR, 16); }
        dec       { return lx_int(lx, tok, s, YYCURSOR, 10); }
        flt       { return lx_float(lx, tok, s, YYCURSOR); }
        (dec | hex | flt) [a-zA-Z_0-9.]+ { return lx_bad_number(lx, tok, s, YYCURSOR); }

        str       { return lx_string(lx, tok, s, YYCURSOR); }
        unterminated {
            lx_word(lx, tok, TK_STRING, s, YYCURSOR);
            LX_ERROR(lx, tok->loc, "unterminated string: the closing %c is missing", *s);
            return TK_STRING;
        }

        "("   { return lx_open_bracket(lx, tok, TK_LPAREN, s); }
        "["   { return lx_open_bracket(lx, tok, TK_LBRACKET, s); }
        ")"   { return lx_close_bracket(lx, tok, TK_RPAREN, s); }
        "]"   { return lx_close_bracket(lx, tok, TK_RBRACKET, s); }
        "+"   { return lx_word(lx, tok, TK_PLUS, s, YYCURSOR); }
        "-"   { return lx_word(lx, tok, TK_MINUS, s, YYCURSOR); }
        "*"   { return lx_word(lx, tok, TK_STAR, s, YYCURSOR); }
        "/"   { return lx_word(lx, tok, TK_SLASH, s, YYCURSOR); }
        "//"  { return lx_word(lx, tok, TK_DSLASH, s, YYCURSOR); }
        "%"   { return lx_word(lx, tok, TK_PERCENT, s, YYCURSOR); }
        "**"  { return lx_word(lx, tok, TK_POW, s, YYCURSOR); }
        "=="  { return lx_word(lx, tok, TK_EQ, s, YYCURSOR); }
        "!="  { return lx_word(lx, tok, TK_NE, s, YYCURSOR); }
        "<"   { return lx_word(lx, tok, TK_LT, s, YYCURSOR); }
        "<="  { return lx_word(lx, tok, TK_LE, s, YYCURSOR); }
        ">"   { return lx_word(lx, tok, TK_GT, s, YYCURSOR); }
        ">="  { return lx_word(lx, tok, TK_GE, s, YYCURSOR); }
        "="   { return lx_word(lx, tok, TK_ASSIGN, s, YYCURSOR); }
        "+="  { return lx_word(lx, tok, TK_PLUSEQ, s, YYCURSOR); }
        "-="  { return lx_word(lx, tok, TK_MINUSEQ, s, YYCURSOR); }
        "*="  { return lx_word(lx, tok, TK_STAREQ, s, YYCURSOR); }
        ","   { return lx_word(lx, tok, TK_COMMA, s, YYCURSOR); }
        ":"   { return lx_word(lx, tok, TK_COLON, s, YYCURSOR); }
        "."   { return lx_word(lx, tok, TK_DOT, s, YYCURSOR); }
        "@"   { return lx_word(lx, tok, TK_AT, s, YYCURSOR); }
        "->"  { return lx_word(lx, tok, TK_ARROW, s, YYCURSOR); }

        [\x80-\xff]+ { return lx_bad_char(lx, s, YYCURSOR); }
        *            { return lx_bad_char(lx, s, YYCURSOR); }
    */
}

int lx_next(lx_lexer *lx, lx_token *tok)
{
    for (;;) {
        if (lx->fatal)
            return lx_emit(lx, tok, 0, lx_loc_at(lx, lx->cur));
        if (lx->pending_dedents > 0) {
            lx->pending_dedents--;
            return lx_emit(lx, tok, TK_DEDENT, lx->pending_loc);
        }
        int kind = LX_SKIP;
        if (lx->at_bol && lx->nopen == 0)
            kind = lx_indentation(lx, tok);
        if (kind == LX_SKIP)
            kind = lx_scan(lx, tok);
        if (kind != LX_SKIP)
            return kind;
    }
}

const char *lx_kind_desc(int kind)
{
    switch (kind) {
    case 0: return "end of file";
    case TK_NEWLINE: return "end of line";
    case TK_INDENT: return "indent";
    case TK_DEDENT: return "end of block";
    case TK_NAME: return "name";
    case TK_INT: return "integer";
    case TK_FLOAT: return "number";
    case TK_STRING: return "string";
    case TK_EXPORT: return "'export'";
    case TK_FUNC: return "'func'";
    case TK_CONST: return "'const'";
    case TK_VAR: return "'var'";
    case TK_FOR: return "'for'";
    case TK_IN: return "'in'";
    case TK_IF: return "'if'";
    case TK_ELIF: return "'elif'";
    case TK_ELSE: return "'else'";
    case TK_ASSERT: return "'assert'";
    case TK_RETURN: return "'return'";
    case TK_PASS: return "'pass'";
    case TK_SCHEDULE: return "'schedule'";
    case TK_GRAD: return "'grad'";
    case TK_WRT: return "'wrt'";
    case TK_AND: return "'and'";
    case TK_OR: return "'or'";
    case TK_NOT: return "'not'";
    case TK_TRUE: return "'True'";
    case TK_FALSE: return "'False'";
    case TK_NONE: return "'None'";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACKET: return "'['";
    case TK_RBRACKET: return "']'";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_DSLASH: return "'//'";
    case TK_PERCENT: return "'%'";
    case TK_POW: return "'**'";
    case TK_EQ: return "'=='";
    case TK_NE: return "'!='";
    case TK_LT: return "'<'";
    case TK_LE: return "'<='";
    case TK_GT: return "'>'";
    case TK_GE: return "'>='";
    case TK_ASSIGN: return "'='";
    case TK_PLUSEQ: return "'+='";
    case TK_MINUSEQ: return "'-='";
    case TK_STAREQ: return "'*='";
    case TK_COMMA: return "','";
    case TK_COLON: return "':'";
    case TK_DOT: return "'.'";
    case TK_AT: return "'@'";
    case TK_ARROW: return "'->'";
    default: return "token";
    }
}
