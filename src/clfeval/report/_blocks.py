"""The content of a report as neutral blocks (heading, paragraph, table, warning).

Text, Markdown and CSV renderers all walk the same blocks, so they always show the
same numbers; only the syntax differs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..exceptions import InvalidParameterError
from ._escape import visible
from ._model import BINARY_HEADLINE, MULTI_HEADLINE, Comparison, Report

__all__ = ["MATRIX_MAX_CLASSES", "Block", "blocks", "confused_pairs", "fmt", "fmt_count",
           "samples_phrase"]

#: above this many classes the text, Markdown, CSV and HTML renderers show the most confused
#: pairs instead of K×K matrices (the JSON output and the Report keep the whole matrix)
MATRIX_MAX_CLASSES = 30
#: how many most confused (actual, predicted) pairs are listed then
CONFUSED_PAIRS = 25

PER_CLASS_COLUMNS = ("tpr", "tnr", "ppv", "npv", "f1", "jaccard", "mcc_ovr")
#: blocks of other kinds of report, installed by their modules on import
#: (``clfeval.report._multilabel_render`` installs ``"multilabel"``)
KIND_BLOCKS: dict[str, Callable[..., list[Block]]] = {}


@dataclass(frozen=True)
class Block:
    """One piece of a rendered report.

    ``kind`` is ``"h1"``, ``"h2"``, ``"p"``, ``"warn"`` or ``"table"``; tables have
    ``headers`` and ``rows`` (strings) and a ``key`` naming the table (CSV section).
    """

    kind: str
    text: str = ""
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    key: str = ""


def fmt(v: Any, digits: int = 4) -> str:
    """A metric value: fixed decimals, ``n/a`` when undefined (``None`` or NaN), ``inf`` kept."""
    if v is None or v != v:
        return "n/a"
    v = float(v)
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return f"{v:.{digits}f}"


def fmt_p(v: Any) -> str:
    """A p-value: 4 decimals, or scientific notation below 1e-4 (never a bare 0.0000)."""
    if v is None or v != v:
        return "n/a"
    v = float(v)
    return f"{v:.2e}" if 0 < v < 1e-4 else f"{v:.4f}"


def fmt_count(v: Any) -> str:
    """A count: integer when whole, else 4 significant digits."""
    if v is None or v != v:
        return "n/a"
    f = float(v)
    return str(int(f)) if f == int(f) and abs(f) < 1e15 else f"{f:.6g}"


def samples_phrase(r: Report) -> str:
    """``"150 samples"``, or ``"150 rows (total weight 312.5)"`` for a weighted report."""
    if r.confusion.is_weighted:
        rows = f"{r.n_rows:,} rows" if r.n_rows else "weighted samples"
        return f"{rows} (total weight {fmt_count(r.n_samples)})"
    return f"{fmt_count(r.n_samples)} samples"


def heading(kind: str, title: str) -> str:
    """``"clfeval <kind> — <title>"``, without doubling a title that only repeats the kind
    (``"comparison"`` gives ``"clfeval comparison"``, not ``"clfeval comparison — comparison"``)."""
    t = title.strip()
    if not t or t.lower() in (kind.lower(), f"clfeval {kind}".lower()):
        return f"clfeval {kind}"
    return f"clfeval {kind} — {title}"


def _table(key: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Block:
    return Block("table", headers=tuple(headers), rows=tuple(tuple(r) for r in rows), key=key)


def headline_names(r: Report) -> tuple[str, ...]:
    """The headline metrics of a report (those present)."""
    names = BINARY_HEADLINE if r.confusion.n_classes == 2 and r.pos_label is not None \
        else MULTI_HEADLINE
    have = {row.name for row in r.overall}
    return tuple(n for n in names if n in have)


def _span(low: Any, high: Any) -> str:
    """An interval ``[low, high]`` (empty when undefined)."""
    if low is None or high is None or low != low or high != high:
        return ""
    return f"[{fmt(low)}, {fmt(high)}]"


def _methods_note(named: list[tuple[str, Any]]) -> Block:
    """How each interval shown was formed (the method names its assumptions)."""
    by: dict[str, list[str]] = {}
    for name, iv in named:
        if iv is not None:
            by.setdefault(str(iv.method), []).append(name)
    conf = next(100 * float(iv.level) for _, iv in named if iv is not None)
    parts = [f"{', '.join(names)}: {method}" for method, names in by.items()]
    return Block("p", f"{conf:g}% intervals — " + "; ".join(parts) + ".")


def _interval(r: Report, name: str) -> str:
    iv = r.row(name).interval
    if iv is None:
        return ""
    return _span(iv.low, iv.high)


def confused_pairs(r: Report, n: int = CONFUSED_PAIRS) -> Block:
    """The ``n`` largest off-diagonal cells of the confusion matrix, largest first (ties in
    matrix order): actual, predicted, count, share of the actual class."""
    import numpy as np

    c = np.asarray(r.confusion.counts, dtype=np.float64)
    k = c.shape[0]
    off = c.copy()
    off[np.arange(k), np.arange(k)] = -1.0
    flat = off.ravel()
    cells = np.flatnonzero(flat > 0)  # at most N cells, sorted stably: ties in matrix order
    top = cells[np.lexsort((cells, -flat[cells]))][:n]
    support = c.sum(axis=1)
    labels = [str(x) for x in r.labels]
    rows = [[labels[i // k], labels[i % k], fmt_count(c.flat[i]),
             fmt(100 * c.flat[i] / support[i // k], 1)] for i in top.tolist()]
    return _table("confused_pairs", ["actual", "predicted", "count", "% of actual"], rows)


def report_blocks(r: Report, *, full: bool = False, level: int = 1) -> list[Block]:
    """Blocks of one report."""
    if r.multilabel is not None:
        return KIND_BLOCKS["multilabel"](r, full=full, level=level)
    h1, h2 = ("h1", "h2") if level == 1 else ("h2", "h2")
    out = [Block(h1, heading("report", r.title))]
    cm = r.confusion
    facts = [samples_phrase(r) + f", {cm.n_classes} classes"]
    if r.pos_label is not None and cm.n_classes == 2:
        facts.append(f"positive class {r.pos_label!s}")
    if r.threshold is not None:
        facts.append(f"threshold {r.threshold:g} (score >= threshold is positive)")
    out.append(Block("p", "; ".join(facts)))
    for k, v in r.source.items():
        out.append(Block("p", f"{k}: {v}"))
    labels = [str(x) for x in r.labels]
    if cm.n_classes > MATRIX_MAX_CLASSES:
        out.append(Block(h2, "Most confused pairs"))
        out.append(Block("p", f"{cm.n_classes} classes: the {cm.n_classes}×{cm.n_classes} "
                              f"matrices are not printed (more than {MATRIX_MAX_CLASSES} "
                              f"classes); the {CONFUSED_PAIRS} largest off-diagonal counts "
                              "follow, and the JSON output holds the whole matrix."))
        out.append(confused_pairs(r))
    else:
        rows = [[lab, *(fmt_count(x) for x in row), fmt_count(sum(row))]
                for lab, row in zip(labels, cm.counts.tolist(), strict=False)]
        rows.append(["predicted total", *(fmt_count(x) for x in cm.predicted.tolist()),
                     fmt_count(r.n_samples)])
        out.append(Block(h2, "Confusion matrix (rows: actual, columns: predicted)"))
        out.append(_table("confusion_matrix", ["actual \\ predicted", *labels, "total"], rows))
        out.append(Block(h2, "Accuracy matrix (row-normalised, %)"))
        out.append(_table("accuracy_matrix", ["actual \\ predicted", *labels],
                          [[lab, *(fmt(100 * x, 1) for x in row)]
                           for lab, row in zip(labels, r.accuracy_matrix, strict=False)]))
    out.append(Block(h2, "Headline metrics"))
    has_iv = any(r.row(n).interval is not None for n in headline_names(r))
    hdr = ["metric", "value", *(["interval"] if has_iv else []), "definition"]
    out.append(_table("metrics", hdr, [
        [n, fmt(r.metric(n)), *([_interval(r, n)] if has_iv else []), r.row(n).description]
        for n in headline_names(r)]))
    if has_iv:
        out.append(_methods_note([(n, r.row(n).interval) for n in headline_names(r)]))
    if r.slices is not None:
        out.extend(slice_blocks(r, h2))
    out.append(Block(h2, "Per class (one-vs-rest)"))
    cols = [c for c in PER_CLASS_COLUMNS if c in r.per_class.metrics]
    support, predicted = cm.support.tolist(), cm.predicted.tolist()
    out.append(_table("per_class", ["class", "support", "predicted", *cols], [
        [lab, fmt_count(support[i]), fmt_count(predicted[i]),
         *(fmt(r.per_class.row(c)[i]) for c in cols)] for i, lab in enumerate(labels)]))
    ivs = [(c, r.per_class.intervals[c]) for c in cols if c in r.per_class.intervals]
    if ivs:
        methods = sorted({iv.method for _, iv in ivs})
        conf = 100 * float(ivs[0][1].level)
        out.append(Block("p", f"Per-class {conf:g}% intervals ({', '.join(methods)}):"))
        out.append(_table("per_class_intervals", ["class", *(c for c, _ in ivs)], [
            [lab, *(_span(iv.low[i], iv.high[i]) for _, iv in ivs)]
            for i, lab in enumerate(labels)]))
    if r.roc:
        out.append(Block(h2, "Score curves"))
        out.append(_table("curves", ["curve", "ROC AUC", "average precision", "P-R break-even"], [
            [roc.name, fmt(roc.area), fmt(pr.area),
             fmt(None if pr.break_even is None else pr.break_even.value)]
            for roc, pr in zip(r.roc, r.pr, strict=False)]))
    if r.cost_curve is not None:
        out.append(Block("p", f"Cost curve (Drummond & Holte): area under the lower envelope "
                              f"{r.cost_curve.area:.4f} (expected normalised cost over all "
                              "operating conditions)."))
    if r.sweep is not None and r.sweep.best:
        out.append(Block(h2, "Threshold analysis"))
        rows = [[m, f"{t:g}"] for m, t in r.sweep.best.items()]
        out.append(_table("best_thresholds", ["maximise", "at threshold"], rows))
    if r.cost is not None:
        c = r.cost
        out.append(Block(h2, "Cost"))
        txt = f"total cost {c.total_cost:g}, per sample {fmt(c.mean_cost)}"
        if c.best_threshold is not None:
            txt += (f"; least expected cost {fmt(c.best_mean_cost)} per sample at threshold "
                    f"{c.best_threshold:g}")
        out.append(Block("p", txt))
    if r.calibration is not None:
        out.extend(calibration_blocks(r.calibration, h2))
    if r.warnings:
        out.append(Block(h2, "Warnings"))
        out.extend(Block("warn", w.message) for w in r.warnings)
    if full:
        out.append(Block(h2, "All metrics"))
        out.append(_table("all_metrics", ["metric", "average", "value", "interval", "definition"], [
            [row.metric, row.average or "", fmt(row.value), _interval(r, row.name),
             row.description] for row in r.overall]))
        out.append(Block(h2, "All per-class metrics"))
        out.append(_table("all_per_class", ["metric", *labels], [
            [m, *(fmt(v) for v in vals)] for m, vals in zip(r.per_class.metrics,
                                                             r.per_class.values, strict=False)]))
    return out


def calibration_blocks(cal: Any, h2: str = "h2") -> list[Block]:
    """The calibration section: headline numbers with intervals, the main reliability
    curve's bins, and the notes (all read from the report's :class:`Calibration`)."""
    out = [Block(h2, "Calibration (are the probabilities honest?)")]
    rows = []
    for h in cal.headline():
        iv = "" if h.interval is None else f"[{fmt(h.interval.low)}, {fmt(h.interval.high)}]"
        want = {"lower": "lower is better", "higher": "higher is better"}.get(
            h.better, f"calibrated: {h.target:g}" if h.target is not None else "")
        rows.append([h.label, fmt_p(h.value) if h.key.endswith("_p") else fmt(h.value), iv,
                     want])
    out.append(_table("calibration", ["measure", "value", "interval", "reading"], rows))
    if any(h.interval is not None for h in cal.headline()):
        out.append(_methods_note([(h.label, h.interval) for h in cal.headline()]))
    c = cal.main_curve
    bins = [[f"{c.edges[i]:.3g}–{c.edges[i + 1]:.3g}", fmt_count(c.counts[i]),
             fmt(c.mean_predicted[i]), fmt(c.fraction_positive[i])]
            for i in range(len(c.counts)) if c.counts[i] > 0]
    out.append(Block("p", f"Reliability ({c.name}): observed frequency against mean predicted "
                          "probability, per bin."))
    out.append(_table("reliability", ["bin", "samples", "mean predicted", "observed"], bins))
    out.extend(Block("p", n) for n in cal.notes)
    return out


def _mean_rank_label(c: Comparison) -> str:
    """"mean rank", naming the metrics it averages when some model lacks others."""
    rt = c.ranks
    if not rt.common or len(rt.common) == len(rt.metrics):
        return "mean rank"
    return "mean rank*"


def comparison_blocks(c: Comparison, *, full: bool = False) -> list[Block]:
    """Blocks of a comparison."""
    out = [Block("h1", heading("comparison", c.title))]
    first = c.reports[0]
    space = (f"{len(first.multilabel.labels)} labels" if first.multilabel is not None
             else f"{first.confusion.n_classes} classes")
    out.append(Block("p", f"{len(c.names)} models, {samples_phrase(first)}, {space}"))
    out.append(Block("h2", "Metrics side by side"))

    def cell(r: Report, h: str) -> str:
        try:
            row = r.row(h)
        except InvalidParameterError:
            return ""
        s = fmt(row.value)
        if row.interval is not None:
            s += f" [{fmt(row.interval.low)}, {fmt(row.interval.high)}]"
        return s

    out.append(_table("comparison", ["metric", *c.names],
                      [[h, *(cell(r, h) for r in c.reports)] for h in c.headline]))
    if first.confusion.n_classes == 2 and first.pos_label is not None \
            and first.multilabel is None:
        out.append(Block("h2", "2×2 tables"))
        rows = []
        for name, r in zip(c.names, c.reports, strict=False):
            b = r.confusion.binary()
            (tn, fp), (fn, tp) = b.counts.tolist()
            rows.append([name, fmt_count(tp), fmt_count(fn), fmt_count(fp), fmt_count(tn)])
        out.append(_table("tables_2x2", ["model", "TP", "FN", "FP", "TN"], rows))
    out.append(Block("h2", "Ranks (1 = best)"))
    out.append(_table("ranks", ["metric", *c.names], [
        [m, *(fmt(v, 1) for v in row)]
        for m, row in zip(c.ranks.metrics, c.ranks.ranks, strict=False)]
        + [[_mean_rank_label(c), *(fmt(v, 2) for v in c.ranks.mean_rank)]]))
    if _mean_rank_label(c) != "mean rank":
        missing = [m for m in c.ranks.metrics if m not in c.ranks.common]
        out.append(Block("p", f"* over the {len(c.ranks.common)} metrics every model has; "
                              f"{', '.join(missing)} are missing for some model and are left "
                              "out of the mean."))
    if c.tests:
        out.append(Block("h2", "Pairwise tests"))
        out.append(_table("tests", ["test", "model A", "model B", "statistic", "p-value",
                                    "difference"], [
            [t.test, t.model_a, t.model_b, fmt(t.statistic), fmt_p(t.p_value),
             fmt(t.difference)]
            for t in c.tests]))
    if not full:
        for n, r in zip(c.names, c.reports, strict=False):
            if r.slices is not None:
                sb = slice_blocks(r)
                out.extend([Block("h2", f"{n}: {sb[0].text}"), *sb[1:]])
    warns = [(n, w) for n, r in zip(c.names, c.reports, strict=False) for w in r.warnings]
    if warns:
        out.append(Block("h2", "Warnings"))
        out.extend(Block("warn", f"{n}: {w.message}") for n, w in warns)
    if full:
        for r in c.reports:
            out.extend(report_blocks(r, full=True, level=2))
    return out


#: the slice table of the text and Markdown reports shows this many of the metrics
SLICE_TEXT_METRICS = 3


def slice_blocks(r: Report, h2: str = "h2") -> list[Block]:
    """The slice section of the text, Markdown and CSV renderings: a compact table
    (slice, rows used, the first metrics with intervals), the small-slice flag, and the
    disparities (gaps between slices, the worst slice, slices that differ from the rest,
    fairlearn's parity summaries)."""
    from ._slices import cell, key_text

    a = r.slices
    assert a is not None
    shown = a.metrics[:SLICE_TEXT_METRICS]
    out = [Block(h2, f"Slices by {', '.join(a.by)} ({len(a.slices)})")]
    rows = tuple(
        (key_text(s.key), fmt_count(s.n_used) + ("*" if s.too_small else ""),
         *(cell(s, m) for m in shown)) for s in a.slices)
    out.append(Block("table", headers=(" / ".join(a.by), "n", *shown), rows=rows,
                     key="slices"))
    notes = []
    if any(s.too_small for s in a.slices):
        notes.append(f"* fewer than {a.min_size} samples: too few to judge, left out of the "
                     "gaps, the worst slice and the tests.")
    from ._model import SLICE_REPORTS_MAX

    if len(a.slices) <= SLICE_REPORTS_MAX:
        notes.append("Each slice's full report is in the JSON and HTML renderings.")
    else:
        notes.append(f"With more than {SLICE_REPORTS_MAX} slices the JSON and HTML "
                     "renderings hold each slice's rows, not its full report.")
    out.append(Block("p", " ".join(notes)))
    d = a.disparity
    if d is None:
        return out
    gaps: list[tuple[str, ...]] = []
    differ = []
    for row in d.rows:
        sig = row.significant()
        gaps.append((row.metric, fmt(row.difference, 3), fmt(row.ratio, 3),
                     "" if row.worst is None else row.worst,
                     f"{len(sig)}" if row.test else ""))
        if sig:
            differ.append(f"{row.metric}: {', '.join(sig)}")
    out.append(Block("p", "Gaps between slices (max - min, min / max), the worst slice, "
                          "and how many slices differ from the rest (Holm, 5%):"))
    out.append(Block("table", headers=("metric", "difference", "ratio", "worst", "differ"),
                     rows=tuple(gaps), key="disparity"))
    facts = []
    if d.demographic_parity_difference == d.demographic_parity_difference:
        facts.append(f"Demographic parity difference {fmt(d.demographic_parity_difference, 3)}"
                     f", ratio {fmt(d.demographic_parity_ratio, 3)}; equalized odds "
                     f"difference {fmt(d.equalized_odds_difference, 3)}, ratio "
                     f"{fmt(d.equalized_odds_ratio, 3)} (fairlearn's definitions).")
    if differ:
        facts.append("Differ from the rest: " + "; ".join(differ) + ".")
    if facts:
        out.append(Block("p", " ".join(facts)))
    return out



def dataset_blocks(d: Any) -> list[Block]:
    """Blocks of a comparison over several data sets."""
    out = [Block("h1", heading("comparison over data sets", d.title)),
           Block("p", f"{len(d.models)} models on {len(d.datasets)} data sets, compared on "
                      f"{d.metric} ({'higher' if d.higher_is_better else 'lower'} is better)")]
    out.append(Block("h2", f"{d.metric} per data set"))
    out.append(_table("scores", ["data set", *d.models],
                      [[n, *(fmt(v) for v in row)] for n, row in zip(d.datasets, d.scores,
                                                                      strict=True)]
                      + [["average rank", *(fmt(v, 3) for v in d.average_ranks)]]))
    out.append(Block("h2", "Friedman test and Nemenyi post-hoc test (Demšar 2006)"))
    out.append(_table("friedman", ["test", "statistic", "p-value"], [
        ["Friedman chi-squared", fmt(d.friedman_statistic), fmt_p(d.friedman_p)],
        ["Iman-Davenport F", fmt(d.iman_davenport_statistic), fmt_p(d.iman_davenport_p)]]))
    groups = "; ".join(", ".join(c) for c in d.cliques) or "none"
    out.append(Block("p", f"Nemenyi critical difference at alpha = {d.alpha:g}: {d.cd:.4f}. "
                          f"Not significantly different: {groups}."))
    return out


def blocks(obj: Any, *, full: bool = False) -> list[Block]:
    """Blocks of a report, a comparison or a comparison over data sets (all text made
    visible: a control character in a class name cannot break a line or a table row)."""
    from ._datasets import DatasetComparison

    if isinstance(obj, DatasetComparison):
        out = dataset_blocks(obj)
    elif isinstance(obj, Comparison):
        out = comparison_blocks(obj, full=full)
    else:
        out = report_blocks(obj, full=full)
    return [Block(b.kind, visible(b.text), tuple(visible(h) for h in b.headers),
                  tuple(tuple(visible(c) for c in r) for r in b.rows), b.key) for b in out]
