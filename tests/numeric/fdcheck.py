"""A gradient against central differences, in Python over a built library
(tests/numeric/ftlib.py), at several thread counts of one build.

The library is built in f64 (`ftc build --promote-f64`) with the gradient g
of f (`grad f wrt ... -> g`, ABI: `g(<f's params>, <d_ of each float
out/inout>, <d_ of each wrt>)`).  The check is `ftc gradcheck`'s
(runtime/gradcheck.c, lang/reference.md): output weights r, L = sum(r *
outs); each checked element x[j] of a wrt tensor gets D(h) = (L(x[j] + h) -
L(x[j] - h)) / 2h, h = 1e-5 * max(1, |x[j]|), summed output by output,
combined with D(h / 2) by Richardson extrapolation; the error of an element
is |fd - g| / max(|fd|, |g|, 1e-3 * largest |g| of the tensor, 1e-12).
Unlike gradcheck, `out` tensors are zeroed before every call (as `ftc run`
passes them), inout ones reset.

Thread-differential: f's outputs and g's gradients are computed with each
thread count (OMP_NUM_THREADS through omp_set_num_threads), compared with
those of the first count (relative to the largest magnitude of the tensor),
and every count's gradient is compared with the same central differences
(computed with the first count).  A gradient that is right with 1 thread and
wrong with 4 is a race.
"""
import numpy as np

import ftlib
from harness import rel_diff

STEP = 1e-5
BIG_STEP = 64      # gradcheck's retry for rounding noise (GC_BIG_STEP)
SENS_STEP = 1e-13  # the relative nudge of `sensitivity` (a few hundred f64 ulps)


def random_inputs(f, sizes, rng, given=None):
    """Arrays for every tensor parameter of F at SIZES: those in GIVEN
    (converted to the declared dtype), else `in`/`inout` ones random as
    gradcheck makes them (floats uniform in [-1, 1), ints in [0, smallest
    size value), at least 1; bools True/False), `out` ones zero."""
    given = given or {}
    shapes = f.shapes(sizes)
    m = max(1, min(sizes.values())) if sizes else 1
    out = {}
    for p in f.params:
        if not p.is_tensor:
            continue
        shape = shapes[p.name]
        if p.name in given:
            v = np.asarray(given[p.name])
            if v.shape != shape:
                raise ValueError(f"{p.name}: given shape {v.shape}, the function takes {shape}")
            out[p.name] = np.array(v, dtype=p.dtype, order="C")   # (ascontiguousarray makes 0-D 1-D)
        elif p.access == ftlib.OUT:
            out[p.name] = np.zeros(shape, p.dtype)
        elif p.dtype.kind == "f":
            out[p.name] = rng.uniform(-1, 1, shape).astype(p.dtype)
        elif p.dtype.kind == "b":
            out[p.name] = rng.integers(0, 2, shape).astype(p.dtype)
        else:
            out[p.name] = rng.integers(0, m, shape).astype(p.dtype)
    return out


