/* gradcheck.c - `ftc gradcheck`: a gradient against central differences.
 *
 * The library is built in f64 (--promote-f64) with the gradient g of f.
 * f's arguments are prepared as `ftc run` prepares them (rt_prepare):
 * name=value arguments, sizes inferred from the .npy shapes (4 when
 * neither given nor inferred), every file's shape checked, random data
 * (as `ftc run --random`) for the in/inout tensors not given, `out`
 * tensors zeros.  With random output weights r, the scalar
 * L = sum(r * outs) has the gradient g(params, d_outs = r) gives; each
 * checked element x[j] of a wrt tensor is compared with the central
 * differences D(h) = (L(x[j] + h) - L(x[j] - h)) / 2h,
 * h = 1e-5 * max(1, |x[j]|), and D(h / 2), combined by Richardson
 * extrapolation (4 D(h/2) - D(h)) / 3 (truncation error O(h^4): SoftRas's
 * sharp sigmoids gave 1.5e-6 with D(h) alone).  L(x + h) - L(x - h) is
 * summed output by output, r * (out(x + h) - out(x - h)), not as the
 * difference of two sums, whose rounding error grew with the number of
 * outputs (Longformer: 7e-7).  Every call starts from the same inputs:
 * the inout tensors and the out tensors (which a program may read before
 * writing them) are reset first.
 *
 * The error of an element is
 * |fd - g| / max(|fd|, |g|, 1e-3 * largest |g| of the tensor), so that
 * entries that are zero up to rounding are measured against the tensor's
 * scale.  A tensor of up to RT_GC_MAX elements is checked whole, a larger
 * one at exactly RT_GC_MAX elements evenly spread.  An element whose error
 * exceeds the tolerance is first differentiated again with a step 64 times
 * larger, and counted with the closer of the two: the central difference
 * of a loss that is large against its derivative is rounding noise of
 * about 1e-16 |L| / h, times the operations after the perturbed value (an
 * f64 gradient of 3.6e-4 of a sum of 1,875 terms came out 8e-6 off,
 * relatively, at h = 1e-5 and 1.3e-7 at 64 h); a wrong gradient stays wrong
 * at any step, and the truncation error of the extrapolated difference
 * grows only as h^4.  An element still above it is looked at (gc_kink):
 * at the steps h, h / 10 and h / 100, the central and the one-sided
 * differences (each extrapolated); when they show a derivative that changes with the step
 * and g agrees with a one-sided difference, the step crossed a
 * non-differentiable point (max, abs, relu, a comparison): a warning, not
 * an error (rt_gc_verdict).
 *
 * A library built for --target cuda whose functions take `@ gpu` tensors
 * gets device copies: every call copies each `@ gpu` argument to a device
 * buffer (loading the CUDA runtime on first use, runtime/device.c) and the
 * written ones back afterwards, so the host arrays stay the truth.
 */
#include "rt.h"
#include "layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RT_GC_MAX 400       /* elements checked per wrt tensor at most */
#define GC_STEP 1e-5
#define GC_BIG_STEP 64      /* the retry's step, times h */
#define GC_NSTEPS 3         /* the kink check's steps: h, h / 10, h / 100 */
#define GC_MAX_WARN 5       /* kink warnings printed per wrt tensor */
#define GC_MAXP 60          /* parameters of f at most */

/* One argument slot of a call: a size or a tensor. */
typedef struct gc_arg {
    int64_t size;
    double *data;          /* floats are f64 in a promoted library */
    void *raw;             /* the tensor's data (any dtype) */
    size_t n;              /* elements */
} gc_arg;

/* The CUDA runtime of `@ gpu` arguments (loaded on first use), and what
 * failed with it. */
typedef struct gc_dev {
    rt_cuda *cu;
    char err[512];
} gc_dev;

