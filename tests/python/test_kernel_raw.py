"""Raw CUDA kernels without a GPU: NVRTC compiles them to PTX, CudaKernel
checks arguments against the parsed signature, CudaStruct layouts match a C
compiler's, and the host side of Kernel, KernelCatalog and PyccelKernel
runs on the CPU backend. Launching needs a GPU (tests/gpu/
test_kernel_snippets.py); here it must raise DeviceError cleanly."""

import os
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest

import cunumpy as xp

HAS_CUDA = xp.cuda_available()

VECTOR_ADD = r'''
extern "C" __global__
void vector_add(const float* a, const float* b, float* c, int n) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) {
        c[tid] = a[tid] + b[tid];
    }
}
'''

AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""

STENCIL = r'''
extern "C" __global__
void stencil_1d(const double* x, double* y, long long n) {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i < n) {
        double l = x[i > 0 ? i - 1 : 0], r = x[i < n - 1 ? i + 1 : n - 1];
        y[i] = (l + x[i] + r) / 3;
    }
}
'''

TEMPLATES = r'''
template <typename T>
__global__ void fill(T* x, T v, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] = v;
}
extern "C" __global__ void plain(int* x) { x[0] = 1; }
'''


def _nvrtc():
    """Skips when the CUDA plugin (and so NVRTC) was not built."""
    try:
        xp.RawModule(code=VECTOR_ADD).ptx(90)
    except xp.DeviceError as e:
        pytest.skip("no CUDA plugin: %s" % e)


# ---- NVRTC ------------------------------------------------------------------

def test_raw_kernels_compile_to_ptx():
    _nvrtc()
    for code, name in ((VECTOR_ADD, "vector_add"), (AXPY, "axpy"),
                       (STENCIL, "stencil_1d")):
        k = xp.RawKernel(code, name)
        ptx = k.ptx(90)
        assert ".entry %s(" % name in ptx
        assert ".target sm_90" in ptx
        assert k.name == name and k.code == code and k.backend == "nvrtc"
    # options reach NVRTC: a macro the source needs
    src = 'extern "C" __global__ void k(float* x) { x[0] = VALUE; }'
    assert ".entry k(" in xp.RawKernel(src, "k", options=("-DVALUE=2",)).ptx()
    with pytest.raises(xp.CompileException, match="VALUE"):
        xp.RawKernel(src, "k").ptx()


def test_raw_module_name_expressions():
    _nvrtc()
    mod = xp.RawModule(code=TEMPLATES,
                       name_expressions=("fill<float>", "fill<double>"))
    ptx = mod.ptx(90)
    lf = mod.lowered_name("fill<float>", arch=90)
    ld = mod.lowered_name("fill<double>", arch=90)
    assert lf.startswith("_Z") and lf != ld
    assert ".entry %s(" % lf in ptx and ".entry %s(" % ld in ptx
    assert ".entry plain(" in ptx
    with pytest.raises(ValueError, match="not a name expression"):
        mod.lowered_name("fill<int>", arch=90)


def test_compile_errors_carry_the_log():
    _nvrtc()
    src = 'extern "C" __global__ void k(float* x) {\n  x[0] = nope;\n}\n'
    with pytest.raises(xp.CompileException) as e:
        xp.RawKernel(src, "k").ptx(90)
    assert "kernel.cu(2)" in str(e.value) and "nope" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_raw_module_from_a_ptx_file(tmp_path):
    _nvrtc()
    ptx = xp.RawModule(code=VECTOR_ADD).ptx(90)
    p = tmp_path / "kernels.ptx"
    p.write_text(ptx)
    mod = xp.RawModule(path=str(p))
    assert mod.ptx() == ptx
    assert mod.file_path == str(p)
    with pytest.raises(ValueError, match="cannot open"):
        xp.RawModule(path=str(tmp_path / "missing.cubin")).ptx()


