#!/usr/bin/env python3
"""Generates numpydoc docstrings for the public Python callables of cunumpy
that have none in their source.

    PYTHONPATH=build/python python3 tools/gen_docstrings.py          # rewrite
    PYTHONPATH=build/python python3 tools/gen_docstrings.py --check  # stale?

Output: bindings/python/cunumpy/_docstrings.py, a table {public name:
docstring} that the package applies at import to callables whose __doc__ is
None. Each text is put together from:

- the summary line of the NumPy / SciPy function of the same name (the
  behaviour cunumpy follows), else the first sentence of the C comment;
- the header comment of the C function(s) the Python function calls
  directly (include/cunumpy/*.h via tools/header_comments.py), with C
  statuses named by the Python exceptions they raise: the text lives once,
  in the header;
- a Parameters section from the Python signature (descriptions from
  FUNCTION_PARAMS below for one function's own parameters, PARAMS for
  cunumpy's common ones, the counterpart's docstring, then GENERIC), also
  appended to hand-written texts that have none: every public function
  with parameters gets one, or the generator fails;
- a "Differences from NumPy" note from comparing the two signatures.

The NumPy / SciPy parts depend on their installed versions, recorded in the
output; --check reports a skip (exit 77) when those differ from the ones
installed, and fails (exit 1) when the output is stale.
"""

import argparse
import ast
import importlib
import inspect
import os
import pprint
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_comments  # noqa: E402

ROOT = header_comments.ROOT
OUT = os.path.join(ROOT, "bindings", "python", "cunumpy", "_docstrings.py")
SKIP = 77

# The public modules and the library each one follows.
MODULES = [
    ("cunumpy", "numpy"),
    ("cunumpy.linalg", "numpy.linalg"),
    ("cunumpy.fft", "numpy.fft"),
    ("cunumpy.random", "numpy.random.Generator"),
    ("cunumpy.special", "scipy.special"),
    ("cunumpy.signal", "scipy.signal"),
    ("cunumpy.signal.windows", "scipy.signal.windows"),
    ("cunumpy.sparse", "scipy.sparse"),
    ("cunumpy.sparse.linalg", "scipy.sparse.linalg"),
    ("cunumpy.cuda", "cupy.cuda"),
    ("cunumpy.testing", "numpy.testing"),
    ("cunumpy.profiler", "cupyx.profiler"),
    ("cunumpy.dask", None),
    ("cunumpy.exceptions", "numpy.exceptions"),
]

# cunumpy's own parameters (and common ones whose NumPy text is long).
PARAMS = {
    "device": ("str or Device, optional",
               "Where the result lives: ``'cpu'``, ``'cuda'`` or "
               "``'cuda:N'``; default the active backend."),
    "stream": ("Stream, optional", "CUDA stream to order the work on; "
               "default the thread's current stream."),
    "backend": ("str", "Backend name: ``'cpu'`` (``'numpy'``) or "
                "``'cuda'`` (``'cupy'``)."),
    "copy": ("bool, optional", "Whether to copy the data (None: only "
             "when needed)."),
    "like": ("array_like, optional", "Reference object (NEP 35); cunumpy "
             "arrays are returned either way."),
    "xp": ("module, optional", "Array namespace of the inputs."),
    "descending": ("bool, optional", "Sort in descending order (Array API; "
                   "stable sorts keep equal elements in input order)."),
}

