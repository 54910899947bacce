"""Issue 21's operators (activations, selections, statistics, losses,
layers) at ranks 0 to 4, f32 and f64, broadcasting and empty dimensions:
programs generated here from the tables below (one exported function per
rank and dtype, every operator in its allocating and in-place form), built
once each and compared with NumPy in float64 (PyTorch for the losses and
layers, as torch.nn.functional computes them).  Imported by
stdlib_run.py, whose cases these are."""
import math

import numpy as np

f32, f64 = np.float32, np.float64
NP = {"f32": f32, "f64": f64, "i32": np.int32, "i64": np.int64, "bool": np.bool_}
_erf = np.vectorize(math.erf, otypes=[f64])


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.logaddexp(0, beta * x) / beta)


# Element-wise: (label, allocating expression, in-place statement with OUT,
# reference from x (floats in -3..3, no zeros), p (positive), c (bools)).
EW = [
    ("silu", "silu(x)", "silu_(x, OUT)", lambda x, p, c: x / (1 + np.exp(-x))),
    ("leaky_relu", "leaky_relu(x, 0.2)", "leaky_relu_(x, OUT, negative_slope=0.2)",
     lambda x, p, c: np.where(x > 0, x, 0.2 * x)),
    ("elu", "elu(x, alpha=1.5)", "elu_(x, OUT, alpha=1.5)",
     lambda x, p, c: np.where(x > 0, x, 1.5 * np.expm1(x))),
    ("softplus", "softplus(x)", "softplus_(x, OUT)", lambda x, p, c: _softplus(x)),
    ("softplus_beta", "softplus(x, beta=2, threshold=1)", "softplus_(x, OUT, 2, 1)",
     lambda x, p, c: _softplus(x, 2.0, 1.0)),
    ("gelu", "gelu(x)", "gelu_(x, OUT)", lambda x, p, c: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    ("gelu_tanh", "gelu(x, approximate=\"tanh\")", "gelu_(x, OUT, \"tanh\")",
     lambda x, p, c: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    ("clamp", "clamp(x, -0.5, 0.7)", "clamp_(x, OUT, min=-0.5, max=0.7)",
     lambda x, p, c: np.clip(x, -0.5, 0.7)),
    ("clamp_min", "clamp(x, min=0.2)", "clamp_(x, OUT, 0.2)", lambda x, p, c: np.maximum(x, 0.2)),
    ("clamp_max", "clamp(x, max=-0.1)", "clamp_(x, OUT, max=-0.1)",
     lambda x, p, c: np.minimum(x, -0.1)),
    ("sign", "sign(x)", "sign_(x, OUT)", lambda x, p, c: np.sign(x)),
    ("reciprocal", "reciprocal(x)", "reciprocal_(x, OUT)", lambda x, p, c: 1 / x),
    ("rsqrt", "rsqrt(p)", "rsqrt_(p, OUT)", lambda x, p, c: 1 / np.sqrt(p)),
    ("where", "where(c, x, p)", "where_(c, x, p, OUT)", lambda x, p, c: np.where(c, x, p)),
    ("where_scalar", "where(c, 0.5, x)", "where_(c, 0.5, x, OUT)",
     lambda x, p, c: np.where(c, 0.5, x)),
]
# Logical: (label, expression, reference), bool results.
LOGIC = [
    ("logical_and", "logical_and(c, x > 0)", lambda x, c: c & (x > 0)),
    ("logical_or", "logical_or(c, x)", lambda x, c: c | (x != 0)),
    ("logical_not", "logical_not(c)", lambda x, c: ~c),
]
# Reductions of x: (label, call with AXIS, reference with axis and keepdims).
RED = [
    ("mean", "mean(x, AXIS)", "mean_(x, OUT, AXIS)", lambda x, a, k: x.mean(a, keepdims=k)),
    ("variance", "variance(x, AXIS)", "variance_(x, OUT, AXIS)",
     lambda x, a, k: x.var(a, ddof=1, keepdims=k)),
    ("variance_biased", "variance(x, AXIS, unbiased=False)",
     "variance_(x, OUT, AXIS, unbiased=False)", lambda x, a, k: x.var(a, keepdims=k)),
    ("std", "std(x, AXIS)", "std_(x, OUT, AXIS)", lambda x, a, k: x.std(a, ddof=1, keepdims=k)),
    ("logsumexp", "logsumexp(x, AXIS)", "logsumexp_(x, OUT, AXIS)",
     lambda x, a, k: np.log(np.exp(x).sum(a, keepdims=k))),
    ("norm1", "norm(x, 1, AXIS)", "norm_(x, OUT, 1, AXIS)",
     lambda x, a, k: np.abs(x).sum(a, keepdims=k)),
    ("norm2", "norm(x, 2, AXIS)", "norm_(x, OUT, 2, AXIS)",
     lambda x, a, k: np.sqrt((x * x).sum(a, keepdims=k))),
    ("norminf", "norm(x, inf, AXIS)", "norm_(x, OUT, inf, AXIS)",
     lambda x, a, k: np.abs(x).max(a, keepdims=k)),
]
# Index and logic reductions: (label, call, in-place, reference, result dtype).
ARG = [
    ("argmax", "argmax(x, AXIS)", "argmax_(x, OUT, AXIS)",
     lambda x, c, a, k: _arg(np.argmax, x, a, k), "i64"),
    ("argmin", "argmin(x, AXIS)", "argmin_(x, OUT, AXIS)",
     lambda x, c, a, k: _arg(np.argmin, x, a, k), "i64"),
    ("all", "all(c, AXIS)", "all_(c, OUT, AXIS)", lambda x, c, a, k: c.all(a, keepdims=k), "bool"),
    ("any", "any(c, AXIS)", "any_(c, OUT, AXIS)", lambda x, c, a, k: c.any(a, keepdims=k), "bool"),
]

# Integer inputs (x: integers -4..4, zeros included; c: bools): the
# operators that apply to them, (label, allocating, in-place with OUT,
# reference from x and c, result dtype: "X" for x's own).
INT_EW = [
    ("clamp", "clamp(x, -2, 3)", "clamp_(x, OUT, -2, 3)", lambda x, c: np.clip(x, -2, 3), "X"),
    ("clamp_min", "clamp(x, min=0)", "clamp_(x, OUT, 0)", lambda x, c: np.maximum(x, 0), "X"),
    ("sign", "sign(x)", "sign_(x, OUT)", lambda x, c: np.sign(x), "X"),
    ("where", "where(c, x, -x)", "where_(c, x, -x, OUT)", lambda x, c: np.where(c, x, -x), "X"),
    ("reciprocal", "reciprocal(x + 5)", "reciprocal_(x + 5, OUT)", lambda x, c: 1 / (x + 5),
     "f64"),
    ("logical_and", "logical_and(x, c)", "", lambda x, c: (x != 0) & c, "bool"),
    ("logical_or", "logical_or(x, x < 0)", "", lambda x, c: x != 0, "bool"),
    ("logical_not", "logical_not(x)", "", lambda x, c: x == 0, "bool"),
]
# Reductions of integer x over its last axis: (label, call, in-place,
# reference from x and c, result dtype); integers average in f64, as NumPy.
INT_RED = [
    ("mean", "mean(x, -1)", "mean_(x, OUT, -1)", lambda x, c: x.mean(-1), "f64"),
    ("variance", "variance(x, -1, unbiased=False)", "variance_(x, OUT, -1, unbiased=False)",
     lambda x, c: x.var(-1), "f64"),
    ("std", "std(x, -1)", "std_(x, OUT, -1)", lambda x, c: x.std(-1, ddof=1), "f64"),
    ("logsumexp", "logsumexp(x, -1)", "logsumexp_(x, OUT, -1)",
     lambda x, c: np.log(np.exp(x).sum(-1)), "f64"),
    ("norm1", "norm(x, 1, -1)", "norm_(x, OUT, 1, -1)", lambda x, c: np.abs(x).sum(-1), "X"),
    ("norm2", "norm(x, 2, -1)", "norm_(x, OUT, 2, -1)",
     lambda x, c: np.sqrt((x * x).sum(-1)), "f64"),
    ("norminf", "norm(x, inf, -1)", "norm_(x, OUT, inf, -1)", lambda x, c: np.abs(x).max(-1), "X"),
    ("argmax", "argmax(x, -1)", "argmax_(x, OUT, -1)", lambda x, c: np.argmax(x, -1), "i64"),
    ("argmin", "argmin(x, -1)", "argmin_(x, OUT, -1)", lambda x, c: np.argmin(x, -1), "i64"),
    ("all", "all(x, -1)", "all_(x, OUT, -1)", lambda x, c: x.all(-1), "bool"),
    ("any", "any(x, -1)", "any_(x, OUT, -1)", lambda x, c: x.any(-1), "bool"),
]
# Operands of different ranks broadcast together (NumPy's rules): x and p
# [n, m], r [m], col [n, 1], s 0-D, c [m] bools: (label, allocating,
# in-place with OUT, reference).
BCAST = [
    ("where", "where(c, x, col)", "where_(c, x, col, OUT)", lambda x, p, r, col, s, c:
     np.where(c, x, col)),
    ("where_0d", "where(c, s, col)", "where_(c, s, col, OUT)", lambda x, p, r, col, s, c:
     np.where(c, s, col)),
    ("where_rows", "where(x > col, r, s)", "where_(x > col, r, s, OUT)",
     lambda x, p, r, col, s, c: np.where(x > col, r, s)),
    ("clamp", "clamp(x, col, r + 1)", "clamp_(x, OUT, col, r + 1)", lambda x, p, r, col, s, c:
     np.minimum(np.maximum(x, col), r + 1)),
    ("clamp_min", "clamp(x, min=r)", "clamp_(x, OUT, r)", lambda x, p, r, col, s, c:
     np.maximum(x, r)),
    ("pow", "pow(p, col)", "pow_(p, col, OUT)", lambda x, p, r, col, s, c: p ** col),
    ("leaky_relu", "leaky_relu(x - r)", "leaky_relu_(x - r, OUT)", lambda x, p, r, col, s, c:
     np.where(x > r, x - r, 0.01 * (x - r))),
]
# In-place forms whose operand q [k] is 1 only at run time (k a size
# parameter): repeated over out [n, m] as NumPy's `out=` does.
BCAST_RT = [
    ("silu_", "silu_(q, OUT)", lambda x, p, r, col, s, c, q: q / (1 + np.exp(-q))),
    ("gelu_", "gelu_(q, OUT, \"tanh\")", lambda x, p, r, col, s, c, q:
     0.5 * q * (1 + np.tanh(math.sqrt(2 / math.pi) * (q + 0.044715 * q ** 3)))),
    ("clamp_", "clamp_(x, OUT, q, r + 1)", lambda x, p, r, col, s, c, q:
     np.minimum(np.maximum(x, q), r + 1)),
    ("where_", "where_(x > 0, q, col, OUT)", lambda x, p, r, col, s, c, q:
     np.where(x > 0, q, col)),
]
BCAST_LOGIC = [
    ("logical_and", "logical_and(c, x > col)", lambda x, p, r, col, s, c: c & (x > col)),
    ("logical_or", "logical_or(x > s, c)", lambda x, p, r, col, s, c: (x > s) | c),
]


def _arg(fn, x, axis, keepdims):
    if axis is None:
        r = np.asarray(fn(x))
        return r.reshape((1,) * x.ndim) if keepdims else r
    r = fn(x, axis)
    return np.expand_dims(r, axis) if keepdims else r


def axes_for(rank, empty):
    """The axis options tried at a rank: (ft text, NumPy axis, keepdims)."""
    if rank == 0:
        return [("", None, False)]
    out = [(", axis=-1", -1, False)]
    if not empty:
        out += [("", None, False), (", axis=0, keepdims=True", 0, True)]
    if rank >= 2 and not empty:
        out.append((f", axis=[0, {rank - 1}]", (0, rank - 1), False))
    return out


def program(rank, dt, empty):
    """The .ft text of function f for inputs of `rank` dimensions of dtype
    dt, and the list of (output name, reference function, dtype)."""
    dims = [f"n{i}" for i in range(rank)]
    shape = f"[{', '.join(dims)}]" if rank else ""
    params = [f"{d}: size" for d in dims]
    params += [f"x: {dt}{shape} in", f"p: {dt}{shape} in", f"c: bool{shape} in"]
    body, refs = [], []
    for k, (label, alloc, inplace, ref) in enumerate(EW):
        params += [f"ew{k}: {dt}{shape} out", f"ewi{k}: {dt}{shape} out"]
        body += [f"ew{k} = {alloc}", inplace.replace("OUT", f"ewi{k}")]
        refs += [(f"ew{k}", label, lambda x, p, c, r=ref: r(x, p, c), dt),
                 (f"ewi{k}", label + "_", lambda x, p, c, r=ref: r(x, p, c), dt)]
    for k, (label, expr, ref) in enumerate(LOGIC):
        params.append(f"lg{k}: bool{shape} out")
        body.append(f"lg{k} = {expr}")
        refs.append((f"lg{k}", label, lambda x, p, c, r=ref: r(x, c), "bool"))
    k = 0
    for text, axis, keep in axes_for(rank, empty):
        red = set(range(rank)) if axis is None else {a % rank for a in np.atleast_1d(axis)}
        rdims = ["1" if i in red else dims[i] for i in _kept(rank, axis, keep)]
        rt = f"[{', '.join(rdims)}]" if rdims else ""
        for label, alloc, inplace, ref in RED:
            params += [f"r{k}: {dt}{rt} out", f"ri{k}: {dt}{rt} out"]
            body += [f"r{k} = {alloc.replace(', AXIS', text)}",
                     inplace.replace(", AXIS", text).replace("OUT", f"ri{k}")]
            refs += [(f"r{k}", f"{label}{text}", lambda x, p, c, r=ref, a=axis, kd=keep:
                      r(x, a, kd), dt),
                     (f"ri{k}", f"{label}_{text}", lambda x, p, c, r=ref, a=axis, kd=keep:
                      r(x, a, kd), dt)]
            k += 1
        for label, alloc, inplace, ref, rdt in ARG:
            if label.startswith("arg") and (empty or isinstance(axis, tuple)):
                continue        # one axis only; none of an empty dimension
            params += [f"r{k}: {rdt}{rt} out", f"ri{k}: {rdt}{rt} out"]
            body += [f"r{k} = {alloc.replace(', AXIS', text)}",
                     inplace.replace(", AXIS", text).replace("OUT", f"ri{k}")]
            refs += [(f"r{k}", f"{label}{text}", lambda x, p, c, r=ref, a=axis, kd=keep:
                      r(x, c, a, kd), rdt),
                     (f"ri{k}", f"{label}_{text}", lambda x, p, c, r=ref, a=axis, kd=keep:
                      r(x, c, a, kd), rdt)]
            k += 1
    return _function(params, body), refs


def _kept(rank, axis, keep):
    """x's dimensions that make up the result's, in order."""
    red = set(range(rank)) if axis is None else {a % rank for a in np.atleast_1d(axis)}
    return [i for i in range(rank) if keep or i not in red]


def run_case(build_run, rank, shape, dt, empty=False):
    """Build the program for (rank, dt, empty), run it on random inputs of
    `shape` and compare every output; build_run(src, name, inputs) returns
    the outputs (the caller builds and runs, at 1, 2 and 4 threads)."""
    src, refs = program(rank, dt, empty)
    rng = np.random.default_rng(rank * 10 + (dt == "f64") + 100 * empty)
    npdt = {"f32": f32, "f64": f64}[dt]
    x = (rng.uniform(0.25, 3, shape) * rng.choice([-1, 1], shape)).astype(npdt)
    p = rng.uniform(0.5, 2, shape).astype(npdt)
    c = rng.random(shape) > 0.5
    outs = build_run(src, f"ops_r{rank}_{dt}{'_empty' if empty else ''}",
                     {"x": x, "p": p, "c": np.asarray(c)})
    return _compare(outs, refs, (x.astype(f64), p.astype(f64), np.asarray(c)))


def _shape_text(dims):
    return f"[{', '.join(dims)}]" if dims else ""


def int_program(rank, dt):
    """Function f over integer x of `rank` (>= 1) dimensions of dtype dt:
    INT_EW's operators (both forms where there is an in-place one) and
    INT_RED's over the last axis; the (output, label, reference, dtype)
    list."""
    dims = [f"n{i}" for i in range(rank)]
    shape, rshape = _shape_text(dims), _shape_text(dims[:-1])
    params = [f"{d}: size" for d in dims] + [f"x: {dt}{shape} in", f"c: bool{shape} in"]
    body, refs = [], []
    for table, t, outs in ((INT_EW, shape, "e"), (INT_RED, rshape, "r")):
        for k, (label, alloc, inplace, ref, rdt) in enumerate(table):
            rdt = dt if rdt == "X" else rdt
            name, iname = f"{outs}{k}", f"{outs}i{k}"
            forms = [(name, f"{name} = {alloc}", label)]
            if inplace:
                forms.append((iname, inplace.replace("OUT", iname), label + "_"))
            for out, stmt, lab in forms:
                params.append(f"{out}: {rdt}{t} out")
                body.append(stmt)
                refs.append((out, lab, ref, rdt))
    return _function(params, body), refs


def bcast_program():
    """Function f over operands of different ranks (BCAST's shapes); the
    (output, label, reference, dtype) list."""
    params = ["n: size", "m: size", "k: size", "x: f32[n, m] in", "p: f32[n, m] in",
              "r: f32[m] in", "col: f32[n, 1] in", "s: f32 in", "c: bool[m] in", "q: f32[k] in"]
    body, refs = [], []
    for k, (label, inplace, ref) in enumerate(BCAST_RT):
        params.append(f"bq{k}: f32[n, m] out")
        body.append(inplace.replace("OUT", f"bq{k}"))
        refs.append((f"bq{k}", label + " (size 1 at run time)",
                     lambda *a, r=ref: np.broadcast_to(r(*a), a[0].shape), "f32"))
    for k, (label, alloc, inplace, ref) in enumerate(BCAST):
        params += [f"b{k}: f32[n, m] out", f"bi{k}: f32[n, m] out"]
        body += [f"b{k} = {alloc}", inplace.replace("OUT", f"bi{k}")]
        refs += [(f"b{k}", label, lambda *a, r=ref: r(*a[:6]), "f32"),
                 (f"bi{k}", label + "_", lambda *a, r=ref: r(*a[:6]), "f32")]
    for k, (label, expr, ref) in enumerate(BCAST_LOGIC):
        params.append(f"bl{k}: bool[n, m] out")
        body.append(f"bl{k} = {expr}")
        refs.append((f"bl{k}", label, lambda *a, r=ref: r(*a[:6]), "bool"))
    return _function(params, body), refs


def _function(params, body):
    return ("export func f(" + ",\n        ".join(params) + "):\n    " +
            "\n    ".join(body) + "\n")


def _compare(outs, refs, args):
    """CHECK every output against its reference on ARGS (float64 or the
    integers themselves); the list of failures."""
    bad = []
    for name, label, ref, rdt in refs:
        try:
            with np.errstate(all="ignore"):
                want = np.asarray(ref(*args))
            CHECK(outs, name, want, NP[rdt])
        except Exception as e:          # noqa: BLE001  (a Fail: collected, reported together)
            bad.append(f"{label}: {e}")
    return bad


def run_int_case(build_run, rank, shape, dt):
    """int_program's outputs on random integers of `shape`, checked."""
    src, refs = int_program(rank, dt)
    rng = np.random.default_rng(rank * 7 + (dt == "i64"))
    x = rng.integers(-4, 5, shape).astype(NP[dt])
    c = rng.random(shape) > 0.5
    outs = build_run(src, f"ops_int_r{rank}_{dt}", {"x": x, "c": c})
    return _compare(outs, refs, (x.astype(np.int64), c))


def run_bcast_case(build_run, n, m):
    """bcast_program's outputs on random [n, m], [m], [n, 1], 0-D and
    [k] (k = 1) operands, checked."""
    src, refs = bcast_program()
    rng = np.random.default_rng(n * 100 + m)
    ins = {"x": rng.uniform(-2, 2, (n, m)), "p": rng.uniform(0.5, 2, (n, m)),
           "r": rng.uniform(-1, 1, m), "col": rng.uniform(-1, 1, (n, 1)),
           "s": np.asarray(rng.uniform(-1, 1))}
    ins = {k: v.astype(f32) for k, v in ins.items()}
    ins["c"] = rng.random(m) > 0.5
    ins["q"] = rng.uniform(-2, 2, 1).astype(f32)
    outs = build_run(src, f"ops_bcast_{n}x{m}", ins)
    args = [ins[k].astype(f64) for k in ("x", "p", "r", "col", "s")] + [ins["c"]]
    args.append(ins["q"].astype(f64))
    return _compare(outs, refs, args)


CHECK = None      # set by stdlib_run.py: its check(outs, name, ref, dtype)
