"""Per-player replay (RULES.md §7 and §3 as it applies to anticipation; A 5.3, A 6.1–6.4, A 6.6).

Romanian values: A C E I L R S T = 1, M = 4. Boards: H8 CASE = (1+1+1+1)×2 = 8; 9G LAC through
the A of H9 = L on G9 (double letter) 2 + A 1 + C on I9 (double letter) 2 = 5; G7 CAL through
the L of G9 = C on G7 (double letter) 2 + A 1 + L 1 = 4, plus AC down column 8 = 2: 6;
11H ERA down from the E of H11 = 3."""
from __future__ import annotations

from corrector.anticipation import correct_anticipation_game
from corrector.anticipation.outcome import RoundStatus
from corrector.reasons import Reason
from corrector.judging.rulings import PenaltyKind, Status, WarningKind

from .helpers import game, move, slip, standard_groups


def correct(ro, words, *slips, **kw):
    return correct_anticipation_game(game(ro, words, standard_groups(ro, words), *slips, **kw))


def test_A_5_3_round_1_two_moves_the_2_letter_group_first_then_the_7_letter_group(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASA", 4), total=8))
    rnd = result.player(1).rounds[0]
    assert [(m.group, m.score) for m in rnd.moves] == [(1, 4), (2, 4)]
    assert rnd.warnings == () and result.player(1).total == 8


def test_A_5_3_round_1_two_moves_with_a_wrong_total_cost_one_warning_for_the_slip(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASA", 5), total=9, back_ok=False))
    rnd = result.player(1).rounds[0]
    assert rnd.score == 8
    assert rnd.warnings == (WarningKind.BACK_DETAILS,)  # A 6.2: one warning per slip
    assert rnd.waived == (WarningKind.SCORE_WRONG,)  # move 2 and the total are wrong too


def test_A_5_3_round_1_wrong_total_alone_is_a_warning(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASA", 4), total=9))
    assert result.player(1).rounds[0].warnings == (WarningKind.SCORE_WRONG,)
    missing = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASA", 4)))
    assert missing.player(1).rounds[0].warnings == (WarningKind.SCORE_WRONG,)


def test_section_6_policy_off_counts_each_move_and_the_total(ro, words):
    pack = ro.with_policies(one_warning_per_slip_multi_move=False)
    result = correct(pack, words, slip(1, 1, move("H8", "AS", 3), move("8G", "CASA", 5), total=9))
    assert result.player(1).rounds[0].warnings == (WarningKind.SCORE_WRONG,) * 3


def test_A_5_3_round_1_one_move_from_either_group(ro, words):
    seven = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8)).player(1).rounds[0].moves
    two = correct(ro, words, slip(1, 1, move("H8", "AS", 4), total=4)).player(1).rounds[0].moves
    assert [(m.group, m.score) for m in seven] == [(2, 8)]
    assert two[0].score == 4 and two[0].decision.legal


def test_A_5_3_round_1_the_first_of_two_moves_must_come_from_the_2_letter_group(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), move("H8", "AS", 4), total=12))
    first, second = result.player(1).rounds[0].moves
    assert first.decision.status is Status.INCORRECT
    assert first.decision.violation.reason in (Reason.LETTERS_NOT_IN_GROUP, Reason.TOO_MANY_TILES)
    assert second.score == 4  # played on the empty board, so it covers H8 itself


def test_A_5_3_unused_letters_of_a_group_are_lost(ro, words):
    # Round 1 leaves M R T of ACEMRST; round 2 (ACEILRT) cannot use that M.
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("9G", "MAI", 6)))
    ruling = result.player(1).rounds[1].moves[0].decision
    assert ruling.status is Status.INCORRECT and ruling.violation.reason is Reason.LETTERS_NOT_IN_GROUP


def test_A_5_3_after_round_1_a_slip_holds_one_move(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8),
                     slip(1, 2, move("9G", "LAC", 5), move("11H", "ERA", 3)))
    second = result.player(1).rounds[1].moves
    assert second[0].score == 5 and second[1].decision.violation.reason is Reason.EXTRA_MOVE