/* One gradcheck in progress; gc_free frees what it holds. */
typedef struct gc_state {
    const rt_lib *lib;      /* the library (its error record) */
    const ft_func_desc *f, *g;
    const rt_gc_opts *o;
    FILE *out, *err;
    rt_call *call;          /* f's prepared arguments (owns their tensors) */
    gc_arg a[GC_MAXP];      /* f's slots, pointing into call */
    gc_arg orig[GC_MAXP];   /* the written tensors (inout, out) before any call */
    gc_arg r[GC_MAXP];      /* the weights of the float outputs (owned) */
    gc_arg x[2 * GC_MAXP];  /* g's extra slots: d_OUT (= r) then d_WRT (owned) */
    const char *xn[2 * GC_MAXP];
    int nx, nout, nwrt;     /* slots in x; of them d_OUT; d_WRT */
    gc_dev dev;
    double *snap, *base;    /* the outputs of one run; of the unperturbed run */
    int failed;             /* a run of f failed (reported): the check stops */
} gc_state;

/* "d_NAME" (malloc-owned). */
static char *gc_d_name(const char *name)
{
    char *s = malloc(strlen(name) + 3);
    if (s)
        sprintf(s, "d_%s", name);
    return s;
}

/* The index of parameter name in fn, or -1. */
static int gc_param(const ft_func_desc *fn, const char *name)
{
    for (int k = 0; k < fn->nparams; k++)
        if (!strcmp(fn->params[k].name, name))
            return k;
    return -1;
}

/* Whether parameter p is a tensor that f writes (its value is reset
 * before every call). */
static int gc_written(const ft_param_desc *p)
{
    return p->kind == FT_PARAM_TENSOR && p->access != FT_ABI_IN;
}

/* f's arguments prepared as `ftc run` prepares them (see the file
 * comment) into s->call and s->a; 0, or 1 after printing why not. */
static int gc_prepare(gc_state *s, int nargs, char **args)
{
    rt_run_opts ro = {.random = 1, .seed = s->o->seed, .default_size = 4};
    s->call = rt_prepare(s->lib, s->f, nargs, args, &ro, s->out, s->err);
    if (!s->call)
        return 1;
    for (int k = 0; k < s->f->nparams; k++) {
        const ft_param_desc *p = &s->f->params[k];
        if (p->kind == FT_PARAM_SIZE) {
            s->a[k].size = rt_call_size(s->call, k);
            continue;
        }
        if (p->access == FT_ABI_OUT && rt_call_given(s->call, k)) {
            fprintf(s->err, "ftc gradcheck: '%s' is an `out` parameter: gradcheck passes "
                    "it zeros, as `ftc run` does, and writes no file; drop %s=...\n",
                    p->name, p->name);
            return 1;
        }
        rt_array *arr = rt_call_array(s->call, k);
        s->a[k].raw = arr->data;
        s->a[k].n = arr->nbytes / rt_dtype_size(p->dtype);
        if (p->dtype == FT_ABI_F64)
            s->a[k].data = arr->data;
    }
    return 0;
}

/* Copies of the written tensors (s->orig), random weights of the float
 * outputs (s->r) and g's d_OUT and d_WRT slots (s->x); 0, or 1 when
 * memory ran out. */
static int gc_slots(gc_state *s, int nwrt, const char *const *wrt)
{
    for (int k = 0; k < s->f->nparams; k++) {
        const ft_param_desc *p = &s->f->params[k];
        if (!gc_written(p))
            continue;
        size_t bytes = s->a[k].n * rt_dtype_size(p->dtype);
        if (!(s->orig[k].raw = malloc(bytes + 1)))
            return 1;
        memcpy(s->orig[k].raw, s->a[k].raw, bytes);
        if (p->dtype != FT_ABI_F64)
            continue;
        s->r[k].n = s->a[k].n;
        s->r[k].raw = s->r[k].data = calloc(s->a[k].n + 1, sizeof(double));
        if (!s->r[k].data)
            return 1;
        rt_array w = {.dtype = FT_ABI_F64, .data = s->r[k].data, .nbytes = bytes};
        rt_fill_random(&w, rt_param_seed(s->o->seed ^ 0x5eedull, p->name), 1);
        s->xn[s->nx] = gc_d_name(p->name);
        s->x[s->nx++] = s->r[k];
    }
    s->nout = s->nx;
    for (int w = 0; w < nwrt; w++) {
        int k = gc_param(s->f, wrt[w]);
        s->xn[s->nx] = gc_d_name(wrt[w]);
        s->x[s->nx].n = s->a[k].n;
        s->x[s->nx].raw = s->x[s->nx].data = calloc(s->a[k].n + 1, sizeof(double));
        if (!s->xn[s->nx++] || !s->x[s->nx - 1].data)
            return 1;
    }
    s->nwrt = nwrt;
    for (int j = 0; j < s->nout; j++)
        if (!s->xn[j])
            return 1;
    return 0;
}

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

