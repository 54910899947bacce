/* ctx.c - compilation context: the arena, sources and diagnostics. */
#include "ctx.h"
#include "target.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/options.h>

/* The arena is a list of chunks; allocation bumps a pointer in the newest
 * one.  Large requests get a chunk of their own. */
typedef struct ft_chunk {
    struct ft_chunk *next;
    size_t used, size;
    max_align_t data[];
} ft_chunk;

struct ft_arena {
    ft_chunk *head;
};

enum { FT_CHUNK_SIZE = 64 * 1024 };

/* Die on out-of-memory: the compiler cannot continue and there is nothing
 * sensible to recover; this is the only place ftc exits on its own. */
static void *ft_xmalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fputs("ftc: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Create a context whose diagnostics go to stderr. */
ft_ctx *ft_ctx_new(void)
{
    ft_ctx *ctx = ft_xmalloc(sizeof *ctx);
    ctx->arena = ft_xmalloc(sizeof *ctx->arena);
    ctx->diag_out = stderr;
    ctx->max_errors = 50;
    ctx->next_stmt_id = 1;
    ctx->deps_budget = -1;
    ctx->target = &ft_target_c;
    ctx->opts.budget = (ft_budget){.stmts = FT_BUDGET_STMTS, .inline_calls = FT_BUDGET_INLINE,
                                   .loop_depth = FT_BUDGET_LOOP_DEPTH,
                                   .expr_size = FT_BUDGET_EXPR_SIZE,
                                   .locals = FT_BUDGET_LOCALS,
                                   .dep_pairs = FT_BUDGET_DEP_PAIRS,
                                   .cleanup_work = FT_BUDGET_CLEANUP_WORK,
                                   .fuse_work = FT_BUDGET_FUSE_WORK};
#ifndef NDEBUG
    ctx->opts.verify = FT_VERIFY_FINAL;     /* built with assertions: check */
#endif
    return ctx;
}

/* Free the context and all arena memory. */
void ft_ctx_free(ft_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->isl)
        isl_ctx_free(ctx->isl);
    ft_chunk *c = ctx->arena->head;
    while (c) {
        ft_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(ctx->arena);
    free(ctx);
}

/* The isl context, made on first use; isl errors are recorded in it. */
isl_ctx *ft_isl(ft_ctx *ctx)
{
    if (!ctx->isl) {
        ctx->isl = isl_ctx_alloc();
        isl_options_set_on_error(ctx->isl, ISL_ON_ERROR_CONTINUE);
    }
    return ctx->isl;
}

/* Allocate zeroed arena memory, aligned for any type. */
void *ft_alloc(ft_ctx *ctx, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    ft_chunk *c = ctx->arena->head;
    if (!c || c->size - c->used < size) {
        size_t cap = size > FT_CHUNK_SIZE / 4 ? size : FT_CHUNK_SIZE;
        ft_chunk *n = ft_xmalloc(sizeof *n + cap);
        n->size = cap;
        if (cap == size && c) {
            /* keep bumping in the current chunk; slot the big one behind */
            n->used = cap;
            n->next = c->next;
            c->next = n;
            return n->data;
        }
        n->next = c;
        ctx->arena->head = c = n;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    return p;
}

/* Copy n bytes of s into the arena as a NUL-terminated string. */
char *ft_strndup(ft_ctx *ctx, const char *s, size_t n)
{
    char *p = ft_alloc(ctx, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *ft_strdup(ft_ctx *ctx, const char *s)
{
    return ft_strndup(ctx, s, strlen(s));
}

/* vprintf into the arena. */
static char *ft_vfmt(ft_ctx *ctx, const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0)
        n = 0;
    char *p = ft_alloc(ctx, (size_t)n + 1);
    if ((size_t)n < sizeof small)
        memcpy(p, small, (size_t)n + 1);
    else
        vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

/* printf into the arena. */
char *ft_fmt(ft_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = ft_vfmt(ctx, fmt, ap);
    va_end(ap);
    return p;
}

/* An arena-owned source holding path and the len bytes of text, its line
 * ends made "\n": "\r\n" (Windows) and a lone "\r" (old Mac OS) are one line
 * break each, so that the lexer, the caret printer and the run-time sites
 * (cg_sites.c), which all count "\n", agree on every line number. */
static ft_source *ft_source_make(ft_ctx *ctx, const char *path, const char *text, size_t len)
{
    char *t = ft_alloc(ctx, len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\r')
            t[n++] = text[i];
        else if (i + 1 == len || text[i + 1] != '\n')
            t[n++] = '\n';
    }
    t[n] = '\0';
    ft_source *src = ft_alloc(ctx, sizeof *src);
    src->path = ft_strdup(ctx, path);
    src->text = t;
    src->len = n;
    return src;
}

/* Read a whole file; NUL bytes inside are kept (the lexer reports them). */
ft_source *ft_source_read(ft_ctx *ctx, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(ctx->diag_out, "%s: error: cannot open: %s\n", path, strerror(errno));
        ctx->nerrors++;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(ctx->diag_out, "%s: error: cannot read the file\n", path);
        ctx->nerrors++;
        return NULL;
    }
    ft_source *src = ft_source_make(ctx, path, buf, len);
    free(buf);
    return src;
}

ft_source *ft_source_from_string(ft_ctx *ctx, const char *path, const char *text)
{
    return ft_source_make(ctx, path, text, strlen(text));
}

/* Bytes of a source line shown on each side of the caret: a longer line
 * (generated code) is cut around the column, the cuts marked "...". */
enum { CARET_SPAN = 120 };

/* Print the source line of loc and a caret under its column.  Columns count
 * bytes; the caret line copies tabs so it lines up in a terminal.  The
 * caret line is built in memory and written at once (a column of a million
 * took a million putc calls). */
static void ft_print_caret(FILE *out, ft_loc loc)
{
    if (!loc.src || loc.line <= 0)
        return;
    const char *p = loc.src->text, *end = p + loc.src->len;
    for (int line = 1; line < loc.line && p < end; p++)
        if (*p == '\n')
            line++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        eol = end;
    const char *at = loc.col > 1 && (size_t)(loc.col - 1) < (size_t)(eol - p) ? p + loc.col - 1
                   : loc.col > 1 ? eol : p;
    const char *from = at - p > CARET_SPAN ? at - CARET_SPAN : p;
    const char *to = eol - at > CARET_SPAN ? at + CARET_SPAN : eol;
    const char *pre = from > p ? "..." : "", *post = to < eol ? "..." : "";
    char pad[CARET_SPAN + 8];
    size_t n = 0;
    for (const char *q = pre; *q; q++)
        pad[n++] = ' ';
    for (const char *q = from; q < at; q++)
        pad[n++] = *q == '\t' ? '\t' : ' ';
    fprintf(out, "    %s%.*s%s\n    %.*s^\n", pre, (int)(to - from), from, post, (int)n, pad);
}

/* Print one diagnostic with its location header and caret. */
static void ft_vdiag(ft_ctx *ctx, ft_loc loc, const char *kind, const char *fmt,
                     va_list ap)
{
    FILE *out = ctx->diag_out;
    if (loc.src)
        fprintf(out, "%s:%d:%d: %s: ", loc.src->path, loc.line, loc.col, kind);
    else
        fprintf(out, "ftc: %s: ", kind);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    ft_print_caret(out, loc);
}

void ft_error(ft_ctx *ctx, ft_loc loc, const char *fmt, ...)
{
    ctx->nerrors++;
    va_list ap;
    if (ctx->refusal && !*ctx->refusal) {
        va_start(ap, fmt);
        char *msg = ft_vfmt(ctx, fmt, ap);
        va_end(ap);
        *ctx->refusal = ft_strndup(ctx, msg, strcspn(msg, "\n"));
    }
    if (ctx->nerrors > ctx->max_errors)
        return;
    va_start(ap, fmt);
    ft_vdiag(ctx, loc, "error", fmt, ap);
    va_end(ap);
    if (ctx->nerrors == ctx->max_errors)
        fprintf(ctx->diag_out, "ftc: too many errors; stopping here\n");
}

void ft_note(ft_ctx *ctx, ft_loc loc, const char *fmt, ...)
{
    if (ctx->nerrors > ctx->max_errors)
        return;
    va_list ap;
    va_start(ap, fmt);
    ft_vdiag(ctx, loc, "note", fmt, ap);
    va_end(ap);
}

void ft_unsupported(ft_ctx *ctx, ft_loc loc, const char *what)
{
    ft_error(ctx, loc, "%s is not supported yet", what);
}

/* Append to a growable arena array (old storage stays in the arena). */
void ft_vec_push(ft_ctx *ctx, ft_vec *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = ft_alloc(ctx, sizeof(void *) * (size_t)cap);
        if (v->len)
            memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}

int ft_vec_has(const ft_vec *v, const void *p)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == p)
            return 1;
    return 0;
}
