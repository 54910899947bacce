#!/usr/bin/python3
"""Differential test of the schedule primitives (transforms/sched_*.c).

    /usr/bin/python3 tests/schedule/fuzz.py FTC ROOT [--seqs N] [--seed S]
                                            [--only NAME,...] [--keep DIR] [-v]

(FTC_FUZZ_SEQS=N in the environment overrides --seqs.)

For each program below (the examples, numeric test programs and schedule
goldens, at small sizes), the function is taken from `ftc build
--dump-after=grad` (lowered, stdlib inlined), every unlabelled loop and
statement gets a label (L_fz3, S_fz7), and its loops, statements and
tensors are read from that text.  Random sequences of 1-5 schedule lines
are drawn (fixed seed) with plausible arguments (names returned by earlier
lines included) and some nonsense ones.

Checks, per program, in two compiles of one batch file each:
  1. `ftc check --check-refusals` of a file holding one copy of the function
     per sequence (f__v0, f__v1, ... each with its `schedule` block): no
     crash, every error located (file:line:col) on a schedule line of its
     own variant, and no "internal error" (--check-refusals reports a
     refused line that changed the function: the AST must be exactly as it
     was, see transforms/schedule.c).
  2. The sequences without their refused lines (a refused line leaves the
     AST unchanged, so the rest apply exactly as in step 1) are built into
     one library with an unscheduled copy f__ref (--no-auto); the 30% of
     sequences that end with `auto` (the auto-scheduler on what the lines
     left, their loops pinned) into a second one, built with the
     auto-scheduler on; every variant is called through ctypes on the same
     random inputs and its outputs compared with f__ref's and, for the
     examples, with a NumPy reference in float64:
     max|out - ref| <= 1e-4 * max(1, max|ref|).

A crash in a batch is narrowed down by bisection to the sequences that
cause it.  Prints per-primitive counts (lines tried, accepted, refused) and
exits 1 on any failure.
"""
import argparse
import ctypes
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

TOL = 1e-4
# the share of sequences that end with `auto` (the auto-scheduler after
# the lines, keeping the loops they named or made)
AUTO_SHARE = 0.3

# ------------------------------------------------------------ programs


def _gen_adj(rng, n):
    return rng.integers(0, n, (n, 3), dtype=np.int32)


def _spmv_inputs(rng, sizes):
    n = sizes["n_rows"]
    lengths = rng.integers(0, 4, n)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    nnz = int(row_ptr[-1])
    sizes["nnz"] = nnz
    return {"row_ptr": row_ptr,
            "col_idx": rng.integers(0, sizes["n_cols"], nnz, dtype=np.int32)}


def _ref_matmul(a):
    return {"c": a["a"].astype(np.float64) @ a["b"].astype(np.float64)}


def _ref_stencil(a):
    x = a["a"].astype(np.float64)
    b = x.copy()
    b[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:])
    return {"b": b}


def _ref_spmv(a):
    rp, col = a["row_ptr"], a["col_idx"]
    prod = a["vals"].astype(np.float64) * a["x"].astype(np.float64)[col]
    rows = np.repeat(np.arange(len(rp) - 1), np.diff(rp))
    return {"y": np.bincount(rows, weights=prod, minlength=len(rp) - 1)}


def _ref_subdivnet(a):
    adj, e = a["adj"], a["e"].astype(np.float64)
    y = np.zeros_like(e)
    for j in range(3):
        y += np.abs(e[adj[:, j]] - e[adj[:, (j + 1) % 3]])
    return {"y": y}


def _ref_subdivnet_full(a):
    adj, e = a["adj"], a["e"].astype(np.float64)
    nb = [e[adj[:, j]] for j in range(3)]
    feats = [e, sum(nb), sum(np.abs(nb[j] - nb[(j + 1) % 3]) for j in range(3)),
             sum(np.abs(e - nb[j]) for j in range(3))]
    return {"y": sum(fk @ a[f"w{k}"].astype(np.float64) for k, fk in enumerate(feats))}


def _ref_longformer(a):
    q, k, v = (a[x].astype(np.float64) for x in ("q", "k", "v"))
    n, w = len(q), 32
    y = np.empty_like(q)
    for j in range(n):
        lo, hi = max(j - w, 0), min(j + w + 1, n)
        s = k[lo:hi] @ q[j]
        p = np.exp(s - s.max())
        y[j] = (p / p.sum()) @ v[lo:hi]
    return {"y": y}


