"""The review queue: slips whose reading is unsure, and decisions the judge flagged for an arbiter.

Several arbiters clear the queue at once. Resolving is a conditional UPDATE on the item's
`version` and state (compare-and-set, the same on SQLite and PostgreSQL): exactly one arbiter
wins; the other gets ReviewConflict naming the winner, and the loser's proposed correction is
written to the audit log (`review.conflict`), not applied, so nothing is lost or half-applied.

Every field an arbiter corrects is also a lesson for the reader (issue 5): with `learn` set, its
cells and true text go to that folder (`arbiter.slips.learning`) for `fluturas reader finetune`. That is
done after the commit, so a slow re-scan never holds the store's lock."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..errors import ReviewConflict, WorkflowError
from ..slips.readings import ALIASES
from ..store.audit import Change, record, snapshot
from ..store.models import Decision, Game, ReviewItem, Round, Slip, utcnow
from ..store.store import Store
from ..store.validation import check_slip_fields, require_not_final, require_round, require_seated, whole

CORRECTABLE = ("table", "round", "score", "position", "word", "jokers",
               "moves", "total", "cancel_round", "verify", "verify_words")  # the last five: anticipation slips
# The slip's own names (MASA, TUR, POZ, PUNCTE, DEPUNERE) are the same fields.
FIELD_NAMES = {alias: name for name, aliases in ALIASES.items() for alias in aliases}
DISCARD_KINDS = ("not-a-slip", "duplicate", "wrong-pile")


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


def normalise_correction(correction: dict[str, Any]) -> dict[str, Any]:
    """The correction with the slip's field names mapped to ours, checked for type: a refusal
    names the field (`correction field 'culoare'`, `correction field masa: expected a number`)."""
    out: dict[str, Any] = {}
    for key, value in correction.items():
        name = FIELD_NAMES.get(str(key).lower(), str(key).lower())
        if name not in CORRECTABLE:
            raise WorkflowError(f"correction field {key!r}: expected one of {', '.join(CORRECTABLE)} "
                                f"(or masa, tur, poz, puncte, depunere)")
        if name in ("table", "round", "score", "total", "cancel_round"):
            if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
                value = int(value.strip())
            if value is not None:
                whole(value, f"correction field {key}:", 0, "a number")
        out[name] = value
    return out


@dataclass(frozen=True)
class Lesson:
    """What a corrected slip teaches the reader: its stored reading and the fields as they were."""

    reading: dict[str, Any]
    sha256: str
    slip_index: int
    before: dict[str, Any]
    correction: dict[str, Any]


def _apply(session: Session, item: ReviewItem, correction: dict[str, Any], actor: str, reason: str) -> Lesson:
    """Correct the slip's fields, checked against the game first: a seated table, a round that
    exists (the slip moves there), a position, letters and a score the judge can take. A
    superseded slip given a table with no filed slip becomes that table's filed slip."""
    slip = session.get(Slip, item.slip_id) if item.slip_id else None
    if slip is None:
        raise WorkflowError(f"review item {item.id} has no slip to correct")
    game = session.get(Game, slip.game_id)
    before = dict(slip.content)
    content = {**before, **correction}
    if game.kind == "anticipation":
        _check_anticipation(session, item, slip, content)
    else:
        checked = {k: content.get(k) for k in correction}  # what the arbiter typed; a misread left as is goes to the judge
        if "jokers" in correction:
            checked["word"] = content.get("word")
        check_slip_fields(game, checked, f"review item {item.id}: ")
        if "round" in correction:
            slip.round_id = require_round(session, game, content["round"], f"review item {item.id}: round").id
    table = content.get("table")
    if table is None:
        raise WorkflowError(f"review item {item.id}: the slip has no table; give it (c masa=N)")
    require_seated(session, game, table, f"review item {item.id}: table")
    if slip.state == "discarded":
        raise WorkflowError(f"review item {item.id}: slip {slip.id} was discarded; reopen it first")
    clash = session.scalar(select(Slip).where(Slip.round_id == slip.round_id, Slip.table_no == table,
                                              Slip.state == "filed", Slip.id != slip.id))
    if clash is not None:
        raise WorkflowError(f"review item {item.id}: table {table} already has a filed slip in that round "
                            f"(slip {clash.id}, {clash.source}); discard one of them first")
    state_before = slip.state
    slip.table_no, slip.state, slip.content = table, "filed", content
    item.table_no, item.round_id = table, slip.round_id
    session.flush()
    record(session, actor, Change("slip.correct", "slip", slip.id, before={**before, "state": state_before},
                                  after={**content, "state": slip.state}, reason=reason), slip.game_id)
    return Lesson(dict(slip.reading or {}), slip.sha256, slip.slip_index, before, correction)


