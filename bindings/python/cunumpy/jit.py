"""Kernels in Python syntax (CuPy's cupyx.jit.rawkernel).

@jit.rawkernel() translates a function's body (a subset of Python, read
with the ast module) into CUDA C, once per signature of argument dtypes
(and array ndims), and launches it as kernel[grid, block](args) or
kernel(grid, block, args). The CUDA source is compiled through RawModule
(NVRTC with the engine's memory and disk caches). Kernels that use no
block-level primitive (shared memory, syncthreads, syncwarp, shuffles) also
run on CPU arrays: the same body is translated to C and run by the CPU
custom-kernel compiler: one loop iteration per (block, thread), which the
engine's elementwise runner spreads over OpenMP threads for large launches
(the threads of such a kernel are independent); atomics are real atomics
there.

The subset: parameters (cunumpy arrays, indexed x[i] or x[i, j], with
.shape[k], .size, .ndim and len(x); Python or NumPy scalars), local
variables (each typed by promoting every value assigned to it, NumPy's
rules with Python literals weak), arithmetic, comparison, boolean and
bitwise operators, `a if c else b`, the math functions of the math module
(and their NumPy names), abs/min/max, casts (int, float, bool,
numpy.float32(...), ...), if/elif/else, while, for over range(...),
break, continue, return, and the primitives below. Anything else is a
JitError naming the construct and its line.

The source comes from inspect.getsource (files, and the REPL where the
function's source is available); pass rawkernel(source=text) for
functions whose source inspect cannot see (exec'd strings).
"""

import ast
import inspect
import itertools
import math as _math
import textwrap

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray as _ndarray
from ._raw_kernel import RawModule

__all__ = ["rawkernel", "JitError", "threadIdx", "blockIdx", "blockDim",
           "gridDim", "grid", "gridsize", "syncthreads", "syncwarp",
           "shared_memory", "laneid", "atomic_add", "atomic_sub",
           "atomic_min", "atomic_max", "atomic_and", "atomic_or",
           "atomic_xor", "atomic_exch", "atomic_cas", "shfl_sync",
           "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"]


class JitError(TypeError):
    """A kernel uses a construct the translator does not support, or uses
    one wrongly; the message names it and its line."""


# ---- the primitives, as Python objects --------------------------------------
# They only mean something inside a translated kernel; called from Python
# they say so.

class _Dim3:
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise RuntimeError("jit.%s.%s is only usable inside a "
                           "@jit.rawkernel function" % (self._name, attr))

    def __repr__(self):
        return "<jit.%s>" % self._name


threadIdx = _Dim3("threadIdx")
blockIdx = _Dim3("blockIdx")
blockDim = _Dim3("blockDim")
gridDim = _Dim3("gridDim")


def _primitive(name):
    def f(*args, **kwargs):
        raise RuntimeError("jit.%s is only usable inside a @jit.rawkernel "
                           "function" % name)
    f.__name__ = name
    f.__qualname__ = name
    return f


for _n in __all__[6:]:
    globals()[_n] = _primitive(_n)
del _n

# Block-level primitives: a kernel using one needs CUDA.
_BLOCK_LEVEL = {"syncthreads", "syncwarp", "shared_memory", "shfl_sync",
                "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"}

# ---- types ---------------------------------------------------------------

_DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
           "int64", "uint64", "float32", "float64")
_CUDA_C = {"bool": "bool", "int8": "signed char", "uint8": "unsigned char",
           "int16": "short", "uint16": "unsigned short", "int32": "int",
           "uint32": "unsigned int", "int64": "long long",
           "uint64": "unsigned long long", "float32": "float",
           "float64": "double"}
_HOST_C = {"bool": "bool", "int8": "int8_t", "uint8": "uint8_t",
           "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t",
           "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t",
           "float32": "float", "float64": "double"}
_DTYPE_ALIASES = {"bool_": "bool", "float_": "float64", "double": "float64",
                  "single": "float32", "intp": "int64", "uintp": "uint64",
                  "int_": "int64", "intc": "int32", "uintc": "uint32",
                  "longlong": "int64", "ulonglong": "uint64",
                  "short": "int16", "ushort": "uint16", "byte": "int8",
                  "ubyte": "uint8"}


class _S:
    """A scalar value's type: a dtype name, weak for Python literals."""
    __slots__ = ("dt", "weak")

    def __init__(self, dt, weak=False):
        self.dt = dt
        self.weak = weak

    kind = property(lambda self: _np.dtype(self.dt).kind)

    def strong(self):
        return _S(self.dt)

    def __eq__(self, o):
        return isinstance(o, _S) and (self.dt, self.weak) == (o.dt, o.weak)

    def __hash__(self):
        return hash((self.dt, self.weak))


class _A:
    """An array: element dtype, ndim, C names of its pointer, shape and
    strides (in elements); shared arrays have a constant size."""
    __slots__ = ("dt", "ndim", "ptr", "shape", "strides", "shared")

    def __init__(self, dt, ndim, ptr, shape, strides, shared=False):
        self.dt, self.ndim, self.ptr = dt, ndim, ptr
        self.shape, self.strides, self.shared = shape, strides, shared


class _Tuple:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


_UINT32 = _S("uint32")
_INT64 = _S("int64")
_F64 = _S("float64")
_BOOL = _S("bool")
_U64S = _S("uint64")


def _promote(a, b):
    if a.weak and b.weak:
        for k, dt in (("f", "float64"), ("iu", "int64")):
            if a.kind in k or b.kind in k:
                return _S(dt, True)
        return _S("bool", True)
    if a.weak:
        a, b = b, a
    if b.weak:
        if b.kind == "b" or (b.kind in "iu" and a.kind != "b"):
            return a
        if b.kind in "iu":
            return _INT64
        return a if a.kind == "f" else _F64
    return _S(_np.promote_types(a.dt, b.dt).name)


def _literal_type(v):
    if isinstance(v, bool):
        return _S("bool", True)
    if isinstance(v, int):
        return _S("int64", True)
    if isinstance(v, float):
        return _S("float64", True)
    return None


def _literal_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if not -2**63 <= v < 2**64:
            raise OverflowError("integer literal %d does not fit 64 bits" % v)
        return "%dLL" % v if v < 2**63 else "%dULL" % v
    if _math.isnan(v):
        return "(0.0/0.0)"
    if _math.isinf(v):
        return "(1.0/0.0)" if v > 0 else "(-1.0/0.0)"
    return repr(float(v))


# ---- math functions ------------------------------------------------------

_MATH1 = {n: n for n in (
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "exp2", "expm1", "log", "log2",
    "log10", "log1p", "sqrt", "cbrt", "floor", "ceil", "trunc", "erf",
    "erfc", "lgamma", "tgamma", "fabs", "rint")}
_MATH1.update({"arcsin": "asin", "arccos": "acos", "arctan": "atan",
               "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
               "gamma": "tgamma"})
