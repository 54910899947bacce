#!/usr/bin/python3
"""Numeric tests of the tensor-level examples against NumPy.

    /usr/bin/python3 tests/numeric/examples_run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v]

Covers examples/subdivnet_full.ft (SubdivNet's whole mesh convolution) and
examples/longformer.ft (Longformer's sliding-window attention, one head),
and their parallel twins NAME_par.ft, each at 1, 2 and 4 threads, on three sizes or
more, with references written here from the mathematical definition of the
layer (not from the .ft code), in float64; an f32 output passes when
max|out - ref| / max|ref| < 1e-4.

It also checks the C that ftc emits for tests/golden/tensor_circular_difference.ft
(SubdivNet's circular difference written with row-level operations): no
local array or heap buffer of n_faces x in_feats elements (no temporary
larger than one feature row), and no copy loop.  The same check must flag
a program that does need a full [n_faces, in_feats] temporary, and a copy
loop, so a broken check cannot pass silently.

Prints one line per case (`ok NAME` or `FAIL NAME: why`), then
`N passed, M failed`; exits 1 if any case failed.
"""
import os
import re
import sys
import tempfile

import numpy as np

import harness as H
from harness import Fail

RTOL = 1e-4

f32, f64, i32 = np.float32, np.float64, np.int32


# --- running ftc ---------------------------------------------------------

def run(args, env=None):
    """Run ARGS; the completed process (a Fail unless it exits 0)."""
    return H.sh(args, env, VERBOSE)


def ftc_run(prog, func, sizes, inputs, defines=None, threads=None):
    """Run FUNC of PROG with the given sizes, input arrays and -D constants
    (with OMP_NUM_THREADS=threads when given); return the dict of its
    outputs (every .npy of the out dir)."""
    extra = [a for k, v in (defines or {}).items() for a in ("-D", f"{k}={v}")]
    return H.ftc_run(FTC, prog, func, sizes, inputs, threads, extra, VERBOSE)


def close(outs, name, ref, dtype, rtol=RTOL):
    H.close(outs, name, ref, dtype, rtol)


CASES = []


def case(name, fn, *args, **kw):
    CASES.append((name, lambda: fn(*args, **kw)))


def variants(name, fn, *args):
    """The serial example NAME.ft, and its twin NAME_par.ft (parallel outer
    loop), each built once and run with 1, 2 and 4 threads
    (harness.ftc_run)."""
    case(name, fn, f"{name.split('[')[0]}.ft", None, *args)
    case(f"{name}/par", fn, f"{name.split('[')[0]}_par.ft", None, *args)


def ex(file):
    return os.path.join(ROOT, "examples", file)


# --- examples/subdivnet_full.ft --------------------------------------------

def subdivnet_full_ref(adj, e, w):
    """y_i = w0.e_i + w1.sum_j e_adj(i,j) + w2.sum_j |e_adj(i,j) - e_adj(i,j+1 mod 3)|
    + w3.sum_j |e_i - e_adj(i,j)|, each w_k [in_feats, out_feats]."""
    e = e.astype(f64)
    n, f = e.shape
    feats = [e, np.zeros((n, f)), np.zeros((n, f)), np.zeros((n, f))]
    for i in range(n):
        for j in range(3):
            a, b = adj[i, j], adj[i, (j + 1) % 3]
            feats[1][i] += e[a]
            feats[2][i] += np.abs(e[a] - e[b])
            feats[3][i] += np.abs(e[i] - e[a])
    y = np.zeros((n, w[0].shape[1]))
    for fk, wk in zip(feats, w):
        y += fk @ wk.astype(f64)
    return y


def subdivnet_full(file, threads, n, f, o, seed):
    rng = np.random.default_rng(seed)
    adj = rng.integers(0, n, (n, 3), dtype=i32)
    if n > 2:
        adj[0] = [0, 0, 0]                      # a face that is its own neighbour
        adj[1] = [n - 1, 1, n - 1]
    e = rng.standard_normal((n, f)).astype(f32)
    w = [rng.uniform(-1, 1, (f, o)).astype(f32) for _ in range(4)]
    inputs = {"adj": adj, "e": e, "w0": w[0], "w1": w[1], "w2": w[2], "w3": w[3]}
    outs = ftc_run(ex(file), "subdivnet_full",
                   {"n_faces": n, "in_feats": f, "out_feats": o}, inputs, threads=threads)
    close(outs, "y", subdivnet_full_ref(adj, e, w), f32)


