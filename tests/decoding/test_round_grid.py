"""`benchmarks/round_grid.py`: the round benchmark over rooms, seeds and kinds of slip in one
command. Two small real runs (rendered, scanned, decoded), their readings kept and decoded again
with `--replay` to the same figures; a replay without kept readings is refused, naming what is
missing."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GRID = ROOT / "benchmarks" / "round_grid.py"

pytest.importorskip("onnxruntime")
pytest.importorskip("cv2")


def grid(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(GRID), *args], capture_output=True, text=True, cwd=ROOT, timeout=600)


def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^\s+16\s+(blank|pre-filled)\s+9\s", line)]


def test_grid_scans_each_room_and_kind_then_replays_the_same_readings(tmp_path):
    common = ("--seeds", "9", "--rooms", "16", "--slips", "12", "--out", str(tmp_path))
    first = grid(*common)
    assert first.returncode == 0, first.stdout + first.stderr
    scanned = rows(first.stdout)
    assert [r.split()[1] for r in scanned] == ["blank", "pre-filled"]
    assert all(r.count("%") == 3 for r in scanned)
    assert {p.name for p in tmp_path.glob("*.pkl")} == {"16blank-9.pkl", "16qr-9.pkl"}
    for kind in ("none", "wrong_score", "not_a_word", "one_wrong_sign", "missing_table"):  # every type, even unseen
        assert re.search(rf"^{kind}\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+$", first.stdout, re.M), kind
    assert re.search(r"silent errors \d+ \(target 0\): (met|not met)$", first.stdout, re.M)
    faces = re.search(r"^round benchmark grid: held_out hands \((\d+ faces[^)]*)\),", first.stdout, re.M)
    assert faces, first.stdout  # the hands the figures were measured on, fetched or not

    again = grid(*common, "--replay")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "readings replayed" in again.stdout
    assert f"held_out hands ({faces[1]})," in again.stdout  # the dump keeps them
    assert rows(again.stdout) == scanned  # the same readings, the same decoder: the same figures
    assert "one face a player, hands learnt across games" in (tmp_path / "16blank-9.txt").read_text()
    assert "players’ hands learnt across games" in first.stdout

    per_game = grid(*common, "--replay", "--hands-per-game")
    assert per_game.returncode == 0, per_game.stdout + per_game.stderr
    assert "players’ hands learnt game by game" in per_game.stdout
    assert "hands learnt game by game" in (tmp_path / "16blank-9-replay-hands-per-game.txt").read_text()

    forgotten = grid(*common, "--replay", "--forget-hands")
    assert forgotten.returncode == 0, forgotten.stdout + forgotten.stderr
    assert "players’ hands forgotten" in forgotten.stdout and len(rows(forgotten.stdout)) == 2
    assert "one face a player, hands forgotten" in (tmp_path / "16blank-9-replay-hands-forgotten.txt").read_text()


def test_a_replay_decodes_with_the_priors_file_it_is_given(tmp_path):
    """Another stack is measured on the same readings: `--priors` reaches every run's decoder (a
    threshold no certainty reaches decides nothing); a file that is not there is refused."""
    import json

    common = ("--seeds", "9", "--rooms", "16", "--kinds", "blank", "--slips", "12", "--out", str(tmp_path))
    first = grid(*common)
    assert first.returncode == 0, first.stdout + first.stderr
    assert float(rows(first.stdout)[0].split()[3]) > 0
    priors = json.loads((ROOT / "corrector" / "decoding" / "priors.json").read_text())
    strict = tmp_path / "strict-priors.json"
    strict.write_text(json.dumps({**priors, "threshold": 1.01, "threshold_overrule": 1.01}))
    again = grid(*common, "--replay", "--priors", str(strict))
    assert again.returncode == 0, again.stdout + again.stderr
    assert rows(again.stdout)[0].split()[3] == "0.00"
    gone = grid(*common, "--replay", "--priors", str(tmp_path / "none.json"))
    assert gone.returncode == 2 and f"--priors {tmp_path / 'none.json'}: no such file" in gone.stderr


def test_replay_without_kept_readings_names_the_missing_runs(tmp_path):
    done = grid("--seeds", "9", "--rooms", "16", "--kinds", "qr", "--out", str(tmp_path), "--replay")
    assert done.returncode == 2
    assert f"no kept readings for 16qr-9 in {tmp_path}" in done.stderr


def test_an_out_that_is_a_file_is_refused_in_one_line(tmp_path):
    taken = tmp_path / "grid"
    taken.write_text("not a folder")
    done = grid("--seeds", "9", "--rooms", "16", "--out", str(taken))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(f"--out {taken}: cannot be a folder for the runs (File exists)")
    assert taken.read_text() == "not a folder"


def test_each_seated_player_keeps_one_face_the_whole_run():
    import importlib.util

    from scanner.synth import fonts
    from scanner.synth.glyphs import font_covers

    spec = importlib.util.spec_from_file_location("round_benchmark_faces", ROOT / "benchmarks" / "round_benchmark.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    try:
        spec.loader.exec_module(bench)
        paths = fonts.writers("calibration").paths
        faces = bench.seat_faces(paths, 40, 9)
        assert sorted(faces) == list(range(1, 41)) and faces == bench.seat_faces(paths, 40, 9)
        assert len(set(faces.values())) > 1 and all(font_covers(str(f), "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                                                    for f in faces.values())
        assert faces != bench.seat_faces(paths, 40, 10)
    finally:
        del sys.modules[spec.name]
