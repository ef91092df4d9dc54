"""Window functions (hamming, hanning, bartlett, blackman, kaiser) and the
modified Bessel function i0 they use.
"""

import math as _math

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, empty, ones
from ._numerictypes import _K_COMPLEX, _K_FLOAT, _kind
from ._ufunc import abs, cos, exp, sqrt
from ._creation import arange
from ._index import where

__all__ = ["i0", "hamming", "hanning", "bartlett", "blackman", "kaiser"]


_I0A = [
    -4.41534164647933937950e-18, 3.33079451882223809783e-17,
    -2.43127984654795469359e-16, 1.71539128555513303061e-15,
    -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12,
    -1.72682629144155570723e-11, 9.67580903537323691224e-11,
    -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8,
    -2.67079385394061173391e-7, 1.11738753912010371815e-6,
    -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4,
    -5.76375574538582365885e-4, 1.63947561694133579842e-3,
    -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2,
    -9.49010970480476444210e-2, 1.71620901522208775349e-1,
    -3.04682672343198398683e-1, 6.76795274409476084995e-1]

_I0B = [
    -7.23318048787475395456e-18, -4.83050448594418207126e-18,
    4.46562142029675999901e-17, 3.46122286769746109310e-17,
    -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15,
    -9.55484669882830764870e-15, -4.15056934728722208663e-14,
    1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12,
    -1.32158118404477131188e-11, -3.14991652796324136454e-11,
    1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8,
    2.04891858946906374183e-7, 2.89137052083475648297e-6,
    6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1]


def _chbevl(x, vals):
    """Clenshaw sum of the Chebyshev series vals at x (Cephes chbevl)."""
    b0 = vals[0]
    b1 = 0.0
    b2 = 0.0
    for v in vals[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + v
    return 0.5 * (b0 - b2)


def i0(x):
    """Modified Bessel function of the first kind, order 0 (Cephes
    Chebyshev expansions, as NumPy)."""
    x = asarray(x)
    if _kind(x) == _K_COMPLEX:
        raise TypeError("i0 not supported for complex values")
    if _kind(x) != _K_FLOAT:
        x = _lib.cn_astype(x, _lib.CN_FLOAT64, 0)
    x = abs(x)
    small = exp(x) * _chbevl(x / 2.0 - 2, _I0A)
    large = exp(x) * _chbevl(32.0 / x - 2.0, _I0B) / sqrt(x)
    return where(x <= 8.0, small, large)


def _window_n(M):
    """arange(1-M, M, 2) as float64 (NumPy's symmetric window grid), or an
    empty / one-element window for M < 2."""
    if M < 1:
        return None, empty(0, _np.float64)
    if M == 1:
        return None, ones(1, _np.float64)
    return arange(1 - M, M, 2, dtype=_np.float64), None


def hamming(M):
    n, edge = _window_n(M)
    return edge if n is None else 0.54 + 0.46 * cos(_math.pi * n / (M - 1))


def hanning(M):
    n, edge = _window_n(M)
    return edge if n is None else 0.5 + 0.5 * cos(_math.pi * n / (M - 1))


def bartlett(M):
    n, edge = _window_n(M)
    if n is None:
        return edge
    return where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def blackman(M):
    n, edge = _window_n(M)
    if n is None:
        return edge
    return 0.42 + 0.5 * cos(_math.pi * n / (M - 1)) + \
        0.08 * cos(2.0 * _math.pi * n / (M - 1))


def kaiser(M, beta):
    """The Kaiser window i0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / i0(beta)."""
    M = float(M)
    beta = float(beta)
    if M == 1:
        return ones(1, _np.float64)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / \
        i0(asarray(beta))
