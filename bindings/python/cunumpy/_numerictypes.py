"""dtype questions of the namespace: result_type and can_cast (the engine's
promotion and casting tables, through _dtypes), promote_types, issubdtype,
common_type, the complex/real predicates and the dtype-kind helpers the
other modules share.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray
from ._convert import asarray, ones, _WEAK, zeros

__all__ = ["isscalar", "result_type", "can_cast", "iscomplexobj", "isrealobj",
           "iscomplex", "isreal", "promote_types", "issubdtype", "common_type",
           "min_scalar_type", "mintypecode"]


def isscalar(x):
    return _np.isscalar(x)


def result_type(*arrays_and_dtypes):
    return _dtypes.result_type(*arrays_and_dtypes)


def can_cast(from_, to, casting="safe"):
    if isinstance(from_, ndarray):
        from_ = from_._dtype_code
    return _dtypes.can_cast(from_, to, casting)


_K_BOOL, _K_INT, _K_UINT, _K_FLOAT, _K_COMPLEX = (
    _lib.CN_KIND_BOOL, _lib.CN_KIND_INT, _lib.CN_KIND_UINT,
    _lib.CN_KIND_FLOAT, _lib.CN_KIND_COMPLEX)


def _kind(a):
    return _dtypes.kind(a._dtype_code)


def _is_inexact(a):
    return _kind(a) in (_K_FLOAT, _K_COMPLEX)


def _dtype_kind(x):
    """Kind of x's dtype for arrays, NumPy arrays, scalars and sequences."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = _np.asarray(x).dtype
    return _np.dtype(dt).kind


def iscomplexobj(x):
    """Whether x's dtype is complex (whatever its values)."""
    return _dtype_kind(x) == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    """True where the imaginary part is nonzero."""
    ax = asarray(x)
    if _kind(ax) == _K_COMPLEX:
        return ax.imag != 0
    return zeros(ax.shape, bool)


def isreal(x):
    """True where the imaginary part is zero."""
    if type(x) in _WEAK:
        return x.imag == 0
    ax = asarray(x)
    if _kind(ax) == _K_COMPLEX:
        return ax.imag == 0
    return ones(ax.shape, bool)


def promote_types(type1, type2):
    """The smallest dtype both cast to safely."""
    return _dtypes.DTYPE_OF[_lib.cn_result_type(_dtypes.to_code(type1),
                                                _dtypes.to_code(type2))]


def issubdtype(arg1, arg2):
    # NumPy's own answer: the question is about NumPy's scalar-type
    # hierarchy (np.floating, np.number...), which the engine does not model.
    return _np.issubdtype(arg1, arg2)


def common_type(*arrays):
    """The inexact scalar type common to the arrays (integers count as
    float64)."""
    is_complex = False
    precision = 0
    for a in arrays:
        k = _dtype_kind(a)
        if k in "iub":
            if k == "b":
                raise TypeError("can't get common type for non-numeric "
                                "array")
            p = 8
        elif k in "fc":
            p = _np.dtype(a.dtype).itemsize // (2 if k == "c" else 1)
            is_complex = is_complex or k == "c"
        else:
            raise TypeError("can't get common type for non-numeric array")
        precision = _builtins.max(precision, p)
    table = {4: (_np.float32, _np.complex64), 8: (_np.float64,
                                                  _np.complex128),
             2: (_np.float16, _np.complex64)}
    if not arrays:
        return _np.float16
    return table[precision][1 if is_complex else 0]


def min_scalar_type(a):
    """The smallest dtype that holds a's value (a's dtype for arrays)."""
    if isinstance(a, ndarray) and a.ndim:
        return a.dtype
    if isinstance(a, ndarray):
        a = a.item()
    # NumPy's value-based answer, which may be a dtype the engine lacks
    # (float16), as NumPy returns it.
    return _np.min_scalar_type(a)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The type character of typeset that every type in typechars casts
    to safely."""
    typecodes = ((isinstance(t, str) and t) or
                 (t.dtype.char if isinstance(t, ndarray) else
                  _np.asarray(t).dtype.char) for t in typechars)
    intersection = {t for t in typecodes if t in typeset}
    if not intersection:
        return default
    if "F" in intersection and "d" in intersection:
        return "D"
    return _builtins.min(intersection, key="GDFgdf".index)
