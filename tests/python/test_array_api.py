"""The Array API standard 2025.12: signatures checked with inspect against the
standard's text, the functions and behaviours it adds, and the special
cases implemented where NumPy's results differ."""

import inspect

import numpy as np
import pytest

import cunumpy as xp

# The standard's signatures (src/array_api_stubs/_2025_12), written as
# Python parameter lists. EXACT: cunumpy's signature has these parameters
# with the same names, kinds and defaults, in order; any further
# parameters are keyword-only with defaults (NumPy's extras, e.g. clip's
# a_min/a_max).
EXACT = {
    "clip": "x, /, min=None, max=None, *, out=None",
    "isdtype": "dtype, kind",
    "finfo": "type, /",
    "iinfo": "type, /",
    # d also positionally, as NumPy takes it: a superset of the standard's
    # keyword-only d, so that NumPy programs keep working
    "fft.fftfreq": "n, /, d=1.0, *, dtype=None, device=None",
    "fft.rfftfreq": "n, /, d=1.0, *, dtype=None, device=None",
    "permute_dims": "x, /, axes",
    "expand_dims": "x, /, axis",
    "broadcast_arrays": "*arrays",
    "broadcast_shapes": "*shapes",
    "matrix_transpose": "x, /",
    "unique_all": "x, /",
    "unique_counts": "x, /",
    "unique_inverse": "x, /",
    "unique_values": "x, /",
}

