"""Indexing (include/cunumpy/index.h): take/put and their along-axis forms,
nonzero, where, compress, choose, the index builders (ravel_multi_index,
unravel_index), place/putmask, and the advanced subscripting that
ndarray.__getitem__ / __setitem__ hand over from C (getitem_advanced /
setitem_advanced).
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray
from ._convert import asarray, _assign_out, _WEAK
from ._numerictypes import _K_FLOAT, _K_INT, _K_UINT, _kind
from ._reduce import any
from ._ufunc import floor_divide, remainder
from ._shape import (broadcast_arrays, broadcast_to, _dims_tuple, ravel,
                     reshape, resize)

__all__ = ["where", "take", "take_along_axis", "put", "put_along_axis",
           "nonzero", "argwhere", "flatnonzero", "count_nonzero", "compress",
           "extract", "choose", "getitem_advanced", "setitem_advanced",
           "ravel_multi_index", "unravel_index", "copyto", "place", "putmask"]


def where(condition, x=None, y=None, /):
    """x where condition is true else y; one argument: nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _lib.cn_where(condition, x, y, None)


_MODES = {"raise": 0, "wrap": 1, "clip": 2}


def take(a, indices, axis=None, out=None, mode="raise"):
    return _lib.cn_take(a, indices, axis, _MODES[mode], out)


def take_along_axis(arr, indices, axis):
    return _lib.cn_take_along_axis(arr, indices, axis)


def put(a, ind, v, mode="raise"):
    _lib.cn_put(a, ind, v, _MODES[mode])


def put_along_axis(arr, indices, values, axis):
    _lib.cn_put_along_axis(arr, indices, values, axis)


def nonzero(a):
    return _lib.cn_nonzero(a)


def argwhere(a):
    return _lib.cn_argwhere(a)


def flatnonzero(a):
    return _lib.cn_flatnonzero(a)


def count_nonzero(a, axis=None, *, keepdims=False):
    return _lib.cn_count_nonzero(a, axis, keepdims)


def compress(condition, a, axis=None, out=None):
    res = _lib.cn_compress(condition, a, axis)
    return res if out is None else _assign_out(out, res)


def extract(condition, arr):
    return _lib.cn_extract(condition, arr)


def choose(a, choices, out=None, mode="raise"):
    return _lib.cn_choose(a, choices, _MODES[mode], out)


def _index_array(k):
    """An advanced-index item as an integer or bool array."""
    if isinstance(k, ndarray):
        return k
    arr = asarray(k)
    if arr.size == 0 and isinstance(k, (list, tuple)):
        arr = _lib.cn_astype(arr, _lib.CN_INT64, 0)
    return arr


def _expand_key(a, key):
    """key as a list of items with Ellipsis expanded to full slices."""
    key = list(key) if isinstance(key, tuple) else [key]
    consumed = 0
    for k in key:
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, (ndarray, _np.ndarray)) and k.dtype == _np.bool_:
            consumed += _builtins.max(k.ndim, 1) if k.ndim else 0
        else:
            consumed += 1
    ells = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(ells) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if ells:
        i = ells[0]
        key[i:i + 1] = [slice(None)] * (a.ndim - consumed)
    return key


