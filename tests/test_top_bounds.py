"""`fluturas top` refuses what no game can hold, in one line and at once (exit 2, BAD_INPUT): a
rack longer than any group of the pack (RULES.md §5, D 8: 7 letters, 8 in eliptic) or holding
tiles the stock beside the board has not (RULES.md §1), and a board with more of a letter or
more jokers than the set (RULES.md §1: 100 tiles, 2 jokers)."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from cli import main

EMPTY = ["." * 15] * 15


def board_file(tmp_path, lines: list[str]):
    path = tmp_path / "board.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_top(board, rack: str):
    started = time.monotonic()
    result = CliRunner().invoke(main, ["top", "--board", str(board), "--rack", rack])
    return result, time.monotonic() - started


@pytest.mark.parametrize("rack", ["AEIOULRSTCMNPD" * 4 + "ABCD", "AEIOULRSTCMNPD" * 7 + "AB", "AEMODLRS?"])
def test_RULES_5_a_rack_longer_than_any_group_is_refused_at_once(tmp_path, rack):
    result, seconds = run_top(board_file(tmp_path, EMPTY), rack)
    assert result.exit_code == 2, result.output
    assert seconds < 5
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "--rack" in lines[0] and "at most 8" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("rack, named", [("???AEMR", "3 jokers"), ("HHAEMR", "2 tiles H")])
def test_RULES_1_a_rack_needs_the_tiles_to_be_in_the_stock(tmp_path, rack, named):
    result, _ = run_top(board_file(tmp_path, EMPTY), rack)
    assert result.exit_code == 2 and named in result.output and "--rack" in result.output


def test_RULES_1_a_rack_counts_the_tiles_already_on_the_board(tmp_path):
    lines = list(EMPTY)
    lines[7] = ".......Xa......"  # the only X is on the board
    result, _ = run_top(board_file(tmp_path, lines), "XAEMRT")
    assert result.exit_code == 2 and "only 0 left beside the board" in result.output


@pytest.mark.parametrize("row, named", [
    (".....abcde.....", "5 jokers"),          # five lowercase letters: jokers, the set has 2
    ("...AAAAAAAAAAAA", "12 tiles A"),         # the Romanian set has 11 A
    (".......KA......", "tiles K"),            # no K tile: only a joker stands for K
])
def test_RULES_1_a_board_beyond_the_set_is_refused(tmp_path, row, named):
    lines = list(EMPTY)
    lines[7] = row
    result, _ = run_top(board_file(tmp_path, lines), "AEMRT")
    assert result.exit_code == 2, result.output
    assert named in result.output and "board.txt" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_full_group_of_an_eliptic_round_is_still_searched(tmp_path):
    result, _ = run_top(board_file(tmp_path, EMPTY), "AEMODLRS")
    assert result.exit_code == 0, result.output
    assert "top " in result.output