def _check_accept(session: Session, item: ReviewItem) -> None:
    """Accepting files the slip as it stands: never one the judge would count for nobody (a slip
    with no seated table) or in a round it does not say."""
    slip = session.get(Slip, item.slip_id) if item.slip_id else None
    if slip is None or slip.state != "filed" or item.kind != "reading":
        return
    game = session.get(Game, slip.game_id)
    if slip.table_no is None:
        written = slip.content.get("table")
        raise WorkflowError(f"review item {item.id}: the slip is filed under no table (it reads table "
                            f"{written if written is not None else '?'}); correct it (c masa=N) or discard it")
    written_round = slip.content.get("round")
    rnd = session.get(Round, slip.round_id)
    if game.kind != "anticipation" and isinstance(written_round, int) and written_round != rnd.number:
        raise WorkflowError(f"review item {item.id}: the slip says round {written_round}, filed in round "
                            f"{rnd.number}; move it (c tur={written_round}) or confirm it (c tur={rnd.number})")


def _check_anticipation(session: Session, item: ReviewItem, slip: Slip, content: dict[str, Any]) -> None:
    """A corrected anticipation slip must be one the judge takes; a corrected round moves the
    slip there (each slip is corrected in the round it is filed in)."""
    from ..anticipation.slips import slip_errors

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
    correction = normalise_correction(dict(correction or {}))
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
            require_not_final(session.get(Game, item.game_id), "a review")
            if correction:
                lesson = _apply(session, item, correction, actor, reason or item.reason)
            else:
                _check_accept(session, item)
            record(session, actor, Change("review.resolve", "review_item", item_id,
                                          before={"state": "open", "reason": item.reason},
                                          after=resolution, reason=reason or None), item.game_id)
    if won:
        if lesson is None or learn is None:
            return []
        from ..slips.learning import save_field_corrections

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


def _item(session: Session, item_id: int) -> ReviewItem:
    item = session.get(ReviewItem, item_id)
    if item is None:
        raise WorkflowError(f"review item {item_id} does not exist")
    return item


def _slip_of(session: Session, game: Game, slip_id: int) -> Slip:
    slip = session.get(Slip, slip_id)
    if slip is None or slip.game_id != game.id:
        raise WorkflowError(f"slip {slip_id} is not in game {game.id}")
    return slip


def reopen_item(session: Session, game: Game, item_id: int, actor: str, reason: str) -> ReviewItem:
    """Put a resolved (or discarded) item back in the queue; its slip is held from the judge again.
    The earlier resolution stays in the audit log. A discarded slip comes back as filed."""
    require_not_final(game, "reopening a review item")
    item = _item(session, item_id)
    if item.game_id != game.id:
        raise WorkflowError(f"review item {item_id} is not in game {game.id}")
    if item.state == "open":
        raise WorkflowError(f"review item {item_id} is already open")
    if not reason.strip():
        raise WorkflowError("--reason: say why the item is reopened")
    slip = session.get(Slip, item.slip_id) if item.slip_id else None
    if slip is not None and slip.state == "discarded":
        _restore(session, slip, actor, reason)
    before = {"state": item.state, "resolution": item.resolution, "resolved_by": item.resolved_by}
    item.state, item.resolution, item.resolved_by, item.resolved_at = "open", None, None, None
    item.version += 1
    record(session, actor, Change("review.reopen", "review_item", item.id, before=before, after={"state": "open"},
                                  reason=reason), game.id)
    return item


