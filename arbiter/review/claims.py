"""Claims on review items: the arbiters split the tables between them (D 5.5.f), and the item one
of them has open in the web queue is theirs for a while, so two never read the same slip at once.

A claim is a conditional UPDATE (free, already ours, or expired), the same compare-and-set idea as
`review.resolve`, so exactly one of two arbiters claiming at once gets the item. A claim does not
touch the item's `version`: resolving stays the only compare-and-set that decides a save, and a
claim that expired while its holder typed never lets a stale save through (resolve refuses it)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, update

from exitcodes import ExitCode

from ..errors import WorkflowError
from ..store.freetext import check_text
from ..store.models import ReviewItem, utcnow
from ..store.store import Store

CLAIM_TTL = timedelta(minutes=5)  # an arbiter who walked away frees the item after this


class ClaimConflict(WorkflowError):
    """Another arbiter holds a live claim on the item; nothing was changed."""

    exit_code = ExitCode.CONFLICT


@dataclass(frozen=True)
class Claim:
    item_id: int
    by: str
    at: datetime
    version: int


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive date-times; claims are stored in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=utcnow().tzinfo)


def live_claimant(item: ReviewItem, now: datetime | None = None, ttl: timedelta = CLAIM_TTL) -> str | None:
    """Who holds a claim on the item that has not expired, if anyone."""
    at = _aware(item.claimed_at)
    if item.claimed_by is None or at is None or at < (now or utcnow()) - ttl:
        return None
    return item.claimed_by


def claim(store: Store, item_id: int, actor: str, now: datetime | None = None,
          ttl: timedelta = CLAIM_TTL, game_id: int | None = None) -> Claim:
    """Take (or renew) the claim on an open item; ClaimConflict names the live holder. With
    `game_id` (the game the web app serves) an item of another game is refused, not claimed."""
    if not actor.strip():
        raise WorkflowError("a claim needs the arbiter's name")
    check_text(actor, "--arbiter", required=True, longest=100)  # as the audit log checks who saves
    now = now or utcnow()
    with store.session() as session:
        if game_id is not None:
            owner = session.scalar(select(ReviewItem.game_id).where(ReviewItem.id == item_id))
            if owner is not None and owner != game_id:
                raise WorkflowError(f"review item {item_id} is not in game {game_id}")
        won = session.execute(
            update(ReviewItem)
            .where(ReviewItem.id == item_id, ReviewItem.state == "open",
                   or_(ReviewItem.claimed_by.is_(None), ReviewItem.claimed_by == actor,
                       ReviewItem.claimed_at.is_(None), ReviewItem.claimed_at < now - ttl))
            .values(claimed_by=actor, claimed_at=now)
            .execution_options(synchronize_session=False)).rowcount == 1
        item = session.get(ReviewItem, item_id)
        if item is None:
            raise WorkflowError(f"review item {item_id} does not exist")
        session.refresh(item)
        if not won:
            if item.state != "open":
                raise ClaimConflict(f"review item {item_id} was already {item.state} by {item.resolved_by}")
            at = _aware(item.claimed_at)
            raise ClaimConflict(f"review item {item_id} is being reviewed by {item.claimed_by} "
                                f"(since {at:%H:%M:%S} UTC)")
        return Claim(item_id, actor, now, item.version)


def release(store: Store, item_id: int, actor: str) -> bool:
    """Give the item back (skipping it, or after saving); only the holder's own claim is released."""
    with store.session() as session:
        return session.execute(
            update(ReviewItem).where(and_(ReviewItem.id == item_id, ReviewItem.claimed_by == actor))
            .values(claimed_by=None, claimed_at=None)
            .execution_options(synchronize_session=False)).rowcount == 1
