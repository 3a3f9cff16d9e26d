"""Synthetic (and real-digit) training cells, already normalised like the scanner's cells.

A cell is simulated directly rather than cut from a rendered slip: it is ~50x faster and the
distortions that matter for the crop (placement, stroke, ink, blur, noise, box remnants after the
red dropout of D 3.2.b) are reproduced here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scanner import glyph
from scanner.synth import glyphs, stroke_writers

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# scikit-learn's load_digits (1,797 digits, 43 writers) in three disjoint parts:
REAL_DIGIT_TRAIN = slice(0, 1000)  # mixed into training
REAL_DIGIT_CALIBRATION = slice(1000, 1300)  # written on the calibration slips, so the threshold sees real digits
REAL_DIGIT_EVAL = slice(1300, None)  # used only to measure real-digit accuracy (benchmark, sidecar)


def part_label(part: slice) -> str:
    """How a part of load_digits is named in logs, the sidecar and the benchmark: load_digits[1300:]."""
    return f"load_digits[{part.start or 0}:{'' if part.stop is None else part.stop}]"


@dataclass(frozen=True)
class CellRecipe:
    real_digit_share: float = 0.25  # share of digit samples drawn from real handwriting
    lowres_share: float = 0.1  # share degraded through 8x8, like the real digits
    monoline_share: float = 0.0  # share of font glyphs redrawn with a round pen (scanner.synth.monoline)
    real_digit_distortion: float = 0.0  # share of real digits drawn with a writer's variation (REAL_DIGIT_STYLE)
    stroke_share: float = 0.0  # share of the other cells printed stroke by stroke by a made-up writer (synth.stroke_writers)


def load_real_digits(part: slice) -> tuple[np.ndarray, np.ndarray]:
    """(images 8x8 0..16, labels) of scikit-learn's bundled handwritten digits."""
    from sklearn.datasets import load_digits  # bundled with scikit-learn, no download

    d = load_digits()
    return d.images[part], d.target[part]


def cell_image(mask: np.ndarray, rng: np.random.Generator, lowres: bool = False) -> np.ndarray:
    """Grey uint8 cell as the scanner crops it, with the glyph mask written in it."""
    w, h = int(rng.integers(40, 60)), int(rng.integers(54, 68))
    ink = glyphs.fit_into(mask, w, h, rng, fill=(0.5, 0.9))
    if lowres:
        ink = cv2.resize(cv2.resize(ink, (8, 8), interpolation=cv2.INTER_AREA), (w, h),
                         interpolation=cv2.INTER_CUBIC)
    ink = np.clip(ink, 0, 1) * rng.uniform(0.55, 1.0)
    if rng.random() < 0.3:  # faint remnant of the dropped-out box edge
        side = int(rng.integers(4))
        level = rng.uniform(0.05, 0.3)
        if side == 0:
            ink[:2, :] = np.maximum(ink[:2, :], level)
        elif side == 1:
            ink[-2:, :] = np.maximum(ink[-2:, :], level)
        elif side == 2:
            ink[:, :2] = np.maximum(ink[:, :2], level)
        else:
            ink[:, -2:] = np.maximum(ink[:, -2:], level)
    paper = rng.uniform(200, 255)
    img = paper * (1 - ink)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


# A few thousand real digits, each seen many times an epoch: drawn again as another writer might
# (slant, pen, width, wobble), milder than a typeface's variation, since they are a person's already.
REAL_DIGIT_STYLE = glyphs.GlyphStyle(rotation_deg=10.0, shear=0.3, stretch=0.2, stroke_px=(-1, 2), elastic_px=3.0)

RealDigits = tuple[np.ndarray, np.ndarray]  # (images, labels): 8x8 scikit-learn or 28x28 MNIST


def make_cells(fonts: list[Path], n_per_class: int, seed: int, recipe: CellRecipe = CellRecipe(),
               real_digits: RealDigits | list[RealDigits] | None = None,
               weights: list[float] | None = None, classes: str = CLASSES) -> tuple[np.ndarray, np.ndarray]:
    """Balanced normalised cells of `classes` (all by default; the digit reader draws digits alone):
    X float32 (N, 32, 32), y int64 class indices into CLASSES.

    `weights` (one per font file, e.g. FontSet.weights()) sets how often each font is drawn, among
    the fonts that cover `classes`; `real_digits` is one source of real handwritten digits or
    several, pooled per digit.
    """
    rng = np.random.default_rng(seed)
    style = glyphs.GlyphStyle(monoline_share=recipe.monoline_share)
    pairs = [(str(f), w) for f, w in zip(fonts, weights or [1.0] * len(fonts)) if glyphs.font_covers(str(f), classes)]
    usable = [f for f, _ in pairs]
    p = np.array([w for _, w in pairs]) / sum(w for _, w in pairs)
    by_digit: dict[int, list[np.ndarray]] = {}
    sources = [real_digits] if isinstance(real_digits, tuple) else (real_digits or [])
    for imgs, labels in sources:
        for d in range(10):
            by_digit.setdefault(d, []).extend(imgs[labels == d])
    xs, ys = [], []
    for ch in classes:
        for _ in range(n_per_class):
            for _attempt in range(MAX_ATTEMPTS):
                if ch.isdigit() and by_digit and rng.random() < recipe.real_digit_share:
                    pool = by_digit[int(ch)]
                    mask = glyphs.real_digit_mask(pool[rng.integers(len(pool))])
                    if recipe.real_digit_distortion and rng.random() < recipe.real_digit_distortion:
                        mask = glyphs.distort(mask, rng, REAL_DIGIT_STYLE)
                    img = cell_image(mask, rng)
                else:
                    if recipe.stroke_share and rng.random() < recipe.stroke_share:
                        mask = stroke_writers.stroke_glyph(ch, rng)
                    else:
                        mask = glyphs.render_glyph(ch, usable[rng.choice(len(usable), p=p)], rng, style)
                    img = cell_image(mask, rng, lowres=rng.random() < recipe.lowres_share)
                cell = glyph.normalise(img).image
                if legible(cell, mask):
                    break
            xs.append(cell)
            ys.append(CLASSES.index(ch))
    return np.stack(xs), np.array(ys, np.int64)


MAX_ATTEMPTS = 8  # draws per cell before keeping the last one whatever it looks like
_TOLERANCE = np.ones((3, 3), np.uint8)
MIN_AGREEMENT = 0.5  # intersection over union of ink, distorted cell vs. the glyph it was made from


def legible(cell: np.ndarray, mask: np.ndarray) -> bool:
    """True when the cell still shows the glyph it was made from.

    Fading, blur and the low-resolution pass can leave a blank cell, a few dots or a smudge; taught
    with its label, such a cell is noise that costs the model accuracy on real writing.
    """
    clean = glyph.normalise((255 * (1 - np.clip(mask, 0, 1))).astype(np.uint8), paper=255.0).image > 0.5
    seen = cell > 0.5
    clean, seen = (cv2.dilate(m.astype(np.uint8), _TOLERANCE) > 0 for m in (clean, seen))  # a pen line may move a pixel
    union = np.logical_or(clean, seen).sum()
    return bool(union) and np.logical_and(clean, seen).sum() / union >= MIN_AGREEMENT
