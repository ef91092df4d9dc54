#!/usr/bin/env python3
"""Random distributions: cunumpy's Generator and numpy.random.default_rng
side by side in one process, alternating rounds (each round times NumPy
then cunumpy, best of 2 each; the best over rounds is kept). Prints
ratio = NumPy time / cunumpy time (below 1: cunumpy is slower).
Run with OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive.

usage: PYTHONPATH=build/python bench_random.py [n] [rounds]
"""
import sys
import time

import numpy as np

import cunumpy as cn

CASES = [
    ("random", lambda g, n: g.random(n)),
    ("random_f32", lambda g, n: g.random(n, dtype=np.float32)),
    ("uniform", lambda g, n: g.uniform(-2.0, 3.0, n)),
    ("standard_normal", lambda g, n: g.standard_normal(n)),
    ("normal", lambda g, n: g.normal(1.5, 2.0, n)),
    ("exponential", lambda g, n: g.exponential(2.0, n)),
    ("rayleigh", lambda g, n: g.rayleigh(1.5, n)),
    ("weibull", lambda g, n: g.weibull(1.7, n)),
    ("pareto", lambda g, n: g.pareto(2.5, n)),
    ("laplace", lambda g, n: g.laplace(0.5, 2.0, n)),
    ("logistic", lambda g, n: g.logistic(-1.0, 0.5, n)),
    ("triangular", lambda g, n: g.triangular(-1.0, 0.5, 4.0, n)),
    ("lognormal", lambda g, n: g.lognormal(0.25, 0.5, n)),
    ("gamma", lambda g, n: g.gamma(2.5, 1.5, n)),
    ("beta", lambda g, n: g.beta(0.5, 3.0, n)),
    ("chisquare", lambda g, n: g.chisquare(3.0, n)),
    ("geometric", lambda g, n: g.geometric(0.2, n)),
    ("binomial", lambda g, n: g.binomial(20, 0.3, n)),
    ("poisson", lambda g, n: g.poisson(3.5, n)),
    ("integers", lambda g, n: g.integers(0, 1000, n)),
]


def best_of(f, k):
    t = float("inf")
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    gn, gc = np.random.default_rng(1), cn.random.default_rng(1)
    tn, tc = {}, {}
    for _ in range(rounds):
        for name, f in CASES:
            a = best_of(lambda: f(gn, n), 2)
            b = best_of(lambda: f(gc, n), 2)
            tn[name] = min(tn.get(name, a), a)
            tc[name] = min(tc.get(name, b), b)
    print(f"random benchmark, n = {n}, best of {rounds} alternating rounds; "
          f"NumPy {np.__version__}")
    print(f"{'distribution':<16}{'numpy ms':>10}{'cunumpy ms':>12}{'ratio':>8}")
    for name, _ in CASES:
        print(f"{name:<16}{tn[name] * 1e3:>10.2f}{tc[name] * 1e3:>12.2f}"
              f"{tn[name] / tc[name]:>8.2f}")


if __name__ == "__main__":
    main()
