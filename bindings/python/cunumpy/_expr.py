"""Expressions and fusion (include/cunumpy/expr.h): numexpr's ``evaluate``
and CuPy's ``@fuse``, both compiled once into one C expression program and
evaluated in one fused pass (block by block on the CPU, one generated
kernel on CUDA).

``evaluate(ex)`` takes numexpr's syntax (the C parser reads it). ``@fuse``
traces the function once per signature (dtype and ndim of each array
argument, type and value of each Python scalar argument) with stand-ins that
record the operations as expression text, and caches the compiled program.
"""

import functools
import linecache
import math
import sys
import types

import numpy as _np

from . import _cnlib as _lib
from . import _dtypes
from ._ndarray import ndarray
from ._convert import asarray

__all__ = ["evaluate", "fuse"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


class _Program:
    """A compiled cn_expr handle, released once."""

    __slots__ = ("h", "names")

    def __init__(self, text, bindings):
        self.h = None
        self.h = _lib.cn_expr_compile(text, bindings)

    def __call__(self, arrays, out=None, casting="same_kind"):
        return _lib.cn_expr_evaluate(self.h, arrays, out, casting)

    @property
    def dtype(self):
        return _dtypes.DTYPE_OF[_lib.cn_expr_result_dtype(self.h)]

    def __del__(self):
        h, self.h = self.h, None
        if h and _lib is not None and _lib.cn_expr_release is not None:
            _lib.cn_expr_release(h)


def _names_of(text):
    """The variable names text reads, in order (the C parser's answer)."""
    h = _lib.cn_expr_parse(text)
    try:
        n = _lib.cn_expr_variable_count(h)
        return tuple(_lib.cn_expr_variable_name(h, i) for i in range(n))
    finally:
        _lib.cn_expr_release(h)


_NAMES = {}
_PROGRAMS = {}
_CACHE_MAX = 512


def _cached(cache, key, make):
    v = cache.get(key)
    if v is None:
        if len(cache) >= _CACHE_MAX:
            cache.clear()
        v = cache[key] = make()
    return v


def _code(a):
    return _dtypes.CODE_OF[a.dtype]


def evaluate(ex, local_dict=None, global_dict=None, out=None, order="K",
             casting="safe"):
    """Evaluates the expression string ex (numexpr's syntax, see
    include/cunumpy/expr.h) in one fused pass. Names are looked up in
    local_dict, then global_dict; each that is None means the caller's
    frame's locals / globals. Values that are not cunumpy arrays are
    converted with asarray (a Python scalar becomes a 0-d array of its
    default dtype, as numexpr does). out receives the result when given,
    cast under `casting`; order 'K' and 'C' give a C-ordered result, 'F' a
    Fortran-ordered one."""
    if not isinstance(ex, str):
        raise ValueError("must specify expression as a string")
    if order not in ("K", "C", "A", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', 'K' "
                         f"(got {order!r})")
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {_CASTINGS} "
                         f"(got {casting!r})")
    names = _NAMES.get(ex)
    if names is None:
        names = _cached(_NAMES, ex, lambda: _names_of(ex))
    if names and (local_dict is None or global_dict is None):
        frame = sys._getframe(1)
        if local_dict is None:
            local_dict = frame.f_locals
        if global_dict is None:
            global_dict = frame.f_globals
        del frame
    arrays = []
    for n in names:
        if local_dict is not None and n in local_dict:
            v = local_dict[n]
        elif global_dict is not None and n in global_dict:
            v = global_dict[n]
        else:
            raise KeyError(f"name '{n}' is not defined in the local or "
                           f"global dictionary")
        arrays.append(v if isinstance(v, ndarray) else asarray(v))
    key = (ex, tuple([(a.dtype, a.ndim) for a in arrays]))
    prog = _PROGRAMS.get(key)
    if prog is None:
        prog = _cached(_PROGRAMS, key, lambda: _Program(ex, [
            (n, _code(a), a.ndim) for n, a in zip(names, arrays)]))
    res = _lib.cn_expr_evaluate(prog.h, arrays, out, casting)
    if order == "F" and out is None and res.ndim > 1:
        res = _lib.cn_copy(res, "F")
    return res


# ---- fuse: tracing ----------------------------------------------------------

class _NotFusable(TypeError):
    pass


def _literal(v):
    """A Python scalar as expression text (weak, as Python scalars are)."""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return f"({v})" if v < 0 else str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "(1e999 - 1e999)"
        if math.isinf(v):
            return "(1e999)" if v > 0 else "(-1e999)"
        return f"({v!r})"
    if isinstance(v, complex):
        return f"({_literal(v.real)} + {_literal(v.imag)} * 1j)"
    raise TypeError(f"unsupported scalar {v!r}")


