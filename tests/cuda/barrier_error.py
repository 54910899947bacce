#!/usr/bin/python3
"""Run-time errors in only some threads of a block, before a barrier.

    /usr/bin/python3 tests/cuda/barrier_error.py PATH/TO/ftc SOURCE_ROOT [--gpu]

tests/cuda/progs/barrier_error.ft binds rows to blocks and columns to
threads; gather_pairs gathers t[j] = x[idx[i, j]] (t in dynamic shared
memory, m floats) and, after a barrier, reads t across threads;
checked_pairs asserts x[i, j] >= 0 in the thread loop before the block's
barrier.  Runs them through FTC_NVCC=tests/cuda/fake_nvcc (threads of a
block as std::threads; a thread leaving while others wait at a barrier
aborts with "barrier divergence", which is a hang on a GPU):
  - valid inputs: the outputs against NumPy;
  - a few out-of-range indices in one row (some threads of one block fail,
    the others do not) and in every row: the located `index out of bounds`
    (code 3) of `idx[i, j]`,
    no divergence, within the time limit;
  - a negative x in a few columns of one row: the located failed assert
    (code 2) with the value it saw;
  - m = 1000 (1000 threads, t 4000 bytes) and m = 13000 (t 52000 bytes:
    past 48 KiB of dynamic shared memory, the launch opts in).
With --gpu (tests/gpu/run) the runs use ftc's nvcc and the GPU instead.
Prints ok/FAIL per case; exits 1 when any failed.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numeric"))
from harness import Fail, run_cases  # noqa: E402

f32, i32 = np.float32, np.int32


def run(ftc, env, prog, func, inputs, sizes):
    """-> (exit status, stderr, {output: array})."""
    with tempfile.TemporaryDirectory(prefix="ftc-barrier-error-") as d:
        args = [ftc, "run", prog, func, "--target", "cuda", "--no-print", "--out-dir", d]
        args += [f"{k}={v}" for k, v in sizes.items()]
        for k, v in inputs.items():
            p = os.path.join(d, k + ".in.npy")
            np.save(p, v)
            args.append(f"{k}={p}")
        try:
            r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            raise Fail("timed out after 300 s (a hang at a barrier?)")
        outs = {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d)
                if f.endswith(".npy") and not f.endswith(".in.npy")}
        return r.returncode, r.stderr, outs


def pairs(t):
    return t + np.roll(t, -1, axis=1)


def expect_ok(res, ref):
    rc, err, outs = res
    if rc != 0:
        raise Fail(f"exit status {rc}: {err.strip()[-300:]}")
    y = outs.get("y")
    if y is None or y.shape != ref.shape or not np.allclose(y, ref, rtol=1e-6, atol=1e-6):
        raise Fail(f"y differs from NumPy (max error "
                   f"{np.max(np.abs(y - ref)) if y is not None and y.shape == ref.shape else '-'})")


def expect_error(res, text):
    rc, err, _ = res
    if "divergence" in err or rc < 0 or rc > 128:
        raise Fail(f"exit status {rc}: {err.strip()[-300:]}")
    if rc == 0 or text not in err:
        raise Fail(f"exit status {rc}, wanted an error with '{text}': {err.strip()[-300:]}")


def cases(rng):
    """(name, function, inputs, sizes, checker)"""
    n, m = 6, 100
    x = rng.standard_normal(m).astype(f32)
    idx = rng.integers(0, m, (n, m)).astype(i32)
    ref = pairs(x[idx].astype(np.float64))
    yield "gather valid", "gather_pairs", dict(idx=idx, x=x), {}, lambda r: expect_ok(r, ref)
    bad = idx.copy()
    bad[2, 37], bad[2, 80] = m + 5, -1                      # two threads of block 2
    yield "gather, 2 threads of one block out of range", "gather_pairs", dict(idx=bad, x=x), {}, \
        lambda r: expect_error(r, "barrier_error.ft:10:22: error: index out of bounds: "
                                    "`idx[i, j]` = ")
    bad = idx.copy()
    bad[:, 50] = m                                          # one thread of every block
    yield "gather, 1 thread of every block out of range", "gather_pairs", dict(idx=bad, x=x), \
        {}, lambda r: expect_error(r, "barrier_error.ft:10:22: error: index out of bounds: "
                                    "`idx[i, j]` = 100 is outside [0, 100) (dimension 0 of x)")
    xs = np.abs(rng.standard_normal((n, m))).astype(f32)
    yield "assert valid", "checked_pairs", dict(x=xs), {}, \
        lambda r: expect_ok(r, pairs(xs.astype(np.float64)))
    neg = xs.copy()
    neg[4, 3], neg[4, 64] = -1, -2                          # two threads, two warps
    yield "assert, 2 threads of one block fail", "checked_pairs", dict(x=neg), {}, \
        lambda r: expect_error(r, "barrier_error.ft:19:13: error: assert `x[i, j] >= 0` failed: "
                                    "x[i, j] = -")
    for m2 in (1000, 13000):
        x2 = rng.standard_normal(m2).astype(f32)
        idx2 = rng.integers(0, m2, (2, m2)).astype(i32)
        ref2 = pairs(x2[idx2].astype(np.float64))
        yield f"gather valid, m = {m2} (t {4 * m2} bytes of dynamic shared memory)", \
            "gather_pairs", dict(idx=idx2, x=x2), {}, lambda r, ref2=ref2: expect_ok(r, ref2)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    env = dict(os.environ)
    if "--gpu" not in argv:
        env["FTC_NVCC"] = os.path.join(root, "tests", "cuda", "fake_nvcc")
    prog = os.path.join(root, "tests", "cuda", "progs", "barrier_error.ft")
    return run_cases([(name, lambda a=(func, inputs, sizes), c=checker:
                       c(run(ftc, env, prog, *a)))
                      for name, func, inputs, sizes, checker in cases(np.random.default_rng(5))])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
