"""The Array API standard's (2025.12) special cases for its elementwise
functions, one table: every case each function's "Special cases" list
gives, written out as (inputs, result) for float32 and float64 (and
float16, which computes in float32), and the complex ones for complex64 and
complex128. Each case is checked bit for bit
(signed zeros and infinities; any NaN for NaN), or within a few ulp where
the result is a constant such as pi/2, at several positions of a longer
array so that both the vector loops and their scalar tails run. Where the
standard leaves a sign unspecified the case says so (Free)."""

import math

import numpy as np
import pytest

import cunumpy as xp

INF, NAN, PI = math.inf, math.nan, math.pi
P, N = 2.5, -2.5  # a positive and a negative finite number (non-integer)


class Free:
    """A result whose sign the standard leaves unspecified."""

    def __init__(self, v):
        self.v = v


# ---- one real operand: name -> [(x, result)] ------------------------------
UNARY = {
    "abs": [(NAN, NAN), (-0.0, 0.0), (-INF, INF), (N, -N)],
    "acos": [(NAN, NAN), (1.5, NAN), (-1.5, NAN), (1.0, 0.0)],
    "acosh": [(NAN, NAN), (0.5, NAN), (1.0, 0.0), (INF, INF), (-INF, NAN)],
    "asin": [(NAN, NAN), (1.5, NAN), (-1.5, NAN), (0.0, 0.0), (-0.0, -0.0)],
    "asinh": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, INF),
              (-INF, -INF)],
    "atan": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, PI / 2),
             (-INF, -PI / 2)],
    "atanh": [(NAN, NAN), (-1.5, NAN), (1.5, NAN), (-1.0, -INF),
              (1.0, INF), (0.0, 0.0), (-0.0, -0.0)],
    "ceil": [(INF, INF), (-INF, -INF), (0.0, 0.0), (-0.0, -0.0), (NAN, NAN),
             (3.0, 3.0), (-0.5, -0.0), (P, 3.0)],
    "cos": [(NAN, NAN), (0.0, 1.0), (-0.0, 1.0), (INF, NAN), (-INF, NAN)],
    "cosh": [(NAN, NAN), (0.0, 1.0), (-0.0, 1.0), (INF, INF), (-INF, INF)],
    "exp": [(NAN, NAN), (0.0, 1.0), (-0.0, 1.0), (INF, INF), (-INF, 0.0)],
    "expm1": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, INF),
              (-INF, -1.0)],
    "floor": [(INF, INF), (-INF, -INF), (0.0, 0.0), (-0.0, -0.0),
              (NAN, NAN), (3.0, 3.0), (0.5, 0.0), (N, -3.0)],
    "isfinite": [(INF, False), (-INF, False), (NAN, False), (P, True),
                 (-0.0, True)],
    "isinf": [(INF, True), (-INF, True), (NAN, False), (P, False)],
    "isnan": [(NAN, True), (INF, False), (P, False)],
    "log": [(NAN, NAN), (-1.0, NAN), (-INF, NAN), (0.0, -INF), (-0.0, -INF),
            (1.0, 0.0), (INF, INF)],
    "log1p": [(NAN, NAN), (-1.5, NAN), (-1.0, -INF), (-0.0, -0.0),
              (0.0, 0.0), (INF, INF)],
    "log2": [(NAN, NAN), (-1.0, NAN), (0.0, -INF), (-0.0, -INF), (1.0, 0.0),
             (INF, INF)],
    "log10": [(NAN, NAN), (-1.0, NAN), (0.0, -INF), (-0.0, -INF),
              (1.0, 0.0), (INF, INF)],
    "negative": [(NAN, NAN), (0.0, -0.0), (-0.0, 0.0), (INF, -INF)],
    "positive": [(NAN, NAN), (-0.0, -0.0), (-INF, -INF)],
    "reciprocal": [(NAN, NAN), (0.0, INF), (-0.0, -INF), (INF, 0.0),
                   (-INF, -0.0), (0.5, 2.0)],
    "round": [(INF, INF), (-INF, -INF), (0.0, 0.0), (-0.0, -0.0),
              (NAN, NAN), (3.0, 3.0), (P, 2.0), (N, -2.0), (3.5, 4.0),
              (-0.5, -0.0), (0.5, 0.0)],
    "sign": [(N, -1.0), (-INF, -1.0), (0.0, Free(0.0)), (-0.0, Free(0.0)),
             (P, 1.0), (INF, 1.0), (NAN, NAN)],
    "signbit": [(0.0, False), (-0.0, True), (INF, False), (-INF, True),
                (P, False), (N, True), (NAN, False), (-NAN, True)],
    "sin": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, NAN), (-INF, NAN)],
    "sinh": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, INF),
             (-INF, -INF)],
    "sqrt": [(NAN, NAN), (-1.0, NAN), (-INF, NAN), (0.0, 0.0), (-0.0, -0.0),
             (INF, INF)],
    "square": [(NAN, NAN), (INF, INF), (-INF, INF), (-0.0, 0.0)],
    "tan": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, NAN), (-INF, NAN)],
    "tanh": [(NAN, NAN), (0.0, 0.0), (-0.0, -0.0), (INF, 1.0),
             (-INF, -1.0)],
    "trunc": [(INF, INF), (-INF, -INF), (0.0, 0.0), (-0.0, -0.0),
              (NAN, NAN), (3.0, 3.0), (-0.5, -0.0), (P, 2.0)],
}

