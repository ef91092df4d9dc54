"""cunumpy.ndarray: the NumPy-compatible array type.

The class subclasses the low-level ``_cnlib.Handle`` (a C type owning one
cn_array reference), which already implements the hot paths in C: every
arithmetic, bitwise and comparison operator (also in place and reflected),
basic indexing (ints, slices, Ellipsis, None, negative steps), len(), the
buffer protocol and the shape/strides/size attributes. This file adds the
rest of NumPy's ndarray interface in Python.
"""

import sys as _sys

import numpy as _np

from . import _cnlib as _lib

builtins_type = type
from . import _dtypes

_CPU = _lib.CN_DEVICE_CPU
_CUDA = _lib.CN_DEVICE_CUDA


class Device:
    """Where an array lives: ``cpu`` or ``cuda:N`` (Array API device)."""

    __slots__ = ("type", "id")

    def __init__(self, type_="cpu", id_=0):
        self.type = type_
        self.id = id_

    @classmethod
    def _of(cls, dev):
        t, i = dev
        return cls("cuda", i) if t == _CUDA else cls("cpu", 0)

    def __eq__(self, other):
        if isinstance(other, str):
            other = parse_device(other)
        return (isinstance(other, Device) and self.type == other.type
                and self.id == other.id)

    def __hash__(self):
        return hash((self.type, self.id))

    def __repr__(self):
        return "cpu" if self.type == "cpu" else f"cuda:{self.id}"

    __str__ = __repr__


def parse_device(device):
    """Device from None, a Device, 'cpu', 'cuda', 'cuda:N', 'gpu', or an int
    (a CUDA ordinal)."""
    if device is None or isinstance(device, Device):
        return device
    if isinstance(device, int):
        return Device("cuda", device)
    if isinstance(device, str):
        name, _, num = device.partition(":")
        if name in ("cpu", "numpy", "host"):
            return Device("cpu", 0)
        if name in ("cuda", "gpu", "cupy"):
            return Device("cuda", int(num) if num else 0)
    raise ValueError(f"unknown device {device!r}")


class Flags:
    """Memory layout flags (NumPy's ndarray.flags, read-only)."""

    __slots__ = ("_bits",)

    def __init__(self, bits):
        self._bits = bits

    c_contiguous = property(lambda s: bool(s._bits & _lib.CN_FLAG_C_CONTIGUOUS))
    f_contiguous = property(lambda s: bool(s._bits & _lib.CN_FLAG_F_CONTIGUOUS))
    writeable = property(lambda s: bool(s._bits & _lib.CN_FLAG_WRITEABLE))
    owndata = property(lambda s: bool(s._bits & _lib.CN_FLAG_OWNDATA))
    contiguous = c_contiguous
    fortran = f_contiguous

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
             "CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
             "F": "f_contiguous", "FORTRAN": "f_contiguous",
             "WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata",
             "O": "owndata"}

    def __getitem__(self, key):
        return getattr(self, self._KEYS[key.upper()])

    def __repr__(self):
        return "\n".join(f"  {k} : {self[k]}" for k in
                         ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA",
                          "WRITEABLE"))


def _scalar_value(a, what):
    if a.size != 1:
        raise TypeError(f"only length-1 arrays can be converted to Python "
                        f"scalars ({what})")
    return _lib.cn_item(a)


