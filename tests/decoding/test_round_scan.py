"""`round scan` decodes each slip against the stored round (issue 15): a slip whose ruling is
sure is filed without a review item; an ambiguous one gets a review item naming the doubt, with
the competing readings, their outcomes and the deciding boxes in `review_item.candidates`.
Real SQLite store, real CLI, reading records written by hand (no images)."""
from __future__ import annotations

import json

from click.testing import CliRunner
from sqlalchemy import select

from arbiter.store.models import ReviewItem, Slip
from arbiter.store.store import open_store
from cli import main
from tests.arbiter.helpers import make_game, write_jsonl
from tests.decoding.helpers import record


def _pile(tmp_path):
    clear = record(1, 1, 26, "H4", "MODEL")
    doubtful = record(1, 2, 26, "H4", "MODER", doubts={("table", 0): ("3", 0.49)})  # table 2 or 3?
    for n, r in enumerate((clear, doubtful)):
        r.update({"source": f"scans/t{n + 1}.png", "sha256": f"{n + 1:064x}", "slip_index": 0})
    return write_jsonl(tmp_path / "readings.jsonl", [clear, doubtful])


def test_round_scan_files_sure_slips_and_reviews_the_rest_with_candidates(tmp_path):
    db = tmp_path / "store.db"
    store = open_store(db)
    game_id = make_game(store, tmp_path)
    store.close()
    out = CliRunner().invoke(main, ["round", "scan", str(_pile(tmp_path)), "--round", "1", "--db", str(db),
                                    "--game", str(game_id), "--arbiter", "ana"])
    assert out.exit_code == 0, out.output
    assert "1 of 2 slips decided against the round, 1 to review" in out.output
    with open_store(db).session() as s:
        slips = {x.table_no: x for x in s.scalars(select(Slip))}
        items = s.scalars(select(ReviewItem)).all()
    assert slips[1].content == {"table": 1, "round": 1, "score": 26, "position": "H4", "word": "MODEL", "jokers": []}
    # the table itself is in doubt: the slip waits in review without a table rather than under a guess
    assert [i.table_no for i in items] == [None] and "decoder: 0." in items[0].reason
    assert "boxes table[1]" in items[0].reason
    assert 2 not in slips
    candidates = items[0].candidates
    assert {c["reading"]["table"] for c in candidates} >= {2, 3}
    assert [c["outcome"]["status"] for c in candidates if c["probability"] > 0.1] == ["incorrect"] * 2  # D 6.1.a
    assert abs(sum(c["probability"] for c in candidates) - 1) < 0.01
    other = next(c for c in candidates[1:] if c["reading"]["table"] != candidates[0]["reading"]["table"])
    assert {"field": "table", "index": 0} in other["boxes"]
    assert set(other["reading"]) == {"table", "round", "position", "word", "jokers", "score"}
    assert set(other["outcome"]) == {"status", "credited", "warning", "penalty", "articles"}
    json.dumps(candidates)  # the web page reads it as JSON
