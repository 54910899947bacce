/* fz.c - the compile-and-check step of the compiler harnesses (fz.h). */
#include "fz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/ctx.h"
#include "backend/cg.h"
#include "frontend/driver.h"

/* The input as a source file, bytes as given (NULs included), as
 * ft_source_read would hold the same file. */
static ft_source *fz_source(ft_ctx *ctx, const char *name, const uint8_t *data, size_t size)
{
    ft_source *src = ft_alloc(ctx, sizeof *src);
    src->path = ft_strdup(ctx, name);
    src->text = ft_alloc(ctx, size + 1);
    if (size)
        memcpy(src->text, data, size);
    src->len = size;
    return src;
}

/* Stop the run with a finding: say which rule broke, show the input's
 * diagnostics, abort (libFuzzer keeps the input as a crash). */
static void fz_finding(const char *why, const char *diags)
{
    fprintf(stderr, "fz: FINDING: %s\n--- diagnostics ---\n%s--- end ---\n", why,
            diags ? diags : "");
    abort();
}

/* Whether line (one diagnostic line, up to eol) starts "PATH:LINE:COL:
 * error: " with a non-empty PATH and numbers LINE (not 0) and COL. */
static int fz_located(const char *line, const char *eol)
{
    /* the kind ": error: " is preceded by ":LINE:COL" */
    const char *k = strstr(line, ": error: ");
    if (!k || k > eol)
        return 0;
    const char *p = k;
    int colons = 0, digits = 0;
    while (p > line && colons < 2) {
        p--;
        if (*p == ':') {
            if (!digits)
                return 0;
            colons++, digits = 0;
        } else if (*p >= '0' && *p <= '9')
            digits++;
        else
            return 0;
    }
    return colons == 2 && p > line && (p[1] != '0' || p[2] != ':');
}

/* Check every diagnostic line of text: an error names a location (the
 * source lines and carets quoted under a diagnostic aside) and none is an
 * internal error.  Aborts with a finding otherwise. */
static void fz_check_diags(const char *text)
{
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        int quoted = !strncmp(line, "    ", 4);     /* a source line or its caret */
        const char *e = strstr(line, "error:");
        if (!quoted && e && e < eol && !fz_located(line, eol))
            fz_finding("an error without FILE:LINE:COL", text);
        if (!quoted && e && e < eol && !strncmp(e, "error: internal error", 21))
            fz_finding("an internal error", text);
        line = *eol ? eol + 1 : eol;
    }
}

int fz_compile(const char *name, const uint8_t *data, size_t size, int verify_passes)
{
    char *diags = NULL, *c_text = NULL;
    size_t dlen = 0, clen = 0;
    FILE *dout = open_memstream(&diags, &dlen), *cout = open_memstream(&c_text, &clen);
    if (!dout || !cout)
        abort();
    ft_ctx *ctx = ft_ctx_new();
    ctx->diag_out = dout;
    ctx->opts.verify = verify_passes ? FT_VERIFY_PASSES : FT_VERIFY_FINAL;
    ft_source *src = fz_source(ctx, name, data, size);
    ast_program *p = ft_compile(ctx, src, NULL, NULL);
    int wrote = p && !ctx->nerrors && !cg_emit_c(ctx, p, cout);
    int nerrors = ctx->nerrors;
    ft_ctx_free(ctx);
    fclose(dout);
    fclose(cout);
    fz_check_diags(diags);
    if (!wrote && !nerrors)
        fz_finding("no C and no error", diags);
    if (wrote && clen == 0)
        fz_finding("an empty C file", diags);
    free(diags);
    free(c_text);
    return wrote;
}
