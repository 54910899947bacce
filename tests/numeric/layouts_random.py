#!/usr/bin/env python3
"""Random stdlib programs with random parameter layouts, against NumPy
(issue 22's done-criterion).

    layouts_random.py PATH/TO/ftc SOURCE_ROOT [--count N] [--seed S] [-v] [--keep DIR]

Generates N (200) small .ft programs, each one exported function: f32
tensor parameters of rank 1-4 (extents 1..9, constants or `size`
parameters, so that blocked dimensions are padded), each with a random
`layout` clause or none (permutations; one or two blocks of 2..8 on one or
two dimensions, anywhere in the physical order), and a body of 1-4 stdlib
operations chained through locals (some with their own `layout`, some
nested in the next operation): element-wise unary and binary with
broadcasting, where, reductions over one or two axes with and without
keepdims, softmax, log_softmax, transpose, reshape, slices, matmul, conv2d
(with a bias or not) and the pools on NCHW, concat, flip, cumsum, pad, and
inline operators that require_layout their argument (a conversion), or a
require_layout of an `in` parameter.  An output is assigned, computed by
an operator's in-place form (`relu_(t, y)`), or stored in two slices.
Shapes are tracked by the generator, so every program is valid by
construction (a dimension broadcasts only where it is the constant 1).

The programs are built in batches (several functions per file, two builds
at a time): every batch by default, and half of them also with --no-auto,
some with --layout-cost=count or --layout-mode=local.  Each function is
called at 1, 2 and 4 OpenMP threads on random inputs packed into their
physical layouts (their pad lanes NaN: an `in`'s pads are never read) with
layouts_run.pack, outputs filled with NaN; every output is unpacked
(layouts_run.unpack) and compared with a NumPy float64 reference computed
from the generator's own op list, and the pad lanes of every blocked `out`
must be exactly 0.  One line per program, a summary; exits 1 on a failure
other than the expected ones (XFAIL: known bugs, each with its reproducer
in tests/numeric/layouts/repro_*.ft, keyed by the CRC-32 of the failing
program's text).  The reproducers are built and checked too (with and
without --no-auto): they must fail as described, or pass (XPASS: the bug is
fixed; a note, not a failure).
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftlib  # noqa: E402
from layouts_run import pack, pad_mask, unpack  # noqa: E402

DEFAULT_COUNT, DEFAULT_SEED = 200, 22
BATCH = 10              # programs per built file
RTOL = 1e-4
THREADS = (1, 2, 4)
# the builds of batch b: always the default, plus EXTRA[b % 4]
EXTRA = (["--no-auto"], ["--no-auto", "--layout-cost=count"], ["--layout-mode=local"],
         ["--layout-cost=count"])

# Known bugs: the CRC-32 of a program's text (printed with each failure)
# -> (its reproducer in tests/numeric/layouts/, a text every error of that
# program contains): such a failure is expected (XFAIL); any other error of
# the program still fails, and one that passes is reported (XPASS).
XFAIL = {}
# repro_auto_conv_race.ft (--seed 9: p115): auto_parallelize merged a
# reduction's block loop khi with the output's block loop ni and made the
# result parallel (the verifier stopped the build).  Since the layout pass
# marks the loops of contiguous physical dimensions and auto_layout_sink
# brings the written block (ni) innermost, that nest no longer arises: the
# program must build and pass; the merge's check itself was not changed.
CONV_RACE = "repro_auto_conv_race.ft"
# Fixed bugs' reproducers, which must now pass: a K = 1 product of a size
# extent handed to BLAS lost its accumulation to auto_zero_init (an
# internal error of the C backend; auto_zero_init now leaves AST_LIB nests
# alone), and GCC 12.2's loop
# if-conversion left elements of a guarded `where` store unwritten (seeds 4,
# 12, 17); the C target now compiles such functions without it
# (backend/cg_c.c, cg_guarded_select).
GCC_WHERE = "repro_gcc_guarded_where.ft"
AS_LIB_K1 = "repro_matmul_k1.ft"


# --- shapes -----------------------------------------------------------------

class Dim:
    """One extent: its value in this program and its .ft text (a literal,
    a size parameter or an expression of them)."""

    def __init__(self, val, text=None):
        self.val, self.text = int(val), str(val) if text is None else text

    @property
    def literal(self):
        return self.text == str(self.val)


def dim_expr(fmt, val, *dims):
    """A derived extent: value VAL, text FMT of the operands' texts (a
    literal when every operand is one)."""
    if all(d.literal for d in dims):
        return Dim(val)
    return Dim(val, fmt.format(*[d.text if d.literal or d.text.isidentifier()
                                  else f"({d.text})" for d in dims]))


def shape_text(shape):
    return ", ".join(d.text for d in shape)


def vals(shape):
    return tuple(d.val for d in shape)


# --- layouts ----------------------------------------------------------------

def random_layout(rng, letters, allow_none=True):
    """A layout "L->P" for logical letters LETTERS (None: no clause)."""
    r = rng.random()
    if allow_none and r < 0.2:
        return None
    caps = list(letters)
    perm = [caps[i] for i in rng.permutation(len(caps))]
    if r < 0.27:
        return f"{letters}->{letters}"
    if r < 0.55:
        return f"{letters}->{''.join(perm)}"
    items = list(perm)
    nblocks = 1 if rng.random() < 0.6 else 2
    on = [letters[rng.integers(len(letters))]]
    if nblocks == 2:
        on.append(on[0] if rng.random() < 0.4 else letters[rng.integers(len(letters))])
    for c in on:
        blk = f"{rng.integers(2, 9)}{c.lower()}"
        if rng.random() < 0.7:
            items.append(blk)
        else:
            items.insert(int(rng.integers(len(items) + 1)), blk)
    return f"{letters}->{''.join(items)}"


LETTERS = {1: ["A", "N", "K"], 2: ["AB", "MK", "NC"], 3: ["ABC", "CHW", "NCW"],
           4: ["ABCD", "NCHW", "OIHW"]}


def layout_for(rng, rank, allow_none=True):
    letters = LETTERS[rank][rng.integers(len(LETTERS[rank]))]
    return random_layout(rng, letters, allow_none)


# --- NumPy references ---------------------------------------------------------

def np_conv2d(x, w, stride, padding):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    oh = (h + 2 * padding - kh) // stride + 1
    ow = (wd + 2 * padding - kw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            win = xp[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
            out += np.einsum("nchw,oc->nohw", win, w[:, :, i, j])
    return out


def np_pool(x, k, s, kind):
    h, w = x.shape[-2:]
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    wins = [x[..., i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s]
            for i in range(k) for j in range(k)]
    return np.max(wins, axis=0) if kind == "max" else np.mean(wins, axis=0)


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


UNARY = {
    "relu": ("relu({})", lambda x: np.maximum(x, 0)),
    "exp": ("exp({})", np.exp),
    "tanh": ("tanh({})", np.tanh),
    "sigmoid": ("sigmoid({})", lambda x: 1 / (1 + np.exp(-x))),
    "neg": ("-{}", np.negative),
    "abs": ("abs({})", np.abs),
    "square": ("square({})", np.square),
    "silu": ("silu({})", lambda x: x / (1 + np.exp(-x))),
    "softplus": ("softplus({})", lambda x: np.logaddexp(0, x)),
    "scale": ("{} * 0.5", lambda x: x * 0.5),
    "shift": ("{} + 1.5", lambda x: x + 1.5),
}
BINARY = {
    "add": ("add({}, {})", np.add), "+": ("{} + {}", np.add),
    "sub": ("sub({}, {})", np.subtract), "-": ("{} - {}", np.subtract),
    "mul": ("mul({}, {})", np.multiply), "*": ("{} * {}", np.multiply),
    "maximum": ("maximum({}, {})", np.maximum), "minimum": ("minimum({}, {})", np.minimum),
}
REDUCE = {"sum": ("sum", np.sum), "reduce_max": ("reduce_max", np.max),
          "max": ("max", np.max), "mean": ("mean", np.mean), "reduce_min": ("reduce_min", np.min)}


# --- programs ---------------------------------------------------------------

class Call:
    """A call FN(TENSORS..., REST...) of an operator that also has the
    in-place form FN_(TENSORS..., out, REST...)."""

    def __init__(self, fn, tensors, rest=()):
        self.fn, self.tensors, self.rest = fn, list(tensors), list(rest)

    def __str__(self):
        return f"{self.fn}({', '.join(self.tensors + self.rest)})"

    def inplace(self, out):
        return f"{self.fn}_({', '.join(self.tensors + [out] + self.rest)})"


class Value:
    """A tensor of the program: its name (a parameter or a local), shape,
    and the reference value (float64)."""

    def __init__(self, name, shape, ref):
        self.name, self.shape, self.ref = name, shape, ref

    @property
    def rank(self):
        return len(self.shape)


class Program:
    """One random program: its text and everything to call and check it."""

    def __init__(self, index, rng):
        self.index, self.rng = index, rng
        self.fname = f"p{index:03d}"
        self.sizes = {}          # size name -> value
        self.inputs = []         # (name, shape, layout, f32 array)
        self.outputs = []        # (name, shape, layout, reference)
        self.body = []           # lines
        self.ops = []            # op names (for the summary)
        self.values = []         # Values available as operands
        self.helpers = []        # texts of inline functions (require_layout)
        self.layouts_used = []   # require_layout's layouts
        self.nlocal = 0
        self.generate()

    # -- pieces
    def extent(self):
        """A fresh extent: a literal or a size parameter, 1..9 (a few
        10..20, so that loops over blocks run several times)."""
        rng = self.rng

        def value():
            return int(rng.integers(10, 21) if rng.random() < 0.08 else rng.integers(1, 10))
        if rng.random() < 0.3:
            if self.sizes and rng.random() < 0.5:
                name = list(self.sizes)[rng.integers(len(self.sizes))]
                return Dim(self.sizes[name], name)
            if len(self.sizes) < 2:
                name = "nm"[len(self.sizes)]
                self.sizes[name] = value()
                return Dim(self.sizes[name], name)
        return Dim(value())

    def new_input(self, shape, layout="random", scale=1.0):
        rng = self.rng
        name = f"x{len(self.inputs)}"
        if layout == "random":
            layout = layout_for(rng, len(shape))
        a = (rng.standard_normal(vals(shape)) * scale).astype(np.float32)
        self.inputs.append((name, shape, layout, a))
        v = Value(name, shape, a.astype(np.float64))
        self.values.append(v)
        return v

    def bind(self, expr, shape, ref, op):
        """`var tK = expr` (some with a layout clause); the new Value."""
        self.nlocal += 1
        name = f"t{self.nlocal}"
        self.ops.append(op)
        if self.rng.random() < 0.3:
            lay = layout_for(self.rng, len(shape), allow_none=False)
            self.body.append(f"var {name}: f32[{shape_text(shape)}] layout \"{lay}\" = {expr}")
        else:
            self.body.append(f"var {name} = {expr}")
        v = Value(name, shape, ref)
        self.values.append(v)
        return v

    def broadcast_partner(self, x):
        """Another operand broadcasting to x's shape (a dimension stretches
        only where it is the constant 1; others are the same expression:
        `[n] + [m]` needs n == m even where m is 1): an earlier value of a
        compatible shape, a new input of x's shape with some extents 1 and
        leading dimensions dropped, or x itself."""
        rng = self.rng
        fits = [v for v in self.values if v is not x and v.rank <= x.rank and all(
            a.text == b.text or a.text == "1" for a, b in zip(v.shape[::-1], x.shape[::-1]))]
        if fits and rng.random() < 0.4:
            return fits[rng.integers(len(fits))]
        if rng.random() < 0.1:
            return x
        drop = int(rng.integers(0, x.rank)) if rng.random() < 0.3 else 0
        shape = [Dim(1) if rng.random() < 0.3 else d for d in x.shape[drop:]]
        return self.new_input(shape)

    # -- operations: each returns (expr, shape, ref, op) or None
    def op_unary(self, x):
        name = list(UNARY)[self.rng.integers(len(UNARY))]
        if name == "exp" and np.max(np.abs(x.ref), initial=0) > 8:
            name = "tanh"
        fmt, f = UNARY[name]
        if fmt.endswith("({})"):
            return Call(fmt[:-4], [x.name]), x.shape, f(x.ref), name
        return fmt.format(x.name), x.shape, f(x.ref), name

    def op_binary(self, x):
        name = list(BINARY)[self.rng.integers(len(BINARY))]
        y = self.broadcast_partner(x)
        fmt, f = BINARY[name]
        a, b = (x, y) if self.rng.random() < 0.7 else (y, x)
        if fmt.endswith("({}, {})"):
            return Call(name, [a.name, b.name]), x.shape, f(a.ref, b.ref), name
        return fmt.format(a.name, b.name), x.shape, f(a.ref, b.ref), name

    def op_where(self, x):
        cond = self.new_input(x.shape if self.rng.random() < 0.7 else
                              [Dim(1) if self.rng.random() < 0.4 else d for d in x.shape])
        y = self.broadcast_partner(x)
        a, b = (x, y) if self.rng.random() < 0.5 else (y, x)
        return (Call("where", [f"{cond.name} > 0", a.name, b.name]), x.shape,
                np.where(cond.ref > 0, a.ref, b.ref), "where")

    def op_reduce(self, x):
        rng = self.rng
        name = list(REDUCE)[rng.integers(len(REDUCE))]
        fn, f = REDUCE[name]
        if x.rank >= 3 and fn not in ("max", "min") and rng.random() < 0.3:   # two axes
            axes = sorted(int(a) for a in rng.choice(x.rank, 2, replace=False))
            axis, text = tuple(axes), str(axes)
        else:
            axis = int(rng.integers(-x.rank, x.rank))
            axes, text = [axis % x.rank], str(axis)
        keep = x.rank == len(axes) or rng.random() < 0.5
        shape = [Dim(1) if k in axes else d for k, d in enumerate(x.shape)] if keep else \
            [d for k, d in enumerate(x.shape) if k not in axes]
        kw = ", keepdims=True" if keep else (", keepdims=False" if rng.random() < 0.3 else "")
        axs = f"axis={text}" if rng.random() < 0.5 or fn in ("max", "min") else text
        ref = f(x.ref, axis=axis, keepdims=keep)
        if fn in ("max", "min"):
            return f"{fn}({x.name}, {axs}{kw})", shape, ref, name
        return Call(fn, [x.name], [axs + kw]), shape, ref, name

    def op_softmax(self, x):
        axis = int(self.rng.integers(-x.rank, x.rank))
        if self.rng.random() < 0.3:
            return (Call("log_softmax", [x.name], [f"axis={axis}"]), x.shape,
                    np.log(np_softmax(x.ref, axis)), "log_softmax")
        return Call("softmax", [x.name], [f"axis={axis}"]), x.shape, np_softmax(x.ref, axis), \
            "softmax"

    def op_require(self, x):
        """An inline operator that requires its argument in a layout (a
        conversion unless it already is), then an element-wise op."""
        rng = self.rng
        name = f"{self.fname}_r{len(self.helpers)}"
        lay = layout_for(rng, x.rank, allow_none=False)
        un = list(UNARY)[rng.integers(len(UNARY))]
        if un == "exp" and np.max(np.abs(x.ref), initial=0) > 8:
            un = "tanh"
        fmt, f = UNARY[un]
        lines = [f"func {name}(a):", f"    require_layout(a, \"{lay}\")"]
        if rng.random() < 0.3:
            lines.append(f"    prefer_layout(a, \"{layout_for(rng, x.rank, allow_none=False)}\")")
        lines.append(f"    return {fmt.format('a')}")
        self.helpers.append("\n".join(lines) + "\n")
        self.layouts_used.append(lay)
        return f"{name}({x.name})", x.shape, f(x.ref), "require_layout"

    def op_transpose(self, x):
        if x.rank < 2:
            return None
        if self.rng.random() < 0.25:
            perm = list(range(x.rank))[::-1]
            expr = f"transpose({x.name})"
        else:
            perm = [int(p) for p in self.rng.permutation(x.rank)]
            expr = f"transpose({x.name}, {perm})"
        return expr, [x.shape[p] for p in perm], np.transpose(x.ref, perm), "transpose"

    def op_reshape(self, x):
        rng = self.rng
        s = list(x.shape)
        choices = []
        if x.rank >= 2:
            choices.append("merge")
        if x.rank < 4:
            choices.append("unit")
            if any(d.literal and d.val in (4, 6, 8, 9) for d in s):
                choices.append("split")
        if x.rank >= 2:
            choices.append("flat")
        if not choices:
            return None
        how = choices[rng.integers(len(choices))]
        if how == "merge":
            k = int(rng.integers(x.rank - 1))
            s[k:k + 2] = [dim_expr("{} * {}", s[k].val * s[k + 1].val, s[k], s[k + 1])]
        elif how == "unit":
            s.insert(int(rng.integers(x.rank + 1)), Dim(1))
        elif how == "split":
            ks = [k for k, d in enumerate(s) if d.literal and d.val in (4, 6, 8, 9)]
            k = ks[rng.integers(len(ks))]
            a = {4: 2, 6: [2, 3][rng.integers(2)], 8: [2, 4][rng.integers(2)], 9: 3}[s[k].val]
            s[k:k + 1] = [Dim(a), Dim(s[k].val // a)]
        else:
            tot = s[0]
            for d in s[1:]:
                tot = dim_expr("{} * {}", tot.val * d.val, tot, d)
            s = [tot]
        return (f"reshape({x.name}, [{shape_text(s)}])", s, x.ref.reshape(vals(s)), "reshape")

    def op_matmul(self, x):
        if x.rank != 2:
            return None
        rng = self.rng
        k = x.shape[1]
        fits = [v for v in self.values if v.rank == 2 and v.shape[0].val == k.val]
        if fits and rng.random() < 0.3:
            w = fits[rng.integers(len(fits))]
        else:
            w = self.new_input([k, self.extent()], scale=0.5)
        expr = f"{x.name} @ {w.name}" if rng.random() < 0.5 else Call("matmul", [x.name, w.name])
        return expr, [x.shape[0], w.shape[1]], x.ref @ w.ref, "matmul"

    def op_conv2d(self, x):
        if x.rank != 4:
            return None
        rng = self.rng
        n, c, h, w = x.shape
        pad = int(rng.integers(0, 2))
        stride = 1 if rng.random() < 0.7 else 2
        kh = int(rng.integers(1, min(3, h.val + 2 * pad) + 1))
        kw = int(rng.integers(1, min(3, w.val + 2 * pad) + 1))
        wt = self.new_input([Dim(int(rng.integers(1, 6))), c, Dim(kh), Dim(kw)], scale=0.5)
        bias = self.new_input([wt.shape[0]]) if rng.random() < 0.25 else None

        def out_dim(d, k):
            v = (d.val + 2 * pad - k) // stride + 1
            if stride == 1:
                return dim_expr("{} " + ("+" if 2 * pad - k + 1 >= 0 else "-") +
                                f" {abs(2 * pad - k + 1)}", v, d) if 2 * pad - k + 1 else d
            return dim_expr(f"({{}} + {2 * pad - k}) // 2 + 1", v, d)
        args = []
        if pad:
            args.append(f"padding={pad}")
        if stride != 1:
            args.append(f"stride={stride}")
        ref = np_conv2d(x.ref, wt.ref, stride, pad)
        if bias:
            args.append(f"bias={bias.name}")
            ref = ref + bias.ref[:, None, None]
        shape = [n, wt.shape[0], out_dim(h, kh), out_dim(w, kw)]
        return Call("conv2d", [x.name, wt.name], args), shape, ref, "conv2d"

    def op_pool(self, x):
        if x.rank < 3:
            return None
        rng = self.rng
        h, w = x.shape[-2:]
        kmax = min(3, h.val, w.val)
        if kmax < 2:
            return None
        k = int(rng.integers(2, kmax + 1))
        s = k if rng.random() < 0.6 else 1
        kind = "max" if rng.random() < 0.5 else "avg"
        expr = Call(f"{kind}_pool2d", [x.name], [str(k)] + ([f"stride={s}"] if s != k or
                                                            rng.random() < 0.3 else []))

        def out_dim(d):
            v = (d.val - k) // s + 1
            return dim_expr(f"({{}} - {k}) // {s} + 1" if s != 1 else f"{{}} - {k - 1}", v, d)
        shape = list(x.shape[:-2]) + [out_dim(h), out_dim(w)]
        return expr, shape, np_pool(x.ref, k, s, kind), f"{kind}_pool2d"

    def op_concat(self, x):
        rng = self.rng
        axis = int(rng.integers(x.rank))
        parts = [x]
        for _ in range(int(rng.integers(1, 3))):
            fits = [v for v in self.values if v.rank == x.rank and all(
                a.val == b.val for k, (a, b) in enumerate(zip(v.shape, x.shape)) if k != axis)]
            if fits and rng.random() < 0.5:
                parts.append(fits[rng.integers(len(fits))])
            else:
                s = list(x.shape)
                s[axis] = Dim(int(rng.integers(1, 5)))
                parts.append(self.new_input(s))
        rng.shuffle(parts)
        tot = parts[0].shape[axis]
        for p in parts[1:]:
            tot = dim_expr("{} + {}", tot.val + p.shape[axis].val, tot, p.shape[axis])
        shape = list(x.shape)
        shape[axis] = tot
        ax = f", axis={axis}" if axis or rng.random() < 0.5 else ""
        return (f"concat([{', '.join(p.name for p in parts)}]{ax})", shape,
                np.concatenate([p.ref for p in parts], axis=axis), "concat")

    def op_slice(self, x):
        """x[..] with one dimension sliced a:b (a size parameter's n - 1 or
        1:n) or indexed by a constant (dropping it, at rank > 1)."""
        rng = self.rng
        d = int(rng.integers(x.rank))
        e = x.shape[d]
        idx = [":"] * x.rank
        shape = list(x.shape)
        sl = [slice(None)] * x.rank
        if x.rank > 1 and e.literal and rng.random() < 0.3:
            k = int(rng.integers(e.val))
            idx[d], sl[d] = str(k), k
            del shape[d]
        elif e.literal:
            if e.val < 2:
                return None
            a = int(rng.integers(e.val - 1))
            b = int(rng.integers(a + 1, e.val + 1))
            idx[d], sl[d], shape[d] = f"{a}:{b}", slice(a, b), Dim(b - a)
        else:
            if e.val < 2:
                return None
            idx[d], sl[d] = f"1:{e.text}", slice(1, None)
            shape[d] = dim_expr("{} - 1", e.val - 1, e)
        while idx and idx[-1] == ":" and len(idx) > 1:
            idx.pop()
        return f"{x.name}[{', '.join(idx)}]", shape, x.ref[tuple(sl)], "slice"

    def op_flip(self, x):
        if self.rng.random() < 0.3:
            return Call("flip", [x.name]), x.shape, np.flip(x.ref), "flip"
        axis = int(self.rng.integers(-x.rank, x.rank))
        return Call("flip", [x.name], [f"axis={axis}"]), x.shape, np.flip(x.ref, axis), "flip"

    def op_cumsum(self, x):
        axis = int(self.rng.integers(-x.rank, x.rank))
        return Call("cumsum", [x.name], [str(axis)]), x.shape, np.cumsum(x.ref, axis), "cumsum"

    def op_pad(self, x):
        """Constant padding of the last one or two dimensions."""
        rng = self.rng
        k = int(rng.integers(1, min(2, x.rank) + 1))
        pads = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(k)]
        value = [0, 0, 1.5][rng.integers(3)]
        shape = list(x.shape)
        width = [(0, 0)] * x.rank
        for j, (lo, hi) in enumerate(pads):       # the last dimension first
            d = x.rank - 1 - j
            width[d] = (lo, hi)
            if lo + hi:
                shape[d] = dim_expr(f"{{}} + {lo + hi}", shape[d].val + lo + hi, shape[d])
        rest = [f"[{', '.join(f'{lo}, {hi}' for lo, hi in pads)}]"] + \
            ([f"value={value}"] if value else [])
        return (Call("pad", [x.name], rest), shape,
                np.pad(x.ref, width, constant_values=value), "pad")

    OPS = (("unary", 3), ("binary", 3), ("where", 1), ("reduce", 2), ("softmax", 1),
           ("transpose", 2), ("reshape", 1.5), ("matmul", 2), ("conv2d", 2.5), ("pool", 2),
           ("concat", 1.5), ("require", 1.5), ("flip", 0.7), ("cumsum", 0.7), ("pad", 0.7),
           ("slice", 1))

    def generate(self):
        rng = self.rng
        rank = int(rng.choice([1, 2, 3, 4], p=[0.1, 0.35, 0.15, 0.4]))
        if rank == 4 and rng.random() < 0.7:       # conv-friendly: H, W >= 3
            shape = [Dim(int(rng.integers(1, 3))), self.extent(), Dim(int(rng.integers(3, 8))),
                     Dim(int(rng.integers(3, 8)))]
            if rng.random() < 0.3:
                shape[2] = self.extent()
                if shape[2].val < 3:
                    shape[2] = Dim(int(rng.integers(3, 8)))
        else:
            shape = [self.extent() for _ in range(rank)]
            for _ in range(5):
                if np.prod(vals(shape)) > 3000:
                    shape = [Dim(d.val // 2 or 1) if d.literal else d for d in shape]
            if np.prod(vals(shape)) > 3000:
                shape = [Dim(min(d.val, 3)) for d in shape]
        x = self.new_input(shape)
        if rng.random() < 0.15:       # the parameter converted for the whole body
            lay = layout_for(rng, x.rank, allow_none=False)
            if self.inputs[0][2]:
                lay = random_layout(rng, self.inputs[0][2].split("->")[0], False)
            self.body.append(f"require_layout({x.name}, \"{lay}\")")
            self.layouts_used.append(lay)
            self.ops.append("require_layout")
        names, weights = zip(*self.OPS)
        p = np.array(weights) / sum(weights)
        nops = int(rng.integers(1, 5))
        direct = rng.random() < 0.4          # the last op straight into the out
        cur = x
        last_expr = None
        for i in range(nops):
            for _ in range(20):
                r = getattr(self, "op_" + names[rng.choice(len(names), p=p)])(cur)
                if r is not None and np.prod(vals(r[1])) <= 2000 and len(r[1]) >= 1:
                    break
            else:
                r = self.op_unary(cur)
            expr, shape, ref, op = r
            if i == nops - 1 and direct:
                last_expr = (expr, shape, ref, op)
                self.ops.append(op)
            elif i < nops - 1 and rng.random() < 0.2:    # nested in the next op
                cur = Value(f"({expr})", shape, ref)
                self.ops.append(op)
            else:
                cur = self.bind(expr, shape, ref, op)
        if last_expr is not None:
            expr, shape, ref = last_expr[:3]
        else:
            expr, shape, ref = cur.name, cur.shape, cur.ref
        split = [k for k, d in enumerate(shape) if d.literal and d.val >= 2]
        if last_expr is None and split and rng.random() < 0.25:
            self.add_output(expr, shape, ref, split=split[rng.integers(len(split))])
        else:
            self.add_output(expr, shape, ref,
                            inplace=isinstance(expr, Call) and rng.random() < 0.5)
        locals_ = [v for v in self.values if v.name.startswith("t") and v is not cur]
        if locals_ and rng.random() < 0.3:
            v = locals_[rng.integers(len(locals_))]
            self.add_output(v.name, v.shape, v.ref)

    def add_output(self, expr, shape, ref, inplace=False, split=None):
        """An out parameter y = expr, or expr's in-place form into y, or
        (split: a dimension) stored in two slices of that dimension."""
        name = f"y{len(self.outputs)}"
        lay = layout_for(self.rng, len(shape))
        self.outputs.append((name, shape, lay, ref))
        if split is not None:
            k = int(self.rng.integers(1, shape[split].val))
            for part in (f"0:{k}", f"{k}:{shape[split].val}"):
                idx = ", ".join([":"] * split + [part])
                self.body.append(f"{name}[{idx}] = {expr}[{idx}]")
            self.ops.append("slice stores")
            return
        self.body.append(expr.inplace(name) if inplace else f"{name} = {expr}")
        if inplace:
            self.ops[-1] += "_"

    def text(self):
        params = [f"{n}: size" for n in self.sizes]
        for name, shape, lay, _ in self.inputs:
            params.append(f"{name}: f32[{shape_text(shape)}] in" +
                          (f" layout \"{lay}\"" if lay else ""))
        for name, shape, lay, _ in self.outputs:
            params.append(f"{name}: f32[{shape_text(shape)}] out" +
                          (f" layout \"{lay}\"" if lay else ""))
        lines = self.helpers + [f"export func {self.fname}({', '.join(params)}):"]
        lines += ["    " + b for b in self.body]
        return "\n".join(lines) + "\n"

    def layouts(self):
        return [lay for _, _, lay, _ in self.inputs + self.outputs] + [
            b.split('layout "')[1].split('"')[0] for b in self.body if 'layout "' in b] + \
            self.layouts_used


# --- building and checking ------------------------------------------------------

def build(ftc, src, lib, extra):
    r = subprocess.run([ftc, "build", src, "-o", lib] + extra, capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr or r.stdout).strip()


def build_batch(ftc, tmp, b, progs, extra):
    """Build batch b's programs in one file; when that fails, each one on
    its own.  {program index: library path or the error text}.  (The
    builds of a batch run at the same time: each writes its own files.)"""
    tag = "_".join(e.strip("-").replace("=", "-") for e in extra) or "default"
    src = os.path.join(tmp, f"b{b}_{tag}.ft")
    with open(src, "w") as f:
        f.write("\n".join(p.text() for p in progs))
    lib = os.path.join(tmp, f"libb{b}_{tag}.so")
    err = build(ftc, src, lib, extra)
    if err is None:
        return {p.index: lib for p in progs}
    got = {}
    for p in progs:
        src = os.path.join(tmp, f"{p.fname}_{tag}.ft")
        with open(src, "w") as f:
            f.write(p.text())
        lib = os.path.join(tmp, f"lib{p.fname}_{tag}.so")
        e = build(ftc, src, lib, extra)
        got[p.index] = lib if e is None else f"build [{' '.join(extra) or 'default'}]: {e}"
    return got


def tolerance_ok(got, ref):
    scale = max(1.0, float(np.max(np.abs(ref), initial=0)))
    return np.abs(got - ref) <= RTOL * (np.abs(ref) + scale)


def check_program(p, lib, extra):
    """Call p's function in LIB at 1, 2, 4 threads; a list of errors."""
    fn = ftlib.Library(lib).func(p.fname)
    errs = []
    sizes = dict(p.sizes)
    phys = fn.shapes(sizes)
    args = dict(sizes)
    for name, shape, lay, a in p.inputs:
        args[name] = pack(a, lay, fill=np.nan) if lay else a
        if args[name].shape != phys[name]:
            return [f"{name}: physical shape {phys[name]}, NumPy packs {args[name].shape}"]
    for threads in THREADS:
        ftlib.set_threads(threads)
        outs = {}
        for name, shape, lay, ref in p.outputs:
            ps = pack(np.zeros(vals(shape)), lay).shape if lay else vals(shape)
            if ps != phys[name]:
                return [f"{name}: physical shape {phys[name]}, NumPy packs {ps}"]
            outs[name] = np.full(ps, np.nan, dtype=np.float32)
        code = fn(**args, **outs)
        where = f"[{' '.join(extra) or 'default'}, {threads} threads]"
        if code:
            errs.append(f"{where} returned {code}")
            continue
        for name, shape, lay, ref in p.outputs:
            o = outs[name]
            got = unpack(o, lay, vals(shape)) if lay else o
            ok = tolerance_ok(got.astype(np.float64), ref)
            if not ok.all():
                bad = np.argwhere(~ok)
                i = tuple(bad[0])
                errs.append(f"{where} {name}: {len(bad)} of {ok.size} elements wrong, "
                            f"first at {list(i)}: got {got[i]!r}, want {ref[i]!r}")
            if lay and any(ch.isdigit() for ch in lay):
                mask = pad_mask(lay, vals(shape))
                if not np.all(o[mask] == 0):
                    errs.append(f"{where} {name}: pad lanes not 0: {o[mask][:6]}")
    return errs


