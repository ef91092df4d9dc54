#!/usr/bin/env python3
"""Generates the typed stubs (.pyi) of cunumpy's public modules from the
built package, so editors and type checkers (mypy, pyright) see every public
name with its call signature and types.

    PYTHONPATH=build/python python3 tools/gen_stubs.py          # rewrite
    PYTHONPATH=build/python python3 tools/gen_stubs.py --check  # stale?

Types, as NumPy's own stubs give them: inputs are ``ArrayLike`` /
``DTypeLike`` (numpy.typing), results ``ndarray``. Each parameter's type
comes from, in order: the type line of the parameter in the function's
numpydoc text (its own or the generated one, _docstrings.py) where it is
one of the simple forms (FIXED names excepted: out, dtype, axis...); the
table PARAM_TYPES of common parameter names; the C prototype of the engine
function the Python function calls with that parameter name
(include/cunumpy/*.h: ``cn_array`` is ArrayLike, ``double`` float,
``int64_t`` int...); the default value; else ``Any``. A result's type
comes from RETURNS, else the Returns section of the numpydoc text (arrays
and scalars: ``ndarray``, as cunumpy returns 0-d arrays), else ``Any``.
A function whose result type depends on its arguments (flags such as
unique's return_*, linalg.qr's mode, where's one or three arguments) gets
one ``@overload`` per case from OVERLOADS; the attributes of other
classes (cunumpy.cuda's devices, streams and pools) are typed from ATTRS.
The ndarray class is typed from
NDARRAY_ATTRS and NDARRAY_RETURNS; ufuncs get one stub class per
(nin, nout) whose ``__call__`` takes nin arrays and returns ndarray.

Other classes keep a ``__getattr__`` (attributes set at run time), as does
each module (names reached through NumPy dispatch); ndarray has none, so a
misspelt array attribute is a type error. Written next to the sources in
bindings/python/cunumpy (shipped with the package, with py.typed).
"""

import argparse
import builtins
import importlib
import inspect
import os
import re
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_comments  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "bindings", "python", "cunumpy")

# (module, stub file relative to the package)
MODULES = [
    ("cunumpy", "__init__.pyi"),
    ("cunumpy.linalg", "linalg.pyi"),
    ("cunumpy.fft", "fft.pyi"),
    ("cunumpy.random", "random.pyi"),
    ("cunumpy.special", "special.pyi"),
    ("cunumpy.signal", "signal.pyi"),
    ("cunumpy._signal_windows", "_signal_windows.pyi"),
    ("cunumpy.sparse", os.path.join("sparse", "__init__.pyi")),
    ("cunumpy.sparse.linalg", os.path.join("sparse", "linalg.pyi")),
    ("cunumpy.cuda", "cuda.pyi"),
    ("cunumpy.testing", "testing.pyi"),
    ("cunumpy.profiler", "profiler.pyi"),
    ("cunumpy.exceptions", "exceptions.pyi"),
    ("cunumpy.jit", "jit.pyi"),
]

A, D, ND = "ArrayLike", "DTypeLike", "ndarray"
SHAPE = "int | tuple[int, ...]"
AXES = "int | tuple[int, ...] | None"

# Common parameter names (NumPy's meaning of each).
PARAM_TYPES = {
    **{n: A for n in (
        "a", "b", "x", "y", "x1", "x2", "ary", "arr", "m", "v", "values",
        "condition", "condlist", "choicelist", "indices", "array", "a1", "a2",
        "ar1", "ar2", "xp", "fp", "weights", "bins", "q", "p", "c", "w",
        "data", "prototype", "object", "obj", "A", "B", "Zxx", "z", "sos")},
    "axis": AXES, "axes": "Any", "keepdims": "bool", "out": "ndarray | None",
    "dtype": D, "shape": SHAPE, "newshape": SHAPE, "size": SHAPE,
    "reps": SHAPE, "order": "str", "copy": "bool | None",
    "casting": "str", "subok": "bool", "like": "Any", "device": "Any",
    "stream": "Any", "where": A, "initial": "Any", "ddof": "float",
    "correction": "float", "k": "int", "n": "int", "N": "int",
    "offset": "int", "axis1": "int", "axis2": "int", "ndmin": "int",
    "decimals": "int", "kind": "str", "side": "str", "mode": "str",
    "rtol": "float", "atol": "float", "equal_nan": "bool", "norm": "str",
    "endpoint": "bool", "num": "int", "retstep": "bool", "fs": "float",
    "arrays": "ArrayLike | Sequence[ArrayLike]",
    "tup": "ArrayLike | Sequence[ArrayLike]",
    "start": A, "stop": A, "step": A, "fill_value": A, "seed": "Any",
    "full_matrices": "bool", "compute_uv": "bool", "hermitian": "bool",
    "UPLO": "str", "ord": "Any", "s": "Sequence[int]",
    "return_index": "bool", "return_inverse": "bool",
    "return_counts": "bool", "assume_unique": "bool", "invert": "bool",
    "descending": "bool", "stable": "bool | None", "name": "str",
}

# Names whose meaning is the same in every function: PARAM_TYPES wins over
# the text (NumPy's "out : ndarray" is an output, not any ArrayLike).
FIXED = {"out", "dtype", "axis", "keepdims", "casting", "order", "copy",
         "device", "stream", "like", "where", "subok"}

# Engine prototypes' types (the C parameter of the same name).
C_TYPES = [
    (r"^(const\s+)?cn_array\s*\w*$", A), (r"^cn_dtype\b", D),
    (r"^(const\s+)?char\s*\*", "str"), (r"^double\b", "float"),
    (r"^(u?int(8|16|32|64)_t|int|size_t|ptrdiff_t|long)\b", "int"),
    (r"^bool\b", "bool"),
]

