"""Reading prediction files: column detection and chunked readers.

Readers yield bounded chunks (:func:`iter_chunks`) so files larger than memory can be
evaluated; every error is a :class:`~clfeval.FileFormatError` naming file, row and column.
"""

from __future__ import annotations

from .columns import ColumnMap, detect_columns
from .readers import (
    FORMATS,
    Chunk,
    Column,
    column_names,
    detect_format,
    iter_chunks,
    read_columns,
)

__all__ = [
    "FORMATS",
    "Chunk",
    "Column",
    "ColumnMap",
    "column_names",
    "detect_columns",
    "detect_format",
    "iter_chunks",
    "read_columns",
]
