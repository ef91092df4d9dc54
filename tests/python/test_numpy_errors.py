"""NumPy's error behaviours, each call run side by side with NumPy: axis
errors (numpy.exceptions.AxisError and its message), Python integers out of
an integer dtype's range (OverflowError), Generator.choice's checks of p,
non-ASCII einsum subscripts, and the layout pickling keeps."""

import pickle

import numpy as np
import pytest

import cunumpy as xp

from conftest import DTYPES


def both_raise(exc, f_np, f_xp):
    """f_np and f_xp both raise exc; returns the two exceptions."""
    with pytest.raises(exc) as e_np:
        f_np()
    with pytest.raises(exc) as e_xp:
        f_xp()
    return e_np.value, e_xp.value


# ---- axis errors ----------------------------------------------------------

def test_axis_error_is_numpys_class():
    assert xp.AxisError is np.exceptions.AxisError
    assert xp.exceptions.AxisError is np.exceptions.AxisError
    assert issubclass(xp.AxisError, ValueError)
    assert issubclass(xp.AxisError, IndexError)


A2 = np.arange(6.0).reshape(2, 3)

# (name, call taking the module (np or xp) and an array of A2's values)
AXIS_CALLS = [
    ("sum", lambda m, a: m.sum(a, axis=3)),
    ("sum tuple", lambda m, a: m.sum(a, axis=(0, -3))),
    ("mean", lambda m, a: m.mean(a, axis=2)),
    ("max", lambda m, a: m.max(a, axis=-3)),
    ("argmax", lambda m, a: m.argmax(a, axis=2)),
    ("cumsum", lambda m, a: m.cumsum(a, axis=2)),
    ("std", lambda m, a: m.std(a, axis=5)),
    ("sort", lambda m, a: m.sort(a, axis=2)),
    ("argsort", lambda m, a: m.argsort(a, axis=-3)),
    ("partition", lambda m, a: m.partition(a, 1, axis=2)),
    ("take", lambda m, a: m.take(a, [0], axis=2)),
    ("concatenate", lambda m, a: m.concatenate([a, a], axis=2)),
    ("stack", lambda m, a: m.stack([a, a], axis=4)),
    ("moveaxis", lambda m, a: m.moveaxis(a, 0, 2)),
    ("swapaxes", lambda m, a: m.swapaxes(a, 0, 2)),
    ("expand_dims", lambda m, a: m.expand_dims(a, 3)),
    ("squeeze", lambda m, a: m.squeeze(a, axis=2)),
    ("flip", lambda m, a: m.flip(a, axis=2)),
    ("roll", lambda m, a: m.roll(a, 1, axis=2)),
    ("diff", lambda m, a: m.diff(a, axis=2)),
    ("gradient", lambda m, a: m.gradient(a, axis=2)),
    ("quantile", lambda m, a: m.quantile(a, 0.5, axis=2)),
    ("median", lambda m, a: m.median(a, axis=2)),
    ("average", lambda m, a: m.average(a, axis=2)),
    ("unique", lambda m, a: m.unique(a, axis=2)),
    ("sort_complex 0-d", lambda m, a: m.sort_complex(m.asarray(1.0))),
    ("vector_norm", lambda m, a: m.linalg.vector_norm(a, axis=2)),
]


@pytest.mark.parametrize("name,call", AXIS_CALLS, ids=[c[0] for c in AXIS_CALLS])
def test_axis_errors_match_numpy(name, call):
    e_np, e_xp = both_raise(np.exceptions.AxisError,
                            lambda: call(np, A2.copy()),
                            lambda: call(xp, xp.asarray(A2)))
    # Both messages end in NumPy's text; the prefixes name the argument
    # (NumPy) or the engine function.
    text = str(e_np).split(": ")[-1]
    assert text.startswith("axis ")
    assert str(e_xp).endswith(text), (str(e_np), str(e_xp))


# NumPy raises a plain IndexError here (it indexes the shape tuple); ours is
# the AxisError, which is one.
INDEX_CALLS = [
    ("fft", lambda m, a: m.fft.fft(a, axis=2)),
    ("trapezoid", lambda m, a: m.trapezoid(a, axis=2)),
]


@pytest.mark.parametrize("name,call", INDEX_CALLS,
                         ids=[c[0] for c in INDEX_CALLS])
def test_axis_errors_where_numpy_raises_index_error(name, call):
    both_raise(IndexError, lambda: call(np, A2.copy()),
               lambda: call(xp, xp.asarray(A2)))


