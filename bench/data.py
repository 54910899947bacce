"""Data generators of the benchmark workloads (bench/run, tests/numeric/bench_check.py).

Everything is generated here with fixed seeds; nothing is downloaded.

- Meshes: a triangulated cube (12 faces) or an icosahedron (20 faces),
  subdivided k times (every triangle split into 4 at its edge midpoints,
  the new vertices pushed onto the unit sphere), so n_faces is 12 * 4^k or
  20 * 4^k: 12288 faces is the cube subdivided 5 times, 81920 faces the
  icosahedron subdivided 6 times, 1280 faces the icosahedron 3 times.
  face_adjacency() gives SubdivNet's adj[i, j]: the face across edge
  (v_j, v_{j+1}) of face i (a closed manifold: every edge has two faces).
- Graphs: a CSR graph (row_ptr, col_idx) with power-law in-degrees (a
  Pareto tail, mean about 12) and neighbours drawn with Zipf-like
  popularity, sorted within a row.

Each workload has make_<name>(size, seed) returning (sizes, arrays): the
size parameters and the input arrays, named as the .ft programs name them.
"""
import numpy as np

f32, i32 = np.float32, np.int32


# --- meshes ----------------------------------------------------------------

def _cube():
    v = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    # index = 4*(x>0) + 2*(y>0) + (z>0); two triangles per side, outward
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    f = []
    for a, b, c, d in quads:
        f += [(a, b, c), (a, c, d)]
    return v / np.sqrt(3.0), np.array(f, np.int64)


def _icosahedron():
    t = (1.0 + 5 ** 0.5) / 2
    v = np.array([[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0],
                  [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
                  [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]], float)
    f = np.array([[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
                  [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
                  [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
                  [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]], np.int64)
    return v / np.linalg.norm(v, axis=1, keepdims=True), f


def _subdivide(v, f):
    """Split every face into 4; midpoints shared between the two faces of an edge."""
    e = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])      # [3F, 2]
    key = np.sort(e, axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    mid = v[uniq[:, 0]] + v[uniq[:, 1]]
    mid /= np.linalg.norm(mid, axis=1, keepdims=True)
    nv = len(v)
    nf = len(f)
    m01, m12, m20 = (nv + inv[:nf], nv + inv[nf:2 * nf], nv + inv[2 * nf:])
    a, b, c = f[:, 0], f[:, 1], f[:, 2]
    nf_ = np.concatenate([np.stack([a, m01, m20], 1), np.stack([m01, b, m12], 1),
                          np.stack([m20, m12, c], 1), np.stack([m01, m12, m20], 1)])
    return np.concatenate([v, mid]), nf_


def sphere_mesh(base, levels):
    """(vertices [nv, 3] float64, faces [nf, 3] int64) of a subdivided cube
    ('cube') or icosahedron ('ico') on the unit sphere."""
    v, f = _cube() if base == "cube" else _icosahedron()
    for _ in range(levels):
        v, f = _subdivide(v, f)
    return v, f


def mesh_with_faces(n_faces):
    """A closed sphere mesh with exactly n_faces (12 * 4^k or 20 * 4^k)."""
    for base, n0 in (("cube", 12), ("ico", 20)):
        k, n = 0, n0
        while n < n_faces:
            k, n = k + 1, n * 4
        if n == n_faces:
            return sphere_mesh(base, k)
    raise ValueError(f"no subdivided cube or icosahedron has {n_faces} faces")


def face_adjacency(f):
    """adj[i, j] = the other face of edge (f[i, j], f[i, (j + 1) % 3])."""
    nf = len(f)
    e = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
    key = np.sort(e, axis=1)
    face = np.tile(np.arange(nf), 3)
    slot = np.repeat(np.arange(3), nf)
    order = np.lexsort((key[:, 1], key[:, 0]))
    k = key[order]
    assert np.all(k[0::2] == k[1::2]), "not a closed manifold mesh"
    a, b = order[0::2], order[1::2]
    adj = np.empty((nf, 3), np.int64)
    adj[face[a], slot[a]] = face[b]
    adj[face[b], slot[b]] = face[a]
    return adj.astype(i32)


# --- graphs ----------------------------------------------------------------

def power_law_csr(n, avg_deg, rng, alpha=2.1, max_deg=None):
    """CSR of n rows with Pareto-distributed lengths (exponent alpha) scaled
    to about avg_deg per row, every row at least 1 long; columns drawn with
    probability ~ (rank + 1)^-0.8 over a random permutation of the nodes."""
    max_deg = max_deg or max(1, n // 4)
    raw = rng.pareto(alpha - 1, n) + 1.0
    deg = np.clip(np.floor(raw * avg_deg / raw.mean()), 1, max_deg).astype(np.int64)
    row_ptr = np.concatenate([[0], np.cumsum(deg)])
    nnz = int(row_ptr[-1])
    pop = (np.arange(n) + 1.0) ** -0.8
    pop /= pop.sum()
    perm = rng.permutation(n)
    col = perm[rng.choice(n, nnz, p=pop)]
    rows = np.repeat(np.arange(n), deg)
    order = np.lexsort((col, rows))
    return row_ptr.astype(i32), col[order].astype(i32)


# --- the workloads ---------------------------------------------------------

def make_subdivnet(n_faces, in_feats, out_feats=64, seed=1):
    rng = np.random.default_rng(seed)
    _, f = mesh_with_faces(n_faces)
    arrays = {"adj": face_adjacency(f),
              "e": rng.standard_normal((n_faces, in_feats), dtype=f32)}
    for k in range(4):
        arrays[f"w{k}"] = (rng.standard_normal((in_feats, out_feats), dtype=f32)
                           / f32(np.sqrt(in_feats)))
    return {"n_faces": n_faces, "in_feats": in_feats, "out_feats": out_feats}, arrays


def make_longformer(n_heads, seq_len, feat_len, n_dilated=2, dilation=4, seed=2):
    rng = np.random.default_rng(seed)
    dil = np.ones(n_heads, i32)
    dil[n_heads - n_dilated:] = dilation
    arrays = {"dilation": dil}
    for k in ("q", "k", "v"):
        arrays[k] = (rng.standard_normal((n_heads, seq_len, feat_len), dtype=f32)
                     / f32(feat_len ** 0.25))
    return {"n_heads": n_heads, "seq_len": seq_len, "feat_len": feat_len}, arrays


def make_softras(n_faces, h, w, seed=3):
    rng = np.random.default_rng(seed)
    v, f = mesh_with_faces(n_faces)
    # a random rotation, then an orthographic view: x, y in about [-0.8, 0.8]
    a, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    v = (v @ a.T) * 0.8
    return ({"n_verts": len(v), "n_faces": n_faces, "h": h, "w": w},
            {"verts": v.astype(f32), "faces": f.astype(i32)})


def make_gat(n, avg_deg, feat_len=32, seed=4):
    rng = np.random.default_rng(seed)
    ptr, idx = power_law_csr(n, avg_deg, rng)
    arrays = {"ptr": ptr, "idx": idx,
              "x": rng.standard_normal((n, feat_len), dtype=f32),
              "weight": (rng.standard_normal((feat_len, feat_len), dtype=f32)
                         / f32(np.sqrt(feat_len))),
              "attn_l": rng.standard_normal(feat_len, dtype=f32) / f32(np.sqrt(feat_len)),
              "attn_r": rng.standard_normal(feat_len, dtype=f32) / f32(np.sqrt(feat_len))}
    return {"n": n, "nnz": len(idx), "feat_len": feat_len}, arrays


SIGMA = 1e-4
SLOPE = 0.1
W = 32
