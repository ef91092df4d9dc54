"""CuPy's cupy.cuda names over the engine's device API (cunumpy/cuda.h):
Device, Stream, ExternalStream, Event, get_elapsed_time, runtime,
is_available, the memory pools, set_allocator, malloc_managed,
set_pinned_memory_allocator. Device.attributes, runtime.deviceGetAttribute,
the runtime.cudaDevAttr* numbers and runtime.getDeviceProperties come from
the engine's table of cudaDeviceAttr names (cn_cuda_device_attribute_info).

Without CUDA, queries with an answer answer (is_available() is False,
runtime.getDeviceCount() is 0, the pinned pool is empty); everything else
raises the engine's DeviceError "CUDA is unavailable: <reason>".
"""

import functools as _functools
import sys as _sys
import types as _types

from . import _cnlib as _lib
from ._backend import MemoryPool, PinnedMemoryPool, get_default_memory_pool, \
    get_default_pinned_memory_pool

__all__ = ["Device", "Stream", "ExternalStream", "Event", "MemoryPointer",
           "get_current_stream", "get_elapsed_time", "runtime",
           "is_available", "MemoryPool", "PinnedMemoryPool",
           "get_default_memory_pool", "get_default_pinned_memory_pool",
           "set_allocator", "get_allocator", "malloc_managed",
           "set_pinned_memory_allocator"]


def is_available():
    """Whether CUDA can be used here (plugin, driver and a device)."""
    return bool(_lib.cn_backend_available("cuda"))


# ---- devices -------------------------------------------------------------

def _attribute_table():
    """(name, cudaDeviceAttr number) of every attribute the engine names."""
    return tuple(_lib.cn_cuda_device_attribute_info(i)
                 for i in range(_lib.cn_cuda_device_attribute_count()))


_ATTRIBUTES = _attribute_table()
_ATTRIBUTE_NUMBER = dict(_ATTRIBUTES)


@_functools.lru_cache(maxsize=None)
def _device_attributes(device):
    # Attributes this driver does not report are left out, as CuPy leaves
    # out those that give cudaErrorInvalidValue. A failure is not cached.
    out = {}
    for name, number in _ATTRIBUTES:
        try:
            out[name] = _lib.cn_cuda_device_attribute(number, device)
        except NotImplementedError:
            pass
    return out


class Device:
    """A CUDA device: Device() is the current one. `with Device(i):` makes
    it current in the block; use() makes it current for good."""

    __slots__ = ("id", "_prev")

    def __init__(self, device=None):
        if device is None:
            device = _lib.cn_cuda_get_device()
        elif isinstance(device, Device):
            device = device.id
        device = int(device)
        if device < 0:
            raise ValueError(f"device ordinal must be non-negative: {device}")
        self.id = device
        self._prev = []

    def use(self):
        _lib.cn_cuda_set_device(self.id)

    def __enter__(self):
        self._prev.append(_lib.cn_cuda_get_device())
        _lib.cn_cuda_set_device(self.id)
        return self

    def __exit__(self, *exc):
        _lib.cn_cuda_set_device(self._prev.pop())

    def synchronize(self):
        """Waits for all work on this device."""
        with Device(self.id):
            _lib.cn_cuda_device_synchronize()

    def _properties(self):
        name, total, major, minor, sms = \
            _lib.cn_cuda_device_properties(self.id)
        return name, total, major, minor, sms

    @property
    def compute_capability(self):
        """"90" for compute capability 9.0 (CuPy's form)."""
        _, _, major, minor, _ = self._properties()
        return f"{major}{minor}"

    @property
    def name(self):
        return self._properties()[0]

    @property
    def attributes(self):
        """Every device attribute the driver reports, by its cudaDeviceAttr
        name without the cudaDevAttr prefix ({'MaxThreadsPerBlock': 1024,
        ...}; CuPy's dict). A copy: changing it changes nothing."""
        return dict(_device_attributes(self.id))

    @property
    def mem_info(self):
        """(free, total) bytes of this device."""
        return tuple(_lib.cn_cuda_memory_info(self.id))

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuda", self.id))

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


