"""Host kernels next to CUDA kernels: PyccelKernel (a NumPy-only callable
used with cunumpy arrays), Kernel (a host kernel and its CUDA kernel, the
one of the active backend called) and KernelCatalog (kernel pairs found in
a package, one folder per kernel)."""

import copy as _copy
import importlib as _importlib
import os as _os
import types as _types

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._raw_kernel import CudaKernel


def _on_gpu(a):
    return isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA


class _Conversion:
    """One call's host copies: each array object converted once (so an array
    passed twice is one host array), with the top-level argument it came
    from, for the copy back."""

    def __init__(self, is_array, object_modules):
        self.is_array = is_array
        self.object_modules = tuple(object_modules)
        self.memo = {}  # id(original) -> (original, host, on_gpu, keys)
        self.device = None  # where returned arrays go (a GPU input's)
        self.any = False

    def _module_matches(self, obj):
        mod = getattr(type(obj), "__module__", "") or ""
        return any(mod == m or mod.startswith(m + ".")
                   for m in self.object_modules)

    def to_host(self, obj, key):
        if isinstance(obj, ndarray) or (self.is_array is not None and
                                        self.is_array(obj)):
            entry = self.memo.get(id(obj))
            if entry is None:
                gpu = _on_gpu(obj) or not isinstance(obj, ndarray)
                if gpu:
                    if isinstance(obj, ndarray):
                        host = obj.get()
                        if self.device is None:
                            self.device = obj.device
                    else:
                        from ._backend import to_numpy
                        host = _np.array(to_numpy(obj), copy=True)
                else:
                    host = _np.asarray(obj)  # a view: writes go through
                entry = (obj, host, gpu, set())
                self.memo[id(obj)] = entry
                self.any = True
            entry[3].add(key)
            return entry[1]
        if isinstance(obj, list):
            return [self.to_host(v, key) for v in obj]
        if isinstance(obj, tuple):
            items = [self.to_host(v, key) for v in obj]
            return (type(obj)(*items) if hasattr(obj, "_fields")
                    else tuple(items))
        if isinstance(obj, dict):
            return type(obj)((k, self.to_host(v, key))
                             for k, v in obj.items())
        if (self.object_modules and not isinstance(obj, type) and
                hasattr(obj, "__dict__") and self._module_matches(obj)):
            clone = _copy.copy(obj)
            for name, v in vars(obj).items():
                setattr(clone, name, self.to_host(v, key))
            return clone
        return obj

    def copy_back(self, outputs):
        """Copies host arrays back into their GPU originals: those reached
        from a declared output (every converted one when outputs is None).
        Returns the ids copied back."""
        done = set()
        for oid, (orig, host, gpu, keys) in self.memo.items():
            if not gpu:
                continue
            if outputs is not None and not keys & outputs:
                continue
            _copy_into(orig, host)
            done.add(oid)
        return done

    def from_host(self, obj, copied):
        """A result with NumPy arrays moved where the inputs were: an input's
        host array is that input (when its values are current), any other
        array a new one on the inputs' device."""
        if isinstance(obj, _np.ndarray):
            for oid, (orig, host, gpu, _k) in self.memo.items():
                if host is obj and isinstance(orig, ndarray) and (
                        not gpu or oid in copied):
                    return orig
            from ._convert import asarray, to_device
            if self.device is not None:
                return to_device(obj, self.device)
            return asarray(obj)
        if isinstance(obj, list):
            return [self.from_host(v, copied) for v in obj]
        if isinstance(obj, tuple):
            items = [self.from_host(v, copied) for v in obj]
            return (type(obj)(*items) if hasattr(obj, "_fields")
                    else tuple(items))
        if isinstance(obj, dict):
            return type(obj)((k, self.from_host(v, copied))
                             for k, v in obj.items())
        return obj