def _restore(session: Session, slip: Slip, actor: str, reason: str) -> None:
    clash = None
    if slip.table_no is not None:
        clash = session.scalar(select(Slip).where(Slip.round_id == slip.round_id, Slip.table_no == slip.table_no,
                                                  Slip.state == "filed", Slip.id != slip.id))
    slip.state = "superseded" if clash is not None else "filed"
    session.flush()
    record(session, actor, Change("slip.restore", "slip", slip.id, before={"state": "discarded"},
                                  after={"state": slip.state}, reason=reason), slip.game_id)


def discard_slip(session: Session, game: Game, slip_id: int, kind: str, actor: str, reason: str) -> ReviewItem:
    """A filed item that is no slip (a blank page, a photo of something else), a second scan of
    the same paper, or a slip of the wrong pile: kept in the store and the audit log, never
    counted; its open items close. Returns the review item that says so (made when the slip has
    none open): `reopen_item` on it brings the slip back."""
    require_not_final(game, "discarding a slip")
    if kind not in DISCARD_KINDS:
        raise WorkflowError(f"--as {kind!r}: expected one of {', '.join(DISCARD_KINDS)}")
    slip = _slip_of(session, game, slip_id)
    if slip.state == "discarded":
        raise WorkflowError(f"slip {slip_id} is already discarded")
    before = {"state": slip.state}
    slip.state = "discarded"
    resolution = {"action": "discard", "as": kind, "reason": reason}
    items = list(session.scalars(select(ReviewItem).where(ReviewItem.slip_id == slip.id, ReviewItem.state == "open")
                                 .order_by(ReviewItem.id)))
    if not items:  # every discard has an item an arbiter can see and reopen
        items = [ReviewItem(game_id=game.id, round_id=slip.round_id, slip_id=slip.id, table_no=slip.table_no,
                            kind="reading", reason=f"discarded as {kind}" + (f": {reason}" if reason else ""),
                            state="open")]
        session.add(items[0])
    for item in items:
        item.state, item.resolution, item.resolved_by, item.resolved_at = "resolved", resolution, actor, utcnow()
        item.version = (item.version or 1) + 1
    session.flush()
    record(session, actor, Change("slip.discard", "slip", slip.id, before=before,
                                  after={"state": "discarded", "as": kind, "review_item": items[0].id},
                                  reason=reason or kind), game.id)
    return items[0]


def discard_pile(session: Session, game: Game, pile: int, kind: str, actor: str,
                 reason: str) -> list[tuple[int, int]]:
    """Every slip one scan filed (`round scan` prints its pile number), discarded in one step:
    (slip, review item) for each; `restore_pile` brings them all back."""
    found = list(session.scalars(select(Slip).where(Slip.game_id == game.id, Slip.pile == pile).order_by(Slip.id)))
    if not found:
        raise WorkflowError(f"--pile {pile}: no slip of game {game.id} was filed by that scan "
                            f"(`fluturas slip list` shows each slip's pile)")
    return [(slip.id, discard_slip(session, game, slip.id, kind, actor, reason).id)
            for slip in found if slip.state != "discarded"]


def restore_pile(session: Session, game: Game, pile: int, actor: str, reason: str) -> list[tuple[int, int]]:
    """Undo `discard_pile`: each slip of the pile discarded since comes back, its item open again."""
    out = []
    for slip in session.scalars(select(Slip).where(Slip.game_id == game.id, Slip.pile == pile,
                                                   Slip.state == "discarded").order_by(Slip.id)):
        item = session.scalar(select(ReviewItem).where(ReviewItem.slip_id == slip.id, ReviewItem.state == "resolved")
                              .order_by(ReviewItem.id.desc()))
        if item is not None:
            reopen_item(session, game, item.id, actor, reason)
            out.append((slip.id, item.id))
    if not out:
        raise WorkflowError(f"--pile {pile}: no discarded slip of that scan to bring back")
    return out


