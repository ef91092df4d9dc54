"""cunumpy arrays as Dask chunks (cunumpy.dask), checked against the same
Dask computation on NumPy chunks and against NumPy itself: the chunk type
registration, zero-size meta, the __array_function__/__array_ufunc__
surface dask.array uses, the "cunumpy" array backend (creation and random
numbers), and a LocalCluster of two worker processes."""

import os
import tomllib

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402
from dask.array.backends import array_creation_dispatch  # noqa: E402
from dask.array.chunk_types import is_valid_chunk_type  # noqa: E402

import cunumpy as xp  # noqa: E402
import cunumpy.dask as cdask  # noqa: E402

PYPROJECT = os.path.join(os.path.dirname(__file__), "..", "..",
                         "pyproject.toml")


def _backend_entry_point():
    """The entry point the package metadata declares; from the build tree
    (no installed metadata) it is loaded from pyproject.toml's declaration
    and registered by hand, as an installed cunumpy's would be found."""
    from importlib.metadata import EntryPoint, entry_points
    with open(PYPROJECT, "rb") as f:
        decl = tomllib.load(f)["project"]["entry-points"][
            "dask.array.backends"]
    assert set(decl) == {"cunumpy"}
    ep = EntryPoint("cunumpy", decl["cunumpy"], "dask.array.backends")
    installed = [e for e in entry_points(group="dask.array.backends")
                 if e.name == "cunumpy"]
    if installed:
        assert installed[0].value == ep.value
    return ep


@pytest.fixture(scope="module", autouse=True)
def cunumpy_backend():
    cls = _backend_entry_point().load()
    assert cls is cdask.CunumpyBackendEntrypoint
    try:
        array_creation_dispatch.dispatch("cunumpy")
    except ValueError:
        array_creation_dispatch.register_backend("cunumpy", cls())
    yield


def test_dask_finds_the_backend_in_the_package_metadata(tmp_path):
    """The wheel's metadata (scikit-build-core writes it from pyproject.toml
    without building) on the path is all Dask needs to find "cunumpy"."""
    pytest.importorskip("scikit_build_core")
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c",
                    "import sys, scikit_build_core.build as b; "
                    "b.prepare_metadata_for_build_wheel(sys.argv[1])",
                    str(tmp_path)], cwd=os.path.dirname(PYPROJECT),
                   check=True, capture_output=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), str(tmp_path)]))
    out = subprocess.run(
        [sys.executable, "-c",
         "import dask, dask.array as da\n"
         "with dask.config.set({'array.backend': 'cunumpy'}):\n"
         "    x = da.zeros((4,), chunks=2)\n"
         "print(type(x._meta).__module__, type(x.compute()).__module__)"],
        env=env, check=True, capture_output=True, text=True)
    assert out.stdout.split() == ["cunumpy._ndarray", "cunumpy._ndarray"]


def _pair(host, chunks):
    """The same data as a Dask array of cunumpy chunks and of NumPy chunks."""
    return (da.from_array(xp.asarray(host), chunks=chunks, asarray=False),
            da.from_array(host, chunks=chunks))


def _blocks(arr, scheduler="sync"):
    return dask.compute(*arr.to_delayed().ravel(), scheduler=scheduler)


def _check(got_dask, want, rtol=1e-12, meta=True):
    if meta:
        assert isinstance(got_dask._meta, xp.ndarray)
    for b in _blocks(got_dask):
        assert isinstance(b, xp.ndarray), type(b)
    got = got_dask.compute(scheduler="sync")
    assert isinstance(got, xp.ndarray)
    want = np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=1e-12,
                               equal_nan=True)


def test_chunk_type_is_registered_and_dask_does_not_defer():
    assert is_valid_chunk_type(xp.ndarray)
    d, _ = _pair(np.arange(6.0), 3)
    mixed = d + xp.asarray(np.ones(6))
    assert isinstance(mixed, da.Array)
    _check(mixed, np.arange(6.0) + 1)
    cdask.register()  # again: nothing changes
    assert sum(t is xp.ndarray for t in
               dask.array.chunk_types._HANDLED_CHUNK_TYPES) == 1


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "uint8",
                                "complex128", "bool"])
