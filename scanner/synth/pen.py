"""Joker marks as players draw them (D 5.3.5), on the ink layer of a synthetic slip.

A circle is drawn around the whole box or, as most players do, around the written letter with a
ring 0.6-1.8 mm outside it: inside the box when the letter is small, across the box lines when it
is not, not quite closed, or off-centre. A dot sits at the letter's lower right, apart from it or
touching it: a pressed blob clearly wider than the strokes, or a ballpoint dot 0.6-1.0 mm across that
is barely wider than them (`dot_pen_apart`, `dot_pen_touching`, drawn only when asked for by name). A tick crosses the tick-box under the
box. Each way has a name the benchmark reports.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.template import Rect

CIRCLE_WAYS = ("circle_box", "circle_letter", "circle_inside", "circle_crossing", "circle_open", "circle_offcentre")
DOT_WAYS = ("dot_apart", "dot_touching")
TICK_WAYS = ("tick",)
MARK_WAYS = CIRCLE_WAYS + DOT_WAYS + TICK_WAYS
PEN_DOT_WAYS = ("dot_pen_apart", "dot_pen_touching")  # ballpoint dots: asked for by name (benchmark --pen-dots)
ALL_WAYS = MARK_WAYS + PEN_DOT_WAYS
RING_GAP_MM = (0.6, 1.8)  # how far outside the letter players draw the ring
PEN_DOT_MM = (0.6, 1.0)  # a ballpoint dot's diameter
PEN_DOT_GAP_MM = (0.25, 0.7)  # how far a ballpoint dot drawn apart lies from the letter's ink
INSIDE_FILL = (0.42, 0.55)  # letter height (share of the box) when the ring must fit inside the box


@dataclass(frozen=True)
class Written:
    """A letter's ink mask and where its top-left corner lies on the slip (pixels)."""

    cell: np.ndarray
    origin: tuple[int, int]


def mark_kind(way: str) -> str:
    """circle | dot | tick: what the scanner should report for a way of drawing."""
    return way.split("_")[0]


def pick_way(kind: str, rng: np.random.Generator) -> str:
    """A way of drawing `kind` (circle | dot | tick | any), or the way itself when already one."""
    if kind in ALL_WAYS:
        return kind
    ways = {"circle": CIRCLE_WAYS, "dot": DOT_WAYS, "tick": TICK_WAYS, "any": MARK_WAYS}[kind]
    return ways[rng.integers(len(ways))]


def _ring_points(centre: tuple[float, float], axes: tuple[float, float], angle: float, start: float, sweep: float,
                 rng: np.random.Generator) -> np.ndarray:
    """A hand-drawn ring: an ellipse whose radius wobbles smoothly, drawn from `start` over `sweep` degrees."""
    t = np.radians(start + np.linspace(0.0, sweep, max(24, int(abs(sweep) / 4))))
    wobble = np.ones_like(t)
    for harmonic in (2, 3):
        wobble += rng.uniform(0.0, 0.04) * np.sin(harmonic * t + rng.uniform(0, 2 * np.pi))
    wobble *= np.linspace(1.0, rng.uniform(0.94, 1.06), len(t))  # the pen does not come back to the start
    a, b = axes
    x, y = a * wobble * np.cos(t), b * wobble * np.sin(t)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    return np.stack([centre[0] + c * x - s * y, centre[1] + s * x + c * y], axis=1)


def _draw_polyline(ink: np.ndarray, pts: np.ndarray, pen: int) -> None:
    shift = 4  # sub-pixel precision of cv2's anti-aliased lines
    cv2.polylines(ink, [np.round(pts * (1 << shift)).astype(np.int32)], False, 1.0, pen, cv2.LINE_AA, shift)


def letter_extent(cell: np.ndarray) -> tuple[float, float, float, float] | None:
    """Centre and the half-axes of the smallest box-aligned ellipse through the letter's ink (cell pixels)."""
    ys, xs = np.nonzero(cell > 0.3)
    if len(xs) == 0:
        return None
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    hw, hh = max(1.0, (xs.max() - xs.min()) / 2 + 1), max(1.0, (ys.max() - ys.min()) / 2 + 1)
    k = float(np.sqrt(((xs - cx) / hw) ** 2 + ((ys - cy) / hh) ** 2).max())
    return cx, cy, hw * k, hh * k