# ---- two real operands: name -> [(x1, x2, result)] -------------------------
_ADD = [
    (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, -INF, NAN), (-INF, INF, NAN),
    (INF, INF, INF), (-INF, -INF, -INF), (INF, P, INF), (-INF, P, -INF),
    (P, INF, INF), (P, -INF, -INF), (-0.0, -0.0, -0.0), (-0.0, 0.0, 0.0),
    (0.0, -0.0, 0.0), (0.0, 0.0, 0.0), (0.0, P, P), (-0.0, N, N),
    (P, 0.0, P), (N, -0.0, N), (P, N, 0.0), (N, P, 0.0),
]
BINARY = {
    "add": _ADD,
    # x1 - x2 is x1 + (-x2)
    "subtract": [(a, -b, r) for a, b, r in _ADD],
    "atan2": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (P, 0.0, PI / 2),
        (P, -0.0, PI / 2), (0.0, P, 0.0), (0.0, 0.0, 0.0), (0.0, -0.0, PI),
        (0.0, N, PI), (-0.0, P, -0.0), (-0.0, 0.0, -0.0), (-0.0, -0.0, -PI),
        (-0.0, N, -PI), (N, 0.0, -PI / 2), (N, -0.0, -PI / 2),
        (P, INF, 0.0), (P, -INF, PI), (N, INF, -0.0), (N, -INF, -PI),
        (INF, P, PI / 2), (-INF, P, -PI / 2), (INF, INF, PI / 4),
        (INF, -INF, 3 * PI / 4), (-INF, INF, -PI / 4),
        (-INF, -INF, -3 * PI / 4)],
    "copysign": [
        (P, -1.0, N), (P, -0.0, N), (N, 0.0, P), (N, 1.0, P),
        (P, -NAN, N), (N, NAN, P), (NAN, -1.0, -NAN), (NAN, 1.0, NAN),
        (INF, -0.0, -INF)],
    "divide": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, -INF, NAN), (-INF, INF, NAN),
        (0.0, -0.0, NAN), (-0.0, 0.0, NAN), (0.0, P, 0.0), (-0.0, P, -0.0),
        (0.0, N, -0.0), (-0.0, N, 0.0), (P, 0.0, INF), (P, -0.0, -INF),
        (N, 0.0, -INF), (N, -0.0, INF), (INF, P, INF), (INF, N, -INF),
        (-INF, P, -INF), (-INF, N, INF), (P, INF, 0.0), (P, -INF, -0.0),
        (N, INF, -0.0), (N, -INF, 0.0), (5.0, 2.0, 2.5), (5.0, -2.0, -2.5)],
    "equal": [
        (NAN, 1.0, False), (1.0, NAN, False), (NAN, NAN, False),
        (INF, INF, True), (-INF, -INF, True), (-0.0, 0.0, True),
        (0.0, -0.0, True), (P, P, True), (P, N, False)],
    "not_equal": [
        (NAN, 1.0, True), (1.0, NAN, True), (NAN, NAN, True),
        (INF, INF, False), (-0.0, 0.0, False), (P, N, True)],
    "floor_divide": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, INF, NAN), (-INF, INF, NAN),
        (0.0, -0.0, NAN), (-0.0, 0.0, NAN), (0.0, P, 0.0), (-0.0, P, -0.0),
        (0.0, N, -0.0), (-0.0, N, 0.0), (P, 0.0, INF), (P, -0.0, -INF),
        (N, 0.0, -INF), (N, -0.0, INF), (INF, P, INF), (INF, N, -INF),
        (-INF, P, -INF), (-INF, N, INF), (P, INF, 0.0), (P, -INF, -0.0),
        (N, INF, -0.0), (N, -INF, 0.0), (7.0, 2.0, 3.0), (-7.0, 2.0, -4.0)],
    "hypot": [
        (INF, NAN, INF), (-INF, 1.0, INF), (NAN, INF, INF),
        (1.0, -INF, INF), (3.0, 0.0, 3.0), (-0.0, -4.0, 4.0),
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (3.0, -4.0, 5.0)],
    "logaddexp": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, 1.0, INF), (1.0, INF, INF),
        (INF, -INF, INF), (-INF, -INF, -INF)],
    "maximum": [(NAN, 1.0, NAN), (1.0, NAN, NAN), (-INF, P, P)],
    "minimum": [(NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, P, P)],
    "multiply": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, 0.0, NAN), (-0.0, INF, NAN),
        (-INF, -0.0, NAN), (P, P, 6.25), (N, N, 6.25), (P, N, -6.25),
        (INF, -INF, -INF), (-INF, -INF, INF), (INF, N, -INF),
        (P, -INF, -INF), (-0.0, P, -0.0), (-0.0, -0.0, 0.0)],
    "nextafter": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (-0.0, 0.0, 0.0),
        (0.0, -0.0, -0.0), (P, P, P)],
    "pow": [
        (2.0, NAN, NAN), (NAN, 0.0, 1.0), (NAN, -0.0, 1.0), (P, 0.0, 1.0),
        (NAN, 1.0, NAN), (1.0, NAN, 1.0), (1.0, INF, 1.0), (1.0, N, 1.0),
        (2.0, INF, INF), (-2.0, INF, INF), (2.0, -INF, 0.0),
        (-2.0, -INF, 0.0), (-1.0, INF, 1.0), (-1.0, -INF, 1.0),
        (0.5, INF, 0.0), (-0.5, INF, 0.0), (0.5, -INF, INF),
        (-0.5, -INF, INF), (INF, 2.0, INF), (INF, -2.0, 0.0),
        (-INF, 3.0, -INF), (-INF, 2.0, INF), (-INF, P, INF),
        (-INF, -3.0, -0.0), (-INF, -2.0, 0.0), (-INF, N, 0.0),
        (0.0, 2.0, 0.0), (0.0, -2.0, INF), (-0.0, 3.0, -0.0),
        (-0.0, 2.0, 0.0), (-0.0, P, 0.0), (-0.0, -3.0, -INF),
        (-0.0, -2.0, INF), (-0.0, N, INF), (N, 0.5, NAN), (-2.0, P, NAN)],
    "remainder": [
        (NAN, 1.0, NAN), (1.0, NAN, NAN), (INF, -INF, NAN), (-INF, INF, NAN),
        (0.0, -0.0, NAN), (-0.0, 0.0, NAN), (0.0, P, 0.0), (-0.0, P, 0.0),
        (0.0, N, -0.0), (-0.0, N, -0.0), (P, 0.0, NAN), (P, -0.0, NAN),
        (N, 0.0, NAN), (N, -0.0, NAN), (INF, P, NAN), (INF, N, NAN),
        (-INF, P, NAN), (-INF, N, NAN), (P, INF, P), (P, -INF, -INF),
        (N, INF, INF), (N, -INF, N), (7.0, 2.0, 1.0), (-7.0, 2.0, 1.0),
        (7.0, -2.0, -1.0), (5.0, P, 0.0), (-5.0, P, 0.0), (5.0, N, -0.0)],
}
# clip(x, min, max): NaN in any operand gives NaN
CLIP = [(NAN, 0.0, 1.0, NAN), (0.5, NAN, 1.0, NAN), (0.5, 0.0, NAN, NAN),
        (-INF, 0.0, 1.0, 0.0), (INF, 0.0, 1.0, 1.0), (-0.0, -0.0, 1.0, -0.0)]


