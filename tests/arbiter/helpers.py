"""Building blocks for the store tests: a game with seats and rounds, readings, a judge output
in the documented shape of issue 4 (written out by hand, as a fixture)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbiter.store.games import GameSpec, get_game, new_game, seat_players
from arbiter.round.rack import set_rack
from arbiter.round.tops import set_continuation
from arbiter.store.seating import Seat
from arbiter.store.store import Store

ARBITER = "arbitru-test"


def make_game(store: Store, tmp: Path, tables: int = 3) -> int:
    words = tmp / "words.txt"
    words.write_text("MODEL\nMODELA\nAMOR\n", encoding="utf-8")
    with store.session() as s:
        game = new_game(s, GameSpec("Cupa Test", "Partida 1", wordlist=words), ARBITER)
        seat_players(s, game, [Seat(t, f"Jucător {t}", "CS Test", None, t + 1) for t in range(1, tables + 1)],
                     ARBITER, "seats.csv")
        rnd = set_rack(s, game, "AELMODR", ARBITER)
        set_continuation(s, game, rnd, "H4 MODEL", ARBITER)
        return game.id


def reading(table: int | None, word: str = "MODEL", score: int = 26, position: str = "H4", rnd: int = 1,
            sha: str | None = None, confidence: float = 0.99, index: int = 0) -> dict[str, Any]:
    fields = {"round": {"text": f"{rnd:02d}", "confidence": 0.99},
              "table": {"text": "" if table is None else f"{table:03d}", "confidence": confidence},
              "score": {"text": str(score), "confidence": 0.99},
              "position": {"text": position, "confidence": 0.99},
              "word": {"text": word, "confidence": confidence, "jokers": []}}
    return {"source": f"scans/t{table}.png", "sha256": sha or f"{table or 0:064x}", "slip_index": index,
            "fields": fields}


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def judge_output(tables: dict[int, list[int]], warnings: dict[tuple[int, int], str] | None = None,
                 flags: dict[tuple[int, int], list[str]] | None = None) -> dict[str, Any]:
    """A judge output with the given credited points per table per round (totals summed)."""
    warnings, flags = warnings or {}, flags or {}
    rounds = []
    n = len(next(iter(tables.values())))
    for r in range(1, n + 1):
        decisions = []
        for t, points in tables.items():
            p = points[r - 1]
            decisions.append({"table": t, "status": "valid" if p else "incorrect", "score": p, "credited": p,
                              "warning": warnings.get((r, t)), "penalty": None,
                              "articles": ["D 6.2.d"] if (r, t) in warnings else [],
                              "explanation": {"ro": "explicație", "en": "explanation"},
                              "flags": flags.get((r, t), [])})
        rounds.append({"round": r, "decisions": decisions})
    totals = {t: sum(p) for t, p in tables.items()}
    top = max(totals.values())
    order = sorted(totals.values(), reverse=True)
    return {"rounds": rounds, "top_total": top,
            "tables": [{"table": t, "total": v, "warnings": sum(1 for (r, tt) in warnings if tt == t), "penalties": 0,
                        "solos": 0, "disciplinary": 0, "eliminated": False, "rank": order.index(v) + 1,
                        "percent_of_top": round(100 * v / top, 2)} for t, v in totals.items()]}


def game_of(store: Store, game_id: int):
    with store.session() as s:
        return get_game(s, game_id)


def race_resolve(url: str, item_id: int, version: int, actor: str, word: str, barrier, results) -> None:
    """One arbiter's process: wait for the other, then clear the same queue item."""
    from arbiter.errors import ReviewConflict
    from arbiter.review.review import resolve
    from arbiter.store.store import open_store

    store = open_store(url)
    barrier.wait(timeout=30)
    try:
        resolve(store, item_id, version, actor, {"word": word}, reason=f"{actor} read {word}")
        results.put((actor, "won", ""))
    except ReviewConflict as exc:
        results.put((actor, "conflict", str(exc)))
    finally:
        store.close()
