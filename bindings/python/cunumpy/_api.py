"""The cunumpy namespace: NumPy's function names (and the Array API 2024.12
names where they differ) over the low-level module _cnlib.

Most functions are one call into the C ABI: the SWIG typemaps already turn
Python scalars into weak scalars, sequences into arrays (via asarray),
dtype-likes into cn_dtype codes, None axes into "all axes" and out-params
into return values, and raise the exception of every error status.
"""

import builtins as _builtins
import contextlib as _contextlib

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import Device, ndarray, parse_device

_F64 = _lib.CN_FLOAT64
_WEAK = (bool, int, float, complex)
_SCALAR_CODE = {bool: _lib.CN_BOOL, int: _lib.CN_INT64,
                float: _lib.CN_FLOAT64, complex: _lib.CN_COMPLEX128}
_INT64_MAX = 2**63 - 1

# empty, zeros, ones and asarray are C entry points that take their common
# arguments themselves and hand every other call to the _*_py functions
# (registered at the end of this file with _set_fast).
empty, zeros, ones, asarray = _lib.empty, _lib.zeros, _lib.ones, _lib.asarray


def _has(name):
    return hasattr(_lib, name)


# ---- devices -------------------------------------------------------------


def _on_cpu(a):
    return a._device[0] != _lib.CN_DEVICE_CUDA


def to_host_view(a):
    """a itself when it lives in host memory, else a host copy."""
    return a if _on_cpu(a) else _lib.cn_to_host(a)


@_contextlib.contextmanager
def _device_scope(device):
    """Makes `device` the active backend for creation inside the block."""
    dev = parse_device(device)
    if dev is None:
        yield
        return
    _lib.cn_push_backend(dev.type)
    try:
        yield
    finally:
        _lib.cn_pop_backend()


def to_device(x, device=None, /, *, stream=None):
    """Copy of x on `device` ("cpu", "cuda", "cuda:N"; None: the current
    CUDA device). Raises CudaUnavailableError (an ImportError) when CUDA
    cannot be used."""
    from ._backend import _require_cuda
    x = asarray(x)
    dev = parse_device(device) if device is not None else Device("cuda", 0)
    if dev.type == "cpu":
        return _lib.cn_to_host(x)
    _require_cuda()
    if x._device == (_lib.CN_DEVICE_CUDA, dev.id):
        return x
    return _lib.cn_to_device(x, dev.id)


# ---- conversion ------------------------------------------------------------


def _scalar_code(v):
    if type(v) is int and v > _INT64_MAX:
        return _lib.CN_UINT64
    return _SCALAR_CODE[type(v)]


def _from_host_object(obj, code, copy):
    """Array from a host object: zero-copy over its buffer when it exports
    one the engine can describe (and no dtype change is asked), else a copy
    through NumPy."""
    if not isinstance(obj, (list, tuple, str)):
        if isinstance(obj, _np.ndarray) and obj.dtype not in \
                _dtypes.CODE_OF and obj.dtype.newbyteorder("=") not in \
                _dtypes.CODE_OF:
            raise TypeError(f"cunumpy does not support the dtype {obj.dtype}")
        try:
            res = _lib._from_buffer(obj)
        except TypeError:
            res = None  # not a buffer exporter: NumPy converts it below
        except BufferError:
            if copy is False:
                raise ValueError("the object's memory cannot be wrapped "
                                 "without a copy") from None
            res = None
        if res is not None:
            if code is not None and code != res._dtype_code:
                if copy is False:
                    raise ValueError("a copy is needed to change the dtype")
                return _lib.cn_astype(res, code, 1)
            if _lib.cn_get_backend() != "cpu":
                return _lib.cn_to_active(res)
            return _lib.cn_copy(res, "K") if copy else res
    if copy is False:
        raise ValueError(f"cannot make an array from a "
                         f"{type(obj).__name__} without a copy")
    np_dtype = _dtypes.DTYPE_OF[code] if code is not None else None
    arr = _np.asarray(obj, dtype=np_dtype)
    if arr.dtype == object:
        raise TypeError(f"cannot make a cunumpy array from {obj!r:.80}")
    if arr.dtype not in _dtypes.CODE_OF:
        native = arr.dtype.newbyteorder("=")
        if native not in _dtypes.CODE_OF:
            raise TypeError(f"cunumpy does not support the dtype {arr.dtype}")
        arr = arr.astype(native)
    res = _lib._from_buffer(arr if arr.flags.c_contiguous or arr.flags
                            .f_contiguous else _np.ascontiguousarray(arr))
    if _lib.cn_get_backend() != "cpu":
        return _lib.cn_to_active(res)
    return res


def _asarray_py(obj, dtype=None, order=None, *, device=None, copy=None,
                like=None):
    """asarray for the calls its C entry point (_cnlib.asarray) hands on."""
    code = None if dtype is None else _dtypes.to_code(dtype)
    if device is not None:
        with _device_scope(device):
            res = asarray(obj, dtype, order, copy=copy)
        dev = parse_device(device)
        if res.device != dev:
            res = to_device(res, dev)
        return res
    if isinstance(obj, ndarray):
        res = obj
        if code is not None and code != obj._dtype_code:
            if copy is False:
                raise ValueError("a copy is needed to change the dtype")
            return _lib.cn_astype(obj, code, 1)
        if copy:
            return _lib.cn_copy(obj, order or "K")
        return res
    if type(obj) in _WEAK:
        return _lib.cn_from_scalar(obj, code if code is not None
                                   else _scalar_code(obj))
    if isinstance(obj, _np.generic):
        c = code if code is not None else _dtypes.to_code(obj.dtype)
        return _lib.cn_from_scalar(obj.item(), c)
    if isinstance(obj, (_np.ndarray, memoryview, bytes, bytearray)):
        return _from_host_object(obj, code, copy)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, (list, tuple)):
        res = from_dlpack(obj, copy=copy)
        if code is not None and code != res._dtype_code:
            return _lib.cn_astype(res, code, 1)
        return res
    if code is None and copy is not False and type(obj) in (list, tuple):
        res = _lib._from_sequence(obj)
        if res is not None:
            return res
    if isinstance(obj, (list, tuple)) and obj and _builtins.any(
            isinstance(e, ndarray) for e in obj):
        if _builtins.all(isinstance(e, ndarray) for e in obj):
            return stack(obj) if code is None else stack(obj).astype(code)
        obj = [e.get() if isinstance(e, ndarray) else e for e in obj]
    return _from_host_object(obj, code, copy)


def array(obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0,
          like=None, device=None):
    """NumPy's array(): asarray that copies by default."""
    if dtype is None and not ndmin and device is None and copy is not \
            False and type(obj) in (list, tuple):
        res = _lib._from_sequence(obj)  # a new array: no copy to make
        if res is not None:
            return res
    res = asarray(obj, dtype, order, device=device,
                  copy=copy if copy is False else (True if copy else None))
    if ndmin > res.ndim:
        res = _lib.cn_reshape(res, (1,) * (ndmin - res.ndim) + res.shape,
                              "C")
    return res


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None):
    a = asarray(a, dtype)
    return a if a.flags.c_contiguous else _lib.cn_copy(a, "C")


def asfortranarray(a, dtype=None, *, like=None):
    a = asarray(a, dtype)
    return a if a.flags.f_contiguous else _lib.cn_copy(a, "F")


def from_dlpack(x, /, *, device=None, copy=None):
    """Array sharing the memory of any object with __dlpack__ (versioned
    capsules preferred, legacy ones accepted)."""
    if isinstance(x, ndarray):
        return _lib.cn_copy(x, "K") if copy else x
    kwargs = {"max_version": (1, 1)}
    if copy is not None:
        kwargs["copy"] = copy
    if device is not None:
        dev = parse_device(device)
        kwargs["dl_device"] = (_lib.CN_DEVICE_CPU, 0) if dev.type == "cpu" \
            else (_lib.CN_DEVICE_CUDA, dev.id)
    try:
        cap = x.__dlpack__(**kwargs)
    except TypeError:
        if copy or device is not None:
            raise
        cap = x.__dlpack__()  # a producer older than DLPack 1.0
    return _lib._from_dlpack(cap)