def test_rand_takes_dtype_as_cupy():
    r = xp.random.rand(1000, dtype=xp.float32)
    assert r.dtype == np.float32 and r.shape == (1000,)
    h = xp.to_numpy(r)
    assert h.min() >= 0 and h.max() < 1 and h.std() > 0.2
    assert xp.random.randn(3, 2, dtype=xp.float32).dtype == np.float32
    assert xp.random.rand(2, 2).dtype == np.float64


def test_raw_module_arguments():
    with pytest.raises(TypeError, match="Exactly one of code and path"):
        xp.RawModule()
    with pytest.raises(TypeError, match="Exactly one of code and path"):
        xp.RawModule(code=VECTOR_ADD, path="x.cubin")
    with pytest.raises(NotImplementedError, match="NVRTC only"):
        xp.RawModule(code=VECTOR_ADD, backend="nvcc")
    with pytest.raises(ValueError, match="backend"):
        xp.RawModule(code=VECTOR_ADD, backend="clang")
    with pytest.raises(NotImplementedError, match="jitify"):
        xp.RawKernel(VECTOR_ADD, "vector_add", jitify=True)
    with pytest.raises(NotImplementedError, match="translate_cucomplex"):
        xp.RawModule(code=VECTOR_ADD, translate_cucomplex=True)
    k = xp.RawKernel(VECTOR_ADD, "vector_add", ("-DX=1",),
                     enable_cooperative_groups=True)
    assert k.options == ("-DX=1",) and k.enable_cooperative_groups


@pytest.mark.skipif(HAS_CUDA, reason="checks the behaviour without a GPU")
def test_raw_kernel_on_cpu_arrays_raises_device_error():
    # the seed's snippet, up to the launch
    vector_add = xp.RawKernel(VECTOR_ADD, "vector_add")
    n = 1000
    a = xp.random.rand(n, dtype=xp.float32)
    b = xp.random.rand(n, dtype=xp.float32)
    c = xp.zeros(n, dtype=xp.float32)
    threads = 256
    blocks = (n + threads - 1) // threads
    with pytest.raises(xp.DeviceError,
                       match="argument 0 is an array on the CPU"):
        vector_add((blocks,), (threads,), (a, b, c, np.int32(n)))
    # with no array arguments, the launch itself needs a device
    with pytest.raises(xp.DeviceError, match="CUDA is unavailable"):
        vector_add((1,), (1,), (np.int32(0),))
    with pytest.raises(xp.DeviceError, match="CUDA is unavailable"):
        vector_add.num_regs
    with pytest.raises(TypeError, match="NumPy array"):
        vector_add((1,), (1,), (np.zeros(3),))
    with pytest.raises(ValueError, match="1 to 3 entries"):
        vector_add((1, 1, 1, 1), (1,), ())


# ---- CudaKernel: signatures and argument checks ------------------------------

def test_cuda_kernel_signature_and_checks():
    k = xp.CudaKernel(AXPY, "axpy")
    assert k.signature == (("a", "double"), ("x", "const double*"),
                           ("y", "double*"), ("n", "int"))
    x = xp.arange(10, dtype=xp.float64)
    y = xp.zeros(10)
    packed = k.check_args(2.0, x, y, 10)
    assert packed[0] == np.float64(2.0).tobytes()
    assert packed[1] is x and packed[2] is y
    assert packed[3] == np.int32(10).tobytes()
    # numpy scalars are cast to the declared type too
    assert k.check_args(np.float32(0.5), x, y, np.int64(3))[3] == \
        np.int32(3).tobytes()
    with pytest.raises(ValueError, match="kernel 'axpy' takes 4 arguments, "
                                         "got 3"):
        k.check_args(2.0, x, y)
    with pytest.raises(TypeError, match=r"argument 1 \('x': const double\*\) "
                                        "needs a float64 array, got a float32"):
        k.check_args(2.0, x.astype(xp.float32), y, 10)
    with pytest.raises(ValueError, match=r"argument 3 \('n': int\): "
                                         "3000000000 does not fit int"):
        k.check_args(2.0, x, y, 3_000_000_000)
    with pytest.raises(ValueError, match="2.5 is not an integer"):
        k.check_args(2.0, x, y, 2.5)
    with pytest.raises(TypeError, match=r"argument 2 \('y': double\*\) is a "
                                        "pointer"):
        k.check_args(2.0, x, 1.0, 10)
    with pytest.raises(TypeError, match="is not a pointer"):
        k.check_args(x, x, y, 10)
    with pytest.raises(TypeError, match="never copies"):
        k.check_args(2.0, np.arange(10.0), y, 10)


