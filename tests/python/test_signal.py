"""cunumpy.signal against scipy.signal: convolution and correlation (every
mode and method, n-d, dtypes, strided inputs, boundaries), linear filters
(lfilter / sosfilt with state and axis, zero-phase forms), rank filters,
hilbert, detrend, Savitzky-Golay, windows; and the errors."""
import numpy as np
import pytest

scipy_signal = pytest.importorskip("scipy.signal")

import cunumpy as cn  # noqa: E402
import cunumpy.signal as cs  # noqa: E402
from cunumpy.signal import windows as cw  # noqa: E402

ss = scipy_signal
MODES = ["full", "same", "valid"]


def host(a):
    return cn.to_numpy(a)


def tol(dt):
    return 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def values(rng, shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "c":
        return (rng.standard_normal(shape) +
                1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "ui":
        return rng.integers(0 if dt.kind == "u" else -20, 20,
                            shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def close(got, want, dt=np.float64, dtype=True):
    got = host(got)
    want = np.asarray(want)
    assert got.shape == want.shape
    if dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol(dt), atol=tol(dt) * scale)


# ---- convolve / correlate ----------------------------------------------


SHAPES = [((7,), (3,)), ((3,), (7,)), ((8,), (4,)), ((1,), (1,)),
          ((5, 6), (2, 3)), ((2, 3), (5, 6)), ((6, 5), (3, 4)),
          ((4, 3, 5), (2, 3, 2)), ((40,), (9,))]


@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("s1,s2", SHAPES)
def test_convolve_correlate_nd(s1, s2, mode, method):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(s1)
    b = rng.standard_normal(s2)
    if mode == "valid" and not (all(i >= j for i, j in zip(s1, s2)) or
                                all(j >= i for i, j in zip(s1, s2))):
        return
    close(cs.convolve(a, b, mode, method), ss.convolve(a, b, mode, method))
    close(cs.correlate(a, b, mode, method), ss.correlate(a, b, mode, method))


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint8, np.int32,
                                np.int64, np.float32, np.float64,
                                np.complex64, np.complex128])
@pytest.mark.parametrize("method", ["direct", "auto"])
def test_convolve_dtypes(dt, method):
    rng = np.random.default_rng(2)
    a = values(rng, (9, 4), dt)
    b = values(rng, (3, 2), dt)
    if dt == np.bool_:  # SciPy's n-d sum has no bool loop: or of ands
        ai, bi = a.astype(int), b.astype(int)
        for mode in MODES:
            close(cs.convolve(a, b, mode, method),
                  ss.convolve(ai, bi, mode, "direct") != 0)
            close(cs.correlate(a, b, mode, method),
                  ss.correlate(ai, bi, mode, "direct") != 0)
        return
    for mode in MODES:
        close(cs.convolve(a, b, mode, method),
              ss.convolve(a, b, mode, method), dt)
        close(cs.correlate(a, b, mode, method),
              ss.correlate(a, b, mode, method), dt)


def test_convolve_int_fft_rounds_back():
    rng = np.random.default_rng(3)
    a = rng.integers(-50, 50, 30)
    b = rng.integers(-50, 50, 7)
    got = cs.convolve(a, b, method="fft")
    assert host(got).dtype == np.int64
    np.testing.assert_array_equal(host(got), ss.convolve(a, b, method="fft"))


def test_convolve_complex_swapped_valid():
    rng = np.random.default_rng(4)
    a = values(rng, (3, 3), np.complex128)
    b = values(rng, (4, 5), np.complex128)
    for method in ("direct", "fft"):
        close(cs.correlate(a, b, "valid", method),
              ss.correlate(a, b, "valid", method))
        close(cs.convolve(a, b, "valid", method),
              ss.convolve(a, b, "valid", method))


def test_convolve_strided_and_negative_strides():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((10, 12))
    b = rng.standard_normal((4, 6))
    ca = cn.asarray(a)[::2, ::-1]
    cb = cn.asarray(b)[:, ::2]
    for mode in MODES:
        close(cs.convolve(ca, cb, mode), ss.convolve(a[::2, ::-1], b[:, ::2],
                                                     mode))


def test_convolve_auto_large_uses_fft_values():
    rng = np.random.default_rng(6)
    a = rng.standard_normal(5000)
    b = rng.standard_normal(600)
    close(cs.convolve(a, b), ss.convolve(a, b, method="direct"))
    close(cs.convolve(a, b, "same"), ss.convolve(a, b, "same"))


def test_convolve_nonfinite_stays_local():
    a = np.ones(3000)
    a[10] = np.nan
    a[2000] = np.inf
    b = np.ones(500)
    got = host(cs.convolve(a, b))
    want = ss.convolve(a, b, method="direct")
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-9)


def test_convolve_edge_shapes():
    assert host(cs.convolve(np.float64(2.0), np.float64(3.0))) == 6.0
    c = host(cs.correlate(np.complex128(2j), np.complex128(1j)))
    assert c == ss.correlate(np.complex128(2j), np.complex128(1j))
    e = host(cs.convolve(np.ones((0, 3)), np.ones((2, 2))))
    assert e.size == 0


