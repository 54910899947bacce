#!/usr/bin/python3
"""BLAS calls split to fit BLAS's int (issue 17, item 7), against NumPy.

    /usr/bin/python3 tests/numeric/gemm_chunk_run.py PATH/TO/ftc SOURCE_ROOT [--cuda] [-v]

A product with more than INT_MAX rows, columns or depth, or a leading
dimension past INT_MAX, cannot be passed to BLAS in one call (its sizes are
ints: OpenBLAS prints "parameter number 3 had an illegal value" and
computes nothing).  The C backend's gemm helper splits such products
(backend/cg_gemm.c); its limits are FT__GEMM_CHUNK (rows, columns, depth)
and FT__GEMM_LD_LIMIT (leading dimensions), INT_MAX unless the C compiler
gets -D.  Without allocating 2^31 rows, each case builds an as_lib program
(the tests/golden/as_lib_* programs: no transposes, transposes with alpha
and beta = 1, a transposed output, a batch) with small limits, and runs it
under a fake BLAS (a shim compiled here) whose int is just as
small: it prints an error and computes nothing for a size past its
FAKE_BLAS_INT_MAX, as OpenBLAS does past INT_MAX, and otherwise calls the
real cblas_?gemm.  The shim is found as libopenblas.so.0 through
LD_LIBRARY_PATH (not LD_PRELOAD, which AddressSanitizer refuses in the
sanitizer rerun).  With --cuda the same on the CUDA backend through
tests/cuda/fake_nvcc, whose emulated cuBLAS refuses sizes past
$FT_EMU_BLAS_INT_MAX / $FT_EMU_BLAS_LD_MAX (the call then fails with a
located CUDA runtime error).  Outputs are compared with NumPy in float64.  Without
the split (on ftc before issue 17) the shim refuses the calls and the
outputs are wrong.

Prints one line per case, then `N passed, M failed`; exits 1 on a failure.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

VERBOSE = "-v" in sys.argv
CUDA = "--cuda" in sys.argv
ARGS = [a for a in sys.argv[1:] if a not in ("-v", "--cuda")]
FTC, ROOT = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])
GOLDEN = os.path.join(ROOT, "tests", "golden")

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* A BLAS whose int holds at most FAKE_BLAS_INT_MAX as a size and
 * FAKE_BLAS_LD_MAX as a leading dimension: past them, print and compute
 * nothing (as OpenBLAS does past INT_MAX). */
static long fake_env(const char *name)
{
    const char *s = getenv(name);
    return s ? atol(s) : 2147483647L;
}

static int fake_refuses(int m, int n, int k, int lda, int ldb, int ldc)
{
    long lim = fake_env("FAKE_BLAS_INT_MAX"), ldl = fake_env("FAKE_BLAS_LD_MAX");
    if (m > lim || n > lim || k > lim || lda > ldl || ldb > ldl || ldc > ldl) {
        fprintf(stderr, "fake BLAS: a size past its int (m %d n %d k %d lda %d ldb %d "
                "ldc %d)\n", m, n, k, lda, ldb, ldc);
        return 1;
    }
    return 0;
}

/* The real function, from the real OpenBLAS ($REAL_OPENBLAS: its path;
 * this shim stands in for it under its soname). */
static void *real_blas(const char *name)
{
    static void *h;
    const char *path = getenv("REAL_OPENBLAS");
    if (!h && path)
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *f = h ? dlsym(h, name) : NULL;
    if (!f) {
        fprintf(stderr, "fake BLAS: no real %s\n", name);
        abort();
    }
    return f;
}

#define FAKE(NAME, T)                                                                       \
    void NAME(int o, int ta, int tb, int m, int n, int k, T al, const T *a, int lda,        \
              const T *b, int ldb, T be, T *c, int ldc)                                     \
    {                                                                                       \
        typedef void (*fn)(int, int, int, int, int, int, T, const T *, int, const T *, int, \
                           T, T *, int);                                                    \
        if (fake_refuses(m, n, k, lda, ldb, ldc))                                           \
            return;                                                                         \
        ((fn)real_blas(#NAME))(o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc); \
    }
FAKE(cblas_sgemm, float)
FAKE(cblas_dgemm, double)
"""


class Fail(Exception):
    pass


def sh(args, cwd, env=None):
    r = subprocess.run(args, cwd=cwd, env=dict(os.environ, **(env or {})), capture_output=True,
                       text=True, timeout=600)
    if VERBOSE:
        print("$", " ".join(args), "->", r.returncode, "\n" + r.stdout + r.stderr)
    if r.returncode != 0:
        raise Fail(f"`{' '.join(args)}` exited {r.returncode}:\n{r.stderr[-2000:]}")
    return r


def rng_arrays(shapes, dtypes, seed):
    g = np.random.default_rng(seed)
    return {k: g.uniform(-1, 1, size=s).astype(dtypes[k]) for k, s in shapes.items()}


def ref_acc(x, m, n, k):
    return {"c": x["a"].astype(np.float64) @ x["b"].astype(np.float64)}