def test_cuda_kernel_rejects_cpu_arrays():
    k = xp.CudaKernel(AXPY, "axpy")
    with xp.use_backend("cpu"):
        x = xp.arange(10, dtype=xp.float64)
        y = xp.zeros(10)
    with pytest.raises(xp.DeviceError,
                       match=r"CudaKernel 'axpy': argument 1 \('x'\) is an "
                             "array on the CPU; CudaKernel never copies"):
        k(2.0, x, y, 10, n_threads=10)
    # a wrong dtype is reported before the device
    with pytest.raises(TypeError, match="needs a float64 array"):
        k(2.0, x.astype(xp.int32), y, 10, n_threads=10)


def test_cuda_kernel_launch_geometry():
    k = xp.CudaKernel(AXPY, "axpy")
    assert k.launch_geometry(1000) == ((4,), (256,))
    assert k.launch_geometry(1000, 128) == ((8,), (128,))
    assert k.launch_geometry((100, 33)) == ((7, 3), (16, 16))
    assert k.launch_geometry((10, 10, 10)) == ((2, 2, 3), (8, 8, 4))
    assert k.launch_geometry((0,)) == ((0,), (256,))
    assert k.launch_geometry(grid=(3, 2), block=(32, 4)) == ((3, 2), (32, 4))
    with pytest.raises(ValueError, match="does not match"):
        k.launch_geometry((10, 10), (16,))
    with pytest.raises(TypeError, match="needs n_threads"):
        k.launch_geometry()
    with pytest.raises(TypeError, match="not both"):
        k.launch_geometry(10, grid=(1,), block=(1,))
    with pytest.raises(TypeError, match="needs block"):
        k.launch_geometry(grid=(1,))


def test_cuda_kernel_templates_and_structs():
    _nvrtc()
    k = xp.CudaKernel(TEMPLATES, "fill", template_args=(xp.float32,))
    assert k.signature[0] == ("x", "float*")
    assert k.signature[1] == ("v", "float")
    x32 = xp.zeros(4, dtype=xp.float32)
    assert k.check_args(x32, 1.5, 4)[1] == np.float32(1.5).tobytes()
    with pytest.raises(ValueError, match="does not fit float"):
        k.check_args(x32, 1e39, 4)
    assert ".entry _Z" in k.ptx(90)
    kd = xp.CudaKernel(TEMPLATES, "fill", template_args="double")
    assert kd.signature[0] == ("x", "double*")
    with pytest.raises(ValueError, match="is a template of 1 parameters"):
        xp.CudaKernel(TEMPLATES, "fill")
    with pytest.raises(ValueError, match="no __global__ function called"):
        xp.CudaKernel(AXPY, "axpy2")
    # the seed's struct example
    Vec = xp.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    src = Vec.declaration + r"""
    extern "C" __global__ void scale(Vec v, double a) {
        int i = blockDim.x * blockIdx.x + threadIdx.x;
        if (i < v.n) v.data[i] *= a;
    }"""
    scale = xp.CudaKernel(src, "scale", structs=[Vec])
    assert ".entry scale(" in scale.ptx(90)
    y = xp.zeros(8)
    v = Vec(data=y, n=y.size)
    packed = v.pack()
    assert len(packed) == 16
    assert int.from_bytes(packed[:8], "little") == xp._cnlib.cn_array_data(y)
    assert packed[8:12] == np.int32(8).tobytes()
    assert scale.check_args(v, 0.5)[0] is v
    with pytest.raises(ValueError, match="field 'n' .*does not fit"):
        scale.check_args(Vec(data=y, n=2**40), 0.5)
    with pytest.raises(TypeError, match="needs a float64 array"):
        Vec(data=y.astype(xp.float32), n=8).pack()
    Other = xp.CudaStruct("Other", [("n", "int")])
    with pytest.raises(TypeError, match="does not take a struct Other"):
        scale.check_args(Other(n=1), 0.5)
    with pytest.raises(TypeError, match="pass its CudaStruct in structs="):
        xp.CudaKernel(src, "scale")
    if not HAS_CUDA:
        with pytest.raises(xp.DeviceError, match="field 'data' of struct Vec"):
            scale(v, 0.5, n_threads=y.size)


