"""The exact top of a tactic round (RULES.md §6; D 8.6): two groups, one move from each, in either
order, the second on the board the first leaves; the top is the highest sum of the two moves, and
every pair reaching it is an equal top.

The search is exact, for each order: every first move of the first group (one per deposit, from the
compiled all-moves generator, ~0.2 ms a position), and for each one the best second move of the
other group on the board after it. A bound prunes that second search: the first move changes only
the lines it touches, the other lines keep the best they have on the round's board (one search a
round), so the generator runs again on the touched lines alone, for their best score only
(`_SecondScores`). The moves themselves are built only for the pairs that reach the top. When no pair exists (the second group has no move
after any first), the top is the best single move (the player may play only one, D 8.6).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from corrector.board import Board
from corrector.errors import GameError
from corrector.game.bag import stock_can_continue
from corrector.game.continuation import Candidate, Preference, _balance_gap, _natural_order
from corrector.game.variants import ContinuationRules, EndRules, RackUse, Variant, use_rack
from corrector.placement import Placement, apply_placement, place_move
from corrector.rulepack import RulePack
from corrector.tiles import JOKER, Tile


@dataclass(frozen=True)
class TacticTop:
    """One top of a tactic round: the moves in the order played, and which group went first
    (0 = the first group drawn). `second` is None when only one move can be played."""

    first: Candidate
    second: Candidate | None
    first_group: int

    @property
    def moves(self) -> tuple[Candidate, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def score(self) -> int:
        return sum(m.score for m in self.moves)

    @property
    def key(self) -> tuple:
        """Two tops are the same when they lay the same tiles in the same order."""
        return tuple(m.deposit for m in self.moves)

    def text(self) -> str:
        """`H4 MODEL; 8D CASA`: the continuation as the judge input and the store write it."""
        return "; ".join(f"{m.move.position.frs()} {m.move.word}" for m in self.moves)

    def __str__(self) -> str:
        return "; ".join(str(m) for m in self.moves) + f" = {self.score}"


def _scores(board: Board, group: Sequence[str], pack: RulePack, lexicon: Any) -> np.ndarray:
    return _records(board, group, pack, lexicon)["score"]


def _candidates(board: Board, group: Sequence[str], variant: Variant, pack: RulePack, lexicon: Any,
                best_only: bool = False) -> list[Candidate]:
    """Every move of the group on the board (or every top), one per deposit, best first."""
    from corrector.words.movegen import generate_moves, top_moves

    plays = (top_moves if best_only else generate_moves)(board, list(group), pack, lexicon)
    seen: dict[frozenset, Candidate] = {}
    for play in plays:
        cand = _placed(board, play, group, variant, pack)
        seen.setdefault(cand.deposit, cand)
    return sorted(seen.values(), key=lambda c: (-c.score, _natural_order(c)))


@dataclass(frozen=True)
class _First:
    """A first move as the generator's record: its score, the tiles it lays, and the record."""

    score: int
    deposit: frozenset
    record: tuple


def _first_moves(board: Board, group: Sequence[str], pack: RulePack, lexicon: Any) -> list[_First]:
    """Every first move, one per deposit (a single tile read across and down is one move), best
    first. Records only: the moves themselves are built for the pairs that reach the top."""
    from corrector.words.movegen import generate_records, sort_records

    alphabet = lexicon.alphabet
    out: dict[frozenset, _First] = {}
    for rec in sort_records(generate_records(board, list(group), pack, lexicon)).tolist():
        score, row, col, horizontal, length, letters, _placed, new_mask, joker_mask = rec
        dr, dc = (0, 1) if horizontal else (1, 0)
        deposit = frozenset((row + dr * i, col + dc * i, alphabet[letters[i]], bool(joker_mask >> i & 1))
                            for i in range(length) if new_mask >> i & 1)
        out.setdefault(deposit, _First(score, deposit, tuple(rec)))
    return list(out.values())


