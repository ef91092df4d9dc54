"""CuPy side of the GPU benchmark (tests/gpu/run.sh): the ops of
tests/gpu/bench_gpu.c timed the same way (CUDA events around `iters` runs
after two warm-up runs), printed as RESULT cupy <op> <dtype> <ms> <GB/s>
(GFLOP/s for the matmul rows), then the same FFTs (fft 2^24 complex64,
rfft 2^26 float32, fft2 4096^2 complex64) and matrix products."""
import sys

import cupy as cp

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000_000
iters = int(sys.argv[2]) if len(sys.argv) > 2 else 20
moved = {"copy": 2, "a+b": 3, "a*b+c": 4, "sin": 2, "sum": 1, "std": 1,
         "argmax": 1}

for dt in (cp.float32, cp.float64):
    a = cp.linspace(-3.0, 3.0, n, dtype=dt)
    b = a.copy()
    c = a.copy()
    d = cp.empty_like(a)
    ops = {
        "copy": lambda: cp.copyto(d, a),
        "a+b": lambda: a + b,
        "a*b+c": lambda: a * b + c,
        "sin": lambda: cp.sin(a),
        "sum": lambda: a.sum(),
        "std": lambda: a.std(),
        "argmax": lambda: a.argmax(),
    }
    for name, f in ops.items():
        f()
        f()
        cp.cuda.Device().synchronize()
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record()
        for _ in range(iters):
            f()
        e1.record()
        e1.synchronize()
        ms = cp.cuda.get_elapsed_time(e0, e1) / iters
        gbs = moved[name] * n * a.itemsize / (ms * 1e6)
        print(f"RESULT cupy {name} {cp.dtype(dt).name} {ms:.4f} {gbs:.1f}",
              flush=True)
    del a, b, c, d
    cp.get_default_memory_pool().free_all_blocks()

# FFTs as in bench_gpu.c: bytes = input + output.
ffts = [("fft_2^24", cp.complex64, (1 << 24,), cp.fft.fft, 16 << 24),
        ("rfft_2^26", cp.float32, (1 << 26,), cp.fft.rfft, 12 << 26),
        ("fft2_4096^2", cp.complex64, (4096, 4096), cp.fft.fft2,
         16 * 4096 * 4096)]
for name, dt, shape, f, nbytes in ffts:
    size = 1
    for e in shape:
        size *= e
    x = cp.linspace(-3.0, 3.0, size, dtype=cp.float32).reshape(shape).astype(dt)
    f(x)
    f(x)
    cp.cuda.Device().synchronize()
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    e0.record()
    for _ in range(iters):
        f(x)
    e1.record()
    e1.synchronize()
    ms = cp.cuda.get_elapsed_time(e0, e1) / iters
    print(f"RESULT cupy {name} {cp.dtype(dt).name} {ms:.4f} "
          f"{nbytes / (ms * 1e6):.1f}", flush=True)
    del x
    cp.get_default_memory_pool().free_all_blocks()
# matmul: a @ a for (batch, m, m) a, as bench_gpu.c's bench_matmul
for name, batch, m, it in (("mm4096", 1, 4096, 5), ("mm32x10000", 10000, 32, 20)):
    for dt in (cp.float32, cp.float64, cp.complex128):
        a = cp.linspace(-1.0, 1.0, batch * m * m).astype(dt).reshape(batch, m, m)
        cp.matmul(a, a)
        cp.cuda.Device().synchronize()
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record()
        for _ in range(it):
            cp.matmul(a, a)
        e1.record()
        e1.synchronize()
        ms = cp.cuda.get_elapsed_time(e0, e1) / it
        flops = 2.0 * m ** 3 * batch * (4 if dt == cp.complex128 else 1)
        print(f"RESULT cupy {name} {cp.dtype(dt).name} {ms:.4f} "
              f"{flops / (ms * 1e6):.1f}", flush=True)
        del a
        cp.get_default_memory_pool().free_all_blocks()
