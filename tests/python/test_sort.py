"""Sorting, searching and set routines through the package (the C
functions of sort.h), against NumPy."""

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


PART_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64",
               "float16", "float32", "float64"]


def _check_partition(a, kth, axis=-1):
    """cunumpy's partition/argpartition put NumPy's sorted values at each
    kth and no larger value before it, no smaller after (NaN last)."""
    b = xp.asarray(a)
    want = np.sort(a, axis=axis)
    ks = np.atleast_1d(kth)
    got = np.asarray(xp.partition(b, kth, axis=axis))
    idx = np.asarray(xp.argpartition(b, kth, axis=axis))
    assert got.dtype == a.dtype and got.shape == a.shape
    assert idx.dtype == np.int64 and idx.shape == a.shape
    via_idx = np.take_along_axis(a, idx, axis=axis)
    assert np.array_equal(np.sort(idx, axis=axis),
                          np.broadcast_to(np.arange(a.shape[axis]).reshape(
                              [-1 if d == axis % a.ndim else 1
                               for d in range(a.ndim)]), a.shape))
    for res in (got, via_idx):
        r = np.moveaxis(res, axis, -1)
        w = np.moveaxis(want, axis, -1)
        for k in ks:
            k = int(k) % r.shape[-1]
            np.testing.assert_array_equal(r[..., k], w[..., k])
            pivot = w[..., k:k + 1]
            if a.dtype.kind == "f":
                left_ok = np.isnan(pivot) | (r[..., :k] <= pivot)
                right_ok = np.isnan(r[..., k + 1:]) | (r[..., k + 1:] >= pivot)
            else:
                left_ok = r[..., :k] <= pivot
                right_ok = r[..., k + 1:] >= pivot
            assert left_ok.all() and right_ok.all()
        assert np.array_equal(np.sort(r, axis=-1), w,
                              equal_nan=a.dtype.kind == "f")


@pytest.mark.parametrize("dt", PART_DTYPES)
@pytest.mark.parametrize("n", [1, 17, 1000, 20001])
def test_partition_matches_numpy_order(dt, n):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 50).astype(dt)
    for kth in (0, n // 2, n - 1, -1, [0, n // 3, n - 1]):
        _check_partition(a, kth)
    _check_partition(a[::-1], n // 2)
    if n > 2:
        _check_partition(a[::2], 0)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_partition_nan_and_signed_zero_last_and_equal(dt):
    a = np.array([np.nan, 1, -0.0, 0.0, np.nan, -np.inf, 3, np.inf, -0.0] * 20,
                 dt)
    for kth in (0, 5, len(a) // 2, len(a) - 1):
        _check_partition(a, kth)


def test_partition_runs_of_equal_keys_and_2d():
    a = np.repeat(np.array([3, 1, 2], np.int64), 3000)
    _check_partition(a, 4500)
    _check_partition(np.zeros(5000), 2500)
    m = np.random.default_rng(1).standard_normal((40, 301))
    _check_partition(m, 150)
    _check_partition(m, 20, axis=0)
    _check_partition(m.T, [3, 30])
