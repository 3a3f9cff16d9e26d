"""The dot judge: how likely a written letter carries a joker dot (D 5.3.5) at its lower right.

The two shape rules of `marks` find the candidate (a pressed blob, a ballpoint dot apart) but cannot
tell a dot from the letter's own thick places: a stroke's rounded end, the vertex of a V, the foot of
an L written with a heavy pen all look like a half-seen dot to them, and a third of the plain letters
were scored between 0.05 and 0.5. The judge is a small network trained on slips drawn in the training
faces (`scanner/train/dots.py`): it looks at the letter's lower right, at the whole box around it and
at the two rules' scores, and says how likely a dot is there. Its weights are `models/dots.onnx`, its
recipe and measured figures `models/dots.json`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).parent / "models" / "dots.onnx"
PATCH = 24  # the letter's lower right, resampled to PATCH x PATCH
CONTEXT = 12  # the whole box and a little around it, CONTEXT x CONTEXT
REACH_MM = 0.8  # how far beyond the box's right and bottom edges both views reach


class DotJudge:
    """The exported network (ONNX): a row of `features` in, the dot's logit out."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        from scanner.reader import onnx_session

        self.session = onnx_session(path, threads)
        self.input = self.session.get_inputs()[0].name

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Probability of a dot for each row of `features` (N x len(features(...)))."""
        logits = self.session.run(None, {self.input: np.atleast_2d(features).astype(np.float32)})[0]
        return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(logits, np.float64).ravel(), -30, 30)))

    def probability(self, features: np.ndarray) -> float:
        return float(self.probabilities(features)[0])


@lru_cache(maxsize=1)
def shipped() -> DotJudge | None:
    """The judge shipped with the scanner; None when its weights are absent (the shape rules decide then)."""
    return DotJudge(MODEL) if MODEL.exists() else None


def _view(level: np.ndarray, x0: float, y0: float, x1: float, y1: float, size: int) -> np.ndarray:
    """The rectangle of `level` (crop pixels; paper beyond the crop) resampled to size x size."""
    ix0, iy0, ix1, iy1 = (int(round(v)) for v in (x0, y0, x1, y1))
    h, w = level.shape
    pad = max(0, -ix0, -iy0, ix1 - w, iy1 - h)
    if pad:
        level = np.pad(level, pad)
        ix0, iy0, ix1, iy1 = ix0 + pad, iy0 + pad, ix1 + pad, iy1 + pad
    part = level[iy0:max(iy1, iy0 + 1), ix0:max(ix1, ix0 + 1)]
    return cv2.resize(part, (size, size), interpolation=cv2.INTER_AREA)


def features(level: np.ndarray, box: tuple[float, float, float, float], s: float, blob: float, pen: float) -> np.ndarray:
    """What the judge sees of one box: the ink darkness (0..1) of the letter's lower right and of the
    whole box, and the scores of the blob rule and the ballpoint rule."""
    bx, by, bw, bh = box
    reach = REACH_MM * s
    corner = _view(level, bx + 0.35 * bw, by + 0.35 * bh, bx + bw + reach, by + bh + reach, PATCH)
    whole = _view(level, bx - 0.3 * s, by - 0.3 * s, bx + bw + reach, by + bh + reach, CONTEXT)
    return np.concatenate([corner.ravel(), whole.ravel(), [blob, pen]]).astype(np.float32)
