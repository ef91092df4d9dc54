"""NumPy interop: buffer protocol / __array__ (zero-copy both ways, lifetime
kept by references), DLPack (versioned and legacy capsules, both
directions), __array_namespace__, NumPy functions on cunumpy arrays."""

import gc
import sys
import weakref

import numpy as np
import pytest

import cunumpy as xp
from conftest import DTYPES, assert_same


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_asarray_is_zero_copy(dtype):
    x = xp.zeros((3, 4), dtype)
    n = np.asarray(x)
    assert n.dtype == dtype and n.shape == (3, 4)
    assert n.ctypes.data == x._data_ptr
    n[1, 2] = 1
    assert x[1, 2].item() == 1
    x[0, 0] = 1
    assert n[0, 0] == 1


def test_numpy_views_of_strided_and_readonly_arrays():
    x = xp.arange(20.0).reshape(4, 5)
    v = x[::-1, 1::2]
    n = np.asarray(v)
    assert n.strides == v.strides
    np.testing.assert_array_equal(n, np.arange(20.0).reshape(4, 5)[::-1, 1::2])
    b = np.asarray(xp.broadcast_to(xp.arange(3), (2, 3)))
    assert not b.flags.writeable and b.strides == (0, 8)
    assert memoryview(xp.broadcast_to(xp.arange(3), (2, 3))).readonly
    with pytest.raises(TypeError):  # strided memory has no flat view
        memoryview(x[:, ::2]).cast("B")
    m = memoryview(xp.arange(4, dtype=np.int32))
    assert m.format == "i" and m.tolist() == [0, 1, 2, 3]


def test_numpy_array_keeps_cunumpy_memory_alive():
    x = xp.arange(1000.0)
    n = np.asarray(x)
    del x
    gc.collect()
    assert n[999] == 999.0  # the buffer is held by n's base


def test_asarray_of_numpy_is_zero_copy_and_keeps_it_alive():
    n = np.arange(10.0)
    x = xp.asarray(n)
    assert x._data_ptr == n.ctypes.data
    n[3] = -1
    assert x[3].item() == -1
    x[4] = -2
    assert n[4] == -2
    ref = weakref.ref(n) if hasattr(n, "__weakref__") else None
    rc = sys.getrefcount(n)
    del x
    gc.collect()
    assert sys.getrefcount(n) == rc - 1  # the wrapper dropped its reference
    del ref
    # read-only and non-contiguous NumPy memory
    ro = np.arange(5)
    ro.flags.writeable = False
    xr = xp.asarray(ro)
    assert not xr.flags.writeable
    with pytest.raises(ValueError):
        xr[0] = 1
    nc = np.arange(20).reshape(4, 5)[::-2, ::3]
    assert_same(xp.asarray(nc), nc)
    be = np.arange(4, dtype=">i4")
    assert_same(xp.asarray(be), be.astype("<i4"))


def test_array_dunder():
    x = xp.arange(6).reshape(2, 3)
    assert np.array(x).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert x.__array__().ctypes.data == x._data_ptr
    assert x.__array__(copy=True).ctypes.data != x._data_ptr
    assert x.__array__(dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError):
        x.__array__(dtype=np.float32, copy=False)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_round_trip_with_numpy(dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)[:, ::-2]
    x = xp.from_dlpack(a)
    assert_same(x, a)
    assert x._data_ptr == a.__array_interface__["data"][0]
    b = np.from_dlpack(x)
    np.testing.assert_array_equal(b, a)
    assert b.__array_interface__["data"][0] == x._data_ptr
    assert x.__dlpack_device__() == (1, 0)


def test_dlpack_capsules_and_lifetime():
    x = xp.arange(5.0)
    cap = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    legacy = x.__dlpack__()
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    del cap, legacy  # unconsumed capsules free their tensors
    y = xp._cnlib._from_dlpack(x.__dlpack__(max_version=(1, 1)))
    del x
    gc.collect()
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    with pytest.raises(TypeError):
        xp._cnlib._from_dlpack(object())
    used = y.__dlpack__(max_version=(1, 0))
    xp._cnlib._from_dlpack(used)
    with pytest.raises(TypeError):  # a capsule is consumed once
        xp._cnlib._from_dlpack(used)
    with pytest.raises(ValueError):
        y.__dlpack__(stream=1)
    c = y.__dlpack__(max_version=(1, 0), copy=True)
    z = xp._cnlib._from_dlpack(c)
    assert z._data_ptr != y._data_ptr
    assert np.from_dlpack(y, copy=True).ctypes.data != y._data_ptr


