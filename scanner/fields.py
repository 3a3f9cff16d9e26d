"""Read every field of a rectified slip: drop out the boxes, cut cells, find jokers, classify, decode."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scanner import glyph
from scanner.grammar import decode
from scanner.marks import find_marks, is_ticked, tick_score
from scanner.reader import Reader
from scanner.reading import CharReading, FieldReading
from scanner.template import Field, Rect, Template

EMPTY_INK = 0.012  # inked share of a box below which it is empty
DOUBTFUL_INK = 0.03  # between the two: read, but flagged
INSET_MM = 0.45  # box border trimmed off before reading
MARGIN_MM = 1.6  # context kept around a letter box to see a circle drawn around it
TOP_K = 3


@dataclass(frozen=True)
class Cut:
    field: Field
    index: int
    image: np.ndarray  # normalised 32x32
    ink: float
    joker: str | None
    marks: dict[str, float] = field(default_factory=dict)  # confidence of each mark kind tested


PAPER = 255.0  # paper level after glyph.flatten
INK_GREY = int(PAPER * (1 - glyph.INK_LEVEL))  # grey level below which a flattened pixel is ink


def dropout(slip_bgr: np.ndarray) -> np.ndarray:
    """Red channel: the light-red boxes vanish, the player's (never red, D 3.2.b) ink stays dark."""
    return slip_bgr[:, :, 2] if slip_bgr.ndim == 3 else slip_bgr


def _crop(gray: np.ndarray, r: Rect, s: float, pad: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    h, w = gray.shape
    x0, y0 = max(0, int((r.x - pad) * s)), max(0, int((r.y - pad) * s))
    x1, y1 = min(w, int((r.x + r.w + pad) * s)), min(h, int((r.y + r.h + pad) * s))
    return gray[y0:y1, x0:x1], (r.x * s - x0, r.y * s - y0, r.w * s, r.h * s)


def cut_field(gray: np.ndarray, f: Field, s: float) -> list[Cut]:
    """Normalised cells of one field; joker circles/dots found and erased on letter fields."""
    out = []
    letters = f.grammar.kind == "letters"
    for i, box in enumerate(f.boxes):
        crop, inner = _crop(gray, box, s, MARGIN_MM if letters else 0.0)
        joker, scores = None, {}
        if f.ticks:
            tick, _ = _crop(gray, f.ticks[i], s, -INSET_MM)
            scores["tick"] = tick_score(tick, PAPER)
        if float((crop < INK_GREY).mean()) < EMPTY_INK / 4:  # blank paper: skip the costly steps
            joker = "tick" if scores.get("tick", 0.0) > 0.5 else None
            out.append(Cut(f, i, np.zeros((glyph.INPUT_SIZE, glyph.INPUT_SIZE), np.float32), 0.0, joker, scores))
            continue
        if letters:
            marks = find_marks(crop, inner, s, PAPER)
            crop, joker = marks.cleaned, marks.kind
            scores.update(marks.scores)
        bx, by, bw, bh = inner
        k = INSET_MM * s
        cell = crop[int(by + k):int(by + bh - k), int(bx + k):int(bx + bw - k)]
        g = glyph.normalise(cell, PAPER)
        if joker is None and scores.get("tick", 0.0) > 0.5:
            joker = "tick"
        out.append(Cut(f, i, g.image, g.ink, joker, scores))
    return out


def read_mark(gray: np.ndarray, f: Field, s: float) -> FieldReading:
    crop, _ = _crop(gray, f.boxes[0], s, -INSET_MM)
    ticked = is_ticked(crop, PAPER)
    return FieldReading("X" if ticked else "", 1.0, True, True)


def read_fields(slip_bgr: np.ndarray, t: Template, reader: Reader, px_per_mm: float) -> tuple[dict[str, FieldReading], dict[str, np.ndarray]]:
    """All fields of one slip; the classifier runs once on every written cell of the slip."""
    gray = glyph.flatten(dropout(slip_bgr))
    cuts: dict[str, list[Cut]] = {}
    results: dict[str, FieldReading] = {}
    for f in t.fields:
        if f.grammar.kind == "mark":
            results[f.name] = read_mark(gray, f, px_per_mm)
        else:
            cuts[f.name] = [c for c in cut_field(gray, f, px_per_mm)]
    written = [c for cs in cuts.values() for c in cs if c.ink >= EMPTY_INK]
    probs = reader.probabilities(np.stack([c.image for c in written])) if written else np.zeros((0, len(reader.classes)))
    row = {(c.field.name, c.index): k for k, c in enumerate(written)}
    cells: dict[str, np.ndarray] = {}
    for f in t.fields:
        if f.name not in cuts:
            continue
        fc = [c for c in cuts[f.name] if c.ink >= EMPTY_INK]
        warnings = []
        idx = [c.index for c in fc]
        if idx and idx != list(range(idx[0], idx[0] + len(idx))):
            warnings.append("gap_between_written_boxes")
        if any(c.ink < DOUBTFUL_INK for c in fc):
            warnings.append("faint_or_doubtful_box")
        p = probs[[row[(f.name, c.index)] for c in fc]] if fc else np.zeros((0, len(reader.classes)))
        dec = decode(f.grammar, p, reader.classes)
        chars = []
        for c, pr in zip(fc, p):
            top = np.argsort(-pr)[:TOP_K]
            chars.append(CharReading([(reader.classes[j], float(pr[j])) for j in top], c.ink, c.joker,
                                     [float(v) for v in pr], dict(c.marks)))
        jokers = [k for k, c in enumerate(fc) if c.joker]
        conf = dec.confidence * (0.5 if "faint_or_doubtful_box" in warnings else 1.0)
        accepted = dec.valid and bool(fc) and conf >= reader.threshold and "gap_between_written_boxes" not in warnings
        if not fc:
            warnings.append("empty")
        results[f.name] = FieldReading(dec.text, conf, accepted, dec.valid, chars, jokers, warnings)
        cells[f.name] = np.stack([c.image for c in fc]) if fc else np.zeros((0, 32, 32), np.float32)
    return results, cells
