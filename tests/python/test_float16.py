"""float16 against NumPy: casts over every bit pattern, promotion, every op
of the op table, reductions, sorting, creation and interchange.

cunumpy computes float16 ops as NumPy does, in float32 per element rounded
to float16. Ops whose float32 result is correctly rounded (arithmetic,
sqrt, comparisons, rounding, min/max, ...) must match bit for bit; the
transcendental ones may differ where NumPy's float32 function (SVML / its
own SIMD code) and cunumpy's (SLEEF / libm) round differently, and stay
within 1 float16 ulp.
"""

import numpy as np
import pytest

import cunumpy as xp
from conftest import DTYPES

# NumPy's ops; the special_ ops follow SciPy, which has no float16 loops
# (test_special.py checks that they compute and return float32)
OPS = {name: (nin, loops) for name, nin, loops, _out, _doc in
       xp._cnlib._op_table() if not name.startswith("special_")}
NUMPY_NAME = {"abs": "absolute", "conj": "conjugate"}
F16 = np.dtype(np.float16)
ALL_BITS = np.arange(65536, dtype=np.uint32).astype(np.uint16)
ALL_F16 = ALL_BITS.view(np.float16)
# results that are the correctly rounded float32 value of exact inputs
EXACT_OPS = {"add", "subtract", "multiply", "divide", "maximum", "minimum",
             "fmax", "fmin", "copysign", "clip", "abs", "negative",
             "positive", "sqrt", "square", "reciprocal", "floor", "ceil",
             "trunc", "rint", "sign", "fabs", "conj", "real", "imag",
             "signbit", "isnan", "isinf", "isfinite", "equal", "not_equal",
             "less", "less_equal", "greater", "greater_equal",
             "logical_and", "logical_or", "logical_xor", "logical_not",
             "floor_divide", "remainder", "fmod", "nextafter", "spacing",
             "deg2rad", "rad2deg", "degrees", "radians", "hypot",
             "heaviside", "ldexp", "cbrt"}


def bits(a):
    return np.asarray(a).view(np.uint16).astype(np.int32)


def ulp_distance(got, want):
    """float16 ulps between got and want (NaN == NaN, -0.0 == 0.0)."""
    g, w = bits(got), bits(want)
    # order-preserving integers: negative values mirrored below zero
    g = np.where(g & 0x8000, -(g & 0x7fff), g)
    w = np.where(w & 0x8000, -(w & 0x7fff), w)
    d = np.abs(g - w)
    both_nan = np.isnan(got) & np.isnan(want)
    return np.where(both_nan, 0, d)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if got.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}")[~nan],
                                      want.view(f"u{want.itemsize}")[~nan])
    elif got.dtype.kind == "c":
        same_bits(got.real.copy(), want.real.copy())
        same_bits(got.imag.copy(), want.imag.copy())
    else:
        np.testing.assert_array_equal(got, want)


# ---- dtype, names, finfo ----------------------------------------------

def test_dtype_names():
    for name in ("float16", "f2", "e", "half", "<f2", np.float16, F16):
        assert xp.dtype(name) == F16
        assert xp.zeros(2, dtype=name).dtype == F16
    assert xp.float16 is np.float16
    assert xp.zeros(3, xp.float16).itemsize == 2
    assert xp.isdtype(xp.float16, "real floating")


def test_finfo():
    got, want = xp.finfo(xp.float16), np.finfo(np.float16)
    for attr in ("eps", "max", "min", "tiny", "smallest_subnormal",
                 "resolution", "bits", "nmant", "nexp"):
        assert getattr(got, attr) == getattr(want, attr), attr


# ---- casts ------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES + [F16], ids=str)
def test_cast_from_float16_every_bit_pattern(dt):
    with np.errstate(all="ignore"):
        want = ALL_F16.astype(dt)
    got = xp.asarray(ALL_F16).astype(dt).get()
    same_bits(got, want)
    # strided and reversed source
    with np.errstate(all="ignore"):
        want = ALL_F16[::-3].astype(dt)
    same_bits(xp.asarray(ALL_F16)[::-3].astype(dt).get(), want)


