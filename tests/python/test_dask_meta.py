"""Every public function of dask.array run over cunumpy chunks: the result's
meta and its computed chunks are cunumpy arrays and its values equal the
same call over NumPy chunks. A new public name of dask.array fails the
coverage test until it is walked here or listed as taking no chunks.
Where Dask itself builds a NumPy meta (no dispatch or meta registration
exists for the case) the case is a strict xfail naming Dask's code."""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
from dask.array.ufunc import ufunc as _dask_ufunc  # noqa: E402

import cunumpy as xp  # noqa: E402
import cunumpy.dask  # noqa: E402,F401

H = np.arange(24.0).reshape(4, 6) - 7.5
V = np.array([3.0, -1.0, 2.0, 0.5, 2.0, -4.0])


class Data:
    """The inputs, as Dask arrays of cunumpy or of NumPy chunks."""

    def __init__(self, wrap):
        self.wrap = wrap
        self.x = self.arr(H, 2)
        self.v = self.arr(V, 2)
        self.i = self.arr(np.array([0, 2, 1, 3, 2, 0]), 3)

    def arr(self, host, chunks):
        return da.from_array(self.wrap(host), chunks=chunks, asarray=False)


CASES = {
    "mask_indexing": lambda d: d.x[d.x > 0],
    "histogram": lambda d: da.histogram(d.v, bins=3, range=(-4, 4))[0],
    "histogram2d": lambda d: da.histogram2d(d.v, d.v, bins=2,
                                            range=[(-4, 4), (-4, 4)])[0],
    "histogramdd": lambda d: da.histogramdd(d.x[:, :2], bins=2,
                                            range=[(-8, 16)] * 2)[0],
    "apply_along_axis": lambda d: da.apply_along_axis(lambda r: r * 2, 1,
                                                      d.x),
    "apply_over_axes": lambda d: da.apply_over_axes(np.sum, d.x, 0),
    "nonzero": lambda d: da.nonzero(d.v)[0],
    "argwhere": lambda d: da.argwhere(d.x),
    "flatnonzero": lambda d: da.flatnonzero(d.x),
    "where": lambda d: da.where(d.x > 0, d.x, 0.0),
    "extract": lambda d: da.extract(d.x > 0, d.x),
    "ravel_multi_index": lambda d: da.ravel_multi_index(
        da.stack([d.i, d.i]), (4, 4)),
    "cumsum": lambda d: da.cumsum(d.x, axis=1),
    "cumsum_blelloch": lambda d: da.cumsum(d.x, axis=1, method="blelloch"),
    "angle": lambda d: da.angle(d.x, deg=True),
    "diagonal": lambda d: da.diagonal(d.x, 1),
    "trace": lambda d: da.trace(d.x),
    "gradient": lambda d: da.gradient(d.v),
    "isin": lambda d: da.isin(d.v, d.wrap(np.array([2.0, 0.5]))),
    "searchsorted": lambda d: da.searchsorted(d.arr(np.array([0.0, 2.0]), 2),
                                              d.v),
    "unique": lambda d: da.unique(d.v),
    "compress": lambda d: da.compress([True, False, True, True], d.x, 0),
    "piecewise": lambda d: da.piecewise(d.v, [d.v < 1], [0.0, 1.0]),
    "select": lambda d: da.select([d.v < 1], [d.v]),
    "choose": lambda d: da.choose(d.i % 2, [d.v, -d.v]),
    "digitize": lambda d: da.digitize(d.v, d.wrap(np.array([0.0, 2.0]))),
    "bincount": lambda d: da.bincount(d.i),
    "cov": lambda d: da.cov(d.x), "corrcoef": lambda d: da.corrcoef(d.x),
    "diff": lambda d: da.diff(d.x), "ediff1d": lambda d: da.ediff1d(d.v),
    "topk": lambda d: da.topk(d.v, 2), "argtopk": lambda d: da.argtopk(d.v, 2),
    "percentile": lambda d: da.percentile(d.v, [50.0]),
    "median": lambda d: da.median(d.x, axis=0),
    "average": lambda d: da.average(d.x, axis=1, weights=d.v),
    "moment": lambda d: da.moment(d.v, 2),
    "tril": lambda d: da.tril(d.x), "triu": lambda d: da.triu(d.x),
    "diag": lambda d: da.diag(d.v), "outer": lambda d: da.outer(d.v, d.v),
    "dot": lambda d: da.dot(d.x, d.x.T), "vdot": lambda d: da.vdot(d.v, d.v),
    "tensordot": lambda d: da.tensordot(d.x, d.x, axes=([1], [1])),
    "einsum": lambda d: da.einsum("ij,ij->i", d.x, d.x),
    "pad": lambda d: da.pad(d.x, 1, mode="reflect"),
    "insert": lambda d: da.insert(d.v, 1, 5.0, axis=0),
    "delete": lambda d: da.delete(d.v, 1, axis=0),
    "roll": lambda d: da.roll(d.x, 2, axis=1),
    "rot90": lambda d: da.rot90(d.x),
    "coarsen": lambda d: da.coarsen(np.sum, d.x, {0: 2, 1: 2}),
    "map_overlap": lambda d: d.x.map_overlap(lambda b: b * 1, depth=1),
    "nan_to_num": lambda d: da.nan_to_num(d.x),
    "frexp": lambda d: da.frexp(d.x)[0], "modf": lambda d: da.modf(d.x)[1],
    "shuffle": lambda d: da.shuffle(d.v, [[0, 1], [2, 3, 4, 5]], axis=0),
    "push": lambda d: pytest.importorskip("bottleneck") and da.push(da.where(d.v > 0, d.v, np.nan), 1, axis=0),
    "union1d": lambda d: da.union1d(d.v, d.v),
    "ptp": lambda d: da.ptp(d.x, axis=0),
    "count_nonzero": lambda d: da.count_nonzero(d.x, axis=0),
}
# Reductions, ufuncs and shape functions taking one array.
for _n in ("all any argmax argmin max mean min nanargmax nanargmin "
           "nancumprod nancumsum nanmax nanmean nanmedian nanmin nanprod "
           "nanstd nansum nanvar prod std sum var cumprod").split():
    CASES[_n] = (lambda n: lambda d: getattr(da, n)(d.x, axis=0))(_n)