def _advanced(a, key):
    """(view, index arrays, first axis) for an advanced index: the basic
    items are applied as a view, then the arrays index adjacent axes
    (non-adjacent ones are moved to the front first, as NumPy does)."""
    items = _expand_key(a, key)
    if _builtins.any(k is None for k in items):
        # newaxis: insert the length-1 axes into a first and index them
        # with full slices (the same result shape and axis order).
        consumed, where = 0, []
        for k in items:
            if k is None:
                where.append(consumed + len(where))
            elif isinstance(k, (ndarray, _np.ndarray)) and \
                    k.dtype == _np.bool_:
                consumed += k.ndim
            elif isinstance(k, list) and _is_mask(k):
                consumed += 1
            else:
                consumed += 1
        a = _lib.cn_expand_dims(a, where)
        items = [slice(None) if k is None else k for k in items]
    conv = []
    for k in items:
        if isinstance(k, slice):
            conv.append(k)
        elif isinstance(k, (bool, _np.bool_)):
            conv.append(asarray(k))
        elif isinstance(k, (int, _np.integer)):
            conv.append(asarray(int(k)))
        elif isinstance(k, (ndarray, _np.ndarray, list, tuple)):
            conv.append(_index_array(k))
        else:
            raise IndexError("only integers, slices (`:`), ellipsis "
                             "(`...`), numpy.newaxis (`None`) and integer "
                             "or boolean arrays are valid indices")
    positions = []  # (item index, first axis of the view it indexes, k)
    basic = []
    axis = 0
    for i, k in enumerate(conv):
        if isinstance(k, slice):
            basic.append(k)
            axis += 1
        else:
            width = k.ndim if k.dtype == _np.bool_ else 1
            positions.append((i, axis, width, k))
            basic.extend([slice(None)] * width)
            axis += width
    view = a[tuple(basic)] if basic else a
    arrays = [p[3] for p in positions]
    first = positions[0][1]
    adjacent = _builtins.all(positions[j + 1][0] == positions[j][0] + 1
                             for j in range(len(positions) - 1))
    if not adjacent:
        adv_axes = []
        for _, ax, width, _k in positions:
            adv_axes.extend(range(ax, ax + width))
        rest = [d for d in range(view.ndim) if d not in adv_axes]
        view = _lib.cn_permute_dims(view, adv_axes + rest)
        first = 0
    return view, arrays, first


def _is_mask(key):
    if isinstance(key, (ndarray, _np.ndarray)):
        return key.dtype == _np.bool_
    if isinstance(key, (bool, _np.bool_)):
        return True
    return isinstance(key, list) and bool(key) and _builtins.all(
        isinstance(k, (bool, _np.bool_)) for k in key)


def getitem_advanced(a, key):
    """a[key] for integer-array and boolean-mask keys (the C slot handles
    basic keys)."""
    if a.ndim and (type(key) is list and key and _builtins.all(
            type(k) is int for k in key) or isinstance(key, ndarray) and
            _dtypes.kind(key._dtype_code) in (_lib.CN_KIND_INT,
                                              _lib.CN_KIND_UINT)):
        return _lib.cn_take(a, key, 0, 0, None)  # a[int array], the common
    if _is_mask(key):
        return _lib.cn_mask_get(a, key)
    view, arrays, first = _advanced(a, key)
    return _lib.cn_index_arrays(view, arrays, first)


def setitem_advanced(a, key, value):
    if _is_mask(key):
        _lib.cn_mask_set(a, key, value)
        return
    view, arrays, first = _advanced(a, key)
    _lib.cn_index_arrays_set(view, arrays, first, value)