def draw_circle(ink: np.ndarray, way: str, box: Rect, letter: Written, s: float, rng: np.random.Generator,
                pen: int) -> None:
    """A joker circle drawn `way` around the letter written in `box`."""
    bx, by, bw, bh = box.x * s, box.y * s, box.w * s, box.h * s
    extent = letter_extent(letter.cell)
    angle, start = rng.uniform(-12, 12), rng.uniform(0, 360)
    sweep = rng.uniform(345, 385) * (1 if rng.random() < 0.7 else -1)
    if way == "circle_box" or extent is None:
        centre = (bx + bw / 2, by + bh / 2)
        axes = (bw * rng.uniform(0.52, 0.62), bh * rng.uniform(0.5, 0.58))
        _draw_polyline(ink, _ring_points(centre, axes, angle, start, sweep, rng), pen)
        return
    cx, cy, ax, ay = extent
    centre = (letter.origin[0] + cx, letter.origin[1] + cy)
    lo, hi = RING_GAP_MM
    if way == "circle_inside":
        hi = 0.9
    gap = rng.uniform(lo, hi) * s + pen / 2
    axes = (ax + gap, ay + gap)
    if way == "circle_inside":  # the ring stays inside the box: shrink the gap where it would not
        room = min(bw / 2 - pen - abs(centre[0] - bx - bw / 2) - ax, bh / 2 - pen - abs(centre[1] - by - bh / 2) - ay)
        gap = max(pen * 1.2, min(gap, room))
        axes = (ax + gap, ay + gap)
        angle = rng.uniform(-4, 4)
    elif way == "circle_crossing":  # the ring crosses the box lines at least on its long sides
        axes = (max(axes[0], bw / 2 + pen + rng.uniform(0.2, 1.0) * s), max(axes[1], bh / 2 + pen * 0.5))
    elif way == "circle_open":
        sweep = rng.uniform(290, 330) * np.sign(sweep)
    elif way == "circle_offcentre":  # the same ring moved 0.4-1 mm: on one side it comes close to the letter or touches it
        shift = rng.uniform(0.4, 1.0) * s
        theta = rng.uniform(0, 2 * np.pi)
        centre = (centre[0] + shift * np.cos(theta), centre[1] + shift * np.sin(theta))
    _draw_polyline(ink, _ring_points(centre, axes, angle, start, sweep, rng), pen)


def draw_dot(ink: np.ndarray, way: str, box: Rect, letter: Written, s: float, rng: np.random.Generator,
             pen: int) -> None:
    """A dot at the lower right of the letter: apart from it (the old rule) or touching its last stroke.

    A dot is a blob pressed with the pen that wrote the letter: clearly wider than the letter's strokes.
    """
    if way.startswith("dot_pen"):
        _draw_pen_dot(ink, way, box, letter, s, rng, pen)
        return
    written = (letter.cell > 0.3).astype(np.uint8)
    half_stroke = float(np.percentile(cv2.distanceTransform(written, cv2.DIST_L2, 3)[written > 0], 90)) if written.any() else 0.0
    radius = max(pen * 1.2, rng.uniform(0.45, 0.65) * s, rng.uniform(2.0, 2.6) * half_stroke)
    ys, xs = np.nonzero(written)
    if way == "dot_touching" and len(xs):
        # from the lower-right corner of the letter towards its nearest ink, until the dot overlaps the stroke
        corner = np.array([xs.max(), ys.max()], np.float64) + rng.uniform(0, 0.3, 2) * radius
        ink_pts = np.stack([xs, ys], axis=1)
        p = ink_pts[int(np.argmin(((ink_pts - corner) ** 2).sum(axis=1)))]
        u = (corner - p) / max(1e-6, float(np.hypot(*(corner - p))))
        if not u.any():
            u = np.array([np.sqrt(0.5), np.sqrt(0.5)])
        cx, cy = np.array(letter.origin, np.float64) + p + u * radius * rng.uniform(0.4, 0.9)
    else:
        cx, cy = (box.x + box.w - rng.uniform(0.7, 1.3)) * s, (box.y + box.h - rng.uniform(0.7, 1.4)) * s
    shift = 4
    cv2.circle(ink, (int(cx * (1 << shift)), int(cy * (1 << shift))), int(radius * (1 << shift)), 1.0, -1,
               cv2.LINE_AA, shift)