class _Trace:
    """The state of one tracing run: bound inputs and captured arrays."""

    def __init__(self, fname, fallback):
        self.fname = fname
        self.fallback = fallback
        self.bindings = []  # (name, code, ndim)
        self.arrays = []
        self._captured = {}

    def capture(self, a):
        """An array met during tracing that is not an argument (a closure
        or global, a NumPy scalar): one more input of the program."""
        key = id(a)
        name = self._captured.get(key)
        if name is None:
            a = a if isinstance(a, ndarray) else asarray(a)
            name = f"_c{len(self._captured)}"
            self._captured[key] = name
            self.bindings.append((name, _code(a), a.ndim))
            self.arrays.append(a)
        return name


class _Traced:
    """A stand-in for an array inside a fused function: every operation
    records its expression text."""

    __slots__ = ("_t", "_x", "_ndim", "_dtype")
    __array_priority__ = 1000

    def __init__(self, trace, text, ndim, dtype=None):
        self._t = trace
        self._x = text
        self._ndim = ndim
        self._dtype = dtype

    # what tracing code may ask
    @property
    def ndim(self):
        return self._ndim

    @property
    def dtype(self):
        if self._dtype is None:
            p = _Program(self._x, self._t.bindings)
            self._dtype = p.dtype
        return self._dtype

    def _refuse(self, what):
        raise _NotFusable(
            f"cunumpy.fuse: '{what}' cannot be fused in "
            f"{self._t.fname}() (fusion takes elementwise operations, ufunc "
            f"calls, where, astype and one final reduction); use "
            f"fuse(fallback=True) to run it unfused")

    def __bool__(self):
        f = sys._getframe(1)
        line = linecache.getline(f.f_code.co_filename, f.f_lineno).strip()
        del f
        word = line.split(" ", 1)[0].rstrip(":") if line else ""
        construct = {"if": "an if statement", "elif": "an elif statement",
                     "while": "a while loop", "assert": "an assert"}.get(
            word, "a truth-value test (and, or, not, bool(), a "
                  "conditional expression)")
        raise TypeError(
            f"cunumpy.fuse: {construct} on a traced array cannot be fused "
            f"in {self._t.fname}() (line: {line!r}); use "
            f"cp.where(cond, x, y)")

    def __len__(self):
        self._refuse("len")

    def __iter__(self):
        self._refuse("iteration")

    def __index__(self):
        self._refuse("conversion to int")

    __int__ = __index__

    def __float__(self):
        self._refuse("conversion to float")

    def __complex__(self):
        self._refuse("conversion to complex")

    def __getitem__(self, key):
        self._refuse("indexing")

    def __setitem__(self, key, value):
        self._refuse("item assignment")

    def __matmul__(self, other):
        self._refuse("matmul")

    __rmatmul__ = __matmul__

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse(name)

    def __array__(self, *a, **k):
        self._refuse("conversion to a NumPy array")

    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        if method != "__call__" or kwargs:
            self._refuse(f"numpy.{uf.__name__}.{method}")
        return _call_op(self._t, uf.__name__, inputs)

    def astype(self, dtype, *args, **kwargs):
        if args or kwargs:
            self._refuse("astype with order/casting arguments")
        name = _np.dtype(dtype).name
        return _Traced(self._t, f"{name}({self._x})", self._ndim,
                       _np.dtype(dtype))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return _reduce(self._t, "sum", self, axis, keepdims, dtype, out)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return _reduce(self._t, "prod", self, axis, keepdims, dtype, out)

    def min(self, axis=None, out=None, keepdims=False):
        return _reduce(self._t, "min", self, axis, keepdims, None, out)

    def max(self, axis=None, out=None, keepdims=False):
        return _reduce(self._t, "max", self, axis, keepdims, None, out)

    def any(self, axis=None, out=None, keepdims=False):
        return _reduce(self._t, "any", self, axis, keepdims, None, out)

    def all(self, axis=None, out=None, keepdims=False):
        return _reduce(self._t, "all", self, axis, keepdims, None, out)

    def conj(self):
        return _call_op(self._t, "conj", (self,))

    @property
    def real(self):
        return _call_op(self._t, "real", (self,))

    @property
    def imag(self):
        return _call_op(self._t, "imag", (self,))


def _text(trace, v):
    """Expression text and ndim of an operand."""
    if isinstance(v, _Traced):
        if v._t is not trace:
            raise _NotFusable("cunumpy.fuse: a traced value of another "
                              "fused call was used")
        return v._x, v._ndim
    if type(v) in (bool, int, float, complex):
        return _literal(v), 0
    if isinstance(v, (ndarray, _np.ndarray, _np.generic)):
        name = trace.capture(v)
        return name, _np.ndim(v)
    raise _NotFusable(f"cunumpy.fuse: an operand of type "
                      f"{type(v).__name__} cannot be fused in "
                      f"{trace.fname}()")


