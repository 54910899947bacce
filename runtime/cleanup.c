/* cleanup.c - remove this process's temporaries and stop its child
 * compiler when SIGINT, SIGTERM or SIGHUP ends it.
 *
 * Requires: rt_cleanup_install called once by main (nothing is caught
 * otherwise; the table still works and costs nothing).
 * Provides: on such a signal, the child compiler's process group is
 * stopped (SIGTERM, then SIGKILL after 2 s), every registered file is
 * unlinked and every registered folder removed (once empty), and the
 * signal is raised again with its default action, so that the exit status
 * says "killed by signal" as before.
 *
 * This is the one module of ftc with static mutable state, and it has to
 * be: a signal handler receives nothing but the signal's number, so what
 * it must clean up cannot travel in an ft_ctx.  The state is kept to what
 * the handler needs: a fixed table of paths (no allocation, so that the
 * handler can read it at any moment), the child's pid, and the counters of
 * the hold (rt_cleanup_enter).  The handler calls only async-signal-safe
 * functions (kill, waitpid, nanosleep, unlink, rmdir, sigaction,
 * sigprocmask, raise, _exit).  Slots change state through C11 atomics, so
 * that a handler running on another thread (an OpenMP worker of `ftc run`)
 * sees a path only once it is complete.  (Linux gives a signal sent to
 * the process to its main thread unless that thread blocks it, which ftc
 * never does, so the handler runs on the main thread in practice.)
 */
#include "cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    RT_CL_SLOTS = 128,       /* a build uses 6, `ftc run` 3 + one per output */
    RT_CL_PATH = 4096,
    RT_CL_FREE = 0, RT_CL_FILE = 1, RT_CL_DIR = 2, RT_CL_BUSY = 3
};

static char rt_cl_paths[RT_CL_SLOTS][RT_CL_PATH];
static _Atomic int rt_cl_state[RT_CL_SLOTS];     /* RT_CL_* */
static _Atomic int rt_cl_child;                  /* pid, 0 when none */
static _Atomic int rt_cl_hold;                   /* depth of rt_cleanup_enter */
static _Atomic int rt_cl_pending;                /* a signal held, or 0 */

static const int rt_cl_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Stop the child's process group: SIGTERM (gcc removes its own temporary
 * files on it), up to 2 s for the child to exit, then SIGKILL for
 * whatever of the group is left. */
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
}

/* Remove every registered path: the files, then the folders (twice, so
 * that a folder registered inside another goes first whatever the order of
 * their slots). */
static void rt_cl_remove_all(void)
{
    for (int i = 0; i < RT_CL_SLOTS; i++)
        if (atomic_load(&rt_cl_state[i]) == RT_CL_FILE)
            unlink(rt_cl_paths[i]);
    for (int pass = 0; pass < 2; pass++)
        for (int i = RT_CL_SLOTS - 1; i >= 0; i--)
            if (atomic_load(&rt_cl_state[i]) == RT_CL_DIR && rmdir(rt_cl_paths[i]) == 0)
                atomic_store(&rt_cl_state[i], RT_CL_FREE);
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
