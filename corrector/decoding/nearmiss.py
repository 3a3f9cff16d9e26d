"""A zero ruling two misread letters away from a legal move (RULES.md §3, D 6.1: 0 points).

The ink has the last word on one letter: a player who writes a word the list lacks one letter off
a legal move is ruled incorrect, however the legal move pulls. Two letters are another matter. A
player's phoney is one letter off the move they meant; a reader sure and wrong twice on one hand it
never saw (an M read N and a C read G: SMACEAM ruled "not a word" as SNAGEAM; every I of a script
hand read J, in the position and in the word: 11I DINDU read 11J DJNDU) makes exactly the reading
two letters off a legal move. The arbiter looks at those before anyone scores a zero.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .knowledge import LegalMove


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
