/* deps_cache.c - reuse of an_func_deps and an_loop_deps results while a
 * function is unchanged.
 *
 * The auto-scheduler asks many questions of one version of a function (is
 * this loop parallel, may that one be vectorized), and every primitive it
 * tries computes the function's dependences again; each computation maps
 * every dependence with isl (0.05-0.2 s on the bench programs).  Between
 * an_deps_cache_begin and an_deps_cache_end, an_func_deps keeps the last
 * result per function and hands it out again (shared, see an_deps.shared)
 * as long as the function is the same: same printed body and the same
 * statement and expression nodes (the dependences point at AST nodes, so a
 * clone of the body, even printed alike, is a new version).  The
 * dependences of its loops (an_loop_deps) are kept alongside, one entry
 * per loop asked about, until the version changes: a pass asks whether a
 * loop is parallel, then the primitive it calls asks again.
 */
#include "deps.h"

#include <stdlib.h>
#include <string.h>

#include "../ast/visit.h"

/* The dependences a loop carries (an_loop_deps), one reference held. */
typedef struct loop_entry {
    const ast_stmt *loop;
    an_deps *deps;
} loop_entry;

/* The cached results for one version of one function. */
typedef struct an_deps_cache {
    const ast_func *f;       /* the function (NULL: empty) */
    char *key;               /* owned (malloc): the version's fingerprint */
    size_t len;
    an_deps *deps;           /* its an_func_deps, or NULL; one reference */
    int nloops, cap;
    loop_entry *loops;       /* owned (malloc): its an_loop_deps so far */
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

/* Drop the cached results, if any. */
static void cache_clear(an_deps_cache *c)
{
    an_deps_free(c->deps);
    for (int i = 0; i < c->nloops; i++)
        an_deps_free(c->loops[i].deps);
    free(c->loops);
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

/* Whether the cache holds results of f's version key. */
static int same_version(const an_deps_cache *c, const ast_func *f, const char *key, size_t len)
{
    return key && c->f == f && c->key && c->len == len && memcmp(c->key, key, len) == 0;
}

/* The cached result for (f, loop) in c (loop NULL: the whole function). */
static an_deps *cached(const an_deps_cache *c, const ast_stmt *loop)
{
    if (!loop)
        return c->deps;
    for (int i = 0; i < c->nloops; i++)
        if (c->loops[i].loop == loop)
            return c->loops[i].deps;
    return NULL;
}

an_deps *an_deps_cache_find_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop,
                                 char **key, size_t *len)
{
    an_deps_cache *c = ctx->deps_cache;
    *key = NULL;
    if (!c)
        return NULL;
    *key = version_key(f, len);
    an_deps *d = same_version(c, f, *key, *len) ? cached(c, loop) : NULL;
    if (!d)
        return NULL;
    free(*key);
    *key = NULL;
    d->shared++;
    return d;
}

an_deps *an_deps_cache_find(ft_ctx *ctx, const ast_func *f, char **key, size_t *len)
{
    return an_deps_cache_find_loop(ctx, f, NULL, key, len);
}

/* Add d (one more reference) as loop's entry; 0 when out of memory. */
static int add_loop(an_deps_cache *c, const ast_stmt *loop, an_deps *d)
{
    if (c->nloops == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        loop_entry *l = realloc(c->loops, sizeof *l * (size_t)cap);
        if (!l)
            return 0;
        c->loops = l;
        c->cap = cap;
    }
    c->loops[c->nloops++] = (loop_entry){loop, d};
    d->shared++;
    return 1;
}

void an_deps_cache_store_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, an_deps *d,
                              char *key, size_t len)
{
    an_deps_cache *c = ctx->deps_cache;
    if (!c || !d || !key || (same_version(c, f, key, len) && cached(c, loop))) {
        free(key);
        return;
    }
    if (same_version(c, f, key, len)) {
        free(key);             /* another result for the version held */
    } else {
        cache_clear(c);
        c->f = f;
        c->key = key;
        c->len = len;
    }
    if (!loop) {
        c->deps = d;
        d->shared++;
    } else {
        add_loop(c, loop, d);
    }
}

void an_deps_cache_store(ft_ctx *ctx, const ast_func *f, an_deps *d, char *key, size_t len)
{
    an_deps_cache_store_loop(ctx, f, NULL, d, key, len);
}
