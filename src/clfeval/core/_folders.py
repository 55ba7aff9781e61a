"""The one place every door gets its folder from (private).

A spec of one 0/1 column per label folds into multilabel states; a spec with grouping
columns (``by=``) into a state per slice as well as the overall one; any other into the
plain :class:`~clfeval.core.fold.Folder`.
"""

from __future__ import annotations

from typing import Any

from .fold import Folder

__all__ = ["make_folder", "read_at_end"]


def make_folder(spec: Any) -> Any:
    """The folder for ``spec`` (see the module docstring)."""
    from .multilabel_fold import MultilabelFolder, MultilabelSpec
    from .sliced import SlicedFolder

    if isinstance(spec, MultilabelSpec):
        return MultilabelFolder(spec)
    return SlicedFolder(spec) if spec.columns.by else Folder(spec)


def read_at_end(folder: Any) -> None:
    """Tell a door's folder that its state is read only through ``partial()``, after the
    last chunk (the file and frame doors): a plain :class:`~clfeval.core.fold.Folder`
    then adds its bit bins in place (one state at the end) and folds each chunk's
    binary calibration beside the next chunks, the batches added in order (the same
    state bit for bit). Other folders are left as they are."""
    if type(folder) is Folder:
        folder.defer_scores = True
        folder.pipeline = True