def move_slip(session: Session, game: Game, slip_id: int, number: int, actor: str, reason: str) -> Slip:
    """File a slip in the round it really belongs to (a late slip of an earlier round, a slip of
    the wrong pile); its open items follow it. A superseded slip becomes the filed slip of its
    table there. Refused when that round already has a filed slip of the same table, and for a
    discarded slip (bring it back first). A slip the decoder read against the other round's
    board waits in review in its new round. Moving it back undoes it."""
    require_not_final(game, "moving a slip")
    slip = _slip_of(session, game, slip_id)
    target = require_round(session, game, number)
    if slip.state == "discarded":
        raise WorkflowError(f"slip {slip_id} is discarded; bring it back first (`fluturas undo review ITEM`, "
                            f"`fluturas slip list` shows it), then move it")
    if target.id == slip.round_id:
        raise WorkflowError(f"slip {slip_id} is already in round {number}")
    if slip.table_no is not None:
        clash = session.scalar(select(Slip).where(Slip.round_id == target.id, Slip.table_no == slip.table_no,
                                                  Slip.state == "filed", Slip.id != slip.id))
        if clash is not None:
            raise WorkflowError(f"round {number}: table {slip.table_no} already has a filed slip "
                                f"(slip {clash.id}, {clash.source}); discard one of them first")
    old = session.get(Round, slip.round_id).number
    before = {"round": old, "state": slip.state, "content": dict(slip.content)}
    slip.round_id = target.id
    slip.content = {**slip.content, "round": number}
    if slip.state == "superseded" and slip.table_no is not None:
        slip.state = "filed"
    for item in session.scalars(select(ReviewItem).where(ReviewItem.slip_id == slip.id)):
        item.round_id = target.id
    session.flush()
    if _decoded(slip) and not session.scalar(select(ReviewItem.id).where(ReviewItem.slip_id == slip.id,
                                                                         ReviewItem.state == "open")):
        session.add(ReviewItem(game_id=game.id, round_id=target.id, slip_id=slip.id, table_no=slip.table_no,
                               kind="reading", reason=f"moved from round {old}: its reading was weighed against "
                                                      f"round {old}'s board; check it"))
    record(session, actor, Change("slip.move", "slip", slip.id, before=before,
                                  after={"round": number, "state": slip.state, "content": slip.content},
                                  reason=reason), game.id)
    return slip


def _decoded(slip: Slip) -> bool:
    """Whether the slip's reading carries per-box readings, which the decoder weighs against a round."""
    fields = {str(k).lower(): v for k, v in ((slip.reading or {}).get("fields") or {}).items()}
    word = fields.get("depunere", fields.get("word"))
    return isinstance(word, dict) and bool(word.get("chars"))


def slips(session: Session, game: Game, number: int | None = None) -> list[dict[str, Any]]:
    """Every slip of the game (or of one round), whatever its state, for `fluturas slip list`."""
    query = (select(Slip, Round.number).join(Round, Round.id == Slip.round_id).where(Slip.game_id == game.id)
             .order_by(Round.number, Slip.table_no, Slip.id))
    if number is not None:
        query = query.where(Round.number == number)
    return [{**snapshot(s, ("id", "table_no", "state", "source", "content", "pile")), "round": n}
            for s, n in session.execute(query)]


class _TrialDone(Exception):
    """Ends a trial resolution: its transaction is rolled back, its outcome carried out."""

    def __init__(self, round_number: int, content: dict[str, Any]) -> None:
        super().__init__("trial")
        self.round_number, self.content = round_number, content


def check_resolution(store: Store, item_id: int, actor: str, correction: dict[str, Any] | None = None,
                     game_id: int | None = None) -> tuple[int, dict[str, Any]]:
    """What `resolve` would store for the item — the slip's round and fields — found by running
    its very checks and changes in a transaction that is then rolled back: a preview refuses
    exactly what saving refuses, in the same words, and stores nothing."""
    correction = normalise_correction(dict(correction or {}))
    try:
        with store.session() as session:
            item = _item(session, item_id)
            if game_id is not None and item.game_id != game_id:
                raise WorkflowError(f"review item {item_id} is not in game {game_id}")
            if item.state != "open":
                raise WorkflowError(f"review item {item_id} was already {item.state} by {item.resolved_by}")
            require_not_final(session.get(Game, item.game_id), "a review")
            if correction:
                _apply(session, item, correction, actor, item.reason)
            else:
                _check_accept(session, item)
            slip = session.get(Slip, item.slip_id) if item.slip_id else None
            raise _TrialDone(session.get(Round, item.round_id).number, dict(slip.content) if slip else {})
    except _TrialDone as done:
        return done.round_number, done.content
