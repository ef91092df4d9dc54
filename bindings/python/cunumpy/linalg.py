"""cunumpy.linalg: NumPy's numpy.linalg (and the Array API linalg
extension) over include/cunumpy/linalg.h (OpenBLAS/LAPACKE on the CPU)."""

from collections import namedtuple as _namedtuple

from . import _cnlib as _lib
from ._api import (asarray, cross, diagonal, matmul, matrix_transpose,
                   outer, tensordot, trace, vecdot)

__all__ = ["cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot",
           "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
           "LinAlgError"]

LinAlgError = ValueError

EighResult = _namedtuple("EighResult", "eigenvalues eigenvectors")
EigResult = _namedtuple("EigResult", "eigenvalues eigenvectors")
QRResult = _namedtuple("QRResult", "Q R")
SlogdetResult = _namedtuple("SlogdetResult", "sign logabsdet")
SVDResult = _namedtuple("SVDResult", "U S Vh")

_QR_MODES = {"reduced": 0, "complete": 1, "r": 2}


def cholesky(a, /, *, upper=False):
    return _lib.cn_linalg_cholesky(a, bool(upper))


def qr(a, mode="reduced"):
    if mode == "r":
        return _lib.cn_linalg_qr(a, _QR_MODES["reduced"])[1]
    return QRResult(*_lib.cn_linalg_qr(a, _QR_MODES[mode]))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    res = _lib.cn_linalg_svd(a, bool(full_matrices), bool(compute_uv))
    return SVDResult(*res) if compute_uv else res[1]


def svdvals(x, /):
    return _lib.cn_linalg_svd(x, False, False)[1]


def eig(a):
    return EigResult(*_lib.cn_linalg_eig(a))


def eigvals(a):
    return _lib.cn_linalg_eigvals(a)


def eigh(a, UPLO="L"):
    return EighResult(*_lib.cn_linalg_eigh(a, UPLO == "U"))


def eigvalsh(a, UPLO="L"):
    return _lib.cn_linalg_eigvalsh(a, UPLO == "U")


_ORD = {None: (0, 0.0), "fro": (2, 0.0), "nuc": (3, 0.0)}


def norm(x, ord=None, axis=None, keepdims=False):
    kind, p = _ORD.get(ord, (1, float(ord) if ord is not None else 0.0)) \
        if not isinstance(ord, str) or ord in _ORD else (None, None)
    if kind is None:
        raise ValueError(f"Invalid norm order {ord!r}")
    return _lib.cn_linalg_norm(x, kind, p, axis, bool(keepdims))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = asarray(x)
    if axis is None:
        x = x.ravel()
        axis = 0
    return _lib.cn_linalg_norm(x, 1, float(ord), axis, bool(keepdims))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    kind, p = _ORD[ord] if isinstance(ord, str) else (1, float(ord))
    return _lib.cn_linalg_norm(x, kind, p, (-2, -1), bool(keepdims))


def cond(x, p=None):
    kind, pv = _ORD.get(p, (1, float(p) if p is not None else 0.0)) \
        if not isinstance(p, str) or p in _ORD else (None, None)
    return _lib.cn_linalg_cond(x, kind, pv)


def det(a):
    return _lib.cn_linalg_det(a)


def slogdet(a):
    return SlogdetResult(*_lib.cn_linalg_slogdet(a))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    t = tol if tol is not None else rtol
    return _lib.cn_linalg_matrix_rank(A, -1.0 if t is None else float(t))


def solve(a, b):
    return _lib.cn_linalg_solve(a, b)


def inv(a):
    return _lib.cn_linalg_inv(a)


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    r = rcond if rcond is not None else rtol
    return _lib.cn_linalg_pinv(a, -1.0 if r is None else float(r))


def lstsq(a, b, rcond=None):
    return _lib.cn_linalg_lstsq(a, b, -1.0 if rcond is None else float(rcond))


def multi_dot(arrays, *, out=None):
    res = _lib.cn_linalg_multi_dot(arrays)
    if out is not None:
        out[...] = res
        return out
    return res


def matrix_power(a, n):
    return _lib.cn_linalg_matrix_power(a, int(n))