# Functions the namespace shares with NumPy: every call the standard allows
# must bind (positional-only parameters positionally, keyword parameters by
# the standard's names), so NumPy's spellings stay valid too.
CALLABLE = {
    "searchsorted": "x1, x2, /, *, side='left', sorter=None",
    "isin": "x1, x2, /, *, invert=False",
    "concat": "arrays, /, *, axis=0",
    "stack": "arrays, /, *, axis=0",
    "unstack": "x, /, *, axis=0",
    "flip": "x, /, *, axis=None",
    "moveaxis": "x, source, destination, /",
    "repeat": "x, repeats, /, *, axis=None",
    "roll": "x, /, shift, *, axis=None",
    "squeeze": "x, /, axis",
    "tile": "x, repetitions, /",
    "broadcast_to": "x, /, shape",
    "take": "x, indices, /, *, axis=None",
    "take_along_axis": "x, indices, /, *, axis=-1",
    "argsort": "x, /, *, axis=-1, descending=False, stable=True",
    "sort": "x, /, *, axis=-1, descending=False, stable=True",
    "argmax": "x, /, *, axis=None, keepdims=False",
    "argmin": "x, /, *, axis=None, keepdims=False",
    "count_nonzero": "x, /, *, axis=None, keepdims=False",
    "nonzero": "x, /",
    "where": "condition, x1, x2, /",
    "sum": "x, /, *, axis=None, dtype=None, keepdims=False",
    "prod": "x, /, *, axis=None, dtype=None, keepdims=False",
    "max": "x, /, *, axis=None, keepdims=False",
    "min": "x, /, *, axis=None, keepdims=False",
    "mean": "x, /, *, axis=None, keepdims=False",
    "std": "x, /, *, axis=None, correction=0.0, keepdims=False",
    "var": "x, /, *, axis=None, correction=0.0, keepdims=False",
    "cumulative_sum": "x, /, *, axis=None, dtype=None, include_initial=False",
    "cumulative_prod": "x, /, *, axis=None, dtype=None,"
                       " include_initial=False",
    "all": "x, /, *, axis=None, keepdims=False",
    "any": "x, /, *, axis=None, keepdims=False",
    "diff": "x, /, *, axis=-1, n=1, prepend=None, append=None",
    "astype": "x, dtype, /, *, copy=True, device=None",
    "can_cast": "from_, to, /",
    "result_type": "*arrays_and_dtypes",
    "tril": "x, /, *, k=0",
    "triu": "x, /, *, k=0",
    "meshgrid": "*arrays, indexing='xy'",
    "empty_like": "x, /, *, dtype=None, device=None",
    "zeros_like": "x, /, *, dtype=None, device=None",
    "ones_like": "x, /, *, dtype=None, device=None",
    "full_like": "x, /, fill_value, *, dtype=None, device=None",
    "eye": "n_rows, n_cols=None, /, *, k=0, dtype=None, device=None",
    "linspace": "start, stop, /, num, *, dtype=None, device=None,"
                " endpoint=True",
    "tensordot": "x1, x2, /, *, axes=2",
    "vecdot": "x1, x2, /, *, axis=-1",
    "matmul": "x1, x2, /",
    "from_dlpack": "x, /, *, device=None, copy=None",
    "linalg.eig": "x, /",
    "linalg.eigvals": "x, /",
    "linalg.eigh": "x, /",
    "linalg.eigvalsh": "x, /",
    "linalg.cholesky": "x, /, *, upper=False",
    "linalg.cross": "x1, x2, /, *, axis=-1",
    "linalg.det": "x, /",
    "linalg.diagonal": "x, /, *, offset=0",
    "linalg.inv": "x, /",
    "linalg.matmul": "x1, x2, /",
    "linalg.matrix_norm": "x, /, *, keepdims=False, ord='fro'",
    "linalg.matrix_power": "x, n, /",
    "linalg.matrix_rank": "x, /, *, rtol=None",
    "linalg.matrix_transpose": "x, /",
    "linalg.outer": "x1, x2, /",
    "linalg.pinv": "x, /, *, rtol=None",
    "linalg.qr": "x, /, *, mode='reduced'",
    "linalg.slogdet": "x, /",
    "linalg.solve": "x1, x2, /",
    "linalg.svd": "x, /, *, full_matrices=True",
    "linalg.svdvals": "x, /",
    "linalg.tensordot": "x1, x2, /, *, axes=2",
    "linalg.trace": "x, /, *, offset=0, dtype=None",
    "linalg.vecdot": "x1, x2, /, *, axis=-1",
    "linalg.vector_norm": "x, /, *, axis=None, keepdims=False, ord=2",
    "fft.fft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.ifft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.rfft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.irfft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.hfft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.ihfft": "x, /, *, n=None, axis=-1, norm='backward'",
    "fft.fftn": "x, /, *, s=None, axes=None, norm='backward'",
    "fft.ifftn": "x, /, *, s=None, axes=None, norm='backward'",
    "fft.rfftn": "x, /, *, s=None, axes=None, norm='backward'",
    "fft.irfftn": "x, /, *, s=None, axes=None, norm='backward'",
    "fft.fftshift": "x, /, *, axes=None",
    "fft.ifftshift": "x, /, *, axes=None",
}


def _standard(params):
    ns = {}
    exec(f"def f({params}): pass", ns)  # the standard's text as a signature
    return inspect.signature(ns["f"])


def _resolve(name):
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return inspect.signature(obj)


@pytest.mark.parametrize("name", sorted(EXACT))
def test_exact_signature(name):
    want = list(_standard(EXACT[name]).parameters.values())
    got = list(_resolve(name).parameters.values())
    assert [(p.name, p.kind, p.default) for p in got[:len(want)]] == \
        [(p.name, p.kind, p.default) for p in want], name
    for p in got[len(want):]:
        assert p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD), (name, p)
        assert p.kind == p.VAR_KEYWORD or p.default is not p.empty


