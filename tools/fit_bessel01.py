#!/usr/bin/env python3
"""Fits the polynomials of the modified Bessel functions of orders 0 and 1
(i0, i1, k0, k1 and their scaled forms, core/special_scalar.h) with mpmath
and writes them into the block between the markers of that file.

Near 0 the functions are polynomials in t = x^2:
  i0  I0(x)                          x <= 4
  i1  I1(x) / x                      x <= 4
  k0  K0(x) + log(x) I0(x)           x <= 1
  k1  x (K1(x) - log(x) I1(x))       x <= 1
(the log(x) split leaves two terms of one sign below 1, so nothing
cancels); beyond, sqrt(x) exp(-x) I(x) and sqrt(x) exp(x) K(x) are
polynomials in z = 1/x - c on pieces of x (c the piece's centre in 1/x;
the functions are smooth in 1/x down to 0). Each polynomial interpolates
at the Chebyshev nodes of its piece (mpmath.chebyfit, 40 digits), with the
fewest terms that leave a relative error below TOL; the script then checks
the float64 coefficients on a dense grid against mpmath.

usage: python3 tools/fit_bessel01.py [--write]   (prints the block, or
rewrites it in core/special_scalar.h)
"""
import os
import sys
import textwrap

import mpmath as mp

mp.mp.dps = 40
TOL = mp.mpf("4e-18")
I, K = mp.besseli, mp.besselk
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "core", "special_scalar.h")
BEGIN = "/* BEGIN polynomials fitted by tools/fit_bessel01.py */"
END = "/* END polynomials fitted by tools/fit_bessel01.py */"



def _near(f, at0):
    """f of t = x^2, with its limit at t = 0."""
    return lambda t: f(mp.sqrt(t)) if t > 0 else mp.mpf(at0)


# name, meaning, function of t = x^2, upper end of x
NEAR = [
    ("i0", "I0(x)", _near(lambda x: I(0, x), 1), 4),
    ("i1", "I1(x) / x", _near(lambda x: I(1, x) / x, 0.5), 4),
    ("k0", "K0(x) + log(x) I0(x)",
     _near(lambda x: K(0, x) + mp.log(x) * I(0, x), mp.log(2) - mp.euler), 1),
    ("k1", "x (K1(x) - log(x) I1(x))",
     _near(lambda x: x * (K(1, x) - mp.log(x) * I(1, x)), 1), 1),
]
# name, meaning, function of x, piece edges in x (the last piece to inf)
FAR = [
    ("i0", "sqrt(x) exp(-x) I0(x)",
     lambda x: mp.sqrt(x) * mp.exp(-x) * I(0, x), [4, 8, 16]),
    ("i1", "sqrt(x) exp(-x) I1(x)",
     lambda x: mp.sqrt(x) * mp.exp(-x) * I(1, x), [4, 8, 16]),
    ("k0", "sqrt(x) exp(x) K0(x)",
     lambda x: mp.sqrt(x) * mp.exp(x) * K(0, x), [1, 2, 4, 8]),
    ("k1", "sqrt(x) exp(x) K1(x)",
     lambda x: mp.sqrt(x) * mp.exp(x) * K(1, x), [1, 2, 4, 8]),
]


def fit(g, a, b):
    """Coefficients (lowest first, float64) of the fewest-term Chebyshev
    interpolant of g on [a, b] within TOL relative."""
    lo = min(abs(g(a + (b - a) * mp.mpf(k) / 16)) for k in range(17))
    for n in range(4, 40):
        p, err = mp.chebyfit(g, [a, b], n, error=True)
        if err / lo < TOL:
            return [float(c) for c in reversed(p)]
    raise RuntimeError("no fit")


def horner(c, z):
    """The float64 evaluation the C code does (mpf of float64 steps)."""
    r = c[-1]
    for k in range(len(c) - 2, -1, -1):
        r = r * z + c[k]
    return r


def check(c, g, a, b, shift=0.0):
    """Largest relative error of the float64 polynomial on [a, b] (z =
    point - shift, every float64 rounding included), in units of 2^-53."""
    worst = 0.0
    for k in range(400):
        z = float(a + (b - a) * mp.mpf(k) / 399) - shift
        v = horner(c, z)
        ref = g(mp.mpf(z) + mp.mpf(shift))
        worst = max(worst, float(abs((v - ref) / ref)) / 2.0 ** -53)
    return worst


def comment(text):
    lines = textwrap.wrap(text, 74)
    return "/* " + "\n * ".join(lines) + " */"


def c_array(c):
    return ",\n      ".join(f"{v!r}" for v in c)


def emit():
    out = [BEGIN]
    for name, what, g, xmax in NEAR:
        c = fit(g, mp.mpf(0), mp.mpf(xmax) ** 2)
        err = check(c, g, mp.mpf(0), mp.mpf(xmax) ** 2)
        out.append(comment(f"{what} for x <= {xmax} as a polynomial in "
                           f"t = x^2: {len(c)} terms, float64 error below "
                           f"{err:.2f} x 2^-53 relative."))
        out.append(f"CN_SP_FN double cn_sp_{name}_near_(double t) {{")
        out.append(f"  const double c[{len(c)}] = {{\n      {c_array(c)}}};")
        out.append(f"  double r = c[{len(c) - 1}];")
        out.append(f"  for (int k = {len(c) - 2}; k >= 0; k--)")
        out.append("    r = r * t + c[k];")
        out.append("  return r;\n}")
    for name, what, g, edges in FAR:
        pieces = []
        for i, xa in enumerate(edges):
            ua = mp.mpf(0) if i + 1 == len(edges) else 1 / mp.mpf(edges[i + 1])
            ub = 1 / mp.mpf(xa)
            cen = float((ua + ub) / 2)
            at0 = mp.sqrt(mp.pi / 2) if name[0] == "k" else \
                1 / mp.sqrt(2 * mp.pi)
            gu = lambda u, g=g, at0=at0: g(1 / u) if u > 0 else at0
            gz = lambda z, cen=cen, gu=gu: gu(z + mp.mpf(cen))
            c = fit(gz, ua - mp.mpf(cen), ub - mp.mpf(cen))
            err = check(c, gu, ua, ub, cen)
            pieces.append((xa, cen, c, err))
        out.append(comment(
            f"{what} for x > {edges[0]} as polynomials in z = 1/x - c "
            "on the pieces (float64 error in units of 2^-53 relative) "
            + "; ".join(f"x > {xa}: {len(c)} terms, {err:.2f}"
                        for xa, _, c, err in pieces) + "."))
        out.append(f"CN_SP_FN double cn_sp_{name}_far_(double x) {{")
        out.append("  double u = 1.0 / x;")
        for i in range(len(pieces) - 1, -1, -1):
            xa, cen, c, _ = pieces[i]
            cond = f"if (x > {float(xa)!r}) " if i > 0 else ""
            out.append(f"  {cond}{{")
            out.append(f"    const double c[{len(c)}] = {{\n        "
                       + ",\n        ".join(f"{v!r}" for v in c) + "};")
            out.append(f"    double z = u - {cen!r}, r = c[{len(c) - 1}];")
            out.append(f"    for (int k = {len(c) - 2}; k >= 0; k--)")
            out.append("      r = r * z + c[k];")
            out.append("    return r;\n  }")
        out.append("}")
    out.append(END)
    return "\n".join(out) + "\n"


def main():
    block = emit()
    if "--write" not in sys.argv:
        sys.stdout.write(block)
        return
    with open(TARGET) as f:
        text = f.read()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END + "\n", 1)
    with open(TARGET, "w") as f:
        f.write(head + block + tail)


if __name__ == "__main__":
    main()
