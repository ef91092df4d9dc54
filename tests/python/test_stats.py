"""Statistics and set functions beyond the basics, against NumPy: every
quantile method, average(returned=, keepdims=), diff(prepend=, append=),
interp(period=), setxor1d."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import assert_same

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear",
           "median_unbiased", "normal_unbiased", "lower", "higher",
           "nearest", "midpoint"]


def check(ours, ref, **kw):
    ours = ours.get() if hasattr(ours, "get") else np.asarray(ours)
    assert ours.shape == np.shape(ref)
    assert ours.dtype == np.asarray(ref).dtype, (ours.dtype, ref)
    # float32: NumPy interpolates in float32, cunumpy in float64
    tol = 1e-6 if ours.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol,
                               equal_nan=True, **kw)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 10])
def test_quantile_methods_all_q(method, n):
    a = np.random.default_rng(n).permutation(np.arange(n) * 1.5 - 2)
    q = np.linspace(0, 1, 41)
    check(xp.quantile(a, q, method=method), np.quantile(a, q, method=method))
    check(xp.percentile(a, q * 100, method=method),
          np.percentile(a, q * 100, method=method))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["int16", "int64", "float32", "float64"])
def test_quantile_methods_axes_dtypes(method, dtype):
    a = np.random.default_rng(1).integers(-50, 50, (4, 5, 6)).astype(dtype)
    for axis, q in [(None, 0.3), (1, [0.1, 0.5, 0.95]), ((0, 2), 0.77),
                    (-1, 0.0), (0, 1.0)]:
        ref = np.quantile(a, q, axis=axis, method=method, keepdims=True)
        check(xp.quantile(a, q, axis=axis, method=method, keepdims=True),
              ref, err_msg=f"axis {axis} q {q}")
    # non-contiguous input
    b = a[::-1, ::2]
    check(xp.quantile(xp.asarray(a)[::-1, ::2], 0.4, axis=1, method=method),
          np.quantile(b, 0.4, axis=1, method=method))


@pytest.mark.parametrize("method", METHODS)
def test_nanquantile_methods(method):
    a = np.random.default_rng(2).normal(size=(6, 9))
    a[a > 1.0] = np.nan
    a[3] = np.nan
    q = [0.0, 0.25, 0.6, 1.0]
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        ref = np.nanquantile(a, q, axis=1, method=method)
    check(xp.nanquantile(a, q, axis=1, method=method), ref)
    check(xp.quantile(a, q, axis=1, method=method),
          np.quantile(a, q, axis=1, method=method))


@given(hnp.arrays(np.float64, st.integers(1, 30),
                  elements=st.floats(-1e6, 1e6)),
       st.floats(0, 1), st.sampled_from(METHODS))
def test_quantile_methods_hypothesis(a, q, method):
    check(xp.quantile(a, q, method=method), np.quantile(a, q, method=method))


def test_quantile_bad_method():
    with pytest.raises(ValueError):
        np.quantile([1.0, 2.0], 0.5, method="bogus")
    with pytest.raises(ValueError, match="not a valid method"):
        xp.quantile([1.0, 2.0], 0.5, method="bogus")


def check_average(a, **kw):
    """average with and without returned=, against NumPy."""
    ref = np.average(a, returned=True, **kw)
    ours = xp.average(a, returned=True, **kw)
    assert isinstance(ours, tuple) and len(ours) == 2
    check(ours[0], ref[0])
    check(ours[1], ref[1])
    check(xp.average(a, **kw), np.average(a, **kw))


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
def test_average_returned_keepdims(axis, keepdims):
    a = np.arange(24.0).reshape(2, 3, 4) ** 1.5
    w = np.random.default_rng(0).random((2, 3, 4))
    for weights in (None, w):
        check_average(a, axis=axis, weights=weights, keepdims=keepdims)
    # 1-d weights along one axis
    if isinstance(axis, int):
        check_average(a, axis=axis, weights=np.arange(1.0, a.shape[axis] + 1),
                      keepdims=keepdims)


def test_average_returned_int_input():
    check_average(np.arange(12).reshape(3, 4), axis=0)


@pytest.mark.parametrize("n", [1, 2])
def test_diff_prepend_append(n):
    a = np.arange(12.0).reshape(3, 4) ** 2
    cases = [dict(prepend=0.0), dict(append=5.0),
             dict(prepend=-1.0, append=[[1.0], [2.0], [3.0]]),
             dict(prepend=np.ones((3, 2)))]
    for kw in cases:
        check(xp.diff(a, n=n, axis=1, **kw), np.diff(a, n=n, axis=1, **kw))
    check(xp.diff(a, n=n, axis=0, append=np.zeros((1, 4))),
          np.diff(a, n=n, axis=0, append=np.zeros((1, 4))))
    check(xp.diff(np.arange(5), n=n, prepend=10),
          np.diff(np.arange(5), n=n, prepend=10))
    check(xp.diff(np.array([], dtype=np.int64), append=3),
          np.diff(np.array([], dtype=np.int64), append=3))
    with pytest.raises(ValueError):
        np.diff(a, axis=1, prepend=np.zeros((2, 2)))
    with pytest.raises(ValueError):
        xp.diff(a, axis=1, prepend=np.zeros((2, 2)))


def test_interp_period():
    x = np.array([-180.0, -170, -185, 185, -10, -5, 0, 365])
    xp_ = np.array([190.0, -190, 350, -350])
    fp = np.array([5.0, 10, 3, 4])
    check(xp.interp(x, xp_, fp, period=360),
          np.interp(x, xp_, fp, period=360))
    rng = np.random.default_rng(4)
    xq = rng.uniform(-20, 20, 50)
    xs = rng.uniform(-10, 10, 12)
    fs = rng.normal(size=12)
    check(xp.interp(xq, xs, fs, period=7.5), np.interp(xq, xs, fs, period=7.5))
    check(xp.interp(xq, xs, fs, period=-3), np.interp(xq, xs, fs, period=-3))
    # left/right are ignored with a period
    check(xp.interp(xq, xs, fs, left=-9, right=9, period=4),
          np.interp(xq, xs, fs, left=-9, right=9, period=4))
    with pytest.raises(ValueError):
        np.interp(xq, xs, fs, period=0)
    with pytest.raises(ValueError):
        xp.interp(xq, xs, fs, period=0)
    with pytest.raises(ValueError):
        xp.interp(xq, xs, fs[:3], period=2)


@given(hnp.arrays(np.int64, st.integers(0, 20), elements=st.integers(-5, 5)),
       hnp.arrays(np.int64, st.integers(0, 20), elements=st.integers(-5, 5)))
def test_setxor1d(a, b):
    check(xp.setxor1d(a, b), np.setxor1d(a, b))


def test_setxor1d_float_nan():
    a = np.array([1.0, np.nan, 2.0, -0.0])
    b = np.array([2.0, 3.0, 0.0])
    check(xp.setxor1d(a, b), np.setxor1d(a, b))


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_unique_axis(axis):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, (6, 4, 3)).astype(np.float64)
    a[2] = a[0]
    a[:, 3] = a[:, 1]
    ref = np.unique(a, axis=axis, return_index=True, return_inverse=True,
                    return_counts=True)
    ours = xp.unique(a, axis=axis, return_index=True, return_inverse=True,
                     return_counts=True)
    assert len(ours) == 4
    for o, r in zip(ours, ref):
        check(o, r)
    check(xp.unique(a, axis=axis), np.unique(a, axis=axis))
    # non-contiguous, int dtype
    b = a[::-1, ::2].astype(np.int32)
    check(xp.unique(xp.asarray(a)[::-1, ::2].astype(np.int32), axis=axis),
          np.unique(b, axis=axis))


def test_unique_axis_edges():
    for a in [np.zeros((0, 3)), np.zeros((3, 0)), np.array([[1, 1], [1, 1]])]:
        ref = np.unique(a, axis=0, return_index=True, return_inverse=True,
                        return_counts=True)
        ours = xp.unique(a, axis=0, return_index=True, return_inverse=True,
                         return_counts=True)
        for o, r in zip(ours, ref):
            check(o, r)
    with pytest.raises(np.exceptions.AxisError):
        xp.unique(np.zeros((2, 2)), axis=2)


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("ddof", [None, 0, 2])
@pytest.mark.parametrize("bias", [False, True])
def test_cov_weights(rowvar, ddof, bias):
    rng = np.random.default_rng(9)
    m = rng.normal(size=(3, 8))
    if not rowvar:
        m = m.T.copy()
    y = rng.normal(size=(1, 8)) if rowvar else rng.normal(size=(8, 1))
    fw = rng.integers(0, 4, 8)
    fw[0] = 1
    aw = rng.random(8)
    for kw in [dict(fweights=fw), dict(aweights=aw),
               dict(fweights=fw, aweights=aw)]:
        check(xp.cov(m, rowvar=rowvar, ddof=ddof, bias=bias, **kw),
              np.cov(m, rowvar=rowvar, ddof=ddof, bias=bias, **kw))
        check(xp.cov(m, y, rowvar=rowvar, ddof=ddof, bias=bias, **kw),
              np.cov(m, y, rowvar=rowvar, ddof=ddof, bias=bias, **kw))
    # 1-d input, complex input, float32 dtype
    v = rng.normal(size=8)
    check(xp.cov(v, aweights=aw), np.cov(v, aweights=aw))
    c = m + 1j * rng.normal(size=m.shape)
    check(xp.cov(c, rowvar=rowvar, fweights=fw),
          np.cov(c, rowvar=rowvar, fweights=fw))
    ours = xp.cov(m, rowvar=rowvar, aweights=aw, dtype=np.float32).get()
    ref = np.cov(m, rowvar=rowvar, aweights=aw, dtype=np.float32)
    assert ours.dtype == ref.dtype
    np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-6)


def test_cov_weight_errors():
    m = np.ones((2, 4))
    for kw, exc in [(dict(fweights=[1, 2, 3]), RuntimeError),
                    (dict(fweights=[[1, 1, 1, 1]]), RuntimeError),
                    (dict(fweights=[1, -1, 1, 1]), ValueError),
                    (dict(fweights=[1.5, 1, 1, 1]), TypeError),
                    (dict(aweights=[1, 2]), RuntimeError),
                    (dict(aweights=[1, -2, 1, 1]), ValueError)]:
        with pytest.raises(exc):
            np.cov(m, **kw)
        with pytest.raises(exc):
            xp.cov(m, **kw)


def test_average_complex():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4))
    w = rng.random((3, 4))
    for axis in (None, 0, 1, (0, 1)):
        check_average(a, axis=axis, weights=w)
        check_average(a, axis=axis)
    check(xp.average(a.astype(np.complex64), axis=0),
          np.average(a.astype(np.complex64), axis=0))


CPLX = np.array([3 + 1j, 1 - 2j, 3 - 1j, np.nan + 0j, 1 - 2j, 1j * np.nan,
                 -0.0 + 0j, 3 + 1j, np.inf - 1j])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_sets(dtype):
    a = CPLX.astype(dtype)
    b = np.array([1 - 2j, 0j, 5j, np.inf - 1j, 3 - 1j]).astype(dtype)
    check(xp.union1d(a, b), np.union1d(a, b))
    check(xp.intersect1d(a, b), np.intersect1d(a, b))
    check(xp.setdiff1d(a, b), np.setdiff1d(a, b))
    check(xp.setxor1d(a, b), np.setxor1d(a, b))
    for inv in (False, True):
        check(xp.isin(a.reshape(3, 3), b, invert=inv),
              np.isin(a.reshape(3, 3), b, invert=inv))
    # mixed real / complex
    check(xp.isin(np.array([1.0, 3.0, 2.0]), b), np.isin([1.0, 3.0, 2.0], b))
    check(xp.union1d(np.array([2.0, 1.0]), b), np.union1d([2.0, 1.0], b))
    s = np.sort(a)
    v = np.array([[1 - 2j, 3 + 0j], [np.nan + 0j, -5 + 0j]]).astype(dtype)
    for side in ("left", "right"):
        check(xp.searchsorted(s, v, side=side),
              np.searchsorted(s, v, side=side))
        check(xp.searchsorted(s, b, side=side),
              np.searchsorted(s, b, side=side))
    order = np.argsort(a)
    check(xp.searchsorted(a, v, sorter=order),
          np.searchsorted(a, v, sorter=order))


@given(hnp.arrays(np.complex128, st.integers(0, 12),
                  elements=st.complex_numbers(max_magnitude=3,
                                              allow_nan=False).map(
                      lambda z: complex(round(z.real), round(z.imag)))),
       hnp.arrays(np.complex128, st.integers(0, 12),
                  elements=st.complex_numbers(max_magnitude=3,
                                              allow_nan=False).map(
                      lambda z: complex(round(z.real), round(z.imag)))))
def test_complex_sets_hypothesis(a, b):
    check(xp.isin(a, b), np.isin(a, b))
    check(xp.intersect1d(a, b), np.intersect1d(a, b))
    check(xp.setdiff1d(a, b), np.setdiff1d(a, b))
    s = np.sort(a)
    check(xp.searchsorted(s, b), np.searchsorted(s, b))
    check(xp.searchsorted(s, b, side="right"),
          np.searchsorted(s, b, side="right"))


def test_complex_stats():
    rng = np.random.default_rng(12)
    a = rng.normal(size=7) + 1j * rng.normal(size=7)
    v = rng.normal(size=3) - 2j * rng.normal(size=3)
    r = rng.normal(size=3)
    for mode in ("full", "same", "valid"):
        check(xp.convolve(a, v, mode), np.convolve(a, v, mode))
        check(xp.convolve(r, a, mode), np.convolve(r, a, mode))
        check(xp.correlate(a, v, mode), np.correlate(a, v, mode))
        check(xp.correlate(v, a, mode), np.correlate(v, a, mode))
        check(xp.correlate(a, r, mode), np.correlate(a, r, mode))
        check(xp.correlate(r, a, mode), np.correlate(r, a, mode))
    with pytest.raises(ValueError):
        np.convolve(a, v, "bogus")
    with pytest.raises(ValueError):
        xp.convolve(a, v, "bogus")
    m = rng.normal(size=(3, 6)) + 1j * rng.normal(size=(3, 6))
    check(xp.cov(m), np.cov(m))
    check(xp.cov(m, rowvar=False, bias=True), np.cov(m, rowvar=False,
                                                     bias=True))
    check(xp.cov(m[0], m[1].real), np.cov(m[0], m[1].real))
    check(xp.corrcoef(m), np.corrcoef(m))
    check(xp.corrcoef(m[0], m[2]), np.corrcoef(m[0], m[2]))
    check(xp.trapezoid(a), np.trapezoid(a))
    check(xp.trapezoid(m, axis=0), np.trapezoid(m, axis=0))
    check(xp.trapezoid(m, x=np.arange(6.0) ** 2),
          np.trapezoid(m, x=np.arange(6.0) ** 2))
    xs = np.array([0.0, 1.0, 2.5, 4.0])
    fp = np.array([1 + 1j, 2 - 1j, 3j, -1.0 + 0j])
    xq = np.array([-1.0, 0.5, 2.0, 3.9, 5.0])
    check(xp.interp(xq, xs, fp), np.interp(xq, xs, fp))
    check(xp.interp(xq, xs, fp, left=9j, right=-1 + 2j),
          np.interp(xq, xs, fp, left=9j, right=-1 + 2j))
    check(xp.interp(xq, xs, fp, period=3.0),
          np.interp(xq, xs, fp, period=3.0))
    check(xp.diff(a, prepend=1j, append=[2 - 2j]),
          np.diff(a, prepend=1j, append=[2 - 2j]))


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_full(edge_order):
    rng = np.random.default_rng(5)
    f = rng.normal(size=(5, 6, 4))
    xs = np.cumsum(rng.random(5) + 0.1)
    ys = np.cumsum(rng.random(6) + 0.1)
    zs = np.arange(4) * 3  # integer, uniform
    cases = [((), {}), ((0.5,), {}), ((xs, ys, zs), {}), ((xs, 2.0, zs), {}),
             ((ys,), dict(axis=1)), ((ys, xs), dict(axis=(1, 0))),
             ((2.0,), dict(axis=(-1, 0))), ((xs,), dict(axis=-3))]
    for args, kw in cases:
        ref = np.gradient(f, *args, edge_order=edge_order, **kw)
        ours = xp.gradient(f, *args, edge_order=edge_order, **kw)
        if isinstance(ref, (list, tuple)):
            assert isinstance(ours, tuple) and len(ours) == len(ref)
            for o, r in zip(ours, ref):
                check(o, r)
        else:
            check(ours, ref)
    # integer and complex f, 1-d with coordinates
    fi = np.array([1, 4, 9, 16, 25, 36])
    x1 = np.array([0.0, 0.5, 2.0, 2.5, 4.0, 7.0])
    check(xp.gradient(fi, x1, edge_order=edge_order),
          np.gradient(fi, x1, edge_order=edge_order))
    fc = fi * (1 + 2j)
    check(xp.gradient(fc, x1, edge_order=edge_order),
          np.gradient(fc, x1, edge_order=edge_order))
    check(xp.gradient(fc, edge_order=edge_order),
          np.gradient(fc, edge_order=edge_order))


def test_gradient_errors():
    f = np.arange(6.0).reshape(2, 3)
    for args, kw, exc in [((1.0, 2.0, 3.0), {}, TypeError),
                          ((np.ones((2, 2)), 1.0), {}, ValueError),
                          ((np.arange(3.0), 1.0), {}, ValueError),
                          ((), dict(edge_order=3), ValueError),
                          ((), dict(axis=2), np.exceptions.AxisError),
                          ((), dict(axis=0, edge_order=2), ValueError)]:
        with pytest.raises(exc):
            np.gradient(f, *args, **kw)
        with pytest.raises(exc):
            xp.gradient(f, *args, **kw)


@given(hnp.arrays(np.int64, st.integers(0, 15), elements=st.integers(-4, 4)),
       hnp.arrays(np.int64, st.integers(0, 15), elements=st.integers(-4, 4)))
def test_intersect1d_return_indices(a, b):
    ref = np.intersect1d(a, b, return_indices=True)
    ours = xp.intersect1d(a, b, return_indices=True)
    assert len(ours) == 3
    for o, r in zip(ours, ref):
        check(o, r)
    c = (a + 1j * (a % 2)).astype(np.complex128)
    d = (b + 1j * (b % 2)).astype(np.complex128)
    for o, r in zip(xp.intersect1d(c, d, return_indices=True),
                    np.intersect1d(c, d, return_indices=True)):
        check(o, r)


@given(hnp.arrays(np.complex128, st.integers(0, 20),
                  elements=st.sampled_from([0j, 1 + 0j, -1j, 2 - 1j, -0.0 + 0j,
                                            complex(np.nan, 0),
                                            complex(0, np.nan),
                                            complex(2, np.nan),
                                            complex(np.nan, -3),
                                            complex(np.nan, np.nan),
                                            complex(np.inf, 1)])))
def test_complex_sort_unique_nan_order(a):
    """NumPy's complex order: NaN-free values, then R + nan j by R, then
    nan + R j by R, then nan + nan j."""
    ours = xp.sort(a).get()
    ref = np.sort(a)
    np.testing.assert_array_equal(ours.real, ref.real)
    np.testing.assert_array_equal(ours.imag, ref.imag)
    np.testing.assert_array_equal(xp.argsort(a, stable=True).get(),
                                  np.argsort(a, stable=True))
    u, c = xp.unique(a, return_counts=True)
    ru, rc = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(u.get(), ru)
    np.testing.assert_array_equal(c.get(), rc)


def test_engine_edge_cases():
    # average over an axis tuple with weights of the axes' shape, returned
    a = np.arange(24.0).reshape(2, 3, 4)
    w = np.arange(1.0, 9.0).reshape(4, 2)
    for keep in (False, True):
        ours = xp.average(xp.asarray(a), axis=(2, 0), weights=xp.asarray(w),
                          returned=True, keepdims=keep)
        ref = np.average(a, axis=(2, 0), weights=w, returned=True,
                         keepdims=keep)
        for o, r in zip(ours, ref):
            np.testing.assert_allclose(o.get(), r)
            assert o.shape == r.shape
    # gradient with coordinates on several axes, both edge orders
    f = np.random.default_rng(0).normal(size=(5, 6))
    x0 = np.array([0.0, 1, 1.5, 3.5, 4])
    for eo in (1, 2):
        ours = xp.gradient(xp.asarray(f), xp.asarray(x0), 2.0, edge_order=eo)
        ref = np.gradient(f, x0, 2.0, edge_order=eo)
        for o, r in zip(ours, ref):
            np.testing.assert_allclose(o.get(), r)
    # complex and mixed convolve / correlate, every mode; complex trapezoid
    a = np.array([1 + 1j, 2, 3 - 2j, 0.5])
    v = np.array([0, 1j, 0.5])
    for mode in ("full", "same", "valid"):
        for p, q in ((a, v), (a.real, v), (a, v.real)):
            np.testing.assert_allclose(
                xp.convolve(xp.asarray(p), xp.asarray(q), mode).get(),
                np.convolve(p, q, mode))
            np.testing.assert_allclose(
                xp.correlate(xp.asarray(p), xp.asarray(q), mode).get(),
                np.correlate(p, q, mode))
    np.testing.assert_allclose(
        xp.trapezoid(xp.asarray(a), xp.asarray([0, 1, 3, 3.5])).get(),
        np.trapezoid(a, [0, 1, 3, 3.5]))
    # histogramdd with mixed bins, a partial range, density and weights
    s = np.random.default_rng(1).random((50, 3))
    bins = (3, np.array([0, 0.25, 1.0]), 2)
    rng = [None, (0, 1), (0.2, 0.8)]
    wt = np.arange(50.0)
    for dens in (False, True):
        h, e = xp.histogramdd(xp.asarray(s), bins, rng, dens, xp.asarray(wt))
        rh, re_ = np.histogramdd(s, bins, rng, dens, wt)
        np.testing.assert_allclose(h.get(), rh)
        for o, r in zip(e, re_):
            np.testing.assert_allclose(o.get(), r)
    # complex cov with fweights and aweights, complex corrcoef
    c = np.random.default_rng(2).normal(size=(2, 6)) * (1 + 0.5j)
    fw = np.array([1, 2, 0, 1, 3, 1])
    aw = np.linspace(0.1, 1, 6)
    np.testing.assert_allclose(
        xp.cov(xp.asarray(c), fweights=fw, aweights=aw).get(),
        np.cov(c, fweights=fw, aweights=aw))
    np.testing.assert_allclose(xp.corrcoef(xp.asarray(c)).get(),
                               np.corrcoef(c), atol=1e-12)


def test_statistics():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 6))
    x = xp.asarray(a)
    assert_same(xp.median(x), np.median(a), ulp=16)
    assert_same(xp.median(x, axis=1, keepdims=True),
                np.median(a, axis=1, keepdims=True), ulp=16)
    for method in ("linear", "lower", "higher", "nearest", "midpoint"):
        assert_same(xp.quantile(x, 0.3, axis=0, method=method),
                    np.quantile(a, 0.3, axis=0, method=method), ulp=16)
    assert_same(xp.percentile(x, xp.asarray([10.0, 90.0])),
                np.percentile(a, [10.0, 90.0]), ulp=16)
    assert_same(xp.cov(x), np.cov(a), ulp=256)
    assert_same(xp.corrcoef(x), np.corrcoef(a), ulp=256)
    assert_same(xp.average(x, axis=0, weights=xp.arange(1.0, 5.0)),
                np.average(a, axis=0, weights=np.arange(1.0, 5.0)), ulp=16)
    h, e = xp.histogram(x, 5)
    eh, ee = np.histogram(a, 5)
    assert_same(h, eh)
    assert_same(e, ee, ulp=16)
    assert_same(xp.bincount(xp.asarray([0, 2, 2, 5])),
                np.bincount([0, 2, 2, 5]))
    assert_same(xp.diff(x, axis=0), np.diff(a, axis=0))
    assert_same(xp.ptp(x, axis=1), np.ptp(a, axis=1))
    assert_same(xp.convolve(xp.arange(4.0), xp.ones(2), "same"),
                np.convolve(np.arange(4.0), np.ones(2), "same"))
    assert_same(xp.interp(xp.asarray([0.5, 2.5]), xp.arange(4.0),
                          xp.arange(4.0) ** 2),
                np.interp([0.5, 2.5], np.arange(4.0), np.arange(4.0) ** 2))
    assert_same(xp.trapezoid(xp.arange(5.0)), np.trapezoid(np.arange(5.0)))


def test_weighted_statistics_errors_and_bools():
    a = np.arange(6.0).reshape(2, 3)
    # NumPy's exception types for the engine's statuses
    with pytest.raises(ZeroDivisionError):
        xp.average(xp.asarray(a), axis=(0, 1), weights=xp.zeros((2, 3)))
    with pytest.raises(ZeroDivisionError):
        xp.cov(xp.asarray([1.0, 2, 3]), fweights=[0, 0, 0])
    with pytest.raises(np.exceptions.AxisError):
        xp.average(xp.asarray(a), axis=(0, 2))
    # bools: gradient refuses them, trapezoid adds pairs as a logical or
    with pytest.raises(TypeError):
        xp.gradient(xp.asarray([True, False, True]))
    with pytest.raises(TypeError):
        xp.gradient(xp.arange(3.0), xp.asarray([True, False, True]))
    b = np.array([True, True, False])
    np.testing.assert_allclose(xp.trapezoid(xp.asarray(b)).get(),
                               np.trapezoid(b))
    # 0-d and non-finite inputs
    with np.errstate(all="ignore"):
        for v in (np.array(5.0), np.array([[1.0, np.inf, 3], [1, 2, 3]])):
            np.testing.assert_allclose(xp.cov(xp.asarray(v)).get(),
                                       np.cov(v), equal_nan=True)
        g = np.array([1.0, np.nan, 3, np.inf])
        np.testing.assert_allclose(xp.gradient(xp.asarray(g)).get(),
                                   np.gradient(g), equal_nan=True)


@pytest.mark.parametrize("axis", [0, 1])
def test_empty_along_a_huge_axis(axis):
    # (2**40, 0) over axis 0 and (0, 2**40) over axis 1: no lanes, so the
    # result is immediate; a pass over the long axis would take hours.
    n = 2 ** 40
    shape = (n, 0) if axis == 0 else (0, n)
    a, x = np.zeros(shape), xp.zeros(shape)
    check(xp.median(x, axis=axis), np.median(a, axis=axis))
    check(xp.nanmedian(x, axis=axis, keepdims=True),
          np.nanmedian(a, axis=axis, keepdims=True))
    for method in ("linear", "nearest", "hazen"):
        check(xp.quantile(x, [0.25, 0.5], axis=axis, method=method),
              np.quantile(a, [0.25, 0.5], axis=axis, method=method))
        check(xp.percentile(x, 50, axis=axis, method=method),
              np.percentile(a, 50, axis=axis, method=method))
        check(xp.nanquantile(x, 0.5, axis=axis, method=method),
              np.nanquantile(a, 0.5, axis=axis, method=method))
        check(xp.nanpercentile(x, 90, axis=axis, method=method),
              np.nanpercentile(a, 90, axis=axis, method=method))
    check(xp.roll(x, 3, axis=axis), np.roll(a, 3, axis=axis))
    # NumPy itself needs a 2**40-long pass here, so its result on a short
    # axis of the same layout is the oracle: one empty slice, counted n
    # times (first at 0), and repeats that scale the axis.
    small = (5, 0) if axis == 0 else (0, 5)
    values, index, counts = xp.unique(x, axis=axis, return_index=True,
                                      return_counts=True)
    ev, ei, ec = np.unique(np.zeros(small), axis=axis, return_index=True,
                           return_counts=True)
    assert values.shape == ev.shape and values.dtype == ev.dtype
    check(index, ei)
    assert counts.tolist() == [n] and ec.tolist() == [5]
    check(xp.unique(x, axis=axis), ev)
    r = xp.repeat(x, 2, axis=axis)
    er = np.repeat(np.zeros(small), 2, axis=axis)
    want = list(er.shape)
    want[axis] = 2 * n
    assert r.shape == tuple(want) and r.dtype == er.dtype
    w = np.broadcast_to(1.0, (n,))
    res = xp.average(x, axis=axis, weights=w, returned=True)
    ref = np.average(np.zeros(small), axis=axis, weights=np.ones(5),
                     returned=True)
    for o, e in zip(res, ref):
        check(o, e)


# ---- histograms, bincount, digitize (every form against NumPy) -------------
# test_histograms_composed_path reruns the tests named hist_np_* with
# CUNUMPY_HISTOGRAM_COMPOSED=1: CPU arrays then take the composition that
# device arrays take (searchsorted and the scatter_add kernel).

def _hist_data(rng, n=2000):
    a = rng.standard_normal(n)
    a[:11] = np.linspace(-2, 2, 11)  # values on the edges of linspace bins
    return a


def _same_hist(ours, ref, exact=True):
    (h, e), (rh, re_) = ours, ref
    h = h.get()
    assert h.shape == rh.shape
    if exact:
        np.testing.assert_array_equal(h, rh)
    else:
        np.testing.assert_allclose(h, rh, rtol=1e-12, atol=0)
    np.testing.assert_allclose(e.get(), re_, rtol=1e-15, atol=0)


@pytest.mark.parametrize("bins", [1, 7, 10, 256, [-2, -1, 0, 0.5, 2],
                                  np.array([-3.0, 0, 0, 1, 1, 4]),
                                  "auto", "fd", "sturges", "sqrt", "rice",
                                  "scott", "doane"])
@pytest.mark.parametrize("rng_", [None, (-2, 2)])
def test_hist_np_bins_forms(bins, rng_):
    a = _hist_data(np.random.default_rng(5))
    ours = xp.histogram(xp.asarray(a), bins if np.ndim(bins) == 0 or
                        isinstance(bins, str) else xp.asarray(bins),
                        range=rng_)
    ref = np.histogram(a, bins, range=rng_)
    _same_hist(ours, ref)
    assert ours[0].dtype == np.int64


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize("bins", [5, [-2, 0, 0.5, 2]])
def test_hist_np_weights_density(density, bins):
    rng = np.random.default_rng(6)
    a = _hist_data(rng)
    w = rng.random(a.size)
    b = bins if np.ndim(bins) == 0 else xp.asarray(bins)
    for wt in (None, w):
        ours = xp.histogram(xp.asarray(a), b, density=density,
                            weights=None if wt is None else xp.asarray(wt))
        ref = np.histogram(a, bins, density=density, weights=wt)
        _same_hist(ours, ref, exact=wt is None and not density)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32", "uint64",
                                   "float32", "float64"])
def test_hist_np_dtypes_and_strides(dtype):
    a = (np.arange(60) % 13).reshape(6, 10).astype(dtype)
    xa = xp.asarray(a)
    for ours, ref in ((xa, a), (xa.T, a.T), (xa[::-1, ::-2], a[::-1, ::-2])):
        h, e = xp.histogram(ours, 4, range=(0, 12))
        rh, re_ = np.histogram(ref.astype(np.float64), 4, range=(0, 12))
        np.testing.assert_array_equal(h.get(), rh)
        np.testing.assert_array_equal(e.get(), re_)
        w = np.arange(60.0).reshape(6, 10)
        wv = w.T if ref.shape == (10, 6) else w[::-1, ::-2] \
            if ref.shape == (6, 5) else w
        xw = xp.asarray(w)
        xwv = xw.T if ref.shape == (10, 6) else xw[::-1, ::-2] \
            if ref.shape == (6, 5) else xw
        np.testing.assert_allclose(
            xp.histogram(ours, 3, weights=xwv)[0].get(),
            np.histogram(ref.astype(np.float64), 3, weights=wv)[0],
            rtol=1e-13)


def test_hist_np_special_values():
    x = np.array([-np.inf, 0.5, np.inf, np.nan, 1.0, 0.0])
    for bins, rng_ in ((2, (0, 1)), ([-np.inf, 0, np.inf], None),
                       ([0, 1, 1, 2], None), ([0, 0.5, 1, 1], None)):
        b = bins if np.ndim(bins) == 0 else xp.asarray(bins)
        h, _ = xp.histogram(xp.asarray(x), b, range=rng_)
        np.testing.assert_array_equal(h.get(),
                                      np.histogram(x, bins, range=rng_)[0])
    # empty input, a constant input
    for a in (np.array([]), np.array([3.0, 3.0])):
        _same_hist(xp.histogram(xp.asarray(a), 4), np.histogram(a, 4))
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray(x), 3)  # autodetected range not finite
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray([1.0, 2.0]), xp.asarray([0.0, 2, 1]))
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray([1.0, 2.0]), 2, range=(2, 1))
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray([1.0, 2.0]), 0)
    with pytest.raises(TypeError):
        xp.histogram(xp.asarray([1.0, 2.0]), "auto",
                     weights=xp.asarray([1.0, 1.0]))
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray([1.0, 2.0]), "nonsense")


@pytest.mark.parametrize("density", [False, True])
def test_hist_np_2d_dd(density):
    rng = np.random.default_rng(7)
    x, y, z = rng.random(500), rng.standard_normal(500), rng.random(500)
    w = rng.random(500)
    for bins in (4, [3, 5], [np.array([0, 0.5, 1.0]), 4]):
        for wt in (None, w):
            ours = xp.histogram2d(
                xp.asarray(x), xp.asarray(y),
                [xp.asarray(b) if np.ndim(b) else b for b in bins]
                if isinstance(bins, list) else bins,
                density=density, weights=None if wt is None else
                xp.asarray(wt))
            ref = np.histogram2d(x, y, bins, density=density, weights=wt)
            np.testing.assert_allclose(ours[0].get(), ref[0], rtol=1e-12)
            for o, r in zip(ours[1:], ref[1:]):
                np.testing.assert_allclose(o.get(), r, rtol=1e-15)
    s = np.stack([x, y, z], axis=1)
    ours = xp.histogramdd(xp.asarray(s), (3, np.array([-1, 0, 1.0]), 2),
                          [(0, 1), None, (0.2, 0.8)], density, xp.asarray(w))
    ref = np.histogramdd(s, (3, np.array([-1, 0, 1.0]), 2),
                         [(0, 1), None, (0.2, 0.8)], density, w)
    np.testing.assert_allclose(ours[0].get(), ref[0], rtol=1e-12)
    # a transposed sample, an empty one
    st = np.ascontiguousarray(s.T).T
    np.testing.assert_array_equal(
        xp.histogramdd(xp.asarray(np.ascontiguousarray(s.T)).T, 3)[0].get(),
        np.histogramdd(st, 3)[0])
    e = np.zeros((0, 2))
    np.testing.assert_array_equal(xp.histogramdd(xp.asarray(e), 2)[0].get(),
                                  np.histogramdd(e, 2)[0])


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32", "uint64"])
def test_hist_np_bincount(dtype):
    rng = np.random.default_rng(8)
    x = rng.integers(0, 2 if dtype == "bool" else 50, 3000).astype(dtype)
    w = rng.standard_normal(3000)
    for minlength in (0, 5, 80):
        assert_same(xp.bincount(xp.asarray(x), minlength=minlength),
                    np.bincount(x, minlength=minlength))
        np.testing.assert_allclose(
            xp.bincount(xp.asarray(x), xp.asarray(w), minlength).get(),
            np.bincount(x, w, minlength), rtol=1e-12, atol=1e-12)
    assert_same(xp.bincount(xp.asarray(x)[::-3]), np.bincount(x[::-3]))
    assert_same(xp.bincount(xp.asarray(np.array([], dtype)), minlength=3),
                np.bincount(np.array([], dtype), minlength=3))


def test_hist_np_bincount_errors():
    with pytest.raises(ValueError, match="-4"):
        xp.bincount(xp.asarray([1, -4, 2]))
    with pytest.raises(TypeError):
        xp.bincount(xp.asarray([1.0, 2.0]))
    with pytest.raises(ValueError):
        xp.bincount(xp.asarray([1, 2]), minlength=-1)
    with pytest.raises(ValueError):
        xp.bincount(xp.asarray([[1, 2]]))


@pytest.mark.parametrize("right", [False, True])
def test_hist_np_digitize(right):
    x = np.array([-1, 0, 0.5, 1, 2.5, 10, np.nan, -np.inf, np.inf])
    for bins in ([0, 1, 2.5], [2.5, 1, 0], [1, 1], [0, 2, np.nan],
                 [np.nan, 2, 0], [], [3]):
        assert_same(xp.digitize(xp.asarray(x), xp.asarray(bins, float),
                                right),
                    np.digitize(x, np.asarray(bins, float), right))
    m = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert_same(xp.digitize(xp.asarray(m).T, xp.asarray([2, 5, 9]), right),
                np.digitize(m.T, [2, 5, 9], right))
    with pytest.raises(ValueError):
        xp.digitize(xp.asarray(x), xp.asarray([0.0, 2, 1]))


def test_histograms_composed_path():
    import os
    import subprocess
    import sys
    if os.environ.get("CUNUMPY_HISTOGRAM_COMPOSED") == "1":
        pytest.skip("this run is the composed one")
    env = dict(os.environ, CUNUMPY_HISTOGRAM_COMPOSED="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p",
                        "no:cacheprovider", __file__, "-k", "hist_np"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


# ---- interp, bit for bit against NumPy --------------------------------------
# test_interp_composed_path reruns the tests named interp_np_* with
# CUNUMPY_INTERP_COMPOSED=1: CPU arrays then take the composition that
# device arrays take (searchsorted, take and elementwise operations).

def _bits_equal(ours, ref):
    got = ours.get() if hasattr(ours, "get") else np.asarray(ours)
    ref = np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    g = got.view(np.float64) if got.dtype.kind == "c" else got
    r = ref.view(np.float64) if ref.dtype.kind == "c" else ref
    both_nan = np.isnan(g) & np.isnan(r)
    # same bits (-0.0 apart from 0.0), NaNs equal
    assert np.array_equal(np.where(both_nan, 0, g).view(np.uint64),
                          np.where(both_nan, 0, r).view(np.uint64))


def _interp_nodes(kind, rng):
    if kind == "one":
        return np.array([1.5])
    if kind == "two":
        return np.array([-1.0, 2.0])
    if kind == "repeats":
        return np.array([0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 5.0, 5.0])
    return np.sort(rng.uniform(-50, 50, 300))


def _interp_queries(nodes, rng):
    mids = (nodes[1:] + nodes[:-1]) / 2
    return np.concatenate([nodes, mids, [nodes[0] - 1, nodes[-1] + 1, np.nan,
                                         np.inf, -np.inf, -0.0, 0.0],
                           rng.uniform(nodes[0] - 3, nodes[-1] + 3, 500)])


@pytest.mark.parametrize("kind", ["one", "two", "repeats", "random"])
@pytest.mark.parametrize("fdt", ["float64", "float32", "int64", "complex128",
                                 "complex64"])
def test_interp_np_values(kind, fdt):
    rng = np.random.default_rng(len(kind))
    nodes = _interp_nodes(kind, rng)
    x = _interp_queries(nodes, rng)
    f = rng.normal(size=nodes.size) * 50
    if fdt.startswith("complex"):
        f = f + 1j * rng.normal(size=nodes.size)
    if nodes.size > 4 and fdt != "int64":
        f[1:3] = np.inf  # NaN slopes: NumPy retries from the right node
        f[3] = -np.inf
    f = f.astype(fdt)
    _bits_equal(xp.interp(x, nodes, f), np.interp(x, nodes, f))
    for left, right in [(-7.0, 9.5), (np.nan, None), (None, 3.0)]:
        _bits_equal(xp.interp(x, nodes, f, left=left, right=right),
                    np.interp(x, nodes, f, left=left, right=right))
    if fdt.startswith("complex"):
        _bits_equal(xp.interp(x, nodes, f, left=2 - 3j, right=1j),
                    np.interp(x, nodes, f, left=2 - 3j, right=1j))


def test_interp_np_shapes_dtypes_strides():
    rng = np.random.default_rng(7)
    nodes = np.sort(rng.uniform(0, 10, 40))
    f = rng.normal(size=40)
    x = rng.uniform(-1, 11, (6, 5, 4))
    _bits_equal(xp.interp(x, nodes, f), np.interp(x, nodes, f))
    _bits_equal(xp.interp(x.T, nodes, f), np.interp(x.T, nodes, f))
    _bits_equal(xp.interp(x[::-2, :, 1], nodes[::-1][::-1], f[::1]),
                np.interp(x[::-2, :, 1], nodes, f))
    big_n = np.repeat(nodes, 2)[::2]
    big_f = np.repeat(f, 3)[::3]
    _bits_equal(xp.interp(x, xp.asarray(np.repeat(nodes, 2))[::2],
                          xp.asarray(np.repeat(f, 3))[::3]),
                np.interp(x, big_n, big_f))
    _bits_equal(xp.interp(np.zeros((0, 3)), nodes, f),
                np.interp(np.zeros((0, 3)), nodes, f))
    xi = np.arange(-2, 13, dtype=np.int32)
    _bits_equal(xp.interp(xi, nodes.astype(np.float32), f.astype(np.int16)),
                np.interp(xi, nodes.astype(np.float32), f.astype(np.int16)))
    xb = np.array([True, False, True])
    _bits_equal(xp.interp(xb, [0, 1], [3.0, 4.0]),
                np.interp(xb, [0, 1], [3.0, 4.0]))
    assert float(xp.interp(xp.asarray(2.5), nodes, f)) == \
        float(np.interp(2.5, nodes, f))


def test_interp_np_errors():
    with pytest.raises(ValueError):
        xp.interp([1.0], [0.0, 1.0], [1.0])
    with pytest.raises(ValueError):
        xp.interp([1.0], [], [])
    with pytest.raises(TypeError):
        xp.interp([1j], [0.0, 1.0], [1.0, 2.0])
    with pytest.raises(TypeError):
        xp.interp([1.0], [0j, 1.0], [1.0, 2.0])


def test_interp_composed_path():
    import os
    import subprocess
    import sys
    if os.environ.get("CUNUMPY_INTERP_COMPOSED") == "1":
        pytest.skip("this run is the composed one")
    env = dict(os.environ, CUNUMPY_INTERP_COMPOSED="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p",
                        "no:cacheprovider", __file__, "-k", "interp_np"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


# ---- histogram result dtypes, as NumPy 2.4 -------------------------------

@pytest.mark.filterwarnings("ignore:Converting input from bool")
@pytest.mark.parametrize("adt", ["float64", "float32", "int32", "uint8",
                                 "bool"])
@pytest.mark.parametrize("wdt", [None, "float64", "float32", "int64", "int8",
                                 "uint16", "bool", "complex128",
                                 "complex64"])
@pytest.mark.parametrize("bins", [5, "edges", "edges32", "edges_int"])
@pytest.mark.parametrize("density", [False, True])
def test_hist_np_result_dtypes(adt, wdt, bins, density):
    rng = np.random.default_rng(3)
    a = (rng.random(300) * 3).astype(adt)
    w = None
    if wdt == "bool":
        w = rng.random(300) > 0.5
    elif wdt is not None:
        w = rng.random(300) * 4
        if wdt.startswith("complex"):
            w = w - 1j * rng.random(300)
        w = w.astype(wdt)
    b = {5: 5, "edges": np.array([0.0, 0.5, 2.5, 3.0]),
         "edges32": np.array([0.0, 0.5, 2.5, 3.0], np.float32),
         "edges_int": np.array([0, 1, 3])}[bins]
    cb = b if isinstance(b, int) else xp.asarray(b)
    cw = None if w is None else xp.asarray(w)
    try:
        rn, en = np.histogram(a, b, density=density, weights=w)
    except TypeError:
        with pytest.raises(TypeError):
            xp.histogram(xp.asarray(a), cb, density=density, weights=cw)
        return
    h, e = xp.histogram(xp.asarray(a), cb, density=density, weights=cw)
    h, e = h.get(), e.get()
    assert (h.dtype, e.dtype) == (rn.dtype, en.dtype)
    # float32 weights and edges: NumPy sums / spaces them in float32
    tol = 1e-5 if np.float32 in (h.dtype, e.dtype, np.dtype(wdt or "f8")) \
        or adt == "float32" or np.dtype(wdt or "f8") == np.complex64 else 1e-12
    np.testing.assert_allclose(h, rn, rtol=tol, atol=0)
    np.testing.assert_allclose(e, en, rtol=tol, atol=0)


@pytest.mark.parametrize("adt", ["float64", "float32", "int16"])
def test_hist_np_bin_edges_dtype(adt):
    a = (np.random.default_rng(5).random(100) * 7).astype(adt)
    for bins in [4, "auto", "sturges"]:
        ours = xp.histogram_bin_edges(xp.asarray(a), bins).get()
        ref = np.histogram_bin_edges(a, bins)
        assert ours.dtype == ref.dtype
        np.testing.assert_allclose(ours, ref, rtol=1e-6, atol=0)


@pytest.mark.parametrize("fn,scale", [("quantile", 1.0), ("percentile", 100.0)])
def test_weighted_quantile_inverted_cdf(fn, scale):
    rng = np.random.default_rng(11)
    a = rng.standard_normal((5, 7))
    w = rng.integers(0, 4, (5, 7)).astype(np.float64)
    w[:, 0] = 1.0  # no all-zero slice
    xf, nf = getattr(xp, fn), getattr(np, fn)
    for q in (0.5, 0.0, 1.0, [0.1, 0.9], np.float32(0.3)):
        qq = np.asarray(q) * scale
        for axis in (None, 0, 1, -1, (0, 1)):
            for kd in (False, True):
                want = nf(a, qq, axis=axis, weights=w, method="inverted_cdf",
                          keepdims=kd)
                got = xf(xp.asarray(a), qq, axis=axis, weights=xp.asarray(w),
                         method="inverted_cdf", keepdims=kd)
                assert_same(got, want)
    # 1-d weights along the axis; integer input keeps its dtype
    w1 = rng.random(7)
    assert_same(xf(xp.asarray(a[:, ::-1]), 0.25 * scale, axis=1,
                   weights=xp.asarray(w1), method="inverted_cdf"),
                nf(a[:, ::-1], 0.25 * scale, axis=1, weights=w1,
                   method="inverted_cdf"))
    ai = rng.integers(0, 10, (4, 6))
    assert_same(xf(xp.asarray(ai), 0.3 * scale, axis=0, weights=xp.ones(4),
                   method="inverted_cdf"),
                nf(ai, 0.3 * scale, axis=0, weights=np.ones(4),
                   method="inverted_cdf"))
    # NaN slices, leading zero weights, infinities
    an = a.copy()
    an[1, 2] = np.nan
    an[3, 0] = -np.inf
    assert_same(xf(xp.asarray(an), 0.5 * scale, axis=1, weights=xp.asarray(w),
                   method="inverted_cdf"),
                nf(an, 0.5 * scale, axis=1, weights=w, method="inverted_cdf"))
    z = np.array([0.0, 0.0, 1.0, 1.0])
    assert_same(xf(xp.arange(4.0), 0.0, weights=xp.asarray(z),
                   method="inverted_cdf"),
                nf(np.arange(4.0), 0.0, weights=z, method="inverted_cdf"))
    out = xp.empty((), dtype=xp.float64)
    assert xf(xp.asarray(a), 0.5 * scale, weights=xp.asarray(w),
              method="inverted_cdf", out=out) is out
    x = xp.asarray(a)
    for bad, err in ((dict(method="linear", weights=xp.asarray(w)), ValueError),
                     (dict(method="inverted_cdf", weights=xp.asarray(-w)),
                      ValueError),
                     (dict(method="inverted_cdf", weights=xp.ones(7)),
                      TypeError),
                     (dict(method="inverted_cdf", weights=xp.ones(6), axis=1),
                      ValueError),
                     (dict(method="inverted_cdf", weights=xp.zeros((5, 7))),
                      ValueError)):
        with pytest.raises(err):
            xf(x, 0.5 * scale, **bad)
        with pytest.raises(err):
            nf(a, 0.5 * scale, **{k: (xp.to_numpy(v) if k == "weights" else v)
                                  for k, v in bad.items()})
    with pytest.raises(ValueError):
        xf(x, 1.5 * scale, weights=xp.asarray(w), method="inverted_cdf")
    with pytest.raises(TypeError):
        xf(xp.asarray(a + 1j), 0.5 * scale, weights=xp.asarray(w),
           method="inverted_cdf")
