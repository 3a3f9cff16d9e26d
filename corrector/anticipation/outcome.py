"""What the correction of one player's anticipation game says: each move's ruling and what later
cancellations did to it, each round's warning, and the player's totals (RULES.md §7, A 5.3, A 6).
Rulings are values with stable names (docs/architecture.md, house rules); JSON keys are snake_case, enums by name."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from corrector.judging.decision import Decision
from corrector.placement import Placement
from corrector.reasons import Violation
from corrector.judging.rulings import WarningKind
from corrector.judging.sanctions import DisciplinaryOutcome, WarningCharge
from corrector.anticipation.verification import VerificationAnswer


class Outcome(Enum):
    """What "Anulez turul X" did to a move (A 5.3): (article, Romanian, English)."""

    WITHDRAWN = ("A 5.3", "depunere anulată de jucător", "move cancelled by the player")
    KEPT = ("A 5.3", "depunere păstrată după anulare", "move kept after the cancellation")
    RESCORED = ("A 5.3", "depunere recalculată după anulare", "move rescored after the cancellation")
    CANCELLED = ("A 5.3", "depunere anulată: nu mai este legală", "move cancelled: no longer legal")

    @property
    def article(self) -> str:
        return self.value[0]

    def message(self, language: str = "en") -> str:
        return self.value[1] if language == "ro" else self.value[2]


@dataclass(frozen=True)
class Revision:
    """One change to a move caused by the cancellation written on the slip of `at_round`."""

    at_round: int
    cancelled_round: int
    outcome: Outcome
    old_score: int
    new_score: int
    violation: Violation | None = None
    words_gone: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"at_round": self.at_round, "cancelled_round": self.cancelled_round, "outcome": self.outcome.name,
                "old_score": self.old_score, "new_score": self.new_score,
                "reason": self.violation.reason.name if self.violation else None,
                "detail": self.violation.detail if self.violation else "", "words_gone": list(self.words_gone),
                "article": self.outcome.article}


@dataclass
class MoveRuling:
    """A move of a slip: the ruling when it was played (`decision`, the judge's §3 logic) and
    its current state after cancellations. `placement` is None when the move is incorrect or no
    longer on the board; `penalty_points` is the A 6.3 deduction after the cap."""

    round: int
    slot: int
    group: int
    decision: Decision
    placement: Placement | None
    revisions: list[Revision] = field(default_factory=list)
    penalty_points: int = 0
    penalty_cap: int | None = None
    built_on_by: tuple[tuple[int, int], ...] = ()  # (round, slot) of later moves built on it

    @property
    def score(self) -> int:
        return self.placement.score if self.placement is not None else 0

    def to_json(self) -> dict[str, Any]:
        d = self.decision
        return {
            "round": self.round, "slot": self.slot, "group": self.group, "status": d.status.name,
            "move": str(d.move) if d.move else None, "written": d.written,
            "played_score": d.score, "score": self.score,
            "penalty": d.penalty.name if d.penalty else None, "penalty_points": self.penalty_points,
            "penalty_cap": self.penalty_cap, "built_on_by": [list(x) for x in self.built_on_by],
            "reason": d.violation.reason.name if d.violation else None,
            "detail": d.violation.detail if d.violation else "",
            "flags": sorted(f.name for f in d.flags), "revisions": [r.to_json() for r in self.revisions],
            "explain": d.explain("en"),
        }


@dataclass(frozen=True)
class CancellationRequest:
    """ "Anulez turul X" as ruled: applied, or refused with the reason."""

    cancelled_round: int
    applied: bool
    note: str = ""


class RoundStatus(Enum):
    PLAYED = "played"
    MISSING = "missing"  # RULES.md §4: a missing slip scores 0
    PASSED = "passed"  # A 8.3: "PAS"
    DROPPED_OUT = "dropped_out"  # A 8.2: no bingo this round
    NOT_CORRECTED = "not_corrected"  # A 6.4: eliminated, or dropped out earlier


@dataclass
class RoundRuling:
    round: int
    groups: tuple[int, ...]
    status: RoundStatus
    moves: list[MoveRuling] = field(default_factory=list)
    warnings: tuple[WarningKind, ...] = ()  # counted (one per slip unless the policy says otherwise)
    waived: tuple[WarningKind, ...] = ()  # found but not counted (one per slip, A 6.2)
    declared_total: int | None = None
    cancellation: CancellationRequest | None = None
    verification: VerificationAnswer | None = None
    appeals: tuple[str, ...] = ()  # A 6.5 actions upheld on this round (cancel_warning, cancel_penalty)

    @property
    def score(self) -> int:
        return sum(m.score for m in self.moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "groups": list(self.groups), "status": self.status.value,
            "moves": [m.to_json() for m in self.moves], "score": self.score,
            "declared_total": self.declared_total,
            "warnings": [w.name for w in self.warnings], "waived": [w.name for w in self.waived],
            "cancellation": None if self.cancellation is None else {
                "round": self.cancellation.cancelled_round, "applied": self.cancellation.applied,
                "note": self.cancellation.note},
            "verification": None if self.verification is None else self.verification.to_json(),
            "appeals": list(self.appeals),
        }


@dataclass
class PlayerResult:
    """A player's corrected game: rounds, the sanctions counted over the game, the total (A 6.4:
    penalties and warnings from the 4th, then the disciplinary deduction) and the place."""

    table: int
    name: str
    rounds: list[RoundRuling]
    warning_charges: list[WarningCharge] = field(default_factory=list)
    disciplinary: DisciplinaryOutcome | None = None
    dropped_out_in: int | None = None
    rank: int | None = None
    ranking_points: int | None = None
    vowel_stock_left: dict[str, int] | None = None  # avocalic (A 8.1): this player's own stock

    @property
    def moves(self) -> list[MoveRuling]:
        return [m for r in self.rounds for m in r.moves]

    @property
    def moves_total(self) -> int:
        return sum(m.score for m in self.moves)

    @property
    def penalty_total(self) -> int:
        return sum(m.penalty_points for m in self.moves)

    @property
    def warning_cost(self) -> int:
        return sum(c.cost for c in self.warning_charges)

    @property
    def eliminated(self) -> bool:
        return self.disciplinary is not None and self.disciplinary.eliminated_in is not None

    @property
    def total(self) -> int:
        deduction = self.disciplinary.deduction if self.disciplinary else 0
        return self.moves_total - self.penalty_total - self.warning_cost - deduction

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table, "name": self.name, "rounds": [r.to_json() for r in self.rounds],
            "moves_total": self.moves_total, "penalty_total": self.penalty_total,
            "warnings": [{"round": c.round, "kind": c.kind.name, "ordinal": c.ordinal, "cost": c.cost}
                         for c in self.warning_charges],
            "warning_cost": self.warning_cost,
            "disciplinary_deduction": self.disciplinary.deduction if self.disciplinary else 0,
            "eliminated_in": self.disciplinary.eliminated_in if self.disciplinary else None,
            "dropped_out_in": self.dropped_out_in, "total": self.total,
            "ranking_points": self.ranking_points, "rank": self.rank,
            "vowel_stock_left": self.vowel_stock_left,
        }
