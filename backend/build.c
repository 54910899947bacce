/* build.c - build a shared library from an AST program with the system C
 * compiler.
 *
 * Requires: a program cg_emit_c accepts.
 * Provides: so_path and the header beside it, both complete or both absent.
 *
 * Steps: the C text goes to a temporary file in $TMPDIR (or /tmp); the
 * compiler runs through posix_spawnp (no shell: the flags string is split
 * on whitespace, nothing else is interpreted) with its stdout and stderr
 * captured in another temporary file, quoted in the diagnostic when it
 * fails; the library and the header are written under temporary names in
 * the destination folder and renamed into place last.  Every temporary is
 * removed on every path.
 */
#include "cg.h"

#include "../transforms/lib_gemm.h"
#include "../ast/timer.h"

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

/* The temporary files of one build; NULL or "" where not created. */
typedef struct cg_temps {
    char *c_path;        /* the C translation unit */
    char *log_path;      /* the compiler's output */
    char *so_tmp;        /* the library, before rename */
    char *h_tmp;         /* the header, before rename */
} cg_temps;

/* Create a unique empty file from template tmpl (arena copy, "XXXXXX"
 * followed by suffix_len characters); returns its path or NULL. */
static char *cg_mktemp(ft_ctx *ctx, const char *tmpl, int suffix_len)
{
    char *path = ft_strdup(ctx, tmpl);
    int fd = mkstemps(path, suffix_len);
    if (fd < 0) {
        ft_error(ctx, (ft_loc){0}, "cannot create a temporary file '%s': %s", tmpl,
                 strerror(errno));
        return NULL;
    }
    close(fd);
    return path;
}

/* Remove every temporary that still exists. */
static void cg_temps_remove(const cg_temps *t)
{
    const char *paths[] = {t->c_path, t->log_path, t->so_tmp, t->h_tmp};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (paths[i])
            unlink(paths[i]);
}

/* The folder of path ("." when it has none), arena-owned. */
static char *cg_dirname(ft_ctx *ctx, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ft_strdup(ctx, ".");
    if (slash == path)
        return ft_strdup(ctx, "/");
    return ft_strndup(ctx, path, (size_t)(slash - path));
}

/* The header path for so_path: "x.so" -> "x.h", else so_path + ".h". */
static char *cg_header_path(ft_ctx *ctx, const char *so_path)
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

/* Write the C text of p to path, or its header when libname is set. */
static int cg_write_file(ft_ctx *ctx, const ast_program *p, const char *path,
                         const char *libname)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", path, strerror(errno));
        return 1;
    }
    int rc = libname ? cg_emit_header(ctx, p, libname, f)
             : ctx->opts.target_cuda ? cg_emit_cuda(ctx, p, f) : cg_emit_c(ctx, p, f);
    if (fclose(f) != 0 && !rc) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", path, strerror(errno));
        rc = 1;
    }
    return rc;
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
 * -arch from --arch (sm_90 by default); --cflags replace -O3. */
static char **cg_cuda_command(ft_ctx *ctx, const char *c_path, const char *so_tmp,
                              int blas)
{
    const char *nvcc = cg_find_nvcc(ctx);
    if (!nvcc)
        return NULL;
    const char *flags = ctx->opts.cflags ? ctx->opts.cflags : getenv("FTC_NVCCFLAGS");
    ft_vec argv = {0};
    ft_vec_push(ctx, &argv, (void *)nvcc);
    cg_split_flags(ctx, flags ? flags : "-O3", &argv);
    const char *fixed[] = {"-arch", ctx->opts.arch ? ctx->opts.arch : "sm_90", "-x", "cu",
                           "-Xcompiler", "-fPIC", "-shared", "-Xlinker", "-Bsymbolic",
                           "-o", so_tmp, c_path};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        ft_vec_push(ctx, &argv, (void *)fixed[i]);
    if (blas)
        ft_vec_push(ctx, &argv, (void *)"-lcublas");
    ft_vec_push(ctx, &argv, NULL);
    return (char **)argv.items;
}

/* The compiler's command line for compiling c_path into so_tmp; blas: the
 * module calls BLAS (as_lib), linked with -lopenblas (-lcublas on CUDA).
 * -Bsymbolic (here and for nvcc) binds the library's calls of its own
 * exported functions to its own definitions: otherwise the description's
 * wrapper of an export named `step` or `time` called glibc's function of
 * that name, found first in the global scope (issue 17). */
