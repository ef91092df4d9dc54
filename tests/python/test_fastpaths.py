"""The C entry points of the binding (xp.empty/zeros/ones/asarray, a.dtype,
a.T, a.copy(), a[i], direct ufunc calls) against NumPy: every argument form
they take themselves, the forms they hand to Python, and their errors."""

import gc
import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cunumpy as xp
from conftest import DTYPES, assert_same, raises_like

CREATORS = ["empty", "zeros", "ones"]


@pytest.mark.parametrize("name", CREATORS)
@pytest.mark.parametrize("args,kw", [
    ((5,), {}), (((2, 3),), {}), (([2, 3],), {}), (((),), {}),
    ((0,), {}), ((np.int64(4),), {}), (((2, 3), np.float32), {}),
    (((2, 3), "int16", "F"), {}), (((2, 3),), {"dtype": int}),
    (((2, 3),), {"order": "F"}), (((3,), None), {"order": "C"}),
    ((4,), {"dtype": np.complex64, "order": "C"}), ((2,), {"dtype": bool}),
    ((3,), {"device": "cpu"}), ((3,), {"like": None}),
    ((3, "uint8"), {"device": "cpu"}),
])
def test_creation_forms(name, args, kw):
    res = getattr(xp, name)(*args, **kw)
    kw_np = {k: v for k, v in kw.items() if k != "device"}
    ref = getattr(np, name)(*args, **kw_np)
    assert isinstance(res, xp.ndarray)
    assert res.shape == ref.shape and res.dtype == ref.dtype
    assert res.flags.f_contiguous == ref.flags.f_contiguous
    assert res.flags.c_contiguous == ref.flags.c_contiguous
    if name != "empty":
        assert_same(res, ref)


@pytest.mark.parametrize("name", CREATORS)
@pytest.mark.parametrize("args,kw", [
    ((2.5,), {}), (((2, -1),), {}), (("3",), {}), ((3, "nope"), {}),
    ((3,), {"order": "X"}), ((3,), {"bogus": 1}), ((), {}),
    ((3, float, "C", 1), {}), ((3,), {"dtype": "float16x"}),
    (((2, 3.0),), {}),
])
def test_creation_errors(name, args, kw):
    raises_like(lambda: getattr(xp, name)(*args, **kw),
                lambda: getattr(np, name)(*args, **kw))


def test_creation_signatures_and_names():
    for name in CREATORS + ["asarray"]:
        f = getattr(xp, name)
        assert f.__name__ == name
        assert "dtype" in f.__text_signature__
        assert f.__doc__


SCALARS = st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1),
                    st.floats(allow_nan=True), st.complex_numbers())


def nested(elements):
    """Rectangular nested lists/tuples of up to 3 levels."""
    def level(inner, n):
        return st.builds(lambda xs, as_tuple: tuple(xs) if as_tuple else xs,
                         st.lists(inner, min_size=n, max_size=n),
                         st.booleans())

    return st.integers(0, 3).flatmap(
        lambda n1: st.integers(0, 3).flatmap(
            lambda n2: st.one_of(elements, level(elements, n1),
                                 level(level(elements, n2), n1))))


@given(nested(st.one_of(st.booleans(), st.integers(-5, 5)) | SCALARS))
def test_asarray_nested_builtin_scalars(obj):
    ref = np.asarray(obj)
    res = xp.asarray(obj)
    assert_same(res, ref, exact=True)
    assert_same(xp.array(obj), ref, exact=True)


@pytest.mark.parametrize("obj", [
    [], [[], []], (), [1, True], [True, 2.5], [1, 1j], [2**63], [2**64 - 1],
    [2**63, 1.5], [[1, 2], (3, 4)], [np.float32(1), np.float32(2)],
    [np.int8(3)], [1, np.float64(2)], [[1], [2]],
])
def test_asarray_list_edge_cases(obj):
    assert_same(xp.asarray(obj), np.asarray(obj))


