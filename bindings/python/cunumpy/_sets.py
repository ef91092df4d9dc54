"""Set routines on sorted data (NumPy's arraysetops): the unique family, isin,
intersect1d, union1d, setdiff1d, setxor1d.
"""

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, empty, ones, zeros
from ._reduce import any, cumsum
from ._shape import moveaxis, ravel, reshape
from ._creation import arange
from ._index import flatnonzero, take
from ._sort import argsort, lexsort, sort
from ._manip import concatenate
from ._calculus import diff

__all__ = ["unique", "unique_values", "unique_counts", "unique_inverse",
           "unique_all", "isin", "intersect1d", "union1d", "setdiff1d",
           "setxor1d"]


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True):
    if axis is not None:
        return _unique_axis(asarray(ar), axis, return_index, return_inverse,
                            return_counts)
    ar = asarray(ar)
    values, index, inverse, counts = _lib.cn_unique(ar, bool(equal_nan))
    extra = []
    if return_index:
        extra.append(index)
    if return_inverse:
        extra.append(_lib.cn_reshape(inverse, ar.shape, "C"))
    if return_counts:
        extra.append(counts)
    return (values, *extra) if extra else values


def _unique_axis(ar, axis, return_index, return_inverse, return_counts):
    """unique(axis=): the distinct slices along axis in lexicographic
    order (a stable lexsort of the flattened slices); inverse is 1-d over
    the axis as in NumPy 2."""
    if ar.ndim == 0:
        raise _np.exceptions.AxisError(axis, 0)
    axis = int(axis)
    if not -ar.ndim <= axis < ar.ndim:
        raise _np.exceptions.AxisError(axis, ar.ndim)
    ax = axis % ar.ndim
    moved = moveaxis(ar, ax, 0)
    n = moved.shape[0]
    rest = moved.shape[1:]
    m = 1
    for d in rest:
        m *= d
    rows = reshape(moved, (n, m))
    if n and m:
        perm = lexsort([rows[:, j] for j in range(m - 1, -1, -1)])
    else:
        perm = arange(n)
    srt = take(rows, perm, axis=0)
    if n:
        first = asarray([True])
        if m:
            change = any(srt[1:] != srt[:-1], axis=1)
        else:
            change = zeros((n - 1,), dtype=bool)
        mask = concatenate([first, change])
    else:
        mask = zeros((0,), dtype=bool)
    keep = flatnonzero(mask)
    values = take(srt, keep, axis=0)
    values = moveaxis(reshape(values, (values.shape[0],) + rest), 0, ax)
    extra = []
    if return_index:
        extra.append(take(perm, keep))
    if return_inverse:
        inv = empty((n,), dtype=_np.int64)
        if n:
            inv[perm] = cumsum(mask) - 1
        extra.append(inv)
    if return_counts:
        extra.append(diff(concatenate([keep, asarray([n])])))
    return (values, *extra) if extra else values


def unique_values(x, /):
    return unique(x)


def unique_counts(x, /):
    values, counts = unique(x, return_counts=True)
    return values, counts


def unique_inverse(x, /):
    return unique(x, return_inverse=True)


def unique_all(x, /):
    return unique(x, True, True, True)


def isin(element, test_elements, assume_unique=False, invert=False, *,
         kind=None):
    return _lib.cn_isin(element, test_elements, bool(invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if not return_indices:
        return _lib.cn_intersect1d(ar1, ar2)
    # NumPy's algorithm: equal neighbours in the sorted unique values
    u1, i1 = unique(ar1, return_index=True)
    u2, i2 = unique(ar2, return_index=True)
    aux = concatenate([u1, u2])
    order = argsort(aux, stable=True)
    aux = take(aux, order)
    mask = aux[1:] == aux[:-1]
    res = aux[:-1][mask]
    if not return_indices:
        return res
    return (res, take(i1, order[:-1][mask]),
            take(i2, order[1:][mask] - u1.shape[0]))


def union1d(ar1, ar2):
    return _lib.cn_union1d(ar1, ar2)


def setdiff1d(ar1, ar2, assume_unique=False):
    return _lib.cn_setdiff1d(ar1, ar2)


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted values that are in exactly one of ar1 and ar2."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ravel(asarray(ar1)), ravel(asarray(ar2))))
    if aux.size == 0:
        return aux
    aux = sort(aux)
    t = ones(1, bool)
    flag = concatenate((t, aux[1:] != aux[:-1], t))
    return aux[flag[1:] & flag[:-1]]
