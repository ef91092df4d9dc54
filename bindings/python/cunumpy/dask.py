"""cunumpy.dask: cunumpy arrays as the chunks of Dask arrays.

    import cunumpy.dask                      # registers cunumpy with Dask
    x = dask.array.from_array(cunumpy_array, chunks=..., asarray=False)

    with dask.config.set({"array.backend": "cunumpy"}):
        y = dask.array.ones((1000, 1000), chunks=250)        # cunumpy chunks
        z = dask.array.random.default_rng(0).random((1000,))

Importing this module registers ndarray as a Dask chunk type (Dask then
does not defer to it in mixed operations) and cunumpy's functions with
Dask's per-chunk dispatch tables (concatenate, tensordot, einsum, take,
empty, percentile, to_numpy); everything else Dask runs on chunks
reaches cunumpy through __array_function__/__array_ufunc__ (numpy.linalg
and numpy.fft functions run cunumpy.linalg's and cunumpy.fft's).
dask.array.fft's transforms of cunumpy chunks get a cunumpy meta (the
module's functions are wrapped on import, see _keep_cunumpy_meta).
cunumpy has no masked array type: dask.array.ma on host cunumpy chunks
makes NumPy masked arrays (chunks and meta numpy.ma.MaskedArray); on
device chunks its functions raise TypeError (x.to_backend("numpy") first).
Dask has no dispatch or meta registration for either, so both are done by
replacing the functions in dask.array.fft and dask.array.ma on import: a
name bound before cunumpy.dask was imported (``from dask.array.fft import
fft`` first) keeps Dask's original, which gives a NumPy meta (its chunks
are still cunumpy arrays). Import cunumpy.dask first.
Other places where Dask itself builds a NumPy meta or NumPy chunks from
cunumpy chunks, with no dispatch to register into (boolean-mask indexing,
histogram/histogram2d/histogramdd, apply_along_axis, argwhere/nonzero,
coarsen, insert, ravel_multi_index, the blelloch cumsum, gradient, and the
eye/linspace creation functions, which the array backend entry point does
not cover), are listed in tests/python/test_dask_meta.py, which walks
every public function of dask.array over cunumpy chunks.
The array backend "cunumpy" is CunumpyBackendEntrypoint, declared as a "dask.array.backends" entry
point in the package metadata (pyproject.toml), so Dask finds it in an
installed cunumpy; from a source tree without metadata, register it with
array_creation_dispatch.register_backend("cunumpy",
CunumpyBackendEntrypoint()).
"""

import functools as _functools

import numpy as _np
import dask.array as _da
import dask.array.fft as _da_fft
import dask.array.ma as _da_ma
from dask import config as _config
from dask.array import chunk_types as _chunk_types
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.backends import percentile as _dask_percentile
from dask.array.dispatch import (concatenate_lookup, einsum_lookup,
                                 empty_lookup, percentile_lookup,
                                 take_lookup, tensordot_lookup,
                                 to_numpy_dispatch)
from dask.utils import Dispatch

import cunumpy as _cn
from cunumpy._convert import _on_cpu

__all__ = ["CunumpyBackendEntrypoint", "register", "to_cunumpy_dispatch"]

# Converts a chunk to a cunumpy array (Array.to_backend("cunumpy")).
to_cunumpy_dispatch = Dispatch("to_cunumpy_dispatch")


@to_cunumpy_dispatch.register(_cn.ndarray)
def _cunumpy_to_cunumpy(data, **kwargs):
    return data


@to_cunumpy_dispatch.register((object, _np.ndarray))
def _any_to_cunumpy(data, **kwargs):
    return _cn.asarray(data, **kwargs)


def _cunumpy_to_numpy(data, **kwargs):
    return _cn.to_numpy(data)


def register():
    """Registers ndarray with Dask as a chunk type and cunumpy's functions
    in Dask's per-chunk dispatch tables; running it again does nothing."""
    if _chunk_types.is_valid_chunk_type(_cn.ndarray):
        return
    _chunk_types.register_chunk_type(_cn.ndarray)
    concatenate_lookup.register(_cn.ndarray, _cn.concatenate)
    tensordot_lookup.register(_cn.ndarray, _cn.tensordot)
    einsum_lookup.register(_cn.ndarray, _cn.einsum)
    take_lookup.register(_cn.ndarray, _cn.take)
    empty_lookup.register(_cn.ndarray, _cn.empty)
    # Dask's chunk percentile is written in NumPy calls, which reach cunumpy
    percentile_lookup.register(_cn.ndarray, _dask_percentile)
    to_numpy_dispatch.register(_cn.ndarray, _cunumpy_to_numpy)
    _wrap_fft_transforms()
    _wrap_masked_functions()


