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
from ._shape import broadcast_to, moveaxis, ravel, reshape
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
    """NumPy's gradient: per axis a scalar spacing (cn_gradient) or 1-d
    coordinates (non-uniform second-order differences)."""
    f = asarray(f)
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = (axis,) if isinstance(axis, (int, _np.integer)) else \
            tuple(axis)
        for ax in axes:
            if not -N <= ax < N:
                raise _np.exceptions.AxisError(ax, N)
        axes = tuple(int(ax) % N for ax in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _np.ndim(varargs[0]) == 0:
        dx = [varargs[0]] * len(axes)
    elif n == len(axes):
        dx = []
        for i, d in enumerate(varargs):
            d = _np.asarray(d.get() if hasattr(d, "get") else d)
            if d.ndim == 0:
                dx.append(d[()])
                continue
            if d.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(d) != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length "
                                 "of the corresponding dimension")
            if d.dtype.kind in "iub":
                d = d.astype(_np.float64)
            step = _np.diff(d)
            dx.append(step[0] if step.size and (step == step[0]).all()
                      else step)
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    out = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a "
                             "numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        if _np.ndim(h) == 0 and _np.dtype(f.dtype).kind != "c" and \
                _np.isrealobj(h):
            out.append(_lib.cn_gradient(f, ax, float(h), edge_order))
        else:
            out.append(_gradient_axis(f, ax, h, edge_order))
    return out[0] if len(axes) == 1 else tuple(out)


def _gradient_axis(f, axis, h, edge_order):
    """One axis of gradient in NumPy's formulas (h scalar or the n - 1
    coordinate steps), complex f or h included."""
    if _np.dtype(f.dtype).kind in "iub":
        f = _lib.cn_astype(f, "float64", 0)
    g = moveaxis(f, axis, 0)
    cshape = (-1,) + (1,) * (g.ndim - 1)
    uniform = _np.ndim(h) == 0

    def coef(v):
        return asarray(v) if _np.ndim(v) == 0 else \
            reshape(asarray(_np.ascontiguousarray(v)), cshape)

    if uniform:
        inner = (g[2:] - g[:-2]) / (2.0 * h)
    else:
        d1, d2 = h[:-1], h[1:]
        a = -d2 / (d1 * (d1 + d2))
        b = (d2 - d1) / (d1 * d2)
        c = d1 / (d2 * (d1 + d2))
        inner = coef(a) * g[:-2] + coef(b) * g[1:-1] + coef(c) * g[2:]
    if edge_order == 1:
        h0, hn = (h, h) if uniform else (h[0], h[-1])
        first = (g[1:2] - g[0:1]) / h0
        last = (g[-1:] - g[-2:-1]) / hn
    else:
        if uniform:
            a, b, c = -1.5 / h, 2.0 / h, -0.5 / h
        else:
            d1, d2 = h[0], h[1]
            a = -(2.0 * d1 + d2) / (d1 * (d1 + d2))
            b = (d1 + d2) / (d1 * d2)
            c = -d1 / (d2 * (d1 + d2))
        first = a * g[0:1] + b * g[1:2] + c * g[2:3]
        if uniform:
            a, b, c = 0.5 / h, -2.0 / h, 1.5 / h
        else:
            d1, d2 = h[-2], h[-1]
            a = d2 / (d1 * (d1 + d2))
            b = -(d2 + d1) / (d1 * d2)
            c = (2.0 * d2 + d1) / (d2 * (d1 + d2))
        last = a * g[-3:-2] + b * g[-2:-1] + c * g[-1:]
    res = concatenate([first, inner, last], axis=0)
    return moveaxis(res, 0, axis)


_CONV_MODES = {"full": 0, "same": 1, "valid": 2}


def _conv_mode(mode):
    if mode not in _CONV_MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' "
                         f"(got {mode!r})")
    return _CONV_MODES[mode]


def _parts(x):
    """Real and imaginary parts (the imaginary part of a real array is
    None)."""
    x = asarray(x)
    if _np.dtype(x.dtype).kind == "c":
        return x.real, x.imag
    return x, None


def _bilinear(fn, a, v, *args):
    """fn (real and bilinear, as convolve) on complex a, v from the real
    calls on their parts."""
    ar, ai = _parts(a)
    vr, vi = _parts(v)
    re = fn(ar, vr, *args)
    im = None
    if ai is not None and vi is not None:
        re = re - fn(ai, vi, *args)
    for x, y in ((ar, vi), (ai, vr)):
        if x is not None and y is not None:
            t = fn(x, y, *args)
            im = t if im is None else im + t
    return re if im is None else re + im * 1j


def convolve(a, v, mode="full"):
    m = _conv_mode(mode)
    if not _any_complex(a, v):
        return _lib.cn_convolve(a, v, m)
    return _bilinear(_lib.cn_convolve, a, v, m)


def correlate(a, v, mode="valid"):
    m = _conv_mode(mode)
    if not _any_complex(a, v):
        return _lib.cn_correlate(a, v, m)
    # NumPy correlates with the conjugate of v
    return _bilinear(_lib.cn_correlate, a, asarray(v).conj(), m)


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
        # linear in fp (and in left/right): the parts separately
        fr, fi = _parts(fp)
        fi = zeros(fr.shape) if fi is None else fi
        lr, li = (None, None) if left is None else \
            (complex(left).real, complex(left).imag)
        rr, ri = (None, None) if right is None else \
            (complex(right).real, complex(right).imag)
        return (_lib.cn_interp(x, xp, fr, lr, rr) +
                _lib.cn_interp(x, xp, fi, li, ri) * 1j)
    return _lib.cn_interp(x, xp, fp, left, right)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    if _any_complex(y):
        yr, yi = _parts(y)
        return (_lib.cn_trapezoid((yr, x), float(dx), axis) +
                _lib.cn_trapezoid((yi, x), float(dx), axis) * 1j)
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