# Results with a known type (qualified name); ``None`` procedures.
RETURNS = {
    "cunumpy.shape": "tuple[int, ...]", "cunumpy.ndim": "int",
    "cunumpy.size": "int", "cunumpy.isscalar": "bool",
    "cunumpy.is_cpu": "bool", "cunumpy.is_gpu": "bool",
    "cunumpy.set_backend": "None", "cunumpy.iinfo": "Any",
    "cunumpy.finfo": "Any", "cunumpy.result_type": "Any",
    "cunumpy.can_cast": "bool", "cunumpy.promote_types": "Any",
    "cunumpy.save": "None", "cunumpy.savez": "None",
    "cunumpy.savez_compressed": "None", "cunumpy.savetxt": "None",
    "cunumpy.copyto": "None", "cunumpy.put": "None", "cunumpy.place": "None",
    "cunumpy.putmask": "None", "cunumpy.fill_diagonal": "None",
    "cunumpy.meshgrid": "tuple[ndarray, ...]",
    "cunumpy.split": "list[ndarray]", "cunumpy.array_split": "list[ndarray]",
    "cunumpy.hsplit": "list[ndarray]", "cunumpy.vsplit": "list[ndarray]",
    "cunumpy.dsplit": "list[ndarray]", "cunumpy.nonzero": "tuple[ndarray, ...]",
    "cunumpy.broadcast_arrays": "tuple[ndarray, ...]",
    "cunumpy.histogramdd": "tuple[ndarray, list[ndarray]]",
    **{f"cunumpy.{n}": ND for n in ("amax", "amin", "around", "triu",
                                    "tensordot", "asanyarray")},
    **{f"cunumpy.{n}": "tuple[ndarray, ...]" for n in (
        "diag_indices", "diag_indices_from", "tril_indices_from",
        "triu_indices", "triu_indices_from")},
    "cunumpy.put_along_axis": "None", "cunumpy.histogram": "tuple[ndarray, ndarray]",
    **{f"cunumpy.testing.assert_{n}": "None" for n in (
        "allclose", "almost_equal", "approx_equal", "array_almost_equal",
        "array_compare", "array_equal", "array_less", "equal",
        "string_equal")},
    "cunumpy.testing.assert_array_max_ulp": "_np.ndarray[Any, Any]",
    "cunumpy.linalg.eigvalsh": ND, "cunumpy.linalg.eigvals": ND,
    "cunumpy.asnumpy": "_np.ndarray[Any, Any]",
    "cunumpy.random.default_rng": "Generator",
    "cunumpy.linalg.eig": "EigResult", "cunumpy.linalg.eigh": "EighResult",
    "cunumpy.linalg.slogdet": "SlogdetResult",
    "cunumpy.linalg.lstsq": "tuple[ndarray, ndarray, ndarray, ndarray]",
    # Device objects (cunumpy.cuda) and the profiler, as CuPy's behave.
    "cunumpy.cuda.is_available": "bool",
    "cunumpy.cuda.get_default_memory_pool": "MemoryPool",
    "cunumpy.cuda.get_default_pinned_memory_pool": "PinnedMemoryPool",
    "cunumpy.cuda.get_current_stream": "Stream",
    "cunumpy.cuda.get_elapsed_time": "float",
    "cunumpy.cuda.malloc_managed": "MemoryPointer",
    "cunumpy.cuda.set_allocator": "None",
    "cunumpy.cuda.set_pinned_memory_allocator": "None",
    **{f"cunumpy.cuda.{c}.{m}": "None" for c, m in (
        ("Device", "use"), ("Device", "synchronize"), ("Event", "record"),
        ("Event", "synchronize"), ("Stream", "synchronize"),
        ("Stream", "wait_event"), ("MemoryPool", "free_all_blocks"),
        ("MemoryPool", "set_limit"), ("PinnedMemoryPool", "free_all_blocks"))},
    **{f"cunumpy.cuda.{c}.{m}": "int" for c in ("MemoryPool",
                                                "PinnedMemoryPool")
       for m in ("used_bytes", "total_bytes", "free_bytes", "n_free_blocks")},
    "cunumpy.cuda.MemoryPool.get_limit": "int",
    "cunumpy.cuda.MemoryPool.malloc": "MemoryPointer",
    "cunumpy.cuda.PinnedMemoryPool.malloc": "Any",
    "cunumpy.cuda.Stream.use": "Stream", "cunumpy.cuda.Stream.record": "Event",
    "cunumpy.cuda.ExternalStream.use": "Stream",
    "cunumpy.profiler.benchmark": "_PerfCaseResult",
    **{f"cunumpy.sparse.*.{m}": ND for m in ("toarray", "todense", "sum",
                                             "trace")},
    "cunumpy.profiler._PerfCaseResult.to_str": "str",
}

