"""Slices: one state per group of rows, folded in the same pass as the overall state.

``by=`` names grouping columns (a region, a device, a hospital); every distinct
combination of their values is a *slice*. A sliced fold encodes and validates each
chunk once (the one :class:`~clfeval.core.fold.Folder` pass), adds it to the
overall state, then splits the encoded rows by slice — one stable sort of small
integer slice codes, contiguous segments — and adds each segment to that slice's
state. Every slice shares the overall label space, positive class, threshold and
score binning, so the slices' reports are comparable and their counts add up to the
overall counts exactly.

Slice keys are tuples with one value per grouping column, typed like labels (int,
float, str, bool); a missing value (null, empty, NaN) is its own key ``None`` — a row
is never dropped. One grouping column holds one kind of value. A fold keeps at most
``max_slices`` distinct keys (:data:`DEFAULT_MAX_SLICES`) and stops with an error
naming the count beyond that: a column with a value per row (an id) must not exhaust
memory silently.

:class:`SlicedState` is a commutative monoid like :class:`EvalState` and is saved,
loaded and merged by the same functions (:func:`~clfeval.save_state`,
:func:`~clfeval.load_state`, :func:`~clfeval.merge_states`).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ..exceptions import FileFormatError, IncompatibleStateError, InvalidInputError
from ._state import check_header, label_types, restore_labels
from ._state import field as state_field
from .chunk import Chunk
from .counts import ConfusionMatrix
from .fold import (
    Folder,
    Partial,
    Spec,
    _binary_pos_label_value,
    _bincount,
    _kind,
    _local_codes,
)
from .labels import combine_codes, to_python
from .state import STATE_TYPES, EvalState, Exclusions, _embed, check_state_dict

__all__ = ["DEFAULT_MAX_SLICES", "SlicedFolder", "SlicedState", "check_sliced_dict"]

SCHEMA = "clfeval.SlicedState"
SCHEMA_VERSION = 1
#: the most distinct slice keys a fold keeps unless ``max_slices=`` says otherwise
DEFAULT_MAX_SLICES = 10_000
#: rows whose scores wait to be folded per slice (bounded memory; fewer, larger folds)
BUFFER_ROWS = 1 << 22

Key = tuple[Any, ...]


def key_order(key: Key) -> tuple[tuple[Any, ...], ...]:
    """Sort order of slice keys: by value per column, the missing key ``None`` last."""
    return tuple((0, v) if v is not None else (1,) for v in key)


def too_many(by: Sequence[str], seen: int, cap: int) -> InvalidInputError:
    """The error of a fold that meets more than ``cap`` distinct slice keys."""
    return InvalidInputError(
        f"by={list(by)} has more than {cap:,} distinct slices ({seen:,} distinct keys seen "
        f"so far); group the column (or choose another), or raise the cap with "
        f"max_slices=")


def _check_kinds(by: Sequence[str], keys: Sequence[Key]) -> None:
    for i, name in enumerate(by):
        kinds = {_kind(k[i]) for k in keys if k[i] is not None}
        if len(kinds) > 1:
            raise IncompatibleStateError(
                f"the grouping column {name!r} holds values of different kinds "
                f"({', '.join(sorted(kinds))}); one column must hold one kind of value")


class SliceSpace:
    """Slice keys in first-seen order (one kind of value per grouping column)."""

    def __init__(self, by: tuple[str, ...], max_slices: int) -> None:
        self.by = by
        self.max_slices = max_slices
        self.keys: list[Key] = []
        self.index: dict[Key, int] = {}
        self.kinds: list[str | None] = [None] * len(by)

    def register(self, keys: Sequence[Key], chunk: Chunk) -> npt.NDArray[np.intp]:
        """Codes of ``keys``, registering new ones (kinds checked, the cap enforced)."""
        out = np.empty(len(keys), dtype=np.intp)
        for j, key in enumerate(keys):
            c = self.index.get(key)
            if c is None:
                for i, v in enumerate(key):
                    if v is None:
                        continue
                    kind = _kind(v)
                    if self.kinds[i] is None:
                        self.kinds[i] = kind
                    elif kind != self.kinds[i]:
                        raise FileFormatError(
                            f"grouping value {v!r} is a {kind} but the values seen before "
                            f"are {self.kinds[i]}s; one grouping column must hold one kind "
                            "of value", path=chunk.path, column=self.by[i])
                c = len(self.keys)
                self.index[key] = c
                self.keys.append(key)
            out[j] = c
        if len(self.keys) > self.max_slices:
            raise too_many(self.by, len(self.keys), self.max_slices)
        return out

    def chunk_codes(self, chunk: Chunk) -> npt.NDArray[np.intp]:
        """The slice code of every row of ``chunk`` (missing values: the key ``None``)."""
        locals_: list[npt.NDArray[np.intp]] = []
        values: list[list[Any]] = []
        for name in self.by:
            col = chunk.columns[name]
            local, uniq, nan = _local_codes(col)
            miss = col.missing
            if nan is not None:
                miss = nan if miss is None else (miss | nan)
            vals = [to_python(v) for v in uniq]
            if miss is not None and miss.any():
                local = np.where(miss, len(vals), local)
                vals.append(None)
            locals_.append(local)
            values.append(vals)
        comb, keys = combine_codes(locals_, values)
        return self.register(keys, chunk)[comb]


def tree_sum(items: Sequence[Any]) -> Any:
    """The sum of states by pairwise merges: O(total size × log n), not the O(n × total)
    of a left fold whose running sum grows."""
    out = list(items)
    while len(out) > 1:
        out = [out[i] + out[i + 1] if i + 1 < len(out) else out[i]
               for i in range(0, len(out), 2)]
    return out[0]


class SlicedFolder(Folder):
    """A :class:`Folder` that also folds each chunk's rows into a state per slice.

    The confusion matrices of all slices come from one keyed ``bincount`` per chunk
    (slice, truth, prediction). Score and calibration states wait in a bounded buffer
    (:data:`BUFFER_ROWS`) and are sorted by slice once per flush, so each slice's rows
    are one contiguous segment.

    One binary score column (the common case) is folded for every slice at once: one
    sort by (slice, score) gives every slice's exact score table, one keyed ``bincount``
    every slice's calibration cells and one ``unique`` the fine cells each slice holds
    (:func:`~clfeval.core.calibration.fold_binary_segments`) — no per-slice dense table,
    no per-slice pass; the overall states are folded from the same buffer, as an
    unsliced fold folds them. A slice costs its own cells, so 10,000 slices of a
    million rows fold in seconds. K-class scores and binned score states fold each
    slice's segment in turn, and the overall states are then the slices' sum.
    """

    def __init__(self, spec: Spec) -> None:
        super().__init__(spec)
        # (slices read the positive class of the whole: a sliced fold assumes it and
        # folds again when the labels say otherwise, Partial.refold_pos_label)
        self.settles, self.alt_calibration = False, None
        cap = spec.max_slices
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            from ..exceptions import InvalidParameterError

            raise InvalidParameterError(f"max_slices must be a positive int, got {cap!r}")
        self.slices = SliceSpace(spec.columns.by, cap)
        self.subs: list[Folder] = []
        dt = np.float64 if self.weighted else np.int64
        self.slice_cm: npt.NDArray[Any] = np.zeros((0, 0, 0), dtype=dt)
        self.pending: list[tuple[Any, ...]] = []
        self.pending_rows = 0
        #: per slice, score states of buffered batches awaiting a merge, as (level, state)
        #: runs merged like a binary counter: each row is merged O(log batches) times
        self.runs: list[list[tuple[int, Any]]] = []
        self.empty_scores: Any = self.scores
        self._partial: SlicedPartial | None = None  # the last partial, while no row came
        self._template: Folder | None = None
        #: one binary score column: every slice folded at once, the overall state too
        self.vectorized = spec.has_scores and not spec.multiclass_scores

    def _new_sub(self) -> Folder:
        """A slice's folder: a copy of one empty folder over the shared label space (its
        mutable tallies its own)."""
        if self._template is None:
            self._template = Folder(self.spec)
            self._template.space = self.space  # one label space: codes mean the same
        t = self._template
        sub = copy.copy(t)
        sub.excluded = t.excluded.copy()
        sub.sources, sub.last_excluded = [], []
        if t.tallies is not None:
            sub.tallies = t.tallies.copy()
        if t.cm is not None:  # (tallied in place)
            sub.cm = t.cm.copy()
        sub.settles, sub.alt_calibration = False, None
        self.runs.append([])
        return sub

    def _fold_rows(self, chunk: Chunk | None, keep: npt.NDArray[np.bool_] | None,
                   gt: npt.NDArray[np.intp] | None, gp: npt.NDArray[np.intp] | None,
                   is_pos: npt.NDArray[np.bool_] | None, scores: list[npt.NDArray[Any]],
                   w: npt.NDArray[np.float64] | None) -> None:
        assert chunk is not None
        self._partial = None
        if self.argmax and scores and (keep is None or keep.any()):
            from .calibration import top_class_and_sum_error

            gp = top_class_and_sum_error(np.column_stack(scores), ties=self.ties)[0]
        super()._fold_rows(chunk, keep, gt, gp, is_pos, [], w)  # the overall matrix
        codes = self.slices.chunk_codes(chunk)
        n_s = len(self.slices.keys)
        while len(self.subs) < n_s:
            self.subs.append(self._new_sub())
        rows = np.bincount(codes, minlength=n_s)
        for j in np.flatnonzero(rows).tolist():
            self.subs[j].n_rows += int(rows[j])
        if keep is not None:
            for r, m in self.last_excluded:
                per = np.bincount(codes[m], minlength=n_s)
                for j in np.flatnonzero(per).tolist():
                    self.subs[j].excluded[r] += int(per[j])
            codes = codes[keep]
            if codes.size == 0:
                return
        if w is not None:  # each slice's Σw² (Kish's effective sample size)
            sq = np.bincount(codes, weights=w * w, minlength=n_s)
            for j in np.flatnonzero(sq).tolist():
                self.subs[j].weight_sq = (self.subs[j].weight_sq or 0.0) + float(sq[j])
        if self.cm is not None:
            assert gt is not None
            assert gp is not None
            k = len(self.space.labels)
            if self.slice_cm.shape[0] < n_s or self.slice_cm.shape[1] < k:
                grown = np.zeros((max(n_s, self.slice_cm.shape[0]), k, k),
                                 dtype=self.slice_cm.dtype)
                s0, k0 = self.slice_cm.shape[:2]
                grown[:s0, :k0, :k0] = self.slice_cm
                self.slice_cm = grown
            s_all = self.slice_cm.shape[0]
            idx = codes * k
            idx += gt
            idx *= k
            idx += gp
            self.slice_cm += _bincount(idx, w, s_all * k * k).reshape(s_all, k, k)
        if scores:
            self.pending.append((codes, gt, is_pos, scores, w))
            self.pending_rows += codes.size
            if self.pending_rows >= BUFFER_ROWS:
                self._flush()

    def _flush(self) -> None:
        """Fold the buffered rows' scores into each slice's states (one sort by slice)."""
        if not self.pending:
            return
        parts, self.pending, self.pending_rows = self.pending, [], 0

        def cat(i: int) -> Any:
            return None if parts[0][i] is None else np.concatenate([p[i] for p in parts])

        codes, gt, is_pos, w = cat(0), cat(1), cat(2), cat(4)
        scores = [np.concatenate([p[3][c] for p in parts]) for c in range(len(parts[0][3]))]
        parts.clear()  # (the buffered arrays: now concatenated)
        n_s = len(self.slices.keys)
        counts = np.bincount(codes, minlength=n_s)
        if self.vectorized:
            # the overall states, as an unsliced fold folds them (in row order)
            Folder._fold_scores(self, gt, is_pos, scores, w)
            Folder._fold_calibration(self, gt, is_pos, scores, w)
        if np.count_nonzero(counts) > 1:
            order = np.argsort(codes.astype(np.uint16) if n_s <= 1 << 16 else codes,
                               kind="stable")
            gt = None if gt is None else gt[order]
            is_pos = None if is_pos is None else is_pos[order]
            w = None if w is None else w[order]
            scores = [s[order] for s in scores]
        if self.vectorized:
            self._flush_binary(counts, gt, is_pos, scores[0], w)
            return
        ends = np.cumsum(counts).tolist()
        for j in np.flatnonzero(counts).tolist():
            a, b = ends[j] - int(counts[j]), ends[j]
            sub = self.subs[j]
            g = None if gt is None else gt[a:b]
            p = None if is_pos is None else is_pos[a:b]
            sc = [s[a:b] for s in scores]
            ww = None if w is None else w[a:b]
            stacked = np.column_stack(sc) if len(sc) > 1 else None
            sub.scores = self.empty_scores  # this batch alone: merged below as a run
            sub._fold_scores(g, p, sc, ww, stacked)
            self._push(j, sub.scores)
            sub._fold_probabilities(g, p, sc, ww, stacked)

    def _flush_binary(self, counts: npt.NDArray[np.intp], gt: npt.NDArray[np.intp] | None,
                      is_pos: npt.NDArray[np.bool_] | None, s: npt.NDArray[Any],
                      w: npt.NDArray[np.float64] | None) -> None:
        """Fold one binary score column of rows sorted by slice into every slice's
        states at once (score table, threshold tallies, calibration)."""
        if is_pos is None:
            assert gt is not None
            pos_code = self.space.code(_binary_pos_label_value(self.spec, self.space))
            is_pos = gt == pos_code if pos_code >= 0 else np.zeros(len(gt), bool)
        present = np.flatnonzero(counts)
        n_seg = present.size
        seg = np.repeat(np.arange(n_seg, dtype=np.intp), counts[present])
        subs = [self.subs[j] for j in present.tolist()]
        if self.tallies is not None:  # (threshold= given: each slice's 2×2 tallies)
            idx = seg * 4
            idx += is_pos.astype(np.intp) * 2
            idx += s >= float(self.spec.threshold)  # type: ignore[arg-type]
            tallies = _bincount(idx, w, 4 * n_seg).reshape(n_seg, 2, 2)
            for sub, t in zip(subs, tallies, strict=True):
                assert sub.tallies is not None
                sub.tallies += t
        binning = self.empty_scores.binning
        ends = np.cumsum(counts[present]).tolist()
        starts = [e - int(c) for e, c in zip(ends, counts[present].tolist(), strict=True)]
        if binning is None:
            tables = slice_tables(seg, n_seg, s, is_pos, w)
        else:
            from .scores import score_tables

            tables = [score_tables(s[a:b], is_pos[a:b], 2, None if w is None else w[a:b],
                                   binning)[0] for a, b in zip(starts, ends, strict=True)]
        for j, (v, wt) in zip(present.tolist(), tables, strict=True):
            if v.size:  # (a slice whose rows all weigh 0 keeps no score)
                self._push(j, _table_state(self.empty_scores, v, wt))
        self._fold_slice_calibration(subs, seg, n_seg, starts, ends, is_pos, s, w)

    def _fold_slice_calibration(self, subs: list[Folder], seg: npt.NDArray[np.intp],
                                n_seg: int, starts: list[int], ends: list[int],
                                is_pos: npt.NDArray[np.bool_], s: npt.NDArray[Any],
                                w: npt.NDArray[np.float64] | None) -> None:
        """Every slice's calibration cells from one pass; a slice one of whose scores is
        not a probability has none from then on (as a plain fold)."""
        from .calibration import fold_binary_segments

        if all(sub.calibration is None for sub in subs):
            return
        p = np.asarray(s, dtype=np.float64)
        inside = (p >= 0.0) & (p <= 1.0)
        seg_ok = np.logical_and.reduceat(inside, starts) if starts else np.zeros(0, bool)
        live = [i for i, (sub, ok) in enumerate(zip(subs, seg_ok.tolist(), strict=True))
                if sub.calibration is not None and ok]
        for i, ok in enumerate(seg_ok.tolist()):
            if not ok:
                subs[i].calibration = None
        if not live:
            return
        if len(live) < n_seg:  # (rows of the slices still folding calibration only)
            rows = np.zeros(p.size, bool)
            for i in live:
                rows[starts[i]:ends[i]] = True
            remap = np.full(n_seg, -1, np.intp)
            remap[live] = np.arange(len(live))
            p, is_pos, seg = p[rows], is_pos[rows], remap[seg[rows]]
            w = None if w is None else w[rows]
        cal = subs[live[0]].calibration
        assert cal is not None
        folded = fold_binary_segments(p, np.asarray(is_pos, dtype=bool), w, seg, len(live),
                                      cal.edges, cal.eps)
        for i, batch in zip(live, cal._segments(folded, range(len(live))), strict=True):
            sub = subs[i]
            sub.calibration = sub.calibration + batch

    def _push(self, j: int, state: Any) -> None:
        runs = self.runs[j]
        runs.append((0, state))
        while len(runs) > 1 and runs[-1][0] == runs[-2][0]:
            (lvl, b), (_, a) = runs.pop(), runs.pop()
            runs.append((lvl + 1, a + b))

    def partial(self) -> Any:
        if self._partial is not None and self._partial.sources == tuple(self.sources):
            return self._partial
        self._flush()
        k = len(self.space.labels)
        parts: dict[Key, Partial] = {}
        for j, (key, sub) in enumerate(zip(self.slices.keys, self.subs, strict=True)):
            if self.spec.has_scores:
                runs = [st for _, st in self.runs[j]]
                sub.scores = tree_sum(runs) if runs else self.empty_scores
                self.runs[j] = [(99, sub.scores)]
            if sub.cm is not None:
                sub.cm = np.zeros((k, k), dtype=self.slice_cm.dtype)
                if j < self.slice_cm.shape[0]:
                    k0 = self.slice_cm.shape[1]
                    sub.cm[:k0, :k0] = self.slice_cm[j]
            parts[key] = sub.partial()
        overall = super().partial()
        if parts and self.spec.has_scores and not self.vectorized:
            # the overall score states: the slices' sum
            subs = list(parts.values())
            overall.scores = tree_sum([p.scores for p in subs])
            if overall.tallies is not None:
                overall.tallies = tree_sum([p.tallies for p in subs])
            cals = [p.calibration for p in subs]
            overall.calibration = None if any(c is None for c in cals) else tree_sum(cals)
            errs = [p.row_sum_error for p in subs]
            overall.row_sum_error = (None if any(e is None for e in errs)
                                     else max(e for e in errs if e is not None))
        self._partial = SlicedPartial(self.spec.columns.by, overall, parts,
                                      self.spec.max_slices)
        return self._partial


@dataclass
class SlicedPartial:
    """The overall partial and one partial per slice key (private; mergeable)."""

    by: tuple[str, ...]
    overall: Partial
    slices: dict[Key, Partial]
    max_slices: int

    @property
    def n_rows(self) -> int:
        return self.overall.n_rows

    @property
    def sources(self) -> tuple[str, ...]:
        return self.overall.sources

    @sources.setter
    def sources(self, value: tuple[str, ...]) -> None:
        self.overall.sources = value

    def __add__(self, other: SlicedPartial) -> SlicedPartial:
        if self.by != other.by:
            raise IncompatibleStateError(
                f"cannot merge partial results sliced by {list(self.by)} and "
                f"{list(other.by)}")
        out = dict(self.slices)
        for key, p in other.slices.items():
            out[key] = out[key] + p if key in out else p
        if len(out) > self.max_slices:
            raise too_many(self.by, len(out), self.max_slices)
        _check_kinds(self.by, list(out))
        return SlicedPartial(self.by, self.overall + other.overall, out, self.max_slices)

    def refold_pos_label(self, spec: Spec) -> Any:
        """See :meth:`Partial.refold_pos_label` (the overall labels decide)."""
        return self.overall.refold_pos_label(spec)

    def finalize(self, spec: Spec) -> SlicedState:
        """The overall state, and one state per slice over the overall labels."""
        overall = self.overall.finalize(spec)
        zero = Folder(spec)
        zero.space.lookup(self.overall.labels)
        if zero.cm is not None:
            zero.cm = np.zeros((len(zero.space.labels),) * 2, dtype=zero.cm.dtype)
        template = zero.partial()
        states = {key: _over(template, self.slices[key]).finalize(spec, allow_empty=True)
                  for key in sorted(self.slices, key=key_order)}
        return SlicedState(self.by, overall, states)


def _over(template: Partial, part: Partial) -> Partial:
    """A slice's partial over the overall labels: itself when it already has them (the
    slices of one fold share its label space), else ``template + part``."""
    same = part.labels == template.labels and part.declared == template.declared and \
        all(type(a) is type(b) for a, b in zip(part.labels, template.labels, strict=True))
    if same and (part.cm is None) == (template.cm is None) and (
            part.cm is None or part.cm.shape == template.cm.shape):  # type: ignore[union-attr]
        return part
    return template + part


def _table_state(empty: Any, values: npt.NDArray[np.float64], weights: npt.NDArray[Any]) -> Any:
    """A score state like ``empty`` holding one table built here (valid by construction)."""
    from .scores import DEFAULT_CONVERT_BITS, ScoreCounts

    return ScoreCounts([values], [weights], empty.labels, pos_label=empty.pos_label,
                       binning=empty.binning, max_distinct=empty.max_distinct,
                       convert_bits=DEFAULT_CONVERT_BITS, _trusted=True, _resolved=True)


def slice_tables(seg: npt.NDArray[np.intp], n_seg: int, s: npt.NDArray[Any],
                 is_pos: npt.NDArray[np.bool_], w: npt.NDArray[Any] | None
                 ) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[Any]]]:
    """The exact binary score table of every segment (rows grouped by ``seg``, segments
    in order) from one sort by (segment, score): per segment the strictly increasing
    distinct scores and the (negative, positive) weight at each — each the table
    :func:`~clfeval.core.scores.score_tables` gives for the segment's rows alone (the
    same stable order within a score, so the same sums; zero-weight rows left out)."""
    v = np.asarray(s).astype(np.float64, copy=False)
    c = np.asarray(is_pos, dtype=bool)
    int_w = w is not None and w.dtype.kind in "biu"
    ww = None if w is None else np.asarray(w, dtype=np.float64)
    if ww is not None and not ww.all():
        keep = ww > 0
        seg, v, c, ww = seg[keep], v[keep], c[keep], ww[keep]
    order = np.lexsort((v, seg))
    vs, ts = v[order], seg[order]
    new = np.empty(vs.size, dtype=bool)
    if vs.size:
        new[0] = True
        np.not_equal(vs[1:], vs[:-1], out=new[1:])
        new[1:] |= ts[1:] != ts[:-1]
    starts = np.flatnonzero(new)
    gid = np.cumsum(new) - 1
    idx = gid * 2
    idx += c[order]
    u = starts.size
    if ww is None:
        cnt = np.bincount(idx, minlength=2 * u).astype(np.int64, copy=False)
    else:
        cnt = np.bincount(idx, weights=ww[order], minlength=2 * u)
    table = np.ascontiguousarray(cnt.reshape(u, 2).T)
    if int_w:
        table = np.rint(table).astype(np.int64)
    values = vs[starts]
    bounds = np.searchsorted(ts[starts], np.arange(n_seg + 1)).tolist()
    return [(values[a:b].copy(), np.ascontiguousarray(table[:, a:b]))
            for a, b in itertools.pairwise(bounds)]


@dataclass(frozen=True)
class SlicedState:
    """The mergeable result of a sliced evaluation: the overall state and one per slice.

    Attributes
    ----------
    by : tuple of str
        The grouping columns (or names given to grouping arrays).
    overall : EvalState
        The state of all rows — the same as an unsliced evaluation.
    slices : mapping of tuple to EvalState
        Slice key (one value per grouping column; ``None`` for a missing value) to the
        state of its rows, in key order. Every slice has the overall labels; their
        counts add up to the overall counts.

    Examples
    --------
    >>> import clfeval
    >>> site = ["a", "a", "b", "b", "b"]
    >>> r = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], by={"site": site}, level=None)
    >>> st = r.state
    >>> list(st.slices), st.slices[("b",)].confusion.counts.tolist()
    ([('a',), ('b',)], [[1, 0], [1, 1]])
    >>> (st + st).slices[("a",)].n_rows
    4
    """

    by: tuple[str, ...]
    overall: EvalState
    slices: Mapping[Key, EvalState]

    # the overall state's fields, so a sliced state reads like an unsliced one
    @property
    def n_rows(self) -> int:
        """Rows read (all slices)."""
        return self.overall.n_rows

    @property
    def n_used(self) -> int:
        """Rows that entered the states."""
        return self.overall.n_used

    @property
    def excluded(self) -> Exclusions:
        """Rows left out, per reason."""
        return self.overall.excluded

    @property
    def sources(self) -> tuple[str, ...]:
        """The files or partitions read."""
        return self.overall.sources

    @property
    def confusion(self) -> ConfusionMatrix | None:
        """The overall confusion matrix."""
        return self.overall.confusion

    @property
    def labels(self) -> tuple[Any, ...] | None:
        """The class labels (shared by every slice)."""
        return self.overall.labels

    @property
    def threshold(self) -> float | None:
        """The threshold that turned scores into the matrices, if any."""
        return self.overall.threshold

    # ---------------------------------------------------------------- merge
    def __add__(self, other: object) -> SlicedState:
        if not isinstance(other, SlicedState):
            return NotImplemented
        if self.by != other.by:
            raise IncompatibleStateError(
                f"cannot merge states sliced by {list(self.by)} and {list(other.by)}")
        overall = self.overall + other.overall
        out = dict(self.slices)
        for key, st in other.slices.items():
            out[key] = out[key] + st if key in out else st
        _check_kinds(self.by, list(out))
        labels = overall.labels
        for key, st in out.items():
            if labels is not None and st.confusion is not None and st.labels != labels:
                out[key] = replace(st, confusion=_embed(st.confusion, labels))
        return SlicedState(self.by, overall,
                           {k: out[k] for k in sorted(out, key=key_order)})

    # ------------------------------------------------------------ serialise
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict (:meth:`from_dict` restores it exactly)."""
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "by": list(self.by),
            "overall": self.overall.to_dict(),
            "slices": [{"key": list(key), "key_types": key_types(key),
                        "state": st.to_dict()} for key, st in self.slices.items()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SlicedState:
        """Rebuild a state saved with :meth:`to_dict`, checked field by field
        (:func:`check_sliced_dict`)."""
        check_sliced_dict(data)
        slices = {restore_key(item["key"], item["key_types"]): EvalState.from_dict(item["state"])
                  for item in data["slices"]}
        return cls(tuple(data["by"]), EvalState.from_dict(data["overall"]),
                   {k: slices[k] for k in sorted(slices, key=key_order)})


def key_types(key: Key) -> list[str]:
    """JSON-safe type names of a slice key's values (``"none"`` for a missing value)."""
    return ["none" if v is None else t for v, t in zip(key, label_types(list(key)),
                                                          strict=True)]


def restore_key(values: Any, types: Any) -> Key:
    """Inverse of :func:`key_types`: the key with its Python types restored."""
    if not isinstance(values, list) or not isinstance(types, list) or \
            len(values) != len(types):
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: a slice key must be a list with one type per value")
    out: list[Any] = []
    for v, t in zip(values, types, strict=True):
        if t == "none":
            if v is not None:
                raise IncompatibleStateError(
                    f"malformed {SCHEMA} state: the missing key {v!r} must be null")
            out.append(None)
        else:
            out.extend(restore_labels([v], [t]))
    return tuple(out)


def check_sliced_dict(data: Any) -> None:
    """Check a saved :class:`SlicedState` field by field: its header, the grouping
    names, every slice's key and state (:func:`~clfeval.core.state.check_state_dict`),
    and that the slices add up to the overall state (rows read, used and excluded per
    reason; integer confusion counts cell by cell) over the same labels.

    Raises
    ------
    IncompatibleStateError
        Naming the first field that is wrong.

    Examples
    --------
    >>> import clfeval
    >>> d = clfeval.evaluate([0, 1, 1], [0, 1, 0], by={"g": [1, 1, 2]}).state.to_dict()
    >>> check_sliced_dict(d)
    >>> d["slices"][0]["state"]["confusion"]["counts"] = [[2, 0], [0, 0]]  # moved a row
    >>> check_sliced_dict(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.IncompatibleStateError: malformed clfeval.SlicedState state: ...
    """
    check_header(data, SCHEMA, SCHEMA_VERSION)
    by = state_field(data, "by", list, SCHEMA)
    if not by or not all(isinstance(b, str) for b in by) or len(set(by)) != len(by):
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: 'by' must be distinct names, got {by!r}")
    overall_d = state_field(data, "overall", dict, SCHEMA)
    check_state_dict(overall_d)
    overall = EvalState.from_dict(overall_d)
    items = state_field(data, "slices", list, SCHEMA)
    keys: set[Key] = set()
    n_rows = n_used = 0
    excluded = Exclusions()
    cm_sum: npt.NDArray[Any] | None = None
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise IncompatibleStateError(f"malformed {SCHEMA} state: slice {i} is not an object")
        key = restore_key(state_field(item, "key", list, SCHEMA),
                          state_field(item, "key_types", list, SCHEMA))
        if len(key) != len(by):
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: slice {i} has a key of {len(key)} values for "
                f"{len(by)} grouping columns")
        if key in keys:
            raise IncompatibleStateError(f"malformed {SCHEMA} state: the slice {key!r} "
                                         "appears twice")
        keys.add(key)
        sd = state_field(item, "state", dict, SCHEMA)
        check_state_dict(sd)
        st = EvalState.from_dict(sd)
        if st.labels != overall.labels or st.threshold != overall.threshold or \
                st.pos_label != overall.pos_label:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: the slice {key!r} has other labels, threshold "
                "or positive class than the overall state")
        n_rows += st.n_rows
        n_used += st.n_used
        excluded = excluded + st.excluded
        if st.confusion is not None and st.confusion.counts.dtype.kind in "iu":
            c = st.confusion.counts
            cm_sum = c.copy() if cm_sum is None else cm_sum + c
    _check_kinds(by, sorted(keys, key=key_order))
    if n_rows != overall.n_rows or n_used != overall.n_used or excluded != overall.excluded:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: the slices hold {n_rows} rows ({n_used} used) but "
            f"the overall state {overall.n_rows} ({overall.n_used} used), or their "
            "excluded rows differ")
    oc = overall.confusion
    if cm_sum is not None and oc is not None and oc.counts.dtype.kind in "iu" and \
            not np.array_equal(cm_sum, oc.counts):
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: the slices' confusion matrices do not add up to "
            "the overall one")


STATE_TYPES[SCHEMA] = SlicedState