# ---- streams and events --------------------------------------------------

class Stream:
    """A CUDA stream. `with stream:` makes it the thread's current stream
    (every launch and copy of the block goes there) and restores the
    previous one on exit; use() makes it current for good. Stream.null is
    the default stream, Stream.ptds the per-thread default stream."""

    def __init__(self, null=False, non_blocking=False, ptds=False):
        self._handle = None
        self._stack = []
        self.non_blocking = bool(non_blocking)
        if null:
            return
        if ptds:
            # cudaStreamPerThread is the handle value 2
            self._handle = _lib.cn_stream_from_native(2)
            return
        self._handle = _lib.cn_stream_create(self.non_blocking)

    @property
    def ptr(self):
        """The cudaStream_t as an int (0: the legacy default stream)."""
        if self._handle is None:
            return 0
        return _lib.cn_stream_native(self._handle) or 0

    def use(self):
        _lib.cn_stream_set_current(self._handle)
        return self

    def __enter__(self):
        self._stack.append(_lib.cn_stream_get_current())
        _lib.cn_stream_set_current(self._handle)
        return self

    def __exit__(self, *exc):
        prev = self._stack.pop()
        _lib.cn_stream_set_current(prev)
        if prev:
            _lib.cn_stream_destroy(prev)  # get_current gave a reference

    def synchronize(self):
        _lib.cn_stream_synchronize(self._handle)

    @property
    def done(self):
        """True when the stream has no pending work."""
        return bool(_lib.cn_stream_query(self._handle))

    def record(self, event=None):
        """Records event (a new Event when None) on this stream."""
        if event is None:
            event = Event()
        _lib.cn_event_record(event._handle, self._handle)
        return event

    def wait_event(self, event):
        """Makes later work on this stream wait for event."""
        _lib.cn_stream_wait_event(self._handle, event._handle)

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return f"<Stream {self.ptr:#x}>"

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h:
            try:
                _lib.cn_stream_destroy(h)
            except Exception:
                pass


class ExternalStream(Stream):
    """A stream made elsewhere (CuPy, PyTorch), by its cudaStream_t; it is
    not destroyed here."""

    def __init__(self, ptr):
        self._handle = None
        self._stack = []
        self.non_blocking = False
        self._handle = _lib.cn_stream_from_native(int(ptr))


class _ClassStream:
    """Stream.null / Stream.ptds, made on first use."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._value = None

    def __get__(self, obj, cls):
        if self._value is None:
            self._value = Stream(**self._kwargs)
        return self._value


Stream.null = _ClassStream(null=True)
Stream.ptds = _ClassStream(ptds=True)


def get_current_stream():
    """The thread's current stream (Stream.null for the default one)."""
    h = _lib.cn_stream_get_current()
    if not h:
        return Stream.null
    s = Stream.__new__(Stream)
    s._handle, s._stack, s.non_blocking = h, [], False
    return s


class Event:
    """A CUDA event; disable_timing=True makes it unusable with
    get_elapsed_time (and cheaper)."""

    def __init__(self, block=False, disable_timing=False,
                 interprocess=False):
        if interprocess:
            raise ValueError("interprocess events are not supported")
        self._handle = None
        self._handle = _lib.cn_event_create(not disable_timing)

    def record(self, stream=None):
        """Records the event on stream (None: the current stream)."""
        _lib.cn_event_record(self._handle,
                             None if stream is None else stream._handle)

    def synchronize(self):
        _lib.cn_event_synchronize(self._handle)

    @property
    def done(self):
        return bool(_lib.cn_event_query(self._handle))

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h:
            try:
                _lib.cn_event_destroy(h)
            except Exception:
                pass


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return _lib.cn_event_elapsed_ms(start_event._handle, end_event._handle)


# ---- memory --------------------------------------------------------------

