"""cunumpy.fft: numpy.fft over include/cunumpy/fft.h (FFTW3 on the CPU)."""

import operator as _operator

import numpy as _np

from . import _cnlib as _lib
from ._logging import watch as _watch

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn",
           "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

_NORMS = {None: 0, "backward": 0, "ortho": 1, "forward": 2}
_N_NONE = -(2**63)  # CN_FFT_N_NONE


def _norm(norm):
    try:
        return _NORMS[norm]
    except KeyError:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         f'"ortho" or "forward".') from None


def _one(fn):
    what = f"FFT planning/transform ({fn.__name__[3:]})"

    def f(a, n=None, axis=-1, norm=None, out=None):
        with _watch(what):  # measured plans can take seconds
            res = fn(a, _N_NONE if n is None else int(n), axis, _norm(norm))
        if out is not None:
            out[...] = res
            return out
        return res
    f.__name__ = fn.__name__[3:]
    f.__doc__ = f"numpy.fft.{f.__name__} (n=None keeps the axis length)."
    return f


def _many(fn, default_axes=None, one=None):
    what = f"FFT planning/transform ({fn.__name__[3:]})"

    def f(a, s=None, axes=default_axes, norm=None, out=None):
        if one is not None and axes is not None and \
                len(set(axes)) != len(axes):
            # NumPy transforms a repeated axis again (last axis first).
            ss = [None] * len(axes) if s is None else list(s)
            res = a
            for i in reversed(range(len(axes))):
                res = one(res, ss[i], axes[i], norm)
        else:
            with _watch(what):
                res = fn(a, s, axes, _norm(norm))
        if out is not None:
            out[...] = res
            return out
        return res
    f.__name__ = fn.__name__[3:]
    f.__doc__ = f"numpy.fft.{f.__name__}."
    return f


fft = _one(_lib.cn_fft)
ifft = _one(_lib.cn_ifft)
rfft = _one(_lib.cn_rfft)
irfft = _one(_lib.cn_irfft)
hfft = _one(_lib.cn_hfft)
ihfft = _one(_lib.cn_ihfft)
fftn = _many(_lib.cn_fftn, one=fft)
ifftn = _many(_lib.cn_ifftn, one=ifft)
rfftn = _many(_lib.cn_rfftn)
irfftn = _many(_lib.cn_irfftn)
fft2 = _many(_lib.cn_fft2, (-2, -1), one=fft)
ifft2 = _many(_lib.cn_ifft2, (-2, -1), one=ifft)
rfft2 = _many(_lib.cn_rfft2, (-2, -1))
irfft2 = _many(_lib.cn_irfft2, (-2, -1))


def _freq(fn, n, d, dtype, device):
    from ._convert import to_device
    res = fn(_operator.index(n), float(d))
    if dtype is not None:
        if _np.dtype(dtype).kind != "f":
            raise ValueError(f"dtype must be a real floating-point dtype, "
                             f"got {_np.dtype(dtype)}")
        res = _lib.cn_astype(res, dtype, 0)
    return res if device is None else to_device(res, device)


def fftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of an n-point DFT with spacing d. The Array API
    2025.12 signature takes d by keyword only; NumPy's programs pass it
    positionally (fftfreq(n, 0.1)), and both forms are accepted."""
    return _freq(_lib.cn_fftfreq, n, d, dtype, device)


def rfftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Non-negative sample frequencies of an n-point real DFT."""
    return _freq(_lib.cn_rfftfreq, n, d, dtype, device)


def fftshift(x, axes=None):
    return _lib.cn_fftshift(x, axes)


def ifftshift(x, axes=None):
    return _lib.cn_ifftshift(x, axes)


# ---- FFTW planning (not in numpy.fft; pyFFTW-style knobs) -----------------

__all__ += ["set_planner", "get_planner", "save_wisdom", "load_wisdom",
            "plan_cache_info", "clear_plan_cache"]

_PLANNERS = ("estimate", "measure", "patient", "exhaustive")


def set_planner(effort):
    """FFTW planning effort for new plans: "estimate" (default), "measure",
    "patient" or "exhaustive". Measured plans cost time at the first
    transform of each shape and run faster after; they are planned on
    scratch buffers, never on your data."""
    try:
        i = _PLANNERS.index(str(effort).lower())
    except ValueError:
        raise ValueError(f"planner effort {effort!r}: expected one of "
                         f"{', '.join(_PLANNERS)}") from None
    _lib.cn_fft_set_planner(i)


def get_planner():
    """The current FFTW planning effort (see set_planner)."""
    return _PLANNERS[_lib.cn_fft_get_planner()]


def save_wisdom(path):
    """Writes what measured planning learned (FFTW wisdom) to path."""
    _lib.cn_fft_save_wisdom(str(path))


def load_wisdom(path):
    """Merges FFTW wisdom saved by save_wisdom; ValueError if path holds
    none (then nothing changes)."""
    _lib.cn_fft_load_wisdom(str(path))


def plan_cache_info():
    """(plans cached, capacity) of the bounded FFTW plan cache."""
    return tuple(_lib.cn_fft_plan_cache_info())


def clear_plan_cache():
    """Destroys every cached plan not in use."""
    _lib.cn_fft_clear_plan_cache()
