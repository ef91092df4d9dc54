"""Polynomial functions (cn_poly*, cn_roots, cn_poly) against NumPy: values,
result dtypes, leading zeros, empty and 0-d inputs, every dtype, errors."""

import warnings

import numpy as np
import pytest

import cunumpy as xp

DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.uint64, np.float32,
          np.float64, np.complex64, np.complex128]
COEFFS = [[0, 3, 1, 2], [2, 1], [0, 0], [], [1, 0, 0]]


def _xp(v):
    return xp.asarray(v) if isinstance(v, np.ndarray) else v


def same(res, ref, rtol=1e-6, atol=1e-6):
    refs = ref if isinstance(ref, tuple) else (ref,)
    ress = res if isinstance(res, tuple) else (res,)
    assert len(refs) == len(ress)
    for r0, r1 in zip(refs, ress):
        r0 = np.asarray(r0)
        r1 = np.asarray(r1.get() if hasattr(r1, "get") else r1)
        if r0.ndim == 0 and r0.dtype.kind == "i":
            # lstsq's rank: int64 in the engine (linalg.h), int32 in NumPy
            assert int(r1) == int(r0)
            continue
        assert r1.dtype == r0.dtype, (r1.dtype, r0.dtype)
        assert r1.shape == r0.shape
        # single precision: NumPy's linalg (roots' eigenvalues) runs in
        # double, the engine's in single
        tol = 3e-5 if r0.dtype in (np.float32, np.complex64) else rtol
        np.testing.assert_allclose(r1, r0, rtol=tol, atol=max(atol, tol),
                                   equal_nan=True)


def check(name, *args, **kw):
    """xp.name matches np.name, or raises the same class of error; the
    arguments are never modified."""
    saved = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = getattr(np, name)(*args, **kw)
        except Exception as e:
            # cunumpy's LinAlgError is ValueError, NumPy's a subclass
            expected = ValueError if isinstance(
                e, np.linalg.LinAlgError) else type(e)
            with pytest.raises(expected):
                getattr(xp, name)(*map(_xp, args), **kw)
            return
        res = getattr(xp, name)(*map(_xp, args), **kw)
    same(res, ref)
    for a, b in zip(args, saved):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dt", DTYPES)
def test_arithmetic_every_dtype(dt):
    for c1 in COEFFS + [5]:
        p = np.array(c1).astype(dt)
        for dt2 in DTYPES:
            for c2 in ([2, 1], 3, [[1, 2], [3, 4]]):
                x = np.array(c2).astype(dt2)
                check("polyval", p, x)
                if x.ndim < 2:
                    for name in ("polyadd", "polysub", "polymul",
                                 "polydiv"):
                        check(name, p, x)


@pytest.mark.parametrize("dt", DTYPES)
def test_derivative_integral_every_dtype(dt):
    for c in COEFFS + [5]:
        p = np.array(c).astype(dt)
        for m in (0, 1, 2, 5, -1):
            check("polyder", p, m)
            check("polyint", p, m)
            check("polyint", p, m, k=2)
            check("polyint", p, m, k=np.array([1.5, 2j, 3])[:max(m, 1)])
        check("polyint", p, 3, k=[1, 2])  # too few constants


@pytest.mark.parametrize("dt", DTYPES)
def test_roots_poly_every_dtype(dt):
    for c in COEFFS + [[1, -6, 11, -6, 0, 0], [0, 0, 2, -4]]:
        p = np.array(c).astype(dt)
        check("roots", p)
        check("poly", p)


def test_roots_poly_shapes_and_values():
    check("roots", np.array([[1.0, 2.0]]))
    check("roots", np.array([1.0, np.nan, 2.0]))
    check("poly", np.array([[1.0, 2.0], [3.0, 4.0]]))
    check("poly", np.array([1 + 1j, 1 - 1j, 2]))  # conjugate pairs: real
    check("poly", np.array([1 + 1j, 2]))
    check("poly", np.zeros((0, 0)))
    check("poly", np.zeros((2, 3)))
    assert xp.poly(xp.asarray(np.array([]))) == 1.0
    r = xp.roots(xp.asarray([1.0, -3.0, 2.0]))
    np.testing.assert_allclose(np.sort(r.get()), [1.0, 2.0])


def test_polydiv_values():
    check("polydiv", np.array([1.0, np.nan]), np.array([0.0, 1.0]))
    check("polydiv", np.array([1.0, 2, 3]), np.array([0.0, 1.0]))
    check("polydiv", np.array([3.0, 5, 2]), np.array([2.0, 1]))
    check("polydiv", np.array([1.0, 2]), np.array([1.0, 2, 3]))
    check("polydiv", np.array([1j, 2, 3]), np.array([2.0, 1j]))


def test_polyval_non_contiguous_and_negative_strides():
    p = np.arange(1.0, 9.0)[::-2]
    x = np.linspace(-2, 2, 12).reshape(3, 4)[:, ::-2]
    same(xp.polyval(xp.asarray(np.arange(1.0, 9.0))[::-2],
                    xp.asarray(np.linspace(-2, 2, 12).reshape(3, 4))[:, ::-2]),
         np.polyval(p, x))
    with np.errstate(invalid="ignore"):
        ref = np.polyval([1.0, 2.0], [np.inf, -np.inf, np.nan, -0.0])
    same(xp.polyval(xp.asarray([1.0, 2.0]),
                    xp.asarray([np.inf, -np.inf, np.nan, -0.0])), ref)


def test_polyfit():
    rng = np.random.default_rng(0)
    x = np.linspace(-1, 2, 20)
    y = 1 + 2 * x - x ** 2 + 0.01 * rng.standard_normal(20)
    w = np.linspace(1, 2, 20)
    for xd in (np.float64, np.float32, np.int64, np.complex128):
        X = (x * 3).astype(xd) if xd == np.int64 else x.astype(xd)
        for yd in (np.float64, np.float32, np.complex128):
            Y = y.astype(yd)
            for deg in (0, 2, 5):
                check("polyfit", X, Y, deg)
                check("polyfit", X, Y, deg, w=w)
                check("polyfit", X, np.stack([Y, 2 * Y], 1), deg)
                check("polyfit", X, Y, deg, full=True)
                check("polyfit", X, Y, deg, cov=True)
                check("polyfit", X, Y, deg, cov="unscaled")
                check("polyfit", X, np.stack([Y, 2 * Y], 1), deg, cov=True)
    # the errors NumPy raises, by type
    check("polyfit", x, y, -1)
    check("polyfit", x.reshape(4, 5), y, 1)
    check("polyfit", x[:0], y[:0], 1)
    check("polyfit", x, y[:5], 1)
    check("polyfit", x, y.reshape(2, 2, 5), 1)
    check("polyfit", x, y, 1, w=w[:3])
    check("polyfit", x, y, 1, w=w.reshape(4, 5))
    check("polyfit", x[:3], y[:3], 2, cov=True)
    with pytest.warns(np.exceptions.RankWarning):
        xp.polyfit(xp.asarray(x[:3]), xp.asarray(y[:3]), 5)
