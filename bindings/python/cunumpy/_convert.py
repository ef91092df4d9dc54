"""Arrays from Python objects and between devices: asarray, array,
from_dlpack / to_dlpack, to_device, and the out= helpers every layer uses.

Most namespace functions are one call into the C ABI: the SWIG typemaps
already turn Python scalars into weak scalars, sequences into arrays (via
asarray), dtype-likes into cn_dtype codes, None axes into "all axes" and
out-params into return values, and raise the exception of every error
status. This module is the lowest layer of the namespace (after _dtypes and
_ndarray); the others import from it, never the other way round.
"""

import builtins as _builtins
import contextlib as _contextlib
import operator as _operator

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import Device, ndarray, parse_device

__all__ = ["asarray", "empty", "ones", "zeros", "to_host_view", "to_device",
           "array", "asanyarray", "ascontiguousarray", "asfortranarray",
           "from_dlpack", "to_dlpack"]


_F64 = _lib.CN_FLOAT64

_WEAK = (bool, int, float, complex)

_SCALAR_CODE = {bool: _lib.CN_BOOL, int: _lib.CN_INT64,
                float: _lib.CN_FLOAT64, complex: _lib.CN_COMPLEX128}

_INT64_MAX = 2**63 - 1

# empty, zeros, ones and asarray are C entry points that take their common
# arguments themselves and hand every other call to the _*_py functions
# (registered by the package's __init__ with _set_fast).
empty, zeros, ones, asarray = _lib.empty, _lib.zeros, _lib.ones, _lib.asarray


def _has(name):
    return hasattr(_lib, name)


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
        if code is not None:
            _check_int_fits(obj, code)
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
    if not isinstance(obj, (list, tuple)) and \
            hasattr(obj, "__cuda_array_interface__"):
        from ._memory import from_cuda_array_interface
        res = from_cuda_array_interface(obj)
        if code is not None and code != res._dtype_code:
            return _lib.cn_astype(res, code, 1)
        return _lib.cn_copy(res, order or "K") if copy else res
    if code is None and copy is not False and type(obj) in (list, tuple):
        res = _lib._from_sequence(obj)
        if res is not None:
            return res
    if isinstance(obj, (list, tuple)) and obj and _builtins.any(
            isinstance(e, ndarray) for e in obj):
        if _builtins.all(isinstance(e, ndarray) for e in obj):
            res = _lib.cn_stack(obj, 0)  # stack(obj), below the manip layer
            return res if code is None else res.astype(code)
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


def dlpack_stream_number(stream, on_cpu):
    """The consumer stream __dlpack__(stream=...) must order after ours, as
    DLPack numbers CUDA streams (None for CPU arrays, which have nothing to
    wait for). CPU arrays accept None and -1 (no synchronisation); CUDA
    arrays None (the legacy default stream, 1), -1, 1, 2 (per-thread
    default) or a stream handle, and the engine rejects 0 and values below
    -1 with ValueError."""
    if stream is None:
        return None if on_cpu else 1
    if isinstance(stream, bool):
        raise TypeError("stream must be None or an int, not bool")
    try:
        number = _operator.index(stream)
    except TypeError:
        raise TypeError(f"stream must be None or an int, not "
                        f"{type(stream).__name__}") from None
    if on_cpu:
        if number != -1:
            raise ValueError(f"stream must be None or -1 for CPU arrays, "
                             f"not {number}")
        return None
    if number > _INT64_MAX:
        raise ValueError(f"stream {number} is not a CUDA stream handle")
    return number


def to_dlpack(a, stream, max_version, dl_device, copy):
    """ndarray.__dlpack__ (Array API 2024.12)."""
    if dl_device is not None and tuple(dl_device) != a._device:
        if copy is False:
            raise BufferError("exporting to another device needs a copy")
        if dl_device[0] != _lib.CN_DEVICE_CPU:
            raise BufferError(f"cannot export to device {dl_device}")
        a = _lib.cn_to_host(a)
        copy = False
    number = dlpack_stream_number(stream, _on_cpu(a))
    if copy:
        a = _lib.cn_copy(a, "K")
    if number is not None:
        _lib.cn_cuda_stream_wait_for_current(number)
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _lib._to_dlpack(a, versioned)


def _assign_out(out, a):
    _lib.cn_assign(out, a)
    return out


def _check_int_fits(value, code):
    """NumPy 2's OverflowError for a Python int stored into an integer dtype
    that cannot hold it ("Python integer 300 out of bounds for int8"): the
    engine's check of a weak integer scalar against an array dtype."""
    if type(value) is int and _dtypes.kind(code) in (_lib.CN_KIND_INT,
                                                     _lib.CN_KIND_UINT):
        _lib.cn_result_type_scalar(code, value)


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