def to_dlpack(a, stream, max_version, dl_device, copy):
    """ndarray.__dlpack__ (Array API 2024.12)."""
    if dl_device is not None and tuple(dl_device) != a._device:
        if copy is False:
            raise BufferError("exporting to another device needs a copy")
        if dl_device[0] != _lib.CN_DEVICE_CPU:
            raise BufferError(f"cannot export to device {dl_device}")
        a = _lib.cn_to_host(a)
        copy = False
    if _on_cpu(a) and stream is not None:
        raise ValueError("stream must be None for CPU arrays")
    if copy:
        a = _lib.cn_copy(a, "K")
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _lib._to_dlpack(a, versioned)


# ---- creation -----------------------------------------------------------------



def _empty_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.empty(shape, dtype, order)
    return _lib.cn_empty(shape, _F64 if dtype is None else dtype, order)


def _zeros_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.zeros(shape, dtype, order)
    return _lib.cn_zeros(shape, _F64 if dtype is None else dtype, order)


def _ones_py(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return _lib.ones(shape, dtype, order)
    return _lib.cn_ones(shape, _F64 if dtype is None else dtype, order)


def _fill_dtype(fill_value, dtype):
    if dtype is not None:
        return dtype
    if type(fill_value) in _WEAK:
        return _scalar_code(fill_value)
    return _dtypes.to_code(getattr(fill_value, "dtype", None) or
                           _np.asarray(fill_value).dtype)


def _fill_scalar(fill_value):
    if isinstance(fill_value, ndarray):
        return fill_value.item()
    return fill_value


def full(shape, fill_value, dtype=None, order="C", *, device=None,
         like=None):
    if device is None and type(fill_value) in _WEAK:
        if dtype is None:
            return _lib.cn_full(shape, fill_value, _scalar_code(fill_value),
                                order)
        code = _dtypes.to_code(dtype)
        _check_int_fits(fill_value, code)
        return _lib.cn_full(shape, fill_value, code, order)
    if device is not None:
        with _device_scope(device):
            return full(shape, fill_value, dtype, order)
    if not isinstance(fill_value, ndarray) and _np.ndim(fill_value) > 0:
        return array(broadcast_to(asarray(fill_value, dtype), shape),
                     order=order)
    return _lib.cn_full(shape, _fill_scalar(fill_value),
                        _fill_dtype(fill_value, dtype), order)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *,
               device=None):
    if shape is not None:
        return empty(shape, dtype or asarray(prototype).dtype, "C",
                     device=device or asarray(prototype).device)
    return _lib.cn_empty_like(prototype, dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *,
               device=None):
    if shape is not None:
        return zeros(shape, dtype or asarray(a).dtype, device=device)
    return _lib.cn_zeros_like(a, dtype)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    if shape is not None:
        return ones(shape, dtype or asarray(a).dtype, device=device)
    return _lib.cn_ones_like(a, dtype)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None,
              *, device=None):
    if shape is not None:
        return full(shape, fill_value, dtype or asarray(a).dtype,
                    device=device)
    return _lib.cn_full_like(a, _fill_scalar(fill_value), dtype)


def arange(start, stop=None, step=None, dtype=None, *, device=None,
           like=None):
    """Evenly spaced values in [start, stop); exact for integer bounds."""
    if device is None and dtype is None and step is None and stop is None:
        if type(start) is int:
            return _lib.cn_arange_int(0, start, 1, 0)
        if type(start) is float:
            return _lib.cn_arange(0.0, start, 1.0, 0)
    if device is not None:
        with _device_scope(device):
            return arange(start, stop, step, dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    vals = (start, stop, step)
    code = None if dtype is None else _dtypes.to_code(dtype)
    ints = _builtins.all(isinstance(v, (int, _np.integer)) and
                         not isinstance(v, bool) for v in vals)
    if ints and (code is None or _dtypes.kind(code) in
                 (_lib.CN_KIND_INT, _lib.CN_KIND_UINT)):
        return _lib.cn_arange_int(int(start), int(stop), int(step),
                                  code or 0)
    return _lib.cn_arange(float(start), float(stop), float(step), code or 0)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0, *, device=None):
    if device is not None:
        with _device_scope(device):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if _np.ndim(start) or _np.ndim(stop) or axis != 0 or not isinstance(
            start, (int, float)) or not isinstance(stop, (int, float)):
        return _linspace_arrays(start, stop, int(num), endpoint, retstep,
                                dtype, axis)
    res = _lib.cn_linspace(float(start), float(stop), int(num),
                           bool(endpoint), dtype)
    if retstep:
        div = (num - 1) if endpoint else num
        step = (stop - start) / div if div > 0 else float("nan")
        return res, step
    return res


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace for array (or complex, or NumPy scalar) bounds: NumPy's
    algorithm, samples along a new axis `axis`."""
    # Python scalars stay weak in the promotion (NEP 50), as in NumPy.
    dt = result_type(*(v if type(v) in _WEAK else asarray(v)
                       for v in (start, stop)), float(num))
    start, stop = asarray(start), asarray(stop)
    if _dtypes.kind(_dtypes.to_code(dt)) not in (_lib.CN_KIND_FLOAT,
                                                 _lib.CN_KIND_COMPLEX):
        dt = _np.dtype(_np.float64)
    start, stop = astype(start, dt, copy=False), astype(stop, dt, copy=False)
    div = (num - 1) if endpoint else num
    delta = stop - start
    y = _lib.cn_reshape(arange(0, num, dtype=dt), (-1,) + (1,) * delta.ndim,
                        "C")
    if div > 0:
        step = delta / div
        if bool(_lib.cn_any(step == 0, None, False, None, None)):
            y = (y / div) * delta  # denormal steps, as NumPy
        else:
            y = y * step
    else:
        step = float("nan")
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        code = _dtypes.to_code(dtype)
        if _dtypes.kind(code) in (_lib.CN_KIND_INT, _lib.CN_KIND_UINT):
            y = _lib.cn_floor(y, None)
        y = _lib.cn_astype(y, code, 0)
    if retstep:
        if isinstance(step, ndarray) and step.ndim == 0:
            step = step.item()
        return y, step
    return y


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _device_scope(device):
            return eye(N, M, k, dtype, order)
    return _lib.cn_eye(N, -1 if M is None else M, k,
                       _F64 if dtype is None else dtype, order)


def identity(n, dtype=None, *, like=None):
    return _lib.cn_identity(n, _F64 if dtype is None else dtype)


# ---- ufuncs ---------------------------------------------------------------


class ufunc(_lib.UfuncBase):
    """An elementwise op of the engine's op table (NumPy's ufunc). Calls
    with exactly nin positional arguments go from C straight to the op;
    keywords (out=, dtype=, where=) take the Python path (_call)."""

    def __init__(self, name, nin, fn, doc):
        self._bind(fn, nin, name)
        self.__name__ = name
        self.nin = nin
        self.nout = 1
        self.nargs = nin + 1
        self._fn = fn
        self.__doc__ = doc

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _call(self, *args, out=None, dtype=None, casting="same_kind",
              where=True, order="K", subok=True, signature=None):
        nin = self.nin
        if len(args) != nin:
            if len(args) == nin + 1 and out is None:
                out = args[nin]
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to "
                                f"{nin + 1} positional arguments but "
                                f"{len(args)} were given")
        if type(out) is tuple:
            if len(out) != 1:
                raise ValueError("The 'out' tuple must have exactly one entry")
            out = out[0]
        if out is not None and not isinstance(out, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        if dtype is not None:
            args = tuple(a if type(a) in _WEAK else
                         _lib.cn_astype(a, dtype, 0) for a in args)
        if where is not True:
            res = self._fn(*args, None)
            if out is None:
                return res
            return _lib.cn_where(where, res, out, out)
        return self._fn(*args, out)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=None, where=True):
        """Reduction along axis (NumPy's ufunc.reduce) for the ops with a
        C reduction: add, multiply, minimum, maximum, logical_and,
        logical_or."""
        fn = _REDUCERS.get(self.__name__)
        if fn is None:
            raise NotImplementedError(f"{self.__name__}.reduce")
        if type(out) is tuple:
            out, = out
        kw = {}
        if initial is not None:
            if fn in (all, any):
                raise NotImplementedError(f"{self.__name__}.reduce with "
                                          f"initial=")
            kw["initial"] = initial
        if fn in (max, min, all, any):
            res = fn(array, axis=axis, keepdims=keepdims, where=where, **kw)
            if dtype is not None:
                res = _lib.cn_astype(res, dtype, 0)
            return res if out is None else _assign_out(out, res)
        return fn(array, axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                  where=where, **kw)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running reduction along axis (NumPy's ufunc.accumulate) for the
        ops with a C scan: add and multiply."""
        fn = _ACCUMULATORS.get(self.__name__)
        if fn is None:
            raise NotImplementedError(f"{self.__name__}.accumulate")
        if type(out) is tuple:
            out, = out
        array = asarray(array)
        if array.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        return fn(array, axis=axis, dtype=dtype, out=out)

    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary "
                             "functions")
        A, B = asarray(A), asarray(B)
        return self(_lib.cn_reshape(A, A.shape + (1,) * B.ndim, "C"), B,
                    **kwargs)


