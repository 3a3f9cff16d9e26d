"""One reading of a slip at one position: geometry (the one scorer, `placement`), the group of
letters, the word list, then where the jokers stand (RULES.md §3 warning c and its **Decision**,
and the marked-without-joker **Decision**). Layers as the house rules ask (docs/architecture.md):
geometry first, then the group, then the word list; the result is a value, never an exception."""
from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import combinations

from corrector.board import Board
from corrector.coords import Position
from corrector.judging.group import Group
from corrector.placement import Move, Placement, place_move
from corrector.reasons import Reason, Violation
from corrector.rulepack import RulePack
from corrector.judging.rulings import Flag, WarningKind
from corrector.tiles import Tile


@dataclass(frozen=True)
class Attempt:
    """The outcome of a reading at a position. `placement` is set when the move is legal;
    `geometric_score` is the score of the move as written whenever it can be laid on the board
    (the cap of D 5.3.7 for a repeated incorrect move)."""

    position: Position
    placement: Placement | None
    violation: Violation | None = None
    joker_warning: WarningKind | None = None
    flags: tuple[Flag, ...] = ()
    geometric_score: int | None = None

    @property
    def legal(self) -> bool:
        return self.placement is not None

    @property
    def score(self) -> int:
        return self.placement.score if self.placement else 0


def choose_by_score(options: Sequence[tuple[int, object]], declared: int | None, policy: str) -> tuple[object, Flag]:
    """The **Decision** of RULES.md §3 (one wrong sign, unmarked joker): the option whose score
    equals the declared score, otherwise the lowest-scoring one; `policy="lowest"` always takes
    the lowest. `options` come in a stable order; the first of equal options wins."""
    if policy == "declared_then_lowest" and declared is not None:
        for score, option in options:
            if score == declared:
                return option, Flag.DECLARED_SCORE_CHOSE
    lowest = min(options, key=lambda pair: pair[0])
    return lowest[1], Flag.LOWEST_SCORE_CHOSE


def _offset(position: Position, row: int, col: int) -> int:
    return col - position.col if position.horizontal else row - position.row


def _with_jokers(tiles: tuple[Tile, ...], new_offsets: Sequence[int], jokers: frozenset[int]) -> tuple[Tile, ...]:
    out = list(tiles)
    for i in new_offsets:
        out[i] = Tile(tiles[i].letter, i in jokers)
    return tuple(out)


def try_reading(board: Board, position: Position, tiles: tuple[Tile, ...], declared: int | None,
                group: Group, lexicon: Container[str], pack: RulePack) -> Attempt:
    """Judge the written tiles at `position`: legal or the first violation found."""
    placed = place_move(board, Move(position, tiles), pack)
    if isinstance(placed, Violation):
        return Attempt(position, None, placed)
    geometric = placed.score
    new = [(_offset(position, r, c), tile) for r, c, tile in placed.new_tiles]
    if len(new) > group.max_tiles:
        detail = f"{len(new)} > {group.max_tiles}"
        return Attempt(position, None, Violation(Reason.TOO_MANY_TILES, detail), geometric_score=geometric)
    offsets = [i for i, _ in new]
    letters = {i: tile.letter for i, tile in new}
    marked = frozenset(i for i, tile in new if tile.joker)
    max_jokers = group.max_jokers()
    fitting = [
        frozenset(subset)
        for k in range(min(max_jokers, len(offsets)) + 1)
        for subset in combinations(offsets, k)
        if group.fits(Tile(letters[i], i in subset) for i in offsets)
    ]
    if not fitting:
        missing = group.use(tile for _, tile in new)
        violation = missing if isinstance(missing, Violation) else Violation(Reason.LETTERS_NOT_IN_GROUP, "?")
        return Attempt(position, None, violation, geometric_score=geometric)
    for word in placed.words:  # RULES.md §3.4: the main word and every adjacent word (D 6.1.a)
        if word.text not in lexicon:
            return Attempt(position, None, Violation(Reason.WORD_NOT_IN_LIST, word.text), geometric_score=geometric)

    def distance(jokers: frozenset[int]) -> tuple[int, int]:
        return len(marked - jokers), len(jokers - marked)

    best = min(distance(s) for s in fitting)
    candidates = sorted((s for s in fitting if distance(s) == best), key=sorted)
    dropped, added = best
    warning: WarningKind | None = None
    if dropped:
        if len(marked) > max_jokers:  # marked letters the group has no joker for (RULES.md §3 Decision)
            if pack.policies.joker_mark_without_joker == "incorrect":
                detail = "".join(letters[i] for i in sorted(marked))
                return Attempt(position, None, Violation(Reason.JOKER_NOT_IN_GROUP, detail), geometric_score=geometric)
            warning = WarningKind.JOKER_MARKED_WITHOUT_JOKER
        else:
            warning = WarningKind.JOKER_NOT_MARKED
    elif added:
        warning = WarningKind.JOKER_NOT_MARKED
    scored: list[tuple[int, object]] = []
    for jokers in candidates:
        result = place_move(board, Move(position, _with_jokers(tiles, offsets, jokers)), pack)
        assert isinstance(result, Placement)  # same squares, same letters: geometry cannot change
        scored.append((result.score, result))
    flags: tuple[Flag, ...] = ()
    if len(scored) > 1:  # RULES.md §3 warning c Decision: declared score, else lowest; flag it
        chosen, how = choose_by_score(scored, declared, pack.policies.unmarked_joker_choice)
        differ = len({score for score, _ in scored}) > 1
        flags = (Flag.JOKER_AMBIGUOUS, how) if differ else (Flag.JOKER_AMBIGUOUS,)
    else:
        chosen = scored[0][1]
    assert isinstance(chosen, Placement)
    return Attempt(position, chosen, None, warning, flags, geometric)
