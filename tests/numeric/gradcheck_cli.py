#!/usr/bin/python3
"""`ftc gradcheck` itself: what it resets, prints and accepts (issue 17).

    /usr/bin/python3 tests/numeric/gradcheck_cli.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

Programs in tests/numeric/grad/cli_*.ft.  The cases:
- out_reset: functions that read an `out` before writing it pass (the
  `out` tensors are reset to zeros before every call, not only the inout
  ones);
- worst: the worst element's index, analytic and numeric values and
  relative error are printed; the analytic value is checked against NumPy
  (the output weights r are rebuilt here from their documented generator:
  splitmix64 seeded with the parameter's name, as `ftc run --random`);
- tol: --tol turns a failure into a pass, its message names the element
  and the tolerance; malformed values are usage errors;
- threads: --threads N really sets the OpenMP team size of the calls
  (measured by an LD_PRELOAD wrapper of libgomp's GOMP_parallel compiled
  here), and a library without OpenMP is refused;
- npy_sizes: sizes inferred from the .npy shapes (no size given);
- shape_mismatch: a .npy whose shape disagrees with the given sizes (or a
  transposed one, with the same number of elements) is a clear error;
- elements: a tensor of up to 400 elements is checked whole, a larger one
  at exactly 400 ("400 of 600"), as lang/reference.md says;
- kink: a ReLU MLP with a pre-activation at (and one next to) relu's kink,
  and a jump (a comparison), pass with a warning per element where the
  differences cross the non-differentiable point, where gradcheck failed
  before; the other elements are still counted;
- noise: a loss large against its exact gradient (rounding noise of the
  central differences near 1e-5) passes by the retry at a larger step.

Prints `ok NAME` or `FAIL NAME: why` per case, then `N passed, M failed`;
exits 1 if any case failed.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import harness as H
from harness import Fail

FTC, ROOT, FILTER, VERBOSE = H.parse_args(__doc__)
GRAD = os.path.join(ROOT, "tests", "numeric", "grad")


def prog(name):
    return os.path.join(GRAD, name)


def gradcheck(path, func, wrt, args=(), arrays=None, env=None, expect=0):
    """Run `ftc gradcheck PATH FUNC wrt WRT ARGS` with ARRAYS written as .npy
    (floats as f64); the exit code must be EXPECT.  Returns (stdout,
    stderr)."""
    with tempfile.TemporaryDirectory(prefix="ftc-gccli-") as d:
        cmd = [FTC, "gradcheck", path, func, "wrt", *wrt, *args]
        for k, v in (arrays or {}).items():
            p = os.path.join(d, k + ".npy")
            np.save(p, v)
            cmd.append(f"{k}={p}")
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                               timeout=H.TIMEOUT, stdin=subprocess.DEVNULL, env=env)
        except subprocess.TimeoutExpired:
            raise Fail(f"ftc gradcheck timed out after {H.TIMEOUT} s")
    if r.returncode != expect:
        raise Fail(f"exit {r.returncode}, expected {expect}: {r.stdout.strip()} | "
                   f"{r.stderr.strip()[-800:]}" + (f"\n    {' '.join(cmd)}" if VERBOSE else ""))
    return r.stdout, r.stderr


def summary(out, wrt):
    """{wrt: (checked, total, kinks, largest error)} from the summary lines."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"gradcheck \w+ wrt (\w+): (\d+) of (\d+) elements"
                     r"(?: \((\d+) at a non-differentiable point, not counted\))?, "
                     r"largest relative error (\S+)$", line)
        if m:
            got[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4) or 0),
                               float(m.group(5)))
    if sorted(got) != sorted(wrt):
        raise Fail(f"summaries for {sorted(got)}, expected {sorted(wrt)}: {out}")
    return got


def worst(out, name):
    """(index tuple, analytic, numeric, error) of the `worst NAME[...]` line."""
    m = re.search(r"^  worst " + name + r"(?:\[([\d, ]+)\])?: analytic (\S+), numeric (\S+), "
                  r"relative error (\S+)$", out, re.M)
    if not m:
        raise Fail(f"no worst-element line for {name}: {out}")
    idx = tuple(int(v) for v in m.group(1).split(",")) if m.group(1) else ()
    return idx, float(m.group(2)), float(m.group(3)), float(m.group(4))


# --- the output weights, rebuilt --------------------------------------------

