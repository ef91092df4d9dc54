"""The realistic programs of benchmarks/programs run unchanged under cunumpy
(the import line replaced) and give NumPy's results, at a small scale."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "programs"))
import run as programs  # noqa: E402

NAMES = [p.stem for p in programs.programs()]


def test_suite_is_not_empty():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_program_matches_numpy(name):
    path = programs.HERE / f"{name}.py"
    ref, _, stat = programs.run_once(path, "numpy", 0.03)
    got, _, _ = programs.run_once(path, "cunumpy", 0.03)
    assert programs.compare(name, ref, got, stat) == []


def test_compare_detects_differences():
    import numpy as np
    ref = {"x": np.arange(4.0), "n": np.array(3), "p": np.array(0.5), "p_se": np.array(0.01)}
    assert programs.compare("t", ref, dict(ref), {"p": "p_se"}) == []
    bad = dict(ref, x=np.arange(4.0) + 1e-3)
    assert programs.compare("t", ref, bad, {"p": "p_se"})
    assert programs.compare("t", ref, dict(ref, n=np.array(4)), {"p": "p_se"})
    assert programs.compare("t", ref, dict(ref, p=np.array(0.7)), {"p": "p_se"})
    assert programs.compare("t", ref, {"x": ref["x"]}, {})
