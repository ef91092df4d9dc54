"""Matrices and their triangles: diag, diagflat, tri, tril, triu, vander, the
tril/triu/diag index builders, mask_indices and fill_diagonal.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, ones, zeros
from ._numerictypes import promote_types
from ._reduce import cumprod
from ._ufunc import logical_not
from ._shape import broadcast_to, ravel, resize
from ._creation import arange
from ._index import _need_array, nonzero
from ._manip import concatenate

__all__ = ["tril", "triu", "diag", "tri", "tril_indices", "triu_indices",
           "tril_indices_from", "triu_indices_from", "diag_indices",
           "diag_indices_from", "diagflat", "vander", "fill_diagonal",
           "mask_indices"]


def tril(m, k=0):
    return _lib.cn_tril(m, k)


def triu(m, k=0):
    return _lib.cn_triu(m, k)


def diag(v, k=0):
    return _lib.cn_diag(v, k)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """Ones at and below the k-th diagonal of an N x M array."""
    if M is None:
        M = N
    m = arange(N)[:, None] >= arange(-k, M - k)[None, :]
    return _lib.cn_astype(m, dtype, 0)


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle of an n x m array."""
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an n x m array."""
    return nonzero(logical_not(tri(n, m, k=k - 1, dtype=bool)))


def _check_2d(arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    arr = _check_2d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    arr = _check_2d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an n x ... x n array."""
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    arr = asarray(arr)
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def diagflat(v, k=0):
    """2-d array with the flattened v on the k-th diagonal."""
    return diag(ravel(asarray(v)), k)


def vander(x, N=None, increasing=False):
    """Vandermonde matrix: columns x**(N-1), ..., x**0 (reversed when
    increasing)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    if N is None:
        N = n
    dt = promote_types(x.dtype, int)
    if N == 0 or n == 0:
        return zeros((n, N), dt)
    xs = _lib.cn_astype(x, dt, 0)
    cols = concatenate([ones((n, 1), dt),
                        broadcast_to(xs[:, None], (n, N - 1))], axis=1)
    v = cumprod(cols, axis=1, dtype=dt)
    return v if increasing else v[:, ::-1]


def fill_diagonal(a, val, wrap=False):
    """Sets the main diagonal of a (>= 2-d, all dimensions equal beyond 2-d)
    to val (repeated as needed), in place."""
    _need_array(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal "
                             "length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
    stop = a.size if end is None else _builtins.min(end, a.size)
    idx = arange(0, stop, step)
    if idx.size == 0:
        return
    vals = ravel(asarray(val, a.dtype))
    if vals.size == 0:
        return
    _lib.cn_put(a, idx, resize(vals, idx.size), 0)


def mask_indices(n, mask_func, k=0):
    """Indices where mask_func(ones((n, n)), k) is nonzero (e.g. triu)."""
    m = ones((n, n), int)
    return nonzero(asarray(mask_func(m, k)) != 0)