# Attributes of classes (properties and __slots__ members), by qualified
# name; the others are Any.
ATTRS = {
    "cunumpy.Device.id": "int", "cunumpy.Device.type": "str",
    "cunumpy.cuda.Device.id": "int",
    "cunumpy.cuda.Device.compute_capability": "str",
    "cunumpy.cuda.Device.name": "str",
    "cunumpy.cuda.Device.attributes": "dict[str, int]",
    "cunumpy.cuda.Device.mem_info": "tuple[int, int]",
    "cunumpy.cuda.Event.done": "bool",
    **{f"cunumpy.cuda.{c}.{a}": t for c in ("Stream", "ExternalStream")
       for a, t in (("done", "bool"), ("ptr", "int"))},
    "cunumpy.cuda.MemoryPointer.device": "Device | None",
    "cunumpy.cuda.MemoryPointer.ptr": "int",
    "cunumpy.cuda.MemoryPointer.device_id": "int",
    # The sparse matrices and arrays (cunumpy.sparse), every format.
    **{f"cunumpy.sparse.*.{a}": t for a, t in (
        ("shape", "tuple[int, ...]"), ("nnz", "int"), ("ndim", "int"),
        ("size", "int"), ("dtype", "_np.dtype[Any]"), ("data", ND),
        ("device", "Device"), ("has_sorted_indices", "bool"),
        ("has_canonical_format", "bool"), ("indices", ND), ("indptr", ND),
        ("row", ND), ("col", ND), ("offsets", ND))},
    "cunumpy.profiler._PerfCaseResult.cpu_times": "_np.ndarray[Any, Any]",
    "cunumpy.profiler._PerfCaseResult.gpu_times": "_np.ndarray[Any, Any]",
}


def attr_type(qual, attr):
    """The type of attribute attr of class qual (ATTRS: the class's own
    entry, else its module's ``*`` entry), else Any."""
    mod = qual.rpartition(".")[0]
    return ATTRS.get(f"{qual}.{attr}") or ATTRS.get(f"{mod}.*.{attr}") or \
        "Any"


def _flag_overloads(flags, result, fallback):
    """Overloads of a function whose result depends on boolean flags: one
    per combination (result(set of flags that are True)), then one for
    flags only known as bool at check time."""
    import itertools
    out = []
    for on in itertools.product((False, True), repeat=len(flags)):
        chosen = {f for f, v in zip(flags, on) if v}
        out.append(({f: "Literal[True]" if f in chosen else
                     "Literal[False] = ..." for f in flags}, result(chosen)))
    out.append(({f: "bool = ..." for f in flags}, fallback))
    return out


def _tuple(n):
    return ND if n == 1 else "tuple[" + ", ".join([ND] * n) + "]"


# Functions whose result type depends on their arguments: qualified name ->
# [(parameter annotations replacing the generated ones, result)], one
# @overload each in that order. An annotation without ``= ...`` makes the
# parameter required (keyword-only where an earlier one has a default);
# ``None`` leaves the parameter out.
OVERLOADS = {
    "cunumpy.where": [({"x": None, "y": None}, "tuple[ndarray, ...]"),
                      ({"x": A, "y": A}, ND)],
    "cunumpy.unique": _flag_overloads(
        ("return_index", "return_inverse", "return_counts"),
        lambda on: _tuple(1 + len(on)), "ndarray | tuple[ndarray, ...]"),
    "cunumpy.linspace": _flag_overloads(
        ("retstep",), lambda on: "tuple[ndarray, float | ndarray]" if on
        else ND, "ndarray | tuple[ndarray, float | ndarray]"),
    "cunumpy.average": _flag_overloads(
        ("returned",), lambda on: _tuple(2) if on else ND,
        "ndarray | tuple[ndarray, ndarray]"),
    "cunumpy.indices": _flag_overloads(
        ("sparse",), lambda on: "tuple[ndarray, ...]" if on else ND,
        "ndarray | tuple[ndarray, ...]"),
    "cunumpy.linalg.svd": [
        ({"compute_uv": "Literal[True] = ..."}, "SVDResult"),
        ({"compute_uv": "Literal[False]"}, ND),
        ({"compute_uv": "bool = ..."}, "SVDResult | ndarray")],
    "cunumpy.linalg.qr": [
        ({"mode": "Literal['reduced', 'complete'] = ..."}, "QRResult"),
        ({"mode": "Literal['r', 'economic', 'e']"}, ND),
        ({"mode": "Literal['raw']"}, "tuple[ndarray, ndarray]"),
        ({"mode": "str = ..."}, "QRResult | ndarray | tuple[ndarray, ndarray]")],
}

# Result classes a module does not export (named in RETURNS).
EXTRA_CLASSES = {"cunumpy.linalg": ["EigResult", "EighResult",
                                    "SlogdetResult", "SVDResult",
                                    "QRResult"],
                 "cunumpy.profiler": ["_PerfCaseResult"]}

# ndarray's attributes (properties) and method results.
NDARRAY_ATTRS = {
    "shape": "tuple[int, ...]", "strides": "tuple[int, ...]",
    "dtype": "_np.dtype[Any]", "ndim": "int", "size": "int",
    "itemsize": "int", "nbytes": "int", "T": ND, "mT": ND, "real": ND,
    "imag": ND, "device": "Device", "flags": "Flags", "data": "Any",
    "flat": "Any",
}
NDARRAY_RETURNS = {
    "item": "Any", "tolist": "Any", "fill": "None", "put": "None",
    "tofile": "None", "sort": "None", "get": "_np.ndarray[Any, Any]",
    "nonzero": "tuple[ndarray, ...]",
}
_BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
           "matmul", "and", "or", "xor", "lshift", "rshift"]
NDARRAY_PROTOCOL = {f"__{p}{op}__": "(self, other: ArrayLike, /) -> ndarray"
                    for op in _BINARY for p in ("", "r", "i")}
NDARRAY_PROTOCOL.update({
    f"__{op}__": "(self, other: ArrayLike, /) -> ndarray"
    for op in ("lt", "le", "gt", "ge")})
NDARRAY_PROTOCOL.update({
    f"__{op}__": "(self, other: object, /) -> ndarray  # type: ignore[override]"
    for op in ("eq", "ne")})