for _n in ("nanpercentile", "nanquantile", "quantile"):
    CASES[_n] = (lambda n: lambda d: getattr(da, n)(
        d.x, 0.5 if "quantile" in n else 50.0, axis=0))(_n)
for _n in ("atleast_1d atleast_2d atleast_3d fliplr flipud ravel squeeze "
           "transpose real imag iscomplex isreal isneginf isposinf fix "
           "around round i0 sinc conj").split():
    CASES[_n] = (lambda n: lambda d: getattr(da, n)(d.x))(_n)
CASES.update({
    "flip": lambda d: da.flip(d.x, 0), "clip": lambda d: da.clip(d.x, -1, 1),
    "expand_dims": lambda d: da.expand_dims(d.x, 0),
    "moveaxis": lambda d: da.moveaxis(d.x, 0, 1),
    "rollaxis": lambda d: da.rollaxis(d.x, 1),
    "swapaxes": lambda d: da.swapaxes(d.x, 0, 1),
    "reshape": lambda d: da.reshape(d.x, (24,)),
    "reshape_blockwise": lambda d: da.reshape_blockwise(d.x, (24,)),
    "repeat": lambda d: da.repeat(d.x, 2, axis=0),
    "tile": lambda d: da.tile(d.v, 2), "append": lambda d: da.append(d.v, d.v),
    "broadcast_to": lambda d: da.broadcast_to(d.v, (3, 6)),
    "broadcast_arrays": lambda d: da.broadcast_arrays(d.v, d.x)[0],
    "meshgrid": lambda d: da.meshgrid(d.v, d.v)[1],
    "stack": lambda d: da.stack([d.v, d.v]),
    "concatenate": lambda d: da.concatenate([d.x, d.x]),
    "block": lambda d: da.block([[d.x, d.x]]),
    "hstack": lambda d: da.hstack([d.x, d.x]),
    "vstack": lambda d: da.vstack([d.x, d.x]),
    "dstack": lambda d: da.dstack([d.x, d.x]),
    "take": lambda d: da.take(d.x, [0, 2], axis=1),
    "isclose": lambda d: da.isclose(d.x, d.x),
    "allclose": lambda d: da.allclose(d.x, d.x),
    "ldexp": lambda d: da.ldexp(d.v, d.i),
    "matmul": lambda d: da.matmul(d.x, d.x.T),
    "rechunk": lambda d: d.x.rechunk(3),
    "unravel_index": lambda d: da.unravel_index(d.i, (2, 2))[0],
    "divmod": lambda d: da.divmod(d.x, 3.0)[0],
    "tril_indices_from": lambda d: da.tril_indices_from(d.x)[0],
    "triu_indices_from": lambda d: da.triu_indices_from(d.x)[0],
    "ones_like": lambda d: da.ones_like(d.x),
    "zeros_like": lambda d: da.zeros_like(d.x),
    "empty_like": lambda d: da.empty_like(d.x) * 0,
    "full_like": lambda d: da.full_like(d.x, 2.0),
    "map_blocks": lambda d: da.map_blocks(np.sin, d.x),
    "blockwise": lambda d: da.blockwise(np.add, "ij", d.x, "ij", d.x, "ij"),
    "apply_gufunc": lambda d: da.apply_gufunc(
        lambda a: a.sum(axis=-1), "(i)->()", d.x.rechunk((2, 6))),
    "reduction": lambda d: da.reduction(d.x, np.sum, np.sum, axis=0,
                                        dtype=d.x.dtype),
})
for _n in dir(da):
    if isinstance(getattr(da, _n), _dask_ufunc) and _n not in CASES:
        _u = getattr(da, _n)
        CASES[_n] = (lambda u: lambda d: u(*[d.x] * u.nin) if u.nout == 1
                     else u(*[d.x] * u.nin)[0])(_u)