/* Call fn with arguments taken by name from f's slots (s->a) and, when
 * extra, g's extra slots (s->x); `@ gpu` tensors through device copies.
 * fn's return code, -1 when an argument is missing, -2 when the device
 * failed (s->dev.err). */
static int gc_call(gc_state *s, const ft_func_desc *fn, int extra)
{
    void *ptrs[128], *dev[256];
    size_t bytes[128];
    for (int k = 0; k < fn->nparams && k < 128; k++) {
        const char *name = fn->params[k].name;
        int i = gc_param(s->f, name);
        gc_arg *a = i >= 0 ? &s->a[i] : NULL;
        for (int j = 0; !a && extra && j < s->nx; j++)
            if (!strcmp(s->xn[j], name))
                a = &s->x[j];
        if (!a)
            return -1;
        ptrs[k] = fn->params[k].kind == FT_PARAM_SIZE ? (void *)&a->size : a->raw;
        bytes[k] = a->n * rt_dtype_size(fn->params[k].dtype);
    }
    if (gc_to_device(&s->dev, fn, ptrs, dev, bytes))
        return -2;
    int rc = fn->call(ptrs);
    if (gc_from_device(&s->dev, fn, dev, bytes))
        return -2;
    return rc;
}

/* Report that a call of fn returned rc (nonzero): the device's failure,
 * or the library's located error (rt_report_failure). */
static void gc_report_call(gc_state *s, const ft_func_desc *fn, int rc)
{
    if (rc == -2)
        fprintf(s->err, "ftc gradcheck: %s\n", s->dev.err);
    else
        rt_report_failure(s->lib, fn->name, rc, s->err);
}

/* Run f on its arguments, the inout and out tensors first reset to what
 * they held before any call (an `out` may be read before it is written);
 * nonzero when the call failed, which the first time is reported (a
 * failing check of f on perturbed inputs is the program's error, not a
 * NaN derivative) and stops the check (s->failed). */
static int gc_run(gc_state *s)
{
    for (int k = 0; k < s->f->nparams; k++)
        if (gc_written(&s->f->params[k]))
            memcpy(s->a[k].raw, s->orig[k].raw,
                   s->a[k].n * rt_dtype_size(s->f->params[k].dtype));
    int rc = gc_call(s, s->f, 0);
    if (rc && !s->failed) {
        gc_report_call(s, s->f, rc);
        s->failed = 1;
    }
    return rc != 0;
}

/* Copy the float outputs of the last run (those with weights), one after
 * another, into snap (room for all of them). */
static void gc_snapshot(const gc_state *s, double *snap)
{
    for (int k = 0; k < s->f->nparams; k++)
        if (s->r[k].data) {
            memcpy(snap, s->a[k].data, s->a[k].n * sizeof(double));
            snap += s->a[k].n;
        }
}

/* sum r * (snap - outputs of the last run): L(run of snap) - L(last run)
 * summed output by output, so that outputs the step did not change add
 * exactly 0 instead of the rounding error of two large sums. */
static double gc_loss_diff(const gc_state *s, const double *snap)
{
    double d = 0;
    for (int k = 0; k < s->f->nparams; k++)
        if (s->r[k].data) {
            for (size_t i = 0; i < s->a[k].n; i++)
                d += s->r[k].data[i] * (snap[i] - s->a[k].data[i]);
            snap += s->a[k].n;
        }
    return d;
}

