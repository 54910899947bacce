/* tune.c - `ftc tune` (see tune.h): functions, sizes, the log, the budget,
 * Ctrl-C, progress and the schedule file.
 *
 * The log is append-only text, one record per measurement, flushed after
 * each:
 *   task=HASH cand=HASH fn=HASH func=F sizes="n=8" status=ok ms=1.234 ref=2.5 host=H ftc=V cflags="..." sched="a; b; auto"
 * fn hashes the function as the schedule sees it (printed before the `schedule` pass),
 * the C flags and ftc's version; task hashes fn and the sizes; cand hashes
 * the block.  A rerun reads the records of the same task and measures only
 * what they lack; a task whose function the log holds at other sizes
 * measures the best quarter of that ranking only (a warm start); `ftc
 * build --tune-log` applies each function's best record (tn_log_schedules).
 */
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../frontend/driver.h"
#include "../runtime/cleanup.h"
#include "../runtime/rt.h"
#include "../runtime/stage.h"

enum { CHUNK = 8, ROUNDS = 5 };

/* The flag SIGINT sets while tuning: measuring stops, the best so far is
 * written.  The handler puts back the previous one, so that a second
 * Ctrl-C ends ftc as usual. */
static volatile sig_atomic_t tn_stop_flag;
static struct sigaction tn_old_int;

static void tn_on_int(int sig)
{
    (void)sig;
    tn_stop_flag = 1;
    sigaction(SIGINT, &tn_old_int, NULL);
}

/* A record read from the log. */
typedef struct record {
    uint64_t task, cand, fn;
    tn_status status;
    double ms, ref_ms;
    char *sched;               /* the block, lines "\n"-separated (malloc-owned) */
} record;

/* The block of a record's sched="..." field (its "; " back to lines), or
 * NULL. */
static char *sched_field(const char *line)
{
    const char *q = strstr(line, " sched=\"");
    if (!q)
        return NULL;
    q += 8;
    const char *e = strchr(q, '"');
    if (!e)
        return NULL;
    char *out = malloc((size_t)(e - q) + 1), *o = out;
    for (; out && q < e; q++) {
        if (q[0] == ';' && q[1] == ' ') {
            *o++ = '\n';
            q++;
        } else {
            *o++ = *q;
        }
    }
    if (out)
        *o = 0;
    return out;
}

static void free_records(record *recs, int n)
{
    for (int i = 0; i < n; i++)
        free(recs[i].sched);
    free(recs);
}

/* The records of the log at path (none when it does not exist yet) into
 * *recs; their number, or -1 after an error printed. */
static int read_log(const char *path, record **recs)
{
    *recs = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : (fprintf(stderr, "ftc: error: cannot read the tuning log "
                                              "'%s': %s\n", path, strerror(errno)), -1);
    int n = 0, cap = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        unsigned long long t, c, fn;
        char st[16];
        double ms;
        const char *s = strstr(line, " status=");
        const char *m = strstr(line, " ms=");
        const char *h = strstr(line, " fn=");
        const char *rf = strstr(line, " ref=");
        double ref = -1;
        if (rf)
            sscanf(rf, " ref=%lf", &ref);
        if (sscanf(line, "task=%llx cand=%llx", &t, &c) != 2 || !s || !m || !h ||
            sscanf(h, " fn=%llx", &fn) != 1 || !strchr(line, '\n') ||
            sscanf(s, " status=%15s", st) != 1 || sscanf(m, " ms=%lf", &ms) != 1)
            continue;                  /* a line cut by a crash: measured again */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            record *r = realloc(*recs, sizeof *r * (size_t)cap);
            if (!r)
                break;
            *recs = r;
        }
        (*recs)[n++] = (record){t, c, fn, tn_status_of(st), ms, ref, sched_field(line)};
    }
    fclose(f);
    return n;
}

/* The last "NAME=N" --size gives for name, or NULL. */
static const char *size_value(const tn_opts *o, const char *name)
{
    const char *v = NULL;
    size_t len = strlen(name);
    for (int k = 0; k < o->nsizes; k++)
        if (!strncmp(o->sizes[k], name, len) && o->sizes[k][len] == '=')
            v = o->sizes[k];
    return v;
}

