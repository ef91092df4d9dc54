"""convolve / correlate and cov / corrcoef against NumPy: every mode and
dtype, complex conjugation, swapped lengths, strided views, weights,
errors; and the same values from the engine-op composition a device
backend runs (CUNUMPY_CONV_METHOD, read once per process: a subprocess)."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import cunumpy as cn

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64,
          np.uint64, np.float32, np.float64, np.complex64, np.complex128]
LENGTHS = [(1, 1), (1, 4), (4, 1), (5, 5), (6, 3), (3, 6), (8, 2), (2, 8),
           (17, 16), (16, 17), (64, 9)]


def values(rng, n, dt):
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if np.issubdtype(dt, np.complexfloating):
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    if np.issubdtype(dt, np.unsignedinteger):
        return rng.integers(0, 40, n).astype(dt)
    if np.issubdtype(dt, np.integer):
        return rng.integers(-40, 40, n).astype(dt)
    return rng.standard_normal(n).astype(dt)


def tol(dt):
    return 2e-5 if dt in (np.float32, np.complex64) else 1e-12


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_conv_matches_numpy(dt, mode, fn):
    rng = np.random.default_rng(len(mode) + DTYPES.index(dt))
    for n1, n2 in LENGTHS:
        a, v = values(rng, n1, dt), values(rng, n2, dt)
        want = getattr(np, fn)(a, v, mode)
        got = getattr(cn, fn)(cn.asarray(a), cn.asarray(v), mode)
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (n1, n2)
        if np.issubdtype(dt, np.integer) or dt == np.bool_:
            # wrap-around included: exact
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=tol(dt),
                                       atol=tol(dt) * n2)


def test_conv_integer_wrap_and_mixed_dtypes():
    a = np.array([100, 120, -7], np.int8)
    v = np.array([3, 2], np.int8)
    for fn in ("convolve", "correlate"):
        np.testing.assert_array_equal(
            np.asarray(getattr(cn, fn)(cn.asarray(a), cn.asarray(v), "full")),
            getattr(np, fn)(a, v, "full"))
    x = np.array([1, 2, 3], np.int32)
    z = np.array([0.5 + 1j, -2j])
    for fn in ("convolve", "correlate"):
        want = getattr(np, fn)(x, z, "full")
        got = np.asarray(getattr(cn, fn)(cn.asarray(x), cn.asarray(z), "full"))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-14)


def test_conv_strided_and_reversed_views():
    rng = np.random.default_rng(1)
    base = rng.standard_normal(60) + 1j * rng.standard_normal(60)
    cb = cn.asarray(base)
    for sl in (slice(None, None, 3), slice(None, None, -2), slice(50, 3, -7)):
        a = base[sl]
        v = base[5:14][::-1]
        ca = cb[sl]
        cv = cb[5:14][::-1]
        for fn in ("convolve", "correlate"):
            for mode in ("full", "same", "valid"):
                np.testing.assert_allclose(
                    np.asarray(getattr(cn, fn)(ca, cv, mode)),
                    getattr(np, fn)(a, v, mode), rtol=1e-12, atol=1e-12)
                np.testing.assert_allclose(
                    np.asarray(getattr(cn, fn)(cv, ca, mode)),
                    getattr(np, fn)(v, a, mode), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n1,n2", [(20000, 500), (3000, 3000), (400, 5000)])
@pytest.mark.parametrize("cplx", [False, True])
def test_conv_long_kernels(n1, n2, cplx):
    # long kernels take the FFT product on the CPU: rounding differs only
    rng = np.random.default_rng(n1 + n2)
    a, v = rng.standard_normal(n1), rng.standard_normal(n2)
    if cplx:
        a = a + 1j * rng.standard_normal(n1)
        v = v + 1j * rng.standard_normal(n2)
    for fn in ("convolve", "correlate"):
        for mode in ("full", "same", "valid"):
            want = getattr(np, fn)(a, v, mode)
            got = np.asarray(getattr(cn, fn)(cn.asarray(a), cn.asarray(v),
                                             mode))
            scale = np.sqrt(min(n1, n2))
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * scale)


def test_conv_nonfinite_stay_local():
    a = np.ones(5000)
    a[100] = np.inf
    a[3000] = np.nan
    v = np.full(700, 0.25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.convolve(a, v, "same")
    got = np.asarray(cn.convolve(cn.asarray(a), cn.asarray(v), "same"))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-12)


def test_conv_errors():
    a = cn.asarray(np.arange(3.0))
    e = cn.asarray(np.zeros(0))
    for fn in ("convolve", "correlate"):
        with pytest.raises(ValueError):
            getattr(cn, fn)(e, a)
        with pytest.raises(ValueError):
            getattr(cn, fn)(a, e)
        with pytest.raises(ValueError):
            getattr(cn, fn)(cn.asarray(np.ones((2, 2))), a)
        with pytest.raises(ValueError):
            getattr(cn, fn)(a, a, "middle")
    np.testing.assert_array_equal(np.asarray(a), np.arange(3.0))


COMPOSED_SCRIPT = r"""
import numpy as np, cunumpy as cn
rng = np.random.default_rng(2)
for dt in (np.int16, np.bool_, np.float64, np.complex128, np.float32):
    for n1, n2 in ((7, 3), (3, 7), (1, 1), (40, 40), (300, 90)):
        if dt == np.bool_:
            a, v = rng.integers(0, 2, n1) > 0, rng.integers(0, 2, n2) > 0
        elif dt == np.int16:
            a, v = (rng.integers(-9, 9, n).astype(dt) for n in (n1, n2))
        else:
            a, v = (rng.standard_normal(n).astype(dt) for n in (n1, n2))
            if dt == np.complex128:
                a = a + 1j * rng.standard_normal(n1)
                v = v - 1j * rng.standard_normal(n2)
        for fn in ("convolve", "correlate"):
            for mode in ("full", "same", "valid"):
                want = getattr(np, fn)(a, v, mode)
                got = np.asarray(getattr(cn, fn)(cn.asarray(a),
                                                 cn.asarray(v), mode))
                assert got.dtype == want.dtype, (dt, fn)
                t = 1e-4 if dt == np.float32 else 1e-11
                np.testing.assert_allclose(got, want, rtol=t, atol=t)
