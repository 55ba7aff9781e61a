"""The readers' arrow → numpy conversion without pyarrow's ``to_numpy`` (which imports
pandas): the same arrays as ``to_numpy`` and ``pc.fill_null(arr, 0)`` give, for every
numeric and boolean type, sliced arrays (offsets) and nulls."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from clfeval.io.readers import _numpy_of

_BOOLS = [True, False, True, True, False, True, False, False, True, True, False]
CASES = [
    pa.array([1, 2, None, 4], pa.int64()),
    pa.array([1.5, None, 2.5]),
    pa.array([3, 4, 5], pa.int32()).slice(1),
    pa.array(list(range(20)), pa.uint16()).slice(3, 9),
    pa.array([-1, None, 7], pa.int8()).slice(1),
    pa.array([1.0, 2.0], pa.float32()),
    pa.array([], pa.float64()),
    pa.array(_BOOLS),
    pa.array(_BOOLS).slice(3, 6),
    pa.array([True, False, None, True]).is_null(),
    pa.array(["a", None]),  # (not numeric: pyarrow's own conversion)
]


@pytest.mark.parametrize("arr", CASES, ids=lambda a: f"{a.type}-{len(a)}-{a.null_count}")
def test_numpy_of_is_pyarrows_to_numpy(arr: pa.Array) -> None:
    filled = pc.fill_null(arr, 0 if not pa.types.is_string(arr.type) else "") \
        if arr.null_count else arr
    ref = filled.to_numpy(zero_copy_only=False)
    got = _numpy_of(arr, fill_null=not pa.types.is_string(arr.type))
    if pa.types.is_string(arr.type):
        ref = arr.to_numpy(zero_copy_only=False)
        got = _numpy_of(arr)
    assert got.dtype == ref.dtype
    assert np.array_equal(got, ref) if got.dtype != object else list(got) == list(ref)
    if not arr.null_count:
        plain = _numpy_of(arr)
        assert plain.dtype == ref.dtype and np.array_equal(plain, ref)


def test_a_one_chunk_column_is_read_in_place(tmp_path: object) -> None:
    """A slice of a row group read at once is a view of one chunk: the reader reads its
    values where they are (``combine_chunks`` copied every chunk of every file), and
    joins several chunks into one array with the same values."""
    from clfeval.io.readers import _one_array

    whole = pa.chunked_array([pa.array(np.arange(1000.0))]).slice(100, 300)
    one = _one_array(whole)
    assert one.offset == 100 and len(one) == 300
    got = _numpy_of(one)
    assert np.shares_memory(got, _numpy_of(whole.chunk(0)))
    assert np.array_equal(got, np.arange(100.0, 400.0))
    parts = pa.chunked_array([pa.array([1.0, 2.0]), pa.array([3.0]), pa.array([], pa.float64())])
    assert np.array_equal(_numpy_of(_one_array(parts)), [1.0, 2.0, 3.0])
    assert len(_one_array(pa.chunked_array([], pa.float64()))) == 0
