"""The wheel works on its own (arbiters run laptops, not a checkout): built from this tree, installed
into a fresh virtual environment outside it, `fluturas demo --rounds 1`, `fluturas judge` on a golden
case and `fluturas top` run from a folder that holds no project file."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "judge"


def _run(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FLUTURAS_DB", "VIRTUAL_ENV")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """The `fluturas` of a fresh environment with the wheel installed, and a folder to run in."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(REPO)], cwd=base)
    (wheel,) = wheels.glob("fluturas-*.whl")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], cwd=base)
    work = base / "elsewhere"
    work.mkdir()
    return env_dir / "bin" / "fluturas", work


def test_the_wheel_carries_no_checkout_path(installed):
    fluturas, work = installed
    done = _run([str(fluturas.parent / "python"), "-c", "import cli, samples, scanner; print(cli.__file__); "
                 "print(samples.DEMO_WORDS.is_file()); print(scanner.__file__)"], cwd=work)
    lines = done.stdout.split()
    assert "site-packages" in lines[0] and lines[1] == "True" and "site-packages" in lines[2]
    assert str(REPO) not in done.stdout


def test_demo_runs_from_the_wheel(installed):
    fluturas, work = installed
    done = _run([str(fluturas), "demo", "--rounds", "1", "--out", str(work / "demo")], cwd=work)
    assert "done in" in done.stdout
    assert (work / "demo" / "demo.xlsx").stat().st_size > 0
    assert list((work / "demo" / "scans").glob("*.png"))


def test_judge_from_the_wheel_gives_the_golden_output(installed):
    fluturas, work = installed
    case = GOLDEN / "jokers.json"
    done = _run([str(fluturas), "judge", str(case), "--json"], cwd=work)
    expected = json.loads((GOLDEN / "jokers.expected.json").read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == expected


def test_top_from_the_wheel_uses_the_bundled_word_list(installed):
    fluturas, work = installed
    board = work / "empty.txt"
    board.write_text("\n".join(["." * 15] * 15) + "\n", encoding="utf-8")
    done = _run([str(fluturas), "top", "--board", str(board), "--rack", "AELMODR", "--json"], cwd=work)
    data = json.loads(done.stdout)
    assert data["word_list"] == "demo list, not LOC" and data["top_score"] > 0
    assert all(t["position"] and t["word"] for t in data["tops"])