# name: (path, function, sizes, int-input generator, NumPy reference)
PROGRAMS = {
    "matmul": ("examples/matmul.ft", "matmul", {"m": 5, "n": 7, "k": 6}, None, _ref_matmul),
    "stencil": ("examples/stencil.ft", "stencil", {"h": 6, "w": 7}, None, _ref_stencil),
    "spmv": ("examples/spmv.ft", "spmv", {"n_rows": 7, "n_cols": 5}, _spmv_inputs, _ref_spmv),
    "subdivnet": ("examples/subdivnet.ft", "subdivnet", {"n_faces": 9, "in_feats": 5},
                  lambda rng, s: {"adj": _gen_adj(rng, s["n_faces"])}, _ref_subdivnet),
    "subdivnet_full": ("examples/subdivnet_full.ft", "subdivnet_full",
                       {"n_faces": 7, "in_feats": 4, "out_feats": 3},
                       lambda rng, s: {"adj": _gen_adj(rng, s["n_faces"])},
                       _ref_subdivnet_full),
    "longformer": ("examples/longformer.ft", "longformer", {"seq_len": 37, "feat_len": 3},
                   None, _ref_longformer),
    "fused": ("tests/numeric/progs/schedules.ft", "fused", {"n": 7, "m": 5}, None, None),
    "nest": ("tests/numeric/progs/schedules.ft", "nest", {"n": 6, "m": 5}, None, None),
    "cached": ("tests/numeric/progs/schedules.ft", "cached", {"n": 6, "m": 5}, None, None),
    "cache_reduce": ("tests/golden/sched_cache_reduce.ft", "f", {"n": 5, "m": 6}, None, None),
    "fuse_shrink": ("tests/golden/sched_fuse_shrink.ft", "f", {"n": 6, "m": 5}, None, None),
    "fission": ("tests/golden/sched_fission_basic.ft", "f", {"n": 9}, None, None),
    "fuse_shift": ("tests/golden/sched_fuse_shift.ft", "f", {"n": 9}, None, None),
    "var_layout": ("tests/golden/sched_var_layout.ft", "f", {"n": 6, "m": 4}, None, None),
    "var_pad": ("tests/golden/sched_var_pad.ft", "f", {}, None, None),
    "reorder_fig12d": ("tests/golden/sched_reorder_fig12d.ft", "f", {"n": 5, "m": 6}, None,
                       None),
    "unroll": ("tests/golden/sched_unroll_basic.ft", "f", {"n": 7}, None, None),
    "blend_nested": ("tests/golden/sched_blend_nested.ft", "f", {"n": 9}, None, None),
    "negative_step": ("tests/golden/sched_split_negative_step.ft", "f", {"n": 11}, None, None),
    "reduction": ("tests/golden/sched_parallelize_reduction.ft", "f", {"n": 6, "m": 5}, None,
                  None),
}

# ------------------------------------------------------- the function


def run(cmd, **kw):
    """Run cmd; (returncode, stdout, stderr)."""
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def lowered_function(ftc, path, func):
    """The text of func after the front end (--dump-after=grad)."""
    rc, out, err = run([ftc, "build", path, "--dump-after=grad", "--no-auto"])
    if rc != 0:
        sys.exit(f"fuzz: cannot dump {path}:\n{err}")
    m = re.search(r"^export func %s\(.*?(?=^export func |\Z)" % re.escape(func), out,
                  re.S | re.M)
    if not m:
        sys.exit(f"fuzz: no function {func} in the dump of {path}")
    return m.group(0).rstrip("\n") + "\n"


LABEL_RE = re.compile(r"^([A-Za-z_]\w*): ")


def label_all(text):
    """Give every unlabelled loop and statement of the function a label."""
    lines, out, n = text.split("\n"), [], 0
    for ln in lines:
        body = ln.lstrip(" ")
        ind = ln[:len(ln) - len(body)]
        if (not ind or not body or LABEL_RE.match(body)
                or re.match(r"(var |else:|elif |pass$)", body)):
            out.append(ln)
            continue
        n += 1
        out.append(f"{ind}{'L' if body.startswith('for ') else 'S'}_fz{n}: {body}")
    return "\n".join(out)


class Node:
    """A loop, statement or local of the labelled function."""

    def __init__(self, kind, indent, label=None, name=None, text="", parent=None):
        self.kind, self.indent, self.label, self.name = kind, indent, label, name
        self.text, self.parent, self.kids = text, parent, []
        self.trip = None
        self.ndim = 0

    def loops_up(self):
        """The enclosing loops, innermost first."""
        p, out = self.parent, []
        while p:
            if p.kind == "for":
                out.append(p)
            p = p.parent
        return out


