"""NumPy features built on the C core in the package layer, against NumPy:
reductions with initial= and where=, ufunc.reduce / accumulate, linspace
with array bounds, every pad mode, indices(sparse=True), newaxis combined
with advanced indexing, and out= returning the out array itself."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import (DTYPES, arrays, assert_same, builtin_exception,
                      raises_like)

REAL_DTYPES = [d for d in DTYPES if d.kind != "c"]


@st.composite
def reduction_case(draw, dtypes=DTYPES):
    """(numpy array, cunumpy array, axis, keepdims, where mask)."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                  max_side=4))
    a, x = draw(arrays(np.dtype(dtype), shape, finite=True, small=True))
    axis = draw(st.one_of(st.none(), st.sampled_from(
        [tuple(range(a.ndim))] + [(d,) for d in range(a.ndim)] +
        [d - a.ndim for d in range(a.ndim)])))
    # the mask broadcasts to a's shape: full, or with size-1 axes
    mshape = tuple(draw(st.sampled_from([n, 1])) for n in shape)
    mask = draw(hnp.arrays(np.bool_, mshape))
    return a, x, axis, draw(st.booleans()), mask


@given(reduction_case(), st.sampled_from(["sum", "prod"]),
       st.sampled_from([None, 0, 2, 1.5, True]), st.booleans())
def test_sum_prod_initial_where(case, name, initial, use_mask):
    a, x, axis, keepdims, mask = case
    kw = {"axis": axis, "keepdims": keepdims}
    if initial is not None:
        kw["initial"] = initial
    if use_mask:
        kw["where"] = mask
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(a, **kw)
    if "where" in kw and initial == 0:
        kw["where"] = xp.asarray(mask)
    assert_same(getattr(xp, name)(x, **kw), ref)


@given(reduction_case(REAL_DTYPES), st.sampled_from(["max", "min"]),
       st.sampled_from([None, 0, 3, -2.5]), st.booleans())
def test_max_min_initial_where(case, name, initial, use_mask):
    a, x, axis, keepdims, mask = case
    if initial is not None and a.dtype.kind == "u" and initial < 0:
        initial = 1
    if a.dtype.kind in "biu" and isinstance(initial, float):
        initial = 2
    if a.dtype == np.bool_ and initial is not None:
        initial = bool(initial)
    kw = {"axis": axis, "keepdims": keepdims}
    if initial is not None:
        kw["initial"] = initial
    if use_mask:
        kw["where"] = mask

    def run(mod, arr):
        return getattr(mod, name)(arr, **kw)

    try:
        ref = run(np, a)
    except Exception as e:
        with pytest.raises(builtin_exception(type(e))):
            run(xp, x)
        return
    assert_same(run(xp, x), ref)


@given(reduction_case(), st.sampled_from(["mean", "var", "std", "any",
                                          "all"]),
       st.sampled_from([0, 1]))
def test_mean_var_std_any_all_where(case, name, ddof):
    a, x, axis, keepdims, mask = case
    kw = {"axis": axis, "keepdims": keepdims, "where": mask}
    if name in ("var", "std"):
        kw["ddof"] = ddof
    with np.errstate(all="ignore"), \
            __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        ref = getattr(np, name)(a, **kw)
    assert_same(getattr(xp, name)(x, **kw), ref, ulp=64)


@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_with_given_mean(name):
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    m = a.mean(axis=1, keepdims=True)
    ref = getattr(np, name)(a, axis=1, mean=m, ddof=1)
    assert_same(getattr(xp, name)(xp.asarray(a), axis=1, mean=xp.asarray(m),
                                  ddof=1), ref, ulp=16)


def test_reduction_extras_methods_and_errors():
    a = np.arange(12).reshape(3, 4)
    x = xp.asarray(a)
    assert_same(x.sum(axis=0, initial=5), a.sum(axis=0, initial=5))
    assert_same(x.max(initial=100), a.max(initial=100))
    assert_same(x.min(axis=1, where=a % 2 == 0, initial=99),
                a.min(axis=1, where=a % 2 == 0, initial=99))
    assert_same(x.mean(where=a > 3), a.mean(where=a > 3))
    assert_same(x.any(axis=0, where=a > 20), a.any(axis=0, where=a > 20))
    assert_same(xp.max(xp.zeros((0, 3)), axis=0, initial=1.5),
                np.max(np.zeros((0, 3)), axis=0, initial=1.5))
    assert_same(xp.max(xp.zeros((0, 3)), initial=-1.0),
                np.max(np.zeros((0, 3)), initial=-1.0))
    out = xp.empty(4, np.int64)
    assert xp.sum(x, axis=0, initial=1, out=out) is out
    assert_same(out, a.sum(axis=0, initial=1))
    for f in ["max", "min"]:
        raises_like(lambda: getattr(xp, f)(x, where=a > 2),
                    lambda: getattr(np, f)(a, where=a > 2))
    raises_like(lambda: xp.max(xp.asarray(a.astype(np.int8)), initial=1000),
                lambda: np.max(a.astype(np.int8), initial=1000))
    raises_like(lambda: xp.sum(x, where=np.ones((2, 4), bool)),
                lambda: np.sum(a, where=np.ones((2, 4), bool)))
    assert_same(xp.sum(x, where=[1, 0, 1, 0]), np.sum(a, where=[1, 0, 1, 0]))


