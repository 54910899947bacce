#!/usr/bin/python3
"""The shape contracts of the stdlib operators (stdlib/README.md, "Shape
contracts"): every shape error of every operator, at compile time and at
run time, and no check left where the compiler can prove it.

    /usr/bin/python3 tests/numeric/shapes_run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING]

Three kinds of case, each asserted:
  compile  a program of one call whose shapes break the operator's
           contract: `ftc check` exits 1 with exactly one error, at the
           call (the operator's name), reading `error: OP: MESSAGE`, then
           the source line, its caret and a note at the stdlib line that
           checks (`stdlib/FILE.ft:L:C: note: checked here`), nothing else.
  run      a call whose shapes are symbolic: the program compiles (all of
           them into one library); `ftc run` with sizes that break the
           contract exits 1 with the function's failure (never a crash,
           never 0); where the message gives a source location, it is the
           call's line and the message names the operator and shows the
           check's sizes that only the run time knows.  With sizes that
           keep the contract (NumPy's run-time broadcasting of a size 1
           included) it exits 0.
  proved   calls of every operator on symbolic shapes that agree: the
           generated C holds no check at all (`FT_ERR_ASSERT`), so valid
           programs pay nothing.
Prints one line per case (`ok NAME` or `FAIL NAME: why`), then `N passed,
M failed`; exits 1 if any case failed.
"""
import os
import re
import subprocess
import sys
import tempfile

BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "maximum", "minimum", "pow"]
UNARY_INPLACE = ["neg_", "abs_", "sqrt_", "exp_", "ln_", "sin_", "cos_", "tanh_", "sigmoid_",
                 "floor_", "ceil_", "square_", "tan_", "erf_", "log1p_", "expm1_", "relu_"]
REDUCTIONS = ["sum", "prod", "reduce_max", "reduce_min"]
POOLS = ["max_pool2d", "avg_pool2d"]


class Compile:
    """A call that breaks op's contract at compile time with message msg
    (note: the stdlib line that checks is shown; an operator the compiler
    builds, an intrinsic, has none)."""
    def __init__(self, name, op, params, call, msg, note=True):
        self.name, self.op, self.params, self.call, self.msg = name, op, params, call, msg
        self.note = note


class Run:
    """A call on symbolic shapes: sizes `bad` break op's contract at run
    time (sizes: those of the failing check that only the run time knows,
    which a located message shows), each of `good` keeps it; want: the
    whole message the failure must show at the call (an intrinsic's)."""
    def __init__(self, name, op, params, call, bad, good, sizes, want=None):
        self.name, self.op, self.params, self.call = name, op, params, call
        self.bad, self.good, self.sizes, self.want = bad, good, sizes, want


# --- the cases, operator by operator --------------------------------------

def elementwise():
    """add ... pow (allocating and in-place), the unary in-place forms."""
    for op in BINARY:
        yield Compile(f"{op}/broadcast", op, "a: f32[3, 4] in, b: f32[3] in, y: f32[3, 4] out",
                      f"y = {op}(a, b)", "shapes do not match: cannot broadcast [3] to [3, 4]")
        yield Compile(f"{op}/broadcast_sym", op,
                      "n: size, a: f32[n, 4] in, b: f32[n + 1, 4] in, y: f32[n, 4] out",
                      f"y = {op}(a, b)",
                      "shapes do not match: cannot broadcast [n + 1, 4] to [n, 4]")
        yield Run(f"{op}/broadcast", op, "n: size, m: size, a: f32[n] in, b: f32[m] in, "
                  "y: f32[n] out", f"y = {op}(a, b)", {"n": 3, "m": 2}, [{"n": 3, "m": 3}],
                  ["3", "2"])
        ip = op + "_"
        yield Compile(f"{ip}/a_ndim", ip, "a: f32[2, 3, 4] in, b: f32[4] in, y: f32[3, 4] out",
                      f"{ip}(a, b, y)", "a has 3 dimensions, more than out's 2")
        yield Compile(f"{ip}/b_ndim", ip, "a: f32[3, 4] in, b: f32[1, 3, 4] in, y: f32[3, 4] out",
                      f"{ip}(a, b, y)", "b has 3 dimensions, more than out's 2")
        yield Compile(f"{ip}/a_dim", ip, "a: f32[3, 5] in, b: f32[4] in, y: f32[3, 4] out",
                      f"{ip}(a, b, y)", "a does not broadcast to out: dimension 1 of a has "
                      "size 5, dimension 1 of out has size 4")
        yield Compile(f"{ip}/b_dim", ip, "a: f32[3, 4] in, b: f32[2, 4] in, y: f32[3, 4] out",
                      f"{ip}(a, b, y)", "b does not broadcast to out: dimension 0 of b has "
                      "size 2, dimension 0 of out has size 3")
        yield Run(f"{ip}/a_dim", ip, "n: size, m: size, a: f32[n, 4] in, b: f32[4] in, "
                  "y: f32[m, 4] out", f"{ip}(a, b, y)", {"n": 2, "m": 3},
                  [{"n": 3, "m": 3}, {"n": 1, "m": 3}], ["2", "3"])
        yield Run(f"{ip}/b_dim", ip, "n: size, m: size, a: f32[m, 4] in, b: f32[n, 4] in, "
                  "y: f32[m, 4] out", f"{ip}(a, b, y)", {"n": 4, "m": 3},
                  [{"n": 3, "m": 3}, {"n": 1, "m": 3}], ["4", "3"])
    for op in UNARY_INPLACE:
        yield Compile(f"{op}/ndim", op, "x: f32[2, 3] in, y: f32[3] out", f"{op}(x, y)",
                      "x has 2 dimensions, more than out's 1")
        yield Compile(f"{op}/dim", op, "x: f32[4] in, y: f32[3] out", f"{op}(x, y)",
                      "x does not broadcast to out: dimension 0 of x has size 4, dimension 0 "
                      "of out has size 3")
        yield Run(f"{op}/dim", op, "n: size, m: size, x: f32[n] in, y: f32[m] out",
                  f"{op}(x, y)", {"n": 2, "m": 3}, [{"n": 3, "m": 3}, {"n": 1, "m": 3}],
                  ["2", "3"])


def creation():
    """zeros ones fill (shapes), fill_ (its value)."""
    for op in ["zeros", "ones"]:
        yield Compile(f"{op}/negative", op, "y: f32[3, 4] out", f"y = {op}([3, -4])",
                      "size 1 of the shape is negative: -4")
        yield Compile(f"{op}/negative_int", op, "y: f32[3] out", f"y = {op}(-2)",
                      "size 0 of the shape is negative: -2")
        yield Run(f"{op}/negative", op, "n: size, y: f32[n] out", f"y[0:1] = {op}([n - 5])[0:1]",
                  {"n": 2}, [{"n": 6}], ["-3"])
    yield Compile("fill/negative", "fill", "y: f32[3, 4] out", "y = fill([3, -1], 2.5)",
                  "size 1 of the shape is negative: -1")
    yield Compile("fill/value", "fill", "a: f32[4] in, y: f32[3, 5] out", "y = fill([3, 5], a)",
                  "value does not broadcast to out: dimension 0 of value has size 4, "
                  "dimension 1 of out has size 5")
    yield Run("fill/value", "fill", "n: size, m: size, a: f32[m] in, y: f32[3, n] out",
              "y = fill([3, n], a)", {"n": 4, "m": 3}, [{"n": 4, "m": 4}, {"n": 4, "m": 1}],
              ["3", "4"])
    yield Compile("fill_/value_ndim", "fill_", "a: f32[2, 3, 5] in, y: f32[3, 5] out",
                  "fill_(y, a)", "value has 3 dimensions, more than out's 2")
    yield Compile("fill_/value", "fill_", "a: f32[4] in, y: f32[3, 5] out", "fill_(y, a)",
                  "value does not broadcast to out: dimension 0 of value has size 4, "
                  "dimension 1 of out has size 5")
    yield Run("fill_/value", "fill_", "n: size, m: size, a: f32[m] in, y: f32[n] out",
              "fill_(y, a)", {"n": 4, "m": 3}, [{"n": 4, "m": 4}, {"n": 4, "m": 1}],
              ["3", "4"])