def float32_cases():
    rng = np.random.default_rng(16)
    rnd = rng.integers(0, 2**32, 1 << 18, dtype=np.uint64).astype(np.uint32)
    # every float16 value, its neighbours, and the exact halfway points
    # between consecutive float16 values (ties to even), with +-1 ulp
    f = ALL_F16.astype(np.float32)
    f = f[np.isfinite(f)]
    s = np.sort(np.unique(f))
    mid = ((s[:-1].astype(np.float64) + s[1:]) / 2).astype(np.float32)
    edges = np.concatenate([f, mid, np.nextafter(mid, np.float32(np.inf)),
                            np.nextafter(mid, np.float32(-np.inf)),
                            np.float32([65504, 65519.99, 65520, 65536, 1e30,
                                        2.0**-25, 2.0**-24, 3 * 2.0**-26,
                                        1e-30, np.inf, -np.inf, 0.0, -0.0])])
    special = np.array([0x7f800001, 0x7fc00001, 0xff800001, 0x7f802000,
                        0x7fa00000, 0x7fffffff, 0xffc00000, 0x00000001,
                        0x80000001, 0x007fffff], np.uint32)
    return np.concatenate([rnd.view(np.float32), edges,
                           special.view(np.float32)])


def test_cast_float32_to_float16():
    src = float32_cases()
    with np.errstate(all="ignore"):
        want = src.astype(np.float16)
    same_bits(xp.asarray(src).astype(np.float16).get(), want)
    # unaligned lengths and strides: vector blocks and scalar tails
    for n in (1, 7, 8, 9, 17):
        same_bits(xp.asarray(src[:n]).astype(np.float16).get(), want[:n])
    same_bits(xp.asarray(src)[::5].astype(np.float16).get(), want[::5])


def test_cast_float64_to_float16():
    rng = np.random.default_rng(64)
    rnd = rng.integers(0, 2**63, 1 << 17, dtype=np.uint64)
    rnd = np.concatenate([rnd, rnd | np.uint64(1 << 63)]).view(np.float64)
    f = np.unique(ALL_F16[np.isfinite(ALL_F16)].astype(np.float64))
    mid = (f[:-1] + f[1:]) / 2
    f32 = float32_cases().astype(np.float64)  # NaN payloads widen exactly
    src = np.concatenate([rnd, f, mid, np.nextafter(mid, np.inf),
                          np.nextafter(mid, -np.inf), f32,
                          np.array([0x7ff0000000000001, 0x7ff8000000000001,
                                    0x7ff0020000000000, 0xfff4000000000000],
                                   np.uint64).view(np.float64)])
    with np.errstate(all="ignore"):
        want = src.astype(np.float16)
    same_bits(xp.asarray(src).astype(np.float16).get(), want)


@pytest.mark.parametrize("dt", [d for d in DTYPES if d.kind != "f"],
                         ids=str)
