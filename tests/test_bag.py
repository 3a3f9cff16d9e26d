"""The stock and the draws: every clause of D 5.3.1, D 5.3.2 and D 5.3.8 (RULES.md §5)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from corrector.game.bag import (Bag, Composition, DrawProblem, DrawRule, draw_group, group_label,
                           stock_can_continue)
from corrector.errors import GameError
from corrector.game.variants import load_duplicate_rules


@pytest.fixture(scope="module")
def rules(ro):
    return load_duplicate_rules(ro)


def judge(ro, rules, round_no, variant="classic"):
    v = rules.variant(variant)
    return v.draw_rule_for(round_no, rules.draw).judge(ro.tiles, v.drawn)


def bag_of(ro, letters: str) -> Bag:
    return Bag(ro.tiles, Counter(letters))


def test_RULES_1_full_bag_holds_the_100_tiles(ro):
    bag = Bag.full(ro.tiles)
    assert len(bag) == 100
    assert bag.counts()["A"] == 11 and bag.counts()["?"] == 2


def test_draws_depend_on_the_seed_only(ro):
    first = Bag.full(ro.tiles).draw(7, random.Random(5))
    again = Bag.full(ro.tiles).draw(7, random.Random(5))
    assert first == again


def test_D_5_3_1_first_round_draws_seven_letters(ro, rules):
    bag = Bag.full(ro.tiles)
    draw = draw_group(bag, (), 7, judge(ro, rules, 1), random.Random(1))
    assert draw.kept == () and len(draw.drawn) == 7 and len(bag) == 93


def test_D_5_3_1_leftovers_are_kept_and_the_group_refilled_to_seven(ro, rules):
    bag = bag_of(ro, "AEIOUBCDFGLMNPRST")
    draw = draw_group(bag, ("A", "R", "T"), 7, judge(ro, rules, 3), random.Random(2))
    assert draw.kept == ("A", "R", "T") and len(draw.drawn) == 4 and len(draw.group) == 7


def test_D_5_3_1_after_a_bingo_seven_new_letters(ro, rules):
    # A bingo leaves nothing: the group is drawn whole, with no `+` in the log.
    bag = Bag.full(ro.tiles)
    draw = draw_group(bag, (), 7, judge(ro, rules, 6), random.Random(3))
    assert len(draw.drawn) == 7
    assert "+" not in group_label(draw.kept, draw.drawn, ro.tiles)


@pytest.mark.parametrize("round_no", [1, 15])
def test_D_5_3_1_rounds_1_to_15_need_two_vowels_and_two_consonants(ro, rules, round_no):
    check = judge(ro, rules, round_no)
    rest = Bag.full(ro.tiles)
    assert check(list("ABCDFGL"), rest) is DrawProblem.FEW_VOWELS
    assert check(list("AEIOUBC")[:6] + ["I"], rest) is DrawProblem.FEW_CONSONANTS
    assert check(list("AEBCDFG"), rest) is None


def test_D_5_3_1_from_round_16_one_vowel_and_one_consonant_suffice(ro, rules):
    check = judge(ro, rules, 16)
    rest = Bag.full(ro.tiles)
    assert check(list("ABCDFGL"), rest) is None
    assert check(list("BCDFGLM"), rest) is DrawProblem.FEW_VOWELS
    assert check(list("AEIOUAE"), rest) is DrawProblem.FEW_CONSONANTS


def test_D_5_3_1_a_joker_counts_as_whichever_kind_is_needed(ro, rules):
    check = judge(ro, rules, 1)
    rest = Bag.full(ro.tiles)
    assert check(list("A?BCDFG"), rest) is None         # the joker is the second vowel
    assert check(list("AEIOU?B"), rest) is None         # the joker is the second consonant
    assert check(list("A?BCDFG")[:1] + list("BCDFGL"), rest) is DrawProblem.FEW_VOWELS
    assert check(list("??BCDFG"), rest) is None         # two jokers, two vowels
    assert check(list("?BCDFGL"), rest) is DrawProblem.FEW_VOWELS


def test_D_5_3_1_exception_single_vowel_left_the_group_must_hold_it(ro, rules):
    # Round 5 needs two vowels; bag + leftovers hold only one, so a group with that vowel
    # passes ("closest") and a group without it does not.
    check = judge(ro, rules, 5)
    rest = bag_of(ro, "BCDFGLMNPRST")
    assert check(list("ABCDFGL"), rest) is None
    rest_with_vowel = bag_of(ro, "ABCDFGLMNPR")
    assert check(list("BCDFGLM"), rest_with_vowel) is DrawProblem.FEW_VOWELS


def test_D_5_3_1_exception_single_consonant_left(ro, rules):
    check = judge(ro, rules, 20)
    assert check(list("AEIOUAE"), bag_of(ro, "AEIOUAEIOU")) is None          # no consonant anywhere
    assert check(list("AEIOUAE"), bag_of(ro, "AEIOUAEIOB")) is DrawProblem.FEW_CONSONANTS


def test_D_5_3_1_exception_policy_any_accepts_every_group_once_the_stock_falls_short(ro, rules):
    rule = DrawRule(2, 2, short_stock="any")
    check = rule.judge(ro.tiles, 7)
    rest = bag_of(ro, "ABCDFGLMNPR")  # one vowel in the whole stock
    assert check(list("BCDFGLM"), rest) is None
    strict = DrawRule(2, 2, short_stock="closest").judge(ro.tiles, 7)
    assert strict(list("BCDFGLM"), rest) is DrawProblem.FEW_VOWELS


def test_D_5_3_1_eight_letter_groups_keep_the_rule(ro, rules):
    check = judge(ro, rules, 2, "eliptic")
    rest = Bag.full(ro.tiles)
    assert check(list("ABCDFGLM"), rest) is DrawProblem.FEW_VOWELS
    assert check(list("AEBCDFGL"), rest) is None


def test_D_5_3_1_short_groups_need_one_of_each_in_the_first_15_rounds(ro, rules):
    check = judge(ro, rules, 15, "completiv")
    rest = Bag.full(ro.tiles)
    assert check(list("ABCDFG"), rest) is None
    assert check(list("BCDFGL"), rest) is DrawProblem.FEW_VOWELS


def test_D_5_3_1_short_groups_later_need_the_missing_kind_left_in_the_bag(ro, rules):
    check = judge(ro, rules, 16, "completiv")
    assert check(list("BCDFGL"), bag_of(ro, "AMN")) is None                 # a vowel to choose
    assert check(list("BCDFGL"), bag_of(ro, "MNP")) is DrawProblem.NO_VOWEL_LEFT
    assert check(list("AEIOUA"), bag_of(ro, "EIO")) is DrawProblem.NO_CONSONANT_LEFT
    assert check(list("BCDFGL"), bag_of(ro, "MN?")) is None                 # the joker can be the vowel


def test_D_5_3_2_a_failed_group_returns_the_leftovers_and_is_drawn_again(ro, rules):
    bag = bag_of(ro, "AEBCDFGLMN")
    kept = ("R", "S", "T")
    before = bag.counts() + Counter(kept)
    draw = draw_group(bag, kept, 7, judge(ro, rules, 2), random.Random(0))
    assert draw.rejected, "this seed draws a failing group first"
    first = draw.rejected[0]
    assert first.kept == kept and first.problem.article == "D 5.3.1"
    assert draw.kept == ()                   # the leftovers went back into the bag
    assert Counter(draw.group) + bag.counts() == before
    comp = Composition.of(draw.group, ro.tiles)
    assert comp.vowels >= 2 and comp.consonants >= 2


def test_D_5_3_2_groups_are_announced_alphabetically_per_part(ro):
    assert group_label(("T", "A", "E"), ("U", "?", "R", "I"), ro.tiles) == "AET+IRU?"


def test_D_5_3_2_announcement_names_the_letters(ro, rules):
    from corrector.game.announcement import draw_text

    bag = bag_of(ro, "BCDFGLMN")
    draw = draw_group(bag, ("A", "E"), 7, judge(ro, rules, 2), random.Random(1))
    lines = draw_text(2, draw, ro.tiles, rules.letter_names)
    assert lines[-1].startswith("pentru turul 2 au rămas literele A ANA, E ELENA și am extras literele ")


def test_D_5_3_2_redraws_stop_with_an_error_when_no_group_can_pass(ro):
    never = lambda group, bag: DrawProblem.FEW_VOWELS  # noqa: E731
    with pytest.raises(GameError):
        draw_group(bag_of(ro, "ABCDEFGH"), (), 7, never, random.Random(0), max_redraws=5)


@pytest.mark.parametrize("stock, goes_on", [
    ("AB", True),
    ("BCDFG", False),      # no vowel
    ("AEIOU", False),      # no consonant
    ("BCD?", True),        # the joker is the vowel (D 5.3.1, last sentence)
    ("?", False),
    ("??", True),
    ("", False),
])
def test_D_5_3_8_the_game_ends_when_the_stock_lacks_a_vowel_or_a_consonant(ro, stock, goes_on):
    assert stock_can_continue(stock, ro.tiles) is goes_on