class Check:
    """One gradient check: F and G of a Library, SIZES, INPUTS (every tensor
    of F, see random_inputs), the WRT names, output weights from RNG."""

    def __init__(self, f, g, sizes, inputs, wrt, rng):
        self.f, self.g, self.sizes, self.wrt = f, g, dict(sizes), list(wrt)
        self.inputs = inputs
        self.outs = [p for p in f.params if p.written and p.dtype.kind == "f"]
        self.weights = {p.name: rng.uniform(-1, 1, inputs[p.name].shape)
                        .astype(p.dtype) for p in self.outs}

    def _args(self, args):
        """A fresh argument dict: sizes, ARGS' in tensors as they are, out
        tensors zeroed, inout ones copied (so every call starts the same)."""
        a = dict(self.sizes)
        for p in self.f.params:
            if p.is_tensor:
                v = args[p.name]
                a[p.name] = np.zeros_like(v) if p.access == ftlib.OUT else \
                    v.copy() if p.access == ftlib.INOUT else v
        return a

    def forward(self, args=None):
        """(code, {name: array} of F's out/inout tensors) of one call."""
        a = self._args(args or self.inputs)
        rc = self.f(**a)
        return rc, {p.name: a[p.name] for p in self.f.params if p.written}

    def gradient(self):
        """(code, {wrt: gradient}, {name: F's outputs}) of one call of G."""
        a = self._args(self.inputs)
        for p in self.outs:
            a["d_" + p.name] = self.weights[p.name]
        for w in self.wrt:
            a["d_" + w] = np.zeros_like(self.inputs[w])
        rc = self.g(**a)
        return (rc, {w: a["d_" + w] for w in self.wrt},
                {p.name: a[p.name] for p in self.f.params if p.written})

    def _loss_diff(self, plus, minus):
        """L(plus) - L(minus), summed output by output (outputs the step did
        not change add exactly 0)."""
        return sum(float(np.dot(self.weights[p.name].ravel(),
                                (plus[p.name] - minus[p.name]).ravel().astype(np.float64)))
                   for p in self.outs)

    def _central(self, w, j, h):
        """(L(x[j] + h) - L(x[j] - h)) / 2h for element j (flat) of WRT
        tensor w; NaN when a call failed."""
        args = dict(self.inputs)
        x = self.inputs[w].copy()
        args[w] = x
        flat = x.reshape(-1)
        x0 = flat[j]
        flat[j] = x0 + h
        r1, plus = self.forward(args)
        flat[j] = x0 - h
        r2, minus = self.forward(args)
        return float("nan") if r1 or r2 else self._loss_diff(plus, minus) / (2 * h)

    def derivative(self, w, j, scale=1.0):
        """dL/dx[j] by Richardson extrapolation of D(h) and D(h / 2), h =
        SCALE * 1e-5 * max(1, |x[j]|)."""
        h = scale * STEP * max(1.0, abs(float(self.inputs[w].reshape(-1)[j])))
        d1, d2 = self._central(w, j, h), self._central(w, j, h / 2)
        return d2 + (d2 - d1) / 3


def elements(n, limit, rng=None):
    """The flat indices checked in a tensor of N elements: gradcheck's (at
    most LIMIT, evenly spread from 0) without RNG; with RNG, the first, the
    last and LIMIT - 2 random ones."""
    if rng is None or n <= limit:
        step = n // limit if n > limit else 1
        return list(range(0, n, step))
    return sorted({0, n - 1, *map(int, rng.choice(n, limit - 2, replace=False))})


def element_error(fd, an, gmax, floor=1e-12):
    """gradcheck's error of one element (inf for NaN); FLOOR is the
    smallest denominator (gradcheck's 1e-12; a larger one treats gradients
    below it as zero up to rounding)."""
    e = abs(fd - an) / max(abs(fd), abs(an), 1e-3 * gmax, floor)
    return float("inf") if e != e else e


class Result:
    """What check_gradient found: per thread count the codes, the largest
    differences from the first count (`fwd_diff`, `grad_diff`: {name:
    relative difference}), per wrt tensor and thread count the largest
    element error against the central differences with its element
    (`errors[t][w] = (error, flat index, analytic, fd)`), and the elements
    whose central differences changed with the step (`kinks`, excluded)."""

    def __init__(self):
        self.codes, self.fwd_diff, self.grad_diff, self.errors = {}, {}, {}, {}
        self.kinks = []


def sensitivity(chk, rng, floor=1e-12):
    """How far CHK's forward outputs and gradients move (relative
    differences by name, as check_gradient's fwd_diff and grad_diff) when
    every float input is scaled by 1 + SENS_STEP * u, u uniform in [-1, 1],
    at the current thread count: the scale of what rounding alone, a sum
    reassociated among it, can do to them.  A chaotic program (a scatter
    summed by atomics, then steps of y += a sin(y * y)) amplifies a nudge of
    1e-13 to 1e-5, and its thread counts differ by as much without a race."""
    base_f, base_g = chk.forward()[1], chk.gradient()[1]
    saved = chk.inputs
    chk.inputs = {k: v * (1 + SENS_STEP * rng.uniform(-1, 1, v.shape)).astype(v.dtype)
                  if v.dtype.kind == "f" else v for k, v in saved.items()}
    try:
        nf, ng = chk.forward()[1], chk.gradient()[1]
    finally:
        chk.inputs = saved
    return ({k: rel_diff(v, base_f[k], floor) for k, v in nf.items()},
            {k: rel_diff(v, base_g[k], floor) for k, v in ng.items()})