for n, f, o in [(1, 1, 1), (7, 5, 3), (1500, 33, 20)]:
    variants(f"subdivnet_full[{n}x{f}->{o}]", subdivnet_full, n, f, o, 500 + n)


# --- examples/longformer.ft ------------------------------------------------

def longformer_ref(q, k, v, w):
    """For each position j: dot[p] = q_j . k_{j+p-w} (p = 0 .. 2w), -inf where
    j + p - w is outside the sequence; attn = softmax(dot);
    y_j = sum_p attn[p] v_{j+p-w} over the positions inside."""
    q, k, v = q.astype(f64), k.astype(f64), v.astype(f64)
    n = len(q)
    y = np.zeros_like(q)
    for j in range(n):
        dot = np.full(2 * w + 1, -np.inf)
        for p in range(2 * w + 1):
            if 0 <= j + p - w < n:
                dot[p] = np.dot(q[j], k[j + p - w])
        attn = np.exp(dot - dot.max())
        attn /= attn.sum()
        for p in range(2 * w + 1):
            if 0 <= j + p - w < n:
                y[j] += attn[p] * v[j + p - w]
    return y


def longformer(file, threads, n, f, w, seed):
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((n, f)).astype(f32) for _ in range(3))
    outs = ftc_run(ex(file), "longformer", {"seq_len": n, "feat_len": f},
                   {"q": q, "k": k, "v": v}, None if w == 32 else {"W": w}, threads)
    close(outs, "y", longformer_ref(q, k, v, w), f32)


for n, f, w in [(5, 3, 32),            # the window (65) is larger than the sequence
                (1, 4, 2),             # one position: attends to itself only
                (37, 8, 4),            # -D W=4: clipped at both ends
                (600, 64, 32)]:        # the default window
    variants(f"longformer[{n}x{f},W={w}]", longformer, n, f, w, 600 + n)


# --- the C of the row-level circular difference ----------------------------

def c_function_bodies(c):
    """{name: body text} of the exported functions of an emitted C file."""
    out = {}
    for m in re.finditer(r"(?m)^int (\w+)\(([^)]*)\)\n\{\n(.*?)^\}\n", c, re.S):
        out[m.group(1)] = m.group(3)
    return out


def temporaries(body):
    """(name or buffer, list of dimension texts) of every local tensor of a
    function body: stack arrays `T name[N];` and heap buffers
    `ft__grow(&buf, &buf_n, ft__nbytes(K, (const int64_t[]){d0, d1}, sizeof(T)))`."""
    consts = dict(re.findall(r"const int64_t (ft__d\w+) = ([^;]*);", body))
    out = []
    for m in re.finditer(r"ft__grow\(&(\w+), &\w+, ft__nbytes\(\d+, \(const int64_t\[\]\)"
                         r"\{([^}]*)\}",
                         body):
        dims = [consts.get(d.strip(), d.strip()) for d in m.group(2).split(",")]
        out.append((m.group(1), dims))
    for m in re.finditer(r"(?m)^\s*(?:float|double|int32_t|int64_t|bool|_Float16) "
                         r"(\w+)\[([^\]]*)\];", body):
        out.append((m.group(1), [m.group(2)]))
    for m in re.finditer(r"\b(malloc|calloc|alloca|aligned_alloc)\s*\(", body):
        out.append((m.group(1), ["unknown"]))
    return out


def elements(dims, sizes):
    """The number of elements of a temporary of these dims, with the given
    values of the size parameters; None when a dim cannot be evaluated."""
    n = 1
    for d in dims:
        expr = re.sub(r"\b(\w+)\b", lambda m: str(sizes.get(m.group(1), m.group(1))), d)
        expr = expr.replace("/", "//")
        if not re.fullmatch(r"[0-9\s()+\-*/%]+", expr):
            return None
        try:
            n *= eval(expr, {"__builtins__": {}})
        except Exception:
            return None
    return n


