"""Reductions and scans against NumPy: axes, keepdims, dtype=, out=, empty
and 0-d inputs, views, every dtype the reduction accepts."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import DTYPES, arrays, assert_same, builtin_exception

REDUCTIONS = ["sum", "prod", "mean", "min", "max", "any", "all", "std",
              "var", "nansum", "nanprod", "nanmean", "nanmin", "nanmax"]


@st.composite
def reduce_case(draw, name):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                  max_side=5))
    dtype = draw(st.sampled_from(DTYPES))
    small = name in ("prod", "nanprod")
    a_np, a_xp = draw(arrays(dtype, shape, finite=True, small=small))
    if shape:
        axis = draw(st.one_of(st.none(), st.integers(-len(shape),
                                                     len(shape) - 1),
                              st.lists(st.integers(0, len(shape) - 1),
                                       unique=True).map(tuple)))
    else:
        axis = draw(st.sampled_from([None, ()]))
    keepdims = draw(st.booleans())
    return a_np, a_xp, axis, keepdims


def check_reduction(name, a_np, a_xp, axis, keepdims):
    kw = {"axis": axis, "keepdims": keepdims}
    try:
        with np.errstate(all="ignore"), \
                __import__("warnings").catch_warnings():
            __import__("warnings").simplefilter("ignore")
            expected = np.asarray(getattr(np, name)(a_np, **kw))
    except Exception as e:
        with pytest.raises(builtin_exception(type(e))):
            getattr(xp, name)(a_xp, **kw)
        return
    res = getattr(xp, name)(a_xp, **kw)
    ulp = 2 ** 12 if name in ("std", "var", "mean", "nanmean") and \
        a_np.dtype.kind in "fc" else 256
    if a_np.dtype in (np.float32, np.complex64) and name in (
            "sum", "nansum", "prod", "nanprod"):
        ulp = 2 ** 12  # pairwise vs NumPy's blocked float32 summation
    scale = None
    if name in ("std", "var") and a_np.size and a_np.dtype.kind in "fc":
        # Cancellation: errors scale with the data, not with the result.
        scale = float(np.max(np.abs(a_np))) ** (2 if name == "var" else 1)
        scale = max(scale, 1.0)
    assert_same(res, expected, ulp=ulp, scale=scale)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_matches_numpy(name):
    @given(reduce_case(name))
    def check(case):
        check_reduction(name, *case)

    check()


@pytest.mark.parametrize("name", ["argmin", "argmax", "cumsum", "cumprod"])
def test_axis_functions(name):
    @given(reduce_case(name))
    def check(case):
        a_np, a_xp, axis, keepdims = case
        if isinstance(axis, tuple):
            axis = axis[0] if axis else None
        kw = {"axis": axis}
        if name.startswith("arg"):
            kw["keepdims"] = keepdims
        try:
            expected = getattr(np, name)(a_np, **kw)
        except Exception as e:
            with pytest.raises(builtin_exception(type(e))):
                getattr(xp, name)(a_xp, **kw)
            return
        res = getattr(xp, name)(a_xp, **kw)
        assert_same(res, expected, ulp=2 ** 10)

    check()


def test_methods_and_dtype_out():
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = xp.asarray(a)
    assert_same(x.sum(axis=(0, 2)), a.sum(axis=(0, 2)))
    assert_same(x.sum(dtype=np.float32), a.sum(dtype=np.float32))
    assert_same(x.mean(axis=1, keepdims=True), a.mean(axis=1, keepdims=True))
    assert_same(x.std(ddof=1), a.std(ddof=1), ulp=64)
    assert_same(xp.std(x, correction=1), np.std(a, correction=1), ulp=64)
    assert_same(x.max(axis=-1), a.max(axis=-1))
    assert_same(x.argmax(axis=1), a.argmax(axis=1))
    out = xp.zeros((3,), np.int64)
    res = xp.sum(x, axis=(0, 2), out=out)
    assert res._data_ptr == out._data_ptr
    assert_same(out, a.sum(axis=(0, 2)))
    assert_same(x.cumsum(axis=2), a.cumsum(axis=2))
    assert_same(xp.cumulative_sum(xp.arange(4), include_initial=True),
                np.cumulative_sum(np.arange(4), include_initial=True))


def test_reduction_errors():
    with pytest.raises(ValueError):
        xp.max(xp.zeros((0,)))
    with pytest.raises((IndexError, ValueError)):
        xp.sum(xp.zeros((2, 3)), axis=2)
    with pytest.raises(ValueError):
        xp.sum(xp.zeros((2, 3)), axis=(0, 0))
    with pytest.raises(ValueError):  # no identity: where= needs initial=
        xp.max(xp.zeros(3), where=[True, False, True])
    with pytest.raises(OverflowError):
        xp.max(xp.zeros(3, xp.int8), initial=1000)


BIG = 2**31
EMPTY_CASES = [((BIG, 0, 0), None), ((0, BIG), 1), ((BIG, 0), 0),
               ((BIG, 0), None)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's empty means
@pytest.mark.parametrize("shape,axis", EMPTY_CASES)
def test_empty_inputs_with_huge_extents_return_at_once(shape, axis):
    # The cost of an empty reduction is that of its (here empty or 0-d)
    # result, not of the product of the input's other extents.
    import time
    t0 = time.perf_counter()
    x, a = xp.zeros(shape), np.zeros(shape)
    for name in ("sum", "prod", "mean", "var", "std", "any", "all",
                 "nansum", "nanmean", "nanvar", "median"):
        assert_same(getattr(xp, name)(x, axis=axis),
                    getattr(np, name)(a, axis=axis))
    for name in ("max", "nanmin", "argmax", "nanargmin", "ptp"):
        try:
            want = getattr(np, name)(a, axis=axis)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(xp, name)(x, axis=axis)
        else:
            assert_same(getattr(xp, name)(x, axis=axis), want)
    if axis is not None:  # NumPy's flat quantile of nothing is IndexError
        assert_same(xp.quantile(x, 0.5, axis=axis),
                    np.quantile(a, 0.5, axis=axis))
    for name in ("cumsum", "cumprod", "nancumsum", "sort", "argsort"):
        if axis is None and name in ("sort", "argsort"):
            continue
        assert getattr(xp, name)(x, axis=axis).shape == \
            getattr(np, name)(a, axis=axis).shape
    assert time.perf_counter() - t0 < 1.0


def test_integer_sums_and_products_wrap_as_numpy():
    a = np.array([2**63 - 1, -2**63, 2**63 - 3, 5, -7] * 7, np.int64)
    x = xp.asarray(a)
    with np.errstate(over="ignore"):
        for m in (a, a.reshape(5, 7), a.reshape(7, 5).T):
            y = xp.asarray(m)
            for axis in (None, 0, -1):
                assert_same(y.sum(axis=axis), m.sum(axis=axis))
                assert_same(y.prod(axis=axis), m.prod(axis=axis))
                assert_same(y.cumsum(axis=axis), m.cumsum(axis=axis))
                assert_same(y.cumprod(axis=axis), m.cumprod(axis=axis))
        b = (a % 256 - 128).astype(np.int8)
        y = xp.asarray(b)
        assert_same(y.sum(dtype=np.int8), b.sum(dtype=np.int8))
        assert_same(y.cumsum(dtype=np.int8), b.cumsum(dtype=np.int8))
        assert_same(y.prod(), b.prod())
    assert_same(x.sum(), a.sum())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min", "nanmax", "nanmin", "argmax",
                                  "argmin", "nanargmax", "nanargmin"])
def test_float_extremes_long_arrays_nan_inf_positions(name, dtype):
    """The vector min/max kernels consume blocks of up to 64 elements: NaN,
    infinities and signed zeros at every position around the block edges
    and in the tail, and arrays of only NaN or only -inf/+inf."""
    rng = np.random.default_rng(7)
    import warnings
    for n in (63, 64, 65, 127, 128, 129, 1000, 4099):
        base = rng.standard_normal(n).astype(dtype)
        cases = [base]
        for pos in sorted({0, 1, 31, 63, 64, n // 2, n - 2, n - 1}):
            if pos >= n:
                continue
            for v in (np.nan, np.inf, -np.inf):
                c = base.copy()
                c[pos] = v
                cases.append(c)
        cases += [np.full(n, np.nan, dtype), np.full(n, -np.inf, dtype),
                  np.full(n, np.inf, dtype), np.zeros(n, dtype)]
        half_nan = base.copy()
        half_nan[: n // 2] = np.nan
        cases.append(half_nan)
        for c in cases:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    want = getattr(np, name)(c)
                except ValueError:
                    with pytest.raises(ValueError):
                        getattr(xp, name)(xp.asarray(c))
                    continue
                got = getattr(xp, name)(xp.asarray(c))
            np.testing.assert_array_equal(np.asarray(got), want)
            # a strided view takes the folds' scalar path: same answer
            if n >= 128:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    try:
                        want_s = getattr(np, name)(c[::2])
                    except ValueError:
                        continue
                    got_s = getattr(xp, name)(xp.asarray(c)[::2])
                np.testing.assert_array_equal(np.asarray(got_s), want_s)


TRUTH_DTYPES = DTYPES + [np.dtype("float16")]


def _truth_cases(dt):
    """Arrays whose any/all/count_nonzero decide at the first, a middle or
    the last element, across block edges, plus all-zero and all-one."""
    for n in (0, 1, 31, 2048, 2049, 6001):
        yield np.zeros(n, dt)
        yield np.ones(n, dt)
        for pos in {0, n // 2, n - 1} if n else ():
            a = np.ones(n, dt)
            a[pos] = 0
            yield a
            z = np.zeros(n, dt)
            z[pos] = 1
            yield z
    yield np.array(0, dt)
    yield np.array(1, dt)
    if dt.kind in "fc":
        for v in (np.nan, -0.0, np.inf, -np.inf, np.finfo(dt).smallest_subnormal):
            a = np.zeros(50, dt)
            a[17] = v
            yield a
            b = np.ones(50, dt)
            b[49] = v
            yield b
    if dt.kind == "c":
        yield np.array([0, 1j, 0], dt)
        yield np.array([complex(-0.0, -0.0), 1], dt)


def _layouts(a):
    yield a
    if a.ndim == 1 and a.size:
        yield a[::-1]
        yield a[1::3]
        if a.size % 3 == 0:
            m = a.reshape(3, -1)
            yield m.T
            yield m[:, ::-2]


@pytest.mark.parametrize("dt", TRUTH_DTYPES, ids=str)
def test_any_all_count_nonzero_whole_array_match_numpy(dt):
    for base in _truth_cases(dt):
        for a in _layouts(base):
            b = xp.asarray(a)
            for kd in (False, True):
                assert_same(xp.all(b, keepdims=kd), np.all(a, keepdims=kd))
                assert_same(xp.any(b, keepdims=kd), np.any(a, keepdims=kd))
                got = xp.count_nonzero(b, keepdims=kd)
                want = np.count_nonzero(a, keepdims=kd)
                assert np.asarray(got).shape == np.shape(want)
                assert int(np.asarray(got).ravel()[0]) == int(
                    np.asarray(want).ravel()[0]), (a, got, want)
            assert_same(b.all(), a.all())
            assert_same(b.any(), a.any())
            if a.ndim:
                axes = tuple(range(a.ndim))
                assert_same(xp.all(b, axis=axes), np.all(a, axis=axes))
                assert_same(xp.any(b, axis=axes), np.any(a, axis=axes))


@pytest.mark.parametrize("dt", [np.dtype("bool"), np.dtype("float64"),
                                np.dtype("complex64"), np.dtype("float16")],
                         ids=str)
def test_truth_scan_long_arrays_decide_anywhere(dt):
    n = 3_000_000  # long enough for the threaded scan
    for pos in (0, n // 2 + 5, n - 1, None):
        a = np.ones(n, dt)
        if pos is not None:
            a[pos] = 0
        b = xp.asarray(a)
        for sl in (slice(None), slice(None, None, -1), slice(1, None, 2)):
            x, y = a[sl], b[sl]
            assert bool(xp.all(y)) == bool(np.all(x))
            assert bool(xp.any(y == 0)) == bool(np.any(x == 0))
            assert int(xp.count_nonzero(y)) == np.count_nonzero(x)


def test_truth_reductions_along_axes_unchanged():
    a = np.array([[0, 1, 2], [3, 0, 0]], np.float16)
    b = xp.asarray(a)
    for axis in (0, 1, -1):
        assert_same(xp.all(b, axis=axis), np.all(a, axis=axis))
        assert_same(xp.any(b, axis=axis), np.any(a, axis=axis))
        assert_same(xp.count_nonzero(b, axis=axis),
                    np.count_nonzero(a, axis=axis).astype(np.int64))
