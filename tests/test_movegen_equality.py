"""Correctness by two independent methods: the word-graph generator (C and its Python twin)
against a deliberately simple brute force over squares × directions × word-list entries, which
knows nothing of graphs and judges every candidate with `placement.place_move` (the one scorer)
and a plain Python set of words. Equal move sets on 300+ random positions, jokers included,
for `ro`, and on Catalan positions with the digraph tiles L·L, NY, QU.

Public engines have shipped bugs that silently dropped equal tops; set equality (position, word,
joker placement, score, words formed, leave) catches any such loss.
"""
from __future__ import annotations

import gzip
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from corrector.board import Board
from corrector.coords import Position
from corrector.words.lexicon import Lexicon
from corrector.words.movegen import compiled_available, generate_moves, generate_records
from corrector.placement import Move, Placement, apply_placement, place_move
from corrector.judging.rack import take_from_rack
from corrector.rulepack import SIZE, RulePack, load_pack
from corrector.tiles import JOKER, Tile

RO = load_pack("ro")
CA = load_pack("ca")
DEMO = Path(__file__).resolve().parent.parent / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"

CA_WORDS = """COL·LEGA COL·LEGI PAL·LA CEL·LA NUL·LA ANY ANYS NYAP NYEC BANY BANYA CANYA LLENYA SENYOR
QUE QUI AQUI QUAN QUATRE QUEDA ESQUI PAQUET AL ALS LA LES EL ELS DE DA DO ES SA SE SI NO NA NE
CASA CASES MES MESA SOL SOLA TE TA TU TOT TOTA ROS ROSA ARC ARCS CA CAP CAPA PA PAS PAL PALA
GAT GATS ERA ERES OS OSSA IA IO ET EN ENS UN UNA UNS LLUM LLUNA LLAC ULL ULLS ANEC ANEM ORA ORES""".split()


# ---------------------------------------------------------------- brute-force reference

