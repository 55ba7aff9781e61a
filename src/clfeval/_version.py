"""The package version (a leaf, so any module can read it without importing the package)."""

__version__ = "0.3.0"
