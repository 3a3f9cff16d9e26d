"""The letters a player may use in one round (RULES.md §3 step 4, §6, D 8): the drawn letters,
the stock, and the variant (from the game master's duplicate rules) that says how many stock
letters a player may take and how many tiles one move may place. Where a tile comes from is
decided by `variants.use_rack`, the one home of that rule."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from corrector.board import Board
from corrector.reasons import Violation
from corrector.rulepack import RulePack
from corrector.tiles import JOKER, Tile
from corrector.game.variants import RackUse, Variant, load_duplicate_rules, use_rack


@dataclass(frozen=True)
class Group:
    variant: Variant
    drawn: tuple[str, ...]
    stock: tuple[tuple[str, int], ...] = ()

    @property
    def stock_counts(self) -> Counter[str]:
        return Counter(dict(self.stock))

    @property
    def max_tiles(self) -> int:
        return self.variant.use_max

    def max_jokers(self) -> int:
        """Jokers a player can hold: those drawn plus those taken from the stock (D 8.2, 8.7)."""
        extra = self.variant.chosen + self.variant.swaps
        return self.drawn.count(JOKER) + min(extra, self.stock_counts[JOKER])

    def use(self, tiles: Iterable[Tile]) -> RackUse | Violation:
        return use_rack(self.variant, self.drawn, self.stock_counts, tiles)

    def fits(self, tiles: Iterable[Tile]) -> bool:
        return isinstance(self.use(tiles), RackUse)


def stock_after(full: Counter[str], used: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """The stock as a sorted tuple: the full tile counts less the tiles in `used` ('?' for jokers).
    Raises ValueError naming the first letter used more often than the set holds."""
    left = Counter(full)
    for letter in used:
        left[letter] -= 1
        if left[letter] < 0:
            raise ValueError(f"more {letter!r} tiles are in play than the set holds")
    return tuple(sorted((k, v) for k, v in left.items() if v > 0))


def stock_of(pack: RulePack, board: Board, drawn: list[str]) -> tuple[tuple[str, int], ...]:
    """Letters neither on the board nor in the drawn group (a joker on the board counts as '?')."""
    full = Counter(pack.tiles.counts)
    full[JOKER] = pack.tiles.jokers
    return stock_after(full, list(board.tile_counts().elements()) + drawn)


def build_group(variant_name: str, pack: RulePack, board: Board, drawn: list[str],
                stock: tuple[tuple[str, int], ...] | None = None) -> Group:
    """The group of a round; the stock is computed from the board unless given."""
    variant = load_duplicate_rules(pack).variant(variant_name)
    if stock is None:
        stock = stock_of(pack, board, drawn)
    return Group(variant, tuple(drawn), stock)
