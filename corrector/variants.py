"""Duplicate variants (RULES.md §6, D 8): how many letters are drawn, how many each player takes
from the stock, and the group a round's slips are judged against."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .board import Board
from .group import Group, stock_after
from .rulepack import RulePack
from .tiles import JOKER


@dataclass(frozen=True)
class VariantSpec:
    drawn: int     # letters the arbiter draws and announces
    choose: int    # letters each player then takes from the stock
    groups: int = 1


VARIANTS = {
    "classic": VariantSpec(7, 0),      # D 8.1
    "completiv": VariantSpec(6, 1),    # D 8.2
    "eliptic": VariantSpec(8, 0),      # D 8.3: 8 drawn, at most 7 placed (the rack size)
    "top": VariantSpec(7, 0),          # D 8.4: classic play, ranked by tops
    "super_joker": VariantSpec(5, 2),  # D 8.5
    "tactic": VariantSpec(7, 0, 2),    # D 8.6: two groups, two moves a round
    "metagrama": VariantSpec(7, 1),    # D 8.7: one letter swapped for one from the stock
}


def full_counts(pack: RulePack) -> Counter[str]:
    counts = Counter(pack.tiles.counts)
    counts[JOKER] = pack.tiles.jokers
    return counts


def stock_of(pack: RulePack, board: Board, drawn: list[str]) -> tuple[tuple[str, int], ...]:
    """Letters neither on the board nor in the drawn group (a joker on the board counts as '?')."""
    on_board = [JOKER if tile.joker else tile.letter for _, _, tile in board.tiles()]
    return stock_after(full_counts(pack), on_board + drawn)


def build_group(variant: str, pack: RulePack, board: Board, drawn: list[str],
                stock: tuple[tuple[str, int], ...] | None = None) -> Group:
    spec = VARIANTS[variant]
    if spec.choose and stock is None:
        stock = stock_of(pack, board, drawn)
    return Group(tuple(drawn), spec.choose, stock or (), pack.rack_size)
