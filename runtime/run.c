/* run.c - `ftc run`: call one exported function of a loaded library.
 *
 * Requires: a library opened with rt_open (its description checked).
 * Provides: rt_run, in the steps it takes:
 *   1. parse the "name=value" arguments (sizes are integers, tensors paths);
 *   2. read the .npy of every given in/inout tensor, checking dtype and rank;
 *   3. infer each size not given from a dimension whose shape text is
 *      exactly that size's name, then check every size is known;
 *   4. evaluate all shapes through the description's `shapes` and check
 *      every given tensor's full shape;
 *   5. allocate `out` tensors zero-filled and, with --random, fill the
 *      in/inout tensors not given (floats uniform in [-1, 1); ints uniform
 *      in [0, m) where m is the smallest size value, or without size
 *      parameters the smallest tensor dimension, at least 1; bools 0/1);
 *   6. call (once, or once to warm up and N timed times with --bench; each
 *      timed call starts from the same inputs); `@ gpu` tensors (CUDA
 *      modules) get device buffers through the CUDA runtime, loaded then
 *      (runtime/device.c), filled from the host arrays before each call
 *      (outside the timed part) and copied back after the last;
 *   7. print the outputs and write them as .npy (--out-dir, or an `out`
 *      parameter given a path: its result is written to that path).
 * Random data is deterministic in the seed and the parameter's name.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rt.h"
#include "layout.h"

/* What rt_run knows about one parameter. */
typedef struct rt_pstate {
    const ft_param_desc *d;
    const char *value;      /* the argument's value text, NULL if not given */
    int64_t size;           /* size parameters: the value (passed by pointer) */
    int size_known;         /* size parameters: given or inferred */
    const char *from;       /* size parameters: the tensor it was inferred from */
    int from_dim;
    rt_array arr;           /* tensors: the data */
    void *orig;             /* inout under --bench: the data before any call */
    const int64_t *dims;    /* tensors: the expected shape (into rt_call.dims) */
    const int64_t *ldims;   /* tensors: the logical shape (into rt_call.ldims) */
    void *dev;              /* `@ gpu` tensors: the device copy of arr */
} rt_pstate;

/* One run in progress; everything here is freed by rt_call_free. */
struct rt_call {
    const rt_lib *lib;      /* the library (its error record) */
    const ft_func_desc *fn;
    const rt_run_opts *opts;
    FILE *out, *err;
    rt_pstate *ps;          /* fn->nparams entries */
    int64_t *dims;          /* all tensor dimensions, flattened */
    int64_t *ldims;         /* all logical tensor dimensions, flattened */
    void **args;            /* what desc->call receives */
    rt_cuda *cu;            /* the CUDA runtime, when a tensor is `@ gpu` */
};

/* Print "error: MSG" to the run's error stream; returns 1 for `return`. */
static int rt_fail(rt_call *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int rt_fail(rt_call *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", c->err);
    vfprintf(c->err, fmt, ap);
    fputc('\n', c->err);
    va_end(ap);
    return 1;
}

/* ------------------------------------------------------------ helpers */

/* Parse a whole string as an int64 (decimal, or hex with 0x). 0 on success. */
int rt_parse_i64(const char *s, int64_t *v)
{
    const char *p = s + (*s == '-' || *s == '+');
    int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;
    if (*p < '0' || *p > '9')
        return 1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, base);
    if (errno || *end)
        return 1;
    *v = x;
    return 0;
}

/* Whether s reads as a number (integer or float), i.e. not a path. */
static int rt_is_number(const char *s)
{
    int64_t i;
    if (!rt_parse_i64(s, &i))
        return 1;
    char *end;
    strtod(s, &end);
    return end != s && *end == 0;
}

/* Number of elements of an ndim-dimensional shape, or -1 on overflow. */
static int64_t rt_count(int ndim, const int64_t *dims)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        if (dims[i] < 0 || __builtin_mul_overflow(n, dims[i], &n))
            return -1;
    return n;
}

/* Print a shape as "[10, 4]". */
static void rt_print_dims(FILE *f, int ndim, const int64_t *dims)
{
    fputc('[', f);
    for (int i = 0; i < ndim; i++)
        fprintf(f, i ? ", %lld" : "%lld", (long long)dims[i]);
    fputc(']', f);
}

/* A shape as text into buf: "[10, 4]". */
static const char *rt_dims_text(char *buf, size_t cap, int ndim, const int64_t *dims)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %lld" : "%lld", (long long)dims[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
    return buf;
}

/* A parameter's declared shape as text into buf: "[n, 4]". */
static const char *rt_shape_text(char *buf, size_t cap, const ft_param_desc *d)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < d->ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %s" : "%s", d->shape_text[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
    return buf;
}

