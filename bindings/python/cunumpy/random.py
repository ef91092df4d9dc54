"""cunumpy.random: counter-based (Philox4x32-10) random numbers over
include/cunumpy/random.h; one seed gives the same numbers on every backend.

    rng = cunumpy.random.default_rng(42)    # or cunumpy.get_rng(42)
    x = rng.standard_normal((3, 4), dtype=cunumpy.float32)

The legacy functions (seed, rand, randn, random) use the engine's global
generator.
"""

import numpy as _np

from . import _cnlib as _lib

__all__ = ["Generator", "Philox4x32", "RandomState", "default_rng", "seed", "rand", "randn", "random",
           "uniform", "normal", "standard_normal", "integers", "randint",
           "choice", "permutation", "shuffle", "exponential", "poisson",
           "binomial", "gamma", "beta", "lognormal", "laplace", "logistic",
           "rayleigh", "weibull", "pareto", "chisquare", "triangular",
           "geometric", "standard_exponential", "standard_gamma",
           "multinomial"]


def _shape(size):
    return () if size is None else size


def _seed_value(seed):
    if seed is None:
        return int.from_bytes(_np.random.SeedSequence().generate_state(
            2, _np.uint32).tobytes(), "little")
    if isinstance(seed, Generator):
        raise TypeError("use the generator itself, not a seed")
    if isinstance(seed, Philox4x32):
        return seed._key
    return int(seed) & (2**64 - 1)


def _is_scalar(x):
    return isinstance(x, (int, float, bool, _np.integer, _np.floating,
                          _np.bool_))


def _pshape(x):
    shape = getattr(x, "shape", None)
    return tuple(shape) if shape is not None else _np.shape(x)


def _out_shape(params, size):
    """NumPy's rule: size when given (the parameters must broadcast to it),
    else the parameters' broadcast shape."""
    if size is not None:
        return tuple(size) if isinstance(size, (tuple, list)) else (size,)
    return tuple(_np.broadcast_shapes(*[_pshape(p) for p in params]))