/* The sizes of f's calls ("NAME=N" from --size) into *args; 0, or 1 after
 * an error printed (a size parameter without a value). */
static int size_args(const tn_opts *o, const ast_func *f, char ***args, int *nargs)
{
    *nargs = 0;
    *args = calloc((size_t)f->nparams + 1, sizeof **args);
    if (!*args)
        return 1;
    for (int i = 0; i < f->nparams; i++) {
        if (!f->params[i].is_size)
            continue;
        const char *v = size_value(o, f->params[i].name);
        if (!v) {
            fprintf(stderr, "ftc: error: %s has the size parameter '%s': give its value with "
                    "--size %s=N (the tuner runs the function at those sizes)\n", f->name,
                    f->params[i].name, f->params[i].name);
            return 1;
        }
        (*args)[(*nargs)++] = (char *)v;
    }
    return 0;
}

/* The hash of a function: f as the schedule sees it, the C flags and
 * ftc's version. */
static uint64_t fn_hash(const tn_opts *o, const ast_func *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    uint64_t h = TN_HASH0;
    if (m) {
        ast_print_func(m, f);
        fclose(m);
        h = tn_hash(text ? text : "", h);
    }
    free(text);
    h = tn_hash(o->cflags ? o->cflags : "", tn_hash(" cflags ", h));
    return tn_hash(o->version, tn_hash(" ftc ", h));
}

/* The hash of a task: its function's and the sizes of its calls. */
static uint64_t task_hash(uint64_t fn, char **args, int nargs)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)fn);
    uint64_t h = tn_hash(buf, TN_HASH0);
    for (int i = 0; i < nargs; i++)
        h = tn_hash(args[i], tn_hash(" ", h));
    return h;
}

/* One function's tuning state. */
typedef struct task {
    ast_func *f;
    char **args;
    int nargs;
    uint64_t fn, hash;
    tn_cand *c;
    int n;
    double ref_ms;
    int out_of_time;        /* measure_task stopped at its deadline */
} task;

/* Append the record of candidate c of task t to log (flushed). */
static void log_record(FILE *log, const tn_opts *o, const task *t, const tn_cand *c)
{
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    fprintf(log, "task=%016llx cand=%016llx fn=%016llx func=%s sizes=\"",
            (unsigned long long)t->hash, (unsigned long long)c->hash,
            (unsigned long long)t->fn, t->f->name);
    for (int i = 0; i < t->nargs; i++)
        fprintf(log, "%s%s", i ? "," : "", t->args[i]);
    int timed = c->status == TN_OK || c->status == TN_SLOW;
    fprintf(log, "\" status=%s ms=%.6g ref=%.6g host=%s ftc=%s cflags=\"%s\" sched=\"",
            tn_status_name(c->status), timed ? c->ms : -1.0, timed ? c->ref_ms : -1.0, host,
            o->version, o->cflags ? o->cflags : "");
    for (const char *q = c->sched; *q; q++)
        fputs(*q == '\n' ? "; " : *q == '"' ? "'" : (char[2]){*q, 0}, log);
    fprintf(log, "\"%s%s\n", c->why[0] ? " why=" : "", c->why);
    fflush(log);
}

/* A measured time relative to the untuned function's in the same rounds
 * (the time itself when that is unknown). */
static double score(double ms, double ref_ms)
{
    return ref_ms > 0 ? ms / ref_ms : ms;
}

/* The best measured candidate of c[0..n) (c[0] is the untuned
 * function) that tunes nest (any when nest < 0), or -1. */
static int best_of(const tn_cand *c, int n, int nest)
{
    int b = -1;
    for (int k = 0; k < n; k++)
        if (c[k].status == TN_OK && (nest < 0 || c[k].nest == nest) &&
            (b < 0 || score(c[k].ms, c[k].ref_ms) < score(c[b].ms, c[b].ref_ms)))
            b = k;
    return b;
}

