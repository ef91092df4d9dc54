"""cunumpy: a NumPy/CuPy-style array library on the cunumpy C engine.

    import cunumpy as xp
    a = xp.arange(10.0)
    b = xp.sin(a) * 2 + 1
    xp.to_numpy(b.sum())

The namespace follows NumPy (function names, dtype objects: ``xp.float64 is
numpy.float64``) and the Array API standard 2025.12 (``__array_api_version__``,
``isdtype``, ``result_type``, ``can_cast``, ``finfo``, ``iinfo``,
``__array_namespace_info__``), plus the CuNumpy backend API (``set_backend``,
``use_backend``, ``to_numpy``, ``to_device``...).
"""

import numpy as _np

from . import _blas_env  # before _cnlib loads OpenBLAS: see its docstring
from . import _cnlib
from . import _dtypes
from ._ndarray import Device, Flags, ndarray, parse_device
# The namespace by domain, lowest layer first (each module imports only
# from the ones above it).
from ._convert import *  # noqa: F401,F403
from ._numerictypes import *  # noqa: F401,F403
from ._reduce import *  # noqa: F401,F403
from ._ufunc import *  # noqa: F401,F403
from ._shape import *  # noqa: F401,F403
from ._creation import *  # noqa: F401,F403
from ._index import *  # noqa: F401,F403
from ._sort import *  # noqa: F401,F403
from ._manip import *  # noqa: F401,F403
from ._twodim import *  # noqa: F401,F403
from ._linalg import *  # noqa: F401,F403
from ._calculus import *  # noqa: F401,F403
from ._sets import *  # noqa: F401,F403
from ._stats import *  # noqa: F401,F403
from ._pad import *  # noqa: F401,F403
from ._histogram import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._functional import *  # noqa: F401,F403
from ._window import *  # noqa: F401,F403
from ._npyio import *  # noqa: F401,F403
from ._config import *  # noqa: F401,F403
from ._poly import *  # noqa: F401,F403
from ._interop import *  # noqa: F401,F403
from ._expr import *  # noqa: F401,F403
from ._index_tricks import *  # noqa: F401,F403
from . import _convert, _creation, _index, _shape
from ._ufunc import UFUNCS as _UFUNCS
from ._backend import (BackendError, BackendName, CudaUnavailableError,
                       DeviceError, backend_aliases,
                       backend_supports, backend_unavailable_reason,
                       cuda_available, default_float_dtype, device_count,
                       free_memory, get_array_backend, get_array_module,
                       get_backend, get_device, host_memory_info, is_cpu,
                       is_gpu, memory_info, set_backend, set_device, stream,
                       synchronize, to_cunumpy, to_cupy, to_numpy, use_backend)
from ._backend import (bind_local_device, get_default_memory_pool,
                       get_default_pinned_memory_pool, local_rank,
                       set_device_for_rank, synchronize_for_mpi)
from ._memory import *  # noqa: F401,F403
from . import cuda, profiler
from .cuda import Stream
from ._convert import to_device  # noqa: F811
from ._dtypes import finfo, iinfo, isdtype

# The C entry points empty/zeros/ones/asarray and ndarray.reshape hand the
# calls they do not take themselves to these Python implementations.
_cnlib._set_fast(_dtypes.DTYPE_OF, {"empty": _creation._empty_py,
                                    "zeros": _creation._zeros_py,
                                    "ones": _creation._ones_py,
                                    "asarray": _convert._asarray_py,
                                    "reshape": _shape._reshape_method})

from . import _npyio, exceptions, fft, linalg, random, signal, special, testing
from ._logging import logger  # noqa: F401
from .exceptions import AxisError
from ._kernel import ElementwiseKernel, ReductionKernel  # noqa: F401


def get_rng(seed=None):
    """A random Generator (Philox; the same numbers on every backend)."""
    return random.default_rng(seed)


InternalError = _cnlib.InternalError

