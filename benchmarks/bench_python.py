"""cunumpy vs NumPy from Python, in one run, reported as ratios.

    PYTHONPATH=build/python python3 benchmarks/bench_python.py [--quick]

Part 1 measures per-call overhead on 10-element float64 arrays (the cost of
getting from Python to the C function and back); part 2 the 1e7-element
rows of the core benchmark, where the engine's kernels dominate, next to
the same work timed from C by bench_core (py/C near 1: no Python-side
cost); part 3 the 4e6-element rows of the kernels with shortcuts (power
by a scalar exponent, clip, repeat, roll); part 4 the set functions on
1e6 elements and nonzero on 4e6. Ratio = cunumpy time / NumPy time (below 1: cunumpy is faster). Each
figure is the best of several repeats, so it reflects the code path, not the
machine's noise; the two libraries are timed alternately.
"""

import argparse
import os
import subprocess
import sys
import timeit

import numpy as np

import cunumpy as xp

# build/python/cunumpy -> build/benchmarks/bench_core
DEFAULT_CORE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(xp.__file__)))), "benchmarks", "bench_core")


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def best_pair(f_xp, f_np, number, repeat):
    """Best times of two functions measured alternately, so that a change of
    the machine's load affects both alike."""
    t_xp = t_np = float("inf")
    for _ in range(repeat):
        t_xp = min(t_xp, best(f_xp, number, 1))
        t_np = min(t_np, best(f_np, number, 1))
    return t_xp, t_np


def row(name, t_xp, t_np, unit, scale, extra=""):
    print(f"  {name:<16} {t_xp * scale:10.3f} {t_np * scale:10.3f} {unit:<3}"
          f" {t_xp / t_np:8.2f}x{extra}")


def small(number, repeat):
    print("per-call overhead, 10 float64 elements (ratio target <= 1.5)")
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}")
    a, b = xp.arange(10.0), xp.arange(10.0) + 1
    na, nb = np.arange(10.0), np.arange(10.0) + 1
    lst = [float(i) for i in range(10)]
    cases = [
        ("a + b", lambda: a + b, lambda: na + nb),
        ("a.sum()", lambda: a.sum(), lambda: na.sum()),
        ("a[1:5]", lambda: a[1:5], lambda: na[1:5]),
        ("zeros(10)", lambda: xp.zeros(10), lambda: np.zeros(10)),
        ("a * 2.0", lambda: a * 2.0, lambda: na * 2.0),
        ("xp.sin(a)", lambda: xp.sin(a), lambda: np.sin(na)),
        ("xp.sqrt(a)", lambda: xp.sqrt(a), lambda: np.sqrt(na)),
        ("a[0]", lambda: a[0], lambda: na[0]),
        ("a.shape", lambda: a.shape, lambda: na.shape),
        ("a.dtype", lambda: a.dtype, lambda: na.dtype),
        ("a.T", lambda: a.T, lambda: na.T),
        ("a.copy()", lambda: a.copy(), lambda: na.copy()),
        ("asarray(list10)", lambda: xp.asarray(lst), lambda: np.asarray(lst)),
    ]
    for name, f_xp, f_np in cases:
        row(name, *best_pair(f_xp, f_np, number, repeat), "ns", 1e9)


# bench_core's names of the large rows, in order (the same work from C).
CORE_ROWS = ["add", "fma", "sin", "exp", "sum", "mean", "std", "max",
             "argmax", "cumsum", "strided_add"]


def core_times(core, n, repeat):
    """{name: seconds} from the C benchmark binary, or {} without one."""
    if not core or not os.path.exists(core):
        return {}
    out = subprocess.run([core, str(n), str(repeat)], check=True,
                         capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        name, _, ms = line.partition(" ")
        if name in CORE_ROWS:
            res[name] = float(ms) / 1e3
    return res


def large(n, repeat, core):
    print(f"\n{n:.0e}-element float64 rows (ratio target ~1 or better)")
    c_times = core_times(core, n, repeat)
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}" +
          (f" {'C engine':>10} {'py/C':>6}" if c_times else ""))
    rng = np.random.default_rng(0)
    na, nb, nc = (rng.standard_normal(n) for _ in range(3))
    a, b, c = xp.asarray(na.copy()), xp.asarray(nb.copy()), \
        xp.asarray(nc.copy())
    cases = [
        ("a + b", lambda: a + b, lambda: na + nb),
        ("a * b + c", lambda: a * b + c, lambda: na * nb + nc),
        ("sin(a)", lambda: xp.sin(a), lambda: np.sin(na)),
        ("exp(a)", lambda: xp.exp(a), lambda: np.exp(na)),
        ("a.sum()", lambda: a.sum(), lambda: na.sum()),
        ("a.mean()", lambda: a.mean(), lambda: na.mean()),
        ("a.std()", lambda: a.std(), lambda: na.std()),
        ("a.max()", lambda: a.max(), lambda: na.max()),
        ("a.argmax()", lambda: a.argmax(), lambda: na.argmax()),
        ("a.cumsum()", lambda: a.cumsum(), lambda: na.cumsum()),
        ("a[::2] + b[::2]", lambda: a[::2] + b[::2],
         lambda: na[::2] + nb[::2]),
    ]
    for (name, f_xp, f_np), cname in zip(cases, CORE_ROWS):
        f_xp(), f_np()  # warm the pools and page tables
        t_xp, t_np = best_pair(f_xp, f_np, 1, repeat)
        extra = ""
        if cname in c_times:
            extra = (f" {c_times[cname] * 1e3:10.3f} "
                     f"{t_xp / c_times[cname]:6.2f}")
        row(name, t_xp, t_np, "ms", 1e3, extra)


