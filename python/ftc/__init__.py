"""ftc from Python: call the functions of a library built by ftc with NumPy
arrays or torch tensors, and compile .ft programs with a cache.

    import ftc
    lib = ftc.compile("prog.ft")          # or ftc.load("libprog.so")
    y = lib.f(x=x)                        # sizes inferred, y allocated

Every argument is checked against the library's description table
(runtime/ft_abi.h) before the call: dtype, number of dimensions, shape (the
program's shape expressions evaluated by the library), row-major
contiguity and memory (`@ gpu` parameters take CUDA tensors).  A wrong one
raises TypeError or ValueError naming the parameter; a failed run-time
check of the program raises ftc.RuntimeError with its source location.

Pure Python over ctypes and NumPy; PyTorch is optional (ftc.torch).
"""
import builtins
import ctypes
import os

import numpy as np

from . import _abi
from ._compile import CompileError, compile, default_cache_dir, find_ftc  # noqa: F401
from ._layout import aligned, pack, physical_shape, unpack, zeros  # noqa: F401

__all__ = ["load", "compile", "Library", "Function", "Prepared", "RuntimeError", "CompileError",
           "default_cache_dir", "find_ftc", "pack", "unpack", "physical_shape", "zeros", "aligned"]


class RuntimeError(builtins.RuntimeError):
    """A call that returned a non-zero code: code (FT_ERR_*), where
    ("prog.ft:3:9", or None) and the message the library formatted."""

    def __init__(self, func, code, message, where):
        super().__init__(f"{func}: {message}")
        self.code, self.where, self.func = code, where, func


# ------------------------------------------------------------ array kinds

def _torch_module(x):
    """torch, when x is a torch tensor (without importing torch otherwise)."""
    if type(x).__module__.split(".")[0] == "torch" and hasattr(x, "data_ptr"):
        import torch
        return torch
    return None


# dtype -> its name, faster than dtype.name on every call
_NUMPY_NAMES = {np.dtype(n): n for n in _abi.DTYPE_NUMPY.values()}


class _Arg:
    """A tensor argument as the checks see it."""
    __slots__ = ("obj", "kind", "dtype", "shape", "contiguous", "cuda", "ptr")

    def __init__(self, obj):
        torch = _torch_module(obj)
        if torch is not None:
            self.kind = "torch"
            self.dtype = str(obj.dtype).replace("torch.", "")
            self.shape = tuple(obj.shape)
            self.contiguous = obj.is_contiguous()
            self.cuda = obj.device.type == "cuda"
            self.ptr = obj.data_ptr()
        else:
            if not isinstance(obj, np.ndarray):
                obj = np.from_dlpack(obj) if hasattr(obj, "__dlpack__") else obj
            self.kind = "numpy"
            self.dtype = _NUMPY_NAMES.get(obj.dtype) or obj.dtype.name
            self.shape = obj.shape
            self.contiguous = obj.flags.c_contiguous
            self.cuda = False
            self.ptr = obj.__array_interface__["data"][0]
        self.obj = obj


def _is_array(x):
    return isinstance(x, np.ndarray) or _torch_module(x) is not None or hasattr(x, "__dlpack__")


# --------------------------------------------------------------- functions

class _Param:
    """One parameter of the description table, in Python terms."""
    __slots__ = ("name", "is_size", "dtype", "access", "mtype", "ndim", "shape_text", "decl")

    def __init__(self, d):
        self.name = d.name.decode()
        self.is_size = d.kind == _abi.PARAM_SIZE
        self.dtype = _abi.DTYPE_NUMPY[d.dtype]
        self.access = d.access
        self.mtype = d.mtype
        self.ndim = d.ndim
        self.shape_text = [d.shape_text[k].decode() for k in range(d.ndim)]
        if self.is_size:
            self.decl = f"{self.name}: size"
        else:
            dims = f"[{', '.join(self.shape_text)}]" if self.ndim else ""
            mt = f" @ {_abi.MTYPE_NAMES[d.mtype]}" if d.mtype else ""
            self.decl = (f"{self.name}: {_abi.DTYPE_FT[d.dtype]}{dims} "
                         f"{_abi.ACCESS_NAMES[d.access]}{mt}")
            if d.layout:     # the array passed is the physical one (ABI 3)
                logical = ", ".join(d.lshape_text[k].decode() for k in range(d.lndim))
                self.decl += f" (layout {d.layout.decode()} of [{logical}])"