_MATH2 = {n: n for n in ("atan2", "hypot", "fmod", "copysign", "pow")}
_MATH2.update({"arctan2": "atan2", "power": "pow"})
_PREDICATES = {"isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite"}
_CONSTANTS = {"pi": _math.pi, "e": _math.e, "inf": _math.inf,
              "nan": _math.nan, "tau": _math.tau}

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
           ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
           ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&",
           ast.BitOr: "|", ast.BitXor: "^"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.Eq: "==", ast.NotEq: "!="}

# Helpers both backends share (the CUDA prelude marks them __device__).
_HELPERS = r"""
JIT_FN long long _jit_floordiv_i(long long a, long long b) {
  /* NumPy's results where C traps: x // 0 is 0, MIN // -1 wraps */
  if (b == 0)
    return 0;
  if (b == -1)
    return (long long)(0ULL - (unsigned long long)a);
  long long q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
JIT_FN long long _jit_mod_i(long long a, long long b) {
  if (b == 0 || b == -1)
    return 0;
  long long r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
JIT_FN unsigned long long _jit_div_u(unsigned long long a,
                                     unsigned long long b) {
  return b ? a / b : 0;
}
JIT_FN unsigned long long _jit_mod_u(unsigned long long a,
                                     unsigned long long b) {
  return b ? a % b : 0;
}
JIT_FN double _jit_mod_d(double a, double b) {
  double r = fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
JIT_FN float _jit_mod_f(float a, float b) {
  float r = fmodf(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
JIT_FN long long _jit_pow_i(long long b, long long e) {
  long long r = 1;
  if (e < 0)
    return b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0);
  while (e) {
    if (e & 1)
      r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}
"""

_CUDA_PRELUDE = ("#define JIT_FN static __device__ __forceinline__\n" +
                 _HELPERS + r"""
JIT_FN unsigned int _jit_laneid() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
""")

_HOST_PRELUDE = ("#define JIT_FN static inline\n" + _HELPERS + r"""
typedef struct { uint32_t x, y, z; } _jit_dim3;
static _Thread_local int64_t _jit_next = -1, _jit_launch = -1;
static _Thread_local uint32_t _jit_tx, _jit_bx;
""")


def _loc(fn_info, node):
    return "jit kernel '%s' (%s, line %d)" % (
        fn_info[0], fn_info[1], fn_info[2] + getattr(node, "lineno", 1) - 1)