def parse_function(text):
    """(header, loops, stmts, locals, params) of the labelled function."""
    lines = text.rstrip("\n").split("\n")
    header, root = lines[0], Node("root", -1)
    stack, loops, stmts, locs = [root], [], [], []
    for ln in lines[1:]:
        body = ln.lstrip(" ")
        ind = (len(ln) - len(body)) // 4
        while stack[-1].indent >= ind:
            stack.pop()
        parent = stack[-1]
        m = LABEL_RE.match(body)
        label = m.group(1) if m else None
        rest = body[m.end():] if m else body
        if rest.startswith("var "):
            mv = re.match(r"var (\w+): \w+(\[(.*)\])?", rest)
            node = Node("var", ind, name=mv.group(1), parent=parent)
            node.ndim = len(mv.group(3).split(",")) if mv.group(2) else 0
            locs.append(node)
            continue
        kind = "for" if rest.startswith("for ") else (
            "if" if re.match(r"(if |elif |else:)", rest) else "stmt")
        node = Node(kind, ind, label=label, text=rest, parent=parent)
        parent.kids.append(node)
        if kind == "for":
            mf = re.match(r"for (\w+) in range\((.*)\):", rest)
            node.name = mf.group(1)
            if re.fullmatch(r"\d+", mf.group(2)):
                node.trip = int(mf.group(2))
            loops.append(node)
        if label and kind != "for":
            stmts.append(node)
        if kind in ("for", "if"):
            stack.append(node)
    params = []
    for p in re.findall(r"(\w+): (size|\w+(?:\[[^\]]*\])?(?: (?:in|out|inout))?)",
                        header[header.index("(") + 1:]):
        params.append(p)
    return header, loops, stmts, locs, params


