"""cunumpy.random: counter-based (Philox4x32-10) random numbers over
include/cunumpy/random.h; one seed gives the same numbers on every backend.

    rng = cunumpy.random.default_rng(42)    # or cunumpy.get_rng(42)
    x = rng.standard_normal((3, 4), dtype=cunumpy.float32)

The legacy functions (seed, rand, randn, random) use the engine's global
generator.
"""

import numpy as _np

from . import _cnlib as _lib

__all__ = ["Generator", "default_rng", "seed", "rand", "randn", "random",
           "uniform", "normal", "standard_normal", "integers", "randint",
           "choice", "permutation", "shuffle", "exponential", "poisson",
           "binomial", "gamma", "beta"]


def _shape(size):
    return () if size is None else size


def _seed_value(seed):
    if seed is None:
        return int.from_bytes(_np.random.SeedSequence().generate_state(
            2, _np.uint32).tobytes(), "little")
    if isinstance(seed, Generator):
        raise TypeError("use the generator itself, not a seed")
    return int(seed) & (2**64 - 1)


class Generator:
    """A random generator owning one cn_rng (released once)."""

    def __init__(self, seed=None):
        self._rng = None
        self._rng = _lib.cn_rng_create(_seed_value(seed))

    def __del__(self):
        rng, self._rng = self._rng, None
        if rng:
            _lib.cn_rng_release(rng)

    def random(self, size=None, dtype=None, out=None):
        res = _lib.cn_random_random(self._rng, _shape(size), dtype)
        return res if out is None else _put(out, res)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        return _lib.cn_random_uniform(self._rng, float(low), float(high),
                                      _shape(size), dtype)

    def standard_normal(self, size=None, dtype=None, out=None):
        res = _lib.cn_random_standard_normal(self._rng, _shape(size), dtype)
        return res if out is None else _put(out, res)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        return _lib.cn_random_normal(self._rng, float(loc), float(scale),
                                     _shape(size), dtype)

    def integers(self, low, high=None, size=None, dtype=_np.int64,
                 endpoint=False):
        if high is None:
            low, high = 0, low
        return _lib.cn_random_integers(self._rng, int(low), int(high),
                                       bool(endpoint), _shape(size), dtype)

    def exponential(self, scale=1.0, size=None, dtype=None):
        return _lib.cn_random_exponential(self._rng, float(scale),
                                          _shape(size), dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=None):
        return _lib.cn_random_gamma(self._rng, float(shape), float(scale),
                                    _shape(size), dtype)

    def beta(self, a, b, size=None, dtype=None):
        return _lib.cn_random_beta(self._rng, float(a), float(b),
                                   _shape(size), dtype)

    def binomial(self, n, p, size=None, dtype=None):
        return _lib.cn_random_binomial(self._rng, int(n), float(p),
                                       _shape(size), dtype)

    def poisson(self, lam=1.0, size=None, dtype=None):
        return _lib.cn_random_poisson(self._rng, float(lam), _shape(size),
                                      dtype)

    def choice(self, a, size=None, replace=True, p=None, axis=0,
               shuffle=True):
        from ._api import arange, asarray
        pool = arange(int(a)) if isinstance(a, (int, _np.integer)) else \
            asarray(a)
        return _lib.cn_random_choice(self._rng, pool, pool.shape[0] if
                                     pool.ndim else 1, _shape(size),
                                     bool(replace), p)

    def permutation(self, x, axis=0):
        from ._api import arange, asarray
        pool = arange(int(x)) if isinstance(x, (int, _np.integer)) else \
            asarray(x)
        return _lib.cn_random_permutation(self._rng, pool, pool.shape[0] if
                                          pool.ndim else 1)

    def shuffle(self, x, axis=0):
        _lib.cn_random_shuffle(self._rng, x)


def _put(out, res):
    _lib.cn_assign(out, res)
    return out


def default_rng(seed=None):
    """A new Generator (NumPy's default_rng)."""
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


def rand(*shape):
    return _lib.cn_rand(shape)


def randn(*shape):
    return _lib.cn_randn(shape)


def random(size=None):
    return _default().random(size)


def uniform(low=0.0, high=1.0, size=None):
    return _default().uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _default().normal(loc, scale, size)


def standard_normal(size=None):
    return _default().standard_normal(size)


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


def exponential(scale=1.0, size=None):
    return _default().exponential(scale, size)


def poisson(lam=1.0, size=None):
    return _default().poisson(lam, size)


def binomial(n, p, size=None):
    return _default().binomial(n, p, size)


def gamma(shape, scale=1.0, size=None):
    return _default().gamma(shape, scale, size)


def beta(a, b, size=None):
    return _default().beta(a, b, size)