def _callee_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class _Translator:
    """One translation of a kernel's body for one argument signature."""

    def __init__(self, fdef, info, env, params, backend, var_types):
        self.fdef = fdef
        self.info = info
        self.env = env
        self.backend = backend
        self.cuda = backend == "cuda"
        self.ct = _CUDA_C if self.cuda else _HOST_C
        self.vars = dict(params)
        self.var_types = var_types  # name -> _S, fixed over passes
        self.assigned = {}  # name -> _S promoted over this pass
        self.decls = []
        self.lines = []
        self.depth = 1
        self.tmp = 0
        self.atomics = set()  # (op, dtype) used on the host
        self.uses = set()
        self.shared = {}  # variable name -> (dtype, size or None)
        self.loops = 0

    # -- errors and output
    def err(self, node, msg):
        return JitError("%s: %s" % (_loc(self.info, node), msg))

    def emit(self, text):
        self.lines.append("  " * self.depth + text)

    def new_tmp(self):
        self.tmp += 1
        return "_jit_t%d" % self.tmp

    def cname(self, t):
        return self.ct[t.dt]

    def cast(self, code, frm, to):
        if frm.dt == to.dt and not frm.weak:
            return "(%s)" % code
        return "((%s)(%s))" % (self.cname(to), code)

    # -- statements
    def body(self, stmts):
        for s in stmts:
            self.stmt(s)

    def block(self, stmts):
        self.depth += 1
        self.body(stmts)
        self.depth -= 1

    def stmt(self, s):
        m = getattr(self, "st_" + type(s).__name__, None)
        if m is None:
            raise self.err(s, "unsupported statement: %s" %
                           _stmt_name(s))
        m(s)

    def st_Pass(self, s):
        pass

    def st_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value,
                                                            str):
            return  # a docstring
        code, t = self.expr(s.value, allow_void=True)
        if isinstance(t, _Tuple):
            raise self.err(s, "a tuple as a statement does nothing")
        self.emit("%s;" % code)

    def st_Return(self, s):
        if s.value is not None:
            raise self.err(s, "a kernel returns no value (write results "
                           "into an array argument)")
        self.emit("return;")

    def st_Break(self, s):
        if not self.loops:
            raise self.err(s, "'break' outside a loop")
        self.emit("break;")

    def st_Continue(self, s):
        if not self.loops:
            raise self.err(s, "'continue' outside a loop")
        self.emit("continue;")

    def st_If(self, s):
        c = self.cond(s.test)
        self.emit("if (%s) {" % c)
        self.block(s.body)
        if s.orelse:
            self.emit("} else {")
            self.block(s.orelse)
        self.emit("}")

    def st_While(self, s):
        if s.orelse:
            raise self.err(s, "unsupported construct: while ... else")
        self.emit("while (%s) {" % self.cond(s.test))
        self.loops += 1
        self.block(s.body)
        self.loops -= 1
        self.emit("}")

    def st_For(self, s):
        if s.orelse:
            raise self.err(s, "unsupported construct: for ... else")
        it = s.iter
        if not (isinstance(it, ast.Call) and _callee_name(it.func) ==
                "range" and not it.keywords and 1 <= len(it.args) <= 3):
            raise self.err(s, "unsupported construct: a for loop over "
                           "anything but range(stop), range(start, stop) "
                           "or range(start, stop, step)")
        if not isinstance(s.target, ast.Name):
            raise self.err(s, "a range loop's target must be one name")
        args = [self.expr(a) for a in it.args]
        for (c, t), a in zip(args, it.args):
            if not isinstance(t, _S) or t.kind not in "biu":
                raise self.err(a, "range() takes integers")
        if len(args) == 1:
            args = [("0LL", _S("int64", True))] + args
        if len(args) == 2:
            args.append(("1LL", _S("int64", True)))
        t = args[0][1]
        for _, u in args[1:]:
            t = _promote(t, u)
        t = t.strong() if t.kind != "b" else _INT64
        var = self.assign_name(s.target, t, s)
        stop, step = self.new_tmp(), self.new_tmp()
        ct = self.cname(t)
        self.emit("{")
        self.depth += 1
        self.emit("const %s %s = %s, %s = %s;" % (
            ct, stop, self.cast(args[1][0], args[1][1], t), step,
            self.cast(args[2][0], args[2][1], t)))
        step_node = it.args[2] if len(it.args) == 3 else None
        sign = _const_sign(step_node)
        if sign is None:
            test = "(%s > 0 ? %s < %s : %s > %s)" % (step, var, stop, var,
                                                     stop)
        elif sign == 0:
            raise self.err(it, "range() step must not be zero")
        else:
            test = "%s %s %s" % (var, "<" if sign > 0 else ">", stop)
        self.emit("for (%s = %s; %s; %s += %s) {" % (
            var, self.cast(args[0][0], args[0][1], t), test, var, step))
        self.loops += 1
        self.block(s.body)
        self.loops -= 1
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    def st_Assign(self, s):
        if len(s.targets) != 1:
            raise self.err(s, "unsupported construct: chained assignment "
                           "(a = b = ...)")
        tgt = s.targets[0]
        v = s.value
        if isinstance(v, ast.Call) and _callee_name(v.func) == \
                "shared_memory":
            return self.shared_memory(tgt, v)
        if isinstance(tgt, ast.Tuple):
            code, t = self.expr(v)
            if not isinstance(t, _Tuple) or len(t.items) != len(tgt.elts):
                raise self.err(s, "cannot unpack this value into %d names"
                               % len(tgt.elts))
            tmps = []
            for (c, u) in t.items:
                tm = self.new_tmp()
                self.decls.append("%s %s;" % (self.cname(u), tm))
                self.emit("%s = %s;" % (tm, c))
                tmps.append((tm, u))
            for e, (tm, u) in zip(tgt.elts, tmps):
                self.store(e, tm, u, s)
            return
        code, t = self.expr(v)
        self.store(tgt, code, t, s)

    def st_AugAssign(self, s):
        op = _BINOPS.get(type(s.op))
        if op is None:
            raise self.err(s, "unsupported operator %s=" %
                           type(s.op).__name__)
        tgt = s.target
        if isinstance(tgt, ast.Name):
            load = ast.copy_location(ast.Name(tgt.id, ast.Load()), tgt)
        elif isinstance(tgt, ast.Subscript):
            load = ast.copy_location(
                ast.Subscript(tgt.value, tgt.slice, ast.Load()), tgt)
        else:
            raise self.err(s, "unsupported augmented assignment target")
        code, t = self.binop(s, op, self.expr(load), self.expr(s.value))
        self.store(tgt, code, t, s)

    def st_AnnAssign(self, s):
        raise self.err(s, "unsupported construct: annotated assignment")

    def store(self, tgt, code, t, node):
        if isinstance(tgt, ast.Name):
            if not isinstance(t, _S):
                raise self.err(node, "cannot assign %s to a variable" %
                               ("an array" if isinstance(t, _A)
                                else "a tuple"))
            var = self.assign_name(tgt, t.strong(), node)
            self.emit("%s = %s;" % (var, self.cast(code, t,
                                                   self.var_types[tgt.id])))
        elif isinstance(tgt, ast.Subscript):
            if not isinstance(t, _S):
                raise self.err(node, "an array element takes a scalar")
            ref, et = self.subscript(tgt)
            self.emit("%s = %s;" % (ref, self.cast(code, t, et)))
        else:
            raise self.err(node, "unsupported assignment target: %s" %
                           type(tgt).__name__)

    def assign_name(self, tgt, t, node):
        name = tgt.id
        cur = self.vars.get(name)
        if cur is not None and not isinstance(cur, str):
            raise self.err(node, "cannot assign to '%s' (an argument or "
                           "shared array)" % name)
        prev = self.assigned.get(name)
        self.assigned[name] = t if prev is None else _promote(prev,
                                                               t).strong()
        if name not in self.var_types:
            self.var_types[name] = t
        self.vars[name] = "v_" + name
        return "v_" + name

    def shared_memory(self, tgt, call):
        self.uses.add(("shared_memory", call.lineno))
        if not self.cuda:
            raise self.err(call, _cpu_refusal("shared_memory"))
        if not isinstance(tgt, ast.Name):
            raise self.err(call, "shared_memory(...) must be assigned to a "
                           "name")
        if call.keywords or len(call.args) != 2:
            raise self.err(call, "shared_memory takes (dtype, size)")
        dt = self.dtype_arg(call.args[0])
        size = self.const_int(call.args[1], allow_none=True)
        if size is not None and size <= 0:
            raise self.err(call, "shared_memory size must be positive")
        name = tgt.id
        if name in self.vars:
            prev = self.shared.get(name)
            if prev != (dt, size):
                raise self.err(call, "'%s' is already a variable" % name)
        self.shared[name] = (dt, size)
        arr = "_jit_shared_" + name
        ct = _CUDA_C[dt]
        if size is None:
            self.decls.append("extern __shared__ unsigned char "
                              "_jit_dynamic_shared[];")
            self.decls.append("%s *const v_%s = (%s *)_jit_dynamic_shared;"
                              % (ct, name, ct))
        else:
            self.decls.append("__shared__ %s %s[%d];" % (ct, arr, size))
            self.decls.append("%s *const v_%s = %s;" % (ct, name, arr))
        self.vars[name] = _A(dt, 1, "v_" + name,
                             ["%dLL" % size if size else None], ["1LL"],
                             shared=True)

    # -- expressions
    def cond(self, node):
        c, t = self.expr(node)
        if not isinstance(t, _S):
            raise self.err(node, "a condition must be a scalar")
        return c

    def expr(self, node, allow_void=False):
        m = getattr(self, "ex_" + type(node).__name__, None)
        if m is None:
            raise self.err(node, "unsupported expression: %s" %
                           _expr_name(node))
        code, t = m(node)
        if t is None and not allow_void:
            raise self.err(node, "this call returns no value")
        return code, t

    def ex_Constant(self, node):
        v = node.value
        t = _literal_type(v)
        if t is None:
            raise self.err(node, "unsupported constant %r" % (v,))
        return _literal_text(v), t

    def ex_Name(self, node):
        name = node.id
        v = self.vars.get(name)
        if isinstance(v, str):
            return v, self.var_types[name]
        if v is not None:
            return v.ptr if isinstance(v, _A) else v[0], v \
                if isinstance(v, _A) else v[1]
        if name in self.var_types:  # assigned later in the source
            return "v_" + name, self.var_types[name]
        if name in self.env:
            val = self.env[name]
            t = _literal_type(val) if not isinstance(val, _np.generic) \
                else _S(val.dtype.name)
            if t is not None:
                return _literal_text(val.item() if isinstance(
                    val, _np.generic) else val), t
        raise self.err(node, "unknown name '%s' (a kernel reads its "
                       "arguments, its locals and global int/float/bool "
                       "constants)" % name)

    def ex_Attribute(self, node):
        a = node.attr
        base = _callee_name(node.value)
        if base in ("threadIdx", "blockIdx", "blockDim", "gridDim"):
            if a not in ("x", "y", "z"):
                raise self.err(node, "%s has x, y and z, not '%s'" %
                               (base, a))
            return "%s.%s" % (base, a), _UINT32
        if isinstance(node.value, ast.Name) and node.value.id in self.vars:
            arr = self.vars[node.value.id]
            if isinstance(arr, _A):
                if a == "size":
                    return self.array_size(arr, node), _INT64
                if a == "ndim":
                    return "%dLL" % arr.ndim, _S("int64", True)
                if a == "shape":
                    raise self.err(node, "index .shape with a constant: "
                                   "x.shape[0]")
            raise self.err(node, "unsupported attribute '%s' of '%s'" %
                           (a, node.value.id))
        if a in _CONSTANTS:
            return _literal_text(_CONSTANTS[a]), _S("float64", True)
        raise self.err(node, "unsupported attribute '%s'" % a)

    def array_size(self, arr, node):
        if None in arr.shape:
            raise self.err(node, "a dynamic shared array has no size")
        return "(" + " * ".join(arr.shape) + ")" if arr.shape else "1LL"

    def ex_Subscript(self, node):
        v = node.value
        if isinstance(v, ast.Attribute) and v.attr == "shape" and \
                isinstance(v.value, ast.Name) and \
                isinstance(self.vars.get(v.value.id), _A):
            arr = self.vars[v.value.id]
            k = self.const_int(node.slice)
            if not -arr.ndim <= k < arr.ndim:
                raise self.err(node, "'%s' has %d dimensions: shape[%d] is "
                               "out of range" % (v.value.id, arr.ndim, k))
            s = arr.shape[k % arr.ndim]
            if s is None:
                raise self.err(node, "a dynamic shared array has no shape")
            return s, _INT64
        code, t = self.expr(v)
        if isinstance(t, _Tuple):
            k = self.const_int(node.slice)
            if not -len(t.items) <= k < len(t.items):
                raise self.err(node, "tuple index out of range")
            return t.items[k]
        return self.subscript(node)

    def subscript(self, node):
        if not isinstance(node.value, ast.Name) or not isinstance(
                self.vars.get(node.value.id), _A):
            raise self.err(node, "only array arguments and shared arrays "
                           "can be indexed")
        arr = self.vars[node.value.id]
        idx = node.slice
        items = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        if len(items) != arr.ndim:
            raise self.err(node, "'%s' has %d dimensions and takes %d "
                           "indices, not %d" % (node.value.id, arr.ndim,
                                                arr.ndim, len(items)))
        terms = []
        for it, st in zip(items, arr.strides):
            if isinstance(it, ast.Slice):
                raise self.err(it, "unsupported construct: slicing (index "
                               "with integers)")
            c, t = self.expr(it)
            if not isinstance(t, _S) or t.kind not in "biu":
                raise self.err(it, "array indices must be integers")
            c = "(long long)(%s)" % c if self.cuda else "(int64_t)(%s)" % c
            terms.append(c if st == "1LL" else "%s * %s" % (c, st))
        return "%s[%s]" % (arr.ptr, " + ".join(terms) or "0"), _S(arr.dt)

    def ex_Tuple(self, node):
        return None, _Tuple([self.scalar(e) for e in node.elts])

    def scalar(self, node):
        c, t = self.expr(node)
        if not isinstance(t, _S):
            raise self.err(node, "expected a scalar")
        return c, t

    def ex_UnaryOp(self, node):
        c, t = self.scalar(node.operand)
        if isinstance(node.op, ast.Not):
            return "(!(%s))" % c, _BOOL
        if isinstance(node.op, ast.USub):
            r = t if t.kind != "b" else _S("int64", t.weak)
            return self.cast("-(%s)" % self.cast(c, t, r), _S(r.dt), r), r
        if isinstance(node.op, ast.UAdd):
            return c, t
        if t.kind == "b":
            return "(!(%s))" % c, t
        if t.kind not in "iu":
            raise self.err(node, "~ takes integers or booleans")
        return self.cast("~(%s)" % c, _S(t.dt), t), t

    def ex_BinOp(self, node):
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.err(node, "unsupported operator %s" %
                           type(node.op).__name__)
        return self.binop(node, op, self.scalar(node.left),
                          self.scalar(node.right))

    def binop(self, node, op, left, right):
        (a, ta), (b, tb) = left, right
        if not isinstance(ta, _S) or not isinstance(tb, _S):
            raise self.err(node, "operators take scalars")
        t = _promote(ta, tb)
        if op in ("<<", ">>", "&", "|", "^"):
            if t.kind not in "biu":
                raise self.err(node, "%s takes integers or booleans" % op)
            if t.kind == "b" and op in ("<<", ">>"):
                t = _S("int64", t.weak)
        if op == "/":
            if t.kind != "f":
                t = _S("float64", t.weak)
        elif t.kind == "b" and op in ("+", "-", "*", "//", "%", "**"):
            t = _S("int64", t.weak)
        x, y = self.cast(a, ta, t), self.cast(b, tb, t)
        s = _S(t.dt)
        if op == "//":
            if t.kind == "f":
                return self.cast("floor(%s / %s)" % (x, y), s, t), t
            if t.kind == "u":
                return self.cast("_jit_div_u(%s, %s)" % (x, y), _U64S, t), t
            return self.cast("_jit_floordiv_i(%s, %s)" % (x, y), _INT64,
                             t), t
        if op == "%":
            if t.kind == "f":
                f = "_jit_mod_f" if t.dt == "float32" else "_jit_mod_d"
                return "%s(%s, %s)" % (f, x, y), t
            if t.kind == "u":
                return self.cast("_jit_mod_u(%s, %s)" % (x, y), _U64S, t), t
            return self.cast("_jit_mod_i(%s, %s)" % (x, y), _INT64, t), t
        if op == "**":
            if t.kind == "f":
                return "pow(%s, %s)" % (x, y), t
            return self.cast("_jit_pow_i(%s, %s)" % (x, y), _INT64, t), t
        return self.cast("%s %s %s" % (x, op, y), s, t), t

    def ex_BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        return "(%s)" % op.join("(%s)" % self.cond(v)
                                for v in node.values), _BOOL

    def ex_Compare(self, node):
        parts = []
        left = self.scalar(node.left)
        for op, rn in zip(node.ops, node.comparators):
            cop = _CMPOPS.get(type(op))
            if cop is None:
                raise self.err(node, "unsupported comparison %s" %
                               type(op).__name__)
            right = self.scalar(rn)
            t = _promote(left[1], right[1])
            parts.append("(%s %s %s)" % (self.cast(left[0], left[1], t), cop,
                                         self.cast(right[0], right[1], t)))
            left = right
        return "(%s)" % " && ".join(parts), _BOOL

    def ex_IfExp(self, node):
        c = self.cond(node.test)
        a, ta = self.scalar(node.body)
        b, tb = self.scalar(node.orelse)
        t = _promote(ta, tb)
        return "(%s ? %s : %s)" % (c, self.cast(a, ta, t),
                                   self.cast(b, tb, t)), t

    # -- calls
    def ex_Call(self, node):
        name = _callee_name(node.func)
        if name is None:
            raise self.err(node, "unsupported call")
        m = getattr(self, "call_" + name, None)
        if m is not None:
            return m(node)
        if name.startswith("atomic_") and name[7:] in _ATOMICS:
            return self.atomic(node, name[7:])
        if name in ("shfl_sync", "shfl_up_sync", "shfl_down_sync",
                    "shfl_xor_sync"):
            return self.shuffle(node, name)
        if node.keywords:
            raise self.err(node, "%s() takes no keyword arguments" % name)
        dt = _dtype_name(name)
        if dt is not None:
            c, t = self.one_arg(node, name)
            return self.cast(c, _S(dt, True), _S(dt)), _S(dt)
        if name in _MATH1 or name in _PREDICATES:
            c, t = self.one_arg(node, name)
            ft = t if t.kind == "f" else _F64
            c = self.cast(c, t, ft) if t.dt != ft.dt else c
            if name in _PREDICATES:
                return "((bool)%s(%s))" % (_PREDICATES[name], c), _BOOL
            return "%s(%s)" % (_MATH1[name], c), ft
        if name in _MATH2:
            if len(node.args) != 2:
                raise self.err(node, "%s() takes 2 arguments" % name)
            (a, ta), (b, tb) = self.scalar(node.args[0]), self.scalar(
                node.args[1])
            t = _promote(ta, tb)
            if t.kind != "f":
                t = _S("float64", t.weak)
            return "%s(%s, %s)" % (_MATH2[name], self.cast(a, ta, t),
                                   self.cast(b, tb, t)), t
        if name == "range":
            raise self.err(node, "range() is only usable as a for loop's "
                           "iterable")
        raise self.err(node, "unsupported function '%s'" % name)

    def one_arg(self, node, name):
        if len(node.args) != 1 or node.keywords:
            raise self.err(node, "%s() takes 1 argument" % name)
        return self.scalar(node.args[0])

    def call_int(self, node):
        c, t = self.one_arg(node, "int")
        return self.cast(c, _S("int64", True), _INT64), _INT64

    def call_float(self, node):
        c, t = self.one_arg(node, "float")
        return self.cast(c, _S("float64", True), _F64), _F64

    def call_bool(self, node):
        c, t = self.one_arg(node, "bool")
        return "((bool)(%s))" % c, _BOOL

    def call_abs(self, node):
        c, t = self.one_arg(node, "abs")
        if t.kind == "f":
            return "fabs(%s)" % c, t
        if t.kind == "u" or t.kind == "b":
            return c, t
        return self.cast("(%s) < 0 ? -(%s) : (%s)" % (c, c, c), _S(t.dt),
                         t), t

    def call_min(self, node):
        return self.minmax(node, "<")

    def call_max(self, node):
        return self.minmax(node, ">")

    def minmax(self, node, op):
        if len(node.args) != 2 or node.keywords:
            raise self.err(node, "min() and max() take 2 scalars")
        (a, ta), (b, tb) = self.scalar(node.args[0]), self.scalar(
            node.args[1])
        t = _promote(ta, tb)
        x, y = self.cast(a, ta, t), self.cast(b, tb, t)
        return "((%s) %s (%s) ? (%s) : (%s))" % (x, op, y, x, y), t

    def call_len(self, node):
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Name) \
                or not isinstance(self.vars.get(node.args[0].id), _A):
            raise self.err(node, "len() takes an array")
        arr = self.vars[node.args[0].id]
        if arr.shape[0] is None:
            raise self.err(node, "a dynamic shared array has no length")
        return arr.shape[0], _INT64

    def ndim_arg(self, node, name):
        if len(node.args) != 1 or node.keywords:
            raise self.err(node, "%s() takes ndim (1, 2 or 3)" % name)
        n = self.const_int(node.args[0])
        if n not in (1, 2, 3):
            raise self.err(node, "%s() takes ndim 1, 2 or 3, not %d" %
                           (name, n))
        return n

    def call_grid(self, node):
        n = self.ndim_arg(node, "grid")
        items = [("((long long)blockIdx.%s * blockDim.%s + threadIdx.%s)" %
                  (d, d, d), _INT64) for d in "xyz"[:n]]
        return (items[0] if n == 1 else (None, _Tuple(items)))

    def call_gridsize(self, node):
        n = self.ndim_arg(node, "gridsize")
        items = [("((long long)blockDim.%s * gridDim.%s)" % (d, d), _INT64)
                 for d in "xyz"[:n]]
        return (items[0] if n == 1 else (None, _Tuple(items)))

    def call_laneid(self, node):
        if node.args or node.keywords:
            raise self.err(node, "laneid() takes no arguments")
        if self.cuda:
            return "_jit_laneid()", _UINT32
        return ("((uint32_t)((threadIdx.x + blockDim.x * (threadIdx.y + "
                "blockDim.y * threadIdx.z)) % 32u))"), _UINT32

    def block_level(self, node, name):
        self.uses.add((name, node.lineno))
        if not self.cuda:
            raise self.err(node, _cpu_refusal(name))

    def call_syncthreads(self, node):
        self.block_level(node, "syncthreads")
        if node.args or node.keywords:
            raise self.err(node, "syncthreads() takes no arguments")
        return "__syncthreads()", None

    def call_syncwarp(self, node):
        self.block_level(node, "syncwarp")
        mask = "0xffffffffu"
        args = list(node.args) + [k.value for k in node.keywords
                                  if k.arg == "mask"]
        if len(args) > 1 or any(k.arg != "mask" for k in node.keywords):
            raise self.err(node, "syncwarp() takes an optional mask")
        if args:
            c, t = self.scalar(args[0])
            mask = "(unsigned int)(%s)" % c
        return "__syncwarp(%s)" % mask, None

    def call_shared_memory(self, node):
        raise self.err(node, "shared_memory(...) must be assigned to a "
                       "name: smem = shared_memory(dtype, size)")

    def shuffle(self, node, name):
        self.block_level(node, name)
        kw = {k.arg: k.value for k in node.keywords}
        args = list(node.args)
        if len(args) < 3 or len(args) > 4 or set(kw) - {"width"} or \
                (len(args) == 4 and kw):
            raise self.err(node, "%s takes (mask, var, %s, width=32)" % (
                name, "srcLane" if name == "shfl_sync" else
                "laneMask" if name == "shfl_xor_sync" else "delta"))
        if len(args) == 3:
            args.append(kw.get("width", ast.Constant(32)))
        (m, _), (v, t), (lane, lt), (w, _) = [self.scalar(a) for a in args]
        if t.dt not in ("int32", "uint32", "int64", "uint64", "float32",
                        "float64"):
            raise self.err(node, "%s takes 32- and 64-bit integers and "
                           "floats, not %s" % (name, t.dt))
        t = t.strong()
        return "__%s((unsigned int)(%s), %s, (%s)(%s), (int)(%s))" % (
            name, m, self.cast(v, t, t), "unsigned int" if name in (
                "shfl_up_sync", "shfl_down_sync") else "int", lane, w), t

    def atomic(self, node, op):
        name = "atomic_" + op
        nargs = 4 if op == "cas" else 3
        if len(node.args) != nargs or node.keywords:
            raise self.err(node, "%s takes (array, index, %s)" % (
                name, "compare, value" if op == "cas" else "value"))
        arr_node = node.args[0]
        if not isinstance(arr_node, ast.Name) or not isinstance(
                self.vars.get(arr_node.id), _A):
            raise self.err(node, "%s takes an array first" % name)
        sub = ast.copy_location(ast.Subscript(arr_node, node.args[1],
                                              ast.Load()), node)
        ref, et = self.subscript(sub)
        dt = et.dt
        allowed = _ATOMICS[op]
        if dt not in allowed:
            raise self.err(node, "%s takes arrays of %s, not %s" % (
                name, ", ".join(allowed), dt))
        vals = [self.cast(c, t, et) for c, t in
                (self.scalar(a) for a in node.args[2:])]
        if self.cuda:
            return _cuda_atomic(op, dt, "&" + ref, vals), et
        self.atomics.add((op, dt))
        return "_jit_atomic_%s_%s(&%s, %s)" % (op, dt, ref,
                                              ", ".join(vals)), et

    # -- constant arguments
    def const_int(self, node, allow_none=False):
        v = _const_value(node, self.env)
        if v is None and allow_none and isinstance(node, ast.Constant):
            return None
        if isinstance(v, (int, _np.integer)) and not isinstance(v, bool):
            return int(v)
        raise self.err(node, "expected an integer constant (a literal or a "
                       "global)")

    def dtype_arg(self, node):
        name = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, (ast.Name, ast.Attribute)):
            name = _callee_name(node)
            if isinstance(node, ast.Name) and name in self.env:
                try:
                    name = _np.dtype(self.env[name]).name
                except TypeError:
                    pass
        dt = _dtype_name(name) if name else None
        if dt is None:
            raise self.err(node, "expected a dtype (numpy.float32, "
                           "'float32', ...)")
        return dt