# ---- one complex operand a + bj: name -> [(x, result)] ---------------------
def c(a, b):
    return (a, b)


_EXP = [
    (c(0.0, 0.0), c(1.0, 0.0)), (c(-0.0, 0.0), c(1.0, 0.0)),
    (c(1.0, INF), c(NAN, NAN)), (c(1.0, NAN), c(NAN, NAN)),
    (c(INF, 0.0), c(INF, 0.0)),
    (c(-INF, 1.0), c(0.0, 0.0)), (c(-INF, 2.0), c(-0.0, 0.0)),
    (c(INF, 1.0), c(INF, INF)), (c(INF, 2.0), c(-INF, INF)),
    (c(-INF, INF), c(Free(0.0), Free(0.0))),
    (c(INF, INF), c(Free(INF), NAN)),
    (c(-INF, NAN), c(Free(0.0), Free(0.0))), (c(INF, NAN), c(Free(INF), NAN)),
    (c(NAN, 0.0), c(NAN, 0.0)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_SINH = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(0.0, INF), c(Free(0.0), NAN)),
    (c(0.0, NAN), c(Free(0.0), NAN)), (c(1.0, INF), c(NAN, NAN)),
    (c(1.0, NAN), c(NAN, NAN)), (c(INF, 0.0), c(INF, 0.0)),
    (c(INF, 1.0), c(INF, INF)), (c(INF, 2.0), c(-INF, INF)),
    (c(INF, INF), c(Free(INF), NAN)), (c(INF, NAN), c(Free(INF), NAN)),
    (c(NAN, 0.0), c(NAN, 0.0)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_COSH = [
    (c(0.0, 0.0), c(1.0, 0.0)), (c(0.0, INF), c(NAN, Free(0.0))),
    (c(0.0, NAN), c(NAN, Free(0.0))), (c(1.0, INF), c(NAN, NAN)),
    (c(1.0, NAN), c(NAN, NAN)), (c(INF, 0.0), c(INF, 0.0)),
    (c(INF, 1.0), c(INF, INF)), (c(INF, 2.0), c(-INF, INF)),
    (c(INF, INF), c(Free(INF), NAN)), (c(INF, NAN), c(INF, NAN)),
    (c(NAN, 0.0), c(NAN, Free(0.0))), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_TANH = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(1.0, INF), c(NAN, NAN)),
    (c(0.0, INF), c(0.0, NAN)), (c(1.0, NAN), c(NAN, NAN)),
    (c(0.0, NAN), c(0.0, NAN)), (c(INF, 1.0), c(1.0, 0.0)),
    (c(INF, INF), c(1.0, Free(0.0))), (c(INF, NAN), c(1.0, Free(0.0))),
    (c(NAN, 0.0), c(NAN, 0.0)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_ASINH = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(1.0, INF), c(INF, PI / 2)),
    (c(1.0, NAN), c(NAN, NAN)), (c(INF, 1.0), c(INF, 0.0)),
    (c(INF, INF), c(INF, PI / 4)), (c(INF, NAN), c(INF, NAN)),
    (c(NAN, 0.0), c(NAN, 0.0)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, INF), c(Free(INF), NAN)), (c(NAN, NAN), c(NAN, NAN)),
]
_ATANH = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(0.0, NAN), c(0.0, NAN)),
    (c(1.0, 0.0), c(INF, 0.0)), (c(1.0, INF), c(0.0, PI / 2)),
    (c(1.0, NAN), c(NAN, NAN)), (c(INF, 1.0), c(0.0, PI / 2)),
    (c(INF, INF), c(0.0, PI / 2)), (c(INF, NAN), c(0.0, NAN)),
    (c(NAN, 1.0), c(NAN, NAN)), (c(NAN, INF), c(Free(0.0), PI / 2)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_ACOSH = [
    (c(0.0, 0.0), c(0.0, PI / 2)), (c(-0.0, 0.0), c(0.0, PI / 2)),
    (c(1.0, INF), c(INF, PI / 2)), (c(1.0, NAN), c(NAN, NAN)),
    (c(0.0, NAN), c(NAN, Free(PI / 2))), (c(-INF, 1.0), c(INF, PI)),
    (c(INF, 1.0), c(INF, 0.0)), (c(-INF, INF), c(INF, 3 * PI / 4)),
    (c(INF, INF), c(INF, PI / 4)), (c(INF, NAN), c(INF, NAN)),
    (c(-INF, NAN), c(INF, NAN)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, INF), c(INF, NAN)), (c(NAN, NAN), c(NAN, NAN)),
]
_ACOS = [
    (c(0.0, 0.0), c(PI / 2, -0.0)), (c(-0.0, 0.0), c(PI / 2, -0.0)),
    (c(0.0, NAN), c(PI / 2, NAN)), (c(1.0, INF), c(PI / 2, -INF)),
    (c(1.0, NAN), c(NAN, NAN)), (c(-INF, 1.0), c(PI, -INF)),
    (c(INF, 1.0), c(0.0, -INF)), (c(-INF, INF), c(3 * PI / 4, -INF)),
    (c(INF, INF), c(PI / 4, -INF)), (c(INF, NAN), c(NAN, Free(INF))),
    (c(-INF, NAN), c(NAN, Free(INF))), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, INF), c(NAN, -INF)), (c(NAN, NAN), c(NAN, NAN)),
]
_LOG = [
    (c(-0.0, 0.0), c(-INF, PI)), (c(0.0, 0.0), c(-INF, 0.0)),
    (c(1.0, INF), c(INF, PI / 2)), (c(1.0, NAN), c(NAN, NAN)),
    (c(-INF, 1.0), c(INF, PI)), (c(INF, 1.0), c(INF, 0.0)),
    (c(-INF, INF), c(INF, 3 * PI / 4)), (c(INF, INF), c(INF, PI / 4)),
    (c(INF, NAN), c(INF, NAN)), (c(-INF, NAN), c(INF, NAN)),
    (c(NAN, 1.0), c(NAN, NAN)), (c(NAN, INF), c(INF, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]
_LOG1P = [
    (c(-1.0, 0.0), c(-INF, 0.0)), (c(1.0, INF), c(INF, PI / 2)),
    (c(1.0, NAN), c(NAN, NAN)), (c(-INF, 1.0), c(INF, PI)),
    (c(INF, 1.0), c(INF, 0.0)), (c(-INF, INF), c(INF, 3 * PI / 4)),
    (c(INF, INF), c(INF, PI / 4)), (c(INF, NAN), c(INF, NAN)),
    (c(-INF, NAN), c(INF, NAN)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, INF), c(INF, NAN)), (c(NAN, NAN), c(NAN, NAN)),
]
_SQRT = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(-0.0, 0.0), c(0.0, 0.0)),
    (c(1.0, INF), c(INF, INF)), (c(-INF, INF), c(INF, INF)),
    (c(NAN, INF), c(INF, INF)), (c(1.0, NAN), c(NAN, NAN)),
    (c(-INF, 1.0), c(0.0, INF)), (c(INF, 1.0), c(INF, 0.0)),
    (c(-INF, NAN), c(NAN, Free(INF))), (c(INF, NAN), c(INF, NAN)),
    (c(NAN, 1.0), c(NAN, NAN)), (c(NAN, NAN), c(NAN, NAN)),
]
_ABS = [
    (c(INF, NAN), INF), (c(-INF, 1.0), INF), (c(NAN, INF), INF),
    (c(1.0, -INF), INF), (c(0.0, -3.0), 3.0), (c(-0.0, NAN), NAN),
    (c(-3.0, 0.0), 3.0), (c(NAN, 1.0), NAN), (c(1.0, NAN), NAN),
    (c(3.0, -4.0), 5.0)]
