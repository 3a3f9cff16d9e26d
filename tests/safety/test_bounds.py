"""Issue 21, wrong results accepted without a word: every number, date and text that reaches the
store is bounded and checked (arbiter/store/validation.py), the same from the CLI and the library; a
refusal is one line naming the field, exit 2, and the store unchanged."""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime

import pytest

from arbiter.errors import WorkflowError
from arbiter.store.store import open_store
from arbiter.store.games import get_game

from .conftest import cli, fingerprint, one_line_error, rows


def provisional(db):
    cli(db, "round", "close")
    cli(db, "results", "provisional", "--deadline", "23:59", "--out", str(db.parent / "out"))
    return db


def judge_output(db) -> dict:
    """The judge's own output for the stored game (what `round correct` stores), to spoil one value of."""
    from arbiter.round.judging import build_case, run_judge

    store = open_store(db)
    try:
        with store.session() as s:
            case, _held = build_case(s, get_game(s))
        return run_judge(case)
    finally:
        store.close()


@pytest.mark.parametrize("where, value, field", [
    ("rank", -5, "field rank"),
    ("rank", 0, "field rank"),
    ("total", -99999, "field total"),
    ("total", 10**9, "field total"),
    ("status", "BANANA", "field status: 'BANANA'"),
    ("credited", 2_000_000, "field credited"),
])
def test_a_judge_output_out_of_bounds_is_refused(game, where, value, field):
    output = judge_output(game)
    if where in ("status", "credited"):
        output["rounds"][0]["slips"][0][where] = value
    else:
        output["tables"][0][where] = value
    path = game.parent / "judge.json"
    path.write_text(json.dumps(output), encoding="utf-8")
    before = fingerprint(game)
    result = cli(game, "round", "correct", "--judge-output", str(path), code=2)
    assert field in one_line_error(result) and str(path) in one_line_error(result)
    assert fingerprint(game) == before
    path.write_text(json.dumps(judge_output(game)), encoding="utf-8")
    cli(game, "round", "correct", "--judge-output", str(path))  # the judge's own output is taken


def test_the_score_ceiling_is_derived_from_the_rule_pack(game):
    from arbiter.store.validation import game_ceiling, round_ceiling, total_floor

    store = open_store(game)
    try:
        with store.session() as s:
            g = get_game(s)
            # RULES.md §1: 15 tiles × the dearest letter (10) × triple letter × 27 (three triple words
            # in a line), the main word and 7 cross words, + the 50-point bingo
            assert round_ceiling(g) == 8 * 15 * 10 * 3 * 27 + 50 == 97_250
            assert game_ceiling(g) == 100 * (97_250 + 10)
            assert game_ceiling(g) < 2**31 - 1  # every total fits the store's INTEGER
            assert total_floor(g) == -(100 * (5 + 20) + 2 * 20)
    finally:
        store.close()


@pytest.mark.parametrize("score", ["2000000000", "97251"])
def test_an_appeal_above_what_a_round_can_give_is_refused(game, score):
    """D 6.5: an appeal credits the points of one round; 2 000 000 000 would rank first."""
    provisional(game)
    before = fingerprint(game)
    result = cli(game, "appeal", "3", "--round", "1", "--kind", "total", "--score", score, "--reason", "r", code=2)
    assert f"--score {score}" in one_line_error(result) and "97250" in one_line_error(result)
    assert fingerprint(game) == before
    cli(game, "appeal", "3", "--round", "1", "--kind", "total", "--score", "97250", "--reason", "r")


@pytest.mark.parametrize("deadline", ["18,30", "18", "1830", "18:3", "25:00", "18:30:99", "2026-05-17", "mâine"])
def test_a_deadline_that_is_not_an_hour_is_refused(game, deadline):
    cli(game, "round", "close")
    before = fingerprint(game)
    result = cli(game, "results", "provisional", "--deadline", deadline, "--out", str(game.parent / "out"), code=2)
    assert f"--deadline {deadline!r}" in one_line_error(result)
    assert fingerprint(game) == before


def test_a_deadline_as_notice_boards_write_it():
    from arbiter.store.validation import check_deadline

    today = datetime(2026, 5, 17, 10, 0).astimezone()
    assert check_deadline("18.30", today).strftime("%H:%M") == "18:30"
    assert check_deadline("8:05", today).strftime("%H:%M") == "08:05"
    assert check_deadline("2026-05-17T19:00", today).hour == 19
    with pytest.raises(WorkflowError, match="18,30"):
        check_deadline("18,30", today)


