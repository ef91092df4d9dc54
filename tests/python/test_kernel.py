"""ElementwiseKernel and ReductionKernel on CPU arrays against NumPy: the
seed examples as written, broadcasting, raw parameters, scalars,
placeholders, every dtype, non-contiguous operands, axes, keepdims, out=,
argument errors, the on-disk cache across processes (a second process
compiles nothing, a corrupt object is rebuilt) and a missing compiler."""

import glob
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cunumpy as cp
from conftest import DTYPES


@pytest.fixture(autouse=True, scope="module")
def private_cache(tmp_path_factory):
    """Every kernel of this module compiles into a temporary folder."""
    d = str(tmp_path_factory.mktemp("cpu_kernels"))
    old = os.environ.get("CUNUMPY_CPU_KERNEL_CACHE")
    os.environ["CUNUMPY_CPU_KERNEL_CACHE"] = d
    yield d
    if old is None:
        del os.environ["CUNUMPY_CPU_KERNEL_CACHE"]
    else:
        os.environ["CUNUMPY_CPU_KERNEL_CACHE"] = old


def np_of(a):
    return cp.to_numpy(a)


# ---- the seed examples -----------------------------------------------------

def test_seed_squared_diff_broadcasts():
    squared_diff = cp.ElementwiseKernel(
        'float32 x, float32 y',   # Input params
        'float32 z',               # Output params
        'z = (x - y) * (x - y)',  # Per-element operation (C++ code)
        'squared_diff'             # Kernel name
    )
    a_np = np.arange(12, dtype=np.float32).reshape(3, 4)
    b_np = np.linspace(0, 1, 4, dtype=np.float32)
    a, b = cp.asarray(a_np), cp.asarray(b_np)
    result = squared_diff(a, b)  # Broadcasting works automatically
    assert result.dtype == np.float32 and result.shape == (3, 4)
    np.testing.assert_array_equal(np_of(result), (a_np - b_np) * (a_np - b_np))


def test_seed_generic_squared_diff():
    generic_squared_diff = cp.ElementwiseKernel(
        'T x, T y', 'T z',
        'z = (x - y) * (x - y)',
        'generic_squared_diff'
    )
    for dt in (np.float32, np.float64, np.int32):
        x_np = np.arange(7).astype(dt)
        y_np = (np.arange(7) * 3 % 5).astype(dt)
        r = generic_squared_diff(cp.asarray(x_np), cp.asarray(y_np))
        assert r.dtype == dt
        np.testing.assert_array_equal(np_of(r), (x_np - y_np) * (x_np - y_np))


def test_seed_stencil_raw():
    stencil = cp.ElementwiseKernel(
        'raw T x', 'T y',
        'y = (x[i > 0 ? i-1 : 0] + x[i] + x[i < _ind.size()-1 ? i+1 : '
        '_ind.size()-1]) / 3',
        'stencil_1d'
    )
    x_np = np.random.default_rng(0).standard_normal(50)
    x = cp.asarray(x_np)
    want = (np.concatenate([x_np[:1], x_np[:-1]]) + x_np +
            np.concatenate([x_np[1:], x_np[-1:]])) / 3
    np.testing.assert_allclose(np_of(stencil(x, size=x.size)), want,
                               rtol=1e-15)
    out = cp.zeros(50)
    assert stencil(x, out) is out
    np.testing.assert_allclose(np_of(out), want, rtol=1e-15)


def test_seed_l2norm():
    l2norm = cp.ReductionKernel(
        'T x',           # Input
        'T y',           # Output
        'x * x',         # Map: square each element
        'a + b',         # Reduce: sum pairs (a, b are the binary operands)
        'y = sqrt(a)',   # Post-map: sqrt of final sum
        '0',             # Identity element
        'l2norm'         # Kernel name
    )
    m_np = np.random.default_rng(1).standard_normal((5, 7))
    array, matrix = cp.asarray(m_np[0]), cp.asarray(m_np)
    norm = l2norm(array)        # Full reduction -> scalar
    norms = l2norm(matrix, axis=1)  # Reduce along axis -> vector
    assert norm.shape == () and norms.shape == (5,)
    np.testing.assert_allclose(float(norm), np.linalg.norm(m_np[0]),
                               rtol=1e-14)
    np.testing.assert_allclose(np_of(norms), np.linalg.norm(m_np, axis=1),
                               rtol=1e-14)
    f32 = cp.asarray(m_np.astype(np.float32))
    assert l2norm(f32, axis=0).dtype == np.float32


# ---- elementwise -----------------------------------------------------------

ADD = None