static char **cg_command(ft_ctx *ctx, const char *c_path, const char *so_tmp, int blas)
{
    if (ctx->opts.target_cuda)
        return cg_cuda_command(ctx, c_path, so_tmp, blas);
    const char *cc = ctx->opts.cc ? ctx->opts.cc : getenv("FTC_CC");
    const char *flags = ctx->opts.cflags ? ctx->opts.cflags : getenv("FTC_CFLAGS");
    ft_vec argv = {0};
    cg_split_flags(ctx, cc && *cc ? cc : "cc", &argv);
    cg_split_flags(ctx, flags ? flags : "-O3 -march=native -fopenmp", &argv);
    const char *fixed[] = {"-shared", "-fPIC", "-Wl,-Bsymbolic", "-o", so_tmp, c_path, "-lm"};
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

/* Run the compiler with its output going to log_path; 0 on success. */
static int cg_run_compiler(ft_ctx *ctx, char **argv, const char *log_path)
{
    if (ctx->opts.verbose) {
        fputs("ftc: running", ctx->diag_out);
        for (char **a = argv; *a; a++)
            fprintf(ctx->diag_out, " %s", *a);
        fputc('\n', ctx->diag_out);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log_path, O_WRONLY | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err) {
        ft_error(ctx, (ft_loc){0}, "cannot run the C compiler '%s': %s (set --cc or $FTC_CC)",
                 argv[0], strerror(err));
        return 1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            ft_error(ctx, (ft_loc){0}, "waiting for the C compiler: %s", strerror(errno));
            return 1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    ft_error(ctx, (ft_loc){0}, "the C compiler '%s' failed (%s %d); its output:\n%s",
             argv[0], WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
             cg_read_log(ctx, log_path));
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
static int cg_timed_compiler(ft_ctx *ctx, char **argv, const char *log_path)
{
    double wall = cg_wall_seconds(), cpu = cg_children_cpu();
    int r = cg_run_compiler(ctx, argv, log_path);
    ft_time_add(ctx, "cc (its CPU)", cg_children_cpu() - cpu);
    ft_time_add(ctx, "cc (wall)", cg_wall_seconds() - wall);
    return r;
}

/* Move the finished library and header into place; on failure neither is
 * left there. */
static int cg_install(ft_ctx *ctx, cg_temps *t, const char *so_path, const char *h_path)
{
    chmod(t->so_tmp, 0755);
    chmod(t->h_tmp, 0644);
    if (rename(t->h_tmp, h_path) != 0) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", h_path, strerror(errno));
        return 1;
    }
    t->h_tmp = NULL;
    if (rename(t->so_tmp, so_path) != 0) {
        ft_error(ctx, (ft_loc){0}, "cannot write '%s': %s", so_path, strerror(errno));
        unlink(h_path);
        return 1;
    }
    t->so_tmp = NULL;
    return 0;
}

/* The steps of a build, stopping at the first failure. */
static int cg_build_steps(ft_ctx *ctx, const ast_program *p, const char *so_path,
                          cg_temps *t)
{
    const char *tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir)
        tmpdir = "/tmp";
    const char *dir = cg_dirname(ctx, so_path);
    const char *base = cg_libname(ctx, so_path);
    if (!(t->c_path = cg_mktemp(ctx, ft_fmt(ctx, "%s/ftc-XXXXXX.c", tmpdir), 2)) ||
        !(t->log_path = cg_mktemp(ctx, ft_fmt(ctx, "%s/ftc-XXXXXX.log", tmpdir), 4)) ||
        !(t->so_tmp = cg_mktemp(ctx, ft_fmt(ctx, "%s/.%s.so.XXXXXX", dir, base), 0)) ||
        !(t->h_tmp = cg_mktemp(ctx, ft_fmt(ctx, "%s/.%s.h.XXXXXX", dir, base), 0)))
        return 1;
    double t0 = ft_cpu_seconds();
    if (cg_write_file(ctx, p, t->c_path, NULL) || cg_write_file(ctx, p, t->h_tmp, base))
        return 1;
    ft_time_mark(ctx, "emit C", t0);
    char **cmd = cg_command(ctx, t->c_path, t->so_tmp, xf_program_uses_lib(p));
    if (!cmd || cg_timed_compiler(ctx, cmd, t->log_path))
        return 1;
    return cg_install(ctx, t, so_path, cg_header_path(ctx, so_path));
}

int cg_build_library(ft_ctx *ctx, const ast_program *p, const char *so_path)
{
    cg_temps t = {0};
    int rc = cg_build_steps(ctx, p, so_path, &t);
    if (ctx->opts.verbose > 1 && t.c_path) {
        fprintf(ctx->diag_out, "ftc: generated C kept at %s\n", t.c_path);
        t.c_path = NULL;
    }
    cg_temps_remove(&t);
    return rc;
}