@pytest.mark.parametrize("stream", [None, -1])
def test_dlpack_cpu_stream_accepted(stream):
    # None is NumPy's only accepted value; -1 (DLPack's "no
    # synchronisation") asks for nothing a CPU array could do either.
    x = xp.arange(4.0)[::-1]
    n = np.arange(4.0)[::-1]
    if stream is None:
        assert "dltensor" in repr(n.__dlpack__(stream=stream))  # as NumPy
    got = xp._cnlib._from_dlpack(x.__dlpack__(stream=stream,
                                              max_version=(1, 0)))
    assert got._data_ptr == x._data_ptr
    np.testing.assert_array_equal(np.asarray(got), n)


@pytest.mark.parametrize("stream", [0, 1, 2, 3, -2, 2**40, np.int64(1)])
def test_dlpack_cpu_stream_rejected_like_numpy(stream):
    x = xp.arange(3.0)
    with pytest.raises(RuntimeError):  # NumPy: "only supports stream=None"
        np.arange(3.0).__dlpack__(stream=stream)
    with pytest.raises(ValueError, match="CPU arrays"):
        x.__dlpack__(stream=stream)
    with pytest.raises(ValueError, match="CPU arrays"):
        x.__dlpack__(stream=stream, max_version=(1, 0), copy=True)


@pytest.mark.parametrize("stream", ["1", 1.0, True, object()])
def test_dlpack_stream_must_be_an_int(stream):
    with pytest.raises(RuntimeError):
        np.arange(3.0).__dlpack__(stream=stream)
    with pytest.raises(TypeError, match="stream must be None or an int"):
        xp.arange(3.0).__dlpack__(stream=stream)


def test_dlpack_stream_numbers_for_cuda_arrays():
    # The rule CUDA arrays follow, checked without a device: None is the
    # legacy default stream (1), -1 means no synchronisation, other ints go
    # to the engine (which rejects 0 and values below -1).
    from cunumpy._convert import dlpack_stream_number as number
    assert number(None, on_cpu=False) == 1
    assert number(-1, on_cpu=False) == -1
    assert number(2, on_cpu=False) == 2
    assert number(np.int32(0x1234), on_cpu=False) == 0x1234
    assert number(0, on_cpu=False) == 0
    with pytest.raises(ValueError):
        number(2**64, on_cpu=False)
    with pytest.raises(TypeError):
        number(1.5, on_cpu=False)
    assert number(None, on_cpu=True) is None
    assert number(-1, on_cpu=True) is None


def test_dlpack_stream_wait_without_cuda():
    # -1 needs no CUDA; any other consumer stream does.
    lib = xp._cnlib
    lib.cn_cuda_stream_wait_for_current(-1)
    if not xp.cuda_available():
        with pytest.raises(Exception, match="CUDA is unavailable"):
            lib.cn_cuda_stream_wait_for_current(1)
        with pytest.raises(Exception, match="CUDA is unavailable"):
            lib.cn_cuda_current_stream_number()


def test_readonly_dlpack_export():
    b = xp.broadcast_to(xp.arange(3.0), (2, 3))
    n = np.from_dlpack(b)
    assert not n.flags.writeable
    np.testing.assert_array_equal(n, np.broadcast_to(np.arange(3.0), (2, 3)))


def test_namespace_and_numpy_functions():
    x = xp.arange(6.0)
    assert x.__array_namespace__() is xp
    assert np.sum(x).item() == 15.0 and isinstance(np.sum(x), xp.ndarray)
    assert isinstance(np.mean(x), xp.ndarray)
    np.testing.assert_allclose(x, np.arange(6.0))  # falls back to NumPy
    assert isinstance(np.add(x, 1), xp.ndarray)
    assert isinstance(np.arange(3) * xp.arange(3), xp.ndarray)


