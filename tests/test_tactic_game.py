"""Tactic duplicate run end to end (RULES.md §6; D 8.6): the exact top of a round (both groups,
both orders, every equal pair) against an independent brute force, whole simulated games checked
move by move, the arbiter's continuation, and the judge finding the pair when told "top"."""
from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

import pytest

from corrector.board import Board
from corrector.errors import GameError
from corrector.game.gamecheck import check_any_game_log, check_tactic_log
from corrector.game.gamemaster import GameMaster
from corrector.game.tactic import _board_after, _first_moves, _SecondScores, find_tactic_tops
from corrector.game.tacticmaster import TacticGameMaster, master_for
from corrector.game.variants import load_duplicate_rules
from corrector.judging.case import parse_case
from corrector.judging.judge import judge_case
from corrector.judging.report import result_json
from corrector.placement import Placement, apply_placement, place_move
from corrector.words.lexicon import load_lexicon
from corrector.words.movegen import compiled_available, generate_moves, generate_records
from tests.conftest import REPO
from tests.test_judge import WORDS

DEMO = REPO / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"


@pytest.fixture(scope="module")
def demo(ro):
    return load_lexicon(DEMO, ro)


@pytest.fixture(scope="module")
def small(ro, tmp_path_factory):
    """The judge tests' small word list."""
    path = tmp_path_factory.mktemp("words") / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return load_lexicon(path, ro)


@pytest.fixture(scope="module")
def rules(ro):
    return load_duplicate_rules(ro)


def brute_force(board: Board, groups, pack, lexicon) -> tuple[int, set]:
    """Every pair of moves, both orders, by the all-moves generator and the scorer alone."""
    best, pairs = -1, set()
    for a, b in ((0, 1), (1, 0)):
        for first in generate_moves(board, groups[a], pack, lexicon):
            placed = place_move(board, first.move, pack)
            assert isinstance(placed, Placement)
            after = board.copy()
            apply_placement(after, placed)
            for second in generate_moves(after, groups[b], pack, lexicon):
                second_placed = place_move(after, second.move, pack)
                total = placed.score + second_placed.score
                key = (frozenset(placed.new_tiles), frozenset(second_placed.new_tiles))
                if total > best:
                    best, pairs = total, {key}
                elif total == best:
                    pairs.add(key)
    return best, pairs


def mid_game(ro, demo, seed: int, rounds: int) -> tuple[Board, list[list[str]]]:
    gm = GameMaster(ro, demo, "classic", random.Random(seed), seed=seed)
    for _ in range(rounds):
        gm.play_round()
    letters = gm.bag.letters()
    random.Random(seed).shuffle(letters)
    return gm.board, [letters[:7], letters[7:14]]


@pytest.mark.parametrize("seed, rounds", [(3, 2), (11, 4)])
def test_D_8_6_the_tactic_top_is_the_best_pair_of_both_orders(ro, demo, rules, seed, rounds):
    board, groups = mid_game(ro, demo, seed, rounds)
    tops = find_tactic_tops(board, groups, rules.variant("tactic"), ro, demo)
    best, pairs = brute_force(board, groups, ro, demo)
    assert {t.score for t in tops} == {best}
    assert {t.key for t in tops} == pairs  # every equal pair, in the order played, nothing else
    for top in tops:
        used = [Counter(m.use.from_group) for m in top.moves]
        order = (top.first_group, 1 - top.first_group)
        assert all(not (u - Counter(groups[g])) for u, g in zip(used, order))


