"""The regression gate: is the candidate model worse than the baseline — or is it noise?

:func:`gate` is a **non-inferiority test** with margin ``max_drop`` (in the metric's units).
For each gated metric (and each slice, with ``by=``) it estimates the improvement
``d = candidate − baseline`` (sign-flipped for a metric where lower is better, so ``d > 0``
always means "the candidate is better") with its standard error, and decides:

* **pass** — the data show the candidate is *not* worse by ``max_drop`` or more: the
  one-sided lower confidence bound of ``d`` lies above ``−max_drop``
  (H0: d <= −max_drop rejected);
* **fail** — the data show it *is* worse by more than ``max_drop``: the upper bound lies
  below ``−max_drop`` (H0: d >= −max_drop rejected);
* **inconclusive** — neither: too few rows to tell. The member's ``detectable_drop``
  says how large a drop this test set could tell from no drop (80 % power by default).

Each family of one-sided tests (the "not worse" tests, and the "worse" tests) is
Holm-corrected over the members, so the chance of passing a model that is worse by the
margin on some member, or of failing one that is not, is at most ``alpha``. The gate
fails when any member fails (naming which), passes when every member passes, and is
inconclusive otherwise.

The tests are the library's own, never re-derived here:

* paired (both models scored the same rows): ROC AUC — DeLong's covariance of the two
  correlated AUCs (:func:`~clfeval.stats.delong_covariance`); accuracy, error rate,
  TPR/FNR (over the positives), TNR/FPR (over the negatives) — the paired difference of
  proportions with Agresti & Min's interval
  (:func:`~clfeval.stats.noninferiority.paired_proportion_difference`); every other
  count metric (F1, MCC, kappa, balanced accuracy, precision …) and average precision —
  the paired bootstrap (:func:`~clfeval.stats.bootstrap_test`, fixed seed); the Brier
  score and log loss, means of per-row losses — the paired difference of the rows' losses
  (its standard error as :func:`~clfeval.stats.paired_t_test` gives it);
* unpaired (two saved reports or states): the difference of the two reports' values,
  its standard error from each report's own interval (DeLong, Wilson, bootstrap).
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._serial import Result
from .._validation import (
    as_1d_labels,
    as_scores,
    as_weights,
    check_consistent_length,
    label_position,
    named_table_scores,
    positive_label,
    table_names,
)
from ..core.labels import resolve_pos_label, sorted_unique, to_python
from ..exceptions import InvalidInputError, InvalidParameterError
from ..stats._results import ConfidenceInterval
from ..stats._scipy import st as _st
from ._model import Report, Slice

__all__ = ["DECISIONS", "GATE_SCHEMA", "GateMember", "GateResult", "gate"]

GATE_SCHEMA = "clfeval.Gate"
GATE_VERSION = 1
DECISIONS = ("pass", "fail", "inconclusive")
#: score and calibration metrics a gate reads from the scores, with their direction
#: (higher is better?) — the registry holds the count metrics
SCORE_METRICS: dict[str, bool] = {"roc_auc": True, "average_precision": True,
                                  "brier": False, "log_loss": False}
#: metrics gated as a paired difference of proportions, and the rows the proportion is
#: over (``None``: every row; ``True``: the positives; ``False``: the negatives)
PAIRED_PROPORTIONS: dict[str, bool | None] = {"accuracy": None, "error_rate": None,
                                              "tpr": True, "fnr": True,
                                              "tnr": False, "fpr": False}
#: bootstrap replicates of the paired bootstrap and its seed (a gate is reproducible)
N_RESAMPLES = 2000
#: the score bootstrap (average precision) resamples rows, its cost B·n: B = 1000, down to
#: 200 (a 5 % relative error in the standard error) past 20,000 rows
N_SCORE_RESAMPLES = 1000
SCORE_BOOTSTRAP_CELLS = 20_000_000
SEED = 20240601

Array = npt.NDArray[Any]


# ------------------------------------------------------------------ result
@dataclass(frozen=True, eq=False)
class GateMember(Result):
    """One gated (metric, slice) pair.

    Attributes
    ----------
    metric : str
        The metric.
    slice : str
        ``""`` for all rows, else the slice (``"region=north"``).
    decision : str
        ``"pass"``, ``"fail"`` or ``"inconclusive"``.
    baseline, candidate : float or None
        The two models' values (``None`` when undefined).
    difference : float or None
        ``candidate − baseline`` in the metric's units.
    higher_is_better : bool
        The metric's direction (a drop is a decrease when True, an increase when False).
    interval : ConfidenceInterval or None
        Interval of ``difference``: its bound on the "worse" side is the one-sided bound of
        the "not worse" test, the other that of the "worse" test, each at the level Holm's
        procedure tested this member at (``level`` is the two-sided coverage).
    p_value : float or None
        Holm-adjusted one-sided p-value of "not worse by ``max_drop``" (below ``alpha``:
        pass).
    p_worse : float or None
        Holm-adjusted one-sided p-value of "worse by more than ``max_drop``" (below
        ``alpha``: fail).
    test : str
        The test used.
    detectable_drop : float or None
        ``(z_{1−alpha/m} + z_power) × SE``: the smallest drop this test set tells from no
        drop with the gate's power (a margin below it cannot be passed reliably).
    n : int
        Rows (unpaired: both reports' rows) the test used.
    note : str
        Why a member could not be tested (too few rows of a class …), else ``""``.
    """

    metric: str
    slice: str
    decision: str
    baseline: float | None
    candidate: float | None
    difference: float | None
    higher_is_better: bool
    interval: ConfidenceInterval | None
    p_value: float | None
    p_worse: float | None
    test: str
    detectable_drop: float | None
    n: int
    note: str = ""

    @property
    def name(self) -> str:
        """``"roc_auc"`` or ``"roc_auc (region=north)"``."""
        return self.metric if not self.slice else f"{self.metric} ({self.slice})"


@dataclass(frozen=True, eq=False)
class GateResult(Result):
    """The outcome of :func:`gate`.

    Attributes
    ----------
    decision : str
        ``"pass"``, ``"fail"`` or ``"inconclusive"``.
    max_drop : float
        The margin: the largest drop (metric units) that still counts as "not worse".
    alpha : float
        The family-wise error rate of each family of one-sided tests (Holm).
    power : float
        The power the detectable drops are quoted at.
    paired : bool
        Whether both models scored the same rows (paired tests), or two reports / states
        were compared (unpaired).
    baseline_name, candidate_name : str
        The two models' names.
    by : tuple of str
        The slicing columns (empty without ``by=``).
    members : tuple of GateMember
        One per (metric, slice): all rows first, then each slice.
    sentence : str
        The decision in one readable paragraph (what fails, or why it is inconclusive).
    """

    decision: str
    max_drop: float
    alpha: float
    power: float
    paired: bool
    baseline_name: str
    candidate_name: str
    by: tuple[str, ...]
    members: tuple[GateMember, ...]
    sentence: str

    @property
    def passed(self) -> bool:
        """Whether the gate passed."""
        return self.decision == "pass"

    @property
    def failed(self) -> tuple[GateMember, ...]:
        """The members that failed."""
        return tuple(m for m in self.members if m.decision == "fail")

    @property
    def exit_code(self) -> int:
        """The command line's exit status: 0 pass, 1 fail, 3 inconclusive."""
        return {"pass": 0, "fail": 1, "inconclusive": 3}[self.decision]

    def __str__(self) -> str:
        return self.to_text()

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.Gate``)."""
        return {"schema": GATE_SCHEMA, "version": GATE_VERSION, **super().to_dict()}

    @classmethod
    def from_dict(cls, d: Any) -> GateResult:
        """Rebuild from :meth:`to_dict` output (checks schema and version)."""
        from ..core._state import check_header

        check_header(d, GATE_SCHEMA, GATE_VERSION)
        out: GateResult = super().from_dict(d)
        return out

    # ------------------------------------------------------------ renderers
    def _rows(self) -> tuple[list[str], list[list[str]]]:
        from ._blocks import fmt, fmt_p

        heads = ["metric", "slice", self.baseline_name, self.candidate_name, "difference",
                 "interval", "allowed", "p (not worse)", "p (worse)", "detectable drop",
                 "test", "decision"]
        rows = []
        for m in self.members:
            iv = m.interval
            sign = "−" if m.higher_is_better else "+"
            allowed = f"{'≥' if m.higher_is_better else '≤'} {sign}{fmt(self.max_drop)}"
            rows.append([m.metric, m.slice or "all rows", fmt(m.baseline), fmt(m.candidate),
                         _signed(m.difference),
                         "n/a" if iv is None else f"[{_signed(iv.low)}, {_signed(iv.high)}]",
                         allowed, fmt_p(m.p_value), fmt_p(m.p_worse), fmt(m.detectable_drop),
                         m.test + (f" ({m.note})" if m.note else ""),
                         m.decision.upper()])
        return heads, rows

    def _facts(self) -> str:
        how = ("paired: both models scored the same rows" if self.paired else
               "unpaired: two saved reports, each with its own rows")
        k = len(self.members)
        fam = f"Holm-corrected over {k} tests" if k > 1 else "one test"
        return (f"Non-inferiority margin {_num(self.max_drop)} (the largest drop allowed), "
                f"one-sided alpha = {_num(self.alpha)}, {fam}; {how}. Pass: p (not worse) "
                f"below alpha; fail: p (worse) below alpha (Holm-adjusted p-values). "
                f"Detectable drop: the smallest drop this test set tells from no drop with "
                f"{self.power:.0%} power.")

    def to_markdown(self) -> str:
        """GitHub-flavoured Markdown fit for a pull-request comment (user text escaped).

        Examples
        --------
        >>> import clfeval
        >>> g = clfeval.gate([0, 1] * 100, [0, 1] * 100, [0, 1] * 100, metric="accuracy",
        ...                  max_drop=0.05)
        >>> g.to_markdown().splitlines()[0]
        '## ✅ clfeval gate: PASS'
        """
        from ._text import md_escape

        icon = {"pass": "✅", "fail": "❌", "inconclusive": "⚠️"}[self.decision]
        heads, rows = self._rows()
        out = [f"## {icon} clfeval gate: {self.decision.upper()}", "",
               md_escape(self.sentence), "",
               "| " + " | ".join(md_escape(h) for h in heads) + " |",
               "|" + "|".join(":--" if j < 2 else "--:" for j in range(len(heads))) + "|"]
        for r in rows:
            cells = [md_escape(c) for c in r]
            if r[-1] in ("FAIL", "INCONCLUSIVE"):
                cells[-1] = f"**{cells[-1]}**"
            out.append("| " + " | ".join(cells) + " |")
        out += ["", f"<sub>{md_escape(self._facts())}</sub>", ""]
        return "\n".join(out)

    def to_text(self, *, width: int = 120) -> str:
        """Plain text for a terminal."""
        from ._escape import visible
        from ._text import text_table

        heads, rows = self._rows()
        lines = [f"clfeval gate: {self.decision.upper()}", "", *_wrap(visible(self.sentence),
                                                                        width), ""]
        table = text_table(heads, [[visible(c) for c in r] for r in rows], width=width)
        return "\n".join(lines) + table + "\n" + "\n".join(_wrap(self._facts(), width)) + "\n"

    def to_json(self) -> str:
        """The JSON document (:meth:`to_dict`), strict JSON."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)

    def to_html(self) -> str:
        """One self-contained HTML page (every user string escaped)."""
        from .._version import __version__
        from ._html import CSS

        heads, rows = self._rows()
        colour = {"pass": "#1a7f37", "fail": "#cf222e", "inconclusive": "#9a6700"}
        th = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r[:-1])
            + f'<td style="color:{colour[r[-1].lower()]};font-weight:600">'
              f"{html.escape(r[-1])}</td></tr>" for r in rows)
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>clfeval gate</title>"
                f"<style>{CSS}</style></head><body><main>"
                f'<h1 style="color:{colour[self.decision]}">clfeval gate: '
                f"{self.decision.upper()}</h1><p>{html.escape(self.sentence)}</p>"
                f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
                f'<p class="facts">{html.escape(self._facts())}</p>'
                f'<p class="facts">Made by clfeval {html.escape(__version__)}.</p>'
                "</main></body></html>\n")


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def _num(v: float) -> str:
    return f"{v:g}"


