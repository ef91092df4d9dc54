"""cunumpy.special's gamma and beta family, zeta, elliptic integrals and
Lambert W (core/special_gamma.h) against mpmath (float64 ulp bounds, the
ones include/cunumpy/special.h states) and scipy.special (special values,
random agreement), with float32, broadcasting, strides, out= and the
error paths."""

import numpy as np
import pytest

import cunumpy as xp
import cunumpy.special as cs

sp = pytest.importorskip("scipy.special")
mpmath = pytest.importorskip("mpmath")
mp = mpmath.mp

INV_E = 0.36787944117144233  # the double above 1/e


def _hurwitz(s, q):
    """zeta(s, q) by Euler-Maclaurin at 50 digits (mpmath's zeta loses
    precision for non-integer s and large q)."""
    n = 60
    a = q + n
    return (mp.fsum((q + k) ** -s for k in range(n)) + a ** (1 - s) / (s - 1)
            + a ** -s / 2 + mp.fsum(mp.bernoulli(2 * j) / mp.factorial(2 * j)
                                    * mp.rf(s, 2 * j - 1) * a ** (1 - s - 2 * j)
                                    for j in range(1, 25)))


def _root(f, x):
    """The root of f near the float x (mpmath's secant from x): checks an
    inverse function's result, failing when x is not near a root."""
    return mp.findroot(f, (mp.mpf(x), mp.mpf(x) * (1 + mp.mpf(2) ** -40)),
                       solver="secant", tol=mp.mpf(10) ** -45)


REF = {
    "loggamma": lambda x: mp.loggamma(x),
    "polygamma": lambda n, x: mp.polygamma(int(n), x),
    "beta": lambda a, b: mp.beta(a, b),
    "betaln": lambda a, b: mp.log(abs(mp.beta(a, b))),
    "gammainc": lambda a, x: mp.gammainc(a, 0, x, regularized=True),
    "gammaincc": lambda a, x: mp.gammainc(a, x, mp.inf, regularized=True),
    "zeta": _hurwitz,
    "ellipk": lambda m: mp.ellipk(m),
    "ellipe": lambda m: mp.ellipe(m),
    "lambertw": lambda x, k: mp.lambertw(x, int(k)).real,
    "betainc": lambda a, b, x: mp.betainc(a, b, 0, x, regularized=True),
}
# float64 bounds in ulp over the domains below (the header's numbers)
ULP64 = {
    "loggamma": 4, "polygamma": 6, "beta": 16, "betaln": 4, "gammainc": 32,
    "gammaincc": 32, "zeta": 4, "ellipk": 4, "ellipe": 4, "lambertw": 4,
    "betainc": 300, "gammaincinv": 16, "gammainccinv": 16, "betaincinv": 32,
}
NAMES = sorted(ULP64)


def _logu(r, lo, hi, n):
    return np.exp(r.uniform(np.log(lo), np.log(hi), n))


