"""NumPy functions composed from the engine's operations.

Every function here follows NumPy 2.4 (names, signatures, result dtypes,
exception types) and is built from cunumpy operations, so it runs where
its inputs live (CPU or CUDA) without copying array data through NumPy.
NumPy itself is used only for dtype logic, Python-object inputs
(fromiter, frombuffer) and text formatting (array_str / array_repr /
array2string). Where NumPy returns a scalar, these return a 0-d array, as
the rest of cunumpy does.
"""

import builtins as _builtins
import collections.abc as _abc
import math as _math
import operator as _operator

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._api import (abs, any, all, arange, argsort, argwhere, asarray,
                   broadcast_arrays, broadcast_shapes, broadcast_to,
                   concatenate, convolve, copysign, cos, cumprod, cumsum,
                   diag, diff, empty, equal, exp, expand_dims, flatnonzero,
                   floor_divide, full, indices, isfinite, isinf, isnan,
                   linspace, log10, logical_and, logical_not, matmul,
                   moveaxis, multiply, nonzero, ones, power, ravel,
                   remainder, reshape, result_type, searchsorted, sign,
                   signbit, sin, sort, sqrt, stack, trunc, where, zeros,
                   zeros_like)
from ._ndarray import ndarray

_WEAK = (bool, int, float, complex)
_K_BOOL, _K_INT, _K_UINT, _K_FLOAT, _K_COMPLEX = (
    _lib.CN_KIND_BOOL, _lib.CN_KIND_INT, _lib.CN_KIND_UINT,
    _lib.CN_KIND_FLOAT, _lib.CN_KIND_COMPLEX)
_AxisError = _np.exceptions.AxisError

__all__ = [
    "allclose", "isclose", "array_equal", "array_equiv", "nan_to_num",
    "logspace", "geomspace", "tri", "tril_indices", "triu_indices",
    "tril_indices_from", "triu_indices_from", "diag_indices",
    "diag_indices_from", "diagflat", "vander", "ravel_multi_index",
    "unravel_index", "resize", "append", "insert", "delete",
    "apply_along_axis", "apply_over_axes", "piecewise", "select",
    "fill_diagonal", "histogram2d", "histogramdd", "histogram_bin_edges",
    "array_str",
    "array_repr", "array2string", "iscomplexobj", "isrealobj", "iscomplex",
    "isreal", "isposinf", "isneginf", "fix", "deg2rad", "rad2deg",
    "degrees", "radians", "fabs", "sinc", "float_power", "divmod", "modf",
    "copyto", "place", "putmask", "ediff1d", "trim_zeros", "block", "ix_",
    "shares_memory", "may_share_memory", "promote_types", "issubdtype",
    "common_type", "min_scalar_type", "mintypecode", "nancumsum",
    "nancumprod", "setxor1d", "mask_indices", "polydiv", "sort_complex",
    "unwrap", "hamming", "hanning",
    "bartlett", "blackman", "kaiser", "i0", "polyval", "polyfit", "roots",
    "poly", "polyadd", "polysub", "polymul", "polyder", "polyint",
    "fromfunction", "frombuffer", "fromiter", "require",
    "asarray_chkfinite", "iterable", "rollaxis", "matvec", "vecmat",
    "isfortran", "real_if_close",
]


# ---- helpers ----------------------------------------------------------------


def _kind(a):
    return _dtypes.kind(a._dtype_code)


def _is_inexact(a):
    return _kind(a) in (_K_FLOAT, _K_COMPLEX)


