"""The four workloads of issue 7: their parameter lists, NumPy references
(float64), PyTorch baselines (operator by operator) and the ctypes calls of
the ftc-built and hand-written C libraries.

Used by bench/run (with PyTorch) and tests/numeric/bench_check.py (NumPy
only: nothing here imports torch until a torch_* function is called).

Every workload NAME has:
  SPEC[NAME]   = (sizes, inputs, outputs, wrt): the exported function's
                 parameters in order (size names, input tensor names, output
                 names) and the tensors its gradient is taken with respect to
  ref_NAME(s, a)     -> {output: float64 array}
  torch_NAME(s, t)   -> {output: tensor}, t the inputs as torch tensors
The .ft programs (bench/ft/NAME.ft) and the hand-written C (bench/handc/NAME.c)
export `int NAME(int64_t sizes..., const T *inputs..., float *outputs...)`.
"""
import ctypes
import os
import sys

import numpy as np

from data import SIGMA, SLOPE, W

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import ftc  # noqa: E402  (python/ftc: the package that loads ftc's libraries)

f32, f64 = np.float32, np.float64

SPEC = {
    "subdivnet": (["n_faces", "in_feats", "out_feats"],
                  ["adj", "e", "w0", "w1", "w2", "w3"], ["y"], ["e"]),
    "longformer": (["n_heads", "seq_len", "feat_len"],
                   ["dilation", "q", "k", "v"], ["y"], ["q", "k", "v"]),
    "softras": (["n_verts", "n_faces", "h", "w"], ["verts", "faces"], ["img"], ["verts"]),
    "gat": (["n", "nnz", "feat_len"],
            ["ptr", "idx", "x", "weight", "attn_l", "attn_r"], ["y"], ["x"]),
}


def out_shapes(name, s):
    if name == "subdivnet":
        return {"y": (s["n_faces"], s["out_feats"])}
    if name == "longformer":
        return {"y": (s["n_heads"], s["seq_len"], s["feat_len"])}
    if name == "softras":
        return {"img": (s["h"], s["w"])}
    if name == "gat":
        return {"y": (s["n"], s["feat_len"])}
    raise KeyError(name)


# --- NumPy references (float64, written from the definitions) -------------

def ref_subdivnet(s, a):
    adj, e = a["adj"], a["e"].astype(f64)
    nb = [e[adj[:, j]] for j in range(3)]
    feats = [e, sum(nb),
             sum(np.abs(nb[j] - nb[(j + 1) % 3]) for j in range(3)),
             sum(np.abs(e - nb[j]) for j in range(3))]
    return {"y": sum(fk @ a[f"w{k}"].astype(f64) for k, fk in enumerate(feats))}


def ref_longformer(s, a, w=W):
    H, S, F = s["n_heads"], s["seq_len"], s["feat_len"]
    y = np.zeros((H, S, F))
    offs = np.arange(-w, w + 1)
    for h in range(H):
        d = int(a["dilation"][h])
        q, k, v = (a[x][h].astype(f64) for x in ("q", "k", "v"))
        for j0 in range(0, S, 512):
            j = np.arange(j0, min(j0 + 512, S))
            pos = j[:, None] + offs[None, :] * d              # [J, P]
            ok = (pos >= 0) & (pos < S)
            pc = np.clip(pos, 0, S - 1)
            dot = np.einsum("jf,jpf->jp", q[j], k[pc])
            dot[~ok] = -np.inf
            att = np.exp(dot - dot.max(1, keepdims=True))
            att /= att.sum(1, keepdims=True)
            y[h, j] = np.einsum("jp,jpf->jf", att, v[pc])
    return {"y": y}


def _pixels(h, w, lib):
    jj, ii = lib.meshgrid(lib.arange(w), lib.arange(h), indexing="xy")
    px = (2 * jj.reshape(-1) + 1) / w - 1
    py = (2 * ii.reshape(-1) + 1) / h - 1
    return px, py


