"""The CuNumpy backend API, the Array API namespace, the status ->
exception mapping, and handle lifetime (no growth over 1e5 create/release
cycles)."""

import gc
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import cunumpy as xp
from conftest import assert_same


# ---- backends ------------------------------------------------------------


def test_backend_names_and_fallback():
    assert xp.get_backend() == "cpu" and xp.get_backend() == "numpy"
    xp.set_backend("numpy")
    assert xp.get_backend() == "cpu"
    xp.set_backend("cuda")  # falls back when CUDA cannot be used
    if not xp.cuda_available():
        assert xp.get_backend() == "cpu"
        assert xp.backend_unavailable_reason() != ""
    xp.set_backend("cpu")
    with pytest.raises(ValueError):
        xp.set_backend("tpu")
    assert xp.get_backend() == "cpu"


def test_use_backend_restores_on_exception():
    xp.set_backend("cpu")
    with pytest.raises(RuntimeError):
        with xp.use_backend("cupy"):
            raise RuntimeError("boom")
    assert xp.get_backend() == "cpu"
    with xp.use_backend("numpy") as name:
        assert name == "cpu"


def test_array_backend_queries():
    a = xp.arange(3)
    assert xp.get_array_backend(a) == "cpu" and xp.is_cpu(a)
    assert not xp.is_gpu(a) and not xp.is_gpu(np.arange(3))
    assert xp.get_array_module(a) is xp
    assert isinstance(xp.to_numpy(a), np.ndarray)
    assert xp.to_numpy([1, 2]).tolist() == [1, 2]
    assert isinstance(xp.to_cunumpy(np.arange(3)), xp.ndarray)
    assert xp.default_float_dtype() == np.float64
    assert xp.device_count() >= 0
    xp.set_device(0)
    xp.free_memory()
    xp.synchronize()
    assert isinstance(xp.host_memory_info()["used_bytes"], int)
    if not xp.cuda_available():
        assert xp.memory_info() is None
        with xp.stream() as s:
            assert s is None
        with pytest.raises(ImportError):
            xp.to_cupy(a)
        with pytest.raises(xp.DeviceError):
            xp.to_device(a, "cuda:0")
        xp.set_device(1)  # a no-op on the NumPy backend, as the guide says
    assert xp.to_device(a, "cpu").tolist() == [0, 1, 2]


def test_array_backend_env_read_at_import():
    code = "import cunumpy as xp; print(xp.get_backend())"
    env = dict(os.environ, ARRAY_BACKEND="numpy")
    env.pop("CUNUMPY_BACKEND", None)
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "numpy"
    env["ARRAY_BACKEND"] = "cupy"  # CUDA if usable, else the CPU fallback
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() in ("numpy", "cupy")


# ---- Array API namespace --------------------------------------------------------


def test_result_type_of_several_dtypes_equals_numpy():
    import itertools
    names = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
             "int64", "uint64", "float32", "float64", "complex64",
             "complex128"]
    for t in itertools.product(names, repeat=3):
        assert xp.result_type(*t) == np.result_type(*t), t
    assert xp.result_type(xp.arange(3, dtype=np.int8), np.uint16,
                          xp.ones(1, dtype=np.float32)) == np.float32
    assert xp.result_type(1, 2.0) == np.float64
    with pytest.raises(ValueError):
        xp.result_type()


def test_array_api_namespace():
    assert xp.__array_api_version__ == "2025.12"
    assert xp.isdtype(xp.float32, "real floating")
    assert xp.isdtype(xp.int8, ("integral", "bool"))
    assert not xp.isdtype(xp.uint8, "signed integer")
    assert xp.isdtype(xp.complex64, "numeric")
    assert xp.isdtype(np.dtype("float64"), xp.float64)
    assert xp.result_type(xp.int8, xp.uint8) == np.int16
    assert xp.result_type(xp.int64, xp.uint64) == np.float64
    assert xp.result_type(xp.arange(3, dtype=np.float32), 1.0) == np.float32
    assert xp.result_type(xp.float32, 1j) == np.complex64
    assert xp.can_cast(xp.int8, xp.int16) and not xp.can_cast(xp.int16,
                                                               xp.int8)
    assert xp.can_cast(xp.arange(2), xp.float64)
    assert xp.finfo(xp.float32).eps == np.finfo(np.float32).eps
    assert xp.iinfo(xp.int16).max == 32767
    with pytest.raises(ValueError):
        xp.finfo(xp.int8)
    info = xp.__array_namespace_info__()
    assert info.capabilities()["boolean indexing"]
    assert info.default_dtypes()["real floating"] == np.float64
    assert set(info.dtypes()) >= {"bool", "int8", "float32", "complex128"}
    assert set(info.dtypes(kind="integral")) == {
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64"}
    assert info.default_device() == "cpu" and "cpu" in map(str,
                                                           info.devices())
    x = xp.ones((2, 3), device="cpu")
    assert x.device == "cpu" and x.device == info.default_device()
    assert_same(xp.permute_dims(x, (1, 0)), np.ones((3, 2)))
    assert_same(xp.matrix_transpose(x), np.ones((3, 2)))
    assert_same(xp.concat([x, x]), np.ones((4, 3)))
    assert [u.shape for u in xp.unstack(x)] == [(3,), (3,)]
    assert_same(xp.vecdot(xp.arange(3.0), xp.arange(3.0)), np.float64(5.0))
    assert_same(xp.cumulative_prod(xp.arange(1, 5)), np.cumprod(
        np.arange(1, 5)))


def test_linalg_and_fft_submodules():
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    x = xp.asarray(a)
    assert_same(x @ x, a @ a)
    assert_same(xp.linalg.inv(x), np.linalg.inv(a), ulp=64)
    assert_same(xp.linalg.solve(x, xp.ones(2)), np.linalg.solve(a,
                                                                np.ones(2)),
                ulp=64)
    assert_same(xp.linalg.det(x), np.linalg.det(a), ulp=64)
    w = xp.linalg.eigvalsh(x)
    np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(a))
    assert_same(xp.fft.fft(xp.arange(8.0)), np.fft.fft(np.arange(8.0)),
                ulp=64)
    assert_same(xp.fft.rfft(xp.arange(8.0), norm="ortho"),
                np.fft.rfft(np.arange(8.0), norm="ortho"), ulp=64)
    assert_same(xp.fft.fftfreq(6, d=0.5), np.fft.fftfreq(6, 0.5))


