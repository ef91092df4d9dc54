#!/usr/bin/env python3
"""Generates the type stubs (.pyi) of cunumpy's public modules from the
built package, so editors and type checkers see every public name with its
call signature.

    PYTHONPATH=build/python python3 tools/gen_stubs.py          # rewrite
    PYTHONPATH=build/python python3 tools/gen_stubs.py --check  # stale?

The stubs give signatures, not types: parameters are unannotated (Any) and
results are Any, except ufuncs (``ufunc``) and classes. Each stub ends with
a module ``__getattr__`` so that names reached through NumPy dispatch are
not reported as missing. Written next to the sources in
bindings/python/cunumpy (shipped with the package, with py.typed).
"""

import argparse
import importlib
import inspect
import os
import sys
import types

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
]


def public_names(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return sorted(set(names))


def render_signature(obj, method=False):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(self, *args, **kwargs)" if method else "(*args, **kwargs)"
    parts, seen_kwonly, posonly_done = [], False, True
    params = list(sig.parameters.values())
    for i, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            parts.append("*" + p.name)
            seen_kwonly = True
        elif p.kind is p.VAR_KEYWORD:
            parts.append("**" + p.name)
        else:
            if p.kind is p.KEYWORD_ONLY and not seen_kwonly:
                parts.append("*")
                seen_kwonly = True
            parts.append(p.name if p.default is p.empty else p.name + "=...")
        if p.kind is p.POSITIONAL_ONLY:
            posonly_done = False
            nxt = params[i + 1] if i + 1 < len(params) else None
            if nxt is None or nxt.kind is not p.POSITIONAL_ONLY:
                parts.append("/")
                posonly_done = True
    del posonly_done
    if method and not (params and params[0].name in ("self", "cls")):
        parts.insert(0, "self")
    return "(" + ", ".join(parts) + ")"


def is_ufunc(obj):
    cls = type(obj)
    return cls.__name__ == "ufunc" and cls.__module__.startswith("cunumpy")


def render_class(name, cls, qual):
    import builtins
    bases = [b.__name__ for b in cls.__bases__
             if b is not object and getattr(builtins, b.__name__, None) is b]
    head = f"class {name}({', '.join(bases)}):" if bases else f"class {name}:"
    lines = [head if cls.__name__ == name else None]
    if lines[0] is None:  # an alias of a class defined elsewhere
        return [f"{name} = {qual}"]
    body = []
    for attr, val in sorted(vars(cls).items()):
        if attr.startswith("_") and attr not in ("__init__", "__call__"):
            continue
        if isinstance(val, (staticmethod, classmethod)):
            deco = "@staticmethod" if isinstance(val, staticmethod) \
                else "@classmethod"
            body += [f"    {deco}",
                     f"    def {attr}{render_signature(val.__func__)}"
                     " -> Any: ..."]
        elif inspect.isfunction(val):
            body.append(f"    def {attr}{render_signature(val, True)}"
                        " -> Any: ...")
        elif isinstance(val, property):
            body.append(f"    {attr}: Any")
    # Methods and attributes from a C base of the package (SWIG -builtin).
    for base in cls.__mro__[1:]:
        if not (base.__module__ or "").startswith("cunumpy"):
            continue
        for attr, val in sorted(vars(base).items()):
            if attr.startswith("_") or attr in vars(cls) or any(
                    attr in vars(b) for b in cls.__mro__[1:cls.__mro__.index(
                        base)]):
                continue
            if inspect.ismethoddescriptor(val) or inspect.isbuiltin(val):
                body.append(f"    def {attr}(self, *args, **kwargs) -> Any: ...")
            elif inspect.isdatadescriptor(val):
                body.append(f"    {attr}: Any")
    # Protocols the class gets from a C base (SWIG), which vars() misses.
    for attr in sorted(PROTOCOL):
        if attr in vars(cls) and attr not in ("__init__", "__call__"):
            continue
        own = getattr(cls, attr, None)
        if own is None or own is getattr(object, attr, None) or \
                attr in vars(cls) and inspect.isfunction(vars(cls)[attr]):
            continue
        body.append(f"    def {attr}{PROTOCOL[attr]} -> Any: ...")
    body.append("    def __getattr__(self, name: str) -> Any: ...")
    return lines + body


_BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
           "matmul", "and", "or", "xor", "lshift", "rshift", "divmod"]
PROTOCOL = {f"__{p}{op}__": "(self, other)" for op in _BINARY
            for p in ("", "r", "i") if not (p == "i" and op == "divmod")}
PROTOCOL.update({f"__{op}__": "(self, other)"
                 for op in ("lt", "le", "gt", "ge")})
PROTOCOL.update({f"__{op}__": "(self)" for op in
                 ("neg", "pos", "abs", "invert", "len", "iter", "bool",
                  "float", "int", "complex", "index")})
PROTOCOL.update({"__getitem__": "(self, key)",
                 "__setitem__": "(self, key, value)",
                 "__call__": "(self, *args, **kwargs)"})


def _importable(cls):
    """Whether cls is reachable as its module's attribute of its name."""
    try:
        mod = importlib.import_module(cls.__module__)
    except ImportError:
        return False
    return cls.__module__ != "builtins" and \
        getattr(mod, cls.__name__, None) is cls


def stub(modname):
    mod = importlib.import_module(modname)
    out = [f'"""Type stub of {modname} (generated by tools/gen_stubs.py; '
           'do not edit)."""', "", "from typing import Any", ""]
    if modname != "cunumpy":
        out += ["from cunumpy._ufunc import ufunc", ""]
    defs, classes = [], []
    for n in public_names(mod):
        obj = getattr(mod, n, None)
        if isinstance(obj, types.ModuleType):
            if obj.__name__.startswith("cunumpy."):
                parent, _, leaf = obj.__name__.rpartition(".")
                if parent == modname:
                    defs.append(f"from . import {leaf} as {n}")
                else:
                    defs.append(f"import {obj.__name__} as {n}")
            else:
                defs.append(f"{n}: Any")
        elif is_ufunc(obj):
            defs.append(f"{n}: ufunc")
        elif inspect.isclass(obj) and (obj.__module__ or "").startswith(
                "cunumpy"):
            if obj.__name__ != n or obj.__module__ != modname and \
                    n in [c for c, _ in classes]:
                defs.append(f"{n}: Any")
            else:
                classes.append((n, obj))
        elif inspect.isclass(obj) and _importable(obj):
            defs.append(f"from {obj.__module__} import {obj.__name__} as {n}")
        elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
            defs.append(f"def {n}{render_signature(obj)} -> Any: ...")
        else:
            defs.append(f"{n}: Any")
    for n, cls in classes:
        out += render_class(n, cls, n) + [""]
    if modname == "cunumpy":
        # ufunc is a class of this module: its stub comes first.
        pass
    out += defs
    out += ["", "def __getattr__(name: str) -> Any: ...", ""]
    return "\n".join(out)


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
