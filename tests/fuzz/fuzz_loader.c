/* fuzz_loader.c - libFuzzer harness (c): the description-table loader
 * (runtime/loader.c).
 *
 * A library built by ftc exports `ft_module` (runtime/ft_abi.h), a table of
 * pointers; the loader checks it once at open time so that `ftc run` can
 * trust it.  The input describes such a table, field by field, as a choice
 * stream (fz.h): counts, kinds, dtypes, accesses, ranks, which pointers
 * are NULL, the names, shape texts and run-time error sites (where and
 * message strings from the input's bytes), and what the library's
 * last_error reports.  The table goes through rt_open_desc (rt_open's
 * checks without dlopen); an accepted table is then used as `ftc run`
 * uses it: every function found by name, every parameter's shape texts
 * read, and a failure reported through rt_report_failure (the site's
 * "path:line:col" parsed and its source line shown: the input may name a
 * source file written at start-up, with any line and column).  Findings:
 * crashes, sanitizer reports, leaks; a refusal without a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz.h"
#include "runtime/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum { LD_MAX_FUNCS = 4, LD_MAX_PARAMS = 6, LD_MAX_SITES = 4, LD_MAX_STR = 48 };

/* A source file for the sites' "where" to name (written once). */
static char ld_source_path[64];

/* The table under test and the storage its pointers point into. */
typedef struct ld_table {
    ft_module_desc m;
    ft_func_desc funcs[LD_MAX_FUNCS];
    ft_param_desc params[LD_MAX_FUNCS][LD_MAX_PARAMS];
    const char *shape[LD_MAX_FUNCS][LD_MAX_PARAMS][RT_MAX_DIMS + 2];
    const char *lshape[LD_MAX_FUNCS][LD_MAX_PARAMS][RT_MAX_DIMS + 2];
    ft_site_desc sites[LD_MAX_SITES];
    char strs[128][LD_MAX_STR];   /* every string of the table */
    int nstrs;
} ld_table;

/* What the fake last_error reports (set per run, read by ld_last_error):
 * the harness runs one input at a time on one thread. */
typedef struct ld_failure {
    int code, site;
    char msg[LD_MAX_STR * 2];
} ld_failure;

/* The report of the current run (see ld_failure). */
static ld_failure ld_fail;

/* The library's last_error: copy the chosen record and message. */
static int ld_last_error(ft_error_rec *rec, char *buf, size_t size)
{
    if (rec) {
        memset(rec, 0, sizeof *rec);
        rec->code = ld_fail.code;
        rec->site = ld_fail.site;
    }
    if (buf && size)
        snprintf(buf, size, "%s", ld_fail.msg);
    return ld_fail.code;
}

/* A stand-in for a function's call and shapes entries (never called). */
static int ld_call(void *const *args) { (void)args; return 0; }
static void ld_shapes(const int64_t *sizes, int64_t *dims) { (void)sizes; (void)dims; }

/* A string of the table from the stream: one of a few shapes of text
 * (names, paths with line and column, message templates with %0 %1), its
 * bytes from the stream; NULL sometimes. */
static const char *ld_string(ld_table *t, fz_stream *s, int nullable)
{
    if ((nullable && fz_chance(s, 16)) || t->nstrs >= 128)
        return NULL;
    char *out = t->strs[t->nstrs++];
    unsigned kind = fz_pick(s, 4), len = fz_pick(s, LD_MAX_STR - 24);
    size_t k = 0;
    if (kind == 0)
        k = (size_t)snprintf(out, LD_MAX_STR, "%s:", ld_source_path);
    for (unsigned c = 0; c < len && k + 1 < LD_MAX_STR; c++)
        out[k++] = (char)(kind == 1 ? 'a' + fz_pick(s, 26) : 1 + fz_pick(s, 255));
    out[k] = '\0';
    if (kind == 0 || kind == 3)
        snprintf(out + k, LD_MAX_STR - k, "%d:%d", (int)fz_pick(s, 8) - 1,
                 (int)fz_pick(s, 250) - 100 + (fz_chance(s, 8) ? 5000 : 0));
    return out;
}

/* An int field: usually a valid value in [lo, hi], sometimes anything. */
static int ld_int(fz_stream *s, int lo, int hi)
{
    if (fz_chance(s, 12)) {
        static const int odd[] = {-1, -2147483647 - 1, 2147483647, 17, 100, 7};
        return odd[fz_pick(s, 6)];
    }
    return lo + (int)fz_pick(s, (unsigned)(hi - lo + 1));
}

/* Fill parameter p of a function from the stream. */
static void ld_param(ld_table *t, fz_stream *s, int f, int k)
{
    ft_param_desc *p = &t->params[f][k];
    p->name = ld_string(t, s, 1);
    p->kind = ld_int(s, FT_PARAM_SIZE, FT_PARAM_TENSOR);
    p->dtype = ld_int(s, FT_ABI_BOOL, FT_ABI_F64);
    p->access = ld_int(s, FT_ABI_IN, FT_ABI_INOUT);
    p->mtype = ld_int(s, 0, 3);
    p->ndim = fz_chance(s, 16) ? ld_int(s, 0, RT_MAX_DIMS + 1) : (int)fz_pick(s, 4);
    int nd = p->ndim > 0 && p->ndim <= RT_MAX_DIMS + 1 ? p->ndim : 0;
    for (int d = 0; d < nd; d++)
        t->shape[f][k][d] = ld_string(t, s, 1);
    p->shape_text = fz_chance(s, 16) ? NULL : t->shape[f][k];
    /* ABI 3: a layout (valid for 2 logical and 2 or 3 physical dimensions,
     * or not at all) and the logical shape */
    static const char *const layouts[] = {NULL, NULL, NULL, "NC->NC4c", "MK->KM",
                                          "AB->A2bB", "X->Y", "AB->AB1b", ""};
    p->layout = layouts[fz_pick(s, 9)];
    p->lndim = fz_chance(s, 16) ? ld_int(s, 0, RT_MAX_DIMS + 1) : p->layout ? 2 : p->ndim;
    int lnd = p->lndim > 0 && p->lndim <= RT_MAX_DIMS + 1 ? p->lndim : 0;
    for (int d = 0; d < lnd; d++)
        t->lshape[f][k][d] = ld_string(t, s, 1);
    p->lshape_text = fz_chance(s, 16) ? NULL : t->lshape[f][k];
}

