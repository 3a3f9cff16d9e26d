"""Sanctions, appeals and the two publications of the results (D 6.4–6.6).

Nothing here computes a total or a rank: sanctions and appeals are stored (with their audit
entries) and handed to the judge with the rest of the game; the standings it returns are
what is published."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .audit import Change, record, snapshot
from .errors import WorkflowError
from .anticipation.correction import ANTICIPATION_APPEAL_KINDS
from .models import Appeal, Game, Player, ReviewItem, Round, Sanction, Standing
from .review import open_count

SANCTIONS = ("disciplinary", "elimination")
APPEAL_KINDS = ("reading", "warning", "penalty", "incorrect", "total", "repeated")


def _seated(session: Session, game: Game, table: int) -> Player:
    player = session.scalar(select(Player).where(Player.game_id == game.id, Player.table_no == table))
    if player is None:
        raise WorkflowError(f"table {table} is not seated in game {game.id}")
    return player


def add_sanction(session: Session, game: Game, table: int, kind: str, reason: str, actor: str,
                 round_no: int | None = None) -> None:
    """A disciplinary warning (−20 at the end, the second eliminates, D 6.4) or an elimination
    (cheating, D 7.1.3). The reason is mandatory: the written sanction states it (D 5.5.h)."""
    if kind not in SANCTIONS:
        raise WorkflowError(f"sanction {kind!r}: expected one of {', '.join(SANCTIONS)}")
    if not reason.strip():
        raise WorkflowError("a sanction needs its reason (D 5.5.h)")
    _seated(session, game, table)
    if round_no is None:  # the judge places every sanction in a round: the newest one by default
        round_no = session.scalar(select(Round.number).where(Round.game_id == game.id)
                                  .order_by(Round.number.desc()).limit(1))
    row = Sanction(game_id=game.id, table_no=table, round_no=round_no, kind=kind, reason=reason, actor=actor)
    session.add(row)
    session.flush()
    record(session, actor, Change(f"sanction.{kind}", "sanction", row.id, after=snapshot(row), reason=reason), game.id)


def parse_deadline(text: str, today: datetime) -> datetime:
    """'18:30' or '18.30' (as notice boards write it) → today at 18:30 (local time of the venue);
    a full ISO date-time is accepted too."""
    try:
        if len(text) <= 5:
            clock = time.fromisoformat(text.replace(".", ":").zfill(5))
            return datetime.combine(today.date(), clock, tzinfo=today.tzinfo)
        parsed = datetime.fromisoformat(text)
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=today.tzinfo)
    except ValueError as exc:
        raise WorkflowError(f"--deadline {text!r}: expected HH:MM or an ISO date-time") from exc


def add_appeal(session: Session, game: Game, table: int, round_no: int | None, kind: str, reason: str,
               actor: str, now: datetime, change: dict[str, Any] | None = None, upheld: bool = True) -> Appeal:
    """Record a contestation (D 6.5) within the deadline printed on the provisional results.
    The stored slip stays as it was read; the appeal goes to the judge with the game, which
    decides again and marks the ruling (`reading` → reread, `warning`/`penalty` → cancel,
    `incorrect`/`total` → set_score, `repeated` → the D 5.3.7 round average, capped)."""
    if kind not in APPEAL_KINDS:
        raise WorkflowError(f"appeal kind {kind!r}: expected one of {', '.join(APPEAL_KINDS)}")
    if not reason.strip():
        raise WorkflowError("an appeal needs its reason")
    if game.status == "final":
        raise WorkflowError(f"game {game.id}: the results are final; no appeal is accepted")
    if game.appeal_deadline is not None and now > _aware(game.appeal_deadline, now):
        raise WorkflowError(f"the appeal deadline ({game.appeal_deadline:%H:%M}) has passed (D 6.5)")
    _seated(session, game, table)
    if game.kind == "anticipation" and round_no is None:
        raise WorkflowError("an anticipation appeal names its round (--round N): each player's board is replayed")
    if game.kind == "anticipation" and kind not in ANTICIPATION_APPEAL_KINDS:
        raise WorkflowError(f"an anticipation game takes appeals of kind {', '.join(ANTICIPATION_APPEAL_KINDS)} "
                            f"(A 6.5, replayed on the player's board); not {kind}")
    change = dict(change or {})
    if kind in ("incorrect", "total") and not isinstance(change.get("score"), int):
        raise WorkflowError(f"an appeal of kind {kind} gives the points to credit (--score N)")
    if kind == "reading" and not change:
        raise WorkflowError("a reading appeal gives what the slip really says (--set position=H4 ...)")
    row = Appeal(game_id=game.id, table_no=table, round_no=round_no, kind=kind, reason=reason, change=change,
                 status="upheld" if upheld else "rejected", actor=actor, created_at=now)
    session.add(row)
    session.flush()
    record(session, actor, Change(f"appeal.{row.status}", "appeal", row.id, after=snapshot(row), reason=reason),
           game.id)
    return row


def _aware(moment: datetime, like: datetime) -> datetime:
    """SQLite hands back naive date-times; they were stored in the venue's zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=like.tzinfo)


