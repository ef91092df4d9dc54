"""numpy.pad: every named mode through the engine's cn_pad_ext (argument
parsing here, the padding in C).
"""

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray

__all__ = ["pad"]


_PAD_MODES = {"constant": _lib.CN_PAD_CONSTANT, "edge": _lib.CN_PAD_EDGE,
              "reflect": _lib.CN_PAD_REFLECT,
              "symmetric": _lib.CN_PAD_SYMMETRIC, "wrap": _lib.CN_PAD_WRAP,
              "linear_ramp": _lib.CN_PAD_LINEAR_RAMP,
              "maximum": _lib.CN_PAD_MAXIMUM, "minimum": _lib.CN_PAD_MINIMUM,
              "mean": _lib.CN_PAD_MEAN, "median": _lib.CN_PAD_MEDIAN,
              "empty": _lib.CN_PAD_EMPTY}
_PAD_KWARGS = {"empty": (), "edge": (), "wrap": (),
               "constant": ("constant_values",),
               "linear_ramp": ("end_values",),
               "maximum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",), "minimum": ("stat_length",),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def _pad_pairs(x, ndim, what):
    """NumPy's pad argument forms (a scalar, (v,), (before, after), or one
    pair per axis) as an (ndim, 2) array."""
    arr = _np.asarray(x)
    try:
        return _np.ascontiguousarray(_np.broadcast_to(arr, (ndim, 2)))
    except ValueError:
        raise ValueError(f"{what}: operands could not be broadcast to "
                         f"({ndim}, 2)") from None


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad: every named mode runs in C (cn_pad_ext). A callable
    mode is NumPy's: mode(vector, iaxis_pad_width, iaxis, kwargs) is called
    on every 1-d line of the zero-padded result along each axis in turn and
    writes its pad regions in place; the lines are NumPy views of host
    memory (a device array is padded on the host and copied back)."""
    a = asarray(array)
    if callable(mode):
        return _pad_callable(a, pad_width, mode, kwargs)
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_PAD_KWARGS[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode "
                         f"'{mode}': {extra}")
    widths = _np.broadcast_to(_np.asarray(pad_width), (a.ndim, 2))
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    flat = [int(w) for w in widths.ravel().tolist()]
    key = {"constant": "constant_values",
           "linear_ramp": "end_values"}.get(mode)
    values = _pad_pairs(kwargs.get(key, 0) if key else 0, a.ndim, key)
    length = kwargs.get("stat_length")
    if length is None:
        lengths = _np.array([[n, n] for n in a.shape], _np.int64) \
            .reshape(a.ndim, 2)
    else:  # NumPy rounds stat lengths to integers
        lengths = _np.round(_pad_pairs(length, a.ndim, "stat_length"))
        lengths = lengths.astype(_np.int64).reshape(a.ndim, 2)
    odd = kwargs.get("reflect_type") == "odd"  # NumPy: anything else, even
    return _lib.cn_pad_ext(a, flat, _PAD_MODES[mode], values, lengths, odd)


def _pad_callable(a, pad_width, function, kwargs):
    from ._convert import _on_cpu, to_device
    widths = _np.broadcast_to(_np.asarray(pad_width), (a.ndim, 2))
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    flat = [int(w) for w in widths.ravel().tolist()]
    zeros = _np.zeros((a.ndim, 2))
    lengths = _np.array([[n, n] for n in a.shape], _np.int64) \
        .reshape(a.ndim, 2)
    padded = _lib.cn_pad_ext(a, flat, _PAD_MODES["constant"], zeros, lengths,
                             False)
    on_cpu = _on_cpu(padded)
    host = _np.asarray(memoryview(padded)) if on_cpu else \
        _np.array(memoryview(_lib.cn_to_host(padded)))
    if a.ndim == 0:
        return padded
    for axis in range(host.ndim):
        view = _np.moveaxis(host, axis, -1)
        pw = tuple(int(w) for w in widths[axis])
        for ind in _np.ndindex(view.shape[:-1]):
            function(view[ind], pw, axis, kwargs)
    if on_cpu:
        return padded
    return to_device(asarray(host), padded.device)