/* Fill the whole table from the stream. */
static void ld_fill(ld_table *t, fz_stream *s)
{
    t->m.abi_version = fz_chance(s, 16) ? ld_int(s, 0, 3) : FT_ABI_VERSION;
    t->m.nfuncs = ld_int(s, 0, LD_MAX_FUNCS);
    int nf = t->m.nfuncs >= 0 && t->m.nfuncs <= LD_MAX_FUNCS ? t->m.nfuncs : 0;
    for (int f = 0; f < nf; f++) {
        ft_func_desc *fn = &t->funcs[f];
        fn->name = ld_string(t, s, 1);
        fn->nparams = ld_int(s, 0, LD_MAX_PARAMS);
        int np = fn->nparams >= 0 && fn->nparams <= LD_MAX_PARAMS ? fn->nparams : 0;
        for (int k = 0; k < np; k++)
            ld_param(t, s, f, k);
        fn->params = fz_chance(s, 16) ? NULL : t->params[f];
        fn->call = fz_chance(s, 16) ? NULL : ld_call;
        fn->shapes = fz_chance(s, 16) ? NULL : ld_shapes;
        fn->logical_shapes = fz_chance(s, 16) ? NULL : ld_shapes;
    }
    t->m.funcs = fz_chance(s, 16) ? NULL : t->funcs;
    t->m.nsites = ld_int(s, 0, LD_MAX_SITES);
    int ns = t->m.nsites >= 0 && t->m.nsites <= LD_MAX_SITES ? t->m.nsites : 0;
    for (int k = 0; k < ns; k++) {
        t->sites[k].code = ld_int(s, 0, 6);
        t->sites[k].where = ld_string(t, s, 1);
        t->sites[k].msg = ld_string(t, s, 1);
        t->sites[k].kinds[0] = ld_int(s, 0, 5);
        t->sites[k].kinds[1] = ld_int(s, 0, 5);
    }
    t->m.sites = fz_chance(s, 16) ? NULL : t->sites;
    t->m.last_error = fz_chance(s, 16) ? NULL : ld_last_error;
}

/* Choose the failure the library will report, then use the table as
 * `ftc run` does: find each function, read each shape text, report. */
static void ld_use(rt_lib *lib, ld_table *t, fz_stream *s, FILE *sink)
{
    ld_fail.code = (int)fz_pick(s, 7);
    ld_fail.site = (int)fz_pick(s, LD_MAX_SITES + 2) - 1;
    const char *m = ld_string(t, s, 0);
    snprintf(ld_fail.msg, sizeof ld_fail.msg, "%s%s",
             ld_fail.site >= 0 && ld_fail.site < t->m.nsites && fz_chance(s, 2)
             ? t->sites[ld_fail.site].where : "", m ? m : "");
    const ft_module_desc *md = rt_module(lib);
    for (int f = 0; f < md->nfuncs; f++) {
        const ft_func_desc *fn = rt_find(lib, md->funcs[f].name);
        if (!fn)
            abort();                        /* a function not found by its own name */
        for (int k = 0; k < fn->nparams; k++) {
            for (int d = 0; d < fn->params[k].ndim; d++)
                fputs(fn->params[k].shape_text[d], sink);
            for (int d = 0; d < fn->params[k].lndim; d++)
                fputs(fn->params[k].lshape_text[d], sink);
        }
        rt_report_failure(lib, fn->name, ld_fail.code ? ld_fail.code : 1, sink);
    }
    rt_find(lib, "no_such_function");
}

/* Remove the source file at exit. */
static void ld_remove_source(void)
{
    unlink(ld_source_path);
}

/* Write the source file the sites may name (removed at exit). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(ld_source_path, sizeof ld_source_path, "/tmp/ftc-fuzz-loader-%d.ft", (int)getpid());
    FILE *f = fopen(ld_source_path, "w");
    if (!f)
        abort();
    fputs("export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
          "\tfor i in range(n):\n        y[i] = x[i] * 2\n", f);
    for (int k = 0; k < 3000; k++)          /* a long last line */
        fputc('x', f);
    fclose(f);
    atexit(ld_remove_source);
    return 0;
}

/* One run: build the table, open it, use it when accepted. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ld_table t;                      /* large; cleared every run */
    memset(&t, 0, sizeof t);
    fz_stream s = {data, size, 0};
    ld_fill(&t, &s);
    char err[512] = "";
    FILE *sink = fopen("/dev/null", "w");
    rt_lib *lib = rt_open_desc(&t.m, err, sizeof err);
    if (lib)
        ld_use(lib, &t, &s, sink);
    else if (!err[0])
        abort();                            /* a refusal without a message */
    rt_close(lib);
    fclose(sink);
    return 0;
}
