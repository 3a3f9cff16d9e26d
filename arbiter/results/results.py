"""Sanctions, appeals and the two publications of the results (D 6.4–6.6).

Nothing here computes a total or a rank: sanctions and appeals are stored (with their audit
entries) and handed to the judge with the rest of the game; the standings it returns are
what is published."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..anticipation.correction import ANTICIPATION_APPEAL_KINDS
from ..errors import WorkflowError
from ..round.consistency import unjudged
from ..store.audit import Change, record, snapshot
from ..store.models import Appeal, Game, Player, ReviewItem, Sanction, Standing
from ..store.validation import blockers, check_deadline, check_points, require_not_final, require_round, require_seated

SANCTIONS = ("disciplinary", "elimination")
APPEAL_KINDS = ("reading", "warning", "penalty", "incorrect", "total", "repeated")


def add_sanction(session: Session, game: Game, table: int, kind: str, reason: str, actor: str,
                 round_no: int | None = None) -> Sanction:
    """A disciplinary warning (−20 at the end, the second eliminates, D 6.4) or an elimination
    (cheating, D 7.1.3). The reason is mandatory: the written sanction states it (D 5.5.h)."""
    if kind not in SANCTIONS:
        raise WorkflowError(f"sanction {kind!r}: expected one of {', '.join(SANCTIONS)}")
    if not reason.strip():
        raise WorkflowError("--reason: a sanction needs its reason (D 5.5.h)")
    require_not_final(game, "a sanction")
    require_seated(session, game, table)
    if round_no is not None:
        require_round(session, game, round_no)
    row = Sanction(game_id=game.id, table_no=table, round_no=round_no, kind=kind, reason=reason, actor=actor,
                   status="active")
    session.add(row)
    session.flush()
    record(session, actor, Change(f"sanction.{kind}", "sanction", row.id, after=snapshot(row), reason=reason), game.id)
    return row


def parse_deadline(text: str, today: datetime) -> datetime:
    """'18:30' or '18.30' (as notice boards write it) → today at 18:30 (local time of the venue);
    a full ISO date-time is accepted too (`validation.check_deadline`)."""
    return check_deadline(text, today)


def add_appeal(session: Session, game: Game, table: int, round_no: int | None, kind: str, reason: str,
               actor: str, now: datetime, change: dict[str, Any] | None = None, upheld: bool = True) -> Appeal:
    """Record a contestation (D 6.5) within the deadline printed on the provisional results.
    The stored slip stays as it was read; the appeal goes to the judge with the game, which
    decides again and marks the ruling (`reading` → reread, `warning`/`penalty` → cancel,
    `incorrect`/`total` → set_score, `repeated` → the D 5.3.7 round average, capped)."""
    if kind not in APPEAL_KINDS:
        raise WorkflowError(f"--kind {kind!r}: expected one of {', '.join(APPEAL_KINDS)}")
    if not reason.strip():
        raise WorkflowError("--reason: an appeal needs its reason")
    require_not_final(game, "an appeal")
    if game.status != "reopened" and game.appeal_deadline is not None and now > _aware(game.appeal_deadline, now):
        raise WorkflowError(f"the appeal deadline ({game.appeal_deadline:%H:%M}) has passed (D 6.5)")
    if game.kind == "anticipation" and kind not in ANTICIPATION_APPEAL_KINDS:
        raise WorkflowError(f"an anticipation game takes appeals of kind {', '.join(ANTICIPATION_APPEAL_KINDS)} "
                            f"(A 6.5, replayed on the player's board); not {kind}")
    if game.kind == "anticipation" and round_no is None:
        raise WorkflowError("an anticipation appeal names its round (--round N): each player's board is replayed")
    require_seated(session, game, table)
    require_round(session, game, round_no)  # every ruling appealed is one round's (D 6.5)
    change = dict(change or {})
    if kind in ("incorrect", "total"):
        if change.get("score") is None:
            raise WorkflowError(f"--score: an appeal of kind {kind} gives the points to credit (--score N)")
        check_points(change["score"], "--score", game)
    if change.get("cap") is not None:
        check_points(change["cap"], "--cap", game)
    if kind == "reading":
        _check_reading_change(session, game, change, round_no)
    row = Appeal(game_id=game.id, table_no=table, round_no=round_no, kind=kind, reason=reason, change=change,
                 status="upheld" if upheld else "rejected", actor=actor, created_at=now)
    session.add(row)
    session.flush()
    record(session, actor, Change(f"appeal.{row.status}", "appeal", row.id, after=snapshot(row), reason=reason),
           game.id)
    return row


def _check_reading_change(session: Session, game: Game, change: dict[str, Any], round_no: int | None) -> None:
    """What a reading appeal says the slip reads, checked like a review correction."""
    from ..review.review import normalise_correction
    from ..store.validation import check_slip_fields

    if not change:
        raise WorkflowError("--set: a reading appeal gives what the slip really says (--set poz=H4 ...)")
    fields = normalise_correction(change)
    if "table" in fields:
        require_seated(session, game, fields["table"], "--set table")
    if "round" in fields:
        require_round(session, game, fields["round"], "--set round")
        if round_no is not None and fields["round"] != round_no:
            raise WorkflowError(f"--set round {fields['round']}: the appeal is of round {round_no}; a slip filed "
                                f"in the wrong round moves with `fluturas slip move`")
    check_slip_fields(game, fields, "--set ")
    change.clear()
    change.update(fields)


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
    holds open items, while a round's slips are not what its last correction judged (a slip filed
    after `round correct`), or before every seated table has a standing (nothing silently wrong)."""
    waiting = blockers(session, game)
    if waiting:
        raise WorkflowError(f"game {game.id}: {len(waiting)} slips or review items wait: " + "; ".join(waiting[:3]) +
                            " (`fluturas review`, `fluturas slip discard`)")
    stale = unjudged(session, game)
    if stale:  # only what the judge decided on the slips as they stand is published (D 6.5)
        raise WorkflowError(f"results {stage} refused: " + "; ".join(stale) +
                            "; run `fluturas round correct` first")
    seated = {p.table_no for p in session.scalars(select(Player).where(Player.game_id == game.id))}
    ranked = {s.table_no for s in session.scalars(select(Standing).where(Standing.game_id == game.id))}
    if not seated or seated - ranked:
        raise WorkflowError(f"game {game.id}: tables {sorted(seated - ranked)[:10]} have no total yet "
                            f"(`fluturas round correct`)")
    before = {"status": game.status, "appeal_deadline": game.appeal_deadline.isoformat() if game.appeal_deadline else None}
    require_not_final(game, f"publishing {stage} results")
    if stage == "provisional":
        if deadline is None:
            raise WorkflowError("provisional results need the appeal deadline (--deadline 18:30)")
        game.status, game.appeal_deadline = "provisional", deadline
    elif stage == "final":
        if game.status not in ("provisional", "reopened"):
            raise WorkflowError(f"game {game.id}: publish the provisional results first (D 6.5)")
        if (game.status == "provisional" and now is not None and game.appeal_deadline
                and now < _aware(game.appeal_deadline, now) and not force_reason):
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


