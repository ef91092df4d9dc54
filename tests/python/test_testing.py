"""cunumpy.testing: NumPy's assertions on host copies of cunumpy arrays."""

import warnings

import numpy as np
import pytest

import cunumpy as xp
import cunumpy.testing as xt


def test_passing_assertions_on_cunumpy_arrays():
    a = xp.asarray([1.0, 2.0, np.nan])
    xt.assert_array_equal(a, np.array([1.0, 2.0, np.nan]))
    xt.assert_allclose(a + 1e-12, [1.0, 2.0, np.nan])
    xt.assert_array_almost_equal(a[:2], [1.0, 2.0000001], decimal=6)
    xt.assert_almost_equal(xp.asarray(1.0), 1.0 + 1e-9)
    xt.assert_equal({"k": [a[:1]]}, {"k": [np.array([1.0])]})
    xt.assert_array_less(a[:2], xp.asarray([1.5, 2.5]))
    xt.assert_array_max_ulp(a[:2], np.nextafter(np.array([1.0, 2.0]), 3))
    xt.assert_array_almost_equal_nulp(a[:2], np.array([1.0, 2.0]))
    xt.assert_approx_equal(xp.asarray(1.0000001), 1.0)
    xt.assert_array_compare(np.less_equal, xp.arange(3), xp.arange(3))


@pytest.mark.parametrize("check, args", [
    (xt.assert_array_equal, (xp.arange(3), np.array([0, 1, 3]))),
    (xt.assert_allclose, (xp.asarray([1.0]), [1.1])),
    (xt.assert_array_almost_equal, (xp.asarray([1.0]), [1.01])),
    (xt.assert_almost_equal, (xp.asarray(1.0), 1.1)),
    (xt.assert_equal, (xp.arange(2), np.arange(3))),
    (xt.assert_array_less, (xp.arange(3), xp.arange(3))),
])
def test_failing_assertions_raise_numpys_message(check, args):
    with pytest.raises(AssertionError) as ours:
        check(*args)
    host = tuple(xp.to_numpy(a) if isinstance(a, xp.ndarray) else a
                 for a in args)
    with pytest.raises(AssertionError) as numpys:
        getattr(np.testing, check.__name__)(*host)
    assert str(ours.value) == str(numpys.value)


@pytest.mark.filterwarnings("ignore:NumPy warning suppression")
def test_raises_and_warns_are_numpys():
    with xt.assert_raises(np.linalg.LinAlgError):
        xp.linalg.inv(xp.zeros((2, 2)))
    with xt.assert_raises_regex(ValueError, "broadcast"):
        xp.ones(2) + xp.ones(3)
    with xt.assert_warns(UserWarning):
        warnings.warn("w", UserWarning)
    with xt.assert_no_warnings():
        xp.ones(3).sum()


def test_to_host_converts_nested_containers():
    got = xt.to_host([xp.arange(2), (xp.ones(1),), {"a": xp.zeros(1)}, 3])
    assert isinstance(got[0], np.ndarray) and isinstance(got[1][0],
                                                         np.ndarray)
    assert isinstance(got[2]["a"], np.ndarray) and got[3] == 3
