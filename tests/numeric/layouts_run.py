#!/usr/bin/env python3
"""Declared layouts (issue 22): one source, many physical layouts.

    layouts_run.py PATH/TO/ftc SOURCE_ROOT

tests/numeric/layouts/net.ft (conv -> relu -> conv -> max-pool on logical
NCHW) is built with x and y in row-major, NHWC, CHWN, NCHW4c and NCHW8c
and the weights in OIHW, HWIO and OIHW4i4o (`-D XL=... -D WL=...`), with
and without the auto-scheduler.  The arrays are packed and unpacked here,
by NumPy (a padded reshape and a transpose: independent of ftc's pass and
of runtime/layout.c), and every output is checked against a NumPy float64
reference (1e-5) at 1, 2 and 4 threads; under --no-auto the outputs of all
layouts are equal bit for bit.  With C = 6 in NCHW4c, the pad lanes of y
are 0 (y is filled with NaN before the call).  `ftc run` packs a logical
.npy input and writes a logical output with --logical-out, and reads a
physical .npy as it is.  `x.layout` picks a variant (layouts/attr.ft).
The CUDA target's code of NCHW8c runs through tests/cuda/fake_nvcc;
with --gpu (tests/gpu/run) only the CUDA check runs, on the GPU, for every
layout pair with and without the auto-scheduler.

    layouts_run.py PATH/TO/ftc SOURCE_ROOT --gpu
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftlib  # noqa: E402

X_LAYOUTS = ["NCHW->NCHW", "NCHW->NHWC", "NCHW->CHWN", "NCHW->NCHW4c", "NCHW->NCHW8c"]
W_LAYOUTS = ["OIHW->OIHW", "OIHW->HWIO", "OIHW->OIHW4i4o"]


def parse(layout):
    """(logical letters, physical items): an item is (letter, None) for an
    outer part, (letter, size) for a block, in physical order."""
    logical, phys = layout.split("->")
    items = [(cap, None) if cap else (low.upper(), int(num))
             for num, low, cap in re.findall(r"(\d+)([a-z])|([A-Z])", phys)]
    return logical, items


def _split_axes(logical, items, shape):
    """The padded logical shape, the shape with each dimension split into
    its outer part and blocks (outer first, blocks in physical order), and
    the permutation of those axes into physical order."""
    blocks = {c: [b for (l, b) in items if l == c and b] for c in logical}
    split, where = [], {}
    padded = []
    for d, c in enumerate(logical):
        prod = int(np.prod(blocks[c])) if blocks[c] else 1
        n = -(-shape[d] // prod) * prod
        padded.append(n)
        where[(c, None)] = len(split)
        split.append(n // prod)
        for j, b in enumerate(blocks[c]):
            where[(c, j)] = len(split)
            split.append(b)
    perm, seen = [], {}
    for (c, b) in items:
        if b is None:
            perm.append(where[(c, None)])
        else:
            j = seen.get(c, 0)
            seen[c] = j + 1
            perm.append(where[(c, j)])
    return padded, split, perm


def pack(a, layout, fill=0):
    """The physical array of logical array a (pad elements = fill)."""
    logical, items = parse(layout)
    padded, split, perm = _split_axes(logical, items, a.shape)
    p = np.full(padded, fill, dtype=a.dtype)
    p[tuple(slice(0, n) for n in a.shape)] = a
    return np.ascontiguousarray(p.reshape(split).transpose(perm))


def unpack(p, layout, shape):
    """The logical array of shape `shape` stored as physical array p."""
    logical, items = parse(layout)
    padded, split, perm = _split_axes(logical, items, shape)
    inv = np.argsort(perm)
    a = p.transpose(inv).reshape(padded)
    return a[tuple(slice(0, n) for n in shape)]


def pad_mask(layout, shape):
    """True at the pad elements of the physical array of shape `shape`."""
    return np.isnan(pack(np.zeros(shape), layout, fill=np.nan))


def conv2d(x, w):
    """3x3 convolution, padding 1, stride 1 (float64)."""
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd))
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, kh:kh + h, kw:kw + wd], w[:, :, kh, kw])
    return out


def reference(x, w1, w2):
    b = conv2d(np.maximum(conv2d(x, w1), 0), w2)
    n, c, h, w = b.shape
    return b.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def build(ftc, src, out, args):
    """`ftc build src -o out ARGS`; the library's function net."""
    r = subprocess.run([ftc, "build", src, "-o", out] + args, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"FAIL build {' '.join(args)}:\n{r.stderr}")
    return ftlib.Library(out).func("net")


