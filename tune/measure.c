/* measure.c - the measuring runtime of `ftc tune` (see measure.h). */
#include "measure.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../ast/ast.h"
#include "../backend/cg.h"
#include "../frontend/driver.h"
#include "../runtime/ft_abi.h"
#include "../runtime/rt.h"

enum { MAX_ROUNDS = 64 };

static const char *const status_names[] = {"new", "ok", "wrong", "refused", "failed", "slow"};

const char *tn_status_name(tn_status s)
{
    return status_names[s];
}

tn_status tn_status_of(const char *word)
{
    for (int s = 0; s < (int)(sizeof status_names / sizeof *status_names); s++)
        if (!strcmp(word, status_names[s]))
            return (tn_status)s;
    return TN_NEW;
}

uint64_t tn_hash(const char *s, uint64_t h)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* The first diagnostic of text (without its "file:line:col: error: "
 * prefix) into why. */
static void first_error(const char *text, char *why, size_t n)
{
    const char *e = text ? strstr(text, "error: ") : NULL;
    const char *m = e ? e + 7 : text && *text ? text : "failed without a message";
    size_t len = strcspn(m, "\n");
    snprintf(why, n, "%.*s", (int)len, m);
}

/* "schedule FUNC:" and the lines of sched, each indented (arena-owned). */
static const char *block_text(ft_ctx *ctx, const char *func, const char *sched)
{
    size_t n = strlen(func) + 16;
    for (const char *q = sched; *q; q++)
        n += *q == '\n' ? 6 : 1;
    char *t = ft_alloc(ctx, n + 8), *o = t;
    o += sprintf(o, "schedule %s:\n    ", func);
    for (const char *q = sched; *q; q++) {
        *o++ = *q;
        if (*q == '\n')
            o += sprintf(o, "    ");
    }
    strcpy(o, "\n");
    return t;
}

/* A fresh ctx with the command line's options, its diagnostics going to
 * *diag, a memory stream over *buf (quiet_end closes it); NULL with why
 * set when out of memory. */
static ft_ctx *quiet_ctx(const tn_bench *b, FILE **diag, char **buf, size_t *len, char *why,
                         size_t n)
{
    ft_ctx *c = ft_ctx_new();
    *buf = NULL;
    *len = 0;
    *diag = NULL;
    if (!c) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    b->setup.apply(c, b->setup.data);
    if ((*diag = open_memstream(buf, len)) != NULL)
        c->diag_out = *diag;
    return c;
}

/* End quiet_ctx's stream: *buf then holds c's diagnostics. */
static void quiet_end(ft_ctx *c, FILE *diag)
{
    if (diag) {
        fclose(diag);
        c->diag_out = stderr;
    }
}

/* Compile b's program in a fresh *ctx (kept: its arena holds the result)
 * with `schedule FUNC:` + sched appended (sched NULL: none); b's function
 * renamed `name`, or NULL with the first error in why. */
static ast_func *compile_one(const tn_bench *b, const char *sched, const char *name,
                             ft_ctx **ctx, char *why, size_t n)
{
    char *buf;
    size_t len;
    FILE *diag;
    ft_ctx *c = *ctx = quiet_ctx(b, &diag, &buf, &len, why, n);
    if (!c)
        return NULL;
    ft_source *src = ft_source_read(c, b->path);
    ft_source *blk = src && sched ? ft_source_from_string(c, "<candidate>",
                                                          block_text(c, b->func, sched))
                                  : NULL;
    ast_program *p = src ? ft_compile_scheduled(c, src, blk, NULL, NULL) : NULL;
    ast_func *f = NULL;
    for (int i = 0; p && !c->nerrors && i < p->nfuncs; i++)
        if (!strcmp(p->funcs[i]->name, b->func))
            f = p->funcs[i];
    quiet_end(c, diag);
    if (f)
        f->name = ft_strdup(c, name);
    else
        first_error(buf, why, n);
    free(buf);
    return f;
}

/* Build the functions fs[0..nf) into the library so (one C compiler
 * call); 0, else 1 with the reason in why. */
