""""Anulez turul X" (RULES.md §7, A 5.3): later moves are replayed without the cancelled round.

Board: H8 CASE (8); round 2 9G LAC (5, L on G9 and C on I9); round 3 G7 CAL through that L
(C 2 + A 1 + L 1, with AC down column 8: 6); round 4 10G AS down to the S of H10, which also
makes CALA across row G (AS 2 + CALA 4 = 6). Round 5 cancels round 2: CAL becomes CA, not a
word (cancelled); AS loses CALA (rescored 6 → 2)."""
from __future__ import annotations

from corrector.anticipation import correct_anticipation_game
from corrector.anticipation.outcome import Outcome
from corrector.reasons import Reason

from .helpers import game, lexicon, move, slip, standard_groups


def _slips(cancel: int | None = 2, lac_at: str = "9G"):
    return (slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move(lac_at, "LAC", 5)),
            slip(1, 3, move("G7", "CAL", 6)), slip(1, 4, move("10G", "AS", 6)), slip(1, 5, cancel=cancel))


def _correct(ro, *slips):
    words = lexicon(ro, ["CALA"])
    return correct_anticipation_game(game(ro, words, standard_groups(ro, words), *slips))


def test_A_5_3_cancellation_cascades_one_later_move_cancelled_one_rescored(ro):
    player = _correct(ro, *_slips()).player(1)
    case, lac, cal, as_ = player.moves
    assert [m.score for m in player.moves] == [8, 0, 0, 2]
    assert player.rounds[4].cancellation.applied
    assert [(r.outcome, r.old_score, r.new_score) for r in lac.revisions] == [(Outcome.WITHDRAWN, 5, 0)]
    (cal_rev,) = cal.revisions
    assert cal_rev.outcome is Outcome.CANCELLED and cal_rev.violation.reason is Reason.WORD_NOT_IN_LIST
    assert cal_rev.violation.detail == "CA"
    (as_rev,) = as_.revisions
    assert (as_rev.outcome, as_rev.old_score, as_rev.new_score, as_rev.words_gone) == (Outcome.RESCORED, 6, 2, ("CALA",))
    assert case.revisions == []  # earlier rounds are not touched
    assert player.total == 10


def test_A_5_3_without_cancellation_every_move_counts(ro):
    assert _correct(ro, *_slips(cancel=None)).player(1).total == 8 + 5 + 6 + 6


def test_A_5_3_a_later_move_may_use_the_squares_of_the_cancelled_move(ro):
    slips = _slips()[:2] + (slip(1, 3, move("9G", "LAC", 5), cancel=2),)
    player = _correct(ro, *slips).player(1)
    assert [m.score for m in player.moves] == [8, 0, 5]


def test_A_6_3_a_cancelled_penalised_move_costs_no_penalty(ro):
    player = _correct(ro, *_slips(lac_at="G9")).player(1)  # inverted signs on LAC
    assert player.moves[1].decision.penalty is not None and player.moves[1].penalty_points == 0
    assert player.total == 10


def test_A_5_3_a_cancellation_of_a_later_or_empty_round_is_refused(ro):
    slips = (slip(1, 1, move("H8", "CASE", 8), total=8), slip(1, 2, move("A1", "LAC", 5)), slip(1, 3, cancel=2),
             slip(1, 4, cancel=9))
    player = _correct(ro, *slips).player(1)
    assert not player.rounds[2].cancellation.applied and not player.rounds[3].cancellation.applied
    assert player.total == 8
