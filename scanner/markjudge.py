"""A mark judge: a small exported network (ONNX) that says how likely a joker mark is on a box, from
views of the box's ink and the shape rules' findings. The dot judge (`dotjudge`) and the ring judge
(`ringjudge`) are two of them; this module runs either and cuts the views they look at."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class MarkJudge:
    """The exported network: a row of features in, the mark's logit out."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        from scanner.reader import onnx_session

        self.session = onnx_session(path, threads)
        self.input = self.session.get_inputs()[0].name

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Probability of a mark for each row of `features`."""
        logits = self.session.run(None, {self.input: np.atleast_2d(features).astype(np.float32)})[0]
        return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(logits, np.float64).ravel(), -30, 30)))

    def probability(self, features: np.ndarray) -> float:
        return float(self.probabilities(features)[0])


def view(level: np.ndarray, x0: float, y0: float, x1: float, y1: float, size: int) -> np.ndarray:
    """The rectangle of `level` (crop pixels; paper beyond the crop) resampled to size x size."""
    ix0, iy0, ix1, iy1 = (int(round(v)) for v in (x0, y0, x1, y1))
    h, w = level.shape
    pad = max(0, -ix0, -iy0, ix1 - w, iy1 - h)
    if pad:
        level = np.pad(level, pad)
        ix0, iy0, ix1, iy1 = ix0 + pad, iy0 + pad, ix1 + pad, iy1 + pad
    part = level[iy0:max(iy1, iy0 + 1), ix0:max(ix1, ix0 + 1)]
    return cv2.resize(part, (size, size), interpolation=cv2.INTER_AREA)
