"""200 arbiters' requests at once, reads and writes, against `fluturas serve` in its own process
(the production server, its pool sized to its threads, on loopback): no error, each item
resolved once, every save in the audit log. Bounded: 400 requests, 200 of them released at once,
a minute each at most (`benchmarks/web_benchmark.py --load` runs a longer one)."""
from __future__ import annotations

import cv2
import numpy as np
from sqlalchemy import func, select

from arbiter.store.audit import entries
from arbiter.store.models import ReviewItem

from .helpers import flagged_round, open_items
from .load import ServedProcess, run_load


def test_200_concurrent_requests_with_writes_get_no_error(store, tmp_path):
    game_id = flagged_round(store, tmp_path, 40)  # 40 tables, every slip waiting in review
    (tmp_path / "scans").mkdir()
    for table in range(1, 41):
        cv2.imwrite(str(tmp_path / "scans" / f"t{table}.png"), np.full((280, 400, 3), 230, np.uint8))
    items = [(e.item_id, e.slip_id) for e in open_items(store, game_id)]
    served = ServedProcess(tmp_path / "store.db")
    try:
        report = run_load(served.host, served.port, items, requests=400, clients=200)
    finally:
        served.stop()
    print(report.line())
    assert report.errors == 0, report.line() + "; " + "; ".join(report.failures[:5])
    assert report.statuses[200] and report.statuses[302]
    with store.session() as s:
        resolved = s.scalar(select(func.count()).select_from(ReviewItem).where(ReviewItem.state == "resolved"))
        assert resolved == len(entries(s, game_id, "review.resolve")) > 0  # each save once, each one audited