def test_cast_to_float16_from(dt):
    rng = np.random.default_rng(3)
    if dt.kind in "iu" and dt.itemsize <= 2:
        info = np.iinfo(dt)
        src = np.arange(info.min, info.max + 1).astype(dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        src = np.concatenate([
            rng.integers(info.min, info.max, 5000, dtype=dt, endpoint=True),
            np.arange(-70000 if info.min < 0 else 0, 70000, 7).astype(dt),
            np.array([info.min, info.max, 65504, 65519, 65520, 2049, 2051],
                     dtype=np.int64 if info.min < 0 else np.uint64
                     ).astype(dt)])
    elif dt.kind == "b":
        src = np.array([True, False, True])
    else:
        re = float32_cases()[:20000].astype(dt.char.lower() if False else
                                            (np.float32 if dt.itemsize == 8
                                             else np.float64))
        src = (re + 1j * re[::-1]).astype(dt)
    with np.errstate(all="ignore"):
        want = src.astype(np.float16)
    same_bits(xp.asarray(src).astype(np.float16).get(), want)


def test_scalars_and_tolist():
    a = xp.asarray(np.array([1.5, -0.0, np.inf, 65504, 6e-8], np.float16))
    assert a.tolist() == np.array([1.5, -0.0, np.inf, 65504, 6e-8],
                                  np.float16).tolist()
    assert float(a[0]) == 1.5
    f = xp.full(3, 1 / 3, dtype=xp.float16)
    same_bits(f.get(), np.full(3, 1 / 3, np.float16))
    same_bits(xp.full(2, 1e6, dtype="f2").get(), np.full(2, 1e6, "f2"))


# ---- promotion --------------------------------------------------------

def test_result_type_pairs_and_triples():
    dts = DTYPES + [F16]
    for a in dts:
        for b in dts:
            assert xp.result_type(a, b) == np.result_type(a, b), (a, b)
            for c in (F16, np.dtype("int8"), np.dtype("uint16"),
                      np.dtype("float32")):
                assert xp.result_type(a, b, c) == \
                    np.result_type(a, b, c), (a, b, c)
    for cast in ("no", "safe", "same_kind", "unsafe"):
        for a in dts:
            assert xp.can_cast(F16, a, cast) == np.can_cast(F16, a, cast)
            assert xp.can_cast(a, F16, cast) == np.can_cast(a, F16, cast)


def test_weak_scalars():
    x = np.array([1.5, 2.25], np.float16)
    a = xp.asarray(x)
    for v in (3, 2.5, 1j, True, 1e10, -7):
        with np.errstate(all="ignore"):
            want = x * v
        got = (a * v).get()
        assert got.dtype == want.dtype, v
        same_bits(got, want)
    assert (a * np.float32(2)).dtype == np.float32
    assert (xp.asarray(np.int8([1])) + a).dtype == np.float16
    assert (xp.asarray(np.int16([1])) + a).dtype == np.float32


# ---- every op of the op table -----------------------------------------

def op_inputs(nin):
    rng = np.random.default_rng(nin)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504, -65504,
                         6e-8, -6e-8, 6.1e-5, 1, -1, 0.5, 2, 3], np.float16)
    vals = np.concatenate([specials, ALL_F16[::97],
                           rng.normal(0, 4, 200).astype(np.float16)])
    if nin == 1:
        return [vals]
    if nin == 2:
        n = vals.size
        return [vals, np.roll(vals, 7)[:n]]
    return [vals, np.full(vals.size, -1.5, np.float16),
            np.full(vals.size, 2.5, np.float16)]


def check_op(name, *args, exact_ops=EXACT_OPS):
    f = getattr(np, NUMPY_NAME.get(name, name))
    try:
        with np.errstate(all="ignore"):
            want = f(*args)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(xp, name)(*[xp.asarray(a) for a in args])
        return
    got = getattr(xp, name)(*[xp.asarray(a) for a in args]).get()
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    if want.dtype.kind in "fc" and want.dtype != F16:
        # float32 results (int16/uint16 inputs): float32 functions differ
        # by an ulp between NumPy and cunumpy, as in test_ufuncs.py
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(
            want.dtype).eps, equal_nan=True)
    elif want.dtype != F16:
        same_bits(got, want)
    elif name in exact_ops:
        same_bits(got, want)
    else:
        assert ulp_distance(got, want).max() <= 1, name


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_float16(name):
    nin = OPS[name][0]
    args = op_inputs(nin)
    if name == "floor_divide":
        # with an infinite operand cunumpy follows the Array API standard,
        # not NumPy (README, differences from NumPy): test_array_api.py
        fin = np.isfinite(args[0]) & np.isfinite(args[1])
        args = [a[fin] for a in args]
    if name in ("left_shift", "right_shift", "bitwise_and", "bitwise_or",
                "bitwise_xor", "invert", "gcd", "lcm"):
        check_op(name, *args)  # NumPy's TypeError, as the engine's
        return
    check_op(name, *args)
    # non-contiguous, reversed and broadcast operands
    views = [a[::-2] for a in args]
    check_op(name, *views)
    if nin >= 2:
        check_op(name, args[0][:, None][:5], *[a[:4] for a in args[1:]])


SMALL_FLOAT_OPS = ["sqrt", "sin", "exp", "log", "arctan2", "hypot",
                   "cbrt", "tanh", "reciprocal", "divide"]


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16",
                                "uint16"])
@pytest.mark.parametrize("name", [n for n in SMALL_FLOAT_OPS if n in OPS])
def test_float_ops_on_small_ints(name, dt):
    """NumPy's float-only ops give float16 for bool/int8/uint8 and float32
    for int16/uint16."""
    v = np.arange(-3, 5).astype(dt)
    args = [v] * OPS[name][0]
    check_op(name, *args)


