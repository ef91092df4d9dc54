"""Order statistics and moments (include/cunumpy/stats.h): median, quantile,
percentile (and their nan- forms), average, cov, corrcoef, ptp.
"""

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray, _asarray_py, _assign_out
from ._numerictypes import result_type
from ._reduce import sum
from ._ufunc import clip, UFUNCS
from ._shape import broadcast_to, moveaxis, reshape, _reshape_method, squeeze
from ._creation import _empty_py, _ones_py, _zeros_py
from ._sort import _any_complex, _raise_axis
from ._manip import concatenate
from ._linalg import diagonal, matmul

__all__ = ["median", "nanmedian", "percentile", "quantile", "nanpercentile",
           "nanquantile", "average", "cov", "corrcoef", "ptp"]


_QUANTILE_METHODS = {"linear": 0, "lower": 1, "higher": 2, "nearest": 3,
                     "midpoint": 4, "inverted_cdf": 5,
                     "averaged_inverted_cdf": 6, "closest_observation": 7,
                     "interpolated_inverted_cdf": 8, "hazen": 9,
                     "weibull": 10, "median_unbiased": 11,
                     "normal_unbiased": 12}

# methods that pick an order statistic (the input's dtype is kept)
_QUANTILE_PICKING = ("lower", "higher", "nearest", "inverted_cdf",
                     "closest_observation")


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    res = _lib.cn_median(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    res = _lib.cn_nanmedian(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


def _quantile(fn, a, q, axis, method, keepdims, out):
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{', '.join(_QUANTILE_METHODS)}")
    if method not in _QUANTILE_PICKING and \
            not isinstance(q, (int, float, _np.integer, _np.floating)):
        # an array q takes part in the promotion, as in NumPy
        a = asarray(a)
        qdt = q.dtype if hasattr(q, "dtype") else _np.asarray(q).dtype
        dt = _dtypes.result_type(a.dtype, qdt)
        if dt != a.dtype and dt.kind == "f" and _np.dtype(a.dtype).kind == "f":
            a = _lib.cn_astype(a, dt, 0)
    res = fn(a, q, axis, _QUANTILE_METHODS[method], keepdims)
    return res if out is None else _assign_out(out, res)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False):
    return _quantile(_lib.cn_percentile, a, q, axis, method, keepdims, out)


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False):
    return _quantile(_lib.cn_quantile, a, q, axis, method, keepdims, out)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
                  method="linear", keepdims=False):
    return _quantile(_lib.cn_nanpercentile, a, q, axis, method, keepdims, out)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False,
                method="linear", keepdims=False):
    return _quantile(_lib.cn_nanquantile, a, q, axis, method, keepdims, out)


def _average_core(a, weights, axis):
    """cn_average over one axis (or all), complex input part by part."""
    if _np.dtype(a.dtype).kind == "c":
        return (_average_core(a.real, weights, axis) +
                _average_core(a.imag, weights, axis) * 1j)
    return _lib.cn_average(a, weights, axis)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = asarray(a)
    if isinstance(axis, (tuple, list)):
        axes = tuple(sorted({int(x) % a.ndim if -a.ndim <= int(x) < a.ndim
                             else _raise_axis(x, a.ndim) for x in axis}))
        if len(axes) != len(axis):
            raise ValueError("repeated axis")
        if len(axes) == 1:
            return average(a, axes[0], weights, returned, keepdims=keepdims)
        # merge the axes into the last one, average over it
        k = len(axes)
        dst = tuple(range(a.ndim - k, a.ndim))
        merged = reshape(moveaxis(a, axes, dst), tuple(
            n for d, n in enumerate(a.shape) if d not in axes) + (-1,))
        w = None
        if weights is not None:
            w = asarray(weights)
            if w.shape != a.shape:
                raise ValueError("Shape of weights must be consistent with "
                                 "shape of a along specified axis.")
            w = reshape(moveaxis(w, axes, dst), merged.shape)
        res = average(merged, -1, w, returned)
        if keepdims:
            shape = tuple(1 if d in axes else n
                          for d, n in enumerate(a.shape))
            res = tuple(_lib.cn_reshape(r, shape, "C") for r in res) \
                if returned else _lib.cn_reshape(res, shape, "C")
        return res
    avg = _average_core(a, weights, axis)
    if keepdims:
        axes = range(a.ndim) if axis is None else \
            ((axis,) if isinstance(axis, (int, _np.integer)) else axis)
        reduced = {x % a.ndim for x in axes}
        avg = _lib.cn_reshape(avg, tuple(
            1 if d in reduced else n for d, n in enumerate(a.shape)), "C")
    if not returned:
        return avg
    # the sum of the weights (or the count) over the axes, avg's shape
    if weights is None:
        scl = asarray(a.size / avg.size if avg.size else 0.0,
                      dtype=avg.dtype)
    else:
        w = asarray(weights)
        if w.shape != a.shape:
            # 1-d weights along a single axis, as cn_average accepts them
            ax = axis if isinstance(axis, (int, _np.integer)) else axis[0]
            shape = [1] * a.ndim
            shape[ax % a.ndim] = w.shape[0]
            w = _lib.cn_reshape(w, tuple(shape), "C")
        w = broadcast_to(w, a.shape)
        scl = sum(w, axis=axis, keepdims=keepdims)
        scl = _lib.cn_astype(scl, avg.dtype, 0)
    return avg, _lib.cn_copy(broadcast_to(scl, avg.shape), "C")


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if fweights is None and aweights is None and \
            not _any_complex(m, *(() if y is None else (y,))):
        res = _lib.cn_cov(m, y, bool(rowvar), bool(bias),
                          -1 if ddof is None else int(ddof))
        return res if dtype is None else _lib.cn_astype(res, dtype, 0)
    return _cov_weighted(m, y, rowvar, bias, ddof, fweights, aweights, dtype)


