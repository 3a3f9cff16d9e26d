"""The round loop through the real CLI on the sample game with the real judge: every total in
the sheet equals `fluturas judge` run on its own on the same game, every step is in the audit
log, bad input exits 2 with the file and field named."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from openpyxl import load_workbook

from arbiter.store.audit import entries
from arbiter.store.games import get_game
from arbiter.round.judging import build_case
from arbiter.store.store import open_store
from cli import main
from tests.arbiter.sheets import sheet_totals  # the sheet recalculated by LibreOffice: its totals are formulas

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def run(db, *args, input=None, code=0):
    result = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "ana"], input=input)
    assert result.exit_code == code, result.output
    return result.stdout if code == 0 else result.output  # stderr says which store was opened


def judge_totals(db: Path) -> dict[int, int]:
    """Totals from `fluturas judge --json` run on its own on the stored game's CASE."""
    with open_store(db).session() as s:
        case, held = build_case(s, get_game(s, None))
    assert held == 0
    path = db.parent / "case.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "judge", str(path), "--json"],
                          capture_output=True, text=True, check=True)
    return {t["table"]: t["total"] for t in json.loads(done.stdout)["tables"]}


def test_round_loop_end_to_end(tmp_path):
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(SAMPLES / "words.txt"))
    assert "16 players seated" in run(db, "players", "import", str(SAMPLES / "players.csv"))
    run(db, "round", "set-rack", "AELMODR")
    out = run(db, "round", "set-top", "H4 MODEL")
    assert "H4 MODEL = 26 points (2 tops of 26)" in out and "equal top: 8D MODEL" in out
    pile = str(SAMPLES / "readings" / "round01.jsonl")
    out = run(db, "round", "scan", pile, "--keep", "new")
    assert "1 duplicate, 15 filed (16 readings)" in out and "no slip yet for tables: 16" in out
    assert "review: slips/r01-t15.png — unsure: position, word" in out
    assert "16 duplicate" in run(db, "round", "scan", pile)
    out = run(db, "round", "correct", code=2)  # a reading still unsure is never judged as missing
    assert "review item 1 of round 1 is open (unsure: position, word)" in out
    out = run(db, "review", input="c position=H4 word=MODEL\nread from the image\n")
    assert "round 1, table 15" in out and "image: slips/r01-t15.png" in out and out.count("done") == 1
    assert "16 decisions changed" in run(db, "round", "correct")
    run(db, "results", "provisional", "--deadline", "23:59", code=2)
    out = run(db, "review", input="a\nH4 is the only square\n")
    assert "round 1, table 12 (" in out and "— ruling to check: several squares give a legal move with one sign changed" in out
    assert out.count("done") == 1
    assert "the review queue is empty" in run(db, "review")
    assert "0 decisions changed" in run(db, "round", "correct")
    assert run(db, "round", "close").splitlines() == [
        "Depuneri 0 în turul 1: masa 11, masa 16.",
        "Depunerea top în turul 1 este H4 MODEL, 26 de puncte.",
        "Atenție la poziția depunerii top!",
    ]
    run(db, "round", "set-rack", "ARSUTE?")
    assert "7C SAlUTE = 7 points" in run(db, "round", "set-top")
    run(db, "round", "scan", str(SAMPLES / "readings" / "round02.jsonl"))
    run(db, "round", "correct")
    assert "jokerul înlocuiește litera L LUCA" in run(db, "round", "close")
    assert "totals updated" in run(db, "sanction", "3", "--disciplinary", "--reason", "telefonul a sunat")
    out = run(db, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / "out"))
    assert "appeals until 23:59" in out
    assert "totals updated" in run(db, "appeal", "7", "--round", "2", "--kind", "penalty", "--reason", "semnele sunt bune")
    run(db, "results", "final", "--out", str(tmp_path / "out"), code=2)
    assert "final" in run(db, "results", "final", "--force", "no appeal pending", "--out", str(tmp_path / "out"))
    totals = sheet_totals(tmp_path / "out" / "game1.xlsx")
    assert totals == judge_totals(db) and len(totals) == 16
    book = load_workbook(tmp_path / "out" / "game1.xlsx")
    ws = book["Arbitraj"]
    header = [c.value for c in ws[3]]
    row7 = next(r for r in ws.iter_rows(min_row=5) if r[0].value == 7)
    assert row7[header.index("T2")].comment is not None and "contesta" in row7[header.index("T2")].comment.text
    review_log = [row[2].value for row in book["Revizuire"].iter_rows(min_row=2)]
    assert {"slip.correct", "review.resolve", "sanction.disciplinary", "appeal.upheld", "results.final"} <= set(review_log)
    with open_store(db).session() as s:
        actions = [e.action for e in entries(s, 1)]
        assert all(e.actor == "ana" for e in entries(s, 1))
    assert actions.count("slip.file") == 31
    assert {"game.new", "round.rack", "round.continuation", "round.close", "decision.set", "standing.set",
            "results.provisional"} <= set(actions)


def test_bad_input_exits_2_naming_file_and_field(tmp_path):
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(SAMPLES / "words.txt"))
    bad = tmp_path / "seats.csv"
    bad.write_text("masa,nume\n1,A\n1,B\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["players", "import", str(bad), "--db", str(db)])
    assert out.exit_code == 2 and f"{bad}: row 3, column 1 (masa): table 1 is already seated at row 2" in out.output
    run(db, "players", "import", str(SAMPLES / "players.csv"))
    out = CliRunner().invoke(main, ["round", "set-rack", "AB1", "--db", str(db)])
    assert out.exit_code == 2 and "group 'AB1'" in out.output
    run(db, "round", "set-rack", "AELMODR")
    out = CliRunner().invoke(main, ["round", "set-top", "H9 MODEL", "--db", str(db)])
    assert out.exit_code == 2 and "not legal" in out.output
    out = CliRunner().invoke(main, ["round", "--help"])
    assert out.exit_code == 0 and "set-rack" in out.output


def test_round_draw_replays_the_game_master_from_the_seed(tmp_path):
    words = str(ROOT / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz")
    groups = []
    for name in ("a", "b"):
        db = tmp_path / f"{name}.db"
        run(db, "game", "new", "--tournament", "T", "--name", name, "--words", words, "--seed", "5")
        out = run(db, "round", "draw")
        assert "pentru turul 1 am extras literele" in out
        run(db, "round", "set-top")
        run(db, "round", "close")
        groups.append((out.splitlines()[0], run(db, "round", "draw").splitlines()[0]))
    assert groups[0] == groups[1] == ("round 1: group SFVIUTP", "round 2: group SFAOFUA")
    db = tmp_path / "c.db"
    run(db, "game", "new", "--tournament", "T", "--name", "c", "--words", words, "--seed", "5")
    run(db, "round", "set-rack", "AELMODR")
    run(db, "round", "set-top")
    run(db, "round", "close")
    out = CliRunner().invoke(main, ["round", "draw", "--db", str(db)])
    assert out.exit_code == 2 and "entered by hand" in out.output
