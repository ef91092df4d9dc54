"""Sums, products and differences along an axis beyond the plain reductions:
cumulative_sum/prod, nancumsum/nancumprod, diff, ediff1d, gradient, unwrap,
convolve, correlate, interp, trapezoid.
"""

import builtins as _builtins
import math as _math

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray, zeros
from ._numerictypes import _is_inexact, _K_BOOL, _kind, result_type
from ._reduce import cumprod, cumsum
from ._ufunc import abs, equal, isnan, remainder
from ._shape import broadcast_to, ravel
from ._creation import full
from ._index import take, where
from ._sort import _any_complex, argsort
from ._manip import concatenate

__all__ = ["cumulative_sum", "cumulative_prod", "diff", "gradient", "convolve",
           "correlate", "interp", "trapezoid", "nancumsum", "nancumprod",
           "ediff1d", "unwrap"]


def _cumulative(fn, x, axis, dtype, include_initial, initial_value):
    x = asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be given for arrays with more than "
                             "one dimension")
        axis = 0
    res = fn(x, axis, dtype, None)
    if include_initial:
        shape = list(res.shape)
        shape[axis] = 1
        res = concatenate([full(shape, initial_value, res.dtype), res],
                          axis=axis)
    return res


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Array API cumulative_sum (cumsum with include_initial)."""
    return _cumulative(_lib.cn_cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(_lib.cn_cumprod, x, axis, dtype, include_initial, 1)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    if prepend is not None or append is not None:
        a = asarray(a)
        if a.ndim == 0:
            raise ValueError("diff requires input that is at least one "
                             "dimensional")
        ax = axis % a.ndim if -a.ndim <= axis < a.ndim else axis
        parts = []
        for v in (prepend, a, append):
            if v is None:
                continue
            v = asarray(v)
            if v.ndim == 0:
                shape = list(a.shape)
                shape[ax] = 1
                v = broadcast_to(v, tuple(shape))
            parts.append(v)
        a = concatenate(parts, axis=ax)
    return _lib.cn_diff(a, n, axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    axes = range(f.ndim) if axis is None else \
        (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    naxes = len(axes)
    n = len(varargs)
    if n not in (0, naxes) and not (n == 1 and _np.ndim(varargs[0]) == 0):
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    # Python scalars go as weak scalars: NumPy computes f32 / 0.5 in float32
    res = _lib.cn_gradient_axes(f, [d if type(d) in (bool, int, float, complex)
                                    else asarray(d) for d in varargs], axis,
                                int(edge_order))
    return res[0] if len(res) == 1 else res


_CONV_MODES = {"full": 0, "same": 1, "valid": 2}


def _conv_mode(mode):
    if mode not in _CONV_MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' "
                         f"(got {mode!r})")
    return _CONV_MODES[mode]


def convolve(a, v, mode="full"):
    return _lib.cn_convolve(a, v, _conv_mode(mode))


def correlate(a, v, mode="valid"):
    return _lib.cn_correlate(a, v, _conv_mode(mode))


def interp(x, xp, fp, left=None, right=None, period=None):
    if period is not None:
        # NumPy's algorithm: wrap into [0, period), sort, pad one period
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(float(period))
        x = asarray(x)
        xp = asarray(xp)
        fp = asarray(fp)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _lib.cn_astype(x, "float64", 0) % period
        xp = _lib.cn_astype(xp, "float64", 0) % period
        order = argsort(xp)
        xp = take(xp, order)
        fp = take(fp, order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
        left = right = None
    if _any_complex(fp) or isinstance(left, complex) or \
            isinstance(right, complex):
        # complex fp in C (NumPy's per-part formula); a complex left /
        # right replaces the values outside [xp[0], xp[-1]], as NumPy
        fp = asarray(fp)
        if _np.dtype(fp.dtype).kind != "c":
            fp = _lib.cn_astype(fp, "complex128", 0)
        res = _lib.cn_interp(x, xp, fp, None, None)
        if left is not None or right is not None:
            xs = _lib.cn_astype(asarray(x), "float64", 0)
            xpa = asarray(xp)
            if left is not None:
                res = where(xs < xpa[0], complex(left), res)
            if right is not None:
                res = where(xs > xpa[-1], complex(right), res)
        return res
    return _lib.cn_interp(x, xp, fp, left, right)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    return _lib.cn_trapezoid((y, x), float(dx), axis)


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero."""
    a = asarray(a)
    if _is_inexact(a):
        a = where(isnan(a), 0, a)
    return cumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    a = asarray(a)
    if _is_inexact(a):
        a = where(isnan(a), 1, a)
    return cumprod(a, axis=axis, dtype=dtype, out=out)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ary, with
    to_begin / to_end attached."""
    ary = ravel(asarray(ary))
    parts = []
    for what, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            parts.append(None)
            continue
        v = asarray(v)
        if not _dtypes.can_cast(v.dtype, ary.dtype, "same_kind"):
            raise TypeError(f"dtype of `{what}` must be compatible with "
                            f"input `ary` under the `same_kind` rule.")
        parts.append(_lib.cn_astype(ravel(v), ary._dtype_code, 0))
    if _kind(ary) == _K_BOOL:
        raise TypeError("numpy boolean subtract, the `-` operator, is not "
                        "supported, use the bitwise_xor, the `^` operator, "
                        "or the logical_xor function instead.")
    d = ary[1:] - ary[:-1]
    seq = [p for p in (parts[0], d, parts[1]) if p is not None]
    return concatenate(seq) if len(seq) > 1 else d


def unwrap(p, discont=None, axis=-1, *, period=2 * _math.pi):
    """p with jumps larger than discont replaced by their period
    complement along axis."""
    p = asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = result_type(dd, period)
    if _np.issubdtype(dtype, _np.integer):
        interval_high, rem = _builtins.divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = where(equal(ddmod, interval_low) & (dd > 0), interval_high,
                      ddmod)
    ph_correct = ddmod - dd
    ph_correct = where(abs(dd) < discont, 0, ph_correct)
    up = _lib.cn_astype(p, dtype, 1)
    up = _lib.cn_copy(up, "C")
    if up.size:
        up[slice1] = p[slice1] + cumsum(ph_correct, axis=axis)
    return up