def test_out_argument_rounds():
    x = np.array([1.0, 2.0, 3.0], np.float16)
    out = xp.zeros(3, np.float16)
    res = xp.sin(xp.asarray(x), out=out)
    assert res is out or res._data_ptr == out._data_ptr
    same_bits(out.get(), np.sin(x))
    o32 = xp.zeros(3, np.float32)
    xp.add(xp.asarray(x), xp.asarray(x), out=o32)
    same_bits(o32.get(), np.add(x, x, out=np.zeros(3, np.float32)))
    with pytest.raises(TypeError):
        xp.add(xp.asarray(x), xp.asarray(x), out=xp.zeros(3, np.int16))


def test_expression_engine_rounds_each_step():
    if not hasattr(xp, "evaluate"):
        pytest.skip("no expression engine")
    x = np.array([1.0, 1e-3, 3.0, 1000, 65000], np.float16)
    a = xp.asarray(x)  # noqa: F841 (read by evaluate)
    with np.errstate(all="ignore"):
        want = (x * x + x) / x
    got = xp.evaluate("(a * a + a) / a").get()
    assert got.dtype == np.float16
    same_bits(got, want)


# ---- reductions -------------------------------------------------------

def test_reductions_contiguous():
    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 100, 1000, 5000):
        x = (rng.random(n) * 4 - 1).astype(np.float16)
        a = xp.asarray(x)
        for name in ("sum", "mean", "nansum", "nanmean"):
            if n == 0 and "mean" in name:
                continue
            want = getattr(np, name)(x)
            got = getattr(xp, name)(a).get()
            assert got.dtype == np.float16, name
            # float32 pairwise sums in both, rounded once: within an ulp
            assert ulp_distance(got, want) <= 1, (name, n, got, want)
        if n:
            for name in ("min", "max", "argmin", "argmax", "nanmin",
                         "nanmax", "ptp"):
                same_bits(getattr(xp, name)(a).get(), getattr(np, name)(x))
    x = np.array([1, 2, np.nan, 4], np.float16)
    for name in ("sum", "max", "min", "mean", "nanmax", "nansum",
                 "argmax", "nanargmin", "prod", "any", "all"):
        same_bits(getattr(xp, name)(xp.asarray(x)).get(),
                  getattr(np, name)(x))
    # overflow to inf at the final rounding, as NumPy
    big = np.full(10, 30000, np.float16)
    same_bits(xp.sum(xp.asarray(big)).get(), np.sum(big))


def test_reductions_dtype_and_axes():
    rng = np.random.default_rng(6)
    x = (rng.random((20, 30)) * 4).astype(np.float16)
    a = xp.asarray(x)
    same_bits(xp.sum(a, axis=1).get(), np.sum(x, axis=1))
    np.testing.assert_allclose(xp.sum(a, dtype=np.float32).get(),
                               np.sum(x, dtype=np.float32), rtol=1e-6)
    assert xp.sum(a, dtype=np.float32).dtype == np.float32
    assert xp.sum(a, axis=0).dtype == np.float16
    # along an outer axis NumPy rounds to float16 after every addition;
    # cunumpy sums in float32 and rounds once (closer to the exact sum)
    exact = np.sum(x.astype(np.float64), axis=0).astype(np.float16)
    assert ulp_distance(xp.sum(a, axis=0).get(), exact).max() <= 1
    for name in ("var", "std"):
        got = getattr(xp, name)(a, axis=1).get()
        want = getattr(np, name)(x.astype(np.float32), axis=1)
        assert got.dtype == np.float16
        assert ulp_distance(got, want.astype(np.float16)).max() <= 1
    ints = np.arange(10, dtype=np.int8)
    same_bits(xp.mean(xp.asarray(ints), dtype=np.float16).get(),
              np.mean(ints, dtype=np.float16))
    cs = xp.cumsum(a[0]).get()
    assert cs.dtype == np.float16
    assert ulp_distance(cs, np.cumsum(x[0].astype(np.float64)).astype(
        np.float16)).max() <= 1


# ---- sorting, searching, selection, manipulation -----------------------