def _trace_of(args):
    for a in args:
        if isinstance(a, _Traced):
            return a._t
    return None


def _call_op(trace, name, args):
    parts = [_text(trace, a) for a in args]
    ndim = max((p[1] for p in parts), default=0)
    return _Traced(trace, f"{name}({', '.join(p[0] for p in parts)})", ndim)


def _binop(op, swap=False):
    def f(self, other):
        a, b = (other, self) if swap else (self, other)
        ta, na = _text(self._t, a)
        tb, nb = _text(self._t, b)
        return _Traced(self._t, f"({ta} {op} {tb})", max(na, nb))
    return f


for _op, _name in (("+", "add"), ("-", "sub"), ("*", "mul"),
                   ("/", "truediv"), ("//", "floordiv"), ("%", "mod"),
                   ("**", "pow"), ("&", "and"), ("|", "or"), ("^", "xor"),
                   ("<<", "lshift"), (">>", "rshift")):
    setattr(_Traced, f"__{_name}__", _binop(_op))
    setattr(_Traced, f"__r{_name}__", _binop(_op, swap=True))
for _op, _name in (("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"),
                   ("==", "eq"), ("!=", "ne")):
    setattr(_Traced, f"__{_name}__", _binop(_op))
_Traced.__hash__ = None
_Traced.__neg__ = lambda self: _Traced(self._t, f"(-{self._x})", self._ndim)
_Traced.__pos__ = lambda self: _Traced(self._t, f"(+{self._x})", self._ndim)
_Traced.__invert__ = lambda self: _Traced(self._t, f"(~{self._x})",
                                          self._ndim)
_Traced.__abs__ = lambda self: _call_op(self._t, "abs", (self,))
del _op, _name


def _axis_text(axis, ndim):
    if axis is None:
        return "None"
    if isinstance(axis, (tuple, list)):
        return "(" + "".join(f"{int(x)}, " for x in axis) + ")"
    return str(int(axis))


def _reduce(trace, name, x, axis, keepdims, dtype, out):
    if dtype is not None or out is not None:
        x._refuse(f"{name} with dtype= or out=")
    t, nd = _text(trace, x)
    kd = "True" if keepdims else "False"
    return _Traced(trace, f"{name}({t}, axis={_axis_text(axis, nd)}, "
                          f"keepdims={kd})", nd)


class _Namespace:
    """What the fused function sees instead of the cunumpy module: traced
    ufuncs, where, astype-like dtype calls and reductions; any other
    function refuses traced arguments (or runs them unfused with
    fallback=True, which the tracing signals by an exception)."""

    def __init__(self, module):
        self._m = module

    def __getattr__(self, name):
        real = getattr(self._m, name)
        if isinstance(real, types.ModuleType) and name == "special":
            return _Namespace(real)
        return _traced_callable(name, real)


_REDUCTIONS = {"sum": "sum", "prod": "prod", "min": "min", "max": "max",
               "amin": "min", "amax": "max", "any": "any", "all": "all"}
_DTYPE_NAMES = {"bool", "bool_", "int8", "int16", "int32", "int64", "uint8",
                "uint16", "uint32", "uint64", "float16", "float32", "float64",
                "complex64", "complex128", "single", "double"}


def _traced_callable(name, real):
    from ._ufunc import ufunc as _ufunc_type
    if isinstance(real, _ufunc_type):
        op = real._op

        def uf(*args, **kwargs):
            tr = _trace_of(args)
            if tr is None:
                return real(*args, **kwargs)
            if kwargs:
                raise _NotFusable(f"cunumpy.fuse: keyword arguments of "
                                  f"{name}() cannot be fused in "
                                  f"{tr.fname}()")
            return _call_op(tr, op, args)
        return uf
    if name in ("real", "imag"):  # NumPy's functions, not ufuncs
        def part(val):
            tr = _trace_of((val,))
            return real(val) if tr is None else _call_op(tr, name, (val,))
        return part
    if name == "angle":  # NumPy's function, with a deg flag
        def angle(z, deg=False):
            tr = _trace_of((z,))
            if tr is None:
                return real(z, deg)
            a = _call_op(tr, "angle", (z,))
            return a * (180.0 / math.pi) if deg else a
        return angle
    if name == "where":
        def where(*args, **kwargs):
            tr = _trace_of(args)
            if tr is None:
                return real(*args, **kwargs)
            if len(args) != 3 or kwargs:
                raise _NotFusable("cunumpy.fuse: where takes (cond, x, y) "
                                  "when fused")
            return _call_op(tr, "where", args)
        return where
    if name in _REDUCTIONS:
        red = _REDUCTIONS[name]

        def reduction(a, axis=None, dtype=None, out=None, keepdims=False):
            tr = _trace_of((a,))
            if tr is None:
                return real(a, axis=axis, dtype=dtype, out=out,
                            keepdims=keepdims) if red in ("sum", "prod") \
                    else real(a, axis=axis, out=out, keepdims=keepdims)
            return _reduce(tr, red, a, axis, keepdims, dtype, out)
        return reduction
    if name in _DTYPE_NAMES and isinstance(real, type):
        dt = _np.dtype(real).name

        def cast(x):
            tr = _trace_of((x,))
            if tr is None:
                return real(x)
            t, nd = _text(tr, x)
            return _Traced(tr, f"{dt}({t})", nd, _np.dtype(dt))
        return cast
    if callable(real) and not isinstance(real, type):
        def refuse(*args, **kwargs):
            tr = _trace_of(args) or _trace_of(tuple(kwargs.values()))
            if tr is None:
                return real(*args, **kwargs)
            raise _NotFusable(
                f"cunumpy.fuse: '{name}' cannot be fused in {tr.fname}() "
                f"(fusion takes elementwise operations, ufunc calls, where, "
                f"astype and one final reduction); use fuse(fallback=True) "
                f"to run it unfused")
        return refuse
    return real


