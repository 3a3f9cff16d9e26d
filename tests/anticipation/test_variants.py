"""The variants of A 8 (RULES.md §7): avocalic with a vowel stock per player, scrabble-only
endurance (reverse drop-out order, sanctions in ranking points), scrabble-only total with "PAS",
blind (each player's own groups)."""
from __future__ import annotations

from collections import Counter

from corrector.anticipation import Variant, correct_anticipation_game
from corrector.anticipation.outcome import RoundStatus
from corrector.reasons import Reason

from .helpers import game, groups_with, lexicon, move, slip, standard_groups

BINGO = "CAMERST"  # a 7-letter word of group 2 (ACEMRST) in the test list


def test_A_8_1_avocalic_vowels_come_from_each_players_own_stock(ro, words):
    groups = standard_groups(ro, words)
    result = correct_anticipation_game(game(ro, words, groups, slip(1, 1, move("H8", "CASE", 8), total=8),
                                            players=2, variant=Variant.AVOCALIC))
    full = Counter(x for g in groups.groups for x in g if ro.tiles.is_vowel(x))
    assert result.player(1).total == 8
    assert result.player(1).vowel_stock_left == dict(full - Counter("AE"))
    assert result.player(2).vowel_stock_left == dict(full)


def test_A_8_1_avocalic_a_group_is_completed_to_seven_letters_at_most(ro, words):
    # Group 2 announces C M R S T; CASE takes A and E from the stock: 5 + 2 = 7 letters at most.
    many = lexicon(ro, ["CASTREMA"])
    groups = standard_groups(ro, many)
    result = correct_anticipation_game(game(ro, many, groups, slip(1, 1, move("H8", "CASTREMA", 0), total=0),
                                            variant=Variant.AVOCALIC))
    assert result.player(1).moves[0].score == 0


def test_A_8_2_endurance_ranks_by_reverse_drop_out_order_with_sanctions_in_ranking_points(ro):
    words = lexicon(ro, [BINGO])
    slips = (slip(1, 1, move("H8", BINGO, 72), total=72), slip(2, 1, move("H8", "CASE", 8), total=8),
             slip(3, 1, move("8H", BINGO, 72), total=72), slip(3, 2, move("A1", "LAC", 5)),
             slip(4, 1, move("8H", BINGO, 72), total=72))
    result = correct_anticipation_game(game(ro, words, standard_groups(ro, words), *slips, players=4,
                                            variant=Variant.SCRABBLE_ENDURANCE, order=(2, 3)))
    p1, p2, p3, p4 = (result.player(t) for t in (1, 2, 3, 4))
    assert p1.dropped_out_in == 2 and p2.dropped_out_in == 1 and p3.dropped_out_in == 2
    assert p2.rounds[0].status is RoundStatus.DROPPED_OUT and p2.rounds[1].status is RoundStatus.NOT_CORRECTED
    assert p2.rounds[0].moves[0].decision.violation.reason is Reason.NOT_A_BINGO
    assert (p1.ranking_points, p3.ranking_points, p4.ranking_points, p2.ranking_points) == (1, 1, 1, 0)
    assert (p1.rank, p3.rank, p4.rank, p2.rank) == (1, 1, 1, 4)


def test_A_8_3_scrabble_total_allows_PAS_and_a_move_that_is_not_a_bingo_scores_0(ro):
    words = lexicon(ro, [BINGO])
    slips = (slip(1, 1, move(None, "PAS", None)), slip(2, 1, move("H8", "CASE", 8), total=8),
             slip(3, 1, move("H8", BINGO, 72), total=72))
    result = correct_anticipation_game(game(ro, words, standard_groups(ro, words), *slips, players=3,
                                            variant=Variant.SCRABBLE_TOTAL))
    one, two, three = (result.player(t) for t in (1, 2, 3))
    assert one.rounds[0].status is RoundStatus.PASSED and one.total == 0 and one.rounds[0].warnings == ()
    assert two.moves[0].decision.violation.reason is Reason.NOT_A_BINGO and two.total == 0
    assert three.total == 72 and three.rank == 1  # (C1+A1+M4+E1+R on H12 2+S1+T1)×2 + 50 = 72


def test_A_8_4_blind_each_player_plays_own_groups(ro, words):
    own = {1: standard_groups(ro, words), 2: groups_with(ro, words, "AS", "ABDFGHU")}
    slips = (slip(1, 1, move("H8", "CASE", 8), total=8), slip(2, 1, move("H8", "CASE", 8), total=8))
    result = correct_anticipation_game(game(ro, words, None, *slips, players=2, variant=Variant.BLIND,
                                            player_groups=own))
    assert result.player(1).total == 8 and result.player(2).total == 0
