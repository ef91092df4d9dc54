"""The numpy.polynomial-free polynomial API of NumPy (poly1d coefficient
arrays, highest power first): polyval, polyadd/sub/mul/div, polyder,
polyint, polyfit, roots, poly.
"""

import warnings as _warnings

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._convert import asarray

__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "polyfit", "roots", "poly"]


def polyval(p, x):
    """p[0] x**(N-1) + ... + p[N-1] by Horner's scheme."""
    return _lib.cn_polyval(p, x)


def polyadd(a1, a2):
    """Sum of two polynomials."""
    return _lib.cn_polyadd(a1, a2)


def polysub(a1, a2):
    """Difference of two polynomials."""
    return _lib.cn_polysub(a1, a2)


def polymul(a1, a2):
    """Product of two polynomials (leading zeros dropped first)."""
    return _lib.cn_polymul(a1, a2)


def polydiv(u, v):
    """(quotient, remainder) of the polynomial division u / v."""
    return _lib.cn_polydiv(u, v)


def polyder(p, m=1):
    """The m-th derivative of the polynomial p."""
    return _lib.cn_polyder(p, int(m))


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p with integration constants k."""
    return _lib.cn_polyint(p, int(m), k)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (NumPy's algorithm: scaled Vandermonde
    matrix solved by linalg.lstsq)."""
    rc = -1.0 if rcond is None else float(rcond)
    if cov and not full:
        return _lib.cn_polyfit_cov(x, y, int(deg), rc, w, cov == "unscaled")
    c, resids, rank, s = _lib.cn_polyfit(x, y, int(deg), rc, w)
    if full:
        if rcond is None:
            xt = _dtypes.result_type(asarray(x).dtype, 0.0)
            rc = len(asarray(x)) * _np.finfo(xt).eps
        return c, resids, rank, s, rc
    if int(rank) != int(deg) + 1:
        _warnings.warn("Polyfit may be poorly conditioned",
                       _np.exceptions.RankWarning, stacklevel=2)
    return c


def roots(p):
    """Roots of the polynomial p: eigenvalues of its companion matrix."""
    return _lib.cn_roots(p)


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or the
    characteristic polynomial of a square matrix)."""
    res = _lib.cn_poly(seq_of_zeros)
    # NumPy returns the Python float 1.0 for no roots
    return float(res) if res.ndim == 0 else res
