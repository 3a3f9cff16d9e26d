"""Positions: FRS slip notation (RULES.md §2) and the opposite GCG convention."""
from __future__ import annotations

import pytest

from corrector.coords import Position, format_frs, format_gcg, parse_frs, parse_gcg, parse_signs
from corrector.errors import NotationError


def test_section_2_horizontal_is_row_letter_then_column():
    assert parse_frs("H4") == Position(7, 3, horizontal=True)
    assert parse_frs("h4") == Position(7, 3, horizontal=True)
    assert parse_frs(" A15 ") == Position(0, 14, horizontal=True)


def test_section_2_vertical_is_column_then_row_letter():
    assert parse_frs("8D") == Position(3, 7, horizontal=False)
    assert parse_frs("15o") == Position(14, 14, horizontal=False)


@pytest.mark.parametrize("text", ["H4", "8D", "A1", "15O", "O15", "1A"])
def test_frs_round_trip(text):
    assert format_frs(parse_frs(text)) == text


def test_gcg_convention_is_the_opposite():
    assert parse_gcg("8D") == Position(7, 3, horizontal=True)
    assert parse_gcg("D8") == Position(7, 3, horizontal=False)
    assert format_gcg(parse_gcg("8D")) == "8D"
    assert format_frs(parse_gcg("8H")) == "H8"


def test_inverted_signs_keep_the_square_and_swap_the_direction():
    assert parse_frs("4H").inverted() == parse_frs("H4")


@pytest.mark.parametrize("text,message", [
    ("", "empty"),
    ("H", "column number is missing"),
    ("12", "row letter is missing"),
    ("P4", "row letter 'P' is outside A–O"),
    ("H16", "number 16 is outside 1–15"),
    ("0H", "number 0 is outside"),
    ("H4X", "expected a row letter"),
    ("H-4", "expected a row letter"),
])
def test_malformed_positions_say_exactly_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        parse_frs(text)


def test_signs_remember_their_order():
    assert parse_signs("4H").letter_first is False
    assert parse_signs("H4").letter_first is True
