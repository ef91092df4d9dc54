"""The ufunc objects of the engine's op table (include/cunumpy/ufunc.h) and the
elementwise functions that are one engine call (clip, round).

One ufunc instance per op of _cnlib._op_table() is bound into this module's
namespace under the op's name and under NumPy's and the Array API's other
spellings (absolute, conjugate, pow, asin, ...).
"""

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _assign_out, _WEAK
from ._reduce import _ACCUMULATORS, all, any, max, min, _REDUCERS

__all__ = ["ufunc", "UFUNCS", "clip", "round", "around"]


class ufunc(_lib.UfuncBase):
    """An elementwise op of the engine's op table (NumPy's ufunc). Calls
    with exactly nin positional arguments go from C straight to the op;
    keywords (out=, dtype=, where=) take the Python path (_call)."""

    def __init__(self, name, nin, fn, doc, op=None):
        self._op = op or name  # the op table's name (fusion's text)
        self._bind(fn, nin, self._op)
        self.__name__ = name
        self.nin = nin
        self.nout = 1
        self.nargs = nin + 1
        self._fn = fn
        self.__doc__ = doc

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _call(self, *args, out=None, dtype=None, casting="same_kind",
              where=True, order="K", subok=True, signature=None):
        nin = self.nin
        if len(args) != nin:
            if len(args) == nin + 1 and out is None:
                out = args[nin]
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to "
                                f"{nin + 1} positional arguments but "
                                f"{len(args)} were given")
        if type(out) is tuple:
            if len(out) != 1:
                raise ValueError("The 'out' tuple must have exactly one entry")
            out = out[0]
        if out is not None and not isinstance(out, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        if dtype is not None:
            args = tuple(a if type(a) in _WEAK else
                         _lib.cn_astype(a, dtype, 0) for a in args)
        if where is not True:
            res = self._fn(*args, None)
            if out is None:
                return res
            return _lib.cn_where(where, res, out, out)
        return self._fn(*args, out)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=None, where=True):
        """Reduction along axis (NumPy's ufunc.reduce) for the ops with a
        C reduction: add, multiply, minimum, maximum, logical_and,
        logical_or."""
        fn = _REDUCERS.get(self.__name__)
        if fn is None:
            raise NotImplementedError(f"{self.__name__}.reduce")
        if type(out) is tuple:
            out, = out
        kw = {}
        if initial is not None:
            if fn in (all, any):
                raise NotImplementedError(f"{self.__name__}.reduce with "
                                          f"initial=")
            kw["initial"] = initial
        if fn in (max, min, all, any):
            res = fn(array, axis=axis, keepdims=keepdims, where=where, **kw)
            if dtype is not None:
                res = _lib.cn_astype(res, dtype, 0)
            return res if out is None else _assign_out(out, res)
        return fn(array, axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                  where=where, **kw)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running reduction along axis (NumPy's ufunc.accumulate) for the
        ops with a C scan: add and multiply."""
        fn = _ACCUMULATORS.get(self.__name__)
        if fn is None:
            raise NotImplementedError(f"{self.__name__}.accumulate")
        if type(out) is tuple:
            out, = out
        array = asarray(array)
        if array.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        return fn(array, axis=axis, dtype=dtype, out=out)

    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary "
                             "functions")
        A, B = asarray(A), asarray(B)
        return self(_lib.cn_reshape(A, A.shape + (1,) * B.ndim, "C"), B,
                    **kwargs)


UFUNCS = {}

for _name, _nin, _loops, _outrule, _doc in _lib._op_table():
    UFUNCS[_name] = ufunc(_name, _nin, getattr(_lib, "cn_" + _name), _doc)

del _name, _nin, _loops, _outrule, _doc

# The special_* ops are scipy.special's: cunumpy.special binds them under
# their SciPy names; the NumPy namespace leaves them out.
_SPECIAL_PREFIX = "special_"
globals().update({n: u for n, u in UFUNCS.items()
                  if not n.startswith(_SPECIAL_PREFIX)})

# NumPy and Array API spellings of the same ops.
_ALIASES = {
    "absolute": "abs", "conjugate": "conj", "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert", "mod": "remainder",
    "true_divide": "divide", "pow": "power", "asin": "arcsin",
    "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
}

for _alias, _name in _ALIASES.items():
    if _name in UFUNCS:
        globals()[_alias] = UFUNCS[_name]

del _alias, _name
__all__ += [n for n in UFUNCS if not n.startswith(_SPECIAL_PREFIX)] + \
    [a for a, n in _ALIASES.items() if n in UFUNCS]


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kw):
    """Limits values to [a_min, a_max]; either bound may be None."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    if lo is None and hi is None:
        return asarray(a) if out is None else _assign_out(out, a)
    bound = hi if lo is None else lo
    if (lo is None or hi is None) and type(bound) is int:
        x = asarray(a)
        if x.dtype.kind in "iu":
            # The open side as a Python int beyond every integer dtype on
            # that side: the engine's clip then ignores a given bound that
            # is out of range on its own side too, as numpy.clip does.
            return _lib.cn_clip(x, -2**63 if lo is None else lo,
                                2**64 - 1 if hi is None else hi, out)
    if lo is None:
        return _lib.cn_minimum(a, hi, out)
    if hi is None:
        return _lib.cn_maximum(a, lo, out)
    return _lib.cn_clip(a, lo, hi, out)


def round(a, decimals=0, out=None):
    return _lib.cn_round(a, decimals, out)


around = round
