"""Issue 21 on both store backends: the print decides what is the same paper (`arbiter.slips.paper`).
A print at most SAME from a stored slip's is a rescan (kept discarded, an item brings it back);
one between SAME and SUSPECT is filed, both slips in review; a slip set aside for its table
(`--keep new`) is in review with its item named; the same reading from two papers is two slips."""
from __future__ import annotations

import numpy as np
from sqlalchemy import select

from arbiter.slips.ingest import file_reading
from arbiter.store.models import ReviewItem, Slip
from arbiter.slips.paper import SAME, SUSPECT, SIDE, distance
from arbiter.slips.readings import parse_reading
from arbiter.review.review import reopen_item
from arbiter.store.games import get_game

from .helpers import ARBITER, make_game, reading


def _print(cells: np.ndarray) -> str:
    levels = np.clip(np.rint(cells * 15), 0, 15).astype(np.uint8).reshape(-1)
    return "word:" + "".join("0123456789abcdef"[v] for v in levels)


def _ink(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((5, SIDE, SIDE)) > 0.7).astype(np.float32)


def _nudged(cells: np.ndarray, share: float, seed: int) -> np.ndarray:
    """The same cells with `share` of their pixels flipped."""
    rng = np.random.default_rng(seed)
    flip = rng.random(cells.shape) < share
    return np.where(flip, 1 - cells, cells)


def _file(store, game_id, table, sha, ink, keep="old"):
    record = {**reading(table, sha=sha), "ink": ink, "source": f"scans/{sha[:4]}.png"}
    return file_reading(store, game_id, 1, parse_reading(record, sha[:4], 0.9), ARBITER, lambda o, n: keep)


def test_a_print_within_same_is_a_rescan_kept_aside_and_undoable(store, tmp_path):
    game_id = make_game(store, tmp_path)
    base = _ink(1)
    again = _print(_nudged(base, 0.02, 2))
    assert distance(_print(base), again) <= SAME
    first = _file(store, game_id, 1, "a" * 64, _print(base))
    second = _file(store, game_id, 2, "b" * 64, again)  # table misread as 2: the print still knows it
    assert first.outcome == "filed" and second.outcome == "duplicate" and second.item is not None
    with store.session() as s:
        assert s.get(Slip, second.slip_id).state == "discarded"
        assert s.get(ReviewItem, second.item).state == "resolved"
        reopen_item(s, get_game(s, game_id), second.item, ARBITER, "two papers after all")
    with store.session() as s:
        assert s.get(Slip, second.slip_id).state == "filed" and s.get(ReviewItem, second.item).state == "open"


def test_a_print_only_suspected_files_both_in_review(store, tmp_path):
    game_id = make_game(store, tmp_path)
    base = _ink(3)
    near = _print(_nudged(base, 0.12, 4))
    assert SAME < distance(_print(base), near) <= SUSPECT
    first = _file(store, game_id, 1, "c" * 64, _print(base))
    second = _file(store, game_id, 2, "d" * 64, near)
    assert second.outcome == "filed" and "perhaps the same paper as slip" in second.review[0]
    assert second.others and "(item " in second.others[0]
    with store.session() as s:
        open_for = set(s.scalars(select(ReviewItem.slip_id).where(ReviewItem.state == "open")))
    assert open_for == {first.slip_id, second.slip_id}


def test_the_same_reading_from_two_papers_is_two_slips_and_the_one_set_aside_waits(store, tmp_path):
    game_id = make_game(store, tmp_path)
    first = _file(store, game_id, 1, "e" * 64, _print(_ink(5)))
    second = _file(store, game_id, 1, "f" * 64, _print(_ink(6)), keep="new")  # another hand, same move, same table
    assert second.outcome == "filed" and second.others and "table 1 has two slips" in second.others[0]
    with store.session() as s:
        assert s.get(Slip, first.slip_id).state == "superseded"
        item = s.scalar(select(ReviewItem).where(ReviewItem.slip_id == first.slip_id))
        assert item.state == "open" and f"(item {item.id})" in second.others[0]
