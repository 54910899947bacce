#!/usr/bin/python3
"""Located run-time errors (issue 17, item 8): what `ftc run`, `ftc
gradcheck` and the C header's helper say when an emitted check fails.

    /usr/bin/python3 tests/numeric/errors_run.py PATH/TO/ftc SOURCE_ROOT [--cuda] [-v]

Each case runs a small program whose check fails (an `assert`, an
out-of-range gather index, in a serial and in a parallel loop, an assert
in the user's own inline function, an assert comparing floats) and checks
the exact first line of the report: an allocation that cannot succeed; the source location (file:line:col; the column is the one the front
end records for the access, here the `*` of `x[idx[i]] * 2.0`),
the check's text and the values it saw, which the case states itself.
The C-ABI case builds the library, compiles a C program against its
header that calls a function with bad data and a negative size, and
checks what `<module>_last_error` writes and returns.  With --cuda the
ftc run cases run again on the CUDA backend through tests/cuda/fake_nvcc
(the CUDA output run on the CPU).

Prints one line per case (`ok NAME` or `FAIL NAME: why`), then
`N passed, M failed`; exits 1 if any case failed.
"""
import ctypes
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftlib  # noqa: E402

VERBOSE = "-v" in sys.argv
CUDA = "--cuda" in sys.argv
ARGS = [a for a in sys.argv[1:] if a not in ("-v", "--cuda")]
FTC, ROOT = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])


class Fail(Exception):
    pass


def sh(args, cwd, env=None, expect=None):
    """Run args in cwd; the completed process (Fail unless its exit status
    is expect, when given)."""
    e = dict(os.environ, **(env or {}))
    if CUDA and args[0] == FTC:
        e["FTC_NVCC"] = os.path.join(ROOT, "tests/cuda/fake_nvcc")
    r = subprocess.run(args, cwd=cwd, env=e, capture_output=True, text=True, timeout=600)
    if VERBOSE:
        print("$", " ".join(args), "->", r.returncode, "\n" + r.stdout + r.stderr)
    if expect is not None and r.returncode != expect:
        raise Fail(f"`{' '.join(args)}` exited {r.returncode}, expected {expect}:\n"
                   + r.stderr[-2000:])
    return r


def target():
    return ["--target", "cuda"] if CUDA else []


def run_fails(d, src, func, args, want, code, threads=None, want_any=None, env=None):
    """Write src to d/prog.ft, `ftc run` func with args (name=value or
    name=array, saved as .npy); it must exit 1 and its report's first line
    must be want (or one of want_any), followed by the source line, and a
    note naming func and code."""
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(src)
    argv = []
    for k, v in args.items():
        if isinstance(v, np.ndarray):
            np.save(os.path.join(d, k + ".npy"), v)
            v = k + ".npy"
        argv.append(f"{k}={v}")
    env = dict(env or {}, **({"OMP_NUM_THREADS": str(threads)} if threads else {}))
    r = sh([FTC, "run", "prog.ft", func] + argv + target(), d, env, expect=1)
    lines = [l for l in r.stderr.splitlines() if not l.startswith("==")]   # ASan's warnings
    if isinstance(want, re.Pattern):
        if not lines or not want.fullmatch(lines[0]):
            raise Fail(f"report:\n{r.stderr}\nexpected a first line matching:\n{want.pattern}")
        want = lines[0]
    if not lines or (lines[0] != want and lines[0] not in (want_any or [])):
        raise Fail(f"report:\n{r.stderr}\nexpected first line:\n{want}")
    loc = want.split(": ")[0]
    line_no = int(loc.split(":")[1])
    if len(lines) < 3 or lines[1].strip() != src.splitlines()[line_no - 1].strip():
        raise Fail(f"no source line under the report:\n{r.stderr}")
    if f"note: function '{func}' failed with code {code} " not in r.stderr:
        raise Fail(f"no note naming '{func}' and code {code}:\n{r.stderr}")


GATHER = """\
export func f(n: size, m: size, x: f32[n] in, idx: i32[m] in, y: f32[m] out):
    assert m <= n
    for i in range(m):
        y[i] = x[idx[i]] * 2.0
"""

PAR_GATHER = """\
export func f(n: size, m: size, x: f32[n] in, idx: i32[m] in, y: f32[m] out):
    L: for i in range(m):
        y[i] = x[idx[i]]
schedule f:
    parallelize(L, openmp)
"""


def case_assert_mod(d):
    run_fails(d, "export func f(n: size, x: f32[n] in, y: f32[n] out):\n"
              "    assert n % 2 == 0\n    y = x\n", "f", {"x": np.zeros(5, np.float32)},
              "prog.ft:2:5: error: assert `n % 2 == 0` failed: n % 2 = 1", 2)


