"""Sorting, searching and set routines through the package (the C
functions of sort.h), against NumPy."""

import numpy as np
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
