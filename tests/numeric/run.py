#!/usr/bin/python3
"""Numeric tests: run .ft programs with `ftc run` and compare with NumPy.

    /usr/bin/python3 tests/numeric/run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

Covers the examples in examples/ (each NAME.ft, and NAME_par.ft) at small,
medium and edge-case sizes, and the small programs in tests/numeric/progs/.
Every reference is computed here with NumPy, in float64 where the program
works in f32.  Each program is built once and run with OMP_NUM_THREADS = 1,
2 and 4 (harness.ftc_run; gradients: harness.gradcheck): the thread counts
must agree with each other and each with the reference.  Prints one line per case
(`ok NAME` or `FAIL NAME: why`), then `N passed, M failed`; exits 1 if any
case failed.  -k runs only the cases whose name contains SUBSTRING; -v prints
the command lines of failing runs.

Assumptions about `ftc run` (language.md, "Running"): arguments are
`name=value` (sizes as integers, tensors as .npy paths), `--out-dir DIR`
writes each out/inout tensor as DIR/NAME.npy with the declared dtype, and
`--no-print` keeps stdout quiet.  Sizes are always passed explicitly.
"""
import atexit
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import harness as H
from harness import Fail, exact, get, last_lines  # noqa: F401  (stdlib_run reads them here)

RTOL = 1e-5

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


# --- running ftc ---------------------------------------------------------