class MemoryPointer:
    """Where an array's data is (CuPy's MemoryPointer): ptr is the address
    of element 0, device_id the CUDA device (-1 for host memory)."""

    __slots__ = ("ptr", "device_id", "mem")

    def __init__(self, ptr, device_id, mem=None):
        self.ptr = int(ptr)
        self.device_id = int(device_id)
        self.mem = mem  # keeps the memory alive

    @property
    def device(self):
        return Device(self.device_id) if self.device_id >= 0 else None

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.ptr + int(offset), self.device_id,
                             self.mem)

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} device {self.device_id}>"


def malloc_managed(size):
    """Allocates size bytes of managed (unified) memory on the current
    device as a MemoryPointer; set_allocator(malloc_managed) makes new
    device arrays use managed memory."""
    from ._creation import empty
    prev = _ALLOCATOR["kind"]
    _lib.cn_cuda_set_allocator(1)
    try:
        with _device_backend():
            buf = empty((int(size),), dtype="uint8")
    finally:
        _lib.cn_cuda_set_allocator(prev)
    return buf.data


def _device_backend():
    from ._backend import use_backend, _require_cuda
    _require_cuda()
    return use_backend("cuda")


_ALLOCATOR = {"kind": 0}


def set_allocator(allocator=None):
    """Selects the allocator of new device arrays: a MemoryPool's malloc
    (or the pool; MemoryPool(malloc_managed) gives managed memory),
    malloc_managed itself (unified memory), or None (no cache: freed memory
    goes back to the driver)."""
    pool = allocator if isinstance(allocator, MemoryPool) else \
        getattr(allocator, "__self__", None)
    if allocator is malloc_managed:
        kind = 1
    elif allocator is None:
        kind = 2
    elif isinstance(pool, MemoryPool):
        kind = 1 if pool._allocator is malloc_managed else 0
    else:
        raise TypeError("set_allocator takes a MemoryPool's malloc, "
                        "malloc_managed or None")
    _lib.cn_cuda_set_allocator(kind)
    _ALLOCATOR["kind"] = kind


def get_allocator():
    """What set_allocator was last given, as an equivalent allocator."""
    kind = _ALLOCATOR["kind"]
    if kind == 1:
        return malloc_managed
    return None if kind == 2 else get_default_memory_pool().malloc


def set_pinned_memory_allocator(allocator=None):
    """The pinned pool's malloc (or the pool) keeps freed pinned blocks for
    reuse (the default); None frees them at once. Without CUDA there is no
    pinned memory and nothing to change."""
    pool = allocator if isinstance(allocator, PinnedMemoryPool) else \
        getattr(allocator, "__self__", None)
    if allocator is not None and not isinstance(pool, PinnedMemoryPool):
        raise TypeError("set_pinned_memory_allocator takes a "
                        "PinnedMemoryPool's malloc or None")
    if is_available():
        _lib.cn_pinned_set_cache(allocator is not None)


# ---- runtime -------------------------------------------------------------

runtime = _types.ModuleType("cunumpy.cuda.runtime",
                            "CUDA runtime queries (cupy.cuda.runtime names).")


def _get_device_count():
    """Number of CUDA devices (0 without CUDA)."""
    return int(_lib.cn_cuda_device_count())


