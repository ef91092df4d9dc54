"""Python-syntax JIT kernels (cunumpy.jit.rawkernel): translations compile
to PTX with NVRTC (no GPU needed), kernels without block-level primitives
run on the CPU backend and match NumPy, and unsupported constructs are
errors naming the construct and its line. tests/gpu/jit_gpu.py runs the
seed kernel on a GPU."""

import numpy as np
import pytest

import cunumpy as xp
from cunumpy import jit


def _nvrtc():
    try:
        xp.RawModule(code='extern "C" __global__ void k() {}').ptx(90)
    except xp.DeviceError as e:
        pytest.skip("no CUDA plugin: %s" % e)


def a(x, dtype=None):
    return xp.asarray(np.asarray(x, dtype=dtype))


# The seed's kernel.
@jit.rawkernel()
def my_kernel(x, y, size):
    tid = jit.grid(1)
    if tid < size:
        y[tid] = x[tid] * 2.0


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
def test_seed_kernel_on_the_cpu(dtype):
    n = 1000
    xs = (np.arange(n) % 100).astype(dtype)
    x, y = a(xs), xp.zeros(n, dtype=dtype)
    my_kernel[(n + 127) // 128, 128](x, y, n)
    # x[tid] * 2.0: a weak float keeps float32, turns integers to float64
    want = (xs * (np.float32(2) if dtype == "float32" else 2.0)).astype(
        dtype)
    np.testing.assert_array_equal(xp.asnumpy(y), want)
    # CuPy's call form, and a size smaller than the grid
    y2 = xp.zeros(n, dtype=dtype)
    my_kernel((8,), (128,), (x, y2, 10))
    want2 = np.zeros(n, dtype)
    want2[:10] = want[:10]
    np.testing.assert_array_equal(xp.asnumpy(y2), want2)


def test_seed_kernel_compiles_to_ptx():
    _nvrtc()
    x, y = xp.zeros(4, dtype="float32"), xp.zeros(4, dtype="float32")
    ptx = my_kernel.ptx(x, y, 4)
    assert ".entry jit_my_kernel(" in ptx and ".target sm_90" in ptx
    src = my_kernel.source(x, y, 4, backend="cuda")
    assert "float *v_x" in src and "long long v_size" in src


def test_specialised_per_signature_and_cached():
    @jit.rawkernel()
    def copy(x, y):
        i = jit.grid(1)
        if i < x.size:
            y[i] = x[i]
    for dt in ("float32", "int64"):
        x = a(np.arange(5), dt)
        y = xp.zeros(5, dtype=dt)
        copy[1, 8](x, y)
        np.testing.assert_array_equal(xp.asnumpy(y), np.arange(5))
    assert len(copy._cache) == 2
    copy[1, 8](x, y)
    assert len(copy._cache) == 2


def test_grid_stride_loop_and_2d_indexing():
    @jit.rawkernel()
    def saxpy(alpha, x, y, out):
        start = jit.grid(1)
        step = jit.gridsize(1)
        for i in range(start, x.size, step):
            out[i] = alpha * x[i] + y[i]

    n = 1037
    xs, ys = np.random.rand(n), np.random.rand(n)
    out = xp.zeros(n)
    saxpy[3, 32](2.5, a(xs), a(ys), out)
    np.testing.assert_allclose(xp.asnumpy(out), 2.5 * xs + ys, rtol=1e-15)

    @jit.rawkernel()
    def transpose(x, y):
        i, j = jit.grid(2)
        if i < x.shape[0] and j < x.shape[1]:
            y[j, i] = x[i, j] + 0.5 * (i - j)

    base = np.random.rand(9, 14)
    for view in (base, base[::2, ::3], base[::-1, 1::2]):
        y = xp.zeros(view.shape[::-1])
        xv = a(base)
        if view is not base:
            xv = xp.asarray(base)[::2, ::3] if view.strides[0] > 0 else \
                xp.asarray(base)[::-1, 1::2]
        transpose[(2, 4), (8, 4)](xv, y)
        ii, jj = np.meshgrid(np.arange(view.shape[0]),
                             np.arange(view.shape[1]), indexing="ij")
        np.testing.assert_allclose(xp.asnumpy(y),
                                   (view + 0.5 * (ii - jj)).T, rtol=1e-15)


def test_loops_conditions_and_type_inference():
    @jit.rawkernel()
    def rowsum(x, out, mode):
        r = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
        if r >= x.shape[0]:
            return
        s = 0  # becomes float64: it is also assigned float sums
        for j in range(x.shape[1]):
            s += x[r, j]
        k = 0
        while k < 3:
            k += 1
            if k == 2:
                continue
            s = s + 0.25
        if mode == 0:
            out[r] = s
        elif mode == 1:
            out[r] = -s if s > 1 else s * 2
        else:
            out[r] = 0.0

    xs = np.random.rand(37, 5)
    for mode in (0, 1, 2):
        out = xp.zeros(37)
        rowsum[2, 32](a(xs), out, mode)
        s = xs.sum(axis=1) + 0.5
        want = {0: s, 1: np.where(s > 1, -s, s * 2), 2: 0 * s}[mode]
        np.testing.assert_allclose(xp.asnumpy(out), want, rtol=1e-13)


def test_arithmetic_matches_numpy():
    @jit.rawkernel()
    def ops(x, y, out):
        i = jit.grid(1)
        if i < x.size:
            a_ = x[i]
            b = y[i]
            out[0, i] = a_ // b
            out[1, i] = a_ % b
            out[2, i] = a_ ** 2 - b
            out[3, i] = (a_ & 6) | (b ^ 3)
            out[4, i] = (a_ << 2) >> 1
            out[5, i] = min(a_, b) * max(a_, b) + abs(a_)
            out[6, i] = ~a_ if a_ > 0 and not b < 0 else -a_
            out[7, i] = 1 if 0 <= a_ < 5 else 0

    xs = np.array([7, -7, 7, -7, 0, 3, 12, -1], dtype=np.int64)
    ys = np.array([2, 2, -2, -2, 5, 3, 5, -4], dtype=np.int64)
    out = xp.zeros((8, 8), dtype="int64")
    ops[1, 8](a(xs), a(ys), out)
    # where C traps, NumPy's results: x // 0 and x % 0 are 0, MIN // -1
    # wraps (for unsigned too)
    for dt in ("int64", "uint32", "int8"):
        info = np.iinfo(dt)
        xz = np.array([5, info.min, info.max, 0], dtype=dt)
        yz = np.array([0, -1 if info.min else 1, 0, 0]).astype(dt)
        oz = xp.zeros((8, 4), dtype=dt)
        ops[1, 4](a(xz), a(yz), oz)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(xp.asnumpy(oz)[:2],
                                          [xz // yz, xz % yz])
    want = np.stack([xs // ys, xs % ys, xs ** 2 - ys, (xs & 6) | (ys ^ 3),
                     (xs << 2) >> 1,
                     np.minimum(xs, ys) * np.maximum(xs, ys) + abs(xs),
                     np.where((xs > 0) & ~(ys < 0), ~xs, -xs),
                     ((0 <= xs) & (xs < 5)).astype(np.int64)])
    np.testing.assert_array_equal(xp.asnumpy(out), want)

    @jit.rawkernel()
    def fops(x, y, out):
        i = jit.grid(1)
        if i < x.size:
            out[0, i] = x[i] // y[i]
            out[1, i] = x[i] % y[i]
            out[2, i] = x[i] / y[i]
            out[3, i] = x[i] ** y[i]

    xf = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0], dtype=np.float32)
    yf = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0], dtype=np.float32)
    out = xp.zeros((4, 6), dtype="float32")
    fops[1, 8](a(xf), a(yf), out)
    want = np.stack([xf // yf, xf % yf, xf / yf, xf ** yf])
    np.testing.assert_allclose(xp.asnumpy(out), want, rtol=1e-6)


def test_math_functions_and_constants():
    import math

    @jit.rawkernel()
    def f(x, out):
        i = jit.grid(1)
        if i < x.size:
            v = x[i]
            out[0, i] = math.sin(v) + math.cos(v) * math.exp(-v)
            out[1, i] = math.sqrt(v) + math.log1p(v) + math.atan2(v, 2.0)
            out[2, i] = math.floor(v * math.pi) + math.tanh(v)
            out[3, i] = 1.0 if math.isnan(v) or math.isinf(v) else 0.0
            out[4, i] = math.hypot(v, 1.0) + math.pow(v, 0.5) + \
                float(int(v * 10))

    xs = np.array([0.0, 0.5, 2.0, np.inf, np.nan, 1e-3])
    out = xp.zeros((5, xs.size))
    with np.errstate(all="ignore"):
        want = np.stack([
            np.sin(xs) + np.cos(xs) * np.exp(-xs),
            np.sqrt(xs) + np.log1p(xs) + np.arctan2(xs, 2.0),
            np.floor(xs * np.pi) + np.tanh(xs),
            (np.isnan(xs) | np.isinf(xs)).astype(float),
            np.hypot(xs, 1.0) + xs ** 0.5 + np.trunc(xs[:] * 10)])
    f[1, 8](a(xs), out)
    got = xp.asnumpy(out)
    fin = np.isfinite(xs)
    np.testing.assert_allclose(got[:, fin], want[:, fin], rtol=1e-14)
    np.testing.assert_array_equal(got[3], want[3])


def test_atomics_histogram_on_the_cpu():
    @jit.rawkernel()
    def histogram(x, bins, nbins):
        i = jit.grid(1)
        stride = jit.gridsize(1)
        while i < x.size:
            b = int(x[i] * nbins)
            if b >= nbins:
                b = nbins - 1
            jit.atomic_add(bins, b, 1)
            i += stride

    xs = np.random.rand(100003)
    for dt in ("int32", "int64", "uint32", "float64", "float32"):
        want = np.histogram(xs, bins=17, range=(0, 1))[0]
        # the larger launch is big enough for the runner's OpenMP threads
        for grid, block in ((64, 128), (1024, 256)):
            bins = xp.zeros(17, dtype=dt)
            histogram[grid, block](a(xs), bins, 17)
            np.testing.assert_array_equal(xp.asnumpy(bins), want.astype(dt))


def test_every_atomic_on_the_cpu():
    @jit.rawkernel()
    def every(x, acc, old):
        i = jit.grid(1)
        if i < x.size:
            v = x[i]
            jit.atomic_sub(acc, 0, v)
            jit.atomic_min(acc, 1, v)
            jit.atomic_max(acc, 2, v)
            jit.atomic_and(acc, 3, v)
            jit.atomic_or(acc, 4, v)
            jit.atomic_xor(acc, 5, v)
            if i == 3:
                old[0] = jit.atomic_exch(acc, 6, v)
                old[1] = jit.atomic_cas(acc, 7, 5, v)   # 5 matches: swaps
                old[2] = jit.atomic_cas(acc, 8, 0, v)   # 0 does not

    xs = np.random.randint(1, 1000, size=1000).astype(np.int32)
    acc = a([10**6, 10**6, 0, -1, 0, 0, 9, 5, 4], np.int32)
    old = xp.zeros(3, dtype="int32")
    every[8, 128](a(xs), acc, old)
    want = [10**6 - xs.sum(), xs.min(), xs.max(),
            np.bitwise_and.reduce(xs), np.bitwise_or.reduce(xs),
            np.bitwise_xor.reduce(xs), xs[3], xs[3], 4]
    np.testing.assert_array_equal(xp.asnumpy(acc), want)
    np.testing.assert_array_equal(xp.asnumpy(old), [9, 5, 4])


def test_globals_scalars_and_laneid_on_the_cpu():
    scale = 3

    @jit.rawkernel()
    def k(out, offset):
        i = jit.grid(1)
        if i < out.size:
            out[i] = jit.laneid() * scale + offset + OFFSET

    out = xp.zeros(70, dtype="int64")
    k[3, 24](out, np.int16(-2))
    np.testing.assert_array_equal(xp.asnumpy(out),
                                  (np.arange(70) % 24 % 32) * 3 - 2 + OFFSET)


OFFSET = 100


def test_source_string_for_exec_defined_functions():
    text = ("def twice(x, y):\n"
            "    i = jit.grid(1)\n"
            "    if i < x.size:\n"
            "        y[i] = x[i] * 2\n")
    ns = {"jit": jit}
    exec(text, ns)
    with pytest.raises(jit.JitError, match="source=|source holds"):
        jit.rawkernel()(ns["twice"])
    k = jit.rawkernel(source=text)(ns["twice"])
    y = xp.zeros(5, dtype="int32")
    k[1, 32](a(np.arange(5), np.int32), y)
    np.testing.assert_array_equal(xp.asnumpy(y), np.arange(5) * 2)


# ---- every primitive translates and compiles to PTX ----------------------

def test_every_primitive_compiles_to_ptx():
    _nvrtc()

    @jit.rawkernel()
    def prims(x, out, iout, lout, uout, dout, n):
        smem = jit.shared_memory(np.float32, 256)
        dyn = jit.shared_memory("int32", None)
        tid = jit.threadIdx.x
        i = jit.blockIdx.x * jit.blockDim.x + tid
        gx, gy, gz = jit.grid(3)
        sx, sy = jit.gridsize(2)
        smem[tid] = x[i] if i < n else 0.0
        dyn[tid] = jit.blockDim.y + jit.gridDim.z + jit.blockIdx.y + \
            jit.threadIdx.z + gz + sy
        jit.syncthreads()
        s = jit.blockDim.x // 2
        while s > 0:
            if tid < s:
                smem[tid] += smem[tid + s]
            jit.syncthreads()
            s //= 2
        v = smem[tid]
        v += jit.shfl_down_sync(0xffffffff, v, 16)
        v += jit.shfl_up_sync(0xffffffff, v, 1)
        v += jit.shfl_xor_sync(0xffffffff, v, 2, width=16)
        v += jit.shfl_sync(0xffffffff, v, 0)
        jit.syncwarp()
        jit.syncwarp(0xffff)
        lane = jit.laneid()
        jit.atomic_add(out, 0, v)
        jit.atomic_sub(out, 1, v)
        jit.atomic_exch(out, 2, v)
        jit.atomic_cas(out, 3, 0.0, v)
        iout[0] = jit.atomic_add(iout, 1, lane) + jit.atomic_sub(iout, 2, 1)
        jit.atomic_min(iout, 3, gx)
        jit.atomic_max(iout, 4, sx)
        jit.atomic_and(iout, 5, 3)
        jit.atomic_or(iout, 6, 3)
        jit.atomic_xor(iout, 7, 3)
        jit.atomic_exch(iout, 8, 3)
        jit.atomic_cas(iout, 9, 0, 3)
        for k in range(10):
            jit.atomic_add(lout, k, 1)
        jit.atomic_sub(lout, 0, 1)
        jit.atomic_min(lout, 1, -1)
        jit.atomic_max(lout, 2, 1)
        jit.atomic_and(lout, 3, 1)
        jit.atomic_or(lout, 4, 1)
        jit.atomic_xor(lout, 5, 1)
        jit.atomic_exch(lout, 6, 1)
        jit.atomic_cas(lout, 7, 0, 1)
        jit.atomic_min(uout, 0, tid)
        jit.atomic_max(uout, 1, tid)
        jit.atomic_add(uout, 2, tid)
        jit.atomic_cas(uout, 3, tid, tid)
        jit.atomic_add(dout, 0, 1.5)
        jit.atomic_exch(dout, 1, 1.5)
        jit.atomic_cas(dout, 2, 0.0, 1.5)
        dout[3] = jit.shfl_sync(0xffffffff, dout[3], 1)

    args = (xp.zeros(4, dtype="float32"), xp.zeros(4, dtype="float32"),
            xp.zeros(10, dtype="int32"), xp.zeros(10, dtype="int64"),
            xp.zeros(4, dtype="uint32"), xp.zeros(4), 4)
    src = prims.source(*args, backend="cuda")
    for needle in ("__syncthreads()", "__syncwarp(", "__shared__ float",
                   "extern __shared__", "__shfl_down_sync", "__shfl_up_sync",
                   "__shfl_xor_sync", "__shfl_sync", "atomicAdd", "atomicSub",
                   "atomicMin", "atomicMax", "atomicAnd", "atomicOr",
                   "atomicXor", "atomicExch", "atomicCAS", "_jit_laneid()"):
        assert needle in src, needle
    ptx = prims.ptx(*args)
    assert ".entry jit_prims(" in ptx
    for needle in ("bar.sync", "shfl.sync.down", "shfl.sync.up",
                   "shfl.sync.bfly", "shfl.sync.idx", "%laneid", "atom."):
        assert needle in ptx, needle


def test_cpu_translations_compile_and_block_level_is_refused():
    @jit.rawkernel()
    def uses_sync(x):
        i = jit.grid(1)
        x[i] = 1
        jit.syncthreads()

    with pytest.raises(jit.JitError, match=r"line \d+.*syncthreads.*CUDA"):
        uses_sync[1, 1](xp.zeros(1))
    for prim in ("shared_memory(np.float32, 4)", "shfl_sync(1, 1.0, 0)"):
        ns = {"jit": jit, "np": np}
        text = "def k(x):\n    s = jit.%s\n" % prim
        exec(text, ns)
        k = jit.rawkernel(source=text)(ns["k"])
        with pytest.raises(jit.JitError, match="line 2.*needs CUDA"):
            k[1, 1](xp.zeros(1))


# ---- errors ---------------------------------------------------------------

def _kernel_of(text):
    ns = {"jit": jit, "np": np}
    exec(text, ns)
    return jit.rawkernel(source=text)(ns["k"])


@pytest.mark.parametrize("body,match", [
    ("    y = [v for v in x]\n", r"line 2\): unsupported expression: list "
     "comprehension"),
    ("    with open('f'):\n        pass\n",
     r"line 2\): unsupported statement: with"),
    ("    for v in x:\n        pass\n", r"line 2\): unsupported construct: a "
     "for loop"),
    ("    return 1\n", r"line 2\): a kernel returns no value"),
    ("    x[0] = foo(1)\n", r"line 2\): unknown name|unsupported function "
     "'foo'"),
    ("    x[0] = unknown_name\n", r"line 2\): unknown name 'unknown_name'"),
    ("    x[0, 1] = 1\n", r"line 2\): 'x' has 1 dimensions and takes 1"),
    ("    x[1:2] = 1\n", r"line 2\): unsupported construct: slicing"),
    ("    x[0.5] = 1\n", r"line 2\): array indices must be integers"),
    ("    x = 1\n", r"line 2\): cannot assign to 'x'"),
    ("    jit.atomic_min(x, 0, 1.0)\n",
     r"line 2\): atomic_min takes arrays of int32"),
    ("    v = jit.grid(4)\n", r"line 2\): grid\(\) takes ndim 1, 2 or 3"),
    ("    x[0] = 1.5 << 2\n", r"line 2\): << takes integers"),
    ("    x[0] = 'text'\n", r"line 2\): unsupported constant 'text'"),
    ("    while x[0] > 0:\n        pass\n    else:\n        pass\n",
     r"line 2\): unsupported construct: while ... else"),
    ("    v = x.foo\n", r"line 2\): unsupported attribute 'foo'"),
    ("    v = jit.threadIdx.w\n", r"line 2\): threadIdx has x, y and z"),
])
def test_unsupported_constructs_name_the_line(body, match):
    k = _kernel_of("def k(x):\n" + body)
    with pytest.raises(jit.JitError, match=match):
        k[1, 1](xp.zeros(2))


def test_argument_errors():
    x = xp.zeros(4)
    with pytest.raises(TypeError, match="NumPy array"):
        my_kernel[1, 4](np.zeros(4), x, 4)
    with pytest.raises(TypeError, match="takes 3 arguments, not 2"):
        my_kernel[1, 4](x, x)
    with pytest.raises(TypeError, match="unsupported argument 2"):
        my_kernel[1, 4](x, x, "4")
    with pytest.raises(TypeError, match="dtype complex128"):
        my_kernel[1, 4](xp.zeros(4, dtype="complex128"), x, 4)
    with pytest.raises(ValueError, match="argument 0 is a read-only"):
        my_kernel[1, 4](xp.broadcast_to(xp.zeros(1), (4,)), x, 4)
    with pytest.raises(ValueError, match="positive"):
        my_kernel[0, 4](x, x, 4)
    with pytest.raises(ValueError, match="1 to 3"):
        my_kernel[(1, 1, 1, 1), 4](x, x, 4)
    with pytest.raises(ValueError, match="launch as"):
        my_kernel[1](x, x, 4)
    with pytest.raises(RuntimeError, match="inside a @jit.rawkernel"):
        jit.grid(1)
    with pytest.raises(RuntimeError, match="inside a @jit.rawkernel"):
        jit.threadIdx.x
    with pytest.raises(NotImplementedError):
        jit.rawkernel(device=True)
    with pytest.raises(jit.JitError, match="plain positional"):
        @jit.rawkernel()
        def bad(x, *rest):
            pass


def test_thread_and_block_indices_on_the_cpu():
    @jit.rawkernel()
    def ids(out):
        i = jit.grid(1)
        if i < out.size:
            out[i] = jit.blockIdx.x * 1000 + jit.threadIdx.x

    @jit.rawkernel()
    def ids3(out):
        x, y, z = jit.grid(3)
        if x < out.shape[2] and y < out.shape[1] and z < out.shape[0]:
            out[z, y, x] = ((jit.blockIdx.z * 10 + jit.blockIdx.y) * 10 +
                            jit.blockIdx.x) * 1000 + \
                (jit.threadIdx.z * 10 + jit.threadIdx.y) * 10 + \
                jit.threadIdx.x

    n = 100003  # above the runner's threshold for OpenMP threads
    i = np.arange(n)
    for block in (7, 13, 7, 256):  # the same kernel, new geometry each time
        out = xp.zeros(n, dtype="int64")
        ids[-(-n // block), block](out)
        np.testing.assert_array_equal(xp.asnumpy(out),
                                      i // block * 1000 + i % block)
    out = xp.zeros((5, 6, 7), dtype="int64")
    ids3[(2, 3, 2), (4, 2, 3)](out)
    z, y, x = np.meshgrid(np.arange(5), np.arange(6), np.arange(7),
                          indexing="ij")
    want = (((z // 3) * 10 + y // 2) * 10 + x // 4) * 1000 + \
        ((z % 3) * 10 + y % 2) * 10 + x % 4
    np.testing.assert_array_equal(xp.asnumpy(out), want)


def test_cuda_launch_packs_arguments_in_the_signature_order():
    """The CUDA launch path (run on a GPU by tests/gpu/jit_gpu.py) packs
    each array as its pointer, its shape and its element strides: checked
    here against the translated source's parsed signature, with the
    module replaced by a recorder."""
    base = xp.zeros((6, 8), dtype="float32")
    x = base[::-2, 1::3]
    args = (x, np.float32(1.5), 7, True)

    @jit.rawkernel()
    def k(x, s, n, flag):
        i, j = jit.grid(2)
        if flag and i < x.shape[0] and j < x.shape[1]:
            x[i, j] = s * n

    calls = []

    class Fn:
        def __call__(self, grid, block, packed, shared_mem=0, stream=None):
            calls.append((grid, block, packed, shared_mem))

    class Module:
        def get_function(self, name):
            assert name == "jit_k"
            return Fn()

    sig = k._signature(args)
    c = k._translate(sig, "cuda")
    c._module = Module()
    k._launch_cuda(c, (2, 1, 1), (4, 4, 1), args, 16, None)
    (grid, block, packed, shm), = calls
    assert (grid, block, shm) == ((2, 1, 1), (4, 4, 1), 16)
    params = xp.CudaKernel(c.source, "jit_k").parameters
    assert [t for _, t in params] == [
        "float*", "long long", "long long", "long long", "long long",
        "float", "long long", "bool"]
    assert packed[0] is x
    ints = [int(np.frombuffer(p, np.int64)[0]) for p in packed[1:5]]
    assert ints == [3, 3, -16, 3]  # shape, then strides in elements
    assert packed[5] == np.float32(1.5).tobytes()
    assert packed[6] == np.int64(7).tobytes()
    assert packed[7] == np.bool_(True).tobytes()


def test_errors_name_the_file_and_line():
    import inspect

    @jit.rawkernel()
    def k(x):
        x[0] = [1][0]

    line = inspect.getsourcelines(k.__wrapped__)[1] + 2  # decorator, def
    with pytest.raises(jit.JitError, match=r"jit kernel 'k' \(.*test_jit\.py"
                       r", line %d\): unsupported expression: list" % line):
        k[1, 1](xp.zeros(1))