class _SecondScores:
    """The best score of the second group on the board after each first move, exact.

    The bound that prunes the search: a first move changes only the lines it touches (the lines
    through its tiles, and the lines of the empty squares at either end of every word running
    through one of its tiles). A second move on any other line forms the same words, with the
    same score, as on the round's board, so the best of those lines is known from one search
    of the round's board. Only the touched lines are searched again, for their best score alone
    (the compiled generator, nothing written out); the Python twin searches the whole board."""

    def __init__(self, board: Board, group: Sequence[str], pack: RulePack, lexicon: Any) -> None:
        from corrector.rulepack import SIZE
        from corrector.words import movegen

        self.board, self.group, self.pack, self.lexicon, self.size = board, list(group), pack, lexicon, SIZE
        self.compiled = movegen._compiled
        self.args = movegen._arguments(board, self.group, pack, lexicon) if self.compiled is not None else None
        self.index = lexicon.index
        self.occupied = {(r, c) for r, c, _tile in board.tiles()}
        # the best second move per line on the round's board, best first, as (score, is a row,
        # line); on an empty board every second move must touch the first, so no line keeps one
        self.line_tops: list[tuple[int, bool, int]] = []
        if self.args is not None and self.occupied:
            records = _records(board, self.group, pack, lexicon)
            best: dict[tuple[bool, int], int] = {}
            for score, row, col, across in zip(records["score"].tolist(), records["row"].tolist(),
                                               records["col"].tolist(), records["horizontal"].tolist()):
                key = (True, row) if across else (False, col)
                best[key] = max(best.get(key, score), score)
            self.line_tops = sorted(((score, *key) for key, score in best.items()), reverse=True)

    def touched_lines(self, deposit: frozenset) -> tuple[int, int]:
        """The rows and columns (bit masks) where a second move could meet the first move's tiles."""
        squares = {(r, c) for r, c, _letter, _joker in deposit}
        occupied = self.occupied | squares
        rows = cols = 0
        for r, c in squares:
            rows |= 1 << r | _ends(occupied, r, c, 1, 0, self.size)
            cols |= 1 << c | _ends(occupied, r, c, 0, 1, self.size)
        return rows, cols

    def best(self, deposit: frozenset) -> int | None:
        if self.args is None:
            scores = _scores(_board_after(self.board, deposit), self.group, self.pack, self.lexicon)
            return int(scores.max()) if scores.size else None
        rows, cols = self.touched_lines(deposit)
        untouched = next((score for score, is_row, line in self.line_tops
                          if not ((rows if is_row else cols) >> line & 1)), None)
        args = list(self.args)
        cells, jokers = args[5].copy(), args[6].copy()
        for r, c, letter, joker in deposit:
            cells[r * self.size + c] = self.index[letter]
            jokers[r * self.size + c] = joker
        args[5], args[6] = cells, jokers
        touched = self.compiled.best_score(*args, rows, cols)
        return max((s for s in (untouched, touched) if s is not None), default=None)


def _records(board: Board, group: Sequence[str], pack: RulePack, lexicon: Any) -> np.ndarray:
    from corrector.words.movegen import generate_records

    return generate_records(board, list(group), pack, lexicon)


def _ends(occupied: set, r: int, c: int, dr: int, dc: int, size: int) -> int:
    """The empty squares just before and after the run of tiles through (r, c) along (dr, dc),
    as a bit mask of their lines (rows when the run goes down, columns when it goes across)."""
    mask = 0
    for step in (-1, 1):
        i = 1
        while (r + step * i * dr, c + step * i * dc) in occupied:
            i += 1
        end_r, end_c = r + step * i * dr, c + step * i * dc
        if 0 <= end_r < size and 0 <= end_c < size:
            mask |= 1 << (end_r if dr else end_c)
    return mask


def _board_after(board: Board, deposit: frozenset) -> Board:
    after = board.copy()
    for r, c, letter, joker in deposit:
        after[r, c] = Tile(letter, joker)
    return after


def _candidate(board: Board, first: _First, group: Sequence[str], variant: Variant, pack: RulePack,
               lexicon: Any) -> Candidate:
    """The first move as a Candidate, placed by the one scorer (it must agree with the generator)."""
    from corrector.words.movegen import _Materialiser

    return _placed(board, _Materialiser(board, list(group), lexicon).play(*first.record), group, variant, pack)


