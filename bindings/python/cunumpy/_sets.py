"""Set routines on sorted data (NumPy's arraysetops): the unique family, isin,
intersect1d, union1d, setdiff1d, setxor1d.
"""

from collections import namedtuple as _namedtuple

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, ones
from ._shape import ravel
from ._index import take
from ._sort import argsort, sort
from ._manip import concatenate

__all__ = ["unique", "unique_values", "unique_counts", "unique_inverse",
           "unique_all", "isin", "intersect1d", "union1d", "setdiff1d",
           "setxor1d"]


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True, sorted=True):
    """NumPy's unique: cn_unique over the flattened array, cn_unique_axis
    over the slices along axis (where NumPy's equal_nan does not apply).
    The values always come sorted, which sorted=False allows."""
    ar = asarray(ar)
    want = (bool(return_index), bool(return_inverse), bool(return_counts))
    if axis is None:
        values, index, inverse, counts = _lib.cn_unique(
            *want, ar, bool(equal_nan))
    else:
        values, index, inverse, counts = _lib.cn_unique_axis(
            *want, ar, int(axis))
    extra = [r for want, r in ((return_index, index),
                               (return_inverse, inverse),
                               (return_counts, counts)) if want]
    return (values, *extra) if extra else values


# The Array API's forms: NaNs stay distinct (equal_nan=False), as NumPy's.
UniqueAllResult = _namedtuple("UniqueAllResult",
                              ["values", "indices", "inverse_indices",
                               "counts"])
UniqueCountsResult = _namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("UniqueInverseResult",
                                  ["values", "inverse_indices"])


def unique_values(x, /):
    return unique(x, equal_nan=False)


def unique_counts(x, /):
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x, /):
    return UniqueInverseResult(*unique(x, return_inverse=True,
                                       equal_nan=False))


def unique_all(x, /):
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def isin(element, test_elements, assume_unique=False, invert=False, *,
         kind=None):
    """NumPy's isin. The engine picks the method (a table for integers of a
    small range, else sorting); kind and assume_unique change no result, so
    only kind's errors are NumPy's."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' "
                         "or 'table'.")
    element, test_elements = asarray(element), asarray(test_elements)
    if kind == "table" and not all(
            _np.dtype(x.dtype).kind in "uib" for x in (element, test_elements)):
        raise ValueError("The 'table' method is only supported for boolean "
                         "or integer arrays. Please select 'sort' or None for "
                         "kind.")
    if kind == "table" and test_elements.size > 0:
        tdt = _np.dtype(test_elements.dtype)
        tdt = _np.dtype(_np.uint8) if tdt.kind == "b" else tdt
        span = int(test_elements.max()) - int(test_elements.min())
        if span > _np.iinfo(tdt).max:
            raise RuntimeError(
                "You have specified kind='table', but the range of values in "
                "`ar2` or `ar1` exceed the maximum integer of the datatype. "
                "Please set `kind` to None or 'sort'.")
    return _lib.cn_isin(element, test_elements, bool(invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """NumPy's intersect1d. Without return_indices and assume_unique it is
    cn_intersect1d; otherwise NumPy's algorithm (equal neighbours of the
    sorted concatenation), whose results with assume_unique on inputs that
    are not unique are NumPy's too."""
    if not assume_unique and not return_indices:
        return _lib.cn_intersect1d(ar1, ar2)
    ar1, ar2 = asarray(ar1), asarray(ar2)
    if not assume_unique:
        u1, i1 = unique(ar1, return_index=True)
        u2, i2 = unique(ar2, return_index=True)
    else:
        u1, u2 = ravel(ar1), ravel(ar2)
    aux = concatenate([u1, u2])
    if return_indices:
        order = argsort(aux, stable=True)
        aux = take(aux, order)
    else:
        aux = sort(aux)
    mask = aux[1:] == aux[:-1]
    res = aux[:-1][mask]
    if not return_indices:
        return res
    ind1, ind2 = order[:-1][mask], order[1:][mask] - u1.shape[0]
    if not assume_unique:
        ind1, ind2 = take(i1, ind1), take(i2, ind2)
    return res, ind1, ind2


def union1d(ar1, ar2):
    return _lib.cn_union1d(ar1, ar2)


def setdiff1d(ar1, ar2, assume_unique=False):
    """NumPy's setdiff1d; with assume_unique ar1 keeps its order (and any
    repeats), as NumPy's."""
    if not assume_unique:
        return _lib.cn_setdiff1d(ar1, ar2)
    ar1 = ravel(asarray(ar1))
    return ar1[isin(ar1, ar2, invert=True)]


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
