"""Joining, splitting, tiling and editing arrays (include/cunumpy/manip.h):
concatenate/stack and their variants, split, tile, repeat, roll, rot90,
atleast_*d, append/insert/delete, block, trim_zeros, copyto, and the
ravelled-layout queries (require, isfortran...).
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _assign_out, empty, ones
from ._numerictypes import _is_inexact, _K_INT, _K_UINT, _kind
from ._reduce import all, any
from ._ufunc import isfinite, logical_not
from ._shape import (_AxisError, broadcast_to, moveaxis, _norm_axis, ravel,
                     reshape)
from ._creation import arange
from ._index import argwhere, flatnonzero, nonzero, where
from ._sort import argsort

__all__ = ["concatenate", "concat", "stack", "vstack", "row_stack", "hstack",
           "dstack", "column_stack", "split", "array_split", "hsplit",
           "vsplit", "dsplit", "unstack", "tile", "repeat", "roll", "rot90",
           "atleast_1d", "atleast_2d", "atleast_3d", "append", "insert",
           "delete", "rollaxis", "block", "ix_", "require",
           "asarray_chkfinite", "iterable", "isfortran", "trim_zeros"]


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    res = _lib.cn_concatenate(arrays, axis, dtype)
    return res if out is None else _assign_out(out, res)


def concat(arrays, /, *, axis=0):
    return _lib.cn_concatenate(arrays, axis, None)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    res = _lib.cn_stack(arrays, axis)
    if dtype is not None:
        res = _lib.cn_astype(res, dtype, 0)
    return res if out is None else _assign_out(out, res)


def vstack(tup, *, dtype=None, casting="same_kind"):
    res = _lib.cn_vstack(tup)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


row_stack = vstack


def hstack(tup, *, dtype=None, casting="same_kind"):
    res = _lib.cn_hstack(tup)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def dstack(tup):
    return _lib.cn_dstack(tup)


def column_stack(tup):
    return _lib.cn_column_stack(tup)


def _split_args(indices_or_sections):
    if isinstance(indices_or_sections, (int, _np.integer)):
        return int(indices_or_sections), None
    return 0, [int(i) for i in indices_or_sections]


def split(ary, indices_or_sections, axis=0):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_split(ary, s, idx, axis))


def array_split(ary, indices_or_sections, axis=0):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_array_split(ary, s, idx, axis))


def hsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_hsplit(ary, s, idx))


def vsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_vsplit(ary, s, idx))


def dsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_dsplit(ary, s, idx))


def unstack(x, /, *, axis=0):
    x = asarray(x)
    return tuple(_lib.cn_index_axis(x, axis, i)
                 for i in range(x.shape[axis]))


def tile(A, reps):
    return _lib.cn_tile(A, reps)


def repeat(a, repeats, axis=None):
    if isinstance(repeats, (int, _np.integer)):
        return _lib.cn_repeat_n(a, int(repeats), axis)
    return _lib.cn_repeat(a, repeats, axis)


def roll(a, shift, axis=None):
    shifts = (shift,) if isinstance(shift, (int, _np.integer)) else shift
    if axis is not None:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) == 1 and len(axes) > 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1 and len(shifts) > 1:
            axes = axes * len(shifts)
        axis = axes
    return _lib.cn_roll(a, (tuple(int(s) for s in shifts), axis))


def rot90(m, k=1, axes=(0, 1)):
    return _lib.cn_rot90(m, k, axes[0], axes[1])


def _atleast(fn, arys):
    res = [fn(a) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    return _atleast(_lib.cn_atleast_1d, arys)


def atleast_2d(*arys):
    return _atleast(_lib.cn_atleast_2d, arys)


def atleast_3d(*arys):
    return _atleast(_lib.cn_atleast_3d, arys)


def append(arr, values, axis=None):
    """arr with values appended (flattened when axis is None)."""
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = ravel(arr)
        values = ravel(asarray(values))
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=_norm_axis(axis, arr.ndim))


def _order_of(arr):
    return "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous \
        else "C"


def _flat_or_axis(arr, axis):
    """(arr, axis) for insert/delete: the flattened arr and axis 0 when axis
    is None, else arr and the normalised axis."""
    arr = asarray(arr)
    if axis is None:
        return (ravel(arr) if arr.ndim != 1 else arr), 0
    return arr, _norm_axis(axis, arr.ndim)


# Up to this many inserted/deleted positions, insert and delete splice
# slices together (one concatenate) instead of building a mask.
_FEW_POSITIONS = 256


def _axis_slice(axis, start, stop):
    return (slice(None),) * axis + (slice(start, stop),)


def _splice(arr, axis, pos, vals):
    """arr with vals' slice j along axis put before arr's index pos[j]
    (equal positions keep their order)."""
    pieces, prev = [], 0
    for j in sorted(range(len(pos)), key=pos.__getitem__):
        p = pos[j]
        if p > prev:
            pieces.append(arr[_axis_slice(axis, prev, p)])
        pieces.append(vals[_axis_slice(axis, j, j + 1)])
        prev = p
    pieces.append(arr[_axis_slice(axis, prev, None)])
    return concatenate(pieces, axis=axis)


def _drop(arr, axis, dels):
    """arr without the indices dels along axis."""
    pieces, prev = [], 0
    for d in sorted(set(dels)):
        if d > prev:
            pieces.append(arr[_axis_slice(axis, prev, d)])
        prev = d + 1
    pieces.append(arr[_axis_slice(axis, prev, None)])
    return concatenate(pieces, axis=axis)


def insert(arr, obj, values, axis=None):
    """arr with values inserted before the indices obj along axis."""
    arr, axis = _flat_or_axis(arr, axis)
    ndim = arr.ndim
    order = _order_of(arr)
    slobj = [slice(None)] * ndim
    N = arr.shape[axis]
    newshape = list(arr.shape)
    if isinstance(obj, slice):
        idx = arange(*obj.indices(N))
    else:
        idx = asarray(obj)
        if idx.dtype == _np.bool_:
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must "
                                 "be one dimensional")
            idx = flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be "
                             "one dimensional or scalar")
    if idx.size == 1:
        if _kind(idx) not in (_K_INT, _K_UINT):
            raise TypeError("slice indices must be integers or None or have "
                            "an __index__ method")
        index = int(idx.item())
        if index < -N or index > N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} "
                             f"with size {N}")
        if index < 0:
            index += N
        values = asarray(values, arr.dtype)
        if values.ndim < ndim:
            values = reshape(values, (1,) * (ndim - values.ndim) +
                             values.shape)
        if idx.ndim == 0:
            values = moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        newshape[axis] += numnew
        new = empty(newshape, arr.dtype, order)
        slobj[axis] = slice(None, index)
        new[tuple(slobj)] = arr[tuple(slobj)]
        slobj[axis] = slice(index, index + numnew)
        new[tuple(slobj)] = values
        slobj[axis] = slice(index + numnew, None)
        slobj2 = [slice(None)] * ndim
        slobj2[axis] = slice(index, None)
        new[tuple(slobj)] = arr[tuple(slobj2)]
        return new
    if _kind(idx) not in (_K_INT, _K_UINT):
        if idx.size == 0:
            idx = _lib.cn_astype(idx, _lib.CN_INT64, 0)
        else:
            raise IndexError("arrays used as indices must be of integer "
                             "(or boolean) type")
    idx = _lib.cn_astype(idx, _lib.CN_INT64, 1)
    if idx.size and bool(any((idx < -N) | (idx > N))):
        bad = int(idx[(idx < -N) | (idx > N)][0].item())
        raise IndexError(f"index {bad} is out of bounds for axis {axis} "
                         f"with size {N}")
    idx = where(idx < 0, idx + N, idx)
    numnew = idx.shape[0]
    if 0 < numnew <= _FEW_POSITIONS:
        tgt = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
        vals = broadcast_to(asarray(values, arr.dtype), tgt)
        return _splice(arr, axis, [int(v) for v in idx.tolist()], vals)
    perm = argsort(idx, kind="stable")
    shifted = empty(numnew, idx.dtype)
    shifted[perm] = idx[perm] + arange(numnew)
    newshape[axis] += numnew
    old_mask = ones(newshape[axis], dtype=bool)
    if numnew:
        old_mask[shifted] = False
    new = empty(newshape, arr.dtype, order)
    slobj2 = [slice(None)] * ndim
    slobj[axis] = shifted
    slobj2[axis] = old_mask
    if numnew:
        vals = asarray(values, arr.dtype)
        tgt_shape = new[tuple(slobj)].shape
        new[tuple(slobj)] = broadcast_to(vals, tgt_shape)
    new[tuple(slobj2)] = arr
    return new


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at indices obj along axis."""
    arr, axis = _flat_or_axis(arr, axis)
    N = arr.shape[axis]
    keep = None
    if isinstance(obj, slice):
        dels = range(*obj.indices(N))
        if len(dels) > _FEW_POSITIONS:
            keep = ones(N, dtype=bool)
            keep[obj] = False
    elif isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool):
        if obj < -N or obj >= N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} "
                             f"with size {N}")
        dels = [int(obj) % N]
    else:
        o = asarray(obj)
        if o.dtype == _np.bool_:
            if o.shape != (N,):
                raise ValueError(f"boolean array argument obj to delete "
                                 f"must be one dimensional and match the "
                                 f"axis length of {N}")
            keep = logical_not(o)
        else:
            if o.size == 0:
                o = _lib.cn_astype(o, _lib.CN_INT64, 0)
            elif _kind(o) not in (_K_INT, _K_UINT):
                raise IndexError("arrays used as indices must be of integer "
                                 "(or boolean) type")
            o = ravel(o)
            if o.size:
                bad = (o < -N) | (o >= N)
                if bool(any(bad)):
                    v = int(o[bad][0].item())
                    raise IndexError(f"index {v} is out of bounds for axis "
                                     f"{axis} with size {N}")
            if o.size > _FEW_POSITIONS:
                keep = ones(N, dtype=bool)
                keep[o] = False
            else:
                dels = [int(v) % N for v in o.tolist()]
    if keep is None:
        return _drop(arr, axis, dels)
    return _lib.cn_copy(arr[_axis_slice(axis, None, None)[:-1] + (keep,)],
                        "K")