def reductions():
    """sum prod reduce_max reduce_min, allocating and in-place."""
    for op in REDUCTIONS:
        for form in [op, op + "_"]:
            call = (lambda args: f"y = {op}(x{args})") if form == op else \
                (lambda args: f"{op}_(x, y{args})")
            yield Compile(f"{form}/axis", form, "x: f32[3, 4] in, y: f32[3] out",
                          call(", axis=2"), "axis 2 is out of range: x has 2 dimensions")
            yield Compile(f"{form}/axis_neg", form, "x: f32[3, 4] in, y: f32[3] out",
                          call(", axis=-3"), "axis -3 is out of range: x has 2 dimensions")
            yield Compile(f"{form}/axis_list", form, "x: f32[3, 4] in, y: f32 out",
                          call(", axis=[0, 2]"), "axis 2 is out of range: x has 2 dimensions")
            yield Compile(f"{form}/axis_twice", form, "x: f32[3, 4] in, y: f32[3] out",
                          call(", axis=[1, -1]"), "axis 1 is repeated")
        ip = op + "_"
        yield Compile(f"{ip}/out_ndim", ip, "x: f32[3, 4] in, y: f32[3, 1] out",
                      f"{ip}(x, y, axis=1)", "out has 2 dimensions, the result 1")
        yield Compile(f"{ip}/out_ndim_keepdims", ip, "x: f32[3, 4] in, y: f32[3] out",
                      f"{ip}(x, y, axis=1, keepdims=True)", "out has 1 dimension, the result 2")
        yield Compile(f"{ip}/out_dim", ip, "x: f32[3, 4] in, y: f32[4] out",
                      f"{ip}(x, y, axis=1)", "dimension 0 of out has size 4, that of the result 3")
        yield Compile(f"{ip}/out_dim_keepdims", ip, "x: f32[3, 4] in, y: f32[3, 4] out",
                      f"{ip}(x, y, axis=1, keepdims=True)",
                      "dimension 1 of out has size 4, that of the result 1")
        yield Run(f"{ip}/out_dim", ip, "n: size, m: size, k: size, x: f32[n, m] in, y: f32[k] out",
                  f"{ip}(x, y, axis=1)", {"n": 3, "m": 4, "k": 4}, [{"n": 3, "m": 4, "k": 3}],
                  ["4", "3"])
        yield Compile(f"{op}/ndim_limit", op, "x: f32[1, 1, 1, 1, 1, 1, 1, 1, 2] in, y: f32 out",
                      f"y = {op}({op}(x, axis=[]))", "the result would have 9 dimensions; "
                      "allocating forms build at most 8 (the in-place form `_` has no limit)")
    yield Compile("max/axis", "reduce_max", "x: f32[3, 4] in, y: f32[3] out",
                  "y = max(x, axis=2)", "axis 2 is out of range: x has 2 dimensions")
    yield Compile("min/axis_twice", "reduce_min", "x: f32[3, 4] in, y: f32 out",
                  "y = min(x, axis=[0, -2])", "axis 0 is repeated")


def linalg():
    """matmul, matmul_ and the operator a @ b (matmul's checks, at the `@`)."""
    calls = {"matmul": lambda a, b: f"y = matmul({a}, {b})",
             "matmul_": lambda a, b: f"matmul_({a}, {b}, y)",
             "matmul@": lambda a, b: f"y = {a} @ {b}"}       # the operator: matmul's errors
    for form, call in calls.items():
        op = form.rstrip("@")
        yield Compile(f"{form}/inner", op, "a: f32[3, 4] in, b: f32[3, 4] in, y: f32[3, 4] out",
                      call("a", "b"), "inner dimensions differ: a has 4 columns, b has 3 rows")
        yield Compile(f"{form}/inner_1d", op, "a: f32[4] in, b: f32[3] in, y: f32 out",
                      call("a", "b"), "inner dimensions differ: a has 4 columns, b has 3 rows")
        yield Compile(f"{form}/inner_vec", op, "a: f32[2, 4] in, b: f32[3] in, y: f32[2] out",
                      call("a", "b"), "inner dimensions differ: a has 4 columns, b has 3 rows")
        yield Compile(f"{form}/inner_sym", op, "n: size, m: size, a: f32[n, m + 1] in, "
                      "b: f32[m, n] in, y: f32[n, n] out", call("a", "b"),
                      "inner dimensions differ: a has m + 1 columns, b has m rows")
        yield Compile(f"{form}/0d", op, "a: f32 in, b: f32[3] in, y: f32 out", call("a", "b"),
                      "a, the left operand, is 0-D: both operands need at least 1 dimension")
        yield Compile(f"{form}/0d_b", op, "a: f32[3] in, b: f32 in, y: f32 out", call("a", "b"),
                      "b, the right operand, is 0-D: both operands need at least 1 dimension")
        yield Compile(f"{form}/batch", op, "a: f32[2, 3, 4] in, b: f32[3, 4, 5] in, "
                      "y: f32[2, 3, 5] out", call("a", "b"), "batch dimensions do not broadcast: "
                      "dimension 0 of a has size 2, dimension 0 of b has size 3")
        yield Compile(f"{form}/batch_inner", op, "a: f32[7, 2, 3, 4] in, b: f32[5, 1, 4, 5] in, "
                      "y: f32[7, 2, 3, 5] out", call("a", "b"), "batch dimensions do not "
                      "broadcast: dimension 0 of a has size 7, dimension 0 of b has size 5")
        yield Run(f"{form}/inner", op, "n: size, m: size, a: f32[n, m] in, b: f32[n, m] in, "
                  "y: f32[n, m] out", call("a", "b"), {"n": 3, "m": 4}, [{"n": 3, "m": 3}],
                  ["4", "3"])
        yield Run(f"{form}/inner_large", op, "n: size, m: size, a: f32[n, m] in, "
                  "b: f32[n, m] in, y: f32[n, m] out", call("a", "b"), {"n": 2, "m": 20000},
                  [{"n": 2, "m": 2}], ["20000", "2"])
        yield Run(f"{form}/batch", op, "t: size, s: size, a: f32[t, 2, 3] in, b: f32[s, 3, 2] in, "
                  "y: f32[t, 2, 2] out", call("a", "b"), {"t": 2, "s": 3},
                  [{"t": 2, "s": 2}, {"t": 2, "s": 1}], ["2", "3"])
    yield Compile("matmul_/out_ndim", "matmul_", "a: f32[3, 4] in, b: f32[4, 5] in, "
                  "y: f32[15] out", "matmul_(a, b, y)", "out has 1 dimension, the result 2")
    yield Compile("matmul_/out_dim", "matmul_", "a: f32[3, 4] in, b: f32[4, 5] in, "
                  "y: f32[3, 6] out", "matmul_(a, b, y)",
                  "dimension 1 of out has size 6, that of the result 5")
    yield Compile("matmul_/out_batch", "matmul_", "a: f32[2, 3, 4] in, b: f32[2, 4, 5] in, "
                  "y: f32[3, 3, 5] out", "matmul_(a, b, y)",
                  "dimension 0 of out has size 3, that of the result 2")
    yield Compile("matmul_/out_batch_1", "matmul_", "a: f32[1, 3, 4] in, b: f32[4, 5] in, "
                  "y: f32[2, 3, 5] out", "matmul_(a, b, y)",
                  "dimension 0 of out has size 2, that of the result 1")
    yield Run("matmul_/out_dim", "matmul_", "n: size, m: size, k: size, j: size, "
              "a: f32[n, m] in, b: f32[m, j] in, y: f32[n, k] out", "matmul_(a, b, y)",
              {"n": 2, "m": 3, "k": 4, "j": 5}, [{"n": 2, "m": 3, "k": 5, "j": 5}], ["4", "5"])
    yield Run("matmul_/out_batch", "matmul_", "t: size, s: size, a: f32[t, 2, 3] in, "
              "b: f32[3, 2] in, y: f32[s, 2, 2] out", "matmul_(a, b, y)", {"t": 2, "s": 3},
              [{"t": 3, "s": 3}], ["3", "2"])
    yield Compile("matmul/ndim_limit", "matmul", "a: f32[1, 1, 1, 1, 1, 1, 1, 2, 3] in, "
                  "b: f32[3, 2] in, y: f32 out", "y = sum(matmul(a, b))",
                  "the result would have 9 dimensions; allocating forms build at most 8 "
                  "(the in-place form `_` has no limit)")