UFUNCS = {}
for _name, _nin, _loops, _outrule, _doc in _lib._op_table():
    UFUNCS[_name] = ufunc(_name, _nin, getattr(_lib, "cn_" + _name), _doc)
del _name, _nin, _loops, _outrule, _doc
globals().update(UFUNCS)

# NumPy and Array API spellings of the same ops.
_ALIASES = {
    "absolute": "abs", "conjugate": "conj", "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert", "mod": "remainder",
    "true_divide": "divide", "pow": "power", "asin": "arcsin",
    "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
}
for _alias, _name in _ALIASES.items():
    if _name in UFUNCS:
        globals()[_alias] = UFUNCS[_name]
del _alias, _name


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kw):
    """Limits values to [a_min, a_max]; either bound may be None."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    if lo is None and hi is None:
        return asarray(a) if out is None else _assign_out(out, a)
    bound = hi if lo is None else lo
    if (lo is None or hi is None) and type(bound) is int:
        x = asarray(a)
        if x.dtype.kind in "iu":
            # The open side as a Python int beyond every integer dtype on
            # that side: the engine's clip then ignores a given bound that
            # is out of range on its own side too, as numpy.clip does.
            return _lib.cn_clip(x, -2**63 if lo is None else lo,
                                2**64 - 1 if hi is None else hi, out)
    if lo is None:
        return _lib.cn_minimum(a, hi, out)
    if hi is None:
        return _lib.cn_maximum(a, lo, out)
    return _lib.cn_clip(a, lo, hi, out)


def round(a, decimals=0, out=None):
    return _lib.cn_round(a, decimals, out)


around = round


def _assign_out(out, a):
    _lib.cn_assign(out, a)
    return out


def where(condition, x=None, y=None, /):
    """x where condition is true else y; one argument: nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _lib.cn_where(condition, x, y, None)


# ---- reductions -------------------------------------------------------------


def _mask(a, where):
    """where (any array-like) as a bool array broadcast to a's shape."""
    w = _lib.cn_astype(asarray(where), _lib.CN_BOOL, 0)
    return _lib.cn_broadcast_to(w, a.shape)


def _where_fill(a, where, fill):
    """a with the elements where `where` is false replaced by fill."""
    return _lib.cn_where(_mask(a, where), a, _typed_scalar(fill, a.dtype),
                         None)


def _check_int_fits(value, code):
    """NumPy 2's OverflowError for a Python int stored into an integer dtype
    that cannot hold it."""
    if type(value) is int and _dtypes.kind(code) in (_lib.CN_KIND_INT,
                                                     _lib.CN_KIND_UINT):
        info = _np.iinfo(_dtypes.DTYPE_OF[code])
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for "
                                f"{_dtypes.DTYPE_OF[code]}")


def _typed_scalar(value, dt):
    """0-d array of dtype dt holding value, cast as NumPy casts a reduction's
    initial value (Python ints out of range are an OverflowError)."""
    code = _dtypes.to_code(dt)
    _check_int_fits(value, code)
    if isinstance(value, ndarray):
        return _lib.cn_astype(value, code, 0)
    return _lib.cn_full((), value, code, "C")


def _result_shape_fill(a, axis, keepdims, value, dt):
    """The result of a reduction of the empty array a: every element is
    value (the reduction's initial value)."""
    shape = _lib.cn_sum(a, axis, keepdims, None, None).shape
    return _lib.cn_broadcast_to(_typed_scalar(value, dt), shape).copy()


def _sum_like(cfn, combine, identity, a, axis, dtype, out, keepdims,
              initial, where):
    """sum/prod with NumPy's initial= (the start value, cast to the result
    dtype) and where= (elements left out)."""
    a = asarray(a)
    if where is not True:
        a = _where_fill(a, where, identity)
    if initial is None:
        return cfn(a, axis, keepdims, dtype, out)
    res = cfn(a, axis, keepdims, dtype, None)
    res = combine(res, _typed_scalar(initial, res.dtype), None)
    return res if out is None else _assign_out(out, res)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
        where=True):
    if initial is None and where is True:
        return _lib.cn_sum(a, axis, keepdims, dtype, out)
    return _sum_like(_lib.cn_sum, _lib.cn_add, 0, a, axis, dtype, out,
                     keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
         where=True):
    if initial is None and where is True:
        return _lib.cn_prod(a, axis, keepdims, dtype, out)
    return _sum_like(_lib.cn_prod, _lib.cn_multiply, 1, a, axis, dtype, out,
                     keepdims, initial, where)


def _count(a, axis, keepdims, where):
    """Number of elements each reduction of a counts (int64)."""
    if where is True:
        ones_ = _lib.cn_broadcast_to(_typed_scalar(1, _np.int64), a.shape)
    else:
        ones_ = _mask(a, where)
    return _lib.cn_sum(ones_, axis, keepdims, _lib.CN_INT64, None)


def _mean_dtype(a, dtype):
    if dtype is not None:
        return _dtypes.dtype(dtype)
    if _dtypes.kind(a._dtype_code) in (_lib.CN_KIND_FLOAT,
                                       _lib.CN_KIND_COMPLEX):
        return a.dtype
    return _np.dtype(_np.float64)


def _real(dt):
    return _np.dtype(dt).type(0).real.dtype


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    if where is True:
        return _lib.cn_mean(a, axis, keepdims, dtype, out)
    a = asarray(a)
    dt = _mean_dtype(a, dtype)
    total = _lib.cn_sum(_where_fill(a, where, 0), axis, keepdims, dt, None)
    cnt = _lib.cn_astype(_count(a, axis, keepdims, where),
                         _dtypes.to_code(_real(dt)), 0)
    res = _lib.cn_divide(total, cnt, None)
    return res if out is None else _assign_out(out, res)


def _ddof(ddof, correction):
    return float(correction if correction is not None else ddof)


