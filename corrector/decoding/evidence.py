"""What the ink of one slip says, box by box: the evidence the decoder weighs hypotheses with.

Built from the scanner's reading record (`fluturas.reading/1`, scanner/README.md) parsed as JSON,
so this package never imports the scanner. Each written box keeps the reader's whole distribution
over its classes (`probs`, aligned with the record's `classes`); a record that gives only the three
best (`top_k`) has the rest of the mass spread evenly over the other classes. A typed value (no
boxes) is taken as near-certain ink. Joker marks keep their own confidence (`marks`); a record
with only the decided `joker` gets the fixed confidences of the priors file."""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .confusion import ConfusionByConfidence, ReaderConfusion
from .markscores import MarkScores, seen

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
FIELDS = {"round": ("tur", "round"), "table": ("masa", "table"), "score": ("puncte", "score"),
          "position": ("poz", "position"), "word": ("depunere", "word")}
# What a box of each field can hold. The reader names any of its classes: in a word box it may say 5
# where the writer, who writes letters there, made an S, and in a round box Z for a 2. The weight it
# puts on a class the box cannot hold goes to that class's look-alike the box can (`fold_lookalikes`),
# so a clear S read as 5 is not ruled out as an S. Weight on a class without a look-alike stays
# where it is: it never makes any letter plausible. A position holds digits and the rows A-O, so its
# S is a 5 and its Z a 2.
DIGITS = "0123456789"
HOLDS = {"round": DIGITS, "table": DIGITS, "score": DIGITS,
         "word": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "position": "ABCDEFGHIJKLMNO" + DIGITS}
LOOKALIKES = (("O", "0"), ("I", "1"), ("Z", "2"), ("S", "5"), ("G", "6"), ("B", "8"))
# A position is one column letter and the row's digits, the letter at one end (H4, 10H). Where an
# end box is clearly a letter that looks like no digit (under NOT_A_DIGIT of its mass on the digits
# and on O, I, Z, S, G, B), the other boxes are the row's digits: their I is a 1 and their O a 0,
# as an arbiter reads `L I` for L1. An end box that may be I, O, G or B (1I or I1?) settles nothing.
NOT_A_DIGIT = 0.01
FLOOR = 1e-6      # no class is ever impossible: a box the reader is sure of can still be wrong
TYPED = 1 - 1e-4
BLANK_BY_INK = ((0.02, 0.6), (0.035, 0.2), (0.05, 0.02))  # (inked share below, chance the box is blank)
BLANK_AFTER_CIRCLE = ((0.035, 0.8), (0.08, 0.5), (0.12, 0.1))  # a value typed in by hand, or a field without boxes