@pytest.mark.parametrize("name", sorted(CALLABLE))
def test_standard_calls_bind(name):
    want = _standard(CALLABLE[name])
    got = _resolve(name)
    pos, kw = [], {}
    for p in want.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            pos += [object(), object()]
        elif p.kind == p.POSITIONAL_ONLY:
            pos.append(object())
        else:
            kw[p.name] = object()
            param = got.parameters.get(p.name)
            assert param is not None, (name, p.name)
            assert param.kind in (param.POSITIONAL_OR_KEYWORD,
                                  param.KEYWORD_ONLY), (name, p.name)
    got.bind(*pos, **kw)
    # the standard's positional-or-keyword parameters positionally too
    n_pos = [p for p in want.parameters.values()
             if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty]
    if n_pos:
        got.bind(*(pos + [object()] * len(n_pos)))


def test_version_and_info():
    assert xp.__array_api_version__ == "2025.12"
    devs = xp.__array_namespace_info__().devices()
    assert isinstance(devs, tuple) and xp.Device("cpu", 0) in devs
    f = xp.finfo(xp.float32)
    for attr in ("eps", "max", "min", "smallest_normal"):
        assert type(getattr(f, attr)) is float
        assert getattr(f, attr) == float(getattr(np.finfo(np.float32), attr))
    assert type(f.bits) is int and f.bits == 32
    assert f.dtype == np.float32
    assert xp.finfo(xp.complex128).dtype == np.float64
    assert xp.finfo(xp.asarray([1.0])).bits == 64
    assert f.tiny == np.finfo(np.float32).tiny  # NumPy's extras pass through
    i = xp.iinfo(xp.uint64)
    assert type(i.max) is int and i.max == 2**64 - 1 and i.min == 0
    assert xp.iinfo(xp.int8).dtype == np.int8 and xp.iinfo(xp.int8).bits == 8
    with pytest.raises(ValueError):
        xp.iinfo(xp.float64)
    with pytest.raises(ValueError):
        xp.finfo(xp.int64)


def _same(got, want):
    g = xp.to_numpy(xp.asarray(got))
    assert g.shape == np.shape(want) and g.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(g, want)


def test_additions():
    assert xp.broadcast_shapes() == ()
    assert xp.broadcast_shapes((2, 1), (1, 3), (3,)) == (2, 3)
    with pytest.raises(ValueError):
        xp.broadcast_shapes((2,), (3,))
    a = np.arange(24.0).reshape(2, 3, 4)
    x = xp.asarray(a)
    for axis in ((0, 2), (-1, 0), (1, -1), (0, 1, 2)):
        _same(xp.expand_dims(x, axis=axis), np.expand_dims(a, axis))
    with pytest.raises((IndexError, ValueError)):
        xp.expand_dims(x, axis=(0, 0))
    with pytest.raises((IndexError, ValueError)):
        xp.expand_dims(x, axis=(5,))
    _same(xp.permute_dims(x, (-1, 0, -2)), np.transpose(a, (2, 0, 1)))
    with pytest.raises((IndexError, ValueError)):
        xp.permute_dims(x, (-4, 0, 1))
    s = np.array([1.0, 2.0, 2.0, 5.0])
    for v in (2.0, 0, 6, np.float64(2.0)):
        for side in ("left", "right"):
            _same(xp.searchsorted(xp.asarray(s), v, side=side),
                  np.searchsorted(s, v, side=side))
    r = xp.broadcast_arrays(xp.ones((2, 1)), xp.ones(3))
    assert isinstance(r, tuple) and r[0].shape == (2, 3)
    m = xp.meshgrid(xp.arange(3), xp.arange(2))
    assert isinstance(m, tuple) and m[0].shape == (2, 3)
    e = np.array([1.0, np.nan, 3.0])
    t = np.array([np.nan, 3.0])
    _same(xp.isin(xp.asarray(e), xp.asarray(t)), np.isin(e, t))
    _same(xp.isin(xp.asarray(e), xp.asarray(t), invert=True),
          np.isin(e, t, invert=True))
    _same(xp.isin(xp.arange(5), 3), np.isin(np.arange(5), 3))