def test_a_reading_appeal_naming_another_round_stores_nothing(game):
    """Exit 2 says nothing was stored: an appeal whose slip names round 2 while it is appealed in
    round 1 is refused before it is stored, not stored and then refused by the judge."""
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "set-top")
    before = fingerprint(game)
    result = cli(game, "appeal", "3", "--round", "1", "--kind", "reading", "--set", "round=2", "--reason", "r", code=2)
    assert "--set round 2" in one_line_error(result)
    assert fingerprint(game) == before and rows(game, "SELECT count(*) FROM appeal") == [(0,)]


def test_results_final_into_a_file_publishes_nothing(game):
    provisional(game)
    target = game.parent / "a-file"
    target.write_text("x")
    before = fingerprint(game)
    result = cli(game, "results", "final", "--force", "r", "--out", str(target), code=2)
    assert "--out must be a folder" in one_line_error(result)
    assert fingerprint(game) == before and rows(game, "SELECT status FROM game") == [("provisional",)]


def test_results_provisional_into_a_file_publishes_nothing(game):
    cli(game, "round", "close")
    target = game.parent / "a-file"
    target.write_text("x")
    before = fingerprint(game)
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(target), code=2)
    assert fingerprint(game) == before


def test_results_final_again_writes_the_final_files_and_changes_nothing(game):
    provisional(game)
    out = game.parent / "out"
    cli(game, "results", "final", "--force", "r", "--out", str(out))
    before = fingerprint(game)
    (out / "game1-results.html").unlink()
    result = cli(game, "results", "final", "--out", str(out))
    assert "already final" in result.output and (out / "game1-results.html").is_file()
    assert fingerprint(game) == before


def foreign_sqlite(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO contacts (name) VALUES ('Ana')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("command", [["game", "list"], ["status"], ["export"],
                                     ["game", "new", "--tournament", "T", "--name", "N"]])
def test_a_foreign_sqlite_file_is_refused_and_left_as_it_was(tmp_path, command):
    db = foreign_sqlite(tmp_path / "agenda.db")
    before = db.read_bytes()
    result = cli(db, *command, code=2)
    assert "not a fluturas store" in one_line_error(result) and "contacts" in one_line_error(result)
    assert db.read_bytes() == before
    assert rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'") == [("contacts",)]


def test_a_file_that_is_no_database_is_refused_and_left_as_it_was(tmp_path):
    db = tmp_path / "notes.db"
    db.write_bytes(b"not a database at all\n" * 100)
    before = db.read_bytes()
    assert "not a fluturas store" in one_line_error(cli(db, "game", "list", code=2))
    assert db.read_bytes() == before


def test_an_empty_file_becomes_a_store_only_through_game_new(tmp_path):
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    assert "empty database" in one_line_error(cli(db, "game", "list", code=2))
    assert db.read_bytes() == b""
    cli(db, "game", "new", "--tournament", "T", "--name", "N")
    assert "N" in cli(db, "game", "list").output


def test_a_reading_with_letters_outside_the_set_goes_to_review(game):
    """RULES.md §1: the Romanian set has no Æ. A slip read as SAÆUTE is a reading gone wrong: the
    judge rules it incorrect, and it waits in review (results are refused meanwhile), never a
    silent 0."""
    from .conftest import jsonl, reading

    cli(game, "round", "close")
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "set-top")
    pile = jsonl(game.parent / "r2.jsonl", reading(5, rnd=2, word="SAÆUTE", position="7C", score=7),
                 reading(6, rnd=2, word="SAlUTE", position="7C", score=7))
    cli(game, "round", "scan", str(pile), "--keep", "new")
    assert "1 sent to review" in cli(game, "round", "correct").output
    items = rows(game, "SELECT kind, table_no, reason FROM review_item WHERE state = 'open'")
    assert items == [("reading", 5, "the word SAÆUTE holds letters that are not in the set: read the slip again")]
    assert "SAÆUTE" in one_line_error(cli(game, "results", "provisional", "--deadline", "23:59",
                                          "--out", str(game.parent / "out"), code=2))
    cli(game, "review", input="c depunere=SAlUTE\nread from the slip\n")
    cli(game, "round", "correct")
    assert rows(game, "SELECT credited FROM decision d JOIN round r ON r.id = d.round_id "
                      "WHERE r.number = 2 AND d.table_no = 5") == [(7,)]
