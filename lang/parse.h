/* parse.h - internals of lang/ shared by lexer.re, parser.y, parse.c and the
 * unit tests: the lexer (lx_) and the parser's state (pt_pstate).
 *
 * Token codes are the TK_* macros of the Lemon-generated "parser.h".
 * Everything a token or the parser allocates lives in the ctx arena; the only
 * heap object is Lemon's parser, which parse.c always frees.
 */
#ifndef FT_LANG_PARSE_H
#define FT_LANG_PARSE_H

#include "pt.h"

/* Limits that keep hostile input from exhausting the parser or the stacks of
 * the recursive passes after it.  Going past one is a located error. */
#define LX_MAX_BRACKETS 200    /* open ( and [ at once */
#define LX_MAX_INDENTS 100     /* nested indentation levels */

/* One token.  kind is a TK_* code, or 0 at the end of input. */
typedef struct lx_token {
    int kind;
    ft_loc loc;
    const char *text;   /* NAME, keyword: its spelling; STRING: contents with
                           escapes resolved; arena-owned */
    int64_t ival;       /* INT */
    double fval;        /* FLOAT (inf included) */
    int seq;            /* position in the token stream, from 0 */
} lx_token;

/* An open bracket, remembered for "'(' was never closed". */
typedef struct lx_open {
    char ch;
    ft_loc loc;
} lx_open;

/* The lexer's state; plain data, nothing to free. */
typedef struct lx_lexer {
    ft_ctx *ctx;
    const ft_source *src;
    const char *cur, *lim;      /* scan position and end of text */
    const char *line_start;     /* first byte of the current line */
    int line;
    int at_bol;                 /* next scan starts a logical line */
    int line_has_tokens;        /* a NEWLINE is owed at the end of the line */
    int pending_dedents;        /* DEDENTs still to hand out */
    ft_loc pending_loc;         /* where those DEDENTs are */
    int nindents;               /* indent[0] is always 0 */
    int indent[LX_MAX_INDENTS + 1];
    int nopen;
    lx_open open[LX_MAX_BRACKETS];
    int fatal;                  /* gave up (too deep, unclosed bracket): 0 from now */
    int seq;                    /* tokens handed out so far */
    int err_line;               /* line of the last lexical error, 0 if none */
} lx_lexer;

/* Start lexing src (NUL-terminated; may contain NUL bytes before src->len). */
void lx_init(lx_lexer *lx, ft_ctx *ctx, const ft_source *src);
/* Fill *tok with the next token and return its kind (0 at the end).  Errors
 * are reported through ctx and lexing goes on where it can. */
int lx_next(lx_lexer *lx, lx_token *tok);
/* How a token kind reads in a message: "')'", "end of line", "name". */
const char *lx_kind_desc(int kind);

/* What the grammar actions and %syntax_error see (Lemon's %extra_argument). */
typedef struct pt_pstate {
    ft_ctx *ctx;
    pt_node *result;    /* the PT_FILE, set when the parser accepts */
    ft_loc cur_loc;     /* location of the token being fed */
    int err_nl_seq;     /* seq of the NEWLINE that ended the last bad line */
    int lex_err_line;   /* line of the lexer's last error: no syntax errors there */
    int fatal;          /* parser stack overflow: stop feeding tokens */
} pt_pstate;

/* The Lemon parser (%name ftParser). */
void *ftParserAlloc(void *(*malloc_fn)(size_t));
void ftParser(void *parser, int kind, lx_token tok, pt_pstate *ps);
void ftParserFree(void *parser, void (*free_fn)(void *));
void ftParserTrace(FILE *out, char *prefix);    /* unless NDEBUG */

#endif
