"""Every op of the op table against NumPy: random shapes (0-d, empty,
broadcasting), random dtypes (also mixed, and weak Python scalars), random
strided and negative-stride views; values, result dtype and exception type.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import DTYPES, arrays, assert_same, builtin_exception

# NumPy's ops; the special_* ones are scipy.special's (test_special.py)
OPS = {name: (nin, loops) for name, nin, loops, _out, _doc in
       xp._cnlib._op_table() if not name.startswith("special_")}

# Deliberate, documented differences from NumPy (include/cunumpy/ufunc.h):
# integer reciprocal(0) is 0. The tests keep inputs out of the
# last one.
NUMPY_NAME = {"abs": "absolute", "conj": "conjugate"}
SMALL = {"power", "left_shift", "right_shift", "exp", "exp2", "expm1",
         "sinh", "cosh", "square", "multiply", "reciprocal"}


def numpy_op(name):
    f = getattr(np, NUMPY_NAME.get(name, name))
    if name == "clip":
        return lambda a, lo, hi: np.clip(a, lo, hi)
    return f


def fix_inputs(name, vals):
    """Keep inputs inside the domain where NumPy and cunumpy agree by
    design (see the module comment)."""
    out = []
    with np.errstate(all="ignore"):
        return _fix_inputs(name, vals, out)


def _fix_inputs(name, vals, out):
    for i, v in enumerate(vals):
        if v.dtype.kind in "iu":
            if name == "power" and i == 1:
                # mostly small non-negative exponents (values to compare);
                # negative ones are the ValueError of test_int_power_negative
                v = np.abs(v.astype(np.int64)).astype(v.dtype) % 5
            if name in ("left_shift", "right_shift") and i == 1:
                v = np.abs(v.astype(np.int64)).astype(v.dtype) % \
                    (8 * v.dtype.itemsize + 2)
            if name == "reciprocal":
                v = np.where(v == 0, 1, v).astype(v.dtype)
        out.append(v)
    return out


# NumPy 2.3+ semantics the engine follows (formerly differences).
@pytest.mark.parametrize("name,dtype", [
    (n, d) for n in ("floor", "ceil", "trunc") for d in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64")] + [
    ("negative", "bool"), ("positive", "bool"), ("sign", "bool"),
    ("subtract", "bool"), ("clip", "complex128"), ("clip", "complex64"),
    ("conj", "bool"), ("square", "bool"), ("reciprocal", "bool"),
    ("abs", "bool"), ("rint", "int16"), ("rint", "bool")])
def test_known_differences(name, dtype):
    v = np.array([1, 0, 1], dtype)
    args = [v] * OPS[name][0]
    try:
        with np.errstate(all="ignore"):
            expected = numpy_op(name)(*args)
    except TypeError as e:
        with pytest.raises(TypeError) as info:
            getattr(xp, name)(*[xp.asarray(a) for a in args])
        if "boolean" in str(e):  # NumPy's explanation is kept
            assert str(e).split(",")[0] in str(info.value)
        return
    assert_same(getattr(xp, name)(*[xp.asarray(a) for a in args]),
                expected)


def test_bool_operators_refused():
    t = xp.asarray(np.array([True, False]))
    with pytest.raises(TypeError, match="numpy boolean subtract"):
        t - t
    with pytest.raises(TypeError, match="numpy boolean subtract"):
        t - True
    with pytest.raises(TypeError, match="numpy boolean negative"):
        -t
    assert_same(t - 1, np.array([True, False]) - 1)  # int64, as NumPy
    assert_same(t + t, np.array([True, False]) + np.array([True, False]))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "int64"])
def test_rounding_integers_out_casting(dtype):
    v = np.array([[3, 0], [1, 2]], dtype)
    for name in ("floor", "ceil", "trunc"):
        f = getattr(np, name)
        for odt in ("float64", "int64", "int8", "bool"):
            out_np = np.zeros(v.shape, odt)
            out_xp = xp.zeros(v.shape, odt)
            try:
                f(v, out=out_np)
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(xp, name)(xp.asarray(v), out=out_xp)
                assert_same(out_xp, np.zeros(v.shape, odt))
                continue
            getattr(xp, name)(xp.asarray(v), out=out_xp)
            assert_same(out_xp, out_np)
        # strided and reversed views keep values and dtype
        assert_same(getattr(xp, name)(xp.asarray(v)[::-1, ::2]),
                    f(v[::-1, ::2]))


WEAK_INTS = [-1, 300, -300, 2**63, 2**64 - 1, -2**63]


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "uint32",
                                   "int64", "uint64"])
@pytest.mark.parametrize("name", ["less", "less_equal", "greater",
                                  "greater_equal", "equal", "not_equal",
                                  "logical_and", "logical_or",
                                  "logical_xor", "arctan2", "hypot",
                                  "copysign", "add", "maximum",
                                  "bitwise_and", "power", "floor_divide"])
def test_weak_int_range(name, dtype):
    """NEP 50: a Python int out of range of the array's dtype: defined for
    comparisons, logical ops and float ops, OverflowError otherwise."""
    info = np.iinfo(dtype)
    a = np.array([info.min, 0, 1, info.max], dtype)
    for v in WEAK_INTS:
        for args in ((a, v), (v, a)):
            xargs = [xp.asarray(x) if isinstance(x, np.ndarray) else x
                     for x in args]
            try:
                with np.errstate(all="ignore"):
                    expected = numpy_op(name)(*args)
            except Exception as e:
                with pytest.raises(builtin_exception(type(e))):
                    getattr(xp, name)(*xargs)
                continue
            res = getattr(xp, name)(*xargs)
            if expected.dtype == np.float16:
                assert res.dtype == np.float16
                got = res.get()
                np.testing.assert_allclose(got, expected, rtol=2e-3)
            else:
                assert_same(res, expected)


def test_weak_int_range_out_and_broadcast():
    a = np.arange(6, dtype=np.uint8).reshape(2, 3)
    out = xp.ones((2, 3), np.int16)
    res = xp.less(xp.asarray(a), -1, out=out)
    assert res is out or res._data_ptr == out._data_ptr
    assert_same(out, np.less(a, -1, out=np.ones((2, 3), np.int16)))
    assert_same(xp.greater(xp.asarray(a)[:, ::-1], -5), np.ones((2, 3), bool))
    assert_same(xp.equal(xp.asarray(a[:0]), 300), np.zeros((0, 3), bool))
    assert_same(xp.asarray(a) != 300, a != 300)
    assert_same(xp.asarray(a) < 300, a < 300)
    assert_same(-1 < xp.asarray(a), -1 < a)


@pytest.mark.parametrize("lo,hi", [(-1, 3), (1, 300), (-5, 300), (-5, -1),
                                   (300, 400), (-1, None), (None, 300)])
def test_clip_weak_int_bounds(lo, hi):
    a = np.arange(6, dtype=np.uint8)
    try:
        expected = np.clip(a, lo, hi)
    except OverflowError:
        with pytest.raises(OverflowError):
            xp.clip(xp.asarray(a), lo, hi)
        return
    assert_same(xp.clip(xp.asarray(a), lo, hi), expected)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex_pow0(dtype):
    n = np.nan
    a = np.zeros(11, dtype)
    a[1] = complex(-0.0, 0.0)
    b = np.array([1 + 1j, 2.0, 0, -1, 1j, -1 + 1j, 0.5, -2j,
                  complex(1, n), complex(n, 0), 3], dtype)
    with np.errstate(all="ignore"):
        assert_same(xp.power(xp.asarray(a), xp.asarray(b)), np.power(a, b))
        assert_same(xp.asarray(a) ** (1 + 1j), a ** (1 + 1j))


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_clip_and_sign_complex(dtype):
    n = np.nan
    c = np.array([3 + 4j, 1 + 0j, -1 - 1j, 2 + 5j, 2 - 5j, complex(n, 1),
                  complex(1, n), 1.5 + 1.5j], dtype)
    assert_same(xp.clip(xp.asarray(c), 1 + 1j, 2 + 2j),
                np.clip(c, 1 + 1j, 2 + 2j))
    lo = np.array([0, 1 + 2j, -2j, 3, 2, 0, 0, 1.5 + 1.6j], dtype)
    assert_same(xp.clip(xp.asarray(c)[::-1], xp.asarray(lo), 2 + 0j),
                np.clip(c[::-1], lo, 2 + 0j))
    s = np.array([3 + 4j, 0j, complex(np.inf, 1), complex(np.inf, np.inf),
                  complex(n, 0), -2j, complex(-np.inf, 5), complex(0, -0.0)],
                 dtype)
    assert_same(xp.sign(xp.asarray(s)), np.sign(s))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_int_power_negative(dtype):
    base = np.array([[2, 3, -1], [1, 0, 5]], dtype)
    good = np.array([0, 1, 2], dtype)
    assert_same(xp.power(xp.asarray(base), xp.asarray(good)),
                np.power(base, good))
    for e in (np.array([1, -1, 2], dtype), np.array([-3], dtype), -1):
        with pytest.raises(ValueError, match="Integers to negative integer "
                           "powers are not allowed"):
            np.power(base, e)
        out = xp.zeros(base.shape, dtype)
        with pytest.raises(ValueError, match="Integers to negative integer "
                           "powers are not allowed"):
            xp.power(xp.asarray(base), xp.asarray(e) if isinstance(
                e, np.ndarray) else e, out=out)
        assert_same(out, np.zeros(base.shape, dtype))  # nothing written
    x = xp.asarray(base)
    with pytest.raises(ValueError):
        x **= -2
    assert_same(x, base)
    # empty results never raise; float exponents are fine
    neg = np.array([-1, -1, -1], dtype)
    assert_same(xp.power(xp.asarray(base[:0]), xp.asarray(neg)),
                np.power(base[:0], neg))
    with np.errstate(all="ignore"):
        assert_same(xp.power(xp.asarray(base), -1.0), np.power(base, -1.0))
    # uint8 ** int8 promotes to int16 and is checked too
    with pytest.raises(ValueError):
        xp.power(xp.asarray(np.array([2], np.uint8)),
                 xp.asarray(np.array([-1], np.int8)))


@st.composite
def op_case(draw, name):
    nin = OPS[name][0]
    shapes = draw(hnp.mutually_broadcastable_shapes(
        num_shapes=nin, min_dims=0, max_dims=3, min_side=0, max_side=4))
    mixed = draw(st.booleans())
    first = draw(st.sampled_from(DTYPES))
    dts = [draw(st.sampled_from(DTYPES)) if mixed else first
           for _ in range(nin)]
    small = name in SMALL
    pairs = [draw(arrays(dt, shp, small=small))
             for dt, shp in zip(dts, shapes.input_shapes)]
    # Sometimes one operand is a Python scalar (weak, NEP 50).
    weak = None
    if nin >= 2 and draw(st.booleans()):
        # numpy.clip turns its first argument into an array (not weak).
        weak = draw(st.integers(1 if name == "clip" else 0, nin - 1))
    return pairs, weak


def run_case(name, pairs, weak):
    np_vals = fix_inputs(name, [p[0] for p in pairs])
    xp_vals = [xp.asarray(v.copy()) if not np.array_equal(v, p[0],
                                                          equal_nan=True)
               else p[1] for v, p in zip(np_vals, pairs)]
    if weak is not None:
        v = np_vals[weak]
        scalar = v.flat[0].item() if v.size else 1
        if isinstance(scalar, int) and not isinstance(scalar, bool):
            # Sometimes out of range of the other operands' dtypes
            # (defined for some ops, OverflowError for others).
            scalar = int(np.clip(scalar, -300, 300))
        np_vals[weak] = scalar
        xp_vals[weak] = scalar
    fn = numpy_op(name)
    try:
        with np.errstate(all="ignore"):
            expected = np.asarray(fn(*np_vals))
    except Exception as e:  # the same class of error is expected
        with pytest.raises(builtin_exception(type(e))):
            getattr(xp, name)(*xp_vals)
        return
    res = getattr(xp, name)(*xp_vals)
    want = expected
    ulp = 64 if want.dtype in (np.float32, np.complex64) else 16
    if expected.dtype == np.float16:
        # float32 per element rounded to float16 on both sides; the
        # float32 functions may differ by an ulp (tests/python/
        # test_float16.py checks every op to 1 float16 ulp)
        assert res.dtype == np.float16
        np.testing.assert_allclose(res.get(), expected, rtol=2e-3, atol=2e-3,
                                   equal_nan=True)
        return
    assert_same(res, want, ulp=ulp)


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_matches_numpy(name):
    @given(op_case(name))
    def check(case):
        run_case(name, *case)

    check()


@pytest.mark.parametrize("name", ["add", "multiply", "sin", "less", "clip"])
def test_out_argument(name):
    nin = OPS[name][0]
    a = np.linspace(-2, 2, 12).reshape(3, 4)
    args = [a] * nin if name != "clip" else [a, -1.0, 1.0]
    expected = numpy_op(name)(*args)
    out = xp.empty(expected.shape, expected.dtype)
    res = getattr(xp, name)(*[xp.asarray(v) if isinstance(v, np.ndarray)
                              else v for v in args], out=out)
    assert res is out or res._data_ptr == out._data_ptr
    assert_same(out, expected)


def test_in_place_operators_and_same_kind():
    a = xp.arange(6.0)
    ref = np.arange(6.0)
    for op in ("__iadd__", "__isub__", "__imul__", "__itruediv__",
               "__ifloordiv__", "__ipow__", "__imod__"):
        getattr(a, op)(2)
        getattr(ref, op)(2)
    assert_same(a, ref)
    i = xp.arange(4)
    with pytest.raises(TypeError):
        i += 1.5  # same_kind casting refuses float -> int, as NumPy
    np.testing.assert_array_equal(i.get(), np.arange(4))


def test_operators_match_numpy():
    a_np = np.array([[1, -2, 3], [4, 5, -6]], np.int32)
    b_np = np.array([3, 1, 2], np.int32)
    a, b = xp.asarray(a_np), xp.asarray(b_np)
    for op in ("__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__",
               "__mod__", "__pow__", "__and__", "__or__", "__xor__",
               "__lshift__", "__rshift__", "__lt__", "__le__", "__eq__",
               "__ne__", "__gt__", "__ge__", "__radd__", "__rsub__",
               "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__"):
        assert_same(getattr(a, op)(b), getattr(a_np, op)(b_np))
        assert_same(getattr(a, op)(2), getattr(a_np, op)(2))
    for op in ("__neg__", "__pos__", "__abs__", "__invert__"):
        assert_same(getattr(a, op)(), getattr(a_np, op)())
    q, r = divmod(a, b)
    assert_same(q, a_np // b_np)
    assert_same(r, a_np % b_np)
    # NumPy arrays as operands on either side give cunumpy results.
    assert_same(a + b_np, a_np + b_np)
    assert_same(b_np + a, b_np + a_np)
    assert_same(np.sin(a), np.sin(a_np))


def test_weak_scalars_nep50():
    a = xp.asarray(np.array([1, 2], np.int8))
    assert (a + 1).dtype == np.int8
    assert (a + 1.5).dtype == np.float64
    assert (xp.asarray(np.float32([1])) * 2.0).dtype == np.float32
    assert (xp.asarray(np.float32([1])) * 1j).dtype == np.complex64
    with pytest.raises(OverflowError):
        a + 300
    # NumPy scalars are strongly typed.
    assert (a + np.int16(1)).dtype == np.int16


def test_binary_with_unknown_type_is_type_error():
    a = xp.arange(3)
    with pytest.raises(TypeError):
        a + "text"
    with pytest.raises(TypeError):
        a + object()


def test_ufunc_objects():
    assert xp.add.nin == 2 and xp.sin.nin == 1 and xp.add.nout == 1
    assert repr(xp.add) == "<ufunc 'add'>"
    a = np.arange(12.0).reshape(3, 4)
    assert_same(xp.add.reduce(xp.asarray(a), axis=0), np.add.reduce(a, 0))
    assert_same(xp.multiply.accumulate(xp.asarray(a), axis=1),
                np.multiply.accumulate(a, 1))
    assert_same(xp.add.outer(xp.arange(3), xp.arange(4)),
                np.add.outer(np.arange(3), np.arange(4)))
    with pytest.raises(TypeError):
        xp.add(1)
    assert xp.absolute is xp.abs and xp.bitwise_not is xp.bitwise_invert
    assert xp.acos is xp.arccos and xp.pow is xp.power


def test_where_and_round():
    c = np.array([True, False, True])
    assert_same(xp.where(xp.asarray(c), 1.0, xp.arange(3)),
                np.where(c, 1.0, np.arange(3)))
    v = np.array([0.5, 1.5, 2.5, -0.5, 1.234567])
    assert_same(xp.round(xp.asarray(v)), np.round(v))
    assert_same(xp.round(xp.asarray(v), 2), np.round(v, 2))
    assert_same(xp.clip(xp.arange(6), 1, 4), np.clip(np.arange(6), 1, 4))
    assert_same(xp.clip(xp.arange(6), None, 4), np.clip(np.arange(6), None, 4))


# No overflowing finite products: NumPy's SIMD loop fuses a*b - c*d (FMA),
# which changes inf - inf there.
_CSPECIALS = [0.0, -0.0, 1.0, -2.5, 3e5, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["multiply", "divide"])
def test_complex_mul_div_with_inf_nan_match_numpy(name, dtype):
    # NumPy's plain product and Smith quotient: no C99 Annex G rescue of
    # infinities (C's complex * and / would turn some NaNs into inf).
    parts = np.array(_CSPECIALS)
    z = np.empty(parts.size ** 2, np.complex128)
    z.real = np.repeat(parts, parts.size)
    z.imag = np.tile(parts, parts.size)
    with np.errstate(all="ignore"):
        a = np.repeat(z, z.size).astype(dtype)
        b = np.tile(z, z.size).astype(dtype)
        want = getattr(np, name)(a, b)
        got = getattr(xp, name)(xp.asarray(a), xp.asarray(b))
        assert_same(got, want)
        assert_same(xp.square(xp.asarray(a)), np.square(a))
        assert_same(getattr(xp, name)(xp.asarray(a)[::-7], xp.asarray(b)[::-7]),
                    want[::-7])


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_complex_abs_accuracy_and_special_values(dt):
    # The contiguous kernel is sqrt(fma) with a libm fallback: check it
    # against a long double hypot (<= 1.5 ulp) over vector bodies and
    # tails, extreme magnitudes and every special-value pair.
    rng = np.random.default_rng(3)
    parts = np.concatenate([
        rng.standard_normal(200), 10.0 ** rng.uniform(-320, 308, 200),
        -(10.0 ** rng.uniform(-45, 38, 100)),
        [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1e308, 1.7e308, 1e154, 1e-154]])
    fin = np.finfo(np.dtype(dt).char.lower() if dt is np.complex64 else np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        re = parts.astype(fin.dtype)
        im = rng.permutation(parts).astype(fin.dtype)
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.0], dtype=fin.dtype)
    re = np.concatenate([re, np.repeat(sp, sp.size)])
    im = np.concatenate([im, np.tile(sp, sp.size)])
    z = np.empty(re.size, dtype=dt)
    z.real, z.imag = re, im  # keep -0.0 and inf/nan parts exact
    exact = np.hypot(re.astype(np.longdouble), im.astype(np.longdouble))
    for n in list(range(0, 20)) + [z.size]:
        got = np.asarray(xp.abs(xp.asarray(z[:n])))
        assert got.dtype == fin.dtype and got.shape == (n,)
        want = exact[:n]
        finite = np.isfinite(want) & (want <= fin.max)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want) | (want > fin.max))
        err = np.abs(got[finite] - want[finite]) / np.spacing(
            np.maximum(got[finite], fin.smallest_subnormal))
        assert err.size == 0 or float(err.max()) <= 1.5
    # strided and reversed views take the scalar loop (libm's hypot): the
    # same values to the last bit or one ulp
    a = xp.asarray(z)
    np.testing.assert_allclose(np.asarray(xp.abs(a[::-3])), np.asarray(xp.abs(a))[::-3],
                               rtol=2 * fin.eps, atol=0)
    # an output aliasing the input's memory
    zz = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    buf = xp.asarray(zz.astype(dt))
    out = buf.view(fin.dtype)[:64]
    want = np.abs(zz.astype(dt))
    xp.abs(buf, out=out)
    np.testing.assert_allclose(np.asarray(out), want, rtol=4 * fin.eps)


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_integer_division_matches_numpy(dt, name):
    # The contiguous loops divide in floating point (64-bit blocks only
    # within +-2^51, idiv otherwise) and by a scalar through a
    # multiply-high by an invariant multiplier: full-range values, the blocks that fall back, zero and
    # -1 divisors, INT_MIN // -1, negative operands, scalar divisors of
    # every sign, strided, reversed and broadcast operands.
    info = np.iinfo(dt)
    rng = np.random.default_rng(11)
    n = 1500
    small = rng.integers(max(info.min, -300), min(info.max, 300), n, endpoint=True).astype(dt)
    full = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
    near = rng.integers(max(info.min, -(2**51)), min(info.max, 2**51 - 1), n,
                        endpoint=True, dtype=dt)
    a = np.concatenate([small, full, near])
    a[:4] = [info.min, info.max, 0, info.min]
    b = np.concatenate([rng.integers(max(info.min, -9), 9, n, endpoint=True).astype(dt),
                        rng.integers(info.min, info.max, n, endpoint=True, dtype=dt),
                        near[::-1]])
    b[:4] = [-1 if info.min < 0 else 1, 0, 0, 1]
    f, g = getattr(np, name), getattr(xp, name)
    with np.errstate(all="ignore"):
        assert_same(g(xp.asarray(a), xp.asarray(b)), f(a, b))
        scalars = {0, 1, 2, 3, 7, 100, int(info.max), int(info.max) - 1, 2**51 - 1}
        if info.min < 0:
            scalars |= {-1, -2, -3, -7, int(info.min), int(info.min) + 1, -(2**51)}
        for s in sorted(scalars):
            if not info.min <= s <= info.max:
                continue
            d = np.asarray(s, dtype=dt)
            assert_same(g(xp.asarray(a), xp.asarray(d)), f(a, d))
        assert_same(g(xp.asarray(a)[::-3], xp.asarray(b)[1::3]), f(a[::-3], b[1::3]))
        m, v = a[:1200].reshape(40, 30), b[:30]
        assert_same(g(xp.asarray(m), xp.asarray(v)), f(m, v))
        assert_same(g(xp.asarray(m[:, :1]), xp.asarray(v)), f(m[:, :1], v))
        assert_same(g(xp.asarray(a[:0]), xp.asarray(b[:0])), f(a[:0], b[:0]))
        assert_same(g(xp.asarray(a[5]), xp.asarray(b[6])), f(a[5], b[6]))


@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_integer_division_by_scalar_every_divisor_shape(dt, name):
    # The multiply-high path's multiplier and shifts depend on the divisor:
    # every divisor for 8 bits (every dividend too), and powers of two,
    # their neighbours, extremes and random ones for wider types, with
    # contiguous, strided and 0-d dividends; Python int divisors too.
    info = np.iinfo(dt)
    bits = np.dtype(dt).itemsize * 8
    rng = np.random.default_rng(5)
    if bits == 8:
        a = np.arange(info.min, info.max + 1).astype(dt)
        divs = list(range(info.min, info.max + 1))
    else:
        a = np.concatenate([rng.integers(info.min, info.max, 3000, endpoint=True, dtype=dt),
                            np.array([info.min, info.max, 0, 1, info.min + 1], dtype=dt)])
        divs = {info.min, info.max, info.max - 1, 1, 2, 3, 7, 10, info.max // 3}
        for k in range(bits - 1):
            divs |= {2**k, 2**k + 1, max(2**k - 1, 1)}
            if info.min < 0:
                divs |= {-(2**k), -(2**k) - 1}
        divs |= {int(x) for x in rng.integers(info.min, info.max, 40, endpoint=True, dtype=dt)}
        divs = sorted(d for d in divs if info.min <= d <= info.max)
    f, g = getattr(np, name), getattr(xp, name)
    ca = xp.asarray(a)
    with np.errstate(all="ignore"):
        for d in divs:
            dd = np.asarray(d, dtype=dt)
            assert_same(g(ca, xp.asarray(dd)), f(a, dd))
        for d in divs[:: max(1, len(divs) // 16)]:
            dd = np.asarray(d, dtype=dt)
            assert_same(g(ca[::-2], xp.asarray(dd)), f(a[::-2], dd))
            assert_same(g(ca[7], xp.asarray(dd)), f(a[7], dd))
            assert_same(g(ca[:0], xp.asarray(dd)), f(a[:0], dd))
        assert_same(g(ca, 3), f(a, 3))


@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("name", ["left_shift", "right_shift"])
def test_integer_shift_by_scalar_count_matches_numpy(dt, name):
    # One count for the whole loop shifts in the dtype's lanes; counts out
    # of range (negative, the width and beyond) take the generic loop:
    # every count from -2 to bits + 2, negative operands, contiguous,
    # reversed and 0-d operands, Python int counts, and arrays of counts.
    info = np.iinfo(dt)
    bits = np.dtype(dt).itemsize * 8
    rng = np.random.default_rng(9)
    a = np.concatenate([rng.integers(info.min, info.max, 1000, endpoint=True, dtype=dt),
                        np.array([info.min, info.max, 0, 1], dtype=dt)])
    f, g = getattr(np, name), getattr(xp, name)
    ca = xp.asarray(a)
    counts = range(-2 if info.min < 0 else 0, bits + 3)
    for c in counts:
        cc = np.asarray(c, dtype=dt)
        assert_same(g(ca, xp.asarray(cc)), f(a, cc))
        assert_same(g(ca[::-3], xp.asarray(cc)), f(a[::-3], cc))
        assert_same(g(ca[3], xp.asarray(cc)), f(a[3], cc))
        assert_same(g(ca[:0], xp.asarray(cc)), f(a[:0], cc))
    assert_same(g(ca, 3), f(a, 3))
    cs = rng.integers(0, bits, a.size).astype(dt)
    assert_same(g(ca, xp.asarray(cs)), f(a, cs))