def run_net(fn, xl, wl, x, w1, w2, c):
    """Call fn on packed inputs; returns (logical y, physical y)."""
    n = x.shape[0]
    yshape = (n, c, 5, 5)
    phys = fn.shapes({"n": n})
    y = np.full(phys["y"], np.nan, dtype=np.float32)
    code = fn(n=n, x=pack(x, xl), w1=pack(w1, wl), w2=pack(w2, wl), y=y)
    if code:
        raise SystemExit(f"FAIL {xl} {wl}: returned {code}")
    return unpack(y, xl, yshape), y


def check_grid(ftc, src, tmp, rng, failures):
    """Every layout pair, with and without the auto-scheduler."""
    c = 16
    x = rng.standard_normal((2, c, 10, 10)).astype(np.float32)
    w1 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    w2 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    ref = reference(x.astype(np.float64), w1.astype(np.float64), w2.astype(np.float64))
    exact = {}
    for auto in (False, True):
        for xl in X_LAYOUTS:
            for wl in W_LAYOUTS:
                args = ["-D", f"XL={xl}", "-D", f"WL={wl}"] + ([] if auto else ["--no-auto"])
                lib = os.path.join(tmp, f"lib{X_LAYOUTS.index(xl)}{W_LAYOUTS.index(wl)}{auto}.so")
                fn = build(ftc, src, lib, args)
                for threads in (1, 2, 4):
                    ftlib.set_threads(threads)
                    y, _ = run_net(fn, xl, wl, x, w1, w2, c)
                    err = np.max(np.abs(y - ref) / (1 + np.abs(ref)))
                    if not err <= 1e-5:
                        failures.append(f"{xl} {wl} auto={auto} threads={threads}: "
                                        f"error {err:.3g}")
                    if not auto:
                        exact.setdefault(threads, []).append((xl, wl, y))
    for threads, ys in exact.items():
        for xl, wl, y in ys[1:]:
            if not np.array_equal(y, ys[0][2]):
                failures.append(f"--no-auto {xl} {wl} threads={threads}: not bit-equal "
                                f"to {ys[0][0]} {ys[0][1]}")
    print(f"grid: {len(X_LAYOUTS) * len(W_LAYOUTS)} layout pairs x auto/--no-auto x 1, 2, 4 "
          f"threads checked")


def check_no_division(ftc, src, failures):
    """The blocked builds index with bare iterators: no floor division or
    modulo left in net's C (with and without the auto-scheduler)."""
    for xl, wl in (("NCHW->NCHW8c", "OIHW->OIHW8i8o"), ("NCHW->NCHW4c", "OIHW->OIHW4i4o")):
        for auto in ([], ["--no-auto"]):
            r = subprocess.run([ftc, "build", src, "--emit=c", "-D", f"XL={xl}", "-D",
                                f"WL={wl}"] + auto, capture_output=True, text=True)
            body = r.stdout[r.stdout.find("int net("):]
            body = body[:body.find("\n}\n")]
            if r.returncode or not body or re.search(r"floordiv|ft__mod| / | % ", body):
                failures.append(f"{xl} {wl} {auto}: a division left in net's C")
    print("no division: NCHW8c/OIHW8i8o and NCHW4c/OIHW4i4o")


