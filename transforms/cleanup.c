/* cleanup.c - the order of the cleanup passes (cleanup.h), written once.
 *
 * simplify first: the others match the folded forms it leaves.  retarget
 * before prop_temps (a local computed into its destination is no longer a
 * temporary to substitute), remove_copies after them (the copies left are
 * the plain ones), shrink_vars then hoist (a local shrunk into a loop is
 * private to it when the loop is parallelized, and what is invariant in
 * that loop then moves out), remove_dead last (it drops what the others
 * left unread).
 */
#include "cleanup.h"

#include "simplify.h"

const xf_step xf_cleanup_steps[] = {
    {"simplify", xf_simplify},
    {"retarget", xf_retarget},
    {"prop_temps", xf_propagate_temps},
    {"remove_copies", xf_remove_copies},
    {"shrink_vars", xf_shrink_vars},
    {"hoist", xf_hoist_invariants},
    {"remove_dead", xf_remove_dead},
    {NULL, NULL},
};

void xf_cleanup(ft_ctx *ctx, ast_program *p)
{
    for (const xf_step *s = xf_cleanup_steps; s->run; s++)
        s->run(ctx, p);
}