/* The candidate of c[0..n) to build: the best measured one when it beat
 * the untuned function timed in the same rounds (on a loaded machine the
 * untuned function's own candidate, `auto`, can be cut off as slow while
 * slower ones are not), else -1: `auto`, so that tuning never makes a
 * function slower. */
static int chosen(const tn_cand *c, int n)
{
    int b = best_of(c, n, -1);
    return b >= 0 && score(c[b].ms, c[b].ref_ms) < 1 ? b : -1;
}

/* The record of cand in task, or NULL. */
static const record *find_record(const record *recs, int nrecs, uint64_t task, uint64_t cand)
{
    for (int i = 0; i < nrecs; i++)
        if (recs[i].task == task && recs[i].cand == cand && recs[i].status != TN_NEW)
            return &recs[i];
    return NULL;
}

/* Candidate c as the log's record r measured it. */
static void take_record(tn_cand *c, const record *r)
{
    c->status = r->status;
    c->ms = r->ms;
    c->ref_ms = r->ref_ms;
}

/* The task of the last record of function fn at other sizes than task,
 * or 0. */
static uint64_t warm_task(const record *recs, int nrecs, uint64_t fn, uint64_t task)
{
    for (int i = nrecs - 1; i >= 0; i--)
        if (recs[i].fn == fn && recs[i].task != task)
            return recs[i].task;
    return 0;
}

/* The rank of a candidate in a warm start: its time in the task warm
 * (candidates not timed there after all that were). */
static double warm_rank(const record *recs, int nrecs, uint64_t warm, const tn_cand *c)
{
    const record *r = find_record(recs, nrecs, warm, c->hash);
    double s = r ? score(r->ms, r->ref_ms) : 0;
    return r && r->status == TN_OK ? s : r && r->status == TN_SLOW ? 1e12 + s : 1e300;
}

/* Candidates of t from the log: the status and time of their records; a
 * task without records but its function recorded at other sizes (a warm
 * start) keeps the quarter of its candidates fastest there (at least 2,
 * the untuned function among them), in that order, and drops the rest. */
static void from_log(task *t, const record *recs, int nrecs, FILE *progress)
{
    int own = 0;
    for (int k = 0; k < t->n; k++) {
        const record *r = find_record(recs, nrecs, t->hash, t->c[k].hash);
        if (r) {
            take_record(&t->c[k], r);
            own = 1;
        }
    }
    uint64_t warm = own ? 0 : warm_task(recs, nrecs, t->fn, t->hash);
    if (!warm)
        return;
    for (int a = 1; a < t->n; a++)          /* insertion sort by the warm times */
        for (int b = a; b > 1 && warm_rank(recs, nrecs, warm, &t->c[b]) <
                                 warm_rank(recs, nrecs, warm, &t->c[b - 1]); b--) {
            tn_cand x = t->c[b];
            t->c[b] = t->c[b - 1];
            t->c[b - 1] = x;
        }
    int keep = t->n / 4 < 2 ? 2 : t->n / 4;
    keep = keep > t->n ? t->n : keep;
    for (int k = keep; k < t->n; k++)
        free(t->c[k].sched);
    fprintf(progress, "%s: warm start from its records at other sizes: %d of %d candidates\n",
            t->f->name, keep, t->n);
    t->n = keep;
}

/* The lines of block b without its last line `auto`, each line once
 * across the blocks joined so far in *text (malloc-owned, grown). */
static int append_lines(char **text, const char *b)
{
    const char *end = b + strlen(b);
    if (end - b >= 5 && !strcmp(end - 4, "auto"))
        end -= 4;
    for (const char *q = b; q < end;) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        size_t len = (size_t)((nl ? nl : end) - q);
        char *line = strndup(q, len), *grown = NULL;
        int seen = 0;
        for (const char *t = *text; line && len && (t = strstr(t, line)) != NULL; t++)
            seen |= (t == *text || t[-1] == '\n') && (t[len] == '\n' || !t[len]);
        if (!line || (len && !seen && asprintf(&grown, "%s%s%s", *text, **text ? "\n" : "",
                                               line) < 0)) {
            free(line);
            return 1;
        }
        if (grown) {
            free(*text);
            *text = grown;
        }
        free(line);
        q += len + 1;
    }
    return 0;
}

