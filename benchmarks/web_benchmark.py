"""How long the queue page of a 60-slip round takes to render (issue 14's target: under 300 ms).

A game of 60 seated players on a temporary SQLite store; round 1's 60 slips are filed from
readings whose word is unsure, so all 60 wait in the review queue (through `arbiter.ingest`,
as `round scan` files them); the queue page is then asked for through the app (Flask's test
client: the whole request, the store's queries, the sorting, the board and the template, without
the network). Prints the median and the worst of --runs requests.

    python benchmarks/web_benchmark.py [--slips 60] [--runs 20]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.store import open_store  # noqa: E402
from arbiter.web.app import create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slips", type=int, default=60)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    from tests.web.helpers import flagged_round

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "bench.db")
        started = time.perf_counter()
        flagged_round(store, Path(tmp), args.slips)
        built = time.perf_counter() - started
        client = create_app(store).test_client()
        first = client.get("/queue")
        assert first.status_code == 200 and first.data.count(b"data-item=") == args.slips + 1, "not every slip listed"
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            response = client.get("/queue")
            times.append((time.perf_counter() - t) * 1000)
            assert response.status_code == 200
        store.close()
    print(f"queue page, {args.slips} flagged slips (store built in {built:.1f} s): "
          f"median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms over {args.runs} requests "
          f"(target < 300 ms)")


if __name__ == "__main__":
    main()
