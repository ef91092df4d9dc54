"""Shared helpers for the Python tests: NumPy (>= 2) is the oracle."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp

assert int(np.__version__.split(".")[0]) >= 2, "the oracle is NumPy >= 2"

settings.register_profile(
    "cunumpy", max_examples=int(os.environ.get("CUNUMPY_HYPOTHESIS_EXAMPLES",
                                               "25")),
    deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                          HealthCheck.data_too_large],
    derandomize=True, print_blob=True, database=None)
settings.load_profile("cunumpy")

DTYPES = [np.dtype(n) for n in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float32", "float64", "complex64", "complex128")]
INT_DTYPES = [d for d in DTYPES if d.kind in "iu"]
FLOAT_DTYPES = [d for d in DTYPES if d.kind == "f"]
INEXACT_DTYPES = [d for d in DTYPES if d.kind in "fc"]
NUM_DTYPES = [d for d in DTYPES if d.kind != "b"]


def builtin_exception(exc_type):
    """The first builtin class in an exception's MRO (NumPy raises private
    subclasses such as _UFuncNoLoopError(TypeError))."""
    for t in exc_type.__mro__:
        if t.__module__ == "builtins":
            return t
    return Exception


def raises_like(f_xp, f_np):
    """Both calls fail, with compatible exception types: NumPy's is a
    subclass of the builtin class of ours (NumPy's AxisError is both a
    ValueError and an IndexError)."""
    with pytest.raises(Exception) as e_np:
        f_np()
    with pytest.raises(Exception) as e_xp:
        f_xp()
    assert issubclass(e_np.type, builtin_exception(e_xp.type)), (
        e_xp.value, e_np.value)


def elements(dtype, finite=False, small=False):
    """Values of dtype, with the specials (NaN, inf, -0.0) unless finite."""
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = (int(info.min), int(info.max))
        if small:
            lo, hi = max(lo, -20), min(hi, 20)
        return st.integers(lo, hi)
    width = 32 if dtype in (np.float32, np.complex64) else 64
    bound = 50.0 if small else (1e6 if width == 32 else 1e12)
    f = st.floats(-bound, bound, width=width, allow_nan=False,
                  allow_infinity=False)
    if not finite:
        f = st.one_of(f, st.sampled_from([np.nan, np.inf, -np.inf, -0.0,
                                          0.0]))
    if dtype.kind == "c":
        # Complex infinities and NaNs follow different special-value rules in
        # NumPy and C99 (Annex G); only finite complex values are compared.
        g = st.floats(-bound, bound, width=width, allow_nan=False,
                      allow_infinity=False)
        return st.builds(complex, g, g)
    return f


@st.composite
def arrays(draw, dtype, shape, finite=False, small=False):
    """(numpy array, cunumpy array) with equal values; the cunumpy one is
    sometimes a strided or negative-stride view of a bigger array."""
    a = draw(hnp.arrays(dtype, shape, elements=elements(dtype, finite,
                                                         small)))
    mode = draw(st.sampled_from(["contiguous", "strided", "reversed",
                                 "fortran"]))
    if mode == "contiguous" or a.ndim == 0:
        return a, xp.asarray(a.copy())
    if mode == "fortran":
        return a, xp.asarray(np.asfortranarray(a))
    if mode == "strided":
        base = np.zeros(tuple(2 * n for n in a.shape), dtype)
        sl = (slice(None, None, 2),) * a.ndim
        base[sl] = a
        return a, xp.asarray(base)[sl]
    sl = (slice(None, None, -1),) * a.ndim
    base = np.ascontiguousarray(a[sl])
    return a, xp.asarray(base)[sl]


def assert_same(res, expected, *, ulp=8, exact=None, scale=None):
    """res (cunumpy) equals expected (NumPy): same dtype and shape; exact
    for bool/integer results, within a few ulp (NaNs equal) for inexact,
    absolute errors measured against `scale` (default: the largest finite
    expected magnitude)."""
    assert isinstance(res, xp.ndarray), type(res)
    expected = np.asarray(expected)
    got = res.get()
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if exact is None:
        exact = expected.dtype.kind in "biu"
    if exact:
        np.testing.assert_array_equal(got, expected)
        return
    eps = np.finfo(expected.dtype).eps
    if scale is None:
        finite = np.isfinite(expected)
        scale = np.max(np.abs(expected[finite]), initial=1.0)
    np.testing.assert_allclose(got, expected, rtol=ulp * eps,
                               atol=ulp * eps * scale, equal_nan=True)