class _Fused:
    """A function compiled by @fuse: one program per argument signature."""

    def __init__(self, func, kernel_name=None, fallback=False):
        functools.update_wrapper(self, func)
        self._func = func
        self.kernel_name = kernel_name or func.__name__
        self._fallback = fallback
        self._cache = {}

    def _traced_function(self):
        module = sys.modules[__name__.rsplit(".", 1)[0]]
        ns = _Namespace(module)
        g = dict(self._func.__globals__)
        for k, v in list(g.items()):
            if v is module:
                g[k] = ns
            elif isinstance(v, types.BuiltinFunctionType) or callable(v):
                if getattr(v, "__module__", None) == module.__name__ or \
                        type(v).__module__ == module.__name__:
                    g[k] = _traced_callable(getattr(v, "__name__", k), v)
        return types.FunctionType(self._func.__code__, g, self._func.__name__,
                                  self._func.__defaults__,
                                  self._func.__closure__)

    def _build(self, args, key):
        tr = _Trace(self._func.__name__, self._fallback)
        targs = []
        for i, a in enumerate(args):
            if isinstance(a, ndarray):
                name = f"_a{i}"
                tr.bindings.append((name, _code(a), a.ndim))
                targs.append(_Traced(tr, name, a.ndim, a.dtype))
            else:
                targs.append(a)
        # argument arrays come first, in order; captures follow
        nargs = len(tr.bindings)
        try:
            res = self._traced_function()(*targs)
        except _NotFusable:
            if self._fallback:
                return None
            raise
        multi = isinstance(res, tuple)
        outs = res if multi else (res,)
        progs = []
        for r in outs:
            text, _ = _text(tr, r)
            progs.append(_Program(text, list(tr.bindings)))
        arrays_from_captures = tr.arrays
        return (nargs, arrays_from_captures, progs, multi)

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{self._func.__name__}(): a fused function "
                            f"takes positional arguments only")
        key = []
        arrays = []
        conv = []
        for a in args:
            if isinstance(a, ndarray):
                key.append((_code(a), a.ndim))
                arrays.append(a)
                conv.append(a)
            elif type(a) in (bool, int, float, complex):
                # the value is part of the program (a weak literal)
                key.append((type(a), a if a == a else "nan"))
                conv.append(a)
            else:
                b = asarray(a)
                key.append((_code(b), b.ndim))
                arrays.append(b)
                conv.append(b)
        key = tuple(key)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._build(conv, key)
            if len(self._cache) >= _CACHE_MAX:
                self._cache.clear()
            self._cache[key] = entry or False
        if not entry:
            return self._func(*conv)
        nargs, captured, progs, multi = entry
        ins = arrays + captured
        outs = tuple(p(ins) for p in progs)
        return outs if multi else outs[0]


def fuse(*args, kernel_name=None, fallback=False):
    """Decorator fusing a function's elementwise operations into one pass
    (CuPy's cupy.fuse): ``@fuse``, ``@fuse()`` or
    ``@fuse(kernel_name=..., fallback=...)``. The function may use
    operators, ufuncs (cp.sin(x)), Python scalars, cp.where, astype and one
    final reduction (cp.sum(expr, axis=...)). A Python if/while on a traced
    value is a TypeError naming the construct; other calls (matmul,
    reshape, indexing) raise TypeError naming them, or with fallback=True
    the function runs unfused for that signature."""
    if len(args) == 1 and callable(args[0]):
        return _Fused(args[0], kernel_name, fallback)
    if args:
        raise TypeError("fuse() takes a function or keyword arguments only")
    return lambda f: _Fused(f, kernel_name, fallback)
