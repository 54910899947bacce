#!/usr/bin/python3
"""Numeric tests of the standard library (stdlib/*.ft) against NumPy.

    /usr/bin/python3 tests/numeric/stdlib_run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

The programs in tests/numeric/stdlib/ call every stdlib function, in its
allocating and in-place forms, on several shapes (0-D and broadcasting ones
included).  Each program is built once per set of -D constants with
`ftc build`; each case then calls one exported function with `ftc run LIB
FUNC name=x.npy ... --out-dir D --no-print` and compares the outputs with a
NumPy reference (conv2d and the pools: written here from their definition).
Output is as tests/numeric/run.py's: one line per case, then
`N passed, M failed`; exits 1 if any case failed.
"""
import os
import sys
import tempfile
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as H                     # noqa: E402
import stdlib_ops as OPS                # noqa: E402
import run as base                      # noqa: E402  (close, exact, Fail)

Fail, close, exact, get = base.Fail, base.close, base.exact, base.get

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


# --- running ftc ---------------------------------------------------------

LIBS = {}          # (program, defines) -> built library, or the Fail of its build


def build(prog, defines):
    """Build PROG with the -D constants DEFINES once; the library's path (a
    failed build fails every case that needs it, with the same message)."""
    key = (prog, tuple(sorted(defines.items())))
    if key not in LIBS:
        stem = os.path.splitext(os.path.basename(prog))[0]
        lib = os.path.join(WORK, f"lib{stem}{len(LIBS)}.so")
        try:
            H.sh([FTC, "build", prog, "-o", lib] + [f"-D{k}={v}" for k, v in defines.items()])
            LIBS[key] = lib
        except Fail as e:
            LIBS[key] = e
    if isinstance(LIBS[key], Fail):
        raise LIBS[key]
    return LIBS[key]


def ftc_run(file, func, inputs, sizes=None, defines=None):
    """Run FUNC of tests/numeric/stdlib/FILE with the given input arrays
    (and sizes, for those the shapes do not give); return the dict of its
    out/inout arrays."""
    lib = build(os.path.join(ROOT, "tests", "numeric", "stdlib", file), defines or {})
    return H.ftc_run(FTC, lib, func, sizes or {}, inputs, verbose=base.VERBOSE)


# --- comparing -------------------------------------------------------------

def check(outs, name, ref, dtype, rtol=base.RTOL):
    """close() for floats, exact() for integers and bools."""
    if np.issubdtype(np.dtype(dtype), np.floating):
        close(outs, name, ref, dtype, rtol)
    else:
        exact(outs, name, np.asarray(ref).astype(dtype), dtype)


def check_stack(outs, name, labels, refs, dtype, rtol=base.RTOL):
    """Output NAME stacks one result per label along dimension 0; each is
    compared on its own (its own relative error)."""
    got = get(outs, name)
    if got.shape[:1] != (len(refs),):
        raise Fail(f"{name}: got shape {list(got.shape)}, want {len(refs)} results")
    bad = []
    for k, (label, ref) in enumerate(zip(labels, refs)):
        try:
            check({label: got[k]}, label, ref, dtype, rtol)
        except Fail as e:
            bad.append(f"{name}[{k}] {e}")
    if bad:
        raise Fail("; ".join(bad))


