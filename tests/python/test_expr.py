"""xp.evaluate and xp.fuse (include/cunumpy/expr.h) against NumPy: dtype
rules with weak scalars for every operator and dtype pair, random
expression trees over shapes, broadcasting, strides and dtypes, reductions,
the parser's errors and the fusion tracer's errors."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cunumpy as xp
import cunumpy as cp
from conftest import DTYPES, builtin_exception

BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>",
          "<", "<=", ">", ">=", "==", "!="]


def np_binop(op, a, b):
    return eval(f"a {op} b", {"a": a, "b": b})


def values_for(dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return np.array([True, False, True])
    return np.array([1, 2, 3]).astype(dt)


def check_same(got, want, tol=None):
    got = xp.to_numpy(got) if isinstance(got, xp.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if tol is None:
        tol = {"f": 1e-5, "c": 1e-5}.get(want.dtype.kind, 0)
        if want.dtype in (np.float64, np.complex128):
            tol = 1e-12
    if tol:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


def oracle(fn_np, fn_xp):
    """NumPy's outcome, or, where cunumpy's own ufuncs deliberately differ
    from NumPy (bool ** int), theirs: an
    expression follows the engine's ufunc rules exactly."""
    want, werr = outcome(fn_np)
    alt, aerr = outcome(fn_xp)
    if aerr != werr or (werr is None and np.asarray(want).dtype !=
                        xp.to_numpy(alt).dtype):
        return (None if aerr else xp.to_numpy(alt)), aerr
    return want, werr