/* Whether text is exactly name, ignoring surrounding spaces. */
static int rt_text_is(const char *text, const char *name)
{
    while (*text == ' ')
        text++;
    size_t n = strlen(name);
    if (strncmp(text, name, n))
        return 0;
    for (text += n; *text == ' '; text++)
        ;
    return *text == 0;
}

/* ------------------------------------------------------ half floats */

/* IEEE half (bits) to float, for printing f16 outputs. */
static float rt_half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 0x400), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* A float exactly representable as a normal half (or zero) to half bits;
 * random data is generated on the half grid, so no rounding is needed. */
static uint16_t rt_float_to_half_exact(float f)
{
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    f = fabsf(f);
    if (f == 0)
        return sign;
    int e;
    float m = frexpf(f, &e);            /* f = m * 2^e, m in [0.5, 1) */
    uint16_t mant = (uint16_t)((m * 2048.0f) - 1024.0f);
    return (uint16_t)(sign | ((e - 1 + 15) << 10) | mant);
}

/* ------------------------------------------------------------ random */

/* splitmix64: a small, good generator with its state in the caller. */
static uint64_t rt_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The seed of one parameter's stream: the run's seed mixed with a hash of
 * the name, so a parameter's data does not depend on which others are given. */
uint64_t rt_param_seed(uint64_t seed, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    uint64_t s = seed ^ h;
    return rt_next(&s);
}

/* Fill a with random data: floats uniform in [-1, 1) (on each dtype's own
 * grid, so the bounds hold exactly), ints uniform in [0, m), bools 0/1. */
void rt_fill_random(rt_array *a, uint64_t state, int64_t m)
{
    size_t n = a->nbytes / rt_dtype_size(a->dtype);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rt_next(&state);
        switch (a->dtype) {
        case FT_ABI_BOOL: ((uint8_t *)a->data)[i] = r >> 63; break;
        case FT_ABI_I32:
            ((int32_t *)a->data)[i] = (int32_t)(((unsigned __int128)r * (uint64_t)m) >> 64);
            break;
        case FT_ABI_I64:
            ((int64_t *)a->data)[i] = (int64_t)(((unsigned __int128)r * (uint64_t)m) >> 64);
            break;
        case FT_ABI_F16:
            ((uint16_t *)a->data)[i] =
                rt_float_to_half_exact((float)(r >> 53) / 1024.0f - 1.0f);
            break;
        case FT_ABI_F32: ((float *)a->data)[i] = (float)(r >> 40) / 8388608.0f - 1.0f; break;
        case FT_ABI_F64: ((double *)a->data)[i] = (double)(r >> 11) * 0x1p-52 - 1.0; break;
        }
    }
}

/* m for random ints: the smallest size value, or without size parameters
 * the smallest tensor dimension; at least 1 (see the file comment). */
static int64_t rt_random_int_bound(const rt_call *c)
{
    int64_t m = INT64_MAX;
    int nsizes = 0;
    for (int k = 0; k < c->fn->nparams; k++) {
        if (c->ps[k].d->kind == FT_PARAM_SIZE) {
            nsizes++;
            if (c->ps[k].size < m)
                m = c->ps[k].size;
        }
    }
    for (int k = 0; !nsizes && k < c->fn->nparams; k++)
        for (int d = 0; c->ps[k].dims && d < c->ps[k].d->ndim; d++)
            if (c->ps[k].dims[d] < m)
                m = c->ps[k].dims[d];
    return m < 1 || m == INT64_MAX ? 1 : m;
}

/* ------------------------------------------------------- 1. arguments */

/* The parameter of c's function called name (len bytes), or -1. */
static int rt_param_index(const rt_call *c, const char *name, size_t len)
{
    for (int k = 0; k < c->fn->nparams; k++) {
        const char *pn = c->fn->params[k].name;
        if (strlen(pn) == len && !strncmp(pn, name, len))
            return k;
    }
    return -1;
}

/* List the function's parameter names, for "unknown parameter" messages. */
static void rt_list_params(rt_call *c)
{
    fprintf(c->err, "  '%s' takes:", c->fn->name);
    for (int k = 0; k < c->fn->nparams; k++) {
        char buf[256];
        const ft_param_desc *d = &c->fn->params[k];
        if (d->kind == FT_PARAM_SIZE)
            fprintf(c->err, " %s (size)", d->name);
        else
            fprintf(c->err, " %s (%s%s %s)", d->name, rt_dtype_name(d->dtype),
                    d->ndim ? rt_shape_text(buf, sizeof buf, d) : "",
                    d->access == FT_ABI_IN ? "in" : d->access == FT_ABI_OUT ? "out" : "inout");
        fputc(k + 1 < c->fn->nparams ? ',' : '\n', c->err);
    }
    if (!c->fn->nparams)
        fputs(" no parameters\n", c->err);
}

