#!/usr/bin/env python3
"""Bounded compile time and memory on short programs that grow (issue 18).

Usage: growth_run.py FTC

Each case is a program of a few lines (or thousands of generated ones) that
made ftc expand without limit: nested short loops that auto_unroll unrolled
from the inside out, a chain of functions each calling the next twice, a
chain of temporaries, 200 chained splits, a source line a million columns
long, 60,000 updates of one element merged into one expression (and,
under a `grad` line, the dependence analysis of their 3.6e9 pairs).  Every
compile runs under a 2 GiB address-space limit and a 30 s timeout, and must
end in success (the optimisation skipped) or in a located error naming the
budget's flag (lang/reference.md, "Budgets"); never a crash, an "out of
memory" abort or a timeout.  The programs that build are run and their
results checked against values computed here.
"""
import os
import re
import resource
import subprocess
import sys
import tempfile

import numpy as np

MEM_LIMIT = 2 << 30          # bytes of address space
TIME_LIMIT = 30              # seconds per ftc command
LOCATED = re.compile(r"^\S+\.ft:\d+:\d+: error: ", re.M)


def limit_memory():
    """preexec_fn: the 2 GiB address-space limit (cc inherits it); none under
    ASan (ASAN_OPTIONS set), whose shadow memory reserves terabytes."""
    if "ASAN_OPTIONS" not in os.environ:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


def ftc(args, cwd):
    """Run ftc under the limits; (exit status, stderr).  A timeout fails."""
    try:
        r = subprocess.run([FTC] + args, cwd=cwd, capture_output=True, text=True,
                           errors="replace", timeout=TIME_LIMIT, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"ftc {' '.join(args)}: still running after {TIME_LIMIT} s")
    if (r.returncode < 0 or "out of memory" in r.stderr or "Sanitizer" in r.stderr
            or "runtime error:" in r.stderr):
        raise AssertionError(f"ftc {' '.join(args)}: crashed (status {r.returncode}): "
                             f"{r.stderr[-600:]}")
    return r.returncode, r.stderr


