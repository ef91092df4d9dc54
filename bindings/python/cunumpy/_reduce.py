"""Reductions (include/cunumpy/reduce.h): sum, prod, mean, std, var, min, max,
any, all, the arg- and nan- variants, cumsum and cumprod, with NumPy's
where=, initial= and out= semantics.
"""

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray
from ._convert import asarray, _assign_out, _check_int_fits

__all__ = ["sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin",
           "any", "all", "argmax", "argmin", "nanargmax", "nanargmin",
           "nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanstd",
           "nanvar", "cumsum", "cumprod"]


def _mask(a, where):
    """where (any array-like) as a bool array broadcast to a's shape."""
    w = _lib.cn_astype(asarray(where), _lib.CN_BOOL, 0)
    return _lib.cn_broadcast_to(w, a.shape)


def _where_fill(a, where, fill):
    """a with the elements where `where` is false replaced by fill."""
    return _lib.cn_where(_mask(a, where), a, _typed_scalar(fill, a.dtype),
                         None)


def _typed_scalar(value, dt):
    """0-d array of dtype dt holding value, cast as NumPy casts a reduction's
    initial value (Python ints out of range are an OverflowError)."""
    code = _dtypes.to_code(dt)
    _check_int_fits(value, code)
    if isinstance(value, ndarray):
        return _lib.cn_astype(value, code, 0)
    return _lib.cn_full((), value, code, "C")


def _result_shape_fill(a, axis, keepdims, value, dt):
    """The result of a reduction of the empty array a: every element is
    value (the reduction's initial value)."""
    shape = _lib.cn_sum(a, axis, keepdims, None, None).shape
    return _lib.cn_broadcast_to(_typed_scalar(value, dt), shape).copy()


def _sum_like(cfn, combine, identity, a, axis, dtype, out, keepdims,
              initial, where):
    """sum/prod with NumPy's initial= (the start value, cast to the result
    dtype) and where= (elements left out)."""
    a = asarray(a)
    if where is not True:
        a = _where_fill(a, where, identity)
    if initial is None:
        return cfn(a, axis, keepdims, dtype, out)
    res = cfn(a, axis, keepdims, dtype, None)
    res = combine(res, _typed_scalar(initial, res.dtype), None)
    return res if out is None else _assign_out(out, res)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
        where=True):
    if initial is None and where is True:
        return _lib.cn_sum(a, axis, keepdims, dtype, out)
    return _sum_like(_lib.cn_sum, _lib.cn_add, 0, a, axis, dtype, out,
                     keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
         where=True):
    if initial is None and where is True:
        return _lib.cn_prod(a, axis, keepdims, dtype, out)
    return _sum_like(_lib.cn_prod, _lib.cn_multiply, 1, a, axis, dtype, out,
                     keepdims, initial, where)


def _count(a, axis, keepdims, where):
    """Number of elements each reduction of a counts (int64)."""
    if where is True:
        ones_ = _lib.cn_broadcast_to(_typed_scalar(1, _np.int64), a.shape)
    else:
        ones_ = _mask(a, where)
    return _lib.cn_sum(ones_, axis, keepdims, _lib.CN_INT64, None)


def _mean_dtype(a, dtype):
    if dtype is not None:
        return _dtypes.dtype(dtype)
    if _dtypes.kind(a._dtype_code) in (_lib.CN_KIND_FLOAT,
                                       _lib.CN_KIND_COMPLEX):
        return a.dtype
    return _np.dtype(_np.float64)


def _real(dt):
    return _np.dtype(dt).type(0).real.dtype


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    if where is True:
        return _lib.cn_mean(a, axis, keepdims, dtype, out)
    a = asarray(a)
    dt = _mean_dtype(a, dtype)
    total = _lib.cn_sum(_where_fill(a, where, 0), axis, keepdims, dt, None)
    cnt = _lib.cn_astype(_count(a, axis, keepdims, where),
                         _dtypes.to_code(_real(dt)), 0)
    res = _lib.cn_divide(total, cnt, None)
    return res if out is None else _assign_out(out, res)


def _ddof(ddof, correction):
    return float(correction if correction is not None else ddof)


