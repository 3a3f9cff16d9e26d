"""A zero ruling two misread letters away from a legal move, or one misread sign of its square
away from a square where its word scores (RULES.md §3, D 6.1: 0 points).

The ink has the last word on one letter: a player who writes a word the list lacks one letter off
a legal move is ruled incorrect, however the legal move pulls. Two letters are another matter. A
player's phoney is one letter off the move they meant; a reader sure and wrong twice on one hand it
never saw (an M read N and a C read G: SMACEAM ruled "not a word" as SNAGEAM; every I of a script
hand read J, in the position and in the word: 11I DINDU read 11J DJNDU) makes exactly the reading
two letters off a legal move. The arbiter looks at those before anyone scores a zero.

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
    """The legal move a zero ruling's reading is two letters from, and those two letters."""

    move: LegalMove
    letters: tuple[tuple[str, str], ...]  # (the legal move's, the reading's)


def _differences(a: str, b: str) -> list[tuple[str, str]] | None:
    return None if len(a) != len(b) else [(x, y) for x, y in zip(a, b) if x != y]


def two_letters_from(position: str, word: str, moves: Iterable[LegalMove]) -> NearMiss | None:
    """The legal move `position word` is two misread letters from, when none is one letter from it:
    two letters of the word at the same square, or one letter read as another both in the position
    and in the word (11I DINDU read 11J DJNDU). A move one letter off is the player's own phoney,
    the ink's to rule; a square and a letter changed apart are two mistakes, not one misread hand."""
    found: NearMiss | None = None
    for m in moves:
        in_position, in_word = _differences(m.position, position), _differences(m.word, word)
        if in_position is None or in_word is None:
            continue
        count = len(in_position) + len(in_word)
        if count == 1:
            return None
        same_square = not in_position and len(in_word) == 2
        one_letter_everywhere = len(in_position) == 1 and in_word == in_position
        if found is None and (same_square or one_letter_everywhere):
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
