"""convolve / correlate and cov / corrcoef: cunumpy vs NumPy in one run;
with --scipy, cunumpy.signal vs scipy.signal at 1 and 2 OpenMP threads
(one subprocess per thread count, the two libraries timed alternately).

    OMP_WAIT_POLICY=passive PYTHONPATH=build/python \
        python3 benchmarks/bench_signal.py [--quick] [--scipy [--full]]

--scipy sizes are reduced from the issue's (convolve2d 1024^2 instead of
2048^2, sosfilt 64 x 1e5 instead of 64 x 1e6) unless --full is given.

Ratio = cunumpy time / NumPy time (below 1: cunumpy is faster); each figure
is the best of several repeats, the two libraries timed alternately. The
convolution rows span the direct loop (short kernels) and the FFT product
(long ones, where the direct sum costs far more); the covariance rows a
square, a wide (few variables, many observations) and a tall (rowvar=False)
matrix.
"""

import argparse
import json
import os
import subprocess
import sys
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


def scipy_cases(full):
    """(name, cunumpy call, scipy call) for the signal rows."""
    import scipy.signal as ss
    import cunumpy.signal as cs
    rng = np.random.default_rng(1)
    cases = []
    a, k = rng.standard_normal(1_000_000), rng.standard_normal(10_000)
    xa, xk = xp.asarray(a), xp.asarray(k)
    cases.append(("fftconvolve 1e6 * 1e4 taps",
                  lambda: cs.fftconvolve(xa, xk),
                  lambda: ss.fftconvolve(a, k)))
    n2 = 2048 if full else 1024
    im, kk = rng.standard_normal((n2, n2)), rng.standard_normal((15, 15))
    xim = xp.asarray(im)
    cases.append((f"convolve2d {n2}^2 * 15x15 same",
                  lambda: cs.convolve2d(xim, kk, "same"),
                  lambda: ss.convolve2d(im, kk, "same")))
    b, aa = ss.butter(8, 0.1)
    x = rng.standard_normal(10_000_000)
    xx = xp.asarray(x)
    cases.append(("lfilter order 8 on 1e7", lambda: cs.lfilter(b, aa, xx),
                  lambda: ss.lfilter(b, aa, x)))
    sos = ss.butter(8, 0.1, output="sos")
    nlen = 1_000_000 if full else 100_000
    m = rng.standard_normal((64, nlen))
    xm = xp.asarray(m)
    cases.append((f"sosfilt order 8 on 64x{nlen:.0e}",
                  lambda: cs.sosfilt(sos, xm), lambda: ss.sosfilt(sos, m)))
    v = rng.standard_normal(1_000_000)
    xv = xp.asarray(v)
    cases.append(("medfilt 1e6 kernel 31", lambda: cs.medfilt(xv, 31),
                  lambda: ss.medfilt(v, 31)))
    cases.append(("welch 1e7", lambda: cs.welch(xx),
                  lambda: ss.welch(x)))
    cases.append(("resample_poly 1e7 by 3/2",
                  lambda: cs.resample_poly(xx, 3, 2),
                  lambda: ss.resample_poly(x, 3, 2)))
    return cases


def scipy_child(full, repeat):
    out = {}
    for name, f_xp, f_sp in scipy_cases(full):
        out[name] = best_pair(f_xp, f_sp, 1, repeat)
    print(json.dumps(out))


def scipy_main(full, repeat):
    results = {}
    for threads in (1, 2):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                   OMP_WAIT_POLICY="passive")
        cmd = [sys.executable, __file__, "--scipy-child", "--repeat",
               str(repeat)] + (["--full"] if full else [])
        r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           check=True)
        results[threads] = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"  {'case':<34} {'thr':>3} {'cunumpy':>10} {'scipy':>10}    "
          f"{'speedup':>8}")
    for name in results[1]:
        for threads in (1, 2):
            t_xp, t_sp = results[threads][name]
            print(f"  {name:<34} {threads:>3} {t_xp * 1e3:10.2f} "
                  f"{t_sp * 1e3:10.2f} ms {t_sp / t_xp:8.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scipy", action="store_true")
    ap.add_argument("--scipy-child", action="store_true")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.scipy_child:
        return scipy_child(args.full, args.repeat)
    if args.scipy:
        return scipy_main(args.full, args.repeat)
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
