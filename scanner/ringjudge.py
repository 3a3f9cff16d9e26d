"""The ring judge: how likely a ring the shape rules fitted around a letter is a joker circle (D 5.3.5).

The rules of `marks` take a ring only when the ink inside it is a letter apart from it: an O, a D
or a Q's bowl holds nothing, the heavy stem of a U lines its own outline. Those rules also turned
down a tenth of the circles drawn: a B or an M whose strokes touch the ring drawn tight around it,
a ring much larger than the box, a script letter leaning across its ring. The reader then read the
ring as an O around nothing, and the decoder ruled the word on an O never written. The judge is a
small network trained on slips drawn in the training faces (`scanner/train/rings.py`): it looks at
the fitted ring with the ink around it, at the ink left inside once the ring is erased, and at what
the rules measured, and says how likely a circle was drawn there. Its weights are
`models/rings.onnx`, its recipe and measured figures `models/rings.json`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from scanner.markjudge import MarkJudge, view

MODEL = Path(__file__).parent / "models" / "rings.onnx"
RING = 32  # the ring and a little around it, resampled to RING x RING
INSIDE = 16  # the same square with the ring's ink erased: what it holds
MARGIN = 1.15  # the square's side against the ring's larger axis
FACTS = 10  # numbers of the rules beside the two views


@lru_cache(maxsize=1)
def shipped() -> MarkJudge | None:
    """The judge shipped with the scanner; None when its weights are absent (the shape rules decide then)."""
    return MarkJudge(MODEL) if MODEL.exists() else None


def width() -> int:
    """Length of a row of `features`."""
    return RING ** 2 + INSIDE ** 2 + FACTS


def features(level: np.ndarray, box: tuple[float, float, float, float], shape) -> np.ndarray:
    """What the judge sees of a ring fitted around box `box` (crop pixels): the ink darkness (0..1)
    around the ring and inside it with the ring erased, and the rules' measures (`marks.RingShape`)."""
    (cx, cy), (w, h), _ = shape.ellipse
    half = MARGIN * max(w, h) / 2
    square = (cx - half, cy - half, cx + half, cy + half)
    around = view(level, *square, RING)
    inside = view(np.where(shape.erase, 0.0, level), *square, INSIDE)
    bx, by, bw, bh = box
    facts = [shape.score, shape.cover, min(1.0, 10 * shape.closeness), shape.extent, shape.touching,
             float(shape.holds_letter), w / bw, h / bh, (cx - bx - bw / 2) / bw, (cy - by - bh / 2) / bh]
    return np.concatenate([around.ravel(), inside.ravel(), facts]).astype(np.float32)
