"""The seeds' raw-kernel snippets on a GPU (run by tests/gpu/run.sh): the
CuPy guide's RawKernel vector_add and RawModule, the CuNumpy guide's Kernel
pair, CudaStruct scale and PyccelKernel, each as written with
`import cunumpy as cp` and checked against NumPy; plus 2-D launches,
dynamic shared memory, streams, C++ templates and the argument checks.
Prints one line per failure and a summary; exits 1 on any failure."""
import sys
import traceback

import numpy as np

import cunumpy as cp

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
        traceback.print_exc(limit=4, file=sys.stdout)
        return
    if ok is False:
        failures += 1
        print(f"FAIL {what}")


def seed_vector_add():
    kernel_code = r'''
extern "C" __global__
void vector_add(const float* a, const float* b, float* c, int n) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) {
        c[tid] = a[tid] + b[tid];
    }
}
'''
    with cp.use_backend("cupy"):
        vector_add = cp.RawKernel(kernel_code, 'vector_add')
        n = 1_000_000
        a = cp.random.rand(n, dtype=cp.float32)
        b = cp.random.rand(n, dtype=cp.float32)
        c = cp.zeros(n, dtype=cp.float32)
        threads = 256
        blocks = (n + threads - 1) // threads
        vector_add((blocks,), (threads,), (a, b, c, np.int32(n)))
        cp.synchronize()
    want = cp.to_numpy(a) + cp.to_numpy(b)
    assert vector_add.max_threads_per_block >= 256
    assert "num_regs" in vector_add.attributes
    return np.array_equal(cp.to_numpy(c), want)


def seed_raw_module(tmp="/tmp/cn_kernel_snippets.cu"):
    cuda_source = r'''
extern "C" __global__ void my_kernel(double* x, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] = 2 * x[i] + 1;
}
template <typename T> __global__ void tfill(T* x, T v, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] = v;
}
'''
    from pathlib import Path
    Path(tmp).write_text(cuda_source)
    with cp.use_backend("cupy"):
        module = cp.RawModule(code=cuda_source)       # From source string
        module = cp.RawModule(code=Path(tmp).read_text())  # CUDA source file
        x = cp.arange(100, dtype=cp.float64)
        blocks, threads = 1, 128
        args = (x, np.int32(100))
        kernel = module.get_function('my_kernel')
        kernel((blocks,), (threads,), args)  # args is the kernel argument tuple
        ok = np.array_equal(cp.to_numpy(x), 2 * np.arange(100.0) + 1)
        # from a precompiled PTX file
        ptx = module.ptx(90)
        Path(tmp + ".ptx").write_text(ptx)
        m2 = cp.RawModule(path=tmp + ".ptx")
        y = cp.zeros(10)
        m2.get_function("my_kernel")((1,), (32,), (y, np.int32(10)))
        ok = ok and np.array_equal(cp.to_numpy(y), np.ones(10))
        # name expressions
        mt = cp.RawModule(code=cuda_source,
                          name_expressions=["tfill<float>", "tfill<int>"])
        z = cp.zeros(16, dtype=cp.float32)
        mt.get_function("tfill<float>")((1,), (16,), (z, np.float32(2.5),
                                                       np.int32(16)))
        zi = cp.zeros(16, dtype=cp.int32)
        mt.get_function("tfill<int>")((1,), (16,), (zi, np.int32(-3),
                                                     np.int32(16)))
        cp.synchronize()
    return ok and np.all(cp.to_numpy(z) == 2.5) and np.all(
        cp.to_numpy(zi) == -3)


def seed_kernel_pair():
    AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""

    def axpy(a, x, y, n):  # host version, e.g. compiled with Pyccel
        for i in range(n):
            y[i] += a * x[i]

    kernel = cp.Kernel(axpy, cp.CudaKernel(AXPY, "axpy"))

    with cp.use_backend("cupy"):
        x = cp.arange(1000, dtype=cp.float64)
        y = cp.zeros(1000)
        kernel(2.0, x, y, 1000, n_threads=1000)  # runs the CUDA kernel
        cp.synchronize()
    assert cp.is_gpu(y)
    ok = np.array_equal(cp.to_numpy(y), 2.0 * np.arange(1000))
    # the checks before the launch
    try:
        kernel(2.0, x, y, 3_000_000_000, n_threads=1000)
        return False
    except ValueError as e:
        ok = ok and "does not fit int" in str(e)
    # missing CUDA kernel: raise, or fall back with host copies
    with cp.use_backend("cupy"):
        try:
            cp.Kernel(axpy)(2.0, x, y, 1000)
            return False
        except NotImplementedError:
            pass
        fb = cp.Kernel(axpy, missing_cuda="fallback",
                       host_options={"outputs": (2,)})
        fb(1.0, x, y, 1000)
    return ok and np.array_equal(cp.to_numpy(y), 3.0 * np.arange(1000))