def _copy_into(dst, host):
    """dst[...] = host for a GPU destination (cunumpy array or an is_array
    object supporting item assignment)."""
    if isinstance(dst, ndarray):
        from ._convert import to_device
        dst[...] = to_device(_np.ascontiguousarray(host), dst.device)
    else:
        dst[...] = host


class PyccelKernel:
    """Calls a function that expects NumPy arrays (a Pyccel-compiled kernel,
    or any Python function) with cunumpy arrays.

    Arrays found in the arguments (also inside lists, tuples, dicts, and
    objects whose class comes from one of object_modules) become NumPy
    arrays: CPU arrays as zero-copy views, CUDA arrays as host copies (one
    array passed twice is one host copy). After the call, the host copies
    of the arguments declared in outputs (positions, keyword names; None:
    every argument) are copied back to the GPU, and NumPy arrays returned
    are moved to the GPU (an argument's host copy returns that argument).
    is_array(obj) marks further objects to convert as GPU arrays (through
    to_numpy, copied back with obj[...] = host). Without cunumpy arrays the
    function is called directly. Nothing is compiled here."""

    def __init__(self, function, outputs=None, *, object_modules=(),
                 is_array=None):
        if not callable(function):
            raise TypeError("PyccelKernel needs a callable")
        self.function = function
        if outputs is not None:
            if isinstance(outputs, (int, str)):
                outputs = (outputs,)
            outputs = tuple(outputs)
            for o in outputs:
                if isinstance(o, bool) or not isinstance(o, (int, str)):
                    raise TypeError("outputs are argument positions (int) "
                                    "or keyword names (str), not %r" % (o,))
        self.outputs = outputs
        if isinstance(object_modules, str):
            object_modules = (object_modules,)
        self.object_modules = tuple(object_modules)
        self.is_array = is_array
        self.__name__ = getattr(function, "__name__", "kernel")
        self.__doc__ = getattr(function, "__doc__", None)

    def __call__(self, *args, **kwargs):
        conv = _Conversion(self.is_array, self.object_modules)
        hargs = [conv.to_host(a, i) for i, a in enumerate(args)]
        hkw = {k: conv.to_host(v, k) for k, v in kwargs.items()}
        if not conv.any:
            return self.function(*args, **kwargs)
        result = self.function(*hargs, **hkw)
        outputs = None if self.outputs is None else set(self.outputs)
        copied = conv.copy_back(outputs)
        return conv.from_host(result, copied)

    def __repr__(self):
        return "PyccelKernel(%s)" % self.__name__


_MISSING = ("raise", "fallback")


class Kernel:
    """A host kernel paired with its CUDA kernel: calling it runs the CUDA
    kernel on the CUDA backend and the host kernel otherwise (through
    PyccelKernel, so a compiled host kernel gets NumPy arrays; host_options
    are its options). On CUDA without a CUDA kernel, missing_cuda="raise"
    raises NotImplementedError and "fallback" runs the host kernel with host
    copies. Launch options (n_threads=, block_size=, grid=, block=,
    shared_mem=, stream=) go to the CUDA kernel only."""

    def __init__(self, host, cuda=None, *, missing_cuda="raise",
                 host_options=None, name=None):
        if host is None and cuda is None:
            raise TypeError("Kernel needs a host kernel or a CUDA kernel")
        if host is not None and not callable(host):
            raise TypeError("the host kernel must be callable")
        if cuda is not None and not isinstance(cuda, CudaKernel):
            raise TypeError("the CUDA kernel must be a CudaKernel, not %r" %
                            type(cuda).__name__)
        if missing_cuda not in _MISSING:
            raise ValueError("missing_cuda must be 'raise' or 'fallback', "
                             "not %r" % (missing_cuda,))
        self.host = host
        self.cuda = cuda
        self.missing_cuda = missing_cuda
        self.host_options = dict(host_options or {})
        self.name = name or getattr(host, "__name__", None) or (
            cuda.name if cuda is not None else "kernel")
        self._host = (None if host is None else
                      host if isinstance(host, PyccelKernel) else
                      PyccelKernel(host, **self.host_options))

    def __call__(self, *args, n_threads=None, block_size=None, grid=None,
                 block=None, shared_mem=0, stream=None):
        from ._backend import get_backend
        if get_backend() == "cuda":
            if self.cuda is not None:
                return self.cuda(*args, n_threads=n_threads,
                                 block_size=block_size, grid=grid,
                                 block=block, shared_mem=shared_mem,
                                 stream=stream)
            if self.missing_cuda == "raise" or self._host is None:
                raise NotImplementedError(
                    "kernel '%s' has no CUDA kernel (missing_cuda='raise'); "
                    "give one, or missing_cuda='fallback' to run the host "
                    "kernel with host copies" % self.name)
            return self._host(*args)
        if self._host is None:
            raise NotImplementedError("kernel '%s' has no host kernel" %
                                      self.name)
        return self._host(*args)

    def __repr__(self):
        return "Kernel(%s, cuda=%s)" % (self.name, self.cuda is not None)