# dask.array.fft's transforms take their meta from a transform of the
# input's zero-size meta, which no FFT accepts (NumPy's raises too), so
# they fall back to a NumPy meta; Dask has no dispatch for it. Each is
# wrapped once, in place: for an input with a cunumpy meta the result gets
# a zero-size cunumpy meta of its dtype (same graph, same chunks); any
# other input gets the original's result unchanged.
_FFT_TRANSFORMS = ("fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "rfft",
                   "rfft2", "rfftn", "irfft", "irfft2", "irfftn", "hfft",
                   "ihfft")


def _keep_cunumpy_meta(transform):
    @_functools.wraps(transform)
    def wrapped(a, *args, **kwargs):
        out = transform(a, *args, **kwargs)
        meta = getattr(a, "_meta", None)
        if isinstance(meta, _cn.ndarray) and \
                not isinstance(out._meta, _cn.ndarray):
            out = _da.Array(out.dask, out.name, out.chunks,
                            meta=_cn.empty_like(meta, shape=(0,) * out.ndim,
                                                dtype=out.dtype))
        return out
    wrapped._cunumpy_meta = True
    return wrapped


def _wrap_fft_transforms():
    for name in _FFT_TRANSFORMS:
        transform = getattr(_da_fft, name)
        if not getattr(transform, "_cunumpy_meta", False):
            setattr(_da_fft, name, _keep_cunumpy_meta(transform))


# cunumpy has no masked array type, so dask.array.ma makes NumPy masked
# arrays of the chunks. Of host chunks that is NumPy's own computation;
# device chunks would reach NumPy through __array__, which copies some and
# refuses others (a no-copy request), so for them each function of
# dask.array.ma refuses up front and says how to move them to the host.
_MASKED_FUNCTIONS = (
    "average", "count", "empty_like", "filled", "fix_invalid", "getdata",
    "getmaskarray", "masked_array", "masked_equal", "masked_greater",
    "masked_greater_equal", "masked_inside", "masked_invalid", "masked_less",
    "masked_less_equal", "masked_not_equal", "masked_outside",
    "masked_values", "masked_where", "nonzero", "ones_like",
    "set_fill_value", "where", "zeros_like")


def _refuse_device_chunks(function, name):
    @_functools.wraps(function)
    def wrapped(*args, **kwargs):
        for x in (*args, *kwargs.values()):
            meta = x if isinstance(x, _cn.ndarray) else \
                getattr(x, "_meta", None)
            if isinstance(meta, _cn.ndarray) and not _on_cpu(meta):
                raise TypeError(
                    f"dask.array.ma.{name}: cunumpy has no masked arrays and "
                    f"does not copy chunks on {meta.device} to the host "
                    f"implicitly; move them first with x.to_backend('numpy')")
        return function(*args, **kwargs)
    wrapped._cunumpy_checked = True
    return wrapped


def _wrap_masked_functions():
    for name in _MASKED_FUNCTIONS:
        function = getattr(_da_ma, name, None)
        if function is not None and \
                not getattr(function, "_cunumpy_checked", False):
            setattr(_da_ma, name, _refuse_device_chunks(function, name))


def _with_cunumpy_meta(name, *args, meta=None, **kwargs):
    # Dask's own creation function, building chunks like a cunumpy meta.
    meta = _cn.empty(()) if meta is None else meta
    with _config.set({"array.backend": "numpy"}):
        return getattr(_da, name)(*args, meta=meta, **kwargs)


class CunumpyBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend "cunumpy": creation functions (ones, zeros,
    empty, full, arange) and random numbers (default_rng, RandomState)
    make cunumpy chunks on cunumpy's active backend."""

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        return to_cunumpy_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, _cn.ndarray):
            return data
        return data.map_blocks(to_cunumpy_dispatch, **kwargs)

    @property
    def RandomState(self):
        return _cn.random.RandomState

    @property
    def default_bit_generator(self):
        return _cn.random.Philox4x32

    @staticmethod
    def ones(*args, **kwargs):
        return _with_cunumpy_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_cunumpy_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_cunumpy_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_cunumpy_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        like = _cn.empty(()) if like is None else like
        with _config.set({"array.backend": "numpy"}):
            return _da.arange(*args, like=like, **kwargs)


register()

from . import _docstrings  # noqa: E402
_docstrings.apply(__import__("sys").modules[__name__])  # from the C headers
