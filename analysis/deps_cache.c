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
 * loop is parallel, then the primitive it calls asks again.  So are those
 * of parts of sequences (an_items_deps): auto_fuse looks at two loops
 * before xf_fuse checks them, on the same version.
 */
#include "deps.h"
#include "memo.h"

#include <stdlib.h>
#include <string.h>

#include "../ast/visit.h"

/* The dependences a loop carries (an_loop_deps; lo = hi = -2), or those
 * among items lo..hi of a sequence (an_items_deps; lo = -1: all of them),
 * one reference held. */
typedef struct loop_entry {
    const ast_stmt *loop;
    int lo, hi;
    an_deps *deps;
} loop_entry;

/* The cached results for one version of one function. */
typedef struct an_deps_cache {
    const ast_func *f;       /* the function (NULL: empty) */
    char *key;               /* owned (malloc): the version's fingerprint */
    size_t len;
    an_deps *deps;           /* its an_func_deps, or NULL; one reference */
    int nloops, cap;
    loop_entry *loops;       /* owned (malloc): its an_loop_deps and
                                an_items_deps so far */
    an_memo *memo;           /* owned: the access walk's isl results
                                (memo.h), kept across versions */
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

/* Drop the cached results of the version held, if any (not the memo:
 * its keys hold everything its results depend on). */
static void cache_clear(an_deps_cache *c)
{
    an_deps_free(c->deps);
    for (int i = 0; i < c->nloops; i++)
        an_deps_free(c->loops[i].deps);
    free(c->loops);
    free(c->key);
    *c = (an_deps_cache){.memo = c->memo};
}

void an_deps_cache_begin(ft_ctx *ctx)
{
    if (ctx->deps_cache)
        return;
    ctx->deps_cache = calloc(1, sizeof(an_deps_cache));
    if (ctx->deps_cache)
        ctx->deps_cache->memo = an_memo_new();
}

void an_deps_cache_end(ft_ctx *ctx)
{
    if (!ctx->deps_cache)
        return;
    cache_clear(ctx->deps_cache);
    an_memo_free(ctx->deps_cache->memo);
    free(ctx->deps_cache);
    ctx->deps_cache = NULL;
}

an_memo *an_deps_cache_memo(ft_ctx *ctx)
{
    return ctx->deps_cache ? ctx->deps_cache->memo : NULL;
}

/* Whether the cache holds results of f's version key. */
static int same_version(const an_deps_cache *c, const ast_func *f, const char *key, size_t len)
{
    return key && c->f == f && c->key && c->len == len && memcmp(c->key, key, len) == 0;
}

/* The cached result for (f, loop, lo, hi) in c (loop NULL: the whole
 * function; lo = hi = -2: the loop's an_loop_deps). */
static an_deps *cached(const an_deps_cache *c, const ast_stmt *loop, int lo, int hi)
{
    if (!loop)
        return c->deps;
    for (int i = 0; i < c->nloops; i++)
        if (c->loops[i].loop == loop && c->loops[i].lo == lo && c->loops[i].hi == hi)
            return c->loops[i].deps;
    return NULL;
}

/* The cached result for (loop, lo, hi) of f's current version (a new
 * reference), or NULL with *key set as for an_deps_cache_find_loop. */
static an_deps *find_entry(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, int lo,
                           int hi, char **key, size_t *len)
{
    an_deps_cache *c = ctx->deps_cache;
    *key = NULL;
    if (!c)
        return NULL;
    *key = version_key(f, len);
    an_deps *d = same_version(c, f, *key, *len) ? cached(c, loop, lo, hi) : NULL;
    if (!d)
        return NULL;
    free(*key);
    *key = NULL;
    d->shared++;
    return d;
}

an_deps *an_deps_cache_find_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop,
                                 char **key, size_t *len)
{
    return find_entry(ctx, f, loop, -2, -2, key, len);
}

an_deps *an_deps_cache_find_items(ft_ctx *ctx, const ast_func *f, const ast_stmt *seq,
                                  int lo, int hi, char **key, size_t *len)
{
    return find_entry(ctx, f, seq, lo < 0 ? -1 : lo, lo < 0 ? -1 : hi, key, len);
}

an_deps *an_deps_cache_find(ft_ctx *ctx, const ast_func *f, char **key, size_t *len)
{
    return an_deps_cache_find_loop(ctx, f, NULL, key, len);
}

/* Add d (one more reference) as the entry of (loop, lo, hi); 0 when out
 * of memory. */
static int add_loop(an_deps_cache *c, const ast_stmt *loop, int lo, int hi, an_deps *d)
{
    if (c->nloops == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        loop_entry *l = realloc(c->loops, sizeof *l * (size_t)cap);
        if (!l)
            return 0;
        c->loops = l;
        c->cap = cap;
    }
    c->loops[c->nloops++] = (loop_entry){loop, lo, hi, d};
    d->shared++;
    return 1;
}

/* Remember d for (loop, lo, hi) of f's version key (taken). */
static void store_entry(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, int lo, int hi,
                        an_deps *d, char *key, size_t len)
{
    an_deps_cache *c = ctx->deps_cache;
    if (!c || !d || !key || (same_version(c, f, key, len) && cached(c, loop, lo, hi))) {
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
        add_loop(c, loop, lo, hi, d);
    }
}

void an_deps_cache_store_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, an_deps *d,
                              char *key, size_t len)
{
    store_entry(ctx, f, loop, -2, -2, d, key, len);
}

void an_deps_cache_store_items(ft_ctx *ctx, const ast_func *f, const ast_stmt *seq, int lo,
                               int hi, an_deps *d, char *key, size_t len)
{
    store_entry(ctx, f, seq, lo < 0 ? -1 : lo, lo < 0 ? -1 : hi, d, key, len);
}

void an_deps_cache_store(ft_ctx *ctx, const ast_func *f, an_deps *d, char *key, size_t len)
{
    an_deps_cache_store_loop(ctx, f, NULL, d, key, len);
}
