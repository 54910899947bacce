#!/usr/bin/python3
"""Gradient checks (`ftc gradcheck`'s check, f64, largest relative error <
1e-6, on one build with 1, 2 and 4 threads: harness.gradcheck).

    /usr/bin/python3 tests/numeric/grad_run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

- The functions of tests/numeric/grad/stdlib_*.ft (each stdlib function
  and intrinsic, called on its own inputs; conv_chain: convolutions whose
  backward nests autodiff/gather.c splits and gathers; one function per file, as
  gradcheck compiles the whole file), wrt every float input.  The inputs are written here as .npy files: within one
  function every element has a distinct magnitude in [0.1, 1] (spacing
  0.9 / elements, far above gradcheck's steps of 1e-5) and a random sign, so
  no input sits on a kink (relu and abs at 0, ties of max/min and of the max
  pools); inputs named p* are positive ([0.5, 1.4]: ln, sqrt, pow's base,
  divisors).
- tests/numeric/grad/coef_steps.ft and coef_heat.ft wrt their scalar
  coefficients, large enough that the threads of the
  parallel loops overlap (issue 17's race on a 0-D sum across them).
- tests/numeric/grad/par_audit.ft (issue 17's audit of the passes that
  create or move accumulators across parallel loops: coefficients in time
  loops, 0-D parameters, lanes, scatters, CSR rows, shared weights) at 1, 2
  and 4 threads.
- The bench workloads (bench/ft: SubdivNet, Longformer, GAT, SoftRas) wrt
  every float input, on small inputs of bench/data.py (two seeds; and
  Longformer once with W = 8 and feat_len 300, so that auto_row_tile's
  tiles and rest both run), and
  tests/numeric/grad/branchy.ft (data-dependent branches, gathers and
  scatters through index tensors; three seeds), and
  tests/numeric/grad/overwrites.ft (scalars overwritten in straight-line
  code; three seeds).

Prints `ok NAME` or `FAIL NAME: why` per case, then `N passed, M failed`;
exits 1 if any case failed.
"""
import os
import re
import sys

import numpy as np

import harness as H

LIMIT = 1e-6

FTC, ROOT, FILTER, VERBOSE = H.parse_args(__doc__)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import data  # noqa: E402


def gradcheck(path, func, wrt, sizes, arrays, seed, defines=()):
    """gradcheck's check of FUNC in PATH wrt WRT with the given sizes, input
    arrays and output-weight seed, on one f64 build with 1, 2 and 4 threads
    (harness.gradcheck): fails unless the thread counts agree and every wrt
    tensor's largest relative error is below LIMIT at each."""
    return H.gradcheck(FTC, path, func, wrt, sizes, arrays, seed, defines, LIMIT, VERBOSE)


# --- the stdlib functions ---------------------------------------------------

GRAD = os.path.join(ROOT, "tests", "numeric", "grad")


def stdlib_inputs(text, func):
    """The float `in` parameters of FUNC in the .ft text: {name: shape}."""
    m = re.search(r"export func " + func + r"\((.*?)\):\n", text, re.S)
    params = {}
    for name, shape in re.findall(r"(\w+): f32(?:\[([^\]]*)\])? in", m.group(1)):
        params[name] = tuple(int(s) for s in shape.split(",")) if shape else ()
    return params


def stdlib_case(func, seed):
    """gradcheck of FUNC wrt every float input on kink-free inputs."""
    path = os.path.join(GRAD, f"stdlib_{func}.ft")
    params = stdlib_inputs(open(path).read(), func)
    rng = np.random.default_rng(seed)
    sizes = [int(np.prod(s)) for s in params.values()]
    total = sum(sizes)
    mags = 0.1 + 0.9 * (rng.permutation(total) + 0.5) / total
    arrays, at = {}, 0
    for (name, shape), n in zip(params.items(), sizes):
        v = mags[at:at + n]
        at += n
        v = v + 0.4 if name.startswith("p") else v * rng.choice([-1.0, 1.0], n)
        arrays[name] = v.reshape(shape)
    return gradcheck(path, func, list(params), {}, arrays, seed)