def test_section_7_the_first_move_covers_H8(ro, words):
    far = correct(ro, words, slip(1, 1, move("A1", "CASE", 8), total=8)).player(1).rounds[0].moves[0]
    assert far.decision.status is Status.INCORRECT and far.score == 0
    near = correct(ro, words, slip(1, 1, move("H3", "CASE", 8), total=8)).player(1).rounds[0].moves[0]
    assert near.decision.penalty is PenaltyKind.ONE_SIGN_WRONG and near.decision.move.position.col in range(4, 8)


def test_section_7_each_player_is_checked_on_an_own_board(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(2, 1, move("8H", "CASE", 8), total=8),
                     slip(1, 2, move("9G", "LAC", 5)), slip(2, 2, move("9G", "LAC", 5)), players=2)
    assert result.player(1).rounds[1].moves[0].decision.status is Status.VALID
    assert result.player(2).rounds[1].moves[0].decision.status is not Status.VALID


def test_A_6_3_a_inverted_signs_are_always_a_penalty_in_anticipation(ro, words):
    youth_like = ro.with_policies(inverted_signs_senior="warning")
    result = correct(youth_like, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("G9", "LAC", 5)))
    lac = result.player(1).rounds[1].moves[0]
    assert lac.decision.penalty is PenaltyKind.INVERTED_SIGNS and lac.score == 5


def test_A_6_3_penalty_cap_is_the_move_score_when_nothing_is_built_on_it(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("G9", "LAC", 5)))
    player = result.player(1)
    assert player.rounds[1].moves[0].penalty_points == 5  # not 20: the move is worth 5
    assert player.total == 8 + 5 - 5


def test_A_6_3_penalty_cap_includes_moves_built_on_it(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("G9", "LAC", 5)),
                     slip(1, 3, move("G7", "CAL", 6)), slip(1, 4, move("11H", "ERA", 3)))
    player = result.player(1)
    lac = player.rounds[1].moves[0]
    assert [m.score for m in player.moves] == [8, 5, 6, 3]
    assert lac.built_on_by == ((3, 1),)  # CAL uses the L of LAC; ERA touches only CASE
    assert lac.penalty_cap == 5 + 6 and lac.penalty_points == 11
    assert player.total == 8 + 5 + 6 + 3 - 11


def test_A_6_3_penalty_is_20_at_most(ro, words):
    # B8: only row H puts a word starting in column 8 over H8, so one sign is wrong.
    result = correct(ro, words, slip(1, 1, move("B8", "CASE", 8), total=8), slip(1, 2, move("9G", "LAC", 5)),
                     slip(1, 3, move("G7", "CAL", 6)), slip(1, 4, move("11H", "ERA", 3)))
    case = result.player(1).rounds[0].moves[0]
    assert case.decision.penalty is PenaltyKind.ONE_SIGN_WRONG
    assert case.penalty_cap == 8 + 5 + 6 + 3 and case.penalty_points == 20  # CAL's AC uses the C of H8
    assert result.player(1).total == 22 - 20


def test_A_6_3_b_one_wrong_sign_is_a_penalty_and_the_slip_may_also_carry_a_warning(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("9F", "LAC", 7)))
    rnd = result.player(1).rounds[1]
    assert rnd.moves[0].decision.penalty is PenaltyKind.ONE_SIGN_WRONG
    assert rnd.warnings == (WarningKind.SCORE_WRONG,)


def test_A_6_1_c_d_both_signs_wrong_or_a_sign_missing_is_incorrect(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("3B", "LAC", 5)),
                     slip(1, 3, move("9", "LAC", 5)))
    both, missing = result.player(1).rounds[1].moves[0], result.player(1).rounds[2].moves[0]
    assert both.decision.status is Status.INCORRECT and missing.decision.status is Status.INCORRECT
    assert missing.decision.violation.reason is Reason.SIGN_MISSING


def test_A_6_2_no_warning_exemption_for_low_scores_in_anticipation(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("9G", "LAC", 4)))
    assert result.player(1).rounds[1].warnings == (WarningKind.SCORE_WRONG,)  # 5 points, still a warning