def check_pads(ftc, src, tmp, rng, failures):
    """C = 6 in NCHW4c: y's pad lanes (2 of each 4-block) written 0."""
    c, xl, wl = 6, "NCHW->NCHW4c", "OIHW->OIHW4i4o"
    x = rng.standard_normal((3, c, 10, 10)).astype(np.float32)
    w1 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    w2 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    ref = reference(x.astype(np.float64), w1.astype(np.float64), w2.astype(np.float64))
    for auto in (False, True):
        args = ["-D", "C=6", "-D", f"XL={xl}", "-D", f"WL={wl}"] + ([] if auto else ["--no-auto"])
        fn = build(ftc, src, os.path.join(tmp, f"libpad{auto}.so"), args)
        y, phys = run_net(fn, xl, wl, x, w1, w2, c)
        mask = pad_mask(xl, (3, c, 5, 5))
        if phys.shape != (3, 2, 5, 5, 4) or mask.sum() != 3 * 2 * 25:
            failures.append(f"pads: physical shape {phys.shape}, {mask.sum()} pads")
        elif not np.all(phys[mask] == 0):
            failures.append(f"pads auto={auto}: pad lanes of y not 0: {phys[mask][:8]}")
        err = np.max(np.abs(y - ref) / (1 + np.abs(ref)))
        if not err <= 1e-5:
            failures.append(f"pads auto={auto}: error {err:.3g}")
    print("pads: C=6 in NCHW4c, pad lanes of y are 0")


def check_run(ftc, src, tmp, rng, failures):
    """`ftc run`: a logical .npy is packed, a physical one taken as it is;
    --logical-out writes y logical, else physical."""
    c, xl, wl = 16, "NCHW->NCHW8c", "OIHW->OIHW4i4o"
    x = rng.standard_normal((2, c, 10, 10)).astype(np.float32)
    w = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    ref = reference(x.astype(np.float64), w.astype(np.float64), w.astype(np.float64))
    lib = os.path.join(tmp, "librun.so")
    build(ftc, src, lib, ["-D", f"XL={xl}", "-D", f"WL={wl}"])
    np.save(os.path.join(tmp, "x.npy"), x)
    np.save(os.path.join(tmp, "w.npy"), w)
    np.save(os.path.join(tmp, "wp.npy"), pack(w, wl))
    for wfile, logical_out in (("w.npy", True), ("wp.npy", False)):
        out = os.path.join(tmp, f"out{logical_out}")
        cmd = [ftc, "run", lib, "net", f"x={tmp}/x.npy", f"w1={tmp}/{wfile}",
               f"w2={tmp}/{wfile}", "--out-dir", out, "--no-print"]
        r = subprocess.run(cmd + (["--logical-out"] if logical_out else []),
                           capture_output=True, text=True)
        if r.returncode:
            failures.append(f"ftc run {wfile}: exit {r.returncode}: {r.stderr}")
            continue
        y = np.load(os.path.join(out, "y.npy"))
        if not logical_out:
            if y.shape != (2, 2, 5, 5, 8):
                failures.append(f"ftc run: physical y has shape {y.shape}")
                continue
            y = unpack(y, xl, (2, c, 5, 5))
        err = np.max(np.abs(y - ref) / (1 + np.abs(ref)))
        if not err <= 1e-5:
            failures.append(f"ftc run {wfile} logical_out={logical_out}: error {err:.3g}")
    bad = np.zeros((2, c, 10, 9), dtype=np.float32)
    np.save(os.path.join(tmp, "bad.npy"), bad)
    r = subprocess.run([ftc, "run", lib, "net", f"x={tmp}/bad.npy", f"w1={tmp}/w.npy",
                        f"w2={tmp}/w.npy", "--no-print"], capture_output=True, text=True)
    want = ("parameter 'x' (layout NCHW->NCHW8c): expected the logical shape [2, 16, 10, 10] "
            "or the physical shape [2, 2, 10, 10, 8], got [2, 16, 10, 9]")
    if r.returncode == 0 or want not in r.stderr:
        failures.append(f"ftc run with a wrong shape: exit {r.returncode}, {r.stderr!r}")
    print("ftc run: logical and physical inputs, --logical-out")