def test_convolve_errors():
    with pytest.raises(ValueError):
        cs.convolve(np.ones(3), np.ones(2), mode="bad")
    with pytest.raises(ValueError):
        cs.convolve(np.ones(3), np.ones(2), method="bad")
    with pytest.raises(ValueError):
        cs.convolve(np.ones((2, 3)), np.ones(3))
    with pytest.raises(ValueError):
        cs.convolve(np.ones((2, 3)), np.ones((3, 2)), "valid")
    with pytest.raises(ValueError):
        cs.fftconvolve(np.ones((2, 3)), np.ones((3, 2)), "valid")
    with pytest.raises(ValueError):
        cs.convolve(np.ones(3, bool), np.ones(2, bool), method="fft")


@pytest.mark.parametrize("mode", MODES)
def test_fftconvolve_axes(mode):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 30))
    b = rng.standard_normal((1, 7))
    close(cs.fftconvolve(a, b, mode, axes=1), ss.fftconvolve(a, b, mode,
                                                             axes=1))
    close(cs.fftconvolve(a, b, mode), ss.fftconvolve(a, b, mode))
    close(cs.oaconvolve(a, b, mode, axes=[-1]),
          ss.oaconvolve(a, b, mode, axes=[-1]))
    c = rng.standard_normal((4, 30)) + 1j * rng.standard_normal((4, 30))
    close(cs.fftconvolve(c, b, mode, axes=1), ss.fftconvolve(c, b, mode,
                                                             axes=1))
    f = a.astype(np.float32)
    close(cs.fftconvolve(f, b.astype(np.float32), mode),
          ss.fftconvolve(f, b.astype(np.float32), mode), np.float32)
    with pytest.raises(ValueError):
        cs.fftconvolve(np.ones((3, 4)), np.ones((2, 3)), axes=1)
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions")
                       else Exception):
        cs.fftconvolve(a, b, axes=5)


@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kshape", [(3, 4), (5, 3), (8, 9)])
def test_convolve2d_correlate2d(boundary, mode, kshape):
    rng = np.random.default_rng(8)
    a = rng.standard_normal((6, 7))
    k = rng.standard_normal(kshape)
    if mode == "valid" and kshape == (8, 9):
        a = rng.standard_normal((4, 5))
    for fv in (0, 1.5):
        close(cs.convolve2d(a, k, mode, boundary, fv),
              ss.convolve2d(a, k, mode, boundary, fv))
        close(cs.correlate2d(a, k, mode, boundary, fv),
              ss.correlate2d(a, k, mode, boundary, fv))


def test_convolve2d_complex_and_errors():
    rng = np.random.default_rng(9)
    a = values(rng, (5, 4), np.complex128)
    k = values(rng, (2, 3), np.complex128)
    for mode in MODES:
        close(cs.convolve2d(a, k, mode, "wrap"),
              ss.convolve2d(a, k, mode, "wrap"))
        close(cs.correlate2d(a, k, mode, "symm"),
              ss.correlate2d(a, k, mode, "symm"))
    with pytest.raises(ValueError):
        cs.convolve2d(np.ones(3), np.ones(2))
    with pytest.raises(ValueError):
        cs.convolve2d(np.ones((3, 3)), np.ones((2, 2)), boundary="nope")
    with pytest.raises(ValueError):
        cs.correlate2d(np.ones((3, 3)), np.ones((2, 2)), mode="nope")


# ---- linear filters ---------------------------------------------------


FILTERS = [([1.0], [1.0]), ([0.5, 0.25], [1.0]), ([1.0], [1.0, -0.5]),
           ([0.2, 0.3, 0.1], [2.0, -0.4, 0.1]),
           tuple(ss.butter(8, 0.2)), tuple(ss.cheby1(5, 1, 0.3)),
           ([1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 0.1])]


@pytest.mark.parametrize("b,a", FILTERS)
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_lfilter(b, a, axis):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((6, 50, 3))
    close(cs.lfilter(b, a, x, axis=axis), ss.lfilter(b, a, x, axis=axis))
    n = max(len(a), len(b)) - 1
    zshape = list(x.shape)
    zshape[axis] = n
    zi = rng.standard_normal(zshape)
    zi_before = zi.copy()
    y, zf = cs.lfilter(b, a, x, axis=axis, zi=zi)
    np.testing.assert_array_equal(zi, zi_before)  # inputs stay untouched
    wy, wzf = ss.lfilter(b, a, x, axis=axis, zi=zi)
    close(y, wy)
    close(zf, wzf)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64,
                                np.complex128])
def test_lfilter_dtypes(dt):
    rng = np.random.default_rng(11)
    b = values(rng, 3, dt)
    a = np.array([1.0, -0.3, 0.1]).astype(dt)
    x = values(rng, (2, 40), dt)
    close(cs.lfilter(b, a, x), ss.lfilter(b, a, x), dt)
    # strided, reversed input
    close(cs.lfilter(b, a, cn.asarray(x)[:, ::-2]),
          ss.lfilter(b, a, x[:, ::-2]), dt)
    xi = np.arange(10)
    close(cs.lfilter([1.0, 1.0], [1.0], xi), ss.lfilter([1.0, 1.0], [1.0],
                                                        xi.astype(float)))


