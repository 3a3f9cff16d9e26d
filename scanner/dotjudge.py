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

import numpy as np

from scanner.markjudge import MarkJudge, view

MODEL = Path(__file__).parent / "models" / "dots.onnx"
PATCH = 24  # the letter's lower right, resampled to PATCH x PATCH
CONTEXT = 12  # the whole box and a little around it, CONTEXT x CONTEXT
REACH_MM = 0.8  # how far beyond the box's right and bottom edges both views reach
RULES = 2  # the blob rule's and the ballpoint rule's scores beside the two views


@lru_cache(maxsize=1)
def shipped() -> MarkJudge | None:
    """The judge shipped with the scanner; None when its weights are absent (the shape rules decide then)."""
    return MarkJudge(MODEL) if MODEL.exists() else None


def width() -> int:
    """Length of a row of `features`."""
    return PATCH ** 2 + CONTEXT ** 2 + RULES


def features(level: np.ndarray, box: tuple[float, float, float, float], s: float, blob: float, pen: float) -> np.ndarray:
    """What the judge sees of one box: the ink darkness (0..1) of the letter's lower right and of the
    whole box, and the scores of the blob rule and the ballpoint rule."""
    bx, by, bw, bh = box
    reach = REACH_MM * s
    corner = view(level, bx + 0.35 * bw, by + 0.35 * bh, bx + bw + reach, by + bh + reach, PATCH)
    whole = view(level, bx - 0.3 * s, by - 0.3 * s, bx + bw + reach, by + bh + reach, CONTEXT)
    return np.concatenate([corner.ravel(), whole.ravel(), [blob, pen]]).astype(np.float32)