def add_kernel():
    global ADD
    if ADD is None:
        ADD = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'kadd')
    return ADD


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_every_dtype(dt):
    rng = np.random.default_rng(2)
    x_np = rng.integers(0, 100, 40).astype(dt)
    if dt.kind == "c":
        x_np = x_np * (1 + 1j)
    y_np = rng.integers(0, 100, 40).astype(dt)
    r = add_kernel()(cp.asarray(x_np), cp.asarray(y_np))
    assert r.dtype == dt
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(np_of(r), x_np + y_np)


def test_non_contiguous_and_negative_strides():
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * 2 - y', 'kstr')
    base = np.arange(60, dtype=np.float64).reshape(6, 10)
    x_np, y_np = base.T[::2, ::-1], base[::-1, 1::2].T[:5]
    x_np = x_np[:5]
    r = k(cp.asarray(base).T[::2, ::-1][:5], cp.asarray(base)[::-1, 1::2].T[:5])
    np.testing.assert_array_equal(np_of(r), x_np * 2 - y_np)
    # into a strided output
    out = cp.zeros((10, 12))
    view = out[::2, ::2]
    k(cp.asarray(base).T[::2, ::-1][:5], cp.asarray(base)[::-1, 1::2].T[:5],
      view)
    want = np.zeros((10, 12))
    want[::2, ::2] = x_np * 2 - y_np
    np.testing.assert_array_equal(np_of(out), want)


@pytest.mark.parametrize("sa,sb", [((3, 1), (4,)), ((2, 1, 5), (3, 1)),
                                   ((), (4,)), ((0, 3), (3,)), ((1,), (1,))])
def test_broadcasting(sa, sb):
    a_np = np.arange(int(np.prod(sa)), dtype=np.float64).reshape(sa)
    b_np = np.arange(int(np.prod(sb)), dtype=np.float64).reshape(sb) + 0.5
    r = add_kernel()(cp.asarray(a_np), cp.asarray(b_np))
    assert r.shape == np.broadcast_shapes(sa, sb)
    np.testing.assert_array_equal(np_of(r), a_np + b_np)


def test_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match="does not broadcast"):
        add_kernel()(cp.zeros((2, 3)), cp.zeros(4))
    with pytest.raises(ValueError, match="argument 'z' of shape \\(4,\\)"):
        add_kernel()(cp.zeros(3), cp.zeros(3), cp.zeros(4))
    with pytest.raises(ValueError, match="output 'z'"):
        add_kernel()(cp.zeros((2, 3)), cp.zeros(3), cp.zeros(3))


def test_scalars_take_the_placeholder_type():
    k = add_kernel()
    x = cp.arange(5, dtype=cp.float32)
    r = k(x, 2)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(np_of(r), np.arange(5, dtype=np.float32) + 2)
    r = k(3, 4)
    assert r.dtype == np.int64 and r.shape == () and int(r) == 7
    r = k(1.5, 2.25)
    assert r.dtype == np.float64 and float(r) == 3.75
    d = cp.ElementwiseKernel('float32 x, int16 n', 'float64 z', 'z = x * n',
                             'kdecl')
    r = d(cp.arange(4, dtype=cp.float64) + 0.5, 3)
    assert r.dtype == np.float64
    np.testing.assert_array_equal(np_of(r),
                                  (np.arange(4) + 0.5).astype(np.float32) * 3)


def test_placeholder_errors():
    with pytest.raises(TypeError, match="placeholder 'T' is float32"):
        add_kernel()(cp.zeros(3, dtype=cp.float32), cp.zeros(3))
    u = cp.ElementwiseKernel('T x', 'U y', 'y = x + 1', 'ku')
    with pytest.raises(TypeError, match="cannot determine the type "
                                        "placeholder 'U'"):
        u(cp.zeros(3))
    out = cp.zeros(3, dtype=cp.int8)
    assert u(cp.arange(3, dtype=cp.float32) * 1.5, out) is out
    np.testing.assert_array_equal(np_of(out), [1, 2, 4])


def test_argument_count_and_grammar_errors():
    with pytest.raises(ValueError, match="takes 2 arguments"):
        add_kernel()(cp.zeros(3))
    with pytest.raises(ValueError, match="unknown type 'floaty' in "
                                         "parameter 2 \\(at character 11\\)"):
        cp.ElementwiseKernel('float32 x, floaty y', 'T z', 'z = x')
    with pytest.raises(ValueError, match="'i' in parameter 1"):
        cp.ElementwiseKernel('T i', 'T z', 'z = i')
    with pytest.raises(ValueError, match="repeats the name 'x'"):
        cp.ElementwiseKernel('T x, T x', 'T z', 'z = x')
    raw = cp.ElementwiseKernel('raw T x', 'T y', 'y = x[i]', 'kraw')
    with pytest.raises(ValueError, match="loop size is undecided"):
        raw(cp.zeros(3))
    with pytest.raises(ValueError, match="size can be given only"):
        add_kernel()(cp.zeros(3), cp.zeros(3), size=3)