# --- the bench workloads and the branchy program ---------------------------

BENCH = os.path.join(ROOT, "bench", "ft")


def bench_case(name, make, kwargs, wrt, defines, seed):
    """gradcheck of bench/ft/NAME.ft wrt WRT on MAKE's data (data seed and
    output-weight seed SEED)."""
    sizes, arrays = make(**kwargs, seed=seed)
    return gradcheck(os.path.join(BENCH, name + ".ft"), name, wrt, sizes, arrays, seed, defines)


def branchy_case(seed):
    """tests/numeric/grad/branchy.ft: random idx (some repeated), x, w."""
    rng = np.random.default_rng(seed)
    n, m = 16, 6
    arrays = {"idx": rng.integers(0, m, n).astype(np.int32),
              "x": rng.uniform(-1, 1, m), "w": rng.uniform(-1, 1, n)}
    path = os.path.join(GRAD, "branchy.ft")
    return gradcheck(path, "branchy", ["x", "w"], {"n": n, "m": m}, arrays, seed)


def overwrites_case(seed):
    """tests/numeric/grad/overwrites.ft: random x, w (scalars overwritten
    in straight-line code, autodiff/versions.c)."""
    rng = np.random.default_rng(seed)
    n = 12
    arrays = {"x": rng.uniform(-1, 1, n), "w": rng.uniform(-1, 1, n)}
    path = os.path.join(GRAD, "overwrites.ft")
    return gradcheck(path, "overwrites", ["x", "w"], {"n": n}, arrays, seed)


def coef_case(name, sizes, arrays):
    """tests/numeric/grad/NAME.ft wrt its scalar coefficient (a 1-element
    tensor): the sum of its gradient across a parallel loop raced before it
    had a reduction clause (issue 17)."""
    path = os.path.join(GRAD, name + ".ft")
    coef = [k for k, v in arrays.items() if v.shape == (1,)]
    return gradcheck(path, name, coef, sizes, arrays, 1)


CASES = []
for fn in ("ew_binary", "ew_unary", "ew_special", "creation", "reductions", "linalg",
           "softmax_intrinsics", "conv", "pools", "activations", "statistics", "losses",
           "shape", "nn_more", "conv_chain"):
    CASES.append((f"stdlib/{fn}", lambda fn=fn: stdlib_case(fn, 1)))
BENCH_CASES = [
    ("subdivnet", data.make_subdivnet, dict(n_faces=20, in_feats=4, out_feats=3),
     ["e", "w0", "w1", "w2", "w3"], ()),
    ("longformer", data.make_longformer, dict(n_heads=2, seq_len=40, feat_len=8, dilation=2),
     ["q", "k", "v"], ("W=4",)),
    ("gat", data.make_gat, dict(n=40, avg_deg=4, feat_len=8),
     ["x", "weight", "attn_l", "attn_r"], ()),
    ("softras", data.make_softras, dict(n_faces=20, h=8, w=8), ["verts"], ()),
]
for name, make, kw, wrt, defs in BENCH_CASES:
    for s in (1, 2):
        CASES.append((f"bench/{name}[data seed {s}]",
                      lambda a=(name, make, kw, wrt, defs, s): bench_case(*a)))
# Longformer with a window of 17 (W = 8) and feat_len 300: auto_row_tile
# tiles both passes' feature loops (one tile of 256 and the rest of 44).
CASES.append(("bench/longformer[W=8, feat_len 300: row tiles, data seed 1]",
              lambda: bench_case("longformer", data.make_longformer,
                                 dict(n_heads=2, seq_len=12, feat_len=300, dilation=2),
                                 ["q", "k", "v"], ("W=8",), 1)))