def case_assert_two_sides(d):
    x = np.arange(10, dtype=np.float32)
    run_fails(d, GATHER, "f", {"x": x, "idx": np.zeros(12, np.int32)},
              "prog.ft:2:5: error: assert `m <= n` failed: m = 12, n = 10", 2)


def case_gather_index(d):
    x = np.arange(10, dtype=np.float32)
    idx = np.array([0, 3, 12, 1], np.int32)
    run_fails(d, GATHER, "f", {"x": x, "idx": idx},
              "prog.ft:4:18: error: index out of bounds: `idx[i]` = 12 is outside [0, 10) "
              "(dimension 0 of x)", 3)


def case_gather_negative_index(d):
    x = np.arange(10, dtype=np.float32)
    idx = np.array([0, -3, 1], np.int32)
    run_fails(d, GATHER, "f", {"x": x, "idx": idx},
              "prog.ft:4:18: error: index out of bounds: `idx[i]` = -3 is outside [0, 10) "
              "(dimension 0 of x)", 3)


SCATTER = """\
export func f(n: size, m: size, x: f32[n] in, idx: i32[n] in, y: f32[m] out):
    for i in range(n):
        y[idx[i]] = x[i] * 2.0
"""


def case_scatter_index(d):
    """A bad index of a store is located at the index as written (it was at
    the stored value's operator)."""
    x = np.arange(3, dtype=np.float32)
    run_fails(d, SCATTER, "f", {"x": x, "idx": np.array([0, 5, 1], np.int32), "m": 2},
              "prog.ft:3:11: error: index out of bounds: `idx[i]` = 5 is outside [0, 2) "
              "(dimension 0 of y)", 3)


def case_parallel_gather(d):
    """Several bad indices in a parallel loop on 4 threads: the report
    names one of them (the first failure wins, never a mix)."""
    x = np.arange(10, dtype=np.float32)
    idx = np.zeros(4000, np.int32)
    bad = {100: 11, 1500: 20, 2500: 30, 3900: 40}
    for i, v in bad.items():
        idx[i] = v
    head = "prog.ft:3:18: error: index out of bounds: `idx[i]` = "
    tail = " is outside [0, 10) (dimension 0 of x)"
    wants = [head + str(v) + tail for v in bad.values()]
    run_fails(d, PAR_GATHER, "f", {"x": x, "idx": idx}, wants[0], 3, threads=4,
              want_any=wants[1:])


def case_inline_function(d):
    src = ("func half(v):\n"
           "    assert v.shape(0) % 2 == 0\n"
           "    return v[0 : v.shape(0) // 2]\n\n"
           "export func f(n: size, k: size, x: f32[n] in, y: f32[k] out):\n"
           "    y = half(x)\n")
    run_fails(d, src, "f", {"x": np.zeros(5, np.float32), "k": 2},
              "prog.ft:2:5: error: assert `v.shape(0) % 2 == 0` failed in half() (called at "
              "prog.ft:6:9): v.shape(0) % 2 = 1", 2)


def case_stdlib_call(d):
    """A check inside stdlib code (add()'s broadcast of two sizes unknown
    at compile time) is reported at the user's call, naming the operator,
    the check's own place in the stdlib, and both sizes."""
    src = ("export func f(n: size, m: size, a: f32[n] in, b: f32[m] in, y: f32[n] out):\n"
           "    y = add(a, b)\n")
    run_fails(d, src, "f", {"a": np.zeros(3, np.float32), "b": np.zeros(4, np.float32)},
              re.compile(r"prog\.ft:2:9: error: shape check `m == n` failed in add\(\) "
                         r"\(stdlib/elementwise\.ft:\d+:\d+\): m = 4, n = 3"), 2)


def case_stdlib_message(d):
    """A stdlib contract's assert has a message: the run-time report is
    that message with the sizes the run time saw, at the user's call,
    naming the operator, then the assert and its place in the stdlib."""
    src = ("export func f(n: size, m: size, a: f32[n, m] in, b: f32[n, m] in, "
           "y: f32[n, m] out):\n"
           "    y = matmul(a, b)\n")
    z = np.zeros((3, 4), np.float32)
    run_fails(d, src, "f", {"a": z, "b": z},
              re.compile(r"prog\.ft:2:9: error: matmul: inner dimensions differ: a has 4 "
                         r"columns, b has 3 rows \(assert `ka == kb` in "
                         r"stdlib/linalg\.ft:\d+:\d+\)$", re.M), 2)


