"""Log a clfeval report to MLflow, and the ``clfeval`` evaluator of ``mlflow.models.evaluate``.

:func:`log_report` logs, to the active run (or a new one):

* every headline metric, and its interval's bounds as ``<name>_low`` / ``<name>_high``
  (binary reports also the four counts ``tp``, ``fp``, ``fn``, ``tn``);
* the threshold, positive class, number of classes and samples as parameters;
* under ``clfeval/`` (``artifact_path``): ``report.html`` (the self-contained page),
  ``report.json``, ``state.json`` (the mergeable state, for :func:`clfeval.merge_states`),
  and each curve as CSV and as an SVG chart (``roc.csv``, ``roc.svg``, ``pr.*``,
  ``threshold_sweep.*``, ``cost_curve.*``, ``calibration.csv``, ``reliability.svg``).

The evaluator (``evaluators=["clfeval"]``) evaluates the model's predictions (and its
``predict_proba`` scores, when the model has one) with :func:`clfeval.evaluate` and logs
the same with :func:`log_report`. It is registered with MLflow through the
``mlflow.model_evaluator`` entry point of the installed package; :func:`register_evaluator`
registers it by hand (e.g. in an environment that has not installed clfeval's metadata).

MLflow is imported only when these functions are called (``pip install 'clfeval[mlflow]'``).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from typing import Any

from .exceptions import InvalidParameterError, MissingDependencyError

__all__ = ["log_report", "metric_name", "register_evaluator"]  # and ClfevalEvaluator, built lazily

_BAD = re.compile(r"[^0-9A-Za-z_\-. /]")


def _mlflow() -> Any:
    try:
        import mlflow
    except ImportError:
        raise MissingDependencyError("mlflow", "mlflow", "clfeval.mlflow") from None
    return mlflow


def metric_name(name: str, prefix: str = "") -> str:
    """An MLflow metric or parameter key: ``prefix + name``, made safe for MLflow.

    Every character MLflow refuses (anything but letters, digits, underscore, hyphen,
    full stop, slash and space) is replaced by an underscore.

    Examples
    --------
    >>> metric_name("roc_auc_low", prefix="test:")
    'test_roc_auc_low'
    """
    return _BAD.sub("_", f"{prefix}{name}")


def log_report(report: Any, *, prefix: str = "", artifact_path: str = "clfeval",
               run_id: str | None = None, log_state: bool = True) -> str:
    """Log a report's headline metrics with their interval bounds, its parameters, the HTML
    and JSON reports, the state and the curves to MLflow.

    Parameters
    ----------
    report : Report
        From any door (:func:`clfeval.evaluate`, :func:`clfeval.evaluate_files`, Dask,
        Spark, merged states).
    prefix : str
        Put before every metric and parameter name (e.g. ``"test_"``).
    artifact_path : str
        The artifact folder of the run.
    run_id : str, optional
        Log to this run; default: the active run, or a new run (ended before returning).
    log_state : bool
        Also log the mergeable state (when the report carries one).

    Returns
    -------
    str
        The run's id.

    Examples
    --------
    >>> import clfeval, clfeval.mlflow, mlflow, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> mlflow.set_tracking_uri(f"sqlite:///{d}/mlflow.db")
    >>> exp = mlflow.create_experiment("demo", artifact_location=(d / "art").as_uri())
    >>> _ = mlflow.set_experiment(experiment_id=exp)
    >>> r = clfeval.evaluate([0, 1, 1, 0, 1], y_score=[.2, .9, .6, .4, .3])
    >>> run = clfeval.mlflow.log_report(r)
    >>> m = mlflow.get_run(run).data.metrics
    >>> m["roc_auc"] == r.metric("roc_auc"), m["tp"]
    (True, 2.0)
    """
    from .report import Report, to_html, to_json
    from .report._artifacts import curve_files, metric_values, params

    if not isinstance(report, Report):
        raise InvalidParameterError(
            f"report must be a clfeval Report, got {type(report).__name__}")
    mlflow = _mlflow()
    from mlflow.entities import Metric, Param
    from mlflow.tracking import MlflowClient

    started = False
    if run_id is None:
        active = mlflow.active_run()
        if active is None:
            active = mlflow.start_run()
            started = True
        run_id = active.info.run_id
    try:
        client = MlflowClient()
        import time

        now = int(time.time() * 1000)
        metrics = [Metric(metric_name(k, prefix), v, now, 0)
                   for k, v in metric_values(report).items()]
        ps = [Param(metric_name(k, prefix), v) for k, v in params(report).items()]
        for i in range(0, max(len(metrics), 1), 1000):  # MLflow's batch limit
            client.log_batch(run_id, metrics=metrics[i:i + 1000],
                             params=ps if i == 0 else [])
        with tempfile.TemporaryDirectory() as tmp:
            files = {"report.html": to_html(report), "report.json": to_json(report),
                     **curve_files(report)}
            for name, text in files.items():
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text)
            if log_state and report.state is not None:
                from .core.state import save_state

                save_state(report, os.path.join(tmp, "state.json"))
            client.log_artifacts(run_id, tmp, artifact_path)
    finally:
        if started:
            mlflow.end_run()
    return str(run_id)


def _evaluate(dataset: Any, model: Any, config: Mapping[str, Any]) -> Any:
    """The report of an MLflow evaluation dataset (and model)."""
    import numpy as np

    from .report import evaluate

    y_true = np.asarray(dataset.labels_data)
    y_score: Any = None
    if model is None:
        y_pred = np.asarray(dataset.predictions_data)
    else:
        import importlib

        clf: Any = importlib.import_module("mlflow.models.evaluation.evaluators.classifier")
        predict, proba = clf._extract_predict_fn_and_predict_proba_fn(model)
        x = dataset.features_data
        y_pred = np.asarray(predict(x))
        if proba is not None:
            y_score = np.asarray(proba(x), dtype=np.float64)
    known = {"pos_label", "threshold", "labels", "title", "level", "cost_matrix"}
    unknown = set(config) - known
    if unknown:
        raise InvalidParameterError(
            f"evaluator_config has unknown keys {sorted(unknown)}; known: {sorted(known)}")
    kwargs = dict(config)
    if y_score is not None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
        classes = _model_classes(model)
        if classes is None and y_score.ndim == 2 and y_score.shape[1] == labels.size:
            classes = labels.tolist()  # (a flavour without classes_: sorted, as sklearn's)
        if y_score.ndim == 2 and classes is not None and len(classes) == y_score.shape[1]:
            # the model's probability columns are its classes: read by name (labels= in
            # the config orders the report; two classes: the positive class's column)
            y_score = {c: y_score[:, i] for i, c in enumerate(classes)}
        if "threshold" not in kwargs:  # the model's own decisions are the predictions
            return evaluate(y_true, y_pred, y_score, **kwargs)
        return evaluate(y_true, None, y_score, **kwargs)
    return evaluate(y_true, y_pred, **kwargs)


def _model_classes(model: Any) -> list[Any] | None:
    """The classes of a logged model's ``predict_proba`` columns (a scikit-learn flavour's
    ``classes_``), or ``None`` when the model does not say."""
    layers: tuple[Callable[[Any], Any], ...] = (
        lambda m: m, lambda m: m.unwrap_python_model(),
        lambda m: m._model_impl.sklearn_model, lambda m: m._model_impl)
    for get in layers:
        try:
            found = getattr(get(model), "classes_", None)
        except Exception:  # (a flavour without that layer)
            continue
        if found is not None:
            return [v.item() if hasattr(v, "item") else v for v in found]
    return None


def register_evaluator(name: str = "clfeval") -> None:
    """Register :class:`ClfevalEvaluator` with MLflow under ``name`` (the installed
    package's ``mlflow.model_evaluator`` entry point does this by itself)."""
    _mlflow()
    from mlflow.models.evaluation import evaluator_registry

    registry: Any = evaluator_registry._model_evaluation_registry
    registry.register(name, _evaluator_class())


_CLASS: list[type] = []


def _evaluator_class() -> type:
    if _CLASS:
        return _CLASS[0]
    _mlflow()
    from mlflow.models.evaluation import base

    result: Any = base.EvaluationResult

    class ClfevalEvaluator(base.ModelEvaluator):
        """``mlflow.models.evaluate(..., model_type="classifier", evaluators=["clfeval"])``:
        the clfeval report of the predictions, logged by :func:`log_report`.

        ``evaluator_config`` takes :func:`clfeval.evaluate`'s ``pos_label``,
        ``threshold`` (then the scores decide), ``labels``, ``title``, ``level`` and
        ``cost_matrix``.
        """

        name = "clfeval"

        @classmethod
        def can_evaluate(cls, *, model_type: Any, evaluator_config: Any,
                         **kwargs: Any) -> bool:
            return model_type == "classifier"

        def evaluate(self, *, model_type: Any, dataset: Any, run_id: Any,
                     evaluator_config: Any, model: Any = None, extra_metrics: Any = None,
                     custom_artifacts: Any = None, predictions: Any = None,
                     **kwargs: Any) -> Any:
            report = _evaluate(dataset, model, evaluator_config or {})
            log_report(report, run_id=run_id)
            from .report._artifacts import metric_values

            return result(metrics=metric_values(report), artifacts={}, run_id=run_id)

    _CLASS.append(ClfevalEvaluator)
    return ClfevalEvaluator


def __getattr__(name: str) -> Any:
    if name == "ClfevalEvaluator":  # built on first use: it subclasses MLflow's base
        return _evaluator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