def domain(name, n, seed=0):
    """Arguments over the documented domain of the header's bound."""
    r = np.random.default_rng(seed)
    if name == "loggamma":
        return (np.concatenate([r.uniform(0.5, 3, n // 2),
                                _logu(r, 1e-300, 1e300, n - n // 2)]),)
    if name == "polygamma":
        return (r.integers(0, 11, n).astype(float), _logu(r, 1e-3, 1e3, n))
    if name == "beta":
        return _logu(r, 1e-5, 1e3, n), _logu(r, 1e-5, 1e3, n)
    if name == "betaln":
        return _logu(r, 1e-5, 1e5, n), _logu(r, 1e-5, 1e5, n)
    if name in ("gammainc", "gammaincc"):
        a = _logu(r, 1e-3, 1e3, n)
        return a, a * _logu(r, 0.05, 20, n)
    if name in ("gammaincinv", "gammainccinv"):
        return _logu(r, 1e-2, 100, n), r.uniform(0, 1, n)
    if name == "zeta":
        return 1 + _logu(r, 1e-10, 100, n), _logu(r, 1e-5, 1e5, n)
    if name in ("ellipk", "ellipe"):
        return (np.concatenate([r.uniform(-5, 1, n // 3),
                                1 - _logu(r, 1e-16, 1, n // 3),
                                -_logu(r, 1e-10, 1e300, n - 2 * (n // 3))]),)
    if name == "lambertw":
        x0 = np.concatenate([r.uniform(-INV_E + 1e-3, 5, n // 4),
                             _logu(r, 1e-300, 1e300, n // 4)])
        x1 = -_logu(r, 1e-300, INV_E - 1e-3, n - n // 2)
        return (np.concatenate([x0, x1]),
                np.concatenate([np.zeros(len(x0)), -np.ones(len(x1))]))
    if name == "betainc":
        return (_logu(r, 1e-2, 1e3, n), _logu(r, 1e-2, 1e3, n),
                r.uniform(0, 1, n))
    if name == "betaincinv":
        return (_logu(r, 0.1, 100, n), _logu(r, 0.1, 100, n),
                r.uniform(0, 1, n))
    raise KeyError(name)


def reference(name, args, got):
    """The float64 rounding of the exact value (mpmath at 50 digits); the
    inverses' exact root near got."""
    a = [mp.mpf(float(v)) for v in args]
    with mp.workdps(50):
        if name == "gammaincinv":
            v = _root(lambda t: mp.gammainc(a[0], 0, t, regularized=True)
                      - a[1], got)
        elif name == "gammainccinv":
            v = _root(lambda t: mp.gammainc(a[0], t, mp.inf,
                                            regularized=True) - a[1], got)
        elif name == "betaincinv":
            v = _root(lambda t: mp.betainc(a[0], a[1], 0, t,
                                           regularized=True) - a[2], got)
        else:
            v = REF[name](*a)
    return float(v)


def ulp_error(g, r):
    if g == r or (np.isnan(g) and np.isnan(r)):
        return 0.0
    if not (np.isfinite(g) and np.isfinite(r)):
        return np.inf
    return abs(g - r) / np.spacing(max(abs(r), np.finfo(float).tiny))


def _call(name, args):
    return xp.to_numpy(getattr(cs, name)(*(xp.asarray(a) for a in args)))


def _counts(name):
    # mpmath's incomplete functions are slow: fewer samples there
    return 40 if name in ("betainc", "betaincinv", "gammaincinv",
                          "gammainccinv") else 120


@pytest.mark.parametrize("name", NAMES)
def test_accuracy_float64(name):
    args = domain(name, _counts(name))
    got = _call(name, args)
    assert got.dtype == np.float64
    worst = (0.0, None)
    for i in range(len(got)):
        ai = [a[i] for a in args]
        ref = reference(name, ai, float(got[i]))
        if name == "betaln" and abs(ref) < 0.5:
            # near its zeros the bound is absolute
            assert abs(got[i] - ref) <= 1e-15, (ai, got[i], ref)
            continue
        if name in ("gammainc", "gammaincc", "betainc") and ref < 1e-3:
            # the tails: the error grows as eps |log result| (an exponent
            # of size |log result| rounds), as SciPy's does
            bound = ULP64[name] + 8 * abs(np.log(max(ref, 1e-308)))
        elif name.endswith("inv"):
            # the inverses' conditioning near 0: x ~ p^(1/a)
            bound = ULP64[name] * max(1.0, 1.0 / ai[0])
            if name == "betaincinv":
                bound = ULP64[name] * max(1.0, 1.0 / ai[0], 1.0 / ai[1])
        else:
            bound = ULP64[name]
        e = ulp_error(float(got[i]), ref)
        if e > worst[0]:
            worst = (e, ai)
        assert e <= bound, (name, ai, float(got[i]), ref, e)


# Hard points for betainc: a tiny b with x near 1 (where 1 - I_y(b, a)
# cancels), large a and b far below the mean (the exponent of the
# prefactor), large a just below the mean (a slow fraction).
BETAINC_HARD = [
    (5.208268896596656, 0.015057876266237696, 0.9999908454291575),
    (0.5561663526891732, 0.1238161547447593, 0.9997573420722358),
    (0.03155172340119792, 0.01407702984633285, 0.9998245133641182),
    (245.86384311974456, 0.0845788948500985, 0.9990703579336898),
    (885.4072033095035, 5.395963079090498, 0.991803223379615),
    (79.54055360524718, 26.572173981920812, 0.0017146067564257628),
    (36.965312668230666, 26.66131436015006, 0.0008873754085123586),
]


def test_betainc_hard_points():
    a, b, x = (np.array(v) for v in zip(*BETAINC_HARD))
    got = _call("betainc", (a, b, x))
    for i in range(len(got)):
        ref = reference("betainc", (a[i], b[i], x[i]), float(got[i]))
        bound = ULP64["betainc"]
        if ref < 1e-3:
            bound += 8 * abs(np.log(ref))
        e = ulp_error(float(got[i]), ref)
        assert e <= bound, (a[i], b[i], x[i], float(got[i]), ref, e)


@pytest.mark.parametrize("name", NAMES)
def test_accuracy_float32(name):
    args = tuple(np.asarray(a, np.float32)
                 for a in domain(name, _counts(name) // 2, seed=1))
    keep = np.all([np.isfinite(a) & (a != 0) for a in args], axis=0)
    if name == "zeta":  # x = 1 + tiny rounds to the pole
        keep &= args[0] > 1
    if name == "lambertw":  # the branch point moves in float32
        keep &= np.abs(args[0] + np.float32(INV_E)) > 1e-2
    if name in ("ellipk", "ellipe"):
        keep &= args[0] < 1
    args = tuple(a[keep] for a in args)
    got = _call(name, args)
    assert got.dtype == np.float32
    if name.endswith("inv"):
        # the inverses: the float64 result (checked against mpmath above)
        # rounded, within 1 ulp (a root finder at the float32 arguments is
        # not reliable far in the tails)
        ref = _call(name, tuple(a.astype(np.float64) for a in args))
        e = np.abs(got.astype(np.float64) - ref.astype(np.float32))
        ok = (e <= np.spacing(np.abs(ref.astype(np.float32)))) | \
            (got == ref.astype(np.float32))
        assert ok.all(), (name, [a[~ok][:3] for a in args], got[~ok][:3])
        return
    # float32 computes in float64 and rounds: within 1 ulp of the rounded
    # float64 result (the reference rounds once more)
    for i in range(len(got)):
        ai = [float(a[i]) for a in args]
        ref = np.float32(reference(name, ai, float(got[i])))
        if got[i] == ref or ref == 0 or not np.isfinite(ref):
            assert got[i] == ref or abs(float(ref)) < 1e-37, (ai, got[i], ref)
            continue
        e = abs(float(got[i]) - float(ref)) / float(np.spacing(np.abs(ref)))
        assert e <= 1, (name, ai, got[i], ref)


EDGE = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.5,
                 0.5, 1e-310, 1e-300, 1e300, 0.3, 0.999, 5.0, 40.0, 800.0])
# The inverses and the incomplete beta function: without the subnormal and
# huge shape parameters, where SciPy returns NaN or flushes to 0 and 2.2e-308
# where the exact roots underflow (ours are 0, and mpmath's root finder
# cannot check a root at 0).
EDGE_INV = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0,
                     0.5, 0.3, 0.999, 5.0, 40.0])


def _scipy_quirk(name, args):
    """Edge points where SciPy's value is neither the limit nor mpmath's
    and ours is left as documented in the header: betaincinv at an
    infinite a or b (SciPy: 0 or 1 for some, NaN for others; ours NaN),
    zeta at x = inf (ours the limit 0 for q > 1) and zeta and polygamma at
    a huge x with q < 0 (SciPy: inf)."""
    if name == "betaincinv":
        return np.isinf(args[0]) or np.isinf(args[1])
    if name in ("gammaincinv", "gammainccinv"):
        # SciPy's 0 at a = 0 for some p outside [0, 1]
        return args[0] == 0 and not 0 <= args[1] <= 1
    if name == "zeta" and args[0] == np.inf and args[1] > 1:
        return True  # the limit 0 (SciPy: NaN)
    if name in ("zeta", "polygamma"):
        return args[0] >= 1e300 and args[1] < 0
    if name in ("beta", "betaln"):
        # SciPy's NaN or -inf at an infinite argument beside a tiny, huge
        # or negative one (the limit is 0 or NaN)
        return any(np.isinf(a) for a in args)
    return False


def _scipy(name, *args):
    with np.errstate(all="ignore"):
        if name == "lambertw":
            w = sp.lambertw(args[0], args[1])
            # the real branches' values; SciPy's complex elsewhere
            return np.where(np.imag(w) == 0, np.real(w), np.nan)
        if name == "polygamma":
            return sp.polygamma(args[0], args[1])
        return getattr(sp, name)(*args)


def _agree(g, r, rtol):
    if np.isnan(r) or np.isnan(g):
        return np.isnan(r) and np.isnan(g)
    if g == r:
        return True
    return bool(np.isfinite(r) and np.isfinite(g)
                and abs(g - r) <= rtol * abs(r))


# On the edge grid SciPy is the oracle; where its finite value is off (its
# beta past tgamma's range, early underflows) ours must be mpmath's.
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_special_values(name, dt):
    """SciPy's values on an edge grid; where SciPy's finite or zero value is
    off (early underflow, lost precision) ours must be mpmath's."""
    nin = 2 if name in ("zeta", "lambertw") else getattr(cs, name).nin
    edge = EDGE_INV if name.endswith("inv") or name == "betainc" else EDGE
    with np.errstate(over="ignore"):
        e = edge.astype(dt)
    if name == "lambertw":
        args = (np.repeat(e, 2), np.tile(np.array([0, -1], dt), len(e)))
    else:
        args = tuple(np.ravel(m) for m in np.meshgrid(*([e] * nin)))
    ref = _scipy(name, *args).astype(dt)
    got = _call(name, args)
    assert got.dtype == dt
    rtol = 1e-4 if dt == np.float32 else 1e-9
    tiny = np.finfo(dt).tiny
    bad = []
    for i in range(len(ref)):
        if _agree(got[i], ref[i], rtol):
            continue
        ai = [float(a[i]) for a in args]
        if _scipy_quirk(name, ai):
            continue
        if name == "polygamma" and dt == np.float32 and np.isnan(ref[i]) \
                and (np.isinf(got[i]) or got[i] == 0):
            # SciPy's float32 loop: n! overflows float32 to inf times a zeta
            # flushed to 0; ours computes in float64 and rounds
            continue
        if np.isfinite(got[i]) and name in REF and all(np.isfinite(ai)):
            try:
                r = dt(reference(name, ai, float(got[i])))
            except (ValueError, ZeroDivisionError, OverflowError):
                r = None
            if r is not None and (_agree(got[i], r, 64 * np.finfo(dt).eps)
                                  or abs(float(got[i]) - float(r))
                                  <= 1e-3 * tiny):
                continue
        bad.append((ai, float(got[i]), float(ref[i])))
    assert not bad, (name, dt, bad[:8])


@pytest.mark.parametrize("name", NAMES)
def test_against_scipy_random(name):
    args = domain(name, 1000, seed=3)
    ref = _scipy(name, *args)
    got = _call(name, args)
    close = np.isclose(got, ref, rtol=1e-9, atol=0, equal_nan=True)
    far = np.flatnonzero(~close)
    # SciPy's beta, betaln, polygamma and tails lose precision where ours
    # holds (see ULP64): those are checked against mpmath
    bad = []
    for i in far[:40]:
        ai = [a[i] for a in args]
        r = reference(name, ai, float(got[i]))
        bound = ULP64[name] + 8 * abs(np.log(abs(r))) if r != 0 else 0
        if ulp_error(float(got[i]), r) > bound and \
                not abs(got[i] - r) <= 1e-15:
            bad.append((ai, float(got[i]), float(ref[i]), r))
    assert len(far) <= 60, (name, len(far))
    assert not bad, (name, bad[:5])


def test_exact_identities():
    """Closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b, P(1, x) = 1 -
    e^-x, zeta(2, 1) = pi^2 / 6, K(0) = E(0) = pi / 2, W(e) = 1, W(-1/e) =
    -1 and the inverses' round trips."""
    x = np.linspace(0.05, 0.95, 19)
    np.testing.assert_allclose(_call("betainc", (2.5, 1.0, x)), x ** 2.5,
                               rtol=4e-16 * 16)
    np.testing.assert_allclose(_call("betainc", (1.0, 3.5, x)),
                               -np.expm1(3.5 * np.log1p(-x)), rtol=4e-16 * 16)
    np.testing.assert_allclose(_call("gammainc", (1.0, x * 10)),
                               -np.expm1(-x * 10), rtol=4e-16 * 8)
    assert float(cs.zeta(2.0)) == pytest.approx(np.pi ** 2 / 6, rel=1e-16)
    assert float(cs.zeta(2.0, 1.0)) == float(cs.zeta(2.0))
    assert float(cs.ellipk(0.0)) == float(cs.ellipe(0.0)) == np.pi / 2
    assert float(cs.lambertw(np.e)) == 1.0
    near = np.nextafter(-INV_E, 0)  # the first double above -1/e
    for k in (0, -1):
        assert float(cs.lambertw(near, k)) == pytest.approx(-1, abs=1e-7)
    assert np.isnan(float(cs.lambertw(-INV_E)))  # just below -1/e
    a, p = 3.7, np.linspace(0.01, 0.99, 9)
    xs = xp.to_numpy(cs.gammaincinv(a, xp.asarray(p)))
    np.testing.assert_allclose(xp.to_numpy(cs.gammainc(a, xp.asarray(xs))),
                               p, rtol=1e-14)
    xs = xp.to_numpy(cs.betaincinv(2.0, 5.0, xp.asarray(p)))
    np.testing.assert_allclose(
        xp.to_numpy(cs.betainc(2.0, 5.0, xp.asarray(xs))), p, rtol=1e-14)


def test_exports_and_signatures():
    for n in NAMES:
        assert n in cs.__all__, n
    assert isinstance(cs.betainc, xp.ufunc) and cs.betainc.nin == 3
    assert cs.betaincinv.nin == 3 and cs.gammainc.nin == 2
    # SciPy's defaults: zeta's q=None is Riemann's zeta, lambertw's k=0
    assert float(cs.zeta(3.0)) == pytest.approx(sp.zeta(3.0), rel=1e-15)
    assert np.isnan(float(cs.zeta(0.5)))  # SciPy continues analytically
    assert float(cs.lambertw(1.0)) == pytest.approx(
        sp.lambertw(1.0).real, rel=1e-15)
    assert float(cs.lambertw(-0.2, k=-1)) == pytest.approx(
        sp.lambertw(-0.2, -1).real, rel=1e-15)
    assert float(cs.lambertw(-0.2, -1, 1e-3)) == float(cs.lambertw(-0.2, -1))
    import cunumpy._cnlib as lib
    for n in NAMES:
        assert callable(getattr(lib, "cn_special_" + n)), n


def test_broadcast_strides_out_and_errors():
    r = np.random.default_rng(4)
    a = _logu(r, 0.5, 20, (5, 1, 1))
    b = _logu(r, 0.5, 20, (1, 3, 1))
    xs = xp.asarray(r.uniform(0, 1, (3, 8)))
    got = cs.betainc(xp.asarray(a), xp.asarray(b), xs[:, ::-2])
    assert got.shape == (5, 3, 4)
    np.testing.assert_allclose(
        xp.to_numpy(got), sp.betainc(a, b, xp.to_numpy(xs)[:, ::-2]),
        rtol=1e-12)
    out = xp.zeros((2, 12))
    res = cs.gammaincc(2.0, xp.asarray(np.linspace(0, 5, 6)), out=out[:, ::2]
                       [0])
    np.testing.assert_allclose(xp.to_numpy(out)[0, ::2],
                               sp.gammaincc(2.0, np.linspace(0, 5, 6)),
                               rtol=1e-14)
    assert np.all(xp.to_numpy(out)[0, 1::2] == 0) and res.shape == (6,)
    # 0-d, empty, integers (float64 as SciPy)
    assert float(cs.beta(xp.asarray(2), xp.asarray(3))) == \
        pytest.approx(1 / 12, rel=1e-15)
    assert cs.betainc(1.0, 2.0, xp.asarray(np.zeros((0, 2)))).shape == (0, 2)
    assert cs.polygamma(xp.asarray(np.arange(3)), 2.0).dtype == np.float64
    # shapes that do not broadcast, complex inputs
    with pytest.raises(ValueError):
        cs.betainc(xp.asarray(np.ones(3)), 1.0, xp.asarray(np.ones(4)) / 2)
    with pytest.raises(TypeError):
        cs.betainc(xp.asarray(np.array([1j])), 1.0, 0.5)
    with pytest.raises(TypeError):
        cs.zeta(xp.asarray(np.array([2j])), 1.0)
    with pytest.raises(TypeError):
        cs.betaincinv(1.0, 2.0)


def test_fuse():
    x = np.random.default_rng(8).uniform(0.1, 0.9, 40)

    @xp.fuse()
    def f(v):
        return xp.special.betainc(2.0, 3.0, v) + xp.special.loggamma(v)

    np.testing.assert_allclose(xp.to_numpy(f(xp.asarray(x))),
                               sp.betainc(2.0, 3.0, x) + sp.loggamma(x),
                               rtol=1e-14)