# Common parameters, for counterparts whose docstring does not list them
# (NumPy's aliases such as amax, and C-level functions).
GENERIC = {
    "a": ("array_like", "Input array."),
    "x": ("array_like", "Input array."),
    "m": ("array_like", "Input array."),
    "ary": ("array_like", "Array to split."),
    "arys": ("array_like", "One or more arrays."),
    "arrays": ("sequence of array_like", "The arrays."),
    "shapes": ("tuple of int", "The shapes to broadcast."),
    "xi": ("array_like", "1-d coordinate arrays."),
    "axis": ("int or tuple of int, optional", "Axis or axes to work along "
             "(None: all of them, or the flattened array)."),
    "out": ("ndarray, optional", "Array to write the result into (its "
            "shape and a dtype the result casts to under same_kind)."),
    "keepdims": ("bool, optional", "Keep reduced axes with extent 1."),
    "initial": ("scalar, optional", "Starting value of the reduction."),
    "where": ("array_like of bool, optional", "Elements to include."),
    "dtype": ("dtype, optional", "dtype of the result (default: the "
              "function's default for the inputs)."),
    "decimals": ("int, optional", "Number of decimal places."),
    "k": ("int, optional", "Diagonal offset (0 the main diagonal, "
          "positive above it)."),
    "indices_or_sections": ("int or 1-d array_like", "Number of equal "
                            "sections, or the indices to split at."),
    "newshape": ("int or tuple of int", "The new shape (one entry may be "
                 "-1); NumPy's deprecated name of ``shape``."),
    "kwargs": ("dict", "Keyword arguments of the counterpart."),
    "rp": ("float", "Passband ripple in decibels."),
    "random_state": ("int or Generator, optional", "Seed or generator."),
    "low": ("int", "Lowest value (inclusive)."),
    "high": ("int, optional", "Highest value (exclusive)."),
    "size": ("int or tuple of int, optional", "Output shape."),
    "shape": ("int or tuple of int", "Shape of the result."),
    "order": ("{'C', 'F', 'A', 'K'}, optional", "Memory layout of the "
              "result."),
    "seed": ("int, SeedSequence or None, optional", "Seed of the "
             "generator (None: fresh entropy)."),
    "casting": ("str, optional", "NumPy's casting rule for the "
                "conversion."),
    "M": ("int", "Number of points (rows)."),
    "path": ("str or path-like", "File path."),
    "key": ("index", "The index expression."),
    "value": ("array_like", "Values to assign."),
}