/* With two or more task nests in t's function whose best candidates beat
 * the untuned function (or only were measured, with `any`: a test hook;
 * then a nest whose candidates were all cut as slow gives its first),
 * the block joining those candidates' lines (each nest's own; a nest alone
 * leaves the others to `auto`) is inserted as candidate `at` (<= t->n; its
 * record taken from recs when the log has one) unless t has it already: it
 * is measured in the next batch.  0, or 1 when out of memory. */
static int add_combination(task *t, int at, int any_best, const record *recs, int nrecs)
{
    char *text = strdup("");
    int parts = 0;
    for (int nest = 1; text; nest++) {
        int any = 0;
        for (int k = 0; k < t->n; k++)
            any |= t->c[k].nest == nest;
        if (!any)
            break;
        int b = best_of(t->c, t->n, nest);
        for (int k = 0; any_best && b < 0 && k < t->n; k++)
            if (t->c[k].nest == nest && t->c[k].status == TN_SLOW)
                b = k;          /* cut as slow on a loaded machine: still joined */
        if (b < 0 || (!any_best && score(t->c[b].ms, t->c[b].ref_ms) >= 1))
            continue;
        if (append_lines(&text, t->c[b].sched)) {
            free(text);
            return 1;
        }
        parts++;
    }
    char *block = NULL;
    if (!text || parts < 2 || asprintf(&block, "%s\nauto", text) < 0) {
        free(text);
        return !text;
    }
    free(text);
    uint64_t h = tn_hash(block, TN_HASH0);
    for (int k = 0; k < t->n; k++)
        if (t->c[k].hash == h) {
            free(block);
            return 0;
        }
    tn_cand *c = realloc(t->c, sizeof *c * (size_t)(t->n + 1));
    if (!c) {
        free(block);
        return 1;
    }
    t->c = c;
    memmove(c + at + 1, c + at, sizeof *c * (size_t)(t->n - at));
    c[at] = (tn_cand){.sched = block, .hash = h};
    t->n++;
    const record *r = find_record(recs, nrecs, t->hash, h);
    if (r)
        take_record(&c[at], r);
    return 0;
}

/* Measure t's new candidates in chunks while the budget and Ctrl-C allow;
 * 0, or 1 after an error. */
static int measure_task(const tn_opts *o, task *t, const char *dir, FILE *log, int ti,
                        int ntasks, double deadline, const record *recs, int nrecs,
                        FILE *progress)
{
    const char *wrong = getenv("FTC_TUNE_WRONG");
    tn_bench b = {.path = o->path, .func = t->f->name, .nargs = t->nargs, .args = t->args,
                  .seed = o->seed, .setup = o->setup, .dir = dir, .rounds = ROUNDS,
                  .wrong = -1};
    int done = 0;
    for (int k = 0; k < t->n; k++)
        done += t->c[k].status != TN_NEW;
    double chunk_s = 0;
    /* FTC_TUNE_CHUNK: smaller batches (tests: a joined block measured soon) */
    int chunk = getenv("FTC_TUNE_CHUNK") && atoi(getenv("FTC_TUNE_CHUNK")) > 0
                ? atoi(getenv("FTC_TUNE_CHUNK")) : CHUNK;
    /* FTC_TUNE_JOIN_ANY: join each nest's best even when slower (tests) */
    int any_best = getenv("FTC_TUNE_JOIN_ANY") != NULL;
    for (int start = 0;; start += chunk) {
        if (start > t->n)       /* the last batch was short: a join goes last */
            start = t->n;
        if (start && add_combination(t, start, any_best, recs, nrecs)) {
            fprintf(stderr, "ftc: error: out of memory\n");
            return 1;
        }
        if (start >= t->n || tn_stop_flag)
            break;
        int len = t->n - start < chunk ? t->n - start : chunk, fresh = 0;
        for (int k = start; k < start + len; k++)
            fresh += t->c[k].status == TN_NEW;
        if (!fresh)
            continue;
        if (deadline > 0 && rt_now() + chunk_s > deadline) {
            t->out_of_time = 1;
            break;
        }
        b.wrong = wrong && atoi(wrong) >= start && atoi(wrong) < start + len
                  ? atoi(wrong) - start : -1;
        double t0 = rt_now(), ref;
        char err[512];
        if (tn_measure(&b, t->c + start, len, &ref, &tn_stop_flag, err, sizeof err)) {
            fprintf(stderr, "ftc: error: %s: %s\n", t->f->name, err);
            return 1;
        }
        chunk_s = rt_now() - t0;
        t->ref_ms = ref;
        for (int k = start; k < start + len; k++)
            if (t->c[k].status != TN_NEW) {
                log_record(log, o, t, &t->c[k]);
                done++;
                if (o->verbose)
                    fprintf(progress, "  %s %.4g ms: %s%s%s\n", tn_status_name(t->c[k].status),
                            t->c[k].ms, t->c[k].sched, t->c[k].why[0] ? "\n    " : "",
                            t->c[k].why);
            }
        int bi = best_of(t->c, t->n, -1);
        fprintf(progress, "[%d/%d] %s: %d/%d candidates, best %.3g ms (auto %.3g ms)\n",
                ti + 1, ntasks, t->f->name, done, t->n, bi >= 0 ? t->c[bi].ms : NAN,
                bi >= 0 ? t->c[bi].ref_ms : t->ref_ms);
    }
    return 0;
}