def _dtype_name(name):
    if name in ("float", "int", "bool"):
        return None
    name = _DTYPE_ALIASES.get(name, name)
    return name if name in _DTYPES else None


def _const_value(node, env):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _const_value(node.operand, env)
        return -v if isinstance(v, (int, float)) else None
    if isinstance(node, ast.Name):
        return env.get(node.id)
    return None


def _const_sign(node):
    if node is None:
        return 1
    v = _const_value(node, {})
    if isinstance(v, int):
        return (v > 0) - (v < 0)
    return None


def _cpu_refusal(name):
    return ("%s() is a block-level primitive and needs CUDA arrays; the "
            "CPU backend runs only kernels without shared memory, "
            "syncthreads, syncwarp or shuffles" % name)


def _stmt_name(s):
    return {"FunctionDef": "nested function definition", "ClassDef":
            "class definition", "With": "with statement", "Try":
            "try statement", "Raise": "raise statement", "Import":
            "import statement", "ImportFrom": "import statement",
            "Global": "global statement", "Nonlocal": "nonlocal statement",
            "Delete": "del statement", "Assert": "assert statement",
            "AsyncFor": "async for", "AsyncWith": "async with",
            "Match": "match statement"}.get(type(s).__name__,
                                            type(s).__name__)


def _expr_name(e):
    return {"ListComp": "list comprehension", "SetComp": "set "
            "comprehension", "DictComp": "dict comprehension",
            "GeneratorExp": "generator expression", "Lambda": "lambda",
            "List": "list", "Dict": "dict", "Set": "set", "JoinedStr":
            "f-string", "Starred": "starred expression", "Await": "await",
            "Yield": "yield", "YieldFrom": "yield from", "NamedExpr":
            "assignment expression (:=)", "Slice": "slice"}.get(
                type(e).__name__, type(e).__name__)