@pytest.mark.parametrize("obj", [[[1, 2], [3]], [1, [2]]])
def test_asarray_list_errors(obj):
    raises_like(lambda: xp.asarray(obj), lambda: np.asarray(obj))


@pytest.mark.parametrize("obj", [[2**64], [-2**63 - 1], [object()],
                                 ["a", 1]])
def test_asarray_foreign_element_types_refused(obj):
    assert np.asarray(obj).dtype.kind in "OU"  # no cunumpy dtype holds these
    with pytest.raises(TypeError):
        xp.asarray(obj)


def test_asarray_forms_handed_on():
    a = xp.arange(3.0)
    assert xp.asarray(a) is a
    assert_same(xp.asarray([1, 2, 3], dtype=np.int8),
                np.asarray([1, 2, 3], dtype=np.int8))
    assert_same(xp.asarray([1.5, 2.7], dtype=int),
                np.asarray([1.5, 2.7], dtype=int))
    raises_like(lambda: xp.asarray([300], dtype=np.int8),
                lambda: np.asarray([300], dtype=np.int8))
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    b = xp.asarray(a, copy=True)
    b[0] = 9.0
    assert a[0] == 0.0
    for v in [True, 3, -2**63, 2**63, 2.5, 1 + 2j]:
        assert_same(xp.asarray(v), np.asarray(v))
    assert_same(xp.asarray(np.float32(2.5)), np.asarray(np.float32(2.5)))
    with pytest.raises(OverflowError):  # NumPy: an object array
        xp.asarray(2**64)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_attribute(dtype):
    a = xp.zeros((2, 1), dtype)
    assert a.dtype == dtype and a.dtype is np.dtype(dtype)
    assert a[0].dtype == dtype and a.T.dtype == dtype


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
def test_T_and_copy(shape):
    ref = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    a = xp.asarray(ref)
    assert_same(a.T, ref.T)
    if ref.size:
        t = a.T
        t[(0,) * len(shape)] = 42
        assert int(a[(0,) * len(shape)]) == 42  # a view
        a[(0,) * len(shape)] = 0
    for order in ["C", "F", "A", "K"]:
        c = a.T.copy(order)
        e = ref.T.copy(order)
        assert_same(c, e)
        assert c.flags.c_contiguous == e.flags.c_contiguous
        assert c.flags.f_contiguous == e.flags.f_contiguous
        assert_same(a.T.copy(order=order), e)
    c = a.copy()
    assert c.flags.c_contiguous and c.flags.owndata
    if ref.size:
        c[(0,) * len(shape)] = 99
        assert_same(a, ref)  # a copy, not a view


def test_copy_errors():
    a = xp.arange(3)
    with pytest.raises(ValueError):
        a.copy("X")
    with pytest.raises(TypeError):
        a.copy("C", "F")
    with pytest.raises(TypeError):
        a.copy(bogus="C")


@pytest.mark.parametrize("i", [0, 1, 4, -1, -5, np.int64(2), np.int8(-2)])
def test_int_index(i):
    ref = np.arange(10.0).reshape(5, 2)
    a = xp.asarray(ref)
    assert_same(a[i], ref[i])
    v = xp.asarray(np.arange(5))
    assert_same(v[i], np.asarray(np.arange(5)[i]))  # a 0-d array


@pytest.mark.parametrize("i", [5, -6, 2**70, -2**70, 1.0, "0", 1j])
def test_int_index_errors(i):
    ref = np.arange(5)
    raises_like(lambda: xp.asarray(ref)[i], lambda: ref[i])
    raises_like(lambda: xp.asarray(np.array(3))[0],
                lambda: np.array(3)[0])


def test_int_index_is_a_view():
    a = xp.zeros((3, 2))
    row = a[1]
    row[0] = 7.0
    assert float(a[1, 0]) == 7.0


@given(st.sampled_from(["sqrt", "sin", "negative", "abs", "add", "multiply",
                        "maximum", "arctan2", "less", "clip"]),
       st.sampled_from([0, 1, 2]))
