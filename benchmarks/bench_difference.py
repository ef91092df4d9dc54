"""Sequences and difference statistics, cunumpy vs NumPy in one run:
diff, gradient (uniform, coordinates, 2-d), trapezoid, average, ptp,
arange and linspace on 1e7 float64 elements.

    OMP_WAIT_POLICY=passive PYTHONPATH=build/python \\
        python3 benchmarks/bench_difference.py [name filter ...]

Each row is the best of 7 runs of each library, timed alternately; ratio =
NumPy time / cunumpy time (above 1: cunumpy is faster).
"""

import sys
import time

import numpy as np

import cunumpy as xp


def main():
    rng = np.random.default_rng(0)
    n = 10**7
    a = rng.standard_normal(n)
    ai = rng.integers(0, 1000, n)
    m = rng.standard_normal((1000, 10000))
    x = np.cumsum(rng.random(n))
    w = rng.random(n)
    ca, cai, cm, cx, cw = (xp.asarray(v) for v in (a, ai, m, x, w))
    cases = [
        ("diff f64 1e7", lambda: np.diff(a), lambda: xp.diff(ca)),
        ("diff i64 1e7", lambda: np.diff(ai), lambda: xp.diff(cai)),
        ("diff axis0 1000x10000", lambda: np.diff(m, axis=0),
         lambda: xp.diff(cm, axis=0)),
        ("gradient f64 1e7", lambda: np.gradient(a), lambda: xp.gradient(ca)),
        ("gradient f64 1e7 x-coords", lambda: np.gradient(a, x),
         lambda: xp.gradient(ca, cx)),
        ("gradient 2d both axes", lambda: np.gradient(m),
         lambda: xp.gradient(cm)),
        ("trapezoid f64 1e7", lambda: np.trapezoid(a),
         lambda: xp.trapezoid(ca)),
        ("trapezoid f64 1e7 x", lambda: np.trapezoid(a, x),
         lambda: xp.trapezoid(ca, cx)),
        ("average weights 1e7", lambda: np.average(a, weights=w),
         lambda: xp.average(ca, weights=cw)),
        ("ptp f64 1e7", lambda: np.ptp(a), lambda: xp.ptp(ca)),
        ("arange f64 1e7", lambda: np.arange(0, n, 1.0),
         lambda: xp.arange(0, n, 1.0)),
        ("linspace 1e7", lambda: np.linspace(0, 1, n),
         lambda: xp.linspace(0, 1, n)),
    ]
    sel = sys.argv[1:]
    for name, fn, fc in cases:
        if sel and not any(s in name for s in sel):
            continue
        tn, tc = [], []
        for _ in range(7):
            t = time.perf_counter()
            fn()
            tn.append(time.perf_counter() - t)
            t = time.perf_counter()
            fc()
            tc.append(time.perf_counter() - t)
        mn, mc = min(tn), min(tc)
        print(f"{name:28s} numpy {mn * 1e3:8.2f} ms  cunumpy {mc * 1e3:8.2f} "
              f"ms  numpy/cunumpy {mn / mc:5.2f}")


if __name__ == "__main__":
    main()
