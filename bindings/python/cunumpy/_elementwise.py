"""Elementwise functions composed from the ufuncs: comparisons with
tolerance (isclose, allclose, array_equal), nan_to_num, isposinf/isneginf,
fix, degree/radian conversion, fabs, sinc, float_power, divmod, modf,
real, imag, real_if_close. Each follows NumPy 2.4 (result dtypes, exception types) and
runs where its inputs live.
"""

import math as _math

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _out, _ret, _WEAK
from ._numerictypes import (_is_inexact, _K_BOOL, _K_COMPLEX, _K_FLOAT, _K_INT,
                            _K_UINT, _kind, result_type)
from ._reduce import all
from ._ufunc import (abs, copysign, equal, floor_divide, isfinite, isinf,
                     isnan, logical_and, logical_not, multiply, power,
                     remainder, signbit, sin, trunc, ufunc)
from ._shape import broadcast_shapes
from ._index import where

__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "nan_to_num",
           "isposinf", "isneginf", "fix", "deg2rad", "rad2deg", "radians",
           "degrees", "fabs", "sinc", "float_power", "divmod", "modf",
           "real", "imag", "angle", "real_if_close"]


def _float_result(x, name):
    """x as the floating dtype NumPy's float-only ufuncs compute in (a
    float16 for 8-bit and bool inputs, float32 for 16-bit, float64 for
    wider ones); TypeError for complex."""
    x = asarray(x)
    k = _kind(x)
    if k == _K_COMPLEX:
        raise TypeError(f"ufunc '{name}' not supported for the input types, "
                        f"and the inputs could not be safely coerced to any "
                        f"supported types according to the casting rule "
                        f"''safe''")
    if k == _K_FLOAT:
        return x
    code = (_lib.CN_FLOAT16 if x.itemsize == 1 else
            _lib.CN_FLOAT32 if x.itemsize == 2 else _lib.CN_FLOAT64)
    return _lib.cn_astype(x, code, 0)


