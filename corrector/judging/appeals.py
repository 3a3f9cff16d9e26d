"""Appeals (contestații, RULES.md §4, D 6.5, D 5.3.7): rulings changed after the game, each
keeping who, when and why. Actions: `set_score` (the arbiter fixes the points of the move),
`cancel_warning`, `cancel_penalty`, `reread` (the slip says something else than was read: it is
decided again), `repeat_average` (a repeated incorrect move gets the round's average score, no
more than the incorrect move would have scored)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from corrector.judging.decision import Decision, decide_slip
from corrector.errors import CaseError
from corrector.judging.rulings import Flag, Status
from corrector.judging.tactic import decide_tactic

if TYPE_CHECKING:
    from corrector.judging.case import Appeal, Case
    from corrector.judging.result import RoundResult


def round_average(rnd: "RoundResult") -> int:
    """Mean credited points of the players corrected in the round (a missing slip counts 0),
    rounded down: points are whole."""
    scores = [d.credited for d in rnd.decisions.values() if d.status is not Status.NOT_CORRECTED]
    return sum(scores) // len(scores) if scores else 0


def _apply(appeal: "Appeal", decision: Decision, rnd: "RoundResult", average: int, variant: str) -> Decision:
    if appeal.action == "set_score":
        status = Status.VALID if not decision.legal else decision.status
        before = f"{decision.status.name} {decision.credited}: {decision.explain('en')}"
        return replace(decision, status=status, score=appeal.score, credited=appeal.score, violation=None,
                       notes=decision.notes + (f"score set to {appeal.score} (was {before})",))
    if appeal.action == "cancel_warning":
        cancelled = ", ".join(w.name for w in decision.all_warnings()) or "none"
        return replace(decision, warning=None, more_warnings=(), notes=decision.notes + (f"warning cancelled: {cancelled}",))
    if appeal.action == "cancel_penalty":
        note = f"penalty cancelled: {', '.join(p.name for p in decision.all_penalties()) or 'none'}"
        decision = replace(decision, notes=decision.notes + (note,))
        return replace(decision, penalty=None, credited=decision.score,
                       status=Status.VALID if decision.status is Status.PENALISED else decision.status,
                       parts=tuple(replace(p, penalty=None, credited=p.score) for p in decision.parts))
    if appeal.action == "reread":
        assert appeal.slip is not None
        if variant == "tactic":
            return decide_tactic(appeal.slip, rnd.contexts[0], rnd.contexts[1])
        return decide_slip(appeal.slip, rnd.contexts[0])
    # repeat_average (D 5.3.7)
    cap = appeal.cap if appeal.cap is not None else (decision.geometric_score or 0)
    points = min(average, cap)
    return replace(decision, status=Status.AVERAGED, score=points, credited=points,
                   notes=decision.notes + (f"avg {average}, cap {cap}",))


def apply_appeals(case: "Case", rounds: list["RoundResult"], stopped: dict[int, int]) -> None:
    """Appeals in file order; averages are those of the rounds before any appeal."""
    averages = {rnd.number: round_average(rnd) for rnd in rounds}
    for i, appeal in enumerate(case.appeals):
        where = f"{case.source}: appeals[{i}] (table {appeal.table}, round {appeal.round})"
        if appeal.table in stopped and appeal.round > stopped[appeal.table]:
            raise CaseError(f"{where}: key 'round': the player was eliminated in round {stopped[appeal.table]}")
        rnd = rounds[appeal.round - 1]
        before = rnd.decisions[appeal.table]
        if appeal.action == "repeat_average" and before.status is not Status.INCORRECT:
            raise CaseError(f"{where}: key 'action': repeat_average applies to an incorrect move, this one is {before.status.name}")
        after = _apply(appeal, before, rnd, averages[appeal.round], case.variant)
        note = f"appeal {appeal.action} by {appeal.by}{' at ' + appeal.at if appeal.at else ''}: {appeal.reason}"
        rnd.decisions[appeal.table] = replace(after, flags=after.flags + (Flag.APPEAL_APPLIED,), notes=after.notes + (note,))
        rnd.appeals.setdefault(appeal.table, []).append(appeal)