def test_repr_and_str_look_like_numpy():
    a = np.array([[1.5, 2.0], [3.0, -4.25]])
    x = xp.asarray(a)
    assert repr(x) == repr(a) and str(x) == str(a)
    assert repr(xp.arange(3, dtype=np.int8)) == repr(np.arange(3,
                                                               dtype=np.int8))
    assert f"{xp.asarray(2.5):.2f}" == "2.50"


def test_buffer_protocol_objects_are_wrapped():
    import array
    buf = array.array("i", [1, 2, 3])
    x = xp.asarray(buf)
    assert x.dtype == np.int32 and x.tolist() == [1, 2, 3]
    x[0] = 7
    assert buf[0] == 7  # zero-copy, writable
    m = xp.asarray(memoryview(b"\x01\x02\x03"))
    assert m.dtype == np.uint8 and not m.flags.writeable
    with pytest.raises(TypeError):
        xp.asarray(object())


def test_numpy_ufuncs_the_engine_composes():
    """np.<ufunc> on cunumpy arrays also runs the namespace's composed
    functions (divmod, modf, fabs, deg2rad...) and returns cunumpy arrays."""
    h = np.linspace(-3, 3, 7)
    a = xp.asarray(h)
    for uf in (np.fabs, np.deg2rad, np.rad2deg, np.fmod, np.gcd):
        args = (h, 2.0) if uf is np.fmod else (h,)
        if uf is np.gcd:
            args = (np.arange(-3, 4), 6)
            got = uf(xp.asarray(args[0]), 6)
        else:
            got = uf(a, *args[1:])
        assert isinstance(got, xp.ndarray), uf
        np.testing.assert_allclose(xp.to_numpy(got), uf(*args))
    q, r = np.divmod(a, 2.0)
    assert isinstance(q, xp.ndarray) and isinstance(r, xp.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(q), np.divmod(h, 2.0)[0])
    np.testing.assert_array_equal(xp.to_numpy(r), np.divmod(h, 2.0)[1])
    f, i = np.modf(a)
    np.testing.assert_array_equal(xp.to_numpy(f), np.modf(h)[0])


@pytest.mark.parametrize("func", [np.asarray, np.array, np.asanyarray])
def test_like_makes_cunumpy_arrays(func):
    """NEP 35: func(..., like=cunumpy_array) builds a cunumpy array (Dask
    builds its metas this way)."""
    like = xp.empty(())
    for src, dt in (([1.5, -0.0, np.nan], None), (np.arange(6).reshape(2, 3),
                                                  np.float32), ([], None)):
        got = func(src, dtype=dt, like=like)
        want = np.asarray(src, dtype=dt)
        assert isinstance(got, xp.ndarray), func
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(xp.to_numpy(got), want)


def test_numpy_linalg_and_fft_functions_run_cunumpys():
    """np.linalg.X / np.fft.X on cunumpy arrays run cunumpy.linalg.X /
    cunumpy.fft.X and return cunumpy arrays (Dask's linalg and FFT call
    them on chunks)."""
    h = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]])
    a = xp.asarray(h)
    for got, want in ((np.linalg.inv(a), np.linalg.inv(h)),
                      (np.linalg.qr(a)[1], np.linalg.qr(h)[1]),
                      (np.linalg.eigvalsh(a), np.linalg.eigvalsh(h)),
                      (np.fft.fft(a[::-1], axis=0), np.fft.fft(h[::-1], axis=0)),
                      (np.fft.irfft(a, n=4), np.fft.irfft(h, n=4))):
        assert isinstance(got, xp.ndarray)
        np.testing.assert_allclose(xp.to_numpy(got), want, rtol=1e-12,
                                   atol=1e-12)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(xp.zeros((2, 2)))
# ---- NEP 13: ufuncs cunumpy does not have ---------------------------------

def _special():
    return pytest.importorskip("scipy.special")


@pytest.mark.parametrize("name", ["gamma", "gammaln", "erf", "expit",
                                  "jv"])