def ref_softras(s, a):
    h, w = s["h"], s["w"]
    v = a["verts"].astype(f64)[:, :2]
    fa = a["faces"]
    A, B, C = (v[fa[:, j]] for j in range(3))                # [F, 2]
    px, py = _pixels(h, w, np)
    p = np.stack([px, py], 1)[:, None, :]                   # [P, 1, 2]

    def seg(a_, b_):
        e = b_ - a_
        t = np.clip(((p - a_) * e).sum(-1) / (e * e).sum(-1), 0, 1)
        d = p - a_ - t[..., None] * e
        return (d * d).sum(-1)

    def side(a_, b_):
        e = b_ - a_
        return e[:, 0] * (p[..., 1] - a_[:, 1]) - e[:, 1] * (p[..., 0] - a_[:, 0])

    d2 = np.minimum(seg(A, B), np.minimum(seg(B, C), seg(C, A)))
    s0, s1, s2 = side(A, B), side(B, C), side(C, A)
    inside = ((s0 >= 0) & (s1 >= 0) & (s2 >= 0)) | ((s0 <= 0) & (s1 <= 0) & (s2 <= 0))
    z = np.where(inside, d2, -d2) / SIGMA
    with np.errstate(over="ignore"):
        keep = np.prod(1 / (1 + np.exp(z)), axis=1)          # 1 - sigmoid(z)
    return {"img": (1 - keep).reshape(h, w)}


def ref_gat(s, a):
    n = s["n"]
    ptr, idx = a["ptr"].astype(np.int64), a["idx"].astype(np.int64)
    hf = a["x"].astype(f64) @ a["weight"].astype(f64)
    el, er = hf @ a["attn_l"].astype(f64), hf @ a["attn_r"].astype(f64)
    row = np.repeat(np.arange(n), np.diff(ptr))
    sc = el[row] + er[idx]
    sc = np.where(sc > 0, sc, SLOPE * sc)
    m = np.full(n, -np.inf)
    np.maximum.at(m, row, sc)
    ex = np.exp(sc - m[row])
    den = np.bincount(row, weights=ex, minlength=n)
    alpha = ex / den[row]
    y = np.zeros_like(hf)
    np.add.at(y, row, alpha[:, None] * hf[idx])
    return {"y": y}


def ref_gat_grad(s, a, d_outs):
    """d_x of GAT (float64, by hand): the softmax's backward
    d_s = alpha * (d_alpha - sum over the row of alpha * d_alpha), the
    leaky ReLU's slope, scatters with np.add.at."""
    n = s["n"]
    ptr, idx = a["ptr"].astype(np.int64), a["idx"].astype(np.int64)
    w, al, ar = (a[k].astype(f64) for k in ("weight", "attn_l", "attn_r"))
    hf = a["x"].astype(f64) @ w
    el, er = hf @ al, hf @ ar
    row = np.repeat(np.arange(n), np.diff(ptr))
    t = el[row] + er[idx]
    sc = np.where(t > 0, t, SLOPE * t)
    m = np.full(n, -np.inf)
    np.maximum.at(m, row, sc)
    ex = np.exp(sc - m[row])
    alpha = ex / np.bincount(row, weights=ex, minlength=n)[row]
    dy = d_outs["y"].astype(f64)
    d_alpha = np.sum(dy[row] * hf[idx], axis=1)
    d_hf = np.zeros_like(hf)
    np.add.at(d_hf, idx, alpha[:, None] * dy[row])
    d_s = alpha * (d_alpha - np.bincount(row, weights=alpha * d_alpha, minlength=n)[row])
    d_t = np.where(t > 0, d_s, SLOPE * d_s)
    d_el = np.bincount(row, weights=d_t, minlength=n)
    d_er = np.bincount(idx, weights=d_t, minlength=n)
    d_hf += d_el[:, None] * al + d_er[:, None] * ar
    return {"d_x": d_hf @ w.T}


REF = {"subdivnet": ref_subdivnet, "longformer": ref_longformer,
       "softras": ref_softras, "gat": ref_gat}
# float64 references of gradients: (s, a, d_outs) -> {"d_" + wrt: array}
GRAD_REF = {"gat": ref_gat_grad}


# --- PyTorch baselines (operator by operator, autograd for gradients) -----

def torch_subdivnet(s, t):
    import torch
    e, adj = t["e"], t["adj"]
    n, F = e.shape
    nb = e.index_select(0, adj.reshape(-1)).view(n, 3, F)           # e[adj[i, j]]
    rolled = torch.cat([nb[:, 1:], nb[:, :1]], 1)                   # e[adj[i, (j + 1) % 3]]
    f1 = nb.sum(1)
    f2 = (nb - rolled).abs().sum(1)
    f3 = (e[:, None, :] - nb).abs().sum(1)
    feats = torch.cat([e, f1, f2, f3], 1)                           # [n, 4 F]
    wcat = torch.cat([t["w0"], t["w1"], t["w2"], t["w3"]], 0)      # [4 F, O]
    return {"y": feats @ wcat}