static int build(const tn_bench *b, ast_func **fs, int nf, const char *so, char *why, size_t n)
{
    char *buf;
    size_t len;
    FILE *diag;
    ft_ctx *ctx = quiet_ctx(b, &diag, &buf, &len, why, n);
    if (!ctx)
        return 1;
    ast_program p = {.nfuncs = nf, .funcs = fs};
    int r = cg_build_library(ctx, &p, so) || ctx->nerrors;
    quiet_end(ctx, diag);
    if (r)
        first_error(buf, why, n);
    free(buf);
    ft_ctx_free(ctx);
    return r;
}

/* Build fs[0..nf) as two libraries, fs[0..half) into so[0] and the rest
 * into so[1], their C compiled at once (a forked process builds the
 * second: the C compiler takes a third of a batch's time, and the machine
 * has a core for each); 0, else 1 with the reason in why. */
static int build_halves(const tn_bench *b, ast_func **fs, int nf, int half, char *const so[2],
                        char *why, size_t n)
{
    int fds[2] = {-1, -1};   /* unchanged when pipe fails */
    pid_t pid = pipe(fds) ? -1 : fork();
    if (pid == 0) {                 /* the child: the second half */
        close(fds[0]);
        char w[200] = "";
        int r = build(b, fs + half, nf - half, so[1], w, sizeof w);
        ssize_t put = write(fds[1], w, strlen(w) + 1);
        _exit(r || put < 0);
    }
    if (pid < 0) {                  /* no process: one after the other */
        if (fds[0] >= 0) {
            close(fds[0]);
            close(fds[1]);
        }
        return build(b, fs, half, so[0], why, n) ||
               build(b, fs + half, nf - half, so[1], why, n);
    }
    close(fds[1]);
    int r = build(b, fs, half, so[0], why, n);
    char w[200];
    ssize_t got;
    while ((got = read(fds[0], w, sizeof w - 1)) < 0 && errno == EINTR)
        ;
    w[got > 0 ? got : 0] = 0;     /* one write of under PIPE_BUF bytes */
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!r && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        snprintf(why, n, "%s", *w ? w : "the second library's build failed");
        r = 1;
    }
    return r;
}

/* The call of function name of lib on b's sizes and random inputs (the
 * same for every function: the seed and the parameter names give them;
 * o outlives the call), or NULL with the reason in why. */
static rt_call *prepare(rt_lib *lib, const tn_bench *b, const char *name, const rt_run_opts *o,
                        char *why, size_t n)
{
    const ft_func_desc *fn = rt_find(lib, name);
    char *buf = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&buf, &len);
    rt_call *c = fn && err ? rt_prepare(lib, fn, b->nargs, b->args, o, err, err) : NULL;
    if (err)
        fclose(err);
    if (!c)
        first_error(buf, why, n);
    free(buf);
    return c;
}

/* Whether the outputs of a (a candidate's call) match r's (the untuned
 * function's); why says the first that does not. */
static int same_outputs(rt_call *a, rt_call *r, const ft_func_desc *fn, char *why, size_t n)
{
    for (int k = 0; k < fn->nparams; k++) {
        const ft_param_desc *d = &fn->params[k];
        if (d->kind != FT_PARAM_TENSOR || d->access == FT_ABI_IN)
            continue;
        const rt_array *x = rt_call_array(a, k), *y = rt_call_array(r, k);
        size_t es = rt_dtype_size(d->dtype), cnt = x->nbytes / (es ? es : 1);
        if (d->dtype != FT_ABI_F32 && d->dtype != FT_ABI_F64) {
            if (memcmp(x->data, y->data, x->nbytes)) {
                snprintf(why, n, "output %s differs from the untuned function's", d->name);
                return 0;
            }
            continue;
        }
        double scale = 1, diff = 0;
        for (size_t i = 0; i < cnt; i++) {
            double u = d->dtype == FT_ABI_F32 ? ((const float *)x->data)[i]
                                              : ((const double *)x->data)[i];
            double v = d->dtype == FT_ABI_F32 ? ((const float *)y->data)[i]
                                              : ((const double *)y->data)[i];
            scale = fmax(scale, fabs(v));
            diff = isnan(u) != isnan(v) ? INFINITY : fmax(diff, fabs(u - v));
        }
        if (!(diff <= 1e-4 * scale)) {
            snprintf(why, n, "output %s differs from the untuned function's by %.3g", d->name,
                     diff / scale);
            return 0;
        }
    }
    return 1;
}