class Generator:
    """A random generator owning one cn_rng (released once).

    Parameters may be arrays (broadcast as NumPy's Generator does); the
    same seed and the same spawn path give the same stream on every
    backend."""

    def __init__(self, seed=None, *, _handle=None):
        self._rng = None
        self._rng = _handle if _handle is not None else \
            _lib.cn_rng_create(_seed_value(seed))

    def __del__(self, _release=_lib.cn_rng_release):
        rng, self._rng = self._rng, None
        if rng:
            _release(rng)

    # ---- streams and state ----------------------------------------------

    def spawn(self, n_children):
        """n_children independent generators (NumPy's Generator.spawn);
        the parent's spawn count advances, so successive calls differ."""
        return [Generator(_handle=h)
                for h in _lib.cn_rng_spawn(int(n_children), self._rng)]

    @property
    def bit_generator(self):
        return _BitGenerator(self)

    # ---- distributions ---------------------------------------------------

    def _dist(self, name, params, size, dtype):
        """Array-parameter path: cn_random_dist with params padded to 3."""
        shape = _out_shape(params, size)
        p = list(params) + [None] * (3 - len(params))
        return _lib.cn_random_dist(self._rng, name, p[0], p[1], p[2], shape,
                                   dtype)

    def _into(self, out, size, dtype, fill):
        """fill(size, dtype), or for out= (size defaulting to out's shape,
        as NumPy) made on out's backend and assigned into out, so an out
        on a CUDA device is filled there (the values are the same on every
        backend)."""
        if out is None:
            return fill(size, dtype)
        from ._backend import get_array_backend, use_backend
        with use_backend(get_array_backend(out)):
            res = fill(out.shape if size is None else size, dtype)
        _lib.cn_assign(out, res)
        return out

    def random(self, size=None, dtype=None, out=None):
        return self._into(out, size, dtype, lambda s, d: _lib.cn_random_random(
            self._rng, _shape(s), d))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        if _is_scalar(low) and _is_scalar(high):
            return _lib.cn_random_uniform(self._rng, float(low), float(high),
                                          _shape(size), dtype)
        return self._dist("uniform", (low, high), size, dtype)

    def standard_normal(self, size=None, dtype=None, out=None):
        return self._into(out, size, dtype,
                          lambda s, d: _lib.cn_random_standard_normal(
                              self._rng, _shape(s), d))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        if _is_scalar(loc) and _is_scalar(scale):
            return _lib.cn_random_normal(self._rng, float(loc), float(scale),
                                         _shape(size), dtype)
        return self._dist("normal", (loc, scale), size, dtype)

    def integers(self, low, high=None, size=None, dtype=_np.int64,
                 endpoint=False):
        if high is None:
            low, high = 0, low
        if _is_scalar(low) and _is_scalar(high):
            return _lib.cn_random_integers(self._rng, int(low), int(high),
                                           bool(endpoint), _shape(size),
                                           dtype)
        lo = _np.asarray(low)
        hi = _np.asarray(high)
        if lo.dtype.kind not in "biu" or hi.dtype.kind not in "biu":
            raise TypeError("integers: low and high must be integers")
        lo = lo.astype(_np.int64)
        hi = hi.astype(_np.int64)
        if not endpoint:
            if (hi <= lo).any():
                raise ValueError("integers: low >= high")
            hi = hi - 1
        return self._dist("integers", (lo, hi), size, dtype)

    def exponential(self, scale=1.0, size=None, dtype=None):
        if _is_scalar(scale):
            return _lib.cn_random_exponential(self._rng, float(scale),
                                              _shape(size), dtype)
        return self._dist("exponential", (scale,), size, dtype)

    def standard_exponential(self, size=None, dtype=None, method="inv",
                             out=None):
        return self._into(out, size, dtype,
                          lambda s, d: _lib.cn_random_exponential(
                              self._rng, 1.0, _shape(s), d))

    def gamma(self, shape, scale=1.0, size=None, dtype=None):
        if _is_scalar(shape) and _is_scalar(scale):
            return _lib.cn_random_gamma(self._rng, float(shape), float(scale),
                                        _shape(size), dtype)
        return self._dist("gamma", (shape, scale), size, dtype)

    def standard_gamma(self, shape, size=None, dtype=None, out=None):
        return self._into(out, size, dtype,
                          lambda s, d: self.gamma(shape, 1.0, s, d))

    def beta(self, a, b, size=None, dtype=None):
        if _is_scalar(a) and _is_scalar(b):
            return _lib.cn_random_beta(self._rng, float(a), float(b),
                                       _shape(size), dtype)
        return self._dist("beta", (a, b), size, dtype)

    def binomial(self, n, p, size=None, dtype=None):
        if _is_scalar(n) and _is_scalar(p):
            return _lib.cn_random_binomial(self._rng, int(n), float(p),
                                           _shape(size), dtype)
        return self._dist("binomial", (n, p), size, dtype)

    def poisson(self, lam=1.0, size=None, dtype=None):
        if _is_scalar(lam):
            return _lib.cn_random_poisson(self._rng, float(lam), _shape(size),
                                          dtype)
        return self._dist("poisson", (lam,), size, dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=None):
        return self._dist("lognormal", (mean, sigma), size, dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=None):
        return self._dist("laplace", (loc, scale), size, dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=None):
        return self._dist("logistic", (loc, scale), size, dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=None):
        return self._dist("rayleigh", (scale,), size, dtype)

    def weibull(self, a, size=None, dtype=None):
        return self._dist("weibull", (a,), size, dtype)

    def pareto(self, a, size=None, dtype=None):
        return self._dist("pareto", (a,), size, dtype)

    def chisquare(self, df, size=None, dtype=None):
        return self._dist("chisquare", (df,), size, dtype)

    def triangular(self, left, mode, right, size=None, dtype=None):
        return self._dist("triangular", (left, mode, right), size, dtype)

    def geometric(self, p, size=None, dtype=None):
        return self._dist("geometric", (p,), size, dtype)

    def multinomial(self, n, pvals, size=None):
        """Counts over len(pvals) categories by conditional binomials
        (array-valued binomial draws, one per category but the last)."""
        pv = _np.asarray(pvals.get() if hasattr(pvals, "get") else pvals,
                         dtype=_np.float64)
        if pv.ndim != 1:
            raise ValueError("pvals must be a 1-d sequence")
        if pv.size == 0:
            raise ValueError("pvals must have at least one entry")
        if _np.any(pv < 0) or _np.any(pv > 1) or _np.any(_np.isnan(pv)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if pv[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        nn = _np.asarray(n)
        if nn.dtype.kind not in "biu" or _np.any(nn < 0):
            raise ValueError("n < 0" if nn.dtype.kind in "biu" else
                             "n must be an integer")
        shape = _out_shape((nn,), size)
        from ._convert import asarray
        from ._manip import stack
        rem = asarray(_np.broadcast_to(nn.astype(_np.int64), shape))
        left, cols = 1.0, []
        for p in pv[:-1]:
            q = min(max(p / left, 0.0), 1.0) if left > 0 else 0.0
            x = self._dist("binomial", (rem, q), shape, None)
            cols.append(x)
            rem = rem - x
            left -= p
        cols.append(rem)
        return stack(cols, axis=-1)

    def choice(self, a, size=None, replace=True, p=None, axis=0,
               shuffle=True):
        # shuffle=False allows any order of a sample without replacement;
        # the engine's sample is in draw order either way.
        from ._convert import asarray
        from ._index import take
        from ._shape import _norm_axis
        if isinstance(a, (int, _np.integer)) or \
                (getattr(a, "ndim", None) == 0 and
                 _np.dtype(a.dtype).kind in "iu"):
            return _lib.cn_random_choice(self._rng, None, int(a),
                                         _shape(size), bool(replace), p)
        pool = asarray(a)
        if pool.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a "
                             "0-d array of dtype %s" % pool.dtype)
        axis = _norm_axis(int(axis), pool.ndim)
        if pool.ndim == 1:
            return _lib.cn_random_choice(self._rng, pool, 0, _shape(size),
                                         bool(replace), p)
        idx = _lib.cn_random_choice(self._rng, None, pool.shape[axis],
                                    _shape(size), bool(replace), p)
        return take(pool, idx, axis=axis)

    def permutation(self, x, axis=0):
        from ._convert import asarray
        from ._index import take
        from ._shape import _norm_axis
        if isinstance(x, (int, _np.integer)):
            return _lib.cn_random_permutation(self._rng, None, int(x))
        pool = asarray(x)
        if pool.ndim == 0:
            raise ValueError("x must be an integer or at least 1-d")
        axis = _norm_axis(int(axis), pool.ndim)
        if axis == 0:
            return _lib.cn_random_permutation(self._rng, pool, 0)
        idx = _lib.cn_random_permutation(self._rng, None, pool.shape[axis])
        return take(pool, idx, axis=axis)

    def shuffle(self, x, axis=0):
        _lib.cn_random_shuffle(self._rng, x)


class _BitGenerator:
    """The generator's Philox4x32-10 state, as NumPy's bit_generator:
    state is a dict {'bit_generator': 'Philox4x32', 'state': {'key': (k0,
    k1), 'counter': (c0, c1, c2, c3)}, 'spawn_count': n}; assigning one
    restores it."""

    def __init__(self, gen):
        self._gen = gen

    @property
    def state(self):
        w = _lib.cn_rng_get_state(self._gen._rng)
        return {"bit_generator": "Philox4x32",
                "state": {"key": tuple(w[0:2]), "counter": tuple(w[2:6])},
                "spawn_count": w[6] | (w[7] << 32)}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or \
                value.get("bit_generator") != "Philox4x32":
            raise ValueError("state must be a dict from a cunumpy "
                             "Philox4x32 bit_generator")
        st = value["state"]
        key, ctr = tuple(st["key"]), tuple(st["counter"])
        if len(key) != 2 or len(ctr) != 4:
            raise ValueError("state: key needs 2 words and counter 4")
        sc = int(value.get("spawn_count", 0))
        _lib.cn_rng_set_state(self._gen._rng,
                              key + ctr + (sc & 0xffffffff, sc >> 32))

    def spawn(self, n_children):
        return [g.bit_generator for g in self._gen.spawn(n_children)]


class Philox4x32:
    """A seed for the engine's Philox4x32-10 generator, made as NumPy's bit
    generators are: from None (fresh entropy), an int, a sequence of
    non-negative ints or a numpy.random.SeedSequence, whose first 64 bits
    of state key the stream. Generator(b) and default_rng(b) draw from it;
    children of the SeedSequence (spawn) key independent streams, which is
    how Dask makes one generator per chunk. Picklable."""

    def __init__(self, seed=None):
        ss = seed if isinstance(seed, _np.random.SeedSequence) else \
            _np.random.SeedSequence(seed)
        w = ss.generate_state(2, _np.uint32)
        self._seed_seq = ss
        self._key = int(w[0]) | (int(w[1]) << 32)

    @property
    def seed_seq(self):
        return self._seed_seq

    def spawn(self, n_children):
        return [Philox4x32(s) for s in self._seed_seq.spawn(int(n_children))]


class RandomState:
    """NumPy's legacy RandomState names (random_sample, randint, ...) over a
    Generator. The stream is the engine's Philox4x32-10, not Mersenne
    Twister: a seed gives other numbers than numpy.random.RandomState's.
    Seeds as Philox4x32 (Dask seeds each chunk with an array of uint32)."""

    _DRAWS = ("standard_normal", "normal", "uniform", "exponential",
              "standard_exponential", "gamma", "standard_gamma", "beta",
              "binomial", "poisson", "lognormal", "laplace", "logistic",
              "rayleigh", "weibull", "pareto", "chisquare", "triangular",
              "geometric", "multinomial", "choice", "permutation", "shuffle")

    def __init__(self, seed=None):
        self._gen = Generator(Philox4x32(seed))

    def seed(self, seed=None):
        self._gen = Generator(Philox4x32(seed))

    def random_sample(self, size=None):
        return self._gen.random(size)

    random = random_sample

    def rand(self, *shape):
        return self._gen.random(shape)

    def randn(self, *shape):
        return self._gen.standard_normal(shape)

    def randint(self, low, high=None, size=None, dtype=int):
        return self._gen.integers(low, high, size, dtype)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        return self._gen.integers(low, high, size, endpoint=True)

    def __getattr__(self, name):
        if name in RandomState._DRAWS:
            return getattr(self._gen, name)
        raise AttributeError(f"'RandomState' object has no attribute "
                             f"{name!r}")


def default_rng(seed=None):
    """A new Generator (NumPy's default_rng); seed may be a Philox4x32."""
    return seed if isinstance(seed, Generator) else Generator(seed)


_global = None


def _default():
    global _global
    if _global is None:
        _global = Generator(0)
    return _global


def seed(seed=None):
    """Seeds the legacy global generator (rand, randn) and this module's
    functions."""
    global _global
    _lib.cn_random_seed(_seed_value(seed))
    _global = Generator(seed)


def rand(*shape, dtype=None):
    """Uniform [0, 1) samples of the given shape; dtype float32 or float64
    (CuPy's keyword)."""
    if dtype is None:
        return _lib.cn_rand(shape)
    return _default().random(shape, dtype=dtype)


def randn(*shape, dtype=None):
    """Standard normal samples of the given shape; dtype as rand."""
    if dtype is None:
        return _lib.cn_randn(shape)
    return _default().standard_normal(shape, dtype=dtype)


def random(size=None, dtype=None):
    return _default().random(size, dtype=dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=None):
    return _default().uniform(low, high, size, dtype=dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None):
    return _default().normal(loc, scale, size, dtype=dtype)


def standard_normal(size=None, dtype=None):
    return _default().standard_normal(size, dtype=dtype)


def integers(low, high=None, size=None, dtype=_np.int64, endpoint=False):
    return _default().integers(low, high, size, dtype, endpoint)


def randint(low, high=None, size=None, dtype=int):
    return _default().integers(low, high, size, dtype)


def choice(a, size=None, replace=True, p=None):
    return _default().choice(a, size, replace, p)


def permutation(x):
    return _default().permutation(x)


def shuffle(x):
    _default().shuffle(x)


def exponential(scale=1.0, size=None, dtype=None):
    return _default().exponential(scale, size, dtype=dtype)


def poisson(lam=1.0, size=None, dtype=None):
    return _default().poisson(lam, size, dtype=dtype)


def binomial(n, p, size=None, dtype=None):
    return _default().binomial(n, p, size, dtype=dtype)


def gamma(shape, scale=1.0, size=None, dtype=None):
    return _default().gamma(shape, scale, size, dtype=dtype)


def beta(a, b, size=None, dtype=None):
    return _default().beta(a, b, size, dtype=dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None):
    return _default().lognormal(mean, sigma, size, dtype=dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=None):
    return _default().laplace(loc, scale, size, dtype=dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=None):
    return _default().logistic(loc, scale, size, dtype=dtype)


def rayleigh(scale=1.0, size=None, dtype=None):
    return _default().rayleigh(scale, size, dtype=dtype)


def weibull(a, size=None, dtype=None):
    return _default().weibull(a, size, dtype=dtype)


def pareto(a, size=None, dtype=None):
    return _default().pareto(a, size, dtype=dtype)


def chisquare(df, size=None, dtype=None):
    return _default().chisquare(df, size, dtype=dtype)


def triangular(left, mode, right, size=None, dtype=None):
    return _default().triangular(left, mode, right, size, dtype=dtype)


def geometric(p, size=None, dtype=None):
    return _default().geometric(p, size, dtype=dtype)


def standard_exponential(size=None, dtype=None):
    return _default().standard_exponential(size, dtype=dtype)


def standard_gamma(shape, size=None, dtype=None):
    return _default().standard_gamma(shape, size, dtype=dtype)


def multinomial(n, pvals, size=None):
    return _default().multinomial(n, pvals, size)