@given(reduction_case(REAL_DTYPES),
       st.sampled_from(["add", "multiply", "maximum", "minimum",
                        "logical_and", "logical_or"]),
       st.booleans())
def test_ufunc_reduce(case, name, use_mask):
    a, x, _, keepdims, mask = case
    axis = 0 if a.ndim else None
    kw = {"axis": axis, "keepdims": keepdims}
    if use_mask:
        kw["where"] = mask
        if name in ("maximum", "minimum"):
            kw["initial"] = 1 if a.dtype != np.bool_ else True
    with np.errstate(all="ignore"):
        try:
            ref = getattr(np, name).reduce(a, **kw)
        except Exception as e:
            with pytest.raises(builtin_exception(type(e))):
                getattr(xp, name).reduce(x, **kw)
            return
    assert_same(getattr(xp, name).reduce(x, **kw), ref)


def test_ufunc_reduce_forms():
    a = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    x = xp.asarray(a)
    assert_same(xp.add.reduce(x), np.add.reduce(a))
    assert_same(xp.add.reduce(x, axis=None, dtype=np.float32),
                np.add.reduce(a, axis=None, dtype=np.float32))
    assert_same(xp.multiply.reduce(x, axis=1, initial=2),
                np.multiply.reduce(a, axis=1, initial=2))
    assert_same(xp.maximum.reduce(x, axis=(0, 1), keepdims=True),
                np.maximum.reduce(a, axis=(0, 1), keepdims=True))
    assert_same(xp.minimum.reduce(x, axis=1, dtype=np.int64),
                np.minimum.reduce(a, axis=1, dtype=np.int64))
    out = xp.empty(4, np.int32)
    assert xp.maximum.reduce(x, out=(out,)) is out
    assert_same(out, np.maximum.reduce(a))
    # NumPy ufuncs on cunumpy arrays go through __array_ufunc__
    assert_same(np.add.reduce(x, axis=1, initial=3),
                np.add.reduce(a, axis=1, initial=3))
    assert_same(xp.subtract.reduce(x), np.subtract.reduce(a))
    assert_same(xp.logical_and.reduce(x, initial=True),
                np.logical_and.reduce(a, initial=True))


@given(reduction_case(DTYPES), st.sampled_from(["add", "multiply"]))
def test_ufunc_accumulate(case, name):
    a, x, _, _, _ = case
    if a.ndim == 0:
        raises_like(lambda: getattr(xp, name).accumulate(x),
                    lambda: getattr(np, name).accumulate(a))
        return
    for axis in range(-a.ndim, a.ndim):
        with np.errstate(all="ignore"):
            ref = getattr(np, name).accumulate(a, axis=axis)
        assert_same(getattr(xp, name).accumulate(x, axis=axis), ref)
    ref = getattr(np, name).accumulate(a, dtype=np.float64)
    out = xp.empty(ref.shape, np.float64)
    assert getattr(xp, name).accumulate(x, dtype=np.float64, out=out) is out
    assert_same(out, ref)
    assert_same(xp.maximum.accumulate(x), np.maximum.accumulate(a))


@given(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
       hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
       st.integers(0, 6), st.booleans(), st.integers(-3, 2),
       st.sampled_from([None, np.float32, np.int64, np.complex128]),
       st.sampled_from([np.float64, np.float32, np.int32, np.complex64]))
def test_linspace_array_bounds(s1, s2, num, endpoint, axis, dtype, bdtype):
    rng = np.random.default_rng(len(s1) * 7 + len(s2))
    start = (rng.standard_normal(s1) * 10).astype(bdtype)
    stop = (rng.standard_normal(s2) * 10).astype(bdtype)
    try:
        bshape = np.broadcast_shapes(s1, s2)
    except ValueError:
        raises_like(lambda: xp.linspace(xp.asarray(start), stop, num),
                    lambda: np.linspace(start, stop, num))
        return
    if not -len(bshape) - 1 <= axis <= len(bshape):
        return
    if dtype is not None and np.dtype(dtype).kind != "c" and \
            np.dtype(bdtype).kind == "c":
        return  # NumPy warns and drops the imaginary part
    kw = {"endpoint": endpoint, "axis": axis, "dtype": dtype}
    ref, rstep = np.linspace(start, stop, num, retstep=True, **kw)
    res, step = xp.linspace(xp.asarray(start), xp.asarray(stop), num,
                            retstep=True, **kw)
    assert_same(res, ref, ulp=16, scale=max(1.0, np.abs(ref).max(initial=0)))
    if isinstance(step, xp.ndarray):
        np.testing.assert_allclose(step.get(), rstep, rtol=1e-6)
    else:
        np.testing.assert_allclose(step, rstep, rtol=1e-6, equal_nan=True)


