"""Log a clfeval report to Weights & Biases (``pip install 'clfeval[wandb]'``).

:func:`log_report` puts into the current run (or a new one, finished before returning):

* the run summary: every headline metric, its interval's bounds as ``<name>_low`` /
  ``<name>_high`` (binary reports also ``tp``, ``fp``, ``fn``, ``tn``), the same numbers
  :func:`clfeval.mlflow.log_report` logs;
* the run config: threshold, positive class, number of classes and samples;
* ``clfeval/metrics``: the report's :meth:`~clfeval.report.Report.to_frame` table (every
  metric × average × class with its interval), and ``clfeval/report``: the HTML page;
* an artifact of type ``evaluation`` with ``report.json``, ``state.json`` and each curve
  as CSV and SVG.

wandb is imported only when :func:`log_report` is called.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from .exceptions import InvalidParameterError, MissingDependencyError

__all__ = ["log_report"]


def _wandb() -> Any:
    try:
        import wandb
    except ImportError:
        raise MissingDependencyError("wandb", "wandb", "clfeval.wandb") from None
    return wandb


def log_report(report: Any, *, run: Any = None, prefix: str = "",
               artifact_name: str = "clfeval-report", log_state: bool = True) -> Any:
    """Log a report's headline metrics with their interval bounds (run summary), its
    parameters (run config), its table of every number, its HTML page and its files.

    Parameters
    ----------
    report : Report
        From any door.
    run : wandb run, optional
        Default: the current run (``wandb.run``), or a new one, finished before returning.
    prefix : str
        Put before every summary and config key.
    artifact_name : str
        Name of the logged artifact.
    log_state : bool
        Also put the mergeable state in the artifact (when the report carries one).

    Returns
    -------
    The run.

    Examples
    --------
    >>> import clfeval
    >>> import clfeval.wandb, wandb  # doctest: +SKIP
    >>> r = clfeval.evaluate([0, 1, 1, 0, 1], y_score=[.2, .9, .6, .4, .3])
    >>> run = wandb.init(project="demo", mode="offline")  # doctest: +SKIP
    >>> clfeval.wandb.log_report(r, run=run).summary["roc_auc"]  # doctest: +SKIP
    0.8333333333333334
    >>> run.finish()  # doctest: +SKIP
    """
    from .report import Report, to_html, to_json
    from .report._artifacts import curve_files, metric_values, params

    if not isinstance(report, Report):
        raise InvalidParameterError(
            f"report must be a clfeval Report, got {type(report).__name__}")
    wandb = _wandb()
    started = False
    if run is None:
        run = wandb.run
        if run is None:
            run = wandb.init(job_type="evaluation")
            started = True
    try:
        run.summary.update({prefix + k: v for k, v in metric_values(report).items()})
        run.config.update({prefix + k: v for k, v in params(report).items()},
                          allow_val_change=True)
        cols = report.to_frame(backend="dict")
        table = wandb.Table(columns=list(cols), data=[
            [None if isinstance(v, float) and v != v else v for v in row]
            for row in zip(*cols.values(), strict=True)])
        run.log({f"{prefix}clfeval/metrics": table,
                 f"{prefix}clfeval/report": wandb.Html(to_html(report), inject=False)})
        art = wandb.Artifact(artifact_name, type="evaluation")
        with tempfile.TemporaryDirectory() as tmp:
            files = {"report.json": to_json(report), **curve_files(report)}
            for name, text in files.items():
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text)
            if log_state and report.state is not None:
                from .core.state import save_state

                save_state(report, os.path.join(tmp, "state.json"))
            art.add_dir(tmp)
            run.log_artifact(art)  # the files are copied to wandb's staging area here
    finally:
        if started:
            run.finish()
    return run