def ftc_run(prog, func, sizes, inputs, threads=None, expect_fail=False):
    """Run FUNC of PROG with the given sizes and input arrays; return the
    dict of output arrays (every .npy in the out dir).  With expect_fail,
    return (exit status, stderr) and insist that the run failed."""
    if not expect_fail:
        return H.ftc_run(FTC, prog, func, sizes, inputs, threads, verbose=VERBOSE)
    env = dict(os.environ)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
        args = H.ftc_run_args(FTC, prog, func, sizes, inputs, d)
        try:
            r = subprocess.run(args, env=env, capture_output=True, text=True,
                               errors="replace", timeout=H.TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Fail(f"ftc run timed out after {H.TIMEOUT} s")
    cmd = f"\n    command: {' '.join(args)}" if VERBOSE else ""
    if r.returncode == 0:
        raise Fail("ftc run exited 0, expected a failure" + cmd)
    if r.returncode < 0:
        raise Fail(f"ftc run died of signal {-r.returncode}" + cmd)
    if not r.stderr.strip():
        raise Fail(f"ftc run exited {r.returncode} without a message on stderr")
    return r.returncode, r.stderr


def ftc(*args, timeout=H.TIMEOUT):
    """Run ftc with ARGS; the completed process (a Fail unless it exits 0)."""
    return H.sh([FTC, *args], verbose=VERBOSE, timeout=timeout)


_TARGET = []


def emits_cuda():
    """Whether FTC (maybe a wrapper adding --target cuda, as tests/gpu/run
    and tests/cuda/emulated_run.py give) builds for the GPU: its --emit=c
    output of a small program has kernels."""
    if not _TARGET:
        _TARGET.append("__global__" in ftc("build", prog("spread_rows.ft"), "--emit=c").stdout)
    return _TARGET[0]


def close(outs, name, ref, dtype, rtol=RTOL):
    H.close(outs, name, ref, dtype, rtol)


# --- the cases -----------------------------------------------------------

CASES = []


def case(name, fn, *args, **kw):
    CASES.append((name, lambda: fn(*args, **kw)))


def variants(name, fn, *args):
    """The serial program and the _par program, each built once and run
    with 1, 2 and 4 threads (harness.ftc_run)."""
    case(f"{name}", fn, f"{name.split('[')[0]}.ft", None, *args)
    case(f"{name}/par", fn, f"{name.split('[')[0]}_par.ft", None, *args)


def ex(file):
    return os.path.join(ROOT, "examples", file)


def prog(file):
    return os.path.join(ROOT, "tests", "numeric", "progs", file)


# examples/subdivnet.ft

def subdivnet_ref(adj, e):
    e = e.astype(f64)
    y = np.zeros_like(e)
    for j in range(3):
        y += np.abs(e[adj[:, j]] - e[adj[:, (j + 1) % 3]])
    return y


def subdivnet(file, threads, n, f, seed):
    rng = np.random.default_rng(seed)
    adj = rng.integers(0, n, (n, 3), dtype=i32)
    if n > 2:
        adj[0] = [0, 0, 0]            # a face that is its own neighbour
        adj[1] = [n - 1, 1, n - 1]
    e = rng.standard_normal((n, f)).astype(f32)
    outs = ftc_run(ex(file), "subdivnet", {"n_faces": n, "in_feats": f},
                   {"adj": adj, "e": e}, threads)
    close(outs, "y", subdivnet_ref(adj, e), f32)


for n, f in [(1, 1), (2, 3), (7, 5), (13, 1), (1000, 33)]:
    variants(f"subdivnet[{n}x{f}]", subdivnet, n, f, 100 + n)


# examples/stencil.ft

def stencil_ref(a):
    a = a.astype(f64)
    b = a.copy()
    b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def stencil(file, threads, h, w, seed):
    a = np.random.default_rng(seed).uniform(-1, 1, (h, w)).astype(f32)
    outs = ftc_run(ex(file), "stencil", {"h": h, "w": w}, {"a": a}, threads)
    close(outs, "b", stencil_ref(a), f32)


for h, w in [(1, 1), (1, 7), (7, 1), (2, 2), (3, 3), (5, 9), (131, 77)]:
    variants(f"stencil[{h}x{w}]", stencil, h, w, 200 + h * w)


# examples/spmv.ft

def spmv_ref(row_ptr, col_idx, vals, x):
    prod = vals.astype(f64) * x.astype(f64)[col_idx]
    n = len(row_ptr) - 1
    rows = np.repeat(np.arange(n), np.diff(row_ptr))
    return np.bincount(rows, weights=prod, minlength=n)


def spmv(file, threads, lengths, n_cols, seed):
    rng = np.random.default_rng(seed)
    lengths = np.asarray(lengths, dtype=i64)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(i32)
    nnz = int(row_ptr[-1])
    col_idx = rng.integers(0, n_cols, nnz, dtype=i32)
    vals = rng.standard_normal(nnz).astype(f32)
    x = rng.standard_normal(n_cols).astype(f32)
    outs = ftc_run(ex(file), "spmv",
                   {"n_rows": len(lengths), "n_cols": n_cols, "nnz": nnz},
                   {"row_ptr": row_ptr, "col_idx": col_idx, "vals": vals, "x": x},
                   threads)
    close(outs, "y", spmv_ref(row_ptr, col_idx, vals, x), f32)


def spmv_lengths(n, seed):
    rng = np.random.default_rng(seed)
    lengths = rng.poisson(6, n)
    lengths[rng.random(n) < 0.15] = 0            # 15% empty rows
    lengths[0] = lengths[-1] = 0                 # first and last rows empty
    return lengths


for label, lengths, n_cols in [
        ("1row-empty", [0], 1),                  # n = 1, nnz = 0
        ("1row", [3], 5),
        ("1col", [1, 0, 2, 1], 1),
        ("empty-rows", [0, 2, 0, 0, 3, 1, 0], 3),
        ("all-empty", [0, 0, 0, 0, 0], 4),
        ("1000x777", spmv_lengths(1000, 5), 777)]:
    variants(f"spmv[{label}]", spmv, lengths, n_cols, 300 + len(lengths))


# examples/matmul.ft

def matmul(file, threads, m, n, k, seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(f32)
    b = rng.uniform(-1, 1, (k, n)).astype(f32)
    outs = ftc_run(ex(file), "matmul", {"m": m, "n": n, "k": k}, {"a": a, "b": b}, threads)
    close(outs, "c", a.astype(f64) @ b.astype(f64), f32)


for m, n, k in [(1, 1, 1), (3, 5, 7), (17, 1, 13), (1, 9, 2), (65, 47, 129)]:
    variants(f"matmul[{m}x{n}x{k}]", matmul, m, n, k, 400 + m * n * k)


# bench/matmul/matmul_sched.ft (issue 5's hand schedule: 6 x 64 register
# tiles, fission through the accumulator, packed b panel), built once and
# run on sizes that are not multiples of the tiles (row and column tails)

HAND_MM = {}


def hand_matmul_lib():
    """Build the hand-scheduled matmul once; returns the library's path."""
    if "lib" not in HAND_MM:
        d = tempfile.mkdtemp(prefix="ftc-numeric-mm-")
        atexit.register(shutil.rmtree, d, True)
        lib = os.path.join(d, "libmatmul_sched.so")
        src = os.path.join(ROOT, "bench", "matmul", "matmul_sched.ft")
        try:
            ftc("build", src, "-o", lib, timeout=3 * H.TIMEOUT)
            HAND_MM["lib"] = lib
        except Fail as e:
            HAND_MM["lib"] = e
    if isinstance(HAND_MM["lib"], Fail):
        raise HAND_MM["lib"]
    return HAND_MM["lib"]


def hand_matmul(threads, m, n, k):
    rng = np.random.default_rng(m * 7 + n * 3 + k)
    a = rng.uniform(-1, 1, (m, k)).astype(f32)
    b = rng.uniform(-1, 1, (k, n)).astype(f32)
    outs = ftc_run(hand_matmul_lib(), "matmul", {"m": m, "n": n, "k": k}, {"a": a, "b": b},
                   threads)
    close(outs, "c", a.astype(f64) @ b.astype(f64), f32)


for m, n, k, t in [(70, 50, 90, 2), (70, 150, 90, 1), (70, 150, 90, 2), (12, 128, 3, 2),
                   (1, 1, 1, 2), (5, 64, 2, 1)]:
    case(f"matmul_sched[{m}x{n}x{k}]/t{t}", hand_matmul, t, m, n, k)


# tests/numeric/progs/intdiv.ft, floatdiv.ft

def intdiv(func, dtype):
    a = np.array([7, -7, 7, -7, 0, 1, -1, 6, -6, 6, -6, 123456, -123456, 5, -5, 2**30, -2**30],
                 dtype=dtype)
    b = np.array([2, 2, -2, -2, 3, -3, 3, 3, 3, -3, -3, 1000, 1000, 7, 7, -7, 7], dtype=dtype)
    if dtype == i64:
        a = np.concatenate([a, np.array([-3 * 2**40 - 1, 3 * 2**40 + 1], dtype=i64)])
        b = np.concatenate([b, np.array([2**40, -2**40], dtype=i64)])
    outs = ftc_run(prog("intdiv.ft"), func, {"n": len(a)}, {"a": a, "b": b})
    exact(outs, "q", a // b, dtype)
    exact(outs, "r", a % b, dtype)


def intdiv_iter(n):
    i = np.arange(n, dtype=i64) - 5
    outs = ftc_run(prog("intdiv.ft"), "intdiv_iter", {"n": n}, {})
    exact(outs, "q1", i // 3, i64)
    exact(outs, "r1", i % 3, i64)
    exact(outs, "q2", i // -3, i64)
    exact(outs, "r2", i % -3, i64)


def intdiv_const():
    outs = ftc_run(prog("intdiv.ft"), "intdiv_const", {}, {})
    exact(outs, "k", np.array([-7 // 2, -7 % 2, 7 // -2, 7 % -2, -7 // -2, -7 % -2,
                               7 // 2, 7 % 2], dtype=i64), i64)


def floatdiv():
    a = np.array([7.5, -7.5, 7.5, -7.5, 0.25, -0.25, 6, -6, 1e3, -1e-3], dtype=f32)
    b = np.array([2, 2, -2, -2, 1, 1, 3, 3, 0.7, 0.3], dtype=f32)
    outs = ftc_run(prog("floatdiv.ft"), "floatdiv", {"n": len(a)}, {"a": a, "b": b})
    close(outs, "q", a // b, f32)          # NumPy's float // and % are Python's
    close(outs, "r", a % b, f32)


case("intdiv/i32", intdiv, "intdiv32", i32)
case("intdiv/i64", intdiv, "intdiv64", i64)
case("intdiv/iterators", intdiv_iter, 23)
case("intdiv/constants", intdiv_const)
case("floatdiv", floatdiv)


# tests/numeric/progs/control.ft

def control(n):
    x = np.random.default_rng(n).uniform(-2, 2, n).astype(f32)
    if n >= 6:
        x[:6] = [-0.5, 0.5, 1.0, 0.0, -1.0, 2.0]     # on the boundaries
    outs = ftc_run(prog("control.ft"), "control", {"n": n}, {"x": x})
    xd = x.astype(f64)
    y = np.where(xd < -0.5, -1, np.where(xd < 0.5, xd * 2, np.where(xd < 1, 3, 1)))
    close(outs, "y", y, f32)
    close(outs, "z", np.abs(xd), f32)
    i = np.arange(n)
    exact(outs, "c", np.where(i % 3 == 0, 1, np.where(i % 3 == 1, 2, 3)).astype(i32), i32)
    m = (((xd > 0) & ~(i % 2 == 0)) | (xd < -1)).astype(i32)
    m[(m == 0) & (i == 0)] = 7
    exact(outs, "m", m, i32)


case("control[1]", control, 1)
case("control[50]", control, 50)


# tests/numeric/progs/lanes_shared.ft

def lanes_shared(n, m, s0):
    y0 = np.random.default_rng(n).uniform(-1, 1, n).astype(f32)
    outs = ftc_run(prog("lanes_shared.ft"), "f", {"n": n, "m": m},
                   {"y": y0, "s": np.array(s0, f32)})
    y = y0.astype(f64) + 0.25 * m
    close(outs, "y", y, f32)
    close(outs, "s", np.array(max([s0] + list(y * 0.01))), f32)


case("lanes_shared[40x70]", lanes_shared, 40, 70, -1.0)
case("lanes_shared[33x100,s big]", lanes_shared, 33, 100, 5.0)
case("lanes_shared[0x70]", lanes_shared, 0, 70, 2.0)


# tests/numeric/progs/spread_rows.ft

def spread_rows(n, m, k):
    a = np.random.default_rng(m).uniform(-1, 1, (n, m, k)).astype(f32)
    outs = ftc_run(prog("spread_rows.ft"), "f", {"n": n, "m": m, "k": k}, {"a": a})
    a64 = a.astype(f64)
    y = np.zeros((n, m))
    for d in (-1, 0, 1):
        lo, hi = max(0, -d), min(m, m - d)
        y[:, lo:hi] += np.einsum("ijk,ijk->ij", a64[:, lo:hi], a64[:, lo + d:hi + d])
    close(outs, "y", y, f32)


for _m in (1, 127, 128, 129, 300):
    case(f"spread_rows[3x{_m}x5]", spread_rows, 3, _m, 5)


# tests/numeric/progs/builtins.ft

BUILTINS = ["abs", "sqrt", "exp", "ln", "sin", "cos", "tanh", "sigmoid",
            "floor", "ceil", "square", "min", "max", "tan", "erf", "log1p", "expm1"]

# math.erf element by element (NumPy has no erf; SciPy is not a dependency)
np_erf = np.vectorize(math.erf, otypes=[f64])


def builtins_ref(x, p):
    x, p = x.astype(f64), p.astype(f64)
    return [np.abs(x), np.sqrt(p), np.exp(x), np.log(p), np.sin(x), np.cos(x),
            np.tanh(x), 1 / (1 + np.exp(-x)), np.floor(x), np.ceil(x), np.square(x),
            np.minimum(x, p), np.maximum(x, p), np.tan(x / 4), np_erf(x), np.log1p(p),
            np.expm1(x)]


def builtins(func, dtype, rtol):
    rng = np.random.default_rng(7)
    x = np.concatenate([[0, -0.0, 1, -1, 2.5, -2.5, 0.5, -0.5, 1e-3, 10, -10],
                        rng.uniform(-6, 6, 60)]).astype(dtype)
    p = np.concatenate([[1, 1e-4, 2, 3, 1e3, 0.5, 4, 7, 1e-2, 0.1, 20],
                        rng.uniform(0.01, 50, 60)]).astype(dtype)
    outs = ftc_run(prog("builtins.ft"), func, {"n": len(x)}, {"x": x, "p": p})
    y = get(outs, "y")
    if y.shape != (len(BUILTINS), len(x)) or y.dtype != np.dtype(dtype):
        raise Fail(f"y: got {y.dtype}{list(y.shape)}, want {np.dtype(dtype)}"
                   f"[{len(BUILTINS)}, {len(x)}]")
    bad = []
    for k, (name, ref) in enumerate(zip(BUILTINS, builtins_ref(x, p))):
        try:
            close({name: y[k]}, name, ref, dtype, rtol)
        except Fail as e:
            bad.append(str(e))
    if bad:
        raise Fail("; ".join(bad))


def builtins_int():
    a = np.array([0, 1, -1, 5, -5, 3, -3, 46340, -46340, 2, -4], dtype=i32)
    b = np.array([0, -1, 1, -5, 5, 2**31 + 1, -2**31 - 3, 3037000499, -7, 9, -2], dtype=i64)
    outs = ftc_run(prog("builtins.ft"), "builtins_int", {"n": len(a)}, {"a": a, "b": b})
    exact(outs, "y", np.stack([np.abs(a), a * a, np.minimum(a, 3), np.maximum(a, -3)]), i32)
    a64 = a.astype(i64)
    exact(outs, "z", np.stack([np.abs(b), b * b, np.minimum(b, a64), np.maximum(b, a64)]), i64)


SMALL = ["tan", "erf", "log1p", "expm1"]


def builtins_small(func, dtype, rtol):
    """tan erf log1p expm1 near 0, each element within rtol of NumPy's
    float64 value (math.erf for erf): ln(1 + x) and exp(x) - 1 lose every
    digit at x = 1e-8 (in f32 they give 0), so a builtin computed that way
    fails; the relative error of the whole array would not see it."""
    x = np.array([1e-8, -1e-8, 3e-12, -3e-12, 1e-30, 2.5e-5, -2.5e-5, 1e-3, -1e-3, 0.3, -0.3,
                  0.9, -0.9], dtype=dtype)
    y = get(ftc_run(prog("builtins.ft"), func, {"n": len(x)}, {"x": x}), "y")
    if y.shape != (4, len(x)) or y.dtype != np.dtype(dtype):
        raise Fail(f"y: got {y.dtype}{list(y.shape)}, want {np.dtype(dtype)}[4, {len(x)}]")
    x64 = x.astype(f64)
    refs = [np.tan(x64), np_erf(x64), np.log1p(x64), np.expm1(x64)]
    for name, got, ref in zip(SMALL, y.astype(f64), refs):
        err = np.abs(got - ref) / np.abs(ref)
        if not err.max() <= rtol:
            k = int(np.argmax(err))
            raise Fail(f"{name}({x[k]!r}) = {got[k]!r}, want {ref[k]!r} "
                       f"(relative error {err[k]:.1e} > {rtol:.0e})")


def builtins_int_float():
    """tan erf log1p expm1 of an i32 compute in f32 (the f32 of the integer)."""
    a = np.array([0, 1, -1, 2, 3, 5, 10, 7], dtype=i32)
    outs = ftc_run(prog("builtins.ft"), "builtins_int_float", {"n": len(a)}, {"a": a})
    x = a.astype(f64)
    with np.errstate(divide="ignore"):     # log1p(-1) is -inf, in ftc too
        ref = np.stack([np.tan(x), np_erf(x), np.log1p(x), np.expm1(x)])
    close(outs, "y", ref, f32)


# tests/numeric/progs/matmul_op.ft: a @ b against numpy.matmul in float64

def matmul_op(func, sa, sb, sizes):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a, b = rng.uniform(-1, 1, sa), rng.uniform(-1, 1, sb)
    outs = ftc_run(prog("matmul_op.ft"), func, sizes, {"a": a, "b": b})
    close(outs, "y", np.matmul(a, b), f64, 1e-13)


def matmul_prec(n):
    rng = np.random.default_rng(n)
    a, b, c = (rng.uniform(-1, 1, (n, n)) for _ in range(3))
    outs = ftc_run(prog("matmul_op.ft"), "mm_prec", {"n": n}, {"a": a, "b": b, "c": c})
    close(outs, "y", (a @ b) * c + a, f64, 1e-13)
    close(outs, "z", ((c * a) @ b) @ c, f64, 1e-13)
    close(outs, "w", a - b @ (c ** 2), f64, 1e-13)


case("matmul_op/1x1", matmul_op, "mm_11", (5,), (5,), {"n": 5})
case("matmul_op/1x2", matmul_op, "mm_12", (5,), (5, 3), {"n": 5, "m": 3})
case("matmul_op/2x1", matmul_op, "mm_21", (3, 5), (5,), {"n": 5, "m": 3})
case("matmul_op/2x2", matmul_op, "mm_22", (4, 6), (6, 3), {"m": 4, "k": 6, "n": 3})
case("matmul_op/3x2", matmul_op, "mm_32", (2, 4, 6), (6, 3), {"t": 2, "m": 4, "k": 6, "n": 3})
case("matmul_op/3x3_bcast", matmul_op, "mm_33", (3, 4, 6), (1, 6, 5),
     {"t": 3, "m": 4, "k": 6, "n": 5})
case("matmul_op/prec", matmul_prec, 4)


# tests/numeric/progs/sigmoid32.ft: the C backend's inlined f32 sigmoid
# (backend/cg_c.c, cg_sigmoid_f32), ulp by ulp against NumPy in float64

def sigmoid32():
    rng = np.random.default_rng(11)
    x = np.concatenate([np.linspace(-110, 110, 200001), np.linspace(-1, 1, 20001),
                        np.linspace(-88, -86, 2001), np.linspace(17, 18, 2001),
                        rng.standard_normal(20000) * 20,
                        [0, -0.0, 1e-30, -1e-30, 87.5, -87.5, 88.8, -88.8, 104, -104]]).astype(f32)
    special = np.array([np.inf, -np.inf, np.nan], dtype=f32)
    xs = np.concatenate([x, special])
    y = get(ftc_run(prog("sigmoid32.ft"), "sigmoid32", {"n": len(xs)}, {"x": xs}), "y")
    if y.shape != xs.shape or y.dtype != np.dtype(f32):
        raise Fail(f"y: got {y.dtype}{list(y.shape)}, want float32[{len(xs)}]")
    ys, y = y[len(x):], y[:len(x)]
    if not (ys[0] == 1 and ys[1] == 0 and np.isnan(ys[2])):
        raise Fail(f"sigmoid(inf, -inf, nan) = {ys.tolist()}, want [1, 0, nan]")
    with np.errstate(over="ignore"):
        ref = (1 / (1 + np.exp(-x.astype(f64)))).astype(f32)     # correctly rounded
    tiny = np.finfo(f32).tiny
    big = ref >= tiny
    ulps = np.abs(y[big].view(np.int32).astype(i64) - ref[big].view(np.int32).astype(i64))
    if ulps.max() > 2:
        k = np.argmax(ulps)
        raise Fail(f"{ulps.max()} ulp off at x = {x[big][k]!r} (got {y[big][k]!r}, "
                   f"want {ref[big][k]!r}); at most 2 allowed")
    if np.abs(y[~big].astype(f64) - ref[~big]).max() > tiny:
        raise Fail("more than FLT_MIN off where the value is below FLT_MIN")


case("sigmoid/f32", sigmoid32)
case("builtins/f32", builtins, "builtins32", f32, RTOL)
case("builtins/f64", builtins, "builtins64", f64, 1e-12)
case("builtins/int", builtins_int)
case("builtins/small_f32", builtins_small, "builtins_small32", f32, 1e-6)
case("builtins/small_f64", builtins_small, "builtins_small64", f64, 1e-14)
case("builtins/int_float", builtins_int_float)


# tests/numeric/progs/casts.ft

def casts():
    x = np.array([0, 1.5, -1.5, 2.7, -2.7, 1e9, -1e9, 0.999, -0.999, 3], dtype=f64)
    a = np.array([0, 1, -1, 2**40, -2**40, 7, -7, 0, 5, -3], dtype=i64)
    m = np.array([True, False, True, True, False, False, True, False, True, False])
    outs = ftc_run(prog("casts.ft"), "casts", {"n": len(x)}, {"x": x, "a": a, "m": m})
    exact(outs, "xi", np.trunc(x).astype(i32), i32)
    exact(outs, "xl", np.trunc(x).astype(i64), i64)
    exact(outs, "xf", x.astype(f32), f32)
    exact(outs, "af", a.astype(f64), f64)
    exact(outs, "ab", a != 0, np.bool_)
    exact(outs, "pos", a > 0, np.bool_)
    exact(outs, "mi", m.astype(i32), i32)
    exact(outs, "mf", m.astype(f32), f32)
    exact(outs, "nm", ~m, np.bool_)


def wide():
    a = np.array([0, 3, -3, 2**31, -2**31 - 5, 3 * 10**9, 2**20 + 1], dtype=i64)
    x = np.array([0, 1, -1, 1 + 2**-40, 1e100, -3.25, 1 / 3], dtype=f64)
    outs = ftc_run(prog("casts.ft"), "wide", {"n": len(a)}, {"a": a, "x": x})
    exact(outs, "sq", a * a + 1, i64)
    close(outs, "y", x * x - x / 3, f64, 1e-15)


case("casts", casts)
case("casts/wide", wide)


# tests/numeric/progs/minmax.ft

def minmax(n, m, nans=()):
    """NANS: (i, j) elements of x set to NaN; NumPy's max and min
    propagate NaN as the language's do."""
    x = np.random.default_rng(n * m).standard_normal((n, m)).astype(f32)
    for at in nans:
        x[at] = np.nan
    outs = ftc_run(prog("minmax.ft"), "minmax", {"n": n, "m": m}, {"x": x})
    exact(outs, "mx", x.max(axis=1), f32)
    exact(outs, "mn", x.min(axis=1), f32)
    exact(outs, "cmx", x.max(axis=0), f32)
    exact(outs, "ext", np.array([x.min(), x.max()], dtype=f32), f32)


def imax(a):
    a = np.asarray(a, dtype=i32)
    outs = ftc_run(prog("minmax.ft"), "imax", {"n": len(a)}, {"a": a})
    exact(outs, "best", np.array([a.max()], dtype=i32), i32)
    exact(outs, "arg", np.array([np.argmax(a)], dtype=i64), i64)


case("minmax[1x1]", minmax, 1, 1)
case("minmax[9x4]", minmax, 9, 4)
case("minmax[100x37]", minmax, 100, 37)
case("minmax[100x37, NaN]", minmax, 100, 37, [(0, 0), (57, 3), (99, 36)])
case("minmax[3000x2, NaN]", minmax, 3000, 2, [(1, 1), (2999, 0)])


def nan_pairs():
    """max(x, y), max(y, x), min(x, y), min(y, x) with NaN in x, in y
    and in both: NumPy's maximum and minimum."""
    x = np.array([1, np.nan, 2, np.nan, -np.inf, 3], dtype=f32)
    y = np.array([np.nan, 1, np.nan, np.nan, 0, -3], dtype=f32)
    outs = ftc_run(prog("minmax.ft"), "nan_pairs", {"n": 6}, {"x": x, "y": y})
    for name, ref in (("a", np.maximum(x, y)), ("b", np.maximum(y, x)),
                      ("c", np.minimum(x, y)), ("d", np.minimum(y, x))):
        exact(outs, name, ref, f32)


case("minmax/nan_pairs", nan_pairs)
case("minmax/imax[1]", imax, [-5])
case("minmax/imax[8]", imax, [-5, 3, -2**31, 9, 9, 2**31 - 1, 0, 2**31 - 1])


# tests/numeric/progs/range_step.ft

def range_step(n):
    x = np.arange(1, n + 1, dtype=f32)      # small integers: every sum is exact
    outs = ftc_run(prog("range_step.ft"), "range_step", {"n": n}, {"x": x})
    exact(outs, "rev", x[::-1], f32)
    exact(outs, "suf", np.cumsum(x[::-1])[::-1].astype(f32), f32)
    z = np.full(n, -1, dtype=i32)
    for c, i in enumerate(range(n - 1, 0, -3)):
        z[i] = c
    w = np.full(n, -1, dtype=i32)
    for d, i in enumerate(range(1, n, 4)):
        w[i] = d
    exact(outs, "z", z, i32)
    exact(outs, "w", w, i32)
    exact(outs, "cnt", np.array([len(range(n - 1, 0, -3)), len(range(1, n, 4))], dtype=i32), i32)


for n in [1, 2, 3, 4, 5, 10, 11, 12, 100]:
    case(f"range_step[{n}]", range_step, n)


# tests/numeric/progs/assert.ft

def assert_ok():
    x = np.array([0, 1, 4, 9], dtype=f32)
    outs = ftc_run(prog("assert.ft"), "checked", {"n": 4}, {"x": x})
    close(outs, "y", np.sqrt(x.astype(f64)), f32)


def assert_fails():
    x = np.array([0, 1, -4, 9], dtype=f32)
    ftc_run(prog("assert.ft"), "checked", {"n": 4}, {"x": x}, expect_fail=True)


def assert_message():
    """sized's message: quotes, a literal {}, the sizes' run-time values."""
    x = np.arange(4, dtype=f32)
    outs = ftc_run(prog("assert.ft"), "sized", {"n": 4, "m": 3}, {"x": x})
    exact(outs, "y", x * 2, f32)
    _, err = ftc_run(prog("assert.ft"), "sized", {"n": 4, "m": 4}, {"x": x}, expect_fail=True)
    want = 'error: n is 4: "n" must be 5 {} (assert `n == m + 1`)'
    if want not in err:
        raise Fail(f"expected '{want}': {err}")


case("assert/passes", assert_ok)
case("assert/fails", assert_fails)
case("assert/message", assert_message)


# tests/numeric/progs/shared_acc.ft, histogram.ft (parallel reductions)

def shared_acc(n, threads):
    x = np.random.default_rng(n).integers(0, 10, n).astype(f32)
    outs = ftc_run(prog("shared_acc.ft"), "shared_acc", {"n": n}, {"x": x}, threads)
    exact(outs, "s", np.array([x.astype(f64).sum()], dtype=f32), f32)
    exact(outs, "mx", np.array([x.max()], dtype=f32), f32)
    exact(outs, "cnt", np.array([np.sum(x > 4)], dtype=i64), i64)


def histogram(n, nb, threads):
    bins = np.random.default_rng(n).integers(0, nb, n).astype(i32)
    outs = ftc_run(prog("histogram.ft"), "histogram", {"n": n, "nb": nb}, {"bins": bins}, threads)
    exact(outs, "h", np.bincount(bins, minlength=nb).astype(i32), i32)


def par_clauses(n, threads):
    """tests/numeric/progs/par_clauses.ft: 0-D locals summed, maxed, mined
    and counted across a parallel loop through reduction clauses."""
    x = np.random.default_rng(n + 1).integers(-9, 10, n).astype(f32)
    outs = ftc_run(prog("par_clauses.ft"), "par_clauses", {"n": n}, {"x": x}, threads)
    exact(outs, "s", np.array([x.astype(f64).sum()], dtype=f32), f32)
    exact(outs, "mx", np.array([x.max() if n else -np.inf], dtype=f32), f32)
    exact(outs, "mn", np.array([x.min() if n else np.inf], dtype=f32), f32)
    exact(outs, "cnt", np.array([np.sum(x > 4)], dtype=i64), i64)


for n in (0, 1, 1_000_003):
    case(f"par_clauses[{n}]", par_clauses, n, None)
case("shared_acc[1]", shared_acc, 1, None)
case("shared_acc[1000003]", shared_acc, 1_000_003, None)
case("histogram[1000003x5]", histogram, 1_000_003, 5, None)


# tests/numeric/progs/par_audit.ft (issue 17's audit: accumulators across
# parallel loops, made by the auto-scheduler's passes and by schedule
# primitives), built once (the suites build with FTC_VERIFY=passes: the
# verifier checks every parallel loop), run at 1, 2 and 4 threads.

def par_audit_refs(fn, g):
    """The sizes, inputs and float64 references of par_audit.ft's FN."""
    ints = lambda *shape: g.integers(-4, 5, shape).astype(f32)
    N1, N2 = 2_000_003, 200_003      # long enough that 4 threads overlap
    if fn == "acc_rows":
        n, m = N2, 37
        x, w, a = ints(n, m), ints(m), np.array([2], f32)
        t = x.astype(f64) @ w
        return ({"n": n, "m": m}, {"x": x, "w": w, "a": a},
                {"s": np.array([2 * t.sum()]), "h": 2 * x.astype(f64).sum(0), "y": t})
    if fn == "scatter_tot":
        n, m = N1, 7
        idx, x = g.integers(0, m, n).astype(i32), ints(n)
        y = np.zeros(m)
        np.add.at(y, idx, 2 * x.astype(f64))
        return ({"n": n, "m": m}, {"idx": idx, "x": x, "a": np.array([2], f32)},
                {"y": y, "s": np.array([x.astype(f64).sum()])})
    if fn == "steps_acc":
        n, steps = N1, 4
        x = g.uniform(-1, 1, n).astype(f32)
        y, s, xd = x.astype(f64), 0.0, x.astype(f64)
        for _ in range(steps):
            acc = (y * xd).sum()
            y, s = y - 1e-7 * acc * xd, s + acc
        return {"steps": steps, "n": n}, {"x": x}, {"y": y, "s": np.array([s])}
    if fn == "col_max":
        x = g.uniform(-5, 5, (N2, 9)).astype(f32)
        return ({"n": N2, "m": 9}, {"x": x},
                {"mx": x.max(0).astype(f64), "mn": np.array([x.min()], f64)})
    if fn == "sched_blend":
        x = ints(N1, 4)
        return ({"n": N1}, {"x": x}, {"s": np.array([(x.astype(f64) * np.arange(4)).sum()]),
                                          "h": x.astype(f64).sum(0)})
    if fn == "sched_move":
        x = ints(N1)
        return ({"n": N1}, {"x": x, "c": np.array([2], f32)},
                {"s": np.array([6 + 2 * x.astype(f64).sum()]), "y": 2 * x.astype(f64)})
    if fn in ("sched_merge", "sched_reorder"):
        x = ints(N2, 7)
        return {"n": N2, "m": 7}, {"x": x}, {"s": np.array([x.astype(f64).sum()])}
    if fn == "sched_fission":
        x = ints(N1)
        return ({"n": N1}, {"x": x}, {"s": np.array([2 * x.astype(f64).sum()]),
                                          "y": 2 * x.astype(f64) + 1})
    if fn == "sched_fuse":
        x = ints(N1)
        return {"n": N1}, {"x": x}, {"s": np.array([3 * x.astype(f64).sum()])}
    if fn == "sched_cache_red":
        x = ints(N2, 13)
        return {"n": N2, "m": 13}, {"x": x}, {"h": x.astype(f64).sum(0)}
    if fn == "promo_steps":
        x = g.uniform(-1, 1, N1)
        y, s = x.copy(), 0.0
        for _ in range(3):
            y = y * 0.5 + 1
            s += (y * x).sum() + x.sum()
        return {"steps": 3, "n": N1}, {"x": x}, {"s": np.array([s]), "y": y}
    raise ValueError(fn)


def par_audit(fn, threads):
    sizes, inputs, refs = par_audit_refs(fn, np.random.default_rng(len(fn)))
    outs = ftc_run(prog("par_audit.ft"), fn, sizes, inputs, threads)
    for name, ref in refs.items():
        if fn == "steps_acc":
            close(outs, name, ref.astype(f32), f32, rtol=1e-4)
        elif fn == "promo_steps":
            close(outs, name, ref, f64, rtol=1e-9)
        else:
            exact(outs, name, ref.astype(f32), f32)


for fn in ("acc_rows", "scatter_tot", "steps_acc", "col_max", "sched_blend", "sched_move",
           "sched_merge", "sched_reorder", "sched_fission", "sched_fuse", "sched_cache_red",
           "promo_steps"):
    case(f"par_audit/{fn}", par_audit, fn, None)


# A gpu/shared local declared inside a CUDA thread loop (issue 17 audit):
# the CUDA backend made it one __shared__ array per block, which the loop's
# threads then raced on (each iteration of the program has its own copy;
# the verifier took it for a private local).  Refused at its declaration.

SHARED_IN_THREAD_LOOP = """\
export func shared_rows(n: size, x: f32[n, 64] in, y: f32[n, 64] out):
    Lb: for b in range(n):
        Lt: for t in range(64):
            var s: f32[4] @ gpu/shared
            for k in range(4):
                s[k] = x[b, t] * f32(k)
            y[b, t] = s[0] + s[1] + s[2] + s[3]
schedule shared_rows:
    parallelize(Lb, blockIdx.x)
    parallelize(Lt, threadIdx.x)
"""


def cuda_shared_in_thread_loop():
    with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
        src = os.path.join(d, "shared_rows.ft")
        with open(src, "w") as f:
            f.write(SHARED_IN_THREAD_LOOP)
        r = subprocess.run([FTC, "build", src, "--target", "cuda", "--emit=c", "-o",
                            os.path.join(d, "s.cu")], capture_output=True, text=True)
    want = "shared_rows.ft:4:17: error: 's' is gpu/shared but declared inside a thread loop"
    if r.returncode != 1 or want not in r.stderr:
        raise Fail(f"exit {r.returncode}, expected 1 and '{want}': {last_lines(r.stderr)}")


case("cuda_shared_in_thread_loop", cuda_shared_in_thread_loop)


# tests/numeric/progs/red_cache.ft (auto_red_cache: private sum, one atomic)

def red_cache(n, m, threads):
    g = np.random.default_rng(n * 7 + m)
    idx = g.integers(0, n, n).astype(i32)
    w = g.integers(-8, 8, (n, m)).astype(f32)
    y = g.integers(-8, 8, n).astype(f32)
    ref = y.astype(f64) + (w.astype(f64) ** 2).sum(axis=1)
    np.add.at(ref, idx, w[:, :3].astype(f64).sum(axis=1))
    outs = ftc_run(prog("red_cache.ft"), "red_cache", {"n": n, "m": m},
                   {"idx": idx, "w": w, "y": y}, threads)
    exact(outs, "y", ref.astype(f32), f32)


case("red_cache[5000x3]", red_cache, 5000, 3, None)
case("red_cache[300x70]", red_cache, 300, 70, None)


# tests/numeric/progs/red_scalar.ft (auto_red_scalar: 0-D accumulators, simd)

def red_scalar(n, m, threads):
    g = np.random.default_rng(n * 11 + m)
    idx = g.integers(0, n, n).astype(i32)
    w = g.integers(-4, 4, (m, m)).astype(f32)
    x = g.integers(-4, 4, (n, m)).astype(f32)
    y = g.integers(-8, 8, n).astype(f32)
    z = g.integers(-8, 8, n).astype(f32)
    v = g.integers(-8, 8, (n, m)).astype(f32)
    xd = x.astype(f64)
    d = xd @ w.astype(f64).T                       # d[i, k] = sum_j x[i, j] w[k, j]
    ref_y = y.astype(f64) + (d * d).sum(axis=1)
    ref_v = v.astype(f64)
    np.add.at(ref_v, idx, d)
    ref_z = z.astype(f64)
    np.add.at(ref_z, idx, xd[:, 1:].sum(axis=1))
    outs = ftc_run(prog("red_scalar.ft"), "red_scalar", {"n": n, "m": m},
                   {"idx": idx, "w": w, "x": x, "y": y, "z": z, "v": v}, threads)
    exact(outs, "y", ref_y.astype(f32), f32)
    exact(outs, "v", ref_v.astype(f32), f32)
    exact(outs, "z", ref_z.astype(f32), f32)
    exact(outs, "hi", (xd * 3).max(axis=1).astype(f32) if m else np.full(n, -np.inf, f32), f32)


for n, m in ((1, 0), (3, 1), (50, 7), (200, 40)):
    case(f"red_scalar[{n}x{m}]", red_scalar, n, m, None)


# tests/numeric/progs/lanes.ft (auto_lanes: the faces loop outside 16 SIMD
# lanes of pixels; w % 16 pixels in the scalar tail)

def lanes(n, h, w, threads):
    g = np.random.default_rng(n * 7 + h * 3 + w)
    idx = g.integers(0, max(n, 1), n).astype(i32)
    a = g.uniform(-4, 4, n).astype(f32)
    sig = lambda v: 1 / (1 + np.exp(-v))
    px = (np.arange(w, dtype=f64)[None, :] * 0.25 - np.arange(h, dtype=f64)[:, None] * 0.5)
    d = a.astype(f64)[idx][None, None, :] - px[:, :, None]           # [h, w, n]
    fac = np.where(d > 0, 1 - 0.5 * sig(np.minimum(d, 3) * 2), 1 - 0.25 * sig(np.maximum(d, -3)))
    ref = 1 - fac.prod(axis=2)
    outs = ftc_run(prog("lanes.ft"), "lanes", {"n": n, "h": h, "w": w},
                   {"idx": idx, "a": a}, threads)
    close(outs, "y", ref, f32, 1e-5)


for n, h, w in ((0, 2, 5), (37, 3, 8), (100, 2, 21), (5, 1, 3), (64, 4, 16), (30, 2, 40)):
    case(f"lanes[{n}x{h}x{w}]", lanes, n, h, w, None)


def lanes_scatter(n, w, threads):
    g = np.random.default_rng(n * 5 + w)
    idx = g.integers(0, max(n, 1), n).astype(i32)
    a = g.uniform(-2, 2, n).astype(f32)
    d = g.uniform(-1, 1, n).astype(f32)
    ref_y, ref_d = np.zeros(w), d.astype(f64)
    for j in range(w):                              # the definition, in f64
        keep = 1.0
        for f in range(n):
            v = float(a[idx[f]]) * 0.5 - j * 0.125
            keep *= 1 - 0.5 / (1 + np.exp(-v))
            if v > 0:
                ref_d[idx[f]] += keep * v
        ref_y[j] = keep
    outs = ftc_run(prog("lanes.ft"), "scatter", {"n": n, "w": w},
                   {"idx": idx, "a": a, "d": d}, threads)
    close(outs, "y", ref_y, f32, 1e-5)
    close(outs, "d", ref_d, f32, 1e-5)


for n, w in ((0, 9), (70, 8), (90, 19), (3, 2), (50, 37)):
    case(f"lanes_scatter[{n}x{w}]", lanes_scatter, n, w, None)


# tests/numeric/progs/row_tile.ft (auto_row_tile: feature tiles outside the
# window loop, fixed rows in locals, the rest in a copy; integer-valued
# data, so every order of the sums gives the exact result)

def row_tile_ref(dil, w, rows, n):
    """out[h, j] = sum_p w[h, j, p] * rows[h, j + (p - 8) dil[h]] over the
    positions inside [0, n), in float64, and the transpose: tr[h, pos] =
    sum over (j, p) reaching pos of w[h, j, p] * rows[h, j]."""
    nh, m = w.shape[0], rows.shape[2]
    out = np.zeros((nh, n, m), f64)
    tr = np.zeros((nh, n, m), f64)
    for h in range(nh):
        for j in range(n):
            for p in range(17):
                pos = j + (p - 8) * int(dil[h])
                if 0 <= pos < n:
                    out[h, j] += w[h, j, p] * rows[h, pos]
                    tr[h, pos] += w[h, j, p] * rows[h, j]
    return out, tr


def row_tile(nh, n, m, threads):
    g = np.random.default_rng(nh * 7 + n * 3 + m)
    dil = np.array([1, 3, 2][:nh], i32)
    w = g.integers(-3, 4, (nh, n, 17)).astype(f32)
    v = g.integers(-4, 5, (nh, n, m)).astype(f32)
    q = g.integers(-4, 5, (nh, n, m)).astype(f32)
    d_q = g.integers(-8, 9, (nh, n, m)).astype(f32)
    d_k = g.integers(-8, 9, (nh, n, m)).astype(f32)
    sizes = {"nh": nh, "n": n, "m": m}
    y, _ = row_tile_ref(dil, w.astype(f64), v.astype(f64), n)
    outs = ftc_run(prog("row_tile.ft"), "fwd_like", sizes, {"dil": dil, "w": w, "v": v},
                   threads)
    exact(outs, "y", y.astype(f32), f32)
    dq, _ = row_tile_ref(dil, 2 * w.astype(f64), v.astype(f64), n)   # v as k
    _, dk = row_tile_ref(dil, 2 * w.astype(f64), q.astype(f64), n)
    outs = ftc_run(prog("row_tile.ft"), "grad_like", sizes,
                   {"dil": dil, "w": w, "q": q, "k": v, "d_q": d_q, "d_k": d_k}, threads)
    exact(outs, "d_q", (d_q + dq).astype(f32), f32)
    exact(outs, "d_k", (d_k + dk).astype(f32), f32)


for nh, n, m in ((2, 40, 600), (3, 30, 512), (2, 25, 100), (1, 5, 0), (2, 1, 300)):
    case(f"row_tile[{nh}x{n}x{m}]", row_tile, nh, n, m, None)


# tests/numeric/progs/var_pad.ft (var_pad: convolutions over copies of the
# input with zero margins, guards dropped) against NumPy in float64

def conv_ref(x, w, pad):
    n, _, h, wd = x.shape
    k = w.shape[2]
    xp = np.pad(x.astype(f64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    y = np.zeros((n, w.shape[0], h, wd))
    for kh in range(k):
        for kw in range(k):
            y += np.einsum("nchw,oc->nohw", xp[:, :, kh:kh + h, kw:kw + wd],
                           w[:, :, kh, kw].astype(f64))
    return y


def var_pad(n, h, threads):
    g = np.random.default_rng(n * 5 + h)
    x = g.standard_normal((n, 4, h, 9)).astype(f32)
    w = g.standard_normal((8, 4, 3, 3)).astype(f32)
    outs = ftc_run(prog("var_pad.ft"), "conv3", {"n": n, "h": h}, {"x": x, "w": w}, threads)
    close(outs, "y", np.maximum(conv_ref(x, w, 1), 0).astype(f32), f32, 1e-5)
    x = g.standard_normal((n, 3, 7, 6)).astype(f32)
    w = g.standard_normal((5, 3, 5, 5)).astype(f32)
    outs = ftc_run(prog("var_pad.ft"), "conv5", {"n": n}, {"x": x, "w": w}, threads)
    close(outs, "y", conv_ref(x, w, 2).astype(f32), f32, 1e-5)


for n, h, threads in ((1, 5, 1), (2, 8, 2), (3, 1, 3), (0, 4, 2), (2, 7, 4)):
    case(f"var_pad[{n}x{h}, {threads} threads]", var_pad, n, h, threads)


# tests/numeric/progs/unfold.ft (var_unfold: overlapping tiles, read by
# window, written into every copy; var_attach: tensors stored in another)
# against NumPy in float64

def unfold(n, h, threads):
    g = np.random.default_rng(n * 7 + h)
    x = g.standard_normal((n, 4, h, 9)).astype(f32)
    w = g.standard_normal((8, 4, 3, 3)).astype(f32)
    outs = ftc_run(prog("unfold.ft"), "conv3", {"n": n, "h": h}, {"x": x, "w": w}, threads)
    close(outs, "y", np.maximum(conv_ref(x, w, 1), 0).astype(f32), f32, 1e-5)
    x = g.standard_normal((n, 6)).astype(f32)
    c = g.standard_normal(3).astype(f32)
    t = np.ones(n + 2)
    t[1:n + 1] += x.astype(f64).sum(axis=1)
    ref = sum(t[k:k + n] * c[k] for k in range(3))
    outs = ftc_run(prog("unfold.ft"), "window", {"n": n}, {"x": x, "c": c}, threads)
    close(outs, "y", ref.astype(f32), f32, 1e-5)
    x = g.standard_normal((n, 16)).astype(f32)
    w = g.standard_normal((16, 5)).astype(f32)
    b = g.standard_normal(5).astype(f32)
    v = g.standard_normal((2, 5)).astype(f32)
    ref = x.astype(f64) @ w + b + v[0].astype(f64) * v[1]
    outs = ftc_run(prog("unfold.ft"), "attach", {"n": n}, {"x": x, "w": w, "b": b, "v": v},
                   threads)
    close(outs, "y", ref.astype(f32), f32, 1e-5)


for n, h, threads in ((1, 5, 1), (2, 8, 2), (3, 1, 3), (0, 4, 2), (2, 7, 4), (1, 13, 2)):
    case(f"unfold[{n}x{h}, {threads} threads]", unfold, n, h, threads)


# tests/numeric/progs/propagate.ft (propagate, follow_layout: a blocked
# layout carried along conv -> bias -> relu) against NumPy in float64

def propagate(n, threads):
    g = np.random.default_rng(n + 17)
    x = g.standard_normal((n, 3, 5, 6)).astype(f32)
    w = g.standard_normal((8, 3, 3, 3)).astype(f32)
    bias = g.standard_normal(8).astype(f32)
    ref = np.maximum(conv_ref(x, w, 1) + bias.astype(f64)[None, :, None, None], 0)
    outs = ftc_run(prog("propagate.ft"), "chain", {"n": n}, {"x": x, "w": w, "bias": bias},
                   threads)
    close(outs, "y", ref.astype(f32), f32, 1e-5)


for n, threads in ((1, 1), (2, 2), (3, 3), (4, 4)):
    case(f"propagate[{n}, {threads} threads]", propagate, n, threads)


# tests/numeric/progs/tiles.ft (register tiles as ftc tune writes them:
# matrix products tiled over i, k, j around a GELU, a depthwise conv with
# its window unrolled) against NumPy in float64

def tiles(n, threads):
    g = np.random.default_rng(n + 41)
    x = g.standard_normal((12, 32)).astype(f32)
    w1 = (g.standard_normal((32, 64)) / 6).astype(f32)
    w2 = (g.standard_normal((64, 80)) / 8).astype(f32)
    h = x.astype(f64) @ w1.astype(f64)
    h = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
    outs = ftc_run(prog("tiles.ft"), "ffn", {}, {"x": x, "w1": w1, "w2": w2}, threads)
    close(outs, "y", (h @ w2.astype(f64)).astype(f32), f32, 1e-5)
    x = g.standard_normal((n, 16, 8, 8)).astype(f32)
    w = g.standard_normal((16, 1, 3, 3)).astype(f32)
    xp = np.pad(x.astype(f64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = sum(xp[:, :, kh:kh + 8, kw:kw + 8] * w[None, :, 0, kh, kw, None, None]
              for kh in range(3) for kw in range(3))
    outs = ftc_run(prog("tiles.ft"), "dw", {"n": n}, {"x": x, "w": w}, threads)
    close(outs, "y", ref.astype(f32), f32, 1e-5)


for n, threads in ((1, 1), (2, 2), (3, 4), (0, 2)):
    case(f"tiles[{n}, {threads} threads]", tiles, n, threads)


# tests/numeric/progs/dead_store.ft (auto_dead_store: dropped writes of
# locals change nothing; the kept u[i] = 0 is read back as u[0])

def dead_store(n, m, threads):
    x = np.random.default_rng(n * 13 + m).uniform(-1, 1, (n, m)).astype(f32)
    xd = x.astype(f64)
    u = xd[:, 0] if m > 0 else np.ones(n)
    y = xd * 2 + (xd[:, :1] if m > 0 else 0) + 1
    if n > 0:
        y[n - 1, :] = 0
    s = u + np.where(np.arange(n) == 0, u[0] if n else 0, 0)
    outs = ftc_run(prog("dead_store.ft"), "rows", {"n": n, "m": m}, {"x": x}, threads)
    close(outs, "y", y.astype(f32), f32)
    close(outs, "s", s.astype(f32), f32)
    close(outs, "z", (u * 3).astype(f32), f32)


for n, m in ((1, 1), (2, 0), (5, 3), (300, 37)):
    case(f"dead_store[{n}x{m}]", dead_store, n, m, None)


# tests/numeric/progs/merge_red.ft (auto_merge_red: updates of one element
# merged, including rows that alias (a face whose neighbours repeat), the
# cases left alone, and the copy forwarded); m = 13 leaves a rest after the
# vector blocks, n = 1 has every neighbour equal to the face itself

def merge_red_scatter(n, m, threads):
    g = np.random.default_rng(n * 11 + m)
    adj = g.integers(0, n, (n, 3)).astype(i32)
    x = g.uniform(-1, 1, (n, m)).astype(f32)
    gr = g.uniform(-1, 1, (n, m)).astype(f32)
    h = g.uniform(-1, 1, (n, m)).astype(f32)
    xd, gd, hd = x.astype(f64), gr.astype(f64), h.astype(f64)
    d = np.zeros((n, m))
    for j in range(3):
        a, b = adj[:, j], adj[:, (j + 1) % 3]
        s3 = np.where(xd - xd[a] >= 0, gd, -gd)
        d += s3
        np.add.at(d, a, -s3)
        s2 = np.where(xd[a] - xd[b] >= 0, hd, -hd)
        np.add.at(d, a, s2)
        np.add.at(d, b, -s2)
        np.add.at(d, a, gd * hd)
    outs = ftc_run(prog("merge_red.ft"), "scatter", {"n": n, "m": m},
                   {"adj": adj, "x": x, "g": gr, "h": h}, threads)
    close(outs, "d", d.astype(f32), f32, rtol=1e-4)


def merge_red_refused(n, threads):
    x = np.random.default_rng(n).uniform(-1, 1, n).astype(f32)
    xd = x.astype(f64)
    outs = ftc_run(prog("merge_red.ft"), "refused", {"n": n}, {"x": x}, threads)
    close(outs, "a", np.stack([4 * xd, 2 * xd + 1], 1).astype(f32), f32)
    close(outs, "b", np.stack([2 * xd, xd + 1], 1).astype(f32), f32)
    close(outs, "c", (xd * xd + xd)[:, None].astype(f32), f32)
    close(outs, "s", np.array([np.sum(xd + xd * xd)]).astype(f32), f32, rtol=1e-4)


def merge_red_copy(n, m, threads):
    g = np.random.default_rng(n * 5 + m)
    y = g.uniform(-1, 1, (n, m)).astype(f32)
    w = g.uniform(-1, 1, m).astype(f32)
    z = y.astype(f64) @ (w.astype(f64) + 1)
    outs = ftc_run(prog("merge_red.ft"), "copy", {"n": n, "m": m}, {"y": y, "w": w}, threads)
    close(outs, "z", z.astype(f32), f32, rtol=1e-4)


for n, m in ((1, 13), (2, 1), (57, 13), (300, 64)):
    case(f"merge_red_scatter[{n}x{m}]", merge_red_scatter, n, m, None)
for n in (1, 37):
    case(f"merge_red_refused[{n}]", merge_red_refused, n, None)
for n, m in ((1, 1), (3, 0), (40, 13)):
    case(f"merge_red_copy[{n}x{m}]", merge_red_copy, n, m, None)


# tests/numeric/progs/zero_init.ft (auto_zero_init.c's zero-init forwarding)

def zero_init(n, m, threads):
    g = np.random.default_rng(n * 17 + m)
    x = g.uniform(-1, 1, (n, m)).astype(f32)
    w = g.uniform(-1, 1, (m, m)).astype(f32)
    xd = x.astype(f64)
    y = np.exp(xd) @ w.astype(f64).T
    z1 = xd[:, 0] if m > 0 else np.zeros(n)
    q = 2 * z1 - 1
    outs = ftc_run(prog("zero_init.ft"), "rows", {"n": n, "m": m}, {"x": x, "w": w}, threads)
    close(outs, "y", y.astype(f32), f32)
    close(outs, "z", (z1 + 1).astype(f32), f32)
    close(outs, "q", q.astype(f32), f32)


for n, m in ((1, 1), (3, 0), (6, 5), (200, 37)):
    case(f"zero_init[{n}x{m}]", zero_init, n, m, None)


# tests/numeric/progs/sum_dest.ft (auto_sum_dest: sums of local accumulators
# added straight into the destination, auto_fuse's fused row reductions,
# auto_jam's blocks through a local; and the cases left alone): odd sizes for
# the rest after the blocks, 0 for empty rows

def sum_dest(n, m, o, threads):
    g = np.random.default_rng(n * 31 + m * 7 + o)
    a = g.uniform(-1, 1, (n, m)).astype(f32)
    b = g.uniform(-1, 1, (n, m)).astype(f32)
    c = g.uniform(-1, 1, (n, o)).astype(f32)
    w0 = g.uniform(-1, 1, (m, o)).astype(f32)
    w1 = g.uniform(-1, 1, (m, o)).astype(f32)
    ad, bd, cd, w0d, w1d = (x.astype(f64) for x in (a, b, c, w0, w1))
    prg = prog("sum_dest.ft")
    outs = ftc_run(prg, "sums", {"n": n, "m": m, "o": o},
                   {"a": a, "b": b, "c": c, "w0": w0, "w1": w1}, threads)
    close(outs, "y", (ad @ w0d + bd @ w1d + cd).astype(f32), f32, 1e-4)
    p = 3
    a3 = g.uniform(-1, 1, (n, p, m)).astype(f32)
    a3d = a3.astype(f64)
    outs = ftc_run(prg, "planes", {"n": n, "p": p, "m": m, "o": o},
                   {"a": a3, "w0": w0, "w1": w1}, threads)
    close(outs, "y", (a3d @ w0d + (a3d * a3d) @ w1d).astype(f32), f32, 1e-4)
    w = g.uniform(-1, 1, (m, m)).astype(f32)
    y0 = g.uniform(-1, 1, (n, m)).astype(f32)
    wd = w.astype(f64)
    t = ad @ wd
    outs = ftc_run(prg, "between", {"n": n, "m": m}, {"a": a, "w": w, "y": y0}, threads)
    close(outs, "y", (t + ad).astype(f32), f32, 1e-4)
    close(outs, "s", y0.astype(f64).sum(axis=1).astype(f32), f32, 1e-4)
    outs = ftc_run(prg, "twice", {"n": n, "m": m}, {"a": a, "w": w}, threads)
    close(outs, "y", (t + ad).astype(f32), f32, 1e-4)
    close(outs, "z", (2 * t).astype(f32), f32, 1e-4)
    outs = ftc_run(prg, "overwrite", {"n": n, "m": m}, {"a": a, "w": w}, threads)
    close(outs, "y", (3 * ad + t + ad).astype(f32), f32, 1e-4)
    outs = ftc_run(prg, "self", {"n": n, "m": m}, {"a": a, "w": w}, threads)
    close(outs, "y", (2 * t).astype(f32), f32, 1e-4)


for n, m, o in ((1, 1, 1), (3, 0, 5), (2, 5, 0), (5, 13, 64), (7, 9, 17), (40, 64, 33)):
    case(f"sum_dest[{n}x{m}x{o}]", sum_dest, n, m, o, None)


# tests/numeric/progs/lane_sums.ft (the C backend's lane sums, auto_jam's
# blocks of scalar sums): sizes below, at and above the steps of 16 and 8, k
# ranges with and without a rest after the blocks of 4

def lane_sums(n, m, threads):
    g = np.random.default_rng(n * 29 + m)
    x = g.integers(-4, 4, (n, m)).astype(f32)
    w = g.integers(-4, 4, (m, m)).astype(f32)
    w2 = g.integers(-4, 4, (m, m)).astype(f32)
    v = g.integers(-8, 8, m).astype(f64)
    a = g.integers(-8, 8, (n, m)).astype(f32)
    b = g.integers(-8, 8, (n, m)).astype(f32)
    xd = x.astype(f64)
    outs = ftc_run(prog("lane_sums.ft"), "lane_sums", {"n": n, "m": m},
                   {"x": x, "w": w, "w2": w2, "v": v, "a": a, "b": b}, threads)
    exact(outs, "a", (a + xd @ w.astype(f64).T).astype(f32), f32)
    exact(outs, "b", (b + xd @ w2.astype(f64).T).astype(f32), f32)
    exact(outs, "s", (xd[:, 2:] * v[2:]).sum(axis=1), f64)
    exact(outs, "t", xd.sum(axis=1).astype(f32), f32)
    exact(outs, "u", np.full(n, v.sum()), f64)
    exact(outs, "c", x * 2, f32)
    exact(outs, "h", (xd * 3).sum(axis=1).astype(f32), f32)
    exact(outs, "g", np.stack([xd.sum(axis=1), (xd * 2).sum(axis=1), (xd * xd).sum(axis=1)],
                              axis=1).astype(f32), f32)


for n, m in ((1, 0), (3, 1), (5, 7), (2, 8), (3, 9), (4, 16), (6, 17), (9, 35), (3, 70)):
    case(f"lane_sums[{n}x{m}]", lane_sums, n, m, None)


# tests/numeric/progs/simd_blocks.ft (the C backend's simd blocks: vectorized
# loops of stores in blocks of 8 or 4 lanes, the rest as one masked block):
# sizes below, at and above 4 and 8, each path of the scatter

def simd_blocks(n, m, threads):
    g = np.random.default_rng(n * 37 + m)
    x = g.integers(-8, 8, (n, m)).astype(f32)
    adj = g.integers(0, n, (n, 3)).astype(i32)
    xd = x.astype(f64)
    ref = np.zeros((n, m))
    for j in range(3):
        np.add.at(ref, adj[:, j], xd * 2)
        ref += np.abs(xd - xd[adj[:, j]])
    outs = ftc_run(prog("simd_blocks.ft"), "scatter", {"n": n, "m": m}, {"adj": adj, "x": x},
                   threads)
    exact(outs, "s", ref.astype(f32), f32)
    outs = ftc_run(prog("simd_blocks.ft"), "shift", {"n": n, "m": m}, {"x": x}, threads)
    ref = np.zeros((n, m))
    ref[:, 1:] = xd[:, 1:] - xd[:, :-1]
    exact(outs, "y", ref.astype(f32), f32)
    outs = ftc_run(prog("simd_blocks.ft"), "wide", {"n": n, "m": m}, {"x": x}, threads)
    exact(outs, "d", xd * 0.5, f64)
    exact(outs, "k", np.arange(n * m, dtype=i64).reshape(n, m), i64)
    if m > 0:   # (with no q, no row of s is touched, and nothing checked)
        adj[n // 2, 1] = n
        ftc_run(prog("simd_blocks.ft"), "scatter", {"n": n, "m": m}, {"adj": adj, "x": x},
                threads, expect_fail=True)


for n, m in ((2, 0), (1, 1), (3, 3), (5, 4), (2, 7), (6, 8), (7, 9), (9, 13), (4, 16), (5, 35)):
    case(f"simd_blocks[{n}x{m}]", simd_blocks, n, m, None)


def csr_rows(g, n, avg_deg):
    """Row lengths (uniform in 0..2*avg_deg) of n CSR rows drawn from the
    generator g, and their row pointers (int32, n + 1 entries)."""
    deg = g.integers(0, 2 * avg_deg + 1, n)
    return deg, np.concatenate([[0], np.cumsum(deg)]).astype(i32)


# tests/numeric/progs/cse.ft (auto_cse: a repeated exp / sigmoid computed once)

def cse(n, avg_deg, threads):
    g = np.random.default_rng(n * 7 + avg_deg)
    deg, ptr = csr_rows(g, n, avg_deg)
    nnz = int(ptr[-1])
    idx = g.integers(0, n, nnz).astype(i32)
    a, b, c = (g.uniform(-1, 1, n).astype(f32) for _ in range(3))
    ad, bd, cd = a.astype(f64), b.astype(f64), c.astype(f64)
    row = np.repeat(np.arange(n), deg)
    t = ad[row] + bd[idx]
    ex = np.exp(t)
    ref_s = np.bincount(row, ex, minlength=n)
    ref_d = np.bincount(row, np.where(t > 0, ex * bd[idx], 0), minlength=n)
    ref_e = np.bincount(idx, ex / (1 + ad[row] ** 2), minlength=n)
    sg = 1 / (1 + np.exp(-2 * cd))
    outs = ftc_run(prog("cse.ft"), "cse", {"n": n, "nnz": nnz},
                   {"ptr": ptr, "idx": idx, "a": a, "b": b, "c": c}, threads)
    close(outs, "s", ref_s, f32)
    close(outs, "d", ref_d, f32)
    close(outs, "e", ref_e, f32)
    close(outs, "g", sg * (1 - sg), f32)


for n, deg in ((1, 0), (5, 2), (300, 6)):
    case(f"cse[{n}x{deg}]", cse, n, deg, None)


# tests/numeric/progs/prefetch.ft (auto_prefetch: rows at idx[k + 16]
# prefetched): sizes below and above the 64 KiB from which they are
# issued; the edges of gather followed by `pad` entries that no row uses,
# out of range (negative, n, huge): a prefetch 16 edges ahead reads them,
# skips them, and the call still succeeds

def prefetch_gather(n, f, avg_deg, pad, threads):
    g = np.random.default_rng(n * 13 + f + pad)
    deg, ptr = csr_rows(g, n, avg_deg)
    used = int(ptr[-1])
    idx = np.concatenate([g.integers(0, n, used),
                          np.resize([-1, n, 2**31 - 1, -2**31], pad)]).astype(i32)
    x = g.uniform(-1, 1, (n, f)).astype(f32)
    c = g.uniform(-1, 1, n).astype(f32)
    d = g.uniform(-1, 1, (n, f)).astype(f32)
    row = np.repeat(np.arange(n), deg)
    e = idx[:used]
    xd, cd = x.astype(f64), c.astype(f64)
    ref_y = np.zeros((n, f))
    np.add.at(ref_y, row, cd[e, None] * xd[e])
    ref_d = d.astype(f64)
    np.add.at(ref_d, e, xd[row])
    outs = ftc_run(prog("prefetch.ft"), "gather", {"n": n, "nnz": len(idx), "f": f},
                   {"ptr": ptr, "idx": idx, "x": x, "c": c, "d": d}, threads)
    close(outs, "y", ref_y, f32)
    close(outs, "d", ref_d, f32)


def prefetch_backwards(n, nnz, threads):
    g = np.random.default_rng(n * 3 + nnz)
    idx = g.integers(0, n, nnz).astype(i32)
    x = g.uniform(-1, 1, n).astype(f32)
    s = 0.0
    for k in range(nnz - 1, -1, -1):
        s = s * 0.5 + float(x[idx[k]])
    outs = ftc_run(prog("prefetch.ft"), "backwards", {"n": n, "nnz": nnz},
                   {"idx": idx, "x": x}, threads)
    close(outs, "s", np.array([s]), f32)


for n, f, deg, pad in ((1, 1, 0, 0), (7, 3, 2, 5), (300, 5, 6, 20), (20000, 8, 5, 40)):
    case(f"prefetch_gather[{n}x{f}x{deg}+{pad}]", prefetch_gather, n, f, deg, pad, None)
for n, nnz in ((1, 0), (5, 20), (20000, 3000)):
    case(f"prefetch_backwards[{n}x{nnz}]", prefetch_backwards, n, nnz, None)


# tests/numeric/progs/promote.ft (auto_promote: s[i]'s updates summed in a
# scalar, added once per node; nodes without edges add nothing)

def promote(n, avg_deg, threads):
    g = np.random.default_rng(n * 11 + avg_deg)
    deg, ptr = csr_rows(g, n, avg_deg)
    nnz = int(ptr[-1])
    idx = g.integers(0, n, nnz).astype(i32)
    w = g.uniform(-1, 1, nnz).astype(f32)
    wd = w.astype(f64)
    row = np.repeat(np.arange(n), deg)
    ref_s = np.bincount(row, 3 * wd + wd * wd + 1, minlength=n)
    ref_v = np.zeros(n)
    for i in range(n):
        for k in range(ptr[i], ptr[i + 1]):
            ref_v[i] = max(ref_v[i] + wd[k], wd[k])
    outs = ftc_run(prog("promote.ft"), "edges", {"n": n, "nnz": nnz},
                   {"ptr": ptr, "idx": idx, "w": w}, threads)
    close(outs, "s", ref_s, f32)
    close(outs, "t", np.bincount(idx, wd, minlength=n), f32)
    exact(outs, "u", (3.0 ** deg).astype(f32), f32)
    close(outs, "v", ref_v, f32)


for n, deg in ((1, 0), (4, 2), (300, 5)):
    case(f"promote[{n}x{deg}]", promote, n, deg, None)


# tests/numeric/progs/hoist_load.ft (auto_hoist_load: a float element read
# again and again loaded once; never across a write of its tensor, never
# before a loop that may not run when its index is data-dependent)

def hoist_edges(n, avg_deg, threads):
    g = np.random.default_rng(n * 13 + avg_deg)
    deg, ptr = csr_rows(g, n, avg_deg)
    nnz = int(ptr[-1])
    idx = g.integers(0, n, nnz).astype(i32)
    a = g.uniform(-1, 1, n).astype(f32)
    w = g.uniform(-1, 1, nnz).astype(f32)
    ad, wd = a.astype(f64), w.astype(f64)
    row = np.repeat(np.arange(n), deg)
    ref_s = np.bincount(idx, ad[row] * wd + wd * wd, minlength=n)
    ref_t = np.bincount(row, wd - ad[row], minlength=n)
    outs = ftc_run(prog("hoist_load.ft"), "edges", {"n": n, "nnz": nnz},
                   {"ptr": ptr, "idx": idx, "a": a, "w": w}, threads)
    close(outs, "s", ref_s, f32)
    close(outs, "t", ref_t, f32)


def hoist_written(n, threads):
    x = np.random.default_rng(n).integers(-8, 8, n).astype(f32)
    y = x + 1
    x2 = x * 3 + y
    z = np.stack([x * 2, y * 2, x2 + y, x2 * y], axis=1)
    outs = ftc_run(prog("hoist_load.ft"), "written", {"n": n}, {"x": x}, threads)
    exact(outs, "x", x2, f32)
    exact(outs, "y", y, f32)
    exact(outs, "z", z, f32)


def hoist_guarded(n, avg_deg, threads):
    g = np.random.default_rng(n * 5 + avg_deg)
    deg, ptr = csr_rows(g, n, avg_deg)
    nnz = int(ptr[-1])
    idx = g.integers(0, n, nnz).astype(i32)
    x = g.integers(-8, 8, n).astype(f32)
    t = g.integers(-8, 8, n).astype(f32)
    # a node without edges has an index out of range: nothing reads it
    j = np.where(deg > 0, g.integers(0, n, n), 10 * n + 7).astype(i32)
    row = np.repeat(np.arange(n), deg)
    ref = t.astype(f64) + np.bincount(idx, 3 * x[j[row]].astype(f64), minlength=n)
    outs = ftc_run(prog("hoist_load.ft"), "guarded", {"n": n, "nnz": nnz},
                   {"ptr": ptr, "idx": idx, "j": j, "x": x, "t": t}, threads)
    exact(outs, "t", ref.astype(f32), f32)


for n, deg in ((1, 0), (4, 2), (300, 5)):
    case(f"hoist_edges[{n}x{deg}]", hoist_edges, n, deg, None)
    case(f"hoist_guarded[{n}x{deg}]", hoist_guarded, n, deg, None)
for n in (1, 37):
    case(f"hoist_written[{n}]", hoist_written, n, None)


# tests/numeric/progs/schedules.ft (schedule primitives)

def sched_fused(n, m, threads):
    a = np.random.default_rng(n * 31 + m).integers(-8, 8, (n, m)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "fused", {"n": n, "m": m}, {"a": a}, threads)
    exact(outs, "b", a * 2 + 1, f32)
    exact(outs, "s", a.astype(f64).sum(axis=1).astype(f32), f32)


def sched_nest(n, m, threads):
    a = np.random.default_rng(n * 17 + m).integers(-8, 8, (n, m)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "nest", {"n": n, "m": m}, {"a": a}, threads)
    exact(outs, "c", (a * 3).T, f32)
    exact(outs, "d", a[:, 0] + 1, f32)
    exact(outs, "e", np.ones(4, dtype=f32), f32)
    exact(outs, "g", np.arange(4, dtype=f32) * 2, f32)


for n, m in ((1, 1), (7, 5), (64, 33)):
    case(f"sched_fused[{n}x{m}]", sched_fused, n, m, None)
    case(f"sched_nest[{n}x{m}]", sched_nest, n, m, None)


def sched_cached(n, m, threads):
    a = np.random.default_rng(n * 13 + m).integers(-8, 8, (n + 3, m)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "cached", {"n": n, "m": m}, {"a": a}, threads)
    ad = a.astype(f64)
    y = sum(ad[k:k + n] * (k + 1) for k in range(4))
    s = np.stack([ad[q:q + n].sum(axis=1) * q for q in range(4)], axis=1)
    exact(outs, "y", y.astype(f32), f32)
    exact(outs, "s", s.astype(f32), f32)
    exact(outs, "w", a[:n, 0], f32)


def sched_layout(n, m, threads):
    x = np.random.default_rng(n * 7 + m).integers(-8, 8, (n, m)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "layout", {"n": n, "m": m}, {"x": x}, threads)
    t, u, v = x * 2, x + 1, x - 1
    exact(outs, "y", t * t[::-1, :] + u * u[:, ::-1] + v * v[::-1, ::-1], f32)


for n, m in ((1, 1), (7, 5), (64, 33)):
    case(f"sched_cached[{n}x{m}]", sched_cached, n, m, None)
    case(f"sched_layout[{n}x{m}]", sched_layout, n, m, None)


def sched_tails(n):
    x = np.random.default_rng(n).integers(-8, 8, n).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "tails", {"n": n}, {"x": x})
    t = x * 3 - 1
    exact(outs, "y", t * 2 + t[::-1], f32)
    exact(outs, "z", x + t, f32)


for n in (0, 1, 3, 4, 5, 12, 37):
    case(f"sched_tails[{n}]", sched_tails, n)


def sched_window(h, w, threads):
    g = np.random.default_rng(h * 100 + w)
    x = g.integers(-8, 8, (h, w)).astype(f32)
    k = g.integers(-4, 4, (3, 3)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "window", {"h": h, "w": w}, {"x": x, "k": k}, threads)
    xp = np.pad(x.astype(np.float64), 1)
    want = sum(xp[kh:kh + h, kw:kw + w] * k[kh, kw] for kh in range(3) for kw in range(3))
    exact(outs, "y", want, f32)


for h, w in ((1, 1), (1, 5), (2, 2), (3, 40), (17, 3), (33, 57)):
    for threads in (1, 2, 3):
        case(f"sched_window[{h}x{w},{threads}t]", sched_window, h, w, threads)


# tests/numeric/progs/transpose.ft (backend/cg_transpose.c: transposing
# copies emitted as blocked transposes)
def transpose_cases(threads):
    g = np.random.default_rng(31)
    w = g.standard_normal((48, 20, 3, 3)).astype(f32)
    outs = ftc_run(prog("transpose.ft"), "pack", {}, {"w": w}, threads)
    exact(outs, "y", w.transpose(1, 2, 3, 0) + f32(0.5), f32)
    outs = ftc_run(prog("transpose.ft"), "blocks", {}, {"w": w}, threads)
    exact(outs, "y", w.reshape(3, 16, 20, 3, 3).transpose(0, 2, 3, 4, 1) * f32(2), f32)
    x = g.standard_normal((37, 3, 40)).astype(f32)
    outs = ftc_run(prog("transpose.ft"), "middle", {}, {"x": x}, threads)
    exact(outs, "y", x.transpose(2, 1, 0) - f32(1), f32)
    x = g.standard_normal((33, 17))
    outs = ftc_run(prog("transpose.ft"), "out64", {}, {"x": x}, threads)
    exact(outs, "y", (x * 3).T, np.float64)
    x = g.standard_normal((20, 3, 3)).astype(f32)
    outs = ftc_run(prog("transpose.ft"), "packed", {}, {"w": w, "x": x}, threads)
    close(outs, "y", np.einsum("ocij,cij->o", w.astype(np.float64), x), f32, 1e-5)


for threads in (1, 2, 3):
    case(f"transpose[{threads}t]", transpose_cases, threads)


def sched_file(n):
    """--schedule FILE: the dump after the schedule, compiled again, runs."""
    with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
        r = ftc("build", prog("sched_file.ft"), "--schedule", prog("sched_file.fts"),
                "--dump-after=schedule")
        if "parallelize(o, openmp)" not in r.stdout:
            raise Fail("ftc build --schedule did not schedule:" + r.stderr + r.stdout)
        dumped = os.path.join(d, "dumped.ft")
        with open(dumped, "w") as f:
            f.write(r.stdout)
        x = np.random.default_rng(n).integers(-8, 8, n).astype(f32)
        outs = ftc_run(dumped, "scaled", {"n": n}, {"x": x})
        exact(outs, "y", x * 2 + 1, f32)


for n in (1, 6, 33):
    case(f"sched_file[{n}]", sched_file, n)


def sched_blended(n):
    x = np.random.default_rng(n).integers(-8, 8, (3, n)).astype(f32)
    outs = ftc_run(prog("schedules.ft"), "blended", {"n": n}, {"x": x})
    exact(outs, "y", x * 2 + np.arange(3, dtype=f32)[:, None], f32)
    exact(outs, "z", x[:, 0] + 1, f32)


for n in (1, 8, 33):
    case(f"sched_blended[{n}]", sched_blended, n)


# tests/numeric/progs/sched_names.ft: schedules naming locals that the
# cleanups would remove, and a labelled `var` (issue 17)

def sched_names(n, threads):
    x = np.random.default_rng(n + 3).integers(-8, 8, (n, 4)).astype(f32)
    p = prog("sched_names.ft")
    outs = ftc_run(p, "split_copy", {"n": n}, {"x": x[:, 0].copy()}, threads)
    y = x[:, 0] * 2
    exact(outs, "z", y + y[::-1], f32)
    outs = ftc_run(p, "temps", {"n": n}, {"x": x}, threads)
    exact(outs, "z", x * 2 + x * 3 + (x[:, 0] + 1)[:, None], f32)
    outs = ftc_run(p, "rows", {"n": n}, {"x": x}, threads)
    t, t2 = x * 2, x * 3
    exact(outs, "z", t + t[:, ::-1] + t2 * t2[:, ::-1], f32)


for n in (1, 5, 33):
    for t in (1, 2):
        case(f"sched_names[{n}]/t{t}", sched_names, n, t)


# tests/numeric/progs/auto.ft (the auto-scheduler keeps the results)

def auto_prog(n, m, threads):
    rng = np.random.default_rng(n * 5 + m)
    x = rng.integers(-8, 8, n).astype(f32)
    outs = ftc_run(prog("auto.ft"), "fused", {"n": n}, {"x": x}, threads)
    t = x * 2
    exact(outs, "y", t + 1, f32)
    exact(outs, "z", t * t[::-1], f32)
    exact(outs, "s", np.ones(1, dtype=f32), f32)
    x2 = rng.integers(-8, 8, (n, m)).astype(f32)
    outs = ftc_run(prog("auto.ft"), "transposed", {"n": n, "m": m}, {"x": x2}, threads)
    exact(outs, "y", x2 * 2 + np.arange(n, dtype=f32)[:, None], f32)
    x3 = rng.integers(-8, 8, (8, 16)).astype(f32)
    outs = ftc_run(prog("auto.ft"), "merged", {}, {"x": x3}, threads)
    exact(outs, "y", x3 + np.arange(8, dtype=f32)[:, None], f32)
    exact(outs, "s", x3.sum(axis=1), f32)
    adj = rng.integers(0, n, (n, 3)).astype(i32)
    e = rng.integers(-8, 8, n).astype(f32)
    outs = ftc_run(prog("auto.ft"), "neighbours", {"n": n}, {"adj": adj, "e": e}, threads)
    exact(outs, "y", (e[adj] * np.arange(1, 4, dtype=f32)).sum(axis=1), f32)
    outs = ftc_run(prog("auto.ft"), "bounded", {"n": n}, {"x": x}, threads)
    q = min(n, 16)
    w = x.astype(f64)[:, None] * np.arange(q)
    exact(outs, "y", (w * w[:, ::-1]).sum(axis=1).astype(f32), f32)


for n, m in ((1, 1), (7, 5), (40, 33)):
    case(f"auto[{n}x{m}]", auto_prog, n, m, None)


def auto_gathered(n, m, threads):
    """A vectorized dot product (reduction clause) over gathered rows; an
    index out of range still fails (checked once per row, before the loop)."""
    rng = np.random.default_rng(n * 7 + m)
    a = rng.integers(-8, 8, (n, m)).astype(f32)
    idx = rng.integers(0, n, n).astype(i32)
    outs = ftc_run(prog("auto.ft"), "gathered", {"n": n, "m": m}, {"idx": idx, "a": a},
                   threads)
    ad = a.astype(f64)
    exact(outs, "y", (ad * ad[idx]).sum(axis=1).astype(f32), f32)
    exact(outs, "z", a[idx] * 2, f32)
    idx[n // 2] = n
    ftc_run(prog("auto.ft"), "gathered", {"n": n, "m": m}, {"idx": idx, "a": a},
            threads, expect_fail=True)


for n, m in ((1, 1), (7, 5), (40, 33)):
    case(f"auto_gathered[{n}x{m}]", auto_gathered, n, m, None)


def auto_mesh_conv(n, m, o, threads):
    """SubdivNet's per-face gather and two row-times-matrix products (the
    late fusion of the gather loops, the zeroing loops of the products'
    temporaries fused across their scopes); an index out of range still
    fails."""
    rng = np.random.default_rng(n * 11 + m * 3 + o)
    adj = rng.integers(0, n, (n, 3)).astype(i32)
    e = rng.integers(-8, 8, (n, m)).astype(f32)
    w0 = rng.integers(-4, 5, (m, o)).astype(f32)
    w1 = rng.integers(-4, 5, (m, o)).astype(f32)
    ins = {"adj": adj, "e": e, "w0": w0, "w1": w1}
    outs = ftc_run(prog("auto.ft"), "mesh_conv", {"n": n, "m": m, "o": o}, ins, threads)
    ed = e.astype(f64)
    g = np.abs(ed[adj] - ed[:, None, :]).sum(axis=1)
    exact(outs, "y", (ed @ w0 + g @ w1).astype(f32), f32)
    adj[n // 2, 2] = n
    ftc_run(prog("auto.ft"), "mesh_conv", {"n": n, "m": m, "o": o}, ins, threads,
            expect_fail=True)


for n, m, o in ((1, 1, 1), (7, 5, 3), (40, 13, 33)):
    case(f"auto_mesh_conv[{n}x{m}x{o}]", auto_mesh_conv, n, m, o, None)


def auto_csr(n, m, threads):
    """A scatter over CSR rows (power-law-ish row lengths, some empty):
    the row loop runs in parallel, the scatters into per-thread copies
    that are added into the inout tensors after it; an index out of range
    still fails."""
    rng = np.random.default_rng(n * 13 + m)
    deg = np.minimum(rng.zipf(2.0, n) - 1, 3 * n)
    ptr = np.concatenate([[0], np.cumsum(deg)]).astype(i32)
    nnz = int(ptr[-1])
    idx = (rng.integers(0, n, nnz) * rng.integers(0, 2, nnz)).astype(i32)
    w = rng.integers(-4, 5, nnz).astype(f32)
    g = rng.integers(-4, 5, (n, m)).astype(f32)
    d0 = rng.integers(-8, 8, (n, m)).astype(f32)
    c0 = rng.integers(0, 5, n).astype(np.int64)
    ins = {"ptr": ptr, "idx": idx, "w": w, "g": g, "d": d0, "cnt": c0}
    outs = ftc_run(prog("auto.ft"), "csr", {"n": n, "nnz": nnz, "m": m}, ins, threads)
    row = np.repeat(np.arange(n), deg)
    d = d0.astype(f64)
    np.add.at(d, idx, w[:, None].astype(f64) * g[row].astype(f64))
    c = c0.copy()
    np.add.at(c, idx, 1)
    exact(outs, "own", np.bincount(row, weights=w, minlength=n).astype(f32), f32)
    exact(outs, "d", d.astype(f32), f32)
    exact(outs, "cnt", c, np.int64)
    if nnz:
        idx[nnz // 2] = n
        ftc_run(prog("auto.ft"), "csr", {"n": n, "nnz": nnz, "m": m}, ins, threads,
                expect_fail=True)


for n, m in ((1, 1), (9, 3), (300, 33)):
    for t in (1, 2, 3):
        case(f"auto_csr[{n}x{m}]/t{t}", auto_csr, n, m, t)


def auto_mesh_scatter(n, m, threads):
    """auto_privatize's dense rule: d's scatter (6 * m updates per face into
    n x m elements) goes to per-thread copies, s's (3 per face) stays
    atomic; an index out of range still fails."""
    rng = np.random.default_rng(n * 7 + m)
    adj = rng.integers(0, n, (n, 3)).astype(i32) if n else np.zeros((0, 3), i32)
    g = rng.integers(-4, 5, (n, m)).astype(f32)
    d0 = rng.integers(-8, 8, (n, m)).astype(f32)
    s0 = rng.integers(-8, 8, n).astype(f32)
    ins = {"adj": adj, "g": g, "d": d0, "s": s0}
    outs = ftc_run(prog("auto.ft"), "mesh_scatter", {"n": n, "f": m}, ins, threads)
    d = d0.astype(f64)
    s = s0.astype(f64)
    for j in range(3):
        np.add.at(d, adj[:, j], g.astype(f64))
        d += g.astype(f64) * j
        np.add.at(s, adj[:, j], 1)
    exact(outs, "d", d.astype(f32), f32)
    exact(outs, "s", s.astype(f32), f32)
    if n:
        adj[n // 2, 1] = n
        ins["adj"] = adj
        code, err = ftc_run(prog("auto.ft"), "mesh_scatter", {"n": n, "f": m}, ins, threads,
                            expect_fail=True)
        if "index" not in err:
            raise Fail(f"an index out of range gave: {err.strip()}")


for n, m in ((0, 3), (1, 1), (20, 5), (300, 17)):
    case(f"auto_mesh_scatter[{n}x{m}]", auto_mesh_scatter, n, m, None)


def auto_weight_grad(n, k, m, threads):
    """A loop whose every iteration adds into all of w runs in parallel
    with w in per-thread copies (auto_parallelize asks auto_privatize)."""
    rng = np.random.default_rng(n * 5 + k)
    x = rng.integers(-4, 5, (n, k)).astype(f32)
    g = rng.integers(-4, 5, (n, m)).astype(f32)
    w0 = rng.integers(-8, 8, (k, m)).astype(f32)
    outs = ftc_run(prog("auto.ft"), "weight_grad", {"n": n, "k": k, "m": m},
                   {"x": x, "g": g, "w": w0}, threads)
    w = w0.astype(f64) + np.abs(x.astype(f64)).T @ g.astype(f64)
    exact(outs, "w", w.astype(f32), f32)


for n, k, m in ((0, 3, 2), (1, 1, 1), (37, 5, 3), (500, 13, 17)):
    for t in (1, 2, 3):
        case(f"auto_weight_grad[{n}x{k}x{m}]/t{t}", auto_weight_grad, n, k, m, t)


def auto_jammed(n, m, threads):
    """Row-times-matrix products unrolled and jammed over k (auto_jam)."""
    rng = np.random.default_rng(n * 11 + m)
    x = rng.integers(-8, 8, (n, n)).astype(f32)
    w = rng.integers(-8, 8, (n, m)).astype(f32)
    outs = ftc_run(prog("auto.ft"), "jammed", {"n": n, "m": m}, {"x": x, "w": w}, threads)
    exact(outs, "y", (x.astype(f64) @ w.astype(f64) + n).astype(f32), f32)


for n, m in ((0, 3), (3, 2), (20, 5), (23, 17), (41, 33)):
    case(f"auto_jammed[{n}x{m}]", auto_jammed, n, m, None)


# tests/numeric/progs/local.ft

def local(n):
    x = np.random.default_rng(n).standard_normal((n, 4)).astype(f32)
    outs = ftc_run(prog("local.ft"), "local", {"n": n}, {"x": x})
    xd = x.astype(f64)
    close(outs, "y", ((xd * 2).sum(axis=1) + 1)[::-1], f32)
    exact(outs, "r", (x * 2)[:, ::-1], f32)


case("local[1]", local, 1)
case("local[37]", local, 37)


# tests/numeric/progs/c_names.ft

def c_names(m, n):
    if emits_cuda():
        # CUDA refuses the exported name `time` (a CUDA library function)
        r = subprocess.run([FTC, "build", prog("c_names.ft"), "--emit=c"], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL, timeout=H.TIMEOUT)
        want = "c_names.ft:16:13: error: exported function name 'time' clashes with a CUDA"
        if r.returncode == 0 or want not in r.stderr:
            raise Fail(f"CUDA target: want exit 1 and '{want}', got exit {r.returncode}: "
                       f"{last_lines(r.stderr)}")
        return "CUDA target: `time` refused with its location"
    x = np.random.default_rng(7).uniform(-1, 1, (m, n)).astype(f32)
    outs = ftc_run(prog("c_names.ft"), "args", {"sizes": m, "dims": n}, {"x": x})
    close(outs, "y", x.astype(f64).sum(axis=0), f32)
    v = x[0].astype(f64)
    for fn, want in (("step", v * 2), ("time", v + 1), ("read", v * v), ("sleep", 3 - v)):
        close(ftc_run(prog("c_names.ft"), fn, {"n": n}, {"x": x[0]}), "y", want, f32)


case("c_names[3x4]", c_names, 3, 4)


# tests/numeric/progs/user_names.ft

def user_names(n):
    x = np.random.default_rng(8).uniform(-1, 1, n).astype(f32)
    outs = ftc_run(prog("user_names.ft"), "user_names", {"n": n}, {"x": x})
    xd = x.astype(f64)
    e = np.exp(xd - xd.max())
    close(outs, "y", e / e.sum() + 2 * xd, f32)
    close(outs, "s", [xd.max() + 7], f32)
    close(outs, "z", xd + 1, f32)


case("user_names[5]", user_names, 5)


# tests/numeric/progs/cleanup.ft (the cleanup passes keep the results)

def cleanup(n, m):
    """Every function of cleanup.ft; with m = 0 only hoist (the others read
    x[i, 0]), where the guard keeps x[0] from being read."""
    rng = np.random.default_rng(1000 + 7 * n + m)
    if m == 0:
        return cleanup_hoist(rng, n, m)
    x = rng.uniform(-1, 1, (n, m)).astype(f32)
    xd = x.astype(f64)
    w = rng.standard_normal(n)
    outs = ftc_run(prog("cleanup.ft"), "temps", {"n": n, "m": m}, {"x": x, "w": w})
    close(outs, "z", (xd[:, 0] ** 2 + w + np.abs(xd[:, 0] * 2 + 1)), f64, 1e-6)
    close(outs, "y", np.exp(xd[:, ::-1]) * 2, f32)

    a = rng.uniform(-1, 1, m).astype(f32)
    outs = ftc_run(prog("cleanup.ft"), "copies", {"n": n, "m": m}, {"x": x, "a": a})
    rot = xd[:, (np.arange(m) + 1) % m]
    close(outs, "y", rot ** 2 + xd[np.arange(n) // 2] ** 2 + rot[:, :1], f32)
    close(outs, "a", 1 + a.astype(f64) * 2, f32)

    outs = ftc_run(prog("cleanup.ft"), "shrink", {"n": n, "m": m}, {"x": x})
    s = (xd ** 2 + xd[:, ::-1] ** 2).sum(axis=1)
    for i in range(1, n - 1):
        s[i] += xd[i - 1, 0] * xd[i + 1, 0] + xd[i, 0] ** 2
    close(outs, "s", s, f32)
    close(outs, "y", (xd + 1) ** 2, f32)

    cleanup_hoist(rng, n, m)
    v = rng.uniform(-2, 2, n).astype(f32)
    idx = rng.integers(0, n, n).astype(i32) if n > 0 else np.zeros(0, dtype=i32)
    outs = ftc_run(prog("cleanup.ft"), "dead", {"n": n}, {"x": v, "idx": idx})
    vd = v.astype(f64)
    close(outs, "y", (vd + 1) ** 2 + (vd <= 1), f32)


def cleanup_hoist(rng, n, m):
    v = rng.uniform(-1, 1, m).astype(f32)
    acc = rng.uniform(-1, 1, 1).astype(f32)
    outs = ftc_run(prog("cleanup.ft"), "hoist", {"n": n, "m": m}, {"x": v, "acc": acc})
    vd = v.astype(f64)
    scale = np.sqrt((vd ** 2).sum()) + 1
    close(outs, "y", np.tile(vd / scale + scale, (n, 1)), f32)
    close(outs, "u", (vd[0] * 2) ** 2 + vd if m > 0 else vd, f32)
    accd = acc.astype(f64)
    for _ in range(n):
        accd[0] = (accd[0] + 1) * 1.5
    close(outs, "acc", accd, f32)


def cleanup_bad_index():
    """A dead store keeps its data-dependent index check."""
    ftc_run(prog("cleanup.ft"), "dead", {"n": 3},
            {"x": np.zeros(3, dtype=f32), "idx": np.array([0, 3, 1], dtype=i32)},
            expect_fail=True)


for n, m in [(0, 3), (3, 0), (1, 1), (2, 5), (7, 4), (40, 33)]:
    case(f"cleanup[{n}x{m}]", cleanup, n, m)
case("cleanup/bad_index", cleanup_bad_index)


# tests/numeric/progs/grad_*.ft: gradients (autodiff/).  grad_elementwise
# against the analytic gradient, through `ftc run` of g, g_fwd + g_bwd; the
# others with gradcheck's check (central differences in f64, rel err < 1e-6)
# at 1, 2 and 4 threads of one build (harness.gradcheck), and once with the
# `ftc gradcheck` tool itself.

def grad_elementwise(n):
    rng = np.random.default_rng(n)
    x1, x2, x3, dy = (rng.uniform(-1, 1, n).astype(f32) for _ in range(4))
    o = ftc_run(prog("grad_elementwise.ft"), "g", {"n": n},
                {"x1": x1, "x2": x2, "x3": x3, "d_y": dy})
    close(o, "y", (x1 + x2) * x3, f32)
    close(o, "d_x1", dy * x3, f32)
    close(o, "d_x2", dy * x3, f32)
    close(o, "d_x3", dy * (x1 + x2), f32)
    b = ftc_run(prog("grad_elementwise.ft"), "g_bwd", {"n": n},
                {"x1": x1, "x2": x2, "x3": x3, "y": (x1 + x2) * x3, "d_y": dy,
                 "tape": np.zeros(0, f32)})
    close(b, "d_x3", dy * (x1 + x2), f32)


def gradcheck(where, file, func, wrt, sizes, defines=()):
    """gradcheck's check of FUNC wrt WRT on random inputs at SIZES, with 1,
    2 and 4 threads of one build (harness.gradcheck)."""
    path = os.path.join(ROOT, *where.split("/"), file)
    return H.gradcheck(FTC, path, func, wrt, sizes, defines=defines, verbose=VERBOSE)


def gradcheck_tool(where, file, func, wrt, sizes, defines=()):
    """`ftc gradcheck` itself (the tool; one thread count) of FUNC wrt WRT:
    one line per wrt tensor, each error below 1e-6."""
    path = os.path.join(ROOT, *where.split("/"), file)
    args = ["gradcheck", path, func, "wrt", *wrt] + [f"{k}={v}" for k, v in sizes.items()]
    for d in defines:
        args += ["-D", d]
    r = ftc(*args)
    errs = [float(line.rsplit(" ", 1)[1]) for line in r.stdout.splitlines()
            if "largest relative error" in line]
    if len(errs) != len(wrt) or max(errs) >= 1e-6:
        raise Fail(f"gradcheck errors {errs}: {r.stdout}")


def grad_explain():
    """`tape auto`'s cost model (autodiff/materialize.c), read from
    --explain-tapes: the scalar u is recomputed, the tensor t, the
    reduction s and the row max mx are saved; the gradient itself checked
    with gradcheck."""
    with tempfile.TemporaryDirectory() as d:
        r = ftc("build", prog("grad_explain.ft"), "--explain-tapes", "--emit=c",
                "-o", os.path.join(d, "g.c"))
    got = {}
    for line in r.stdout.splitlines():
        m = re.match(r"#   (\w+): (save|recompute) \(", line)
        if m:
            got[m.group(1)] = m.group(2)
    want = {"t": "save", "u": "recompute", "s": "save", "mx": "save"}
    if got != want:
        raise Fail(f"decisions {got}, expected {want}: {r.stdout}")
    gradcheck("tests/numeric/progs", "grad_explain.ft", "f", ["x", "w"], {"n": 5, "m": 3})


def grad_tape_dtype(n):
    """tests/golden/grad_tape_dtype.ft: g_auto (f32 tape) and g_all (f64
    tape, the i32 local saved) against central differences of a NumPy f64
    implementation of f."""
    rng = np.random.default_rng(n)
    x = rng.uniform(-1, 1, n).astype(f32)
    idx = rng.integers(0, 1000, n).astype(i32)
    dy = rng.uniform(-1, 1, n).astype(f32)

    def loss(xv):
        k = idx % n
        j, l = np.arange(n)[:, None], np.arange(n)[None, :]
        y = np.array([(xv[l] * xv[(j + l + k[i]) % n]).sum(1).sum() * xv[k[i]]
                      for i in range(n)])
        return float((dy.astype(f64) * y).sum())
    h = 1e-6
    ref = np.array([(loss(x.astype(f64) + h * e) - loss(x.astype(f64) - h * e)) / (2 * h)
                    for e in np.eye(n)])
    path = os.path.join(ROOT, "tests", "golden", "grad_tape_dtype.ft")
    for g in ("g_auto", "g_all"):
        o = ftc_run(path, g, {"n": n}, {"x": x, "idx": idx, "d_y": dy})
        close(o, "d_x", ref, f32)


def grad_zero_skip(seed):
    """tests/golden/grad_zero_skip.ft (autodiff/zero_skip.c: adjoint tails
    skipped where a saturated sigmoid makes their adjoint exactly 0, most
    point-segment pairs here): cover_grad's d_p and d_seg against central
    differences of a NumPy f64 implementation of cover."""
    rng = np.random.default_rng(seed)
    n, m = 40, 6
    a = rng.uniform(-0.8, 0.8, (m, 2))
    seg = np.concatenate([a, a + rng.uniform(-0.4, 0.4, (m, 2))], 1).astype(f32)
    # half the points anywhere (saturated pairs), half near a segment's end
    near = seg[rng.integers(0, m, n // 2), :2] + rng.uniform(-0.1, 0.1, (n // 2, 2))
    p = np.concatenate([rng.uniform(-1, 1, (n - n // 2, 2)), near]).astype(f32)
    dimg = rng.uniform(-1, 1, n).astype(f32)

    def loss(pv, sv):
        keep = np.ones(n)
        for k in range(m):
            ax, ay, bx, by = sv[k]
            ex, ey = bx - ax, by - ay
            t = ((pv[:, 0] - ax) * ex + (pv[:, 1] - ay) * ey) / (ex * ex + ey * ey)
            tc = np.minimum(np.maximum(t, 0), 1)
            d2 = (pv[:, 0] - ax - tc * ex) ** 2 + (pv[:, 1] - ay - tc * ey) ** 2
            side = ex * (pv[:, 1] - ay) - ey * (pv[:, 0] - ax)
            d = 0.5 * (1 + np.tanh(np.where(side >= 0, d2, -d2) / 0.002))
            keep = keep * (1 - d)
        return float((dimg.astype(f64) * (1 - keep)).sum())

    def fd(x, f):
        h, g = 1e-6, np.zeros(x.shape)
        for i in np.ndindex(x.shape):
            e = np.zeros(x.shape)
            e[i] = h
            g[i] = (f(x + e) - f(x - e)) / (2 * h)
        return g
    p64, s64 = p.astype(f64), seg.astype(f64)
    ref_p = fd(p64, lambda x: loss(x, s64))
    ref_s = fd(s64, lambda x: loss(p64, x))
    o = ftc_run(os.path.join(ROOT, "tests", "golden", "grad_zero_skip.ft"), "cover_grad",
                {"n": n, "m": m}, {"p": p, "seg": seg, "d_img": dimg})
    close(o, "d_p", ref_p, f32, rtol=1e-3)
    close(o, "d_seg", ref_s, f32, rtol=1e-3)


def grad_cuda_tape_bytes():
    """The CUDA backend emits each gradient's g_tape_bytes (host code, the C
    backend's formula: elements times 4 for an f32 tape, 8 for f64)."""
    path = os.path.join(ROOT, "tests", "golden", "grad_tape_dtype.ft")
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "g.cu")
        ftc("build", path, "--target", "cuda", "--emit=c", "-o", cu)
        text = open(cu).read()
    for name, value in (("g_auto", "(n * n) * 4"), ("g_all", "(n + (n * n)) * 8")):
        want = (f"size_t {name}_tape_bytes(int64_t n)\n{{\n    if (n < 0) return 0;\n"
                f"    return (size_t)({value});\n}}")
        if want not in text:
            raise Fail(f"no {name}_tape_bytes returning {value} in the CUDA code")


case("grad/elementwise[7]", grad_elementwise, 7)
case("grad/cuda_tape_bytes", grad_cuda_tape_bytes)
case("grad/tape_scoped", gradcheck, "tests/golden", "grad_tape_scoped.ft", "f", ["q", "k", "v"],
     {"n": 3, "m": 4, "l": 5})
case("grad/zero_skip[1]", grad_zero_skip, 1)
case("grad/zero_skip[2]", grad_zero_skip, 2)


def grad_void_tape():
    """The tape is untyped in the ABI (language.md): g_fwd takes `void *`,
    g_bwd `const void *`.  A C file that stores the functions in pointers of
    exactly those types must compile without warnings against the header, and
    g_all (f64 tape) must run from a buffer of g_all_tape_bytes bytes."""
    path = os.path.join(ROOT, "tests", "golden", "grad_tape_dtype.ft")
    src = r"""
#include <stdlib.h>
#include "libg.h"
typedef int (*fwd_t)(int64_t, const float *, const int32_t *, float *, void *);
typedef int (*bwd_t)(int64_t, const float *, const int32_t *, const float *,
                     const float *, float *, const void *);
int main(void)
{
    fwd_t fwd = g_all_fwd;
    bwd_t bwd = g_all_bwd;
    enum { N = 5 };
    float x[N] = {1, 2, 3, 4, 5}, y[N], dy[N] = {1, 1, 1, 1, 1}, dx[N];
    int32_t idx[N] = {0, 3, 1, 4, 2};
    void *tape = malloc(g_all_tape_bytes(N) + 1);
    int rc = fwd(N, x, idx, y, tape) || bwd(N, x, idx, y, dy, dx, tape);
    free(tape);
    return rc;
}
"""
    with tempfile.TemporaryDirectory() as d:
        lib = os.path.join(d, "libg.so")
        ftc("build", path, "-o", lib)
        c = os.path.join(d, "main.c")
        with open(c, "w") as f:
            f.write(src)
        exe = os.path.join(d, "main")
        H.sh(["cc", "-std=c99", "-Wall", "-Werror", "-I", d, c, lib, "-o", exe,
              f"-Wl,-rpath,{d}"], verbose=VERBOSE)     # the header's tape types
        H.sh([exe])                                     # g_all_fwd/g_all_bwd return 0


case("grad/void_tape", grad_void_tape)
case("grad/tape_dtype[6]", grad_tape_dtype, 6)
case("grad/explain", grad_explain)
# issue 17: a race on the coefficient's adjoint (wrong d_a with 2 or 4
# threads).  Threads overlap rarely on a loaded machine, so the loops are
# long (a thread's part outlasts a time slice); small sizes check the
# other inputs' gradients.
case("grad/time_loop[10x200000]", gradcheck, "tests/numeric/progs", "grad_time_loop.ft",
     "time_loop", ["a"], {"steps": 10, "n": 200000})
case("grad/time_loop[3x50]", gradcheck, "tests/numeric/progs", "grad_time_loop.ft", "time_loop",
     ["a", "x"], {"steps": 3, "n": 50})
case("grad/heat[8x400]", gradcheck, "tests/numeric/progs", "grad_time_loop.ft", "heat",
     ["c"], {"steps": 8, "k": 400})
case("grad/heat[3x9]", gradcheck, "tests/numeric/progs", "grad_time_loop.ft", "heat",
     ["c", "u0"], {"steps": 3, "k": 9})


def thread_diff_detects():
    """The harness's comparison of thread counts rejects outputs that differ
    (a lost update in one element) and accepts f32 rounding differences."""
    a = np.linspace(-1, 1, 1000).astype(f32)
    H.same_across_threads({1: {"y": a}, 2: {"y": a * (1 + 1e-6)}, 4: {"y": a}})
    lost = a.copy()
    lost[500] = 0.25
    try:
        H.same_across_threads({1: {"y": a}, 2: {"y": a}, 4: {"y": lost}})
    except Fail as e:
        if "4 threads" not in str(e):
            raise Fail(f"the message does not name the thread count: {e}")
        return
    raise Fail("outputs differing between 1 and 4 threads were accepted")


case("harness/thread_diff_detects", thread_diff_detects)
case("grad/tool[builtins]", gradcheck_tool, "tests/numeric/progs", "grad_builtins.ft", "builtins",
     ["x", "w"], {"n": 9})
case("grad/builtins", gradcheck, "tests/numeric/progs", "grad_builtins.ft", "builtins", ["x", "w"], {"n": 9})
case("grad/prod", gradcheck, "tests/numeric/progs", "grad_prod.ft", "rows", ["x", "w"], {"n": 3, "m": 4})
case("grad/stdlib_prod", gradcheck, "tests/numeric/progs", "grad_prod.ft", "stdprod", ["x"], {"n": 3, "m": 4})
case("grad/control", gradcheck, "tests/numeric/progs", "grad_control.ft", "control", ["x", "w"], {"n": 12, "m": 5})
# --time-passes (ast/timer.c): one line per pass that ran, the C compiler's
# CPU and wall time for a library, and ftc's own CPU time at least as large
# as the sum of the passes' (each pass's time is part of it).

def time_passes():
    d = tempfile.mkdtemp(prefix="ftc-time-")
    try:
        r = ftc("build", ex("subdivnet.ft"), "-o", os.path.join(d, "libs.so"), "--time-passes")
        t = {}
        for line in r.stderr.splitlines():
            m = re.match(r"ftc: time: (.*?)\s+([0-9.]+) s", line)
            if m:
                t[m.group(1)] = float(m.group(2))
        for name in ["parse", "lower", "simplify", "remove_dead", "auto: fuse",
                     "auto: parallelize", "auto", "emit C", "cc (its CPU)", "cc (wall)",
                     "ftc in all (CPU, without cc)"]:
            if name not in t:
                raise Fail(f"no '{name}' line in: {last_lines(r.stderr, 40)}")
        passes = sum(v for k, v in t.items() if not k.startswith("auto: ") and not k.startswith("cc")
                     and not k.startswith("ftc in all"))
        if passes > t["ftc in all (CPU, without cc)"] + 1e-3:
            raise Fail(f"the passes' {passes:.4f} s exceed ftc's {t['ftc in all (CPU, without cc)']:.4f} s")
        if t["cc (its CPU)"] <= 0:
            raise Fail("the C compiler's CPU time is not positive")
        if "ftc: time:" in ftc("check", ex("subdivnet.ft")).stderr:
            raise Fail("without --time-passes ftc printed times")
    finally:
        shutil.rmtree(d, ignore_errors=True)


case("cli/time_passes", time_passes)
case("grad/stdlib_mlp", gradcheck, "tests/numeric/progs", "grad_stdlib.ft", "mlp", ["a", "b"],
     {"n": 3, "k": 4, "m": 5})
case("grad/stdlib_reduce", gradcheck, "tests/numeric/progs", "grad_stdlib.ft", "reduce", ["x"], {"n": 3, "m": 4})
for n in (1, 2, 5, 11):      # loop_order.c: a step-3 loop turned upwards, a recurrence not
    case(f"grad/loop_order[{n}]", gradcheck, "tests/golden", "grad_loop_order.ft", "f", ["x"],
         {"n": n})
for n in (1, 7):             # grad.c's lives_in_region: h computed in its region
    case(f"grad/tape_in_region[{n}]", gradcheck, "tests/golden", "grad_tape_in_region.ft", "f",
         ["x"], {"n": n, "m": 3})
case("grad/recurrence", gradcheck, "tests/golden", "grad_recurrence.ft", "f",
     ["x"], {"n": 6})
case("grad/subdivnet_full", gradcheck, "examples", "subdivnet_full.ft", "subdivnet_full", ["e", "w0", "w1", "w2", "w3"],
     {"n_faces": 10, "in_feats": 4, "out_feats": 3})
case("grad/longformer[W=2]", gradcheck, "examples", "longformer.ft", "longformer", ["q", "k", "v"],
     {"seq_len": 12, "feat_len": 3}, ["W=2"])


# tests/numeric/progs/retarget.ft (results computed in their destination)

def retarget(n, k, m):
    rng = np.random.default_rng(500 + n * k * m)
    a = rng.uniform(-1, 1, (n, k)).astype(f32)
    b = rng.uniform(-1, 1, (k, m)).astype(f32)
    ref = a.astype(f64) @ b.astype(f64)
    sizes = {"n": n, "k": k, "m": m}
    outs = ftc_run(prog("retarget.ft"), "mm", sizes, {"a": a, "b": b})
    close(outs, "c", ref, f32)
    outs = ftc_run(prog("retarget.ft"), "mm_slice", sizes, {"a": a, "b": b})
    close(outs, "y", np.concatenate([np.zeros((1, m)), ref, np.zeros((1, m))]), f32)
    outs = ftc_run(prog("retarget.ft"), "mm_trans", sizes, {"a": a, "b": b})
    close(outs, "yt", ref.T, f32)
    close(outs, "zt", ref.T, f32)
    c = rng.uniform(-1, 1, (n, n)).astype(f32)
    sq = rng.uniform(-1, 1, (n, n)).astype(f32)
    outs = ftc_run(prog("retarget.ft"), "mm_inplace", {"n": n}, {"c": c, "b": sq})
    close(outs, "c", c.astype(f64) @ sq.astype(f64), f32)
    x = rng.standard_normal((n, m)).astype(f32)
    outs = ftc_run(prog("retarget.ft"), "rows", {"n": n, "m": m}, {"x": x})
    ex_ = np.exp(x.astype(f64))
    close(outs, "y", ex_ / ex_.sum(axis=1, keepdims=True), f32)


for shape in [(1, 1, 1), (3, 4, 5), (17, 9, 2)]:
    case("retarget[%dx%dx%d]" % shape, retarget, *shape)


# --- main ------------------------------------------------------------------

# tests/numeric/progs/intrinsics.ft (einsum, reshape, flatten, concat)

def intrinsics(n, k, m):
    rng = np.random.default_rng(n * 100 + k)
    a = rng.standard_normal((n, k)).astype(f32)
    b = rng.standard_normal((k, m)).astype(f32)
    outs = ftc_run(prog("intrinsics.ft"), "es", {}, {"a": a, "b": b})
    close(outs, "c", np.einsum("ij,jk->ik", a.astype(f64), b.astype(f64)), f32)
    close(outs, "tr", np.einsum("ij,ij", a.astype(f64), a.astype(f64)), f32)
    x = rng.standard_normal((n, 6)).astype(f32)
    outs = ftc_run(prog("intrinsics.ft"), "rs", {}, {"x": x})
    exact(outs, "y", x.reshape(n, 3, 2), f32)
    exact(outs, "z", x.reshape(-1), f32)
    c = rng.standard_normal((n, 3)).astype(f32)
    outs = ftc_run(prog("intrinsics.ft"), "cc", {}, {"a": x[:, :2].copy(), "b": c})
    exact(outs, "y", np.concatenate([x[:, :2], c], axis=1), f32)
    exact(outs, "z", np.concatenate([x[:, :2], c], axis=1), f32)
    exact(outs, "w", np.concatenate([x[:, :2], x[:, :2]]), f32)


for shape in [(1, 1, 1), (3, 4, 5), (17, 9, 2)]:
    case("intrinsics[%dx%dx%d]" % shape, intrinsics, *shape)


# tests/numeric/progs/as_lib.ft (as_lib: matrix products through BLAS)

def as_lib_prog(m, n, k):
    rng = np.random.default_rng(m * 101 + n * 7 + k)
    P = prog("as_lib.ft")
    sz = {"m": m, "n": n, "k": k}

    def r(*shape, dtype=f32):
        return rng.standard_normal(shape).astype(dtype)

    a, b = r(m, k), r(k, n)
    close(ftc_run(P, "acc", sz, {"a": a, "b": b}), "c", a.astype(f64) @ b, f32)
    a, b = r(m, k, dtype=f64), r(k, n, dtype=f64)
    close(ftc_run(P, "init_ji", sz, {"a": a, "b": b}), "c", a @ b, f64, 1e-12)
    s, a, b = r(1), r(k, m), r(n, k)
    ref = 1 + float(s[0]) * (a.astype(f64).T @ b.astype(f64).T)
    close(ftc_run(P, "trans_pji", sz, {"s": s, "a": a, "b": b}), "c", ref, f32)
    a, b = r(m, k, dtype=f64), r(k, n, dtype=f64)
    close(ftc_run(P, "ctrans", sz, {"a": a, "b": b}), "c", (a @ b).T, f64, 1e-12)
    a, b = r(m + 2, k + 3), r(k + 1, n + 4)
    ref = -np.ones((m + 1, n + 5))
    ref[1:, 2:n + 2] = a[2:, 1:k + 1].astype(f64) @ b[1:, 3:n + 3]
    close(ftc_run(P, "views", sz, {"a": a, "b": b}), "c", ref, f32)
    a, b = r(2, m, k), r(2, k, n)
    close(ftc_run(P, "batched", dict(sz, bt=2), {"a": a, "b": b}), "c",
          a.astype(f64) @ b, f32)
    a, b = r(m, k, dtype=f64), r(3, k, n, dtype=f64)
    close(ftc_run(P, "batched64", sz, {"a": a, "b": b}), "c", a @ b, f64, 1e-12)


for m, n, k in ((1, 1, 1), (3, 5, 0), (0, 4, 2), (7, 5, 3), (33, 17, 65)):
    case(f"as_lib[{m}x{n}x{k}]", as_lib_prog, m, n, k)


def as_lib_auto(m, n, k, threads):
    """auto_use_lib: the -v log names the products handed to BLAS (and the
    one kept as loops); the results match NumPy."""
    P = prog("as_lib_auto.ft")
    with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
        r = ftc("build", P, "-v", "-o", os.path.join(d, "libx.so"))
    log = [l for l in r.stderr.splitlines() if l.startswith("ftc: auto_use_lib:")]
    want = ("mm: L_matmul_i", "handed to BLAS"), ("small: L_matmul_i", "kept as loops"), \
        ("batched: L_matmul_batch", "handed to BLAS")
    for where, what in want:
        if not emits_cuda() and not any(where in l and what in l for l in log):
            raise Fail(f"no auto_use_lib line '{where} ... {what}' in the -v log: {log}")
    rng = np.random.default_rng(m + n + k)
    a, b = rng.standard_normal((m, k)).astype(f32), rng.standard_normal((k, n)).astype(f32)
    outs = ftc_run(P, "mm", {"m": m, "n": n, "k": k}, {"a": a, "b": b}, threads)
    close(outs, "c", a.astype(f64) @ b, f32)
    a, b = rng.standard_normal((8, 8)), rng.standard_normal((8, 8))
    close(ftc_run(P, "small", {}, {"a": a, "b": b}, threads), "c", a @ b, f64, 1e-12)
    a, b = rng.standard_normal((64, 128)), rng.standard_normal((4, 128, 64))
    outs = ftc_run(P, "batched", {}, {"a": a, "b": b}, threads)
    close(outs, "c", a @ b, f64, 1e-12)
    close(outs, "d", a[:, 0] * 2, f64, 1e-12)


for m, n, k in ((2, 3, 4), (70, 65, 66)):
    case(f"as_lib_auto[{m}x{n}x{k}]", as_lib_auto, m, n, k, None)


def main():
    global FTC, ROOT, VERBOSE
    FTC, ROOT, _, VERBOSE = args = H.parse_args(__doc__)
    return H.run_cases(CASES, args.pattern)


FTC = ROOT = None
VERBOSE = False

if __name__ == "__main__":
    sys.exit(main())
