#!/usr/bin/env python3
"""Fusion benchmark: numexpr-style expressions on 1e7 float64 elements in
NumPy, numexpr, unfused cunumpy (one op per call) and cunumpy's
xp.evaluate (one fused pass), at 1 and 2 threads, in one run. Each thread
count runs in its own process (OpenMP's team size is fixed at start);
within it the four contestants alternate, best of `reps`. Prints times in
ms and the ratios; above 1 means cunumpy's fused pass is faster. Then the
first-call cost (parse + type check of a new text) and the cached-call
overhead (10 elements) of evaluate and of a @fuse function.

usage: PYTHONPATH=build/python bench_fusion.py [n] [reps]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

ROWS = [
    ("a*b + c", "a*b + c"),
    ("2*a + 3*b", "2*a + 3*b"),
    ("2*a + b**10", "2*a + b**10"),
    ("a**2 + b**2 - 2*a*b*cos(c)", "a**2 + b**2 - 2*a*b*cos(c)"),
    ("sqrt((x - y)**2 + 1)", "sqrt((x - y)**2 + 1)"),
    ("where(a > 0.5, a, b)", "where(a > 0.5, a, b)"),
    ("sum(a*b)", "sum(a*b)"),
    ("f32*2.5 + 1 (float32)", "f*2.5 + 1"),
]


def child(n, reps):
    import numexpr as ne
    import cunumpy as xp
    threads = int(os.environ["OMP_NUM_THREADS"])
    ne.set_num_threads(threads)
    rng = np.random.default_rng(0)
    nps = {k: rng.random(n) for k in "abcxy"}
    nps["f"] = rng.random(n).astype(np.float32)
    xps = {k: xp.asarray(v) for k, v in nps.items()}
    npns = dict(nps, cos=np.cos, sqrt=np.sqrt, where=np.where, sum=np.sum)
    xpns = dict(xps, cos=xp.cos, sqrt=xp.sqrt, where=xp.where, sum=xp.sum)
    out = {}
    for label, text in ROWS:
        code = compile(text, "<expr>", "eval")
        fns = {
            "numpy": lambda: eval(code, npns),
            "numexpr": lambda: ne.evaluate(text, local_dict=nps),
            "unfused": lambda: eval(code, xpns),
            "fused": lambda: xp.evaluate(text, local_dict=xps),
        }
        # agreement first (the benchmark measures the same computation)
        want = np.asarray(fns["numpy"]())
        got = xp.to_numpy(fns["fused"]())
        np.testing.assert_allclose(got, want, rtol=1e-5)
        best = {k: float("inf") for k in fns}
        for _ in range(reps):
            for k, f in fns.items():
                t0 = time.perf_counter()
                r = f()
                if k in ("unfused", "fused"):
                    xp.synchronize()
                best[k] = min(best[k], time.perf_counter() - t0)
                del r
        out[label] = best
    # first call (a text never seen: parse, type check, program) and the
    # cached call on 10 elements
    small = {"a": xp.ones(10), "b": xp.ones(10), "c": xp.ones(10)}
    t0 = time.perf_counter()
    k = 200
    for i in range(k):
        xp.evaluate(f"a*b + c + {i}.5", local_dict=small)
    first = (time.perf_counter() - t0) / k
    t0 = time.perf_counter()
    for _ in range(20000):
        xp.evaluate("a*b + c", local_dict=small)
    cached = (time.perf_counter() - t0) / 20000

    @xp.fuse()
    def fma(a, b, c):
        return a * b + c

    t0 = time.perf_counter()
    fma(small["a"], small["b"], small["c"])
    fuse_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(20000):
        fma(small["a"], small["b"], small["c"])
    fuse_cached = (time.perf_counter() - t0) / 20000
    t0 = time.perf_counter()
    for _ in range(20000):
        small["a"] * small["b"] + small["c"]
    unfused_small = (time.perf_counter() - t0) / 20000
    out["_calls"] = {"evaluate_first_us": first * 1e6,
                     "evaluate_cached_us": cached * 1e6,
                     "fuse_first_us": fuse_first * 1e6,
                     "fuse_cached_us": fuse_cached * 1e6,
                     "unfused_small_us": unfused_small * 1e6}
    print(json.dumps(out))


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    if os.environ.get("CN_BENCH_FUSION_CHILD"):
        child(n, reps)
        return
    results = {}
    for threads in (1, 2):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                   OMP_WAIT_POLICY="passive", CN_BENCH_FUSION_CHILD="1",
                   NUMEXPR_MAX_THREADS=str(threads))
        r = subprocess.run([sys.executable, __file__, str(n), str(reps)],
                           env=env, check=True, capture_output=True,
                           text=True)
        results[threads] = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"n = {n}, best of {reps}; times in ms; ratio = other / fused")
    for threads in (1, 2):
        res = results[threads]
        print(f"\n{threads} thread(s)")
        print(f"{'expression':30s} {'numpy':>8s} {'numexpr':>8s} "
              f"{'unfused':>8s} {'fused':>8s} {'np/fused':>9s} "
              f"{'ne/fused':>9s} {'unf/fused':>9s}")
        for label, _ in ROWS:
            b = res[label]
            f = b["fused"]
            print(f"{label:30s} {b['numpy']*1e3:8.2f} {b['numexpr']*1e3:8.2f} "
                  f"{b['unfused']*1e3:8.2f} {f*1e3:8.2f} "
                  f"{b['numpy']/f:9.2f} {b['numexpr']/f:9.2f} "
                  f"{b['unfused']/f:9.2f}")
        c = res["_calls"]
        print(f"evaluate: first call of a new text {c['evaluate_first_us']:.1f}"
              f" us, cached call (10 elements) {c['evaluate_cached_us']:.1f} us;"
              f" @fuse: first call {c['fuse_first_us']:.0f} us, cached call "
              f"{c['fuse_cached_us']:.1f} us; unfused a*b+c (10 elements) "
              f"{c['unfused_small_us']:.1f} us")


if __name__ == "__main__":
    main()
