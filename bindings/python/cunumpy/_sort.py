"""Sorting and searching (include/cunumpy/sort.h): sort, argsort, partition,
lexsort, searchsorted, sort_complex.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray
from ._numerictypes import _K_COMPLEX, _kind
from ._shape import flip

__all__ = ["sort", "argsort", "partition", "argpartition", "lexsort",
           "searchsorted", "sort_complex"]


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    res = _lib.cn_sort(a, axis)
    return flip(res, axis) if descending else res


def argsort(a, axis=-1, kind=None, order=None, *, stable=None,
            descending=False):
    if descending:
        # stable descending order: sort the reversed axis, map back.
        a = asarray(a)
        ax = -1 if axis is None else axis
        n = a.shape[ax] if a.ndim else 1
        return flip((n - 1) - _lib.cn_argsort(flip(a, ax), ax), ax)
    return _lib.cn_argsort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    return _lib.cn_partition(a, kth, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    return _lib.cn_argpartition(a, kth, axis)


def lexsort(keys, axis=-1):
    return _lib.cn_lexsort(keys, axis)


def _any_complex(*arrays):
    return _builtins.any(_np.dtype(asarray(x).dtype).kind == "c"
                         for x in arrays)


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    return _lib.cn_searchsorted(a, v, side == "right", sorter)


def sort_complex(a):
    """a sorted (real part first, then imaginary), as complex."""
    b = sort(asarray(a))
    if _kind(b) == _K_COMPLEX:
        return b
    if b.dtype.char in "bhBH":
        return _lib.cn_astype(b, _lib.CN_COMPLEX64, 0)
    return _lib.cn_astype(b, _lib.CN_COMPLEX128, 0)