/* Check one argument's value against its parameter's kind and record it. */
static int rt_take_value(rt_call *c, rt_pstate *p, const char *value)
{
    const ft_param_desc *d = p->d;
    if (d->kind == FT_PARAM_SIZE) {
        if (rt_parse_i64(value, &p->size))
            return rt_fail(c, "parameter '%s' is a size: give an integer, e.g. %s=100, "
                           "not '%s'", d->name, d->name, value);
        if (p->size < 0)
            return rt_fail(c, "size '%s' must be >= 0, got %lld", d->name, (long long)p->size);
        p->size_known = 1;
    } else if (rt_is_number(value)) {
        return rt_fail(c, "parameter '%s' is a tensor (%s): give a .npy file, e.g. "
                       "%s=%s.npy, not the number %s", d->name, rt_dtype_name(d->dtype),
                       d->name, d->name, value);
    }
    p->value = value;
    return 0;
}

/* Step 1: parse "name=value" arguments into c->ps. */
static int rt_parse_args(rt_call *c, int nargs, char **args)
{
    for (int i = 0; i < nargs; i++) {
        const char *eq = strchr(args[i], '=');
        if (!eq || eq == args[i])
            return rt_fail(c, "argument '%s' is not of the form name=value "
                           "(see ftc --help)", args[i]);
        if (!eq[1])
            return rt_fail(c, "argument '%s' has no value after '='", args[i]);
        int k = rt_param_index(c, args[i], (size_t)(eq - args[i]));
        if (k < 0) {
            rt_fail(c, "function '%s' has no parameter '%.*s'", c->fn->name,
                    (int)(eq - args[i]), args[i]);
            rt_list_params(c);
            return 1;
        }
        if (c->ps[k].value)
            return rt_fail(c, "parameter '%s' is given twice", c->ps[k].d->name);
        if (rt_take_value(c, &c->ps[k], eq + 1))
            return 1;
    }
    return 0;
}

/* ---------------------------------------------------------- 2. inputs */

/* Read one given in/inout tensor and check its dtype and rank. */
static int rt_read_input(rt_call *c, rt_pstate *p)
{
    char msg[768], buf[256], got[256];
    const ft_param_desc *d = p->d;
    if (rt_npy_read(p->value, &p->arr, msg, sizeof msg))
        return rt_fail(c, "parameter '%s': %s", d->name, msg);
    if (p->arr.dtype != d->dtype)
        return rt_fail(c, "parameter '%s': expected dtype %s, got %s from '%s'; "
                       "save it with .astype(np.%s) (ftc does not convert)", d->name,
                       rt_dtype_name(d->dtype), rt_dtype_name(p->arr.dtype), p->value,
                       rt_dtype_numpy_name(d->dtype));
    if (p->arr.ndim != d->ndim && !(d->layout && p->arr.ndim == d->lndim))
        return rt_fail(c, "parameter '%s': expected a %d-D shape %s, got %s from '%s'",
                       d->name, d->ndim, rt_shape_text(buf, sizeof buf, d),
                       rt_dims_text(got, sizeof got, p->arr.ndim, p->arr.dims), p->value);
    return 0;
}