/* L(x + u) - L(x + v) for element i of tensor slot k (NaN when a call
 * failed); the element restored afterwards. */
static double gc_diff(gc_state *s, int k, size_t i, double u, double v)
{
    double x0 = s->a[k].data[i];
    s->a[k].data[i] = x0 + u;
    int bad = gc_run(s);
    gc_snapshot(s, s->snap);
    s->a[k].data[i] = x0 + v;
    bad |= gc_run(s);
    s->a[k].data[i] = x0;
    return bad ? NAN : gc_loss_diff(s, s->snap);
}

/* L(x + u) - L(x) for element i of tensor slot k, L(x) from the run kept
 * in s->base (NaN when the call failed). */
static double gc_diff_base(gc_state *s, int k, size_t i, double u)
{
    double x0 = s->a[k].data[i];
    s->a[k].data[i] = x0 + u;
    int bad = gc_run(s);
    s->a[k].data[i] = x0;
    return bad ? NAN : -gc_loss_diff(s, s->base);
}

/* The step of element value x: 1e-5 * max(1, |x|). */
static double gc_step(double x)
{
    return GC_STEP * fmax(1.0, fabs(x));
}

/* dL/dx for element i of tensor slot k: central differences with steps h
 * and h / 2 (h = SCALE times the usual step) combined by Richardson
 * extrapolation, (4 D(h/2) - D(h)) / 3, which cancels the h^2 term of the
 * truncation error (sharp functions such as SoftRas's sigmoid(d2 / 1e-4)
 * have a large third derivative). */
static double gc_derivative(gc_state *s, int k, size_t i, double scale)
{
    double h = scale * gc_step(s->a[k].data[i]);
    double d1 = gc_diff(s, k, i, h, -h) / (2 * h);
    double d2 = gc_diff(s, k, i, h / 2, -h / 2) / h;
    return d2 + (d2 - d1) / 3;
}

/* The kink check's differences of element i of tensor slot k at the steps
 * h, h / 10, h / 100: central (Richardson, as gc_derivative) and one-sided
 * (forward 2 F(t/2) - F(t), F(t) = (L(x + t) - L(x)) / t, which cancels
 * the O(t) term; backward likewise), all from the same 4 runs per step
 * against the unperturbed run.  0, or 1 when the unperturbed run failed. */
static int gc_kink_diffs(gc_state *s, int k, size_t i, double *central, double *fwd,
                         double *bwd)
{
    if (gc_run(s))
        return 1;
    gc_snapshot(s, s->base);
    double t = gc_step(s->a[k].data[i]);
    for (int j = 0; j < GC_NSTEPS; j++, t /= 10) {
        double p1 = gc_diff_base(s, k, i, t), p2 = gc_diff_base(s, k, i, t / 2);
        double m1 = -gc_diff_base(s, k, i, -t), m2 = -gc_diff_base(s, k, i, -t / 2);
        double c1 = (p1 + m1) / (2 * t), c2 = (p2 + m2) / t;
        central[j] = c2 + (c2 - c1) / 3;
        fwd[j] = (4 * p2 - p1) / t;
        bwd[j] = (4 * m2 - m1) / t;
    }
    return 0;
}

/* |a - b| / max(|a|, |b|, floor); infinite when either is NaN. */
static double gc_rel(double a, double b, double floor)
{
    double e = fabs(a - b) / fmax(fmax(fabs(a), fabs(b)), floor);
    return isnan(e) ? INFINITY : e;
}

/* The verdict on one element (see rt.h). */
rt_gc_verdict_kind rt_gc_verdict(double g, double fd, int n, const double *central,
                                 const double *forward, const double *backward,
                                 double floor, double tol)
{
    if (gc_rel(fd, g, floor) <= tol)
        return RT_GC_OK;
    int moves = 0, agrees = 0;
    for (int j = 0; j < n; j++) {
        moves |= gc_rel(central[j], central[0], floor) > tol ||
                 gc_rel(forward[j], backward[j], floor) > tol;
        agrees |= gc_rel(forward[j], g, floor) <= tol || gc_rel(backward[j], g, floor) <= tol;
    }
    return moves && agrees ? RT_GC_KINK : RT_GC_FAIL;
}