class Repro:
    """A reproducer of a known bug (tests/numeric/layouts/NAME), called and
    checked as a generated program is: function f on the given sizes and
    inputs ((name, shape, layout, f32 array)) against the outputs' NumPy
    references ((name, shape, layout, reference))."""

    def __init__(self, root, name, sizes, inputs, outputs):
        self.src = os.path.join(root, "tests", "numeric", "layouts", name)
        self.fname, self.sizes, self.inputs, self.outputs = "f", sizes, inputs, outputs
        self.name = name


def repros(root, rng):
    """The reproducers of known bugs, each with its expected error (None:
    fixed, it must pass)."""
    a = rng.standard_normal((3, 1)).astype(np.float32)
    b = rng.standard_normal((1, 6)).astype(np.float32)
    mm = Repro(root, AS_LIB_K1, {"n": 3}, [("a", None, None, a), ("b", None, None, b)],
               [("y", [Dim(3), Dim(6)], None, a.astype(np.float64) @ b)])
    x0 = rng.standard_normal((1, 5, 7, 5)).astype(np.float32)
    x1 = rng.standard_normal((1, 5, 7, 5)).astype(np.float32)
    t = np.where(x1 > 0, x1, x0).astype(np.float64)
    gw = Repro(root, GCC_WHERE, {"n": 5},
               [("x0", None, None, x0), ("x1", None, "NCHW->NCHW3w", x1)],
               [("y", [Dim(d) for d in (1, 5, 6, 4)], None, np_pool(t, 2, 1, "max"))])
    x = rng.standard_normal((2, 1, 1, 3)).astype(np.float32)
    w = rng.standard_normal((1, 1, 3, 3)).astype(np.float32)
    cr = Repro(root, CONV_RACE, {}, [("x", None, None, x), ("w", None, "OIHW->OIHW5h", w)],
               [("y", [Dim(d) for d in (2, 1, 1, 3)], "NCHW->NCHW2n",
                 np_conv2d(x.astype(np.float64), w.astype(np.float64), 1, 1))])
    return [(mm, None), (gw, None), (cr, None)]


