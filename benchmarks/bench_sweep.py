#!/usr/bin/env python3
"""Sweep: times every public cunumpy function that has a NumPy counterpart
against NumPy in one run and lists the rows where cunumpy is slower.

Every ufunc runs over float64/float32/int32/int64/uint8 with array and scalar
operands (dtypes NumPy rejects are skipped); reductions run over each axis of
a 2-d array; manipulation, indexing, sorting, set, statistics, linalg, FFT
and random functions run on one representative call each. NumPy and cunumpy
alternate within each row and each side keeps its best time, so load on the
machine hits both alike. The ratio is NumPy time / cunumpy time (below 1.0:
cunumpy is slower). Public names with a NumPy counterpart that have no row
are listed at the end, so a gap in the sweep is visible, not silent.

usage: bench_sweep.py [--n N] [--repeat R] [--min-ms T] [--threads K]
                      [--filter SUBSTR] [--markdown FILE] [--quick]

--quick runs every row once at a tiny size (a smoke run: it checks that each
row runs and agrees in shape with NumPy, and times nothing meaningful).
"""
import argparse
import math
import os
import sys
import time


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 20,
                    help="elements of the 1-d operands (2-d ones hold about as many)")
    ap.add_argument("--repeat", type=int, default=5, help="alternating rounds per row")
    ap.add_argument("--min-ms", type=float, default=2.0,
                    help="each timing loops a call until it lasts about this long")
    ap.add_argument("--threads", type=int, default=1,
                    help="OMP/OpenBLAS threads for both libraries (set before import)")
    ap.add_argument("--filter", default="", help="only rows whose name contains this")
    ap.add_argument("--markdown", default="", help="also write the table to this file")
    ap.add_argument("--quick", action="store_true", help="smoke run: tiny size, one call")
    return ap.parse_args(argv)


ARGS = parse_args(sys.argv[1:]) if __name__ == "__main__" else None
if ARGS is not None:
    # Thread counts are read when the libraries load, so they are set first.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(ARGS.threads)

import numpy as np  # noqa: E402

UFUNC_DTYPES = ("float64", "float32", "int32", "int64", "uint8")

# Names that are not computations on arrays (I/O, printing, dtype queries,
# constructors from Python objects or files) and so have no row.
NOT_TIMED = {
    "array2string", "array_repr", "array_str", "show_config", "load", "save",
    "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "fromfile",
    "fromregex", "fromstring", "frombuffer", "fromiter", "from_dlpack",
    "can_cast", "promote_types", "result_type", "min_scalar_type", "mintypecode",
    "common_type", "issubdtype", "isdtype", "isscalar", "iterable", "ndim",
    "shape", "size", "isfortran", "iscomplexobj", "isrealobj", "may_share_memory",
    "shares_memory", "broadcast_shapes", "require", "asanyarray",
    "asarray_chkfinite", "ascontiguousarray", "asfortranarray", "fromfunction",
    "apply_along_axis", "apply_over_axes", "piecewise", "place", "putmask",
    "put", "copyto", "fill_diagonal", "diag_indices", "diag_indices_from",
    "mask_indices", "tril_indices_from", "triu_indices_from", "ix_",
    "random.spawn",
}