def _withdraw(session: Session, game: Game, model: type, row_id: int, what: str, actor: str, reason: str):
    """Mark an appeal or a sanction withdrawn: the row and its audit entry stay, the judge no
    longer sees it (only upheld appeals and active sanctions are handed over)."""
    require_not_final(game, f"withdrawing a {what}")
    if not reason.strip():
        raise WorkflowError(f"--reason: say why the {what} is withdrawn")
    row = session.get(model, row_id)
    if row is None or row.game_id != game.id:
        raise WorkflowError(f"{what} {row_id} is not in game {game.id}")
    if row.status == "withdrawn":
        raise WorkflowError(f"{what} {row_id} is already withdrawn")
    before = {"status": row.status}
    row.status = "withdrawn"
    record(session, actor, Change(f"{what}.withdraw", what, row.id, before=before, after={"status": "withdrawn"},
                                  reason=reason), game.id)
    return row


def withdraw_appeal(session: Session, game: Game, appeal_id: int, actor: str, reason: str) -> Appeal:
    """Take an appeal back (entered by mistake, or withdrawn by the player)."""
    return _withdraw(session, game, Appeal, appeal_id, "appeal", actor, reason)


def undo_sanction(session: Session, game: Game, sanction_id: int, actor: str, reason: str) -> Sanction:
    """Withdraw a sanction (D 6.4: a sanction reversed on appeal)."""
    return _withdraw(session, game, Sanction, sanction_id, "sanction", actor, reason)


def reopen_results(session: Session, game: Game, actor: str, reason: str) -> None:
    """The one way back from final results: explicit, with its reason in the audit log. The game
    takes corrections and appeals again until `results final` is published anew."""
    if game.status != "final":
        raise WorkflowError(f"game {game.id}: the results are not final (status {game.status}); nothing to reopen")
    if not reason.strip():
        raise WorkflowError("--reason: say why final results are reopened")
    game.status = "reopened"
    record(session, actor, Change("results.reopen", "game", game.id, before={"status": "final"},
                                  after={"status": "reopened"}, reason=reason), game.id)


def sanctions(session: Session, game: Game) -> list[Sanction]:
    return list(session.scalars(select(Sanction).where(Sanction.game_id == game.id).order_by(Sanction.id)))


def appeals(session: Session, game: Game) -> list[Appeal]:
    return list(session.scalars(select(Appeal).where(Appeal.game_id == game.id).order_by(Appeal.id)))


def finalise(store, game_id: int, actor: str, now: datetime, force_reason: str | None = None) -> bool:
    """`results final`: judge the whole game again first (every sanction and appeal counted as
    stored), and publish only if that succeeds, so the final totals are the judge's of today.
    False, and nothing changed, when the game is final already: the caller writes the final files
    again (a crash after the publication left the provisional ones on disk)."""
    from exitcodes import FluturasError

    from ..round.correction import recorrect
    from ..store.games import get_game

    with store.session() as session:
        game = get_game(session, game_id)
        if game.status == "final":
            return False
        waiting = blockers(session, game)
    if not waiting:
        try:
            recorrect(store, game_id, actor)
        except FluturasError as exc:
            raise WorkflowError(f"results final refused: the game cannot be corrected again ({exc}); "
                                f"withdraw or fix what is named (`fluturas undo`)") from exc
    with store.session() as session:
        publish(session, get_game(session, game_id), "final", actor, now=now, force_reason=force_reason)
    return True
