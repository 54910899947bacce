/* build.c - build a shared library from an AST program with the system C
 * compiler.
 *
 * Requires: a program cg_emit_c accepts.
 * Provides: so_path and the header beside it, both replaced together or
 * both left as they were.
 *
 * Steps: the C text goes to generated.c in a private folder
 * $TMPDIR/ftc-XXXXXX (or /tmp), which is also the compiler's $TMPDIR; the
 * compiler runs through posix_spawnp (no shell: the flags string is split
 * on whitespace, nothing else is interpreted) in a process group of its
 * own, with its stdout and stderr captured in cc.log in that folder,
 * quoted in the diagnostic when it fails; the library and the header are
 * written to temporaries beside their paths (runtime/stage.c) and renamed
 * into place last, together, under a lock of the destination folder.
 * Every temporary is removed on every path, and on SIGINT, SIGTERM and
 * SIGHUP (runtime/cleanup.c, which also stops the compiler).
 *
 * Reproducible: the C file's name is the same in every build (its folder
 * is mapped away with -ffile-prefix-map), so the same program and flags
 * give the same bytes whatever the output's path.
 */
#include "cg.h"

#include "../ast/target.h"
#include "../transforms/lib_gemm.h"
#include "../ast/timer.h"
#include "../runtime/cleanup.h"
#include "../runtime/stage.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The temporaries of one build: the private folder and its two files
 * (slots in runtime/cleanup.c, -1 when not registered), and the staged
 * header and library (out[0], out[1]). */
typedef struct cg_temps {
    char *dir;           /* $TMPDIR/ftc-XXXXXX, NULL when not created */
    char *c_path;        /* dir/generated.c, the C translation unit */
    char *log_path;      /* dir/cc.log, the compiler's output */
    int slots[3];        /* of dir, c_path, log_path */
    rt_stage out[2];     /* the header, the library */
    int nout;            /* entries of out opened */
} cg_temps;

/* Create the private folder $TMPDIR/ftc-XXXXXX and name its files; a
 * signal cannot fall between the creation and the registration. */
static int cg_temp_dir(ft_ctx *ctx, cg_temps *t)
{
    const char *tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir)
        tmpdir = "/tmp";
    char *dir = ft_fmt(ctx, "%s/ftc-XXXXXX", tmpdir);
    rt_cleanup_enter();
    if (mkdtemp(dir)) {
        t->dir = dir;
        t->slots[0] = rt_cleanup_add(dir, 1);
    }
    rt_cleanup_leave();
    if (!t->dir) {
        ft_error(ctx, (ft_loc){0}, "cannot create a temporary folder '%s': %s", dir,
                 strerror(errno));
        return 1;
    }
    t->c_path = ft_fmt(ctx, "%s/generated.c", dir);
    t->log_path = ft_fmt(ctx, "%s/cc.log", dir);
    t->slots[1] = rt_cleanup_add(t->c_path, 0);
    t->slots[2] = rt_cleanup_add(t->log_path, 0);
    return 0;
}

/* Remove every temporary that still exists (the C file and its folder are
 * kept when keep_c). */
static void cg_temps_remove(cg_temps *t, int keep_c)
{
    rt_stage_free(t->out, t->nout);
    if (!t->dir)
        return;
    rt_cleanup_enter();
    if (keep_c)
        unlink(t->log_path);
    else
        rt_cleanup_remove_dir(t->dir);  /* with whatever a killed compiler left */
    for (int i = 0; i < 3; i++)
        rt_cleanup_forget(t->slots[i]);
    rt_cleanup_leave();
}

/* The header path for so_path: "x.so" -> "x.h", else so_path + ".h". */
char *cg_header_path(ft_ctx *ctx, const char *so_path)
{
    size_t n = strlen(so_path);
    if (n > 3 && strcmp(so_path + n - 3, ".so") == 0)
        return ft_fmt(ctx, "%.*s.h", (int)(n - 3), so_path);
    return ft_fmt(ctx, "%s.h", so_path);
}

