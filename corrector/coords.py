"""The one home of positions: FRS slip notation and GCG notation, parsed and printed.

FRS (RULES.md §2, D 5.3.5): horizontal = row letter then column number (`H4`); vertical =
column number then row letter (`8D`); the square is that of the main word's first letter.
GCG uses the opposite convention: `8D` (number first) is horizontal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from corrector.errors import NotationError
from corrector.rulepack import ROW_LETTERS, SIZE

_LETTER_FIRST = re.compile(r"^([A-Z])(\d+)$")
_NUMBER_FIRST = re.compile(r"^(\d+)([A-Z])$")


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """Square of the main word's first letter (0-based) and the word's direction."""

    row: int
    col: int
    horizontal: bool

    @property
    def step(self) -> tuple[int, int]:
        return (0, 1) if self.horizontal else (1, 0)

    def square(self, offset: int) -> tuple[int, int]:
        dr, dc = self.step
        return self.row + dr * offset, self.col + dc * offset

    def inverted(self) -> "Position":
        """The same two signs read in the other order: `4H` read as `H4` (RULES.md §3 step 2)."""
        return Position(self.row, self.col, not self.horizontal)

    def frs(self) -> str:
        return format_frs(self)

    def __str__(self) -> str:
        return format_frs(self)


@dataclass(frozen=True, slots=True)
class Signs:
    """The two signs of a written position, kept apart so a correction can vary one of them.
    As written on a slip, a sign off the board is None (RULES.md §3 step 3: a wrong sign)."""

    row: int | None
    col: int | None
    letter_first: bool

    @property
    def horizontal(self) -> bool:
        return self.letter_first


class SignsMissing(Enum):
    """Why a written position holds no pair of signs at all."""

    BOTH = "position is empty (both signs missing)"
    ROW_LETTER = "the row letter is missing"
    NUMBER = "the column number is missing"
    MALFORMED = "expected a row letter A–O and a number 1–15, like H4 or 8D"


def read_signs(text: str) -> Signs | SignsMissing:
    """The signs as written, each None when it is off the board; or why there are none. The slip
    decision (RULES.md §3) rules on both outcomes; `parse_signs` turns them into errors."""
    cleaned = re.sub(r"\s+", "", text or "").upper()
    if not cleaned:
        return SignsMissing.BOTH
    for pattern, letter_first in ((_LETTER_FIRST, True), (_NUMBER_FIRST, False)):
        match = pattern.match(cleaned)
        if match:
            letter, number = match.groups() if letter_first else reversed(match.groups())
            row = ROW_LETTERS.index(letter) if letter in ROW_LETTERS else None
            col = int(number) - 1 if 1 <= int(number) <= SIZE else None
            return Signs(row, col, letter_first)
    if cleaned.isdigit():
        return SignsMissing.ROW_LETTER
    if cleaned.isalpha():
        return SignsMissing.NUMBER
    return SignsMissing.MALFORMED


def parse_signs(text: str) -> Signs:
    """Split a written position into its two signs, with a precise error for malformed input."""
    signs = read_signs(text)
    if signs is SignsMissing.BOTH:
        raise NotationError(signs.value)
    if isinstance(signs, SignsMissing):
        raise NotationError(f"position {text!r}: {signs.value}")
    cleaned = re.sub(r"\s+", "", text).upper()
    if signs.row is None:
        letter = cleaned[0] if signs.letter_first else cleaned[-1]
        raise NotationError(f"position {text!r}: row letter {letter!r} is outside A–O")
    if signs.col is None:
        number = int(cleaned[1:] if signs.letter_first else cleaned[:-1])
        raise NotationError(f"position {text!r}: column/row number {number} is outside 1–{SIZE}")
    return signs


def parse_frs(text: str) -> Position:
    """`H4` -> row H, column 4, horizontal; `8D` -> column 8, row D, vertical (case-insensitive)."""
    signs = parse_signs(text)
    return Position(signs.row, signs.col, horizontal=signs.letter_first)


def format_frs(position: Position) -> str:
    letter, number = ROW_LETTERS[position.row], str(position.col + 1)
    return letter + number if position.horizontal else number + letter


def parse_gcg(text: str) -> Position:
    """GCG convention: `8D` is horizontal (row 8, column D); `D8` is vertical."""
    signs = parse_signs(text)
    # GCG letters name columns and numbers name rows: swap the roles of the FRS parse.
    return Position(row=signs.col, col=signs.row, horizontal=not signs.letter_first)


def format_gcg(position: Position) -> str:
    column, row = ROW_LETTERS[position.col], str(position.row + 1)
    return row + column if position.horizontal else column + row


def square_name(row: int, col: int) -> str:
    """`H8` style name of a square (row letter, column number)."""
    return f"{ROW_LETTERS[row]}{col + 1}"
