#!/usr/bin/python3
"""Block-wide reductions of the CUDA target, run without a GPU.

    /usr/bin/python3 tests/cuda/block_reduce.py PATH/TO/ftc SOURCE_ROOT [--gpu]

Builds tests/cuda/progs/block_reduce.ft for --target cuda, checks that every
thread-bound reduction loop became a warp-shuffle block reduction (no
per-thread atomic left in those kernels), then runs each function through
FTC_NVCC=tests/cuda/fake_nvcc (the CUDA compiled for the CPU, threads of a
block in lockstep at barriers and shuffles) on sizes around the warp and
block limits, and compares with NumPy.  With --gpu (tests/gpu/run) the
runs use ftc's nvcc ($FTC_NVCC or the default) and the real GPU instead.
Exits 1 when any case failed.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numeric"))
from harness import Fail, run_cases  # noqa: E402

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


def run(ftc, env, prog, func, sizes, inputs, expect_fail=False):
    """ftc run FUNC on the CUDA target; the dict of outputs, or (when
    expect_fail) the failed run's stderr."""
    with tempfile.TemporaryDirectory(prefix="ftc-block-reduce-") as d:
        args = [ftc, "run", prog, func, "--target", "cuda"]
        args += [f"{k}={int(v)}" for k, v in sizes.items()]
        for k, v in inputs.items():
            p = os.path.join(d, k + ".npy")
            np.save(p, np.ascontiguousarray(v))
            args.append(f"{k}={p}")
        out = os.path.join(d, "out")
        os.mkdir(out)
        args += ["--no-print", "--out-dir", out]
        r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
        if expect_fail:
            if r.returncode == 0:
                raise Fail("ftc run exited 0, expected an error")
            return r.stderr
        if r.returncode != 0:
            raise Fail(f"ftc run exited {r.returncode}: {r.stderr.strip()[-400:]}")
        return {f[:-4]: np.load(os.path.join(out, f)) for f in os.listdir(out)}


def check(outs, name, ref, dtype, rtol=0.0):
    got = outs.get(name)
    ref = np.asarray(ref, dtype=dtype)
    if got is None or got.dtype != ref.dtype or got.shape != ref.shape:
        raise Fail(f"{name}: got {None if got is None else (got.dtype, got.shape)}, "
                   f"want {(ref.dtype, ref.shape)}")
    g, r = got.astype(f64), ref.astype(f64)
    if not np.array_equal(g[~np.isfinite(r)], r[~np.isfinite(r)]):
        raise Fail(f"{name}: non-finite values differ: got {got.ravel()[:4]}")
    fin = np.isfinite(r)
    err = np.max(np.abs(g[fin] - r[fin]), initial=0.0)
    if not err <= rtol * max(np.max(np.abs(r[fin]), initial=0.0), 1e-30):
        raise Fail(f"{name}: max error {err} (rtol {rtol}); got {got.ravel()[:4]}, "
                   f"want {ref.ravel()[:4]}")


