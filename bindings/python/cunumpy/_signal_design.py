"""Filter design for cunumpy.signal (scipy.signal's names): FIR windows
(firwin, firwin2) and IIR prototypes (Butterworth, Chebyshev I and II,
Bessel, elliptic)
through the analog transforms and the bilinear map, in ba, zpk and sos
forms; frequency responses (freqz, sosfreqz). The design math is small
float64 work on the host (NumPy); results are cunumpy arrays.
"""

import math as _math
import operator as _operator

import numpy as _np

from ._backend import to_numpy as _to_numpy
from ._convert import asarray as _asarray
from . import _signal_windows as _windows

_PUBLIC = ["firwin", "firwin2", "kaiser_beta", "kaiser_atten",
           "kaiserord", "buttap", "cheb1ap", "cheb2ap", "zpk2tf", "tf2zpk",
           "zpk2sos", "bilinear_zpk", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk",
           "lp2bs_zpk", "iirfilter", "butter", "cheby1", "cheby2", "bessel",
           "besselap", "ellip", "ellipap", "freqz",
           "sosfreqz", "freqz_sos"]


def _h(a):
    return _np.asarray(_to_numpy(a))


# ---- FIR ------------------------------------------------------------------


def kaiser_atten(numtaps, width):
    return 2.285 * (numtaps - 1) * _np.pi * width + 7.95


def kaiser_beta(a):
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiserord(ripple, width):
    A = abs(ripple)
    if A < 8:
        raise ValueError("Requested maximum ripple attenuation "
                         f"{A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (_np.pi * width) + 1
    return int(_np.ceil(numtaps)), beta


def firwin(numtaps, cutoff, *, width=None, window="hamming", pass_zero=True,
           scale=True, fs=None):
    """Windowed-sinc FIR design (scipy.signal.firwin)."""
    nyq = 0.5 * (2 if fs is None else fs)
    cutoff = _np.atleast_1d(_np.asarray(cutoff, dtype=float)) / float(nyq)
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most "
                         "one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be "
                         "greater than 0 and less than fs/2.")
    if _np.any(_np.diff(cutoff) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must "
                         "be strictly increasing.")
    if width is not None:
        atten = kaiser_atten(numtaps, float(width) / nyq)
        window = ("kaiser", kaiser_beta(atten))
    if isinstance(pass_zero, str):
        if pass_zero in ("bandstop", "lowpass"):
            if pass_zero == "lowpass" and cutoff.size != 1:
                raise ValueError("cutoff must have one element if "
                                 f"pass_zero=='lowpass', got {cutoff.shape}")
            elif pass_zero == "bandstop" and cutoff.size <= 1:
                raise ValueError("cutoff must have at least two elements if "
                                 f"pass_zero=='bandstop', got "
                                 f"{cutoff.shape}")
            pass_zero = True
        elif pass_zero in ("bandpass", "highpass"):
            if pass_zero == "highpass" and cutoff.size != 1:
                raise ValueError("cutoff must have one element if "
                                 "pass_zero=='highpass', got "
                                 f"{cutoff.shape}")
            elif pass_zero == "bandpass" and cutoff.size <= 1:
                raise ValueError("cutoff must have at least two elements if "
                                 f"pass_zero=='bandpass', got "
                                 f"{cutoff.shape}")
            pass_zero = False
        else:
            raise ValueError("pass_zero must be True, False, 'bandpass', "
                             "'lowpass', 'highpass', or 'bandstop', got "
                             f"{pass_zero}")
    pass_zero = bool(pass_zero)
    pass_nyquist = bool(cutoff.size & 1) ^ pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must "
                         "have zero response at the Nyquist frequency.")
    cutoff = _np.hstack(([0.0] * pass_zero, cutoff, [1.0] * pass_nyquist))
    bands = cutoff.reshape(-1, 2)
    alpha = 0.5 * (numtaps - 1)
    m = _np.arange(0, numtaps) - alpha
    h = 0
    for left, right in bands:
        h = h + right * _np.sinc(right * m)
        h = h - left * _np.sinc(left * m)
    win = _h(_windows.get_window(window, numtaps, fftbins=False))
    h = h * win
    if scale:
        left, right = bands[0]
        if left == 0:
            scale_frequency = 0.0
        elif right == 1:
            scale_frequency = 1.0
        else:
            scale_frequency = 0.5 * (left + right)
        c = _np.cos(_np.pi * m * scale_frequency)
        h = h / _np.sum(h * c)
    return _asarray(h)


def firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming",
            antisymmetric=False, fs=None):
    """FIR design by frequency sampling (scipy.signal.firwin2)."""
    nyq = 0.5 * (2 if fs is None else fs)
    freq = _np.asarray(freq, dtype=float)
    gain = _np.asarray(gain, dtype=float)
    if len(freq) != len(gain):
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f"ntaps must be less than nfreqs, but "
                         f"firwin2 was called with ntaps={numtaps} and "
                         f"nfreqs={nfreqs}")
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2")
    d = _np.diff(freq)
    if (d < 0).any():
        raise ValueError("The values in freq must be nondecreasing.")
    d2 = d[:-1] + d[1:]
    if (d2 == 0).any():
        raise ValueError("A value in freq must not occur more than twice.")
    if freq[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if freq[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    if antisymmetric:
        ftype = 3 if numtaps % 2 == 0 else 4
    else:
        ftype = 2 if numtaps % 2 == 0 else 1
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the "
                         "Nyquist frequency.")
    elif ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero "
                         "and Nyquist frequencies.")
    elif ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero "
                         "frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(_math.ceil(_math.log(numtaps, 2)))
    if (d == 0).any():
        # a jump: nudge the repeated frequency by a tiny step
        freq = _np.array(freq, copy=True)
        eps = _np.finfo(float).eps * nyq
        for k in range(len(freq) - 1):
            if freq[k] == freq[k + 1]:
                freq[k] = freq[k] - eps
                freq[k + 1] = freq[k + 1] + eps
        if _np.any(_np.diff(freq) <= 0):
            raise ValueError("freq cannot contain numbers that are too close "
                             "(within eps * (fs/2): {eps}) to a repeated "
                             "value")
    x = _np.linspace(0.0, nyq, nfreqs)
    fx = _np.interp(x, freq, gain)
    shift = _np.exp(-(numtaps - 1) / 2. * 1.j * _np.pi * x / nyq)
    if ftype > 2:
        shift *= 1j
    fx2 = fx * shift
    out_full = _np.fft.irfft(fx2)
    if window is not None:
        wind = _h(_windows.get_window(window, numtaps, fftbins=False))
    else:
        wind = 1
    out = out_full[:numtaps] * wind
    if ftype == 3:
        out[out.size // 2] = 0.0
    return _asarray(out)


# ---- IIR: prototypes, transforms, forms ------------------------------------


def buttap(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    z = _np.array([])
    m = _np.arange(-N + 1, N, 2)
    p = -_np.exp(1j * _np.pi * m / (2 * N))
    return z, p, 1


def cheb1ap(N, rp):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return _np.array([]), _np.array([]), 10 ** (-rp / 20)
    z = _np.array([])
    eps = _np.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * _np.arcsinh(1 / eps)
    m = _np.arange(-N + 1, N, 2)
    theta = _np.pi * m / (2 * N)
    p = -_np.sinh(mu + 1j * theta)
    k = _np.prod(-p, axis=0).real
    if N % 2 == 0:
        k = k / _np.sqrt(1 + eps * eps)
    return z, p, k


def cheb2ap(N, rs):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return _np.array([]), _np.array([]), 1
    de = 1.0 / _np.sqrt(10 ** (0.1 * rs) - 1)
    mu = _np.arcsinh(1.0 / de) / N
    if N % 2:
        m = _np.concatenate((_np.arange(-N + 1, 0, 2),
                             _np.arange(2, N, 2)))
    else:
        m = _np.arange(-N + 1, N, 2)
    z = -_np.conjugate(1j / _np.sin(m * _np.pi / (2.0 * N)))
    p = -_np.exp(1j * _np.pi * _np.arange(-N + 1, N, 2) / (2 * N))
    p = _np.sinh(mu) * p.real + 1j * _np.cosh(mu) * p.imag
    p = 1.0 / p
    k = (_np.prod(-p, axis=0) / _np.prod(-z, axis=0)).real
    return z, p, k


def besselap(N, norm="phase"):
    """Bessel-Thomson prototype: the roots of the reverse Bessel
    polynomial, scaled for norm 'phase' (asymptotes of a Butterworth),
    'delay' (unit group delay) or 'mag' (-3 dB at 1 rad/s)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    N = int(N)
    if N == 0:
        return _np.array([]), _np.array([]), 1.0
    # theta_N(s) = sum_k (N + k)! / (2^k k! (N - k)!) s^(N - k)
    c = [_math.factorial(N + k) // (2 ** k * _math.factorial(k) *
                                    _math.factorial(N - k))
         for k in range(N + 1)]
    p = _np.roots(_np.array(c, dtype=float)).astype(complex)
    # polish the roots by Newton steps on the exact polynomial
    for _ in range(3):
        p = p - _np.polyval(c, p) / _np.polyval(_np.polyder(c), p)
    p = p[_np.lexsort((p.imag, p.real))]
    a_last = float(c[-1])
    if norm == "phase":
        p = p * 10 ** (-_math.log10(a_last) / N)
        k = 1.0
    elif norm == "delay":
        k = a_last
    elif norm == "mag":
        # the -3 dB frequency of the delay-normalised filter, by bisection
        def mag(w):
            return abs(a_last / _np.prod(1j * w - p))
        lo, hi = 0.0, 1.0
        while mag(hi) > 1 / _np.sqrt(2):
            hi *= 2
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if mag(mid) > 1 / _np.sqrt(2):
                lo = mid
            else:
                hi = mid
        w3 = 0.5 * (lo + hi)
        p = p / w3
        k = w3 ** -N * a_last
    else:
        raise ValueError("normalization not understood")
    return _np.array([]), p, k


# ---- elliptic (Cauer) prototype: complete integrals and Jacobi functions
# by the arithmetic-geometric mean, the degree equation by nome series ----


def _agm(a, b):
    for _ in range(64):
        if abs(a - b) <= 1e-16 * abs(a):
            break
        a, b = 0.5 * (a + b), _np.sqrt(a * b)
    return a


def _ellipk(m):
    """K(m) = pi / (2 agm(1, sqrt(1 - m)))."""
    return _np.pi / (2 * _agm(1.0, _np.sqrt(1.0 - m)))


def _ellipkm1(p):
    """K(1 - p), accurate for small p."""
    return _np.pi / (2 * _agm(1.0, _np.sqrt(p)))


def _ellipj(u, m):
    """Jacobi sn, cn, dn of u (array) for parameter m in [0, 1), by the
    descending Landen / AGM scheme."""
    u = _np.asarray(u, dtype=float)
    a, b, c = [1.0], [_np.sqrt(1.0 - m)], [_np.sqrt(m)]
    while abs(c[-1]) > 1e-16 and len(a) < 64:
        a.append(0.5 * (a[-1] + b[-1]))
        b.append(_np.sqrt(a[-2] * b[-1]))
        c.append(0.5 * (a[-2] - b[-2]))
    n = len(a) - 1
    phi = (2.0 ** n) * a[n] * u
    phis = [phi]
    for i in range(n, 0, -1):
        phi = 0.5 * (phi + _np.arcsin(c[i] / a[i] * _np.sin(phi)))
        phis.append(phi)
    phi0 = phis[-1]
    phi1 = phis[-2] if len(phis) > 1 else phi0
    sn, cn = _np.sin(phi0), _np.cos(phi0)
    dn = cn / _np.cos(phi1 - phi0) if n else _np.ones_like(u)
    return sn, cn, dn


def _pow10m1(x):
    return _np.expm1(x * _np.log(10))


def _ellipdeg(n, m1):
    """The parameter m of an order-n elliptic filter with degree m1 (the
    nome of m is the n-th root of m1's)."""
    K1 = _ellipk(m1)
    K1p = _ellipkm1(m1)
    q1 = _np.exp(-_np.pi * K1p / K1)
    q = q1 ** (1.0 / n)
    mnum = sum(q ** (j * (j + 1)) for j in range(8))
    mden = 1 + 2 * sum(q ** (j * j) for j in range(1, 8))
    return 16 * q * (mnum / mden) ** 4


def _arc_jac_sn(w, m):
    """Inverse Jacobi sn for complex w by ascending Landen steps."""
    def comp(kx):
        return ((1 - kx) * (1 + kx)) ** 0.5
    k = m ** 0.5
    if k > 1:
        return _np.nan
    if k == 1:
        return _np.arctanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = comp(ks[-1])
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > 12:
            raise ValueError("Landen transformation not converging")
    K = _np.prod(1 + _np.array(ks[1:])) * _np.pi / 2
    wn = w
    for kn, knext in zip(ks[:-1], ks[1:]):
        wn = 2 * wn / ((1 + knext) * (1 + comp(kn * wn)))
    return K * (2 / _np.pi * _np.arcsin(wn))


def _arc_jac_sc1(w, m):
    z = _arc_jac_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError("arc_jac_sc1 failed: the result is not imaginary")
    return z.imag


def ellipap(N, rp, rs):
    """Elliptic (Cauer) analog prototype of order N, passband ripple rp dB,
    stopband attenuation rs dB."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    N = int(N)
    if N == 0:
        return _np.array([]), _np.array([]), 10 ** (-rp / 20)
    if N == 1:
        p = -_np.sqrt(1.0 / _pow10m1(0.1 * rp))
        return _np.array([]), _np.array([p]), -p
    eps_sq = _pow10m1(0.1 * rp)
    eps = _np.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs "
                         "specifications.")
    K1 = _ellipk(ck1_sq)
    m = _ellipdeg(N, ck1_sq)
    capk = _ellipk(m)
    j = _np.arange(1 - N % 2, N, 2)
    s, c, d = _ellipj(j * capk / N, m)
    snew = s[_np.abs(s) > 2e-16]
    z = 1j / (_np.sqrt(m) * snew)
    z = _np.concatenate((z, _np.conjugate(z)))
    r = _arc_jac_sc1(1. / eps, ck1_sq)
    v0 = capk * r / (N * K1)
    sv, cv, dv = _ellipj(_np.array([v0]), 1 - m)
    sv, cv, dv = sv[0], cv[0], dv[0]
    p = -(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
    if N % 2:
        keep = _np.abs(p.imag) > 2e-16 * _np.sqrt(_np.sum(
            p * _np.conjugate(p)).real)
        p = _np.concatenate((p, _np.conjugate(p[keep])))
    else:
        p = _np.concatenate((p, _np.conjugate(p)))
    k = (_np.prod(-p) / _np.prod(-z)).real
    if N % 2 == 0:
        k = k / _np.sqrt(1 + eps_sq)
    return z, p, k


def _relative_degree(z, p):
    degree = len(p) - len(z)
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as "
                         "many poles as zeros.")
    return degree


def lp2lp_zpk(z, p, k, wo=1.0):
    z, p = _np.atleast_1d(z), _np.atleast_1d(p)
    degree = _relative_degree(z, p)
    return wo * z, wo * p, k * wo ** degree


def lp2hp_zpk(z, p, k, wo=1.0):
    z, p = _np.atleast_1d(z), _np.atleast_1d(p)
    degree = _relative_degree(z, p)
    z_hp = wo / z
    p_hp = wo / p
    z_hp = _np.append(z_hp, _np.zeros(degree))
    k_hp = k * _np.real(_np.prod(-z) / _np.prod(-p))
    return z_hp, p_hp, k_hp


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = _np.atleast_1d(z), _np.atleast_1d(p)
    degree = _relative_degree(z, p)
    z_lp = z * bw / 2
    p_lp = p * bw / 2
    z_lp = z_lp.astype(complex)
    p_lp = p_lp.astype(complex)
    z_bp = _np.concatenate((z_lp + _np.sqrt(z_lp ** 2 - wo ** 2),
                            z_lp - _np.sqrt(z_lp ** 2 - wo ** 2)))
    p_bp = _np.concatenate((p_lp + _np.sqrt(p_lp ** 2 - wo ** 2),
                            p_lp - _np.sqrt(p_lp ** 2 - wo ** 2)))
    z_bp = _np.append(z_bp, _np.zeros(degree))
    return z_bp, p_bp, k * bw ** degree


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = _np.atleast_1d(z), _np.atleast_1d(p)
    degree = _relative_degree(z, p)
    z_hp = (bw / 2) / z
    p_hp = (bw / 2) / p
    z_hp = z_hp.astype(complex)
    p_hp = p_hp.astype(complex)
    z_bs = _np.concatenate((z_hp + _np.sqrt(z_hp ** 2 - wo ** 2),
                            z_hp - _np.sqrt(z_hp ** 2 - wo ** 2)))
    p_bs = _np.concatenate((p_hp + _np.sqrt(p_hp ** 2 - wo ** 2),
                            p_hp - _np.sqrt(p_hp ** 2 - wo ** 2)))
    z_bs = _np.append(z_bs, _np.full(degree, +1j * wo))
    z_bs = _np.append(z_bs, _np.full(degree, -1j * wo))
    k_bs = k * _np.real(_np.prod(-z) / _np.prod(-p))
    return z_bs, p_bs, k_bs


def bilinear_zpk(z, p, k, fs):
    z, p = _np.atleast_1d(z), _np.atleast_1d(p)
    degree = _relative_degree(z, p)
    fs2 = 2.0 * fs
    z_z = (fs2 + z) / (fs2 - z)
    p_z = (fs2 + p) / (fs2 - p)
    z_z = _np.append(z_z, -_np.ones(degree))
    k_z = k * _np.real(_np.prod(fs2 - z) / _np.prod(fs2 - p))
    return z_z, p_z, k_z


def _real_if_conjugate(c):
    """Real coefficients where the roots come in conjugate pairs."""
    if _np.iscomplexobj(c) and _np.allclose(c.imag, 0, atol=1e-12 *
                                            max(1.0, _np.abs(c).max())):
        return c.real.copy()
    return c


def _poly_host(r):
    r = _np.atleast_1d(r)
    c = _np.poly(r) if r.size else _np.array([1.0])
    if _np.iscomplexobj(c):
        pos = _np.sort_complex(r[r.imag > 0])
        neg = _np.sort_complex(_np.conjugate(r[r.imag < 0]))
        if len(pos) == len(neg) and _np.all(pos == neg):
            c = c.real.copy()
    return c


def _zpk2tf_host(z, p, k):
    b = k * _poly_host(z)
    a = _poly_host(p)
    return _np.atleast_1d(b), _np.atleast_1d(a)


def zpk2tf(z, p, k):
    """Zeros, poles, gain to transfer-function coefficients."""
    b, a = _zpk2tf_host(_h(z), _h(p), k)
    return _asarray(b), _asarray(a)


def tf2zpk(b, a):
    b = _np.trim_zeros(_np.atleast_1d(_h(b)), "f")
    a = _np.atleast_1d(_h(a))
    k = b[0] / a[0]
    b = b / b[0]
    return _asarray(_np.roots(b)), _asarray(_np.roots(a)), k


def _zpk2sos_host(z, p, k):
    """Second-order sections: poles nearest the unit circle first paired
    with their nearest zeros, sections ordered from the poles farthest
    from the circle to the nearest (SciPy's 'nearest' idea; SciPy's exact
    pairing can differ, the cascade's response is the same)."""
    z = list(_np.atleast_1d(z).astype(complex))
    p = list(_np.atleast_1d(p).astype(complex))
    n_sections = (max(len(p), len(z)) + 1) // 2
    if len(p) == 0 and len(z) == 0:
        return _np.array([[k, 0., 0., 1., 0., 0.]])
    while len(p) < 2 * n_sections:
        p.append(0j)
    while len(z) < 2 * n_sections:
        z.append(0j)

    def take_pair(roots, near):
        """A conjugate pair (or two reals) from roots, nearest near."""
        roots.sort(key=lambda r: abs(r - near))
        first = roots.pop(0)
        if abs(first.imag) > 1e-12 * max(1.0, abs(first)):
            j = min(range(len(roots)),
                    key=lambda i: abs(roots[i] - _np.conj(first)))
            second = roots.pop(j)
        else:
            reals = [i for i, r in enumerate(roots)
                     if abs(r.imag) <= 1e-12 * max(1.0, abs(r))]
            if reals:
                j = min(reals, key=lambda i: abs(roots[i] - near))
                second = roots.pop(j)
            else:
                second = roots.pop(0)
        return first, second

    sections = []
    while p:
        # the pole nearest the unit circle
        p.sort(key=lambda r: abs(1 - abs(r)))
        p1, p2 = take_pair(p, p[0])
        z1, z2 = take_pair(z, p1)
        sections.append(((z1, z2), (p1, p2)))
    sections.reverse()
    sos = _np.zeros((n_sections, 6))
    for i, ((z1, z2), (p1, p2)) in enumerate(sections):
        b = _np.real(_np.poly([z1, z2]))
        a = _np.real(_np.poly([p1, p2]))
        sos[i] = _np.concatenate((b, a))
    sos[0, :3] *= k
    return sos


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    if analog:
        raise NotImplementedError("zpk2sos: analog sections")
    return _asarray(_zpk2sos_host(_h(z), _h(p), k))


_BAND_TYPES = {"band": "bandpass", "bandpass": "bandpass", "pass": "bandpass",
               "bp": "bandpass", "bs": "bandstop", "bandstop": "bandstop",
               "bands": "bandstop", "stop": "bandstop", "l": "lowpass",
               "low": "lowpass", "lowpass": "lowpass", "lp": "lowpass",
               "high": "highpass", "highpass": "highpass", "h": "highpass",
               "hp": "highpass"}
_FILTER_TYPES = {"butter": "butter", "butterworth": "butter",
                 "cauer": "ellip", "elliptic": "ellip", "ellip": "ellip",
                 "bessel": "bessel", "bessel_phase": "bessel",
                 "cheby1": "cheby1", "chebyshev1": "cheby1",
                 "chebyi": "cheby1", "cheby2": "cheby2",
                 "chebyshev2": "cheby2", "chebyii": "cheby2"}


def iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False,
              ftype="butter", output="ba", fs=None, bessel_norm="phase"):
    """IIR design from an analog prototype (scipy.signal.iirfilter):
    Butterworth, Chebyshev I and II, Bessel, elliptic; the bilinear map for
    digital filters."""
    ftype, btype, output = [x.lower() for x in (ftype, btype, output)]
    Wn = _np.asarray(Wn, dtype=float)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if _np.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater "
                         "than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    if btype not in _BAND_TYPES:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    btype = _BAND_TYPES[btype]
    if ftype not in _FILTER_TYPES:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    ftype = _FILTER_TYPES[ftype]
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if ftype == "butter":
        z, p, k = buttap(N)
    elif ftype == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to "
                             "design a Chebyshev I filter.")
        z, p, k = cheb1ap(N, rp)
    elif ftype == "bessel":
        z, p, k = besselap(N, norm=bessel_norm)
    elif ftype == "ellip":
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an "
                             "elliptic filter.")
        z, p, k = ellipap(N, rp, rs)
    elif ftype == "cheby2":
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to "
                             "design an Chebyshev II filter.")
        z, p, k = cheb2ap(N, rs)
    if not analog:
        if _np.any(Wn >= 1):
            if fs is not None:
                raise ValueError("Digital filter critical frequencies must "
                                 f"be 0 < Wn < fs/2 (fs={fs} -> "
                                 f"fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be "
                             "0 < Wn < 1")
        fs_ = 2.0
        warped = 2 * fs_ * _np.tan(_np.pi * Wn / fs_)
    else:
        warped = Wn
    if btype in ("lowpass", "highpass"):
        if _np.size(Wn) != 1:
            raise ValueError("Must specify a single critical frequency Wn "
                             "for lowpass or highpass filter")
        if btype == "lowpass":
            z, p, k = lp2lp_zpk(z, p, k, wo=float(warped))
        else:
            z, p, k = lp2hp_zpk(z, p, k, wo=float(warped))
    else:
        if _np.size(Wn) != 2:
            raise ValueError("Wn must specify start and stop frequencies for "
                             "bandpass or bandstop filter")
        bw = warped[1] - warped[0]
        wo = _np.sqrt(warped[0] * warped[1])
        if btype == "bandpass":
            z, p, k = lp2bp_zpk(z, p, k, wo=wo, bw=bw)
        else:
            z, p, k = lp2bs_zpk(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = bilinear_zpk(z, p, k, fs=2.0)
    if output == "zpk":
        return _asarray(_np.asarray(z, dtype=complex)), \
            _asarray(_np.asarray(p, dtype=complex)), k
    if output == "ba":
        b, a = _zpk2tf_host(z, p, k)
        return _asarray(b), _asarray(a)
    if analog:
        raise NotImplementedError("sos output of analog filters")
    return _asarray(_zpk2sos_host(z, p, k))


def butter(N, Wn, btype="low", analog=False, output="ba", fs=None):
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output,
                     ftype="butter", fs=fs)


def cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None):
    return iirfilter(N, Wn, rp=rp, btype=btype, analog=analog,
                     output=output, ftype="cheby1", fs=fs)


def ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    return iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog,
                     output=output, ftype="elliptic", fs=fs)


def bessel(N, Wn, btype="low", analog=False, output="ba", norm="phase",
           fs=None):
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output,
                     ftype="bessel", fs=fs, bessel_norm=norm)


def cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    return iirfilter(N, Wn, rs=rs, btype=btype, analog=analog,
                     output=output, ftype="cheby2", fs=fs)


# ---- frequency responses ----------------------------------------------------


def _freq_grid(worN, whole, fs):
    lastpoint = 2 * _np.pi if whole else _np.pi
    if worN is None:
        worN = 512
    if _np.ndim(worN) == 0:
        n = _operator.index(worN)
        if n < 0:
            raise ValueError(f"worN must be nonnegative, got {n}")
        w = _np.linspace(0, lastpoint, n, endpoint=False)
    else:
        w = _np.atleast_1d(_np.asarray(worN, dtype=float))
        if fs is not None:
            w = 2 * _np.pi * w / fs
    return w


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * _np.pi,
          include_nyquist=False):
    """Frequency response of a digital filter (scipy.signal.freqz): the
    polynomials evaluated on exp(-i w)."""
    b = _np.atleast_1d(_h(b))
    a = _np.atleast_1d(_h(a))
    w = _freq_grid(worN, whole, fs if _np.ndim(worN) else None)
    if _np.ndim(worN) == 0 and include_nyquist and not whole and w.size:
        w = _np.linspace(0, _np.pi, w.size, endpoint=True)
    zm1 = _np.exp(-1j * w)
    h = _np.polynomial.polynomial.polyval(zm1, b) / \
        _np.polynomial.polynomial.polyval(zm1, a)
    w = w * (fs / (2 * _np.pi))
    return _asarray(w), _asarray(h)


def sosfreqz(sos, worN=512, whole=False, fs=2 * _np.pi):
    """Frequency response of second-order sections (scipy.signal.
    sosfreqz): the product of the sections' responses."""
    sos = _np.atleast_2d(_h(sos))
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    h = 1.0
    w = None
    for row in sos:
        w, rowh = freqz(row[:3], row[3:], worN=worN, whole=whole, fs=fs)
        h = h * _h(rowh)
    return w, _asarray(h)


freqz_sos = sosfreqz
