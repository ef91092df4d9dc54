"""cunumpy.signal: scipy.signal's names and semantics on the engine.

Convolution, correlation, lfilter, sosfilt and order_filter run in C
(include/cunumpy/signal.h); the compositions here (filtfilt, medfilt,
hilbert, detrend, ...) are engine array operations. Coefficient design
(lfilter_zi, sosfilt_zi, savgol_coeffs, windows) is small float64 math
done on the host with NumPy. Windows live in cunumpy.signal.windows.
"""

import operator as _operator
import sys as _sys

import numpy as _np

from . import _cnlib as _lib
from . import _signal_windows as windows
from ._signal_windows import get_window
from . import _signal_design
from ._signal_design import firwin as _firwin, cheby1 as _cheby1
from ._signal_peaks import (find_peaks, peak_prominences, peak_widths,
                            argrelmax, argrelmin, argrelextrema)
from ._backend import to_numpy as _to_numpy
from ._convert import asarray as _asarray

import cunumpy as _cn

_sys.modules[__name__ + ".windows"] = windows
# the design functions are this module's names
for _name in _signal_design._PUBLIC:
    globals()[_name] = getattr(_signal_design, _name)
del _name

__all__ = ["convolve", "correlate", "fftconvolve", "oaconvolve",
           "convolve2d", "correlate2d", "lfilter", "lfilter_zi", "filtfilt",
           "sosfilt", "sosfilt_zi", "sosfiltfilt", "order_filter", "medfilt",
           "medfilt2d", "hilbert", "detrend", "savgol_coeffs",
           "savgol_filter", "get_window", "windows", "upfirdn",
           "resample", "resample_poly", "decimate", "csd", "welch",
           "periodogram", "coherence", "spectrogram",
           "stft", "istft", "wiener", "find_peaks", "peak_prominences",
           "peak_widths", "argrelmax", "argrelmin",
           "argrelextrema"] + list(_signal_design._PUBLIC)

_MODES = {"full": 0, "same": 1, "valid": 2}
_METHODS = {"auto": 0, "direct": 1, "fft": 2}


def _mode(mode):
    if mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or "
                         "'full'.")
    return _MODES[mode]


def _method(method):
    if method not in _METHODS:
        raise ValueError("Acceptable method flags are 'auto', 'direct', or "
                         "'fft'.")
    return _METHODS[method]


# ---- convolution ----------------------------------------------------------


def convolve(in1, in2, mode="full", method="auto"):
    """N-d convolution (scipy.signal.convolve)."""
    return _lib.cn_signal_convolve(in1, in2, _mode(mode), _method(method))


def correlate(in1, in2, mode="full", method="auto"):
    """N-d cross-correlation (scipy.signal.correlate)."""
    return _lib.cn_signal_correlate(in1, in2, _mode(mode), _method(method))


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolution by an FFT product over axes (scipy.signal.fftconvolve)."""
    return _lib.cn_fftconvolve(in1, in2, _mode(mode), axes)


def oaconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.oaconvolve's results; computed as one FFT product of
    the padded size (no overlap-add blocking)."""
    return _lib.cn_fftconvolve(in1, in2, _mode(mode), axes)


_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap",
               "circular": "wrap", "symm": "symmetric",
               "symmetric": "symmetric"}