/* Element i of parameter k as text into buf: "x[1, 2]" (row-major index
 * i in its shape), "x" for a 0-D tensor. */
static const char *gc_index_text(gc_state *s, int k, size_t i, char *buf, size_t cap)
{
    const rt_array *arr = rt_call_array(s->call, k);
    int64_t idx[RT_MAX_DIMS];
    for (int d = arr->ndim - 1; d >= 0; d--) {
        idx[d] = arr->dims[d] ? (int64_t)(i % (size_t)arr->dims[d]) : 0;
        i = arr->dims[d] ? i / (size_t)arr->dims[d] : 0;
    }
    size_t n = (size_t)snprintf(buf, cap, "%s", s->f->params[k].name);
    for (int d = 0; d < arr->ndim && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%lld%s", d ? ", " : "[",
                              (long long)idx[d], d + 1 == arr->ndim ? "]" : "");
    return buf;
}

/* What the check of one wrt tensor found. */
typedef struct gc_result {
    size_t checked, kinks;
    double err;             /* the largest relative error of the counted elements */
    size_t total;           /* the elements that could be checked (logical ones) */
    size_t at;              /* its element */
    double analytic, numeric;
    int any;                /* whether an element was counted */
} gc_result;

/* Print the warning for a non-differentiable point at element i of
 * tensor slot k (the smallest step's differences). */
static void gc_warn_kink(gc_state *s, int k, size_t i, double g, double fd, const double *fwd,
                         const double *bwd)
{
    char where[256];
    gc_index_text(s, k, i, where, sizeof where);
    fprintf(s->err, "ftc gradcheck: warning: %s wrt %s: the finite differences change with "
            "the step (a non-differentiable point: max, min, abs, relu, a comparison; or a "
            "function too sharp for the step), the gradient agrees with a one-sided difference: "
            "analytic %.10g, central difference %.10g, one-sided %.10g (forward) and %.10g "
            "(backward); not counted as an error\n", s->f->name, where, g, fd,
            fwd[GC_NSTEPS - 1], bwd[GC_NSTEPS - 1]);
}

/* Check element i of tensor slot k (analytic g, tensor scale floor) into
 * res: its error counted, or a non-differentiable point skipped (with a
 * warning, the first GC_MAX_WARN of a tensor). */
static void gc_check_element(gc_state *s, int k, size_t i, double g, double floor,
                             gc_result *res)
{
    double fd = gc_derivative(s, k, i, 1), e = gc_rel(fd, g, floor);
    double c[GC_NSTEPS], fw[GC_NSTEPS], bw[GC_NSTEPS];
    if (s->failed)   /* f failed on the perturbed inputs (reported) */
        return;
    /* rounding noise of L(x + h) - L(x - h)? (see the top); above the
     * default tolerance whatever --tol is, which changes the verdict only */
    if (e > fmin(s->o->tol, RT_GC_TOL)) {
        double big = gc_derivative(s, k, i, GC_BIG_STEP);
        if (s->failed)
            return;
        if (gc_rel(big, g, floor) < e) {
            fd = big;
            e = gc_rel(big, g, floor);
        }
    }
    if (e > s->o->tol && !gc_kink_diffs(s, k, i, c, fw, bw) && !s->failed &&
        rt_gc_verdict(g, fd, GC_NSTEPS, c, fw, bw, floor, s->o->tol) == RT_GC_KINK) {
        if (res->kinks++ < GC_MAX_WARN)
            gc_warn_kink(s, k, i, g, fd, fw, bw);
        return;
    }
    if (!res->any || e > res->err) {
        res->err = e;
        res->at = i;
        res->analytic = g;
        res->numeric = fd;
        res->any = 1;
    }
}

/* For a wrt tensor k with a layout: the physical offsets of its logical
 * elements (malloc'd; *n their count), so that only those are perturbed
 * (pad elements are never read); NULL, *n unchanged, without a layout. */
static size_t *gc_logical_offsets(gc_state *s, int k, size_t *n)
{
    const ft_param_desc *p = &s->f->params[k];
    rt_layout l;
    if (!p->layout || rt_layout_parse(p->layout, p->lndim, &l, NULL, 0, NULL))
        return NULL;
    const int64_t *ld = rt_call_ldims(s->call, k);
    size_t total = 1;
    for (int d = 0; d < p->lndim; d++)
        total *= ld[d] > 0 ? (size_t)ld[d] : 0;
    size_t *offs = malloc((total ? total : 1) * sizeof *offs);
    if (!offs)
        return NULL;
    *n = rt_layout_offsets(&l, ld, offs);
    return offs;
}

/* Check wrt tensor w (f's slot k, analytic gradient an): at most
 * RT_GC_MAX elements, evenly spread (all when there are no more); of a
 * laid-out tensor, its logical elements only. */
static gc_result gc_check_tensor(gc_state *s, int k, const double *an)
{
    gc_result res = {0};
    size_t n = s->a[k].n;
    double gmax = 0;
    for (size_t i = 0; i < n; i++)
        gmax = fmax(gmax, fabs(an[i]));
    double floor = fmax(1e-3 * gmax, 1e-12);
    size_t *offs = gc_logical_offsets(s, k, &n);
    res.total = n;
    res.checked = n < RT_GC_MAX ? n : RT_GC_MAX;
    for (size_t j = 0; j < res.checked && !s->failed; j++) {
        size_t i = n <= RT_GC_MAX ? j : (size_t)((unsigned __int128)j * n / RT_GC_MAX);
        if (offs)
            i = offs[i];
        gc_check_element(s, k, i, an[i], floor, &res);
        if (s->failed) {
            char where[256];
            fprintf(s->err, "ftc gradcheck: `%s` failed on the inputs perturbed at %s (finite "
                    "differences); no gradient checked\n", s->f->name,
                    gc_index_text(s, k, i, where, sizeof where));
        }
    }
    free(offs);
    return res;
}

/* Print what the check of wrt tensor k found: the summary line and the
 * worst element. */
static void gc_report(gc_state *s, int k, const gc_result *res)
{
    char where[256];
    const char *name = s->f->params[k].name;
    fprintf(s->out, "gradcheck %s wrt %s: %zu of %zu elements", s->f->name, name,
            res->checked, res->total);
    if (res->kinks)
        fprintf(s->out, " (%zu at a non-differentiable point, not counted)", res->kinks);
    fprintf(s->out, ", largest relative error %.3g\n", res->any ? res->err : 0.0);
    if (res->any)
        fprintf(s->out, "  worst %s: analytic %.10g, numeric %.10g, relative error %.3g\n",
                gc_index_text(s, k, res->at, where, sizeof where), res->analytic,
                res->numeric, res->err);
}

/* --threads: set the OpenMP thread count of the calls through the OpenMP
 * runtime the library was linked with; 0, or 1 when it has none. */
static int gc_threads(gc_state *s, rt_lib *lib)
{
    if (s->o->threads <= 0)
        return 0;
    void *set_p = rt_symbol(lib, "omp_set_num_threads");
    void *get_p = rt_symbol(lib, "omp_get_max_threads");
    if (!set_p || !get_p) {
        fprintf(s->err, "ftc gradcheck: --threads %d: the library uses no OpenMP runtime "
                "(it has no omp_set_num_threads)\n", s->o->threads);
        return 1;
    }
    void (*set)(int);
    int (*get)(void);
    memcpy(&set, &set_p, sizeof set);   /* object to function pointer, as POSIX allows */
    memcpy(&get, &get_p, sizeof get);
    set(s->o->threads);
    fprintf(s->out, "gradcheck %s: %d OpenMP threads\n", s->f->name, get());
    return 0;
}

/* Check f and g and each wrt name: 0, or 1 after printing why not. */
static int gc_check_funcs(gc_state *s, const char *fname, const char *gname, int nwrt,
                          const char *const *wrt)
{
    if (!s->f || !s->g) {
        fprintf(s->err, "ftc gradcheck: no function `%s` in the library\n",
                s->f ? gname : fname);
        return 1;
    }
    if (s->f->nparams > GC_MAXP || nwrt > GC_MAXP) {
        fprintf(s->err, "ftc gradcheck: `%s` has more than %d parameters\n", fname, GC_MAXP);
        return 1;
    }
    for (int w = 0; w < nwrt; w++) {
        int k = gc_param(s->f, wrt[w]);
        if (k < 0 || s->f->params[k].kind != FT_PARAM_TENSOR ||
            s->f->params[k].dtype != FT_ABI_F64) {
            fprintf(s->err, "ftc gradcheck: `%s` has no float tensor parameter `%s`\n", fname,
                    wrt[w]);
            return 1;
        }
    }
    return 0;
}

/* Call the gradient g once (d_OUT = the weights): 0, or 1 after printing
 * why it failed. */
static int gc_gradient(gc_state *s)
{
    int rc = gc_call(s, s->g, 1);
    if (rc)
        gc_report_call(s, s->g, rc);
    return rc != 0;
}

/* Free what s holds. */
static void gc_free(gc_state *s)
{
    rt_cuda_close(s->dev.cu);
    for (int k = 0; k < GC_MAXP; k++) {
        free(s->orig[k].raw);
        free(s->r[k].raw);
    }
    for (int j = 0; j < s->nx; j++) {
        if (j >= s->nout)
            free(s->x[j].raw);     /* the d_OUT slots are s->r's */
        free((char *)s->xn[j]);
    }
    free(s->snap);
    free(s->base);
    rt_call_free(s->call);
    free(s);
}

/* Check every wrt tensor and print what was found; 0, 2 when an error
 * exceeds the tolerance, 1 when a run of f failed (reported). */
static int gc_check_all(gc_state *s, const char *const *wrt)
{
    double worst = 0;
    int worst_k = -1;
    size_t worst_at = 0;
    for (int w = 0; w < s->nwrt; w++) {
        int k = gc_param(s->f, wrt[w]);
        gc_result res = gc_check_tensor(s, k, s->x[s->nx - s->nwrt + w].data);
        if (s->failed)
            return 1;
        gc_report(s, k, &res);
        if (res.any && (worst_k < 0 || res.err > worst)) {
            worst = res.err;
            worst_k = k;
            worst_at = res.at;
        }
    }
    if (worst_k < 0 || !(worst > s->o->tol))
        return 0;
    char where[256];
    fprintf(s->err, "ftc gradcheck: largest relative error %.3g (at %s) exceeds the "
            "tolerance %g\n", worst, gc_index_text(s, worst_k, worst_at, where, sizeof where),
            s->o->tol);
    return 2;
}

int rt_gradcheck(rt_lib *lib, const char *fname, const char *gname, int nwrt,
                 const char *const *wrt, int nargs, char **args, const rt_gc_opts *opts,
                 FILE *out, FILE *err)
{
    gc_state *s = calloc(1, sizeof *s);
    if (!s) {
        fputs("ftc gradcheck: out of memory\n", err);
        return 1;
    }
    *s = (gc_state){.lib = lib, .f = rt_find(lib, fname), .g = rt_find(lib, gname), .o = opts,
                    .out = out, .err = err};
    if (gc_check_funcs(s, fname, gname, nwrt, wrt) || gc_prepare(s, nargs, args) ||
        gc_threads(s, lib)) {
        gc_free(s);
        return 1;
    }
    size_t nsnap = 1;
    for (int k = 0; k < s->f->nparams; k++)
        nsnap += s->a[k].n;
    s->snap = malloc(nsnap * sizeof(double));
    s->base = malloc(nsnap * sizeof(double));
    if (!s->snap || !s->base || gc_slots(s, nwrt, wrt)) {
        fputs("ftc gradcheck: out of memory\n", err);
        gc_free(s);
        return 1;
    }
    int rc = gc_gradient(s) ? 1 : gc_check_all(s, wrt);
    gc_free(s);
    return rc;
}
