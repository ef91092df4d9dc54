"""ufunc methods (reduce, accumulate, reduceat, outer, at) against NumPy's."""

import numpy as np
import pytest

import cunumpy as xp

BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "fmax",
          "fmin", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "gcd", "lcm", "hypot", "arctan2",
          "copysign", "power", "true_divide", "floor_divide", "remainder"]


def _input(name, shape, seed=0):
    rng = np.random.default_rng(seed)
    if name in ("bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"):
        return rng.integers(1, 30, shape).astype(np.int64)
    if name.startswith("logical"):
        return rng.integers(0, 2, shape).astype(bool)
    if name in ("power",):
        return rng.uniform(0.5, 1.5, shape)
    return rng.uniform(-3, 3, shape)


def _check(got, want):
    got = xp.to_numpy(xp.asarray(got))
    want = np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.astype(np.float64) if got.dtype == bool
                               else got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_reduce(name, axis):
    a = _input(name, (5, 7))
    if axis is None and name in ("subtract", "hypot", "arctan2", "copysign",
                                 "power", "true_divide", "floor_divide",
                                 "remainder", "lcm"):
        with pytest.raises(ValueError):
            getattr(xp, name).reduce(xp.asarray(a), axis=axis)
        return
    _check(getattr(xp, name).reduce(xp.asarray(a), axis=axis),
           _reduce_oracle(name, a, axis))


def _reduce_oracle(name, a, axis):
    """NumPy's reduce, except for float arctan2 and power, where NumPy 2.4's
    reduce loop returns op(a[0], a[-1]) (np.power.reduce([2., 3, 2]) is 4):
    there the oracle is the left fold ufunc.reduce is defined as."""
    nf = getattr(np, name)
    if name not in ("arctan2", "power") or axis is None:
        return nf.reduce(a, axis=axis)
    m = np.moveaxis(a, axis, 0)
    acc = m[0]
    for row in m[1:]:
        acc = nf(acc, row)
    return acc


@pytest.mark.parametrize("name", ["bitwise_or", "subtract", "gcd"])
def test_reduce_keepdims_initial_and_strided(name):
    a = _input(name, (6, 4))[::-2]
    uf, nf = getattr(xp, name), getattr(np, name)
    _check(uf.reduce(xp.asarray(a), axis=0, keepdims=True),
           nf.reduce(a, axis=0, keepdims=True))
    init = a.dtype.type(3)
    _check(uf.reduce(xp.asarray(a), axis=1, initial=init),
           nf.reduce(a, axis=1, initial=init))


def test_reduce_empty():
    e = np.zeros((0, 3), dtype=np.int64)
    _check(xp.bitwise_or.reduce(xp.asarray(e), axis=0),
           np.bitwise_or.reduce(e, axis=0))
    with pytest.raises(ValueError):
        xp.subtract.reduce(xp.asarray(e.astype(float)), axis=0)
    with pytest.raises(ValueError):
        xp.sin.reduce(xp.ones(3))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("axis", [0, 1])
def test_accumulate(name, axis):
    a = _input(name, (6, 5), seed=1)
    _check(getattr(xp, name).accumulate(xp.asarray(a), axis=axis),
           getattr(np, name).accumulate(a, axis=axis))


def test_accumulate_nan_and_strides():
    a = np.array([3.0, np.nan, 1.0, -np.inf, 2.0, -0.0])[::-1]
    for name in ("minimum", "maximum", "fmin", "fmax"):
        _check(getattr(xp, name).accumulate(xp.asarray(a)),
               getattr(np, name).accumulate(a))
    with pytest.raises(TypeError):
        xp.minimum.accumulate(xp.asarray(1.0))


@pytest.mark.parametrize("name", ["add", "multiply", "minimum", "maximum",
                                  "subtract", "bitwise_xor"])
