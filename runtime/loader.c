/* loader.c - opening a library built by ftc and reading its description.
 *
 * Requires: a shared library exporting `ft_module` (FT_MODULE_SYMBOL) (runtime/ft_abi.h).
 * Provides: rt_open / rt_close / rt_module / rt_find.  The description is
 * checked for consistency once at open time, so rt_run can trust it.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "layout.h"

struct rt_lib {
    void *handle;                   /* dlopen handle of the library */
    const ft_module_desc *desc;     /* its description table */
};

void rt_errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Load libgomp for good before any kernel library: OpenMP's idle worker
 * threads run libgomp code, so unloading it with the last kernel library
 * would crash them.  RTLD_NODELETE keeps it mapped for the process's life;
 * the handle is dropped at once (dlclose does not unload a NODELETE
 * library).  A missing libgomp is fine: then no library can use it. */
static void rt_pin_libgomp(void)
{
    void *h = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
    if (h)
        dlclose(h);
}

/* Check a parameter's logical shape and layout (ABI version 3): without a
 * layout the logical dimensions are the physical ones; with one, it
 * parses for lndim dimensions and gives ndim physical ones. */
static int rt_check_layout(const ft_func_desc *fn, const ft_param_desc *p, char *err,
                           size_t errlen)
{
    rt_layout l;
    int ok = p->lndim >= 0 && p->lndim <= RT_MAX_DIMS && (p->lndim == 0 || p->lshape_text);
    if (ok && !p->layout)
        ok = p->lndim == p->ndim;
    else if (ok)
        ok = p->kind == FT_PARAM_TENSOR &&
             !rt_layout_parse(p->layout, p->lndim, &l, NULL, 0, NULL) && l.nphys == p->ndim;
    for (int d = 0; ok && d < p->lndim; d++)
        ok = p->lshape_text[d] != NULL;
    if (!ok)
        rt_errf(err, errlen, "the layout or logical shape of parameter '%s' of '%s' is "
                "corrupt; rebuild the library with this ftc", p->name, fn->name);
    return !ok;
}

/* Check one parameter's description: valid kind, dtype, access and ndim. */
static int rt_check_param(const ft_func_desc *fn, const ft_param_desc *p,
                          char *err, size_t errlen)
{
    const char *pn = p->name ? p->name : "?";
    if (!p->name || (p->kind != FT_PARAM_SIZE && p->kind != FT_PARAM_TENSOR) ||
        rt_dtype_size(p->dtype) == 0 || p->access < FT_ABI_IN ||
        p->access > FT_ABI_INOUT || p->ndim < 0 || p->ndim > RT_MAX_DIMS ||
        (p->ndim > 0 && !p->shape_text)) {
        rt_errf(err, errlen, "the description of parameter '%s' of '%s' is corrupt; "
                "rebuild the library with this ftc", pn, fn->name);
        return 1;
    }
    for (int d = 0; d < p->ndim; d++) {
        if (!p->shape_text[d]) {
            rt_errf(err, errlen, "the description of parameter '%s' of '%s' lacks "
                    "the text of dimension %d; rebuild the library", pn, fn->name, d);
            return 1;
        }
    }
    return rt_check_layout(fn, p, err, errlen);
}

/* Check the whole description table so that later code can trust it. */
static int rt_check_desc(const ft_module_desc *m, char *err, size_t errlen)
{
    if (m->abi_version != FT_ABI_VERSION) {
        rt_errf(err, errlen, "the library was built for description ABI version %d, "
                "but this ftc reads version %d; rebuild it with this ftc",
                m->abi_version, FT_ABI_VERSION);
        return 1;
    }
    if (m->nfuncs < 0 || (m->nfuncs > 0 && !m->funcs) || m->nsites < 0 ||
        (m->nsites > 0 && !m->sites) || !m->last_error) {
        rt_errf(err, errlen, "the library's function table is corrupt; rebuild it");
        return 1;
    }
    for (int i = 0; i < m->nfuncs; i++) {
        const ft_func_desc *fn = &m->funcs[i];
        if (!fn->name || fn->nparams < 0 || (fn->nparams > 0 && !fn->params) ||
            !fn->call || !fn->shapes || !fn->logical_shapes) {
            rt_errf(err, errlen, "the description of function %d is corrupt; rebuild "
                    "the library", i);
            return 1;
        }
        for (int k = 0; k < fn->nparams; k++)
            if (rt_check_param(fn, &fn->params[k], err, errlen))
                return 1;
    }
    for (int k = 0; k < m->nsites; k++) {
        if (!m->sites[k].where || !m->sites[k].msg) {   /* rt_report_failure reads both */
            rt_errf(err, errlen, "the description of run-time check %d is corrupt; rebuild "
                    "the library", k);
            return 1;
        }
    }
    return 0;
}

/* dlopen so_path.  A path without '/' is taken relative to the current
 * folder (dlopen would otherwise search the system library path). */
static void *rt_dlopen(const char *so_path, char *err, size_t errlen)
{
    char *local = NULL;
    const char *p = so_path;
    if (!strchr(so_path, '/')) {
        local = malloc(strlen(so_path) + 3);
        if (!local) {
            rt_errf(err, errlen, "out of memory");
            return NULL;
        }
        strcpy(local, "./");
        strcat(local, so_path);
        p = local;
    }
    void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        rt_errf(err, errlen, "cannot load '%s': %s", so_path, dlerror());
    free(local);
    return h;
}