def outcome(fn):
    """(result, None) or (None, builtin exception class)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return fn(), None
    except Exception as e:  # noqa: BLE001 - the oracle's class decides
        return None, builtin_exception(type(e))


# ---- dtype rules: every operator, every dtype pair, weak scalars ----------

@pytest.mark.parametrize("op", BINOPS)
@pytest.mark.parametrize("da", DTYPES, ids=str)
def test_operator_dtypes_match_numpy(op, da):
    a_np = values_for(da)
    a = xp.asarray(a_np)
    for db in DTYPES:
        b_np = values_for(db)
        b = xp.asarray(b_np)
        want, werr = oracle(lambda: np_binop(op, a_np, b_np),
                            lambda: np_binop(op, a, b))
        got, gerr = outcome(lambda: xp.evaluate(f"a {op} b",
                                                 local_dict={"a": a, "b": b}))
        assert gerr == werr, (op, da, db, gerr, werr)
        if werr is None:
            check_same(got, want)


@pytest.mark.parametrize("op", BINOPS)
@pytest.mark.parametrize("da", DTYPES, ids=str)
@pytest.mark.parametrize("scalar", ["2", "2.5", "2j", "True", "(-1)"])
def test_weak_scalar_dtypes_match_numpy(op, da, scalar):
    a_np = values_for(da)
    a = xp.asarray(a_np)
    s = eval(scalar)
    for text, fn, fx in (
            (f"a {op} {scalar}", lambda: np_binop(op, a_np, s),
             lambda: np_binop(op, a, s)),
            (f"{scalar} {op} a", lambda: np_binop(op, s, a_np),
             lambda: np_binop(op, s, a))):
        want, werr = oracle(fn, fx)
        got, gerr = outcome(lambda: xp.evaluate(text, local_dict={"a": a}))
        if werr is not None and gerr is not None:
            continue
        assert gerr == werr, (text, da, gerr, werr)
        check_same(got, want)


def test_float32_times_python_float_stays_float32():
    x = xp.asarray(np.arange(5, dtype=np.float32))  # noqa: F841
    assert xp.evaluate("x * 2.0").dtype == np.float32
    assert xp.evaluate("x * 2").dtype == np.float32
    assert xp.evaluate("x * 2j").dtype == np.complex64
    i = xp.asarray(np.arange(5, dtype=np.int8))  # noqa: F841
    assert xp.evaluate("i + 1").dtype == np.int8
    assert xp.evaluate("i + 1.5").dtype == np.float64
    with pytest.raises(OverflowError):
        xp.evaluate("i + 300")


@pytest.mark.parametrize("name", [n for n in dir(np) if False] + [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "exp", "exp2", "expm1", "log",
    "log1p", "log2", "log10", "sqrt", "cbrt", "abs", "negative", "square",
    "reciprocal", "floor", "ceil", "trunc", "rint", "isnan", "isinf",
    "isfinite", "signbit", "sign", "logical_not", "conj", "real", "imag",
    "angle", "spacing", "bitwise_invert"])
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_unary_functions_match_numpy(name, dt):
    a_np = np.array([0.25, 0.5, 0.75, 2.0, -0.5]).astype(dt) \
        if np.dtype(dt).kind in "fc" else values_for(dt)
    a = xp.asarray(a_np)  # noqa: F841
    npname = {"abs": "absolute", "conj": "conjugate",
              "bitwise_invert": "invert"}.get(name, name)
    want, werr = oracle(lambda: getattr(np, npname)(a_np),
                        lambda: getattr(xp, npname)(a))
    got, gerr = outcome(lambda: xp.evaluate(f"{name}(a)",
                                             local_dict={"a": a}))
    if werr is None and name in ("real", "imag", "angle"):
        want = np.asarray(want)
    if werr is None and name == "angle" and np.dtype(dt) == np.bool_:
        # the op's float-only loop rule (docs/differences.md): float16
        want = want.astype(np.float16)
    assert gerr == werr, (name, dt, gerr, werr)
    if werr is None:
        tol = 1e-5 if np.asarray(want).dtype.kind in "fc" else 0
        check_same(got, want, tol)


def test_binary_functions_and_where():
    a_np = np.linspace(-2, 2, 17)
    b_np = np.linspace(3, -1, 17)
    a, b = xp.asarray(a_np), xp.asarray(b_np)  # noqa: F841
    check_same(xp.evaluate("arctan2(a, b)"), np.arctan2(a_np, b_np))
    check_same(xp.evaluate("hypot(a, b) + maximum(a, b)"),
               np.hypot(a_np, b_np) + np.maximum(a_np, b_np))
    check_same(xp.evaluate("where(a > 0.5, a, b)"),
               np.where(a_np > 0.5, a_np, b_np))
    check_same(xp.evaluate("where(a, 1, 2.5)"), np.where(a_np != 0, 1, 2.5))
    check_same(xp.evaluate("clip(a, -1, 1)"), np.clip(a_np, -1, 1))
    check_same(xp.evaluate("(a > 0) & (b > 0) | ~(a < -1)"),
               (a_np > 0) & (b_np > 0) | ~(a_np < -1))
    check_same(xp.evaluate("-a**2"), -a_np ** 2)
    check_same(xp.evaluate("a ** 0"), a_np ** 0)
    with np.errstate(all="ignore"):
        check_same(xp.evaluate("a ** 0.5"), a_np ** 0.5)
        check_same(xp.evaluate("a ** -1"), a_np ** -1.0)
    check_same(xp.evaluate("absolute(a) + conjugate(b) + mod(a, 0.75)"),
               np.absolute(a_np) + np.conjugate(b_np) + np.mod(a_np, 0.75))


def test_casts():
    a_np = np.array([-1.5, 0.0, 2.7, 300.2])
    a = xp.asarray(a_np)  # noqa: F841
    for name in ("int8", "int32", "uint8", "float32", "bool", "complex64",
                 "int64", "uint64"):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = a_np.astype(name)
        check_same(xp.evaluate(f"{name}(a)"), want)
    check_same(xp.evaluate("float32(a) * 2.0"),
               a_np.astype(np.float32) * 2.0)
    check_same(xp.evaluate("int8(3.9) + a"), np.int8(3) + a_np)


def test_literals():
    a = xp.asarray(np.arange(3.0))  # noqa: F841
    np_a = np.arange(3.0)
    check_same(xp.evaluate("a + 0x10 + 0o7 + 0b11 + 1e-3 + .5 + 5."),
               np_a + 0x10 + 0o7 + 0b11 + 1e-3 + .5 + 5.)
    check_same(xp.evaluate("a * 1.5j"), np_a * 1.5j)
    check_same(xp.evaluate("a + True"), np_a + True)
    u = xp.asarray(np.arange(3, dtype=np.uint64))  # noqa: F841
    check_same(xp.evaluate("u + 18446744073709551615"),
               np.arange(3, dtype=np.uint64) + 18446744073709551615)
    check_same(xp.evaluate("2 * 3.5"), np.asarray(7.0))
    check_same(xp.evaluate("1 / 2"), np.asarray(0.5))


# ---- random expression trees against NumPy -------------------------------

UNARY = ["negative", "sin", "cos", "exp", "abs", "sqrt", "square",
         "tanh", "floor", "arctan"]
BIN = ["+", "-", "*", "/", "maximum", "minimum", "arctan2", "hypot",
       "where_gt"]


@st.composite
def trees(draw, names, depth=0):
    if depth >= 4 or draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            return draw(st.sampled_from(names))
        return repr(draw(st.sampled_from([0.5, 2.0, 3, -1.25, 7])))
    kind = draw(st.sampled_from(["u", "b", "b"]))
    if kind == "u":
        f = draw(st.sampled_from(UNARY))
        x = draw(trees(names, depth + 1))
        if f in ("sqrt",):
            return f"sqrt(abs({x}))"
        if f == "exp":
            return f"exp(tanh({x}))"
        return f"{f}({x})"
    f = draw(st.sampled_from(BIN))
    x = draw(trees(names, depth + 1))
    y = draw(trees(names, depth + 1))
    if f in "+-*/":
        if f == "/":
            return f"({x} / (abs({y}) + 1))"
        return f"({x} {f} {y})"
    if f == "where_gt":
        return f"where({x} > {y}, {x}, {y})"
    return f"{f}({x}, {y})"


NP_NS = {"negative": np.negative, "sin": np.sin, "cos": np.cos,
         "exp": np.exp, "abs": np.abs, "sqrt": np.sqrt, "square": np.square,
         "tanh": np.tanh, "floor": np.floor, "arctan": np.arctan,
         "maximum": np.maximum, "minimum": np.minimum,
         "arctan2": np.arctan2, "hypot": np.hypot, "where": np.where}


@st.composite
def operand(draw, shape, dtype):
    """An array of the given shape as a view with steps (some negative) or
    of a transposed buffer."""
    steps = [draw(st.sampled_from([1, 2, -1])) for _ in shape]
    full = [n * abs(s) for n, s in zip(shape, steps)]
    base = draw(st.lists(st.floats(-4, 4, width=32), min_size=int(np.prod(
        full)), max_size=int(np.prod(full)))) if np.prod(full) else []
    arr = np.array(base, dtype=np.float64).reshape(full).astype(dtype)
    view = arr[tuple(slice(None, None, s) for s in steps)]
    if view.ndim >= 2 and draw(st.booleans()):
        view = np.ascontiguousarray(view.T).T
    return view


@st.composite
def cases(draw):
    nd = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(0 if nd else 1, 5)) for _ in range(nd))
    nvars = draw(st.integers(1, 3))
    arrays = {}
    for i in range(nvars):
        # broadcasting: drop leading axes or set some to 1
        k = draw(st.integers(0, nd))
        sub = tuple(1 if draw(st.integers(0, 3)) == 0 else n
                    for n in shape[k:])
        # (not int8/uint8: NumPy computes their sin in float16)
        dt = draw(st.sampled_from([np.float64, np.float32, np.int32,
                                   np.int64, np.int16]))
        arrays[f"v{i}"] = draw(operand(sub, dt))
    text = draw(trees(sorted(arrays)))
    return text, arrays


@given(cases())
def test_random_expressions_match_numpy(case):
    text, arrays = case
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.asarray(eval(text, dict(NP_NS), dict(arrays)))
    local = {k: xp.asarray(v) for k, v in arrays.items()}
    got = xp.evaluate(text, local_dict=local)
    got = xp.to_numpy(got)
    assert got.dtype == want.dtype, (text, got.dtype, want.dtype)
    assert got.shape == want.shape
    tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-9
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    # the same program through @fuse
    names = sorted(arrays)
    src = f"lambda {', '.join(names)}: 0"
    del src


# ---- reductions -----------------------------------------------------------

@pytest.mark.parametrize("red", ["sum", "prod", "min", "max", "any", "all"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (0, 1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.bool_,
                                np.uint16, np.complex128])
def test_reductions_match_numpy(red, axis, keepdims, dt):
    rng = np.random.default_rng(3)
    a_np = (rng.random((3, 4, 5)) * 3).astype(dt)
    b_np = (rng.random((4, 1)) * 2).astype(dt)
    a, b = xp.asarray(a_np), xp.asarray(b_np)  # noqa: F841
    expr = "a * b" if dt != np.bool_ else "a | b"
    ax = "None" if axis is None else repr(axis)
    text = f"{red}({expr}, axis={ax}, keepdims={keepdims})"
    want, werr = outcome(lambda: getattr(np, red)(
        eval(expr, {"a": a_np, "b": b_np}), axis=axis, keepdims=keepdims))
    got, gerr = outcome(lambda: xp.evaluate(text, local_dict={"a": a,
                                                             "b": b}))
    assert gerr == werr, (gerr, werr)
    if werr is None:
        tol = 1e-4 if np.asarray(want).dtype in (np.float32, np.complex64) \
            else 1e-10
        check_same(got, want, tol if np.asarray(want).dtype.kind in "fc"
                   else 0)


def test_reduction_forms_and_accuracy():
    x_np = np.full(1_000_003, 0.1)
    x = xp.asarray(x_np)  # noqa: F841
    assert float(xp.evaluate("sum(x)")) == pytest.approx(np.sum(x_np),
                                                         rel=1e-14)
    assert float(xp.evaluate("sum(x * 2, 0)")) == pytest.approx(
        np.sum(x_np * 2), rel=1e-14)
    e = xp.asarray(np.zeros((0, 3)))  # noqa: F841
    check_same(xp.evaluate("sum(e, axis=0)"), np.zeros(3))
    check_same(xp.evaluate("prod(e)"), np.asarray(1.0))
    with pytest.raises(ValueError, match="zero-size"):
        xp.evaluate("max(e)")
    with pytest.raises(np.exceptions.AxisError):
        xp.evaluate("sum(x, axis=1)")
    i = xp.asarray(np.arange(10, dtype=np.int8))  # noqa: F841
    check_same(xp.evaluate("sum(i * 100)"), np.sum(np.arange(10, dtype=np.int8)
                                                   * np.int8(100)))
    check_same(xp.evaluate("sum(i > 4)"), np.sum(np.arange(10) > 4))


def test_leading_axis_sum_accuracy():
    # a fused sum over a leading axis is pairwise: its error against the
    # exact sum stays within a few ulps of NumPy's own pairwise error
    import math
    rng = np.random.default_rng(5)
    a_np = rng.random((20000, 3)) * 1e3
    b_np = rng.random((20000, 3))
    got = np.asarray(xp.evaluate("sum(a * b, axis=0)", local_dict={
        "a": xp.asarray(a_np), "b": xp.asarray(b_np)}))
    want = np.sum(a_np * b_np, axis=0)
    prod = a_np * b_np
    for j in range(3):
        exact = math.fsum(prod[:, j])
        scale = abs(exact) * np.finfo(np.float64).eps
        assert abs(got[j] - exact) <= max(abs(want[j] - exact), scale) * 4 + scale


@pytest.mark.parametrize("dt", ["int8", "uint16", "int64", "float16",
                                "float32", "complex64", "bool"])
def test_leading_axis_reductions_every_dtype(dt):
    rng = np.random.default_rng(3)
    # floats near 0.5: the product over 130 rows stays finite
    r = rng.random((130, 700))
    a_np = (0.5 + r * 0.01 if dt[0] in "fc" else r * 4).astype(dt)
    a = xp.asarray(a_np)
    for red in ["sum", "prod", "max", "any"]:
        want = getattr(np, red)(a_np + a_np, axis=0)
        got = np.asarray(xp.evaluate(f"{red}(a + a, axis=0)",
                                     local_dict={"a": a}))
        assert got.dtype == want.dtype, (red, got.dtype, want.dtype)
        tol = 1e-2 if dt in ("float16",) else 1e-5
        if red == "prod" and dt[0] in "fc":
            tol = max(tol, 1e-3)
        if red == "prod" and dt[0] in "iub":
            assert np.array_equal(got, want), red
        else:
            np.testing.assert_allclose(got.astype(np.complex128),
                                       want.astype(np.complex128), rtol=tol,
                                       err_msg=red)


@pytest.mark.parametrize("shape,axis", [
    ((3, 5000), 1),          # outputs longer than a block: merged states
    ((4099, 3), 1),          # many short outputs per block
    ((2, 3, 700), (1, 2)),   # trailing axes together
    ((5, 1, 7), (1, 2)),     # an extent-1 axis among the reduced
    ((6, 40), 0),            # reduced before kept: row tiles
    ((3000, 5), 0),          # many row chunks merged in a tree
    ((70, 3, 600), (0, 1)),  # leading axes together, two column blocks
    ((4, 5, 6), (0, 2)),     # reduced axes around a kept one: fused, reordered
    ((3, 4, 5), 1),          # a middle reduced axis: after the pass
    ((7, 0), 1),             # empty reduced axis: the identity
    ((0, 7), 1),             # no outputs
])
@pytest.mark.parametrize("red", ["sum", "prod", "min", "max", "any", "all"])
def test_reductions_over_some_axes(shape, axis, red):
    rng = np.random.default_rng(11)
    a_np = rng.random(shape) + 0.5
    a = xp.asarray(a_np)
    text = f"{red}(a * 2 - 1, axis={axis!r})"
    want, werr = outcome(lambda: getattr(np, red)(a_np * 2 - 1, axis=axis))
    got, gerr = outcome(lambda: xp.evaluate(text, local_dict={"a": a}))
    assert gerr == werr, (gerr, werr)
    if werr is None:
        check_same(got, want, 1e-12 if red != "prod" else 1e-10)
    # keepdims, a strided reversed input and a broadcast operand
    if werr is None and a_np.ndim == 2 and a_np.size:
        v_np = a_np[::-1, ::2]
        w_np = rng.random(v_np.shape[-1])
        want = getattr(np, red)(v_np * w_np, axis=axis, keepdims=True)
        got = xp.evaluate(f"{red}(v * w, axis={axis!r}, keepdims=True)",
                          local_dict={"v": a[::-1, ::2],
                                      "w": xp.asarray(w_np)})
        check_same(got, want, 1e-12 if red != "prod" else 1e-10)


def test_reduction_over_some_axes_integers():
    i_np = np.arange(-600, 600, dtype=np.int16).reshape(4, 300)
    i = xp.asarray(i_np)  # noqa: F841
    check_same(xp.evaluate("sum(i * 3, axis=1)"),
               np.sum(i_np * np.int16(3), axis=1))
    check_same(xp.evaluate("max(i, axis=-1)"), np.max(i_np, axis=-1))
    check_same(xp.evaluate("any(i > 250, axis=1)"), np.any(i_np > 250, axis=1))


# ---- out=, casting, order, errors of evaluate -----------------------------

def test_out_and_casting():
    a_np = np.arange(6.0).reshape(2, 3)
    a = xp.asarray(a_np.copy())  # noqa: F841
    out = xp.zeros((2, 3))
    r = xp.evaluate("a * 2 + 1", out=out)
    assert r is out
    check_same(out, a_np * 2 + 1)
    out32 = xp.zeros((2, 3), dtype=np.float32)
    with pytest.raises(TypeError, match="casting rule 'safe'"):
        xp.evaluate("a * 2", out=out32)
    xp.evaluate("a * 2", out=out32, casting="same_kind")
    check_same(out32, (a_np * 2).astype(np.float32))
    with pytest.raises(ValueError, match="shape"):
        xp.evaluate("a * 2", out=xp.zeros(3))
    # in place: out is an input
    xp.evaluate("a + a", out=a)
    check_same(a, a_np * 2)
    s = xp.zeros(())
    xp.evaluate("sum(a)", out=s)
    check_same(s, np.asarray(np.sum(a_np * 2)))
    f = xp.evaluate("a * 1", order="F")
    assert f.flags.f_contiguous
    with pytest.raises(ValueError, match="order"):
        xp.evaluate("a", order="X")


def test_overlapping_out_goes_through_a_temporary():
    base_np = np.arange(10.0)
    base = xp.asarray(base_np.copy())
    x = base[1:]  # noqa: F841
    out = base[:-1]
    xp.evaluate("x * 2", out=out)
    want = base_np.copy()
    want[:-1] = base_np[1:] * 2
    check_same(base, want)


def test_names_from_frames_and_dicts():
    a = xp.asarray(np.arange(3.0))  # noqa: F841
    check_same(xp.evaluate("a + g", global_dict={"g": 1.5}),
               np.arange(3.0) + 1.5)
    check_same(xp.evaluate("a + 1", local_dict={"a": np.ones(2)}),
               np.ones(2) + 1)
    with pytest.raises(KeyError, match="nope"):
        xp.evaluate("a + nope")


def test_integer_power_by_negative_array_is_an_error():
    a = xp.asarray(np.arange(5, dtype=np.int64))  # noqa: F841
    e = xp.asarray(np.array([1, 2, -1, 0, 1], dtype=np.int64))  # noqa: F841
    with pytest.raises(ValueError, match="negative integer powers"):
        xp.evaluate("a ** e")
    with pytest.raises(ValueError, match="negative integer powers"):
        xp.evaluate("a ** -2")


# ---- the parser -------------------------------------------------------------

@pytest.mark.parametrize("text,col,what", [
    ("a +", 4, "end"),
    ("a + * b", 5, "unexpected"),
    ("(a + b", 7, "expected ')'"),
    ("a $ b", 3, "unexpected character"),
    ("a[0]", 2, "indexing"),
    ("a.T", 2, "indexing and attributes"),
    ("foo(a)", 1, "unknown function 'foo'"),
    ("sin(a, b)", 1, "takes 1 argument"),
    ("a and b", 3, "use & for logical and"),
    ("not a", 1, "use ~"),
    ("a if b else c", 3, "where"),
    ("a < b < c", 7, "chained comparisons"),
    ("1 + sum(a)", 5, "outermost"),
    ("sum(a) + 1", 1, "outermost"),
    ("sum(sum(a))", 5, "outermost"),
    ("a = 1", 3, "assignment"),
    ("012", 1, "leading zeros"),
    ("1e", 1, "exponent"),
    ("99999999999999999999999", 1, "too large"),
    ("0x", 1, "invalid integer"),
    ("1abc", 1, "invalid number"),
    ("", 1, "empty"),
    ("   ", 4, "empty") if False else ("sum(a, axis=x)", 13, "axis"),
    ("sum(a, keepdims=3)", 17, "keepdims"),
    ("(a, b)", 3, "tuples"),
])
def test_parse_errors_name_the_column(text, col, what):
    with pytest.raises(ValueError) as ei:
        xp.evaluate(text, local_dict={"a": xp.ones(2), "b": xp.ones(2),
                                      "c": xp.ones(2)})
    msg = str(ei.value)
    assert f"column {col}:" in msg, msg
    assert what in msg, msg


def test_parser_survives_hostile_text():
    rng = np.random.default_rng(0)
    alphabet = list("ab()+-*/%~&|^<>=!,.0123456789ejxJ _\t\n[]{}'\"#@$\\") \
        + ["sum(", "where(", "**", "//", "axis=", "True", "1e999", "\x00",
           "\xff", "sin("]
    for _ in range(3000):
        n = int(rng.integers(0, 40))
        text = "".join(rng.choice(alphabet) for _ in range(n))
        try:
            xp.evaluate(text, local_dict={"a": xp.ones(3), "b": xp.ones(3),
                                          "x": xp.ones(3)})
        except (ValueError, TypeError, KeyError, OverflowError,
                ZeroDivisionError, np.exceptions.AxisError):
            pass
    deep = "(" * 5000 + "a" + ")" * 5000
    with pytest.raises(ValueError, match="nested too deeply"):
        xp.evaluate(deep, local_dict={"a": xp.ones(1)})
    neg = "-" * 5000 + "a"
    with pytest.raises(ValueError, match="nested too deeply"):
        xp.evaluate(neg, local_dict={"a": xp.ones(1)})
    long_sum = " + ".join(["a"] * 3000)
    check_same(xp.evaluate(long_sum, local_dict={"a": xp.ones(2)}),
               np.full(2, 3000.0))


def test_unbound_name_in_c_compile():
    from cunumpy import _cnlib as lib
    with pytest.raises(ValueError, match="column 5: name 'b' is not defined"):
        lib.cn_expr_compile("a + b", [("a", lib.CN_FLOAT64, 1)])
    with pytest.raises(ValueError, match="bound twice"):
        lib.cn_expr_compile("a", [("a", lib.CN_FLOAT64, 1),
                                  ("a", lib.CN_FLOAT64, 1)])
    h = lib.cn_expr_compile("a + 1", [("a", lib.CN_FLOAT64, 1)])
    try:
        with pytest.raises(TypeError, match="compiled for float64"):
            lib.cn_expr_evaluate(h, [xp.ones(2, dtype=np.float32)], None,
                                 "safe")
        with pytest.raises(ValueError, match="dimensions"):
            lib.cn_expr_evaluate(h, [xp.ones((2, 2))], None, "safe")
        with pytest.raises(ValueError, match="compiled for 1 inputs"):
            lib.cn_expr_evaluate(h, [], None, "safe")
    finally:
        lib.cn_expr_release(h)


# ---- fuse ----------------------------------------------------------------

def test_seed_fuse_example_runs_as_written():
    a_np = np.linspace(0, 1, 1000)
    b_np = np.linspace(1, -1, 1000)
    a, b = cp.asarray(a_np), cp.asarray(b_np)

    @cp.fuse()
    def fused_op(x, y):
        return cp.sqrt((x - y) ** 2 + 1.0)

    # This compiles into ONE kernel instead of multiple
    result = fused_op(a, b)
    check_same(result, np.sqrt((a_np - b_np) ** 2 + 1.0))


def test_fuse_traces_once_per_signature():
    calls = []

    @xp.fuse
    def f(x, y):
        calls.append(1)
        return xp.where(x > y, xp.sin(x) * 2, y.astype(np.float32)) + 1

    x64 = xp.asarray(np.linspace(-1, 1, 50))
    y64 = xp.asarray(np.linspace(1, -1, 50))
    r1 = f(x64, y64)
    r2 = f(x64, y64)
    assert len(calls) == 1
    xn, yn = np.linspace(-1, 1, 50), np.linspace(1, -1, 50)
    want = np.where(xn > yn, np.sin(xn) * 2, yn.astype(np.float32)) + 1
    check_same(r1, want)
    check_same(r2, want)
    f(xp.asarray(np.ones((2, 3), dtype=np.float32)), xp.ones(3))
    assert len(calls) == 2


def test_fuse_python_scalars_are_weak_and_keyed_by_value():
    @xp.fuse(kernel_name="scale")
    def scale(x, s):
        return x * s + 1

    x = xp.asarray(np.arange(4, dtype=np.float32))
    check_same(scale(x, 2.0), np.arange(4, dtype=np.float32) * 2.0 + 1)
    check_same(scale(x, 3.0), np.arange(4, dtype=np.float32) * 3.0 + 1)
    with np.errstate(all="ignore"):
        check_same(scale(x, float("inf")),
                   np.arange(4, dtype=np.float32) * np.inf + 1)
    check_same(scale(x, -2), np.arange(4, dtype=np.float32) * -2 + 1)
    check_same(scale(x, 1j), np.arange(4, dtype=np.float32) * 1j + 1)
    assert scale.kernel_name == "scale"
    assert scale.__name__ == "scale"


def test_fuse_reductions_and_numpy_ufuncs():
    @xp.fuse()
    def dot(x, y):
        return xp.sum(x * y)

    @xp.fuse()
    def rowmax(x):
        return (np.abs(x) + 1).max(axis=1, keepdims=True)

    xn = np.linspace(-3, 3, 12).reshape(3, 4)
    x = xp.asarray(xn)
    check_same(dot(x, x), np.sum(xn * xn))
    check_same(rowmax(x), (np.abs(xn) + 1).max(axis=1, keepdims=True))


def test_fuse_captured_arrays_and_tuples():
    w = xp.asarray(np.array([1.0, 2.0, 3.0]))

    @xp.fuse
    def f(x):
        return x * w, x + np.float32(1)

    r1, r2 = f(xp.ones(3))
    check_same(r1, np.array([1.0, 2.0, 3.0]))
    check_same(r2, np.full(3, 2.0))


def test_fuse_refuses_control_flow_on_traced_values():
    @xp.fuse
    def branchy(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="an if statement"):
        branchy(xp.ones(3))

    @xp.fuse
    def loopy(x):
        while x < 3:
            x = x + 1
        return x

    with pytest.raises(TypeError, match="a while loop"):
        loopy(xp.ones(3))


@pytest.mark.parametrize("body,name", [
    ("return xp.matmul(x, x)", "matmul"),
    ("return x @ x", "matmul"),
    ("return xp.reshape(x, (3,))", "reshape"),
    ("return x.reshape(3)", "reshape"),
    ("return x[0] + 1", "indexing"),
])
def test_fuse_refuses_non_fusable_calls(body, name):
    src = textwrap.dedent(f"""
        def g(x):
            {body}
    """)
    ns = {"xp": xp}
    exec(src, ns)
    f = xp.fuse(ns["g"])
    with pytest.raises(TypeError, match=f"'{name}' cannot be fused in g"):
        f(xp.ones(3))
    fb = xp.fuse(fallback=True)(ns["g"])
    want = ns["g"](xp.ones(3))
    got = fb(xp.ones(3))
    check_same(got, xp.to_numpy(want))


def test_unfused_path_matches_fused(tmp_path):
    """CUNUMPY_EXPR_UNFUSED=1 runs the program one op at a time (the path of
    a backend without an expr slot): the same results."""
    script = textwrap.dedent("""
        import numpy as np, cunumpy as xp
        rng = np.random.default_rng(1)
        a = xp.asarray(rng.random((5, 7)))
        b = xp.asarray(rng.random(7).astype(np.float32))
        i = xp.asarray(np.arange(7, dtype=np.int16))
        outs = [xp.evaluate(t) for t in (
            "a * b + sin(a) ** 2", "where(a > 0.5, i, b)", "sum(a * b)",
            "max(a - i, axis=0)", "int8(a * 100) // 3", "a ** 0 + i ** 2",
            "2.5")]
        np.save(%r, np.concatenate([xp.to_numpy(o).ravel().astype(
            np.float64) for o in outs]))
    """)
    res = []
    for flag in ("0", "1"):
        path = str(tmp_path / f"r{flag}.npy")
        env = dict(os.environ, CUNUMPY_EXPR_UNFUSED=flag)
        subprocess.run([sys.executable, "-c", script % path], env=env,
                       check=True)
        res.append(np.load(path))
    np.testing.assert_allclose(res[0], res[1], rtol=1e-6)


_F16_UNARY = ["negative", "absolute", "sqrt", "square", "exp", "exp2",
              "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
              "arcsinh", "arctanh", "floor", "ceil", "trunc", "rint",
              "reciprocal", "cbrt", "sign"]
_F16_BINARY = ["add", "subtract", "multiply", "divide", "power", "arctan2",
               "hypot", "maximum", "minimum", "fmax", "fmin", "fmod",
               "copysign", "logaddexp", "logaddexp2", "floor_divide",
               "remainder", "nextafter"]


@pytest.mark.parametrize("op", _F16_UNARY + _F16_BINARY)
def test_float16_rounds_per_op_bit_exact(op):
    # two chained ops: NumPy rounds to float16 after each, so must the
    # fused program, inside its blocks
    rng = np.random.default_rng(2)
    x_np = (rng.random(3000) * 1.8 - 0.9).astype(np.float16)
    y_np = (rng.random(3000) * 2 + 0.25).astype(np.float16)
    x_np[:4] = [np.nan, np.inf, -0.0, 0.0]
    f = getattr(np, op)
    if op in _F16_UNARY:
        text = f"{op}(x * y) + x"
        with np.errstate(all="ignore"):
            want = f(x_np * y_np) + x_np
    else:
        text = f"{op}(x * y, y) - x"
        with np.errstate(all="ignore"):
            want = f(x_np * y_np, y_np) - x_np
    got = np.asarray(xp.evaluate(text, local_dict={
        "x": xp.asarray(x_np), "y": xp.asarray(y_np)}))
    assert got.dtype == want.dtype == np.float16
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), op
    assert np.array_equal(got.view(np.uint16)[~nan],
                          want.view(np.uint16)[~nan]), (
        op, int((got.view(np.uint16) != want.view(np.uint16))[~nan].sum()))
