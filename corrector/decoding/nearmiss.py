"""A zero ruling two misread signs away from a legal move, or one misread sign of its square
away from a square where its word scores (RULES.md §3, D 6.1: 0 points).

The ink has the last word on one letter: a player who writes a word the list lacks one letter off
a legal move is ruled incorrect, however the legal move pulls. Two letters are another matter. A
player's phoney is one letter off the move they meant; a reader sure and wrong twice on one hand it
never saw (an M read N and a C read G: SMACEAM ruled "not a word" as SNAGEAM; every I of a script
hand read J, in the position and in the word: 11I DINDU read 11J DJNDU) makes exactly the reading
two letters off a legal move. The arbiter looks at those before anyone scores a zero. So does
a reading one sign of the square and one letter of the word from a legal move: the player who
wrote the top one sign off is penalised, not zeroed (RULES.md §3.3), and one letter the reader
took for another, sure and wrong, makes that slip a phoney at the wrong square. Held-out seed
3548 (room of 16) ruled `H2 ETALONAT`, written one sign off the top's H1, incorrect at 0.9984: its
O read D at 0.998. Reading it as the player's two mistakes (a phoney, at the wrong square) stands
on that one letter.

A square is another matter again. A player who writes the top one sign off is penalised, not zeroed
(RULES.md §3.3, D 6.3.b), and the decoder weighs that square far below a free reading, as it
should: one sign off is rare. So when the reader takes the one sign that keeps the square near the
move for another (12I read 11I, two signs from 12H), the zero is sure, and wrong. The ink decides:
where the reader itself lets that box hold the sign that makes the word score, the arbiter looks.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from .knowledge import LegalMove
from .likelihood import SQUARES


@dataclass(frozen=True)
class NearMiss:
    """The legal move a zero ruling's reading is two signs from, and those two signs."""

    move: LegalMove
    letters: tuple[tuple[str, str], ...]  # (the legal move's, the reading's)


def _differences(a: str, b: str) -> list[tuple[str, str]] | None:
    return None if len(a) != len(b) else [(x, y) for x, y in zip(a, b) if x != y]


def two_signs_from(position: str, word: str, moves: Iterable[LegalMove]) -> NearMiss | None:
    """The legal move `position word` is two misread signs from, when none is one letter from it:
    two letters of the word at the same square, or one sign of the square and one letter of the
    word (11I DINDU read 11J DJNDU, or written 11J DINDU, one sign off, and its U read A). A move
    one letter off is the player's own phoney, the ink's to rule; a word with two letters changed
    at another square is a phoney of its own."""
    found: NearMiss | None = None
    for m in moves:
        in_position, in_word = _differences(m.position, position), _differences(m.word, word)
        if in_position is None or in_word is None:
            continue
        count = len(in_position) + len(in_word)
        if count == 1:
            return None
        same_square = not in_position and len(in_word) == 2
        sign_and_letter = len(in_position) == 1 and len(in_word) == 1
        if found is None and (same_square or sign_and_letter):
            found = NearMiss(m, tuple(in_position + in_word))
    return found


@dataclass(frozen=True)
class SignMisread:
    """A square one misread sign from a zero ruling's, where its word scores."""

    position: str  # the square where the word scores
    sign: tuple[str, str]  # (that square's sign, the reading's)


def one_sign_from(position: str, logp: np.ndarray, allowed: np.ndarray, classes: str,
                  scores: Callable[[str], bool]) -> SignMisread | None:
    """The square one sign from `position` where the word scores (`scores`) and whose sign the ink
    lets its box hold (`allowed[i, k]`: box i, one written sign, may hold class k; `logp` the
    box's log-probabilities), the likeliest such sign first; None when there is none. Only squares
    a slip can name count: a 1 that may be a 0 makes N15 no N05."""
    if len(position) != len(allowed):
        return None
    options = sorted(((float(logp[i, k]), i, classes[k]) for i, read in enumerate(position)
                      for k in np.flatnonzero(allowed[i]) if classes[k] != read), reverse=True)
    for _, i, sign in options:
        square = position[:i] + sign + position[i + 1:]
        if square in SQUARES and scores(square):
            return SignMisread(square, (sign, position[i]))
    return None