/* Test hook: change the first element of c's first output. */
static void spoil(rt_call *c, const ft_func_desc *fn)
{
    for (int k = 0; k < fn->nparams; k++) {
        const ft_param_desc *d = &fn->params[k];
        rt_array *x = rt_call_array(c, k);
        if (d->kind == FT_PARAM_TENSOR && d->access != FT_ABI_IN && x->nbytes) {
            ((unsigned char *)x->data)[x->nbytes - 1] ^= 0x40;
            return;
        }
    }
}

/* One timed sample of c: a call untimed (it takes what the function timed
 * before left: caches, idle threads), then *reps calls, *reps set on the
 * first sample to last about 10 ms; seconds per call, or -1 when a call
 * fails.  On the first sample, an untimed call over limit seconds is the
 * sample (the candidate is then cut, without more calls that slow). */
static double sample(rt_call *c, int *reps, double limit)
{
    double t0 = rt_now();
    if (rt_call_again(c, 0))
        return -1;
    if (!*reps) {
        double t = rt_now() - t0;
        if (t > limit)
            return t;
        t0 = rt_now();
        if (rt_call_again(c, 0))
            return -1;
        t = rt_now() - t0;
        *reps = t >= 0.01 ? 1 : t <= 1e-5 ? 1000 : (int)(0.01 / t);
        return t;
    }
    t0 = rt_now();
    for (int i = 0; i < *reps; i++)
        if (rt_call_again(c, 0))
            return -1;
    return (rt_now() - t0) / *reps;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The timing of the calls calls[0..n) (calls[0]: the untuned function,
 * never cut): rounds in rotated order, medians into ms[], cut[] set for
 * those cut after the first round. */
static void time_rounds(rt_call **calls, int n, int rounds, double *ms, int *cut,
                        volatile const int *stop)
{
    double *t = calloc((size_t)n * MAX_ROUNDS + 1, sizeof *t);
    int *reps = calloc((size_t)n + 1, sizeof *reps), *got = calloc((size_t)n + 1, sizeof *got);
    if (!t || !reps || !got) {
        free(t), free(reps), free(got);
        for (int k = 0; k < n; k++)
            ms[k] = -1;
        return;
    }
    rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
    for (int r = 0; r < rounds && !(r && *stop); r++) {
        for (int j = 0; j < n; j++) {
            int k = (j + r) % n;
            if (!cut[k] && ms[k] >= 0) {
                /* calls[0], the untuned function, runs first in round 0 */
                double limit = k && got[0] ? fmax(0.05, 0.02 * t[0]) : INFINITY;
                double s = sample(calls[k], &reps[k], limit);
                if (s < 0)
                    ms[k] = -1;
                else
                    t[k * MAX_ROUNDS + got[k]++] = s * 1e3;
            }
        }
        if (r == 0) {
            double best = INFINITY;
            for (int k = 0; k < n; k++)
                if (ms[k] >= 0 && got[k])
                    best = fmin(best, t[k * MAX_ROUNDS]);
            for (int k = 1; k < n; k++)
                cut[k] = ms[k] >= 0 && got[k] && t[k * MAX_ROUNDS] > 4 * best;
        }
    }
    for (int k = 0; k < n; k++)
        if (ms[k] >= 0 && got[k]) {
            qsort(t + k * MAX_ROUNDS, (size_t)got[k], sizeof *t, cmp_double);
            ms[k] = t[k * MAX_ROUNDS + got[k] / 2];
        }
    free(t), free(reps), free(got);
}

/* Check the built candidates (index map idx[1..nb) into c, idx[0] the
 * untuned function; those from half on in lib[1], the others in lib[0])
 * against the untuned function, then time them. */
static int check_and_time(const tn_bench *b, rt_lib *const lib[2], int half, tn_cand *c,
                          const int *idx, char **names, int nb, double *ref_ms,
                          volatile const int *stop, char *err, size_t errlen)
{
    rt_call **calls = calloc((size_t)nb + 1, sizeof *calls);
    double *ms = calloc((size_t)nb + 1, sizeof *ms);
    int *cut = calloc((size_t)nb + 1, sizeof *cut), r = 0;
    if (!calls || !ms || !cut) {
        snprintf(err, errlen, "out of memory");
        r = 1;
        goto out;
    }
    const ft_func_desc *fn = rt_find(lib[0], b->func);
    const rt_run_opts o = {.random = 1, .seed = b->seed};
    int code;
    if (!(calls[0] = prepare(lib[0], b, b->func, &o, err, errlen)) ||
        (code = rt_call_again(calls[0], 1)) != 0) {
        if (calls[0])
            snprintf(err, errlen, "the untuned function returned %d (%s)", code,
                     rt_code_text(code));
        r = 1;
        goto out;
    }
    for (int j = 1; j < nb; j++) {
        tn_cand *cd = &c[idx[j]];
        calls[j] = prepare(lib[j >= half], b, names[j], &o, cd->why, sizeof cd->why);
        if (!calls[j] || (code = rt_call_again(calls[j], 1)) != 0) {
            if (calls[j])
                snprintf(cd->why, sizeof cd->why, "its call returned %d (%s)", code,
                         rt_code_text(code));
            cd->status = TN_FAILED;
            ms[j] = -1;
            continue;
        }
        if (idx[j] == b->wrong)
            spoil(calls[j], fn);
        if (!same_outputs(calls[j], calls[0], fn, cd->why, sizeof cd->why)) {
            cd->status = TN_WRONG;
            ms[j] = -1;
        }
    }
    time_rounds(calls, nb, b->rounds, ms, cut, stop);
    *ref_ms = ms[0];
    for (int j = 1; j < nb; j++) {
        tn_cand *cd = &c[idx[j]];
        if (cd->status == TN_NEW && ms[j] >= 0) {
            cd->status = cut[j] ? TN_SLOW : TN_OK;
            cd->ms = ms[j];
            cd->ref_ms = ms[0];
        } else if (cd->status == TN_NEW) {
            cd->status = TN_FAILED;
            snprintf(cd->why, sizeof cd->why, "a timed call failed");
        }
    }
out:
    for (int j = 0; calls && j < nb; j++)
        rt_call_free(calls[j]);
    free(calls), free(ms), free(cut);
    return r;
}

int tn_measure(const tn_bench *b, tn_cand *c, int n, double *ref_ms,
               volatile const int *stop, char *err, size_t errlen)
{
    ft_ctx **ctxs = calloc((size_t)n + 1, sizeof *ctxs);
    ast_func **fs = calloc((size_t)n + 1, sizeof *fs);
    int *idx = calloc((size_t)n + 1, sizeof *idx);
    char **names = calloc((size_t)n + 1, sizeof *names);
    char *so[2] = {NULL, NULL};
    rt_lib *lib[2] = {NULL, NULL};
    int nb = 0, r = 1;
    *ref_ms = -1;
    if (!ctxs || !fs || !idx || !names || asprintf(&so[0], "%s/libtune.so", b->dir) < 0 ||
        asprintf(&so[1], "%s/libtune2.so", b->dir) < 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (!(fs[nb++] = compile_one(b, NULL, b->func, &ctxs[0], err, errlen)))
        goto out;
    for (int k = 0; k < n && !*stop; k++) {
        if (c[k].status != TN_NEW)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s__c%d", b->func, k);
        ast_func *f = compile_one(b, c[k].sched, name, &ctxs[nb], c[k].why, sizeof c[k].why);
        if (!f) {
            c[k].status = TN_REFUSED;
            ft_ctx_free(ctxs[nb]);
            ctxs[nb] = NULL;
            continue;
        }
        idx[nb] = k;
        names[nb] = strdup(name);
        fs[nb++] = f;
    }
    int half = nb < 3 ? nb : (nb + 1) / 2;
    char why[200];
    if (half < nb ? build_halves(b, fs, nb, half, so, why, sizeof why)
                  : build(b, fs, nb, so[0], why, sizeof why)) {
        snprintf(err, errlen, "the candidates did not build: %s", why);
        goto out;
    }
    char msg[512];
    for (int h = 0; h < 1 + (half < nb); h++)
        if (!(lib[h] = rt_open(so[h], msg, sizeof msg))) {
            snprintf(err, errlen, "%s", msg);
            goto out;
        }
    r = check_and_time(b, lib, half, c, idx, names, nb, ref_ms, stop, err, errlen);
out:
    for (int h = 0; h < 2; h++) {
        if (lib[h])
            rt_close(lib[h]);
        if (so[h])
            remove(so[h]);
        free(so[h]);
    }
    for (int k = 0; k < nb; k++) {
        ft_ctx_free(ctxs[k]);
        free(names[k]);
    }
    free(ctxs), free(fs), free(idx), free(names);
    return r;
}
