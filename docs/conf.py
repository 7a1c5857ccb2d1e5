"""Sphinx configuration of segagree's documentation (built offline: ``make docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent / "src"))

project = "segagree"
author = "the segagree developers"
copyright = "2026, the segagree developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax copied into the site, so formulas render offline
    "segagree_docs",  # the metric cards and the API reference, generated from the code
    "segagree_links",  # every link between the pages, and every anchor, checked offline
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# _generated/notes.md is a fragment that differences.md includes, not a page of its own
exclude_patterns = ["_build", "_generated/README.md", "_generated/notes.md"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath"]
# Options are shown as typed: no "--metric" turned into an en dash, no quotes curled, so that a
# command copied from a page runs.
smartquotes = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"undoc-members": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
nitpicky = False

html_theme = "furo"
html_title = "segagree"
html_static_path: list[str] = []
