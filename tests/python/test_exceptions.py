"""Engine errors raise NumPy's exception classes with NumPy's wording; the
C side (entry point, status) stays on the exception for debugging."""

import re

import numpy as np
import pytest

import cunumpy as xp


def _raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.value


def _numpy_raised(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - any class is compared
        return e
    raise AssertionError("NumPy raised nothing")


def test_classes_are_numpys():
    assert xp.linalg.LinAlgError is np.linalg.LinAlgError
    assert xp.exceptions.AxisError is np.exceptions.AxisError
    assert xp.AxisError is np.exceptions.AxisError


# (cunumpy call, the same call in NumPy, the C entry point)
CASES = [
    (lambda: xp.linalg.inv(xp.zeros((2, 2))),
     lambda: np.linalg.inv(np.zeros((2, 2))), "cn_linalg_inv"),
    (lambda: xp.linalg.cholesky(-xp.eye(2)),
     lambda: np.linalg.cholesky(-np.eye(2)), "cn_linalg_cholesky"),
    (lambda: xp.linalg.solve(xp.zeros((3, 3)), xp.ones(3)),
     lambda: np.linalg.solve(np.zeros((3, 3)), np.ones(3)), "cn_linalg_solve"),
    (lambda: xp.sum(xp.ones(3), axis=2),
     lambda: np.sum(np.ones(3), axis=2), "cn_sum"),
    (lambda: xp.ones((2, 2)).max(axis=-3),
     lambda: np.ones((2, 2)).max(axis=-3), "cn_max"),
    (lambda: xp.ones(3) + xp.ones(4),
     lambda: np.ones(3) + np.ones(4), "cn_add"),
    (lambda: xp.take(xp.ones(3), 5),
     lambda: np.take(np.ones(3), 5), "cn_take"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_class_and_text_match_numpy(case):
    ours, theirs, cname = CASES[case]
    e, n = _raised(ours), _numpy_raised(theirs)
    assert isinstance(e, type(n)), (type(e), type(n))
    text = str(e)
    assert not re.search(r"\bcn_[a-z0-9_]+:", text), text
    assert "LinAlgError:" not in text
    assert e.c_function == cname
    assert e.c_status.startswith("CN_ERR_")
    # the same words as NumPy's message, up to how shapes are printed
    words = lambda s: set(re.findall(r"[a-z]{4,}", s.lower()))  # noqa: E731
    assert words(str(n)) & words(text), (text, str(n))


def test_status_names_follow_the_class():
    assert _raised(lambda: xp.linalg.inv(xp.zeros((2, 2)))).c_status == \
        "CN_ERR_LINALG"
    assert _raised(lambda: xp.sum(xp.ones(3), axis=5)).c_status == \
        "CN_ERR_AXIS"
    assert _raised(lambda: xp.ones(3) + xp.ones(4)).c_status == "CN_ERR_SHAPE"


def test_axis_error_is_value_and_index_error():
    e = _raised(lambda: xp.cumsum(xp.ones((2, 2)), axis=2))
    assert isinstance(e, ValueError) and isinstance(e, IndexError)
    assert str(e).startswith("axis 2 is out of bounds")


def test_singular_text_is_numpys():
    e = _raised(lambda: xp.linalg.inv(xp.zeros((2, 2))))
    assert str(e) == "Singular matrix"
    assert repr(e) == "LinAlgError('Singular matrix')"


def test_failed_call_leaves_no_stale_c_function():
    # two different failures in a row report their own entry points
    e1 = _raised(lambda: xp.ones(3) + xp.ones(4))
    e2 = _raised(lambda: xp.linalg.inv(xp.zeros((2, 2))))
    assert (e1.c_function, e2.c_function) == ("cn_add", "cn_linalg_inv")
