/* auto_unroll.c - unroll very short constant loops, and loops of one
 * iteration anywhere.
 *
 * Requires: f's AST (after the other auto passes).
 * Provides: every serial innermost loop (no loop in its body) with a
 * constant range of at most MAX_TRIPS iterations replaced by copies of its
 * body (xf_unroll), so that the C compiler sees straight-line code (the
 * three neighbours of a mesh face, a 2 x 2 window).  xf_auto_one_trip
 * (first of the auto passes): every serial loop of
 * exactly one iteration replaced by its body, wherever it is: the kh and kw
 * loops of a 1x1 conv window hid the channel loop from auto_red_scalar and
 * auto_vectorize (no longer innermost), and the reduction was then summed
 * per channel by auto_promote, one scalar store per multiply-add.
 *
 * Budgets: a loop whose copies would hold more than MAX_COPY_STMTS
 * statements is no longer short (nested short loops unrolled from the
 * inside out double at each level: 30 nested range(2) would make 2^30
 * statements), and no unroll takes f past --max-statements; either is
 * skipped, and said with -v.
 */
#include "auto_util.h"

#include "../schedule.h"
#include "../../ast/visit.h"

enum { MAX_TRIPS = 4, MAX_COPY_STMTS = 256 };

static const char *const PASS = "auto_unroll";

/* Why unrolling loop l (n iterations) of f would exceed a budget, or NULL. */
static const char *too_big(xf_auto *a, const ast_stmt *l, int64_t n)
{
    int64_t body = ast_stmt_count(l->u.loop.body, MAX_COPY_STMTS);
    if (body * n > MAX_COPY_STMTS)
        return ft_fmt(a->ctx, "its copies would hold more than %d statements", MAX_COPY_STMTS);
    int64_t max = a->ctx->opts.budget.stmts;
    if (ast_stmt_count(a->f->body, max) + body * (n - 1) > max)
        return ft_fmt(a->ctx, "%s would have more than %lld statements (--max-statements)",
                      a->f->name, (long long)max);
    return NULL;
}

/* Unroll the first candidate loop of f: a serial loop of a constant
 * number of iterations, innermost and at most MAX_TRIPS of them (short),
 * or anywhere and exactly one (one_trip); 1 when one was unrolled. */
static int unroll_one(xf_auto *a, ft_vec *done, int one_trip)
{
    ft_vec loops = {0};
    xf_auto_loops(a->ctx, a->f, &loops);
    for (int i = 0; i < loops.len; i++) {
        ast_stmt *l = loops.items[i];
        int64_t n;
        int old = 0;
        for (int k = 0; k < done->len && !old; k++)
            old = done->items[k] == (void *)(intptr_t)l->id;
        if (old || l->u.loop.par != AST_SERIAL || !xf_auto_const_trips(a->ctx, l, &n) ||
            (one_trip ? n != 1 : n > MAX_TRIPS || xf_auto_has_loop(l->u.loop.body)))
            continue;
        ft_vec_push(a->ctx, done, (void *)(intptr_t)l->id);
        const char *lname = xf_auto_name(a, l);
        const char *big = too_big(a, l, n);
        if (big) {
            xf_auto_log(a, PASS, lname, "not unrolled: %s", big);
            continue;
        }
        xf_quiet q;
        xf_auto_quiet_begin(a->ctx, &q);
        int bad = xf_unroll(a->ctx, a->f, l, l->loc);
        const char *why = xf_auto_quiet_end(a->ctx, &q);
        if (bad) {
            xf_auto_log(a, PASS, lname, "not unrolled: %s", why);
            continue;
        }
        xf_auto_log(a, PASS, lname, "unrolled (%lld iterations)", (long long)n);
        return 1;
    }
    return 0;
}

/* Unroll candidates until none is left (or 1024 of them). */
static int unroll_all(xf_auto *a, int one_trip)
{
    ft_vec done = {0};
    int n = 0;
    while (n < 1024 && unroll_one(a, &done, one_trip))
        n++;
    return n;
}

int xf_auto_unroll(xf_auto *a)
{
    return unroll_all(a, 0);
}

int xf_auto_one_trip(xf_auto *a)
{
    return unroll_all(a, 1);
}
