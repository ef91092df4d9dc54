"""dtypes: NumPy's dtype objects mapped onto the engine's cn_dtype codes.

cunumpy uses NumPy's dtype objects and scalar types (``cunumpy.float64 is
numpy.float64``), so dtypes compare equal across the two libraries. The
engine decides promotion (cn_result_type); this module only translates.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib

# code -> numpy.dtype, and numpy.dtype -> code, for every engine dtype, in
# the engine's promotion order.
CODES = []
DTYPE_OF = {}
CODE_OF = {}
for _i in range(_lib.CN_NUM_DTYPES):
    _code = _lib.cn_dtype_at(_i)
    _dt = _np.dtype(_lib.cn_dtype_name(_code))
    CODES.append(_code)
    DTYPE_OF[_code] = _dt
    CODE_OF[_dt] = _code
del _i, _code, _dt

# The C side caches dtype arguments it has resolved once (obj -> code).
CACHE = {}

KIND_NAMES = {
    _lib.CN_KIND_BOOL: "bool",
    _lib.CN_KIND_INT: "signed integer",
    _lib.CN_KIND_UINT: "unsigned integer",
    _lib.CN_KIND_FLOAT: "real floating",
    _lib.CN_KIND_COMPLEX: "complex floating",
}


def to_code(obj):
    """cn_dtype code of a dtype-like (NumPy dtype, type, string, array)."""
    if isinstance(obj, int) and obj in DTYPE_OF:
        return obj
    dtobj = getattr(obj, "dtype", None)
    if dtobj is not None and not isinstance(obj, (type, _np.dtype)):
        dt = _np.dtype(dtobj)
    else:
        try:
            dt = _np.dtype(obj)
        except TypeError as e:
            raise TypeError(f"data type {obj!r} not understood") from e
    code = CODE_OF.get(dt.newbyteorder("=") if dt.byteorder == ">" else dt)
    if code is None:
        raise TypeError(f"cunumpy does not support the dtype {dt}")
    try:
        CACHE[obj] = code
    except TypeError:
        pass  # unhashable: not cached
    return code


def dtype(obj):
    """numpy.dtype for a dtype-like, restricted to the engine's dtypes."""
    return DTYPE_OF[to_code(obj)]


def kind(code):
    return _lib.cn_dtype_get_kind(code)


_kind = kind  # for the functions whose Array API parameters are named kind


def default_float_dtype():
    """The default floating dtype (float64 on every backend)."""
    return DTYPE_OF[_lib.CN_FLOAT64]


def default_int_code():
    return _lib.CN_INT64


def isdtype(dtype, kind):
    """Array API isdtype: is ``dtype`` of ``kind`` (a dtype, a kind name
    or a tuple of them)?"""
    code = to_code(dtype)
    if isinstance(kind, tuple):
        return _builtins.any(isdtype(code, k) for k in kind)
    if isinstance(kind, str):
        k = KIND_NAMES[_kind(code)]
        if kind == "integral":
            return k in ("signed integer", "unsigned integer")
        if kind == "numeric":
            return k != "bool"
        if kind not in KIND_NAMES.values():
            raise ValueError(f"unknown dtype kind {kind!r}")
        return k == kind
    return code == to_code(kind)


class _Limits:
    """The Array API's finfo/iinfo object: bits, max, min (and for floats
    eps, smallest_normal) as Python ints and floats, dtype a dtype; every
    other attribute of numpy.finfo/iinfo (tiny, resolution, precision...)
    is numpy's."""

    def __init__(self, info, conv, names):
        self._info = info
        self.dtype = _np.dtype(info.dtype)
        self.bits = int(info.bits)
        for n in names:
            setattr(self, n, conv(getattr(info, n)))

    def __getattr__(self, name):
        return getattr(self.__dict__["_info"], name)

    def __repr__(self):
        return repr(self._info)


def finfo(type, /):  # noqa: A002  (the standard's parameter name)
    """Machine limits of a floating dtype (Array API finfo; numpy.finfo's
    extra attributes pass through)."""
    code = to_code(type)
    if _kind(code) not in (_lib.CN_KIND_FLOAT, _lib.CN_KIND_COMPLEX):
        raise ValueError(f"finfo: {DTYPE_OF[code]} is not a floating dtype")
    return _Limits(_np.finfo(DTYPE_OF[code]), float,
                   ("eps", "max", "min", "smallest_normal"))


def iinfo(type, /):  # noqa: A002
    """Machine limits of an integer dtype (Array API iinfo)."""
    code = to_code(type)
    if _kind(code) not in (_lib.CN_KIND_INT, _lib.CN_KIND_UINT):
        raise ValueError(f"iinfo: {DTYPE_OF[code]} is not an integer dtype")
    return _Limits(_np.iinfo(DTYPE_OF[code]), int, ("max", "min"))


_WEAK = (bool, int, float, complex)


def result_type(*arrays_and_dtypes):
    """Promotion of arrays, dtypes and Python scalars (weak, NEP 50), by the
    engine's table (cn_result_type_many / cn_result_type_scalar)."""
    codes = []
    scalars = []
    for x in arrays_and_dtypes:
        if type(x) in _WEAK:
            scalars.append(x)
        else:
            codes.append(to_code(x))
    if not codes:
        if not scalars:
            raise ValueError("at least one array or dtype is required")
        # Only Python scalars: their default dtypes, as NumPy.
        order = {bool: _lib.CN_BOOL, int: _lib.CN_INT64,
                 float: _lib.CN_FLOAT64, complex: _lib.CN_COMPLEX128}
        return DTYPE_OF[_lib.cn_result_type_many([order[type(s)]
                                                  for s in scalars])]
    code = _lib.cn_result_type_many(codes)
    for s in scalars:
        code = _lib.cn_result_type_scalar(code, s)
    return DTYPE_OF[code]


def can_cast(from_, to, casting="safe"):
    """Whether from_ (a dtype or an array) casts to ``to`` under the rule."""
    return bool(_lib.cn_can_cast(to_code(from_), to_code(to), casting))
