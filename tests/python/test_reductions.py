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
