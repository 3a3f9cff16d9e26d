"""The cost of sanctions over a whole game (RULES.md §3–4, D 6.2–6.4): warnings counted in round
order (1–3 free, −5 from the 4th), the technical penalty capped at the move, disciplinary
warnings deducted at the end (the second eliminates). The numbers come from the rule pack."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from corrector.rulepack import Sanctions
from corrector.judging.rulings import WarningKind


@dataclass(frozen=True)
class WarningCharge:
    """One technical warning of a player: its rank in the game and what it costs."""

    round: int
    kind: WarningKind
    ordinal: int
    cost: int


def penalised(score: int, sanctions: Sanctions) -> int:
    """D 6.3: −20 from the move's score, but never more than the move is worth."""
    return max(0, score - sanctions.technical_penalty)


def charge_warnings(warnings: Iterable[tuple[int, WarningKind]], sanctions: Sanctions) -> list[WarningCharge]:
    """D 6.2: the first `free_warnings` cost nothing, every later one `warning_cost`, counted in
    round order (a tactic slip may carry more than one; they keep their order on the slip)."""
    ordered = sorted(enumerate(warnings), key=lambda item: (item[1][0], item[0]))
    return [
        WarningCharge(round_no, kind, n, sanctions.warning_cost if n > sanctions.free_warnings else 0)
        for n, (_, (round_no, kind)) in enumerate(ordered, start=1)
    ]


@dataclass(frozen=True)
class DisciplinaryOutcome:
    """D 6.4: rounds of the disciplinary warnings, the points deducted at the end, and the round
    in which the player was eliminated (correction stops after it), if any."""

    rounds: tuple[int, ...]
    deduction: int
    eliminated_in: int | None


def disciplinary(rounds: Iterable[int], sanctions: Sanctions, cheating: int | None = None) -> DisciplinaryOutcome:
    """`cheating`: the round a player was caught cheating, eliminated at once (D 7.1.3)."""
    ordered = tuple(sorted(rounds))
    limit = sanctions.disciplinary_eliminates_at
    eliminated = ordered[limit - 1] if len(ordered) >= limit else None
    if cheating is not None:
        eliminated = cheating if eliminated is None else min(eliminated, cheating)
    counted = tuple(r for r in ordered if eliminated is None or r <= eliminated)[:limit]
    return DisciplinaryOutcome(counted, sanctions.disciplinary_deduction * len(counted), eliminated)


def top_deduction(warnings: int, penalties: int, disciplinary_count: int) -> int:
    """D 8.4 (RULES.md §6, top): 4 warnings = −1 top, 7 = −2, 10 = −3 …; −1 top per technical
    penalty; −1 top for the first disciplinary warning (the second excludes the player)."""
    from_warnings = (warnings - 1) // 3 if warnings >= 4 else 0
    return from_warnings + penalties + min(disciplinary_count, 1)
