"""Capitals and digits printed stroke by stroke by made-up writers, for training only.

Handwriting faces are a few hundred fixed hands; a person printing draws the same skeletons with
their own proportions, slant, pen and carelessness: strokes that overshoot or stop short of the one
they meet, a bowl too big, a bar too low. Each glyph here is a skeleton, the Hershey Simplex Roman
capitals and digits (`bundled/hershey`, public domain) or one of the common printed variants drawn
below (a serifed I, a barred J, a rounded E, a splayed M, an open-top 4, ...), moved stroke by stroke
and drawn with one writer's pen (`strokes.draw_strokes`).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from scanner.synth import glyphs, strokes
from scanner.synth.strokes import Stroke, arc, draw_strokes

HERSHEY = Path(__file__).resolve().parent / "bundled" / "hershey" / "simplex-roman.json"
CAP_TOP, BASELINE = -12.0, 9.0  # the Hershey capitals' extent in its own units

# Printed variants a skeleton face does not have, in a unit box (x right, y down, baseline at 1).
VARIANTS: dict[str, list[list[Stroke]]] = {
    "A": [[[(0.0, 1.0), (0.32, 0.0), (0.66, 1.0)], [(0.14, 0.66), (0.52, 0.64)]]],
    "E": [[arc(0.42, 0.27, 0.36, 0.26, -40, -230, 16) + arc(0.42, 0.75, 0.4, 0.26, -130, -190, 16)]],
    "G": [[arc(0.4, 0.5, 0.4, 0.5, -40, -300, 22) + [(0.8, 0.55), (0.45, 0.55)]],
          [arc(0.4, 0.5, 0.4, 0.5, -40, -310, 22) + [(0.78, 0.45), (0.8, 1.05)]]],
    "I": [[[(0.0, 0.0), (0.5, 0.0)], [(0.25, 0.0), (0.25, 1.0)], [(0.0, 1.0), (0.5, 1.0)]]],
    "J": [[[(0.1, 0.0), (0.75, 0.0)], [(0.5, 0.0), (0.5, 0.75)] + arc(0.3, 0.75, 0.2, 0.25, 0, 180, 10)],
          [[(0.55, 0.0), (0.55, 0.8)] + arc(0.3, 0.8, 0.25, 0.2, 0, 150, 10)]],
    "K": [[[(0.0, 0.0), (0.0, 1.0)], [(0.6, 0.0), (0.02, 0.55), (0.66, 1.0)]]],
    "M": [[[(0.0, 1.0), (0.1, 0.0), (0.38, 0.62), (0.66, 0.0), (0.76, 1.0)]],
          [[(0.0, 1.0), (0.0, 0.0), (0.38, 1.0), (0.76, 0.0), (0.76, 1.0)]]],
    "N": [[[(0.0, 1.0), (0.0, 0.0), (0.62, 1.0), (0.62, 0.0)]]],
    "Q": [[arc(0.38, 0.5, 0.38, 0.5, 0, 360, 22), [(0.45, 0.72), (0.8, 1.08)]],
          [arc(0.38, 0.48, 0.38, 0.48, 0, 360, 22), [(0.5, 0.95), (0.65, 1.05), (0.85, 1.05)]]],
    "R": [[[(0.0, 1.0), (0.0, 0.0)] + arc(0.22, 0.25, 0.4, 0.25, -90, 180, 12) + [(0.0, 0.5), (0.62, 1.0)]]],
    "U": [[[(0.0, 0.0), (0.0, 0.65)] + arc(0.3, 0.65, 0.3, 0.35, 180, -180, 12) + [(0.6, 0.0)],
           [(0.6, 0.0), (0.62, 1.0)]]],
    "W": [[[(0.0, 0.0), (0.2, 1.0), (0.42, 0.4), (0.64, 1.0), (0.84, 0.0)]]],
    "Y": [[[(0.0, 0.0), (0.34, 0.5)], [(0.7, 0.0), (0.1, 1.0)]]],
    "1": strokes.TRAIN["1"],  # the flagged 1s of the continental forms' training set
    "4": strokes.TRAIN["4"][:1],  # its first open-top 4
    "7": [[[(0.0, 0.0), (0.65, 0.0), (0.25, 1.0)], [(0.12, 0.52), (0.6, 0.5)]]],
    "9": [[arc(0.32, 0.3, 0.32, 0.3, 0, 360, 16), [(0.64, 0.3), (0.6, 1.0)]]],
}
VARIANT_SHARE = 0.35  # how often a character with printed variants is drawn as one of them

# A writer's carelessness, in units of the glyph's height.
STROKE_SHIFT = 0.018  # a whole stroke placed off where it should start
END_WOBBLE = 0.03  # a stroke's first and last points, each on its own
END_REACH = (-0.06, 0.08)  # a stroke stopped short (< 0) or run past (> 0) its end
WRITER_STYLE = glyphs.GlyphStyle(rotation_deg=5.0, shear=0.12, stretch=0.1, stroke_px=(0, 1), elastic_px=1.5)


@lru_cache(maxsize=1)
def skeletons() -> dict[str, list[Stroke]]:
    """The Hershey capitals and digits in unit height: y 0 at the capitals' top, 1 on the baseline."""
    raw = json.loads(HERSHEY.read_text())
    height = BASELINE - CAP_TOP
    out = {}
    for ch, drawn in raw.items():
        left = min(x for stroke in drawn for x, _ in stroke)
        out[ch] = [[((x - left) / height, (y - CAP_TOP) / height) for x, y in stroke] for stroke in drawn]
    return out


def drawing_of(ch: str, rng: np.random.Generator) -> list[Stroke]:
    """A skeleton of `ch`: the skeleton face's, or now and then one of its printed variants."""
    variants = VARIANTS.get(ch)
    if variants and rng.random() < VARIANT_SHARE:
        return variants[rng.integers(len(variants))]
    return skeletons()[ch]


def _reach(a: np.ndarray, b: np.ndarray, by: float) -> np.ndarray:
    """Point `a` moved `by` along the direction from `b` to it (a stroke's end run past or short)."""
    d = a - b
    n = float(np.hypot(*d))
    return a if n < 1e-6 else a + d / n * by


def careless(drawing: list[Stroke], rng: np.random.Generator) -> list[Stroke]:
    """The drawing as a careless hand draws it: each stroke a little off, its ends wobbling, run past
    or stopped short, so that strokes no longer meet exactly where the skeleton says."""
    out = []
    for stroke in drawing:
        pts = np.asarray(stroke, np.float64) + rng.normal(0, STROKE_SHIFT, 2)
        if len(pts) >= 2:
            pts[0] = _reach(pts[0], pts[1], rng.uniform(*END_REACH)) + rng.normal(0, END_WOBBLE, 2)
            pts[-1] = _reach(pts[-1], pts[-2], rng.uniform(*END_REACH)) + rng.normal(0, END_WOBBLE, 2)
        out.append([(float(x), float(y)) for x, y in pts])
    return out


def stroke_glyph(ch: str, rng: np.random.Generator, height_px: int = 64) -> np.ndarray:
    """Ink mask (float32 0..1, tightly cropped) of `ch` printed by a new made-up writer: a skeleton,
    moved stroke by stroke, drawn with the writer's proportions, slant, pen and deformation."""
    drawing = careless(drawing_of(ch, rng), rng)
    mask = draw_strokes(drawing, rng, height_px, aspect=rng.uniform(0.75, 1.25))
    return glyphs.distort(mask, rng, WRITER_STYLE)
