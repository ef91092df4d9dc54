"""convolve / correlate and cov / corrcoef: cunumpy vs NumPy in one run.

    OMP_WAIT_POLICY=passive PYTHONPATH=build/python \
        python3 benchmarks/bench_signal.py [--quick]

Ratio = cunumpy time / NumPy time (below 1: cunumpy is faster); each figure
is the best of several repeats, the two libraries timed alternately. The
convolution rows span the direct loop (short kernels) and the FFT product
(long ones, where the direct sum costs far more); the covariance rows a
square, a wide (few variables, many observations) and a tall (rowvar=False)
matrix.
"""

import argparse
import timeit

import numpy as np

import cunumpy as xp


def best_pair(f_xp, f_np, number, repeat):
    t_xp = t_np = float("inf")
    for _ in range(repeat):
        t_xp = min(t_xp, min(timeit.repeat(f_xp, number=number, repeat=1)))
        t_np = min(t_np, min(timeit.repeat(f_np, number=number, repeat=1)))
    return t_xp / number, t_np / number


def row(name, t_xp, t_np):
    print(f"  {name:<34} {t_xp * 1e3:10.3f} {t_np * 1e3:10.3f} ms "
          f"{t_xp / t_np:8.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    repeat = 3 if args.quick else 7
    rng = np.random.default_rng(0)
    print(f"  {'case':<34} {'cunumpy':>10} {'numpy':>10}    {'ratio':>8}")
    conv = [(100_000, 10, "f8"), (100_000, 100, "f8"), (100_000, 300, "f8"),
            (100_000, 1000, "f8"), (10_000, 1000, "f8"), (1_000, 1000, "f8"),
            (1_000_000, 30, "f8"), (100_000, 100, "c16"),
            (100_000, 100, "i8"), (100_000, 100, "f4")]
    for n1, n2, dt in conv:
        a = rng.standard_normal(n1)
        v = rng.standard_normal(n2)
        if dt == "c16":
            a = a + 1j * rng.standard_normal(n1)
            v = v + 1j * rng.standard_normal(n2)
        elif dt == "i8":
            a, v = (a * 100).astype(np.int64), (v * 100).astype(np.int64)
        else:
            a, v = a.astype(dt), v.astype(dt)
        xa, xv = xp.asarray(a), xp.asarray(v)
        number = max(1, int(2e7 // (n1 * min(n2, 300))))
        for fn in ("convolve", "correlate"):
            if fn == "correlate" and (dt != "f8" or n2 != 100):
                continue
            t = best_pair(lambda: getattr(xp, fn)(xa, xv, "full"),
                          lambda: getattr(np, fn)(a, v, "full"),
                          number, repeat)
            row(f"{fn} {n1}x{n2} {dt}", *t)
    covs = [("corrcoef", (1000, 2000), True), ("cov", (1000, 2000), True),
            ("corrcoef", (2000, 1000), True), ("cov", (10, 100_000), True),
            ("cov", (100_000, 10), False), ("corrcoef", (100_000, 50), False),
            ("cov", (200, 200), True)]
    for fn, shape, rowvar in covs:
        m = rng.standard_normal(shape)
        xm = xp.asarray(m)
        t = best_pair(lambda: getattr(xp, fn)(xm, rowvar=rowvar),
                      lambda: getattr(np, fn)(m, rowvar=rowvar), 1, repeat)
        row(f"{fn} {shape} rowvar={rowvar}", *t)
    mc = rng.standard_normal((300, 1000)) + 1j * rng.standard_normal((300, 1000))
    xmc = xp.asarray(mc)
    row("cov (300, 1000) complex", *best_pair(lambda: xp.cov(xmc),
                                              lambda: np.cov(mc), 1, repeat))
    w = rng.integers(1, 4, 2000)
    m = rng.standard_normal((500, 2000))
    xm, xw = xp.asarray(m), xp.asarray(w)
    row("cov (500, 2000) fweights", *best_pair(
        lambda: xp.cov(xm, fweights=xw), lambda: np.cov(m, fweights=w), 1,
        repeat))


if __name__ == "__main__":
    main()