class KernelCatalog:
    """Kernel pairs by name. from_package(package) finds them in a package
    with one folder per kernel: <name>/<name>_kernels.py defines the host
    kernel <name>, and <name>/<name>_cuda.cu (optional) the CUDA kernel
    <name>. compile_all() compiles every CUDA kernel (for the current
    device, or PTX for arch= without a GPU)."""

    def __init__(self, kernels=()):
        self._kernels = {}
        items = kernels.items() if isinstance(kernels, dict) else (
            (k.name, k) for k in kernels)
        for name, k in items:
            if not isinstance(k, Kernel):
                raise TypeError("a KernelCatalog holds Kernels, not %r" %
                                type(k).__name__)
            self._kernels[name] = k

    @classmethod
    def from_package(cls, package, *, missing_cuda="raise",
                     host_options=None, cuda_options=None):
        if isinstance(package, str):
            package = _importlib.import_module(package)
        if not isinstance(package, _types.ModuleType) or not hasattr(
                package, "__path__"):
            raise TypeError("from_package needs a package (a module with "
                            "folders), not %r" % (package,))
        kernels = {}
        for root in package.__path__:
            for name in sorted(_os.listdir(root)):
                folder = _os.path.join(root, name)
                host_file = _os.path.join(folder, name + "_kernels.py")
                if not _os.path.isfile(host_file) or name in kernels:
                    continue
                mod = _importlib.import_module("%s.%s.%s_kernels" %
                                               (package.__name__, name, name))
                host = getattr(mod, name, None)
                if host is None or not callable(host):
                    raise ValueError("%s defines no host kernel '%s'" %
                                     (host_file, name))
                cu = _os.path.join(folder, name + "_cuda.cu")
                cuda = None
                if _os.path.isfile(cu):
                    with open(cu, encoding="utf-8") as f:
                        cuda = CudaKernel(f.read(), name,
                                          **dict(cuda_options or {}))
                kernels[name] = Kernel(host, cuda, missing_cuda=missing_cuda,
                                       host_options=host_options, name=name)
        return cls(kernels)

    def compile_all(self, arch=None):
        """Compiles every CUDA kernel: for the current device (needs a GPU),
        or to PTX for compute capability arch. Returns the names compiled."""
        done = []
        for name, k in self._kernels.items():
            if k.cuda is None:
                continue
            if arch is None:
                k.cuda.compile()
            else:
                k.cuda.ptx(arch)
            done.append(name)
        return done

    def __getitem__(self, name):
        return self._kernels[name]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._kernels[name]
        except KeyError:
            raise AttributeError("the catalog has no kernel %r" % name) \
                from None

    def __contains__(self, name):
        return name in self._kernels

    def __iter__(self):
        return iter(self._kernels)

    def __len__(self):
        return len(self._kernels)

    def names(self):
        return list(self._kernels)

    def __repr__(self):
        return "KernelCatalog(%s)" % ", ".join(self._kernels)