def test_lfilter_edges_and_errors():
    close(cs.lfilter([1.0, 2.0], [1.0, 0.5], np.zeros(0)),
          ss.lfilter([1.0, 2.0], [1.0, 0.5], np.zeros(0)))
    close(cs.lfilter([1.0, 2.0], [1.0], np.ones(1)),
          ss.lfilter([1.0, 2.0], [1.0], np.ones(1)))
    x = np.array([1.0, np.nan, 2.0, 3.0])
    close(cs.lfilter([1.0], [1.0, 0.5], x), ss.lfilter([1.0], [1.0, 0.5], x))
    # a broadcast zi (extent 1 on the other axes)
    x = np.ones((3, 8))
    zi = np.array([[0.5, 0.25]])
    y, zf = cs.lfilter([1.0, 1.0, 1.0], [1.0], x, zi=zi)
    wy, wzf = ss.lfilter([1.0, 1.0, 1.0], [1.0], x,
                         zi=np.broadcast_to(zi, (3, 2)))
    close(y, wy)
    close(zf, wzf)
    with pytest.raises(ValueError):
        cs.lfilter([], [1.0], np.ones(3))
    with pytest.raises(ValueError):
        cs.lfilter([1.0], [0.0, 1.0], np.ones(3))
    with pytest.raises(ValueError):
        cs.lfilter([1.0, 1.0], [1.0], np.ones(3), zi=np.ones(3))
    with pytest.raises(ValueError):
        cs.lfilter(np.ones((2, 2)), [1.0], np.ones(3))
    with pytest.raises(Exception):
        cs.lfilter([1.0], [1.0], np.ones(3), axis=2)


@pytest.mark.parametrize("order,wn", [(1, 0.3), (4, 0.2), (8, 0.05)])
@pytest.mark.parametrize("axis", [0, -1])
def test_sosfilt(order, wn, axis):
    sos = ss.butter(order, wn, output="sos")
    rng = np.random.default_rng(12)
    x = rng.standard_normal((5, 64))
    close(cs.sosfilt(sos, x, axis=axis), ss.sosfilt(sos, x, axis=axis))
    zshape = [sos.shape[0]] + list(x.shape)
    zshape[axis % 2 + 1] = 2
    zi = rng.standard_normal(zshape)
    zi_before = zi.copy()
    y, zf = cs.sosfilt(sos, x, axis=axis, zi=zi)
    np.testing.assert_array_equal(zi, zi_before)
    wy, wzf = ss.sosfilt(sos, x, axis=axis, zi=zi)
    close(y, wy)
    close(zf, wzf)
    xf = x.astype(np.float32)
    close(cs.sosfilt(sos.astype(np.float32), xf, axis=axis),
          ss.sosfilt(sos.astype(np.float32), xf, axis=axis), np.float32)
    xc = values(rng, (3, 20), np.complex128)
    close(cs.sosfilt(sos, xc), ss.sosfilt(sos, xc))


def test_sosfilt_errors():
    with pytest.raises(ValueError):
        cs.sosfilt(np.ones((2, 5)), np.ones(4))
    with pytest.raises(ValueError):
        cs.sosfilt(np.ones(6), np.ones(4)) if False else \
            cs.sosfilt(np.ones((1, 2, 6)), np.ones(4))
    sos = np.array([[1.0, 0, 0, 2.0, 0, 0]])
    with pytest.raises(ValueError):
        cs.sosfilt(sos, np.ones(4))
    with pytest.raises(ValueError):
        cs.sosfilt(ss.butter(2, 0.2, output="sos"), np.ones(4),
                   zi=np.zeros((1, 3)))


def test_filter_state_design():
    for b, a in FILTERS[1:]:
        close(cs.lfilter_zi(b, a), ss.lfilter_zi(b, a))
    sos = ss.cheby2(6, 40, 0.25, output="sos")
    close(cs.sosfilt_zi(sos), ss.sosfilt_zi(sos))


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("axis", [0, -1])
def test_filtfilt_sosfiltfilt(padtype, axis):
    rng = np.random.default_rng(13)
    x = rng.standard_normal((40, 60))
    b, a = ss.butter(4, 0.15)
    close(cs.filtfilt(b, a, x, axis=axis, padtype=padtype),
          ss.filtfilt(b, a, x, axis=axis, padtype=padtype))
    close(cs.filtfilt(b, a, x, axis=axis, padtype=padtype, padlen=5),
          ss.filtfilt(b, a, x, axis=axis, padtype=padtype, padlen=5))
    sos = ss.butter(6, 0.3, output="sos")
    close(cs.sosfiltfilt(sos, x, axis=axis, padtype=padtype),
          ss.sosfiltfilt(sos, x, axis=axis, padtype=padtype))


def test_filtfilt_errors():
    b, a = ss.butter(4, 0.15)
    with pytest.raises(ValueError):
        cs.filtfilt(b, a, np.ones(10))  # padlen 15 >= 10
    with pytest.raises(ValueError):
        cs.filtfilt(b, a, np.ones(100), padtype="bogus")
    with pytest.raises(ValueError):
        cs.sosfiltfilt(ss.butter(4, 0.1, output="sos"), np.ones(10))


