"""Ranking, percentage of the top and solos (RULES.md §4, §6; D 5.3.8, D 6.6, D 8.4)."""
from __future__ import annotations

from dataclasses import replace

from corrector.judging.ranking import TopRecord, percent_of_top, rank_tops, rank_totals
from corrector.judging.solo import find_solo


def test_D_6_6_equal_totals_share_the_higher_place():
    assert rank_totals({1: 300, 2: 410, 3: 300, 4: 410, 5: 120}) == {2: 1, 4: 1, 1: 3, 3: 3, 5: 5}


def test_RULES_4_percent_of_top():
    assert percent_of_top(412, 824) == 50.0
    assert percent_of_top(1, 3) == 33.33
    assert percent_of_top(5, 0) == 0.0


def test_D_5_3_8_solo_needs_15_players(ro):
    scores = {1: 40, 2: 33, 3: 12}
    assert find_solo(scores, 14, ro.sanctions) is None
    assert find_solo(scores, 15, ro.sanctions) == 1


def test_D_5_3_8_solo_only_when_alone(ro):
    assert find_solo({1: 40, 2: 40, 3: 12}, 20, ro.sanctions) is None
    assert find_solo({}, 20, ro.sanctions) is None
    assert find_solo({1: 0}, 20, ro.sanctions) is None


def test_D_5_3_8_solo_threshold_from_the_pack(ro):
    sanctions = replace(ro.sanctions, solo_min_players=2)
    assert find_solo({1: 40, 2: 3}, 2, sanctions) == 1


def test_D_8_4_top_ranking_by_tops_then_finders_then_points():
    records = {
        1: TopRecord(tops=5, found=5, finders_sum=20, top_points=300),
        2: TopRecord(tops=5, found=5, finders_sum=12, top_points=250),  # rarer tops: better
        3: TopRecord(tops=6, found=6, finders_sum=40, top_points=100),
        4: TopRecord(tops=5, found=5, finders_sum=20, top_points=310),  # same sum: more points
        5: TopRecord(tops=5, found=5, finders_sum=20, top_points=300),  # all equal to table 1: shared
    }
    assert rank_tops(records) == {3: 1, 2: 2, 4: 3, 1: 4, 5: 4}