# Parameters of one function that neither its counterpart's text nor the
# tables above describe (cunumpy's own functions, NumPy's pass-through
# arguments); the text restates what the function's source does.
_ARGS_PASSED = "Positional arguments passed on to ``{}``."
FUNCTION_PARAMS = {
    "cunumpy.array": {"obj": ("array_like", "An array, any object with "
                              "``__array__`` or the buffer or DLPack "
                              "protocol, a nested sequence or a scalar.")},
    "cunumpy.array2string": {"args": ("", _ARGS_PASSED.format(
        "numpy.array2string"))},
    "cunumpy.backend_supports": {
        "what": ("str", "A kernel (``'matmul'``, ``'take'``, ``'rng'``...), "
                 "a domain (``'linalg'``, ``'fft'``...), an elementwise op "
                 "or a reduction."),
        "backend": ("str, optional", "Backend name or alias (None: the "
                    "active backend).")},
    "cunumpy.clip": {"kw": ("", "Further ufunc keywords (``dtype``, "
                            "``casting``...) of the elementwise call.")},
    "cunumpy.divmod": {
        "out1": ("ndarray, optional", "Array receiving ``x1 // x2``."),
        "out2": ("ndarray, optional", "Array receiving ``x1 % x2``."),
        "out": ("tuple of two ndarray or None, optional", "``(out1, out2)`` "
                "as one tuple (NumPy's form); it overrides out1 and out2.")},
    "cunumpy.modf": {
        "out1": ("ndarray, optional", "Array receiving the fractional part."),
        "out2": ("ndarray, optional", "Array receiving the integral part."),
        "out": ("tuple of two ndarray or None, optional", "``(out1, out2)`` "
                "as one tuple (NumPy's form); it overrides out1 and out2.")},
    "cunumpy.evaluate": {
        "ex": ("str", "The expression, in numexpr's syntax."),
        "local_dict": ("dict, optional", "Names looked up first (None: the "
                       "caller's locals)."),
        "global_dict": ("dict, optional", "Names looked up next (None: the "
                        "caller's globals)."),
        "out": ("ndarray, optional", "Array receiving the result, cast "
                "under ``casting``."),
        "order": ("{'K', 'C', 'F'}, optional", "'K' and 'C' give a "
                  "C-ordered result, 'F' a Fortran-ordered one.")},
    "cunumpy.finfo": {"type": ("dtype, ndarray or float", "The floating "
                               "dtype, or a value of it.")},
    "cunumpy.iinfo": {"type": ("dtype, ndarray or int", "The integer dtype, "
                               "or a value of it.")},
    "cunumpy.from_pointer": {
        "ptr": ("int or object with ``.ptr``", "Address of the memory (for "
                "instance a CuPy MemoryPointer)."),
        "shape": ("tuple of int", "Shape of the array."),
        "dtype": ("dtype", "dtype of the elements."),
        "strides": ("tuple of int, optional", "Strides in bytes (None: "
                    "C-contiguous)."),
        "owner": ("object, optional", "Kept alive as long as any view of "
                  "the array."),
        "device": ("str, Device or int, optional", "``'cpu'``, ``'cuda'``, "
                   "``'cuda:N'``, a device object or a CUDA ordinal (None: "
                   "the current CUDA device on the CUDA backend, else the "
                   "CPU)."),
        "readonly": ("bool, optional", "Whether the array is read-only.")},
    "cunumpy.fuse": {
        "args": ("", "The function to fuse when used as ``@fuse`` (none "
                 "with ``@fuse()``)."),
        "kernel_name": ("str, optional", "Name of the fused kernel."),
        "fallback": ("bool, optional", "Run the function unfused for a "
                     "signature that cannot be fused, instead of raising "
                     "TypeError.")},
    "cunumpy.genfromtxt": {
        "args": ("", _ARGS_PASSED.format("numpy.genfromtxt")),
        "kwargs": ("", "Keyword arguments passed on to "
                   "``numpy.genfromtxt``.")},
    "cunumpy.loadtxt": {
        "args": ("", _ARGS_PASSED.format("numpy.loadtxt")),
        "kwargs": ("", "Keyword arguments passed on to ``numpy.loadtxt``.")},
    "cunumpy.savetxt": {
        "args": ("", _ARGS_PASSED.format("numpy.savetxt")),
        "kwargs": ("", "Keyword arguments passed on to ``numpy.savetxt``.")},
    "cunumpy.get_array_module": {"args": ("", "Arrays (and other values, "
                                          "which are ignored).")},
    "cunumpy.numpy_function": {
        "func": ("callable", "The NumPy function called."),
        "types": ("collection of type", "Types of the arguments that "
                  "implement ``__array_function__``."),
        "args": ("tuple", "Positional arguments of the call."),
        "kwargs": ("dict", "Keyword arguments of the call.")},
    "cunumpy.numpy_ufunc": {
        "uf": ("numpy.ufunc", "The NumPy ufunc applied."),
        "method": ("str", "``'__call__'`` or a ufunc method name "
                   "(``'reduce'``, ``'accumulate'``, ``'outer'``, "
                   "``'reduceat'``, ``'at'``)."),
        "inputs": ("tuple", "The operands."),
        "kwargs": ("dict", "Keyword arguments of the call (``out``, "
                   "``where``, ``dtype``...).")},
    "cunumpy.pin_memory": {"host_array": ("array_like", "NumPy, cunumpy or "
                                          "array-like data to copy.")},
    "cunumpy.save": {"fix_imports": ("bool, optional", "Accepted for "
                                     "NumPy's signature; not used.")},
    "cunumpy.set_backend": {"name": ("str", "``'cpu'`` / ``'numpy'`` or "
                                     "``'cuda'`` / ``'cupy'``.")},
    "cunumpy.use_backend": {"name": ("str", "Backend of the block: "
                                     "``'cpu'`` / ``'numpy'`` or ``'cuda'`` "
                                     "/ ``'cupy'``.")},
    "cunumpy.set_device": {"i": ("int", "CUDA device ordinal.")},
    "cunumpy.set_device_for_rank": {"rank": ("int", "The process's rank "
                                             "(device ``rank % "
                                             "device_count()``).")},
    "cunumpy.stream": {"non_blocking": ("bool, optional", "Whether the new "
                                        "stream does not synchronise with "
                                        "the default stream.")},
    "cunumpy.synchronize_for_mpi": {"buffers": ("", "Arrays MPI is about "
                                                "to read or write.")},
    "cunumpy.to_dlpack": {
        "a": ("ndarray", "The array exported."),
        "max_version": ("tuple of int or None", "Highest DLPack version "
                        "``(major, minor)`` the consumer supports."),
        "dl_device": ("tuple of int or None", "``(device type, device id)`` "
                      "to export to (None: the array's device)."),
        "copy": ("bool or None", "Whether to copy (None: only when "
                 "needed).")},
    "cunumpy.fft.set_planner": {"effort": ("str", "``'estimate'`` "
                                           "(default), ``'measure'``, "
                                           "``'patient'`` or "
                                           "``'exhaustive'``.")},
    "cunumpy.signal.iirfilter": {"bessel_norm": ("str, optional", "The "
                                                 "``norm`` of the Bessel "
                                                 "prototype (``'phase'``, "
                                                 "``'delay'`` or "
                                                 "``'mag'``).")},
    "cunumpy.signal.sosfreqz": {
        "sos": ("array_like", "Second-order sections, shape "
                "``(n_sections, 6)``."),
        "worN": ("int or array_like, optional", "Number of frequencies, or "
                 "the frequencies (in the units of fs) to evaluate at."),
        "whole": ("bool, optional", "Frequencies up to fs instead of fs/2."),
        "fs": ("float, optional", "Sampling frequency (default 2 pi: "
               "radians per sample).")},
    "cunumpy.sparse.linalg.aslinearoperator": {
        "A": ("sparse matrix, 2-d array_like or LinearOperator", "The "
              "matrix (a LinearOperator is returned as it is).")},
    "cunumpy.cuda.get_elapsed_time": {
        "start_event": ("Event", "The earlier recorded event."),
        "end_event": ("Event", "The later recorded event.")},
    "cunumpy.cuda.set_allocator": {
        "allocator": ("callable or MemoryPool, optional", "A MemoryPool or "
                      "its malloc, ``malloc_managed``, or None (no cache).")},
    "cunumpy.cuda.set_pinned_memory_allocator": {
        "allocator": ("callable or PinnedMemoryPool, optional", "The pinned "
                      "pool or its malloc (keep freed blocks), or None (free "
                      "them at once).")},
    "cunumpy.profiler.benchmark": {
        "func": ("callable", "The function timed."),
        "args": ("tuple, optional", "Positional arguments of each call."),
        "kwargs": ("dict, optional", "Keyword arguments of each call."),
        "n_repeat": ("int, optional", "Most timed calls."),
        "name": ("str, optional", "Name in the summary (default the "
                 "function's ``__name__``)."),
        "n_warmup": ("int, optional", "Untimed calls first."),
        "max_duration": ("float, optional", "Seconds after which no more "
                         "timed calls start."),
        "devices": ("sequence of int, optional", "CUDA devices whose GPU "
                    "time is measured (default the current device)."),
    },
}

