"""Game setup (RULES.md §7; A 1.1, A 5.2.d–f, A 5.3, A 8.1): groups drawn or entered, the
A 5.2.e end-of-draw repair, the round→group order."""
from __future__ import annotations

import pytest

from corrector.anticipation.groups import (
    avocalic_rules, both_orders_are_words, classic_rules, draw_groups, draw_round_order, has_vowel_and_consonant,
    parse_groups, repair_span)
from corrector.errors import AnticipationInputError

from .helpers import groups_with


def test_A_5_2_d_group_1_needs_both_two_letter_orders_to_be_words(ro, words):
    assert both_orders_are_words(["A", "S"], words, ro)  # AS and SA
    assert not both_orders_are_words(["C", "A"], words, ro)  # CA is not in the list
    assert both_orders_are_words(["?", "S"], words, ro)  # a joker may be the A
    for seed in range(20):
        first = draw_groups(ro, classic_rules(ro, words), seed).groups[0]
        assert len(first) == 2 and both_orders_are_words(first, words, ro)


def test_A_5_2_e_groups_2_to_15_have_seven_letters_a_vowel_and_a_consonant_and_use_the_whole_set(ro, words):
    for seed in range(60):
        drawn = draw_groups(ro, classic_rules(ro, words), seed)
        assert [len(g) for g in drawn.groups] == [2] + [7] * 14
        assert sum(len(g) for g in drawn.groups) == ro.tiles.total == 100
        assert all(has_vowel_and_consonant(g, ro) for g in drawn.groups[1:])
        assert all(list(g) == sorted(g, key=lambda x: (x == "?", x)) for g in drawn.groups[1:])  # A 5.2.f order


def test_A_5_2_e_repair_returns_the_fewest_last_groups_as_in_the_rulebook_example(ro):
    # Antepenultimate group: 2 vowels, penultimate: 1, last: none -> the three go back.
    drawn = [list("AEBCDFG"), list("IBCDFGH"), list("BCDFGHL")]
    assert repair_span(drawn, [], 0, ro) == 3
    assert repair_span([list("AEBCDFG"), list("BCDFGHL")], [], 0, ro) == 2


def test_A_5_2_e_repair_happens_in_real_draws_and_is_recorded(ro, words):
    repaired = [d for d in (draw_groups(ro, classic_rules(ro, words), seed) for seed in range(120)) if d.repairs]
    assert repaired, "some seed among 120 needs the end-of-draw repair"
    for drawn in repaired:
        for repair in drawn.repairs:
            assert list(repair.groups) == list(range(repair.groups[0], repair.groups[-1] + 1))
        assert all(has_vowel_and_consonant(g, ro) for g in drawn.groups[1:])


def test_A_5_2_the_same_seed_gives_the_same_groups(ro, words):
    assert draw_groups(ro, classic_rules(ro, words), 7) == draw_groups(ro, classic_rules(ro, words), 7)


def test_A_5_2_groups_entered_by_the_arbiter_are_checked_and_all_problems_named(ro, words):
    good = groups_with(ro, words, "AS", "ACEMRST")
    assert good.source == "entered" and good.group(2) == tuple("ACEMRST")
    bad = ["CA", "BCDFGHL"] + ["".join(g) for g in good.groups[2:]]
    with pytest.raises(AnticipationInputError) as err:
        parse_groups(bad, ro, classic_rules(ro, words))
    message = str(err.value)
    assert "group 1 'CA'" in message and "A 5.2.d" in message
    assert "group 2 'BCDFGHL'" in message and "A 5.2.e" in message


def test_A_5_3_round_order_is_drawn_by_lot_among_groups_2_to_15_and_reproducible():
    order = draw_round_order(11)
    assert sorted(order) == list(range(2, 16)) and order == draw_round_order(11)
    assert order != tuple(range(2, 16))


def test_A_8_1_avocalic_group_1_needs_a_consonant_other_than_G_and_J(ro):
    rules = avocalic_rules(ro)
    assert rules.first(["G", "A"]) is not None and rules.first(["J", "G"]) is not None
    assert rules.first(["L", "A"]) is None
    drawn = draw_groups(ro, rules, 3)
    assert sum(len(g) for g in drawn.groups) == 100 and rules.first(drawn.groups[0]) is None
