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


def _canonical(name):
    """The engine's canonical name for a backend name or alias, or None."""
    try:
        return _lib.cn_backend_canonical_name(str(name))
    except ValueError:
        return None


def backend_aliases():
    """Every backend name and alias the engine accepts, mapped to its
    canonical name ({"cpu": "cpu", "numpy": "cpu", ...})."""
    names = (_lib.cn_backend_alias(i)
             for i in range(_lib.cn_backend_alias_count()))
    return {n: _canonical(n) for n in names}


_SUPPORT = {_lib.CN_SUPPORT_NONE: False, _lib.CN_SUPPORT_NATIVE: True,
            _lib.CN_SUPPORT_HOST: "host"}


def backend_supports(what, backend=None):
    """Whether a backend (any name or alias; None: the active one) runs
    `what`: a kernel ("matmul", "take", "rng", ...), a domain ("linalg",
    "fft", "random", "sort", "index", "stats", ...), an elementwise op
    ("add", "sin", ...) or a reduction ("sum", "argmax", "cumsum", ...).

    Returns True when it runs on the backend's device, "host" when it runs
    by copying through host memory (truthy as well), and False when calling
    it raises (the engine's CN_ERR_UNSUPPORTED). "cuda" is answered from the
    CUDA plugin's table even without a GPU (see cuda_available for whether
    it can run). ValueError names an unknown backend or capability."""
    name = get_backend() if backend is None else str(backend)
    return _SUPPORT[_lib.cn_backend_supports(name, str(what))]


