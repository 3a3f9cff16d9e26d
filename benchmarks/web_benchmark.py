"""How long the queue page of a 60-slip round takes to render (issue 14's target: under 300 ms).

A game of 60 seated players on a temporary SQLite store; round 1's 60 slips are filed from
readings whose word is unsure, so all 60 wait in the review queue (through `arbiter.slips.ingest`,
as `round scan` files them); the queue page is then asked for through the app (Flask's test
client: the whole request, the store's queries, the sorting, the board and the template, without
the network). Prints the median and the worst of --runs requests.

    python benchmarks/web_benchmark.py [--slips 60] [--runs 20]

With --load: many arbiters at once against `fluturas serve` in its own process (the production
server on loopback, tests/web/load.py): --clients requests released together, --requests in all,
a mix of the queue's reads and writes over the round's --slips items; prints the errors (target
0), the answers and the latencies.

    python benchmarks/web_benchmark.py --load [--slips 40] [--requests 2000] [--clients 200]

With --pages: every page an arbiter opens during a round (queue, round, grid, desk, players, hall,
results, audit, new game), each asked for --runs times on a round of --slips seated players (100
is the largest room), half of whose slips wait in the queue; prints each page's median and worst
(target: every page under 300 ms).

    python benchmarks/web_benchmark.py --pages --slips 100
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.store.store import open_store  # noqa: E402
from arbiter.web.app import create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slips", type=int, default=60)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--load", action="store_true", help="many arbiters at once against `fluturas serve`")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--pages", action="store_true", help="every page of a round, not only the queue")
    args = parser.parse_args()
    if args.load:
        sys.exit(load(args.slips, args.requests, args.clients))
    if args.pages:
        sys.exit(pages(args.slips, args.runs))
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


def load(slips: int, requests: int, clients: int) -> int:
    """The load run; exit status 1 when any request failed."""
    import cv2
    import numpy as np

    from tests.web.helpers import flagged_round, open_items
    from tests.web.load import ServedProcess, run_load

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = open_store(folder / "bench.db")
        game_id = flagged_round(store, folder, slips)
        (folder / "scans").mkdir()
        for table in range(1, slips + 1):
            cv2.imwrite(str(folder / "scans" / f"t{table}.png"), np.full((280, 400, 3), 230, np.uint8))
        items = [(e.item_id, e.slip_id) for e in open_items(store, game_id)]
        store.close()
        served = ServedProcess(folder / "bench.db")
        try:
            report = run_load(served.host, served.port, items, requests=requests, clients=clients)
        finally:
            served.stop()
    print(f"fluturas serve under load, {clients} at once over {slips} review items: {report.line()} (target 0 errors)")
    for failure in report.failures[:10]:
        print(f"  {failure}")
    return 1 if report.errors else 0


PAGES = ("/queue", "/round", "/grid?round=1", "/day", "/players", "/hall", "/results", "/audit", "/game/new")


def pages(slips: int, runs: int) -> int:
    """Every page of a round of `slips` seated players, half of them waiting in the queue."""
    from tests.web.helpers import flagged_round

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "bench.db")
        flagged_round(store, Path(tmp), slips, {t: "M0DEL" for t in range(1, slips + 1, 2)})
        client = create_app(store).test_client()
        slow = 0
        for path in PAGES:
            first = client.get(path)
            if first.status_code != 200:
                print(f"{path}: HTTP {first.status_code}")
                slow += 1
                continue
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                client.get(path)
                times.append((time.perf_counter() - t) * 1000)
            worst = max(times)
            slow += worst >= 300
            print(f"{path:<16} median {statistics.median(times):7.1f} ms, worst {worst:7.1f} ms over {runs} requests")
        store.close()
    print(f"{len(PAGES) - slow} of {len(PAGES)} pages under 300 ms on a round of {slips} seated players")
    return 1 if slow else 0


if __name__ == "__main__":
    main()