def _draw_pen_dot(ink: np.ndarray, way: str, box: Rect, letter: Written, s: float, rng: np.random.Generator,
                  pen: int) -> None:
    """A ballpoint dot 0.6-1.0 mm across beside the letter's lower right, barely wider than its strokes:
    apart from the letter (0.25-0.7 mm from its ink) or pressed on the end of its last stroke."""
    written = (letter.cell > 0.3).astype(np.uint8)
    ys, xs = np.nonzero(written)
    dt = cv2.distanceTransform(written, cv2.DIST_L2, 3)
    half_stroke = float(np.median(dt[dt >= np.maximum(1.0, cv2.dilate(dt, np.ones((3, 3), np.uint8)))])) if len(xs) else 1.0
    radius = min(max(rng.uniform(*PEN_DOT_MM) * s / 2, half_stroke * rng.uniform(1.3, 1.6), pen * 0.75),
                 PEN_DOT_MM[1] * 0.55 * s)  # at most 1.1 mm across, even beside a broad stroke
    if not len(xs):
        cx, cy = (box.x + box.w - 1.0) * s, (box.y + box.h - 1.0) * s
    else:
        # the letter's ink nearest to its lower-right corner, and the way out of the letter from there
        corner = np.array([xs.max(), ys.max()], np.float64)
        pts = np.stack([xs, ys], axis=1)
        p = pts[int(np.argmin(((pts - corner) ** 2).sum(axis=1)))].astype(np.float64)
        theta = np.radians(rng.uniform(10, 80))  # to the right and below
        u = np.array([np.cos(theta), np.sin(theta)])
        if way == "dot_pen_apart":
            step = 0.0
            gap = rng.uniform(*PEN_DOT_GAP_MM) * s
            while step < 4 * s:  # walk out until the dot's edge is `gap` from every ink pixel
                q = p + u * step
                if float(np.sqrt(((pts - q) ** 2).sum(axis=1)).min()) >= radius + gap:
                    break
                step += 0.5
            centre = p + u * step
        else:  # on the stroke's end: the dot's centre within its radius of the ink
            centre = p + u * radius * rng.uniform(0.2, 0.6)
        cx, cy = np.array(letter.origin, np.float64) + centre
        # beside the box's corner at most: a letter that fills its box gets its dot on the box line
        cx = min(cx, (box.x + box.w + 0.15) * s)
        cy = min(cy, (box.y + box.h + 0.35) * s)
    shift = 4
    axes = (int(radius * (1 << shift)), int(radius * rng.uniform(0.8, 1.0) * (1 << shift)))
    cv2.ellipse(ink, (int(cx * (1 << shift)), int(cy * (1 << shift))), axes, rng.uniform(0, 180), 0, 360, 1.0, -1,
                cv2.LINE_AA, shift)


def draw_tick(ink: np.ndarray, tick: Rect, s: float, rng: np.random.Generator, pen: int) -> None:
    """A cross in the tick-box."""
    x0, y0, x1, y1 = tick.x * s, tick.y * s, (tick.x + tick.w) * s, (tick.y + tick.h) * s
    j = lambda: rng.uniform(-0.1, 0.1) * tick.w * s  # noqa: E731 - a tiny jitter helper
    cv2.line(ink, (int(x0 + 2 + j()), int(y0 + 2 + j())), (int(x1 - 2 + j()), int(y1 - 2 + j())), 1.0, pen, cv2.LINE_AA)
    cv2.line(ink, (int(x1 - 2 + j()), int(y0 + 2 + j())), (int(x0 + 2 + j()), int(y1 - 2 + j())), 1.0, pen, cv2.LINE_AA)