def test_eig_and_eigvals():
    rng = np.random.default_rng(3)
    for dt in (np.float32, np.float64, np.complex64, np.complex128):
        a = rng.standard_normal((3, 4, 4)).astype(dt)
        if dt in (np.complex64, np.complex128):
            a = a + 1j * rng.standard_normal((3, 4, 4)).astype(dt)
        w, v = xp.linalg.eig(xp.asarray(a))
        ww = np.linalg.eigvals(a)
        assert w.dtype == ww.dtype and v.dtype == ww.dtype
        tol = 1e-3 if dt in (np.float32, np.complex64) else 1e-9
        wn, vn = xp.to_numpy(w), xp.to_numpy(v)
        np.testing.assert_allclose(a @ vn, vn * wn[..., None, :],
                                   rtol=tol, atol=tol)
        np.testing.assert_allclose(np.sort_complex(wn.ravel()),
                                   np.sort_complex(ww.ravel()), rtol=tol,
                                   atol=tol)
        assert xp.linalg.eig(xp.asarray(a)).eigenvalues.shape == (3, 4)
        ev = xp.to_numpy(xp.linalg.eigvals(xp.asarray(a)))
        np.testing.assert_allclose(np.sort_complex(ev.ravel()),
                                   np.sort_complex(ww.ravel()), rtol=tol,
                                   atol=tol)
    # a real matrix with real eigenvalues: real results, as NumPy
    s = np.array([[2.0, 1.0], [1.0, 3.0]])
    assert xp.linalg.eigvals(xp.asarray(s)).dtype == np.float64
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    assert xp.linalg.eigvals(xp.asarray(rot)).dtype == np.complex128
    with pytest.raises(Exception):
        xp.linalg.eig(xp.ones((2, 3)))


def test_unique_nan_distinct():
    a = np.array([np.nan, 1.0, np.nan, 1.0, -0.0, 0.0, np.nan])
    x = xp.asarray(a)
    vals, counts = xp.unique_counts(x)
    wv, wc = np.unique_counts(a)
    _same(vals, wv)
    _same(counts, wc)
    _same(xp.unique_values(x), np.unique_values(a))
    r = xp.unique_all(x)
    w = np.unique_all(a)
    _same(r.values, w.values)
    _same(r.counts, w.counts)
    _same(r.inverse_indices, w.inverse_indices)
    _same(xp.unique_inverse(x).inverse_indices,
          np.unique_inverse(a).inverse_indices)
    c = a + 1j * np.array([np.nan, 0, 0, 0, 0, 0, np.nan])
    _same(xp.unique_counts(xp.asarray(c)).counts, np.unique_counts(c).counts)


def test_clip_signature_and_values():
    a = np.array([-2, 0, 3, 7], dtype=np.int16)
    x = xp.asarray(a)
    _same(xp.clip(x, 0, 5), np.clip(a, 0, 5))
    _same(xp.clip(x, min=1), np.clip(a, min=1))
    _same(xp.clip(x, max=2), np.clip(a, max=2))
    _same(xp.clip(x, a_min=1, a_max=2), np.clip(a, 1, 2))
    _same(xp.clip(x, xp.asarray(np.int16(1)), None), np.clip(a, 1, None))
    f = np.array([np.nan, -np.inf, 0.5, np.inf])
    _same(xp.clip(xp.asarray(f), -1.0, 1.0), np.clip(f, -1.0, 1.0))
    out = xp.empty(4, dtype=xp.int16)
    assert xp.clip(x, 0, 5, out=out) is out
    _same(out, np.clip(a, 0, 5))
    with pytest.raises(TypeError):
        xp.clip(x, 0, min=1, a_min=1)
    with pytest.raises(TypeError):
        xp.clip(x, 0, 5, bogus=1)


