"""The round's tops and the continuation move (RULES.md §5; D 5.3.7).

Every move reaching the highest score is a top. The continuation is one top, chosen by the
preference order of D 5.3.7 as listed in `duplicate.toml` ([continuation] order), then by
position and word so the choice is reproducible. Tops come from the move generator of
`corrector.words.movegen`; each one is re-placed with `placement.place_move`, the one scorer.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from corrector.game.bag import Composition, stock_can_continue
from corrector.board import Board
from corrector.errors import GameError
from corrector.placement import Move, Placement, place_move
from corrector.rulepack import RulePack
from corrector.tiles import JOKER, Tile
from corrector.game.variants import ContinuationRules, EndRules, RackUse, Variant, rack_options, use_rack

# top_moves(board, rack, pack, lexicon) -> every move with the highest score (objects with a
# `.move` Move, as `corrector.words.movegen.Play`, or Moves).
TopFunction = Callable[[Board, Sequence[str], RulePack, Any], Sequence[Any]]


@dataclass(frozen=True)
class Candidate:
    """A top: the placed move and where its tiles come from."""

    placement: Placement
    use: RackUse

    @property
    def move(self) -> Move:
        return self.placement.move

    @property
    def score(self) -> int:
        return self.placement.score

    @property
    def played(self) -> tuple[Tile, ...]:
        return tuple(tile for _, _, tile in self.placement.new_tiles)

    @property
    def uses_joker(self) -> bool:
        return any(tile.joker for tile in self.played)

    @property
    def deposit(self) -> frozenset[tuple[int, int, Tile]]:
        """The tiles laid down: two slips naming the same deposit (a single tile read across
        or down) are the same move."""
        return frozenset(self.placement.new_tiles)

    def __str__(self) -> str:
        return f"{self.move.position.frs()} {self.move.word} {self.score}"


def _as_move(found: Any) -> Move:
    return found if isinstance(found, Move) else found.move


def _natural(candidate: Candidate) -> tuple:
    """Of the slips naming one deposit, list the longest main word (across first)."""
    pos = candidate.move.position
    return (-len(candidate.move.tiles), not pos.horizontal, pos.row, pos.col)


def find_tops(board: Board, group: Sequence[str], stock: Mapping[str, int], variant: Variant, pack: RulePack,
              lexicon: Any, top_fn: TopFunction) -> list[Candidate]:
    """Every top of the round: the best score over every rack the variant allows (D 8: for
    completiv and super joker, over every choice from the stock), one entry per deposit."""
    best = -1
    moves: list[Move] = []
    for option in rack_options(variant, group, stock):
        found = top_fn(board, list(option.rack), pack, lexicon)
        if not found:
            continue
        first = place_move(board, _as_move(found[0]), pack)
        if not isinstance(first, Placement):
            raise GameError(f"the move generator's top {_as_move(found[0])} is not legal: {first}")
        score = first.score
        if score > best:
            best, moves = score, []
        if score == best:
            moves.extend(_as_move(f) for f in found)
    by_deposit: dict[frozenset, Candidate] = {}
    for move in dict.fromkeys(moves):
        placed = place_move(board, move, pack)
        if not isinstance(placed, Placement) or placed.score != best:
            raise GameError(f"the move generator's top {move} does not score {best} by the scorer: {placed}")
        use = use_rack(variant, group, stock, (t for _, _, t in placed.new_tiles))
        if not isinstance(use, RackUse):
            raise GameError(f"the move generator's top {move} does not fit the group: {use}")
        candidate = Candidate(placed, use)
        known = by_deposit.get(candidate.deposit)
        if known is None or _natural(candidate) < _natural(known):
            by_deposit[candidate.deposit] = candidate
    return sorted(by_deposit.values(), key=_natural_order)


def _natural_order(candidate: Candidate) -> tuple:
    pos = candidate.move.position
    return (pos.row, pos.col, not pos.horizontal, candidate.move.word)


@dataclass(frozen=True)
class Preference:
    """What D 5.3.7 compares, for one top (smaller key = preferred)."""

    uses_joker: bool
    balance_gap: Fraction
    stock_frequency: Fraction
    tiles: int
    ends_game: bool

    def key(self, order: Sequence[str]) -> tuple:
        values = {
            "no_joker": self.uses_joker,
            "balance": self.balance_gap,
            "stock_frequency": -self.stock_frequency,
            "more_tiles": -self.tiles,
            "continues_game": self.ends_game,
        }
        return tuple(values[name] for name in order)


def vowel_share(pack: RulePack) -> Fraction:
    """The vowel share of the tile set's letters (jokers aside): the balance a stock aims at."""
    counts = pack.tiles.counts
    vowels = sum(n for letter, n in counts.items() if pack.tiles.is_vowel(letter))
    return Fraction(vowels, sum(counts.values()))


def _balance_gap(letters: Counter[str], pack: RulePack) -> Fraction:
    comp = Composition.of(letters.elements(), pack.tiles)
    if comp.vowels + comp.consonants == 0:
        return Fraction(0)
    return abs(Fraction(comp.vowels, comp.vowels + comp.consonants) - vowel_share(pack))


def preference(candidate: Candidate, stock: Counter[str], pack: RulePack, rules: ContinuationRules,
               end: EndRules) -> Preference:
    """D 5.3.7 for one top; `stock` = every letter not on the board before the move (bag + group)."""
    played = Counter(JOKER if t.joker else t.letter for t in candidate.played)
    after = stock - played
    basis = after if rules.balance_basis == "stock" else Counter(candidate.use.leave)
    real = [t.letter for t in candidate.played if not t.joker]
    frequency = Fraction(sum(stock[letter] for letter in real), len(real)) if real else Fraction(0)
    return Preference(
        uses_joker=candidate.uses_joker,
        balance_gap=_balance_gap(basis, pack),
        stock_frequency=frequency,
        tiles=len(candidate.played),
        ends_game=not stock_can_continue(after.elements(), pack.tiles, end.min_vowels, end.min_consonants),
    )


def rank_tops(tops: Sequence[Candidate], stock: Counter[str], pack: RulePack, rules: ContinuationRules,
              end: EndRules) -> list[Candidate]:
    """The tops in D 5.3.7 preference order: the first is the continuation."""
    return sorted(tops, key=lambda c: (preference(c, stock, pack, rules, end).key(rules.order), _natural_order(c)))
