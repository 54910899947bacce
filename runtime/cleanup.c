/* cleanup.c - remove this process's temporaries and stop its child
 * compiler when SIGINT, SIGTERM or SIGHUP ends it.
 *
 * Requires: rt_cleanup_install called once by main (nothing is caught
 * otherwise; the table still works and costs nothing).
 * Provides: on such a signal, the child compiler's process group is
 * stopped (SIGTERM, then SIGKILL after 2 s), every registered file is
 * unlinked and every registered folder removed with what it holds (the
 * compiler's own temporaries: collect2 does not remove its files on
 * SIGTERM), and the signal is raised again with its default action, so
 * that the exit status says "killed by signal" as before.
 *
 * This is the one module of ftc with static mutable state, and it has to
 * be: a signal handler receives nothing but the signal's number, so what
 * it must clean up cannot travel in an ft_ctx.  The state is kept to what
 * the handler needs: a fixed table of paths (no allocation, so that the
 * handler can read it at any moment), the child's pid, and the counters of
 * the hold (rt_cleanup_enter).  The handler calls only async-signal-safe
 * functions (kill, waitpid, nanosleep, open, close, unlinkat, unlink,
 * rmdir, sigaction, sigprocmask, raise, _exit, and getdents64, a bare
 * system call).  Slots change state through C11 atomics, so
 * that a handler running on another thread (an OpenMP worker of `ftc run`)
 * sees a path only once it is complete.  (Linux gives a signal sent to
 * the process to its main thread unless that thread blocks it, which ftc
 * never does, so the handler runs on the main thread in practice.)
 */
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    RT_CL_SLOTS = 128,       /* a build uses 6, `ftc run` 3 + one per output */
    RT_CL_PATH = 4096,
    RT_CL_DEPTH = 8,         /* folders inside a registered folder */
    RT_CL_FREE = 0, RT_CL_FILE = 1, RT_CL_DIR = 2, RT_CL_BUSY = 3
};

static char rt_cl_paths[RT_CL_SLOTS][RT_CL_PATH];
static _Atomic int rt_cl_state[RT_CL_SLOTS];     /* RT_CL_* */
static _Atomic int rt_cl_child;                  /* pid, 0 when none */
static _Atomic int rt_cl_hold;                   /* depth of rt_cleanup_enter */
static _Atomic int rt_cl_pending;                /* a signal held, or 0 */

static const int rt_cl_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Wait up to 0.5 s for the process group pid to be gone, so that none of
 * it creates a file after the folders are emptied. */
static void rt_cl_wait_group(pid_t pid)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 50 && kill(-pid, 0) == 0; i++) {
        while (waitpid(-pid, NULL, WNOHANG) > 0)
            ;
        nanosleep(&tick, NULL);
    }
}

/* Stop the child's process group: SIGTERM (gcc removes most of its own
 * temporary files on it), up to 2 s for the child to exit, then SIGKILL
 * for whatever of the group is left. */
static void rt_cl_stop_child(void)
{
    pid_t pid = (pid_t)atomic_exchange(&rt_cl_child, 0);
    if (pid <= 0)
        return;
    kill(-pid, SIGTERM);
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 200; i++) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        nanosleep(&tick, NULL);
    }
    kill(-pid, SIGKILL);
    rt_cl_wait_group(pid);
}

/* Remove everything in the folder open as fd (folders inside it to depth
 * more levels), then close fd.  Entries are removed while the folder is
 * read, so it is read again until a pass removes nothing. */
static void rt_cl_empty_fd(int fd, int depth)
{
    char buf[4096] __attribute__((aligned(8)));
    for (int removed = 1; removed;) {
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        ssize_t n;
        while ((n = getdents64(fd, buf, sizeof buf)) > 0)
            for (ssize_t off = 0; off < n;) {
                struct dirent64 *e = (struct dirent64 *)(buf + off);
                off += e->d_reclen;
                const char *name = e->d_name;
                if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
                    continue;
                if (unlinkat(fd, name, 0) == 0) {
                    removed = 1;
                    continue;
                }
                int sub = depth > 0 && (errno == EISDIR || errno == EPERM)
                    ? openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
                if (sub >= 0)
                    rt_cl_empty_fd(sub, depth - 1);
                if (unlinkat(fd, name, AT_REMOVEDIR) == 0)
                    removed = 1;
            }
    }
    close(fd);
}

int rt_cleanup_remove_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        rt_cl_empty_fd(fd, RT_CL_DEPTH);
    return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Remove every registered path: the files, then the folders with what
 * they hold. */
static void rt_cl_remove_all(void)
{
    for (int i = 0; i < RT_CL_SLOTS; i++)
        if (atomic_load(&rt_cl_state[i]) == RT_CL_FILE)
            unlink(rt_cl_paths[i]);
    for (int i = RT_CL_SLOTS - 1; i >= 0; i--)
        if (atomic_load(&rt_cl_state[i]) == RT_CL_DIR)
            rt_cleanup_remove_dir(rt_cl_paths[i]);
}

/* Clean up and end the process by sig with its default action. */
static void rt_cl_die(int sig)
{
    rt_cl_stop_child();
    rt_cl_remove_all();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* The handler: hold the signal inside an enter/leave section (the pending
 * signal is stored before the hold is read, so rt_cleanup_leave cannot
 * miss it), else clean up and die. */
static void rt_cl_handler(int sig)
{
    int saved = errno;
    atomic_store(&rt_cl_pending, sig);
    if (atomic_load(&rt_cl_hold) > 0) {
        errno = saved;
        return;
    }
    rt_cl_die(sig);
}

void rt_cleanup_install(void)
{
    for (size_t i = 0; i < sizeof rt_cl_signals / sizeof *rt_cl_signals; i++) {
        struct sigaction old, sa;
        if (sigaction(rt_cl_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = rt_cl_handler;
        sa.sa_flags = SA_RESTART;       /* a held signal fails no call in the hold */
        sigfillset(&sa.sa_mask);
        sigaction(rt_cl_signals[i], &sa, NULL);
    }
}

int rt_cleanup_add(const char *path, int is_dir)
{
    size_t n = strlen(path);
    if (n >= RT_CL_PATH)
        return -1;
    for (int i = 0; i < RT_CL_SLOTS; i++) {
        int expect = RT_CL_FREE;
        if (!atomic_compare_exchange_strong(&rt_cl_state[i], &expect, RT_CL_BUSY))
            continue;
        memcpy(rt_cl_paths[i], path, n + 1);
        atomic_store(&rt_cl_state[i], is_dir ? RT_CL_DIR : RT_CL_FILE);
        return i;
    }
    return -1;
}

void rt_cleanup_forget(int slot)
{
    if (slot >= 0 && slot < RT_CL_SLOTS)
        atomic_store(&rt_cl_state[slot], RT_CL_FREE);
}

void rt_cleanup_set_child(pid_t pid)
{
    atomic_store(&rt_cl_child, (int)pid);
}

void rt_cleanup_enter(void)
{
    atomic_fetch_add(&rt_cl_hold, 1);
}

/* Leave a hold; at the outermost, a signal that came inside is acted on
 * now. */
void rt_cleanup_leave(void)
{
    if (atomic_fetch_sub(&rt_cl_hold, 1) != 1)
        return;
    int sig = atomic_load(&rt_cl_pending);
    if (sig)
        rt_cl_die(sig);
}
