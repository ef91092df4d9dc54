"""cunumpy.testing: NumPy's assertions (numpy.testing) for cunumpy arrays.

Each assertion copies cunumpy arrays (CPU or device) to NumPy, inside lists
and tuples too, and then runs numpy.testing's function of the same name, so
tolerances, NaN handling and failure messages are NumPy's. assert_raises,
assert_raises_regex, assert_warns, assert_no_warnings and
assert_string_equal take no arrays and are NumPy's own."""

import functools as _functools

import numpy.testing as _nt

from ._ndarray import ndarray as _ndarray

__all__ = ["assert_allclose", "assert_almost_equal", "assert_approx_equal",
           "assert_array_almost_equal", "assert_array_almost_equal_nulp",
           "assert_array_compare", "assert_array_equal", "assert_array_less",
           "assert_array_max_ulp", "assert_equal", "assert_string_equal",
           "assert_raises", "assert_raises_regex", "assert_warns",
           "assert_no_warnings", "to_host"]


def to_host(x):
    """x with every cunumpy array (device ones copied to the host) replaced
    by a NumPy array, through lists, tuples and dict values."""
    if isinstance(x, _ndarray):
        return x.get()
    if isinstance(x, list):
        return [to_host(e) for e in x]
    if isinstance(x, tuple):
        return tuple(to_host(e) for e in x)
    if isinstance(x, dict):
        return {k: to_host(v) for k, v in x.items()}
    return x


def _on_host(fn):
    @_functools.wraps(fn)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line
        return fn(*[to_host(a) for a in args],
                  **{k: to_host(v) for k, v in kwargs.items()})
    wrapper.__doc__ = (f"numpy.testing.{fn.__name__} on host copies of "
                       f"cunumpy arrays.\n\n" + (fn.__doc__ or ""))
    return wrapper


assert_allclose = _on_host(_nt.assert_allclose)
assert_almost_equal = _on_host(_nt.assert_almost_equal)
assert_approx_equal = _on_host(_nt.assert_approx_equal)
assert_array_almost_equal = _on_host(_nt.assert_array_almost_equal)
assert_array_almost_equal_nulp = _on_host(_nt.assert_array_almost_equal_nulp)
assert_array_compare = _on_host(_nt.assert_array_compare)
assert_array_equal = _on_host(_nt.assert_array_equal)
assert_array_less = _on_host(_nt.assert_array_less)
assert_array_max_ulp = _on_host(_nt.assert_array_max_ulp)
assert_equal = _on_host(_nt.assert_equal)
assert_string_equal = _nt.assert_string_equal
assert_raises = _nt.assert_raises
assert_raises_regex = _nt.assert_raises_regex
assert_warns = _nt.assert_warns
assert_no_warnings = _nt.assert_no_warnings
