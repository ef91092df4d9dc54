"""A short tour of cunumpy from Python: arrays, NumPy interop, the backend
API, and a timing against NumPy.

    PYTHONPATH=build/python python3 examples/tour.py
"""

import time

import numpy as np

import cunumpy as xp


def timed(fn, reps=5):
    fn()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    print(f"cunumpy {xp.__version__}, backend {xp.get_backend()}, "
          f"{xp.device_count()} CUDA device(s)")

    a = xp.linspace(0.0, np.pi, 1_000_001)
    s = xp.sin(a).sum() * (a[1] - a[0])
    print(f"integral of sin over [0, pi] ~ {float(s):.6f}")

    m = xp.arange(12).reshape(3, 4)
    print("m =\n", m, "\nm[:, ::-2] =\n", m[:, ::-2], "\nm[m % 3 == 0] =",
          m[m % 3 == 0])
    print("dtype objects are NumPy's:", m.dtype, m.dtype == np.int64,
          xp.float32 is np.float32)

    n = np.asarray(m)  # zero-copy view of the engine's memory
    n[0, 0] = 100
    print("written through NumPy:", int(m[0, 0]))
    back = xp.from_dlpack(np.arange(4.0))  # and zero-copy the other way
    print("from NumPy via DLPack:", back, back.flags.c_contiguous)

    with xp.use_backend("cuda"):
        g = xp.ones(3)
        print(f"inside use_backend('cuda'): {xp.get_backend()} "
              f"(array on {g.device})")
    if not xp.cuda_available():
        print("  CUDA unavailable:", xp.backend_unavailable_reason())

    rng = xp.get_rng(42)
    x = rng.standard_normal((1000, 100))
    q, r = xp.linalg.qr(x)
    print(f"QR of a 1000x100 normal matrix: |Q^T Q - I| = "
          f"{float(xp.abs(q.T @ q - xp.eye(100)).max()):.2e}")

    na = np.random.default_rng(0).standard_normal(10_000_000)
    ca = xp.asarray(na)
    for name, fc, fn in [("a * 2 + 1", lambda: ca * 2 + 1,
                          lambda: na * 2 + 1),
                         ("sin(a)", lambda: xp.sin(ca), lambda: np.sin(na)),
                         ("a.sum()", lambda: ca.sum(), lambda: na.sum())]:
        tc, tn = timed(fc), timed(fn)
        print(f"{name:>10}: cunumpy {tc * 1e3:7.2f} ms  numpy "
              f"{tn * 1e3:7.2f} ms  ratio {tc / tn:5.2f}")


if __name__ == "__main__":
    main()