@dataclass(frozen=True)
class FieldInk:
    """One field: `logp[i, k]` the log-probability that written box i holds class k; `mark[i]`
    the probability that box i carries a joker mark; `text` the scanner's own best reading."""

    logp: np.ndarray
    mark: np.ndarray
    text: str
    blank: np.ndarray | None = None  # probability that box i holds no letter (a faint stray mark)
    # The reader's own calibrated log-probabilities, before the confusion mix: what the ink itself
    # lets a box hold (the decoder's veto, `plausible`); None where they are `logp` itself.
    reader_logp: np.ndarray | None = None
    # The scanner saw an empty box between written ones: a letter too faint to count may be there
    # (a thin I), and no hypothesis about the boxes it kept can say what it was.
    gap: bool = False
    # The boxes whose joker mark was found and erased, read with the mark left in
    # (`probs_as_written`): rows `written` of `as_written_logp` (and of `as_written_reader_logp`,
    # before the confusion mix) replace those of `logp` in every reading that does not take that
    # box's mark for a joker mark (`unmarked`). A false dot on an L's foot leaves a stem that reads
    # otherwise: the reading "L, no joker" is weighed on the L as written, not on that stem.
    written: tuple[int, ...] = ()
    as_written_logp: np.ndarray | None = None
    as_written_reader_logp: np.ndarray | None = None
    # each box's best class the box can hold: its own mass against its mass with the look-alikes
    # folded in (1 where the reader named a class the box can hold; a J read 5 is an S only by the
    # fold, and a B in a position's row box an 8)
    own_share: np.ndarray | None = None
    # `[i, k]`: the same share for every class k of box i (1 where the fold adds nothing to k): a
    # ruling's own character may be a box's runner-up that only the fold lifts above the best (a
    # 1 read L 0.29, 6 0.07, 2 0.04 and Z 0.08: the fold makes it a 2, the reader hardly did)
    fold_share: np.ndarray | None = None
    # `[i, k]`: classes the player's hand lends box i although the reader's own distribution rules
    # them out (`hands.py`): the ink rule lets the box hold them, the ink's own reading stays the reader's
    lent: np.ndarray | None = None
    # `[i, k]`: whether box i can hold class k at all (`HOLDS`, `box_holds`): a V read in a score box
    # is no class the player wrote there, so it is no box's best class (`plausible`'s share)
    holds: np.ndarray | None = None

    @property
    def ink_logp(self) -> np.ndarray:
        return self.logp if self.reader_logp is None else self.reader_logp

    @property
    def boxes(self) -> int:
        return int(self.logp.shape[0])

    def unmarked(self, jokers: Iterable[int]) -> "FieldInk":
        """The field as a reading with exactly the letters `jokers` marked sees it: each box whose
        mark that reading does not take for a joker mark is read as written."""
        marked = set(jokers)
        rows = [i for i in self.written if i not in marked]
        if not rows or self.as_written_logp is None:
            return self
        logp = self.logp.copy()
        logp[rows] = self.as_written_logp[rows]
        reader_logp = None
        if self.reader_logp is not None and self.as_written_reader_logp is not None:
            reader_logp = self.reader_logp.copy()
            reader_logp[rows] = self.as_written_reader_logp[rows]
        return replace(self, logp=logp, reader_logp=reader_logp, written=(), as_written_logp=None,
                       as_written_reader_logp=None)


@dataclass(frozen=True)
class SlipInk:
    """The five fields of a duplicate slip and the QR of a pre-filled one."""

    classes: str
    fields: dict[str, FieldInk]
    qr: dict[str, int]

    def index(self, ch: str) -> int:
        return self.classes.find(ch)

    def as_reader_reads(self) -> "SlipInk":
        """The slip as the reader itself reads it, before the confusion mix: what its ink alone
        says, which a legal move's pull must overrule, not borrow."""
        def own(f: FieldInk) -> FieldInk:
            if f.reader_logp is None:
                return f
            written = f.as_written_reader_logp if f.as_written_reader_logp is not None else f.as_written_logp
            return replace(f, logp=f.reader_logp, reader_logp=None, as_written_logp=written,
                           as_written_reader_logp=None)
        return replace(self, fields={name: own(f) for name, f in self.fields.items()})


def box_distribution(char: Mapping[str, Any], classes: str) -> np.ndarray:
    """The reader's distribution over `classes` for one box: `probs`, else `top_k` with the rest
    of the mass spread evenly over the other classes."""
    probs = char.get("probs")
    if isinstance(probs, (list, tuple)) and len(probs) == len(classes):
        p = np.asarray(probs, dtype=float)
    else:
        p = np.zeros(len(classes))
        for entry in char.get("top_k") or ():
            ch, q = entry[0], float(entry[1])
            k = classes.find(str(ch).upper())
            if k >= 0:
                p[k] = max(p[k], q)
        rest = max(0.0, 1.0 - p.sum())
        empty = p == 0
        if empty.any():
            p[empty] = rest / empty.sum()
    return p / max(p.sum(), 1e-12)