_SIGN = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(-0.0, -0.0), c(Free(0.0), Free(0.0))),
    (c(NAN, 1.0), c(NAN, NAN)), (c(1.0, NAN), c(NAN, NAN)),
    (c(3.0, -4.0), c(0.6, -0.8))]
_EXPM1 = [
    (c(0.0, 0.0), c(0.0, 0.0)), (c(1.0, INF), c(NAN, NAN)),
    (c(1.0, NAN), c(NAN, NAN)), (c(INF, 0.0), c(INF, 0.0)),
    (c(-INF, 1.0), c(-1.0, 0.0)), (c(INF, 1.0), c(INF, INF)),
    (c(-INF, INF), c(-1.0, Free(0.0))), (c(INF, INF), c(Free(INF), NAN)),
    (c(-INF, NAN), c(-1.0, Free(0.0))), (c(INF, NAN), c(Free(INF), NAN)),
    (c(NAN, 0.0), c(NAN, 0.0)), (c(NAN, 1.0), c(NAN, NAN)),
    (c(NAN, NAN), c(NAN, NAN)),
]


def _neg(v):
    return Free(v.v) if isinstance(v, Free) else -v


def _conj_cases(cases):
    """f(conj(z)) == conj(f(z)), which the standard states for these."""
    return cases + [((a, -b), (r if not isinstance(r, tuple) else
                               (r[0], _neg(r[1]))))
                    for (a, b), r in cases]


