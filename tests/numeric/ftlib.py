"""A library built by `ftc build`, called from Python through ctypes.

The library's description table (`ft_module`, runtime/ft_abi.h) names every
exported function's parameters with their kind, dtype, access and shape, so
any function can be called with NumPy arrays without a per-function
signature: `Library(path).func(name)(n=4, x=array, ...)`.  The number of
OpenMP threads of the calls is set in this process with libgomp's
`omp_set_num_threads` (`set_threads`), so that one built library is called
with 1, 2 and 4 threads without rebuilding it (the thread-differential
checks of tests/numeric/ and the gradient fuzzer, tests/grad_fuzz/).
"""
import ctypes
import os

import numpy as np

# ft_abi.h's codes.
PARAM_SIZE, PARAM_TENSOR = 0, 1
IN, OUT, INOUT = 0, 1, 2
DTYPES = {0: np.bool_, 1: np.int32, 2: np.int64, 3: np.float16, 4: np.float32, 5: np.float64}
ABI_VERSION = 3   # runtime/ft_abi.h FT_ABI_VERSION


class _Param(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("access", ctypes.c_int), ("mtype", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape_text", ctypes.POINTER(ctypes.c_char_p)),
                ("layout", ctypes.c_char_p), ("lndim", ctypes.c_int),
                ("lshape_text", ctypes.POINTER(ctypes.c_char_p))]


_CALL = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
_SHAPES = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64))


class _Func(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("nparams", ctypes.c_int),
                ("params", ctypes.POINTER(_Param)), ("call", _CALL), ("shapes", _SHAPES), ("logical_shapes", _SHAPES)]


class _Module(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_int), ("nfuncs", ctypes.c_int),
                ("funcs", ctypes.POINTER(_Func))]


_GOMP = None


def _gomp():
    """libgomp, loaded for good (RTLD_GLOBAL) before any kernel library, as
    runtime/loader.c pins it: its idle worker threads must outlive every
    library."""
    global _GOMP                                # noqa: PLW0603 (one per process, by nature)
    if _GOMP is None:
        _GOMP = ctypes.CDLL("libgomp.so.1", mode=ctypes.RTLD_GLOBAL)
    return _GOMP


def set_threads(n):
    """The number of OpenMP threads of the next calls (omp_set_num_threads)."""
    _gomp().omp_set_num_threads(int(n))


class Param:
    """One parameter: name, kind (PARAM_SIZE/PARAM_TENSOR), NumPy dtype,
    access (IN/OUT/INOUT), ndim and the shape's text."""

    def __init__(self, p):
        self.name = p.name.decode()
        self.kind, self.access, self.ndim = p.kind, p.access, p.ndim
        self.dtype = np.dtype(DTYPES[p.dtype])
        self.shape_text = [p.shape_text[d].decode() for d in range(p.ndim)]
        self.layout = p.layout.decode() if p.layout else None   # "NCHW->NCHW8c"
        self.lshape_text = [p.lshape_text[d].decode() for d in range(p.lndim)]

    @property
    def is_tensor(self):
        return self.kind == PARAM_TENSOR

    @property
    def written(self):
        """An out or inout tensor."""
        return self.is_tensor and self.access != IN


class Func:
    """An exported function of a Library: its parameters, their shapes for
    given sizes, and a call with keyword arguments."""

    def __init__(self, desc):
        self._desc = desc
        self.name = desc.name.decode()
        self.params = [Param(desc.params[k]) for k in range(desc.nparams)]

    def param(self, name):
        """The parameter NAME (a KeyError when there is none)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name}")

    def shapes(self, sizes, logical=False):
        """{tensor name: shape} for SIZES ({size name: int}), evaluated by
        the library's own shape function: the physical shapes (as passed),
        or the logical ones of laid-out parameters."""
        vals = (ctypes.c_int64 * max(1, len(self.params)))(
            *[int(sizes[p.name]) for p in self.params if not p.is_tensor])
        nd = [len(p.lshape_text) if logical else p.ndim for p in self.params]
        dims = (ctypes.c_int64 * max(1, sum(n for p, n in zip(self.params, nd)
                                            if p.is_tensor)))()
        (self._desc.logical_shapes if logical else self._desc.shapes)(vals, dims)
        out, at = {}, 0
        for p, n in zip(self.params, nd):
            if p.is_tensor:
                out[p.name] = tuple(dims[at:at + n])
                at += n
        return out

    def __call__(self, **args):
        """Call with every parameter given by name (sizes as ints, tensors
        as C-contiguous arrays of the declared dtype and shape, which is
        checked); returns the function's code (0 = FT_OK)."""
        sizes = {p.name: int(args[p.name]) for p in self.params if not p.is_tensor}
        shapes = self.shapes(sizes)
        ptrs = (ctypes.c_void_p * max(1, len(self.params)))()
        keep = []
        for k, p in enumerate(self.params):
            v = args[p.name]
            if not p.is_tensor:
                c = ctypes.c_int64(int(v))
                keep.append(c)
                ptrs[k] = ctypes.cast(ctypes.pointer(c), ctypes.c_void_p)
                continue
            if not isinstance(v, np.ndarray) or v.dtype != p.dtype or \
                    v.shape != shapes[p.name] or not v.flags.c_contiguous or \
                    (p.access != IN and not v.flags.writeable):
                raise ValueError(f"{self.name}: argument {p.name} must be a C-contiguous "
                                 f"{p.dtype}{list(shapes[p.name])} array")
            ptrs[k] = v.ctypes.data
        return self._desc.call(ptrs)


class Library:
    """A library built by `ftc build`, opened with ctypes; its functions by
    name (`func`)."""

    def __init__(self, path):
        _gomp()
        self.path = os.path.abspath(path)
        self._dll = ctypes.CDLL(self.path)
        mod = _Module.in_dll(self._dll, "ft_module")
        if mod.abi_version != ABI_VERSION:
            raise ValueError(f"{path}: description ABI {mod.abi_version}, "
                             f"this loader reads {ABI_VERSION}")
        self.funcs = {}
        for i in range(mod.nfuncs):
            f = Func(mod.funcs[i])
            self.funcs[f.name] = f

    def func(self, name):
        """The exported function NAME (a KeyError naming those there are)."""
        if name not in self.funcs:
            raise KeyError(f"{self.path} has no function {name} "
                           f"(it has {', '.join(sorted(self.funcs))})")
        return self.funcs[name]
