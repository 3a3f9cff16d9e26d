"""What the round, hall and results pages show, read from the store through the workflow's own
functions (announcements, ranking, missing tables): no rule is computed here."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.game.announcement import letter_name
from corrector.game.variants import load_duplicate_rules
from corrector.rulepack import load_pack
from corrector.tiles import JOKER

from ..round.announce import announce
from ..errors import FluturasError
from ..store.games import board_before, players, rounds
from ..store.models import Decision, Game, ReviewItem, Round, Slip
from ..round.status import round_status
from .board import BoardView, board_view


@dataclass(frozen=True)
class TableRow:
    table: int
    name: str
    club: str | None
    slip: Slip | None
    decision: Decision | None
    in_review: bool


@dataclass(frozen=True)
class RoundStatus:
    """The counts of `fluturas status` (`status.round_status`: every filed slip, those without a
    table among them), and the seats."""

    seated: int
    filed: int
    decided: int
    in_review: int
    without_table: int
    missing: tuple[int, ...]
    has_top: bool

    @property
    def can_close(self) -> bool:
        """Every seated table decided, nothing waiting, no slip without its table, the top known."""
        return self.has_top and not self.in_review and not self.without_table and self.decided >= self.seated


@dataclass(frozen=True)
class RoundPage:
    round: Round
    rows: tuple[TableRow, ...]
    status: RoundStatus
    announcement: tuple[str, ...]
    zeros: tuple[int, ...]
    withheld: tuple[int, ...]
    problem: str | None = None
    loose_slips: tuple[Slip, ...] = field(default=())


def round_page(session: Session, game: Game, rnd: Round) -> RoundPage:
    seats = players(session, game)
    slips = list(session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed")))
    by_table = {s.table_no: s for s in slips if s.table_no is not None}
    decisions = {d.table_no: d for d in session.scalars(select(Decision).where(Decision.round_id == rnd.id))}
    open_items = list(session.scalars(select(ReviewItem).where(ReviewItem.round_id == rnd.id, ReviewItem.state == "open")))
    waiting = {i.table_no for i in open_items}
    waiting |= {s.table_no for s in slips if s.id in {i.slip_id for i in open_items}}
    rows = tuple(TableRow(p.table_no, p.name, p.club, by_table.get(p.table_no), decisions.get(p.table_no),
                          p.table_no in waiting) for p in seats)
    counts = round_status(session, game, rnd)
    status = RoundStatus(len(seats), counts.filed, counts.decided, counts.in_review, counts.without_table,
                         counts.missing, bool(rnd.continuation))
    lines: tuple[str, ...] = ()
    zeros: tuple[int, ...] = ()
    withheld: tuple[int, ...] = ()
    problem = None
    if rnd.continuation and game.kind == "duplicate":
        try:
            found = announce(session, game, rnd)
            lines, zeros, withheld = found.lines, found.zero_tables, found.withheld
        except FluturasError as exc:
            problem = str(exc)
    return RoundPage(rnd, rows, status, lines, zeros, withheld, problem,
                     tuple(s for s in slips if s.table_no is None))


@dataclass(frozen=True)
class HallPage:
    round: Round | None
    board: BoardView | None
    group: tuple[tuple[str, str], ...]  # (letter, its Annex 2 name)
    closed: bool
    announcement: tuple[str, ...]


def hall_page(session: Session, game: Game) -> HallPage:
    all_rounds = rounds(session, game)
    if not all_rounds:
        return HallPage(None, None, (), False, ())
    rnd = all_rounds[-1]
    pack = load_pack(game.rules)
    names = load_duplicate_rules(pack).letter_names
    group = tuple((letter, "JOKER" if letter == JOKER else letter_name(letter, names).partition(" ")[2] or letter)
                  for letter in pack.tiles.parse_rack(rnd.rack)) if game.kind == "duplicate" else ()
    closed = rnd.status == "closed"
    board = None
    lines: tuple[str, ...] = ()
    if game.kind == "duplicate":
        try:  # an earlier round without its top leaves no board to show yet
            before = board_before(session, game, rnd.number, pack)
            position, _, word = (rnd.continuation or "").partition(" ")
            board = board_view(before, pack, position, word) if closed else board_view(before, pack)
            lines = announce(session, game, rnd).lines if closed else ()
        except FluturasError:
            board = None
    return HallPage(rnd, board, group, closed, lines)


def player_rounds(session: Session, game: Game, table: int) -> list[dict[str, Any]]:
    """Every round of one player: the filed slip, its reading and the decision with its articles."""
    out = []
    for rnd in rounds(session, game):
        slip = session.scalar(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no == table,
                                                 Slip.state == "filed"))
        decision = session.scalar(select(Decision).where(Decision.round_id == rnd.id, Decision.table_no == table))
        out.append({"round": rnd, "slip": slip, "decision": decision})
    return out