/* Step 2: read every given in/inout tensor; refuse non-cpu parameters. */
static int rt_read_inputs(rt_call *c)
{
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (p->d->kind != FT_PARAM_TENSOR)
            continue;
        if (p->d->mtype > 1)
            return rt_fail(c, "parameter '%s' is gpu/shared or gpu/local memory, which "
                           "a caller cannot pass", p->d->name);
        if (p->value && p->d->access != FT_ABI_OUT && rt_read_input(c, p))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ 3. sizes */

/* Infer size s from dimension dim of tensor p, or check it agrees with
 * what another tensor said. */
static int rt_infer_one(rt_call *c, rt_pstate *s, const rt_pstate *p, int dim)
{
    int64_t v = p->arr.dims[dim];
    if (!s->size_known) {
        s->size = v;
        s->size_known = 1;
        s->from = p->d->name;
        s->from_dim = dim;
        return 0;
    }
    if (s->from && s->size != v)
        return rt_fail(c, "size '%s' is %lld from dimension %d of '%s' but %lld from "
                       "dimension %d of '%s'; the shapes disagree", s->d->name,
                       (long long)s->size, s->from_dim, s->from, (long long)v, dim,
                       p->d->name);
    return 0;
}

/* Step 3: infer sizes from the shapes of the tensors read, then make sure
 * every size is known. */
static int rt_infer_sizes(rt_call *c)
{
    int n = c->fn->nparams, bad = 0;
    for (int k = 0; k < n; k++) {
        const rt_pstate *p = &c->ps[k];
        if (p->d->kind != FT_PARAM_TENSOR || !p->arr.data)
            continue;
        /* a laid-out tensor of the logical rank is read as logical */
        const char *const *text = p->d->layout && p->arr.ndim == p->d->lndim
                                ? p->d->lshape_text : p->d->shape_text;
        for (int dim = 0; dim < p->arr.ndim; dim++)
            for (int s = 0; s < n; s++)
                if (c->ps[s].d->kind == FT_PARAM_SIZE &&
                    rt_text_is(text[dim], c->ps[s].d->name) &&
                    rt_infer_one(c, &c->ps[s], p, dim))
                    return 1;
    }
    for (int s = 0; s < n; s++) {
        rt_pstate *p = &c->ps[s];
        if (p->d->kind != FT_PARAM_SIZE || p->size_known)
            continue;
        if (c->opts->default_size > 0)
            p->size = c->opts->default_size;
        else
            bad = rt_fail(c, "size '%s' was not given and cannot be inferred from a "
                          ".npy shape; pass %s=VALUE", p->d->name, p->d->name);
    }
    return bad;
}

/* ----------------------------------------------------------- 4. shapes */

/* Whether array a has exactly the n dimensions dims. */
static int rt_dims_are(const rt_array *a, int n, const int64_t *dims)
{
    if (a->ndim != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (a->dims[i] != dims[i])
            return 0;
    return 1;
}

/* Replace laid-out tensor p's array by its physical one (to_phys: packed
 * from the logical one, pads 0) or by its logical one (unpacked). */
static int rt_relayout(rt_call *c, rt_pstate *p, int to_phys)
{
    const ft_param_desc *d = p->d;
    int nd = to_phys ? d->ndim : d->lndim;
    const int64_t *dims = to_phys ? p->dims : p->ldims;
    size_t esize = rt_dtype_size(d->dtype);
    rt_layout l;
    rt_array a = {.dtype = d->dtype, .ndim = nd};
    memcpy(a.dims, dims, sizeof(int64_t) * (size_t)nd);
    a.nbytes = (size_t)rt_count(nd, dims) * esize;
    if (rt_layout_parse(d->layout, d->lndim, &l, NULL, 0, NULL) ||
        !(a.data = rt_array_alloc(a.nbytes, 0)))
        return rt_fail(c, "parameter '%s': cannot %s it %s layout %s", d->name,
                       to_phys ? "pack" : "unpack", to_phys ? "into" : "from", d->layout);
    if (to_phys)
        rt_layout_pack(&l, p->ldims, esize, p->arr.data, a.data);
    else
        rt_layout_unpack(&l, p->ldims, esize, p->arr.data, a.data);
    free(p->arr.data);
    p->arr = a;
    return 0;
}

/* A laid-out tensor p read from a file: an array of the logical shape is
 * packed into the physical layout (pads 0); one of the physical shape is
 * taken as it is; anything else is an error naming both shapes. */
static int rt_check_laid_out(rt_call *c, rt_pstate *p)
{
    char want[256], lwant[256], got[256];
    const ft_param_desc *d = p->d;
    if (rt_dims_are(&p->arr, d->lndim, p->ldims))
        return rt_relayout(c, p, 1);
    if (rt_dims_are(&p->arr, d->ndim, p->dims))
        return 0;
    return rt_fail(c, "parameter '%s' (layout %s): expected the logical shape %s or the "
                   "physical shape %s, got %s", d->name, d->layout,
                   rt_dims_text(lwant, sizeof lwant, d->lndim, p->ldims),
                   rt_dims_text(want, sizeof want, d->ndim, p->dims),
                   rt_dims_text(got, sizeof got, p->arr.ndim, p->arr.dims));
}

/* Check one tensor's evaluated shape: no negative dimension, and for a
 * tensor read from a file, exactly the file's shape (for a laid-out one,
 * rt_check_laid_out). */
static int rt_check_shape(rt_call *c, rt_pstate *p)
{
    char decl[256], want[256], got[256];
    const ft_param_desc *d = p->d;
    rt_shape_text(decl, sizeof decl, d);
    rt_dims_text(want, sizeof want, d->ndim, p->dims);
    if (rt_count(d->ndim, p->dims) < 0)
        return rt_fail(c, "parameter '%s': shape %s = %s is negative or too large "
                       "for these sizes", d->name, decl, want);
    if (!p->arr.data)
        return 0;
    if (d->layout)
        return rt_check_laid_out(c, p);
    if (!rt_dims_are(&p->arr, d->ndim, p->dims))
        return rt_fail(c, "parameter '%s': expected shape %s = %s, got %s", d->name,
                       decl, want, rt_dims_text(got, sizeof got, d->ndim, p->arr.dims));
    return 0;
}

/* Step 4: evaluate every tensor's shape, then check the tensors read. */
static int rt_check_shapes(rt_call *c)
{
    int n = c->fn->nparams, ndims = 0, nldims = 0, nsizes = 0;
    int64_t *sizes = calloc((size_t)n + 1, sizeof *sizes);
    for (int k = 0; k < n; k++) {
        ndims += c->ps[k].d->kind == FT_PARAM_TENSOR ? c->ps[k].d->ndim : 0;
        nldims += c->ps[k].d->kind == FT_PARAM_TENSOR ? c->ps[k].d->lndim : 0;
    }
    c->dims = calloc((size_t)ndims + 1, sizeof *c->dims);
    c->ldims = calloc((size_t)nldims + 1, sizeof *c->ldims);
    if (!sizes || !c->dims || !c->ldims) {
        free(sizes);
        return rt_fail(c, "out of memory");
    }
    for (int k = 0; k < n; k++)
        if (c->ps[k].d->kind == FT_PARAM_SIZE)
            sizes[nsizes++] = c->ps[k].size;
    c->fn->shapes(sizes, c->dims);
    c->fn->logical_shapes(sizes, c->ldims);
    free(sizes);
    int64_t *at = c->dims, *lat = c->ldims;
    for (int k = 0; k < n; k++) {
        if (c->ps[k].d->kind != FT_PARAM_TENSOR)
            continue;
        c->ps[k].dims = at;
        c->ps[k].ldims = lat;
        at += c->ps[k].d->ndim;
        lat += c->ps[k].d->lndim;
    }
    for (int k = 0; k < n; k++)
        if (c->ps[k].d->kind == FT_PARAM_TENSOR && rt_check_shape(c, &c->ps[k]))
            return 1;
    return 0;
}

/* ------------------------------------------------------- 5. allocation */

/* Allocate p's array for its evaluated shape, zero-filled. */
static int rt_alloc_zero(rt_call *c, rt_pstate *p)
{
    const ft_param_desc *d = p->d;
    int64_t n = rt_count(d->ndim, p->dims);
    size_t bytes;
    if (__builtin_mul_overflow((size_t)n, rt_dtype_size(d->dtype), &bytes))
        return rt_fail(c, "parameter '%s' is too large to allocate", d->name);
    p->arr.dtype = d->dtype;
    p->arr.ndim = d->ndim;
    memcpy(p->arr.dims, p->dims, sizeof(int64_t) * (size_t)d->ndim);
    p->arr.nbytes = bytes;
    p->arr.data = rt_array_alloc(bytes, 1);
    if (!p->arr.data)
        return rt_fail(c, "out of memory: parameter '%s' needs %zu bytes", d->name, bytes);
    return 0;
}

/* Step 5: zero-filled outputs; random or refused in/inout without data. */
static int rt_alloc_tensors(rt_call *c)
{
    int bad = 0;
    int64_t m = rt_random_int_bound(c);
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (p->d->kind != FT_PARAM_TENSOR || p->arr.data)
            continue;
        if (p->d->access != FT_ABI_OUT && !c->opts->random) {
            bad = rt_fail(c, "parameter '%s' (%s) needs data: pass %s=FILE.npy, or use "
                          "--random", p->d->name, p->d->access == FT_ABI_IN ? "in" : "inout",
                          p->d->name);
            continue;
        }
        if (rt_alloc_zero(c, p))
            return 1;
        if (p->d->access != FT_ABI_OUT)
            rt_fill_random(&p->arr, rt_param_seed(c->opts->seed, p->d->name), m);
    }
    return bad;
}

/* ------------------------------------------------------------ 6. calls */

/* Point c->args at the size values and tensor data. */
static int rt_make_args(rt_call *c)
{
    c->args = calloc((size_t)c->fn->nparams + 1, sizeof *c->args);
    if (!c->args)
        return rt_fail(c, "out of memory");
    for (int k = 0; k < c->fn->nparams; k++)
        c->args[k] = c->ps[k].d->kind == FT_PARAM_SIZE ? (void *)&c->ps[k].size
                                                       : c->ps[k].arr.data;
    return 0;
}

/* Whether parameter p is a tensor in device memory. */
static int rt_on_device(const rt_pstate *p)
{
    return p->d->kind == FT_PARAM_TENSOR && p->d->mtype == 1;
}

/* Load the CUDA runtime when a tensor is `@ gpu`, and point the call's
 * arguments at device buffers of the tensors' sizes. */
static int rt_dev_setup(rt_call *c)
{
    char msg[512];
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (!rt_on_device(p))
            continue;
        if (!c->cu && !(c->cu = rt_cuda_open(msg, sizeof msg)))
            return rt_fail(c, "%s (parameter '%s' of '%s' is `@ gpu`)", msg, p->d->name,
                           c->fn->name);
        if (rt_cuda_alloc(c->cu, p->arr.nbytes, &p->dev, msg, sizeof msg))
            return rt_fail(c, "parameter '%s': %s", p->d->name, msg);
        c->args[k] = p->dev;
    }
    return 0;
}