def _var(a, axis, dtype, out, ddof, keepdims, where, mean_):
    """NumPy's _var: mean over the counted elements (or the given mean),
    then the mean of |x - mean|**2 with ddof."""
    a = asarray(a)
    dt = _mean_dtype(a, dtype)
    cnt = _count(a, axis, True, where)
    if mean_ is None:
        total = _lib.cn_sum(a if where is True else _where_fill(a, where, 0),
                            axis, True, dt, None)
        mean_ = _lib.cn_divide(total, _lib.cn_astype(
            cnt, _dtypes.to_code(_real(dt)), 0), None)
    d = _lib.cn_subtract(_lib.cn_astype(a, _dtypes.to_code(dt), 0), mean_,
                         None)
    sq = _lib.cn_real(_lib.cn_multiply(d, _lib.cn_conj(d, None), None), None)
    if where is not True:
        sq = _where_fill(sq, where, 0)
    total = _lib.cn_sum(sq, axis, keepdims, None, None)
    cnt = _lib.cn_reshape(cnt, total.shape, "C")
    div = _lib.cn_maximum(_lib.cn_subtract(
        _lib.cn_astype(cnt, _dtypes.to_code(total.dtype), 0), ddof, None),
        0.0, None)
    return _lib.cn_divide(total, div, None)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        where=True, mean=None, correction=None):
    if where is True and mean is None:
        return _lib.cn_std(a, axis, keepdims, _ddof(ddof, correction), dtype,
                           out)
    res = _lib.cn_sqrt(_var(a, axis, dtype, None, _ddof(ddof, correction),
                            keepdims, where, mean), None)
    return res if out is None else _assign_out(out, res)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        where=True, mean=None, correction=None):
    if where is True and mean is None:
        return _lib.cn_var(a, axis, keepdims, _ddof(ddof, correction), dtype,
                           out)
    res = _var(a, axis, dtype, None, _ddof(ddof, correction), keepdims,
               where, mean)
    return res if out is None else _assign_out(out, res)


def _min_max(cfn, combine, name, a, axis, out, keepdims, initial, where):
    """max/min with initial= (also the result of empty reductions) and
    where= (which needs initial, as in NumPy)."""
    if initial is None:
        if where is not True:
            raise ValueError(f"reduction operation '{name}' does not have "
                             f"an identity, so to use a where mask one has "
                             f"to specify 'initial'")
        return cfn(a, axis, keepdims, None, out)
    a = asarray(a)
    if where is not True:
        a = _where_fill(a, where, initial)
    if a.size == 0:
        res = _result_shape_fill(a, axis, keepdims, initial, a.dtype)
    else:
        res = combine(cfn(a, axis, keepdims, None, None),
                      _typed_scalar(initial, a.dtype), None)
    return res if out is None else _assign_out(out, res)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _min_max(_lib.cn_max, _lib.cn_maximum, "maximum", a, axis, out,
                    keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _min_max(_lib.cn_min, _lib.cn_minimum, "minimum", a, axis, out,
                    keepdims, initial, where)


amax = max

amin = min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        a = _where_fill(asarray(a), where, 0)
    return _lib.cn_any(a, axis, keepdims, None, out)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        a = _where_fill(asarray(a), where, 1)
    return _lib.cn_all(a, axis, keepdims, None, out)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_argmax(a, axis, keepdims, out)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_argmin(a, axis, keepdims, out)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_nanargmax(a, axis, keepdims, out)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_nanargmin(a, axis, keepdims, out)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nansum(a, axis, keepdims, dtype, out)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nanprod(a, axis, keepdims, dtype, out)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nanmean(a, axis, keepdims, dtype, out)


def nanmax(a, axis=None, out=None, keepdims=False):
    return _lib.cn_nanmax(a, axis, keepdims, None, out)


def nanmin(a, axis=None, out=None, keepdims=False):
    return _lib.cn_nanmin(a, axis, keepdims, None, out)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _lib.cn_nanstd(a, axis, keepdims, float(ddof), dtype, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _lib.cn_nanvar(a, axis, keepdims, float(ddof), dtype, out)


def cumsum(a, axis=None, dtype=None, out=None):
    return _lib.cn_cumsum(a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _lib.cn_cumprod(a, axis, dtype, out)


_REDUCERS = {"add": sum, "multiply": prod, "maximum": max, "minimum": min,
             "logical_and": all, "logical_or": any}

_ACCUMULATORS = {"add": cumsum, "multiply": cumprod}
