"""The Python binding on a GPU (run by tests/gpu/run.sh): arrays made on
the CUDA backend, operators, ufuncs, reductions, views, indexing, FFTs
and transfers, each compared with NumPy on the same values; plus the CuNumpy
backend API, pickling of device arrays, and __cuda_array_interface__ /
DLPack zero-copy with CuPy when CuPy is importable. Prints one line per failure and a summary."""
import sys
import traceback

import numpy as np

import cunumpy as xp

failures = 0
cases = 0


def check(what, fn):
    global failures, cases
    cases += 1
    try:
        ok = fn()
    except Exception:  # a crash is a failure with its traceback
        failures += 1
        print(f"FAIL {what}: raised")
        traceback.print_exc(limit=3, file=sys.stdout)
        return
    if ok is False:
        failures += 1
        print(f"FAIL {what}")


def same(got, want, rtol=1e-6):
    assert xp.is_gpu(got), "result is not on the GPU"
    g = xp.to_numpy(got)
    if g.dtype != np.asarray(want).dtype or g.shape != np.shape(want):
        print(f"  got {g.dtype}{g.shape}, want "
              f"{np.asarray(want).dtype}{np.shape(want)}")
        return False
    if g.dtype.kind in "fc":
        ok = np.allclose(g, want, rtol=rtol, atol=0, equal_nan=True)
    else:
        ok = np.array_equal(g, want)
    if not ok:
        print(f"  got {g.ravel()[:6]}, want {np.asarray(want).ravel()[:6]}")
    return ok


check("cuda available", lambda: xp.cuda_available())
xp.set_backend("cuda")
check("get_backend() == cuda", lambda: xp.get_backend() == "cuda")
check("device_count() >= 1", lambda: xp.device_count() >= 1)

rng = np.random.default_rng(0)
dtypes = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64",
          "float32", "float64", "complex64", "complex128"]
for dt in dtypes:
    a = (rng.standard_normal((5, 7)) * 10).astype(dt)
    b = (rng.standard_normal((7,)) * 10 + 1).astype(dt)
    da, db = xp.asarray(a), xp.asarray(b)
    check(f"asarray/get {dt}", lambda: same(da, a))
    if dt != "bool":
        check(f"a+b broadcast {dt}", lambda: same(da + db, a + b))
        check(f"a*b {dt}", lambda: same(da * db, a * b))
        check(f"a-2 {dt}", lambda: same(da - 2, a - 2))
        check(f"sum axis 0 {dt}", lambda: same(da.sum(axis=0), a.sum(axis=0)))
        check(f"sum {dt}", lambda: same(da.sum(), a.sum(), 1e-5))
    check(f"a==b {dt}", lambda: same(da == db, a == b))
    check(f"a[::-2, 1:6:2] {dt}",
          lambda: same(da[::-2, 1:6:2], a[::-2, 1:6:2]))
    check(f"a.T copy {dt}", lambda: same(da.T.copy(), a.T.copy()))
    check(f"astype float64 {dt}",
          lambda: same(da.astype("float64"), a.astype("float64")))
    if dt[0] in "fc":
        check(f"sqrt {dt}", lambda: same(xp.sqrt(da), np.sqrt(a), 1e-5))
        check(f"exp {dt}", lambda: same(xp.exp(da / 10), np.exp(a / 10), 1e-5))
        check(f"mean axis 1 {dt}",
              lambda: same(da.mean(axis=1), a.mean(axis=1), 1e-5))
    if dt[0] in "iuf":
        check(f"max {dt}", lambda: same(da.max(axis=1), a.max(axis=1)))
        check(f"argmin {dt}", lambda: same(da.argmin(), a.argmin()))
        check(f"cumsum {dt}",
              lambda: same(da.cumsum(axis=1), a.cumsum(axis=1), 1e-5))

x = np.linspace(-3, 3, 1_000_003)
dx = xp.asarray(x)
check("large sin", lambda: same(xp.sin(dx), np.sin(x), 1e-12))
check("large std", lambda: same(dx.std(), x.std(), 1e-10))
check("large where", lambda: same(xp.where(dx > 0, dx, -dx), np.abs(x)))
check("large float32 sum", lambda: same(dx.astype("float32").sum(),
                                        x.astype("float32").sum(), 1e-5))


def setitem():
    d = xp.zeros((4, 5))
    d[1:3, ::2] = 7.0
    h = np.zeros((4, 5))
    h[1:3, ::2] = 7.0
    return same(d, h)


check("setitem slice", setitem)

# FFTs on cuFFT against NumPy's pocketfft, to tol times the largest value.


def fft_same(got, want, tol):
    g = xp.to_numpy(got) if xp.is_gpu(got) else None
    return (g is not None and g.dtype == want.dtype and g.shape == want.shape
            and np.allclose(g, want, rtol=0, atol=tol * np.abs(want).max()))


for dt in ("complex64", "complex128"):
    z = (rng.standard_normal((6, 10)) + 1j * rng.standard_normal((6, 10)))
    z = z.astype(dt)
    r = z.real.copy()
    dz, dr = xp.asarray(z), xp.asarray(r)
    tol = 1e-4 if dt == "complex64" else 1e-10
    check(f"fft.fft {dt}", lambda: fft_same(xp.fft.fft(dz), np.fft.fft(z).astype(dt), tol))
    check(f"fft.ifft axis 0 ortho {dt}",
          lambda: fft_same(xp.fft.ifft(dz, axis=0, norm="ortho"),
                       np.fft.ifft(z, axis=0, norm="ortho").astype(dt), tol))
    check(f"fft.fft2 of a[::-1, ::2] {dt}",
          lambda: fft_same(xp.fft.fft2(dz[::-1, ::2]),
                       np.fft.fft2(z[::-1, ::2]).astype(dt), tol))
    check(f"fft.rfft n=13 {dt}",
          lambda: fft_same(xp.fft.rfft(dr, n=13), np.fft.rfft(r, n=13).astype(dt), tol))
    check(f"fft.irfftn {dt}",
          lambda: fft_same(xp.fft.irfftn(dz), np.fft.irfftn(z).astype(r.dtype), tol))
    check(f"fft.fftn axes (1, 0) forward {dt}",
          lambda: fft_same(xp.fft.fftn(dz.T, axes=(1, 0), norm="forward"),
                       np.fft.fftn(z.T, axes=(1, 0), norm="forward").astype(dt),
                       tol))