# ---- errors ----------------------------------------------------------------------


def test_status_to_exception_mapping():
    assert issubclass(xp.DeviceError, RuntimeError)
    assert issubclass(xp.BackendError, RuntimeError)
    assert issubclass(xp.CudaUnavailableError, ImportError)
    with pytest.raises(ValueError, match="reshape"):  # CN_ERR_SHAPE
        xp.arange(6).reshape(4, 2)
    with pytest.raises(TypeError):  # CN_ERR_TYPE
        xp.bitwise_and(xp.ones(2), xp.ones(2))
    with pytest.raises(IndexError):  # CN_ERR_INDEX
        xp.arange(3)[5]
    with pytest.raises(ValueError, match="broadcast"):  # CN_ERR_SHAPE
        xp.ones(2) + xp.ones(3)
    with pytest.raises(MemoryError):  # CN_ERR_MEMORY
        xp.empty((2**40, 2**20), dtype=np.uint8)
    # cn_last_error text, worded as NumPy's (the C name kept aside)
    with pytest.raises(ValueError, match="^operands could not be broadcast"
                       ) as info:
        xp.ones(2) + xp.ones(3)
    assert info.value.c_function == "cn_add"
    assert info.value.c_status == "CN_ERR_SHAPE"
    with pytest.raises(TypeError):  # None is not an array operand
        xp._cnlib.cn_array_ndim(None)


def test_inputs_unchanged_after_errors():
    a = xp.arange(6.0)
    out = xp.zeros(3)
    with pytest.raises(ValueError):
        xp.add(a, a, out=out)
    assert out.tolist() == [0.0, 0.0, 0.0]
    assert a.tolist() == list(np.arange(6.0))


# ---- lifetime -------------------------------------------------------------------


def test_handles_released_exactly_once():
    a = xp.arange(4)
    assert a._refcount == 1
    v = a[1:]
    assert a._refcount == 1  # a view is its own handle on the same buffer
    b = a[...]
    assert b._refcount == 2  # the same handle, shared by two wrappers
    del b
    assert a._refcount == 1
    del v
    gc.collect()


def test_no_memory_growth_over_1e5_cycles():
    def cycle(n):
        for _ in range(n):
            a = xp.zeros(10)
            b = a + 1.0
            c = b[1:5]
            d = np.asarray(c)
            e = xp.asarray(d)
            del a, b, c, d, e

    cycle(2000)
    gc.collect()
    host_before = xp.host_memory_info()["used_bytes"]
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    cycle(100000)
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    growth = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    assert growth < 64 * 1024, growth
    assert xp.host_memory_info()["used_bytes"] <= host_before
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        return  # ASan's quarantine holds freed memory: RSS says nothing
    with open("/proc/self/statm") as f:
        rss_pages = int(f.read().split()[1])
    before = rss_pages
    cycle(100000)
    with open("/proc/self/statm") as f:
        rss_pages = int(f.read().split()[1])
    assert (rss_pages - before) * 4096 < 8 * 2**20


def test_cached_weak_scalars_are_never_written():
    a = xp.arange(3)
    assert (a + 5).tolist() == [5, 6, 7]
    xp._cnlib.cn_put(5, xp.asarray([0]), xp.asarray([7]), 0)  # a fresh 5
    assert (a + 5).tolist() == [5, 6, 7]
    with pytest.raises(TypeError):
        xp._cnlib.cn_add(a, a, 5)  # out= must be an array


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_real_imag_are_views_as_numpy(dtype):
    base = (np.arange(12.0) - 1j * np.arange(12.0)[::-1]).astype(dtype)
    for make in (lambda a: a.reshape(3, 4), lambda a: a.reshape(3, 4).T[::-1],
                 lambda a: a[::-3], lambda a: a[5, ...]):
        want = make(base.copy())
        got = make(xp.array(base))
        assert got.real.dtype == want.real.dtype
        np.testing.assert_array_equal(xp.to_numpy(got.real), want.real)
        np.testing.assert_array_equal(xp.to_numpy(got.imag), want.imag)
        want.real[...] = 2.5
        got.real[...] = 2.5
        want.imag = -1
        got.imag = -1
        np.testing.assert_array_equal(xp.to_numpy(got), want)
    x = xp.arange(3.0)
    assert np.array_equal(xp.to_numpy(x.imag), np.zeros(3))
    with pytest.raises(ValueError):
        x.imag[0] = 1.0
    with pytest.raises(TypeError):
        x.imag = 1.0
    x.real = 4.0
    assert np.array_equal(xp.to_numpy(x), np.full(3, 4.0))