def rollaxis(a, axis, start=0):
    """a with `axis` rolled back until it lies before position start."""
    a = asarray(a)
    n = a.ndim
    axis = _norm_axis(axis, n)
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not (-n <= start <= n):
        raise _AxisError(msg % ("start", -n, "start", n + 1, start))
    if start < 0:
        start += n
    if start > axis:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _lib.cn_permute_dims(a, axes)


def block(arrays):
    """An array assembled from nested lists of blocks."""
    def depth_and_ndim(x, index):
        if type(x) is tuple:
            raise TypeError(f"{_index_str(index)} is a tuple. Only lists "
                            f"can be used to arrange blocks, and np.block "
                            f"does not allow implicit conversion from tuple "
                            f"to ndarray.")
        if type(x) is list:
            if not x:
                raise ValueError(f"List at {_index_str(index)} cannot be "
                                 f"empty")
            res = [depth_and_ndim(e, index + [i]) for i, e in enumerate(x)]
            depths = {r[0] for r in res}
            if len(depths) != 1:
                first = res[0][0]
                for i, r in enumerate(res):
                    if r[0] != first:
                        raise ValueError(
                            f"List depths are mismatched. First element was "
                            f"at depth {first + len(index) + 1}, but there "
                            f"is an element at depth "
                            f"{r[0] + len(index) + 1} "
                            f"({_index_str(index + [i])})")
            return res[0][0] + 1, _builtins.max(r[1] for r in res)
        return 0, asarray(x).ndim

    def _index_str(index):
        return "arrays" + "".join(f"[{i}]" for i in index)

    depth, nd = depth_and_ndim(arrays, [])
    ndim = _builtins.max(depth, nd)

    def build(x, level):
        if level == depth:
            a = asarray(x)
            if a.ndim < ndim:
                a = reshape(a, (1,) * (ndim - a.ndim) + a.shape)
            return a
        parts = [build(e, level + 1) for e in x]
        return concatenate(parts, axis=-(depth - level))

    res = build(arrays, 0)
    return _lib.cn_copy(res, "C") if depth == 0 else res


