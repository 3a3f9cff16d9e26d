"""Tactic slips (RULES.md §6, D 8.6): two moves a round, one from each group in either order,
both on one slip with each move's score and the round total; a wrong or missing score is a
warning, and the one-warning-per-slip cap of D 6.2 holds unless the pack's
`one_warning_per_slip_multi_move` policy is switched off. The round total is checked whatever
the rulings of the moves (RULES.md §6 **Decision**)."""
from __future__ import annotations

from dataclasses import replace

from corrector.judging.decision import _WARNING_ORDER, Decision, RoundContext, decide_move
from corrector.placement import Placement, apply_placement, place_move
from corrector.reasons import Reason, Violation
from corrector.judging.rulings import Status, WarningKind
from corrector.judging.slip import Slip, WrittenMove


def _decide_order(moves: tuple[WrittenMove, ...], first: RoundContext, second: RoundContext) -> tuple[Decision, Decision]:
    """The second move is judged on the board after the first when the first is legal."""
    one = decide_move(moves[0], first)
    board = first.board.copy()
    if one.legal:
        apply_placement(board, _placement(one, first))
    ctx = RoundContext(second.pack, board, second.group, second.lexicon, second.youth)
    two = decide_move(moves[1], ctx) if len(moves) > 1 else Decision(Status.INCORRECT, violation=Violation(Reason.WORD_MISSING))
    return one, two


def _placement(decision: Decision, ctx: RoundContext) -> Placement:
    assert decision.move is not None
    placed = place_move(ctx.board, decision.move, ctx.pack)
    assert isinstance(placed, Placement)  # the move was ruled legal on this board
    return placed


def total_adds_up(slip: Slip, parts: tuple[Decision, ...]) -> bool:
    """RULES.md §6 **Decision** (D 8.6, "greșeala de calcul sau omisiunea" of the round total):
    the total is right when it equals the sum of the scores written on the slip (the player's own
    addition) or the points the round credits; checked whatever the rulings of the moves, also
    when a move is incorrect or only one move is written. A missing total is always wrong."""
    if slip.total is None:
        return False
    written = [m.score for m in slip.moves if m.score is not None]
    return (bool(written) and slip.total == sum(written)) or slip.total == sum(p.credited for p in parts)


def decide_tactic(slip: Slip, group_a: RoundContext, group_b: RoundContext) -> Decision:
    """Try both orders of the groups; keep the one with more legal moves, then more points."""
    orders = [_decide_order(slip.moves, group_a, group_b), _decide_order(slip.moves, group_b, group_a)]
    one, two = max(orders, key=lambda pair: (sum(d.legal for d in pair), sum(d.credited for d in pair), -orders.index(pair)))
    parts = (one, two)
    found: list[WarningKind] = [w for p in parts for w in p.all_warnings() + p.waived]
    if slip.round == 1 and not slip.back_ok:
        found.append(WarningKind.BACK_DETAILS)
    if not (slip.table_written and slip.round_written):
        found.append(WarningKind.TABLE_OR_ROUND_MISSING)
    for part, written in zip(parts, slip.moves):
        if part.legal and written.score != part.score:
            found.append(WarningKind.SCORE_WRONG)
    score = sum(p.score for p in parts)
    if not total_adds_up(slip, parts):
        found.append(WarningKind.SCORE_WRONG)
    ordered = sorted(found, key=_WARNING_ORDER.index)
    parts = tuple(replace(p, warning=None, waived=()) for p in parts)
    status = Status.INCORRECT if not any(p.legal for p in parts) else (
        Status.PENALISED if any(p.penalty for p in parts) else Status.VALID)
    decision = Decision(status, score, sum(p.credited for p in parts), parts=parts)
    if not ordered:
        return decision
    pack = group_a.pack
    if status is Status.INCORRECT or score <= pack.sanctions.warning_exempt_max_score:
        return replace(decision, waived=tuple(ordered))
    if pack.policies.one_warning_per_slip_multi_move:
        return replace(decision, warning=ordered[0], waived=tuple(ordered[1:]))
    return replace(decision, warning=ordered[0], more_warnings=tuple(ordered[1:]))