def plausible(logp: np.ndarray, mass: float, floor: float, share: float = 0.0,
              holds: np.ndarray | None = None) -> np.ndarray:
    """`[i, k]`: whether the ink lets box i hold class k — k is among the box's best classes that
    together cover `mass` of its probability, or has at least `floor` on its own (priors.json
    `ink`); and, when `share` is given, k has at least that share of the best class the box can
    hold (`holds`, `[i, k]`; every class where None). The decoder never decides on a reading that
    needs a class its box rules out. A 2 some hand writes so that the reader names it V 0.86, 2 0.10
    (with Z's share folded in), the other digits under 0.01, is its score box's best digit: the V
    makes it no less a 2 to an arbiter, where a 7 beside the 2 at 0.04 stays ruled out."""
    p = np.exp(logp)
    if mass >= 1.0 or p.size == 0:
        return np.ones(p.shape, bool)
    order = np.argsort(-p, axis=1)
    ranked = np.take_along_axis(p, order, axis=1)
    before = np.cumsum(ranked, axis=1) - ranked  # the mass of the better classes
    out = np.zeros(p.shape, bool)
    np.put_along_axis(out, order, before < mass, axis=1)
    out |= p >= floor
    if share <= 0:
        return out
    best = (p if holds is None else np.where(holds, p, 0.0)).max(axis=1, keepdims=True)
    return out & (p >= share * best)


def _log(p: np.ndarray) -> np.ndarray:
    p = np.maximum(p, FLOOR)
    return np.log(p / p.sum())


def _typed(text: str, classes: str, confidence: float | None = None) -> np.ndarray:
    """Boxes for a value without per-box readings: the field's confidence shared by its letters."""
    p = TYPED if confidence is None or not text else min(TYPED, max(0.05, confidence) ** (1 / len(text)))
    rows = np.full((len(text), len(classes)), math.log((1 - p) / (len(classes) - 1)))
    for i, ch in enumerate(text):
        k = classes.find(ch)
        if k >= 0:
            rows[i, k] = math.log(p)
    return rows


def _mark(char: Mapping[str, Any], decided_p: float, undecided_p: float, doubt: float = 0.0,
          scores: MarkScores | None = None) -> float:
    """The chance the box carries a joker mark. With the detector's scores calibrated on
    calibration hands (`markscores.py`) that chance is read off them; without, the detector's own
    confidence is mixed with an even chance by `doubt` (`priors.json` mark.doubt)."""
    marks = char.get("marks")
    if isinstance(marks, Mapping) and marks:
        if scores is not None:
            return scores.probability(marks)
        score = seen(marks)
        return float(min(1 - FLOOR, max(FLOOR, (1 - doubt) * score + doubt / 2)))
    return decided_p if char.get("joker") else undecided_p


def fold_lookalikes(p: np.ndarray, classes: str, holds: str | None) -> np.ndarray:
    """A box's distribution with the weight on each class it cannot hold (`holds`) moved to that
    class's look-alike it can hold (`LOOKALIKES`); unchanged when it can hold every class."""
    if not holds:
        return p
    out = p.copy()
    for pair in LOOKALIKES:
        for written, read in (pair, pair[::-1]):
            if written in holds and read not in holds:
                i, j = classes.find(written), classes.find(read)
                if i >= 0 and j >= 0:
                    out[i] += out[j]
                    out[j] = 0.0
    return out


def digits_alone(p: np.ndarray, classes: str) -> np.ndarray:
    """A box of a field that holds digits alone, weighed on its digits: the look-alikes folded in
    (`fold_lookalikes`), every other class's weight left out, the digits' share made whole.

    The scanner reads such a box twice: the character reader gives the digits their share, and the
    digit reader, taught on digits alone and wrong a third less often on writers it never saw,
    splits that share (`scanner.reader.read_digit_boxes`). A 2 some hand writes like a Y is read
    Y 0.95, 2 0.018 by the first and 2 0.98 by the second: which digit it is, only the second
    says, and the letters' share told the decoder nothing it could weigh but a row of the letters'
    confusions that lent it a 4 or a 1 as often as a 2."""
    idx = [i for i in (classes.find(c) for c in DIGITS) if i >= 0]
    folded = fold_lookalikes(p, classes, DIGITS)
    out = np.zeros_like(folded)
    out[idx] = folded[idx]
    total = float(out.sum())
    return out / total if total > 0 else p