LF_BLOCK = 64


def _lf_layout(x, d, L, nb, pad_value=0):
    """[G, S, ...] -> [G * d, W + nb * B + W, ...]: the d interleaved
    subsequences (positions r, r + d, ...) of each head, each padded with W
    rows in front and behind (and up to nb * B rows of content)."""
    import torch.nn.functional as Fn
    G, S = x.shape[0], x.shape[1]
    rest = x.shape[2:]
    x = Fn.pad(x, (0, 0) * len(rest) + (0, L * d - S), value=pad_value)
    x = x.view(G, L, d, *rest).transpose(1, 2).reshape(G * d, L, *rest)
    return Fn.pad(x, (0, 0) * len(rest) + (W, W + nb * LF_BLOCK - L), value=pad_value)


def torch_longformer(s, t):
    """Blocked sliding-window attention with padded copies: the heads of one
    dilation d are split into d interleaved subsequences (a dilated window
    is a plain window there), padded, cut into blocks of B positions; each
    block's queries meet the B + 2 W keys around it in one batched matmul,
    the band of 2 W + 1 diagonals is gathered out, masked and softmaxed, and
    scattered back for the matmul with the values."""
    import torch
    q, k, v, dil = t["q"], t["k"], t["v"], t["dilation"]
    dev = q.device
    H, S, F = q.shape
    B, P = LF_BLOCK, 2 * W + 1
    ys, heads = [], []
    for d in sorted(set(dil.tolist())):
        hs = (dil == d).nonzero().reshape(-1)
        G = len(hs)
        L = -(-S // d)                       # subsequence length
        nb = -(-L // B)                      # blocks per subsequence
        qh, kh, vh = (x.index_select(0, hs) for x in (q, k, v))
        # queries [G d, nb, B, F]; keys and values [G d, nb, B + 2W, F] (copies)
        ql = _lf_layout(qh, d, L, nb)[:, W:W + nb * B].reshape(G * d, nb, B, F)
        kl = _lf_layout(kh, d, L, nb).unfold(1, B + 2 * W, B).transpose(2, 3)
        vl = _lf_layout(vh, d, L, nb).unfold(1, B + 2 * W, B).transpose(2, 3)
        pos = torch.arange(S, device=dev).view(1, S)
        kpos = _lf_layout(pos, d, L, nb, pad_value=-1).unfold(1, B + 2 * W, B)  # [d, nb, B+2W]
        band = (torch.arange(B, device=dev).view(B, 1)
                + torch.arange(P, device=dev).view(1, P))                  # [B, P]
        kpos_band = kpos[:, :, band]                                       # [d, nb, B, P]
        valid = (kpos_band >= 0).repeat(G, 1, 1, 1)                        # [G d, nb, B, P]
        scores = torch.matmul(ql, kl.transpose(2, 3))                      # [G d, nb, B, B+2W]
        idx = band.expand(G * d, nb, B, P)
        dots = scores.gather(3, idx).masked_fill(~valid, float("-inf"))
        attn = torch.softmax(dots, -1)
        dense = torch.zeros_like(scores).scatter(3, idx, attn)
        yl = torch.matmul(dense, vl)                                       # [G d, nb, B, F]
        y = yl.reshape(G, d, nb * B, F)[:, :, :L].transpose(1, 2).reshape(G, L * d, F)[:, :S]
        ys.append(y)
        heads.append(hs)
    y = torch.cat(ys, 0)
    order = torch.cat(heads)
    out = torch.empty_like(y)
    out = out.index_copy(0, order, y)
    return {"y": out}


def torch_softras(s, t):
    """Batched over [pixels, faces]."""
    import torch
    h, w = s["h"], s["w"]
    v = t["verts"][:, :2]
    fa = t["faces"]
    A, B, C = (v.index_select(0, fa[:, j]) for j in range(3))
    px, py = _pixels(h, w, torch)
    p = torch.stack([px, py], 1).to(device=v.device, dtype=v.dtype)[:, None, :]

    def seg(a_, b_):
        e = b_ - a_
        tt = (((p - a_) * e).sum(-1) / (e * e).sum(-1)).clamp(0, 1)
        d = p - a_ - tt[..., None] * e
        return (d * d).sum(-1)

    def side(a_, b_):
        e = b_ - a_
        return e[:, 0] * (p[..., 1] - a_[:, 1]) - e[:, 1] * (p[..., 0] - a_[:, 0])

    d2 = torch.minimum(seg(A, B), torch.minimum(seg(B, C), seg(C, A)))
    s0, s1, s2 = side(A, B), side(B, C), side(C, A)
    inside = ((s0 >= 0) & (s1 >= 0) & (s2 >= 0)) | ((s0 <= 0) & (s1 <= 0) & (s2 <= 0))
    z = torch.where(inside, d2, -d2) / SIGMA
    keep = torch.prod(1 - torch.sigmoid(z), 1)
    return {"img": (1 - keep).view(h, w)}


def torch_gat(s, t):
    """Edge-parallel with index_select, scatter_reduce and index_add."""
    import warnings
    import torch
    import torch.nn.functional as Fn
    warnings.filterwarnings("ignore", message="scatter_reduce")
    n = s["n"]
    row, idx = t["row"], t["idx"]
    hf = t["x"] @ t["weight"]
    el, er = hf @ t["attn_l"], hf @ t["attn_r"]
    sc = Fn.leaky_relu(el.index_select(0, row) + er.index_select(0, idx), SLOPE)
    m = torch.full((n,), float("-inf"), dtype=sc.dtype, device=sc.device).scatter_reduce(
        0, row, sc.detach(), "amax", include_self=True)
    ex = torch.exp(sc - m.index_select(0, row))
    den = torch.zeros(n, dtype=sc.dtype, device=sc.device).index_add(0, row, ex)
    alpha = ex / den.index_select(0, row)
    y = torch.zeros_like(hf).index_add(0, row, alpha[:, None] * hf.index_select(0, idx))
    return {"y": y}


TORCH = {"subdivnet": torch_subdivnet, "longformer": torch_longformer,
         "softras": torch_softras, "gat": torch_gat}


def torch_inputs(name, s, a, device=None):
    """The inputs as torch tensors (index arrays as int64, as torch's
    indexing wants them; that conversion is not timed), on `device` (a
    torch device, e.g. "cuda") when given."""
    import torch
    t = {}
    for k, v in a.items():
        if v.dtype.kind in "iu":
            t[k] = torch.from_numpy(v.astype(np.int64))
        else:
            t[k] = torch.from_numpy(v.copy())
    if name == "gat":
        t["row"] = torch.repeat_interleave(torch.arange(s["n"]), torch.from_numpy(np.diff(a["ptr"]).astype(np.int64)))
    if device is not None:
        t = {k: v.to(device) for k, v in t.items()}
    return t


# --- C libraries (ftc-built or hand-written) through ctypes ---------------

class CFunc:
    """fn(sizes..., inputs..., outputs...) of a shared library; for a
    gradient (grad=True) the ABI `g(f's params..., d_outs..., d_wrts...)`.
    A library built by ftc is called through the Python package (python/ftc:
    every argument checked against its description table once, in
    prepare); a hand-written one through bare ctypes in that order.  Both
    get the same 64-byte aligned arrays (ftc.aligned, ftc.zeros)."""

    def __init__(self, lib_path, name, symbol=None, grad=False):
        self.lib = ctypes.CDLL(os.path.abspath(lib_path))
        self.fn = getattr(self.lib, symbol or name)
        self.fn.restype = ctypes.c_int
        self.name, self.grad = name, grad
        try:
            self.ftc_fn = ftc.load(lib_path)[symbol or name]
        except ValueError:                  # no description table: hand-written
            self.ftc_fn = None

    def prepare(self, s, a, d_outs=None):
        """Allocate the outputs (and gradients) once; return a callable and
        the dict of the arrays it writes."""
        sizes, ins, outs, wrt = SPEC[self.name]
        if self.ftc_fn is not None:
            kw = {k: int(s[k]) for k in sizes}
            kw.update((k, ftc.aligned(a[k])) for k in ins)
            if self.grad:
                kw.update(("d_" + o, ftc.aligned(np.asarray(d_outs[o], dtype=f32))) for o in outs)
            call = self.ftc_fn.prepare(**kw)
            return call, call.outputs
        res = {o: ftc.zeros(sh, f32) for o, sh in out_shapes(self.name, s).items()}
        args = [ctypes.c_int64(int(s[k])) for k in sizes]
        keep = []
        for k in ins:
            arr = ftc.aligned(a[k])
            keep.append(arr)
            args.append(arr.ctypes.data_as(ctypes.c_void_p))
        for o in outs:
            args.append(res[o].ctypes.data_as(ctypes.c_void_p))
        if self.grad:
            for o in outs:
                arr = ftc.aligned(np.asarray(d_outs[o], dtype=f32))
                keep.append(arr)
                args.append(arr.ctypes.data_as(ctypes.c_void_p))
            for k in wrt:
                res["d_" + k] = ftc.zeros(a[k].shape, f32)
                args.append(res["d_" + k].ctypes.data_as(ctypes.c_void_p))
        fn = self.fn

        def call():
            rc = fn(*args)
            if rc != 0:
                raise RuntimeError(f"{self.name}: returned {rc}")
        call.keep = keep
        return call, res


class DevFunc:
    """An ftc library built for --target cuda from a program whose tensor
    parameters are all `@ gpu` (bench/run --target cuda): the same ABI as
    CFunc, called with the data_ptr() of torch tensors on `device` ("cuda";
    "cpu" under tests/cuda/fake_nvcc, whose device memory is host memory),
    followed by `sync()` (torch.cuda.synchronize) so that a timed call
    covers the device's work."""

    def __init__(self, lib_path, name, device, sync, symbol=None, grad=False):
        self.lib = ctypes.CDLL(os.path.abspath(lib_path))
        self.fn = getattr(self.lib, symbol or name)
        self.fn.restype = ctypes.c_int
        self.name, self.grad, self.device, self.sync = name, grad, device, sync

    def _tensor(self, arr):
        import torch
        return torch.from_numpy(np.ascontiguousarray(arr)).to(self.device)

    def prepare(self, s, a, d_outs=None):
        """Copy the inputs to the device and allocate the outputs (and
        gradients) there once; return a callable and a function giving the
        outputs as NumPy arrays (copied back, not timed)."""
        import torch
        sizes, ins, outs, wrt = SPEC[self.name]
        res = {o: torch.zeros(sh, dtype=torch.float32, device=self.device)
               for o, sh in out_shapes(self.name, s).items()}
        args = [ctypes.c_int64(int(s[k])) for k in sizes]
        keep = []
        for k in ins:
            keep.append(self._tensor(a[k]))
        if self.grad:
            for o in outs:
                keep.append(self._tensor(np.asarray(d_outs[o], f32)))
            for k in wrt:
                res["d_" + k] = torch.zeros(a[k].shape, dtype=torch.float32, device=self.device)
        ptrs = keep[:len(ins)] + [res[o] for o in outs] + keep[len(ins):] + \
            [res["d_" + k] for k in (wrt if self.grad else [])]
        args += [ctypes.c_void_p(t.data_ptr()) for t in ptrs]
        fn, sync = self.fn, self.sync

        def call():
            rc = fn(*args)
            sync()
            if rc != 0:
                raise RuntimeError(f"{self.name}: returned {rc}")
        call.keep = keep
        self.sync()
        return call, lambda: {k: v.cpu().numpy() for k, v in res.items()}


def gpu_params(src):
    """The program text with every tensor parameter of its exported
    function marked `@ gpu` (device pointers in the CUDA library's ABI)."""
    import re
    m = re.search(r"^export func \w+\((.*?)\):[ \t]*$", src, re.M | re.S)
    if not m:
        raise ValueError("no exported function")
    head = re.sub(r"\b(in|out|inout)\b(?=\s*[,)])", r"\1 @ gpu", m.group(0))
    return src[:m.start()] + head + src[m.end():]


def grad_program(text, out_path, grad=None):
    """Write the program TEXT followed by its gradient statement to
    OUT_PATH: GRAD when given, else the `grad ...` written after
    `bench-grad:` in the program's header (None returned when there is
    none).  Returns the gradient's symbol (the name after `->`)."""
    import re
    if grad is None:
        m = re.search(r"^#\s*bench-grad:\s*(grad .*)$", text, re.M)
        if not m:
            return None
        grad = m.group(1).strip()
    with open(out_path, "w") as fh:
        fh.write(text.rstrip("\n") + "\n\n" + grad + "\n")
    return grad.split("->")[-1].strip()


def rel_err(got, ref):
    got = np.asarray(got, f64)
    ref = np.asarray(ref, f64)
    if got.shape != ref.shape:
        return float("inf")
    if got.size == 0:
        return 0.0
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.max(np.abs(got - ref)) / max(np.max(np.abs(ref)), 1e-30))


RTOL = {"subdivnet": 1e-4, "longformer": 1e-4, "softras": 5e-3, "gat": 1e-4}