/* Copy every `@ gpu` tensor's host array to the device (outs: zeros). */
static int rt_dev_upload(rt_call *c)
{
    char msg[512];
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (rt_on_device(p) &&
            rt_cuda_copy(c->cu, p->dev, p->arr.data, p->arr.nbytes, 1, msg, sizeof msg))
            return rt_fail(c, "parameter '%s': %s", p->d->name, msg);
    }
    return 0;
}

/* Copy the `@ gpu` out and inout tensors back into their host arrays. */
static int rt_dev_download(rt_call *c)
{
    char msg[512];
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (rt_on_device(p) && p->d->access != FT_ABI_IN &&
            rt_cuda_copy(c->cu, p->arr.data, p->dev, p->arr.nbytes, 0, msg, sizeof msg))
            return rt_fail(c, "parameter '%s': %s", p->d->name, msg);
    }
    return 0;
}

/* Keep a copy of each inout's data, so that every --bench call starts from
 * the same inputs. */
static int rt_save_inouts(rt_call *c)
{
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (p->d->kind != FT_PARAM_TENSOR || p->d->access != FT_ABI_INOUT)
            continue;
        p->orig = malloc(p->arr.nbytes ? p->arr.nbytes : 1);
        if (!p->orig)
            return rt_fail(c, "out of memory copying '%s' for --bench", p->d->name);
        memcpy(p->orig, p->arr.data, p->arr.nbytes);
    }
    return 0;
}

