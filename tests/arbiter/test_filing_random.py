"""Issue 21, acceptance: ten rounds of forty slips where every player writes the top and tables
are misread at random (as another seated table, read for sure; as a table nobody sits at; or
unsure), some slips scanned twice, piles in any order, `--keep` old or new at random. No slip is
lost (every paper is in the store), and every seated table is either decided right (a filed slip
with the top and no open item) or in review (its own slip, or a slip filed under it, waits for an
arbiter, or a waiting slip's item names it as a table without a slip). Yesterday two papers with the same move and the same (misread) table were taken for
one and the second was dropped. Real store (SQLite, and PostgreSQL when configured), the real
`round scan` path (`arbiter.slips.roundscan.scan_round`) on readings records."""
from __future__ import annotations

import hashlib
import random

from sqlalchemy import select

from arbiter.store.games import GameSpec, new_game, seat_players
from arbiter.store.models import ReviewItem, Round, Slip
from arbiter.slips.roundscan import scan_round
from arbiter.store.seating import Seat

from .helpers import ARBITER, write_jsonl

TABLES, ROUNDS = 40, 10
TOP = {"position": "H4", "word": "MODEL", "score": 26}


def _game(store, tmp_path) -> int:
    words = tmp_path / "words.txt"
    words.write_text("MODEL\nMODELA\n", encoding="utf-8")
    with store.session() as s:
        game = new_game(s, GameSpec("Cupa", "Partida", wordlist=words), ARBITER)
        seat_players(s, game, [Seat(t, f"Jucător {t}", "CS", None, t + 1) for t in range(1, TABLES + 1)],
                     ARBITER, "seats.csv")
        for number in range(1, ROUNDS + 1):  # the rounds as laid out; filing needs no board
            s.add(Round(game_id=game.id, number=number, rack="AELMODR", rack_source="manual"))
        return game.id


def _record(rnd: int, owner: int, read_as: int | None, table_confidence: float) -> dict:
    sha = hashlib.sha256(f"paper {rnd} {owner}".encode()).hexdigest()
    return {"source": f"scans/r{rnd}-t{owner}.png", "sha256": sha, "slip_index": 0,
            "fields": {"round": {"text": f"{rnd:02d}", "confidence": 0.99},
                       "table": {"text": "" if read_as is None else f"{read_as:03d}", "confidence": table_confidence},
                       "score": {"text": str(TOP["score"]), "confidence": 0.99},
                       "position": {"text": TOP["position"], "confidence": 0.99},
                       "word": {"text": TOP["word"], "confidence": 0.99, "jokers": []}}}


def _pile(rng: random.Random, rnd: int) -> list[dict]:
    records = []
    for owner in range(1, TABLES + 1):
        roll = rng.random()
        if roll < 0.15:  # read for sure as another seated player's table
            record = _record(rnd, owner, rng.choice([t for t in range(1, TABLES + 1) if t != owner]), 0.99)
        elif roll < 0.20:  # read as a table nobody sits at
            record = _record(rnd, owner, rng.randint(TABLES + 1, 999), 0.99)
        elif roll < 0.25:  # unsure
            record = _record(rnd, owner, owner, 0.4)
        else:
            record = _record(rnd, owner, owner, 0.99)
        records.append(record)
        if rng.random() < 0.05:  # the same page fed twice
            records.append(record)
    rng.shuffle(records)
    return records


def _names(reason: str, table: int) -> bool:
    """Whether a review item tells the arbiter that `table` has no slip (one waiting may be its own)."""
    from arbiter.slips.ingest import MISSING_NOTE

    if MISSING_NOTE not in reason:
        return False
    listed = reason.split(MISSING_NOTE)[1].split(" (")[0]
    return str(table) in listed.split(", ")


def _check_round(store, game_id: int, rnd_number: int) -> dict[str, int]:
    with store.session() as s:
        rnd = s.scalar(select(Round).where(Round.game_id == game_id, Round.number == rnd_number))
        slips = list(s.scalars(select(Slip).where(Slip.round_id == rnd.id)))
        items = list(s.scalars(select(ReviewItem).where(ReviewItem.round_id == rnd.id, ReviewItem.state == "open")))
        waiting = {i.slip_id for i in items if i.slip_id is not None}
        owners = {slip.id: int(slip.source.rsplit("-t", 1)[1].split(".")[0]) for slip in slips}
        assert sorted(owners.values()) == list(range(1, TABLES + 1)), "a slip was lost or filed twice"
        assert all(slip.state != "discarded" for slip in slips), "a paper was dropped as a duplicate"
        tally = {"decided": 0, "review": 0}
        for table in range(1, TABLES + 1):
            filed = [x for x in slips if x.state == "filed" and x.table_no == table]
            own = [x for x in slips if owners[x.id] == table]
            clean = [x for x in filed if x.id not in waiting]
            in_review = (any(x.id in waiting for x in own) or any(i.table_no == table for i in items)
                         or any(_names(i.reason, table) for i in items))
            right = bool(clean) and all(clean[0].content.get(k) == v for k, v in TOP.items())
            assert right or in_review, f"round {rnd_number}, table {table}: neither decided right nor in review"
            tally["decided" if right and not in_review else "review"] += 1
        return tally


def test_ten_rounds_of_forty_slips_with_misread_tables_lose_nothing(store, tmp_path):
    game_id = _game(store, tmp_path)
    rng = random.Random(2121)
    totals = {"decided": 0, "review": 0}
    for number in range(1, ROUNDS + 1):
        records = _pile(rng, number)
        cut = rng.randint(1, len(records) - 1)  # two piles, the second may repeat a page of the first
        piles = [records[:cut], records[cut:] + rng.sample(records[:cut], 2)]
        for k, pile in enumerate(piles):
            path = write_jsonl(tmp_path / f"r{number}-{k}.jsonl", pile)
            scan_round(store, game_id, number, [path], None, "cnn", ARBITER,
                       lambda old, new: rng.choice(["old", "new"]))
        tally = _check_round(store, game_id, number)
        totals = {k: totals[k] + tally[k] for k in totals}
    assert totals["decided"] + totals["review"] == TABLES * ROUNDS
    assert totals["decided"] > TABLES * ROUNDS // 2  # most of the room is decided, not everything queued
