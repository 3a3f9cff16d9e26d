"""Move generator: rules of RULES.md §1 on hand-made boards, scores equal to the one scorer,
every equal top, jokers for letters without tiles, and a check on the demo list."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from corrector.board import Board
from corrector.coords import parse_frs
from corrector.words.lexicon import Lexicon, load_lexicon
from corrector.words.movegen import compiled_available, generate_moves, generate_records, top_moves
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.rulepack import load_pack
from corrector.tiles import Tile

RO = load_pack("ro")
DEMO = Path(__file__).resolve().parent.parent / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"
ENGINES = [pytest.param(False, id="python")] + (
    [pytest.param(True, id="c")] if compiled_available() else [])


def board_with(*moves: str) -> Board:
    """Apply moves written as 'H8 CASA' (FRS position, word; lowercase = joker)."""
    board = Board()
    for text in moves:
        pos, word = text.split()
        placement = place_move(board, _move(pos, word), RO)
        assert isinstance(placement, Placement), placement
        apply_placement(board, placement)
    return board


def _move(pos: str, word: str) -> Move:
    return Move(parse_frs(pos), RO.tiles.parse_word(word))


@pytest.mark.parametrize("compiled", ENGINES)
def test_first_move_covers_h8(compiled):
    """RULES.md §1: the first move covers H8 (the start square of the layout)."""
    lex = Lexicon.from_words(["CASA", "AS"], RO)
    plays = generate_moves(Board(), "CASAXEZ", RO, lex, compiled=compiled)
    assert plays
    for play in plays:
        squares = {play.position.square(i) for i in range(len(play.move.tiles))}
        assert RO.board.start in squares
    assert {str(p.position) for p in plays if p.word == "CASA"} == {"H5", "H6", "H7", "H8", "8E", "8F", "8G", "8H"}


@pytest.mark.parametrize("compiled", ENGINES)
def test_scores_equal_placement_and_words_formed(compiled):
    lex = Lexicon.from_words(["CASA", "AS", "SA", "CA", "MASA", "ASA", "CASAS", "AC"], RO)
    board = board_with("H8 CASA")
    plays = generate_moves(board, "MASA?SC", RO, lex, compiled=compiled)
    assert plays
    for play in plays:
        placement = place_move(board, play.move, RO)
        assert isinstance(placement, Placement)
        assert play.score == placement.score  # one scorer (RULES.md §1)
        assert play.words == tuple(w.text for w in placement.words)
        assert all(w in lex for w in play.words)


def test_top_moves_lists_every_equal_top():
    """D 5.3.7: the arbiter sees each equal top, position and joker placement alike."""
    lex = Lexicon.from_words(["AB", "BA"], RO)
    tops = top_moves(Board(), ["A", "?"], RO, lex)
    # Real A on a DW square (H8 is ×2): AB/BA across and down, joker as B on either side.
    assert len({(str(t.position), t.word) for t in tops}) == len(tops) == 8
    assert {t.score for t in tops} == {2}
    assert {t.word for t in tops} == {"Ab", "bA"}


def test_jokers_stand_for_letters_without_tiles():
    """RULES.md §1: no K Q W Y tiles, but a joker may stand for them."""
    lex = Lexicon.from_words(["KG", "OK"], RO)
    plays = generate_moves(Board(), "OG?", RO, lex)
    words = {p.word for p in plays}
    assert {"kG", "Ok"} <= words
    assert not generate_moves(Board(), "OGA", RO, lex)


def test_leave_and_tiles_used():
    lex = Lexicon.from_words(["CASA"], RO)
    play = next(p for p in generate_moves(Board(), "CAS?ERT", RO, lex) if p.word == "CASa")
    assert play.tiles_used == (Tile("C"), Tile("A"), Tile("S"), Tile("A", True))
    assert play.leave == ("E", "R", "T")


def test_bingo_bonus():
    """Annex 1: all 7 tiles of a group placed: +50."""
    lex = Lexicon.from_words(["CASTELE"], RO)
    plays = generate_moves(Board(), "CASTELE", RO, lex)
    assert plays and all(p.score == place_move(Board(), p.move, RO).score for p in plays)
    assert all(p.score > 50 for p in plays)


def test_no_letters_no_moves():
    lex = Lexicon.from_words(["CASA"], RO)
    assert generate_moves(board_with("H8 CASA"), "", RO, lex) == []
    assert top_moves(board_with("H8 CASA"), "ZZ", RO, lex) == []


def test_single_tile_move_is_listed_in_each_direction_it_forms_a_word():
    """Both slips, `I8 SA` and `8H AS`, write the same placed tile correctly."""
    lex = Lexicon.from_words(["AS", "SA"], RO)
    board = board_with("H8 AS", "9H SA")  # A H8, S H9, A I9: an S on I8 makes SA across and AS down
    plays = [p for p in generate_moves(board, "S", RO, lex) if p.tiles_used == (Tile("S"),)]
    on_i8 = {(str(p.position), p.word, p.score) for p in plays
             if place_move(board, p.move, RO).new_tiles[0][:2] == (8, 7)}
    assert {(pos, word) for pos, word, _ in on_i8} == {("I8", "SA"), ("8H", "AS")}
    assert len({score for _, _, score in on_i8}) == 1


def test_demo_list_moves_are_legal_and_scored_by_placement():
    """On the real demo list (demo list, not LOC): every generated move of a few positions is
    accepted by placement, scored identically, and forms only listed words."""
    lex = load_lexicon(DEMO, RO)
    rng = random.Random(3)
    bag = [letter for letter, n in RO.tiles.counts.items() for _ in range(n)]
    board = Board()
    checked = 0
    for turn in range(6):
        rack = rng.sample(bag, 6) + ["?"]
        records = generate_records(board, rack, RO, lex)
        plays = generate_moves(board, rack, RO, lex)
        assert len(plays) == len(records)
        for play in plays[:: max(1, len(plays) // 300)]:
            placement = place_move(board, play.move, RO)
            assert isinstance(placement, Placement)
            assert placement.score == play.score
            assert all(w.text in lex for w in placement.words)
            checked += 1
        top = top_moves(board, rack, RO, lex)
        assert top[0].score == plays[0].score == int(records["score"].max())
        apply_placement(board, place_move(board, top[0].move, RO))
        for t in top[0].tiles_used:
            if not t.joker:
                bag.remove(t.letter)
    assert checked > 1000


def test_best_score_over_chosen_lines_is_the_best_record_there():
    """The compiled generator's best score alone, over a subset of rows (words across) and
    columns (words down), equals the best of the full records on those lines (the tactic top's
    second-move search, corrector.game.tactic)."""
    from corrector.words import _movegen
    from corrector.words.movegen import _arguments

    lex = load_lexicon(DEMO, RO)
    board = Board()
    for letters in ("CASAXEZ", "MODELAR", "PISICUT"):  # three tops make a mid-game board
        apply_placement(board, place_move(board, top_moves(board, letters, RO, lex)[0].move, RO))
    rack = list(RO.tiles.parse_rack("MASA?SC"))
    records = generate_records(board, rack, RO, lex)
    args = _arguments(board, rack, RO, lex)
    rng = random.Random(4)
    for _ in range(40):
        rows, cols = rng.getrandbits(15), rng.getrandbits(15)
        across = records["horizontal"].astype(bool)
        inside = (across & (rows >> records["row"].astype(int) & 1).astype(bool)) | (
            ~across & (cols >> records["col"].astype(int) & 1).astype(bool))
        want = int(records["score"][inside].max()) if inside.any() else None
        assert _movegen.best_score(*args, rows, cols) == want
    assert _movegen.best_score(*args) == int(records["score"].max())