__version__ = _cnlib.cn_version()
__array_api_version__ = "2025.12"

# dtypes and scalar types are NumPy's own objects.
bool_ = _np.bool_
bool = _np.bool_  # noqa: A001  (Array API name)
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
half = _np.float16
complex64, complex128 = _np.complex64, _np.complex128
intp, uintp = _np.intp, _np.uintp
# NumPy's C-level names of the same fixed-width types
byte, ubyte, short, ushort = _np.byte, _np.ubyte, _np.short, _np.ushort
intc, uintc, int_, uint = _np.intc, _np.uintc, _np.int_, _np.uint
long, ulong = _np.long, _np.ulong  # noqa: A001
longlong, ulonglong = _np.longlong, _np.ulonglong
double, single = _np.float64, _np.float32
cdouble, csingle = _np.complex128, _np.complex64
dtype = _np.dtype
generic, number, integer, floating = (_np.generic, _np.number, _np.integer,
                                      _np.floating)
signedinteger, unsignedinteger = _np.signedinteger, _np.unsignedinteger
complexfloating, inexact = _np.complexfloating, _np.inexact

newaxis = None
pi, e, inf, nan = _np.pi, _np.e, _np.inf, _np.nan
euler_gamma = _np.euler_gamma


class _ArrayNamespaceInfo:
    """The Array API inspection object (__array_namespace_info__())."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": _cnlib.CN_MAX_DIMS}

    def default_device(self):
        return Device("cuda", get_device()) if get_backend() == "cuda" \
            else Device("cpu", 0)

    def default_dtypes(self, *, device=None):
        return {"real floating": _np.dtype(_np.float64),
                "complex floating": _np.dtype(_np.complex128),
                "integral": _np.dtype(_np.int64),
                "indexing": _np.dtype(_np.int64)}

    def dtypes(self, *, device=None, kind=None):
        res = {}
        for code in _dtypes.CODES:
            dt = _dtypes.DTYPE_OF[code]
            if kind is None or isdtype(dt, kind):
                res[dt.name] = dt
        return res

    def devices(self):
        return (Device("cpu", 0),) + tuple(Device("cuda", i)
                                           for i in range(device_count()))


def __array_namespace_info__():
    """The Array API inspection namespace.

    Returns
    -------
    info : object
        With ``capabilities()``, ``default_device()``, ``default_dtypes()``,
        ``dtypes()`` and ``devices()`` (CUDA devices only when the plugin
        finds one).
    """
    return _ArrayNamespaceInfo()


def _coerce(obj):
    return _convert.asarray(obj)


from ._raw_kernel import (RawKernel, RawModule, CudaKernel, CudaStruct,  # noqa: E402
                          CudaArguments, CudaKernelVariants, CompileException)
from ._kernel_pair import Kernel, KernelCatalog, PyccelKernel  # noqa: E402
from . import jit  # noqa: E402,F401

# The low-level module calls back into the package for what C does not do:
# results become ndarray instances, foreign operands go through asarray,
# dtype-likes through NumPy's dtype parser, advanced indexing through
# _index.getitem_advanced / setitem_advanced.
_cnlib._set_hooks(ndarray, _coerce, _dtypes.to_code, _dtypes.CACHE,
                  _index.getitem_advanced, _index.setitem_advanced)

# The engine reads CUNUMPY_BACKEND / ARRAY_BACKEND on first use; read them at
# import as the seed API does.
get_backend()

__all__ = [n for n in dir() if not n.startswith("_")] + [
    "__array_api_version__", "__array_namespace_info__"]


# Docstrings generated from the C headers (_docstrings.py) for the public
# callables whose source has none.
from . import _docstrings as _docstrings  # noqa: E402
for _m in [m for n, m in list(__import__("sys").modules.items())
           if n == __name__ or n.startswith(__name__ + ".")]:
    _docstrings.apply(_m)
del _m