# ---- rank filters ------------------------------------------------------


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16,
                                np.uint8])
def test_order_filter_medfilt(dt):
    rng = np.random.default_rng(14)
    x = values(rng, (9, 11), dt)
    dom = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    for rank in (0, 2, 5):
        close(cs.order_filter(x, dom, rank), ss.order_filter(x, dom, rank),
              dt)
    close(cs.medfilt(x, [3, 5]), ss.medfilt(x, [3, 5]), dt)
    close(cs.medfilt(x), ss.medfilt(x), dt)
    if dt in (np.float64, np.float32, np.uint8):
        close(cs.medfilt2d(x, 5), ss.medfilt2d(x, 5), dt)
    v = values(rng, 50, dt)
    close(cs.medfilt(v, 7), ss.medfilt(v, 7), dt)
    close(cs.medfilt(cn.asarray(v)[::-3], 3), ss.medfilt(v[::-3], 3), dt)


def test_order_filter_errors():
    with pytest.raises(ValueError):
        cs.order_filter(np.ones(5), np.ones(2), 0)
    with pytest.raises(ValueError):
        cs.order_filter(np.ones(5), np.ones(3), 3)
    with pytest.raises(ValueError):
        cs.order_filter(np.ones(5), np.ones((3, 3)), 0)
    with pytest.raises(ValueError):
        cs.medfilt(np.ones(5), 4)
    with pytest.raises(TypeError):
        cs.order_filter(np.ones(5, complex), np.ones(3), 0)


# ---- hilbert, detrend, Savitzky-Golay ----------------------------------


def test_hilbert():
    rng = np.random.default_rng(15)
    x = rng.standard_normal((3, 21))
    close(cs.hilbert(x), ss.hilbert(x))
    close(cs.hilbert(x, N=32), ss.hilbert(x, N=32))
    close(cs.hilbert(x, axis=0), ss.hilbert(x, axis=0))
    close(cs.hilbert(x[0, :1]), ss.hilbert(x[0, :1]))
    with pytest.raises(ValueError):
        cs.hilbert(x + 1j)
    with pytest.raises(ValueError):
        cs.hilbert(x, N=0)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32])
def test_detrend(dt):
    rng = np.random.default_rng(16)
    x = (rng.standard_normal((4, 30)) * 10).astype(dt)
    for axis in (0, -1):
        close(cs.detrend(x, axis=axis), ss.detrend(x, axis=axis), dt)
        close(cs.detrend(x, axis=axis, type="constant"),
              ss.detrend(x, axis=axis, type="constant"), dt)
    close(cs.detrend(x, bp=[7, 19]), ss.detrend(x, bp=[7, 19]), dt)
    with pytest.raises(ValueError):
        cs.detrend(x, type="quadratic")


@pytest.mark.parametrize("wl,po", [(5, 2), (6, 3), (7, 0), (9, 4)])
@pytest.mark.parametrize("mode", ["interp", "mirror", "nearest", "constant",
                                  "wrap"])
def test_savgol(wl, po, mode):
    rng = np.random.default_rng(17)
    x = rng.standard_normal((3, 30))
    for deriv in (0, 1):
        for axis in (-1, 0):
            if mode == "interp" and x.shape[axis] < wl:
                continue
            close(cs.savgol_filter(x, wl, po, deriv=deriv, delta=0.5,
                                   axis=axis, mode=mode, cval=0.5),
                  ss.savgol_filter(x, wl, po, deriv=deriv, delta=0.5,
                                   axis=axis, mode=mode, cval=0.5))
    close(cs.savgol_coeffs(wl, po), ss.savgol_coeffs(wl, po))
    close(cs.savgol_coeffs(wl, po, deriv=1, pos=1, use="dot"),
          ss.savgol_coeffs(wl, po, deriv=1, pos=1, use="dot"))


def test_savgol_errors():
    with pytest.raises(ValueError):
        cs.savgol_coeffs(3, 3)
    with pytest.raises(ValueError):
        cs.savgol_filter(np.ones(10), 5, 2, mode="bogus")
    with pytest.raises(ValueError):
        cs.savgol_filter(np.ones(4), 5, 2)


# ---- windows -------------------------------------------------------------


WINDOWS = [("boxcar",), ("triang",), ("bartlett",), ("hann",), ("hamming",),
           ("blackman",), ("blackmanharris",), ("nuttall",), ("flattop",),
           ("kaiser", 8.6), ("gaussian", 2.5), ("general_gaussian", 1.5, 7),
           ("tukey", 0.3), ("cosine",), ("exponential", None, 3.0),
           ("chebwin", 60), ("dpss", 2.5)]


