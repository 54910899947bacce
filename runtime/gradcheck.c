/* gradcheck.c - `ftc gradcheck`: a gradient against central differences.
 *
 * The library is built in f64 (--promote-f64) with the gradient g of f.
 * With random inputs (floats in [-1, 1), ints in [0, smallest size)) or
 * .npy files, and random output weights r, the scalar L = sum(r * outs)
 * has the gradient g(params, d_outs = r) gives; each checked element x[j]
 * of a wrt tensor is compared with the central differences
 * D(h) = (L(x[j] + h) - L(x[j] - h)) / 2h, h = 1e-5 * max(1, |x[j]|), and
 * D(h / 2), combined by Richardson extrapolation (4 D(h/2) - D(h)) / 3
 * (truncation error O(h^4): SoftRas's sharp sigmoids gave 1.5e-6 with
 * D(h) alone).  L(x + h) - L(x - h) is summed output by output,
 * r * (out(x + h) - out(x - h)), not as the difference of two sums, whose
 * rounding error grew with the number of outputs (Longformer: 7e-7).
 * The error of an element is
 * |fd - g| / max(|fd|, |g|, 1e-3 * largest |g| of the tensor), so that
 * entries that are zero up to rounding are measured against the tensor's
 * scale.  At most RT_GC_MAX elements per tensor are checked, evenly spread.
 *
 * A library built for --target cuda whose functions take `@ gpu` tensors
 * gets device copies: every call copies each `@ gpu` argument to a device
 * buffer (loading the CUDA runtime on first use, runtime/device.c) and the
 * written ones back afterwards, so the host arrays stay the truth.
 */
#include "rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RT_GC_MAX 400
#define GC_STEP 1e-5

/* One argument slot of a call: a size or a tensor. */
typedef struct gc_arg {
    int64_t size;
    double *data;          /* floats are f64 in a promoted library */
    void *raw;             /* the tensor's data (any dtype) */
    size_t n;              /* elements */
} gc_arg;

/* splitmix64, as rt_run's random data. */
static uint64_t gc_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* "d_NAME" (malloc-owned). */
static char *gc_d_name(const char *name)
{
    char *s = malloc(strlen(name) + 3);
    sprintf(s, "d_%s", name);
    return s;
}

/* The value given as name=value in args, or NULL. */
static const char *gc_arg_value(int nargs, char **args, const char *name)
{
    size_t len = strlen(name);
    for (int i = 0; i < nargs; i++)
        if (!strncmp(args[i], name, len) && args[i][len] == '=')
            return args[i] + len + 1;
    return NULL;
}

/* The index of parameter name in fn, or -1. */
static int gc_param(const ft_func_desc *fn, const char *name)
{
    for (int k = 0; k < fn->nparams; k++)
        if (!strcmp(fn->params[k].name, name))
            return k;
    return -1;
}

/* Fill a tensor of dtype dt with n random values. */
static void gc_random(void *p, int dt, size_t n, uint64_t *s, int64_t m)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = gc_next(s);
        switch (dt) {
        case FT_ABI_F64: ((double *)p)[i] = (double)(r >> 11) * 0x1p-52 * 2.0 - 1.0; break;
        case FT_ABI_F32: ((float *)p)[i] = (float)((double)(r >> 11) * 0x1p-52 * 2.0 - 1.0); break;
        case FT_ABI_I32: ((int32_t *)p)[i] = (int32_t)(r % (uint64_t)m); break;
        case FT_ABI_I64: ((int64_t *)p)[i] = (int64_t)(r % (uint64_t)m); break;
        case FT_ABI_BOOL: ((uint8_t *)p)[i] = (uint8_t)(r >> 63); break;
        default: break;
        }
    }
}

