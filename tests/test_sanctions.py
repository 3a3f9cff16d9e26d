"""Sanctions over a game (RULES.md §3–4; D 6.2–6.4, D 8.4): numbers from the rule pack."""
from __future__ import annotations

from corrector.judging.rulings import WarningKind
from corrector.judging.sanctions import charge_warnings, disciplinary, penalised, top_deduction

D = WarningKind.SCORE_WRONG


def test_D_6_2_warnings_1_to_3_free_then_5_each_in_round_order(ro):
    charges = charge_warnings([(9, D), (2, D), (5, D), (7, D), (1, D)], ro.sanctions)
    assert [(c.round, c.ordinal, c.cost) for c in charges] == [(1, 1, 0), (2, 2, 0), (5, 3, 0), (7, 4, 5), (9, 5, 5)]


def test_D_6_3_penalty_minus_20_never_below_0(ro):
    assert penalised(26, ro.sanctions) == 6
    assert penalised(12, ro.sanctions) == 0
    assert penalised(20, ro.sanctions) == 0


def test_D_6_4_one_disciplinary_warning_minus_20_at_the_end(ro):
    outcome = disciplinary([5], ro.sanctions)
    assert (outcome.deduction, outcome.eliminated_in) == (20, None)


def test_D_6_4_second_disciplinary_warning_eliminates(ro):
    outcome = disciplinary([9, 3], ro.sanctions)
    assert (outcome.rounds, outcome.eliminated_in) == ((3, 9), 9)


def test_D_8_4_top_deductions():
    assert [top_deduction(w, 0, 0) for w in (0, 3, 4, 6, 7, 9, 10, 13)] == [0, 0, 1, 1, 2, 2, 3, 4]
    assert top_deduction(0, 2, 0) == 2
    assert top_deduction(4, 1, 1) == 3


def test_D_7_1_3_cheating_eliminates_at_once(ro):
    outcome = disciplinary([2], ro.sanctions, cheating=6)
    assert (outcome.rounds, outcome.deduction, outcome.eliminated_in) == ((2,), 20, 6)