_I32, _U32, _I64, _U64 = "int32", "uint32", "int64", "uint64"
_ATOMICS = {
    "add": (_I32, _U32, _I64, _U64, "float32", "float64"),
    "sub": (_I32, _U32, _I64, _U64, "float32", "float64"),
    "min": (_I32, _U32, _I64, _U64),
    "max": (_I32, _U32, _I64, _U64),
    "and": (_I32, _U32, _I64, _U64),
    "or": (_I32, _U32, _I64, _U64),
    "xor": (_I32, _U32, _I64, _U64),
    "exch": (_I32, _U32, _I64, _U64, "float32", "float64"),
    "cas": (_I32, _U32, _I64, _U64, "float32", "float64"),
}
_CUDA_ATOMIC = {"add": "atomicAdd", "sub": "atomicSub", "min": "atomicMin",
                "max": "atomicMax", "and": "atomicAnd", "or": "atomicOr",
                "xor": "atomicXor", "exch": "atomicExch",
                "cas": "atomicCAS"}


def _cuda_atomic(op, dt, addr, vals):
    f = _CUDA_ATOMIC[op]
    if op == "sub" and dt not in (_I32, _U32):
        op, f = "add", "atomicAdd"
        vals = ["-(%s)" % vals[0]]
    ull = "unsigned long long"
    if dt == _I64 and op not in ("min", "max"):
        return "((long long)%s((%s *)(%s), %s))" % (
            f, ull, addr, ", ".join("(%s)(%s)" % (ull, v) for v in vals))
    if dt in ("float32", "float64") and op in ("exch", "cas"):
        it, to_i, to_f = (("int", "__float_as_int", "__int_as_float")
                          if dt == "float32" else
                          (ull, "(unsigned long long)__double_as_longlong",
                           "__longlong_as_double"))
        return "%s(%s((%s *)(%s), %s))" % (
            to_f, f, it, addr, ", ".join("%s(%s)" % (to_i, v) for v in vals))
    return "%s(%s, %s)" % (f, addr, ", ".join(vals))


