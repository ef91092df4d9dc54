"""Pickling cunumpy arrays: values, dtype, shape, layout and device come
back (NumPy's pickles of the same arrays are the oracle); device arrays
travel through the host."""

import copyreg
import pickle

import numpy as np
import pytest

import cunumpy as xp
from cunumpy._ndarray import _from_pickle

from conftest import DTYPES

PROTOCOLS = list(range(2, pickle.HIGHEST_PROTOCOL + 1))


def _values(dt, shape):
    n = int(np.prod(shape))
    if dt.kind == "b":
        return (np.arange(n) % 3 == 0).reshape(shape)
    if dt.kind == "f":
        v = np.linspace(-3, 3, n).astype(dt)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0], dtype=dt)
        v[:min(n, 4)] = specials[:min(n, 4)]
        return v.reshape(shape)
    if dt.kind == "c":
        v = (np.linspace(-2, 2, n) + 1j * np.linspace(3, -1, n)).astype(dt)
        if n:
            v[0] = complex(np.nan, -0.0)
        return v.reshape(shape)
    info = np.iinfo(dt)
    extremes = [info.min, info.max, 0, 1, 7] + ([-1] if info.min < 0 else [])
    return np.resize(np.array(extremes, dtype=dt), n).reshape(shape)


def _same(got, want):
    assert isinstance(got, xp.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    host = np.asarray(got)
    np.testing.assert_array_equal(host, want)
    if want.dtype.kind in "fc":  # -0.0 keeps its sign
        np.testing.assert_array_equal(np.signbit(host.real),
                                      np.signbit(want.real))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (7,), (3, 4), (2, 3, 4)])
def test_round_trip_every_dtype_and_shape(dt, shape):
    want = _values(dt, shape)
    src = xp.asarray(want)
    for protocol in PROTOCOLS:
        got = pickle.loads(pickle.dumps(src, protocol))
        _same(got, want)
        assert got.device == "cpu"


@pytest.mark.parametrize("view", ["T", "step", "negative", "column"])
def test_views_come_back_as_numpy_pickles_them(view):
    base = np.arange(60, dtype=np.float64).reshape(6, 10)
    take = {"T": lambda a: a.T, "step": lambda a: a[::2, 1::3],
            "negative": lambda a: a[::-1, ::-2], "column": lambda a: a[:, 3]}
    want = take[view](base)
    src = take[view](xp.asarray(base))
    for protocol in PROTOCOLS:
        got = pickle.loads(pickle.dumps(src, protocol))
        oracle = pickle.loads(pickle.dumps(want, protocol))
        _same(got, oracle)
        assert got.flags.c_contiguous == oracle.flags.c_contiguous
        assert got.flags.f_contiguous == oracle.flags.f_contiguous


def test_unpickled_array_owns_its_memory():
    src = xp.asarray(np.arange(5.0))
    got = pickle.loads(pickle.dumps(src))
    got[0] = 42.0
    assert float(src[0]) == 0.0
    assert got.flags.writeable


def test_pickle_of_containers_and_dispatch_table():
    a = xp.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    got = pickle.loads(pickle.dumps({"a": a, "b": [a, a[1]]}))
    _same(got["a"], np.asarray(a))
    _same(got["b"][1], np.asarray(a)[1])
    assert xp.ndarray not in copyreg.dispatch_table  # __reduce__ is the path


def test_device_arrays_come_back_on_their_device_or_fail_clearly():
    host = np.arange(4.0)
    if xp.cuda_available():
        with xp.use_backend("cuda"):
            d = xp.asarray(host)
        got = pickle.loads(pickle.dumps(d))
        assert got.device == d.device
        np.testing.assert_array_equal(got.get(), host)
    else:
        # what a pickle of a CUDA array holds, unpickled without CUDA
        with pytest.raises(xp.CudaUnavailableError):
            _from_pickle(host, "cuda:0")