def _conv2d(in1, in2, mode, boundary, fillvalue, name, corr=False):
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"{name} inputs must both be 2-D arrays")
    m = _mode(mode)
    if boundary not in _BOUNDARIES:
        raise ValueError("Acceptable boundary flags are 'fill', 'wrap' (or "
                         "'circular'), \n and 'symm' (or 'symmetric').")
    if _np.iscomplexobj(fillvalue) and not _cn.iscomplexobj(in1):
        raise ValueError("Cannot use a complex fillvalue with real input")
    if m == 2 or in1.size == 0 or in2.size == 0 or (
            boundary in ("fill", "pad") and fillvalue == 0 and
            not (corr and m == 1)):
        return convolve(in1, in2, mode, "direct")
    kh, kw = in2.shape
    if m == 0:
        pads = ((kh - 1, kh - 1), (kw - 1, kw - 1))
    elif corr:  # SciPy centres a correlation's even kernel the other way
        pads = (((kh - 1) // 2, kh // 2), ((kw - 1) // 2, kw // 2))
    else:
        pads = ((kh // 2, (kh - 1) // 2), (kw // 2, (kw - 1) // 2))
    pmode = _BOUNDARIES[boundary]
    if pmode == "constant":
        padded = _cn.pad(in1, pads, mode="constant",
                         constant_values=fillvalue)
    else:
        padded = _cn.pad(in1, pads, mode=pmode)
    return convolve(padded, in2, "valid", "direct")


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d convolution with a boundary rule (scipy.signal.convolve2d)."""
    return _conv2d(in1, in2, mode, boundary, fillvalue, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d correlation with a boundary rule (scipy.signal.correlate2d)."""
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError("correlate2d inputs must both be 2-D arrays")
    swap = mode == "valid" and any(
        a < b for a, b in zip(in1.shape, in2.shape))
    if swap:  # SciPy correlates in2 with in1 and flips the result
        out = _conv2d(in2, _cn.conj(in1[::-1, ::-1]), mode, boundary,
                      fillvalue, "correlate2d")
        return _cn.ascontiguousarray(out[::-1, ::-1])
    return _conv2d(in1, _cn.conj(in2[::-1, ::-1]), mode, boundary, fillvalue,
                   "correlate2d", corr=True)


# ---- linear filters -----------------------------------------------------


def lfilter(b, a, x, axis=-1, zi=None):
    """IIR/FIR filter along axis (scipy.signal.lfilter); returns y, or
    (y, zf) when zi is given."""
    y, zf = _lib.cn_lfilter(b, a, x, axis, zi)
    return y if zi is None else (y, zf)


def _host_coefs(c, name):
    c = _np.atleast_1d(_np.asarray(_to_numpy(c)))
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"Parameter {name} is not a non-empty 1d array")
    return c


def _lfilter_zi_host(b, a):
    b = _host_coefs(b, "b")
    a = _host_coefs(a, "a")
    a = _np.trim_zeros(a, "f") if a[0] == 0 else a
    if a.size == 0 or a[0] == 0:
        raise ValueError("There must be at least one nonzero `a` "
                         "coefficient.")
    b = b / a[0]
    a = a / a[0]
    n = max(a.size, b.size)
    a = _np.r_[a, _np.zeros(n - a.size)]
    b = _np.r_[b, _np.zeros(n - b.size)]
    if n == 1:
        return _np.zeros(0, dtype=_np.result_type(a, b))
    # steady state of the transposed direct form for a unit step:
    # (I - A) zi = B with A the companion matrix of a
    comp = _np.zeros((n - 1, n - 1), dtype=a.dtype)
    comp[0, :] = -a[1:]
    comp[1:, :-1] += _np.eye(n - 2)
    i_minus_a = _np.eye(n - 1) - comp.T
    rhs = b[1:] - a[1:] * b[0]
    return _np.linalg.solve(i_minus_a, rhs)


def lfilter_zi(b, a):
    """lfilter's initial state for a unit step's steady state
    (scipy.signal.lfilter_zi)."""
    return _asarray(_lfilter_zi_host(b, a))


def sosfilt(sos, x, axis=-1, zi=None):
    """Cascade of second-order sections along axis (scipy.signal.sosfilt);
    returns y, or (y, zf) when zi is given."""
    y, zf = _lib.cn_sosfilt(sos, x, axis, zi)
    return y if zi is None else (y, zf)


def _sos_host(sos):
    sos = _np.atleast_2d(_np.asarray(_to_numpy(sos)))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    if sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not (sos[:, 3] == 1).all():
        raise ValueError("sos[:, 3] should be all ones")
    return sos


def sosfilt_zi(sos):
    """sosfilt's initial state for a unit step's steady state
    (scipy.signal.sosfilt_zi)."""
    sos = _sos_host(sos)
    zi = _np.empty((sos.shape[0], 2), dtype=_np.result_type(sos, 1.0))
    scale = 1.0
    for s in range(sos.shape[0]):
        b, a = sos[s, :3], sos[s, 3:]
        zi[s] = scale * _lfilter_zi_host(b, a)
        scale *= b.sum() / a.sum()
    return _asarray(zi)


def _axis_slice(a, start=None, stop=None, step=None, axis=-1):
    sl = [slice(None)] * a.ndim
    sl[axis] = slice(start, stop, step)
    return a[tuple(sl)]


def _ext(x, n, axis, kind):
    if n < 1:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must "
                         f"not exceed x.shape[axis]-1, which is "
                         f"{x.shape[axis] - 1}.")
    left_end = _axis_slice(x, 0, 1, axis=axis)
    right_end = _axis_slice(x, -1, None, axis=axis)
    if kind == "constant":
        return _cn.concatenate(
            (_cn.repeat(left_end, n, axis=axis), x,
             _cn.repeat(right_end, n, axis=axis)), axis=axis)
    left = _axis_slice(x, n, 0, -1, axis=axis)
    right = _axis_slice(x, -2, -(n + 2), -1, axis=axis)
    if kind == "odd":
        left = 2 * left_end - left
        right = 2 * right_end - right
    return _cn.concatenate((left, x, right), axis=axis)


def _pad_for_filtfilt(x, axis, padtype, padlen, ntaps):
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype. "
                         "padtype must be 'even', 'odd', 'constant', or "
                         "None.")
    edge = 0 if padtype is None else (3 * ntaps if padlen is None
                                      else padlen)
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater "
                         f"than padlen, which is {edge}.")
    return edge, (_ext(x, edge, axis, padtype) if edge > 0 else x)


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad",
             irlen=None):
    """Forward-backward lfilter, zero phase (scipy.signal.filtfilt;
    method='pad' only)."""
    if method != "pad":
        raise NotImplementedError("filtfilt: only method='pad' is supported")
    b = _host_coefs(b, "b")
    a = _host_coefs(a, "a")
    x = _asarray(x)
    if x.ndim == 0:
        raise ValueError("x must have at least one axis")
    axis = _operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _cn.AxisError(f"axis {axis} is out of bounds for array of "
                            f"dimension {x.ndim}")
    axis %= x.ndim
    edge, ext = _pad_for_filtfilt(x, axis, padtype, padlen,
                                  max(len(a), len(b)))
    zi = _lfilter_zi_host(b, a)
    zshape = [1] * x.ndim
    zshape[axis] = zi.size
    zi = _asarray(zi.reshape(zshape))
    x0 = _axis_slice(ext, 0, 1, axis=axis)
    y, _ = lfilter(b, a, ext, axis, zi * x0)
    y0 = _axis_slice(y, -1, None, axis=axis)
    y, _ = lfilter(b, a, _axis_slice(y, None, None, -1, axis=axis), axis,
                   zi * y0)
    y = _axis_slice(y, None, None, -1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, edge, -edge, axis=axis)
    return _cn.ascontiguousarray(y)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """Forward-backward sosfilt, zero phase (scipy.signal.sosfiltfilt)."""
    sos = _sos_host(sos)
    x = _asarray(x)
    if x.ndim == 0:
        raise ValueError("x must have at least one axis")
    axis = _operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _cn.AxisError(f"axis {axis} is out of bounds for array of "
                            f"dimension {x.ndim}")
    axis %= x.ndim
    ns = sos.shape[0]
    ntaps = 2 * ns + 1 - min(int((sos[:, 2] == 0).sum()),
                             int((sos[:, 5] == 0).sum()))
    edge, ext = _pad_for_filtfilt(x, axis, padtype, padlen, ntaps)
    zi = _to_numpy(sosfilt_zi(sos))
    zshape = [1] * x.ndim
    zshape[axis] = 2
    zi = _asarray(zi.reshape([ns] + zshape))
    x0 = _axis_slice(ext, 0, 1, axis=axis)
    y, _ = sosfilt(sos, ext, axis, zi * x0)
    y0 = _axis_slice(y, -1, None, axis=axis)
    y, _ = sosfilt(sos, _axis_slice(y, None, None, -1, axis=axis), axis,
                   zi * y0)
    y = _axis_slice(y, None, None, -1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, edge, -edge, axis=axis)
    return _cn.ascontiguousarray(y)