def _dtype_kind(x):
    """Kind of x's dtype for arrays, NumPy arrays, scalars and sequences."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = _np.asarray(x).dtype
    return _np.dtype(dt).kind


def _norm_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    return axis % ndim if ndim else 0


def _float_result(x, name):
    """x as the floating dtype NumPy's float-only ufuncs compute in (a
    float32 at least: the engine has no float16); TypeError for complex."""
    x = asarray(x)
    k = _kind(x)
    if k == _K_COMPLEX:
        raise TypeError(f"ufunc '{name}' not supported for the input types, "
                        f"and the inputs could not be safely coerced to any "
                        f"supported types according to the casting rule "
                        f"''safe''")
    if k == _K_FLOAT:
        return x
    code = _lib.CN_FLOAT32 if x.itemsize <= 2 else _lib.CN_FLOAT64
    return _lib.cn_astype(x, code, 0)


def _ret(res, out):
    """What a ufunc with out= returns: out itself when given."""
    return res if out is None else out


def _out(res, out):
    if out is None:
        return res
    if type(out) is tuple:
        out = out[0]
    _lib.cn_assign(out, res)
    return out


def _make_complex(re, im, code):
    """The complex array re + i*im (both real) with every real/imag pair
    exact, inf and NaN included (no 0*inf from a multiplication by 1j)."""
    zre = _lib.cn_astype(re, code, 1)
    fin = isfinite(im)
    imf = where(fin, im, 0)
    z = zre + _lib.cn_astype(imf, code, 0) * 1j
    for val in (_math.inf, -_math.inf, _math.nan):
        sel = isnan(im) if val != val else equal(im, val)
        z = where(sel, zre + complex(0.0, val), z)
    return z


# ---- comparison -------------------------------------------------------------


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Elementwise |a - b| <= atol + rtol * |b| (NumPy's isclose)."""
    x = a if type(a) in _WEAK else asarray(a)
    y = b if type(b) in _WEAK else asarray(b)
    atol = atol if type(atol) in _WEAK else asarray(atol)
    rtol = rtol if type(rtol) in _WEAK else asarray(rtol)
    if isinstance(y, ndarray):
        y = _lib.cn_astype(y, result_type(y, 1.0), 0)
    elif isinstance(y, int):
        y = float(y)
    xa = asarray(x)
    result = (abs(xa - y) <= atol + rtol * abs(y)) & isfinite(y) | (xa == y)
    if equal_nan:
        result = result | (isnan(xa) & isnan(y))
    return result


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """True when isclose holds for every element."""
    return bool(all(isclose(a, b, rtol=rtol, atol=atol,
                            equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have the same shape and elements."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or not (_is_inexact(a1) or _is_inexact(a2)):
        return bool(all(a1 == a2))
    n1, n2 = isnan(a1), isnan(a2)
    if not bool(all(n1 == n2)):
        return False
    return bool(all((a1 == a2) | n1))


def array_equiv(a1, a2):
    """True when a1 and a2 broadcast to one shape and are equal there."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:
        return False
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(all(a1 == a2))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default: the largest finite value),
    -inf -> neginf; complex values are fixed part by part."""
    xa = asarray(x)
    if not _is_inexact(xa):
        return _lib.cn_copy(xa, "K") if copy else xa

    def fix(r):
        big = _np.finfo(r.dtype).max
        hi = big if posinf is None else posinf
        lo = -big if neginf is None else neginf
        res = where(isnan(r), nan, r)
        res = where(equal(r, _math.inf), hi, res)
        return where(equal(r, -_math.inf), lo, res)

    if _kind(xa) == _K_COMPLEX:
        re, im = fix(xa.real), fix(xa.imag)
        ok = isfinite(xa.real) & isfinite(xa.imag)
        res = where(ok, xa, _make_complex(re, im, xa._dtype_code))
    else:
        res = _lib.cn_astype(fix(xa), xa._dtype_code, 0)
    if not copy and isinstance(x, ndarray):
        _lib.cn_assign(x, res)
        return x
    return res


# ---- creation ---------------------------------------------------------------


def _linspace(start, stop, num, endpoint, axis, dtype=None):
    """linspace with array bounds: the namespace's (NumPy's algorithm)."""
    return linspace(start, stop, num, endpoint=endpoint, axis=axis,
                    dtype=dtype)


def _ndmin(a, nd):
    return reshape(a, (1,) * (nd - a.ndim) + a.shape) if a.ndim < nd else a


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None,
             axis=0):
    """base ** linspace(start, stop, num)."""
    nd = _builtins.max(_np.ndim(start), _np.ndim(stop), _np.ndim(base))
    if nd:
        start, stop, base = (_ndmin(asarray(v), nd) for v in
                             (start, stop, base))
    y = _linspace(start, stop, num, endpoint, axis if nd else 0)
    if nd:
        base = expand_dims(base, axis)
    res = power(base, y)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale (a geometric progression);
    negative and complex bounds as NumPy."""
    start = asarray(start) * 1.0
    stop = asarray(stop) * 1.0
    if bool(any(start == 0)) or bool(any(stop == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    dt = result_type(start, stop, _np.float64 if dtype is None else dtype)
    start = _lib.cn_astype(start, dt, 1)
    stop = _lib.cn_astype(stop, dt, 1)
    out_sign = sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint,
                      base=10.0)
    result = _lib.cn_astype(result, dt, 0)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = out_sign * result
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return result if dtype is None else _lib.cn_astype(result, dtype, 0)


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


def _int_index_array(a, what="indices"):
    a = asarray(a)
    if _kind(a) not in (_K_INT, _K_UINT):
        if a.size == 0 and _kind(a) == _K_FLOAT:
            return _lib.cn_astype(a, _lib.CN_INT64, 0)
        raise TypeError("only int indices permitted")
    return _lib.cn_astype(a, _lib.CN_INT64, 0)


def _dims_tuple(dims):
    return (int(dims),) if isinstance(dims, (int, _np.integer)) else \
        tuple(int(d) for d in dims)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays multi_index into shape dims."""
    dims = _dims_tuple(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must have one entry per dimension")
    total = 1
    for d in dims:
        if d < 0:
            raise ValueError("dimensions must be non-negative")
        total *= d
    if total > 2**63 - 1:
        raise ValueError("invalid dims: array size defined by dims is "
                         "larger than the maximum possible size.")
    idx = [_int_index_array(i) for i in multi_index]
    idx = list(broadcast_arrays(*idx)) if idx else idx
    strides = [1] * len(dims)
    seq = range(len(dims) - 2, -1, -1) if order == "C" else \
        range(1, len(dims))
    for i in seq:
        j = i + 1 if order == "C" else i - 1
        strides[i] = strides[j] * dims[j]
    res = None
    for i, (ix, d, m) in enumerate(zip(idx, dims, modes)):
        if m == "raise":
            if bool(any((ix < 0) | (ix >= d))):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            ix = remainder(ix, d) if d else ix
        elif m == "clip":
            ix = _lib.cn_clip(ix, 0, _builtins.max(d - 1, 0), None)
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or "
                             f"'wrap' (got {m!r})")
        term = ix * strides[i]
        res = term if res is None else res + term
    return res


def unravel_index(indices, shape, order="C"):
    """Coordinate arrays of the flat indices into an array of shape."""
    dims = _dims_tuple(shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = _int_index_array(indices)
    size = 1
    for d in dims:
        size *= d
    if idx.size:
        bad = (idx < 0) | (idx >= size)
        if bool(any(bad)):
            v = int(idx[bad].ravel()[0].item())
            raise ValueError(f"index {v} is out of bounds for array with "
                             f"size {size}")
    res = [None] * len(dims)
    seq = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    rest = idx
    for i in seq:
        d = dims[i]
        res[i] = remainder(rest, d) if d else rest
        rest = floor_divide(rest, d) if d else rest
    return tuple(res)


# ---- shape manipulation -----------------------------------------------------


def resize(a, new_shape):
    """Array of new_shape filled with repeated copies of a's elements."""
    new_shape = _dims_tuple(new_shape)
    a = ravel(asarray(a))
    new_size = 1
    for d in new_shape:
        if d < 0:
            raise ValueError("all elements of `new_shape` must be "
                             "non-negative")
        new_size *= d
    if a.size == 0 or new_size == 0:
        return zeros(new_shape, a.dtype)
    repeats = -(-new_size // a.size)
    flat = _lib.cn_tile(a, (repeats,))[:new_size]
    return reshape(flat, new_shape)


def append(arr, values, axis=None):
    """arr with values appended (flattened when axis is None)."""
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = ravel(arr)
        values = ravel(asarray(values))
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=_norm_axis(axis, arr.ndim))


def _order_of(arr):
    return "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous \
        else "C"


def _flat_or_axis(arr, axis):
    """(arr, axis) for insert/delete: the flattened arr and axis 0 when axis
    is None, else arr and the normalised axis."""
    arr = asarray(arr)
    if axis is None:
        return (ravel(arr) if arr.ndim != 1 else arr), 0
    return arr, _norm_axis(axis, arr.ndim)


# Up to this many inserted/deleted positions, insert and delete splice
# slices together (one concatenate) instead of building a mask.
_FEW_POSITIONS = 256


def _axis_slice(axis, start, stop):
    return (slice(None),) * axis + (slice(start, stop),)


def _splice(arr, axis, pos, vals):
    """arr with vals' slice j along axis put before arr's index pos[j]
    (equal positions keep their order)."""
    pieces, prev = [], 0
    for j in sorted(range(len(pos)), key=pos.__getitem__):
        p = pos[j]
        if p > prev:
            pieces.append(arr[_axis_slice(axis, prev, p)])
        pieces.append(vals[_axis_slice(axis, j, j + 1)])
        prev = p
    pieces.append(arr[_axis_slice(axis, prev, None)])
    return concatenate(pieces, axis=axis)


def _drop(arr, axis, dels):
    """arr without the indices dels along axis."""
    pieces, prev = [], 0
    for d in sorted(set(dels)):
        if d > prev:
            pieces.append(arr[_axis_slice(axis, prev, d)])
        prev = d + 1
    pieces.append(arr[_axis_slice(axis, prev, None)])
    return concatenate(pieces, axis=axis)


def insert(arr, obj, values, axis=None):
    """arr with values inserted before the indices obj along axis."""
    arr, axis = _flat_or_axis(arr, axis)
    ndim = arr.ndim
    order = _order_of(arr)
    slobj = [slice(None)] * ndim
    N = arr.shape[axis]
    newshape = list(arr.shape)
    if isinstance(obj, slice):
        idx = arange(*obj.indices(N))
    else:
        idx = asarray(obj)
        if idx.dtype == _np.bool_:
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must "
                                 "be one dimensional")
            idx = flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be "
                             "one dimensional or scalar")
    if idx.size == 1:
        if _kind(idx) not in (_K_INT, _K_UINT):
            raise TypeError("slice indices must be integers or None or have "
                            "an __index__ method")
        index = int(idx.item())
        if index < -N or index > N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} "
                             f"with size {N}")
        if index < 0:
            index += N
        values = asarray(values, arr.dtype)
        if values.ndim < ndim:
            values = reshape(values, (1,) * (ndim - values.ndim) +
                             values.shape)
        if idx.ndim == 0:
            values = moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        newshape[axis] += numnew
        new = empty(newshape, arr.dtype, order)
        slobj[axis] = slice(None, index)
        new[tuple(slobj)] = arr[tuple(slobj)]
        slobj[axis] = slice(index, index + numnew)
        new[tuple(slobj)] = values
        slobj[axis] = slice(index + numnew, None)
        slobj2 = [slice(None)] * ndim
        slobj2[axis] = slice(index, None)
        new[tuple(slobj)] = arr[tuple(slobj2)]
        return new
    if _kind(idx) not in (_K_INT, _K_UINT):
        if idx.size == 0:
            idx = _lib.cn_astype(idx, _lib.CN_INT64, 0)
        else:
            raise IndexError("arrays used as indices must be of integer "
                             "(or boolean) type")
    idx = _lib.cn_astype(idx, _lib.CN_INT64, 1)
    if idx.size and bool(any((idx < -N) | (idx > N))):
        bad = int(idx[(idx < -N) | (idx > N)][0].item())
        raise IndexError(f"index {bad} is out of bounds for axis {axis} "
                         f"with size {N}")
    idx = where(idx < 0, idx + N, idx)
    numnew = idx.shape[0]
    if 0 < numnew <= _FEW_POSITIONS:
        tgt = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
        vals = broadcast_to(asarray(values, arr.dtype), tgt)
        return _splice(arr, axis, [int(v) for v in idx.tolist()], vals)
    perm = argsort(idx, kind="stable")
    shifted = empty(numnew, idx.dtype)
    shifted[perm] = idx[perm] + arange(numnew)
    newshape[axis] += numnew
    old_mask = ones(newshape[axis], dtype=bool)
    if numnew:
        old_mask[shifted] = False
    new = empty(newshape, arr.dtype, order)
    slobj2 = [slice(None)] * ndim
    slobj[axis] = shifted
    slobj2[axis] = old_mask
    if numnew:
        vals = asarray(values, arr.dtype)
        tgt_shape = new[tuple(slobj)].shape
        new[tuple(slobj)] = broadcast_to(vals, tgt_shape)
    new[tuple(slobj2)] = arr
    return new


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at indices obj along axis."""
    arr, axis = _flat_or_axis(arr, axis)
    N = arr.shape[axis]
    keep = None
    if isinstance(obj, slice):
        dels = range(*obj.indices(N))
        if len(dels) > _FEW_POSITIONS:
            keep = ones(N, dtype=bool)
            keep[obj] = False
    elif isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool):
        if obj < -N or obj >= N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} "
                             f"with size {N}")
        dels = [int(obj) % N]
    else:
        o = asarray(obj)
        if o.dtype == _np.bool_:
            if o.shape != (N,):
                raise ValueError(f"boolean array argument obj to delete "
                                 f"must be one dimensional and match the "
                                 f"axis length of {N}")
            keep = logical_not(o)
        else:
            if o.size == 0:
                o = _lib.cn_astype(o, _lib.CN_INT64, 0)
            elif _kind(o) not in (_K_INT, _K_UINT):
                raise IndexError("arrays used as indices must be of integer "
                                 "(or boolean) type")
            o = ravel(o)
            if o.size:
                bad = (o < -N) | (o >= N)
                if bool(any(bad)):
                    v = int(o[bad][0].item())
                    raise IndexError(f"index {v} is out of bounds for axis "
                                     f"{axis} with size {N}")
            if o.size > _FEW_POSITIONS:
                keep = ones(N, dtype=bool)
                keep[o] = False
            else:
                dels = [int(v) % N for v in o.tolist()]
    if keep is None:
        return _drop(arr, axis, dels)
    return _lib.cn_copy(arr[_axis_slice(axis, None, None)[:-1] + (keep,)],
                        "K")


def rollaxis(a, axis, start=0):
    """a with `axis` rolled back until it lies before position start."""
    a = asarray(a)
    n = a.ndim
    axis = _norm_axis(axis, n)
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not (-n <= start <= n):
        raise _AxisError(msg % ("start", -n, "start", n + 1, start))
    if start < 0:
        start += n
    if start > axis:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _lib.cn_permute_dims(a, axes)


def block(arrays):
    """An array assembled from nested lists of blocks."""
    def depth_and_ndim(x, index):
        if type(x) is tuple:
            raise TypeError(f"{_index_str(index)} is a tuple. Only lists "
                            f"can be used to arrange blocks, and np.block "
                            f"does not allow implicit conversion from tuple "
                            f"to ndarray.")
        if type(x) is list:
            if not x:
                raise ValueError(f"List at {_index_str(index)} cannot be "
                                 f"empty")
            res = [depth_and_ndim(e, index + [i]) for i, e in enumerate(x)]
            depths = {r[0] for r in res}
            if len(depths) != 1:
                first = res[0][0]
                for i, r in enumerate(res):
                    if r[0] != first:
                        raise ValueError(
                            f"List depths are mismatched. First element was "
                            f"at depth {first + len(index) + 1}, but there "
                            f"is an element at depth "
                            f"{r[0] + len(index) + 1} "
                            f"({_index_str(index + [i])})")
            return res[0][0] + 1, _builtins.max(r[1] for r in res)
        return 0, asarray(x).ndim

    def _index_str(index):
        return "arrays" + "".join(f"[{i}]" for i in index)

    depth, nd = depth_and_ndim(arrays, [])
    ndim = _builtins.max(depth, nd)

    def build(x, level):
        if level == depth:
            a = asarray(x)
            if a.ndim < ndim:
                a = reshape(a, (1,) * (ndim - a.ndim) + a.shape)
            return a
        parts = [build(e, level + 1) for e in x]
        return concatenate(parts, axis=-(depth - level))

    res = build(arrays, 0)
    return _lib.cn_copy(res, "C") if depth == 0 else res


def ix_(*args):
    """Open mesh index arrays: the k-th reshaped to have its length on
    axis k and 1 elsewhere."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            new = asarray(new)
            if new.size == 0:
                new = _lib.cn_astype(new, _lib.CN_INT64, 0)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new, = nonzero(new)
        out.append(reshape(new, (1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an array of dtype meeting the flags in requirements ('C', 'F',
    'A', 'W', 'O', 'E' and their long names)."""
    names = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
             "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
             "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
             "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}
    if not requirements:
        return asarray(a, dtype)
    reqs = {names[r.upper()] for r in requirements}
    reqs.discard("E")
    reqs.discard("A")
    order = "A"
    if {"C", "F"} <= reqs:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    if "C" in reqs:
        order = "C"
    elif "F" in reqs:
        order = "F"
    arr = asarray(a, dtype)
    need = (order == "C" and not arr.flags.c_contiguous) or \
        (order == "F" and not arr.flags.f_contiguous) or \
        ("W" in reqs and not arr.flags.writeable) or \
        ("O" in reqs and not arr.flags.owndata)
    if need:
        arr = _lib.cn_copy(arr, "K" if order == "A" else order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray that raises ValueError for infs and NaNs."""
    a = asarray(a, dtype)
    if _is_inexact(a) and not bool(all(isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def iterable(y):
    """Whether iter(y) works."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def isfortran(a):
    """True when a is Fortran-contiguous and not C-contiguous."""
    f = a.flags
    return bool(f.f_contiguous and not f.c_contiguous)


# ---- function application ---------------------------------------------------


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to the 1-d slices of arr along axis; the result's
    axis is replaced by func1d's result dimensions."""
    arr = asarray(arr)
    nd = arr.ndim
    axis = _norm_axis(axis, nd)
    inarr = moveaxis(arr, axis, -1)
    outer = inarr.shape[:-1]
    if _math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration "
                         "dimensions are 0")
    results = []
    for ind in _np.ndindex(*outer):
        results.append(asarray(func1d(inarr[ind], *args, **kwargs)))
    res = stack(results)
    res = reshape(res, outer + res.shape[1:])
    rdim = res.ndim - len(outer)
    dest = list(range(axis, axis + rdim))
    src = list(range(len(outer), res.ndim))
    return moveaxis(res, src, dest) if src else res


def apply_over_axes(func, a, axes):
    """func(a, axis) applied repeatedly over axes, keeping dimensions."""
    val = asarray(a)
    N = val.ndim
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = asarray(func(val, axis))
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of "
                                 "the correct shape")
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """Values of funclist[i] (functions or constants) where condlist[i]."""
    x = asarray(x)
    n2 = len(funclist)
    first = None if _np.isscalar(condlist) else condlist[0]
    seq = isinstance(first, (list, _np.ndarray)) or (
        isinstance(first, ndarray) and first.ndim > 0)
    if _np.isscalar(condlist) or (not seq and x.ndim != 0):
        condlist = [condlist]
    condlist = asarray([asarray(c, bool) for c in condlist]) \
        if _builtins.any(isinstance(c, ndarray) for c in condlist) \
        else asarray(condlist, bool)
    condlist = _lib.cn_astype(condlist, _lib.CN_BOOL, 0)
    n = len(condlist)
    if n == n2 - 1:
        condelse = logical_not(any(condlist, axis=0, keepdims=True))
        condlist = concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} "
                         f"functions are expected")
    y = zeros_like(x)
    for cond, func in zip(condlist, funclist):
        cond = broadcast_to(cond, x.shape) if cond.shape != x.shape else cond
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def select(condlist, choicelist, default=0):
    """Elements of choicelist[i] where condlist[i] is first true, else
    default."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of "
                         "conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not "
                         "possible")
    choices = [c if type(c) in _WEAK else asarray(c) for c in choicelist]
    choices.append(default if type(default) in _WEAK else asarray(default))
    dtype = _np.result_type(*[c.dtype if isinstance(c, ndarray) else c
                              for c in choices])
    conds = broadcast_arrays(*[asarray(c) for c in condlist])
    choices = broadcast_arrays(*[asarray(c) for c in choices])
    for i, cond in enumerate(conds):
        if cond.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be "
                            f"boolean ndarray")
    if choices[0].ndim == 0:
        shape = conds[0].shape
    else:
        shape = broadcast_shapes(conds[0].shape, choices[0].shape)
    result = _lib.cn_astype(broadcast_to(choices[-1], shape), dtype, 1)
    result = _lib.cn_copy(result, "C")
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        copyto(result, choice, where=cond, casting="unsafe")
    return result


# ---- in-place assignment ----------------------------------------------------


def _need_array(a, fn):
    if not isinstance(a, ndarray):
        raise TypeError(f"{fn}() argument 1 must be cunumpy.ndarray, not "
                        f"{type(a).__name__}")


def copyto(dst, src, casting="same_kind", where=True):
    """Copies src into dst (broadcasting) where `where` is true; the cast
    must satisfy the casting rule."""
    _need_array(dst, "copyto")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe' (got {casting!r})")
    if type(src) in _WEAK:
        src_dt = _np.result_type(dst.dtype, src) if type(src) is not bool \
            or dst.dtype == _np.bool_ else _np.dtype(bool)
        if type(src) is int and _kind(dst) in (_K_INT, _K_UINT):
            info = _np.iinfo(dst.dtype)
            if not info.min <= src <= info.max:
                raise OverflowError(f"Python integer {src} out of bounds "
                                    f"for {dst.dtype}")
        src_arr = asarray(src, src_dt if src_dt in _dtypes.CODE_OF else None)
    else:
        src_arr = asarray(src)
        src_dt = src_arr.dtype
    if not _np.can_cast(src_dt, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {src_dt!r} to "
                        f"{dst.dtype!r} according to the rule {casting!r}")
    vals = _lib.cn_astype(src_arr, dst._dtype_code, 0)
    if where is True:
        _lib.cn_assign(dst, broadcast_to(vals, dst.shape))
        return
    w = asarray(where)
    if w.dtype != _np.bool_:
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to "
                        f"dtype('bool') according to the rule 'safe'")
    _lib.cn_assign(dst, broadcast_to(_lib.cn_where(w, vals, dst, None),
                                     dst.shape))


def place(arr, mask, vals):
    """Sets arr's elements where mask is true to vals, used in order and
    repeated as needed."""
    _need_array(arr, "place")
    mask = asarray(mask, bool)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    vals = ravel(asarray(vals, arr.dtype))
    n = int(_lib.cn_count_nonzero(mask, None, False).item())
    if n == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    m = reshape(mask, arr.shape)
    _lib.cn_mask_set(arr, m, resize(vals, n))


def putmask(a, mask, values):
    """a[i] = values[i % len(values)] where mask[i] is true."""
    _need_array(a, "putmask")
    mask = asarray(mask, bool)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    values = ravel(asarray(values))
    if values.size == 0:
        return
    vals = _lib.cn_astype(reshape(resize(values, a.size), a.shape),
                          a._dtype_code, 0)
    _lib.cn_assign(a, where(reshape(mask, a.shape), vals, a))


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


# ---- statistics -------------------------------------------------------------


def _bin_width(a, name):
    """NumPy's bin-width estimators over the 1-d non-empty a."""
    n = a.size
    ptp = float(a.max().item()) - float(a.min().item())
    sqrt_w = ptp / _math.sqrt(n)
    sturges = ptp / (_math.log2(n) + 1.0)
    if name == "sqrt":
        return sqrt_w
    if name == "sturges":
        return sturges
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * _math.pi ** 0.5 / n) ** (1.0 / 3.0) * \
            float(a.std().item())
    if name == "doane":
        if n > 2:
            sg1 = _math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
            sigma = float(a.std().item())
            if sigma > 0.0:
                g1 = float((((a - a.mean()) / sigma) ** 3).mean().item())
                return ptp / (1.0 + _math.log2(n) +
                              _math.log2(1.0 + _builtins.abs(g1) / sg1))
        return 0.0
    q = _lib.cn_percentile(_lib.cn_astype(a, _lib.CN_FLOAT64, 0),
                           [75.0, 25.0], None, 0, False)
    fd = 2.0 * (float(q[0].item()) - float(q[1].item())) * n ** (-1.0 / 3.0)
    if name == "fd":
        return fd
    if name == "auto":
        return _builtins.min(_builtins.max(fd, sqrt_w / 2), sturges)
    if name == "stone":
        raise NotImplementedError("bins='stone'")
    raise ValueError(f"{name!r} is not a valid estimator for `bins`")