def _var(a, axis, dtype, out, ddof, keepdims, where, mean_):
    """NumPy's _var: mean over the counted elements (or the given mean),
    then the mean of |x - mean|**2 with ddof."""
    a = asarray(a)
    dt = _mean_dtype(a, dtype)
    cnt = _count(a, axis, True, where)
    if mean_ is None:
        total = _lib.cn_sum(a if where is True else _where_fill(a, where, 0),
                            axis, True, dt, None)
        mean_ = _lib.cn_divide(total, _lib.cn_astype(
            cnt, _dtypes.to_code(_real(dt)), 0), None)
    d = _lib.cn_subtract(_lib.cn_astype(a, _dtypes.to_code(dt), 0), mean_,
                         None)
    sq = _lib.cn_real(_lib.cn_multiply(d, _lib.cn_conj(d, None), None), None)
    if where is not True:
        sq = _where_fill(sq, where, 0)
    total = _lib.cn_sum(sq, axis, keepdims, None, None)
    cnt = _lib.cn_reshape(cnt, total.shape, "C")
    div = _lib.cn_maximum(_lib.cn_subtract(
        _lib.cn_astype(cnt, _dtypes.to_code(total.dtype), 0), ddof, None),
        0.0, None)
    return _lib.cn_divide(total, div, None)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        where=True, mean=None, correction=None):
    if where is True and mean is None:
        return _lib.cn_std(a, axis, keepdims, _ddof(ddof, correction), dtype,
                           out)
    res = _lib.cn_sqrt(_var(a, axis, dtype, None, _ddof(ddof, correction),
                            keepdims, where, mean), None)
    return res if out is None else _assign_out(out, res)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        where=True, mean=None, correction=None):
    if where is True and mean is None:
        return _lib.cn_var(a, axis, keepdims, _ddof(ddof, correction), dtype,
                           out)
    res = _var(a, axis, dtype, None, _ddof(ddof, correction), keepdims,
               where, mean)
    return res if out is None else _assign_out(out, res)