def check_cuda(ftc, root, src, tmp, rng, failures, gpu):
    """The CUDA target's code against the NumPy reference: on a GPU (--gpu,
    the real nvcc) every layout pair with and without the auto-scheduler;
    without one, NCHW8c / OIHW8i8o compiled for the CPU by
    tests/cuda/fake_nvcc."""
    c = 16
    x = rng.standard_normal((2, c, 10, 10)).astype(np.float32)
    w = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    ref = reference(x.astype(np.float64), w.astype(np.float64), w.astype(np.float64))
    np.save(os.path.join(tmp, "cx.npy"), x)
    np.save(os.path.join(tmp, "cw.npy"), w)
    env = dict(os.environ)
    cases = [(xl, wl, extra) for xl in X_LAYOUTS for wl in W_LAYOUTS + ["OIHW->OIHW8i8o"]
             for extra in ([], ["--no-auto"])]
    if not gpu:
        env["FTC_NVCC"] = os.path.join(root, "tests", "cuda", "fake_nvcc")
        cases = [("NCHW->NCHW8c", "OIHW->OIHW8i8o", [])]
    kind = "GPU" if gpu else "emulated"
    out = os.path.join(tmp, "cuda_out")
    for xl, wl, extra in cases:
        what = f"cuda ({kind}) {xl} {wl} {' '.join(extra)}"
        r = subprocess.run([ftc, "run", src, "net", f"x={tmp}/cx.npy", f"w1={tmp}/cw.npy",
                            f"w2={tmp}/cw.npy", "-D", f"XL={xl}", "-D", f"WL={wl}", "--target",
                            "cuda", "--logical-out", "--out-dir", out, "--no-print"] + extra,
                           capture_output=True, text=True, env=env)
        if r.returncode:
            failures.append(f"{what}: exit {r.returncode}: {r.stderr}")
            continue
        err = np.max(np.abs(np.load(os.path.join(out, "y.npy")) - ref) / (1 + np.abs(ref)))
        if not err <= 1e-5:
            failures.append(f"{what}: error {err:.3g}")
    print(f"cuda ({kind}): {len(cases)} builds of the net against NumPy")


MODES = {"bytes": [], "count": ["--layout-cost=count"], "local": ["--layout-mode=local"]}
# conversions of x per function, as --emit=layouts counts them, per mode
CONVERSIONS = {
    "layouts_fanout": {"bytes": [1, 2, 1], "count": [1, 3, 2], "local": [1, 3, 2]},
    "layouts_chain": {"bytes": [1, 0], "count": [1, 0], "local": [2, 2]},
    "layouts_hoist": {"bytes": [1], "count": [1], "local": [1]},
}


def emitted_layouts(ftc, src, args):
    """--emit=layouts of src: [(conversions, bytes, report lines)] per function."""
    r = subprocess.run([ftc, "build", src, "--emit=layouts"] + args, capture_output=True,
                       text=True)
    if r.returncode:
        raise SystemExit(f"FAIL --emit=layouts {src} {args}: {r.stderr}")
    funcs = []
    for line in r.stdout.splitlines():
        if line.startswith("func "):
            funcs.append([0, 0.0, []])
        funcs[-1][2].append(line)
        m = re.match(r"  total: (\d+) conversions?, (\d+) bytes", line)
        if m:
            funcs[-1][0], funcs[-1][1] = int(m.group(1)), float(m.group(2))
    return funcs