def case_assert_message(d):
    """A user's assert with a message: the message, its `{}` filled in by
    the run-time value where the value is a side of the comparison, by
    the text of the others."""
    src = ("export func f(n: size, k: size, x: f32[n] in, y: f32[n] out):\n"
           "    assert n > k + 1, \"n is {}, not above {} (k = {})\", n, k + 1, k\n"
           "    y = x\n")
    run_fails(d, src, "f", {"x": np.zeros(2, np.float32), "k": 5},
              re.compile(r"prog\.ft:2:5: error: n is 2, not above 6 \(k = k\) "
                         r"\(assert `n > k \+ 1`\)$", re.M), 2)


def case_nomem(d):
    """A local tensor too large to allocate (its byte count overflows)."""
    src = ("export func f(n: size, x: f32[1] in, y: f32[1] out):\n"
           "    var t: f32[n, n]\n"
           "    for i in range(n):\n"
           "        t[i, i] = x[0]\n"
           "    y[0] = t[n - 1, n - 1]\n")
    run_fails(d, src, "f", {"x": np.ones(1, np.float32), "n": 3000000000},
              "prog.ft:2:9: error: out of memory: cannot allocate more than SIZE_MAX bytes "
              "for local tensor `t`", 4,
              env={"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +   # the sanitizer rerun
                   ":allocator_may_return_null=1"})


def case_assert_float(d):
    src = ("export func f(n: size, x: f64[n] in, y: f64[n] out):\n"
           "    for i in range(n):\n"
           "        assert x[i] >= 0.0\n"
           "        y[i] = sqrt(x[i])\n")
    x = np.array([4.0, 2.25, -0.5], np.float64)
    run_fails(d, src, "f", {"x": x},
              "prog.ft:3:9: error: assert `x[i] >= 0.0` failed: x[i] = -0.5", 2)


def case_gradcheck(d):
    """`ftc gradcheck` reports a failing check of the gradient located."""
    src = ("export func f(n: size, m: size, x: f64[n] in, idx: i32[m] in, y: f64[m] out):\n"
           "    for i in range(m):\n"
           "        y[i] = x[idx[i]] * x[idx[i]]\n")
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(src)
    np.save(os.path.join(d, "idx.npy"), np.array([0, 7, 1], np.int32))
    r = sh([FTC, "gradcheck", "prog.ft", "f", "wrt", "x", "n=4", "m=3", "idx=idx.npy"], d)
    want = ("prog.ft:3:18: error: index out of bounds: `idx[i]` = 7 is outside [0, 4) "
            "(dimension 0 of x)")
    if r.returncode == 0 or want not in r.stderr.splitlines():
        raise Fail(f"exit {r.returncode}, report:\n{r.stderr}\nexpected a line:\n{want}")


def case_gradcheck_forward(d):
    """A check of the function itself that fails only on the perturbed
    inputs of the finite differences (x[1] + h crosses the assert) is
    reported located, and gradcheck fails, rather than a NaN difference
    passing as a non-differentiable point."""
    src = ("export func f(n: size, x: f64[n] in, y: f64[n] out):\n"
           "    for i in range(n):\n"
           "        assert x[i] < 1.0\n"
           "        y[i] = x[i] * x[i]\n")
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(src)
    np.save(os.path.join(d, "x.npy"), np.array([0.5, 0.999999999, 0.2]))
    r = sh([FTC, "gradcheck", "prog.ft", "f", "wrt", "x", "x=x.npy"], d)
    lines = r.stderr.splitlines()
    want = re.compile(r"prog\.ft:3:9: error: assert `x\[i\] < 1\.0` failed: x\[i\] = 1\.0000\d+")
    if r.returncode != 1 or not any(want.fullmatch(l) for l in lines) or \
            "ftc gradcheck: `f` failed on the inputs perturbed at x[1] (finite differences); " \
            "no gradient checked" not in lines or "warning" in r.stderr:
        raise Fail(f"exit {r.returncode}, report:\n{r.stderr}\nexpected exit 1, the located "
                   "failure of f and the element perturbed, no warning")


C_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "libprog.h"