def _min_max(cfn, combine, name, a, axis, out, keepdims, initial, where):
    """max/min with initial= (also the result of empty reductions) and
    where= (which needs initial, as in NumPy)."""
    if initial is None:
        if where is not True:
            raise ValueError(f"reduction operation '{name}' does not have "
                             f"an identity, so to use a where mask one has "
                             f"to specify 'initial'")
        return cfn(a, axis, keepdims, None, out)
    a = asarray(a)
    if where is not True:
        a = _where_fill(a, where, initial)
    if a.size == 0:
        res = _result_shape_fill(a, axis, keepdims, initial, a.dtype)
    else:
        res = combine(cfn(a, axis, keepdims, None, None),
                      _typed_scalar(initial, a.dtype), None)
    return res if out is None else _assign_out(out, res)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _min_max(_lib.cn_max, _lib.cn_maximum, "maximum", a, axis, out,
                    keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _min_max(_lib.cn_min, _lib.cn_minimum, "minimum", a, axis, out,
                    keepdims, initial, where)


amax = max
amin = min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        a = _where_fill(asarray(a), where, 0)
    return _lib.cn_any(a, axis, keepdims, None, out)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        a = _where_fill(asarray(a), where, 1)
    return _lib.cn_all(a, axis, keepdims, None, out)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_argmax(a, axis, keepdims, out)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_argmin(a, axis, keepdims, out)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_nanargmax(a, axis, keepdims, out)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _lib.cn_nanargmin(a, axis, keepdims, out)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nansum(a, axis, keepdims, dtype, out)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nanprod(a, axis, keepdims, dtype, out)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    return _lib.cn_nanmean(a, axis, keepdims, dtype, out)


def nanmax(a, axis=None, out=None, keepdims=False):
    return _lib.cn_nanmax(a, axis, keepdims, None, out)


def nanmin(a, axis=None, out=None, keepdims=False):
    return _lib.cn_nanmin(a, axis, keepdims, None, out)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _lib.cn_nanstd(a, axis, keepdims, float(ddof), dtype, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _lib.cn_nanvar(a, axis, keepdims, float(ddof), dtype, out)


def cumsum(a, axis=None, dtype=None, out=None):
    return _lib.cn_cumsum(a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _lib.cn_cumprod(a, axis, dtype, out)


def _cumulative(fn, x, axis, dtype, include_initial, initial_value):
    x = asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be given for arrays with more than "
                             "one dimension")
        axis = 0
    res = fn(x, axis, dtype, None)
    if include_initial:
        shape = list(res.shape)
        shape[axis] = 1
        res = concatenate([full(shape, initial_value, res.dtype), res],
                          axis=axis)
    return res


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Array API cumulative_sum (cumsum with include_initial)."""
    return _cumulative(_lib.cn_cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(_lib.cn_cumprod, x, axis, dtype, include_initial, 1)


_REDUCERS = {"add": sum, "multiply": prod, "maximum": max, "minimum": min,
             "logical_and": all, "logical_or": any}
_ACCUMULATORS = {"add": cumsum, "multiply": cumprod}


# ---- shape and views ----------------------------------------------------------


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    a = asarray(a)
    res = _lib.cn_reshape(a, shape, order)
    if copy:
        if _lib.cn_array_shares_buffer(res, a):
            res = _lib.cn_copy(res, order)
    elif copy is False and a.size and not _lib.cn_array_shares_buffer(res, a):
        raise ValueError("cannot reshape the array without a copy")
    return res


def _reshape_method(a, shape, order, copy):
    """ndarray.reshape with copy= (the C method hands those calls here)."""
    return reshape(a, shape, "C" if order is None else order, copy=copy)


def transpose(a, axes=None):
    if axes is None:
        return _lib.cn_transpose(a)
    return _lib.cn_permute_dims(a, axes)


def permute_dims(x, /, axes):
    return _lib.cn_permute_dims(x, axes)


def matrix_transpose(x, /):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs an array with ndim >= 2")
    return _lib.cn_swapaxes(x, -1, -2)


def swapaxes(a, axis1, axis2):
    return _lib.cn_swapaxes(a, axis1, axis2)


def _normalize_axes(axes, ndim, what):
    axes = [axes] if isinstance(axes, int) else list(axes)
    res = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise IndexError(f"{what}: axis {ax} is out of bounds for array "
                             f"of dimension {ndim}")
        res.append(ax % ndim)
    if len(set(res)) != len(res):
        raise ValueError(f"{what}: repeated axis")
    return res


def moveaxis(a, source, destination):
    a = asarray(a)
    src = _normalize_axes(source, a.ndim, "moveaxis")
    dst = _normalize_axes(destination, a.ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the "
                         "same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _lib.cn_permute_dims(a, order)


def expand_dims(a, axis):
    return _lib.cn_expand_dims(a, axis)


def squeeze(a, axis=None):
    return _lib.cn_squeeze(a, () if axis is None else axis)


def flip(m, axis=None):
    return _lib.cn_flip(m, () if axis is None else axis)


def fliplr(m):
    return _lib.cn_fliplr(m)


def flipud(m):
    return _lib.cn_flipud(m)


def broadcast_to(array, shape):
    return _lib.cn_broadcast_to(array, shape)


def broadcast_arrays(*args):
    return _lib.cn_broadcast_arrays(args)


def broadcast_shapes(*shapes):
    return _lib._broadcast_shapes(shapes)


def ravel(a, order="C"):
    return _lib.cn_ravel(a, order)


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe",
           order="K"):
    """x cast to dtype (Array API astype; copy=False avoids a copy when the
    dtype already matches)."""
    x = asarray(x)
    if casting != "unsafe" and not _lib.cn_can_cast(x._dtype_code, dtype,
                                                    casting):
        raise TypeError(f"Cannot cast array data from {x.dtype} to "
                        f"{_dtypes.dtype(dtype)} according to the rule "
                        f"{casting!r}")
    res = _lib.cn_astype(x, dtype, bool(copy))
    if device is not None:
        res = to_device(res, device)
    return res


def copy(a, order="K"):
    return _lib.cn_copy(a, order)


def ndim(a):
    return asarray(a).ndim


def shape(a):
    return asarray(a).shape


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def isscalar(x):
    return _np.isscalar(x)


def result_type(*arrays_and_dtypes):
    return _dtypes.result_type(*arrays_and_dtypes)


def can_cast(from_, to, casting="safe"):
    if isinstance(from_, ndarray):
        from_ = from_._dtype_code
    return _dtypes.can_cast(from_, to, casting)


# ---- joining, splitting, tiling (include/cunumpy/manip.h) --------------------


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    res = _lib.cn_concatenate(arrays, axis, dtype)
    return res if out is None else _assign_out(out, res)


def concat(arrays, /, *, axis=0):
    return _lib.cn_concatenate(arrays, axis, None)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    res = _lib.cn_stack(arrays, axis)
    if dtype is not None:
        res = _lib.cn_astype(res, dtype, 0)
    return res if out is None else _assign_out(out, res)


def vstack(tup, *, dtype=None, casting="same_kind"):
    res = _lib.cn_vstack(tup)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


row_stack = vstack


def hstack(tup, *, dtype=None, casting="same_kind"):
    res = _lib.cn_hstack(tup)
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def dstack(tup):
    return _lib.cn_dstack(tup)


def column_stack(tup):
    return _lib.cn_column_stack(tup)


def _split_args(indices_or_sections):
    if isinstance(indices_or_sections, (int, _np.integer)):
        return int(indices_or_sections), None
    return 0, [int(i) for i in indices_or_sections]


def split(ary, indices_or_sections, axis=0):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_split(ary, s, idx, axis))


def array_split(ary, indices_or_sections, axis=0):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_array_split(ary, s, idx, axis))


def hsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_hsplit(ary, s, idx))


def vsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_vsplit(ary, s, idx))


def dsplit(ary, indices_or_sections):
    s, idx = _split_args(indices_or_sections)
    return list(_lib.cn_dsplit(ary, s, idx))


def unstack(x, /, *, axis=0):
    x = asarray(x)
    return tuple(_lib.cn_index_axis(x, axis, i)
                 for i in range(x.shape[axis]))


def tile(A, reps):
    return _lib.cn_tile(A, reps)


def repeat(a, repeats, axis=None):
    if isinstance(repeats, (int, _np.integer)):
        return _lib.cn_repeat_n(a, int(repeats), axis)
    return _lib.cn_repeat(a, repeats, axis)


_PAD_MODES = {"constant": 0, "edge": 1, "reflect": 2, "symmetric": 3,
              "wrap": 4}
_PAD_KWARGS = {"empty": (), "edge": (), "wrap": (),
               "constant": ("constant_values",),
               "linear_ramp": ("end_values",),
               "maximum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",), "minimum": ("stat_length",),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def _as_pairs(x, ndim, what):
    """NumPy's pad argument forms (a scalar, (v,), (before, after), or one
    pair per axis) as ndim (before, after) pairs."""
    arr = _np.asarray(x)
    try:
        arr = _np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"{what}: operands could not be broadcast to "
                         f"({ndim}, 2)") from None
    return [tuple(p) for p in arr.tolist()]


def _axis_block(x, axis, start, stop):
    key = [slice(None)] * x.ndim
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def _pad_stat(x, axis, before, after, length, stat):
    """The two pad blocks of the stat modes along one axis (NumPy's
    _get_stats): the statistic of the first / last `length` elements."""
    n = x.shape[axis]
    blocks = []
    for width, ln, left in ((before, length[0], True),
                            (after, length[1], False)):
        ln = n if ln is None else _builtins.min(int(ln), n)
        if ln < 0:
            raise ValueError(f"index can't contain negative values (got "
                             f"stat_length {ln})")
        if not width:
            blocks.append(_axis_block(x, axis, 0, 0))
            continue
        chunk = _axis_block(x, axis, 0, ln) if left else \
            _axis_block(x, axis, n - ln, n)
        val = stat(chunk, axis=axis, keepdims=True)
        if _dtypes.kind(x._dtype_code) in (_lib.CN_KIND_INT,
                                           _lib.CN_KIND_UINT):
            val = round(val)  # NumPy's _round_if_needed
        shape = list(x.shape)
        shape[axis] = width
        blocks.append(_lib.cn_astype(broadcast_to(val, tuple(shape)),
                                     x._dtype_code, 0))
    return blocks


def _pad_ramp(x, axis, before, after, ends):
    """The two pad blocks of linear_ramp along one axis: from the end value
    to the edge value (exclusive), as NumPy's _get_linear_ramps."""
    n = x.shape[axis]
    blocks = []
    for width, end, left in ((before, ends[0], True), (after, ends[1],
                                                       False)):
        edge = _axis_block(x, axis, 0, 1) if left else \
            _axis_block(x, axis, n - 1, n)
        ramp = linspace(end, squeeze(edge, axis), width, endpoint=False,
                        dtype=x.dtype, axis=axis)
        blocks.append(ramp if left else flip(ramp, axis))
    return blocks


def _pad_reflect_odd(a, widths, include_edge):
    """reflect/symmetric padding with reflect_type='odd' (each reflected
    value v becomes 2 * edge - v), NumPy's _set_reflect_both: chunk by
    chunk, each reflecting the area padded so far."""
    x = _lib.cn_pad(a, [w for pair in widths for w in pair], 0, 0)
    for axis, (left, right) in enumerate(widths):
        n = a.shape[axis]
        if n == 1 and (left or right):  # NumPy: a singleton extends its edge
            x[_at_axis(x.ndim, axis, slice(None, left))] = \
                x[_at_axis(x.ndim, axis, slice(left, left + 1))]
            end = x.shape[axis] - right
            x[_at_axis(x.ndim, axis, slice(end, None))] = \
                x[_at_axis(x.ndim, axis, slice(end - 1, end))]
            continue
        while left > 0 or right > 0:
            old = x.shape[axis] - right - left
            if include_edge:
                old = old // n * n
                edge_offset = 1
            else:
                old = (old - 1) // (n - 1) * (n - 1) + 1 - 1
                edge_offset = 0
            if left > 0:
                chunk = _builtins.min(old, left)
                stop = left - edge_offset
                start = stop + chunk
                part = x[_at_axis(x.ndim, axis, slice(
                    start, stop if stop >= 0 else None, -1))]
                edge = x[_at_axis(x.ndim, axis, slice(left, left + 1))]
                x[_at_axis(x.ndim, axis, slice(left - chunk, left))] = \
                    2 * edge - part
                left -= chunk
            if right > 0:
                chunk = _builtins.min(old, right)
                start = -right + edge_offset - 2
                stop = start - chunk
                part = x[_at_axis(x.ndim, axis, slice(start, stop, -1))]
                edge = x[_at_axis(x.ndim, axis, slice(-right - 1, -right))]
                x[_at_axis(x.ndim, axis, slice(
                    x.shape[axis] - right,
                    x.shape[axis] - right + chunk))] = 2 * edge - part
                right -= chunk
    return x


def _at_axis(ndim, axis, sl):
    return (slice(None),) * axis + (sl,) + (slice(None),) * (ndim - axis - 1)


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad: the modes constant, edge, reflect, symmetric and wrap
    run in C; empty, per-axis constant_values, linear_ramp, the stat modes
    (maximum, minimum, mean, median) and reflect_type='odd' pad one axis at
    a time. A callable mode is not supported (NotImplementedError)."""
    a = asarray(array)
    if callable(mode):
        raise NotImplementedError("pad with a callable mode")
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_PAD_KWARGS[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode "
                         f"'{mode}': {extra}")
    widths = _np.broadcast_to(_np.asarray(pad_width), (a.ndim, 2))
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    widths = [(int(b), int(e)) for b, e in widths.tolist()]
    odd = kwargs.get("reflect_type") == "odd"  # NumPy: anything else, even
    if odd and a.size:
        return _pad_reflect_odd(a, widths, mode == "symmetric")
    value = kwargs.get("constant_values", 0)
    if mode in _PAD_MODES and not (mode == "constant" and _np.ndim(value)):
        flat = [w for pair in widths for w in pair]
        return _lib.cn_pad(a, flat, _PAD_MODES[mode], value)
    if mode == "empty":
        return _lib.cn_pad(a, [w for pair in widths for w in pair], 0, 0)
    if mode != "constant" and a.size == 0:
        for axis, pair in enumerate(widths):
            if a.shape[axis] == 0 and _builtins.any(pair):
                raise ValueError(f"can't extend empty axis {axis} using "
                                 f"modes other than 'constant' or 'empty'")
        return zeros(tuple(n + b + e for n, (b, e) in zip(a.shape, widths)),
                     a.dtype)
    if mode == "constant":
        args = _as_pairs(value, a.ndim, "constant_values")
    elif mode == "linear_ramp":
        args = _as_pairs(kwargs.get("end_values", 0), a.ndim, "end_values")
    else:
        length = kwargs.get("stat_length")
        args = [(None, None)] * a.ndim if length is None else \
            _as_pairs(length, a.ndim, "stat_length")
    stat = {"maximum": max, "minimum": min, "mean": mean,
            "median": median}.get(mode)
    x = a
    for axis, ((before, after), arg) in enumerate(zip(widths, args)):
        if not before and not after:
            continue
        if mode == "constant":
            blocks = []
            for width, v in ((before, arg[0]), (after, arg[1])):
                shape = list(x.shape)
                shape[axis] = width
                blocks.append(full(tuple(shape), v, x.dtype))
        elif mode == "linear_ramp":
            blocks = _pad_ramp(x, axis, before, after, arg)
        else:
            blocks = _pad_stat(x, axis, before, after, arg, stat)
        x = concatenate([blocks[0], x, blocks[1]], axis=axis)
    return x if x is not a else a.copy()


def roll(a, shift, axis=None):
    shifts = (shift,) if isinstance(shift, (int, _np.integer)) else shift
    if axis is not None:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) == 1 and len(axes) > 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1 and len(shifts) > 1:
            axes = axes * len(shifts)
        axis = axes
    return _lib.cn_roll(a, (tuple(int(s) for s in shifts), axis))


def rot90(m, k=1, axes=(0, 1)):
    return _lib.cn_rot90(m, k, axes[0], axes[1])


def _atleast(fn, arys):
    res = [fn(a) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    return _atleast(_lib.cn_atleast_1d, arys)


def atleast_2d(*arys):
    return _atleast(_lib.cn_atleast_2d, arys)


def atleast_3d(*arys):
    return _atleast(_lib.cn_atleast_3d, arys)


def tril(m, k=0):
    return _lib.cn_tril(m, k)


def triu(m, k=0):
    return _lib.cn_triu(m, k)


def diag(v, k=0):
    return _lib.cn_diag(v, k)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    if not xi:
        return ()
    return _lib.cn_meshgrid(xi, indexing == "ij", bool(sparse), bool(copy))


def indices(dimensions, dtype=int, sparse=False):
    """Index grids of a shape; sparse=True gives one broadcastable
    arange per axis (shape 1 on every other axis), as NumPy."""
    dimensions = tuple(dimensions)
    if not sparse:
        return _lib.cn_indices(dimensions, dtype)
    n = len(dimensions)
    return tuple(_lib.cn_reshape(arange(d, dtype=dtype),
                                 (1,) * i + (d,) + (1,) * (n - i - 1), "C")
                 for i, d in enumerate(dimensions))


# ---- indexing (include/cunumpy/index.h) ---------------------------------------

_MODES = {"raise": 0, "wrap": 1, "clip": 2}


def take(a, indices, axis=None, out=None, mode="raise"):
    return _lib.cn_take(a, indices, axis, _MODES[mode], out)


def take_along_axis(arr, indices, axis):
    return _lib.cn_take_along_axis(arr, indices, axis)


def put(a, ind, v, mode="raise"):
    _lib.cn_put(a, ind, v, _MODES[mode])


def put_along_axis(arr, indices, values, axis):
    _lib.cn_put_along_axis(arr, indices, values, axis)


def nonzero(a):
    return _lib.cn_nonzero(a)


def argwhere(a):
    return _lib.cn_argwhere(a)


def flatnonzero(a):
    return _lib.cn_flatnonzero(a)


def count_nonzero(a, axis=None, *, keepdims=False):
    return _lib.cn_count_nonzero(a, axis, keepdims)


def compress(condition, a, axis=None, out=None):
    res = _lib.cn_compress(condition, a, axis)
    return res if out is None else _assign_out(out, res)


def extract(condition, arr):
    return _lib.cn_extract(condition, arr)


def choose(a, choices, out=None, mode="raise"):
    return _lib.cn_choose(a, choices, _MODES[mode], out)


def _index_array(k):
    """An advanced-index item as an integer or bool array."""
    if isinstance(k, ndarray):
        return k
    arr = asarray(k)
    if arr.size == 0 and isinstance(k, (list, tuple)):
        arr = _lib.cn_astype(arr, _lib.CN_INT64, 0)
    return arr


def _expand_key(a, key):
    """key as a list of items with Ellipsis expanded to full slices."""
    key = list(key) if isinstance(key, tuple) else [key]
    consumed = 0
    for k in key:
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, (ndarray, _np.ndarray)) and k.dtype == _np.bool_:
            consumed += _builtins.max(k.ndim, 1) if k.ndim else 0
        else:
            consumed += 1
    ells = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(ells) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if ells:
        i = ells[0]
        key[i:i + 1] = [slice(None)] * (a.ndim - consumed)
    return key


def _advanced(a, key):
    """(view, index arrays, first axis) for an advanced index: the basic
    items are applied as a view, then the arrays index adjacent axes
    (non-adjacent ones are moved to the front first, as NumPy does)."""
    items = _expand_key(a, key)
    if _builtins.any(k is None for k in items):
        # newaxis: insert the length-1 axes into a first and index them
        # with full slices (the same result shape and axis order).
        consumed, where = 0, []
        for k in items:
            if k is None:
                where.append(consumed + len(where))
            elif isinstance(k, (ndarray, _np.ndarray)) and \
                    k.dtype == _np.bool_:
                consumed += k.ndim
            elif isinstance(k, list) and _is_mask(k):
                consumed += 1
            else:
                consumed += 1
        a = _lib.cn_expand_dims(a, where)
        items = [slice(None) if k is None else k for k in items]
    conv = []
    for k in items:
        if isinstance(k, slice):
            conv.append(k)
        elif isinstance(k, (bool, _np.bool_)):
            conv.append(asarray(k))
        elif isinstance(k, (int, _np.integer)):
            conv.append(asarray(int(k)))
        elif isinstance(k, (ndarray, _np.ndarray, list, tuple)):
            conv.append(_index_array(k))
        else:
            raise IndexError("only integers, slices (`:`), ellipsis "
                             "(`...`), numpy.newaxis (`None`) and integer "
                             "or boolean arrays are valid indices")
    positions = []  # (item index, first axis of the view it indexes, k)
    basic = []
    axis = 0
    for i, k in enumerate(conv):
        if isinstance(k, slice):
            basic.append(k)
            axis += 1
        else:
            width = k.ndim if k.dtype == _np.bool_ else 1
            positions.append((i, axis, width, k))
            basic.extend([slice(None)] * width)
            axis += width
    view = a[tuple(basic)] if basic else a
    arrays = [p[3] for p in positions]
    first = positions[0][1]
    adjacent = _builtins.all(positions[j + 1][0] == positions[j][0] + 1
                             for j in range(len(positions) - 1))
    if not adjacent:
        adv_axes = []
        for _, ax, width, _k in positions:
            adv_axes.extend(range(ax, ax + width))
        rest = [d for d in range(view.ndim) if d not in adv_axes]
        view = _lib.cn_permute_dims(view, adv_axes + rest)
        first = 0
    return view, arrays, first


def _is_mask(key):
    if isinstance(key, (ndarray, _np.ndarray)):
        return key.dtype == _np.bool_
    if isinstance(key, (bool, _np.bool_)):
        return True
    return isinstance(key, list) and bool(key) and _builtins.all(
        isinstance(k, (bool, _np.bool_)) for k in key)


def getitem_advanced(a, key):
    """a[key] for integer-array and boolean-mask keys (the C slot handles
    basic keys)."""
    if a.ndim and (type(key) is list and key and _builtins.all(
            type(k) is int for k in key) or isinstance(key, ndarray) and
            _dtypes.kind(key._dtype_code) in (_lib.CN_KIND_INT,
                                              _lib.CN_KIND_UINT)):
        return _lib.cn_take(a, key, 0, 0, None)  # a[int array], the common
    if _is_mask(key):
        return _lib.cn_mask_get(a, key)
    view, arrays, first = _advanced(a, key)
    return _lib.cn_index_arrays(view, arrays, first)


def setitem_advanced(a, key, value):
    if _is_mask(key):
        _lib.cn_mask_set(a, key, value)
        return
    view, arrays, first = _advanced(a, key)
    _lib.cn_index_arrays_set(view, arrays, first, value)


# ---- linear algebra (include/cunumpy/linalg.h) ----------------------------------


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
    res = _lib.cn_einsum(subscripts, operands)
    return res if out is None else _assign_out(out, res)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    res = _lib.cn_trace(a, offset, axis1, axis2, dtype)
    return res if out is None else _assign_out(out, res)


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _lib.cn_diagonal(a, offset, axis1, axis2)


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


# ---- NumPy interoperability ------------------------------------------------------

_NUMPY_UFUNC_NAMES = dict(_ALIASES)


def numpy_ufunc(uf, method, inputs, kwargs):
    """ndarray.__array_ufunc__: NumPy ufuncs applied to cunumpy arrays run in
    cunumpy (mixed NumPy/cunumpy operands give cunumpy results)."""
    name = _NUMPY_UFUNC_NAMES.get(uf.__name__, uf.__name__)
    f = UFUNCS.get(name)
    if f is None:
        # ufuncs the engine composes (divmod, modf, fabs, deg2rad...) are
        # plain functions of the namespace: calls only
        import cunumpy
        g = getattr(cunumpy, name, None)
        if method != "__call__" or not callable(g) or \
                isinstance(g, type):
            return NotImplemented
        out = kwargs.get("out")
        if out is not None and not _builtins.all(
                isinstance(o, ndarray)
                for o in (out if isinstance(out, tuple) else (out,))):
            return NotImplemented
        return g(*inputs, **kwargs)
    out = kwargs.get("out")
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        if not _builtins.all(isinstance(o, ndarray) for o in outs):
            return NotImplemented
    if method == "__call__":
        return f(*inputs, **kwargs)
    if method == "reduce":
        return f.reduce(*inputs, **kwargs)
    if method == "accumulate":
        return f.accumulate(*inputs, **kwargs)
    if method == "outer":
        return f.outer(*inputs, **kwargs)
    return NotImplemented


def numpy_function(func, types, args, kwargs):
    """ndarray.__array_function__: a NumPy function called on cunumpy arrays
    runs the cunumpy function of the same name; without one, host arrays are
    handed to NumPy (device arrays are never copied silently)."""
    import cunumpy
    mine = getattr(cunumpy, func.__name__, None)
    if mine is not None and callable(mine) and \
            getattr(func, "__module__", "").startswith("numpy") and \
            "." not in func.__qualname__ and func.__name__ != "asarray":
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


# ---- sorting and searching (include/cunumpy/sort.h) -------------------------------


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    res = _lib.cn_sort(a, axis)
    return flip(res, axis) if descending else res


def argsort(a, axis=-1, kind=None, order=None, *, stable=None,
            descending=False):
    if descending:
        # stable descending order: sort the reversed axis, map back.
        a = asarray(a)
        ax = -1 if axis is None else axis
        n = a.shape[ax] if a.ndim else 1
        return flip((n - 1) - _lib.cn_argsort(flip(a, ax), ax), ax)
    return _lib.cn_argsort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    return _lib.cn_partition(a, kth, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    return _lib.cn_argpartition(a, kth, axis)


def lexsort(keys, axis=-1):
    return _lib.cn_lexsort(keys, axis)


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True):
    if axis is not None:
        return _unique_axis(asarray(ar), axis, return_index, return_inverse,
                            return_counts)
    ar = asarray(ar)
    values, index, inverse, counts = _lib.cn_unique(ar, bool(equal_nan))
    extra = []
    if return_index:
        extra.append(index)
    if return_inverse:
        extra.append(_lib.cn_reshape(inverse, ar.shape, "C"))
    if return_counts:
        extra.append(counts)
    return (values, *extra) if extra else values


def _unique_axis(ar, axis, return_index, return_inverse, return_counts):
    """unique(axis=): the distinct slices along axis in lexicographic
    order (a stable lexsort of the flattened slices); inverse is 1-d over
    the axis as in NumPy 2."""
    if ar.ndim == 0:
        raise _np.exceptions.AxisError(axis, 0)
    axis = int(axis)
    if not -ar.ndim <= axis < ar.ndim:
        raise _np.exceptions.AxisError(axis, ar.ndim)
    ax = axis % ar.ndim
    moved = moveaxis(ar, ax, 0)
    n = moved.shape[0]
    rest = moved.shape[1:]
    m = 1
    for d in rest:
        m *= d
    rows = reshape(moved, (n, m))
    if n and m:
        perm = lexsort([rows[:, j] for j in range(m - 1, -1, -1)])
    else:
        perm = arange(n)
    srt = take(rows, perm, axis=0)
    if n:
        first = asarray([True])
        if m:
            change = any(srt[1:] != srt[:-1], axis=1)
        else:
            change = zeros((n - 1,), dtype=bool)
        mask = concatenate([first, change])
    else:
        mask = zeros((0,), dtype=bool)
    keep = flatnonzero(mask)
    values = take(srt, keep, axis=0)
    values = moveaxis(reshape(values, (values.shape[0],) + rest), 0, ax)
    extra = []
    if return_index:
        extra.append(take(perm, keep))
    if return_inverse:
        inv = empty((n,), dtype=_np.int64)
        if n:
            inv[perm] = cumsum(mask) - 1
        extra.append(inv)
    if return_counts:
        extra.append(diff(concatenate([keep, asarray([n])])))
    return (values, *extra) if extra else values


def unique_values(x, /):
    return unique(x)


def unique_counts(x, /):
    values, counts = unique(x, return_counts=True)
    return values, counts


def unique_inverse(x, /):
    return unique(x, return_inverse=True)


def unique_all(x, /):
    return unique(x, True, True, True)


def _any_complex(*arrays):
    return _builtins.any(_np.dtype(asarray(x).dtype).kind == "c"
                         for x in arrays)


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    return _lib.cn_searchsorted(a, v, side == "right", sorter)


def isin(element, test_elements, assume_unique=False, invert=False, *,
         kind=None):
    return _lib.cn_isin(element, test_elements, bool(invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if not return_indices:
        return _lib.cn_intersect1d(ar1, ar2)
    # NumPy's algorithm: equal neighbours in the sorted unique values
    u1, i1 = unique(ar1, return_index=True)
    u2, i2 = unique(ar2, return_index=True)
    aux = concatenate([u1, u2])
    order = argsort(aux, stable=True)
    aux = take(aux, order)
    mask = aux[1:] == aux[:-1]
    res = aux[:-1][mask]
    if not return_indices:
        return res
    return (res, take(i1, order[:-1][mask]),
            take(i2, order[1:][mask] - u1.shape[0]))


def union1d(ar1, ar2):
    return _lib.cn_union1d(ar1, ar2)


def setdiff1d(ar1, ar2, assume_unique=False):
    return _lib.cn_setdiff1d(ar1, ar2)


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted unique values in exactly one of the inputs."""
    return _lib.cn_setdiff1d(_lib.cn_union1d(ar1, ar2),
                             _lib.cn_intersect1d(ar1, ar2))


def _raise_axis(axis, ndim):
    raise _np.exceptions.AxisError(axis, ndim)


# ---- statistics (include/cunumpy/stats.h) -------------------------------------------

_QUANTILE_METHODS = {"linear": 0, "lower": 1, "higher": 2, "nearest": 3,
                     "midpoint": 4, "inverted_cdf": 5,
                     "averaged_inverted_cdf": 6, "closest_observation": 7,
                     "interpolated_inverted_cdf": 8, "hazen": 9,
                     "weibull": 10, "median_unbiased": 11,
                     "normal_unbiased": 12}


# methods that pick an order statistic (the input's dtype is kept)
_QUANTILE_PICKING = ("lower", "higher", "nearest", "inverted_cdf",
                     "closest_observation")


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    res = _lib.cn_median(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    res = _lib.cn_nanmedian(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


def _quantile(fn, a, q, axis, method, keepdims, out):
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{', '.join(_QUANTILE_METHODS)}")
    if method not in _QUANTILE_PICKING and \
            not isinstance(q, (int, float, _np.integer, _np.floating)):
        # an array q takes part in the promotion, as in NumPy
        a = asarray(a)
        qdt = q.dtype if hasattr(q, "dtype") else _np.asarray(q).dtype
        dt = _np.result_type(_np.dtype(a.dtype), qdt)
        if dt != a.dtype and dt.kind == "f" and _np.dtype(a.dtype).kind == "f":
            a = _lib.cn_astype(a, dt, 0)
    res = fn(a, q, axis, _QUANTILE_METHODS[method], keepdims)
    return res if out is None else _assign_out(out, res)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False):
    return _quantile(_lib.cn_percentile, a, q, axis, method, keepdims, out)


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False):
    return _quantile(_lib.cn_quantile, a, q, axis, method, keepdims, out)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
                  method="linear", keepdims=False):
    return _quantile(_lib.cn_nanpercentile, a, q, axis, method, keepdims, out)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False,
                method="linear", keepdims=False):
    return _quantile(_lib.cn_nanquantile, a, q, axis, method, keepdims, out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    avg, scl = _lib.cn_average_axes(a, weights, axis, bool(keepdims))
    return (avg, scl) if returned else avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if fweights is not None or aweights is not None:
        # NumPy reports mis-shaped weights as RuntimeError
        X = asarray(m)
        nobs = X.shape[0] if not rowvar and X.ndim == 2 and \
            X.shape[0] != 1 else (X.shape[-1] if X.ndim else 1)
        for name, wt in (("fweights", fweights), ("aweights", aweights)):
            if wt is None:
                continue
            nd = _np.ndim(wt)
            if nd > 1:
                raise RuntimeError(f"cannot handle multidimensional {name}")
            if nd == 0 or _np.shape(wt)[0] != nobs:
                raise RuntimeError(f"incompatible numbers of samples and "
                                   f"{name}")
    return _lib.cn_cov_weighted(
        m, y, fweights, aweights, bool(rowvar), bool(bias),
        -1 if ddof is None else int(ddof), dtype)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    res = _lib.cn_corrcoef(x, y, bool(rowvar))
    return res if dtype is None else _lib.cn_astype(res, dtype, 0)


def histogram(a, bins=10, range=None, density=None, weights=None):
    if isinstance(bins, (int, _np.integer)):
        lo, hi = range if range is not None else (0.0, 0.0)
        return _lib.cn_histogram(a, int(bins), None, range is not None,
                                 float(lo), float(hi), weights,
                                 bool(density))
    return _lib.cn_histogram(a, 0, bins, False, 0.0, 0.0, weights,
                             bool(density))


def bincount(x, weights=None, minlength=0):
    return _lib.cn_bincount(x, weights, int(minlength))


def digitize(x, bins, right=False):
    return _lib.cn_digitize(x, bins, bool(right))


def ptp(a, axis=None, out=None, keepdims=False):
    res = _lib.cn_ptp(a, axis, keepdims)
    return res if out is None else _assign_out(out, res)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    if prepend is not None or append is not None:
        a = asarray(a)
        if a.ndim == 0:
            raise ValueError("diff requires input that is at least one "
                             "dimensional")
        ax = axis % a.ndim if -a.ndim <= axis < a.ndim else axis
        parts = []
        for v in (prepend, a, append):
            if v is None:
                continue
            v = asarray(v)
            if v.ndim == 0:
                shape = list(a.shape)
                shape[ax] = 1
                v = broadcast_to(v, tuple(shape))
            parts.append(v)
        a = concatenate(parts, axis=ax)
    return _lib.cn_diff(a, n, axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    axes = range(f.ndim) if axis is None else \
        (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    for ax in axes:
        if not -f.ndim <= ax < f.ndim:
            raise _np.exceptions.AxisError(ax, f.ndim)
    naxes = len(axes)
    n = len(varargs)
    if n not in (0, naxes) and not (n == 1 and _np.ndim(varargs[0]) == 0):
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    res = _lib.cn_gradient_axes(f, [asarray(d) for d in varargs], axis,
                                int(edge_order))
    return res[0] if len(res) == 1 else res


_CONV_MODES = {"full": 0, "same": 1, "valid": 2}


def _conv_mode(mode):
    if mode not in _CONV_MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' "
                         f"(got {mode!r})")
    return _CONV_MODES[mode]


def _parts(x):
    """Real and imaginary parts (the imaginary part of a real array is
    None)."""
    x = asarray(x)
    if _np.dtype(x.dtype).kind == "c":
        return x.real, x.imag
    return x, None


def convolve(a, v, mode="full"):
    return _lib.cn_convolve(a, v, _conv_mode(mode))


def correlate(a, v, mode="valid"):
    return _lib.cn_correlate(a, v, _conv_mode(mode))


def interp(x, xp, fp, left=None, right=None, period=None):
    if period is not None:
        # NumPy's algorithm: wrap into [0, period), sort, pad one period
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(float(period))
        x = asarray(x)
        xp = asarray(xp)
        fp = asarray(fp)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _lib.cn_astype(x, "float64", 0) % period
        xp = _lib.cn_astype(xp, "float64", 0) % period
        order = argsort(xp)
        xp = take(xp, order)
        fp = take(fp, order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
        left = right = None
    if _any_complex(fp) or isinstance(left, complex) or \
            isinstance(right, complex):
        # linear in fp (and in left/right): the parts separately
        fr, fi = _parts(fp)
        fi = zeros(fr.shape) if fi is None else fi
        lr, li = (None, None) if left is None else \
            (complex(left).real, complex(left).imag)
        rr, ri = (None, None) if right is None else \
            (complex(right).real, complex(right).imag)
        return (_lib.cn_interp(x, xp, fr, lr, rr) +
                _lib.cn_interp(x, xp, fi, li, ri) * 1j)
    return _lib.cn_interp(x, xp, fp, left, right)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    return _lib.cn_trapezoid((y, x), float(dx), axis)


_lib._set_fast(_dtypes.DTYPE_OF, {"empty": _empty_py, "zeros": _zeros_py,
                                  "ones": _ones_py, "asarray": _asarray_py,
                                  "reshape": _reshape_method})