def _edges_for(a, bins, rng, weights=None):
    """NumPy's _get_bin_edges for the flat a."""
    if isinstance(bins, str):
        if bins not in ("stone", "auto", "doane", "fd", "rice", "scott",
                        "sqrt", "sturges"):
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is "
                            "not supported for weighted data")
        lo, hi = _outer_edges(a, rng)
        if rng is not None:
            a = a[(a >= lo) & (a <= hi)]
        n = 1
        if a.size:
            width = _bin_width(a, bins)
            if width:
                if _kind(a) in (_K_INT, _K_UINT) and width < 1:
                    width = 1
                n = int(_math.ceil((hi - lo) / width))
    elif _np.ndim(bins) == 0:
        try:
            n = _operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an "
                            "array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        lo, hi = _outer_edges(a, rng)
    else:
        e = asarray(bins)
        if e.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if e.size > 1 and bool(any(e[:-1] > e[1:])):
            raise ValueError("`bins` must increase monotonically, when an "
                             "array")
        return e
    bin_type = a.dtype if _kind(a) == _K_FLOAT else _np.float64
    return _lib.cn_astype(linspace(lo, hi, n + 1), bin_type, 0)


def _outer_edges(a, rng):
    if rng is not None:
        lo, hi = rng
        if lo > hi:
            raise ValueError("max must be larger than min in range "
                             "parameter.")
        if not (_math.isfinite(lo) and _math.isfinite(hi)):
            raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
    elif a.size == 0:
        lo, hi = 0, 1
    else:
        lo, hi = a.min().item(), a.max().item()
        if not (_math.isfinite(lo) and _math.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not "
                             f"finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return float(lo), float(hi)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges histogram(a, bins, range) uses."""
    a = ravel(asarray(a))
    return _edges_for(a, bins, range, weights)


def _bin_index(v, edges):
    """Bin of each value for increasing edges (last bin closed), -1 when
    outside."""
    n = edges.shape[0] - 1
    i = searchsorted(edges, v, side="right") - 1
    i = where(equal(v, edges[-1]), n - 1, i)
    return where((v < edges[0]) | (v > edges[-1]) | isnan(v), -1, i)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """D-dimensional histogram of the N points of sample ((N, D) or a
    sequence of D arrays): (H float64 of the bin counts, [edges])."""
    if isinstance(sample, (list, tuple)):
        sample = [ravel(asarray(c)) for c in sample]
        sample = stack(sample, axis=1) if sample else zeros((0, 0))
    sample = asarray(sample)
    if sample.ndim != 2:
        sample = _lib.cn_atleast_2d(sample).T
    D = sample.shape[1]
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the "
                             "dimension of the sample x.")
    except TypeError:
        bins = [bins]
    ranges = None
    if range is not None:
        if len(range) != D:
            raise ValueError("range argument must have one entry per "
                             "dimension")
        ranges = asarray([[_math.nan, _math.nan] if r is None else
                          [float(r[0]), float(r[1])] for r in range])
    if weights is not None:
        weights = ravel(asarray(weights))
    res = _lib.cn_histogramdd(sample, [asarray(b) for b in bins], ranges,
                              weights, bool(density))
    return res[0], list(res[1:])


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """2-d histogram of the points (x, y): (H, xedges, yedges), H float64
    of shape (nx, ny)."""
    x, y = asarray(x), asarray(y)
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError("x and y must be 1-d arrays of the same length")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [asarray(bins), asarray(bins)]
    h, (xe, ye) = histogramdd([x, y], bins, range, density, weights)
    return h, xe, ye


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero."""
    a = asarray(a)
    if _is_inexact(a):
        a = where(isnan(a), 0, a)
    return cumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    a = asarray(a)
    if _is_inexact(a):
        a = where(isnan(a), 1, a)
    return cumprod(a, axis=axis, dtype=dtype, out=out)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ary, with
    to_begin / to_end attached."""
    ary = ravel(asarray(ary))
    parts = []
    for what, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            parts.append(None)
            continue
        v = asarray(v)
        if not _np.can_cast(v.dtype, ary.dtype, "same_kind"):
            raise TypeError(f"dtype of `{what}` must be compatible with "
                            f"input `ary` under the `same_kind` rule.")
        parts.append(_lib.cn_astype(ravel(v), ary._dtype_code, 0))
    if _kind(ary) == _K_BOOL:
        raise TypeError("numpy boolean subtract, the `-` operator, is not "
                        "supported, use the bitwise_xor, the `^` operator, "
                        "or the logical_xor function instead.")
    d = ary[1:] - ary[:-1]
    seq = [p for p in (parts[0], d, parts[1]) if p is not None]
    return concatenate(seq) if len(seq) > 1 else d


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros."""
    arr = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axes = tuple(range(arr.ndim))
    else:
        axes = (axis,) if _np.ndim(axis) == 0 else tuple(axis)
        axes = tuple(_norm_axis(ax, arr.ndim) for ax in axes)
    if not axes:
        return filt
    nz = argwhere(arr)
    if nz.shape[0] == 0:
        start = stop = [0] * arr.ndim
    else:
        start = [int(v) for v in nz.min(axis=0).tolist()]
        stop = [int(v) + 1 for v in nz.max(axis=0).tolist()]
        if "f" not in trim:
            start = [None] * arr.ndim
        if "b" not in trim:
            stop = [None] * arr.ndim
    sl = tuple(slice(start[ax], stop[ax]) if ax in axes else slice(None)
               for ax in range(arr.ndim))
    if len(sl) == 1:
        return filt[sl[0]]
    return filt[sl]


def unwrap(p, discont=None, axis=-1, *, period=2 * _math.pi):
    """p with jumps larger than discont replaced by their period
    complement along axis."""
    p = asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = result_type(dd, period)
    if _np.issubdtype(dtype, _np.integer):
        interval_high, rem = _builtins.divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = where(equal(ddmod, interval_low) & (dd > 0), interval_high,
                      ddmod)
    ph_correct = ddmod - dd
    ph_correct = where(abs(dd) < discont, 0, ph_correct)
    up = _lib.cn_astype(p, dtype, 1)
    up = _lib.cn_copy(up, "C")
    if up.size:
        up[slice1] = p[slice1] + cumsum(ph_correct, axis=axis)
    return up


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted values that are in exactly one of ar1 and ar2."""
    from ._api import unique
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ravel(asarray(ar1)), ravel(asarray(ar2))))
    if aux.size == 0:
        return aux
    aux = sort(aux)
    t = ones(1, bool)
    flag = concatenate((t, aux[1:] != aux[:-1], t))
    return aux[flag[1:] & flag[:-1]]


