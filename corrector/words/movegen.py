"""Every legal move for a board and a group of letters, against a word list (any rule pack).

The walk is Appel & Jacobson's (anchors, cross-checks, left parts, right extensions) on the
lexicon's DAWG, in C (`_movegen.c`, built at install) with a pure-Python twin that gives the same
records when the extension is missing. A move is legal when its main word and every word it
forms are in the list, it fits one line without gaps, connects (or covers the start square on
the first move) and uses only the group's letters (RULES.md §1, §3 step 4). Jokers may stand for
any letter of the pack's alphabet, also those without tiles (K Q W Y in Romanian).

Scores follow RULES.md §1 and equal `placement.place_move`'s (tests compare them on every move);
to check one given move, use `placement.place_move` — it is the one scorer.

A single tile that forms words both across and down is listed twice, once per direction: the
two slips (`H4 …` and `4H …`) are both correct ways to write it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from corrector.board import Board
from corrector.coords import Position
from corrector.words.lexicon import Lexicon
from corrector.placement import Move
from corrector.rulepack import SIZE, RulePack
from corrector.tiles import JOKER, Tile
from corrector.words import movegen_py

try:
    from corrector.words import _movegen as _compiled
except ImportError:  # no C compiler at install: same results, slower
    _compiled = None

RECORD = np.dtype([
    ("score", "<i4"), ("row", "u1"), ("col", "u1"), ("horizontal", "u1"), ("length", "u1"),
    ("letters", "u1", (SIZE,)), ("placed", "u1"), ("new_mask", "<u2"), ("joker_mask", "<u2"),
])
assert RECORD.itemsize == 28


@dataclass(frozen=True, slots=True)
class Play:
    """A generated move: what a slip would say, and what it earns and costs."""

    move: Move  # position + whole main word, jokers marked (RULES.md §2)
    score: int
    tiles_used: tuple[Tile, ...]  # new tiles in word order; a joker as Tile(letter, joker=True)
    leave: tuple[str, ...]  # letters left in the group, '?' for a joker
    words: tuple[str, ...]  # every word formed, main word first (as placement orders them)

    @property
    def position(self) -> Position:
        return self.move.position

    @property
    def word(self) -> str:
        return self.move.word

    def __str__(self) -> str:
        return f"{self.move.position.frs()} {self.move.word} {self.score}"


def compiled_available() -> bool:
    return _compiled is not None


def _rack_letters(rack: str | Sequence[str], pack: RulePack) -> list[str]:
    return pack.tiles.parse_rack(rack) if isinstance(rack, str) else list(rack)


def _arguments(board: Board, rack: Sequence[str], pack: RulePack, lexicon: Lexicon) -> tuple:
    index = lexicon.index
    alpha = len(lexicon.alphabet)
    cells = np.full(SIZE * SIZE, -1, dtype=np.int8)
    jokers_on_board = np.zeros(SIZE * SIZE, dtype=np.uint8)
    for r, c, tile in board.tiles():
        if tile.letter not in index:
            raise ValueError(f"board tile {tile.letter!r} is not a letter of the word list's pack")
        cells[r * SIZE + c] = index[tile.letter]
        jokers_on_board[r * SIZE + c] = tile.joker
    values = np.array([pack.tiles.values.get(letter, 0) for letter in lexicon.alphabet], dtype=np.int32)
    premiums = [pack.board.premium(r, c) for r in range(SIZE) for c in range(SIZE)]
    lmult = np.array([p[0] for p in premiums], dtype=np.uint8)
    wmult = np.array([p[1] for p in premiums], dtype=np.uint8)
    counts = np.zeros(alpha, dtype=np.int32)
    jokers = 0
    for letter in rack:
        if letter == JOKER:
            jokers += 1
        elif letter in index:
            counts[index[letter]] += 1
        else:
            raise ValueError(f"letter {letter!r} of the group is not a letter of the word list's pack")
    start_sq = pack.board.start[0] * SIZE + pack.board.start[1]
    d = lexicon.dawg
    return (d.start, d.letter, d.target, d.final, d.mask, cells, jokers_on_board, values, lmult, wmult, counts,
            jokers, pack.rack_size, pack.bingo_bonus, start_sq, alpha)


def generate_records(board: Board, rack: str | Sequence[str], pack: RulePack, lexicon: Lexicon,
                     compiled: bool | None = None) -> np.ndarray:
    """All legal moves as a structured array of RECORD (unordered): the fast path for callers
    that only need scores or counts. `compiled=False` forces the Python twin."""
    args = _arguments(board, _rack_letters(rack, pack), pack, lexicon)
    use_c = _compiled is not None if compiled is None else compiled
    if use_c:
        if _compiled is None:
            raise RuntimeError("the compiled move generator is not built (python setup.py build_ext --inplace)")
        return np.frombuffer(_compiled.generate(*args), dtype=RECORD)
    (d_start, d_letter, d_target, d_final, _mask, cells, bj, values, lmult, wmult, counts, *rest) = args
    records = movegen_py.generate(lexicon.dawg, cells.tolist(), bj.tolist(), values.tolist(), lmult.tolist(),
                                  wmult.tolist(), counts.tolist(), *rest)
    out = np.zeros(len(records), dtype=RECORD)
    for i, rec in enumerate(records):
        out[i] = rec
    return out


def sort_records(records: np.ndarray) -> np.ndarray:
    """The one documented order: score descending, then row, column, across before down,
    then the main word's letters, then which squares hold jokers."""
    letters = records["letters"]
    keys = [records["joker_mask"]] + [letters[:, i] for i in range(SIZE - 1, -1, -1)] + [
        records["length"], 1 - records["horizontal"].astype(np.int16), records["col"], records["row"],
        -records["score"].astype(np.int64)]
    return records[np.lexsort(keys)]


