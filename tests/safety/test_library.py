"""The undo functions as the review web page will call them (`arbiter.review.review`, `arbiter.results.results`),
on SQLite and, under `.ci/postgres.sh`, PostgreSQL: each change kept, audited and undoable."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.errors import WorkflowError
from arbiter.store.games import get_game
from arbiter.slips.ingest import file_reading
from arbiter.round.judging import build_case
from arbiter.store.models import Appeal, ReviewItem, Sanction, Slip
from arbiter.slips.readings import parse_reading
from arbiter.results.results import add_appeal, add_sanction, reopen_results, undo_sanction, withdraw_appeal
from arbiter.review.review import discard_slip, move_slip, reopen_item, resolve

from tests.arbiter.helpers import ARBITER, make_game, reading

NOW = datetime(2026, 11, 22, 17, 0, tzinfo=timezone.utc)


def unsure(store, tmp_path):
    game_id = make_game(store, tmp_path)
    file_reading(store, game_id, 1, parse_reading(reading(None, confidence=0.2), "t", 0.9), ARBITER,
                 lambda o, n: "new")
    with store.session() as s:
        return game_id, s.scalar(select(ReviewItem)), s.scalar(select(Slip))


def test_discard_then_reopen_brings_the_slip_back(store, tmp_path):
    game_id, item, slip = unsure(store, tmp_path)
    with pytest.raises(WorkflowError, match="filed under no table"):
        resolve(store, item.id, item.version, "ana", None, "ok")
    with store.session() as s:
        discard_slip(s, get_game(s, game_id), slip.id, "not-a-slip", "ana", "blank page")
    with store.session() as s:
        assert s.get(Slip, slip.id).state == "discarded" and s.get(ReviewItem, item.id).state == "resolved"
        case, _ = build_case(s, get_game(s, game_id))
        assert case["rounds"][0]["slips"] == []
        reopen_item(s, get_game(s, game_id), item.id, "ana", "it was a slip")
    with store.session() as s:
        assert s.get(Slip, slip.id).state == "filed" and s.get(ReviewItem, item.id).state == "open"
        assert [e.action for e in entries(s, game_id)][-3:] == ["slip.discard", "slip.restore", "review.reopen"]


def test_move_refuses_a_round_that_is_not_there(store, tmp_path):
    game_id, _item, slip = unsure(store, tmp_path)
    with store.session() as s:
        with pytest.raises(WorkflowError, match="--round 4: game .* has no such round"):
            move_slip(s, get_game(s, game_id), slip.id, 4, "ana", "late")


def test_withdrawn_appeals_and_sanctions_are_kept_not_counted(store, tmp_path):
    game_id = make_game(store, tmp_path)
    with store.session() as s:
        game = get_game(s, game_id)
        appeal = add_appeal(s, game, 2, 1, "incorrect", "recount", ARBITER, NOW, {"score": 20})
        sanction = add_sanction(s, game, 3, "disciplinary", "phone", ARBITER, 1)
    with store.session() as s:
        game = get_game(s, game_id)
        withdraw_appeal(s, game, appeal.id, "ana", "wrong table")
        undo_sanction(s, game, sanction.id, "ana", "not his phone")
        case, _ = build_case(s, game)
        assert case["appeals"] == [] and case["disciplinary"] == []
        assert s.get(Appeal, appeal.id).status == "withdrawn" and s.get(Sanction, sanction.id).status == "withdrawn"
        with pytest.raises(WorkflowError, match="not final"):
            reopen_results(s, game, "ana", "why")