def test_axis_error_in_range_axes_still_work():
    a = xp.asarray(A2)
    np.testing.assert_array_equal(xp.to_numpy(xp.sum(a, axis=-2)),
                                  A2.sum(axis=-2))
    np.testing.assert_array_equal(
        xp.to_numpy(xp.average(a, axis=(0, 1))), np.average(A2, axis=(0, 1)))
    np.testing.assert_array_equal(
        xp.to_numpy(xp.average(a, axis=-1)), np.average(A2, axis=-1))
    v, c = np.unique(A2, axis=-1, return_counts=True)
    vx, cx = xp.unique(a, axis=-1, return_counts=True)
    np.testing.assert_array_equal(xp.to_numpy(vx), v)
    np.testing.assert_array_equal(xp.to_numpy(cx), c)


def test_axis_error_of_0d_and_empty():
    for arr in (np.array(2.0), np.zeros((0, 3))):
        e_np, e_xp = both_raise(
            np.exceptions.AxisError, lambda: np.sum(arr, axis=arr.ndim + 1),
            lambda: xp.sum(xp.asarray(arr), axis=arr.ndim + 1))
        assert str(e_xp).endswith(str(e_np))
    e = np.zeros((0, 3))
    both_raise(np.exceptions.AxisError, lambda: np.cumsum(e, axis=2),
               lambda: xp.cumsum(xp.asarray(e), axis=2))


# ---- Generator.choice's p -------------------------------------------------

CHOICE_CASES = [
    ("sum", dict(a=3, p=[0.5, 0.2, 0.2])),
    ("zeros", dict(a=3, p=[0.0, 0.0, 0.0])),
    ("negative", dict(a=3, p=[1.5, -0.5, 0.0])),
    ("nan", dict(a=3, p=[np.nan, 0.5, 0.5])),
    ("inf", dict(a=3, p=[np.inf, 0.5, 0.5])),
    ("size", dict(a=3, p=[0.5, 0.5])),
    ("2-d", dict(a=4, p=[[0.25, 0.25], [0.25, 0.25]])),
    ("fewer", dict(a=3, size=2, replace=False, p=[1.0, 0.0, 0.0])),
    ("larger", dict(a=3, size=4, replace=False)),
    ("above tolerance", dict(a=3, p=[0.5, 0.5, 2e-8])),
    ("float32 above tolerance",
     dict(a=3, p=np.array([0.5, 0.5, 4e-4], np.float32))),
    ("array a", dict(a=[10, 20, 30], p=[0.1, 0.1, 0.1])),
]


@pytest.mark.parametrize("name,kw", CHOICE_CASES,
                         ids=[c[0] for c in CHOICE_CASES])
def test_choice_p_checks_match_numpy(name, kw):
    def call(m):
        kw2 = dict(kw)
        if isinstance(kw2.get("p"), np.ndarray):
            kw2["p"] = m.asarray(kw2["p"])
        return m.random.default_rng(0).choice(**kw2)
    e_np, e_xp = both_raise(ValueError, lambda: call(np), lambda: call(xp))
    # NumPy's sentence (up to its first full stop), any case.
    want = str(e_np).split(".")[0].lower()
    assert want in str(e_xp).lower(), (str(e_np), str(e_xp))


@pytest.mark.parametrize("p", [[0.5, 0.5, 1e-8],
                               np.array([0.5, 0.5, 1e-4], np.float32),
                               [0.25, 0.0, 0.75]])
def test_choice_p_within_tolerance_draws(p):
    got = xp.to_numpy(xp.random.default_rng(1).choice(
        3, size=50, p=xp.asarray(p) if isinstance(p, np.ndarray) else p))
    np.random.default_rng(1).choice(3, size=50, p=p)  # NumPy accepts it too
    assert got.shape == (50,)
    assert set(got.tolist()) <= {0, 1, 2}
    if p[1] == 0:
        assert 1 not in got.tolist()


# ---- einsum subscripts ----------------------------------------------------

@pytest.mark.parametrize("subs", ["ij,jk->iκ", "iκ,jk->ij", "ij,jk->ié"])
def test_einsum_non_ascii_subscript_is_a_readable_value_error(subs):
    a = np.ones((2, 2))
    e_np, e_xp = both_raise(ValueError, lambda: np.einsum(subs, a, a),
                            lambda: xp.einsum(subs, xp.asarray(a),
                                              xp.asarray(a)))
    bad = next(c for c in subs if not c.isascii())
    assert bad in str(e_xp)
    assert not isinstance(e_xp, UnicodeError)


def test_einsum_engine_message_with_bytes_is_text():
    # The engine's own check, reached with the UTF-8 bytes.
    a = xp.ones((2, 2))
    with pytest.raises(ValueError, match="non-ASCII byte 0xce at byte "
                                         "position 8"):
        xp._cnlib.cn_einsum("ij,jk->iκ", (a, a))


# ---- pickling keeps NumPy's layout ----------------------------------------

