"""The bit-bin key computed in SQL equals :meth:`clfeval.Binning.keys` bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from clfeval import Binning
from clfeval.engines.sql import (
    DUCKDB,
    POSTGRESQL,
    Dialect,
    Params,
    bit_floor_stages,
    bit_key_stages,
    pipeline,
)

from .conftest import pg_load

BITS = (1, 2, 8, 12, 24, 40, 52, 53, 63)


def _values() -> np.ndarray:
    """Edge values (zeros, subnormals, the normal boundary, powers of two and their
    neighbours, the largest floats) and log-uniform values of both signs."""
    rng = np.random.default_rng(5)
    edge = [0.0, -0.0, 5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
            np.nextafter(2.2250738585072014e-308, 1.0), 1.0, np.nextafter(1.0, 0.0),
            np.nextafter(1.0, 2.0), 0.5, 0.1, 1.7976931348623157e308, 8.98846567431158e307,
            np.nextafter(8.98846567431158e307, 0.0), 1e300, 1e-300, 3.0, 1e-10]
    for e in range(-1074, 1024, 7):
        p = float(np.ldexp(1.0, e))
        edge += [p, float(np.nextafter(p, 0.0)), float(np.nextafter(p, np.inf))]
    mag = 10.0 ** rng.uniform(-320, 308, 3000)
    rand = np.concatenate([mag, -mag, rng.random(2000), -rng.random(500)])
    v = np.concatenate([np.array(edge, dtype=np.float64), -np.array(edge), rand])
    return v[np.isfinite(v)]


VALUES = _values()


#: binade windows of the comparison tree (the rest of the values take the general path)
WINDOWS = (None, (-1022, -959), (960, 1023), (-5, 3), (-1074, 1023), (0, 0), (3, -3))


def _keys(run: Any, d: Dialect, bits: int, window: tuple[int, int] | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    head, last = pipeline("SELECT i, x AS xv FROM vals",
                          bit_key_stages(d, "xv", bits, "kb", window))
    rows = run(f"{head} SELECT i, kb FROM {last} ORDER BY i")
    i = np.array([r[0] for r in rows])
    return i, np.array([r[1] for r in rows], dtype=np.int64)


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("bits", BITS)
def test_duckdb_bit_keys_equal_python(bits: int, window: tuple[int, int] | None) -> None:
    duckdb = pytest.importorskip("duckdb")
    import pyarrow as pa

    con = duckdb.connect()
    vals = pa.table({"i": np.arange(VALUES.size), "x": VALUES})
    con.register("vals", vals)
    i, got = _keys(lambda q: con.execute(q).fetchall(), DUCKDB, bits, window)
    want = Binning.from_bits(bits).keys(VALUES[i]).astype(np.int64)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(VALUES[i][j], got[j], want[j]) for j in bad[:5]]


def test_postgresql_bit_keys_equal_python(pg: Any) -> None:
    pg_load(pg, "vals", {"i": np.arange(VALUES.size), "x": VALUES},
            {"i": "bigint", "x": "double precision"})

    def run(q: str) -> list[Any]:
        with pg.cursor() as cur:
            cur.execute(q)
            return cur.fetchall()

    for bits, window in [(b, None) for b in BITS] + [(b, w) for b in (12, 24, 63)
                                                     for w in WINDOWS[1:]]:
        i, got = _keys(run, POSTGRESQL, bits, window)
        want = Binning.from_bits(bits).keys(VALUES[i]).astype(np.int64)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (bits, window, [(VALUES[i][j], got[j], want[j]) for j in bad[:5]])


FLOOR_BITS = (12, 13, 24, 40, 52, 53, 63)


def _floors(run: Any, d: Dialect, bits: int, nonneg: bool) -> tuple[np.ndarray, np.ndarray]:
    head, last = pipeline("SELECT i, x AS xv FROM vals",
                          bit_floor_stages(d, "xv", bits, "kv", nonneg=nonneg))
    rows = run(f"{head} SELECT i, kv FROM {last} ORDER BY i")
    return np.array([r[0] for r in rows]), np.array([r[1] for r in rows], dtype=np.float64)


def _floor_cases(run: Any, d: Dialect, load: Any) -> None:
    """Each value's float from the splitting is in its bin (signed values; with
    ``nonneg`` the magnitudes), for every number of bits the floats serve."""
    for nonneg in (False, True):
        vals = np.abs(VALUES) if nonneg else VALUES
        load(vals)
        for bits in FLOOR_BITS:
            i, v = _floors(run, d, bits, nonneg)
            b = Binning.from_bits(bits)
            got, want = b.keys(v), b.keys(vals[i])
            bad = np.flatnonzero(got != want)
            assert bad.size == 0, (bits, nonneg, [(vals[i][j], v[j]) for j in bad[:5]])


def test_duckdb_bit_floors_are_in_each_values_bin() -> None:
    duckdb = pytest.importorskip("duckdb")
    import pyarrow as pa

    con = duckdb.connect()

    def load(vals: np.ndarray) -> None:
        con.register("vals", pa.table({"i": np.arange(vals.size), "x": vals}))

    _floor_cases(lambda q: con.execute(q).fetchall(), DUCKDB, load)


def test_postgresql_bit_floors_are_in_each_values_bin(pg: Any) -> None:
    def run(q: str) -> list[Any]:
        with pg.cursor() as cur:
            cur.execute(q)
            return cur.fetchall()

    def load(vals: np.ndarray) -> None:
        pg_load(pg, "vals", {"i": np.arange(vals.size), "x": vals},
                {"i": "bigint", "x": "double precision"})

    _floor_cases(run, POSTGRESQL, load)


def test_identifiers_are_quoted_and_control_characters_refused() -> None:
    assert DUCKDB.quote('a"; DROP TABLE x; --') == '"a""; DROP TABLE x; --"'
    assert DUCKDB.qualified("main.preds") == '"main"."preds"'
    from clfeval import InvalidParameterError

    for bad in ("a\x00b", "line\nbreak", ""):
        with pytest.raises(InvalidParameterError, match="name"):
            DUCKDB.quote(bad)
    p = Params("pyformat")
    assert p.add(0.5) == "%(p0)s" and p.bound() == {"p0": 0.5}


def test_binade_window_covers_the_values() -> None:
    from clfeval.engines.sql import binade_window

    assert binade_window(0.25, 0.75) == (-2, -1)
    assert binade_window(-3.0, 0.5) == (-62, 1)          # through zero: 64 binades down
    assert binade_window(1e-300, 1.0) == (-63, 0)        # at most 64 binades
    assert binade_window(0.0, 0.0) is None and binade_window(1.0, 0.0) is None