/* The tasks of p (o->funcs, else every function without a schedule
 * block) into *ts, *n of them (also after an error: the caller frees
 * them); 0, or 1 after an error printed. */
static int find_tasks(const tn_opts *o, ft_ctx *ctx, ast_program *p, task **ts, int *n)
{
    *ts = calloc((size_t)p->nfuncs + 1, sizeof **ts);
    *n = 0;
    for (int k = 0; k < o->nfuncs; k++) {
        int found = 0;
        for (int i = 0; i < p->nfuncs; i++)
            found |= !strcmp(p->funcs[i]->name, o->funcs[k]);
        if (!found) {
            fprintf(stderr, "ftc: error: %s has no exported function '%s'\n", o->path,
                    o->funcs[k]);
            return 1;
        }
    }
    for (int i = 0; *ts && i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        int asked = !o->nfuncs;
        for (int k = 0; k < o->nfuncs; k++)
            asked |= !strcmp(f->name, o->funcs[k]);
        if (!asked || f->ad_fwd || (ast_has_schedule(p, f->name) && !o->nfuncs))
            continue;
        if (ast_has_schedule(p, f->name)) {
            fprintf(stderr, "ftc: error: %s has a schedule block: the tuner writes one; "
                    "remove it (or put it in a --schedule file) to tune %s\n", f->name,
                    f->name);
            return 1;
        }
        task *t = &(*ts)[(*n)++];
        t->f = f;
        t->ref_ms = -1;
        if (size_args(o, f, &t->args, &t->nargs))
            return 1;
        t->fn = fn_hash(o, f);
        t->hash = task_hash(t->fn, t->args, t->nargs);
        ft_vec blocks = {0};
        tn_candidates(ctx, f, o->knobs, &blocks);
        t->c = calloc((size_t)blocks.len + 1, sizeof *t->c);
        for (int k = 0; t->c && k < blocks.len; k++) {
            const tn_block *b = blocks.items[k];
            t->c[t->n].sched = strdup(b->sched);
            t->c[t->n].hash = tn_hash(b->sched, TN_HASH0);
            t->c[t->n].nest = b->nest;
            t->n++;
        }
    }
    return !*ts;
}

