"""`benchmarks/writer_odds.py` on a dump of three rounds: table 1's player writes an R the reader
reads R 0.7, K 0.29 on every slip, table 2's player a clear R. From round 2 on each slip's letters
favour its own player, never the other one."""
from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

from tests.decoding.helpers import record

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "writer_odds.py"


def _dump(bench, path: Path) -> None:
    piles = []
    for number in (1, 2, 3):
        script = record(number, 1, 24, "H4", "MORAR", doubts={("word", 2): ("K", 0.29), ("word", 4): ("K", 0.29)})
        clear = record(number, 2, 24, "H4", "MORAR")
        written = [bench.Written(t, number, "H4", "MORAR", (), 24, None, seat=t) for t in (1, 2)]
        piles.append(([script, clear], written))
    path.write_bytes(pickle.dumps({"piles": piles, "unmatched": 0}))


def test_each_slip_favours_its_own_players_hand(bench, tmp_path):
    pile = tmp_path / "pile.pkl"
    _dump(bench, pile)
    out = subprocess.run([sys.executable, str(SCRIPT), str(pile), "--others", "1"], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    row = next(line for line in out.splitlines() if line.startswith("pile.pkl"))
    cells = [c.strip() for c in row.split("|")]
    assert cells[1] == "4"  # rounds 2 and 3, a slip of each table against the other table
    own, other, _ = (float(x.rstrip(" %")) for x in cells[3].split(" / "))  # at 3 to 1
    assert own == 100.0 and other == 0.0


def test_a_file_that_is_no_dump_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "notes.pkl"
    bad.write_text("not a pickle", encoding="utf-8")
    run = subprocess.run([sys.executable, str(SCRIPT), str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1].endswith(f"{bad}: not the readings of a --dump run")
