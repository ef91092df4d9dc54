"""Python-syntax JIT kernels on a GPU (run by tests/gpu/run.sh): the seed's
kernel, a block reduction with shared memory, syncthreads, shuffles and
atomics, an atomic histogram and a 2-D kernel over a strided view, each on
CUDA arrays compared with NumPy (and with the same kernel on the CPU
backend where it has no block-level primitive). Without CUDA a launch on
CUDA arrays must fail cleanly with DeviceError. Prints one line per failure
and a summary."""
import sys
import traceback

import numpy as np

import cunumpy as cp
from cunumpy import jit

failures = 0
cases = 0


def check(what, fn):
    global failures, cases
    cases += 1
    try:
        ok = fn()
    except Exception:
        failures += 1
        print(f"FAIL {what}: raised")
        traceback.print_exc(limit=3, file=sys.stdout)
        return
    if ok is False:
        failures += 1
        print(f"FAIL {what}")


@jit.rawkernel()
def my_kernel(x, y, size):
    tid = jit.grid(1)
    if tid < size:
        y[tid] = x[tid] * 2.0


if not cp.cuda_available():
    try:
        my_kernel[1, 32](cp.to_device(cp.arange(3.0)), cp.zeros(3), 3)
        print("FAIL: a CUDA launch without CUDA did not raise")
        sys.exit(1)
    except cp.DeviceError as e:
        print(f"CUDA unavailable, clean error: {e}")
        sys.exit(0)


def on_gpu(a):
    return cp.to_device(cp.asarray(a))


def seed():
    n = 1 << 20
    x_np = np.random.default_rng(0).random(n).astype(np.float32)
    x, y = on_gpu(x_np), on_gpu(np.zeros(n, np.float32))
    my_kernel[(n + 255) // 256, 256](x, y, n)
    g = cp.to_numpy(y)
    return cp.is_gpu(y) and np.array_equal(g, x_np * np.float32(2))


@jit.rawkernel()
def block_sum(x, out):
    smem = jit.shared_memory(np.float64, 256)
    tid = jit.threadIdx.x
    i = jit.blockIdx.x * jit.blockDim.x + tid
    smem[tid] = x[i] if i < x.size else 0.0
    jit.syncthreads()
    s = jit.blockDim.x // 2
    while s >= 32:
        if tid < s:
            smem[tid] += smem[tid + s]
        jit.syncthreads()
        s //= 2
    if tid < 32:
        v = smem[tid]
        off = 16
        while off > 0:
            v += jit.shfl_down_sync(0xffffffff, v, off)
            off //= 2
        if jit.laneid() == 0:
            jit.atomic_add(out, 0, v)


def reduction():
    x_np = np.random.default_rng(1).random(1000003)
    out = on_gpu(np.zeros(1))
    block_sum[(x_np.size + 255) // 256, 256](on_gpu(x_np), out)
    return np.allclose(cp.to_numpy(out)[0], x_np.sum(), rtol=1e-12)


@jit.rawkernel()
def histogram(x, bins, nbins):
    i = jit.grid(1)
    while i < x.size:
        b = min(int(x[i] * nbins), nbins - 1)
        jit.atomic_add(bins, b, 1)
        i += jit.gridsize(1)


def hist():
    x_np = np.random.default_rng(2).random(1 << 22)
    want = np.histogram(x_np, bins=64, range=(0, 1))[0]
    bins = on_gpu(np.zeros(64, np.int32))
    histogram[120, 256](on_gpu(x_np), bins, 64)
    cpu_bins = cp.zeros(64, dtype="int32")
    histogram[8, 64](cp.asarray(x_np), cpu_bins, 64)
    return (np.array_equal(cp.to_numpy(bins), want) and
            np.array_equal(cp.to_numpy(cpu_bins), want))


@jit.rawkernel()
def shifted_transpose(x, y):
    i, j = jit.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        y[j, i] = x[i, j] + 0.5 * (i - j)


def strided():
    base = np.random.default_rng(3).random((300, 400))
    view = base[::-2, 1::3]
    x = on_gpu(base)[::-2, 1::3]
    y = on_gpu(np.zeros(view.shape[::-1]))
    shifted_transpose[(10, 12), (32, 16)](x, y)
    ii, jj = np.meshgrid(np.arange(view.shape[0]), np.arange(view.shape[1]),
                         indexing="ij")
    return np.allclose(cp.to_numpy(y), (view + 0.5 * (ii - jj)).T,
                       rtol=1e-15)


check("seed kernel (float32, 2^20)", seed)
check("block reduction: shared memory, syncthreads, shuffles, atomics",
      reduction)
check("atomic histogram, GPU and CPU backends", hist)
check("2-D kernel over a negative-stride view", strided)

print(f"{cases - failures}/{cases} JIT kernel GPU checks passed")
sys.exit(1 if failures else 0)
