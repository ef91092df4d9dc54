"""Order statistics and moments (include/cunumpy/stats.h): median, quantile,
percentile (and their nan- forms), average, cov, corrcoef, ptp.
"""

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray, _asarray_py, _assign_out
from ._shape import _reshape_method
from ._creation import _empty_py, _ones_py, _zeros_py

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


def _weighted_quantile(a, q, axis, weights, method, keepdims, out, what):
    """NumPy 2's weighted quantile (method='inverted_cdf' only): in each
    slice along axis the first sorted value whose cumulative weight
    reaches q of the total; leading zero weights are skipped, a slice with
    a NaN gives NaN."""
    import cunumpy as cn
    from .exceptions import AxisError
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. "
                         f"Got: {method}.")
    a = asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    qv = asarray(q)
    if qv.dtype.kind not in "biuf":
        raise TypeError("q must be real numbers")
    qv = cn.astype(qv, cn.result_type(qv.dtype, cn.float64)
                   if qv.dtype.kind != "f" else qv.dtype)
    if what == "percentile":
        qv = qv / 100
    if qv.size and not bool(cn.all((qv >= 0) & (qv <= 1))):
        raise ValueError("Percentiles must be in the range [0, 100]"
                         if what == "percentile" else
                         "Quantiles must be in the range [0, 1]")
    w = asarray(weights)
    nd = a.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        norm = []
        for ax in axes:
            if not -nd <= ax < nd:
                raise AxisError(ax, nd)
            norm.append(ax % nd)
        if len(set(norm)) != len(norm):
            raise ValueError("repeated axis")
        axes = tuple(norm)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and "
                            "weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axes):
            raise ValueError("Shape of weights must be consistent with shape "
                             "of a along specified axis.")
        order = sorted(range(len(axes)), key=lambda i: axes[i])
        w = cn.reshape(cn.permute_dims(w, tuple(order)) if w.ndim else w,
                       tuple(s if i in axes else 1
                             for i, s in enumerate(a.shape)))
        w = cn.broadcast_to(w, a.shape)
    if bool(cn.any(w < 0)):
        raise ValueError("Weights must be non-negative.")
    rest = tuple(i for i in range(nd) if i not in axes)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    shape = (n,) + tuple(a.shape[i] for i in rest)

    def front(x):
        return cn.reshape(cn.permute_dims(x, axes + rest) if nd else x, shape)

    y, wy = front(a), front(w)
    idx = cn.argsort(y, axis=0)
    ys = cn.take_along_axis(y, idx, axis=0)
    ws = cn.take_along_axis(wy, idx, axis=0)
    cdf = cn.cumsum(ws, axis=0, dtype=cn.float64)
    with _np.errstate(all="ignore"):
        cdf = cdf / cdf[-1]
    if bool(cn.any(cn.isnan(cdf[-1]))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if qv.dtype != cn.float64:
        cdf = cn.astype(cdf, qv.dtype)
    # leading zero weights: never the answer, not even for q = 0
    cdf = cn.where(cdf == 0, -1.0, cdf)
    k = len(shape) - 1
    cmp = cn.reshape(cdf, (n,) + (1,) * qv.ndim + shape[1:]) < \
        cn.reshape(qv, qv.shape + (1,) * k)
    pick = cn.minimum(cn.sum(cmp, axis=0), n - 1)
    full = cn.broadcast_to(cn.reshape(ys, (n,) + (1,) * qv.ndim + shape[1:]),
                           (n,) + qv.shape + shape[1:])
    res = cn.take_along_axis(full, cn.expand_dims(pick, axis=0), axis=0)[0]
    if a.dtype.kind == "f":
        nan_slices = cn.isnan(ys[-1])
        res = cn.where(nan_slices, cn.asarray(_np.nan, dtype=a.dtype), res)
    if keepdims:
        res = cn.reshape(res, qv.shape + tuple(1 if i in axes else a.shape[i]
                                               for i in range(nd)))
    return res if out is None else _assign_out(out, res)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False, *, weights=None):
    if weights is not None:
        return _weighted_quantile(a, q, axis, weights, method, keepdims, out,
                                  "percentile")
    return _quantile(_lib.cn_percentile, a, q, axis, method, keepdims, out)


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False, *, weights=None):
    if weights is not None:
        return _weighted_quantile(a, q, axis, weights, method, keepdims, out,
                                  "quantile")
    return _quantile(_lib.cn_quantile, a, q, axis, method, keepdims, out)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
                  method="linear", keepdims=False):
    return _quantile(_lib.cn_nanpercentile, a, q, axis, method, keepdims, out)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False,
                method="linear", keepdims=False):
    return _quantile(_lib.cn_nanquantile, a, q, axis, method, keepdims, out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    avg, scl = _lib.cn_average_axes(a, weights, axis,
                                    bool(keepdims))
    return (avg, scl) if returned else avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if fweights is not None or aweights is not None:
        # NumPy reports mis-shaped weights as RuntimeError
        X = asarray(m)
        nobs = X.shape[0] if not rowvar and X.ndim == 2 \
            else (X.shape[-1] if X.ndim else 1)
        for name, wt in (("fweights", fweights), ("aweights", aweights)):
            if wt is None:
                continue
            nd = _np.ndim(wt)
            if nd > 1:
                raise RuntimeError(f"cannot handle multidimensional {name}")
            if nd == 0 or _np.shape(wt)[0] != nobs:
                raise RuntimeError(f"incompatible numbers of samples and "
                                   f"{name}")
    return _lib.cn_cov_weighted(
        m, y, fweights, aweights, bool(rowvar), bool(bias),
        -1 if ddof is None else int(ddof), dtype)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    res = _lib.cn_corrcoef(x, y, bool(rowvar))
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def ptp(a, axis=None, out=None, keepdims=False):
    res = _lib.cn_ptp(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


_lib._set_fast(_dtypes.DTYPE_OF, {"empty": _empty_py, "zeros": _zeros_py,
                                  "ones": _ones_py, "asarray": _asarray_py,
                                  "reshape": _reshape_method})
