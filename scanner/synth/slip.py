"""Synthetic filled slips and scanned pages: for training checks, tests, benchmarks and sample games.

`render_slip` writes values into a template's boxes with handwriting-like glyphs and marks jokers
(circle, dot at the lower right, or tick-box: D 5.3.5, each drawn in the ways of `synth.pen`);
`draw_slip` also says how each mark and letter was drawn; `render_page` lays slips on a page and
adds what scanners and phones do to them (rotation, perspective, blur, noise, JPEG).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scanner.printing import Prefill, form_image
from scanner.synth import fonts as font_sets
from scanner.synth import pen as marks_pen
from scanner.synth import strokes
from scanner.synth.glyphs import GlyphStyle, fit_into, font_covers, real_digit_mask, render_glyph
from scanner.template import Template

PX_PER_MM = 8.0
INKS = ((140, 40, 20), (30, 30, 30), (120, 50, 50), (90, 20, 10))  # BGR: blue and black pens, never red


@dataclass
class SlipStyle:
    """Writer and pen. `fonts` default to the held-out set so a demo never flatters the model."""

    fonts: list[Path] = field(default_factory=lambda: list(font_sets.resolve(font_sets.HELD_OUT).paths))
    glyph: GlyphStyle = GlyphStyle(stroke_px=(1, 3))  # a ballpoint line is never hairline-thin
    joker_mark: str = "any"  # circle | dot | tick | any, or one way of synth.pen.MARK_WAYS
    real_digits: np.ndarray | None = None  # (N,8,8) scikit-learn or (N,28,28) MNIST images and ...
    real_digit_labels: np.ndarray | None = None  # ... labels; used for digits with real_digit_share
    real_digit_share: float = 0.0
    px_per_mm: float = PX_PER_MM
    continental_share: float = 0.0  # share of 1 4 7 L Z written in their continental forms (synth.strokes)
    continental_set: str = "held_out"  # which stroke drawings: "held_out" (benchmark) or "train"
    overrun_share: float = 0.0  # share of letters written large enough to run into the box lines


@dataclass
class SlipDrawing:
    """A rendered slip and how it was drawn: the way of each joker mark and the continental forms used."""

    image: np.ndarray
    marks: dict[tuple[str, int], str] = field(default_factory=dict)  # (field, index) -> way (synth.pen)
    forms: dict[tuple[str, int], str] = field(default_factory=dict)  # (field, index) -> continental char


def usable_faces(fonts) -> list[Path]:
    """The faces of `fonts` that can write every sign of a slip (A-Z 0-9); ValueError when none can."""
    usable = [Path(f) for f in fonts if font_covers(str(f), "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")]
    if not usable:
        raise ValueError("no installed font covers A-Z 0-9; run install.sh, which installs the font packages of scanner/synth/fonts.py")
    return usable


def _pick_font(style: SlipStyle, rng: np.random.Generator, text: str) -> str:
    usable = usable_faces(style.fonts)
    return str(usable[rng.integers(len(usable))])


def _glyph_mask(ch: str, font: str, style: SlipStyle, rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    """The glyph's ink mask and whether it is a continental form."""
    if ch.isdigit() and style.real_digits is not None and rng.random() < style.real_digit_share:
        pool = style.real_digits[style.real_digit_labels == int(ch)]
        return real_digit_mask(pool[rng.integers(len(pool))]), False
    if ch in strokes.CONTINENTAL and rng.random() < style.continental_share:
        if ch in strokes.CROSSED:
            return strokes.cross(render_glyph(ch, font, rng, style.glyph), ch, rng), True
        return strokes.template_form(ch, style.continental_set, rng), True
    return render_glyph(ch, font, rng, style.glyph), False


def _px(v: float, s: float) -> int:
    return int(round(v * s))


def _stamp(ink: np.ndarray, mask: np.ndarray, x: int, y: int) -> None:
    mask = mask[max(0, -y):, max(0, -x):]
    x, y = max(0, x), max(0, y)
    h, w = mask.shape
    region = ink[y:y + h, x:x + w]
    np.maximum(region, mask[:region.shape[0], :region.shape[1]], out=region)


