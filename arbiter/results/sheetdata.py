"""What every sheet of a game shows, gathered once from the store: the players in ranking order
with their standing and each round's decision (D 6, RULES.md §4). The duplicate workbook, the
anticipation workbook, the CSV and the results page all read this, never the tables directly."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.games import players, rounds
from ..store.models import Decision, Game, Player, Round, Standing, Tournament
from .results import ranking

TAIL = ["Avertismente", "Penalizări", "Disciplinare", "Solo", "Total", "% top", "Loc"]


@dataclass(frozen=True)
class PlayerRow:
    player: Player
    standing: Standing | None
    cells: dict[int, Decision]


@dataclass(frozen=True)
class SheetData:
    tournament: Tournament
    game: Game
    rounds: list[Round]
    rows: list[PlayerRow]

    @property
    def headers(self) -> list[str]:
        return ["Masa", "Nume", "Club"] + [f"T{r.number}" for r in self.rounds] + TAIL

    def by_table(self) -> list[PlayerRow]:
        return sorted(self.rows, key=lambda r: r.player.table_no)


def gather(session: Session, game: Game) -> SheetData:
    rnds = rounds(session, game)
    by_round = {r.id: r.number for r in rnds}
    decisions: dict[int, dict[int, Decision]] = {}
    for d in session.scalars(select(Decision).where(Decision.round_id.in_(list(by_round)))):
        decisions.setdefault(d.table_no, {})[by_round[d.round_id]] = d
    standings = {s.table_no: s for s in session.scalars(select(Standing).where(Standing.game_id == game.id))}
    order = {r.table: i for i, r in enumerate(ranking(session, game))}
    rows = [PlayerRow(p, standings.get(p.table_no), decisions.get(p.table_no, {})) for p in players(session, game)]
    rows.sort(key=lambda r: (order.get(r.player.table_no, 10**6), r.player.table_no))
    return SheetData(session.get(Tournament, game.tournament_id), game, rnds, rows)
