"""cunumpy.random beyond scalar parameters: array-valued (broadcast)
parameters with NumPy's size/broadcast rules and errors, the newer
Generator methods, spawn and bit_generator state. NumPy is the oracle: for
shapes and errors directly, for distributions through a two-sample
Kolmogorov-Smirnov test against NumPy's own Generator at fixed seeds."""

import numpy as np
import pytest

import cunumpy as xp
from conftest import assert_same


def ks2(a, b):
    """Two-sample KS statistic and its p = 0.001 critical value."""
    a, b = np.sort(np.ravel(a)), np.sort(np.ravel(b))
    grid = np.concatenate([a, b])
    fa = np.searchsorted(a, grid, side="right") / a.size
    fb = np.searchsorted(b, grid, side="right") / b.size
    crit = 1.949 * np.sqrt((a.size + b.size) / (a.size * b.size))
    return np.abs(fa - fb).max(), crit


LOC = np.array([-1.0, 0.0, 3.5])
SCALE = np.array([[0.5], [2.0]])

# method, positional parameters (arrays broadcast to (2, 3))
ARRAY_CASES = [
    ("normal", (LOC, SCALE)),
    ("uniform", (LOC, LOC + SCALE)),
    ("exponential", (SCALE,)),
    ("gamma", (np.array([0.5, 1.0, 7.0]), SCALE)),
    ("beta", (np.array([0.5, 1.0, 7.0]), SCALE)),
    ("binomial", (np.array([3, 40, 1000]), np.array([[0.1], [0.9]]))),
    ("poisson", (np.array([[0.5, 5.0, 60.0]]),)),
    ("lognormal", (LOC, SCALE)),
    ("laplace", (LOC, SCALE)),
    ("logistic", (LOC, SCALE)),
    ("rayleigh", (SCALE,)),
    ("weibull", (np.array([0.7, 1.0, 3.0]),)),
    ("pareto", (np.array([0.7, 1.0, 3.0]),)),
    ("chisquare", (np.array([1.0, 2.0, 9.0]),)),
    ("triangular", (LOC - 1, LOC, LOC + SCALE)),
    ("geometric", (np.array([0.05, 0.5, 1.0]),)),
    ("standard_gamma", (np.array([[0.3], [4.0]]),)),
]


@pytest.mark.parametrize("name,params", ARRAY_CASES,
                         ids=[c[0] for c in ARRAY_CASES])
def test_array_params_shapes_dtypes(name, params):
    ours, ref = xp.random.default_rng(1), np.random.default_rng(1)
    a = getattr(ours, name)(*params)
    b = getattr(ref, name)(*params)
    assert a.shape == b.shape
    assert np.dtype(a.dtype).kind == b.dtype.kind
    for size in [(4, 2, 3), (2, 3)]:
        assert getattr(ours, name)(*params, size=size).shape == size
    # parameters must broadcast to size, as NumPy demands
    with pytest.raises(ValueError):
        getattr(ref, name)(*params, size=(3, 2))
    with pytest.raises(ValueError):
        getattr(ours, name)(*params, size=(3, 2))
    # cunumpy arrays as parameters
    c = getattr(ours, name)(*[xp.asarray(p) for p in params])
    assert c.shape == b.shape


@pytest.mark.parametrize("name,params", ARRAY_CASES,
                         ids=[c[0] for c in ARRAY_CASES])
def test_array_params_distribution(name, params):
    """Each element's distribution matches NumPy's with its parameters:
    many draws of size (n, 2, 3), one two-sample KS test per element."""
    n = 4000
    a = getattr(xp.random.default_rng(20), name)(
        *params, size=(n, 2, 3)).get()
    b = getattr(np.random.default_rng(21), name)(*params, size=(n, 2, 3))
    discrete = name in ("binomial", "poisson", "geometric")
    for idx in np.ndindex(2, 3):
        x, y = a[(slice(None),) + idx], b[(slice(None),) + idx]
        if np.all(y == y[0]):
            assert np.all(x == y[0]), idx
            continue
        d, crit = ks2(x, y)
        # ties in discrete samples make the test conservative
        assert d < crit * (1.2 if discrete else 1.0), (idx, d, crit)


def test_normal_array_params_are_the_scalar_stream():
    z = xp.random.default_rng(5).standard_normal((2, 3)).get()
    v = xp.random.default_rng(5).normal(LOC, SCALE).get()
    np.testing.assert_allclose(v, LOC + SCALE * z, rtol=1e-15, atol=1e-15)
    u = xp.random.default_rng(6).random((2, 3)).get()
    w = xp.random.default_rng(6).uniform(LOC, 10.0, size=(2, 3)).get()
    np.testing.assert_allclose(w, LOC + (10.0 - LOC) * u, rtol=1e-14)
    e = xp.random.default_rng(7).standard_exponential((2, 3)).get()
    f = xp.random.default_rng(7).exponential(SCALE, size=(2, 3)).get()
    np.testing.assert_allclose(f, SCALE * e, rtol=1e-15)


