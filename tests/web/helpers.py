"""A game whose round holds flagged slips, built through the real workflow (seating, rack, top,
readings filed with low confidence → review items), and the decoder's `candidates` written on an
item the way the decoder stores them (a nullable JSON column on review_item)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

from arbiter.slips.ingest import file_reading
from arbiter.slips.readings import parse_reading
from arbiter.review.review import queue
from arbiter.store.store import Store

from tests.arbiter.helpers import ARBITER, make_game, reading


def flagged_round(store: Store, tmp: Path, tables: int = 3, unsure: dict[int, str] | None = None,
                  scores: dict[int, int] | None = None) -> int:
    """A game with `tables` seats, round 1 (AELMODR, top H4 MODEL); each table's slip is filed
    from a reading; tables in `unsure` have their word read as given, with low confidence."""
    game_id = make_game(store, tmp, tables)
    unsure = unsure if unsure is not None else {t: "M0DEL" for t in range(1, tables + 1)}
    for t in range(1, tables + 1):
        word = unsure.get(t, "MODEL")
        record = reading(t, word=word, score=(scores or {}).get(t, 26), confidence=0.4 if t in unsure else 0.99,
                         sha=f"{t:064x}")
        record["fields"]["table"]["confidence"] = 0.99
        file_reading(store, game_id, 1, parse_reading(record, f"t{t}", 0.9), ARBITER, lambda o, n: "new")
    return game_id


def write_candidates(store: Store, item_id: int, candidates: list[dict[str, Any]]) -> None:
    """Store the decoder's competing readings on a review item (its `candidates` JSON column,
    added here when the store predates it)."""
    with store.engine.begin() as conn:
        if "candidates" not in {c["name"] for c in inspect(conn).get_columns("review_item")}:
            conn.execute(text("ALTER TABLE review_item ADD COLUMN candidates JSON"))
        conn.execute(text("UPDATE review_item SET candidates = :c WHERE id = :i"),
                     {"c": json.dumps(candidates), "i": item_id})


def candidate(table: int, word: str, score: int, p: float, status: str, credited: int,
              warning: str | None = None, articles: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"reading": {"table": table, "round": 1, "position": "H4", "word": word, "jokers": [], "score": score},
            "probability": p, "outcome": {"status": status, "credited": credited, "warning": warning,
                                          "penalty": None, "articles": list(articles)},
            "boxes": [{"field": "word", "index": 1}]}


def open_items(store: Store, game_id: int):
    with store.session() as s:
        return queue(s, game_id)