def test_fftfreq_keywords():
    _same(xp.fft.fftfreq(8, d=0.25), np.fft.fftfreq(8, 0.25))
    _same(xp.fft.rfftfreq(9, d=2.0), np.fft.rfftfreq(9, 2.0))
    assert xp.fft.fftfreq(4, dtype=xp.float32).dtype == np.float32
    np.testing.assert_allclose(
        xp.to_numpy(xp.fft.rfftfreq(5, d=0.1, dtype=xp.float32)),
        np.fft.rfftfreq(5, 0.1).astype(np.float32))
    assert xp.fft.fftfreq(3, device=xp.Device("cpu", 0)).shape == (3,)
    _same(xp.fft.fftfreq(8, 0.25), np.fft.fftfreq(8, 0.25))  # NumPy's form
    with pytest.raises(ValueError):
        xp.fft.fftfreq(8, dtype=xp.int32)
    with pytest.raises(TypeError):
        xp.fft.fftfreq(8.5)


BIG = [2**64, 2**64 + 1, 2**100, -2**63 - 1, -2**90]


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "uint64"])
def test_big_int_comparisons(dt):
    a = np.array([0, 1, 100], dtype=dt)
    x = xp.asarray(a)
    for v in BIG:
        _same(x < v, a < v)
        _same(x <= v, a <= v)
        _same(x > v, a > v)
        _same(x >= v, a >= v)
        _same(x == v, a == v)
        _same(x != v, a != v)
        _same(v < x, v < a)
        _same(xp.less(x, v), np.less(a, v))
        _same(xp.equal(v, x), np.equal(v, a))
        _same(np.greater(x, v), np.greater(a, v))  # via __array_ufunc__
    f = np.array([1.0, 2.0**70, np.inf])
    _same(xp.asarray(f) < 2**70, f < 2**70)
    _same(xp.asarray(f) == 2**70, f == 2**70)
    with pytest.raises(OverflowError):
        xp.asarray(f) < 2**1100
    with pytest.raises(OverflowError):
        x + 2**64
    with pytest.raises(OverflowError):
        xp.asarray([True]) < 2**64


def test_asnumpy_and_get():
    a = xp.arange(6.0).reshape(2, 3)
    h = xp.asnumpy(a)
    assert type(h) is np.ndarray
    np.testing.assert_array_equal(h, np.arange(6.0).reshape(2, 3))
    assert type(a.get()) is np.ndarray
    np.testing.assert_array_equal(a.T.get(), h.T)
    assert xp.asnumpy(xp.asarray(3.0)).shape == ()


INF, NAN = float("inf"), float("nan")

# floor_divide's special cases with an infinite operand, from the
# standard's list: (x1, x2, result). NumPy 2.4 gives NaN for the first four
# and -1.0 for the two finite // infinity cases of opposite signs.
FLOOR_DIVIDE_CASES = [
    (INF, 3.0, INF), (INF, -3.0, -INF), (-INF, 3.0, -INF), (-INF, -3.0, INF),
    (5.0, -INF, -0.0), (-5.0, INF, -0.0),
    (5.0, INF, 0.0), (-5.0, -INF, 0.0), (INF, INF, NAN), (-INF, INF, NAN),
    (INF, NAN, NAN), (0.0, 2.0, 0.0), (-0.0, 2.0, -0.0), (0.0, -2.0, -0.0),
    (0.0, 0.0, NAN), (5.0, 0.0, INF), (5.0, -0.0, -INF), (-5.0, 0.0, -INF),
    (7.0, 2.0, 3.0), (-7.0, 2.0, -4.0), (0.5, -INF, -0.0),
]


