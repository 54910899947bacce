"""Plumbing shared by the numeric test scripts (run.py, stdlib_run.py,
examples_run.py, grad_run.py, bench_check.py): their command line, running
ftc and other programs, comparing arrays, and the loop over the cases.

Every script takes `PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]`, prints
`ok NAME` or `FAIL NAME: why` per case, then `N passed, M failed`, and
exits 1 if any case failed.

Thread-differential runs: `ftc_run` without a thread count builds the
program once (`built`, cached by source text and build flags for the
script's life) and runs the library with OMP_NUM_THREADS = 1, 2 and 4
(THREADS; 4 oversubscribes a 2-core machine, which exposes races); the
outputs of 2 and 4 threads must agree with those of 1 (`THREAD_RTOL`), and
`close` / `exact` check every thread count's outputs against the reference.
`gradcheck` does the same for a gradient: one f64 build, central
differences and the gradient at 1, 2 and 4 threads (fdcheck.py).
"""
import atexit
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections import namedtuple

import numpy as np

TIMEOUT = 300
THREADS = (1, 2, 4)
# How far 2 and 4 threads may differ from 1 (relative to the largest
# magnitude of the output): reductions split among threads round
# differently; integers and bools must be equal.
THREAD_RTOL = {2: 1e-2, 4: 1e-4, 8: 1e-9}          # by the float's bytes
GRAD_THREAD_RTOL = 1e-9

Args = namedtuple("Args", "ftc root pattern verbose")


class Fail(Exception):
    """A case's check failed; the message says why."""


def parse_args(doc, argv=None):
    """The scripts' command line: (ftc, source root, -k pattern or "", -v).
    Exits with the usage line of DOC when it is malformed or ftc is not an
    executable."""
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    pattern = ""
    if "-k" in argv:
        i = argv.index("-k")
        if i + 1 >= len(argv):
            sys.exit(doc.strip().splitlines()[2].strip())
        pattern = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 2:
        sys.exit(doc.strip().splitlines()[2].strip())
    ftc, root = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    if not os.access(ftc, os.X_OK):
        sys.exit(f"{os.path.basename(sys.argv[0])}: no ftc binary at {ftc}")
    return Args(ftc, root, pattern, verbose)


def last_lines(text, n=6):
    """The last N non-blank lines of a program's output, on one line."""
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:]) if lines else "(no output)"


