/* deps.h - instance-wise dependences and the questions transforms ask.
 *
 * ppcg-style: each dependence kind is one short function over the tagged
 * access relations of access.h, computed with isl_union_access_info /
 * isl_union_flow as memory-based ("may") dependences: a pair of instances
 * is a dependence when the earlier touches an element the later touches
 * too and one of them writes it (an_func_deps computes the same pairs
 * directly, access pair by access pair: there are no kills to
 * compute).  Relations go from the source (earlier) instance to the sink
 * (later) one:
 *
 *     RAW on a: [n, m] -> { S4[i, j] -> S5[i', j'] : i' = i + 2 and j' = j - 1 ... }
 *
 * FreeTensor's paper writes the same dependence from the sink back to the
 * source, (i, j) -> (i - 2, j + 1); isl_map_reverse gives that form.
 *
 * Refinements (FreeTensor §4.2.1):
 * - a tensor defined inside loops only depends within one instance of its
 *   scope (access.h expands it by the enclosing iterators);
 * - two reductions with the same operator into the same tensor are not
 *   ordered by each other: such pairs are not RAW/WAR/WAW but kept apart as
 *   AN_RED, which tells a parallelizer that it needs a reduction or atomics.
 *
 * Every query can return a witness: one dependence as text (kind, tensor,
 * the two statements, the isl relation and one example pair), arena-owned,
 * for error messages.
 */
#ifndef FT_AN_DEPS_H
#define FT_AN_DEPS_H

#include "access.h"

typedef enum an_dep_kind {
    AN_RAW,            /* read after write (flow) */
    AN_WAR,            /* write after read (anti) */
    AN_WAW,            /* write after write (output) */
    AN_RED,            /* two same-operator reductions: not a dependence */
    AN_DEP_KINDS
} an_dep_kind;

/* The dependences of one kind from one statement to another on one tensor. */
typedef struct an_dep {
    an_dep_kind kind;
    const an_access *src;    /* an access of the source statement */
    const an_access *snk;    /* an access of the sink statement */
    const char *var;         /* the tensor */
    int exact;               /* 0 if one of the accesses is over-approximated */
    isl_map *rel;            /* owned: { S[i] -> T[j] }, source -> sink */
} an_dep;

typedef struct an_deps {
    an_accesses *acc;        /* the accesses they come from */
    int owns_acc;            /* an_deps_free frees acc too */
    isl_union_map *tagged[AN_DEP_KINDS];   /* owned: [S[i] -> R[]] -> [T[j] -> R'[]];
                                              NULL when computed pairwise */
    int n;                   /* deps, sorted by kind, source, sink, tensor */
    an_dep **deps;
    int shared;              /* holders besides the first (deps_cache.c):
                                an_deps_free only counts them down */
    const ast_stmt *loop;    /* an_loop_deps: only the pairs this loop
                                carries (tagged[] NULL); NULL: all of them */
    const ast_stmt *region;  /* an_region_deps: only the pairs inside this
                                statement (tagged[] NULL); NULL: all */
    int across;              /* an_items_across_deps: only the pairs between
                                two different items of the sequence region */
} an_deps;

/* The dependences of the accesses a (which must outlive the result), from
 * isl's flow computation (tagged[] set). */
an_deps *an_compute_deps(an_accesses *a);
/* deps_loop.c: the same list of dependences (the same pairs, listed and
 * merged alike; no entry whose relation is empty), computed pairwise: one
 * relation per pair of accesses of one tensor, ordered by the schedules,
 * without isl's flow (2-3x faster on the bench programs); tagged[] NULL
 * (an_deps_untagged unions the list).  The result owns a; NULL on isl
 * errors (a left to the caller). */
an_deps *an_pairwise_deps(ft_ctx *ctx, an_accesses *a);
/* Collect f's accesses and compute their dependences (owning both),
 * pairwise. */
an_deps *an_func_deps(ft_ctx *ctx, ast_func *f);
void an_deps_free(an_deps *d);

/* deps_loop.c: the dependences loop (a For of f) carries, computed from
 * the accesses of the statements inside it only, at a cost that grows with
 * its body rather than with f: what an_loop_parallel, an_loop_carries_dep
 * and an_loop_affine_collisions need about that loop, with the same
 * answers as on an_func_deps(f).  Questions about other loops, and
 * an_deps_between / an_order_reverses_dep, return errors on it (-1,
 * AN_PAR_ERROR).  NULL after an error reported through ctx. */
an_deps *an_loop_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *loop);
/* deps_loop.c: every dependence between two instances inside region (a
 * statement of f: a loop, a sequence) in the same iteration of the loops
 * around it, computed from the accesses inside it only.  Enough for a
 * transform that changes the order of instances inside one instance of
 * region only (fuse, swap, reorder, fission below it): the order of the
 * others, of theirs against these, and of instances of different
 * iterations around region, stays.  Loop questions about loops inside
 * region answer as on an_func_deps; an_deps_between about statements not
 * inside it returns -1.  NULL after an error reported through ctx. */
an_deps *an_region_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *region);
/* The same for the items lo..hi of the sequence seq only (the region of a
 * swap, of a fusion of two neighbours). */
an_deps *an_items_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *seq, int lo, int hi);
/* Of those, only the pairs between instances in two different items (not
 * the pairs inside one item): what an_deps_between asks about two items of
 * seq, at a cost that grows with the accesses of one item times those of
 * the others rather than with all pairs.  an_deps_between answers -1 about
 * anything but two different items lo..hi of seq; loop questions and
 * an_order_reverses_dep answer errors. */