def _placed(board: Board, play: Any, group: Sequence[str], variant: Variant, pack: RulePack) -> Candidate:
    """A generated move placed by the one scorer; it must agree with the generator and the group."""
    placed = place_move(board, play.move, pack)
    if not isinstance(placed, Placement) or placed.score != play.score:
        raise GameError(f"the move generator's move {play} does not score {play.score} by the scorer: {placed}")
    use = use_rack(variant, group, {}, (t for _, _, t in placed.new_tiles))
    if not isinstance(use, RackUse):
        raise GameError(f"the move generator's move {play} does not fit the group: {use}")
    return Candidate(placed, use)


def find_tactic_tops(board: Board, groups: Sequence[Sequence[str]], variant: Variant, pack: RulePack,
                     lexicon: Any) -> list[TacticTop]:
    """Every top of a tactic round (both orders, every equal pair), in natural order. With one
    group (the other emptied at the end of the game, D 8.6) the round is a classic one."""
    groups = [list(g) for g in groups if g]
    if len(groups) == 1:
        return [TacticTop(c, None, 0) for c in _candidates(board, groups[0], variant, pack, lexicon, best_only=True)]
    if len(groups) != 2:
        raise GameError("a tactic round has two groups (D 8.6)")
    found: list[tuple[int, _First, int]] = []  # (first group, first move, best second score)
    best = -1
    for a, b in ((0, 1), (1, 0)):
        seconds = _SecondScores(board, groups[b], pack, lexicon)
        for first in _first_moves(board, groups[a], pack, lexicon):
            second = seconds.best(first.deposit)
            if second is None:
                continue
            total = first.score + second
            if total >= best:
                best = total
                found.append((a, first, total))
    pairs: list[TacticTop] = []
    for a, first, total in found:
        if total != best:
            continue
        move = _candidate(board, first, groups[a], variant, pack, lexicon)
        after = board.copy()
        apply_placement(after, move.placement)
        for cand in _candidates(after, groups[1 - a], variant, pack, lexicon, best_only=True):
            pairs.append(TacticTop(move, cand, a))
    if not pairs:  # no pair at all: the best single move of either group
        singles = [TacticTop(c, None, i) for i, g in enumerate(groups)
                   for c in _candidates(board, g, variant, pack, lexicon, best_only=True)]
        top = max((t.score for t in singles), default=None)
        pairs = [t for t in singles if t.score == top]
    unique = {t.key: t for t in pairs}
    return sorted(unique.values(), key=lambda t: tuple(_natural_order(m) for m in t.moves))


def tactic_preference(top: TacticTop, stock: Counter[str], pack: RulePack, rules: ContinuationRules,
                      end: EndRules) -> Preference:
    """D 5.3.7 for a pair: the two moves taken together (no joker in either, the balance of the
    stock after both, the stock frequency of all their letters, tiles of both, the game goes on)."""
    played_tiles = [t for m in top.moves for t in m.played]
    played = Counter(JOKER if t.joker else t.letter for t in played_tiles)
    after = stock - played
    leave = Counter(letter for m in top.moves for letter in m.use.leave)
    basis = after if rules.balance_basis == "stock" else leave
    real = [t.letter for t in played_tiles if not t.joker]
    return Preference(
        uses_joker=any(t.joker for t in played_tiles),
        balance_gap=_balance_gap(basis, pack),
        stock_frequency=Fraction(sum(stock[letter] for letter in real), len(real)) if real else Fraction(0),
        tiles=len(played_tiles),
        ends_game=not stock_can_continue(after.elements(), pack.tiles, end.min_vowels, end.min_consonants),
    )


def rank_tactic_tops(tops: Sequence[TacticTop], stock: Mapping[str, int], pack: RulePack, rules: ContinuationRules,
                     end: EndRules) -> list[TacticTop]:
    """The tops in D 5.3.7 preference order (the first is the continuation)."""
    held = Counter(stock)
    return sorted(tops, key=lambda t: (tactic_preference(t, held, pack, rules, end).key(rules.order),
                                       tuple(_natural_order(m) for m in t.moves)))
