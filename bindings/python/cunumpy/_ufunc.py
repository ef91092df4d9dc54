"""The ufunc objects of the engine's op table (include/cunumpy/ufunc.h) and the
elementwise functions that are one engine call (clip, round).

One ufunc instance per op of _cnlib._op_table() is bound into this module's
namespace under the op's name and under NumPy's and the Array API's other
spellings (absolute, conjugate, pow, asin, ...).
"""

import inspect as _inspect

import numpy as _np

from . import _cnlib as _lib
from ._ndarray import ndarray
from ._convert import asarray, _assign_out, _WEAK
from ._reduce import _ACCUMULATORS, all, any, max, min, _REDUCERS

__all__ = ["ufunc", "UFUNCS", "clip", "round", "around"]


class ufunc(_lib.UfuncBase):
    """An elementwise op of the engine's op table (NumPy's ufunc). Calls
    with exactly nin positional arguments go from C straight to the op;
    keywords (out=, dtype=, where=) take the Python path (_call)."""

    def __init__(self, name, nin, fn, doc, op=None):
        self._op = op or name  # the op table's name (fusion's text)
        self._bind(fn, nin, self._op)
        self.__name__ = name
        self.nin = nin
        self.nout = 1
        self.nargs = nin + 1
        self._fn = fn
        self._summary = doc  # the op table's text
        self.__doc__ = _ufunc_doc(name, self._op, nin, doc)
        self.__text_signature__ = _ufunc_text_signature(nin)
        self.__signature__ = _inspect.Signature.from_callable(
            _ufunc_signature_holder(nin))

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _call(self, *args, out=None, dtype=None, casting="same_kind",
              where=True, order="K", subok=True, signature=None):
        nin = self.nin
        if len(args) != nin:
            if len(args) == nin + 1 and out is None:
                out = args[nin]
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to "
                                f"{nin + 1} positional arguments but "
                                f"{len(args)} were given")
        if type(out) is tuple:
            if len(out) != 1:
                raise ValueError("The 'out' tuple must have exactly one entry")
            out = out[0]
        if out is not None and not isinstance(out, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        if dtype is not None:
            args = tuple(a if type(a) in _WEAK else
                         _lib.cn_astype(a, dtype, 0) for a in args)
        if where is not True:
            res = self._fn(*args, None)
            if out is None:
                return res
            return _lib.cn_where(where, res, out, out)
        return self._fn(*args, out)

    def _binary_only(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")

    def _check_reorder_dtype(self, x):
        """NumPy reduces a comparison only over bools: its bool result
        cannot be fed back as a non-bool operand."""
        if self.__name__ in _COMPARISONS and x.dtype != _np.bool_:
            raise TypeError(f"the resolved dtypes are not compatible with "
                            f"{self.__name__}.reduce: the result (bool) "
                            f"differs from the operand ({x.dtype})")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=None, where=True):
        """Reduction along axis (NumPy's ufunc.reduce): the C reductions for
        add, multiply, minimum, maximum, logical_and and logical_or; every
        other binary op folds its slices left to right (the associative ops
        pairwise, in log2(n) engine calls)."""
        self._binary_only("reduce")
        if type(out) is tuple:
            out, = out
        fn = _REDUCERS.get(self.__name__)
        if fn is not None and not (initial is not None and fn in (all, any)):
            kw = {} if initial is None else {"initial": initial}
            if fn in (max, min, all, any):
                res = fn(array, axis=axis, keepdims=keepdims, where=where,
                         **kw)
                if dtype is not None:
                    res = _lib.cn_astype(res, dtype, 0)
                return res if out is None else _assign_out(out, res)
            return fn(array, axis=axis, dtype=dtype, out=out,
                      keepdims=keepdims, where=where, **kw)
        import cunumpy as cn
        x = asarray(array)
        if dtype is not None:
            x = _lib.cn_astype(x, dtype, 0)
        self._check_reorder_dtype(x)
        mask = None if where is True else \
            cn.broadcast_to(asarray(where), x.shape)
        nd = x.ndim
        if axis is None:
            axes = tuple(range(nd))
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            axes = tuple(_normalize_axis(a, nd) for a in axes)
            if len(set(axes)) != len(axes):
                raise ValueError("duplicate value in 'axis'")
        if len(axes) > 1 and (self.__name__ not in _ASSOCIATIVE or
                              self.__name__ == "lcm"):
            raise ValueError(f"reduction operation '{self.__name__}' is not "
                             f"reorderable, so at most one axis may be "
                             f"specified")
        keep = tuple(i for i in range(nd) if i not in axes)
        n = 1
        for a in axes:
            n *= x.shape[a]
        # the reduced axes last, as one axis of length n
        def last(v):
            return cn.reshape(cn.permute_dims(v, keep + axes) if nd else v,
                              tuple(x.shape[i] for i in keep) + (n,))
        y = last(x)
        if mask is not None and initial is None:
            initial = _identity(self.__name__)
            if initial is None:
                raise ValueError(f"reduction operation '{self.__name__}' "
                                 f"does not have an identity, so to use a "
                                 f"where mask one has to specify 'initial'")
        if initial is None and n == 0:
            ident = _identity(self.__name__)
            if ident is None:
                raise ValueError(f"zero-size array to reduction operation "
                                 f"{self.__name__} which has no identity")
            initial = ident
        if n == 0 or mask is not None:
            res = cn.full(y.shape[:-1], initial,
                          dtype=self(y[..., :0], y[..., :0]).dtype)
            # masked: a left fold over the selected elements only
            wy = None if mask is None else last(mask)
            for i in range(n):
                res = cn.where(wy[..., i], self(res, y[..., i]), res)
        elif self.__name__ in _ASSOCIATIVE:
            res = y
            while res.shape[-1] > 1:
                m = res.shape[-1]
                h = m // 2
                pair = self(res[..., :h], res[..., h:2 * h])
                res = cn.concatenate([pair, res[..., 2 * h:]], axis=-1) \
                    if m % 2 else pair
            res = res[..., 0]
            if initial is not None:
                res = self(initial, res)
        else:
            res = y[..., 0] if initial is None else self(initial, y[..., 0])
            for i in range(1, n):
                res = self(res, y[..., i])
        if keepdims:
            res = cn.reshape(res, tuple(1 if i in axes else x.shape[i]
                                        for i in range(nd)))
        if out is not None:
            return _assign_out(out, res)
        return res if isinstance(res, ndarray) else asarray(res)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running reduction along axis (NumPy's ufunc.accumulate): C scans
        for add and multiply, the engine's cn_ufunc_accumulate for the
        other ops of the table on the CPU; elsewhere a doubling scan
        (log2(n) engine calls) for the associative ops and a left-to-right
        loop for the rest."""
        self._binary_only("accumulate")
        if type(out) is tuple:
            out, = out
        array = asarray(array)
        if array.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        fn = _ACCUMULATORS.get(self.__name__)
        if fn is not None:
            return fn(array, axis=axis, dtype=dtype, out=out)
        import cunumpy as cn
        x = array if dtype is None else _lib.cn_astype(array, dtype, 0)
        self._check_reorder_dtype(x)
        ax = _normalize_axis(axis, x.ndim)
        y = cn.moveaxis(x, ax, -1)
        n = y.shape[-1]
        rdt = self(y[..., :0], y[..., :0]).dtype if dtype is None else \
            _np.dtype(dtype)
        res = cn.astype(y, rdt, copy=True)
        if (res.device.type == "cpu" and _lib.cn_op_nin(self._op) == 2 and
                rdt != _np.float16 and res.dtype == self(res[..., :0],
                                                         res[..., :0]).dtype):
            # the engine's running op (an op of the table mapping the
            # dtype to itself)
            res = _lib.cn_ufunc_accumulate(self._op, res, -1)
        elif self.__name__ in _ASSOCIATIVE:
            s = 1
            while s < n:
                res = cn.concatenate([res[..., :s],
                                      self(res[..., :n - s], res[..., s:])],
                                     axis=-1)
                s *= 2
        else:
            for i in range(1, n):
                res[..., i] = self(res[..., i - 1], y[..., i])
        res = cn.moveaxis(res, -1, ax)
        return res if out is None else _assign_out(out, res)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """NumPy's ufunc.reduceat: slice i reduces array[indices[i]:
        indices[i+1]] along axis, or is array[indices[i]] where the next
        index is not larger; the last runs to the end."""
        self._binary_only("reduceat")
        if type(out) is tuple:
            out, = out
        import cunumpy as cn
        x = asarray(array)
        self._check_reorder_dtype(x if dtype is None else
                                  _lib.cn_astype(x[:0], dtype, 0))
        ax = _normalize_axis(axis, x.ndim)
        idx = _np.asarray(cn.to_numpy(asarray(indices)))
        if idx.ndim != 1 or idx.dtype.kind not in "iu":
            raise TypeError("reduceat: indices must be a 1-d integer array")
        n = x.shape[ax]
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            bad = idx[(idx < 0) | (idx >= n)][0]
            raise IndexError(f"index {int(bad)} out-of-bounds in "
                             f"{self.__name__}.reduceat [0, {n})")
        y = cn.moveaxis(x if dtype is None else
                        _lib.cn_astype(x, dtype, 0), ax, 0)
        parts = []
        for k, i in enumerate(idx.tolist()):
            j = idx[k + 1] if k + 1 < idx.size else n
            if j > i:
                parts.append(self.reduce(y[i:j], axis=0))
            else:
                parts.append(y[i])
        if parts:
            res = cn.stack([cn.astype(p, parts[0].dtype) for p in parts])
        else:
            res = y[:0]
        res = cn.moveaxis(res, 0, ax)
        return res if out is None else _assign_out(out, res)

    def outer(self, A, B, **kwargs):
        self._binary_only("outer")
        A, B = asarray(A), asarray(B)
        return self(_lib.cn_reshape(A, A.shape + (1,) * B.ndim, "C"), B,
                    **kwargs)

    def at(self, a, indices, b=None):
        """NumPy's unbuffered in-place ufunc.at: a[indices] = op(a[indices],
        b) with every occurrence of a repeated index applied, in order.
        On the CPU one engine kernel applies them element by element
        (cn_ufunc_at). Elsewhere the occurrences are split into rounds in
        which each element of a is hit at most once; each round is one
        gather, op and scatter."""
        if not isinstance(a, ndarray):
            raise TypeError("ufunc.at: the first operand must be a cunumpy "
                            "array")
        if (b is None) != (self.nin == 1):
            raise ValueError("second operand needed for ufunc" if b is None
                             else "second operand provided when ufunc is "
                             "unary")
        import cunumpy as cn
        # The flat positions of a that indices selects, in order: integer
        # indices of a 1-d array are positions already (the engine wraps
        # negative ones and checks the range).
        pos = None
        if a.ndim == 1 and not isinstance(indices, (tuple, slice)) and \
                indices is not Ellipsis and indices is not None:
            cand = asarray(indices)
            if cand.dtype.kind in "iu":
                pos = cand
        if pos is None:
            pos = cn.arange(a.size, dtype=cn.intp)
            pos = cn.reshape(pos, a.shape)[indices]
        # composed ufuncs (not ops of the table) take the rounds below
        if a.device.type == "cpu" and _lib.cn_op_nin(self._op) in (1, 2):
            _lib.cn_ufunc_at(a, self._op, pos, b)
            return None
        flat = cn.reshape(a, (-1,)) if a.flags.c_contiguous else None
        target = a if flat is None else flat
        sel_shape = pos.shape
        p = _np.asarray(cn.to_numpy(cn.reshape(pos, (-1,))))
        # a Python scalar stays weak (NEP 50); results are written back with
        # NumPy's unsafe cast (np.add.at(int_array, i, 0.5) truncates)
        weak = type(b) in _WEAK
        if b is not None and not weak:
            bv = cn.reshape(cn.broadcast_to(asarray(b), sel_shape), (-1,))
        order = _np.argsort(p, kind="stable")
        ps = p[order]
        # occurrence number of each index within its run of equal values
        start = _np.ones(ps.size, dtype=bool)
        start[1:] = ps[1:] != ps[:-1]
        run_start = _np.maximum.accumulate(
            _np.where(start, _np.arange(ps.size), 0))
        occ = _np.empty(ps.size, dtype=_np.int64)
        occ[order] = _np.arange(ps.size) - run_start
        rounds = int(occ.max()) + 1 if occ.size else 0
        for r in range(rounds):
            which = _np.nonzero(occ == r)[0]
            where_ = asarray(p[which])
            if flat is not None:
                cur = target[where_]
            else:
                cur = cn.reshape(a, (-1,))[where_]
            if b is None:
                val = self(cur)
            else:
                val = self(cur, b if weak else bv[asarray(which)])
            if flat is not None:
                target[where_] = val
            else:
                coords = cn.unravel_index(where_, a.shape)
                a[coords] = val
        return None


# Ops whose reduction may combine elements in any grouping (exactly, so
# pairwise and doubling scans give the left fold's result). NumPy reduces
# lcm over one axis only.
_COMPARISONS = frozenset({"less", "less_equal", "greater", "greater_equal",
                          "equal", "not_equal"})

_ASSOCIATIVE = frozenset({
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
    "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "gcd", "lcm"})


def _ufunc_inputs(nin):
    return ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]


def _ufunc_text_signature(nin):
    return ("(" + ", ".join(_ufunc_inputs(nin)) + ", /, out=None, *, "
            "where=True, casting='same_kind', order='K', dtype=None, "
            "subok=True, signature=None)")


_SIGNATURE_HOLDERS = {}


def _ufunc_signature_holder(nin):
    """A function with the ufunc call's signature (NumPy's, as inspect
    shows it), built once per arity."""
    if nin not in _SIGNATURE_HOLDERS:
        ns = {}
        exec("def call" + _ufunc_text_signature(nin) + ": pass", ns)
        _SIGNATURE_HOLDERS[nin] = ns["call"]
    return _SIGNATURE_HOLDERS[nin]


def _ufunc_doc(name, op, nin, text):
    """numpydoc text of a ufunc from its op table entry (core/ops.def)."""
    params = "".join(f"{x} : array_like\n    Input array (broadcast with "
                     f"the others).\n" if nin > 1 else
                     f"{x} : array_like\n    Input array.\n"
                     for x in _ufunc_inputs(nin))
    # The first line is the call's signature, as in NumPy's ufunc
    # docstrings (where Sphinx's autodoc reads it).
    text = text.replace("|", "\\|")  # |x| is not an rst substitution
    return (f"{name}{_ufunc_text_signature(nin)}\n\n"
            f"{text}\n\nThe engine's ``cn_{op}`` (``core/ops.def``), as "
            f"a ufunc: broadcasting, out=, where=, dtype= and "
            f"the methods reduce, accumulate, reduceat, outer and at (two "
            f"inputs).\n\n"
            f"Parameters\n----------\n{params}"
            "out : ndarray, optional\n    Array to write the result into "
            "(also taken positionally after the inputs).\n"
            "where : array_like of bool, optional\n    Elements of out to "
            "write; the others keep out's values (without out, every "
            "element is computed, where NumPy leaves them undefined).\n"
            "casting : str, optional\n    Accepted for NumPy compatibility "
            "and not used.\n"
            "order : str, optional\n    Accepted for NumPy compatibility "
            "and not used.\n"
            "dtype : dtype, optional\n    Inputs are cast to this dtype "
            "first.\n"
            "subok : bool, optional\n    Accepted for NumPy compatibility "
            "and not used.\n"
            "signature : object, optional\n    Accepted for NumPy "
            "compatibility and not used.\n\n"
            "Returns\n-------\nout : ndarray\n    The result (a 0-d array "
            "for 0-d inputs, where NumPy returns a scalar).\n\n"
            "See Also\n--------\n" + (
                f"scipy.special.{name}\n" if op.startswith("special_") else
                f"numpy.{name}\n" if hasattr(_np, name) else "numpy.ufunc\n"))


def _identity(name):
    f = getattr(_np, name, None)
    return getattr(f, "identity", None)


def _normalize_axis(axis, ndim):
    from .exceptions import AxisError
    if not isinstance(axis, int) or isinstance(axis, bool):
        axis = _operator_index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def _operator_index(v):
    import operator
    return operator.index(v)


UFUNCS = {}

for _name, _nin, _loops, _outrule, _doc in _lib._op_table():
    UFUNCS[_name] = ufunc(_name, _nin, getattr(_lib, "cn_" + _name), _doc)

del _name, _nin, _loops, _outrule, _doc

# The special_* ops are scipy.special's: cunumpy.special binds them under
# their SciPy names; the NumPy namespace leaves them out. real, imag and
# angle are functions in NumPy (views of complex arrays; angle has a deg
# flag), not ufuncs: _elementwise binds those; their ops stay in UFUNCS for
# the engine's other users.
_SPECIAL_PREFIX = "special_"
_NOT_UFUNCS = {"real", "imag", "angle"}
globals().update({n: u for n, u in UFUNCS.items()
                  if not n.startswith(_SPECIAL_PREFIX)
                  and n not in _NOT_UFUNCS})

# NumPy and Array API spellings of the same ops.
_ALIASES = {
    "absolute": "abs", "conjugate": "conj", "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert", "mod": "remainder",
    "true_divide": "divide", "pow": "power", "asin": "arcsin",
    "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
}

for _alias, _name in _ALIASES.items():
    if _name in UFUNCS:
        globals()[_alias] = UFUNCS[_name]

del _alias, _name
__all__ += [n for n in UFUNCS if not n.startswith(_SPECIAL_PREFIX) and
            n not in _NOT_UFUNCS] + \
    [a for a, n in _ALIASES.items() if n in UFUNCS]


def clip(x, /, min=None, max=None, *, out=None, a_min=None, a_max=None,
         **kw):
    """Limits values to [min, max]; either bound may be None (the Array
    API signature; NumPy's a_min/a_max are accepted as keywords). The result
    has NumPy's dtype: the promotion of x with the bounds."""
    if a_min is not None:
        if min is not None:
            raise TypeError("clip: give only one of min and a_min")
        min = a_min
    if a_max is not None:
        if max is not None:
            raise TypeError("clip: give only one of max and a_max")
        max = a_max
    if kw:
        raise TypeError(f"clip() got an unexpected keyword argument "
                        f"{next(iter(kw))!r}")
    lo, hi, a = min, max, x
    if lo is None and hi is None:
        return asarray(a) if out is None else _assign_out(out, a)
    bound = hi if lo is None else lo
    if (lo is None or hi is None) and type(bound) is int:
        x = asarray(a)
        if x.dtype.kind in "iu":
            # The open side as a Python int beyond every integer dtype on
            # that side: the engine's clip then ignores a given bound that
            # is out of range on its own side too, as numpy.clip does.
            return _lib.cn_clip(x, -2**63 if lo is None else lo,
                                2**64 - 1 if hi is None else hi, out)
    if lo is None:
        return _lib.cn_minimum(a, hi, out)
    if hi is None:
        return _lib.cn_maximum(a, lo, out)
    return _lib.cn_clip(a, lo, hi, out)


def round(a, decimals=0, out=None):
    return _lib.cn_round(a, decimals, out)


around = round
