#!/usr/bin/python3
"""Numeric cross-check of issue 7's benchmark workloads on tiny sizes.

    /usr/bin/python3 tests/numeric/bench_check.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

For each workload of bench/ (SubdivNet, Longformer, SoftRas, GAT): builds
bench/ft/NAME.ft with ftc and bench/handc/NAME.c with the C compiler
($CC, else cc; -O3 -march=native -fopenmp), runs both on tiny inputs from
bench/data.py (1 and 2 OpenMP threads) and compares them with the float64
NumPy reference of bench/workloads.py and with each other:
max|a - b| / max|b| < 1e-4 (SoftRas 5e-3).  No PyTorch (bench/run adds it).
A workload with a float64 gradient reference (workloads.GRAD_REF: GAT) also
has its gradient built (the program plus its `bench-grad:` line) and run
with 1 and 2 threads against that reference (the parallel backward pass's
atomic scatters included).

Prints one line per case (`ok NAME` or `FAIL NAME: why`), then
`N passed, M failed`; exits 1 if any case failed.
"""
import os
import sys
import tempfile

import numpy as np

import harness as H
from harness import Fail

FTC, ROOT, FILTER, VERBOSE = H.parse_args(__doc__)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import data  # noqa: E402
import workloads as WL  # noqa: E402

CC = os.environ.get("CC", "cc")

# (case name, workload, maker, kwargs, -D constants)
CASES = [
    ("subdivnet[cube 192 faces, 13->8]", "subdivnet", data.make_subdivnet,
     dict(n_faces=192, in_feats=13, out_feats=8), {}),
    ("subdivnet[ico 320 faces, 64->64]", "subdivnet", data.make_subdivnet,
     dict(n_faces=320, in_feats=64, out_feats=64), {}),
    ("subdivnet[ico 20 faces, 1->3]", "subdivnet", data.make_subdivnet,
     dict(n_faces=20, in_feats=1, out_feats=3), {}),
    ("longformer[3 heads x 100 x 16, dil 2 on 1]", "longformer", data.make_longformer,
     dict(n_heads=3, seq_len=100, feat_len=16, n_dilated=1, dilation=2), {}),
    ("longformer[4 heads x 300 x 24, dil 4 on 2]", "longformer", data.make_longformer,
     dict(n_heads=4, seq_len=300, feat_len=24), {}),
    ("longformer[2 heads x 1 x 8]", "longformer", data.make_longformer,
     dict(n_heads=2, seq_len=1, feat_len=8, n_dilated=1), {}),
    ("softras[80 faces, 16x16]", "softras", data.make_softras,
     dict(n_faces=80, h=16, w=16), {}),
    ("softras[320 faces, 24x20]", "softras", data.make_softras,
     dict(n_faces=320, h=24, w=20), {}),
    ("gat[200 nodes, deg ~5]", "gat", data.make_gat, dict(n=200, avg_deg=5), {}),
    ("gat[3000 nodes, deg ~12, feat 8]", "gat", data.make_gat,
     dict(n=3000, avg_deg=12, feat_len=8), {}),
]


def sh(args, env=None):
    """Run ARGS; the completed process (a Fail unless it exits 0)."""
    return H.sh(args, env, VERBOSE)


LIBS = {}
GRAD_LIBS = {}


def grad_lib(name, tmp):
    """Build bench/ft/NAME.ft plus its bench-grad line; (library, symbol)."""
    if name not in GRAD_LIBS:
        src = open(os.path.join(ROOT, "bench", "ft", name + ".ft")).read()
        gsrc = os.path.join(tmp, f"{name}_grad.ft")
        symbol = WL.grad_program(src, gsrc)
        lib = os.path.join(tmp, f"libft_{name}_grad.so")
        sh([FTC, "build", gsrc, "-o", lib])
        GRAD_LIBS[name] = (lib, symbol)
    return GRAD_LIBS[name]


