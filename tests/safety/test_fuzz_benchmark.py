"""The fuzz benchmark runs (benchmarks/fuzz_benchmark.py): a tiny run over two command families and
one web form prints a row of figures for each and the total, and names an unknown family in one line."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "fuzz_benchmark.py"


def test_a_small_run_prints_the_figures_of_each_family():
    done = subprocess.run([sys.executable, str(BENCH), "--examples", "2", "--families", "top,sanction,web-pages"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    rows = {m.group(1): [int(x) for x in m.group(2).split()]
            for m in re.finditer(r"^(top|sanction|web-pages|all)\s+((?:\d+\s+){6})[\d.]+$", done.stdout, re.M)}
    assert set(rows) == {"top", "sanction", "web-pages", "all"}, done.stdout
    assert [rows[f][0] for f in ("top", "sanction", "web-pages")] == [2, 2, 2]
    assert rows["all"] == [sum(rows[f][i] for f in ("top", "sanction", "web-pages")) for i in range(6)]
    assert done.returncode == (1 if any(rows["all"][1:]) else 0)


def test_an_unknown_family_is_named():
    done = subprocess.run([sys.executable, str(BENCH), "--families", "nope"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "unknown family 'nope'" in done.stderr