def test_raw_output_and_several_outputs():
    k = cp.ElementwiseKernel('T x', 'raw T y, T z',
                             'y[_ind.size() - 1 - i] = x; z = x * x', 'krev')
    x_np = np.arange(6, dtype=np.float64)
    y = cp.zeros(6)
    y_view = cp.zeros(12)[::2]
    z = cp.zeros(6)
    k(cp.asarray(x_np), y_view, z)
    np.testing.assert_array_equal(np_of(y_view), x_np[::-1])
    np.testing.assert_array_equal(np_of(z), x_np * x_np)
    yy, zz = k(cp.asarray(x_np))
    np.testing.assert_array_equal(np_of(yy), x_np[::-1])
    del y
    two = cp.ElementwiseKernel('T x', 'T a, T b', 'a = x + 1; b = x - 1',
                               'ktwo')
    a, b = two(cp.arange(3))
    np.testing.assert_array_equal(np_of(a), [1, 2, 3])
    np.testing.assert_array_equal(np_of(b), [-1, 0, 1])
    nr = cp.ElementwiseKernel('T x', 'T a', 'a = x', 'knr', no_return=True)
    assert nr(cp.arange(3)) is None
    rt = cp.ElementwiseKernel('T x', 'T a', 'a = x', 'krt', return_tuple=True)
    assert isinstance(rt(cp.arange(3)), tuple)


def test_preamble_loop_prep_and_source():
    k = cp.ElementwiseKernel(
        'T x', 'T y', 'y = twice(x) + offset', 'kpre',
        preamble='static double twice(double v) { return 2 * v; }',
        loop_prep='const double offset = 0.5')
    r = k(cp.arange(4, dtype=cp.float64))
    np.testing.assert_array_equal(np_of(r), np.arange(4) * 2 + 0.5)
    src = k.source(cp.arange(4, dtype=cp.float64))
    assert "typedef double T;" in src and "twice" in src
    cuda = k.source(cp.arange(4, dtype=cp.float64), backend="cuda")
    assert '__global__ void cn_kernel_kpre' in cuda


def test_compile_error_has_the_log():
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x;\ny = x +* ;', 'kbad')
    with pytest.raises(ValueError, match="operation:2"):
        k(cp.zeros(2))


def test_missing_compiler(monkeypatch):
    k = cp.ElementwiseKernel('T x', 'T y', 'y = x * 1.25 - 3', 'knocc')
    monkeypatch.setenv("CUNUMPY_CC", "/nonexistent")
    with pytest.raises(NotImplementedError, match="looked for "
                       "'/nonexistent' \\(from CUNUMPY_CC\\); set CUNUMPY_CC"):
        k(cp.zeros(2))
    monkeypatch.delenv("CUNUMPY_CC")
    np.testing.assert_array_equal(np_of(k(cp.ones(2))), [-1.75, -1.75])


# ---- reductions ---------------------------------------------------------------

SUM = None


def sum_kernel():
    global SUM
    if SUM is None:
        SUM = cp.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0',
                                 'ksum')
    return SUM


@pytest.mark.parametrize("dt", [d for d in DTYPES if d.kind != "b"], ids=str)
def test_reduction_every_dtype(dt):
    x_np = (np.arange(1, 301) % 17).astype(dt).reshape(3, 100)
    for axis in (None, 0, 1, (0, 1)):
        r = sum_kernel()(cp.asarray(x_np), axis=axis)
        want = np.sum(x_np, axis=axis, dtype=dt)
        assert r.dtype == dt
        np.testing.assert_allclose(np_of(r), want, rtol=1e-6)