/* Put inouts back to their saved data and, with zero_outs, outs back to
 * zero. */
static void rt_restore(rt_call *c, int zero_outs)
{
    for (int k = 0; k < c->fn->nparams; k++) {
        rt_pstate *p = &c->ps[k];
        if (p->orig)
            memcpy(p->arr.data, p->orig, p->arr.nbytes);
        else if (zero_outs && p->d->kind == FT_PARAM_TENSOR && p->d->access == FT_ABI_OUT)
            memset(p->arr.data, 0, p->arr.nbytes);
    }
}

/* Call the function once; report a non-zero code with the check that
 * failed, where and with which values (rt_report_failure).  0, or 2 on
 * failure. */
static int rt_call_once(rt_call *c)
{
    int code = c->fn->call(c->args);
    if (code == FT_OK)
        return 0;
    rt_report_failure(c->lib, c->fn->name, code, c->err);
    return 2;
}

double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort comparison of doubles. */
static int rt_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* --bench N: a warm-up call, then N timed calls each from the same inputs;
 * prints the minimum and median in milliseconds. */
static int rt_bench(rt_call *c, int n)
{
    if (rt_save_inouts(c))
        return 1;
    double *t = calloc((size_t)n, sizeof *t);
    if (!t)
        return rt_fail(c, "out of memory");
    int r = rt_dev_upload(c);
    if (!r)
        r = rt_call_once(c);
    for (int i = 0; i < n && !r; i++) {
        rt_restore(c, 1);
        if ((r = rt_dev_upload(c)) != 0)
            break;
        double t0 = rt_now();
        r = rt_call_once(c);
        t[i] = (rt_now() - t0) * 1e3;
    }
    if (!r) {
        qsort(t, (size_t)n, sizeof *t, rt_cmp_double);
        double med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
        fprintf(c->out, "%s: %d runs: min %.4g ms, median %.4g ms\n", c->fn->name, n,
                t[0], med);
    }
    free(t);
    return r;
}

/* ----------------------------------------------------------- 7. output */

/* Element i of a as a double (for sums and extremes). */
static double rt_elem(const rt_array *a, size_t i)
{
    switch (a->dtype) {
    case FT_ABI_BOOL: return ((const uint8_t *)a->data)[i] != 0;
    case FT_ABI_I32: return ((const int32_t *)a->data)[i];
    case FT_ABI_I64: return (double)((const int64_t *)a->data)[i];
    case FT_ABI_F16: return rt_half_to_float(((const uint16_t *)a->data)[i]);
    case FT_ABI_F32: return ((const float *)a->data)[i];
    default: return ((const double *)a->data)[i];
    }
}

/* Print element i of a: exact integers, True/False, %g-style floats. */
static void rt_print_elem(FILE *f, const rt_array *a, size_t i)
{
    switch (a->dtype) {
    case FT_ABI_BOOL: fputs(((const uint8_t *)a->data)[i] ? "True" : "False", f); break;
    case FT_ABI_I32: fprintf(f, "%d", ((const int32_t *)a->data)[i]); break;
    case FT_ABI_I64: fprintf(f, "%lld", (long long)((const int64_t *)a->data)[i]); break;
    case FT_ABI_F64: fprintf(f, "%.10g", rt_elem(a, i)); break;
    default: fprintf(f, "%.6g", rt_elem(a, i)); break;
    }
}