def test_integers_array_bounds():
    rng = xp.random.default_rng(3)
    low = np.array([0, -5, 100])
    high = np.array([[1], [10], [300]])
    with pytest.raises(ValueError):
        rng.integers(low, high)  # 100 >= 1 after broadcasting
    high = np.array([[101], [110], [300]])
    for endpoint in (False, True):
        v = rng.integers(low, high, size=(2000, 3, 3),
                         endpoint=endpoint).get()
        top = high + (1 if endpoint else 0)
        assert np.all(v >= low) and np.all(v < top)
        assert np.all(v.max(axis=0) == top - 1)
        assert np.all(v.min(axis=0) == low + 0 * top)
        # every value of a small range appears
        w = rng.integers([0, 3], [2, 4], size=(200, 2),
                         endpoint=endpoint).get()
        assert set(np.unique(w[:, 0])) == set(range(0, 2 + endpoint))
        assert set(np.unique(w[:, 1])) == set(range(3, 4 + endpoint))
    assert rng.integers(np.array([3, 7])).shape == (2,)
    v = rng.integers(np.array([3, 7]), size=(500, 2)).get()
    assert v[:, 0].max() == 2 and v[:, 1].max() == 6
    assert rng.integers(np.array([0, 1]), 256, dtype=np.uint8).dtype == \
        np.uint8
    ref = np.random.default_rng(0)
    for bad in [(np.array([5, 1]), np.array([5, 2])),
                (np.array([0, 1]), np.array([1, 300]))]:
        with pytest.raises(ValueError):
            ref.integers(*bad, dtype=np.uint8)
        with pytest.raises(ValueError):
            rng.integers(*bad, dtype=np.uint8)
    with pytest.raises(TypeError):
        rng.integers(np.array([0.5]), 3)


@pytest.mark.parametrize("call", [
    lambda r: r.normal(0.0, np.array([1.0, -1.0])),
    lambda r: r.exponential(np.array([-2.0])),
    lambda r: r.gamma(np.array([-1.0, 1.0])),
    lambda r: r.beta(np.array([0.0]), 1.0),
    lambda r: r.binomial(np.array([-1, 2]), 0.5),
    lambda r: r.binomial(3, np.array([0.5, 1.5])),
    lambda r: r.poisson(np.array([1.0, -1.0])),
    lambda r: r.lognormal(0.0, np.array([-1.0])),
    lambda r: r.laplace(0.0, -1.0),
    lambda r: r.logistic(0.0, np.array([-1.0])),
    lambda r: r.rayleigh(-1.0),
    lambda r: r.weibull(np.array([-1.0])),
    lambda r: r.pareto(0.0),
    lambda r: r.chisquare(np.array([0.0, 1.0])),
    lambda r: r.triangular(2.0, 1.0, 3.0),
    lambda r: r.triangular(1.0, 1.0, 1.0),
    lambda r: r.geometric(np.array([0.0])),
    lambda r: r.geometric(1.5),
    lambda r: r.normal(np.zeros(3), np.ones(2)),
])
def test_invalid_parameters_raise_like_numpy(call):
    with pytest.raises(ValueError):
        call(np.random.default_rng(0))
    rng = xp.random.default_rng(0)
    before = rng.bit_generator.state
    with pytest.raises(ValueError):
        call(rng)
    assert rng.bit_generator.state == before


def test_new_methods_scalar_params():
    ours, ref = xp.random.default_rng(11), np.random.default_rng(12)
    for name, params in [("lognormal", (0.3, 0.6)), ("laplace", (1.0, 2.0)),
                         ("logistic", (0.0, 3.0)), ("rayleigh", (2.0,)),
                         ("weibull", (1.5,)), ("pareto", (3.0,)),
                         ("chisquare", (3.0,)),
                         ("triangular", (0.0, 0.2, 1.0)),
                         ("geometric", (0.2,)), ("standard_gamma", (2.5,))]:
        a = getattr(ours, name)(*params, size=20000).get()
        b = getattr(ref, name)(*params, size=20000)
        d, crit = ks2(a, b)
        assert d < crit * (1.2 if name == "geometric" else 1.0), name
    e = ours.standard_exponential(20000).get()
    d, crit = ks2(e, ref.standard_exponential(20000))
    assert d < crit
    assert ours.lognormal(size=(2, 3), dtype=np.float32).dtype == np.float32
    out = xp.empty((3,))
    assert ours.standard_exponential(3, out=out) is out
    # module-level functions use the global generator
    xp.random.seed(4)
    x = xp.random.laplace(0.0, 1.0, size=5).get()
    xp.random.seed(4)
    np.testing.assert_array_equal(xp.random.laplace(0.0, 1.0, size=5).get(),
                                  x)