@pytest.mark.parametrize("spec", WINDOWS, ids=lambda s: s[0])
@pytest.mark.parametrize("M", [0, 1, 2, 7, 16, 51])
def test_windows(spec, M):
    name, args = spec[0], spec[1:]
    if name == "chebwin" and M < 2 or name == "dpss" and M <= 2 * args[0]:
        return
    for sym in (True, False):
        close(getattr(cw, name)(M, *args, sym=sym),
              getattr(ss.windows, name)(M, *args, sym=sym))
    if M == 0:
        with pytest.raises(ValueError):
            cs.get_window(name if not args else (name,) + args, M)
        return
    if name == "exponential":
        args = (None, 3.0)
        close(cs.get_window(("exponential",) + args, M),
              ss.get_window(("exponential",) + args, M))
        return
    for fftbins in (True, False):
        w = (name,) + args if args else name
        close(cs.get_window(w, M, fftbins=fftbins),
              ss.get_window(w, M, fftbins=fftbins))


def test_windows_extra():
    close(cw.tukey(20, 0), ss.windows.tukey(20, 0))
    close(cw.tukey(20, 1.0), ss.windows.tukey(20, 1.0))
    close(cw.dpss(32, 3, Kmax=4), ss.windows.dpss(32, 3, Kmax=4))
    close(cw.dpss(33, 3, Kmax=3, sym=False),
          ss.windows.dpss(33, 3, Kmax=3, sym=False))
    close(cw.dpss(32, 2, norm="subsample"),
          ss.windows.dpss(32, 2, norm="subsample"))
    w, r = cw.dpss(40, 4, Kmax=3, return_ratios=True)
    ww, wr = ss.windows.dpss(40, 4, Kmax=3, return_ratios=True)
    close(w, ww)
    close(r, wr)
    close(cs.get_window(8.6, 16), ss.get_window(8.6, 16))
    close(cs.get_window("hann", 9), ss.get_window("hann", 9))
    with pytest.raises(ValueError):
        cs.get_window("kaiser", 16)
    with pytest.raises(ValueError):
        cs.get_window("nosuch", 16)
    with pytest.raises(ValueError):
        cw.hann(-1)
    with pytest.raises(ValueError):
        cw.exponential(10, center=3, sym=True)
    with pytest.raises(ValueError):
        cw.dpss(10, 6)


# ---- resampling -------------------------------------------------------------


@pytest.mark.parametrize("up,down", [(1, 1), (3, 2), (2, 3), (1, 4), (5, 1),
                                     (4, 6)])
def test_upfirdn_resample_poly(up, down):
    rng = np.random.default_rng(18)
    x = rng.standard_normal((3, 41))
    h = rng.standard_normal(9)
    for axis in (0, 1, -1):
        close(cs.upfirdn(h, x, up, down, axis=axis),
              ss.upfirdn(h, x, up, down, axis=axis))
        close(cs.resample_poly(x, up, down, axis=axis),
              ss.resample_poly(x, up, down, axis=axis))
    xc = values(rng, (2, 30), np.complex128)
    close(cs.upfirdn(h, xc, up, down), ss.upfirdn(h, xc, up, down))
    xf = x.astype(np.float32)
    close(cs.upfirdn(h.astype(np.float32), xf, up, down),
          ss.upfirdn(h.astype(np.float32), xf, up, down), np.float32)
    close(cs.resample_poly(x.T, up, down, window=np.hanning(15)),
          ss.resample_poly(x.T, up, down, window=np.hanning(15)))
    close(cs.upfirdn(h, x[:, :1], up, down), ss.upfirdn(h, x[:, :1], up,
                                                        down))


def test_upfirdn_errors():
    with pytest.raises(ValueError):
        cs.upfirdn([], np.ones(4))
    with pytest.raises(ValueError):
        cs.upfirdn(np.ones((2, 2)), np.ones(4))
    with pytest.raises(ValueError):
        cs.upfirdn([1.0], np.ones(4), 0, 1)
    with pytest.raises(ValueError):
        cs.resample_poly(np.ones(4), 0, 1)


@pytest.mark.parametrize("num", [7, 8, 50, 51, 100, 151])
def test_resample(num):
    rng = np.random.default_rng(19)
    x = rng.standard_normal((3, 100))
    xc = x + 1j * x[::-1]
    w = rng.random(100)
    close(cs.resample(x, num, axis=1), ss.resample(x, num, axis=1))
    close(cs.resample(xc, num, axis=1), ss.resample(xc, num, axis=1))
    close(cs.resample(x.T, num, window=w), ss.resample(x.T, num, window=w))
    close(cs.resample(xc, num, axis=-1, window="hann"),
          ss.resample(xc, num, axis=-1, window="hann"))
    t = np.arange(100) * 0.1
    y, nt = cs.resample(x, num, t=t, axis=1)
    wy, wnt = ss.resample(x, num, t=t, axis=1)
    close(y, wy)
    close(nt, wnt)


@pytest.mark.parametrize("ftype", ["iir", "fir"])
@pytest.mark.parametrize("zero_phase", [True, False])
def test_decimate(ftype, zero_phase):
    rng = np.random.default_rng(20)
    x = rng.standard_normal((2, 300))
    for q in (2, 3, 5):
        close(cs.decimate(x, q, ftype=ftype, zero_phase=zero_phase),
              ss.decimate(x, q, ftype=ftype, zero_phase=zero_phase))
        close(cs.decimate(x.T, q, ftype=ftype, zero_phase=zero_phase,
                          axis=0),
              ss.decimate(x.T, q, ftype=ftype, zero_phase=zero_phase,
                          axis=0))
    close(cs.decimate(x, 4, n=4), ss.decimate(x, 4, n=4))