def libs(name, tmp):
    if name not in LIBS:
        ft = os.path.join(tmp, f"libft_{name}.so")
        sh([FTC, "build", os.path.join(ROOT, "bench", "ft", name + ".ft"), "-o", ft])
        hc = os.path.join(tmp, f"libhandc_{name}.so")
        sh([CC, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", "-o", hc,
            os.path.join(ROOT, "bench", "handc", name + ".c"), "-lm"])
        LIBS[name] = (ft, hc)
    return LIBS[name]


def run_child(lib, name, s, a, threads, symbol=None, d_outs=None):
    """Call the library in a child process (OMP_NUM_THREADS takes effect
    at load time), return its outputs; with d_outs, the gradient symbol."""
    with tempfile.TemporaryDirectory(prefix="ftc-bench-check-") as d:
        np.savez(os.path.join(d, "in.npz"), **a)
        np.savez(os.path.join(d, "dout.npz"), **(d_outs or {}))
        code = (
            "import sys, numpy as np\n"
            f"sys.path.insert(0, {os.path.join(ROOT, 'bench')!r})\n"
            "import workloads as WL\n"
            f"a = dict(np.load({os.path.join(d, 'in.npz')!r}))\n"
            f"dout = dict(np.load({os.path.join(d, 'dout.npz')!r}))\n"
            f"call, res = WL.CFunc({lib!r}, {name!r}, symbol={symbol!r}, "
            f"grad={d_outs is not None}).prepare({s!r}, a, dout)\n"
            "call()\n"
            f"np.savez({os.path.join(d, 'out.npz')!r}, **res)\n")
        sh([sys.executable, "-c", code], env=dict(os.environ, OMP_NUM_THREADS=str(threads)))
        return dict(np.load(os.path.join(d, "out.npz")))


def check_case(name, maker, kw, tmp):
    s, a = maker(**kw)
    ref = WL.REF[name](s, a)
    rtol = WL.RTOL[name]
    ft, hc = libs(name, tmp)
    got = {}
    for who, lib in (("ftc", ft), ("handc", hc)):
        for t in (1, 2):
            got[(who, t)] = run_child(lib, name, s, a, t)
    for key, res in got.items():
        for o, r in ref.items():
            e = WL.rel_err(res[o], r)
            if not e < rtol:
                raise Fail(f"{key[0]} ({key[1]} threads) {o}: error {e:.2e} vs NumPy >= {rtol:.0e}")
    for o in ref:
        e = WL.rel_err(got[("ftc", 2)][o], got[("handc", 1)][o])
        if not e < rtol:
            raise Fail(f"ftc vs hand C {o}: error {e:.2e} >= {rtol:.0e}")
    if name in WL.GRAD_REF:
        check_grad(name, s, a, tmp)
    if name == "softras":
        img = ref["img"]
        if not (img.min() < 0.01 and img.max() > 0.99 and np.any((img > 0.01) & (img < 0.99))):
            raise Fail("softras: the test image has no inside, outside and soft-edge pixels")


def check_grad(name, s, a, tmp):
    """The gradient (1 and 2 threads) against the float64 reference."""
    lib, sym = grad_lib(name, tmp)
    rng = np.random.default_rng(7)
    d_outs = {o: rng.standard_normal(sh).astype(np.float32)
              for o, sh in WL.out_shapes(name, s).items()}
    ref = WL.GRAD_REF[name](s, a, d_outs)
    for t in (1, 2):
        got = run_child(lib, name, s, a, t, symbol=sym, d_outs=d_outs)
        for o, r in ref.items():
            e = WL.rel_err(got[o], r)
            if not e < WL.RTOL[name]:
                raise Fail(f"ftc gradient ({t} threads) {o}: error {e:.2e} vs NumPy "
                           f">= {WL.RTOL[name]:.0e}")


def main():
    with tempfile.TemporaryDirectory(prefix="ftc-bench-check-") as tmp:
        return H.run_cases([(cname, lambda a=(name, maker, kw, tmp): check_case(*a))
                            for cname, name, maker, kw, _ in CASES], FILTER)


if __name__ == "__main__":
    sys.exit(main())
