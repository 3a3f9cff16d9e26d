"""What judging a game gives: each round's decisions and top, and the game's standings. Its own
module so that the judge, the appeals and the standings all use it without importing each other."""
from __future__ import annotations

from dataclasses import dataclass, field

from corrector.judging.case import Case
from corrector.judging.decision import Decision, RoundContext
from corrector.judging.ranking import TopRecord
from corrector.judging.sanctions import DisciplinaryOutcome, WarningCharge


@dataclass(frozen=True)
class Standing:
    table: int
    name: str
    moves: int
    warnings: tuple[WarningCharge, ...]
    penalties: int
    solos: tuple[int, ...]
    disciplinary: DisciplinaryOutcome
    total: int
    rank: int | None
    percent_of_top: float | None
    top: TopRecord | None = None

    @property
    def eliminated(self) -> bool:
        return self.disciplinary.eliminated_in is not None

    @property
    def warning_cost(self) -> int:
        return sum(w.cost for w in self.warnings)


@dataclass
class RoundResult:
    number: int
    racks: tuple[str, ...]
    top: int
    continuation: tuple[str, ...]
    decisions: dict[int, Decision]
    contexts: tuple[RoundContext, ...] = ()
    solo: int | None = None
    appeals: dict[int, list] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    case: Case
    rounds: tuple[RoundResult, ...]
    tables: dict[int, Standing]

    @property
    def top_total(self) -> int:
        return sum(r.top for r in self.rounds)