def check_structure(ftc, prog):
    """Every kernel has its block reduction, and no atomic on the reduced
    values (the only atomics left are the blocks' final folds)."""
    r = subprocess.run([ftc, "build", prog, "--target", "cuda", "--emit=c"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("ftc build failed: " + r.stderr)
    src = r.stdout
    want = {"rowsum": 1, "dot": 1, "stats": 3, "spmv": 1, "rownorm_auto": 1, "xy": 1,
            "flat_dot": 1}
    for fn, n in want.items():
        body = "".join(re.findall(r"__global__ void ft__k%s_\d+\(.*?\n}\n" % fn, src, re.S))
        if not body:
            raise Fail(f"no kernel for {fn}")
        got = body.count("ft__block_reduce<")
        if got != n:
            raise Fail(f"{fn}: {got} block reductions, want {n}")
        for line in body.splitlines():
            if "ft__atomic_" in line and "ft__tid0" not in line:
                raise Fail(f"{fn}: a per-thread atomic is left: {line.strip()}")


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    prog = os.path.join(root, "tests", "cuda", "progs", "block_reduce.ft")
    env = dict(os.environ)
    if "--gpu" not in argv:
        env["FTC_NVCC"] = os.path.join(root, "tests", "cuda", "fake_nvcc")
    rng = np.random.default_rng(8)
    cases = [("structure", lambda: check_structure(ftc, prog))]

    def rowsum(n, m, env=env):
        # small integers: every summation order gives the exact f32 sum
        x = rng.integers(-9, 10, (n, m)).astype(f32)
        outs = run(ftc, env, prog, "rowsum", {"n": n, "m": m}, {"x": x})
        check(outs, "y", x.astype(f64).sum(axis=1), f32)

    def rownorm_auto(n, m, env=env):
        x = rng.integers(-9, 10, (n, m)).astype(f32)
        outs = run(ftc, env, prog, "rownorm_auto", {"n": n, "m": m}, {"x": x})
        s = (x.astype(f64) ** 2).sum(axis=1, keepdims=True)
        check(outs, "y", x / (s + 1), f32, 1e-6)

    def xy(n, m):
        x = rng.integers(-9, 10, (n, m)).astype(f32)
        outs = run(ftc, env, prog, "xy", {"n": n, "m": m}, {"x": x})
        check(outs, "y", x * 2, f32)
        check(outs, "s", x.astype(f64).sum(axis=1), f32)

    def dot(n, nb, nt):
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        outs = run(ftc, env, prog, "dot", {"n": n, "nb": nb, "nt": nt}, {"a": a, "b": b})
        check(outs, "s", np.dot(a, b), f64, 1e-12)

    def stats(n, env=env):
        v = rng.integers(-1000, 1000, n).astype(i32)
        outs = run(ftc, env, prog, "stats", {"n": n}, {"v": v})
        check(outs, "mx", v.max() if n else np.iinfo(i32).min, i32)
        check(outs, "mn", v.min() * 0.5 if n else np.inf, f32)
        check(outs, "cnt", np.sum(v > 3), i64)

    def spmv(nr, n, per_row, env=env):
        lens = rng.integers(0, per_row + 1, nr)
        ptr = np.concatenate([[0], np.cumsum(lens)]).astype(i32)
        nnz = int(ptr[-1])
        col = rng.integers(0, n, nnz).astype(i32)
        val = rng.integers(-4, 5, nnz).astype(f32)
        x = rng.integers(-4, 5, n).astype(f32)
        sizes = {"nr": nr, "nnz": nnz, "n": n}
        ins = {"ptr": ptr, "col": col, "val": val, "x": x}
        outs = run(ftc, env, prog, "spmv", sizes, ins)
        ref = np.array([np.dot(val[ptr[r]:ptr[r + 1]].astype(f64), x[col[ptr[r]:ptr[r + 1]]])
                        for r in range(nr)])
        check(outs, "y", ref, f32)
        if nnz:
            col[nnz // 2] = n   # out of range: every thread still reaches the shuffles
            err = run(ftc, env, prog, "spmv", sizes, ins, expect_fail=True)
            if "index" not in err:
                raise Fail("a bad column gave no index error: " + err.strip()[-200:])

    def flat_dot(n, m, env=env):
        idx = rng.integers(0, m, n).astype(i32)
        x, y = rng.integers(-4, 5, m).astype(f32), rng.integers(-4, 5, n).astype(f32)
        sizes, ins = {"n": n, "m": m}, {"idx": idx, "x": x, "y": y}
        outs = run(ftc, env, prog, "flat_dot", sizes, ins)
        check(outs, "s", np.dot(x[idx].astype(f64), y), f32)
        idx[n // 2] = m   # out of range: the other threads still reach the shuffles
        err = run(ftc, env, prog, "flat_dot", sizes, ins, expect_fail=True)
        if "index" not in err:
            raise Fail("a bad index gave no index error: " + err.strip()[-200:])

    # sizes: one thread, a partial warp, exactly one warp, warps + a partial
    # one, and more than 1024 (threads loop over several elements each)
    for n, m in ((1, 1), (3, 5), (2, 32), (4, 33), (2, 100), (1, 1500)):
        cases.append((f"rowsum[{n}x{m}]", lambda n=n, m=m: rowsum(n, m)))
    for n, m in ((1, 1), (3, 40), (2, 1100)):
        cases.append((f"rownorm_auto[{n}x{m}]", lambda n=n, m=m: rownorm_auto(n, m)))
    for n, m in ((1, 1), (2, 7), (3, 33)):
        cases.append((f"xy[{n}x{m}]", lambda n=n, m=m: xy(n, m)))
    for n, nb, nt in ((1, 1, 1), (1000, 3, 70), (4097, 2, 64), (50, 4, 31)):
        cases.append((f"dot[{n}/{nb}x{nt}]", lambda n=n, nb=nb, nt=nt: dot(n, nb, nt)))
    for n in (0, 1, 31, 65, 1200):
        cases.append((f"stats[{n}]", lambda n=n: stats(n)))
    for nr, n, per in ((1, 1, 1), (5, 7, 40), (3, 50, 300)):
        cases.append((f"spmv[{nr}x{n}/{per}]", lambda nr=nr, n=n, per=per: spmv(nr, n, per)))
    for n, m in ((1, 1), (37, 5), (5000, 300)):   # one block; blocks + a partial one
        cases.append((f"flat_dot[{n}x{m}]", lambda n=n, m=m: flat_dot(n, m)))
    if "--gpu" not in argv:
        # kernels whose registers allow 40 threads a block (a warp and a
        # partial one), fewer than their loops ask for: the launch must
        # take the kernel's limit (ft__max_threads) and still cover them
        lim = dict(env, FT_EMU_MAX_THREADS="40")
        cases += [("limit40/rowsum[2x100]", lambda: rowsum(2, 100, lim)),
                  ("limit40/rownorm_auto[2x1100]", lambda: rownorm_auto(2, 1100, lim)),
                  ("limit40/stats[1200]", lambda: stats(1200, lim)),
                  ("limit40/spmv[3x50/300]", lambda: spmv(3, 50, 300, lim))]
    return run_cases(cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
