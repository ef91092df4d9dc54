"""Joining and broadcasting any number of operands, as NumPy does."""

import numpy as np
import pytest

import cunumpy as xp

N = 200  # beyond every fixed operand count a binding might have had


def _same(got, want):
    g = xp.to_numpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    np.testing.assert_array_equal(g, want)


def _parts(n=N):
    return [np.arange(3.0) * i + (i % 7) for i in range(n)]


@pytest.mark.parametrize("name", ["concatenate", "stack", "vstack", "hstack",
                                  "dstack", "column_stack", "block"])
def test_join_many(name):
    p = _parts()
    _same(getattr(xp, name)([xp.asarray(a) for a in p]),
          getattr(np, name)(p))


def test_array_of_many_scalars():
    vals = [xp.asarray(float(i) - 0.5) for i in range(N)]
    _same(xp.array(vals), np.array([float(i) - 0.5 for i in range(N)]))
    _same(xp.asarray(vals), np.array([float(i) - 0.5 for i in range(N)]))
    mixed = [xp.asarray(np.int32(i)) for i in range(N)]
    _same(xp.array(mixed), np.arange(N, dtype=np.int32))


def test_broadcast_and_select_many():
    p = [np.arange(3.0).reshape(3, 1) + i for i in range(N)]
    got = xp.broadcast_arrays(*[xp.asarray(a) for a in p], xp.zeros(4))
    want = np.broadcast_arrays(*p, np.zeros(4))
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        _same(g, w)
    conds = [np.arange(5) == (i % 6) for i in range(N)]
    choices = [np.full(5, float(i)) for i in range(N)]
    _same(xp.select([xp.asarray(c) for c in conds],
                    [xp.asarray(c) for c in choices], -1.0),
          np.select(conds, choices, -1.0))
    keys = [np.arange(6) % (i + 2) for i in range(N)]
    _same(xp.lexsort([xp.asarray(k) for k in keys]), np.lexsort(keys))
    assert xp.broadcast_shapes(*[(3, 1)] * N, (4,)) == (3, 4)


def test_join_many_errors():
    p = [xp.ones(3)] * N + [xp.ones(4)]
    with pytest.raises(ValueError):
        xp.stack(p)
    with pytest.raises(ValueError):
        xp.concatenate([xp.ones((2, 2))] * N + [xp.ones(2)])


def test_operand_sequences_that_are_arrays():
    # the rows of an array passed as "a sequence of arrays" live only while
    # the call converts them: they must stay valid through the call
    m = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 1.0, 0.0, 1.0],
                  [5.0, 5.0, 4.0, 4.0]])
    x = xp.asarray(m)
    _same(xp.lexsort(x), np.lexsort(m))
    _same(xp.concatenate(x), np.concatenate(m))
    _same(xp.stack(x, axis=1), np.stack(m, axis=1))
    _same(xp.vstack(x[::-1]), np.vstack(m[::-1]))
    _same(xp.lexsort(tuple(xp.asarray(r) for r in m)), np.lexsort(m))


def test_int64_buffers_are_numpys_int64():
    # the buffer format of int64/uint64 is NumPy's own ("l"/"L" on LP64), so
    # host views print and compare as NumPy's arrays do
    for dt in (np.int64, np.uint64, np.int32, np.float64):
        v = np.asarray(memoryview(xp.arange(3, dtype=dt)))
        assert v.dtype == dt and v.dtype.char == np.dtype(dt).char
        assert repr(xp.arange(3, dtype=dt)) == repr(np.arange(3, dtype=dt))