def check_gradient(chk, threads=(1, 2, 4), limit=400, rng=None, kink_tol=None, repeat=1,
                   floor=1e-12):
    """Run CHK's forward and gradient with each thread count (those after
    the first REPEAT times each, keeping the run that differs most) and
    compare them (see the module comment); central differences of at most
    LIMIT elements per wrt tensor (see `elements`).  With KINK_TOL, an
    element whose error exceeds it is re-differentiated with a step
    BIG_STEP times larger, keeping the closer (gradcheck's retry for
    rounding noise, runtime/gradcheck.c), and one still above it with a
    step 16 times smaller, and left out as a kink when the two central differences
    differ by more than KINK_TOL (relative to the tensor's scale).  FLOOR:
    see element_error.  Returns a Result."""
    res = Result()
    fwd, grads = {}, {}
    t0 = threads[0]
    for t in threads:
        ftlib.set_threads(t)
        for _ in range(1 if t == t0 else repeat):
            rf, fw = chk.forward()
            rg, gr, _ = chk.gradient()
            if res.codes.get(t, (0, 0)) == (0, 0):
                res.codes[t] = (rf, rg)
            if t == t0:
                fwd[t], grads[t] = fw, gr
                continue
            # a tensor whose values are all below FLOOR (a gradient that is
            # 0 up to rounding, e.g. through w - w) compares absolutely
            fd = {k: rel_diff(v, fwd[t0][k], floor) for k, v in fw.items()}
            gd = {k: rel_diff(v, grads[t0][k], floor) for k, v in gr.items()}
            if t not in grads or max(gd.values(), default=0) > max(res.grad_diff[t].values(),
                                                                   default=0):
                grads[t], res.grad_diff[t] = gr, gd
            if t not in fwd or max(fd.values(), default=0) > max(res.fwd_diff[t].values(),
                                                                 default=0):
                fwd[t], res.fwd_diff[t] = fw, fd
    ftlib.set_threads(t0)
    if any(c != (0, 0) for c in res.codes.values()):
        return res
    for t in threads:
        res.errors[t] = {}
    for w in chk.wrt:
        n = chk.inputs[w].size
        gmax = {t: float(np.max(np.abs(grads[t][w]))) if n else 0.0 for t in threads}
        worst = {t: (0.0, -1, 0.0, 0.0) for t in threads}
        for j in elements(n, limit, rng):
            an0 = float(grads[t0][w].reshape(-1)[j])
            fd = chk.derivative(w, j)
            e0 = element_error(fd, an0, gmax[t0], floor)
            if kink_tol is not None and e0 > kink_tol:
                big = chk.derivative(w, j, BIG_STEP)
                if element_error(big, an0, gmax[t0], floor) < e0:
                    fd, e0 = big, element_error(big, an0, gmax[t0], floor)
            if kink_tol is not None and e0 > kink_tol:
                fd2 = chk.derivative(w, j, 1 / 16)
                if abs(fd2 - fd) > kink_tol * max(abs(fd), abs(fd2), 1e-3 * gmax[t0], floor):
                    res.kinks.append((w, j))
                    continue
            for t in threads:
                an = float(grads[t][w].reshape(-1)[j])
                e = element_error(fd, an, gmax[t], floor)
                if e > worst[t][0] or worst[t][1] < 0:
                    worst[t] = (e, j, an, fd)
        for t in threads:
            res.errors[t][w] = worst[t]
    return res
