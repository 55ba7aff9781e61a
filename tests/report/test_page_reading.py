"""What a person reads on the HTML page: the cost curve's legend does not cover the lower
envelope (which runs along the bottom), and in a multiclass reliability diagram the
top-label curve has a colour no class curve has (with 10 classes P(0) and top-label
shared one)."""

from __future__ import annotations

import re

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.report import to_html
from clfeval.report._html import TOP_LABEL_COLOUR


def _svg(html: str, suffix: str) -> str:
    m = re.search(r'<svg[^>]*id="[^"]*-' + suffix + r'".*?</svg>', html, re.S)
    assert m is not None, suffix
    return m.group(0)


def test_cost_curve_legend_sits_above_the_envelope() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    m = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[:300], y[:300])
    r = clfeval.evaluate(m, X[300:], y[300:])
    svg = _svg(to_html(r), "cc")
    box = re.search(r'class="legbox" x="[^"]+" y="([^"]+)"', svg)
    assert box is not None
    height = float(re.search(r'viewBox="0 0 [^ ]+ ([^"]+)"', svg).group(1))  # type: ignore[union-attr]
    assert float(box.group(1)) < height / 3  # in the top third: the envelope is low


def test_top_label_curve_has_its_own_colour() -> None:
    rng = np.random.default_rng(0)
    k = rng.integers(0, 10, 3000)
    p = rng.dirichlet(np.ones(10), 3000)
    p[np.arange(3000), k] += 1.0
    r = clfeval.evaluate(k, y_score=p / p.sum(axis=1, keepdims=True))
    svg = _svg(to_html(r), "rel")
    legend = dict((name, colour) for colour, name in re.findall(
        r'stroke="(#[0-9a-fA-F]{6})" stroke-width="2"/><text[^>]*>([^<]*)<title>', svg))
    assert legend["top-label"] == TOP_LABEL_COLOUR
    class_colours = [c for n, c in legend.items() if n != "top-label"]
    assert len(class_colours) == 10 and TOP_LABEL_COLOUR not in class_colours