NDARRAY_PROTOCOL.update({f"__{op}__": "(self) -> ndarray" for op in
                         ("neg", "pos", "abs", "invert", "copy")})
NDARRAY_PROTOCOL.update({
    "__divmod__": "(self, other: ArrayLike, /) -> tuple[ndarray, ndarray]",
    "__rdivmod__": "(self, other: ArrayLike, /) -> tuple[ndarray, ndarray]",
    "__len__": "(self) -> int", "__iter__": "(self) -> Iterator[ndarray]",
    "__bool__": "(self) -> bool", "__float__": "(self) -> float",
    "__int__": "(self) -> int", "__complex__": "(self) -> complex",
    "__index__": "(self) -> int",
    "__contains__": "(self, value: object, /) -> bool",
    "__getitem__": "(self, key: Any, /) -> ndarray",
    "__setitem__": "(self, key: Any, value: ArrayLike, /) -> None",
    "__array__": "(self, dtype: DTypeLike = ..., copy: bool | None = ...)"
                 " -> _np.ndarray[Any, Any]",
    "__deepcopy__": "(self, memo: Any, /) -> ndarray",
    "__array_namespace__": "(self, *, api_version: str | None = ...) -> Any",
    "__dlpack__": "(self, *args: Any, **kwargs: Any) -> Any",
    "__dlpack_device__": "(self) -> tuple[int, int]",
})

# Other classes' protocol methods (untyped: their meaning varies).
_ANY_BINARY = _BINARY + ["divmod"]
PROTOCOL = {f"__{p}{op}__": "(self, other: Any) -> Any" for op in _ANY_BINARY
            for p in ("", "r", "i") if not (p == "i" and op == "divmod")}
PROTOCOL.update({f"__{op}__": "(self, other: Any) -> Any"
                 for op in ("lt", "le", "gt", "ge")})
PROTOCOL.update({f"__{op}__": "(self) -> Any" for op in
                 ("neg", "pos", "abs", "invert", "iter")})
PROTOCOL.update({"__len__": "(self) -> int", "__bool__": "(self) -> bool",
                 "__float__": "(self) -> float", "__int__": "(self) -> int",
                 "__complex__": "(self) -> complex",
                 "__index__": "(self) -> int",
                 "__getitem__": "(self, key: Any) -> Any",
                 "__setitem__": "(self, key: Any, value: Any) -> None",
                 "__call__": "(self, *args: Any, **kwargs: Any) -> Any",
                 "__enter__": "(self) -> Any",
                 "__exit__": "(self, *args: Any) -> Any"})

# Protocol methods of a module's classes typed beyond PROTOCOL, one
# @overload per signature ({cls}: the class). A sparse operand with a dense
# one gives a dense array, as SciPy's do (except ``*``, elementwise for the
# *_array formats); with a scalar, the same format.
_SPARSE_DENSE = ["(self, other: ndarray) -> ndarray",
                 "(self, other: Any) -> Any"]
_SPARSE_SCALAR = ["(self, other: int | float | complex) -> {cls}",
                  "(self, other: Any) -> Any"]
CLASS_PROTOCOL = {"cunumpy.sparse": {
    **{f"__{op}__": _SPARSE_DENSE for op in (
        "matmul", "rmatmul", "add", "radd", "sub", "rsub")},
    **{f"__{op}__": _SPARSE_SCALAR for op in ("mul", "rmul")},
    "__truediv__": _SPARSE_DENSE[:1] + _SPARSE_SCALAR,
    **{f"__{op}__": ["(self) -> {cls}"] for op in ("neg", "pos", "abs")},
}}

# Names of the typing vocabulary, mapped to where the stub imports them.
TYPING = ["Any", "Literal", "NamedTuple", "overload"]
ABC = ["Iterator", "Sequence"]
BUILTIN_TYPES = ["bool", "int", "float", "complex", "str", "object", "list",
                 "tuple", "type"]


