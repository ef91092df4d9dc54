"""Array creation (include/cunumpy/array.h): empty/zeros/ones with device=,
full, the *_like functions, arange, linspace/logspace/geomspace, eye,
identity, meshgrid, indices and the construction from Python callables,
buffers and iterators.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray
from ._convert import (array, asarray, _check_int_fits, _device_scope, empty,
                       _F64, ones, _scalar_code, _WEAK, zeros)
from ._numerictypes import result_type
from ._reduce import any
from ._ufunc import log10, power, sign
from ._shape import astype, broadcast_to, expand_dims, moveaxis, reshape

__all__ = ["full", "empty_like", "zeros_like", "ones_like", "full_like",
           "arange", "linspace", "eye", "identity", "meshgrid", "indices",
           "logspace", "geomspace", "fromfunction", "frombuffer", "fromiter"]


def _empty_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.empty(shape, dtype, order)
    return _lib.cn_empty(shape, _F64 if dtype is None else dtype, order)


def _zeros_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.zeros(shape, dtype, order)
    return _lib.cn_zeros(shape, _F64 if dtype is None else dtype, order)


def _ones_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.ones(shape, dtype, order)
    return _lib.cn_ones(shape, _F64 if dtype is None else dtype, order)


def _fill_dtype(fill_value, dtype):
    if dtype is not None:
        return dtype
    if type(fill_value) in _WEAK:
        return _scalar_code(fill_value)
    return _dtypes.to_code(getattr(fill_value, "dtype", None) or
                           _np.asarray(fill_value).dtype)


def _fill_scalar(fill_value):
    if isinstance(fill_value, ndarray):
        return fill_value.item()
    return fill_value


def full(shape, fill_value, dtype=None, order="C", *, device=None,
         like=None):
    if device is None and type(fill_value) in _WEAK:
        if dtype is None:
            return _lib.cn_full(shape, fill_value, _scalar_code(fill_value),
                                order)
        code = _dtypes.to_code(dtype)
        _check_int_fits(fill_value, code)
        return _lib.cn_full(shape, fill_value, code, order)
    if device is not None:
        with _device_scope(device):
            return full(shape, fill_value, dtype, order)
    if not isinstance(fill_value, ndarray) and _np.ndim(fill_value) > 0:
        return array(broadcast_to(asarray(fill_value, dtype), shape),
                     order=order)
    return _lib.cn_full(shape, _fill_scalar(fill_value),
                        _fill_dtype(fill_value, dtype), order)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *,
               device=None):
    if shape is not None:
        return empty(shape, dtype or asarray(prototype).dtype, "C",
                     device=device or asarray(prototype).device)
    return _lib.cn_empty_like(prototype, dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *,
               device=None):
    if shape is not None:
        return zeros(shape, dtype or asarray(a).dtype, device=device)
    return _lib.cn_zeros_like(a, dtype)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    if shape is not None:
        return ones(shape, dtype or asarray(a).dtype, device=device)
    return _lib.cn_ones_like(a, dtype)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None,
              *, device=None):
    if shape is not None:
        return full(shape, fill_value, dtype or asarray(a).dtype,
                    device=device)
    a = asarray(a)
    _check_int_fits(fill_value, a._dtype_code if dtype is None
                    else _dtypes.to_code(dtype))
    return _lib.cn_full_like(a, _fill_scalar(fill_value), dtype)


def arange(start, stop=None, step=None, dtype=None, *, device=None,
           like=None):
    """Evenly spaced values in [start, stop); exact for integer bounds."""
    if device is None and dtype is None and step is None and stop is None:
        if type(start) is int:
            return _lib.cn_arange_int(0, start, 1, 0)
        if type(start) is float:
            return _lib.cn_arange(0.0, start, 1.0, 0)
    if device is not None:
        with _device_scope(device):
            return arange(start, stop, step, dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    vals = (start, stop, step)
    code = None if dtype is None else _dtypes.to_code(dtype)
    ints = _builtins.all(isinstance(v, (int, _np.integer)) and
                         not isinstance(v, bool) for v in vals)
    if ints and (code is None or _dtypes.kind(code) in
                 (_lib.CN_KIND_INT, _lib.CN_KIND_UINT)):
        if code is not None and step != 0:
            # NumPy stores the first two values in the dtype: out of its
            # range they raise OverflowError (the rest wrap)
            length = -((int(start) - int(stop)) // int(step))
            for v in (int(start), int(start) + int(step))[:max(length, 0)]:
                _check_int_fits(v, code)
        return _lib.cn_arange_int(int(start), int(stop), int(step),
                                  code or 0)
    return _lib.cn_arange(float(start), float(stop), float(step), code or 0)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0, *, device=None):
    if device is not None:
        with _device_scope(device):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if _np.ndim(start) or _np.ndim(stop) or axis != 0 or not isinstance(
            start, (int, float)) or not isinstance(stop, (int, float)):
        return _linspace_arrays(start, stop, int(num), endpoint, retstep,
                                dtype, axis)
    res = _lib.cn_linspace(float(start), float(stop), int(num),
                           bool(endpoint), dtype)
    if retstep:
        div = (num - 1) if endpoint else num
        step = (stop - start) / div if div > 0 else float("nan")
        return res, step
    return res


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace for array (or complex, or NumPy scalar) bounds: NumPy's
    algorithm, samples along a new axis `axis`."""
    # Python scalars stay weak in the promotion (NEP 50), as in NumPy.
    dt = result_type(*(v if type(v) in _WEAK else asarray(v)
                       for v in (start, stop)), float(num))
    start, stop = asarray(start), asarray(stop)
    if _dtypes.kind(_dtypes.to_code(dt)) not in (_lib.CN_KIND_FLOAT,
                                                 _lib.CN_KIND_COMPLEX):
        dt = _np.dtype(_np.float64)
    start, stop = astype(start, dt, copy=False), astype(stop, dt, copy=False)
    div = (num - 1) if endpoint else num
    delta = stop - start
    y = _lib.cn_reshape(arange(0, num, dtype=dt), (-1,) + (1,) * delta.ndim,
                        "C")
    if div > 0:
        step = delta / div
        if bool(_lib.cn_any(step == 0, None, False, None, None)):
            y = (y / div) * delta  # denormal steps, as NumPy
        else:
            y = y * step
    else:
        step = float("nan")
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        code = _dtypes.to_code(dtype)
        if _dtypes.kind(code) in (_lib.CN_KIND_INT, _lib.CN_KIND_UINT):
            y = _lib.cn_floor(y, None)
        y = _lib.cn_astype(y, code, 0)
    if retstep:
        if isinstance(step, ndarray) and step.ndim == 0:
            step = step.item()
        return y, step
    return y


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return eye(N, M, k, dtype, order)
    return _lib.cn_eye(N, -1 if M is None else M, k,
                       _F64 if dtype is None else dtype, order)


