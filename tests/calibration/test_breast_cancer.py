"""Real data: scikit-learn's breast cancer set (shipped with scikit-learn, no network).

Gaussian naive Bayes is famously over-confident (its independence assumption pushes
probabilities to 0 and 1); a standardised logistic regression is close to calibrated.
The calibration section must say so: worse ECE, log loss and Brier score for naive
Bayes, and a calibration slope far below 1 (statsmodels agrees on the slope)."""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from clfeval.calibration import calibration_report, evaluate_calibration
from clfeval.core.calibration import CalibrationCounts


@pytest.fixture(scope="module")
def probabilities():
    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    nb = GaussianNB().fit(Xtr, ytr).predict_proba(Xte)[:, 1]
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(
        Xtr, ytr).predict_proba(Xte)[:, 1]
    return yte, nb, lr


def test_naive_bayes_is_over_confident(probabilities):
    y, nb, lr = probabilities
    c_nb = evaluate_calibration(y, nb, n_bins=10, seed=0)
    c_lr = evaluate_calibration(y, lr, n_bins=10, seed=0)
    assert c_nb.ece.ece > 2 * c_lr.ece.ece
    assert c_nb.log_loss > 5 * c_lr.log_loss
    assert c_nb.brier.score > 2 * c_lr.brier.score
    assert c_nb.brier.reliability > c_lr.brier.reliability
    # slope < 1: the predictions are too extreme; the interval excludes 1 by far
    assert c_nb.recalibration.converged
    assert c_nb.recalibration.slope + 3 * c_nb.recalibration.slope_se < 0.5
    assert c_lr.recalibration.slope > 0.8
    assert c_nb.spiegelhalter.p_value < 1e-6 < c_lr.spiegelhalter.p_value
    # the exact slope is statsmodels' (on the clipped logit)
    eps = np.finfo(float).eps
    q = np.clip(nb, eps, 1 - eps)
    ref = sm.Logit(y, sm.add_constant(np.log(q) - np.log1p(-q))).fit(disp=0, tol=1e-12)
    assert c_nb.recalibration.slope == pytest.approx(ref.params[1], rel=1e-6)


def test_streamed_state_tells_the_same_story(probabilities):
    y, nb, _ = probabilities
    parts = np.array_split(np.arange(len(y)), 5)
    state = sum(CalibrationCounts.from_predictions(y[i], nb[i], labels=[0, 1], bins=10)
                for i in parts[::-1])
    c = calibration_report(state, seed=0)
    exact = evaluate_calibration(y, nb, n_bins=10, seed=0)
    assert c.ece.ece == pytest.approx(exact.ece.ece, rel=1e-12)
    assert c.recalibration.method == "irls_fine_bins"
    assert c.recalibration.slope == pytest.approx(exact.recalibration.slope, rel=0.02)