def check_corners(ftc, root, tmp, rng, failures):
    """layouts/conv_corners.ft: a conversion of a tensor the loop writes
    stays in the loop, one under a branch stays under it, a slice is
    copied (not shared with x), two requirements in a row compose; outputs
    against NumPy at 1, 2, 4 threads."""
    src = os.path.join(root, "tests", "numeric", "layouts", "conv_corners.ft")
    funcs = emitted_layouts(ftc, src, [])
    for k, fn in ((0, "written"), (1, "branchy")):
        if not any("inside loop s" in line and line.startswith("  convert") for line in funcs[k][2]):
            failures.append(f"corners: {fn}'s conversion left its loop")
    lib = os.path.join(tmp, "corners.so")
    subprocess.run([ftc, "build", src, "-o", lib], check=True)
    f = ftlib.Library(lib)
    x = rng.standard_normal((5, 6)).astype(np.float32)
    for threads in (1, 2, 4):
        ftlib.set_threads(threads)
        xx, y = x.copy(), np.zeros((5, 6), np.float32)
        f.func("written")(x=xx, y=y)
        outs = [("written", y, 8 * x), ("written x", xx, 8 * x)]
        for n in (5, 0):
            y = np.full((5, 6), np.nan, np.float32)
            f.func("branchy")(n=n, x=x, y=y)
            outs.append((f"branchy n={n}", y, 2 * x if n else 0 * x))
        y = np.full((3, 6), np.nan, np.float32)
        f.func("sliced")(x=x, y=y)
        outs.append(("sliced", y, 2 * x[1:4]))
        y = np.full((5, 6), np.nan, np.float32)
        f.func("chained")(x=x, y=y)
        outs.append(("chained", y, x + np.float32(1)))
        for what, got, want in outs:
            if not np.array_equal(got, want):
                failures.append(f"corners {what} threads={threads}: wrong output")


def check_cli(ftc, root, failures):
    """The layout flags' usage errors (exit 2, the flag named)."""
    src = os.path.join(root, "tests", "golden", "layouts_fanout.ft")
    for flag, want in ((["--layout-mode=foo"], "--layout-mode=foo: use global or local"),
                       (["--layout-cost=bits"], "--layout-cost=bits: use bytes or count"),
                       (["--size", "n"], "--size n: expected NAME=N with N >= 0"),
                       (["--size", "n=-4"], "--size n=-4: expected NAME=N with N >= 0"),
                       (["--emit=layout"], "--emit=layout: use --emit=c, --emit=deps or "
                                           "--emit=layouts")):
        r = subprocess.run([ftc, "build", src] + flag, capture_output=True, text=True)
        if r.returncode != 2 or want not in r.stderr:
            failures.append(f"{' '.join(flag)}: exit {r.returncode}, {r.stderr.strip()!r}")


def check_dense(ftc, root, tmp, rng, failures):
    """layouts/dense.ft: 26 locals each the sum of all before it, too dense
    for the exact solver's tables: ftc says it falls back, and the output
    is still right."""
    lib = os.path.join(tmp, "dense.so")
    r = subprocess.run([ftc, "build", os.path.join(root, "tests", "numeric", "layouts",
                                                   "dense.ft"), "-o", lib],
                       capture_output=True, text=True)
    if r.returncode or "a local optimum, not proven best" not in r.stderr:
        failures.append(f"dense: exit {r.returncode}, no fallback message: {r.stderr}")
        return
    x = rng.standard_normal((4, 8)).astype(np.float32)
    t = [x.astype(np.float64)]
    for _ in range(1, 26):
        t.append(0.5 * sum(t))
    y = np.full((4, 8), np.nan, np.float32)
    ftlib.Library(lib).func("dense")(x=pack(x, "NC->CN"), y=y)
    if not np.max(np.abs(y - t[-1]) / (1 + np.abs(t[-1]))) <= 1e-5:
        failures.append("dense: wrong y")