def mask_indices(n, mask_func, k=0):
    """Indices where mask_func(ones((n, n)), k) is nonzero (e.g. triu)."""
    m = ones((n, n), int)
    return nonzero(asarray(mask_func(m, k)) != 0)


def sort_complex(a):
    """a sorted (real part first, then imaginary), as complex."""
    a = asarray(a)
    if a.ndim == 0:
        raise _AxisError(-1, 0)
    b = sort(a)
    if _kind(b) == _K_COMPLEX:
        return b
    if b.dtype.char in "bhBH":
        return _lib.cn_astype(b, _lib.CN_COMPLEX64, 0)
    return _lib.cn_astype(b, _lib.CN_COMPLEX128, 0)


# ---- formatting -------------------------------------------------------------


def _host(a):
    from ._backend import to_numpy
    return to_numpy(asarray(a))


def array2string(a, *args, **kwargs):
    """Text of a as NumPy formats it."""
    return _np.array2string(_host(a), *args, **kwargs)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _np.array_str(_host(a), max_line_width, precision, suppress_small)


def array_repr(arr, max_line_width=None, precision=None,
               suppress_small=None):
    return _np.array_repr(_host(arr), max_line_width, precision,
                          suppress_small)


# ---- dtypes -----------------------------------------------------------------


def iscomplexobj(x):
    """Whether x's dtype is complex (whatever its values)."""
    return _dtype_kind(x) == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    """True where the imaginary part is nonzero."""
    ax = asarray(x)
    if _kind(ax) == _K_COMPLEX:
        return ax.imag != 0
    return zeros(ax.shape, bool)