def test_spawn_and_state():
    g = xp.random.default_rng(42)
    kids = g.spawn(3)
    assert len(kids) == 3
    draws = [k.random(8).get() for k in kids]
    assert not np.array_equal(draws[0], draws[1])
    # same seed + same spawn path = same streams
    again = xp.random.default_rng(42).spawn(3)
    for k, d in zip(again, draws):
        np.testing.assert_array_equal(k.random(8).get(), d)
    # a second spawn continues the count
    more = g.spawn(1)[0].random(8).get()
    assert not any(np.array_equal(more, d) for d in draws)
    grand = xp.random.default_rng(42).spawn(1)[0].spawn(2)[1].random(4).get()
    grand2 = xp.random.default_rng(42).spawn(1)[0].spawn(2)[1].random(4).get()
    np.testing.assert_array_equal(grand, grand2)
    # state round trip replays the stream
    st = g.bit_generator.state
    assert st["bit_generator"] == "Philox4x32"
    assert st["spawn_count"] == 4
    x = g.normal(np.zeros(5), 1.0).get()
    g.bit_generator.state = st
    np.testing.assert_array_equal(g.normal(np.zeros(5), 1.0).get(), x)
    # the state moves to another generator, spawn path included
    h = xp.random.default_rng(0)
    h.bit_generator.state = st
    np.testing.assert_array_equal(h.normal(np.zeros(5), 1.0).get(), x)
    assert h.spawn(1)[0].random(3).get().tolist() == \
        g.spawn(1)[0].random(3).get().tolist()
    # the key comes from the seed, the counter counts 128-bit blocks
    s = xp.random.default_rng(2**40 + 7).bit_generator.state["state"]
    assert s["key"] == (7, 2**8) and s["counter"] == (0, 0, 0, 0)
    r = xp.random.default_rng(1)
    r.random(5)
    assert r.bit_generator.state["state"]["counter"] == (3, 0, 0, 0)
    with pytest.raises(ValueError):
        r.bit_generator.state = {"bit_generator": "PCG64"}
    with pytest.raises(ValueError):
        r.bit_generator.state = {"bit_generator": "Philox4x32",
                                 "state": {"key": (1,), "counter": (0,) * 4}}
    bad = dict(st, state={"key": (1, 2), "counter": (0, 0, 0, 1)})
    with pytest.raises(ValueError):
        r.bit_generator.state = bad
    with pytest.raises(ValueError):
        g.spawn(-1)
    assert g.spawn(0) == []


def test_multinomial():
    rng, ref = xp.random.default_rng(8), np.random.default_rng(8)
    p = np.array([0.2, 0.5, 0.1, 0.2])
    for n, size in [(10, None), (10, 5), (np.array([3, 50]), None),
                    (np.array([[3], [50]]), (2, 4)), (0, 3)]:
        a = rng.multinomial(n, p, size=size)
        b = ref.multinomial(n, p, size=size)
        assert a.shape == b.shape and np.dtype(a.dtype) == b.dtype
        assert np.all(a.get().sum(axis=-1) == np.broadcast_to(n, b.shape[:-1]))
    x = rng.multinomial(100, p, size=20000).get()
    m = x.mean(axis=0)
    assert np.all(np.abs(m - 100 * p) < 5 * np.sqrt(100 * p * (1 - p) / 20000))
    c = np.cov(x.T)
    want = 100 * (np.diag(p) - np.outer(p, p))
    assert np.allclose(c, want, atol=0.05 * 100 * 0.25)
    # each count is binomial(n, p_i): KS against NumPy's
    y = ref.multinomial(100, p, size=20000)
    for i in range(4):
        d, crit = ks2(x[:, i], y[:, i])
        assert d < 1.2 * crit
    # p summing below 1 puts the rest in the last category, as NumPy
    z = rng.multinomial(10, [0.1, 0.1], size=1000).get()
    assert z[:, 1].mean() > 8
    for bad in [dict(n=-1, pvals=p), dict(n=5, pvals=[0.8, 0.8, 0.1]),
                dict(n=5, pvals=[-0.1, 1.1])]:
        with pytest.raises(ValueError):
            ref.multinomial(**bad)
        with pytest.raises(ValueError):
            rng.multinomial(**bad)
    # stacked pvals (NumPy 2 broadcasts them) are not supported here
    with pytest.raises(ValueError, match="1-d"):
        rng.multinomial(5, [[0.5, 0.5]])


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


