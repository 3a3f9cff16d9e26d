"""The technical penalty of anticipation (RULES.md §3, A 6.3): −20 per penalty, but never more
than the move's score plus the scores of the later moves built on it. "Built on" is read from the
tiles: a later move is built on a move when one of the words it forms covers a tile that move
placed (A 6.3: "depunerile ulterioare care se formează cu ajutorul acesteia"). Scores are the
final ones, after cancellations, so a cancelled penalised move costs nothing."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from corrector.placement import Placement
from corrector.rulepack import Sanctions
from corrector.anticipation.outcome import MoveRuling


def word_squares(placement: Placement) -> set[tuple[int, int]]:
    """Every square a move's words cover (new tiles and board tiles played through)."""
    return {word.start.square(i) for word in placement.words for i in range(len(word.tiles))}


def built_on(move: MoveRuling, later: Sequence[MoveRuling]) -> list[MoveRuling]:
    """The later moves whose words use a tile `move` placed."""
    if move.placement is None:
        return []
    own = {(r, c) for r, c, _ in move.placement.new_tiles}
    return [m for m in later if m.placement is not None and own & word_squares(m.placement)]


def apply_penalty_caps(moves: Sequence[MoveRuling], sanctions: Sanctions) -> None:
    """Set `penalty_points`, `penalty_cap` and `built_on_by` of every move (in play order)."""
    for i, move in enumerate(moves):
        users = built_on(move, moves[i + 1:])
        move.built_on_by = tuple((m.round, m.slot) for m in users)
        if move.decision.penalty is None:
            move.penalty_points, move.penalty_cap = 0, None
            continue
        cap = move.score + sum(m.score for m in users)
        move.penalty_cap = cap
        move.penalty_points = min(sanctions.technical_penalty, cap)
        # What the move brings after its penalty; below 0 when the cap reaches later moves.
        move.decision = replace(move.decision, credited=move.score - move.penalty_points)