# CuPy's getDeviceProperties keys (cudaDeviceProp's field names) and the
# attributes that hold their values; a tuple of names is a tuple value.
# CUDA 13 dropped several fields from cudaDeviceProp (clockRate,
# computeMode, ...) but not the attributes, so every value comes from
# cudaDeviceGetAttribute except name, totalGlobalMem and the identifiers.
_PROPERTY_ATTRIBUTES = {
    "sharedMemPerBlock": "MaxSharedMemoryPerBlock",
    "regsPerBlock": "MaxRegistersPerBlock",
    "warpSize": "WarpSize",
    "maxThreadsPerBlock": "MaxThreadsPerBlock",
    "maxThreadsDim": ("MaxBlockDimX", "MaxBlockDimY", "MaxBlockDimZ"),
    "maxGridSize": ("MaxGridDimX", "MaxGridDimY", "MaxGridDimZ"),
    "clockRate": "ClockRate",
    "totalConstMem": "TotalConstantMemory",
    "major": "ComputeCapabilityMajor",
    "minor": "ComputeCapabilityMinor",
    "textureAlignment": "TextureAlignment",
    "texturePitchAlignment": "TexturePitchAlignment",
    "multiProcessorCount": "MultiProcessorCount",
    "kernelExecTimeoutEnabled": "KernelExecTimeout",
    "integrated": "Integrated",
    "canMapHostMemory": "CanMapHostMemory",
    "computeMode": "ComputeMode",
    "maxTexture1D": "MaxTexture1DWidth",
    "maxTexture2D": ("MaxTexture2DWidth", "MaxTexture2DHeight"),
    "maxTexture3D": ("MaxTexture3DWidth", "MaxTexture3DHeight",
                     "MaxTexture3DDepth"),
    "concurrentKernels": "ConcurrentKernels",
    "ECCEnabled": "EccEnabled",
    "pciBusID": "PciBusId",
    "pciDeviceID": "PciDeviceId",
    "pciDomainID": "PciDomainId",
    "tccDriver": "TccDriver",
    "memoryClockRate": "MemoryClockRate",
    "memoryBusWidth": "GlobalMemoryBusWidth",
    "l2CacheSize": "L2CacheSize",
    "maxThreadsPerMultiProcessor": "MaxThreadsPerMultiProcessor",
    "isMultiGpuBoard": "IsMultiGpuBoard",
    "cooperativeLaunch": "CooperativeLaunch",
    "deviceOverlap": "GpuOverlap",
    "maxTexture1DMipmap": "MaxTexture1DMipmappedWidth",
    "maxTexture1DLinear": "MaxTexture1DLinearWidth",
    "maxTexture1DLayered": ("MaxTexture1DLayeredWidth",
                            "MaxTexture1DLayeredLayers"),
    "maxTexture2DMipmap": ("MaxTexture2DMipmappedWidth",
                           "MaxTexture2DMipmappedHeight"),
    "maxTexture2DLinear": ("MaxTexture2DLinearWidth",
                           "MaxTexture2DLinearHeight",
                           "MaxTexture2DLinearPitch"),
    "maxTexture2DLayered": ("MaxTexture2DLayeredWidth",
                            "MaxTexture2DLayeredHeight",
                            "MaxTexture2DLayeredLayers"),
    "maxTexture2DGather": ("MaxTexture2DGatherWidth",
                           "MaxTexture2DGatherHeight"),
    "maxTexture3DAlt": ("MaxTexture3DWidthAlt", "MaxTexture3DHeightAlt",
                        "MaxTexture3DDepthAlt"),
    "maxTextureCubemap": "MaxTextureCubemapWidth",
    "maxTextureCubemapLayered": ("MaxTextureCubemapLayeredWidth",
                                 "MaxTextureCubemapLayeredLayers"),
    "maxSurface1D": "MaxSurface1DWidth",
    "maxSurface1DLayered": ("MaxSurface1DLayeredWidth",
                            "MaxSurface1DLayeredLayers"),
    "maxSurface2D": ("MaxSurface2DWidth", "MaxSurface2DHeight"),
    "maxSurface2DLayered": ("MaxSurface2DLayeredWidth",
                            "MaxSurface2DLayeredHeight",
                            "MaxSurface2DLayeredLayers"),
    "maxSurface3D": ("MaxSurface3DWidth", "MaxSurface3DHeight",
                     "MaxSurface3DDepth"),
    "maxSurfaceCubemap": "MaxSurfaceCubemapWidth",
    "maxSurfaceCubemapLayered": ("MaxSurfaceCubemapLayeredWidth",
                                 "MaxSurfaceCubemapLayeredLayers"),
    "surfaceAlignment": "SurfaceAlignment",
    "asyncEngineCount": "AsyncEngineCount",
    "unifiedAddressing": "UnifiedAddressing",
    "streamPrioritiesSupported": "StreamPrioritiesSupported",
    "globalL1CacheSupported": "GlobalL1CacheSupported",
    "localL1CacheSupported": "LocalL1CacheSupported",
    "sharedMemPerMultiprocessor": "MaxSharedMemoryPerMultiprocessor",
    "regsPerMultiprocessor": "MaxRegistersPerMultiprocessor",
    "managedMemory": "ManagedMemory",
    "multiGpuBoardGroupID": "MultiGpuBoardGroupID",
    "hostNativeAtomicSupported": "HostNativeAtomicSupported",
    "singleToDoublePrecisionPerfRatio": "SingleToDoublePrecisionPerfRatio",
    "pageableMemoryAccess": "PageableMemoryAccess",
    "concurrentManagedAccess": "ConcurrentManagedAccess",
    "computePreemptionSupported": "ComputePreemptionSupported",
    "canUseHostPointerForRegisteredMem": "CanUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin": "MaxSharedMemoryPerBlockOptin",
    "pageableMemoryAccessUsesHostPageTables":
        "PageableMemoryAccessUsesHostPageTables",
    "directManagedMemAccessFromHost": "DirectManagedMemAccessFromHost",
    "persistingL2CacheMaxSize": "MaxPersistingL2CacheSize",
    "maxBlocksPerMultiProcessor": "MaxBlocksPerMultiprocessor",
    "accessPolicyMaxWindowSize": "MaxAccessPolicyWindowSize",
    "reservedSharedMemPerBlock": "ReservedSharedMemoryPerBlock",
}


