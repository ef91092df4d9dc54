"""The device API on a GPU (run by tests/gpu/run.sh): cunumpy.cuda's Device,
Stream and Event semantics, the memory pools with limits and allocators,
pinned memory, x.data.ptr, from_pointer and __cuda_array_interface__ import
(of a cunumpy array through a plain exporter, and of CuPy arrays when CuPy
is importable), the CuNumpy helpers, NVTX ranges and the benchmark. Small
sizes: seconds. Prints one line per failure and a summary."""
import gc
import sys
import traceback

import numpy as np

import cunumpy as xp
from cunumpy import _cnlib

failures = 0
cases = 0


def check(what, fn):
    global failures, cases
    cases += 1
    try:
        ok = fn()
    except Exception:
        failures += 1
        print(f"FAIL {what}: raised")
        traceback.print_exc(limit=3, file=sys.stdout)
        return
    if ok is False:
        failures += 1
        print(f"FAIL {what}")


def raises(exc, fn):
    try:
        fn()
    except exc:
        return True
    return False


cuda = xp.cuda
check("is_available", lambda: cuda.is_available() is True)
xp.set_backend("cuda")
check("get_backend() == 'cupy'", lambda: str(xp.get_backend()) == "cupy")
n_dev = cuda.runtime.getDeviceCount()
check("getDeviceCount >= 1", lambda: n_dev >= 1)
props = cuda.runtime.getDeviceProperties(0)
check("getDeviceProperties", lambda: props["totalGlobalMem"] > 0 and
      props["major"] >= 7 and isinstance(props["name"], bytes))
free, total = cuda.runtime.memGetInfo()
check("memGetInfo", lambda: 0 < free <= total == props["totalGlobalMem"])

# ---- devices ---------------------------------------------------------------
d0 = cuda.Device(0)
check("Device().id", lambda: cuda.Device().id == 0)
check("compute_capability",
      lambda: d0.compute_capability == f"{props['major']}{props['minor']}")
check("attributes", lambda: d0.attributes["MultiProcessorCount"] ==
      props["multiProcessorCount"])
check("mem_info", lambda: d0.mem_info[1] == total)
attrs = d0.attributes
check("attributes: the full cudaDeviceAttr dict", lambda: len(attrs) > 100 and
      attrs["WarpSize"] == 32 and attrs["MaxThreadsPerBlock"] == 1024 and
      attrs["ComputeCapabilityMajor"] == props["major"] and
      attrs["MultiProcessorCount"] == props["multiProcessorCount"])
check("deviceGetAttribute", lambda: cuda.runtime.deviceGetAttribute(
    cuda.runtime.cudaDevAttrL2CacheSize, 0) == props["l2CacheSize"] > 0)
check("getDeviceProperties tuples and identifiers", lambda:
      props["maxThreadsDim"][0] == 1024 and len(props["maxGridSize"]) == 3
      and props["warpSize"] == 32 and len(props["uuid"]) == 16 and
      props["uuid"] != bytes(16) and props["clockRate"] > 0)


def device_context():
    last = n_dev - 1
    with cuda.Device(last) as d:
        inner = cuda.Device().id
        a = xp.ones(8)
    return inner == last and d.id == last and cuda.Device().id == 0 and \
        a.device.id == last and a.data.device_id == last


check("with Device(i)", device_context)
check("Device.synchronize", lambda: d0.synchronize() is None)
d0.use()
check("Device.use", lambda: cuda.runtime.getDevice() == 0)
check("bad ordinal", lambda: raises(xp.DeviceError,
                                    lambda: cuda.Device(n_dev).use()))

# ---- streams and events ----------------------------------------------------


def stream_semantics():
    s = cuda.Stream(non_blocking=True)
    assert s.ptr not in (0, 1, 2) and s.non_blocking
    assert cuda.get_current_stream() == cuda.Stream.null
    with s:
        assert cuda.get_current_stream() == s
        a = xp.arange(100_000.0) * 2
        e = s.record()
    assert cuda.get_current_stream() == cuda.Stream.null
    e.synchronize()
    assert e.done and s.done
    s2 = cuda.Stream()
    s2.wait_event(e)
    with s2:
        b = a + 1
    s2.synchronize()
    return np.array_equal(xp.asnumpy(b), np.arange(100_000.0) * 2 + 1)


check("Stream context / record / wait_event", stream_semantics)
check("Stream.null ptr 0", lambda: cuda.Stream.null.ptr == 0)
check("Stream.ptds ptr 2", lambda: cuda.Stream.ptds.ptr == 2)


