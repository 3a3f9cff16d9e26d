"""A benchmark run without the split's fetched faces says so: its slips are written in the few
Debian faces alone (3 held-out faces instead of 14), a different and smaller set of hands whose
figures are not comparable with the split's."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scanner.synth import fonts, fontsource

ROOT = Path(__file__).resolve().parents[2]


def test_a_split_without_its_fetched_faces_is_named_with_the_fetch_command(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(fontsource, "CACHE", tmp_path)  # nothing fetched
    bare = fonts.writers("held_out")
    assert set(fontsource.HELD_OUT) <= set(bare.missing)
    fonts.warn_unfetched(bare, "held_out")
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"fonts held_out: {len(bare.missing)} faces missing")
    assert "python -m scanner.synth.fontsource" in line and "\n" not in line
    note = fonts.faces_note(len(bare.groups), len(bare.missing))
    assert note == f" ({len(bare.groups)} faces; {len(bare.missing)} of the split missing)"
    assert fonts.faces_note(14, 0) == " (14 faces)" and fonts.faces_note(None, None) == ""


def test_the_round_benchmark_prints_the_faces_its_slips_were_written_in(tmp_path):
    env = {"FLUTURAS_FONT_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "round_benchmark.py"), "--slips", "4"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "faces missing" in done.stderr and "python -m scanner.synth.fontsource" in done.stderr
    header = done.stdout.splitlines()[0]
    assert header.startswith("fonts held_out (") and "of the split missing)" in header