def is_load(text):
    """Whether text is a single array element `name[...]` (brackets balanced),
    perhaps in parentheses or behind a cast."""
    text = re.sub(r"^(\((?:const )?\w+\)\s*)+", "", text.strip())
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    m = re.match(r"\w+\[", text)
    if not m:
        return False
    depth = 0
    for pos in range(m.end() - 1, len(text)):
        depth += {"[": 1, "]": -1}.get(text[pos], 0)
        if depth == 0:
            return pos == len(text) - 1
    return False


def copies(body):
    """The stores of a function body whose value is a single load,
    `a[...] = b[...];`: the body of a copy loop."""
    out = []
    for m in re.finditer(r"(?m)^\s*(\w+\[.*?\]) = (.*);\s*$", body):
        if is_load(m.group(1)) and is_load(m.group(2)):
            out.append(m.group(0).strip())
    return out


def check_row_temporaries(c):
    """The problems of the emitted C of a face loop: temporaries of more than
    one feature row (in_feats elements), or depending on n_faces, and copy
    loops.  [] when there is none."""
    bodies = c_function_bodies(c)
    if not bodies:
        return ["no exported function found in the C"]
    problems = []
    sizes = {"n_faces": 1000, "in_feats": 7}
    for fn, body in bodies.items():
        for name, dims in temporaries(body):
            n = elements(dims, sizes)
            if any(re.search(r"\bn_faces\b", d) for d in dims) or n is None \
                    or n > sizes["in_feats"]:
                problems.append(f"{fn}: temporary {name} of [{', '.join(dims)}] "
                                "(more than one feature row)")
        for line in copies(body):
            problems.append(f"{fn}: copy loop `{line}`")
    return problems


# A scatter into a temporary of every face (it cannot be shrunk to a row):
# the check must flag it.
FULL_TEMPORARY = """\
export func full(n_faces: size, in_feats: size, adj: i32[n_faces, 3] in,
                 e: f32[n_faces, in_feats] in, y: f32[n_faces, in_feats] out):
    var s: f32[n_faces, in_feats]
    for i in range(n_faces):
        s[i] = 0
    for i in range(n_faces):
        for j in range(3):
            s[adj[i, j]] += abs(e[i] - e[adj[i, j]])
    for i in range(n_faces):
        y[i] = s[i] * s[i]
"""


# A copy loop, as the C backend writes one: the check must flag it.
ROW_COPY_C = """\
int copies(int64_t n_faces, int64_t in_feats, const int32_t *adj, const float *e, float *y)
{
    for (int64_t i = 0; i < n_faces; i++) {
        float a[4];
        for (int64_t i_1 = 0; i_1 < 4; i_1++) {
            a[i_1] = e[(int64_t)adj[i * 3] * in_feats + i_1];
        }
        for (int64_t i_1 = 0; i_1 < 4; i_1++) {
            y[i * in_feats + i_1] = fabsf(a[i_1]);
        }
    }
}
"""


def circular_difference_c():
    r = run([FTC, "build", os.path.join(ROOT, "tests", "golden",
                                         "tensor_circular_difference.ft"), "--emit=c"])
    if "__global__" in r.stdout:
        return "skipped: a check of the C target's output, and this ftc emits CUDA"
    problems = check_row_temporaries(r.stdout)
    if problems:
        raise Fail("; ".join(problems))
    with tempfile.TemporaryDirectory(prefix="ftc-examples-") as d:
        p = os.path.join(d, "full.ft")
        with open(p, "w") as fh:
            fh.write(FULL_TEMPORARY)
        r = run([FTC, "build", p, "--emit=c"])
    if not any("temporary" in problem for problem in check_row_temporaries(r.stdout)):
        raise Fail("the check finds no temporary in the C of a program with an "
                   "[n_faces, in_feats] one")
    if not any("copy loop" in problem for problem in check_row_temporaries(ROW_COPY_C)):
        raise Fail("the check finds no copy loop in a copy loop")


case("circular_difference/c-row-temporaries", circular_difference_c)


# --- main ------------------------------------------------------------------

def main():
    global FTC, ROOT, VERBOSE
    FTC, ROOT, _, VERBOSE = args = H.parse_args(__doc__)
    return H.run_cases(CASES, args.pattern)


FTC = ROOT = None
VERBOSE = False

if __name__ == "__main__":
    sys.exit(main())