/* Write the best block of every task to o->out (all or nothing). */
static int write_schedules(const tn_opts *o, const task *ts, int n)
{
    char err[512];
    rt_stage st;
    int fd = rt_stage_open(&st, o->out, 0666, err, sizeof err);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "ftc: error: %s\n", fd < 0 ? err : strerror(errno));
        if (fd >= 0)
            close(fd);
        rt_stage_free(&st, 1);
        return 1;
    }
    fprintf(f, "# ftc tune %s: the best measured schedule of each function\n", o->path);
    for (int i = 0; i < n; i++) {
        int b = chosen(ts[i].c, ts[i].n);
        const char *s = b >= 0 ? ts[i].c[b].sched : "auto";
        if (b >= 0)
            fprintf(f, "\n# %s: %.4g ms (the auto-scheduler alone: %.4g ms, measured with it)",
                    ts[i].f->name, ts[i].c[b].ms, ts[i].c[b].ref_ms);
        else
            fprintf(f, "\n# %s: no candidate measured faster than the auto-scheduler alone",
                    ts[i].f->name);
        fprintf(f, "\nschedule %s:\n    ", ts[i].f->name);
        for (const char *q = s; *q; q++)
            fputs(*q == '\n' ? "\n    " : (char[2]){*q, 0}, f);
        fputc('\n', f);
    }
    int bad = fclose(f) != 0;
    if (bad || rt_stage_commit(&st, 1, 0, err, sizeof err)) {
        fprintf(stderr, "ftc: error: cannot write '%s': %s\n", o->out,
                bad ? strerror(errno) : err);
        rt_stage_free(&st, 1);
        return 1;
    }
    rt_stage_free(&st, 1);
    return 0;
}

