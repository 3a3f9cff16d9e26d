"""The queue page's data: the round's open review items as cards, the ones that change the most
points first, each with its candidates (the decoder's `candidates` column when the store has it),
its doubtful boxes and its claim; and the decision a typed correction would give, before saving."""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import click

from sqlalchemy import inspect, select, text
from sqlalchemy.orm import Session

from ..review.claims import live_claimant
from ..errors import WorkflowError
from ..store.games import players
from ..round.judging import build_case, decisions_of, run_judge
from ..store.models import Game, ReviewItem, Round, Slip
from ..slips.readings import ALIASES, NUMERIC, read_field
from ..review.review import QueueEntry, normalise_correction, queue

SURE_AT = 0.95  # `round scan`'s default threshold, for readings without the scanner's `accepted`
SLIP_FIELDS = ("round", "table", "score", "position", "word", "jokers")


@dataclass(frozen=True)
class Card:
    entry: QueueEntry
    stake: int
    candidates: tuple[dict[str, Any], ...]
    claimed_by: str | None
    doubtful: dict[str, list[int] | None]
    player: str | None = None  # the name seated at the card's table (the seating), for the arbiter's eye


def candidates_of(session: Session, item: ReviewItem, has_column: bool | None = None) -> list[dict[str, Any]]:
    """The decoder's competing readings of the item (a nullable JSON column), or none."""
    found = getattr(item, "candidates", None)
    if has_column is None:
        has_column = "candidates" in _review_columns(session)
    if found is None and has_column:
        found = session.execute(text("SELECT candidates FROM review_item WHERE id = :i"), {"i": item.id}).scalar()
        if isinstance(found, str):
            import json

            found = json.loads(found)
    return [c for c in found or [] if isinstance(c, dict) and isinstance(c.get("reading"), dict)]


def _review_columns(session: Session) -> set[str]:
    return {c["name"] for c in inspect(session.get_bind()).get_columns("review_item")}


def doubtful_fields(reading: dict[str, Any] | None, candidates: list[dict[str, Any]]) -> dict[str, list[int] | None]:
    """Boxes to outline: the candidates' own when given, else every field the scanner was unsure of."""
    out: dict[str, list[int] | None] = {}
    for cand in candidates:
        for box in cand.get("boxes") or []:
            if isinstance(box, dict) and box.get("field"):
                indices = out.setdefault(str(box["field"]), [])
                if indices is not None and isinstance(box.get("index"), int) and box["index"] not in indices:
                    indices.append(box["index"])
    if out or not reading:
        return out
    fields = {str(k).lower(): v for k, v in (reading.get("fields") or {}).items()}
    for name, aliases in ALIASES.items():
        item = next((fields[a] for a in aliases if a in fields), None)
        if item is not None and not read_field(item, name, "reading", SURE_AT, name in NUMERIC).sure:
            out[name] = None
    return out


def stake(entry: QueueEntry, candidates: list[dict[str, Any]]) -> int:
    """Points that depend on the arbiter's answer: the spread of the candidates' credited points,
    else what the slip claims (or the decision credits)."""
    credited = [c.get("outcome", {}).get("credited") for c in candidates]
    credited = [p for p in credited if isinstance(p, int)]
    if len(credited) > 1:
        return max(credited) - min(credited)
    if credited:
        return credited[0]
    if entry.decision and isinstance(entry.decision.get("credited"), int):
        return max(entry.decision["credited"], entry.decision.get("score") or 0)
    score = (entry.content or {}).get("score")
    return score if isinstance(score, int) else 0


def current_round(session: Session, game: Game) -> int | None:
    """The lowest round with open items, else the newest round."""
    waiting = session.scalar(select(Round.number).join(ReviewItem, ReviewItem.round_id == Round.id)
                             .where(ReviewItem.game_id == game.id, ReviewItem.state == "open")
                             .order_by(Round.number).limit(1))
    if waiting is not None:
        return waiting
    return session.scalar(select(Round.number).where(Round.game_id == game.id).order_by(Round.number.desc()).limit(1))


