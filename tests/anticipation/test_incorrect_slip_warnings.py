"""A slip whose every move is incorrect is still a slip (A 6.2): its own faults — the back of the
round-1 slip (A 6.2.a), the table or round number missing (A 6.2.b) — and a round-1 total that
does not add up or is missing (A 6.2.d, A 5.3) are warnings whatever the rulings of its moves.
CASAX is not in the word list: every move below is incorrect (A 6.1.a)."""
from __future__ import annotations

from corrector.anticipation import correct_anticipation_game
from corrector.judging.rulings import WarningKind

from .helpers import game, move, slip, standard_groups


def correct(ro, words, *slips, **kw):
    return correct_anticipation_game(game(ro, words, standard_groups(ro, words), *slips, **kw))


def round_of(result, rnd: int):
    ruling = result.player(1).rounds[rnd - 1]
    assert ruling.moves and not any(m.decision.legal for m in ruling.moves)
    return ruling


def test_A_6_2_b_table_missing_on_a_slip_of_incorrect_moves_is_a_warning(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8),
                     slip(1, 2, move("9G", "CASAX", 6), table_written=False))
    assert round_of(result, 2).warnings == (WarningKind.TABLE_OR_ROUND_MISSING,)
    assert [(c.round, c.kind) for c in result.player(1).warning_charges] == [(2, WarningKind.TABLE_OR_ROUND_MISSING)]


def test_A_6_2_a_back_of_the_round_1_slip_missing_with_every_move_incorrect(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASAX", 6), total=6, back_ok=False))
    assert round_of(result, 1).warnings == (WarningKind.BACK_DETAILS,)


def test_A_6_2_d_A_5_3_a_round_1_total_that_does_not_add_up_with_every_move_incorrect(ro, words):
    wrong = correct(ro, words, slip(1, 1, move("H8", "AX", 4), move("8G", "CASAX", 6), total=12))
    assert round_of(wrong, 1).warnings == (WarningKind.SCORE_WRONG,)
    blank = correct(ro, words, slip(1, 1, move("H8", "CASAX", 6)))
    assert round_of(blank, 1).warnings == (WarningKind.SCORE_WRONG,)
    added = correct(ro, words, slip(1, 1, move("H8", "AX", 4), move("8G", "CASAX", 6), total=10))
    assert round_of(added, 1).warnings == ()  # the player's own addition is right: nothing to warn


def test_A_6_2_one_warning_for_a_slip_of_incorrect_moves(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASAX", 6), total=9, back_ok=False, table_written=False))
    ruling = round_of(result, 1)
    assert ruling.warnings == (WarningKind.BACK_DETAILS,)
    assert ruling.waived == (WarningKind.TABLE_OR_ROUND_MISSING, WarningKind.SCORE_WRONG)
    pack = ro.with_policies(one_warning_per_slip_multi_move=False)
    each = round_of(correct(pack, words, slip(1, 1, move("H8", "CASAX", 6), total=9, back_ok=False,
                                                 table_written=False)), 1)
    assert each.warnings == (WarningKind.BACK_DETAILS, WarningKind.TABLE_OR_ROUND_MISSING, WarningKind.SCORE_WRONG)
