"""mgrid, ogrid, r_, c_ against NumPy: values, dtypes and shapes."""
import numpy as np
import pytest

import cunumpy as cp

CASES = [
    "mgrid[0:5]", "mgrid[0:5, 0:3]", "mgrid[-1:1:5j]", "mgrid[-1:1:5j, 0:4:0.5]",
    "mgrid[0:1:1j]", "mgrid[0:5:2, 1:2:0.25]", "mgrid[0:0]", "mgrid[3:0]",
    "mgrid[0.5:3, 0:2]", "ogrid[0:5, 0:3]", "ogrid[0:1:4j, 2:3]", "ogrid[0:3]",
    "r_[1, 2, 3]", "r_[A([1, 2]), 0, 0, A([4, 5])]", "r_[-1:1:6j, [0] * 3, 5, 6]",
    "r_['-1', A(np.ones((2, 3))), A(np.zeros((2, 3)))]", "r_['0,2', [1, 2, 3], [4, 5, 6]]",
    "r_['0,2,0', [1, 2, 3], [4, 5, 6]]", "r_['1,2,0', [1, 2, 3], [4, 5, 6]]",
    "r_['0,3,-2', [1, 2], [3, 4]]", "r_[0:10:3]", "r_[1.5, 2]", "r_[A(np.int8([1, 2])), 3]",
    "r_[A(np.float32([1, 2])), 3.5]", "c_[A([1, 2, 3]), A([4, 5, 6])]",
    "c_[A([[1, 2, 3]]), 0, 0, A([[4, 5, 6]])]", "c_[A(np.eye(2)), [7, 8]]",
]


def _host(x):
    return tuple(np.asarray(v) for v in x) if isinstance(x, tuple) else np.asarray(x)


@pytest.mark.parametrize("expr", CASES)
def test_matches_numpy(expr):
    want = eval("np." + expr, {"np": np, "A": np.asarray})
    got = _host(eval("cp." + expr, {"np": np, "cp": cp, "A": cp.asarray}))
    want = want if isinstance(want, tuple) else want
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        pairs = zip(want, got)
    else:
        pairs = [(want, got)]
    for w, g in pairs:
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


def test_results_are_engine_arrays():
    assert isinstance(cp.mgrid[0:3, 0:2], cp.ndarray)
    assert all(isinstance(g, cp.ndarray) for g in cp.ogrid[0:3, 0:2])
    assert isinstance(cp.r_[1, 2], cp.ndarray)


def test_index_expressions():
    assert cp.s_[1:2, ::3] == np.s_[1:2, ::3]
    assert cp.index_exp[..., 0] == np.index_exp[..., 0]


@pytest.mark.parametrize("expr, exc", [
    ("r_[1, 'x']", ValueError), ("r_['q', 1]", ValueError), ("r_['r', [1, 2]]", ValueError),
    ("r_['1,2,3,4', [1]]", ValueError), ("mgrid[0:3, 1]", TypeError), ("mgrid[0:, 0:2]", ValueError), ("mgrid[0:2, 5:1]", ValueError),
])
def test_errors(expr, exc):
    with pytest.raises(exc):
        eval("cp." + expr, {"cp": cp})
