"""histogram's bin estimators (Stone's included) against NumPy."""

import warnings

import numpy as np
import pytest

import cunumpy as xp

RULES = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]
RNG = np.random.default_rng(5)
DATA = [RNG.standard_normal(500), RNG.uniform(0, 1, 50), np.arange(20),
        RNG.exponential(size=3000).astype(np.float32), np.array([1.0]),
        np.array([2.0, 2.0]), np.array([], np.float64),
        np.concatenate([RNG.standard_normal(200), [40.0, -35.0]])[::-1]]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("rng", [None, (-1.0, 2.0)])
def test_histogram_estimators(rule, rng):
    for a in DATA:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want_n, want_e = np.histogram(a, bins=rule, range=rng)
            got_n, got_e = xp.histogram(xp.asarray(a), bins=rule, range=rng)
            edges = xp.histogram_bin_edges(xp.asarray(a), bins=rule,
                                           range=rng)
        assert xp.to_numpy(got_n).dtype == want_n.dtype
        np.testing.assert_array_equal(xp.to_numpy(got_n), want_n)
        assert xp.to_numpy(got_e).dtype == want_e.dtype
        np.testing.assert_allclose(xp.to_numpy(got_e), want_e, rtol=1e-6)
        np.testing.assert_allclose(xp.to_numpy(edges), want_e, rtol=1e-6)


def test_stone_warns_at_its_bound_and_rejects_weights():
    a = np.repeat([0.0, 1.0], 200)  # two spikes: the risk falls to the bound
    with pytest.warns(RuntimeWarning):
        want = np.histogram(a, bins="stone")
    with pytest.warns(RuntimeWarning):
        got = xp.histogram(xp.asarray(a), bins="stone")
    np.testing.assert_array_equal(xp.to_numpy(got[0]), want[0])
    with pytest.raises(TypeError):
        xp.histogram(xp.asarray(a), bins="stone", weights=xp.ones(400))
    with pytest.raises(ValueError):
        xp.histogram(xp.asarray(a), bins="stones")