def check_repros(ftc, root, tmp, rng):
    """Build and check each reproducer with and without --no-auto: its
    failures must be the expected ones.  (failed, xfailed, xpassed) names."""
    failed, xfailed, xpassed = [], [], []
    for r, expect in repros(root, rng):
        errs = []
        for extra in ([], ["--no-auto"]):
            lib = os.path.join(tmp, f"lib{r.name[:-3]}{len(extra)}.so")
            e = build(ftc, r.src, lib, extra)
            if e is not None:
                errs.append(f"build [{' '.join(extra) or 'default'}]: {e}")
            else:
                errs += check_program(r, lib, extra)
        if expect is None and not errs:
            print(f"ok {r.name} (a fixed bug: it must pass)")
        elif expect is not None and errs and all(expect in e for e in errs):
            xfailed.append(r.name)
            print(f"XFAIL {r.name}: {len(errs)} failures as expected: "
                  f"{errs[0].splitlines()[0][:160]}")
        elif errs:
            failed.append(r.name)
            print(f"FAIL {r.name}\n" + "".join(f"  {e}\n" for e in errs), end="")
        else:
            xpassed.append(r.name)
            print(f"XPASS {r.name} (a known bug fixed? remove it from XFAIL)")
    return failed, xfailed, xpassed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ftc")
    ap.add_argument("root")
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-v", action="store_true", help="print every program")
    ap.add_argument("--keep", metavar="DIR", help="build in DIR (kept) instead of a temporary one")
    opt = ap.parse_args()
    start = time.time()
    rng = np.random.default_rng(opt.seed)
    progs = [Program(i, rng) for i in range(opt.count)]
    batches = [progs[i:i + BATCH] for i in range(0, len(progs), BATCH)]
    with tempfile.TemporaryDirectory() as tmp:
        if opt.keep:
            tmp = opt.keep
            os.makedirs(tmp, exist_ok=True)
        jobs = [(b, extra) for b in range(len(batches)) for extra in ([], EXTRA[b % len(EXTRA)])]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            built = list(pool.map(lambda j: (j[1], build_batch(opt.ftc, tmp, j[0], batches[j[0]],
                                                              j[1])), jobs))
        libs = {}                   # program index -> [(extra, lib or error)]
        for extra, got in built:
            for i, lib in got.items():
                libs.setdefault(i, []).append((extra, lib))
        build_s = time.time() - start
        failed, xfailed, xpassed = [], [], []
        for p in progs:
            errs = []
            for extra, lib in libs[p.index]:
                if not lib.endswith(".so"):
                    errs.append(lib)
                    continue
                try:
                    errs += check_program(p, lib, extra)
                except Exception as e:      # noqa: BLE001 (reported as a failure)
                    errs.append(f"[{' '.join(extra) or 'default'}] {type(e).__name__}: {e}")
            crc = zlib.crc32(p.text().encode())
            xf = XFAIL.get(crc)
            head = f"{p.fname} ({', '.join(p.ops)})"
            if errs and xf and all(xf[1] in e for e in errs):
                xfailed.append(p)
                print(f"XFAIL {head}: {xf[0]}: {len(errs)} checks fail as expected")
            elif errs:
                failed.append(p)
                print(f"FAIL {head} crc {crc:#010x}\n{p.text()}" +
                      "".join(f"  {e}\n" for e in errs), end="")
            elif xf:
                xpassed.append(p)
                print(f"XPASS {head}: {xf[0]} (a known bug fixed? remove it from XFAIL)")
            else:
                print(f"ok {head}" + (f"\n{p.text()}" if opt.v else ""))
            sys.stdout.flush()
        rfail, rxfail, rxpass = check_repros(opt.ftc, opt.root, tmp, rng)
    ops = sorted({o for p in progs for o in p.ops})
    lays = [lay for p in progs for lay in p.layouts() if lay]
    blocked = sum(1 for lay in lays if any(ch.isdigit() for ch in lay))
    print(f"{len(progs)} programs, {sum(len(p.ops) for p in progs)} operations "
          f"({len(ops)} kinds: {' '.join(ops)}), {len(lays)} layout clauses "
          f"({len(set(lays))} distinct, {blocked} blocked), "
          f"{sum(len(v) for v in libs.values())} program builds in {len(jobs)} ftc builds "
          f"({build_s:.0f} s), {time.time() - start:.0f} s in all")
    print(f"{len(progs) - len(failed) - len(xfailed)} passed, {len(failed)} failed, "
          f"{len(xfailed)} expected failures, {len(xpassed)} unexpectedly passed; "
          f"reproducers of known bugs: {len(rxfail)} fail as expected, {len(rfail)} otherwise, "
          f"{len(rxpass)} pass")
    return 1 if failed or rfail else 0


if __name__ == "__main__":
    sys.exit(main())