def unit_data(n, seed=0):
    """Host operands in (0, 1) and friends, built once with NumPy."""
    rng = np.random.default_rng(seed)
    side = max(2, int(math.sqrt(n)))
    d = {
        "f64": rng.random(n) + 0.1,
        "g64": rng.random(n) + 0.1,
        "i64": rng.integers(1, 100, n),
        "m": rng.random((side, side)),
        "m2": rng.random((side, side)),
        "wide": rng.random((max(2, side // 8), side * 8)),
        "z": rng.random(n) + 1j * rng.random(n),
        "mask": rng.random(n) > 0.5,
        "idx": rng.integers(0, n, n // 4),
        "sorted": np.sort(rng.random(n)),
        "needles": rng.random(max(1, n // 8)),
        "small_ints": rng.integers(0, 1000, n),
        "taps": rng.random(64),
    }
    la = max(4, min(400, side))
    spd = rng.random((la, la))
    d["sq"] = spd + la * np.eye(la)
    d["spd"] = spd @ spd.T + la * np.eye(la)
    d["rhs"] = rng.random((la, 4))
    d["tall"] = rng.random((4 * la, la // 2 + 1))
    d["vec_la"] = rng.random(la)
    d["f32"] = d["f64"].astype(np.float32)
    d["nan"] = d["f64"].copy()
    d["nan"][:: 97] = np.nan
    return d


def ufunc_operands(dtype, n, seed=1):
    rng = np.random.default_rng(seed)
    if dtype.startswith("float"):
        a = rng.random(n) + 0.5
        b = rng.random(n) + 0.5
        s = 1.5
    else:
        hi = 100 if dtype != "uint8" else 8
        a = rng.integers(1, hi, n)
        b = rng.integers(1, 7, n)
        s = 3
    return a.astype(dtype), b.astype(dtype), s


def ufunc_cases(n):
    """(row name, ufunc name, dtype, form) for every NumPy ufunc cunumpy has."""
    import cunumpy as cp
    rows = []
    for name in sorted(dir(cp)):
        ref = getattr(np, name, None)
        if name.startswith("_") or not isinstance(ref, np.ufunc):
            continue
        if ref.nin not in (1, 2):
            continue
        for dt in UFUNC_DTYPES:
            forms = ("array",) if ref.nin == 1 else ("array", "scalar")
            for form in forms:
                rows.append((f"{name} {dt}{' scalar' if form == 'scalar' else ''}",
                             name, dt, form))
    return rows


def make_ufunc_call(xp, name, dt, form, n):
    a, b, s = ufunc_operands(dt, n)
    f = getattr(xp, name)
    a = xp.asarray(a)
    if getattr(np, name).nin == 1:
        return lambda: f(a)
    if form == "scalar":
        return lambda: f(a, s)
    b = xp.asarray(b)
    return lambda: f(a, b)


def table_cases():
    """(row name, names covered, builder(xp, data) -> zero-argument call)."""
    C = []

    def case(name, covers, build):
        C.append((name, covers, build))

    # Reductions over each axis of a 2-d array.
    for red in ("sum", "prod", "mean", "std", "var", "min", "max", "argmin",
                "argmax", "ptp", "any", "all", "count_nonzero", "cumsum",
                "cumprod", "median", "average", "amax", "amin", "nansum",
                "nanmean", "nanstd", "nanvar", "nanmax", "nanmin", "nanargmax",
                "nanargmin", "nanprod", "nancumsum", "nancumprod", "nanmedian",
                "cumulative_sum", "cumulative_prod"):
        for axis in (None, 0, 1):
            if red.startswith("cumulative") and axis is None:
                continue

            def build(xp, d, red=red, axis=axis):
                m = xp.asarray(d["m"]) * 0.5 + 0.75 if "prod" in red else xp.asarray(d["m"])
                f = getattr(xp, red)
                if red in ("any", "all", "count_nonzero"):
                    m = m > 0.5
                return lambda: f(m, axis=axis)
            case(f"{red} axis={axis}", (red,), build)
    # Whole-array truth tests on 1-d operands of every width: all of
    # nonzero elements (a full scan), any of them (decided at the first),
    # count_nonzero, contiguous and strided.
    for dt in ("float64", "bool", "int32", "uint8", "complex128", "float16"):
        for red in ("count_nonzero", "all", "any"):
            for step in (1, 2):
                def build(xp, d, dt=dt, red=red, step=step):
                    a = xp.asarray(d["f64"].astype(dt))[::step]
                    f = getattr(xp, red)
                    return lambda: f(a)
                case(f"{red} {dt}{' [::2]' if step > 1 else ''}", (red,), build)
    case("sum axis=0 wide", ("sum",),
         lambda xp, d: (lambda w: lambda: w.sum(axis=0))(xp.asarray(d["wide"])))
    case("sum 1-d", ("sum",), lambda xp, d: (lambda a: lambda: a.sum())(xp.asarray(d["f64"])))
    for q in ("percentile", "quantile", "nanpercentile", "nanquantile"):
        qv = 30.0 if "percentile" in q else 0.3
        case(q, (q,), lambda xp, d, q=q, qv=qv:
             (lambda a, f: lambda: f(a, qv))(xp.asarray(d["f64"]), getattr(xp, q)))

    def one(name, key, *args, covers=None, **kw):
        def build(xp, d):
            a = xp.asarray(d[key])
            f = getattr(xp, name)
            return lambda: f(a, *args, **kw)
        case(name if not args and not kw else f"{name} {args or ''}{kw or ''}".strip(),
             covers or (name,), build)

    # Manipulation.
    one("reshape", "f64", (-1, 8))
    one("ravel", "m")
    one("transpose", "m")
    case("transpose copy", ("transpose", "copy"),
         lambda xp, d: (lambda m: lambda: m.T.copy())(xp.asarray(d["m"])))
    one("copy", "f64")
    one("astype", "f64", "float32")
    one("flip", "f64")
    one("fliplr", "m")
    one("flipud", "m")
    one("rot90", "m")
    one("roll", "f64", 7)
    one("roll", "m", 3, axis=1)
    one("repeat", "f64", 3)
    one("tile", "f64", 3)
    one("diff", "f64")
    one("ediff1d", "f64")
    one("gradient", "f64")
    one("clip", "f64", 0.3, 0.7)
    one("around", "f64", 2)
    one("round", "f64", 2)
    one("nan_to_num", "nan")
    one("pad", "m", 3)
    one("resize", "f64", (1000,))
    one("squeeze", "m")
    one("expand_dims", "f64", 0)
    one("moveaxis", "m", 0, 1)
    one("swapaxes", "m", 0, 1)
    one("rollaxis", "m", 1)
    one("matrix_transpose", "m", covers=("matrix_transpose", "linalg.matrix_transpose"))
    one("permute_dims", "m", (1, 0))
    one("atleast_1d", "f64")
    one("atleast_2d", "f64")
    one("atleast_3d", "f64")
    one("broadcast_to", "taps", (1000, 64))
    one("trim_zeros", "f64")
    one("diagonal", "m", covers=("diagonal", "linalg.diagonal"))
    one("trace", "m", covers=("trace", "linalg.trace"))
    one("diag", "m")
    one("diagflat", "taps")
    one("tril", "m")
    one("triu", "m")
    one("delete", "f64", slice(None, None, 3))
    one("insert", "f64", 5, 0.0)
    one("append", "f64", 1.0)
    one("unwrap", "f64")
    one("sinc", "f64")
    one("i0", "f64")
    one("angle", "z")
    one("real", "z")
    one("imag", "z")
    one("isreal", "z")
    one("iscomplex", "z")
    one("real_if_close", "f64")
    one("fix", "f64")
    one("isneginf", "f64")
    one("isposinf", "f64")
    one("sort_complex", "z")
    case("z.real.copy() strided", ("real",),
         lambda xp, d: (lambda z: lambda: z[::2].real.copy())(xp.asarray(d["z"])))
    case("abs complex", ("absolute",),
         lambda xp, d: (lambda z: lambda: xp.abs(z))(xp.asarray(d["z"])))
    for name in ("concatenate", "concat", "stack", "vstack", "hstack", "dstack",
                 "column_stack", "row_stack", "block"):
        def build(xp, d, name=name):
            a, b = xp.asarray(d["m"]), xp.asarray(d["m2"])
            f = getattr(xp, name)
            return lambda: f([a, b])
        case(name, (name,), build)
    for name, k in (("split", 4), ("array_split", 5), ("hsplit", 4), ("vsplit", 4),
                    ("dsplit", 1)):
        def build(xp, d, name=name, k=k):
            a = xp.asarray(d["m"])
            if name == "dsplit":
                a = a[:, :, None]
            f = getattr(xp, name)
            return lambda: f(a, k if name != "split" else [3, 9])
        case(name, (name,), build)
    case("unstack", ("unstack",),
         lambda xp, d: (lambda m: lambda: xp.unstack(m[:16]))(xp.asarray(d["m"])))
    case("broadcast_arrays", ("broadcast_arrays",),
         lambda xp, d: (lambda a, b: lambda: xp.broadcast_arrays(a, b))(
             xp.asarray(d["m"]), xp.asarray(d["m"][0])))
    case("m.T + m", ("add",),
         lambda xp, d: (lambda m: lambda: m.T + m)(xp.asarray(d["m"])))
    case("where", ("where",),
         lambda xp, d: (lambda c, a, b: lambda: xp.where(c, a, b))(
             xp.asarray(d["mask"]), xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("select", ("select",),
         lambda xp, d: (lambda c, a: lambda: xp.select([c, ~c], [a, -a]))(
             xp.asarray(d["mask"]), xp.asarray(d["f64"])))
    case("choose", ("choose",),
         lambda xp, d: (lambda i, a, b: lambda: xp.choose(i, [a, b]))(
             xp.asarray(d["mask"].astype(np.int64)), xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("kron", ("kron",),
         lambda xp, d: (lambda a: lambda: xp.kron(a, a))(xp.asarray(d["m"][:32, :32])))
    case("cross", ("cross", "linalg.cross"),
         lambda xp, d: (lambda a, b: lambda: xp.cross(a, b))(
             xp.asarray(d["f64"][: (len(d["f64"]) // 3) * 3].reshape(-1, 3)),
             xp.asarray(d["g64"][: (len(d["g64"]) // 3) * 3].reshape(-1, 3))))
    case("interp", ("interp",),
         lambda xp, d: (lambda x, xs, ys: lambda: xp.interp(x, xs, ys))(
             xp.asarray(d["f64"]), xp.asarray(d["sorted"][::16]), xp.asarray(d["sorted"][::16])))

    # Creation.
    for name in ("zeros", "ones", "empty"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, n: lambda: f(n))(getattr(xp, name), len(d["f64"])))
    for name in ("zeros_like", "ones_like", "empty_like"):
        one(name, "f64")
    one("full_like", "f64", 2.0)
    case("full", ("full",), lambda xp, d: (lambda n: lambda: xp.full(n, 2.0))(len(d["f64"])))
    case("arange", ("arange",), lambda xp, d: (lambda n: lambda: xp.arange(n))(len(d["f64"])))
    for name in ("linspace", "logspace", "geomspace"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, n: lambda: f(1.0, 2.0, n))(getattr(xp, name), len(d["f64"])))
    for name in ("eye", "identity", "tri"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, k: lambda: f(k))(getattr(xp, name), d["m"].shape[0]))
    for name in ("hamming", "hanning", "bartlett", "blackman"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, n: lambda: f(n))(getattr(xp, name), len(d["f64"])))
    case("kaiser", ("kaiser",), lambda xp, d: (lambda n: lambda: xp.kaiser(n, 5.0))(len(d["f64"])))
    case("array (from ndarray)", ("array", "asarray"),
         lambda xp, d: (lambda h: lambda: xp.array(h))(d["f64"]))
    case("meshgrid", ("meshgrid",),
         lambda xp, d: (lambda a: lambda: xp.meshgrid(a, a))(xp.asarray(d["m"][0])))
    case("indices", ("indices",), lambda xp, d: (lambda s: lambda: xp.indices(s))(d["m"].shape))
    case("vander", ("vander",), lambda xp, d: (lambda a: lambda: xp.vander(a, 8))(xp.asarray(d["f64"])))
    for name in ("tril_indices", "triu_indices"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, k: lambda: f(k))(getattr(xp, name), d["m"].shape[0]))

    # Indexing.
    case("take", ("take",), lambda xp, d: (lambda a, i: lambda: xp.take(a, i))(
        xp.asarray(d["f64"]), xp.asarray(d["idx"])))
    case("a[idx]", ("take",), lambda xp, d: (lambda a, i: lambda: a[i])(
        xp.asarray(d["f64"]), xp.asarray(d["idx"])))
    case("a[mask]", ("compress", "extract"), lambda xp, d: (lambda a, m: lambda: a[m])(
        xp.asarray(d["f64"]), xp.asarray(d["mask"])))
    case("a[mask] = 0", ("putmask",), lambda xp, d: (lambda a, m: lambda: a.__setitem__(m, 0.0))(
        xp.asarray(d["f64"]).copy(), xp.asarray(d["mask"])))
    case("a[::2].copy()", ("copy",), lambda xp, d: (lambda a: lambda: a[::2].copy())(
        xp.asarray(d["f64"])))
    case("a[::-1] + 1", ("add",), lambda xp, d: (lambda a: lambda: a[::-1] + 1.0)(
        xp.asarray(d["f64"])))
    case("compress", ("compress",), lambda xp, d: (lambda m, a: lambda: xp.compress(m, a))(
        xp.asarray(d["mask"]), xp.asarray(d["f64"])))
    case("extract", ("extract",), lambda xp, d: (lambda m, a: lambda: xp.extract(m, a))(
        xp.asarray(d["mask"]), xp.asarray(d["f64"])))
    for name in ("nonzero", "flatnonzero", "argwhere"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, m: lambda: f(m))(getattr(xp, name), xp.asarray(d["mask"])))
    case("take_along_axis", ("take_along_axis",),
         lambda xp, d: (lambda m, i: lambda: xp.take_along_axis(m, i, axis=1))(
             xp.asarray(d["m"]), xp.asarray(np.argsort(d["m"], axis=1))))
    case("put_along_axis", ("put_along_axis",),
         lambda xp, d: (lambda m, i: lambda: xp.put_along_axis(m, i, 0.0, axis=1))(
             xp.asarray(d["m"]).copy(), xp.asarray(np.argsort(d["m"], axis=1)[:, :4])))
    case("ravel_multi_index", ("ravel_multi_index",),
         lambda xp, d: (lambda i, s: lambda: xp.ravel_multi_index((i, i), s))(
             xp.asarray(d["idx"] % d["m"].shape[0]), d["m"].shape))
    case("unravel_index", ("unravel_index",),
         lambda xp, d: (lambda i, s: lambda: xp.unravel_index(i, s))(
             xp.asarray(d["idx"] % d["m"].size), d["m"].shape))
    case("digitize", ("digitize",), lambda xp, d: (lambda a, b: lambda: xp.digitize(a, b))(
        xp.asarray(d["f64"]), xp.asarray(d["sorted"][::64])))

    # Sorting and searching.
    one("sort", "f64")
    one("argsort", "f64")
    one("sort", "i64")
    one("sort", "f64", kind="stable")
    one("partition", "f64", 1000)
    one("argpartition", "f64", 1000)
    for name in ("partition", "argpartition"):
        case(f"{name} (1000,) kth=500", (name,), lambda xp, d, name=name:
             (lambda a, f: lambda: f(a, 500))(xp.asarray(d["f64"][:1000]),
                                              getattr(xp, name)))
        case(f"{name} 2-d last axis", (name,), lambda xp, d, name=name:
             (lambda m, f: lambda: f(m, m.shape[1] // 2))(xp.asarray(d["m"]),
                                                         getattr(xp, name)))
        case(f"{name} float32", (name,), lambda xp, d, name=name:
             (lambda a, f: lambda: f(a, 1000))(xp.asarray(d["f32"]),
                                               getattr(xp, name)))
    case("lexsort", ("lexsort",), lambda xp, d: (lambda a, b: lambda: xp.lexsort((a, b)))(
        xp.asarray(d["small_ints"]), xp.asarray(d["f64"])))
    case("searchsorted", ("searchsorted",), lambda xp, d: (lambda s, v: lambda: xp.searchsorted(s, v))(
        xp.asarray(d["sorted"]), xp.asarray(d["needles"])))

    # Sets.
    for name in ("unique", "unique_values", "unique_counts", "unique_inverse", "unique_all"):
        one(name, "small_ints")
    one("unique", "f64", covers=("unique",))
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d", "isin"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, a, b: lambda: f(a, b))(getattr(xp, name), xp.asarray(d["small_ints"]),
                                               xp.asarray(d["small_ints"][::3] + 500)))

    # Statistics and polynomials.
    one("histogram", "f64", 64)
    one("histogram_bin_edges", "f64", 64)
    case("histogram2d", ("histogram2d",), lambda xp, d: (lambda a, b: lambda: xp.histogram2d(a, b, 32))(
        xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("histogramdd", ("histogramdd",), lambda xp, d: (lambda a: lambda: xp.histogramdd(a, 16))(
        xp.asarray(np.stack([d["f64"], d["g64"]], axis=1))))
    one("bincount", "small_ints")
    case("corrcoef", ("corrcoef",), lambda xp, d: (lambda w: lambda: xp.corrcoef(w))(xp.asarray(d["wide"])))
    case("cov", ("cov",), lambda xp, d: (lambda w: lambda: xp.cov(w))(xp.asarray(d["wide"])))
    case("convolve", ("convolve",), lambda xp, d: (lambda a, t: lambda: xp.convolve(a, t))(
        xp.asarray(d["f64"][:100000]), xp.asarray(d["taps"])))
    case("correlate", ("correlate",), lambda xp, d: (lambda a, t: lambda: xp.correlate(a, t))(
        xp.asarray(d["f64"][:100000]), xp.asarray(d["taps"])))
    case("trapezoid", ("trapezoid",), lambda xp, d: (lambda a: lambda: xp.trapezoid(a))(xp.asarray(d["f64"])))
    case("isclose", ("isclose",), lambda xp, d: (lambda a, b: lambda: xp.isclose(a, b))(
        xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("allclose", ("allclose",), lambda xp, d: (lambda a: lambda: xp.allclose(a, a))(xp.asarray(d["f64"])))
    case("array_equal", ("array_equal",), lambda xp, d: (lambda a: lambda: xp.array_equal(a, a))(
        xp.asarray(d["f64"])))
    case("array_equiv", ("array_equiv",), lambda xp, d: (lambda a: lambda: xp.array_equiv(a, a))(
        xp.asarray(d["f64"])))
    case("polyval", ("polyval",), lambda xp, d: (lambda c, a: lambda: xp.polyval(c, a))(
        xp.asarray(d["taps"][:8]), xp.asarray(d["f64"])))
    case("polyfit", ("polyfit",), lambda xp, d: (lambda x, y: lambda: xp.polyfit(x, y, 3))(
        xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    for name in ("polyadd", "polysub", "polymul", "polydiv"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, a, b: lambda: f(a, b))(getattr(xp, name), xp.asarray(d["taps"]),
                                               xp.asarray(d["taps"][:8] + 1)))
    for name in ("polyder", "polyint", "roots", "poly"):
        case(name, (name,), lambda xp, d, name=name:
             (lambda f, a: lambda: f(a))(getattr(xp, name), xp.asarray(d["taps"][:16])))

    # Linear algebra (and the einsum/products in the main namespace).
    def la(name, *keys, mod="linalg", **kw):
        def build(xp, d):
            f = getattr(getattr(xp, mod) if mod else xp, name)
            args = [xp.asarray(d[k]) for k in keys]
            return lambda: f(*args, **kw)
        case(f"{mod + '.' if mod else ''}{name}", (f"{mod}.{name}" if mod else name,), build)
    for name in ("inv", "det", "slogdet", "eig", "eigvals", "pinv", "matrix_rank",
                 "cond", "svdvals", "matrix_norm"):
        la(name, "sq")
    for name in ("eigh", "eigvalsh", "cholesky"):
        la(name, "spd")
    la("svd", "sq")
    la("svd", "tall", full_matrices=False)
    la("qr", "tall")
    la("solve", "sq", "rhs")
    case("linalg.lstsq", ("linalg.lstsq",), lambda xp, d: (lambda a, b: lambda: xp.linalg.lstsq(a, b, rcond=None))(
        xp.asarray(d["tall"]), xp.asarray(d["tall"][:, 0])))
    la("norm", "m")
    la("vector_norm", "f64")
    la("matrix_power", "sq", n=3)
    case("linalg.multi_dot", ("linalg.multi_dot",), lambda xp, d: (lambda a: lambda: xp.linalg.multi_dot([a, a, a]))(
        xp.asarray(d["sq"])))
    la("tensorinv", "sq", ind=1)
    case("linalg.tensorsolve", ("linalg.tensorsolve",), lambda xp, d: (lambda a, b: lambda: xp.linalg.tensorsolve(a, b))(
        xp.asarray(d["sq"]), xp.asarray(d["vec_la"])))
    la("matmul", "m", "m2", mod="")
    la("dot", "m", "m2", mod="")
    case("inner", ("inner",), lambda xp, d: (lambda a, b: lambda: xp.inner(a, b))(
        xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("vdot", ("vdot",), lambda xp, d: (lambda a, b: lambda: xp.vdot(a, b))(
        xp.asarray(d["f64"]), xp.asarray(d["g64"])))
    case("outer", ("outer", "linalg.outer"), lambda xp, d: (lambda a: lambda: xp.outer(a, a))(xp.asarray(d["m"][0])))
    case("linalg.vecdot", ("linalg.vecdot",), lambda xp, d: (lambda a, b: lambda: xp.linalg.vecdot(a, b))(
        xp.asarray(d["m"]), xp.asarray(d["m2"])))
    case("tensordot", ("tensordot", "linalg.tensordot"), lambda xp, d: (lambda a, b: lambda: xp.tensordot(a, b, 1))(
        xp.asarray(d["m"]), xp.asarray(d["m2"])))
    case("matmul vec", ("matmul", "linalg.matmul"), lambda xp, d: (lambda a, v: lambda: a @ v)(
        xp.asarray(d["m"]), xp.asarray(d["m"][0])))
    for spec, keys in (("ij,jk->ik", ("m", "m2")), ("ij,ij->i", ("m", "m2")),
                       ("ij->j", ("m",)), ("ii->", ("m",)), ("ij,j->i", ("m", "vec_m"))):
        def build(xp, d, spec=spec, keys=keys):
            dd = dict(d, vec_m=d["m"][0])
            ops = [xp.asarray(dd[k]) for k in keys]
            return lambda: xp.einsum(spec, *ops)
        case(f"einsum '{spec}'", ("einsum",), build)
    case("einsum 'ij,ij->i' tiny", ("einsum",), lambda xp, d: (lambda a: lambda: xp.einsum("ij,ij->i", a, a))(
        xp.asarray(d["m"][:8, :8])))
    case("einsum 'ijk,ijk->ij'", ("einsum",), lambda xp, d: (lambda a: lambda: xp.einsum("ijk,ijk->ij", a, a))(
        xp.asarray(d["f64"][: (len(d["f64"]) // 64) * 64].reshape(-1, 8, 8))))

    # FFT.
    for name in ("fft", "ifft", "rfft", "hfft", "ihfft"):
        case(f"fft.{name}", (f"fft.{name}",), lambda xp, d, name=name:
             (lambda f, a: lambda: f(a))(getattr(xp.fft, name), xp.asarray(d["z" if name in ("fft", "ifft", "hfft") else "f64"])))
    case("fft.irfft", ("fft.irfft",), lambda xp, d: (lambda a: lambda: xp.fft.irfft(a))(xp.asarray(d["z"])))
    for name in ("fft2", "ifft2", "fftn", "ifftn", "rfft2", "rfftn"):
        case(f"fft.{name}", (f"fft.{name}",), lambda xp, d, name=name:
             (lambda f, a: lambda: f(a))(getattr(xp.fft, name), xp.asarray(d["m"])))
    for name in ("irfft2", "irfftn"):
        case(f"fft.{name}", (f"fft.{name}",), lambda xp, d, name=name:
             (lambda f, a: lambda: f(a))(getattr(xp.fft, name), xp.asarray(d["m"] + 0j)))
    for name in ("fftshift", "ifftshift"):
        case(f"fft.{name}", (f"fft.{name}",), lambda xp, d, name=name:
             (lambda f, a: lambda: f(a))(getattr(xp.fft, name), xp.asarray(d["m"])))
    for name in ("fftfreq", "rfftfreq"):
        case(f"fft.{name}", (f"fft.{name}",), lambda xp, d, name=name:
             (lambda f, n: lambda: f(n))(getattr(xp.fft, name), len(d["f64"])))

    # Random (the Generator API; both libraries draw the same amount).
    def rng_case(name, *args, **kw):
        def build(xp, d):
            g = xp.random.default_rng(1)
            f = getattr(g, name)
            size = len(d["f64"])
            return lambda: f(*args, size=size, **kw)
        case(f"rng.{name}", (f"random.{name}",), build)
    rng_case("random")
    rng_case("standard_normal")
    rng_case("normal", 0.0, 1.0)
    rng_case("uniform", 0.0, 1.0)
    rng_case("integers", 0, 1000)
    rng_case("exponential", 1.0)
    rng_case("standard_exponential")
    rng_case("poisson", 4.0)
    rng_case("binomial", 10, 0.3)
    rng_case("gamma", 2.0)
    rng_case("standard_gamma", 2.0)
    rng_case("beta", 2.0, 3.0)
    rng_case("lognormal")
    rng_case("laplace")
    rng_case("logistic")
    rng_case("rayleigh")
    rng_case("weibull", 2.0)
    rng_case("pareto", 2.0)
    rng_case("geometric", 0.3)
    rng_case("chisquare", 3.0)
    rng_case("triangular", 0.0, 0.5, 1.0)
    case("rng.choice", ("random.choice",), lambda xp, d: (lambda g, n: lambda: g.choice(1000, size=n))(
        xp.random.default_rng(1), len(d["f64"])))
    case("rng.permutation", ("random.permutation",), lambda xp, d: (lambda g, n: lambda: g.permutation(n))(
        xp.random.default_rng(1), len(d["f64"])))
    case("rng.shuffle", ("random.shuffle",), lambda xp, d: (lambda g, a: lambda: g.shuffle(a))(
        xp.random.default_rng(1), xp.asarray(d["f64"]).copy()))
    case("rng.multinomial", ("random.multinomial",), lambda xp, d: (lambda g, n: lambda: g.multinomial(20, [0.2, 0.3, 0.5], size=n))(
        xp.random.default_rng(1), len(d["f64"]) // 8))
    return C


def time_pair(f_np, f_cn, repeat, min_ms):
    """Alternates NumPy and cunumpy `repeat` times; best ms per call of each."""
    f_np()
    f_cn()
    t0 = time.perf_counter()
    f_np()
    one = max(time.perf_counter() - t0, 1e-7)
    loops = max(1, int(min_ms * 1e-3 / one))
    best = [math.inf, math.inf]
    for _ in range(repeat):
        for k, f in enumerate((f_np, f_cn)):
            t0 = time.perf_counter()
            for _ in range(loops):
                f()
            best[k] = min(best[k], (time.perf_counter() - t0) / loops)
    return best[0] * 1e3, best[1] * 1e3


def shape_of(r):
    if isinstance(r, (tuple, list)):
        return tuple(shape_of(x) for x in r)
    return tuple(getattr(r, "shape", ()))


def covered_names(table):
    import cunumpy as cp
    covered = set()
    for _, covers, _ in table:
        covered.update(covers)
    public = set()
    for name in dir(cp):
        ref = getattr(np, name, None)
        if name.startswith("_") or name in NOT_TIMED or ref is None:
            continue
        if isinstance(ref, np.ufunc):
            covered.add(name)
        if callable(ref) and not isinstance(ref, type):
            public.add(name)
    for mod in ("linalg", "fft"):
        for name in dir(getattr(cp, mod)):
            if not name.startswith("_") and callable(getattr(getattr(np, mod), name, None)) \
                    and not isinstance(getattr(getattr(np, mod), name), type):
                public.add(f"{mod}.{name}")
    gen = np.random.default_rng(0)
    for name in dir(cp.random.default_rng(0)):
        if not name.startswith("_") and callable(getattr(gen, name, None)):
            public.add(f"random.{name}")
    return sorted(public - covered - NOT_TIMED)


def main(args):
    import warnings

    import cunumpy as cp
    # Domain errors (arccos of 1.5 ...) are part of the timed work, not news.
    np.seterr(all="ignore")
    warnings.simplefilter("ignore", RuntimeWarning)
    n = 512 if args.quick else args.n
    repeat = 1 if args.quick else args.repeat
    min_ms = 0.0 if args.quick else args.min_ms
    rows, errors = [], []
    d_np = unit_data(n)
    table = table_cases()
    t_start = time.perf_counter()

    def traffic(name, ref, ops):
        """Bytes an elementwise row moves (operands read, result written),
        flops of a matrix product row; None where neither model fits."""
        if ops is not None:
            res = ref if isinstance(ref, tuple) else (ref,)
            return sum(getattr(x, "nbytes", 0) for x in tuple(ops) + res), None
        if name in ("matmul", "dot"):
            k = d_np["m"].shape[0]
            return None, 2.0 * k ** 3
        return None, None

    def run_row(name, make, ops=None):
        if args.filter and args.filter not in name:
            return
        try:
            f_np = make(np, d_np)
            ref = f_np()
        except Exception:  # NumPy rejects this dtype/form: no row
            return
        try:
            f_cn = make(cp, d_np)
            got = f_cn()
            if shape_of(got) != shape_of(ref):
                errors.append(f"{name}: shape {shape_of(got)} vs NumPy {shape_of(ref)}")
                return
            tn, tc = time_pair(f_np, f_cn, repeat, min_ms)
        except Exception as exc:
            errors.append(f"{name}: {type(exc).__name__}: {str(exc)[:120]}")
            return
        nbytes, flops = traffic(name, ref, ops)
        rows.append((name, tn, tc, nbytes, flops))

    for name, uf, dt, form in ufunc_cases(n):
        a, b, _ = ufunc_operands(dt, n)
        ops = (a,) if getattr(np, uf).nin == 1 or form == "scalar" else (a, b)
        run_row(name, lambda xp, d, uf=uf, dt=dt, form=form: make_ufunc_call(xp, uf, dt, form, n),
                ops)
    for name, _, build in table:
        run_row(name, build)

    lines = [f"Sweep: n={n}, threads={args.threads}, best of {repeat} alternating rounds, "
             f"{len(rows)} rows in {time.perf_counter() - t_start:.0f} s",
             "", "| row | NumPy ms | cunumpy ms | ratio | cunumpy GB/s | cunumpy GFLOP/s |",
             "|---|---|---|---|---|---|"]
    for name, tn, tc, nbytes, flops in rows:
        gbs = f"{nbytes / tc * 1e-6:.2f}" if nbytes else ""
        gfl = f"{flops / tc * 1e-6:.2f}" if flops else ""
        lines.append(f"| {name} | {tn:.4f} | {tc:.4f} | {tn / tc:.2f} | {gbs} | {gfl} |")
    slow = sorted((r for r in rows if r[1] / r[2] < 1.0), key=lambda r: r[1] / r[2])
    lines += ["", f"Rows below 1.0x ({len(slow)} of {len(rows)}), slowest first:", "",
              "| row | ratio |", "|---|---|"]
    lines += [f"| {r[0]} | {r[1] / r[2]:.2f} |" for r in slow]
    missing = covered_names(table)
    lines += ["", f"Public names with a NumPy counterpart and no row ({len(missing)}): "
              + (", ".join(missing) if missing else "none")]
    for e in errors:
        lines.append(f"ERROR {e}")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(text + "\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(ARGS))