def in_range(table: int | None, tables: tuple[int, int] | None) -> bool:
    """A table range filter (D 5.5.f); an item without a table shows in every range."""
    return tables is None or table is None or tables[0] <= table <= tables[1]


def by_probability(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates most likely first (the decoder lists the rest by points at stake): the number
    the arbiter presses is the candidate's rank."""
    def likely(c: dict[str, Any]) -> float:
        p = c.get("probability")
        return float(p) if isinstance(p, (int, float)) else 0.0

    return sorted(candidates, key=lambda c: -likely(c))


def cards(session: Session, game: Game, round_no: int | None, tables: tuple[int, int] | None = None,
          now: datetime | None = None) -> list[Card]:
    waiting = select(ReviewItem.slip_id).where(ReviewItem.game_id == game.id, ReviewItem.state == "open")
    slips = {s.id: s for s in session.scalars(select(Slip).where(Slip.id.in_(waiting)))}  # held: one query, not 60
    entries = [e for e in queue(session, game.id, round_no) if in_range(e.table, tables)]
    items = {i.id: i for i in session.scalars(select(ReviewItem).where(ReviewItem.id.in_([e.item_id for e in entries])))}
    has_column = "candidates" in _review_columns(session)
    names = {p.table_no: p.name for p in players(session, game)}
    out = []
    for e in entries:
        item = items[e.item_id]
        cands = candidates_of(session, item, has_column)
        slip = slips.get(e.slip_id)
        out.append(Card(e, stake(e, cands), tuple(by_probability(cands)), live_claimant(item, now),
                        doubtful_fields(slip.reading if slip else None, cands), names.get(e.table)))
    return sorted(out, key=lambda c: (-c.stake, c.entry.table if c.entry.table is not None else -1, c.entry.item_id))


def correction_from(content: dict[str, Any] | None, reading: dict[str, Any]) -> dict[str, Any]:
    """The fields of a candidate reading that differ from the stored slip: what resolving applies.
    The candidate's table is always given: a slip filed under no table (its table unreadable)
    takes the table the candidate names, even when the unsure reading already said it."""
    content = content or {}
    out = {k: reading[k] for k in SLIP_FIELDS if k in reading and reading[k] != content.get(k)}
    if reading.get("table") is not None:
        out["table"] = reading["table"]
    return out


def parse_correction(typed: str) -> dict[str, Any]:
    """A typed correction (`masa=12 depunere=MODEL poz=H4`) read as `fluturas review` reads its
    `c ...` answer (commands.common.parse_fields, then review.normalise_correction): the preview
    and the save of the web page take this one path, so they agree with each other and the CLI.
    A refusal is a WorkflowError naming the field."""
    from ..commands.common import parse_fields

    try:
        tokens = shlex.split(typed)
    except ValueError as exc:
        raise WorkflowError(f"correction {typed!r}: {exc} (quote a value with spaces as word=\"...\")") from exc
    fields: dict[str, Any] = {}
    for token in tokens:
        try:
            fields.update(parse_fields([token]))
        except (click.BadParameter, ValueError) as exc:
            if isinstance(exc, click.BadParameter):
                raise WorkflowError(f"correction {exc.message}") from exc
            raise WorkflowError(f"correction field {token.partition('=')[0]}: expected a whole number") from exc
    return normalise_correction(fields)


def preview_decision(session: Session, game: Game, round_no: int, content: dict[str, Any]) -> dict[str, Any] | None:
    """The judge's decision for the slip as corrected, computed on the whole stored game (warnings
    count in round order) and stored nowhere: what saving would give."""
    table = content.get("table")
    if not isinstance(table, int):
        return None
    case, _held = build_case(session, game, round_no)
    for rnd in case["rounds"]:
        if rnd["round"] == round_no:
            rnd["slips"] = [s for s in rnd["slips"] if s.get("player_table", s.get("table")) != table]
            rnd["slips"].append({k: content.get(k) for k in SLIP_FIELDS} | {"jokers": list(content.get("jokers") or [])})
            rnd["slips"].sort(key=lambda s: s.get("table") or 0)
    return decisions_of(run_judge(case, "the slip as corrected")).get((round_no, table))