def isreal(x):
    """True where the imaginary part is zero."""
    if type(x) in _WEAK:
        return x.imag == 0
    ax = asarray(x)
    if _kind(ax) == _K_COMPLEX:
        return ax.imag == 0
    return ones(ax.shape, bool)


def promote_types(type1, type2):
    """The smallest dtype both cast to safely."""
    return _dtypes.DTYPE_OF[_lib.cn_result_type(_dtypes.to_code(type1),
                                                _dtypes.to_code(type2))]


def issubdtype(arg1, arg2):
    return _np.issubdtype(arg1, arg2)


def common_type(*arrays):
    """The inexact scalar type common to the arrays (integers count as
    float64)."""
    is_complex = False
    precision = 0
    for a in arrays:
        k = _dtype_kind(a)
        if k in "iub":
            if k == "b":
                raise TypeError("can't get common type for non-numeric "
                                "array")
            p = 8
        elif k in "fc":
            p = _np.dtype(a.dtype).itemsize // (2 if k == "c" else 1)
            is_complex = is_complex or k == "c"
        else:
            raise TypeError("can't get common type for non-numeric array")
        precision = _builtins.max(precision, p)
    table = {4: (_np.float32, _np.complex64), 8: (_np.float64,
                                                  _np.complex128),
             2: (_np.float16, _np.complex64)}
    if not arrays:
        return _np.float16
    return table[precision][1 if is_complex else 0]


