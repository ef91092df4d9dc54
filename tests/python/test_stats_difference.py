"""diff, ediff1d, gradient, trapezoid, average and ptp against NumPy:
dtypes (bool xor / or, wrapping integers, float32 kept), axes, strides,
empty inputs, errors."""

import warnings

import numpy as np
import pytest

import cunumpy as xp
from conftest import DTYPES, assert_same

rng = np.random.default_rng(11)


def sample(dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        hi = min(np.iinfo(dtype).max, 1000)
        return rng.integers(0, hi, shape).astype(dtype)
    v = rng.standard_normal(shape) * 10
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def same_error(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(np)
        except Exception as e:  # noqa: BLE001 - the type is what we compare
            want = type(e)
        else:
            raise AssertionError("NumPy did not raise")
    with pytest.raises(Exception) as info:
        fn(xp)
    assert isinstance(info.value, want) or issubclass(want, type(info.value)) \
        or type(info.value).__name__ in (want.__name__,), (info.value, want)


def check(name, *args, ulp=8, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(*args, **kw)
    got = getattr(xp, name)(*[xp.asarray(a) if isinstance(a, np.ndarray)
                              else a for a in args], **kw)
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, ulp=ulp)
    else:
        assert_same(got, want, ulp=ulp)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((7,), -1), ((4, 5), 0), ((4, 5), 1),
                                        ((2, 0, 3), 2), ((2, 0, 3), 1)])
@pytest.mark.parametrize("n", [0, 1, 2, 9])
def test_diff(dtype, shape, axis, n):
    a = sample(dtype, shape)
    check("diff", a, n=n, axis=axis)
    check("diff", a[..., ::-1], n=n, axis=axis)


def test_diff_prepend_append_and_errors():
    a = sample(np.int16, (3, 4))
    check("diff", a, prepend=0, append=a[:, :2], axis=1)
    check("diff", a, prepend=a[:1], axis=0)
    same_error(lambda m: m.diff(m.asarray(3.0)))
    same_error(lambda m: m.diff(m.asarray(a), n=-1))
    same_error(lambda m: m.diff(m.asarray(a), axis=2))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "b"])
def test_ediff1d(dtype):
    a = sample(dtype, (3, 4))
    check("ediff1d", a)
    check("ediff1d", a, to_begin=a[0, :2], to_end=a[1, :1])
    same_error(lambda m: m.ediff1d(m.asarray([True, False])))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "b"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes(dtype, edge_order):
    f = sample(dtype, (5, 6))
    check("gradient", f, edge_order=edge_order)
    check("gradient", f, 0.3, edge_order=edge_order)
    check("gradient", f, 2, 0.5, edge_order=edge_order)
    check("gradient", f, np.float32(0.25), edge_order=edge_order)
    check("gradient", f[::-1, ::2], edge_order=edge_order, axis=-1)


@pytest.mark.parametrize("cdtype", [np.float64, np.float32, np.int64,
                                    np.uint8, np.complex128])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_coordinates(cdtype, edge_order):
    f = sample(np.float64, (6, 7))
    xs = [np.cumsum(rng.integers(1, 4, s)).astype(cdtype) for s in f.shape]
    check("gradient", f, *xs, edge_order=edge_order)
    check("gradient", f.astype(np.float32), *xs, edge_order=edge_order)
    # constant steps take the uniform formulas
    xu = [np.arange(s, dtype=cdtype) * 2 for s in f.shape]
    check("gradient", f, *xu, edge_order=edge_order)
    check("gradient", f, xs[1], axis=1, edge_order=edge_order)


def test_gradient_special_values_and_errors():
    check("gradient", np.array([1.0, np.nan, np.inf, -0.0, 3.0]))
    check("gradient", np.array([1.0, 2.0]))
    same_error(lambda m: m.gradient(m.asarray([1.0])))
    same_error(lambda m: m.gradient(m.asarray([1.0, 2.0]), edge_order=2))
    same_error(lambda m: m.gradient(m.asarray([1.0, 2.0, 4.0]), edge_order=3))
    same_error(lambda m: m.gradient(m.asarray([True, False, True])))
    same_error(lambda m: m.gradient(m.asarray([1.0, 2.0, 4.0]),
                                    m.asarray([1.0, 2.0])))
    same_error(lambda m: m.gradient(m.ones((3, 3)), 1.0, 2.0, 3.0))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((7,), -1), ((4, 5), 0), ((4, 5), 1),
                                        ((0,), 0), ((1,), 0), ((3, 0), 1)])
def test_trapezoid(dtype, shape, axis):
    y = sample(dtype, shape)
    check("trapezoid", y, axis=axis, ulp=64)
    check("trapezoid", y, dx=0.3, axis=axis, ulp=64)
    for xdt in (np.float64, np.float32, np.int64, np.bool_, np.complex64):
        x = sample(xdt, (shape[axis],))
        check("trapezoid", y, x, axis=axis, ulp=64)


def test_trapezoid_strides_and_errors():
    y = sample(np.float64, (6, 8))
    check("trapezoid", y[::-1, ::3], axis=0, ulp=64)
    check("trapezoid", np.int8([60, 120, -76]), dx=0.5)
    same_error(lambda m: m.trapezoid(m.asarray(1.0)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32,
                                   np.uint8, np.bool_, np.complex64])
@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64,
                                    np.bool_, np.complex128])
@pytest.mark.parametrize("keepdims", [False, True])
def test_average(dtype, wdtype, keepdims):
    a = sample(dtype, (3, 4, 5))
    w = sample(wdtype, a.shape)
    w.flat[0] = 1
    check("average", a, weights=w, returned=True, keepdims=keepdims, ulp=64)
    check("average", a, (2, 0), weights=w, returned=True, keepdims=keepdims,
          ulp=64)
    ws = sample(wdtype, (5, 3))
    ws.flat[:] = np.abs(ws.flat) + 1 if ws.dtype.kind != "b" else True
    check("average", a, (2, 0), weights=ws, returned=True, keepdims=keepdims,
          ulp=64)
    check("average", a, 1, returned=True, keepdims=keepdims, ulp=64)


def test_average_errors():
    same_error(lambda m: m.average(m.ones(3), weights=m.zeros(3)))
    same_error(lambda m: m.average(m.ones((2, 3)), weights=m.ones(3)))
    same_error(lambda m: m.average(m.ones((2, 3)), 1, weights=m.ones(2)))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "b"])
def test_ptp(dtype):
    a = sample(dtype, (4, 5))
    if dtype.kind == "c":
        pytest.skip("NumPy's ptp of complex orders lexicographically")
    check("ptp", a)
    check("ptp", a[::-1], axis=0, keepdims=True)
    check("ptp", np.array([-100, 100], dtype=np.int8))