def split_top(text):
    """The comma-separated parts of text outside brackets and parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text + ",":
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += (ch in "([") - (ch in ")]")
        cur += ch
    return out


def parse_params(header):
    """[(name, 'size') or (name, dtype, shape text or None, access)]."""
    inner = header[header.index("(") + 1:header.rindex(")")]
    out, depth, cur = [], 0, ""
    for ch in inner + ",":
        if ch == "," and depth == 0:
            cur = cur.strip()
            name, ty = cur.split(": ", 1)
            if ty == "size":
                out.append((name, "size"))
            else:
                m = re.match(r"(\w+)(?:\[(.*)\])? (in|out|inout)$", ty)
                out.append((name, m.group(1), m.group(2), m.group(3)))
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    return out


# ------------------------------------------------------- the generator

PRIMS = ["split", "merge", "reorder", "fission", "fuse", "swap", "move_to", "parallelize",
         "unroll", "blend", "vectorize", "cache", "cache_reduce", "set_mtype", "var_split",
         "var_reorder", "var_merge", "var_pad", "follow_layout", "propagate", "inline",
         "separate_tail", "var_unfold", "var_attach"]


class Gen:
    """Draws schedule lines for one function."""

    def __init__(self, rng, loops, stmts, locs, params, focus=()):
        self.rng, self.loops, self.stmts, self.locs = rng, loops, stmts, locs
        self.focus = list(focus)
        self.rank = {v.name: v.ndim for v in locs}
        self.rank.update({p[0]: len(split_top(p[2])) if p[2] else 0
                          for p in params if p[1] != "size"})
        self.tensors = [p[0] for p in params if p[1] != "size"] + [v.name for v in locs]
        iters = [l.name for l in loops]
        self.loop_names = [l.label for l in loops if l.label] + \
            [i for i in set(iters) if iters.count(i) == 1]
        self.loop_names.sort()
        self.by_name = {l.label: l for l in loops if l.label}
        self.by_name.update({l.name: l for l in loops if iters.count(l.name) == 1})
        self.count = 0

    def fresh(self, base):
        self.count += 1
        return f"{base}{self.count}"

    def loop(self, extra):
        return self.rng.choice(self.loop_names + extra)

    def stmt_name(self, node):
        return node.label

    def groups(self, all_kids=False):
        """The labelled items of each body (loop, branch or function)."""
        parents = []
        for n in self.stmts + self.loops:
            if n.parent not in parents:
                parents.append(n.parent)
        return [[k for k in p.kids if k.label] for p in parents]

    def sequence(self):
        """A list of 1-5 schedule lines (text)."""
        extra, lines = [], []
        arrays = [v for v in self.locs if v.ndim >= 1]
        self.bufs = []
        weights = [1 if p not in ("var_split", "var_reorder", "var_merge", "inline", "propagate",
                                  "var_unfold", "var_attach")
                   else (1 if arrays else 0.15) for p in PRIMS]
        for _ in range(self.rng.randint(1, 5)):
            prim = self.rng.choices(PRIMS, weights)[0]
            if prim == "var_pad" and not self.bufs and (not arrays or self.rng.random() < 0.5):
                lines.append(self.cache_buf())
            if prim in ("propagate", "follow_layout") and arrays and self.rng.random() < 0.7:
                # a layout to carry or follow first
                t = self.rng.choice(arrays)
                lines.append(self.line(self.rng.choice(["var_split", "var_reorder"]), extra,
                                       t.name))
                lines.append(f"propagate({t.name})" if prim == "propagate"
                             else f"follow_layout({self.loop(extra)}, {t.name})")
                continue
            lines.append(self.line(prim, extra))
        for _ in range(self.rng.randint(2, 3) if self.focus else 0):
            # --focus: a line of one of those primitives at a random place
            at = self.rng.randint(0, len(lines))
            lines[at:at] = self.focus_lines(self.rng.choice(self.focus), extra)
        if self.rng.random() < AUTO_SHARE:
            lines.append("auto")
        return lines

    def cache_buf(self, S=None, tensor=None):
        """A `cache` line naming its buffer (for var_pad)."""
        S, sname = (S, S.label or S.name) if S else self.any_stmt()
        names = [self.fresh("fill"), self.fresh("flush"), self.fresh("buf")]
        tensor = tensor or self.tensor_of(S)
        self.bufs.append(names[2])
        self.rank[names[2]] = self.rank.get(tensor, 1)
        return f"{', '.join(names)} = cache({sname}, {tensor}, cpu)"

    def focus_lines(self, prim, extra):
        """A line of prim (--focus), often on the buffers of `cache` lines
        drawn for it first: two tensors of one statement cached there for
        var_attach (the second buffer inside the first's scope)."""
        r = self.rng
        S, _ = self.any_stmt()
        names = [t for t in self.tensors if re.search(r"\b%s\b" % t, S.text)]
        if not names or r.random() < 0.1:
            return [self.line(prim, extra)]
        a, b = r.sample(names, 2) if len(names) >= 2 else (names[0], names[0])
        pre = [self.cache_buf(S, a)]
        if prim == "var_unfold":
            return pre + [self.line(prim, extra, self.bufs[-1])]
        if b != a and r.random() < 0.7:
            pre.append(self.cache_buf(S, b))
            u, t = self.bufs[-2], self.bufs[-1]
        else:
            locs = [v.name for v in self.locs]
            t, u = self.bufs[-1], r.choice(locs + self.bufs[:-1] or [a])
        return pre + [f"var_attach({t}, {u}, {r.randrange(max(self.rank.get(u, 1), 1))})"]

    def tensor_of(self, node):
        names = [t for t in self.tensors if re.search(r"\b%s\b" % t, node.text)]
        if names and self.rng.random() < 0.8:
            return self.rng.choice(names)
        return self.rng.choice(self.tensors)

    def any_stmt(self):
        pool = self.stmts + self.loops
        n = self.rng.choice(pool)
        return n, n.label or n.name

    def line(self, prim, extra, tensor=None):
        r = self.rng
        if r.random() < 0.03:                        # nonsense arguments
            return r.choice([f"{prim}(nowhere)", f"{prim}()", f"{prim}({self.loop(extra)}, 0)",
                             f"{prim}({self.loop(extra)}, bogus=1)",
                             f"split({self.loop(extra)}, -2)",
                             f"parallelize({self.loop(extra)}, threadIdx.x)"])
        if prim == "split":
            L = self.loop(extra)
            args = r.choice([str(r.choice([1, 2, 3, 4, 8])), f"nparts={r.choice([2, 3])}",
                             f"{r.choice([2, 4])}, shift={r.choice([1, 2])}"])
            if r.random() < 0.6:
                o, i = self.fresh("o"), self.fresh("i")
                extra += [o, i]
                return f"{o}, {i} = split({L}, {args})"
            return f"split({L}, {args})"
        if prim in ("merge", "reorder"):
            cand = [l for l in self.loops if l.loops_up()]
            if cand and r.random() < 0.75:
                inner = r.choice(cand)
                outer = inner.loops_up()[0]
                a, b = outer.label or outer.name, inner.label or inner.name
                if prim == "reorder":
                    return f"reorder({b}, {a})"
                if r.random() < 0.5:
                    m = self.fresh("m")
                    extra.append(m)
                    return f"{m} = merge({a}, {b})"
                return f"merge({a}, {b})"
            return f"{prim}({self.loop(extra)}, {self.loop(extra)})"
        if prim == "fission":
            L = r.choice(self.loops)
            inside = [s for s in self.stmts + self.loops if L in s.loops_up()]
            S = r.choice(inside) if inside and r.random() < 0.8 else self.any_stmt()[0]
            sname = S.label or S.name
            if r.random() < 0.5:
                a, b = self.fresh("f"), self.fresh("f")
                extra += [a, b]
                return f"{a}, {b} = fission({L.label}, after={sname})"
            return f"fission({L.label}, after={sname})"
        if prim == "fuse":
            pairs = [(a, b) for g in self.groups(all_kids=True) for a, b in zip(g, g[1:])
                     if a.kind == b.kind == "for"]
            if pairs and r.random() < 0.75:
                a, b = r.choice(pairs)
                a, b = a.label or a.name, b.label or b.name
            else:
                a, b = self.loop(extra), self.loop(extra)
            if r.random() < 0.3:
                m = self.fresh("u")
                extra.append(m)
                return f"{m} = fuse({a}, {b})"
            return f"fuse({a}, {b})"
        if prim == "move_to" and r.random() < 0.3:
            inner = [n for n in self.stmts + self.loops if n.loops_up() and n.label]
            if inner:                                # hoist or sink out of loops
                n = r.choice(inner)
                up = r.choice(n.loops_up())
                return (f"move_to({n.label}, {r.choice(['before', 'after'])}="
                        f"{up.label or up.name})")
        if prim in ("swap", "move_to"):
            groups = [g for g in self.groups() if len(g) >= 2]
            if groups and r.random() < 0.7:
                g = r.choice(groups)
                i = r.randrange(len(g) - 1)
                a, b = (g[i + 1], g[i]) if r.random() < 0.7 else r.sample(g, 2)
            else:
                a, b = self.any_stmt()[0], self.any_stmt()[0]
            a, b = a.label or a.name, b.label or b.name
            if prim == "swap":
                return f"swap({a}, {b})"
            return f"move_to({a}, {r.choice(['before', 'after'])}={b})"
        if prim == "parallelize":
            return f"parallelize({self.loop(extra)}, openmp)"
        if prim in ("unroll", "blend", "vectorize", "separate_tail"):
            short = [l.label for l in self.loops if l.trip and l.trip <= 64 and l.label]
            if prim in ("unroll", "blend") and short and r.random() < 0.6:
                return f"{prim}({r.choice(short)})"
            outers = [x for x in extra if x.startswith("o")]
            if prim == "separate_tail" and r.random() < 0.7:
                if outers:                       # the guard a split left
                    return f"separate_tail({r.choice(outers)})"
                o, i = self.fresh("o"), self.fresh("i")
                extra += [o, i]
                return f"{o}, {i} = split({self.loop(extra)}, {r.choice([2, 3, 4])})"
            return f"{prim}({self.loop(extra)})"
        if prim in ("cache", "cache_reduce"):
            S, sname = self.any_stmt()
            res = ""
            if r.random() < 0.3:
                res = f"{self.fresh('fill')}, {self.fresh('flush')}, {self.fresh('buf')} = "
                self.bufs.append(res.split(", ")[2].split(" ")[0])
            return f"{res}{prim}({sname}, {self.tensor_of(S)}, cpu)"
        locs = self.locs or []
        t = tensor or (r.choice(locs).name if locs and r.random() < 0.85
                       else r.choice(self.tensors))
        nd = max([v.ndim for v in locs if v.name == t] + [1])
        if prim == "set_mtype":
            return f"set_mtype({t}, cpu)"
        if prim == "var_split":
            d = r.randrange(nd + (r.random() < 0.1))
            return r.choice([f"var_split({t}, {d}, {r.choice([2, 3, 4])})",
                             f"var_split({t}, {d}, nparts={r.choice([2, 3])})"])
        if prim == "var_reorder":
            perm = list(range(nd))
            r.shuffle(perm)
            return f"var_reorder({t}, [{', '.join(map(str, perm))}])"
        if prim == "var_merge":
            return f"var_merge({t}, {r.randrange(max(nd - 1, 1))})"
        if prim == "follow_layout":
            return f"follow_layout({self.loop(extra)}, {t})"
        if prim == "propagate":
            return f"propagate({t})"
        if prim == "var_pad":
            # a cache's buffer (a copy of a parameter: the guards of a
            # padded convolution go; sequence() makes one first) or a local
            if self.bufs and r.random() < 0.7:
                t, nd = r.choice(self.bufs), 3
            return f"var_pad({t}, {r.randrange(nd)}, {r.choice([0, 1, 2])}, {r.choice([0, 1, 2])})"
        if prim == "var_unfold":
            nd = max(self.rank.get(t, 1), 1)
            stride = r.choice([1, 2, 3, 4])
            tile = stride + r.choice([0, 1, 2, 2, 3, 4]) - (r.random() < 0.05) * stride
            return f"var_unfold({t}, {r.randrange(nd + (r.random() < 0.05))}, {tile}, {stride})"
        if prim == "var_attach":
            pool = [x for x in self.bufs + [v.name for v in locs] if x != t]
            u = r.choice(pool) if pool and r.random() < 0.95 else t
            if len(self.bufs) >= 2 and r.random() < 0.5:
                t, u = self.bufs[-1], self.bufs[-2]
            return f"var_attach({t}, {u}, {r.randrange(max(self.rank.get(u, 1), 1))})"
        return f"inline({t})"


# ------------------------------------------------------- batches

def prim_of(line):
    m = re.search(r"(\w+)\(", line)
    return m.group(1) if m else line.strip() if line.strip() == "auto" else "?"


def batch_text(header, body, func, variants, with_ref):
    """(text, line map): one copy of the function per variant (f__vK), each
    with its schedule block; line map: file line -> (variant, line index)."""
    out, where = [], {}
    if with_ref:
        out += [header.replace(f"func {func}(", f"func {func}__ref(", 1)] + body + [""]
    for k, lines in variants:
        out += [header.replace(f"func {func}(", f"func {func}__v{k}(", 1)] + body + [""]
        if lines:
            out.append(f"schedule {func}__v{k}:")
            for j, ln in enumerate(lines):
                out.append("    " + ln)
                where[len(out)] = (k, j)
            out.append("")
    return "\n".join(out) + "\n", where


DIAG_RE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)


