"""Test helpers shared by several test modules."""
from __future__ import annotations

from corrector.board import Board
from corrector.rulepack import RulePack


def board_with(pack: RulePack, *placed: tuple[str, str]) -> Board:
    """A board holding words placed without checks: ('H8', 'CASA') in FRS notation."""
    from corrector.coords import parse_frs

    board = Board()
    for position_text, word in placed:
        position = parse_frs(position_text)
        for i, tile in enumerate(pack.tiles.parse_word(word)):
            board[position.square(i)] = tile
    return board