def _host_atomic(op, dt):
    ct = _HOST_C[dt]
    head = "JIT_FN %s _jit_atomic_%s_%s(%s *p, %s v%s) {\n" % (
        ct, op, dt, ct, ct, ", %s w" % ct if op == "cas" else "")
    sc = "__ATOMIC_SEQ_CST"
    fetch = {"add": "add", "sub": "sub", "and": "and", "or": "or",
             "xor": "xor"}
    if op in fetch and dt not in ("float32", "float64"):
        return head + "  return __atomic_fetch_%s(p, v, %s);\n}\n" % (
            fetch[op], sc)
    if op == "exch":
        return head + ("  %s r;\n  __atomic_exchange(p, &v, &r, %s);\n"
                       "  return r;\n}\n" % (ct, sc))
    if op == "cas":
        return head + ("  %s e = v;\n  __atomic_compare_exchange(p, &e, &w, "
                       "0, %s, %s);\n  return e;\n}\n" % (ct, sc, sc))
    new = {"add": "o + v", "sub": "o - v", "min": "v < o ? v : o",
           "max": "v > o ? v : o"}[op]
    return head + ("  %s o, n;\n  __atomic_load(p, &o, %s);\n  do {\n"
                   "    n = %s;\n  } while (!__atomic_compare_exchange(p, &o, "
                   "&n, 0, %s, %s));\n  return o;\n}\n" % (ct, sc, new, sc,
                                                           sc))


