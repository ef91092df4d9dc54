"""The engine's shortcut kernels against NumPy: power by an exponent that is
one value for the whole loop (NumPy's square / sqrt / reciprocal / positive
/ ones choices, the vector pow otherwise, integer repeated squaring), the
vectorised clip, repeat's direct block copies and roll's slab copies. Bits
are compared where NumPy's result is exact (the shortcuts, integers, clip,
copies); the general float pow within 1 ulp."""

import warnings

import numpy as np
import pytest

import cunumpy as xp
from conftest import DTYPES, FLOAT_DTYPES, INT_DTYPES, assert_same


def special_values(dt):
    """Finite, signed zeros, infinities, NaN, denormals, huge and tiny,
    plus a run of ordinary values long enough for the vector loops."""
    fi = np.finfo(dt)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 2.0,
            -2.0, 0.5, -0.5, 3.5, -3.5, fi.tiny, -fi.tiny,
            fi.smallest_subnormal, -fi.smallest_subnormal, fi.max, -fi.max,
            fi.eps, 1e-3, 7e5, 1.0 + fi.eps, 1.0 - fi.eps / 2]
    ramp = np.linspace(-20, 20, 77)
    return np.concatenate([np.array(vals, dt), ramp.astype(dt)])


def same_bits(got, want):
    """Equal values, NaN where NaN, same sign of every zero."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    assert np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))


def within_ulp(got, want, ulps=1):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    assert np.array_equal(got[~fin & ~np.isnan(want)],
                          want[~fin & ~np.isnan(want)])
    g, w = got[fin], want[fin]
    tol = ulps * np.spacing(np.abs(w).astype(want.dtype))
    assert np.all(np.abs(g.astype(np.float64) - w.astype(np.float64))
                  <= tol.astype(np.float64)), (g[np.abs(g - w) > tol],
                                               w[np.abs(g - w) > tol])


SHORTCUTS = [2, 2.0, 0.5, -1, -1.0, 1, 1.0, 0, 0.0]
GENERAL = [3, 3.0, -2, -0.5, 1.5, 17.3, -3, 0.25, 1e-3, np.inf, -np.inf,
           np.nan]


def np_power(x, e):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return x ** e


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
@pytest.mark.parametrize("e", SHORTCUTS)
def test_float_power_shortcuts_bit_identical(dt, e):
    x = special_values(dt)
    same_bits(xp.asarray(x) ** e, np_power(x, e))
    # the exponent as a 0-d array and as a broadcast 1-element array
    e0 = np.array(e, dt)
    same_bits(xp.power(xp.asarray(x), xp.asarray(e0)), np.power(x, e0))
    x2 = x.reshape(-1, 1)[:100].reshape(10, 10)
    e1 = np.array([e], dt)
    same_bits(xp.power(xp.asarray(x2), xp.asarray(e1)), np_power(x2, e1))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
def test_float_sqrt_shortcut_only_for_stride_zero(dt):
    # NumPy runs pow (not sqrt) when the exponent has a stride: -0.0 and
    # -inf then give +0 and +inf
    x = np.array([-0.0, -np.inf, 4.0], dt)
    e = np.full(3, 0.5, dt)
    same_bits(xp.power(xp.asarray(x), xp.asarray(e)), np_power(x, e))
    x1, e1 = np.array([-0.0], dt), np.array([0.5], dt)
    same_bits(xp.power(xp.asarray(x1), xp.asarray(e1)), np_power(x1, e1))
    # 0-d with 0-d: stride 0 in NumPy too
    x0, e0 = np.array(-0.0, dt), np.array(0.5, dt)
    same_bits(xp.power(xp.asarray(x0), xp.asarray(e0)),
              np.asarray(np_power(x0, e0)))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
@pytest.mark.parametrize("e", GENERAL)
def test_float_power_scalar_exponent_within_1ulp(dt, e):
    x = special_values(dt)
    within_ulp(xp.asarray(x) ** e, np_power(x, np.array(e, dt)))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
@pytest.mark.parametrize("e", [2, 0.5, -1, 3, 1.5])
def test_float_power_layouts(dt, e):
    x = special_values(dt)
    base = np.concatenate([x, x[::-1]])
    for v in (base[::2], base[::-1], base[::-3], base[:0],
              base.reshape(2, -1).T, np.array(base[5])):
        within_ulp(xp.asarray(v) ** e, np_power(v, np.array(e, dt)))
    # in place, on contiguous and strided destinations
    for v in (base.copy(), base.copy()[::2]):
        a = xp.asarray(v)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.power(v, np.array(e, dt))
        xp.power(a, e, out=a)
        within_ulp(a, want)
    # out= of another array, and the mirror (scalar base, array exponent)
    o = xp.empty(base.shape, dt)
    xp.power(xp.asarray(base), e, out=o)
    within_ulp(o, np_power(base, np.array(e, dt)))
    within_ulp(xp.power(np.array(e, dt), xp.asarray(base)),
               np_power(np.array(e, dt), base))


@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("e", [0, 1, 2, 3, 5, 7, 13, 31, 64, 200])
def test_integer_power_scalar_exponent(dt, e):
    info = np.iinfo(dt)
    x = np.concatenate([np.arange(-20, 21), [info.min, info.max, 2, 3]])
    x = np.unique(x.astype(object).clip(info.min, info.max)).astype(dt)
    x = np.concatenate([x, x, x])  # past the vector and block widths
    ne = np.array(e, dt) if e <= info.max else None
    if ne is None:
        return
    want = np.power(x, ne)
    assert_same(xp.asarray(x) ** ne, want)
    assert_same(xp.power(xp.asarray(x), xp.asarray(ne)), want)
    assert_same(xp.asarray(x[::-2]) ** ne, np.power(x[::-2], ne))
    a = xp.asarray(x)
    xp.power(a, xp.asarray(ne), out=a)
    assert_same(a, want)


def test_integer_power_block_edges():
    x = (np.arange(2000) % 23 - 11).astype(np.int64)
    for n in (0, 1, 255, 256, 257, 511, 513, 2000):
        assert_same(xp.asarray(x[:n]) ** 3, x[:n] ** 3)
    assert_same(xp.asarray(x) ** 0, x ** 0)


@pytest.mark.parametrize("dt", [d for d in INT_DTYPES if d.kind == "i"])
def test_integer_power_negative_exponent_raises(dt):
    x = xp.asarray(np.arange(5, dtype=dt))
    with pytest.raises(ValueError, match="negative integer powers"):
        x ** -1
    with pytest.raises(ValueError, match="negative integer powers"):
        xp.power(x, xp.asarray(np.array(-2, dt)))


def test_bool_power():
    b = np.array([True, False, True])
    for e in (0, 1, 2, 3):
        assert_same(xp.power(xp.asarray(b), e), np.power(b, e))
    assert_same(xp.power(xp.asarray(b), xp.asarray(b)), np.power(b, b))


def test_power_empty_and_0d():
    for dt in ("float64", "float32", "int32", "uint8"):
        e = np.zeros(0, dt)
        for k in (0, 1, 2, 3):
            assert_same(xp.asarray(e) ** k, e ** k)
        z = np.array(3, dt)
        for k in (0, 1, 2, 3):
            assert_same(xp.asarray(z) ** k, z ** k)


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
def test_clip_float_special_values(dt):
    x = special_values(dt)
    for lo, hi in [(0.0, 1.0), (-0.0, -0.0), (-0.0, 0.0), (np.nan, 1.0),
                   (1.0, np.nan), (2.5, 1.5), (-np.inf, np.inf), (-1, 3)]:
        same_bits(xp.clip(xp.asarray(x), lo, hi), np.clip(x, lo, hi))
        lo_a, hi_a = np.array(lo, dt), np.array(hi, dt)
        same_bits(xp.clip(xp.asarray(x), xp.asarray(lo_a), xp.asarray(hi_a)),
                  np.clip(x, lo_a, hi_a))
    # array bounds with NaNs in places, broadcasting and strides
    rng = np.random.default_rng(3)
    lo = rng.uniform(-3, 0, x.size).astype(dt)
    hi = rng.uniform(0, 3, x.size).astype(dt)
    lo[::7] = np.nan
    hi[::11] = np.nan
    same_bits(xp.clip(xp.asarray(x), xp.asarray(lo), xp.asarray(hi)),
              np.clip(x, lo, hi))
    same_bits(xp.clip(xp.asarray(x[::-1]), xp.asarray(lo[::-1]), 1.0),
              np.clip(x[::-1], lo[::-1], 1.0))
    m = x[:100].reshape(10, 10)
    same_bits(xp.clip(xp.asarray(m), xp.asarray(lo[:10]), 2.0),
              np.clip(m, lo[:10], 2.0))
    o = xp.asarray(x.copy())
    xp.clip(o, -1.0, 1.0, out=o)
    same_bits(o, np.clip(x, -1.0, 1.0))


@pytest.mark.parametrize("dt", INT_DTYPES)
def test_clip_integers(dt):
    info = np.iinfo(dt)
    x = np.linspace(max(info.min, -1000), min(info.max, 1000), 300).astype(dt)
    for lo, hi in [(0, 10), (5, 5), (10, 3)]:
        assert_same(xp.clip(xp.asarray(x), lo, hi), np.clip(x, lo, hi))
        assert_same(xp.clip(xp.asarray(x[::-3]), lo, hi),
                    np.clip(x[::-3], lo, hi))
    lo = x[::-1].copy()
    assert_same(xp.clip(xp.asarray(x), xp.asarray(lo), info.max),
                np.clip(x, lo, info.max))


@pytest.mark.parametrize("dt", DTYPES)
def test_repeat_and_roll_every_dtype(dt):
    rng = np.random.default_rng(5)
    base = (rng.standard_normal((3, 4, 5)) * 9).astype(dt)
    for v in (base, base[::-1, :, ::2], base.transpose(2, 0, 1),
              base[:, :0], np.array(base.flat[3])):
        a = xp.asarray(v)
        for ax in [None] + list(range(v.ndim)):
            for r in (0, 1, 3):
                assert_same(xp.repeat(a, r, axis=ax), np.repeat(v, r, axis=ax))
            n = v.size if ax is None else v.shape[ax]
            reps = rng.integers(0, 4, n)
            assert_same(xp.repeat(a, xp.asarray(reps), axis=ax),
                        np.repeat(v, reps, axis=ax))
            for s in (0, 1, -1, 4, -7, 23):
                assert_same(xp.roll(a, s, axis=ax), np.roll(v, s, axis=ax))
        if v.ndim == 3:
            assert_same(xp.roll(a, (1, -2, 2), axis=(0, 2, 2)),
                        np.roll(v, (1, -2, 2), axis=(0, 2, 2)))


def test_repeat_roll_results_are_new_arrays():
    v = np.arange(10.0)
    a = xp.asarray(v.copy())
    r, s = xp.repeat(a, 2), xp.roll(a, 3)
    a[0] = 99.0
    assert_same(r, np.repeat(v, 2))
    assert_same(s, np.roll(v, 3))


def test_repeat_errors():
    a = xp.asarray(np.arange(4))
    with pytest.raises(ValueError):
        xp.repeat(a, -1)
    with pytest.raises(ValueError):
        xp.repeat(a, xp.asarray(np.array([1, 2, 3])))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
@pytest.mark.parametrize("name", ["log1p", "arcsinh", "arccosh"])
def test_vector_kernels_in_place_near_domain_ends(dt, name):
    # the vector kernels recompute lanes whose result is inf or 0 from the
    # inputs, which an in-place call has overwritten by then
    v = np.full(37, np.finfo(dt).max / 2, dt)
    want = getattr(np, name)(v)
    a = xp.asarray(v.copy())
    getattr(xp, name)(a, out=a)
    within_ulp(a, want)
    p, e = np.full(37, 1e-20, dt), np.full(37, 1.9, dt)
    a = xp.asarray(p.copy())
    xp.power(a, xp.asarray(e), out=a)
    within_ulp(a, np.power(p, e))