class _Materialiser:
    """Turns records into Plays; the words across each square are computed once per board."""

    def __init__(self, board: Board, rack: list[str], lexicon: Lexicon):
        self.board = board
        self.rack = rack
        self.alphabet = lexicon.alphabet
        self.tiles = [(Tile(letter), Tile(letter, True)) for letter in lexicon.alphabet]
        self.cross: dict[tuple[int, int, bool], tuple[tuple[int, int], str, str]] = {}
        for r in range(SIZE):
            for c in range(SIZE):
                if board.grid[r][c] is None:
                    for horizontal in (True, False):
                        found = self._cross_word(r, c, horizontal)
                        if found:
                            self.cross[r, c, horizontal] = found

    def _cross_word(self, r: int, c: int, horizontal: bool) -> tuple[tuple[int, int], str, str] | None:
        dr, dc = (1, 0) if horizontal else (0, 1)  # perpendicular to the main word
        before, after = [], []
        rr, cc = r - dr, c - dc
        while Board.on_board(rr, cc) and self.board.grid[rr][cc] is not None:
            before.append(self.board.grid[rr][cc].letter)
            rr, cc = rr - dr, cc - dc
        start = (rr + dr, cc + dc)
        rr, cc = r + dr, c + dc
        while Board.on_board(rr, cc) and self.board.grid[rr][cc] is not None:
            after.append(self.board.grid[rr][cc].letter)
            rr, cc = rr + dr, cc + dc
        if not before and not after:
            return None
        return start, "".join(reversed(before)), "".join(after)

    def plays(self, records: np.ndarray) -> list[Play]:
        # One bulk conversion: field access on numpy records costs far more than on tuples.
        return [self.play(*rec) for rec in records.tolist()]

    def play(self, score: int, row: int, col: int, horizontal: int, length: int, letters: Sequence[int],
             placed: int, new_mask: int, joker_mask: int) -> Play:
        horizontal = bool(horizontal)
        pos = Position(row, col, horizontal)
        dr, dc = pos.step
        grid = self.board.grid
        tiles: list[Tile] = []
        used: list[Tile] = []
        cross: list[tuple[tuple[int, int], str]] = []
        for i in range(length):
            r, c = row + dr * i, col + dc * i
            if new_mask >> i & 1:
                tile = self.tiles[letters[i]][joker_mask >> i & 1]
                used.append(tile)
                found = self.cross.get((r, c, horizontal))
                if found:
                    cross.append((found[0], found[1] + tile.letter + found[2]))
            else:
                tile = grid[r][c]
            tiles.append(tile)
        leave = list(self.rack)  # the group's own order is kept
        for tile in used:
            leave.remove(JOKER if tile.joker else tile.letter)
        main = "".join(t.letter for t in tiles)
        words = (main,) + tuple(text for _, text in sorted(cross))
        return Play(Move(pos, tuple(tiles)), score, tuple(used), tuple(leave), words)


def generate_moves(board: Board, rack: str | Sequence[str], pack: RulePack, lexicon: Lexicon,
                   compiled: bool | None = None) -> list[Play]:
    """Every legal move, in the order of `sort_records` (best first)."""
    letters = _rack_letters(rack, pack)
    records = sort_records(generate_records(board, letters, pack, lexicon, compiled))
    maker = _Materialiser(board, letters, lexicon)
    return maker.plays(records)


def top_moves(board: Board, rack: str | Sequence[str], pack: RulePack, lexicon: Lexicon,
              compiled: bool | None = None) -> list[Play]:
    """ALL moves with the highest score — every position and every joker placement that
    reaches it — so an arbiter sees each equal top (D 5.3.7). Empty when no move exists."""
    letters = _rack_letters(rack, pack)
    records = generate_records(board, letters, pack, lexicon, compiled)
    if records.size == 0:
        return []
    best = records[records["score"] == records["score"].max()]
    maker = _Materialiser(board, letters, lexicon)
    return maker.plays(sort_records(best))
