"""Sphinx configuration of the cunumpy documentation.

Built by ctest docs_build (sphinx-build -W: warnings are errors). The
Python reference is read from the built package (PYTHONPATH=build/python);
the C reference from the comments of include/cunumpy/*.h through
tools/header_comments.py, the same text the Python docstrings of thin
wrappers are generated from."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

project = "cunumpy"
author = "the cunumpy authors"
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_parser",
    "cunumpy_c_api",
    "cunumpy_py_api",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "architecture.md"]
myst_heading_anchors = 3
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
autodoc_default_options = {"members": False}
html_theme = "alabaster"
html_static_path = []
suppress_warnings = ["myst.header"]