def public_names(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return sorted(set(names))


# ----------------------------------------------------------------- types --

def _generated_docs():
    """{id(callable): its numpydoc text, generated part included}."""
    try:
        from cunumpy import _docstrings
    except ImportError:
        return {}
    out = {}
    for table, append in ((_docstrings.DOCS, False),
                          (_docstrings.SECTIONS, True)):
        for key, text in table.items():
            modname, _, name = key.rpartition(".")
            try:
                obj = getattr(importlib.import_module(modname), name)
            except (ImportError, AttributeError):
                continue
            own = inspect.cleandoc(obj.__doc__) if append and obj.__doc__ \
                else ""
            out[id(obj)] = (own + "\n\n" + text) if own else text
    return out


_DOCS = None
_PARSED = {}


def parsed_doc(obj):
    """The numpydoc sections of obj's text (generated part included)."""
    global _DOCS
    if _DOCS is None:
        _DOCS = _generated_docs()
    key = id(obj)
    if key not in _PARSED:
        text = _DOCS.get(key) or inspect.getdoc(obj) or ""
        try:
            from numpydoc.docscrape import NumpyDocString
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _PARSED[key] = NumpyDocString(text)
        except Exception:  # noqa: BLE001 - free text that is not numpydoc
            _PARSED[key] = None
    return _PARSED[key]


_WORDS = {
    "int": "int", "integer": "int", "ints": "int", "float": "float",
    "bool": "bool", "boolean": "bool", "str": "str", "string": "str",
    "complex": "complex", "none": "None", "real": "float",
    "number": "complex",
}


def doc_type(text, result=False):
    """The type a numpydoc type line names, or None where it is not one
    of the simple forms (arrays, scalars, int/float/bool/str, dtype,
    tuples of ints, None, string literals)."""
    text = re.sub(r",?\s*optional\b.*$", "", text.strip().lower())
    text = re.sub(r"^\w+\s*:\s*", "", text)  # "out: ndarray"
    text = re.sub(r"\b(np|numpy)\.", "", text)
    text = re.sub(r"\b([0-9n])-d\s+", "", text)  # "2-d array"
    text = re.sub(r"\(.*?\)", "", text).strip(" {}")
    if not text:
        return None
    out = []
    for tok in re.split(r"\s*(?:,|\bor\b|\|)\s*", text):
        tok = tok.strip(" {}")
        if not tok:
            continue
        if re.match(r"^((bool|int|integer|float|real|complex|"
                     r"boolean)\s+)?(array_like|array-like|arraylike|ndarray|array|"
                     r"scalar|numeric|matrix)\b", tok):
            t = ND if result else A
        elif _WORDS.get(tok):
            t = _WORDS[tok]
        elif re.match(r"^(tuple|sequence|list) of ints?$", tok):
            t = "tuple[int, ...]"
        elif re.match(r"^(dtype|data-type|dtype_like)$", tok) and not result:
            t = D
        elif re.match(r"^['\"][^'\"]*['\"]$", tok):
            t = "str"
        elif result and re.match(r"^(list|tuple) of (ndarrays?|arrays?)$",
                                 tok):
            t = "list[ndarray]" if tok.startswith("list") else \
                "tuple[ndarray, ...]"
        elif result and out and re.match(r"^(shape|dtype)\b", tok):
            continue  # "ndarray, shape (M, N)"
        elif result and " " in tok and out and not re.search(
                r"array|list|tuple|sequence|scalar|int|float|bool|dict|"
                r"matrix|none|str", tok):
            continue  # free text after the type ("see dtype above")
        else:
            return None
        if t not in out:
            out.append(t)
    if not out:
        return None
    if result and ND in out:
        return ND if out == [ND] or set(out) <= {ND, "int", "float", "bool",
                                                 "complex"} else None
    if A in out:  # ArrayLike holds the Python scalars
        out = [t for t in out if t not in ("int", "float", "bool", "complex")]
    if "float" in out and "int" in out:
        out.remove("int")
    return " | ".join(out)


_PROTOS = None


def c_param_types(obj):
    """{parameter name: type} from the prototypes of the engine functions
    obj calls directly (names shared by the Python and C parameters)."""
    import gen_docstrings
    global _PROTOS
    if _PROTOS is None:
        _PROTOS = header_comments.functions()
    protos = _PROTOS
    out = {}
    for c in gen_docstrings.c_calls(obj):
        if c not in protos:
            continue
        m = re.search(r"\((.*)\)", protos[c][1], re.S)
        if not m:
            continue
        for decl in m.group(1).split(","):
            decl = " ".join(decl.split())
            pm = re.match(r"^(.*?)\s*\b(\w+)$", decl)
            if not pm or "*" in decl.replace("char *", "") and \
                    "cn_array" not in decl:
                continue
            ctype, pname = pm.group(1), pm.group(2)
            if ctype.endswith("*") and "char" not in ctype:
                continue  # an output or an array of values
            for pat, t in C_TYPES:
                if re.match(pat, ctype):
                    out.setdefault(pname, t)
                    break
    return out


def _conforms(typ, value):
    if typ in ("Any", A, D):
        return True
    for part in typ.split(" | "):
        part = part.strip()
        if part == "None" and value is None or \
                part == "bool" and isinstance(value, bool) or \
                part == "int" and isinstance(value, int) and \
                not isinstance(value, bool) or \
                part == "float" and isinstance(value, (int, float)) and \
                not isinstance(value, bool) or \
                part == "complex" and isinstance(value, (int, float, complex)) \
                or part == "str" and isinstance(value, str) or \
                part.startswith("tuple") and isinstance(value, tuple) or \
                part.startswith("Sequence") and isinstance(value, (tuple,
                                                                   list)):
            return True
    return False


def _default_type(value):
    if value is None:
        return "None"
    for t in (bool, int, float, complex, str):
        if type(value) is t:
            return t.__name__
    return "Any"


def param_type(p, ctypes, doc):
    """The annotation of parameter p."""
    n = p.name
    if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
        return A if n in ("arrays", "arys", "xi", "buffers") else "Any"
    typ = PARAM_TYPES.get(n) if n in FIXED else None
    typ = typ or doc.get(n) or PARAM_TYPES.get(n) or ctypes.get(n)
    d = p.default
    if typ is None:
        typ = "Any" if d is p.empty else _default_type(d)
        if typ == "None":
            return "Any"
    if typ == "int" and type(d) is bool:
        typ = "bool"  # a C int32_t flag
    if d is not p.empty and not _conforms(typ, d):
        dt = _default_type(d)
        typ = "Any" if dt == "Any" else typ + " | " + dt
    return typ


def doc_param_types(obj):
    doc = parsed_doc(obj)
    out = {}
    if doc is None:
        return out
    for p in doc["Parameters"]:
        t = doc_type(p.type)
        for n in p.name.replace(" ", "").split(","):
            if t is not None:
                out[n.lstrip("*\\")] = t
    return out


def result_type(obj, qual, doc_obj=None):
    if qual in RETURNS:
        return RETURNS[qual]
    parts = qual.split(".")
    if len(parts) > 2:  # a method: its module's "*" entry
        anyclass = ".".join(parts[:-2] + ["*", parts[-1]])
        if anyclass in RETURNS:
            return RETURNS[anyclass]
    ann = getattr(obj, "__annotations__", {}).get("return")
    if isinstance(ann, type):
        return ann.__name__ if ann.__module__ == "builtins" else "Any"
    doc = parsed_doc(doc_obj or obj)
    if (doc is None or not doc["Returns"]) and qual.count(".") >= 1:
        modname, _, name = qual.rpartition(".")
        twin = _counterpart_of(modname, name)
        doc = parsed_doc(twin) if twin is not None else None
    if doc is None or not doc["Returns"]:
        return "Any"
    rets = doc["Returns"]
    types_ = []
    for r in rets:
        if len(rets) > 1 and (
                "optional" in (r.type + " " + " ".join(r.desc)).lower() or
                re.search(r"\bonly (returned|provided)\b|\bif\b.*\bis true\b",
                          " ".join(r.desc).lower())):
            return "Any"  # how many results depends on the arguments
        t = doc_type(r.type or r.name, result=True)
        if t is None:
            return "Any"
        types_.append(t)
    if len(types_) == 1:
        return types_[0]
    return "tuple[" + ", ".join(types_) + "]"


def render_signature(obj, qual, method=False, returns=None, doc_obj=None,
                     overrides=None):
    """"(params) -> result" of obj with typed parameters; overrides
    (OVERLOADS) replaces the annotations of some."""
    overrides = overrides or {}
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        head = "self, " if method else ""
        return f"({head}*args: Any, **kwargs: Any) -> Any"
    ctypes = c_param_types(obj) if inspect.isfunction(obj) else {}
    dtypes = doc_param_types(doc_obj or obj)
    parts, seen_kwonly, seen_default = [], False, False
    params = [p for p in sig.parameters.values()
              if not (p.name in overrides and overrides[p.name] is None)]
    for i, p in enumerate(params):
        if method and i == 0 and p.name in ("self", "cls"):
            parts.append(p.name)
            continue
        typ = param_type(p, ctypes, dtypes)
        if p.name in overrides:
            typ, eq, _ = overrides[p.name].partition(" = ")
            if not eq:
                p = p.replace(default=p.empty)
                if seen_default and p.kind is p.POSITIONAL_OR_KEYWORD:
                    p = p.replace(kind=p.KEYWORD_ONLY)
        if p.default is not p.empty and p.kind is not p.KEYWORD_ONLY:
            seen_default = True
        if seen_kwonly and p.kind is p.POSITIONAL_OR_KEYWORD:
            p = p.replace(kind=p.KEYWORD_ONLY)
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}: {typ}")
            seen_kwonly = True
        elif p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}: {typ}")
        else:
            if p.kind is p.KEYWORD_ONLY and not seen_kwonly:
                parts.append("*")
                seen_kwonly = True
            parts.append(f"{p.name}: {typ}" if p.default is p.empty
                         else f"{p.name}: {typ} = ...")
        if p.kind is p.POSITIONAL_ONLY:
            nxt = params[i + 1] if i + 1 < len(params) else None
            if nxt is None or nxt.kind is not p.POSITIONAL_ONLY:
                parts.append("/")
    if method and not (params and params[0].name in ("self", "cls")):
        parts.insert(0, "self")
    ret = returns if returns is not None else result_type(obj, qual, doc_obj)
    return "(" + ", ".join(parts) + ") -> " + ret