class ndarray(_lib.Handle):
    """An n-d array on the CPU or a CUDA device (NumPy's ndarray API)."""

    __slots__ = ()
    # NumPy defers to us in mixed operations (see __array_ufunc__).
    __array_priority__ = 100.0

    def __new__(cls, shape, dtype=float, order="C"):
        return F.empty(shape, dtype=dtype, order=order)

    # ---- attributes ----------------------------------------------------
    # dtype, T, shape, strides, ndim, size, itemsize, nbytes and copy() are
    # C slots of Handle.

    @property
    def device(self):
        return Device._of(self._device)

    @property
    def flags(self):
        return Flags(self._flags)

    @property
    def data(self):
        """Where element 0 is, as CuPy's MemoryPointer: .ptr (an int) and
        .device_id (-1 for host memory); it keeps the array alive."""
        from .cuda import MemoryPointer
        t, i = self._device
        return MemoryPointer(self._data_ptr, i if t == _CUDA else -1, self)

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return _lib.cn_swapaxes(self, -1, -2)

    @property
    def real(self):
        """The real part: a view for complex arrays (writes go to the
        array, as NumPy's), the array itself otherwise (NumPy's too)."""
        if _dtypes.kind(self._dtype_code) == _lib.CN_KIND_COMPLEX:
            return _lib.cn_complex_part_view(self, 0)
        return self

    @real.setter
    def real(self, value):
        self.real[...] = value

    @property
    def imag(self):
        """The imaginary part: a view for complex arrays; for real arrays
        a read-only array of zeros, as NumPy's."""
        if _dtypes.kind(self._dtype_code) == _lib.CN_KIND_COMPLEX:
            return _lib.cn_complex_part_view(self, 1)
        z = _lib.cn_imag(self, None)
        return _lib.cn_readonly_view(z)

    @imag.setter
    def imag(self, value):
        if _dtypes.kind(self._dtype_code) != _lib.CN_KIND_COMPLEX:
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    @property
    def flat(self):
        return _lib.cn_ravel(self, "C")

    @property
    def __cuda_array_interface__(self):
        """CUDA Array Interface v3. Arrays do not record the stream of the
        work that produced them, so "stream" is the thread's current stream
        (as CuPy reports it): 1 the legacy default stream, 2 the per-thread
        default stream, else its cudaStream_t."""
        t, _ = self._device
        if t != _CUDA:
            raise AttributeError("__cuda_array_interface__ is only defined "
                                 "for arrays on a CUDA device")
        itemsize = self.itemsize
        strides = None if self._flags & _lib.CN_FLAG_C_CONTIGUOUS else \
            self.strides
        return {"shape": self.shape, "typestr": self.dtype.str,
                "descr": [("", self.dtype.str)],
                "data": (self._data_ptr if self.size else 0,
                         not self._flags & _lib.CN_FLAG_WRITEABLE),
                "strides": strides, "version": 3,
                "stream": _lib.cn_cuda_current_stream_number(),
                "_itemsize": itemsize}

    # ---- conversions ----------------------------------------------------
    # bool(), int(), float() and operator.index() are C slots of Handle.

    def __complex__(self):
        return complex(_scalar_value(self, "complex"))

    def __format__(self, spec):
        if self.ndim == 0:
            return format(_lib.cn_item(self), spec)
        return format(str(self), spec)

    def item(self, *args):
        """The element at args (flat index or index tuple) as a Python
        scalar; no args needs a size-1 array."""
        if not args:
            return _lib.cn_item(self)
        if len(args) == 1 and isinstance(args[0], int):
            return _lib.cn_item(_lib.cn_ravel(self, "C")[args[0]])
        key = args[0] if len(args) == 1 else args
        return _lib.cn_item(self[key])

    def get(self, stream=None, order="C", out=None):
        """Copy to a NumPy array (CuPy's get(); on the CPU a copy too)."""
        res = _np.array(F.to_host_view(self), order=order, copy=True)
        if out is not None:
            out[...] = res
            return out
        return res

    def tofile(self, fid, sep="", format="%s"):
        """Writes the elements to a file as NumPy's tofile does (binary in
        C order, or text with sep), from a host copy."""
        F._npyio.tofile(self, fid, sep=sep, format=format)

    def __array__(self, dtype=None, copy=None):
        host = F.to_host_view(self)
        if host is not self and copy is False:
            raise ValueError("a copy is needed to make a NumPy array of a "
                             "device array")
        res = _np.asarray(memoryview(host))
        if dtype is not None and _np.dtype(dtype) != res.dtype:
            if copy is False:
                raise ValueError("a copy is needed to convert the dtype")
            return res.astype(dtype)
        return res.copy() if copy else res

    def __array_namespace__(self, *, api_version=None):
        if api_version is not None and api_version not in (
                "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"unsupported API version {api_version!r}")
        import cunumpy
        return cunumpy

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return F.numpy_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return F.numpy_function(func, types, args, kwargs)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        return F.to_dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        t, i = self._device
        return (t, i)

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __copy__(self):
        return _lib.cn_copy(self, "K")

    def __deepcopy__(self, memo=None):
        return _lib.cn_copy(self, "K")

    def __reduce__(self):
        # NumPy's pickles keep an F-contiguous layout (a.T of a C array
        # comes back F-contiguous); anything else comes back C-contiguous.
        # get() copies to C order, so an F layout is restored before NumPy
        # pickles the host copy, and asarray keeps it. Device arrays travel
        # as that host copy and come back on the device they left (an
        # unpickling process without CUDA raises CudaUnavailableError).
        host = self.get()
        flags = self.flags
        if flags.f_contiguous and not flags.c_contiguous:
            host = _np.asfortranarray(host)
        return (_from_pickle, (host, str(self.device)))

    # ---- container protocol ----------------------------------------------
    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (_lib.cn_index_axis(self, 0, i) for i in range(self.shape[0]))

    def __contains__(self, value):
        return bool(_lib.cn_any(self == value, None, False, None, None))

    # ---- operators not covered by the C slots ------------------------------
    def __divmod__(self, other):
        return (self // other, self % other)

    def __rdivmod__(self, other):
        return (other // self, other % self)

    def __matmul__(self, other):
        if getattr(other, "_cn_sparse", False):
            return NotImplemented  # cunumpy.sparse's __rmatmul__
        return F.matmul(self, other)

    def __rmatmul__(self, other):
        return F.matmul(other, self)

    def __imatmul__(self, other):
        return F.matmul(self, other, out=self)

    # ---- methods ------------------------------------------------------------
    # reshape(), ravel() and tolist() are C methods of Handle.

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0],
                                                                 int)):
            axes = axes[0]
        return F.transpose(self, axes if axes else None)

    def swapaxes(self, axis1, axis2):
        return _lib.cn_swapaxes(self, axis1, axis2)

    def astype(self, dtype, order="K", casting="unsafe", subok=True,
               copy=True, device=None):
        if casting == "unsafe" and device is None:
            return _lib.cn_astype(self, dtype, bool(copy))
        return F.astype(self, dtype, copy=copy, casting=casting, order=order,
                        device=device)

    def view(self, dtype=None, type=None):
        if type is not None and not (isinstance(type, builtins_type) and
                                     issubclass(type, ndarray)):
            raise TypeError("view: type must be a cunumpy ndarray type")
        if dtype is None or _dtypes.to_code(dtype) == self._dtype_code:
            return self[...]
        return _lib.cn_view_dtype(self, _dtypes.to_code(dtype))

    def flatten(self, order="C"):
        return _lib.cn_flatten(self, order)

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def fill(self, value):
        F._convert._check_int_fits(value, self._dtype_code)
        _lib.cn_fill(self, value)

    def to_device(self, device, /, *, stream=None):
        return F.to_device(self, device, stream=stream)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        if kw:
            return F.sum(self, axis=axis, dtype=dtype, out=out,
                         keepdims=keepdims, **kw)
        return _lib.cn_sum(self, axis, keepdims, dtype, out)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return F.prod(self, axis=axis, dtype=dtype, out=out,
                      keepdims=keepdims, **kw)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        if kw:
            return F.mean(self, axis=axis, dtype=dtype, out=out,
                          keepdims=keepdims, **kw)
        return _lib.cn_mean(self, axis, keepdims, dtype, out)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False,
            **kw):
        return F.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof,
                     keepdims=keepdims, **kw)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False,
            **kw):
        return F.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof,
                     keepdims=keepdims, **kw)

    def min(self, axis=None, out=None, keepdims=False, **kw):
        if kw:
            return F.min(self, axis=axis, out=out, keepdims=keepdims, **kw)
        return _lib.cn_min(self, axis, keepdims, None, out)

    def max(self, axis=None, out=None, keepdims=False, **kw):
        if kw:
            return F.max(self, axis=axis, out=out, keepdims=keepdims, **kw)
        return _lib.cn_max(self, axis, keepdims, None, out)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _lib.cn_argmin(self, axis, keepdims, out)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _lib.cn_argmax(self, axis, keepdims, out)

    def any(self, axis=None, out=None, keepdims=False, **kw):
        return F.any(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def all(self, axis=None, out=None, keepdims=False, **kw):
        return F.all(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _lib.cn_cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return F.cumprod(self, axis=axis, dtype=dtype, out=out)

    def clip(self, min=None, max=None, out=None, **kw):
        return F.clip(self, min, max, out=out, **kw)

    def round(self, decimals=0, out=None):
        return F.round(self, decimals, out=out)

    def conj(self):
        return _lib.cn_conj(self, None)

    conjugate = conj

    def nonzero(self):
        return F.nonzero(self)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return F.take(self, indices, axis=axis, out=out, mode=mode)

    def put(self, indices, values, mode="raise"):
        return F.put(self, indices, values, mode=mode)

    def dot(self, b, out=None):
        return F.dot(self, b, out=out)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return F.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return F.trace(self, offset, axis1, axis2, dtype=dtype, out=out)

    def repeat(self, repeats, axis=None):
        return F.repeat(self, repeats, axis=axis)

    def sort(self, axis=-1, kind=None, order=None):
        self[...] = F.sort(self, axis=axis)

    def argsort(self, axis=-1, kind=None, order=None):
        return F.argsort(self, axis=axis)


# The methods call the namespace's functions, looked up in the package
# (which imports this module first) at call time: every layer of the
# namespace imports ndarray from here, so none can be imported here.
F = _sys.modules[__package__]


def _from_pickle(host, device):
    """The array a pickle holds: its host copy on `device`."""
    return F.asarray(host, device=device)