def test_reduction_axes_keepdims_out():
    x_np = np.random.default_rng(3).standard_normal((4, 5, 6))
    x = cp.asarray(x_np)
    for axis in (0, 1, 2, -1, (0, 2), (2, 0), (), None):
        for keepdims in (False, True):
            r = sum_kernel()(x, axis=axis, keepdims=keepdims)
            want = np.sum(x_np, axis=axis, keepdims=keepdims)
            assert r.shape == want.shape
            np.testing.assert_allclose(np_of(r), want, rtol=1e-13)
    out = cp.zeros(5)
    assert sum_kernel()(x, axis=(0, 2), out=out) is out
    np.testing.assert_allclose(np_of(out), x_np.sum(axis=(0, 2)), rtol=1e-13)
    out2 = cp.zeros(5)
    assert sum_kernel()(x, out2, axis=(0, 2)) is out2
    with pytest.raises(ValueError, match="output 'y'"):
        sum_kernel()(x, axis=0, out=cp.zeros(3))
    with pytest.raises(Exception, match="out of bounds"):
        sum_kernel()(x, axis=3)
    # non-contiguous and transposed inputs
    t = x.transpose(2, 0, 1)[::-1, :, ::2]
    t_np = x_np.transpose(2, 0, 1)[::-1, :, ::2]
    np.testing.assert_allclose(np_of(sum_kernel()(t, axis=(1, 2))),
                               t_np.sum(axis=(1, 2)), rtol=1e-13)


def test_reduction_two_inputs_reduce_type_and_empty():
    dot = cp.ReductionKernel('T x, T w', 'float64 y', 'x * w', 'a + b',
                             'y = a', '0', 'kdot', reduce_type='float64')
    x_np = np.random.default_rng(4).standard_normal((3, 1000)).astype(
        np.float32)
    w_np = np.linspace(0, 1, 1000, dtype=np.float32)
    r = dot(cp.asarray(x_np), cp.asarray(w_np), axis=1)
    assert r.dtype == np.float64
    np.testing.assert_allclose(
        np_of(r), (x_np.astype(np.float64) * w_np.astype(np.float64)).sum(1),
        rtol=1e-6)
    mx = cp.ReductionKernel('T x', 'T y', 'x', 'max(a, b)', 'y = a',
                            '-1e300', 'kmax')
    e = cp.zeros((0, 4))
    np.testing.assert_array_equal(np_of(mx(e, axis=0)), np.full(4, -1e300))
    v_np = np.random.default_rng(5).standard_normal(10001)
    assert float(mx(cp.asarray(v_np))) == v_np.max()


def test_reduction_of_scalars_and_0d():
    r = sum_kernel()(2.5)
    assert r.shape == () and float(r) == 2.5
    dot = cp.ReductionKernel('T x, T w', 'T y', 'x * w', 'a + b', 'y = a',
                             '0', 'kdot0')
    x_np = np.arange(6.0).reshape(2, 3)
    r = dot(cp.asarray(x_np), 2.0, axis=1)
    np.testing.assert_array_equal(np_of(r), (x_np * 2).sum(axis=1))
    r = dot(cp.asarray(np.float64(3.0)), cp.asarray(x_np), axis=0)
    np.testing.assert_array_equal(np_of(r), (x_np * 3).sum(axis=0))


def test_reduction_pairwise_accuracy():
    x = cp.full(1 << 22, 0.1, dtype=cp.float32)
    got = float(sum_kernel()(x))
    exact = float(np.float32(0.1)) * (1 << 22)
    assert abs(got - exact) / exact < 1e-6


# ---- the disk cache, across processes ----------------------------------------

SCRIPT = textwrap.dedent("""
    import cunumpy as cp, numpy as np
    k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * y + 7', 'kdisk')
    r = k(cp.arange(4.0), cp.arange(4.0))
    assert np.array_equal(cp.to_numpy(r), np.arange(4.0) ** 2 + 7), r
    print(*cp._kernel.kernel_cpu_cache_info())
""")


def run_fresh(cache):
    env = dict(os.environ, CUNUMPY_CPU_KERNEL_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env,
                         capture_output=True, text=True, check=True)
    return tuple(int(v) for v in out.stdout.split())


def test_disk_cache_across_processes(tmp_path):
    cache = str(tmp_path / "cache")
    compiled, hits, _ = run_fresh(cache)
    assert compiled == 1 and hits == 0
    objs = glob.glob(os.path.join(cache, "*.so"))
    assert len(objs) == 1
    mtime = os.stat(objs[0]).st_mtime_ns
    compiled, hits, _ = run_fresh(cache)
    assert compiled == 0 and hits == 1
    assert os.stat(objs[0]).st_mtime_ns == mtime
    # a corrupt object is ignored and rebuilt
    with open(objs[0], "wb") as f:
        f.write(b"not an ELF object" * 10)
    compiled, hits, _ = run_fresh(cache)
    assert compiled == 1 and hits == 0
    compiled, hits, _ = run_fresh(cache)
    assert compiled == 0 and hits == 1
    assert not [p for p in os.listdir(cache) if not p.endswith(".so")]