def crashed(rc, err):
    return rc < 0 or rc >= 128 or "AddressSanitizer" in err or "runtime error:" in err


class Fuzz:
    """Runs both checks for one program and collects counts and failures."""

    def __init__(self, ftc, work, verbose, focus=()):
        self.ftc, self.work, self.verbose, self.focus = ftc, work, verbose, focus
        self.failures = []
        self.stats = {p: [0, 0] for p in PRIMS + ["auto", "other"]}   # accepted, refused
        self.seqs = [0, 0, 0]                                  # tried, all accepted, refused
        self.variants_run = 0
        self.focus_run = 0      # of them, those with an accepted --focus line

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL: " + msg, flush=True)

    def check_batch(self, name, header, body, func, variants):
        """ftc check of the variants; {k: set of refused line indices}, with
        crashing variants removed from variants (reported)."""
        path = os.path.join(self.work, f"{name}_check.ft")
        text, where = batch_text(header, body, func, variants, False)
        with open(path, "w") as fh:
            fh.write(text)
        rc, _, err = run([self.ftc, "check", path, "--check-refusals"])
        if crashed(rc, err):
            if len(variants) == 1:
                k, lines = variants[0]
                self.fail(f"{name}: ftc crashed (rc {rc}) on the sequence {lines}:\n"
                          f"{err[-1500:]}")
                return None
            half = len(variants) // 2
            a = self.check_batch(name, header, body, func, variants[:half])
            b = self.check_batch(name, header, body, func, variants[half:])
            return {**(a or {}), **(b or {})}
        refused = {k: set() for k, _ in variants}
        lines_of = dict(variants)
        if "internal error" in err:
            for m in re.finditer(r"^.*internal error.*$", err, re.M):
                self.fail(f"{name}: {m.group(0)}")
        for m in DIAG_RE.finditer(err):
            ln = int(m.group("line"))
            if m.group("path") != path or ln not in where:
                self.fail(f"{name}: an error not located on a schedule line: {m.group(0)}")
                continue
            k, j = where[ln]
            refused[k].add(j)
            if "internal error" in m.group("msg"):
                self.fail(f"{name}: {lines_of[k]}: line {j + 1}: {m.group('msg')}")
        if rc != 0 and not DIAG_RE.search(err):
            self.fail(f"{name}: ftc check failed (rc {rc}) without a located error:\n"
                      f"{err[-800:]}")
        if rc == 0 and any(refused.values()):
            self.fail(f"{name}: errors reported but ftc check exited 0")
        return refused

    def try_build(self, name, header, body, func, variants, auto=False):
        """Build the variants into one library: (path or None, stderr).
        Without auto, with f__ref and --no-auto (the unscheduled
        reference); with it, the variants whose blocks end with `auto`
        alone, the auto-scheduler on."""
        path = os.path.join(self.work, f"{name}_run.ft")
        so = os.path.join(self.work, f"lib{name}_run.so")
        text, _ = batch_text(header, body, func, variants, not auto)
        with open(path, "w") as fh:
            fh.write(text)
        rc, _, err = run([self.ftc, "build", path, "-o", so, "--check-refusals",
                          "--cflags", "-O1 -fopenmp"] + ([] if auto else ["--no-auto"]))
        return (so if rc == 0 else None), err

    def find_bad(self, name, header, body, func, variants, auto):
        """The variants that do not build (bisection; each reported)."""
        if not variants or self.try_build(name + "_b", header, body, func, variants, auto)[0]:
            return []
        if len(variants) == 1:
            err = self.try_build(name + "_b", header, body, func, variants, auto)[1]
            self.fail(f"{name}: building the accepted sequence {variants[0][1]} failed:\n"
                      f"{err[-1500:]}")
            return variants
        half = len(variants) // 2
        return (self.find_bad(name, header, body, func, variants[:half], auto) +
                self.find_bad(name, header, body, func, variants[half:], auto))

    def build_one(self, name, header, body, func, accepted, auto=False):
        """The library of the accepted variants that build (and f__ref
        without auto: try_build)."""
        so, err = self.try_build(name, header, body, func, accepted, auto)
        if so:
            return so, accepted
        bad = self.find_bad(name, header, body, func, accepted, auto)
        if not bad:
            self.fail(f"{name}: the batch does not build:\n{err[-1500:]}")
            return None, []
        good = [v for v in accepted if v not in bad]
        so, err = self.try_build(name, header, body, func, good, auto)
        return so, good

    def program(self, name, spec, nseqs, seed):
        path, func, sizes, gen_ints, ref_fn = spec
        text = label_all(lowered_function(self.ftc, path, func))
        header, loops, stmts, locs, _ = parse_function(text)
        params = parse_params(header)
        body = text.rstrip("\n").split("\n")[1:]
        rng = random.Random(f"{seed}:{name}")
        gen = Gen(rng, loops, stmts, locs, params, self.focus)
        variants = [(k, gen.sequence()) for k in range(nseqs)]
        refused = self.check_batch(name, header, body, func, variants) or {}
        accepted = []
        for k, lines in variants:
            if k not in refused:
                continue                       # crashed (reported)
            self.seqs[0] += 1
            self.seqs[1 if not refused[k] else 2] += 1
            for j, ln in enumerate(lines):
                p = prim_of(ln)
                self.stats[p if p in self.stats else "other"][j in refused[k]] += 1
            kept = [ln for j, ln in enumerate(lines) if j not in refused[k]]
            if self.verbose:
                print(f"  {name} v{k}: " + "; ".join(
                    ("REFUSED " if j in refused[k] else "") + ln for j, ln in enumerate(lines)))
            if kept and kept not in [a for _, a in accepted]:
                accepted.append((k, kept))
        self.numeric(name, header, body, func, accepted, params, sizes, gen_ints, ref_fn)

    def numeric(self, name, header, body, func, accepted, params, sizes, gen_ints, ref_fn):
        """Build and call the accepted variants; compare with f__ref and NumPy."""
        plain = [v for v in accepted if v[1][-1] != "auto"]
        so, built = self.build_one(name, header, body, func, plain)
        if so is None:
            return
        auto = [v for v in accepted if v[1][-1] == "auto"]
        so_auto, built_auto = (self.build_one(name + "_auto", header, body, func, auto, True)
                               if auto else (None, []))
        rng = np.random.default_rng(7)
        sizes = dict(sizes)
        ints = gen_ints(rng, sizes) if gen_ints else {}
        inputs = {}
        env = dict(sizes)
        for p in params:
            if p[1] == "size":
                continue
            pname, dtype, shape, acc = p
            shp = tuple(int(eval(d, {}, env)) for d in shape.split(",")) if shape else ()
            npt = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
                   "bool": np.bool_}[dtype]
            if pname in ints:
                inputs[pname] = np.ascontiguousarray(ints[pname], dtype=npt)
            elif acc == "out":
                inputs[pname] = np.zeros(shp, dtype=npt)
            elif npt in (np.float32, np.float64):
                inputs[pname] = rng.uniform(-1, 1, shp).astype(npt)
            else:
                inputs[pname] = rng.integers(0, 3, shp).astype(npt)
        libs = {so: ctypes.CDLL(so)}
        if so_auto:
            libs[so_auto] = ctypes.CDLL(so_auto)

        def call(fname, lib_path=so):
            lib = libs[lib_path]
            args, outs = [], {}
            for p in params:
                if p[1] == "size":
                    args.append(ctypes.c_int64(sizes[p[0]]))
                    continue
                a = inputs[p[0]].copy()
                outs[p[0]] = a
                args.append(a.ctypes.data_as(ctypes.c_void_p))
            fn = getattr(lib, fname)
            fn.restype = ctypes.c_int
            rc = fn(*args)
            return rc, {p[0]: outs[p[0]] for p in params if p[1] != "size" and p[3] != "in"}

        rc, ref = call(f"{func}__ref")
        if rc != 0:
            self.fail(f"{name}: the unscheduled function returned {rc}")
            return
        if ref_fn:
            for t, want in ref_fn(inputs).items():
                err = self.err(ref[t], want)
                if not err <= TOL:
                    self.fail(f"{name}: the unscheduled function differs from NumPy on {t} "
                              f"(err {err:.2e})")
        for k, lines, where in ([(k, ln, so) for k, ln in built] +
                                [(k, ln, so_auto) for k, ln in built_auto]):
            self.variants_run += 1
            self.focus_run += any(prim_of(ln) in self.focus for ln in lines)
            rc, got = call(f"{func}__v{k}", where)
            if rc != 0:
                self.fail(f"{name}: sequence {lines} returned {rc}")
                continue
            for t in ref:
                err = self.err(got[t], ref[t])
                if not err <= TOL:
                    self.fail(f"{name}: sequence {lines} changes {t} (err {err:.2e})")

    @staticmethod
    def err(got, want):
        got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
        if got.shape != want.shape:
            return float("inf")
        fin = np.isfinite(want)
        if not np.array_equal(fin, np.isfinite(got)):
            return float("inf")
        if not fin.any():
            return 0.0
        scale = max(1.0, float(np.abs(want[fin]).max()))
        return float(np.abs(got[fin] - want[fin]).max()) / scale


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ftc")
    ap.add_argument("root")
    ap.add_argument("--seqs", type=int, default=1140, help="sequences in all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="", help="keep the batch files in this folder")
    ap.add_argument("--focus", default="", help="primitives every sequence has a line of")
    ap.add_argument("--min-focus", type=int, default=0,
                    help="fail unless this many variants with an accepted --focus line ran "
                         "(not checked when FTC_FUZZ_SEQS changes --seqs)")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    if os.environ.get("FTC_FUZZ_SEQS"):
        a.seqs = int(os.environ["FTC_FUZZ_SEQS"])
        a.min_focus = 0         # a smaller sample (the sanitizers' rerun)
    focus = [p for p in a.focus.split(",") if p]
    unknown = [p for p in focus if p not in PRIMS]
    if unknown:
        ap.error(f"--focus: no primitive {', '.join(unknown)}")
    ftc = os.path.abspath(a.ftc)
    os.chdir(a.root)
    names = [n for n in PROGRAMS if not a.only or n in a.only.split(",")]
    per = max(1, -(-a.seqs // len(names)))
    work = a.keep or tempfile.mkdtemp(prefix="ftc-fuzz-")
    os.makedirs(work, exist_ok=True)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    fz = Fuzz(ftc, work, a.v, focus)
    try:
        for n in names:
            before = len(fz.failures)
            fz.program(n, PROGRAMS[n], per, a.seed)
            print(f"{n:16s} {per} sequences, {len(fz.failures) - before} failures", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\nprograms {len(names)}, sequences tried {fz.seqs[0]}, all lines accepted "
          f"{fz.seqs[1]}, with a refused line {fz.seqs[2]}; scheduled variants run "
          f"{fz.variants_run}")
    if focus:
        print(f"variants run with an accepted line of {', '.join(focus)}: {fz.focus_run} "
              f"(at least {a.min_focus} wanted)")
        if fz.focus_run < a.min_focus:
            fz.fail(f"only {fz.focus_run} variants with an accepted --focus line ran")
    print(f"{'primitive':14s} {'lines':>6s} {'accepted':>9s} {'refused':>8s}")
    for p, (acc, ref) in fz.stats.items():
        if acc + ref:
            print(f"{p:14s} {acc + ref:6d} {acc:9d} {ref:8d}")
    if fz.failures:
        print(f"\n{len(fz.failures)} failure(s)")
        return 1
    print("\nok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