def _odd_cases(cases):
    """f(-z) == -f(z) for sinh, tanh, asinh, atanh."""
    return cases + [((-a, -b), (_neg(r[0]), _neg(r[1])))
                    for (a, b), r in cases]


def _even_cases(cases):
    """cosh(-z) == cosh(z)."""
    return cases + [((-a, -b), r) for (a, b), r in cases]


COMPLEX = {
    "abs": _conj_cases(_ABS),
    "acos": _conj_cases(_ACOS),
    "acosh": _conj_cases(_ACOSH),
    "asinh": _conj_cases(_odd_cases(_ASINH)),
    "atanh": _conj_cases(_odd_cases(_ATANH)),
    "cosh": _conj_cases(_even_cases(_COSH)),
    "exp": _conj_cases(_EXP),
    "expm1": _conj_cases(_EXPM1),
    "log": _conj_cases(_LOG),
    "log1p": _conj_cases(_LOG1P),
    "sign": _SIGN,
    "sinh": _conj_cases(_odd_cases(_SINH)),
    "sqrt": _conj_cases(_SQRT),
    "tanh": _conj_cases(_odd_cases(_TANH)),
}
# log2 and log10 are log over log(2) and log(10) (the change of base)
for _name, _base in (("log2", 2.0), ("log10", 10.0)):
    COMPLEX[_name] = [(z, tuple(v / math.log(_base) if isinstance(v, float)
                                else v for v in r)) for z, r in _LOG]