def event_timing():
    start, end = cuda.Event(), cuda.Event()
    start.record()
    x = xp.ones(1 << 22)
    for _ in range(5):
        x = x * 1.0001
    end.record()
    end.synchronize()
    ms = cuda.get_elapsed_time(start, end)
    nt = cuda.Event(disable_timing=True)
    nt.record()
    nt.synchronize()
    return ms > 0 and raises(ValueError,
                             lambda: cuda.get_elapsed_time(start, nt))


check("Event timing", event_timing)


def external_stream():
    s = cuda.Stream()
    ext = cuda.ExternalStream(s.ptr)
    with ext:
        y = xp.ones(10) + 1
    ext.synchronize()
    return ext.ptr == s.ptr and float(y.sum()) == 20.0


check("ExternalStream", external_stream)


def stream_helper():
    with xp.stream() as s:
        r = xp.ones(10) * 3
        inside = cuda.get_current_stream() == s
    xp.synchronize()
    return s.non_blocking and inside and float(r.sum()) == 30.0


check("stream() non-blocking", stream_helper)


# ---- pools -------------------------------------------------------------------
pool = xp.get_default_memory_pool()


def pool_limits():
    pool.free_all_blocks()
    used0 = pool.used_bytes()
    a = xp.empty(1 << 20)  # 8 MiB
    assert pool.used_bytes() == used0 + (8 << 20)
    assert pool.total_bytes() >= pool.used_bytes()
    del a
    gc.collect()
    xp.synchronize()
    assert pool.used_bytes() == used0
    assert pool.n_free_blocks() == 1 and pool.free_bytes() > 0
    pool.free_all_blocks()
    pool.set_limit(size=used0 + (16 << 20))
    assert pool.get_limit() == used0 + (16 << 20)
    keep = xp.empty(1 << 20)
    refused = raises(MemoryError, lambda: xp.empty(2 << 20))
    del keep
    pool.set_limit(fraction=0.5)
    half = pool.get_limit() == int(total * 0.5)
    pool.set_limit(size=0)
    return refused and half and pool.get_limit() == 0


check("memory pool used/total/limit", pool_limits)


def allocators():
    h = np.arange(1000.0)
    cuda.set_allocator(cuda.malloc_managed)
    m = xp.asarray(h) * 2
    cuda.set_allocator(None)
    u = xp.asarray(h) * 3
    cuda.set_allocator(cuda.MemoryPool(cuda.malloc_managed).malloc)
    mm = xp.asarray(h) + 1
    cuda.set_allocator(pool.malloc)
    p = cuda.malloc_managed(4096)
    return (np.array_equal(xp.asnumpy(m), h * 2) and
            np.array_equal(xp.asnumpy(u), h * 3) and
            np.array_equal(xp.asnumpy(mm), h + 1) and p.ptr != 0 and
            cuda.get_allocator() == pool.malloc)


check("set_allocator managed / None / pool", allocators)


def pinned():
    pp = xp.get_default_pinned_memory_pool()
    cuda.set_pinned_memory_allocator(pp.malloc)
    e = xp.empty_pinned((1000,), dtype=np.float32)
    z = xp.zeros_pinned((10, 10))
    used = pp.used_bytes()
    pm = xp.pin_memory(np.arange(5.0))
    ok = used >= 4000 and not z.any() and pm.tolist() == [0, 1, 2, 3, 4]
    d = xp.asarray(e)
    d[...] = 1
    ok = ok and float(d.sum()) == 1000.0
    del e, z, pm
    gc.collect()
    ok = ok and pp.n_free_blocks() >= 1
    cuda.set_pinned_memory_allocator(None)
    ok = ok and pp.n_free_blocks() == 0
    cuda.set_pinned_memory_allocator(pp.malloc)
    return ok


check("pinned memory and its pool", pinned)

# ---- pointers -------------------------------------------------------------


def data_ptr_and_from_pointer():
    a = xp.arange(20.0).reshape(4, 5)
    cai = a.__cuda_array_interface__
    assert a.data.ptr == cai["data"][0] and a.data.device_id == 0
    v = xp.from_pointer(a.data.ptr, (5, 4), np.float64, strides=(8, 40),
                        owner=a, device="cuda")
    v2 = xp.from_pointer(a.data, (20,), np.float64, owner=a)
    return np.array_equal(xp.asnumpy(v), np.arange(20.0).reshape(4, 5).T) \
        and v2.data.ptr == a.data.ptr


check("x.data.ptr / from_pointer", data_ptr_and_from_pointer)


class OnlyCAI:
    def __init__(self, arr, stream):
        self.arr = arr
        d = dict(arr.__cuda_array_interface__)
        d["stream"] = stream
        self.__cuda_array_interface__ = d