def _get_device_properties(device):
    """CuPy's dict of cudaDeviceProp fields of the device; an attribute the
    driver does not report is 0 (cudaGetDeviceProperties' value then)."""
    device = int(device)
    name, total, _, _, _ = _lib.cn_cuda_device_properties(device)
    attrs = _device_attributes(device)
    props = {"name": name.encode(), "totalGlobalMem": total}
    for key, attr in _PROPERTY_ATTRIBUTES.items():
        if isinstance(attr, tuple):
            props[key] = tuple(attrs.get(a, 0) for a in attr)
        else:
            props[key] = attrs.get(attr, 0)
    # CUDA 13 removed multi-device cooperative launch (and its attribute)
    props["cooperativeMultiDeviceLaunch"] = 0
    uuid_hi, uuid_lo, luid, node_mask = _lib.cn_cuda_device_uuid(device)
    props["uuid"] = (uuid_hi.to_bytes(8, "big", signed=True) +
                     uuid_lo.to_bytes(8, "big", signed=True))
    # CuPy's luid is the char[8] read as a C string (b"" off Windows)
    props["luid"] = luid.to_bytes(8, "little", signed=True).split(b"\0")[0]
    props["luidDeviceNodeMask"] = node_mask
    return props


def _device_get_attribute(attrib, device):
    """Value of cudaDeviceAttr `attrib` of the device."""
    return _lib.cn_cuda_device_attribute(int(attrib), int(device))


def _mem_get_info():
    """(free, total) bytes of the current device."""
    return tuple(_lib.cn_cuda_memory_info(-1))


runtime.getDeviceCount = _get_device_count
runtime.getDeviceProperties = _get_device_properties
runtime.deviceGetAttribute = _device_get_attribute
for _name, _number in _ATTRIBUTES:
    setattr(runtime, "cudaDevAttr" + _name, _number)
del _name, _number
runtime.memGetInfo = _mem_get_info
runtime.getDevice = lambda: _lib.cn_cuda_get_device()
runtime.setDevice = lambda device: _lib.cn_cuda_set_device(int(device))
runtime.deviceSynchronize = lambda: _lib.cn_cuda_device_synchronize()
runtime.is_hip = False
_sys.modules[runtime.__name__] = runtime
