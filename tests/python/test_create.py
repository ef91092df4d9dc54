"""arange and linspace against NumPy bit for bit (the first two values in
the dtype, then NumPy's fill formula; linspace's float64 formula, floor for
integer dtypes), indices built on them."""

import numpy as np
import pytest

import cunumpy as xp
from conftest import assert_same

FLOAT_DTYPES = [np.float64, np.float32, np.complex64, np.complex128]
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
              np.uint32, np.uint64]


def bits(res, want):
    got = res.get()
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got[:6], want[:6])


ARANGE_CASES = [(0, 1, 0.1), (3.0, -32.6, -4.7), (8.8, -85.3, -6.5),
                (0.5, 5, 1.5), (-0.5, 5, 1.5), (0, 5, 0.7), (5, 1, 1),
                (1e-3, 2.5, 1e-3), (-1e9, 1e9, 3.3e7), (2.0, 2.0, 1.0)]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + INT_DTYPES)
@pytest.mark.parametrize("args", ARANGE_CASES)
def test_arange_float_bounds(args, dtype):
    if np.dtype(dtype).kind == "u" and min(args) < 0:
        pytest.skip("negative bounds for an unsigned dtype")
    try:
        want = np.arange(*args, dtype=dtype)
    except OverflowError:
        pytest.skip("bounds out of the dtype's range")
    bits(xp.arange(*args, dtype=dtype), want)


@pytest.mark.parametrize("dtype", INT_DTYPES + [None])
@pytest.mark.parametrize("args", [(0, 10, 3), (5, -20, -3), (0, 600, 200),
                                  (2**62, 2**62 + 10, 3), (7,), (0,),
                                  (-128, 127, 17)])
def test_arange_int_bounds(args, dtype):
    try:
        want = np.arange(*args, dtype=dtype)
    except OverflowError:
        with pytest.raises(OverflowError):
            xp.arange(*args, dtype=dtype)
        return
    bits(xp.arange(*args, dtype=dtype), want)


def test_arange_bool():
    for args in [(0, 2), (1, 2), (0, 1), (0.0, 2.0, 1.0), (0.5, 1.0, 0.25)]:
        bits(xp.arange(*args, dtype=bool), np.arange(*args, dtype=bool))
    with pytest.raises(ValueError, match="at most length 2"):
        xp.arange(0, 3, dtype=bool)


def test_arange_errors():
    for args in [(0, 1, 0), (0, float("inf"), 1), (0.0, 1.0, float("nan"))]:
        with pytest.raises((ValueError, ZeroDivisionError)):
            np.arange(*args)
        with pytest.raises(ValueError):
            xp.arange(*args)


@pytest.mark.parametrize("dtype", [None, np.float32, np.int64, np.int8,
                                   np.uint8, np.bool_, np.complex64])
@pytest.mark.parametrize("num", [0, 1, 2, 3, 10, 51])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("bounds", [(0, 1), (-5, 0), (-1, 1), (2.5, -7.25),
                                    (1e-320, 3e-320), (-3, 3)])
def test_linspace(bounds, num, endpoint, dtype):
    if dtype in (np.int8, np.uint8, np.bool_) and max(map(abs, bounds)) > 1:
        bounds = tuple(b / 8 for b in bounds)
    with np.errstate(all="ignore"):
        want = np.linspace(*bounds, num, endpoint=endpoint, dtype=dtype)
    bits(xp.linspace(*bounds, num, endpoint=endpoint, dtype=dtype), want)


def test_linspace_retstep_and_errors():
    res, step = xp.linspace(0, 1, 5, retstep=True)
    want, wstep = np.linspace(0, 1, 5, retstep=True)
    bits(res, want)
    assert step == wstep
    with pytest.raises(ValueError):
        xp.linspace(0, 1, -1)
    with np.errstate(invalid="ignore"):
        assert_same(xp.linspace(0, float("inf"), 1),
                    np.linspace(0, float("inf"), 1))


def test_large_sequences():
    bits(xp.arange(-3.25, 2.0e5, 0.7), np.arange(-3.25, 2.0e5, 0.7))
    bits(xp.arange(0, 1e6, 0.37, dtype=np.float32),
         np.arange(0, 1e6, 0.37, dtype=np.float32))
    bits(xp.linspace(-1, 7, 300001), np.linspace(-1, 7, 300001))


def test_indices_and_logspace():
    bits(xp.indices((2, 3, 4)), np.indices((2, 3, 4)))
    bits(xp.indices((3, 0), dtype=np.int32), np.indices((3, 0), dtype=np.int32))
    assert_same(xp.logspace(0, 3, 7), np.logspace(0, 3, 7))
    assert_same(xp.geomspace(1, 1000, 4), np.geomspace(1, 1000, 4))
