"""A position's strokes that are a letter or a digit only by where they stand (RULES.md §3).

A bare stroke is an I or a 1, a ring an O or a 0: the reader's split between them says little of
which the player meant (`0I` read 0 0.996, I 0.73). A position has one letter, at one end, and a
row and column that exist, so where only one square is written with those strokes (`0I` can only
be O1, `I4F` only 14F) the ink allows it, whichever of the pair the reader preferred, as an arbiter
reads it. Where two squares share the strokes (I1 across, 1I down) the reader's split is all the
ink says, and only the square its own reading prefers is allowed: an inverted position is never
decided over the ink on a stroke's shape. G and 6, B and 8 are told apart by their shapes and are
not paired here (`1G` read `I6` at 0.9954 stays ruled out)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .evidence import LOOKALIKES, FieldInk
from .likelihood import SQUARES, string_loglik

PAIRS = tuple(pair for pair in LOOKALIKES if pair[0] in "IO")  # the look-alikes of one same stroke
PARTNER = {a: b for pair in PAIRS for a, b in (pair, pair[::-1])}


def twins(text: str) -> list[str]:
    """The other squares written with the strokes of position `text` (each I/1 and O/0 either way)."""
    spellings = [""]
    for ch in text:
        options = (ch, PARTNER[ch]) if ch in PARTNER else (ch,)
        spellings = [s + c for s in spellings for c in options]
    return [s for s in spellings if s != text and s in SQUARES]


def allow_pairs(allowed: np.ndarray, f: FieldInk, text: str, classes: str) -> np.ndarray:
    """`allowed` (`[box, class]`, the ink rule of a position field) with each box's I and 1, O and
    0 allowed together when no other square written with the same strokes is likelier by the
    reader's own reading (`FieldInk.ink_logp`); `allowed` unchanged otherwise."""
    rivals = twins(text)
    if rivals:
        own = replace(f, logp=f.ink_logp)
        mine = string_loglik(own, text, classes)
        if any(string_loglik(own, rival, classes) >= mine for rival in rivals):
            return allowed
    out = allowed.copy()
    for a, b in PAIRS:
        ia, ib = classes.find(a), classes.find(b)
        if ia >= 0 and ib >= 0:
            either = out[:, ia] | out[:, ib]
            out[:, ia] = either
            out[:, ib] = either
    return out