def test_out_takes_its_shape_and_is_filled_on_its_backend():
    """out= fills out's whole shape (NumPy: size defaults to it) with the
    values a fill of that size gives, made on out's backend: also while
    another backend is active (without a GPU, "cuda" falls back to the
    CPU; with one, a CPU out is filled on the CPU and never crosses)."""
    fills = [("random", ()), ("standard_normal", ()),
             ("standard_exponential", ()), ("standard_gamma", (2.5,))]
    for name, params in fills:
        want = getattr(xp.random.default_rng(5), name)(*params,
                                                       size=(2, 3)).get()
        out = xp.empty((2, 3))
        assert getattr(xp.random.default_rng(5), name)(*params,
                                                       out=out) is out
        np.testing.assert_array_equal(out.get(), want)
        out = xp.empty((2, 3))
        with xp.use_backend("cuda"):
            getattr(xp.random.default_rng(5), name)(*params, out=out)
        np.testing.assert_array_equal(out.get(), want)


MODULE_DTYPE = [
    ("random", ()), ("uniform", (2.0, 3.0)), ("normal", (1.0, 2.0)),
    ("standard_normal", ()), ("exponential", (2.0,)), ("gamma", (2.0,)),
    ("beta", (2.0, 3.0)), ("lognormal", ()), ("laplace", ()),
    ("logistic", ()), ("rayleigh", ()), ("weibull", (2.0,)),
    ("pareto", (3.0,)), ("chisquare", (3.0,)), ("triangular", (0, 1, 2)),
    ("standard_exponential", ()), ("standard_gamma", (2.0,)),
    ("poisson", (3.0,)), ("binomial", (5, 0.3)), ("geometric", (0.3,)),
]


@pytest.mark.parametrize("name,params", MODULE_DTYPE)
def test_module_functions_take_dtype(name, params):
    # CuPy's module-level samplers take dtype=, as the Generator methods
    ints = name in ("poisson", "binomial", "geometric")
    for dt in ((np.int32, np.int64) if ints else (np.float32, np.float64)):
        xp.random.seed(4)
        got = getattr(xp.random, name)(*params, size=(3, 50), dtype=dt)
        want = getattr(xp.random.default_rng(4), name)(*params,
                                                       size=(3, 50), dtype=dt)
        assert got.dtype == dt and got.shape == (3, 50)
        # the module functions draw from the seeded global Generator
        np.testing.assert_array_equal(xp.to_numpy(got), xp.to_numpy(want))
        v = xp.to_numpy(got)
        assert np.isfinite(v).all()
        if name in ("random", "standard_exponential", "exponential",
                    "gamma", "beta", "rayleigh", "weibull", "pareto",
                    "chisquare", "standard_gamma", "lognormal", "poisson",
                    "binomial", "geometric"):
            assert (v >= 0).all()
    with pytest.raises((TypeError, ValueError)):
        getattr(xp.random, name)(*params, size=3,
                                 dtype=np.complex64 if not ints else
                                 np.float64)
    assert xp.random.rand(4, 2, dtype=xp.float32).dtype == np.float32
    assert xp.random.randn(3, dtype=xp.float32).dtype == np.float32


@pytest.mark.parametrize("shape,axis,size", [
    ((3, 4), 0, 2), ((3, 4), 1, 2), ((3, 4), -1, (2, 2)), ((2, 3, 4), 1, None),
    ((2, 3, 4), 2, (3,)), ((5,), 0, (2, 2))])
@pytest.mark.parametrize("replace", [True, False])
def test_choice_along_axis_as_numpy(shape, axis, size, replace):
    a_np = np.arange(np.prod(shape)).reshape(shape)
    want = np.random.default_rng(0).choice(a_np, size, replace=replace,
                                           axis=axis)
    got = xp.random.default_rng(0).choice(xp.asarray(a_np), size,
                                          replace=replace, axis=axis).get()
    assert got.shape == want.shape
    # every picked slice is a whole slice of a along axis
    ax = axis % len(shape)
    pre, post = int(np.prod(shape[:ax])), int(np.prod(shape[ax + 1:]))
    picked = got.reshape(pre, -1, post)
    slices = {a_np.reshape(pre, shape[ax], post)[:, i, :].tobytes(): i
              for i in range(shape[ax])}
    idx = [slices[picked[:, j, :].tobytes()]
           for j in range(picked.shape[1])]
    if not replace:
        assert len(set(idx)) == len(idx)
    with pytest.raises(np.exceptions.AxisError):
        xp.random.default_rng(0).choice(xp.asarray(a_np), 2,
                                        axis=len(shape))


