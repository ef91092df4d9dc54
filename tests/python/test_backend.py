"""backend_supports and the backend aliases, as the engine answers them."""
import numpy as np
import pytest

import cunumpy as xp


def test_aliases_come_from_the_engine():
    assert xp.backend_aliases() == {"cpu": "cpu", "numpy": "cpu",
                                    "cuda": "cuda", "cupy": "cuda"}
    assert xp.get_backend() == "numpy"
    assert xp.BackendName("cuda") == "CuPy"
    assert xp.BackendName("cpu") != "gpu"


@pytest.mark.parametrize("what", ["matmul", "lapack", "fft", "sort", "take",
                                  "rng", "linalg", "random", "index", "stats",
                                  "add", "sin", "sum", "argmax", "cumsum",
                                  "mean", "nanstd", "mask_compress"])
def test_cpu_runs_everything_natively(what):
    assert xp.backend_supports(what, "cpu") is True
    assert xp.backend_supports(what, "NumPy") is True


def test_default_backend_is_the_active_one():
    with xp.use_backend("cpu"):
        assert xp.backend_supports("matmul") is True


def test_cpu_answers_match_what_runs():
    a = xp.asarray([3.0, 1.0, 2.0])
    np.testing.assert_array_equal(xp.sort(a).get(), [1.0, 2.0, 3.0])
    assert float(a @ a) == 14.0
    np.testing.assert_allclose(xp.fft.fft(a).get(),
                               np.fft.fft([3.0, 1.0, 2.0]))
    assert float(xp.sum(a)) == 6.0


def test_cuda_answers_are_valid_everywhere():
    for what in ["add", "sum", "matmul", "stats", "take"]:
        assert xp.backend_supports(what, "cuda") in (True, False, "host")
    if not xp.cuda_available():
        return
    assert xp.backend_supports("add", "cuda") is True
    assert xp.backend_supports("stats", "cuda") == "host"


def test_unknown_names_are_value_errors():
    with pytest.raises(ValueError, match="tpu"):
        xp.backend_supports("add", "tpu")
    with pytest.raises(ValueError, match="frobnicate"):
        xp.backend_supports("frobnicate", "cpu")