_rng = np.random.default_rng(17)
# max_init.ft: distinct values (no ties: the gradient is defined), the
# maximum and minimum somewhere past the first element.
CASES.append(("max_init", lambda: gradcheck(
    os.path.join(GRAD, "max_init.ft"), "max_init", ["x", "w"], {"n": 9},
    {"x": np.array([0.1, 0.7, -0.3, 0.5, 0.2, -0.8, 0.4, 0.6, -0.1]),
     "w": np.array([0.9, 0.3, 0.8, -0.6, 0.5, 0.45, -0.7, 0.2, 0.35])}, 1)))
CASES.append(("coef_steps[100000 elements]", lambda: coef_case(
    "coef_steps", {"steps": 10, "n": 100000},
    {"x": _rng.uniform(-1, 1, 100000), "a": np.array([0.3])})))
CASES.append(("coef_heat[1500 x 1500]", lambda: coef_case(
    "coef_heat", {"steps": 2, "n": 1500},
    {"u0": _rng.uniform(-1, 1, (1500, 1500)), "c": np.array([0.2])})))


def par_audit_case(func, wrt, sizes, arrays):
    """tests/numeric/grad/par_audit.ft's FUNC wrt WRT (issue 17's audit of
    accumulators across parallel loops)."""
    path = os.path.join(GRAD, "par_audit.ft")
    return gradcheck(path, func, wrt, sizes, arrays, 1)


def par_audit_inputs(rng):
    """(function, wrt, sizes, arrays) of par_audit.ft's cases: sizes that
    make 4 threads overlap, outputs small enough for finite differences."""
    U = lambda lo, hi, *shape: rng.uniform(lo, hi, shape)
    n = 20000
    deg = rng.integers(0, 6, n)
    ptr = np.concatenate([[0], np.cumsum(deg)]).astype(np.int32)
    nnz = int(ptr[-1])
    return [
        ("coef_local", ["a", "x"], {"steps": 4, "n": 30000},
         {"x": U(-1, 1, 30000), "a": np.array([0.1])}),
        ("coef_params", ["a", "b"], {"steps": 4, "n": 30000},
         {"x": U(-1, 1, 30000), "a": np.array(0.1), "b": np.array(0.2)}),
        ("coef_cols", ["c"], {"steps": 3, "n": 3000, "m": 19},
         {"x": U(-1, 1, 3000, 19), "c": U(-0.3, 0.3, 19)}),
        ("coef_stencil", ["a"], {"steps": 3, "n": 40000},
         {"x": U(-1, 1, 40000), "a": np.array([0.2, 0.3])}),
        ("lanes_faces", ["a", "c"], {"n": 7, "w": 300, "h": 40},
         {"a": U(-1, 1, 7), "c": np.array([0.9])}),
        ("neighbours", ["e", "s"], {"n": 3000, "c": 8},
         {"adj": rng.integers(0, 3000, (3000, 3)).astype(np.int32), "e": U(-1, 1, 3000, 8),
          "s": np.array([0.5])}),
        ("csr_rows", ["w", "x"], {"n": n, "nnz": nnz},
         {"ptr": ptr, "col": rng.integers(0, 50, nnz).astype(np.int32), "w": U(-1, 1, nnz),
          "x": U(-1, 1, n)}),
        ("shared_weights", ["w", "b", "x"], {"n": 20000, "m": 24},
         {"x": U(-1, 1, 20000, 24), "w": U(-0.2, 0.2, 24), "b": np.array([0.1])}),
    ]


for _f, _wrt, _sizes, _arrays in par_audit_inputs(np.random.default_rng(171)):
    CASES.append((f"par_audit/{_f}", lambda a=(_f, _wrt, _sizes, _arrays): par_audit_case(*a)))
for s in (1, 2, 3):
    CASES.append((f"branchy[seed {s}]", lambda s=s: branchy_case(s)))
    CASES.append((f"overwrites[seed {s}]", lambda s=s: overwrites_case(s)))


if __name__ == "__main__":
    sys.exit(H.run_cases(CASES, FILTER))
