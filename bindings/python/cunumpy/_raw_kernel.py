"""Raw CUDA kernels: RawKernel and RawModule (CuPy's API), and CudaKernel,
CudaStruct, CudaArguments and CudaKernelVariants (CuNumpy's).

The engine does the work (cunumpy/kernel.h): NVRTC compilation with its
memory and disk caches, the parsing of a kernel's signature, the checks of
a call's arguments, struct layouts. Compiling to PTX for an architecture
needs no GPU (RawModule.ptx, CudaKernel.ptx); loading and launching do,
and raise DeviceError without one. Raw kernels never copy: their array
arguments must be CUDA arrays.
"""

import numpy as _np

from . import _cnlib as _lib
from ._logging import watch as _watch
from ._ndarray import ndarray


class CompileException(ValueError):
    """NVRTC could not compile a kernel's source; the message holds NVRTC's
    log (lines as name(line): ...)."""


class _Owned:
    """An engine handle (a Python int) released exactly once."""

    __slots__ = ("ptr", "_release")

    def __init__(self, ptr, release):
        self.ptr = ptr
        self._release = release

    def __del__(self):
        ptr, self.ptr = self.ptr, None
        if ptr:
            self._release(ptr)


def _options_text(options, fn):
    if isinstance(options, str):
        options = (options,)
    opts = tuple(options)
    for o in opts:
        if not isinstance(o, str) or "\n" in o:
            raise TypeError("%s: options must be strings without newlines, "
                            "not %r" % (fn, o))
    return opts


def _compile(code, source_name, options, name_expressions, arch):
    try:
        with _watch("NVRTC compilation"):
            return _lib.cn_cuda_module_from_source(
                code, source_name, "\n".join(options),
                "\n".join(name_expressions or ()), int(arch))
    except ValueError as e:
        if "NVRTC could not compile" in str(e):
            raise CompileException(str(e)) from None
        raise


def _stream_ptr(stream):
    if stream is None:
        return None
    if isinstance(stream, int):
        return stream
    ptr = getattr(stream, "ptr", None)
    if ptr is None:
        raise TypeError("stream must be a cunumpy Stream, an int handle or "
                        "None, not %r" % type(stream).__name__)
    return ptr


def _is_device_array(a):
    return isinstance(a, ndarray) and a._device[0] == _lib.CN_DEVICE_CUDA