/* Set up f's arguments: sizes, then tensors (from .npy or random). */
static int gc_setup(const ft_func_desc *fn, int nargs, char **args, uint64_t seed, gc_arg *a,
                    int64_t *dims, FILE *err)
{
    int64_t sizes[64];
    int ns = 0;
    int64_t m = INT64_MAX;
    for (int k = 0; k < fn->nparams; k++) {
        if (fn->params[k].kind != FT_PARAM_SIZE)
            continue;
        const char *v = gc_arg_value(nargs, args, fn->params[k].name);
        a[k].size = v ? strtoll(v, NULL, 10) : 4;
        sizes[ns++] = a[k].size;
        if (a[k].size < m)
            m = a[k].size;
    }
    if (m < 1 || m == INT64_MAX)
        m = 1;
    fn->shapes(sizes, dims);
    uint64_t s = seed;
    int64_t *d = dims;
    for (int k = 0; k < fn->nparams; k++) {
        const ft_param_desc *p = &fn->params[k];
        if (p->kind == FT_PARAM_SIZE)
            continue;
        size_t n = 1;
        for (int j = 0; j < p->ndim; j++)
            n *= (size_t)d[j];
        d += p->ndim;
        a[k].n = n;
        a[k].raw = calloc(n ? n : 1, rt_dtype_size(p->dtype));
        const char *v = gc_arg_value(nargs, args, p->name);
        if (v) {
            rt_array arr;
            char e[512];
            if (rt_npy_read(v, &arr, e, sizeof e) || arr.dtype != p->dtype ||
                arr.nbytes != n * rt_dtype_size(p->dtype)) {
                fprintf(err, "ftc gradcheck: %s=%s: %s\n", p->name, v,
                        e[0] ? e : "wrong dtype or shape");
                return 1;
            }
            memcpy(a[k].raw, arr.data, arr.nbytes);
            rt_array_free(&arr);
        } else if (p->access != FT_ABI_OUT) {
            gc_random(a[k].raw, p->dtype, n, &s, m);
        }
        if (p->dtype == FT_ABI_F64)
            a[k].data = a[k].raw;
    }
    return 0;
}

/* The CUDA runtime of `@ gpu` arguments (loaded on first use), and what
 * failed with it. */
typedef struct gc_dev {
    rt_cuda *cu;
    char err[512];
} gc_dev;

/* Move the `@ gpu` tensors among ptrs (fn's arguments) to device buffers
 * (dev[k], NULL for the others); 0 on success, else dev->err says why. */
static int gc_to_device(gc_dev *d, const ft_func_desc *fn, void **ptrs, void **dev,
                        const size_t *bytes)
{
    for (int k = 0; k < fn->nparams && k < 128; k++)
        dev[k] = NULL;
    for (int k = 0; k < fn->nparams && k < 128; k++) {
        if (fn->params[k].kind != FT_PARAM_TENSOR || fn->params[k].mtype != 1)
            continue;
        if ((!d->cu && !(d->cu = rt_cuda_open(d->err, sizeof d->err))) ||
            rt_cuda_alloc(d->cu, bytes[k], &dev[k], d->err, sizeof d->err) ||
            rt_cuda_copy(d->cu, dev[k], ptrs[k], bytes[k], 1, d->err, sizeof d->err)) {
            for (int j = 0; j <= k; j++)
                if (dev[j])
                    rt_cuda_free(d->cu, dev[j]);
            return 1;
        }
        void *host = ptrs[k];
        ptrs[k] = dev[k];
        dev[k + 128] = host;       /* where it goes back */
    }
    return 0;
}

/* Copy the written `@ gpu` tensors back and free every device buffer; 0
 * on success. */
static int gc_from_device(gc_dev *d, const ft_func_desc *fn, void **dev, const size_t *bytes)
{
    int bad = 0;
    for (int k = 0; k < fn->nparams && k < 128; k++) {
        if (!dev[k])
            continue;
        if (fn->params[k].access != FT_ABI_IN && !bad)
            bad = rt_cuda_copy(d->cu, dev[k + 128], dev[k], bytes[k], 0, d->err, sizeof d->err);
        rt_cuda_free(d->cu, dev[k]);
    }
    return bad;
}

/* Call fn with arguments taken by name from f's slots (fa) and the extra
 * slots (xa, named xnames); `@ gpu` tensors through device copies (d).
 * fn's return code, -1 when an argument is missing, -2 when the device
 * failed (d->err). */
