"""SQL push-down: the states are computed inside the database with ``GROUP BY``.

The rows stay where they are (a DuckDB file, a PostgreSQL server). Generated queries
count them per (reason a row is invalid, truth, prediction, slice, score key, side of
the threshold) and, with binned scores, sum the calibration terms per (truth,
prediction, slice, reliability bin, fine bin) — two small hash tables, cheaper than one
keyed by both — and only
those groups, kilobytes to a few MiB whatever the number of rows, reach Python, where
they become the very :class:`~clfeval.engines.EvalState` (or
:class:`~clfeval.engines.SlicedState`) the in-memory and file doors build:

* a first scan where the engine has a distinct-count sketch (DuckDB, Spark SQL, the
  warehouses; not PostgreSQL): one small aggregate over the valid rows — their number
  against the table's (none invalid: the queries that follow read the valid rows
  through a filter, with no reason per row), the scores' range (probabilities: no
  clamps; none negative: no sign in the bit keys) and the sketch;
* confusion counts, threshold tallies and excluded rows per reason: exact integers;
* the score state: exact — one entry per distinct score, grouped on the float64
  itself — while a column holds at most ``max_distinct`` distinct scores, else the
  float-bit bins of :meth:`~clfeval.Binning.from_bits` (24 bits, the conversion an
  exact state makes by itself): each row is grouped on a float of its bin found with
  exact float arithmetic (Veltkamp's splitting gives the binade, a ``FLOOR`` after a
  division by its power of two truncates: :func:`bit_floor_stages`), whose key Python
  takes with :meth:`Binning.keys` — bit for bit the in-memory keys (below 12 bits, the
  integer keys by comparisons with powers of two: :func:`bit_key_stages`);
  ``bins=<bits>`` asks for the bins directly. Which
  one is decided by the engine's distinct-count sketch far from the budget (a factor
  of 1.5) and an exact ``COUNT(DISTINCT)`` near
  it; on PostgreSQL by a first pass in bins (the exact table when no bin holds two
  scores) and, when needed, the exact count. An exact table that still outgrows the
  budget converts itself;
* the calibration state (when every score is a probability): with exact scores it is
  derived in Python from the groups (each holds one score: numpy finds its bins as the
  in-memory fold does; its terms times the group's count or weight), so an exact plan
  is one query; with bit bins a second query sums the terms per (truth, prediction,
  slice, reliability bin, fine bin), the bins guessed by arithmetic, checked per group
  against thresholds derived from numpy's own arithmetic and recomputed by comparisons
  where a guess was off. Its float sums are added by the database (or per group in
  Python), so they agree with the in-memory state to rounding (as any sharded fold);
  two logarithms per row, ``log q`` and ``log(1 - q)``, give both outcomes' log losses
  and the logit sum (their difference): :func:`_calibration_sql`.

The query text is generated from a few dialect parts (:class:`Dialect`: identifier
quoting, parameter markers, NaN/infinity tests, shifts, array access, type names):
DuckDB and PostgreSQL (run by this door), Spark SQL (run by the Spark door's
``engine="sql"`` over a temporary view, :func:`fold_spark`), and BigQuery, Snowflake
and Trino written to their documented dialects (the generated text is tested by running
it in DuckDB through a thin translation of those spellings; this door does not connect
to those engines yet). Every value from the caller is a query
parameter; every table or column name is a quoted identifier (names holding a NUL or
another control character are refused); a user query is only ever wrapped as a subquery.

Labels, their kinds and the declared label set are checked in Python on the groups
(each distinct truth/prediction value is looked at once), so every door resolves labels
with the same code.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.fold import (
    EXACT,
    LabelSpace,
    Partial,
    Spec,
    _binary_pos_label_value,
    _kind,
    _with_table,
    bit_bins,
    continuous_message,
    continuous_prediction,
)
from ..core.scores import DEFAULT_CONVERT_BITS, DEFAULT_MAX_DISTINCT
from ..core.sliced import (
    DEFAULT_MAX_SLICES,
    SlicedPartial,
    SlicedState,
    key_order,
    too_many,
    tree_sum,
)
from ..core.state import REASONS, EvalState
from ..exceptions import InvalidInputError, InvalidParameterError, MissingDependencyError
from ..io.readers import DISTINCT_LABELS_LIMIT
from ._frames import make_spec

__all__ = ["Dialect", "SqlSource", "bit_key_stages", "connect", "fold", "is_sqlite_file",
           "mask_password"]

_REASON_ORDER = tuple(REASONS)
_R_MISSING_LABEL = _REASON_ORDER.index("missing_label")
_R_UNKNOWN_LABEL = _REASON_ORDER.index("unknown_label")
_R_MISSING_SCORE = _REASON_ORDER.index("missing_score")
_R_NONFINITE_SCORE = _REASON_ORDER.index("nonfinite_score")
_R_MISSING_WEIGHT = _REASON_ORDER.index("missing_weight")
_R_BAD_WEIGHT = _REASON_ORDER.index("bad_weight")
_FETCH_ROWS = 1 << 16


# --------------------------------------------------------------------- dialects
@dataclass(frozen=True)
class Dialect:
    """The few places where SQL engines differ.

    Attributes
    ----------
    name : str
        ``"duckdb"``, ``"postgresql"``, ``"spark"``, ``"bigquery"``, ``"snowflake"`` or
        ``"trino"``.
    paramstyle : {"numeric", "pyformat", "named", "qmark", "at"}
        The engine's own parameter markers: ``$1`` (DuckDB), ``%(p0)s`` (psycopg and
        the BigQuery and Snowflake DB-API drivers), ``:p0`` (Spark SQL), ``?``
        (Trino), ``@p0`` (BigQuery's client); a DB-API connection's driver may ask for
        another (its module's ``paramstyle``).
    quote_char : str
        The identifier quote (``"``, standard SQL; a backtick in Spark SQL and BigQuery).
    double : str
        The float64 type name.
    """

    name: str
    paramstyle: str
    quote_char: str = '"'
    double: str = "DOUBLE"
    #: the 64-bit integer type name
    bigint: str = "BIGINT"
    #: the engine's approximate distinct count (a sketch), if it has one
    approx_distinct: str = ""

    def quote(self, name: str) -> str:
        """``name`` as a quoted identifier (the quote character doubled inside).

        Examples
        --------
        >>> DUCKDB.quote('my "odd" col')
        '"my ""odd"" col"'
        >>> SPARK.quote("odd`name")
        '`odd``name`'
        """
        if not isinstance(name, str) or not name:
            raise InvalidParameterError(f"a column or table name must be a non-empty str, "
                                        f"got {name!r}")
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            raise InvalidParameterError(
                f"the name {name!r} holds a control character (NUL, newline …); refused")
        q = self.quote_char
        if self.name == "bigquery" and ("`" in name or "\\" in name):
            # BigQuery escapes inside quoted identifiers with a backslash (no doubling)
            raise InvalidParameterError(
                f"the name {name!r} holds a backtick or backslash; BigQuery cannot quote it")
        return q + name.replace(q, q + q) + q

    def quote_string(self, text: str) -> str:
        """A string literal of a setting clfeval chooses (a temporary path)."""
        self.quote(text)  # (no control characters)
        return "'" + text.replace("'", "''") + "'"

    def qualified(self, name: str) -> str:
        """A table name, ``schema.table`` split on dots (each part quoted)."""
        return ".".join(self.quote(part) for part in name.split("."))

    def cast_double(self, e: str) -> str:
        return f"CAST({e} AS {self.double})"

    def lit(self, v: float) -> str:
        """A finite float constant of the generated SQL (never a caller's value)."""
        assert math.isfinite(v)
        return f"CAST({float(v)!r} AS {self.double})"

    def special(self, v: float) -> str:
        """A float constant that may be infinite (clfeval's, never a caller's)."""
        if math.isfinite(v):
            return self.lit(v)
        text = {"postgresql": ("Infinity", "-Infinity"), "snowflake": ("inf", "-inf"),
                "bigquery": ("inf", "-inf"), "trino": ("Infinity", "-Infinity"),
                }.get(self.name, ("Infinity", "-Infinity"))[v < 0]
        return f"CAST('{text}' AS {self.double})"

    def nonfinite(self, e: str) -> str:
        """Whether the float ``e`` is NaN or infinite."""
        if self.name in ("postgresql", "snowflake"):  # NaN = NaN is true there
            return (f"({e} = CAST('NaN' AS {self.double}) OR {e} = {self.special(math.inf)} "
                    f"OR {e} = {self.special(-math.inf)})")
        if self.name == "spark":
            return (f"(isnan({e}) OR {e} = {self.special(math.inf)} OR "
                    f"{e} = {self.special(-math.inf)})")
        if self.name == "bigquery":
            return f"(IS_NAN({e}) OR IS_INF({e}))"
        if self.name == "trino":
            return f"(is_nan({e}) OR is_infinite({e}))"
        return f"(isnan({e}) OR isinf({e}))"

    def shift_right(self, e: str, n: int) -> str:
        """``e >> n`` of a non-negative BIGINT."""
        if self.name == "spark":
            return f"shiftright({e}, {int(n)})"
        if self.name == "snowflake":
            return f"BITSHIFTRIGHT({e}, {int(n)})"
        if self.name == "trino":
            return f"bitwise_right_shift({e}, {int(n)})"
        return f"({e} >> {int(n)})"

    def element(self, array: str, index: str) -> str:
        """The ``index``-th (1-based) element of an array expression."""
        if self.name in ("spark", "trino"):
            return f"element_at({array}, {index})"
        if self.name == "bigquery":
            return f"({array})[ORDINAL({index})]"
        if self.name == "snowflake":
            return f"CAST(GET({array}, {index} - 1) AS {self.double})"
        return f"({array})[{index}]"

    def float_array(self, values: Sequence[float], params: Params) -> str:
        """An array of float64 constants (one array parameter, or clfeval's constants
        written out where arrays are not bound)."""
        if self.name == "snowflake":
            return "ARRAY_CONSTRUCT(" + ", ".join(self.special(v) for v in values) + ")"
        if self.name in ("spark", "bigquery", "trino"):
            head, tail = {"spark": ("array(", ")"), "bigquery": ("[", "]"),
                          "trino": ("ARRAY[", "]")}[self.name]
            return head + ", ".join(self.special(v) for v in values) + tail
        typ = "DOUBLE[]" if self.name == "duckdb" else "DOUBLE PRECISION[]"
        return f"CAST({params.add(list(values))} AS {typ})"

    def bool_int(self, e: str) -> str:
        """A condition as a BIGINT 0 or 1."""
        return f"CAST(CAST({e} AS INTEGER) AS {self.bigint})"


DUCKDB = Dialect("duckdb", "numeric", approx_distinct="approx_count_distinct")
POSTGRESQL = Dialect("postgresql", "pyformat", double="DOUBLE PRECISION")
#: Spark SQL (the Spark door's aggregation; ``spark.sql(text, args)``)
SPARK = Dialect("spark", "named", quote_char="`", approx_distinct="approx_count_distinct")
#: BigQuery's GoogleSQL (FLOAT64, INT64; backtick identifiers)
BIGQUERY = Dialect("bigquery", "at", quote_char="`", double="FLOAT64", bigint="INT64",
                   approx_distinct="APPROX_COUNT_DISTINCT")
SNOWFLAKE = Dialect("snowflake", "pyformat", approx_distinct="APPROX_COUNT_DISTINCT")
TRINO = Dialect("trino", "qmark", approx_distinct="approx_distinct")
DIALECTS = {d.name: d for d in (DUCKDB, POSTGRESQL, SPARK, BIGQUERY, SNOWFLAKE, TRINO)}
#: SQLite's quoting and parameters only: it runs none of the generated aggregations (its
#: rows are streamed out, :mod:`clfeval.engines.sqlite`), so it is not in DIALECTS
SQLITE = Dialect("sqlite", "qmark")


class Params:
    """Collects the query's parameters and writes their markers."""

    def __init__(self, style: str) -> None:
        self.style = style
        self.values: list[Any] = []

    def add(self, value: Any) -> str:
        self.values.append(value)
        i = len(self.values) - 1
        if self.style == "numeric":
            return f"${i + 1}"
        if self.style == "pyformat":
            return f"%(p{i})s"
        if self.style == "qmark":
            return "?"
        if self.style == "at":
            return f"@p{i}"
        return f":p{i}"

    def bound(self) -> Any:
        if self.style in ("numeric", "qmark"):
            return list(self.values)
        return {f"p{i}": v for i, v in enumerate(self.values)}


# ------------------------------------------------------------------ bit keys
Stage = list[tuple[str, str]]


def bit_key_stages(d: Dialect, x: str, bits: int, name: str = "k",
                   window: tuple[int, int] | None = None, nonneg: bool = False
                   ) -> list[Stage]:
    """Projections computing ``name = Binning.from_bits(bits).keys(x)`` (a BIGINT) of
    the finite float64 column ``x``: exactly, bit for bit, in three stages.

    For ``a = |x|`` in the binade ``[2**e, 2**(e+1))`` the IEEE-754 bits are ``E *
    2**52 + m52`` with the biased exponent ``E = e + 1023``, so for ``bits >= 12``
    ``T = (E * 2**52 + m52) >> (64 - bits)`` is ``floor(a * 2**(bits-12-e)) + (e + 1022)
    * 2**(bits-12)``: one exact multiplication by a power of two and a ``FLOOR`` (for
    ``bits < 12``, ``T = E >> (12 - bits)``, a constant of the binade). The binade is
    found by comparisons with powers of two: a chain of ``WHEN`` from the top binade
    down (one or two comparisons for most rows of a spread of scores), then a balanced
    tree of nested ``CASE`` over the rest of the binades of ``window`` (``(lowest,
    highest)`` exponents; by default 2**-40 … 2**24, or the range of the data when it
    is known: 64 binades at most), so no logarithm
    or power is evaluated for those rows. Any other value (zero, subnormals, values
    outside the window) takes the general path: ``e = floor(log2 a)`` from a logarithm
    (clamped to the float exponents), corrected by exact comparisons with a power of two
    (``2**(g+1)`` is not formed at ``g = 1023``: no overflow); ``m52 = (a / 2**e - 1) *
    2**52`` (exact: a division by a power of two) for normal ``a``, and ``a * 2**1074``
    for subnormal ``a``. The order key's leading ``bits`` bits are ``2**(bits-1) + T``
    for ``x >= 0`` and ``2**(bits-1) - 1 - T`` for ``x < 0``; ``nonneg`` (no value of
    ``x`` is negative) leaves out the sign. ``bits`` is 1 … 63.
    """
    if not 1 <= bits <= 63:
        raise InvalidParameterError(f"SQL bit bins need 1 <= bits <= 63, got {bits}")
    lo, hi = window if window is not None else (-40, 23)
    # the scale 2**(bits-12-e) must be a finite normal float; at most 64 binades
    lo, hi = max(lo, bits - 1035, -1022), min(hi, 1023)
    lo = max(lo, hi - 63)
    a = f"{name}_a"
    big = d.bigint

    def leaf(e: int) -> str:
        if bits >= 12:
            return (f"(CAST(FLOOR({a} * {d.lit(2.0 ** (bits - 12 - e))}) AS {big}) + "
                    f"CAST({(e + 1022) << (bits - 12)} AS {big}))")
        return f"CAST({(e + 1023) >> (12 - bits)} AS {big})"

    def tree(e0: int, e1: int) -> str:  # a in [2**e0, 2**(e1+1))
        if e0 == e1:
            return leaf(e0)
        mid = (e0 + e1 + 1) // 2
        return (f"CASE WHEN {a} >= {d.lit(2.0 ** mid)} THEN {tree(mid, e1)} "
                f"ELSE {tree(e0, mid - 1)} END")

    two = d.lit(2.0)
    tiny = d.lit(2.0 ** -1022)
    g = (f"LEAST(GREATEST(FLOOR(LN(CASE WHEN {a} > 0 THEN {a} ELSE {d.lit(1.0)} END) / "
         f"LN({two})), {d.lit(-1074.0)}), {d.lit(1023.0)})")
    p = f"POWER({two}, {g})"
    # e = g - [2**g > a] + [2**(g+1) <= a]; 2**e from 2**g by an exact factor of 2
    low = f"{p} > {a}"
    high = f"({g} < 1023 AND {p} * {two} <= {a})"
    e = f"({g} + (CASE WHEN {low} THEN -1 WHEN {high} THEN 1 ELSE 0 END))"
    pe = (f"(CASE WHEN {low} THEN {p} * {d.lit(0.5)} WHEN {high} THEN {p} * {two} "
          f"ELSE {p} END)")
    normal = f"({a} >= {tiny})"
    m_normal = f"(GREATEST({a}, {tiny}) / {pe} - 1) * {d.lit(2.0 ** 52)}"
    m_sub = f"LEAST({a}, {tiny}) * {d.lit(2.0 ** 537)} * {d.lit(2.0 ** 537)}"
    m52 = f"CAST(CASE WHEN {normal} THEN {m_normal} ELSE {m_sub} END AS {big})"
    big_e = f"CAST(CASE WHEN {normal} THEN {e} + 1023 ELSE 0 END AS {big})"
    general = d.shift_right(f"({big_e} * CAST({1 << 52} AS {big}) + {m52})", 64 - bits)
    t = f"{name}_t"
    if lo <= hi:
        # the top binades in a chain (where a spread of scores has most of its mass:
        # one or two comparisons), the rest in a tree
        whens = [] if hi == 1023 else [f"WHEN {a} >= {d.lit(2.0 ** (hi + 1))} THEN {general}"]
        top = max(lo, hi - _CHAIN + 1)
        whens += [f"WHEN {a} >= {d.lit(2.0 ** e)} THEN {leaf(e)}" for e in range(hi, top - 1, -1)]
        if top > lo:
            whens.append(f"WHEN {a} >= {d.lit(2.0 ** lo)} THEN {tree(lo, top - 1)}")
        t_expr = f"CASE {' '.join(whens)} ELSE {general} END"
    else:
        t_expr = general
    half = f"CAST({1 << (bits - 1)} AS {big})"
    if nonneg:
        return [[(a, x)], [(t, t_expr)], [(name, f"({half} + {t})")]]
    neg = d.bool_int(f"{x} < 0")  # (no CASE: half + T or half - 1 - T)
    return [[(a, f"ABS({x})")], [(t, t_expr)],
            [(name, f"({half} + {t} - {neg} * ({t} + {t} + 1))")]]


_CHAIN = 16  # binades tested one after the other before the tree


def bit_floor_stages(d: Dialect, x: str, bits: int, name: str = "v",
                     nonneg: bool = False) -> list[Stage]:
    """Projections computing ``name``, a float64 in the same bit bin as the finite
    float64 column ``x`` — ``|x|`` truncated to its ``bits - 11`` leading significant bits
    (to the subnormals' grid below ``2**-1022``), with the sign of ``x`` — so that
    ``Binning.from_bits(bits).keys(name)`` is the key of ``x``: exactly, bit for bit,
    with no comparison chain and no logarithm (``12 <= bits <= 63``; Python takes the
    keys of the groups' values).

    The binade's power of two ``P = 2**floor(log2 a)`` of ``a = |x|`` comes from
    Veltkamp's splitting: ``c = a * (2**52 + 1)`` and ``r = c - (c - a)`` is ``a``
    rounded to one significant bit, ``2**e`` or ``2**(e+1)``, so ``P`` is ``r`` or
    ``r / 2`` (one comparison). Then ``floor(a / P * 2**(bits-12)) * (P / 2**(bits-12))``
    is the truncation (a division and multiplications by powers of two: exact). Values
    from ``2**960`` up are scaled by ``2**-128`` first (no overflow of ``c``) and back
    after; zero and the subnormals take their grid ``2**-(1010 + bits)`` directly
    (``floor(a / grid) * grid``, in two exact steps each). Every operation either is
    exact or rounds as IEEE-754 prescribes (the splitting needs exactly that): no
    overflow or underflow to zero is ever formed (PostgreSQL would refuse them).
    """
    if not 12 <= bits <= 63:
        raise InvalidParameterError(f"SQL bit floors need 12 <= bits <= 63, got {bits}")
    lit = d.lit
    a, sa, c, r, p = (f"{name}_{s}" for s in ("a", "s", "c", "r", "p"))
    big, small = lit(2.0 ** 960), lit(2.0 ** -1022)
    scale = lit(2.0 ** (bits - 12))
    h = 1010 + bits  # the subnormals' bins are multiples of 2**-h
    h1, h2 = h // 2, h - h // 2
    trunc = f"FLOOR({sa} / {p} * {scale}) * ({p} / {scale})"
    v = (f"CASE WHEN {a} < {small} THEN FLOOR({a} * {lit(2.0 ** h1)} * {lit(2.0 ** h2)}) * "
         f"{lit(2.0 ** -h1)} * {lit(2.0 ** -h2)} WHEN {a} >= {big} THEN {trunc} * "
         f"{lit(2.0 ** 128)} ELSE {trunc} END")
    stages: list[Stage] = [
        [(a, x if nonneg else f"ABS({x})")],
        [(sa, f"CASE WHEN {a} >= {big} THEN {a} * {lit(2.0 ** -128)} WHEN {a} < {small} "
              f"THEN {lit(1.0)} ELSE {a} END")],
        [(c, f"{sa} * {lit(2.0 ** 52 + 1)}")],
        [(r, f"{c} - ({c} - {sa})")],
        [(p, f"CASE WHEN {r} > {sa} THEN {r} * {lit(0.5)} ELSE {r} END")]]
    if nonneg:
        return [*stages, [(name, v)]]
    # (a negative x whose magnitude truncates to 0 is in the bin of -2**-1074, not -0.0's)
    m = f"{name}_m"
    tiny = f"{lit(2.0 ** -537)} * {lit(2.0 ** -537)}"
    return [*stages, [(m, v)],
            [(name, f"CASE WHEN {x} < 0 AND {m} > 0 THEN -{m} WHEN {x} < 0 THEN -({tiny}) "
                    f"ELSE {m} END")]]


def binade_window(lo: float, hi: float) -> tuple[int, int] | None:
    """The binades (exponents) the finite values in ``[lo, hi]`` occupy, for
    :func:`bit_key_stages` (``None`` without values)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        return None
    top = max(abs(lo), abs(hi))
    if top == 0:
        return None
    e_hi = math.frexp(top)[1] - 1
    bottom = min(abs(lo), abs(hi)) if lo > 0 or hi < 0 else 0.0
    e_lo = math.frexp(bottom)[1] - 1 if bottom > 0 else e_hi - 63
    return max(e_lo, e_hi - 63), e_hi


def pipeline(first: str, stages: Sequence[Stage]) -> tuple[str, str]:
    """``WITH`` text chaining ``first`` (a SELECT) through ``stages`` (each adds
    columns to all the previous ones) and the name of the last relation."""
    parts = [f"s0 AS ({first})"]
    for i, stage in enumerate(stages, start=1):
        cols = ", ".join(f"{e} AS {n}" for n, e in stage)
        parts.append(f"s{i} AS (SELECT s{i - 1}.*, {cols} FROM s{i - 1})")
    return "WITH " + ", ".join(parts), f"s{len(stages)}"


# ------------------------------------------------------------------- sources
def mask_password(text: str) -> str:
    """``text`` with the password of any ``scheme://user:password@host`` URL masked.

    Examples
    --------
    >>> mask_password("cannot reach postgresql://ann:s3cret@db/x")
    'cannot reach postgresql://ann:***@db/x'
    """
    text = re.sub(r"(://[^/:@\s]*:)[^@\s]*@", r"\1***@", str(text))
    return re.sub(r"(password\s*=\s*)('[^']*'|\S+)", r"\1***", text, flags=re.IGNORECASE)


class SqlSource:
    """An open connection and its dialect; runs generated queries (private)."""

    def __init__(self, conn: Any, dialect: Dialect, label: str, owned: bool) -> None:
        self.conn = conn
        self.dialect = dialect
        self.label = label
        self.owned = owned
        #: a caller's PostgreSQL connection outside a transaction: ours is rolled back
        self.idle = (not owned and dialect.name == "postgresql"
                     and _pg_idle(getattr(conn, "info", None)))

    def close(self) -> None:
        if self.owned:
            self.conn.close()
        elif self.idle:  # (the queries only read: end the transaction they opened)
            self.rollback()

    def run(self, sql: str, params: Params) -> dict[str, Any]:
        """Run ``sql``; the result as columns (numpy arrays; object arrays for values
        that are labels or slice keys)."""
        d = self.dialect.name
        if d == "duckdb":
            rel = self.conn.sql(sql, params=params.bound() or None)
            return _arrow_columns(_duckdb_arrow(rel))
        cur = self.conn.cursor()
        try:
            cur.execute(sql, params.bound())
            names = [c[0] for c in cur.description]
            batches: list[list[Any]] = [[] for _ in names]
            while True:
                rows = cur.fetchmany(_FETCH_ROWS)
                if not rows:
                    break
                for j, col in enumerate(zip(*rows, strict=True)):
                    batches[j].extend(col)
        finally:
            cur.close()
        return {n: _as_array(b) for n, b in zip(names, batches, strict=True)}

    def columns(self, relation: str) -> list[str]:
        """The column names of a relation (a query with no rows)."""
        d = self.dialect.name
        sql = f"SELECT * FROM {relation} WHERE 1 = 0"
        if d == "duckdb":
            cur = self.conn.execute(sql)
            return [c[0] for c in cur.description]
        cur = self.conn.cursor()
        try:
            cur.execute(sql)
            return [c[0] for c in cur.description]
        finally:
            cur.close()

    def rollback(self) -> None:
        """After a failed statement, make the connection usable again (PostgreSQL)."""
        if self.dialect.name == "postgresql":
            with contextlib.suppress(Exception):  # the connection may be gone; the error stands
                self.conn.rollback()


def _pg_idle(info: Any) -> bool:
    try:
        from psycopg.pq import TransactionStatus
    except ImportError:  # pragma: no cover - psycopg is how PostgreSQL is reached
        return False
    return info is not None and info.transaction_status == TransactionStatus.IDLE


def _duckdb_arrow(result: Any) -> Any:
    """A DuckDB result as one Arrow table (``to_arrow_table`` from DuckDB 1.4,
    ``fetch_arrow_table`` before)."""
    get = getattr(result, "to_arrow_table", None) or result.fetch_arrow_table
    return get()


def _as_array(values: list[Any]) -> npt.NDArray[Any]:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _arrow_columns(table: Any) -> dict[str, Any]:
    import pyarrow as pa

    out: dict[str, Any] = {}
    for name in table.column_names:
        col = table.column(name)
        t = col.type
        if pa.types.is_decimal(t):
            col = col.cast(pa.float64())
            t = col.type
        if (pa.types.is_integer(t) or pa.types.is_floating(t)) and col.null_count == 0:
            out[name] = col.to_numpy()
        else:
            out[name] = _as_array(col.to_pylist())
    return out


#: the memory a DuckDB connection opened by clfeval may use (its buffer pool)
DUCKDB_MEMORY_LIMIT = "192MB"


def _duckdb_tmp() -> str:
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"clfeval-duckdb-{os.getpid()}")


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError as exc:
        raise MissingDependencyError("duckdb", "sql", "clfeval.sql.evaluate") from exc
    return duckdb


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:
        raise MissingDependencyError("psycopg", "sql", "PostgreSQL sources") from exc
    return psycopg


_PG_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://",
               "postgresql+psycopg2://")


#: the first bytes of every SQLite 3 database file
_SQLITE_MAGIC = b"SQLite format 3\x00"


def is_sqlite_file(path: str) -> bool:
    """Whether ``path`` is a SQLite 3 database file (by its first bytes, whatever its
    extension: ``.db`` is DuckDB's too).

    Examples
    --------
    >>> is_sqlite_file("no/such/file.db")
    False
    """
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    except OSError:
        return False


def connect(source: Any) -> SqlSource:
    """Open ``source`` (see :func:`clfeval.sql.evaluate`) as a :class:`SqlSource`."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, str):
        if source.startswith(_PG_SCHEMES):
            psycopg = _psycopg()
            url = re.sub(r"^postgres(?:ql)?(?:\+psycopg2?)?://", "postgresql://", source)
            try:
                conn = psycopg.connect(url)
            except psycopg.Error as exc:
                raise InvalidInputError(f"cannot connect to {mask_password(source)}: "
                                        f"{mask_password(_first_line(exc))}") from None
            return SqlSource(conn, POSTGRESQL, mask_password(source), owned=True)
        path = source
        if source.startswith("duckdb://"):
            path = source[len("duckdb://"):]
            if path.startswith("/") and path[1:].startswith((":memory:",)):
                path = path[1:]
        if is_sqlite_file(path) or source.startswith("sqlite:///"):
            raise InvalidParameterError(
                f"{os.path.basename(path)!r} is a SQLite database, which runs none of the "
                "generated SQL: clfeval.sql.evaluate reads its rows "
                "(clfeval.engines.sqlite.fold_sqlite)")
        duckdb = _duckdb()
        if path != ":memory:" and not os.path.isfile(path):
            raise InvalidInputError(f"no DuckDB database file at {path!r}")
        try:
            conn = duckdb.connect(path, read_only=path != ":memory:")
        except duckdb.Error as exc:
            raise InvalidInputError(f"cannot open the DuckDB database {path!r}: "
                                    f"{_first_line(exc)}") from None
        with contextlib.suppress(duckdb.Error):
            conn.execute("SET enable_progress_bar = false")  # not on our stderr
            # a connection of our own holds little: the groups, not the table's pages
            # (aggregations larger than this spill to a temporary directory)
            conn.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
            conn.execute("SET temp_directory = " + DUCKDB.quote_string(_duckdb_tmp()))
        return SqlSource(conn, DUCKDB, os.path.basename(path), owned=True)
    mod = type(source).__module__
    if mod.startswith(("duckdb", "_duckdb")):
        return SqlSource(source, DUCKDB, "duckdb", owned=False)
    if mod.startswith("psycopg"):
        return SqlSource(source, POSTGRESQL, "postgresql", owned=False)
    if mod.startswith("pyspark"):
        raise InvalidParameterError("for Spark, use clfeval.spark.evaluate(dataframe, ...)")
    if mod.startswith("sqlalchemy"):
        engine = getattr(source, "engine", source)
        name = engine.dialect.name
        dialect = {"postgresql": POSTGRESQL, "duckdb": DUCKDB}.get(name)
        if dialect is None:
            raise InvalidParameterError(f"SQLAlchemy dialect {name!r} is not supported; "
                                        "use PostgreSQL or DuckDB")
        raw = engine.raw_connection()
        driver = getattr(raw, "driver_connection", None) or raw.dbapi_connection
        if dialect is POSTGRESQL and not type(driver).__module__.startswith("psycopg"):
            raw.close()
            raise InvalidParameterError("PostgreSQL through SQLAlchemy needs the psycopg "
                                        "driver (postgresql+psycopg://)")
        return _SqlAlchemySource(raw, driver, dialect,
                                 mask_password(str(getattr(engine, "url", name))))
    raise InvalidParameterError(
        f"source must be a DuckDB connection or file path, a postgresql:// URL, a psycopg "
        f"or SQLAlchemy connection/engine, got {type(source).__name__}")


class _SparkSource(SqlSource):
    """A Spark DataFrame as a temporary view of its session, queried with Spark SQL
    (``spark.sql(text, args=...)``: the parameters are bound by Spark)."""

    def __init__(self, df: Any) -> None:
        import uuid

        self.df = df
        self.view = f"clfeval_{uuid.uuid4().hex}"
        df.createOrReplaceTempView(self.view)
        super().__init__(df.sparkSession, SPARK, "the Spark DataFrame", owned=False)

    def close(self) -> None:
        self.conn.catalog.dropTempView(self.view)

    def run(self, sql: str, params: Params) -> dict[str, Any]:
        out = self.conn.sql(sql, args=params.bound() or None)
        to_arrow = getattr(out, "toArrow", None)  # (Spark 4)
        if to_arrow is not None:
            return _arrow_columns(to_arrow())
        rows = out.collect()  # pragma: no cover - Spark before 4
        return {n: _as_array([r[i] for r in rows]) for i, n in enumerate(out.columns)}

    def columns(self, relation: str) -> list[str]:
        return [str(c) for c in self.df.columns]

    def numeric(self, name: str) -> bool:
        kind = dict(self.df.dtypes)[name]
        return kind.startswith(("tinyint", "smallint", "int", "bigint", "float", "double",
                                "decimal", "boolean"))

    def rollback(self) -> None:
        return None


def fold_spark(df: Any, **options: Any) -> EvalState | SlicedState:
    """Fold a Spark DataFrame with the generated SQL in the Spark SQL dialect (the Spark
    door's ``engine="sql"``): the very queries and group assembly of the SQL door."""
    src = _SparkSource(df)
    try:
        return _fold(src, src.view, None, what="the Spark DataFrame", **options)
    finally:
        src.close()


class _SqlAlchemySource(SqlSource):
    def __init__(self, raw: Any, driver: Any, dialect: Dialect, label: str) -> None:
        super().__init__(driver, dialect, label, owned=False)
        self.raw = raw

    def close(self) -> None:
        self.raw.close()


# ------------------------------------------------------------------- the query
@dataclass(frozen=True)
class _Plan:
    """What one aggregation query computes."""

    key: str            # "exact" (the float itself), "bits" or "none"
    bits: int = 0
    minmax: bool = False
    #: the calibration state's query too (bit keys)
    cal: bool = False
    #: the calibration bins by comparisons (after a guess was off)
    corrected: bool = False
    #: the binades of the bit keys' comparison tree (see :func:`bit_key_stages`)
    window: tuple[int, int] | None = None
    #: no row is invalid (the sketch counted them): the counts query reads the valid
    #: rows only (a filter, no reason per row) and every group's reason is -1
    clean: bool = False
    #: every valid score lies in [0, 1] (the sketch's range): no clamp to 0.5
    unit: bool = False
    #: every valid score lies in [eps, 1 - eps]: no clip before the logarithms
    inner: bool = False
    #: no valid score is negative: the bit keys need no sign
    nonneg: bool = False


def _calibration_sql(d: Dialect, params: Params, edges: npt.NDArray[np.float64], eps: float,
                     *, corrected: bool, weighted: bool, unit: bool = False,
                     inner: bool = False
                     ) -> tuple[list[Stage], list[str], list[tuple[str, str]]]:
    """Stages, group keys and sums of the binary calibration state, over the valid rows
    (``x`` the score, ``w`` the weight).

    Keys: the declared reliability bin ``cb`` (a count of inner edges below ``p``, as
    ``searchsorted(inner, p, "left")``) and the fine logit bin ``fb`` (the last one whose
    threshold of :func:`_fine_floors` — derived from numpy's own
    arithmetic — is at most ``p``). Both are first guessed by arithmetic (``ceil(p·B) -
    1`` for uniform edges; the database's logit, scaled); :func:`_bins_hold` then checks
    every group's smallest and largest ``p`` against the exact thresholds, and only when
    a guess was wrong (``p`` within a rounding of a threshold) is the query run again
    with ``corrected=True``: a count of edges and one comparison with the thresholds on
    each side of the guess (array look-ups, twice the cost). Either way the bins are
    exactly the in-memory fold's.

    Sums, per group (``w·`` when weighted), with the outcome unknown until Python resolves
    the positive label: ``sp`` Σp, ``spp`` Σp², ``sse1`` Σ(1-p)² (a negative outcome's
    squared error is ``spp``), ``l1`` Σlog(q) and ``l0`` Σlog(1-q) with ``q = clip(p, eps,
    1-eps)`` — two logarithms per row; ``1 - q`` is exactly the in-memory fold's ``clip(1 -
    p)``, so the log losses are ``-l1`` (positive) and ``-l0`` (negative) and the logit
    sum is ``l1 - l0`` (:func:`_log_sums`; the fold takes ``log(q / (1 - q))`` per row: the
    same to rounding) — and the Spiegelhalter terms ``z0`` -p(1-2p), ``z1`` (1-p)(1-2p),
    ``v`` (1-2p)²p(1-p). Scores outside [0, 1] enter as 0.5 (no overflow, no logarithm
    of a negative number): the state is then dropped (``pmin``/``pmax`` tell). ``unit``
    (every score known to lie in [0, 1]) and ``inner`` (in [eps, 1 - eps]) leave out the
    clamps that cannot act.
    """
    from ..core.calibration import FINE_LIMIT, FINE_SCALE, N_FINE

    one = d.lit(1.0)
    lo, hi = d.lit(eps), d.lit(1.0 - eps)
    nb = len(edges) - 1
    s1 = [("xc", "x" if unit else
           f"CASE WHEN x >= 0 AND x <= 1 THEN x ELSE {d.lit(0.5)} END")]
    s2 = [("xq", "xc" if unit and inner else f"LEAST(GREATEST(xc, {lo}), {hi})")]
    if corrected:
        cb = "(" + " + ".join([f"(CASE WHEN xc > {d.lit(float(e))} THEN 1 ELSE 0 END)"
                               for e in edges[1:-1]] or ["0"]) + ")"
    else:
        # (xc is in [0, 1]: ceil(xc * B) is in [0, B]; only 0 needs the lower bound)
        cb = f"GREATEST(CAST(CEIL(xc * {d.lit(float(nb))}) AS INTEGER) - 1, 0)"
    s3 = [("l1", "LN(xq)"), ("l0", f"LN({one} - xq)"), ("cb", cb)]
    fine = f"FLOOR((l1 - l0 + {d.lit(float(FINE_LIMIT))}) * {d.lit(float(FINE_SCALE))})"
    edge = math.log(eps / (1.0 - eps))  # the logits of the clipped p lie in [edge, -edge]
    if not (math.floor((edge - 1e-9 + FINE_LIMIT) * FINE_SCALE) >= 0
            and math.floor((1e-9 - edge + FINE_LIMIT) * FINE_SCALE) <= N_FINE - 1):
        fine = f"LEAST(GREATEST({fine}, {d.lit(0.0)}), {d.lit(float(N_FINE - 1))})"
    s4 = [("fb0", f"CAST({fine} AS INTEGER)")]
    stages = [s1, s2, s3, s4]
    if corrected:
        # a last-bit difference of the logarithm moves the guess by one bin at most: one
        # comparison on each side puts it right
        floors = d.float_array(_fine_floors(eps), params)
        stages.append([("fb", f"(fb0 - (CASE WHEN xc < {d.element(floors, 'fb0 + 1')} "
                              f"THEN 1 ELSE 0 END) + (CASE WHEN xc >= "
                              f"{d.element(floors, 'fb0 + 2')} THEN 1 ELSE 0 END))")])
    else:
        stages.append([("fb", "fb0")])
    om = f"({one} - {d.lit(2.0)} * xc)"
    # (the squared error of a negative outcome is spp's term: not summed twice)
    sums = [("sp", "xc"), ("spp", "xc * xc"),
            ("sse1", f"({one} - xc) * ({one} - xc)"), ("l0", "l0"), ("l1", "l1"),
            ("z0", f"-xc * {om}"), ("z1", f"({one} - xc) * {om}"),
            ("v", f"{om} * {om} * xc * ({one} - xc)")]
    out = [(n, f"w * ({e})" if weighted else e) for n, e in sums]
    return stages, ["cb", "fb"], out


def _log_sums(cal: dict[str, Any]) -> dict[str, Any]:
    """The calibration query's groups with the log-loss and logit sums of both outcomes
    (``nll1 = -l1``, ``nll0 = -l0``, ``sx = l1 - l0``: see :func:`_calibration_sql`)."""
    out = dict(cal)
    l1, l0 = _num(cal, "l1", np.float64), _num(cal, "l0", np.float64)
    out.update(nll1=-l1, nll0=-l0, sx=l1 - l0)
    return out


@functools.lru_cache(maxsize=4)
def _fine_floors(eps: float) -> tuple[float, ...]:
    """The fine logit bins of the calibration state as probability thresholds.

    ``floors[j]`` is the smallest float64 ``p`` in [0, 1] that the calibration fold
    (:meth:`CalibrationCounts.from_predictions`, numpy's ``log`` and ``floor``) puts in
    fine bin ``j`` or above (``-inf`` when even ``p = 0`` is there, ``+inf`` when no
    probability reaches it), with ``floors[N_FINE] = +inf``; so a probability's fine
    bin is the last ``j`` with ``floors[j] <= p`` — found by comparisons, with no
    logarithm whose last bit could differ from numpy's. The thresholds are found by
    bisection over the float64 bit patterns, asking the fold itself where each
    candidate lands: for sorted candidates (the bin is non-decreasing in ``p``) the
    fold's fine histogram gives every candidate's bin.
    """
    from ..core.calibration import N_FINE, CalibrationCounts

    def bins_of(p: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
        order = np.argsort(p, kind="stable")
        s = CalibrationCounts.from_predictions(np.zeros(p.size, bool), p[order],
                                               labels=[False, True], pos_label=True, eps=eps)
        ends = np.cumsum(s.fine_counts(0).sum(axis=1))
        out = np.empty(p.size, np.intp)
        out[order] = np.searchsorted(ends, np.arange(p.size), side="right")
        return out

    f0, f1 = (int(v) for v in bins_of(np.array([0.0, 1.0])))
    j = np.arange(f0 + 1, f1 + 1)
    lo = np.zeros(j.size, np.int64)                         # bits of 0.0: bin < j
    hi = np.full(j.size, np.float64(1.0).view(np.int64))    # bits of 1.0: bin >= j
    while (hi - lo > 1).any():
        mid = lo + (hi - lo) // 2
        up = bins_of(mid.view(np.float64)) >= j
        hi = np.where(up, mid, hi)
        lo = np.where(up, lo, mid)
    floors = np.full(N_FINE + 1, np.inf)
    floors[: f0 + 1] = -np.inf
    floors[f0 + 1: f1 + 1] = hi.view(np.float64)
    return tuple(floors.tolist())


def _bins_hold(cal: dict[str, Any], edges: npt.NDArray[np.float64], eps: float) -> bool:
    """Whether every calibration group's probabilities lie in its (guessed) bins."""

    if cal["n"].size == 0:
        return True
    cb = _num(cal, "cb", np.intp)
    fb = _num(cal, "fb", np.intp)
    lo, hi = _num(cal, "pmin", np.float64), _num(cal, "pmax", np.float64)
    # a group holding a score outside [0, 1] drops the calibration state (when its labels
    # are valid) or the group (when they are not): its bins do not matter
    prob = (lo >= 0) & (hi <= 1)
    cb, fb, lo, hi = cb[prob], fb[prob], lo[prob], hi[prob]
    inner = np.concatenate([[-np.inf], edges[1:-1], [np.inf]])
    floors = np.asarray(_fine_floors(eps))
    return bool(((inner[cb] < lo) | (cb == 0)).all() and (hi <= inner[cb + 1]).all()
                and (floors[fb] <= lo).all() and (hi < floors[fb + 1]).all())


def _select(d: Dialect, spec: Spec) -> list[str]:
    """The columns a query reads, under short names: ``t``, ``p``, ``g0`` …, ``x``, ``w``."""
    cols = spec.columns
    q = d.quote
    sel = [f"{q(cols.y_true)} AS t"]
    if cols.y_pred is not None:
        sel.append(f"{q(cols.y_pred)} AS p")
    for i, g in enumerate(cols.by):
        sel.append(f"{q(g)} AS g{i}")
    if cols.y_score:
        sel.append(f"{d.cast_double(q(cols.y_score[0]))} AS x")
    if cols.weight is not None:
        sel.append(f"{d.cast_double(q(cols.weight))} AS w")
    return sel


def _valid_sql(d: Dialect, spec: Spec) -> str:
    """Whether a row (of :func:`_select`'s names) is valid: no reason of SQL's to leave it
    out (labels are checked later, in Python, on the groups)."""
    cols = spec.columns
    conds = ["t IS NOT NULL"] + (["p IS NOT NULL"] if cols.y_pred is not None else [])
    if cols.y_score:
        conds += ["x IS NOT NULL", f"NOT {d.nonfinite('x')}"]
    if cols.weight is not None:
        conds += ["w IS NOT NULL", f"NOT {d.nonfinite('w')}", "w >= 0"]
    return " AND ".join(conds)


def _valid_rows(d: Dialect, relation: str, spec: Spec) -> str:
    """A SELECT of the valid rows of ``relation`` (:func:`_select`'s columns)."""
    return (f"SELECT * FROM (SELECT {', '.join(_select(d, spec))} FROM {relation}) "
            f"AS clfeval_rows WHERE {_valid_sql(d, spec)}")


def _query(d: Dialect, relation: str, spec: Spec, plan: _Plan, params: Params,
           part: str = "counts") -> str:
    """An aggregation query over ``relation`` (a quoted table or a wrapped query).

    ``part="counts"``: every row per (reason, truth, prediction, slice, score key, side
    of the threshold) — counts and weights; with ``plan.clean`` (no invalid row) only the
    valid rows are read, through a filter, and no reason is grouped.
    ``part="calibration"`` (for bit keys): the valid rows per (truth, prediction, slice,
    reliability bin, fine bin) — the calibration sums. Two small hash tables are cheaper
    than one keyed by both (many sums in a table of many groups miss the caches). An
    exact plan needs no calibration query: each group's score is its key, and Python
    derives the calibration sums from the groups (:func:`_exact_calibration`).
    """
    cols = spec.columns
    has_x = bool(cols.y_score)
    by_keys = [f"g{i}" for i in range(len(cols.by))]
    if part == "calibration":
        from ..core.calibration import CalibrationCounts

        empty = CalibrationCounts.empty([False, True], pos_label=True)
        cal_stages, cal_keys, cal_sums = _calibration_sql(
            d, params, empty.edges, empty.eps, corrected=plan.corrected,
            weighted=cols.weight is not None, unit=plan.unit, inner=plan.inner)
        keys = ["t", *(["p"] if cols.y_pred is not None else []), *by_keys, *cal_keys]
        aggs = ["COUNT(*) AS n", *(["SUM(w) AS w"] if cols.weight is not None else []),
                *[f"SUM({e}) AS {name}" for name, e in cal_sums],
                "MIN(x) AS pmin", "MAX(x) AS pmax"]
        head, last = pipeline(_valid_rows(d, relation, spec), cal_stages)
        group = ", ".join(str(i) for i in range(1, len(keys) + 1))
        return (f"{head} SELECT {', '.join(keys)}, {', '.join(aggs)} FROM {last} "
                f"GROUP BY {group}")
    if plan.clean:
        first = _valid_rows(d, relation, spec)
        stages: list[Stage] = []  # (the valid rows only: no reason)
        keys = ["t", *(["p"] if cols.y_pred is not None else []), *by_keys]
        xv, wv, ok = "x", "w", ""
    else:
        first = f"SELECT {', '.join(_select(d, spec))} FROM {relation}"
        label_null = "t IS NULL" + (" OR p IS NULL" if cols.y_pred is not None else "")
        cases = [f"WHEN {label_null} THEN {_R_MISSING_LABEL}"]
        if has_x:
            cases += [f"WHEN x IS NULL THEN {_R_MISSING_SCORE}",
                      f"WHEN {d.nonfinite('x')} THEN {_R_NONFINITE_SCORE}"]
        if cols.weight is not None:
            cases += [f"WHEN w IS NULL THEN {_R_MISSING_WEIGHT}",
                      f"WHEN {d.nonfinite('w')} OR w < 0 THEN {_R_BAD_WEIGHT}"]
        stages = [[("reason", f"CASE {' '.join(cases)} ELSE -1 END")]]
        valid: Stage = []
        if has_x:
            valid.append(("xv", f"CASE WHEN reason = -1 THEN x ELSE {d.lit(0.0)} END"))
        if cols.weight is not None:
            valid.append(("wv", f"CASE WHEN reason = -1 THEN w ELSE {d.lit(0.0)} END"))
        if valid:
            stages.append(valid)
        keys = ["reason", "CASE WHEN reason = 0 THEN NULL ELSE t END AS t"]
        if cols.y_pred is not None:
            keys.append("CASE WHEN reason = 0 THEN NULL ELSE p END AS p")
        keys += by_keys
        xv, wv, ok = "xv", "wv", "reason = -1 AND "
    aggs = ["COUNT(*) AS n"]
    if cols.weight is not None:
        aggs += [f"SUM({wv}) AS w", f"SUM({wv} * {wv}) AS w2"]
    if has_x:
        if plan.key == "exact":
            keys.append(f"{xv} AS k")
        elif plan.key == "bits" and plan.bits >= 12:
            # a float in each row's bin (its key is taken in Python: _counts)
            stages += bit_floor_stages(d, xv, plan.bits, "kv", nonneg=plan.nonneg)
            keys.append("kv AS k")
        elif plan.key == "bits":
            stages += bit_key_stages(d, xv, plan.bits, "kb", plan.window,
                                     nonneg=plan.nonneg)
            keys.append("kb AS k")
        if spec.threshold is not None:
            thr = params.add(float(spec.threshold))
            keys.append(f"CASE WHEN {ok}{xv} >= {thr} THEN 1 ELSE 0 END AS hit")
        if plan.minmax:
            aggs += [f"MIN({xv}) AS xmin", f"MAX({xv}) AS xmax"]
    head, last = pipeline(first, stages)
    group = ", ".join(str(i) for i in range(1, len(keys) + 1))
    return f"{head} SELECT {', '.join(keys)}, {', '.join(aggs)} FROM {last} GROUP BY {group}"


def _sketch(d: Dialect, relation: str, spec: Spec, approx: bool, table: bool) -> str:
    """One scan: the number ``n_valid`` of valid rows and the relation's ``n_rows`` (equal:
    no invalid row, :attr:`_Plan.clean`), the smallest and largest valid score (the
    binades of the bit keys; whether the scores are probabilities) and, with ``approx``,
    the engine's sketch of the number ``n`` of distinct valid scores of positive weight.
    A DuckDB table's row count is a scalar subquery (read from its metadata); other
    relations' rows are counted in the same scan, the valid ones by ``CASE``
    (no ``FILTER`` clause: BigQuery has none), so the query runs once."""
    pos = "" if spec.columns.weight is None else " AND w > 0"
    if table:
        aggs = ["MIN(x) AS xmin", "MAX(x) AS xmax", "COUNT(*) AS n_valid",
                f"(SELECT COUNT(*) FROM {relation}) AS n_rows"]
        x = "x" if spec.columns.weight is None else "CASE WHEN w > 0 THEN x END"
        rows = f"({_valid_rows(d, relation, spec)}) AS clfeval_valid"
    else:
        ok = _valid_sql(d, spec)
        aggs = [f"MIN(CASE WHEN {ok} THEN x END) AS xmin",
                f"MAX(CASE WHEN {ok} THEN x END) AS xmax",
                f"SUM(CASE WHEN {ok} THEN 1 ELSE 0 END) AS n_valid", "COUNT(*) AS n_rows"]
        x = f"CASE WHEN {ok}{pos} THEN x END"
        rows = f"(SELECT {', '.join(_select(d, spec))} FROM {relation}) AS clfeval_rows"
    if approx:
        aggs.insert(0, f"{d.approx_distinct}({x}) AS n")
    return f"SELECT {', '.join(aggs)} FROM {rows}"


def _sketch_flags(sketch: dict[str, Any]) -> dict[str, Any]:
    """What the sketch tells the plans (:class:`_Plan`'s ``clean``, ``unit``, ``inner``,
    ``nonneg`` and ``window``)."""
    from ..core.calibration import EPS

    n_valid = int(_num(sketch, "n_valid", np.int64)[0])
    n_rows = int(_num(sketch, "n_rows", np.int64)[0])
    if n_valid == 0:
        return {"clean": n_rows == 0}
    lo, hi = (float(_num(sketch, c, np.float64)[0]) for c in ("xmin", "xmax"))
    return {"clean": n_rows == n_valid, "unit": lo >= 0.0 and hi <= 1.0,
            "inner": lo >= EPS and hi <= 1.0 - EPS, "nonneg": lo >= 0.0,
            "window": binade_window(lo, hi)}


def _count_distinct(d: Dialect, relation: str, spec: Spec) -> str:
    """The exact number of distinct valid scores (of rows with a positive weight: the
    only ones a score state keeps)."""
    x = d.cast_double(d.quote(spec.columns.y_score[0]))
    w = ""
    if spec.columns.weight is not None:
        wc = d.cast_double(d.quote(spec.columns.weight))
        w = f" AND {wc} IS NOT NULL AND NOT {d.nonfinite(wc)} AND {wc} > 0"
    return (f"SELECT COUNT(DISTINCT {x}) AS n FROM {relation} WHERE {x} IS NOT NULL AND "
            f"NOT {d.nonfinite(x)}{w}")


# ------------------------------------------------------------ groups → states
def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _factorize(values: npt.NDArray[Any]) -> tuple[npt.NDArray[np.intp], list[Any]]:
    """Codes and distinct values of a group column (a loop over groups, never rows)."""
    if values.dtype != object:
        uniq, codes = np.unique(values, return_inverse=True)
        vals = [v.item() for v in uniq]  # (NaN, a missing value, is the key None)
        return codes.reshape(-1).astype(np.intp), [None if _is_missing(v) else v
                                                   for v in vals]
    index: dict[tuple[str, Any], int] = {}
    uniq_l: list[Any] = []
    codes = np.empty(values.size, dtype=np.intp)
    for i, v in enumerate(values.tolist()):
        key = ("none", None) if _is_missing(v) else (type(v).__name__, v)
        c = index.get(key)
        if c is None:
            c = index[key] = len(uniq_l)
            uniq_l.append(None if _is_missing(v) else v)
        codes[i] = c
    return codes, uniq_l


def _label_codes(space: LabelSpace, uniq: list[Any], column: str, source: str
                 ) -> npt.NDArray[np.intp]:
    """Label codes of distinct values (-1 unknown, -2 missing), registering new ones."""
    out = np.full(len(uniq), -2, dtype=np.intp)
    present = [i for i, v in enumerate(uniq) if not _is_missing(v)]
    codes, bad = space.lookup([uniq[i] for i in present])
    if bad is not None:
        v = uniq[present[bad]]
        raise InvalidInputError(
            f"label {v!r} in column {column!r} of {source} is a {_kind(v)} but the labels "
            f"seen before are {space.kind}s ({space.labels[:5]}); labels must have one type")
    out[present] = codes
    return out


def _num(res: dict[str, Any], name: str, dtype: Any) -> npt.NDArray[Any]:
    a = res[name]
    if a.dtype == object:
        a = np.asarray([0 if v is None else v for v in a.tolist()], dtype=np.float64)
    return np.asarray(a).astype(dtype, copy=False)


def _calibration_state(sums: dict[str, npt.NDArray[Any]], is_pos: npt.NDArray[np.intp],
                       weighted: bool, empty: Any) -> Any:
    """The calibration state (placeholder labels, as the fold's) from SQL groups —
    ``None`` when a score is not a probability. ``sums`` holds per group ``n``, ``w``
    (weighted), the bins ``cb``/``fb`` and the sums of :func:`_calibration_sql`."""
    from ..core.calibration import (
        FSP,
        FSX,
        FW,
        N_FIELDS,
        N_FINE,
        N_FINE_FIELDS,
        NLL,
        SP,
        SPP,
        SSE,
        CalibrationCounts,
        W,
    )

    if sums["n"].size == 0:
        return empty
    if float(sums["pmin"].min()) < 0.0 or float(sums["pmax"].max()) > 1.0:
        return None
    c = is_pos.astype(bool)
    n = sums["n"]
    wt = sums["w"] if weighted else n.astype(np.float64)
    cb = sums["cb"].astype(np.intp)
    fb = sums["fb"].astype(np.intp)
    b = empty.n_bins
    counts = np.zeros((b, 2), np.int64)
    np.add.at(counts, (cb, is_pos), n)
    cells = np.zeros((b, 2, N_FIELDS))
    sp = sums["sp"]
    for field, v in ((W, wt), (SP, sp), (SPP, sums["spp"]),
                     (NLL, np.where(c, sums["nll1"], sums["nll0"])),
                     (SSE, np.where(c, sums["sse1"], sums.get("sse0", sums["spp"])))):
        np.add.at(cells[:, :, field], (cb, is_pos), v)
    fine_counts = np.zeros((N_FINE, 2), np.int64)
    np.add.at(fine_counts, (fb, is_pos), n)
    fine = np.zeros((N_FINE, 2, N_FINE_FIELDS))
    for field, v in ((FW, wt), (FSP, sp), (FSX, sums["sx"])):
        np.add.at(fine[:, :, field], (fb, is_pos), v)
    spieg = np.array([[np.where(c, sums["z1"], sums["z0"]).sum(), sums["v"].sum()]])
    return CalibrationCounts(empty.labels, counts[None], cells[None], fine_counts[None],
                             fine[None], spieg, edges=empty.edges, pos_label=empty.pos_label,
                             eps=empty.eps)


_CAL_SUMS = ("sp", "spp", "sse0", "sse1", "nll0", "nll1", "sx", "z0", "z1", "v")


def _slice_keys(res: dict[str, Any], by: Sequence[str]
                ) -> tuple[list[tuple[Any, ...]], npt.NDArray[np.intp]]:
    """The distinct slice keys of the groups and each group's index into them."""
    if not by:
        return [()], np.zeros(res["t"].size, dtype=np.intp)
    parts_codes = []
    uniqs = []
    for i in range(len(by)):
        c, u = _factorize(res[f"g{i}"])
        parts_codes.append(c)
        uniqs.append(u)
    stacked = np.stack(parts_codes, axis=1)
    combos, s_codes = np.unique(stacked, axis=0, return_inverse=True)
    keys = [tuple(uniqs[i][int(c)] for i, c in enumerate(row)) for row in combos.tolist()]
    return keys, s_codes.reshape(-1).astype(np.intp)


def _calibrations(cal: dict[str, Any], spec: Spec, space: LabelSpace, pos_code: int,
                  slices: dict[tuple[Any, ...], int], source: str) -> dict[int, Any]:
    """The calibration state of every slice (index into ``slices``) from the groups of
    the calibration query (rows with an unknown or NaN label left out, as the fold)."""
    from ..core.calibration import CalibrationCounts

    cols = spec.columns
    t_codes, t_uniq = _factorize(cal["t"])
    gt = _label_codes(space, t_uniq, cols.y_true, source)[t_codes]
    ok = gt >= 0
    if cols.y_pred is not None:
        p_codes, p_uniq = _factorize(cal["p"])
        ok &= _label_codes(space, p_uniq, cols.y_pred, source)[p_codes] >= 0
    keys, codes = _slice_keys(cal, cols.by)
    slice_of = np.asarray([slices[k] for k in keys], dtype=np.intp)[codes] if keys else codes
    weighted = cols.weight is not None
    arrays = {name: _num(cal, name, np.float64)
              for name in (*_CAL_SUMS, "pmin", "pmax") if name in cal}
    arrays["n"] = _num(cal, "n", np.int64)
    arrays["cb"] = _num(cal, "cb", np.intp)
    arrays["fb"] = _num(cal, "fb", np.intp)
    if weighted:
        arrays["w"] = _num(cal, "w", np.float64)
    rows = np.flatnonzero(ok)
    rows = rows[np.argsort(slice_of[rows], kind="stable")]  # contiguous per slice
    js, starts = np.unique(slice_of[rows], return_index=True)
    ends = [*starts[1:].tolist(), rows.size]
    out: dict[int, Any] = {}
    for j, a, b in zip(js.tolist(), starts.tolist(), ends, strict=True):
        m = rows[a:b]
        sums = {name: v[m] for name, v in arrays.items()}
        is_pos = (gt[m] == pos_code).astype(np.intp)
        out[int(j)] = _calibration_state(sums, is_pos, weighted,
                                         CalibrationCounts.empty([False, True], pos_label=True))
    return out


def _partials(res: dict[str, Any], cal: dict[str, Any] | None, spec: Spec, plan: _Plan,
              source: str, converted: bool) -> Partial | SlicedPartial:
    """The partial state(s) of the groups ``res`` (counts) and ``cal`` (calibration) —
    one per slice, with ``by``."""
    cols = spec.columns
    n = _num(res, "n", np.int64)
    reason = _num(res, "reason", np.int64)
    space = LabelSpace(None if spec.labels is None else list(spec.labels))
    t_codes, t_uniq = _factorize(res["t"])
    gt_u = _label_codes(space, t_uniq, cols.y_true, source)
    gt = gt_u[t_codes]
    gp = None
    if cols.y_pred is not None:
        p_codes, p_uniq = _factorize(res["p"])
        j = continuous_prediction(space, [v for v in p_uniq if not _is_missing(v)])
        if j is not None:
            raise InvalidInputError(
                f"{source}, column {cols.y_pred!r}: "
                + continuous_message([v for v in p_uniq if not _is_missing(v)][j]))
        gp_u = _label_codes(space, p_uniq, cols.y_pred, source)
        gp = gp_u[p_codes]
    # the fold's first reason: a missing label (NULL or NaN), an undeclared one, then SQL's
    miss = gt == -2 if gp is None else (gt == -2) | (gp == -2)
    unknown = ~miss & ((gt == -1) if gp is None else (gt == -1) | (gp == -1))
    reason = np.where(miss, _R_MISSING_LABEL, np.where(unknown, _R_UNKNOWN_LABEL, reason))
    bad = reason >= 0
    if bad.any() and spec.on_invalid == "raise":
        code = int(reason[bad].min())
        count = int(n[reason == code].sum())
        col = {_R_MISSING_LABEL: cols.y_true, _R_UNKNOWN_LABEL: cols.y_true,
               _R_MISSING_SCORE: cols.y_score[0] if cols.y_score else None,
               _R_NONFINITE_SCORE: cols.y_score[0] if cols.y_score else None,
               _R_MISSING_WEIGHT: cols.weight, _R_BAD_WEIGHT: cols.weight}[code]
        if code in (_R_MISSING_LABEL, _R_UNKNOWN_LABEL) and cols.y_pred is not None:
            flag = (gt == -2) if code == _R_MISSING_LABEL else (gt == -1)
            if not flag[reason == code].any():
                col = cols.y_pred
        declared = f" (labels={list(space.labels)[:10]})" if code == _R_UNKNOWN_LABEL else ""
        raise InvalidInputError(
            f"{count} row(s) of {source}: {REASONS[_REASON_ORDER[code]]}{declared} in column "
            f"{col!r}; fix the data or pass on_invalid='exclude' to leave such rows out "
            "(they are then counted and reported)")
    weighted = cols.weight is not None
    amount = _num(res, "w", np.float64) if weighted else n
    w2 = _num(res, "w2", np.float64) if weighted else None
    pos_code = -1
    if cols.y_score:
        pos_code = space.code(_binary_pos_label_value(spec, space))
    keys, s_codes = _slice_keys(res, cols.by)
    if len(keys) > spec.max_slices:
        raise too_many(cols.by, len(keys), spec.max_slices)
    for i, name in enumerate(cols.by):
        kinds = {_kind(key[i]) for key in keys if key[i] is not None}
        if len(kinds) > 1:
            raise InvalidInputError(f"the grouping column {name!r} of {source} holds "
                                    "values of different kinds")
    cals: dict[int, Any] = {}
    if cal is not None:
        cals = _calibrations(cal, spec, space, pos_code, {key: j for j, key in enumerate(keys)},
                             source)
    k = len(space.labels)
    bits = plan.bits if plan.key == "bits" else 0
    if cols.y_score:  # each numeric column converted once, not once per slice
        res = dict(res)
        res["k"] = _num(res, "k", np.int64 if bits else np.float64)
        if spec.threshold is not None:
            res["hit"] = _num(res, "hit", np.intp)
    order = np.argsort(s_codes, kind="stable")
    ends = np.cumsum(np.bincount(s_codes, minlength=len(keys))).tolist()
    parts: dict[tuple[Any, ...], Partial] = {}
    for j, key in enumerate(keys):
        idx = order[(ends[j - 1] if j else 0):ends[j]]
        excluded = np.zeros(len(_REASON_ORDER), np.int64)
        rj = reason[idx]
        np.add.at(excluded, rj[rj >= 0], n[idx][rj >= 0])
        good = idx[rj < 0]
        cm = None
        if gp is not None:
            cm = np.zeros((k, k), dtype=amount.dtype)
            np.add.at(cm, (gt[good], gp[good]), amount[good])
        tallies = scores = cal_j = None
        if cols.y_score:
            is_pos = (gt[good] == pos_code).astype(np.intp)
            a = amount[good]
            if spec.threshold is not None:
                hit = _num(res, "hit", np.intp)[good]
                tallies = np.zeros(4, dtype=amount.dtype)
                np.add.at(tallies, is_pos * 2 + hit, a)
                tallies = tallies.reshape(2, 2)
            scores = _score_state(spec, res, good, is_pos, a, bits, converted)
            if cal is not None:
                from ..core.calibration import CalibrationCounts

                cal_j = cals.get(j, CalibrationCounts.empty([False, True], pos_label=True))
        weight_sq = float(w2[good].sum()) if w2 is not None else None
        parts[key] = Partial(list(space.labels), space.declared, weighted, cm, tallies,
                             scores, int(n[idx].sum()), excluded, (source,), cal_j, None,
                             weight_sq)
    if not cols.by:
        return parts[()]
    if not parts:  # no rows at all
        from ..core._folders import make_folder

        folder = make_folder(spec)
        folder.add_source(source)
        out: SlicedPartial = folder.partial()
        return out
    overall = tree_sum([parts[key] for key in sorted(parts, key=key_order)])
    overall.sources = (source,)
    return SlicedPartial(cols.by, overall, parts, spec.max_slices)


def _score_state(spec: Spec, res: dict[str, Any], good: npt.NDArray[np.intp],
                 is_pos: npt.NDArray[np.intp], amount: npt.NDArray[Any], bits: int,
                 converted: bool) -> Any:
    """The score state of the valid groups ``good`` (placeholder labels 0/1)."""
    from ..core.fold import _empty_scores
    from ..core.scores import Binning, ScoreCounts, score_tables

    space = LabelSpace([0, 1])
    empty = _empty_scores(spec, space)
    if bits:
        key = _num(res, "k", np.int64)[good].astype(np.uint64)
        values = Binning.from_bits(bits).floors(key)
    else:
        values = _num(res, "k", np.float64)[good] + 0.0  # (-0.0 is 0.0)
    tables = score_tables(values, is_pos, 2, amount)
    if converted:
        binning = Binning.from_bits(DEFAULT_CONVERT_BITS)
        batch = ScoreCounts([tables[0][0]], [tables[0][1]], (0, 1), pos_label=1,
                            binning=binning, max_distinct=empty.max_distinct,
                            convert_bits=DEFAULT_CONVERT_BITS, converted=True, _trusted=True)
        return empty + batch
    return _with_table(empty, tables)


# ------------------------------------------------------------------------ fold
def relation_sql(d: Dialect, table: str | None, query: str | None) -> tuple[str, str]:
    """The FROM-clause relation and its name for messages."""
    if (table is None) == (query is None):
        raise InvalidParameterError("give either a table name or a query (not both)")
    if table is not None:
        return d.qualified(table), f"table {table!r}"
    assert query is not None
    text = query.strip().rstrip(";").strip()
    if not text:
        raise InvalidParameterError("the query is empty")
    if "\x00" in text:
        raise InvalidParameterError("the query holds a NUL character")
    return f"({text}) AS clfeval_query", "the query"


def _run(src: SqlSource, sql: str, params: Params, what: str) -> dict[str, Any]:
    try:
        return src.run(sql, params)
    except Exception as exc:  # a database error (each driver has its own base class)
        if not _is_db_error(exc):
            raise
        src.rollback()
        msg = mask_password(_first_line(exc))
        raise InvalidInputError(f"the database refused the query on {what}: {msg}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _is_db_error(exc: Exception) -> bool:
    mod = type(exc).__module__
    return mod.startswith(("duckdb", "_duckdb", "psycopg", "sqlalchemy", "pyspark", "py4j"))


def _check_numeric(src: SqlSource, relation: str, what: str, names: Sequence[str]) -> None:
    """A score or weight column must be numeric (a typed probe, no rows read)."""
    d = src.dialect
    for name in names:
        if isinstance(src, _SparkSource):
            if not src.numeric(name):
                raise InvalidInputError(f"column {name!r} of {what} is not numeric; scores "
                                        "and weights must be numbers")
            continue
        params = Params(d.paramstyle)
        sql = f"SELECT {d.quote(name)} + 0 AS probe FROM {relation} WHERE 1 = 0"
        try:
            src.run(sql, params)
        except Exception as exc:
            if not _is_db_error(exc):
                raise
            src.rollback()
            raise InvalidInputError(
                f"column {name!r} of {what} is not numeric; scores and weights must be "
                "numbers") from None


def fold(
    source: Any,
    table: str | None = None,
    *,
    query: str | None = None,
    y_true: Any = None,
    y_pred: Any = None,
    y_score: Any = None,
    weight: str | None = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    by: Any = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    weights: str = "importance",
) -> EvalState | SlicedState:
    """Fold a database table (or a query's result) into a state inside the database.

    ``source`` is any source :func:`clfeval.sql.evaluate` takes; the other options are
    those of :func:`clfeval.engines.fold_files`, except ``bins``: ``None`` or
    ``"exact"`` keep every distinct score (as :func:`clfeval.evaluate`) up to
    ``max_distinct`` of them, then the 24-bit float bins; an int asks for that many
    leading bits directly. One binary score column (or none); K-class and multilabel
    score columns are refused. A DuckDB database opened here (a path) is read-only and
    its buffer pool is capped at :data:`DUCKDB_MEMORY_LIMIT`; a connection passed in is
    used as it is.
    """
    src = connect(source)
    try:
        return _fold(src, table, query, y_true=y_true, y_pred=y_pred, y_score=y_score,
                     weight=weight, labels=labels, pos_label=pos_label, threshold=threshold,
                     on_invalid=on_invalid, bins=bins, max_distinct=max_distinct, by=by,
                     max_slices=max_slices, weights=weights)
    finally:
        src.close()


def door_bins(bins: Any) -> Any:
    """The SQL door's ``bins`` as the fold's spec takes them: ``None`` or ``"exact"`` →
    exact scores, an int → that many leading bits; anything else is an error."""
    if bins is None or bins == EXACT:
        return EXACT
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)):
        raise InvalidParameterError(
            f"the SQL door's bins must be 'exact' or an int (bits), got {bins!r}")
    return int(bins)


def distinct_sql(d: Dialect, relation: str, column: str) -> str:
    """The query of a column's distinct values (missing ones left out; at most
    ``DISTINCT_LABELS_LIMIT + 1``): run only where no score column is found by name, to
    match score columns named by the truth's classes."""
    q = d.quote(column)
    return (f"SELECT DISTINCT {q} FROM {relation} WHERE {q} IS NOT NULL "
            f"LIMIT {DISTINCT_LABELS_LIMIT + 1}")


def _distinct(src: SqlSource, relation: str, column: str) -> list[Any]:
    """A column's distinct values (:func:`distinct_sql`); none where the query fails
    (the error the door then gives stands)."""
    try:
        got = src.run(distinct_sql(src.dialect, relation, column),
                      Params(src.dialect.paramstyle))
    except Exception as exc:
        if not _is_db_error(exc):
            raise
        src.rollback()
        return []
    return [v.item() if isinstance(v, np.generic) else v
            for col in got.values() for v in col.tolist()]


def _fold(src: SqlSource, table: str | None, query: str | None, what: str | None = None,
          **o: Any) -> EvalState | SlicedState:
    d = src.dialect
    relation, what_ = relation_sql(d, table, query)
    what = what or what_
    try:
        names = [str(c) for c in src.columns(relation)]
    except Exception as exc:
        if not _is_db_error(exc):
            raise
        src.rollback()
        msg = mask_password(_first_line(exc))
        raise InvalidInputError(f"cannot read {what} from {src.label}: {msg}") from None
    bins = door_bins(o.pop("bins"))
    exact = bins == EXACT
    spec = make_spec(names, source=what, bins=bins,
                     classes_of=lambda c: _distinct(src, relation, c), **o)
    from ..core.multilabel_fold import MultilabelSpec

    if isinstance(spec, MultilabelSpec) or len(spec.columns.y_score) > 1:
        raise InvalidParameterError(
            "the SQL door folds hard predictions and one binary score column; K-class and "
            "multilabel score columns are not pushed down yet (read the rows with "
            "clfeval.evaluate_frame)")
    numeric = [*spec.columns.y_score, *([spec.columns.weight] if spec.columns.weight else [])]
    _check_numeric(src, relation, what, numeric)
    if not spec.columns.y_score:
        params = Params(d.paramstyle)
        res = _run(src, _query(d, relation, spec, _Plan("none"), params), params, what)
        return _finish(res, None, spec, _Plan("none"), what, False)
    flags: dict[str, Any] = {}
    sketch: dict[str, Any] | None = None
    if d.approx_distinct:
        # one scan first (cheap: no per-row arithmetic, one small aggregate): the number
        # of invalid rows and the scores' range, so that the queries that follow leave
        # out what cannot act (the reason of each row when none is invalid, the clamps
        # of the probabilities, the sign of the bit keys); with the score budget, the
        # engine's distinct-count sketch too
        params = Params(d.paramstyle)
        # (a DuckDB table's row count is in its metadata; elsewhere one scan counts)
        sketch = _run(src, _sketch(d, relation, spec, exact and spec.max_distinct is not None,
                                   table is not None and d.name == "duckdb"), params, what)
        flags = _sketch_flags(sketch)
    if not exact:
        b = bit_bins(spec)
        assert b is not None
        plan = _Plan("bits", bits=int(b), cal=True, **flags)
        res, cal = _binned(src, relation, spec, plan, what)
        return _finish(res, cal, spec, plan, what, False)
    plan = _Plan("exact", **{k: v for k, v in flags.items() if k != "window"})
    if spec.max_distinct is not None and sketch is not None:
        # the engine's distinct-count sketch decides far from the budget (a margin
        # of 1.5, dozens of the sketch's standard errors); near it, an exact count.
        # An exact table that still outgrows the budget converts itself. The same scan
        # gave the range of the scores: the binades of the bit keys
        n_distinct = guess = int(_num(sketch, "n", np.int64)[0])
        if spec.max_distinct / 1.5 <= guess <= spec.max_distinct * 1.5:
            params = Params(d.paramstyle)
            n_distinct = _scalar(src, _count_distinct(d, relation, spec), params, what)
        if n_distinct > spec.max_distinct:
            _warn_converted(n_distinct, spec.max_distinct)
            binned = _Plan("bits", bits=DEFAULT_CONVERT_BITS, cal=True, **flags)
            res, cal = _binned(src, relation, spec, binned, what)
            return _finish(res, cal, spec, binned, what, True)
    elif spec.max_distinct is not None:
        # one pass in bins first: when no bin holds two distinct scores, it is the
        # exact table already; when there are more bins than max_distinct, so are
        # the distinct scores and the bins are the state (the conversion)
        probe = _Plan("bits", bits=DEFAULT_CONVERT_BITS, minmax=True, cal=True)
        res, cal = _binned(src, relation, spec, probe, what)
        ok = _num(res, "reason", np.int64) < 0
        n_bins = np.unique(_num(res, "k", np.int64)[ok]).size
        xmin, xmax = _num(res, "xmin", np.float64)[ok], _num(res, "xmax", np.float64)[ok]
        if n_bins > spec.max_distinct:
            _warn_converted(n_bins, spec.max_distinct)
            return _finish(res, cal, spec, probe, what, True)
        if np.array_equal(xmin, xmax):
            res["k"] = _num(res, "xmin", np.float64)
            return _finish(res, cal, spec, plan, what, False)
        params = Params(d.paramstyle)
        n_distinct = _scalar(src, _count_distinct(d, relation, spec), params, what)
        if n_distinct > spec.max_distinct:
            _warn_converted(n_distinct, spec.max_distinct)
            return _finish(res, cal, spec, probe, what, True)
    res = _counts(src, relation, spec, plan, what)
    cal = _exact_calibration(res, spec)
    return _finish(res, cal, spec, plan, what, False)


def _counts(src: SqlSource, relation: str, spec: Spec, plan: _Plan, what: str
            ) -> dict[str, Any]:
    """The groups of the counts query (every group's ``reason`` -1 for a clean plan; the
    bit keys of the floats :func:`bit_floor_stages` found)."""
    params = Params(src.dialect.paramstyle)
    res = _run(src, _query(src.dialect, relation, spec, plan, params), params, what)
    if plan.clean:
        res["reason"] = np.full(res["n"].size, -1, np.int64)
    if plan.key == "bits" and plan.bits >= 12 and "k" in res:  # bit_floor_stages's floats
        from ..core.scores import Binning

        res["k"] = Binning.from_bits(plan.bits).keys(_num(res, "k", np.float64)
                                                     ).astype(np.int64)
    return res


def _valid_groups(res: dict[str, Any]) -> dict[str, Any]:
    """The groups of rows SQL found valid (labels are checked later, in Python)."""
    ok = _num(res, "reason", np.int64) == -1
    return {name: v[ok] for name, v in res.items()}


def _binned(src: SqlSource, relation: str, spec: Spec, plan: _Plan, what: str
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run a plan in bit keys and the calibration query (again with the calibration bins
    found by comparisons when a guessed one was off)."""
    from ..core.calibration import CalibrationCounts

    d = src.dialect
    params = Params(d.paramstyle)
    cal = _run(src, _query(d, relation, spec, plan, params, "calibration"), params, what)
    empty = CalibrationCounts.empty([False, True], pos_label=True)
    if not _bins_hold(cal, empty.edges, empty.eps):
        params = Params(d.paramstyle)
        plan = dataclasses.replace(plan, corrected=True)
        cal = _run(src, _query(d, relation, spec, plan, params, "calibration"), params, what)
    return _counts(src, relation, spec, plan, what), _log_sums(cal)


def _exact_calibration(res: dict[str, Any], spec: Spec) -> dict[str, Any]:
    """The calibration groups of an exact plan, derived in Python: each group holds one
    score (its key), so its bins are found by numpy exactly as the in-memory fold finds
    them and its sums are the score's terms times the group's count or weight — the
    terms of :func:`_calibration_sql`."""
    from ..core.calibration import N_FINE, CalibrationCounts

    empty = CalibrationCounts.empty([False, True], pos_label=True)
    eps = empty.eps
    out = _valid_groups(res)
    x = _num(out, "k", np.float64)
    n = _num(out, "n", np.int64)
    weighted = spec.columns.weight is not None
    m = _num(out, "w", np.float64) if weighted else n.astype(np.float64)
    xc = np.where((x >= 0) & (x <= 1), x, 0.5)
    xq = np.clip(xc, eps, 1.0 - eps)
    om = 1.0 - 2.0 * xc
    floors = np.asarray(_fine_floors(eps))
    terms = {"sp": xc, "spp": xc * xc, "sse1": (1.0 - xc) * (1.0 - xc),
             "nll0": -np.log(np.clip(1.0 - xc, eps, 1.0 - eps)), "nll1": -np.log(xq),
             "sx": np.log(xq / (1.0 - xq)), "z0": -xc * om, "z1": (1.0 - xc) * om,
             "v": om * om * xc * (1.0 - xc)}
    out.update({name: m * v for name, v in terms.items()})
    out.update(n=n, cb=np.searchsorted(empty.edges[1:-1], xc, side="left"),
               fb=np.clip(np.searchsorted(floors, xc, side="right") - 1, 0, N_FINE - 1),
               pmin=x, pmax=x)
    if weighted:
        out["w"] = m
    return out


def _scalar(src: SqlSource, sql: str, params: Params, what: str) -> int:
    return int(_num(_run(src, sql, params, what), "n", np.int64)[0])


def _warn_converted(n: int, max_distinct: int) -> None:
    from ..core.scores import ScoreBinningWarning

    warnings.warn(
        f"at least {n} distinct scores exceed max_distinct={max_distinct}; the score state "
        f"switched to binned mode ({DEFAULT_CONVERT_BITS} leading key bits). AUCs now carry a "
        "certified error bound; pass max_distinct=None to stay exact.", ScoreBinningWarning,
        stacklevel=4)


def _finish(res: dict[str, Any], cal: dict[str, Any] | None, spec: Spec, plan: _Plan,
            what: str, converted: bool) -> EvalState | SlicedState:
    """The state of the groups: the partial state, assembled again from the same groups
    (no query) when the positive class turns out another than the fold assumed
    (``{1, 2}`` labels: the greater), as :func:`clfeval.core.fold.finalize_resolved`."""
    part = _partials(res, cal, spec, plan, what, converted)
    pos = part.refold_pos_label(spec)
    if pos is not None:
        spec = dataclasses.replace(spec, pos_label=pos)
        part = _partials(res, cal, spec, plan, what, converted)
    out: EvalState | SlicedState = part.finalize(spec)
    return out