def _bits_equal(got, want):
    if np.isnan(want):
        return np.isnan(got)
    return got == want and np.signbit(got) == np.signbit(want)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_floor_divide_special_cases(dt):
    a = np.array([c[0] for c in FLOOR_DIVIDE_CASES], dtype=dt)
    b = np.array([c[1] for c in FLOOR_DIVIDE_CASES], dtype=dt)
    for got in (xp.floor_divide(xp.asarray(a), xp.asarray(b)),
                xp.asarray(a) // xp.asarray(b),
                xp.asarray(a[::-1])[::-1] // xp.asarray(b[::-1])[::-1]):
        g = xp.to_numpy(got)
        assert g.dtype == dt
        for (x1, x2, want), v in zip(FLOOR_DIVIDE_CASES, g):
            assert _bits_equal(v, want), (x1, x2, v, want)
    # a scalar operand takes the same rule
    assert xp.to_numpy(xp.asarray(a[:4]) // 3.0).tolist() == \
        [INF, INF, -INF, -INF]


# expm1's special cases for complex operands (a + bj), from the standard;
# where it leaves a sign unspecified the result is C99 cexp's less one.
EXPM1_CASES = [
    (complex(0.0, 0.0), complex(0.0, 0.0)),
    (complex(1.0, INF), complex(NAN, NAN)),
    (complex(1.0, NAN), complex(NAN, NAN)),
    (complex(INF, 0.0), complex(INF, 0.0)),
    (complex(-INF, 1.0), complex(-1.0, 0.0)),
    (complex(INF, 1.0), complex(INF, INF)),
    (complex(-INF, INF), complex(-1.0, 0.0)),
    (complex(INF, INF), complex(INF, NAN)),
    (complex(-INF, NAN), complex(-1.0, 0.0)),
    (complex(INF, NAN), complex(INF, NAN)),
    (complex(NAN, 0.0), complex(NAN, 0.0)),
    (complex(NAN, 1.0), complex(NAN, NAN)),
    (complex(NAN, NAN), complex(NAN, NAN)),
]


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_expm1_complex_special_cases(dt):
    z = np.array([c[0] for c in EXPM1_CASES], dtype=dt)
    # expm1(conj(x)) == conj(expm1(x))
    for x, conjugate in ((z, False), (np.conj(z), True)):
        g = xp.to_numpy(xp.expm1(xp.asarray(x)))
        assert g.dtype == dt
        for (_, want), v, inp in zip(EXPM1_CASES, g, x):
            w = np.conj(want) if conjugate else want
            assert _bits_equal(v.real, w.real), (inp, v, w)
            assert _bits_equal(v.imag, w.imag), (inp, v, w)
    # finite values keep the accurate form
    small = np.array([1e-10 + 1e-10j, -2 + 3j], dtype=dt)
    np.testing.assert_allclose(xp.to_numpy(xp.expm1(xp.asarray(small))),
                               np.expm1(small), rtol=1e-5)


def test_setitem_and_clip_promotion():
    # setitem promotes value to self's dtype and never changes self's dtype
    for dt, values in ((np.float64, [np.float32(1.5), np.int8(3), 2, 2.5,
                                      True]),
                       (np.int16, [np.int8(-3), np.uint8(200), 7, True]),
                       (np.complex64, [np.float32(2.0), 1j, 3]),
                       (np.bool_, [True, np.bool_(False)])):
        for v in values:
            a = np.zeros(4, dtype=dt)
            x = xp.asarray(a.copy())
            arr = np.asarray(v)
            x[1:3] = xp.asarray(arr) if isinstance(v, np.generic) else v
            a[1:3] = v
            assert x.dtype == dt
            _same(x, a)
    # clip: Python scalar bounds are weak, the result keeps x's dtype
    for dt in (np.int8, np.uint16, np.float32):
        a = np.array([0, 5, 100], dtype=dt)
        got = xp.clip(xp.asarray(a), 1, 50)
        assert got.dtype == dt
        _same(got, np.clip(a, 1, 50))
    f = np.array([0.5, 2.0, np.nan], dtype=np.float32)
    _same(xp.clip(xp.asarray(f), 1.0, xp.asarray(np.float32(1.5))),
          np.clip(f, 1.0, np.float32(1.5)))


def test_array_namespace_versions():
    x = xp.ones(2)
    for v in (None, "2023.12", "2024.12", "2025.12"):
        assert x.__array_namespace__(api_version=v) is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2026.12")
