"""Read every field of a rectified slip: drop out the boxes, cut cells, find jokers, classify, decode."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from scanner import glyph
from scanner.grammar import DIGITS, decode
from scanner.marks import DECIDE, MarkResult, find_marks, is_ticked, rules_take, tick_score
from scanner.reader import Reader, read_digit_boxes
from scanner.reading import CharReading, FieldReading
from scanner.template import Field, Rect, Template

EMPTY_INK = 0.012  # inked share of a box below which it is empty
DOUBTFUL_INK = 0.03  # between the two: read, but flagged
INSET_MM = 0.45  # box border trimmed off before reading
MARGIN_MM = 2.6  # context kept around a letter box to see a ring drawn around the letter or the box
# A ring is looked for and erased in a wider context: the widest ring `marks` takes (6.5 mm from its
# centre) drawn around a 6 mm box reaches 3.5 mm past it, and an arc left beyond the context would
# be read as a letter in the next, empty box.
RING_MARGIN_MM = 3.6
TICK_CONTEXT_MM = 1.5  # around a tick-box: enough to see that a stroke crossing it belongs to something else
FOREIGN_SHARE = 0.2  # ink whose stroke lies mostly in other boxes (a neighbour's ring, an overrun) is theirs
TOP_K = 3


@dataclass(frozen=True)
class Cut:
    field: Field
    index: int
    image: np.ndarray  # normalised 32x32
    ink: float
    joker: str | None
    marks: dict[str, float] = field(default_factory=dict)  # confidence of each mark kind tested
    # The box as written, before the mark found on it was erased: kept to ask whether the mark was
    # a stroke of the letter itself (`mark_is_the_letter`).
    unmarked: "Cut | None" = None
    probs: np.ndarray | None = None  # the box's distribution when already settled (`_settle_marks`)
    # The box read as written, its mark left in, where the mark stays: the decoder reads the box so
    # for every reading in which this letter is no joker (the mark then a stroke of the letter).
    probs_as_written: np.ndarray | None = None
    # The box with the ring erased that the shape rules took around its letter and the ring judge
    # turned down: kept to ask whether the judge missed a circle drawn (`ring_may_be_drawn`).
    ringless: "Cut | None" = None


# A mark the search found may be the letter's own stroke: a wide O or a G taken for a ring, a G's
# spur or an L's foot taken for a dot. Erasing it then leaves scraps the reader cannot name, or names
# as another letter, while the box as written reads as a letter (for a ring, a round one). A mark
# drawn beside or around a letter leaves that letter readable once erased. Yet a ring drawn around an
# S may be read, as written, as an O, and its S may come out of the erasing broken: the two readings
# alone cannot tell these apart, so such a box is given both, half each, and its mark half believed;
# the decoder weighs them against the round, and a slip they would rule differently goes to review.
# Only where erasing left nothing at all is the box read as written. The levels were chosen on
# slips drawn in the calibration hands (never the held-out ones): they take back 96 of 118 rings and
# 48 of 103 dots found on unmarked letters, and 24 of 948 circles and 14 of 317 dots drawn.
ROUND_LETTERS = frozenset("OQDCG0")
LEGIBLE = {"circle": 0.6, "dot": 0.75}  # the best class on what the erasing left under this: no letter
WRITTEN_SURE = {"circle": 0.5, "dot": 0.9}  # the box as written read at least this surely
SAME_SHAPE = ({"O", "0"},)  # a ringed O read as the digit 0 once its ring is erased is still an O
RING_LIKE_LETTERS = frozenset("OQDCG")  # read so, as written, surely: the ring may be the letter itself
RING_LIKE_SURE = 0.9
WAS_LETTER = 0.3  # the mark's score kept for such a box: seen, half believed (the weak bin of marks.json)


def mark_is_the_letter(kind: str, left: np.ndarray | None, written: np.ndarray, classes: str) -> bool:
    """Whether a mark (`kind`) erased from a box may have been a stroke of the letter: the reader's
    distribution on what the erasing left (None: nothing) against its distribution as written."""
    k = int(np.argmax(written))
    if float(written[k]) < WRITTEN_SURE.get(kind, 1.0) or (kind == "circle" and classes[k] not in ROUND_LETTERS):
        return False
    if left is None:
        return True
    j = int(np.argmax(left))
    if j == k or {classes[j], classes[k]} in SAME_SHAPE:
        return False  # the same letter, only without its mark
    if float(left[j]) < LEGIBLE.get(kind, 0.0):
        return True
    # a ring fitted on the letter O itself, whose remainder reads as another letter (N, U, M)
    return kind == "circle" and classes[k] in RING_LIKE_LETTERS and float(written[k]) >= RING_LIKE_SURE


PAPER = 255.0  # paper level after glyph.flatten
INK_GREY = int(PAPER * (1 - glyph.INK_LEVEL))  # grey level below which a flattened pixel is ink


# The mirror case: the shape rules took a ring around a letter (it holds one, clear of the ring) and
# the ring judge turned it down. The judge is sure and wrong on a few narrow rings drawn tight around
# a thin letter: PLAGIIND, its joker I ringed by a 2.7 x 8.1 mm ellipse, was read, ring and all, as a
# slashed 0 and ruled PLAGIOND, incorrect, at 0.9999 on a calibration pile. Where the box as written
# reads as a round letter (the ring itself) and the box with the ring erased as letters that are not
# round, the two readings alone cannot tell a circle from a letter's own stroke: the box is given
# both, half each, and the circle half believed (WAS_LETTER); the decoder weighs them against the round.


LETTER_OF_DIGIT = {"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B"}  # in a letter box, a digit is its look-alike


def _as_letters(p: np.ndarray, classes: str) -> dict[str, float]:
    """A letter box's distribution with each digit's weight on the letter it looks like."""
    out: dict[str, float] = {}
    for k, c in enumerate(classes):
        letter = LETTER_OF_DIGIT.get(c, c)
        out[letter] = out.get(letter, 0.0) + float(p[k])
    return out


def ring_may_be_drawn(written: np.ndarray, ringless: np.ndarray, classes: str) -> bool:
    """Whether a ring the judge turned down may still be a joker's circle drawn around the letter
    (RULES.md §2, D 5.3.5: a joker is marked by a circle around its letter): the
    reader's distribution on the box as written (mostly a round letter: the ring read as the letter)
    against its distribution with the ring erased (mostly letters that are not round: a remnant of
    the ring may leave an I read L or I). Digits count as the letters they look like: the box holds
    a letter. A box read, as written, surely as a round letter (an O, not the slashed 0 a ring
    around a thin letter looks like) is that letter: its ring is the letter's own outline, and what
    is left inside it scraps."""
    k = int(np.argmax(written))
    if classes[k] in RING_LIKE_LETTERS and float(written[k]) >= RING_LIKE_SURE:
        return False
    as_written, left = _as_letters(written, classes), _as_letters(ringless, classes)
    if sum(as_written.get(c, 0.0) for c in ROUND_LETTERS) < WRITTEN_SURE["circle"]:
        return False
    return sum(v for c, v in left.items() if c not in ROUND_LETTERS) >= LEGIBLE["circle"]


def dropout(slip_bgr: np.ndarray) -> np.ndarray:
    """Red channel: the light-red boxes vanish, the player's (never red, D 3.2.b) ink stays dark."""
    return slip_bgr[:, :, 2] if slip_bgr.ndim == 3 else slip_bgr