# ---- filter design and responses -----------------------------------------


def test_firwin_firwin2():
    cases = [((31, 0.3), {}), ((31, [0.2, 0.5]), {"pass_zero": False}),
             ((31, 0.4), {"pass_zero": "highpass", "width": 0.1}),
             ((41, [0.1, 0.3, 0.6]), {"pass_zero": False,
                                      "window": ("kaiser", 6.0)}),
             ((33, [200, 400]), {"pass_zero": "bandstop", "fs": 2000}),
             ((16, 0.3), {"scale": False, "window": "hann"})]
    for args, kw in cases:
        close(cs.firwin(*args, **kw), ss.firwin(*args, **kw))
    close(cs.firwin2(31, [0, 0.3, 0.5, 1], [1, 1, 0, 0]),
          ss.firwin2(31, [0, 0.3, 0.5, 1], [1, 1, 0, 0]))
    close(cs.firwin2(30, [0, 0.4, 0.4, 1], [1, 1, 0, 0]),
          ss.firwin2(30, [0, 0.4, 0.4, 1], [1, 1, 0, 0]))
    close(cs.firwin2(31, [0, 100, 500], [0, 1, 0], fs=1000,
                     antisymmetric=True),
          ss.firwin2(31, [0, 100, 500], [0, 1, 0], fs=1000,
                     antisymmetric=True))
    with pytest.raises(ValueError):
        cs.firwin(30, 0.4, pass_zero=False)  # even taps, gain at Nyquist
    with pytest.raises(ValueError):
        cs.firwin(31, 1.2)
    with pytest.raises(ValueError):
        cs.firwin(31, [0.5, 0.2])
    with pytest.raises(ValueError):
        cs.firwin2(30, [0, 0.5, 1], [1, 1, 1])


@pytest.mark.parametrize("ftype", ["butter", "cheby1", "cheby2", "bessel",
                                   "ellip"])
@pytest.mark.parametrize("btype,wn", [("low", 0.3), ("high", 0.2),
                                      ("bandpass", [0.2, 0.5]),
                                      ("bandstop", [0.1, 0.6])])
@pytest.mark.parametrize("N", [1, 4, 5])
def test_iir_design(ftype, btype, wn, N):
    args = {"butter": (), "cheby1": (1.0,), "cheby2": (40.0,),
            "bessel": (), "ellip": (1.0, 40.0)}[ftype]
    b, a = getattr(cs, ftype)(N, *args, wn, btype=btype)
    wb, wa = getattr(ss, ftype)(N, *args, wn, btype=btype)
    close(b, wb)
    close(a, wa)
    z, p, k = getattr(cs, ftype)(N, *args, wn, btype=btype, output="zpk")
    wz, wp, wk = getattr(ss, ftype)(N, *args, wn, btype=btype, output="zpk")
    np.testing.assert_allclose(np.sort_complex(host(p)), np.sort_complex(wp),
                               atol=1e-10)
    np.testing.assert_allclose(np.sort_complex(host(z)), np.sort_complex(wz),
                               atol=1e-8)
    assert abs(k - wk) <= 1e-10 * abs(wk)
    # the sections may be paired otherwise; the cascade must filter alike
    sos = getattr(cs, ftype)(N, *args, wn, btype=btype, output="sos")
    wsos = getattr(ss, ftype)(N, *args, wn, btype=btype, output="sos")
    x = np.random.default_rng(21).standard_normal(200)
    close(cs.sosfilt(sos, x), ss.sosfilt(wsos, x))
    # analog designs and fs in Hz
    b, a = getattr(cs, ftype)(N, *args, 100.0 if np.ndim(wn) == 0 else
                              [100.0, 300.0], btype=btype, analog=True)
    wb, wa = getattr(ss, ftype)(N, *args, 100.0 if np.ndim(wn) == 0 else
                                [100.0, 300.0], btype=btype, analog=True)
    close(b, wb)
    close(a, wa)
    fs = 1000.0
    w_hz = np.asarray(wn) * fs / 2
    b, a = getattr(cs, ftype)(N, *args, w_hz, btype=btype, fs=fs)
    wb, wa = getattr(ss, ftype)(N, *args, w_hz, btype=btype, fs=fs)
    close(b, wb)
    close(a, wa)


@pytest.mark.parametrize("norm", ["phase", "delay", "mag"])
def test_besselap(norm):
    for N in (1, 2, 3, 5, 8, 12):
        z, p, k = cs.besselap(N, norm)
        wz, wp, wk = ss.besselap(N, norm)
        np.testing.assert_allclose(np.sort_complex(host(p)),
                                   np.sort_complex(wp), atol=1e-10)
        assert abs(k - wk) <= 1e-9 * abs(wk)
    b, a = cs.bessel(4, [0.2, 0.4], "bandstop", norm=norm)
    wb, wa = ss.bessel(4, [0.2, 0.4], "bandstop", norm=norm)
    close(b, wb)
    close(a, wa)