def test_ufunc_direct_calls(name, mode):
    na = np.linspace(-3, 3, 7)
    nb = np.linspace(1, 2, 7)[::-1]
    a, b = xp.asarray(na), xp.asarray(nb)
    operands = [(a, na), (b, nb), (2.0, 2.0)]
    if mode == 1:
        operands[0] = ([-1, 2, 5, 0, 1, 3, 9], [-1, 2, 5, 0, 1, 3, 9])
    if mode == 2:
        operands[1] = (3, 3)
    f_xp = getattr(xp, name)
    f_np = getattr(np, name)
    nin = 3 if name == "clip" else (f_np.nin if hasattr(f_np, "nin") else 1)
    args_xp = [o[0] for o in operands[:nin]]
    args_np = [o[1] for o in operands[:nin]]
    with np.errstate(all="ignore"):
        ref = f_np(*args_np)
    assert_same(f_xp(*args_xp), ref)
    # the keyword path agrees with the direct one
    if name != "clip":
        out = xp.empty(np.shape(ref), ref.dtype)
        assert f_xp(*args_xp, out=out) is out
        assert_same(out, ref)


def test_ufunc_direct_errors():
    raises_like(lambda: xp.sqrt("a"), lambda: np.sqrt("a"))
    raises_like(lambda: xp.add(xp.arange(3), xp.arange(4)),
                lambda: np.add(np.arange(3), np.arange(4)))
    raises_like(lambda: xp.bitwise_and(xp.arange(3.0), 1),
                lambda: np.bitwise_and(np.arange(3.0), 1))
    with pytest.raises(TypeError):
        xp.add(1)
    with pytest.raises(TypeError):
        xp.add(1, 2, 3, 4)


def test_weak_scalars_of_direct_calls_are_not_shared():
    a = xp.add(2.0, 0.0)
    b = xp.add(2.0, 0.0)
    a[...] = 5.0
    assert float(b) == 2.0
    assert float(xp.multiply(2.0, 1.0)) == 2.0


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                    reason="needs /proc")
def test_small_arrays_do_not_accumulate():
    """Creating and dropping small arrays through the fast paths reuses
    memory: 1e5 more rounds leave the resident size where it was (a leak
    of one small block per round would add megabytes)."""
    def rounds(n):
        for i in range(n):
            xp.zeros(i % 100)
            xp.asarray([1.0, 2.0, float(i)])
            xp.arange(10.0)[1:5].copy().T
            xp.sqrt(xp.ones(3))[0]

    rounds(20000)
    gc.collect()
    before = _rss_bytes()
    rounds(100000)
    gc.collect()
    assert _rss_bytes() - before < 2 << 20


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 3)])
def test_tolist(dtype, shape):
    ref = (np.arange(int(np.prod(shape))) * 1.7 - 3).reshape(shape)
    ref = (ref > 0) if dtype == np.bool_ else ref.astype(dtype)
    a = xp.asarray(ref)
    for x, e in [(a, ref), (a.T, ref.T), (a[::-1] if a.ndim else a,
                                           ref[::-1] if ref.ndim else ref)]:
        got = x.tolist()
        assert got == e.tolist()
        flat = got if isinstance(got, list) else [got]
        while flat and isinstance(flat[0], list):
            flat = [v for sub in flat for v in sub]
        want = e.ravel().tolist()
        assert [type(v) for v in flat] == [type(v) for v in want]


@pytest.mark.parametrize("args,kw", [
    ((6,), {}), ((2, 3), {}), (((3, 2),), {}), (([3, 2],), {}),
    ((-1,), {}), ((3, -1), {"order": "F"}), (((2, 3),), {"order": "C"}),
    (((6, 1),), {"copy": True}), (((3, 2),), {"copy": False}),
    ((np.int64(6),), {}),
])
def test_reshape_method(args, kw):
    ref = np.arange(6.0).reshape(2, 3)
    a = xp.asarray(ref)
    res = a.reshape(*args, **kw)
    assert_same(res, ref.reshape(*args, **kw))
    if kw.get("copy"):
        res[...] = -1.0
        assert_same(a, ref)