static int gc_call(gc_dev *d, const ft_func_desc *fn, const ft_func_desc *f, gc_arg *fa, int nx,
                   const char **xnames, gc_arg *xa)
{
    void *ptrs[128], *dev[256];
    size_t bytes[128];
    for (int k = 0; k < fn->nparams && k < 128; k++) {
        const char *name = fn->params[k].name;
        int i = gc_param(f, name);
        gc_arg *a = NULL;
        if (i >= 0)
            a = &fa[i];
        for (int j = 0; !a && j < nx; j++)
            if (!strcmp(xnames[j], name))
                a = &xa[j];
        if (!a)
            return -1;
        ptrs[k] = fn->params[k].kind == FT_PARAM_SIZE ? (void *)&a->size : a->raw;
        bytes[k] = a->n * rt_dtype_size(fn->params[k].dtype);
    }
    if (gc_to_device(d, fn, ptrs, dev, bytes))
        return -2;
    int rc = fn->call(ptrs);
    if (gc_from_device(d, fn, dev, bytes))
        return -2;
    return rc;
}

/* Run f on the arguments a, the inout tensors first reset to orig; nonzero
 * when the call failed. */
static int gc_run(gc_dev *d, const ft_func_desc *f, gc_arg *a, gc_arg *orig)
{
    for (int k = 0; k < f->nparams; k++)
        if (f->params[k].access == FT_ABI_INOUT)
            memcpy(a[k].raw, orig[k].raw, a[k].n * rt_dtype_size(f->params[k].dtype));
    return gc_call(d, f, f, a, 0, NULL, NULL) != 0;
}

/* Copy the float outputs of the last run (those with weights r), one after
 * another, into snap (room for all of them). */
static void gc_snapshot(const ft_func_desc *f, const gc_arg *a, const gc_arg *r, double *snap)
{
    for (int k = 0; k < f->nparams; k++)
        if (r[k].data) {
            memcpy(snap, a[k].data, a[k].n * sizeof(double));
            snap += a[k].n;
        }
}

/* sum r * (snap - outputs of the last run): L(run of snap) - L(last run)
 * summed output by output, so that outputs the step did not change add
 * exactly 0 instead of the rounding error of two large sums. */
static double gc_loss_diff(const ft_func_desc *f, const gc_arg *a, const gc_arg *r,
                           const double *snap)
{
    double d = 0;
    for (int k = 0; k < f->nparams; k++)
        if (r[k].data) {
            for (size_t i = 0; i < a[k].n; i++)
                d += r[k].data[i] * (snap[i] - a[k].data[i]);
            snap += a[k].n;
        }
    return d;
}

/* The central difference (L(x + h) - L(x - h)) / 2h in element i of
 * tensor slot k (NaN when a call failed); the element restored afterwards. */
static double gc_central(gc_dev *d, const ft_func_desc *f, gc_arg *a, gc_arg *r, gc_arg *orig,
                         int k, size_t i, double h, double *snap)
{
    double x0 = a[k].data[i];
    a[k].data[i] = x0 + h;
    int bad = gc_run(d, f, a, orig);
    gc_snapshot(f, a, r, snap);
    a[k].data[i] = x0 - h;
    bad |= gc_run(d, f, a, orig);
    a[k].data[i] = x0;
    return bad ? NAN : gc_loss_diff(f, a, r, snap) / (2 * h);
}

/* dL/dx for element i of tensor slot k: central differences with steps h
 * and h / 2 combined by Richardson extrapolation, (4 D(h/2) - D(h)) / 3,
 * which cancels the h^2 term of the truncation error (sharp functions
 * such as SoftRas's sigmoid(d2 / 1e-4) have a large third derivative). */
static double gc_derivative(gc_dev *d, const ft_func_desc *f, gc_arg *a, gc_arg *r,
                            gc_arg *orig, int k, size_t i, double *snap)
{
    double h = GC_STEP * fmax(1.0, fabs(a[k].data[i]));
    double d1 = gc_central(d, f, a, r, orig, k, i, h, snap);
    double d2 = gc_central(d, f, a, r, orig, k, i, h / 2, snap);
    return d2 + (d2 - d1) / 3;
}