/* The library's base name for the header ("out/libprog.so" -> "libprog"). */
static char *cg_libname(ft_ctx *ctx, const char *so_path)
{
    const char *slash = strrchr(so_path, '/');
    const char *base = slash ? slash + 1 : so_path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".so") == 0)
        n -= 3;
    return ft_strndup(ctx, base, n);
}

/* Write the C text of p to f, or its header when libname is set, and
 * close f; path: f's path for the messages. */
static int cg_write_stream(ft_ctx *ctx, const ast_program *p, FILE *f, const char *path,
                           const char *libname)
{
    int nerrors = ctx->nerrors;
    int rc = libname ? cg_emit_header(ctx, p, libname, f)
             : ctx->target->emit(ctx, p, f);
    int e = errno, bad = ferror(f);
    if (fclose(f) != 0 && !bad) {
        e = errno;
        bad = 1;
    }
    if (bad && ctx->nerrors == nerrors) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", path, strerror(e));
        rc = 1;
    }
    return rc;
}

/* Write the C text of p to path. */
static int cg_write_file(ft_ctx *ctx, const ast_program *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", path, strerror(errno));
        return 1;
    }
    return cg_write_stream(ctx, p, f, path, NULL);
}

/* Open the temporary for an output (t->out[t->nout]) at path; returns its
 * descriptor or -1 after a diagnostic. */
static int cg_stage(ft_ctx *ctx, cg_temps *t, const char *path, int mode)
{
    char err[1024];
    int fd = rt_stage_open(&t->out[t->nout++], path, mode, err, sizeof err);
    if (fd < 0)
        ft_error(ctx, (ft_loc){0}, "%s", err);
    return fd;
}

/* Write p's header for libname to the temporary of h_path. */
static int cg_stage_header(ft_ctx *ctx, cg_temps *t, const ast_program *p, const char *h_path,
                           const char *libname)
{
    int fd = cg_stage(ctx, t, h_path, 0644);
    if (fd < 0)
        return 1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", h_path, strerror(errno));
        close(fd);
        return 1;
    }
    return cg_write_stream(ctx, p, f, h_path, libname);
}

/* Split s on whitespace into arena strings appended to argv. */
static void cg_split_flags(ft_ctx *ctx, const char *s, ft_vec *argv)
{
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        const char *start = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n')
            s++;
        if (s > start)
            ft_vec_push(ctx, argv, ft_strndup(ctx, start, (size_t)(s - start)));
    }
}

/* nvcc: $FTC_NVCC, else on PATH, else /usr/local/cuda/bin/nvcc; NULL
 * (after a diagnostic) when there is none. */
static const char *cg_find_nvcc(ft_ctx *ctx)
{
    const char *env = getenv("FTC_NVCC");
    if (env && *env)
        return env;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        char *cand = ft_fmt(ctx, "%.*s/nvcc", (int)n, path);
        if (n && access(cand, X_OK) == 0)
            return cand;
        path = colon ? colon + 1 : NULL;
    }
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return "/usr/local/cuda/bin/nvcc";
    ft_error(ctx, (ft_loc){0}, "--target cuda needs nvcc, the CUDA compiler: none on PATH "
             "or at /usr/local/cuda/bin/nvcc (install the CUDA toolkit or set $FTC_NVCC)");
    return NULL;
}

/* nvcc's command line for compiling the CUDA file c_path into so_tmp:
 * -arch from --arch (sm_90 by default); --cflags replace -O3.  The linker
 * drops local symbols (--discard-all): nvcc's host file, named after its
 * process id, was one, and two builds differed (with -g its name stays in
 * the debug information). */