def test_linspace_scalar_forms_and_errors():
    assert_same(xp.linspace(0, 1, 5), np.linspace(0, 1, 5))
    assert_same(xp.linspace(np.float32(0), 1, 5), np.linspace(
        np.float32(0), 1, 5))
    assert_same(xp.linspace(0, 1 + 1j, 4), np.linspace(0, 1 + 1j, 4))
    assert_same(xp.linspace(2, 10, 4, dtype=int), np.linspace(2, 10, 4,
                                                              dtype=int))
    raises_like(lambda: xp.linspace([0, 1], [1, 2], -1),
                lambda: np.linspace([0, 1], [1, 2], -1))
    raises_like(lambda: xp.linspace([0, 1], 2, 3, axis=3),
                lambda: np.linspace([0, 1], 2, 3, axis=3))


PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap",
             "linear_ramp", "maximum", "minimum", "mean", "median", "empty"]


@given(st.sampled_from(PAD_MODES),
       hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
       st.sampled_from([np.int64, np.float64, np.uint8, np.float32]),
       st.data())
def test_pad_modes(mode, shape, dtype, data):
    a = data.draw(hnp.arrays(dtype, shape, elements=st.integers(0, 50)))
    widths = data.draw(st.one_of(
        st.integers(0, 3), st.tuples(st.integers(0, 3), st.integers(0, 3)),
        st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)),
                 min_size=len(shape), max_size=len(shape))))
    kw = {}
    if mode == "constant":
        kw["constant_values"] = data.draw(st.one_of(
            st.integers(0, 9), st.tuples(st.integers(0, 9),
                                         st.integers(0, 9)),
            st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)),
                     min_size=len(shape), max_size=len(shape))))
    if mode == "linear_ramp":
        kw["end_values"] = data.draw(st.one_of(
            st.integers(0, 9), st.tuples(st.integers(0, 9),
                                         st.integers(0, 9))))
    if mode in ("reflect", "symmetric"):
        kw["reflect_type"] = data.draw(st.sampled_from(["even", "odd"]))
    if mode in ("maximum", "minimum", "mean", "median"):
        kw["stat_length"] = data.draw(st.one_of(
            st.none(), st.integers(1, 5),
            st.tuples(st.integers(1, 5), st.integers(1, 5))))
    with np.errstate(over="ignore"):
        ref = np.pad(a, widths, mode=mode, **kw)
    res = xp.pad(xp.asarray(a), widths, mode=mode, **kw)
    if mode == "empty":
        assert res.shape == ref.shape and res.dtype == ref.dtype
        return
    assert_same(res, ref, ulp=16)


def test_pad_empty_arrays_and_errors():
    a = np.zeros((0, 3))
    for mode in ["constant", "empty"]:
        r = xp.pad(xp.asarray(a), 1, mode=mode)
        assert r.shape == np.pad(a, 1, mode=mode).shape
    for mode in ["mean", "edge", "linear_ramp", "maximum"]:
        raises_like(lambda: xp.pad(xp.asarray(a), 1, mode=mode),
                    lambda: np.pad(a, 1, mode=mode))
        assert_same(xp.pad(xp.asarray(a), ((0, 0), (1, 1)), mode=mode),
                    np.pad(a, ((0, 0), (1, 1)), mode=mode))
    b = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(b)
    raises_like(lambda: xp.pad(x, 1, mode="nope"),
                lambda: np.pad(b, 1, mode="nope"))
    raises_like(lambda: xp.pad(x, 1, mode="edge", constant_values=3),
                lambda: np.pad(b, 1, mode="edge", constant_values=3))
    raises_like(lambda: xp.pad(x, -1), lambda: np.pad(b, -1))
    raises_like(lambda: xp.pad(x, 1.5), lambda: np.pad(b, 1.5))
    raises_like(lambda: xp.pad(x, 1, mode="maximum", stat_length=0),
                lambda: np.pad(b, 1, mode="maximum", stat_length=0))
    with np.errstate(invalid="ignore"):
        assert_same(xp.pad(x, 1, mode="mean", stat_length=0),
                    np.pad(b, 1, mode="mean", stat_length=0))
    raises_like(lambda: xp.pad(x, ((1, 1), (1, 1), (1, 1))),
                lambda: np.pad(b, ((1, 1), (1, 1), (1, 1))))
    assert_same(xp.pad(x, 2, mode="reflect", reflect_type="x"),
                np.pad(b, 2, mode="reflect", reflect_type="x"))
    r = xp.pad(x, 0, mode="mean")
    r[0, 0] = 9.0
    assert float(x[0, 0]) == 0.0  # a copy, as NumPy's


