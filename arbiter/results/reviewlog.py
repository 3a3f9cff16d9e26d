"""The review sheet's rows: every review, correction, appeal, sanction and publication of a game
from the audit log (D 6.5: who, when, why), one row per changed field, so the sheet prints as
columns (time, arbiter, action, round, table, field, before, after, why) and not as dict text."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from openpyxl import Workbook

from ..store.audit import entries
from ..store.models import AuditEntry, Game, ReviewItem, Round, Slip
from .sheetkit import simple_table

ACTIONS = ("slip.", "review.", "appeal.", "sanction.", "results.")
SKIPPED = ("slip.file",)  # filing is the scan itself, not a review; the slip's own row says it
HEADERS = ["Când", "Arbitru", "Acțiune", "Tur", "Masa", "Câmp", "Înainte", "După", "Motiv"]
UNCHANGED = "(nimic schimbat)"  # a confirmation: the arbiter kept what was there
LONGEST = 300  # characters of one value; the audit log keeps the rest
# Columns of a snapshot that the row already says (who, when, where, why) or that mean nothing on paper.
SAID = {"id", "version", "game_id", "round_id", "table_no", "round_no", "actor", "created_at", "reason"}


@dataclass(frozen=True)
class ReviewRow:
    at: str
    actor: str
    action: str
    round: int | None
    table: int | None
    field: str
    before: str
    after: str
    reason: str

    def values(self) -> list[object]:
        return [self.at, self.actor, self.action, self.round, self.table, self.field, self.before, self.after,
                self.reason]


def _text(value: Any) -> str:
    if value is None or value == {} or value == []:
        return ""
    if isinstance(value, str) and len(value) >= 16 and value[10:11] == "T":
        try:  # an ISO date-time from a snapshot: as a person writes it
            return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M")
        except ValueError:
            pass
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
        text = ", ".join(map(str, value))
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    else:
        text = str(value)
    return text if len(text) <= LONGEST else text[:LONGEST - 1] + "…"


def _flat(data: dict[str, Any] | None, prefix: str = "") -> dict[str, Any]:
    """`{"content": {"word": "X"}}` → `{"content.word": "X"}`: one field, one row."""
    out: dict[str, Any] = {}
    for key, value in (data or {}).items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(_flat(value, name + "."))
        else:
            out[name] = value
    return out


class _Places:
    """Round and table of an audited object, looked up once per object."""

    def __init__(self, session: Session, game: Game) -> None:
        self.session = session
        self.rounds = dict(session.execute(select(Round.id, Round.number).where(Round.game_id == game.id)).all())

    def of(self, entry: AuditEntry) -> tuple[int | None, int | None]:
        after, before = entry.after or {}, entry.before or {}
        for data in (after, before):
            if "round_no" in data or "table_no" in data:
                return data.get("round_no"), data.get("table_no")
        if entry.entity in ("slip", "review_item") and entry.entity_id and entry.entity_id.isdigit():
            row = self.session.get(Slip if entry.entity == "slip" else ReviewItem, int(entry.entity_id))
            if row is not None:
                return self.rounds.get(row.round_id), row.table_no
        return after.get("round"), after.get("table")


def review_rows(session: Session, game: Game) -> list[ReviewRow]:
    places = _Places(session, game)
    rows: list[ReviewRow] = []
    for e in entries(session, game.id):
        if not e.action.startswith(ACTIONS) or e.action in SKIPPED:
            continue
        rnd, table = places.of(e)
        before, after = _flat(e.before), _flat(e.after)
        changed = [k for k in dict.fromkeys([*before, *after])
                   if _text(before.get(k)) != _text(after.get(k)) and k.split(".")[0] not in SAID]
        head = (e.at.strftime("%Y-%m-%d %H:%M:%S"), e.actor, e.action, rnd, table)
        for i, key in enumerate(changed or [UNCHANGED]):
            rows.append(ReviewRow(*head, key, _text(before.get(key)), _text(after.get(key)),
                                  (e.reason or "") if i == 0 else ""))
    return rows


def review_sheet(book: Workbook, session: Session, game: Game) -> None:
    """Sheet *Revizuire* of both workbooks, wrapped to print whole on A4 landscape."""
    simple_table(book, "Revizuire", HEADERS, (r.values() for r in review_rows(session, game)),
                 [17, 12, 18, 5, 6, 18, 30, 30, 30], wrap=(6, 7, 8, 9))