def reference_moves(board: Board, rack: list[str], pack: RulePack, words: list[str]) -> set[tuple]:
    """Every legal move, found the slow, obvious way: try each word at each square in each
    direction; keep it when `place_move` accepts it and every word formed is in the list; then
    try every way the group's jokers can stand for its new letters."""
    tiles = pack.tiles
    vocabulary = {tuple(tiles.tokenize(w)) for w in words}
    vocabulary = {w: Counter(w) for w in vocabulary if 2 <= len(w) <= SIZE}
    spelled = {"".join(w) for w in vocabulary}
    have = Counter(rack)
    jokers = have.pop(JOKER, 0)
    found: set[tuple] = set()
    # A necessary condition only, to spare place_move most hopeless calls: a move touches or
    # covers a tile, or covers the start square on an empty board. place_move stays the judge.
    near = {(r + dr, c + dc) for r, c, _ in board.tiles() for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
    near = near or {pack.board.start}
    for horizontal in (True, False):
        for line in range(SIZE):
            squares = [(line, i) if horizontal else (i, line) for i in range(SIZE)]
            if not near.intersection(squares):
                continue
            cells = [board[sq] for sq in squares]
            available = have + Counter(t.letter for t in cells if t is not None)
            for word, letters in vocabulary.items():
                # a word the group and this line's tiles cannot spell fits nowhere on the line
                if sum(max(0, n - available[l]) for l, n in letters.items()) > jokers:
                    continue
                for offset in range(SIZE - len(word) + 1):
                    if near.isdisjoint(squares[offset:offset + len(word)]):
                        continue
                    empty = [i for i in range(len(word)) if cells[offset + i] is None]
                    if not empty or any(cells[offset + i] is not None and cells[offset + i].letter != letter
                                        for i, letter in enumerate(word)):
                        continue
                    before, after = offset - 1, offset + len(word)
                    if (before >= 0 and cells[before] is not None) or (after < SIZE and cells[after] is not None):
                        continue  # the main word would run on into a tile
                    if not all(_cross_ok(board, squares[offset + i], word[i], horizontal, spelled) for i in empty):
                        continue
                    pos = Position(*squares[offset], horizontal)
                    plain = tuple(cells[offset + i] or Tile(letter) for i, letter in enumerate(word))
                    placement = place_move(board, Move(pos, plain), pack)
                    if not isinstance(placement, Placement) or not all(w.text in spelled for w in placement.words):
                        continue
                    for count in range(min(jokers, len(empty)) + 1):
                        for joker_squares in combinations(empty, count):
                            real = Counter(word[i] for i in empty if i not in joker_squares)
                            if any(real[l] > have[l] for l in real):
                                continue
                            move_tiles = tuple(cells[offset + i] or Tile(letter, i in joker_squares)
                                               for i, letter in enumerate(word))
                            scored = place_move(board, Move(pos, move_tiles), pack)
                            leave = take_from_rack(rack, [t for _, _, t in scored.new_tiles])
                            found.add(_key(pos, move_tiles, scored.score, tuple(w.text for w in scored.words),
                                           tuple(leave)))
    return found


def _cross_ok(board: Board, square: tuple[int, int], letter: str, horizontal: bool, spelled: set[str]) -> bool:
    """The word a new tile makes across the main word is in the list (or is the tile alone)."""
    dr, dc = (1, 0) if horizontal else (0, 1)
    r, c = square
    head, tail = [], []
    while Board.on_board(r - dr, c - dc) and board[r - dr, c - dc] is not None:
        r, c = r - dr, c - dc
        head.insert(0, board[r, c].letter)
    r, c = square
    while Board.on_board(r + dr, c + dc) and board[r + dr, c + dc] is not None:
        r, c = r + dr, c + dc
        tail.append(board[r, c].letter)
    return not head and not tail or "".join(head + [letter] + tail) in spelled


def _key(pos: Position, move_tiles: tuple[Tile, ...], score: int, words: tuple[str, ...], leave: tuple) -> tuple:
    return (pos.row, pos.col, pos.horizontal, tuple((t.letter, t.joker) for t in move_tiles), score, words,
            tuple(sorted(leave)))


def generator_keys(board: Board, rack: list[str], pack: RulePack, lexicon: Lexicon, compiled: bool) -> set[tuple]:
    plays = generate_moves(board, rack, pack, lexicon, compiled=compiled)
    keys = {_key(p.position, p.move.tiles, p.score, p.words, p.leave) for p in plays}
    assert len(keys) == len(plays), "the generator listed a move twice"
    return keys


# ---------------------------------------------------------------- random positions

def small_ro_words(seed: int = 7) -> list[str]:
    """A dense tiny list drawn from the demo list: every 2-letter word, and short words."""
    with gzip.open(DEMO, "rt", encoding="ascii") as handle:
        words = handle.read().split()
    rng = random.Random(seed)
    two = [w for w in words if len(w) == 2]
    three = [w for w in words if len(w) == 3]
    longer = [w for w in words if 4 <= len(w) <= 8]
    return sorted(set(two + rng.sample(three, 100) + rng.sample(longer, 150)))


def draw(rng: random.Random, bag: list[str], size: int, jokers: int) -> list[str]:
    real = [t for t in bag if t != JOKER]
    jokers = min(jokers, bag.count(JOKER))
    rack = rng.sample(real, size - jokers) + [JOKER] * jokers
    for t in rack:
        bag.remove(t)
    return rack


def random_position(rng: random.Random, pack: RulePack, lexicon: Lexicon, moves: int) -> tuple[Board, list[str]]:
    """A board reached by random legal moves (chosen from the generator: the position is only
    the input), then a fresh group of letters with 0, 1 or 2 jokers."""
    bag = [letter for letter, n in pack.tiles.counts.items() for _ in range(n)] + [JOKER] * pack.tiles.jokers
    board = Board()
    for _ in range(moves):
        rack = draw(rng, list(bag), pack.rack_size, rng.choice((0, 0, 1)))
        records = generate_records(board, rack, pack, lexicon)
        if records.size == 0:
            continue
        rec = records[rng.randrange(records.size)]
        pos = Position(int(rec["row"]), int(rec["col"]), bool(rec["horizontal"]))
        move_tiles = tuple(board[pos.square(i)] or Tile(lexicon.alphabet[int(rec["letters"][i])],
                                                          bool(int(rec["joker_mask"]) >> i & 1))
                           for i in range(int(rec["length"])))
        placement = place_move(board, Move(pos, move_tiles), pack)
        apply_placement(board, placement)
        for _, _, t in placement.new_tiles:
            bag.remove(JOKER if t.joker else t.letter)
    rack = draw(rng, bag, pack.rack_size, rng.choice((0, 1, 2)))
    return board, rack


@pytest.fixture(scope="module")
def ro_small() -> tuple[list[str], Lexicon]:
    words = small_ro_words()
    return words, Lexicon.from_words(words, RO, label="tiny ro list")


RO_POSITIONS = 300


@pytest.mark.parametrize("chunk", range(6))
def test_generator_equals_brute_force_ro(ro_small, chunk):
    """RO_POSITIONS random positions (50 per chunk), 0–2 jokers, up to 12 moves deep."""
    words, lexicon = ro_small
    rng = random.Random(1000 + chunk)
    compared = 0
    for _ in range(RO_POSITIONS // 6):
        board, rack = random_position(rng, RO, lexicon, rng.randint(0, 12))
        expected = reference_moves(board, rack, RO, words)
        fast = generator_keys(board, rack, RO, lexicon, compiled=None)
        assert fast == expected, f"rack {''.join(rack)}\n{board.to_text()}"
        if compiled_available() and compared % 5 == 0:
            assert generator_keys(board, rack, RO, lexicon, compiled=False) == expected
        compared += 1
    assert compared == RO_POSITIONS // 6


@pytest.mark.skipif(not compiled_available(), reason="compiled move generator not built")
def test_python_twin_equals_compiled_ro(ro_small):
    _, lexicon = ro_small
    rng = random.Random(77)
    for _ in range(20):
        board, rack = random_position(rng, RO, lexicon, rng.randint(0, 10))
        assert generator_keys(board, rack, RO, lexicon, compiled=False) == \
            generator_keys(board, rack, RO, lexicon, compiled=True)


def test_generator_equals_brute_force_ca_digraphs():
    lexicon = Lexicon.from_words(CA_WORDS, CA, label="tiny ca list")
    rng = random.Random(5)
    for _ in range(40):
        board, rack = random_position(rng, CA, lexicon, rng.randint(0, 8))
        assert generator_keys(board, rack, CA, lexicon, compiled=None) == reference_moves(board, rack, CA, CA_WORDS)


def test_catalan_digraph_tile_fills_one_square():
    lexicon = Lexicon.from_words(CA_WORDS, CA)
    board = Board()
    plays = generate_moves(board, ["C", "O", "L·L", "E", "G", "A", "S"], CA, lexicon)
    collega = [p for p in plays if p.words[0] == "COL·LEGA" and p.position == Position(7, 7, True)]
    assert len(collega) == 1
    assert len(collega[0].move.tiles) == 6  # C O L·L E G A: six squares
    assert collega[0].leave == ("S",)