def write(d, name, text):
    """Write text to d/name; return the path."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def expect_budget_error(d, name, text, flag, line=None, args=()):
    """`ftc check` fails with a located error that names flag (at line)."""
    path = write(d, name, text)
    rc, err = ftc(["check", path] + list(args), d)
    assert rc == 1, f"{name}: exit {rc}, expected 1: {err[-2000:]}"
    first = LOCATED.search(err)
    assert first, f"{name}: no located error: {err[-2000:]}"
    assert flag in err, f"{name}: the error does not name {flag}: {err[-2000:]}"
    if line is not None:
        assert f"{name}:{line}:" in err, f"{name}: the error is not at line {line}: {err[:2000]}"


def run_f(d, name, text, inputs, args=()):
    """Build text, call its f with the named arrays; the out/inout arrays."""
    path = write(d, name, text)
    lib = os.path.join(d, "lib" + name[:-3] + ".so")
    rc, err = ftc(["build", path, "-o", lib] + list(args), d)
    assert rc == 0, f"{name}: ftc build exited {rc}: {err[-2000:]}"
    out = os.path.join(d, name + ".out")
    os.makedirs(out, exist_ok=True)
    argv = ["run", lib, "f", "--no-print", "--out-dir", out]
    for k, v in inputs.items():
        np.save(os.path.join(d, k + ".npy"), v)
        argv.append(f"{k}={os.path.join(d, k + '.npy')}")
    rc, err = ftc(argv, d)
    assert rc == 0, f"{name}: ftc run exited {rc}: {err[-2000:]}"
    return {k[:-4]: np.load(os.path.join(out, k)) for k in os.listdir(out)}


def nested_loops(n):
    """n nested `for in range(2)` around one update (auto_unroll)."""
    s = "export func f(y: f32[2] inout):\n"
    for k in range(n):
        s += "    " * (k + 1) + f"for i{k} in range(2):\n"
    return s + "    " * (n + 1) + "y[i0] += 1\n"


def case_auto_unroll(d):
    """30 nested range(2): 2^30 statements once unrolled; skipped, said with -v;
    22 nested (2^22 statements) computes what it did."""
    text = nested_loops(30)
    path = write(d, "unroll.ft", text)
    rc, err = ftc(["build", path, "--emit=c", "-o", os.path.join(d, "unroll.c"), "-v"], d)
    assert rc == 0, err[-2000:]
    assert "auto_unroll" in err and "not unrolled: its copies would hold more than" in err, \
        err[-2000:]
    text = nested_loops(22)
    y = run_f(d, "unroll22.ft", text, {"y": np.zeros(2, np.float32)})["y"]
    assert list(y) == [2.0 ** 21] * 2, y


def case_inline_calls(d):
    """g40(x) = g39(x) + g39(x) ...: 2^40 inlined calls."""
    s = "func g0(x):\n    return x * 2\n"
    for i in range(40):
        s += f"func g{i + 1}(x):\n    return g{i}(x) + g{i}(x)\n"
    s += "export func f(x: f32[1] in, y: f32[1] out):\n    y[0] = g40(x[0])\n"
    expect_budget_error(d, "inline.ft", s, "--max-inline")
    # a chain within the budget builds, and the budget can be lowered
    s12 = s.replace("g40(x[0])", "g12(x[0])")
    y = run_f(d, "inline12.ft", s12, {"x": np.array([1.5], np.float32)})["y"]
    assert y[0] == 1.5 * 2 * 2 ** 12, y
    expect_budget_error(d, "inline12b.ft", s12, "--max-inline 100", args=["--max-inline", "100"])


def case_shared_argument(d):
    """g40(x) = g39(x + x) ...: a parameter used twice shares its argument's
    expression, which doubled at each call (2^40 nodes once copied)."""
    s = "func g0(x):\n    return x * 2\n"
    for i in range(40):
        s += f"func g{i + 1}(x):\n    return g{i}(x + x)\n"
    s += "export func f(x: f32[1] in, y: f32[1] out):\n    y[0] = g40(x[0])\n"
    y = run_f(d, "shared.ft", s, {"x": np.array([0.75], np.float32)})["y"]
    assert y[0] == np.float32(0.75 * 2.0 ** 41), y


def temps(n, double):
    """A chain of n scalar temporaries, each read once (or twice) by the next."""
    s = "export func f(x: f32[1] in, y: f32[1] out):\n    var t0: f32 = x[0]\n"
    for i in range(n):
        rhs = f"t{i} * t{i} + 1" if double else f"t{i} * 0.5 + 1"
        s += f"    var t{i + 1}: f32 = {rhs}\n"
    return s + f"    y[0] = t{n}\n"


def case_temps(d):
    """4,000 chained temporaries: past --max-locals at the 1,001st (located);
    within a raised budget the function builds and computes the chain."""
    expect_budget_error(d, "temps.ft", temps(4000, True), "--max-locals", line=1002)
    expect_budget_error(d, "temps1.ft", temps(4000, False), "--max-locals", line=1002)
    n = 1500
    y = run_f(d, "temps2.ft", temps(n, False), {"x": np.array([3.0], np.float32)},
              args=["--max-locals", "2000"])["y"]
    t = np.float32(3.0)
    for _ in range(n):
        t = np.float32(t * np.float32(0.5) + np.float32(1))
    assert abs(float(y[0]) - float(t)) <= 1e-5, (y, t)


def case_splits(d):
    """200 chained splits: refused at the line past --max-loop-depth."""
    s = ("export func f(n: size, y: f32[n] out):\n    L0: for i in range(n):\n"
         "        y[i] = 1\nschedule f:\n")
    for i in range(200):
        s += f"    L{i + 1}, M{i + 1} = split(L{i}, 2)\n"
    expect_budget_error(d, "splits.ft", s, "--max-loop-depth", line=36)


def case_sched_unroll(d):
    """unroll of three nested 1000-iteration loops: 10^9 statements."""
    s = ("export func f(y: f32[4] inout):\n    La: for a in range(1000):\n"
         "        Lb: for b in range(1000):\n            Lc: for c in range(1000):\n"
         "                y[0] += 1\nschedule f:\n    unroll(Lc)\n    unroll(Lb)\n"
         "    unroll(La)\n")
    expect_budget_error(d, "sunroll.ft", s, "--max-statements", line=8)


def case_caret(d):
    """An error at column 1,000,000: the caret line is written at once and the
    source line cut around the column, the caret under the bad character."""
    s = "export func f(y: f32[1] out):\n    y[0] = 1" + " " * 1000000 + "$\n"
    path = write(d, "caret.ft", s)
    rc, err = ftc(["check", path], d)
    assert rc == 1 and "caret.ft:2:1000013: error: unexpected character '$'" in err, err[:300]
    lines = err.splitlines()
    src, caret = lines[1], lines[2]
    assert len(err) < 2000, f"{len(err)} bytes of diagnostics"
    assert src.lstrip().startswith("...") and src.rstrip().endswith("$"), src[:200]
    assert caret.rstrip().endswith("^") and caret.index("^") == src.index("$"), (src, caret)


def case_merged_updates(d):
    """60,000 `y[0] += 1`: built (the merged updates stay within
    --max-expr-size: one 60,000-deep expression overflowed the C emitter's
    stack) and y[0] == 60000."""
    s = "export func f(y: f32[1] inout):\n" + "    y[0] += 1\n" * 60000
    y = run_f(d, "merged.ft", s, {"y": np.zeros(1, np.float32)})["y"]
    assert y[0] == 60000, y
    # the budget bounds each merged update: at --max-expr-size 100, no C line
    # adds more than 50 ones, and the 5,000 updates still sum to 5000
    s = "export func f(y: f32[1] inout):\n" + "    y[0] += 1\n" * 5000
    path = write(d, "merged100.ft", s)
    c = os.path.join(d, "merged100.c")
    rc, err = ftc(["build", path, "--emit=c", "-o", c, "--max-expr-size", "100"], d)
    assert rc == 0, err[-2000:]
    with open(c) as f:
        lines = [ln for ln in f if "y[0]" in ln]
    assert max(ln.count("+") for ln in lines) <= 51, max(ln.count("+") for ln in lines)
    assert sum(ln.count("1.0f") for ln in lines) == 5000, lines[:3]


def case_dep_pairs(d):
    """60,000 updates of y[0] under a `grad` line: the dependence analysis
    compares every pair (3.6e9; minutes): refused naming --max-dep-pairs."""
    s = ("export func f(x: f32[1] in, y: f32[1] inout):\n" + "    y[0] += x[0] * x[0]\n" * 60000
         + "grad f wrt x -> g\n")
    expect_budget_error(d, "pairs.ft", s, "--max-dep-pairs", line=1)


def case_fuse_work(d):
    """60 lines `y = y * 0.5 + x` under a `grad` line: auto_fuse tried
    pair after pair, each try copying and cleaning up the whole function
    (120 lines: 850 tries, 9 s and 3 GB); it stops at --max-fuse-work,
    says so with -v, and y is what the lines compute."""
    s = ("export func f(n: size, x: f32[n] in, y: f32[n] inout):\n"
         + "    y = y * 0.5 + x\n" * 60 + "grad f wrt x -> g\n")
    path = write(d, "fuse.ft", s)
    rc, err = ftc(["build", path, "--emit=c", "-o", os.path.join(d, "fuse.c"), "-v"], d)
    assert rc == 0, err[-2000:]
    assert "no further tries" in err and "--max-fuse-work 50000" in err, err[-2000:]
    rng = np.random.default_rng(18)
    x, y0 = rng.random(5, np.float32), rng.random(5, np.float32)
    y = run_f(d, "fuse_run.ft", s, {"x": x, "y": y0})["y"]
    want = y0.astype(np.float64) * 0.5 ** 60 + x * (2 - 2.0 ** -59)
    assert np.allclose(y, want, rtol=1e-5), (y, want)


def case_grad_versions(d):
    """150 overwrites of one tensor under a `grad` line: each is a version
    the tape keeps, a VarDef around the rest of the function, and the
    normalization re-normalized every nested body at every level (3.3 GB;
    200 lines with the auto-scheduler 8.5 GB): built to C within the
    limits (--no-auto: the auto-scheduler's time is case_fuse_work's)."""
    s = ("export func f(n: size, x: f32[n] in, y: f32[n] inout):\n"
         + "    y = y * 0.5 + x\n" * 150 + "grad f wrt x -> g\n")
    path = write(d, "versions.ft", s)
    rc, err = ftc(["build", path, "--no-auto", "--emit=c", "-o", os.path.join(d, "v.c")], d)
    assert rc == 0, err[-2000:]


CASES = [case_auto_unroll, case_inline_calls, case_shared_argument, case_temps, case_splits,
         case_sched_unroll, case_caret, case_merged_updates, case_dep_pairs, case_fuse_work,
         case_grad_versions]


def main():
    global FTC
    FTC = os.path.abspath(sys.argv[1])
    failed = 0
    for case in CASES:
        with tempfile.TemporaryDirectory(prefix="ftc-growth-") as d:
            try:
                case(d)
                print(f"ok {case.__name__}")
            except AssertionError as e:
                failed += 1
                print(f"FAIL {case.__name__}: {e}")
    print(f"{len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