def test_ellipap():
    for N in (1, 2, 3, 4, 5, 8):
        for rp, rs in ((1, 40), (0.1, 80), (3, 20)):
            z, p, k = cs.ellipap(N, rp, rs)
            wz, wp, wk = ss.ellipap(N, rp, rs)
            np.testing.assert_allclose(np.sort_complex(np.atleast_1d(p)),
                                       np.sort_complex(np.atleast_1d(wp)),
                                       atol=1e-9)
            np.testing.assert_allclose(np.sort_complex(np.atleast_1d(z)),
                                       np.sort_complex(np.atleast_1d(wz)),
                                       atol=1e-8)
            assert abs(k - wk) <= 1e-9 * abs(wk)


def test_iir_design_errors():
    with pytest.raises(ValueError):
        cs.butter(4, 1.2)
    with pytest.raises(ValueError):
        cs.butter(4, [0.2], btype="bandpass")
    with pytest.raises(ValueError):
        cs.butter(4, 0.2, btype="nope")
    with pytest.raises(ValueError):
        cs.iirfilter(4, 0.2, ftype="cheby1")  # no rp
    with pytest.raises(ValueError):
        cs.butter(4, 0.2, output="xyz")
    with pytest.raises(ValueError):
        cs.iirfilter(4, 0.2, rp=1, ftype="ellip")  # no rs
    with pytest.raises(ValueError):
        cs.iirfilter(4, 0.2, ftype="nosuch")


def test_freqz_sosfreqz():
    b, a = ss.butter(4, 0.3)
    for kw in ({}, {"worN": 64, "whole": True}, {"worN": 100, "fs": 500},
               {"worN": np.linspace(0, 3, 17)},
               {"worN": 33, "include_nyquist": True}):
        w, h = cs.freqz(b, a, **kw)
        ww, wh = ss.freqz(b, a, **kw)
        close(w, ww)
        close(h, wh)
    sos = ss.cheby1(6, 1, 0.2, output="sos")
    w, h = cs.sosfreqz(sos, worN=200)
    ww, wh = ss.sosfreqz(sos, worN=200)
    close(w, ww)
    close(h, wh)
    close(cs.zpk2tf(*ss.butter(3, 0.2, output="zpk"))[1],
          ss.zpk2tf(*ss.butter(3, 0.2, output="zpk"))[1])


# ---- spectral analysis ----------------------------------------------------


WELCH_KW = [{}, {"nperseg": 100, "noverlap": 30, "nfft": 128},
            {"detrend": "linear", "scaling": "spectrum"},
            {"average": "median"}, {"return_onesided": False},
            {"window": "hamming", "nperseg": 64, "nfft": 129},
            {"window": np.hanning(50), "detrend": False}]


@pytest.mark.parametrize("kw", WELCH_KW)
def test_welch_csd_periodogram(kw):
    rng = np.random.default_rng(22)
    x = rng.standard_normal((3, 700))
    y = rng.standard_normal((3, 700))
    f, p = cs.welch(x, fs=10.0, **kw)
    wf, wp = ss.welch(x, fs=10.0, **kw)
    close(f, wf)
    close(p, wp)
    f, p = cs.csd(x, y, **kw)
    wf, wp = ss.csd(x, y, **kw)
    close(p, wp)
    close(cs.welch(x.T, axis=0, **kw)[1], ss.welch(x.T, axis=0, **kw)[1])


def test_spectral_dtypes_and_forms():
    rng = np.random.default_rng(23)
    x = rng.standard_normal((2, 600))
    y = rng.standard_normal((2, 600))
    xf = x.astype(np.float32)
    close(cs.welch(xf, nperseg=64)[1], ss.welch(xf, nperseg=64)[1],
          np.float32)
    z = x + 1j * y
    close(cs.welch(z, nperseg=64)[1], ss.welch(z, nperseg=64)[1])
    close(cs.welch(np.arange(300), nperseg=64)[1],
          ss.welch(np.arange(300), nperseg=64)[1])
    for kw in ({}, {"nfft": 500, "window": "hann"}, {"nfft": 900},
               {"scaling": "spectrum", "detrend": False}):
        close(cs.periodogram(x, **kw)[1], ss.periodogram(x, **kw)[1])
    close(cs.coherence(x, y, nperseg=128)[1],
          ss.coherence(x, y, nperseg=128)[1])
    with pytest.warns(UserWarning):
        f, p = cs.welch(x[:, :100])
    close(p, ss.welch(x[:, :100], nperseg=100)[1])
    with pytest.raises(ValueError):
        cs.welch(x, nperseg=64, noverlap=64)
    with pytest.raises(ValueError):
        cs.welch(x, nperseg=64, nfft=32)
    with pytest.raises(ValueError):
        cs.welch(x, average="mode")
    with pytest.raises(ValueError):
        cs.welch(x, scaling="nope")


@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle",
                                  "phase"])
def test_spectrogram(mode):
    rng = np.random.default_rng(24)
    x = rng.standard_normal((3, 1000))
    f, t, s = cs.spectrogram(x, fs=4.0, mode=mode)
    wf, wt, wsx = ss.spectrogram(x, fs=4.0, mode=mode)
    close(f, wf)
    close(t, wt)
    close(s, wsx)
    close(cs.spectrogram(x.T, axis=0, nperseg=64, mode=mode)[2],
          ss.spectrogram(x.T, axis=0, nperseg=64, mode=mode)[2])
    with pytest.raises(ValueError):
        cs.spectrogram(x, mode="bogus")