@pytest.mark.parametrize("args,kw", [
    ((4,), {}), ((7, -1), {}), ((2.0, 3), {}), ((), {}),
    ((6,), {"order": "X"}), ((6,), {"bogus": 1}),
])
def test_reshape_method_errors(args, kw):
    ref = np.arange(6.0).reshape(2, 3)
    raises_like(lambda: xp.asarray(ref).reshape(*args, **kw),
                lambda: ref.reshape(*args, **kw))
    with pytest.raises(ValueError):
        xp.asarray(ref).T.reshape(6, copy=False)


@pytest.mark.parametrize("order", [None, "C", "F", "A", "K"])
def test_ravel_method(order):
    ref = np.arange(12).reshape(3, 4)[:, ::-1].T
    a = xp.asarray(np.arange(12).reshape(3, 4))[:, ::-1].T
    args = () if order is None else (order,)
    assert_same(a.ravel(*args), ref.ravel(*args))
    if order is not None:
        assert_same(a.ravel(order=order), ref.ravel(order=order))
    with pytest.raises(TypeError):
        a.ravel("C", "F")
    with pytest.raises(ValueError):
        a.ravel("X")


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_conversions(dtype):
    ref = np.array(3, dtype=dtype) if dtype != np.bool_ else np.array(True)
    a = xp.asarray(ref)
    for conv in [bool, int, float, complex]:
        if conv in (int, float) and dtype.kind == "c":
            with pytest.raises(TypeError):
                conv(a)
            continue
        got, want = conv(a), conv(ref)
        assert got == want and type(got) is type(want)
        got1 = conv(xp.asarray(ref.reshape(1, 1)))
        assert got1 == want
    if dtype.kind in "iu":
        assert [0, 1, 2, 3, 4][a] == 3 and __import__("operator").index(a) \
            == 3
    else:
        with pytest.raises(TypeError):
            __import__("operator").index(a)
    with pytest.raises(TypeError):
        __import__("operator").index(xp.asarray(np.arange(2)))


def test_scalar_conversion_errors():
    for arr in [np.arange(3.0), np.zeros((0,))]:
        for conv in [bool, int, float]:
            raises_like(lambda: conv(xp.asarray(arr)), lambda: conv(arr))


def test_common_python_paths():
    assert_same(xp.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]))
    assert_same(xp.array((1.5, True)), np.array((1.5, True)))
    assert_same(xp.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3))
    assert_same(xp.array([1, 2], dtype=np.uint8),
                np.array([1, 2], dtype=np.uint8))
    for args in [(5,), (5.0,), (0,), (-3,), (2.5,), (1, 7, 2), (7, 1, -2),
                 (np.int32(4),)]:
        assert_same(xp.arange(*args), np.arange(*args))
    for v in [2, 2.5, True, 1 + 1j, -7]:
        assert_same(xp.full((2, 2), v), np.full((2, 2), v))
        assert_same(xp.full(3, v, np.float32), np.full(3, v, np.float32))
    raises_like(lambda: xp.full(3, 300, np.int8),
                lambda: np.full(3, 300, np.int8))
    a = np.arange(12).reshape(4, 3)
    x = xp.asarray(a)
    assert_same(x.astype(np.float32), a.astype(np.float32))
    y = x.astype(np.int64, copy=False)
    assert y is x or y.shape == x.shape
    for key in [[1, 3], [0], [-1, -4, 2], np.array([2, 0]),
                np.array([[1], [3]], np.int32), np.array([], np.int64)]:
        assert_same(x[xp.asarray(key) if isinstance(key, np.ndarray)
                      else key], a[key])
    for key in [[4], [-5], [1, 9]]:
        raises_like(lambda: x[key], lambda: a[key])
    raises_like(lambda: xp.asarray(3)[[0]], lambda: np.asarray(3)[[0]])