# ---- rank filters ---------------------------------------------------------


def order_filter(a, domain, rank):
    """N-d rank filter (scipy.signal.order_filter)."""
    return _lib.cn_order_filter(a, domain, _operator.index(rank))


def _kernel_sizes(kernel_size, ndim):
    if kernel_size is None:
        kernel_size = [3] * ndim
    ks = _np.asarray(kernel_size)
    if ks.shape == ():
        ks = _np.repeat(ks.item(), ndim)
    ks = [int(k) for k in ks]
    if len(ks) != ndim:
        raise ValueError("kernel_size must have one entry per dimension")
    for k in ks:
        if k % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    return ks


def medfilt(volume, kernel_size=None):
    """N-d median filter, zero outside the input (scipy.signal.medfilt)."""
    volume = _asarray(volume)
    ks = _kernel_sizes(kernel_size, volume.ndim)
    domain = _np.ones(ks)
    return order_filter(volume, domain, domain.size // 2)


def medfilt2d(input, kernel_size=3):
    """2-d median filter (scipy.signal.medfilt2d)."""
    input = _asarray(input)
    if input.ndim != 2:
        raise ValueError("medfilt2d: input must be 2-D")
    return medfilt(input, _kernel_sizes(kernel_size, 2))


# ---- spectral helpers and detrending ---------------------------------------


def hilbert(x, N=None, axis=-1):
    """Analytic signal by the FFT (scipy.signal.hilbert)."""
    x = _asarray(x)
    if _cn.iscomplexobj(x):
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = _cn.fft.fft(x, N, axis=axis)
    h = _np.zeros(N)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    if x.ndim > 1:
        shape = [1] * x.ndim
        shape[axis] = N
        h = h.reshape(shape)
    return _cn.fft.ifft(Xf * _asarray(h), axis=axis)


def _detrend_linear(seg, axis):
    n = seg.shape[axis]
    shape = [1] * seg.ndim
    shape[axis] = n
    t = _np.arange(n, dtype=_np.float64)
    t -= t.mean()
    tt = _asarray(t.reshape(shape))
    centred = seg - _cn.mean(seg, axis=axis, keepdims=True)
    den = float((t * t).sum())
    if den == 0:
        return centred
    slope = _cn.sum(tt * centred, axis=axis, keepdims=True) / den
    return centred - slope * tt


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """Removes the mean or a (piecewise) least-squares line along axis
    (scipy.signal.detrend)."""
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = _asarray(data)
    if data.dtype.char not in "dfDF":
        data = data.astype(_np.float64)
    if type in ("constant", "c"):
        return data - _cn.mean(data, axis=axis, keepdims=True)
    n = data.shape[axis]
    bps = _np.sort(_np.unique(_np.r_[0, bp, n]))
    if _np.any(bps > n):
        raise ValueError("Breakpoints must be less than length of data "
                         "along given axis.")
    parts = [_detrend_linear(_axis_slice(data, int(lo), int(hi), axis=axis),
                             axis)
             for lo, hi in zip(bps[:-1], bps[1:]) if hi > lo]
    if not parts:
        return data.copy()
    return _cn.concatenate(parts, axis=axis).astype(data.dtype)


# ---- Savitzky-Golay -------------------------------------------------------


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None,
                  use="conv"):
    """Savitzky-Golay FIR coefficients (scipy.signal.savgol_coeffs): the
    least-squares polynomial fit's value (or deriv-th derivative) at pos,
    as a linear function of the window's samples."""
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen - 0.5 if rem == 0 else halflen
    if not 0 <= pos < window_length:
        raise ValueError("pos must be nonnegative and less than "
                         "window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return _asarray(_np.zeros(window_length))
    x = _np.arange(-pos, window_length - pos, dtype=float)
    if use == "conv":
        x = x[::-1]
    order = _np.arange(polyorder + 1).reshape(-1, 1)
    A = x ** order
    y = _np.zeros(polyorder + 1)
    y[deriv] = _np.prod(_np.arange(1, deriv + 1)) / (delta ** deriv)
    coeffs, _, _, _ = _np.linalg.lstsq(A, y, rcond=None)
    return _asarray(coeffs)


def _savgol_edge_fit(x, window_length, polyorder, deriv, delta, axis, y):
    """mode='interp': the outputs within half a window of an edge come from
    a polynomial fit to the first / last window_length samples."""
    n = x.shape[axis]
    half = window_length // 2
    xs = _np.moveaxis(_np.asarray(_to_numpy(x), dtype=_np.float64), axis,
                      -1)
    ys = _np.moveaxis(_np.array(_to_numpy(y)), axis, -1)
    t = _np.arange(window_length, dtype=float)
    for lo, idx in ((0, _np.arange(half)),
                    (n - window_length, _np.arange(n - half, n))):
        win = xs[..., lo:lo + window_length].reshape(-1, window_length)
        poly = _np.polynomial.polynomial
        coef = poly.polyder(poly.polyfit(t, win.T, polyorder), deriv)
        vals = poly.polyval(idx - lo, coef)
        vals = vals.reshape(ys.shape[:-1] + (idx.size,)) / delta ** deriv
        ys[..., idx] = vals
    return _asarray(_np.moveaxis(ys, -1, axis))


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1,
                  mode="interp", cval=0.0):
    """Savitzky-Golay filter (scipy.signal.savgol_filter): the coefficients
    correlated along axis, edges by mode."""
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' "
                         "'wrap' or 'interp'.")
    x = _asarray(x)
    if x.dtype.char not in "df":
        x = x.astype(_np.float64)
    coeffs = savgol_coeffs(window_length, polyorder, deriv=deriv,
                           delta=delta)
    n = x.shape[axis]
    if mode == "interp":
        if window_length > n:
            raise ValueError("If mode is 'interp', window_length must be "
                             "less than or equal to the size of x.")
        pmode = None
    else:
        pmode = {"mirror": "reflect", "constant": "constant",
                 "nearest": "edge", "wrap": "wrap"}[mode]
    shape = [1] * x.ndim
    shape[axis] = window_length
    kern = coeffs.reshape(shape)
    # SciPy's convolve1d origin: an even window reaches one sample further
    # right than left
    pads = [(0, 0)] * x.ndim
    pads[axis] = ((window_length - 1) // 2, window_length // 2)
    if pmode is None:
        padded = _cn.pad(x, pads)
    elif pmode == "reflect" and n == 1:
        padded = _cn.repeat(x, window_length, axis=axis)
    else:
        kw = {"constant_values": cval} if pmode == "constant" else {}
        padded = _cn.pad(x, pads, mode=pmode, **kw)
    y = convolve(padded, kern, "valid")
    if pmode is None:
        y = _savgol_edge_fit(x, window_length, polyorder, deriv, delta, axis,
                             y)
    return y.astype(x.dtype)


# ---- resampling -------------------------------------------------------------


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """Upsample, FIR filter, downsample (scipy.signal.upfirdn; zero
    padding only)."""
    if mode != "constant" or cval != 0:
        raise NotImplementedError("upfirdn: only mode='constant' with "
                                  "cval=0 is supported")
    return _lib.cn_upfirdn(h, x, _operator.index(up), _operator.index(down),
                           axis)


def _output_len(len_h, in_len, up, down):
    return (((in_len - 1) * up + len_h) - 1) // down + 1


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0),
                  padtype="constant", cval=None):
    """Polyphase resampling by up / down (scipy.signal.resample_poly;
    padtype 'constant' with cval None or 0)."""
    if padtype != "constant" or cval not in (None, 0):
        raise NotImplementedError("resample_poly: only padtype='constant' "
                                  "with zero padding is supported")
    x = _asarray(x)
    if up != int(up) or down != int(down):
        raise ValueError("up and down must be integers")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if x.ndim == 0:
        raise ValueError("x must have at least one axis")
    g = _np.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (list, _np.ndarray)) or hasattr(window, "ndim"):
        h = _np.asarray(_to_numpy(window), dtype=float)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
        h = h.copy()
    else:
        max_rate = max(up, down)
        f_c = 1. / max_rate
        half_len = 10 * max_rate
        h = _to_numpy(_firwin(2 * half_len + 1, f_c, window=window))
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(len(h) + n_pre_pad + n_post_pad, n_in, up,
                      down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = _np.concatenate((_np.zeros(n_pre_pad, dtype=h.dtype), h,
                         _np.zeros(n_post_pad, dtype=h.dtype)))
    y = upfirdn(h, x, up, down, axis=axis)
    y = _axis_slice(y, n_pre_remove, n_pre_remove + n_out, axis=axis)
    return _cn.ascontiguousarray(y)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """Fourier resampling to num samples (scipy.signal.resample; domain
    'time', window None or an array/name, t None or sample points)."""
    if domain != "time":
        raise NotImplementedError("resample: only domain='time'")
    x = _asarray(x)
    num = _operator.index(num)
    if num < 0:
        raise ValueError("Number of samples must be non-negative.")
    n = x.shape[axis]
    real = not _cn.iscomplexobj(x)
    X = _cn.fft.rfft(x, axis=axis) if real else _cn.fft.fft(x, axis=axis)
    if window is not None:
        if callable(window):
            W = _np.asarray(window(_np.fft.fftfreq(n)))
        elif isinstance(window, (_np.ndarray, list)) or \
                hasattr(window, "ndim"):
            W = _np.asarray(_to_numpy(window))
            if W.shape != (n,):
                raise ValueError("window must have the same length as data")
        else:
            W = _np.fft.ifftshift(_to_numpy(get_window(window, n)))
        shape = [1] * x.ndim
        if real:  # the half spectrum takes the mean of +f and -f weights
            W = _np.array(W, dtype=float)
            W[1:] = 0.5 * (W[1:] + W[-1:0:-1])
            W = W[:n // 2 + 1]
            shape[axis] = W.size
        else:
            shape[axis] = n
        X = X * _asarray(W.reshape(shape))
    newshape = list(x.shape)
    if real:
        newshape[axis] = num // 2 + 1
    else:
        newshape[axis] = num
    Y = _cn.zeros(newshape, dtype=X.dtype)
    N = min(num, n)
    nyq = N // 2 + 1
    if real:
        Y[_slc(x.ndim, axis, 0, nyq)] = X[_slc(x.ndim, axis, 0, nyq)]
    else:
        Y[_slc(x.ndim, axis, 0, nyq)] = X[_slc(x.ndim, axis, 0, nyq)]
        if N > 2:
            Y[_slc(x.ndim, axis, nyq - N, None)] = \
                X[_slc(x.ndim, axis, nyq - N, None)]
    if N % 2 == 0 and N > 0:
        # the Nyquist bin of the shorter length is split (or folded)
        if num < n:
            if real:
                Y[_slc(x.ndim, axis, N // 2, N // 2 + 1)] = \
                    Y[_slc(x.ndim, axis, N // 2, N // 2 + 1)] * 2.0
            else:
                sl = _slc(x.ndim, axis, N // 2, N // 2 + 1)
                Y[sl] = Y[sl] + X[_slc(x.ndim, axis, n - N // 2,
                                       n - N // 2 + 1)]
        elif num > n:
            sl = _slc(x.ndim, axis, N // 2, N // 2 + 1)
            Y[sl] = Y[sl] * 0.5
            if not real:
                Y[_slc(x.ndim, axis, num - N // 2, num - N // 2 + 1)] = \
                    Y[sl]
    if real:
        y = _cn.fft.irfft(Y, num, axis=axis)
    else:
        y = _cn.fft.ifft(Y, axis=axis)
    y = y * (float(num) / float(n))
    if t is None:
        return y
    t = _np.asarray(_to_numpy(t))
    new_t = _np.arange(0, num) * (t[1] - t[0]) * n / float(num) + t[0]
    return y, _asarray(new_t)


def _slc(ndim, axis, start, stop):
    sl = [slice(None)] * ndim
    sl[axis] = slice(start, stop)
    return tuple(sl)


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """Anti-aliasing filter then downsampling by q (scipy.signal.decimate:
    a Chebyshev I IIR of order 8 or a Hamming FIR of 20 q + 1 taps)."""
    x = _asarray(x)
    q = _operator.index(q)
    if q < 1:
        raise ValueError("q must be a positive integer")
    if n is not None:
        n = _operator.index(n)
    if ftype == "fir":
        if n is None:
            n = 2 * 10 * q
        b = _to_numpy(_firwin(n + 1, 1. / q, window="hamming"))
        if zero_phase:
            return resample_poly(x, 1, q, axis=axis, window=b)
        n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
        y = upfirdn(b, x, 1, q, axis=axis)
        return _cn.ascontiguousarray(_axis_slice(y, None, n_out, axis=axis))
    if ftype != "iir":
        raise ValueError("invalid ftype")
    if n is None:
        n = 8
    sos = _cheby1(n, 0.05, 0.8 / q, output="sos")
    y = sosfiltfilt(sos, x, axis=axis) if zero_phase else \
        sosfilt(sos, x, axis=axis)
    return _cn.ascontiguousarray(_axis_slice(y, None, None, q, axis=axis))


# ---- spectral analysis ----------------------------------------------------


def _window_array(window, nperseg):
    if isinstance(window, str) or isinstance(window, tuple):
        return _np.asarray(_to_numpy(get_window(window, nperseg)))
    win = _np.asarray(_to_numpy(window))
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError("value specified for nperseg is different from "
                         "length of window")
    return win


def _segments(x, nperseg, step):
    """(..., nseg, nperseg) windows of the last axis, start every step."""
    n = x.shape[-1]
    nseg = (n - nperseg) // step + 1
    idx = (_np.arange(nseg)[:, None] * step + _np.arange(nperseg)[None, :])
    return _cn.take(x, _asarray(idx), axis=-1), nseg


def _detrend_segments(seg, detrend):
    if detrend is False or detrend is None:
        return seg
    if callable(detrend):
        return _asarray(detrend(seg))
    if detrend in ("constant", "c"):
        return seg - _cn.mean(seg, axis=-1, keepdims=True)
    if detrend in ("linear", "l"):
        return _detrend_linear(seg, -1)
    raise ValueError("Trend type must be 'linear' or 'constant'.")


def _spectral(x, y, fs, window, nperseg, noverlap, nfft, detrend,
              return_onesided, scaling, axis, mode, boundary=None,
              padded=False):
    """Segment spectra with time last: freqs, times, (..., nfreq, nseg).
    mode 'psd' forms conj(X) Y, 'stft' the scaled transforms."""
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: "
                         "{'psd', 'stft'}")
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling!r}")
    same = y is None
    x = _asarray(x)
    y = x if same else _asarray(y)
    if x.ndim == 0 or x.size == 0:
        raise ValueError("x must be a non-empty array with an axis")
    axis = _operator.index(axis)
    x = _cn.moveaxis(x, axis, -1)
    if not same:
        y = _cn.moveaxis(y, axis, -1)
        if x.shape[-1] != y.shape[-1]:
            raise ValueError("x and y must be equal length along axis")
        shape = _np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
        x = _cn.broadcast_to(x, shape + (x.shape[-1],))
        y = _cn.broadcast_to(y, shape + (y.shape[-1],))
    if x.dtype.char not in "fdFD":
        x = x.astype(_np.float64)
        y = x if same else y.astype(_np.float64)
    n = x.shape[-1]
    if nperseg is not None:
        nperseg = _operator.index(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win_given = not (isinstance(window, (str, tuple)))
    if win_given:
        win_len = len(_to_numpy(window))
        if nperseg is None:
            nperseg = win_len
    elif nperseg is None:
        nperseg = 256
    if boundary is not None:
        ext = {"even": "even", "odd": "odd", "constant": "constant",
               "zeros": None}
        if boundary not in ext:
            raise ValueError(f"Unknown boundary option '{boundary}', must "
                             "be one of: ['even', 'odd', 'constant', "
                             "'zeros', None]")
        half = nperseg // 2
        if ext[boundary] is None:
            pads = [(0, 0)] * x.ndim
            pads[-1] = (half, half)
            x = _cn.pad(x, pads)
            y = x if same else _cn.pad(y, pads)
        else:
            x = _ext(x, half, -1, ext[boundary])
            y = x if same else _ext(y, half, -1, ext[boundary])
        n = x.shape[-1]
    if nperseg > n and not win_given:
        import warnings
        warnings.warn(f"nperseg = {nperseg:d} is greater than input length "
                      f" = {n:d}, using nperseg = {n:d}", stacklevel=3)
        nperseg = n
    win = _window_array(window, nperseg)
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap is None:
        noverlap = nperseg // 2
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    if padded:
        nadd = (-(n - nperseg) % step) % nperseg
        if nadd:
            pads = [(0, 0)] * x.ndim
            pads[-1] = (0, nadd)
            x = _cn.pad(x, pads)
            y = x if same else _cn.pad(y, pads)
            n = x.shape[-1]
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    else:
        scale = 1.0 / win.sum() ** 2
    if mode == "stft":
        scale = _np.sqrt(scale)
    cplx = _cn.iscomplexobj(x) or _cn.iscomplexobj(y) or \
        _np.iscomplexobj(win)
    sides = "twosided" if (cplx or not return_onesided) else "onesided"
    wdt = _np.float32 if x.dtype.char in "fF" else _np.float64
    wa = _asarray(win.astype(wdt) if not _np.iscomplexobj(win) else win)

    def spectra(v):
        seg, _ = _segments(v, nperseg, step)
        seg = _detrend_segments(seg, detrend) * wa
        return (_cn.fft.rfft(seg, nfft, axis=-1) if sides == "onesided"
                else _cn.fft.fft(seg, nfft, axis=-1))

    fx = spectra(x)
    if mode == "stft":
        res = fx * scale
    else:
        fy = fx if same else spectra(y)
        res = _cn.conj(fx) * fy * scale
        if sides == "onesided":
            last = -1 if nfft % 2 == 0 else None
            sl = (Ellipsis, slice(1, last))
            res[sl] = res[sl] * 2
    if sides == "onesided":
        freqs = _np.fft.rfftfreq(nfft, 1 / fs)
    else:
        freqs = _np.fft.fftfreq(nfft, 1 / fs)
    nseg = res.shape[-2]
    times = (_np.arange(nseg) * step + nperseg / 2) / float(fs)
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    if x.dtype.char in "fF" and res.dtype.char == "D":
        res = res.astype(_np.complex64)
    res = _cn.moveaxis(res, -1, -2)  # (..., nfreq, nseg)
    return freqs, times, res


def _finish_avg(p, average, axis, nd):
    """Mean (or median) over the segment axis, the frequency axis moved
    back to axis."""
    if p.shape[-1] > 1:
        if average == "median":
            # the median of chi-square(2) values over-estimates the mean
            ii = 2 * _np.arange(1., (p.shape[-1] - 1) // 2 + 1)
            bias = 1 + _np.sum(1. / (ii + 1) - 1. / ii)
            if _cn.iscomplexobj(p):
                p = (_cn.median(_cn.real(p), axis=-1) +
                     1j * _cn.median(_cn.imag(p), axis=-1))
            else:
                p = _cn.median(p, axis=-1)
            p = p / bias
        elif average == "mean":
            p = _cn.mean(p, axis=-1)
        else:
            raise ValueError(f'average must be "median" or "mean", got '
                             f'{average}')
    else:
        p = p[..., 0]
    if nd > 1:
        p = _cn.moveaxis(p, -1, axis)
    return _cn.ascontiguousarray(p)


def csd(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density",
        axis=-1, average="mean"):
    """Cross spectral density by Welch's method (scipy.signal.csd)."""
    if average not in ("mean", "median"):
        raise ValueError(f'average must be "median" or "mean", got '
                         f'{average}')
    f, _, p = _spectral(x, y, fs, window, nperseg, noverlap, nfft, detrend,
                        return_onesided, scaling, axis, "psd")
    nd = max(_asarray(x).ndim, _asarray(y).ndim)
    return _asarray(f), _finish_avg(p, average, axis, nd)


def welch(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,
          detrend="constant", return_onesided=True, scaling="density",
          axis=-1, average="mean"):
    """Power spectral density by Welch's method (scipy.signal.welch)."""
    if average not in ("mean", "median"):
        raise ValueError(f'average must be "median" or "mean", got '
                         f'{average}')
    f, _, p = _spectral(x, None, fs, window, nperseg, noverlap, nfft,
                        detrend, return_onesided, scaling, axis, "psd")
    p = _finish_avg(p, average, axis, _asarray(x).ndim)
    return _asarray(f), _cn.real(p)


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    """Power spectral density by one windowed segment
    (scipy.signal.periodogram)."""
    x = _asarray(x)
    if x.size == 0:
        return _asarray(_np.empty(x.shape)), _asarray(_np.empty(x.shape))
    n = x.shape[axis]
    if window is None:
        window = "boxcar"
    if nfft is None:
        nperseg = n
    elif nfft == n:
        nperseg = nfft
    elif nfft > n:
        nperseg = n
    else:
        x = _axis_slice(x, None, nfft, axis=axis)
        nperseg = nfft
        nfft = None
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0,
                 nfft=nfft, detrend=detrend, return_onesided=return_onesided,
                 scaling=scaling, axis=axis)


def coherence(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None,
              nfft=None, detrend="constant", axis=-1):
    """Magnitude-squared coherence ``abs(Pxy)**2 / (Pxx * Pyy)``
    (scipy.signal.coherence)."""
    freqs, Pxx = welch(x, fs=fs, window=window, nperseg=nperseg,
                       noverlap=noverlap, nfft=nfft, detrend=detrend,
                       axis=axis)
    _, Pyy = welch(y, fs=fs, window=window, nperseg=nperseg,
                   noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    _, Pxy = csd(x, y, fs=fs, window=window, nperseg=nperseg,
                 noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    return freqs, _cn.abs(Pxy) ** 2 / Pxx / Pyy


def _time_axis_back(s, axis, nd):
    """(..., nfreq, nseg) with the frequency axis at axis, time last, as
    SciPy returns spectrograms of an axis other than the last."""
    if nd > 1 and axis % nd != nd - 1:
        s = _cn.moveaxis(s, -2, axis)
    return s


def spectrogram(x, fs=1.0, window=("tukey", .25), nperseg=None,
                noverlap=None, nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1,
                mode="psd"):
    """Spectrogram of consecutive segments (scipy.signal.spectrogram;
    modes psd, complex, magnitude, angle, phase)."""
    modes = ("psd", "complex", "magnitude", "angle", "phase")
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of "
                         f"{modes}")
    x = _asarray(x)
    if nperseg is None and isinstance(window, (str, tuple)):
        nperseg = 256
    if nperseg is not None and nperseg > x.shape[axis] and \
            isinstance(window, (str, tuple)):
        import warnings
        warnings.warn(f"nperseg = {nperseg:d} is greater than input length "
                      f" = {x.shape[axis]:d}, using nperseg = "
                      f"{x.shape[axis]:d}", stacklevel=2)
        nperseg = x.shape[axis]
    if noverlap is None:
        n = nperseg if nperseg is not None else len(_to_numpy(window))
        noverlap = n // 8
    if mode == "psd":
        f, t, s = _spectral(x, None, fs, window, nperseg, noverlap, nfft,
                            detrend, return_onesided, scaling, axis, "psd")
        s = _cn.real(s)
    else:
        f, t, s = _spectral(x, None, fs, window, nperseg, noverlap, nfft,
                            detrend, return_onesided, scaling, axis, "stft")
        if mode == "magnitude":
            s = _cn.abs(s)
        elif mode in ("angle", "phase"):
            s = _cn.angle(s)
            if mode == "phase":
                s = _asarray(_np.unwrap(_to_numpy(s), axis=-2))
    s = _time_axis_back(s, axis, x.ndim)
    return _asarray(f), _asarray(t), _cn.ascontiguousarray(s)


def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True,
         axis=-1, scaling="spectrum"):
    """Short-time Fourier transform (scipy.signal.stft)."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    x = _asarray(x)
    f, t, z = _spectral(x, None, fs, window, nperseg, noverlap, nfft,
                        detrend, return_onesided, scaling, axis, "stft",
                        boundary=boundary, padded=padded)
    z = _time_axis_back(z, axis, x.ndim)
    return _asarray(f), _asarray(t), _cn.ascontiguousarray(z)


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None,
          nfft=None, input_onesided=True, boundary=True, time_axis=-1,
          freq_axis=-2, scaling="spectrum"):
    """Inverse short-time Fourier transform by weighted overlap-add
    (scipy.signal.istft)."""
    Z = _asarray(Zxx)
    if Z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis % Z.ndim == time_axis % Z.ndim:
        raise ValueError("Must specify differing time and frequency axes!")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    nseg = Z.shape[time_axis]
    n_default = 2 * (Z.shape[freq_axis] - 1) if input_onesided else \
        Z.shape[freq_axis]
    nperseg = n_default if nperseg is None else _operator.index(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 \
            else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    fa, ta = freq_axis % Z.ndim, time_axis % Z.ndim
    Z = _cn.moveaxis(Z, (fa, ta), (-2, -1))
    win = _window_array(window, nperseg)
    xsubs = (_cn.fft.irfft(Z, nfft, axis=-2) if input_onesided
             else _cn.fft.ifft(Z, nfft, axis=-2))[..., :nperseg, :]
    if scaling == "spectrum":
        xsubs = xsubs * float(win.sum())
    else:
        xsubs = xsubs * float(_np.sqrt(fs * (win * win).sum()))
    wa = _asarray(win.reshape(-1, 1))
    seg = _cn.moveaxis(xsubs * wa, -1, -2)  # (..., nseg, nperseg)
    outlen = nperseg + (nseg - 1) * nstep
    lead = tuple(seg.shape[:-2])
    # segments m apart never overlap: each residue class is one reshape
    m = -(-nperseg // nstep)
    x = _cn.zeros(lead + (outlen + m * nstep,), dtype=seg.dtype)
    for r in range(min(m, nseg)):
        g = seg[..., r::m, :]
        ng = g.shape[-2]
        pads = [(0, 0)] * g.ndim
        pads[-1] = (0, m * nstep - nperseg)
        flat = _cn.reshape(_cn.pad(g, pads), lead + (ng * m * nstep,))
        sl = (Ellipsis, slice(r * nstep, r * nstep + ng * m * nstep))
        x[sl] = x[sl] + flat
    x = x[..., :outlen]
    norm = _np.zeros(outlen)
    w2 = win.real ** 2 if _np.iscomplexobj(win) else win ** 2
    for ii in range(nseg):
        norm[ii * nstep:ii * nstep + nperseg] += w2
    if boundary:
        h = nperseg // 2
        x = x[..., h:-h] if h else x
        norm = norm[h:-h] if h else norm
    if _np.sum(norm > 1e-10) != len(norm):
        import warnings
        warnings.warn("NOLA condition failed, STFT may not be invertible.",
                      stacklevel=2)
    x = x / _asarray(_np.where(norm > 1e-10, norm, 1.0))
    if input_onesided:
        x = _cn.real(x)
    if x.ndim > 1 and ta != Z.ndim - 1:
        t_ax = ta - 1 if fa < ta else ta
        x = _cn.moveaxis(x, -1, t_ax)
    time = _np.arange(x.shape[0]) / float(fs)  # SciPy counts axis 0
    return _asarray(time), _cn.ascontiguousarray(x)


def wiener(im, mysize=None, noise=None):
    """Wiener filter from the local mean and variance
    (scipy.signal.wiener)."""
    im = _asarray(im)
    if mysize is None:
        mysize = [3] * im.ndim
    mysize = _np.asarray(mysize)
    if mysize.shape == ():
        mysize = _np.repeat(mysize.item(), im.ndim)
    size = int(_np.prod(mysize))
    ones = _np.ones(tuple(int(v) for v in mysize))
    lmean = correlate(im, ones, "same") / size
    lvar = correlate(im ** 2, ones, "same") / size - lmean ** 2
    if noise is None:
        noise = _cn.mean(_cn.ravel(lvar), axis=0)
    res = (im - lmean) * (1 - noise / lvar) + lmean
    return _cn.where(lvar < noise, lmean, res)