class Function:
    """One exported function of a library: call it with keyword arguments
    (or positional ones, in the parameters' order).  Sizes not given are
    inferred from a tensor dimension that is exactly the size's name;
    `out` tensors not given are allocated (zero-filled) and returned with
    the `inout` ones: one value, a tuple of several, or None.  Outputs are
    torch tensors when any tensor argument is one, else NumPy arrays."""

    def __init__(self, lib, desc):
        self._lib = lib
        self.name = desc.name.decode()
        self._call = desc.call
        self._shapes = desc.shapes
        self.params = [_Param(desc.params[k]) for k in range(desc.nparams)]
        self._sizes = [p for p in self.params if p.is_size]
        self._tensors = [p for p in self.params if not p.is_size]
        self._ndims = sum(p.ndim for p in self._tensors)
        self.__doc__ = f"{self.name}({', '.join(p.decl for p in self.params)})"
        self.__name__ = self.name

    def __repr__(self):
        return f"<ftc function {self.__doc__}>"

    def _bind(self, args, kwargs):
        """The arguments by parameter name."""
        if len(args) > len(self.params):
            raise TypeError(f"{self.name}() takes {len(self.params)} arguments, "
                            f"{len(args)} given: {self.__doc__}")
        got = {p.name: a for p, a in zip(self.params, args)}
        for k, v in kwargs.items():
            if k not in got and any(p.name == k for p in self.params):
                got[k] = v
            elif k in got:
                raise TypeError(f"{self.name}() got two values for '{k}'")
            else:
                raise TypeError(f"{self.name}() has no parameter '{k}': {self.__doc__}")
        return got

    def _check_tensor(self, p, x):
        """x as an _Arg for tensor parameter p, checked (dims later)."""
        if not _is_array(x):
            if p.ndim == 0 and p.access == _abi.IN and isinstance(x, (bool, int, float, np.generic)):
                x = np.asarray(x, dtype=p.dtype)
            else:
                raise TypeError(f"{self.name}(): parameter {p.decl} takes an array or a "
                                f"tensor, given {type(x).__name__}")
        a = _Arg(x)
        where = f"{self.name}(): parameter {p.decl}"
        if a.dtype != p.dtype:
            raise TypeError(f"{where}: expected dtype {p.dtype}, given {a.dtype}")
        if len(a.shape) != p.ndim:
            raise ValueError(f"{where}: expected {p.ndim} dimension{'s' * (p.ndim != 1)}, "
                             f"given {len(a.shape)} (shape {list(a.shape)})")
        if not a.contiguous:
            raise ValueError(f"{where}: must be contiguous (row-major); given a strided "
                             f"view (use .copy() or .contiguous())")
        if p.mtype and not a.cuda:
            raise ValueError(f"{where}: is in GPU memory: expected a CUDA tensor, given "
                             f"{'a CPU tensor' if a.kind == 'torch' else 'a NumPy array'}")
        if not p.mtype and a.cuda:
            raise ValueError(f"{where}: is in CPU memory: given a CUDA tensor (use .cpu())")
        return a

    def _size_values(self, got, arrays):
        """The value of every size parameter: given, or inferred."""
        sizes = {}
        for p in self._sizes:
            v = got.get(p.name)
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{self.name}(): size '{p.name}' takes an int, given "
                                f"{type(v).__name__}")
            if v < 0:
                raise ValueError(f"{self.name}(): size '{p.name}' is {v}; sizes are >= 0")
            sizes[p.name] = int(v)
        for p in self._sizes:
            if p.name in sizes:
                continue
            src = None
            for t in self._tensors:
                a = arrays.get(t.name)
                if a is None:
                    continue
                for k, text in enumerate(t.shape_text):
                    if text != p.name:
                        continue
                    if p.name in sizes and sizes[p.name] != a.shape[k]:
                        raise ValueError(f"{self.name}(): size '{p.name}' is {sizes[p.name]} "
                                         f"from '{src}' but {a.shape[k]} from '{t.name}'")
                    sizes[p.name], src = a.shape[k], t.name
            if p.name not in sizes:
                raise TypeError(f"{self.name}(): size '{p.name}' was not given and no given "
                                f"tensor has a dimension that is exactly '{p.name}'")
        return sizes

    def _dims(self, sizes):
        """Every tensor parameter's shape, evaluated by the library."""
        sv = (ctypes.c_int64 * max(1, len(self._sizes)))(*[sizes[p.name] for p in self._sizes])
        dv = (ctypes.c_int64 * max(1, self._ndims))()
        self._shapes(sv, dv)
        out, k = {}, 0
        for p in self._tensors:
            out[p.name] = tuple(dv[k:k + p.ndim])
            k += p.ndim
        return out

    def _alloc(self, p, shape, like):
        """A zero-filled output for p: a torch tensor (on the GPU for
        `@ gpu`) when like is torch, else a NumPy array."""
        if like == "torch":
            import torch
            device = "cuda" if p.mtype else "cpu"
            return torch.zeros(shape, dtype=getattr(torch, p.dtype), device=device)
        return zeros(shape, p.dtype)

    def __call__(self, *args, **kwargs):
        """Check the arguments, call, return the outputs."""
        p = self.prepare(*args, **kwargs)
        p()
        outs = list(p.outputs.values())
        return None if not outs else outs[0] if len(outs) == 1 else tuple(outs)

    def prepare(self, *args, **kwargs):
        """Check the arguments as a call does and allocate the outputs not
        given, once; the Prepared call runs the function on those arrays
        with no further checks (a timing loop), its .outputs holds them."""
        got = self._bind(args, kwargs)
        arrays = {}
        for p in self._tensors:
            x = got.get(p.name)
            if x is not None:
                arrays[p.name] = self._check_tensor(p, x)
            elif p.access != _abi.OUT:
                raise TypeError(f"{self.name}(): missing argument {p.decl}")
        sizes = self._size_values(got, arrays)
        dims = self._dims(sizes)
        like = "torch" if any(a.kind == "torch" for a in arrays.values()) else "numpy"
        for p in self._tensors:
            want = dims[p.name]
            if any(d < 0 for d in want):
                raise ValueError(f"{self.name}(): parameter {p.decl}: its shape is "
                                 f"{list(want)} with {self._sizes_text(sizes)}")
            a = arrays.get(p.name)
            if a is None:
                arrays[p.name] = _Arg(self._alloc(p, want, like))
            elif tuple(a.shape) != want:
                raise ValueError(f"{self.name}(): parameter {p.decl}: expected shape "
                                 f"{list(want)} ({self._sizes_text(sizes)}), given "
                                 f"{list(a.shape)}")
        return Prepared(self, sizes, arrays)

    def _sizes_text(self, sizes):
        return ", ".join(f"{k}={v}" for k, v in sizes.items()) or "no sizes"


