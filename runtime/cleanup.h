/* cleanup.h - remove this process's temporaries and stop its child
 * compiler when SIGINT, SIGTERM or SIGHUP ends it (runtime/cleanup.c).
 *
 * Usage: main calls rt_cleanup_install once; whoever creates a temporary
 * registers it (rt_cleanup_add, inside rt_cleanup_enter/leave so that no
 * signal falls between the creation and the registration) and forgets it
 * once it is renamed or removed (rt_cleanup_forget).  A signal arriving
 * inside an enter/leave section is held until the section ends, so that a
 * group of renames is all done or none.  SIGKILL cannot be caught: what it
 * leaves is named so as to be recognised (see lang/reference.md).
 */
#ifndef FT_CLEANUP_H
#define FT_CLEANUP_H

#include <sys/types.h>

/* Catch SIGINT, SIGTERM and SIGHUP (those not ignored when ftc started). */
void rt_cleanup_install(void);

/* Register path (a file, or when is_dir a folder this process made and
 * owns: it is removed with everything in it) for removal on a signal; returns its slot, or -1 when the table is full or the path too
 * long (the path is then simply not removed on a signal). */
int rt_cleanup_add(const char *path, int is_dir);

/* Remove the folder path and everything in it (folders inside to a depth
 * of 8); async-signal-safe.  0, or -1 with errno set when the folder is
 * left (a missing folder counts as removed). */
int rt_cleanup_remove_dir(const char *path);

/* Forget slot (after its path was renamed or removed); -1 is ignored. */
void rt_cleanup_forget(int slot);

/* The child compiler (the leader of its own process group), stopped with
 * its whole group on a signal; 0 when there is none. */
void rt_cleanup_set_child(pid_t pid);

/* Hold the signals above until the matching rt_cleanup_leave (nests). */
void rt_cleanup_enter(void);
void rt_cleanup_leave(void);

#endif
