"""The game master (RULES.md §5; D 5.3.7, D 5.3.8, D 8): the continuation's preference order,
the announcement flags, the round-by-round API, and whole simulated games checked move by move."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from corrector.game.announcement import Flag, top_flags
from corrector.game.bag import Bag
from corrector.board import Board
from corrector.game.continuation import Candidate, find_tops, rank_tops
from corrector.coords import parse_frs
from corrector.errors import GameError
from corrector.game.gamecheck import check_game_log
from corrector.game.gamemaster import GameLog, GameMaster
from corrector.words.lexicon import load_lexicon
from corrector.placement import Move, Placement, place_move
from corrector.game.variants import ContinuationRules, RackUse, load_duplicate_rules, use_rack
from tests.boards import board_with
from tests.conftest import REPO

DEMO = REPO / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"


@pytest.fixture(scope="module")
def rules(ro):
    return load_duplicate_rules(ro)


@pytest.fixture(scope="module")
def demo(ro):
    return load_lexicon(DEMO, ro)


def cand(ro, rules, board: Board, position: str, word: str, group: str) -> Candidate:
    placed = place_move(board, Move(parse_frs(position), ro.tiles.parse_word(word)), ro)
    assert isinstance(placed, Placement), placed
    use = use_rack(rules.variant("classic"), list(group), {}, [t for _, _, t in placed.new_tiles])
    assert isinstance(use, RackUse), use
    return Candidate(placed, use)


def only(rules, criterion: str) -> ContinuationRules:
    return ContinuationRules((criterion,), rules.continuation.balance_basis)


# --- D 5.3.7: the continuation among equal tops ----------------------------------------------

def test_D_5_3_7_default_order_is_the_rulebook_order(rules):
    assert rules.continuation.order == ("no_joker", "balance", "stock_frequency", "more_tiles", "continues_game")


def test_D_5_3_7_prefers_the_move_without_a_joker(ro, rules):
    board = Board()
    with_joker = cand(ro, rules, board, "H8", "CAsA", "CAS?AEM")
    without = cand(ro, rules, board, "H6", "CASA", "CAS?AEM")
    stock = Counter("CAS?AEM") + Counter("BDR")
    ranked = rank_tops([with_joker, without], stock, ro, rules.continuation, rules.end)
    assert ranked[0] is without


def test_D_5_3_7_prefers_a_better_vowel_consonant_balance_left(ro, rules):
    board = Board()
    consonants = cand(ro, rules, board, "H8", "BCD", "AEIOBCD")   # shapes only: the scorer is not asked
    vowels = cand(ro, rules, board, "H8", "AIE", "AEIOBCD")
    stock = Counter("AEIOBCDMNRST")
    ranked = rank_tops([vowels, consonants], stock, ro, only(rules, "balance"), rules.end)
    assert ranked[0] is consonants  # leaves AEIO+MNRST (4/9 vowels) rather than O+BCDMNRST (1/9)


def test_D_5_3_7_balance_on_the_leave_when_the_policy_says_so(ro, rules):
    board = Board()
    keeps_vowels = cand(ro, rules, board, "H8", "BCDM", "AEIBCDM")   # leave AEI
    keeps_mixed = cand(ro, rules, board, "H8", "ABCD", "AEIBCDM")    # leave EIM
    basis = ContinuationRules(("balance",), "leave")
    ranked = rank_tops([keeps_vowels, keeps_mixed], Counter("AEIBCDM"), ro, basis, rules.end)
    assert ranked[0] is keeps_mixed


def test_D_5_3_7_prefers_letters_plentiful_in_the_stock(ro, rules):
    board = Board()
    common = cand(ro, rules, board, "H8", "AR", "ARTEIOU")
    rare = cand(ro, rules, board, "H8", "AT", "ARTEIOU")
    stock = Counter("ARTEIOU") + Counter("RRRR")
    ranked = rank_tops([rare, common], stock, ro, rules.continuation, rules.end)
    assert ranked[0] is common


def test_D_5_3_7_prefers_more_tiles(ro, rules):
    board = Board()
    two = cand(ro, rules, board, "H8", "AR", "ARTEIOU")
    three = cand(ro, rules, board, "H8", "ARE", "ARTEIOU")
    ranked = rank_tops([two, three], Counter("ARTEIOU"), ro, only(rules, "more_tiles"), rules.end)
    assert ranked[0] is three


def test_D_5_3_7_prefers_a_move_that_does_not_end_the_game(ro, rules):
    board = Board()
    ends = cand(ro, rules, board, "H8", "MA", "MAB")      # takes the last vowel: D 5.3.8 ends the game
    goes_on = cand(ro, rules, board, "H8", "MB", "MAB")
    ranked = rank_tops([ends, goes_on], Counter("MABR"), ro, only(rules, "continues_game"), rules.end)
    assert ranked[0] is goes_on


def test_D_5_3_7_earlier_criteria_win_over_later_ones(ro, rules):
    board = Board()
    joker_more_tiles = cand(ro, rules, board, "H8", "CASaT", "CAS?TEM")
    plain_fewer = cand(ro, rules, board, "H8", "CASA", "CASATEM")
    ranked = rank_tops([joker_more_tiles, plain_fewer], Counter("CAS?ATEM"), ro, rules.continuation, rules.end)
    assert ranked[0] is plain_fewer


def test_D_5_3_7_full_ties_fall_back_to_position_then_word(ro, rules):
    board = Board()
    later = cand(ro, rules, board, "H8", "CASA", "CASAEMR")
    earlier = cand(ro, rules, board, "H5", "CASA", "CASAEMR")
    for order in ([later, earlier], [earlier, later]):
        ranked = rank_tops(order, Counter("CASAEMR"), ro, rules.continuation, rules.end)
        assert ranked[0] is earlier


# --- D 5.3.7: what is announced with the top ------------------------------------------------

def test_D_5_3_7_one_top_in_several_positions_flags_the_position(ro, rules):
    board = Board()
    tops = [cand(ro, rules, board, "H8", "CASA", "CASAEMR"), cand(ro, rules, board, "8H", "CASA", "CASAEMR")]
    assert [a.flag for a in top_flags(tops[0], tops, rules.letter_names)] == [Flag.POSITION]


def test_D_5_3_7_several_joker_places_flag_the_joker_and_name_its_letter(ro, rules):
    board = Board()
    tops = [cand(ro, rules, board, "H8", "CAsA", "CA?AEMR"), cand(ro, rules, board, "H8", "CASa", "CAS?EMR")]
    (announcement,) = top_flags(tops[0], tops, rules.letter_names)
    assert announcement.flag is Flag.JOKER
    assert announcement.text == ("atenție la poziția jokerului, jokerul este a treia literă (S SANDU) "
                                 "în cadrul depunerii")


def test_D_5_3_7_several_top_moves_flag_the_retained_solution(ro, rules):
    board = Board()
    tops = [cand(ro, rules, board, "H8", "CASA", "CASAEMR"), cand(ro, rules, board, "H8", "MASA", "MASAEMR")]
    assert [a.flag for a in top_flags(tops[0], tops, rules.letter_names)] == [Flag.SOLUTION]


def test_D_5_3_7_a_single_top_has_no_flag(ro, rules):
    top = cand(ro, rules, Board(), "H8", "CASA", "CASAEMR")
    assert top_flags(top, [top], rules.letter_names) == []


def test_one_deposit_read_across_and_down_is_one_top(ro, rules):
    # A single A at I9 forms I8 MA across and 9H TA down: both slips name the same deposit.
    board = board_with(ro, ("H8", "AT"), ("I8", "M"))
    slips = [Move(parse_frs("I8"), ro.tiles.parse_word("MA")), Move(parse_frs("9H"), ro.tiles.parse_word("TA"))]
    fake_generator = lambda b, rack, pack, lexicon: slips  # noqa: E731  (the generator's output, fixed)
    tops = find_tops(board, list("AEIRSTU"), {}, rules.variant("classic"), ro, None, fake_generator)
    assert len(tops) == 1
    assert top_flags(tops[0], tops, rules.letter_names) == []


# --- the round-by-round API ---------------------------------------------------------------------

def test_round_by_round_api_and_arbiter_continuation(ro, demo):
    gm = GameMaster(ro, demo, "classic", random.Random(11))
    setup = gm.next_round()
    assert setup.round == 1 and len(setup.group) == 7 and setup.announcement[-1].startswith("pentru turul 1")
    tops = gm.tops()
    assert tops and len({c.score for c in tops}) == 1
    from corrector.words.movegen import generate_moves
    lower = next(p for p in generate_moves(gm.board, list(setup.group), ro, demo) if p.score < tops[0].score)
    log = gm.play_continuation(f"{lower.move.position.frs()} {lower.move.word}")
    assert (log.score, log.is_top, log.top_score) == (lower.score, False, tops[0].score)
    assert gm.tiles_conserved()
    assert gm.next_round().round == 2
    with pytest.raises(GameError):
        gm.next_round()  # round 2 has no continuation yet
    with pytest.raises(GameError, match="not in the group|not in the word list|D"):
        gm.play_continuation("H8 ZZZZZZZ")


def test_an_illegal_continuation_is_refused(ro, demo):
    gm = GameMaster(ro, demo, "classic", random.Random(3))
    setup = gm.next_round()
    with pytest.raises(GameError):
        gm.play_continuation("A1 " + "".join(setup.group))  # misses the start square


def test_the_same_seed_gives_the_same_game(ro, demo):
    a = GameMaster(ro, demo, "classic", random.Random(42), seed=42).run().to_json()
    b = GameMaster(ro, demo, "classic", random.Random(42), seed=42).run().to_json()
    assert a == b
    c = GameMaster(ro, demo, "classic", random.Random(43), seed=43).run().to_json()
    assert a["rounds"] != c["rounds"]


def test_D_8_6_tactic_goes_to_its_own_game_master(ro, demo):
    with pytest.raises(GameError, match="TacticGameMaster"):
        GameMaster(ro, demo, "tactic", random.Random(1))


# --- whole games, checked independently of the game master -----------------------------------------

def check_game(game: GameLog, pack, lexicon, rules, finished: bool = True) -> None:
    problems = check_game_log(game, pack, lexicon, rules, finished)
    assert problems == []
    assert sum(Bag.full(pack.tiles).counts().values()) == 100


def test_the_game_check_catches_a_wrong_score_and_a_lost_tile(ro, demo, rules):
    game = GameMaster(ro, demo, "classic", random.Random(1), seed=1).run()
    first = game.rounds[0]
    wrong = replace(game, rounds=(replace(first, score=first.score + 1),) + game.rounds[1:])
    assert any("scores" in p for p in check_game_log(wrong, ro, demo, rules))
    lost = replace(game, stock_left=game.stock_left + "A")
    assert any("tile set" in p for p in check_game_log(lost, ro, demo, rules))


def test_100_simulated_games_finish_legally_with_every_tile_accounted_for(ro, demo, rules):
    for seed in range(100):
        game = GameMaster(ro, demo, "classic", random.Random(seed), seed=seed).run()
        check_game(game, ro, demo, rules)


@pytest.mark.parametrize("variant, seed", [("completiv", 1), ("eliptic", 2), ("top", 3)])
def test_a_simulated_variant_game_finishes_legally(ro, demo, rules, variant, seed):
    game = GameMaster(ro, demo, variant, random.Random(seed), seed=seed).run()
    check_game(game, ro, demo, rules)


@pytest.mark.parametrize("variant", ["super_joker", "metagrama"])
def test_the_first_rounds_of_a_swap_or_choice_variant_are_legal(ro, demo, rules, variant):
    gm = GameMaster(ro, demo, variant, random.Random(5), seed=5)
    for _ in range(4):
        gm.play_round()
    check_game(gm.game_log(), ro, demo, rules, finished=False)
    assert gm.tiles_conserved()