# round takes the real and imaginary parts as real values
COMPLEX["round"] = [((a, b), (ra, rb)) for (a, ra), (b, rb) in zip(
    UNARY["round"], UNARY["round"][3:] + UNARY["round"][:3])]
# the trigonometric functions are the hyperbolic ones turned by 1j:
# asin(z) = -1j asinh(1j z), atan(z) = -1j atanh(1j z), sin(z) = -1j
# sinh(1j z), cos(z) = cosh(1j z), tan(z) = -1j tanh(1j z)
ROTATED = {"asin": "asinh", "atan": "atanh", "sin": "sinh", "cos": "cosh",
           "tan": "tanh"}


def _rotate_in(z):  # 1j * z
    a, b = z
    return (_neg(b), a)


def _rotate_out(r, multiply):  # -1j * r, or r itself
    if not multiply:
        return r
    a, b = r
    return (b, _neg(a))


for _name, _hyp in ROTATED.items():
    # z = -1j * w for each hyperbolic case w: f(z) = -1j h(w) (or h(w))
    COMPLEX[_name] = [((b, _neg(a)) if not isinstance(a, Free) else None,
                       _rotate_out(r, _name != "cos"))
                      for (a, b), r in COMPLEX[_hyp]]
    COMPLEX[_name] = [(z, r) for z, r in COMPLEX[_name] if z is not None]