def test_A_6_2_warnings_1_to_3_are_free_the_4th_costs_5(ro, words):
    result = correct(ro, words, slip(1, 1, move("H8", "CASE", 9), total=9), slip(1, 2, move("9G", "LAC", 4)),
                     slip(1, 3, move("G7", "CAL", 5)), slip(1, 4, move("11H", "ERA", 4)))
    player = result.player(1)
    assert [c.cost for c in player.warning_charges] == [0, 0, 0, 5]
    assert player.total == 8 + 5 + 6 + 3 - 5


def test_section_4_a_missing_slip_scores_0(ro, words):
    result = correct(ro, words, slip(1, 2, move("H8", "LAC", 6)), players=1)
    assert result.player(1).rounds[0].status is RoundStatus.MISSING and result.player(1).rounds[0].score == 0
    assert result.player(1).total == 6  # round 2 opens the board: H8 LAC = (1+1+1)×2


def test_A_6_4_disciplinary_warning_costs_20_and_the_second_eliminates(ro, words):
    slips = [slip(t, 1, move("H8", "CASE", 8), total=8) for t in (1, 2)] + [slip(t, 2, move("9G", "LAC", 5)) for t in (1, 2)]
    result = correct(ro, words, *slips, players=2, disciplinary=((1, 1), (2, 1), (2, 2)))
    one, two = result.player(1), result.player(2)
    assert one.total == 13 - 20 and one.rank == 1
    assert two.eliminated and two.rank is None
    assert all(r.status is RoundStatus.NOT_CORRECTED for r in two.rounds[2:])


def test_A_6_6_equal_totals_share_the_higher_place(ro, words):
    slips = [slip(t, 1, move("H8", "CASE", 8), total=8) for t in (1, 2)] + [slip(3, 1, move("H8", "AS", 4), total=4)]
    result = correct(ro, words, *slips, players=3)
    assert [result.player(t).rank for t in (1, 2, 3)] == [1, 1, 3]


def test_A_6_2_d_an_incorrect_second_move_does_not_make_the_total_a_warning(ro, words):
    """RULES.md §7 and A 5.3 / A 6.2.d: the warning is for a calculation error ("greșeala de
    calcul") of a move's score or of the total. An incorrect move scores 0 and its declared score
    earns no warning (D 6.1 / A 6.1, as in duplicate and for a single anticipation move); a total
    that adds up the written scores is the player's right addition and earns none either."""
    both = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASAX", 6), total=10))
    rnd = both.player(1).rounds[0]
    assert [m.decision.legal for m in rnd.moves] == [True, False]
    assert rnd.score == 4 and rnd.warnings == () and rnd.waived == ()
    single = correct(ro, words, slip(1, 1, move("8G", "CASAX", 6), total=6))
    assert single.player(1).rounds[0].warnings == ()
    misadded = correct(ro, words, slip(1, 1, move("H8", "AS", 4), move("8G", "CASAX", 6), total=11))
    assert misadded.player(1).rounds[0].warnings == (WarningKind.SCORE_WRONG,)  # the addition itself is wrong


def test_A_6_5_upheld_appeals_lift_a_rounds_warning_or_penalty(ro, words):
    """A 6.5: contestations on technical warnings and penalties. The penalty of round 2 (inverted
    signs, capped at 5) is lifted: 8 + 5; the round-1 total warning no longer counts (it stays waived)."""
    from dataclasses import replace

    from corrector.anticipation.replay import replay_player

    slips = (slip(1, 1, move("H8", "CASE", 8), total=9), slip(1, 2, move("G9", "LAC", 5)))
    plain = game(ro, words, standard_groups(ro, words), *slips)
    before = replay_player(plain, plain.players[0])
    assert before.total == 8 and before.rounds[0].warnings == (WarningKind.SCORE_WRONG,)
    appealed = replace(plain, appeals=((1, 2, "cancel_penalty"), (1, 1, "cancel_warning")))
    after = replay_player(appealed, appealed.players[0])
    assert after.total == 8 + 5 and after.rounds[1].moves[0].penalty_points == 0
    assert after.rounds[0].warnings == () and after.rounds[0].waived == (WarningKind.SCORE_WRONG,)
    assert [r.appeals for r in after.rounds[:2]] == [("cancel_warning",), ("cancel_penalty",)]
    assert after.rounds[1].to_json()["appeals"] == ["cancel_penalty"]
