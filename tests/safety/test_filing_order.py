"""Issue 21, orders of events, in real processes on a real SQLite store: a slip filed after
`round correct` (late, or by a scan running beside the correction) makes the round inconsistent —
`status` names its table and no results are published from it until it is judged — and two scans
at once of the same paper in other bytes (PNG and a re-encoded JPEG) never file it twice."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from exitcodes import ExitCode

from .conftest import ROOT, cli, jsonl, reading, rows

cv2 = pytest.importorskip("cv2")


def fluturas(db: Path, *args: str) -> subprocess.Popen:
    """`fluturas ARGS` as its own process (stdin closed: no terminal)."""
    return subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args, "--db", str(db), "--arbiter", "ana"],
                            cwd=db.parent, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def late_slip(tmp_path: Path) -> Path:
    """Table 16's slip of round 1 (the only table without one), handed in late."""
    return jsonl(tmp_path / "late.jsonl", reading(16, sha="e" * 64, source="scans/late-16.png"))


def decision_16(db: Path):
    return rows(db, "SELECT d.status, d.credited FROM decision d JOIN round r ON r.id = d.round_id "
                    "WHERE r.number = 1 AND d.table_no = 16")


def test_a_slip_filed_after_round_correct_blocks_publication_until_judged(game, tmp_path):
    assert decision_16(game)[0][1] == 0  # missing when round 1 was corrected
    code, out, err = finish(fluturas(game, "round", "scan", str(late_slip(tmp_path)), "--keep", "new"))
    assert code == 0, err
    status = cli(game, "status").output
    assert "not consistent: tables 16 filed or changed since the last correction" in status
    refused = cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / "out"),
                  code=ExitCode.BAD_INPUT)
    assert "round 1: tables 16 filed or changed since the last correction" in refused.stderr
    assert "fluturas round correct" in refused.stderr
    assert not (tmp_path / "out").exists() and rows(game, "SELECT status FROM game") == [("running",)]
    code, _, err = finish(fluturas(game, "round", "correct"))
    assert code == 0, err
    assert "not consistent" not in cli(game, "status").output
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / "out"))
    assert decision_16(game) == [("VALID", 26)]


def test_a_scan_beside_the_correction_never_publishes_a_table_unjudged(game, tmp_path):
    """The scan and the correction start together (in either order, some delay between); whatever
    the interleaving, publication either includes the late slip's points or is refused naming it."""
    rng = random.Random(21)
    slip = late_slip(tmp_path)
    seen = set()
    for run in range(6):
        db = tmp_path / f"run{run}.db"
        shutil.copy(game, db)
        first, second = ("scan", "correct") if run % 2 else ("correct", "scan")
        procs = {}
        for which in (first, second):
            args = ("round", "scan", str(slip), "--keep", "new") if which == "scan" else ("round", "correct")
            procs[which] = fluturas(db, *args)
            time.sleep(rng.uniform(0, 1.5))
        for which, proc in procs.items():
            code, _, err = finish(proc)
            assert code == 0, (which, err)
        published = cli(db, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / f"out{run}"),
                         code=None)
        if published.exit_code == 0:
            assert decision_16(db) == [("VALID", 26)], run
            seen.add("judged")
        else:
            assert published.exit_code == ExitCode.BAD_INPUT
            assert "round 1: tables 16 filed or changed since the last correction" in published.stderr
            assert "not consistent: tables 16" in cli(db, "status").output
            seen.add("refused")
    assert seen  # (which interleavings came up is recorded by the assertion messages)


def _render(path: Path, seed: int = 5) -> np.ndarray:
    from scanner.synth.slip import render_slip
    from scanner.template import builtin_templates

    template = next(t for t in builtin_templates() if t.id.startswith("duplicat"))
    values = {"tur": "01", "masa": "016", "poz": "H4", "puncte": "26", "depunere": "MODEL"}
    return render_slip(template, values, np.random.default_rng(seed))


def test_two_scans_at_once_of_one_paper_in_other_bytes_file_it_once(game, tmp_path):
    """PNG and a re-encoded, turned JPEG of the same page scanned by two processes at once,
    at least 20 times (bounded to ten minutes): one slip stands, the other is set aside."""
    image = _render(tmp_path / "p.png")
    png, jpg = tmp_path / "page.png", tmp_path / "page-again.jpg"
    cv2.imwrite(str(png), image)
    h, w = image.shape[:2]
    turned = cv2.warpAffine(image, cv2.getRotationMatrix2D((w / 2, h / 2), 1.0, 0.95), (w, h),
                            borderValue=(255, 255, 255))
    cv2.imwrite(str(jpg), turned, [cv2.IMWRITE_JPEG_QUALITY, 60])
    started, runs = time.monotonic(), 0
    while runs < 20 and time.monotonic() - started < 600:
        db = tmp_path / f"race{runs}.db"
        shutil.copy(game, db)
        procs = [fluturas(db, "round", "scan", str(p), "--keep", "new") for p in ((png, jpg) if runs % 2 else (jpg, png))]
        for proc in procs:
            code, _, err = finish(proc)
            assert code == 0, err
        standing = rows(db, "SELECT state FROM slip WHERE source IN (?, ?)", str(png), str(jpg))
        assert len(standing) == 2, (runs, standing)
        assert sorted(s for (s,) in standing if s != "discarded") in (["filed"],), (runs, standing)
        runs += 1
    assert runs >= 20


def test_a_slip_filed_while_the_case_is_read_is_judged_or_the_round_left_inconsistent(game, tmp_path, monkeypatch):
    """The interleaving that once published table 16 as missing: the scan commits its slip after the
    correction has read the judge's case but before it takes the view of the slips it judged. A
    session's reads on SQLite are no snapshot, so the view held the slip the case lacked, and the
    round looked judged. Now the case is read between two equal views: the slip is judged."""
    import arbiter.round.correction as correction

    real_build_case = correction.build_case
    filed = []

    def build_case_then_a_scan_files_table_16(session, game_row, number):
        case = real_build_case(session, game_row, number)
        if not filed:  # a real scan process commits the late slip right after the case was read
            code, _, err = finish(fluturas(game, "round", "scan", str(late_slip(tmp_path)), "--keep", "new"))
            assert code == 0, err
            filed.append(True)
        return case

    monkeypatch.setattr(correction, "build_case", build_case_then_a_scan_files_table_16)
    cli(game, "round", "correct")
    assert filed
    assert "not consistent" not in cli(game, "status").output
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / "out"))
    assert decision_16(game) == [("VALID", 26)]
