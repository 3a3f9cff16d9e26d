"""Arbiter corrections as samples, and the threshold choice that makes 'accepted' mean something."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from cli import main
from scanner.calibration import FieldSample, choose_threshold, fit_temperature, softmax
from scanner.errors import TrainingError
from scanner.reading import Reading
from scanner.samples import load_samples, save_correction

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _reading_with_cells(n: int) -> Reading:
    r = Reading("scan.png", 1, 0, "duplicat-v1", None)
    r.cells["depunere"] = np.random.default_rng(0).random((n, 32, 32)).astype(np.float32)
    return r


def test_correction_round_trip(tmp_path):
    r = _reading_with_cells(4)
    assert save_correction(tmp_path, r, "depunere", "quiz") is not None
    assert save_correction(tmp_path, r, "depunere", "QUIZZ") is None  # cannot align 5 chars to 4 cells
    x, y = load_samples(tmp_path, CLASSES)
    assert x.shape == (4, 32, 32)
    assert "".join(CLASSES[i] for i in y) == "QUIZ"


def test_finetune_without_samples_is_a_clear_error(tmp_path):
    with pytest.raises(TrainingError, match="no correction samples"):
        load_samples(tmp_path, CLASSES)
    r = CliRunner().invoke(main, ["reader", "finetune", str(tmp_path), "--out", str(tmp_path / "m.onnx")])
    assert r.exit_code == 2 and "error:" in r.output


def test_threshold_admits_no_known_error_at_target_zero():
    samples = [FieldSample(c, ok) for c, ok in [(0.99, True), (0.98, True), (0.95, False), (0.9, True), (0.5, False)]]
    t = choose_threshold(samples, 0.0)
    accepted = [s for s in samples if s.confidence >= t]
    assert len(accepted) == 2 and all(s.correct for s in accepted)
    assert choose_threshold([FieldSample(0.9, False)], 0.0) == 1.0


def test_temperature_softens_an_overconfident_model():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 5, 2000)
    logits = rng.normal(0, 1, (2000, 5))
    logits[np.arange(2000), labels] += 2.0
    wrong = rng.random(2000) < 0.3  # 30 % of the time the model is confidently wrong
    logits[wrong] = np.roll(logits[wrong], 1, axis=1)
    t = fit_temperature(logits * 4, labels)
    assert t > 1.5
    assert softmax(logits * 4, t).max(axis=1).mean() < softmax(logits * 4).max(axis=1).mean()