int rt_gradcheck(rt_lib *lib, const char *fname, const char *gname, int nwrt,
                 const char *const *wrt, int nargs, char **args, uint64_t seed, FILE *out,
                 FILE *err)
{
    const ft_func_desc *f = rt_find(lib, fname), *g = rt_find(lib, gname);
    if (!f || !g || f->nparams > 60) {
        fprintf(err, "ftc gradcheck: no function `%s` in the library\n", fname);
        return 1;
    }
    int np = f->nparams;
    gc_arg a[64] = {{0}}, r[64] = {{0}}, orig[64] = {{0}}, x[128] = {{0}};
    const char *xn[128];
    int64_t dims[512];
    if (gc_setup(f, nargs, args, seed, a, dims, err))
        return 1;
    uint64_t s = seed ^ 0x5eedull;
    int nx = 0;
    for (int k = 0; k < np; k++) {
        const ft_param_desc *p = &f->params[k];
        if (p->kind != FT_PARAM_TENSOR)
            continue;
        orig[k].raw = malloc(a[k].n * rt_dtype_size(p->dtype) + 1);
        memcpy(orig[k].raw, a[k].raw, a[k].n * rt_dtype_size(p->dtype));
        if (p->access == FT_ABI_IN || p->dtype != FT_ABI_F64)
            continue;
        r[k].n = a[k].n;
        r[k].raw = r[k].data = calloc(a[k].n + 1, sizeof(double));
        gc_random(r[k].data, FT_ABI_F64, a[k].n, &s, 1);
        xn[nx] = gc_d_name(p->name);
        x[nx++] = r[k];
    }
    for (int w = 0; w < nwrt; w++) {
        int k = gc_param(f, wrt[w]);
        xn[nx] = gc_d_name(wrt[w]);
        x[nx].n = a[k].n;
        x[nx].raw = x[nx].data = calloc(a[k].n + 1, sizeof(double));
        nx++;
    }
    gc_dev dev = {0};
    int rc = gc_call(&dev, g, f, a, nx, xn, x);
    if (rc) {
        if (rc == -2)
            fprintf(err, "ftc gradcheck: %s\n", dev.err);
        else
            rt_report_failure(lib, gname, rc, err);
        rt_cuda_close(dev.cu);
        return 1;
    }
    size_t nsnap = 1;
    for (int k = 0; k < np; k++)
        nsnap += r[k].n;
    double *snap = malloc(nsnap * sizeof(double));
    double worst = 0;
    for (int w = 0; w < nwrt; w++) {
        int k = gc_param(f, wrt[w]);
        double *an = x[nx - nwrt + w].data, gmax = 0, werr = 0;
        size_t n = a[k].n, step = n > RT_GC_MAX ? n / RT_GC_MAX : 1, checked = 0;
        for (size_t i = 0; i < n; i++)
            gmax = fmax(gmax, fabs(an[i]));
        for (size_t i = 0; i < n; i += step, checked++) {
            double fd = gc_derivative(&dev, f, a, r, orig, k, i, snap);
            double e = fabs(fd - an[i]) / fmax(fmax(fabs(fd), fabs(an[i])), fmax(1e-3 * gmax, 1e-12));
            werr = isnan(e) ? INFINITY : fmax(werr, e);   /* a failed call: NaN */
        }
        fprintf(out, "gradcheck %s wrt %s: %zu of %zu elements, largest relative error %.3g\n",
                fname, wrt[w], checked, n, werr);
        worst = fmax(worst, werr);
    }
    rt_cuda_close(dev.cu);
    for (int k = 0; k < np; k++) {
        free(a[k].raw);
        free(orig[k].raw);
    }
    free(snap);
    for (int j = 0; j < nx; j++) {
        free(x[j].raw);
        free((char *)xn[j]);
    }
    if (worst > 1e-6) {
        fprintf(err, "ftc gradcheck: largest relative error %.3g exceeds 1e-6\n", worst);
        return 2;
    }
    return 0;
}
