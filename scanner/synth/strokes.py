"""Continental letter forms that handwriting fonts lack, as pen strokes with a writer's own deformation.

Romanian players cross their 7 and Z, flag their 1, leave the top of the 4 open and loop a script L.
Crossed 7 and Z are drawn on the writer's own glyph (so a held-out hand stays held out); the other
forms are hand-drawn stroke templates in two disjoint sets, one for training and one kept for the
benchmark (`HELD_OUT`), each drawn with the writer's slant, proportions, pen and a smooth random
deformation of every stroke.
"""
from __future__ import annotations

import cv2
import numpy as np

CROSSED = ("7", "Z")  # a bar across the writer's own glyph
TEMPLATE_FORMS = ("1", "4", "L")
CONTINENTAL = CROSSED + TEMPLATE_FORMS
FORM_NAMES = {"7": "crossed 7", "Z": "crossed Z", "1": "flagged 1", "4": "open-top 4", "L": "looped script L"}

Stroke = list[tuple[float, float]]  # points in a unit box: x right, y down


def arc(cx: float, cy: float, rx: float, ry: float, start: float, sweep: float, n: int = 14) -> Stroke:
    """An elliptic arc of `sweep` degrees from `start` (0: rightwards, growing clockwise, y down)."""
    t = np.radians(start + np.linspace(0, sweep, n))
    return [(cx + rx * np.cos(a), cy + ry * np.sin(a)) for a in t]


# Each form: a list of drawings, each drawing a list of strokes. Training and held-out drawings differ.
TRAIN: dict[str, list[list[Stroke]]] = {
    "1": [[[(0.15, 0.38), (0.62, 0.0), (0.62, 1.0)]],
          [[(0.1, 0.3), (0.4, 0.12), (0.6, 0.0), (0.58, 1.0)], [(0.35, 1.0), (0.85, 1.0)]]],
    "4": [[[(0.2, 0.0), (0.1, 0.62), (0.95, 0.62)], [(0.72, 0.15), (0.7, 1.0)]],
          [[(0.25, 0.0), (0.05, 0.58), (0.9, 0.6)], [(0.65, 0.05), (0.68, 1.0)]]],
    "L": [[arc(0.62, 0.16, 0.22, 0.15, 0, -330) + [(0.45, 0.5), (0.3, 0.85)]
           + arc(0.22, 0.88, 0.12, 0.1, -30, 300) + [(0.6, 0.95), (0.95, 0.88)]]],
}
HELD_OUT: dict[str, list[list[Stroke]]] = {
    "1": [[[(0.05, 0.45), (0.35, 0.2), (0.55, 0.0), (0.5, 1.0)]],
          [[(0.2, 0.28), (0.7, 0.0), (0.66, 0.55), (0.64, 1.0)], [(0.4, 0.98), (0.9, 1.0)]]],
    "4": [[[(0.3, 0.0), (0.22, 0.3), (0.08, 0.66), (1.0, 0.64)], [(0.78, 0.25), (0.76, 1.0)]]],
    "L": [[arc(0.7, 0.12, 0.2, 0.12, 20, -320) + [(0.5, 0.45), (0.35, 0.8)]
           + arc(0.25, 0.9, 0.15, 0.08, -60, 330) + [(0.7, 0.97), (1.0, 0.9)]]],
}
SETS = {"train": TRAIN, "held_out": HELD_OUT}


def _smooth_field(rng: np.random.Generator, amp: float):
    """A smooth random displacement of the unit box: a couple of low-frequency waves per axis."""
    waves = [(rng.uniform(-amp, amp), rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0), rng.uniform(0, 2 * np.pi))
             for _ in range(4)]

    def move(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx = sum(a * np.sin(fx * np.pi * x + fy * np.pi * y + p) for a, fx, fy, p in waves[:2])
        dy = sum(a * np.sin(fx * np.pi * x + fy * np.pi * y + p) for a, fx, fy, p in waves[2:])
        return x + dx, y + dy
    return move


def draw_strokes(drawing: list[Stroke], rng: np.random.Generator, height_px: int = 64,
                 pen_px: float | None = None, aspect: float | None = None) -> np.ndarray:
    """Ink mask (float32 0..1, tightly cropped) of a stroke drawing, with this writer's slant,
    proportions, pen width and a smooth deformation of every stroke. `aspect` scales x (a drawing in
    a unit box: its width against its height; one in unit height: a writer's wider or narrower hand)."""
    aspect = aspect if aspect is not None else rng.uniform(0.5, 0.8)
    slant = rng.uniform(-0.25, 0.2)
    move = _smooth_field(rng, 0.035)
    pen = pen_px if pen_px is not None else rng.uniform(0.06, 0.12) * height_px
    pad = int(pen) + 4
    lines = []
    for stroke in drawing:
        pts = np.asarray(stroke, np.float64)
        # resample densely so the deformation bends strokes instead of only moving their ends
        seg = np.linspace(0, len(pts) - 1, max(2, 6 * len(pts)))
        pts = np.stack([np.interp(seg, np.arange(len(pts)), pts[:, k]) for k in (0, 1)], axis=1)
        x, y = move(pts[:, 0], pts[:, 1])
        lines.append((x * aspect * height_px + slant * (1 - y) * height_px, y * height_px))
    left = min(float(x.min()) for x, _ in lines)
    top = min(float(y.min()) for _, y in lines)
    dx = pad + max(0.0, -slant) * height_px
    dx, dy = dx + max(0.0, -(left + dx)), pad + max(0.0, -(top + pad))  # moved only where ink would leave the canvas
    w = int(max(float(x.max()) for x, _ in lines) + dx) + pad + 1
    h = int(max(float(y.max()) for _, y in lines) + dy) + pad + 1
    canvas = np.zeros((h, w), np.float32)
    shift = 4
    for x, y in lines:
        poly = np.round(np.stack([x + dx, y + dy], axis=1) * (1 << shift)).astype(np.int32)
        cv2.polylines(canvas, [poly], False, 1.0, max(1, int(round(pen))), cv2.LINE_AA, shift)
    ys, xs = np.nonzero(canvas > 0.2)
    return canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(xs) else canvas[:1, :1]


def template_form(char: str, which: str, rng: np.random.Generator) -> np.ndarray:
    """One of the `which` set's drawings of `char` (flagged 1, open-top 4, script L)."""
    drawings = SETS[which][char]
    return draw_strokes(drawings[rng.integers(len(drawings))], rng)


def cross(mask: np.ndarray, char: str, rng: np.random.Generator) -> np.ndarray:
    """The writer's own 7 or Z with the bar across its middle, in the glyph's own stroke width."""
    h, w = mask.shape
    ink = mask > 0.3
    rows = ink.sum(axis=1)
    pen = int(np.clip(np.percentile(rows[rows > 0], 20) if rows.any() else 1, 1, max(1, h // 12)))
    y = int(h * rng.uniform(0.45, 0.6))
    xs = np.nonzero(ink[y])[0]
    cx = float(xs.mean()) if len(xs) else w / 2
    half = w * rng.uniform(0.22, 0.32)
    out = np.pad(mask, ((0, 0), (int(half), int(half))))
    tilt = rng.uniform(-0.08, 0.08) * w
    cv2.line(out, (int(cx), int(y + tilt)), (int(cx + 2 * half), int(y - tilt)), 1.0, pen, cv2.LINE_AA)
    ys, xs = np.nonzero(out > 0.2)
    return out[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