# ---- the kernel object ---------------------------------------------------

def _arg_type(a, i, fname):
    """(kind, dtype name, ndim) of a launch argument."""
    if isinstance(a, _ndarray):
        dt = _np.dtype(a.dtype).name
        if dt not in _DTYPES:
            raise TypeError("jit kernel '%s': argument %d has dtype %s; "
                            "kernels take %s" % (fname, i, dt,
                                                 ", ".join(_DTYPES)))
        return ("array", dt, a.ndim)
    if isinstance(a, _np.ndarray):
        raise TypeError("jit kernel '%s': argument %d is a NumPy array; "
                        "pass a cunumpy array (kernels never copy)" %
                        (fname, i))
    if isinstance(a, _np.generic):
        dt = a.dtype.name
        if dt not in _DTYPES:
            raise TypeError("jit kernel '%s': argument %d has dtype %s" %
                            (fname, i, dt))
        return ("scalar", dt, 0)
    for py, dt in ((bool, "bool"), (int, "int64"), (float, "float64")):
        if isinstance(a, py):
            return ("scalar", dt, 0)
    raise TypeError("jit kernel '%s': unsupported argument %d of type %s" %
                    (fname, i, type(a).__name__))


def _geometry(v, what):
    if isinstance(v, (int, _np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3:
        raise ValueError("%s must have 1 to 3 entries" % what)
    if any(x < 1 for x in v):
        raise ValueError("%s entries must be positive, not %r" % (what, v))
    return v + (1,) * (3 - len(v))


class _Compiled:
    """The translation of one signature on one backend."""

    def __init__(self, source, name, sig, backend, params):
        self.source = source
        self.name = name
        self.sig = sig
        self.backend = backend
        self.params = params
        self._module = None
        self._host = None

    def module(self):
        if self._module is None:
            self._module = RawModule(code=self.source)
        return self._module


# Tells the host translation's per-thread state apart between launches.
_LAUNCHES = itertools.count()


class JitRawKernel:
    """A Python function translated into a kernel per argument signature.
    kernel[grid, block](*args) or kernel(grid, block, args) launches it
    (shared_mem= bytes of dynamic shared memory, stream= on CUDA);
    kernel.source(*args, backend='cuda'|'cpu') and kernel.ptx(*args)
    show what a launch would compile (no GPU needed)."""

    def __init__(self, func, source=None):
        self.__wrapped__ = func
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        text, first = None, 1
        if source is not None:
            text = textwrap.dedent(str(source))
        else:
            try:
                lines, first = inspect.getsourcelines(func)
                text = textwrap.dedent("".join(lines))
            except (OSError, TypeError):
                raise JitError(
                    "jit kernel '%s': its source is not available to "
                    "inspect (an exec'd string?); pass it as "
                    "jit.rawkernel(source=text)" % func.__name__) from None
        tree = ast.parse(text)
        fdefs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                 and n.name == func.__name__]
        if not fdefs:
            raise JitError("jit kernel '%s': the source holds no 'def %s'" %
                           (func.__name__, func.__name__))
        self._fdef = fdefs[0]
        fname = getattr(func.__code__, "co_filename", "<source>")
        self._info = (func.__name__, fname if source is None else
                      "<source>", first if source is None else 1)
        a = self._fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or \
                getattr(a, "posonlyargs", None):
            raise JitError("%s: kernels take plain positional parameters "
                           "only" % _loc(self._info, self._fdef))
        self._params = [p.arg for p in a.args]
        env = dict(func.__globals__)
        if func.__closure__:
            env.update(zip(func.__code__.co_freevars,
                           (c.cell_contents for c in func.__closure__)))
        self._env = env
        self._cache = {}

    # -- translation
    def _translate(self, sig, backend):
        key = (sig, backend)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if len(sig) != len(self._params):
            raise TypeError("jit kernel '%s' takes %d arguments, not %d" %
                            (self.__name__, len(self._params), len(sig)))
        cuda = backend == "cuda"
        ct = _CUDA_C if cuda else _HOST_C
        params, cparams = {}, []
        for p, (kind, dt, nd) in zip(self._params, sig):
            if kind == "array":
                shape = ["_jit_%s_n%d" % (p, k) for k in range(nd)]
                strides = ["_jit_%s_s%d" % (p, k) for k in range(nd)]
                params[p] = _A(dt, nd, "v_" + p, shape, strides)
                cparams.append("%s *v_%s" % (ct[dt], p))
                cparams += ["%s %s" % ("long long" if cuda else "int64_t", n)
                            for n in shape + strides]
            else:
                params[p] = ("v_" + p, _S(dt))
                cparams.append("%s v_%s" % (ct[dt], p))
        var_types = {}
        for _ in range(8):
            tr = _Translator(self._fdef, self._info, self._env, params,
                             backend, dict(var_types))
            tr.body(self._fdef.body)
            fixed = {n: tr.assigned[n] for n in tr.assigned}
            if all(var_types.get(n) == t for n, t in fixed.items()):
                break
            var_types = fixed
        else:
            raise JitError("%s: the local variables' types do not settle" %
                           _loc(self._info, self._fdef))
        decls = []
        for n in sorted(tr.assigned):
            decls.append("%s v_%s = 0;" % (ct[tr.var_types[n].dt], n))
        decls += tr.decls
        body = "\n".join(["  " + d for d in decls] + tr.lines)
        name = "jit_" + self.__name__
        if cuda:
            src = "%s\nextern \"C\" __global__ void %s(%s) {\n%s\n}\n" % (
                _CUDA_PRELUDE, name, ", ".join(cparams), body)
        else:
            helpers = "".join(_host_atomic(op, dt)
                              for op, dt in sorted(tr.atomics))
            src = ("%s%s\nstatic inline void %s(_jit_dim3 threadIdx, "
                   "_jit_dim3 blockIdx, _jit_dim3 blockDim, "
                   "_jit_dim3 gridDim%s) {\n"
                   "  (void)threadIdx; (void)blockIdx; (void)blockDim; "
                   "(void)gridDim;\n%s\n}\n" % (
                       _HOST_PRELUDE, helpers, name,
                       "".join(", " + c for c in cparams), body))
        c = _Compiled(src, name, sig, backend, params)
        self._cache[key] = c
        return c

    def _signature(self, args):
        return tuple(_arg_type(a, i, self.__name__)
                     for i, a in enumerate(args))

    @staticmethod
    def _backend_of(args):
        dev = {a._device[0] for a in args if isinstance(a, _ndarray)}
        if len(dev) > 1:
            raise _lib.DeviceError("jit kernel: arguments mix CPU and CUDA "
                                   "arrays")
        return "cuda" if dev == {_lib.CN_DEVICE_CUDA} else "cpu"

    def source(self, *args, backend=None):
        """The C (backend='cpu') or CUDA C (backend='cuda') source the
        kernel has for these arguments' types (default: their device's)."""
        sig = self._signature(args)
        b = backend or self._backend_of(args)
        if b not in ("cpu", "cuda"):
            raise ValueError("backend must be 'cpu' or 'cuda'")
        return self._translate(sig, b).source

    def ptx(self, *args, arch=90):
        """The PTX NVRTC makes of the CUDA translation for these arguments'
        types (compute capability arch), without a GPU."""
        return self._translate(self._signature(args),
                               "cuda").module().ptx(arch)

    # -- launches
    def __getitem__(self, conf):
        if not isinstance(conf, tuple) or not 2 <= len(conf) <= 4:
            raise ValueError("launch as kernel[grid, block](args) (or "
                             "[grid, block, shared_mem[, stream]])")
        grid, block = conf[0], conf[1]
        shared = conf[2] if len(conf) > 2 else 0
        stream = conf[3] if len(conf) > 3 else None

        def launch(*args):
            self(grid, block, args, shared_mem=shared, stream=stream)
        return launch

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        if not isinstance(args, (tuple, list)):
            raise TypeError("jit kernel '%s': args must be a tuple" %
                            self.__name__)
        args = tuple(args)
        g = _geometry(grid, "grid")
        b = _geometry(block, "block")
        sig = self._signature(args)
        backend = self._backend_of(args)
        c = self._translate(sig, backend)
        if backend == "cuda":
            self._launch_cuda(c, g, b, args, shared_mem, stream)
        else:
            self._launch_cpu(c, g, b, args)

    def _launch_cuda(self, c, g, b, args, shared_mem, stream):
        packed = []
        for a, (kind, dt, nd) in zip(args, c.sig):
            if kind == "array":
                packed.append(a)
                isz = _np.dtype(dt).itemsize
                if any(s % isz for s in a.strides):
                    raise ValueError("jit kernel '%s': an array's strides "
                                     "are not multiples of its itemsize" %
                                     self.__name__)
                packed += [_np.int64(n).tobytes() for n in a.shape]
                packed += [_np.int64(s // isz).tobytes() for s in a.strides]
            else:
                packed.append(_np.array(a, dtype=dt).tobytes())
        fn = c.module().get_function(c.name)
        fn(g, b, tuple(packed), shared_mem=int(shared_mem), stream=stream)

    def _launch_cpu(self, c, g, b, args):
        from ._kernel import ElementwiseKernel
        from ._convert import asarray
        if c._host is None:
            ins, outs, call = ["raw int64 jit_meta"], [], []
            off = 8
            for i, (p, (kind, dt, nd)) in enumerate(zip(self._params,
                                                        c.sig)):
                if kind == "array":
                    outs.append("raw %s jit_a%d" % (dt, i))
                    call.append("jit_a%d" % i)
                    call += ["jit_meta[%d]" % (off + k)
                             for k in range(2 * nd)]
                    off += 2 * nd
                else:
                    ins.append("raw %s jit_a%d" % (dt, i))
                    call.append("jit_a%d[0]" % i)
            # One iteration per thread, block-major: threads of a
            # CPU-eligible kernel are independent, so the engine's runner
            # may spread them (and the blocks) over OpenMP threads.
            op = (
                "const _jit_dim3 gd = {(uint32_t)jit_meta[0], "
                "(uint32_t)jit_meta[1], (uint32_t)jit_meta[2]};\n"
                "const _jit_dim3 bd = {(uint32_t)jit_meta[3], "
                "(uint32_t)jit_meta[4], (uint32_t)jit_meta[5]};\n"
                "_jit_dim3 ti, bi;\n"
                "if (jit_meta[6]) {\n"
                "  /* 1-D launch: the runner walks i upwards, so the next\n"
                "     (block, thread) is an increment, not a divide */\n"
                "  if (i != _jit_next || jit_meta[7] != _jit_launch) {\n"
                "    _jit_launch = jit_meta[7];\n"
                "    _jit_tx = (uint32_t)(i %% bd.x);\n"
                "    _jit_bx = (uint32_t)(i / bd.x);\n"
                "  }\n"
                "  ti.x = _jit_tx; ti.y = ti.z = 0;\n"
                "  bi.x = _jit_bx; bi.y = bi.z = 0;\n"
                "  _jit_next = i + 1;\n"
                "  if (++_jit_tx == bd.x) {\n"
                "    _jit_tx = 0;\n"
                "    _jit_bx++;\n"
                "  }\n"
                "} else {\n"
                "  const int64_t nb = (int64_t)bd.x * bd.y * bd.z;\n"
                "  const int64_t t = i %% nb, bl = i / nb;\n"
                "  ti.x = (uint32_t)(t %% bd.x);\n"
                "  ti.y = (uint32_t)(t / bd.x %% bd.y);\n"
                "  ti.z = (uint32_t)(t / bd.x / bd.y);\n"
                "  bi.x = (uint32_t)(bl %% gd.x);\n"
                "  bi.y = (uint32_t)(bl / gd.x %% gd.y);\n"
                "  bi.z = (uint32_t)(bl / gd.x / gd.y);\n"
                "}\n"
                "%s(ti, bi, bd, gd%s);\n" % (
                    c.name, "".join(", " + a for a in call)))
            c._host = ElementwiseKernel(", ".join(ins), ", ".join(outs), op,
                                        name=c.name, preamble=c.source)
        one_d = g[1] == g[2] == b[1] == b[2] == 1
        meta = list(g) + list(b) + [int(one_d), next(_LAUNCHES)]
        ins, outs = [], []
        for i, (a, (kind, dt, nd)) in enumerate(zip(args, c.sig)):
            if kind == "array":
                if not a.flags.writeable:
                    raise ValueError(
                        "jit kernel '%s': argument %d is a read-only array "
                        "(a broadcast view?); the CPU backend takes "
                        "writeable arrays" % (self.__name__, i))
                outs.append(a)
                # raw arguments run on C-contiguous copies (written back)
                st, acc = [], 1
                for n in reversed(a.shape):
                    st.append(acc)
                    acc *= n
                meta += list(a.shape) + st[::-1]
            else:
                ins.append(asarray(_np.array([a], dtype=dt)))
        meta = asarray(_np.array(meta, dtype=_np.int64))
        c._host(meta, *ins, *outs,
                size=g[0] * g[1] * g[2] * b[0] * b[1] * b[2])

    def __repr__(self):
        return "<jit.rawkernel %s>" % self.__name__


def rawkernel(*, mode="cuda", device=False, source=None):
    """Decorator: @jit.rawkernel() turns a function into a JitRawKernel.
    source= gives the function's text when inspect cannot read it (a
    function defined by exec). mode and device are CuPy's; only
    mode='cuda' kernels (device=False) are supported."""
    if mode != "cuda":
        raise ValueError("jit.rawkernel supports mode='cuda' only")
    if device:
        raise NotImplementedError("device functions (device=True) are not "
                                  "supported")

    def wrap(func):
        return JitRawKernel(func, source=source)
    return wrap
