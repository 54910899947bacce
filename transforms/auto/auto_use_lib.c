/* auto_use_lib.c - hand matrix products to a library (BLAS).
 *
 * Requires: f's AST.
 * Provides: nothing yet.  The pass needs the `as_lib` schedule primitive
 * (transforms/sched_as_lib.c), which is not built: until it is, the pass
 * only says so in the -v log.  Once it exists, this pass should find the
 * matmul nests (a Reduce `c[i, j] += a[i, k] * b[k, j]` under three loops)
 * large enough to pay for the call and apply as_lib to them.
 */
#include "auto_util.h"

int xf_auto_use_lib(xf_auto *a)
{
    xf_auto_log(a, "auto_use_lib", a->f->name, "skipped: no as_lib primitive yet");
    return 0;
}