def test_reduceat(name):
    a = _input(name, (9, 3), seed=2)
    for idx in ([0, 4, 1, 6], [0], [8, 8, 2], [3, 3, 3]):
        _check(getattr(xp, name).reduceat(xp.asarray(a), idx, axis=0),
               getattr(np, name).reduceat(a, idx, axis=0))
    _check(getattr(xp, name).reduceat(xp.asarray(a), [0, 2], axis=1),
           getattr(np, name).reduceat(a, [0, 2], axis=1))
    with pytest.raises(IndexError):
        getattr(xp, name).reduceat(xp.asarray(a), [0, 9])


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "power"])
def test_outer(name):
    a, b = np.arange(1.0, 4.0), np.arange(1.0, 3.0).reshape(2, 1)
    _check(getattr(xp, name).outer(xp.asarray(a), xp.asarray(b)),
           getattr(np, name).outer(a, b))
    with pytest.raises(ValueError):
        xp.sin.outer(xp.asarray(a), xp.asarray(a))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "minimum",
                                  "maximum", "power"])
def test_at_duplicates_accumulate(name):
    base = np.arange(1.0, 7.0)
    idx = np.array([0, 2, 0, 5, 0, 2])
    vals = np.linspace(0.5, 1.5, idx.size)
    a = base.copy()
    getattr(np, name).at(a, idx, vals)
    c = xp.array(base)
    assert getattr(xp, name).at(c, xp.asarray(idx), xp.asarray(vals)) is None
    _check(c, a)
    # NumPy's own function on a cunumpy array dispatches here
    d = xp.array(base)
    getattr(np, name).at(d, idx, vals)
    _check(d, a)


def test_at_unary_scalar_multidim_and_errors():
    base = np.arange(12.0).reshape(3, 4)
    a = base.copy()
    np.negative.at(a, ([0, 0, 2], [1, 1, 3]))
    c = xp.array(base)
    xp.negative.at(c, ([0, 0, 2], [1, 1, 3]))
    _check(c, a)
    a = base.copy()
    np.add.at(a, (slice(None), [0, 0]), 1.0)
    c = xp.array(base)
    np.add.at(c, (slice(None), [0, 0]), 1.0)
    _check(c, a)
    # a non-contiguous target
    a = base.copy()
    np.add.at(a.T, [1, 1, 0], 2.0)
    c = xp.array(base)
    xp.add.at(c.T, [1, 1, 0], 2.0)
    _check(c, a)
    i = np.zeros(4, dtype=np.int64)
    np.add.at(i, [3, 3, 3], 5)
    j = xp.zeros(4, dtype=xp.int64)
    xp.add.at(j, [3, 3, 3], 5)
    _check(j, i)
    with pytest.raises(ValueError):
        xp.add.at(xp.zeros(3), [0])
    with pytest.raises(ValueError):
        xp.negative.at(xp.zeros(3), [0], 1.0)
    with pytest.raises(IndexError):
        xp.add.at(xp.zeros(3), [3], 1.0)


def test_composed_ufuncs_have_methods():
    a = np.array([[1.0, 2.0, 0.5], [3.0, 0.25, 2.0]])
    x = xp.asarray(a)
    for name in ("deg2rad", "rad2deg", "radians", "degrees", "fabs",
                 "float_power"):
        assert isinstance(getattr(xp, name), xp.ufunc)
    _check(xp.float_power.reduce(x, axis=1),
           _reduce_oracle("power", a, 1))  # float_power is float power
    _check(xp.float_power.accumulate(x, axis=0),
           np.float_power.accumulate(a, axis=0))
    _check(xp.float_power.outer(x[0], x[1]), np.float_power.outer(a[0], a[1]))
    _check(xp.float_power.reduceat(x, [0, 2], axis=1),
           np.stack([np.float_power(a[:, 0], a[:, 1]), a[:, 2]], axis=1))
    for name in ("fabs", "deg2rad", "rad2deg"):
        base = np.array([-1.0, 2.0, -3.0])
        want = base.copy()
        getattr(np, name).at(want, [0, 0, 2])
        got = xp.array(base)
        np_fn = getattr(np, name)
        np_fn.at(got, [0, 0, 2])  # via __array_ufunc__
        _check(got, want)
        _check(getattr(xp, name)(xp.asarray(base)), np_fn(base))
    out = xp.empty(3)
    assert xp.float_power(xp.asarray(a[0]), 2, out=out) is out
    _check(out, np.float_power(a[0], 2))
    assert xp.deg2rad(xp.asarray(a), dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError):
        xp.fabs.reduce(x)


@pytest.mark.parametrize("name", ["less", "less_equal", "greater",
                                  "greater_equal", "equal", "not_equal"])
