"""Handwriting-like glyph masks from fonts, with the distortions a pen and a scanner add.

Used both to build training cells and to write on synthetic slips, so the two stay alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scanner.synth import monoline

RENDER_PX = 64  # font size of the master rendering, before distortion and resizing
_MISSING_PROBE = "\ue000"  # a private-use code point: renders as the font's "missing glyph" box


@dataclass(frozen=True)
class GlyphStyle:
    """How strongly to distort a glyph. Defaults mimic careful block capitals."""

    rotation_deg: float = 8.0
    shear: float = 0.3
    stretch: float = 0.2  # relative width change, both ways
    stroke_px: tuple[int, int] = (-1, 3)  # erosion (<0) / dilation (>0) range at RENDER_PX scale
    elastic_px: float = 2.5
    monoline_share: float = 0.0  # share redrawn along the centre line with a round pen (monoline.redraw)
    monoline_pen_px: tuple[int, int] = (3, 9)  # that pen's width range at RENDER_PX scale
    ball_end_share: float = 0.0  # share of glyphs whose stroke ends carry a ball (`ball_ends`)
    ball_end_scale: tuple[float, float] = (1.3, 2.0)  # the ball's width against the stroke's


@lru_cache(maxsize=512)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _raw(char: str, path: str) -> np.ndarray:
    return _raw_cached(char, path).astype(np.float32) / 255.0


@lru_cache(maxsize=16384)
def _raw_cached(char: str, path: str) -> np.ndarray:
    """Master rendering, cropped with a margin that leaves room for dilation and rotation."""
    font = _font(path, RENDER_PX)
    canvas = Image.new("L", (RENDER_PX * 3, RENDER_PX * 3), 0)
    ImageDraw.Draw(canvas).text((RENDER_PX, RENDER_PX // 2), char, fill=255, font=font)
    img = np.asarray(canvas, np.uint8)
    ys, xs = np.nonzero(img > 50)
    if len(xs) == 0:
        return img[:1, :1]
    side = max(ys.max() - ys.min(), xs.max() - xs.min())
    pad = side // 3 + 6
    y0, x0 = max(0, ys.min() - pad), max(0, xs.min() - pad)
    return img[y0:ys.max() + pad, x0:xs.max() + pad].copy()


@lru_cache(maxsize=512)
def font_covers(path: str, chars: str) -> bool:
    """True when every char has a real glyph (not the font's missing-glyph box) and the font loads."""
    try:
        missing = _raw(_MISSING_PROBE, path)
        for c in chars:
            img = _raw(c, path)
            if img.sum() < 20 or (missing.sum() > 0 and np.array_equal(img > 0.5, missing > 0.5)):
                return False
    except OSError:
        return False
    return True


def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 0.2)
    if len(xs) == 0:
        return mask[:1, :1]
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _elastic(mask: np.ndarray, rng: np.random.Generator, alpha: float) -> np.ndarray:
    h, w = mask.shape
    sigma = max(h, w) / 6
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    norm = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(mask, gx + dx / norm * alpha, gy + dy / norm * alpha, cv2.INTER_LINEAR, borderValue=0)


def _stroke(mask: np.ndarray, k: int) -> np.ndarray:
    """A thinner (k < 0) or thicker (k > 0) pen; the pen as designed when that would lose the letter:
    an erosion that wipes out most of a thin face, a dilation that closes the counters of a bold one."""
    if not k:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(k) * 2 + 1, abs(k) * 2 + 1))
    changed = cv2.dilate(mask, kernel) if k > 0 else cv2.erode(mask, kernel)
    if k < 0 and changed.sum() < 0.6 * mask.sum():
        return mask
    if k > 0:
        box = _crop(changed)
        if box.shape[0] > 8 and box.shape[1] > 8 and float((box > 0.5).mean()) > 0.55:
            return mask
    return changed


def render_glyph(char: str, font_path: str | Path, rng: np.random.Generator,
                 style: GlyphStyle = GlyphStyle()) -> np.ndarray:
    """Ink mask (float32 0..1, tightly cropped) of one handwritten-looking character."""
    mask = _raw(char, str(font_path))
    if style.monoline_share and rng.random() < style.monoline_share:  # as printed with a ballpoint
        mask = monoline.redraw(mask, int(rng.integers(style.monoline_pen_px[0], style.monoline_pen_px[1] + 1)))
    if style.ball_end_share and rng.random() < style.ball_end_share:
        mask = ball_ends(mask, rng, style.ball_end_scale)
    return distort(mask, rng, style)


