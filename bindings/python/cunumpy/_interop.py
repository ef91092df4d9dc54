"""NumPy interoperability: the __array_ufunc__ / __array_function__ handlers
of ndarray, text formatting through NumPy's printer (array2string,
array_str, array_repr) and the memory-overlap queries may_share_memory /
shares_memory.
"""

import builtins as _builtins

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _on_cpu, zeros
from ._reduce import any
from ._ufunc import _ALIASES, UFUNCS, ufunc
from ._shape import ravel, reshape
from ._creation import arange
from ._dtypes import DTYPE_OF

__all__ = ["numpy_ufunc", "numpy_function", "array2string", "array_str",
           "array_repr", "may_share_memory", "shares_memory"]


_NUMPY_UFUNC_NAMES = dict(_ALIASES)
_DTYPES = frozenset(DTYPE_OF.values())


def numpy_ufunc(uf, method, inputs, kwargs):
    """ndarray.__array_ufunc__: NumPy ufuncs applied to cunumpy arrays run in
    cunumpy (mixed NumPy/cunumpy operands give cunumpy results); ufuncs and
    methods cunumpy does not have (scipy.special, np.frompyfunc, ufunc.at)
    run in NumPy on host views of CPU arrays and give cunumpy arrays."""
    if _foreign_operand(inputs, kwargs):
        return NotImplemented
    name = _NUMPY_UFUNC_NAMES.get(uf.__name__, uf.__name__)
    f = UFUNCS.get(name) if _is_numpy_ufunc(uf) else None
    out = kwargs.get("out")
    outs = () if out is None else (out if isinstance(out, tuple) else (out,))
    native_out = _builtins.all(isinstance(o, ndarray) for o in outs)
    if f is None and _is_numpy_ufunc(uf):
        import cunumpy
        g = getattr(cunumpy, name, None)
        if isinstance(g, ufunc):  # a composed op with ufunc methods
            f = g
    if f is None:
        # ufuncs the engine composes (divmod, modf, fabs, deg2rad...) are
        # plain functions of the namespace: calls only
        import cunumpy
        g = getattr(cunumpy, name, None) if _is_numpy_ufunc(uf) else None
        if method == "__call__" and callable(g) and \
                not isinstance(g, type) and native_out:
            return g(*inputs, **kwargs)
        return _numpy_ufunc_fallback(uf, method, inputs, kwargs)
    if not native_out:
        return NotImplemented
    if method == "__call__":
        return f(*inputs, **kwargs)
    if method == "reduce":
        return f.reduce(*inputs, **kwargs)
    if method == "accumulate":
        return f.accumulate(*inputs, **kwargs)
    if method == "outer":
        return f.outer(*inputs, **kwargs)
    if method == "reduceat":
        return f.reduceat(*inputs, **kwargs)
    if method == "at" and isinstance(inputs[0], ndarray):
        return f.at(*inputs, **kwargs)
    return _numpy_ufunc_fallback(uf, method, inputs, kwargs)


def _is_numpy_ufunc(uf):
    """True for NumPy's own ufuncs (numpy.sin), whose names are the
    engine's; a third-party ufunc of the same name (scipy.special's, a
    frompyfunc one) is another function."""
    return getattr(_np, uf.__name__, None) is uf


def _foreign_operand(inputs, kwargs):
    """True when an operand of another library defines __array_ufunc__
    (NEP 13: it gets its turn)."""
    ours = (ndarray.__array_ufunc__, _np.ndarray.__array_ufunc__)
    out = kwargs.get("out", ())
    for x in inputs + (out if isinstance(out, tuple) else (out,)):
        h = getattr(type(x), "__array_ufunc__", None)
        if h is not None and h not in ours:
            return True
    return False


def _numpy_ufunc_fallback(uf, method, inputs, kwargs):
    """uf.method run by NumPy on zero-copy host views of the CPU arrays
    (out= written in place); NumPy's results come back as cunumpy arrays,
    but for those of a dtype cunumpy lacks (np.frompyfunc's object arrays),
    which stay NumPy's.
    Device arrays raise TypeError: they are never copied silently."""
    def host(x):
        if isinstance(x, ndarray):
            if not _on_cpu(x):
                raise TypeError(
                    f"ufunc '{uf.__name__}' is not supported by cunumpy and "
                    f"does not accept device arrays; use cunumpy.to_numpy() "
                    f"first")
            return _np.asarray(memoryview(x))
        return x

    out = kwargs.get("out")
    outs = None if out is None else (out if isinstance(out, tuple)
                                     else (out,))
    kw = {k: host(v) for k, v in kwargs.items() if k != "out"}
    if outs is not None:
        kw["out"] = tuple(host(o) for o in outs)
    res = getattr(uf, method)(*[host(x) for x in inputs], **kw)
    if res is None:  # ufunc.at
        return None

    def back(r, i):
        if outs is not None and i < len(outs) and outs[i] is not None:
            return outs[i]
        if isinstance(r, (_np.ndarray, _np.generic)) and \
                _np.dtype(r.dtype) in _DTYPES:
            return asarray(r)
        return r  # object results (np.frompyfunc) have no cunumpy dtype

    if isinstance(res, tuple):
        return tuple(back(r, i) for i, r in enumerate(res))
    return back(res, 0)


def numpy_function(func, types, args, kwargs):
    """ndarray.__array_function__: a NumPy function called on cunumpy arrays
    runs the cunumpy function of the same name; without one, host arrays are
    handed to NumPy (device arrays are never copied silently)."""
    import cunumpy
    module = getattr(func, "__module__", None) or ""
    # numpy.linalg and numpy.fft functions go to cunumpy's namespaces of
    # the same name (numpy.linalg.diagonal is not numpy.diagonal).
    space = cunumpy.linalg if module.startswith("numpy.linalg") else \
        cunumpy.fft if module.startswith("numpy.fft") else cunumpy
    mine = getattr(space, func.__name__, None)
    if mine is not None and callable(mine) and \
            module.startswith("numpy") and \
            "." not in func.__qualname__:
        try:
            return mine(*args, **kwargs)
        except NotImplementedError:
            pass

    def host(x):
        if isinstance(x, ndarray):
            if not _on_cpu(x):
                raise TypeError(f"numpy.{func.__name__} does not accept "
                                f"device arrays; use cunumpy.to_numpy() first")
            return _np.asarray(memoryview(x))
        if isinstance(x, (list, tuple)):
            return type(x)(host(e) for e in x)
        return x

    return func(*host(list(args)), **{k: host(v) for k, v in kwargs.items()})


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
