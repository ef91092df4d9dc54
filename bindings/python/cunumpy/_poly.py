"""The numpy.polynomial-free polynomial API of NumPy (poly1d coefficient
arrays, highest power first): polyval, polyadd/sub/mul/div, polyder,
polyint, polyfit, roots, poly.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, empty, ones, zeros
from ._numerictypes import (_is_inexact, _K_COMPLEX, _kind, mintypecode,
                            result_type)
from ._reduce import all
from ._ufunc import sqrt
from ._shape import reshape
from ._creation import arange, zeros_like
from ._index import flatnonzero
from ._sort import sort
from ._manip import concatenate
from ._twodim import diag, vander
from ._linalg import matmul
from ._calculus import convolve
from ._elementwise import isclose

__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "polyfit", "roots", "poly"]


def polyval(p, x):
    """p[0] x**(N-1) + ... + p[N-1] by Horner's scheme."""
    p = asarray(p)
    x = asarray(x)
    y = zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y


def _poly_pair(a1, a2):
    """a1 and a2 as 1-d arrays, the shorter padded with leading zeros."""
    a1, a2 = _lib.cn_atleast_1d(a1), _lib.cn_atleast_1d(a2)
    d = a2.shape[0] - a1.shape[0]
    if d > 0:
        a1 = concatenate((zeros(d, a1.dtype), a1))
    elif d < 0:
        a2 = concatenate((zeros(-d, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    """Sum of two polynomials."""
    a1, a2 = _poly_pair(a1, a2)
    return a1 + a2


def polysub(a1, a2):
    """Difference of two polynomials."""
    a1, a2 = _poly_pair(a1, a2)
    return a1 - a2


def _polyconv(a, b):
    """Full convolution of 1-d a and b (the engine's convolve for real
    dtypes, shifted products summed for complex)."""
    if _kind(a) != _K_COMPLEX and _kind(b) != _K_COMPLEX:
        return convolve(a, b)
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    n, m = a.shape[0], b.shape[0]
    if m == 0:
        raise ValueError("v cannot be empty")
    res = zeros(n + m - 1, result_type(a, b))
    for i in range(m):
        res[i:i + n] += a * b[i]
    return res


def _poly1d_coeffs(c):
    """c without leading zeros (at least [0]), as numpy.poly1d keeps it."""
    c = _lib.cn_atleast_1d(c)
    nz = flatnonzero(c)
    if nz.size == 0:
        return zeros(1, c.dtype)
    return c[int(nz[0].item()):]


def polymul(a1, a2):
    """Product of two polynomials (leading zeros dropped first)."""
    return _polyconv(_poly1d_coeffs(a1), _poly1d_coeffs(a2))


def polydiv(u, v):
    """(quotient, remainder) of the polynomial division u / v."""
    u = _lib.cn_atleast_1d(u) + 0.0
    v = _lib.cn_atleast_1d(v) + 0.0
    dt = result_type(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros((_builtins.max(m - n + 1, 1),), dt)
    r = _lib.cn_astype(u, dt, 1)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[-1] > 1 and bool(isclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    return q, r


def polyder(p, m=1):
    """The m-th derivative of the polynomial p."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see "
                         "polyint)")
    p = asarray(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * arange(n, 0, -1)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p with integration constants k."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = zeros(m, _np.float64)
    k = _lib.cn_atleast_1d(k)
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones(m, _np.float64)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 "
                         "or >m.")
    p = asarray(p)
    for i in range(m):
        p = concatenate((p / arange(p.shape[0], 0, -1),
                         reshape(k[i], (1,))))
    return p


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (NumPy's algorithm: scaled Vandermonde
    matrix solved by linalg.lstsq)."""
    from . import linalg
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * _np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = linalg.inv(matmul(lhs.T, lhs))
        vbase = vbase / (scale[:, None] * scale[None, :])
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed "
                                 "order to scale the covariance matrix")
            fac = resids / (len(x) - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


def roots(p):
    """Roots of the polynomial p: eigenvalues of its companion matrix."""
    from . import linalg
    p = _lib.cn_atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = flatnonzero(p)
    if nz.size == 0:
        return empty(0, _np.float64)
    first, last = int(nz[0].item()), int(nz[-1].item())
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    if not _is_inexact(p):
        p = _lib.cn_astype(p, _lib.CN_FLOAT64, 0)
    N = p.shape[0]
    if N > 1:
        A = _lib.cn_copy(diag(ones(N - 2, p.dtype), -1), "C")
        A[0, :] = -p[1:] / p[0]
        r = linalg.eigvals(A)
    else:
        r = empty(0, p.dtype)
    return concatenate((r, zeros(trailing, r.dtype)))


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or the
    characteristic polynomial of a square matrix)."""
    from . import linalg
    z = _lib.cn_atleast_1d(seq_of_zeros)
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = linalg.eigvals(z)
    elif len(sh) == 1:
        z = _lib.cn_astype(z, _np.dtype(mintypecode(z.dtype.char)), 0)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = ones((1,), dt)
    for zero in z:
        a = _polyconv(a, concatenate((ones(1, dt), reshape(-zero, (1,)))))
    if _kind(a) == _K_COMPLEX:
        r = _lib.cn_astype(z, _lib.CN_COMPLEX128, 0)
        if bool(all(sort(r) == sort(_lib.cn_conj(r, None)))):
            a = _lib.cn_copy(a.real, "C")
    return a
