"""cunumpy.linalg: NumPy's numpy.linalg (and the Array API linalg
extension) over include/cunumpy/linalg.h (OpenBLAS/LAPACKE on the CPU)."""

import warnings as _warnings
from collections import namedtuple as _namedtuple

# The class the extension raises for CN_ERR_LINALG is NumPy's own (a
# ValueError), so `except numpy.linalg.LinAlgError` catches ours.
from numpy.linalg import LinAlgError

from . import _cnlib as _lib
from ._convert import asarray
from ._reduce import sum as _sum
from ._shape import _norm_axis, matrix_transpose, moveaxis, reshape
from ._linalg import matmul, tensordot

__all__ = ["cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot",
           "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace",
           "vecdot", "vector_norm", "LinAlgError"]

EighResult = _namedtuple("EighResult", "eigenvalues eigenvectors")
EigResult = _namedtuple("EigResult", "eigenvalues eigenvectors")
QRResult = _namedtuple("QRResult", "Q R")
SlogdetResult = _namedtuple("SlogdetResult", "sign logabsdet")
SVDResult = _namedtuple("SVDResult", "U S Vh")

_QR_MODES = {"reduced": 0, "complete": 1, "r": 2, "raw": 3}


def cholesky(a, /, *, upper=False):
    return _lib.cn_linalg_cholesky(a, bool(upper))


def qr(a, mode="reduced"):
    if mode in ("f", "full"):
        _warnings.warn("The 'full' option is deprecated in favor of "
                       "'reduced'.\nFor backward compatibility let mode "
                       "default.", DeprecationWarning, stacklevel=2)
        mode = "reduced"
    elif mode in ("e", "economic"):
        _warnings.warn("The 'economic' option is deprecated.",
                       DeprecationWarning, stacklevel=2)
        # numpy's 'economic' is the factored matrix itself: raw's h^T
        return matrix_transpose(_lib.cn_linalg_qr(a, _QR_MODES["raw"])[0])
    if mode not in _QR_MODES:
        raise ValueError(f"Unrecognized mode '{mode}'")
    if mode == "r":
        return _lib.cn_linalg_qr(a, _QR_MODES["r"])[1]
    if mode == "raw":
        return _lib.cn_linalg_qr(a, _QR_MODES["raw"])
    return QRResult(*_lib.cn_linalg_qr(a, _QR_MODES[mode]))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    res = _lib.cn_linalg_svd_ex(a, bool(full_matrices), bool(compute_uv),
                                bool(hermitian))
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


def _norm_ord(ord):
    if isinstance(ord, str) and ord not in _ORD:
        raise ValueError(f"Invalid norm order {ord!r}")
    return _ORD[ord] if ord is None or isinstance(ord, str) else \
        (1, float(ord))


def norm(x, ord=None, axis=None, keepdims=False):
    kind, p = _norm_ord(ord)
    return _lib.cn_linalg_norm(x, kind, p, axis, bool(keepdims))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Array API vector norm: over every axis (None), one, or a tuple of
    axes (moved to the front and flattened into one)."""
    if isinstance(ord, str) or ord is None:
        raise ValueError(f"Invalid norm order {ord!r} for vectors")
    x = asarray(x)
    shape = list(x.shape)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        axes = tuple(_norm_axis(a, x.ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis in vector_norm")
    else:
        axes = (_norm_axis(axis, x.ndim),)
    rest = [i for i in range(x.ndim) if i not in axes]
    flat = 1
    for i in axes:
        flat *= shape[i]
    y = reshape(moveaxis(x, list(axes), list(range(len(axes)))),
                (flat,) + tuple(shape[i] for i in rest))
    res = _lib.cn_linalg_norm(y, 1, float(ord), 0, False)
    if keepdims:
        for i in axes:
            shape[i] = 1
        res = reshape(res, tuple(shape))
    return res


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    kind, p = _norm_ord(ord)
    return _lib.cn_linalg_norm(x, kind, p, (-2, -1), bool(keepdims))


def cond(x, p=None):
    kind, pv = _norm_ord(p)
    return _lib.cn_linalg_cond(x, kind, pv)


def det(a):
    return _lib.cn_linalg_det(a)


def slogdet(a):
    return SlogdetResult(*_lib.cn_linalg_slogdet(a))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    if tol is not None and rtol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    return _lib.cn_linalg_matrix_rank_ex(
        A, -1.0 if tol is None else float(tol),
        -1.0 if rtol is None else float(rtol), bool(hermitian))


def solve(a, b):
    return _lib.cn_linalg_solve(a, b)


def inv(a):
    return _lib.cn_linalg_inv(a)


class _NoValueType:
    def __repr__(self):
        return "<no value>"


_NoValue = _NoValueType()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    a = asarray(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            eps = 1.1920928955078125e-07 if a.dtype.name in (
                "float32", "complex64") else 2.220446049250313e-16
            rcond = (max(a.shape[-2:]) if a.ndim >= 2 else 1) * eps
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    return _lib.cn_linalg_pinv_ex(a, float(rcond), bool(hermitian))


def tensorinv(a, ind=2):
    return _lib.cn_linalg_tensorinv(a, int(ind))


def tensorsolve(a, b, axes=None):
    return _lib.cn_linalg_tensorsolve(a, b, () if axes is None else
                                      tuple(axes))


def lstsq(a, b, rcond=None):
    x, res, rank, sv = _lib.cn_linalg_lstsq(
        a, b, -1.0 if rcond is None else float(rcond))
    # NumPy's rank is an int32 (LAPACK's integer)
    return x, res, _lib.cn_astype(rank, _lib.CN_INT32, 0), sv


def multi_dot(arrays, *, out=None):
    res = _lib.cn_linalg_multi_dot(arrays)
    if out is not None:
        out[...] = res
        return out
    return res


def matrix_power(a, n):
    return _lib.cn_linalg_matrix_power(a, int(n))


# ---- Array API forms (numpy.linalg's, unlike numpy.* they work on the last
# axes and accept fewer arguments) ------------------------------------------


def diagonal(x, /, *, offset=0):
    return _lib.cn_diagonal(x, int(offset), -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    return _lib.cn_trace(x, int(offset), -2, -1, dtype)


def outer(x1, x2, /):
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _lib.cn_outer(x1, x2)


def cross(x1, x2, /, *, axis=-1):
    x1, x2 = asarray(x1), asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, "
            f"but they are {x1.shape[axis]} and {x2.shape[axis]} "
            "dimensional instead.")
    return _lib.cn_cross(x1, x2, axis, axis, axis)


def vecdot(x1, x2, /, *, axis=-1):
    """sum(conj(x1) * x2) over axis, in the operands' result dtype."""
    x1 = asarray(x1)
    if x1.dtype.kind == "c":  # conj of real dtypes is the identity (but
        x1 = _lib.cn_conj(x1, None)  # turns bool into int8)
    prod = _lib.cn_multiply(x1, x2, None)
    return _sum(prod, axis=axis, dtype=prod.dtype)