# ---- two complex operands (a + bj, c + dj): name -> [(x1, x2, result)] ----
COMPLEX_BINARY = {
    # componentwise real addition: -0 + -0 is -0, +0 + -0 is +0
    "add": [(c(-0.0, 0.0), c(-0.0, -0.0), c(-0.0, 0.0)),
            (c(INF, 1.0), c(-INF, 1.0), c(NAN, 2.0)),
            (c(NAN, 1.0), c(1.0, 1.0), c(NAN, 2.0))],
    "subtract": [(c(-0.0, 0.0), c(0.0, 0.0), c(-0.0, 0.0)),
                 (c(INF, 1.0), c(INF, -1.0), c(NAN, 2.0))],
    "multiply": [(c(NAN, NAN), c(NAN, NAN), c(NAN, NAN)),
                 (c(1.0, 2.0), c(3.0, -1.0), c(5.0, 5.0))],
    "divide": [(c(NAN, NAN), c(NAN, NAN), c(NAN, NAN)),
               (c(5.0, 5.0), c(3.0, -1.0), c(1.0, 2.0))],
    "equal": [(c(NAN, 0.0), c(NAN, 0.0), False),
              (c(1.0, NAN), c(1.0, 2.0), False),
              (c(-0.0, INF), c(0.0, INF), True), (c(1.0, 2.0), c(1.0, -2.0),
                                                  False)],
    "not_equal": [(c(NAN, 0.0), c(NAN, 0.0), True),
                  (c(1.0, 2.0), c(1.0, NAN), True),
                  (c(-0.0, INF), c(0.0, INF), False),
                  (c(1.0, 2.0), c(2.0, 2.0), True)],
}


# ---- checking --------------------------------------------------------------
def _tol(dt):
    return 4 * float(np.finfo(dt).eps)


def _ok(got, want, dt):
    free = isinstance(want, Free)
    want = want.v if free else want
    if isinstance(want, bool):
        return bool(got) == want
    got = float(got)
    if math.isnan(want):
        if not math.isnan(got):
            return False
        # the standard only fixes a NaN's sign bit for copysign/signbit
        return True
    if free:
        got, want = abs(got), abs(want)
    if want == 0 or math.isinf(want) or want in (1.0, -1.0):
        return got == want and math.copysign(1, got) == math.copysign(1,
                                                                      want)
    return math.isclose(got, want, rel_tol=_tol(dt))


def _ok_complex(got, want, dt):
    if not isinstance(want, tuple):
        return _ok(got, want, dt)
    return _ok(got.real, want[0], dt) and _ok(got.imag, want[1], dt)


REPEAT = 19  # every case at several positions: vector bodies and tails


def _tiled(values, dt):
    base = np.array(values, dtype=dt)
    return np.concatenate([np.roll(base, k) for k in range(REPEAT)]), base


def _check(name, outs, cases, dt, complex_out=False):
    n = len(cases)
    for k in range(REPEAT):
        for i, case in enumerate(cases):
            g = outs[k * n + (i + k) % n]
            want = case[-1]
            ok = _ok_complex(g, want, dt) if complex_out else _ok(g, want, dt)
            assert ok, (name, np.dtype(dt).name, case[:-1], g, want)