# --------------------------------------------------------------- classes --

def is_ufunc(obj):
    cls = type(obj)
    return cls.__name__ == "ufunc" and cls.__module__.startswith("cunumpy")


def ufunc_class(u):
    return f"_ufunc_nin{u.nin}_nout{u.nout}"


def render_ufunc_classes(arities):
    """The ufunc class and one subclass per (nin, nout): __call__ takes nin
    arrays (NumPy's stubs do the same)."""
    lines = ["class ufunc:",
             "    __name__: str", "    nin: int", "    nout: int",
             "    nargs: int",
             "    def __call__(self, *args: ArrayLike, out: ndarray | None"
             " = ..., **kwargs: Any) -> Any: ...",
             "    def reduce(self, array: ArrayLike, axis: " + AXES +
             " = ..., dtype: DTypeLike = ..., out: ndarray | None = ..., "
             "keepdims: bool = ..., initial: Any = ..., where: ArrayLike = "
             "...) -> ndarray: ...",
             "    def accumulate(self, array: ArrayLike, axis: int = ..., "
             "dtype: DTypeLike = ..., out: ndarray | None = ...) -> "
             "ndarray: ...",
             "    def reduceat(self, array: ArrayLike, indices: ArrayLike, "
             "axis: int = ..., dtype: DTypeLike = ..., out: ndarray | None"
             " = ...) -> ndarray: ...",
             "    def outer(self, A: ArrayLike, B: ArrayLike, **kwargs: Any)"
             " -> ndarray: ...",
             "    def at(self, a: ndarray, indices: Any, b: ArrayLike = ...)"
             " -> None: ...", ""]
    for nin, nout in sorted(arities):
        args = ", ".join(f"x{i + 1}: ArrayLike" for i in range(nin)) \
            if nin > 1 else "x: ArrayLike"
        res = ND if nout == 1 else "tuple[" + ", ".join([ND] * nout) + "]"
        lines += [f"class _ufunc_nin{nin}_nout{nout}(ufunc):",
                  f"    def __call__(self, {args}, /, out: ndarray | None = "
                  "..., *, where: ArrayLike = ..., casting: str = ..., "
                  "order: str = ..., dtype: DTypeLike = ..., subok: bool = "
                  f"..., signature: Any = ...) -> {res}: ...  "
                  "# type: ignore[override]", ""]
    return lines


