"""Issue 12, no tracebacks: every failure reaches the arbiter as one line naming the file, field
or row, with a documented exit code (README "Exit codes"); an unexpected one is INTERNAL with its
traceback in a log file beside the store. Which store is open is always said, and only
`game new` creates one."""
from __future__ import annotations

import sqlite3

import pytest

from exitcodes import ExitCode

from .conftest import cli, fingerprint, one_line_error, rows


def test_every_command_says_which_store_it_opened(game):
    result = cli(game, "game", "list")
    assert result.stderr.splitlines()[0] == f"store: {game}"


def test_only_game_new_creates_a_store(tmp_path):
    db = tmp_path / "elsewhere.db"
    for command in (["game", "list"], ["round", "correct"], ["review"], ["results", "provisional", "--deadline", "18:00"]):
        line = one_line_error(cli(db, *command, code=2))
        assert "no such store" in line and str(db) in line
    assert not db.exists()
    cli(db, "game", "new", "--tournament", "T", "--name", "G")
    assert db.exists()


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    db = tmp_path / "notes.db"
    db.write_bytes(b"these are my notes, not a database" * 100)
    line = one_line_error(cli(db, "game", "list", code=ExitCode.BAD_INPUT))
    assert str(db) in line and "fluturas store" in line
    assert db.read_bytes().startswith(b"these are my notes")


def test_a_store_from_a_newer_schema_is_refused(game):
    conn = sqlite3.connect(game)
    conn.execute("UPDATE alembic_version SET version_num = '0099'")
    conn.commit()
    conn.close()
    line = one_line_error(cli(game, "game", "list", code=ExitCode.BAD_INPUT))
    assert "0099" in line and "newer" in line


def test_a_read_only_store_is_file_access(game):
    read_only = f"sqlite:///file:{game}?mode=ro&uri=true"
    before = fingerprint(game)
    result = cli(read_only, "sanction", "3", "--disciplinary", "--reason", "telefon", code=ExitCode.FILE_ACCESS)
    assert "readonly" in one_line_error(result).lower()
    assert fingerprint(game) == before


def test_an_unexpected_failure_is_one_line_and_a_logged_traceback(game, monkeypatch):
    import arbiter.store.games

    def broken(*_args, **_kw):
        raise RuntimeError("the disk controller said no")

    monkeypatch.setattr(arbiter.store.games, "get_game", broken)
    result = cli(game, "undo", "list", code=ExitCode.INTERNAL)
    line = one_line_error(result)
    log = game.parent / "fluturas-errors.log"
    assert line.startswith("internal error: RuntimeError: the disk controller said no") and str(log) in line
    assert "Traceback" in log.read_text(encoding="utf-8") and "broken" in log.read_text(encoding="utf-8")


def test_out_that_is_a_file_is_refused(game):
    cli(game, "round", "close")
    out = game.parent / "out"
    out.write_text("not a folder")
    line = one_line_error(cli(game, "export", "--out", str(out), code=2))
    assert str(out) in line and "--out" in line


@pytest.mark.parametrize("masa", ["²", "٣", "1e3", "-4"])
def test_a_seating_number_that_is_no_plain_number_is_refused(game, tmp_path, masa):
    seats = tmp_path / "seats.csv"
    seats.write_text(f"masa;nume;prenume;club;categorie\n{masa};Pop;Ana;CS;senior\n", encoding="utf-8")
    before = fingerprint(game)
    line = one_line_error(cli(game, "players", "import", str(seats), "--replace", code=2))
    assert str(seats) in line and "row 2" in line
    assert fingerprint(game) == before


def test_deep_json_is_refused_naming_the_file(game, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    line = one_line_error(cli(game, "round", "correct", "--judge-output", str(deep), code=2))
    assert str(deep) in line
    pile = tmp_path / "deep.jsonl"
    pile.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    result = cli(game, "round", "scan", str(pile), code=ExitCode.CHECK_FAILED)
    assert str(pile) in result.stderr and "Traceback" not in result.output


def test_a_huge_json_readings_file_is_refused(game, tmp_path):
    pile = tmp_path / "huge.jsonl"
    with pile.open("w") as handle:
        handle.write('{"source": "x", "fields": {"word": "' + "A" * (70 * 2**20) + '"}}\n')
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(pile), code=ExitCode.CHECK_FAILED)
    assert str(pile) in result.stderr and "Traceback" not in result.output
    assert fingerprint(game) == before


def test_two_arbiters_correcting_at_once_get_conflict_not_a_traceback(game):
    """While another command holds the write lock, `round correct` waits, then says CONFLICT."""
    from arbiter.errors import ConcurrentChange
    from arbiter.store.store import store_failure

    blocker = sqlite3.connect(game, timeout=0)
    blocker.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(game, timeout=0)
    try:
        other.execute("INSERT INTO tournament (name) VALUES ('x')")
    except sqlite3.OperationalError as exc:
        from sqlalchemy.exc import OperationalError

        failure = store_failure(str(game), OperationalError("INSERT", {}, exc))
    finally:
        blocker.rollback()
        blocker.close()
        other.close()
    assert isinstance(failure, ConcurrentChange) and failure.exit_code == ExitCode.CONFLICT
    assert rows(game, "SELECT count(*) FROM tournament") == [(1,)]


def test_two_round_corrects_at_once_end_in_ok_or_conflict(game):
    """Two arbiters run `round correct` at the same moment (real processes): each ends with 0 or
    CONFLICT, never a traceback, and the store is the judge's either way."""
    import subprocess
    import sys

    from .conftest import ROOT

    (folder,) = {game.parent}
    command = [sys.executable, str(ROOT / "cli.py"), "round", "correct", "--db", str(game), "--arbiter", "ana"]
    conn = sqlite3.connect(game)  # no decision stored yet: both will insert the same rows
    conn.execute("DELETE FROM decision")
    conn.execute("DELETE FROM standing")
    conn.commit()
    conn.close()
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder)
            for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode in (0, ExitCode.CONFLICT) and "Traceback" not in err, err
    assert "0 decisions changed" in cli(game, "round", "correct").output
