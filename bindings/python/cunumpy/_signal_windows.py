"""scipy.signal.windows: window functions, computed in float64 on the host
(a window is a small design vector) and returned as cunumpy arrays.
Reached as cunumpy.signal.windows.

sym=True gives the symmetric window (filter design); sym=False the
periodic one (spectral analysis): the symmetric window of M + 1 points
without its last point, as SciPy.
"""

import operator as _operator

import numpy as _np

from ._convert import asarray as _asarray

_PUBLIC = ["general_cosine", "boxcar", "triang", "bartlett", "hann",
           "hamming", "general_hamming", "blackman", "blackmanharris",
           "nuttall", "flattop", "kaiser", "gaussian", "general_gaussian",
           "tukey", "cosine", "exponential", "chebwin", "dpss",
           "get_window"]


def _len_guard(M):
    try:
        m = _operator.index(M)
    except TypeError:
        raise ValueError("Window length M must be a non-negative integer")
    if m < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return m


def _extend(M, sym):
    return (M, False) if sym else (M + 1, True)


def _finish(w, trunc):
    return _asarray(w[:-1] if trunc else w)


def _trivial(M):
    return M <= 1


def general_cosine(M, a, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    fac = _np.linspace(-_np.pi, _np.pi, M)
    w = _np.zeros(M)
    for k, ak in enumerate(a):
        w += ak * _np.cos(k * fac)
    return _finish(w, trunc)


def boxcar(M, sym=True):
    M = _len_guard(M)
    return _asarray(_np.ones(M))


def triang(M, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    n = _np.arange(1, (M + 1) // 2 + 1)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        w = _np.r_[w, w[::-1]]
    else:
        w = 2 * n / (M + 1.0)
        w = _np.r_[w, w[-2::-1]]
    return _finish(w, trunc)


def bartlett(M, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    n = _np.arange(0, M)
    w = _np.where(_np.less_equal(n, (M - 1) / 2.0), 2.0 * n / (M - 1),
                  2.0 - 2.0 * n / (M - 1))
    return _finish(w, trunc)


def general_hamming(M, alpha, sym=True):
    return general_cosine(M, [alpha, 1.0 - alpha], sym)


def hann(M, sym=True):
    return general_hamming(M, 0.5, sym)


def hamming(M, sym=True):
    return general_hamming(M, 0.54, sym)


def blackman(M, sym=True):
    return general_cosine(M, [0.42, 0.50, 0.08], sym)


def blackmanharris(M, sym=True):
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym)


def nuttall(M, sym=True):
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411],
                          sym)


def flattop(M, sym=True):
    return general_cosine(M, [0.21557895, 0.41663158, 0.277263158,
                              0.083578947, 0.006947368], sym)


def kaiser(M, beta, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    n = _np.arange(0, M)
    alpha = (M - 1) / 2.0
    w = _np.i0(beta * _np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / \
        _np.i0(float(beta))
    return _finish(w, trunc)


def gaussian(M, std, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    n = _np.arange(0, M) - (M - 1.0) / 2.0
    w = _np.exp(-n ** 2 / (2 * std * std))
    return _finish(w, trunc)


def general_gaussian(M, p, sig, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    n = _np.arange(0, M) - (M - 1.0) / 2.0
    w = _np.exp(-0.5 * _np.abs(n / sig) ** (2 * p))
    return _finish(w, trunc)


def tukey(M, alpha=0.5, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    if alpha <= 0:
        return _asarray(_np.ones(M))
    if alpha >= 1.0:
        return hann(M, sym=sym)
    M, trunc = _extend(M, sym)
    n = _np.arange(0, M)
    width = int(_np.floor(alpha * (M - 1) / 2.0))
    n1 = n[0:width + 1]
    n2 = n[width + 1:M - width - 1]
    n3 = n[M - width - 1:]
    w1 = 0.5 * (1 + _np.cos(_np.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w2 = _np.ones(n2.shape)
    w3 = 0.5 * (1 + _np.cos(_np.pi * (-2.0 / alpha + 1 +
                                      2.0 * n3 / alpha / (M - 1))))
    return _finish(_np.concatenate((w1, w2, w3)), trunc)


def cosine(M, sym=True):
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    w = _np.sin(_np.pi / M * (_np.arange(0, M) + 0.5))
    return _finish(w, trunc)


def exponential(M, center=None, tau=1., sym=True):
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    n = _np.arange(0, M)
    w = _np.exp(-_np.abs(n - center) / tau)
    return _finish(w, trunc)


def chebwin(M, at, sym=True):
    """Dolph-Chebyshev window of attenuation at dB: the inverse DFT of the
    Chebyshev polynomial of order M - 1 sampled on beta * cos(pi k / M)."""
    M = _len_guard(M)
    if _trivial(M):
        return _asarray(_np.ones(M))
    M, trunc = _extend(M, sym)
    order = M - 1.0
    beta = _np.cosh(1.0 / order * _np.arccosh(10 ** (_np.abs(at) / 20.)))
    k = _np.r_[0:M] * 1.0
    x = beta * _np.cos(_np.pi * k / M)
    p = _np.zeros(x.shape)
    big, small = x > 1, x < -1
    mid = _np.abs(x) <= 1
    p[big] = _np.cosh(order * _np.arccosh(x[big]))
    p[small] = (2 * (M % 2) - 1) * _np.cosh(order * _np.arccosh(-x[small]))
    p[mid] = _np.cos(order * _np.arccos(x[mid]))
    if M % 2:
        w = _np.real(_np.fft.fft(p))
        n = (M + 1) // 2
        w = w[:n]
        w = _np.concatenate((w[n - 1:0:-1], w))
    else:
        p = p * _np.exp(1.j * _np.pi / M * _np.r_[0:M])
        w = _np.real(_np.fft.fft(p))
        n = M // 2 + 1
        w = _np.concatenate((w[n - 1:0:-1], w[1:n]))
    w = w / max(w)
    return _finish(w, trunc)


def dpss(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False):
    """Discrete prolate spheroidal (Slepian) sequences: the eigenvectors of
    the symmetric tridiagonal matrix of Slepian's commuting operator with
    the largest eigenvalues, even ones summing positive and odd ones
    starting positive."""
    if norm is None:
        norm = 'approximate' if Kmax is None else 2
    if norm not in ('approximate', 'subsample', 2):
        raise ValueError('norm must be "approximate", "subsample", or 2')
    singleton = Kmax is None
    if singleton:
        Kmax = 1
    Kmax = _operator.index(Kmax)
    M = _len_guard(M)
    if not 0 < Kmax <= M:
        raise ValueError('Kmax must be greater than 0 and less than M')
    if NW >= M / 2.:
        raise ValueError('NW must be less than M/2.')
    if NW <= 0:
        raise ValueError('NW must be positive')
    if M <= 1:
        w = _np.ones((Kmax, M))
        r = _np.ones(Kmax)
    else:
        M, trunc = _extend(M, sym)
        W = float(NW) / M
        nidx = _np.arange(M)
        d = ((M - 1 - 2 * nidx) / 2.) ** 2 * _np.cos(2 * _np.pi * W)
        e = nidx[1:] * (M - nidx[1:]) / 2.
        T = _np.diag(d) + _np.diag(e, 1) + _np.diag(e, -1)
        vals, vecs = _np.linalg.eigh(T)
        w = vecs[:, ::-1][:, :Kmax].T.copy()
        fix_even = w[::2].sum(axis=1) < 0
        for i, f in enumerate(fix_even):
            if f:
                w[2 * i] *= -1
        thresh = max(1e-7, 1. / M)
        for i, win in enumerate(w[1::2]):
            if win[_np.argmax(win ** 2 > thresh)] < 0:
                w[2 * i + 1] *= -1
        if return_ratios:
            dpss_rxx = _np.array([_np.correlate(v, v, 'full')[M - 1:]
                                  for v in w])
            r = 4 * W * _np.sinc(2 * W * nidx)
            r[0] = 2 * W
            r = _np.dot(dpss_rxx, r)
        if norm != 2:
            w /= w.max()
            if M % 2 == 0:
                if norm == 'approximate':
                    correction = M ** 2 / float(M ** 2 + NW)
                else:
                    s = _np.fft.rfft(w[0])
                    shift = -(1 - 1. / M) * _np.arange(1, M // 2 + 1)
                    s[1:] *= 2 * _np.exp(-1j * _np.pi * shift)
                    correction = M / s.real.sum()
                w *= correction
        if trunc:
            w = w[:, :-1]
    if singleton:
        w = w[0]
        r = r[0] if return_ratios else None
    w = _asarray(w)
    return (w, _asarray(r)) if return_ratios else w


# name -> (function, number of required parameters); aliases as SciPy's
_WINDOWS = {}
for _names, _fn, _npar in (
        (("boxcar", "box", "ones", "rect", "rectangular"), boxcar, 0),
        (("triang", "triangle", "tri"), triang, 0),
        (("bartlett", "bart", "brt"), bartlett, 0),
        (("hann", "han"), hann, 0),
        (("hamming", "hamm", "ham"), hamming, 0),
        (("blackman", "black", "blk"), blackman, 0),
        (("blackmanharris", "blackharr", "bkh"), blackmanharris, 0),
        (("nuttall", "nutl", "nut"), nuttall, 0),
        (("flattop", "flat", "flt"), flattop, 0),
        (("kaiser", "ksr"), kaiser, 1),
        (("gaussian", "gauss", "gss"), gaussian, 1),
        (("general_gaussian", "general gaussian", "general gauss",
          "general_gauss", "ggs"), general_gaussian, 2),
        (("tukey", "tuk"), tukey, 0),
        (("cosine", "halfcosine"), cosine, 0),
        (("exponential", "poisson"), exponential, 0),
        (("chebwin", "cheb"), chebwin, 1),
        (("dpss",), dpss, 1),
        (("general_cosine",), general_cosine, 1),
        (("general_hamming",), general_hamming, 1)):
    for _n in _names:
        _WINDOWS[_n] = (_fn, _npar)


def get_window(window, Nx, fftbins=True):
    """A window by name (or (name, parameters...) tuple, or a float: the
    Kaiser beta); fftbins=True gives the periodic form."""
    sym = not fftbins
    try:
        nx = _operator.index(Nx)
    except TypeError:
        nx = -1
    if nx <= 0:
        raise ValueError(f"Parameter Nx={Nx!r} is not a positive integer")
    if isinstance(window, (int, float)) and not isinstance(window, bool):
        return kaiser(Nx, window, sym=sym)
    if isinstance(window, tuple):
        name, args = window[0], tuple(window[1:])
    elif isinstance(window, str):
        name, args = window, ()
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if not isinstance(name, str) or name not in _WINDOWS:
        raise ValueError(f"Unknown window type {name!r}.")
    fn, npar = _WINDOWS[name]
    if len(args) < npar:
        raise ValueError(f"The {name!r} window needs one or more parameters "
                         "-- pass a tuple.")
    if fn is exponential and not sym:
        return exponential(Nx, *args, sym=False) if len(args) else \
            exponential(Nx, None, sym=False)
    return fn(Nx, *args, sym=sym)


del _names, _fn, _npar, _n