def _cov_weighted(m, y, rowvar, bias, ddof, fweights, aweights, dtype):
    """cov with frequency / analytic weights, NumPy's algorithm."""
    X = asarray(m)
    if X.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    rdt = result_type(X.dtype, _np.float64) if dtype is None else dtype
    X = _lib.cn_astype(X if X.ndim == 2 else reshape(X, (1, -1)), rdt, 0)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if y is not None:
        Y = asarray(y)
        if Y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        Y = _lib.cn_astype(Y if Y.ndim == 2 else reshape(Y, (1, -1)), rdt, 0)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate([X, Y], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = _np.ones(X.shape[1]) if fweights is None and aweights is None \
        else None
    for name, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is None:
            continue
        wt = _np.asarray(wt.get() if hasattr(wt, "get") else wt)
        if name == "fweights":
            if not _np.all(wt == _np.around(wt)):
                raise TypeError("fweights must be integer")
        wt = wt.astype(_np.float64)
        if wt.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if wt.shape[0] != X.shape[1]:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if _np.any(wt < 0):
            raise ValueError(f"{name} cannot be negative")
        w = wt if w is None else w * wt
    aw = None if aweights is None else _np.asarray(
        aweights.get() if hasattr(aweights, "get") else aweights,
        dtype=_np.float64)
    w_sum = float(w.sum())
    if w_sum == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    wa = asarray(w)
    avg = _average_core(X, wa, 1)
    if ddof == 0:
        fact = w_sum
    elif aw is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * float((w * aw).sum()) / w_sum
    if fact <= 0:
        import warnings
        warnings.warn("Degrees of freedom <= 0 for slice",
                      RuntimeWarning, stacklevel=3)
        fact = 0.0
    Xc = X - reshape(avg, (-1, 1))
    c = matmul(Xc, (Xc * wa).conj().T)
    c = c * (1.0 / fact) if fact else c / fact
    return squeeze(c)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    if not _any_complex(x, *(() if y is None else (y,))):
        res = _lib.cn_corrcoef(x, y, bool(rowvar))
        return res if dtype is None else _lib.cn_astype(res, dtype, 0)
    # complex: NumPy's normalisation of cov by the real standard deviations
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    std = UFUNCS["sqrt"](diagonal(c).real)
    c = c / reshape(std, (-1, 1)) / reshape(std, (1, -1))
    return clip(c.real, -1, 1) + clip(c.imag, -1, 1) * 1j


def ptp(a, axis=None, out=None, keepdims=False):
    res = _lib.cn_ptp(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


_lib._set_fast(_dtypes.DTYPE_OF, {"empty": _empty_py, "zeros": _zeros_py,
                                  "ones": _ones_py, "asarray": _asarray_py,
                                  "reshape": _reshape_method})