def test_choice_of_an_integer_is_the_pool_of_arange():
    # an int, a NumPy integer and a 0-d integer array are arange(a); the
    # draws are those of the pool arange(a) from the same state
    r = [xp.random.default_rng(7) for _ in range(4)]
    a = r[0].choice(50, (4, 5)).get()
    assert a.dtype == np.int64
    assert_same(r[1].choice(np.int32(50), (4, 5)), a)
    assert_same(r[2].choice(xp.asarray(50), (4, 5)), a)
    assert_same(r[3].choice(xp.arange(50), (4, 5)), a)
    w = xp.random.default_rng(1).choice(4, 1000, p=[0.1, 0.2, 0.3, 0.4])
    assert set(np.unique(w.get())) == {0, 1, 2, 3}
    s = xp.random.default_rng(2).choice(10, 10, replace=False,
                                        shuffle=False).get()
    assert sorted(s) == list(range(10))
    with pytest.raises(ValueError):
        xp.random.default_rng(0).choice(xp.asarray(2.5), 2)
    with pytest.raises(ValueError):
        xp.random.default_rng(0).choice(-1, 2)


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_permutation_along_axis(axis):
    a_np = np.arange(24).reshape(2, 3, 4)
    got = xp.random.default_rng(3).permutation(xp.asarray(a_np),
                                                axis=axis).get()
    assert got.shape == a_np.shape
    ax = axis % 3
    moved, orig = np.moveaxis(got, ax, 0), np.moveaxis(a_np, ax, 0)
    assert sorted(m.tobytes() for m in moved) == \
        sorted(o.tobytes() for o in orig)
    with pytest.raises(np.exceptions.AxisError):
        xp.random.default_rng(3).permutation(xp.asarray(a_np), axis=3)
    assert sorted(xp.random.default_rng(3).permutation(7).get()) == \
        list(range(7))


# Scalar parameters take the CPU's batched paths; the same values given as
# full arrays take the per-element work items, which compute the mapping of
# core/philox.h one element at a time. The two must agree (exactly, but for
# the SLEEF vector log1p/pow of EXPONENTIAL, RAYLEIGH and WEIBULL: a few
# ulp), for sizes that end inside a batch and span several threads' chunks.
SCALAR_CASES = [
    ("uniform", (-2.0, 3.0)), ("exponential", (2.0,)), ("rayleigh", (1.5,)),
    ("weibull", (1.7,)), ("weibull", (0.0,)), ("pareto", (2.5,)),
    ("laplace", (0.5, 2.0)), ("logistic", (-1.0, 0.5)),
    ("triangular", (-1.0, 0.5, 4.0)), ("gamma", (2.5, 1.5)),
    ("gamma", (0.3, 2.0)), ("beta", (0.5, 3.0)), ("chisquare", (3.0,)),
    ("binomial", (20, 0.3)), ("binomial", (1000, 0.7)), ("binomial", (0, 0.5)),
    ("binomial", (7, 1.0)), ("poisson", (3.5,)), ("poisson", (250.0,)),
    ("poisson", (0.0,)), ("geometric", (0.2,)), ("geometric", (1.0,)),
]
VECTOR_LOG1P = ("exponential", "rayleigh", "weibull")


@pytest.mark.parametrize("name,params", SCALAR_CASES,
                         ids=[f"{c[0]}{c[1]}" for c in SCALAR_CASES])
@pytest.mark.parametrize("n", [1, 511, 2 * 4096 * 3 + 5])
def test_scalar_parameters_match_per_element(name, params, n):
    ints = name in ("binomial", "poisson", "geometric")
    for dt in ((np.int64,) if ints else (np.float64, np.float32)):
        a = getattr(xp.random.default_rng(9), name)(*params, size=n, dtype=dt)
        full = [np.full(n, p) for p in params]
        b = getattr(xp.random.default_rng(9), name)(*full, size=n, dtype=dt)
        a, b = xp.to_numpy(a), xp.to_numpy(b)
        assert a.dtype == dt and b.dtype == dt
        if name in VECTOR_LOG1P and dt == np.float64:
            np.testing.assert_allclose(a, b, rtol=4 * np.finfo(dt).eps,
                                       atol=0)
        elif name in VECTOR_LOG1P:  # one rounding to float32 of close values
            np.testing.assert_array_max_ulp(a, b, maxulp=1)
        else:
            np.testing.assert_array_equal(a, b)
