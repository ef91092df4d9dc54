"""numpy.pad: every mode, from the engine's constant/edge/reflect/symmetric/
wrap padding plus the statistic and ramp modes composed here.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray, zeros
from ._reduce import max, mean, min
from ._ufunc import round
from ._shape import broadcast_to, flip, squeeze
from ._creation import full, linspace
from ._manip import concatenate
from ._stats import median

__all__ = ["pad"]


_PAD_MODES = {"constant": 0, "edge": 1, "reflect": 2, "symmetric": 3,
              "wrap": 4}

_PAD_KWARGS = {"empty": (), "edge": (), "wrap": (),
               "constant": ("constant_values",),
               "linear_ramp": ("end_values",),
               "maximum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",), "minimum": ("stat_length",),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def _as_pairs(x, ndim, what):
    """NumPy's pad argument forms (a scalar, (v,), (before, after), or one
    pair per axis) as ndim (before, after) pairs."""
    arr = _np.asarray(x)
    try:
        arr = _np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"{what}: operands could not be broadcast to "
                         f"({ndim}, 2)") from None
    return [tuple(p) for p in arr.tolist()]


def _axis_block(x, axis, start, stop):
    key = [slice(None)] * x.ndim
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def _pad_stat(x, axis, before, after, length, stat):
    """The two pad blocks of the stat modes along one axis (NumPy's
    _get_stats): the statistic of the first / last `length` elements."""
    n = x.shape[axis]
    blocks = []
    for width, ln, left in ((before, length[0], True),
                            (after, length[1], False)):
        ln = n if ln is None else _builtins.min(int(ln), n)
        if ln < 0:
            raise ValueError(f"index can't contain negative values (got "
                             f"stat_length {ln})")
        if not width:
            blocks.append(_axis_block(x, axis, 0, 0))
            continue
        chunk = _axis_block(x, axis, 0, ln) if left else \
            _axis_block(x, axis, n - ln, n)
        val = stat(chunk, axis=axis, keepdims=True)
        if _dtypes.kind(x._dtype_code) in (_lib.CN_KIND_INT,
                                           _lib.CN_KIND_UINT):
            val = round(val)  # NumPy's _round_if_needed
        shape = list(x.shape)
        shape[axis] = width
        blocks.append(_lib.cn_astype(broadcast_to(val, tuple(shape)),
                                     x._dtype_code, 0))
    return blocks


def _pad_ramp(x, axis, before, after, ends):
    """The two pad blocks of linear_ramp along one axis: from the end value
    to the edge value (exclusive), as NumPy's _get_linear_ramps."""
    n = x.shape[axis]
    blocks = []
    for width, end, left in ((before, ends[0], True), (after, ends[1],
                                                       False)):
        edge = _axis_block(x, axis, 0, 1) if left else \
            _axis_block(x, axis, n - 1, n)
        ramp = linspace(end, squeeze(edge, axis), width, endpoint=False,
                        dtype=x.dtype, axis=axis)
        blocks.append(ramp if left else flip(ramp, axis))
    return blocks


