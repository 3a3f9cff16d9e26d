"""Placing a move on a board: which tiles are new, every word formed, geometry, and the score.

This is the one scorer (docs/architecture.md: one home for each concept). Layers as in Eliot: board
geometry here, the group of letters in `rack`, the word list in `lexicon`.
"""
from __future__ import annotations

from dataclasses import dataclass

from corrector.board import Board
from corrector.coords import Position, parse_frs, square_name
from corrector.errors import NotationError
from corrector.reasons import Reason, Violation
from corrector.rulepack import SIZE, RulePack
from corrector.tiles import Tile


@dataclass(frozen=True, slots=True)
class Move:
    """What a slip says: the position and the whole main word, board tiles included (§2)."""

    position: Position
    tiles: tuple[Tile, ...]

    @property
    def word(self) -> str:
        """The word with jokers in lowercase, as in a game log."""
        return "".join(str(t) for t in self.tiles)

    def __str__(self) -> str:
        return f"{self.position.frs()} {self.word}"

    @classmethod
    def parse(cls, text: str, pack: RulePack) -> "Move":
        """The one reader of a move written out, `H4 MODEL` (FRS position, whole main word, lowercase
        = joker), as `__str__` writes it: continuations, the arbiter's choice of a top, stored rounds."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"{text!r}: expected a position and a word, like 'H4 MODEL'")
        return cls(parse_frs(parts[0]), pack.tiles.parse_word(parts[1]))


@dataclass(frozen=True, slots=True)
class FormedWord:
    """A word the move forms, with the squares it covers and its score (premiums applied)."""

    start: Position
    tiles: tuple[Tile, ...]
    score: int

    @property
    def text(self) -> str:
        return "".join(t.letter for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Placement:
    """A geometrically legal move: the new tiles, the words formed (main word first), the score."""

    move: Move
    new_tiles: tuple[tuple[int, int, Tile], ...]
    words: tuple[FormedWord, ...]
    bingo: bool
    score: int

    @property
    def main_word(self) -> FormedWord:
        return self.words[0]


def word_squares(board: Board, row: int, col: int, dr: int, dc: int, new: dict[tuple[int, int], Tile]) -> tuple[Position, list[tuple[int, int]]]:
    """Squares of the maximal run of tiles through (row, col) along (dr, dc), new tiles included:
    the word a tile belongs to in that direction."""

    def filled(r: int, c: int) -> bool:
        return Board.on_board(r, c) and ((r, c) in new or board.grid[r][c] is not None)

    r, c = row, col
    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while filled(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    return Position(squares[0][0], squares[0][1], horizontal=dc == 1), squares


def _score_word(squares: list[tuple[int, int]], board: Board, new: dict[tuple[int, int], Tile], pack: RulePack) -> tuple[tuple[Tile, ...], int]:
    """Letter premiums first, then word premiums; premiums count only when newly covered;
    a joker scores 0 but a word premium under it still multiplies (RULES.md §1, Annex 1)."""
    total, multiplier, tiles = 0, 1, []
    for square in squares:
        if square in new:
            tile = new[square]
            letter_mult, word_mult = pack.board.premium(*square)
            total += pack.tiles.value(tile) * letter_mult
            multiplier *= word_mult
        else:
            tile = board[square]
            total += pack.tiles.value(tile)
        tiles.append(tile)
    return tuple(tiles), total * multiplier


def place_move(board: Board, move: Move, pack: RulePack) -> Placement | Violation:
    """Check the geometry of `move` on `board` and score it; the word list and the group of
    letters are checked by their own layers."""
    pos = move.position
    dr, dc = pos.step
    if len(move.tiles) < 2:
        return Violation(Reason.WORD_TOO_SHORT, move.word)
    end_row, end_col = pos.square(len(move.tiles) - 1)
    if not (Board.on_board(pos.row, pos.col) and Board.on_board(end_row, end_col)):
        return Violation(Reason.OFF_BOARD, move.word)
    new: dict[tuple[int, int], Tile] = {}
    for i, tile in enumerate(move.tiles):
        square = pos.square(i)
        on_board = board[square]
        if on_board is None:
            new[square] = tile
        elif on_board.letter != tile.letter:
            return Violation(Reason.BOARD_TILE_MISMATCH, f"{square_name(*square)} ({on_board.letter}≠{tile.letter})")
    if not new:
        return Violation(Reason.NO_NEW_TILE, move.word)
    before, after = (pos.row - dr, pos.col - dc), (end_row + dr, end_col + dc)
    for r, c in (before, after):
        if board.occupied(r, c):
            return Violation(Reason.NOT_WHOLE_WORD, f"{board.grid[r][c].letter} ({square_name(r, c)})")
    if board.is_empty():
        if pack.board.start not in new:  # RULES.md §1: the first move covers H8
            return Violation(Reason.START_SQUARE_MISSED, square_name(*pack.board.start))
    elif not _connects(board, new):
        return Violation(Reason.NOT_CONNECTED)
    main_squares = [pos.square(i) for i in range(len(move.tiles))]
    main_tiles, main_score = _score_word(main_squares, board, new, pack)
    words = [FormedWord(pos, main_tiles, main_score)]
    cross_dr, cross_dc = dc, dr
    for square in new:  # every newly formed word scores separately (Annex 1)
        start, squares = word_squares(board, square[0], square[1], cross_dr, cross_dc, new)
        if len(squares) > 1:
            tiles, score = _score_word(squares, board, new, pack)
            words.append(FormedWord(start, tiles, score))
    words[1:] = sorted(words[1:], key=lambda w: (w.start.row, w.start.col))
    bingo = len(new) >= pack.rack_size
    score = sum(w.score for w in words) + (pack.bingo_bonus if bingo else 0)
    ordered_new = tuple(sorted((r, c, t) for (r, c), t in new.items()))
    return Placement(move, ordered_new, tuple(words), bingo, score)


def _connects(board: Board, new: dict[tuple[int, int], Tile]) -> bool:
    """A later move touches or plays through a tile already on the board (RULES.md §1)."""
    for r, c in new:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if board.occupied(nr, nc):
                return True
    return False


def apply_placement(board: Board, placement: Placement) -> None:
    """Put the new tiles of a legal placement on the board."""
    for r, c, tile in placement.new_tiles:
        board[r, c] = tile


__all__ = ["Move", "FormedWord", "Placement", "place_move", "apply_placement", "word_squares", "SIZE"]