class BackendName(str):
    """A backend name that also equals its alias ("cpu" == "numpy",
    "cuda" == "cupy")."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, str):
            return (_canonical(other) or other) == _canonical(str(self))
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


_LIBRARY_NAME = {"cpu": "numpy", "cuda": "cupy"}


def get_backend():
    """The effective backend as the CuNumpy guide names it: "numpy" or
    "cupy" (comparing equal to "cpu" / "cuda" too)."""
    return BackendName(_LIBRARY_NAME[_lib.cn_get_backend()])


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
    """"cupy" for arrays on a CUDA device, else "numpy" (NumPy arrays too);
    equal to "cuda" / "cpu" as well."""
    if isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA:
        return BackendName("cupy")
    return BackendName("numpy")


def is_gpu(a):
    return isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA


def is_cpu(a):
    return not is_gpu(a)


def get_array_module(*args):
    """The Array API namespace of the arrays' library, as array_api_compat
    gives it: cunumpy for cunumpy arrays, array_api_compat.numpy for NumPy
    arrays, array_api_compat.cupy for CuPy arrays; with no array argument,
    cunumpy."""
    arrays = [a for a in args if not isinstance(a, (int, float, complex,
                                                    bool, type(None)))]
    if not arrays:
        import cunumpy
        return cunumpy
    import array_api_compat
    return array_api_compat.array_namespace(*arrays)


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
    """Selects the CUDA device of this thread on the CUDA backend; a no-op
    on the NumPy backend. DeviceError for an ordinal CUDA does not have."""
    _lib.cn_set_device(int(i))


def memory_info():
    """(free_bytes, total_bytes) of the current CUDA device on the CUDA
    backend, None on the NumPy backend."""
    available, free, total = _lib.cn_memory_info()
    return (free, total) if available else None


def local_rank():
    """The node-local rank the MPI launcher exports (Open MPI, MPICH/Hydra,
    MVAPICH, Slurm, PMI, PMIx variables), 0 when none is set."""
    return _lib.cn_local_rank()


def set_device_for_rank(rank):
    """Selects device rank % device_count() on the CUDA backend and returns
    it; None (nothing selected) on the NumPy backend."""
    d = _lib.cn_set_device_for_rank(int(rank))
    return None if d < 0 else d


def bind_local_device():
    """set_device_for_rank(local_rank()): one GPU per node-local rank,
    callable before MPI is initialised."""
    d = _lib.cn_bind_local_device()
    return None if d < 0 else d


def synchronize_for_mpi(*buffers):
    """Waits until the work writing buffers is done, so MPI may use their
    memory: cunumpy arrays through the engine, foreign CUDA arrays (with
    __cuda_array_interface__, e.g. CuPy's) by synchronising every device;
    host arrays need nothing."""
    mine = [b for b in buffers if isinstance(b, ndarray)]
    _lib.cn_synchronize_for_mpi(mine)
    if any(not isinstance(b, (ndarray, _np.ndarray)) and
           hasattr(b, "__cuda_array_interface__") for b in buffers):
        _lib.cn_cuda_synchronize_all()


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


@_contextlib.contextmanager
def stream(non_blocking=True):
    """Runs the block's device work on a new non-blocking stream (made
    current in the block) and yields it; yields None on the NumPy backend.
    Synchronise before reading results on the host."""
    if get_backend() != "cuda":
        yield None
        return
    from .cuda import Stream
    with Stream(non_blocking=non_blocking) as s:
        yield s


# ---- memory pools ----------------------------------------------------------

def _phys_bytes():
    import os
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


class MemoryPool:
    """The engine's memory pool as CuPy's MemoryPool: on the CUDA backend
    the current device's stream-ordered pool, on the NumPy backend the
    CPU's caching pool of large blocks (1 MiB and more; smaller blocks are
    not pooled). Each call asks the active backend's pool. Every
    MemoryPool object views the engine's one pool per device; a pool made
    with cuda.malloc_managed as its allocator hands set_allocator managed
    memory."""

    def __init__(self, allocator=None):
        self._allocator = allocator

    def _cuda(self):
        return get_backend() == "cuda"

    def used_bytes(self):
        """Bytes held by live arrays."""
        if self._cuda():
            return _lib.cn_cuda_pool_used_bytes(-1)
        return _lib.cn_host_memory_info()[0]

    def total_bytes(self):
        """Bytes the pool holds (used plus cached)."""
        if self._cuda():
            return _lib.cn_cuda_pool_total_bytes(-1)
        used, cached = _lib.cn_host_memory_info()
        return used + cached

    def free_bytes(self):
        """Bytes cached for reuse."""
        return max(self.total_bytes() - self.used_bytes(), 0)

    def n_free_blocks(self):
        """Cached blocks. The CUDA driver's pool does not expose its
        blocks: there it is 1 while the pool caches any bytes, else 0."""
        if self._cuda():
            return 1 if self.free_bytes() > 0 else 0
        return _lib.cn_host_pool_free_blocks()

    def free_all_blocks(self, stream=None):
        """Returns every cached block to the system (live arrays stay)."""
        if self._cuda():
            _lib.cn_cuda_pool_free_all_blocks(-1)
        else:
            _lib.cn_free_memory()

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes live arrays may hold: size in bytes, or fraction
        of the device memory (of the machine's memory on the CPU); 0 or
        neither given: no cap. An allocation above it raises MemoryError."""
        if size is not None and fraction is not None:
            raise ValueError("give size or fraction, not both")
        if fraction is not None:
            fraction = float(fraction)
            if not 0.0 <= fraction <= 1.0:
                raise ValueError(f"fraction must be in [0, 1]: {fraction}")
            total = _lib.cn_cuda_memory_info(-1)[1] if self._cuda() \
                else _phys_bytes()
            size = int(total * fraction)
        size = 0 if size is None else int(size)
        if size < 0:
            raise ValueError(f"size must be non-negative: {size}")
        if self._cuda():
            _lib.cn_cuda_pool_set_limit(-1, size)
        else:
            _lib.cn_host_pool_set_limit(size)

    def get_limit(self):
        """The cap in bytes (0: none)."""
        if self._cuda():
            return _lib.cn_cuda_pool_get_limit(-1)
        return _lib.cn_host_pool_get_limit()

    def malloc(self, size):
        """size bytes from the pool as a MemoryPointer (on the active
        backend's device), kept alive by the pointer."""
        from ._creation import empty
        return empty((int(size),), dtype="uint8").data

    def __repr__(self):
        return f"<MemoryPool {'cuda' if self._cuda() else 'cpu'}>"


class PinnedMemoryPool:
    """The engine's cache of page-locked host blocks (CuPy's
    PinnedMemoryPool). Without CUDA there is no pinned memory: the pool is
    empty and stays so."""

    def _info(self):
        if not cuda_available():
            return 0, 0
        return _lib.cn_pinned_memory_info()

    def used_bytes(self):
        return self._info()[0]

    def total_bytes(self):
        return self._info()[1]

    def free_bytes(self):
        used, held = self._info()
        return held - used

    def n_free_blocks(self):
        """Cached (unused) pinned blocks."""
        if not cuda_available():
            return 0
        return _lib.cn_pinned_free_blocks()

    def free_all_blocks(self):
        """Frees the cached pinned blocks; returns the bytes released."""
        if not cuda_available():
            return 0
        return _lib.cn_pinned_free_all_blocks()

    def malloc(self, size):
        """A pinned host block of size bytes as a uint8 NumPy array."""
        from ._memory import empty_pinned
        return empty_pinned((int(size),), dtype=_np.uint8)

    def __repr__(self):
        return "<PinnedMemoryPool>"


_DEFAULT_POOL = MemoryPool()
_DEFAULT_PINNED_POOL = PinnedMemoryPool()


def get_default_memory_pool():
    """The process's MemoryPool (device pool on CUDA, CPU pool on NumPy)."""
    return _DEFAULT_POOL


def get_default_pinned_memory_pool():
    return _DEFAULT_PINNED_POOL
