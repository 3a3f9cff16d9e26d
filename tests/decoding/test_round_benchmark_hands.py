"""`round_benchmark.py` plays its games as one tournament's, the same players at the same seats, and
keeps each player's hand from one game to the next as `round scan` does (arbiter/slips/hands.py):
the R a player's earlier game showed the reader's K to be reads the next game's first round.
`--hands-per-game` learns each game afresh, `--forget-hands` reads without hands."""
from __future__ import annotations

from argparse import Namespace

from tests.decoding.test_player_hands import _hands, _in_hand, _r_as_k, dec  # noqa: F401  (dec: a fixture)

ACROSS = Namespace(forget_hands=False, hands_per_game=False)
PER_GAME = Namespace(forget_hands=False, hands_per_game=True)
FORGET = Namespace(forget_hands=True, hands_per_game=False)


def test_a_hand_learnt_in_an_earlier_game_reads_the_next_games_first_round(dec, bench):  # noqa: F811
    learnt = _hands()  # three settled slips of table 7 in the first game, each R read K
    kept = bench.hands_for_round(learnt, 1, ACROSS)
    verdict = _in_hand(dec, kept).decode(_r_as_k())
    assert verdict.decided and verdict.best.reading.word == "ARDEIIND"
    assert bench.hands_label(ACROSS) == "hands learnt across games"


def test_hands_learnt_game_by_game_start_each_game_afresh_and_grow_within_it(dec, bench):  # noqa: F811
    learnt = _hands()
    fresh = bench.hands_for_round(learnt, 1, PER_GAME)
    assert fresh.lent(7) == {}
    verdict = _in_hand(dec, fresh).decode(_r_as_k())
    assert not verdict.decided and verdict.best.reading.word == "AKDEIIND"  # as read: not a word
    assert bench.hands_for_round(learnt, 4, PER_GAME) is learnt  # within a game the hand grows
    assert bench.hands_label(PER_GAME) == "hands learnt game by game"


def test_forgotten_hands_read_no_round_in_a_hand(bench):
    learnt = _hands()
    assert all(bench.hands_for_round(learnt, n, FORGET).lent(7) == {} for n in (1, 2, 9))
    assert bench.hands_label(FORGET) == "hands forgotten"