REAL_IMAG_INPUTS = [
    lambda m: m.array([1 + 2j, -3.5 - 0j, complex("nan+infj")], m.complex64),
    lambda m: m.reshape(m.arange(12.0) - 1j * m.arange(12.0), (3, 4))[::-1],
    lambda m: m.asarray(2 - 5j),  # 0-d
    lambda m: m.asarray([], m.complex128),
    lambda m: m.asarray([-0.0, 1.5, np.nan], m.float32),
    lambda m: m.arange(6, dtype=m.int16)[::-2],
    lambda m: m.asarray([True, False]),
    lambda m: m.asarray(7.5),
]


@pytest.mark.parametrize("make", REAL_IMAG_INPUTS)
@pytest.mark.parametrize("fn", ["real", "imag"])
def test_real_imag_functions_as_numpy(fn, make):
    want_in, got_in = make(np), make(xp)
    want, got = getattr(np, fn)(want_in), getattr(xp, fn)(got_in)
    assert type(got) is xp.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(xp.to_numpy(got), want)
    assert got.flags.writeable == want.flags.writeable
    assert (got is got_in) == (want is want_in)
    assert xp.shares_memory(got, got_in) == np.shares_memory(want, want_in)
    if want.flags.writeable and want.size:  # writes reach the input
        want[...] = 9
        got[...] = 9
        np.testing.assert_array_equal(xp.to_numpy(got_in), want_in)


def test_real_imag_functions_of_scalars_and_sequences_as_numpy():
    for v in (1 + 2j, 3, 2.5, True, np.complex64(1 - 2j), np.float32(-0.0),
              np.int8(4)):
        for fn in ("real", "imag"):
            want, got = getattr(np, fn)(v), getattr(xp, fn)(v)
            assert type(got) is type(want) and got == want, (fn, v)
    for v in ([1 + 2j, 3], [[1, 2]], np.array([1 - 1j, 2j])):
        for fn in ("real", "imag"):
            want, got = getattr(np, fn)(v), getattr(xp, fn)(v)
            assert type(got) is xp.ndarray and got.dtype == want.dtype
            np.testing.assert_array_equal(xp.to_numpy(got), want)
    # read-only in, read-only out (a view cannot open the base for writes)
    ro = xp._cnlib.cn_readonly_view(xp.asarray([1 + 2j]))
    assert not xp.real(ro).flags.writeable
    assert not xp.imag(ro).flags.writeable
    with pytest.raises(ValueError):
        xp.real(ro)[0] = 1.0
    # NumPy's real and imag are functions: no out=, no ufunc methods
    with pytest.raises(TypeError):
        xp.real(xp.asarray([1j]), out=None)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32",
                                   "int64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("deg", [False, True])
def test_angle_function_as_numpy(dtype, deg):
    # numpy.angle is a function with a deg flag, not a ufunc; bool input
    # goes through arctan2(0, z) there and comes out float64.
    if np.dtype(dtype).kind == "c":
        a = np.array([1 + 1j, -1j, -0.0 - 0.0j, -1 + 0j, complex("nan+1j"),
                      complex("inf-infj")], dtype)
    elif np.dtype(dtype).kind == "f":
        a = np.array([1.0, -0.0, 0.0, -2.0, np.nan, -np.inf], dtype)
    else:
        a = np.array([1, 0, 1, 0], dtype)
    got = xp.angle(xp.asarray(a)[::-1], deg)
    want = np.angle(a[::-1], deg)
    assert got.dtype == want.dtype
    assert_same(got, want)
    assert_same(xp.angle(xp.asarray(a), deg=deg), np.angle(a, deg=deg))
    # NumPy's angle, called on a cunumpy array, dispatches here
    assert_same(np.angle(xp.asarray(a), deg), want[::-1])


def test_angle_of_scalars_and_lists_as_numpy():
    assert float(xp.angle(1 + 1j)) == np.angle(1 + 1j)
    assert_same(xp.angle([-1.0, 1j], True), np.angle([-1.0, 1j], True))
    with pytest.raises(TypeError):
        xp.angle(xp.asarray([1.0]), True, 3)


def test_qr_unknown_mode_is_value_error():
    with pytest.raises(ValueError, match="'rawr'"):
        xp.linalg.qr(xp.eye(3), mode="rawr")
    with pytest.raises(ValueError, match="'R'"):
        xp.linalg.qr(xp.eye(3), mode="R")