def test_sort_search_unique():
    x = np.concatenate([ALL_F16[::31], np.float16([np.nan, -0.0, 0.0])])
    x = x[:x.size // 7 * 7]
    rng = np.random.default_rng(7)
    rng.shuffle(x)
    a = xp.asarray(x)
    same_bits(xp.sort(a).get(), np.sort(x))
    same_bits(xp.argsort(a, stable=True).get(), np.argsort(x, stable=True))
    same_bits(xp.unique(a).get(), np.unique(x))
    s = np.sort(x)
    same_bits(xp.searchsorted(xp.asarray(s), a).get(), np.searchsorted(s, x))
    same_bits(xp.partition(a, 10).get()[10:11], np.partition(x, 10)[10:11])
    same_bits(xp.sort(xp.asarray(x.reshape(-1, 7)[:, ::-1]), axis=0).get(),
              np.sort(x.reshape(-1, 7)[:, ::-1], axis=0))


def test_selection_and_manipulation():
    x = np.arange(24, dtype=np.float16).reshape(4, 6) / 7
    a = xp.asarray(x)
    same_bits(xp.where(a > 1, a, xp.asarray(np.float16(-1))).get(),
              np.where(x > 1, x, np.float16(-1)))
    same_bits(a[a > 1].get(), x[x > 1])
    same_bits(a[[0, 3], ::-2].get(), x[[0, 3], ::-2])
    same_bits(xp.concatenate([a, a], axis=1).get(),
              np.concatenate([x, x], axis=1))
    same_bits(xp.stack([a, a]).get(), np.stack([x, x]))
    same_bits(a.T.copy().get(), x.T.copy())
    same_bits(xp.flip(a).get(), np.flip(x))
    b = xp.asarray(x.copy())
    b[1:3, 2] = 0.1
    y = x.copy()
    y[1:3, 2] = 0.1
    same_bits(b.get(), y)
    same_bits(xp.where(xp.asarray(x) > 1, xp.asarray(x), 2.5).get(),
              np.where(x > 1, x, np.float16(2.5)))


# ---- creation and interchange -----------------------------------------

def test_creation():
    same_bits(xp.zeros((2, 3), xp.float16).get(), np.zeros((2, 3), "e"))
    same_bits(xp.ones(4, "f2").get(), np.ones(4, "f2"))
    same_bits(xp.arange(0, 3, 0.3, dtype=np.float16).get(),
              np.arange(0, 3, 0.3, dtype=np.float16))
    same_bits(xp.linspace(0, 1, 11, dtype=np.float16).get(),
              np.linspace(0, 1, 11, dtype=np.float16))
    same_bits(xp.asarray([1.5, 2.5], dtype=xp.float16).get(),
              np.asarray([1.5, 2.5], np.float16))
    same_bits(xp.zeros((0, 2), np.float16).get(), np.zeros((0, 2), "e"))
    same_bits(xp.asarray(np.float16(3.5)).get(), np.asarray(np.float16(3.5)))


def test_buffer_and_dlpack_round_trips():
    x = ALL_F16[::3].copy()
    a = xp.asarray(x)
    m = memoryview(a)
    assert m.format == "e" and m.itemsize == 2
    same_bits(np.asarray(a), x)
    same_bits(np.from_dlpack(a), x)
    back = xp.from_dlpack(x)
    assert back.dtype == np.float16
    same_bits(back.get(), x)
    # NumPy float16 memory is shared, not copied
    y = np.ones(8, np.float16)
    v = xp.asarray(memoryview(y))
    y[0] = 7
    assert v.get()[0] == 7


# ---- linalg, fft, polynomials, statistics -------------------------------

def test_matmul_and_products():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(5, 7)).astype(np.float16)
    y = rng.normal(size=(7, 3)).astype(np.float16)
    for name, args in (("matmul", (x, y)), ("dot", (x, y)),
                       ("dot", (x[0], y[:, 0])), ("inner", (x, x)),
                       ("outer", (x[0], y[0])), ("vdot", (x[0], x[1]))):
        want = getattr(np, name)(*args)
        got = getattr(xp, name)(*[xp.asarray(a) for a in args]).get()
        assert got.dtype == np.float16, name
        # both accumulate in float32 and round once (summation orders
        # differ): within an ulp of NumPy
        assert ulp_distance(got, want).max() <= 1, name
    out = xp.zeros((5, 3), np.float16)
    xp.matmul(xp.asarray(x), xp.asarray(y), out=out)
    assert ulp_distance(out.get(), np.matmul(x, y)).max() <= 1
    # mixed with float32: float32, as NumPy
    assert xp.matmul(xp.asarray(x), xp.asarray(y.astype(np.float32))).dtype \
        == np.float32


