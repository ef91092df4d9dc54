"""The set routines (unique in every form, isin, intersect1d, union1d,
setdiff1d, setxor1d) and nonzero / flatnonzero / argwhere / advanced
indexing through the package, against NumPy: every dtype, NaN / -0.0 / inf,
empty, 0-d, non-contiguous and reversed inputs, the axis forms, errors."""

import itertools

import numpy as np
import pytest

import cunumpy as xp
from conftest import assert_same

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32,
          np.uint32, np.int64, np.uint64, np.float32, np.float64,
          np.complex64, np.complex128]
LAYOUTS = ["contig", "strided", "reversed"]


def data(dt, n=40, seed=0):
    """n values of dt with repeats; floats get NaN, -0.0, 0.0 and +-inf,
    complex values NaN in either part."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = rng.integers(0, 6, n).astype(dt)
        base[:2] = [info.min, info.max]
        return base
    a = rng.integers(-3, 4, n).astype(dt) / 2
    if dt.kind == "f":
        a[:6] = [np.nan, -0.0, 0.0, np.inf, -np.inf, np.nan]
    else:
        a = a + 1j * rng.integers(-1, 2, n).astype(dt)
        a[:6] = [complex(np.nan, 0), complex(0, np.nan), -0.0, 0.0,
                 complex(np.inf, 1), complex(np.nan, np.nan)]
    return rng.permutation(a).astype(dt)


def layout(a, mode):
    """The same values as a cunumpy array laid out per mode."""
    if mode == "contig":
        return xp.asarray(a)
    if mode == "strided":
        base = np.zeros((2 * a.shape[0],) + a.shape[1:], a.dtype)
        base[::2] = a
        return xp.asarray(base)[::2]
    return xp.asarray(np.ascontiguousarray(a[::-1]))[::-1]


def check_unique(x, a, **kw):
    got = xp.unique(x, **kw)
    exp = np.unique(a, **kw)
    if not isinstance(exp, tuple):
        got, exp = (got,), (exp,)
    assert len(got) == len(exp)
    names = ["values"] + [k for k in ("return_index", "return_inverse",
                                      "return_counts") if kw.get(k)]
    for name, g, e in zip(names, got, exp):
        nan = np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)
        if (name == "return_inverse" and kw.get("axis") is None and
                not kw.get("equal_nan", True) and nan.any()):
            # Distinct NaNs may take their groups in either order (NumPy
            # sorts them unstably here); each must map back to a NaN.
            gi = g.get()
            assert gi.shape == e.shape and gi.dtype == e.dtype
            np.testing.assert_array_equal(gi[~nan], e[~nan])
            assert np.isnan(exp[0][gi[nan]]).all()
            assert sorted(gi[nan].tolist()) == sorted(e[nan].tolist())
            continue
        assert_same(g, e, exact=True)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("mode", LAYOUTS)
def test_unique_every_return(dt, mode):
    a = data(dt)
    x = layout(a, mode)
    for ri, rv, rc in itertools.product((False, True), repeat=3):
        for equal_nan in (True, False):
            check_unique(x, a, return_index=ri, return_inverse=rv,
                         return_counts=rc, equal_nan=equal_nan)


@pytest.mark.parametrize("dt", [np.int32, np.float64, np.complex128,
                                np.bool_])
def test_unique_shapes(dt):
    a = data(dt, 24, seed=3).reshape(2, 3, 4)
    for sub in (a, a[:, ::-1, 1::2], a.T, a[:0], a[0, 0, 0]):
        x = xp.asarray(sub.copy())
        check_unique(x, sub, return_index=True, return_inverse=True,
                     return_counts=True)
    # a non-contiguous view with the same values
    check_unique(xp.asarray(a)[:, ::-1, 1::2], a[:, ::-1, 1::2],
                 return_inverse=True, return_counts=True)
    check_unique(xp.asarray(a).T, a.T, return_index=True,
                 return_inverse=True)


def test_unique_large_matches_numpy():
    rng = np.random.default_rng(5)
    for a in (rng.standard_normal(200_000),
              rng.integers(0, 5000, 300_000),
              np.round(rng.standard_normal(100_000), 1).astype(np.float32)):
        a = a.copy()
        if a.dtype.kind == "f":
            a[::997] = np.nan
        check_unique(xp.asarray(a), a, return_index=True,
                     return_inverse=True, return_counts=True)


def test_unique_array_api_forms():
    a = data(np.float64, 50, seed=7).reshape(5, 10)
    x = xp.asarray(a)
    assert_same(xp.unique_values(x), np.sort(np.unique_values(a)))
    v, c = xp.unique_counts(x)
    ev, ec = np.unique_counts(a)
    assert_same(v, ev)
    assert_same(c, ec)
    v, inv = xp.unique_inverse(x)
    ev, einv = np.unique_inverse(a)
    assert_same(v, ev)
    assert_same(inv, einv)
    got = xp.unique_all(x)
    exp = np.unique_all(a)
    assert got._fields == exp._fields
    for g, e in zip(got, exp):
        assert_same(g, e)
    assert xp.unique_counts(x)._fields == np.unique_counts(a)._fields
    assert xp.unique_inverse(x)._fields == np.unique_inverse(a)._fields
    assert_same(xp.unique(x, sorted=False), np.unique(a))


def test_unique_errors():
    with pytest.raises(np.exceptions.AxisError):
        xp.unique(xp.asarray(3.0), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        xp.unique(xp.zeros((2, 3)), axis=2)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint64, np.float32,
                                np.float64, np.complex64])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_axis(dt, axis):
    rng = np.random.default_rng(11)
    rows = data(dt, 12, seed=2).reshape(4, 3)
    a = rows[rng.integers(0, 4, 9)]          # repeated rows
    if axis != 0:
        a = np.ascontiguousarray(a.T)
    for mode in LAYOUTS:
        x = layout(a, mode)
        for ri, rv, rc in itertools.product((False, True), repeat=3):
            check_unique(x, a, axis=axis, return_index=ri,
                         return_inverse=rv, return_counts=rc)


def test_unique_axis_3d_nan_and_empty():
    a = np.array([[[1.0, np.nan], [2, 3]], [[1.0, np.nan], [2, 3]],
                  [[0.0, 1], [-0.0, 1]], [[-0.0, 1], [0.0, 1]]])
    for axis in (0, 1, 2):
        check_unique(xp.asarray(a), a, axis=axis, return_index=True,
                     return_inverse=True, return_counts=True)
    for shape, axis in (((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((0, 0), 1),
                        ((2, 0, 4), 2)):
        e = np.zeros(shape)
        check_unique(xp.asarray(e), e, axis=axis, return_index=True,
                     return_inverse=True, return_counts=True)


ISIN_PAIRS = [
    (np.int64, np.int64), (np.int8, np.int64), (np.uint8, np.int8),
    (np.uint64, np.uint64), (np.int32, np.float64), (np.float32, np.float64),
    (np.complex64, np.float64), (np.complex128, np.complex128),
    (np.bool_, np.bool_), (np.bool_, np.int16),
]


@pytest.mark.parametrize("de,dtt", ISIN_PAIRS)
def test_isin(de, dtt):
    e = data(de, 30, seed=1).reshape(5, 6)
    t = data(dtt, 9, seed=4)
    for mode in LAYOUTS:
        x = layout(e, mode)
        for invert in (False, True):
            for kind in (None, "sort"):
                assert_same(xp.isin(x, xp.asarray(t), invert=invert,
                                    kind=kind),
                            np.isin(e, t, invert=invert, kind=kind))
            assert_same(xp.isin(x, xp.asarray(t), assume_unique=True,
                                invert=invert),
                        np.isin(e, t, invert=invert))


def test_isin_table_and_ranges():
    rng = np.random.default_rng(9)
    cases = [
        (rng.integers(-50, 50, 1000), rng.integers(-20, 20, 30)),   # table
        (rng.integers(-2**62, 2**62, 1000),
         rng.integers(-2**62, 2**62, 30)),                          # sort
        (np.arange(-128, 128).astype(np.int8),
         np.array([-128, 0, 127], np.int8)),                         # span 255
        (np.array([0, 2**63, 2**64 - 1, 5], np.uint64),
         np.array([2**64 - 1, 5], np.uint64)),
        (np.array([2**63 - 5, 2**63 + 1, 3], np.uint64),
         np.array([2**63 - 5, 2**63 + 1], np.uint64)),
        (rng.integers(0, 100, (7, 9)), np.array([3])),
    ]
    for e, t in cases:
        x = xp.asarray(e)
        for invert in (False, True):
            span = int(t.max()) - int(t.min())
            kinds = [None, "sort"] + (
                ["table"] if span <= min(np.iinfo(t.dtype).max, 2**20) else [])
            for kind in kinds:
                assert_same(xp.isin(x, xp.asarray(t), invert=invert,
                                    kind=kind),
                            np.isin(e, t, invert=invert, kind=kind))


def test_isin_empty_zero_d_nan_errors():
    t = np.array([1.0, np.nan, -0.0])
    for e in (np.array(np.nan), np.array(0.0), np.array([]),
              np.array([[np.nan, 0.0, 1.0, 2.0]])):
        for invert in (False, True):
            assert_same(xp.isin(xp.asarray(e), xp.asarray(t), invert=invert),
                        np.isin(e, t, invert=invert))
            assert_same(xp.isin(xp.asarray(e), xp.asarray(t[:0]),
                                invert=invert),
                        np.isin(e, t[:0], invert=invert))
    with pytest.raises(ValueError, match="Invalid kind"):
        xp.isin(xp.asarray([1]), xp.asarray([1]), kind="hash")
    with pytest.raises(ValueError, match="only supported for boolean or"):
        xp.isin(xp.asarray([1.5]), xp.asarray([1]), kind="table")
    t8 = np.array([-128, 127], np.int8)
    with pytest.raises(RuntimeError, match="exceed the maximum integer"):
        np.isin(t8, t8, kind="table")
    with pytest.raises(RuntimeError, match="exceed the maximum integer"):
        xp.isin(xp.asarray(t8), xp.asarray(t8), kind="table")


SET_DTYPES = [(np.int64, np.int64), (np.int8, np.float32),
              (np.float64, np.float64), (np.complex128, np.float64),
              (np.bool_, np.bool_), (np.uint16, np.int32)]


@pytest.mark.parametrize("d1,d2", SET_DTYPES)
def test_set_operations(d1, d2):
    a = data(d1, 25, seed=21).reshape(5, 5)
    b = data(d2, 15, seed=22)
    x, y = layout(a, "strided"), xp.asarray(b)
    assert_same(xp.union1d(x, y), np.union1d(a, b), exact=True)
    assert_same(xp.intersect1d(x, y), np.intersect1d(a, b), exact=True)
    assert_same(xp.setdiff1d(x, y), np.setdiff1d(a, b), exact=True)
    assert_same(xp.setxor1d(x, y), np.setxor1d(a, b), exact=True)
    r, i1, i2 = xp.intersect1d(x, y, return_indices=True)
    er, ei1, ei2 = np.intersect1d(a, b, return_indices=True)
    assert_same(r, er, exact=True)
    assert_same(i1, ei1)
    assert_same(i2, ei2)
    # assume_unique: NumPy's results, also on inputs that are not unique
    ua, ub = np.unique(a), np.unique(b)
    for p, q in ((ua, ub), (a, b)):
        xp_p, xp_q = xp.asarray(p), xp.asarray(q)
        assert_same(xp.intersect1d(xp_p, xp_q, assume_unique=True),
                    np.intersect1d(p, q, assume_unique=True), exact=True)
        got = xp.intersect1d(xp_p, xp_q, assume_unique=True,
                             return_indices=True)
        exp = np.intersect1d(p, q, assume_unique=True, return_indices=True)
        assert_same(got[0], exp[0], exact=True)
        if p is ua:  # with repeats the tie order is NumPy's sort's choice
            assert_same(got[1], exp[1])
            assert_same(got[2], exp[2])
        assert_same(xp.setdiff1d(xp_p, xp_q, assume_unique=True),
                    np.setdiff1d(p, q, assume_unique=True), exact=True)
    assert_same(xp.setxor1d(xp.asarray(ua), xp.asarray(ub),
                            assume_unique=True),
                np.setxor1d(ua, ub, assume_unique=True), exact=True)


def test_set_operations_empty():
    e, b = np.array([], np.float64), np.array([2.0, 1.0, 2.0])
    for p, q in ((e, b), (b, e), (e, e)):
        x, y = xp.asarray(p), xp.asarray(q)
        assert_same(xp.union1d(x, y), np.union1d(p, q))
        assert_same(xp.intersect1d(x, y), np.intersect1d(p, q))
        assert_same(xp.setdiff1d(x, y), np.setdiff1d(p, q))
        assert_same(xp.setxor1d(x, y), np.setxor1d(p, q))


# ---- nonzero and the index paths built on it -------------------------------

NZ_DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32,
             np.float64, np.complex64]


@pytest.mark.parametrize("dt", NZ_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (517,), (70_001,), (3, 0),
                                   (33, 2051), (5, 7, 3)])
def test_nonzero_family(dt, shape):
    rng = np.random.default_rng(sum(shape))
    a = (rng.uniform(0, 1, shape) > 0.5).astype(dt)
    if np.dtype(dt).kind == "f" and a.size:
        a.flat[::7] = np.nan
        a.flat[1::11] = -0.0
    for mode in LAYOUTS:
        x = layout(a, mode)
        for g, e in zip(xp.nonzero(x), np.nonzero(a)):
            assert_same(g, e)
        assert_same(xp.flatnonzero(x), np.flatnonzero(a))
        assert_same(xp.argwhere(x), np.argwhere(a))


def test_nonzero_sparse_and_dense_blocks():
    n = 300_000
    for a in (np.zeros(n, bool), np.ones(n, bool),
              np.arange(n) % 1000 == 999, np.arange(n) % 3 != 0):
        x = xp.asarray(a)
        assert_same(xp.flatnonzero(x), np.flatnonzero(a))
        a2 = a.reshape(600, 500)
        for g, e in zip(xp.nonzero(xp.asarray(a2)), np.nonzero(a2)):
            assert_same(g, e)
    with pytest.raises(ValueError, match="0d"):
        xp.nonzero(xp.asarray(1.0))


def test_advanced_indexing_combinations():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 7, 5))
    x = xp.asarray(a)
    i = rng.integers(-6, 6, (4, 3))
    j = rng.integers(-7, 7, (3,))
    k = rng.integers(0, 5, (4, 1))
    m2 = a[:, :, 0] > 0
    m3 = a > 0.3
    cases = [(i,), (i, j), (i, j, k), (i[:, :1], j), (m2,), (m3,),
             (m2, k[:, 0][:1])]
    for idx in cases:
        xi = tuple(xp.asarray(v) for v in idx)
        assert_same(x[xi], a[idx], exact=True)
    assert_same(x[xp.asarray(m2[::-1]), 1:3], a[m2[::-1], 1:3], exact=True)
    with pytest.raises(IndexError):
        x[xp.asarray(np.array([6])), xp.asarray(np.array([0]))]
    with pytest.raises(IndexError):
        x[xp.asarray(np.array([0])), xp.asarray(np.array([-8]))]
    # assignment through the same linear indices
    b, y = a.copy(), xp.asarray(a)
    b[i, j] = 7.0
    y[xp.asarray(i), xp.asarray(j)] = 7.0
    assert_same(y, b, exact=True)