class _Pair(xp.CudaArguments):
    def __init__(self, data):
        self.data = data

    def __cuda_args__(self):
        return (self.data, self.data.size)


def test_cuda_arguments_are_flattened():
    k = xp.CudaKernel(AXPY, "axpy")
    x = xp.arange(5, dtype=xp.float64)
    y = xp.zeros(5)
    # (a, x) as one group; (y, n) from a subclass
    packed = k.check_args(xp.CudaArguments(2.0, x), _Pair(y))
    assert packed[1] is x and packed[2] is y
    assert packed[3] == np.int32(5).tobytes()
    # nested groups flatten recursively
    packed = k.check_args(xp.CudaArguments(xp.CudaArguments(2.0), x), y, 5)
    assert len(packed) == 4


def test_cuda_kernel_variants():
    made = []

    def source(ndim, dtype):
        made.append((ndim, dtype))
        t = {"float32": "float", "float64": "double"}[dtype]
        return ('extern "C" __global__ void fill_%dd(%s* x, %s v) {}'
                % (ndim, t, t), "fill_%dd" % ndim)

    v = xp.CudaKernelVariants(source)
    k1 = v[1, "float32"]
    assert v[1, "float32"] is k1 and v.get(1, "float32") is k1
    assert k1.signature == (("x", "float*"), ("v", "float"))
    v[2, "float64"]
    assert made == [(1, "float32"), (2, "float64")]
    assert len(v) == 2 and (2, "float64") in v
    named = xp.CudaKernelVariants(
        lambda t: 'extern "C" __global__ void k(%s* x) {}' % t, name="k")
    assert named["int"].signature == (("x", "int*"),)
    try:
        v.compile_all(arch=90)
    except xp.DeviceError:
        pass  # no plugin: compiling is all that was skipped
    with pytest.raises(TypeError, match="callable"):
        xp.CudaKernelVariants("not callable")


# ---- CudaStruct layouts against a C compiler -----------------------------------

_C_TYPES = ["char", "signed char", "unsigned char", "short", "unsigned short",
            "int", "unsigned int", "long long", "unsigned long long", "float",
            "double", "bool", "int8_t", "uint16_t", "int32_t", "uint64_t",
            "size_t", "double*", "const float*", "void*", "int64_t"]


def _random_structs(rng, n):
    structs = []
    for s in range(n):
        fields = []
        for f in range(rng.randint(1, 9)):
            t = rng.choice(_C_TYPES)
            if rng.random() < 0.2 and "*" not in t:
                t += "[%d]" % rng.randint(1, 5)
            fields.append(("f%d" % f, t))
        structs.append(xp.CudaStruct("S%d" % s, fields))
    return structs


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_struct_layouts_match_the_c_compiler(tmp_path):
    rng = random.Random(7)
    structs = _random_structs(rng, 40)
    structs.append(xp.CudaStruct("Vec", [("data", "double*"), ("n", "int")]))
    lines = ["#include <stdbool.h>", "#include <stddef.h>",
             "#include <stdint.h>", "#include <stdio.h>"]
    for s in structs:
        lines.append(s.declaration)
    lines.append("int main(void) {")
    for s in structs:
        lines.append('  printf("%%s %%zu %%zu", "%s", sizeof(%s), '
                     '_Alignof(%s));' % (s.name, s.name, s.name))
        for n, _ in s.fields:
            lines.append('  printf(" %%zu", offsetof(%s, %s));' % (s.name, n))
        lines.append('  printf("\\n");')
    lines.append("  return 0;\n}")
    src = tmp_path / "layouts.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layouts"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(exe),
                    str(src)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert len(out) == len(structs)
    for s, line in zip(structs, out):
        name, size, align, *offs = line.split()
        assert name == s.name
        assert int(size) == s.size, s
        assert int(align) == s.alignment, s
        assert [int(o) for o in offs] == [s.offsets[n] for n, _ in s.fields]


