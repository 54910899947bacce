/* memo.h - reuse of the isl sets and maps that the access walk builds
 * (analysis/access.c), across the walks of one auto-scheduler run.
 *
 * The auto-scheduler asks for the dependences of one loop or of a few
 * items of a sequence hundreds of times (analysis/deps_loop.c), and each
 * question walks those statements again: the domain of each loop nest,
 * the schedule of each statement and the relation of each access are
 * built with isl anew, although most of them are the same as in the last
 * walk (a fusion changes two loops, not the statements around them).
 * These are pure functions of what the walk reads from the AST: the memo
 * keys each result by a serialization of exactly those inputs (the
 * function's sizes, the loops' iterators and bounds, the conditions, the
 * statement's name and position numbers, the tensor's name, scope and
 * shape, the index expressions: every node's kind, dtype, operator and
 * value), so a hit returns what a fresh computation would give, whatever
 * AST node it comes from.
 *
 * The memo lives in the dependence cache (deps_cache.c), between
 * an_deps_cache_begin and an_deps_cache_end; without one, nothing is
 * remembered.
 */
#ifndef FT_AN_MEMO_H
#define FT_AN_MEMO_H

#include <stddef.h>

#include <isl/map.h>
#include <isl/set.h>

#include "../ast/ast.h"

/* A key being built: bytes, malloc'd, grown by doubling. */
typedef struct an_key {
    char *buf;
    size_t len, cap;
} an_key;

void an_key_str(an_key *k, const char *s);
/* Append the bytes of src. */
void an_key_cat(an_key *k, const an_key *src);
void an_key_int(an_key *k, long long v);
/* Every input an_pw_aff_of / an_cond_set read from e (NULL allowed). */
void an_key_expr(an_key *k, const ast_expr *e);
void an_key_free(an_key *k);

/* One remembered result: a set, a map, and a flag (an access's exactness). */
typedef struct an_memo_val {
    isl_set *set;            /* owned, or NULL */
    isl_map *map;            /* owned, or NULL */
    int flag;
} an_memo_val;

typedef struct an_memo an_memo;

an_memo *an_memo_new(void);
void an_memo_free(an_memo *m);
/* The value remembered for key, or NULL (also when m is NULL). */
const an_memo_val *an_memo_get(const an_memo *m, const an_key *k);
/* Remember v (its objects taken) for key; frees them when m is NULL or out
 * of memory. */
void an_memo_put(an_memo *m, const an_key *k, an_memo_val v);

/* deps_cache.c: the memo of the dependence cache on ctx, or NULL when the
 * cache is off. */
an_memo *an_deps_cache_memo(ft_ctx *ctx);

#endif
