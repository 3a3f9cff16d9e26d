"""An anticipation game (RULES.md §7) through the arbiter's commands, on a real SQLite file:
`game new --type anticipation`, `round groups`, `round order`, typed slips filed with `round scan`,
`round correct`, `export`. The sheet read back must carry, for every player, the totals and
round points that `fluturas judge` gives for the same game file — the store adds nothing."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
from click.testing import CliRunner
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.models import Decision, Game, Round
from arbiter.store.store import open_store
from cli import main
from tests.arbiter.sheets import sheet_values

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "anticipation" / "small.json"


def _cli(db: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "ana"])
    assert result.exit_code == 0, result.output + str(result.exception)
    return result.stdout  # stderr says which store was opened


def _judge(path: Path) -> dict:
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "judge", str(path), "--json"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _setup(tmp_path: Path) -> tuple[dict, Path, Path]:
    case = json.loads(SAMPLE.read_text(encoding="utf-8"))
    words = tmp_path / "words.txt"
    words.write_text("\n".join(case["words"]) + "\n", encoding="utf-8")
    seats = tmp_path / "seats.csv"
    seats.write_text("masa,nume\n" + "".join(f"{p['table']},{p['name']}\n" for p in case["players"]), encoding="utf-8")
    return case, words, seats


def _open_sample_game(db: Path, case: dict, words: Path, seats: Path, name: str) -> None:
    """The arbiter's first steps on the sample: game, seating, the round's groups and their order."""
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", name, "--type", "anticipation",
         "--words", str(words), "--seed", "7")
    _cli(db, "players", "import", str(seats))
    _cli(db, "round", "groups", "--set", ",".join(case["groups"]))
    _cli(db, "round", "order", "--set", ",".join(map(str, case["order"])))


def _sheet_rows(path: Path) -> tuple[list, dict[int, dict[str, object]]]:
    rows = sheet_values(path, "Anticipație")  # Depuneri and Total are formulas: as LibreOffice computes them
    header_at = next(i for i, r in enumerate(rows) if r and r[0] == "Masa")
    headers = rows[header_at]
    by_table = {r[0]: dict(zip(headers, r)) for r in rows[header_at + 2:] if isinstance(r[0], int)}
    return headers, by_table


def test_the_sample_game_through_the_workflow_gives_the_judges_totals(tmp_path):
    case, words, seats = _setup(tmp_path)
    db = tmp_path / "store.db"
    _open_sample_game(db, case, words, seats, "Anticipație 1")
    slips = tmp_path / "slips.jsonl"
    slips.write_text("".join(json.dumps(s) + "\n" for s in case["slips"]), encoding="utf-8")
    assert "4 filed" in _cli(db, "round", "scan", str(slips))
    assert "4 duplicate" in _cli(db, "round", "scan", str(slips))  # typed twice: filed once
    _cli(db, "round", "correct")
    again = _cli(db, "round", "correct")
    assert "0 decisions changed" in again  # re-correcting stores nothing new
    out = tmp_path / "out"
    _cli(db, "export", "--out", str(out))

    expected = {p["table"]: p for p in _judge(SAMPLE)["players"]}
    headers, sheet = _sheet_rows(out / "game1.xlsx")
    assert set(sheet) == set(expected)
    for table, want in expected.items():
        row = sheet[table]
        assert row["Total"] == want["total"]
        assert row["Loc"] == want["rank"]
        assert row["Depuneri"] == want["moves_total"]
        assert row["Penalizări"] == want["penalty_total"]
        assert row["Avertismente"] == want["warning_cost"]
        for rnd in want["rounds"]:
            assert row[f"T{rnd['round']} pct"] == rnd["score"], (table, rnd["round"])

    ws = openpyxl.load_workbook(out / "game1.xlsx")["Anticipație"]
    assert ws.freeze_panes == "C5"
    notes = {c.coordinate: c.comment.text for r in ws.iter_rows() for c in r if c.comment}
    assert any("depunere anulată de jucător 3→0" in n for n in notes.values())  # Ana's round 2, cancelled in round 3
    assert any("Verificare: LAC DA" in n for n in notes.values())
    assert any("avertisment: punctaj greșit" in n for n in notes.values())
    assert not any(re.search(r"\b[A-Z]+_[A-Z_]+\b|RULES\.md", n) for n in notes.values())  # words, not codes

    store = open_store(db)
    with store.session() as s:
        game = s.scalar(select(Game))
        assert (game.kind, game.groups, game.group_order) == ("anticipation", case["groups"], case["order"])
        assert [r.rack for r in s.scalars(select(Round).order_by(Round.number))][:2] == ["AS+ACEMRST", "ACEILRT"]
        r2 = s.scalar(select(Decision).join(Round, Round.id == Decision.round_id)
                      .where(Round.number == 2, Decision.table_no == 1))
        assert r2.moves[0]["revisions"][0]["outcome"] == "WITHDRAWN" and r2.credited == 0
        actions = {e.action for e in entries(s, game.id)}
    store.close()
    assert {"game.new", "game.groups", "game.group_order", "round.rack", "slip.file", "decision.set",
            "standing.set"} <= actions


def test_groups_and_order_drawn_from_the_seed_are_reproducible_and_audited(tmp_path):
    _case, words, _seats = _setup(tmp_path)
    drawn = []
    for name in ("a.db", "b.db"):
        db = tmp_path / name
        _cli(db, "game", "new", "--tournament", "Cupa", "--name", "A", "--type", "anticipation",
             "--words", str(words), "--seed", "11")
        groups = _cli(db, "round", "groups", "--draw")
        order = _cli(db, "round", "order", "--draw", "--through", "3")
        drawn.append((groups, order))
        store = open_store(db)
        with store.session() as s:
            game = s.scalar(select(Game))
            assert len(game.groups) == 15 and len(game.groups[0]) == 2 and len(game.group_order) == 3
            logged = [e for e in entries(s, game.id) if e.action == "game.groups"]
            assert logged[0].after["source"] == "drawn" and logged[0].after["seed"] == 11
        store.close()
    assert drawn[0] == drawn[1]
    assert len(drawn[0][1].strip().splitlines()) == 3


def test_duplicate_commands_are_refused_on_an_anticipation_game_and_back(tmp_path):
    _case, words, _seats = _setup(tmp_path)
    db = tmp_path / "store.db"
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", "A", "--type", "anticipation", "--words", str(words))
    out = CliRunner().invoke(main, ["round", "set-rack", "AELMODR", "--db", str(db)])
    assert out.exit_code != 0 and "type anticipation" in out.output
    out = CliRunner().invoke(main, ["round", "groups", "--set", "AS", "--db", str(db)])
    assert out.exit_code != 0 and "expected 15 groups" in out.output
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", "D", "--words", str(words))
    out = CliRunner().invoke(main, ["round", "groups", "--draw", "--db", str(db)])
    assert out.exit_code != 0 and "type duplicate" in out.output
