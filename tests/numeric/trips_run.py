#!/usr/bin/env python3
"""Loops whose bounds or steps lie at the int64 limits (issue 18): each runs
the number of iterations Python's len(range(...)) gives, with the first and
last iterator values of range(...), and ftc computes their trip counts
without overflow.

    python3 tests/numeric/trips_run.py PATH/TO/ftc

The program's functions each count their loop's iterations into y[0] and
keep the first and last iterator values in y[1], y[2]: built with the
auto-scheduler and with --no-auto, each called through the description
table (tests/numeric/ftlib.py).  The references are Python's ranges.
A range longer than 2^63 - 1 is refused at compile time, located.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftlib  # noqa: E402

MIN, MAX = -2**63, 2**63 - 1

# name: (range arguments as written, sizes, the same range in Python)
CASES = {
    "neg_min_step": ("n, 0, -9223372036854775807 - 1", {"n": 5}, range(5, 0, MIN)),
    "neg_min_step_max": ("n, 0, -9223372036854775807 - 1", {"n": MAX}, range(MAX, 0, MIN)),
    "max_step": ("0, 9223372036854775807, 9223372036854775807", {}, range(0, MAX, MAX)),
    "step_past_max": ("0, 9223372036854775807, 9223372036854775806", {},
                      range(0, MAX, MAX - 1)),
    "step_past_min": ("9223372036854775807, -9223372036854775807 - 1, "
                      "-9223372036854775807 - 1", {}, range(MAX, MIN, MIN)),
    "at_min": ("-9223372036854775807 - 1, -9223372036854775807 + 2", {},
               range(MIN, MIN + 3)),
    "at_max": ("9223372036854775807 - 3, 9223372036854775807", {}, range(MAX - 3, MAX)),
    "down_to_min": ("-9223372036854775807 + 2, -9223372036854775807 - 1, -1", {},
                    range(MIN + 3, MIN, -1)),
    "runtime_step": ("0 - n - 1, n, s", {"n": MAX, "s": 2**62}, range(MIN, MAX, 2**62)),
    "runtime_step_small": ("0 - n - 1, n, s", {"n": 3, "s": 2}, range(-4, 3, 2)),
}

FUNC = """\
export func {name}(n: size, s: size, y: i64[3] inout):
    for i in range({args}):
        if y[0] == 0:
            y[1] = i
        y[0] += 1
        y[2] = i
"""

TOO_LONG = """\
export func f(y: i64[1] inout):
    for i in range(-9223372036854775807 - 1, 9223372036854775807):
        y[0] += 1
"""
TOO_LONG_ERR = ("prog.ft:2:14: error: range(-9223372036854775808, 9223372036854775807, 1) "
                "has more than 2^63 - 1 iterations")


def check_build(ftc, d, flags):
    """Build every case with flags and call each; the failures, as text."""
    src = "\n".join(FUNC.format(name=k, args=v[0]) for k, v in CASES.items())
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(src)
    lib = os.path.join(d, "libprog%d.so" % len(flags))
    r = subprocess.run([ftc, "build", "prog.ft", "-o", lib] + flags, cwd=d,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return [f"ftc build {' '.join(flags)} exited {r.returncode}:\n{r.stderr}"]
    L = ftlib.Library(lib)
    bad = []
    for name, (args, sizes, py) in CASES.items():
        y = np.zeros(3, np.int64)
        code = L.func(name)(n=sizes.get("n", 0), s=sizes.get("s", 1), y=y)
        want = [len(py), py[0], py[-1]] if len(py) else [0, 0, 0]
        if code != 0 or list(y) != want:
            bad.append(f"{name} {' '.join(flags)}: code {code}, (count, first, last) = "
                       f"{list(y)}, expected {want}")
    return bad


# A split loop of 2^63 - 1 iterations whose assert stops it at i = 10: the
# outer loop's trip count was (n + 3) // 4, which overflows (undefined;
# built with -fwrapv it wraps negative, the loop runs no iteration and the
# function returns 0 silently).
SPLIT_HUGE = """\
export func f(n: size, y: i64[1] inout):
    Li: for i in range(n):
        assert i < 10
        y[0] += 1

schedule f:
    io, ii = split(Li, 4)
"""


def check_split_huge(ftc, d):
    """The split loop of SPLIT_HUGE at n = 2^63 - 1 fails its assert after
    10 iterations."""
    with open(os.path.join(d, "split.ft"), "w") as f:
        f.write(SPLIT_HUGE)
    lib = os.path.join(d, "libsplit.so")
    r = subprocess.run([ftc, "build", "split.ft", "-o", lib, "--no-auto",
                        "--cflags", "-O2 -fwrapv -fopenmp"], cwd=d,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return [f"split_huge: ftc build exited {r.returncode}:\n{r.stderr}"]
    y = np.zeros(1, np.int64)
    code = ftlib.Library(lib).func("f")(n=MAX, y=y)
    if code != 2 or y[0] != 10:
        return [f"split_huge: code {code}, {y[0]} iterations; expected the assert's "
                "code 2 after 10"]
    return []


def check_too_long(ftc, d):
    """A range of more than 2^63 - 1 iterations is refused, located."""
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(TOO_LONG)
    r = subprocess.run([ftc, "check", "prog.ft"], cwd=d, capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 1 or r.stderr.splitlines()[:1] != [TOO_LONG_ERR]:
        return [f"too_long: exit {r.returncode}, stderr:\n{r.stderr}"]
    return []


def main():
    ftc = os.path.abspath(sys.argv[1])
    bad = []
    with tempfile.TemporaryDirectory(prefix="ftc-trips-") as d:
        for flags in ([], ["--no-auto"]):
            bad += check_build(ftc, d, flags)
        bad += check_too_long(ftc, d)
        bad += check_split_huge(ftc, d)
    for b in bad:
        print("FAIL", b)
    print(f"{2 * len(CASES) + 2 - len(bad)} passed, {len(bad)} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
