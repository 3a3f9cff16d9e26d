"""The reader's confusions fitted in bands of its confidence (`confusion.fit_by_confidence`): a box
read at 0.999 is not lent the errors of the boxes read at 0.6."""
from __future__ import annotations

import numpy as np

from corrector.decoding.confusion import ConfusionByConfidence, fit, fit_by_confidence, load_confusion, save_confusion
from corrector.decoding.evidence import CLASSES

SEVEN, ONE = CLASSES.index("7"), CLASSES.index("1")


def read_as_seven(confidence: float) -> np.ndarray:
    """A box the reader reads 7 at `confidence`, with most of the rest on 1."""
    p = np.full(len(CLASSES), 0.1 * (1 - confidence) / (len(CLASSES) - 2))
    p[SEVEN], p[ONE] = confidence, 0.9 * (1 - confidence)
    return p / p.sum()


def calibration_boxes() -> list[tuple[np.ndarray, str]]:
    """A hand whose 1 looks like a 7: read at 0.95, it is a 1 half of the time; read at 0.999, never."""
    sure, unsure = read_as_seven(0.999), read_as_seven(0.95)
    return [(sure, "7")] * 400 + [(unsure, "7")] * 30 + [(unsure, "1")] * 30


def test_a_seven_read_unsure_is_often_a_one_while_a_seven_read_sure_stays_a_seven():
    boxes = calibration_boxes()
    banded, single = fit_by_confidence(boxes, CLASSES), fit(boxes, CLASSES)
    sure, unsure = read_as_seven(0.999), read_as_seven(0.95)
    assert banded.band(sure) is not banded.band(unsure)
    assert banded.mix(sure)[ONE] < 0.01 and banded.mix(unsure)[ONE] > 0.3
    # one matrix for every box cannot do both: it either lends the sure 7 the unsure ones' 1s or
    # leaves the unsure 7 nearly sure
    assert single.mix(sure)[ONE] > 0.01 or single.mix(unsure)[ONE] < 0.3
    for p in (sure, unsure):
        assert abs(banded.mix(p).sum() - 1) < 1e-9


def test_the_bands_are_kept_and_read_back_as_data(tmp_path):
    banded = fit_by_confidence(calibration_boxes(), CLASSES)
    path = tmp_path / "confusion.json"
    save_confusion(banded, path)
    loaded = load_confusion(path)
    assert isinstance(loaded, ConfusionByConfidence) and loaded.edges == banded.edges
    for p in (read_as_seven(0.999), read_as_seven(0.95), read_as_seven(0.7)):
        assert np.allclose(loaded.mix(p), banded.mix(p), atol=1e-6)
