"""cunumpy.fft planning knobs (FFTW effort, wisdom, plan cache) against
numpy.fft results."""
import numpy as np
import pytest

import cunumpy as xp


@pytest.fixture
def restore_planner():
    yield
    xp.fft.set_planner("estimate")


def test_planner_names(restore_planner):
    assert xp.fft.get_planner() == "estimate"
    for name in ("measure", "PATIENT", "estimate"):
        xp.fft.set_planner(name)
        assert xp.fft.get_planner() == name.lower()
    with pytest.raises(ValueError, match="planner effort"):
        xp.fft.set_planner("fastest")
    assert xp.fft.get_planner() == "estimate"


@pytest.mark.parametrize("dtype", ["complex128", "complex64", "float64"])
def test_measured_plans_match_numpy(restore_planner, dtype):
    rng = np.random.default_rng(5)
    base = rng.standard_normal((6, 40, 30)).astype(dtype)
    if base.dtype.kind == "c":
        base = base + 1j * rng.standard_normal(base.shape).astype(dtype)
    h = base[::-1, 3:, ::2]  # negative and non-unit strides
    keep = h.copy()
    a = xp.asarray(base)[::-1, 3:, ::2]
    xp.fft.set_planner("measure")
    tol = 1e-4 if dtype in ("complex64",) else 1e-10
    np.testing.assert_allclose(xp.fft.fftn(a).get(), np.fft.fftn(h),
                               rtol=tol, atol=tol * 100)
    np.testing.assert_allclose(xp.fft.rfft(a.real, axis=1).get(),
                               np.fft.rfft(h.real, axis=1),
                               rtol=tol, atol=tol * 100)
    np.testing.assert_array_equal(a.get(), keep)  # planning left data alone


def test_wisdom_round_trip(restore_planner, tmp_path):
    xp.fft.set_planner("measure")
    xp.fft.fft(xp.arange(64.0))
    p = tmp_path / "wisdom.txt"
    xp.fft.save_wisdom(p)
    assert "fftw_wisdom" in p.read_text()
    xp.fft.load_wisdom(p)
    bad = tmp_path / "bad.txt"
    bad.write_text("(nothing)")
    with pytest.raises(ValueError, match="no valid FFTW wisdom"):
        xp.fft.load_wisdom(bad)
    with pytest.raises(ValueError, match="cannot read"):
        xp.fft.load_wisdom(tmp_path / "missing.txt")


def test_plan_cache():
    xp.fft.fft(xp.arange(10.0))
    plans, cap = xp.fft.plan_cache_info()
    assert 1 <= plans <= cap
    xp.fft.clear_plan_cache()
    assert xp.fft.plan_cache_info()[0] == 0
