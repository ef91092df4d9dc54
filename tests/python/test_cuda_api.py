"""CuPy's device API, pools, pointers, pinned memory, the CuNumpy helpers
and the profiler, as far as they run on the CPU; the CUDA side is
tests/gpu/cuda_api_gpu.py. Values are checked against NumPy's view of the
same memory."""
import gc
import weakref

import numpy as np
import pytest

import cunumpy as xp
from cunumpy import _cnlib
from cunumpy._memory import from_cuda_array_interface

no_cuda = pytest.mark.skipif(xp.cuda.is_available(),
                             reason="checks the machine without CUDA")
MiB = 1 << 20


@pytest.fixture
def cpu_backend():
    xp.set_backend("cpu")
    pool = xp.get_default_memory_pool()
    yield pool
    pool.set_limit(size=0)
    pool.free_all_blocks()


# ---- memory pool objects over the CPU pool --------------------------------

def test_pool_counts_large_blocks(cpu_backend):
    pool = cpu_backend
    assert pool is xp.get_default_memory_pool() is xp.cuda.get_default_memory_pool()
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0
    used0 = pool.used_bytes()
    a = xp.empty(2 * MiB // 8)  # 2 MiB: exactly one size class
    b = xp.empty(4 * MiB // 8)
    assert pool.used_bytes() == used0 + 6 * MiB
    assert pool.total_bytes() >= pool.used_bytes()
    del a, b
    gc.collect()
    assert pool.used_bytes() == used0
    assert pool.n_free_blocks() == 2
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes() >= 6 * MiB
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0 and pool.free_bytes() == 0
    small = xp.ones(10)  # below 1 MiB: not pooled
    assert pool.used_bytes() == used0
    assert small.sum() == 10


def test_pool_limit_by_size_and_fraction(cpu_backend):
    pool = cpu_backend
    assert pool.get_limit() == 0
    base = pool.used_bytes()
    pool.set_limit(size=base + 5 * MiB)
    assert pool.get_limit() == base + 5 * MiB
    keep = xp.zeros(4 * MiB // 8)
    with pytest.raises(MemoryError, match="host pool limit"):
        xp.zeros(2 * MiB // 8)
    assert float(keep.sum()) == 0.0
    del keep
    gc.collect()
    again = xp.zeros(4 * MiB // 8)  # the freed bytes count again
    del again
    import os
    phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    pool.set_limit(fraction=0.5)
    assert pool.get_limit() == int(phys * 0.5)
    pool.set_limit()
    assert pool.get_limit() == 0
    with pytest.raises(ValueError):
        pool.set_limit(size=1, fraction=0.5)
    with pytest.raises(ValueError):
        pool.set_limit(fraction=1.5)
    with pytest.raises(ValueError):
        pool.set_limit(size=-1)
    assert pool.get_limit() == 0
    assert pool.malloc(3 * MiB).ptr != 0


def test_pinned_pool_without_cuda_is_empty():
    pinned = xp.get_default_pinned_memory_pool()
    assert pinned is xp.cuda.get_default_pinned_memory_pool()
    if xp.cuda.is_available():
        pytest.skip("the pinned pool is real here")
    assert pinned.used_bytes() == pinned.total_bytes() == 0
    assert pinned.n_free_blocks() == 0
    assert pinned.free_all_blocks() == 0
    xp.cuda.set_pinned_memory_allocator(None)
    xp.cuda.set_pinned_memory_allocator(pinned.malloc)
    with pytest.raises(TypeError):
        xp.cuda.set_pinned_memory_allocator(len)
    m = pinned.malloc(64)
    assert isinstance(m, np.ndarray) and m.nbytes == 64


# ---- pointers ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64",
                                   "float32", "float64", "complex64",
                                   "complex128"])
def test_data_ptr_is_element_zero(dtype):
    a = xp.asarray(np.arange(24).astype(dtype).reshape(4, 6))
    v = np.asarray(a)
    assert a.data.ptr == v.ctypes.data and a.data.device_id == -1
    sub = a[1:, ::-2]
    assert sub.data.ptr == np.asarray(sub).ctypes.data
    assert sub.data.ptr == v.ctypes.data + 6 * v.itemsize + 5 * v.itemsize
    z = xp.asarray(np.float64(3.0))
    assert z.data.ptr == np.asarray(z).ctypes.data
    assert int(a.data + 8) == a.data.ptr + 8


def test_from_pointer_views_numpy_memory_and_keeps_owner():
    class Owner:
        def __init__(self, arr):
            self.arr = arr

    host = np.arange(12.0).reshape(3, 4)
    owner = Owner(host)
    ref = weakref.ref(owner)
    b = xp.from_pointer(host.ctypes.data, (4, 3), np.float64,
                        strides=(8, 32), owner=owner, device="cpu")
    del owner
    gc.collect()
    assert ref() is not None  # the array keeps it alive
    np.testing.assert_array_equal(np.asarray(b), host.T)
    host[0, 1] = -1.0  # zero-copy: the write shows through
    assert float(b[1, 0]) == -1.0
    view = b[1:]
    del b
    gc.collect()
    assert ref() is not None  # a view keeps it alive too
    del view
    gc.collect()
    assert ref() is None


def test_from_pointer_layouts_and_readonly():
    host = np.arange(10, dtype=np.int32)
    rev = host[::-1]
    r = xp.from_pointer(rev.ctypes.data, rev.shape, rev.dtype,
                        strides=rev.strides, owner=rev, device="cpu")
    np.testing.assert_array_equal(np.asarray(r), rev)
    c = xp.from_pointer(host.ctypes.data, 5, "int32", owner=host,
                        device="cpu", readonly=True)
    assert not c.flags.writeable
    with pytest.raises(ValueError):
        c[0] = 3
    np.testing.assert_array_equal(np.asarray(c), host[:5])
    e = xp.from_pointer(0, (0, 3), np.float64, device="cpu")
    assert e.shape == (0, 3) and e.size == 0
    s = xp.from_pointer(host.ctypes.data, (), np.int32, owner=host,
                        device="cpu")
    assert s.shape == () and int(s) == 0


def test_from_pointer_errors():
    host = np.arange(8.0)
    with pytest.raises(ValueError, match="multiples of the itemsize"):
        xp.from_pointer(host.ctypes.data, 4, np.float64, strides=(12,),
                        device="cpu")
    with pytest.raises(ValueError, match="do not match"):
        xp.from_pointer(host.ctypes.data, 4, np.float64, strides=(8, 8),
                        device="cpu")
    with pytest.raises(ValueError, match="aligned"):
        xp.from_pointer(host.ctypes.data + 1, 2, np.float64, device="cpu")
    with pytest.raises(ValueError):
        xp.from_pointer(host.ctypes.data, -2, np.float64, device="cpu")
    with pytest.raises(TypeError):
        xp.from_pointer(host.ctypes.data, 2, object, device="cpu")


@no_cuda
def test_from_pointer_on_cuda_without_cuda_says_why():
    with pytest.raises(xp.DeviceError):
        xp.from_pointer(4096, 2, np.float64, device="cuda")


# ---- __cuda_array_interface__ ---------------------------------------------

class FakeCAI:
    """An exporter with only __cuda_array_interface__, over NumPy memory."""

    def __init__(self, arr, stream=None, readonly=False, version=3,
                 mask=None, strides=True):
        self.arr = arr
        self.__cuda_array_interface__ = {
            "shape": arr.shape, "typestr": arr.dtype.str,
            "data": (arr.ctypes.data, readonly), "version": version,
            "strides": arr.strides if strides else None, "stream": stream,
            "mask": mask}


def test_cai_import_is_zero_copy_and_keeps_exporter():
    base = np.arange(20, dtype=np.float32).reshape(4, 5)
    for arr in (base, base[::2, 1:], base.T, base[::-1]):
        fake = FakeCAI(arr)
        ref = weakref.ref(fake)
        got = from_cuda_array_interface(fake, _device="cpu")
        np.testing.assert_array_equal(np.asarray(got), arr)
        assert got.data.ptr == arr.ctypes.data
        del fake
        gc.collect()
        assert ref() is not None
        del got
        gc.collect()
        assert ref() is None
    ro = from_cuda_array_interface(FakeCAI(base, readonly=True),
                                   _device="cpu")
    assert not ro.flags.writeable
    c = from_cuda_array_interface(FakeCAI(base, strides=False),
                                  _device="cpu")
    np.testing.assert_array_equal(np.asarray(c), base)


def test_cai_import_errors():
    base = np.arange(6.0)
    with pytest.raises(ValueError, match="mask"):
        xp.asarray(FakeCAI(base, mask=object()))
    with pytest.raises(ValueError, match="stream"):
        xp.asarray(FakeCAI(base, stream=0))
    with pytest.raises(ValueError, match="stream"):
        xp.asarray(FakeCAI(base, stream="1"))
    with pytest.raises(TypeError, match="byte order"):
        from_cuda_array_interface(FakeCAI(base.astype(">f8")),
                                  _device="cpu")


@no_cuda
def test_cai_import_without_cuda_says_why():
    with pytest.raises(xp.DeviceError, match="CUDA is unavailable"):
        xp.asarray(FakeCAI(np.arange(3.0), stream=1))  # stream wait first
    with pytest.raises(xp.DeviceError):
        xp.asarray(FakeCAI(np.arange(3.0)))


# ---- asnumpy, pinned memory --------------------------------------------------

def test_asnumpy():
    a = xp.arange(12.0).reshape(3, 4)[:, ::-1]
    h = xp.asnumpy(a)
    assert isinstance(h, np.ndarray)
    np.testing.assert_array_equal(h, np.arange(12.0).reshape(3, 4)[:, ::-1])
    out = np.empty((3, 4))
    assert xp.asnumpy(a, out=out) is out
    np.testing.assert_array_equal(out, h)
    np.testing.assert_array_equal(xp.asnumpy([1, 2]), [1, 2])
    n = np.arange(3)
    assert xp.asnumpy(n) is n
    out2 = np.zeros(3, dtype=np.int64)
    assert xp.asnumpy(n, out=out2) is out2 and out2.tolist() == [0, 1, 2]


def test_pinned_arrays_are_numpy_arrays():
    for dt in (np.float32, np.int16, np.complex128, bool):
        e = xp.empty_pinned((3, 5), dtype=dt)
        assert isinstance(e, np.ndarray) and e.shape == (3, 5)
        assert e.dtype == dt
        z = xp.zeros_pinned((2, 0, 4), dtype=dt)
        assert z.shape == (2, 0, 4)
        z1 = xp.zeros_pinned(7, dtype=dt)
        assert not z1.any()
    f = xp.empty_pinned((3, 4), order="F")
    assert f.flags.f_contiguous
    src = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    p = xp.pin_memory(src)
    np.testing.assert_array_equal(p, src)
    assert p.flags.f_contiguous and not np.shares_memory(p, src)
    p2 = xp.pin_memory(xp.arange(5))
    np.testing.assert_array_equal(p2, np.arange(5))
    assert xp.pin_memory([[1, 2]]).tolist() == [[1, 2]]
    nan = xp.pin_memory(np.array([np.nan, -0.0, np.inf]))
    assert np.isnan(nan[0]) and np.signbit(nan[1]) and np.isinf(nan[2])


# ---- the CuNumpy helpers -----------------------------------------------------

def test_backend_names_as_the_guide(cpu_backend):
    assert str(xp.get_backend()) == "numpy"
    assert xp.get_backend() == "cpu" and xp.get_backend() == "numpy"
    xp.set_backend("cupy")  # falls back when CUDA is unusable
    assert str(xp.get_backend()) in ("numpy", "cupy")
    xp.set_backend("cpu")
    assert str(xp.get_array_backend(xp.ones(2))) == "numpy"
    assert str(xp.get_array_backend(np.ones(2))) == "numpy"


def test_helpers_on_the_numpy_backend(cpu_backend, monkeypatch):
    xp.set_device(0)
    xp.set_device(3)  # a no-op on NumPy
    with pytest.raises(ValueError):
        xp.set_device(-1)
    assert xp.memory_info() is None
    with xp.stream() as s:
        assert s is None
    for var in ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
                "PMI_LOCAL_RANK", "PMIX_LOCAL_RANK"):
        monkeypatch.delenv(var, raising=False)
    assert xp.local_rank() == 0
    monkeypatch.setenv("SLURM_LOCALID", "6")
    assert xp.local_rank() == 6
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1")
    assert xp.local_rank() == 1
    assert xp.bind_local_device() is None
    assert xp.set_device_for_rank(5) is None
    with pytest.raises(ValueError):
        xp.set_device_for_rank(-1)
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "one")
    with pytest.raises(ValueError, match="OMPI_COMM_WORLD_LOCAL_RANK"):
        xp.local_rank()
    a = xp.arange(4.0)
    assert xp.synchronize_for_mpi(a, np.ones(2), a[::2]) is None
    assert xp.synchronize_for_mpi() is None


def test_get_array_module_is_array_api_compat():
    import array_api_compat

    def vector_norm(values):  # the guide's example
        array_xp = xp.get_array_module(values)
        return array_xp.sqrt(array_xp.sum(values * values))

    n = np.array([3.0, 4.0])
    assert xp.get_array_module(n) is array_api_compat.numpy
    r = vector_norm(n)
    assert isinstance(r, (np.ndarray, np.generic)) and float(r) == 5.0
    assert not isinstance(r, xp.ndarray)
    c = xp.asarray(n)
    assert xp.get_array_module(c) is xp
    rc = vector_norm(c)
    assert isinstance(rc, xp.ndarray) and float(rc) == 5.0
    assert xp.get_array_module() is xp
    with pytest.raises(TypeError):
        xp.get_array_module(n, c)  # mixed libraries have no one namespace


# ---- cunumpy.cuda without CUDA ------------------------------------------------

@no_cuda
def test_cuda_module_without_cuda():
    reason = xp.backend_unavailable_reason()
    assert reason
    assert xp.cuda.is_available() is False
    assert xp.cuda.runtime.getDeviceCount() == 0
    import cunumpy.cuda.runtime as rt
    assert rt is xp.cuda.runtime
    d = xp.cuda.Device(0)
    assert d.id == 0 and repr(d) == "<CUDA Device 0>"
    assert d == xp.cuda.Device(0) and d != xp.cuda.Device(1)
    calls = [d.use, d.synchronize, lambda: d.compute_capability,
             lambda: d.attributes, lambda: d.mem_info, lambda: d.__enter__(),
             xp.cuda.Device, xp.cuda.Stream, lambda: xp.cuda.Stream(ptds=True),
             lambda: xp.cuda.Stream(non_blocking=True), xp.cuda.Event,
             lambda: xp.cuda.ExternalStream(1234),
             xp.cuda.runtime.memGetInfo,
             lambda: xp.cuda.runtime.getDeviceProperties(0),
             lambda: xp.cuda.runtime.deviceGetAttribute(1, 0),
             lambda: xp.cuda.set_allocator(None),
             lambda: xp.cuda.set_allocator(xp.cuda.malloc_managed),
             lambda: xp.cuda.malloc_managed(16)]
    for call in calls:
        with pytest.raises(xp.DeviceError, match="CUDA is unavailable"):
            call()
    # the null stream needs no CUDA until it is used
    assert xp.cuda.Stream.null.ptr == 0
    with pytest.raises(xp.DeviceError):
        xp.cuda.Stream.null.synchronize()
    with pytest.raises(TypeError):
        xp.cuda.set_allocator(len)
    with pytest.raises(ValueError):
        xp.cuda.Device(-1)


# ---- device attributes and properties ------------------------------------

# cudaDeviceProp keys of CuPy's runtime.getDeviceProperties on CUDA.
CUPY_PROPERTY_KEYS = {
    "name", "totalGlobalMem", "sharedMemPerBlock", "regsPerBlock", "warpSize",
    "maxThreadsPerBlock", "maxThreadsDim", "maxGridSize", "clockRate",
    "totalConstMem", "major", "minor", "textureAlignment",
    "texturePitchAlignment", "multiProcessorCount", "kernelExecTimeoutEnabled",
    "integrated", "canMapHostMemory", "computeMode", "maxTexture1D",
    "maxTexture2D", "maxTexture3D", "concurrentKernels", "ECCEnabled",
    "pciBusID", "pciDeviceID", "pciDomainID", "tccDriver", "memoryClockRate",
    "memoryBusWidth", "l2CacheSize", "maxThreadsPerMultiProcessor",
    "isMultiGpuBoard", "cooperativeLaunch", "cooperativeMultiDeviceLaunch",
    "deviceOverlap", "maxTexture1DMipmap", "maxTexture1DLinear",
    "maxTexture1DLayered", "maxTexture2DMipmap", "maxTexture2DLinear",
    "maxTexture2DLayered", "maxTexture2DGather", "maxTexture3DAlt",
    "maxTextureCubemap", "maxTextureCubemapLayered", "maxSurface1D",
    "maxSurface1DLayered", "maxSurface2D", "maxSurface2DLayered",
    "maxSurface3D", "maxSurfaceCubemap", "maxSurfaceCubemapLayered",
    "surfaceAlignment", "asyncEngineCount", "unifiedAddressing",
    "streamPrioritiesSupported", "globalL1CacheSupported",
    "localL1CacheSupported", "sharedMemPerMultiprocessor",
    "regsPerMultiprocessor", "managedMemory", "multiGpuBoardGroupID",
    "hostNativeAtomicSupported", "singleToDoublePrecisionPerfRatio",
    "pageableMemoryAccess", "concurrentManagedAccess",
    "computePreemptionSupported", "canUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin", "pageableMemoryAccessUsesHostPageTables",
    "directManagedMemAccessFromHost", "uuid", "luid", "luidDeviceNodeMask",
    "persistingL2CacheMaxSize", "maxBlocksPerMultiProcessor",
    "accessPolicyMaxWindowSize", "reservedSharedMemPerBlock"}


def _toolkit_device_attributes():
    """{name: number} of cudaDeviceAttr in the toolkit's driver_types.h
    (reserved entries and the cudaDevAttrMax sentinel left out)."""
    import os
    import re
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        path = root and os.path.join(root, "include", "driver_types.h")
        if path and os.path.exists(path):
            break
    else:
        pytest.skip("no CUDA toolkit headers here")
    text = open(path).read()
    body = re.search(r"enum\s+__device_builtin__\s+cudaDeviceAttr\s*\{(.*?)\}",
                     text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    found = dict(re.findall(r"cudaDevAttr(\w+)\s*=\s*(\d+)", body))
    # every enumerator but the sentinel has an explicit value
    assert set(re.findall(r"cudaDevAttr(\w+)", body)) == set(found) | {"Max"}
    return {k: int(v) for k, v in found.items()
            if not re.fullmatch(r"Reserved\d+", k)}


def test_attribute_table_is_the_toolkits_enum():
    n = _cnlib.cn_cuda_device_attribute_count()
    table = [_cnlib.cn_cuda_device_attribute_info(i) for i in range(n)]
    assert len({name for name, _ in table}) == len({v for _, v in table}) == n
    assert dict(table) == _toolkit_device_attributes()
    rt = xp.cuda.runtime
    for name, number in table:
        assert getattr(rt, "cudaDevAttr" + name) == number
    assert rt.cudaDevAttrMaxThreadsPerBlock == 1
    assert rt.cudaDevAttrComputeCapabilityMajor == 75


def test_attribute_queries_validate_before_cuda():
    n = _cnlib.cn_cuda_device_attribute_count()
    for bad in (-1, n):
        with pytest.raises(IndexError, match="outside"):
            _cnlib.cn_cuda_device_attribute_info(bad)
    for bad in (0, 92, 1000, -3):  # 92: a reserved number
        with pytest.raises(ValueError, match="not a cudaDeviceAttr"):
            xp.cuda.runtime.deviceGetAttribute(bad, 0)


class _FakeDeviceLib:
    """The engine's CUDA queries of one fake device: attribute number k is
    10*k + device, except the numbers in `unsupported`."""

    def __init__(self, real, unsupported=()):
        self._real = real
        self.unsupported = set(unsupported)

    def __getattr__(self, name):
        return getattr(self._real, name)

    def cn_cuda_device_attribute(self, number, device):
        if number in self.unsupported:
            raise NotImplementedError("not reported")
        return 10 * number + device

    def cn_cuda_device_properties(self, device):
        return "Fake GPU", 80 << 30, 9, 0, 132

    def cn_cuda_device_uuid(self, device):
        return 0x0102030405060708, -2, 0x1122, 7


@pytest.fixture
def fake_device(monkeypatch):
    cuda = xp.cuda
    n = xp.cuda.runtime
    fake = _FakeDeviceLib(_cnlib, unsupported={n.cudaDevAttrMpsEnabled,
                                               n.cudaDevAttrClockRate})
    cuda._device_attributes.cache_clear()
    monkeypatch.setattr(cuda, "_lib", fake)
    yield fake
    cuda._device_attributes.cache_clear()


def test_attributes_and_properties_from_the_abi(fake_device):
    rt = xp.cuda.runtime
    attrs = xp.cuda.Device(1).attributes
    names = {name for name, _ in xp.cuda._ATTRIBUTES}
    assert set(attrs) == names - {"MpsEnabled", "ClockRate"}
    assert attrs["MaxThreadsPerBlock"] == 11
    assert attrs["ComputeCapabilityMajor"] == 751
    attrs["WarpSize"] = -1  # a copy
    assert xp.cuda.Device(1).attributes["WarpSize"] == 101

    props = rt.getDeviceProperties(1)
    assert set(props) == CUPY_PROPERTY_KEYS
    assert props["name"] == b"Fake GPU" and props["totalGlobalMem"] == 80 << 30
    assert props["warpSize"] == 10 * rt.cudaDevAttrWarpSize + 1
    assert props["maxThreadsDim"] == (21, 31, 41)
    assert props["maxGridSize"] == (51, 61, 71)
    assert props["maxTexture2DLinear"] == (701, 711, 721)
    assert props["sharedMemPerBlockOptin"] == 971
    assert props["clockRate"] == 0  # not reported by the driver
    assert props["cooperativeMultiDeviceLaunch"] == 0
    assert props["uuid"] == bytes(range(1, 9)) + b"\xff" * 7 + b"\xfe"
    assert props["luid"] == b"\x22\x11"  # up to the first NUL, as CuPy's
    assert props["luidDeviceNodeMask"] == 7
    # every key but the identifiers names attributes the engine has
    for key, attr in xp.cuda._PROPERTY_ATTRIBUTES.items():
        for a in (attr if isinstance(attr, tuple) else (attr,)):
            assert a in names, (key, a)


def test_allocator_choices_name_the_pool():
    pool = xp.get_default_memory_pool()
    managed_pool = xp.cuda.MemoryPool(xp.cuda.malloc_managed)
    assert managed_pool.used_bytes() == pool.used_bytes()  # one engine pool
    assert xp.cuda.get_allocator() == pool.malloc


# ---- profiler ---------------------------------------------------------------

def test_benchmark_counts_and_summary():
    calls = []

    def work(a, scale=1):
        calls.append(1)
        return a * scale

    a = xp.arange(100.0)
    res = xp.profiler.benchmark(work, (a,), {"scale": 2}, n_repeat=7,
                                n_warmup=3)
    assert len(calls) == 10
    assert res.name == "work"
    assert res.cpu_times.shape == (7,) and (res.cpu_times >= 0).all()
    if xp.get_backend() == "cpu":
        assert res.gpu_times.shape == (0, 7)
    text = str(res)
    assert text.startswith("work") and "CPU:" in text and " us" in text
    assert "GPU" not in text or xp.get_backend() == "cuda"
    assert res.to_str(show_gpu=False).count("GPU") == 0
    calls.clear()
    once = xp.profiler.benchmark(work, (a,), n_repeat=50, n_warmup=0,
                                 max_duration=0.0, name="capped")
    assert len(calls) == 1 and once.cpu_times.shape == (1,)
    assert str(once).startswith("capped")
    empty = xp.profiler.benchmark(work, (a,), n_repeat=0, n_warmup=0)
    assert "no repeats" in str(empty)
    with pytest.raises(ValueError):
        xp.profiler.benchmark(work, (a,), n_repeat=-1)
    with pytest.raises(TypeError):
        xp.profiler.benchmark(42)


def test_time_range_context_and_decorator():
    depth = _cnlib.cn_range_depth
    assert depth() == 0
    with xp.profiler.time_range("outer", color_id=0):
        assert depth() == 1
        with xp.profiler.time_range("inner"):
            assert depth() == 2
        assert depth() == 1
    assert depth() == 0

    @xp.profiler.time_range()
    def step(x):
        """doc"""
        assert depth() == 1
        return x + 1

    @xp.profiler.time_range("named", color_id=3)
    def fails():
        raise RuntimeError("boom")

    assert step(1) == 2 and step.__name__ == "step" and step.__doc__ == "doc"
    with pytest.raises(RuntimeError):
        fails()
    assert depth() == 0  # popped on the way out
    with pytest.raises(ValueError):
        with xp.profiler.time_range("x"):
            raise ValueError("inside")
    assert depth() == 0
    with pytest.raises(ValueError):
        xp.profiler.time_range("x", color_id=-1)
    with pytest.raises(TypeError):
        xp.profiler.time_range(3)
    with pytest.raises(ValueError):
        with xp.profiler.time_range():
            pass
    with pytest.raises(ValueError, match="no range is open"):
        _cnlib.cn_range_pop()