@pytest.mark.parametrize("name", ["inv", "det", "cholesky", "svd", "eigh",
                                  "solve", "qr", "eigvals", "slogdet"])
def test_linalg_refuses_float16(name):
    x = (np.eye(3) * 2 + 0.5).astype(np.float16)
    args = (x, x) if name == "solve" else (x,)
    with pytest.raises(TypeError, match="float16 is unsupported"):
        getattr(np.linalg, name)(*args)
    with pytest.raises(TypeError, match="float16 is unsupported"):
        getattr(xp.linalg, name)(*[xp.asarray(a) for a in args])


def test_fft_dtypes():
    x = np.linspace(-1, 1, 16).astype(np.float16)
    a = xp.asarray(x)
    for name in ("fft", "ifft", "rfft", "ihfft", "irfft", "hfft", "fftn"):
        want = getattr(np.fft, name)(x)
        got = getattr(xp.fft, name)(a).get()
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


def test_polynomials_and_statistics():
    v = np.array([0.5, -1.25, 2.0, 3.0], np.float16)
    a = xp.asarray(v)
    for name, args in (("polyval", (v, v)), ("polymul", (v, v)),
                       ("polyadd", (v, v)), ("polyder", (v,)),
                       ("polyint", (v,)), ("poly", (v,)),
                       ("median", (v,)), ("quantile", (v, 0.3)),
                       ("percentile", (v, 70)), ("nanmedian", (v,)),
                       ("average", (v,)), ("sinc", (v,)), ("diff", (v,)),
                       ("convolve", (v, v)), ("cumprod", (v,))):
        want = getattr(np, name)(*args)
        got = getattr(xp, name)(*[xp.asarray(t) if isinstance(t, np.ndarray)
                                  else t for t in args]).get()
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3)
    q, r = xp.polydiv(a, a[:2])
    wq, wr = np.polydiv(v, v[:2])
    assert q.dtype == wq.dtype and r.dtype == wr.dtype
    np.testing.assert_allclose(q.get(), wq, rtol=2e-3)
    # NumPy's sinc guards 0 with the dtype's eps (1e-20 is 0 in float16)
    same_bits(xp.sinc(xp.asarray(np.float16([0.0]))).get(),
              np.sinc(np.float16([0.0])))
    for name, args in (("roots", (v,)), ("polyfit", (v, v, 1))):
        with pytest.raises(TypeError):
            getattr(np, name)(*args)
        with pytest.raises(TypeError):
            getattr(xp, name)(*[xp.asarray(t) if isinstance(t, np.ndarray)
                                else t for t in args])


@pytest.mark.parametrize("name", ["sin", "exp", "sqrt", "tanh", "add",
                                  "multiply", "arctan2", "isnan", "less",
                                  "clip"])
def test_blocked_float16_matches_the_float32_result_rounded(name):
    """Many blocks and threads: each element is the float32 kernel's
    result rounded once, whatever the layout (contiguous, strided,
    reversed, broadcast), and within an ulp of NumPy's."""
    rng = np.random.default_rng(3)
    nin = OPS[name][0]
    vals = [np.concatenate([rng.normal(0, 3, 300001), [0.0, -0.0, np.inf,
                                                       -np.inf, np.nan]])
            .astype(np.float16) for _ in range(nin)]
    layouts = [lambda v: v, lambda v: v[::3], lambda v: v[::-1]]
    for lay in layouts:
        args = [xp.asarray(lay(v)) for v in vals]
        got = getattr(xp, name)(*args)
        ref = getattr(xp, name)(*[a.astype(np.float32) for a in args])
        ref = ref.astype(np.float16) if ref.dtype != np.bool_ else ref
        same_bits(got.get(), ref.get())
        with np.errstate(all="ignore"):
            want = getattr(np, name)(*[lay(v) for v in vals])
        assert ulp_distance(got.get(), want).max() <= 1 if want.dtype == F16 \
            else np.array_equal(got.get(), want)
    if nin == 2:  # one operand broadcast along the other
        got = getattr(xp, name)(xp.asarray(vals[0]), xp.asarray(vals[1][:1]))
        ref = getattr(xp, name)(xp.asarray(vals[0]).astype(np.float32),
                                xp.asarray(vals[1][:1]).astype(np.float32))
        ref = ref.astype(np.float16) if ref.dtype != np.bool_ else ref
        same_bits(got.get(), ref.get())
