"""The linear algebra of the top-level namespace (include/cunumpy/linalg.h):
matmul, dot, vdot, inner, outer, kron, einsum, trace, diagonal, cross,
tensordot, vecdot, matvec, vecmat. The numpy.linalg functions are in the
cunumpy.linalg submodule.
"""

from operator import index as _index

from . import _cnlib as _lib
from ._convert import asarray, _assign_out, _out
from ._shape import permute_dims, reshape

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "kron", "einsum",
           "trace", "diagonal", "cross", "tensordot", "vecdot", "matvec",
           "vecmat"]


def matmul(x1, x2, /, out=None, **kwargs):
    return _lib.cn_matmul(x1, x2, out)


def dot(a, b, out=None):
    return _lib.cn_dot(a, b, out)


def vdot(a, b, /):
    return _lib.cn_vdot(a, b)


def inner(a, b, /):
    return _lib.cn_inner(a, b)


def outer(a, b, out=None):
    res = _lib.cn_outer(a, b)
    return res if out is None else _assign_out(out, res)


def kron(a, b):
    return _lib.cn_kron(a, b)


def einsum(subscripts, *operands, out=None, **kwargs):
    if isinstance(subscripts, str) and not subscripts.isascii():
        # NumPy's ValueError (a UnicodeEncodeError there), naming the
        # character rather than the bytes of its UTF-8 form.
        bad = next(c for c in subscripts if not c.isascii())
        raise ValueError(f"invalid subscript {bad!r} in einstein sum "
                         f"subscripts string, subscripts must be letters")
    res = _lib.cn_einsum(subscripts, operands)
    return res if out is None else _assign_out(out, res)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    # operator.index: NumPy integers (Dask passes them) as the C int64_t
    res = _lib.cn_trace(a, _index(offset), _index(axis1), _index(axis2),
                        dtype)
    return res if out is None else _assign_out(out, res)


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _lib.cn_diagonal(a, _index(offset), _index(axis1), _index(axis2))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    return _lib.cn_cross(a, b, axisa, axisb, axisc)


def tensordot(a, b, axes=2):
    """Contraction over axes (an int n: the last n of a with the first n
    of b), built from permute/reshape/matmul."""
    a, b = asarray(a), asarray(b)
    if isinstance(axes, int):
        axes_a = list(range(a.ndim - axes, a.ndim))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    axes_a = [x % a.ndim for x in axes_a] if a.ndim else axes_a
    axes_b = [x % b.ndim for x in axes_b] if b.ndim else axes_b
    free_a = [d for d in range(a.ndim) if d not in axes_a]
    free_b = [d for d in range(b.ndim) if d not in axes_b]
    k = 1
    for d in axes_a:
        k *= a.shape[d]
    ma = 1
    for d in free_a:
        ma *= a.shape[d]
    nb = 1
    for d in free_b:
        nb *= b.shape[d]
    at = reshape(permute_dims(a, free_a + axes_a), (ma, k))
    bt = reshape(permute_dims(b, axes_b + free_b), (k, nb))
    res = matmul(at, bt)
    return reshape(res, tuple(a.shape[d] for d in free_a) +
                   tuple(b.shape[d] for d in free_b))


def vecdot(x1, x2, /, *, axis=-1):
    """Array API vecdot: sum(conj(x1) * x2) over axis, in the operands'
    result dtype."""
    from .linalg import vecdot as _vecdot
    return _vecdot(x1, x2, axis=axis)


def _gufunc_operands(name, x1, x2, nd1, nd2, ax2, kwargs):
    """x1, x2 as arrays with at least nd1 / nd2 dimensions and matching
    core dimensions (x1's last, x2's axis ax2)."""
    x1, x2 = asarray(x1), asarray(x2)
    if kwargs:
        raise NotImplementedError(f"{name}: keyword arguments "
                                  f"{sorted(kwargs)}")
    if x1.ndim < nd1 or x2.ndim < nd2:
        raise ValueError(f"{name}: x1 must be at least {nd1}-d and x2 at "
                         f"least {nd2}-d")
    if x1.shape[-1] != x2.shape[ax2]:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its "
                         f"core dimension 0 ({x2.shape[ax2]} is different "
                         f"from {x1.shape[-1]})")
    return x1, x2


def matvec(x1, x2, /, out=None, **kwargs):
    """Matrix-vector product over the last two axes of x1 and last of x2."""
    x1, x2 = _gufunc_operands("matvec", x1, x2, 2, 1, -1, kwargs)
    return _out(matmul(x1, x2[..., None])[..., 0], out)


def vecmat(x1, x2, /, out=None, **kwargs):
    """conj(x1) @ x2 for vectors x1 and matrices x2 (stacked)."""
    x1, x2 = _gufunc_operands("vecmat", x1, x2, 1, 2, -2, kwargs)
    c = _lib.cn_conj(x1, None)
    return _out(matmul(c[..., None, :], x2)[..., 0, :], out)