def paths(n, repeat):
    print(f"\n{n:.0e}-element rows of the shortcut kernels")
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}")
    rng = np.random.default_rng(1)
    cases = []
    for dt in ("float64", "float32"):
        na = rng.uniform(0.1, 4.0, n).astype(dt)
        a = xp.asarray(na)
        sfx = " f" + dt[-2:]
        for e in (2, 2.0, -1, 0.5, 3, 1.7):
            cases.append((f"a**{e}{sfx}", lambda a=a, e=e: a ** e,
                          lambda na=na, e=e: na ** e))
        cases.append((f"clip{sfx}", lambda a=a: xp.clip(a, 0.5, 3.0),
                      lambda na=na: np.clip(na, 0.5, 3.0)))
    ni = rng.integers(-9, 9, n).astype(np.int64)
    ai = xp.asarray(ni)
    cases += [
        ("a**3 i64", lambda: ai ** 3, lambda: ni ** 3),
        ("clip i64", lambda: xp.clip(ai, -3, 4), lambda: np.clip(ni, -3, 4)),
        ("repeat(a, 3)", lambda: xp.repeat(ai, 3), lambda: np.repeat(ni, 3)),
        ("roll(a, 7)", lambda: xp.roll(ai, 7), lambda: np.roll(ni, 7)),
    ]
    for name, f_xp, f_np in cases:
        f_xp(), f_np()  # warm the pools and page tables
        row(name, *best_pair(f_xp, f_np, 1, repeat), "ms", 1e3)


def sets(n, repeat):
    print(f"\n{n:.0e}-element rows of the set functions and nonzero")
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}")
    rng = np.random.default_rng(2)
    nf = rng.standard_normal(n)
    ni = rng.integers(0, n // 10, n).astype(np.int64)
    nt = rng.integers(0, n, n // 10).astype(np.int64)
    nft = rng.choice(nf, n // 10)
    nz = rng.uniform(0, 1, 4 * n)
    f, i, t, ft, z = (xp.asarray(x) for x in (nf, ni, nt, nft, nz))
    cases = [
        ("unique f64", lambda: xp.unique(f), lambda: np.unique(nf)),
        ("unique i64", lambda: xp.unique(i), lambda: np.unique(ni)),
        ("unique_counts", lambda: xp.unique_counts(i),
         lambda: np.unique_counts(ni)),
        ("unique_inverse", lambda: xp.unique_inverse(f),
         lambda: np.unique_inverse(nf)),
        ("unique_all", lambda: xp.unique_all(i), lambda: np.unique_all(ni)),
        ("isin i64", lambda: xp.isin(i, t), lambda: np.isin(ni, nt)),
        ("isin f64", lambda: xp.isin(f, ft), lambda: np.isin(nf, nft)),
        ("intersect1d", lambda: xp.intersect1d(i, t),
         lambda: np.intersect1d(ni, nt)),
        ("nonzero(z>.5)", lambda: xp.nonzero(z > 0.5),
         lambda: np.nonzero(nz > 0.5)),
        ("flatnonzero", lambda: xp.flatnonzero(z > 0.5),
         lambda: np.flatnonzero(nz > 0.5)),
    ]
    for name, f_xp, f_np in cases:
        f_xp(), f_np()  # warm the pools and page tables
        row(name, *best_pair(f_xp, f_np, 1, repeat), "ms", 1e3)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="fewer repeats and 1e6-element rows")
    p.add_argument("--core", default=DEFAULT_CORE,
                   help="the bench_core binary, whose times of the same "
                   "large rows from C are shown next to Python's (default: "
                   "the build tree's, if built)")
    p.add_argument("--part", choices=("all", "small", "large", "paths", "sets"),
                   default="all", help="run one part only")
    args = p.parse_args()
    print(f"cunumpy {xp.__version__} ({xp.get_backend()}), numpy "
          f"{np.__version__}, python {sys.version.split()[0]}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}\n")
    quick = args.quick
    if args.part in ("all", "small"):
        small(20000 if quick else 200000, 3 if quick else 5)
    if args.part in ("all", "large"):
        large(10**6 if quick else 10**7, 3 if quick else 7, args.core)
    if args.part in ("all", "paths"):
        paths(10**6 if quick else 4 * 10**6, 3 if quick else 7)
    if args.part in ("all", "sets"):
        sets(10**6, 3 if quick else 7)


if __name__ == "__main__":
    main()
