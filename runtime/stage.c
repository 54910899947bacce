/* stage.c - outputs written under a temporary name beside their final
 * path and renamed into place together.
 *
 * Requires: nothing (runtime/cleanup.c's table, used to remove the
 * temporaries on a signal, works whether or not its handler is installed).
 * Provides: rt_stage_open / rt_stage_commit / rt_stage_free (stage.h).
 *
 * rename(2) within a folder is atomic: a reader sees the old file or the
 * complete new one, never a part.  The temporaries sit in the final
 * path's folder (so that the rename never crosses file systems), are
 * created with O_EXCL (mkstemp) under a name no two processes share, and
 * are named ".NAME.ftc-XXXXXX" so that one left by SIGKILL, the one signal
 * that cannot be caught, is recognised and is never taken for an output.
 */
#include "stage.h"
#include "cleanup.h"
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The final path for path: a symlink's target when path is a symlink that
 * resolves (so that the link stays a link), else path; malloc-owned. */
static char *rt_stage_target(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (real)
            return real;
    }
    return strdup(path);
}

/* The temporary's template beside path: "DIR/.NAME.ftc-XXXXXX", NAME cut
 * to 200 bytes so that the name fits NAME_MAX; malloc-owned. */
static char *rt_stage_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) + 1 : 0;
    char *t = NULL;
    if (asprintf(&t, "%.*s.%.200s.ftc-XXXXXX", dirlen, path, base) < 0)
        return NULL;
    return t;
}

/* The permissions a new output gets: mode less the umask (read by
 * setting it and back: no thread of ftc creates files meanwhile). */
static int rt_stage_new_mode(int mode)
{
    mode_t mask = umask(0);
    umask(mask);
    return mode & ~(int)mask;
}

/* Open path itself for an output that is not a regular file (written in
 * place: a device or a FIFO has nothing to rename). */
static int rt_stage_in_place(rt_stage *s, char *err, size_t errlen)
{
    int fd = open(s->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        rt_errf(err, errlen, "cannot write '%s': %s", s->path, strerror(errno));
    return fd;
}

int rt_stage_open(rt_stage *s, const char *path, int mode, char *err, size_t errlen)
{
    *s = (rt_stage){.slot = -1};
    struct stat st;
    if (!(s->path = rt_stage_target(path))) {
        rt_errf(err, errlen, "out of memory");
        return -1;
    }
    int exists = stat(s->path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return rt_stage_in_place(s, err, errlen);
    if (exists && S_ISDIR(st.st_mode)) {
        rt_errf(err, errlen, "cannot write '%s': it is a folder", path);
        return -1;
    }
    s->mode = exists ? (int)(st.st_mode & 07777) : rt_stage_new_mode(mode);
    if (!(s->tmp = rt_stage_template(s->path))) {
        rt_errf(err, errlen, "out of memory");
        return -1;
    }
    rt_cleanup_enter();
    int fd = mkostemp(s->tmp, O_CLOEXEC);
    int e = errno;
    if (fd >= 0)
        s->slot = rt_cleanup_add(s->tmp, 0);
    rt_cleanup_leave();
    if (fd < 0) {
        rt_errf(err, errlen, "cannot create '%s' (the temporary for '%s'): %s", s->tmp, path,
                strerror(e));
        free(s->tmp);
        s->tmp = NULL;
    }
    return fd;
}

/* An exclusive flock of path's folder, or -1 (then the renames go on
 * unlocked: a file system without locks must not stop a build). */
static int rt_stage_lock(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                      : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Rename s's temporary to its path with its permissions; 0 or 1. */
static int rt_stage_rename(rt_stage *s, char *err, size_t errlen)
{
    if (!s->tmp)
        return 0;
    chmod(s->tmp, (mode_t)s->mode);
    if (rename(s->tmp, s->path) != 0) {
        rt_errf(err, errlen, "cannot write '%s': %s", s->path, strerror(errno));
        return 1;
    }
    rt_cleanup_forget(s->slot);
    s->slot = -1;
    free(s->tmp);
    s->tmp = NULL;
    return 0;
}

/* The lock is taken before the signals are held: a signal while waiting
 * for it (another process may hold it long) ends ftc as anywhere else. */
int rt_stage_commit(rt_stage *s, int n, int lock, char *err, size_t errlen)
{
    int fd = lock && n > 0 ? rt_stage_lock(s[0].path) : -1;
    rt_cleanup_enter();
    int r = 0;
    for (int i = 0; i < n && !r; i++)
        r = rt_stage_rename(&s[i], err, errlen);
    rt_cleanup_leave();
    if (fd >= 0)
        close(fd);
    return r;
}

void rt_stage_free(rt_stage *s, int n)
{
    for (int i = 0; i < n; i++) {
        rt_cleanup_enter();
        if (s[i].tmp)
            unlink(s[i].tmp);
        rt_cleanup_forget(s[i].slot);
        rt_cleanup_leave();
        free(s[i].tmp);
        free(s[i].path);
        s[i] = (rt_stage){.slot = -1};
    }
}
