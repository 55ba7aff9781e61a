"""Sphinx configuration for clfeval's documentation.

Builds offline from a fresh clone: no intersphinx inventories are fetched, no theme or
script is loaded from a CDN (the bundled ``alabaster`` theme; no page uses math, so
MathJax is never linked), and the gallery's examples run on data shipped with
scikit-learn. Build it with one command (CONTRIBUTING.md)::

    python3 -m venv .venv && .venv/bin/pip install -q -e '.[docs]' \\
        && .venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
# the source tree first, so that a checkout documents itself even next to an older install
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

import clfeval  # noqa: E402

project = "clfeval"
author = "clfeval developers"
copyright = "2026, clfeval developers"
release = clfeval.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "clfeval_docs",  # docs/_ext: the report's JSON structure, built from a real report
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "examples/README.rst", "**/GALLERY_HEADER.rst",
                    "sg_execution_times.rst"]
root_doc = "index"
language = "en"

# --- API reference: autosummary pages generated from the docstrings (numpydoc style) ---
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's Parameters sections already give the types
autodoc_inherit_docstrings = True
numpydoc_show_class_members = False  # the class template lists members itself
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# --- the gallery: every example runs at build time and draws its figures ---
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "download_all_examples": False,
    "show_memory": False,
    "remove_config_comments": True,
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "reference_url": {},  # no remote inventories
    "backreferences_dir": None,
    "write_computation_times": False,
    "plot_gallery": "True",
}

# --- HTML: the bundled theme, nothing fetched ---
html_theme = "alabaster"
html_static_path = ["_static"]
html_title = f"clfeval {release}"
html_theme_options = {
    "description": "How good is your classifier, really?",
    "fixed_sidebar": True,
    "show_powered_by": False,
    "font_family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "head_font_family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "code_font_family": "ui-monospace, 'DejaVu Sans Mono', monospace",
    "page_width": "1240px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False

# matplotlib draws without a display; gallery examples must not warn
os.environ.setdefault("MPLBACKEND", "Agg")
warnings.filterwarnings("error", category=DeprecationWarning, module="clfeval")
