"""A glyph redrawn along its centre line with a round pen: a typeface's letter as a person prints it.

Most training faces are typefaces: strokes of varying width, serifs, flared ends. People print
capitals with a ballpoint, one pen width throughout. Thinning the glyph to its centre line
(Zhang-Suen) and drawing that line again with a pen of the writer's width keeps the letter's
construction and drops the typography, so the reader learns shapes rather than a face's stroke
contrast.
"""
from __future__ import annotations

import cv2
import numpy as np


def _neighbours(img: np.ndarray) -> list[np.ndarray]:
    """P2..P9 of every pixel (north, then clockwise), on a one-pixel zero border."""
    p = np.pad(img, 1)
    h, w = img.shape
    at = lambda dy, dx: p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]  # noqa: E731
    return [at(-1, 0), at(-1, 1), at(0, 1), at(1, 1), at(1, 0), at(1, -1), at(0, -1), at(-1, -1)]


def thin(mask: np.ndarray, max_rounds: int = 64) -> np.ndarray:
    """One-pixel-wide centre line of a binary mask (Zhang-Suen thinning), as uint8 0/1."""
    img = (mask > 0).astype(np.uint8)
    for _ in range(max_rounds):
        changed = False
        for step in (0, 1):
            n = _neighbours(img)
            count = sum(n)
            ring = n + n[:1]
            turns = sum(((a == 0) & (b == 1)).astype(np.uint8) for a, b in zip(ring, ring[1:]))
            p2, p4, p6, p8 = n[0], n[2], n[4], n[6]
            if step == 0:
                side = (p2 * p4 * p6 == 0) & (p4 * p6 * p8 == 0)
            else:
                side = (p2 * p4 * p8 == 0) & (p2 * p6 * p8 == 0)
            drop = (img == 1) & (count >= 2) & (count <= 6) & (turns == 1) & side
            if drop.any():
                img[drop] = 0
                changed = True
        if not changed:
            break
    return img


def redraw(mask: np.ndarray, pen_px: int) -> np.ndarray:
    """The glyph (float 0..1) drawn again along its centre line with a round pen `pen_px` wide."""
    line = thin(mask > 0.5)
    if line.sum() < 3:  # nothing left to draw along: keep the glyph as it was
        return mask
    pen = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(1, pen_px), max(1, pen_px)))
    ink = cv2.dilate(line.astype(np.float32), pen)
    return np.clip(cv2.GaussianBlur(ink, (0, 0), 0.6), 0, 1)