print("ok")
"""


@pytest.mark.parametrize("method", ["composed", "fft"])
def test_conv_methods_in_subprocess(method):
    env = dict(os.environ, CUNUMPY_CONV_METHOD=method)
    out = subprocess.run([sys.executable, "-c", COMPOSED_SCRIPT], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ---- cov / corrcoef -------------------------------------------------------

def _m(rng, shape, dt):
    m = rng.standard_normal(shape)
    if np.issubdtype(dt, np.complexfloating):
        m = m + 1j * rng.standard_normal(shape)
    if dt == np.bool_:
        return m > 0
    if np.issubdtype(dt, np.integer):
        return (m * 10).astype(dt)
    return m.astype(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.bool_,
                                np.complex128, np.complex64])
@pytest.mark.parametrize("shape", [(3, 7), (7, 3), (1, 6), (6,), (5, 1),
                                   (2, 2), (40, 300)])
def test_cov_corrcoef_match_numpy(dt, shape):
    rng = np.random.default_rng(sum(shape))
    m = _m(rng, shape, dt)
    cm = cn.asarray(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rowvar in (True, False):
            for bias, ddof in ((False, None), (True, None), (False, 0),
                               (False, 2)):
                want = np.cov(m, rowvar=rowvar, bias=bias, ddof=ddof)
                got = np.asarray(cn.cov(cm, rowvar=rowvar, bias=bias,
                                        ddof=ddof))
                assert got.shape == want.shape and got.dtype == want.dtype
                nobs = (m.shape[-1] if rowvar or m.ndim == 1
                        else m.shape[0])
                dof = nobs - (ddof if ddof is not None else 1 - bias)
                if dof <= 0 and np.iscomplexobj(m):
                    # times inf: the imaginary parts of the diagonal are
                    # 0 or gemm rounding, giving nan or inf
                    np.testing.assert_array_equal(np.isinf(got.real),
                                                  np.isinf(want.real))
                    continue
                np.testing.assert_allclose(got, want, rtol=1e-10,
                                           atol=1e-12)
            want = np.corrcoef(m, rowvar=rowvar)
            got = np.asarray(cn.corrcoef(cm, rowvar=rowvar))
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
            assert np.all(np.abs(got.real[np.isfinite(got.real)]) <= 1)


@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_weights_y_dtype(rowvar):
    rng = np.random.default_rng(4)
    m = rng.standard_normal((4, 9))
    y = rng.standard_normal((2, 9))
    if not rowvar:
        m, y = m.T, y.T
    fw = rng.integers(0, 4, 9)
    fw[0] = 1
    aw = rng.random(9)
    cm, cy = cn.asarray(m), cn.asarray(y)
    cf, ca = cn.asarray(fw), cn.asarray(aw)
    for f, a, cf_, ca_ in ((fw, None, cf, None), (None, aw, None, ca),
                           (fw, aw, cf, ca)):
        for ddof in (None, 0, 1, 3):
            want = np.cov(m, y, rowvar=rowvar, fweights=f, aweights=a,
                          ddof=ddof)
            got = np.asarray(cn.cov(cm, cy, rowvar=rowvar, fweights=cf_,
                                    aweights=ca_, ddof=ddof))
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
    for dtype in (np.float32, np.complex128):
        want = np.cov(m, rowvar=rowvar, dtype=dtype)
        got = np.asarray(cn.cov(cm, rowvar=rowvar, dtype=dtype))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5)
    # a strided, reversed view
    sl = (slice(None, None, -1), slice(None, None, 2))
    np.testing.assert_allclose(
        np.asarray(cn.cov(cn.asarray(m)[sl], rowvar=rowvar)),
        np.cov(m[sl], rowvar=rowvar), rtol=1e-12)


def test_cov_empty_and_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shape in ((0, 3), (2, 0), (0,)):
            m = np.zeros(shape)
            want = np.cov(m)
            got = np.asarray(cn.cov(cn.asarray(m)))
            assert got.shape == want.shape
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    m = cn.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError):
        cn.cov(cn.asarray(np.ones((2, 2, 2))))
    with pytest.raises(TypeError):
        cn.cov(m, fweights=cn.asarray(np.array([1.0, 0.5, 1.0])))
    with pytest.raises(ValueError):
        cn.cov(m, aweights=cn.asarray(np.array([1.0, -1.0, 1.0])))
    with pytest.raises(RuntimeError):
        cn.cov(m, fweights=cn.asarray(np.array([1, 1])))
    with pytest.raises(ZeroDivisionError):
        cn.cov(m, fweights=cn.asarray(np.array([0, 0, 0])))
    np.testing.assert_array_equal(np.asarray(m), np.arange(6.0).reshape(2, 3))
