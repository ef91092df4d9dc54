"""Memory that crosses the library's boundary: arrays over foreign pointers
(from_pointer, objects with only __cuda_array_interface__), host copies
(asnumpy) and pinned host memory (empty_pinned, zeros_pinned, pin_memory).
"""

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import Device, ndarray, parse_device

__all__ = ["from_pointer", "asnumpy", "empty_pinned", "zeros_pinned",
           "pin_memory"]


def _target_device(device):
    """(DLPack device type, id) for from_pointer's device argument."""
    if device is None:
        if _lib.cn_get_backend() == "cuda":
            return _lib.CN_DEVICE_CUDA, _lib.cn_cuda_get_device()
        return _lib.CN_DEVICE_CPU, 0
    if device == "cuda" or device == "cupy" or device == "gpu":
        return _lib.CN_DEVICE_CUDA, _lib.cn_cuda_get_device()
    if not isinstance(device, (str, int, Device)) and hasattr(device, "id"):
        device = int(device.id)  # cunumpy.cuda.Device, cupy.cuda.Device
    dev = parse_device(device)
    if dev.type == "cpu":
        return _lib.CN_DEVICE_CPU, 0
    return _lib.CN_DEVICE_CUDA, dev.id


def _shape_tuple(shape):
    if isinstance(shape, int) or hasattr(shape, "__index__"):
        return (int(shape),)
    return tuple(int(n) for n in shape)


def from_pointer(ptr, shape, dtype, strides=None, owner=None, device=None,
                 readonly=False):
    """Array over existing memory at address ptr (an int, or an object with
    .ptr such as a CuPy MemoryPointer), without copying. strides are in
    bytes (None: C-contiguous); owner is kept alive as long as any view of
    the array; device is "cpu", "cuda", "cuda:N", a device object or a CUDA
    ordinal (None: the current CUDA device on the CUDA backend, else the
    CPU). The engine checks the layout and alignment (ValueError) and the
    device (DeviceError when CUDA is unavailable)."""
    if not isinstance(ptr, int) and hasattr(ptr, "ptr"):
        ptr = ptr.ptr
    ptr = int(ptr)
    code = _dtypes.to_code(dtype)
    itemsize = _np.dtype(_dtypes.DTYPE_OF[code]).itemsize
    shape = _shape_tuple(shape)
    if strides is not None:
        strides = _shape_tuple(strides)
        if len(strides) != len(shape):
            raise ValueError(f"strides {strides} do not match shape {shape}")
        if any(s % itemsize for s in strides):
            raise ValueError(f"strides {strides} are not multiples of the "
                             f"itemsize {itemsize}")
        strides = tuple(s // itemsize for s in strides)
    dev_type, dev_id = _target_device(device)
    return _lib._from_pointer(ptr, shape, strides, code, dev_type, dev_id,
                              bool(readonly), owner)


def _wait_for_producer(stream):
    """Orders the current stream after the producer's stream of a CUDA
    Array Interface export (its "stream" key: None, 1, 2 or a handle)."""
    if stream is None:
        return
    if isinstance(stream, bool) or not isinstance(stream, int) or \
            stream == 0:
        raise ValueError(f"__cuda_array_interface__ stream {stream!r} is "
                         f"not None or a non-zero int")
    from .cuda import Event, ExternalStream, get_current_stream
    ev = Event(disable_timing=True)
    ev.record(ExternalStream(stream))
    get_current_stream().wait_event(ev)


def from_cuda_array_interface(obj, _device=None):
    """Zero-copy array over the memory an object describes with
    __cuda_array_interface__ (v2 or v3; Numba, older PyTorch), keeping obj
    alive; the current stream waits for the exporter's stream."""
    cai = obj.__cuda_array_interface__
    if cai.get("mask") is not None:
        raise ValueError("__cuda_array_interface__ with a mask is not "
                         "supported")
    dt = _np.dtype(cai["typestr"])
    if not dt.isnative and dt.byteorder != "|":
        raise TypeError(f"non-native byte order {cai['typestr']!r}")
    ptr, readonly = cai["data"]
    dev = _device
    if dev is None:
        _wait_for_producer(cai.get("stream"))
        dev = "cuda"
    return from_pointer(ptr or 0, cai["shape"], dt, cai.get("strides"),
                        owner=obj, device=dev, readonly=readonly)


def asnumpy(a, stream=None, out=None):
    """a as a NumPy array (a copy of cunumpy arrays, on stream when given;
    NumPy arrays and array-likes through numpy.asarray), written into out
    when given."""
    if not isinstance(a, ndarray) and \
            hasattr(a, "__cuda_array_interface__") and \
            not isinstance(a, _np.ndarray):
        a = from_cuda_array_interface(a)
    if isinstance(a, ndarray):
        if stream is None:
            return a.get(out=out)
        with stream:
            res = a.get(out=out)
        stream.synchronize()
        return res
    res = _np.asarray(a)
    if out is not None:
        out[...] = res
        return out
    return res


def empty_pinned(shape, dtype=float, order="C"):
    """NumPy array over page-locked host memory (faster, asynchronous host
    <-> device copies) from the engine's pinned pool; without CUDA an
    ordinary NumPy array (there is no pinned memory to have)."""
    if not _lib.cn_backend_available("cuda"):
        return _np.empty(shape, dtype=dtype, order=order)
    code = _dtypes.to_code(dtype)
    host = _lib.cn_empty_pinned(_shape_tuple(shape), code, order)
    return _np.asarray(memoryview(host))


def zeros_pinned(shape, dtype=float, order="C"):
    """empty_pinned filled with zeros."""
    res = empty_pinned(shape, dtype, order)
    res[...] = 0
    return res


def pin_memory(host_array):
    """A copy of host_array (NumPy, cunumpy or array-like) in pinned host
    memory, as a NumPy array; see empty_pinned for the fallback."""
    if isinstance(host_array, ndarray):
        host_array = host_array.get()
    src = _np.asarray(host_array)
    res = empty_pinned(src.shape, src.dtype,
                       "F" if src.flags.f_contiguous and
                       not src.flags.c_contiguous else "C")
    res[...] = src
    return res
