"""Scoring and geometry of RULES.md §1 (Annex 1), on hand-checked boards.

Romanian values used below: A C E I L N O R S T U = 1, D P = 2, M = 4, V F = 8, B G = 9, H J X Z = 10.
"""
from __future__ import annotations

from corrector.board import Board
from corrector.coords import parse_frs
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.judging.rack import take_from_rack
from corrector.reasons import Reason, Violation

from tests.boards import board_with


def play(pack, board, position, word):
    return place_move(board, Move(parse_frs(position), pack.tiles.parse_word(word)), pack)


def test_section_1_first_move_word_premium_on_h8(ro):
    # C A S A on H8..H11: 4 points, H8 doubles the word.
    placement = play(ro, Board(), "H8", "CASA")
    assert isinstance(placement, Placement) and placement.score == 8


def test_annex_1_letter_premium_before_word_premium(ro):
    # B on H4 (double letter) = 18, A C A L = 4, total 22, then H8 doubles: 44.
    assert play(ro, Board(), "H4", "BACAL").score == 44


def test_annex_1_double_double_multiplies_by_four(ro):
    # E5 and E11 are both double-word squares; E8 already holds an A (played through, no premium).
    board = board_with(ro, ("E8", "A"))
    placement = play(ro, board, "E5", "CARAMEL")
    assert [square for square in placement.new_tiles if square[:2] == (4, 7)] == []
    assert placement.score == (1 + 1 + 1 + 1 + 4 + 1 + 1) * 4 == 40
    assert not placement.bingo


def test_annex_1_triple_triple_times_nine_with_bingo(ro):
    # A1 and A8 are triple-word squares. A4 (double letter) is already covered: no premium there.
    board = board_with(ro, ("A4", "A"))
    placement = play(ro, board, "A1", "CARAMELE")
    assert len(placement.new_tiles) == 7 and placement.bingo
    assert placement.score == (1 + 1 + 1 + 1 + 4 + 1 + 1 + 1) * 9 + 50 == 149


def test_annex_1_joker_scores_zero_but_its_word_premium_multiplies(ro):
    # Joker 'a' on H8: 0 points, yet the double word still applies: (1 + 1 + 1 + 0) * 2.
    assert play(ro, Board(), "H6", "CASa").score == 6
    # Joker B on the double-letter H4 is still 0.
    assert play(ro, Board(), "H4", "bACAL").score == 8


def test_annex_1_bingo_adds_fifty(ro):
    placement = play(ro, Board(), "H2", "CARAMEL")
    # H2..H8: H4 double letter on R (1*2), H8 double word.
    assert placement.bingo and placement.score == (1 + 1 + 2 + 1 + 4 + 1 + 1) * 2 + 50 == 72


def test_annex_1_parallel_play_scores_every_new_word(ro):
    board = board_with(ro, ("H8", "CASA"))
    placement = play(ro, board, "I8", "AU")
    # AU on I8-I9 (I9 double letter: U=2) = 3; CA down column 8 = 2; AU down column 9 = 1 + 2 = 3.
    assert [w.text for w in placement.words] == ["AU", "CA", "AU"]
    assert [w.score for w in placement.words] == [3, 2, 3]
    assert placement.score == 8


def test_annex_1_hook_scores_the_extended_word(ro):
    board = board_with(ro, ("H8", "CASA"))
    placement = play(ro, board, "12F", "ROSU")
    # ROSU down column 12, S on the double-letter H12: 1 + 1 + 2 + 1 = 5; CASAS across: 1+1+1+1+2 = 6.
    assert [w.text for w in placement.words] == ["ROSU", "CASAS"]
    assert placement.score == 11


def test_annex_1_premiums_count_only_when_newly_covered(ro):
    board = board_with(ro, ("H8", "CASA"))
    # The word plays through H8 (double word, already covered): no doubling.
    placement = play(ro, board, "8G", "ACT")
    assert placement.score == 3


def test_section_1_first_move_must_cover_h8(ro):
    result = play(ro, Board(), "H1", "CASA")
    assert result == Violation(Reason.START_SQUARE_MISSED, "H8") and result.article == "§1"


def test_section_1_later_move_must_connect(ro):
    board = board_with(ro, ("H8", "CASA"))
    assert play(ro, board, "A1", "CASA").reason is Reason.NOT_CONNECTED


def test_section_2_word_must_match_board_tiles(ro):
    board = board_with(ro, ("H8", "CASA"))
    result = play(ro, board, "8G", "AXT")
    assert result.reason is Reason.BOARD_TILE_MISMATCH and "H8" in result.detail


def test_section_2_written_word_is_the_whole_main_word(ro):
    board = board_with(ro, ("H8", "CASA"))
    result = play(ro, board, "H9", "ASAT")  # H8 holds C: the word would be CASAT
    assert result.reason is Reason.NOT_WHOLE_WORD


def test_section_1_word_off_the_board_and_no_new_tile(ro):
    assert play(ro, Board(), "H13", "CASA").reason is Reason.OFF_BOARD
    board = board_with(ro, ("H8", "CASA"))
    assert play(ro, board, "H8", "CASA").reason is Reason.NO_NEW_TILE


def test_violations_explain_in_both_languages(ro):
    violation = play(ro, Board(), "H1", "CASA")
    assert "H8" in violation.message("ro") and "H8" in violation.message("en")
    assert violation.message("ro") != violation.message("en")


def test_section_3_letters_outside_the_group(ro):
    placement = play(ro, Board(), "H8", "CASa")
    assert take_from_rack(list("CAS?EIR"), (t for _, _, t in placement.new_tiles)) == ["E", "I", "R"]
    missing = take_from_rack(list("CASEIRT"), (t for _, _, t in placement.new_tiles))
    assert missing.reason is Reason.LETTERS_NOT_IN_GROUP and missing.detail == "?(a)"


def test_apply_placement_puts_new_tiles_only(ro):
    board = board_with(ro, ("H8", "CASA"))
    placement = play(ro, board, "12F", "ROSU")
    apply_placement(board, placement)
    assert sum(1 for _ in board.tiles()) == 4 + 4


def test_digraph_tiles_score_as_one_tile():
    from corrector.rulepack import load_pack

    ca = load_pack("ca")
    # NY (10) on H8 doubles: (10 + 1) * 2; the word has two tiles.
    placement = play(ca, Board(), "H8", "NYE")
    assert len(placement.new_tiles) == 2 and placement.score == 22