CASES["invert"] = CASES["bitwise_not"] = lambda d: da.invert(d.i)
for _n in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
           "right_shift"):
    CASES[_n] = (lambda n: lambda d: getattr(da, n)(d.i, d.i % 3))(_n)

# Creation functions: made on the "cunumpy" array backend.
CREATION = {
    "ones": lambda: da.ones((4, 6), chunks=2),
    "zeros": lambda: da.zeros((4, 6), chunks=2),
    "empty": lambda: da.empty((4, 6), chunks=2) * 0,
    "full": lambda: da.full((4, 6), 2.0, chunks=2),
    "arange": lambda: da.arange(6, chunks=2),
    "eye": lambda: da.eye(4, chunks=2),
    "linspace": lambda: da.linspace(0, 1, 5, chunks=2),
    "indices": lambda: da.indices((2, 3), chunks=2),
    "fromfunction": lambda: da.fromfunction(lambda i, j: i + j, shape=(2, 3),
                                            chunks=2, dtype=float),
    "tri": lambda: da.tri(3, chunks=2),
    "tril_indices": lambda: da.tril_indices(3, chunks=2)[0],
    "triu_indices": lambda: da.triu_indices(3, chunks=2)[0],
}

# Public names that take no chunks (I/O, scheduling, types, helpers).
NO_CHUNKS = set(
    "Array PerformanceWarning array_expr_enabled as_gufunc asanyarray "
    "asarray array assert_eq atop compute from_array from_delayed "
    "from_npy_stack from_tiledb from_zarr frompyfunc gufunc isnull notnull "
    "optimize register_chunk_type result_type shape ndim store to_hdf5 "
    "to_npy_stack to_tiledb to_zarr unify_chunks bool complex128 complex64 "
    "float32 float64 int16 int32 int64 int8 uint16 uint32 uint64 uint8 "
    "abs".split())  # abs: the absolute ufunc, walked there

