"""Is a round's judgement still the judgement of its slips? `round correct` keeps, per round, what
it gave the judge (`round.judged`: table → slip and a hash of its content, migration 0008). A slip
filed, corrected, moved, set aside or brought back since (a late slip, a scan running beside the
correction, a review after it) makes the round inconsistent: `status` names its tables, and the
results are not published from it until `round correct` runs again (D 6.5: what is published is
what the judge decided on the slips as they stand)."""
from __future__ import annotations

import hashlib
import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import Game, Round, Slip
from .rows import held_slips


def judged_view(session: Session, rnd: Round) -> dict[str, str]:
    """What the judge is given of the round: each table's filed slip and its content, as text.
    Slips held in review are not given (they count as missing until reviewed)."""
    held = held_slips(session, rnd)
    out = {}
    for slip in session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                   Slip.table_no.is_not(None))):
        if slip.id in held:
            continue
        digest = hashlib.sha256(json.dumps(slip.content, sort_keys=True, default=str).encode()).hexdigest()[:16]
        out[str(slip.table_no)] = f"{slip.id}:{digest}"
    return out


def views(session: Session, game: Game, through: int | None = None) -> dict[int, dict[str, str]]:
    """`judged_view` of every round up to `through` (all rounds without it), by round id."""
    query = select(Round).where(Round.game_id == game.id)
    if through is not None:
        query = query.where(Round.number <= through)
    return {rnd.id: judged_view(session, rnd) for rnd in session.scalars(query)}


def keep_judged(session: Session, judged: dict[int, dict[str, str]]) -> None:
    """Store, after the judge's decisions, what it was given (taken when the case was built)."""
    for round_id, view in judged.items():
        rnd = session.get(Round, round_id)
        if rnd is not None and rnd.judged != view:
            rnd.judged = view


def changed_tables(session: Session, rnd: Round) -> list[int]:
    """Tables whose slip differs from what the last correction judged (every table with a slip
    when the round was never corrected)."""
    now = judged_view(session, rnd)
    then = rnd.judged or {}
    return sorted(int(t) for t in set(now) | set(then) if now.get(t) != then.get(t))


def unjudged(session: Session, game: Game) -> list[str]:
    """Each round whose slips are not what was judged, naming its tables, for a refusal."""
    out = []
    for rnd in session.scalars(select(Round).where(Round.game_id == game.id).order_by(Round.number)):
        tables = changed_tables(session, rnd)
        if tables:
            what = "never corrected" if rnd.judged is None else "filed or changed since the last correction"
            out.append(f"round {rnd.number}: tables {', '.join(map(str, tables))} {what}")
    return out