class Prepared:
    """A call of a function with its arguments checked and bound (from
    Function.prepare): calling it runs the function again on the same
    arrays; .outputs maps each out and inout parameter to its array.  A
    non-zero code raises ftc.RuntimeError."""

    def __init__(self, fn, sizes, arrays):
        self.function = fn
        self.outputs = {p.name: arrays[p.name].obj for p in fn._tensors if p.access != _abi.IN}
        self._arrays = arrays                   # keeps the objects alive
        self._holders = [ctypes.c_int64(sizes[p.name]) for p in fn._sizes]
        self._argv = (ctypes.c_void_p * max(1, len(fn.params)))()
        hs = iter(self._holders)
        for k, p in enumerate(fn.params):
            self._argv[k] = ctypes.addressof(next(hs)) if p.is_size else arrays[p.name].ptr

    def __call__(self):
        code = self.function._call(self._argv)
        if code:
            raise self.function._lib._error(self.function.name, code)


class Library:
    """A library built by ftc, loaded: one Function attribute per exported
    function (also lib["name"]); a gradient g also offers g.fwd and g.bwd
    (its forward half, which returns the tape last, and its backward half,
    which takes it)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        try:
            self._dll = ctypes.CDLL(self.path)
        except OSError as e:
            raise OSError(f"cannot load '{path}': {e}") from None
        try:
            mod = _abi.ModuleDesc.in_dll(self._dll, _abi.MODULE_SYMBOL)
        except ValueError:
            raise ValueError(f"'{path}' is not a library built by ftc (no "
                             f"{_abi.MODULE_SYMBOL} symbol)") from None
        if mod.abi_version != _abi.ABI_VERSION:
            raise ValueError(f"'{path}' has description table version {mod.abi_version}; "
                             f"this package reads version {_abi.ABI_VERSION} (rebuild it)")
        self._mod = mod
        self._sites = [(mod.sites[i].where.decode() if mod.sites[i].where else None)
                       for i in range(mod.nsites)]
        self.functions = {}
        for i in range(mod.nfuncs):
            f = Function(self, mod.funcs[i])
            self.functions[f.name] = f
        for name, f in self.functions.items():
            if name + "_fwd" in self.functions and name + "_bwd" in self.functions:
                f.fwd, f.bwd = self.functions[name + "_fwd"], self.functions[name + "_bwd"]

    def __getattr__(self, name):
        fs = self.__dict__.get("functions", {})
        if name in fs:
            return fs[name]
        raise AttributeError(f"'{os.path.basename(self.__dict__.get('path', '?'))}' exports "
                             f"no function '{name}' (it has: {', '.join(fs) or 'none'})")

    def __getitem__(self, name):
        return getattr(self, name)

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions)

    def _error(self, func, code):
        """The ftc.RuntimeError of a call that returned code."""
        rec = _abi.ErrorRec()
        buf = ctypes.create_string_buffer(1024)
        self._mod.last_error(ctypes.byref(rec), buf, len(buf))
        msg = buf.value.decode(errors="replace") or _abi.ERRORS.get(code, f"error {code}")
        where = self._sites[rec.site] if 0 <= rec.site < len(self._sites) else None
        return RuntimeError(func, code, msg, where)


def load(path):
    """The library at path (built by `ftc build`), its functions checked
    callables."""
    return Library(path)