def _layouts(dt):
    base = (np.arange(24) % 7).astype(dt).reshape(2, 3, 4)
    if dt.kind == "c":
        base = base + (1j * base).astype(dt)
    return {
        "C": base,
        "transposed": base.T,
        "F": np.asfortranarray(base),
        "strided": base[:, ::2, ::-1],
        "swapped": base.swapaxes(0, 2)[::2],
        "0-d": np.array(base.flat[5]),
        "empty": np.zeros((0, 3), dt),
        "empty F": np.zeros((3, 0, 2), dt, order="F"),
    }


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickle_keeps_layout_as_numpy(dt, protocol):
    for name, arr in _layouts(dt).items():
        src = xp.asarray(arr)
        if name in ("transposed", "strided", "swapped"):
            # The same view of a cunumpy array, not a copy of NumPy's.
            base = xp.asarray(_layouts(dt)["C"])
            src = {"transposed": base.T, "strided": base[:, ::2, ::-1],
                   "swapped": base.swapaxes(0, 2)[::2]}[name]
        want = pickle.loads(pickle.dumps(arr, protocol))
        got = pickle.loads(pickle.dumps(src, protocol))
        assert isinstance(got, xp.ndarray)
        assert got.dtype == want.dtype, name
        assert got.shape == want.shape, name
        assert bool(got.flags.c_contiguous) == want.flags.c_contiguous, name
        assert bool(got.flags.f_contiguous) == want.flags.f_contiguous, name
        np.testing.assert_array_equal(xp.to_numpy(got), want)


# ---- Python integers out of an integer dtype's range ----------------------

INT_CASES = [("int8", 300), ("int8", -129), ("uint8", -1), ("uint8", 256),
             ("int16", 2**15), ("uint16", -1), ("int32", -2**31 - 1),
             ("uint32", 2**32), ("int64", 2**63), ("int64", -2**63 - 1),
             ("uint64", 2**64), ("uint64", -1)]


def _set0(m, dt, v):
    a = m.zeros(3, dt)
    a[0] = v


def _set_all(m, dt, v):
    a = m.zeros((2, 2), dt)
    a[...] = v


def _set_fancy(m, dt, v):
    a = m.zeros(3, dt)
    a[m.asarray([0, 2])] = v


def _set_mask(m, dt, v):
    a = m.zeros(3, dt)
    a[a == 0] = v


def _fill(m, dt, v):
    m.zeros(3, dt).fill(v)


INT_CALLS = {
    "setitem": _set0, "setitem ellipsis": _set_all,
    "setitem fancy": _set_fancy, "setitem mask": _set_mask, "fill": _fill,
    "full": lambda m, dt, v: m.full(3, v, dtype=dt),
    "full_like": lambda m, dt, v: m.full_like(m.zeros(2, dt), v),
    "array": lambda m, dt, v: m.array(v, dtype=dt),
    "asarray": lambda m, dt, v: m.asarray(v, dtype=dt),
}


@pytest.mark.parametrize("call", list(INT_CALLS), ids=str)
@pytest.mark.parametrize("dt,v", INT_CASES, ids=[f"{d}-{v}" for d, v in
                                                 INT_CASES])
def test_python_int_out_of_range_is_overflow_error(call, dt, v):
    f = INT_CALLS[call]
    e_np, e_xp = both_raise(OverflowError, lambda: f(np, dt, v),
                            lambda: f(xp, dt, v))
    if "out of bounds" in str(e_np):
        assert str(e_np) in str(e_xp), (str(e_np), str(e_xp))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_python_ints_in_range_and_other_dtypes_still_store(dt):
    dt = np.dtype(dt)
    vals = ([int(np.iinfo(dt).min), int(np.iinfo(dt).max)]
            if dt.kind in "iu" else [300, -1])
    for v in vals:
        a, b = np.zeros(3, dt), xp.zeros(3, dt)
        a[1] = v
        b[1] = v
        np.testing.assert_array_equal(xp.to_numpy(b), a)
        a.fill(v)
        b.fill(v)
        np.testing.assert_array_equal(xp.to_numpy(b), a)
        np.testing.assert_array_equal(
            xp.to_numpy(xp.full(2, v, dtype=dt)), np.full(2, v, dtype=dt))
        np.testing.assert_array_equal(
            xp.to_numpy(xp.array(v, dtype=dt)), np.array(v, dtype=dt))
    # bool and NumPy-style casting of arrays are unchanged
    a, b = np.zeros(2, dt), xp.zeros(2, dt)
    a[0] = True
    b[0] = True
    np.testing.assert_array_equal(xp.to_numpy(b), a)
    src = np.array([300, -1])
    a[...] = src.astype(dt, casting="unsafe")
    b[...] = xp.asarray(src)
    np.testing.assert_array_equal(xp.to_numpy(b), a)
