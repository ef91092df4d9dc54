"""pad with a callable mode, against numpy.pad."""

import numpy as np
import pytest

import cunumpy as xp


def _same(got, want):
    g = xp.to_numpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    np.testing.assert_array_equal(g, want)


def pad_with(vector, pad_width, iaxis, kwargs):
    value = kwargs.get("padder", 10)
    vector[:pad_width[0]] = value
    if pad_width[1]:
        vector[-pad_width[1]:] = value


def ramp_by_axis(vector, pad_width, iaxis, kwargs):
    # reads the line (the values of earlier axes' pads included)
    n = vector.size
    vector[:pad_width[0]] = vector[pad_width[0]] - iaxis - 1
    if pad_width[1]:
        vector[n - pad_width[1]:] = vector[n - pad_width[1] - 1] + iaxis + 1


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128,
                                   np.uint8])
@pytest.mark.parametrize("widths", [2, ((1, 0), (0, 2)), ((0, 0), (3, 1)),
                                    0])
def test_pad_callable(dtype, widths):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    for fn, kw in ((pad_with, {}), (pad_with, {"padder": 7}),
                   (ramp_by_axis, {})):
        with np.errstate(over="ignore"):  # uint8 ramps wrap, on both sides
            _same(xp.pad(xp.asarray(a), widths, fn, **kw),
                  np.pad(a, widths, fn, **kw))


def test_pad_callable_strided_3d_and_errors():
    a = np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2]
    _same(xp.pad(xp.asarray(a), 1, ramp_by_axis),
          np.pad(a, 1, ramp_by_axis))
    _same(xp.pad(xp.asarray(np.zeros((0, 2))), 1, pad_with),
          np.pad(np.zeros((0, 2)), 1, pad_with))
    # numpy.pad on a cunumpy array runs here (__array_function__)
    _same(np.pad(xp.asarray(a), 1, pad_with), np.pad(a, 1, pad_with))
    with pytest.raises(ValueError):
        xp.pad(xp.asarray(a), -1, pad_with)
    with pytest.raises(TypeError):
        xp.pad(xp.asarray(a), 1.5, pad_with)
    calls = []
    xp.pad(xp.arange(3.0), (1, 2), lambda v, w, i, k: calls.append((w, i, k)),
           extra=3)
    assert calls == [((1, 2), 0, {"extra": 3})]