# Summaries of functions with no counterpart and no C comment.
SUMMARIES = {
    "cunumpy.default_float_dtype": "The default floating dtype of the "
    "active backend (float64).",
    "cunumpy.get_default_pinned_memory_pool": "The pinned host memory pool "
    "(CuPy's name; an inert pool without CUDA).",
    "cunumpy.is_cpu": "Whether the active backend is the CPU.",
    "cunumpy.is_gpu": "Whether the active backend is CUDA.",
    "cunumpy.random.randint": "Random integers in [low, high) (the legacy "
    "name of ``integers``).",
}

# Differences that a signature comparison cannot see (one line each).
DIFFERENCES = {
}

STATUS_EXCEPTIONS = {
    "CN_ERR_VALUE": "ValueError", "CN_ERR_SHAPE": "ValueError",
    "CN_ERR_LINALG": "LinAlgError", "CN_ERR_OVERFLOW": "OverflowError",
    "CN_ERR_ZERO_DIVISION": "ZeroDivisionError", "CN_ERR_TYPE": "TypeError",
    "CN_ERR_INDEX": "IndexError", "CN_ERR_AXIS": "AxisError",
    "CN_ERR_MEMORY": "MemoryError", "CN_ERR_DEVICE": "DeviceError",
    "CN_ERR_BACKEND": "BackendError",
    "CN_ERR_UNSUPPORTED": "NotImplementedError",
    "CN_ERR_INTERNAL": "InternalError",
}


def versions():
    out = {}
    for name in ("numpy", "scipy"):
        try:
            out[name] = importlib.import_module(name).__version__
        except ImportError:
            out[name] = None
    return out