/* A private folder for the candidates' libraries (removed on a signal). */
static char *make_dir(int *slot)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = NULL;
    if (asprintf(&dir, "%s/ftc-tune-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
        return NULL;
    rt_cleanup_enter();
    if (mkdtemp(dir))
        *slot = rt_cleanup_add(dir, 1);
    else {
        fprintf(stderr, "ftc: error: cannot create a temporary folder '%s': %s\n", dir,
                strerror(errno));
        free(dir);
        dir = NULL;
    }
    rt_cleanup_leave();
    return dir;
}

/* Tune the tasks of p with the log at log_path. */
static int tune_tasks(const tn_opts *o, task *ts, int n, const char *log_path, FILE *progress)
{
    record *recs;
    int nrecs = read_log(log_path, &recs);
    FILE *log = nrecs >= 0 ? fopen(log_path, "a") : NULL;
    if (!log) {
        if (nrecs >= 0)
            fprintf(stderr, "ftc: error: cannot write the tuning log '%s': %s\n", log_path,
                    strerror(errno));
        free_records(recs, nrecs);
        return 1;
    }
    int slot = -1, r = 0;
    char *dir = make_dir(&slot);
    /* each task gets an even share of the budget left (what one leaves
     * goes to the next): a gradient's g_bwd is not starved by g_fwd */
    double deadline = o->budget_s > 0 ? rt_now() + o->budget_s : 0;
    int spent = 0;
    for (int i = 0; dir && i < n && !r && !tn_stop_flag; i++) {
        from_log(&ts[i], recs, nrecs, progress);
        double share = deadline > 0 ? rt_now() + (deadline - rt_now()) / (n - i) : 0;
        r = measure_task(o, &ts[i], dir, log, i, n, share, recs, nrecs, progress);
        spent |= ts[i].out_of_time;
    }
    if (dir) {
        rt_cleanup_enter();
        rt_cleanup_remove_dir(dir);
        rt_cleanup_forget(slot);
        rt_cleanup_leave();
    }
    if (tn_stop_flag)
        fprintf(progress, "interrupted: writing the best schedules found so far\n");
    else if (spent)
        fprintf(progress, "the budget is spent: writing the best schedules found so far\n");
    fclose(log);
    free_records(recs, nrecs);
    free(dir);
    return r || !dir;
}

/* --log, else -o's path with .tunelog for .fts (malloc-owned). */
static char *log_path_of(const tn_opts *o)
{
    if (o->log)
        return strdup(o->log);
    size_t n = strlen(o->out);
    if (n > 4 && !strcmp(o->out + n - 4, ".fts"))
        n -= 4;
    char *path = NULL;
    return asprintf(&path, "%.*s.tunelog", (int)n, o->out) < 0 ? NULL : path;
}

int tn_tune(const tn_opts *o, FILE *progress)
{
    ft_ctx *ctx = ft_ctx_new();
    if (!ctx)
        return 1;
    o->setup.apply(ctx, o->setup.data);
    ft_source *src = ft_source_read(ctx, o->path);
    ast_program *p = src ? ft_compile_unscheduled(ctx, src) : NULL;
    task *ts = NULL;
    int n = 0;
    int bad = !p || ctx->nerrors || find_tasks(o, ctx, p, &ts, &n);
    char *log_path = NULL;
    int r = 1;
    if (!bad && (log_path = log_path_of(o)) != NULL) {
        struct sigaction sa = {.sa_handler = tn_on_int};
        sigemptyset(&sa.sa_mask);
        tn_stop_flag = 0;
        sigaction(SIGINT, &sa, &tn_old_int);
        r = tune_tasks(o, ts, n, log_path, progress);
        sigaction(SIGINT, &tn_old_int, NULL);
        if (!r)
            r = write_schedules(o, ts, n);
    }
    for (int i = 0; ts && i < n; i++) {
        for (int k = 0; k < ts[i].n; k++)
            free(ts[i].c[k].sched);
        free(ts[i].c);
        free(ts[i].args);
    }
    free(ts);
    free(log_path);
    ft_ctx_free(ctx);
    return r;
}

/* The fastest measured record of function fn: in task when it has one,
 * else in the last task of fn the log holds; NULL when none beat the
 * untuned function. */
static const record *best_record(const record *recs, int nrecs, uint64_t fn, uint64_t task)
{
    uint64_t use = 0;
    for (int i = nrecs - 1; i >= 0 && !use; i--)
        if (recs[i].fn == fn && recs[i].task == task)
            use = task;
    for (int i = nrecs - 1; i >= 0 && !use; i--)
        if (recs[i].fn == fn)
            use = recs[i].task;
    const record *b = NULL;
    for (int i = 0; use && i < nrecs; i++)
        if (recs[i].task == use && recs[i].status == TN_OK && recs[i].sched &&
            (!b || score(recs[i].ms, recs[i].ref_ms) < score(b->ms, b->ref_ms)))
            b = &recs[i];
    return b && score(b->ms, b->ref_ms) < 1 ? b : NULL;   /* as chosen() */
}

int tn_log_schedules(const tn_opts *o, char **text)
{
    *text = NULL;
    record *recs;
    int nrecs = read_log(o->log, &recs);
    if (nrecs < 0)
        return 1;
    if (!nrecs && access(o->log, R_OK) != 0) {
        fprintf(stderr, "ftc: error: cannot read the tuning log '%s': %s\n", o->log,
                strerror(errno));
        return 1;
    }
    ft_ctx *ctx = ft_ctx_new();
    ft_source *src = NULL;
    ast_program *p = NULL;
    if (ctx) {
        o->setup.apply(ctx, o->setup.data);
        src = ft_source_read(ctx, o->path);
        p = src ? ft_compile_unscheduled(ctx, src) : NULL;
    }
    size_t len = 0;
    FILE *m = p && !ctx->nerrors ? open_memstream(text, &len) : NULL;
    for (int i = 0; m && i < p->nfuncs; i++) {
        ast_func *f = p->funcs[i];
        if (f->ad_fwd || ast_has_schedule(p, f->name))
            continue;
        char **args = calloc((size_t)f->nparams + 1, sizeof *args);
        int nargs = 0;
        for (int k = 0; args && k < f->nparams; k++) {
            const char *v = f->params[k].is_size ? size_value(o, f->params[k].name) : NULL;
            if (v)
                args[nargs++] = (char *)v;
        }
        uint64_t fn = fn_hash(o, f);
        const record *b = best_record(recs, nrecs, fn, task_hash(fn, args, nargs));
        free(args);
        if (!b)
            continue;
        fprintf(m, "schedule %s:\n    ", f->name);
        for (const char *q = b->sched; *q; q++)
            fputs(*q == '\n' ? "\n    " : (char[2]){*q, 0}, m);
        fputc('\n', m);
    }
    int r = !m;
    if (m)
        fclose(m);
    if (r) {
        free(*text);
        *text = NULL;
    }
    free_records(recs, nrecs);
    ft_ctx_free(ctx);
    return r;
}
