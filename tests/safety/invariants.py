"""What a tournament store may never hold, whatever was typed (issue 21: bounds and validation on
every number, date and text that reaches the store): ranks of 1 or more, scores and totals within
what a game can make, rulings with their stable names, and no control characters in any text (a
name, a reason, a reading — they end up in a spreadsheet and on printed pages). Read with plain
sqlite3, so it judges the file as any reader would; the fuzz benchmark checks it after each example."""
from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corrector.judging.rulings import PenaltyKind, Status, WarningKind

MOVE_MAX = 2_000  # more than any move can score on a 15×15 board (the record is under 1,800)
TABLE_MAX = 10_000
TOTAL_MIN = -10_000  # warnings (5 each), disciplinary (−20) and penalties over a long game stay far above
ROUND_MAX = 100


def control_character(text: str) -> str | None:
    """The first character a sheet or a page cannot carry (the rule of `arbiter.store.freetext`): C0
    controls but tab and line breaks, DEL and C1 controls, lone surrogates."""
    for ch in text:
        code = ord(ch)
        if (code < 32 and ch not in "\t\n\r") or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000:
            return f"U+{code:04X}"
    return None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _texts(conn: sqlite3.Connection, table: str) -> Iterator[tuple[str, int, str]]:
    """(column, row id, text) of every string held in the table, JSON values walked."""
    columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
    for row in conn.execute(f'SELECT rowid, * FROM "{table}"'):
        for column, value in zip(columns, row[1:]):
            if not isinstance(value, str):
                continue
            parsed: Any = value
            if value[:1] in "[{":
                try:
                    parsed = json.loads(value)
                except ValueError:
                    parsed = value
            for text in _strings(parsed):
                yield column, row[0], text


def _column(conn: sqlite3.Connection, table: str, column: str) -> list[tuple[int, Any]]:
    have = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
    if column not in have:
        return []
    return list(conn.execute(f'SELECT rowid, "{column}" FROM "{table}"'))


def violations(db: Path) -> set[str]:
    """Every broken invariant of the store, one stable line each (compare two runs as sets)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        found: set[str] = set()

        def bound(table: str, column: str, low: float | None, high: float | None, nullable: bool = True) -> None:
            if table not in tables:
                return
            for rowid, value in _column(conn, table, column):
                if value is None:
                    if not nullable:
                        found.add(f"{table}.{column} row {rowid}: empty")
                    continue
                if not isinstance(value, (int, float)) or isinstance(value, float) and not math.isfinite(value) \
                        or (low is not None and value < low) or (high is not None and value > high):
                    found.add(f"{table}.{column} row {rowid}: {value!r} outside {low}..{high}")

        def named(table: str, column: str, names: set[str]) -> None:
            if table not in tables:
                return
            for rowid, value in _column(conn, table, column):
                if value is not None and value not in names:
                    found.add(f"{table}.{column} row {rowid}: unknown ruling {value!r}")

        players = conn.execute("SELECT COUNT(*) FROM player").fetchone()[0] if "player" in tables else TABLE_MAX
        rounds = conn.execute("SELECT COUNT(*) FROM round").fetchone()[0] if "round" in tables else ROUND_MAX
        total_max = MOVE_MAX * max(rounds, 1) + 10 * max(rounds, 1)  # every round at the bound, plus its solo
        bound("standing", "rank", 1, max(players, 1))
        bound("standing", "total", TOTAL_MIN, total_max, nullable=False)
        bound("standing", "percent_of_top", -1_000, 1_000)
        bound("game", "top_total", 0, total_max)
        bound("decision", "score", 0, MOVE_MAX, nullable=False)
        bound("decision", "credited", 0, MOVE_MAX, nullable=False)
        bound("round", "top_score", 0, MOVE_MAX)
        bound("round", "number", 1, ROUND_MAX, nullable=False)
        for table in ("player", "decision", "standing", "sanction", "appeal"):
            bound(table, "table_no", 1, TABLE_MAX, nullable=False)
        for table in ("slip", "review_item"):
            bound(table, "table_no", 1, TABLE_MAX)
        for table in ("sanction", "appeal"):
            bound(table, "round_no", 1, ROUND_MAX)
        named("decision", "status", {s.name for s in Status})
        named("decision", "warning", {w.name for w in WarningKind})
        named("decision", "penalty", {p.name for p in PenaltyKind})
        for table in sorted(tables):
            for column, rowid, text in _texts(conn, table):
                bad = control_character(text)
                if bad:
                    found.add(f"{table}.{column} row {rowid}: control character {bad}")
        return found
    finally:
        conn.close()