M64 = (1 << 64) - 1


def splitmix(state):
    """One step of splitmix64: (new state, output)."""
    state = (state + 0x9e3779b97f4a7c15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return state, z ^ (z >> 31)


def weights(seed, name, n):
    """gradcheck's weights of output NAME: `ftc run --random`'s f64 stream
    of NAME (FNV-1a of the name mixed into the seed, one splitmix64 step)
    with the seed xor 0x5eed."""
    h = 0xcbf29ce484222325
    for ch in name.encode():
        h = ((h ^ ch) * 0x100000001b3) & M64
    _, state = splitmix((seed ^ 0x5eed) ^ h)
    out = []
    for _ in range(n):
        state, r = splitmix(state)
        out.append((r >> 11) * 2.0 ** -52 - 1.0)
    return np.array(out)


# --- the cases ----------------------------------------------------------------

def out_reset():
    """acc (y += x * x) and decay (y = y / 2 + sin x) read y before writing
    it: both pass (relative errors of 1 before the fix)."""
    for func in ("acc", "decay"):
        out, _ = gradcheck(prog("cli_outread.ft"), func, ["x"], ["n=7"])
        if not summary(out, ["x"])["x"][3] < 1e-6:
            raise Fail(f"{func}: {out}")


def sharp_inputs():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (3, 4)) * 0.01
    s = np.ones((3, 4))
    s[1, 2], x[1, 2] = 1e-4, 1.3e-4
    return x, s


def worst_element():
    """The sharpest sigmoid (s = 1e-4 at [1, 2]) has the largest error of
    the finite differences; its analytic value is r * sigmoid'(x / s) / s."""
    x, s = sharp_inputs()
    out, _ = gradcheck(prog("cli_sharp.ft"), "sharp", ["x"], ["--seed", "5"], {"x": x, "s": s})
    idx, a, n, e = worst(out, "x")
    if idx != (1, 2):
        raise Fail(f"worst element {idx}, expected (1, 2): {out}")
    z = x / s
    sg = 1 / (1 + np.exp(-z))
    want = (weights(5, "y", 12).reshape(3, 4) * sg * (1 - sg) / s)[1, 2]
    if abs(a - want) > 1e-9 * abs(want):
        raise Fail(f"analytic {a}, NumPy {want}")
    if not (abs(n - a) < 1e-5 * abs(a) and abs(e - abs(n - a) / max(abs(n), abs(a))) < 0.01 * e):
        raise Fail(f"numeric {n} and error {e} do not fit analytic {a}")
    if summary(out, ["x"])["x"][3] != e:
        raise Fail(f"the summary's error is not the worst element's {e}: {out}")


def tol():
    """cli_offset.ft's error is near 1e-2: a failure at the default 1e-6
    naming the element and the tolerance, a pass with --tol 0.1; --tol 0,
    --tol x are usage errors."""
    out, err = gradcheck(prog("cli_offset.ft"), "offset", ["x"], ["n=6"], expect=1)
    e = summary(out, ["x"])["x"][3]
    idx = worst(out, "x")[0]
    want = f"largest relative error {e:.3g} (at x[{idx[0]}]) exceeds the tolerance 1e-06"
    if not 1e-4 < e < 0.1 or want not in err:
        raise Fail(f"expected '{want}' with an error in (1e-4, 0.1): {out} | {err}")
    out, _ = gradcheck(prog("cli_offset.ft"), "offset", ["x"], ["n=6", "--tol", "0.1"])
    if summary(out, ["x"])["x"][3] != e:
        raise Fail(f"--tol changed the error: {out}")
    for bad in ("0", "x", "-1", "1e-6x"):
        _, err = gradcheck(prog("cli_offset.ft"), "offset", ["x"], ["n=6", "--tol", bad],
                           expect=2)
        if f"--tol {bad}: expected a positive number" not in err:
            raise Fail(f"--tol {bad}: {err}")


SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int omp_get_num_threads(void);
static int team;
struct wrap { void (*fn)(void *); void *data; };
static void body(void *p)
{
    struct wrap *w = p;
    int t = omp_get_num_threads();
    int cur = __atomic_load_n(&team, __ATOMIC_RELAXED);
    while (t > cur && !__atomic_compare_exchange_n(&team, &cur, t, 0, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
    w->fn(w->data);
}
void GOMP_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    void (*real)(void (*)(void *), void *, unsigned, unsigned);
    *(void **)&real = dlsym(RTLD_NEXT, "GOMP_parallel");
    struct wrap w = {fn, data};
    real(body, &w, n, flags);
}
__attribute__((destructor)) static void report(void)
{
    const char *p = getenv("GC_TEAM_OUT");
    FILE *f = p && team ? fopen(p, "a") : NULL;
    if (f) { fprintf(f, "%d\n", team); fclose(f); }
}
"""


def asan_runtime(ftc):
    """The ASan runtime that ftc is linked with (a sanitizer build), or
    None: an LD_PRELOAD must name it first, or ASan refuses to start (and
    the C compiler ftc runs inherits it: its leaks are not ftc's)."""
    r = subprocess.run(["ldd", ftc], capture_output=True, text=True)
    m = re.search(r"libasan\.so\S* => (\S+)", r.stdout)
    return m.group(1) if m else None


def threads():
    """--threads 3 and 1: the largest OpenMP team of the calls (measured)
    is 3 and 1; OMP_NUM_THREADS=2 is what the calls use without --threads;
    --threads 0 is a usage error."""
    with tempfile.TemporaryDirectory(prefix="ftc-gcthreads-") as d:
        shim, log = os.path.join(d, "shim.so"), os.path.join(d, "team.txt")
        with open(os.path.join(d, "shim.c"), "w") as f:
            f.write(SHIM)
        H.sh(["cc", "-shared", "-fPIC", "-O1", "-o", shim, os.path.join(d, "shim.c"),
              "-ldl", "-lgomp"])
        for flag, env_threads, want in (("3", "2", 3), ("1", "2", 1), (None, "2", 2)):
            asan = asan_runtime(FTC)
            env = dict(os.environ, LD_PRELOAD=f"{asan} {shim}" if asan else shim,
                       GC_TEAM_OUT=log, OMP_NUM_THREADS=env_threads)
            if asan:
                env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
            if os.path.exists(log):
                os.remove(log)
            args = ["n=2000"] + (["--threads", flag] if flag else [])
            out, _ = gradcheck(prog("cli_parallel.ft"), "par", ["x"], args, env=env)
            teams = [int(v) for v in open(log).read().split()] if os.path.exists(log) else []
            if max(teams, default=0) != want:
                raise Fail(f"--threads {flag}: largest team {teams}, expected {want}")
            if flag and f"gradcheck par: {want} OpenMP threads" not in out:
                raise Fail(f"--threads {flag}: no thread line: {out}")
            if not summary(out, ["x"])["x"][3] < 1e-6:
                raise Fail(out)
    _, err = gradcheck(prog("cli_parallel.ft"), "par", ["x"], ["--threads", "0"], expect=2)
    if "--threads 0: expected a thread count" not in err:
        raise Fail(err)


def npy_sizes():
    """x of shape (7,) gives n = 7, x and s of (2, 5) give n, m (no size
    argument); before, the default sizes 4 made it a shape error."""
    out, _ = gradcheck(prog("cli_outread.ft"), "decay", ["x"],
                       arrays={"x": np.linspace(-0.9, 0.8, 7)})
    if summary(out, ["x"])["x"][:2] != (7, 7):
        raise Fail(out)
    rng = np.random.default_rng(1)
    out, _ = gradcheck(prog("cli_sharp.ft"), "sharp", ["x", "s"],
                       arrays={"x": rng.uniform(-1, 1, (2, 5)), "s": rng.uniform(1, 2, (2, 5))})
    if summary(out, ["x", "s"])["s"][:2] != (10, 10) or worst(out, "s")[0][0] >= 2:
        raise Fail(out)


def shape_mismatch():
    """x of shape (7,) with n=5; a transposed x (5, 2) for [n=2, m=5] (the
    same 10 elements, once accepted silently); an f32 file: clear errors
    naming the parameter, the expected and the given shape, printable text."""
    cases = [
        ("cli_outread.ft", "decay", ["n=5"], {"x": np.zeros(7)},
         "parameter 'x': expected shape [n] = [5], got [7]"),
        ("cli_sharp.ft", "sharp", ["n=2", "m=5"], {"x": np.zeros((5, 2)), "s": np.ones((2, 5))},
         "parameter 'x': expected shape [n, m] = [2, 5], got [5, 2]"),
        ("cli_outread.ft", "decay", [], {"x": np.zeros(7, np.float32)},
         "parameter 'x': expected dtype f64, got f32"),
        ("cli_outread.ft", "decay", ["n=3"], {"y": np.zeros(3)},
         "'y' is an `out` parameter"),
    ]
    for file, func, args, arrays, want in cases:
        _, err = gradcheck(prog(file), func, ["x"], args, arrays, expect=1)
        if want not in err or not all(c.isprintable() or c == "\n" for c in err):
            raise Fail(f"expected '{want}': {err!r}")


def elements():
    """400 elements: all checked; 600: exactly 400 of them."""
    for n, want in ((400, 400), (600, 400), (401, 400)):
        out, _ = gradcheck(prog("cli_parallel.ft"), "par", ["x"], [f"n={n}"])
        if summary(out, ["x"])["x"][:2] != (want, n):
            raise Fail(f"n={n}: {out}")


def mlp_inputs(near):
    """x, w1, w2 of the MLP: hidden unit 0's pre-activation w1[0] @ x is
    exactly 0 (0.5 + 0.25 - 0.75), or 1.5e-6 (inside the step 1e-5) when
    NEAR; units 1 and 2 are away from 0."""
    x = np.array([0.5, 0.25, -0.75])
    w1 = np.array([[1.0, 1.0, 1.0], [0.3, -0.2, 0.1], [-0.4, 0.9, 0.2]])
    if near:
        w1[0, 0] += 3e-6
    return {"x": x, "w1": w1, "w2": np.array([0.7, -0.3, 0.5])}


def kink():
    """The MLP wrt x, w1, w2: every x element and w1's row 0 cross relu's
    kink (a warning each, exit 0), the rest counted and within 1e-6; the
    jump at x = 0.25 likewise."""
    for near in (False, True):
        out, err = gradcheck(prog("cli_relu_mlp.ft"), "mlp", ["x", "w1", "w2"], ["n=3", "h=3"],
                             arrays=mlp_inputs(near))
        got = summary(out, ["x", "w1", "w2"])
        if [got[k][2] for k in ("x", "w1", "w2")] != [3, 3, 0] or \
                max(v[3] for v in got.values()) >= 1e-6:
            raise Fail(f"near={near}: {out}")
        warned = re.findall(r"warning: mlp wrt (\w+\[[\d, ]+\]): the finite differences", err)
        if sorted(warned) != sorted(["x[0]", "x[1]", "x[2]", "w1[0, 0]", "w1[0, 1]",
                                     "w1[0, 2]"]):
            raise Fail(f"near={near}: warnings for {warned}: {err}")
        if worst(out, "w1")[0][0] == 0:
            raise Fail(f"a kink element counted as the worst: {out}")
    x = np.array([-0.5, 0.25, 0.75, 0.1])
    out, err = gradcheck(prog("cli_relu_mlp.ft"), "jump", ["x"], ["n=4"], arrays={"x": x})
    got = summary(out, ["x"])["x"]
    if got[2] != 1 or got[3] >= 1e-6 or "warning: jump wrt x[1]:" not in err:
        raise Fail(f"{out} | {err}")


def noise():
    """cli_big_loss.ft: a gradient that is exact (0.001 * w . r_z, NumPy)
    passes, though the central differences at the usual step are off by
    about 1e-5 (rounding noise of a large loss): gradcheck retries at a
    larger step."""
    rng = np.random.default_rng(11)
    x, w = rng.uniform(-1, 1, 1500), rng.uniform(-1, 1, 4)
    out, _ = gradcheck(prog("cli_big_loss.ft"), "big_loss", ["x"], ["--seed", "3"],
                       {"x": x, "w": w})
    _, a, n, e = worst(out, "x")
    want = 0.001 * np.dot(w, weights(3, "z", 4))
    if abs(a - want) > 1e-9 * abs(want):
        raise Fail(f"analytic {a}, NumPy {want}")
    if not e < 1e-6:
        raise Fail(out)


CASES = [
    ("out_reset", out_reset),
    ("worst", worst_element),
    ("tol", tol),
    ("threads", threads),
    ("npy_sizes", npy_sizes),
    ("shape_mismatch", shape_mismatch),
    ("elements", elements),
    ("kink", kink),
    ("noise", noise),
]

if __name__ == "__main__":
    sys.exit(H.run_cases(CASES, FILTER))