def softmax():
    """softmax, softmax_."""
    yield Compile("softmax/axis", "softmax", "x: f32[2, 3] in, y: f32[2, 3] out",
                  "y = softmax(x, axis=2)", "axis 2 is out of range: x has 2 dimensions")
    yield Compile("softmax/axis_1d", "softmax", "n: size, x: f32[n] in, y: f32[n] out",
                  "y = softmax(x, axis=3)", "axis 3 is out of range: x has 1 dimension")
    yield Compile("softmax_/axis", "softmax_", "x: f32[2, 3] in, y: f32[2, 3] out",
                  "softmax_(x, y, axis=-3)", "axis -3 is out of range: x has 2 dimensions")
    yield Compile("softmax_/out_ndim", "softmax_", "x: f32[2, 3] in, y: f32[6] out",
                  "softmax_(x, y)", "out has 1 dimension, the result 2")
    yield Compile("softmax_/out_dim", "softmax_", "x: f32[2, 3] in, y: f32[2, 4] out",
                  "softmax_(x, y)", "dimension 1 of out has size 4, that of the result 3")
    yield Run("softmax_/out_dim", "softmax_", "n: size, m: size, k: size, x: f32[n, m] in, "
              "y: f32[n, k] out", "softmax_(x, y)", {"n": 2, "m": 3, "k": 4},
              [{"n": 2, "m": 3, "k": 3}], ["4", "3"])
    yield Compile("softmax/ndim_limit", "softmax", "x: f32[1, 1, 1, 1, 1, 1, 1, 1, 2] in, "
                  "y: f32 out", "y = sum(softmax(x))", "the result would have 9 dimensions; "
                  "allocating forms build at most 8 (the in-place form `_` has no limit)")


CONV = "x: f32[2, 4, 8, 8] in, w: f32[6, 4, 3, 3] in, y: f32[2, 6, 6, 6] out"


def conv():
    """conv2d, conv2d_."""
    for op in ["conv2d", "conv2d_"]:
        call = (lambda args: f"y = conv2d(x, w{args})") if op == "conv2d" else \
            (lambda args: f"conv2d_(x, w, y{args})")
        cases = [
            ("x_ndim", CONV.replace("x: f32[2, 4, 8, 8]", "x: f32[4, 8]"), "",
             "x has 2 dimensions; it is [N, C, H, W] or [C, H, W]"),
            ("w_ndim", CONV.replace("w: f32[6, 4, 3, 3]", "w: f32[6, 4, 3]"), "",
             "w has 3 dimensions; it is [O, C / groups, KH, KW]"),
            ("stride_items", CONV, ", stride=[1, 1, 1]",
             "stride has 3 items; give an int or a list [along H, along W]"),
            ("stride", CONV, ", stride=0", "stride is 0; it must be at least 1"),
            ("padding", CONV, ", padding=-1", "padding is -1; it must be at least 0"),
            ("dilation", CONV, ", dilation=[1, 0]", "dilation is 0; it must be at least 1"),
            ("groups", CONV, ", groups=0", "groups is 0; it must be at least 1"),
            ("channels", CONV.replace("w: f32[6, 4,", "w: f32[6, 3,"), "",
             "channels differ: x has 4 channels, w takes 3 (3 per group, groups=1)"),
            ("channels_groups", CONV.replace("w: f32[6, 4,", "w: f32[6, 1,"), ", groups=2",
             "channels differ: x has 4 channels, w takes 2 (1 per group, groups=2)"),
            ("groups_divide", CONV.replace("w: f32[6, 4,", "w: f32[6, 1,"), ", groups=4",
             "w has 6 output channels, which 4 groups do not divide"),
            ("bias_ndim", CONV + ", b: f32[6, 1] in", ", b", "bias has 2 dimensions; it is [O]"),
            ("bias", CONV + ", b: f32[5] in", ", bias=b",
             "bias has 5 items, w has 6 output channels"),
            ("window", CONV.replace("x: f32[2, 4, 8, 8]", "x: f32[2, 4, 2, 8]"), "",
             "the window spans 3 elements along H, more than the padded input's 2"),
            ("window_w", CONV.replace("x: f32[2, 4, 8, 8]", "x: f32[4, 8, 1]"), ", padding=[0, 0]",
             "the window spans 3 elements along W, more than the padded input's 1"),
            ("window_dilation", CONV, ", dilation=4",
             "the window spans 9 elements along H, more than the padded input's 8"),
        ]
        for name, params, args, msg in cases:
            yield Compile(f"{op}/{name}", op, params, call(args), msg)
        yield Run(f"{op}/channels", op, "c: size, x: f32[2, c, 8, 8] in, w: f32[6, 4, 3, 3] in, "
                  "y: f32[2, 6, 6, 6] out", call(""), {"c": 3}, [{"c": 4}], ["3"])
        yield Run(f"{op}/bias", op, CONV + ", k: size, b: f32[k] in", call(", b"), {"k": 5},
                  [{"k": 6}], ["5"])
        yield Run(f"{op}/window", op, "h: size, x: f32[4, h, 8] in, w: f32[6, 4, 3, 3] in, "
                  "y: f32[6, h - 2, 6] out", call(""), {"h": 2}, [{"h": 3}, {"h": 9}],
                  ["2"])
    yield Compile("conv2d_/out_ndim", "conv2d_",
                  CONV.replace("y: f32[2, 6, 6, 6]", "y: f32[12, 6, 6]"),
                  "conv2d_(x, w, y)", "out has 3 dimensions, the result 4")
    yield Compile("conv2d_/out_dim", "conv2d_",
                  CONV.replace("y: f32[2, 6, 6, 6]", "y: f32[2, 6, 6, 5]"),
                  "conv2d_(x, w, y)", "dimension 3 of out has size 5, that of the result 6")
    yield Compile("conv2d_/out_dim_stride", "conv2d_", CONV, "conv2d_(x, w, y, stride=2)",
                  "dimension 2 of out has size 6, that of the result 3")
    yield Run("conv2d_/out_dim", "conv2d_", "k: size, x: f32[2, 4, 8, 8] in, "
              "w: f32[6, 4, 3, 3] in, y: f32[2, 6, k, 6] out", "conv2d_(x, w, y)", {"k": 5},
              [{"k": 6}], ["5"])


