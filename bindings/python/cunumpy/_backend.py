"""The CuNumpy API: backend selection, devices, memory, streams.

The active backend decides where new arrays are made; operations run where
their inputs live. Names: "cpu" (alias "numpy") and "cuda" (alias "cupy").
Asking for CUDA where it cannot be used selects the CPU, as the engine does,
and get_backend() reports it.
"""

import contextlib as _contextlib

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray

DeviceError = _lib.DeviceError
BackendError = _lib.BackendError


class CudaUnavailableError(ImportError, DeviceError):
    """CUDA cannot be used here (no plugin, driver or device). An ImportError
    so that seed code guarding `to_cupy` with `except ImportError` works."""


_CANONICAL = {"cpu": "cpu", "numpy": "cpu", "cuda": "cuda", "cupy": "cuda"}


class BackendName(str):
    """A backend name that also equals its alias ("cpu" == "numpy",
    "cuda" == "cupy")."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, str):
            return _CANONICAL.get(other.lower(), other) == str(self)
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = str.__hash__


def set_backend(name):
    """Selects the backend for new arrays: "cpu"/"numpy" or "cuda"/"cupy".
    CUDA falls back to the CPU when unavailable (see get_backend and
    backend_unavailable_reason). ValueError for unknown names."""
    _lib.cn_set_backend(str(name).lower())


def get_backend():
    """The effective backend: "cpu" or "cuda" (comparing equal to "numpy" /
    "cupy" too)."""
    return BackendName(_lib.cn_get_backend())


@_contextlib.contextmanager
def use_backend(name):
    """Context manager selecting a backend in its block and restoring the
    previous one on exit, exceptions included."""
    _lib.cn_push_backend(str(name).lower())
    try:
        yield get_backend()
    finally:
        _lib.cn_pop_backend()


def backend_unavailable_reason():
    """Why CUDA is unavailable ("" when it is, or was never asked for)."""
    return _lib.cn_backend_unavailable_reason()


def cuda_available():
    return bool(_lib.cn_backend_available("cuda"))


def _require_cuda():
    if not cuda_available():
        raise CudaUnavailableError(
            "CUDA is not available: " + (backend_unavailable_reason() or
                                         "no device"))


def get_array_backend(a):
    """"cuda" for arrays on a CUDA device, else "cpu" (NumPy arrays too)."""
    if isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA:
        return BackendName("cuda")
    return BackendName("cpu")


def is_gpu(a):
    return isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA


def is_cpu(a):
    return not is_gpu(a)


def get_array_module(*args):
    """The namespace to use for the arrays: always cunumpy."""
    import cunumpy
    return cunumpy


def to_numpy(a):
    """A NumPy array of a (a copy for cunumpy arrays, also on the CPU; other
    array-likes through numpy.asarray)."""
    if isinstance(a, ndarray):
        return a.get()
    return _np.asarray(a)


def to_cunumpy(a):
    """a as a cunumpy array on the active backend."""
    from ._convert import asarray
    return asarray(a)


def to_cupy(a):
    """a on the current CUDA device as a CuPy array when CuPy is importable
    (zero-copy through __cuda_array_interface__ for cunumpy GPU arrays),
    else as a cunumpy GPU array; CudaUnavailableError (an ImportError) when
    no GPU is usable."""
    from ._convert import to_device
    d = to_device(a, "cuda")
    try:
        import cupy
    except ImportError:
        return d
    return cupy.asarray(d)


def default_float_dtype():
    return _dtypes.default_float_dtype()


def device_count():
    """Number of usable CUDA devices (0 without CUDA)."""
    return int(_lib.cn_device_count())


def get_device():
    if not cuda_available():
        return 0
    return _lib.cn_cuda_get_device()


def set_device(i):
    """Selects the CUDA device of this thread. Device 0 is accepted without
    CUDA (the CPU); others raise DeviceError there."""
    if not cuda_available():
        if i == 0:
            return
        raise DeviceError(f"set_device({i}): CUDA is not available")
    _lib.cn_cuda_set_device(int(i))


def memory_info():
    """Device memory pool statistics as a dict, None on the CPU backend."""
    if get_backend() != "cuda":
        return None
    dev = _lib.cn_cuda_get_device()
    free, total = _lib.cn_cuda_memory_info(dev)
    return {"device": dev, "used_bytes": _lib.cn_cuda_pool_used_bytes(dev),
            "pool_bytes": _lib.cn_cuda_pool_total_bytes(dev),
            "free_bytes": free, "total_bytes": total}


def host_memory_info():
    """Host pool statistics: bytes in use and bytes cached."""
    used, cached = _lib.cn_host_memory_info()
    return {"used_bytes": used, "cached_bytes": cached}


def free_memory():
    """Returns cached blocks of every pool to the system."""
    _lib.cn_free_memory()


def synchronize():
    """Waits for all device work (no-op on the CPU)."""
    if get_backend() == "cuda" or _lib.cn_device_count() > 0 and \
            cuda_available():
        _lib.cn_cuda_synchronize_all()


class Stream:
    """A CUDA stream owned by Python (destroyed exactly once)."""

    def __init__(self, non_blocking=False):
        self.ptr = _lib.cn_stream_create(bool(non_blocking))

    def synchronize(self):
        _lib.cn_stream_synchronize(self.ptr)

    def close(self):
        ptr, self.ptr = self.ptr, None
        if ptr:
            _lib.cn_stream_destroy(ptr)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


@_contextlib.contextmanager
def stream(non_blocking=False):
    """Runs the block's device work on a new stream and synchronises it on
    exit; yields the Stream, or None on the CPU backend."""
    if get_backend() != "cuda":
        yield None
        return
    s = Stream(non_blocking)
    prev = _lib.cn_stream_get_current()
    _lib.cn_stream_set_current(s.ptr)
    try:
        yield s
    finally:
        _lib.cn_stream_set_current(prev)
        _lib.cn_stream_destroy(prev)  # get_current gave us a reference
        s.synchronize()
        s.close()