/* Open a built library and check its description (see rt.h).  Returns a
 * caller-owned handle (free with rt_close) or NULL with a message. */
rt_lib *rt_open(const char *so_path, char *err, size_t errlen)
{
    rt_pin_libgomp();
    void *h = rt_dlopen(so_path, err, errlen);
    if (!h)
        return NULL;
    dlerror();
    const ft_module_desc *m = dlsym(h, FT_MODULE_SYMBOL);
    if (!m) {
        rt_errf(err, errlen, "'%s' has no symbol " FT_MODULE_SYMBOL ": it was not built by "
                "ftc (build it with `ftc build`)", so_path);
        dlclose(h);
        return NULL;
    }
    if (rt_check_desc(m, err, errlen)) {
        dlclose(h);
        return NULL;
    }
    rt_lib *lib = calloc(1, sizeof *lib);
    if (!lib) {
        rt_errf(err, errlen, "out of memory");
        dlclose(h);
        return NULL;
    }
    lib->handle = h;
    lib->desc = m;
    return lib;
}

/* A handle on a description table in memory, checked as rt_open checks a
 * library's (see rt.h).  Returns a caller-owned handle or NULL with a
 * message. */
rt_lib *rt_open_desc(const ft_module_desc *m, char *err, size_t errlen)
{
    if (rt_check_desc(m, err, errlen))
        return NULL;
    rt_lib *lib = calloc(1, sizeof *lib);
    if (!lib) {
        rt_errf(err, errlen, "out of memory");
        return NULL;
    }
    lib->desc = m;
    return lib;
}

/* Unload the library and free the handle; NULL is allowed. */
void rt_close(rt_lib *lib)
{
    if (!lib)
        return;
    if (lib->handle)
        dlclose(lib->handle);
    free(lib);
}

/* The library's description table (owned by the library). */
const ft_module_desc *rt_module(const rt_lib *lib)
{
    return lib->desc;
}

/* The exported function called name, or NULL. */
const ft_func_desc *rt_find(const rt_lib *lib, const char *name)
{
    for (int i = 0; i < lib->desc->nfuncs; i++)
        if (!strcmp(lib->desc->funcs[i].name, name))
            return &lib->desc->funcs[i];
    return NULL;
}

/* Symbol name as the library resolves it (itself, then its dependencies
 * in load order: the OpenMP runtime it was linked with), or NULL. */
void *rt_symbol(const rt_lib *lib, const char *name)
{
    return lib->handle ? dlsym(lib->handle, name) : NULL;
}

const char *rt_code_text(int code)
{
    switch (code) {
    case FT_ERR_SIZE: return "a size parameter was negative";
    case FT_ERR_ASSERT: return "assertion failed";
    case FT_ERR_INDEX: return "index out of bounds";
    case FT_ERR_NOMEM: return "out of memory allocating a local tensor";
    case FT_ERR_NODEVICE: return "no CUDA device (the library was built for --target cuda)";
    case FT_ERR_NULL: return "a tensor parameter with elements was NULL";
    default: return "unknown error code";
    }
}

/* Print line `line` of file path and a caret under column col (nothing
 * when the file cannot be read or is shorter). */
static void rt_show_source(const char *path, long line, long col, FILE *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char buf[1024];
    long n = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        int whole = len && buf[len - 1] == '\n';
        if (++n == line) {
            buf[strcspn(buf, "\n")] = '\0';
            fprintf(err, "    %s\n    %*s^\n", buf, (int)(col > 0 && col < 1024 ? col - 1 : 0),
                    "");
            break;
        }
        while (!whole && fgets(buf, sizeof buf, f)) {   /* the rest of a long line */
            len = strlen(buf);
            whole = len && buf[len - 1] == '\n';
        }
    }
    fclose(f);
}

/* Show the source line of a site's where ("path:line:col"). */
static void rt_show_where(const char *where, FILE *err)
{
    const char *c2 = strrchr(where, ':');
    if (!c2 || c2 == where)
        return;
    const char *c1 = c2 - 1;
    while (c1 > where && *c1 != ':')
        c1--;
    if (*c1 != ':')
        return;
    char *end;
    long line = strtol(c1 + 1, &end, 10), col;
    if (end != c2 || line <= 0)
        return;
    col = strtol(c2 + 1, &end, 10);
    if (*end)
        return;
    char path[4096];
    size_t n = (size_t)(c1 - where);
    if (n >= sizeof path)
        return;
    memcpy(path, where, n);
    path[n] = '\0';
    rt_show_source(path, line, col, err);
}

void rt_report_failure(const rt_lib *lib, const char *fname, int code, FILE *err)
{
    const ft_module_desc *m = lib->desc;
    ft_error_rec rec;
    char msg[2048];
    if (m->last_error(&rec, msg, sizeof msg) == code && rec.site >= 0 && rec.site < m->nsites) {
        const char *where = m->sites[rec.site].where;
        size_t wl = strlen(where);
        const char *what = strncmp(msg, where, wl) == 0 && !strncmp(msg + wl, ": ", 2)
                           ? msg + wl + 2 : msg;
        fprintf(err, "%s: error: %s\n", where, what);
        rt_show_where(where, err);
        fprintf(err, "note: function '%s' failed with code %d (%s)\n", fname, code,
                rt_code_text(code));
        return;
    }
    fprintf(err, "error: function '%s' failed: %s (code %d)\n", fname, rt_code_text(code), code);
}