def pools():
    """max_pool2d, avg_pool2d and their in-place forms."""
    base = "x: f32[2, 3, 8, 8] in, y: f32[2, 3, 4, 4] out"
    for pool in POOLS:
        for op in [pool, pool + "_"]:
            call = (lambda args: f"y = {pool}(x, {args})") if op == pool else \
                (lambda args: f"{pool}_(x, y, {args})")
            cases = [
                ("x_ndim", "x: f32[8] in, y: f32[4] out", "2",
                 "x has 1 dimension; pooling takes its last two"),
                ("kernel_items", base, "[2, 2, 2]",
                 "kernel has 3 items; give an int or a list [along H, along W]"),
                ("kernel", base, "0", "kernel is 0; it must be at least 1"),
                ("stride", base, "2, stride=[2, 0]", "stride is 0; it must be at least 1"),
                ("padding", base, "2, padding=-1", "padding is -1; it must be at least 0"),
                ("padding_half", base, "2, padding=[0, 2]",
                 "padding 2 along W is more than half the kernel 2"),
                ("window", "x: f32[2, 3, 8, 1] in, y: f32[2, 3, 4, 1] out", "2",
                 "the window spans 2 elements along W, more than the padded input's 1"),
            ]
            for name, params, args, msg in cases:
                yield Compile(f"{op}/{name}", op, params, call(args), msg)
            yield Run(f"{op}/window", op, "h: size, x: f32[h, 8] in, y: f32[h // 3, 2] out",
                      call("3"), {"h": 2}, [{"h": 3}, {"h": 7}], ["2"])
        ip = pool + "_"
        yield Compile(f"{ip}/out_ndim", ip, "x: f32[2, 3, 8, 8] in, y: f32[6, 4, 4] out",
                      f"{ip}(x, y, 2)", "out has 3 dimensions, the result 4")
        yield Compile(f"{ip}/out_dim", ip, "x: f32[2, 3, 8, 8] in, y: f32[2, 3, 4, 5] out",
                      f"{ip}(x, y, 2)", "dimension 3 of out has size 5, that of the result 4")
        yield Run(f"{ip}/out_dim", ip, "k: size, x: f32[2, 3, 8, 8] in, y: f32[2, 3, k, 4] out",
                  f"{ip}(x, y, 2)", {"k": 3}, [{"k": 4}], ["3"])
        yield Compile(f"{pool}/ndim_limit", pool,
                      "x: f32[1, 1, 1, 1, 1, 1, 1, 2, 2] in, y: f32 out",
                      f"y = sum({pool}(x, 2))", "the result would have 9 dimensions; allocating "
                      "forms build at most 8 (the in-place form `_` has no limit)")


def intrinsics():
    """The operators the compiler builds itself (frontend/intrinsics.c,
    expr.c): einsum, transpose, reshape / flatten, concat, empty."""
    def c(name, op, params, call, msg):
        return Compile(name, op, params, call, msg, note=False)
    m34 = "a: f32[3, 4] in, y: f32[3, 3] out"
    yield c("einsum/letter", "einsum", "a: f32[3, 4] in, b: f32[3, 4] in, y: f32[3, 4] out",
            'y = einsum("ij,jk->ik", a, b)', "einsum: 'j' has size 3 in operand 2, 4 in operand 1")
    yield c("einsum/letter_same", "einsum", "a: f32[3, 4, 5] in, y: f32[3, 4] out",
            'y = einsum("iji->ij", a)', "einsum: 'i' has size 5 in operand 1, 3 in operand 1")
    yield c("einsum/rank", "einsum", m34, 'y = einsum("ijk->ik", a)',
            "einsum: operand 1 has 2 dimensions, but 'ijk' names 3")
    yield c("einsum/operands", "einsum", m34, 'y = einsum("ij,jk->ik", a)',
            "einsum: the subscripts name 2 operands, but 1 are given")
    yield c("einsum/output_missing", "einsum", m34, 'y = einsum("ij->iz", a)',
            "einsum: output letter 'z' is in no operand")
    yield c("einsum/output_twice", "einsum", m34, 'y = einsum("ij->ii", a)',
            "einsum: output letter 'i' appears twice")
    yield c("einsum/arrows", "einsum", m34, 'y = einsum("ij->i->j", a)',
            "einsum: the output 'i->j' is letters only")
    yield Run("einsum/letter", "einsum", "n: size, m: size, a: f32[2, n] in, b: f32[m, 2] in, "
              "y: f32[2, 2] out", 'y = einsum("ij,jk->ik", a, b)', {"n": 3, "m": 4},
              [{"n": 3, "m": 3}], ["4", "3"], "einsum: 'j' has size 4 in operand 2, 3 in operand 1")
    t = "a: f32[3, 4] in, y: f32[4, 3] out"
    yield c("transpose/twice", "transpose", t, "y = transpose(a, [0, 0])",
            "transpose: the permutation names dimension 0 twice")
    yield c("transpose/range", "transpose", t, "y = transpose(a, [0, 2])",
            "transpose: item 1 of the permutation is 2, out of range for 2 dimensions")
    yield c("transpose/items", "transpose", t, "y = transpose(a, [0])",
            "transpose: the permutation has 1 item, the tensor 2 dimensions")
    r = "a: f32[3, 4] in, y: f32[6, 2] out"
    yield c("reshape/count", "reshape", r, "y = reshape(a, [5, 3])",
            "reshape: the new shape holds 15 elements, the tensor 12")
    yield c("reshape/count_sym", "reshape", "n: size, a: f32[n, 4] in, y: f32[n * 4 + 1] out",
            "y = reshape(a, [n * 4 + 1])", "reshape: the new shape holds n * 4 + 1 elements, "
            "the tensor n * 4")
    yield c("reshape/divide", "reshape", r, "y = reshape(a, [5, -1])",
            "reshape: the tensor's 12 elements do not divide by 5 (the sizes other than -1): "
            "the remainder is 2")
    yield c("reshape/zero_infer", "reshape", r, "y = reshape(a, [0, -1])",
            "reshape: the sizes other than -1 hold 0 elements, so -1 stands for no size")
    yield c("reshape/two_infer", "reshape", r, "y = reshape(a, [-1, -1])",
            "reshape: only one size may be -1 (sizes 0 and 1 are)")
    yield c("reshape/negative", "reshape", r, "y = reshape(a, [-3, -4])",
            "reshape: size 0 of the new shape is negative: -3")
    yield Run("reshape/count", "reshape", "n: size, m: size, a: f32[n, m] in, y: f32[6] out",
              "y = reshape(a, [6])", {"n": 2, "m": 4}, [{"n": 2, "m": 3}], ["8"],
              "reshape: the new shape holds 6 elements, the tensor 8")
    yield Run("reshape/divide", "reshape", "n: size, a: f32[n] in, y: f32[n // 2, 2] out",
              "y = reshape(a, [-1, 2])", {"n": 5}, [{"n": 6}], ["1"],
              "reshape: the tensor's n elements do not divide by 2 (the sizes other than -1): "
              "the remainder is 1")
    yield Run("reshape/negative", "reshape", "n: size, a: f32[6] in, y: f32[6] out",
              "y = flatten(reshape(a, [n - 4, 3]))", {"n": 2}, [{"n": 6}], ["-2"],
              "reshape: size 0 of the new shape is negative: -2")
    k = "a: f32[3, 4] in, y: f32[6, 4] out"
    yield c("concat/axis", "concat", k, "y = concat([a, a], axis=2)",
            "concat: axis 2 is out of range: the tensors have 2 dimensions")
    yield c("concat/axis_twice", "concat", k, "y = concat([a, a], 1, axis=1)",
            "concat(): too many arguments (see `ftc stdlib concat`)")
    yield c("reshape/axis", "reshape", m34, "y = reshape(a, [3, 4], axis=0)",
            "reshape(): too many arguments (see `ftc stdlib reshape`)")
    yield c("concat/rank", "concat", k + ", b: f32[3] in", "y = concat([a, b])",
            "concat: tensor 1 has 1 dimension, tensor 0 has 2")
    yield c("concat/size", "concat", k + ", b: f32[3, 5] in", "y = concat([a, b])",
            "concat: dimension 1 of tensor 1 has size 5, that of tensor 0 4 (only axis 0 may "
            "differ)")
    yield c("concat/size_1", "concat", k + ", b: f32[3, 1] in", "y = concat([a, b])",
            "concat: dimension 1 of tensor 1 has size 1, that of tensor 0 4 (only axis 0 may "
            "differ)")
    yield Run("concat/size", "concat", "n: size, a: f32[2, 3] in, b: f32[2, n] in, "
              "y: f32[4, 3] out", "y = concat([a, b])", {"n": 4}, [{"n": 3}], ["4"],
              "concat: dimension 1 of tensor 1 has size 4, that of tensor 0 3 (only axis 0 may "
              "differ)")
    yield c("empty/negative", "empty", "y: f32[2] out", "y = empty([2, -3])[0, 0:2]",
            "empty: size 1 of the shape is negative: -3")
    yield c("empty/negative_int", "empty", "y: f32[2] out", "y = empty(-2)[0:2]",
            "empty: size 0 of the shape is negative: -2")
    yield Run("empty/negative", "empty", "n: size, y: f32[n] out",
              "y[0:1] = empty([n - 5])[0:1]", {"n": 2}, [{"n": 6}], ["-3"],
              "empty: size 0 of the shape is negative: -3")


