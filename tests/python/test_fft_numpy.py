"""Every cunumpy.fft function against numpy.fft: n / s, axis / axes, all
three norms, real and complex inputs of each precision, strided and
negative-stride views, and the errors NumPy raises."""
import numpy as np
import pytest

import cunumpy as xp

NORMS = [None, "backward", "ortho", "forward"]


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def close(got, want, dtype):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    g = xp.to_numpy(got)
    assert g.shape == want.shape
    # NumPy 2 keeps single precision too
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    tol = 2e-5 if single else 1e-12
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * scale)


def views(h):
    """(numpy view, cunumpy view) pairs: contiguous, strided, reversed."""
    d = xp.asarray(h)
    yield h, d
    yield h[..., ::2], d[..., ::2]
    yield h[::-1], d[::-1]


ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
REAL_IN = {"rfft", "ihfft"}


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128", "int32"])
@pytest.mark.parametrize("norm", NORMS)
def test_one_d(name, dtype, norm):
    if name in REAL_IN and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            getattr(np.fft, name)(data((4,), dtype))
        return
    h = data((6, 10), dtype) if dtype != "int32" else \
        np.arange(60, dtype=dtype).reshape(6, 10) % 7
    for hv, dv in views(h):
        for n in (None, 7, 16):
            for axis in (-1, 0):
                want = getattr(np.fft, name)(hv, n=n, axis=axis, norm=norm)
                got = getattr(xp.fft, name)(dv, n=n, axis=axis, norm=norm)
                close(got, want, want.dtype)


MANY = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2",
        "irfft2"]


@pytest.mark.parametrize("name", MANY)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("norm", NORMS)
def test_n_d(name, dtype, norm):
    if name.startswith("rfft") and np.dtype(dtype).kind == "c":
        return  # NumPy raises TypeError too; checked in test_errors
    h = data((4, 6, 8), dtype)
    cases = [dict(), dict(axes=(0, 2)), dict(axes=(-1, 0)),
             dict(s=(5, 4), axes=(1, 2)), dict(s=(3, 10), axes=(1, 2))]
    if name.endswith("2"):
        cases = [c for c in cases if len(c.get("axes", (0, 0))) == 2 and
                 len(c.get("s", (0, 0))) == 2]
    for hv, dv in views(h):
        for kw in cases:
            want = getattr(np.fft, name)(hv, norm=norm, **kw)
            got = getattr(xp.fft, name)(dv, norm=norm, **kw)
            close(got, want, want.dtype)


def test_freqs_and_shifts():
    for n in (1, 2, 7, 8):
        for d in (1.0, 0.25):
            close(xp.fft.fftfreq(n, d=d), np.fft.fftfreq(n, d), "float64")
            close(xp.fft.rfftfreq(n, d=d), np.fft.rfftfreq(n, d), "float64")
    h = np.arange(30.0).reshape(5, 6)
    for axes in (None, 0, (1,), (0, 1)):
        close(xp.fft.fftshift(xp.asarray(h), axes=axes),
              np.fft.fftshift(h, axes=axes), "float64")
        close(xp.fft.ifftshift(xp.asarray(h), axes=axes),
              np.fft.ifftshift(h, axes=axes), "float64")


def test_errors():
    a = xp.asarray(data((4, 4), "float64"))
    h = data((4, 4), "float64")
    for fn, kw in (("fft", dict(n=0)), ("fft", dict(n=-2)),
                   ("fft", dict(norm="sideways"))):
        with pytest.raises(ValueError):
            getattr(np.fft, fn)(h, **kw)
        with pytest.raises(ValueError):
            getattr(xp.fft, fn)(a, **kw)
    with pytest.raises(IndexError):
        xp.fft.fft(a, axis=2)
    with pytest.raises(TypeError):
        xp.fft.rfft(xp.asarray(data((4,), "complex128")))


def test_repeated_axes_transform_twice():
    h = data((4, 6), "complex128")
    for name in ("fftn", "ifftn", "fft2", "ifft2"):
        for kw in (dict(axes=(0, 0)), dict(axes=(1, 0, 1), s=(4, 4, 3))):
            close(getattr(xp.fft, name)(xp.asarray(h), **kw),
                  getattr(np.fft, name)(h, **kw), "complex128")


def test_out_argument():
    h = data((8,), "complex128")
    out = xp.empty(8, dtype="complex128")
    r = xp.fft.fft(xp.asarray(h), out=out)
    assert r is out
    close(out, np.fft.fft(h), "complex128")