def seed_struct():
    with cp.use_backend("cupy"):
        y = cp.ones(1000)
        Vec = cp.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
        scale = cp.CudaKernel(
            Vec.declaration
            + r"""
    extern "C" __global__ void scale(Vec v, double a) {
        int i = blockDim.x * blockIdx.x + threadIdx.x;
        if (i < v.n) v.data[i] *= a;
    }""",
            "scale",
            structs=[Vec],
        )
        scale(Vec(data=y, n=y.size), 0.5, n_threads=y.size)
        cp.synchronize()
    return np.all(cp.to_numpy(y) == 0.5)


def seed_pyccel():
    def scale_in_place(values, factor):
        values[:] *= factor
        return values

    scale = cp.PyccelKernel(scale_in_place, outputs=(0,))

    with cp.use_backend("cupy"):
        values = cp.arange(5, dtype=cp.float64)
        returned = scale(values, 3.0)
        cp.synchronize()
    assert cp.is_gpu(values) and cp.is_gpu(returned)
    # aliasing: one GPU array twice is one host array
    def both(a, b):
        assert a is b
        a += 1
    with cp.use_backend("cupy"):
        w = cp.zeros(3)
        cp.PyccelKernel(both)(w, w)
    return (np.array_equal(cp.to_numpy(values), [0, 3, 6, 9, 12]) and
            np.array_equal(cp.to_numpy(w), [1, 1, 1]))


def launches_2d_shared_stream():
    src = r'''
extern "C" __global__ void add2d(const float* a, float* out, int nx, int ny) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) out[y * nx + x] = a[y * nx + x] + x + 10 * y;
}
extern "C" __global__ void block_sum(const double* x, double* out, int n) {
    extern __shared__ double s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
'''
    with cp.use_backend("cupy"):
        nx, ny = 37, 21
        a = cp.asarray(np.arange(nx * ny, dtype=np.float32))
        out = cp.zeros(nx * ny, dtype=cp.float32)
        k = cp.CudaKernel(src, "add2d")
        k(a, out, nx, ny, n_threads=(nx, ny), block_size=(16, 16))
        yy, xx = np.mgrid[0:ny, 0:nx]
        want = np.arange(nx * ny, dtype=np.float32) + (xx + 10 * yy).ravel()
        ok = np.array_equal(cp.to_numpy(out), want)
        x = cp.asarray(np.arange(1000, dtype=np.float64))
        sums = cp.zeros(4)
        bs = cp.CudaKernel(src, "block_sum")
        with cp.stream() as s:
            bs(x, sums, 1000, grid=(4,), block=(256,), shared_mem=256 * 8,
               stream=s)
        cp.synchronize()
        h = np.arange(1000.0)
        want = [h[i * 256:(i + 1) * 256].sum() for i in range(4)]
    return ok and np.allclose(cp.to_numpy(sums), want)


def raw_kernel_cpu_array_refused():
    k = cp.RawKernel('extern "C" __global__ void k(float* x) {}', "k")
    with cp.use_backend("cpu"):
        x = cp.zeros(3, dtype=cp.float32)
    try:
        k((1,), (1,), (x,))
        return False
    except cp.DeviceError as e:
        return "on the CPU" in str(e)


check("RawKernel vector_add (seed)", seed_vector_add)
check("RawModule, PTX file, name expressions (seed)", seed_raw_module)
check("Kernel pair axpy (seed)", seed_kernel_pair)
check("CudaStruct scale (seed)", seed_struct)
check("PyccelKernel scale_in_place (seed)", seed_pyccel)
check("2-D launch, shared memory, stream", launches_2d_shared_stream)
check("raw kernel refuses CPU arrays", raw_kernel_cpu_array_refused)
print(f"kernel snippets: {cases - failures}/{cases} passed")
sys.exit(1 if failures else 0)
