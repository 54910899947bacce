/* stage.h - outputs written under a temporary name beside their final
 * path and renamed into place together (runtime/stage.c).
 *
 * Usage: rt_stage_open for each output (write to the descriptor it
 * returns, or let a compiler write to s->tmp), rt_stage_commit once all of
 * them were written, rt_stage_free always.  A file that was at a final
 * path stays untouched until the renames; a failure or a signal before
 * them leaves every final path as it was.
 */
#ifndef FT_STAGE_H
#define FT_STAGE_H

#include <stddef.h>

typedef struct rt_stage {
    char *path;     /* the final path (malloc-owned; a symlink's target) */
    char *tmp;      /* the temporary beside it (malloc-owned), NULL once
                       renamed or removed, and for an output written in
                       place (a final path that is not a regular file,
                       e.g. /dev/stdout or a FIFO) */
    int slot;       /* tmp's slot in runtime/cleanup.c, or -1 */
    int mode;       /* the permissions path gets */
} rt_stage;

/* Create the temporary for path (".NAME.ftc-XXXXXX" in path's folder,
 * exclusively) and return a descriptor open for writing to it, or -1
 * after writing why into err.  mode: the permissions of a new file (less
 * the umask); a regular file already at path keeps its own. */
int rt_stage_open(rt_stage *s, const char *path, int mode, char *err, size_t errlen);

/* Rename the n temporaries of s to their paths, in order, holding
 * SIGINT/SIGTERM/SIGHUP until the last; lock: under an exclusive flock of
 * s[0]'s folder (see `ftc build` in lang/reference.md).  0, or 1 after
 * writing why into err. */
int rt_stage_commit(rt_stage *s, int n, int lock, char *err, size_t errlen);

/* Remove the temporaries of s[0..n) still there and free their strings. */
void rt_stage_free(rt_stage *s, int n);

#endif