def _pad_reflect_odd(a, widths, include_edge):
    """reflect/symmetric padding with reflect_type='odd' (each reflected
    value v becomes 2 * edge - v), NumPy's _set_reflect_both: chunk by
    chunk, each reflecting the area padded so far."""
    x = _lib.cn_pad(a, [w for pair in widths for w in pair], 0, 0)
    for axis, (left, right) in enumerate(widths):
        n = a.shape[axis]
        if n == 1 and (left or right):  # NumPy: a singleton extends its edge
            x[_at_axis(x.ndim, axis, slice(None, left))] = \
                x[_at_axis(x.ndim, axis, slice(left, left + 1))]
            end = x.shape[axis] - right
            x[_at_axis(x.ndim, axis, slice(end, None))] = \
                x[_at_axis(x.ndim, axis, slice(end - 1, end))]
            continue
        while left > 0 or right > 0:
            old = x.shape[axis] - right - left
            if include_edge:
                old = old // n * n
                edge_offset = 1
            else:
                old = (old - 1) // (n - 1) * (n - 1) + 1 - 1
                edge_offset = 0
            if left > 0:
                chunk = _builtins.min(old, left)
                stop = left - edge_offset
                start = stop + chunk
                part = x[_at_axis(x.ndim, axis, slice(
                    start, stop if stop >= 0 else None, -1))]
                edge = x[_at_axis(x.ndim, axis, slice(left, left + 1))]
                x[_at_axis(x.ndim, axis, slice(left - chunk, left))] = \
                    2 * edge - part
                left -= chunk
            if right > 0:
                chunk = _builtins.min(old, right)
                start = -right + edge_offset - 2
                stop = start - chunk
                part = x[_at_axis(x.ndim, axis, slice(start, stop, -1))]
                edge = x[_at_axis(x.ndim, axis, slice(-right - 1, -right))]
                x[_at_axis(x.ndim, axis, slice(
                    x.shape[axis] - right,
                    x.shape[axis] - right + chunk))] = 2 * edge - part
                right -= chunk
    return x


def _at_axis(ndim, axis, sl):
    return (slice(None),) * axis + (sl,) + (slice(None),) * (ndim - axis - 1)


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad: the modes constant, edge, reflect, symmetric and wrap
    run in C; empty, per-axis constant_values, linear_ramp, the stat modes
    (maximum, minimum, mean, median) and reflect_type='odd' pad one axis at
    a time. A callable mode is not supported (NotImplementedError)."""
    a = asarray(array)
    if callable(mode):
        raise NotImplementedError("pad with a callable mode")
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_PAD_KWARGS[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode "
                         f"'{mode}': {extra}")
    widths = _np.broadcast_to(_np.asarray(pad_width), (a.ndim, 2))
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    widths = [(int(b), int(e)) for b, e in widths.tolist()]
    odd = kwargs.get("reflect_type") == "odd"  # NumPy: anything else, even
    if odd and a.size:
        return _pad_reflect_odd(a, widths, mode == "symmetric")
    value = kwargs.get("constant_values", 0)
    if mode in _PAD_MODES and not (mode == "constant" and _np.ndim(value)):
        flat = [w for pair in widths for w in pair]
        return _lib.cn_pad(a, flat, _PAD_MODES[mode], value)
    if mode == "empty":
        return _lib.cn_pad(a, [w for pair in widths for w in pair], 0, 0)
    if mode != "constant" and a.size == 0:
        for axis, pair in enumerate(widths):
            if a.shape[axis] == 0 and _builtins.any(pair):
                raise ValueError(f"can't extend empty axis {axis} using "
                                 f"modes other than 'constant' or 'empty'")
        return zeros(tuple(n + b + e for n, (b, e) in zip(a.shape, widths)),
                     a.dtype)
    if mode == "constant":
        args = _as_pairs(value, a.ndim, "constant_values")
    elif mode == "linear_ramp":
        args = _as_pairs(kwargs.get("end_values", 0), a.ndim, "end_values")
    else:
        length = kwargs.get("stat_length")
        args = [(None, None)] * a.ndim if length is None else \
            _as_pairs(length, a.ndim, "stat_length")
    stat = {"maximum": max, "minimum": min, "mean": mean,
            "median": median}.get(mode)
    x = a
    for axis, ((before, after), arg) in enumerate(zip(widths, args)):
        if not before and not after:
            continue
        if mode == "constant":
            blocks = []
            for width, v in ((before, arg[0]), (after, arg[1])):
                shape = list(x.shape)
                shape[axis] = width
                blocks.append(full(tuple(shape), v, x.dtype))
        elif mode == "linear_ramp":
            blocks = _pad_ramp(x, axis, before, after, arg)
        else:
            blocks = _pad_stat(x, axis, before, after, arg, stat)
        x = concatenate([blocks[0], x, blocks[1]], axis=axis)
    return x if x is not a else a.copy()
