"""The review queue: accept or correct; two arbiters clearing the same item at once — one
wins, the other is told, and the loser's correction is kept in the audit log."""
from __future__ import annotations

import multiprocessing

import pytest
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.errors import ReviewConflict, WorkflowError
from arbiter.slips.ingest import file_reading
from arbiter.store.models import ReviewItem, Slip
from arbiter.slips.readings import parse_reading
from arbiter.review.review import queue, resolve

from .helpers import ARBITER, make_game, race_resolve, reading


def unsure_slip(store, tmp_path, table=2):
    game_id = make_game(store, tmp_path)
    file_reading(store, game_id, 1, parse_reading(reading(table, word="M0DEL", confidence=0.4), "t", 0.9),
                 ARBITER, lambda o, n: "new")
    with store.session() as s:
        (entry,) = queue(s, game_id)
    return game_id, entry


def test_queue_shows_image_reading_and_correction_applies(store, tmp_path):
    game_id, entry = unsure_slip(store, tmp_path)
    assert entry.source == "scans/t2.png" and entry.content["word"] == "M0DEL" and entry.table is None
    resolve(store, entry.item_id, entry.version, "ana", {"table": 2, "word": "MODEL"}, "0 is O")
    with store.session() as s:
        slip = s.scalar(select(Slip))
        assert (slip.table_no, slip.content["word"]) == (2, "MODEL")
        assert queue(s, game_id) == []
        actions = [(e.action, e.actor) for e in entries(s, game_id)][-2:]
    assert actions == [("slip.correct", "ana"), ("review.resolve", "ana")]


def test_stale_version_is_told_and_changes_nothing(store, tmp_path):
    game_id, entry = unsure_slip(store, tmp_path)
    resolve(store, entry.item_id, entry.version, "ana", {"table": 2}, "the table is 2")
    with pytest.raises(ReviewConflict, match="already resolved by ana"):
        resolve(store, entry.item_id, entry.version, "bogdan", {"word": "MODELA"}, "")
    with store.session() as s:
        assert s.scalar(select(Slip)).content["word"] == "M0DEL"
        (conflict,) = entries(s, game_id, "review.conflict")
        assert conflict.actor == "bogdan" and conflict.after["correction"] == {"word": "MODELA"}


def test_bad_correction_leaves_the_item_open(store, tmp_path):
    game_id, entry = unsure_slip(store, tmp_path)
    with pytest.raises(WorkflowError, match="table 7 is not seated"):
        resolve(store, entry.item_id, entry.version, "ana", {"table": 7})
    with pytest.raises(WorkflowError, match="correction field 'colour'"):
        resolve(store, entry.item_id, entry.version, "ana", {"colour": 1})
    with store.session() as s:
        assert s.scalar(select(ReviewItem)).state == "open"


@pytest.mark.parametrize("attempt", range(2))
def test_two_processes_clear_the_same_item(store, store_url, tmp_path, attempt):
    game_id, entry = unsure_slip(store, tmp_path)
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=race_resolve, args=(store_url, entry.item_id, entry.version, actor, word,
                                                    barrier, results))
             for actor, word in (("ana", "MODEL"), ("bogdan", "MODELA"))]
    for p in procs:
        p.start()
    outcome = sorted(results.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    kinds = sorted(o[1] for o in outcome)
    assert kinds == ["conflict", "won"]
    winner = next(o for o in outcome if o[1] == "won")[0]
    loser = next(o for o in outcome if o[1] == "conflict")
    assert f"already resolved by {winner}" in loser[2]
    with store.session() as s:
        item = s.get(ReviewItem, entry.item_id)
        assert (item.state, item.resolved_by, item.version) == ("resolved", winner, entry.version + 1)
        assert s.scalar(select(Slip)).content["word"] == {"ana": "MODEL", "bogdan": "MODELA"}[winner]
        assert [e.actor for e in entries(s, game_id, "review.resolve")] == [winner]
        assert [e.actor for e in entries(s, game_id, "review.conflict")] == [loser[0]]
