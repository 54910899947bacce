/* parse.c - ft_parse: run the lexer and feed the Lemon parser.
 *
 * Requires: a source whose text is NUL-terminated.  Provides: the PT_FILE
 * parse tree (lang/pt.h), or NULL after reporting every error it found.
 * The parser object is the only heap allocation and is freed on all paths.
 */
#include <stdlib.h>

#include "parse.h"

pt_node *ft_parse(ft_ctx *ctx, const ft_source *src)
{
    int errors_before = ctx->nerrors;
    void *parser = ftParserAlloc(malloc);
#ifdef PT_TRACE     /* -DPT_TRACE: Lemon's trace of shifts and reductions */
    ftParserTrace(stderr, "  ");
#endif
    if (!parser) {
        ft_loc loc = { src, 1, 1, NULL };
        ft_error(ctx, loc, "out of memory starting the parser");
        return NULL;
    }
    lx_lexer lx;
    pt_pstate ps = { .ctx = ctx, .err_nl_seq = -2 };
    lx_init(&lx, ctx, src);
    lx_token tok;
    do {
        lx_next(&lx, &tok);
        if (lx.fatal)
            break;          /* already reported; the rest cannot parse */
        ps.cur_loc = tok.loc;
        ps.lex_err_line = lx.err_line;
        ftParser(parser, tok.kind, tok, &ps);
    } while (tok.kind != 0 && !ps.fatal);
    ftParserFree(parser, free);
    if (ctx->nerrors != errors_before || !ps.result)
        return NULL;
    return ps.result;
}