int main(void)
{
    float x[10] = {0}, y[4];
    int32_t idx[4] = {0, 3, 12, 1};
    char buf[512];
    int rc = f(10, 4, x, idx, y);
    int got = prog_last_error(buf, sizeof buf);
    printf("%d %d %s\n", rc, got, buf);
    rc = f(-7, 4, x, idx, y);
    got = prog_last_error(buf, sizeof buf);
    printf("%d %d %s\n", rc, got, buf);
    idx[2] = 2;
    rc = f(10, 4, x, idx, y);
    printf("%d\n", rc);
    char small[12];
    got = prog_last_error(small, sizeof small);   /* cut, terminated */
    printf("%d %s %d\n", got, small, (int)strlen(small));
    rc = f(10, 4, x, NULL, y);                     /* NULL with elements */
    got = prog_last_error(buf, sizeof buf);
    printf("%d %d %d %s\n", rc, rc == FT_ERR_NULL, got, buf);
    rc = f(0, 0, NULL, NULL, NULL);               /* NULL without elements: fine */
    printf("%d\n", rc);
    return 0;
}
"""


def case_c_abi(d):
    """The header declares prog_last_error; after a failed call it gives
    the located message and the call's code; a negative size is reported
    too; a later successful call leaves the record (errno-like); a short
    buffer gets a cut, terminated message."""
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(GATHER)
    sh([FTC, "build", "prog.ft", "-o", "libprog.so"], d, expect=0)
    with open(os.path.join(d, "libprog.h")) as f:
        h = f.read()
        if "int prog_last_error(char *buf, size_t size);" not in h:
            raise Fail("libprog.h does not declare prog_last_error")
        if "(it may be NULL only when that number is 0)" not in h:
            raise Fail("libprog.h does not say what the tensor pointers must be")
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write(C_MAIN)
    sh(["cc", "-std=c99", "-Wall", "-Werror", "-o", "main", "main.c", "-I.", "-L.", "-lprog",
        "-Wl,-rpath," + d], d, expect=0)
    out = sh(["./main"], d, expect=0).stdout.splitlines()
    want = ["3 3 prog.ft:4:18: index out of bounds: `idx[i]` = 12 is outside [0, 10) "
            "(dimension 0 of x)",
            "1 1 prog.ft:1:15: negative size: n = -7",
            "0",
            "1 prog.ft:1:1 11",
            "6 1 6 prog.ft:1:47: null pointer: tensor parameter `idx` (i32[m]) is NULL but has "
            "elements",
            "0"]
    if out != want:
        raise Fail("the C program printed:\n" + "\n".join(out) + "\nexpected:\n"
                   + "\n".join(want))


def case_null_ctypes(d):
    """Through ctypes: the function and the description table's call, given
    a NULL tensor with elements, return FT_ERR_NULL (6) and the error names
    the parameter; NULL tensors without elements are fine."""
    with open(os.path.join(d, "prog.ft"), "w") as f:
        f.write(GATHER)
    sh([FTC, "build", "prog.ft", "-o", "libprog.so"] + target(), d, expect=0)
    lib = ctypes.CDLL(os.path.join(d, "libprog.so"))
    buf = ctypes.create_string_buffer(512)
    x = (ctypes.c_float * 10)()
    y = (ctypes.c_float * 4)()
    idx = (ctypes.c_int32 * 4)(0, 1, 2, 3)
    I64 = ctypes.c_int64
    got = []
    for args in ((I64(10), I64(4), x, idx, None), (I64(10), I64(4), None, idx, y),
                 (I64(0), I64(0), None, None, None)):
        rc = lib.f(*args)
        code = lib.prog_last_error(buf, ctypes.c_size_t(512))
        got.append((rc, code, buf.value.decode()) if rc else (rc,))
    want = [(6, 6, "prog.ft:1:63: null pointer: tensor parameter `y` (f32[m]) is NULL but has "
                   "elements"),
            (6, 6, "prog.ft:1:33: null pointer: tensor parameter `x` (f32[n]) is NULL but has "
                   "elements"),
            (0,)]
    if got != want:
        raise Fail(f"calls gave {got}, expected {want}")
    desc = ftlib.Library(os.path.join(d, "libprog.so")).func("f")._desc
    n, m = I64(10), I64(4)
    ptrs = (ctypes.c_void_p * 5)(ctypes.addressof(n), ctypes.addressof(m), None,
                                 ctypes.addressof(idx), ctypes.addressof(y))
    if desc.call(ptrs) != 6:
        raise Fail("the description table's call with x NULL did not return 6")


CASES = [case_assert_mod, case_assert_two_sides, case_gather_index, case_gather_negative_index,
         case_scatter_index,
         case_parallel_gather, case_inline_function, case_stdlib_call, case_stdlib_message,
         case_assert_message, case_nomem, case_assert_float, case_gradcheck,
         case_gradcheck_forward,
         case_c_abi, case_null_ctypes]


def main():
    passed = failed = 0
    for case in CASES:
        if CUDA and case in (case_gradcheck, case_gradcheck_forward, case_c_abi, case_nomem,
                             case_null_ctypes):
            continue   # the C target's (gradcheck builds for the C target; on CUDA
                       # the local is device memory, a CUDA runtime failure)
        name = case.__name__[5:] + (" (cuda)" if CUDA else "")
        with tempfile.TemporaryDirectory(prefix="ftc-errors-") as d:
            try:
                case(d)
                print("ok", name)
                passed += 1
            except Fail as e:
                print(f"FAIL {name}: {e}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
