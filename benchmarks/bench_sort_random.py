#!/usr/bin/env python3
"""Sorting / random / statistics benchmark: the same work in cunumpy (the C
program bench_sort_random, at 1 and 2 OpenMP threads) and in NumPy, in one
run, alternating: each of `reps` rounds times NumPy, then cunumpy with 1
and 2 threads (best of 2 each); the best over rounds is kept. Prints times
and ratios (NumPy time / cunumpy time: above 1 means cunumpy is faster).
Targets: sort >= 1.0, random >= 1.0.

usage: bench_sort_random.py BUILD_DIR [n] [reps]
"""
import sys

import numpy as np

import bench_util
from bench_util import best


def splitmix64(i):
    with np.errstate(over="ignore"):
        z = (i + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def numpy_rows(n, reps):
    h = splitmix64(np.arange(n, dtype=np.uint64))
    f = (h >> np.uint64(11)).astype(np.float64) * 2.0**-53
    q = h.view(np.int64)
    f4 = f.astype(np.float32)
    q4 = ((h >> np.uint64(32)).astype(np.int64) - 2**31).astype(np.int32)
    u = (splitmix64(np.arange(n // 10, dtype=np.uint64))
         % np.uint64(100000)).astype(np.int64)
    g = np.random.default_rng(12345)
    return {
        "sort_f64": best(lambda: np.sort(f), reps),
        "argsort_f64": best(lambda: np.argsort(f), reps),
        "sort_i64": best(lambda: np.sort(q), reps),
        "argsort_i64": best(lambda: np.argsort(q), reps),
        "sort_f32": best(lambda: np.sort(f4), reps),
        "argsort_f32": best(lambda: np.argsort(f4), reps),
        "sort_i32": best(lambda: np.sort(q4), reps),
        "argsort_i32": best(lambda: np.argsort(q4), reps),
        "unique_1e6": best(lambda: np.unique(u), reps),
        "normal": best(lambda: g.standard_normal(n), reps),
        "median": best(lambda: np.median(f), reps),
    }


def engine_rows(build, n, reps, threads):
    return bench_util.engine_rows(build, "bench_sort_random", [n, reps], threads)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    npr, e1, e2 = {}, {}, {}
    for _ in range(reps):
        for acc, rows in ((npr, numpy_rows(n, 2)),
                          (e1, engine_rows(build, n, 2, 1)),
                          (e2, engine_rows(build, n, 2, 2))):
            for k, v in rows.items():
                acc[k] = min(acc.get(k, v), v)
    print(f"sort/random benchmark, n = {n} (unique: n/10), best of {reps} "
          f"alternating rounds; "
          f"NumPy {np.__version__}")
    print(f"{'row':<14}{'numpy ms':>10}{'cn 1thr':>10}{'ratio':>8}"
          f"{'cn 2thr':>10}{'ratio':>8}")
    for k, v in npr.items():
        r1 = v / e1[k] if e1.get(k) else float("nan")
        r2 = v / e2[k] if e2.get(k) else float("nan")
        print(f"{k:<14}{v:>10.2f}{e1[k]:>10.2f}{r1:>8.2f}{e2[k]:>10.2f}"
              f"{r2:>8.2f}")


if __name__ == "__main__":
    main()
