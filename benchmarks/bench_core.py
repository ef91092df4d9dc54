#!/usr/bin/env python3
"""Core benchmark: the same work in cunumpy (the C program bench_core, at 1
and 2 OpenMP threads) and in NumPy, in one run; prints times and ratios
(NumPy time / cunumpy time: above 1 means cunumpy is faster).

usage: bench_core.py BUILD_DIR [n] [reps]
"""
import resource
import sys
import time

import numpy as np

import bench_util
from bench_util import best


def numpy_rows(n, reps):
    a = np.arange(n, dtype=np.float64) * 0.6180339887498949
    a = a - np.floor(a)
    b = np.sqrt(a)
    c = np.square(a)
    m = np.ones((4096, 4096))
    rows = {
        "add": best(lambda: a + b, reps),
        "fma": best(lambda: a * b + c, reps),
        "sin": best(lambda: np.sin(a), reps),
        "exp": best(lambda: np.exp(a), reps),
        "sum": best(lambda: a.sum(), reps),
        "mean": best(lambda: a.mean(), reps),
        "std": best(lambda: a.std(), reps),
        "max": best(lambda: a.max(), reps),
        "argmax": best(lambda: a.argmax(), reps),
        "cumsum": best(lambda: np.cumsum(a), reps),
        "strided_add": best(lambda: a[::2] + b[::2], reps),
        "transpose": best(lambda: m.T.copy(), reps),
    }
    x = np.ones(10)
    y = np.ones(10)
    calls = 200000
    t0 = time.perf_counter()
    for _ in range(calls):
        x + y
    rows["small_add_us"] = (time.perf_counter() - t0) / calls * 1e6
    t0 = time.perf_counter()
    for _ in range(calls):
        x.sum()
    rows["small_sum_us"] = (time.perf_counter() - t0) / calls * 1e6
    return rows


def engine_rows(build, n, reps, threads):
    return bench_util.engine_rows(build, "bench_core", [n, reps], threads)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    npr = numpy_rows(n, reps)
    e1 = engine_rows(build, n, reps, 1)
    e2 = engine_rows(build, n, reps, 2)
    print(f"core benchmark, n = {n}, best of {reps}; NumPy {np.__version__}")
    print(f"{'row':<14}{'numpy':>10}{'cn 1thr':>10}{'ratio':>8}"
          f"{'cn 2thr':>10}{'ratio':>8}")
    for k, v in npr.items():
        unit = "us" if k.endswith("_us") else "ms"
        r1 = v / e1[k] if e1.get(k) else float("nan")
        r2 = v / e2[k] if e2.get(k) else float("nan")
        print(f"{k:<14}{v:>8.3f}{unit}{e1.get(k, float('nan')):>8.3f}{unit}"
              f"{r1:>7.2f}x{e2.get(k, float('nan')):>8.3f}{unit}{r2:>7.2f}x")
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: numpy side {peak_self:.0f} MiB, "
          f"cunumpy side {peak_child:.0f} MiB")


if __name__ == "__main__":
    main()
