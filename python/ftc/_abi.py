"""The description table of a library built by ftc (runtime/ft_abi.h) as
ctypes structures, and the facts about it the loader needs."""
import ctypes

ABI_VERSION = 3
MODULE_SYMBOL = "ft_module"

PARAM_SIZE, PARAM_TENSOR = 0, 1
ACCESS_NAMES = {0: "in", 1: "out", 2: "inout"}
IN, OUT, INOUT = 0, 1, 2
MTYPE_NAMES = {0: "cpu", 1: "gpu", 2: "gpu/shared", 3: "gpu/local"}

# FT_ABI_* dtype codes: their .ft names and NumPy dtype names
DTYPE_FT = {0: "bool", 1: "i32", 2: "i64", 3: "f16", 4: "f32", 5: "f64"}
DTYPE_NUMPY = {0: "bool", 1: "int32", 2: "int64", 3: "float16", 4: "float32", 5: "float64"}

# FT_ERR_* return codes
ERRORS = {
    1: "a size parameter was negative",
    2: "an assert failed",
    3: "an index was out of bounds",
    4: "out of memory",
    5: "no usable CUDA device",
    6: "a tensor parameter with elements was a NULL pointer",
}


class ParamDesc(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("access", ctypes.c_int), ("mtype", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape_text", ctypes.POINTER(ctypes.c_char_p)),
                ("layout", ctypes.c_char_p), ("lndim", ctypes.c_int),
                ("lshape_text", ctypes.POINTER(ctypes.c_char_p))]


CALL_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
SHAPES_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_int64),
                             ctypes.POINTER(ctypes.c_int64))


class FuncDesc(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("nparams", ctypes.c_int),
                ("params", ctypes.POINTER(ParamDesc)), ("call", CALL_FN),
                ("shapes", SHAPES_FN), ("logical_shapes", SHAPES_FN)]


class SiteDesc(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("where", ctypes.c_char_p), ("msg", ctypes.c_char_p),
                ("kinds", ctypes.c_int * 2)]


class ErrorRec(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("site", ctypes.c_int), ("v", ctypes.c_int64 * 2)]


LAST_ERROR_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ErrorRec), ctypes.c_char_p,
                                 ctypes.c_size_t)


class ModuleDesc(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_int), ("nfuncs", ctypes.c_int),
                ("funcs", ctypes.POINTER(FuncDesc)), ("nsites", ctypes.c_int),
                ("sites", ctypes.POINTER(SiteDesc)), ("last_error", LAST_ERROR_FN)]
