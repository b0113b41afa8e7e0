"""Sphinx configuration of the mscsp documentation.

Build with ``sphinx-build -W --keep-going -b html docs docs/_build`` from the
repository root: warnings are errors, so a broken reference, a malformed docstring
or a figure that is missing fails the build (``tests/test_docs.py`` runs it).
"""

import os
import sys
from importlib.metadata import PackageNotFoundError, version

HERE = os.path.dirname(os.path.abspath(__file__))
# the repository first, so autodoc documents the checkout being built, then our extension
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "_ext"))

project = "mscsp"
author = "mscsp developers"
copyright = "mscsp developers"
try:
    release = version("mscsp")
except PackageNotFoundError:  # a source tree that was never installed
    release = "0+unknown"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
    "mscsp_docs",
]

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_static_path: list[str] = []

# alabaster ships with Sphinx: no theme package to install, pin or keep working
html_theme = "alabaster"
html_theme_options = {
    "description": "Minesweeper as constraint satisfaction",
    "fixed_sidebar": True,
    "page_width": "1100px",
    "sidebar_width": "240px",
}
html_title = f"mscsp {release}"
html_last_updated_fmt = None
html_show_sourcelink = False

# autodoc: members in source order, the signature as written (no evaluated defaults);
# each name where it is defined, not again where a package re-exports it
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True, "ignore-module-all": True}
autodoc_typehints = "none"
autodoc_preserve_defaults = True

# numpydoc: no autosummary tables of class members (each would need a stub page)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False