def counterpart(path, name):
    if path is None:
        return None
    parts = path.split(".")
    try:
        obj = importlib.import_module(parts[0])
        for p in parts[1:]:
            obj = getattr(obj, p)
        obj = getattr(obj, name)
    except (ImportError, AttributeError):
        return None
    return obj if callable(obj) else None


def rst_safe(text):
    """Counterpart text without Sphinx roles, footnotes or references that
    only resolve in the counterpart's own documentation."""
    text = re.sub(r":[\w:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`", r"``\1``", text)
    text = re.sub(r"\s*\[[\w#]+\]_", "", text)
    text = re.sub(r"(?<![`\w])`([^`]+)`(?!`)", r"``\1``", text)
    text = text.replace("*", r"\*").replace(r"``\*", "``*")
    text = re.sub(r"``([^`]*)``", lambda m: "``" + m.group(1).replace(
        "\\*", "*") + "``", text)
    text = re.sub(r"\|(\w+)\|", r"\1", text)
    return text


def c_to_python(text):
    for st, exc in STATUS_EXCEPTIONS.items():
        text = text.replace(st, exc)
    text = re.sub(r"\*out\b", "the result", text)
    return rst_safe(text)


def c_calls(obj):
    """The engine functions obj's body calls directly, in order."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return []
    seen = []
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                   key=lambda n: (n.lineno, n.col_offset))
    for node in (c.func for c in calls):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("cn_")
                and isinstance(node.value, ast.Name)
                and node.value.id in ("_lib", "_cnlib", "lib")):
            if node.attr not in seen:
                seen.append(node.attr)
    return seen


def signature(obj):
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def numpydoc_of(obj):
    from numpydoc.docscrape import FunctionDoc, ClassDoc
    try:
        if isinstance(obj, type):
            return ClassDoc(obj, config={"show_class_members": False})
        return FunctionDoc(obj)
    except Exception:  # noqa: BLE001 - a counterpart's malformed docstring
        return None


def first_sentence(text):
    text = " ".join(text.split())
    m = re.match(r"(.+?\.)(\s|$)", text)
    return m.group(1) if m else text.rstrip(".") + "."


def describe(name, sig, cdoc):
    """{parameter name: (type, description)} from the counterpart."""
    out = {}
    if cdoc is None:
        return out
    for p in list(cdoc["Parameters"]) + list(cdoc["Other Parameters"]):
        name, typ = p.name, p.type
        if ":" in name and not typ:  # "name: type" without the space
            name, _, typ = name.partition(":")
        for n in name.replace(" ", "").split(","):
            desc = re.sub(r"\s*\.\. version\w+::.*$", "", " ".join(p.desc))
            out.setdefault(n.lstrip("*"), (typ.strip(), desc))
    return out


def build(modname, cpath, pubname, obj, sections_only=False):
    """The docstring of obj, or with sections_only the numpydoc sections
    (Parameters, Returns, Notes, See Also) to append to its own text."""
    cp = counterpart(cpath, pubname)
    cdoc = numpydoc_of(cp) if cp is not None else None
    calls = c_calls(obj)
    cfuncs = header_comments.functions()
    comments = [(c, cfuncs[c]) for c in calls if c in cfuncs and cfuncs[c][2]]
    summary = SUMMARIES.get(f"{modname}.{pubname}")
    if summary or sections_only:
        comments = [] if sections_only else comments
    elif cdoc is not None and cdoc["Summary"]:
        summary = rst_safe(" ".join(cdoc["Summary"]))
    elif comments:
        summary = first_sentence(c_to_python(comments[0][1][2]))
    if not summary and not sections_only:
        return None, f"{modname}.{pubname}: no summary (counterpart or C comment)"
    lines = [] if sections_only else [summary, ""]
    if len(comments) == 1:
        c, (h, proto, comment) = comments[0]
        lines += [f"Runs the engine function ``{c}`` "
                  f"(``include/cunumpy/{h}``):", ""]
        lines += ["    " + ln if ln else "" for ln in
                  c_to_python(comment).splitlines()]
        lines.append("")
    elif comments:
        lines += ["Runs the engine functions " + ", ".join(
            f"``{c}``" for c, _ in comments) + ":", ""]
        for c, (h, proto, comment) in comments:
            body = " ".join(c_to_python(comment).split())
            lines += [f"- ``{c}`` (``include/cunumpy/{h}``): {body}"]
        lines.append("")
    sig = signature(obj)
    known = describe(pubname, sig, cdoc)
    missing = []
    if sig is not None and sig.parameters and not isinstance(obj, type):
        lines += ["Parameters", "----------"]
        for p in sig.parameters.values():
            n = p.name
            star = "*" if p.kind is p.VAR_POSITIONAL else \
                "**" if p.kind is p.VAR_KEYWORD else ""
            own = FUNCTION_PARAMS.get(f"{modname}.{pubname}", {})
            if n in own:
                typ, desc = own[n]
            elif n in PARAMS:
                typ, desc = PARAMS[n]
            elif n in known:
                typ, desc = known[n]
            elif n in GENERIC:
                typ, desc = GENERIC[n]
            else:
                missing.append(n)
                typ, desc = "object", ""
            head = f"{star}{n}" if not typ or star else f"{n} : {rst_safe(typ)}"
            lines.append(head.replace("*", r"\*") if star else head)
            if desc:
                lines += textwrap.wrap(rst_safe(desc), 72,
                                       initial_indent="    ",
                                       subsequent_indent="    ",
                                       break_on_hyphens=False)
        lines.append("")
    if cdoc is not None and cdoc["Returns"] and not isinstance(obj, type):
        lines += ["Returns", "-------"]
        for r in cdoc["Returns"]:
            head = f"{r.name} : {rst_safe(r.type)}" if r.name else rst_safe(r.type)
            lines.append(head)
            if r.desc:
                lines += textwrap.wrap(rst_safe(" ".join(r.desc)), 72,
                                       initial_indent="    ",
                                       subsequent_indent="    ",
                                       break_on_hyphens=False)
        lines.append("")
    notes = list(DIFFERENCES.get(f"{modname}.{pubname}", []))
    csig = signature(cp) if cp is not None else None
    if sig is not None and csig is not None and not isinstance(obj, type):
        kinds = {p.kind for p in sig.parameters.values()}
        ours = {n for n, p in sig.parameters.items()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        theirs = {n for n, p in csig.parameters.items() if p.kind not in (
            p.VAR_POSITIONAL, p.VAR_KEYWORD)} - {"self"}
        # *args and **kwargs handed on to the counterpart take its names.
        passes_all = {inspect.Parameter.VAR_POSITIONAL,
                      inspect.Parameter.VAR_KEYWORD} <= kinds
        lacking = [] if passes_all else sorted(theirs - ours)
        extra = sorted(ours - theirs)
        if lacking:
            notes.append("Does not take " + ", ".join(f"``{n}``" for n in lacking)
                         + f" (``{cpath}.{pubname}`` does).")
        if extra:
            notes.append("Also takes " + ", ".join(f"``{n}``" for n in extra)
                         + f", which ``{cpath}.{pubname}`` does not.")
    returns = " ".join(" ".join([r.type] + list(r.desc))
                       for r in (cdoc["Returns"] if cdoc is not None else []))
    if re.search(r"\bscalar\b", returns):
        notes.append("Returns a 0-d array where NumPy returns a scalar "
                     "(the value stays on its device; ``float(r)`` or "
                     "``r.item()`` reads it).")
    if cp is None and cpath is not None:
        notes.append(f"``{cpath}`` has no function of this name.")
    if notes:
        lines += ["Notes", "-----", "Differences from "
                  + (cpath.split(".")[0] if cpath else "NumPy") + ":", ""]
        lines += ["- " + n for n in notes]
        lines.append("")
    if cp is not None:
        lines += ["See Also", "--------", f"{cpath}.{pubname}", ""]
    if missing:
        return None, (f"{modname}.{pubname}: no description for parameter(s) "
                      + ", ".join(missing) + " (add them to FUNCTION_PARAMS "
                      "or PARAMS)")
    return "\n".join(lines).rstrip() + "\n", None


def public(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")]
    return [n for n in names if not n.startswith("_")]


def owned(obj):
    m = getattr(obj, "__module__", None) or ""
    return m == "cunumpy" or m.startswith("cunumpy.")


def generate():
    """(DOCS, SECTIONS, problems, number of documented functions left
    without sections): DOCS the texts of undocumented callables, SECTIONS
    the sections appended to functions whose text has none. A parameter
    no table or counterpart describes is a problem (FUNCTION_PARAMS)."""
    docs, sections, problems, seen = {}, {}, [], set()
    left = 0
    for modname, cpath in MODULES:
        try:
            mod = importlib.import_module(modname)
        except ImportError as e:
            problems.append(f"{modname}: cannot import ({e})")
            continue
        for n in public(mod):
            obj = getattr(mod, n, None)
            if obj is None or not callable(obj) or not owned(obj):
                continue
            if not (inspect.isfunction(obj) or isinstance(obj, type)):
                continue
            key = f"{mod.__name__}.{n}"
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if (obj.__doc__ or "").strip():
                if inspect.isfunction(obj) and \
                        "\nParameters\n" not in "\n" + inspect.cleandoc(
                            obj.__doc__):
                    text, problem = build(modname, cpath, n, obj, True)
                    if problem is None and text.strip():
                        sections[key] = text
                    elif problem is not None:
                        problems.append(problem)
                    else:
                        left += 1  # no parameters, no counterpart sections
                continue
            text, problem = build(modname, cpath, n, obj)
            if problem:
                problems.append(problem)
            else:
                docs[key] = text
    return docs, sections, problems, left


def render(docs, sections):
    head = ('"""Generated by tools/gen_docstrings.py from the C headers\' '
            'comments and the\nNumPy/SciPy counterparts; do not edit. '
            'apply(module) gives these texts to\nthe module\'s public '
            'callables that have no docstring of their own."""\n\n')
    body = "VERSIONS = " + pprint.pformat(versions()) + "\n\n"
    body += "DOCS = {\n"
    for k in sorted(docs):
        body += f"    {k!r}:\n        {docs[k]!r},\n"
    body += "}\n\n"
    body += "SECTIONS = {\n"
    for k in sorted(sections):
        body += f"    {k!r}:\n        {sections[k]!r},\n"
    body += "}\n"
    tail = '''

def apply(module):
    """Sets __doc__ of module's undocumented public callables from DOCS
    and appends SECTIONS to the one-paragraph texts of the others (not
    under CUNUMPY_NO_GENERATED_DOCS=1, which the generator sets)."""
    import os
    if os.environ.get("CUNUMPY_NO_GENERATED_DOCS"):
        return
    prefix = module.__name__ + "."
    for key, text in DOCS.items():
        if not key.startswith(prefix) or "." in key[len(prefix):]:
            continue
        obj = getattr(module, key[len(prefix):], None)
        if obj is not None and not getattr(obj, "__doc__", None):
            try:
                obj.__doc__ = text
            except (AttributeError, TypeError):
                pass
    import inspect
    for key, text in SECTIONS.items():
        if not key.startswith(prefix) or "." in key[len(prefix):]:
            continue
        obj = getattr(module, key[len(prefix):], None)
        doc = getattr(obj, "__doc__", None)
        if doc and "\\nParameters\\n" not in "\\n" + inspect.cleandoc(doc):
            obj.__doc__ = inspect.cleandoc(doc) + "\\n\\n" + text
'''
    return head + body + tail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    # The texts must come from the sources, not from a previous output.
    os.environ["CUNUMPY_NO_GENERATED_DOCS"] = "1"
    docs, sections, problems, left = generate()
    for p in problems:
        print("gen_docstrings.py:", p, file=sys.stderr)
    text = render(docs, sections)
    if args.check:
        old = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        m = re.search(r"^VERSIONS = (.*?)\n\n", old, re.S | re.M)
        if m and ast.literal_eval(m.group(1)) != versions():
            print("gen_docstrings.py: generated with", m.group(1).strip(),
                  "but", versions(), "is installed: not compared")
            return SKIP
        if old != text or problems:
            print("gen_docstrings.py: bindings/python/cunumpy/_docstrings.py "
                  "is stale or incomplete: run PYTHONPATH=build/python "
                  "python3 tools/gen_docstrings.py", file=sys.stderr)
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"gen_docstrings.py: {len(docs)} docstrings, sections for "
          f"{len(sections)} one-paragraph docstrings ({left} left as they "
          f"are: no parameters and no counterpart) -> {OUT}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
