/* deps_cache.c - reuse of an_func_deps results while a function is
 * unchanged.
 *
 * The auto-scheduler asks many questions of one version of a function (is
 * this loop parallel, may that one be vectorized), and every primitive it
 * tries computes the function's dependences again; each computation maps
 * every dependence with isl (0.05-0.2 s on the bench programs).  Between
 * an_deps_cache_begin and an_deps_cache_end, an_func_deps keeps the last
 * result per function and hands it out again (shared, see an_deps.shared)
 * as long as the function is the same: same printed body and the same
 * statement and expression nodes (the dependences point at AST nodes, so a
 * clone of the body, even printed alike, is a new version).
 */
#include "deps.h"

#include <stdlib.h>
#include <string.h>

#include "../ast/visit.h"

/* One cached result. */
typedef struct an_deps_cache {
    const ast_func *f;       /* the function of deps (NULL: empty) */
    char *key;               /* owned (malloc): the version's fingerprint */
    size_t len;
    an_deps *deps;           /* one reference held by the cache */
} an_deps_cache;

/* Writes the address of every node the walk meets. */
typedef struct key_walk {
    ast_visitor v;
    FILE *out;
} key_walk;

static int key_stmt(ast_visitor *v, ast_stmt *s)
{
    fprintf(((key_walk *)v)->out, "s%p;", (void *)s);
    return 1;
}

static void key_expr(ast_visitor *v, ast_expr *e)
{
    fprintf(((key_walk *)v)->out, "e%p;", (void *)e);
}

/* The fingerprint of f's current version (malloc'd, *len bytes), or NULL. */
static char *version_key(const ast_func *f, size_t *len)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    if (!out)
        return NULL;
    ast_print_stmt(out, f->body, 0);
    key_walk w = {.v.stmt = key_stmt, .v.expr = key_expr, .out = out};
    ast_visit(f->body, &w.v);
    fclose(out);
    return buf;
}

/* Drop the cached result, if any. */
static void cache_clear(an_deps_cache *c)
{
    an_deps_free(c->deps);
    free(c->key);
    *c = (an_deps_cache){0};
}

void an_deps_cache_begin(ft_ctx *ctx)
{
    if (!ctx->deps_cache)
        ctx->deps_cache = calloc(1, sizeof(an_deps_cache));
}

void an_deps_cache_end(ft_ctx *ctx)
{
    if (!ctx->deps_cache)
        return;
    cache_clear(ctx->deps_cache);
    free(ctx->deps_cache);
    ctx->deps_cache = NULL;
}

an_deps *an_deps_cache_find(ft_ctx *ctx, const ast_func *f, char **key, size_t *len)
{
    an_deps_cache *c = ctx->deps_cache;
    *key = NULL;
    if (!c)
        return NULL;
    *key = version_key(f, len);
    if (!*key || c->f != f || !c->deps || c->len != *len || memcmp(c->key, *key, *len) != 0)
        return NULL;
    free(*key);
    *key = NULL;
    c->deps->shared++;
    return c->deps;
}

void an_deps_cache_store(ft_ctx *ctx, const ast_func *f, an_deps *d, char *key, size_t len)
{
    an_deps_cache *c = ctx->deps_cache;
    if (!c || !d || !key) {
        free(key);
        return;
    }
    cache_clear(c);
    *c = (an_deps_cache){f, key, len, d};
    d->shared++;
}