@pytest.mark.parametrize("kw", [{}, {"nperseg": 100, "noverlap": 40},
                                {"boundary": None, "padded": False},
                                {"boundary": "even"}, {"scaling": "psd"},
                                {"nfft": 300, "boundary": "odd"},
                                {"boundary": "constant", "detrend":
                                 "constant"}])
def test_stft(kw):
    rng = np.random.default_rng(25)
    x = rng.standard_normal((3, 1000))
    f, t, z = cs.stft(x, **kw)
    wf, wt, wz = ss.stft(x, **kw)
    close(f, wf)
    close(t, wt)
    close(z, wz)
    close(cs.stft(x.T, axis=0, **kw)[2], ss.stft(x.T, axis=0, **kw)[2])
    with pytest.raises(ValueError):
        cs.stft(x, boundary="bogus")


@pytest.mark.parametrize("kw", [{}, {"nperseg": 256, "noverlap": 200},
                                {"nperseg": 101, "noverlap": 50},
                                {"scaling": "psd", "window": "hamming"}])
def test_istft(kw):
    rng = np.random.default_rng(26)
    x = rng.standard_normal((2, 500))
    skw = {k: v for k, v in kw.items()}
    z = ss.stft(x, **skw)[2]
    t, y = cs.istft(z, **kw)
    wt, wy = ss.istft(z, **kw)
    close(t, wt)
    close(y, wy)
    z0 = ss.stft(x.T, axis=0)[2]
    t, y = cs.istft(z0, time_axis=-1, freq_axis=0)
    wt, wy = ss.istft(z0, time_axis=-1, freq_axis=0)
    close(y, wy)
    with pytest.raises(ValueError):
        cs.istft(z, time_axis=0, freq_axis=0)
    with pytest.raises(ValueError):
        cs.istft(z[0, 0])


def test_wiener():
    rng = np.random.default_rng(27)
    im = rng.standard_normal((20, 30))
    close(cs.wiener(im), ss.wiener(im))
    close(cs.wiener(im, [3, 5], 0.5), ss.wiener(im, [3, 5], 0.5))
    v = rng.standard_normal(50)
    close(cs.wiener(v, 5), ss.wiener(v, 5))


# ---- peaks --------------------------------------------------------------


PEAK_KW = [{}, {"height": 1}, {"height": (0, 5)}, {"threshold": 0.2},
           {"distance": 7.5}, {"prominence": 2},
           {"prominence": (1, 4), "wlen": 50}, {"width": 3},
           {"width": (2, 10), "rel_height": 0.8}, {"plateau_size": 2},
           {"height": np.zeros(600), "distance": 3, "prominence": 1,
            "width": 1, "threshold": (0, 3), "plateau_size": (1, 3)}]


@pytest.mark.parametrize("kw", PEAK_KW, ids=lambda k: "-".join(k) or "none")
def test_find_peaks(kw):
    rng = np.random.default_rng(28)
    x = np.round(rng.standard_normal(600).cumsum() * 3) / 3
    x[100:104] = 50  # a plateau
    x[300] = np.nan
    p, props = cs.find_peaks(x, **kw)
    wp, wprops = ss.find_peaks(x, **kw)
    np.testing.assert_array_equal(host(p), wp)
    assert set(props) == set(wprops)
    for k in wprops:
        np.testing.assert_allclose(host(props[k]), wprops[k], rtol=1e-12)


def test_peak_properties_and_argrel():
    rng = np.random.default_rng(29)
    x = rng.standard_normal(300).cumsum()
    peaks, _ = ss.find_peaks(x)
    for got, want in zip(cs.peak_prominences(x, peaks, wlen=30),
                         ss.peak_prominences(x, peaks, wlen=30)):
        np.testing.assert_allclose(host(got), want)
    for got, want in zip(cs.peak_widths(x, peaks, rel_height=1.0),
                         ss.peak_widths(x, peaks, rel_height=1.0)):
        np.testing.assert_allclose(host(got), want)
    assert host(cs.find_peaks(np.ones(2))[0]).size == 0
    assert host(cs.find_peaks(np.zeros(0))[0]).size == 0
    with pytest.raises(ValueError):
        cs.find_peaks(np.ones((3, 3)))
    with pytest.raises(ValueError):
        cs.find_peaks(x, distance=0.5)
    with pytest.raises(ValueError):
        cs.find_peaks(x, prominence=1, wlen=1)
    with pytest.raises(ValueError):
        cs.peak_widths(x, peaks, rel_height=-1)
    d = rng.standard_normal((5, 30))
    for name in ("argrelmax", "argrelmin"):
        for kw in ({}, {"axis": 1, "order": 3}, {"mode": "wrap"}):
            got = getattr(cs, name)(d, **kw)
            want = getattr(ss, name)(d, **kw)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(host(g), w)
    with pytest.raises(ValueError):
        cs.argrelmax(d, order=0)