# Issue 21's operators: (name, params, call, message) of calls whose shapes
# or options break the contract at compile time; the operator is the
# name's part before "/".
OPS21 = [
    ("silu_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "silu_(a, y)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("leaky_relu_/ndim", "a: f32[2, 3, 4] in, y: f32[3, 4] out", "leaky_relu_(a, y)",
     "x has 3 dimensions, more than out's 2"),
    ("elu_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "elu_(a, y)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("softplus_/dim", "a: f32[5] in, y: f32[3, 4] out", "softplus_(a, y)",
     "x does not broadcast to out: dimension 0 of x has size 5, dimension 1 of out has size 4"),
    ("gelu_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "gelu_(a, y)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("gelu/approximate", "a: f32[3] in, y: f32[3] out", 'y = gelu(a, approximate="fast")',
     'approximate is "none" or "tanh", not "fast"'),
    ("clamp/no_limit", "a: f32[3] in, y: f32[3] out", "y = clamp(a)",
     "at least one of min and max must be given"),
    ("clamp/broadcast", "a: f32[3, 4] in, lo: f32[3] in, y: f32[3, 4] out", "y = clamp(a, lo)",
     "shapes do not match: cannot broadcast [3] to [3, 4]"),
    ("clamp_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "clamp_(a, y, 0)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("where/broadcast", "c: bool[3] in, a: f32[3, 4] in, y: f32[3, 4] out", "y = where(c, a, 0)",
     "shapes do not match: cannot broadcast [3] to [3, 4]"),
    ("where_/condition", "c: bool[5] in, a: f32[3, 4] in, y: f32[3, 4] out", "where_(c, a, 0, y)",
     "condition does not broadcast to out: dimension 0 of condition has size 5, dimension 1 "
     "of out has size 4"),
    ("sign_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "sign_(a, y)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("reciprocal_/ndim", "a: f32[1, 3, 4] in, y: f32[3, 4] out", "reciprocal_(a, y)",
     "x has 3 dimensions, more than out's 2"),
    ("rsqrt_/dim", "a: f32[3, 5] in, y: f32[3, 4] out", "rsqrt_(a, y)",
     "x does not broadcast to out: dimension 1 of x has size 5, dimension 1 of out has size 4"),
    ("logical_and/broadcast", "a: bool[3, 4] in, b: bool[3] in, y: bool[3, 4] out",
     "y = logical_and(a, b)", "shapes do not match: cannot broadcast [3] to [3, 4]"),
    ("mean/axis", "a: f32[3, 4] in, y: f32[3] out", "y = mean(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("mean_/out_dim", "a: f32[3, 4] in, y: f32[4] out", "mean_(a, y, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("variance/axis_neg", "a: f32[3, 4] in, y: f32[3] out", "y = variance(a, -3)",
     "axis -3 is out of range: x has 2 dimensions"),
    ("variance_/out_dim", "a: f32[3, 4] in, y: f32[4] out", "variance_(a, y, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("std_/out_ndim", "a: f32[3, 4] in, y: f32[3, 1] out", "std_(a, y, 1)",
     "out has 2 dimensions, the result 1"),
    ("logsumexp/axis_twice", "a: f32[3, 4] in, y: f32[3] out", "y = logsumexp(a, [1, -1])",
     "axis 1 is repeated"),
    ("logsumexp_/out_dim", "a: f32[3, 4] in, y: f32[4] out", "logsumexp_(a, y, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("norm/p", "a: f32[3, 4] in, y: f32[3] out", "y = norm(a, 3, 1)",
     "p is 1, 2 or inf, not 3"),
    ("norm_/out_dim", "a: f32[3, 4] in, y: f32[4] out", "norm_(a, y, 2, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("all/axis", "a: bool[3, 4] in, y: bool[3] out", "y = all(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("any_/out_dim", "a: bool[3, 4] in, y: bool[4] out", "any_(a, y, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("argmax/axis_list", "a: f32[3, 4] in, y: i64[3] out", "y = argmax(a, [0, 1])",
     "axis is one int or None (the flattened x)"),
    ("argmax/axis", "a: f32[3, 4] in, y: i64[3] out", "y = argmax(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("argmax/empty", "a: f32[3, 0] in, y: i64[3] out", "y = argmax(a, 1)",
     "x has no element to choose from over axis (size 0)"),
    ("argmin_/out_dim", "a: f32[3, 4] in, y: i64[4] out", "argmin_(a, y, 1)",
     "dimension 0 of out has size 4, that of the result 3"),
    ("log_softmax/axis", "a: f32[3, 4] in, y: f32[3, 4] out", "y = log_softmax(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("log_softmax_/out_dim", "a: f32[3, 4] in, y: f32[3, 5] out", "log_softmax_(a, y)",
     "dimension 1 of out has size 5, that of the result 4"),
    ("cross_entropy/target", "a: f32[3, 4] in, t: i64[4] in, y: f32 out",
     "y = cross_entropy(a, t)", "dimension 0 of target has size 4, that of input 3"),
    ("cross_entropy/target_ndim", "a: f32[3, 4] in, t: i64[3, 1] in, y: f32 out",
     "y = cross_entropy(a, t)",
     "target has 2 dimensions, input 2: target is [N] for input [N, C], 0-D for [C]"),
    ("cross_entropy/probs", "a: f32[3, 4] in, t: f32[3, 5] in, y: f32 out",
     "y = cross_entropy(a, t)", "dimension 1 of target has size 5, that of input 4"),
    ("cross_entropy/reduction", "a: f32[3, 4] in, t: i64[3] in, y: f32 out",
     'y = cross_entropy(a, t, reduction="avg")',
     'reduction is "mean", "sum" or "none", not "avg"'),
    ("cross_entropy/weight", "a: f32[3, 4] in, t: i64[3] in, w: f32[5] in, y: f32 out",
     "y = cross_entropy(a, t, w)", "dimension 0 of weight has size 5, that of input's classes 4"),
    ("cross_entropy/label_smoothing", "a: f32[3, 4] in, t: i64[3] in, y: f32 out",
     "y = cross_entropy(a, t, label_smoothing=1.5)", "label_smoothing is 1.5; it is in 0 .. 1"),
    ("nll_loss/target", "a: f32[3, 4] in, t: i64[4] in, y: f32 out", "y = nll_loss(a, t)",
     "dimension 0 of target has size 4, that of input 3"),
    ("nll_loss/ndim", "a: f32[2, 3, 4] in, t: i64[2] in, y: f32 out", "y = nll_loss(a, t)",
     "input has 3 dimensions; the class scores are [N, C] or [C]"),
    ("mse_loss/shape", "a: f32[3, 4] in, t: f32[3, 5] in, y: f32 out", "y = mse_loss(a, t)",
     "shapes do not match: cannot broadcast [3, 5] to [3, 4]"),
    ("layer_norm/shape", "a: f32[3, 4] in, y: f32[3, 4] out", "y = layer_norm(a, [5])",
     "normalized_shape[0] is 5, x's dimension 1 has size 4"),
    ("layer_norm/weight", "a: f32[3, 4] in, w: f32[5] in, y: f32[3, 4] out",
     "y = layer_norm(a, [4], w)", "shapes do not match: cannot broadcast [5] to [3, 4]"),
    ("batch_norm/mean", "a: f32[2, 3, 4] in, m: f32[4] in, v: f32[3] in, y: f32[2, 3, 4] out",
     "y = batch_norm(a, m, v)", "running_mean has 4 items, x 3 channels"),
    ("batch_norm/ndim", "a: f32[3] in, m: f32[3] in, y: f32[3] out", "y = batch_norm(a, m, m)",
     "x has 1 dimension; it is [N, C, ...] (2 to 5)"),
    ("linear/inner", "a: f32[3, 4] in, w: f32[5, 3] in, y: f32[3, 5] out", "y = linear(a, w)",
     "inner dimensions differ: a has 4 columns, b has 3 rows"),
    ("linear/bias", "a: f32[3, 4] in, w: f32[5, 4] in, b: f32[4] in, y: f32[3, 5] out",
     "y = linear(a, w, b)", "shapes do not match: cannot broadcast [4] to [3, 5]"),
    ("embedding/weight", "i: i64[3] in, w: f32[5] in, y: f32[3, 5] out", "y = embedding(i, w)",
     "weight has 1 dimension; it is [num_embeddings, embedding_dim]"),
    ("pad/count", "a: f32[3, 4] in, y: f32[3, 6] out", "y = pad(a, [1, 1, 1])",
     "pad has 3 items; it is [before, after] per dimension, the last dimension first"),
    ("pad/reflect", "a: f32[3, 4] in, y: f32[3, 12] out", 'y = pad(a, [4, 4], mode="reflect")',
     'pad[0] is 4, not less than dimension 1\'s size 4 ("reflect")'),
    ("pad/mode", "a: f32[3, 4] in, y: f32[3, 6] out", 'y = pad(a, [1, 1], mode="wrap")',
     'mode is "constant", "reflect" or "replicate", not "wrap"'),
    ("group_norm/groups", "a: f32[2, 6, 4] in, y: f32[2, 6, 4] out", "y = group_norm(a, 4)",
     "x has 6 channels, which 4 groups do not divide"),
    ("interpolate/mode", "a: f32[1, 1, 3, 4] in, y: f32[1, 1, 6, 8] out",
     'y = interpolate(a, [6, 8], mode="bicubic")',
     'mode is "nearest" or "bilinear", not "bicubic"'),
    ("conv_transpose2d/channels",
     "a: f32[1, 3, 4, 4] in, w: f32[4, 2, 3, 3] in, y: f32[1, 2, 6, 6] out",
     "y = conv_transpose2d(a, w)", "channels differ: x has 3 channels, w 4 (its first dimension)"),
    ("interpolate/scale_factor_sym", "n: size, a: f32[1, 1, n, 2] in, y: f32[1, 1, 3, 3] out",
     "y = interpolate(a, scale_factor=1.5)",
     "scale_factor 1.5 is fractional and x's size n is known only at run time; give size "
     "instead"),
    ("interpolate/both", "a: f32[1, 1, 2, 2] in, y: f32[1, 1, 4, 4] out",
     "y = interpolate(a, [4, 4], 2)", "give one of size and scale_factor"),
    ("interpolate/scale_factor", "a: f32[1, 1, 2, 2] in, y: f32[1, 1, 4, 4] out",
     "y = interpolate(a, scale_factor=[2, 0])", "scale_factor is 0; it must be above 0"),
    ("dropout/p", "a: f32[3, 4] in, s: i64 in, y: f32[3, 4] out", "y = dropout(a, 1.5, s)",
     "p is 1.5; a probability is in 0 .. 1"),
    ("unsqueeze/axis", "a: f32[3, 4] in, y: f32[3, 4, 1] out", "y = unsqueeze(a, 4)",
     "axis 4 is out of range: the result has 3 dimensions"),
    ("squeeze/not_one", "a: f32[3, 4] in, y: f32[3] out", "y = squeeze(a, 1)",
     "dimension 1 has size 4; only a dimension of size 1 can be squeezed"),
    ("expand/size", "a: f32[3, 4] in, y: f32[2, 3, 4] out", "y = expand(a, [2, 3, 5])",
     "dimension 1 of x has size 4, which does not expand to 5 (only a size 1 does)"),
    ("stack/shapes", "a: f32[3, 4] in, b: f32[3, 5] in, y: f32[2, 3, 4] out", "y = stack([a, b])",
     "dimension 1 of tensor 1 has size 5, that of tensor 0 4"),
    ("flip/axis", "a: f32[3, 4] in, y: f32[3, 4] out", "y = flip(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("roll/axis", "a: f32[3, 4] in, y: f32[3, 4] out", "y = roll(a, 1, 3)",
     "axis 3 is out of range: x has 2 dimensions"),
    ("tril/ndim", "a: f32[3] in, y: f32[3] out", "y = tril(a)",
     "x has 1 dimension; it takes matrices (its last two dimensions)"),
    ("triu_/out_dim", "a: f32[3, 4] in, y: f32[3, 5] out", "triu_(a, y)",
     "dimension 1 of out has size 5, that of the result 4"),
    ("cumsum/axis", "a: f32[3, 4] in, y: f32[3, 4] out", "y = cumsum(a, 2)",
     "axis 2 is out of range: x has 2 dimensions"),
    ("cumprod_/out_dim", "a: f32[3, 4] in, y: f32[3, 5] out", "cumprod_(a, y, 1)",
     "dimension 1 of out has size 5, that of the result 4"),
    ("gather/ndim", "a: f32[3, 4] in, i: i64[3] in, y: f32[3] out", "y = gather(a, 1, i)",
     "index has 1 dimension, x 2; they must have as many"),
    ("gather/dim", "a: f32[3, 4] in, i: i64[5, 2] in, y: f32[5, 2] out", "y = gather(a, 1, i)",
     "dimension 0 of index has size 5, more than x's 3"),
    ("scatter_add/src",
     "a: f32[3, 4] in, i: i64[3, 2] in, s: f32[2, 2] in, y: f32[3, 4] out",
     "y = scatter_add(a, 1, i, s)", "dimension 0 of index has size 3, more than src's 2"),
    ("split/size", "a: f32[3, 4] in, y: f32[3, 2] out", "y = split(a, 0, 1)[0]",
     "split_size is 0; it must be at least 1"),
    ("chunk/count", "a: f32[3, 4] in, y: f32[3, 2] out", "y = chunk(a, 0, 1)[0]",
     "chunks is 0; it must be at least 1"),
]


def issue21():
    """Issue 21's operators: the compile-time cases of OPS21, the run-time
    ones of RUNS21."""
    for name, params, call, msg in OPS21:
        yield Compile(name, name.split("/")[0], params, call, msg)
    for name, params, call, bad, good, sizes in RUNS21:
        yield Run(name, name.split("/")[0], params, call, bad, good, sizes)


# Issue 21's operators on symbolic shapes: (name, params, call, sizes that
# break the contract, sizes that keep it, the sizes the message shows).
RUNS21 = [
    ("where_/condition", "n: size, m: size, c: bool[m] in, a: f32[n] in, y: f32[n] out",
     "where_(c, a, 0, y)", {"n": 3, "m": 2}, [{"n": 3, "m": 3}, {"n": 3, "m": 1}], ["2", "3"]),
    ("silu_/x_dim", "n: size, m: size, a: f32[m] in, y: f32[n] out", "silu_(a, y)",
     {"n": 3, "m": 2}, [{"n": 3, "m": 3}, {"n": 3, "m": 1}], ["2", "3"]),
    ("mean_/out_dim", "n: size, m: size, a: f32[n, 4] in, y: f32[m] out", "mean_(a, y, 1)",
     {"n": 3, "m": 5}, [{"n": 3, "m": 3}], ["5", "3"]),
    ("argmax/empty", "n: size, a: f32[3, n] in, y: i64[3] out", "y = argmax(a, 1)",
     {"n": 0}, [{"n": 1}], ["0"]),
    ("cross_entropy/target", "n: size, m: size, a: f32[n, 4] in, t: i64[m] in, y: f32 out",
     "y = cross_entropy(a, t)", {"n": 3, "m": 2}, [{"n": 3, "m": 3}], ["2", "3"]),
    ("linear/inner", "n: size, k: size, a: f32[2, n] in, w: f32[3, k] in, y: f32[2, 3] out",
     "y = linear(a, w)", {"n": 4, "k": 5}, [{"n": 4, "k": 4}], ["4", "5"]),
    ("layer_norm/shape", "n: size, m: size, a: f32[2, n] in, y: f32[2, n] out",
     "y = layer_norm(a, [m])", {"n": 4, "m": 3}, [{"n": 4, "m": 4}], ["3", "4"]),
    ("stack/shapes", "n: size, m: size, a: f32[n] in, b: f32[m] in, y: f32[2, n] out",
     "y = stack([a, b])", {"n": 4, "m": 3}, [{"n": 4, "m": 4}], ["3", "4"]),
    ("gather/dim", "n: size, k: size, a: f32[n, 4] in, i: i64[k, 2] in, y: f32[k, 2] out",
     "y = gather(a, 1, i)", {"n": 2, "k": 3}, [{"n": 3, "k": 3}], ["3", "2"]),
    ("expand/size", "n: size, m: size, a: f32[n] in, y: f32[2, m] out", "y = expand(a, [2, m])",
     {"n": 3, "m": 4}, [{"n": 4, "m": 4}, {"n": 1, "m": 4}], ["3", "4"]),
]

# Every operator on symbolic shapes that agree: no check may be emitted.
# (Left out: the checks of data, not shapes: the class indices of
# cross_entropy and nll_loss, embedding's and gather's indices; and those
# a size parameter decides, as n > 0 for argmax over a dimension of size n.)
PROVED = """
export func ew(n: size, m: size, a: f32[n, m] in, b: f32[m] in, c: f32[n, 1] in,
    y: f32[n, m] out, z: f32[n, m] out):
    y = add(a, b) + sub(a, c) + mul(a, 2) + truediv(a, b) + floordiv(a, c) + mod(a, b)
    y += maximum(a, b) + minimum(c, a) + pow(a, 2) + neg(a) + relu(b)
    add_(a, b, z)
    sub_(c, a, z)
    mul_(a, 2, z)
    truediv_(a, b, z)
    floordiv_(b, a, z)
    mod_(a, c, z)
    maximum_(a, a, z)
    minimum_(b, c, z)
    pow_(a, 2, z)
    neg_(a, z)
    abs_(b, z)
    sqrt_(c, z)
    exp_(a, z)
    ln_(a, z)
    sin_(a, z)
    cos_(a, z)
    tanh_(a, z)
    sigmoid_(a, z)
    floor_(a, z)
    ceil_(a, z)
    square_(a, z)
    tan_(a, z)
    erf_(b, z)
    log1p_(c, z)
    expm1_(a, z)
    relu_(z, z)

export func creation(n: size, m: size, v: f32[m] in, y: f32[n, m] out, z: f32[n, m] out):
    y = zeros([n, m]) + ones([n, m]) + fill([n, m], v)
    zeros_(z)
    ones_(z)
    fill_(z, v)
    fill_(z, 2.5)

export func reductions(n: size, m: size, x: f32[n, m] in, y: f32[n] out, z: f32[m] out,
    k: f32[n, 1] out, s: f32 out):
    y = sum(x, axis=1) + prod(x, -1) + reduce_max(x, axis=[1]) + reduce_min(x, axis=1)
    sum_(x, z, axis=0)
    prod_(x, k, axis=1, keepdims=True)
    reduce_max_(x, s)
    reduce_min_(x, y, axis=-1)
    z += max(x, axis=0) + min(x, axis=0)

export func linalg(t: size, n: size, m: size, k: size, a: f32[t, n, m] in, b: f32[t, m, k] in,
    c: f32[m, k] in, v: f32[m] in, y: f32[t, n, k] out, z: f32[t, n, k] out, w: f32[t, n] out,
    d: f32 out):
    matmul_(a, b, y)
    z = matmul(a, c)
    matmul_(a, v, w)
    w = matmul(a, v)
    d = matmul(v, v)

export func nn(n: size, c: size, h: size, w: size, o: size, x: f32[n, c, h, w] in,
    y: f32[n, c, h, w] out, z: f32[n, c, h, w] out):
    softmax_(x, y, axis=1)
    z = softmax(x)

export func conv(x: f32[2, 4, 8, 8] in, w: f32[6, 2, 3, 3] in, b: f32[6] in,
    y: f32[2, 6, 4, 4] out, z: f32[2, 6, 4, 4] out, p: f32[2, 4, 4, 4] out,
    q: f32[2, 4, 4, 4] out):
    conv2d_(x, w, y, b, stride=2, padding=1, groups=2)
    z = conv2d(x, w, bias=b, stride=[2, 2], padding=1, groups=2)
    max_pool2d_(x, p, 2)
    q = avg_pool2d(x, [2, 2], padding=1, stride=[2, 2])[:, :, 0:4, 0:4]

export func ew21(n: size, m: size, a: f32[n, m] in, b: f32[m] in, c: f32[n, 1] in, k: bool[m] in,
    y: f32[n, m] out, z: f32[n, m] out, l: bool[n, m] out):
    y = silu(a) + leaky_relu(b) + elu(c) + softplus(a) + gelu(a) + clamp(a, c, b) + where(k, a, c)
    y += sign(a) + reciprocal(b) + rsqrt(c) + pow(a, b)
    l = logical_and(k, a > c) or logical_not(k)
    silu_(a, z)
    leaky_relu_(b, z)
    elu_(c, z)
    softplus_(a, z)
    gelu_(a, z, "tanh")
    clamp_(a, z, min=c)
    clamp_(a, z, b, c)
    where_(k, a, c, z)
    sign_(a, z)
    reciprocal_(b, z)
    rsqrt_(c, z)

export func red21(n: size, m: size, x: f32[n, m] in, x4: f32[n, 4] in, y: f32[n] out,
    z: f32[m] out, i: i64[n] out, j: i64[n, 1] out, s: f32 out, t: bool[n] out):
    y = mean(x, 1) + variance(x, -1) + std(x, 1, unbiased=False) + logsumexp(x, 1)
    y += norm(x, 1, 1)
    mean_(x, z, 0)
    variance_(x, z, 0)
    std_(x, z, 0)
    logsumexp_(x, z, 0)
    norm_(x, z, inf, 0)
    s = norm(x) + mean(x)
    t = all(x > 0, 1) or any(x > 1, -1)
    i = argmax(x4, 1)
    argmin_(x4, j, 1, keepdims=True)

export func nn21(n: size, c: size, d: size, x: f32[n, c] in, p: f32[n, c] in, w: f32[d, c] in,
    b: f32[d] in, g: f32[c] in, y: f32[n, c] out, l: f32 out, o: f32[n, d] out):
    y = log_softmax(x) + layer_norm(x, [c], g, g)
    log_softmax_(x, y)
    l = cross_entropy(x, p) + mse_loss(x, p) + cross_entropy(x, p, g, label_smoothing=0.1)
    o = linear(x, w, b) + x @ transpose(w, [1, 0])

export func nn21_more(n: size, c: size, x: f32[n, c, 4, 6] in, g: f32[c] in, sd: i64 in,
    k: f32[c, 2, 3, 3] in, y: f32[n, c, 4, 6] out, p: f32[n, c, 6, 10] out,
    a: f32[n, c, 2, 3] out, it: f32[n, c, 8, 12] out, ct: f32[n, 2, 6, 8] out,
    it2: f32[n, c, 6, 9] out, it3: f32[n, c, 6, 9] out):
    y = batch_norm(x, g, g, g, g) + group_norm(x, 1, g, g) + dropout(x, 0.25, sd)
    p = pad(x, [2, 2, 1, 1])
    a = adaptive_avg_pool2d(x, [2, 3])
    it = interpolate(x, [8, 12])
    interpolate_(x, it2, scale_factor=1.5, mode="bilinear")
    it3 = interpolate(x, scale_factor=1.5)
    ct = conv_transpose2d(x, k)

export func shape21(n: size, m: size, x: f32[n, m] in, v: f32[m] in, idx: i64[n, m] in,
    y: f32[n, m] out, u: f32[1, n, m] out, st: f32[2, n, m] out, e: f32[n, m] out,
    h: f32[n, 3] out):
    u = unsqueeze(x, 0)
    y = squeeze(u, 0) + flip(x, 1) + roll(x, 1, 0) + tril(x) + triu(x, 1) + cumsum(x, 1)
    y += cumprod(x, 0) + scatter_add(x, 1, idx, x)
    e = expand(v, [n, m])
    st = stack([x, x])
    h = split(concat([x, x], 1)[:, 0:4], [1, 3], 1)[1]
"""


# --- running ---------------------------------------------------------------

class Fail(Exception):
    pass


def sh(cmd, timeout=300):
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout,
                       stdin=subprocess.DEVNULL)
    if r.returncode < 0:
        raise Fail(f"`{' '.join(cmd)}` died of signal {-r.returncode}:\n{r.stderr}")
    return r


def program(c):
    """The text of a one-call program for case c, and the column of the
    call (the innermost where the operator is called twice; the `@` of
    a @ b)."""
    text = f"export func f({c.params}):\n    {c.call}\n"
    if " @ " in c.call:                  # a @ b: at the operator
        return text, 4 + c.call.index(" @ ") + 2
    name = "max" if c.name.startswith("max/") else "min" if c.name.startswith("min/") else c.op
    col = 4 + [m.start() for m in re.finditer(r"\b" + re.escape(name) + r"\(", c.call)][-1] + 1
    return text, col


def check_compile(c):
    text, col = program(c)
    path = os.path.join(WORK, "case.ft")
    with open(path, "w") as f:
        f.write(text)
    r = sh([FTC, "check", path])
    lines = r.stderr.rstrip("\n").split("\n")
    want = f"{path}:2:{col}: error: " + (f"{c.op}: {c.msg}" if c.note else c.msg)
    if r.returncode != 1 or lines[0] != want:
        raise Fail(f"exit {r.returncode}, expected 1 and\n  {want}\ngot:\n{r.stderr}")
    if not c.note:   # an intrinsic: the error, its line and caret, nothing else
        if lines != [want, "    " + text.split("\n")[1],
                                          " " * (4 + col - 1) + "^"]:
            raise Fail(f"expected the error, its line and caret only:\n{r.stderr}")
        return
    if len(lines) != 6 or lines[1] != "    " + text.split("\n")[1] or \
            lines[2] != " " * (4 + col - 1) + "^" or \
            not re.fullmatch(r"stdlib/\w+\.ft:\d+:\d+: note: checked here", lines[3]):
        raise Fail(f"expected the error, its line and caret, the note at the check:\n{r.stderr}")


def run_lib(cases):
    """Build every run case into one library; the call's line of each."""
    text, lines = "", {}
    for i, c in enumerate(cases):
        text += f"export func r{i}({c.params}):\n    {c.call}\n\n"
        lines[c.name] = text.count("\n") - 1
    path = os.path.join(WORK, "shapes_run.ft")
    with open(path, "w") as f:
        f.write(text)
    lib = os.path.join(WORK, "libshapes_run.so")
    r = sh([FTC, "build", path, "-o", lib], timeout=900)
    if r.returncode != 0:
        raise Fail(f"building the run cases failed:\n{r.stderr}")
    return lib, lines


def check_run(c, i, lib, line):
    args = lambda sizes: [FTC, "run", lib, f"r{i}"] + [f"{k}={v}" for k, v in sizes.items()] + \
        ["--random", "--no-print"]
    r = sh(args(c.bad))
    if r.returncode != 1 or f"function 'r{i}' " not in r.stderr or "error: " not in r.stderr:
        raise Fail(f"sizes {c.bad}: exit {r.returncode}, expected 1 with the function's "
                   f"failure:\n{r.stderr}")
    loc = re.search(r"shapes_run\.ft:(\d+)", r.stderr)
    if loc and (int(loc.group(1)) != line or c.op not in r.stderr or
                not all(re.search(r"(?<![\w.])" + re.escape(s) + r"(?![\w.])", r.stderr)
                        for s in c.sizes)):
        raise Fail(f"sizes {c.bad}: the message should name line {line}, {c.op} and the sizes "
                   f"{c.sizes}:\n{r.stderr}")
    if c.want and not re.search(r"shapes_run\.ft:%d:\d+: error: %s$" % (line, re.escape(c.want)),
                                r.stderr, re.M):
        raise Fail(f"sizes {c.bad}: expected the message at line {line}:\n  {c.want}\n"
                   f"got:\n{r.stderr}")
    for good in c.good:
        r = sh(args(good))
        if r.returncode != 0:
            raise Fail(f"sizes {good} keep the contract, but exit {r.returncode}:\n{r.stderr}")


def check_proved():
    path = os.path.join(WORK, "proved.ft")
    with open(path, "w") as f:
        f.write(PROVED)
    r = sh([FTC, "build", path, "--emit=c"])
    if r.returncode != 0:
        raise Fail(f"exit {r.returncode}:\n{r.stderr}")
    body = r.stdout.split("/* end of ft_abi.h */", 1)[-1]
    checks = [l.strip() for l in body.split("\n") if "FT_ERR_ASSERT" in l]
    if checks:
        raise Fail("checks the shapes prove remain:\n  " + "\n  ".join(checks))


def main():
    global FTC, WORK
    args = sys.argv[1:]
    pattern = None
    if "-k" in args:
        i = args.index("-k")
        pattern = args[i + 1]
        del args[i:i + 2]
    FTC = os.path.abspath(args[0])
    cases = [c for gen in (elementwise, creation, reductions, linalg, softmax, conv, pools,
                           intrinsics, issue21)
             for c in gen()]
    names = [(type(c).__name__, c.name) for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"case names used twice: {dup}"
    if pattern:
        cases = [c for c in cases if pattern in c.name]
    passed = failed = 0

    def report(name, fn, *a):
        nonlocal passed, failed
        try:
            fn(*a)
            passed += 1
            print(f"ok {name}")
        except (Fail, subprocess.TimeoutExpired) as e:
            failed += 1
            print(f"FAIL {name}: {e}")

    with tempfile.TemporaryDirectory(prefix="ftc_shapes_") as WORK:
        for c in cases:
            if isinstance(c, Compile):
                report(f"compile {c.name}", check_compile, c)
        runs = [c for c in cases if isinstance(c, Run)]
        if runs:
            try:
                lib, lines = run_lib(runs)
                for i, c in enumerate(runs):
                    report(f"run {c.name}", check_run, c, i, lib, lines[c.name])
            except Fail as e:
                failed += len(runs)
                print(f"FAIL run cases: {e}")
        if not pattern or pattern in "proved":
            report("proved", check_proved)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
