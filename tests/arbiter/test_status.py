"""`fluturas status` and `--version` through the real CLI on a real SQLite store: the round, its
group and top, the slip counts (filed, decided, in review, without a table, missing) and the board
after the round's continuation (RULES.md §5)."""
from __future__ import annotations

from importlib.metadata import version

import pytest

from click.testing import CliRunner

from cli import main
from tests.arbiter.test_cli import SAMPLES, run


def test_version_names_the_installed_package():
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.output.strip()) == (0, f"fluturas {version('fluturas')}")


def test_status_counts_the_slips_and_draws_the_board(tmp_path):
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(SAMPLES / "words.txt"))
    assert "no round yet" in run(db, "status")
    run(db, "players", "import", str(SAMPLES / "players.csv"))
    run(db, "round", "set-rack", "AELMODR")
    out = run(db, "status")
    assert "round 1 (open): group AELMODR; no top yet" in out
    assert "0 filed, 0 decided, 0 in review, 0 without a table, 16 missing" in out
    assert out.splitlines()[-8] == "." * 15  # the empty board's middle row
    run(db, "round", "set-top", "H4 MODEL")
    run(db, "round", "scan", str(SAMPLES / "readings" / "round01.jsonl"), "--keep", "new")
    out = run(db, "status")
    assert "group AELMODR; H4 MODEL = 26" in out
    assert "15 filed, 0 decided, 1 in review, 0 without a table, 1 missing (tables 16)" in out
    board = out.splitlines()[-15:]
    assert board[7] == "...MODEL......."  # H4 across: row H, columns 4-8
    from arbiter.review.review import queue, resolve
    from arbiter.store.store import open_store

    store = open_store(db)
    with store.session() as s:
        (item,) = queue(s, 1)
    resolve(store, item.item_id, item.version, "arbitru", None, "read from the slip")  # correct waits for review
    run(db, "round", "correct")
    assert "15 filed, 15 decided" in run(db, "status", "--round", "1")
    run(db, "status", "--round", "9", code=2)


def test_the_readme_round_scan_example_works_as_written(tmp_path, monkeypatch):
    """arbiter/README.md: `fluturas scan scans/ --out readings.jsonl`, then
    `fluturas round scan scans/ readings.jsonl`: each slip is filed once (the readings of the same
    images are recognised as the same slips)."""
    import numpy as np
    pytest.importorskip("onnxruntime")
    cv2 = pytest.importorskip("cv2")
    from scanner.synth import fonts
    from scanner.synth.slip import SlipStyle, render_page, render_slip
    from scanner.template import load_template

    rng = np.random.default_rng(1)
    style = SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name])
    form = load_template("duplicat")
    slips = [render_slip(form, {"tur": "1", "masa": str(t), "poz": "H4", "puncte": "26", "depunere": "MODEL"}, rng, style)
             for t in (1, 2)]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scans").mkdir()
    cv2.imwrite(str(tmp_path / "scans" / "page1.png"), render_page(slips, rng))
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(SAMPLES / "words.txt"))
    run(db, "players", "import", str(SAMPLES / "players.csv"))
    run(db, "round", "set-rack", "AELMODR")
    scanned = CliRunner().invoke(main, ["scan", "scans/", "--out", "readings.jsonl"])
    assert scanned.exit_code == 0, scanned.output
    out = run(db, "round", "scan", "scans/", "readings.jsonl")
    assert "round 1: 2 duplicate, 2 filed (4 readings)" in out
    assert "2 filed, " in run(db, "status")