def rng_for(*key):
    """A generator seeded by the case (the same in every run)."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def nonzero(rng, shape, dtype=f32):
    """Values of magnitude 0.25 .. 2 with random signs (safe divisors)."""
    return (rng.uniform(0.25, 2, shape) * rng.choice([-1, 1], shape)).astype(dtype)


# --- the cases -----------------------------------------------------------

CASES = []


def case(name, fn, *args, **kw):
    CASES.append((name, lambda: fn(*args, **kw)))


# elementwise.ft

BIN = ["add", "sub", "mul", "truediv", "floordiv", "mod", "maximum", "minimum", "pow"]
UN = ["neg", "abs", "sqrt", "exp", "ln", "sin", "cos", "tanh", "sigmoid", "floor", "ceil",
      "square", "relu", "tan", "erf", "log1p", "expm1"]
UN_FLOAT = ["tan", "erf", "log1p", "expm1"]     # also of integers, in f32
np_erf = base.np_erf                            # math.erf element by element


def bin_refs(a, b, p):
    """References of BIN; floordiv and mod in the operands' own dtype, as
    tests/numeric/run.py (Python's rules, which NumPy follows)."""
    ad, bd, pd = a.astype(f64), b.astype(f64), p.astype(f64)
    return [ad + bd, ad - bd, ad * bd, ad / bd, np.floor_divide(a, b), np.mod(a, b),
            np.maximum(ad, bd), np.minimum(ad, bd), pd ** bd]


def un_refs(x, p):
    xd, pd = x.astype(f64), p.astype(f64)
    return [-xd, np.abs(xd), np.sqrt(pd), np.exp(xd), np.log(pd), np.sin(xd), np.cos(xd),
            np.tanh(xd), 1 / (1 + np.exp(-xd)), np.floor(xd), np.ceil(xd), np.square(xd),
            np.maximum(xd, 0), np.tan(xd * 0.5), np_erf(xd), np.log1p(pd), np.expm1(xd)]


def binary(func, sa, sb, sizes=None):
    rng = rng_for(func, sa, sb)
    a, b = nonzero(rng, sa), nonzero(rng, sb)
    p = rng.uniform(0.5, 2, sa).astype(f32)
    outs = ftc_run("elementwise.ft", func, {"a": a, "b": b, "p": p}, sizes)
    refs = bin_refs(a, b, p)
    check_stack(outs, "y", BIN, refs, f32)
    check_stack(outs, "z", BIN, refs, f32)


for func, sa, sb in [("bin_same", (3, 4), (3, 4)), ("bin_same", (1, 1), (1, 1)),
                     ("bin_same", (17, 33), (17, 33)), ("bin_same", (0, 3), (0, 3)),
                     ("bin_row", (3, 4), (4,)), ("bin_row", (5, 1), (1,)),
                     ("bin_ones", (3, 1), (1, 4)), ("bin_ones", (1, 1), (1, 6)),
                     ("bin_scalar", (5,), ()), ("bin_scalar", (1,), ()),
                     ("bin_zerod", (), ()),
                     ("bin_cube", (2, 1, 4), (3, 1)), ("bin_cube", (1, 1, 1), (1, 1))]:
    case(f"elementwise/{func}[{sa}x{sb}]", binary, func, sa, sb)


def bin_int(n):
    rng = rng_for("bin_int", n)
    a = rng.integers(-20, 21, n).astype(i32)
    b = rng.choice([-5, -3, -2, -1, 1, 2, 3, 7], n).astype(i32)
    p = rng.integers(0, 5, n).astype(i32)
    outs = ftc_run("elementwise.ft", "bin_int", {"a": a, "b": b, "p": p})
    refs = [a + b, a - b, a * b, a // b, a % b, np.maximum(a, b), np.minimum(a, b), a ** p]
    labels = [op for op in BIN if op != "truediv"]
    check_stack(outs, "y", labels, refs, i32)
    check_stack(outs, "z", labels, refs, i32)
    check(outs, "q", a / b, f64, 1e-15)
    check(outs, "r", a / b, f64, 1e-15)


def bin_int64(n):
    rng = rng_for("bin_int64", n)
    a = rng.integers(-1000, 1000, n).astype(i32)
    s = np.array(-3 * 2**33 - 1, dtype=i64)
    outs = ftc_run("elementwise.ft", "bin_int64", {"a": a, "s": s})
    a64 = a.astype(i64)
    refs = [a64 + s, a64 * s, a64 // s]
    check_stack(outs, "y", ["add", "mul", "floordiv"], refs, i64)
    check_stack(outs, "z", ["add", "mul", "floordiv"], refs, i64)


def bin_literal(n):
    a = nonzero(rng_for("bin_literal", n), n)
    outs = ftc_run("elementwise.ft", "bin_literal", {"a": a})
    ad = a.astype(f64)
    refs = [ad + 1, 2.5 * ad, ad ** 2]
    check_stack(outs, "y", ["add", "mul", "pow"], refs, f32)
    check_stack(outs, "z", ["add", "mul", "pow"], refs, f32)


for n in [1, 9]:
    case(f"elementwise/bin_int[{n}]", bin_int, n)
    case(f"elementwise/bin_int64[{n}]", bin_int64, n)
    case(f"elementwise/bin_literal[{n}]", bin_literal, n)


def special(shape, rng, lo, hi):
    """Random values in [lo, hi) with some integers and halves among them."""
    x = rng.uniform(lo, hi, shape)
    if x.size:
        flat = x.reshape(-1)
        flat[::3] = np.round(flat[::3] * 2) / 2
    return x


def unary(func, shape, dtype=f32, rtol=base.RTOL):
    rng = rng_for(func, shape)
    x = special(shape, rng, -3, 3).astype(dtype)
    p = rng.uniform(0.1, 5, shape).astype(dtype)
    outs = ftc_run("elementwise.ft", func, {"x": x, "p": p})
    refs = un_refs(x, p)
    check_stack(outs, "y", UN, refs, dtype, rtol)
    check_stack(outs, "z", UN, refs, dtype, rtol)


for func, shape in [("un_mat", (3, 4)), ("un_mat", (1, 1)), ("un_vec", (7,)),
                    ("un_vec", (100,)), ("un_vec", (0,)), ("un_zerod", ()),
                    ("un_cube", (2, 3, 4))]:
    case(f"elementwise/{func}[{shape}]", unary, func, shape)
case("elementwise/un_f64[11]", unary, "un_f64", (11,), f64, 1e-12)


def un_bcast(n, m):
    r = special((m,), rng_for("un_bcast", n, m), -3, 3).astype(f32)
    outs = ftc_run("elementwise.ft", "un_bcast", {"r": r}, {"n": n})
    rd = np.broadcast_to(r.astype(f64), (n, m))
    check_stack(outs, "y", ["exp", "neg", "relu"], [np.exp(rd), -rd, np.maximum(rd, 0)], f32)


def un_int(n):
    a = rng_for("un_int", n).integers(-50, 50, n).astype(i32)
    outs = ftc_run("elementwise.ft", "un_int", {"a": a})
    refs = [-a, np.abs(a), a * a, np.maximum(a, 0)]
    check_stack(outs, "y", ["neg", "abs", "square", "relu"], refs, i32)
    check_stack(outs, "z", ["neg", "abs", "square", "relu"], refs, i32)


case("elementwise/un_bcast[3x4]", un_bcast, 3, 4)
case("elementwise/un_bcast[1x5]", un_bcast, 1, 5)
case("elementwise/un_int[1]", un_int, 1)
case("elementwise/un_int[13]", un_int, 13)


def un_int_float(n):
    a = rng_for("un_int_float", n).integers(0, 9, n).astype(i32)
    outs = ftc_run("elementwise.ft", "un_int_float", {"a": a})
    ad = a.astype(f64)
    refs = [np.tan(ad), np_erf(ad), np.log1p(ad), np.expm1(ad)]
    check_stack(outs, "y", UN_FLOAT, refs, f32)
    check_stack(outs, "z", UN_FLOAT, refs, f32)


case("elementwise/un_int_float[9]", un_int_float, 9)


# creation.ft

def create(n, m):
    v = rng_for("create", n, m).uniform(-1, 1, m).astype(f32)
    outs = ftc_run("creation.ft", "create", {"v": v}, {"n": n})
    exact(outs, "z2", np.zeros((n, m), f32), f32)
    exact(outs, "o1", np.ones(n, f32), f32)
    exact(outs, "f0", np.array(2.5, f32), f32)
    exact(outs, "zi", np.zeros((n, m), i32), i32)
    exact(outs, "oi", np.ones(m, i64), i64)
    exact(outs, "f2", np.full((n, m), -3.25, f32), f32)
    exact(outs, "fi", np.full(n, 2, i32), i32)          # 2.75 truncated, as NumPy
    exact(outs, "fv", np.broadcast_to(v, (n, m)), f32)
    exact(outs, "fb", np.ones(n, bool), np.bool_)
    exact(outs, "z3", np.zeros((2, n, m), f64), f64)


def create_(n, m):
    rng = rng_for("create_", n, m)
    ins = {"v": rng.uniform(-1, 1, m).astype(f32),
           "z2": rng.uniform(1, 2, (n, m)).astype(f32),
           "o1": rng.uniform(2, 3, n).astype(f32),
           "f0": np.array(9, f32),
           "zi": rng.integers(1, 9, (n, m)).astype(i32),
           "fi": rng.integers(1, 9, n).astype(i32),
           "fv": rng.uniform(5, 6, (n, m)).astype(f32),
           "f3": rng.uniform(5, 6, (2, n, m)).astype(f64)}
    outs = ftc_run("creation.ft", "create_", ins)
    exact(outs, "z2", np.zeros((n, m), f32), f32)
    exact(outs, "o1", np.ones(n, f32), f32)
    exact(outs, "f0", np.array(2.5, f32), f32)
    exact(outs, "zi", np.zeros((n, m), i32), i32)
    exact(outs, "fi", np.full(n, -7, i32), i32)
    exact(outs, "fv", np.broadcast_to(ins["v"], (n, m)), f32)
    exact(outs, "f3", np.full((2, n, m), 0.125, f64), f64)


for n, m in [(1, 1), (3, 4), (8, 1), (0, 2)]:
    case(f"creation/create[{n}x{m}]", create, n, m)
    case(f"creation/create_[{n}x{m}]", create_, n, m)


# reduction.ft

RED_VARIANTS = [dict(), dict(axis=0), dict(axis=1), dict(axis=-1), dict(axis=(0, 2)),
                dict(axis=(2, 1), keepdims=True), dict(keepdims=True),
                dict(axis=1, keepdims=True)]
RED_NP = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}


def red(op, shape):
    rng = rng_for("red", op, shape)
    if op == "prod":
        x = rng.uniform(0.5, 1.5, shape).astype(f32)
    else:
        x = rng.standard_normal(shape).astype(f32)
    outs = ftc_run("reduction.ft", f"red_{op}", {"x": x})
    bad = []
    for j, kw in enumerate(RED_VARIANTS):
        ref = RED_NP[op](x.astype(f64), **kw)
        for form in "ab":
            try:
                check(outs, f"{form}{j}", ref, f32)
            except Fail as e:
                bad.append(f"{kw or 'all'}: {e}")
    if bad:
        raise Fail("; ".join(bad))


for op in RED_NP:
    for shape in [(2, 3, 4), (1, 1, 1), (5, 1, 3), (3, 17, 2)]:
        case(f"reduction/{op}[{shape}]", red, op, shape)
for op in ["sum", "prod"]:         # empty reductions give the identity
    case(f"reduction/{op}[(2, 0, 3)]", red, op, (2, 0, 3))


def red_small(n):
    rng = rng_for("red_small", n)
    v = rng.standard_normal(n).astype(f32)
    s = np.array(rng.standard_normal(), f32)
    d = rng.standard_normal(n)
    outs = ftc_run("reduction.ft", "red_small", {"v": v, "s": s, "d": d})
    vd, sd = v.astype(f64), float(s)
    check_stack(outs, "y", ["sum", "prod", "reduce_max", "reduce_min", "sum0", "max0",
                            "sum_", "reduce_min_"],
                [vd.sum(), sd, vd.max(), vd.min(), sd, sd, vd.sum(), sd], f32)
    check(outs, "e", [d.sum(), d.max()], f64, 1e-12)
    check(outs, "kv", [vd.sum()], f32)


def red_int(n, m):
    a = rng_for("red_int", n, m).integers(-3, 4, (n, m)).astype(i32)
    outs = ftc_run("reduction.ft", "red_int", {"a": a})
    a64 = a.astype(i64)
    exact(outs, "s", a64.sum(0), i64)
    exact(outs, "p", a64.prod(1), i64)
    exact(outs, "mx", a.max(1), i32)
    exact(outs, "mn", a.min(), i32)
    exact(outs, "si", a.sum(0).astype(i32), i32)
    exact(outs, "mxl", a.max(1, keepdims=True).astype(i64), i64)


case("reduction/small[1]", red_small, 1)
case("reduction/small[10]", red_small, 10)
case("reduction/int[1x1]", red_int, 1, 1)
case("reduction/int[4x6]", red_int, 4, 6)


# linalg.ft

def mm(func, sa, sb, dtypes=(f32, f32), extra=None):
    rng = rng_for(func, sa, sb)
    ins = {"a": rng.uniform(-1, 1, sa).astype(dtypes[0]),
           "b": rng.uniform(-1, 1, sb).astype(dtypes[1])}
    if func == "mm_dtypes":
        ins["a"] = rng.integers(-5, 6, sa).astype(i32)
        ins["c"] = rng.integers(-5, 6, sb).astype(i32)
    outs = ftc_run("linalg.ft", func, ins)
    a, b = ins["a"].astype(f64), ins["b"].astype(f64)
    if func == "mm_dtypes":
        check(outs, "y", a @ b, f64, 1e-12)
        check(outs, "z", a @ b, f64, 1e-12)
        exact(outs, "yi", ins["a"] @ ins["c"], i32)
        exact(outs, "zi", ins["a"] @ ins["c"], i32)
    elif func == "mm_expr":
        check(outs, "y", (a @ b) * 2 + 1, f32)
        check(outs, "z", a[0] @ b, f32)
    else:
        check(outs, "y", np.matmul(a, b), f32)
        check(outs, "z", np.matmul(a, b), f32)


for func, sa, sb in [
        ("mm_2d", (3, 5), (5, 4)), ("mm_2d", (1, 1), (1, 1)), ("mm_2d", (17, 33), (33, 9)),
        ("mm_2d", (3, 0), (0, 4)), ("mm_2d", (0, 2), (2, 3)),
        ("mm_dot", (7,), (7,)), ("mm_dot", (1,), (1,)),
        ("mm_vecmat", (5,), (5, 3)), ("mm_vecmat", (1,), (1, 1)),
        ("mm_matvec", (4, 6), (6,)), ("mm_matvec", (1, 2), (2,)),
        ("mm_batch", (2, 3, 5), (2, 5, 4)), ("mm_batch", (1, 1, 1), (1, 1, 1)),
        ("mm_batch_mat", (3, 2, 5), (5, 4)),
        ("mm_bcast", (2, 1, 3, 5), (3, 5, 4)), ("mm_bcast", (2, 1, 1, 1), (3, 1, 1)),
        ("mm_bcast_sym", (1, 3, 5), (4, 5, 2)),
        ("mm_vec_batch", (5,), (3, 5, 4)), ("mm_batch_vec", (3, 4, 5), (5,)),
        ("mm_dtypes", (3, 4), (4, 5)), ("mm_expr", (3, 4), (4, 5))]:
    case(f"linalg/{func}[{sa}@{sb}]", mm, func, sa, sb,
         (f32, f64) if func == "mm_dtypes" else (f32, f32))


# nn.ft

NN_CONSTS = [dict(),                                              # the program's own
             dict(N=1, C=2, H=5, W=4, O=4, KH=3, KW=1),
             dict(N=3, C=6, H=9, W=8, O=2, KH=2, KW=3)]
NN_DEFAULT = dict(N=2, C=4, H=7, W=6, O=6, KH=3, KW=2)


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def softmax(shape):
    x = (3 * rng_for("softmax", shape).standard_normal(shape)).astype(f32)
    xd = x.astype(f64)
    outs = ftc_run("nn.ft", "softmax_last", {"x": x})
    check(outs, "y", softmax_ref(xd, -1), f32)
    check(outs, "z", softmax_ref(xd, -1), f32)
    outs = ftc_run("nn.ft", "softmax_axes", {"x": x})
    check(outs, "y0", softmax_ref(xd, 0), f32)
    check(outs, "y1", softmax_ref(xd, 1), f32)
    check(outs, "z0", softmax_ref(xd, 0), f32)
    check(outs, "z1", softmax_ref(xd, 1), f32)


def softmax_small(n):
    rng = rng_for("softmax_small", n)
    v = 50 * rng.standard_normal(n)                 # large: needs the max subtracted
    s = np.array(rng.standard_normal(), f32)
    outs = ftc_run("nn.ft", "softmax_small", {"v": v, "s": s})
    check(outs, "y", softmax_ref(v, 0), f64, 1e-12)
    check(outs, "z", softmax_ref(v, 0), f64, 1e-12)
    check(outs, "ys", np.array(1.0), f32)
    check(outs, "zs", np.array(1.0), f32)


for shape in [(2, 3, 4), (1, 1, 1), (4, 1, 7)]:
    case(f"nn/softmax[{shape}]", softmax, shape)
case("nn/softmax_small[1]", softmax_small, 1)
case("nn/softmax_small[9]", softmax_small, 9)


def pair(v):
    return (v, v) if np.isscalar(v) else tuple(v)


def conv2d_ref(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv2d from its definition: out[n, o, i, j] =
    b[o] + sum over c, kh, kw of x_padded[n, g*Cg + c, i*sh + kh*dh, j*sw + kw*dw]
    * w[o, c, kh, kw], g the group of o."""
    (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
    unbatched = x.ndim == 3
    x = x[None] if unbatched else x
    x, w = x.astype(f64), w.astype(f64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * ph, wd + 2 * pw))
    xp[:, :, ph:ph + h, pw:pw + wd] = x
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    out = np.zeros((n, o, oh, ow))
    for oc in range(o):
        g = oc // og
        for i in range(kh):
            for j in range(kw):
                win = xp[:, g * cg:(g + 1) * cg,
                         i * dh:i * dh + sh * (oh - 1) + 1:sh,
                         j * dw:j * dw + sw * (ow - 1) + 1:sw]
                out[:, oc] += np.einsum("nchw,c->nhw", win, w[oc, :, i, j])
        if b is not None:
            out[:, oc] += b[oc]
    return out[0] if unbatched else out


def pool_ref(x, kernel, stride=None, padding=0, kind="max"):
    """max_pool2d / avg_pool2d (count_include_pad) over the last two
    dimensions, from the definition."""
    (kh, kw), (ph, pw) = pair(kernel), pair(padding)
    sh, sw = pair(kernel if stride is None else stride)
    x = x.astype(f64)
    h, wd = x.shape[-2:]
    fillv = -np.inf if kind == "max" else 0.0
    xp = np.full(x.shape[:-2] + (h + 2 * ph, wd + 2 * pw), fillv)
    xp[..., ph:ph + h, pw:pw + wd] = x
    oh, ow = (h + 2 * ph - kh) // sh + 1, (wd + 2 * pw - kw) // sw + 1
    out = np.zeros(x.shape[:-2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[..., i * sh:i * sh + kh, j * sw:j * sw + kw]
            out[..., i, j] = win.max(axis=(-2, -1)) if kind == "max" else win.mean(axis=(-2, -1))
    return out


def conv(func, consts):
    k = {**NN_DEFAULT, **consts}
    rng = rng_for(func, tuple(sorted(consts.items())))
    N, C, H, W, O, KH, KW = (k[c] for c in ("N", "C", "H", "W", "O", "KH", "KW"))
    groups = 2 if func == "conv_groups" else 1
    ins = {"x": rng.uniform(-1, 1, (N, C, H, W)).astype(f32),
           "w": rng.uniform(-1, 1, (O, C // groups, KH, KW)).astype(f32)}
    if func != "conv_plain":
        ins["b"] = rng.uniform(-1, 1, O).astype(f32)
    if func == "conv_groups":
        ins["x3"] = rng.uniform(-1, 1, (C, H, W)).astype(f32)
    outs = ftc_run("nn.ft", func, ins, defines=consts)
    x, w, b = ins["x"], ins["w"], ins.get("b")
    if func == "conv_plain":
        ref = conv2d_ref(x, w)
    elif func == "conv_stride_pad":
        ref = conv2d_ref(x, w, b, stride=2, padding=1)
    elif func == "conv_pairs":
        ref = conv2d_ref(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(2, 1))
    else:
        ref = conv2d_ref(x, w, b, dilation=2, groups=2)
        ref3 = conv2d_ref(ins["x3"], w, b, dilation=2, groups=2)
        check(outs, "y3", ref3, f32)
        check(outs, "z3", ref3, f32)
    check(outs, "y", ref, f32)
    check(outs, "z", ref, f32)


for consts in NN_CONSTS:
    label = ",".join(f"{k}={v}" for k, v in consts.items()) or "default"
    for func in ["conv_plain", "conv_stride_pad", "conv_pairs", "conv_groups"]:
        case(f"nn/{func}[{label}]", conv, func, consts)


def conv_sym(n, c, h, w, o):
    rng = rng_for("conv_sym", n, c, h, w, o)
    x = rng.uniform(-1, 1, (n, c, h, w)).astype(f32)
    wt = rng.uniform(-1, 1, (o, c, 3, 3)).astype(f32)
    b = rng.uniform(-1, 1, o).astype(f32)
    outs = ftc_run("nn.ft", "conv_sym", {"x": x, "w": wt, "b": b}, {"oh": h, "ow": w})
    check(outs, "y", conv2d_ref(x, wt, b, padding=1), f32)


case("nn/conv_sym[1x1x1x1x1]", conv_sym, 1, 1, 1, 1, 1)
case("nn/conv_sym[2x3x5x4x2]", conv_sym, 2, 3, 5, 4, 2)


def pools(consts):
    k = {**NN_DEFAULT, **consts}
    rng = rng_for("pools", tuple(sorted(consts.items())))
    x = rng.standard_normal((k["N"], k["C"], k["H"], k["W"])).astype(f32)
    x3 = rng.standard_normal((k["C"], k["H"], k["W"])).astype(f32)
    outs = ftc_run("nn.ft", "pools", {"x": x, "x3": x3}, defines=consts)
    settings = [(x, dict(kernel=2)), (x, dict(kernel=3, stride=2, padding=1)),
                (x, dict(kernel=(2, 3), stride=(1, 2))), (x3, dict(kernel=2))]
    bad = []
    for j, (src, kw) in enumerate(settings):
        for kind in ["max", "avg"]:
            ref = pool_ref(src, kind=kind, **kw)
            for form in "yz":
                try:
                    check(outs, f"{kind[0]}{form}{j}", ref, f32)
                except Fail as e:
                    bad.append(f"{kind} {kw}: {e}")
    if bad:
        raise Fail("; ".join(bad))


for consts in NN_CONSTS:
    label = ",".join(f"{k}={v}" for k, v in consts.items()) or "default"
    case(f"nn/pools[{label}]", pools, consts)


def pool_int(n, h, w):
    a = rng_for("pool_int", n, h, w).integers(-2**31, 2**31, (n, h, w)).astype(i32)
    oh, ow = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    outs = ftc_run("nn.ft", "pool_int", {"a": a}, {"oh": oh, "ow": ow})
    exact(outs, "y", pool_ref(a, 3, 2, 1).astype(i32), i32)


case("nn/pool_int[1x1x1]", pool_int, 1, 1, 1)
case("nn/pool_int[2x7x6]", pool_int, 2, 7, 6)


# compose.ft

def compose(n, m, k):
    rng = rng_for("compose", n, m, k)
    ins = {"a": rng.uniform(-1, 1, (n, k)).astype(f32),
           "b": rng.uniform(-1, 1, (k, m)).astype(f32),
           "x": rng.uniform(-1, 1, (n, m)).astype(f32),
           "v": rng.uniform(-1, 1, m).astype(f32),
           "r": rng.uniform(-1, 1, (n, m)).astype(f32),
           "q": rng.uniform(-3, 3, (n, m)).astype(f32)}
    outs = ftc_run("compose.ft", "compose", ins)
    a, b, x, v, r, q = (ins[c].astype(f64) for c in "abxvrq")
    check(outs, "s", (x * v + 1).sum(0), f32)
    check(outs, "t", np.maximum((a * 2) @ b - x, 0), f32)
    check(outs, "u", softmax_ref((x + v) * 0.5, 1), f32)
    check(outs, "w", (a @ b).max(1) + np.abs(x).sum(-1), f32)
    check(outs, "r", np.maximum(r, 0) + v, f32)
    check(outs, "q", softmax_ref(q, -1), f32)
    check(outs, "p", x * v + x.min(1, keepdims=True), f32)


def compose_int(n, m):
    rng = rng_for("compose_int", n, m)
    a = rng.integers(-50, 50, (n, m)).astype(i32)
    e = rng.uniform(-1, 1, (n, m)).astype(f32)
    outs = ftc_run("compose.ft", "compose_int", {"a": a, "e": e})
    exact(outs, "c", np.array(((a % 3) * (a // 2)).astype(i64).sum()), i64)
    ed = e.astype(f64)
    check(outs, "d", ed.sum(1) @ ed, f32)


for n, m, k in [(1, 1, 1), (3, 4, 5), (8, 1, 2)]:
    case(f"compose[{n}x{m}x{k}]", compose, n, m, k)
    case(f"compose/int[{n}x{m}]", compose_int, n, m)


# Issue 21's operators at ranks 0-4 (tests/numeric/stdlib_ops.py writes the
# programs: every operator, allocating and in-place).

def _build_run(src, name, inputs):
    path = os.path.join(WORK, name + ".ft")
    with open(path, "w") as fh:
        fh.write(src)
    return H.ftc_run(FTC, build(path, {}), "f", {}, inputs, verbose=base.VERBOSE)


def ops(run, *args):
    """One of stdlib_ops.py's generated programs, RUN(build_run, *ARGS)
    giving its list of failures."""
    bad = run(_build_run, *args)
    if bad:
        raise Fail(f"{len(bad)} outputs differ: " + "; ".join(bad))


OPS.CHECK = check
for rank, shape, dtype in [(0, (), "f32"), (1, (7,), "f32"), (2, (3, 5), "f32"),
                           (2, (4, 3), "f64"), (3, (2, 3, 4), "f32"), (4, (2, 1, 3, 2), "f32")]:
    case(f"ops/rank{rank}_{dtype}{list(shape)}", ops, OPS.run_case, rank, shape, dtype)
case("ops/rank2_f32[0, 4]", ops, OPS.run_case, 2, (0, 4), "f32", True)

for rank, shape, dtype in [(1, (7,), "i32"), (2, (3, 5), "i64"), (3, (2, 3, 4), "i32")]:
    case(f"ops/int_rank{rank}_{dtype}{list(shape)}", ops, OPS.run_int_case, rank, shape, dtype)
for n, m in [(1, 1), (3, 5), (4, 1)]:
    case(f"ops/broadcast[{n}x{m}]", ops, OPS.run_bcast_case, n, m)


def check_all(outs, refs, dtype=f32):
    """check() every output of REFS {name: reference, or (reference,
    dtype)} (a torch tensor or an array; dtype by default), all failures
    reported together."""
    bad = []
    for name, ref in refs.items():
        ref, dt = ref if isinstance(ref, tuple) else (ref, dtype)
        try:
            check(outs, name, ref.numpy() if hasattr(ref, "numpy") else np.asarray(ref), dt)
        except Fail as e:
            bad.append(str(e))
    if bad:
        raise Fail("; ".join(bad))


def expect_error(file, func, inputs, *wants):
    """FUNC of FILE must fail at run time with a message holding every one
    of WANTS (a located error, not a silent read or write)."""
    try:
        ftc_run(file, func, inputs)
    except Fail as e:
        missing = [w for w in wants if w not in str(e)]
        if missing:
            raise Fail(f"want {missing!r} in the error, got: {e}")
        return
    raise Fail(f"{func} accepted inputs that must fail: {', '.join(wants)}")


# losses.ft: losses and layers against torch.nn.functional (float64).

def losses(n, c):
    import torch
    import torch.nn.functional as F
    rng = rng_for("losses", n, c)
    ins = {"x": rng.uniform(-3, 3, (n, c)).astype(f32), "t": rng.integers(0, c, n).astype(i64),
           "p": rng.dirichlet(np.ones(c), n).astype(f32), "q": rng.uniform(-1, 1, (n, c)).astype(f32),
           "v": rng.uniform(-3, 3, c).astype(f32), "k": np.array(c - 1, i32)}
    outs = ftc_run("losses.ft", "losses", ins)
    T = {k: torch.tensor(v.astype(f64) if v.dtype.kind == "f" else v.astype(i64))
         for k, v in ins.items()}
    x, t = T["x"], T["t"]
    ls = F.log_softmax(x, -1)
    refs = {"ls": ls, "ls0": F.log_softmax(x, 0), "lsi": ls,
            "mse": F.mse_loss(x, T["q"]), "mse_s": F.mse_loss(x, T["q"], reduction="sum"),
            "mse_n": F.mse_loss(x, T["q"], reduction="none"),
            "nll": F.nll_loss(ls, t), "nll_s": F.nll_loss(ls, t, reduction="sum"),
            "nll_n": F.nll_loss(ls, t, reduction="none"), "ce": F.cross_entropy(x, t),
            "ce_s": F.cross_entropy(x, t, reduction="sum"),
            "ce_n": F.cross_entropy(x, t, reduction="none"), "ce_p": F.cross_entropy(x, T["p"]),
            "ce_pn": F.cross_entropy(x, T["p"], reduction="none"),
            "ce1": F.cross_entropy(T["v"], T["k"]),
            "nll1": F.nll_loss(T["v"][None], T["k"][None])}
    for name, ref in refs.items():
        check(outs, name, ref.numpy(), f32)


def ce_more(n, c):
    """cross_entropy and nll_loss with weight, ignore_index and
    label_smoothing against torch (float64)."""
    import torch
    import torch.nn.functional as F
    rng = rng_for("ce_more", n, c)
    t = rng.integers(0, c, n)
    ins = {"x": rng.uniform(-3, 3, (n, c)).astype(f32), "t": t.astype(i64),
           "t255": np.where(rng.random(n) < 0.4, 255, t).astype(i64),
           "w": rng.uniform(0.2, 2, c).astype(f32), "p": rng.dirichlet(np.ones(c), n).astype(f32),
           "v": rng.uniform(-3, 3, c).astype(f32), "k": np.array(c - 1, i32),
           "w0": np.where(np.arange(c) % 2 == 0, 0, 1.5).astype(f32)}  # classes of weight 0
    outs = ftc_run("losses.ft", "ce_more", ins)
    T = _torch(ins)
    x, t, w, p, t255 = T["x"], T["t"], T["w"], T["p"], T["t255"]
    v, k = T["v"][None], T["k"][None]
    ce = F.cross_entropy
    check_all(outs, {
        "a": ce(x, t, w, ignore_index=1), "b": ce(x, t, label_smoothing=0.1),
        "d": ce(x, t, w, ignore_index=2, reduction="none", label_smoothing=0.2),
        "e": ce(x, p, w, label_smoothing=0.3),
        "e_n": ce(x, p, reduction="none", label_smoothing=0.5),
        "g": F.nll_loss(F.log_softmax(x, -1), t, w, ignore_index=0),
        "g_s": F.nll_loss(x, t, w, reduction="sum"),
        "h": ce(x, t, w, ignore_index=0, reduction="sum", label_smoothing=0.25),
        "i255": ce(x, t255, ignore_index=255, label_smoothing=0.1),
        "i255_n": F.nll_loss(x, t255, w, ignore_index=255, reduction="none"),
        "one": ce(v, k, w, label_smoothing=0.2),
        "one_s": ce(v, k, w, ignore_index=c - 1, reduction="sum"),
        "z": ce(x, t255, T["w0"], ignore_index=255, reduction="none", label_smoothing=0.3)})


def losses_bad_target():
    """A class index out of range: a located run-time error, not a read out
    of bounds."""
    rng = rng_for("losses_bad")
    ins = {"x": rng.uniform(-1, 1, (2, 3)).astype(f32), "t": np.array([1, 3], i64),
           "p": np.full((2, 3), 1 / 3, f32), "q": np.zeros((2, 3), f32),
           "v": np.zeros(3, f32), "k": np.array(0, i32)}
    expect_error("losses.ft", "losses", ins, "target class out of range: input has 3 classes",
                 "target = 3")


def layers(b, n, c, o):
    import torch
    import torch.nn.functional as F
    rng = rng_for("layers", b, n, c, o)
    ins = {"x": rng.uniform(-2, 2, (b, n, c)).astype(f32), "w": rng.uniform(0.5, 1.5, c).astype(f32),
           "bias": rng.uniform(-1, 1, c).astype(f32), "w2": rng.uniform(0.5, 1.5, (n, c)).astype(f32),
           "lw": rng.uniform(-1, 1, (o, c)).astype(f32), "lb": rng.uniform(-1, 1, o).astype(f32)}
    outs = ftc_run("losses.ft", "layers", ins)
    T = {k: torch.tensor(v.astype(f64)) for k, v in ins.items()}
    x = T["x"]
    refs = {"ln": F.layer_norm(x, (c,), T["w"], T["bias"]), "ln_plain": F.layer_norm(x, (c,)),
            "ln2": F.layer_norm(x, (n, c), T["w2"], eps=1e-3),
            "ln_w": F.layer_norm(x, (c,), T["w"]), "li": F.linear(x, T["lw"], T["lb"]),
            "li_nob": F.linear(x, T["lw"])}
    for name, ref in refs.items():
        check(outs, name, ref.numpy(), f32)


def norms(n, c, h, w):
    import torch
    import torch.nn.functional as F
    rng = rng_for("norms", n, c, h, w)
    ins = {"x": rng.uniform(-2, 2, (n, c, h, w)).astype(f32),
           "x2": rng.uniform(-2, 2, (n, c)).astype(f32),
           "rm": rng.uniform(-1, 1, c).astype(f32), "rv": rng.uniform(0.5, 2, c).astype(f32),
           "g": rng.uniform(0.5, 1.5, c).astype(f32), "b": rng.uniform(-1, 1, c).astype(f32)}
    outs = ftc_run("losses.ft", "norms", ins)
    T = {k: torch.tensor(v.astype(f64)) for k, v in ins.items()}
    refs = {"bn": F.batch_norm(T["x"], T["rm"], T["rv"], T["g"], T["b"]),
            "bn_plain": F.batch_norm(T["x"], T["rm"], T["rv"]),
            "bn_t": F.batch_norm(T["x"], T["rm"].clone(), T["rv"].clone(), T["g"], T["b"],
                                 training=True, eps=1e-3),
            "bn_t2": F.batch_norm(T["x2"], T["rm"].clone(), T["rv"].clone(), T["g"],
                                  training=True)}
    for name, ref in refs.items():
        check(outs, name, ref.numpy(), f32)


for n, c in [(1, 1), (4, 6), (9, 3)]:
    case(f"losses[{n}x{c}]", losses, n, c)
    case(f"losses/ce_more[{n}x{c}]", ce_more, n, c)
for shape in [(2, 3, 4, 5), (3, 1, 1, 2)]:
    case(f"norms[{'x'.join(map(str, shape))}]", norms, *shape)
case("losses/bad_target", losses_bad_target)
for shape in [(2, 3, 5, 4), (1, 1, 3, 1)]:
    case(f"layers[{'x'.join(map(str, shape))}]", layers, *shape)


# shape.ft: shape operators against NumPy float64 (torch's gather and
# scatter_add semantics written with np.take_along_axis and np.add.at).

def squeezes(n, m):
    rng = rng_for("squeezes", n, m)
    x = rng.standard_normal((n, 1, m)).astype(f32)
    s = np.array(rng.standard_normal(), f32)
    x4 = rng.standard_normal((2, 1, 3, 1))
    xn = rng.integers(-9, 9, (n, 2)).astype(i32)
    outs = ftc_run("shape.ft", "squeezes", dict(x=x, s=s, x4=x4, xn=xn))
    xd = x.astype(f64)
    check_all(outs, {
        "u0": (np.expand_dims(xd, 0), f32), "u3": (np.expand_dims(xd, -1), f32),
        "um": (np.expand_dims(xd, -3), f32), "us": (np.expand_dims(float(s), 0), f32),
        "u4": (np.expand_dims(x4, 4), f64), "q0": (np.squeeze(xd, 1), f32),
        "q1": (np.squeeze(xd, 1), f32), "qs": (np.float64(s), f32),
        "q4": (np.squeeze(x4), f64), "q4a": (np.squeeze(x4, -3), f64),
        "q4b": (np.squeeze(x4, -1), f64), "qn": (np.squeeze(xn, 0), i32)})


def squeeze_not_one():
    """squeeze(xn, 0) with n = 2 at run time: a located error."""
    ins = dict(x=np.zeros((2, 1, 3), f32), s=np.array(1, f32), x4=np.zeros((2, 1, 3, 1)),
               xn=np.zeros((2, 2), i32))
    expect_error("shape.ft", "squeezes", ins,
                 "squeeze: dimension 0 has size 2; only a dimension of size 1 can be squeezed")


def expands(n, m):
    rng = rng_for("expands", n, m)
    a = rng.standard_normal((1, m)).astype(f32)
    b = rng.integers(-9, 9, m).astype(i32)
    s = np.array(rng.standard_normal())
    c = rng.standard_normal((n, 1)).astype(f32)
    outs = ftc_run("shape.ft", "expands", dict(a=a, b=b, s=s, c=c))
    ad = a.astype(f64)
    check_all(outs, {
        "e0": (np.broadcast_to(ad, (n, m)), f32), "e1": (np.broadcast_to(ad, (2, n, m)), f32),
        "e2": (np.broadcast_to(b, (3, m)), i32), "e3": (np.broadcast_to(s, (2, 3)), f64),
        "e4": (np.broadcast_to(c.astype(f64), (n, 4)), f32),
        "e5": (np.broadcast_to(b, (1, 2, 1, m)), i32)})


def stacks(n, m):
    rng = rng_for("stacks", n, m)
    a, b, c = (rng.standard_normal((n, m)).astype(f32) for _ in range(3))
    ai = rng.integers(-9, 9, (n, m)).astype(i32)
    s, t = (np.array(rng.standard_normal(), f32) for _ in range(2))
    outs = ftc_run("shape.ft", "stacks", dict(a=a, b=b, c=c, ai=ai, s=s, t=t))
    a, b, c = (v.astype(f64) for v in (a, b, c))
    check_all(outs, {
        "s0": (np.stack([a, b, c]), f32), "s1": (np.stack([a, b, c], 1), f32),
        "s2": (np.stack([a, b], 2), f32), "sm": (np.stack([c, a], -2), f32),
        "si": (np.stack([ai, ai * 2]), i32), "sx": (np.stack([ai, b], -1), f32),
        "ss": (np.stack([float(s), float(t)]), f32), "s1l": (np.stack([c]), f32)})


def flips(n, m, k):
    rng = rng_for("flips", n, m, k)
    x = rng.standard_normal((n, m, k)).astype(f32)
    xi = rng.integers(-9, 9, (n, m)).astype(i32)
    s = np.array(rng.standard_normal())
    x4 = rng.standard_normal((2, 3, 1, 2))
    outs = ftc_run("shape.ft", "flips", dict(x=x, xi=xi, s=s, x4=x4))
    xd = x.astype(f64)
    check_all(outs, {
        "f0": (np.flip(xd, 0), f32), "f02": (np.flip(xd, (0, 2)), f32),
        "fm": (np.flip(xd, -1), f32), "fa": (np.flip(xd), f32),
        "fi": (np.flip(xi, (-1, 0)), i32), "fs": (s, f64), "f4": (np.flip(x4, (1, 3, 2)), f64)})


def rolls(n, m):
    rng = rng_for("rolls", n, m)
    x = rng.standard_normal((n, m)).astype(f32)
    v = rng.standard_normal(n)
    xi = rng.integers(-9, 9, (n, m)).astype(i32)
    outs = ftc_run("shape.ft", "rolls", dict(x=x, v=v, xi=xi))
    xd = x.astype(f64)
    check_all(outs, {
        "r0": (np.roll(xd, 1, 0), f32), "r1": (np.roll(xd, -2, -1), f32),
        "rb": (np.roll(xd, (2, 7), (0, 1)), f32), "rn": (np.roll(xd, 3), f32),
        "rv": (np.roll(v, 5, 0), f64), "rvb": (np.roll(v, -1), f64),
        "ri": (np.roll(xi, (1, -1), (1, 0)), i32), "rz": (xd, f32)})


def tris(n, m):
    rng = rng_for("tris", n, m)
    x = rng.standard_normal((n, m)).astype(f32)
    x3 = rng.standard_normal((2, n, m))
    xi = rng.integers(-9, 9, (n, m)).astype(i32)
    x4 = rng.standard_normal((2, 1, 3, 4)).astype(f32)
    outs = ftc_run("shape.ft", "tris", dict(x=x, x3=x3, xi=xi, x4=x4))
    xd, x4d = x.astype(f64), x4.astype(f64)
    check_all(outs, {
        "l0": (np.tril(xd), f32), "l1": (np.tril(xd, 1), f32), "lm": (np.tril(xd, -1), f32),
        "u0": (np.triu(xd), f32), "u1": (np.triu(xd, 2), f32), "um": (np.triu(xd, -2), f32),
        "l3": (np.tril(x3), f64), "u3": (np.triu(x3, 1), f64), "li": (np.tril(xi, -1), i32),
        "ui": (np.triu(xi), i32), "l4": (np.tril(x4d, 1), f32), "u4": (np.triu(x4d, -1), f32)})


def cums(n, m):
    rng = rng_for("cums", n, m)
    x = rng.uniform(0.5, 1.5, (n, m)).astype(f32) * rng.choice([-1, 1], (n, m)).astype(f32)
    xi = rng.integers(-3, 4, (n, m)).astype(i32)
    v = rng.uniform(0.5, 1.5, n)
    s = np.array(rng.standard_normal(), f32)
    x3 = rng.standard_normal((2, n, 3)).astype(f32)
    outs = ftc_run("shape.ft", "cums", dict(x=x, xi=xi, v=v, s=s, x3=x3))
    xd = x.astype(f64)
    check_all(outs, {
        "c0": (np.cumsum(xd, 0), f32), "c1": (np.cumsum(xd, 1), f32),
        "cm": (np.cumsum(xd, -1), f32), "ci": (np.cumsum(xi.astype(i64), 0), i64),
        "cv": (np.cumsum(v), f64), "cs": (np.float64(s), f32),
        "c3": (np.cumsum(x3.astype(f64), -2), f32), "p0": (np.cumprod(xd, 0), f32),
        "p1": (np.cumprod(xd, 1), f32), "pi": (np.cumprod(xi.astype(i64), -1), i64),
        "pv": (np.cumprod(v), f64)})


def scatter_add_ref(x, axis, index, src):
    """torch.scatter_add in float64: out[..., index[i..], ...] += src[i..]
    over index's elements."""
    out = np.array(x, copy=True)
    for pos in np.ndindex(*index.shape):
        tgt = list(pos)
        tgt[axis] = index[pos]
        out[tuple(tgt)] += src[pos]
    return out


def gather_ref(x, axis, index):
    """torch.gather: out[pos] = x[pos with index[pos] along axis]."""
    out = np.empty(index.shape, x.dtype)
    for pos in np.ndindex(*index.shape):
        src = list(pos)
        src[axis] = index[pos]
        out[pos] = x[tuple(src)]
    return out


def gs_inputs(n, m, k, bad=None):
    rng = rng_for("gs", n, m, k)
    ins = dict(x=rng.standard_normal((n, m)).astype(f32),
               i0=rng.integers(0, max(n, 1), (k, m)).astype(i64),
               i1=rng.integers(0, max(m, 1), (n, k)).astype(i32),
               v=rng.standard_normal(n), iv=rng.integers(0, max(n, 1), k).astype(i64),
               x3=rng.standard_normal((2, n, m)).astype(f32),
               i3=rng.integers(0, max(m, 1), (2, n, k)).astype(i64),
               xi=rng.integers(-9, 9, (n, m)).astype(i32), ism=np.array([[n - 1]], i64))
    ins["s0"] = rng.standard_normal((k, m)).astype(f32)
    ins["s1"] = rng.standard_normal((n, k)).astype(f32)
    ins["sv"] = rng.standard_normal(k)
    ins["s3"] = rng.standard_normal((2, n, k)).astype(f32)
    ins["si"] = rng.integers(-9, 9, (n, k)).astype(i32)
    if bad:
        name, pos, val = bad
        ins[name][pos] = val
    return ins


GATHER_INS = ("x", "i0", "i1", "v", "iv", "x3", "i3", "xi", "ism")


def gathers(n, m, k):
    ins = gs_inputs(n, m, k)
    outs = ftc_run("shape.ft", "gathers", {q: ins[q] for q in GATHER_INS})
    x = ins["x"].astype(f64)
    refs = {"g0": (np.take_along_axis(x, ins["i0"], 0), f32),
            "g1": (np.take_along_axis(x, ins["i1"].astype(i64), -1), f32),
            "gv": (np.take_along_axis(ins["v"], ins["iv"], 0), f64),
            "g3": (np.take_along_axis(ins["x3"].astype(f64), ins["i3"], 2), f32),
            "gi": (gather_ref(ins["xi"], 1, ins["i1"]), i32),
            "gsm": (gather_ref(x, 1, ins["ism"]), f32)}
    check_all(outs, refs)


def scatters(n, m, k):
    ins = gs_inputs(n, m, k)
    outs = ftc_run("shape.ft", "scatters", {q: v for q, v in ins.items()})
    x = ins["x"].astype(f64)
    s1 = ins["s1"].astype(f64)
    check_all(outs, {
        "a0": (scatter_add_ref(x, 0, ins["i0"], ins["s0"].astype(f64)), f32),
        "a1": (scatter_add_ref(x, 1, ins["i1"], s1), f32),
        "av": (scatter_add_ref(ins["v"], 0, ins["iv"], ins["sv"]), f64),
        "a3": (scatter_add_ref(ins["x3"].astype(f64), 2, ins["i3"], ins["s3"].astype(f64)), f32),
        "ai": (scatter_add_ref(ins["xi"], 1, ins["i1"], ins["si"]), i32),
        "asm": (scatter_add_ref(x, 0, ins["ism"], s1), f32)})


def gs_bad(func, name, pos, val, want):
    """An index out of range: a located run-time error, not a silent read
    or write."""
    ins = gs_inputs(3, 4, 2, (name, pos, val))
    if func == "gathers":
        ins = {q: ins[q] for q in GATHER_INS}
    expect_error("shape.ft", func, ins, want, "shape.ft:")


for n, m in [(1, 1), (3, 4), (0, 2)]:
    if n == 1:
        case(f"shape/squeeze[{n}x{m}]", squeezes, n, m)
    case(f"shape/expand[{n}x{m}]", expands, n, m)
    case(f"shape/stack[{n}x{m}]", stacks, n, m)
    case(f"shape/roll[{n}x{m}]", rolls, n, m)
    case(f"shape/tril[{n}x{m}]", tris, n, m)
    case(f"shape/cumsum[{n}x{m}]", cums, n, m)
case("shape/squeeze[1x0]", squeezes, 1, 0)
case("shape/squeeze_not_one", squeeze_not_one)
case("shape/tril[5x3]", tris, 5, 3)
case("shape/cumsum[7x1]", cums, 7, 1)
for n, m, k in [(1, 1, 1), (2, 3, 4), (3, 5, 1), (0, 3, 2), (3, 4, 0)]:
    case(f"shape/flip[{n}x{m}x{k}]", flips, n, m, k)
    if n > 0:      # (an x with no rows has no index to gather or scatter at)
        case(f"shape/gather[{n}x{m}x{k}]", gathers, n, m, k)
    if n > 0 and k > 0:
        case(f"shape/scatter_add[{n}x{m}x{k}]", scatters, n, m, k)
case("shape/gather_bad_index", gs_bad, "gathers", "i1", (2, 1), 4, "index out of bounds")
case("shape/gather_negative_index", gs_bad, "gathers", "i0", (0, 0), -1, "index out of bounds")
case("shape/scatter_add_bad_index", gs_bad, "scatters", "i3", (1, 2, 0), 9,
     "index out of bounds")



def splits(n):
    rng = rng_for("splits", n)
    x = rng.standard_normal((5, n)).astype(f32)
    xi = rng.integers(-9, 9, (2, 3, 4)).astype(i32)
    outs = ftc_run("shape.ft", "splits", dict(x=x, xi=xi))
    xd = x.astype(f64)
    p = np.split(xd, [2, 4])
    q = np.split(xd, [1, 1], -1)
    c = torch_chunk(xd, 2, 0)
    r = np.split(xi, [1], -1)
    t = torch_chunk(xi, 3, 1)
    check_all(outs, {
        "p0": (p[0], f32), "p1": (p[1], f32), "p2": (p[2], f32), "q0": (q[0], f32),
        "q1": (q[2], f32), "nq": (3, i64), "c0": (c[0], f32), "c1": (c[1], f32),
        "nc": (len(torch_chunk(xd, 4, 0)), i64), "r0": (r[0], i32), "r1": (r[1], i32),
        "t0": (t[0], i32), "t2": (t[2], i32), "w0": (xd, f32)})


def torch_chunk(x, chunks, axis):
    """torch.chunk's parts: ceil(n / chunks) elements each, the last fewer."""
    n = x.shape[axis]
    size = max(-(-n // chunks), 1)
    return np.split(x, list(range(size, n, size)), axis)


for n in [1, 3]:
    case(f"shape/split[5x{n}]", splits, n)



# nn_more.ft: embedding, pad, group_norm, adaptive_avg_pool2d, interpolate,
# conv_transpose2d, dropout against torch.nn.functional (float64).

def _torch(ins):
    import torch
    return {k: torch.tensor(v.astype(f64) if v.dtype.kind == "f" else v.astype(i64))
            for k, v in ins.items()}


def nn_embed(n, m, k, d):
    import torch.nn.functional as F
    rng = rng_for("nn_embed", n, m, k, d)
    ins = {"idx": rng.integers(0, k, (n, m)).astype(i64), "v": rng.integers(0, k, n).astype(i32),
           "w": rng.uniform(-2, 2, (k, d)).astype(f32)}
    outs = ftc_run("nn_more.ft", "embed", ins)
    T = _torch(ins)
    e = F.embedding(T["idx"], T["w"])
    check_all(outs, {"e": e, "e_": e, "e1": F.embedding(T["v"], T["w"])})


def nn_embed_bad():
    """An index out of range: a located run-time error naming the rows."""
    ins = {"idx": np.array([[0, 4]], i64), "v": np.array([1], i32),
           "w": np.zeros((4, 2), f32)}
    expect_error("nn_more.ft", "embed", ins, "embedding: index out of range: weight has 4 rows",
                 "input = 4")


def nn_pads(n, m):
    import torch.nn.functional as F
    rng = rng_for("nn_pads", n, m)
    ins = {"x": rng.uniform(-2, 2, (n, m)).astype(f32), "x3": rng.uniform(-2, 2, (2, n, m)).astype(f32)}
    outs = ftc_run("nn_more.ft", "pads", ins)
    T = _torch(ins)
    x, x3 = T["x"], T["x3"]
    c2 = F.pad(x, [2, 1, 1, 0], value=-1.5)
    refs = {"c1": F.pad(x, [1, 2], value=7), "c2": c2, "c2_": c2, "c3": F.pad(x3, [0, -1]),
            "r1": F.pad(x[None], [1, 2, 2, 0], mode="replicate")[0],
            "r2": F.pad(x3, [1, 2, 2, 0], mode="replicate")}
    check_all(outs, refs)
    if n >= 3 and m >= 3:
        check_all(ftc_run("nn_more.ft", "pads_reflect", ins),
                  {"f1": F.pad(x, [1, 2], mode="reflect"),
                   "f2": F.pad(x[None], [1, 2, 2, 0], mode="reflect")[0],
                   "f2_": F.pad(x3, [1, 2, 2, 0], mode="reflect")})


def nn_gnorm(n, c, h, w, g):
    import torch.nn.functional as F
    rng = rng_for("nn_gnorm", n, c, h, w, g)
    ins = {"x": rng.uniform(-2, 2, (n, c, h, w)).astype(f32), "x2": rng.uniform(-2, 2, (n, c)).astype(f32),
           "g": rng.uniform(0.5, 1.5, c).astype(f32), "b": rng.uniform(-1, 1, c).astype(f32)}
    outs = ftc_run("nn_more.ft", "gnorm", ins, defines={"GN": g})
    T = _torch(ins)
    y = F.group_norm(T["x"], g, T["g"], T["b"])
    check_all(outs, {"y": y, "y_": y, "y1": F.group_norm(T["x"], 1, eps=1e-3),
                     "yc": F.group_norm(T["x"], c, None, T["b"]),
                     "y2": F.group_norm(T["x2"], g, T["g"])})


def nn_apool(n, c, h, w, oh, ow):
    import torch.nn.functional as F
    rng = rng_for("nn_apool", n, c, h, w, oh, ow)
    ins = {"x": rng.uniform(-2, 2, (n, c, h, w)).astype(f32), "x3": rng.uniform(-2, 2, (c, h, w)).astype(f32)}
    outs = ftc_run("nn_more.ft", "apool", ins, {"oh": oh, "ow": ow})
    T = _torch(ins)
    a = F.adaptive_avg_pool2d(T["x"], [oh, ow])
    check_all(outs, {"a": a, "a_": a, "a1": F.adaptive_avg_pool2d(T["x"], 1),
                     "a3": F.adaptive_avg_pool2d(T["x3"], oh),
                     "an": F.adaptive_avg_pool2d(T["x"], [None, ow]),
                     "an_": F.adaptive_avg_pool2d(T["x"], [oh, None])})


def nn_interp(n, c, h, w, oh, ow):
    import torch
    import torch.nn.functional as F
    rng = rng_for("nn_interp", n, c, h, w, oh, ow)
    x = rng.uniform(-2, 2, (n, c, h, w))
    ins = {"x": x.astype(f32), "xd": x}
    outs = ftc_run("nn_more.ft", "interp", ins, {"oh": oh, "ow": ow})
    T = _torch(ins)
    # nearest: torch computes its scale in f32 whatever the dtype
    near = F.interpolate(torch.tensor(ins["x"]), [oh, ow]).numpy()
    exact(outs, "near", near, f32)
    exact(outs, "near_", near, f32)
    bil = F.interpolate(T["x"], [oh, ow], mode="bilinear")
    check_all(outs, {"bil": bil, "bil_": bil,
                     "bila": F.interpolate(T["x"], [oh, ow], mode="bilinear", align_corners=True),
                     "sq": F.interpolate(T["x"], oh, mode="bilinear")})
    check_all(outs, {"bild": F.interpolate(T["xd"], [oh, ow], mode="bilinear"),
                     "bilad": F.interpolate(T["xd"], [oh, ow], mode="bilinear",
                                            align_corners=True)}, f64)


def nn_interp_sf(n, c, h, w):
    import torch
    import torch.nn.functional as F
    rng = rng_for("nn_interp_sf", n, c, h, w)
    ins = {"x": rng.uniform(-2, 2, (n, c, h, w)).astype(f32),
           "x5": rng.uniform(-2, 2, (2, 3, 5, 7)).astype(f32)}
    outs = ftc_run("nn_more.ft", "interp_sf", ins)
    x, x5 = torch.tensor(ins["x"]), torch.tensor(ins["x5"])
    exact(outs, "s2", F.interpolate(x, scale_factor=2).numpy(), f32)
    exact(outs, "f", F.interpolate(x5, scale_factor=1.5).numpy(), f32)
    T = _torch(ins)
    check_all(outs, {"s23": F.interpolate(T["x"], scale_factor=[2, 3], mode="bilinear"),
                     "s23_": F.interpolate(T["x"], scale_factor=[2, 3], mode="bilinear",
                                           align_corners=True),
                     "fb": F.interpolate(T["x5"], scale_factor=1.5, mode="bilinear"),
                     "fb_": F.interpolate(T["x5"], scale_factor=[0.7, 2.2], mode="bilinear")})


def nn_convt(consts):
    import torch.nn.functional as F
    k = {"G": 2, "N": 2, "C": 4, "H": 5, "W": 3, "O": 6, "KH": 3, "KW": 2, **consts}
    rng = rng_for("nn_convt", tuple(sorted(consts.items())))
    N, C, H, W, O, KH, KW, G = (k[c] for c in ("N", "C", "H", "W", "O", "KH", "KW", "G"))
    ins = {"x": rng.uniform(-1, 1, (N, C, H, W)).astype(f32),
           "w": rng.uniform(-1, 1, (C, O // G, KH, KW)).astype(f32),
           "b": rng.uniform(-1, 1, O).astype(f32), "x3": rng.uniform(-1, 1, (C, H, W)).astype(f32)}
    outs = ftc_run("nn_more.ft", "convt", ins, defines=consts)
    T = _torch(ins)
    x, w, b = T["x"], T["w"], T["b"]
    y = F.conv_transpose2d(x, w)
    s = F.conv_transpose2d(x, w, b, stride=2, padding=(1, 0), output_padding=1, groups=G)
    check_all(outs, {"y": y, "y_": y, "s": s, "s_": s,
                     "p": F.conv_transpose2d(x, w, stride=(2, 3), padding=1, output_padding=(1, 0),
                                             dilation=(2, 1)),
                     "u": F.conv_transpose2d(T["x3"], w, b[:O // G])})


M31 = 2**31 - 1


def drop_u(k, seed):
    """stdlib/nn.ft's _drop_u in Python: uniform in [0, 1) of (seed, k)."""
    def rnd(h, c, a):
        return ((h * h + c) % M31 * a + seed % M31) % M31
    h = (k % M31 * 48271 + seed % M31 * 16807 + k // M31 + 12345) % M31
    h = rnd(rnd(rnd(h, 1013904223, 69621), 507048114, 40692), 97, 48271)
    return h / M31


def nn_drop(n, m):
    rng = rng_for("nn_drop", n, m)
    x = nonzero(rng, (n, m))
    outs = ftc_run("nn_more.ft", "drop", {"x": x, "s": np.array(7, i64)})
    xd = x.astype(f64)
    d, ds = get(outs, "d"), get(outs, "ds")
    exact(outs, "d_", d, f32)                 # the same seed: the same mask
    exact(outs, "ev", x, f32)
    exact(outs, "ev_", x, f32)
    exact(outs, "all", np.zeros_like(x), f32)
    exact(outs, "none", x, f32)
    for name, p, seed in [("d", 0.3, 7), ("ds", 0.3, 8), ("d9", 0.9, 7)]:
        got = get(outs, name)
        keep = got != 0
        # exact zeros, survivors scaled by 1 / (1 - p)
        close({name: got[keep]}, name, xd[keep] / (1 - p), f32)
        want = np.array([drop_u(k, seed) >= p for k in range(n * m)]).reshape(n, m)
        if not (keep == want).all():
            raise Fail(f"{name}: mask differs from the hash's at {int((keep != want).sum())} elements")
        if n * m >= 10000:
            frac, sd = keep.mean(), np.sqrt(p * (1 - p) / (n * m))
            if abs(frac - (1 - p)) > 5 * sd:
                raise Fail(f"{name}: kept {frac:.4f}, want {1 - p} +- {5 * sd:.4f}")
    if n * m >= 100:
        same = ((d != 0) == (ds != 0)).mean()   # seeds 7 and 8: independent masks
        if abs(same - 0.58) > 0.1:
            raise Fail(f"seeds 7 and 8 agree on {same:.3f} of the mask, want about 0.58")
        kept = d != 0                              # neighbours independent
        agree = (kept[:, 1:] == kept[:, :-1]).mean() if m > 1 else 0.58
        if abs(agree - 0.58) > 0.1:
            raise Fail(f"neighbours agree on {agree:.3f} of the mask, want about 0.58")


for shape in [(1, 1, 1, 1), (3, 4, 5, 2), (2, 7, 9, 3)]:
    case(f"nn_more/embedding[{'x'.join(map(str, shape))}]", nn_embed, *shape)
case("nn_more/embedding_bad_index", nn_embed_bad)
for shape in [(1, 1), (3, 3), (4, 7), (6, 5)]:
    case(f"nn_more/pad[{'x'.join(map(str, shape))}]", nn_pads, *shape)
for shape in [(2, 4, 3, 5, 2), (1, 2, 1, 2, 1), (3, 6, 2, 3, 3), (2, 6, 1, 7, 2)]:
    case(f"nn_more/group_norm[{'x'.join(map(str, shape))}]", nn_gnorm, *shape)
for shape in [(2, 3, 7, 5, 3, 2), (1, 1, 1, 1, 1, 1), (1, 2, 5, 9, 5, 4), (2, 1, 4, 4, 6, 7),
              (1, 2, 10, 11, 4, 3)]:
    case(f"nn_more/adaptive_avg_pool2d[{'x'.join(map(str, shape))}]", nn_apool, *shape)
for shape in [(2, 3, 5, 4, 7, 3), (1, 1, 1, 1, 3, 2), (1, 2, 3, 7, 1, 1), (1, 2, 3, 5, 9, 10),
              (1, 1, 4, 6, 4, 6), (1, 1, 7, 5, 20, 13), (2, 1, 6, 3, 12, 6)]:
    case(f"nn_more/interpolate[{'x'.join(map(str, shape))}]", nn_interp, *shape)
for shape in [(1, 1, 1, 1), (2, 3, 4, 5)]:
    case(f"nn_more/interpolate_scale_factor[{'x'.join(map(str, shape))}]", nn_interp_sf, *shape)
for consts in [{}, {"N": 1, "C": 1, "H": 2, "W": 1, "O": 1, "KH": 1, "KW": 3, "G": 1},
               {"N": 1, "C": 6, "H": 4, "W": 7, "O": 9, "KH": 2, "KW": 3, "G": 3}]:
    label = ",".join(f"{k}={v}" for k, v in consts.items()) or "default"
    case(f"nn_more/conv_transpose2d[{label}]", nn_convt, consts)
for shape in [(1, 1), (3, 5), (300, 101)]:
    case(f"nn_more/dropout[{'x'.join(map(str, shape))}]", nn_drop, *shape)


# --- main ------------------------------------------------------------------

def main():
    global FTC, ROOT, WORK
    FTC, ROOT, _, base.VERBOSE = args = H.parse_args(__doc__)
    with tempfile.TemporaryDirectory(prefix="ftc-stdlib-") as WORK:
        return H.run_cases(CASES, args.pattern)


FTC = ROOT = WORK = None

if __name__ == "__main__":
    sys.exit(main())
