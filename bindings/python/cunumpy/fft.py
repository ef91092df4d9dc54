"""cunumpy.fft: numpy.fft over include/cunumpy/fft.h (FFTW3 on the CPU)."""

from . import _cnlib as _lib

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
    def f(a, n=None, axis=-1, norm=None, out=None):
        res = fn(a, _N_NONE if n is None else int(n), axis, _norm(norm))
        if out is not None:
            out[...] = res
            return out
        return res
    f.__name__ = fn.__name__[3:]
    f.__doc__ = f"numpy.fft.{f.__name__} (n=None keeps the axis length)."
    return f


def _many(fn, default_axes=None):
    def f(a, s=None, axes=default_axes, norm=None, out=None):
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
fftn = _many(_lib.cn_fftn)
ifftn = _many(_lib.cn_ifftn)
rfftn = _many(_lib.cn_rfftn)
irfftn = _many(_lib.cn_irfftn)
fft2 = _many(_lib.cn_fft2, (-2, -1))
ifft2 = _many(_lib.cn_ifft2, (-2, -1))
rfft2 = _many(_lib.cn_rfft2, (-2, -1))
irfft2 = _many(_lib.cn_irfft2, (-2, -1))


def fftfreq(n, d=1.0, *, device=None):
    return _lib.cn_fftfreq(int(n), float(d))


def rfftfreq(n, d=1.0, *, device=None):
    return _lib.cn_rfftfreq(int(n), float(d))


def fftshift(x, axes=None):
    return _lib.cn_fftshift(x, axes)


def ifftshift(x, axes=None):
    return _lib.cn_ifftshift(x, axes)