def identity(n, dtype=None, *, like=None):
    return _lib.cn_identity(n, _F64 if dtype is None else dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    if not xi:
        return ()
    return _lib.cn_meshgrid(xi, indexing == "ij", bool(sparse), bool(copy))


def indices(dimensions, dtype=int, sparse=False):
    """Index grids of a shape; sparse=True gives one broadcastable
    arange per axis (shape 1 on every other axis), as NumPy."""
    dimensions = tuple(dimensions)
    if not sparse:
        return _lib.cn_indices(dimensions, dtype)
    n = len(dimensions)
    return tuple(_lib.cn_reshape(arange(d, dtype=dtype),
                                 (1,) * i + (d,) + (1,) * (n - i - 1), "C")
                 for i, d in enumerate(dimensions))


def _linspace(start, stop, num, endpoint, axis, dtype=None):
    """linspace with array bounds: the namespace's (NumPy's algorithm)."""
    return linspace(start, stop, num, endpoint=endpoint, axis=axis,
                    dtype=dtype)


def _ndmin(a, nd):
    return reshape(a, (1,) * (nd - a.ndim) + a.shape) if a.ndim < nd else a


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None,
             axis=0):
    """base ** linspace(start, stop, num)."""
    nd = _builtins.max(_np.ndim(start), _np.ndim(stop), _np.ndim(base))
    if nd:
        start, stop, base = (_ndmin(asarray(v), nd) for v in
                             (start, stop, base))
    y = _linspace(start, stop, num, endpoint, axis if nd else 0)
    if nd:
        base = expand_dims(base, axis)
    res = power(base, y)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale (a geometric progression);
    negative and complex bounds as NumPy."""
    start = asarray(start) * 1.0
    stop = asarray(stop) * 1.0
    if bool(any(start == 0)) or bool(any(stop == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    dt = result_type(start, stop, _np.float64 if dtype is None else dtype)
    start = _lib.cn_astype(start, dt, 1)
    stop = _lib.cn_astype(stop, dt, 1)
    out_sign = sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint,
                      base=10.0)
    result = _lib.cn_astype(result, dt, 0)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = out_sign * result
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return result if dtype is None else _lib.cn_astype(result, dtype, 0)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function applied to the index grids of shape."""
    args = indices(shape, dtype=dtype)
    return function(*args, **kwargs)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """A 1-d array over the bytes of a buffer-protocol object (zero-copy on
    the CPU)."""
    return asarray(_np.frombuffer(buffer, dtype, count, offset))


def fromiter(iter, dtype, count=-1, *, like=None):
    """A 1-d array from the values of an iterable."""
    return asarray(_np.fromiter(iter, dtype, count))