def ix_(*args):
    """Open mesh index arrays: the k-th reshaped to have its length on
    axis k and 1 elsewhere."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            new = asarray(new)
            if new.size == 0:
                new = _lib.cn_astype(new, _lib.CN_INT64, 0)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new, = nonzero(new)
        out.append(reshape(new, (1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an array of dtype meeting the flags in requirements ('C', 'F',
    'A', 'W', 'O', 'E' and their long names)."""
    names = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
             "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
             "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
             "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}
    if not requirements:
        return asarray(a, dtype)
    reqs = {names[r.upper()] for r in requirements}
    reqs.discard("E")
    reqs.discard("A")
    order = "A"
    if {"C", "F"} <= reqs:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    if "C" in reqs:
        order = "C"
    elif "F" in reqs:
        order = "F"
    arr = asarray(a, dtype)
    need = (order == "C" and not arr.flags.c_contiguous) or \
        (order == "F" and not arr.flags.f_contiguous) or \
        ("W" in reqs and not arr.flags.writeable) or \
        ("O" in reqs and not arr.flags.owndata)
    if need:
        arr = _lib.cn_copy(arr, "K" if order == "A" else order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray that raises ValueError for infs and NaNs."""
    a = asarray(a, dtype)
    if _is_inexact(a) and not bool(all(isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def iterable(y):
    """Whether iter(y) works."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def isfortran(a):
    """True when a is Fortran-contiguous and not C-contiguous."""
    f = a.flags
    return bool(f.f_contiguous and not f.c_contiguous)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros."""
    arr = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axes = tuple(range(arr.ndim))
    else:
        axes = (axis,) if _np.ndim(axis) == 0 else tuple(axis)
        axes = tuple(_norm_axis(ax, arr.ndim) for ax in axes)
    if not axes:
        return filt
    nz = argwhere(arr)
    if nz.shape[0] == 0:
        start = stop = [0] * arr.ndim
    else:
        start = [int(v) for v in nz.min(axis=0).tolist()]
        stop = [int(v) + 1 for v in nz.max(axis=0).tolist()]
        if "f" not in trim:
            start = [None] * arr.ndim
        if "b" not in trim:
            stop = [None] * arr.ndim
    sl = tuple(slice(start[ax], stop[ax]) if ax in axes else slice(None)
               for ax in range(arr.ndim))
    if len(sl) == 1:
        return filt[sl[0]]
    return filt[sl]