def ball_ends(mask: np.ndarray, rng: np.random.Generator, scale: tuple[float, float]) -> np.ndarray:
    """The glyph with a ball on its stroke ends, as some hands and faces write them (a K's leg or a
    Z's foot ending in a blob or a curl): on the end nearest the lower right, where a joker dot is
    drawn, and half the time on another. A ball is `scale` times the stroke's width, narrower than a
    pressed joker dot (`synth.pen.draw_dot`, at least twice it): what the dot judge must tell apart."""
    ink = (mask > 0.5).astype(np.uint8)
    line = monoline.thin(ink)
    count = cv2.filter2D(line, -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT)
    ys, xs = np.nonzero((line > 0) & (count == 2))  # a centre-line pixel with a single neighbour
    if not len(xs):
        return mask
    half_stroke = float(np.percentile(cv2.distanceTransform(ink, cv2.DIST_L2, 3)[ink > 0], 90))
    ends = [int(np.argmax(xs + ys))]
    if len(xs) > 1 and rng.random() < 0.5:
        ends.append(int(rng.integers(len(xs))))
    out = mask.copy()
    for k in ends:
        radius = max(1, int(round(half_stroke * rng.uniform(*scale))))
        cv2.circle(out, (int(xs[k]), int(ys[k])), radius, 1.0, -1, cv2.LINE_AA)
    return out


def distort(mask: np.ndarray, rng: np.random.Generator, style: GlyphStyle = GlyphStyle()) -> np.ndarray:
    """One writer's variation of a glyph mask (float32 0..1): pen width, slant, width, a smooth
    wobble. Tightly cropped."""
    mask = _stroke(mask, int(rng.integers(style.stroke_px[0], style.stroke_px[1] + 1)))
    h, w = mask.shape
    angle = rng.uniform(-style.rotation_deg, style.rotation_deg)
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    shear = np.array([[1 + rng.uniform(-style.stretch, style.stretch), rng.uniform(-style.shear, style.shear), 0],
                      [0, 1, 0]], np.float32)
    shear[0, 2] = -shear[0, 1] * h / 2 + (1 - shear[0, 0]) * w / 2
    m = np.vstack([rot, [0, 0, 1]]) @ np.vstack([shear, [0, 0, 1]])
    mask = cv2.warpAffine(mask, m[:2].astype(np.float32), (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    if style.elastic_px > 0:
        mask = _elastic(mask, rng, rng.uniform(0, style.elastic_px))
    return np.clip(_crop(mask), 0, 1)


def fit_into(mask: np.ndarray, box_w: int, box_h: int, rng: np.random.Generator,
             fill: tuple[float, float] = (0.55, 0.85), jitter: float = 0.08) -> np.ndarray:
    """Place a glyph mask inside a box_w×box_h cell at a writer-like size and offset."""
    out = np.zeros((box_h, box_w), np.float32)
    h, w = mask.shape
    target_h = box_h * rng.uniform(*fill)
    scale = min(target_h / h, box_w * 0.9 / w)
    nw, nh = max(1, int(w * scale)), max(1, int(h * scale))
    small = cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA)
    cx = (box_w - nw) / 2 + rng.uniform(-jitter, jitter) * box_w
    cy = (box_h - nh) / 2 + rng.uniform(-jitter, jitter) * box_h
    x0 = int(np.clip(cx, 0, box_w - nw))
    y0 = int(np.clip(cy, 0, box_h - nh))
    out[y0:y0 + nh, x0:x0 + nw] = small
    return out


def real_digit_mask(image: np.ndarray) -> np.ndarray:
    """A real handwritten digit as an ink mask: an 8×8 scikit-learn digit (0..16) smoothly upsampled
    like a low-resolution scan, or a 28×28 MNIST digit (0..255) at twice its size."""
    img = image.astype(np.float32) / (16.0 if image.shape[0] <= 8 else 255.0)
    side = 32 if image.shape[0] <= 8 else 2 * image.shape[0]
    up = cv2.resize(img, (side, side), interpolation=cv2.INTER_CUBIC)
    return _crop(np.clip(up, 0, 1))
