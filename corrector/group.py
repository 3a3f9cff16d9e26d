"""The letters a player may use in one round of a duplicate variant (RULES.md §6, D 8):
the drawn letters, how many more each player takes from the stock, and the most tiles one move
may place. One rule covers classic (7 drawn), completiv (6 + 1 chosen), super joker (5 + 2),
eliptic (8 drawn, at most 7 placed) and metagramă (7 drawn, one swapped for a stock letter:
the same as choosing one, since a move places at most 7 tiles)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .tiles import JOKER


@dataclass(frozen=True)
class Group:
    drawn: tuple[str, ...]
    choose: int = 0
    stock: tuple[tuple[str, int], ...] = field(default=())
    max_tiles: int = 7

    @property
    def stock_counts(self) -> Counter[str]:
        return Counter(dict(self.stock))

    def max_jokers(self) -> int:
        """Jokers the player can have: those drawn plus those chosen from the stock (D 8.2)."""
        return self.drawn.count(JOKER) + min(self.choose, self.stock_counts[JOKER])

    def fits(self, letters: Iterable[str], jokers: int) -> bool:
        """Whether new tiles with these real letters plus `jokers` joker tiles can come from
        this group: drawn letters first, the rest chosen from the stock (at most `choose`)."""
        need = Counter(letters)
        if sum(need.values()) + jokers > self.max_tiles:
            return False
        drawn, stock = Counter(self.drawn), self.stock_counts
        chosen = max(0, jokers - drawn[JOKER])
        if chosen > stock[JOKER]:
            return False
        for letter, count in need.items():
            extra = count - drawn[letter]
            if extra > 0:
                if stock[letter] < extra:
                    return False
                chosen += extra
        return chosen <= self.choose


def stock_after(full: Counter[str], used: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """The stock as a sorted tuple: the full tile counts less the tiles in `used` ('?' for jokers).
    Raises ValueError naming the first letter used more often than the set holds."""
    left = Counter(full)
    for letter in used:
        left[letter] -= 1
        if left[letter] < 0:
            raise ValueError(f"more {letter!r} tiles are in play than the set holds")
    return tuple(sorted((k, v) for k, v in left.items() if v > 0))