def test_struct_values_and_errors():
    S = xp.CudaStruct("S", [("a", "char"), ("w", "float[3]"), ("n", "int")])
    assert S.offsets == {"a": 0, "w": 4, "n": 16} and S.size == 20
    b = S(a=65, w=0.5, n=-2).pack()
    assert b[0] == 65 and b[1:4] == b"\0\0\0"
    assert np.frombuffer(b[4:16], np.float32).tolist() == [0.5] * 3
    assert np.frombuffer(b[16:20], np.int32)[0] == -2
    assert S(1, 2.0, 3).n == 3
    with pytest.raises(TypeError, match="no value for field 'n'"):
        S(a=1, w=2.0)
    with pytest.raises(TypeError, match="has no field 'm'"):
        S(a=1, w=2.0, n=3, m=4)
    with pytest.raises(TypeError, match="given twice"):
        S(1, a=1, w=2.0, n=3)
    with pytest.raises(ValueError, match="does not fit char|does not fit "
                                         "signed char"):
        S(a=300, w=0, n=0).pack()
    with pytest.raises(ValueError, match="two fields are called 'a'"):
        xp.CudaStruct("T", [("a", "int"), ("a", "int")])
    with pytest.raises(ValueError, match="not a C identifier"):
        xp.CudaStruct("1T", [("a", "int")])
    with pytest.raises(ValueError, match="unsupported type|scalar and pointer"):
        xp.CudaStruct("T", [("a", "Vec")])


# ---- PyccelKernel, Kernel, KernelCatalog on the CPU ---------------------------

def scale_in_place(values, factor):
    values[:] *= factor
    return values


def test_pyccel_kernel_seed_snippet():
    scale = xp.PyccelKernel(scale_in_place, outputs=(0,))
    with xp.use_backend("cupy"):
        values = xp.arange(5, dtype=xp.float64)
        returned = scale(values, 3.0)
        xp.synchronize()
    np.testing.assert_array_equal(xp.to_numpy(values), [0, 3, 6, 9, 12])
    assert returned is values  # the argument's own (host) array came back


def test_pyccel_kernel_gives_numpy_arrays_to_the_function():
    seen = []

    def f(a, b, opts, pair):
        seen.append((type(a), type(b), type(opts["w"]), type(pair[0])))
        assert a is b  # one array passed twice is one host array
        assert opts["w"] is a
        a[0] = 42
        return np.ones(3), 7

    k = xp.PyccelKernel(f)
    x = xp.zeros(4)
    r, seven = k(x, x, {"w": x}, (x, 1))
    assert seen[0] == (np.ndarray,) * 4
    assert float(x[0]) == 42  # a zero-copy view on the CPU
    assert isinstance(r, xp.ndarray) and r.tolist() == [1, 1, 1]
    assert seven == 7
    # NumPy inputs: the function is called directly
    n = np.zeros(2)
    assert k.function is f
    assert xp.PyccelKernel(lambda a: a)(n) is n


class _Particles:
    def __init__(self, pos, mass):
        self.pos = pos
        self.mass = mass


def test_pyccel_kernel_object_modules_and_is_array():
    def move(p, dx):
        assert isinstance(p.pos, np.ndarray)
        p.pos += dx
        return p.mass

    p = _Particles(xp.zeros(3), 2.0)
    k = xp.PyccelKernel(move, object_modules=(__name__.split(".")[0],))
    assert k(p, 1.5) == 2.0
    assert xp.to_numpy(p.pos).tolist() == [1.5] * 3
    # without object_modules the object is passed as it is
    with pytest.raises(AssertionError):
        xp.PyccelKernel(move)(_Particles(xp.zeros(3), 1.0), 1.0)

    class Box:
        """An application array type that is_array marks for conversion."""

        def __init__(self, values):
            self.values = np.asarray(values, dtype=float)

        def __array__(self, dtype=None, copy=None):
            return self.values

        def __setitem__(self, key, value):
            self.values[key] = value

    def double(b):
        assert isinstance(b, np.ndarray)
        b *= 2

    box = Box([1.0, 2.0])
    xp.PyccelKernel(double, is_array=lambda o: isinstance(o, Box))(box)
    assert box.values.tolist() == [2.0, 4.0]  # copied back
    with pytest.raises(TypeError, match="positions"):
        xp.PyccelKernel(double, outputs=(1.5,))


