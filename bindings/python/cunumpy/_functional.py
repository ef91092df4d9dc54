"""Function application over arrays: apply_along_axis, apply_over_axes,
piecewise, select.
"""

import builtins as _builtins
import math as _math

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _WEAK
from ._reduce import any
from ._ufunc import logical_not
from ._shape import broadcast_to, expand_dims, moveaxis, _norm_axis, reshape
from ._creation import zeros_like
from ._index import copyto
from ._manip import concatenate, stack

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "select"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to the 1-d slices of arr along axis; the result's
    axis is replaced by func1d's result dimensions."""
    arr = asarray(arr)
    nd = arr.ndim
    axis = _norm_axis(axis, nd)
    inarr = moveaxis(arr, axis, -1)
    outer = inarr.shape[:-1]
    if _math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration "
                         "dimensions are 0")
    results = []
    for ind in _np.ndindex(*outer):
        results.append(asarray(func1d(inarr[ind], *args, **kwargs)))
    res = stack(results)
    res = reshape(res, outer + res.shape[1:])
    rdim = res.ndim - len(outer)
    dest = list(range(axis, axis + rdim))
    src = list(range(len(outer), res.ndim))
    return moveaxis(res, src, dest) if src else res


def apply_over_axes(func, a, axes):
    """func(a, axis) applied repeatedly over axes, keeping dimensions."""
    val = asarray(a)
    N = val.ndim
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = asarray(func(val, axis))
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of "
                                 "the correct shape")
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """Values of funclist[i] (functions or constants) where condlist[i]."""
    x = asarray(x)
    n2 = len(funclist)
    first = None if _np.isscalar(condlist) else condlist[0]
    seq = isinstance(first, (list, _np.ndarray)) or (
        isinstance(first, ndarray) and first.ndim > 0)
    if _np.isscalar(condlist) or (not seq and x.ndim != 0):
        condlist = [condlist]
    condlist = asarray([asarray(c, bool) for c in condlist]) \
        if _builtins.any(isinstance(c, ndarray) for c in condlist) \
        else asarray(condlist, bool)
    condlist = _lib.cn_astype(condlist, _lib.CN_BOOL, 0)
    n = len(condlist)
    if n == n2 - 1:
        condelse = logical_not(any(condlist, axis=0, keepdims=True))
        condlist = concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} "
                         f"functions are expected")
    y = zeros_like(x)
    for cond, func in zip(condlist, funclist):
        cond = broadcast_to(cond, x.shape) if cond.shape != x.shape else cond
        if not callable(func):
            copyto(y, func, casting="unsafe", where=cond)
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# The most conditions one cn_select call takes from Python.
_SELECT_BATCH = 64


def select(condlist, choicelist, default=0):
    """Elements of choicelist[i] where condlist[i] is first true, else
    default."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of "
                         "conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not "
                         "possible")
    conds = [asarray(c) for c in condlist]
    choices = [c if type(c) in _WEAK else asarray(c) for c in choicelist]
    # Longer lists: the later conditions' selection is the default of the
    # earlier ones'.
    while len(conds) > _SELECT_BATCH:
        default = _lib.cn_select((conds[-_SELECT_BATCH:],
                                  choices[-_SELECT_BATCH:]), default)
        del conds[-_SELECT_BATCH:], choices[-_SELECT_BATCH:]
    return _lib.cn_select((conds, choices), default)
