#!/usr/bin/env python3
"""Custom CPU kernels (cunumpy.ElementwiseKernel / ReductionKernel) against
the built-in ops and NumPy, in one run:

  1. first call of a new kernel (compiles with the host C compiler) and the
     next call (in memory);
  2. the first call in a fresh process when the compiled object is in the
     disk cache (dlopen, no compiler run), median of several processes;
  3. per-call cost of a cached kernel on 10 float64 elements next to the
     built-in ufunc call (cp.add) and NumPy;
  4. z = x + y on 1e7 float64 with the kernel next to cp.add and NumPy, and
     a sum-of-squares ReductionKernel next to cp.sum(x * x) and NumPy.

    PYTHONPATH=build/python OMP_WAIT_POLICY=passive \\
        python3 benchmarks/bench_kernel.py [--quick]

Timings are best-of repeats, cunumpy and NumPy alternated; ratios are
kernel time / reference time (below 1: the kernel is faster).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

import numpy as np

import cunumpy as cp


def best_per_call(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def alternate(fns, number, repeat):
    """Best per-call seconds of each fn, the fns timed in turn."""
    res = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, f in enumerate(fns):
            res[i] = min(res[i], best_per_call(f, number, 1))
    return res


FRESH = """
import time
t0 = time.perf_counter()
import cunumpy as cp
x = cp.arange(10.0)
k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * y + 0.5', 'bench_fresh')
t1 = time.perf_counter()
k(x, x)
t2 = time.perf_counter()
k(x, x)
t3 = time.perf_counter()
print((t2 - t1) * 1e3, (t3 - t2) * 1e3, *cp._kernel.kernel_cpu_cache_info())
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 3 if args.quick else 7
    cache = tempfile.mkdtemp(prefix="cn_bench_kernel_")
    os.environ["CUNUMPY_CPU_KERNEL_CACHE"] = cache

    # 1. compile latency of a kernel no cache has seen
    tag = "%d_%d" % (os.getpid(), time.time_ns())
    k = cp.ElementwiseKernel('T x, T y', 'T z',
                             'z = x * y + 1.0 /* %s */' % tag, 'bench_first')
    x10 = cp.arange(10.0)
    t0 = time.perf_counter()
    k(x10, x10)
    t1 = time.perf_counter()
    k(x10, x10)
    t2 = time.perf_counter()
    print("first call (compile) %8.1f ms   next call %8.4f ms"
          % ((t1 - t0) * 1e3, (t2 - t1) * 1e3))

    # 2. a fresh process finds the object on disk
    env = dict(os.environ, CUNUMPY_CPU_KERNEL_CACHE=cache)
    subprocess.run([sys.executable, "-c", FRESH], env=env, check=True,
                   capture_output=True)
    loads, counts = [], None
    for _ in range(5 if args.quick else 11):
        out = subprocess.run([sys.executable, "-c", FRESH], env=env,
                             check=True, capture_output=True,
                             text=True).stdout.split()
        loads.append(float(out[0]))
        counts = out[2:]
    print("fresh process, cached object: first call %.2f ms (median of %d; "
          "compiled %s, disk hits %s)" % (statistics.median(loads),
                                          len(loads), counts[0], counts[1]))

    # 3. per-call cost on 10 elements
    add = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'bench_add')
    a10, b10 = cp.arange(10.0), cp.arange(10.0) + 1
    n10, m10 = np.arange(10.0), np.arange(10.0) + 1
    add(a10, b10)
    number = 20000 if args.quick else 100000
    tk, tb, tn = alternate([lambda: add(a10, b10), lambda: cp.add(a10, b10),
                            lambda: np.add(n10, m10)], number, reps)
    print("10 elements: kernel %.2f us, cp.add %.2f us, numpy %.2f us; "
          "kernel / cp.add = %.2f" % (tk * 1e6, tb * 1e6, tn * 1e6, tk / tb))

    # 4. bandwidth-bound sizes
    n = 10 ** 7
    a = cp.arange(n, dtype=cp.float64) * 0.5
    b = cp.arange(n, dtype=cp.float64) * 0.25
    na, nb = cp.to_numpy(a), cp.to_numpy(b)
    add(a, b)
    tk, tb, tn = alternate([lambda: add(a, b), lambda: cp.add(a, b),
                            lambda: np.add(na, nb)], 1, reps * 2)
    print("1e7 float64 z = x + y: kernel %.2f ms, cp.add %.2f ms, numpy "
          "%.2f ms; kernel / cp.add = %.2f"
          % (tk * 1e3, tb * 1e3, tn * 1e3, tk / tb))
    out = cp.empty(n)
    tko, tbo = alternate([lambda: add(a, b, out),
                          lambda: cp.add(a, b, out=out)], 1, reps * 2)
    print("1e7 float64 into out=: kernel %.2f ms, cp.add %.2f ms; ratio %.2f"
          % (tko * 1e3, tbo * 1e3, tko / tbo))
    ssq = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0',
                             'bench_ssq')
    ssq(a)
    tk, tb, tn = alternate([lambda: ssq(a), lambda: cp.sum(a * a),
                            lambda: np.dot(na, na)], 1, reps * 2)
    print("1e7 float64 sum of squares: kernel %.2f ms, cp.sum(a*a) %.2f ms, "
          "numpy dot %.2f ms; kernel / cp.sum(a*a) = %.2f"
          % (tk * 1e3, tb * 1e3, tn * 1e3, tk / tb))


if __name__ == "__main__":
    main()