def _signed(v: Any) -> str:
    if v is None or v != v:
        return "n/a"
    return f"{float(v):+.4f}"


# ------------------------------------------------------------------ estimates
@dataclass(frozen=True)
class _Estimate:
    """A member's numbers before the family's correction: values, the raw difference,
    the centre of the test on the improvement scale and its standard error."""

    baseline: float | None
    candidate: float | None
    difference: float | None
    centre: float  # improvement scale (candidate better: > 0); NaN when untestable
    se: float
    test: str
    n: int
    note: str = ""


def _untestable(test: str, n: int, note: str, b: float | None = None,
                c: float | None = None) -> _Estimate:
    d = None if b is None or c is None else c - b
    return _Estimate(b, c, d, math.nan, math.nan, test, n, note)


def _direction(metric: str) -> tuple[str, bool]:
    """The canonical name of a gated metric and whether higher is better."""
    key = metric.strip().lower().replace("-", "_").replace(" ", "_")
    key = {"auc": "roc_auc", "brier_score": "brier", "brier_score_loss": "brier"}.get(key, key)
    if key in SCORE_METRICS:
        return key, SCORE_METRICS[key]
    from ..core.metric_spec import get_metric

    spec = get_metric(metric)
    if spec.higher_is_better is None:
        raise InvalidParameterError(
            f"metric={metric!r} has no direction (neither higher nor lower is better): it "
            "cannot be gated")
    return spec.name, bool(spec.higher_is_better)