def check_conversions(ftc, root, tmp, rng, failures):
    """require_layout's conversions (tests/golden/layouts_*.ft) in the three
    modes: how many --emit=layouts counts, where the hoisted one runs, and
    the outputs against NumPy at 1, 2 and 4 threads."""
    gold = os.path.join(root, "tests", "golden")
    x = rng.standard_normal((2, 16, 5, 5)).astype(np.float32)
    x64 = x.astype(np.float64)
    fan = {"fan1": (2 * x64, x64 - 1, x64 * x64), "fan2": (2 * x64, 2 * x64, x64 + 1),
           "fan3": (2 * x64, 2 * x64, x64 * x64)}
    n = 37
    w = (rng.standard_normal((n, n)) * 0.3).astype(np.float32)
    h0 = rng.standard_normal(n).astype(np.float32)
    h_ref, h_bad = h0.astype(np.float64), h0.astype(np.float64)
    for _ in range(100):            # h_bad: what reading w transposed would give
        h_ref = np.tanh(w.astype(np.float64) @ h_ref)
        h_bad = np.tanh(w.astype(np.float64).T @ h_bad)
    # 100 f32 steps drift ~1e-3 from float64; a transposed read ~1 (asserted)
    if not np.max(np.abs(h_bad - h_ref)) > 0.1:
        failures.append("rnn: the test cannot tell w from its transpose")
    xc = rng.standard_normal((2, 16, 3, 3)).astype(np.float32)
    xg = rng.standard_normal((5, 16)).astype(np.float32)
    idx = np.array([4, 0, 2, 2, 1], np.int32)
    for mode, args in MODES.items():
        for name, want in CONVERSIONS.items():
            got = [c for c, _, _ in emitted_layouts(ftc, os.path.join(gold, name + ".ft"),
                                                     args + ["--size", "n=512"])]
            if got != want[mode]:
                failures.append(f"{name} {mode}: {got} conversions, expected {want[mode]}")
        hoisted = emitted_layouts(ftc, os.path.join(gold, "layouts_hoist.ft"), args)[0][2]
        runs = "100 runs, inside loop s" if mode == "local" else "1 run, at the top level"
        if not any(runs in line for line in hoisted):
            failures.append(f"hoist {mode}: the conversion of w does not run {runs}")
        libs = {}
        for name in ("layouts_fanout", "layouts_hoist", "layouts_chain", "layouts_prefer"):
            libs[name] = os.path.join(tmp, f"{name}_{mode}.so")
            r = subprocess.run([ftc, "build", os.path.join(gold, name + ".ft"), "-o",
                                libs[name]] + args, capture_output=True, text=True)
            if r.returncode:
                failures.append(f"build {name} {mode}: {r.stderr}")
                return
        for threads in (1, 2, 4):
            ftlib.set_threads(threads)
            lib = ftlib.Library(libs["layouts_fanout"])
            for fn, refs in fan.items():
                outs = [np.full(x.shape, np.nan, np.float32) for _ in range(3)]
                lib.func(fn)(x=pack(x, "NCHW->NHWC"), a=outs[0], b=outs[1], c=outs[2])
                for o, ref in zip(outs, refs):
                    if not np.max(np.abs(o - ref) / (1 + np.abs(ref))) <= 1e-6:
                        failures.append(f"{fn} {mode} threads={threads}: wrong output")
            h = h0.copy()
            ftlib.Library(libs["layouts_hoist"]).func("rnn")(n=n, w=w, h=h)
            if not np.max(np.abs(h - h_ref)) <= 5e-3:
                failures.append(f"rnn {mode} threads={threads}: error "
                                f"{np.max(np.abs(h - h_ref)):.3g}")
            lib = ftlib.Library(libs["layouts_prefer"])
            y = np.full(5, np.nan, np.float32)
            lib.func("gathered")(n=5, idx=idx, x=xg, y=y)
            if not np.max(np.abs(y - xg[idx].astype(np.float64).sum(1))) <= 1e-5:
                failures.append(f"gathered {mode} threads={threads}: wrong y")
            lib.func("copied")(n=5, x=xg, y=y)
            if not np.max(np.abs(y - 0.5 * xg.astype(np.float64).sum(1))) <= 1e-5:
                failures.append(f"copied {mode} threads={threads}: wrong y")
            lib = ftlib.Library(libs["layouts_chain"])
            for fn, xin in (("chain", xc), ("round_trip", pack(xc, "NCHW->NCHW8c"))):
                y = np.full(xc.shape, np.nan, np.float32)
                lib.func(fn)(x=xin, y=y)
                if not np.array_equal(y, xc * np.float32(3)):
                    failures.append(f"{fn} {mode} threads={threads}: y is not 3 x")
    check_dense(ftc, root, tmp, rng, failures)
    check_cli(ftc, root, failures)
    check_corners(ftc, root, tmp, rng, failures)
    for prog, fn, extra in (("layouts_fanout", "fan1", []), ("layouts_hoist", "rnn", ["n=5"])):
        wrt = "x" if fn == "fan1" else "w"      # a conversion's adjoint: the reverse copy
        r = subprocess.run([ftc, "gradcheck", os.path.join(gold, prog + ".ft"), fn, "wrt", wrt]
                           + extra, capture_output=True, text=True)
        if r.returncode or "largest relative error" not in r.stdout:
            failures.append(f"gradcheck {fn} wrt {wrt}: exit {r.returncode}: {r.stdout}{r.stderr}")
    print("conversions: fan-out 1/2/1 (count and local 1/3/2), chains composed, round trip "
          "cancelled, the weight's conversion hoisted; outputs in 3 modes x 1, 2, 4 threads; "
          "gradients through conversions")