def slip_gray(slip_bgr: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The rectified slip as the fields are read from it: dropped out, paper flattened to PAPER, faint
    ink darkened. A new image: marks are erased in it as they are found."""
    return glyph.deepen_faint_ink(glyph.flatten(dropout(slip_bgr)), px_per_mm)


def _window(shape: tuple[int, ...], r: Rect, s: float, pad: float) -> tuple[slice, slice]:
    h, w = shape[:2]
    x0, y0 = max(0, int((r.x - pad) * s)), max(0, int((r.y - pad) * s))
    x1, y1 = min(w, int((r.x + r.w + pad) * s)), min(h, int((r.y + r.h + pad) * s))
    return slice(y0, y1), slice(x0, x1)


def _crop(gray: np.ndarray, r: Rect, s: float, pad: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A view of the rect with `pad` mm around it, and the rect in the view's pixels."""
    ys, xs = _window(gray.shape, r, s, pad)
    return gray[ys, xs], (r.x * s - xs.start, r.y * s - ys.start, r.w * s, r.h * s)


def context_mm(kinds: tuple[str, ...]) -> float:
    """The context a box is looked at in for these kinds of mark: wider for rings (RING_MARGIN_MM)."""
    return RING_MARGIN_MM if "circle" in kinds else MARGIN_MM


class MarkSearch:
    """Find and erase (in `work`) the joker marks of a letter field's boxes: the circles, surest first,
    then the dots.

    A ring drawn around one letter often crosses its neighbours: erasing the surest ring first and
    looking again next to it keeps its arcs from being taken for a ring or a letter there. Dots are
    looked for once every ring is gone, so that no arc is taken for a dot.
    """

    judge_rings = True  # the ring judge weighs each ring fitted (`marks.judged`)

    def __init__(self, work: np.ndarray, f: Field, s: float) -> None:
        self.work, self.field, self.s = work, f, s
        self.jokers: list[str | None] = [None] * len(f.boxes)
        self.scores: list[dict[str, float]] = [{} for _ in f.boxes]
        self.found: dict[int, MarkResult] = {}
        self.rings = np.zeros(work.shape, bool)  # where rings were erased
        # rings the shape rules took around a letter and the judge turned down: box -> the ring's ink
        self.turned_down: dict[int, np.ndarray] = {}

    def view(self, i: int, margin: float) -> tuple[np.ndarray, tuple[float, ...], np.ndarray | None] | None:
        """Box i's crop with `margin` mm of context, the box in the crop's pixels and where rings were
        erased there; None when the box is empty."""
        crop, inner = _crop(self.work, self.field.boxes[i], self.s, margin)
        bx, by, bw, bh = inner
        if float((crop[int(by):int(by + bh), int(bx):int(bx + bw)] < INK_GREY).mean()) < EMPTY_INK / 2:
            return None
        avoid, _ = _crop(self.rings, self.field.boxes[i], self.s, margin)
        return crop, inner, avoid if avoid.any() else None

    def look(self, i: int, kinds: tuple[str, ...]) -> None:
        seen = self.view(i, context_mm(kinds))
        if seen is None:
            self.scores[i].update({k: 0.0 for k in kinds})
            self.found.pop(i, None)
            return
        crop, inner, avoid = seen
        self.found[i] = find_marks(crop, inner, self.s, PAPER, kinds, avoid, self.judge_rings)
        self.scores[i].update(self.found[i].scores)

    def take(self, i: int, kind: str) -> None:
        margin = context_mm((kind,))  # the context the mark was found in
        crop, _ = _crop(self.work, self.field.boxes[i], self.s, margin)
        erased, _ = _crop(self.rings, self.field.boxes[i], self.s, margin)
        cleaned = self.found.pop(i).cleaned
        erased |= cleaned != crop  # no later search takes what is left of an erased mark for one of its own
        crop[...] = cleaned
        self.jokers[i] = kind

    def erase_rings(self) -> None:
        for i in range(len(self.field.boxes)):
            self.look(i, ("circle",))
        while True:
            ring = [i for i in self.found if self.found[i].kind == "circle" and self.jokers[i] is None]
            if not ring:
                break
            i = max(ring, key=lambda k: self.scores[k]["circle"])
            self.take(i, "circle")
            for j in (i - 1, i + 1):
                if 0 <= j < len(self.field.boxes) and self.jokers[j] is None:
                    self.look(j, ("circle",))
        self.turned_down = {i: r.ring.erase for i, r in self.found.items()
                            if r.kind is None and self.jokers[i] is None and rules_take(r.ring)}

    def without_turned_down(self) -> np.ndarray:
        """The field's image with every ring the judge turned down erased as well."""
        out = self.work.copy()
        for i, ring in self.turned_down.items():
            crop, _ = _crop(out, self.field.boxes[i], self.s, RING_MARGIN_MM)
            crop[ring] = PAPER
        return out

    def erase_dots(self) -> None:
        for i in range(len(self.field.boxes)):
            if self.jokers[i] is None:
                self.look(i, ("dot",))
                if self.found.get(i) is not None and self.found[i].kind == "dot":
                    self.take(i, "dot")


def _erase_marks(work: np.ndarray, f: Field, s: float) -> MarkSearch:
    """Find and erase (in `work`) the joker circles and dots of a letter field: the search holds each
    box's mark, the confidence of every kind looked for and the rings the judge turned down."""
    search = MarkSearch(work, f, s)
    search.erase_rings()
    search.erase_dots()
    return search


def _own_cells(work: np.ndarray, f: Field, s: float) -> list[np.ndarray]:
    """Each box's crop without the strokes that lie mostly in other boxes.

    A letter running into the next box, or an arc of a ring drawn around a neighbour's letter, is
    ink of the neighbour's stroke: left in place it would make an empty box look written.
    """
    first, last = f.boxes[0], f.boxes[-1]
    span = Rect(first.x, min(b.y for b in f.boxes), last.x + last.w - first.x, max(b.h for b in f.boxes))
    ys, xs = _window(work.shape, span, s, MARGIN_MM)
    strip = work[ys, xs]
    n, labels = cv2.connectedComponents((strip < INK_GREY).astype(np.uint8), connectivity=8)
    total = np.bincount(labels.ravel(), minlength=n)
    cells = []
    k = INSET_MM * s
    for box in f.boxes:
        y0, y1 = int(box.y * s + k) - ys.start, int((box.y + box.h) * s - k) - ys.start
        x0, x1 = int(box.x * s + k) - xs.start, int((box.x + box.w) * s - k) - xs.start
        cell = strip[y0:y1, x0:x1].copy()
        lab = labels[y0:y1, x0:x1]
        here = np.bincount(lab.ravel(), minlength=n)
        foreign = (here < FOREIGN_SHARE * total)
        foreign[0] = False
        cell[foreign[lab]] = PAPER
        cells.append(cell)
    return cells


def cut_field(work: np.ndarray, f: Field, s: float) -> list[Cut]:
    """Normalised cells of one field; joker circles/dots found and erased (in `work`) on letter fields."""
    before = work
    ringless: list[np.ndarray] = []  # each box's cell with the rings the judge turned down erased
    turned_down: dict[int, np.ndarray] = {}
    if f.grammar.kind == "letters":
        before = work.copy()  # the field as written, before its marks are erased
        search = _erase_marks(work, f, s)
        jokers, scores, turned_down = search.jokers, search.scores, search.turned_down
        if turned_down:
            ringless = _own_cells(search.without_turned_down(), f, s)
    else:
        jokers, scores = [None] * len(f.boxes), [{} for _ in f.boxes]
    for i, tick in enumerate(f.ticks):
        crop, inner = _crop(work, tick, s, TICK_CONTEXT_MM)
        k = INSET_MM * s
        scores[i]["tick"] = tick_score(crop, PAPER, (inner[0] + k, inner[1] + k, inner[2] - 2 * k, inner[3] - 2 * k))
        if jokers[i] is None and scores[i]["tick"] > DECIDE:
            jokers[i] = "tick"
    marked = [i for i, j in enumerate(jokers) if j in ("circle", "dot")]
    written = _own_cells(before, f, s) if marked else []
    out = []
    for i, cell in enumerate(_own_cells(work, f, s)):
        unmarked = _cut(f, i, written[i], None, scores[i]) if i in marked else None
        cut = _cut(f, i, cell, jokers[i], scores[i], unmarked)
        if i in turned_down:
            cut = replace(cut, ringless=_cut(f, i, ringless[i], None, scores[i]))
        out.append(cut)
    return out


def _cut(f: Field, i: int, cell: np.ndarray, joker: str | None, marks: dict[str, float],
         unmarked: Cut | None = None) -> Cut:
    if float((cell < INK_GREY).mean()) < EMPTY_INK / 4:  # blank paper: skip normalising
        return Cut(f, i, np.zeros((glyph.INPUT_SIZE, glyph.INPUT_SIZE), np.float32), 0.0, joker, marks, unmarked)
    g = glyph.normalise(cell, PAPER)
    return Cut(f, i, g.image, g.ink, joker, marks, unmarked)


def _settle_marks(cuts: list[Cut], reader: Reader) -> list[Cut]:
    """Each box whose mark was erased read as left and as written; where the mark may have been a
    stroke of the letter (`mark_is_the_letter`), the box unmarked, with its mark's score lowered and
    both readings, half each (as written alone when the erasing left nothing). A box whose mark
    stays keeps its reading as left, so it is not read again, and its reading as written. A box whose
    ring the judge turned down is read as written and with the ring erased; where that ring may be a
    circle drawn (`ring_may_be_drawn`), it is given both readings, half each, its circle half
    believed, and its reading as written for every reading that takes it for no joker."""
    marked = [k for k, c in enumerate(cuts) if c.unmarked is not None]
    doubted = [k for k, c in enumerate(cuts) if c.ringless is not None and min(c.ink, c.ringless.ink) >= EMPTY_INK]
    if not marked and not doubted:
        return [replace(c, ringless=None) for c in cuts]
    inked = [k for k in marked if cuts[k].ink >= EMPTY_INK]
    views = ([cuts[k].image for k in inked] + [cuts[k].unmarked.image for k in marked]
             + [cuts[k].image for k in doubted] + [cuts[k].ringless.image for k in doubted])
    probs = iter(reader.probabilities(np.stack(views)))
    left = {k: next(probs) for k in inked}
    out = [replace(c, ringless=None) for c in cuts]
    for k in marked:
        c, raw, written = cuts[k], cuts[k].unmarked, next(probs)
        if raw.ink >= EMPTY_INK and mark_is_the_letter(c.joker, left.get(k), written, reader.classes):
            marks = {**c.marks, c.joker: min(c.marks.get(c.joker, 0.0), WAS_LETTER)}
            both = written if k not in left else 0.5 * (written + left[k])
            out[k] = Cut(c.field, c.index, raw.image, raw.ink, None, marks, probs=both)
        elif k in left:
            out[k] = replace(out[k], probs=left[k], probs_as_written=written)
    as_written = {k: next(probs) for k in doubted}
    for k in doubted:
        written, ringless = as_written[k], next(probs)
        if ring_may_be_drawn(written, ringless, reader.classes):
            marks = {**cuts[k].marks, "circle": max(cuts[k].marks.get("circle", 0.0), WAS_LETTER)}
            out[k] = replace(out[k], marks=marks, probs=0.5 * (written + ringless), probs_as_written=written)
        else:
            out[k] = replace(out[k], probs=written)
    return out


def read_mark(gray: np.ndarray, f: Field, s: float) -> FieldReading:
    crop, _ = _crop(gray, f.boxes[0], s, -INSET_MM)
    ticked = is_ticked(crop, PAPER)
    return FieldReading("X" if ticked else "", 1.0, True, True)


def read_fields(slip_bgr: np.ndarray, t: Template, reader: Reader, px_per_mm: float) -> tuple[dict[str, FieldReading], dict[str, np.ndarray]]:
    """All fields of one slip; the classifier runs once on every written cell of the slip."""
    gray = slip_gray(slip_bgr, px_per_mm)
    cuts: dict[str, list[Cut]] = {}
    results: dict[str, FieldReading] = {}
    for f in t.fields:
        if f.grammar.kind == "mark":
            results[f.name] = read_mark(gray, f, px_per_mm)
        else:
            cuts[f.name] = _settle_marks(cut_field(gray, f, px_per_mm), reader)
    written = [c for cs in cuts.values() for c in cs if c.ink >= EMPTY_INK]
    unread = [c for c in written if c.probs is None]
    read = iter(reader.probabilities(np.stack([c.image for c in unread])) if unread else ())
    probs = np.array([c.probs if c.probs is not None else next(read) for c in written]).reshape(-1, len(reader.classes))
    # the boxes whose field's grammar allows a digit (table, round, score, and the position's row),
    # read again by the digit reader (`read_digit_boxes`; a letter's share stays the character reader's)
    digit_rows = [k for k, c in enumerate(written) if not set(DIGITS).isdisjoint(c.field.grammar.alphabet())]
    if digit_rows:
        probs[digit_rows] = read_digit_boxes(reader, np.stack([written[k].image for k in digit_rows]), probs[digit_rows])
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
            as_written = [] if c.probs_as_written is None else [float(v) for v in c.probs_as_written]
            chars.append(CharReading([(reader.classes[j], float(pr[j])) for j in top], c.ink, c.joker,
                                     [float(v) for v in pr], dict(c.marks), as_written))
        jokers = [k for k, c in enumerate(fc) if c.joker]
        conf = dec.confidence * (0.5 if "faint_or_doubtful_box" in warnings else 1.0)
        accepted = dec.valid and bool(fc) and conf >= reader.threshold and "gap_between_written_boxes" not in warnings
        if not fc:
            warnings.append("empty")
        results[f.name] = FieldReading(dec.text, conf, accepted, dec.valid, chars, jokers, warnings)
        cells[f.name] = np.stack([c.image for c in fc]) if fc else np.zeros((0, 32, 32), np.float32)
    return results, cells