def _geometry(v, what):
    if isinstance(v, (int, _np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3:
        raise ValueError("%s must have 1 to 3 entries, not %d" % (what,
                                                                  len(v)))
    return v


_ATTRIBUTES = ("max_threads_per_block", "shared_size_bytes",
               "const_size_bytes", "local_size_bytes", "num_regs",
               "ptx_version", "binary_version",
               "max_dynamic_shared_size_bytes",
               "preferred_shared_memory_carveout")


class RawModule:
    """CUDA C++ source (code=) or a PTX/CUBIN/fatbin file (path=), compiled
    with NVRTC for the current device on first use and cached in memory and
    on disk. name_expressions instantiates C++ templates: get_function
    then accepts those expressions ("kernel<float>")."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of code and path keyword arguments "
                            "must be given.")
        if backend not in ("nvrtc", "nvcc"):
            raise ValueError("backend must be 'nvrtc' or 'nvcc', not %r" %
                             (backend,))
        if backend == "nvcc":
            raise NotImplementedError("cunumpy compiles raw kernels with "
                                      "NVRTC only (backend='nvrtc')")
        if jitify:
            raise NotImplementedError("jitify is not supported: cunumpy "
                                      "compiles with plain NVRTC")
        if translate_cucomplex:
            raise NotImplementedError(
                "translate_cucomplex is not supported: use complex<float> "
                "/ complex<double> (or cuComplex types declared in the "
                "source) directly")
        if code is not None and not isinstance(code, str):
            raise TypeError("code must be a str, not %r" %
                            type(code).__name__)
        self.code = code
        self.file_path = None if path is None else str(path)
        self.options = _options_text(options, "RawModule")
        self.backend = backend
        self.translate_cucomplex = False
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        if name_expressions is not None:
            name_expressions = tuple(str(n) for n in name_expressions)
            for n in name_expressions:
                if "\n" in n or not n:
                    raise ValueError("invalid name expression %r" % (n,))
        self.name_expressions = name_expressions
        self._module = None  # for the current device
        self._ptx = {}  # arch -> module handle compiled without a device

    def _handle(self):
        if self._module is None:
            if self.code is not None:
                ptr = _compile(self.code, "kernel.cu", self.options,
                               self.name_expressions, 0)
            else:
                ptr = _lib.cn_cuda_module_from_file(self.file_path)
            self._module = _Owned(ptr, _lib.cn_cuda_module_release)
        return self._module.ptr

    def compile(self, log_stream=None):
        """Compiles (or loads) the module for the current device now."""
        self._handle()

    def _for_arch(self, arch):
        if self.code is None:
            return self._handle()
        arch = int(arch)
        if arch not in self._ptx:
            self._ptx[arch] = _Owned(
                _compile(self.code, "kernel.cu", self.options,
                         self.name_expressions, arch),
                _lib.cn_cuda_module_release)
        return self._ptx[arch].ptr

    def ptx(self, arch=90):
        """The PTX NVRTC makes of the source for compute capability arch
        (90 = 9.0), without a GPU (cunumpy's addition). For a path module,
        the file's text when it is PTX."""
        h = self._for_arch(arch)
        if not _lib.cn_cuda_module_is_ptx(h):
            raise ValueError("the module's image is not PTX")
        return _lib.cnpy_cuda_module_image(h).rstrip(b"\0").decode()

    def lowered_name(self, name_expression, arch=None):
        """The mangled name NVRTC gave a name expression."""
        h = self._handle() if arch is None else self._for_arch(arch)
        return _lib.cn_cuda_module_lowered_name(h, str(name_expression))

    def get_function(self, name):
        """The kernel called name (a C name or one of name_expressions)."""
        return RawKernel._bound(self, str(name))


class RawKernel:
    """One CUDA kernel from source, compiled with NVRTC on first use.
    __call__(grid, block, args) launches it: args is a tuple of CUDA arrays
    (passed as device pointers; strides are the kernel's business), NumPy
    scalars (passed as their dtype) and Python scalars (int as long long,
    float as double, bool, complex as complex<double>)."""

    def __init__(self, code, name, options=(), backend="nvrtc", *,
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 jitify=False):
        self._mod = RawModule(code=code, options=options, backend=backend,
                              translate_cucomplex=translate_cucomplex,
                              enable_cooperative_groups=
                              enable_cooperative_groups, jitify=jitify)
        self.name = str(name)
        self._function = None

    @classmethod
    def _bound(cls, module, name):
        k = cls.__new__(cls)
        k._mod = module
        k.name = name
        k._function = None
        return k

    code = property(lambda self: self._mod.code)
    options = property(lambda self: self._mod.options)
    backend = property(lambda self: self._mod.backend)
    file_path = property(lambda self: self._mod.file_path)
    enable_cooperative_groups = property(
        lambda self: self._mod.enable_cooperative_groups)

    def compile(self, log_stream=None):
        self._fn()

    def ptx(self, arch=90):
        """The module's PTX for arch, without a GPU (cunumpy's addition)."""
        return self._mod.ptx(arch)

    def _fn(self):
        if self._function is None:
            ptr = _lib.cn_cuda_module_get_function(self._mod._handle(),
                                                   self.name)
            self._function = _Owned(ptr, _lib.cn_cuda_function_release)
        return self._function.ptr

    @property
    def kernel(self):
        return self

    @property
    def attributes(self):
        return {a: getattr(self, a) for a in _ATTRIBUTES}

    def __getattr__(self, name):
        if name in _ATTRIBUTES:
            return _lib.cn_cuda_function_attribute(self._fn(), name)
        raise AttributeError(name)

    def _args(self, args):
        if not isinstance(args, tuple):
            args = tuple(args)
        out = []
        for i, a in enumerate(args):
            if isinstance(a, ndarray):
                if not _is_device_array(a):
                    raise _lib.DeviceError(
                        "RawKernel '%s': argument %d is an array on the CPU; "
                        "raw kernels take CUDA arrays and never copy"
                        % (self.name, i))
                out.append(a)
            elif isinstance(a, _StructValue):
                out.append(a._launch_bytes("RawKernel '%s': argument %d"
                                           % (self.name, i)))
            elif isinstance(a, _np.ndarray):
                raise TypeError("RawKernel '%s': argument %d is a NumPy array;"
                                " raw kernels take CUDA arrays and never copy"
                                % (self.name, i))
            elif isinstance(a, _np.generic):
                out.append(a.tobytes())
            elif isinstance(a, bool):
                out.append(_np.bool_(a).tobytes())
            elif isinstance(a, int):
                out.append(_np.int64(a).tobytes())
            elif isinstance(a, float):
                out.append(_np.float64(a).tobytes())
            elif isinstance(a, complex):
                out.append(_np.complex128(a).tobytes())
            elif isinstance(a, (bytes, bytearray, memoryview)):
                out.append(bytes(a))
            else:
                raise TypeError("RawKernel '%s': unsupported argument %d of "
                                "type %s" % (self.name, i, type(a).__name__))
        return out

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None,
                 enable_cooperative_groups=None):
        grid = _geometry(grid, "grid")
        block = _geometry(block, "block")
        packed = self._args(args)
        coop = (self.enable_cooperative_groups
                if enable_cooperative_groups is None
                else enable_cooperative_groups)
        _lib.cn_cuda_function_launch(self._fn(), grid, block, int(shared_mem),
                                     _stream_ptr(stream), int(bool(coop)),
                                     packed)

    def __repr__(self):
        return "<RawKernel %s>" % self.name


# ---- CUDA structs and arguments ---------------------------------------------

class CudaArguments:
    """A group of kernel arguments passed as one: CudaKernel calls replace
    an object with __cuda_args__() by what it returns (a sequence, flattened
    recursively). Subclass it and define __cuda_args__, or build one from
    the values: CudaArguments(data, n)."""

    def __init__(self, *args):
        self._args = args

    def __cuda_args__(self):
        return self._args


def _flatten(args):
    out = []
    for a in args:
        f = getattr(type(a), "__cuda_args__", None)
        if f is not None:
            out.extend(_flatten(tuple(f(a))))
        else:
            out.append(a)
    return out


class CudaStruct:
    """A C struct defined once: CudaStruct("Vec", [("data", "double*"),
    ("n", "int")]). .declaration is its C text (include it in the kernel
    source), .size/.alignment/.offsets its layout (the C ABI's), and
    calling it packs values: Vec(data=y, n=y.size). Array fields take
    arrays of the pointee dtype (as their device pointers); array-valued
    fields are declared "float[3]"."""

    def __init__(self, name, fields):
        self.name = str(name)
        self.fields = tuple((str(n), str(t)) for n, t in fields)
        decls = []
        for n, t in self.fields:
            t = t.strip()
            if t.endswith("]") and "[" in t:
                base, _, count = t.partition("[")
                decls.append("%s %s[%s" % (base.strip(), n, count))
            else:
                decls.append("%s %s" % (t, n))
        self._layout = _Owned(
            _lib.cn_struct_layout_new(self.name, "; ".join(decls)),
            _lib.cn_struct_layout_release)
        h = self._layout.ptr
        self.size, self.alignment = _lib.cn_struct_layout_size(h)
        self.declaration = _lib.cnpy_struct_layout_declaration(h)
        self.offsets = {}
        self._pointer = []
        for i, (n, _) in enumerate(self.fields):
            off, _size, isp = _lib.cn_struct_layout_field(h, i)
            self.offsets[n] = off
            self._pointer.append(bool(isp))

    def __call__(self, *args, **kwargs):
        if len(args) > len(self.fields):
            raise TypeError("struct %s has %d fields, got %d values" %
                            (self.name, len(self.fields), len(args)))
        values = dict(zip((n for n, _ in self.fields), args))
        for k, v in kwargs.items():
            if k in values:
                raise TypeError("struct %s: field %r given twice" %
                                (self.name, k))
            values[k] = v
        names = [n for n, _ in self.fields]
        for k in values:
            if k not in names:
                raise TypeError("struct %s has no field %r" % (self.name, k))
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError("struct %s: no value for field%s %s" %
                            (self.name, "s" if len(missing) > 1 else "",
                             ", ".join(repr(m) for m in missing)))
        return _StructValue(self, tuple(values[n] for n in names))

    def __repr__(self):
        return "CudaStruct(%r, %r)" % (self.name, list(self.fields))


class _StructValue:
    """Values of a CudaStruct's fields, packed into its bytes."""

    __slots__ = ("struct", "values")

    def __init__(self, struct, values):
        self.struct = struct
        self.values = values

    def __getattr__(self, name):
        for (n, _), v in zip(self.struct.fields, self.values):
            if n == name:
                return v
        raise AttributeError(name)

    def pack(self):
        """The struct's bytes (array fields hold the arrays' data
        pointers), after checking every value against its field."""
        s = self.struct
        h = s._layout.ptr
        buf = bytearray(s.size)
        for i, ((n, _), v) in enumerate(zip(s.fields, self.values)):
            off = s.offsets[n]
            if isinstance(v, ndarray):
                _lib.cn_struct_layout_check_array(h, i, v)
                ptr = _lib.cn_array_data(v) or 0
                buf[off:off + 8] = int(ptr).to_bytes(8, "little")
                continue
            if isinstance(v, _np.ndarray):
                raise TypeError("struct %s: field %r takes a cunumpy array, "
                                "not a NumPy array" % (s.name, n))
            _o, fsize, _p = _lib.cn_struct_layout_field(h, i)
            lo, hi, size = _lib.cn_struct_layout_pack_scalar(h, i, v)
            one = ((lo & (2**64 - 1)) | ((hi & (2**64 - 1)) << 64)).to_bytes(
                16, "little")[:size]
            for k in range(fsize // size):
                buf[off + k * size:off + (k + 1) * size] = one
        return bytes(buf)

    def _launch_bytes(self, where):
        for (n, _), v in zip(self.struct.fields, self.values):
            if isinstance(v, ndarray) and not _is_device_array(v):
                raise _lib.DeviceError(
                    "%s: field %r of struct %s is an array on the CPU; CUDA "
                    "kernels take CUDA arrays and never copy" %
                    (where, n, self.struct.name))
        return self.pack()

    def __repr__(self):
        return "%s(%s)" % (self.struct.name, ", ".join(
            "%s=%r" % (n, v) for (n, _), v in zip(self.struct.fields,
                                                    self.values)))


# ---- CudaKernel -------------------------------------------------------------

_C_TYPE = {"bool": "bool", "int8": "signed char", "uint8": "unsigned char",
           "int16": "short", "uint16": "unsigned short", "int32": "int",
           "uint32": "unsigned int", "int64": "long long",
           "uint64": "unsigned long long", "float32": "float",
           "float64": "double", "complex64": "complex<float>",
           "complex128": "complex<double>"}


def _template_arg(t):
    """A template argument as C++ text: strings as written, ints and bools
    as values, dtypes and Python/NumPy types as their C types."""
    if isinstance(t, str):
        return t
    if isinstance(t, bool):
        return "true" if t else "false"
    if isinstance(t, (int, _np.integer)):
        return str(int(t))
    if t is float:
        return "double"
    if t is int:
        return "long long"
    if t is complex:
        return "complex<double>"
    try:
        dt = _np.dtype(t)
    except TypeError:
        dt = None
    if dt is not None and dt.name in _C_TYPE:
        return _C_TYPE[dt.name]
    raise TypeError("cannot use %r as a template argument" % (t,))


def _default_block(ndim):
    return {1: (256,), 2: (16, 16), 3: (8, 8, 4)}[ndim]


class CudaKernel:
    """A CUDA C kernel called like the host kernel it mirrors, plus the
    number of threads: kernel(a, x, y, n, n_threads=n).

    The extern "C" __global__ signature of `name` in `code` is parsed once
    and every call is checked against it: the argument count, each array's
    dtype against its pointer type, each scalar against its C type (cast to
    it; a value that does not fit raises). Arrays are never copied: they
    must be CUDA arrays. structs lists the CudaStructs that parameters take
    by value; template_args instantiates a C++ function template; options
    go to NVRTC. Objects with __cuda_args__ are flattened into several
    arguments.

    Launches: n_threads (int or 1-3 ints) with block_size (default 256,
    (16, 16), (8, 8, 4)), or an explicit grid= and block=; shared_mem
    bytes of dynamic shared memory; stream."""

    def __init__(self, code, name, *, structs=(), template_args=None,
                 options=(), block_size=None):
        self.code = str(code)
        self.name = str(name)
        self.structs = tuple(structs)
        for s in self.structs:
            if not isinstance(s, CudaStruct):
                raise TypeError("structs must be CudaStructs, not %r" %
                                type(s).__name__)
        if template_args is not None and not isinstance(template_args,
                                                        (tuple, list)):
            template_args = (template_args,)
        self.template_args = (None if template_args is None else
                              tuple(template_args))
        targs = (None if template_args is None else
                 ", ".join(_template_arg(t) for t in template_args))
        self._sig = _Owned(_lib.cn_kernel_sig_parse(self.code, self.name,
                                                    targs),
                           _lib.cn_kernel_sig_release)
        h = self._sig.ptr
        n = _lib.cn_kernel_sig_nparams(h)
        self.parameters = tuple(
            (_lib.cn_kernel_sig_param_name(h, i),
             _lib.cn_kernel_sig_param_type(h, i)) for i in range(n))
        self._struct_of = {}
        by_name = {s.name: s for s in self.structs}
        for i in range(n):
            kind = _lib.cn_kernel_sig_param(h, i)[0]
            if kind == _lib.CN_PARAM_STRUCT:
                tname = self.parameters[i][1]
                if tname not in by_name:
                    raise TypeError(
                        "CudaKernel '%s': parameter %d ('%s') has the type "
                        "'%s'; pass its CudaStruct in structs=" %
                        (self.name, i, self.parameters[i][0], tname))
                self._struct_of[i] = by_name[tname]
        self._expr = (None if targs is None else
                      "%s<%s>" % (self.name, targs))
        self._module = RawModule(
            code=self.code, options=options,
            name_expressions=None if self._expr is None else (self._expr,))
        self._raw = self._module.get_function(self._expr or self.name)
        self.block_size = block_size

    @property
    def signature(self):
        """((name, C type), ...) of the kernel's parameters."""
        return self.parameters

    def check_args(self, *args):
        """Checks and packs a call's arguments without launching (no GPU
        needed): returns the list the launch would pass. Raises as a call
        would, except for arrays on the CPU, which only a launch refuses."""
        flat = _flatten(args)
        h = self._sig.ptr
        _lib.cn_kernel_sig_check_nargs(h, len(flat))
        out = []
        for i, a in enumerate(flat):
            if isinstance(a, ndarray):
                _lib.cn_kernel_sig_check_array(h, i, a)
                out.append(a)
            elif isinstance(a, _StructValue):
                s = self._struct_of.get(i)
                if s is not a.struct:
                    _lib.cn_kernel_sig_check_struct(h, i,
                                                    a.struct._layout.ptr)
                a.pack()  # checks every field's value
                out.append(a)
            elif isinstance(a, _np.ndarray):
                raise TypeError(
                    "CudaKernel '%s': argument %d is a NumPy array; "
                    "CudaKernel never copies arguments: pass a CUDA array"
                    % (self.name, i))
            else:
                lo, hi, size = _lib.cn_kernel_sig_pack_scalar(h, i, a)
                out.append(((lo & (2**64 - 1)) |
                            ((hi & (2**64 - 1)) << 64)).to_bytes(
                                16, "little")[:size])
        return out

    def _launch_args(self, args):
        out = self.check_args(*args)
        for i, a in enumerate(out):
            if isinstance(a, ndarray) and not _is_device_array(a):
                pname = self.parameters[i][0]
                raise _lib.DeviceError(
                    "CudaKernel '%s': argument %d%s is an array on the CPU; "
                    "CudaKernel never copies arguments: pass CUDA arrays "
                    "(made under use_backend('cuda') or with to_cupy)" %
                    (self.name, i, " ('%s')" % pname if pname else ""))
            if isinstance(a, _StructValue):
                out[i] = a._launch_bytes("CudaKernel '%s': argument %d" %
                                         (self.name, i))
        return out

    def launch_geometry(self, n_threads=None, block_size=None, grid=None,
                        block=None):
        """(grid, block) of a launch, as __call__ computes them."""
        if grid is not None:
            if n_threads is not None:
                raise TypeError("give n_threads or grid, not both")
            grid = _geometry(grid, "grid")
            b = block if block is not None else (
                block_size if block_size is not None else self.block_size)
            if b is None:
                raise TypeError("an explicit grid needs block=")
            return grid, _geometry(b, "block")
        if n_threads is None:
            raise TypeError("CudaKernel '%s' needs n_threads= (or grid= and "
                            "block=)" % self.name)
        n = _geometry(n_threads, "n_threads")
        if any(x < 0 for x in n):
            raise ValueError("n_threads must not be negative: %r" % (n,))
        b = block if block is not None else block_size
        if b is None:
            b = self.block_size
        b = _default_block(len(n)) if b is None else _geometry(b,
                                                               "block_size")
        if len(b) != len(n):
            raise ValueError("block_size %r does not match n_threads %r" %
                             (b, n))
        g = tuple(-(-x // y) for x, y in zip(n, b))
        return g, b

    def __call__(self, *args, n_threads=None, block_size=None, grid=None,
                 block=None, shared_mem=0, stream=None):
        g, b = self.launch_geometry(n_threads, block_size, grid, block)
        packed = self._launch_args(args)
        if any(x == 0 for x in g):
            return  # nothing to do
        _lib.cn_cuda_function_launch(self._raw._fn(), g, b, int(shared_mem),
                                     _stream_ptr(stream), 0, packed)

    def compile(self):
        """Compiles the kernel for the current device now (needs a GPU)."""
        self._raw._fn()

    def ptx(self, arch=90):
        """The kernel's PTX for compute capability arch, without a GPU."""
        return self._module.ptx(arch)

    def __repr__(self):
        return "<CudaKernel %s(%s)>" % (self.name, ", ".join(
            ("%s %s" % (t, n)).strip() for n, t in self.parameters))


class CudaKernelVariants:
    """CudaKernels whose source is generated per variant (a dimension, a
    dtype...): ``source(*key)`` returns the code (or (code, name)); each
    variant is parsed and compiled once, on first use. variants[key] (or
    ``variants.get(*key)``) is the CudaKernel; options are CudaKernel's."""

    def __init__(self, source, name=None, **kernel_options):
        if not callable(source):
            raise TypeError("source must be a callable returning the code "
                            "of a variant")
        self._source = source
        self._name = name
        self._options = kernel_options
        self._kernels = {}

    def get(self, *key):
        if key in self._kernels:
            return self._kernels[key]
        made = self._source(*key)
        if isinstance(made, tuple):
            code, name = made
        else:
            code = made
            name = self._name(*key) if callable(self._name) else self._name
        if name is None:
            raise TypeError("CudaKernelVariants needs a name, or a source "
                            "returning (code, name)")
        k = CudaKernel(code, name, **self._options)
        self._kernels[key] = k
        return k

    def __getitem__(self, key):
        return self.get(*(key if isinstance(key, tuple) else (key,)))

    def __contains__(self, key):
        return (key if isinstance(key, tuple) else (key,)) in self._kernels

    def __len__(self):
        return len(self._kernels)

    def keys(self):
        return list(self._kernels)

    def compile_all(self, arch=None):
        """Compiles every variant made so far (arch: PTX only, no GPU)."""
        for k in self._kernels.values():
            k.compile() if arch is None else k.ptx(arch)
