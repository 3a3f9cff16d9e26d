"""The stock of letters and the draw of each round's group (RULES.md §5; D 5.3.1, 5.3.2, 5.3.8).

The bag is a multiset kept in the tile set's letter order, so that a draw depends only on the
random generator handed in: the same seed always gives the same game.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from corrector.board import Board
from corrector.errors import GameError
from corrector.tiles import JOKER, TileSet


@dataclass(frozen=True, slots=True)
class Composition:
    """Vowels, consonants and jokers of some letters; a joker counts as whichever kind is
    needed (D 5.3.1, last sentence)."""

    vowels: int
    consonants: int
    jokers: int

    @classmethod
    def of(cls, letters: Iterable[str], tiles: TileSet) -> "Composition":
        v = c = j = 0
        for letter in letters:
            if letter == JOKER:
                j += 1
            elif tiles.is_vowel(letter):
                v += 1
            else:
                c += 1
        return cls(v, c, j)

    @property
    def size(self) -> int:
        return self.vowels + self.consonants + self.jokers

    def shortfall(self, min_vowels: int, min_consonants: int) -> int:
        """How many letters are missing to reach the minimum once the jokers fill the gaps."""
        missing = max(0, min_vowels - self.vowels) + max(0, min_consonants - self.consonants)
        return max(0, missing - self.jokers)

    def best_shortfall(self, size: int, min_vowels: int, min_consonants: int) -> int:
        """The smallest shortfall of any group of `size` letters drawn from these letters."""
        best = min_vowels + min_consonants
        for v in range(min(self.vowels, size) + 1):
            for c in range(min(self.consonants, size - v) + 1):
                j = min(self.jokers, size - v - c)
                best = min(best, Composition(v, c, j).shortfall(min_vowels, min_consonants))
        return best


class DrawProblem(Enum):
    """Why the arbiter gives up a group (D 5.3.2 asks that the reason be announced):
    (article, Romanian, English)."""

    FEW_VOWELS = ("D 5.3.1", "prea puține vocale", "too few vowels")
    FEW_CONSONANTS = ("D 5.3.1", "prea puține consoane", "too few consonants")
    FEW_VOWELS_AND_CONSONANTS = ("D 5.3.1", "prea puține vocale și consoane", "too few vowels and consonants")
    NO_VOWEL_LEFT = ("D 5.3.1", "numai consoane, și nicio vocală în sac", "only consonants, and no vowel left in the bag")
    NO_CONSONANT_LEFT = ("D 5.3.1", "numai vocale, și nicio consoană în sac", "only vowels, and no consonant left in the bag")

    @property
    def article(self) -> str:
        return self.value[0]

    def message(self, language: str = "en") -> str:
        return self.value[1] if language == "ro" else self.value[2]


def _problem(comp: Composition, min_vowels: int, min_consonants: int) -> DrawProblem:
    short_v = max(0, min_vowels - comp.vowels)
    short_c = max(0, min_consonants - comp.consonants)
    if short_v and short_c:
        return DrawProblem.FEW_VOWELS_AND_CONSONANTS
    return DrawProblem.FEW_VOWELS if short_v else DrawProblem.FEW_CONSONANTS


def letter_order(tiles: TileSet) -> dict[str, int]:
    """Rank of each letter for sorting: the tile set's order, the joker last."""
    order = {letter: i for i, letter in enumerate(tiles.alphabet)}
    order[JOKER] = len(order)
    return order


def sort_letters(letters: Iterable[str], tiles: TileSet) -> list[str]:
    """Alphabetical, as the group is announced (D 5.3.2), the joker last."""
    order = letter_order(tiles)
    return sorted(letters, key=lambda letter: order.get(letter, len(order)))


class Bag:
    """The letters still in the bag. Not the group: the group is held apart while a round is
    played, and `stock` (bag + group) is what D 5.3.1 and D 5.3.8 look at."""

    def __init__(self, tiles: TileSet, counts: Mapping[str, int] | None = None) -> None:
        self.tiles = tiles
        self._counts: Counter[str] = Counter({k: v for k, v in (counts or {}).items() if v > 0})

    @classmethod
    def full(cls, tiles: TileSet) -> "Bag":
        """Every tile of the set (RULES.md §1: 100 tiles for Romanian)."""
        counts = dict(tiles.counts)
        if tiles.jokers:
            counts[JOKER] = tiles.jokers
        return cls(tiles, counts)

    def __len__(self) -> int:
        return sum(self._counts.values())

    def counts(self) -> Counter[str]:
        return Counter(self._counts)

    def letters(self) -> list[str]:
        """The bag's content in a fixed order (so that draws depend on the seed only)."""
        return [letter for letter in sort_letters(self._counts, self.tiles) for _ in range(self._counts[letter])]

    def composition(self) -> Composition:
        return Composition.of(self.letters(), self.tiles)

    def draw(self, n: int, rng: random.Random) -> list[str]:
        """Draw up to `n` letters at random (fewer when the bag runs out)."""
        picked = rng.sample(self.letters(), min(n, len(self)))
        self.take(picked)
        return picked

    def take(self, letters: Iterable[str]) -> None:
        """Remove letters chosen from the stock (completiv, super joker, metagramă swaps)."""
        wanted = Counter(letters)
        missing = wanted - self._counts
        if missing:
            raise GameError(f"letters {''.join(sorted(missing.elements()))} are not in the bag")
        self._counts -= wanted

    def put_back(self, letters: Iterable[str]) -> None:
        self._counts.update(letters)


