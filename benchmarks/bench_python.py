"""cunumpy vs NumPy from Python, in one run, reported as ratios.

    PYTHONPATH=build/python python3 benchmarks/bench_python.py [--quick]

Part 1 measures per-call overhead on 10-element float64 arrays (the cost of
getting from Python to the C function and back); part 2 the 1e7-element
rows of the core benchmark, where the engine's kernels dominate. Ratio =
cunumpy time / NumPy time (below 1: cunumpy is faster). Each figure is the
best of several repeats, so it reflects the code path, not the machine's
noise.
"""

import argparse
import os
import sys
import timeit

import numpy as np

import cunumpy as xp


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def row(name, t_xp, t_np, unit, scale):
    print(f"  {name:<16} {t_xp * scale:10.3f} {t_np * scale:10.3f} {unit:<3}"
          f" {t_xp / t_np:8.2f}x")


def small(number, repeat):
    print("per-call overhead, 10 float64 elements (ratio target <= 1.5)")
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}")
    a, b = xp.arange(10.0), xp.arange(10.0) + 1
    na, nb = np.arange(10.0), np.arange(10.0) + 1
    cases = [
        ("a + b", lambda: a + b, lambda: na + nb),
        ("a.sum()", lambda: a.sum(), lambda: na.sum()),
        ("a[1:5]", lambda: a[1:5], lambda: na[1:5]),
        ("zeros(10)", lambda: xp.zeros(10), lambda: np.zeros(10)),
        ("a * 2.0", lambda: a * 2.0, lambda: na * 2.0),
        ("xp.sin(a)", lambda: xp.sin(a), lambda: np.sin(na)),
    ]
    for name, f_xp, f_np in cases:
        row(name, best(f_xp, number, repeat), best(f_np, number, repeat),
            "ns", 1e9)


def large(n, repeat):
    print(f"\n{n:.0e}-element float64 rows (ratio target ~1 or better)")
    print(f"  {'op':<16} {'cunumpy':>10} {'numpy':>10}     {'ratio':>8}")
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
    for name, f_xp, f_np in cases:
        f_xp(), f_np()  # warm the pools and page tables
        row(name, best(f_xp, 1, repeat), best(f_np, 1, repeat), "ms", 1e3)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="fewer repeats and 1e6-element rows")
    args = p.parse_args()
    print(f"cunumpy {xp.__version__} ({xp.get_backend()}), numpy "
          f"{np.__version__}, python {sys.version.split()[0]}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}\n")
    if args.quick:
        small(20000, 3)
        large(10**6, 3)
    else:
        small(200000, 5)
        large(10**7, 7)


if __name__ == "__main__":
    main()
