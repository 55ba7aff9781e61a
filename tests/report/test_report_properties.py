"""Properties: any report round-trips through JSON, and any class name is escaped."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.report import from_json, to_html, to_json, to_markdown

# (no trailing NUL: the test builds NumPy text arrays itself, which drop them; clfeval
# refuses such labels, see tests/unit/test_validation_arguments.py)
names = st.text(min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and s != "" and not s.endswith("\x00"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), k=st.integers(2, 4), n=st.integers(1, 60), weighted=st.booleans(),
       scored=st.booleans())
def test_json_round_trip(data: st.DataObject, k: int, n: int, weighted: bool,
                         scored: bool) -> None:
    labels = data.draw(st.lists(names, min_size=k, max_size=k, unique=True))
    yt = np.array(data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n)))
    w = (np.array(data.draw(st.lists(st.floats(0.1, 5), min_size=n, max_size=n)))
         if weighted else None)
    if scored and k == 2:
        s = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)))
        r = clfeval.evaluate(yt, y_score=s, labels=labels, pos_label=labels[1],
                             sample_weight=w, cost_matrix=[[0, 1], [2, 0]])
    else:
        yp = np.array(data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n)))
        r = clfeval.evaluate(yt, yp, labels=labels, sample_weight=w)
    back = from_json(to_json(r))
    assert back == r
    assert to_json(back) == to_json(r)


@settings(max_examples=15, deadline=None)
@given(labels=st.lists(st.text(min_size=1, max_size=20).filter(lambda t: not t.endswith("\x00")),
                      min_size=2, max_size=3, unique=True))
@example(labels=["0", "<tr>"])  # (a name that is also the page's own markup)
@example(labels=["a", "<b>x</b>&'\""])
def test_any_class_name_is_escaped(labels: list[str]) -> None:
    # (labels ending in NUL are refused by design: NumPy text arrays would drop the NUL)
    y = np.array(labels * 3)
    r = clfeval.evaluate(y, y[::-1], labels=labels, title=labels[0], level=None)
    page = to_html(r)
    # the same report with plain class names: a name with markup characters must add no
    # occurrence of itself as raw text (the page's own markup may hold it: "<tr>")
    plain = [f"c{i}" for i in range(len(labels))]
    yp = np.array(plain * 3)
    base = to_html(clfeval.evaluate(yp, yp[::-1], labels=plain, title=plain[0], level=None))
    for lab in labels:
        if any(c in lab for c in "<>&\"'"):
            assert page.count(f">{lab}<") == base.count(f">{lab}<"), lab
    assert page.count("<script") == page.count("</script>")
    # Markdown: no class name can add or remove a table column (pipes are escaped)
    import re

    table: list[int] = []
    for line in [*to_markdown(r).splitlines(), ""]:
        if line.startswith("|"):
            table.append(len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))))
        elif table:
            assert len(set(table)) == 1, table
            table = []
