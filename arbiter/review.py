"""The review queue: slips whose reading is unsure, and decisions the judge flagged for an arbiter.

Several arbiters clear the queue at once. Resolving is a conditional UPDATE on the item's
`version` and state (compare-and-set, the same on SQLite and PostgreSQL): exactly one arbiter
wins; the other gets ReviewConflict naming the winner, and the loser's proposed correction is
written to the audit log (`review.conflict`), not applied, so nothing is lost or half-applied.

Every field an arbiter corrects is also a lesson for the reader (issue 5): with `learn` set, its
cells and true text go to that folder (`arbiter.learning`) for `fluturas reader finetune`. That is
done after the commit, so a slow re-scan never holds the store's lock."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .audit import Change, record
from .errors import ReviewConflict, WorkflowError
from .models import Decision, Game, Player, ReviewItem, Round, Slip, utcnow
from .store import Store

CORRECTABLE = ("table", "round", "score", "position", "word", "jokers",
               "moves", "total", "cancel_round", "verify", "verify_words")  # the last five: anticipation slips


@dataclass(frozen=True)
class QueueEntry:
    """What the terminal shows for one item: the image, the reading and the decision."""

    item_id: int
    version: int
    round: int
    table: int | None
    kind: str
    reason: str
    source: str | None
    content: dict[str, Any] | None
    confidence: float | None
    decision: dict[str, Any] | None
    slip_id: int | None = None


def queue(session: Session, game_id: int, round_number: int | None = None) -> list[QueueEntry]:
    query = (select(ReviewItem, Round.number).join(Round, Round.id == ReviewItem.round_id)
             .where(ReviewItem.game_id == game_id, ReviewItem.state == "open")
             .order_by(Round.number, ReviewItem.id))
    if round_number is not None:
        query = query.where(Round.number == round_number)
    out = []
    for item, number in session.execute(query):
        slip = session.get(Slip, item.slip_id) if item.slip_id else None
        decision = None
        if item.table_no is not None:
            row = session.scalar(select(Decision).where(Decision.round_id == item.round_id,
                                                        Decision.table_no == item.table_no))
            if row is not None:
                decision = {"status": row.status, "score": row.score, "credited": row.credited,
                            "warning": row.warning, "penalty": row.penalty, "explanation": row.explanation,
                            "flags": row.flags}
        out.append(QueueEntry(item.id, item.version, number, item.table_no, item.kind, item.reason,
                              slip.source if slip else None, dict(slip.content) if slip else None,
                              slip.confidence if slip else None, decision, item.slip_id))
    return out


def open_count(session: Session, game_id: int, round_id: int | None = None) -> int:
    query = select(ReviewItem.id).where(ReviewItem.game_id == game_id, ReviewItem.state == "open")
    if round_id is not None:
        query = query.where(ReviewItem.round_id == round_id)
    return len(session.scalars(query).all())


def _check_correction(correction: dict[str, Any]) -> None:
    unknown = sorted(set(correction) - set(CORRECTABLE))
    if unknown:
        raise WorkflowError(f"correction field {unknown[0]!r}: expected one of {', '.join(CORRECTABLE)}")
    for key in ("table", "round", "score", "total", "cancel_round"):
        if correction.get(key) is not None and not isinstance(correction[key], int):
            raise WorkflowError(f"correction field {key}: expected a number, found {correction[key]!r}")


@dataclass(frozen=True)
class Lesson:
    """What a corrected slip teaches the reader: its stored reading and the fields as they were."""

    reading: dict[str, Any]
    sha256: str
    slip_index: int
    before: dict[str, Any]
    correction: dict[str, Any]


def _apply(session: Session, item: ReviewItem, correction: dict[str, Any], actor: str, reason: str) -> Lesson:
    slip = session.get(Slip, item.slip_id) if item.slip_id else None
    if slip is None:
        raise WorkflowError(f"review item {item.id} has no slip to correct")
    before = dict(slip.content)
    content = {**before, **correction}
    if session.get(Game, slip.game_id).kind == "anticipation":
        _check_anticipation(session, item, slip, content)
    table = content.get("table")
    if table != slip.table_no:
        if table is None or session.scalar(select(Player.id).where(Player.game_id == slip.game_id,
                                                                    Player.table_no == table)) is None:
            raise WorkflowError(f"review item {item.id}: table {table} is not seated")
        clash = session.scalar(select(Slip).where(Slip.round_id == slip.round_id, Slip.table_no == table,
                                                  Slip.state == "filed", Slip.id != slip.id))
        if clash is not None:
            raise WorkflowError(f"review item {item.id}: table {table} already has a filed slip ({clash.source})")
        slip.table_no = table
    slip.content = content
    record(session, actor, Change("slip.correct", "slip", slip.id, before=before, after=content, reason=reason),
           slip.game_id)
    return Lesson(dict(slip.reading or {}), slip.sha256, slip.slip_index, before, correction)


def _check_anticipation(session: Session, item: ReviewItem, slip: Slip, content: dict[str, Any]) -> None:
    """A corrected anticipation slip must be one the judge takes; a corrected round moves the
    slip there (each slip is corrected in the round it is filed in)."""
    from .anticipation.slips import slip_errors

    errors = slip_errors(content)
    if errors:
        raise WorkflowError(f"review item {item.id}: " + "; ".join(errors))
    rnd = session.get(Round, slip.round_id)
    if content["round"] == rnd.number:
        return
    target = session.scalar(select(Round).where(Round.game_id == slip.game_id, Round.number == content["round"]))
    if target is None:
        raise WorkflowError(f"review item {item.id}: round {content['round']} is not laid out (`round order`)")
    clash = session.scalar(select(Slip).where(Slip.round_id == target.id, Slip.table_no == content["table"],
                                              Slip.state == "filed", Slip.id != slip.id))
    if clash is not None:
        raise WorkflowError(f"review item {item.id}: table {content['table']} already has a filed slip in round "
                            f"{target.number} ({clash.source})")
    slip.round_id = target.id


def resolve(store: Store, item_id: int, expected_version: int, actor: str,
            correction: dict[str, Any] | None = None, reason: str = "", learn: Path | None = None) -> list[Path]:
    """Accept the item as it stands (no correction) or correct the slip's fields; one winner.
    Returns the reader samples written to `learn` (none without it)."""
    correction = dict(correction or {})
    _check_correction(correction)
    resolution = {"action": "correct" if correction else "accept", "correction": correction, "reason": reason}
    with store.session() as session:
        won = session.execute(
            update(ReviewItem)
            .where(ReviewItem.id == item_id, ReviewItem.version == expected_version, ReviewItem.state == "open")
            .values(state="resolved", version=ReviewItem.version + 1, resolution=resolution,
                    resolved_by=actor, resolved_at=utcnow())
            .execution_options(synchronize_session=False)).rowcount == 1
        lesson = None
        if won:
            item = session.get(ReviewItem, item_id)
            session.refresh(item)
            if correction:
                lesson = _apply(session, item, correction, actor, reason or item.reason)
            record(session, actor, Change("review.resolve", "review_item", item_id,
                                          before={"state": "open", "reason": item.reason},
                                          after=resolution, reason=reason or None), item.game_id)
    if won:
        if lesson is None or learn is None:
            return []
        from .learning import save_field_corrections

        return save_field_corrections(learn, lesson.reading, lesson.sha256, lesson.slip_index, lesson.before,
                                      lesson.correction)
    with store.session() as session:
        item = session.get(ReviewItem, item_id)
        if item is None:
            raise WorkflowError(f"review item {item_id} does not exist")
        record(session, actor, Change("review.conflict", "review_item", item_id, after=resolution,
                                      reason=f"not applied: item already {item.state} by {item.resolved_by}"),
               item.game_id)
        winner = {"by": item.resolved_by, "at": item.resolved_at.isoformat() if item.resolved_at else None}
    raise ReviewConflict(f"review item {item_id} was already resolved by {winner['by']} at {winner['at']}; "
                         f"your correction was not applied (it is kept in the audit log)")


def flag_decision(session: Session, rnd: Round, table: int, slip_id: int | None, reason: str) -> bool:
    """Queue a decision the judge flagged, once per (round, table, reason) however often the
    round is corrected again."""
    exists = session.scalar(select(ReviewItem.id).where(ReviewItem.round_id == rnd.id, ReviewItem.table_no == table,
                                                        ReviewItem.kind == "decision", ReviewItem.reason == reason))
    if exists is not None:
        return False
    session.add(ReviewItem(game_id=rnd.game_id, round_id=rnd.id, slip_id=slip_id, table_no=table,
                           kind="decision", reason=reason))
    return True