def _nan_signs(values, dt):
    """NaNs with the sign bits the cases ask for (-NAN is NaN with sign 1:
    Python's float negation keeps the payload and flips the sign)."""
    out = np.array(values, dtype=dt)
    for i, v in enumerate(values):
        if isinstance(v, float) and math.isnan(v):
            out[i] = np.copysign(np.array(np.nan, dt), math.copysign(1, v))
    return out


def _signed(values, dt):
    base = _nan_signs(values, dt)
    return np.concatenate([np.roll(base, k) for k in range(REPEAT)])


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_special_cases(name, dt):
    cases = UNARY[name]
    x = _signed([c_[0] for c_ in cases], dt)
    got = xp.to_numpy(getattr(xp, name)(xp.asarray(x)))
    _check(name, got, cases, dt)
    # a reversed, strided view takes the same values
    rev = xp.asarray(x[::-1].copy())[::-1]
    _check(name, xp.to_numpy(getattr(xp, name)(rev)), cases, dt)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_special_cases(name, dt):
    cases = BINARY[name]
    x1 = _signed([c_[0] for c_ in cases], dt)
    x2 = _signed([c_[1] for c_ in cases], dt)
    fn = getattr(xp, name)
    _check(name, xp.to_numpy(fn(xp.asarray(x1), xp.asarray(x2))), cases, dt)
    # the second operand a Python float: the same case through the path
    # for weak scalars
    for i, case in enumerate(cases):
        g = xp.to_numpy(fn(xp.asarray(x1[i:i + 1]), float(x2[i])))
        assert g.dtype == (np.bool_ if isinstance(case[2], bool) else dt)
        assert _ok(g[0], case[2], dt), (name, case, g[0])


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
def test_clip_special_cases(dt):
    x, lo, hi = (_signed([c_[k] for c_ in CLIP], dt) for k in range(3))
    got = xp.to_numpy(xp.clip(xp.asarray(x), xp.asarray(lo), xp.asarray(hi)))
    _check("clip", got, CLIP, dt)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex_special_cases(name, dt):
    cases = COMPLEX[name]
    x = _complex_array([z for z, _ in cases], dt)
    got = xp.to_numpy(getattr(xp, name)(xp.asarray(x)))
    _check(name, got, cases, dt, complex_out=True)


def _complex_array(parts, dt):
    out = np.zeros(len(parts), dt)
    out.real = [p[0] for p in parts]
    out.imag = [p[1] for p in parts]
    return np.concatenate([np.roll(out, k) for k in range(REPEAT)])


@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("name", sorted(COMPLEX_BINARY))
def test_complex_binary_special_cases(name, dt):
    cases = COMPLEX_BINARY[name]
    x1 = _complex_array([c_[0] for c_ in cases], dt)
    x2 = _complex_array([c_[1] for c_ in cases], dt)
    got = xp.to_numpy(getattr(xp, name)(xp.asarray(x1), xp.asarray(x2)))
    _check(name, got, cases, dt, complex_out=True)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("decimals", [-1, 0, 1, 2])
def test_complex_round_takes_parts_apart_as_numpy(dt, decimals):
    z = _complex_array([(INF, -0.0), (-0.04, NAN), (2.55, -0.0),
                        (-1.25, 3.75), (-INF, 0.5), (-0.0, -0.0)], dt)
    want = np.round(z, decimals)
    for x in (xp.asarray(z), xp.asarray(z[::-1].copy())[::-1]):
        got = xp.to_numpy(xp.round(x, decimals))
        assert got.dtype == want.dtype
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            np.testing.assert_array_equal(g, w)
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    # into out=, and in place
    out = xp.zeros(z.shape, dtype=dt)
    assert xp.round(xp.asarray(z), decimals, out=out) is out
    np.testing.assert_array_equal(xp.to_numpy(out), want)
    a = xp.asarray(z.copy())
    xp.round(a, decimals, out=a)
    np.testing.assert_array_equal(xp.to_numpy(a), want)