def cai_import():
    a = xp.arange(12.0).reshape(3, 4)[:, ::2]
    s = cuda.Stream()
    b = xp.asarray(OnlyCAI(a, s.ptr))
    c = xp.asarray(OnlyCAI(a, None))
    d = xp.asarray(OnlyCAI(a, 1))
    same = b.data.ptr == a.data.ptr
    return same and all(np.array_equal(xp.asnumpy(t), xp.asnumpy(a))
                        for t in (b, c, d))


check("asarray of a __cuda_array_interface__-only object", cai_import)
check("asnumpy(stream=)", lambda: np.array_equal(
    xp.asnumpy(xp.arange(5.0), stream=cuda.Stream()), np.arange(5.0)))

try:
    import cupy as cp
except ImportError:
    cp = None
    print("CuPy not importable: CuPy pointer checks skipped")
if cp is not None:
    def cupy_pointer():
        c = cp.arange(10, dtype=cp.float32)
        v = xp.from_pointer(c.data.ptr, c.shape, np.float32, owner=c,
                            device=c.device)
        cp.cuda.Device().synchronize()
        return np.array_equal(xp.asnumpy(v), np.arange(10, dtype=np.float32))

    def cupy_cai():
        s = cp.cuda.Stream(non_blocking=True)
        with s:
            c = cp.arange(1000, dtype=cp.float64) * 2
        r = xp.asarray(OnlyCAI(c, s.ptr))
        return np.array_equal(xp.asnumpy(r), np.arange(1000.0) * 2)

    def cupy_attributes():
        theirs = cp.cuda.Device(0).attributes
        bad = {k: (v, attrs.get(k)) for k, v in theirs.items()
               if attrs.get(k) != v}
        if bad:
            print("  attributes differing from CuPy's:", bad)
        return not bad

    def cupy_properties():
        theirs = cp.cuda.runtime.getDeviceProperties(0)
        missing = set(theirs) - set(props)
        bad = {k: (v, props.get(k)) for k, v in theirs.items()
               if k in props and props[k] != v}
        if missing or bad:
            print("  properties missing:", missing, "differing:", bad)
        return not missing and not bad

    check("attributes equal CuPy's", cupy_attributes)
    check("getDeviceProperties equals CuPy's", cupy_properties)
    check("from_pointer of a CuPy pointer", cupy_pointer)
    check("CAI import of a CuPy array on its stream", cupy_cai)

# ---- helpers, ranges, benchmark ---------------------------------------------
check("memory_info tuple", lambda: xp.memory_info()[1] == total)
check("set_device_for_rank", lambda: xp.set_device_for_rank(n_dev + 1) ==
      (n_dev + 1) % n_dev)
xp.set_device(0)
check("bind_local_device", lambda: xp.bind_local_device() in range(n_dev))
xp.set_device(0)
check("synchronize_for_mpi", lambda: xp.synchronize_for_mpi(
    xp.ones(3), np.ones(3)) is None)


def nvtx_ranges():
    with xp.profiler.time_range("cuda_api_gpu", color_id=1):
        inner = _cnlib.cn_range_depth()
        xp.ones(10).sum()
    return inner == 1 and _cnlib.cn_range_depth() == 0


check("NVTX ranges", nvtx_ranges)


def bench():
    a = xp.ones(1 << 16)
    r = xp.profiler.benchmark(lambda: a * 2, n_repeat=20, n_warmup=2)
    return r.gpu_times.shape == (1, 20) and (r.gpu_times > 0).all() and \
        "GPU-0" in str(r)


check("benchmark GPU times", bench)

# ---- Dask with device chunks ------------------------------------------------
try:
    import dask.array as da
    import cunumpy.dask  # noqa: F401
except ImportError:
    da = None
    print("Dask not importable: Dask device checks skipped")
if da is not None:
    host = np.random.default_rng(2).standard_normal((8, 6))
    dd = da.from_array(xp.asarray(host), chunks=(4, 6), asarray=False)

    def dask_fft_meta():
        f = da.fft.rfft(dd, axis=1)
        got = f.compute(scheduler="sync")
        return isinstance(f._meta, xp.ndarray) and \
            str(f._meta.device).startswith("cuda") and \
            np.allclose(xp.asnumpy(got), np.fft.rfft(host, axis=1))

    def dask_masked_refused():
        ok = raises(TypeError, lambda: da.ma.masked_greater(dd, 0.0))
        m = da.ma.masked_greater(dd.to_backend("numpy"), 0.0).compute()
        return ok and np.array_equal(np.ma.getmaskarray(m), host > 0)

    check("Dask FFT of device chunks: device meta", dask_fft_meta)
    check("Dask masked functions refuse device chunks", dask_masked_refused)

print(f"cuda_api_gpu: {cases - failures}/{cases} passed")
sys.exit(1 if failures else 0)
