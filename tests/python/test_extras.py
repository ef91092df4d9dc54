"""Sorting, statistics and random numbers through the package (the C
functions of sort.h, stats.h and random.h), against NumPy."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import assert_same

REAL = st.sampled_from([np.int8, np.int32, np.uint16, np.int64, np.float32,
                        np.float64])


@given(REAL.flatmap(lambda dt: hnp.arrays(dt, hnp.array_shapes(
    min_dims=1, max_dims=3, max_side=6), elements=hnp.from_dtype(
        np.dtype(dt), allow_nan=False))))
def test_sort_argsort_unique(a):
    x = xp.asarray(a)
    assert_same(xp.sort(x), np.sort(a))
    assert_same(xp.sort(x, axis=0), np.sort(a, axis=0))
    assert_same(xp.argsort(x, axis=-1), np.argsort(a, axis=-1,
                                                    kind="stable"))
    values, counts = xp.unique(x, return_counts=True)
    ev, ec = np.unique(a, return_counts=True)
    assert_same(values, ev)
    assert_same(counts, ec)


def test_search_and_sets():
    a = np.array([1, 3, 3, 7, 9])
    v = np.array([0, 3, 8, 10])
    for side in ("left", "right"):
        assert_same(xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side),
                    np.searchsorted(a, v, side=side))
    assert_same(xp.isin(xp.asarray(v), xp.asarray(a)), np.isin(v, a))
    assert_same(xp.intersect1d(xp.asarray(a), xp.asarray(v)),
                np.intersect1d(a, v))
    assert_same(xp.union1d(xp.asarray(a), xp.asarray(v)), np.union1d(a, v))
    assert_same(xp.setdiff1d(xp.asarray(a), xp.asarray(v)),
                np.setdiff1d(a, v))


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


def test_random_generators():
    r1, r2 = xp.random.default_rng(7), xp.get_rng(7)
    a, b = r1.random((1000,)), r2.random((1000,))
    assert_same(a, b.get())  # same seed, same numbers
    assert a.dtype == np.float64
    v = a.get()
    assert 0.0 <= v.min() and v.max() < 1.0 and abs(v.mean() - 0.5) < 0.05
    n = r1.standard_normal((4000,), dtype=np.float32)
    assert n.dtype == np.float32 and abs(float(n.std()) - 1.0) < 0.1
    i = r1.integers(3, 9, size=(500,)).get()
    assert i.min() >= 3 and i.max() <= 8 and i.dtype == np.int64
    c = r1.choice(10, 10, replace=False).get()
    assert sorted(c.tolist()) == list(range(10))
    p = r1.permutation(xp.arange(6)).get()
    assert sorted(p.tolist()) == list(range(6))
    with pytest.raises(ValueError):
        r1.choice(3, 5, replace=False)
    xp.random.seed(1)
    x1 = xp.random.rand(3)
    xp.random.seed(1)
    assert_same(xp.random.rand(3), x1.get())