@pytest.mark.parametrize("seed, rounds", [(7, 0), (7, 3), (12, 6)])
def test_D_8_6_the_bound_on_second_moves_keeps_the_search_exact(ro, demo, seed, rounds):
    """A first move changes only the lines it touches; the second group is searched again only
    there, the other lines keep their best from the round's board. With a joker in each group
    (where first moves are most numerous), the best second move so found equals a search of the
    whole board after the first move, for first moves drawn at random, on an empty board too."""
    assert compiled_available()  # the bound lives in the compiled generator's line masks
    board, _ = mid_game(ro, demo, seed, rounds)
    groups = [list("NUETPI?"), list("XENORS?")]
    for a, b in ((0, 1), (1, 0)):
        seconds = _SecondScores(board, groups[b], ro, demo)
        firsts = _first_moves(board, groups[a], ro, demo)
        for first in random.Random(seed + a).sample(firsts, min(120, len(firsts))):
            whole = generate_records(_board_after(board, first.deposit), groups[b], ro, demo)["score"]
            assert seconds.best(first.deposit) == (int(whole.max()) if whole.size else None), first.deposit


def test_D_8_6_a_pair_may_need_the_second_group_first(ro, rules, small):
    """With MODEL's group drawn second, only playing it first opens a second move."""
    words = small
    tops = find_tactic_tops(Board(), [list("ARECSUT"), list("AEMODLR")], rules.variant("tactic"), ro, words)
    assert tops and all(t.first_group == 1 for t in tops)
    assert tops[0].score == brute_force(Board(), [list("ARECSUT"), list("AEMODLR")], ro, words)[0]


def test_D_8_6_a_whole_tactic_game_is_legal_move_by_move(ro, demo, rules):
    game = master_for(ro, demo, "tactic", random.Random(5), seed=5).run()
    assert check_any_game_log(game, ro, demo, rules) == []
    assert game.end_reason in ("stock", "no_move") and game.tiles_conserved
    assert all(r.score == sum(p.score for p in r.parts) for r in game.rounds)
    assert any(len(r.parts) == 2 for r in game.rounds)
    assert all(r.is_top and r.score == r.top_score for r in game.rounds)
    again = TacticGameMaster(ro, demo, random.Random(5), seed=5).run()
    assert again.to_json() == game.to_json()
    wrong = replace(game, rounds=(replace(game.rounds[0], score=game.rounds[0].score + 1),) + game.rounds[1:])
    assert any("add up" in p for p in check_tactic_log(wrong, ro, demo, rules))


def test_D_8_6_the_arbiter_may_retain_another_pair_and_an_illegal_one_is_refused(ro, demo):
    gm = TacticGameMaster(ro, demo, random.Random(9), seed=9)
    gm.next_round()
    tops = gm.tops()
    with pytest.raises(GameError):
        gm.play_continuation("H8 ZZZZZZZ; A1 AB")
    second_best = next(p for p in _pairs_below(gm) if p)
    log = gm.play_continuation(second_best)
    assert log.score < tops[0].score and not log.is_top and log.top_score == tops[0].score


def _pairs_below(gm: TacticGameMaster):
    """A legal pair that is not a top: the best first move with a lesser second move."""
    setup = gm._current()
    top = gm.tops()[0]
    first = top.first
    after = gm.board.copy()
    apply_placement(after, first.placement)
    for play in generate_moves(after, setup.groups[1 - top.first_group], gm.pack, gm.lexicon):
        if first.score + play.score < top.score:
            yield f"{first.move.position.frs()} {first.move.word}; {play.move.position.frs()} {play.move.word}"


def test_D_8_6_the_judge_finds_the_tactic_top_when_told_top(ro, small):
    data = {"rules": "ro", "category": "senior", "variant": "tactic", "words": WORDS,
            "players": [{"table": 1, "name": "A"}],
            "rounds": [{"round": 1, "rack": ["ARECSUT", "AEMODLR"], "continuation": "top",
                        "slips": [{"table": 1, "round": 1, "total": 38, "moves": [
                            {"position": "8D", "word": "MODEL", "score": 26}, {"position": "7F", "word": "ARE", "score": 12}]}]}]}
    out = result_json(judge_case(parse_case(copy.deepcopy(data))))
    best = brute_force(Board(), [list("ARECSUT"), list("AEMODLR")], ro, small)[0]
    assert out["top_total"] == best >= 38
