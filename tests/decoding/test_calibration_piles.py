"""`benchmarks/calibration_piles.py`: the seven piles the decoder's calibration holds, scanned in one
command (real slips rendered, scanned and decoded, a few a pile), each kept with its printout, then
the calibration command naming each pile in its role; a pile already kept is not scanned again, and
a reader that is not there, or a calibration asked of another reader, is refused before any work."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PILES = ROOT / "benchmarks" / "calibration_piles.py"

pytest.importorskip("onnxruntime")
pytest.importorskip("cv2")

# what each pile's printout says of the slips it holds: hands, digits, room, kind, mix, seed
EXPECTED = {
    "seed45": ("calibration", "16 seated players, plain slips", "mix demo, seed 45"),
    "seed46": ("calibration", "40 seated players, plain slips", "mix demo, seed 46"),
    "seed47": ("calibration", "100 seated players, pre-filled slips", "mix demo, seed 47"),
    "seed48": ("calibration", "100 seated players, plain slips", "mix realistic, seed 48"),
    "seed49": ("calibration", "40 seated players, pre-filled slips", "mix realistic, seed 49"),
    "val100": ("validation", "100 seated players, plain slips", "seed 3601"),
    "val40qr": ("validation", "40 seated players, pre-filled slips", "seed 3601"),
}
ROLES = {"seed45": "--hold", "seed46": "--hold", "seed47": "--hold", "seed48": "--choose-on",
         "seed49": "--choose-on", "val100": "--hold-validation", "val40qr": "--hold-validation"}


def piles(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PILES), *args], capture_output=True, text=True, cwd=ROOT, timeout=900)


def test_the_seven_piles_are_scanned_kept_and_named_in_the_calibration(tmp_path):
    first = piles("--out", str(tmp_path), "--slips", "3")
    assert first.returncode == 0, first.stdout + first.stderr
    for name, (hands, room, mix) in EXPECTED.items():
        printout = (tmp_path / f"{name}.txt").read_text()
        assert (tmp_path / f"{name}.pkl").stat().st_size > 0
        assert printout.startswith(f"fonts {hands} (") and "digits MNIST calibration part" in printout, name
        assert room in printout and mix in printout, name
    command = re.search(r"^fit the decoder on them: (python benchmarks/round_benchmark\.py .*)$", first.stdout, re.M)
    assert command, first.stdout
    named = re.findall(r"(--hold|--choose-on|--hold-validation) (\S+)\.pkl", command[1])
    assert {Path(path).name: role for role, path in named} == ROLES
    assert "--calibrate" in command[1] and "--fonts calibration" in command[1] and "--seed 44" in command[1]

    kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.pkl")}
    again = piles("--out", str(tmp_path), "--slips", "3")
    assert again.returncode == 0, again.stderr
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.pkl")} == kept  # nothing scanned twice


def test_a_missing_reader_and_a_calibration_of_another_reader_are_refused_before_any_work(tmp_path):
    missing = piles("--out", str(tmp_path / "a"), "--model", str(tmp_path / "nowhere.onnx"))
    assert missing.returncode == 2 and "--model" in missing.stderr and "no such file" in missing.stderr
    reader = tmp_path / "reader.onnx"
    reader.write_bytes(b"")
    other = piles("--out", str(tmp_path / "b"), "--model", str(reader), "--calibrate")
    assert other.returncode == 2 and "leave out --model" in other.stderr
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