def axpy_host(a, x, y, n):
    for i in range(n):
        y[i] += a * x[i]


def test_kernel_pair_runs_the_host_kernel_on_the_cpu():
    kernel = xp.Kernel(axpy_host, xp.CudaKernel(AXPY, "axpy"))
    with xp.use_backend("cupy"):
        x = xp.arange(1000, dtype=xp.float64)
        y = xp.zeros(1000)
        if xp.get_backend() == "cpu":
            kernel(2.0, x, y, 1000, n_threads=1000)
            np.testing.assert_array_equal(xp.to_numpy(y),
                                          2.0 * np.arange(1000))
    assert kernel.name == "axpy_host"
    with pytest.raises(ValueError, match="missing_cuda"):
        xp.Kernel(axpy_host, missing_cuda="ignore")
    with pytest.raises(TypeError, match="CudaKernel"):
        xp.Kernel(axpy_host, axpy_host)


@pytest.mark.skipif(HAS_CUDA, reason="the CPU fallback of the CUDA path")
def test_kernel_without_cuda_kernel_on_cuda(monkeypatch):
    from cunumpy import _backend
    monkeypatch.setattr(_backend, "get_backend",
                        lambda: _backend.BackendName("cuda"))
    k = xp.Kernel(axpy_host)
    x = xp.arange(4, dtype=xp.float64)
    y = xp.zeros(4)
    with pytest.raises(NotImplementedError, match="has no CUDA kernel"):
        k(1.0, x, y, 4)
    calls = []

    def host(a, x, y, n):
        calls.append(type(y))
        axpy_host(a, x, y, n)

    fb = xp.Kernel(host, missing_cuda="fallback",
                   host_options={"outputs": (2,)})
    fb(1.0, x, y, 4)
    assert calls == [np.ndarray]
    assert fb._host.outputs == (2,)
    np.testing.assert_array_equal(xp.to_numpy(y), [0, 1, 2, 3])
    # with a CUDA kernel, CPU arrays are refused, never copied
    kc = xp.Kernel(host, xp.CudaKernel(AXPY, "axpy"))
    with pytest.raises(xp.DeviceError, match="never copies"):
        kc(1.0, x, y, 4, n_threads=4)


def test_kernel_catalog_from_package():
    cat = xp.KernelCatalog.from_package("kernel_catalog_pkg")
    assert cat.names() == ["axpy", "norm2"]
    assert cat["axpy"].cuda is not None and cat.norm2.cuda is None
    assert cat["axpy"].cuda.signature[1] == ("x", "const double*")
    x = xp.arange(3, dtype=xp.float64)
    y = xp.ones(3)
    cat.axpy(2.0, x, y, 3)
    assert xp.to_numpy(y).tolist() == [1, 3, 5]
    out = xp.zeros(1)
    cat["norm2"](xp.asarray([3.0, 4.0]), out)
    assert float(out[0]) == 5.0
    assert "axpy" in cat and len(cat) == 2 and list(cat) == ["axpy", "norm2"]
    try:
        assert cat.compile_all(arch=90) == ["axpy"]
    except xp.DeviceError:
        pass  # no plugin
    if not HAS_CUDA:
        with pytest.raises(xp.DeviceError):
            cat.compile_all()
    with pytest.raises(TypeError, match="package"):
        xp.KernelCatalog.from_package(os)
    with pytest.raises(AttributeError, match="no kernel"):
        cat.missing