def test_comparison_reduce_only_over_bools(name):
    b = np.array([[True, False, True], [False, False, True]])
    _check(getattr(xp, name).reduce(xp.asarray(b), axis=1),
           getattr(np, name).reduce(b, axis=1))
    _check(getattr(xp, name).accumulate(xp.asarray(b), axis=1),
           getattr(np, name).accumulate(b, axis=1))
    f = np.array([1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        getattr(np, name).reduce(f)
    with pytest.raises(TypeError):
        getattr(xp, name).reduce(xp.asarray(f))
    with pytest.raises(TypeError):
        getattr(xp, name).accumulate(xp.asarray(f))
    with pytest.raises(TypeError):
        getattr(np, name).reduceat(f, [0, 1, 2])
    with pytest.raises(TypeError):
        getattr(xp, name).reduceat(xp.asarray(f), [0, 1, 2])


def test_at_casting_and_weak_scalars():
    u = np.array([1, 2, 250], dtype=np.uint8)
    want = u.copy()
    np.add.at(want, [2, 2, 0], 3)  # a weak Python int: stays uint8, wraps
    got = xp.array(u)
    xp.add.at(got, [2, 2, 0], 3)
    _check(got, want)
    for b in (0.5, np.array([0.5, 0.6]), 2.6):
        w = np.array([-1, 1])
        np.add.at(w, [0, 1], b)
        g = xp.array(np.array([-1, 1]))
        xp.add.at(g, [0, 1], xp.asarray(b) if isinstance(b, np.ndarray)
                  else b)
        _check(g, w)
    f = xp.array(np.zeros(3, np.float32))
    xp.add.at(f, [1, 1], np.float64(0.25))
    w = np.zeros(3, np.float32)
    np.add.at(w, [1, 1], np.float64(0.25))
    _check(f, w)


@pytest.mark.parametrize("name,initial", [("bitwise_or", None),
                                          ("bitwise_xor", None),
                                          ("gcd", None), ("subtract", 100),
                                          ("arctan2", 1)])
def test_reduce_where(name, initial):
    a = np.arange(1, 13).reshape(3, 4)
    if name == "arctan2":
        a = a.astype(np.float64)
    m = a % 3 != 0
    kw = {} if initial is None else {"initial": initial}
    for axis in (0, 1, -1):
        want = getattr(np, name).reduce(a, axis=axis, where=m, **kw) \
            if name != "arctan2" else None
        got = getattr(xp, name).reduce(xp.asarray(a), axis=axis,
                                       where=xp.asarray(m), **kw)
        if want is None:  # the left fold over the selected elements
            mm = np.moveaxis(m, axis, 0)
            aa = np.moveaxis(a, axis, 0)
            want = np.full(aa.shape[1:], float(initial))
            for row, sel in zip(aa, mm):
                want = np.where(sel, np.arctan2(want, row), want)
        _check(got, want)
    if name in ("bitwise_or", "gcd"):
        _check(getattr(xp, name).reduce(xp.asarray(a), axis=None, where=m,
                                        keepdims=True),
               getattr(np, name).reduce(a, axis=None, where=m,
                                        keepdims=True))
    with pytest.raises(ValueError):
        xp.subtract.reduce(xp.asarray(a), where=xp.asarray(m))


_AT_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16",
              "float32", "float64", "complex64", "complex128"]
_AT_OPS = ["add", "subtract", "multiply", "maximum", "minimum", "fmax",
           "fmin", "bitwise_and", "bitwise_or", "bitwise_xor",
           "logical_and", "logical_or", "true_divide", "floor_divide",
           "power", "hypot", "arctan2", "negative", "absolute", "square",
           "sqrt", "invert", "logical_not"]


@pytest.mark.parametrize("dtype", _AT_DTYPES)
@pytest.mark.parametrize("name", _AT_OPS)
def test_at_every_op_and_dtype(name, dtype):
    """The engine's element-by-element kernel against NumPy: repeated and
    negative positions, a strided 2-d target, array and scalar operands."""
    rng = np.random.default_rng(7)
    base = (rng.integers(1, 5, size=(3, 8)) if dtype != "bool"
            else rng.integers(0, 2, size=(3, 8))).astype(dtype)
    idx = np.array([0, 3, 3, -1, 5, 0, 0, -8])
    fn_np, fn_xp = getattr(np, name), getattr(xp, name)
    args = () if fn_np.nin == 1 else \
        (rng.integers(1, 3, size=idx.size).astype(dtype),)
    want = base.copy()
    try:
        with np.errstate(all="ignore"):
            fn_np.at(want[1], idx, *args)
    except TypeError:
        got = xp.array(base)
        with pytest.raises(TypeError):
            fn_xp.at(got[1], xp.asarray(idx), *map(xp.asarray, args))
        _check(got, base)  # untouched
        return
    got = xp.array(base)
    with np.errstate(all="ignore"):
        fn_xp.at(got[1], xp.asarray(idx), *map(xp.asarray, args))
    tol = dict(rtol=2e-3) if dtype in ("float16",) else \
        dict(rtol=1e-6) if dtype in ("float32", "complex64") else {}
    np.testing.assert_allclose(xp.to_numpy(got).astype(np.complex128),
                               want.astype(np.complex128), equal_nan=True,
                               **tol)
    # a strided, transposed target with 2-d positions
    want = base.copy()
    wt = want.T[::2]
    got = xp.array(base)
    gt = got.T[::2]
    with np.errstate(all="ignore"):
        fn_np.at(wt, ([0, 1, 1], [2, 0, 0]), *(a[:3] for a in args))
        fn_xp.at(gt, ([0, 1, 1], [2, 0, 0]),
                 *(xp.asarray(a[:3]) for a in args))
    np.testing.assert_allclose(xp.to_numpy(got).astype(np.complex128),
                               want.astype(np.complex128), equal_nan=True,
                               **tol)


def test_at_python_scalars_follow_numpy_and_errors_leave_a():
    for dt, v in (("uint8", -1), ("uint8", 300), ("int8", 1000),
                  ("float32", 0.1), ("float16", 0.1), ("int32", 2.5)):
        want = np.arange(4, dtype=dt)
        np.add.at(want, [1, 1, 2], v)
        got = xp.arange(4, dtype=dt)
        xp.add.at(got, [1, 1, 2], v)
        _check(got, want)
    a = xp.arange(5.0)
    for bad, err in (([0, 5], IndexError), ([0, -6], IndexError),
                     ([0.5], IndexError)):
        with pytest.raises(err):
            xp.add.at(a, xp.asarray(bad), 1.0)
        _check(a, np.arange(5.0))
    with pytest.raises(ValueError):
        xp.add.at(a, xp.asarray([0, 1]), xp.asarray([1.0, 2.0, 3.0]))
    _check(a, np.arange(5.0))
    ro = xp.broadcast_to(xp.asarray(1.0), (3,))
    with pytest.raises(ValueError):
        xp.add.at(ro, [0], 1.0)
    e = xp.zeros(0)
    xp.add.at(e, xp.asarray([], dtype=xp.int64), 1.0)
    assert e.size == 0


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64",
                                   "uint64", "float32", "float64",
                                   "complex128", "bool"])