def ref_trans_alpha(x, m, n, k):
    a, b = x["a"].astype(np.float64), x["b"].astype(np.float64)
    return {"c": 1 + float(x["s"][0]) * (a.T @ b.T)}


def ref_out_transposed(x, m, n, k):
    return {"c": (x["a"] @ x["b"]).T}


def ref_batch(x, m, n, k):
    return {"c": np.einsum("ij,bjk->bik", x["a"].astype(np.float64),
                           x["b"].astype(np.float64))}


# (program, function, sizes or None, input shapes from (m, n, k), dtypes, reference)
PROGS = [
    ("as_lib_acc", "matmul", True, lambda m, n, k: {"a": (m, k), "b": (k, n)},
     {"a": np.float32, "b": np.float32}, ref_acc),
    ("as_lib_trans_alpha", "f", True, lambda m, n, k: {"s": (1,), "a": (k, m), "b": (n, k)},
     {"s": np.float32, "a": np.float32, "b": np.float32}, ref_trans_alpha),
    ("as_lib_out_transposed", "f", True, lambda m, n, k: {"a": (m, k), "b": (k, n)},
     {"a": np.float64, "b": np.float64}, ref_out_transposed),
    ("as_lib_batch", "f", False, lambda m, n, k: {"a": (8, 16), "b": (4, 16, 8)},
     {"a": np.float32, "b": np.float32}, ref_batch),
]

# (name, -D defines, fake BLAS's int for sizes, for leading dimensions)
LIMITS = [
    ("one call", "", None, None),
    ("blocks of 3, depth summed", "-DFT__GEMM_CHUNK=3", "3", None),
    ("blocks of 2, a row a call for leading dims past 3",
     "-DFT__GEMM_CHUNK=2 -DFT__GEMM_LD_LIMIT=3", "2", "3"),
    ("blocks of 1", "-DFT__GEMM_CHUNK=1 -DFT__GEMM_LD_LIMIT=1", "1", "1"),
]


def case(d, shim, prog, func, sized, shapes, dtypes, ref, defines, fake, fake_ld):
    m, n, k = 7, 5, 11
    x = rng_arrays(shapes(m, n, k), dtypes, 17)
    argv = [f"{name}={name}.npy" for name in x]
    for name, arr in x.items():
        np.save(os.path.join(d, name + ".npy"), arr)
    if sized:
        argv += [f"m={m}", f"n={n}", f"k={k}"]
    out = os.path.join(d, "out")
    pre = "FT_EMU_BLAS_" if CUDA else "FAKE_BLAS_"
    env = {pre + "INT_MAX": fake or "2147483647", pre + "LD_MAX": fake_ld or "2147483647"}
    if CUDA:
        env.update(FTC_NVCC=os.path.join(ROOT, "tests", "cuda", "fake_nvcc"),
                   FTC_NVCCFLAGS="-O1 " + defines)
        flags = ["--target", "cuda"]
    else:
        env["LD_LIBRARY_PATH"] = os.path.dirname(shim) + ":" + os.environ.get("LD_LIBRARY_PATH", "")
        env["REAL_OPENBLAS"] = real_openblas()
        flags = ["--cflags", "-O1 -fopenmp " + defines]
    r = sh([FTC, "run", os.path.join(GOLDEN, prog + ".ft"), func] + argv
           + ["--out-dir", out, "--no-print"] + flags, d, env)
    if "fake BLAS" in r.stderr:
        raise Fail("a BLAS call was past the fake BLAS's int:\n" + r.stderr[-1000:])
    for name, want in ref(x, m, n, k).items():
        got = np.load(os.path.join(out, name + ".npy")).astype(np.float64)
        err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
        if got.shape != want.shape or not err < 1e-5:
            raise Fail(f"{name}: relative error {err:.3g} against NumPy")


def real_openblas():
    """The path of the system's libopenblas.so.0 (ldconfig's cache)."""
    r = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        name, _, path = line.strip().partition(" => ")
        if name.startswith("libopenblas.so.0 ") and "64" in name:
            return path.strip()
    raise Fail("no libopenblas.so.0 in ldconfig's cache")


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ftc-gemm-") as top:
        os.mkdir(os.path.join(top, "shim"))
        shim = os.path.join(top, "shim", "libopenblas.so.0")
        with open(os.path.join(top, "fakeblas.c"), "w") as f:
            f.write(SHIM)
        sh(["cc", "-shared", "-fPIC", "-O1", "-Wl,-soname,libopenblas.so.0", "-o", shim,
            "fakeblas.c", "-ldl"], top)
        for prog, func, sized, shapes, dtypes, ref in PROGS:
            for lname, defines, fake, fake_ld in LIMITS:
                name = f"{prog} ({lname}){' (cuda)' if CUDA else ''}"
                with tempfile.TemporaryDirectory(dir=top) as d:
                    try:
                        case(d, shim, prog, func, sized, shapes, dtypes, ref, defines, fake,
                             fake_ld)
                        print("ok", name)
                        passed += 1
                    except Fail as e:
                        print(f"FAIL {name}: {e}")
                        failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
