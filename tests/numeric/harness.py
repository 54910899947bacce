"""Plumbing shared by the numeric test scripts (run.py, stdlib_run.py,
examples_run.py, grad_run.py, bench_check.py): their command line, running
ftc and other programs, comparing arrays, and the loop over the cases.

Every script takes `PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]`, prints
`ok NAME` or `FAIL NAME: why` per case, then `N passed, M failed`, and
exits 1 if any case failed.
"""
import os
import subprocess
import sys
import tempfile
from collections import namedtuple

import numpy as np

TIMEOUT = 300

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


def ftc_run(ftc, target, func, sizes, inputs, threads=None, extra=(), verbose=False):
    """Run FUNC of TARGET with SIZES and INPUTS (OMP_NUM_THREADS=THREADS
    when given; EXTRA more ftc arguments) and return its out/inout arrays."""
    env = dict(os.environ)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    with tempfile.TemporaryDirectory(prefix="ftc-numeric-") as d:
        sh(ftc_run_args(ftc, target, func, sizes, inputs, d, extra), env, verbose)
        return read_outputs(d)


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
            not np.array_equal(g[~np.isfinite(r)], r[~np.isfinite(r)]):
        raise Fail(f"{name}: non-finite values differ")
    fin = np.isfinite(r)
    if not fin.any():
        return
    err = np.max(np.abs(g[fin] - r[fin])) / max(np.max(np.abs(r[fin])), 1e-30)
    if not err <= rtol:
        at = np.unravel_index(np.argmax(np.where(fin, np.abs(g - r), -1)), r.shape)
        raise Fail(f"{name}: relative error {err:.2e} > {rtol:.0e}; "
                   f"at {list(map(int, at))} got {g[at]!r}, want {r[at]!r}")


def exact(outs, name, ref, dtype):
    """Output NAME must equal REF element for element, shape and dtype too."""
    got, ref = get(outs, name), np.asarray(ref)
    same_kind(name, got, ref, dtype)
    if not np.array_equal(got, ref):
        bad = np.argwhere(got != ref)
        at = tuple(bad[0])
        raise Fail(f"{name}: {len(bad)} elements differ; at {list(map(int, at))} "
                   f"got {got[at]!r}, want {ref[at]!r}")


def run_cases(cases, pattern=""):
    """Run every (name, function) of CASES whose name contains PATTERN and
    print its verdict; a function may return a string, printed after `ok
    NAME`.  A Fail or any other exception (a bug in the case, or output it
    could not read) fails the case.  Prints the totals; returns the exit
    status."""
    passed = failed = 0
    for name, fn in cases:
        if pattern not in name:
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