char **cg_nvcc_command(ft_ctx *ctx, const char *dir, const char *c_path, const char *so_tmp,
                       int blas)
{
    (void)dir;
    const char *nvcc = cg_find_nvcc(ctx);
    if (!nvcc)
        return NULL;
    const char *flags = ctx->opts.cflags ? ctx->opts.cflags : getenv("FTC_NVCCFLAGS");
    ft_vec argv = {0};
    ft_vec_push(ctx, &argv, (void *)nvcc);
    cg_split_flags(ctx, flags ? flags : "-O3", &argv);
    const char *fixed[] = {"-arch", ctx->opts.arch ? ctx->opts.arch : "sm_90", "-x", "cu",
                           "-Xcompiler", "-fPIC", "-shared", "-Xlinker", "-Bsymbolic",
                           "-Xlinker", "--discard-all",
                           "-o", so_tmp, c_path};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        ft_vec_push(ctx, &argv, (void *)fixed[i]);
    if (blas)
        ft_vec_push(ctx, &argv, (void *)"-lcublas");
    ft_vec_push(ctx, &argv, NULL);
    return (char **)argv.items;
}

/* The C compiler's command line for compiling c_path into so_tmp; blas:
 * the module calls BLAS (as_lib), linked with -lopenblas (-lcublas on
 * CUDA, cg_nvcc_command).
 * -Bsymbolic (here and for nvcc) binds the library's calls of its own
 * exported functions to its own definitions: otherwise the description's
 * wrapper of an export named `step` or `time` called glibc's function of
 * that name, found first in the global scope (issue 17).
 * -ffile-prefix-map hides the private folder's random name from the debug
 * information and __FILE__, for reproducible builds. */