/* Print a's elements from *i on as nested lists for dimensions dim.. */
static void rt_print_nested(FILE *f, const rt_array *a, int dim, size_t *i)
{
    if (dim == a->ndim) {
        rt_print_elem(f, a, (*i)++);
        return;
    }
    fputc('[', f);
    for (int64_t j = 0; j < a->dims[dim]; j++) {
        if (j)
            fputs(", ", f);
        rt_print_nested(f, a, dim + 1, i);
    }
    fputc(']', f);
}

/* Print a large array as its sum, minimum, maximum and first 5 values
 * (a NaN anywhere makes min and max NaN, as in NumPy). */
static void rt_print_summary(FILE *f, const rt_array *a, size_t n)
{
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    int nan = 0;
    for (size_t i = 0; i < n; i++) {
        double v = rt_elem(a, i);
        sum += v;
        nan |= isnan(v);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (nan)
        lo = hi = NAN;
    int is_f64 = a->dtype == FT_ABI_F64;
    fprintf(f, is_f64 ? ": sum %.10g, min %.10g, max %.10g, first [" :
                        ": sum %.7g, min %.6g, max %.6g, first [", sum, lo, hi);
    for (size_t i = 0; i < 5 && i < n; i++) {
        if (i)
            fputs(", ", f);
        rt_print_elem(f, a, i);
    }
    fputs(", ...]\n", f);
}

/* Print one output: "y: f32[3] = [1, 2, 3]" when it has at most 20
 * elements, else its shape and a summary. */
static void rt_print_output(FILE *f, const rt_pstate *p)
{
    const rt_array *a = &p->arr;
    size_t n = a->nbytes / rt_dtype_size(a->dtype);
    fprintf(f, "%s: %s", p->d->name, rt_dtype_name(a->dtype));
    if (a->ndim)
        rt_print_dims(f, a->ndim, a->dims);
    if (n > 20) {
        rt_print_summary(f, a, n);
        return;
    }
    size_t i = 0;
    fputs(" = ", f);
    rt_print_nested(f, a, 0, &i);
    fputc('\n', f);
}

/* Create folder path and its parents (like mkdir -p). */
static int rt_mkdirs(rt_call *c, const char *path)
{
    char *buf = strdup(path);
    if (!buf)
        return rt_fail(c, "out of memory");
    for (char *s = buf + 1;; s++) {
        if (*s != '/' && *s)
            continue;
        char keep = *s;
        *s = 0;
        if (mkdir(buf, 0777) && errno != EEXIST) {
            int e = errno;
            free(buf);
            return rt_fail(c, "cannot create folder '%s': %s", path, strerror(e));
        }
        if (!(*s = keep))
            break;
    }
    free(buf);
    return 0;
}

/* Write p's array to a temporary for path, the next entry of st (*n). */
static int rt_stage_output(rt_call *c, const rt_pstate *p, const char *path, rt_stage *st,
                           int *n)
{
    char msg[768];
    if (rt_npy_stage(&st[(*n)++], path, &p->arr, msg, sizeof msg))
        return rt_fail(c, "parameter '%s': %s", p->d->name, msg);
    return 0;
}

/* Write every output to its temporary in st (*n of them): each `out`
 * given a path, and DIR/NAME.npy of every out/inout with --out-dir. */
static int rt_stage_outputs(rt_call *c, rt_stage *st, int *n)
{
    const char *dir = c->opts->out_dir;
    for (int k = 0; k < c->fn->nparams; k++) {
        const rt_pstate *p = &c->ps[k];
        if (p->d->kind != FT_PARAM_TENSOR || p->d->access == FT_ABI_IN)
            continue;
        if (p->value && p->d->access == FT_ABI_OUT && rt_stage_output(c, p, p->value, st, n))
            return 1;
        if (!dir)
            continue;
        char *path = NULL;
        if (asprintf(&path, "%s/%s.npy", dir, p->d->name) < 0)
            return rt_fail(c, "out of memory");
        int r = rt_stage_output(c, p, path, st, n);
        free(path);
        if (r)
            return 1;
    }
    return 0;
}

/* Step 7: print the outputs, then write the .npy outputs all or nothing:
 * each to a temporary beside its path, renamed into place once every one
 * was written (a failure, or SIGINT/SIGTERM/SIGHUP, leaves every path as
 * it was; runtime/stage.c). */
static int rt_outputs(rt_call *c)
{
    const char *dir = c->opts->out_dir;
    if (dir && rt_mkdirs(c, dir))
        return 1;
    for (int k = 0; c->opts->logical_out && k < c->fn->nparams; k++)
        if (c->ps[k].d->kind == FT_PARAM_TENSOR && c->ps[k].d->access != FT_ABI_IN &&
            c->ps[k].d->layout && rt_relayout(c, &c->ps[k], 0))
            return 1;
    for (int k = 0; c->opts->print && k < c->fn->nparams; k++) {
        const rt_pstate *p = &c->ps[k];
        if (p->d->kind == FT_PARAM_TENSOR && p->d->access != FT_ABI_IN)
            rt_print_output(c->out, p);
    }
    rt_stage *st = calloc(2 * (size_t)c->fn->nparams + 1, sizeof *st);
    if (!st)
        return rt_fail(c, "out of memory");
    int n = 0;
    int r = rt_stage_outputs(c, st, &n);
    char msg[768];
    if (!r && rt_stage_commit(st, n, 0, msg, sizeof msg))
        r = rt_fail(c, "%s", msg);
    rt_stage_free(st, n);
    free(st);
    return r;
}

/* ---------------------------------------------------------------- run */

/* Free everything a run allocated, and c itself (NULL is allowed). */
void rt_call_free(rt_call *c)
{
    if (!c)
        return;
    for (int k = 0; c->ps && k < c->fn->nparams; k++) {
        if (c->cu)
            rt_cuda_free(c->cu, c->ps[k].dev);
        rt_array_free(&c->ps[k].arr);
        free(c->ps[k].orig);
    }
    rt_cuda_close(c->cu);
    free(c->ps);
    free(c->dims);
    free(c->ldims);
    free(c->args);
    free(c);
}

int rt_call_again(rt_call *c, int zero_outs)
{
    if (!c->args) {
        if (rt_make_args(c) || rt_save_inouts(c))
            return -1;
    } else {
        rt_restore(c, zero_outs);
    }
    return c->fn->call(c->args);
}

/* Steps 1 to 5 for fn (see rt.h): the arguments of one call, or NULL
 * after printing why not to err. */
rt_call *rt_prepare(const rt_lib *lib, const ft_func_desc *fn, int nargs, char **args,
                    const rt_run_opts *opts, FILE *out, FILE *err)
{
    rt_call *c = calloc(1, sizeof *c);
    if (c) {
        *c = (rt_call){.lib = lib, .fn = fn, .opts = opts, .out = out, .err = err};
        c->ps = calloc((size_t)fn->nparams + 1, sizeof *c->ps);
    }
    if (!c || !c->ps) {
        fputs("error: out of memory\n", err);
        free(c);
        return NULL;
    }
    for (int k = 0; k < fn->nparams; k++)
        c->ps[k].d = &fn->params[k];
    if (rt_parse_args(c, nargs, args) || rt_read_inputs(c) || rt_infer_sizes(c) ||
        rt_check_shapes(c) || rt_alloc_tensors(c)) {
        rt_call_free(c);
        return NULL;
    }
    return c;
}

/* Size parameter k's value in c. */
int64_t rt_call_size(const rt_call *c, int k)
{
    return c->ps[k].size;
}

/* Tensor parameter k's array in c (data, dtype, shape). */
rt_array *rt_call_array(rt_call *c, int k)
{
    return &c->ps[k].arr;
}

const int64_t *rt_call_ldims(const rt_call *c, int k)
{
    return c->ps[k].ldims;
}

/* Whether parameter k of c was given a value on the command line. */
int rt_call_given(const rt_call *c, int k)
{
    return c->ps[k].value != NULL;
}

/* Report a function name that the library does not export. */
static int rt_no_function(const rt_lib *lib, const char *fname, FILE *err)
{
    const ft_module_desc *m = rt_module(lib);
    fprintf(err, "error: the library exports no function '%s'; it exports:", fname);
    for (int i = 0; i < m->nfuncs; i++)
        fprintf(err, "%s %s", i ? "," : "", m->funcs[i].name);
    fputs(m->nfuncs ? "\n" : " nothing\n", err);
    return 1;
}

/* Run fname (see rt.h): 0 on success, 1 on a usage/data error, 2 when the
 * function returned a non-zero code. */
int rt_run(rt_lib *lib, const char *fname, int nargs, char **args,
           const rt_run_opts *opts, FILE *out, FILE *err)
{
    const ft_func_desc *fn = rt_find(lib, fname);
    if (!fn)
        return rt_no_function(lib, fname, err);
    rt_call *c = rt_prepare(lib, fn, nargs, args, opts, out, err);
    if (!c)
        return 1;
    int r = rt_make_args(c) || rt_dev_setup(c);
    if (!r && opts->bench > 0)
        r = rt_bench(c, opts->bench);
    else if (!r && !(r = rt_dev_upload(c)))
        r = rt_call_once(c);
    if (!r)
        r = rt_dev_download(c);
    if (!r)
        r = rt_outputs(c);
    rt_call_free(c);
    return r;
}
