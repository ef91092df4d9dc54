#!/usr/bin/env python3
"""Sparse benchmark: cunumpy.sparse and scipy.sparse side by side in one
run, alternating (best of reps each); prints milliseconds and the ratio
scipy / cunumpy (above 1: cunumpy is faster). SpMV is also reported as
the bandwidth its bytes imply, and on the Laplacian held as DIA against
scipy's dia and our CSR, next to a STREAM-like copy measured in the
same run. Set OMP_NUM_THREADS (default 2) and OMP_WAIT_POLICY=passive.

usage: bench_sparse.py [grid] [spmm_grid] [reps]
  grid: side of the 2-D 5-point Laplacian (default 1000: 1e6 rows)
  spmm_grid: side of the Laplacian for SpMM with 64 columns (default 400)
"""
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "2")
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import numpy as np  # noqa: E402
import scipy.sparse as ss  # noqa: E402
import scipy.sparse.linalg as ssl  # noqa: E402

import cunumpy as cp  # noqa: E402
import cunumpy.sparse as sp  # noqa: E402
import cunumpy.sparse.linalg as spl  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_util import best  # noqa: E402


def laplacian2d(k):
    t = ss.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(k, k))
    i = ss.eye_array(k)
    return (ss.kron(t, i) + ss.kron(i, t)).tocsr()


def pair(name, f_cn, f_sp, reps, rows):
    """Alternates the two sides rep by rep; keeps each side's best."""
    tc = ts = 1e30
    for _ in range(reps):
        tc = min(tc, best(f_cn, 1))
        ts = min(ts, best(f_sp, 1))
    rows.append((name, tc, ts))
    return tc


def main():
    grid = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    spmm_grid = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    rows = []
    L = laplacian2d(grid)
    A = sp.csr_array(L)
    n = L.shape[0]
    x_np = np.random.default_rng(0).standard_normal(n)
    x = cp.asarray(x_np)

    # STREAM-like copy of as many bytes as SpMV moves
    spmv_bytes = L.nnz * (8 + L.indices.itemsize) + \
        (n + 1) * L.indptr.itemsize + 8 * n + 8 * n
    # (preallocated destinations, as STREAM's copy; the faster side's
    # time is the machine's bandwidth)
    src_np, dst_np = np.ones(spmv_bytes // 16), np.zeros(spmv_bytes // 16)
    src, dst = cp.asarray(src_np.copy()), cp.asarray(dst_np.copy())
    pair("copy into a preallocated array (STREAM-like)",
         lambda: cp.copyto(dst, src), lambda: np.copyto(dst_np, src_np), reps,
         rows)
    t_copy = min(rows[-1][1], rows[-1][2])
    copy_gbs = 2 * src_np.nbytes / (t_copy * 1e-3) / 1e9

    t_spmv = pair(f"SpMV Laplacian {grid}x{grid}", lambda: A @ x,
                  lambda: L @ x_np, reps, rows)
    spmv_gbs = spmv_bytes / (t_spmv * 1e-3) / 1e9

    # the same Laplacian held as DIA (5 diagonals): against scipy's dia @ x
    # and, alternating too, against our own CSR SpMV of the same matrix
    Ld = L.todia()
    D = sp.dia_array(Ld)
    t_dia = pair(f"SpMV DIA Laplacian {grid}x{grid}", lambda: D @ x,
                 lambda: Ld @ x_np, reps, rows)
    t_csr = 1e30
    for _ in range(reps):
        t_csr = min(t_csr, best(lambda: A @ x, 1))
        t_dia = min(t_dia, best(lambda: D @ x, 1))
    del Ld, D

    Lm = laplacian2d(spmm_grid)
    Am = sp.csr_array(Lm)
    X_np = np.random.default_rng(1).standard_normal((Lm.shape[0], 64))
    X = cp.asarray(X_np)
    pair(f"SpMM 64 cols, Laplacian {spmm_grid}x{spmm_grid}", lambda: Am @ X,
         lambda: Lm @ X_np, reps, rows)

    pair(f"SpGEMM A@A, Laplacian {grid}x{grid}", lambda: A @ A,
         lambda: L @ L, reps, rows)

    rnd = ss.random_array((2_000_000, 2_000_000), density=2.5e-6,
                          format="csr", rng=2)
    R = sp.csr_array(rnd)
    pair(f"csr->csc {rnd.nnz:.1e} nnz", lambda: R.tocsc(),
         lambda: rnd.tocsc(), reps, rows)
    del R, rnd

    b = cp.ones(n)
    b_np = np.ones(n)
    pair(f"cg 200 iterations, Laplacian {grid}x{grid}",
         lambda: spl.cg(A, b, rtol=0.0, atol=0.0, maxiter=200),
         lambda: ssl.cg(L, b_np, rtol=0.0, atol=0.0, maxiter=200),
         min(reps, 3), rows)

    S = laplacian2d(316).tocsc()
    Sc = sp.csc_array(S)
    bs_np = np.ones(S.shape[0])
    bs = cp.asarray(bs_np)
    pair(f"spsolve 2-D Laplacian {S.shape[0]} rows",
         lambda: spl.spsolve(Sc, bs),
         lambda: ssl.spsolve(S, bs_np, use_umfpack=False), min(reps, 3),
         rows)

    print(f"# OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}; shared, "
          "noisy machine: ratios are indicative")
    print(f"{'row':52s} {'cunumpy ms':>11s} {'scipy ms':>10s} "
          f"{'scipy/cunumpy':>14s}")
    for name, tc, ts in rows:
        print(f"{name:52s} {tc:11.3f} {ts:10.3f} {ts / tc:14.2f}")
    print(f"SpMV DIA {t_dia:.3f} ms vs our CSR {t_csr:.3f} ms: CSR / DIA = "
          f"{t_csr / t_dia:.2f}")
    print(f"SpMV bandwidth {spmv_gbs:.1f} GB/s = "
          f"{100 * spmv_gbs / copy_gbs:.0f}% of the copy's {copy_gbs:.1f} "
          "GB/s (read + write)")


if __name__ == "__main__":
    main()
