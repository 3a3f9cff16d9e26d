"""The board as the pages draw it: 15×15 squares with their premiums, the tiles already played,
and a move (a candidate, or the round's top) placed on it by the one scorer of the corrector."""
from __future__ import annotations

from dataclasses import dataclass

from corrector.board import Board
from corrector.errors import FluturasError
from corrector.coords import parse_frs
from corrector.placement import Move, Placement, place_move
from corrector.reasons import Violation
from corrector.rulepack import ROW_LETTERS, SIZE, RulePack

PREMIUM_CLASS = {(2, 1): "dl", (3, 1): "tl", (1, 2): "dw", (1, 3): "tw"}


@dataclass(frozen=True)
class Square:
    letter: str
    joker: bool
    new: bool
    premium: str


@dataclass(frozen=True)
class BoardView:
    rows: tuple[tuple[Square, ...], ...]
    row_labels: str = ROW_LETTERS[:SIZE]
    move: str | None = None
    score: int | None = None
    problem: Violation | str | None = None  # the move could not be placed (illegal or unreadable)


def place(board: Board, pack: RulePack, position: str | None, word: str | None) -> Placement | Violation | str | None:
    """The move placed on the board, the reason it cannot be (a judge's Violation, or the
    notation's refusal as a line the page puts in its words), or None without a move."""
    if not position or not word:
        return None
    try:
        placed = place_move(board, Move(parse_frs(position), pack.tiles.parse_word(word)), pack)
    except (FluturasError, ValueError) as exc:  # an unreadable position or word is shown, never raised
        return str(exc)
    return placed


def board_view(board: Board, pack: RulePack, position: str | None = None, word: str | None = None) -> BoardView:
    placed = place(board, pack, position, word)
    new = {(r, c): t for r, c, t in placed.new_tiles} if isinstance(placed, Placement) else {}
    rows = []
    for r in range(SIZE):
        line = []
        for c in range(SIZE):
            tile = new.get((r, c)) or board[r, c]
            line.append(Square(tile.letter if tile else "", bool(tile and tile.joker), (r, c) in new,
                               PREMIUM_CLASS.get(pack.board.premium(r, c), "")))
        rows.append(tuple(line))
    move = f"{position} {word}" if position and word else None
    return BoardView(tuple(rows), move=move, score=placed.score if isinstance(placed, Placement) else None,
                     problem=None if isinstance(placed, Placement) else placed)