def _int_index_array(a, what="indices"):
    a = asarray(a)
    if _kind(a) not in (_K_INT, _K_UINT):
        if a.size == 0 and _kind(a) == _K_FLOAT:
            return _lib.cn_astype(a, _lib.CN_INT64, 0)
        raise TypeError("only int indices permitted")
    return _lib.cn_astype(a, _lib.CN_INT64, 0)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays multi_index into shape dims."""
    dims = _dims_tuple(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must have one entry per dimension")
    total = 1
    for d in dims:
        if d < 0:
            raise ValueError("dimensions must be non-negative")
        total *= d
    if total > 2**63 - 1:
        raise ValueError("invalid dims: array size defined by dims is "
                         "larger than the maximum possible size.")
    idx = [_int_index_array(i) for i in multi_index]
    idx = list(broadcast_arrays(*idx)) if idx else idx
    strides = [1] * len(dims)
    seq = range(len(dims) - 2, -1, -1) if order == "C" else \
        range(1, len(dims))
    for i in seq:
        j = i + 1 if order == "C" else i - 1
        strides[i] = strides[j] * dims[j]
    res = None
    for i, (ix, d, m) in enumerate(zip(idx, dims, modes)):
        if m == "raise":
            if bool(any((ix < 0) | (ix >= d))):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            ix = remainder(ix, d) if d else ix
        elif m == "clip":
            ix = _lib.cn_clip(ix, 0, _builtins.max(d - 1, 0), None)
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or "
                             f"'wrap' (got {m!r})")
        term = ix * strides[i]
        res = term if res is None else res + term
    return res


def unravel_index(indices, shape, order="C"):
    """Coordinate arrays of the flat indices into an array of shape."""
    dims = _dims_tuple(shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = _int_index_array(indices)
    size = 1
    for d in dims:
        size *= d
    if idx.size:
        bad = (idx < 0) | (idx >= size)
        if bool(any(bad)):
            v = int(idx[bad].ravel()[0].item())
            raise ValueError(f"index {v} is out of bounds for array with "
                             f"size {size}")
    res = [None] * len(dims)
    seq = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    rest = idx
    for i in seq:
        d = dims[i]
        res[i] = remainder(rest, d) if d else rest
        rest = floor_divide(rest, d) if d else rest
    return tuple(res)


def _need_array(a, fn):
    if not isinstance(a, ndarray):
        raise TypeError(f"{fn}() argument 1 must be cunumpy.ndarray, not "
                        f"{type(a).__name__}")


def copyto(dst, src, casting="same_kind", where=True):
    """Copies src into dst (broadcasting) where `where` is true; the cast
    must satisfy the casting rule."""
    _need_array(dst, "copyto")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe' (got {casting!r})")
    if type(src) in _WEAK:
        src_dt = _dtypes.result_type(dst.dtype, src) if type(src) is not bool \
            or dst.dtype == _np.bool_ else _np.dtype(bool)
        if type(src) is int and _kind(dst) in (_K_INT, _K_UINT):
            info = _np.iinfo(dst.dtype)
            if not info.min <= src <= info.max:
                raise OverflowError(f"Python integer {src} out of bounds "
                                    f"for {dst.dtype}")
        src_arr = asarray(src, src_dt if src_dt in _dtypes.CODE_OF else None)
    else:
        src_arr = asarray(src)
        src_dt = src_arr.dtype
    if not _dtypes.can_cast(src_dt, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {src_dt!r} to "
                        f"{dst.dtype!r} according to the rule {casting!r}")
    vals = _lib.cn_astype(src_arr, dst._dtype_code, 0)
    if where is True:
        _lib.cn_assign(dst, broadcast_to(vals, dst.shape))
        return
    w = asarray(where)
    if w.dtype != _np.bool_:
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to "
                        f"dtype('bool') according to the rule 'safe'")
    _lib.cn_assign(dst, broadcast_to(_lib.cn_where(w, vals, dst, None),
                                     dst.shape))


def place(arr, mask, vals):
    """Sets arr's elements where mask is true to vals, used in order and
    repeated as needed."""
    _need_array(arr, "place")
    mask = asarray(mask, bool)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    vals = ravel(asarray(vals, arr.dtype))
    n = int(_lib.cn_count_nonzero(mask, None, False).item())
    if n == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    m = reshape(mask, arr.shape)
    _lib.cn_mask_set(arr, m, resize(vals, n))


def putmask(a, mask, values):
    """a[i] = values[i % len(values)] where mask[i] is true."""
    _need_array(a, "putmask")
    mask = asarray(mask, bool)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    values = ravel(asarray(values))
    if values.size == 0:
        return
    vals = _lib.cn_astype(reshape(resize(values, a.size), a.shape),
                          a._dtype_code, 0)
    _lib.cn_assign(a, where(reshape(mask, a.shape), vals, a))