check("fancy index", lambda: same(dx[xp.asarray([3, 1, 0])], x[[3, 1, 0]]))
check("bool mask", lambda: same(dx[dx > 2.9], x[x > 2.9]))
check("0-d item", lambda: float(dx[5]) == x[5])
check("memory_info", lambda: 0 < xp.memory_info()[0] <= xp.memory_info()[1])
check("synchronize", lambda: xp.synchronize() is None)


def with_stream():
    with xp.stream() as s:
        r = xp.asarray(x) * 2
    xp.synchronize()
    return same(r, x * 2)


check("stream()", with_stream)
check("__cuda_array_interface__",
      lambda: dx.__cuda_array_interface__["shape"] == (1_000_003,))
check("__dlpack_device__", lambda: dx.__dlpack_device__()[0] == 2)

try:
    import cupy as cp
except ImportError:
    cp = None
    print("CuPy not importable: zero-copy checks skipped")
if cp is not None:
    def ptr(a):
        return a.__cuda_array_interface__["data"][0]

    def to_cupy_zero_copy():
        c = cp.asarray(dx)  # through __cuda_array_interface__
        return ptr(c) == ptr(dx) and bool(cp.allclose(c, cp.asarray(x)))

    def from_cupy_dlpack():
        c = cp.arange(10.0)
        d = xp.from_dlpack(c)
        c[0] = 42.0
        cp.cuda.Device().synchronize()
        return ptr(d) == ptr(c) and float(d[0]) == 42.0

    def to_cupy_dlpack():
        c = cp.from_dlpack(dx)
        return ptr(c) == ptr(dx)

    check("cupy.asarray(cunumpy) zero-copy", to_cupy_zero_copy)
    check("from_dlpack(cupy) zero-copy", from_cupy_dlpack)
    check("cupy.from_dlpack(cunumpy) zero-copy", to_cupy_dlpack)



def pickle_round_trip():
    """A device array pickles through the host and comes back on its
    device (also when the unpickling process's backend is the CPU), as
    Dask's worker processes exchange them."""
    import pickle
    blob = pickle.dumps(dx[::-3])
    with xp.use_backend("cpu"):
        back = pickle.loads(blob)
    return back.device == dx.device and same(back, x[::-3], rtol=0)


check("pickle of a device array", pickle_round_trip)



def sparse_on_device():
    """cunumpy.sparse moved to the GPU: SpMV, SpMM, SpGEMM and tocsc agree
    with scipy.sparse; host-only steps refuse until moved back."""
    import scipy.sparse as ss
    import cunumpy.sparse as sp
    ref = ss.random_array((300, 200), density=0.05, rng=3, format="csr")
    with xp.use_backend("cpu"):
        a = sp.csr_array(ref)
    g = a.to_device("cuda:0")
    assert g.device == "cuda:0"
    v = np.linspace(-1, 1, 200)
    m = np.linspace(-1, 1, 200 * 7).reshape(200, 7)
    ok = same(g @ xp.asarray(v), ref @ v, rtol=1e-12)
    ok = ok and same(g @ xp.asarray(m), ref @ m, rtol=1e-12)
    prod = (g @ g.T).to_device("cpu")
    ok = ok and np.allclose(prod.get().toarray(), (ref @ ref.T).toarray())
    csc = g.tocsc().to_device("cpu").get()
    want = ref.tocsc()
    ok = ok and np.array_equal(csc.indptr, want.indptr) and \
        np.array_equal(csc.indices, want.indices)
    try:
        g.toarray()
        return False
    except Exception:
        pass
    return ok


check("sparse matrices on the GPU vs scipy", sparse_on_device)


def sparse_dia_and_integers_on_device():
    """A DIA matrix on the GPU multiplies through CSR; int32 and bool
    SpMV run the generated kernel; both agree with scipy.sparse."""
    import scipy.sparse as ss
    import cunumpy.sparse as sp
    ref = ss.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1],
                         shape=(500, 500))
    with xp.use_backend("cpu"):
        d = sp.dia_array(ref)
    g = d.to_device("cuda:0")
    v = np.linspace(-1, 1, 500)
    ok = g.format == "dia" and same(g @ xp.asarray(v), ref @ v, rtol=1e-12)
    ri = ss.random_array((300, 200), density=0.05, rng=4, format="csr",
                         dtype=np.int32)
    with xp.use_backend("cpu"):
        ai = sp.csr_array(ri)
    gi = ai.to_device("cuda:0")
    vi = np.arange(200, dtype=np.int32) - 100
    ok = ok and same(gi @ xp.asarray(vi), ri @ vi, rtol=0)
    rb = ri.astype(bool)
    gb = gi.astype(bool)
    vb = vi % 3 == 0
    ok = ok and same(gb @ xp.asarray(vb), rb @ vb, rtol=0)
    return ok


check("DIA and integer sparse products on the GPU vs scipy",
      sparse_dia_and_integers_on_device)

xp.set_backend("cpu")
check("back on cpu", lambda: xp.is_cpu(xp.zeros(3)))
print(f"python_gpu: {cases} cases, {failures} failures")
sys.exit(1 if failures else 0)
