/* memo.c - the memo of the access walk's isl results (memo.h): keys and
 * an open-addressing hash table from keys to sets and maps.
 */
#include "memo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- keys */

/* Append n bytes to k (nothing more once out of memory: the key is then
 * marked unusable by a NULL buffer). */
static void key_bytes(an_key *k, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 256;
        while (cap < k->len + n)
            cap *= 2;
        char *b = realloc(k->buf, cap);
        if (!b) {
            free(k->buf);
            *k = (an_key){0};
            k->cap = (size_t)-1;   /* unusable */
            return;
        }
        k->buf = b;
        k->cap = cap;
    }
    if (k->buf) {
        memcpy(k->buf + k->len, p, n);
        k->len += n;
    }
}

void an_key_str(an_key *k, const char *s)
{
    key_bytes(k, s, strlen(s) + 1);   /* with its NUL: "ab","c" != "a","bc" */
}

void an_key_cat(an_key *k, const an_key *src)
{
    if (!src->buf && src->cap) {      /* unusable: so is k */
        an_key_free(k);
        k->cap = (size_t)-1;
        return;
    }
    key_bytes(k, src->buf, src->len);
}

void an_key_int(an_key *k, long long v)
{
    key_bytes(k, &v, sizeof v);
}

void an_key_expr(an_key *k, const ast_expr *e)
{
    if (!e) {
        an_key_int(k, -1);
        return;
    }
    an_key_int(k, e->kind);
    an_key_int(k, e->dtype);
    switch (e->kind) {
    case AST_INT:
    case AST_BOOLC: an_key_int(k, (long long)e->u.ival); return;
    case AST_FLOAT: key_bytes(k, &e->u.fval, sizeof e->u.fval); return;
    case AST_VAR: an_key_str(k, e->u.name); return;
    case AST_CAST: an_key_expr(k, e->u.cast.a); return;
    case AST_UNARY:
        an_key_int(k, e->u.un.op);
        an_key_expr(k, e->u.un.a);
        return;
    case AST_BINARY:
        an_key_int(k, e->u.bin.op);
        an_key_expr(k, e->u.bin.a);
        an_key_expr(k, e->u.bin.b);
        return;
    default:
        /* a Load, a call, an if-expression: never affine; what the walk
         * makes of it (nothing: a free dimension, a universe condition)
         * does not depend on its content */
        return;
    }
}

void an_key_free(an_key *k)
{
    free(k->buf);
    *k = (an_key){0};
}

/* ------------------------------------------------------------ table */

typedef struct slot {
    char *key;               /* owned, NULL: empty */
    size_t len;
    uint64_t hash;
    an_memo_val val;
} slot;

struct an_memo {
    size_t n, cap;           /* used slots, slots (a power of two) */
    slot *slots;
};

/* FNV-1a of the key's bytes. */
static uint64_t key_hash(const an_key *k)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->buf[i]) * 1099511628211ull;
    return h;
}

an_memo *an_memo_new(void)
{
    return calloc(1, sizeof(an_memo));
}

/* Free the objects of v. */
static void val_free(an_memo_val v)
{
    isl_set_free(v.set);
    isl_map_free(v.map);
}

void an_memo_free(an_memo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) {
            free(m->slots[i].key);
            val_free(m->slots[i].val);
        }
    free(m->slots);
    free(m);
}

/* The slot of key (hash h) in m, or the empty slot where it would go. */
static slot *find_slot(const an_memo *m, const an_key *k, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->len == k->len && memcmp(s->key, k->buf, k->len) == 0))
            return s;
    }
}

const an_memo_val *an_memo_get(const an_memo *m, const an_key *k)
{
    if (!m || !m->cap || !k->buf)
        return NULL;
    slot *s = find_slot(m, k, key_hash(k));
    return s->key ? &s->val : NULL;
}

/* Double the table (rehashing); 0 when out of memory. */
static int grow(an_memo *m)
{
    size_t cap = m->cap ? 2 * m->cap : 1024;
    slot *old = m->slots;
    size_t oldcap = m->cap;
    m->slots = calloc(cap, sizeof(slot));
    if (!m->slots) {
        m->slots = old;
        return 0;
    }
    m->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key) {
            an_key k = {old[i].key, old[i].len, old[i].len};
            *find_slot(m, &k, old[i].hash) = old[i];
        }
    free(old);
    return 1;
}

void an_memo_put(an_memo *m, const an_key *k, an_memo_val v)
{
    if (!m || !k->buf || (2 * (m->n + 1) > m->cap && !grow(m))) {
        val_free(v);
        return;
    }
    uint64_t h = key_hash(k);
    slot *s = find_slot(m, k, h);
    if (s->key) {              /* remembered already */
        val_free(v);
        return;
    }
    char *copy = malloc(k->len ? k->len : 1);
    if (!copy) {
        val_free(v);
        return;
    }
    memcpy(copy, k->buf, k->len);
    *s = (slot){copy, k->len, h, v};
    m->n++;
}