@pytest.mark.parametrize("dims", [(), (3,), (2, 3), (2, 1, 4), (0, 2)])
@pytest.mark.parametrize("dtype", [int, np.int32, np.float64])
def test_indices_sparse(dims, dtype):
    ref = np.indices(dims, dtype=dtype, sparse=True)
    res = xp.indices(dims, dtype=dtype, sparse=True)
    assert isinstance(res, tuple) and len(res) == len(ref)
    for r, e in zip(res, ref):
        assert_same(r, e)
    assert_same(xp.indices(dims, dtype=dtype), np.indices(dims, dtype=dtype))


SHAPE = (4, 5, 3)
BASE = np.arange(60).reshape(SHAPE)
NEWAXIS_KEYS = [
    (None, [0, 1]), ([0, 1], None, slice(1, 3)), (Ellipsis, None, [1, 2]),
    ([1, 0], None, [2, 0]), (None, Ellipsis, [[0], [1]], None),
    (0, None, [1, 2], None), (None, BASE[:, 0, 0] > 1), ([3, 1], None),
    (slice(None), None, [4, 0], 1), (None, None, [1], [2], [0]),
    (np.array([[1], [2]]), None, slice(None, None, -1)),
    (BASE > 30, None), (None, BASE[:, :, 0] % 2 == 0),
]


@pytest.mark.parametrize("key", NEWAXIS_KEYS)
def test_newaxis_with_advanced_indexing(key):
    a = xp.asarray(BASE)
    assert_same(a[key], BASE[key])
    ref = BASE.copy()
    b = xp.asarray(BASE.copy())
    ref[key] = -ref[key]
    b[key] = -b[key]
    assert_same(b, ref)


@given(hnp.integer_array_indices(SHAPE, result_shape=hnp.array_shapes(
    min_dims=0, max_dims=2, max_side=3)), st.data())
def test_newaxis_inserted_anywhere(key, data):
    key = list(key)
    for _ in range(data.draw(st.integers(1, 2))):
        key.insert(data.draw(st.integers(0, len(key))), None)
    key = tuple(key)
    assert_same(xp.asarray(BASE)[key], BASE[key])


def test_newaxis_advanced_errors():
    a = xp.asarray(BASE)
    for key in [(None, [7]), (None, [0], [0], [0], [0]),
                (None, Ellipsis, Ellipsis, [0])]:
        raises_like(lambda: a[key], lambda: BASE[key])


@pytest.mark.parametrize("call", [
    lambda m, x, o: m.sqrt(x, out=o),
    lambda m, x, o: m.add(x, 1.0, out=o),
    lambda m, x, o: m.multiply(x, x, o),
    lambda m, x, o: m.negative(x, out=(o,)),
    lambda m, x, o: m.clip(x, 1.0, 2.0, out=o),
    lambda m, x, o: m.cumsum(x, out=o),
    lambda m, x, o: m.add(x, 2.0, out=o, where=x > 1),
])
def test_out_is_returned(call):
    a = np.arange(4.0)
    x = xp.asarray(a)
    o = xp.zeros(4)
    on = np.zeros(4)
    res = call(xp, x, o)
    assert res is o
    assert_same(o, call(np, a, on))


def test_out_is_returned_by_reductions():
    x = xp.arange(6.0).reshape(2, 3)
    o = xp.empty(3)
    assert xp.sum(x, axis=0, out=o) is o
    assert x.max(axis=0, out=o) is o
    assert xp.mean(x, axis=0, out=o) is o
    s = xp.empty(())
    assert x.sum(out=s) is s
    assert xp.matmul(x, x.T, out=xp.empty((2, 2))).shape == (2, 2)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint8])
@pytest.mark.parametrize("shape", [(1,), (2,), (5,), (2, 3), (3, 1, 2)])
@pytest.mark.parametrize("width", [1, 3, 11, "uneven"])
def test_pad_reflect_odd_wide(mode, dtype, shape, width):
    """Pads wider than the axis reflect chunk by chunk (NumPy's order)."""
    a = (np.arange(int(np.prod(shape))) * 3 % 7 + 1).reshape(shape) \
        .astype(dtype)
    w = ((0, 9),) + ((5, 1),) * (len(shape) - 1) if width == "uneven" \
        else width
    with np.errstate(over="ignore"):
        ref = np.pad(a, w, mode=mode, reflect_type="odd")
    assert_same(xp.pad(xp.asarray(a), w, mode=mode, reflect_type="odd"), ref)