@pytest.mark.parametrize("name", ["minimum", "maximum", "fmin", "fmax",
                                  "subtract", "bitwise_xor", "logical_or",
                                  "true_divide", "power", "arctan2"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_accumulate_engine_paths(name, dtype, axis):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, size=(5, 7)).astype(dtype)
    if dtype.startswith("float"):
        a[1, 2] = np.nan
        a[3, 0] = -0.0
    fn_np, fn_xp = getattr(np, name), getattr(xp, name)
    try:
        with np.errstate(all="ignore"):
            want = fn_np.accumulate(a, axis=axis)
    except TypeError:
        with pytest.raises(TypeError):
            fn_xp.accumulate(xp.asarray(a), axis=axis)
        return
    with np.errstate(all="ignore"):
        got = fn_xp.accumulate(xp.asarray(a)[:, ::-1][:, ::-1], axis=axis)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(xp.to_numpy(got).astype(np.complex128),
                               want.astype(np.complex128), rtol=1e-6,
                               equal_nan=True)
    # NumPy's min/max loops differ between dtypes in which zero of
    # min(-0.0, 0.0) they keep; the other ops must match signs exactly
    if dtype.startswith("float") and name not in ("minimum", "maximum",
                                                  "fmin", "fmax"):
        assert np.array_equal(np.signbit(xp.to_numpy(got)),
                              np.signbit(want))
