"""Shapes and views (include/cunumpy/view.h): reshape, transpose, moveaxis,
squeeze, flip, broadcasting, ravel, astype, copy, resize, and the axis and
shape-argument checks the other layers share.
"""

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray, to_device, zeros

__all__ = ["reshape", "transpose", "permute_dims", "matrix_transpose",
           "swapaxes", "moveaxis", "expand_dims", "squeeze", "flip", "fliplr",
           "flipud", "broadcast_to", "broadcast_arrays", "broadcast_shapes",
           "ravel", "astype", "copy", "ndim", "shape", "size", "resize"]


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    a = asarray(a)
    res = _lib.cn_reshape(a, shape, order)
    if copy:
        if _lib.cn_array_shares_buffer(res, a):
            res = _lib.cn_copy(res, order)
    elif copy is False and a.size and not _lib.cn_array_shares_buffer(res, a):
        raise ValueError("cannot reshape the array without a copy")
    return res


def _reshape_method(a, shape, order, copy):
    """ndarray.reshape with copy= (the C method hands those calls here)."""
    return reshape(a, shape, "C" if order is None else order, copy=copy)


def transpose(a, axes=None):
    if axes is None:
        return _lib.cn_transpose(a)
    return _lib.cn_permute_dims(a, axes)


def permute_dims(x, /, axes):
    return _lib.cn_permute_dims(x, axes)


def matrix_transpose(x, /):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs an array with ndim >= 2")
    return _lib.cn_swapaxes(x, -1, -2)


def swapaxes(a, axis1, axis2):
    return _lib.cn_swapaxes(a, axis1, axis2)


def _normalize_axes(axes, ndim, what):
    axes = [axes] if isinstance(axes, int) else list(axes)
    res = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise _AxisError(f"{what}: axis {ax} is out of bounds for array "
                             f"of dimension {ndim}")
        res.append(ax % ndim)
    if len(set(res)) != len(res):
        raise ValueError(f"{what}: repeated axis")
    return res


def moveaxis(a, source, destination):
    a = asarray(a)
    src = _normalize_axes(source, a.ndim, "source")
    dst = _normalize_axes(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the "
                         "same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _lib.cn_permute_dims(a, order)


def expand_dims(x, /, axis):
    return _lib.cn_expand_dims(x, axis)


def squeeze(a, axis=None):
    return _lib.cn_squeeze(a, () if axis is None else axis)


def flip(m, axis=None):
    return _lib.cn_flip(m, () if axis is None else axis)


def fliplr(m):
    return _lib.cn_fliplr(m)


def flipud(m):
    return _lib.cn_flipud(m)


def broadcast_to(array, shape):
    return _lib.cn_broadcast_to(array, shape)


def broadcast_arrays(*arrays):
    return _lib.cn_broadcast_arrays(arrays)


def broadcast_shapes(*shapes):
    return _lib._broadcast_shapes(shapes)


def ravel(a, order="C"):
    return _lib.cn_ravel(a, order)


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe",
           order="K"):
    """x cast to dtype (Array API astype; copy=False avoids a copy when the
    dtype already matches)."""
    x = asarray(x)
    if casting != "unsafe" and not _lib.cn_can_cast(x._dtype_code, dtype,
                                                    casting):
        raise TypeError(f"Cannot cast array data from {x.dtype} to "
                        f"{_dtypes.dtype(dtype)} according to the rule "
                        f"{casting!r}")
    res = _lib.cn_astype(x, dtype, bool(copy))
    if device is not None:
        res = to_device(res, device)
    return res


def copy(a, order="K"):
    return _lib.cn_copy(a, order)


def ndim(a):
    return asarray(a).ndim


def shape(a):
    return asarray(a).shape


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


# The class the engine's CN_ERR_AXIS raises, for the axis checks that the
# Python code needs before it calls the engine (positions, rollaxis).
_AxisError = _lib.AxisError


def _norm_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise _AxisError(f"axis {axis} is out of bounds for array of "
                         f"dimension {ndim}")
    return axis % ndim if ndim else 0


def _dims_tuple(dims):
    return (int(dims),) if isinstance(dims, (int, _np.integer)) else \
        tuple(int(d) for d in dims)


def resize(a, new_shape):
    """Array of new_shape filled with repeated copies of a's elements."""
    new_shape = _dims_tuple(new_shape)
    a = ravel(asarray(a))
    new_size = 1
    for d in new_shape:
        if d < 0:
            raise ValueError("all elements of `new_shape` must be "
                             "non-negative")
        new_size *= d
    if a.size == 0 or new_size == 0:
        return zeros(new_shape, a.dtype)
    repeats = -(-new_size // a.size)
    flat = _lib.cn_tile(a, (repeats,))[:new_size]
    return reshape(flat, new_shape)
