"""``.. cunumpy-py-api:: module`` lists a public module of the package: an
autosummary table of its public callables (the module's __all__, or its
public names) and each one's autodoc entry, so no list is kept by hand."""

import importlib
import inspect

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def public_callables(modname):
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod)
                                              if not n.startswith("_")]
    out = []
    for n in sorted(set(names)):
        if n.startswith("_") and n != "__array_namespace_info__":
            continue
        obj = getattr(mod, n, None)
        owner = getattr(obj, "__module__", None) or type(obj).__module__
        if obj is None or not callable(obj) or not owner.startswith("cunumpy"):
            continue
        kind = "class" if inspect.isclass(obj) else \
            "function" if inspect.isfunction(obj) else "ufunc"
        out.append((n, kind))
    return out


class PyApiDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        modname = self.arguments[0]
        items = public_callables(modname)
        lines = [f".. currentmodule:: {modname}", "", ".. autosummary::", ""]
        lines += [f"   {n}" for n, k in items if k != "ufunc"] + [""]
        # autosummary cannot introspect ufunc objects (Sphinx 9); their
        # table is made here from the same docstrings.
        ufuncs = [n for n, k in items if k == "ufunc"]
        if ufuncs:
            mod = importlib.import_module(modname)
            lines += [".. list-table:: ufuncs", "   :widths: 20 80", ""]
            for n in ufuncs:
                doc = (getattr(mod, n).__doc__ or "").strip().split("\n\n")
                summary = doc[1] if len(doc) > 1 else doc[0]
                lines += [f"   * - :func:`{n}`",
                          "     - " + " ".join(summary.split())]
            lines.append("")
        for n, kind in items:
            kind = "function" if kind == "ufunc" else kind
            lines += [f".. auto{kind}:: {modname}.{n}", ""]
        node = nodes.section()
        nested_parse_with_titles(self.state, StringList(lines, modname), node)
        return node.children


def setup(app):
    app.add_directive("cunumpy-py-api", PyApiDirective)
    return {"parallel_read_safe": True, "version": "1"}
