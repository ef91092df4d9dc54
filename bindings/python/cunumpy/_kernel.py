"""CuPy's ElementwiseKernel and ReductionKernel (cupy.ElementwiseKernel,
cupy.ReductionKernel, CuPy 14 signatures) over the engine's cn_kernel
(include/cunumpy/kernel.h): the parameter grammar, placeholder resolution,
broadcasting, output allocation and the compilation all happen in C.

On the CPU the body is C (the host compiler found at run time: CUNUMPY_CC,
else ``cc``), compiled once per argument-type combination and cached on
disk; ``options`` go to that compiler. ``block_size`` and ``stream`` only
mean something on CUDA and are ignored on the CPU; ``reduce_dims`` is
accepted for compatibility (the engine always merges contiguous axes).
"""

from . import _cnlib as _lib
from ._ndarray import ndarray as _ndarray

__all__ = ["ElementwiseKernel", "ReductionKernel"]

_kernel_call = _lib.cn_kernel_call

_SOURCE_BACKENDS = {"cpu": 0, "numpy": 0, "cuda": 1, "cupy": 1}


def _options_text(options):
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return " ".join(str(o) for o in options)


class ElementwiseKernel:
    """User-defined elementwise kernel.

    ElementwiseKernel(in_params, out_params, operation, name='kernel',
    reduce_dims=True, preamble='', no_return=False, return_tuple=False,
    loop_prep='', after_loop='', options=())
    """

    def __init__(self, in_params, out_params, operation, name="kernel",
                 reduce_dims=True, preamble="", no_return=False,
                 return_tuple=False, loop_prep="", after_loop="",
                 options=()):
        self._h = _lib.cn_elementwise_kernel_create(
            in_params, out_params, operation, name, preamble, loop_prep,
            after_loop, _options_text(options))
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = bool(no_return)
        self.return_tuple = bool(return_tuple)
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = options
        self.nin = _lib.cn_kernel_nin(self._h)
        self.nout = _lib.cn_kernel_nout(self._h)
        self.nargs = self.nin + self.nout
        self._single = self.nout == 1 and not self.no_return and \
            not self.return_tuple

    def __call__(self, *args, size=None, block_size=None):
        """Runs the kernel: args are the inputs, optionally followed by the
        outputs; size gives the loop size when every array is raw."""
        outs = _kernel_call(self._h, args, -1 if size is None else int(size))
        if self._single and len(args) == self.nin:
            return outs[0]
        if len(args) == self.nargs:
            # Passed outputs come back as the objects given (CuPy's `is`).
            outs = tuple(a if isinstance(a, _ndarray) else o
                         for a, o in zip(args[self.nin:], outs))
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return outs

    def source(self, *args, backend="cpu"):
        """The generated source for these arguments on backend ('cpu' or
        'cuda')."""
        return _lib.cn_kernel_source_text(self._h,
                                          _SOURCE_BACKENDS[backend], args)

    def __repr__(self):
        return "<ElementwiseKernel {}>".format(self.name)


class ReductionKernel:
    """User-defined reduction kernel.

    ReductionKernel(in_params, out_params, map_expr, reduce_expr,
    post_map_expr, identity, name='reduce_kernel', reduce_type=None,
    reduce_dims=True, preamble='', options=())
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr,
                 post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        if identity is None:
            raise ValueError("ReductionKernel: identity is required on this "
                             "engine (the value a reduction starts from)")
        self._h = _lib.cn_reduction_kernel_create(
            in_params, out_params, map_expr, reduce_expr, post_map_expr,
            str(identity), name, reduce_type, preamble,
            _options_text(options))
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.name = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = options
        self.nin = _lib.cn_kernel_nin(self._h)
        self.nout = _lib.cn_kernel_nout(self._h)
        self.nargs = self.nin + self.nout

    def __call__(self, *args, out=None, axis=None, keepdims=False,
                 stream=None):
        """Reduces over axis (None: all axes; an int or a tuple) of the
        broadcast inputs; out (or a trailing argument) receives the
        result."""
        if out is not None:
            if len(args) != self.nin:
                raise ValueError(
                    "{}: out= given together with an output argument"
                    .format(self.name))
            args = args + (out,)
        res = _lib.cn_kernel_reduce(self._h, args, axis, bool(keepdims))[0]
        if len(args) > self.nin and isinstance(args[-1], _ndarray):
            return args[-1]
        return res

    def source(self, *args, backend="cpu"):
        """The generated source for these arguments on backend ('cpu' or
        'cuda')."""
        return _lib.cn_kernel_source_text(self._h,
                                          _SOURCE_BACKENDS[backend], args)

    def __repr__(self):
        return "<ReductionKernel {}>".format(self.name)


def kernel_cpu_cache_info():
    """(compiled, loaded from disk, held in memory) counters of the CPU
    kernel compiler in this process."""
    return _lib.cn_kernel_cpu_cache_info()
