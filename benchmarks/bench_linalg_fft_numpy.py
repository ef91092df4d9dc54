#!/usr/bin/env python3
"""Linear algebra and FFT benchmark: the same work in cunumpy (the C program
bench_linalg_fft) and in NumPy, in one run; prints times and ratios (NumPy
time / cunumpy time: above 1 means cunumpy is faster). Targets:
BLAS/LAPACK rows >= 0.95, FFT rows >= 1.5.

usage: bench_linalg_fft_numpy.py BUILD_DIR [reps] [row-filter] [rounds]

With rounds > 1 the two sides run alternately that many times (cunumpy's
program, then NumPy, then cunumpy again, ...) and each row reports the
minimum over all rounds: on a shared, loaded machine both sides then see
the same windows of load. The 1-minute load average before and after is
printed.
"""
import os
import sys

import numpy as np

import bench_util
from bench_util import best


def make(shape, dtype, diag=0.0, sym=False):
    n = int(np.prod(shape))
    x = np.arange(n, dtype=np.float64) * 0.6180339887498949
    v = (x - np.floor(x) - 0.5).reshape(shape)
    if len(shape) == 2 and shape[0] == shape[1]:
        if sym:
            v = make_sym(shape)
        v = v + diag * np.eye(shape[0])
    return v.astype(dtype)


def make_sym(shape):
    # Same as the C side: for i <= j, s = v[i,j] + v[j,i] written to both.
    n = int(np.prod(shape))
    x = np.arange(n, dtype=np.float64) * 0.6180339887498949
    v = (x - np.floor(x) - 0.5).reshape(shape)
    s = v + v.T
    return np.triu(s) + np.triu(s, 1).T


TARGET = {"matmul": 0.95, "solve": 0.95, "svd": 0.95, "eigh": 0.95,
          "fft": 1.5, "rfft": 1.5, "fft2": 1.5}


def numpy_rows(reps, only):
    rows = {}

    def want(name):
        return only is None or only in name

    for sz in (1024, 2048):
        for dt in ("float32", "float64"):
            name = f"matmul_{dt}_{sz}"
            if want(name):
                a = make((sz, sz), dt)
                b = make((sz, sz), dt)
                rows[name] = best(lambda: a @ b, reps)
    if want("solve_1000"):
        a = make((1000, 1000), "float64", diag=1000)
        b = make((1000,), "float64")
        rows["solve_1000"] = best(lambda: np.linalg.solve(a, b), reps)
    if want("svd_500"):
        a = make((500, 500), "float64")
        rows["svd_500"] = best(lambda: np.linalg.svd(a), reps)
    if want("eigh_1000"):
        a = make_sym((1000, 1000))
        rows["eigh_1000"] = best(lambda: np.linalg.eigh(a), reps)
    if want("fft_complex128_2^20"):
        a = make((1 << 20,), "complex128")
        rows["fft_complex128_2^20"] = best(lambda: np.fft.fft(a), reps + 2)
    if want("rfft_float64_2^22"):
        a = make((1 << 22,), "float64")
        rows["rfft_float64_2^22"] = best(lambda: np.fft.rfft(a), reps + 2)
    if want("fft2_complex128_2048"):
        a = make((2048, 2048), "complex128")
        rows["fft2_complex128_2048"] = best(lambda: np.fft.fft2(a), reps)
    return rows


def engine_rows(build, reps, only):
    return bench_util.engine_rows(build, "bench_linalg_fft",
                                  [reps] + ([only] if only else []))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    only = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    load0 = os.getloadavg()[0]
    eng, ref = {}, {}
    for _ in range(rounds):
        for k, v in engine_rows(build, reps, only).items():
            eng[k] = min(eng.get(k, v), v)
        for k, v in numpy_rows(reps, only).items():
            ref[k] = min(ref.get(k, v), v)
    print(f"numpy {np.__version__}; ratio = numpy ms / cunumpy ms; best of "
          f"{rounds} alternating round(s) x {reps} reps; load average "
          f"{load0:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"{'row':24s} {'cunumpy ms':>11s} {'numpy ms':>10s} {'ratio':>7s}"
          f" {'target':>7s}")
    for name, ms in eng.items():
        r = ref.get(name)
        kind = name.split("_")[0]
        tgt = TARGET.get(kind, 1.0)
        ratio = r / ms if r else float("nan")
        flag = "" if ratio >= tgt else "  BELOW"
        print(f"{name:24s} {ms:11.3f} {r:10.3f} {ratio:7.2f} {tgt:7.2f}{flag}")


if __name__ == "__main__":
    main()
