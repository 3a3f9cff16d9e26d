"""One normalisation of a character cell, shared by the scanner and by training so both see the same input."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INPUT_SIZE = 32  # model input side in pixels
GLYPH_SIZE = 24  # longer side of the glyph inside the input, like MNIST's 20-in-28 margin
INK_LEVEL = 0.35  # ink threshold on a 0..1 darkness scale


@dataclass(frozen=True)
class Glyph:
    """A normalised cell: `image` is INPUT_SIZE² float32 darkness (0 paper, 1 ink); `ink` the inked share."""

    image: np.ndarray
    ink: float
    bbox: tuple[int, int, int, int] | None  # x, y, w, h of the kept ink in the crop


def ink_map(gray: np.ndarray, paper: float | None = None) -> np.ndarray:
    """Darkness 0..1 relative to the paper level, so a grey scan background is not read as ink.

    `paper` is known (255) on a flattened slip; a loose cell estimates it from its lighter pixels.
    """
    g = gray.astype(np.float32)
    if paper is None:
        paper = float(np.partition(g.ravel(), int(0.9 * (g.size - 1)))[int(0.9 * (g.size - 1))]) if g.size else 255.0
    paper = max(paper, 64.0)
    return np.clip((paper - g) / paper, 0.0, 1.0)


def flatten(gray: np.ndarray, stroke_px: int = 9) -> np.ndarray:
    """Divide out the paper's local brightness (uneven light on photos): paper becomes 255.

    A grey-level closing wider than a pen stroke removes the ink and leaves the paper level.
    """
    h, w = gray.shape
    f = 4  # the paper level varies slowly: estimate it at quarter resolution
    small = cv2.resize(gray, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = max(3, (stroke_px // f) * 2 + 1)
    small = cv2.blur(cv2.dilate(small, np.ones((k, k), np.uint8)), (k, k))
    paper = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(gray.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0) * 255.0, 0, 255).astype(np.uint8)


INK_TARGET = 0.7  # darkness the darkest ink nearby is raised to when blur left it paler (a scan's ink is ~0.8)
INK_FLOOR = 0.3  # below this local peak there is no ink to raise: paper, noise, a dropped-out box line
INK_GAIN_MAX = 2.0  # the most a pale stroke is darkened
INK_REACH_MM = 1.0  # how far a stroke's darkness is looked for around each pixel


def deepen_faint_ink(flat: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Darken strokes that blur has made pale, up to a scan's ink, on a flattened slip (paper 255).

    A slip photographed from afar, or through a messaging app, is 3-6 px a millimetre: a ballpoint
    line of 0.15-0.3 mm is spread over pixels it only partly covers and then blurred, so its darkness
    falls below INK_LEVEL and the box reads empty (`18` read `8`, `609` read `69`). Each pixel's
    darkness is multiplied by INK_TARGET over the darkest ink within INK_REACH_MM (by at most
    INK_GAIN_MAX): ink already that dark, as on a scan, is left alone; a place without ink darker than
    INK_FLOOR gains at most INK_GAIN_MAX, which leaves paper noise and dropped-out box lines pale.
    """
    dark = cv2.subtract(255, flat)  # uint8 darkness: the local peak is taken on it, which is quick
    k = max(3, int(round(2 * INK_REACH_MM * px_per_mm)) | 1)
    peak = cv2.blur(cv2.dilate(dark, np.ones((k, k), np.uint8)), (k, k))
    gain = cv2.LUT(peak, _GAIN)
    return cv2.subtract(255.0, cv2.multiply(dark, gain, dtype=cv2.CV_32F)).clip(0, 255).astype(np.uint8)


_GAIN = np.clip(INK_TARGET * 255.0 / np.maximum(np.arange(256, dtype=np.float32), INK_FLOOR * 255.0),
                1.0, INK_GAIN_MAX).astype(np.float32)  # the gain of each local peak darkness (0-255)


def ink_components(dark: np.ndarray, min_area: int = 4) -> np.ndarray:
    """Mask of the ink components large enough to be writing rather than scan dust."""
    mask = (dark > INK_LEVEL).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return np.zeros_like(mask, dtype=bool)
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep_from = max(min_area, int(0.04 * areas.max()))
    keep = np.zeros(n, dtype=bool)
    keep[1:] = areas >= keep_from
    return keep[labels]


def normalise(gray: np.ndarray, paper: float | None = None) -> Glyph:
    """Crop the ink, scale its longer side to GLYPH_SIZE keeping the aspect, centre it on INPUT_SIZE²."""
    dark = ink_map(gray, paper)
    kept = ink_components(dark)
    ink = float(kept.mean()) if kept.size else 0.0
    out = np.zeros((INPUT_SIZE, INPUT_SIZE), np.float32)
    if not kept.any():
        return Glyph(out, 0.0, None)
    ys, xs = np.nonzero(kept)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    crop = dark[y0:y1, x0:x1] * kept[y0:y1, x0:x1]
    h, w = crop.shape
    scale = GLYPH_SIZE / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ox, oy = (INPUT_SIZE - nw) // 2, (INPUT_SIZE - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    peak = out.max()
    if peak > 0:
        out /= peak  # pen pressure and scan exposure vary; shape is what matters
    return Glyph(out, ink, (int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