@pytest.mark.parametrize("shape", [(), (5,), (4, 6), (0, 3)])
def test_meta_is_a_zero_size_cunumpy_array(dt, shape):
    host = np.ones(shape, dtype=dt)
    d = da.from_array(xp.asarray(host), chunks=2, asarray=False)
    want = da.from_array(host, chunks=2)._meta  # 0-d stays 0-d, size 1
    assert isinstance(d._meta, xp.ndarray)
    assert d._meta.shape == want.shape and d._meta.dtype == want.dtype
    assert d._meta.size == (0 if shape else 1)
    assert isinstance((d * 2)._meta, xp.ndarray)
    assert isinstance(d.sum(axis=0 if shape else None)._meta, xp.ndarray)


HOST = np.random.default_rng(7).standard_normal((7, 9))
HOST[2, 3] = np.nan
FINITE = np.where(np.isnan(HOST), 0.5, HOST)

OPS = {
    "elementwise": lambda m, d: m.sin(d) * 2.0 - d ** 2 + m.exp(d / 4),
    "compare_where": lambda m, d: m.where(d > 0.1, d, -d),
    "sum": lambda m, d: d.sum(),
    "sum_axis0_keepdims": lambda m, d: d.sum(axis=0, keepdims=True),
    "mean_axis1": lambda m, d: d.mean(axis=1),
    "std": lambda m, d: d.std(),
    "var_axis0_ddof": lambda m, d: d.var(axis=0, ddof=1),
    "min_max": lambda m, d: d.min(axis=1) + d.max(axis=1, keepdims=True),
    "prod_axis0": lambda m, d: d.prod(axis=0),
    "argmax_axis1": lambda m, d: d.argmax(axis=1),
    "any_all": lambda m, d: m.stack([(d > 1).any(axis=0),
                                     (d > -3).all(axis=0)]),
    "cumsum": lambda m, d: d.cumsum(axis=0),
    "matmul": lambda m, d: d @ d.T,
    "tensordot": lambda m, d: m.tensordot(d, d, axes=([0], [0])),
    "dot_vector": lambda m, d: m.dot(d, d[0]),
    "einsum": lambda m, d: m.einsum("ij,ij->j", d, d),
    "concatenate": lambda m, d: m.concatenate([d, d[::-1]], axis=1),
    "stack": lambda m, d: m.stack([d, 2 * d], axis=-1),
    "transpose_strided": lambda m, d: d.T[::-2, 1:] + 1,
    "rechunk_reshape": lambda m, d: d.rechunk((7, 3)).reshape(63),
    "map_blocks": lambda m, d: d.map_blocks(lambda b: b * 3 + 1),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_operations_equal_numpy_chunks_and_numpy(name):
    d, n = _pair(FINITE, (3, 4))
    got = OPS[name](da, d)
    want = OPS[name](da, n).compute(scheduler="sync")
    if hasattr(got, "compute") and not isinstance(got, da.Array):
        got = got.compute()
    _check(got, want)


def test_linalg_fft_and_order_statistics():
    tall = np.random.default_rng(5).standard_normal((12, 4))
    d, n = _pair(tall, (6, 4))
    q, r = da.linalg.qr(d)
    _check(q @ r, tall)
    _check(abs(r), abs(da.linalg.qr(n)[1].compute()))
    assert np.allclose(np.tril(np.asarray(r.compute()), -1), 0)
    _check(da.linalg.svd(d)[1], np.linalg.svd(tall, compute_uv=False))
    _check(da.fft.fft(d.rechunk((3, 4)), axis=1), np.fft.fft(tall, axis=1))
    _check(da.fft.rfft(d.rechunk((3, 4)), axis=1), np.fft.rfft(tall, axis=1))
    _check(da.median(d, axis=0), np.median(tall, axis=0))
    _check(da.percentile(d.ravel(), [10, 50, 90]),
           da.percentile(n.ravel(), [10, 50, 90]).compute())
    _check(da.topk(d.ravel(), 3), np.sort(tall.ravel())[::-1][:3])


FFTS = {
    "fft": lambda f, a: f.fft(a, axis=0),
    "ifft": lambda f, a: f.ifft(a, n=5),
    "fft2": lambda f, a: f.fft2(a, norm="ortho"),
    "ifftn": lambda f, a: f.ifftn(a, axes=(0, 1)),
    "rfft": lambda f, a: f.rfft(a.real, axis=0),
    "rfft2": lambda f, a: f.rfft2(a.real),
    "rfftn": lambda f, a: f.rfftn(a.real, s=(6, 4), axes=(0, 1)),
    "irfft": lambda f, a: f.irfft(a, n=10),
    "irfft2": lambda f, a: f.irfft2(a),
    "irfftn": lambda f, a: f.irfftn(a, axes=(0, 1)),
    "hfft": lambda f, a: f.hfft(a, axis=0),
    "ihfft": lambda f, a: f.ihfft(a.real),
}


@pytest.mark.parametrize("name", sorted(FFTS))
@pytest.mark.parametrize("dt", ["complex128", "complex64"])
def test_fft_results_have_a_cunumpy_meta(name, dt):
    rng = np.random.default_rng(8)
    host = (rng.standard_normal((8, 6)) +
            1j * rng.standard_normal((8, 6))).astype(dt)
    d, n = _pair(host, (8, 6))  # transformed axes need a single chunk
    got = FFTS[name](da.fft, d)
    ref = FFTS[name](da.fft, n)  # Dask's own result on NumPy chunks
    assert isinstance(ref._meta, np.ndarray)
    assert got._meta.ndim == got.ndim and got._meta.size == 0
    assert got._meta.dtype == ref.dtype == got.dtype
    assert got.chunks == ref.chunks
    _check(got, ref.compute(), rtol=1e-5 if dt == "complex64" else 1e-12)


def test_fft_keeps_other_metas_and_wraps_once():
    host = np.arange(12.0).reshape(3, 4)
    got = da.fft.fft(da.from_array(host, chunks=(1, 4)), axis=1)
    assert type(got._meta) is np.ndarray
    np.testing.assert_allclose(got.compute(), np.fft.fft(host, axis=1))
    assert getattr(da.fft.fft, "_cunumpy_meta", False)
    cdask._wrap_fft_transforms()  # again: wrapped once
    assert getattr(da.fft.fft.__wrapped__, "_cunumpy_meta", False) is False
    with pytest.raises(ValueError, match="chunk"):  # Dask's own checks
        da.fft.fft(_pair(host, (1, 2))[0], axis=1)


MASKED = {
    "masked_greater": lambda ma, a: ma.masked_greater(a, 10),
    "masked_where": lambda ma, a: ma.masked_where(a > 10, a),
    "masked_invalid": lambda ma, a: ma.masked_invalid(a),
    "masked_array": lambda ma, a: ma.masked_array(a, mask=a > 10,
                                                  fill_value=-5.0),
    "sum": lambda ma, a: ma.masked_greater(a, 10).sum(axis=0),
    "mean": lambda ma, a: ma.masked_invalid(a).mean(axis=1),
    "average": lambda ma, a: ma.average(ma.masked_invalid(a), axis=0),
    "fix_invalid": lambda ma, a: ma.fix_invalid(a, fill_value=0),
}


@pytest.mark.parametrize("name", sorted(MASKED))
def test_masked_arrays_are_numpy_masked_chunks(name):
    """cunumpy has no masked array type: dask.array.ma on cunumpy chunks
    makes NumPy masked chunks with a NumPy masked meta (the types agree),
    equal to NumPy's masked computation."""
    host = np.arange(24.0).reshape(4, 6)
    host[1, 2] = np.nan
    d, _ = _pair(host, (2, 3))
    got = MASKED[name](da.ma, d)
    want = MASKED[name](np.ma, host)
    assert isinstance(got._meta, np.ma.MaskedArray)
    for b in _blocks(got):
        assert isinstance(b, np.ma.MaskedArray), type(b)
    res = got.compute(scheduler="sync")
    np.testing.assert_array_equal(np.ma.getmaskarray(res),
                                  np.ma.getmaskarray(want))
    np.testing.assert_allclose(np.ma.filled(res, 0), np.ma.filled(want, 0))
    # leaving the masked world gives plain NumPy chunks, as in NumPy
    filled = da.ma.filled(got, -1.0)
    assert type(filled._meta) is np.ndarray
    np.testing.assert_array_equal(filled.compute(), np.ma.filled(want, -1.0))


def test_masked_functions_refuse_device_chunks(monkeypatch):
    """Device chunks are not copied to the host behind the user's back:
    every dask.array.ma function refuses them with the way out (the
    device is simulated: cunumpy.dask's host test says no)."""
    host = np.arange(12.0).reshape(3, 4)
    d, _ = _pair(host, (3, 2))
    monkeypatch.setattr(cdask, "_on_cpu", lambda a: False)
    calls = {
        "masked_greater": lambda: da.ma.masked_greater(d, 1.0),
        "masked_where": lambda: da.ma.masked_where(host > 1, d),
        "masked_array": lambda: da.ma.masked_array(d, mask=host > 1),
        "filled": lambda: da.ma.filled(d, 0.0),
        "average": lambda: da.ma.average(d, axis=0),
        "getmaskarray": lambda: da.ma.getmaskarray(xp.asarray(host)),
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"dask.array.ma.{name}: cunumpy "
                           r"has no masked arrays .*to_backend\('numpy'\)"):
            call()
    monkeypatch.undo()
    # the way out: NumPy chunks, then NumPy's masked arrays
    got = da.ma.masked_greater(d.to_backend("numpy"), 1.0)
    assert type(got._meta) is np.ma.MaskedArray
    np.testing.assert_array_equal(np.ma.getmaskarray(got.compute()),
                                  host > 1.0)
    assert all(getattr(getattr(da.ma, n), "_cunumpy_checked", False)
               for n in cdask._MASKED_FUNCTIONS if hasattr(da.ma, n))


@pytest.mark.parametrize("red", ["nansum", "nanmean", "nanmax", "sum"])
def test_nan_reductions(red):
    d, n = _pair(HOST, (4, 5))
    _check(getattr(da, red)(d, axis=0), getattr(np, red)(HOST, axis=0))


def test_empty_and_zero_d_arrays():
    d, _ = _pair(np.zeros((0, 4)), (2, 2))
    _check(d.sum(axis=0), np.zeros(4))
    _check(d + 1, np.zeros((0, 4)))
    z, _ = _pair(np.array(2.5), ())
    _check(z * 2, np.array(5.0))


def test_float32_and_integer_chunks_keep_their_dtype():
    h32 = FINITE.astype(np.float32)
    d, n = _pair(h32, 4)
    _check(d.sum(axis=1), n.sum(axis=1).compute(), rtol=1e-5)
    hi = np.arange(-10, 26, dtype=np.int32).reshape(6, 6)
    d, n = _pair(hi, 4)
    _check(d * 3 - 1, hi * 3 - 1)
    _check(d.sum(axis=0), hi.sum(axis=0))


def test_to_backend_round_trip():
    n = da.from_array(FINITE, chunks=4)
    c = n.to_backend("cunumpy")
    _check(c, FINITE)
    back = c.to_backend("numpy")
    assert type(back._meta) is np.ndarray
    for b in _blocks(back):
        assert type(b) is np.ndarray
    np.testing.assert_array_equal(back.compute(), FINITE)


def test_backend_creation_makes_cunumpy_chunks():
    with dask.config.set({"array.backend": "cunumpy"}):
        _check(da.ones((5, 4), chunks=2), np.ones((5, 4)))
        _check(da.zeros((5,), chunks=2, dtype=np.int32),
               np.zeros(5, np.int32))
        _check(da.full((3, 3), 2.5, chunks=2), np.full((3, 3), 2.5))
        _check(da.arange(0, 11, 2, chunks=2), np.arange(0, 11, 2))
        e = da.empty((3, 2), chunks=2)
        assert isinstance(e._meta, xp.ndarray) and e.shape == (3, 2)


def test_backend_random_numbers():
    with dask.config.set({"array.backend": "cunumpy"}):
        r = da.random.default_rng(42).random((4000,), chunks=1000)
        again = da.random.default_rng(42).random((4000,), chunks=1000)
        other = da.random.default_rng(43).random((4000,), chunks=1000)
        normal = da.random.default_rng(1).standard_normal((200, 50),
                                                          chunks=(50, 50))
        legacy = da.random.RandomState(5).random_sample((3000,), chunks=1000)
        ints = da.random.default_rng(2).integers(0, 10, size=(2000,),
                                                 chunks=500)
    for arr in (r, normal, legacy, ints):
        assert isinstance(arr._meta, xp.ndarray)
        for b in _blocks(arr):
            assert isinstance(b, xp.ndarray)
    v = np.asarray(r.compute())
    np.testing.assert_array_equal(v, np.asarray(again.compute()))
    assert not np.array_equal(v, np.asarray(other.compute()))
    blocks = [np.asarray(b) for b in _blocks(r)]
    assert not np.array_equal(blocks[0], blocks[1])  # one stream per chunk
    assert v.min() >= 0.0 and v.max() < 1.0
    assert abs(v.mean() - 0.5) < 0.03
    z = np.asarray(normal.compute())
    assert z.shape == (200, 50)
    assert abs(z.mean()) < 0.05 and abs(z.std() - 1.0) < 0.05
    lv = np.asarray(legacy.compute())
    assert lv.min() >= 0.0 and lv.max() < 1.0 and len(np.unique(lv)) == 3000
    iv = np.asarray(ints.compute())
    assert iv.dtype == np.int64 and iv.min() >= 0 and iv.max() <= 9
    assert set(np.unique(iv)) == set(range(10))


def test_random_state_rejects_unknown_names():
    rs = xp.random.RandomState(0)
    with pytest.raises(AttributeError):
        rs.not_a_distribution
    with pytest.raises(ValueError):
        xp.random.Philox4x32(-1)  # SeedSequence takes non-negative ints


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    env = {"OMP_NUM_THREADS": "1",
           "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    with distributed.LocalCluster(n_workers=2, processes=True,
                                  threads_per_worker=1,
                                  dashboard_address=None,
                                  host="127.0.0.1",
                                  env=env) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_local_cluster_two_worker_processes(client):
    pids = client.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()
    host = np.random.default_rng(3).standard_normal((64, 48))
    d, _ = _pair(host, (16, 24))
    results = {
        "sum": (d.sum(), host.sum()),
        "mean_axis0": (d.mean(axis=0), host.mean(axis=0)),
        "std": (d.std(), host.std()),
        "matmul": (d @ d.T, host @ host.T),
        "elementwise": (da.sin(d) * d + 1, np.sin(host) * host + 1),
        "fft": (da.fft.rfft(d.rechunk((16, 48)), axis=1),
                np.fft.rfft(host, axis=1)),
    }
    assert isinstance(results["fft"][0]._meta, xp.ndarray)
    got = client.compute({k: v[0] for k, v in results.items()}, sync=True)
    for k, (_, want) in results.items():
        assert isinstance(got[k], xp.ndarray), k
        np.testing.assert_allclose(np.asarray(got[k]), want, rtol=1e-12,
                                   atol=1e-12, err_msg=k)
    masked = client.compute(da.ma.masked_greater(d, 1.0).sum(axis=0),
                            sync=True)
    want = np.ma.masked_greater(host, 1.0).sum(axis=0)
    assert isinstance(masked, np.ma.MaskedArray)
    np.testing.assert_allclose(np.ma.filled(masked, 0), np.ma.filled(want, 0))
    # the chunks the workers hold are cunumpy arrays
    kinds = client.compute([dask.delayed(lambda b: (type(b).__module__,
                                                    os.getpid()))(b)
                            for b in (da.sin(d) * d).to_delayed().ravel()],
                           sync=True)
    assert {k for k, _ in kinds} == {"cunumpy._ndarray"}
    assert {p for _, p in kinds} <= set(pids.values())


def test_local_cluster_backend_random(client):
    with dask.config.set({"array.backend": "cunumpy"}):
        r = da.random.default_rng(11).random((40, 30), chunks=(10, 15))
        o = da.ones((40, 30), chunks=(10, 15))
    local = np.asarray(r.compute(scheduler="sync"))
    got = client.compute(r + o, sync=True)
    assert isinstance(got, xp.ndarray)
    np.testing.assert_array_equal(np.asarray(got), local + 1.0)