def _own_attr(cls, attr):
    """Whether attr is defined by cls or a base other than object (not
    reached through the metaclass, as getattr(cls, ...) would)."""
    return any(attr in vars(b) for b in cls.__mro__ if b is not object)


def render_namedtuple(name, cls):
    return [f"class {name}(NamedTuple):"] + \
        [f"    {f}: ndarray" for f in cls._fields]


def render_ndarray(cls):
    lines = ["class ndarray:"]
    for attr, typ in sorted(NDARRAY_ATTRS.items()):
        lines.append(f"    {attr}: {typ}")
    names = sorted(n for n in dir(cls) if not n.startswith("_"))
    for attr in names:
        if attr in NDARRAY_ATTRS:
            continue
        val = inspect.getattr_static(cls, attr)
        if inspect.isfunction(val) or inspect.ismethoddescriptor(val):
            ret = NDARRAY_RETURNS.get(attr, ND)
            lines.append(f"    def {attr}"
                         f"{render_signature(val, '', True, ret)}: ...")
        else:
            raise SystemExit(f"gen_stubs.py: ndarray.{attr} has no type "
                             "(add it to NDARRAY_ATTRS)")
    for attr, sig in sorted(NDARRAY_PROTOCOL.items()):
        if _own_attr(cls, attr):
            sig, _, comment = sig.partition("  #")
            tail = f": ...  #{comment}" if comment else ": ..."
            lines.append(f"    def {attr}{sig}{tail}")
    return lines


def render_class(name, cls, modname, cp):
    bases = [b.__name__ for b in cls.__bases__
             if b is not object and getattr(builtins, b.__name__, None) is b]
    if cls.__name__ != name:  # an alias of a class defined elsewhere
        return [f"{name} = {cls.__name__}"]
    if name == "ndarray" and modname == "cunumpy":
        return render_ndarray(cls)
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return render_namedtuple(name, cls)
    head = f"class {name}({', '.join(bases)}):" if bases else f"class {name}:"
    body = []
    qual = f"{modname}.{name}"
    for attr, val in sorted(vars(cls).items()):
        if attr.startswith("_") and attr not in ("__init__", "__call__",
                                                 "__enter__", "__exit__"):
            continue
        twin = getattr(cp, attr, None) if cp is not None else None
        if isinstance(val, (staticmethod, classmethod)):
            deco = "@staticmethod" if isinstance(val, staticmethod) \
                else "@classmethod"
            body += [f"    {deco}", f"    def {attr}" + render_signature(
                val.__func__, f"{qual}.{attr}", isinstance(val, classmethod),
                doc_obj=twin if not inspect.getdoc(val.__func__) else None)
                + ": ..."]
        elif inspect.isfunction(val):
            ret = "None" if attr == "__init__" else name \
                if attr == "__enter__" else "None" if attr == "__exit__" \
                else None
            own_doc = val.__doc__ and "\nReturns\n" in "\n" + \
                inspect.cleandoc(val.__doc__)
            body.append(f"    def {attr}" + render_signature(
                val, f"{qual}.{attr}", True, ret,
                doc_obj=None if own_doc or twin is None else twin) + ": ...")
        elif isinstance(val, property) or inspect.ismemberdescriptor(val):
            body.append(f"    {attr}: {attr_type(qual, attr)}")
    # Methods and attributes from a C base of the package (SWIG -builtin).
    for base in cls.__mro__[1:]:
        if not (base.__module__ or "").startswith("cunumpy"):
            continue
        for attr, val in sorted(vars(base).items()):
            if attr.startswith("_") and attr != "__init__" or \
                    attr in vars(cls) or any(
                    attr in vars(b) for b in cls.__mro__[1:cls.__mro__.index(
                        base)]):
                continue
            if inspect.isfunction(val):
                body.append(f"    def {attr}" + render_signature(
                    val, f"{qual}.{attr}", True,
                    "None" if attr == "__init__" else None) + ": ...")
            elif inspect.ismethoddescriptor(val) or inspect.isbuiltin(val):
                body.append(f"    def {attr}(self, *args: Any, **kwargs: Any)"
                            " -> Any: ...")
            elif inspect.isdatadescriptor(val):
                body.append(f"    {attr}: {attr_type(qual, attr)}")
    # Protocols the class gets from a C base (SWIG), which vars() misses.
    for attr in sorted(PROTOCOL):
        if attr in vars(cls) and (attr not in ("__init__", "__call__") or
                                  inspect.isfunction(vars(cls)[attr])):
            continue
        if not _own_attr(cls, attr) or any(
                attr in vars(b) for b in cls.__mro__
                if getattr(builtins, b.__name__, None) is b):
            continue
        sigs = CLASS_PROTOCOL.get(modname, {}).get(attr)
        if sigs is None:
            body.append(f"    def {attr}{PROTOCOL[attr]}: ...")
            continue
        for sig in sigs:
            if len(sigs) > 1:
                body.append("    @overload")
            body.append(f"    def {attr}{sig.format(cls=name)}: ...")
    body.append("    def __getattr__(self, name: str) -> Any: ...")
    return [head] + body


def _importable(cls):
    """Whether cls is reachable as its module's attribute of its name."""
    try:
        mod = importlib.import_module(cls.__module__)
    except ImportError:
        return False
    return cls.__module__ != "builtins" and \
        getattr(mod, cls.__name__, None) is cls