def min_scalar_type(a):
    """The smallest dtype that holds a's value (a's dtype for arrays)."""
    if isinstance(a, ndarray) and a.ndim:
        return a.dtype
    if isinstance(a, ndarray):
        a = a.item()
    return _np.min_scalar_type(a)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The type character of typeset that every type in typechars casts
    to safely."""
    typecodes = ((isinstance(t, str) and t) or
                 (t.dtype.char if isinstance(t, ndarray) else
                  _np.asarray(t).dtype.char) for t in typechars)
    intersection = {t for t in typecodes if t in typeset}
    if not intersection:
        return default
    if "F" in intersection and "d" in intersection:
        return "D"
    return _builtins.min(intersection, key="GDFgdf".index)


# ---- elementwise math -------------------------------------------------------


def _signed_inf(x, negative, out):
    x = asarray(x)
    if _kind(x) == _K_COMPLEX:
        raise TypeError(f"This operation is not supported for {x.dtype} "
                        f"values because it would be ambiguous.")
    sb = signbit(x)
    return _ret(logical_and(isinf(x), sb if negative else logical_not(sb),
                            out), out)


def isposinf(x, out=None):
    """True where x is +inf."""
    return _signed_inf(x, False, out)


def isneginf(x, out=None):
    """True where x is -inf."""
    return _signed_inf(x, True, out)


def fix(x, out=None):
    """Rounds toward zero (keeps integer dtypes)."""
    x = asarray(x)
    k = _kind(x)
    if k == _K_COMPLEX:
        raise TypeError("ufunc 'floor' not supported for the input types, "
                        "and the inputs could not be safely coerced to any "
                        "supported types according to the casting rule "
                        "''safe''")
    if k in (_K_INT, _K_UINT, _K_BOOL):
        return _out(_lib.cn_copy(x, "K"), out)
    return _ret(trunc(x, out), out)


def deg2rad(x, out=None):
    """Degrees to radians."""
    x = _float_result(x, "deg2rad")
    return _ret(multiply(x, _math.pi / 180.0, out), out)


def rad2deg(x, out=None):
    """Radians to degrees."""
    x = _float_result(x, "rad2deg")
    return _ret(multiply(x, 180.0 / _math.pi, out), out)


radians = deg2rad
degrees = rad2deg


def fabs(x, out=None):
    """Absolute value of real x, as floats."""
    return _ret(abs(_float_result(x, "fabs"), out), out)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = asarray(x)
    y = _math.pi * where(equal(x, 0), 1.0e-20, x)
    return sin(y) / y


def float_power(x1, x2, out=None):
    """x1 ** x2 in float64 (complex128 for complex inputs)."""
    a, b = asarray(x1), asarray(x2)
    cplx = _K_COMPLEX in (_kind(a), _kind(b))
    code = _lib.CN_COMPLEX128 if cplx else _lib.CN_FLOAT64
    return _ret(power(_lib.cn_astype(a, code, 0), _lib.cn_astype(b, code, 0),
                      out), out)


def divmod(x1, x2, out1=None, out2=None, *, out=(None, None)):
    """(x1 // x2, x1 % x2)."""
    if out != (None, None):
        out1, out2 = out
    return (_ret(floor_divide(x1, x2, out1), out1),
            _ret(remainder(x1, x2, out2), out2))


def modf(x, out1=None, out2=None, *, out=(None, None)):
    """(fractional part, integral part), both with x's sign."""
    if out != (None, None):
        out1, out2 = out
    x = _float_result(x, "modf")
    ip = trunc(x)
    frac = copysign(where(isinf(x), 0.0, x - ip), x)
    return _out(frac, out1), _out(ip, out2)


def real_if_close(a, tol=100):
    """a's real part when a is complex with every imaginary part within
    tol machine epsilons of zero, else a."""
    a = asarray(a)
    if _kind(a) != _K_COMPLEX:
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(all(abs(a.imag) < tol)):
        a = a.real
    return a


# ---- windows and special functions ------------------------------------------

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


# ---- polynomials ------------------------------------------------------------


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


# ---- construction from Python objects ---------------------------------------


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function applied to the index grids of shape."""
    args = indices(shape, dtype=dtype)
    return function(*args, **kwargs)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """A 1-d array over the bytes of a buffer-protocol object (zero-copy on
    the CPU)."""
    return asarray(_np.frombuffer(buffer, dtype, count, offset))


def fromiter(iter, dtype, count=-1, *, like=None):
    """A 1-d array from the values of an iterable."""
    return asarray(_np.fromiter(iter, dtype, count))


# ---- memory overlap ---------------------------------------------------------


def _extent(a):
    """[lo, hi) byte addresses a's elements touch."""
    lo = hi = a._data_ptr
    for n, s in zip(a.shape, a.strides):
        if n == 0:
            return 0, 0
        if s > 0:
            hi += s * (n - 1)
        else:
            lo += s * (n - 1)
    return lo, hi + a.itemsize


def may_share_memory(a, b, max_work=None):
    """Whether the memory extents of a and b overlap (a quick bound)."""
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)):
        return False
    if a._device != b._device or a.size == 0 or b.size == 0:
        return False
    (alo, ahi), (blo, bhi) = _extent(a), _extent(b)
    return alo < bhi and blo < ahi


def _byte_addresses(a):
    grids = [arange(n) * s for n, s in zip(a.shape, a.strides)]
    addr = zeros((), _np.int64)
    for i, g in enumerate(grids):
        addr = addr + reshape(g, (1,) * i + (g.shape[0],) +
                              (1,) * (a.ndim - i - 1))
    addr = ravel(addr) + (a._data_ptr - _extent(a)[0])
    return ravel(addr[:, None] + arange(a.itemsize)[None, :])


def shares_memory(a, b, max_work=None):
    """Whether a and b have a byte in common (exact)."""
    if not may_share_memory(a, b):
        return False
    if a.flags.c_contiguous and b.flags.c_contiguous:
        return True
    base = _builtins.min(_extent(a)[0], _extent(b)[0])
    aa = _byte_addresses(a) + (_extent(a)[0] - base)
    bb = _byte_addresses(b) + (_extent(b)[0] - base)
    return bool(any(_lib.cn_isin(aa, bb, False)))


# ---- gufuncs ----------------------------------------------------------------


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
