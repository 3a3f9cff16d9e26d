"""Two small pieces every correction shares (classic and anticipation): which slips still wait in
review, and setting a stored row only when something changed. Their own module, so the judge and
the anticipation correction can both use them without importing each other."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import ReviewItem, Round


def held_slips(session: Session, rnd: Round) -> set[int]:
    """Slips whose reading is still in the review queue: not judged until an arbiter has looked."""
    return set(session.scalars(select(ReviewItem.slip_id).where(ReviewItem.round_id == rnd.id,
                                                                ReviewItem.kind == "reading",
                                                                ReviewItem.state == "open")))


def upsert_fields(row: Any, new: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any] | None:
    """Set `new` on `row`; the old values when something changed, {} for a new row, None if
    unchanged (so re-running a correction stores and audits nothing new)."""
    before = {f: getattr(row, f) for f in fields} if row.id is not None else {}
    if before == new:
        return None
    for f, v in new.items():
        setattr(row, f, v)
    return before
