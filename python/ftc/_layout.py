"""Physical layouts ("NCHW->NCHW8c", lang/reference.md, "Layouts"): a
parameter declared with `layout "L->P"` takes its physical array; `pack`
makes it from the logical NumPy array (pad elements 0), `unpack` reads the
logical array back, the same mapping as runtime/layout.c."""
import re

import numpy as np


def _parse(layout, ndim):
    """[(logical dim, block size or 0)] in physical order, each logical
    dimension's block product, and each entry's divisor (the blocks of its
    dimension after it); ValueError naming the fault."""
    logical, arrow, phys = layout.partition("->")
    if not arrow or not re.fullmatch(r"[A-Z]+", logical) or len(set(logical)) != len(logical):
        raise ValueError(f"bad layout {layout!r}: expected 'LOGICAL->PHYSICAL' with distinct "
                         f"capitals, e.g. 'NCHW->NCHW8c'")
    if len(logical) != ndim:
        raise ValueError(f"layout {layout!r} names {len(logical)} dimensions, the array has {ndim}")
    items = []
    for num, low, cap, bad in re.findall(r"(\d+)([a-z])|([A-Z])|(.)", phys):
        letter = cap or low.upper()
        if bad or letter not in logical or (num and int(num) < 2):
            raise ValueError(f"bad layout {layout!r} at {bad or num + low or cap!r}")
        items.append((logical.index(letter), int(num) if num else 0))
    outer = sorted(d for d, b in items if not b)
    if outer != list(range(ndim)):
        raise ValueError(f"bad layout {layout!r}: each capital once in the physical order")
    blocks = [int(np.prod([b for e, b in items if e == d and b])) for d in range(ndim)]
    inner = [int(np.prod([b for e, b in items[k + 1:] if e == d and b])) if b else blocks[d]
             for k, (d, b) in enumerate(items)]
    return items, blocks, inner


def _index(layout, shape):
    """The physical index of every logical element (sparse, for fancy
    indexing) and the physical shape."""
    items, blocks, inner = _parse(layout, len(shape))
    idx = np.indices(shape, sparse=True)
    where = tuple(idx[d] // inner[k] % b if b else idx[d] // inner[k]
                  for k, (d, b) in enumerate(items))
    pshape = tuple(b if b else -(-shape[d] // blocks[d]) for d, b in items)
    return where, pshape


def physical_shape(layout, shape):
    """The shape of the physical array of a logical shape."""
    return _index(layout, tuple(shape))[1]


def zeros(shape, dtype):
    """A zero-filled C-order array whose data starts on a 64-byte boundary
    (a cache line: ftc's vector loads of a row never straddle two lines;
    NumPy's 16-byte default made the same kernel up to 40% slower,
    depending on where the array fell)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    buf = np.zeros(n + 64, dtype=np.uint8)
    skip = -buf.ctypes.data % 64
    return buf[skip:skip + n].view(dtype).reshape(shape)


def aligned(a):
    """a itself when C-contiguous and 64-byte aligned, else such a copy."""
    a = np.asarray(a)
    if a.flags.c_contiguous and a.ctypes.data % 64 == 0:
        return a
    b = zeros(a.shape, a.dtype)
    b[...] = a
    return b


def pack(a, layout):
    """The physical array of logical array a under layout (pads 0)."""
    a = np.asarray(a)
    where, pshape = _index(layout, a.shape)
    p = zeros(pshape, a.dtype)
    p[where] = a
    return p


def unpack(p, layout, shape):
    """The logical array of the given shape stored as physical array p."""
    where, pshape = _index(layout, tuple(shape))
    if tuple(p.shape) != pshape:
        raise ValueError(f"unpack: layout {layout!r} stores shape {list(shape)} as "
                         f"{list(pshape)}, given {list(p.shape)}")
    return np.ascontiguousarray(np.asarray(p)[where])
