"""One seat at a time: add a player, correct a seat typed wrong, remove one that should not be
there. A seat is removable only while no slip of the game names its table (after that, the
player's rounds are on paper and the seat is part of the record). Each change is audited with
its before and after, and is undone by its opposite (remove what was added, add back what was
removed, edit back what was edited), itself audited."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import WorkflowError
from .audit import Change, record, snapshot
from .freetext import check_text
from .models import Game, Player, Slip
from .seating import CATEGORIES, MAX_TABLE
from .validation import require_not_final, require_seated

SEAT_FIELDS = ("table_no", "name", "club", "category")


@dataclass(frozen=True)
class SeatChange:
    """What the arbiter types for one seat; None leaves a field as it is (in `edit_player`)."""

    name: str | None = None
    club: str | None = None
    category: str | None = None


def _check_table(table: object, field: str) -> int:
    if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= MAX_TABLE:
        raise WorkflowError(f"{field} {table!r}: expected a table number 1–{MAX_TABLE}")
    return table


def _checked(change: SeatChange, name_required: bool) -> SeatChange:
    name = " ".join((change.name or "").split()) or None
    if name_required or change.name is not None:
        check_text(name or "", "--name", required=True, longest=200)
    club = " ".join((change.club or "").split()) or None
    check_text(club or "", "--club", required=False, longest=200)
    category = (change.category or "").strip().lower() or None
    if category is not None and category not in CATEGORIES:
        raise WorkflowError(f"--category {change.category!r}: expected one of {', '.join(sorted(CATEGORIES))}")
    return SeatChange(name, club, category)


def add_player(session: Session, game: Game, table: int, change: SeatChange, actor: str,
               reason: str | None = None) -> Player:
    """Seat one player at a free table (a late arrival, or a seat removed by mistake)."""
    require_not_final(game, "changing the seating")
    _check_table(table, "--table")
    seat = _checked(change, name_required=True)
    taken = session.scalar(select(Player).where(Player.game_id == game.id, Player.table_no == table))
    if taken is not None:
        raise WorkflowError(f"--table {table}: already seated ({taken.name}); edit that seat instead")
    player = Player(game_id=game.id, table_no=table, name=seat.name, club=seat.club, category=seat.category)
    session.add(player)
    session.flush()
    record(session, actor, Change("player.add", "player", table, after=snapshot(player, SEAT_FIELDS),
                                  reason=reason), game.id)
    return player


def edit_player(session: Session, game: Game, table: int, change: SeatChange, actor: str,
                reason: str | None = None) -> Player:
    """Correct a seat's name, club or category (a name typed wrong on the seating list)."""
    require_not_final(game, "changing the seating")
    player = require_seated(session, game, table, "--table")
    seat = _checked(change, name_required=False)
    before = snapshot(player, SEAT_FIELDS)
    if change.name is not None:
        player.name = seat.name
    if change.club is not None:
        player.club = seat.club
    if change.category is not None:
        player.category = seat.category
    after = snapshot(player, SEAT_FIELDS)
    if after != before:
        record(session, actor, Change("player.edit", "player", table, before=before, after=after, reason=reason),
               game.id)
    return player


def slips_of(session: Session, game: Game, table: int) -> int:
    """How many slips of the game (filed, superseded or discarded) name the table."""
    return len(session.scalars(select(Slip.id).where(Slip.game_id == game.id, Slip.table_no == table)).all())


def remove_player(session: Session, game: Game, table: int, actor: str, reason: str | None = None) -> dict[str, object]:
    """Take away a seat that should not be there, while no slip names its table; returns the
    seat as it was (what `add_player` needs to put it back)."""
    require_not_final(game, "changing the seating")
    player = require_seated(session, game, table, "--table")
    count = slips_of(session, game, table)
    if count:
        raise WorkflowError(f"table {table} ({player.name}) already has {count} slip(s) filed; the seat stays "
                            f"(correct the name with `players edit` instead)")
    before = snapshot(player, SEAT_FIELDS)
    session.delete(player)
    session.flush()
    record(session, actor, Change("player.remove", "player", table, before=before, reason=reason), game.id)
    return before
