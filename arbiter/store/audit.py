"""The audit log: every change to the store writes one entry — who, when, what (before and
after), why — in the same transaction as the change, so neither exists without the other.
Entries are never edited: the database's own triggers refuse UPDATE and DELETE (D 6.5)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from .freetext import check_text
from .models import AuditEntry, Base


def snapshot(row: Base, fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The row's column values as JSON-safe data (dates as ISO text)."""
    mapper = inspect(row).mapper
    names = fields or tuple(attr.key for attr in mapper.column_attrs if attr.key not in ("id", "version"))
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(row, name)
        out[name] = value.isoformat() if isinstance(value, (date, datetime)) else value
    return out


@dataclass(frozen=True)
class Change:
    """What one audit entry says; `entity_id` is text so composite keys (round/table) fit."""

    action: str
    entity: str
    entity_id: str | int | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    reason: str | None = None


def record(session: Session, actor: str, change: Change, game_id: int | None = None) -> AuditEntry:
    """Add one entry to the session's transaction. Who and why are checked here, once for every
    change: text with control characters is refused and the whole transaction with it."""
    check_text(actor, "--arbiter", required=True, longest=100)
    if change.reason is not None:
        check_text(change.reason, "--reason")
    entry = AuditEntry(actor=actor, action=change.action, game_id=game_id, entity=change.entity,
                       entity_id=None if change.entity_id is None else str(change.entity_id),
                       before=change.before, after=change.after, reason=change.reason)
    session.add(entry)
    return entry


def entries(session: Session, game_id: int | None = None, action: str | None = None) -> list[AuditEntry]:
    """The log in the order it was written, optionally for one game and one kind of action."""
    query = select(AuditEntry).order_by(AuditEntry.id)
    if game_id is not None:
        query = query.where(AuditEntry.game_id == game_id)
    if action is not None:
        query = query.where(AuditEntry.action == action)
    return list(session.scalars(query))
