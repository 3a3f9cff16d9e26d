"""How well a string explains the ink of a field, in log space: the product of the per-box class
probabilities of its characters, times the chance that the number of written boxes differs from
the string's length (a box left out or an extra stroke: rare, never impossible), and for a word the
joker marks. Also the k best strings a field's grammar allows, for the free reading."""
from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from itertools import combinations

import numpy as np

from .evidence import FieldInk

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
ROWS = "ABCDEFGHIJKLMNO"
LENGTH_MISS = math.log(1e-6)  # per box written but not in the string, or in the string but not written


def alignments(ink: FieldInk, length: int) -> list[tuple[list[int], float]]:
    """Which written boxes hold a string of `length` characters, and the log-chance of that: every
    box; or, for a shorter string, all but some faint boxes (`FieldInk.blank`), else the first
    ones with the rest missed; a longer string misses its last characters."""
    n = ink.boxes
    blank = ink.blank if ink.blank is not None else np.zeros(n)
    kept = np.log1p(-np.minimum(blank, 1 - 1e-12))
    if length >= n:
        return [(list(range(n)), float(kept.sum()) + LENGTH_MISS * (length - n))]
    skip = n - length
    faint = [i for i in range(n) if blank[i] > 1e-3]
    out = []
    if len(faint) >= skip:
        for dropped in combinations(faint, skip):
            rows = [i for i in range(n) if i not in dropped]
            out.append((rows, float(kept[rows].sum() + np.log(blank[list(dropped)]).sum())))
    out.append((list(range(length)), float(kept[:length].sum()) + LENGTH_MISS * skip))
    return out


def string_loglik(ink: FieldInk, text: str, classes: str) -> float:
    """log P(ink | the writer wrote `text`); characters outside the classes count as misread."""
    codes = [classes.find(ch) for ch in text]
    best = -math.inf
    for rows, extra in alignments(ink, len(text)):
        total = extra
        for i, r in enumerate(rows):
            total += float(ink.logp[r, codes[i]]) if codes[i] >= 0 else LENGTH_MISS
        best = max(best, total)
    return best


def number_text(value: int, boxes: int) -> str:
    """A number as the boxes hold it: leading zeros when more boxes are written (`012`)."""
    text = str(value)
    return text.zfill(boxes) if boxes > len(text) else text


def number_loglik(ink: FieldInk, value: int | None, classes: str) -> float:
    """A number field: None means the field was left empty."""
    if value is None:
        return LENGTH_MISS * ink.boxes
    return string_loglik(ink, number_text(value, ink.boxes), classes)


def marks_loglik(ink: FieldInk, jokers: Iterable[int]) -> float:
    """log P(marks seen | exactly the letters `jokers` marked); a mark on a box not written is a miss."""
    chosen = set(jokers)
    total = 0.0
    for i, p in enumerate(ink.mark):
        total += math.log(p) if i in chosen else math.log1p(-p)
    return total + LENGTH_MISS * sum(1 for j in chosen if j >= ink.boxes)


def words_loglik(ink: FieldInk, words: list[str], classes: str) -> np.ndarray:
    """`string_loglik` for many words at once (the legal moves of a round), vectorised by length."""
    out = np.empty(len(words))
    index = {ch: classes.find(ch) for ch in set("".join(words))}
    by_length: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        by_length.setdefault(len(w), []).append(i)
    for length, rows in by_length.items():
        best = np.full(len(rows), -math.inf)
        for boxes, extra in alignments(ink, length):
            n = len(boxes)
            if n == 0:
                best = np.maximum(best, extra)
                continue
            codes = np.array([[index[w[j]] for j in range(n)] for w in (words[r] for r in rows)])
            table = np.concatenate([ink.logp[boxes], np.full((n, 1), LENGTH_MISS)], axis=1)
            picked = table[np.arange(n)[None, :], np.where(codes < 0, table.shape[1] - 1, codes)]
            best = np.maximum(best, extra + picked.sum(axis=1))
        out[rows] = best
    return out


def kbest(ink: FieldInk, allowed: list[str], classes: str, k: int) -> list[tuple[str, float]]:
    """The k most likely strings with box i drawn from `allowed[i]` (the field grammar), best first."""
    if ink.boxes == 0:
        return [("", 0.0)]
    beams: list[tuple[float, str]] = [(0.0, "")]
    for i in range(ink.boxes):
        options = allowed[min(i, len(allowed) - 1)]
        scored = [(score + float(ink.logp[i, classes.find(ch)]), text + ch)
                  for score, text in beams for ch in options if classes.find(ch) >= 0]
        beams = heapq.nlargest(k, scored)
    return [(text, score) for score, text in beams]


def position_strings() -> list[str]:
    """Every position a slip can name: `H4` (row then column, across), `4H` (column then row, down)."""
    out = []
    for row in ROWS:
        for col in range(1, 16):
            out += [f"{row}{col}", f"{col}{row}"]
    return out


SQUARES = frozenset(position_strings())  # the squares a slip can name (N5, never N05)


def position_logliks(ink: FieldInk, classes: str) -> dict[str, float]:
    return {text: string_loglik(ink, text, classes) for text in position_strings()}


def number_kbest(ink: FieldInk, classes: str, k: int) -> list[tuple[int | None, float]]:
    """The k most likely numbers written in a numeric field (None: left empty)."""
    if ink.boxes == 0:
        return [(None, 0.0)]
    seen: dict[int, float] = {}
    for text, score in kbest(ink, [DIGITS], classes, k):
        value = int(text)
        seen[value] = max(seen.get(value, -math.inf), score)
    return sorted(seen.items(), key=lambda kv: -kv[1])