def field_ink(item: Any, classes: str, decided_p: float = 0.97, undecided_p: float = 0.01,
              confusion: ReaderConfusion | None = None, mark_doubt: float = 0.0,
              mark_scores: MarkScores | None = None, holds: str | None = None) -> FieldInk:
    """A field of the record: `{text, chars: [...], jokers}` from the scanner, or a plain value;
    `holds`: the classes its boxes can hold (`HOLDS`)."""
    if not isinstance(item, Mapping):
        text = "" if item is None else str(item).strip().upper()
        return FieldInk(_typed(text, classes), np.full(len(text), undecided_p), text)
    text = str(item.get("text") or "").strip().upper()
    chars = item.get("chars")
    if not chars:
        jokers = set(item.get("jokers") or ())
        marks = np.array([decided_p if i in jokers else undecided_p for i in range(len(text))])
        confidence = item.get("confidence")
        return FieldInk(_typed(text, classes, confidence if isinstance(confidence, (int, float)) else None),
                        marks, text)
    mixing = confusion is not None and confusion.classes == classes
    digits_only = holds == DIGITS
    if digits_only and isinstance(confusion, ConfusionByConfidence):
        confusion = confusion.for_digit_boxes()

    def rows(own: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(log-probabilities after the confusion mix, the reader's own) of boxes read `own`."""
        if digits_only:
            own = [digits_alone(p, classes) for p in own]
        reader_logp = np.stack([_log(fold_lookalikes(p, classes, h)) for p, h in zip(own, each)])
        mixed = (np.stack([_log(fold_lookalikes(confusion.mix(p), classes, h)) for p, h in zip(own, each)])
                 if mixing else reader_logp)
        return mixed, reader_logp

    own = [box_distribution(c, classes) for c in chars]
    each = box_holds(own, classes, holds)
    logp, reader_logp = rows(own)
    marks = np.array([_mark(c, decided_p, undecided_p, mark_doubt, mark_scores) for c in chars])
    circled = [False] + [_circled(c) for c in chars[:-1]]
    gap = "gap_between_written_boxes" in (item.get("warnings") or ())
    as_written = [_as_written(c, classes) for c in chars]
    written = tuple(i for i, p in enumerate(as_written) if p is not None)
    as_written_logp = as_written_reader_logp = None
    if written:
        as_written_logp, as_written_reader_logp = rows([p if p is not None else own[i] for i, p in enumerate(as_written)])
    own_share = _own_shares(own, classes, each) if holds else None
    fold_share = _fold_shares(own, classes, each) if holds else None
    return FieldInk(logp, marks, text, np.array([blank_chance(c.get("ink"), after) for c, after in zip(chars, circled)]),
                    reader_logp if mixing else None, gap, written, as_written_logp,
                    as_written_reader_logp if mixing else None, own_share, fold_share, holds=_holdable(each, classes))


def box_holds(own: list[np.ndarray], classes: str, holds: str | None) -> list[str | None]:
    """What each box of a field can hold: the field's `holds`, except in a position whose one end
    box is clearly a letter that looks like no digit (`NOT_A_DIGIT`), where the other boxes hold digits."""
    each: list[str | None] = [holds] * len(own)
    if holds != HOLDS["position"] or len(own) < 2:
        return each
    digit_like = [i for i in (classes.find(c) for c in DIGITS + "".join(a for a, _ in LOOKALIKES)) if i >= 0]
    clear = [float(p[digit_like].sum()) < NOT_A_DIGIT * float(p.sum()) for p in (own[0], own[-1])]
    if clear[0] != clear[1]:
        letter = 0 if clear[0] else len(own) - 1
        each = [holds if i == letter else DIGITS for i in range(len(own))]
    return each


def holds_of(f: FieldInk, i: int, classes: str) -> str | None:
    """The classes box i of field `f` can hold (`FieldInk.holds`), None where it may hold any."""
    if f.holds is None or f.holds[i].all():
        return None
    return "".join(c for c, can in zip(classes, f.holds[i]) if can)


def _holdable(each: list[str | None], classes: str) -> np.ndarray:
    """`[i, k]`: whether box i can hold class k, from what each box can hold (None: any class)."""
    return np.array([[h is None or c in h for c in classes] for h in each], bool).reshape(len(each), len(classes))


def _own_shares(own: list[np.ndarray], classes: str, each: list[str | None]) -> np.ndarray:
    """Per box, the reader's own mass on the best class the box can hold (`each`, `box_holds`)
    against that class's mass with the look-alikes folded in (`fold_lookalikes`): a B read in a
    position's row box is an 8 only by the fold."""
    def share(p: np.ndarray, holds: str | None) -> float:
        if not holds:
            return 1.0
        idx = [i for i in (classes.find(c) for c in holds) if i >= 0]
        return max(float(p[idx].max()), 1e-9) / max(float(fold_lookalikes(p, classes, holds)[idx].max()), 1e-9)
    return np.array([share(p, h) for p, h in zip(own, each)])


def _fold_shares(own: list[np.ndarray], classes: str, each: list[str | None]) -> np.ndarray:
    """`[i, k]`: box i's own mass on class k against k's mass with the look-alikes folded in
    (`fold_lookalikes`); 1 where the fold adds nothing to k."""
    def shares(p: np.ndarray, holds: str | None) -> np.ndarray:
        folded = fold_lookalikes(p, classes, holds)
        return np.where(folded > p, np.maximum(p, 1e-9) / np.maximum(folded, 1e-9), 1.0)
    return np.stack([shares(p, h) for p, h in zip(own, each)]) if own else np.ones((0, len(classes)))


def _as_written(char: Mapping[str, Any], classes: str) -> np.ndarray | None:
    """The box read with its erased mark left in (`probs_as_written`), None where the record has none."""
    probs = char.get("probs_as_written")
    if not isinstance(probs, (list, tuple)) or len(probs) != len(classes):
        return None
    p = np.asarray(probs, dtype=float)
    return p / max(p.sum(), 1e-12)


def _circled(char: Mapping[str, Any]) -> bool:
    marks = char.get("marks")
    if isinstance(marks, Mapping) and "circle" in marks:
        return float(marks["circle"]) >= 0.5
    return char.get("joker") == "circle"


def blank_chance(ink: Any, after_circle: bool = False) -> float:
    """A box the scanner counted as written on very little ink may be a stray stroke: the fainter,
    the likelier it holds no letter at all; right after a circled joker it is most often the tail
    of the circle."""
    if not isinstance(ink, (int, float)):
        return FLOOR
    for limit, chance in (BLANK_AFTER_CIRCLE if after_circle else BLANK_BY_INK):
        if ink < limit:
            return chance
    return FLOOR


def _qr(text: Any) -> dict[str, int]:
    """`fluturas:v1;game=G;round=N;table=N` → {game, round, table} (scanner/README.md)."""
    if not isinstance(text, str) or not text.startswith("fluturas:"):
        return {}
    parts = dict(p.split("=", 1) for p in text.split(";")[1:] if "=" in p)
    return {k: int(v) for k, v in parts.items() if k in ("game", "round", "table") and v.isdigit()}


def slip_ink(record: Mapping[str, Any], decided_p: float = 0.97, undecided_p: float = 0.01,
             confusion: ReaderConfusion | None = None, mark_doubt: float = 0.0,
             mark_scores: MarkScores | None = None) -> SlipInk:
    """The evidence of one reading record; a field the record lacks is an empty field."""
    classes = record_classes(record)
    items = record_fields(record)
    fields = {name: field_ink(items[name], classes, decided_p, undecided_p, confusion, mark_doubt, mark_scores,
                              HOLDS.get(name)) for name in FIELDS}
    return SlipInk(classes, fields, _qr(record.get("qr")))


def record_classes(record: Mapping[str, Any]) -> str:
    """The classes a reading record's per-box distributions are aligned with."""
    return str(record.get("classes") or CLASSES).upper()


def record_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """Each field of `FIELDS` as the record gives it (under any of its names, in `fields` or at the
    record's top level), None where it lacks one."""
    given = {str(k).lower(): v for k, v in (record.get("fields") or {}).items()}
    given.update({str(k).lower(): v for k, v in record.items() if str(k).lower() in
                  {a for names in FIELDS.values() for a in names} and str(k).lower() not in given})
    return {name: next((given[a] for a in aliases if a in given), None) for name, aliases in FIELDS.items()}