def render_slip(t: Template, values: dict[str, str], rng: np.random.Generator, style: SlipStyle | None = None,
                jokers: dict[str, list[int]] | None = None, prefill: Prefill | None = None,
                marks: dict[tuple[str, int], str] | None = None) -> np.ndarray:
    """BGR image of the slip at style.px_per_mm, values written left-aligned in each field's boxes.

    `jokers` maps a field name to 0-based indices of letters marked as jokers. A 'mark' field is
    ticked when its value is non-empty. `marks` may fix the mark of a joker: (field, index) -> circle
    | dot | tick (drawn in any of its ways) or one way of synth.pen.MARK_WAYS; otherwise
    style.joker_mark decides.
    """
    return draw_slip(t, values, rng, style, jokers, prefill, marks).image


def draw_slip(t: Template, values: dict[str, str], rng: np.random.Generator, style: SlipStyle | None = None,
              jokers: dict[str, list[int]] | None = None, prefill: Prefill | None = None,
              marks: dict[tuple[str, int], str] | None = None) -> SlipDrawing:
    """`render_slip`, and how every joker mark and continental letter was drawn."""
    style = style or SlipStyle()
    s = style.px_per_mm
    img = form_image(t, s, prefill).astype(np.float32)
    ink = np.zeros(img.shape[:2], np.float32)
    font = _pick_font(style, rng, "".join(values.values()))
    pen = max(1, int(round(s * rng.uniform(0.25, 0.45))))
    drawing = SlipDrawing(img)
    for f in t.fields:
        text = values.get(f.name, "")
        if f.grammar.kind == "mark":
            if text:
                marks_pen.draw_tick(ink, f.boxes[0], s, rng, pen)
            continue
        if len(text) > len(f.boxes):
            raise ValueError(f"{t.id}: value {text!r} does not fit field {f.name} ({len(f.boxes)} boxes)")
        ways = {}
        for i in (jokers or {}).get(f.name, []):
            way = marks_pen.pick_way((marks or {}).get((f.name, i)) or style.joker_mark, rng)
            if way == "tick" and not f.ticks:
                way = marks_pen.pick_way("circle", rng)
            ways[i] = drawing.marks[(f.name, i)] = way
        cells = {}
        for i, ch in enumerate(text.upper()):
            if ch == " ":
                continue
            b = f.boxes[i]
            bw, bh = _px(b.w, s), _px(b.h, s)
            mask, continental = _glyph_mask(ch, font, style, rng)
            if continental:
                drawing.forms[(f.name, i)] = ch
            over = 0
            if ways.get(i) == "circle_inside":
                cell = fit_into(mask, bw, bh, rng, fill=marks_pen.INSIDE_FILL, jitter=0.02)
            elif rng.random() < style.overrun_share:  # as tall as the box or taller: into the box lines
                over = int(round(bh * rng.uniform(0.03, 0.08)))
                cell = fit_into(mask, bw + 2 * over, bh + 2 * over, rng, fill=(0.92, 1.0), jitter=0.03)
            else:
                cell = fit_into(mask, bw, bh, rng, fill=(0.6, 0.85), jitter=0.05)
            cells[i] = marks_pen.Written(cell, (_px(b.x, s) - over, _px(b.y, s) - over))
            _stamp(ink, cell, *cells[i].origin)
        for i, way in ways.items():
            kind, box = marks_pen.mark_kind(way), f.boxes[i]
            written = cells.get(i) or marks_pen.Written(np.zeros((1, 1), np.float32), (_px(box.x, s), _px(box.y, s)))
            if kind == "circle":
                marks_pen.draw_circle(ink, way, box, written, s, rng, pen)
            elif kind == "dot":
                marks_pen.draw_dot(ink, way, box, written, s, rng, pen)
            else:
                marks_pen.draw_tick(ink, f.ticks[i], s, rng, pen)
    colour = np.array(INKS[rng.integers(len(INKS))], np.float32)
    a = np.clip(ink, 0, 1)[:, :, None] * rng.uniform(0.8, 1.0)
    drawing.image = np.clip(img * (1 - a) + colour * a, 0, 255).astype(np.uint8)
    return drawing


