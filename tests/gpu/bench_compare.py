#!/usr/bin/python3
"""The four benchmark workloads, forward and gradient, on the GPU against
the CPU.

    /usr/bin/python3 tests/gpu/bench_compare.py PATH/TO/ftc SOURCE_ROOT [-k NAME]

For each workload of bench/ft (SubdivNet, Longformer, SoftRas, GAT), on
small inputs from bench/data.py: builds bench/ft/NAME.ft and its gradient
(the file with its `# bench-grad:` line appended, as bench/run does) for
the C target and for --target cuda, calls all four libraries on the same
inputs (the gradients with the same random output gradients), and
compares every output and gradient of the CUDA build with the C build's:
max|gpu - cpu| / max|cpu| < 1e-4 (SoftRas 5e-3), bench/workloads.py's
RTOL.  A gradient that ftc's autodiff does not support yet (`ftc check`
says "not supported yet") is reported as `skip`.  nvcc is $FTC_NVCC, else
ftc's default; FTC_NVCC=tests/cuda/fake_nvcc runs this without a GPU.
Prints `ok`/`skip`/`FAIL` per case, then `N passed, M failed`; exits 1
when any case failed.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

FTC = os.path.abspath(sys.argv[1]) if len(sys.argv) > 2 else sys.exit(__doc__)
ROOT = os.path.abspath(sys.argv[2])
ONLY = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else ""
sys.path.insert(0, os.path.join(ROOT, "bench"))

import data  # noqa: E402
import workloads as WL  # noqa: E402

# (workload, maker, kwargs): sizes past one warp and one block of threads
CASES = [
    ("subdivnet", data.make_subdivnet, dict(n_faces=320, in_feats=13, out_feats=8)),
    ("longformer", data.make_longformer,
     dict(n_heads=2, seq_len=100, feat_len=16, n_dilated=1, dilation=2)),
    ("softras", data.make_softras, dict(n_faces=80, h=16, w=16)),
    ("gat", data.make_gat, dict(n=200, avg_deg=5, feat_len=8)),
]


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def build(src, lib, cuda):
    args = [FTC, "build", src, "-o", lib] + (["--target", "cuda"] if cuda else [])
    r = subprocess.run(args, capture_output=True, text=True, errors="replace", timeout=900)
    if r.returncode != 0:
        if "not supported yet" in r.stderr:
            line = [l for l in r.stderr.splitlines() if "not supported yet" in l][0]
            raise Skip(line.split("error: ", 1)[-1])
        raise Fail(f"ftc build{' --target cuda' if cuda else ''} {os.path.basename(src)}: "
                   + r.stderr.strip()[-600:])


def compare(what, cpu, gpu, rtol):
    for k in cpu:
        e = WL.rel_err(gpu[k], cpu[k])
        if not e < rtol:
            raise Fail(f"{what} {k}: GPU vs CPU error {e:.2e} >= {rtol:.0e}")
    return max((WL.rel_err(gpu[k], cpu[k]) for k in cpu), default=0.0)


def forward(name, s, a, tmp):
    src = os.path.join(ROOT, "bench", "ft", name + ".ft")
    res = {}
    for cuda in (False, True):
        lib = os.path.join(tmp, f"lib{name}_{'gpu' if cuda else 'cpu'}.so")
        build(src, lib, cuda)
        call, out = WL.CFunc(lib, name).prepare(s, a)
        call()
        res[cuda] = out
    return compare("forward", res[False], res[True], WL.RTOL[name])


def gradient(name, s, a, tmp):
    src = os.path.join(ROOT, "bench", "ft", name + ".ft")
    text = open(src).read()
    gsrc = os.path.join(tmp, name + "_grad.ft")
    gname = WL.grad_program(text, gsrc)
    if not gname:
        raise Skip("no bench-grad line")
    rng = np.random.default_rng(11)
    d_outs = {o: rng.uniform(-1, 1, sh).astype(np.float32)
              for o, sh in WL.out_shapes(name, s).items()}
    res = {}
    for cuda in (False, True):
        lib = os.path.join(tmp, f"lib{name}_grad_{'gpu' if cuda else 'cpu'}.so")
        build(gsrc, lib, cuda)
        call, out = WL.CFunc(lib, name, symbol=gname, grad=True).prepare(s, a, d_outs)
        call()
        res[cuda] = out
    return compare("gradient", res[False], res[True], WL.RTOL[name])


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ftc-gpu-bench-") as tmp:
        for name, maker, kw in CASES:
            if ONLY and ONLY not in name:
                continue
            s, a = maker(**kw)
            for kind, fn in (("forward", forward), ("gradient", gradient)):
                try:
                    err = fn(name, s, a, tmp)
                    print(f"ok {name} {kind} (GPU vs CPU error {err:.1e})", flush=True)
                    passed += 1
                except Skip as e:
                    print(f"skip {name} {kind}: {e}", flush=True)
                except (Fail, RuntimeError) as e:
                    print(f"FAIL {name} {kind}: {e}", flush=True)
                    failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
