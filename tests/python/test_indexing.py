"""__getitem__ / __setitem__ against NumPy: ints, slices (negative steps),
Ellipsis, None, integer arrays, boolean masks, and their errors."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy as xp
from conftest import assert_same, builtin_exception

SHAPE = (4, 5, 3)
BASE = np.arange(60).reshape(SHAPE)


@st.composite
def basic_index(draw, shape=SHAPE):
    return draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True,
                                  allow_ellipsis=True))


@given(basic_index())
def test_basic_getitem(key):
    a = xp.asarray(BASE)
    assert_same(a[key], BASE[key])


@given(basic_index(), st.integers(-50, 50))
def test_basic_setitem(key, value):
    ref = BASE.copy()
    a = xp.asarray(BASE.copy())
    ref[key] = value
    a[key] = value
    assert_same(a, ref)


@given(hnp.integer_array_indices(SHAPE, result_shape=hnp.array_shapes(
    min_dims=0, max_dims=2, max_side=3)))
def test_integer_array_getitem(key):
    a = xp.asarray(BASE)
    assert_same(a[key], BASE[key])


@given(st.data())
def test_boolean_mask(data):
    mask = data.draw(hnp.arrays(np.bool_, SHAPE))
    a = xp.asarray(BASE.copy())
    assert_same(a[xp.asarray(mask)], BASE[mask])
    assert_same(a[mask], BASE[mask])
    ref = BASE.copy()
    ref[mask] = -1
    a[mask] = -1
    assert_same(a, ref)
    m2 = data.draw(hnp.arrays(np.bool_, SHAPE[:1]))
    assert_same(xp.asarray(BASE)[m2], BASE[m2])


def test_mixed_advanced_keys():
    a = xp.asarray(BASE)
    for key in [(slice(None), [0, 2]), ([1, 3], slice(1, 4), 0),
                (Ellipsis, [2, 0]), ([0, 1], slice(None), [2, 0]),
                ([[0], [1]], [1, 2]), (1, [0, 2, 4]), (np.array([3, 1]),)]:
        assert_same(a[key], BASE[key])
    ref = BASE.copy()
    b = xp.asarray(BASE.copy())
    ref[[0, 2], 1:3] = 7
    b[[0, 2], 1:3] = 7
    assert_same(b, ref)
    ref[:, [1, 0], 2] = ref[:, [1, 0], 2] * 2
    b[:, [1, 0], 2] = b[:, [1, 0], 2] * 2
    assert_same(b, ref)


@pytest.mark.parametrize("key", [10, -5, (0, 7), (slice(None), 9),
                                 [0, 4], (0, 0, 0, 0), (Ellipsis, Ellipsis),
                                 np.array([True, False])])
def test_index_errors_match_numpy(key):
    a_np = np.arange(12).reshape(4, 3)
    with pytest.raises(Exception) as info:
        a_np[key]
    with pytest.raises(builtin_exception(info.type)):
        xp.asarray(a_np)[key]


def test_views_share_memory_and_negative_steps():
    a = xp.arange(10)
    v = a[::-3]
    assert_same(v, np.arange(10)[::-3])
    assert v.strides == (-24,)
    v[0] = 100
    assert a[9].item() == 100
    assert_same(a[None, 2:5, None], np.arange(10)[None, 2:5, None])
    with pytest.raises(ValueError):
        a[::0]


def test_len_iter_scalars():
    a = xp.asarray(BASE)
    assert len(a) == 4
    assert [r.shape for r in a] == [(5, 3)] * 4
    z = xp.asarray(3.5)
    with pytest.raises(TypeError):
        len(z)
    with pytest.raises(TypeError):
        iter(z)
    assert float(z) == 3.5 and int(z) == 3 and complex(z) == 3.5 + 0j
    assert bool(xp.asarray([1])) is True
    assert [10, 20, 30][xp.asarray(1)] == 20
    with pytest.raises(TypeError):
        [1, 2][xp.asarray(1.0)]
    with pytest.raises(ValueError):
        bool(xp.arange(3))
    with pytest.raises(TypeError):
        float(xp.arange(3))
    assert a.item(7) == BASE.item(7)
    assert a.item((1, 2, 0)) == BASE.item((1, 2, 0))
    assert a.tolist() == BASE.tolist()
    assert 59 in a and 60 not in a


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "float32",
                                   "float64", "complex128"])
def test_mask_and_take_fast_paths(dtype):
    """a[mask] over the whole of a C-contiguous array (one fused, threaded
    pass) and a[int_array] on 1-d arrays, large and small, against NumPy."""
    rng = np.random.default_rng(3)
    for shape in ((1_000_003,), (700, 300), (3,), (0,), (7, 1, 5)):
        a = (rng.standard_normal(shape) * 10).astype(dtype)
        for m in (rng.random(shape) > 0.5, np.zeros(shape, bool),
                  np.ones(shape, bool)):
            np.testing.assert_array_equal(
                xp.asarray(a)[xp.asarray(m)].get(), a[m])
        flat = a.reshape(-1)
        if flat.size:
            idx = rng.integers(-flat.size, flat.size, 5000)
            np.testing.assert_array_equal(
                xp.asarray(flat)[xp.asarray(idx)].get(), flat[idx])
            np.testing.assert_array_equal(
                xp.asarray(flat)[::-2][xp.asarray(idx // 2)].get(),
                flat[::-2][idx // 2])


HUGE = 2**63 - 1
HUGE_BOUNDS = [None, -HUGE, -2**62, -7, -3, -1, 0, 1, 3, 6, 2**62, HUGE]
HUGE_STEPS = [HUGE, HUGE - 1, -HUGE, -(2**63), 2**62, -(2**62), 5, -5]


@pytest.mark.parametrize("n", [0, 1, 6])
@pytest.mark.parametrize("step", HUGE_STEPS)
def test_slices_with_huge_steps_match_numpy(n, step):
    base = np.arange(n * 16.0).reshape(n, 4, 4)
    a = xp.asarray(base)
    for start in HUGE_BOUNDS:
        for stop in HUGE_BOUNDS:
            key = slice(start, stop, step)
            v, ref = a[key], base[key]
            assert_same(v, ref)
            assert v.size == ref.size
            # a view of the view stays inside the buffer
            assert_same(v[::-1], ref[::-1])
            assert_same(v[key], ref[key])
            assert float(v.sum()) == float(ref.sum())


def test_huge_negative_step_view_resliced():
    base = np.arange(96.0).reshape(6, 4, 4)
    a = xp.asarray(base)
    v = a[3:-3:-(2**63 - 1)]
    assert v.shape == base[3:-3:-(2**63 - 1)].shape == (0, 4, 4)
    assert_same(v[::-1], base[3:-3:-(2**63 - 1)][::-1])
    w = a[-1:0:-(2**63 - 1)]
    assert w.shape == (1, 4, 4)
    assert_same(w[::-1].copy(), base[5:6])