def _counterpart_of(modname, name):
    """The NumPy/SciPy object cunumpy's modname.name follows (its text
    types the methods of classes that have none)."""
    import gen_docstrings
    for m, path in gen_docstrings.MODULES:
        if m == modname and path:
            obj = gen_docstrings.counterpart(path, name)
            if obj is None and path.endswith("." + name):
                obj = gen_docstrings.counterpart(path.rsplit(".", 1)[0], name)
            return obj
    return None


def qualify(text, shadowed):
    """text with the builtins the module's own names shadow (numpy's bool
    re-exported as ``bool``) spelled ``builtins.X``."""
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        if not ln.startswith(("from ", "import ")):
            lines[i] = _qualify_line(ln, shadowed)
    return "\n".join(lines)


def _qualify_line(text, shadowed):
    for n in shadowed:
        text = re.sub(rf"(?<![\w.]){n}(?=[\s\],|)\[:]|$)", f"builtins.{n}",
                      text)
    return text


def all_arities():
    """The (nin, nout) of every ufunc of the public modules."""
    out = set()
    for m, _ in MODULES:
        mod = importlib.import_module(m)
        for n in public_names(mod):
            obj = getattr(mod, n, None)
            if is_ufunc(obj):
                out.add((obj.nin, obj.nout))
    return out


def stub(modname):
    mod = importlib.import_module(modname)
    names = public_names(mod)
    defs, classes, arities = [], [], set()
    for n in names:
        obj = getattr(mod, n, None)
        qual = f"{modname}.{n}"
        if isinstance(obj, types.ModuleType):
            if obj.__name__ in [m for m, _ in MODULES]:
                parent, _, leaf = obj.__name__.rpartition(".")
                if parent == modname:
                    defs.append(f"from . import {leaf} as {n}")
                else:
                    defs.append(f"import {obj.__name__} as {n}")
            else:
                defs.append(f"{n}: Any")
        elif is_ufunc(obj):
            arities.add((obj.nin, obj.nout))
            defs.append(f"{n}: {ufunc_class(obj)}")
        elif inspect.isclass(obj) and (obj.__module__ or "").startswith(
                "cunumpy"):
            if n == "ufunc" and modname == "cunumpy":
                continue  # render_ufunc_classes writes it
            if n == "ndarray" and modname != "cunumpy":
                defs.append("from cunumpy import ndarray as ndarray")
            elif n == "ufunc" and modname != "cunumpy":
                defs.append("from cunumpy import ufunc as ufunc")
            elif obj.__name__ != n or obj.__module__ != modname and \
                    n in [c for c, _ in classes]:
                defs.append(f"{n}: Any")
            else:
                classes.append((n, obj))
        elif inspect.isclass(obj) and _importable(obj):
            defs.append(f"from {obj.__module__} import {obj.__name__} as {n}")
        elif (inspect.isfunction(obj) or inspect.isbuiltin(obj)) and \
                qual in OVERLOADS:
            for over, ret in OVERLOADS[qual]:
                defs += ["@overload", f"def {n}" + render_signature(
                    obj, qual, returns=ret, overrides=over) + ": ..."]
        elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
            defs.append(f"def {n}{render_signature(obj, qual)}: ...")
        elif isinstance(obj, bool):
            defs.append(f"{n}: bool")
        elif isinstance(obj, (int, float, str)):
            defs.append(f"{n}: {type(obj).__name__}")
        else:
            defs.append(f"{n}: Any")
    body = []
    for n in EXTRA_CLASSES.get(modname, []):
        classes.append((n, getattr(mod, n)))
    for n, cls in classes:
        cp = _counterpart_of(modname, n)
        body += render_class(n, cls, modname, cp) + [""]
    if modname == "cunumpy":
        body += render_ufunc_classes(all_arities())
    body += defs
    body += ["", "def __getattr__(name: str) -> Any: ...", ""]
    text = "\n".join(body)
    shadowed = [b for b in BUILTIN_TYPES if b in names]
    if shadowed:
        text = qualify(text, shadowed)
    # The imports the text uses (names a module exports are not re-imported).
    used = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
    head = [f'"""Type stub of {modname} (generated by tools/gen_stubs.py; '
            'do not edit)."""', ""]
    if shadowed:
        head.append("import builtins")
    if "_np" in used:
        head.append("import numpy as _np")
    ty = [t for t in TYPING if t in used and t not in names]
    if ty:
        head.append("from typing import " + ", ".join(ty))
    abc = [t for t in ABC if t in used and t not in names]
    if abc:
        head.append("from collections.abc import " + ", ".join(abc))
    nt = [t for t in ("ArrayLike", "DTypeLike") if t in used]
    if nt:
        head.append("from numpy.typing import " + ", ".join(nt))
    if modname != "cunumpy":
        own = {"ndarray", "ufunc"} & set(names)
        imp = sorted(({"ndarray"} if "ndarray" in used else set()) |
                     {ufunc_class_n for ufunc_class_n in used
                      if ufunc_class_n.startswith("_ufunc_nin")})
        imp = [i for i in imp if i not in own]
        for t in ("Device", "Flags"):
            if t in used and t not in names:
                imp.append(t)
        if imp:
            head.append("from cunumpy import " + ", ".join(imp))
    return "\n".join(head + [""] + [text])


def outputs():
    return {rel: stub(m) for m, rel in MODULES}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    os.environ["CUNUMPY_NO_GENERATED_DOCS"] = "1"
    stale = []
    for rel, text in outputs().items():
        path = os.path.join(PKG, rel)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) \
            else None
        if args.check:
            if old != text:
                stale.append(rel)
        elif old != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("gen_stubs.py: stale stubs " + ", ".join(stale) + ": run "
              "PYTHONPATH=build/python python3 tools/gen_stubs.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