def _make_complex(re, im, code):
    """The complex array re + i*im (both real) with every real/imag pair
    exact, inf and NaN included (no 0*inf from a multiplication by 1j)."""
    zre = _lib.cn_astype(re, code, 1)
    fin = isfinite(im)
    imf = where(fin, im, 0)
    z = zre + _lib.cn_astype(imf, code, 0) * 1j
    for val in (_math.inf, -_math.inf, _math.nan):
        sel = isnan(im) if val != val else equal(im, val)
        z = where(sel, zre + complex(0.0, val), z)
    return z


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Elementwise ``abs(a - b) <= atol + rtol * abs(b)`` (NumPy's
    isclose)."""
    x = a if type(a) in _WEAK else asarray(a)
    y = b if type(b) in _WEAK else asarray(b)
    atol = atol if type(atol) in _WEAK else asarray(atol)
    rtol = rtol if type(rtol) in _WEAK else asarray(rtol)
    if isinstance(y, ndarray):
        y = _lib.cn_astype(y, result_type(y, 1.0), 0)
    elif isinstance(y, int):
        y = float(y)
    xa = asarray(x)
    result = (abs(xa - y) <= atol + rtol * abs(y)) & isfinite(y) | (xa == y)
    if equal_nan:
        result = result | (isnan(xa) & isnan(y))
    return result


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """True when isclose holds for every element."""
    return bool(all(isclose(a, b, rtol=rtol, atol=atol,
                            equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have the same shape and elements."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or not (_is_inexact(a1) or _is_inexact(a2)):
        return bool(all(a1 == a2))
    n1, n2 = isnan(a1), isnan(a2)
    if not bool(all(n1 == n2)):
        return False
    return bool(all((a1 == a2) | n1))


def array_equiv(a1, a2):
    """True when a1 and a2 broadcast to one shape and are equal there."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:
        return False
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(all(a1 == a2))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default: the largest finite value),
    -inf -> neginf; complex values are fixed part by part."""
    xa = asarray(x)
    if not _is_inexact(xa):
        return _lib.cn_copy(xa, "K") if copy else xa

    def fix(r):
        big = _np.finfo(r.dtype).max
        hi = big if posinf is None else posinf
        lo = -big if neginf is None else neginf
        res = where(isnan(r), nan, r)
        res = where(equal(r, _math.inf), hi, res)
        return where(equal(r, -_math.inf), lo, res)

    if _kind(xa) == _K_COMPLEX:
        re, im = fix(xa.real), fix(xa.imag)
        ok = isfinite(xa.real) & isfinite(xa.imag)
        res = where(ok, xa, _make_complex(re, im, xa._dtype_code))
    else:
        res = _lib.cn_astype(fix(xa), xa._dtype_code, 0)
    if not copy and isinstance(x, ndarray):
        _lib.cn_assign(x, res)
        return x
    return res


def _signed_inf(x, negative, out):
    x = asarray(x)
    if _kind(x) == _K_COMPLEX:
        raise TypeError(f"This operation is not supported for {x.dtype} "
                        f"values because it would be ambiguous.")
    sb = signbit(x)
    return _ret(logical_and(isinf(x), sb if negative else logical_not(sb),
                            out), out)


def isposinf(x, out=None):
    """True where x is +inf."""
    return _signed_inf(x, False, out)


def isneginf(x, out=None):
    """True where x is -inf."""
    return _signed_inf(x, True, out)


def fix(x, out=None):
    """Rounds toward zero (keeps integer dtypes)."""
    x = asarray(x)
    k = _kind(x)
    if k == _K_COMPLEX:
        raise TypeError("ufunc 'floor' not supported for the input types, "
                        "and the inputs could not be safely coerced to any "
                        "supported types according to the casting rule "
                        "''safe''")
    if k in (_K_INT, _K_UINT, _K_BOOL):
        return _out(_lib.cn_copy(x, "K"), out)
    return _ret(trunc(x, out), out)


def deg2rad(x, out=None):
    """Degrees to radians."""
    x = _float_result(x, "deg2rad")
    return _ret(multiply(x, _math.pi / 180.0, out), out)


def rad2deg(x, out=None):
    """Radians to degrees."""
    x = _float_result(x, "rad2deg")
    return _ret(multiply(x, 180.0 / _math.pi, out), out)


radians = deg2rad

degrees = rad2deg


def fabs(x, out=None):
    """Absolute value of real x, as floats."""
    return _ret(abs(_float_result(x, "fabs"), out), out)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _math.pi * asarray(x)
    # NumPy's zero guard: the dtype's eps for floats (1e-20 would round to
    # 0 in float16), 1e-20 otherwise
    eps = _np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1.0e-20
    y = where(equal(x, 0), eps, x)
    return sin(y) / y


def float_power(x1, x2, out=None):
    """x1 ** x2 in float64 (complex128 for complex inputs)."""
    a, b = asarray(x1), asarray(x2)
    cplx = _K_COMPLEX in (_kind(a), _kind(b))
    code = _lib.CN_COMPLEX128 if cplx else _lib.CN_FLOAT64
    return _ret(power(_lib.cn_astype(a, code, 0), _lib.cn_astype(b, code, 0),
                      out), out)


def divmod(x1, x2, out1=None, out2=None, *, out=(None, None)):
    """(x1 // x2, x1 % x2)."""
    if out != (None, None):
        out1, out2 = out
    return (_ret(floor_divide(x1, x2, out1), out1),
            _ret(remainder(x1, x2, out2), out2))


def modf(x, out1=None, out2=None, *, out=(None, None)):
    """(fractional part, integral part), both with x's sign."""
    if out != (None, None):
        out1, out2 = out
    x = _float_result(x, "modf")
    ip = trunc(x)
    frac = copysign(where(isinf(x), 0.0, x - ip), x)
    return _out(frac, out1), _out(ip, out2)


def _has_parts(val):
    """Whether val carries its own real/imag attributes (arrays, lazy
    expressions, Python and NumPy scalars), which NumPy's real and imag
    return as they are; NumPy arrays and sequences become arrays first."""
    return not isinstance(val, _np.ndarray) and hasattr(val, "imag")


def real(val):
    """The real part, as NumPy's function (not a ufunc): a writable view of
    a complex array, a real array itself, a scalar's own real part."""
    return val.real if _has_parts(val) else asarray(val).real


def imag(val):
    """The imaginary part, as NumPy's function: a view of a complex array,
    read-only zeros of the dtype for a real array, a scalar's own part."""
    return val.imag if _has_parts(val) else asarray(val).imag


def angle(z, deg=False):
    """The counterclockwise angle from the positive real axis, in radians
    (degrees with deg), as NumPy's function: the engine's angle op, except
    that bool input takes NumPy's route, arctan2(0, z), to float64."""
    from ._ufunc import UFUNCS, arctan2
    z = z if isinstance(z, ndarray) else asarray(z)
    a = arctan2(0, z) if z.dtype == _np.bool_ else UFUNCS["angle"](z)
    return a * (180.0 / _math.pi) if deg else a


def real_if_close(a, tol=100):
    """a's real part when a is complex with every imaginary part within
    tol machine epsilons of zero, else a."""
    a = asarray(a)
    if _kind(a) != _K_COMPLEX:
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(all(abs(a.imag) < tol)):
        a = a.real
    return a


# The composed functions NumPy has as single-output ufuncs are ufunc objects
# here too, so their methods (reduce, accumulate, reduceat, outer, at) work.
deg2rad = ufunc("deg2rad", 1, deg2rad, deg2rad.__doc__)
rad2deg = ufunc("rad2deg", 1, rad2deg, rad2deg.__doc__)
radians, degrees = deg2rad, rad2deg
fabs = ufunc("fabs", 1, fabs, fabs.__doc__)
float_power = ufunc("float_power", 2, float_power, float_power.__doc__)