@dataclass
class PageStyle:
    """How the page is captured. dpi of the result; `photo` adds perspective and uneven light."""

    dpi: float = 150.0
    page_mm: tuple[float, float] = (210.0, 297.0)
    max_tilt_deg: float = 3.0
    quarter_turns: tuple[int, ...] = (0, 2)  # 0 upright, 2 upside down, 1/3 sideways
    photo: bool = False
    noise: float = 3.0
    jpeg_quality: int | None = None


def render_page(slips: list[np.ndarray], rng: np.random.Generator, style: PageStyle | None = None,
                px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """Lay out slips (from render_slip) on one page in a grid, each turned and tilted, then capture it."""
    style = style or PageStyle()
    s = style.dpi / 25.4
    pw, ph = int(style.page_mm[0] * s), int(style.page_mm[1] * s)
    page = np.full((ph, pw, 3), 255, np.float32) * rng.uniform(0.9, 1.0)
    cols = 2 if len(slips) > 1 else 1
    rows = int(np.ceil(len(slips) / cols))
    cw, ch = pw / cols, ph / rows
    for k, slip in enumerate(slips):
        h, w = slip.shape[:2]
        turns = int(style.quarter_turns[rng.integers(len(style.quarter_turns))])
        angle = 90.0 * turns + rng.uniform(-style.max_tilt_deg, style.max_tilt_deg)
        scale = s / px_per_mm
        fit = min(cw / (max(w, h) * scale * 1.05), ch / (max(w, h) * scale * 1.05), 1.0) if turns % 2 else \
            min(cw / (w * scale * 1.08), ch / (h * scale * 1.08), 1.0)
        scale *= fit
        cx, cy = (k % cols + 0.5) * cw, (k // cols + 0.5) * ch
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
        m[0, 2] += cx - w / 2
        m[1, 2] += cy - h / 2
        _paste(page, slip, m)
    if style.photo:
        page = _photo(page, rng)
    page = cv2.GaussianBlur(page, (0, 0), rng.uniform(0.3, 0.8))
    page += rng.normal(0, style.noise, page.shape)
    out = np.clip(page, 0, 255).astype(np.uint8)
    if style.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _paste(page: np.ndarray, slip: np.ndarray, m: np.ndarray) -> None:
    """Lay the slip warped by `m` on the page, in place: only the rectangle the slip covers is
    warped and blended (a whole-page warp per slip cost most of a page's rendering time)."""
    h, w = slip.shape[:2]
    ph, pw = page.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ m.T
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in corners.min(axis=0))
    x1, y1 = min(pw, int(np.ceil(corners[:, 0].max())) + 2), min(ph, int(np.ceil(corners[:, 1].max())) + 2)
    if x0 >= x1 or y0 >= y1:
        return
    shifted = m.copy()
    shifted[0, 2] -= x0
    shifted[1, 2] -= y0
    size = (x1 - x0, y1 - y0)
    mask = cv2.warpAffine(np.ones((h, w), np.float32), shifted, size)[:, :, None]
    warped = cv2.warpAffine(slip.astype(np.float32), shifted, size)
    shade = page.mean() / 255.0
    region = page[y0:y1, x0:x1]
    page[y0:y1, x0:x1] = region * (1 - mask) + warped * mask * shade


def _photo(page: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone photo: the page seen at an angle on a darker table, with a light gradient."""
    h, w = page.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    j = lambda a: rng.uniform(0.02, a) * min(w, h)  # noqa: E731
    dst = np.float32([[j(0.12), j(0.08)], [w - j(0.12), j(0.05)], [w - j(0.05), h - j(0.05)], [j(0.05), h - j(0.1)]])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(page, m, (w, h), borderValue=(90, 100, 110))
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.8 + 0.2 * (gx / w * rng.uniform(-1, 1) + gy / h * rng.uniform(-1, 1) + 1) / 2
    return out * light[:, :, None]
