"""The round loop through the real CLI on the sample game, with a judge output as the judge's
stand-in input (the judge itself is issue 4): every stored total reaches the sheet, every step
is in the audit log, bad input exits 2 with the file and field named."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from openpyxl import load_workbook

from arbiter.audit import entries
from arbiter.store import open_store
from cli import main

from .helpers import judge_output

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def run(db, *args, input=None, code=0):
    result = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "ana"], input=input)
    assert result.exit_code == code, result.output
    return result.output


def test_round_loop_end_to_end(tmp_path):
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(SAMPLES / "words.txt"))
    assert "16 players seated" in run(db, "players", "import", str(SAMPLES / "players.csv"))
    run(db, "round", "set-rack", "AELMODR")
    assert "= 26 points" in run(db, "round", "set-top", "H4 MODEL", "--equal-top", "8D MODEL",
                                "--notice", "Atenție la poziția depunerii top!")
    pile = str(SAMPLES / "readings" / "round01.jsonl")
    out = run(db, "round", "scan", pile, "--keep", "new")
    assert "1 duplicate, 15 filed (16 readings)" in out and "no slip yet for tables: 16" in out
    assert "review: slips/r01-t15.png — unsure: position, word" in out
    assert "0 filed" not in run(db, "round", "scan", pile) and "16 duplicate" in run(db, "round", "scan", pile)
    points = {t: [26] for t in range(1, 17)}
    points.update({11: [0], 12: [6], 16: [0]})
    decisions = tmp_path / "judge.json"
    decisions.write_text(json.dumps(judge_output(points)), encoding="utf-8")
    assert "16 decisions changed" in run(db, "round", "correct", "--judge-output", str(decisions))
    assert "provisional" not in run(db, "results", "provisional", "--deadline", "23:59", code=2)
    out = run(db, "review", input="c position=H4 word=MODEL\nread from the image\n")
    assert "round 1, table 15" in out and "image: slips/r01-t15.png" in out and "done" in out
    assert "the review queue is empty" in run(db, "review")
    out = run(db, "round", "close")
    assert out.splitlines() == [
        "Depuneri 0 în turul 1: masa 11, masa 16.",
        "Depunerea top în turul 1 este H4 MODEL, 26 de puncte.",
        "Atenție la poziția depunerii top!",
        "Atenție la soluția reținută!",
    ]
    run(db, "sanction", "3", "--disciplinary", "--reason", "telefonul a sunat", "--round", "1")
    out = run(db, "results", "provisional", "--deadline", "23:59", "--out", str(tmp_path / "out"))
    assert "appeals until 23:59" in out and "masa  11" in out
    run(db, "appeal", "12", "--round", "1", "--kind", "reading", "--set", "position=H4", "--reason", "misread")
    run(db, "results", "final", "--out", str(tmp_path / "out"), code=2)
    assert "final" in run(db, "results", "final", "--force", "no appeal pending", "--out", str(tmp_path / "out"))
    book = load_workbook(tmp_path / "out" / "game1.xlsx")
    ws = book["Arbitraj"]
    header = [c.value for c in ws[3]]
    totals = {r[0].value: r[header.index("Total")].value for r in ws.iter_rows(min_row=5, max_row=20)}
    assert totals == {t: sum(p) for t, p in points.items()}
    review_log = [row[2].value for row in book["Revizuire"].iter_rows(min_row=2)]
    assert {"slip.correct", "review.resolve", "sanction.disciplinary", "appeal.upheld", "results.final"} <= set(review_log)
    store = open_store(db)
    with store.session() as s:
        actions = [e.action for e in entries(s, 1)]
        assert all(e.actor == "ana" for e in entries(s, 1))
    assert actions.count("slip.file") == 15 and actions.count("decision.set") == 16
    assert {"game.new", "round.rack", "round.continuation", "round.close", "results.provisional"} <= set(actions)


def test_bad_input_exits_2_naming_file_and_field(tmp_path):
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "P1")
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
    out = CliRunner().invoke(main, ["round", "draw", "--db", str(db)])
    assert out.exit_code == 2 and "game master" in out.output
    out = CliRunner().invoke(main, ["round", "--help"])
    assert out.exit_code == 0 and "set-rack" in out.output
