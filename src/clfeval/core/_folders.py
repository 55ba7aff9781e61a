"""The one place every door gets its folder from (private).

A spec of one 0/1 column per label folds into multilabel states; a spec with grouping
columns (``by=``) into a state per slice as well as the overall one; any other into the
plain :class:`~clfeval.core.fold.Folder`.
"""

from __future__ import annotations

from typing import Any

from .fold import Folder

__all__ = ["make_folder"]


def make_folder(spec: Any) -> Any:
    """The folder for ``spec`` (see the module docstring)."""
    from .multilabel_fold import MultilabelFolder, MultilabelSpec
    from .sliced import SlicedFolder

    if isinstance(spec, MultilabelSpec):
        return MultilabelFolder(spec)
    return SlicedFolder(spec) if spec.columns.by else Folder(spec)