def check_edges(ftc, root, tmp, rng, failures):
    """layouts/edge.ft with permuted, blocked and twice-blocked layouts,
    sizes 0 included, through `ftc run` (logical .npy in, --logical-out)."""
    src = os.path.join(root, "tests", "numeric", "layouts", "edge.ft")
    variants = (["AL=MK->MK", "BL=KN->KN", "ZL=NC->NC"], ["AL=MK->KM", "BL=KN->NK", "ZL=NC->CN"],
                ["AL=MK->MK2k", "BL=KN->K4nN", "ZL=NC->NC3c2n"])
    for n, m in ((5, 3), (0, 3), (4, 0), (7, 9)):
        a = rng.standard_normal((m, 8)).astype(np.float32)
        b = rng.standard_normal((8, n)).astype(np.float32)
        z = rng.standard_normal((n, m)).astype(np.float32)
        for name, v in (("a", a), ("b", b), ("z", z)):
            np.save(os.path.join(tmp, f"e{name}.npy"), v)
        for defs in variants:
            out = os.path.join(tmp, f"edge{n}{m}{variants.index(defs)}")
            r = subprocess.run([ftc, "run", src, "f", f"n={n}", f"m={m}", f"a={tmp}/ea.npy",
                                f"b={tmp}/eb.npy", f"z={tmp}/ez.npy", "--logical-out",
                                "--out-dir", out, "--no-print"]
                               + [x for d in defs for x in ("-D", d)],
                               capture_output=True, text=True)
            if r.returncode:
                failures.append(f"edge {defs} n={n} m={m}: {r.stderr}")
                continue
            got = {k: np.load(os.path.join(out, f"{k}.npy")) for k in ("c", "z", "r")}
            ok = (np.allclose(got["c"], a.astype(np.float64) @ b, atol=1e-5) and
                  np.array_equal(got["z"], z * 2 + 1) and np.array_equal(got["r"], a.ravel()))
            if not ok:
                failures.append(f"edge {defs} n={n} m={m}: wrong result")
    print("edges: permuted/blocked matmul operands, inout, local in a loop, sizes 0")