char **cg_cc_command(ft_ctx *ctx, const char *dir, const char *c_path, const char *so_tmp,
                     int blas)
{
    const char *cc = ctx->opts.cc ? ctx->opts.cc : getenv("FTC_CC");
    const char *flags = ctx->opts.cflags ? ctx->opts.cflags : getenv("FTC_CFLAGS");
    ft_vec argv = {0};
    cg_split_flags(ctx, cc && *cc ? cc : "cc", &argv);
    cg_split_flags(ctx, flags ? flags : "-O3 -march=native -fopenmp", &argv);
    const char *fixed[] = {"-shared", "-fPIC", "-Wl,-Bsymbolic",
                           ft_fmt(ctx, "-ffile-prefix-map=%s=ftc", dir),
                           "-o", so_tmp, c_path, "-lm"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        ft_vec_push(ctx, &argv, (void *)fixed[i]);
    if (blas)
        ft_vec_push(ctx, &argv, (void *)"-lopenblas");
    ft_vec_push(ctx, &argv, NULL);
    return (char **)argv.items;
}

/* The first bytes of a file as an arena string ("" if unreadable). */
static char *cg_read_log(ft_ctx *ctx, const char *path)
{
    enum { MAX = 16384 };
    char *buf = ft_alloc(ctx, MAX + 1);
    FILE *f = fopen(path, "r");
    if (!f)
        return buf;
    size_t n = fread(buf, 1, MAX, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The environment for the compiler: ours with TMPDIR set to dir, so that
 * its own temporaries (gcc's .s and .o files) go into the private folder. */
static char **cg_child_env(ft_ctx *ctx, const char *dir)
{
    ft_vec env = {0};
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "TMPDIR=", 7) != 0)
            ft_vec_push(ctx, &env, *e);
    ft_vec_push(ctx, &env, ft_fmt(ctx, "TMPDIR=%s", dir));
    ft_vec_push(ctx, &env, NULL);
    return (char **)env.items;
}

/* Start the compiler in a process group of its own (so that a signal's
 * cleanup stops it and whatever it started: runtime/cleanup.c), stdin
 * from /dev/null, stdout and stderr to log_path; registered as the child
 * before any signal can act.  Returns 0 or the error of posix_spawnp. */
static int cg_spawn(char **argv, char **env, const char *log_path, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    rt_cleanup_enter();
    int err = posix_spawnp(pid, argv[0], &fa, &attr, argv, env);
    if (!err)
        rt_cleanup_set_child(*pid);
    rt_cleanup_leave();
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return err;
}

/* Run the compiler of the build t with its output going to t->log_path;
 * 0 on success. */
static int cg_run_compiler(ft_ctx *ctx, char **argv, const cg_temps *t)
{
    if (ctx->opts.verbose) {
        fputs("ftc: running", ctx->diag_out);
        for (char **a = argv; *a; a++)
            fprintf(ctx->diag_out, " %s", *a);
        fputc('\n', ctx->diag_out);
    }
    pid_t pid;
    int err = cg_spawn(argv, cg_child_env(ctx, t->dir), t->log_path, &pid);
    if (err) {
        ft_error(ctx, (ft_loc){0}, "cannot run the C compiler '%s': %s (set --cc or $FTC_CC)",
                 argv[0], strerror(err));
        return 1;
    }
    int status;
    pid_t r;
    while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    rt_cleanup_set_child(0);
    if (r < 0) {
        ft_error(ctx, (ft_loc){0}, "waiting for the C compiler: %s", strerror(errno));
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    ft_error(ctx, (ft_loc){0}, "the C compiler '%s' failed (%s %d); its output:\n%s",
             argv[0], WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
             cg_read_log(ctx, t->log_path));
    return 1;
}

/* Seconds of the wall clock (CLOCK_MONOTONIC). */
static double cg_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds (user + system) of the children waited for so far. */
static double cg_children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* cg_run_compiler, its CPU and wall time recorded for --time-passes. */
static int cg_timed_compiler(ft_ctx *ctx, char **argv, const cg_temps *t)
{
    double wall = cg_wall_seconds(), cpu = cg_children_cpu();
    int r = cg_run_compiler(ctx, argv, t);
    ft_time_add(ctx, "cc (its CPU)", cg_children_cpu() - cpu);
    ft_time_add(ctx, "cc (wall)", cg_wall_seconds() - wall);
    return r;
}

/* Move the finished header and library into place together: renamed
 * while SIGINT/SIGTERM/SIGHUP are held and under an exclusive flock of
 * their folder, so that two builds to the same path leave the header and
 * the library of one of them (lang/reference.md, `ftc build`). */
static int cg_install(ft_ctx *ctx, cg_temps *t)
{
    char err[1024];
    if (rt_stage_commit(t->out, t->nout, 1, err, sizeof err)) {
        ft_error(ctx, (ft_loc){0}, "%s", err);
        return 1;
    }
    return 0;
}

/* The steps of a build, stopping at the first failure. */
static int cg_build_steps(ft_ctx *ctx, const ast_program *p, const char *so_path,
                          cg_temps *t)
{
    const char *base = cg_libname(ctx, so_path);
    if (cg_temp_dir(ctx, t))
        return 1;
    double t0 = ft_cpu_seconds();
    if (cg_write_file(ctx, p, t->c_path) ||
        cg_stage_header(ctx, t, p, cg_header_path(ctx, so_path), base))
        return 1;
    ft_time_mark(ctx, "emit C", t0);
    int fd = cg_stage(ctx, t, so_path, 0755);
    if (fd < 0)
        return 1;
    close(fd);
    char **cmd = ctx->target->command(ctx, t->dir, t->c_path, t->out[1].tmp,
                                      xf_program_uses_lib(p));
    if (!cmd || cg_timed_compiler(ctx, cmd, t))
        return 1;
    return cg_install(ctx, t);
}

int cg_build_library(ft_ctx *ctx, const ast_program *p, const char *so_path)
{
    cg_temps t = {.slots = {-1, -1, -1}};
    int rc = cg_build_steps(ctx, p, so_path, &t);
    int keep = ctx->opts.verbose > 1 && t.dir;
    if (keep)
        fprintf(ctx->diag_out, "ftc: generated C kept at %s\n", t.c_path);
    cg_temps_remove(&t, keep);
    return rc;
}