def test_scipy_special_ufuncs_fall_back_to_numpy(name):
    sp = _special()
    uf = getattr(sp, name)
    h = np.linspace(0.25, 4.0, 12)
    # non-contiguous, negative strides, 2-D, broadcasting, 0-d, empty
    for host in (h, h[::-2], h.reshape(3, 4).T, h[:0], np.asarray(1.5)):
        args = (host,) if uf.nin == 1 else (np.asarray(1.5), host)
        got = uf(*[xp.asarray(a) for a in args])
        assert isinstance(got, xp.ndarray), name
        want = uf(*args)
        assert got.shape == np.shape(want) and got.dtype == want.dtype
        np.testing.assert_array_equal(xp.to_numpy(got), want)


def test_fallback_special_values_and_dtypes():
    sp = _special()
    h = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 171.7])
    got = sp.gamma(xp.asarray(h))
    np.testing.assert_array_equal(xp.to_numpy(got), sp.gamma(h))
    f32 = np.linspace(0.5, 2, 5, dtype=np.float32)
    g = sp.erf(xp.asarray(f32))
    assert g.dtype == np.float32
    np.testing.assert_array_equal(xp.to_numpy(g), sp.erf(f32))
    c = np.array([1 + 1j, -2.5j])
    np.testing.assert_array_equal(xp.to_numpy(sp.wofz(xp.asarray(c))),
                                  sp.wofz(c))


def test_fallback_out_and_mixed_operands():
    sp = _special()
    h = np.linspace(0.5, 3, 6)
    out = xp.zeros(6)
    assert sp.erf(xp.asarray(h), out=out) is out
    np.testing.assert_array_equal(xp.to_numpy(out), sp.erf(h))
    # a strided out= view is written in place
    base = xp.zeros(12)
    sp.erf(xp.asarray(h), out=base[::2])
    np.testing.assert_array_equal(xp.to_numpy(base)[::2], sp.erf(h))
    assert not xp.to_numpy(base)[1::2].any()
    # a NumPy operand beside a cunumpy one: the result is cunumpy's
    got = sp.jv(np.arange(3.0)[:, None], xp.asarray(h))
    assert isinstance(got, xp.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(got),
                                  sp.jv(np.arange(3.0)[:, None], h))
    # read-only arrays cannot be written
    ro = xp.asarray(np.zeros(6))
    ro_view = xp.asarray(memoryview(np.zeros(6).tobytes()).cast("d"))
    assert not ro_view.flags.writeable
    with pytest.raises(ValueError):
        sp.erf(ro, out=ro_view)


def test_frompyfunc_ufunc_and_ufunc_methods():
    f = np.frompyfunc(lambda x, y: x * 10 + y, 2, 1)
    got = f(xp.arange(3), xp.arange(3)[::-1])
    want = f(np.arange(3), np.arange(3)[::-1])
    # object results have no cunumpy dtype: they stay NumPy's
    assert isinstance(got, np.ndarray) and got.dtype == object
    assert got.tolist() == want.tolist()
    g = np.frompyfunc(lambda x: x + 0.5, 1, 1)
    assert g(xp.arange(3.0)).tolist() == [0.5, 1.5, 2.5]
    # ufunc.at (no cunumpy method) runs in NumPy, in place
    a = xp.zeros(4)
    assert np.add.at(a, [0, 0, 3], 1.0) is None
    np.testing.assert_array_equal(xp.to_numpy(a), [2.0, 0, 0, 1.0])
    red = np.add.reduceat(xp.arange(8.0), [0, 4, 6])
    assert isinstance(red, xp.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(red),
                                  np.add.reduceat(np.arange(8.0), [0, 4, 6]))


def test_third_party_operand_gets_its_turn():
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

    assert np.add(xp.arange(3.0), Other()) == "other"
    sp = _special()
    assert sp.gamma(xp.arange(3.0), out=None) is not None
    assert sp.jv(xp.arange(3.0), Other()) == "other"


def test_fallback_refuses_device_arrays(monkeypatch):
    """A GPU array is never copied to the host silently: the error names
    the ufunc (the device check is forced, as no GPU is needed here)."""
    sp = _special()
    from cunumpy import _interop
    monkeypatch.setattr(_interop, "_on_cpu", lambda a: False)
    with pytest.raises(TypeError, match="ufunc 'gamma'.*device arrays"):
        sp.gamma(xp.arange(3.0))
