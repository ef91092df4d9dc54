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
from ._shape import (broadcast_arrays, broadcast_shapes, broadcast_to,
                     expand_dims, moveaxis, _norm_axis, reshape)
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
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def select(condlist, choicelist, default=0):
    """Elements of choicelist[i] where condlist[i] is first true, else
    default."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of "
                         "conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not "
                         "possible")
    choices = [c if type(c) in _WEAK else asarray(c) for c in choicelist]
    choices.append(default if type(default) in _WEAK else asarray(default))
    # NumPy's result_type: a Python int out of range of the array dtypes
    # widens the result here (numpy.select's rule), where the engine's
    # weak-scalar promotion raises OverflowError.
    dtype = _np.result_type(*[c.dtype if isinstance(c, ndarray) else c
                              for c in choices])
    conds = broadcast_arrays(*[asarray(c) for c in condlist])
    choices = broadcast_arrays(*[asarray(c) for c in choices])
    for i, cond in enumerate(conds):
        if cond.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be "
                            f"boolean ndarray")
    if choices[0].ndim == 0:
        shape = conds[0].shape
    else:
        shape = broadcast_shapes(conds[0].shape, choices[0].shape)
    result = _lib.cn_astype(broadcast_to(choices[-1], shape), dtype, 1)
    result = _lib.cn_copy(result, "C")
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        copyto(result, choice, where=cond, casting="unsafe")
    return result