# A judge says whether a group (and the bag left after drawing it) satisfies D 5.3.1.
GroupJudge = Callable[[Sequence[str], Bag], "DrawProblem | None"]


@dataclass(frozen=True)
class DrawRule:
    """The D 5.3.1 clause that judges one round's group.

    kind: "standard" (groups of 7 or more: min_vowels/min_consonants), "short" (groups of fewer
    than 7 after the early rounds: a one-kind draw needs the other kind left in the bag) or
    "minimum" (the minimum alone). short_stock: "closest" or "any", the D 5.3.1 exception.
    """

    min_vowels: int
    min_consonants: int
    short_stock: str = "closest"
    kind: str = "standard"

    def judge(self, tiles: TileSet, size: int) -> GroupJudge:
        def check(group: Sequence[str], bag: Bag) -> DrawProblem | None:
            comp = Composition.of(group, tiles)
            if self.kind == "short":
                return _short_late_problem(comp, bag.composition())
            need = comp.shortfall(self.min_vowels, self.min_consonants)
            if need == 0:
                return None
            stock = Composition.of(list(group) + bag.letters(), tiles)
            reachable = stock.best_shortfall(min(size, stock.size), self.min_vowels, self.min_consonants)
            if reachable > 0 and (self.short_stock == "any" or need <= reachable):
                return None  # the exception of D 5.3.1: the stock cannot do better
            return _problem(comp, self.min_vowels, self.min_consonants)

        return check


def _short_late_problem(group: Composition, rest: Composition) -> DrawProblem | None:
    """D 5.3.1, short groups after the early rounds: an all-consonant draw needs a vowel left
    in the bag (an all-vowel draw, a consonant), a joker counting as either."""
    if group.jokers or (group.vowels and group.consonants):
        return None
    if not group.vowels and not (rest.vowels or rest.jokers):
        return DrawProblem.NO_VOWEL_LEFT
    if not group.consonants and not (rest.consonants or rest.jokers):
        return DrawProblem.NO_CONSONANT_LEFT
    return None


@dataclass(frozen=True)
class RejectedDraw:
    """A group the arbiter gave up, with the reason announced (D 5.3.2)."""

    kept: tuple[str, ...]
    drawn: tuple[str, ...]
    problem: DrawProblem


@dataclass(frozen=True)
class Draw:
    """The group of one round: the letters kept from the last round and those drawn now."""

    kept: tuple[str, ...]
    drawn: tuple[str, ...]
    rejected: tuple[RejectedDraw, ...] = ()

    @property
    def group(self) -> tuple[str, ...]:
        return self.kept + self.drawn


def group_label(kept: Sequence[str], drawn: Sequence[str], tiles: TileSet) -> str:
    """`AEI+RSTU`: kept letters, `+`, drawn letters, each part alphabetical (D 5.3.2);
    a group of new letters only has no `+`."""
    new = "".join(sort_letters(drawn, tiles))
    if not kept:
        return new
    return "".join(sort_letters(kept, tiles)) + "+" + new


def draw_group(bag: Bag, kept: Sequence[str], size: int, judge: GroupJudge, rng: random.Random,
               max_redraws: int = 10000) -> Draw:
    """Refill the group to `size` (D 5.3.1); if it fails the judge, return the kept letters and
    the drawn ones to the bag and draw a whole new group, until one passes (D 5.3.2)."""
    rejected: list[RejectedDraw] = []
    kept = tuple(kept)
    for _ in range(max_redraws):
        drawn = tuple(bag.draw(size - len(kept), rng))
        problem = judge(kept + drawn, bag)
        if problem is None:
            return Draw(kept, drawn, tuple(rejected))
        rejected.append(RejectedDraw(kept, drawn, problem))
        bag.put_back(kept + drawn)
        kept = ()
    raise GameError(f"no acceptable group after {max_redraws} draws (bag: {''.join(bag.letters())})")


def stock_can_continue(stock: Iterable[str], tiles: TileSet, min_vowels: int = 1, min_consonants: int = 1) -> bool:
    """D 5.3.8: the game goes on while bag + group can still give a group with one vowel and
    one consonant (jokers counting as whichever is needed, D 5.3.1)."""
    return Composition.of(stock, tiles).shortfall(min_vowels, min_consonants) == 0


def stock_beside(board: Board, tiles: TileSet) -> Counter[str]:
    """The stock when only the board is known: every tile of the set that is not on the board
    (the D 5.3.7 tie-breaks of `fluturas top`, a game log checked on its own)."""
    return Bag.full(tiles).counts() - board.tile_counts()
