"""Every public callable of cunumpy and its public submodules has a
docstring, with a numpydoc Parameters section where it takes parameters;
the generated ones are numpydoc texts whose Parameters match the signature;
ufuncs have inspect signatures."""

import importlib
import inspect
import re

import pytest

import cunumpy as xp
from cunumpy import _docstrings

MODULES = ["cunumpy", "cunumpy.linalg", "cunumpy.fft", "cunumpy.random",
           "cunumpy.special", "cunumpy.signal", "cunumpy.signal.windows",
           "cunumpy.sparse", "cunumpy.sparse.linalg", "cunumpy.cuda",
           "cunumpy.testing", "cunumpy.profiler", "cunumpy.exceptions"]


def _public_callables(modname):
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod)
                                              if not n.startswith("_")]
    for n in names:
        obj = getattr(mod, n, None)
        owner = getattr(obj, "__module__", None) or type(obj).__module__
        if obj is not None and callable(obj) and owner.startswith("cunumpy"):
            yield f"{modname}.{n}", obj


def _all_public():
    mods = list(MODULES)
    try:
        importlib.import_module("cunumpy.dask")
        mods.append("cunumpy.dask")
    except ImportError:
        pass
    return [item for m in mods for item in _public_callables(m)]


def test_every_public_callable_has_a_docstring():
    items = _all_public()
    assert len(items) > 600
    missing = [name for name, obj in items
               if not (obj.__doc__ or "").strip()]
    assert not missing, f"{len(missing)} without a docstring: {missing}"


def _lacks_parameters(obj):
    """Whether obj is a function with parameters whose text has no
    numpydoc Parameters section."""
    if not inspect.isfunction(obj):
        return False
    try:
        if not inspect.signature(obj).parameters:
            return False
    except (TypeError, ValueError):
        return False
    text = "\n" + inspect.cleandoc(obj.__doc__ or "") + "\n"
    return "\nParameters\n----------\n" not in text


def test_every_public_function_with_parameters_documents_them():
    items = _all_public()
    checked = [n for n, o in items if inspect.isfunction(o)]
    assert len(checked) > 500
    missing = sorted({n for n, o in items if _lacks_parameters(o)})
    assert not missing, f"{len(missing)} without Parameters: {missing}"


def test_the_parameters_check_catches_a_missing_section():
    def one_line(a, axis=None):
        """Does a thing along axis."""
        return a
    assert _lacks_parameters(one_line)
    one_line.__doc__ += "\n\nParameters\n----------\na : array_like\n"
    assert not _lacks_parameters(one_line)


def test_the_check_catches_a_missing_docstring(monkeypatch):
    def undocumented(a):
        return a
    undocumented.__module__ = "cunumpy.linalg"
    monkeypatch.setattr(xp.linalg, "undocumented", undocumented,
                        raising=False)
    monkeypatch.setattr(xp.linalg, "__all__",
                        list(getattr(xp.linalg, "__all__", [])) +
                        ["undocumented"], raising=False)
    names = [n for n, o in _public_callables("cunumpy.linalg")
             if not (o.__doc__ or "").strip()]
    assert names == ["cunumpy.linalg.undocumented"]


def _generated():
    out = []
    for table in (_docstrings.DOCS, _docstrings.SECTIONS):
        for key, text in table.items():
            modname, _, name = key.rpartition(".")
            obj = getattr(importlib.import_module(modname), name)
            out.append((key, obj, text))
    return out


@pytest.mark.parametrize("key,obj,text", _generated(),
                         ids=[k for k, _, _ in _generated()])
def test_generated_docstring_is_numpydoc_matching_the_signature(key, obj,
                                                                text):
    docscrape = pytest.importorskip("numpydoc.docscrape")
    assert obj.__doc__ == text or obj.__doc__.endswith("\n\n" + text)
    doc = docscrape.FunctionDoc(obj) if not isinstance(obj, type) else \
        docscrape.ClassDoc(obj, config={"show_class_members": False})
    assert doc["Summary"], key
    if isinstance(obj, type):
        return
    documented = [n.strip().lstrip("*\\") for p in doc["Parameters"]
                  for n in p.name.split(",")]
    params = [p.name for p in inspect.signature(obj).parameters.values()]
    assert documented == params, key


def test_thin_wrappers_carry_the_c_header_comment():
    # linalg.solve calls cn_linalg_solve only: its text is linalg.h's.
    import sys
    sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/tools")
    import header_comments
    comment = header_comments.functions()["cn_linalg_solve"][2]
    first = " ".join(comment.split()[:6])
    assert "cn_linalg_solve" in xp.linalg.solve.__doc__
    assert first in " ".join(xp.linalg.solve.__doc__.split())
    assert "LinAlgError" in xp.linalg.solve.__doc__


def test_differences_from_numpy_are_stated():
    # random.normal takes dtype=, which numpy's Generator.normal does not.
    assert "Also takes ``dtype``" in xp.random.normal.__doc__
    assert re.search(r"0-d array where NumPy returns a scalar",
                     xp.sum.__doc__)


@pytest.mark.parametrize("name", ["add", "sin", "arctan2", "clip", "where"])
def test_signatures(name):
    f = getattr(xp, name)
    sig = inspect.signature(f)
    if isinstance(f, xp.ufunc):
        inputs = [p.name for p in sig.parameters.values()
                  if p.kind is p.POSITIONAL_ONLY]
        assert len(inputs) == f.nin
        assert "out" in sig.parameters and "where" in sig.parameters
        assert f.__text_signature__.startswith("(" + inputs[0])
        assert str(sig) == f.__text_signature__
        # the signature describes calls that work
        args = [xp.ones(3)] * f.nin
        out = xp.empty(3)
        r = f(*args, out=out, where=xp.asarray([True, False, True]))
        assert r is out or r.shape == (3,)
    else:
        assert sig.parameters


def test_every_ufunc_has_a_signature_and_numpydoc():
    for name, u in xp.UFUNCS.items():
        sig = inspect.signature(u)
        assert len([p for p in sig.parameters.values()
                    if p.kind is p.POSITIONAL_ONLY]) == u.nin, name
        assert "\nParameters\n----------\n" in u.__doc__, name
