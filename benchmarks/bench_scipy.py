#!/usr/bin/env python3
"""Special functions against scipy.special: each row on n float64 values
(1e7 by default) in cunumpy.special and scipy.special, at 1 and 2 threads,
in one run. Each thread count runs in its own process (OpenMP's team size
is fixed at start); within it the two contestants alternate, best of
`reps`. Prints times in ms and ratios (SciPy time / cunumpy time: above 1
means cunumpy is faster). Rows whose function cunumpy.special lacks are
reported as missing. Numbers are noisy when other work shares the CPU.

usage: PYTHONPATH=build/python bench_scipy.py [n] [reps]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

# (label, function name, argument builder over a uniform [0, 1) array u)
ROWS = [
    ("erf", "erf", lambda u: (6 * u - 3,)),
    ("gammaln", "gammaln", lambda u: (50 * u + 0.1,)),
    ("j0", "j0", lambda u: (50 * u,)),
    ("iv", "iv", lambda u: (np.full_like(u, 2.5), 20 * u)),
    ("expit", "expit", lambda u: (20 * u - 10,)),
    ("ndtr", "ndtr", lambda u: (10 * u - 5,)),
    ("xlogy", "xlogy", lambda u: (u, u + 0.5)),
    ("k0", "k0", lambda u: (20 * u + 0.01,)),
    ("jv", "jv", lambda u: (np.full_like(u, 2.5), 50 * u)),
    ("kv", "kv", lambda u: (np.full_like(u, 2.5), 20 * u + 0.01)),
    ("loggamma", "loggamma", lambda u: (50 * u + 0.1,)),
    ("gammainc", "gammainc", lambda u: (np.full_like(u, 4.5), 10 * u)),
    ("betainc", "betainc", lambda u: (np.full_like(u, 2.5),
                                      np.full_like(u, 4.0), u)),
    ("zeta", "zeta", lambda u: (5 * u + 1.5, np.full_like(u, 1.0))),
    ("ellipk", "ellipk", lambda u: (u,)),
    ("lambertw", "lambertw", lambda u: (20 * u,)),
]
# SciPy's lambertw is complex128: its real part is compared
REAL_PART = {"lambertw"}


def child(n, reps):
    import scipy.special as sp
    import cunumpy as xp
    import cunumpy.special as cs
    u = np.random.default_rng(0).random(n)
    out = {}
    for label, name, build in ROWS:
        if not hasattr(cs, name):
            out[label] = None
            continue
        args = build(u)
        xargs = [xp.asarray(a) for a in args]
        fs, fc = getattr(sp, name), getattr(cs, name)
        # the same computation first (loosely: near the zeros of gammaln
        # SciPy and glibc differ in the last digits)
        want = fs(*args)
        if label in REAL_PART:
            want = want.real
        np.testing.assert_allclose(xp.to_numpy(fc(*xargs)), want,
                                   rtol=1e-9, atol=1e-14)
        best = {"scipy": float("inf"), "cunumpy": float("inf")}
        for _ in range(reps):
            t0 = time.perf_counter()
            r = fs(*args)
            best["scipy"] = min(best["scipy"], time.perf_counter() - t0)
            del r
            t0 = time.perf_counter()
            r = fc(*xargs)
            xp.synchronize()
            best["cunumpy"] = min(best["cunumpy"], time.perf_counter() - t0)
            del r
        out[label] = best
    print(json.dumps(out))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), int(sys.argv[3]))
        return
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    res = {}
    for threads in (1, 2):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                   OMP_WAIT_POLICY=os.environ.get("OMP_WAIT_POLICY",
                                                  "passive"))
        p = subprocess.run([sys.executable, __file__, "--child", str(n),
                            str(reps)], env=env, capture_output=True,
                           text=True, check=True)
        res[threads] = json.loads(p.stdout.strip().splitlines()[-1])
    print(f"special functions on {n:.0e} float64 (best of {reps}, ms); "
          f"ratio = scipy / cunumpy")
    print(f"{'row':10s} {'scipy':>9s} {'cn 1t':>9s} {'cn 2t':>9s} "
          f"{'ratio 1t':>9s} {'ratio 2t':>9s}")
    for label, _, _ in ROWS:
        r1, r2 = res[1][label], res[2][label]
        if r1 is None:
            print(f"{label:10s} {'(not in cunumpy.special)':>40s}")
            continue
        s = min(r1["scipy"], r2["scipy"])
        print(f"{label:10s} {s * 1e3:9.2f} {r1['cunumpy'] * 1e3:9.2f} "
              f"{r2['cunumpy'] * 1e3:9.2f} {s / r1['cunumpy']:9.2f} "
              f"{s / r2['cunumpy']:9.2f}")


if __name__ == "__main__":
    main()