def sh(args, env=None, verbose=False, timeout=TIMEOUT):
    """Run ARGS (stdin closed) and return the completed process; a time-out
    or a non-zero exit is a Fail naming the program and its last lines
    (with the whole command when VERBOSE)."""
    what = " ".join(os.path.basename(a) for a in args[:2])
    try:
        r = subprocess.run(args, capture_output=True, text=True, errors="replace",
                           timeout=timeout, stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        raise Fail(f"`{what}` timed out after {timeout} s")
    if r.returncode != 0:
        raise Fail(f"`{what}` exited {r.returncode}: {last_lines(r.stderr + r.stdout)}"
                   + (f"\n    command: {' '.join(args)}" if verbose else ""))
    return r


def ftc_run_args(ftc, target, func, sizes, inputs, workdir, extra=()):
    """The `ftc run` command line for FUNC of TARGET (a .ft or a built .so)
    with SIZES and the INPUTS arrays, written as .npy files into WORKDIR;
    the outputs go to WORKDIR/out, which is created."""
    args = [ftc, "run", target, func] + [f"{k}={int(v)}" for k, v in sizes.items()]
    for k, v in inputs.items():
        p = os.path.join(workdir, k + ".npy")
        np.save(p, np.array(v, order="C"))      # (ascontiguousarray makes 0-D 1-D)
        args.append(f"{k}={p}")
    out = os.path.join(workdir, "out")
    os.mkdir(out)
    return args + ["--no-print", "--out-dir", out, *extra]


def read_outputs(workdir):
    """The arrays `ftc run` wrote into WORKDIR/out, by name."""
    out = os.path.join(workdir, "out")
    return {f[:-4]: np.load(os.path.join(out, f)) for f in os.listdir(out) if f.endswith(".npy")}


# `ftc run` flags that are not build flags, with the number of values each takes.
RUN_FLAGS = {"--random": 0, "--seed": 1, "--bench": 1, "--print": 0, "--no-print": 0}


def split_extra(extra):
    """EXTRA `ftc run` arguments split into (build flags, run flags)."""
    build, run, i = [], [], 0
    extra = list(extra)
    while i < len(extra):
        n = RUN_FLAGS.get(extra[i])
        if n is None:
            build.append(extra[i])
            i += 1
        else:
            run += extra[i:i + 1 + n]
            i += 1 + n
    return build, run


_BUILT = {}


def _lib_dir():
    """This script's folder of built libraries, removed at exit."""
    if "dir" not in _BUILT:
        _BUILT["dir"] = tempfile.mkdtemp(prefix="ftc-numeric-libs-")
        atexit.register(shutil.rmtree, _BUILT["dir"], True)
    return _BUILT["dir"]


def built(ftc, src, build_args=(), verbose=False, text=None):
    """The library `ftc build SRC BUILD_ARGS` makes (built once per source
    text and flags in this script's life); with TEXT, that text is built as
    if it were SRC's (written beside the other libraries)."""
    if text is None:
        with open(src, "rb") as f:
            data = f.read()
    else:
        data = text.encode()
    key = (os.path.abspath(src), hashlib.sha1(data).hexdigest(), tuple(build_args))
    if key not in _BUILT:
        d = _lib_dir()
        lib = os.path.join(d, f"lib{len(_BUILT)}.so")
        if text is not None:
            src = os.path.join(d, f"src{len(_BUILT)}_" + os.path.basename(src))
            with open(src, "w") as f:
                f.write(text)
        sh([ftc, "build", src, "-o", lib, *build_args], verbose=verbose, timeout=3 * TIMEOUT)
        _BUILT[key] = lib
    return _BUILT[key]


class ThreadOuts(dict):
    """The outputs of runs with several thread counts: the first count's as
    the dict itself, every count's in `by_threads` ({threads: outputs})."""

    def __init__(self, by_threads):
        super().__init__(by_threads[min(by_threads)])
        self.by_threads = by_threads


def rel_diff(a, b, floor=1e-300):
    """max |a - b| / max(max |b|, FLOOR) over the finite elements (0 for
    equal arrays; inf where the shapes or the non-finite values differ);
    ints and bools: 0 or inf."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    if a.dtype.kind not in "fc":
        return 0.0 if np.array_equal(a, b) else float("inf")
    fa, fb = np.isfinite(a), np.isfinite(b)
    if not np.array_equal(fa, fb) or not np.array_equal(a[~fb], b[~fb], equal_nan=True):
        return float("inf")
    if not fb.any():
        return 0.0
    d = np.max(np.abs(a[fb].astype(np.float64) - b[fb]))
    return float(d / max(np.max(np.abs(b[fb].astype(np.float64))), floor))


def same_across_threads(by_threads):
    """Fail unless every thread count's outputs are those of the first
    count, up to THREAD_RTOL for floats (by dtype size), exactly others."""
    first = min(by_threads)
    ref = by_threads[first]
    for t, outs in sorted(by_threads.items()):
        if sorted(outs) != sorted(ref):
            raise Fail(f"{t} threads wrote {sorted(outs)}, {first} thread(s) {sorted(ref)}")
        for name, v in outs.items():
            tol = THREAD_RTOL.get(v.dtype.itemsize, 0) if v.dtype.kind == "f" else 0
            d = rel_diff(v, ref[name])
            if not d <= tol:
                raise Fail(f"{name}: {t} threads differ from {first} by {d:.3g} "
                           f"(relative, limit {tol:g}): a race?")


def ftc_run(ftc, target, func, sizes, inputs, threads=None, extra=(), verbose=False):
    """Run FUNC of TARGET (a .ft or a built library) with SIZES and INPUTS
    (EXTRA more ftc arguments) and return its out/inout arrays.  With
    THREADS, one run with OMP_NUM_THREADS=THREADS; without, a ThreadOuts of
    runs with 1, 2 and 4 threads of one build, which must agree
    (same_across_threads)."""
    counts = [threads] if threads is not None else THREADS
    build, run = split_extra(extra)
    if target.endswith(".ft") and threads is None:
        target, extra = built(ftc, target, build, verbose), run
    by_threads = {}
    for t in counts:
        env = dict(os.environ, OMP_NUM_THREADS=str(t))
        with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
            sh(ftc_run_args(ftc, target, func, sizes, inputs, d, extra), env, verbose)
            by_threads[t] = read_outputs(d)
    if threads is not None:
        return by_threads[threads]
    same_across_threads(by_threads)
    return ThreadOuts(by_threads)


def gradcheck(ftc, path, func, wrt, sizes, arrays=None, seed=0, defines=(), limit=1e-6,
              verbose=False):
    """`ftc gradcheck`'s check of FUNC in PATH wrt WRT (fdcheck.py), on one
    f64 build (`--promote-f64`, the line `grad FUNC wrt ... ->
    FUNC_gradcheck` appended, -D DEFINES) with 1, 2 and 4 threads: SIZES
    (4 where not given), ARRAYS for the tensors given (others random with
    SEED), output weights from SEED.  Fails unless every count's forward
    outputs and gradients agree with those of 1 thread (outputs as
    same_across_threads, gradients up to GRAD_THREAD_RTOL) and every
    count's largest relative error against the central differences is
    below LIMIT (2 and 4 threads run 3 times each, the worst run kept).
    Returns the largest error, as text."""
    import fdcheck
    import ftlib
    with open(path) as f:
        text = f.read() + f"\ngrad {func} wrt {', '.join(wrt)} -> {func}_gradcheck\n"
    args = ["--promote-f64"] + [a for d in defines for a in ("-D", d)]
    lib = ftlib.Library(built(ftc, path, args, verbose, text))
    f, g = lib.func(func), lib.func(func + "_gradcheck")
    sizes = {p.name: int(sizes.get(p.name, 4)) for p in f.params if not p.is_tensor}
    rng = np.random.default_rng(seed)
    chk = fdcheck.Check(f, g, sizes, fdcheck.random_inputs(f, sizes, rng, arrays), wrt, rng)
    res = fdcheck.check_gradient(chk, THREADS, 400, repeat=3)
    bad = {t: c for t, c in res.codes.items() if c != (0, 0)}
    if bad:
        raise Fail(f"nonzero codes (forward, gradient) by thread count: {bad}")
    for t in THREADS[1:]:
        for name, d in res.grad_diff[t].items():
            if not d <= GRAD_THREAD_RTOL:
                raise Fail(f"d_{name}: {t} threads differ from 1 by {d:.3g} (relative): a race?")
        for name, d in res.fwd_diff[t].items():
            if not d <= GRAD_THREAD_RTOL:
                raise Fail(f"{name}: {t} threads differ from 1 by {d:.3g} (relative): a race?")
    worst = 0.0
    for t in THREADS:
        for w, (e, j, an, fd) in res.errors[t].items():
            if not e < limit:
                at = np.unravel_index(j, chk.inputs[w].shape)
                raise Fail(f"d_{w} with {t} thread(s): relative error {e:.3g} >= {limit:g} at "
                           f"{list(map(int, at))}: gradient {an!r}, central differences {fd!r}")
            worst = max(worst, e)
    return f"largest relative error {worst:.3g} (1, 2, 4 threads)"


def get(outs, name):
    """Output NAME of a run; a Fail listing what there is when missing."""
    if name not in outs:
        raise Fail(f"no output {name}.npy (got: {', '.join(sorted(outs)) or 'none'})")
    return outs[name]


def same_kind(name, got, ref, dtype):
    """GOT must have REF's shape and the dtype DTYPE."""
    if got.shape != ref.shape or got.dtype != np.dtype(dtype):
        raise Fail(f"{name}: got {got.dtype}{list(got.shape)}, "
                   f"want {np.dtype(dtype)}{list(ref.shape)}")


def each_threads(check):
    """CHECK(outs, name, ...) applied to every thread count's outputs of a
    ThreadOuts (a failure names the count), else to OUTS as they are."""
    def checked(outs, name, *args):
        if not isinstance(outs, ThreadOuts):
            return check(outs, name, *args)
        for t, o in sorted(outs.by_threads.items()):
            try:
                check(o, name, *args)
            except Fail as e:
                raise Fail(f"with {t} thread(s): {e}")
        return None
    checked.__doc__ = check.__doc__
    checked.__name__ = check.__name__
    return checked


@each_threads
def close(outs, name, ref, dtype, rtol):
    """Output NAME must have REF's shape, the given dtype, the same
    non-finite values, and max|got - ref| <= rtol * max|ref| over the finite
    ones (a relative error over the array)."""
    got, ref = get(outs, name), np.asarray(ref)
    same_kind(name, got, ref, dtype)
    if got.size == 0:
        return
    g, r = got.astype(np.float64), ref.astype(np.float64)
    if not np.array_equal(np.isfinite(g), np.isfinite(r)) or \
            not np.array_equal(g[~np.isfinite(r)], r[~np.isfinite(r)], equal_nan=True):
        raise Fail(f"{name}: non-finite values differ")
    fin = np.isfinite(r)
    if not fin.any():
        return
    err = np.max(np.abs(g[fin] - r[fin])) / max(np.max(np.abs(r[fin])), 1e-30)
    if not err <= rtol:
        at = np.unravel_index(np.argmax(np.where(fin, np.abs(g - r), -1)), r.shape)
        raise Fail(f"{name}: relative error {err:.2e} > {rtol:.0e}; "
                   f"at {list(map(int, at))} got {g[at]!r}, want {r[at]!r}")


@each_threads
def exact(outs, name, ref, dtype):
    """Output NAME must equal REF element for element (NaN where REF has
    NaN), shape and dtype too."""
    got, ref = get(outs, name), np.asarray(ref)
    same_kind(name, got, ref, dtype)
    if not np.array_equal(got, ref, equal_nan=ref.dtype.kind == "f"):
        bad = np.argwhere((got != ref) & ~(np.isnan(got) & np.isnan(ref))
                          if ref.dtype.kind == "f" else got != ref)
        at = tuple(bad[0])
        raise Fail(f"{name}: {len(bad)} elements differ; at {list(map(int, at))} "
                   f"got {got[at]!r}, want {ref[at]!r}")


def run_cases(cases, pattern=""):
    """Run every (name, function) of CASES whose name contains PATTERN and
    print its verdict; a function may return a string, printed after `ok
    NAME`.  A Fail or any other exception (a bug in the case, or output it
    could not read) fails the case.  Prints the totals; returns the exit
    status.  $FTC_TEST_SHARD=I/N runs only every Nth of those cases,
    starting at the Ith (0-based): N processes, one for each I, run them all
    (tests/gpu/run)."""
    shard, shards = (int(x) for x in os.environ.get("FTC_TEST_SHARD", "0/1").split("/"))
    passed = failed = 0
    for i, (name, fn) in enumerate(c for c in cases if pattern in c[0]):
        if i % shards != shard:
            continue
        try:
            detail = fn()
        except Fail as e:
            print(f"FAIL {name}: {e}", flush=True)
            failed += 1
        except Exception as e:                  # noqa: BLE001
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            failed += 1
        else:
            print(f"ok {name}" + (f" ({detail})" if isinstance(detail, str) else ""), flush=True)
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