# ------------------------------------------------------------------ paired
@dataclass(frozen=True)
class _Model:
    name: str
    y_pred: Array | None  # hard predictions (given, or from the scores)
    y_score: Array | None  # 1-D positive-class scores (binary) or (n, K)
    given_pred: bool


class _Paired:
    """Both models' outputs on the same rows, resolved once."""

    def __init__(self, y_true: Any, baseline: Any, candidate: Any, names: tuple[str, str], *,
                 X: Any, labels: Any, pos_label: Any, threshold: float | None,
                 response_method: str, sample_weight: Any = None) -> None:
        from ._build import (
            _from_estimator,
            _is_predictions,
            _model_outputs,
            _orient,
            default_threshold,
        )

        yt = as_1d_labels(y_true, "y_true")
        self.n = len(yt)
        self.w = as_weights(sample_weight, self.n)
        truth = set(sorted_unique(yt).tolist()) | set(labels or ())
        est_labels: list[Any] | None = None

        def outputs(m: Any) -> tuple[Any, Any]:
            nonlocal est_labels
            yp, ys, cls = _from_estimator(m, X, response_method)
            if cls is not None:
                est_labels = cls
            return yp, _orient(ys, cls, pos_label)

        raw: list[tuple[str, Any, Any]] = []
        for role, name, m in (("baseline", names[0], baseline),
                              ("candidate", names[1], candidate)):
            if m is None:
                raise InvalidInputError(f"{role} is missing")
            given = _model_outputs(role, m, X, threshold, outputs)
            if given is None:  # a bare array: labels (any non-float array) or scores
                arr = np.asarray(m)
                labels_like = arr.ndim == 1 and arr.dtype.kind in "biuUSO"
                given = (m, None) if labels_like or _is_predictions(m, truth) else (None, m)
            yp, ys = given
            if yp is None and ys is None:
                raise InvalidInputError(f"{role} gives neither y_pred nor y_score")
            raw.append((name, yp, ys))
        if labels is None and est_labels is not None:
            labels = est_labels
        if labels is None:
            labs = tuple(to_python(v) for v in sorted_unique(yt))
        else:
            labs = tuple(to_python(v) for v in labels)
            unknown = sorted(set(sorted_unique(yt).tolist()) - set(labs), key=str)
            if unknown:
                raise InvalidInputError(f"y_true holds classes {unknown[:5]} that are not in "
                                        f"labels={list(labs)[:10]}")
        self.labels = labs
        self.yt = yt
        self.pos_index: int | None = None
        self.is_pos: npt.NDArray[np.bool_] | None = None
        if len(labs) == 2:
            # the one rule of every door (positive_label): given, else with a score the
            # greater label, else 1/True
            scored = any(ys is not None for _, _, ys in raw)
            pos = positive_label(labs, pos_label, scored=scored)
            self.pos_index = (resolve_pos_label(labs, pos_label) if pos is None
                              else label_position(labs, pos))
            self.is_pos = np.asarray(yt == labs[self.pos_index], dtype=bool)
        elif len(labs) < 2 and any(ys is not None and np.ndim(ys) == 1 for _, _, ys in raw):
            raise InvalidInputError(
                f"y_true holds one class {list(labs)}: binary scores need both classes; pass "
                "labels=(negative, positive)")
        if threshold is not None:
            from .._validation import check_threshold

            threshold = check_threshold(threshold)
        models = []
        for role, (name, yp, ys) in zip(("baseline", "candidate"), raw, strict=True):
            s = None
            ties = None
            if ys is not None and table_names(ys) is not None:
                # a table of scores: its columns matched to the classes by name, as
                # evaluate reads it (the one resolved call)
                s, _, _, ties = named_table_scores(
                    yt, ys, list(labs), None if self.pos_index is None
                    else labs[self.pos_index])
            elif ys is not None:
                s = as_scores(ys, f"{role}'s y_score")
                check_consistent_length(("y_true", yt), (f"{role}'s y_score", s))
            if s is not None:
                if s.ndim == 2:
                    if s.shape[1] == 1:
                        s = s[:, 0]
                    elif s.shape[1] != len(labs):
                        raise InvalidInputError(
                            f"{role}'s y_score has {s.shape[1]} columns but there are "
                            f"{len(labs)} classes {list(labs)[:10]}")
                    elif len(labs) == 2:
                        assert self.pos_index is not None
                        s = s[:, self.pos_index]
                elif len(labs) > 2:
                    raise InvalidInputError(
                        f"{role}'s y_score is 1-D but there are {len(labs)} classes; pass one "
                        "score column per class")
            p = None
            if yp is not None:
                p = as_1d_labels(yp, f"{role}'s y_pred")
                check_consistent_length(("y_true", yt), (f"{role}'s y_pred", p))
                self._check_labels(role, p)
            elif s is not None:
                if s.ndim == 1:
                    assert self.pos_index is not None
                    thr = default_threshold(s) if threshold is None else threshold
                    pos, neg = labs[self.pos_index], labs[1 - self.pos_index]
                    p = np.where(s >= thr, pos, neg)
                else:
                    from ..core.calibration import top_class_and_sum_error

                    top = top_class_and_sum_error(s, ties=ties)[0]
                    assert top is not None
                    p = np.asarray(np.asarray(labs, dtype=object)[top].tolist())
            models.append(_Model(name, p, s, yp is not None))
        self.baseline, self.candidate = models

    def _check_labels(self, role: str, p: Array) -> None:
        from .._validation import label_kind

        if label_kind(p) != label_kind(self.yt):
            raise InvalidInputError(f"{role}'s predictions and y_true hold different kinds of "
                                    f"labels ({label_kind(p)} and {label_kind(self.yt)})")
        extra = sorted(set(sorted_unique(p).tolist()) - set(self.labels), key=str)
        if extra:
            raise InvalidInputError(
                f"{role} predicts classes {extra[:5]} that are not classes of y_true "
                f"{list(self.labels)[:10]}: the models' label sets differ (pass labels= if "
                "they are real classes, or {'y_score': ...} if they are integer scores)")

    def estimate(self, metric: str, hib: bool, rows: npt.NDArray[np.intp] | None,
                 seed: Any) -> _Estimate:
        b, c = self.baseline, self.candidate
        sign = 1.0 if hib else -1.0
        n = self.n if rows is None else len(rows)

        def sub(a: Any) -> Any:
            return a if a is None or rows is None else a[rows]

        w = sub(self.w)

        def unweighted(test: str) -> None:
            if w is not None:
                raise InvalidParameterError(
                    f"sample_weight: metric={metric!r} is gated by the {test}, which needs "
                    "unweighted rows; with weights the gate reads accuracy, error_rate, "
                    "tpr, tnr, fpr, fnr, brier and log_loss")

        if metric in SCORE_METRICS:
            for role, m in (("baseline", b), ("candidate", c)):
                if m.y_score is None:
                    raise InvalidParameterError(
                        f"metric={metric!r} needs scores, but the {role} gives only hard "
                        "predictions (y_pred)")
                if m.y_score.ndim != 1 or self.is_pos is None:
                    raise InvalidParameterError(
                        f"metric={metric!r}: the gate reads binary scores (one column); "
                        f"these data have {len(self.labels)} classes")
            is_pos = sub(self.is_pos)
            sb, sc = sub(b.y_score), sub(c.y_score)
            n_pos = int(is_pos.sum())
            if metric == "roc_auc":
                unweighted("DeLong test")
                if n_pos < 2 or n - n_pos < 2:
                    return _untestable("DeLong paired", n,
                                       f"{n_pos} positives and {n - n_pos} negatives; DeLong "
                                       "needs 2 of each")
                from ..stats import delong_covariance

                dc = delong_covariance(is_pos, np.column_stack([sb, sc]), pos_label=True)
                cov = dc.covariance
                var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
                ab, ac = float(dc.auc[0]), float(dc.auc[1])
                return _Estimate(ab, ac, ac - ab, ac - ab, math.sqrt(max(var, 0.0)),
                                 "DeLong paired", n)
            if n_pos == 0 or n_pos == n:
                return _untestable("paired bootstrap", n, "only one class in these rows")
            if metric in ("brier", "log_loss"):
                for role, s in (("baseline", sb), ("candidate", sc)):
                    if s.size and (float(s.min()) < 0.0 or float(s.max()) > 1.0):
                        raise InvalidInputError(
                            f"metric={metric!r} needs probabilities in [0, 1]; the {role}'s "
                            "scores are not")
                # a mean of per-row losses: the paired difference of the rows' losses
                lb, lc = _row_loss(metric, is_pos, sb), _row_loss(metric, is_pos, sc)
                if w is None:
                    from ..stats import paired_t_test

                    t = paired_t_test(lb, lc)  # estimate: mean(loss_b − loss_c)
                    assert t.interval is not None
                    assert t.estimate is not None
                    fb, fc = float(lb.mean()), float(lc.mean())
                    return _Estimate(fb, fc, fc - fb, float(t.estimate),
                                     float(t.interval.std_err),
                                     "paired per-row loss difference", n)
                # weights as repetitions: the same mean and standard error over the
                # repeated rows
                total = float(w.sum())
                if total <= 1.0:
                    return _untestable("paired per-row loss difference", n,
                                       "total weight 1 or less")
                fb, fc = float(w @ lb) / total, float(w @ lc) / total
                d = lb - lc
                var = float(w @ (d - (fb - fc)) ** 2) / (total - 1.0) / total
                return _Estimate(fb, fc, fc - fb, fb - fc, math.sqrt(var),
                                 "paired per-row loss difference", n)
            unweighted("paired bootstrap")
            from .. import metrics as mt
            from ..stats import bootstrap_test

            fb = float(mt.average_precision_score(is_pos, sb, pos_label=True))
            fc = float(mt.average_precision_score(is_pos, sc, pos_label=True))
            reps = int(np.clip(SCORE_BOOTSTRAP_CELLS // max(n, 1), 200, N_SCORE_RESAMPLES))
            t = bootstrap_test(is_pos, sc, sb, metric, n_resamples=reps, seed=seed,
                               pos_label=True)
            return _Estimate(fb, fc, fc - fb, sign * (fc - fb), float(t.interval.std_err)
                             if t.interval is not None else 0.0, "paired bootstrap", n)
        for role, m in (("baseline", b), ("candidate", c)):
            if m.y_pred is None:  # (cannot happen: scores give predictions)
                raise InvalidParameterError(f"metric={metric!r} needs predictions from the "
                                            f"{role}")
        yt, pb, pc = sub(self.yt), sub(b.y_pred), sub(c.y_pred)
        from ..core.counts import ConfusionMatrix

        pos = None if self.pos_index is None else self.labels[self.pos_index]
        cmb = ConfusionMatrix.from_predictions(yt, pb, labels=self.labels, pos_label=pos,
                                               sample_weight=w)
        cmc = ConfusionMatrix.from_predictions(yt, pc, labels=self.labels, pos_label=pos,
                                               sample_weight=w)
        vb, vc = _value(cmb, metric), _value(cmc, metric)
        if metric in PAIRED_PROPORTIONS:
            over = PAIRED_PROPORTIONS[metric]
            if over is None:
                keep = np.ones(n, dtype=bool)
            else:
                if self.is_pos is None:
                    raise InvalidParameterError(
                        f"metric={metric!r}: the gate reads it for a binary task; these data "
                        f"have {len(self.labels)} classes")
                keep = sub(self.is_pos) == over
            # "right" on the proportion's rows: the prediction is the true class
            rb = (pb == yt)[keep]
            rc = (pc == yt)[keep]
            m_rows = int(keep.sum())
            if m_rows == 0:
                return _untestable("paired proportions (Agresti–Min)", 0,
                                   "no rows of the class this rate is over", vb, vc)
            from ..stats.noninferiority import paired_proportion_difference

            wk = np.ones(m_rows) if w is None else w[keep]  # a weight counts as repetitions
            table = [[float(wk @ (rc & rb)), float(wk @ (rc & ~rb))],
                     [float(wk @ (~rc & rb)), float(wk @ (~rc & ~rb))]]
            if not np.asarray(table).sum() > 0:
                return _untestable("paired proportions (Agresti–Min)", m_rows,
                                   "total weight 0", vb, vc)
            ci = paired_proportion_difference(table)
            # the candidate's share right minus the baseline's (Agresti–Min's adjusted
            # estimate, the interval's midpoint): the improvement of accuracy, TPR and TNR,
            # and equally of their complements (error rate, FNR, FPR)
            centre = 0.5 * (float(ci.low) + float(ci.high))
            diff = None if vb is None or vc is None else vc - vb
            return _Estimate(vb, vc, diff, centre, float(ci.std_err),
                             "paired proportions (Agresti–Min)", m_rows)
        unweighted("paired bootstrap")
        if vb is None or vc is None:
            return _untestable("paired bootstrap", n, "the metric is undefined here", vb, vc)
        from ..stats import bootstrap_test

        t = bootstrap_test(yt, pc, pb, metric, n_resamples=N_RESAMPLES, seed=seed,
                           pos_label=pos)
        se = 0.0 if t.interval is None else float(t.interval.std_err)
        return _Estimate(vb, vc, vc - vb, sign * (vc - vb), se, "paired bootstrap", n)


def _value(cm: Any, metric: str) -> float | None:
    import warnings

    from .._serial import num

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = cm.metric(metric, zero_division=math.nan) if cm.n_classes > 2 or \
            not _per_class(metric) else cm.metric(metric, average="binary",
                                                  zero_division=math.nan)
    return num(np.asarray(v, dtype=np.float64).mean()) if np.ndim(v) else num(v)


def _per_class(metric: str) -> bool:
    from ..core.metric_spec import get_metric

    return get_metric(metric).per_class


def _row_loss(metric: str, is_pos: npt.NDArray[np.bool_], s: Array) -> Array:
    """Each row's Brier loss ``(p − y)²`` or log loss ``−log p(y)`` (probabilities clipped
    to ``[eps, 1 − eps]``, as :func:`clfeval.metrics.log_loss`): the metrics are their
    means."""
    p = np.asarray(s, dtype=np.float64)
    if metric == "brier":
        return np.asarray((p - is_pos) ** 2)
    eps = float(np.finfo(np.float64).eps)
    p = np.clip(p, eps, 1.0 - eps)
    return np.asarray(-np.log(np.where(is_pos, p, 1.0 - p)))


# ------------------------------------------------------------------ unpaired
def _as_report(obj: Any, role: str) -> Report:
    if isinstance(obj, Report):
        return obj
    from ..core.sliced import SlicedState
    from ..core.state import EvalState
    from ._build import from_state

    if isinstance(obj, (EvalState, SlicedState)):
        return from_state(obj)
    raise InvalidInputError(f"{role} must be a Report or a saved state to compare two saved "
                            f"evaluations, got {type(obj).__name__}")


def _is_saved(obj: Any) -> bool:
    from ..core.sliced import SlicedState
    from ..core.state import EvalState

    return isinstance(obj, (Report, EvalState, SlicedState))


def _unpaired_estimate(rb: Report | None, rc: Report | None, metric: str, hib: bool,
                       ) -> _Estimate:
    test = "unpaired (each report's own interval)"
    if rb is None or rc is None:
        return _untestable(test, 0, "the slice is missing from one report")
    n = int(rb.n_rows + rc.n_rows)
    rows = []
    for role, r in (("baseline", rb), ("candidate", rc)):
        try:
            rows.append(r.row(metric))
        except InvalidParameterError as exc:
            raise InvalidParameterError(f"metric={metric!r}: the {role} report cannot give it "
                                        f"({exc})") from None
    vb, vc = rows[0].value, rows[1].value
    if vb is None or vc is None:
        return _untestable(test, n, "undefined in a report", vb, vc)
    ses = []
    for row in rows:
        ci = row.interval
        if ci is None:
            return _untestable(test, n, "a report has no interval for it", vb, vc)
        se = ci.std_err
        if se is None or not math.isfinite(float(se)):
            from ..stats._scipy import two_sided_z

            se = (float(ci.high) - float(ci.low)) / (2.0 * two_sided_z(ci.level))
        ses.append(float(se))
    sign = 1.0 if hib else -1.0
    return _Estimate(vb, vc, vc - vb, sign * (vc - vb), math.hypot(*ses), test, n)


def _slices_of(r: Report) -> dict[str, Report | None]:
    if r.slices is None:
        return {}
    return {s.name(r.slices.by): s.report for s in r.slices.slices}


# ------------------------------------------------------------------ the door
def _check_margin(max_drop: Any) -> float:
    if isinstance(max_drop, bool) or not isinstance(max_drop, (int, float, np.integer,
                                                               np.floating)):
        raise InvalidParameterError(f"max_drop must be a number (the largest drop allowed, "
                                    f"in the metric's units), got {max_drop!r}")
    v = float(max_drop)
    if not math.isfinite(v) or v < 0:
        raise InvalidParameterError(
            f"max_drop must be a finite number >= 0 (the largest drop allowed, in the "
            f"metric's units; a drop is counted in the direction where the metric gets "
            f"worse), got {max_drop!r}")
    return v


def gate(
    y_true: Any,
    baseline: Any,
    candidate: Any,
    y: Any = None,
    *,
    metric: str | Sequence[str] | None = None,
    max_drop: float,
    alpha: float = 0.05,
    by: Any = None,
    sample_weight: Any = None,
    X: Any = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    response_method: str = "auto",
    power: float = 0.8,
    names: tuple[str, str] = ("baseline", "candidate"),
    seed: Any = SEED,
) -> GateResult:
    """Is the candidate model worse than the baseline by ``max_drop`` or more?

    A non-inferiority test per metric (and per slice): **pass** when the data show the
    candidate is not worse by ``max_drop`` or more, **fail** when they show it is worse by
    more, **inconclusive** when the test set is too small to tell (see the module's
    documentation for the tests). The pass rate of a candidate truly worse by exactly
    ``max_drop`` is at most ``alpha``.

    Parameters
    ----------
    y_true : array-like of shape (n,) or None
        The true classes of the rows both models scored. ``None`` when ``baseline`` and
        ``candidate`` are saved reports or states (compared unpaired).
    baseline, candidate : predictions, scores, mapping, estimator, Report or EvalState
        As a model of :func:`clfeval.compare`: hard predictions (1-D, values among the
        classes), scores (1-D positive-class scores or an (n, K) matrix), a mapping with
        ``"y_pred"`` and/or ``"y_score"``, or a fitted estimator (pass ``X``). Or two
        :class:`~clfeval.Report` s / saved states (then ``y_true=None``): each report's
        values and intervals are compared unpaired, which is less powerful than paired
        rows — the result says so.
    y : array-like of shape (n,), optional
        With two estimators, the call may be ``gate(baseline, candidate, X, y)`` — the
        order of ``evaluate(estimator, X, y)``: the estimators first, then the features
        and the true classes (the same as ``gate(y, baseline, candidate, X=X)``).
    metric : str or sequence of str, optional
        The metric(s) to gate: ``"roc_auc"``, ``"average_precision"``, ``"brier"``,
        ``"log_loss"`` (scores) or any registered metric with a direction
        (``"accuracy"``, ``"f1"``, ``"mcc"``, ``"recall"`` …). Default: ``"roc_auc"``
        when both models give binary scores, else ``"accuracy"`` (hard predictions, or
        K-class scores read by their arg-max class).
    max_drop : float
        The margin, in the metric's units: the largest drop that still counts as "not
        worse" (a decrease for higher-is-better metrics, an increase for the others).
        0 asks for evidence that the candidate is at least as good.
    alpha : float, default 0.05
        Family-wise error rate of the one-sided tests (Holm over metrics × slices).
    by : array-like, list, mapping or DataFrame, optional
        Groups of the rows (as :func:`clfeval.evaluate`): every slice is gated too. With
        reports, the reports' own slices are matched by name.
    sample_weight : array-like of shape (n,), optional
        Row weights, read as repetitions (a weight of 2 counts a row twice): accepted for
        the paired proportions (accuracy, error rate, TPR, TNR, FPR, FNR) and the per-row
        losses (Brier score, log loss); DeLong's test and the paired bootstrap need
        unweighted rows (an error names ``sample_weight``). Saved reports carry their own.
    X : array-like, optional
        Features, for estimator models.
    labels, pos_label, threshold, response_method
        As in :func:`clfeval.evaluate` (``threshold`` turns binary scores into predictions
        for the count metrics).
    power : float, default 0.8
        The power the detectable drops are quoted at.
    names : (str, str)
        Display names of the two models.
    seed : int, optional
        Seed of the paired bootstrap (fixed by default: a gate is reproducible).

    Returns
    -------
    GateResult

    Raises
    ------
    InvalidParameterError
        A negative or non-finite ``max_drop``, an unknown metric or one without a
        direction, a metric the models cannot give (ROC AUC from hard predictions).
    InvalidInputError
        Different rows (lengths), different label sets, reports over different classes.

    Examples
    --------
    >>> import numpy as np, clfeval
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 2000)
    >>> base = y + rng.normal(0, 1.0, 2000)
    >>> cand = base + rng.normal(0, 0.1, 2000)  # the same model, a little noise added
    >>> g = clfeval.gate(y, base, cand, metric="roc_auc", max_drop=0.02)
    >>> g.decision, g.members[0].test
    ('pass', 'DeLong paired')
    >>> worse = y + rng.normal(0, 2.0, 2000)
    >>> clfeval.gate(y, base, worse, metric="roc_auc", max_drop=0.02).decision
    'fail'
    """
    if y is not None:  # gate(baseline, candidate, X, y), as evaluate(estimator, X, y)
        from ._build import _is_estimator

        if not (_is_estimator(y_true) and _is_estimator(baseline)):
            raise InvalidParameterError(
                "gate(baseline, candidate, X, y) is for two estimators; with predictions "
                "or scores call gate(y_true, baseline, candidate)")
        if X is not None:
            raise InvalidParameterError(
                "gate(baseline, candidate, X, y) gives the features third: do not pass X= "
                "too")
        y_true, baseline, candidate, X = y, y_true, baseline, candidate
    margin = _check_margin(max_drop)
    from ..stats.tests import _check_alpha

    alpha = _check_alpha(alpha)
    if alpha >= 0.5:
        raise InvalidParameterError(
            f"alpha must be below 0.5 (a one-sided error rate), got {alpha!r}")
    if not isinstance(power, (int, float)) or not 0.0 < float(power) < 1.0:
        raise InvalidParameterError(f"power must be in (0, 1), got {power!r}")
    def resolve(metric: str | Sequence[str]) -> list[tuple[str, bool]]:
        metrics = [metric] if isinstance(metric, str) else list(metric)
        if not metrics or not all(isinstance(m, str) for m in metrics):
            raise InvalidParameterError(
                f"metric must be a name or a list of names, got {metric!r}")
        out = [_direction(m) for m in metrics]
        if len({m for m, _ in out}) != len(out):
            raise InvalidParameterError(f"metric names a metric twice: {metrics}")
        return out

    resolved = [] if metric is None else resolve(metric)
    if len(names) != 2 or len(set(map(str, names))) != 2:
        raise InvalidParameterError(f"names must be two different names, got {names!r}")
    nb, nc = str(names[0]), str(names[1])

    saved = [_is_saved(baseline), _is_saved(candidate)]
    estimates: list[tuple[str, str, bool, _Estimate]] = []
    by_names: tuple[str, ...] = ()
    if any(saved):
        if not all(saved):
            raise InvalidInputError(
                "baseline and candidate must both be predictions/models (paired) or both "
                "saved reports/states (unpaired)")
        if y_true is not None or X is not None or sample_weight is not None:
            raise InvalidParameterError(
                "y_true, X and sample_weight do not apply to saved reports: call "
                "gate(None, baseline, candidate, ...)")
        if by is not None:
            raise InvalidParameterError(
                "by= does not apply to saved reports: their own slices are gated (evaluate "
                "them with by=)")
        rb, rc = _as_report(baseline, "baseline"), _as_report(candidate, "candidate")
        if tuple(rb.labels) != tuple(rc.labels):
            raise InvalidInputError(
                f"the reports are over different classes: baseline {list(rb.labels)[:10]}, "
                f"candidate {list(rc.labels)[:10]}")
        sb, sc = _slices_of(rb), _slices_of(rc)
        if (rb.slices is None) != (rc.slices is None) or (
                rb.slices is not None and rc.slices is not None
                and rb.slices.by != rc.slices.by):
            raise InvalidInputError("the reports are sliced differently (by=): gate reports "
                                    "sliced by the same columns, or neither")
        if rb.slices is not None:
            by_names = tuple(rb.slices.by)
        if metric is None:  # (the default: AUC when both reports have one)
            resolved = resolve("roc_auc" if all(any(r.name == "roc_auc" for r in x.overall)
                                                for x in (rb, rc)) else "accuracy")
        keys = list(sb) + [k for k in sc if k not in sb]
        for m, hib in resolved:
            estimates.append((m, "", hib, _unpaired_estimate(rb, rc, m, hib)))
            for k in keys:
                estimates.append((m, k, hib, _unpaired_estimate(sb.get(k), sc.get(k), m, hib)))
        paired = False
    else:
        if y_true is None:
            raise InvalidInputError("y_true is required with predictions, scores or models")
        data = _Paired(y_true, baseline, candidate, (nb, nc), X=X, labels=labels,
                       pos_label=pos_label, threshold=threshold,
                       response_method=response_method, sample_weight=sample_weight)
        if metric is None:  # (the default: AUC when both models give binary scores)
            resolved = resolve("roc_auc" if all(m.y_score is not None and m.y_score.ndim == 1
                                                for m in (data.baseline, data.candidate))
                               else "accuracy")
        groups: list[tuple[str, npt.NDArray[np.intp] | None]] = [("", None)]
        if by is not None:
            from ._slices import slice_rows

            by_names, parts = slice_rows(by, data.n)
            groups += [(Slice(k, len(r), len(r), False).name(by_names), r) for k, r in parts]
        for m, hib in resolved:
            # a per-class metric of K > 2 classes is read macro-averaged: say so
            shown = (f"{m}_macro" if len(data.labels) > 2 and m not in SCORE_METRICS
                     and _per_class(m) else m)
            for label, rows in groups:
                estimates.append((shown, label, hib, data.estimate(m, hib, rows, seed)))
        paired = True
    members = _decide(estimates, margin, alpha, float(power))
    decision = ("fail" if any(m.decision == "fail" for m in members) else
                "pass" if all(m.decision == "pass" for m in members) else "inconclusive")
    result = GateResult(decision, margin, alpha, float(power), paired, nb, nc, by_names,
                        tuple(members), "")
    return dataclasses.replace(result, sentence=_sentence(result))


def _decide(estimates: Sequence[tuple[str, str, bool, _Estimate]], margin: float,
            alpha: float, power: float) -> list[GateMember]:
    """Each member's one-sided tests, Holm-corrected family by family, and its decision."""
    from ..stats import holm_adjust
    from ..stats.noninferiority import noninferiority

    ok = [math.isfinite(e.centre) and math.isfinite(e.se) for _, _, _, e in estimates]
    m = max(sum(ok), 1)
    tests = [noninferiority(e.centre, e.se, margin, alpha=alpha / m, power=power) if good
             else None for (_, _, _, e), good in zip(estimates, ok, strict=True)]
    p_pass = np.array([np.nan if t is None else t.p_not_worse for t in tests])
    p_fail = np.array([np.nan if t is None else t.p_worse for t in tests])
    adj_pass, adj_fail = holm_adjust(p_pass), holm_adjust(p_fail)
    # the level Holm tests each member at: alpha / (m − rank + 1), rank by p-value
    lvl_pass, lvl_fail = _holm_levels(p_pass, alpha), _holm_levels(p_fail, alpha)
    out = []
    for i, ((metric, label, hib, e), t) in enumerate(zip(estimates, tests, strict=True)):
        if t is None:
            out.append(GateMember(metric, label, "inconclusive", e.baseline, e.candidate,
                                  e.difference, hib, None, None, None, e.test, None, e.n,
                                  e.note))
            continue
        lo = e.centre - float(_st.norm.isf(lvl_pass[i])) * e.se  # improvement scale
        hi = e.centre + float(_st.norm.isf(lvl_fail[i])) * e.se
        low, high = (lo, hi) if hib else (-hi, -lo)
        est = e.difference if e.difference is not None else (e.centre if hib else -e.centre)
        ci = ConfidenceInterval(est, low, high, 1.0 - lvl_pass[i] - lvl_fail[i], e.test,
                                std_err=e.se)
        if adj_fail[i] < alpha:
            decision = "fail"
        elif adj_pass[i] < alpha:
            decision = "pass"
        else:
            decision = "inconclusive"
        out.append(GateMember(metric, label, decision, e.baseline, e.candidate, e.difference,
                              hib, ci, float(adj_pass[i]), float(adj_fail[i]), e.test,
                              t.detectable, e.n, e.note))
    return out


def _holm_levels(p: Array, alpha: float) -> Array:
    out = np.full(len(p), alpha)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    out[order] = alpha / (m - np.arange(m))
    return out


def _sentence(g: GateResult) -> str:
    from ._blocks import fmt, fmt_p

    how = "paired" if g.paired else "unpaired (two saved reports)"
    drop = _num(g.max_drop)
    if g.decision == "fail":
        parts = []
        for m in g.failed[:5]:
            assert m.interval is not None
            bound = m.interval.high if m.higher_is_better else m.interval.low
            parts.append(f"{m.name}: {fmt(m.baseline)} → {fmt(m.candidate)} "
                         f"(difference {_signed(m.difference)}, bound {_signed(bound)}, "
                         f"p = {fmt_p(m.p_worse)})")
        return (f"FAIL: {g.candidate_name} is worse than {g.baseline_name} by more than the "
                f"allowed {drop} on {len(g.failed)} of {len(g.members)} gated "
                f"{_what(g)} — "
                + "; ".join(parts)
                + (f" and {len(g.failed) - 5} more" if len(g.failed) > 5 else "")
                + f" ({how} tests, alpha = {_num(g.alpha)}).")
    if g.decision == "pass":
        if len(g.members) == 1:
            m = g.members[0]
            assert m.interval is not None
            bound = m.interval.low if m.higher_is_better else m.interval.high
            return (f"PASS: {g.candidate_name} is not worse than {g.baseline_name} by {drop} "
                    f"or more on {m.name}: {fmt(m.baseline)} → {fmt(m.candidate)} "
                    f"(difference {_signed(m.difference)}, one-sided bound {_signed(bound)}; "
                    f"{m.test}, p = {fmt_p(m.p_value)}).")
        return (f"PASS: {g.candidate_name} is not worse than {g.baseline_name} by {drop} or "
                f"more on any of the {len(g.members)} gated {_what(g)} ({how} tests, "
                f"alpha = {_num(g.alpha)}, Holm-corrected).")
    unsure = [m for m in g.members if m.decision == "inconclusive"]
    parts = []
    for m in unsure[:5]:
        if m.interval is None:
            parts.append(f"{m.name}: not testable ({m.note})")
            continue
        parts.append(f"{m.name}: difference {_signed(m.difference)}, interval "
                     f"[{_signed(m.interval.low)}, {_signed(m.interval.high)}], detectable "
                     f"drop {fmt(m.detectable_drop)}")
    more = f" and {len(unsure) - 5} more" if len(unsure) > 5 else ""
    return (f"INCONCLUSIVE: the data cannot tell whether {g.candidate_name} is worse than "
            f"{g.baseline_name} by {drop} or more on {len(unsure)} of {len(g.members)} gated "
            f"{_what(g)} — "
            + "; ".join(parts) + more
            + ". A detectable drop larger than the margin means the test set is too small "
              "for it: add rows, or gate with a larger max_drop.")


def _what(g: GateResult) -> str:
    """What the members are: ``metric``, ``metrics`` or ``metric × slice pairs``."""
    if len(g.members) == 1:
        return "metric"
    return "metric × slice pairs" if g.by else "metrics"