an_deps *an_items_across_deps(ft_ctx *ctx, ast_func *f, const ast_stmt *seq, int lo, int hi);
/* { t -> t' : t = t' before level, t < t' at level } on n time dims. */
__isl_give isl_map *an_carried_time(isl_ctx *isl, int n, int level);
/* qsort order of dependence lists (an_dep **): kind, source, sink, tensor. */
int an_dep_cmp(const void *x, const void *y);

/* deps_cache.c: between begin and end, an_func_deps hands out its last
 * result again (shared; each holder still calls an_deps_free) while the
 * function's body is the same version (same text, same nodes).  The
 * driver holds one window across the auto-scheduler and the verifier of
 * parallel code. */
void an_deps_cache_begin(ft_ctx *ctx);
void an_deps_cache_end(ft_ctx *ctx);
/* The cached dependences of f's current version (a new reference), or
 * NULL; *key (malloc'd, *len bytes; NULL on a hit or with no cache) is the
 * version's fingerprint to pass to an_deps_cache_store. */
an_deps *an_deps_cache_find(ft_ctx *ctx, const ast_func *f, char **key, size_t *len);
/* Remember d (one more reference) for f's version key (taken). */
void an_deps_cache_store(ft_ctx *ctx, const ast_func *f, an_deps *d, char *key, size_t len);
/* The same for the an_loop_deps of loop in f (loop NULL: an_func_deps);
 * results of one version are kept together, a new version drops them. */
an_deps *an_deps_cache_find_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop,
                                 char **key, size_t *len);
void an_deps_cache_store_loop(ft_ctx *ctx, const ast_func *f, const ast_stmt *loop, an_deps *d,
                              char *key, size_t len);
/* The same for the an_items_deps of items lo..hi of seq (lo < 0: all of
 * them, an_region_deps). */
an_deps *an_deps_cache_find_items(ft_ctx *ctx, const ast_func *f, const ast_stmt *seq,
                                  int lo, int hi, char **key, size_t *len);
void an_deps_cache_store_items(ft_ctx *ctx, const ast_func *f, const ast_stmt *seq, int lo,
                               int hi, an_deps *d, char *key, size_t len);

/* One function per kind: tagged relations [S[i] -> R<k>[]] -> [T[j] -> R<l>[]]
 * (same-operator reduction pairs left out of the first three). */
__isl_give isl_union_map *an_raw(const an_accesses *a);
__isl_give isl_union_map *an_war(const an_accesses *a);
__isl_give isl_union_map *an_waw(const an_accesses *a);
__isl_give isl_union_map *an_reduction_pairs(const an_accesses *a);
/* The relations of one kind without tags: { S[i] -> T[j] }. */
__isl_give isl_union_map *an_deps_untagged(const an_deps *d, an_dep_kind kind);

/* ---- queries */

/* Whether a dependence (RAW, WAR or WAW; with_red: or a reduction pair)
 * between instances in `filter` (statement names; NULL: all) is carried
 * at schedule dimension `level` (equal before it, later at it).  Sets
 * *witness (may be NULL) to the first such one.  -1 on isl errors. */
int an_carried_at(const an_deps *d, __isl_keep isl_union_set *filter, int level,
                  int with_red, char **witness);

/* Whether loop L (a For of the function) carries a dependence: two
 * instances inside L, in different iterations of L, of which one must
 * run first.  Reductions of one operator do not count. */
int an_loop_carries_dep(const an_deps *d, const ast_stmt *loop, char **witness);

/* What running the iterations of a loop in parallel needs. */
typedef enum an_par {
    AN_PAR_OK,          /* independent iterations */
    AN_PAR_REDUCTION,   /* only same-operator reductions collide, at affine
                           indices: a reduction (privatise or atomics) */
    AN_PAR_ATOMIC,      /* reductions at indices not known (random access):
                           atomics */
    AN_PAR_NO,          /* a carried dependence forbids it */
    AN_PAR_ERROR,
} an_par;
an_par an_loop_parallel(const an_deps *d, const ast_stmt *loop, char **witness);
/* Whether some same-operator reduction pair at affine indices (exact) is
 * carried by loop: different iterations hit one element for sure, so
 * atomics there would contend (unlike random-access ones, which rarely
 * meet).  -1 if loop is not a loop of the function. */
int an_loop_affine_collisions(const an_deps *d, const ast_stmt *loop);

/* The dependences between the instances inside two statements. */
typedef struct an_between {
    int forward;             /* from instances of s to instances of t */
    int backward;            /* from t to s */
    int ntensors;            /* the tensors carrying them */
    const char **tensors;
    char *witness;           /* the first one, or NULL */
} an_between;
/* Fill *out for s and t (statements of the function; loops, ifs, leaves);
 * returns the number of dependences found. */
int an_deps_between(const an_deps *d, const ast_stmt *s, const ast_stmt *t,
                    an_between *out);

/* Whether running the instances in the order of new_sched (statement
 * instance -> time vector, one time space for all; statements it leaves out
 * are not checked) would run the sink of some dependence before or together
 * with its source.  Reduction pairs may be reordered.  -1 on errors. */
int an_order_reverses_dep(const an_deps *d, __isl_keep isl_union_map *new_sched,
                          char **witness);

/* ---- text */

const char *an_dep_kind_name(an_dep_kind k);        /* "RAW", ... */
/* A dependence as a sentence for messages. */
char *an_dep_text(const an_deps *d, const an_dep *dep);
/* Print f's statements, dependences and what each loop allows (--emit=deps). */
void an_print_func_deps(FILE *out, const an_deps *d);

#endif
