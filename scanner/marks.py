"""Joker marks on a written letter: a circle around it, a dot at its lower right (D 5.3.5), or a
ticked box under it. Circles and dots are erased before the letter is classified; a circled
letter left as it is reads like a W or an O.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scanner.glyph import INK_LEVEL, ink_map

SECTORS = 24
CIRCLE_SECTORS = 19  # sectors a ring must cover to count as drawn around the letter
TICK_INK = 0.06  # inked share of a tick-box that counts as ticked


@dataclass(frozen=True)
class MarkResult:
    kind: str | None  # "circle" | "dot" | None
    cleaned: np.ndarray  # grey crop with the mark erased (paper where it was)
    scores: dict[str, float] = field(default_factory=dict)  # confidence of each kind tested


def _polar(h: int, w: int, box: tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    bx, by, bw, bh = box
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (gx - (bx + bw / 2)) / (bw / 2), (gy - (by + bh / 2)) / (bh / 2)
    r = np.sqrt(dx * dx + dy * dy)
    sector = ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    return r, sector


def find_marks(gray: np.ndarray, box: tuple[float, float, float, float], px_per_mm: float,
               paper: float | None = None) -> MarkResult:
    """Look for a circle or a dot on a crop that extends beyond the box (box given in crop pixels)."""
    dark = ink_map(gray, paper)
    mask = (dark > INK_LEVEL).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return MarkResult(None, gray, {"circle": 0.0, "dot": 0.0})
    r, sector = _polar(*gray.shape, box)
    paper = 255.0 if paper is None else paper
    best_ring = 0.0
    for c in range(1, n):
        pix = labels == c
        ring = pix & (r > 0.95) & (r < 1.6)  # outside where letters are written
        covered = np.unique(sector[ring])
        best_ring = max(best_ring, len(covered) / SECTORS)
        if len(covered) < CIRCLE_SECTORS:
            continue
        # per-sector outer radius of this component; the letter must lie well inside it
        outer = np.zeros(SECTORS, np.float32)
        np.maximum.at(outer, sector[ring], r[ring])
        limit = 0.72 * outer[sector]
        inside = mask.astype(bool) & (r < limit)
        if inside.sum() < 0.01 * (box[2] * box[3]):
            continue  # an O or a Q: a ring with nothing in it
        band = pix & (r >= 0.8 * outer[sector])
        cleaned = gray.copy()
        cleaned[cv2.dilate(band.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)] = paper
        return MarkResult("circle", cleaned, {"circle": len(covered) / SECTORS})
    bx, by, bw, bh = box
    mm2 = px_per_mm * px_per_mm
    areas = stats[1:, cv2.CC_STAT_AREA]
    biggest = int(np.argmax(areas)) + 1
    for c in range(1, n):
        if c == biggest:
            continue
        x, y, w, h, area = stats[c]
        cx, cy = centroids[c]
        if not (0.12 * mm2 <= area <= 2.0 * mm2 and 0.5 <= w / max(h, 1) <= 2.0 and area >= 0.45 * w * h):
            continue
        if cx > bx + 0.6 * bw and cy > by + 0.6 * bh and cx < bx + bw * 1.05 and cy < by + bh * 1.05:
            cleaned = gray.copy()
            cleaned[cv2.dilate((labels == c).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)] = paper
            return MarkResult("dot", cleaned, {"circle": best_ring, "dot": 1.0})
    return MarkResult(None, gray, {"circle": best_ring, "dot": 0.0})


def tick_score(gray: np.ndarray, paper: float | None = None) -> float:
    """Confidence that a tick-box crop (inside its printed border) holds a deliberate mark: 0.5 at TICK_INK."""
    if not gray.size:
        return 0.0
    share = float((ink_map(gray, paper) > INK_LEVEL).mean())
    return float(np.clip(share / (2 * TICK_INK), 0.0, 1.0))


def is_ticked(gray: np.ndarray, paper: float | None = None) -> bool:
    """A tick-box crop (inside its printed border) holds a deliberate mark."""
    return tick_score(gray, paper) > 0.5