@dataclass(frozen=True)
class RankRow:
    rank: int | None
    table: int
    name: str
    total: int
    percent_of_top: float | None
    eliminated: bool


def ranking(session: Session, game: Game) -> list[RankRow]:
    """The judge's standings in publication order: ranked players, then the eliminated."""
    names = {p.table_no: p.name for p in session.scalars(select(Player).where(Player.game_id == game.id))}
    rows = [RankRow(s.rank, s.table_no, names.get(s.table_no, "?"), s.total, s.percent_of_top, s.eliminated)
            for s in session.scalars(select(Standing).where(Standing.game_id == game.id))]
    return sorted(rows, key=lambda r: (r.eliminated, r.rank if r.rank is not None else 10**6, r.table))


def publish(session: Session, game: Game, stage: str, actor: str, deadline: datetime | None = None,
            now: datetime | None = None, force_reason: str | None = None) -> None:
    """Provisional (with the appeal deadline) or final results; refused while the review queue
    holds open items or before every seated table has a standing (nothing silently wrong)."""
    if open_count(session, game.id):
        raise WorkflowError(f"game {game.id}: {open_count(session, game.id)} review items are still open "
                            f"(`fluturas review`)")
    seated = {p.table_no for p in session.scalars(select(Player).where(Player.game_id == game.id))}
    ranked = {s.table_no for s in session.scalars(select(Standing).where(Standing.game_id == game.id))}
    if not seated or seated - ranked:
        raise WorkflowError(f"game {game.id}: tables {sorted(seated - ranked)[:10]} have no total yet "
                            f"(`fluturas round correct`)")
    before = {"status": game.status, "appeal_deadline": game.appeal_deadline.isoformat() if game.appeal_deadline else None}
    if stage == "provisional":
        if deadline is None:
            raise WorkflowError("provisional results need the appeal deadline (--deadline 18:30)")
        game.status, game.appeal_deadline = "provisional", deadline
    elif stage == "final":
        if game.status != "provisional":
            raise WorkflowError(f"game {game.id}: publish the provisional results first (D 6.5)")
        if now is not None and game.appeal_deadline and now < _aware(game.appeal_deadline, now) and not force_reason:
            raise WorkflowError(f"the appeal deadline ({game.appeal_deadline:%H:%M}) has not passed; "
                                f"pass --force REASON to publish earlier")
        game.status = "final"
    else:
        raise WorkflowError(f"results stage {stage!r}: expected provisional or final")
    record(session, actor, Change(f"results.{stage}", "game", game.id, before=before,
                                  after={"status": game.status,
                                         "appeal_deadline": game.appeal_deadline.isoformat() if game.appeal_deadline else None},
                                  reason=force_reason), game.id)


def open_review_items(session: Session, game: Game) -> list[ReviewItem]:
    return list(session.scalars(select(ReviewItem).where(ReviewItem.game_id == game.id, ReviewItem.state == "open")))