def check_grad(ftc, src, tmp, rng, failures):
    """`grad net wrt x, w1, w2` in NCHW4c / OIHW4i4o with C = 6: ftc
    gradcheck (f64, 1e-6) perturbs the logical elements only; d_x is
    physical with its pad lanes 0, and unpacked it equals the row-major
    build's d_x."""
    c, xl, wl = 6, "NCHW->NCHW4c", "OIHW->OIHW4i4o"
    flags = ["-D", "C=6", "-D", f"XL={xl}", "-D", f"WL={wl}"]
    r = subprocess.run([ftc, "gradcheck", src, "net", "wrt", "x", "w1", "w2", "n=2",
                        "--tol", "1e-6"] + flags, capture_output=True, text=True)
    for want in ("wrt x: 400 of 1200 elements", "wrt w1: 324 of 324 elements",
                 "wrt w2: 324 of 324 elements"):
        if r.returncode or want not in r.stdout:
            failures.append(f"gradcheck: exit {r.returncode}, no '{want}' in:\n{r.stdout}"
                            f"{r.stderr}")
    gsrc = os.path.join(tmp, "net_grad.ft")
    with open(src) as f, open(gsrc, "w") as g:
        g.write(f.read() + "\ngrad net wrt x, w1, w2 -> net_grad\n")
    x = rng.standard_normal((2, c, 10, 10)).astype(np.float32)
    w1 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    w2 = (rng.standard_normal((c, c, 3, 3)) * 0.3).astype(np.float32)
    dy = rng.standard_normal((2, c, 5, 5)).astype(np.float32)
    grads = []
    for name, lx, lw in (("rm", "NCHW->NCHW", "OIHW->OIHW"), ("blk", xl, wl)):
        lib = os.path.join(tmp, f"libgrad_{name}.so")
        build(ftc, gsrc, lib, ["-D", "C=6", "-D", f"XL={lx}", "-D", f"WL={lw}"])
        fn = ftlib.Library(lib).func("net_grad")
        shapes = fn.shapes({"n": 2})
        out = {k: np.full(shapes[k], np.nan, dtype=np.float32)
               for k in ("y", "d_x", "d_w1", "d_w2")}
        code = fn(n=2, x=pack(x, lx), w1=pack(w1, lw), w2=pack(w2, lw), d_y=pack(dy, lx),
                  **out)
        if code:
            failures.append(f"net_grad {name}: returned {code}")
            return
        if name == "blk":
            mask = pad_mask(lx, x.shape)
            if not np.all(out["d_x"][mask] == 0):
                failures.append(f"d_x pad lanes not 0: {out['d_x'][mask][:8]}")
        grads.append([unpack(out["d_x"], lx, x.shape), unpack(out["d_w1"], lw, w1.shape)])
    for a, b, what in zip(grads[0], grads[1], ("d_x", "d_w1")):
        err = np.max(np.abs(a - b) / (1 + np.abs(a)))
        if not err <= 1e-5:
            failures.append(f"{what} of NCHW4c differs from row-major's: {err:.3g}")
    print("grad: gradcheck on logical elements, d_x pad lanes 0")


def check_attr(ftc, root, tmp, rng, failures):
    """x.layout chooses a variant at compile time (attr.ft: y = 2x when x
    is NCHW8c, 3x otherwise)."""
    src = os.path.join(root, "tests", "numeric", "layouts", "attr.ft")
    x = rng.standard_normal((2, 16, 3, 3)).astype(np.float32)
    cases = (("NCHW->NCHW8c", 2), ("NCHW->NHWC", 3), ("NCHW->NCHW", 3))
    for i, (xl, k) in enumerate(cases):
        lib = os.path.join(tmp, f"libattr{i}.so")
        r = subprocess.run([ftc, "build", src, "-o", lib, "-D", f"XL={xl}"],
                           capture_output=True, text=True)
        if r.returncode:
            failures.append(f"attr {xl}: {r.stderr}")
            continue
        fn = ftlib.Library(lib).func("f")
        y = np.zeros(fn.shapes({})["y"], dtype=np.float32)
        fn(x=pack(x, xl), y=y)
        if not np.array_equal(unpack(y, xl, x.shape), x * k):
            failures.append(f"attr {xl}: y is not {k} x")
    print("attr: x.layout picks the variant")


def main():
    ftc, root = sys.argv[1], sys.argv[2]
    gpu = "--gpu" in sys.argv[3:]
    src = os.path.join(root, "tests", "numeric", "layouts", "net.ft")
    rng = np.random.default_rng(22)
    failures = []
    x = rng.standard_normal((3, 6, 5, 7))
    for xl in X_LAYOUTS + ["NCHW->NC4hHW2c3w"]:
        if not np.array_equal(unpack(pack(x, xl), xl, x.shape), x):
            failures.append(f"the test's own pack/unpack of {xl} does not round-trip")
    with tempfile.TemporaryDirectory() as tmp:
        if not gpu:
            check_grid(ftc, src, tmp, rng, failures)
            check_no_division(ftc, src, failures)
            check_pads(ftc, src, tmp, rng, failures)
            check_run(ftc, src, tmp, rng, failures)
            check_grad(ftc, src, tmp, rng, failures)
            check_attr(ftc, root, tmp, rng, failures)
            check_edges(ftc, root, tmp, rng, failures)
            check_conversions(ftc, root, tmp, rng, failures)
        check_cuda(ftc, root, src, tmp, rng, failures, gpu)
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
