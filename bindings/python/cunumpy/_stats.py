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