_DASK = "Dask builds this meta with NumPy and has no dispatch for it: "
NUMPY_META = {
    "mask_indexing": _DASK + "slicing.slice_with_bool_dask_array makes "
                     "Array(graph, name, chunks, dtype) without meta",
    "extract": _DASK + "compress of a boolean mask "
               "(slice_with_bool_dask_array)",
    "histogram": _DASK + "routines.histogram makes Array(...) without meta",
    "histogram2d": _DASK + "routines.histogramdd makes Array(...) without "
                   "meta",
    "histogramdd": _DASK + "routines.histogramdd makes Array(...) without "
                   "meta",
    "apply_along_axis": _DASK + "routines.apply_along_axis takes its meta "
                        "from func1d(np.ones(...))",
    "apply_over_axes": _DASK + "apply_along_axis's NumPy meta",
    "nonzero": _DASK + "routines.argwhere indexes da.indices, NumPy chunks",
    "argwhere": _DASK + "routines.argwhere indexes da.indices, NumPy chunks",
    "flatnonzero": _DASK + "routines.argwhere's NumPy chunks",
    "ravel_multi_index": _DASK + "routines.ravel_multi_index passes "
                         "meta=np.empty(...)",
    "coarsen": _DASK + "routines.coarsen takes its meta from the reduction "
               "of np.empty((1,) * ndim)",
    "insert": _DASK + "routines.insert makes the inserted values with "
              "asarray, NumPy chunks",
    "cumsum_blelloch": _DASK + "reductions.prefixscan_blelloch makes "
                       "Array(...) without meta",
    "gradient": _DASK + "routines.gradient's map_overlap has a NumPy meta",
    "tril_indices_from": _DASK + "creation.tril_indices uses np.arange",
    "triu_indices_from": _DASK + "creation.triu_indices uses np.arange",
    "eye": "the array backend entry point has no eye (Dask's creation.eye "
           "uses np.eye)",
    "linspace": "the array backend entry point has no linspace",
}


def test_every_public_function_of_dask_array_is_walked():
    public = {n for n in dir(da) if not n.startswith("_") and
              callable(getattr(da, n)) and
              not isinstance(getattr(da, n), type(da))}
    missing = public - set(CASES) - set(CREATION) - NO_CHUNKS
    assert not missing, sorted(missing)
    assert not (set(NUMPY_META) - set(CASES) - set(CREATION))


def _check(got, want):
    assert isinstance(got._meta, xp.ndarray), type(got._meta)
    for block in got.to_delayed().ravel():
        b = block.compute(scheduler="sync")
        assert isinstance(b, xp.ndarray), type(b)
    g, w = got.compute(scheduler="sync"), want.compute(scheduler="sync")
    assert isinstance(g, xp.ndarray), type(g)
    np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-10,
                               atol=1e-10, equal_nan=True)


def _mark(names):
    return [pytest.param(n, marks=pytest.mark.xfail(
        reason=NUMPY_META[n], strict=True)) if n in NUMPY_META else n
        for n in sorted(names)]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", _mark(CASES))
def test_result_keeps_cunumpy_meta_and_chunks(name):
    make = CASES[name]
    _check(make(Data(xp.asarray)), make(Data(lambda h: h)))


@pytest.mark.parametrize("name", _mark(CREATION))
def test_backend_creation_keeps_cunumpy_meta_and_chunks(name):
    import dask
    from dask.array.backends import array_creation_dispatch
    try:
        array_creation_dispatch.dispatch("cunumpy")
    except ValueError:
        array_creation_dispatch.register_backend(
            "cunumpy", cunumpy.dask.CunumpyBackendEntrypoint())
    want = CREATION[name]()
    with dask.config.set({"array.backend": "cunumpy"}):
        got = CREATION[name]()
    _check(got, want)
